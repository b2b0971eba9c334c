/* The library's version at run time (simsched/version.h). */
#include "simsched/params.h"
#include "simsched/version.h"

const char *ss_version(void)
{
	return SS_VERSION_STRING;
}

unsigned ss_version_number(void)
{
	return SS_VERSION_NUMBER;
}

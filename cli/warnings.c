/* Printing what a workload loader accepted or ignored (rt-app import). */
#include <stdio.h>

#include "cli.h"
#include "simsched/rtapp.h"

void ss_cli_workload_warnings(const struct ss_workload *w)
{
	for (const char *const *s = ss_workload_warnings(w); *s; s++)
		fprintf(stderr, "simsched: warning: %s\n", *s);
}

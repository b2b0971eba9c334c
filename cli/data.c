/* Shipped machines and workloads by name on the command line (simsched/data.h). */
#include "cli.h"
#include "simsched/data.h"

void ss_cli_resolve_data(char **path, const char *kind)
{
	char *found = *path ? ss_data_find(kind, *path) : NULL;

	if (found) {
		g_free(*path);
		*path = found;
	}
}

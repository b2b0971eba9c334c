/* Printing what a workload loader (rt-app import) or a topology build accepted or ignored. */
#include <stdio.h>

#include "cli.h"
#include "simsched/rtapp.h"
#include "simsched/topology.h"

void ss_cli_workload_warnings(const struct ss_workload *w)
{
	for (const char *const *s = ss_workload_warnings(w); *s; s++)
		fprintf(stderr, "simsched: warning: %s\n", *s);
}

void ss_cli_topology_warnings(const struct ss_topology *t)
{
	for (const char *const *s = ss_topology_warnings(t); *s; s++)
		fprintf(stderr, "simsched: warning: %s\n", *s);
}

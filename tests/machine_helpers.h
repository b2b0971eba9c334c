/* Helpers shared by the topology tests (test_topology.c, test_machines*.c). */
#ifndef SIMSCHED_TEST_MACHINE_HELPERS_H
#define SIMSCHED_TEST_MACHINE_HELPERS_H

#include <glib.h>

#include "simsched/topology.h"

static char listbuf[4][8192];

/* cpulist of m; up to 4 results live at once */
G_GNUC_UNUSED static const char *L(const struct ss_topology *t, const uint64_t *m)
{
	static unsigned k;
	char *b = listbuf[k++ % 4];

	return ss_cpumask_format_list(m, t->nr_cpus, b, sizeof(listbuf[0]));
}

/* load topologies/... relative to the source tree; fails the test on error */
G_GNUC_UNUSED static struct ss_topology *load_file(const char *rel)
{
	GError *err = NULL;
	char *path = g_build_filename(SS_SOURCE_DIR, rel, NULL);
	struct ss_topology *t = ss_topology_load(path, &err);

	if (!t)
		fail_msg("%s: %s", path, err->message);
	g_free(path);
	return t;
}

#endif

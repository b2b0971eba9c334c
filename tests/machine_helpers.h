/* Helpers shared by the tests (topologies and workloads from files or strings; cpulists). Include after cmocka.h. */
#ifndef SIMSCHED_TEST_MACHINE_HELPERS_H
#define SIMSCHED_TEST_MACHINE_HELPERS_H

#include <string.h>
#include <glib.h>

#include "simsched/topology.h"
#include "simsched/workload.h"

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

/* a topology from YAML text; fails the test on error */
G_GNUC_UNUSED static struct ss_topology *topo_from(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "inline-topology.yaml", &err);

	if (!t)
		fail_msg("%s", err->message);
	return t;
}

/* a workload from YAML text; fails the test on error */
G_GNUC_UNUSED static struct ss_workload *wl_from(const char *yaml)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(yaml, strlen(yaml), "inline.yaml", &err);

	if (!w)
		fail_msg("%s", err->message);
	return w;
}

#endif

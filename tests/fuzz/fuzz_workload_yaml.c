/*
 * Fuzz target: a workload's YAML (ss_workload_load_string), and when it
 * loads, its plan on an 8-CPU machine at 100 % (ss_workload_instantiate).
 */
#include "fuzz.h"
#include "simsched/topology.h"
#include "simsched/workload.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char machine[] = "name: f\nvendor: arm\nclusters:\n  - cores: \"0-7\"\n";
	static struct ss_topology *t;
	GError *err = NULL;
	struct ss_workload *w;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	if (!t)
		t = ss_topology_load_string(machine, strlen(machine), "f.yaml", NULL);
	w = ss_workload_load_string((const char *)data, size, "fuzz.yaml", &err);
	g_clear_error(&err);
	if (w && t) {
		struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, t->nr_cpus, &err);
		g_clear_error(&err);
		ss_wl_plan_free(p);
	}
	ss_workload_free(w);
	return 0;
}

/* Fuzz target: a machine's YAML (ss_topology_load_string: parse, checks, sched domains). */
#include "fuzz.h"
#include "simsched/topology.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct ss_topology *t;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	t = ss_topology_load_string((const char *)data, size, "fuzz.yaml", &err);
	ss_topology_free(t);
	g_clear_error(&err);
	return 0;
}

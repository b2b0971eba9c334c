/* Fuzz target: an lstopo XML export (ss_topology_import_hwloc, then the YAML it writes loaded back). */
#include "fuzz.h"
#include "simsched/topology.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
	char *yaml;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	yaml = ss_topology_import_hwloc(fuzz_file(data, size, "m.xml"), "fuzz", warnings, &err);
	g_clear_error(&err);
	if (yaml) {
		struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "imported.yaml", &err);
		g_clear_error(&err);
		ss_topology_free(t);
	}
	g_free(yaml);
	g_ptr_array_free(warnings, TRUE);
	return 0;
}

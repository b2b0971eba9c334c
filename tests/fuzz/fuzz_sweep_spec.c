/* Fuzz target: a sweep spec (ss_sweep_spec_load), placed where the shipped sweep.yaml is, so its ../../topologies/ paths resolve. */
#include "fuzz.h"
#include "simsched/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct ss_sweep_spec *s;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = ss_sweep_spec_load(fuzz_file(data, size, "docs/examples/spec.yaml"), &err);
	if (!s && g_getenv("FUZZ_VERBOSE"))
		g_printerr("%s\n", err->message);
	ss_sweep_spec_free(s);
	g_clear_error(&err);
	return 0;
}

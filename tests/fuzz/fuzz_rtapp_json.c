/* Fuzz target: an rt-app JSON file (ss_rtapp_load_string: the loosened JSON, events, lowering). */
#include "fuzz.h"
#include "simsched/rtapp.h"
#include "simsched/workload.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct ss_workload *w;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	w = ss_rtapp_load_string((const char *)data, size, "fuzz.json", &err);
	ss_workload_free(w);
	g_clear_error(&err);
	return 0;
}

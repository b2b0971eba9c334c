/* Fuzz target: an experiment file (ss_experiment_load: series, rules, checks). */
#include "fuzz.h"
#include "simsched/experiment.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct ss_experiment *x;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	x = ss_experiment_load(fuzz_file(data, size, "experiments/S99.yaml"), &err);
	ss_experiment_free(x);
	g_clear_error(&err);
	return 0;
}

/* Fuzz target: an experiment file (ss_experiment_load: series, rules, checks). */
#include "fuzz.h"
#include "simsched/experiment.h"

#include <string.h>

/*
 * The loader insists that the id equals the file's stem: name the file
 * after the input's first "id: X" line (X letters and digits, at most 15),
 * so that mutations of a seed get past that check to the series and rules.
 */
static void stem_of(const uint8_t *data, size_t size, char stem[16])
{
	strcpy(stem, "S99");
	for (size_t i = 0; i + 4 <= size; i++) {
		if ((i && data[i - 1] != '\n') || memcmp(data + i, "id: ", 4))
			continue;
		size_t j = i + 4, n = 0;
		while (j < size && n < 15 && g_ascii_isalnum(data[j]))
			stem[n++] = (char)data[j++];
		if (n && (j == size || data[j] == '\n' || data[j] == ' ' || data[j] == '\r'))
			stem[n] = 0;
		else
			strcpy(stem, "S99");
		return;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	GError *err = NULL;
	struct ss_experiment *x;
	char stem[16], name[40];

	if (size > FUZZ_MAX_INPUT)
		return 0;
	stem_of(data, size, stem);
	g_snprintf(name, sizeof name, "experiments/%s.yaml", stem);
	x = ss_experiment_load(fuzz_file(data, size, name), &err);
	if (!x && g_getenv("FUZZ_VERBOSE"))
		g_printerr("%s\n", err->message);
	ss_experiment_free(x);
	g_clear_error(&err);
	return 0;
}

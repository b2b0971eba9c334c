/*
 * The fuzz targets without libFuzzer (fuzz.h): feed each file named, and
 * each file of each directory named (sorted), to LLVMFuzzerTestOneInput().
 * A crash is the test's failure; the exit status is 0 otherwise. Missing
 * paths are an error (a renamed seed directory must not pass silently).
 */
#include "fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned run_file(const char *path)
{
	gchar *data = NULL;
	gsize len = 0;
	GError *err = NULL;

	if (!g_file_get_contents(path, &data, &len, &err)) {
		fprintf(stderr, "%s\n", err->message);
		exit(2);
	}
	if (len <= FUZZ_MAX_INPUT)
		LLVMFuzzerTestOneInput((const uint8_t *)data, len);
	g_free(data);
	return 1;
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	unsigned n = 0;

	for (int i = 1; i < argc; i++) {
		if (g_file_test(argv[i], G_FILE_TEST_IS_DIR)) {
			GDir *d = g_dir_open(argv[i], 0, NULL);
			GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
			const char *e;

			while (d && (e = g_dir_read_name(d)))
				g_ptr_array_add(names, g_build_filename(argv[i], e, NULL));
			if (d)
				g_dir_close(d);
			qsort(names->pdata, names->len, sizeof(char *), cmp);
			for (unsigned k = 0; k < names->len; k++)
				if (g_file_test(g_ptr_array_index(names, k), G_FILE_TEST_IS_REGULAR))
					n += run_file(g_ptr_array_index(names, k));
			g_ptr_array_free(names, TRUE);
		} else if (g_file_test(argv[i], G_FILE_TEST_IS_REGULAR)) {
			n += run_file(argv[i]);
		} else {
			fprintf(stderr, "%s: no such file or directory\n", argv[i]);
			return 2;
		}
	}
	printf("%u inputs\n", n);
	return 0;
}

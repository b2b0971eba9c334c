/* tests/fuzz: the input as a file (fuzz.h). */
#include "fuzz.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>

static char *dir;

static void cleanup(void)
{
	GDir *d;
	const char *n;

	if (!dir || !(d = g_dir_open(dir, 0, NULL)))
		return;
	while ((n = g_dir_read_name(d))) {
		char *p = g_build_filename(dir, n, NULL);
		g_unlink(p);
		g_free(p);
	}
	g_dir_close(d);
	g_rmdir(dir);
}

const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
	static char *path;
	GError *err = NULL;

	if (!dir) {
		dir = g_dir_make_tmp("simsched-fuzz-XXXXXX", &err);
		if (!dir) {
			fprintf(stderr, "fuzz: %s\n", err->message);
			abort();
		}
		atexit(cleanup);
	}
	g_free(path);
	path = g_build_filename(dir, name, NULL);
	if (!g_file_set_contents(path, (const char *)data, (gssize)size, &err)) {
		fprintf(stderr, "fuzz: %s\n", err->message);
		abort();
	}
	return path;
}

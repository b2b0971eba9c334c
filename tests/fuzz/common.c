/* tests/fuzz: the input as a file (fuzz.h). */
#include "fuzz.h"

#include <glib/gstdio.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *dir;

/* Remove dir's tree: files, the symlinks (not what they point to) and the subdirectories. */
static void remove_tree(const char *d)
{
	GDir *h;
	const char *n;

	if (!(h = g_dir_open(d, 0, NULL)))
		return;
	while ((n = g_dir_read_name(h))) {
		char *p = g_build_filename(d, n, NULL);
		if (!g_file_test(p, G_FILE_TEST_IS_SYMLINK) && g_file_test(p, G_FILE_TEST_IS_DIR))
			remove_tree(p);
		else
			g_unlink(p);
		g_free(p);
	}
	g_dir_close(h);
	g_rmdir(d);
}

static void cleanup(void)
{
	if (dir)
		remove_tree(dir);
}

static void die(const char *what, GError *err)
{
	fprintf(stderr, "fuzz: %s: %s\n", what, err ? err->message : g_strerror(errno));
	abort();
}

const char *fuzz_file(const uint8_t *data, size_t size, const char *name)
{
	static char *path;
	GError *err = NULL;

	if (!dir) {
		dir = g_dir_make_tmp("simsched-fuzz-XXXXXX", &err);
		if (!dir)
			die("temporary directory", err);
		atexit(cleanup);
		/* the shipped machines and workloads, where an experiment's ../topologies/ finds them */
		static const char *const shared[] = { "topologies", "workloads" };
		for (unsigned i = 0; i < G_N_ELEMENTS(shared); i++) {
			char *to = g_build_filename(SIMSCHED_SOURCE_DIR, shared[i], NULL);
			char *at = g_build_filename(dir, shared[i], NULL);
			if (symlink(to, at))
				die(at, NULL);
			g_free(to);
			g_free(at);
		}
	}
	if (path)
		g_unlink(path); /* one input file at a time, whatever its name */
	g_free(path);
	path = g_build_filename(dir, name, NULL);
	char *parent = g_path_get_dirname(path);
	if (g_mkdir_with_parents(parent, 0700))
		die(parent, NULL);
	g_free(parent);
	if (!g_file_set_contents(path, (const char *)data, (gssize)size, &err))
		die(path, err);
	return path;
}

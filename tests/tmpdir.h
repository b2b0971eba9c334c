/*
 * Test helper: one temporary directory per test group (CMocka group setup
 * and teardown), removed with the files written into it.
 */
#ifndef SS_TESTS_TMPDIR_H
#define SS_TESTS_TMPDIR_H

#include <glib.h>
#include <glib/gstdio.h>

static char *tmpdir;

static int tmpdir_setup(void **state)
{
	(void)state;
	tmpdir = g_dir_make_tmp("simsched-test-XXXXXX", NULL);
	return tmpdir ? 0 : -1;
}

static int tmpdir_teardown(void **state)
{
	GDir *d = g_dir_open(tmpdir, 0, NULL);
	const char *e;

	(void)state;
	while (d && (e = g_dir_read_name(d))) {
		char *p = g_build_filename(tmpdir, e, NULL);
		g_remove(p);
		g_free(p);
	}
	if (d)
		g_dir_close(d);
	g_rmdir(tmpdir);
	g_free(tmpdir);
	return 0;
}

/* Write text to tmpdir/name; the path (g_free it). Fails the test if it cannot. */
static char *write_tmp(const char *name, const char *text)
{
	char *p = g_build_filename(tmpdir, name, NULL);
	assert_true(g_file_set_contents(p, text, -1, NULL));
	return p;
}

#endif

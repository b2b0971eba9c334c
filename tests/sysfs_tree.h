/* Helpers for tests that build sysfs trees on disk (test_import.c, test_numa_asym.c).
 * Include after <cmocka.h>. */
#ifndef SIMSCHED_TEST_SYSFS_TREE_H
#define SIMSCHED_TEST_SYSFS_TREE_H

#include <glib.h>
#include <glib/gstdio.h>

/* Write ROOT/rel with text, creating directories; fails the test on error. */
G_GNUC_UNUSED static void put(const char *root, const char *rel, const char *text)
{
	char *p = g_build_filename(root, rel, NULL), *dir = g_path_get_dirname(p);

	assert_int_equal(g_mkdir_with_parents(dir, 0755), 0);
	assert_true(g_file_set_contents(p, text, -1, NULL));
	g_free(dir);
	g_free(p);
}

/* Remove path and everything below it (symlinks are removed, not followed). */
G_GNUC_UNUSED static void rm_tree(const char *path)
{
	GDir *d = g_file_test(path, G_FILE_TEST_IS_SYMLINK) ? NULL : g_dir_open(path, 0, NULL);
	const char *e;

	if (d) {
		while ((e = g_dir_read_name(d))) {
			char *p = g_build_filename(path, e, NULL);
			rm_tree(p);
			g_free(p);
		}
		g_dir_close(d);
	}
	g_remove(path);
}

#endif

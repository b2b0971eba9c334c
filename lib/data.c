/*
 * The shipped machines and workloads found by name (simsched/data.h).
 *
 * The installation is found from the running code's own file: the program
 * (/proc/self/exe, PREFIX/bin/simsched) and the shared library holding this
 * function (dladdr(), PREFIX/lib/libsimsched.so), each with the relative
 * path from its install directory to PREFIX/share/simsched that CMake
 * computed (SS_BIN_TO_DATA, SS_LIB_TO_DATA). A program of the build tree
 * (SS_BUILD_DIR) uses the source tree (SS_SOURCE_DIR) instead.
 */
#define _GNU_SOURCE 1
#include <dlfcn.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "simsched/data.h"

/* share/simsched under the install directory `dir` of code, if it is one; else NULL */
static char *data_dir_from(const char *file, const char *rel)
{
	char *real, *dir, *cand, *out = NULL;

	if (!file || !(real = realpath(file, NULL)))
		return NULL;
	dir = g_path_get_dirname(real);
	free(real);
	cand = g_build_filename(dir, rel, NULL);
	if (g_file_test(cand, G_FILE_TEST_IS_DIR)) {
		char *r = realpath(cand, NULL);
		out = g_strdup(r ? r : cand);
		free(r);
	}
#ifdef SS_BUILD_DIR
	else {
		char *build = realpath(SS_BUILD_DIR, NULL);
		if (build && !strcmp(build, dir))
			out = g_strdup(SS_SOURCE_DIR);
		free(build);
	}
#endif
	g_free(cand);
	g_free(dir);
	return out;
}

char *ss_data_dir(void)
{
	const char *env = g_getenv(SS_DATADIR_ENV);
	char *d;
	Dl_info info;

	if (env && *env)
		return g_strdup(env);
	if ((d = data_dir_from("/proc/self/exe", SS_BIN_TO_DATA)))
		return d;
	if (dladdr((void *)ss_data_dir, &info) && info.dli_fname && (d = data_dir_from(info.dli_fname, SS_LIB_TO_DATA)))
		return d;
	return NULL;
}

char *ss_data_find(const char *kind, const char *name)
{
	char *dir, *p = NULL;

	if (!name || !*name)
		return NULL;
	if (g_file_test(name, G_FILE_TEST_EXISTS) || g_path_is_absolute(name) || g_str_has_prefix(name, "./") ||
	    g_str_has_prefix(name, "../"))
		return g_strdup(name);
	if (!(dir = ss_data_dir()))
		return NULL;
	p = g_build_filename(dir, kind, name, NULL);
	if (!g_file_test(p, G_FILE_TEST_IS_REGULAR)) {
		char *y = g_strconcat(p, ".yaml", NULL);
		g_free(p);
		p = y;
		if (!g_file_test(p, G_FILE_TEST_IS_REGULAR)) {
			g_free(p);
			p = NULL;
		}
	}
	g_free(dir);
	return p;
}

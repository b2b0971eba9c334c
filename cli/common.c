/*
 * What every simsched command shares: option parsing with errors that name
 * the option, the check of a result path before any work, the seed range,
 * and the check that standard output was really written.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "simsched/provenance.h"
#include "simsched/sim.h"

static int exit_status;   /* what main returns; the stdout check keeps a failure's own status */
static int stdout_errno;  /* the first failed write's errno (a large fputs fails before the flush at exit) */

void ss_cli_print(const char *s)
{
	errno = 0;
	if ((fputs(s, stdout) == EOF || fflush(stdout) != 0) && !stdout_errno)
		stdout_errno = errno;
}

void ss_cli_set_exit_status(int rc)
{
	exit_status = rc;
}

/*
 * atexit: results that did not reach stdout (a full disk, /dev/full, a closed
 * pipe's EPIPE when SIGPIPE is ignored) must not exit 0. fflush reports the
 * error of the data still buffered; ferror one of an earlier write; fclose
 * one of the final close.
 */
static void close_stdout(void)
{
	int e = 0;
	bool bad = false;

	errno = 0;
	if (fflush(stdout) != 0) {
		bad = true;
		e = errno;
	}
	if (ferror(stdout))
		bad = true;
	errno = 0;
	if (fclose(stdout) != 0 && !bad) {
		bad = true;
		e = errno;
	}
	if (!bad)
		return;
	if (!e)
		e = stdout_errno;
	fprintf(stderr, "simsched: cannot write to standard output: %s\n", e ? g_strerror(e) : "write error");
	_exit(exit_status ? exit_status : 1);
}

/*
 * g_print (GOption's --help) through ss_cli_print, so its failure keeps
 * errno; converted to the console's character set as g_print does.
 */
static void print_handler(const gchar *s)
{
	const char *charset;
	if (g_get_console_charset(&charset)) {
		ss_cli_print(s);
		return;
	}
	g_autofree char *conv = g_convert_with_fallback(s, -1, charset, "UTF-8", "?", NULL, NULL, NULL);
	ss_cli_print(conv ? conv : s);
}

void ss_cli_check_stdout_at_exit(void)
{
	g_set_print_handler(print_handler);
	atexit(close_stdout);
}

/* the entry of short option c, or NULL */
static const GOptionEntry *short_entry(const GOptionEntry *entries, char c)
{
	for (const GOptionEntry *e = entries; e->long_name; e++)
		if (e->short_name && e->short_name == c)
			return e;
	return NULL;
}

static bool takes_value(const GOptionEntry *e)
{
	return e->arg != G_OPTION_ARG_NONE && !(e->flags & (G_OPTION_FLAG_NO_ARG | G_OPTION_FLAG_OPTIONAL_ARG));
}

/*
 * The entry of the option arg (e.g. "--name", "--name=x", "-n", "-nx", or
 * in a cluster of short flags the one that takes a value, "-qnx"), or NULL;
 * *inline_value is the value written in arg, if any.
 */
static const GOptionEntry *entry_of(const GOptionEntry *entries, const char *arg, const char **inline_value)
{
	*inline_value = NULL;
	if (arg[0] != '-' || !arg[1])
		return NULL;
	if (arg[1] == '-') {
		for (const GOptionEntry *e = entries; e->long_name; e++) {
			size_t n = strlen(e->long_name);
			if (!strncmp(arg + 2, e->long_name, n) && (arg[2 + n] == '\0' || arg[2 + n] == '=')) {
				if (arg[2 + n] == '=')
					*inline_value = arg + 3 + n;
				return e;
			}
		}
		return NULL;
	}
	/* short flags, then at most one that takes a value: the rest of arg, if any */
	for (size_t k = 1; arg[k]; k++) {
		const GOptionEntry *e = short_entry(entries, arg[k]);

		if (!e)
			return NULL;
		if (takes_value(e)) {
			if (arg[k + 1])
				*inline_value = arg + k + 1;
			return e;
		}
		if (!arg[k + 1])
			return e;   /* flags only: the last one */
	}
	return NULL;
}

/*
 * A short option's value written against it ("-j2", "-tkunpeng.yaml", or
 * after other short flags, "-qj2"), as getopt() takes it: GOption does not
 * (it reads the rest of the argument as more option letters and takes the
 * next argument as the value, so `-j2 --out d` said "Cannot parse integer
 * value '--out' for -j"). Such an argument is split in two before GOption
 * sees it. The value of an option given as the next argument, and
 * everything after "--", stay as they are; so does a cluster with a letter
 * that is no option (GOption reports it). The split list lives as long as
 * the program (GOption keeps pointers into it in argv); NULL when nothing
 * needed a split.
 */
static char **split_attached_values(const GOptionEntry *entries, int argc, char **argv, int *new_argc)
{
	/* the split-off option names and the lists made, reachable for the program's life */
	static GPtrArray *keep;
	GPtrArray *v = g_ptr_array_new();
	bool split = false;

	g_ptr_array_add(v, argv[0]);
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i], *value;
		const GOptionEntry *e;

		if (!strcmp(a, "--")) {
			for (; i < argc; i++)
				g_ptr_array_add(v, argv[i]);
			break;
		}
		e = entry_of(entries, a, &value);
		if (!e || !takes_value(e) || (value && a[1] == '-')) {
			/* no option, flags only, a letter GOption will refuse, or GOption's own --name=value */
			g_ptr_array_add(v, argv[i]);
			continue;
		}
		if (!value) {   /* the value is the next argument, whatever it looks like */
			g_ptr_array_add(v, argv[i]);
			if (i + 1 < argc)
				g_ptr_array_add(v, argv[++i]);
			continue;
		}
		/* -xVALUE or -qxVALUE: the letters, then the value */
		size_t k = (size_t)(value - a);
		char *name = g_strndup(a, k);

		if (!keep)
			keep = g_ptr_array_new();
		g_ptr_array_add(keep, name);
		g_ptr_array_add(v, name);
		g_ptr_array_add(v, (char *)value);
		split = true;
	}
	if (!split) {
		g_ptr_array_free(v, TRUE);
		return NULL;
	}
	*new_argc = (int)v->len;
	g_ptr_array_add(v, NULL);
	g_ptr_array_add(keep, v->pdata);
	return (char **)g_ptr_array_free(v, FALSE);
}

bool ss_cli_parse(GOptionContext *ctx, const GOptionEntry *entries, int *argc, char ***argv, GError **err)
{
	char **split = split_attached_values(entries, *argc, *argv, argc);

	if (split)
		*argv = split;
	/* GOption edits argv; keep the original to find the culprit of a failure */
	int n = *argc;
	g_autofree char **orig = g_new0(char *, (gsize)n + 1);
	memcpy(orig, *argv, sizeof(char *) * (size_t)n);
	g_option_context_add_main_entries(ctx, entries, NULL);
	if (g_option_context_parse(ctx, argc, argv, err))
		return true;
	if (!err || !*err || (*err)->domain != G_CONVERT_ERROR)
		return false;
	/*
	 * GOption converts the value of a string option from the locale's
	 * character set (LC_CTYPE) to UTF-8, and its error names no option:
	 * find the option whose value does not convert.
	 */
	for (int i = 1; i < n; i++) {
		const char *value;
		const GOptionEntry *e = entry_of(entries, orig[i], &value);
		if (!e || (e->arg != G_OPTION_ARG_STRING && e->arg != G_OPTION_ARG_STRING_ARRAY))
			continue;
		if (!value) {
			if (i + 1 >= n)
				break;
			value = orig[++i];
		}
		g_autofree char *utf8 = g_locale_to_utf8(value, -1, NULL, NULL, NULL);
		if (utf8)
			continue;
		const char *charset;
		g_get_charset(&charset);
		g_autofree char *shown = g_strescape(value, NULL);
		g_clear_error(err);
		g_set_error(err, G_OPTION_ERROR, G_OPTION_ERROR_BAD_VALUE,
			    "--%s '%s': not text in the locale's character set %s (use a UTF-8 locale, e.g. LC_ALL=C.UTF-8, "
			    "for non-ASCII values)",
			    e->long_name, shown, charset);
		return false;
	}
	return false;
}

const char **ss_cli_inputs(const char *a, const char *b, char **plugins, unsigned *n)
{
	unsigned np = plugins ? g_strv_length(plugins) : 0, k = 0;
	const char **v = g_new0(const char *, np + 3);

	if (a)
		v[k++] = a;
	if (b)
		v[k++] = b;
	for (unsigned i = 0; i < np; i++)
		v[k++] = plugins[i];
	*n = k;
	return v;
}

bool ss_cli_check_out(const char *opt, const char *path, const char *const *inputs, unsigned nr_inputs)
{
	if (!*path) {
		fprintf(stderr, "simsched: %s: an empty file name (give the result file's path)\n", opt);
		return false;
	}
	if (g_file_test(path, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "simsched: %s %s: is a directory (give the result file's path)\n", opt, path);
		return false;
	}
	g_autofree char *dir = g_path_get_dirname(path);
	if (!g_file_test(dir, G_FILE_TEST_IS_DIR)) {
		fprintf(stderr, "simsched: %s %s: no directory %s (create it first)\n", opt, path, dir);
		return false;
	}
	/* the result is written to a temporary file there, then renamed */
	if (access(dir, W_OK | X_OK) != 0) {
		fprintf(stderr, "simsched: %s %s: cannot create files in %s: %s\n", opt, path, dir, g_strerror(errno));
		return false;
	}
	GStatBuf so;
	if (g_stat(path, &so) == 0) {
		for (unsigned i = 0; i < nr_inputs; i++) {
			GStatBuf si;
			if (inputs[i] && g_stat(inputs[i], &si) == 0 && so.st_dev == si.st_dev && so.st_ino == si.st_ino) {
				fprintf(stderr, "simsched: %s %s: that is an input file (%s) of this command (give another result file)\n",
					opt, path, inputs[i]);
				return false;
			}
		}
	}
	return true;
}

bool ss_cli_parse_seed(const char *opt, const char *s, guint64 *seed)
{
	if (!g_ascii_string_to_unsigned(s, 10, 0, SS_SEED_MAX, seed, NULL)) {
		fprintf(stderr, "simsched: %s '%s': expected an integer in 0..%" G_GUINT64_FORMAT
				" (2^53 - 1: results hold seeds as JSON numbers)\n",
			opt, s, (guint64)SS_SEED_MAX);
		return false;
	}
	return true;
}

static char *command_line;   /* lives until exit */

void ss_cli_set_command_line(int argc, char **argv)
{
	g_free(command_line);
	command_line = ss_shell_join(argc, (const char *const *)argv);
}

const char *ss_cli_command_line(void)
{
	return command_line ? command_line : "";
}

/*
 * simsched run --trace FILE [--trace-window FROM..TO] [--trace-cpus LIST]
 * [--trace-ns]: the run as a kernel trace (simsched/ftrace.h,
 * docs/output.md "kernel trace"). Option checks and the writer's lifetime only.
 */
#include <stdio.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "simsched/error.h"
#include "simsched/ftrace.h"
#include "simsched/topology.h"

int ss_cli_trace_check(const struct ss_cli_trace *o, const char *json_path, const char *const *inputs,
		       unsigned nr_inputs)
{
	uint64_t from, to;
	if (!o->path) {
		if (o->window || o->cpus || o->ns) {
			fprintf(stderr, "simsched: --trace-window, --trace-cpus and --trace-ns need --trace FILE\n");
			return 2;
		}
		return 0;
	}
	if (o->window && !ss_ftrace_parse_window(o->window, &from, &to)) {
		fprintf(stderr,
			"simsched: --trace-window '%s': expected FROM..TO, times with a unit (ns, us, ms, s) and TO after "
			"FROM, like 1s..1.005s or 0..5ms (TO may be left out: to the end)\n",
			o->window);
		return 2;
	}
	if (!ss_cli_check_out("--trace", o->path, inputs, nr_inputs))
		return 2;
	if (json_path) {
		GStatBuf a, b;
		if (!strcmp(json_path, o->path) ||
		    (g_stat(json_path, &a) == 0 && g_stat(o->path, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino)) {
			fprintf(stderr, "simsched: --trace %s: the same file as --json (give another file)\n", o->path);
			return 2;
		}
	}
	return 0;
}

struct ss_ftrace *ss_cli_trace_open(const struct ss_cli_trace *o, const struct ss_topology *t, int *rc)
{
	struct ss_ftrace_opts opts = { .from_ns = 0, .to_ns = UINT64_MAX, .cpus = o->cpus, .ns_timestamps = o->ns };
	GError *err = NULL;
	struct ss_ftrace *ft;

	*rc = 0;
	if (!o->path)
		return NULL;
	if (o->window)
		ss_ftrace_parse_window(o->window, &opts.from_ns, &opts.to_ns);   /* checked by ss_cli_trace_check() */
	ft = ss_ftrace_open(o->path, t, &opts, &err);
	if (!ft) {
		fprintf(stderr, "simsched: %s\n", err->message);
		*rc = err->code == SS_ERROR_USAGE ? 2 : 1;
		g_error_free(err);
	}
	return ft;
}

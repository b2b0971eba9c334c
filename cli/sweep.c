/*
 * simsched sweep and simsched report: option parsing and printing only; the
 * grid, the result file and the merge live in lib/sweep.c and lib/report.c
 * (docs/sweeps.md).
 */
#include <glib/gstdio.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "simsched/error.h"
#include "simsched/sim.h"
#include "simsched/sweep.h"

static int fail(GError *e, int code)
{
	fprintf(stderr, "simsched: %s\n", e ? e->message : "error");
	if (e)
		g_error_free(e);
	return code;
}

/* usage errors (bad option values) exit 2, a deadlocked run that had to finish 3, bad files and failed runs 1 */
static int fail_lib(GError *e)
{
	return fail(e, e && e->domain == SS_ERROR && e->code == SS_ERROR_USAGE ? 2
		       : e && e->domain == SS_ERROR && e->code == SS_ERROR_DEADLOCK ? 3 : 1);
}

struct progress {
	gint64 start;
};

static void sweep_progress(void *ctx, unsigned done, unsigned total)
{
	struct progress *pr = ctx;
	double el = (double)(g_get_monotonic_time() - pr->start) / 1e6;
	double est = done ? el * total / done - el : 0.0;
	fprintf(stderr, "\r%u/%u points, %.0f s elapsed, ~%.0f s left   %s", done, total, el, est, done == total ? "\n" : "");
	fflush(stderr);
}

int ss_cli_sweep(int argc, char **argv)
{
	g_autofree char *spec_path = NULL, *out = NULL, *shard = NULL;
	gint jobs = 0;
	gboolean resume = FALSE, quiet = FALSE;
	gchar **plugins = NULL;
	GOptionEntry entries[] = {
		{ "spec", 0, 0, G_OPTION_ARG_FILENAME, &spec_path, "the grid (YAML, docs/sweeps.md)", "FILE" },
		{ "policy-plugin", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &plugins, "load a policy plugin (docs/policies.md; repeatable); its policy name works in the spec's policies", "FILE.so" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "result file: one JSON line per finished point", "FILE" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "worker threads (default: one per core)", "N" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &shard, "run the points with index % N == K-1 only", "K/N" },
		{ "resume", 'r', 0, G_OPTION_ARG_NONE, &resume, "continue an existing result file: drop a torn last line, skip finished points", NULL },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "print nothing but warnings and errors (no summary line, no progress)", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("- run a grid of simulations into a JSON-lines file (sharded, resumable)");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	g_auto(GStrv) plugin_files = plugins;
	if (argc > 1) {
		fprintf(stderr, "simsched: sweep: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (!spec_path || !out) {
		fprintf(stderr, "simsched: sweep needs --spec FILE and --out FILE\n");
		return 2;
	}
	if (jobs < 0 || jobs > 1024) {
		fprintf(stderr, "simsched: --jobs takes 0..1024\n");
		return 2;
	}
	{
		unsigned ni;
		g_autofree const char **inputs = ss_cli_inputs(spec_path, NULL, plugin_files, &ni);
		if (!ss_cli_check_out("--out", out, inputs, ni))
			return 2;
	}
	struct ss_sweep_opts o = { .out_path = out, .jobs = (unsigned)jobs, .resume = resume };
	if (shard && !ss_sweep_parse_shard(shard, &o.shard_k, &o.shard_n, &err))
		return fail(err, 2);
	/* before the spec: its policies are checked when it loads */
	const char *pname;
	int prc = ss_cli_load_plugins(plugin_files, &pname);
	if (prc)
		return prc;
	struct ss_sweep_spec *s = ss_sweep_spec_load(spec_path, &err);
	if (!s)
		return fail(err, 1);
	struct progress pr = { g_get_monotonic_time() };
	if (isatty(2) && !quiet) {
		o.progress = sweep_progress;
		o.progress_ctx = &pr;
	}
	struct ss_sweep_stats st;
	bool done = ss_sweep_run(s, &o, &st, &err);
	ss_sweep_spec_free(s);
	/* a sweep that stopped (a failed run, a failed write): say so first, then the
	 * counts and what the file holds; the error (which point, and why) follows */
	bool stopped = !done && st.shard;
	if (!quiet && (done || stopped)) {
		fprintf(stderr, "simsched: sweep %s%s: %" G_GUINT64_FORMAT " points in the grid, %" G_GUINT64_FORMAT
			" in shard %u/%u, %" G_GUINT64_FORMAT " already in the file, %" G_GUINT64_FORMAT " %s",
			out, !stopped ? "" : st.failed ? " stopped at a failed point" : " stopped", st.grid, st.shard,
			o.shard_n ? o.shard_k : 1, o.shard_n ? o.shard_n : 1, st.done_before, st.ran,
			stopped ? "finished before it stopped" : "run now");
		if (st.torn_bytes)
			fprintf(stderr, ", a torn last line of %" G_GUINT64_FORMAT " bytes dropped", st.torn_bytes);
		if (st.foreign)
			fprintf(stderr, ", %" G_GUINT64_FORMAT " records of other points kept", st.foreign);
		if (stopped && st.out_removed)
			fprintf(stderr, "; no point finished, so no result file is left");
		else if (stopped)
			fprintf(stderr, "; the file holds the finished points only (fix the cause, then --resume)");
		fputc('\n', stderr);
	}
	if (!done)
		return fail_lib(err);
	if (st.deadlocked) {
		/* the records are written (each holds deadlock_at_ns); the exit status says so */
		fprintf(stderr, "simsched: warning: %" G_GUINT64_FORMAT " of the %" G_GUINT64_FORMAT
			" runs deadlocked (their records have deadlock_at_ns; report names them)\n", st.deadlocked, st.ran);
		return 3;
	}
	return 0;
}

int ss_cli_report(int argc, char **argv)
{
	g_autofree char *metric = NULL, *format = NULL, *policies = NULL, *out = NULL;
	GOptionEntry entries[] = {
		{ "metric", 'm', 0, G_OPTION_ARG_STRING, &metric, "figure to compare (default: the workload's own, e.g. throughput)", "NAME" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default), markdown, csv or json", "FMT" },
		{ "policies", 'p', 0, G_OPTION_ARG_STRING, &policies, "columns and their order, the first the baseline (default: the spec's)", "A,B,..." },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "also write the tables to FILE (written whole, then renamed)", "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("RESULTS.jsonl... - merge sweep results into compare's tables");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	if (argc < 2) {
		fprintf(stderr, "simsched: report needs one or more result files (simsched sweep --out)\n");
		return 2;
	}
	enum ss_cmp_metric m = SS_CMP_WORKLOAD;
	if (metric && !ss_cmp_metric_parse(metric, &m, &err))
		return fail(err, 2);
	if (format && strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "csv") && strcmp(format, "json")) {
		fprintf(stderr, "simsched: --format '%s': expected text, markdown, csv or json\n", format);
		return 2;
	}
	gchar **pols = policies ? g_strsplit(policies, ",", -1) : NULL;
	if (pols && (!pols[0] || !pols[0][0])) {
		fprintf(stderr, "simsched: --policies: no policy named\n");
		g_strfreev(pols);
		return 2;
	}
	if (out && !ss_cli_check_out("--out", out, (const char *const *)(argv + 1), (unsigned)(argc - 1))) {
		g_strfreev(pols);
		return 2;
	}
	GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
	struct ss_report *rep = ss_report_load((const char *const *)(argv + 1), (unsigned)(argc - 1), warnings, &err);
	for (unsigned i = 0; i < warnings->len; i++)
		fprintf(stderr, "simsched: warning: %s\n", (const char *)g_ptr_array_index(warnings, i));
	g_ptr_array_free(warnings, TRUE);
	int rc = 0;
	char *txt = rep ? ss_report_render(rep, m, (const char *const *)pols, format ? format : "text", &err) : NULL;
	if (!txt) {
		rc = fail_lib(err);
	} else {
		if (out && !ss_write_file_atomic(out, txt, strlen(txt), &err))
			rc = fail(err, 1);
		ss_cli_print(txt);
	}
	g_free(txt);
	ss_report_free(rep);
	g_strfreev(pols);
	return rc;
}

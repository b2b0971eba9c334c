/*
 * simsched validate: option parsing and printing only; experiment files,
 * rules, the runner and the scorecard live in lib/experiment.c,
 * lib/xp_rules.c and lib/validate.c (docs/experiments.md, docs/validation.md).
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>

#include "cli.h"
#include "simsched/runlen.h"
#include "simsched/error.h"
#include "simsched/experiment.h"
#include "simsched/sweep.h"

static gint64 started;

static void progress(void *ctx, const char *spec, unsigned done, unsigned total)
{
	fprintf(stderr, "\rsimsched: validate: sweep %u/%u: %s\n", done, total, spec);
}

/* points done of every grid's, elapsed and an estimate, on one line rewritten */
static void point_progress(void *ctx, uint64_t done, uint64_t total)
{
	double el = (double)(g_get_monotonic_time() - started) / 1e6;
	fprintf(stderr, "\r  %" G_GUINT64_FORMAT "/%" G_GUINT64_FORMAT " points, %.0f s elapsed, ~%.0f s left   ", done, total, el,
		done ? el * (double)(total - done) / (double)done : 0.0);
	if (done >= total)
		fputc('\n', stderr);
	fflush(stderr);
}

static bool is_exact(const struct ss_experiment *x)
{
	for (unsigned i = 0; i < x->nr_rules; i++)
		if (x->rules[i].kind == SS_XP_CHECK &&
		    (!strcmp(x->rules[i].check, "s06_pelt") || !strcmp(x->rules[i].check, "s07_budgets")))
			return true;
	return false;
}

int ss_cli_validate(int argc, char **argv)
{
	g_autofree char *dir = NULL, *out = NULL, *shard = NULL, *format = NULL, *precision = NULL, *warmup = NULL;
	gint jobs = 0;
	gboolean quick = FALSE, no_run = FALSE, quiet = FALSE;
	GOptionEntry entries[] = {
		{ "experiments", 0, 0, G_OPTION_ARG_FILENAME, &dir, "directory of the experiment files (default: experiments)", "DIR" },
		{ "quick", 0, 0, G_OPTION_ARG_NONE, &quick, "the exact checks and the files' quick: neutral checks only (CI)", NULL },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "worker threads per sweep (default: one per core)", "N" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "directory for the generated sweep specs and the result files (default: validate-out)", "DIR" },
		{ "shard", 0, 0, G_OPTION_ARG_STRING, &shard, "run only the points with index % N == K-1 of every grid", "K/N" },
		{ "no-run", 0, 0, G_OPTION_ARG_NONE, &no_run, "run nothing: grade what the result files in --out hold (after shards)", NULL },
		{ "precision", 0, 0, G_OPTION_ARG_STRING, &precision, "run each (load, seed) until every paired delta is within +-P at 95 % (at most the experiment's duration; docs/output.md \"Run length\")", "P" },
		{ "warmup", 0, 0, G_OPTION_ARG_STRING, &warmup, "auto: MSER-5 ends each warmup (at most the experiment's)", "auto" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text, markdown or json (default text)", "FORMAT" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "no progress lines on stderr", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("[S01,S08,...] - run the seed experiments and print the scorecard");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok) {
		fprintf(stderr, "simsched: %s\n", err->message);
		g_error_free(err);
		return 2;
	}
	if (argc > 2) {
		fprintf(stderr, "simsched: validate: unexpected argument '%s' (expected one list of experiments, S01,S08)\n", argv[2]);
		return 2;
	}
	if (jobs < 0 || jobs > 1024) {
		fprintf(stderr, "simsched: --jobs takes 0..1024\n");
		return 2;
	}
	if (!format)
		format = g_strdup("text");
	if (strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "json")) {
		fprintf(stderr, "simsched: --format '%s': expected text, markdown or json\n", format);
		return 2;
	}
	struct ss_validate_opts o = { .jobs = (unsigned)jobs, .quick = quick, .no_run = no_run };
	if (precision && !ss_parse_precision(precision, &o.precision)) {
		fprintf(stderr, "simsched: --precision '%s': expected a half-width like 1%% or 0.01, above 0 and below 100%%\n", precision);
		return 2;
	}
	if (warmup && strcmp(warmup, "auto")) {
		fprintf(stderr, "simsched: validate --warmup '%s': expected auto (the experiments give the fixed warmups)\n", warmup);
		return 2;
	}
	o.warmup_auto = warmup != NULL;
	if (shard && !ss_sweep_parse_shard(shard, &o.shard_k, &o.shard_n, &err)) {
		fprintf(stderr, "simsched: %s\n", err->message);
		g_error_free(err);
		return 2;
	}
	o.out_dir = out ? out : "validate-out";
	if (!quiet && isatty(2)) {
		o.progress = progress;
		o.point_progress = point_progress;
		started = g_get_monotonic_time();
	}

	g_auto(GStrv) files = ss_experiment_files(dir ? dir : "experiments", &err);
	if (!files) {
		fprintf(stderr, "simsched: %s\n", err->message);
		g_error_free(err);
		return 1;
	}
	g_auto(GStrv) want = argc == 2 ? g_strsplit(argv[1], ",", -1) : NULL;
	GPtrArray *xs = g_ptr_array_new_with_free_func((GDestroyNotify)ss_experiment_free);
	int rc = 0;
	for (char **w = want; w && *w; w++) {
		bool found = false;
		for (char **f = files; *f; f++) {
			g_autofree char *b = g_path_get_basename(*f);
			found |= g_str_has_prefix(b, *w) && !strcmp(b + strlen(*w), ".yaml");
		}
		if (!found) {
			GString *ids = g_string_new(NULL);
			for (char **f = files; *f; f++) {
				g_autofree char *b = g_path_get_basename(*f);
				b[strlen(b) - 5] = '\0';
				g_string_append_printf(ids, "%s%s", ids->len ? ", " : "", b);
			}
			fprintf(stderr, "simsched: validate: no experiment '%s' in %s (expected one of: %s)\n", *w,
				dir ? dir : "experiments", ids->str);
			g_string_free(ids, TRUE);
			rc = 2;
			goto out;
		}
	}
	for (char **f = files; *f; f++) {
		g_autofree char *b = g_path_get_basename(*f);
		b[strlen(b) - 5] = '\0';
		if (want && !g_strv_contains((const char *const *)want, b))
			continue;
		struct ss_experiment *x = ss_experiment_load(*f, &err);
		if (!x) {
			fprintf(stderr, "simsched: %s\n", err->message);
			g_error_free(err);
			rc = 1;
			goto out;
		}
		if (quick && !is_exact(x) && !ss_experiment_apply_quick(x)) {
			ss_experiment_free(x);
			continue;
		}
		g_ptr_array_add(xs, x);
	}
	if (!xs->len) {
		fprintf(stderr, "simsched: validate: no experiment to run in %s%s\n", dir ? dir : "experiments",
			quick ? " (with --quick: none is an exact check or has quick:)" : "");
		rc = 1;
		goto out;
	}
	struct ss_validate_result *r = NULL;
	if (!ss_validate_run((struct ss_experiment **)xs->pdata, xs->len, &o, &r, &err)) {
		fprintf(stderr, "simsched: %s\n", err->message);
		g_error_free(err);
		rc = 1;
		goto out;
	}
	char *txt = ss_validate_render(r, format, &err);
	ss_cli_print(txt);
	g_free(txt);
	if (!quiet)
		fprintf(stderr, "simsched: validate: %u experiments, %" G_GUINT64_FORMAT " points in their grids, %" G_GUINT64_FORMAT " run now (results in %s)\n",
			r->nr, r->points_total, r->points_run, o.out_dir);
	ss_validate_result_free(r);
out:
	g_ptr_array_free(xs, TRUE);
	return rc;
}

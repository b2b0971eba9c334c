/*
 * simsched — the command-line tool over libsimsched. Argument parsing and
 * rendering only; the model lives in lib/.
 *
 *   simsched run      --topology T --workload W [--policy P] [--load L] ...
 *   simsched run      --rerun RESULT [--record LINE] [--json FILE]  (a result again, from its provenance)
 *   simsched compare  --topology T --workload W --policies A,B --load ... --seeds N
 *   simsched sweep    --spec S --out R.jsonl [--shard K/N] [--resume] [--policy-plugin F]   (cli/sweep.c)
 *   simsched report   R*.jsonl [--metric M]                             (cli/sweep.c)
 *   simsched topo     --topology T [--format text|json|yaml | --json]
 *   simsched policies [--policy-plugin FILE.so]
 *   simsched pelt     --period P --busy X% | --workload W --task PATH  (cli/pelt.c)
 *   simsched validate [S01,...] [--quick] [--out DIR] [--shard K/N]          (cli/validate.c)
 *   (run, compare, sweep and policies load policy plugins with --policy-plugin FILE.so)
 */
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "cli.h"
#include "simsched/compare.h"
#include "simsched/error.h"
#include "simsched/ftrace.h"
#include "simsched/provenance.h"
#include "simsched/sim.h"
#include "simsched/runlen.h"
#include "simsched/sweep.h"
#include "../lib/ss_sched.h"

/* print the error; a usage error (bad option value) exits 2, a deadlocked run 3, others 1 */
static int fail_lib(GError *e)
{
	int code = e && e->domain == SS_ERROR && e->code == SS_ERROR_USAGE ? 2
		   : e && e->domain == SS_ERROR && e->code == SS_ERROR_DEADLOCK ? 3 : 1;
	fprintf(stderr, "simsched: %s\n", e ? e->message : "error");
	if (e)
		g_error_free(e);
	return code;
}

static int fail(GError *e, int code)
{
	fprintf(stderr, "simsched: %s\n", e ? e->message : "error");
	if (e)
		g_error_free(e);
	return code;
}

/* A time option: a number with a unit (a bare 0 is allowed), at most 10^6 s. */
static bool parse_time_option(const char *s, uint64_t *ns)
{
	size_t n = strlen(s);
	if (!(n && (g_ascii_isalpha(s[n - 1]) || !strcmp(s, "0"))))
		return false;
	return ss_parse_duration(s, ns) && *ns <= UINT64_C(1000000) * 1000000000u;
}

static int usage(void)
{
	fprintf(stderr,
		"usage: simsched COMMAND [OPTIONS]\n"
		"commands:\n"
		"  run       simulate a workload on a machine under a wake-placement policy\n"
		"  compare   mmtests-style table: policies x loads x seeds, paired significance\n"
		"  sweep     a grid from a YAML spec into a JSON-lines file (--shard K/N, --resume)\n"
		"  report    merge sweep result files into compare's tables\n"
		"  validate  run the seed threads' experiments (experiments/*.yaml) and print the scorecard\n"
		"  topo      print a machine and the sched domains the kernel builds for it\n"
		"            (topo import --sysfs [ROOT] | --hwloc FILE.xml: write a machine's YAML)\n"
		"  pelt      util_avg over time of a periodic pattern or a workload's task alone on a CPU\n"
		"  policies  list the wake-placement policies\n"
		"  version   print the version\n"
		"Run 'simsched COMMAND --help' for the options of a command.\n");
	return 2;
}

/* --policy-plugin FILE (repeatable), for run, compare, sweep and policies: cli.h */
int ss_cli_load_plugins(gchar **files, const char **name)
{
	unsigned n = 0;
	*name = NULL;
	for (gchar **f = files; f && *f; f++, n++) {
		GError *err = NULL;
		const char *pname = NULL;
		if (!ss_policy_plugin_load(*f, &pname, &err))
			return fail(err, 1);
		*name = pname;
	}
	if (n != 1)
		*name = NULL;
	return 0;
}

static int cmd_policies(int argc, char **argv)
{
	gchar **plugins = NULL;
	const char *pname;
	GOptionEntry entries[] = {
		{ "policy-plugin", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &plugins, "also list the policy of this plugin (repeatable)", "FILE.so" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("- list the wake-placement policies");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	int rc = ss_cli_load_plugins(plugins, &pname);
	if (rc) {
		g_strfreev(plugins);
		return rc;
	}
	GString *o = g_string_new(NULL);
	for (const struct ss_policy *const *pp = ss_policies(); *pp; pp++) {
		const struct ss_policy *p = *pp;
		g_string_append_printf(o, "%-17s %s\n                  features: %s\n                  source: %s\n", p->name,
				       p->description, p->features, p->source);
		/* policy × kernel (docs/policies.md "Policies and kernels") */
		g_string_append(o, "                  kernels:");
		for (int k = 0; k < SS_NR_KERNELS; k++) {
			const char *base;
			if (ss_policy_kernel_check(p, (enum ss_kernel)k, &base, NULL))
				g_string_append_printf(o, "%s %s (%s)", k ? "," : "", ss_kernel_name((enum ss_kernel)k), base);
		}
		g_string_append_c(o, '\n');
		for (unsigned i = 0; i < p->nr_params; i++)
			g_string_append_printf(o, "                  policy.%s = %lld %s: %s\n", p->params[i].key,
					       (long long)p->params[i].def, p->params[i].unit, p->params[i].doc);
	}
	for (gchar **f = plugins; f && *f; f++) {
		const char *n = NULL;
		ss_policy_plugin_load(*f, &n, NULL);   /* already loaded: returns its name */
		const struct ss_policy *p = ss_policy_find(n);
		g_string_append_printf(o, "%-17s %s\n                  features: %s\n                  source: %s (plugin %s)\n",
				       p->name, p->description, p->features, p->source, *f);
		for (unsigned i = 0; i < p->nr_params; i++)
			g_string_append_printf(o, "                  policy.%s = %lld %s: %s\n", p->params[i].key,
					       (long long)p->params[i].def, p->params[i].unit, p->params[i].doc);
	}
	ss_cli_print(o->str);
	g_string_free(o, TRUE);
	g_strfreev(plugins);
	return 0;
}

/*
 * simsched topo import --sysfs [ROOT] | --hwloc FILE.xml [--name NAME] [--out FILE]:
 * a topology YAML from a sysfs tree (the live one at /, or a copy under ROOT)
 * or from an hwloc XML export; warnings go to stderr, the YAML to stdout or,
 * written atomically, to FILE.
 */
static int cmd_topo_import(int argc, char **argv)
{
	g_autofree char *name = NULL, *out = NULL, *hwloc = NULL;
	gboolean sysfs = FALSE;
	GOptionEntry entries[] = {
		{ "sysfs", 0, 0, G_OPTION_ARG_NONE, &sysfs, "read a sysfs tree: / (default) or the ROOT argument", NULL },
		{ "hwloc", 0, 0, G_OPTION_ARG_FILENAME, &hwloc, "read an hwloc XML export (v1 or v2, lstopo FILE.xml)", "FILE.xml" },
		{ "name", 'n', 0, G_OPTION_ARG_STRING, &name, "machine name (default \"imported\")", "NAME" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "write the YAML to FILE (temporary file + rename)", "FILE" },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("--sysfs [ROOT] | --hwloc FILE.xml - describe a machine as topology YAML");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	if (!sysfs && !hwloc) {
		fprintf(stderr, "simsched: topo import needs --sysfs [ROOT] or --hwloc FILE.xml\n");
		return 2;
	}
	if (sysfs && hwloc) {
		fprintf(stderr, "simsched: topo import: --sysfs and --hwloc exclude each other\n");
		return 2;
	}
	if (argc > (sysfs ? 2 : 1)) {
		fprintf(stderr, "simsched: topo import: unexpected argument '%s'\n", argv[sysfs ? 2 : 1]);
		return 2;
	}
	if (out) {
		const char *inputs[] = { hwloc };
		if (!ss_cli_check_out("--out", out, inputs, 1))
			return 2;
	}
	GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
	char *yaml = sysfs ? ss_topology_import_sysfs(argc == 2 ? argv[1] : "/", name, warnings, &err)
			   : ss_topology_import_hwloc(hwloc, name, warnings, &err);
	for (unsigned i = 0; i < warnings->len; i++)
		fprintf(stderr, "simsched: warning: %s\n", (const char *)g_ptr_array_index(warnings, i));
	g_ptr_array_free(warnings, TRUE);
	if (!yaml)
		return fail(err, err && err->code == SS_ERROR_USAGE ? 2 : 1);
	int rc = 0;
	if (out) {
		if (!ss_write_file_atomic(out, yaml, strlen(yaml), &err))
			rc = fail(err, 1);
	} else {
		ss_cli_print(yaml);
	}
	g_free(yaml);
	return rc;
}

static int cmd_topo(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "import"))
		return cmd_topo_import(argc - 1, argv + 1);
	g_autofree char *topo_path = NULL, *format = NULL;
	gboolean json = FALSE;
	GOptionEntry entries[] = {
		{ "topology", 't', 0, G_OPTION_ARG_FILENAME, &topo_path, "machine description (YAML)", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default), json or yaml", "FMT" },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "same as --format json", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("- print a machine and its sched domains");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	if (!topo_path && argc == 2)
		topo_path = g_strdup(argv[1]);   /* simsched topo FILE */
	else if (argc > 1) {
		fprintf(stderr, "simsched: topo: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (!topo_path) {
		fprintf(stderr, "simsched: topo needs --topology FILE\n");
		return 2;
	}
	if (json && format && strcmp(format, "json")) {
		fprintf(stderr, "simsched: topo: --json and --format %s contradict each other\n", format);
		return 2;
	}
	if (json && !format)
		format = g_strdup("json");
	struct ss_topology *t = ss_topology_load(topo_path, &err);
	if (!t)
		return fail(err, 1);
	ss_cli_topology_warnings(t);
	char *out = ss_topology_describe(t, format ? format : "text", &err);
	ss_topology_free(t);
	if (!out)
		return fail(err, 2);
	ss_cli_print(out);
	g_free(out);
	return 0;
}

/*
 * Split the --set values in place: "workload.NAME=VALUE" go to *wl as
 * "NAME=VALUE" (the workload's parameters, applied when it is loaded), the
 * others stay in *sets for ss_params_set(). Both NULL-terminated (or NULL);
 * g_strfreev each.
 */
static void split_workload_sets(gchar ***sets, gchar ***wl)
{
	GPtrArray *model = g_ptr_array_new(), *params = g_ptr_array_new();

	for (gchar **s = *sets; s && *s; s++)
		if (g_str_has_prefix(*s, "workload."))
			g_ptr_array_add(params, g_strdup(*s + strlen("workload.")));
		else
			g_ptr_array_add(model, g_strdup(*s));
	g_ptr_array_add(model, NULL);
	g_ptr_array_add(params, NULL);
	g_strfreev(*sets);
	*sets = (gchar **)g_ptr_array_free(model, FALSE);
	*wl = (gchar **)g_ptr_array_free(params, FALSE);
}

/* The workload's parameters for --set help: "workload.NAME  default ...", or "" without any. */
static char *workload_params_help(const struct ss_workload *w)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; i < ss_workload_nr_params(w); i++) {
		const struct ss_wl_param *pm = ss_workload_param(w, i);

		g_string_append_printf(s, "  workload.%-20s default %" G_GINT64_FORMAT, pm->name, pm->def);
		if (pm->min != INT64_MIN || pm->max != INT64_MAX)
			g_string_append_printf(s, ", %" G_GINT64_FORMAT "..%" G_GINT64_FORMAT, pm->min, pm->max);
		if (pm->description[0])
			g_string_append_printf(s, "  %s", pm->description);
		g_string_append_c(s, '\n');
	}
	return g_string_free(s, FALSE);
}

/*
 * What one run is made of: from run's options, or from a result's
 * provenance (--rerun). Strings are borrowed.
 */
struct run_spec {
	const char *topo_path, *wl_path, *policy, *features, *nodes;
	enum ss_kernel kernel;         /* --kernel */
	char **sets;                   /* --set as given, NULL-terminated (or NULL) */
	unsigned load_x100;
	uint64_t seed, duration_ns, warmup_ns, sample_ns;
	bool warmup_auto;              /* --warmup auto[:CAP]: warmup_ns is the cap */
	double precision;              /* --precision, 0 = none: duration_ns is the cap */
	uint64_t batch_ns;             /* --batch, 0 = the default */
	const char *command;           /* provenance.command: this command line, or the original's on --rerun */
	const struct ss_rerun *rerun;  /* --rerun: the result being run again (files checked) */
	const char *json_path;         /* --json FILE, or NULL */
	const struct ss_cli_trace *trace; /* --trace and its options (path NULL: none) */
	bool json_stdout, quiet;
};

/* run's progress on a terminal: simulated time, events per second, an estimate; at most twice a second */
struct run_progress {
	gint64 start, last;
	bool shown;
};

static void run_progress(void *ctx, uint64_t now_ns, uint64_t end_ns, uint64_t events)
{
	struct run_progress *p = ctx;
	gint64 t = g_get_monotonic_time();
	double el;

	if (t - p->last < 500000)
		return;
	p->last = t;
	p->shown = true;
	el = (double)(t - p->start) / 1e6;
	fprintf(stderr, "\r  simulated %.3f of %.3f s, %.2f M events/s, ~%.0f s left   ", (double)now_ns / 1e9,
		(double)end_ns / 1e9, (double)events / 1e6 / el, now_ns ? el * (double)(end_ns - now_ns) / (double)now_ns : 0.0);
	fflush(stderr);
}

/* Load, simulate, render with provenance, write and print; the exit status. */
static int execute_run(const struct run_spec *a)
{
	GError *err = NULL;
	struct ss_run_config cfg = { 0 };
	struct ss_workload *w = NULL;
	struct ss_results *r = NULL;
	char *json = NULL, *tsha = NULL, *wsha = NULL, *psha = NULL;
	gchar **sets = NULL, **wl_sets = NULL;
	const char *plugin;
	int rc = 1;

	struct ss_topology *t = ss_topology_load(a->topo_path, &err);
	if (!t)
		return fail(err, 1);
	ss_cli_topology_warnings(t);
	/* --set workload.NAME=VALUE: the workload file's parameters, applied as it is loaded */
	sets = g_strdupv(a->sets);
	split_workload_sets(&sets, &wl_sets);
	if (!(w = ss_workload_load_params(a->wl_path, (const char *const *)wl_sets, &err))) {
		rc = fail_lib(err);   /* a bad --set workload.X: 2, a bad file: 1 */
		goto out;
	}
	ss_cli_workload_warnings(w);
	cfg.topo = t;
	cfg.wl = w;
	cfg.policy = a->policy;
	cfg.kernel = a->kernel;
	cfg.sched_features = a->features;
	cfg.nodes = a->nodes;
	cfg.seed = a->seed;
	cfg.load_pct_x100 = a->load_x100;
	cfg.duration_ns = a->duration_ns;
	cfg.warmup_ns = a->warmup_ns;
	cfg.sample_ns = a->sample_ns;
	cfg.warmup_auto = a->warmup_auto;
	cfg.precision = a->precision;
	cfg.batch_ns = a->batch_ns;
	struct run_progress prog = { .start = g_get_monotonic_time() };
	prog.last = prog.start;
	if (!a->quiet && isatty(STDERR_FILENO)) {   /* for a person watching; never in a pipe or a file */
		cfg.progress = run_progress;
		cfg.progress_ctx = &prog;
	}
	ss_params_defaults(&cfg.params, t);
	for (char **s = sets; s && *s; s++) {
		if (!ss_params_set(&cfg.params, cfg.policy, *s, &err)) {
			rc = fail(err, 2);
			goto out;
		}
	}
	/* --rerun: every parameter as the result ran it, or the rerun is not that result */
	if (a->rerun && !ss_rerun_check_params(a->rerun, &cfg.params, cfg.policy, &err)) {
		rc = fail(err, 1);
		goto out;
	}
	/* provenance: the bytes of every file the result is made from */
	plugin = ss_policy_plugin_file(cfg.policy);
	if (!(tsha = ss_file_sha256(a->topo_path, &err)) || !(wsha = ss_file_sha256(a->wl_path, &err)) ||
	    (plugin && !(psha = ss_file_sha256(plugin, &err)))) {
		rc = fail(err, 1);
		goto out;
	}
	cfg.ftrace = ss_cli_trace_open(a->trace, t, &rc);
	if (rc)
		goto out;
	rc = 1;
	r = ss_simulate(&cfg, &err);
	if (prog.shown)
		fprintf(stderr, "\r%70s\r", "");   /* clear the progress line */
	if (!r) {
		rc = fail_lib(err);
		goto out;
	}
	r->workload_file = g_strdup(a->wl_path);
	/* the run's warnings (a deadlock) on stderr too; a deadlocked run exits 3 after its output */
	for (char **wm = r->warnings; wm && *wm; wm++)
		fprintf(stderr, "simsched: warning: %s\n", *wm);
	struct ss_provenance pv = {
		.command = a->command,
		.topology_file = a->topo_path, .topology_sha256 = tsha,
		.workload_file = a->wl_path, .workload_sha256 = wsha,
		.plugin_file = plugin, .plugin_sha256 = psha,
		.sets = (const char *const *)a->sets, .nr_sets = a->sets ? g_strv_length(a->sets) : 0,
	};
	if (a->rerun && a->rerun->is_record) {
		/* a sweep record run again is that record again */
		if (!(json = ss_sweep_record_rerun(a->rerun->line, &cfg, r, &pv, &err))) {
			g_prefix_error(&err, "%s: ", a->rerun->where);
			rc = fail(err, 1);
			goto out;
		}
	} else {
		json = ss_results_to_json_provenance(r, &cfg, &pv);
	}
	rc = 0;
	/*
	 * Result files: all or none. The JSON first (the trace, not yet
	 * finished, is then dropped if it fails); a trace that cannot be
	 * written takes the JSON just written with it.
	 */
	if (a->json_path && !ss_write_file_atomic(a->json_path, json, strlen(json), &err)) {
		rc = fail(err, 1);
	} else if (cfg.ftrace && !ss_ftrace_finish(cfg.ftrace, &err)) {
		GStatBuf st;
		rc = fail(err, 1);
		if (a->json_path && g_lstat(a->json_path, &st) == 0 && S_ISREG(st.st_mode))
			g_unlink(a->json_path);   /* not a terminal or pipe written in place */
	}
	if (!a->quiet) {
		if (a->json_stdout) {
			ss_cli_print(json);
		} else {
			char *txt = ss_results_to_text(r);
			ss_cli_print(txt);
			g_free(txt);
		}
	}
	if (!rc && r->deadlocked)
		rc = 3;
out:
	ss_ftrace_free(cfg.ftrace);
	g_strfreev(sets);
	g_strfreev(wl_sets);
	g_free(json);
	g_free(tsha);
	g_free(wsha);
	g_free(psha);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
	return rc;
}

/*
 * simsched run --rerun FILE [--record LINE]: the run a result was made
 * from, again, with exactly its recorded parameters, after checking that
 * its files still hold the bytes they held. The output's provenance keeps
 * the original command line, so --json NEW is byte-identical to FILE (or,
 * for a sweep record, to its line).
 */
static int rerun(const char *path, gint record, struct run_spec *a)
{
	GError *err = NULL;
	struct ss_rerun *rr;
	int rc;

	if (record < 0) {
		fprintf(stderr, "simsched: --record %d: expected a line number of the result file, 1 or more\n", record);
		return 2;
	}
	if (!(rr = ss_rerun_load(path, (unsigned)record, &err)))
		return fail_lib(err);
	if (!ss_rerun_check_files(rr, &err)) {
		ss_rerun_free(rr);
		return fail(err, 1);
	}
	if (strcmp(rr->version, SS_VERSION_STRING))
		fprintf(stderr, "simsched: warning: %s was written by simsched %s, this is %s: the figures may differ\n",
			rr->where, rr->version, SS_VERSION_STRING);
	if (rr->plugin_file) {
		const char *pname = NULL;
		if (!ss_policy_plugin_load(rr->plugin_file, &pname, &err)) {
			ss_rerun_free(rr);
			return fail(err, 1);
		}
	}
	a->topo_path = rr->topology_file;
	a->wl_path = rr->workload_file;
	a->policy = rr->policy;
	a->features = rr->sched_features;
	a->kernel = (enum ss_kernel)rr->kernel;
	a->nodes = rr->nodes;
	a->sets = rr->sets;
	a->load_x100 = rr->load_pct_x100;
	a->seed = rr->seed;
	a->duration_ns = rr->duration_ns;
	a->warmup_ns = rr->warmup_ns;
	a->sample_ns = rr->sample_ns;
	a->warmup_auto = rr->warmup_auto;
	a->precision = rr->precision;
	a->batch_ns = rr->batch_ns;
	a->command = rr->command;   /* the original's, not this one: the rerun's JSON is the original's */
	a->rerun = rr;
	rc = execute_run(a);
	ss_rerun_free(rr);
	return rc;
}

static int cmd_run(int argc, char **argv)
{
	g_autofree char *topo_path = NULL, *wl_path = NULL, *policy = NULL, *features = NULL, *load = NULL;
	g_autofree char *duration = NULL, *warmup = NULL, *json_path = NULL, *nodes = NULL, *sample = NULL;
	g_autofree char *format = NULL, *rerun_path = NULL, *kernel_s = NULL;
	g_autofree char *precision = NULL, *batch = NULL;
	gchar **sets = NULL, **plugins = NULL;
	g_autofree char *seed_s = NULL;
	gboolean quiet = FALSE;
	g_autofree char *trace_path = NULL, *trace_window = NULL, *trace_cpus = NULL;
	gboolean trace_ns = FALSE;
	gint record = 0;
	GOptionEntry entries[] = {
		{ "topology", 't', 0, G_OPTION_ARG_FILENAME, &topo_path, "machine description (YAML, see topologies/)", "FILE" },
		{ "workload", 'w', 0, G_OPTION_ARG_FILENAME, &wl_path, "workload (YAML, see workloads/)", "FILE" },
		{ "policy", 'p', 0, G_OPTION_ARG_STRING, &policy, "wake-placement policy (default sis_util, or the plugin's if one --policy-plugin; 'simsched policies')", "NAME" },
		{ "policy-plugin", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &plugins, "load a policy plugin (docs/policies.md; repeatable); its policy name works with --policy", "FILE.so" },
		{ "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_s, "kernel modelled: 6.6 (EEVDF, default) or 5.17 (CFS; default policy sis_prop)", "VERSION" },
		{ "sched-features", 0, 0, G_OPTION_ARG_STRING, &features, "sched features over the policy's, e.g. SIS_UTIL,NO_SIS_PROP", "LIST" },
		{ "load", 'l', 0, G_OPTION_ARG_STRING, &load, "instances per allowed CPU: 100% = one instance per CPU, or a fraction <= 1 (0.5 = 50%); rounded, at least 1 (default 100%)", "L" },
		{ "duration", 'd', 0, G_OPTION_ARG_STRING, &duration, "measured simulated time (default 2s); with --precision the longest the window may run (default 60s)", "TIME" },
		{ "warmup", 0, 0, G_OPTION_ARG_STRING, &warmup, "simulated time before measuring (default 1s); auto: until MSER-5 finds the figure steady (auto:CAP, default cap 10s)", "TIME|auto" },
		{ "precision", 0, 0, G_OPTION_ARG_STRING, &precision, "run until the figure's 95 % batch-means interval is within +-P of its mean (e.g. 1%; docs/output.md \"Run length\")", "P" },
		{ "batch", 0, 0, G_OPTION_ARG_STRING, &batch, "observation interval of --warmup auto and --precision (default 1ms)", "TIME" },
		{ "seed", 's', 0, G_OPTION_ARG_STRING, &seed_s, "random seed, 0..2^53-1 (default 1)", "N" },
		{ "nodes", 'N', 0, G_OPTION_ARG_STRING, &nodes, "restrict the workload to these NUMA nodes, by firmware node id, like numactl -N", "LIST" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "set a parameter (repeatable; --set help lists them)", "SECTION.KEY=VALUE" },
		{ "json", 0, 0, G_OPTION_ARG_FILENAME, &json_path, "also write the results as JSON to FILE (docs/output.md)", "FILE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "stdout format: text (default) or json", "FMT" },
		{ "sample-interval", 0, 0, G_OPTION_ARG_STRING, &sample, "interval of the nr_idle_scan/util series (default 100ms)", "TIME" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "print nothing but warnings and errors (no report on stdout; with --json)", NULL },
		{ "rerun", 0, 0, G_OPTION_ARG_FILENAME, &rerun_path, "run a result again with its recorded parameters (a run's JSON, or a sweep result file with --record)", "RESULT" },
		{ "record", 0, 0, G_OPTION_ARG_INT, &record, "with --rerun: the line of the sweep record to run again", "LINE" },
		{ "trace", 0, 0, G_OPTION_ARG_FILENAME, &trace_path, "also write the run as a kernel trace (sched events, placement markers; docs/output.md)", "FILE" },
		{ "trace-window", 0, 0, G_OPTION_ARG_STRING, &trace_window, "simulated time the trace covers (default: the whole run)", "FROM..TO" },
		{ "trace-cpus", 0, 0, G_OPTION_ARG_STRING, &trace_cpus, "CPUs whose lines the trace holds (default: all)", "LIST" },
		{ "trace-ns", 0, 0, G_OPTION_ARG_NONE, &trace_ns, "trace timestamps in ns (%5lu.%09lu) instead of the kernel's us", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("- simulate a workload on a machine under a wake-placement policy");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	g_auto(GStrv) set_list = sets;
	g_auto(GStrv) plugin_files = plugins;
	if (argc > 1) {
		fprintf(stderr, "simsched: run: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if (format && strcmp(format, "text") && strcmp(format, "json")) {
		fprintf(stderr, "simsched: --format '%s': expected text or json\n", format);
		return 2;
	}
	if (quiet && format && !strcmp(format, "json") && !json_path) {
		/* the JSON asked for on stdout would not be printed: refuse before simulating */
		fprintf(stderr, "simsched: run: --format json prints the result on stdout, which --quiet silences, and no "
				"--json FILE is given (expected --json FILE with --quiet, or no --quiet)\n");
		return 2;
	}
	struct ss_cli_trace tr = { trace_path, trace_window, trace_cpus, trace_ns };
	struct run_spec a = { .json_path = json_path, .json_stdout = format && !strcmp(format, "json"), .quiet = quiet,
			      .trace = &tr };
	if (rerun_path) {
		/* every parameter comes from the result: giving one as well would contradict it */
		const struct { const char *name; const void *given; } params[] = {
			{ "--topology", topo_path }, { "--workload", wl_path }, { "--policy", policy }, { "--kernel", kernel_s },
			{ "--policy-plugin", plugins }, { "--sched-features", features }, { "--load", load },
			{ "--duration", duration }, { "--warmup", warmup }, { "--seed", seed_s }, { "--nodes", nodes },
			{ "--set", sets }, { "--sample-interval", sample }, { "--precision", precision }, { "--batch", batch },
		};
		for (unsigned i = 0; i < G_N_ELEMENTS(params); i++) {
			if (params[i].given) {
				fprintf(stderr, "simsched: --rerun %s: %s cannot be given with it (a rerun takes every parameter from the result)\n",
					rerun_path, params[i].name);
				return 2;
			}
		}
		if (json_path) {
			/* refuse before simulating; and never overwrite the result being rerun */
			const char *inputs[] = { rerun_path };
			if (!ss_cli_check_out("--json", json_path, inputs, 1))
				return 2;
		}
		{
			const char *inputs[] = { rerun_path };
			if (ss_cli_trace_check(&tr, json_path, inputs, 1))
				return 2;
		}
		return rerun(rerun_path, record, &a);
	}
	if (record) {
		fprintf(stderr, "simsched: --record goes with --rerun (the sweep result file whose record to run again)\n");
		return 2;
	}
	{
		const char *pname;
		int prc = ss_cli_load_plugins(plugins, &pname);
		if (prc)
			return prc;
		if (!policy && pname)
			policy = g_strdup(pname);
	}
	for (gchar **s = sets; s && *s; s++) {
		if (!strcmp(*s, "help")) {
			struct ss_topology *ht = NULL;
			if (topo_path && !(ht = ss_topology_load(topo_path, &err)))
				return fail(err, 1);
			char *h = ss_params_help(policy, ht);
			char *txt = g_strdup_printf("parameters (--set SECTION.KEY=VALUE)%s%s:\n%s", ht ? ", defaults for " : "",
						    ht ? ht->name : "", h);
			ss_cli_print(txt);
			g_free(txt);
			g_free(h);
			ss_topology_free(ht);
			if (wl_path) {
				/* the workload's own parameters (--set workload.NAME=VALUE) */
				struct ss_workload *hw = ss_workload_load(wl_path, &err);
				if (!hw)
					return fail(err, 1);
				h = workload_params_help(hw);
				txt = g_strdup_printf("\nworkload parameters of %s (--set workload.NAME=VALUE)%s\n%s",
						      ss_workload_name(hw), h[0] ? ":" : ": none", h);
				ss_cli_print(txt);
				g_free(txt);
				g_free(h);
				ss_workload_free(hw);
			}
			return 0;
		}
	}
	if (!topo_path || !wl_path) {
		fprintf(stderr, "simsched: run needs --topology FILE and --workload FILE (or --rerun RESULT)\n");
		return 2;
	}
	ss_cli_resolve_data(&topo_path, "topologies");
	ss_cli_resolve_data(&wl_path, "workloads");
	a.topo_path = topo_path;
	a.wl_path = wl_path;
	if (kernel_s && !ss_kernel_parse(kernel_s, &a.kernel, &err)) {
		fprintf(stderr, "simsched: --kernel: %s\n", err->message);
		g_clear_error(&err);
		return 2;
	}
	a.policy = policy ? policy : ss_kernel_default_policy(a.kernel);
	a.features = features;
	a.nodes = nodes;
	a.sets = sets;
	a.command = ss_cli_command_line();
	a.seed = 1;
	if (seed_s && !ss_cli_parse_seed("--seed", seed_s, &a.seed))
		return 2;
	if (!ss_parse_load(load ? load : "100%", &a.load_x100, &err)) {
		fprintf(stderr, "simsched: --load '%s': %s\n", load, err->message);
		g_clear_error(&err);
		return 2;
	}
	if (precision && !ss_parse_precision(precision, &a.precision)) {
		fprintf(stderr, "simsched: --precision '%s': expected a relative half-width like 1%% or 0.01, above 0 and below 100%%\n", precision);
		return 2;
	}
	if (!parse_time_option(duration ? duration : a.precision > 0 ? "60s" : "2s", &a.duration_ns) || !a.duration_ns) {
		fprintf(stderr, "simsched: --duration '%s': expected a positive time with a unit (ns, us, ms, s) like 2s or 500ms, at most 10^6 s\n", duration);
		return 2;
	}
	if (!ss_parse_warmup(warmup ? warmup : "1s", &a.warmup_auto, &a.warmup_ns)) {
		fprintf(stderr, "simsched: --warmup '%s': expected a time with a unit (ns, us, ms, s) like 1s or 200ms, or 0, at most 10^6 s; or auto, or auto:CAP like auto:5s\n", warmup);
		return 2;
	}
	if (batch && (!parse_time_option(batch, &a.batch_ns) || a.batch_ns < 1000 || a.batch_ns > a.duration_ns)) {
		fprintf(stderr, "simsched: --batch '%s': expected a time of at least 1us and at most --duration\n", batch);
		return 2;
	}
	if (batch && !a.warmup_auto && !(a.precision > 0)) {
		fprintf(stderr, "simsched: --batch goes with --warmup auto or --precision (the interval they observe the figure at)\n");
		return 2;
	}
	if (sample && (!parse_time_option(sample, &a.sample_ns) || a.sample_ns < 1000000)) {
		fprintf(stderr, "simsched: --sample-interval '%s': expected a time of at least 1ms\n", sample);
		return 2;
	}
	{
		/* refuse before simulating, rather than lose the run at the end (a plugin file is an input too) */
		unsigned ni;
		g_autofree const char **inputs = ss_cli_inputs(topo_path, wl_path, plugins, &ni);
		if (json_path && !ss_cli_check_out("--json", json_path, inputs, ni))
			return 2;
		if (ss_cli_trace_check(&tr, json_path, inputs, ni))
			return 2;
	}
	return execute_run(&a);
}


struct progress {
	gint64 start;
};

static void compare_progress(void *ctx, unsigned done, unsigned total)
{
	struct progress *pr = ctx;
	double el = (double)(g_get_monotonic_time() - pr->start) / 1e6;
	double est = done ? el * total / done - el : 0.0;
	fprintf(stderr, "\r%u/%u points, %.0f s elapsed, ~%.0f s left   %s", done, total, el, est, done == total ? "\n" : "");
	fflush(stderr);
}

static int cmd_compare(int argc, char **argv)
{
	g_autofree char *topo_path = NULL, *wl_path = NULL, *policies = NULL, *features = NULL, *load = NULL;
	g_autofree char *duration = NULL, *warmup = NULL, *nodes = NULL, *format = NULL, *metric = NULL, *out = NULL;
	g_autofree char *seed_s = NULL, *kernel_s = NULL, *kernels_s = NULL, *precision = NULL, *batch = NULL;
	gchar **sets = NULL, **plugins = NULL;
	gint seeds = 3, jobs = 0;
	gboolean quiet = FALSE;
	GOptionEntry entries[] = {
		{ "topology", 't', 0, G_OPTION_ARG_FILENAME, &topo_path, "machine description (YAML)", "FILE" },
		{ "workload", 'w', 0, G_OPTION_ARG_FILENAME, &wl_path, "workload (YAML)", "FILE" },
		{ "policies", 'p', 0, G_OPTION_ARG_STRING, &policies, "policies to compare, the first is the baseline", "A,B,..." },
		{ "policy-plugin", 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &plugins, "load a policy plugin (repeatable); its policy name works in --policies", "FILE.so" },
		{ "kernel", 0, 0, G_OPTION_ARG_STRING, &kernel_s, "kernel modelled: 6.6 (default) or 5.17", "VERSION" },
		{ "kernels", 0, 0, G_OPTION_ARG_STRING, &kernels_s, "compare kernels too: one column per policy and kernel (POLICY@KERNEL), the first the baseline", "5.17,6.6" },
		{ "load", 'l', 0, G_OPTION_ARG_STRING, &load, "loads: a list 25%,100% or a range 25%..200%/25% (default); each a percentage or a fraction <= 1", "LOADS" },
		{ "seeds", 0, 0, G_OPTION_ARG_INT, &seeds, "seeds per point, 1..1000 (default 3)", "N" },
		{ "seed", 's', 0, G_OPTION_ARG_STRING, &seed_s, "first seed, 0..2^53-1 (default 1)", "N" },
		{ "duration", 'd', 0, G_OPTION_ARG_STRING, &duration, "measured simulated time per run (default 2s); with --precision the longest a window may run (default 60s)", "TIME" },
		{ "warmup", 0, 0, G_OPTION_ARG_STRING, &warmup, "simulated warmup per run (default 1s); auto[:CAP]: MSER-5 (with --precision: the latest of the columns')", "TIME|auto" },
		{ "precision", 0, 0, G_OPTION_ARG_STRING, &precision, "run each (load, seed) until every column's paired delta against the first is within +-P at 95 % (e.g. 1%)", "P" },
		{ "batch", 0, 0, G_OPTION_ARG_STRING, &batch, "observation interval of --warmup auto and --precision (default 1ms)", "TIME" },
		{ "jobs", 'j', 0, G_OPTION_ARG_INT, &jobs, "worker threads (default: one per core)", "N" },
		{ "metric", 'm', 0, G_OPTION_ARG_STRING, &metric, "figure to compare (default: the workload's own, e.g. throughput)", "NAME" },
		{ "sched-features", 0, 0, G_OPTION_ARG_STRING, &features, "sched features over each policy's", "LIST" },
		{ "nodes", 'N', 0, G_OPTION_ARG_STRING, &nodes, "restrict the workload to these NUMA nodes, by firmware node id, like numactl -N", "LIST" },
		{ "set", 0, 0, G_OPTION_ARG_STRING_ARRAY, &sets, "set a parameter (repeatable)", "SECTION.KEY=VALUE" },
		{ "format", 'f', 0, G_OPTION_ARG_STRING, &format, "text (default), markdown, csv or json", "FMT" },
		{ "out", 'o', 0, G_OPTION_ARG_FILENAME, &out, "also write the table to FILE (written whole, then renamed)", "FILE" },
		{ "quiet", 'q', 0, G_OPTION_ARG_NONE, &quiet, "print nothing but warnings and errors (no table on stdout, no progress; with --out)", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	GError *err = NULL;
	GOptionContext *ctx = g_option_context_new("- compare policies across loads and seeds (mmtests-style table)");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return fail(err, 2);
	int rc = 2;
	struct ss_topology *t = NULL;
	struct ss_workload *w = NULL;
	gchar **pols = NULL;
	g_autofree unsigned *loads = NULL;
	unsigned nr_loads = 0;
	struct ss_compare_spec spec = { .metric = SS_CMP_WORKLOAD };
	struct progress pr = { g_get_monotonic_time() };
	enum ss_kernel kernels[SS_NR_KERNELS];

	if (argc > 1) {
		fprintf(stderr, "simsched: compare: unexpected argument '%s'\n", argv[1]);
		goto out;
	}
	if (!topo_path || !wl_path || !policies) {
		fprintf(stderr, "simsched: compare needs --topology FILE, --workload FILE and --policies A,B\n");
		goto out;
	}
	ss_cli_resolve_data(&topo_path, "topologies");
	ss_cli_resolve_data(&wl_path, "workloads");
	{
		const char *pname;
		int prc = ss_cli_load_plugins(plugins, &pname);
		if (prc) {
			rc = prc;
			goto out;
		}
	}
	pols = g_strsplit(policies, ",", -1);
	spec.nr_policies = g_strv_length(pols);
	for (unsigned i = 0; i < spec.nr_policies; i++) {
		if (!ss_policy_find(pols[i])) {
			fprintf(stderr, "simsched: --policies: unknown policy '%s' ('simsched policies' lists them)\n", pols[i]);
			goto out;
		}
		/* the same policy twice would be compared with itself */
		for (unsigned j = 0; j < i; j++) {
			if (!strcmp(pols[i], pols[j])) {
				fprintf(stderr, "simsched: --policies '%s': policy '%s' is named twice (expected each policy once)\n",
					policies, pols[i]);
				goto out;
			}
		}
	}
	if (!spec.nr_policies) {
		fprintf(stderr, "simsched: --policies: no policy named\n");
		goto out;
	}
	if (kernel_s && kernels_s) {
		fprintf(stderr, "simsched: --kernel and --kernels: give one (--kernels A,B compares kernels)\n");
		goto out;
	}
	if (kernel_s && !ss_kernel_parse(kernel_s, &spec.base.kernel, &err)) {
		fprintf(stderr, "simsched: --kernel: %s\n", err->message);
		g_clear_error(&err);
		goto out;
	}
	if (kernels_s) {
		g_auto(GStrv) ks = g_strsplit(kernels_s, ",", -1);
		for (unsigned i = 0; ks[i]; i++) {
			enum ss_kernel k;
			if (!ss_kernel_parse(ks[i], &k, &err)) {
				fprintf(stderr, "simsched: --kernels '%s': %s\n", kernels_s, err->message);
				g_clear_error(&err);
				goto out;
			}
			for (unsigned j = 0; j < spec.nr_kernels; j++)
				if (kernels[j] == k) {
					fprintf(stderr, "simsched: --kernels '%s': kernel %s is named twice (expected each kernel once)\n",
						kernels_s, ss_kernel_name(k));
					goto out;
				}
			kernels[spec.nr_kernels++] = k;
		}
		spec.kernels = kernels;
		spec.base.kernel = kernels[0];
	}
	if (seeds < 1 || seeds > 1000) {
		fprintf(stderr, "simsched: --seeds %d: expected a seed count in 1..1000\n", seeds);
		goto out;
	}
	if (jobs < 0 || jobs > 1024) {
		fprintf(stderr, "simsched: --jobs %d: expected 0 (one per core) .. 1024\n", jobs);
		goto out;
	}
	if (!(loads = ss_cmp_parse_loads(load ? load : "25%..200%/25%", &nr_loads, &err))) {
		rc = fail(err, 2);
		goto out;
	}
	if (metric && !ss_cmp_metric_parse(metric, &spec.metric, &err)) {
		rc = fail(err, 2);
		goto out;
	}
	if (format && strcmp(format, "text") && strcmp(format, "markdown") && strcmp(format, "csv") && strcmp(format, "json")) {
		fprintf(stderr, "simsched: --format '%s': expected text, markdown, csv or json\n", format);
		goto out;
	}
	guint64 seed = 1;
	if (seed_s && !ss_cli_parse_seed("--seed", seed_s, &seed))
		goto out;
	if (seed > SS_SEED_MAX - (guint64)(seeds - 1)) {
		fprintf(stderr, "simsched: --seed %" G_GUINT64_FORMAT " --seeds %d: the last seed, --seed + --seeds - 1 = %"
				G_GUINT64_FORMAT ", exceeds %" G_GUINT64_FORMAT " (2^53 - 1: results hold seeds as JSON numbers)\n",
			seed, seeds, seed + (guint64)(seeds - 1), (guint64)SS_SEED_MAX);
		goto out;
	}
	if (precision && !ss_parse_precision(precision, &spec.base.precision)) {
		fprintf(stderr, "simsched: --precision '%s': expected a half-width like 1%% or 0.01, above 0 and below 100%%\n", precision);
		goto out;
	}
	if (!parse_time_option(duration ? duration : spec.base.precision > 0 ? "60s" : "2s", &spec.base.duration_ns) ||
	    !spec.base.duration_ns || !ss_parse_warmup(warmup ? warmup : "1s", &spec.base.warmup_auto, &spec.base.warmup_ns)) {
		fprintf(stderr, "simsched: --duration/--warmup: expected a time with a unit (ns, us, ms, s) like 2s or 500ms (--warmup also auto or auto:CAP)\n");
		goto out;
	}
	if (batch && (!parse_time_option(batch, &spec.base.batch_ns) || spec.base.batch_ns < 1000 ||
		      spec.base.batch_ns > spec.base.duration_ns || (!spec.base.warmup_auto && !(spec.base.precision > 0)))) {
		fprintf(stderr, "simsched: --batch '%s': expected a time of at least 1us and at most --duration, with --warmup auto or --precision\n", batch);
		goto out;
	}
	if (out) {
		unsigned ni;
		g_autofree const char **inputs = ss_cli_inputs(topo_path, wl_path, plugins, &ni);
		if (!ss_cli_check_out("--out", out, inputs, ni))
			goto out;
	}
	rc = 1;
	if (!(t = ss_topology_load(topo_path, &err))) {
		rc = fail(err, 1);
		goto out;
	}
	{
		gchar **wl_sets = NULL;
		split_workload_sets(&sets, &wl_sets);
		w = ss_workload_load_params(wl_path, (const char *const *)wl_sets, &err);
		g_strfreev(wl_sets);
		if (!w) {
			rc = fail_lib(err);   /* a bad --set workload.X: 2, a bad file: 1 */
			goto out;
		}
	}
	ss_cli_topology_warnings(t);
	ss_cli_workload_warnings(w);
	ss_params_defaults(&spec.base.params, t);
	/* every --set must suit every policy: checked here, applied per point */
	for (gchar **s = sets; s && *s; s++)
		for (unsigned i = 0; i < spec.nr_policies; i++) {
			struct ss_params scratch = spec.base.params;
			if (!ss_params_set(&scratch, pols[i], *s, &err)) {
				if (spec.nr_policies > 1)
					g_prefix_error(&err, "policy %s: ", pols[i]);
				rc = fail(err, 2);
				goto out;
			}
		}
	spec.sets = (const char *const *)sets;
	spec.nr_sets = sets ? g_strv_length(sets) : 0;
	spec.base.topo = t;
	spec.base.wl = w;
	spec.base.sched_features = features;
	spec.base.nodes = nodes;
	spec.base.seed = seed;
	spec.policies = (const char *const *)pols;
	spec.loads = loads;
	spec.nr_loads = nr_loads;
	spec.nr_seeds = (unsigned)seeds;
	spec.jobs = (unsigned)jobs;
	if (isatty(2) && !quiet) {
		spec.progress = compare_progress;
		spec.progress_ctx = &pr;
	}
	struct ss_compare_result *r = ss_compare_run(&spec, &err);
	if (!r) {
		rc = fail_lib(err);
		goto out;
	}
	char *txt = ss_compare_render(r, format ? format : "text", &err);
	unsigned deadlocked = r->nr_deadlocked;
	if (deadlocked)
		fprintf(stderr, "simsched: warning: %u of %u runs deadlocked (their figures cover a window where nothing ran); the first: %s\n",
			deadlocked, r->nr_policies * nr_loads * spec.nr_seeds, r->deadlock_first);
	ss_compare_result_free(r);
	if (!txt) {
		rc = fail(err, 2);
		goto out;
	}
	rc = 0;
	if (out && !ss_write_file_atomic(out, txt, strlen(txt), &err))
		rc = fail(err, 1);
	if (!quiet)
		ss_cli_print(txt);
	g_free(txt);
	if (!rc && deadlocked)
		rc = 3;   /* after the table: the other points' figures stand */
out:
	g_strfreev(pols);
	g_strfreev(sets);
	g_strfreev(plugins);
	ss_workload_free(w);
	ss_topology_free(t);
	return rc;
}

static int dispatch(int argc, char **argv)
{
	if (argc < 2)
		return usage();
	if (!strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	if (!strcmp(argv[1], "topo"))
		return cmd_topo(argc - 1, argv + 1);
	if (!strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (!strcmp(argv[1], "sweep"))
		return ss_cli_sweep(argc - 1, argv + 1);
	if (!strcmp(argv[1], "report"))
		return ss_cli_report(argc - 1, argv + 1);
	if (!strcmp(argv[1], "policies"))
		return cmd_policies(argc - 1, argv + 1);
	if (!strcmp(argv[1], "pelt"))
		return ss_cli_pelt(argc - 1, argv + 1);
	if (!strcmp(argv[1], "validate"))
		return ss_cli_validate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "version")) {
		printf("simsched %s (kernel model v6.6)\n", SS_VERSION_STRING);
		return 0;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		usage();
		return 0;
	}
	fprintf(stderr, "simsched: unknown command '%s'\n", argv[1]);
	return usage();
}

int main(int argc, char **argv)
{
	/*
	 * The character set only (LC_CTYPE): GOption converts string option
	 * values from it to UTF-8, so a UTF-8 --name works in a UTF-8 locale.
	 * LC_NUMERIC stays "C": output is the same bytes in every locale.
	 */
	setlocale(LC_CTYPE, "");
	ss_cli_check_stdout_at_exit();
	ss_cli_set_command_line(argc, argv);
	int rc = dispatch(argc, argv);
	ss_cli_set_exit_status(rc);
	return rc;
}

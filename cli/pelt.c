/*
 * simsched pelt — util_avg over time of one task alone on one CPU, and its
 * steady-state range. Argument parsing and rendering only; the replay is
 * lib/pelt_task.c (simsched/pelt_task.h). Documented in docs/pelt.md.
 *
 *   simsched pelt --period 10ms --busy 50% [--freq-ratio R] [--capacity C] ...
 *   simsched pelt --workload FILE --task PATH [--wait-time T] ...
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <glib.h>

#include "cli.h"
#include "simsched/eevdf.h"
#include "simsched/error.h"
#include "simsched/params.h"
#include "simsched/pelt.h"
#include "simsched/pelt_task.h"
#include "simsched/workload.h"

static int pelt_fail(GError *e, int code)
{
	fprintf(stderr, "simsched: %s\n", e ? e->message : "error");
	if (e)
		g_error_free(e);
	return code;
}

/* A time with a unit (a bare 0 allowed when zero_ok), at most 10^6 s. */
static bool parse_time(const char *s, bool zero_ok, uint64_t *ns)
{
	size_t n = strlen(s);

	if (!n)
		return false;
	if (!strcmp(s, "0"))
		*ns = 0;
	else if (!g_ascii_isalpha(s[n - 1]) || !ss_parse_duration(s, ns))
		return false;
	return *ns <= UINT64_C(1000000) * 1000000000u && (zero_ok || *ns > 0);
}

/*
 * --busy as a share of the period, in percent x 100: "50%", "12.5%" (0..100 %,
 * two decimals at most) or, as run --load reads a bare number, a fraction
 * "0.5", "0.125" (0..1, four decimals at most). *bare_over_1 tells a bare
 * number above 1 ("50": 5000 %) from other bad input.
 */
static bool parse_busy_share(const char *s, unsigned *pct_x100, bool *bare_over_1)
{
	unsigned long ip = 0, frac = 0;
	unsigned nd = 0;
	const char *p = s;
	bool pct;

	*bare_over_1 = false;
	if (!g_ascii_isdigit(*p))
		return false;
	for (; g_ascii_isdigit(*p); p++) {
		ip = ip * 10 + (unsigned long)(*p - '0');
		if (ip > 100000)
			return false;
	}
	if (*p == '.') {
		p++;
		for (; g_ascii_isdigit(*p); p++, nd++) {
			if (nd >= 4)
				return false;
			frac = frac * 10 + (unsigned long)(*p - '0');
		}
		if (!nd)
			return false;
	}
	pct = *p == '%';
	if (pct)
		p++;
	if (*p)
		return false;
	/* scale to percent x 100: a percentage has 2 decimals, a fraction 4 */
	unsigned scale_nd = pct ? 2 : 4;
	if (nd > scale_nd)
		return false;
	for (unsigned k = nd; k < scale_nd; k++)
		frac *= 10;
	unsigned long v = ip * (pct ? 100 : 10000) + frac;
	if (v > 10000) {
		*bare_over_1 = !pct;
		return false;
	}
	*pct_x100 = (unsigned)v;
	return true;
}

/* kernel.freq_ratio's rule (params.c): a number in (0, 1], x1024 rounded, at least 1. */
static bool parse_ratio(const char *s, unsigned long *cap)
{
	char *end;
	double f;

	errno = 0;
	f = g_ascii_strtod(s, &end);   /* "0.5" in every locale */
	if (errno || end == s || *end || !(f > 0.0) || f > 1.0)
		return false;
	*cap = (unsigned long)(f * 1024.0 + 0.5);
	if (*cap < 1)
		*cap = 1;
	return true;
}

static bool parse_uint(const char *s, unsigned long lo, unsigned long hi, unsigned long *v)
{
	guint64 x;

	if (!g_ascii_string_to_unsigned(s, 10, lo, hi, &x, NULL))
		return false;
	*v = (unsigned long)x;
	return true;
}

/* "ms.nnnnnn" of a ns count, integer formatting only */
static void fmt_ms(char *buf, size_t n, uint64_t ns)
{
	snprintf(buf, n, "%llu.%06llu", (unsigned long long)(ns / 1000000), (unsigned long long)(ns % 1000000));
}

/* "ms[.frac]" of a ns count without trailing zeros ("3000", "0.3072"), for prose */
static void fmt_ms_short(char *buf, size_t n, uint64_t ns)
{
	size_t len;

	fmt_ms(buf, n, ns);
	len = strlen(buf);
	while (buf[len - 1] == '0')
		buf[--len] = '\0';
	if (buf[len - 1] == '.')
		buf[--len] = '\0';
}

/* A task by path ("pair[3]/client") or by role name (its instance 0). */
static struct ss_wl_plan *plan_with_task(const struct ss_workload *w, const char *path, uint32_t *task, GError **err)
{
	const char *slash = strrchr(path, '/');
	unsigned long long inst = 0;
	const char *role = path;
	unsigned nr_cpus = 1;

	if (slash) {
		const char *lb = strchr(path, '[');
		char *end;

		role = slash + 1;
		if (!lb || lb > slash || slash[-1] != ']' || !g_ascii_isdigit(lb[1])) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "--task '%s': expected a role name or a task path like %s[0]/%s", path,
				    ss_workload_instance_unit(w), ss_workload_role_name(w, 0));
			return NULL;
		}
		errno = 0;
		inst = strtoull(lb + 1, &end, 10);
		if (errno || end != slash - 1 || inst >= SS_WL_MAX_TASKS) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--task '%s': bad instance number", path);
			return NULL;
		}
	}
	/* enough CPUs at 100 % load for instance `inst` to exist */
	for (;;) {
		struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, nr_cpus, err);

		if (!p)
			return NULL;
		for (uint32_t t = 0; t < p->nr_tasks; t++) {
			if (p->task[t].instance == inst && (slash ? !strcmp(p->task[t].path, path) :
								 !strcmp(ss_workload_role_name(w, p->task[t].role), role))) {
				*task = t;
				return p;
			}
		}
		if (p->nr_instances > inst || nr_cpus >= (1u << 24)) {
			GString *roles = g_string_new(NULL);

			for (unsigned r = 0; r < ss_workload_nr_roles(w); r++)
				g_string_append_printf(roles, "%s%s", r ? ", " : "", ss_workload_role_name(w, r));
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "--task '%s': no such task in workload '%s' (roles: %s; a path is %s[N]/ROLE)", path,
				    ss_workload_name(w), roles->str, ss_workload_instance_unit(w));
			g_string_free(roles, TRUE);
			ss_wl_plan_free(p);
			return NULL;
		}
		ss_wl_plan_free(p);
		nr_cpus *= 2;
	}
}

static char *render_json(const struct ss_pelt_task_spec *s, const char *what, const struct ss_pelt_trace *tr)
{
	cJSON *root = cJSON_CreateObject(), *o, *arr;
	char *txt, *ret;

	o = cJSON_AddObjectToObject(root, "pattern");
	cJSON_AddStringToObject(o, "source", s->plan ? "workload" : "periodic");
	cJSON_AddStringToObject(o, "description", what);
	if (!s->plan) {
		cJSON_AddNumberToObject(o, "period_ns", (double)s->period_ns);
		cJSON_AddNumberToObject(o, "busy_ns", (double)s->busy_ns);
	} else {
		cJSON_AddStringToObject(o, "task", s->plan->task[s->task].path);
		char seed[24];

		/* exact: cJSON's %.15g rounds a 16-digit seed */
		snprintf(seed, sizeof seed, "%" G_GUINT64_FORMAT, (guint64)s->seed);
		cJSON_AddRawToObject(o, "seed", seed);
		cJSON_AddNumberToObject(o, "wait_ns", (double)s->wait_ns);
	}
	cJSON_AddNumberToObject(o, "weight", (double)s->weight);
	cJSON_AddBoolToObject(o, "from_zero", s->from_zero);
	o = cJSON_AddObjectToObject(root, "cpu");
	cJSON_AddNumberToObject(o, "capacity", (double)s->capacity);
	cJSON_AddNumberToObject(o, "freq_capacity", (double)s->freq_capacity);
	cJSON_AddNumberToObject(o, "tick_ns", (double)s->tick_ns);
	o = cJSON_AddObjectToObject(root, "run");
	cJSON_AddNumberToObject(o, "duration_ns", (double)s->duration_ns);
	cJSON_AddNumberToObject(o, "end_ns", (double)tr->end_ns);
	cJSON_AddBoolToObject(o, "exited", tr->exited);
	cJSON_AddNumberToObject(o, "updates", (double)tr->nr_updates);
	cJSON_AddNumberToObject(o, "running_ns", (double)tr->running_ns);
	o = cJSON_AddObjectToObject(root, "steady_state");
	cJSON_AddNumberToObject(o, "from_ns", (double)s->steady_from_ns);
	cJSON_AddNumberToObject(o, "to_ns", (double)tr->end_ns);
	if (tr->steady) {
		cJSON_AddNumberToObject(o, "util_avg_min", tr->steady_min);
		cJSON_AddNumberToObject(o, "util_avg_max", tr->steady_max);
		cJSON_AddNumberToObject(o, "runnable_avg_min", tr->steady_runnable_min);
		cJSON_AddNumberToObject(o, "runnable_avg_max", tr->steady_runnable_max);
	} else {
		cJSON_AddNullToObject(o, "util_avg_min");
		cJSON_AddNullToObject(o, "util_avg_max");
		cJSON_AddNullToObject(o, "runnable_avg_min");
		cJSON_AddNullToObject(o, "runnable_avg_max");
	}
	cJSON_AddNumberToObject(o, "running_ns", (double)tr->steady_running_ns);
	arr = cJSON_AddArrayToObject(root, "samples");
	for (guint i = 0; i < tr->samples->len; i++) {
		const struct ss_pelt_sample *x = &g_array_index(tr->samples, struct ss_pelt_sample, i);
		cJSON *e = cJSON_CreateObject();

		cJSON_AddNumberToObject(e, "time_ns", (double)x->time_ns);
		cJSON_AddStringToObject(e, "event", ss_pelt_event_name(x->event));
		cJSON_AddBoolToObject(e, "running", x->running);
		cJSON_AddNumberToObject(e, "util_avg", x->util_avg);
		cJSON_AddNumberToObject(e, "runnable_avg", x->runnable_avg);
		cJSON_AddNumberToObject(e, "load_avg", x->load_avg);
		cJSON_AddNumberToObject(e, "util_est_enqueued", x->util_est_enqueued);
		cJSON_AddNumberToObject(e, "util_est_ewma", x->util_est_ewma);
		cJSON_AddNumberToObject(e, "cfs_util_avg", x->cfs_util_avg);
		cJSON_AddNumberToObject(e, "clock_pelt_ns", (double)x->clock_pelt_ns);
		cJSON_AddItemToArray(arr, e);
	}
	txt = cJSON_Print(root);
	cJSON_Delete(root);
	ret = g_strconcat(txt, "\n", NULL);
	cJSON_free(txt);
	return ret;
}

static char *render_summary(const struct ss_pelt_task_spec *s, const struct ss_pelt_trace *tr)
{
	char a[32], b[32];
	uint64_t win = tr->end_ns > s->steady_from_ns ? tr->end_ns - s->steady_from_ns : 0;
	unsigned busy_x100 = win ? (unsigned)(((unsigned __int128)tr->steady_running_ns * 10000 + win / 2) / win) : 0;

	fmt_ms_short(a, sizeof a, s->steady_from_ns);
	fmt_ms_short(b, sizeof b, tr->end_ns);
	if (!tr->steady)
		return g_strdup_printf("steady state %s..%s ms: no PELT update in the window (nothing to report)\n", a, b);
	return g_strdup_printf("steady state %s..%s ms: util_avg %u..%u, runnable_avg %u..%u, running %u.%02u %% of the time\n",
			       a, b, tr->steady_min, tr->steady_max, tr->steady_runnable_min,
			       tr->steady_runnable_max, busy_x100 / 100, busy_x100 % 100);
}

static char *render_text(const struct ss_pelt_task_spec *s, const char *what, const struct ss_pelt_trace *tr,
			 bool summary_only)
{
	GString *o = g_string_new(NULL);
	char *sum;

	g_string_append_printf(o, "# %s\n", what);
	g_string_append_printf(o, "# CPU capacity %lu, frequency %lu/1024, ", s->capacity, s->freq_capacity);
	if (s->tick_ns)
		g_string_append_printf(o, "tick every %llu ns", (unsigned long long)s->tick_ns);
	else
		g_string_append(o, "no tick");
	g_string_append_printf(o, ", se weight %lu, %s\n", s->weight,
			       s->from_zero ? "averages from zero" : "forked (post_init_entity_util_avg)");
	if (tr->exited) {
		char e[32];

		fmt_ms_short(e, sizeof e, tr->end_ns);
		g_string_append_printf(o, "# the program ended at %s ms\n", e);
	}
	if (!summary_only) {
		g_string_append_printf(o, "%14s %-7s %3s %8s %12s %8s %8s %8s %12s\n", "time_ms", "event", "run", "util_avg",
				       "runnable_avg", "load_avg", "util_est", "ewma", "cfs_util_avg");
		for (guint i = 0; i < tr->samples->len; i++) {
			const struct ss_pelt_sample *x = &g_array_index(tr->samples, struct ss_pelt_sample, i);
			char t[32];

			fmt_ms(t, sizeof t, x->time_ns);
			g_string_append_printf(o, "%14s %-7s %3s %8u %12u %8u %8u %8u %12u\n", t, ss_pelt_event_name(x->event),
					       x->running ? "R" : "-", x->util_avg, x->runnable_avg, x->load_avg,
					       x->util_est_enqueued, x->util_est_ewma, x->cfs_util_avg);
		}
	}
	sum = render_summary(s, tr);
	g_string_append(o, sum);
	g_free(sum);
	return g_string_free(o, FALSE);
}

int ss_cli_pelt(int argc, char **argv)
{
	g_autofree char *period = NULL, *busy = NULL, *freq = NULL, *cap = NULL, *duration = NULL, *steady = NULL;
	g_autofree char *hz_s = NULL, *nice_s = NULL, *wl_path = NULL, *task = NULL, *seed_s = NULL, *wait = NULL;
	g_autofree char *sample = NULL;
	gboolean json = FALSE, updates = FALSE, summary = FALSE, from_zero = FALSE;
	GOptionEntry entries[] = {
		{ "period", 'P', 0, G_OPTION_ARG_STRING, &period, "periodic pattern: the period (e.g. 10ms)", "TIME" },
		{ "busy", 'b', 0, G_OPTION_ARG_STRING, &busy, "running at the start of each period: 0%..100%, a fraction 0..1 (0.5 = 50%) or a time", "SHARE|TIME" },
		{ "nice", 0, 0, G_OPTION_ARG_STRING, &nice_s, "periodic pattern: the task's nice, -20..19 (default 0)", "N" },
		{ "workload", 'w', 0, G_OPTION_ARG_FILENAME, &wl_path, "replay a task of this workload (YAML or rt-app JSON)", "FILE" },
		{ "task", 'T', 0, G_OPTION_ARG_STRING, &task, "the task: a role name (instance 0) or a path like pair[0]/client", "PATH" },
		{ "seed", 's', 0, G_OPTION_ARG_STRING, &seed_s, "random seed of the task's stream, 0..2^53-1 (default 1)", "N" },
		{ "wait-time", 0, 0, G_OPTION_ARG_STRING, &wait, "how long a wait for other tasks blocks (default: an error)", "TIME" },
		{ "freq-ratio", 0, 0, G_OPTION_ARG_STRING, &freq, "current/max frequency, 0 < R <= 1 (default 1)", "R" },
		{ "capacity", 'c', 0, G_OPTION_ARG_STRING, &cap, "CPU capacity, 1..1024 (default 1024)", "C" },
		{ "hz", 0, 0, G_OPTION_ARG_STRING, &hz_s, "CONFIG_HZ, 100..1000, or 0 for no tick (default: kernel.hz)", "HZ" },
		{ "duration", 'd', 0, G_OPTION_ARG_STRING, &duration, "simulated time (default 400 periods, or 4s)", "TIME" },
		{ "steady-from", 0, 0, G_OPTION_ARG_STRING, &steady, "start of the steady-state window (default 3/4 of the duration)", "TIME" },
		{ "sample", 0, 0, G_OPTION_ARG_STRING, &sample, "a row every TIME (default 1ms)", "TIME" },
		{ "updates", 'u', 0, G_OPTION_ARG_NONE, &updates, "a row after every PELT update instead", NULL },
		{ "from-zero", 0, 0, G_OPTION_ARG_NONE, &from_zero, "start with zeroed averages, not as a forked task", NULL },
		{ "summary", 0, 0, G_OPTION_ARG_NONE, &summary, "print only the steady-state range", NULL },
		{ "json", 0, 0, G_OPTION_ARG_NONE, &json, "print JSON (docs/pelt.md)", NULL },
		{ NULL, 0, 0, 0, NULL, NULL, NULL },
	};
	struct ss_pelt_task_spec spec = { 0 };
	struct ss_workload *w = NULL;
	struct ss_wl_plan *plan = NULL;
	struct ss_pelt_trace *tr = NULL;
	struct ss_params defaults;
	GError *err = NULL;
	g_autofree char *what = NULL;
	char *out;
	int rc = 2;

	GOptionContext *ctx = g_option_context_new("- util_avg over time of one task alone on one CPU (kernel v6.6 PELT)");
	gboolean ok = ss_cli_parse(ctx, entries, &argc, &argv, &err);
	g_option_context_free(ctx);
	if (!ok)
		return pelt_fail(err, 2);
	if (argc > 1) {
		fprintf(stderr, "simsched: pelt: unexpected argument '%s'\n", argv[1]);
		return 2;
	}
	if ((period || busy) && (wl_path || task)) {
		fprintf(stderr, "simsched: pelt: give either --period and --busy, or --workload and --task\n");
		return 2;
	}
	if (!((period && busy) || (wl_path && task))) {
		fprintf(stderr, "simsched: pelt needs --period TIME --busy PCT, or --workload FILE --task PATH\n");
		return 2;
	}
	if (json && summary) {
		fprintf(stderr, "simsched: pelt: --json and --summary contradict each other\n");
		return 2;
	}

	ss_params_defaults(&defaults, NULL);
	spec.capacity = SS_SCHED_CAPACITY_SCALE;
	spec.freq_capacity = defaults.freq_capacity;
	spec.weight = (unsigned long)ss_sched_prio_to_weight[20];
	spec.from_zero = from_zero;
	spec.seed = 1;
	if (freq && !parse_ratio(freq, &spec.freq_capacity)) {
		fprintf(stderr, "simsched: --freq-ratio '%s': expected a number in (0, 1], e.g. 0.5\n", freq);
		return 2;
	}
	if (cap && !parse_uint(cap, 1, 1024, &spec.capacity)) {
		fprintf(stderr, "simsched: --capacity '%s': expected an integer in 1..1024\n", cap);
		return 2;
	}
	unsigned long hz = (unsigned long)defaults.hz;
	if (hz_s && strcmp(hz_s, "0") && !parse_uint(hz_s, 100, 1000, &hz)) {
		fprintf(stderr, "simsched: --hz '%s': expected 0 (no tick) or an integer in 100..1000\n", hz_s);
		return 2;
	}
	if (hz_s && !strcmp(hz_s, "0"))
		hz = 0;
	spec.tick_ns = hz ? (1000000000ull + hz / 2) / hz : 0;   /* TICK_NSEC, as core.c */
	if (nice_s) {
		gint64 nv;

		if (!g_ascii_string_to_signed(nice_s, 10, -20, 19, &nv, NULL)) {
			fprintf(stderr, "simsched: --nice '%s': expected an integer in -20..19\n", nice_s);
			return 2;
		}
		spec.weight = (unsigned long)ss_sched_prio_to_weight[nv + 20];
	}
	if (seed_s) {
		guint64 sv;

		if (!ss_cli_parse_seed("--seed", seed_s, &sv))
			return 2;
		spec.seed = sv;
	}
	if (wait && !parse_time(wait, false, &spec.wait_ns)) {
		fprintf(stderr, "simsched: --wait-time '%s': expected a positive time with a unit (ns, us, ms, s)\n", wait);
		return 2;
	}
	if (sample && !parse_time(sample, false, &spec.sample_ns)) {
		fprintf(stderr, "simsched: --sample '%s': expected a positive time with a unit (ns, us, ms, s)\n", sample);
		return 2;
	}
	if (sample && updates) {
		fprintf(stderr, "simsched: pelt: --sample and --updates contradict each other\n");
		return 2;
	}
	if (!sample)
		spec.sample_ns = updates ? 0 : 1000000;

	if (period) {
		unsigned pct;

		if (!parse_time(period, false, &spec.period_ns)) {
			fprintf(stderr, "simsched: --period '%s': expected a positive time with a unit (ns, us, ms, s), at most 10^6 s\n",
				period);
			return 2;
		}
		/* bounds and their reasons: simsched/pelt_task.h, docs/pelt.md */
		if (spec.period_ns < SS_PELT_MIN_PERIOD_NS) {
			fprintf(stderr, "simsched: --period '%s': shorter than PELT's time unit of 1024 ns, below what PELT resolves "
					"(expected a period of 1024ns..2500s)\n", period);
			return 2;
		}
		if (spec.period_ns > SS_PELT_MAX_PERIOD_NS) {
			fprintf(stderr, "simsched: --period '%s': 400 periods would exceed a run's 10^6 s, and util_avg just saturates "
					"and decays within each phase (expected a period of 1024ns..2500s)\n", period);
			return 2;
		}
		bool bare_over_1;

		if (parse_busy_share(busy, &pct, &bare_over_1)) {
			spec.busy_ns = (uint64_t)(((unsigned __int128)spec.period_ns * pct) / 10000);
			if (pct && !spec.busy_ns) {
				fprintf(stderr, "simsched: --busy '%s': %u.%02u %% of a %s period rounds to 0 ns of running "
						"(expected a larger percentage or a longer period)\n", busy, pct / 100, pct % 100, period);
				return 2;
			}
			what = g_strdup_printf("periodic: period %s, busy %u.%02u %% (%llu ns) at the start of each period",
					       period, pct / 100, pct % 100, (unsigned long long)spec.busy_ns);
		} else if (parse_time(busy, true, &spec.busy_ns) && spec.busy_ns <= spec.period_ns) {
			what = g_strdup_printf("periodic: period %s, busy %s at the start of each period", period, busy);
		} else if (bare_over_1) {
			fprintf(stderr, "simsched: --busy '%s': a bare number is a fraction of the period, as in run --load "
					"(0.5 = 50 %%), so at most 1 (expected %s%% for a percentage)\n", busy, busy);
			return 2;
		} else {
			fprintf(stderr, "simsched: --busy '%s': expected a percentage 0%%..100%% (two decimals at most), a fraction "
					"0..1 (four decimals at most) or a time with a unit no longer than the period\n", busy);
			return 2;
		}
	}
	if (duration) {
		if (!parse_time(duration, false, &spec.duration_ns)) {
			fprintf(stderr, "simsched: --duration '%s': expected a positive time with a unit (ns, us, ms, s), at most 10^6 s\n",
				duration);
			return 2;
		}
	} else if (period) {
		/* the reference's steady state is cycles 300..399 */
		spec.duration_ns = spec.period_ns <= UINT64_C(1000000) * 1000000000u / 400 ? 400 * spec.period_ns
											    : UINT64_C(1000000) * 1000000000u;
	} else {
		spec.duration_ns = UINT64_C(4000000000);
	}
	if (period && duration && spec.duration_ns < spec.period_ns) {
		fprintf(stderr, "simsched: --duration '%s': shorter than the period %s, so nothing repeats (expected at least one period)\n",
			duration, period);
		return 2;
	}
	if (period && spec.duration_ns / spec.period_ns > SS_PELT_MAX_PERIODS) {
		fprintf(stderr, "simsched: --duration '%s': %" G_GUINT64_FORMAT " periods of %s, more than 10^7 "
				"(expected a shorter run or a longer period)\n",
			duration, spec.duration_ns / spec.period_ns, period);
		return 2;
	}
	if (steady) {
		if (!parse_time(steady, true, &spec.steady_from_ns) || spec.steady_from_ns >= spec.duration_ns) {
			fprintf(stderr, "simsched: --steady-from '%s': expected a time with a unit before the end of the run\n", steady);
			return 2;
		}
	} else {
		spec.steady_from_ns = spec.duration_ns / 4 * 3;
	}
	if (spec.sample_ns && spec.duration_ns / spec.sample_ns > 10000000) {
		fprintf(stderr, "simsched: pelt: more than 10^7 rows (raise --sample or shorten --duration)\n");
		return 2;
	}

	if (wl_path) {
		rc = 1;
		if (!(w = ss_workload_load(wl_path, &err))) {
			rc = pelt_fail(err, 1);
			goto out;
		}
		ss_cli_workload_warnings(w);
		if (!(plan = plan_with_task(w, task, &spec.task, &err))) {
			rc = pelt_fail(err, 2);
			goto out;
		}
		spec.plan = plan;
		if (!nice_s)
			spec.weight = (unsigned long)ss_sched_prio_to_weight[plan->task[spec.task].nice + 20];
		what = g_strdup_printf("workload %s: task %s alone on one CPU%s", wl_path, plan->task[spec.task].path,
				       spec.wait_ns ? " (waits for other tasks block --wait-time)" : "");
	}

	if (!(tr = ss_pelt_task_run(&spec, &err))) {
		rc = pelt_fail(err, err && err->code == SS_ERROR_USAGE ? 2 : 1);
		goto out;
	}
	out = json ? render_json(&spec, what, tr) : render_text(&spec, what, tr, summary);
	ss_cli_print(out);
	g_free(out);
	rc = 0;
out:
	ss_pelt_trace_free(tr);
	ss_wl_plan_free(plan);
	ss_workload_free(w);
	return rc;
}

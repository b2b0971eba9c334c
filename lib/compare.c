/*
 * simsched compare: policies × loads × seeds on a GLib thread pool, then
 * mmtests-style summaries (gormanm/mmtests Compare.pm conventions: Hmean for
 * higher-is-better rates, Amean otherwise; percentages signed so that
 * positive is better; asterisks for significant differences).
 */
#include "simsched/compare.h"
#include "simsched/runlen.h"
#include "simsched/error.h"
#include "ss_sched.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The metric table. To add a figure: one enum entry in compare.h, one value
 * function and one row here; --metric, the sweep records (every metric of
 * this table is stored in each record) and the docs' list follow from it.
 */
static double m_throughput(const struct ss_results *r)
{
	return ss_results_throughput(r);
}

/*
 * A figure the run has no value for (a percentile of no samples, a rate
 * whose denominator is 0: select_idle_cpu() never called) is NAN, never 0:
 * 0 would read as the best value of a lower-is-better figure.
 */
static double lat_quantile(const struct ss_lat_hist *h, double q)
{
	return h->n ? (double)ss_lat_hist_quantile(h, q) : NAN;
}

static double m_latency_p50(const struct ss_results *r)
{
	return lat_quantile(&r->wakeup_latency, 0.50);
}

static double m_latency_p99(const struct ss_results *r)
{
	return lat_quantile(&r->wakeup_latency, 0.99);
}

static double m_txn_latency_p99(const struct ss_results *r)
{
	return lat_quantile(&r->txn_latency, 0.99);
}

static double m_probes_per_call(const struct ss_results *r)
{
	return r->sic_calls ? (double)r->sic_probes / (double)r->sic_calls : NAN;
}

static double m_rqs_per_wakeup(const struct ss_results *r)
{
	return r->sis_calls ? (double)r->sis_probes_total / (double)r->sis_calls : NAN;
}

static double m_found_pct(const struct ss_results *r)
{
	return r->sic_calls ? 100.0 * (double)r->sic_found / (double)r->sic_calls : NAN;
}

static double m_migrations(const struct ss_results *r)
{
	return r->duration_ns ? (double)r->migrations * 1e9 / (double)r->duration_ns : NAN;
}

static double m_busy_pct(const struct ss_results *r)
{
	return ss_results_busy_pct(r);
}

static double m_sis_success_pct(const struct ss_results *r)
{
	return r->sis.calls ? 100.0 * (double)(r->sis.calls - r->sis.failed) / (double)r->sis.calls : NAN;
}

static double m_idle_with_work_pct(const struct ss_results *r)
{
	double w = (double)r->duration_ns * (double)(r->nr_allowed_cpus ? r->nr_allowed_cpus : 1);
	return w > 0 ? 100.0 * (double)r->idle_work_llc_ns / w : NAN;
}

static double m_all_migrations(const struct ss_results *r)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < SS_MIG_NR; i++)
		n += r->migrations_by_cause[i];
	return r->duration_ns ? (double)n * 1e9 / (double)r->duration_ns : NAN;
}

static double m_full_mask_fail_pct(const struct ss_results *r)
{
	return r->sis.calls ? 100.0 * (double)r->sis.walked_all / (double)r->sis.calls : NAN;
}

static double m_idle_with_work_allowed_pct(const struct ss_results *r)
{
	return ss_results_idle_with_work_allowed_pct(r);
}

static double m_burst_idle_with_work_pct(const struct ss_results *r)
{
	return ss_results_burst_idle_with_work_pct(r);
}

static double m_burst_idle_1ms_pct(const struct ss_results *r)
{
	return ss_results_burst_idle_1ms_pct(r);
}

static double m_burst_makespan_ns(const struct ss_results *r)
{
	return ss_results_burst_makespan_ns(r);
}

/*
 * The time per select_idle_cpu() call as the seed threads' bpftrace
 * histograms have it, hist((nsecs - @start) / 1000): log2 buckets of the
 * integer µs (r->sic_time_us). The mode is the fullest bucket (the lowest of
 * equal ones), given as its lower bound in ns: 0 for [0, 1) µs, 1000 for
 * [1, 2) µs, 2^(k-1) × 1000 for [2^(k-1), 2^k) µs. No calls: no value.
 */
static double m_sic_time_mode_ns(const struct ss_results *r)
{
	unsigned best = ss_log2_hist_mode(&r->sic_time_us);
	if (best == SS_LOG2_BUCKETS)
		return NAN;
	return best ? 1000.0 * (double)(UINT64_C(1) << (best - 1)) : 0.0;
}

/* % of the calls in [8, 512) µs: the µs buckets [8, 16) .. [256, 512), indices 4..9 (exact: ns in [8000, 512000)) */
static double m_sic_time_8us_512us_pct(const struct ss_results *r)
{
	const struct ss_log2_hist *h = &r->sic_time_us;
	uint64_t n = 0;
	if (!h->n)
		return NAN;
	for (unsigned i = 4; i <= 9; i++)
		n += h->count[i];
	return 100.0 * (double)n / (double)h->n;
}

static double m_workload(const struct ss_results *r)
{
	return ss_results_metric_value(r);
}

/*
 * schema: 2 for the figures whose value changed in result schema 2
 * (docs/output.md, "Schema versions"): busy_pct's denominator, and the
 * figures that are now NAN (null) where version 1 wrote 0.
 */
static const struct ss_cmp_metric_info metrics[SS_CMP_NR_METRICS] = {
	[SS_CMP_THROUGHPUT] = { "throughput", "transactions/s", true, m_throughput,
				"transactions per simulated second", 1 },
	[SS_CMP_LATENCY_P50] = { "latency_p50", "ns", false, m_latency_p50, "wakeup latency, median", 2 },
	[SS_CMP_LATENCY_P99] = { "latency_p99", "ns", false, m_latency_p99, "wakeup latency, 99th percentile", 2 },
	[SS_CMP_TXN_LATENCY_P99] = { "txn_latency_p99", "ns", false, m_txn_latency_p99,
				     "transaction latency (begin to end), 99th percentile", 2 },
	[SS_CMP_PROBES_PER_CALL] = { "probes_per_call", "runqueues", false, m_probes_per_call,
				     "runqueues probed per select_idle_cpu() call", 2 },
	[SS_CMP_RQS_PER_WAKEUP] = { "rqs_per_wakeup", "runqueues", false, m_rqs_per_wakeup,
				    "runqueues read per select_idle_sibling() call, shortcuts included", 2 },
	[SS_CMP_FOUND_PCT] = { "found_idle_pct", "%", true, m_found_pct,
			       "select_idle_cpu() calls that found an idle CPU (success rate)", 2 },
	[SS_CMP_MIGRATIONS] = { "migrations", "per s", false, m_migrations,
				"wakeups placed on another CPU, per simulated second", 1 },
	[SS_CMP_BUSY_PCT] = { "busy_pct", "%", true, m_busy_pct, "CPU busy time / (allowed CPUs x window): the CPUs --nodes leaves the workload", 2 },
	[SS_CMP_SIS_SUCCESS_PCT] = { "sis_success_pct", "%", true, m_sis_success_pct,
				     "select_idle_sibling() calls that chose an idle CPU (SIS schedstats success rate)", 2 },
	[SS_CMP_IDLE_WITH_WORK_PCT] = { "idle_with_work_pct", "%", false, m_idle_with_work_pct,
					"CPU time idle while another CPU of the same LLC had a waiting task, % of CPUs x window", 1 },
	[SS_CMP_ALL_MIGRATIONS] = { "all_migrations", "per s", false, m_all_migrations,
				    "migrations of every cause (wakeup, periodic/newidle/NOHZ balance, active, affinity, exec), per simulated second", 1 },
	/* name, unit and direction are the workload's (ss_compare_result_set_metric) */
	[SS_CMP_WORKLOAD] = { "workload", "the workload's unit", true, m_workload,
			      "the workload's own figure (its file's metric: throughput, MB/s, runtime, latency percentile)", 2 },
	[SS_CMP_FULL_MASK_FAIL_PCT] = { "full_mask_fail_pct", "%", false, m_full_mask_fail_pct,
					"select_idle_sibling() calls whose domain search probed every CPU of its mask (allowed CPUs of the LLC) and found none idle", 2 },
	[SS_CMP_IDLE_WITH_WORK_ALLOWED_PCT] = { "idle_with_work_allowed_pct", "%", false, m_idle_with_work_allowed_pct,
						"CPU time idle (empty rq) while a task allowed on that CPU waited on another rq, % of allowed CPUs x window", 2 },
	[SS_CMP_BURST_IDLE_WITH_WORK_PCT] = { "burst_idle_with_work_pct", "%", false, m_burst_idle_with_work_pct,
					      "idle_with_work_allowed_pct within [burst, burst + stats.burst_window_ns] (wakes of which: all that woke >= 2 tasks)", 2 },
	[SS_CMP_BURST_IDLE_1MS_PCT] = { "burst_idle_1ms_pct", "%", false, m_burst_idle_1ms_pct,
					"share of allowed CPUs idle 1 ms after a burst while some runqueue held >= 2 tasks, mean over bursts", 2 },
	[SS_CMP_BURST_MAKESPAN_NS] = { "burst_makespan_ns", "ns", false, m_burst_makespan_ns,
				       "from a burst to when every task it woke has blocked again or exited, mean over bursts", 2 },
	[SS_CMP_SIC_TIME_MODE_NS] = { "sic_time_mode_ns", "ns", false, m_sic_time_mode_ns,
				      "mode of the time per select_idle_cpu() call in bpftrace's log2 buckets of us (hist(nsecs / 1000)): "
				      "the bucket's lower bound in ns (32000 for [32, 64) us, 0 for [0, 1) us)", 2 },
	[SS_CMP_SIC_TIME_8US_512US_PCT] = { "sic_time_8us_512us_pct", "%", false, m_sic_time_8us_512us_pct,
					    "select_idle_cpu() calls that took [8 us, 512 us) of probe time, % of the calls", 2 },
};

const struct ss_cmp_metric_info *ss_cmp_metric_info(enum ss_cmp_metric m)
{
	return (unsigned)m < SS_CMP_NR_METRICS ? &metrics[m] : NULL;
}

bool ss_cmp_metric_parse(const char *name, enum ss_cmp_metric *m, GError **err)
{
	GString *valid = g_string_new(NULL);
	for (int i = 0; i < SS_CMP_NR_METRICS; i++) {
		if (!strcmp(name, metrics[i].name)) {
			*m = (enum ss_cmp_metric)i;
			g_string_free(valid, TRUE);
			return true;
		}
		g_string_append_printf(valid, "%s%s", i ? ", " : "", metrics[i].name);
	}
	g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "unknown metric '%s' (valid: %s)", name, valid->str);
	g_string_free(valid, TRUE);
	return false;
}

const char *ss_cmp_metric_name(enum ss_cmp_metric m)
{
	return metrics[m].name;
}

bool ss_cmp_metric_higher_is_better(enum ss_cmp_metric m)
{
	return metrics[m].higher_is_better;
}

double ss_cmp_metric_value(enum ss_cmp_metric m, const struct ss_results *r)
{
	return metrics[m].value(r);
}

/*
 * One load of a list or range. A bare number above 1 is an error of its
 * own (*bare set), with the whole spec corrected in the message; other
 * malformed loads fall to the caller's message.
 */
static bool parse_one_load(const char *spec, const char *s, unsigned *v, bool *bare, GError **err)
{
	GError *e = NULL;

	if (ss_parse_load(s, v, &e))
		return true;
	if (g_str_has_prefix(e->message, "a bare number")) {
		g_autofree char *fix = ss_load_suggest_pct(spec);
		*bare = true;
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "--load '%s': '%s' is a bare number, which is a fraction of one instance per CPU "
			    "(0.5 = 50%%), at most 1 (did you mean %s?)", spec, s, fix);
	}
	g_error_free(e);
	return false;
}

/* a load as the user reads it: "50%", "12.5%", "0.01%" */
static char *load_str(unsigned v)
{
	return v % 100 ? g_strdup_printf("%u.%02u%%", v / 100, v % 100) : g_strdup_printf("%u%%", v / 100);
}

unsigned *ss_cmp_parse_loads(const char *spec, unsigned *n, GError **err)
{
	const char *dots = strstr(spec, "..");
	GArray *a = g_array_new(FALSE, FALSE, sizeof(unsigned));
	if (dots) {
		const char *slash = strchr(dots, '/');
		unsigned from, to, step;
		g_autofree char *s_from = g_strndup(spec, (gsize)(dots - spec));
		g_autofree char *s_to = slash ? g_strndup(dots + 2, (gsize)(slash - dots - 2)) : NULL;
		if (!slash) {
			g_array_free(a, TRUE);
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "--load '%s': a range needs a step, FROM..TO/STEP (e.g. %s/25%%), or give a list like 25%%,50%%,100%%",
				    spec, spec);
			return NULL;
		}
		bool bare = false;
		if (!parse_one_load(spec, s_from, &from, &bare, err) || !parse_one_load(spec, s_to, &to, &bare, err) ||
		    !parse_one_load(spec, slash + 1, &step, &bare, err) || to < from) {
			if (bare) {
				g_array_free(a, TRUE);
				return NULL;
			}
			goto bad;
		}
		/* count first: a fine step over a wide range asks for up to 10^6 loads */
		unsigned count = (to - from) / step + 1;
		if (count > SS_CMP_MAX_LOADS) {
			g_array_free(a, TRUE);
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "--load '%s': %u loads asked, at most %u (expected a coarser step or a narrower range)", spec,
				    count, SS_CMP_MAX_LOADS);
			return NULL;
		}
		for (unsigned v = from; v <= to; v += step)
			g_array_append_val(a, v);
	} else {
		gchar **items = g_strsplit(spec, ",", -1);
		unsigned count = g_strv_length(items);
		if (count > SS_CMP_MAX_LOADS) {
			g_strfreev(items);
			g_array_free(a, TRUE);
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--load: %u loads asked, at most %u (expected a shorter list)",
				    count, SS_CMP_MAX_LOADS);
			return NULL;
		}
		for (gchar **it = items; *it; it++) {
			unsigned v;
			bool bare = false;
			if (!parse_one_load(spec, *it, &v, &bare, err)) {
				g_strfreev(items);
				if (bare) {
					g_array_free(a, TRUE);
					return NULL;
				}
				goto bad;
			}
			/* the same load twice would be the same column twice (and "50%" and "0.5" are one load) */
			for (unsigned j = 0; j < a->len; j++) {
				if (g_array_index(a, unsigned, j) == v) {
					g_autofree char *ls = load_str(v);
					g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
						    "--load '%s': load %s is given twice, as '%s' (item %u) and '%s' (item %u) (expected each load once)",
						    spec, ls, items[j], j + 1, *it, a->len + 1);
					g_strfreev(items);
					g_array_free(a, TRUE);
					return NULL;
				}
			}
			g_array_append_val(a, v);
		}
		g_strfreev(items);
	}
	if (!a->len)
		goto bad;
	*n = a->len;
	return (unsigned *)(void *)g_array_free(a, FALSE);
bad:
	g_array_free(a, TRUE);
	g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
		    "--load '%s': expected a list like 25%%,50%%,100%% or a range like 25%%..200%%/25%% (from..to/step, each 0.01%%..10000%%, or a fraction 0.0001..1)",
		    spec);
	return NULL;
}

/* ---------------------------------------------------------------- statistics */

/* t_{0.975, df}, two-sided alpha 0.05 (ss_t975) for df = 1..30; larger df use the
 * value of the next smaller df of the classic table (conservative). */
static double t_crit(unsigned df)
{
	if (df <= 30)
		return df ? ss_t975(df) : 0;
	if (df <= 40)
		return 2.042;
	if (df <= 60)
		return 2.021;
	if (df <= 120)
		return 2.000;
	return 1.980;
}

bool ss_paired_t_significant(const double *a, const double *b, unsigned n)
{
	double mean = 0.0, ss = 0.0;
	if (n < 2)
		return false;
	for (unsigned i = 0; i < n; i++)
		mean += a[i] - b[i];
	mean /= n;
	for (unsigned i = 0; i < n; i++) {
		double d = a[i] - b[i] - mean;
		ss += d * d;
	}
	double sd = sqrt(ss / (n - 1));
	if (sd == 0.0)
		return mean != 0.0;   /* every pair differs by the same amount */
	return fabs(mean) / (sd / sqrt((double)n)) > t_crit(n - 1);
}

void ss_compare_summarise(struct ss_compare_result *r)
{
	bool hib = r->higher_is_better;
	unsigned n = r->nr_seeds;
	for (unsigned l = 0; l < r->nr_loads; l++) {
		struct ss_cmp_cell *row = &r->cells[l * r->nr_policies];
		for (unsigned p = 0; p < r->nr_policies; p++) {
			struct ss_cmp_cell *c = &row[p];
			double sum = 0.0, inv = 0.0, ss = 0.0;
			bool zero = false;
			c->nr_missing = 0;
			for (unsigned i = 0; i < n; i++)
				c->nr_missing += isnan(c->values[i]) != 0;
			if (c->nr_missing) {
				/* no mean over a subset of the seeds: it would not pair with the other cells */
				c->mean = c->stddev = c->cov_pct = NAN;
				continue;
			}
			for (unsigned i = 0; i < n; i++) {
				sum += c->values[i];
				if (c->values[i] <= 0.0)
					zero = true;
				else
					inv += 1.0 / c->values[i];
			}
			double amean = sum / n;
			for (unsigned i = 0; i < n; i++)
				ss += (c->values[i] - amean) * (c->values[i] - amean);
			c->stddev = n > 1 ? sqrt(ss / (n - 1)) : 0.0;
			c->cov_pct = amean != 0.0 ? 100.0 * c->stddev / amean : 0.0;
			c->mean = hib ? (zero ? 0.0 : n / inv) : amean;
		}
		for (unsigned p = 0; p < r->nr_policies; p++) {
			struct ss_cmp_cell *c = &row[p], *base = &row[0];
			if (p == 0 && !c->nr_missing) {
				c->diff_pct = 0.0;
			} else if (c->nr_missing || base->nr_missing) {
				c->diff_pct = NAN;   /* nothing to compare */
			} else if (base->mean == 0.0) {
				/* a change against 0 has no percentage (the same 0 is no change) */
				c->diff_pct = c->mean == 0.0 ? 0.0 : NAN;
			} else {
				double ratio = c->mean / base->mean;
				c->diff_pct = hib ? ratio * 100.0 - 100.0 : 100.0 - ratio * 100.0;
			}
			/* significance goes with a % change: none without one */
			c->significant = p > 0 && !isnan(c->diff_pct) && ss_paired_t_significant(c->values, base->values, n);
		}
	}
}

/* ---------------------------------------------------------------- running */

struct job_ctx {
	const struct ss_compare_spec *spec;
	const char *const *col_policy;      /* per column: the policy run (spec->policies are the labels) */
	const enum ss_kernel *col_kernel;   /* per column: the kernel run */
	/*
	 * Each point is reduced to what the table needs as it finishes (the
	 * results themselves are freed at once), so memory does not grow with
	 * the grid: [load][policy][seed].
	 */
	double *values;
	double *delta, *delta_hw;  /* --precision, paired: the workload figure's Δ % and its half-width */
	bool *capped;              /* --precision: the window reached its cap */
	char **deadlock;           /* the point's deadlock warning, NULL = none */
	char *metric_name, *metric_unit;   /* the workload's metric, from the first point */
	bool higher_is_better;
	GError **errs;
	GMutex lock;
	unsigned done, total;
	bool paired;               /* base.precision with two columns or more: a job is a (load, seed) of every column */
};

static struct ss_run_config point_config(struct job_ctx *ctx, unsigned p, unsigned l, unsigned seed, GError **err)
{
	const struct ss_compare_spec *s = ctx->spec;
	struct ss_run_config c = s->base;

	c.policy = ctx->col_policy[p];
	c.kernel = ctx->col_kernel[p];
	c.load_pct_x100 = s->loads[l];
	c.seed = s->base.seed + seed;
	c.trace = NULL;
	for (unsigned i = 0; i < s->nr_sets; i++)
		if (!ss_params_set(&c.params, c.policy, s->sets[i], err))
			break;
	return c;
}

/* A finished point into the table: its value, its deadlock; the results are freed. */
static void point_done(struct job_ctx *ctx, unsigned idx, struct ss_results *r)
{
	const struct ss_compare_spec *s = ctx->spec;

	ctx->values[idx] = ss_cmp_metric_value(s->metric, r);
	ctx->delta[idx] = r->run_length.paired && r->run_length.paired_index ? r->run_length.delta_pct : NAN;
	ctx->delta_hw[idx] = r->run_length.paired && r->run_length.paired_index ? r->run_length.delta_half_width_pct : NAN;
	ctx->capped[idx] = r->run_length.stopped && !strcmp(r->run_length.stopped, "cap");
	if (r->deadlocked)
		ctx->deadlock[idx] = g_strdup(r->warnings && r->warnings[0] ? r->warnings[0] : "deadlock");
	g_mutex_lock(&ctx->lock);
	if (!ctx->metric_name) {
		ctx->metric_name = g_strdup(r->metric_name);
		ctx->metric_unit = g_strdup(r->metric_unit);
		ctx->higher_is_better = r->higher_is_better != 0;
	}
	g_mutex_unlock(&ctx->lock);
	ss_results_free(r);
}

static void job_done(struct job_ctx *ctx, unsigned n)
{
	const struct ss_compare_spec *s = ctx->spec;

	g_mutex_lock(&ctx->lock);
	ctx->done += n;
	if (s->progress)
		s->progress(s->progress_ctx, ctx->done, ctx->total);
	g_mutex_unlock(&ctx->lock);
}

static void run_point(gpointer data, gpointer user)
{
	struct job_ctx *ctx = user;
	unsigned idx = GPOINTER_TO_UINT(data) - 1;
	const struct ss_compare_spec *s = ctx->spec;

	if (ctx->paired) {
		/* (load, seed): every column side by side, the run length on the paired Δ (runlen.h) */
		unsigned seed = idx % s->nr_seeds, l = idx / s->nr_seeds, np = s->nr_policies;
		g_autofree struct ss_run_config *cfgs = g_new0(struct ss_run_config, np);
		g_autofree struct ss_results **res = g_new0(struct ss_results *, np);
		unsigned first = (l * np) * s->nr_seeds + seed;
		GError *e = NULL;

		for (unsigned p = 0; p < np && !e; p++)
			cfgs[p] = point_config(ctx, p, l, seed, &e);
		if (!e && ss_simulate_paired(cfgs, np, s->base.precision, res, &e)) {
			for (unsigned p = 0; p < np; p++)
				point_done(ctx, (l * np + p) * s->nr_seeds + seed, res[p]);
		}
		ctx->errs[first] = e;
		job_done(ctx, np);
		return;
	}
	unsigned seed = idx % s->nr_seeds, p = (idx / s->nr_seeds) % s->nr_policies, l = idx / (s->nr_seeds * s->nr_policies);
	struct ss_run_config c = point_config(ctx, p, l, seed, &ctx->errs[idx]);
	if (!ctx->errs[idx]) {
		struct ss_results *r = ss_simulate(&c, &ctx->errs[idx]);
		if (r)
			point_done(ctx, idx, r);
	}
	job_done(ctx, 1);
}

/*
 * Kernels as a dimension: with several kernels every policy gets one column
 * per kernel, policy-major (A@5.17, A@6.6, B@5.17, ...), labelled
 * POLICY@KERNEL; with one (or none: base.kernel) the columns are the
 * policies, labelled by name. Each column's policy must run on its kernel.
 */
static bool compare_columns(const struct ss_compare_spec *s, struct ss_compare_spec *xs, char ***labels,
			    const char ***col_policy, enum ss_kernel **col_kernel, GError **err)
{
	unsigned nk = s->nr_kernels ? s->nr_kernels : 1, ncol = s->nr_policies * nk;

	*xs = *s;
	*labels = g_new0(char *, ncol + 1);
	*col_policy = g_new0(const char *, ncol + 1);
	*col_kernel = g_new0(enum ss_kernel, ncol + 1);
	for (unsigned i = 0; i < nk; i++)
		for (unsigned j = 0; s->kernels && j < i; j++)
			if (s->kernels[i] == s->kernels[j]) {
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "kernel %s is named twice (expected each kernel once)",
					    ss_kernel_name(s->kernels[i]));
				return false;
			}
	for (unsigned p = 0; p < s->nr_policies; p++)
		for (unsigned k = 0; k < nk; k++) {
			unsigned c = p * nk + k;
			enum ss_kernel kern = s->kernels ? s->kernels[k] : s->base.kernel;
			const struct ss_policy *pol = ss_policy_find(s->policies[p]);
			const char *base;

			(*col_policy)[c] = s->policies[p];
			(*col_kernel)[c] = kern;
			(*labels)[c] = nk > 1 ? g_strdup_printf("%s@%s", s->policies[p], ss_kernel_name(kern))
					      : g_strdup(s->policies[p]);
			if (pol && !ss_policy_kernel_check(pol, kern, &base, err))
				return false;
		}
	xs->policies = (const char *const *)*labels;
	xs->nr_policies = ncol;
	return true;
}

struct ss_compare_result *ss_compare_run(const struct ss_compare_spec *spec, GError **err)
{
	struct ss_compare_spec xs;
	const struct ss_compare_spec *s = &xs;
	g_auto(GStrv) labels = NULL;
	g_autofree const char **col_policy = NULL;
	g_autofree enum ss_kernel *col_kernel = NULL;
	if (!compare_columns(spec, &xs, &labels, &col_policy, &col_kernel, err))
		return NULL;
	uint64_t grid = (uint64_t)s->nr_loads * s->nr_policies * s->nr_seeds;
	if (grid > SS_CMP_MAX_POINTS) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "a grid of %" G_GUINT64_FORMAT " points (expected at most %u: %u loads x %u columns x %u seeds; "
			    "a sweep, shardable, for more)", grid, SS_CMP_MAX_POINTS, s->nr_loads, s->nr_policies, s->nr_seeds);
		return NULL;
	}
	unsigned total = (unsigned)grid;
	struct job_ctx ctx = { .spec = s, .col_policy = col_policy, .col_kernel = col_kernel, .total = total };
	struct ss_compare_result *r = NULL;
	GError *perr = NULL;
	unsigned jobs = s->jobs ? s->jobs : g_get_num_processors();

	if (!total || s->nr_seeds < 1) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "nothing to compare (policies, loads and seeds must be non-empty)");
		return NULL;
	}
	/* a policy or a load twice would be a column or a row compared with itself */
	for (unsigned i = 0; i < s->nr_policies; i++)
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(s->policies[i], s->policies[j])) {
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "policy '%s' is named twice (expected each policy once)",
					    s->policies[i]);
				return NULL;
			}
	for (unsigned i = 0; i < s->nr_loads; i++)
		for (unsigned j = 0; j < i; j++)
			if (s->loads[i] == s->loads[j]) {
				g_autofree char *ls = load_str(s->loads[i]);
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "load %s is given twice (expected each load once)", ls);
				return NULL;
			}
	ctx.values = g_new0(double, total);
	ctx.delta = g_new0(double, total);
	ctx.delta_hw = g_new0(double, total);
	ctx.capped = g_new0(bool, total);
	ctx.deadlock = g_new0(char *, total);
	ctx.errs = g_new0(GError *, total);
	ctx.paired = s->base.precision > 0 && s->nr_policies > 1;
	g_mutex_init(&ctx.lock);
	GThreadPool *pool = g_thread_pool_new(run_point, &ctx, (gint)jobs, TRUE, &perr);
	if (!pool) {
		g_propagate_error(err, perr);
		goto out;
	}
	/* jobs in (load, policy, seed) order, or (load, seed) groups of every policy when paired */
	for (unsigned i = 0; i < (ctx.paired ? s->nr_loads * s->nr_seeds : total); i++)
		g_thread_pool_push(pool, GUINT_TO_POINTER(i + 1), NULL);
	g_thread_pool_free(pool, FALSE, TRUE);   /* wait for every point */

	for (unsigned i = 0; i < total; i++) {
		if (ctx.errs[i]) {
			if (ctx.paired)
				g_propagate_prefixed_error(err, ctx.errs[i], "at %.2f%%, seed %llu: ",
							   s->loads[i / (s->nr_seeds * s->nr_policies)] / 100.0,
							   (unsigned long long)(s->base.seed + i % s->nr_seeds));
			else
				g_propagate_prefixed_error(err, ctx.errs[i], "%s at %.2f%%, seed %llu: ",
							   s->policies[(i / s->nr_seeds) % s->nr_policies],
							   s->loads[i / (s->nr_seeds * s->nr_policies)] / 100.0,
							   (unsigned long long)(s->base.seed + i % s->nr_seeds));
			ctx.errs[i] = NULL;
			goto out;
		}
	}
	r = ss_compare_result_new(s->metric, s->policies, s->nr_policies, s->loads, s->nr_loads, s->nr_seeds);
	for (unsigned i = 0; i < total; i++) {
		if (!ctx.deadlock[i])
			continue;
		if (!r->nr_deadlocked++)
			r->deadlock_first = g_strdup_printf("%s at %.2f%%, seed %llu: %s",
							    s->policies[(i / s->nr_seeds) % s->nr_policies],
							    s->loads[i / (s->nr_seeds * s->nr_policies)] / 100.0,
							    (unsigned long long)(s->base.seed + i % s->nr_seeds), ctx.deadlock[i]);
	}
	if (s->metric == SS_CMP_WORKLOAD)
		ss_compare_result_set_metric(r, ctx.metric_name, ctx.metric_unit, ctx.higher_is_better);
	for (unsigned l = 0; l < s->nr_loads; l++)
		for (unsigned p = 0; p < s->nr_policies; p++) {
			struct ss_cmp_cell *c = &r->cells[l * s->nr_policies + p];
			for (unsigned k = 0; k < s->nr_seeds; k++)
				c->values[k] = ctx.values[(l * s->nr_policies + p) * s->nr_seeds + k];
		}
	ss_compare_summarise(r);
	r->precision = s->base.precision;
	/* the run lengths watch the workload's figure: their intervals say nothing of another metric */
	r->significance_by_interval = ctx.paired && s->metric == SS_CMP_WORKLOAD;
	for (unsigned l = 0; l < s->nr_loads; l++)
		for (unsigned p = 0; p < s->nr_policies; p++) {
			struct ss_cmp_cell *c = &r->cells[l * s->nr_policies + p];
			bool sig = r->significance_by_interval && p > 0 && !isnan(c->diff_pct);
			int sign = 0;

			c->delta_half_width_pct = NAN;
			for (unsigned k = 0; k < s->nr_seeds; k++) {
				unsigned i = (l * s->nr_policies + p) * s->nr_seeds + k;
				double d = ctx.delta[i], hw = ctx.delta_hw[i];

				c->nr_capped += ctx.capped[i];
				if (!r->significance_by_interval || p == 0)
					continue;
				if (!(c->delta_half_width_pct >= hw))
					c->delta_half_width_pct = hw;
				/* with --precision: significant when every seed's interval excludes 0, on one side */
				if (!(fabs(d) > hw) || (sign && (d > 0 ? 1 : -1) != sign))
					sig = false;
				sign = d > 0 ? 1 : -1;
			}
			if (r->significance_by_interval)
				c->significant = sig;
		}
out:
	g_free(ctx.delta);
	g_free(ctx.delta_hw);
	g_free(ctx.capped);
	for (unsigned i = 0; i < total; i++) {
		g_free(ctx.deadlock[i]);
		if (ctx.errs[i])
			g_error_free(ctx.errs[i]);
	}
	g_free(ctx.values);
	g_free(ctx.deadlock);
	g_free(ctx.errs);
	g_free(ctx.metric_name);
	g_free(ctx.metric_unit);
	g_mutex_clear(&ctx.lock);
	return r;
}

struct ss_compare_result *ss_compare_result_new(enum ss_cmp_metric metric, const char *const *policies,
						 unsigned nr_policies, const unsigned *loads, unsigned nr_loads,
						 unsigned nr_seeds)
{
	struct ss_compare_result *r = g_new0(struct ss_compare_result, 1);
	r->metric = metric;
	r->metric_name = g_strdup(metrics[metric].name);
	r->metric_unit = g_strdup(metrics[metric].unit);
	r->higher_is_better = metrics[metric].higher_is_better;
	r->nr_policies = nr_policies;
	r->nr_loads = nr_loads;
	r->nr_seeds = nr_seeds;
	r->policies = g_new0(char *, nr_policies + 1);
	for (unsigned p = 0; p < nr_policies; p++)
		r->policies[p] = g_strdup(policies[p]);
	r->loads = g_memdup2(loads, nr_loads * sizeof(unsigned));
	r->cells = g_new0(struct ss_cmp_cell, (gsize)nr_loads * nr_policies);
	for (unsigned i = 0; i < nr_loads * nr_policies; i++)
		r->cells[i].values = g_new0(double, nr_seeds);
	return r;
}

void ss_compare_result_free(struct ss_compare_result *r)
{
	if (!r)
		return;
	for (unsigned i = 0; r->cells && i < r->nr_loads * r->nr_policies; i++)
		g_free(r->cells[i].values);
	g_free(r->cells);
	g_strfreev(r->policies);
	g_free(r->loads);
	g_free(r->metric_name);
	g_free(r->metric_unit);
	g_free(r->deadlock_first);
	g_free(r);
}

void ss_compare_result_set_metric(struct ss_compare_result *r, const char *name, const char *unit,
				  bool higher_is_better)
{
	g_free(r->metric_name);
	g_free(r->metric_unit);
	r->metric_name = g_strdup(name ? name : "");
	r->metric_unit = g_strdup(unit ? unit : "");
	r->higher_is_better = higher_is_better;
}

/* ---------------------------------------------------------------- rendering */

static void load_label(char *buf, size_t len, unsigned load)
{
	if (load % 100 == 0)
		snprintf(buf, len, "%u%%", load / 100);
	else
		snprintf(buf, len, "%.2f%%", load / 100.0);
}

/*
 * What the "-" cells of a table mean, one line per policy: the policies
 * without a value at some loads (the figure had no samples in a seed's
 * run: e.g. select_idle_cpu() never called, no wakeups), then the loads
 * where a % change cannot be given (the baseline has no value or a mean
 * of 0). Empty when the table has no "-".
 */
static GPtrArray *table_notes(const struct ss_compare_result *r)
{
	GPtrArray *notes = g_ptr_array_new_with_free_func(g_free);
	char lab[32];
	for (unsigned p = 0; p < r->nr_policies; p++) {
		GString *loads = g_string_new(NULL);
		unsigned missing = 0, total = 0;
		for (unsigned l = 0; l < r->nr_loads; l++) {
			const struct ss_cmp_cell *c = &r->cells[l * r->nr_policies + p];
			if (!c->nr_missing)
				continue;
			load_label(lab, sizeof lab, r->loads[l]);
			g_string_append_printf(loads, "%s%s", loads->len ? ", " : "", lab);
			missing += c->nr_missing;
			total += r->nr_seeds;
		}
		if (loads->len)
			g_ptr_array_add(notes, g_strdup_printf("\"-\": %s has no %s at %s (%u of %u runs without samples of it, e.g. no select_idle_cpu() call or no wakeup): left out, not compared",
							       r->policies[p], r->metric_name, loads->str, missing, total));
		g_string_free(loads, TRUE);
	}
	GString *nodiff = g_string_new(NULL);
	for (unsigned l = 0; l < r->nr_loads; l++) {
		const struct ss_cmp_cell *base = &r->cells[l * r->nr_policies];
		bool any = false;
		for (unsigned p = 1; p < r->nr_policies; p++)
			any = any || (!r->cells[l * r->nr_policies + p].nr_missing && isnan(r->cells[l * r->nr_policies + p].diff_pct));
		if (!any)
			continue;
		load_label(lab, sizeof lab, r->loads[l]);
		g_string_append_printf(nodiff, "%s%s (%s)", nodiff->len ? ", " : "", lab,
				       base->nr_missing ? "no baseline value" : "baseline mean 0");
	}
	if (nodiff->len)
		g_ptr_array_add(notes, g_strdup_printf("\"(-)\": no %% change against the baseline %s at %s", r->policies[0], nodiff->str));
	g_string_free(nodiff, TRUE);
	return notes;
}

/* a number with dp decimals, or "" for NAN (CSV) */
static void csv_num(GString *s, const char *fmt, double v)
{
	if (!isnan(v))
		g_string_append_printf(s, fmt, v);
}

/* JSON: v rounded to 1/scale, or null for NAN */
static cJSON *json_num(double v, double scale)
{
	return isnan(v) ? cJSON_CreateNull() : cJSON_CreateNumber(round(v * scale) / scale);
}

char *ss_compare_render(const struct ss_compare_result *r, const char *format, GError **err)
{
	bool hib = r->higher_is_better;
	/* seconds (hackbench's time to finish, a few ms here) get 4 decimals, as mmtests prints them */
	bool secs = r->metric_unit && !strcmp(r->metric_unit, "s");
	int dp = secs ? 4 : 2;
	double jr = secs ? 1e7 : 1e3;   /* JSON rounding: to the 100 ns for seconds, else 3 decimals */
	const char *meanname = hib ? "Hmean" : "Amean";
	GString *s = g_string_new(NULL);
	char lab[32];

	if (!strcmp(format, "text") || !strcmp(format, "markdown")) {
		bool md = !strcmp(format, "markdown");
		if (md) {
			g_string_append_printf(s, "| %s (%s, %s is better) | load |", r->metric_name, r->metric_unit,
					       hib ? "higher" : "lower");
			for (unsigned p = 0; p < r->nr_policies; p++)
				g_string_append_printf(s, " %s |", r->policies[p]);
			g_string_append(s, "\n|---|---|");
			for (unsigned p = 0; p < r->nr_policies; p++)
				g_string_append(s, "---|");
			g_string_append_c(s, '\n');
		} else {
			if (r->significance_by_interval)
				g_string_append_printf(s, "# %s (%s), %s is better; %u seeds; runs until each paired delta is within +-%g %% "
						       "at 95 %% (Delta95: the widest half-width); * = significant (every seed's interval excludes 0)\n",
						       r->metric_name, r->metric_unit, hib ? "higher" : "lower", r->nr_seeds, 100.0 * r->precision);
			else if (r->precision > 0 && r->nr_policies > 1)
				g_string_append_printf(s, "# %s (%s), %s is better; %u seeds; run lengths chosen on the workload figure's paired "
						       "delta (+-%g %% at 95 %%); * = significant (paired t-test on this metric, alpha 0.05)\n",
						       r->metric_name, r->metric_unit, hib ? "higher" : "lower", r->nr_seeds, 100.0 * r->precision);
			else
				g_string_append_printf(s, "# %s (%s), %s is better; %u seeds; * = significant (paired t-test, alpha 0.05)\n",
						       r->metric_name, r->metric_unit, hib ? "higher" : "lower", r->nr_seeds);
			g_string_append_printf(s, "%-18s", "");
			for (unsigned p = 0; p < r->nr_policies; p++)
				g_string_append_printf(s, " %28s", r->policies[p]);
			g_string_append_c(s, '\n');
		}
		for (int pass = 0; pass < (r->significance_by_interval ? 3 : 2); pass++) {
			static const char *const rowname[3] = { NULL, "CoeffVar", "Delta95" };
			for (unsigned l = 0; l < r->nr_loads; l++) {
				load_label(lab, sizeof lab, r->loads[l]);
				if (md)
					g_string_append_printf(s, "| %s | %s |", pass ? rowname[pass] : meanname, lab);
				else
					g_string_append_printf(s, "%-9s %-8s", pass ? rowname[pass] : meanname, lab);
				for (unsigned p = 0; p < r->nr_policies; p++) {
					const struct ss_cmp_cell *c = &r->cells[l * r->nr_policies + p];
					char cell[64];
					if (pass == 2) {
						/* the paired Δ's 95 % half-width, percentage points (the widest over the seeds) */
						if (p == 0 || isnan(c->delta_half_width_pct))
							snprintf(cell, sizeof cell, "-");
						else
							snprintf(cell, sizeof cell, "+-%.2f%s", c->delta_half_width_pct, c->nr_capped ? " (cap)" : "");
					} else if (c->nr_missing) {
						snprintf(cell, sizeof cell, "-");   /* no value: see the notes */
					} else if (pass) {
						double base_cov = r->cells[l * r->nr_policies].cov_pct;
						double d = p == 0 || base_cov == 0.0 ? 0.0 : 100.0 - c->cov_pct / base_cov * 100.0;
						/* a change against a baseline spread below 0.01 % (as printed: 0.00)
						 * means nothing and would not fit the column */
						if (p != 0 && isnan(base_cov))
							snprintf(cell, sizeof cell, "%.2f (%8s)", c->cov_pct, "-");
						else if (p != 0 && base_cov < 0.005)
							snprintf(cell, sizeof cell, "%.2f (%8s)", c->cov_pct, "n/a");
						else
							snprintf(cell, sizeof cell, "%.2f (%7.2f%%)", c->cov_pct, d < -9999.99 ? -9999.99 : d > 9999.99 ? 9999.99 : d);
					} else if (isnan(c->diff_pct)) {
						snprintf(cell, sizeof cell, "%.*f (%8s)", dp, c->mean, "-");
					} else if (c->significant) {
						snprintf(cell, sizeof cell, "%.*f *%7.2f%%*", dp, c->mean, c->diff_pct);
					} else {
						snprintf(cell, sizeof cell, "%.*f (%7.2f%%)", dp, c->mean, c->diff_pct);
					}
					if (md)
						g_string_append_printf(s, " %s |", cell);
					else
						g_string_append_printf(s, " %28s", cell);
				}
				g_string_append_c(s, '\n');
			}
		}
		GPtrArray *notes = table_notes(r);
		for (unsigned i = 0; i < notes->len; i++) {
			const char *note = g_ptr_array_index(notes, i);
			if (md)   /* a list under the table */
				g_string_append_printf(s, "%s- %s\n", i ? "" : "\n", note);
			else
				g_string_append_printf(s, "# %s\n", note);
		}
		g_ptr_array_free(notes, TRUE);
	} else if (!strcmp(format, "csv")) {
		/* --precision adds the run lengths' columns at the end (see the JSON's) */
		g_string_append_printf(s, "metric,load_pct,policy,mean,mean_type,diff_pct,significant,stddev,cov_pct,values%s\n",
				       r->precision > 0 ? ",delta_half_width_pct,capped_seeds" : "");
		for (unsigned l = 0; l < r->nr_loads; l++)
			for (unsigned p = 0; p < r->nr_policies; p++) {
				const struct ss_cmp_cell *c = &r->cells[l * r->nr_policies + p];
				/* no value: an empty field */
				g_string_append_printf(s, "%s,%.2f,%s,", r->metric_name, r->loads[l] / 100.0, r->policies[p]);
				csv_num(s, "%.6f", c->mean);
				g_string_append_printf(s, ",%s,", meanname);
				csv_num(s, "%.4f", c->diff_pct);
				g_string_append_printf(s, ",%d,", c->significant);
				csv_num(s, "%.6f", c->stddev);
				g_string_append_c(s, ',');
				csv_num(s, "%.4f", c->cov_pct);
				g_string_append_c(s, ',');
				for (unsigned k = 0; k < r->nr_seeds; k++) {
					if (k)
						g_string_append_c(s, ';');
					csv_num(s, "%.6f", c->values[k]);
				}
				if (r->precision > 0) {
					g_string_append_c(s, ',');
					if (r->significance_by_interval)
						csv_num(s, "%.4f", c->delta_half_width_pct);
					g_string_append_printf(s, ",%u", c->nr_capped);
				}
				g_string_append_c(s, '\n');
			}
	} else if (!strcmp(format, "json")) {
		cJSON *root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "metric", r->metric_name);
		cJSON_AddStringToObject(root, "unit", r->metric_unit);
		cJSON_AddBoolToObject(root, "higher_is_better", hib);
		cJSON_AddStringToObject(root, "mean", meanname);
		cJSON_AddNumberToObject(root, "seeds", r->nr_seeds);
		cJSON_AddStringToObject(root, "significance",
					r->significance_by_interval ?
					"every seed's paired 95 % batch-means interval of the delta excludes 0, all on one side (--precision)" :
					"paired t-test on per-seed differences, two-sided, alpha 0.05");
		if (r->precision > 0)
			cJSON_AddNumberToObject(root, "precision", r->precision);
		cJSON *pol = cJSON_AddArrayToObject(root, "policies");
		for (unsigned p = 0; p < r->nr_policies; p++)
			cJSON_AddItemToArray(pol, cJSON_CreateString(r->policies[p]));
		cJSON *rows = cJSON_AddArrayToObject(root, "rows");
		for (unsigned l = 0; l < r->nr_loads; l++) {
			cJSON *row = cJSON_CreateObject();
			cJSON_AddNumberToObject(row, "load_pct", r->loads[l] / 100.0);
			cJSON *cells = cJSON_AddArrayToObject(row, "cells");
			for (unsigned p = 0; p < r->nr_policies; p++) {
				const struct ss_cmp_cell *c = &r->cells[l * r->nr_policies + p];
				cJSON *e = cJSON_CreateObject();
				cJSON_AddStringToObject(e, "policy", r->policies[p]);
				cJSON_AddItemToObject(e, "mean", json_num(c->mean, jr));
				cJSON_AddItemToObject(e, "diff_pct", json_num(c->diff_pct, 1000.0));
				cJSON_AddBoolToObject(e, "significant", c->significant);
				cJSON_AddItemToObject(e, "stddev", json_num(c->stddev, jr));
				cJSON_AddItemToObject(e, "cov_pct", json_num(c->cov_pct, 1000.0));
				if (c->nr_missing)
					cJSON_AddNumberToObject(e, "missing_seeds", c->nr_missing);
				if (r->precision > 0) {   /* --precision: the paired run length */
					if (r->significance_by_interval)
						cJSON_AddItemToObject(e, "delta_half_width_pct", json_num(c->delta_half_width_pct, 1000.0));
					cJSON_AddNumberToObject(e, "capped_seeds", c->nr_capped);
				}
				cJSON *v = cJSON_AddArrayToObject(e, "values");
				for (unsigned k = 0; k < r->nr_seeds; k++)
					cJSON_AddItemToArray(v, json_num(c->values[k], jr));
				cJSON_AddItemToArray(cells, e);
			}
			cJSON_AddItemToArray(rows, row);
		}
		GPtrArray *notes = table_notes(r);
		if (notes->len) {
			cJSON *n = cJSON_AddArrayToObject(root, "notes");
			for (unsigned i = 0; i < notes->len; i++)
				cJSON_AddItemToArray(n, cJSON_CreateString(g_ptr_array_index(notes, i)));
		}
		g_ptr_array_free(notes, TRUE);
		char *txt = cJSON_Print(root);
		cJSON_Delete(root);
		g_string_append(s, txt);
		g_string_append_c(s, '\n');
		cJSON_free(txt);
	} else {
		g_string_free(s, TRUE);
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--format '%s': expected text, markdown, csv or json", format);
		return NULL;
	}
	return g_string_free(s, FALSE);
}

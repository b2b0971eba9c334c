/*
 * Renderers of struct ss_results: JSON (cJSON; keys documented in
 * docs/output.md) and the text report, plus the atomic result-file writer.
 * Everything here is a pure function of the results: no wall clock, no
 * hash-table order, so the same run gives the same bytes.
 */
#define _XOPEN_SOURCE 700   /* realpath() */
#include "simsched/compare.h"
#include "simsched/sim.h"
#include "simsched/workload.h"
#include "simsched/error.h"
#include "ss_provenance.h"

#include <glib/gstdio.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


static const char *const sis_outcome_names[SS_SIS_NR] = {
	"target", "prev", "recent_used_cpu", "smt_sibling", "select_idle_cpu", "fallback_target",
};

static const char *const mig_cause_names[SS_MIG_NR] = { "wakeup", "periodic", "newidle", "nohz", "active",
								      "affinity", "exec" };
static const char *const lb_kind_names[3] = { "periodic", "newidle", "nohz" };

static double round3(double v)
{
	return round(v * 1000.0) / 1000.0;
}

/*
 * A figure without samples — a mean, percentile or maximum of nothing, a
 * rate whose denominator is 0 — has no value: NAN here, null in JSON, "-"
 * in text (docs/output.md). A count stays a count: 0 is a true 0.
 */
static double pct(uint64_t a, uint64_t b)
{
	return b ? round3(100.0 * (double)a / (double)b) : NAN;
}

static double ratio(uint64_t a, uint64_t b)
{
	return b ? round3((double)a / (double)b) : NAN;
}

/* sum / n to 3 decimals, NAN for n == 0 */
static double mean3(uint64_t sum, uint64_t n)
{
	return n ? round3((double)sum / (double)n) : NAN;
}

/* a number, or null for NAN */
static void add_num(cJSON *o, const char *key, double v)
{
	if (isnan(v))
		cJSON_AddNullToObject(o, key);
	else
		cJSON_AddNumberToObject(o, key, v);
}

/* text: v with dp decimals right-aligned in width, or "-" there for NAN (buf: 64 bytes) */
static const char *tnum(char *buf, int width, int dp, double v)
{
	if (isnan(v))
		snprintf(buf, 64, "%*s", width, "-");
	else
		snprintf(buf, 64, "%*.*f", width, dp, v);
	return buf;
}

/* A percentage for the text report: "12.34 %", or "-" when there is no value. */
static const char *tpct(char *buf, double v)
{
	if (isnan(v))
		snprintf(buf, 64, "-");
	else
		snprintf(buf, 64, "%.2f %%", v);
	return buf;
}

double ss_results_throughput(const struct ss_results *r)
{
	return r->duration_ns ? (double)r->transactions * 1e9 / (double)r->duration_ns : NAN;
}

/*
 * Σ busy time over n CPUs' window. Only allowed CPUs run the workload's
 * tasks (p->cpus_ptr ⊆ the allowed CPUs), so the sum over all CPUs is the
 * sum over the allowed ones.
 */
static double busy_over(const struct ss_results *r, unsigned n)
{
	uint64_t b = 0;
	for (unsigned c = 0; c < r->nr_cpus; c++)
		b += r->cpu[c].busy_ns;
	return n && r->duration_ns ? 100.0 * (double)b / ((double)n * (double)r->duration_ns) : NAN;
}

double ss_results_busy_pct(const struct ss_results *r)
{
	return busy_over(r, r->nr_allowed_cpus);
}

double ss_results_busy_pct_machine(const struct ss_results *r)
{
	/* over the online CPUs: an offline CPU is never busy and not part of the machine's time */
	return busy_over(r, r->nr_online_cpus ? r->nr_online_cpus : r->nr_cpus);
}

double ss_results_idle_with_work_allowed_pct(const struct ss_results *r)
{
	double w = (double)r->nr_allowed_cpus * (double)r->duration_ns;
	return w > 0 ? 100.0 * (double)r->idle_work_allowed_ns / w : NAN;
}

double ss_results_burst_idle_with_work_pct(const struct ss_results *r)
{
	double w = (double)r->nr_allowed_cpus * (double)r->burst_cover_ns;
	return r->bursts && w > 0 ? 100.0 * (double)r->burst_idle_work_ns / w : NAN;
}

double ss_results_burst_idle_1ms_pct(const struct ss_results *r)
{
	double w = (double)r->nr_allowed_cpus * (double)r->burst_sampled;
	return w > 0 ? 100.0 * (double)r->burst_idle_1ms_cpus / w : NAN;
}

double ss_results_burst_makespan_ns(const struct ss_results *r)
{
	return r->burst_completed ? (double)r->burst_makespan_ns / (double)r->burst_completed : NAN;
}

/*
 * Start-up slice k (docs/output.md "Start-up"): its part of [0, end_ns) as
 * [*from, *to); false when the run ended before it began.
 */
static bool startup_slice(const struct ss_startup_stats *st, unsigned k, uint64_t *from, uint64_t *to)
{
	*from = ss_startup_slice_start(st->window_ns, k);
	*to = ss_startup_slice_start(st->window_ns, k + 1);
	if (*to > st->end_ns)
		*to = st->end_ns;
	return *from < *to;
}

/* slice k's busy CPUs (busy CPU-time / its length) and mean nr_running over the allowed CPUs */
static void startup_slice_means(const struct ss_results *r, unsigned k, uint64_t len, double *busy, double *depth)
{
	const struct ss_startup_stats *st = &r->startup;

	*busy = round3((double)st->slice_busy_ns[k] / (double)len);
	*depth = r->nr_allowed_cpus ? round3((double)st->slice_nr_running_ns[k] / ((double)len * r->nr_allowed_cpus)) : NAN;
}

static void startup_json(cJSON *root, const struct ss_results *r)
{
	const struct ss_startup_stats *st = &r->startup;
	cJSON *o = cJSON_AddObjectToObject(root, "startup"), *a;

	cJSON_AddNumberToObject(o, "window_ns", (double)st->window_ns);
	cJSON_AddNumberToObject(o, "end_ns", (double)st->end_ns);
	a = cJSON_AddArrayToObject(o, "series");
	for (unsigned k = 0; k < SS_STARTUP_SLICES; k++) {
		uint64_t from, to;
		double busy, depth;
		cJSON *e;

		if (!startup_slice(st, k, &from, &to))
			break;
		startup_slice_means(r, k, to - from, &busy, &depth);
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "from_ns", (double)from);
		cJSON_AddNumberToObject(e, "to_ns", (double)to);
		cJSON_AddNumberToObject(e, "busy_cpus", busy);
		add_num(e, "rq_depth_mean", depth);
		cJSON_AddItemToArray(a, e);
	}
	a = cJSON_AddArrayToObject(o, "per_cpu");
	for (unsigned c = 0; c < r->nr_cpus; c++) {
		const struct ss_startup_cpu *sc = &st->cpu[c];
		cJSON *e;

		if (r->offline_cpus && r->cpu_offline && r->cpu_offline[c])
			continue;   /* as per_cpu[]: no entry for an offline CPU */
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "cpu", c);
		add_num(e, "busy_pct", pct(sc->busy_ns, st->end_ns));
		add_num(e, "rq_depth_mean", mean3(sc->nr_running_ns, st->end_ns));
		cJSON_AddNumberToObject(e, "rq_depth_max", sc->nr_running_max);
		cJSON_AddItemToArray(a, e);
	}
}

/*
 * The text report's start-up block: the series in columns (one per slice),
 * then the allowed CPUs by busy share and the deepest runqueue: a few
 * lines whatever the number of CPUs.
 */
static void startup_text(GString *s, const struct ss_results *r)
{
	const struct ss_startup_stats *st = &r->startup;
	static const char *const band[4] = { "<10 %", "10-50 %", "50-90 %", ">=90 %" };
	unsigned nr_band[4] = { 0 }, max = 0, max_cpu = 0, nr_max = 0, n = 0;
	uint64_t from, to;
	char b[64];

	g_string_append_printf(s, "\nstart-up (first %g ms from t = 0", (double)st->window_ns / 1e6);
	if (st->end_ns < st->window_ns)
		g_string_append_printf(s, "; the run ended at %g ms", (double)st->end_ns / 1e6);
	g_string_append_printf(s, "; %u allowed CPUs)\n", r->nr_allowed_cpus);
	if (!st->end_ns)
		return;
	g_string_append_printf(s, "  %-14s", "from (ms)");
	for (unsigned k = 0; k < SS_STARTUP_SLICES && startup_slice(st, k, &from, &to); k++)
		g_string_append_printf(s, " %6g", (double)from / 1e6);
	g_string_append_printf(s, "\n  %-14s", "busy CPUs");
	for (unsigned k = 0; k < SS_STARTUP_SLICES && startup_slice(st, k, &from, &to); k++) {
		double busy, depth;

		startup_slice_means(r, k, to - from, &busy, &depth);
		g_string_append_printf(s, " %s", tnum(b, 6, 1, busy));
	}
	g_string_append_printf(s, "\n  %-14s", "mean rq depth");
	for (unsigned k = 0; k < SS_STARTUP_SLICES && startup_slice(st, k, &from, &to); k++) {
		double busy, depth;

		startup_slice_means(r, k, to - from, &busy, &depth);
		g_string_append_printf(s, " %s", tnum(b, 6, 2, depth));
	}
	for (unsigned c = 0; c < r->nr_cpus; c++) {
		const struct ss_startup_cpu *sc = &st->cpu[c];
		/* busy share in percent, compared exactly: busy × 100 against end × bound */
		uint64_t p100 = sc->busy_ns * 100;

		if (!sc->allowed)
			continue;
		nr_band[p100 < st->end_ns * 10 ? 0 : p100 < st->end_ns * 50 ? 1 : p100 < st->end_ns * 90 ? 2 : 3]++;
		if (!n++ || sc->nr_running_max > max) {
			max = sc->nr_running_max;
			max_cpu = c;
			nr_max = 1;
		} else if (sc->nr_running_max == max) {
			nr_max++;
		}
	}
	g_string_append_printf(s, "\n  %-14s", "CPUs busy");
	for (unsigned i = 0; i < 4; i++)
		g_string_append_printf(s, " %s %u%s", band[i], nr_band[i], i < 3 ? "," : "");
	g_string_append(s, "\n");
	if (!n)
		return;
	if (nr_max > 1)
		g_snprintf(b, sizeof b, " and %u more", nr_max - 1);
	else
		b[0] = '\0';
	g_string_append_printf(s, "  %-14s %u (CPU %u%s)\n", "max rq depth", max, max_cpu, b);
}

static double throughput(const struct ss_results *r)
{
	return round3(ss_results_throughput(r));
}

double ss_results_metric_value(const struct ss_results *r)
{
	double win = (double)r->duration_ns / 1e9;

	switch ((enum ss_wl_measure)r->measure) {
	case SS_MEASURE_TXN_RATE:
		return ss_results_throughput(r);
	case SS_MEASURE_TXN_BYTES:
		return win > 0 ? (double)r->transactions * (double)r->bytes_per_txn / 1e6 / win : NAN;
	case SS_MEASURE_MEM_BW:
		return win > 0 ? (double)r->mem_traffic_bytes / 1e6 / win : NAN;
	case SS_MEASURE_FINISH:
		return (double)r->finish_ns / 1e9;
	case SS_MEASURE_WAKEUP_PCT:
		/* a percentile of no wakeups is no figure (0 us would read as the best one) */
		if (!r->metric_latency.n)
			return NAN;
		return (double)ss_lat_hist_quantile(&r->metric_latency, (double)r->percentile_x10 / 1000.0) / 1000.0;
	}
	return NAN;
}

/* a latency statistic of h in ns; NAN when h is empty */
static double lat_q(const struct ss_lat_hist *h, double q)
{
	return h->n ? (double)ss_lat_hist_quantile(h, q) : NAN;
}

static cJSON *lat_json(const struct ss_lat_hist *h)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "count", (double)h->n);
	add_num(o, "mean", mean3(h->sum, h->n));
	add_num(o, "p50", lat_q(h, 0.50));
	add_num(o, "p90", lat_q(h, 0.90));
	add_num(o, "p99", lat_q(h, 0.99));
	add_num(o, "p999", lat_q(h, 0.999));
	add_num(o, "max", h->n ? (double)h->max : NAN);
	return o;
}

/* a log2 histogram: count, mean (without_mean: none, for values truncated on the way in), buckets */
static cJSON *log2_json_opt(const struct ss_log2_hist *h, bool with_mean)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "count", (double)h->n);
	if (with_mean)
		add_num(o, "mean", mean3(h->sum, h->n));
	cJSON *b = cJSON_AddArrayToObject(o, "buckets");
	for (unsigned i = 0; i < SS_LOG2_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "lo", i ? (double)(UINT64_C(1) << (i - 1)) : 0.0);
		cJSON_AddNumberToObject(e, "hi", i ? (i < 64 ? (double)(UINT64_C(1) << i) : 18446744073709551616.0) : 1.0);
		cJSON_AddNumberToObject(e, "count", (double)h->count[i]);
		cJSON_AddItemToArray(b, e);
	}
	return o;
}

static cJSON *log2_json(const struct ss_log2_hist *h)
{
	return log2_json_opt(h, true);
}

/*
 * The SIS scan statistics (docs/output.md): counters as counted, rates as
 * percentages with the formulas of the SIS schedstats (mmtests):
 *   search efficiency = (calls - failures) / runqueues scanned
 *   domain efficiency = (domain searches - their failures) / their runqueues scanned
 *   fast rate         = fast-path answers / calls
 *   success rate      = (calls - failures) / calls
 */
static void sis_stats_json(cJSON *o, const struct ss_sis_stats *st)
{
	cJSON_AddNumberToObject(o, "calls", (double)st->calls);
	cJSON_AddNumberToObject(o, "fast_path", (double)st->fast);
	cJSON_AddNumberToObject(o, "domain_searches", (double)st->domain_searches);
	cJSON_AddNumberToObject(o, "idle_core_searches", (double)st->core_searches);
	cJSON_AddNumberToObject(o, "rqs_scanned", (double)st->scanned);
	cJSON_AddNumberToObject(o, "domain_rqs_scanned", (double)st->domain_scanned);
	cJSON_AddNumberToObject(o, "failures", (double)st->failed);
	cJSON_AddNumberToObject(o, "domain_failures", (double)st->domain_failed);
	cJSON_AddNumberToObject(o, "walked_whole_mask", (double)st->walked_all);
	add_num(o, "rqs_scanned_per_call", ratio(st->scanned, st->calls));
	add_num(o, "search_efficiency_pct", pct(st->calls - st->failed, st->scanned));
	add_num(o, "domain_efficiency_pct", pct(st->domain_searches - st->domain_failed, st->domain_scanned));
	add_num(o, "fast_rate_pct", pct(st->fast, st->calls));
	add_num(o, "success_rate_pct", pct(st->calls - st->failed, st->calls));
	add_num(o, "full_mask_fail_pct", pct(st->walked_all, st->calls));
}


static void sis_scan_json(cJSON *root, const struct ss_results *r)
{
	cJSON *o = cJSON_AddObjectToObject(root, "sis_scan");
	cJSON *a;
	sis_stats_json(o, &r->sis);
	cJSON_AddItemToObject(o, "rqs_scanned_per_call_hist", log2_json(&r->sis_scanned_hist));
	a = cJSON_AddArrayToObject(o, "llc");
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "llc", l);
		cJSON_AddStringToObject(e, "cpus", r->llc[l].cpus ? r->llc[l].cpus : "");
		sis_stats_json(e, &r->llc[l].sis);
		cJSON_AddItemToArray(a, e);
	}
	o = cJSON_AddObjectToObject(root, "wakeups");
	cJSON_AddNumberToObject(o, "total", (double)r->wakeups);
	cJSON_AddNumberToObject(o, "onto_busy_cpu", (double)r->wakeups_busy);
	cJSON_AddNumberToObject(o, "outside_waker_llc", (double)r->wakeups_remote_llc);
	cJSON_AddNumberToObject(o, "outside_waker_node", (double)r->wakeups_remote_node);
	cJSON_AddNumberToObject(o, "onto_waker_cpu", (double)r->wakeups_on_waker_cpu);
	cJSON_AddNumberToObject(o, "onto_prev_cpu", (double)r->wakeups_on_prev_cpu);
	cJSON_AddNumberToObject(o, "onto_other_cpu", (double)(r->wakeups - r->wakeups_on_waker_cpu - r->wakeups_on_prev_cpu));
	cJSON_AddNumberToObject(o, "fallback_rq", (double)r->wakeups_fallback);
	cJSON_AddNumberToObject(o, "fork_fallback_rq", (double)r->fork_fallback);
	cJSON_AddNumberToObject(o, "exec_refused", (double)r->exec_refused);
	cJSON_AddNumberToObject(o, "on_cpu", (double)r->wakeups_on_cpu);
}

static void sis_scan_text(GString *s, const struct ss_results *r)
{
	const struct ss_sis_stats *st = &r->sis;
	char b[3][64];
	g_string_append_printf(s, "%-34s %llu\n", "select_idle_sibling calls", (unsigned long long)st->calls);
	g_string_append_printf(s, "%-34s %llu (fast rate %s)\n", "  fast path (target/prev/recent)",
			       (unsigned long long)st->fast, tpct(b[0], pct(st->fast, st->calls)));
	g_string_append_printf(s, "%-34s %llu (idle-core searches %llu)\n", "  domain searches",
			       (unsigned long long)st->domain_searches, (unsigned long long)st->core_searches);
	g_string_append_printf(s, "%-34s %llu (in domain searches %llu), %s per call\n", "  runqueues scanned",
			       (unsigned long long)st->scanned, (unsigned long long)st->domain_scanned,
			       tnum(b[0], 0, 3, ratio(st->scanned, st->calls)));
	g_string_append_printf(s, "%-34s %llu (whole mask walked, none idle: %llu, %s of calls)\n", "  failures (answer not idle)",
			       (unsigned long long)st->failed, (unsigned long long)st->walked_all,
			       tpct(b[0], pct(st->walked_all, st->calls)));
	g_string_append_printf(s, "%-34s search %s  domain %s  success rate %s\n", "  efficiency",
			       tpct(b[0], pct(st->calls - st->failed, st->scanned)),
			       tpct(b[1], pct(st->domain_searches - st->domain_failed, st->domain_scanned)),
			       tpct(b[2], pct(st->calls - st->failed, st->calls)));
	g_string_append_printf(s, "%-34s %llu of %llu (%s)\n", "wakeups onto a busy CPU",
			       (unsigned long long)r->wakeups_busy, (unsigned long long)r->wakeups,
			       tpct(b[0], pct(r->wakeups_busy, r->wakeups)));
	g_string_append_printf(s, "%-34s LLC %llu  node %llu\n", "wakeups outside the waker's",
			       (unsigned long long)r->wakeups_remote_llc, (unsigned long long)r->wakeups_remote_node);
	g_string_append_printf(s, "%-34s waker's CPU %s  prev CPU %s  another CPU %s\n", "wakees land on",
			       tpct(b[0], pct(r->wakeups_on_waker_cpu, r->wakeups)),
			       tpct(b[1], pct(r->wakeups_on_prev_cpu, r->wakeups)),
			       tpct(b[2], pct(r->wakeups - r->wakeups_on_waker_cpu - r->wakeups_on_prev_cpu, r->wakeups)));
	if (r->wakeups_fallback || r->fork_fallback)
		g_string_append_printf(s, "%-34s %llu wakeups, %llu forks\n", "placed outside p->cpus_ptr (fallback)",
				       (unsigned long long)r->wakeups_fallback, (unsigned long long)r->fork_fallback);
	if (r->exec_refused)
		g_string_append_printf(s, "%-34s %llu (the task stayed: sched_exec() has no fallback)\n",
				       "exec answers not acted on", (unsigned long long)r->exec_refused);
}

static void sis_scan_llc_text(GString *s, const struct ss_results *r)
{
	g_string_append(s, "\nselect_idle_sibling per LLC (of target): calls, fast %, domain searches, rqs scanned/call, failures, search eff %, domain eff %, success %\n");
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		const struct ss_sis_stats *st = &r->llc[l].sis;
		char b[5][64];
		g_string_append_printf(s, "  llc %-3u cpus %-16s calls %9llu  fast %s  domain %9llu  scanned/call %s  failed %8llu  search %s  domain %s  success %s\n",
				       l, r->llc[l].cpus ? r->llc[l].cpus : "", (unsigned long long)st->calls,
				       tnum(b[0], 6, 2, pct(st->fast, st->calls)), (unsigned long long)st->domain_searches,
				       tnum(b[1], 7, 3, ratio(st->scanned, st->calls)), (unsigned long long)st->failed,
				       tnum(b[2], 6, 2, pct(st->calls - st->failed, st->scanned)),
				       tnum(b[3], 6, 2, pct(st->domain_searches - st->domain_failed, st->domain_scanned)),
				       tnum(b[4], 6, 2, pct(st->calls - st->failed, st->calls)));
	}
}

/*
 * The "run_length" object (docs/output.md "Run length"): how the run's
 * length was chosen (simsched/runlen.h). Only for r->run_length.on; the
 * caller owns it. Shared by the run JSON and the sweep records.
 */
cJSON *ss_run_length_json(const struct ss_results *r)
{
	const struct ss_run_length *x = &r->run_length;
	cJSON *o = cJSON_CreateObject(), *w;

	cJSON_AddNumberToObject(o, "batch_ns", (double)x->batch_ns);
	w = cJSON_AddObjectToObject(o, "warmup");
	cJSON_AddStringToObject(w, "rule", x->warmup_auto ? "MSER-5" : "fixed");
	cJSON_AddNumberToObject(w, "ns", (double)r->warmup_ns);
	if (x->warmup_auto) {
		cJSON_AddNumberToObject(w, "max_ns", (double)x->warmup_max_ns);
		cJSON_AddNumberToObject(w, "truncation_ns", (double)x->mser_truncation_ns);
		cJSON_AddNumberToObject(w, "mser_batches", (double)x->mser_batches);
		cJSON_AddBoolToObject(w, "capped", x->warmup_capped);
		cJSON_AddBoolToObject(w, "waited_nr_idle_scan", x->waited_nr_idle_scan);
	}
	w = cJSON_AddObjectToObject(o, "window");
	cJSON_AddNumberToObject(w, "ns", (double)r->duration_ns);
	cJSON_AddStringToObject(w, "stopped", x->stopped ? x->stopped : "duration");
	if (x->precision > 0) {
		cJSON_AddNumberToObject(w, "precision", x->precision);
		cJSON_AddNumberToObject(w, "max_ns", (double)x->max_duration_ns);
		cJSON_AddNumberToObject(w, "batches", (double)x->batches);
		cJSON_AddNumberToObject(w, "batch_len_ns", (double)x->batch_len_ns);
		add_num(w, "mean", x->mean);
		add_num(w, "half_width", x->half_width);
		add_num(w, "half_width_pct", x->mean != 0 ? 100.0 * x->half_width / fabs(x->mean) : NAN);
		add_num(w, "von_neumann_z", x->von_neumann_z);
		add_num(w, "lag1_autocorrelation", x->lag1_autocorrelation);
	}
	if (x->paired) {
		w = cJSON_AddObjectToObject(o, "paired");
		cJSON_AddNumberToObject(w, "index", (double)x->paired_index);
		if (x->paired_index) {
			add_num(w, "delta_pct", x->delta_pct);
			add_num(w, "delta_half_width_pct", x->delta_half_width_pct);
			add_num(w, "delta_lag1_autocorrelation", x->delta_lag1_autocorrelation);
		}
	}
	return o;
}

char *ss_results_to_json(const struct ss_results *r)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *o, *a;

	cJSON_AddStringToObject(root, "simsched_version", SS_VERSION_STRING);
	cJSON_AddNumberToObject(root, "schema_version", SS_RESULTS_SCHEMA_VERSION);
	o = cJSON_AddObjectToObject(root, "run");
	cJSON_AddStringToObject(o, "topology", r->topology ? r->topology : "");
	cJSON_AddStringToObject(o, "topology_file", r->topology_file ? r->topology_file : "");
	cJSON_AddStringToObject(o, "workload", r->workload ? r->workload : "");
	cJSON_AddStringToObject(o, "workload_file", r->workload_file ? r->workload_file : "");
	cJSON_AddStringToObject(o, "policy", r->policy);
	cJSON_AddStringToObject(o, "sched_features", r->features);
	{
		char km[16];
		snprintf(km, sizeof km, "v%s", ss_kernel_name((enum ss_kernel)r->kernel));
		cJSON_AddStringToObject(o, "kernel_model", km);
	}
	cJSON_AddStringToObject(o, "policy_base", r->policy_base ? r->policy_base : "v6.6");
	cJSON_AddNumberToObject(o, "load_pct", (double)r->load_pct_x100 / 100.0);
	{
		/* exact: %.15g (cJSON's number format) rounds a 16-digit seed */
		char seed[24];
		snprintf(seed, sizeof seed, "%" G_GUINT64_FORMAT, (guint64)r->seed);
		cJSON_AddRawToObject(o, "seed", seed);
	}
	cJSON_AddNumberToObject(o, "warmup_ns", (double)r->warmup_ns);
	cJSON_AddNumberToObject(o, "duration_ns", (double)r->duration_ns);
	cJSON_AddNumberToObject(o, "nr_cpus", r->nr_cpus);
	cJSON_AddNumberToObject(o, "allowed_cpus", r->nr_allowed_cpus);
	if (r->offline_cpus) {
		/* only on machines with offline CPUs: the other files stay as they were */
		cJSON_AddNumberToObject(o, "online_cpus", r->nr_online_cpus);
		cJSON_AddStringToObject(o, "offline_cpus", r->offline_cpus);
	}
	cJSON_AddNumberToObject(o, "instances", r->nr_instances);
	cJSON_AddStringToObject(o, "instance_unit", r->instance_unit ? r->instance_unit : "");
	cJSON_AddNumberToObject(o, "tasks", r->nr_tasks);
	add_num(o, "deadlock_at_ns", r->deadlocked ? (double)r->deadlock_ns : NAN);
	cJSON_AddNumberToObject(o, "ended_ns", (double)r->ended_ns);
	a = cJSON_AddArrayToObject(root, "warnings");
	for (char **w = r->warnings; w && *w; w++)
		cJSON_AddItemToArray(a, cJSON_CreateString(*w));

	o = cJSON_AddObjectToObject(root, "metric");
	cJSON_AddStringToObject(o, "name", r->metric_name ? r->metric_name : "throughput");
	cJSON_AddStringToObject(o, "unit", r->metric_unit ? r->metric_unit : "transactions/s");
	/* seconds to finish to the ns (a finish time of a few ms would round away at 3 decimals) */
	add_num(o, "value", r->measure == SS_MEASURE_FINISH ? ss_results_metric_value(r) : round3(ss_results_metric_value(r)));
	cJSON_AddBoolToObject(o, "higher_is_better", r->higher_is_better);
	cJSON_AddStringToObject(o, "better", r->higher_is_better ? "higher" : "lower");

	o = cJSON_AddObjectToObject(root, "throughput");
	cJSON_AddNumberToObject(o, "transactions", (double)r->transactions);
	add_num(o, "transactions_per_s", throughput(r));
	cJSON_AddItemToObject(root, "wakeup_latency_ns", lat_json(&r->wakeup_latency));
	cJSON_AddItemToObject(root, "transaction_latency_ns", lat_json(&r->txn_latency));

	o = cJSON_AddObjectToObject(root, "cpu");
	add_num(o, "busy_pct", round3(ss_results_busy_pct(r)));
	add_num(o, "busy_pct_machine", round3(ss_results_busy_pct_machine(r)));
	cJSON_AddNumberToObject(o, "context_switches", (double)r->context_switches);
	cJSON_AddNumberToObject(o, "wakeups", (double)r->wakeups);
	cJSON_AddNumberToObject(o, "ipis", (double)r->ipis);
	cJSON_AddNumberToObject(o, "yields", (double)r->yields);
	cJSON_AddNumberToObject(o, "ipis_saved_polling", (double)r->ipis_saved_polling);
	{
		cJSON *st = cJSON_AddObjectToObject(o, "idle_state_entries");
		for (unsigned i = 0; i < r->nr_idle_states; i++)
			cJSON_AddNumberToObject(st, r->idle_state_name[i], (double)r->idle_state_entries[i]);
	}
	cJSON_AddNumberToObject(cJSON_AddObjectToObject(root, "policy_stats"), "redirects", (double)r->policy_redirects);
	o = cJSON_AddObjectToObject(root, "time_lost_ns");
	cJSON_AddNumberToObject(o, "probe", (double)r->lost.probe);
	cJSON_AddNumberToObject(o, "context_switch", (double)r->lost.context_switch);
	cJSON_AddNumberToObject(o, "ipi", (double)r->lost.ipi);
	cJSON_AddNumberToObject(o, "idle_exit", (double)r->lost.idle_exit);
	cJSON_AddNumberToObject(o, "cache_refill", (double)r->lost.cache_refill);
	cJSON_AddNumberToObject(o, "smt", (double)r->lost.smt);
	cJSON_AddNumberToObject(o, "memory_bandwidth", (double)r->lost.memory_bandwidth);
	cJSON_AddNumberToObject(o, "rq_lock", (double)r->lost.rq_lock);
	cJSON_AddNumberToObject(o, "tick", (double)r->background.tick_ns);
	cJSON_AddNumberToObject(o, "kthread", (double)r->background.kthread_ns);
	cJSON_AddNumberToObject(o, "newidle_balance", (double)r->newidle_held_ns);
	{
		const struct ss_background_stats *bg = &r->background;
		o = cJSON_AddObjectToObject(root, "background");
		cJSON_AddNumberToObject(o, "ticks", (double)bg->ticks);
		cJSON_AddNumberToObject(o, "tick_ns", (double)bg->tick_ns);
		cJSON_AddNumberToObject(o, "kthread_wakeups", (double)bg->kthread_wakeups);
		cJSON_AddNumberToObject(o, "kthread_items", (double)bg->kthread_items);
		cJSON_AddNumberToObject(o, "kthread_ns", (double)bg->kthread_ns);
		cJSON_AddNumberToObject(o, "kthread_preempts", (double)bg->kthread_preempts);
		if (bg->kthread_latency.n)
			cJSON_AddNumberToObject(o, "kthread_latency_mean_ns",
						(double)bg->kthread_latency.sum / (double)bg->kthread_latency.n);
		else
			cJSON_AddNullToObject(o, "kthread_latency_mean_ns");
	}
	/* how the run's length was chosen; absent for a fixed --warmup and --duration */
	if (r->run_length.on)
		cJSON_AddItemToObject(root, "run_length", ss_run_length_json(r));
	{
		static const char *const taker[SS_LOCK_NR] = { "ttwu", "drain", "schedule", "balance", "tick" };
		const struct ss_contention_stats *cs = &r->contention;
		cJSON *lk;
		o = cJSON_AddObjectToObject(root, "contention");
		cJSON_AddNumberToObject(o, "line_reads", (double)cs->line_reads);
		cJSON_AddNumberToObject(o, "line_reads_llc_shared", (double)cs->line_reads_llc);
		cJSON_AddNumberToObject(o, "line_hits", (double)cs->line_hits);
		cJSON_AddNumberToObject(o, "line_transfer_ns", (double)cs->line_transfer_ns);
		cJSON_AddNumberToObject(o, "line_queued", (double)cs->line_queued);
		cJSON_AddNumberToObject(o, "line_queue_ns", (double)cs->line_queue_ns);
		lk = cJSON_AddObjectToObject(o, "rq_lock");
		for (unsigned k = 0; k < SS_LOCK_NR; k++) {
			cJSON *e = cJSON_AddObjectToObject(lk, taker[k]);
			cJSON_AddNumberToObject(e, "acquires", (double)cs->lock_acquires[k]);
			cJSON_AddNumberToObject(e, "contended", (double)cs->lock_contended[k]);
			cJSON_AddNumberToObject(e, "wait_ns", (double)cs->lock_wait_ns[k]);
		}
		cJSON_AddNumberToObject(o, "wakeups_chose_idle", (double)cs->wakeups_chose_idle);
		cJSON_AddNumberToObject(o, "wakeups_stacked", (double)cs->wakeups_stacked);
	}
	o = cJSON_AddObjectToObject(root, "migrations");
	cJSON_AddNumberToObject(o, "total", (double)r->migrations);
	for (unsigned i = 0; i < SS_MIG_NR; i++)
		cJSON_AddNumberToObject(o, mig_cause_names[i], (double)r->migrations_by_cause[i]);
	cJSON_AddNumberToObject(o, "cross_llc", (double)r->migrations_llc);
	cJSON_AddNumberToObject(o, "cross_node", (double)r->migrations_node);
	a = cJSON_AddArrayToObject(o, "by_level");
	for (unsigned k = 0; k < r->nr_level_keys; k++) {
		uint64_t tot = 0;
		cJSON *e;
		if (!r->level_name[k][0])
			continue;
		e = cJSON_CreateObject();
		cJSON_AddStringToObject(e, "level", r->level_name[k]);
		for (unsigned i = 0; i < SS_MIG_NR; i++) {
			cJSON_AddNumberToObject(e, mig_cause_names[i], (double)r->migrations_by_level[k][i]);
			tot += r->migrations_by_level[k][i];
		}
		cJSON_AddNumberToObject(e, "total", (double)tot);
		cJSON_AddItemToArray(a, e);
	}

	o = cJSON_AddObjectToObject(root, "select_idle_sibling");
	cJSON_AddNumberToObject(o, "calls", (double)r->sis_calls);
	cJSON_AddNumberToObject(o, "rqs_probed", (double)r->sis_probes_total);
	cJSON_AddNumberToObject(o, "scan_time_ns", (double)r->scan_time_ns);
	cJSON *out = cJSON_AddObjectToObject(o, "outcome");
	for (unsigned i = 0; i < SS_SIS_NR; i++)
		cJSON_AddNumberToObject(out, sis_outcome_names[i], (double)r->sis_outcome[i]);

	o = cJSON_AddObjectToObject(root, "select_idle_cpu");
	cJSON_AddNumberToObject(o, "calls", (double)r->sic_calls);
	cJSON_AddNumberToObject(o, "rqs_probed", (double)r->sic_probes);
	add_num(o, "probes_per_call", ratio(r->sic_probes, r->sic_calls));
	cJSON_AddNumberToObject(o, "found_idle", (double)r->sic_found);
	add_num(o, "found_idle_pct", pct(r->sic_found, r->sic_calls));
	cJSON_AddNumberToObject(o, "budget_exhausted", (double)r->sic_nr_exhausted);
	cJSON_AddNumberToObject(o, "skipped_nr_idle_scan_0", (double)r->sic_skipped_nr0);
	cJSON_AddItemToObject(o, "time_per_call_ns", log2_json(&r->sic_time));
	/* by walk kind: the idle-core walk (has_idle_core, no budget bounds it) and the idle-CPU walk */
	cJSON_AddItemToObject(o, "time_per_call_ns_idle_core", log2_json(&r->sic_time_core));
	cJSON_AddItemToObject(o, "time_per_call_ns_idle_cpu", log2_json(&r->sic_time_cpu));
	cJSON_AddNumberToObject(o, "idle_core_calls", (double)r->sic_time_core.n);
	cJSON_AddNumberToObject(o, "idle_cpu_calls", (double)r->sic_time_cpu.n);
	cJSON_AddNumberToObject(o, "idle_core_rqs_probed", (double)r->sic_probes_core);
	cJSON_AddNumberToObject(o, "idle_cpu_rqs_probed", (double)r->sic_probes_cpu);
	add_num(o, "probes_per_call_idle_core", ratio(r->sic_probes_core, r->sic_time_core.n));
	add_num(o, "probes_per_call_idle_cpu", ratio(r->sic_probes_cpu, r->sic_time_cpu.n));
	/* bpftrace's hist(nsecs / 1000): µs buckets, the seed threads' histogram */
	cJSON_AddItemToObject(o, "time_per_call_us", log2_json_opt(&r->sic_time_us, false));
	add_num(o, "time_per_call_mode_ns", ss_cmp_metric_value(SS_CMP_SIC_TIME_MODE_NS, r));
	add_num(o, "time_per_call_8us_512us_pct", round3(ss_cmp_metric_value(SS_CMP_SIC_TIME_8US_512US_PCT, r)));
	cJSON_AddItemToObject(o, "probes_per_call_hist", log2_json(&r->sic_probes_hist));

	o = cJSON_AddObjectToObject(root, "sis");
	a = cJSON_AddArrayToObject(o, "by_budget");
	for (unsigned k = 0; k < SS_SIC_BUDGET_MAX + 2; k++) {
		cJSON *e;
		if (!r->sic_budget_calls[k])
			continue;
		e = cJSON_CreateObject();
		if (k == SS_SIC_BUDGET_MAX + 1)
			cJSON_AddNullToObject(e, "nr");
		else
			cJSON_AddNumberToObject(e, "nr", k);
		cJSON_AddBoolToObject(e, "or_more", k == SS_SIC_BUDGET_MAX);
		cJSON_AddNumberToObject(e, "calls", (double)r->sic_budget_calls[k]);
		cJSON_AddNumberToObject(e, "found", (double)r->sic_budget_found[k]);
		cJSON_AddItemToArray(a, e);
	}
	add_num(o, "nr_idle_scan_written_ns", r->nr_idle_scan_written ? (double)r->nr_idle_scan_written_ns : NAN);

	sis_scan_json(root, r);

	o = cJSON_AddObjectToObject(root, "balance");
	cJSON_AddNumberToObject(o, "lb_stats_passes", (double)r->lb_stats_passes);
	cJSON_AddNumberToObject(o, "nohz_kicks", (double)r->nohz_kicks);
	cJSON_AddNumberToObject(o, "nohz_idle_balances", (double)r->nohz_balances);
	for (unsigned i = 0; i < 3; i++) {
		const struct ss_lb_kind_stats *k = &r->lb[i];
		cJSON *e = cJSON_AddObjectToObject(o, lb_kind_names[i]);
		cJSON_AddNumberToObject(e, "passes", (double)k->passes);
		cJSON_AddNumberToObject(e, "balanced", (double)k->balanced);
		cJSON_AddNumberToObject(e, "imbalanced", (double)k->imbalanced);
		cJSON_AddNumberToObject(e, "no_busiest_rq", (double)k->no_busiest_rq);
		cJSON_AddNumberToObject(e, "tasks_moved", (double)k->moved);
		cJSON_AddNumberToObject(e, "failed", (double)k->failed);
		cJSON_AddNumberToObject(e, "all_pinned", (double)k->all_pinned);
		cJSON_AddNumberToObject(e, "active_kicks", (double)k->active_kicks);
		cJSON_AddNumberToObject(e, "cost_ns", (double)k->cost_ns);
	}
	cJSON_AddNumberToObject(o, "newidle_skipped", (double)r->newidle_skipped);
	cJSON_AddNumberToObject(o, "active_pushed", (double)r->active_pushed);

	{
		double cpu_time = (double)r->nr_allowed_cpus * (double)r->duration_ns;
		uint64_t depth_tot = 0, depth_w = 0;
		o = cJSON_AddObjectToObject(root, "idle_with_work_elsewhere");
		cJSON_AddNumberToObject(o, "llc_cpu_ns", (double)r->idle_work_llc_ns);
		add_num(o, "llc_pct", cpu_time > 0 ? round3(100.0 * (double)r->idle_work_llc_ns / cpu_time) : NAN);
		cJSON_AddNumberToObject(o, "node_cpu_ns", (double)r->idle_work_node_ns);
		add_num(o, "node_pct", cpu_time > 0 ? round3(100.0 * (double)r->idle_work_node_ns / cpu_time) : NAN);
		cJSON_AddNumberToObject(o, "allowed_cpu_ns", (double)r->idle_work_allowed_ns);
		add_num(o, "allowed_pct", round3(ss_results_idle_with_work_allowed_pct(r)));
		o = cJSON_AddObjectToObject(root, "bursts");
		cJSON_AddNumberToObject(o, "count", (double)r->bursts);
		cJSON_AddNumberToObject(o, "window_ns", (double)r->burst_window_ns);
		cJSON_AddNumberToObject(o, "window_cpu_ns", (double)r->burst_cover_ns * (double)r->nr_allowed_cpus);
		cJSON_AddNumberToObject(o, "idle_with_work_cpu_ns", (double)r->burst_idle_work_ns);
		add_num(o, "idle_with_work_pct", round3(ss_results_burst_idle_with_work_pct(r)));
		cJSON_AddNumberToObject(o, "sampled_1ms", (double)r->burst_sampled);
		add_num(o, "idle_1ms_pct", round3(ss_results_burst_idle_1ms_pct(r)));
		cJSON_AddNumberToObject(o, "completed", (double)r->burst_completed);
		add_num(o, "makespan_ns", round3(ss_results_burst_makespan_ns(r)));
		o = cJSON_AddObjectToObject(root, "runqueue_depth");
		for (unsigned d = 0; d < SS_RQ_DEPTH_MAX; d++) {
			depth_tot += r->rq_depth_ns[d];
			depth_w += (uint64_t)d * r->rq_depth_ns[d];
		}
		add_num(o, "mean", mean3(depth_w, depth_tot));
		a = cJSON_AddArrayToObject(o, "buckets");
		for (unsigned d = 0; d < SS_RQ_DEPTH_MAX; d++) {
			cJSON *e;
			if (!r->rq_depth_ns[d])
				continue;
			e = cJSON_CreateObject();
			cJSON_AddNumberToObject(e, "nr_running", d);
			cJSON_AddBoolToObject(e, "or_more", d == SS_RQ_DEPTH_MAX - 1);
			cJSON_AddNumberToObject(e, "cpu_ns", (double)r->rq_depth_ns[d]);
			cJSON_AddNumberToObject(e, "pct", pct(r->rq_depth_ns[d], depth_tot));
			cJSON_AddItemToArray(a, e);
		}
	}

	o = cJSON_AddObjectToObject(root, "nr_idle_scan");
	cJSON_AddNumberToObject(o, "sample_interval_ns", (double)r->sample_ns);
	a = cJSON_AddArrayToObject(o, "llc");
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		const struct ss_llc_stats *ls = &r->llc[l];
		cJSON *e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "llc", l);
		cJSON_AddStringToObject(e, "cpus", ls->cpus ? ls->cpus : "");
		cJSON_AddNumberToObject(e, "first_cpu", ls->first_cpu);
		cJSON_AddNumberToObject(e, "nr_cpus", ls->nr_cpus);
		add_num(e, "mean", mean3(ls->nr_idle_scan_weighted, r->duration_ns));
		cJSON_AddNumberToObject(e, "final", ls->nr_idle_scan_final);
		cJSON_AddNumberToObject(e, "writes", (double)ls->nr_idle_scan_writes);
		cJSON_AddNumberToObject(e, "sic_calls", (double)ls->sic_calls);
		add_num(e, "sic_probes_per_call", ratio(ls->sic_probes, ls->sic_calls));
		add_num(e, "sic_found_idle_pct", pct(ls->sic_found, ls->sic_calls));
		cJSON *s = cJSON_AddArrayToObject(e, "series");
		cJSON *u = cJSON_AddArrayToObject(e, "util_series");
		for (unsigned i = 0; i < ls->nr_samples; i++) {
			cJSON_AddItemToArray(s, cJSON_CreateNumber(ls->nr_idle_scan_series[i]));
			cJSON_AddItemToArray(u, cJSON_CreateNumber(ls->util_series[i]));
		}
		cJSON_AddItemToArray(a, e);
	}

	a = cJSON_AddArrayToObject(root, "per_cpu");
	for (unsigned c = 0; c < r->nr_cpus; c++) {
		const struct ss_cpu_stats *cs = &r->cpu[c];
		cJSON *e;
		if (r->offline_cpus && r->cpu_offline && r->cpu_offline[c])
			continue;   /* offline: no entry; the others keep their CPU ids */
		e = cJSON_CreateObject();
		cJSON_AddNumberToObject(e, "cpu", c);
		add_num(e, "busy_pct", pct(cs->busy_ns, r->duration_ns));
		cJSON_AddNumberToObject(e, "util_avg", (double)cs->util_avg);
		cJSON_AddNumberToObject(e, "context_switches", (double)cs->nr_switches);
		cJSON_AddNumberToObject(e, "wakeups", (double)cs->wakeups);
		add_num(e, "mean_nr_running", mean3(cs->nr_running_ns, r->duration_ns));
		cJSON_AddNumberToObject(e, "rqs_probed", (double)cs->probed);
		cJSON_AddNumberToObject(e, "rq_lock_acquires", (double)cs->rq_lock_acquires);
		cJSON_AddNumberToObject(e, "rq_lock_contended", (double)cs->rq_lock_contended);
		cJSON_AddNumberToObject(e, "rq_lock_wait_ns", (double)cs->rq_lock_wait_ns);
		cJSON_AddItemToArray(a, e);
	}
	startup_json(root, r);
	o = cJSON_AddObjectToObject(root, "engine");
	cJSON_AddNumberToObject(o, "events", (double)r->events);

	char *txt = cJSON_Print(root);
	cJSON_Delete(root);
	char *ret = g_strconcat(txt, "\n", NULL);
	cJSON_free(txt);
	return ret;
}

/* bpftrace's hist() labels: 0, 1, [2, 4), ... with K/M/G suffixes */
static void hist_label(char *buf, size_t len, unsigned i)
{
	static const char *const suf[] = { "", "K", "M", "G", "T", "P", "E" };
	if (i == 0) {
		snprintf(buf, len, "[0]");
		return;
	}
	if (i == 1) {
		snprintf(buf, len, "[1]");
		return;
	}
	unsigned lo = i - 1, hi = i;
	snprintf(buf, len, "[%llu%s, %llu%s)", 1ull << (lo % 10), suf[lo / 10], 1ull << (hi % 10), suf[hi / 10]);
}

static void hist_text(GString *s, const struct ss_log2_hist *h, const char *name)
{
	unsigned first = SS_LOG2_BUCKETS, last = 0;
	uint64_t max = 0;
	for (unsigned i = 0; i < SS_LOG2_BUCKETS; i++) {
		if (!h->count[i])
			continue;
		if (first == SS_LOG2_BUCKETS)
			first = i;
		last = i;
		if (h->count[i] > max)
			max = h->count[i];
	}
	g_string_append_printf(s, "@%s:\n", name);
	if (first == SS_LOG2_BUCKETS) {
		g_string_append(s, "(no calls)\n");
		return;
	}
	for (unsigned i = first; i <= last; i++) {
		char label[32], bar[53];
		unsigned w = max ? (unsigned)((h->count[i] * 52) / max) : 0;
		hist_label(label, sizeof label, i);
		memset(bar, ' ', 52);
		memset(bar, '@', w);
		bar[52] = '\0';
		g_string_append_printf(s, "%-18s %10llu |%s|\n", label, (unsigned long long)h->count[i], bar);
	}
}

char *ss_results_to_text(const struct ss_results *r)
{
	GString *s = g_string_new(NULL);
	const struct ss_lat_hist *wl = &r->wakeup_latency;
	char b[4][64];

	g_string_append_printf(s, "simsched run: %s (%u CPUs, %s%s%s%u allowed), %s at %.2f%% = %u %s%s (%u tasks)\n",
			       r->topology, r->nr_cpus, r->offline_cpus ? "offline " : "",
			       r->offline_cpus ? r->offline_cpus : "", r->offline_cpus ? ", " : "", r->nr_allowed_cpus, r->workload, (double)r->load_pct_x100 / 100.0,
			       r->nr_instances, r->instance_unit, r->nr_instances == 1 ? "" : "s", r->nr_tasks);
	if (r->measure == SS_MEASURE_FINISH && r->warmup_ns)
		g_string_append_printf(s, "policy %s, kernel model v%s, seed %llu, measured from the first transaction begin at %.6f s until the last task exited %.6f s later\n",
				       r->policy, ss_kernel_name((enum ss_kernel)r->kernel), (unsigned long long)r->seed, (double)r->warmup_ns / 1e9, (double)r->duration_ns / 1e9);
	else if (r->measure == SS_MEASURE_FINISH)
		g_string_append_printf(s, "policy %s, kernel model v%s, seed %llu, measured from t = 0 until the last task exited at %.6f s\n",
				       r->policy, ss_kernel_name((enum ss_kernel)r->kernel), (unsigned long long)r->seed, (double)r->duration_ns / 1e9);
	else
		g_string_append_printf(s, "policy %s, kernel model v%s, seed %llu, warmup %.3f s, measured %.3f s\n",
				       r->policy, ss_kernel_name((enum ss_kernel)r->kernel), (unsigned long long)r->seed, (double)r->warmup_ns / 1e9,
				       (double)r->duration_ns / 1e9);
	if (r->run_length.on) {
		const struct ss_run_length *x = &r->run_length;
		if (x->warmup_auto)
			g_string_append_printf(s, "run length: warmup by MSER-5 (truncation %.3f s over %u batches%s%s)",
					       (double)x->mser_truncation_ns / 1e9, x->mser_batches,
					       x->warmup_capped ? ", capped" : "", x->waited_nr_idle_scan ? ", waited for nr_idle_scan" : "");
		else
			g_string_append(s, "run length: fixed warmup");
		if (x->precision > 0) {
			g_string_append_printf(s, "; window until +-%g %% at 95 %%: %u batches of %.3f s, stopped by %s, ",
					       100.0 * x->precision, x->batches, (double)x->batch_len_ns / 1e9, x->stopped);
			if (x->paired && x->paired_index)
				g_string_append_printf(s, "delta %+.2f %% +- %.2f", x->delta_pct, x->delta_half_width_pct);
			else
				g_string_append_printf(s, "mean %.6g +- %.6g (%.2f %%)", x->mean, x->half_width,
						       x->mean != 0 ? 100.0 * x->half_width / fabs(x->mean) : NAN);
		}
		g_string_append_c(s, '\n');
	}
	g_string_append_printf(s, "sched features: %s\n", r->features);
	for (char **w = r->warnings; w && *w; w++)
		g_string_append_printf(s, "warning: %s\n", *w);
	g_string_append_c(s, '\n');
	g_string_append_printf(s, "%-34s %s %s (%s is better)\n", r->metric_name ? r->metric_name : "throughput",
			       tnum(b[0], 14, r->measure == SS_MEASURE_FINISH ? 6 : 3, ss_results_metric_value(r)),
			       r->metric_unit ? r->metric_unit : "transactions/s", r->higher_is_better ? "higher" : "lower");
	if (r->measure != SS_MEASURE_TXN_RATE)
		g_string_append_printf(s, "%-34s %s transactions/s\n", "transaction marks", tnum(b[0], 14, 1, throughput(r)));
	g_string_append_printf(s, "%-34s mean %s  p50 %s  p99 %s  max %s  (%llu wakeups)\n",
			       "wakeup latency (us)", tnum(b[0], 0, 2, wl->n ? (double)wl->sum / (double)wl->n / 1000.0 : NAN),
			       tnum(b[1], 0, 2, lat_q(wl, 0.5) / 1000.0), tnum(b[2], 0, 2, lat_q(wl, 0.99) / 1000.0),
			       tnum(b[3], 0, 2, wl->n ? (double)wl->max / 1000.0 : NAN), (unsigned long long)wl->n);
	if (r->nr_allowed_cpus != (r->nr_online_cpus ? r->nr_online_cpus : r->nr_cpus))
		g_string_append_printf(s, "%-34s %s of the %u allowed CPUs (%s of the machine's %u online)\n",
				       "CPU busy", tpct(b[0], ss_results_busy_pct(r)), r->nr_allowed_cpus,
				       tpct(b[1], ss_results_busy_pct_machine(r)),
				       r->nr_online_cpus ? r->nr_online_cpus : r->nr_cpus);
	else
		g_string_append_printf(s, "%-34s %s\n", "CPU busy", tpct(b[0], ss_results_busy_pct(r)));
	g_string_append_printf(s, "%-34s %llu (cross-LLC %llu, cross-node %llu)\n", "migrations",
			       (unsigned long long)r->migrations, (unsigned long long)r->migrations_llc,
			       (unsigned long long)r->migrations_node);
	g_string_append_printf(s, "%-34s", "  by cause");
	for (unsigned i = 0; i < SS_MIG_NR; i++)
		g_string_append_printf(s, " %s %llu", mig_cause_names[i], (unsigned long long)r->migrations_by_cause[i]);
	g_string_append(s, "\n");
	for (unsigned k = 0; k < r->nr_level_keys; k++) {
		uint64_t tot = 0;
		if (!r->level_name[k][0])
			continue;
		for (unsigned i = 0; i < SS_MIG_NR; i++)
			tot += r->migrations_by_level[k][i];
		g_string_append_printf(s, "  at %-31s %llu\n", r->level_name[k], (unsigned long long)tot);
	}
	for (unsigned i = 0; i < 3; i++) {
		const struct ss_lb_kind_stats *k = &r->lb[i];
		char label[64];
		g_snprintf(label, sizeof label, "%s load_balance passes", lb_kind_names[i]);
		g_string_append_printf(s, "%-34s %llu (imbalanced %llu, tasks moved %llu, failed %llu, active kicks %llu)\n", label,
				       (unsigned long long)k->passes, (unsigned long long)k->imbalanced,
				       (unsigned long long)k->moved, (unsigned long long)k->failed,
				       (unsigned long long)k->active_kicks);
	}
	g_string_append_printf(s, "%-34s %llu kicks, %llu balances\n", "NOHZ idle balance", (unsigned long long)r->nohz_kicks,
			       (unsigned long long)r->nohz_balances);
	{
		double cpu_time = (double)r->nr_allowed_cpus * (double)r->duration_ns;
		uint64_t depth_tot = 0, depth_w = 0;
		for (unsigned d = 0; d < SS_RQ_DEPTH_MAX; d++) {
			depth_tot += r->rq_depth_ns[d];
			depth_w += (uint64_t)d * r->rq_depth_ns[d];
		}
		g_string_append_printf(s, "%-34s %.3f ms LLC (%s), %.3f ms node (%s) of CPU time\n",
				       "idle with work elsewhere", (double)r->idle_work_llc_ns / 1e6,
				       tpct(b[0], cpu_time > 0 ? 100.0 * (double)r->idle_work_llc_ns / cpu_time : NAN),
				       (double)r->idle_work_node_ns / 1e6,
				       tpct(b[1], cpu_time > 0 ? 100.0 * (double)r->idle_work_node_ns / cpu_time : NAN));
		g_string_append_printf(s, "%-34s %.3f ms (%s) of CPU time\n", "  machine-wide, by task affinity",
				       (double)r->idle_work_allowed_ns / 1e6, tpct(b[0], ss_results_idle_with_work_allowed_pct(r)));
		if (r->bursts)
			g_string_append_printf(s, "%-34s %llu: idle with work %s of CPU time in the %.3f ms after, idle at +1 ms %s, "
					       "makespan %s us (%llu completed)\n", "bursts", (unsigned long long)r->bursts,
					       tpct(b[0], ss_results_burst_idle_with_work_pct(r)), (double)r->burst_window_ns / 1e6,
					       tpct(b[1], ss_results_burst_idle_1ms_pct(r)),
					       tnum(b[2], 0, 1, ss_results_burst_makespan_ns(r) / 1000.0),
					       (unsigned long long)r->burst_completed);
		g_string_append_printf(s, "%-34s mean %s;", "runqueue depth (time-weighted)",
				       tnum(b[0], 0, 3, depth_tot ? (double)depth_w / (double)depth_tot : NAN));
		for (unsigned d = 0; d < SS_RQ_DEPTH_MAX; d++)
			if (r->rq_depth_ns[d])
				g_string_append_printf(s, " %u%s: %.1f%%", d, d == SS_RQ_DEPTH_MAX - 1 ? "+" : "",
						       pct(r->rq_depth_ns[d], depth_tot));
		g_string_append(s, "\n");
	}
	g_string_append_printf(s, "%-34s %llu\n", "select_idle_cpu calls", (unsigned long long)r->sic_calls);
	g_string_append_printf(s, "%-34s %s\n", "  runqueues probed per call", tnum(b[0], 0, 3, ratio(r->sic_probes, r->sic_calls)));
	g_string_append_printf(s, "%-34s %s\n", "  calls that found an idle CPU", tpct(b[0], pct(r->sic_found, r->sic_calls)));
	g_string_append_printf(s, "%-34s %llu\n", "  stopped by the scan budget", (unsigned long long)r->sic_nr_exhausted);
	g_string_append_printf(s, "%-34s %llu\n", "  skipped (nr_idle_scan == 0)", (unsigned long long)r->sic_skipped_nr0);
	if (r->sic_calls) {
		/* budget: calls found-idle% (budget = CPUs the walk may probe) */
		g_string_append_printf(s, "%-34s", "  by budget: calls found-idle");
		for (unsigned k = 0; k < SS_SIC_BUDGET_MAX + 2; k++) {
			if (!r->sic_budget_calls[k])
				continue;
			if (k == SS_SIC_BUDGET_MAX + 1)
				g_string_append(s, "  unlimited:");
			else
				g_string_append_printf(s, "  %u%s:", k, k == SS_SIC_BUDGET_MAX ? "+" : "");
			g_string_append_printf(s, " %llu %s", (unsigned long long)r->sic_budget_calls[k],
					       tpct(b[0], pct(r->sic_budget_found[k], r->sic_budget_calls[k])));
		}
		g_string_append(s, "\n");
	}
	g_string_append_printf(s, "%-34s %s", "  time per call, mean (ns)",
			       tnum(b[0], 0, 1, r->sic_time.n ? (double)r->sic_time.sum / (double)r->sic_time.n : NAN));
	if (r->sic_calls) {
		/* by walk kind: the idle-core walk (has_idle_core, unbounded) and the idle-CPU walk */
		const struct ss_log2_hist *hc = &r->sic_time_core, *hu = &r->sic_time_cpu;
		char lab[32];
		g_string_append_printf(s, "  (idle-core walk %s over %llu calls, %s probes/call; idle-CPU walk %s over %llu calls, "
				       "%s probes/call)\n", tnum(b[0], 0, 1, hc->n ? (double)hc->sum / (double)hc->n : NAN),
				       (unsigned long long)hc->n, tnum(b[1], 0, 2, ratio(r->sic_probes_core, hc->n)),
				       tnum(b[2], 0, 1, hu->n ? (double)hu->sum / (double)hu->n : NAN), (unsigned long long)hu->n,
				       tnum(b[3], 0, 2, ratio(r->sic_probes_cpu, hu->n)));
		/* the mode (compare's sic_time_mode_ns) as bpftrace labels the µs bucket */
		hist_label(lab, sizeof lab, ss_log2_hist_mode(&r->sic_time_us));
		g_string_append_printf(s, "%-34s mode %s, %s of calls in [8, 512)\n", "  time per call, us log2 buckets", lab,
				       tpct(b[0], ss_cmp_metric_value(SS_CMP_SIC_TIME_8US_512US_PCT, r)));
	} else {
		g_string_append_c(s, '\n');
	}
	g_string_append_printf(s, "%-34s %llu ns total on wakers\n", "probe cost (all SIS reads)",
			       (unsigned long long)r->scan_time_ns);
	sis_scan_text(s, r);
	{
		const struct ss_time_lost *l = &r->lost;
		double w = (double)r->duration_ns * (double)(r->nr_allowed_cpus ? r->nr_allowed_cpus : 1) / 100.0;
		g_string_append_printf(s, "%-34s probe %.3f  switch %.3f  ipi %.3f  idle-exit %.3f  refill %.3f  smt %.3f  "
				       "mem-bw %.3f  rq-lock %.3f  tick %.3f  kthread %.3f  newidle %.3f\n", "time lost, % of CPU time",
				       (double)l->probe / w, (double)l->context_switch / w, (double)l->ipi / w,
				       (double)l->idle_exit / w, (double)l->cache_refill / w, (double)l->smt / w,
				       (double)l->memory_bandwidth / w, (double)l->rq_lock / w,
				       (double)r->background.tick_ns / w, (double)r->background.kthread_ns / w,
				       (double)r->newidle_held_ns / w);
		{
			const struct ss_background_stats *bg = &r->background;
			g_string_append_printf(s, "%-34s %llu ticks on busy CPUs (%llu ns), kworker activations %llu "
					       "for %llu work items (%llu preempted at once, wakeup to run mean %s us)\n",
					       "background work", (unsigned long long)bg->ticks, (unsigned long long)bg->tick_ns,
					       (unsigned long long)bg->kthread_wakeups, (unsigned long long)bg->kthread_items,
					       (unsigned long long)bg->kthread_preempts,
					       tnum(b[0], 0, 2, bg->kthread_latency.n ? (double)bg->kthread_latency.sum / 1000.0 /
								(double)bg->kthread_latency.n : NAN));
		}
		{
			const struct ss_contention_stats *cs = &r->contention;
			uint64_t acq = 0, cont = 0, wait = 0, miss = cs->line_reads - cs->line_hits;
			for (unsigned k = 0; k < SS_LOCK_NR; k++) {
				acq += cs->lock_acquires[k];
				cont += cs->lock_contended[k];
				wait += cs->lock_wait_ns[k];
			}
			g_string_append_printf(s, "%-34s %llu reads, %s hits, transfer mean %s ns, %s of transfers queued (wait mean %s ns)\n",
					       "scheduler lines (coherence)", (unsigned long long)cs->line_reads,
					       tpct(b[0], pct(cs->line_hits, cs->line_reads)),
					       tnum(b[1], 0, 1, miss ? (double)cs->line_transfer_ns / (double)miss : NAN),
					       tpct(b[2], pct(cs->line_queued, miss)),
					       tnum(b[3], 0, 1, cs->line_queued ? (double)cs->line_queue_ns / (double)cs->line_queued : NAN));
			g_string_append_printf(s, "%-34s %llu acquisitions, %s contended, wait %llu ns (ttwu %llu/%llu, drain %llu/%llu, "
					       "schedule %llu/%llu, balance %llu/%llu, tick %llu/%llu contended/all)\n", "rq locks",
					       (unsigned long long)acq, tpct(b[0], pct(cont, acq)), (unsigned long long)wait,
					       (unsigned long long)cs->lock_contended[SS_LOCK_TTWU], (unsigned long long)cs->lock_acquires[SS_LOCK_TTWU],
					       (unsigned long long)cs->lock_contended[SS_LOCK_DRAIN], (unsigned long long)cs->lock_acquires[SS_LOCK_DRAIN],
					       (unsigned long long)cs->lock_contended[SS_LOCK_SCHEDULE], (unsigned long long)cs->lock_acquires[SS_LOCK_SCHEDULE],
					       (unsigned long long)cs->lock_contended[SS_LOCK_BALANCE], (unsigned long long)cs->lock_acquires[SS_LOCK_BALANCE],
					       (unsigned long long)cs->lock_contended[SS_LOCK_TICK], (unsigned long long)cs->lock_acquires[SS_LOCK_TICK]);
			g_string_append_printf(s, "%-34s %llu of %llu wakeups onto a CPU idle at the decision (%s)\n",
					       "wakeups stacked during their scan", (unsigned long long)cs->wakeups_stacked,
					       (unsigned long long)cs->wakeups_chose_idle, tpct(b[0], pct(cs->wakeups_stacked, cs->wakeups_chose_idle)));
		}
		g_string_append_printf(s, "%-34s", "idle periods by state");
		for (unsigned i = 0; i < r->nr_idle_states; i++)
			g_string_append_printf(s, " %s %llu", r->idle_state_name[i], (unsigned long long)r->idle_state_entries[i]);
		g_string_append_printf(s, "  (IPIs saved by polling: %llu)\n", (unsigned long long)r->ipis_saved_polling);
	}
	startup_text(s, r);
	g_string_append(s, "\nnr_idle_scan per LLC (time-weighted mean, final; mean cpu_util of the LLC at the last sample)\n");
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		const struct ss_llc_stats *ls = &r->llc[l];
		char util[16];
		if (ls->nr_samples)
			snprintf(util, sizeof util, "%4u", ls->util_series[ls->nr_samples - 1]);
		else
			snprintf(util, sizeof util, "%4s", "-");
		g_string_append_printf(s, "  llc %-3u cpus %-16s %4u CPUs  mean %s  final %4u  util %s  probes/call %s\n", l,
				       ls->cpus ? ls->cpus : "", ls->nr_cpus,
				       tnum(b[0], 7, 2, r->duration_ns ? (double)ls->nr_idle_scan_weighted / (double)r->duration_ns : NAN),
				       ls->nr_idle_scan_final, util, tnum(b[1], 0, 2, ratio(ls->sic_probes, ls->sic_calls)));
	}
	sis_scan_llc_text(s, r);
	g_string_append(s, "\n");
	hist_text(s, &r->sic_time, "nsecs (time per select_idle_cpu call)");
	/* the two walk kinds, each when it has calls and the other too (else it is the histogram above again) */
	if (r->sic_time_core.n && r->sic_time_cpu.n) {
		hist_text(s, &r->sic_time_core, "nsecs_idle_core (time per select_idle_cpu call, idle-core walk)");
		hist_text(s, &r->sic_time_cpu, "nsecs_idle_cpu (time per select_idle_cpu call, idle-CPU walk)");
	}
	if (r->sic_time_us.n)
		hist_text(s, &r->sic_time_us, "usecs (time per select_idle_cpu call, nsecs / 1000)");
	hist_text(s, &r->sis_scanned_hist, "rqs (runqueues scanned per select_idle_sibling call)");
	return g_string_free(s, FALSE);
}

bool ss_write_file_atomic(const char *path, const char *data, size_t len, GError **err)
{
	/* g_file_set_contents() writes a temporary file in the same directory,
	 * fsyncs and renames it over path. A symlink is written through (its
	 * target is replaced, not the link); a path that exists and is not a
	 * regular file (a terminal, a pipe, /dev/stdout) is written directly,
	 * since there is nothing to rename over. */
	GError *e = NULL;
	GStatBuf st;
	g_autofree char *real = NULL;
	if (!path || !*path) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "an empty result file name");
		return false;
	}
	if (g_stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		FILE *f = fopen(path, "w");
		bool ok = f && fwrite(data, 1, len, f) == len;
		int errnum = errno;
		if (f && fclose(f) != 0) {
			if (ok)
				errnum = errno;
			ok = false;
		}
		if (!ok) {
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot write the result file (%s)", path,
				    g_strerror(errnum ? errnum : EIO));
			return false;
		}
		return true;
	}
	if (g_file_test(path, G_FILE_TEST_IS_SYMLINK)) {
		/* write where the link points, even if nothing is there yet */
		if (!(real = realpath(path, NULL))) {
			g_autofree char *target = g_file_read_link(path, NULL);
			g_autofree char *dir = g_path_get_dirname(path);
			if (target)
				real = g_path_is_absolute(target) ? g_strdup(target) : g_build_filename(dir, target, NULL);
		}
		if (real)
			path = real;
	}
	if (!g_file_set_contents(path, data, (gssize)len, &e)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot write the result file (%s)", path, e->message);
		g_error_free(e);
		return false;
	}
	return true;
}

/* "50%,100" -> "50%,100%": every bare number above 1 of a load spec with a '%' added */
char *ss_load_suggest_pct(const char *spec)
{
	GString *o = g_string_new(NULL);
	const char *p = spec;

	while (*p) {
		if (*p == '.' && p[1] == '.') {   /* the ".." of a range */
			g_string_append(o, "..");
			p += 2;
			continue;
		}
		if (!g_ascii_isdigit(*p) && *p != '.') {
			g_string_append_c(o, *p++);
			continue;
		}
		const char *b = p;
		while (g_ascii_isdigit(*p) || (*p == '.' && p[1] != '.'))
			p++;
		g_string_append_len(o, b, p - b);
		g_autofree char *num = g_strndup(b, (gsize)(p - b));
		if (*p != '%' && g_ascii_strtod(num, NULL) > 1.0)
			g_string_append_c(o, '%');
	}
	return g_string_free(o, FALSE);
}

bool ss_parse_load(const char *s, unsigned *load_pct_x100, GError **err)
{
	/* a plain decimal ("25%", "12.5%", "0.5"): no signs, exponents or hex */
	unsigned digits = 0, dots = 0;
	size_t n;
	double v;
	if (!s || !*s)
		goto bad;
	n = strlen(s);
	for (size_t i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9')
			digits++;
		else if (s[i] == '.' && !dots)
			dots++;
		else if (s[i] == '%' && i == n - 1 && i > 0)
			;
		else
			goto bad;
	}
	if (!digits)
		goto bad;
	v = g_ascii_strtod(s, NULL);
	if (s[n - 1] != '%' && v > 1.0) {
		/*
		 * A bare number is a fraction (0.5 = 50 %). Above 1 it is almost
		 * always a percentage without its '%' (a kernel developer's "50"):
		 * refused rather than run at 100 times the load.
		 */
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "a bare number is a fraction of one instance per CPU (0.5 = 50%%), at most 1 (did you mean %s%%?)", s);
		return false;
	}
	v *= s[n - 1] == '%' ? 100.0 : 10000.0;
	/* 0.01 % .. 10000 % */
	if (!(v >= 1.0) || v > 1000000.0)
		goto bad;
	*load_pct_x100 = (unsigned)(v + 0.5);
	return true;
bad:
	g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
		    "expected a percentage like 25%% or 200%% (0.01%%..10000%%), or a fraction like 0.5 (0.0001..1)");
	return false;
}

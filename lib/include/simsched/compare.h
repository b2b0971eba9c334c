/*
 * simsched/compare.h — A/B comparisons of policies across loads and seeds,
 * reported as mmtests does (gormanm/mmtests Compare.pm; reference
 * topologies-workloads.md Part C): a row per load, a column per policy, the
 * first column the baseline.
 *
 * Runs of different policies with the same seed see the same per-task random
 * streams, so a policy's effect is measured on paired samples: significance
 * is a two-sided paired t-test on the per-seed differences at alpha 0.05
 * (docs/compare.md).
 */
#ifndef SIMSCHED_COMPARE_H
#define SIMSCHED_COMPARE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/sim.h"

/**
 * The figures a comparison can be made on (--metric); the table in compare.c
 * gives each its name, unit, direction and value. Append new figures before
 * SS_CMP_NR_METRICS (sweep records store every metric by name, so the order
 * is not part of any file format).
 */
enum ss_cmp_metric {
	SS_CMP_THROUGHPUT,      /* transactions/s, higher is better (Hmean) */
	SS_CMP_LATENCY_P50,     /* wakeup latency p50, ns, lower is better (Amean) */
	SS_CMP_LATENCY_P99,     /* wakeup latency p99, ns, lower is better */
	SS_CMP_TXN_LATENCY_P99, /* transaction latency p99, ns, lower is better */
	SS_CMP_PROBES_PER_CALL, /* runqueues probed per select_idle_cpu call, lower is better */
	SS_CMP_RQS_PER_WAKEUP,  /* runqueues read per select_idle_sibling call, lower is better */
	SS_CMP_FOUND_PCT,       /* % of select_idle_cpu calls that found an idle CPU, higher is better */
	SS_CMP_MIGRATIONS,      /* wakeup migrations per second, lower is better */
	SS_CMP_BUSY_PCT,        /* CPU busy %, higher is better */
	SS_CMP_SIS_SUCCESS_PCT, /* % of select_idle_sibling calls that chose an idle CPU, higher is better */
	SS_CMP_IDLE_WITH_WORK_PCT, /* % of CPU time idle while a task waited in the same LLC, lower is better */
	SS_CMP_ALL_MIGRATIONS,  /* migrations of every cause (wakeup, fork, balancer) per second, lower is better */
	SS_CMP_WORKLOAD,        /* the workload's own figure (file key metric): name, unit, direction from it */
	SS_CMP_FULL_MASK_FAIL_PCT, /* % of select_idle_sibling calls whose search walked its whole mask, none idle */
	SS_CMP_IDLE_WITH_WORK_ALLOWED_PCT, /* % of CPU time idle while a task allowed there waited elsewhere */
	SS_CMP_BURST_IDLE_WITH_WORK_PCT,   /* the same within the windows after bursts */
	SS_CMP_BURST_IDLE_1MS_PCT,         /* mean % of CPUs idle 1 ms after a burst while some rq held >= 2 */
	SS_CMP_BURST_MAKESPAN_NS,          /* mean burst makespan, ns */
	SS_CMP_SIC_TIME_MODE_NS,           /* mode of the time per select_idle_cpu call in µs log2 buckets: its lower bound, ns */
	SS_CMP_SIC_TIME_8US_512US_PCT,     /* % of select_idle_cpu calls that took [8 µs, 512 µs) */
	SS_CMP_NR_METRICS
};

/** A metric's description: static strings; value() reads a run's results. */
struct ss_cmp_metric_info {
	const char *name, *unit;
	bool higher_is_better;
	double (*value)(const struct ss_results *r);   /* finite, or NAN: no value in that run (no samples, a 0 denominator) */
	const char *doc;
	/* the result schema version (SS_RESULTS_SCHEMA_VERSION) since which the figure has this meaning:
	 * report refuses to put records of versions before and since it in one table */
	unsigned schema;
};

/** The table entry of m; NULL when m is out of range. */
const struct ss_cmp_metric_info *ss_cmp_metric_info(enum ss_cmp_metric m);

/** Parse a metric name ("throughput", "latency_p99", ...); false + *err listing the valid ones. */
bool ss_cmp_metric_parse(const char *name, enum ss_cmp_metric *m, GError **err);
const char *ss_cmp_metric_name(enum ss_cmp_metric m);
bool ss_cmp_metric_higher_is_better(enum ss_cmp_metric m);
/** The metric's value in a run's results (units as above); NAN when the run has none (missing, never 0). */
double ss_cmp_metric_value(enum ss_cmp_metric m, const struct ss_results *r);

/** Most loads one comparison (or one sweep spec's load range) may ask for. */
#define SS_CMP_MAX_LOADS 1000u

/**
 * Parse loads: a list "25%,50%,100%" or a range "25%..200%/25%" (step
 * required, inclusive), at most SS_CMP_MAX_LOADS loads, each once ("50%"
 * and "0.5" are the same load). Returns a newly allocated array of
 * percent × 100 (g_free) and its length, or NULL + *err (SS_ERROR_USAGE,
 * naming the limit and the count asked, or the load given twice).
 */
unsigned *ss_cmp_parse_loads(const char *spec, unsigned *n, GError **err);

/** What to compare. The base config's policy and load are replaced per point. */
/** Points (loads × columns × seeds) a comparison may have: 10^6 (more is a sweep's work: shards, --resume). */
#define SS_CMP_MAX_POINTS 1000000u

struct ss_compare_spec {
	struct ss_run_config base;     /* topology, workload, params, duration, warmup, nodes, features */
	const char *const *policies;   /* nr_policies names; the first is the baseline */
	unsigned nr_policies;
	/*
	 * kernels as a dimension (--kernels): nr_kernels versions; 0 = only
	 * base.kernel. With more than one, the table has a column per policy ×
	 * kernel, policy-major, labelled POLICY@KERNEL ("sis_prop@5.17"); the
	 * first column is the baseline. A policy that does not run on a kernel
	 * fails the comparison before any run (SS_ERROR_USAGE).
	 */
	const enum ss_kernel *kernels;
	unsigned nr_kernels;
	const unsigned *loads;         /* percent × 100 */
	unsigned nr_loads;
	unsigned nr_seeds;             /* seeds are base.seed, base.seed + 1, ... */
	unsigned jobs;                 /* worker threads (GThreadPool); 0 = number of cores */
	enum ss_cmp_metric metric;
	/*
	 * optional --set assignments ("SECTION.KEY=VALUE"), applied over
	 * base.params for each point with that point's policy, so policy.* keys
	 * resolve against each policy's own parameter table (a point whose policy
	 * rejects one fails the comparison)
	 */
	const char *const *sets;
	unsigned nr_sets;
	/* optional progress callback, called from the thread that finished a point */
	void (*progress)(void *ctx, unsigned done, unsigned total);
	void *progress_ctx;
};

/**
 * One cell: a policy at a load over the seeds. A seed whose run has no
 * value for the metric holds NAN; a cell with any such seed is missing:
 * mean, stddev, cov_pct and diff_pct are NAN (rendered "-" / null, with a
 * note), never compared.
 */
struct ss_cmp_cell {
	double *values;       /* nr_seeds values of the metric, in seed order; NAN = no value */
	double mean;          /* Hmean (higher is better) or Amean; NAN if the cell is missing */
	double stddev;        /* sample standard deviation of the values */
	double cov_pct;       /* stddev / arithmetic mean × 100 */
	double diff_pct;      /* against the baseline, positive = better; 0 for the baseline; NAN when
				 this cell or the baseline is missing, or the baseline's mean is 0 and this one's not */
	bool significant;     /* paired t-test on per-seed differences, alpha 0.05, two-sided; with
				 ss_compare_result.significance_by_interval the --precision rule instead */
	unsigned nr_missing;  /* seeds without a value */
	/* --precision (paired): the widest 95 % half-width of the workload figure's Δ against the
	 * baseline over the seeds, in percentage points (NAN for the baseline or without), and the
	 * seeds whose window reached its cap first */
	double delta_half_width_pct;
	unsigned nr_capped;
};

struct ss_compare_result {
	enum ss_cmp_metric metric;
	char *metric_name, *metric_unit;   /* the table's, or the workload's for SS_CMP_WORKLOAD */
	bool higher_is_better;
	unsigned nr_policies, nr_loads, nr_seeds;
	char **policies;      /* copies */
	unsigned *loads;
	struct ss_cmp_cell *cells;   /* [load][policy], row-major */
	/* runs that deadlocked (ss_results.deadlocked: their figures cover a window where nothing ran)
	 * and the first one's warning, prefixed by its point; 0 / NULL for tables built by hand */
	unsigned nr_deadlocked;
	char *deadlock_first;
	double precision;     /* the run length's target (--precision; 0 = fixed durations) */
	/*
	 * true when `significant` and delta_half_width_pct come from the paired
	 * run lengths: --precision with two columns or more and the workload's
	 * own figure as the metric (the figure the run lengths watch). The cell
	 * is significant when every seed's 95 % interval of the paired Δ
	 * excludes 0, all on one side. false: the paired t-test, also for
	 * another --metric under --precision (its intervals are not known).
	 */
	bool significance_by_interval;
};

/**
 * Run every point (policies × loads × seeds) on a thread pool and summarise.
 * The result does not depend on `jobs`. NULL + *err if any run fails (the
 * first failure in point order is reported), or SS_ERROR_USAGE for a policy
 * or a load given twice.
 */
struct ss_compare_result *ss_compare_run(const struct ss_compare_spec *spec, GError **err);
void ss_compare_result_free(struct ss_compare_result *r);

/**
 * An empty result to fill (cells[l * nr_policies + p].values[k], then
 * ss_compare_summarise): strings and loads are copied; every cell gets a
 * zeroed array of nr_seeds values; name, unit and direction are the metric
 * table's (for SS_CMP_WORKLOAD set them with ss_compare_result_set_metric).
 * Free with ss_compare_result_free.
 */
struct ss_compare_result *ss_compare_result_new(enum ss_cmp_metric metric, const char *const *policies,
						 unsigned nr_policies, const unsigned *loads, unsigned nr_loads,
						 unsigned nr_seeds);

/** Name, unit (copied) and direction of the figure compared (the workload's for SS_CMP_WORKLOAD). */
void ss_compare_result_set_metric(struct ss_compare_result *r, const char *name, const char *unit,
				  bool higher_is_better);

/** Fill the summary fields of every cell from their values (also for constructed samples). */
void ss_compare_summarise(struct ss_compare_result *r);

/** Two-sided paired t-test at alpha 0.05 on a[i] - b[i], n pairs. false if n < 2. */
bool ss_paired_t_significant(const double *a, const double *b, unsigned n);

/** Render: "text" (mmtests style), "markdown", "csv" or "json". NULL + *err for another format. g_free. */
char *ss_compare_render(const struct ss_compare_result *r, const char *format, GError **err);

#endif

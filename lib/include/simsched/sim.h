/*
 * simsched/sim.h — run one simulation.
 *
 * A run = machine (ss_topology) × workload at one load × wake-placement
 * policy × parameters × seed. It is deterministic: same inputs and seed give
 * the same ss_results, bit for bit, whatever thread runs it.
 */
#ifndef SIMSCHED_SIM_H
#define SIMSCHED_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/features.h"
#include "simsched/params.h"
#include "simsched/stats.h"
#include "simsched/topology.h"
#include "simsched/workload.h"

struct ss_run_config {
	const struct ss_topology *topo;   /* borrowed */
	const struct ss_workload *wl;     /* borrowed */
	const char *policy;               /* a name from ss_policy_find(); NULL = the kernel's default (sis_util on
	                                     v6.6, sis_prop on v5.17) */
	enum ss_kernel kernel;            /* the kernel modelled (--kernel); 0 = SS_KERNEL_6_6 */
	const char *sched_features;       /* applied after the policy preset, NULL = none */
	struct ss_params params;          /* from ss_params_defaults + --set */
	unsigned load_pct_x100;           /* 100 % = 10000 */
	uint64_t seed;
	uint64_t duration_ns;             /* measured window */
	uint64_t warmup_ns;               /* simulated before the window; statistics reset at its end */
	uint64_t sample_ns;               /* interval of the time series (nr_idle_scan, util); 0 = 100 ms */
	/**
	 * Run length by statistics (simsched/runlen.h). warmup_auto: the warmup
	 * ends where MSER-5 finds the workload's figure steady (and, under
	 * SIS_UTIL, every LLC's nr_idle_scan written); warmup_ns is then its cap.
	 * precision > 0: the window runs until the 95 % batch-means interval of
	 * the figure is within ±precision × its mean (0.01 = ±1 %), duration_ns
	 * is then its cap. batch_ns: their observation interval (0 = 1 ms). All
	 * 0: a fixed warmup_ns and duration_ns, as before these existed.
	 */
	bool warmup_auto;
	double precision;
	uint64_t batch_ns;
	/**
	 * Optional: called every 2^18 events with the simulated time (ns), the
	 * time the run ends at when fixed (warmup + duration; the caps with
	 * warmup_auto/precision) and the events so far, from the thread that
	 * runs it. For a person watching (simsched run on a terminal); it must
	 * not call back into the library. Changes no result.
	 */
	void (*progress)(void *ctx, uint64_t now_ns, uint64_t end_ns, uint64_t events);
	void *progress_ctx;
	const char *nodes;                /* NUMA node list like numactl -N ("0-1"), NULL = all */
	/**
	 * Optional: called for every action a task's program takes, at the
	 * simulated time (ns) it takes it, with the task index of the plan
	 * (instance-major, docs/workloads.md). For tests and debugging; it must
	 * not call back into the library.
	 */
	void (*trace)(void *ctx, uint64_t now_ns, unsigned task, const struct ss_wl_action *a);
	void *trace_ctx;
	/**
	 * Optional: called whenever a task changes CPU (set_task_cpu), at the
	 * simulated time (ns), with the task index, both CPUs and the cause
	 * (enum ss_mig_cause, stats.h), during warmup too. ctx is trace_ctx.
	 * For tests and debugging; it must not call back into the library.
	 */
	void (*on_migrate)(void *ctx, uint64_t now_ns, unsigned task, unsigned from_cpu, unsigned to_cpu, unsigned cause);
	/**
	 * Optional: write the run as a kernel trace (simsched/ftrace.h); NULL =
	 * none. Borrowed; one trace records one run. Tracing changes no result.
	 */
	struct ss_ftrace *ftrace;
};

/**
 * Run. Returns results (caller frees with ss_results_free) or NULL + *err
 * (SS_ERROR_USAGE for a bad policy/feature/node list, SS_ERROR_INVALID for a
 * workload that cannot run on the machine).
 */
struct ss_results *ss_simulate(const struct ss_run_config *cfg, GError **err);

/**
 * Load a policy plugin (docs/policies.md, simsched/policy.h) with GModule
 * and register its policy for ss_policy_find()/ss_simulate() under the name
 * its ops table gives, returned in *name (owned by the plugin). The module
 * stays loaded until the process exits; loading the same file again returns
 * the same name. Call before starting runs (not concurrently with them).
 * Errors (SS_ERROR_IO for a missing/unreadable file, SS_ERROR_INVALID
 * otherwise), each with its own message: no such file; not a shared object
 * (the loader's reason); no SS_POLICY_PLUGIN_SYMBOL; wrong ABI version; a bad
 * ops table (name, hooks, parameters, features, a name already taken).
 */
bool ss_policy_plugin_load(const char *path, const char **name, GError **err);

/**
 * Register a policy compiled into the program (an ops table of
 * simsched/policy.h, which must outlive all runs) under ops->name, with the
 * checks of ss_policy_plugin_load(). Registering the same table again is a
 * no-op. false + *err (SS_ERROR_INVALID) on a bad table or a name taken.
 */
struct ss_policy_ops;
bool ss_policy_register(const struct ss_policy_ops *ops, GError **err);

/**
 * The default policy of kernel k (static): "sis_util" on v6.6, "sis_prop" on
 * v5.17 — their features.h defaults (SIS_UTIL from v6.0, SIS_PROP before).
 */
const char *ss_kernel_default_policy(enum ss_kernel k);

/** Transactions per simulated second of the measured window; NAN for an empty window. */
double ss_results_throughput(const struct ss_results *r);
/**
 * The workload's figure in its metric unit (docs/workloads.md "metric"):
 * transactions/s; MB/s (transactions × bytes_per_transaction, or memory
 * traffic of bandwidth-bound tasks, per second of the window); s (time until
 * every task exited); us (wakeup-latency percentile of the metric's roles).
 * NAN when the run has no value for it (a percentile of no wakeups): no
 * value, which the renderers print as null / "-", never as 0.
 */
double ss_results_metric_value(const struct ss_results *r);
/**
 * Σ busy time / (allowed CPUs × window) × 100, in 0..100: the share of the
 * CPUs the workload may use (online CPUs within --nodes; r->nr_allowed_cpus)
 * that was busy. Task affinity (a role's cpus) does not shrink the
 * denominator. NAN when the window is empty.
 */
double ss_results_busy_pct(const struct ss_results *r);
/** The same over every online CPU of the machine (cpu.busy_pct_machine); equal without --nodes. */
double ss_results_busy_pct_machine(const struct ss_results *r);
/**
 * Affinity-aware idle with work elsewhere (idle_with_work_elsewhere.allowed_pct):
 * idle_work_allowed_ns / (allowed CPUs × window) × 100, 0..100; NAN for an
 * empty window.
 */
double ss_results_idle_with_work_allowed_pct(const struct ss_results *r);
/**
 * The burst figures (docs/output.md "bursts"), NAN without bursts (or
 * without a sample / a completed burst): the affinity-aware idle with work
 * elsewhere within the burst windows, % of allowed CPUs × their union; the
 * mean share (%) of allowed CPUs idle 1 ms after a burst while some rq held
 * >= 2 tasks; the mean makespan in ns.
 */
double ss_results_burst_idle_with_work_pct(const struct ss_results *r);
double ss_results_burst_idle_1ms_pct(const struct ss_results *r);
double ss_results_burst_makespan_ns(const struct ss_results *r);

/**
 * Version of the layout of the run JSON (top-level "schema_version") and of
 * sweep records: 2 since cpu.busy_pct is over the allowed CPUs and figures
 * without samples are null (docs/output.md, "Schema versions"); files
 * without the key are version 1.
 */
#define SS_RESULTS_SCHEMA_VERSION 2

/** Results as JSON (stable keys: docs/output.md) / as the text report. g_free. */
char *ss_results_to_json(const struct ss_results *r);
char *ss_results_to_text(const struct ss_results *r);

/**
 * Write data to path through a temporary file in the same directory and
 * rename(2): a reader never sees a partial file. false + *err on failure
 * (the temporary file is removed).
 */
bool ss_write_file_atomic(const char *path, const char *data, size_t len, GError **err);

/**
 * The largest seed any command takes (run, compare, sweep, pelt): 2^53 - 1,
 * because every result file holds the seed as a JSON number, which is exact
 * only below 2^53 (docs/output.md "Seeds").
 */
#define SS_SEED_MAX ((UINT64_C(1) << 53) - 1)

/**
 * Parse a load into percent × 100: a percentage "25%", "200%", "12.5%"
 * (0.01 %..10000 %) or a fraction 0 < F <= 1 ("0.5" = 50 %, "1" = 100 %).
 * A bare number above 1 is refused (a "50" meant as 50 % would run 5000 %).
 * false + *err (SS_ERROR_USAGE; may be NULL) with what is wrong, without the
 * option's name: "a bare number is a fraction ..., at most 1 (did you mean
 * 50%?)" or "expected a percentage like ...".
 */
bool ss_parse_load(const char *s, unsigned *load_pct_x100, GError **err);

/** The load spec with a '%' after every bare number above 1 ("50,100" -> "50%,100%"), for messages. g_free. */
char *ss_load_suggest_pct(const char *spec);

#endif

/*
 * simsched/stats.h — what a run measures: one struct the renderers read.
 * Counters are integers; rates and means are computed by the renderers.
 * All times in ns of simulated time; figures are over the measured window
 * (after --warmup) unless a field says otherwise.
 */
#ifndef SIMSCHED_STATS_H
#define SIMSCHED_STATS_H

#include <stdbool.h>
#include <stdint.h>

/** log2 histogram like bpftrace's hist(): bucket 0 holds 0, bucket k ≥ 1 holds [2^(k-1), 2^k). */
#define SS_LOG2_BUCKETS 65
struct ss_log2_hist {
	uint64_t count[SS_LOG2_BUCKETS];
	uint64_t n, sum;
};

/**
 * Latency histogram for percentiles: log2 major buckets each split in
 * SS_LAT_SUB linear sub-buckets (relative error ≤ 1/SS_LAT_SUB); values in ns.
 */
#define SS_LAT_SUB 32
#define SS_LAT_BUCKETS (64 * SS_LAT_SUB)
struct ss_lat_hist {
	uint64_t count[SS_LAT_BUCKETS];
	uint64_t n, sum, max;
};

void ss_log2_hist_add(struct ss_log2_hist *h, uint64_t v);
/** The fullest bucket of h (the lowest of equal ones), SS_LOG2_BUCKETS if h is empty. */
unsigned ss_log2_hist_mode(const struct ss_log2_hist *h);
void ss_lat_hist_add(struct ss_lat_hist *h, uint64_t v);
/** Value at quantile q in [0,1]: the upper bound of the sub-bucket holding it (ns); 0 if empty. */
uint64_t ss_lat_hist_quantile(const struct ss_lat_hist *h, double q);

/** Per-CPU figures. */
struct ss_cpu_stats {
	uint64_t busy_ns;          /* time running a task or switching (not idle) */
	uint64_t util_avg;         /* cfs_rq util_avg as stored at the end (0..1024) */
	uint64_t nr_switches;      /* context switches */
	uint64_t wakeups;          /* tasks woken onto this CPU */
	uint64_t nr_running_ns;    /* Σ nr_running × ns (time-weighted mean runqueue depth numerator) */
	uint64_t probed;           /* times its rq was probed by a wakeup scan (ss_charge_probe); per_cpu[].rqs_probed */
	/* its rq lock (cost.rq_lock_ns): acquisitions, those that waited, and the waits, ns */
	uint64_t rq_lock_acquires, rq_lock_contended, rq_lock_wait_ns;
};

/**
 * select_idle_sibling() scan statistics, in the terms of the SIS schedstats
 * (Mel Gorman, "sched/fair: Track efficiency of select_idle_sibling",
 * LKML 2020; mmtests). Formulas of the derived rates: docs/output.md.
 */
struct ss_sis_stats {
	uint64_t calls;            /* select_idle_sibling() calls */
	uint64_t fast;             /* answered by the fast path: target, prev or recent_used_cpu idle */
	uint64_t domain_searches;  /* calls past the fast path into sd_llc (select_idle_smt / select_idle_cpu) */
	uint64_t scanned;          /* runqueues read by the calls; each fast-path check counts one */
	uint64_t domain_scanned;   /* of those, read by domain searches */
	uint64_t failed;           /* calls whose answer is a CPU that is not idle (available_idle_cpu() false) */
	uint64_t domain_failed;    /* of those, calls that made a domain search */
	uint64_t core_searches;    /* domain searches with has_idle_cores set (the select_idle_core() walk) */
	uint64_t walked_all;       /* failed domain searches whose walk visited its whole mask (no budget stop) */
};

/** Per-LLC figures (one per sd_llc_shared). */
struct ss_llc_stats {
	unsigned first_cpu, nr_cpus;
	char *cpus;                      /* the LLC's CPUs as a cpulist ("0-19,40-59") */
	uint64_t nr_idle_scan_weighted;  /* Σ nr_idle_scan × ns (time-weighted mean numerator) */
	uint64_t sic_calls, sic_probes, sic_found;
	unsigned nr_idle_scan_final;
	unsigned nr_samples;             /* series length */
	uint16_t *nr_idle_scan_series;   /* nr_samples values, one per sample interval */
	uint16_t *util_series;           /* mean cpu_util of the LLC per sample, 0..1024 */
	uint64_t nr_idle_scan_writes;    /* times update_idle_cpu_scan changed the value */
	struct ss_sis_stats sis;         /* select_idle_sibling() calls whose target is in this LLC */
};

/** Where select_idle_sibling() found its answer. */
enum ss_sis_outcome {
	SS_SIS_TARGET, SS_SIS_PREV, SS_SIS_RECENT, SS_SIS_SMT, SS_SIS_IDLE_CPU, SS_SIS_FALLBACK, SS_SIS_NR
};

/** Why a task changed CPU (set_task_cpu callers). */
enum ss_mig_cause {
	SS_MIG_WAKEUP,     /* try_to_wake_up() placed it elsewhere */
	SS_MIG_PERIODIC,   /* load_balance() from the tick of a busy CPU (CPU_NOT_IDLE) */
	SS_MIG_NEWIDLE,    /* newidle_balance() (CPU_NEWLY_IDLE) */
	SS_MIG_NOHZ,       /* NOHZ idle balance on behalf of idle CPUs (CPU_IDLE) */
	SS_MIG_ACTIVE,     /* active_load_balance_cpu_stop(): the stopper pushed a running task */
	SS_MIG_AFFINITY,   /* sched_setaffinity() left the task's CPU out of its mask: migration_cpu_stop() */
	SS_MIG_EXEC,       /* sched_exec() chose another CPU at execve(): migration_cpu_stop() */
	SS_MIG_NR
};

/** Domain levels that migration counts are kept for: SMT, CLS, MC, DIE/PKG, NODE/NUMA levels. */
#define SS_MAX_LEVEL_KEYS 20
/** Runqueue depth histogram: nr_running 0..SS_RQ_DEPTH_MAX-1, last bucket ≥ SS_RQ_DEPTH_MAX-1. */
#define SS_RQ_DEPTH_MAX 65

/** load_balance() figures of one kind of pass (periodic, newidle, nohz). */
struct ss_lb_kind_stats {
	uint64_t passes;       /* load_balance() calls that should_we_balance() let through */
	uint64_t balanced;     /* find_busiest_group() found no imbalance */
	uint64_t imbalanced;   /* it found one (a busiest group with env->imbalance > 0) */
	uint64_t no_busiest_rq;/* … but find_busiest_queue() found no runqueue */
	uint64_t moved;        /* tasks detached and attached by detach_tasks() */
	uint64_t failed;       /* imbalance found, nothing moved (nr_balance_failed++ unless newidle) */
	uint64_t all_pinned;   /* passes that ended with LBF_ALL_PINNED */
	uint64_t active_kicks; /* stopper works queued (need_active_balance) */
	uint64_t cost_ns;      /* modelled time of the passes (balance.lb_pass_ns + rq reads) */
};
/**
 * Simulated time lost to each modelled cost over the measured window, ns
 * (docs/model.md "Costs"; each is 0 when its cost parameter is 0).
 */
struct ss_time_lost {
	uint64_t probe;             /* rq probes of wake placement, charged to the waker (= scan_time_ns) */
	uint64_t context_switch;    /* cost.context_switch_ns per switch */
	uint64_t ipi;               /* wakeup, reschedule and NOHZ-kick IPI delivery */
	uint64_t idle_exit;         /* exit latency of the idle state a woken CPU was in */
	uint64_t cache_refill;      /* extra run time after a migration (working set × refill cost) */
	uint64_t smt;               /* running slower while SMT siblings were busy */
	uint64_t memory_bandwidth;  /* running slower while the home node's bandwidth was oversubscribed */
	uint64_t rq_lock;           /* wakers waiting for a remote rq lock held by other wakers */
};

/** Takers of a rq lock (struct ss_contention_stats). */
enum ss_lock_taker {
	SS_LOCK_TTWU,       /* a remote direct enqueue: ttwu_queue() -> rq_lock(target) */
	SS_LOCK_DRAIN,      /* the target draining its wake list: sched_ttwu_pending() */
	SS_LOCK_SCHEDULE,   /* the owner's __schedule() */
	SS_LOCK_BALANCE,    /* load_balance()'s detach_tasks() under the busiest rq's lock */
	SS_LOCK_TICK,       /* the tick's scheduler_tick() under its own rq's lock */
	SS_LOCK_NR
};

/**
 * Contention figures over the measured window (docs/model.md "Contention",
 * docs/output.md "contention"): the coherence of scheduler lines
 * (cost.coherence), rq locks (cost.rq_lock_ns) and wakeups that stacked
 * on a CPU another wakeup took during their scan (cost.claim_after_scan).
 */
struct ss_contention_stats {
	uint64_t line_reads;         /* reads through the line model: rq probes and sd_llc_shared reads */
	uint64_t line_reads_llc;     /* of those, sd_llc_shared reads */
	uint64_t line_hits;          /* reads of a line still valid in the reader's cache (cost.line_cached_ns) */
	uint64_t line_transfer_ns;   /* Σ uncontended transfer latency of the other reads, ns */
	uint64_t line_queued;        /* reads that waited at the line's home behind other transfers */
	uint64_t line_queue_ns;      /* Σ of those waits, ns (a part of time_lost.probe) */
	uint64_t lock_acquires[SS_LOCK_NR], lock_contended[SS_LOCK_NR], lock_wait_ns[SS_LOCK_NR];
	uint64_t wakeups_chose_idle; /* wakeups whose chosen CPU was idle at the decision */
	uint64_t wakeups_stacked;    /* of those, enqueued on a CPU that another wakeup, whose scan also found it idle, took
	                                between this one's decision and its enqueue */
};

/*
 * Start-up figures (docs/output.md "startup"): how the run starts, from t = 0
 * over its first stats.startup_window_ns (default 100 ms), whatever the
 * measured window (--warmup) is. The window is cut in SS_STARTUP_SLICES
 * slices; slice k covers [ss_startup_slice_start(W, k), ss_startup_slice_start(W, k + 1)).
 */
#define SS_STARTUP_SLICES 10

/** Start of start-up slice k (0..SS_STARTUP_SLICES) of a window of window_ns: k × window_ns / SS_STARTUP_SLICES, rounded down, ns from t = 0. */
static inline uint64_t ss_startup_slice_start(uint64_t window_ns, unsigned k)
{
	return (uint64_t)k * window_ns / SS_STARTUP_SLICES;
}

/** One CPU's start-up figures over [0, ss_startup_stats.end_ns). */
struct ss_startup_cpu {
	uint64_t busy_ns;          /* time with a task running (curr != NULL), as ss_cpu_stats.busy_ns, ns */
	uint64_t nr_running_ns;    /* Σ nr_running × ns (cfs nr_running, curr included): the time-weighted mean's numerator */
	unsigned nr_running_max;   /* the largest nr_running the rq reached before window_ns (by the run's end if earlier), tasks */
	bool allowed;              /* the CPU is one the workload may use (online, within --nodes); only those hold tasks */
};

struct ss_startup_stats {
	uint64_t window_ns;        /* stats.startup_window_ns, ns */
	uint64_t end_ns;           /* min(window_ns, the run's end): the figures cover [0, end_ns), ns from t = 0 */
	/* per slice (SS_STARTUP_SLICES), Σ over CPUs within the slice's part of [0, end_ns) */
	uint64_t slice_busy_ns[SS_STARTUP_SLICES];        /* busy time, CPU-ns */
	uint64_t slice_nr_running_ns[SS_STARTUP_SLICES];  /* nr_running × ns */
	struct ss_startup_cpu *cpu;                       /* nr_cpus; owned */
};

#define SS_STATS_IDLE_STATES 8
/** select_idle_cpu budgets counted one by one (sis.by_budget); larger ones share the last bucket. */
#define SS_SIC_BUDGET_MAX 256

struct ss_results {
	/* the run */
	char *topology, *topology_file, *workload, *workload_file, *policy, *features;
	unsigned kernel;                 /* enum ss_kernel of the run */
	const char *policy_base;         /* static: the kernel the policy is native to or a patch against */
	uint64_t seed, duration_ns, warmup_ns, sample_ns;
	unsigned load_pct_x100, nr_cpus, nr_allowed_cpus, nr_tasks, nr_instances, nr_llcs;
	/* Added (offline CPUs): online CPUs (nr_cpus if none is offline; nr_cpus is nr_cpu_ids) and
	 * the offline ones as a cpulist (NULL if none; owned) */
	unsigned nr_online_cpus;
	char *offline_cpus;
	bool *cpu_offline;               /* nr_cpus flags, NULL if no CPU is offline; owned */
	char *instance_unit, *metric_name, *metric_unit;
	int higher_is_better;
	/* engine */
	uint64_t events;                 /* events processed over the whole run (incl. warmup) */
	/* workload figures */
	uint64_t transactions;
	int measure;                     /* enum ss_wl_measure: how the metric's value is computed */
	uint64_t bytes_per_txn;          /* SS_MEASURE_TXN_BYTES */
	unsigned percentile_x10;         /* SS_MEASURE_WAKEUP_PCT */
	uint64_t mem_traffic_bytes;      /* Σ over completed bursts: work ns × memory_bandwidth MB/s / 1000 */
	uint64_t finish_ns;              /* SS_MEASURE_FINISH: when the last task exited, from the start */
	uint64_t spawns;                 /* tasks forked by spawn statements */
	uint64_t yields;                 /* sched_yield() calls (yield statements; schedstat rq->yld_count) */
	struct ss_lat_hist metric_latency;   /* wakeup latency of the metric's roles, ns */
	struct ss_lat_hist wakeup_latency;   /* wake to first run, ns */
	struct ss_lat_hist txn_latency;      /* transaction begin→end, ns */
	uint64_t wakeups, migrations, migrations_llc, migrations_node, ipis, context_switches;
	/* select_idle_sibling / select_idle_cpu */
	uint64_t sis_calls, sis_outcome[SS_SIS_NR];
	uint64_t sic_calls, sic_probes, sic_found, sic_nr_exhausted, sic_skipped_nr0;
	/* select_idle_cpu calls by the budget in force (CPUs its walk may probe): index k < SS_SIC_BUDGET_MAX
	 * budget k, SS_SIC_BUDGET_MAX "that many or more", SS_SIC_BUDGET_MAX + 1 unlimited (sis.by_budget) */
	uint64_t sic_budget_calls[SS_SIC_BUDGET_MAX + 2], sic_budget_found[SS_SIC_BUDGET_MAX + 2];
	uint64_t sis_probes_total;           /* every rq read by select_idle_sibling, shortcuts included */
	uint64_t scan_time_ns;               /* Σ simulated time charged to wakers for probing */
	struct ss_log2_hist sic_time;        /* ns per select_idle_cpu call */
	struct ss_log2_hist sic_probes_hist; /* rqs probed per select_idle_cpu call */
	struct ss_sis_stats sis;             /* all select_idle_sibling() calls (Σ of the per-LLC ones) */
	struct ss_log2_hist sis_scanned_hist; /* runqueues read per select_idle_sibling() call */
	uint64_t wakeups_busy;               /* wakeups placed on a CPU that was not idle when chosen */
	uint64_t wakeups_remote_llc, wakeups_remote_node; /* placed outside the waking CPU's LLC / node */
	/* where wakees land (kthreads excluded): on the waking CPU (also when it was the task's previous
	 * one: a pair stacked on one CPU), or on the task's previous CPU (another than the waker's: it
	 * stays where it slept); the rest of wakeups went to a third CPU (moved by the search) */
	uint64_t wakeups_on_waker_cpu, wakeups_on_prev_cpu;
	uint64_t wakeups_fallback;           /* select_task_rq() answers outside p->cpus_ptr (select_fallback_rq()) */
	uint64_t fork_fallback;              /* the same for the placements of spawned tasks (WF_FORK) */
	uint64_t exec_refused;               /* sched_exec() answers the kernel does not act on (offline, outside
	                                        the range, or not allowed: the task stays; no fallback) */
	/* balance */
	uint64_t lb_stats_passes, nohz_kicks, nohz_balances;
	uint64_t migrations_by_cause[SS_MIG_NR];
	unsigned nr_level_keys;                          /* entries used in level_name / migrations_by_level */
	char level_name[SS_MAX_LEVEL_KEYS][8];           /* "SMT", "CLS", "MC", "DIE", "NODE", "NUMA" ("" = no such level) */
	uint64_t migrations_by_level[SS_MAX_LEVEL_KEYS][SS_MIG_NR]; /* lowest domain of the source CPU spanning the destination */
	struct ss_lb_kind_stats lb[3];                   /* [0] periodic, [1] newidle, [2] nohz */
	uint64_t active_pushed;                          /* stopper runs that moved a task */
	uint64_t newidle_skipped;                        /* newidle_balance() calls stopped by !rd->overload or avg_idle */
	/* idle with work elsewhere: Σ over CPUs of the time the CPU was idle while another
	 * CPU of its LLC / node had a waiting (runnable, not running) task, CPU-ns */
	uint64_t idle_work_llc_ns, idle_work_node_ns;
	uint64_t rq_depth_ns[SS_RQ_DEPTH_MAX];           /* CPU-ns spent with nr_running = index (allowed CPUs) */
	/* the same machine-wide and affinity-aware: Σ over allowed CPUs of the time the CPU was idle with an
	 * empty rq while a task whose cpus_ptr holds it waited on another rq, CPU-ns */
	uint64_t idle_work_allowed_ns;
	/* bursts (a `which: all` wake that woke >= 2 tasks) started in the window (docs/output.md "bursts") */
	uint64_t bursts;
	uint64_t burst_window_ns;        /* stats.burst_window_ns */
	uint64_t burst_cover_ns;         /* time covered by the union of [burst, burst + window) in the window */
	uint64_t burst_idle_work_ns;     /* idle_work_allowed_ns within those windows, CPU-ns */
	uint64_t burst_sampled;          /* bursts whose 1 ms sample was taken */
	uint64_t burst_idle_1ms_cpus;    /* Σ over them: idle allowed CPUs at burst + 1 ms if some rq held >= 2 tasks, else 0 */
	uint64_t burst_completed;        /* bursts whose every wakee blocked or exited before the end */
	uint64_t burst_makespan_ns;      /* Σ over them of (last wakee blocked) - burst */
	/* SIS_UTIL's nr_idle_scan: when every LLC of the allowed CPUs had it written (or, for a policy
	 * that does not write it, would have), ns from the start; valid if nr_idle_scan_written */
	bool nr_idle_scan_written;
	uint64_t nr_idle_scan_written_ns;
	uint64_t ended_ns;               /* when the simulated activity ended (run.ended_ns), ns from the start */
	/* costs */
	struct ss_time_lost lost;
	uint64_t idle_state_entries[SS_STATS_IDLE_STATES]; /* idle periods per chosen state (topology order) */
	unsigned nr_idle_states;
	char idle_state_name[SS_STATS_IDLE_STATES][16];
	uint64_t ipis_saved_polling;                       /* wakeups of a polling idle CPU: no IPI sent */
	/* policy */
	uint64_t policy_redirects;   /* placements a burst policy overrode (burst_threshold, burst_avg_depth) */
	/*
	 * Deadlock (the engine's check at the end of the run): every task left
	 * is blocked with nothing that can wake it. deadlock_ns: since when
	 * (ns from the start, the last time a task left a CPU), valid if
	 * deadlocked; deadlock_blocked: tasks blocked for ever.
	 */
	bool deadlocked;
	uint64_t deadlock_ns;
	unsigned deadlock_blocked;
	char **warnings;             /* NULL-terminated messages about the run (g_strfreev), never NULL after a run */
	/* per CPU / per LLC */
	struct ss_cpu_stats *cpu;        /* nr_cpus */
	struct ss_llc_stats *llc;        /* nr_llcs */
	struct ss_contention_stats contention;
	/* from t = 0, not the measured window: the first stats.startup_window_ns of the run */
	struct ss_startup_stats startup;
	/*
	 * Added (select_idle_cpu by walk kind; appended to keep the layout of
	 * the fields above): the calls of sic_time split by the walk the call
	 * made (docs/output.md select_idle_cpu.time_per_call_ns_idle_core):
	 * the idle-core walk (has_idle_core: select_idle_core() over each core,
	 * bounded by no scan budget) or the idle-CPU walk (every other call).
	 * Their n sum to sic_calls, their counts and sums to sic_time's (which
	 * the run fills from them at its end), their probes to sic_probes.
	 */
	struct ss_log2_hist sic_time_core, sic_time_cpu;   /* ns per call */
	uint64_t sic_probes_core, sic_probes_cpu;          /* runqueues probed by those calls */
	/*
	 * The time per call in µs as bpftrace's hist(nsecs / 1000) has it: the
	 * log2 histogram of ns / 1000 (integer division), so bucket 0 holds
	 * [0, 1) µs and bucket k ≥ 1 [2^(k-1), 2^k) µs (the compare metrics
	 * sic_time_mode_ns and sic_time_8us_512us_pct read it).
	 */
	struct ss_log2_hist sic_time_us;
	/*
	 * Background work over the measured window (docs/model.md "Background
	 * work", docs/output.md "Background"): the tick's own cost and the
	 * per-CPU kworkers. The kworkers' wakeups are not in the wakeup figures
	 * above (wakeups, wakeup_latency, select_idle_sibling): those are the
	 * workload's; their switches and CPU time are in the machine's.
	 */
	struct ss_background_stats {
		uint64_t ticks;              /* ticks that interrupted a running task (cost.tick_ns each) */
		uint64_t tick_ns;            /* time stolen by them, ns (time_lost_ns.tick) */
		uint64_t kthread_wakeups;    /* kworker activations (woken from its wait at a tick) */
		uint64_t kthread_ns;         /* CPU time the kworkers held their CPUs in the window (switch in to switch out), ns
		                                (time_lost_ns.kthread) */
		uint64_t kthread_preempts;   /* activations that preempted the running task at once */
		struct ss_log2_hist kthread_latency;   /* wakeup to running, ns */
		uint64_t kthread_items;      /* work items queued (cost.kthread_ns of work each; several per activation) */
	} background;
	/**
	 * How the run's length was chosen (simsched/runlen.h, docs/output.md
	 * "Run length"): all 0 for a fixed --warmup and --duration.
	 */
	struct ss_run_length {
		bool on;                     /* --warmup auto or --precision: the rest is set */
		bool warmup_auto;            /* the warmup's end was chosen by MSER-5 */
		uint64_t warmup_max_ns;      /* its cap */
		uint64_t mser_truncation_ns; /* MSER-5's truncation point (ns from t = 0) at the decision */
		unsigned mser_batches;       /* MSER-5 batches (5 observations each) it was computed on */
		bool warmup_capped;          /* no truncation point in the first half by the cap: the window began there */
		bool waited_nr_idle_scan;    /* the window waited for every LLC's nr_idle_scan (SIS_UTIL) */
		double precision;            /* target: relative 95 % half-width (0.01 = ±1 %); 0 = a fixed --duration */
		uint64_t max_duration_ns;    /* with precision: the window's cap */
		uint64_t batch_ns;           /* the observation interval */
		unsigned batches;            /* batches of the window */
		uint64_t batch_len_ns;       /* the length of each */
		double mean, half_width;     /* batch means of the workload's figure (its unit) and the 95 % half-width,
		                                AR(1)-corrected (ss_ar1_inflation()) */
		double von_neumann_z;        /* the batch means' von Neumann statistic C / sd (> 1.2816: correlated, at 10 %) */
		double lag1_autocorrelation; /* φ of the batch means (ss_ar1_inflation()); a judgement needs φ <= SS_RL_PHI_MAX */
		const char *stopped;         /* static: "precision", "cap" or "duration" (a fixed --duration) */
		bool paired;                 /* the length was chosen on the paired Δ against a baseline run */
		unsigned paired_index;       /* this run's index in the group (0 = the baseline) */
		double delta_pct, delta_half_width_pct;   /* Δ % of the figure against the baseline, its 95 % half-width
		                                             (AR(1)-corrected) */
		double delta_lag1_autocorrelation;        /* φ of the batch differences the Δ's interval is made of */
	} run_length;
	/*
	 * cost.newidle_time (appended): CPU time of the newidle balances that
	 * pulled nothing, each holding its CPU in schedule() before the switch
	 * to idle (time_lost_ns.newidle_balance), ns; and the wakeups of a task
	 * still on its CPU there (p->on_cpu: queued on that CPU's wake list
	 * with WF_ON_CPU, no select_task_rq(); wakeups.on_cpu).
	 */
	uint64_t newidle_held_ns;
	uint64_t wakeups_on_cpu;
};

void ss_results_free(struct ss_results *r);

#endif

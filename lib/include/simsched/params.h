/*
 * simsched/params.h — every tunable of the model, settable as
 * --set SECTION.KEY=VALUE (sections cost, policy, balance, kernel, sis, stats).
 * Each parameter's unit, default and source are in the table in params.c and
 * in docs/model.md; `simsched run --set help` lists them.
 */
#ifndef SIMSCHED_PARAMS_H
#define SIMSCHED_PARAMS_H

#define SS_VERSION_STRING "0.1.0"

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

struct ss_topology;

struct ss_params {
	/* kernel. */
	uint64_t hz;                  /* CONFIG_HZ, 100..1000; TICK_NSEC = 10^9 / hz */
	uint64_t freq_capacity;       /* arch_scale_freq_capacity: cur/max freq × 1024 (1..1024) */
	uint64_t base_slice_ns;       /* sysctl_sched_base_slice; 0 = kernel default scaled by CPUs */
	uint64_t migration_cost_ns;   /* sysctl_sched_migration_cost */
	uint64_t nr_migrate;          /* sysctl_sched_nr_migrate (32) */
	uint64_t preemption;          /* CONFIG_PREEMPTION: 1 = newidle balance stops after one task */
	/* cost. (ns) */
	uint64_t probe_self_ns;       /* reading the waking CPU's own rq */
	uint64_t probe_smt_ns;        /* an SMT sibling's rq */
	uint64_t probe_cluster_ns;    /* a rq in the same cluster */
	uint64_t probe_llc_ns;        /* a rq in the same LLC */
	uint64_t probe_package_ns;    /* a rq in another LLC of the same package */
	uint64_t probe_remote_ns;     /* a rq on another package */
	uint64_t clear_target_ns;     /* SIS_CLEAR_TARGET: cpumask_clear_cpu(target, cpus) per call */
	uint64_t ipi_ns;              /* wakeup/reschedule IPI delivery */
	uint64_t context_switch_ns;   /* direct cost of a context switch */
	uint64_t lb_pass_ns;          /* fixed cost of one load_balance() pass (plus its rq reads) */
	uint64_t smt_contention_pct;  /* slowdown per extra busy SMT sibling: speed = 1 / (1 + pct/100 × (k-1)) */
	uint64_t refill_llc_ns_per_kib;       /* cache refill after a migration within the LLC, ns per KiB of working set */
	uint64_t refill_cross_llc_ns_per_kib; /* ... to another LLC of the same node */
	uint64_t refill_cross_node_ns_per_kib;/* ... to another node */
	uint64_t node_bandwidth_mbps; /* memory bandwidth of one NUMA node, MB/s */
	uint64_t rq_lock_ns;          /* rq lock hold time of a remote direct enqueue (ttwu_do_activate under rq_lock) */
	uint64_t idle_states;         /* 1: cpuidle states (exit latency, polling) modelled; 0: CPUs wake instantly */
	/* balance. */
	uint64_t busy_factor;         /* sd->busy_factor (sd_init: 16) */
	uint64_t nohz;                /* 1: NOHZ idle balancing kicks (nohz_balancer_kick) */
	uint64_t newidle_llc_only;    /* 1: newidle balance stops after the LLC domain (seeds/004 patch 4, its title) */
	uint64_t load_balance;        /* 1: the balancer moves tasks; 0: its passes only compute statistics */
	/* sis. (simulator knobs of the wakeup scan, no kernel equivalent) */
	uint64_t sis_nr_fixed;        /* > 0: select_idle_cpu probes at most this many CPUs, whatever the policy; 0 = off */
	/* stats. (how figures are measured; they change no simulated behaviour) */
	uint64_t burst_window_ns;     /* the window after a burst that the burst figures cover, ns */
	/* sampling of series lives in ss_run_config. */
	/* policy: parameters of the chosen policy are in policy_values (by index of the policy's table). */
	int64_t policy_values[8];
	bool policy_set[8];
	/* kernel., appended to keep the layout of the fields above */
	uint64_t idle_before_ns;      /* how long the machine has been up and idle before t = 0, ns; 0 = booted at t = 0 */
	/* cost., appended: contention (docs/model.md "Contention") */
	uint64_t coherence;           /* 1: a probe of a rq (or of sd_llc_shared) costs by the state of its line: cached if not
	                                 written since this CPU read it, else a transfer from its last writer; 0: cost.probe_* flat */
	uint64_t line_cached_ns;      /* reading a line still valid in the reader's own cache (an L2 hit), ns */
	uint64_t line_queue;          /* 1: transfers of one line queue at its home, one transfer time each */
	uint64_t claim_after_scan;    /* 1: the CPU a wakeup chose is taken only when its scan is over (ttwu_pending set,
	                                 or the enqueue under the rq lock); 0: at the decision */
	uint64_t rq_lock_all;         /* 1: schedule(), wake-list drains and the balancer's detaches take the rq lock too */
	/* stats., appended likewise */
	uint64_t startup_window_ns;   /* the start of the run the startup figures cover, from t = 0, ns (default 100 ms) */
	/* cost., appended: background work (docs/model.md "Background work") */
	uint64_t background;          /* 1: the tick's own cost and each CPU's kworker run; 0: neither (the clean machine) */
	uint64_t tick_ns;             /* the timer interrupt of a busy CPU's tick, ns, stolen from the task it interrupts */
	uint64_t kthread_rate_hz;     /* activations per second of each CPU's kworker (Poisson, deferrable: run at a busy tick) */
	uint64_t kthread_ns;          /* CPU time of one kworker activation, ns */
	/* cost., appended: the time of a newidle balance (docs/model.md "How each cost is charged") */
	uint64_t newidle_time;        /* 1: a newidle_balance() that pulls nothing holds its CPU in schedule() for its
	                                 modelled time (busy, not idle_cpu()); 0: the CPU is idle at once */
};

/** Fill p with defaults; topology-dependent defaults (probe costs) from t (may be NULL). */
void ss_params_defaults(struct ss_params *p, const struct ss_topology *t);

/**
 * Apply one "SECTION.KEY=VALUE" (VALUE with optional unit suffix for ns
 * values: ns, us, ms, s). policy keys are resolved against the named policy's
 * parameter table. Returns false + *err (SS_ERROR_USAGE) for an unknown
 * section or key (the message lists the valid ones) or a bad value/range.
 */
bool ss_params_set(struct ss_params *p, const char *policy, const char *assignment, GError **err);

/**
 * A human-readable list of every parameter: key, unit, default, source;
 * g_free. Defaults are those of topology t (its probe costs) when t is not NULL.
 */
char *ss_params_help(const char *policy, const struct ss_topology *t);

/**
 * The i-th parameter of every section but policy (i from 0, in the order
 * `--set help` lists them): *section and *key ("kernel", "hz"), static
 * strings. false when i is past the last one.
 */
bool ss_params_nth(unsigned i, const char **section, const char **key);

/**
 * The value the model uses for a parameter in p under policy (NULL =
 * sis_util): key is "SECTION.KEY" or an assignment "SECTION.KEY=VALUE" (its
 * key). Times in ns, counts and switches as integers, kernel.freq_ratio as
 * the fraction the model runs at (its 1/1024 steps), policy.* the policy's
 * value (set, else its default). false if the key is not a parameter.
 */
bool ss_params_resolve(const struct ss_params *p, const char *policy, const char *key, double *value);

/**
 * Parse a duration "2s", "1.5ms", "200us", "100ns", "3" (ns) into ns: decimal
 * digits, optionally a point and more digits, then ns, us, µs, ms, s or no
 * unit (ns). Exact (no floating point): the value must be a whole number of
 * ns, at most 1.8 × 10^19. false if malformed: a sign, exponent, hex, inf or
 * nan, a bare point, a space, an unknown unit, a fraction of a ns, too large.
 */
bool ss_parse_duration(const char *s, uint64_t *ns);

#endif

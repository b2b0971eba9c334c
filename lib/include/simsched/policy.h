/*
 * simsched/policy.h — the policy API: write a wake-placement heuristic as a
 * shared object and run it with `simsched run --policy-plugin FILE.so`.
 *
 * A plugin exports one function, SS_POLICY_PLUGIN_SYMBOL:
 *
 *     const struct ss_policy_ops *ss_policy_plugin_v1(void);
 *
 * returning a static ops table whose abi_version is SS_POLICY_ABI_VERSION.
 * The table names the policy (it then works with --policy NAME), its sched
 * features and parameters (--set policy.KEY=VALUE), and its hooks:
 * select_task_rq() for every wakeup, update_lb_stats() from periodic balance.
 *
 * Inside the hooks a plugin reads the simulated machine only through the
 * accessors below (the simulator's state stays opaque) and may call the
 * kernel's shared steps (kernel v6.6 kernel/sched/fair.c): wake_affine,
 * select_idle_sibling, select_idle_smt, select_idle_core and
 * select_idle_cpu with an explicit budget. The shared steps charge every
 * runqueue they read to the scan-cost model (cost.probe_*); a plugin that
 * reads runqueues itself calls ss_charge_probe() once per remote runqueue.
 * Accessors are O(1) reads without allocation or lookups; the hooks run on
 * every wakeup.
 *
 * Rules for a plugin: deterministic (no wall clock, no rand(): keep state
 * in ss_policy_state()), no allocation per wakeup, return a CPU of
 * ss_task_allowed_mask() (any other int — negative, >= ss_nr_cpus(),
 * offline, not allowed — is replaced by select_fallback_rq()'s CPU, v6.6:
 * the first allowed CPU of the previous CPU's node, else the first allowed
 * CPU, and counted in wakeups.fallback_rq / wakeups.fork_fallback_rq; at
 * exec, where v6.6 sched_exec() calls the class's hook without the core's
 * fallback, such an answer leaves the task where it is, counted in
 * wakeups.exec_refused).
 * docs/policies.md describes the API and
 * docs/examples/policy-plugin/ holds an example.
 *
 * Ownership: every pointer returned here is owned by the simulator and valid
 * during the hook call that obtained it (masks of the topology: for the run).
 */
#ifndef SIMSCHED_POLICY_H
#define SIMSCHED_POLICY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "simsched/cpumask.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Version of this API; a plugin built against another version is refused. */
#define SS_POLICY_ABI_VERSION 1u
/** The symbol a plugin exports (a function of type ss_policy_plugin_fn). */
#define SS_POLICY_PLUGIN_SYMBOL "ss_policy_plugin_v1"

struct ss_sim;    /* one simulation run (opaque) */
struct ss_task;   /* a simulated task (opaque) */
struct ss_sched_domain;   /* a sched domain: simsched/topology.h (needs GLib) for its fields */

/* wake_flags (kernel/sched/sched.h v6.6), as passed to select_task_rq */
enum { SS_WF_EXEC = 0x02, SS_WF_FORK = 0x04, SS_WF_TTWU = 0x08, SS_WF_SYNC = 0x10, SS_WF_MIGRATED = 0x20 };

/** enum cpu_idle_type (v6.6): the kind of load_balance() pass. */
enum ss_cpu_idle_type { CPU_IDLE, CPU_NOT_IDLE, CPU_NEWLY_IDLE };

/**
 * One parameter of a policy, set with --set policy.KEY=VALUE (an integer in
 * min..max; def when not set). unit and doc are shown by `simsched policies`.
 */
struct ss_policy_param {
	const char *key, *unit, *doc;
	int64_t def, min, max;
};

/** Most parameters a policy may have (struct ss_params.policy_values). */
#define SS_POLICY_MAX_PARAMS 8u

/** The ops table a plugin returns. All strings are static in the plugin. */
struct ss_policy_ops {
	unsigned abi_version;         /* SS_POLICY_ABI_VERSION */
	const char *name;             /* --policy NAME: [a-z0-9_], 1..32 chars, not a built-in name */
	const char *description;      /* one line for `simsched policies` */
	const char *source;           /* where the heuristic comes from (patch, paper, idea) */
	const char *features;         /* sched features over the v6.6 defaults ("SIS_PROP,NO_SIS_UTIL"); NULL = defaults */
	/**
	 * The CPU a waking task p (task_cpu() = prev_cpu) goes to; wake_flags
	 * holds SS_WF_TTWU and maybe SS_WF_SYNC. Called from try_to_wake_up()
	 * on the waking CPU (ss_waker_cpu()) when p may run on more than one
	 * CPU, with SS_WF_FORK for a spawned task (prev_cpu: its parent's
	 * CPU), and with SS_WF_EXEC at a task's `exec` (sched_exec(): p is
	 * still running on prev_cpu, the waking CPU, and ss_current() is p).
	 * Any int may be returned; at a wakeup or fork one that is not a CPU of
	 * ss_task_allowed_mask() is replaced by select_fallback_rq()'s, at an
	 * exec it leaves p where it is. Required.
	 */
	int (*select_task_rq)(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags);
	/**
	 * Optional: called from update_sd_lb_stats() of load_balance() on
	 * dst_cpu for domain sd, with the domain's Σ cpu_util() and Σ
	 * capacity (both 0..1024 per CPU), where v6.6 calls
	 * update_idle_cpu_scan(). NULL = nothing.
	 */
	void (*update_lb_stats)(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
				enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity);
	const struct ss_policy_param *params;   /* nr_params entries, at most SS_POLICY_MAX_PARAMS */
	unsigned nr_params;
	size_t state_size;            /* bytes of zeroed per-run state (ss_policy_state()), 0..1 MiB */
};

/** Type of the exported SS_POLICY_PLUGIN_SYMBOL. */
typedef const struct ss_policy_ops *(*ss_policy_plugin_fn)(void);
/** Marks the plugin's entry point exported even when built with -fvisibility=hidden. */
#define SS_POLICY_EXPORT __attribute__((visibility("default")))
/** Declared here so that a plugin's definition is checked against it. */
SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void);

/* ------------------------------------------------------------ the machine */

/**
 * CPU ids of the machine, 0..n-1 (nr_cpu_ids: offline CPUs included), and
 * the words of a CPU mask.
 */
unsigned ss_nr_cpus(const struct ss_sim *sim);
unsigned ss_nr_mask_words(const struct ss_sim *sim);
/**
 * cpu_active_mask: the online CPUs (ss_nr_mask_words() words; owned by the
 * machine). An offline CPU has empty masks and no domains; never return it.
 */
const uint64_t *ss_cpu_active_mask(const struct ss_sim *sim);
/** cpu_smt_mask(), cpu_clustergroup_mask(), the LLC's and the node's CPUs of cpu (cpu < ss_nr_cpus()). */
const uint64_t *ss_cpu_smt_mask(const struct ss_sim *sim, unsigned cpu);
const uint64_t *ss_cpu_cluster_mask(const struct ss_sim *sim, unsigned cpu);
const uint64_t *ss_cpu_llc_mask(const struct ss_sim *sim, unsigned cpu);
const uint64_t *ss_cpu_node_mask(const struct ss_sim *sim, unsigned cpu);
/** sd_llc of cpu (its span = the LLC's CPUs), NULL if the CPU has no LLC domain. */
const struct ss_sched_domain *ss_cpu_sd_llc(const struct ss_sim *sim, unsigned cpu);
/** per_cpu(sd_llc_size, cpu): CPUs in cpu's LLC (1 without an LLC domain). */
unsigned ss_llc_size(const struct ss_sim *sim, unsigned cpu);
/** capacity_of(cpu), 1..1024. */
unsigned long ss_cpu_capacity(const struct ss_sim *sim, unsigned cpu);
/** Simulated time now, ns. */
uint64_t ss_now_ns(const struct ss_sim *sim);

/* ------------------------------------------------------------ runqueues (no probe cost) */

/** idle_cpu() (core.c v6.6): no task running or queued, no wakeup pending for it. */
bool ss_idle_cpu(struct ss_sim *sim, unsigned cpu);
/** available_idle_cpu(): idle_cpu() (no vCPU preemption modelled). */
bool ss_cpu_available_idle(struct ss_sim *sim, unsigned cpu);
/** rq->cfs.nr_running (h_nr_running without groups): tasks running or queued on cpu. */
unsigned ss_cpu_nr_running(const struct ss_sim *sim, unsigned cpu);
/** cpu_util_cfs(cpu) (fair.c v6.6, util_est included when UTIL_EST is on), 0..capacity. */
unsigned long ss_cpu_util_of(struct ss_sim *sim, unsigned cpu);
/** sd_llc_shared(cpu)->nr_idle_scan (SIS_UTIL's budget; 0 before the first LLC balance writes it). */
unsigned ss_nr_idle_scan(const struct ss_sim *sim, unsigned cpu);
/** test_idle_cores(cpu): sd_llc_shared(cpu)->has_idle_cores. */
bool ss_llc_has_idle_cores(const struct ss_sim *sim, unsigned cpu);
/**
 * Charge reading cpu's runqueue to the waker, counted as one runqueue
 * scanned: with cost.coherence (the default) by the state of that rq's
 * line (a hit in the waker's cache, or a transfer from the CPU that wrote
 * it last, queued behind other transfers of the line; docs/model.md
 * "Contention"), else by distance from ss_waker_cpu() (cost.probe_*).
 */
void ss_charge_probe(struct ss_sim *sim, unsigned cpu);
/**
 * Charge the waker one read of cpu's LLC's sd_llc_shared line
 * (has_idle_cores, nr_idle_scan) where the kernel reads it in a wakeup
 * (test_idle_cores(), READ_ONCE(sd_share->nr_idle_scan) in
 * select_idle_cpu(), fair.c v6.6): priced as a probe's line under
 * cost.coherence, nothing without it. Not a runqueue scanned.
 * ss_nr_idle_scan() and ss_llc_has_idle_cores() charge nothing.
 */
void ss_charge_llc_shared(struct ss_sim *sim, unsigned cpu);

/* ------------------------------------------------------------ the wakeup */

/** smp_processor_id() of the wakeup being placed (the waker's CPU). */
unsigned ss_waker_cpu(const struct ss_sim *sim);
/** p->cpus_ptr: the CPUs p may run on. */
const uint64_t *ss_task_allowed_mask(const struct ss_task *p);
unsigned ss_task_nr_cpus_allowed(const struct ss_task *p);
/** task_cpu(p): the CPU p last ran on (prev_cpu of the wakeup). */
int ss_task_prev_cpu(const struct ss_task *p);
/** p->recent_used_cpu. */
int ss_task_recent_used_cpu(const struct ss_task *p);
/** p->se.avg.util_avg (0..1024) and _task_util_est(p) = max(ewma, enqueued & ~UTIL_AVG_UNCHANGED) (v6.6). */
unsigned long ss_task_util_avg_of(const struct ss_task *p);
unsigned long ss_task_util_est_of(const struct ss_task *p);
/** The task's index in the workload plan (instance-major, docs/workloads.md). */
unsigned ss_task_id(const struct ss_task *p);

/* ------------------------------------------------------------ the policy's own */

/** The policy's state_size bytes, zeroed at the start of each run; NULL if state_size is 0. */
void *ss_policy_state(struct ss_sim *sim);
/** Parameter i (< nr_params) of the running policy: the --set value or its default. */
int64_t ss_policy_param(const struct ss_sim *sim, unsigned i);

/* ------------------------------------------------------------ shared steps (fair.c v6.6) */

/** select_task_rq_fair(), wakeup path: the kernel's own placement. */
int ss_select_task_rq_fair(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags);
/**
 * The first half of select_task_rq_fair(): record_wakee(), wake_wide() and,
 * in the lowest SD_WAKE_AFFINE domain spanning prev_cpu, wake_affine().
 * Returns the target select_task_rq_fair() would give select_idle_sibling().
 */
int ss_wake_target(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags);
/** wake_affine() on domain sd: this_cpu or prev_cpu. */
int ss_wake_affine(struct ss_sim *sim, const struct ss_sched_domain *sd, struct ss_task *p, int this_cpu,
		   int prev_cpu, bool sync);
/** select_idle_sibling(p, prev, target) with v6.6's select_idle_cpu() (SIS_PROP/SIS_UTIL budgets). */
int ss_select_idle_sibling(struct ss_sim *sim, struct ss_task *p, int prev, int target);
/**
 * A domain search: called by ss_select_idle_sibling_scan() where v6.6 calls
 * select_idle_cpu(p, sd_llc(target), has_idle_core, target). Returns an
 * idle CPU or -1.
 */
typedef int (*ss_select_idle_cpu_fn)(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target);
/**
 * select_idle_sibling() with the domain search replaced by scan (NULL: the
 * v6.6 select_idle_cpu()). The fast path (target, prev, recent_used_cpu),
 * select_idle_smt() and the scan statistics are the kernel's. Each call of
 * scan counts as one select_idle_cpu() call in the figures (select_idle_cpu.*:
 * the runqueues charged while it runs, whether it answered a CPU, the scan
 * time), whatever shared steps it uses inside.
 */
int ss_select_idle_sibling_scan(struct ss_sim *sim, struct ss_task *p, int prev, int target,
				ss_select_idle_cpu_fn scan);
/** select_idle_smt(p, target): an idle allowed SMT sibling of target (not target), or -1. */
int ss_select_idle_smt(struct ss_sim *sim, struct ss_task *p, int target);
/**
 * select_idle_core(p, core, cpus, &idle_cpu): core if all its SMT siblings
 * are idle; else -1, its siblings removed from cpus (ss_nr_mask_words()
 * words, caller's) and the first idle allowed sibling left in *idle_cpu if
 * it was -1. A step of a domain search: its probes enter the
 * select_idle_cpu figures only inside one (a scan of
 * ss_select_idle_sibling_scan()); on its own it is no select_idle_cpu() call.
 */
int ss_select_idle_core(struct ss_sim *sim, struct ss_task *p, int core, uint64_t *cpus, int *idle_cpu);
/**
 * select_idle_cpu()'s walk with an explicit budget: the CPUs of mask ∩
 * p->cpus_ptr from target + 1, wrapping (for_each_cpu_wrap). With
 * has_idle_core, core by core (ss_select_idle_core()), unbounded as in
 * v6.6, returning an idle core or else the first idle CPU seen; without,
 * at most *nr CPUs are probed and *nr is decreased by the CPUs probed
 * (*nr < 0: no limit, left as is; *nr == 0: nothing probed), so that one
 * budget can be spent over several masks. Returns an idle CPU or -1. Reads
 * no feature and updates no SIS_PROP/SIS_UTIL state. Called inside a scan of
 * ss_select_idle_sibling_scan() it is part of that call's figures; called on
 * its own it counts as one select_idle_cpu() call (a stop on *nr == 0 with
 * CPUs left as select_idle_cpu.budget_exhausted).
 */
int ss_select_idle_cpu_nr(struct ss_sim *sim, struct ss_task *p, const uint64_t *mask, int target,
			  bool has_idle_core, long *nr);
/**
 * update_idle_cpu_scan() (fair.c v6.6): SIS_UTIL's writer of nr_idle_scan
 * (with SIS_UTIL on; SIS_UTIL_LINEAR's with that on). A plugin that reads
 * ss_nr_idle_scan() uses it as its update_lb_stats hook, or calls it there.
 */
void ss_update_idle_cpu_scan(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			     enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity);

#ifdef __cplusplus
}
#endif

#endif

/*
 * simsched/state.h — a constructed machine state and one placement step on
 * it: the API for unit-testing a placement heuristic (its budget math and
 * its choices) without running a workload.
 *
 *     struct ss_state_config c = { .topo = t, .policy = "sis_util", .nr_tasks = 2 };
 *     struct ss_sim *s = ss_state_new(&c, &err);
 *     ss_state_set_cpu(s, 3, &(struct ss_cpu_desc){ .nr_running = 2, .util_avg = 800 }, &err);
 *     ss_state_set_llc(s, 0, 4, false);                 // nr_idle_scan 4, no idle core
 *     ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 3, .recent_used_cpu = -1,
 *                                                      .util_avg = 100 }, &err);
 *     ss_state_set_waker(s, 3, -1);
 *     struct ss_placement pl;
 *     int cpu = ss_state_select_task_rq(s, 0, 3, SS_WF_TTWU, &pl);   // pl.probes: what it read
 *
 * The state is a struct ss_sim: the policy API of simsched/policy.h (the
 * accessors, the shared steps, a plugin's select_task_rq) works on it as in
 * a run. Nothing runs by itself: no time passes, no PELT decays, no balance
 * writes nr_idle_scan; the state is what the setters made it.
 *
 * Ownership: the state borrows the topology (it must outlive the state);
 * ss_state_free() frees everything else. Not thread-safe: one thread per
 * state (different states are independent).
 */
#ifndef SIMSCHED_STATE_H
#define SIMSCHED_STATE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/policy.h"
#include "simsched/topology.h"

#ifdef __cplusplus
extern "C" {
#endif

/** At most this many tasks in a state. */
#define SS_STATE_MAX_TASKS 65536u

struct ss_state_config {
	const struct ss_topology *topo;   /* borrowed, required */
	const char *policy;               /* a built-in or registered policy (ss_policy_register(),
	                                     ss_policy_plugin_load()); NULL = "sis_util" */
	const char *sched_features;       /* over the policy's preset ("SIS_PROP,NO_SIS_UTIL"), NULL = none */
	const char *const *set;           /* NULL-terminated "SECTION.KEY=VALUE" (--set), NULL = none */
	unsigned nr_tasks;                /* tasks 0..nr_tasks-1: 1..SS_STATE_MAX_TASKS, at most 1000 per online CPU */
};

/**
 * A machine state: every online CPU idle (no task, util 0, awake: no idle
 * state), every LLC with has_idle_cores true and nr_idle_scan = its LLC's
 * size (what update_idle_cpu_scan() writes for an idle LLC), every task on
 * CPU 0 (or the first online CPU), allowed everywhere, util 0, not queued;
 * the waker is CPU 0 with no waker task; time 0. NULL + *err: SS_ERROR_USAGE
 * for a missing topology, a bad policy, feature or --set assignment, or
 * nr_tasks out of range. Free with ss_state_free().
 */
struct ss_sim *ss_state_new(const struct ss_state_config *cfg, GError **err);
void ss_state_free(struct ss_sim *state);

/** A CPU's runqueue (ss_state_set_cpu()). */
struct ss_cpu_desc {
	unsigned nr_running;      /* rq->cfs.nr_running: tasks running or queued; 0 = idle (rq->curr = idle) */
	unsigned long util_avg;   /* rq->cfs.avg.util_avg, 0..1024 (cpu_util_cfs() clamps it to capacity) */
	unsigned long util_est;   /* rq->cfs.avg.util_est.enqueued, 0..1024 (read with UTIL_EST) */
	bool ttwu_pending;        /* a wakeup queued for this CPU: not idle_cpu() although nr_running is 0 */
	int idle_state;           /* the cpuidle state it sleeps in (index into topology idle states), -1 = none */
};

/**
 * Set cpu's runqueue. An idle CPU (nr_running 0) joins nohz.idle_cpus_mask,
 * a busy one leaves it; has_idle_cores and nr_idle_scan of its LLC stay as
 * they are (ss_state_set_llc()). false + *err (SS_ERROR_USAGE): cpu not
 * online, util above 1024, idle_state out of range or given to a busy CPU.
 */
bool ss_state_set_cpu(struct ss_sim *state, unsigned cpu, const struct ss_cpu_desc *cs, GError **err);

/**
 * sd_llc_shared(cpu)->nr_idle_scan (SIS_UTIL's budget, ss_nr_idle_scan())
 * and ->has_idle_cores (test_idle_cores()) of the LLC of cpu (< nr_cpus).
 */
void ss_state_set_llc(struct ss_sim *state, unsigned cpu, unsigned nr_idle_scan, bool has_idle_cores);

/** A task (ss_state_set_task()). */
struct ss_task_desc {
	int prev_cpu;               /* task_cpu(p): an online CPU */
	int recent_used_cpu;        /* p->recent_used_cpu: an online CPU, or -1 = prev_cpu */
	unsigned long util_avg;     /* p->se.avg.util_avg, 0..1024 */
	unsigned long util_est;     /* p->se.avg.util_est.enqueued (and ewma), 0..1024 */
	const uint64_t *allowed;    /* p->cpus_ptr: ss_nr_mask_words() words, copied; NULL = every online CPU */
};

/**
 * Set task id (< nr_tasks). false + *err (SS_ERROR_USAGE): a CPU that is
 * not online, util above 1024, an allowed mask without an online CPU.
 */
bool ss_state_set_task(struct ss_sim *state, unsigned id, const struct ss_task_desc *ts, GError **err);
/** Task id (< nr_tasks) of the state, for the policy API; NULL if out of range. */
struct ss_task *ss_state_task(struct ss_sim *state, unsigned id);

/** The wakeup's context: it runs on cpu (smp_processor_id()), woken by task waker (-1: an interrupt). */
void ss_state_set_waker(struct ss_sim *state, unsigned cpu, int waker);

/** One runqueue read by a placement step (ss_charge_probe()). */
struct ss_probe {
	unsigned cpu;
	bool idle;                /* available_idle_cpu() of it when it was read */
	unsigned nr_running;      /* its nr_running then */
	uint64_t cost_ns;         /* the probe cost charged to the waker: by its line's state with cost.coherence
	                             (no transfer of another step queued), else cost.probe_* by distance */
};

/** What a placement step did. */
struct ss_placement {
	int cpu;                       /* the step's answer (a CPU, or -1 where the step may return it) */
	unsigned nr_probes;            /* runqueues probed, in order */
	const struct ss_probe *probes; /* nr_probes entries, owned by the state, valid until its next step */
	uint64_t scan_cost_ns;         /* Σ cost_ns (an sd_llc_shared read is not a probe and not in it) */
};

/**
 * The policy's select_task_rq(p, prev_cpu, wake_flags) (SS_WF_TTWU,
 * SS_WF_SYNC, SS_WF_FORK; for the built-in policies select_task_rq_fair()
 * of kernel v6.6 fair.c with their features) for task id. out->cpu is the
 * policy's answer as it gave it (a run would replace one that is not an
 * allowed online CPU by select_fallback_rq()'s). Returns out->cpu; -1 with
 * out->cpu -1 and no probes for a task id out of range.
 */
int ss_state_select_task_rq(struct ss_sim *state, unsigned id, int prev_cpu, int wake_flags, struct ss_placement *out);
/** select_idle_sibling(p, prev, target) (fair.c v6.6, with the state's features) for task id. */
int ss_state_select_idle_sibling(struct ss_sim *state, unsigned id, int prev, int target, struct ss_placement *out);
/**
 * select_idle_cpu(p, sd_llc(target), has_idle_core, target) (fair.c v6.6:
 * the SIS_UTIL / SIS_PROP budget of the state's features, nr_idle_scan of
 * target's LLC) for task id: an idle CPU or -1 (also for a target without
 * an LLC domain).
 */
int ss_state_select_idle_cpu(struct ss_sim *state, unsigned id, int target, bool has_idle_core,
			     struct ss_placement *out);

#ifdef __cplusplus
}
#endif

#endif

/*
 * simsched/cfs.h — the v5.17 CFS run order of one cfs_rq, beside the v6.6
 * EEVDF one of simsched/eevdf.h (--kernel 5.17).
 *
 * Mirrors kernel v5.17 kernel/sched/fair.c (read at v5.17-rc5,
 * dunli/linux-5.17 6d28e3552c15, whose kernel/sched is the tag's):
 * get_update_sysctl_factor()/update_sysctl(), __sched_period(),
 * sched_slice(), sched_vslice(), update_curr()'s vruntime part,
 * place_entity(), enqueue_entity()/dequeue_entity()'s vruntime
 * renormalisation, the buddies (clear_buddies, set_next_buddy,
 * set_last_buddy), pick_next_entity(), set_next_entity(),
 * check_preempt_tick(), entity_tick(), wakeup_gran(),
 * wakeup_preempt_entity(), check_preempt_wakeup() and task_fork_fair(). Each
 * function is the v5.17 variant of the kernel function of the same name and
 * carries the suffix _v5_17.
 *
 * Model: a 64-bit kernel without task groups (no hierarchy: the loops over
 * for_each_sched_entity() run once), weights in scale_load_down() units as in
 * eevdf.h; no SCHED_IDLE/SCHED_BATCH tasks (se_is_idle() is false), no skip
 * buddy (no yield), sysctl_sched_child_runs_first = 0. Times in ns, vruntime
 * in virtual ns. The queue is eevdf.h's array; ties between equal vruntimes
 * go to the earlier enqueue, as the rbtree's leftmost.
 */
#ifndef SIMSCHED_CFS_H
#define SIMSCHED_CFS_H

#include <stdbool.h>
#include <stdint.h>

#include "simsched/eevdf.h"
#include "simsched/features.h"

/** The CFS tunables and the features that change them (v5.17 fair.c / features.h). */
struct ss_cfs_tunables {
	uint64_t latency;             /* sysctl_sched_latency, ns (6 ms × factor) */
	uint64_t min_granularity;     /* sysctl_sched_min_granularity, ns (0.75 ms × factor) */
	uint64_t wakeup_granularity;  /* sysctl_sched_wakeup_granularity, ns (1 ms × factor) */
	unsigned nr_latency;          /* sched_nr_latency: 8 (only a sysctl write changes it) */
	bool gentle_fair_sleepers, start_debit, next_buddy, last_buddy, alt_period, base_slice, wakeup_preemption;
};

/**
 * The tunables after update_sysctl() at boot (sched_init_granularity()) on a
 * machine with nr_cpus online CPUs, SCHED_TUNABLESCALING_LOG (the default):
 * factor = 1 + ilog2(min(nr_cpus, 8)) (0 counts as 1); features from set.
 */
void ss_cfs_tunables_init(struct ss_cfs_tunables *t, unsigned nr_cpus, ss_features_t set);

/** __sched_period(nr_running): latency, or nr_running × min_granularity above sched_nr_latency. ns. */
uint64_t ss___sched_period_v5_17(unsigned long nr_running, const struct ss_cfs_tunables *t);
/**
 * sched_slice(cfs_rq, se): the wall-time slice, ns: the period of
 * nr_running (+1 if se is not queued yet) shared by weight over the cfs_rq's
 * load (se's weight added if not queued); BASE_SLICE floors it at
 * min_granularity. ALT_PERIOD counts rq->cfs.h_nr_running, equal to
 * cfs_rq->nr_running without groups.
 */
uint64_t ss_sched_slice_v5_17(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se,
			      const struct ss_cfs_tunables *t);
/** wakeup_gran(se): calc_delta_fair(wakeup_granularity, se), virtual ns. */
uint64_t ss_wakeup_gran_v5_17(const struct ss_sched_entity *se, const struct ss_cfs_tunables *t);
/** wakeup_preempt_entity(curr, se): -1 if se is not left of curr, 1 if by more than wakeup_gran(se), else 0. */
int ss_wakeup_preempt_entity_v5_17(const struct ss_sched_entity *curr, const struct ss_sched_entity *se,
				   const struct ss_cfs_tunables *t);

/** update_curr(): charge now - exec_start to curr (vruntime += delta / w), update_min_vruntime(). */
void ss_update_curr_v5_17(struct ss_cfs_rq *cfs, uint64_t now);
/**
 * enqueue_entity(): renormalise a relative vruntime (+ min_vruntime: fork,
 * balancer migration, wakeup migration), account, place_entity(0) for a
 * wakeup (v = max(v, min_vruntime - latency/2 with GENTLE_FAIR_SLEEPERS,
 * else - latency)), queue. The caller ran ss_update_curr_v5_17() first.
 */
void ss_enqueue_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool wakeup,
			     const struct ss_cfs_tunables *t);
/**
 * dequeue_entity(): clear se's buddies, unqueue, account; a migrating
 * (not sleeping) se keeps its vruntime relative to min_vruntime; then
 * update_min_vruntime(). The caller ran ss_update_curr_v5_17() first.
 */
void ss_dequeue_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool sleep);
/** migrate_task_rq_fair() of a waking task: vruntime -= the old cfs_rq's min_vruntime (made relative). */
void ss_migrate_task_rq_v5_17(const struct ss_cfs_rq *old, struct ss_sched_entity *se);
/**
 * task_fork_fair(): the child's vruntime from its parent's (parent NULL: the
 * child of a task elsewhere, vruntime 0), placed with place_entity(1)
 * (START_DEBIT: not before min_vruntime + sched_vslice()) on the parent's
 * cfs_rq and made relative to it. The caller updated the parent's curr.
 */
void ss_task_fork_fair_v5_17(const struct ss_cfs_rq *cfs, struct ss_sched_entity *se,
			     const struct ss_sched_entity *parent, const struct ss_cfs_tunables *t);
/**
 * pick_next_entity(cfs_rq, curr): the leftmost (curr included when given and
 * on_rq) — or, when that is the skip buddy (sched_yield()), the second one
 * if within wakeup_gran() of it — unless the next buddy, then the last
 * buddy, is within wakeup_gran() of the leftmost (wakeup_preempt_entity(
 * buddy, left) < 1). NULL if empty.
 */
struct ss_sched_entity *ss_pick_next_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *curr,
						  const struct ss_cfs_tunables *t);
/**
 * yield_task_fair() (v5.17) of the running entity (not alone on its rq):
 * clear_buddies(), update_curr() at now, cfs_rq->skip = curr.
 */
void ss_yield_task_fair_v5_17(struct ss_cfs_rq *cfs, uint64_t now);
/** set_next_entity(): clear se's buddies, unqueue, curr = se, exec_start = now, prev_sum_exec_runtime. */
void ss_set_next_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t now);
/**
 * check_preempt_tick(): true (resched) if curr ran more than sched_slice()
 * since picked (its buddies cleared), or at least min_granularity and its
 * vruntime is more than sched_slice() right of the leftmost's.
 */
bool ss_check_preempt_tick_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *curr,
				 const struct ss_cfs_tunables *t);
/** entity_tick(): update_curr(), then check_preempt_tick() when nr_running > 1. True: resched. */
bool ss_entity_tick_v5_17(struct ss_cfs_rq *cfs, uint64_t now, const struct ss_cfs_tunables *t);
/**
 * check_preempt_wakeup() for two SCHED_NORMAL tasks: NEXT_BUDDY marks the
 * wakee when nr_running >= sched_nr_latency; with WAKEUP_PREEMPTION,
 * update_curr() and preempt iff wakeup_preempt_entity(curr, woken) == 1,
 * which marks the wakee next buddy and (LAST_BUDDY, nr_running >=
 * sched_nr_latency) curr last buddy. True: preempt (also with no curr).
 * Not modelled: need_resched already set (the kernel returns early).
 */
bool ss_check_preempt_wakeup_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *woken, uint64_t now,
				   bool fork, const struct ss_cfs_tunables *t);

#endif /* SIMSCHED_CFS_H */

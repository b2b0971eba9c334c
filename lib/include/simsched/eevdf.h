/*
 * simsched/eevdf.h — the v6.6 EEVDF run order of one cfs_rq.
 *
 * Mirrors kernel v6.6 kernel/sched/fair.c (avg_vruntime, entity_eligible,
 * update_min_vruntime, update_curr's vruntime part, update_deadline,
 * place_entity, pick_eevdf, set_next_entity/put_prev_entity's tree part,
 * check_preempt_wakeup's EEVDF rule, __calc_delta, calc_delta_fair) and
 * core.c's sched_prio_to_weight / sched_prio_to_wmult.
 *
 * Times in ns (delta_exec) and virtual ns (vruntime, deadline, vlag). The
 * queue is an array kept by the cfs_rq (entities other than curr); picks scan
 * it (O(nr_running)): ties on deadline go to the lower vruntime, then to the
 * earlier enqueue (lower enqueue sequence) — a documented deterministic rule,
 * as the kernel's augmented rbtree order is not specified for ties.
 * No allocation after ss_cfs_rq_init() except when the queue grows past its
 * capacity (amortised doubling).
 */
#ifndef SIMSCHED_EEVDF_H
#define SIMSCHED_EEVDF_H

#include <stdbool.h>
#include <stdint.h>

extern const int ss_sched_prio_to_weight[40];
extern const uint32_t ss_sched_prio_to_wmult[40];

#define SS_NICE_0_LOAD 1024u

/** Scheduling entity: EEVDF part (PELT lives beside it, in struct ss_task). */
struct ss_sched_entity {
	unsigned long weight;      /* sched_prio_to_weight[nice + 20] */
	uint32_t inv_weight;       /* sched_prio_to_wmult[nice + 20] */
	uint64_t vruntime;
	uint64_t deadline;
	int64_t vlag;              /* lag at dequeue; == deadline as RUN_TO_PARITY marker while picked */
	uint64_t slice;            /* ns; sysctl_sched_base_slice */
	uint64_t exec_start;       /* ns */
	uint64_t sum_exec_runtime; /* ns */
	uint64_t enqueue_seq;      /* tie-break order */
	bool on_rq;
	bool vruntime_relative;    /* v5.17 CFS only: vruntime is relative to the old cfs_rq's min_vruntime
	                              (migration, fork) and gets the new one's added at enqueue (renorm) */
	unsigned queue_pos;        /* index in the cfs_rq's queue array while queued and not curr */
	uint64_t prev_sum_exec_runtime; /* v5.17 CFS only: sum_exec_runtime when last picked (check_preempt_tick) */
};

/** Features that change EEVDF behaviour (sched_feat names, v6.6 defaults all on). */
struct ss_eevdf_features {
	bool run_to_parity;           /* RUN_TO_PARITY */
	bool place_lag;               /* PLACE_LAG */
	bool place_deadline_initial;  /* PLACE_DEADLINE_INITIAL */
	bool wakeup_preemption;       /* WAKEUP_PREEMPTION */
};

struct ss_cfs_rq {
	uint64_t min_vruntime;
	int64_t avg_vruntime;      /* Σ (v_i - min_vruntime) * w_i over queued entities except curr */
	long avg_load;             /* Σ w_i over the same */
	unsigned long load_weight; /* Σ weight of all on_rq entities incl. curr (cfs_rq->load.weight) */
	unsigned nr_running;       /* on_rq entities incl. curr */
	struct ss_sched_entity *curr;
	struct ss_sched_entity **queue; /* entities in the "tree" */
	unsigned nr_queued, cap_queued;
	uint64_t next_seq;
	struct ss_sched_entity *next, *last; /* v5.17 CFS buddies (cfs_rq->next, ->last); NULL under EEVDF */
	struct ss_sched_entity *skip;        /* v5.17 CFS skip buddy (cfs_rq->skip: set by sched_yield()) */
};

void ss_cfs_rq_init(struct ss_cfs_rq *cfs);
void ss_cfs_rq_destroy(struct ss_cfs_rq *cfs);

/** Set weight/inv_weight from nice (-20..19). */
void ss_se_set_nice(struct ss_sched_entity *se, int nice);

/** __calc_delta(delta, weight, lw) with lw given by (weight, inv_weight). */
uint64_t ss___calc_delta(uint64_t delta_exec, unsigned long weight, unsigned long lw_weight, uint32_t lw_inv_weight);
/** calc_delta_fair(delta, se): delta * NICE_0_LOAD / se weight. */
uint64_t ss_calc_delta_fair(uint64_t delta, const struct ss_sched_entity *se);

/**
 * avg_vruntime(cfs_rq): V, curr included when on_rq. The division rounds
 * towards -inf (v6.6 has 650cad561cce "sched/eevdf: Fix avg_vruntime()":
 * a negative sum is floored so that an entity placed at V is eligible).
 */
uint64_t ss_avg_vruntime(const struct ss_cfs_rq *cfs);
/** entity_eligible(cfs_rq, se). */
bool ss_entity_eligible(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se);

/**
 * update_curr()'s EEVDF part: charge delta_exec ns to curr (vruntime,
 * sum_exec_runtime, exec_start = now), update_deadline, update_min_vruntime.
 * Returns true if update_deadline asks for a resched (deadline passed and
 * nr_running > 1). base_slice_ns is sysctl_sched_base_slice.
 */
bool ss_update_curr(struct ss_cfs_rq *cfs, uint64_t now, uint64_t base_slice_ns);

/**
 * place_entity(cfs_rq, se, flags) for a waking (initial=false) or new
 * (initial=true) entity; then enqueue it (account + queue). If se is to be
 * curr right away the caller uses ss_set_next_entity afterwards.
 */
void ss_enqueue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool initial,
		       const struct ss_eevdf_features *f, uint64_t base_slice_ns, uint64_t tick_nsec);

/**
 * dequeue_entity(): for sleep or migration. Sets se->vlag (update_entity_lag,
 * clamped to ±calc_delta_fair(max(2*slice, TICK_NSEC))) and removes it (if se
 * is curr, curr stays set until put_prev; the caller calls ss_put_prev_entity).
 */
void ss_dequeue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t tick_nsec);

/** pick_eevdf(cfs_rq): NULL if nothing runnable. */
struct ss_sched_entity *ss_pick_eevdf(struct ss_cfs_rq *cfs, const struct ss_eevdf_features *f);

/** set_next_entity(): se leaves the queue and becomes curr; vlag = deadline marker; exec_start = now. */
void ss_set_next_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t now);
/** put_prev_entity(): curr goes back to the queue if still on_rq; curr = NULL. */
void ss_put_prev_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *prev);

/**
 * check_preempt_wakeup() EEVDF rule (v6.6): after update_curr, preempt iff
 * pick_eevdf() returns the woken entity. Returns true to preempt curr.
 */
bool ss_check_preempt_wakeup(struct ss_cfs_rq *cfs, struct ss_sched_entity *woken, uint64_t now,
			     const struct ss_eevdf_features *f, uint64_t base_slice_ns);

/*
 * The tree primitives the v5.17 CFS variants (simsched/cfs.h) share with
 * EEVDF: __enqueue_entity() / __dequeue_entity() into and out of the queue
 * array, __pick_first_entity() (smallest vruntime, ties to the earlier
 * enqueue, as the rbtree's leftmost) and update_min_vruntime(), whose logic
 * is the same in v5.17 and v6.6 (v6.6 also shifts avg_vruntime, which CFS
 * never reads).
 */
void ss__enqueue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se);
void ss__dequeue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se);
struct ss_sched_entity *ss__pick_first_entity(const struct ss_cfs_rq *cfs);
/** __pick_next_entity(se) (v5.17): the queued entity right after queued se in that order, or NULL. */
struct ss_sched_entity *ss__pick_next_entity(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se);
void ss_update_min_vruntime(struct ss_cfs_rq *cfs);

/** sysctl_sched_base_slice scaled as update_sysctl() (SCHED_TUNABLESCALING_LOG): 750000 * (1 + ilog2(min(ncpus, 8))). */
uint64_t ss_sched_base_slice(unsigned nr_cpus);

#endif /* SIMSCHED_EEVDF_H */

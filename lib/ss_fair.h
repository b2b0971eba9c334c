/*
 * lib/ss_fair.h — the run order of a kernel version as one ops table: the
 * fair class's entity functions of v6.6 (EEVDF, eevdf.c) or of v5.17 (CFS,
 * cfs.c), chosen once per run from --kernel (sim->fair). core.c calls them
 * where the kernel's core.c/fair.c call the function of the same name; each
 * table's functions cite their version. Not a public header.
 */
#ifndef SIMSCHED_INTERNAL_FAIR_H
#define SIMSCHED_INTERNAL_FAIR_H

#include <stdbool.h>

struct ss_sim;
struct ss_rq;
struct ss_sched_entity;

struct ss_fair_ops {
	/** update_curr() on rq's cfs_rq; true if it asks for a resched (v6.6 update_deadline()). */
	bool (*update_curr)(struct ss_sim *sim, struct ss_rq *rq);
	/** enqueue_entity() (the caller ran update_curr()); wakeup = ENQUEUE_WAKEUP. */
	void (*enqueue_entity)(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool wakeup);
	/** dequeue_entity() (the caller ran update_curr()); sleep = DEQUEUE_SLEEP, else a migration. */
	void (*dequeue_entity)(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool sleep);
	/** The entity pick_next_task_fair() runs next (prev already put back); NULL if none. */
	struct ss_sched_entity *(*pick_next_entity)(struct ss_sim *sim, struct ss_rq *rq);
	/** set_next_entity() at sim->now. */
	void (*set_next_entity)(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se);
	/** check_preempt_wakeup() of se just enqueued on rq; fork = WF_FORK. True: preempt curr. */
	bool (*check_preempt_wakeup)(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool fork);
	/** entity_tick() of rq's curr; true: resched. */
	bool (*entity_tick)(struct ss_sim *sim, struct ss_rq *rq);
	/** migrate_task_rq_fair()'s run-order part for a waking task leaving old. */
	void (*migrate_task_rq)(struct ss_sim *sim, struct ss_rq *old, struct ss_sched_entity *se);
	/**
	 * task_fork_fair() of se on rq: parent = rq's running task (a spawn), or
	 * none (a task of the workload's start).
	 */
	void (*task_fork)(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool parent);
	/**
	 * yield_task_fair() of rq's running task (do_sched_yield()); the caller
	 * checked that it is not alone on rq and calls schedule() next.
	 */
	void (*yield_task)(struct ss_sim *sim, struct ss_rq *rq);
};

/** v6.6 (EEVDF) and v5.17 (CFS). */
extern const struct ss_fair_ops ss_fair_v6_6, ss_fair_v5_17;

#endif

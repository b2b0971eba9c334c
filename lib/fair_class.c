/*
 * fair_class.c — the fair class's run order per kernel version, as the ops
 * tables of ss_fair.h: v6.6 EEVDF (eevdf.c) and v5.17 CFS (cfs.c). core.c
 * holds the flow (try_to_wake_up, schedule, the tick) common to both.
 */
#include "ss_sched.h"
#include "ss_fair.h"

#include "simsched/cfs.h"

/* ---------------------------------------------------------------- v6.6 EEVDF */

static bool update_curr_v6_6(struct ss_sim *sim, struct ss_rq *rq)
{
	return ss_update_curr(&rq->cfs, sim->now, sim->base_slice);
}

/* v6.6 enqueue_entity(): place_entity() for every enqueue (wake_up_new_task() passes no ENQUEUE_INITIAL) */
static void enqueue_entity_v6_6(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool wakeup)
{
	(void)wakeup;
	ss_enqueue_entity(&rq->cfs, se, false, &sim->eevdf_f, sim->base_slice, sim->tick_nsec);
}

static void dequeue_entity_v6_6(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool sleep)
{
	(void)sleep;
	ss_dequeue_entity(&rq->cfs, se, sim->tick_nsec);
}

static struct ss_sched_entity *pick_next_entity_v6_6(struct ss_sim *sim, struct ss_rq *rq)
{
	return ss_pick_eevdf(&rq->cfs, &sim->eevdf_f);
}

static void set_next_entity_v6_6(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se)
{
	ss_set_next_entity(&rq->cfs, se, sim->now);
}

static bool check_preempt_wakeup_v6_6(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool fork)
{
	(void)fork;
	return ss_check_preempt_wakeup(&rq->cfs, se, sim->now, &sim->eevdf_f, sim->base_slice);
}

/* v6.6 entity_tick(): update_curr(); update_deadline() decides the resched (no check_preempt_tick()) */
static bool entity_tick_v6_6(struct ss_sim *sim, struct ss_rq *rq)
{
	return ss_update_curr(&rq->cfs, sim->now, sim->base_slice);
}

/* v6.6 migrate_task_rq_fair(): the lag travels in se->vlag; vruntime is not touched */
static void migrate_task_rq_v6_6(struct ss_sim *sim, struct ss_rq *old, struct ss_sched_entity *se)
{
	(void)sim, (void)old, (void)se;
}

/* v6.6 task_fork_fair(): its place_entity() is overwritten by the enqueue's (eevdf.c place_entity()) */
static void task_fork_v6_6(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool parent)
{
	(void)sim, (void)rq, (void)se, (void)parent;
}

/*
 * v6.6 yield_task_fair(): clear_buddies() (no buddy under EEVDF here),
 * update_curr(), then "se->deadline += calc_delta_fair(se->slice, se)":
 * the yielder's request ends one slice later, so pick_eevdf() prefers any
 * eligible entity with an earlier deadline (RUN_TO_PARITY's mark, vlag ==
 * deadline, no longer holds).
 */
static void yield_task_v6_6(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_sched_entity *se = rq->cfs.curr;

	if (!se)
		return;
	ss_update_curr(&rq->cfs, sim->now, sim->base_slice);
	se->deadline += ss_calc_delta_fair(se->slice, se);
}

const struct ss_fair_ops ss_fair_v6_6 = {
	.update_curr = update_curr_v6_6,
	.enqueue_entity = enqueue_entity_v6_6,
	.dequeue_entity = dequeue_entity_v6_6,
	.pick_next_entity = pick_next_entity_v6_6,
	.set_next_entity = set_next_entity_v6_6,
	.check_preempt_wakeup = check_preempt_wakeup_v6_6,
	.entity_tick = entity_tick_v6_6,
	.migrate_task_rq = migrate_task_rq_v6_6,
	.task_fork = task_fork_v6_6,
	.yield_task = yield_task_v6_6,
};

/* ---------------------------------------------------------------- v5.17 CFS */

static bool update_curr_v5_17(struct ss_sim *sim, struct ss_rq *rq)
{
	ss_update_curr_v5_17(&rq->cfs, sim->now);
	return false;
}

static void enqueue_entity_v5_17(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool wakeup)
{
	ss_enqueue_entity_v5_17(&rq->cfs, se, wakeup, &sim->cfs_t);
}

static void dequeue_entity_v5_17(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool sleep)
{
	(void)sim;
	ss_dequeue_entity_v5_17(&rq->cfs, se, sleep);
}

/* v5.17 pick_next_task_fair(), its "simple" path: put_prev_task() first, then pick_next_entity(cfs_rq, NULL) */
static struct ss_sched_entity *pick_next_entity_v5_17(struct ss_sim *sim, struct ss_rq *rq)
{
	return ss_pick_next_entity_v5_17(&rq->cfs, NULL, &sim->cfs_t);
}

static void set_next_entity_v5_17(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se)
{
	ss_set_next_entity_v5_17(&rq->cfs, se, sim->now);
}

static bool check_preempt_wakeup_v5_17(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool fork)
{
	return ss_check_preempt_wakeup_v5_17(&rq->cfs, se, sim->now, fork, &sim->cfs_t);
}

static bool entity_tick_v5_17(struct ss_sim *sim, struct ss_rq *rq)
{
	return ss_entity_tick_v5_17(&rq->cfs, sim->now, &sim->cfs_t);
}

static void migrate_task_rq_v5_17(struct ss_sim *sim, struct ss_rq *old, struct ss_sched_entity *se)
{
	(void)sim;
	ss_migrate_task_rq_v5_17(&old->cfs, se);
}

/*
 * v5.17 sched_fork(): set_load_weight(), then task_fork_fair() on the
 * parent's cfs_rq (update_curr() first, the child takes curr's vruntime).
 */
static void task_fork_v5_17(struct ss_sim *sim, struct ss_rq *rq, struct ss_sched_entity *se, bool parent)
{
	ss_se_set_nice(se, sim->plan->task[task_of(se)->id].nice);
	if (parent && rq->cfs.curr)
		ss_update_curr_v5_17(&rq->cfs, sim->now);
	ss_task_fork_fair_v5_17(&rq->cfs, se, parent ? rq->cfs.curr : NULL, &sim->cfs_t);
}

static void yield_task_v5_17(struct ss_sim *sim, struct ss_rq *rq)
{
	ss_yield_task_fair_v5_17(&rq->cfs, sim->now);
}

const struct ss_fair_ops ss_fair_v5_17 = {
	.update_curr = update_curr_v5_17,
	.enqueue_entity = enqueue_entity_v5_17,
	.dequeue_entity = dequeue_entity_v5_17,
	.pick_next_entity = pick_next_entity_v5_17,
	.set_next_entity = set_next_entity_v5_17,
	.check_preempt_wakeup = check_preempt_wakeup_v5_17,
	.entity_tick = entity_tick_v5_17,
	.migrate_task_rq = migrate_task_rq_v5_17,
	.task_fork = task_fork_v5_17,
	.yield_task = yield_task_v5_17,
};

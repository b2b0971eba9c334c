/*
 * cfs.c — the v5.17 CFS run order of one cfs_rq (--kernel 5.17).
 *
 * Mirrors kernel v5.17 kernel/sched/fair.c, read at v5.17-rc5
 * (dunli/linux-5.17 6d28e3552c15: kernel/sched as tagged). Every function
 * here is the v5.17 variant of the kernel function of the same name; the
 * v6.6 EEVDF ones are in eevdf.c. The queue array, __pick_first_entity()
 * and update_min_vruntime() are shared with eevdf.c (simsched/eevdf.h).
 *
 * No task groups (for_each_sched_entity() runs once), no SCHED_IDLE or
 * SCHED_BATCH tasks, no skip buddy (no yield), no HRTICK, no bandwidth
 * control, sysctl_sched_child_runs_first = 0. Weights in scale_load_down()
 * units, as eevdf.c.
 */
#include "simsched/cfs.h"

#include <stddef.h>

/* ilog2() of a non-zero 32-bit value. */
static inline unsigned ilog2_u32(uint32_t v)
{
	return (unsigned)(31 - __builtin_clz(v));
}

/*
 * v5.17 fair.c get_update_sysctl_factor() (SCHED_TUNABLESCALING_LOG) and
 * update_sysctl(): the three tunables are their normalized values times
 * 1 + ilog2(min(num_online_cpus(), 8)). sched_nr_latency stays 8: only
 * sched_proc_update_handler() (a sysctl write) recomputes it.
 */
void ss_cfs_tunables_init(struct ss_cfs_tunables *t, unsigned nr_cpus, ss_features_t set)
{
	unsigned cpus = nr_cpus < 8 ? nr_cpus : 8;
	uint64_t factor;

	if (cpus == 0)
		cpus = 1;
	factor = 1 + ilog2_u32(cpus);
	t->latency = 6000000ULL * factor;            /* normalized_sysctl_sched_latency */
	t->min_granularity = 750000ULL * factor;     /* normalized_sysctl_sched_min_granularity */
	t->wakeup_granularity = 1000000ULL * factor; /* normalized_sysctl_sched_wakeup_granularity */
	t->nr_latency = 8;
	t->gentle_fair_sleepers = ss_feat(set, SS_FEAT_GENTLE_FAIR_SLEEPERS);
	t->start_debit = ss_feat(set, SS_FEAT_START_DEBIT);
	t->next_buddy = ss_feat(set, SS_FEAT_NEXT_BUDDY);
	t->last_buddy = ss_feat(set, SS_FEAT_LAST_BUDDY);
	t->alt_period = ss_feat(set, SS_FEAT_ALT_PERIOD);
	t->base_slice = ss_feat(set, SS_FEAT_BASE_SLICE);
	t->wakeup_preemption = ss_feat(set, SS_FEAT_WAKEUP_PREEMPTION);
}

/* v5.17 fair.c entity_before() */
static inline bool entity_before(const struct ss_sched_entity *a, const struct ss_sched_entity *b)
{
	return (int64_t)(a->vruntime - b->vruntime) < 0;
}

/* v5.17 fair.c max_vruntime(), wrap-safe */
static inline uint64_t max_vruntime(uint64_t max_vruntime, uint64_t vruntime)
{
	int64_t delta = (int64_t)(vruntime - max_vruntime);

	if (delta > 0)
		max_vruntime = vruntime;
	return max_vruntime;
}

/*
 * v5.17 fair.c __sched_period(): the period in which each task runs once;
 * past sched_nr_latency tasks it stretches so that slices do not get too
 * small: p = (nr <= nl) ? l : nr * min_gran.
 */
uint64_t ss___sched_period_v5_17(unsigned long nr_running, const struct ss_cfs_tunables *t)
{
	if (nr_running > t->nr_latency)
		return nr_running * t->min_granularity;
	return t->latency;
}

/*
 * v5.17 fair.c sched_slice(): s = p * w / rw, with se counted in (nr + 1,
 * load + w) if it is not queued yet. __calc_delta() recomputes the load's
 * inv_weight (update_load_add() zeroes it), so the load is passed without one.
 */
uint64_t ss_sched_slice_v5_17(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se,
			      const struct ss_cfs_tunables *t)
{
	/* ALT_PERIOD: rq->cfs.h_nr_running, = cfs_rq->nr_running without groups */
	unsigned nr_running = cfs->nr_running;
	unsigned long load = cfs->load_weight;
	uint64_t slice;

	slice = ss___sched_period_v5_17(nr_running + !se->on_rq, t);
	if (!se->on_rq)
		load += se->weight;
	slice = ss___calc_delta(slice, se->weight, load, 0);
	if (t->base_slice && slice < t->min_granularity)
		slice = t->min_granularity;
	return slice;
}

/* v5.17 fair.c sched_vslice(): vs = s / w */
static uint64_t sched_vslice(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se,
			     const struct ss_cfs_tunables *t)
{
	return ss_calc_delta_fair(ss_sched_slice_v5_17(cfs, se, t), se);
}

/* v5.17 fair.c update_curr(): vruntime += calc_delta_fair(delta_exec), update_min_vruntime() */
void ss_update_curr_v5_17(struct ss_cfs_rq *cfs, uint64_t now)
{
	struct ss_sched_entity *curr = cfs->curr;
	uint64_t delta_exec;

	if (!curr)
		return;
	delta_exec = now - curr->exec_start;
	if ((int64_t)delta_exec <= 0)
		return;
	curr->exec_start = now;
	curr->sum_exec_runtime += delta_exec;
	curr->vruntime += ss_calc_delta_fair(delta_exec, curr);
	ss_update_min_vruntime(cfs);
}

/*
 * v5.17 fair.c place_entity(): a new entity (initial) starts a vslice after
 * min_vruntime (START_DEBIT: "the 'current' period is already promised to
 * the current tasks"); a waking one no earlier than min_vruntime - latency
 * (halved by GENTLE_FAIR_SLEEPERS: "sleeps up to a single latency don't
 * count"). Never backwards: v = max(v, that).
 */
static void place_entity_v5_17(const struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool initial,
			       const struct ss_cfs_tunables *t)
{
	uint64_t vruntime = cfs->min_vruntime;

	if (initial && t->start_debit)
		vruntime += sched_vslice(cfs, se, t);
	if (!initial) {
		uint64_t thresh = t->latency;   /* min_granularity for an idle entity: none modelled */

		if (t->gentle_fair_sleepers)
			thresh >>= 1;
		vruntime -= thresh;
	}
	se->vruntime = max_vruntime(se->vruntime, vruntime);
}

/*
 * v5.17 fair.c enqueue_entity(): renorm = !ENQUEUE_WAKEUP || ENQUEUE_MIGRATED,
 * i.e. exactly the entities whose vruntime was made relative (fork, a
 * balancer's detach, migrate_task_rq_fair() of a waking task): they get this
 * cfs_rq's min_vruntime added after update_curr() (the caller's). Then
 * account_entity_enqueue(), place_entity(0) for a wakeup, __enqueue_entity().
 */
void ss_enqueue_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool wakeup,
			     const struct ss_cfs_tunables *t)
{
	bool curr = cfs->curr == se;

	if (se->vruntime_relative) {
		se->vruntime += cfs->min_vruntime;
		se->vruntime_relative = false;
	}
	/* account_entity_enqueue() */
	cfs->load_weight += se->weight;
	cfs->nr_running++;
	if (wakeup)
		place_entity_v5_17(cfs, se, false, t);
	if (!curr)
		ss__enqueue_entity(cfs, se);
	se->on_rq = true;
}

/* v5.17 fair.c clear_buddies(): last, next and skip */
static void clear_buddies(struct ss_cfs_rq *cfs, const struct ss_sched_entity *se)
{
	if (cfs->last == se)
		cfs->last = NULL;
	if (cfs->next == se)
		cfs->next = NULL;
	if (cfs->skip == se)
		cfs->skip = NULL;
}

/*
 * v5.17 fair.c yield_task_fair() for a SCHED_NORMAL task not alone on its
 * rq: clear_buddies(), update_curr(), set_skip_buddy() (one level: no task
 * groups). pick_next_entity() then avoids it while that is not too unfair.
 */
void ss_yield_task_fair_v5_17(struct ss_cfs_rq *cfs, uint64_t now)
{
	struct ss_sched_entity *se = cfs->curr;

	if (!se)
		return;
	clear_buddies(cfs, se);
	ss_update_curr_v5_17(cfs, now);
	cfs->skip = se;
}

/*
 * v5.17 fair.c dequeue_entity(): clear_buddies(), unqueue, account; "normalize
 * after update_curr()" a migrating entity (not DEQUEUE_SLEEP): vruntime -=
 * min_vruntime; then update_min_vruntime() (not DEQUEUE_SAVE alone).
 */
void ss_dequeue_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool sleep)
{
	clear_buddies(cfs, se);
	if (se != cfs->curr)
		ss__dequeue_entity(cfs, se);
	se->on_rq = false;
	/* account_entity_dequeue() */
	cfs->load_weight -= se->weight;
	cfs->nr_running--;
	if (!sleep) {
		se->vruntime -= cfs->min_vruntime;
		se->vruntime_relative = true;
	}
	ss_update_min_vruntime(cfs);
}

/* v5.17 fair.c migrate_task_rq_fair(), TASK_WAKING part: se->vruntime -= min_vruntime of the old cfs_rq */
void ss_migrate_task_rq_v5_17(const struct ss_cfs_rq *old, struct ss_sched_entity *se)
{
	if (se->vruntime_relative)
		return;
	se->vruntime -= old->min_vruntime;
	se->vruntime_relative = true;
}

/*
 * v5.17 fair.c task_fork_fair(): __sched_fork() zeroed the child's vruntime;
 * it takes the parent's (curr of the parent's cfs_rq), place_entity(1), and
 * is made relative to the parent's min_vruntime (wake_up_new_task()'s
 * enqueue adds the new cfs_rq's). sysctl_sched_child_runs_first = 0: no swap.
 */
void ss_task_fork_fair_v5_17(const struct ss_cfs_rq *cfs, struct ss_sched_entity *se,
			     const struct ss_sched_entity *parent, const struct ss_cfs_tunables *t)
{
	se->on_rq = false;
	se->vruntime = parent ? parent->vruntime : 0;
	place_entity_v5_17(cfs, se, true, t);
	se->vruntime -= cfs->min_vruntime;
	se->vruntime_relative = true;
}

/* v5.17 fair.c wakeup_gran(): the granularity in se's virtual time (penalises light wakees) */
uint64_t ss_wakeup_gran_v5_17(const struct ss_sched_entity *se, const struct ss_cfs_tunables *t)
{
	return ss_calc_delta_fair(t->wakeup_granularity, se);
}

/* v5.17 fair.c wakeup_preempt_entity(): should se preempt curr: -1 no (not left of it), 0 within gran, 1 yes */
int ss_wakeup_preempt_entity_v5_17(const struct ss_sched_entity *curr, const struct ss_sched_entity *se,
				   const struct ss_cfs_tunables *t)
{
	int64_t gran, vdiff = (int64_t)(curr->vruntime - se->vruntime);

	if (vdiff <= 0)
		return -1;
	gran = (int64_t)ss_wakeup_gran_v5_17(se, t);
	if (vdiff > gran)
		return 1;
	return 0;
}

/*
 * v5.17 fair.c pick_next_entity(): keep things fair (the leftmost, curr
 * included), then "pick the next process, since someone really wants that
 * to run", then "the last process, for cache locality" — each only if it
 * is not more than wakeup_gran() right of the leftmost.
 */
struct ss_sched_entity *ss_pick_next_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *curr,
						  const struct ss_cfs_tunables *t)
{
	struct ss_sched_entity *left = ss__pick_first_entity(cfs);
	struct ss_sched_entity *se;

	if (curr && !curr->on_rq)
		curr = NULL;
	if (!left || (curr && entity_before(curr, left)))
		left = curr;
	if (!left)
		return NULL;
	se = left;
	/* "avoid running the skip buddy, if running something else can be done without getting too unfair" */
	if (cfs->skip && cfs->skip == se) {
		struct ss_sched_entity *second;

		if (se == curr) {
			second = ss__pick_first_entity(cfs);
		} else {
			second = ss__pick_next_entity(cfs, se);
			if (!second || (curr && entity_before(curr, second)))
				second = curr;
		}
		if (second && ss_wakeup_preempt_entity_v5_17(second, left, t) < 1)
			se = second;
	}
	if (cfs->next && ss_wakeup_preempt_entity_v5_17(cfs->next, left, t) < 1)
		se = cfs->next;
	else if (cfs->last && ss_wakeup_preempt_entity_v5_17(cfs->last, left, t) < 1)
		se = cfs->last;
	return se;
}

/* v5.17 fair.c set_next_entity(): its buddies go, it leaves the tree, and its run starts */
void ss_set_next_entity_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t now)
{
	clear_buddies(cfs, se);
	if (se->on_rq)
		ss__dequeue_entity(cfs, se);
	se->exec_start = now;   /* update_stats_curr_start() */
	cfs->curr = se;
	se->prev_sum_exec_runtime = se->sum_exec_runtime;
}

/*
 * v5.17 fair.c check_preempt_tick(): resched once curr has run its
 * sched_slice() since picked ("ensure it doesn't get re-elected due to buddy
 * favours": its buddies are cleared); or, after at least min_granularity,
 * when it is more than a slice right of the leftmost ("a task that missed
 * wakeup preemption by a narrow margin doesn't have to wait for a full slice").
 */
bool ss_check_preempt_tick_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *curr,
				 const struct ss_cfs_tunables *t)
{
	uint64_t ideal_runtime = ss_sched_slice_v5_17(cfs, curr, t);
	uint64_t delta_exec = curr->sum_exec_runtime - curr->prev_sum_exec_runtime;
	const struct ss_sched_entity *se;
	int64_t delta;

	if (delta_exec > ideal_runtime) {
		clear_buddies(cfs, curr);
		return true;
	}
	if (delta_exec < t->min_granularity)
		return false;
	se = ss__pick_first_entity(cfs);
	if (!se)
		return false;
	delta = (int64_t)(curr->vruntime - se->vruntime);
	if (delta < 0)
		return false;
	return (uint64_t)delta > ideal_runtime;
}

/* v5.17 fair.c entity_tick(): update_curr(), and check_preempt_tick() if anything else is runnable */
bool ss_entity_tick_v5_17(struct ss_cfs_rq *cfs, uint64_t now, const struct ss_cfs_tunables *t)
{
	ss_update_curr_v5_17(cfs, now);
	if (cfs->curr && cfs->nr_running > 1)
		return ss_check_preempt_tick_v5_17(cfs, cfs->curr, t);
	return false;
}

/*
 * v5.17 fair.c check_preempt_wakeup(), for two SCHED_NORMAL tasks of one
 * cfs_rq: scale = nr_running >= sched_nr_latency (counted with the wakee
 * enqueued); NEXT_BUDDY (off by default) marks the wakee at once when
 * scaled; with WAKEUP_PREEMPTION, update_curr(), and the wakee preempts iff
 * it is more than wakeup_gran() left of curr — then it becomes the next
 * buddy (pick_next_entity() favours it) and, with LAST_BUDDY when scaled,
 * curr the last buddy.
 */
bool ss_check_preempt_wakeup_v5_17(struct ss_cfs_rq *cfs, struct ss_sched_entity *woken, uint64_t now,
				   bool fork, const struct ss_cfs_tunables *t)
{
	struct ss_sched_entity *se = cfs->curr;
	bool scale, next_buddy_marked = false;

	if (!se)
		return true;
	if (se == woken)
		return false;
	scale = cfs->nr_running >= t->nr_latency;
	if (t->next_buddy && scale && !fork && woken->on_rq) {   /* !(wake_flags & WF_FORK) */
		cfs->next = woken;
		next_buddy_marked = true;
	}
	if (!t->wakeup_preemption)
		return false;
	ss_update_curr_v5_17(cfs, now);
	if (ss_wakeup_preempt_entity_v5_17(se, woken, t) != 1)
		return false;
	if (!next_buddy_marked && woken->on_rq)
		cfs->next = woken;
	/* preempt: "only set the backward buddy when the current task is still on the rq" */
	if (se->on_rq && t->last_buddy && scale)
		cfs->last = se;
	return true;
}

/*
 * eevdf.c — the v6.6 EEVDF run order of one cfs_rq.
 *
 * Mirrors Linux v6.6 kernel/sched/fair.c (v6.6 release: the EEVDF series up
 * to 63304558ba5d "sched/eevdf: Curb wakeup-preemption" plus the v6.6-rc
 * fixes 650cad561cce "Fix avg_vruntime()", 2f2fc17bab00 "Also update slice on
 * placement", b01db23d5923 "Fix pick_eevdf()", 8dafa9d0eb1a "Fix min_deadline
 * heap integrity") and core.c's sched_prio_to_weight / sched_prio_to_wmult.
 * Features as in v6.6: RUN_TO_PARITY, PLACE_LAG, PLACE_DEADLINE_INITIAL,
 * WAKEUP_PREEMPTION; no DELAY_DEQUEUE, no PREEMPT_SHORT, no NEXT_BUDDY.
 *
 * The model is a 64-bit kernel without task groups: weights are kept in
 * scale_load_down() units (1024 for nice 0), which is what every EEVDF
 * computation (avg_vruntime, entity_eligible, place_entity, __calc_delta's
 * fact) uses in the kernel anyway.
 *
 * The kernel keeps queued entities in an rbtree ordered by vruntime and
 * augmented with min_deadline, and finds the earliest eligible deadline with
 * a heap search. Here the "tree" is an unordered array (cfs->queue) and the
 * pick is a linear scan: O(nr_running), with the same result except for ties,
 * which the kernel leaves to the tree shape. Our documented tie rule, over the
 * eligible candidates (queue and curr alike):
 *
 *   1. earliest deadline, 2. lower vruntime, 3. lower enqueue_seq,
 *
 * where enqueue_seq is stamped from cfs->next_seq every time an entity goes
 * into the queue (enqueue and put_prev), and curr ranks as if it had just
 * been put back (it loses a full tie to any queued entity). So the pick is the
 * same whether the caller picks before or after ss_put_prev_entity().
 *
 * Hot path: no allocation; only __enqueue_entity() may grow the array
 * (amortised doubling). Removal is O(1): swap with the last element, using
 * se->queue_pos.
 */
#include "simsched/eevdf.h"

#include <glib.h>
#include <stddef.h>

/* WMULT_CONST / WMULT_SHIFT (fair.c) */
#define WMULT_CONST	(~0U)
#define WMULT_SHIFT	32

#define SS_QUEUE_INIT_CAP 8u

/*
 * kernel v6.6 core.c sched_prio_to_weight[]: nice -20 .. 19. Each step is
 * ~1.25x, so a nice level is worth ~10% CPU against a nice-0 neighbour.
 */
const int ss_sched_prio_to_weight[40] = {
 /* -20 */     88761,     71755,     56483,     46273,     36291,
 /* -15 */     29154,     23254,     18705,     14949,     11916,
 /* -10 */      9548,      7620,      6100,      4904,      3906,
 /*  -5 */      3121,      2501,      1991,      1586,      1277,
 /*   0 */      1024,       820,       655,       526,       423,
 /*   5 */       335,       272,       215,       172,       137,
 /*  10 */       110,        87,        70,        56,        45,
 /*  15 */        36,        29,        23,        18,        15,
};

/*
 * kernel v6.6 core.c sched_prio_to_wmult[]: 2^32 / weight, precalculated (the
 * table's rounding is not uniform, so it is copied, not recomputed).
 */
const uint32_t ss_sched_prio_to_wmult[40] = {
 /* -20 */     48388,     59856,     76040,     92818,    118348,
 /* -15 */    147320,    184698,    229616,    287308,    360437,
 /* -10 */    449829,    563644,    704093,    875809,   1099582,
 /*  -5 */   1376151,   1717300,   2157191,   2708050,   3363326,
 /*   0 */   4194304,   5237765,   6557202,   8165337,  10153587,
 /*   5 */  12820798,  15790321,  19976592,  24970740,  31350126,
 /*  10 */  39045157,  49367440,  61356676,  76695844,  95443717,
 /*  15 */ 119304647, 148102320, 186737708, 238609294, 286331153,
};

/* ------------------------------------------------------------------------ */
/* Arithmetic helpers                                                        */

/* fls() (include/asm-generic/bitops/fls.h): 1-based index of the top set bit, 0 for 0. */
static inline int fls32(uint32_t x)
{
	return x ? 32 - __builtin_clz(x) : 0;
}

/* mul_u64_u32_shr() (include/linux/math64.h, the 128-bit variant of x86-64). */
static inline uint64_t mul_u64_u32_shr(uint64_t a, uint32_t mul, unsigned int shift)
{
	return (uint64_t)(((unsigned __int128)a * mul) >> shift);
}

/* div_s64(): truncating signed division (C99 semantics match the kernel's). */
static inline int64_t div_s64(int64_t dividend, int64_t divisor)
{
	return dividend / divisor;
}

/* ilog2() of a non-zero 32-bit value. */
static inline unsigned ilog2_u32(uint32_t v)
{
	return (unsigned)(31 - __builtin_clz(v));
}

/* ------------------------------------------------------------------------ */
/* Weights                                                                   */

void ss_se_set_nice(struct ss_sched_entity *se, int nice)
{
	int prio;

	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	prio = nice + 20;
	/* kernel v6.6 core.c set_load_weight() */
	se->weight = (unsigned long)ss_sched_prio_to_weight[prio];
	se->inv_weight = ss_sched_prio_to_wmult[prio];
}

/* kernel v6.6 fair.c __update_inv_weight(), on a local copy (lw is const here). */
static uint32_t update_inv_weight(unsigned long w, uint32_t inv_weight)
{
	if (inv_weight)
		return inv_weight;
	if (w >= WMULT_CONST)
		return 1;
	if (!w)
		return WMULT_CONST;
	return (uint32_t)(WMULT_CONST / w);
}

/*
 * kernel v6.6 fair.c __calc_delta():
 *   delta_exec * weight / lw.weight
 *     OR
 *   (delta_exec * (weight * lw->inv_weight)) >> WMULT_SHIFT
 *
 * fact = weight * inv_weight is renormalised to 32 bits (shifting the excess
 * out and lowering the final shift by as much), then the 64x32 product is
 * taken with a 96-bit intermediate by mul_u64_u32_shr(). Weights are in
 * scale_load_down() units, as the kernel's fact.
 */
uint64_t ss___calc_delta(uint64_t delta_exec, unsigned long weight, unsigned long lw_weight,
			 uint32_t lw_inv_weight)
{
	uint64_t fact = weight;
	uint32_t fact_hi = (uint32_t)(fact >> 32);
	int shift = WMULT_SHIFT;
	uint32_t inv = update_inv_weight(lw_weight, lw_inv_weight);
	int fs;

	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	/* mul_u32_u32() */
	fact = (uint64_t)(uint32_t)fact * inv;

	fact_hi = (uint32_t)(fact >> 32);
	if (fact_hi) {
		fs = fls32(fact_hi);
		shift -= fs;
		fact >>= fs;
	}

	return mul_u64_u32_shr(delta_exec, (uint32_t)fact, (unsigned int)shift);
}

/* kernel v6.6 fair.c calc_delta_fair(): delta /= w */
uint64_t ss_calc_delta_fair(uint64_t delta, const struct ss_sched_entity *se)
{
	if (se->weight != SS_NICE_0_LOAD)
		delta = ss___calc_delta(delta, SS_NICE_0_LOAD, se->weight, se->inv_weight);
	return delta;
}

/* sysctl_sched_base_slice after update_sysctl() (kernel v6.6 fair.c get_update_sysctl_factor, SCHED_TUNABLESCALING_LOG) */
uint64_t ss_sched_base_slice(unsigned nr_cpus)
{
	unsigned cpus = nr_cpus < 8 ? nr_cpus : 8;
	uint64_t factor;

	/* num_online_cpus() is at least 1 in the kernel; treat 0 as 1 */
	if (cpus == 0)
		cpus = 1;
	factor = 1 + ilog2_u32(cpus);
	return 750000ULL * factor;
}

/* ------------------------------------------------------------------------ */
/* The cfs_rq                                                                */

void ss_cfs_rq_init(struct ss_cfs_rq *cfs)
{
	cfs->min_vruntime = 0;
	cfs->avg_vruntime = 0;
	cfs->avg_load = 0;
	cfs->load_weight = 0;
	cfs->nr_running = 0;
	cfs->curr = NULL;
	cfs->nr_queued = 0;
	cfs->cap_queued = SS_QUEUE_INIT_CAP;
	cfs->queue = g_new(struct ss_sched_entity *, cfs->cap_queued);
	cfs->next_seq = 0;
	cfs->next = cfs->last = NULL;
}

void ss_cfs_rq_destroy(struct ss_cfs_rq *cfs)
{
	g_free(cfs->queue);
	cfs->queue = NULL;
	cfs->nr_queued = 0;
	cfs->cap_queued = 0;
	cfs->curr = NULL;
}

/* kernel v6.6 fair.c entity_key() */
static inline int64_t entity_key(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se)
{
	return (int64_t)(se->vruntime - cfs->min_vruntime);
}

/*
 * kernel v6.6 fair.c avg_vruntime_add(): with v0 = min_vruntime,
 *   cfs->avg_vruntime = \Sum (v_i - v0) * w_i,  cfs->avg_load = \Sum w_i
 * over the entities in the tree (curr excluded while it runs).
 */
static void avg_vruntime_add(struct ss_cfs_rq *cfs, const struct ss_sched_entity *se)
{
	long weight = (long)se->weight;
	int64_t key = entity_key(cfs, se);

	cfs->avg_vruntime += key * weight;
	cfs->avg_load += weight;
}

/* kernel v6.6 fair.c avg_vruntime_sub() */
static void avg_vruntime_sub(struct ss_cfs_rq *cfs, const struct ss_sched_entity *se)
{
	long weight = (long)se->weight;
	int64_t key = entity_key(cfs, se);

	cfs->avg_vruntime -= key * weight;
	cfs->avg_load -= weight;
}

/* kernel v6.6 fair.c avg_vruntime_update(): v0' = v0 + d ==> avg' = avg - d * avg_load */
static inline void avg_vruntime_update(struct ss_cfs_rq *cfs, int64_t delta)
{
	cfs->avg_vruntime -= cfs->avg_load * delta;
}

/*
 * kernel v6.6 fair.c avg_vruntime(): V = v0 + \Sum (v_i - v0) w_i / \Sum w_i,
 * curr's term added on the fly while it is on_rq.
 *
 * Rounding: the division is a floor, not a truncation. v6.6 contains
 * 650cad561cce ("sched/eevdf: Fix avg_vruntime()", merged for v6.6-rc5):
 * "avg_vruntime() + 0 must result in entity_eligible() := true", so for a
 * negative sum it subtracts (load - 1) before div_s64(). The reference page
 * (§4.3, read at 63304558ba5d, before that fix) says "truncating division";
 * the v6.6 source wins.
 */
uint64_t ss_avg_vruntime(const struct ss_cfs_rq *cfs)
{
	const struct ss_sched_entity *curr = cfs->curr;
	int64_t avg = cfs->avg_vruntime;
	long load = cfs->avg_load;

	if (curr && curr->on_rq) {
		long weight = (long)curr->weight;

		avg += entity_key(cfs, curr) * weight;
		load += weight;
	}

	if (load) {
		/* sign flips effective floor / ceil */
		if (avg < 0)
			avg -= (load - 1);
		avg = div_s64(avg, load);
	}

	return cfs->min_vruntime + (uint64_t)avg;
}

/*
 * kernel v6.6 fair.c entity_eligible(): lag_i = w_i (V - v_i) >= 0, i.e.
 * v_i <= V, evaluated exactly (no division) as
 *   \Sum (v_j - v0) w_j >= (v_i - v0) \Sum w_j.
 */
bool ss_entity_eligible(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se)
{
	const struct ss_sched_entity *curr = cfs->curr;
	int64_t avg = cfs->avg_vruntime;
	long load = cfs->avg_load;

	if (curr && curr->on_rq) {
		long weight = (long)curr->weight;

		avg += entity_key(cfs, curr) * weight;
		load += weight;
	}

	return avg >= entity_key(cfs, se) * load;
}

/* kernel v6.6 fair.c max_vruntime()/min_vruntime() helpers, wrap-safe */
static inline uint64_t min_vruntime_of(uint64_t a, uint64_t b)
{
	return (int64_t)(b - a) < 0 ? b : a;
}

/*
 * kernel v6.6 fair.c __pick_first_entity(): the leftmost of the tree, i.e.
 * the queued entity with the smallest vruntime (ties: lower enqueue_seq, the
 * kernel's rbtree puts equal keys to the right of older ones).
 */
struct ss_sched_entity *ss__pick_first_entity(const struct ss_cfs_rq *cfs)
{
	struct ss_sched_entity *left = NULL;

	for (unsigned i = 0; i < cfs->nr_queued; i++) {
		struct ss_sched_entity *se = cfs->queue[i];
		int64_t d;

		if (!left) {
			left = se;
			continue;
		}
		d = (int64_t)(se->vruntime - left->vruntime);
		if (d < 0 || (d == 0 && se->enqueue_seq < left->enqueue_seq))
			left = se;
	}
	return left;
}

/*
 * kernel v5.17 fair.c __pick_next_entity(se): se's successor in the tree,
 * in __pick_first_entity()'s order (vruntime, then enqueue_seq); NULL if
 * se is the rightmost. se is queued.
 */
struct ss_sched_entity *ss__pick_next_entity(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *se)
{
	struct ss_sched_entity *next = NULL;

	for (unsigned i = 0; i < cfs->nr_queued; i++) {
		struct ss_sched_entity *o = cfs->queue[i];
		int64_t d = (int64_t)(o->vruntime - se->vruntime), dn;

		if (o == se || d < 0 || (d == 0 && o->enqueue_seq <= se->enqueue_seq))
			continue;   /* not right of se */
		if (!next) {
			next = o;
			continue;
		}
		dn = (int64_t)(o->vruntime - next->vruntime);
		if (dn < 0 || (dn == 0 && o->enqueue_seq < next->enqueue_seq))
			next = o;
	}
	return next;
}

/* kernel v6.6 fair.c __update_min_vruntime(): open-coded max_vruntime() that also shifts avg_vruntime */
static uint64_t __update_min_vruntime(struct ss_cfs_rq *cfs, uint64_t vruntime)
{
	uint64_t min_vruntime = cfs->min_vruntime;
	int64_t delta = (int64_t)(vruntime - min_vruntime);

	if (delta > 0) {
		avg_vruntime_update(cfs, delta);
		min_vruntime = vruntime;
	}
	return min_vruntime;
}

/*
 * kernel v6.6 fair.c update_min_vruntime(): v0 follows min(curr, leftmost)
 * but never goes backwards ("ensure we never gain time by being placed
 * backwards").
 */
void ss_update_min_vruntime(struct ss_cfs_rq *cfs)
{
	struct ss_sched_entity *se = ss__pick_first_entity(cfs);
	struct ss_sched_entity *curr = cfs->curr;
	uint64_t vruntime = cfs->min_vruntime;

	if (curr) {
		if (curr->on_rq)
			vruntime = curr->vruntime;
		else
			curr = NULL;
	}

	if (se) {
		if (!curr)
			vruntime = se->vruntime;
		else
			vruntime = min_vruntime_of(vruntime, se->vruntime);
	}

	cfs->min_vruntime = __update_min_vruntime(cfs, vruntime);
}

/* kernel v6.6 fair.c __enqueue_entity(): into the "tree" (array), plus avg_vruntime_add */
void ss__enqueue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se)
{
	avg_vruntime_add(cfs, se);
	if (cfs->nr_queued == cfs->cap_queued) {
		cfs->cap_queued = cfs->cap_queued ? cfs->cap_queued * 2 : SS_QUEUE_INIT_CAP;
		cfs->queue = g_renew(struct ss_sched_entity *, cfs->queue, cfs->cap_queued);
	}
	se->enqueue_seq = cfs->next_seq++;
	se->queue_pos = cfs->nr_queued;
	cfs->queue[cfs->nr_queued++] = se;
}

/* kernel v6.6 fair.c __dequeue_entity(): out of the array (swap with last, O(1)), plus avg_vruntime_sub */
void ss__dequeue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se)
{
	unsigned pos = se->queue_pos;
	struct ss_sched_entity *last;

	g_assert(pos < cfs->nr_queued && cfs->queue[pos] == se);
	last = cfs->queue[--cfs->nr_queued];
	cfs->queue[pos] = last;
	last->queue_pos = pos;
	avg_vruntime_sub(cfs, se);
}

/*
 * kernel v6.6 fair.c update_deadline(): once curr has received its request
 * (vruntime >= deadline) it gets a new one, r_i = sysctl_sched_base_slice,
 * vd_i = ve_i + r_i / w_i, and is rescheduled if anything else is runnable.
 * Returns true for resched_curr().
 */
static bool update_deadline(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t base_slice_ns)
{
	if ((int64_t)(se->vruntime - se->deadline) < 0)
		return false;

	/*
	 * For EEVDF the virtual time slope is determined by w_i (iow. nice)
	 * while the request time r_i is determined by sysctl_sched_base_slice.
	 */
	se->slice = base_slice_ns;
	se->deadline = se->vruntime + ss_calc_delta_fair(se->slice, se);

	/* The task has consumed its request, reschedule (clear_buddies: no buddies modelled). */
	return cfs->nr_running > 1;
}

/*
 * kernel v6.6 fair.c update_curr(), its EEVDF part: charge the time since
 * exec_start to curr, advance vruntime by delta / w, then update_deadline()
 * and update_min_vruntime() in the kernel's order.
 */
bool ss_update_curr(struct ss_cfs_rq *cfs, uint64_t now, uint64_t base_slice_ns)
{
	struct ss_sched_entity *curr = cfs->curr;
	uint64_t delta_exec;
	bool resched;

	if (!curr)
		return false;

	delta_exec = now - curr->exec_start;
	if ((int64_t)delta_exec <= 0)
		return false;

	curr->exec_start = now;
	curr->sum_exec_runtime += delta_exec;
	curr->vruntime += ss_calc_delta_fair(delta_exec, curr);
	resched = update_deadline(cfs, curr, base_slice_ns);
	ss_update_min_vruntime(cfs);
	return resched;
}

/*
 * kernel v6.6 fair.c place_entity(): put a (re)joining entity at
 * V - lag, with its stored lag inflated so that it survives the join, and
 * give it a fresh request.
 *
 * Lag inflation (PLACE_LAG): adding an entity of weight w_i and lag l_i moves
 * V itself by -w_i l_i / (W + w_i), which would leave the entity with only
 * W / (W + w_i) of its lag; so l_i is first scaled by (W + w_i) / W, W being
 * the load already on the cfs_rq including an on_rq curr. div_s64 truncates.
 *
 * Slice (2f2fc17bab00, in v6.6): se->slice is reset to the base slice here.
 * PLACE_DEADLINE_INITIAL: a new entity (ENQUEUE_INITIAL, our @initial) gets
 * half a virtual slice, because the others are on average halfway through
 * theirs.
 *
 * Note on new tasks in v6.6 (source vs reference): v6.6 task_fork_fair()
 * calls place_entity(ENQUEUE_INITIAL), but wake_up_new_task() then does
 * activate_task(rq, p, ENQUEUE_NOCLOCK) and v6.6 enqueue_entity() calls
 * place_entity() again without ENQUEUE_INITIAL, so in v6.6 the half slice is
 * overwritten by a full one. ENQUEUE_INITIAL reached the enqueue only later
 * ("sched: Initialize the vruntime of a new task when it is first enqueued").
 * This function follows place_entity() itself: @initial halves the slice; the
 * caller decides which flag its fork path passes.
 */
static void place_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool initial,
			 const struct ss_eevdf_features *f, uint64_t base_slice_ns)
{
	uint64_t vslice, vruntime = ss_avg_vruntime(cfs);
	int64_t lag = 0;

	se->slice = base_slice_ns;
	vslice = ss_calc_delta_fair(se->slice, se);

	/*
	 * Due to how V is constructed as the weighted average of entities,
	 * adding tasks with positive lag, or removing tasks with negative lag
	 * will move 'time' backwards, this can screw around with the lag of
	 * other tasks. EEVDF: placement strategy #1 / #2.
	 */
	if (f->place_lag && cfs->nr_running) {
		struct ss_sched_entity *curr = cfs->curr;
		long load;

		lag = se->vlag;

		load = cfs->avg_load;
		if (curr && curr->on_rq)
			load += (long)curr->weight;

		lag *= load + (long)se->weight;
		if (!load)	/* WARN_ON_ONCE in the kernel */
			load = 1;
		lag = div_s64(lag, load);
	}

	se->vruntime = vruntime - (uint64_t)lag;

	if (f->place_deadline_initial && initial)
		vslice /= 2;

	/* EEVDF: vd_i = ve_i + r_i/w_i */
	se->deadline = se->vruntime + vslice;
}

/*
 * kernel v6.6 fair.c enqueue_entity(), its EEVDF part: place_entity(),
 * account_entity_enqueue() (load.weight, nr_running), __enqueue_entity()
 * unless se is curr (curr is not kept in the tree), on_rq = 1. v6.6 calls
 * update_curr() first: the caller does, with ss_update_curr(). The kernel does
 * not update min_vruntime here, neither do we.
 */
void ss_enqueue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, bool initial,
		       const struct ss_eevdf_features *f, uint64_t base_slice_ns, uint64_t tick_nsec)
{
	bool curr = cfs->curr == se;

	(void)tick_nsec;
	g_assert(!se->on_rq);

	place_entity(cfs, se, initial, f, base_slice_ns);

	/* account_entity_enqueue() */
	cfs->load_weight += se->weight;
	cfs->nr_running++;

	if (!curr)
		ss__enqueue_entity(cfs, se);
	se->on_rq = true;
}

/*
 * kernel v6.6 fair.c update_entity_lag(): vlag = V - v_i, clamped to
 * +-calc_delta_fair(max(2 * slice, TICK_NSEC)) so that one entity cannot
 * bank an unbounded claim (or debt) across a sleep or a migration. V is
 * taken with se still counted.
 */
static void update_entity_lag(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t tick_nsec)
{
	int64_t lag, limit;
	uint64_t span = 2 * se->slice;

	lag = (int64_t)(ss_avg_vruntime(cfs) - se->vruntime);

	if (span < tick_nsec)
		span = tick_nsec;
	limit = (int64_t)ss_calc_delta_fair(span, se);
	if (lag < -limit)
		lag = -limit;
	if (lag > limit)
		lag = limit;
	se->vlag = lag;
}

/*
 * kernel v6.6 fair.c dequeue_entity(), its EEVDF part for a sleep or a
 * migration (DEQUEUE_SLEEP / migrating: not DEQUEUE_SAVE alone, so
 * min_vruntime is updated): update_entity_lag(), __dequeue_entity() unless
 * se is curr, on_rq = 0, account_entity_dequeue(), update_min_vruntime().
 * v6.6 calls update_curr() first: the caller does, with ss_update_curr().
 */
void ss_dequeue_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t tick_nsec)
{
	g_assert(se->on_rq);

	update_entity_lag(cfs, se, tick_nsec);
	if (se != cfs->curr)
		ss__dequeue_entity(cfs, se);
	se->on_rq = false;

	/* account_entity_dequeue() */
	cfs->load_weight -= se->weight;
	cfs->nr_running--;

	ss_update_min_vruntime(cfs);
}

/*
 * Our deterministic order between two eligible candidates (see the top of
 * the file): true if a runs before b. A queued entity beats curr on a full
 * tie, as if curr had just been put back.
 */
static bool entity_runs_before(const struct ss_cfs_rq *cfs, const struct ss_sched_entity *a,
			       const struct ss_sched_entity *b)
{
	int64_t d = (int64_t)(a->deadline - b->deadline);

	if (d)
		return d < 0;
	d = (int64_t)(a->vruntime - b->vruntime);
	if (d)
		return d < 0;
	if (a == cfs->curr)
		return false;
	if (b == cfs->curr)
		return true;
	return a->enqueue_seq < b->enqueue_seq;
}

/*
 * kernel v6.6 fair.c pick_eevdf() / __pick_eevdf(): Earliest Eligible
 * Virtual Deadline First among the tree and an on_rq, eligible curr.
 *
 * RUN_TO_PARITY: once picked, curr runs until it is no longer eligible or
 * gets a new slice; set_next_entity() stashed its deadline in vlag, so
 * vlag == deadline means "still on the request it was picked with".
 *
 * If nothing is eligible (cannot happen with exact arithmetic: the smallest
 * vruntime is always <= V), the kernel complains and takes the leftmost.
 */
struct ss_sched_entity *ss_pick_eevdf(struct ss_cfs_rq *cfs, const struct ss_eevdf_features *f)
{
	struct ss_sched_entity *curr = cfs->curr;
	struct ss_sched_entity *best;

	if (curr && (!curr->on_rq || !ss_entity_eligible(cfs, curr)))
		curr = NULL;
	best = curr;

	/*
	 * Once selected, run a task until it either becomes non-eligible or
	 * until it gets a new slice. See the HACK in set_next_entity().
	 */
	if (f->run_to_parity && curr && curr->vlag == (int64_t)curr->deadline)
		return curr;

	for (unsigned i = 0; i < cfs->nr_queued; i++) {
		struct ss_sched_entity *se = cfs->queue[i];

		if (!ss_entity_eligible(cfs, se))
			continue;
		if (!best || entity_runs_before(cfs, se, best))
			best = se;
	}

	if (!best)
		best = ss__pick_first_entity(cfs);	/* "EEVDF scheduling fail, picking leftmost" */

	return best;
}

/*
 * kernel v6.6 fair.c set_next_entity(): 'current' is not kept within the
 * tree; stash the deadline at the point of pick in vlag (unused until
 * dequeue) for RUN_TO_PARITY; start the run period (update_stats_curr_start).
 */
void ss_set_next_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, uint64_t now)
{
	if (se->on_rq) {
		ss__dequeue_entity(cfs, se);
		/* HACK, stash a copy of deadline at the point of pick in vlag */
		se->vlag = (int64_t)se->deadline;
	}
	se->exec_start = now;
	cfs->curr = se;
}

/*
 * kernel v6.6 fair.c put_prev_entity(): put 'current' back into the tree if
 * it is still runnable. v6.6 runs update_curr() first when prev is on_rq: the
 * caller does, with ss_update_curr().
 */
void ss_put_prev_entity(struct ss_cfs_rq *cfs, struct ss_sched_entity *prev)
{
	g_assert(prev == cfs->curr);
	if (prev->on_rq)
		ss__enqueue_entity(cfs, prev);
	cfs->curr = NULL;
}

/*
 * kernel v6.6 fair.c check_preempt_wakeup(), the EEVDF rule for two normal
 * (non-idle) tasks: with WAKEUP_PREEMPTION, update_curr(), then preempt iff
 * pick_eevdf() now returns the woken entity.
 *
 * Returns true when curr must be rescheduled: the EEVDF rule says so, or the
 * update_curr() made here ran update_deadline() into a resched_curr() (the
 * kernel sets need_resched inside update_curr(); it is not lost here). With no
 * curr on this cfs_rq (idle CPU), the woken entity should run: true.
 * Not modelled: idle-policy rules, NEXT_BUDDY, need_resched already set.
 */
bool ss_check_preempt_wakeup(struct ss_cfs_rq *cfs, struct ss_sched_entity *woken, uint64_t now,
			     const struct ss_eevdf_features *f, uint64_t base_slice_ns)
{
	bool resched;

	if (!cfs->curr)
		return true;
	if (cfs->curr == woken)
		return false;
	if (!f->wakeup_preemption)
		return false;

	resched = ss_update_curr(cfs, now, base_slice_ns);
	if (ss_pick_eevdf(cfs, f) == woken)
		return true;
	return resched;
}

/*
 * test_eevdf.c — the v6.6 EEVDF run order (lib/eevdf.c).
 *
 * Exact values from docs' reference page §4 (kernel-sched.md: weights,
 * __calc_delta vectors, tunables, EEVDF test vectors); schedules computed by
 * hand in the comments next to each expectation.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "simsched/eevdf.h"

#define MS 1000000ULL
#define SLICE (3 * MS)			/* sysctl_sched_base_slice on >= 8 CPUs */
#define TICK_HZ1000 (1 * MS)		/* TICK_NSEC at HZ=1000 */

static const struct ss_eevdf_features feat_v66 = {
	.run_to_parity = true,
	.place_lag = true,
	.place_deadline_initial = true,
	.wakeup_preemption = true,
};

static struct ss_sched_entity mk_se(int nice)
{
	struct ss_sched_entity se = { 0 };

	ss_se_set_nice(&se, nice);
	return se;
}

/* V - v0 as a signed quantity */
static int64_t rel(const struct ss_cfs_rq *cfs, uint64_t v)
{
	return (int64_t)(v - cfs->min_vruntime);
}

/*
 * Recompute the cfs_rq's bookkeeping from scratch and compare: the array and
 * queue_pos agree, avg_vruntime/avg_load are the sums over the queue,
 * load_weight/nr_running count curr too.
 */
static void check_invariants(const struct ss_cfs_rq *cfs)
{
	int64_t sum = 0;
	long load = 0;
	unsigned long lw = 0;
	unsigned nr = 0;

	for (unsigned i = 0; i < cfs->nr_queued; i++) {
		const struct ss_sched_entity *se = cfs->queue[i];

		assert_int_equal(se->queue_pos, i);
		assert_true(se->on_rq);
		assert_ptr_not_equal(se, cfs->curr);
		sum += rel(cfs, se->vruntime) * (long)se->weight;
		load += (long)se->weight;
		lw += se->weight;
		nr++;
	}
	assert_int_equal(cfs->avg_vruntime, sum);
	assert_int_equal(cfs->avg_load, load);
	if (cfs->curr && cfs->curr->on_rq) {
		lw += cfs->curr->weight;
		nr++;
	}
	assert_int_equal(cfs->load_weight, lw);
	assert_int_equal(cfs->nr_running, nr);
}

/* schedule(): put curr back, pick, set next. Returns the new curr. */
static struct ss_sched_entity *resched(struct ss_cfs_rq *cfs, uint64_t now, const struct ss_eevdf_features *f)
{
	struct ss_sched_entity *se;

	if (cfs->curr)
		ss_put_prev_entity(cfs, cfs->curr);
	se = ss_pick_eevdf(cfs, f);
	if (se)
		ss_set_next_entity(cfs, se, now);
	return se;
}

/* The running entity blocks at now: update_curr, dequeue (DEQUEUE_SLEEP), schedule. */
static void sleep_curr(struct ss_cfs_rq *cfs, uint64_t now, const struct ss_eevdf_features *f)
{
	ss_update_curr(cfs, now, SLICE);
	ss_dequeue_entity(cfs, cfs->curr, TICK_HZ1000);
	resched(cfs, now, f);
}

/* ---------------------------------------------------------------------- */

static void test_weight_tables(void **state)
{
	(void)state;
	assert_int_equal(ss_sched_prio_to_weight[0], 88761);
	assert_int_equal(ss_sched_prio_to_weight[20], 1024);
	assert_int_equal(ss_sched_prio_to_weight[25], 335);
	assert_int_equal(ss_sched_prio_to_weight[39], 15);
	assert_int_equal(ss_sched_prio_to_wmult[0], 48388);
	assert_int_equal(ss_sched_prio_to_wmult[20], 4194304);
	assert_int_equal(ss_sched_prio_to_wmult[25], 12820798);
	assert_int_equal(ss_sched_prio_to_wmult[39], 286331153);
	/* each wmult is ~2^32 / weight (within the table's uneven rounding) */
	for (int i = 0; i < 40; i++) {
		uint64_t prod = (uint64_t)ss_sched_prio_to_weight[i] * ss_sched_prio_to_wmult[i];

		assert_true(prod > 4294967296ULL - 4294967296ULL / 1000);
		assert_true(prod < 4294967296ULL + 4294967296ULL / 1000);
	}

	struct ss_sched_entity se = mk_se(-7);
	assert_int_equal(se.weight, 4904);
	assert_int_equal(se.inv_weight, 875809);
}

static void test_calc_delta_fair_vectors(void **state)
{
	static const struct { int nice; uint64_t delta, expect; } v[] = {
		{ -20, 1000000, 11536 },   { -5, 1000000, 328099 },  { -1, 1000000, 801879 },
		{ 0, 1000000, 1000000 },   { 1, 1000000, 1248780 },  { 5, 1000000, 3056716 },
		{ 10, 1000000, 9309090 },  { 19, 1000000, 68266666 },
		{ 5, 3000000, 9170149 },   { -5, 3000000, 984299 },  { -20, 3000000, 34609 },
		{ 19, 3000000, 204799999 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct ss_sched_entity se = mk_se(v[i].nice);

		assert_int_equal(ss_calc_delta_fair(v[i].delta, &se), v[i].expect);
	}
}

static void test_calc_delta_shift_logic(void **state)
{
	(void)state;
	/*
	 * fact = 1024 * 286331153 (nice 19) = 0x44_4444_4400: fact_hi = 0x44,
	 * fls = 7, fact >>= 7, shift 25: (2^40 * 0x88888888) >> 25 needs the
	 * 96-bit intermediate (the product overflows 64 bits).
	 * = 75 059 993 772 032 (exact 2^40 * 1024/15 = 75 059 993 789 508.3).
	 */
	assert_int_equal(ss___calc_delta(1ULL << 40, 1024, 15, 286331153), 75059993772032ULL);

	/* weight == lw: identity up to the wmult rounding (nice 0: exact) */
	assert_int_equal(ss___calc_delta(123456789, 1024, 1024, 4194304), 123456789);

	/* inv_weight 0: __update_inv_weight() computes WMULT_CONST / w */
	assert_int_equal(ss___calc_delta(1000000, 1024, 2048, 0),
			 ss___calc_delta(1000000, 1024, 2048, 0xFFFFFFFFu / 2048));
	assert_int_equal(ss___calc_delta(1000000, 1024, 2048, 0), 499999);

	/* a weight > 32 bits takes the first renormalisation (fact_hi != 0) */
	assert_int_equal(ss___calc_delta(1000, 1ULL << 33, 1024, 4194304), 8388608000ULL);
}

static void test_base_slice(void **state)
{
	(void)state;
	assert_int_equal(ss_sched_base_slice(1), 750000);
	assert_int_equal(ss_sched_base_slice(2), 1500000);
	assert_int_equal(ss_sched_base_slice(3), 1500000);
	assert_int_equal(ss_sched_base_slice(4), 2250000);
	assert_int_equal(ss_sched_base_slice(7), 2250000);
	assert_int_equal(ss_sched_base_slice(8), 3000000);
	assert_int_equal(ss_sched_base_slice(9), 3000000);
	assert_int_equal(ss_sched_base_slice(256), 3000000);
	assert_int_equal(ss_sched_base_slice(0), 750000);	/* documented: as 1 CPU */
}

static void test_vslice(void **state)
{
	static const struct { int nice; uint64_t vslice; } v[] = {
		{ 0, 3000000 }, { 5, 9170149 }, { -5, 984299 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct ss_cfs_rq cfs;
		struct ss_sched_entity other = mk_se(0), se = mk_se(v[i].nice);

		assert_int_equal(ss_calc_delta_fair(SLICE, &se), v[i].vslice);

		/* a waking entity (lag 0) gets vd = V + r/w */
		ss_cfs_rq_init(&cfs);
		ss_enqueue_entity(&cfs, &other, true, &feat_v66, SLICE, TICK_HZ1000);
		ss_enqueue_entity(&cfs, &se, false, &feat_v66, SLICE, TICK_HZ1000);
		assert_int_equal(se.slice, SLICE);
		assert_int_equal(se.vruntime, ss_avg_vruntime(&cfs));
		assert_int_equal(se.deadline - se.vruntime, v[i].vslice);
		check_invariants(&cfs);
		ss_cfs_rq_destroy(&cfs);
	}
}

/*
 * Lag clamp L = calc_delta_fair(max(2 * slice, TICK_NSEC)): an entity left
 * waiting while a nice-0 hog runs 200 ms has a lag far beyond L; so has the
 * hog, negatively.
 */
static void check_clamp(int nice, uint64_t tick_nsec, int64_t expect)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity hog = mk_se(0), x = mk_se(nice);

	/* x waits: its lag becomes positive and large */
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &hog, true, &feat_v66, SLICE, tick_nsec);
	ss_enqueue_entity(&cfs, &x, true, &feat_v66, SLICE, tick_nsec);
	ss_set_next_entity(&cfs, &hog, 0);
	ss_update_curr(&cfs, 200 * MS, SLICE);
	assert_true((int64_t)(ss_avg_vruntime(&cfs) - x.vruntime) > expect);
	ss_dequeue_entity(&cfs, &x, tick_nsec);
	assert_int_equal(x.vlag, expect);
	check_invariants(&cfs);
	ss_cfs_rq_destroy(&cfs);

	/* x runs: its lag becomes negative and large */
	x = mk_se(nice);
	hog = mk_se(0);
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &hog, true, &feat_v66, SLICE, tick_nsec);
	ss_enqueue_entity(&cfs, &x, true, &feat_v66, SLICE, tick_nsec);
	ss_set_next_entity(&cfs, &x, 0);
	ss_update_curr(&cfs, 200 * MS, SLICE);
	ss_dequeue_entity(&cfs, &x, tick_nsec);
	assert_int_equal(x.vlag, -expect);
	assert_false(x.on_rq);
	ss_put_prev_entity(&cfs, &x);
	assert_null(cfs.curr);
	check_invariants(&cfs);
	ss_cfs_rq_destroy(&cfs);
}

static void test_lag_clamp(void **state)
{
	(void)state;
	check_clamp(0, TICK_HZ1000, 6000000);
	check_clamp(5, TICK_HZ1000, 18340298);
	check_clamp(-5, TICK_HZ1000, 1968599);
	check_clamp(0, 4 * MS, 6000000);	/* HZ=250: 2*slice still larger */
	check_clamp(0, 10 * MS, 10000000);	/* HZ=100: TICK_NSEC wins the max() */
	check_clamp(5, 10 * MS, 30567164);	/* calc_delta_fair(10 ms, nice 5) */
}

/*
 * Reference §4.3 eligibility: (key, w) = a (0, 1024), b (3 000 000, 1024),
 * c (1 000 000, 335), no curr. Built through placement with PLACE_LAG
 * (v0 = 0 throughout, enqueue does not move min_vruntime):
 *   a: empty cfs_rq, lag ignored                -> key 0
 *   b: vlag -1 500 000, W 1024: lag *2048/1024  -> key 3 000 000
 *   c: V = 1 500 000, vlag 429 711: lag = 429711*2383/2048 = 500000 (trunc)
 *                                               -> key 1 000 000
 * Deadlines: a 3 000 000, b 6 000 000, c 1 000 000 + 9 170 149.
 */
static void test_eligibility_example(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(0), c = mk_se(5);

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &a, false, &feat_v66, SLICE, TICK_HZ1000);
	b.vlag = -1500000;
	ss_enqueue_entity(&cfs, &b, false, &feat_v66, SLICE, TICK_HZ1000);
	c.vlag = 429711;
	ss_enqueue_entity(&cfs, &c, false, &feat_v66, SLICE, TICK_HZ1000);

	assert_int_equal(cfs.min_vruntime, 0);
	assert_int_equal(rel(&cfs, a.vruntime), 0);
	assert_int_equal(rel(&cfs, b.vruntime), 3000000);
	assert_int_equal(rel(&cfs, c.vruntime), 1000000);
	assert_int_equal(a.deadline, 3000000);
	assert_int_equal(b.deadline, 6000000);
	assert_int_equal(c.deadline, 1000000 + 9170149);
	assert_int_equal(cfs.avg_vruntime, 3407000000LL);
	assert_int_equal(cfs.avg_load, 2383);
	assert_int_equal(cfs.nr_running, 3);
	assert_int_equal(cfs.load_weight, 2383);
	check_invariants(&cfs);

	assert_int_equal(rel(&cfs, ss_avg_vruntime(&cfs)), 1429710);
	assert_true(ss_entity_eligible(&cfs, &a));
	assert_false(ss_entity_eligible(&cfs, &b));
	assert_true(ss_entity_eligible(&cfs, &c));
	assert_ptr_equal(ss_pick_eevdf(&cfs, &feat_v66), &a);

	/* a as curr: out of the queue, its term added on the fly; nothing changes */
	ss_set_next_entity(&cfs, &a, 0);
	assert_int_equal(a.vlag, (int64_t)a.deadline);
	assert_int_equal(cfs.avg_load, 1359);
	check_invariants(&cfs);
	assert_int_equal(rel(&cfs, ss_avg_vruntime(&cfs)), 1429710);
	assert_false(ss_entity_eligible(&cfs, &b));
	assert_true(ss_entity_eligible(&cfs, &c));
	assert_ptr_equal(ss_pick_eevdf(&cfs, &feat_v66), &a);

	/* update_curr with no elapsed time is a no-op */
	assert_false(ss_update_curr(&cfs, 0, SLICE));
	assert_int_equal(a.sum_exec_runtime, 0);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * Reference §4.3 placement: Wc = 2048 (two nice-0, one of them curr), a
 * nice-0 waking with vlag +600 000 -> lag 600000*3072/2048 = 900 000,
 * vruntime = V - 900 000, deadline = vruntime + 3 000 000; afterwards V has
 * moved by -w*vlag/W = -300 000 and the lag seen is the stored 600 000.
 */
static void test_placement_example(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity x = mk_se(0), y = mk_se(0), z = mk_se(0);
	uint64_t V;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &x, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &y, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_set_next_entity(&cfs, &x, 0);
	assert_int_equal(cfs.avg_load + (long)cfs.curr->weight, 2048);

	V = ss_avg_vruntime(&cfs);
	z.vlag = 600000;
	ss_enqueue_entity(&cfs, &z, false, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal((int64_t)(V - z.vruntime), 900000);
	assert_int_equal(z.deadline - z.vruntime, 3000000);
	assert_int_equal((int64_t)(ss_avg_vruntime(&cfs) - V), -300000);
	assert_int_equal((int64_t)(ss_avg_vruntime(&cfs) - z.vruntime), 600000);
	assert_true(ss_entity_eligible(&cfs, &z));
	check_invariants(&cfs);
	ss_cfs_rq_destroy(&cfs);

	/* without PLACE_LAG the stored lag is ignored: v = V */
	struct ss_eevdf_features nolag = feat_v66;
	nolag.place_lag = false;
	x = mk_se(0);
	y = mk_se(0);
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &x, true, &nolag, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &y, false, &nolag, SLICE, TICK_HZ1000);
	y.vlag = 600000;
	ss_dequeue_entity(&cfs, &y, TICK_HZ1000);
	assert_int_equal(y.vlag, 0);		/* V = 0, y.v = 0 */
	y.vlag = 600000;
	ss_enqueue_entity(&cfs, &y, false, &nolag, SLICE, TICK_HZ1000);
	assert_int_equal(y.vruntime, ss_avg_vruntime(&cfs));
	ss_cfs_rq_destroy(&cfs);
}

/*
 * avg_vruntime rounds a negative average down (v6.6 650cad561cce): with
 * vlag 600 001 the wakee lands at -900 001 (600001*3072/2048 = 900001.5,
 * truncated), the sum is -900001*1024 over 3072 = -300000.33 -> -300 001;
 * a truncating division would give -300 000, above the true mean, and an
 * entity placed there would not be eligible. An entity placed at V is.
 */
static void test_avg_vruntime_floor(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity x = mk_se(0), y = mk_se(0), z = mk_se(0), w = mk_se(0);

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &x, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &y, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_set_next_entity(&cfs, &x, 0);
	z.vlag = 600001;
	ss_enqueue_entity(&cfs, &z, false, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal(rel(&cfs, z.vruntime), -900001);
	assert_int_equal(rel(&cfs, ss_avg_vruntime(&cfs)), -300001);

	/* a new entity placed at V (lag 0) is eligible right away */
	ss_enqueue_entity(&cfs, &w, true, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal(rel(&cfs, w.vruntime), -300001);
	assert_true(ss_entity_eligible(&cfs, &w));
	/* PLACE_DEADLINE_INITIAL: half a slice */
	assert_int_equal(w.deadline - w.vruntime, 1500000);
	check_invariants(&cfs);
	ss_cfs_rq_destroy(&cfs);
}

/* A forked nice-0 task's first deadline is V + 1 500 000 (PLACE_DEADLINE_INITIAL) */
static void test_fork_deadline(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity p = mk_se(0), q = mk_se(0), child = mk_se(0), child2 = mk_se(0);
	struct ss_eevdf_features noinit = feat_v66;
	uint64_t V;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &p, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &q, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_set_next_entity(&cfs, &p, 0);
	ss_update_curr(&cfs, 7 * MS + 123, SLICE);	/* move V off zero */
	V = ss_avg_vruntime(&cfs);
	assert_true(V > 0);
	ss_enqueue_entity(&cfs, &child, true, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal(child.vruntime, V);
	assert_int_equal(child.deadline, V + 1500000);
	assert_int_equal(child.slice, SLICE);

	/* NO_PLACE_DEADLINE_INITIAL: a full slice */
	noinit.place_deadline_initial = false;
	V = ss_avg_vruntime(&cfs);
	ss_enqueue_entity(&cfs, &child2, true, &noinit, SLICE, TICK_HZ1000);
	assert_int_equal(child2.deadline, V + 3000000);
	check_invariants(&cfs);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * Two nice-0 CPU hogs A, B forked at t=0 (v = 0, deadline 1.5 ms each),
 * update_curr at 1 ms ticks, schedule() when update_deadline asks. By hand:
 *   t=0  pick A (tie on deadline and vruntime: A enqueued first)
 *   t=2  A.v=2 >= 1.5: dl 5, resched; V=1: A not eligible -> B
 *   t=4  B.v=2 >= 1.5: dl 5, resched; V=2: tie (dl 5, v 2) -> A (B was curr)
 *   t=7  A.v=5 >= 5:   dl 8;  V=3.5 -> B
 *   t=10 B.v=5:        dl 8;  tie -> A
 *   t=13 A -> B; t=16 -> A; t=19 -> B; t=22 -> A; t=25 -> B; t=28 -> A
 * i.e. after the half first slices, strict 3 ms alternation. Over [0, 30 ms)
 * A runs 2+3+3+3+3+2 = 16 ms and B 2+3+3+3+3 = 14 ms. In v6.6 only
 * update_deadline() reschedules at a tick, so nothing switches in between.
 */
static void test_two_task_round_robin(void **state)
{
	static const struct { uint64_t t; char who; } expect[] = {
		{ 0, 'A' }, { 2, 'B' }, { 4, 'A' }, { 7, 'B' }, { 10, 'A' }, { 13, 'B' },
		{ 16, 'A' }, { 19, 'B' }, { 22, 'A' }, { 25, 'B' }, { 28, 'A' },
	};
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(0);
	size_t n = 0;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &a, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &b, true, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal(a.deadline, 1500000);
	assert_int_equal(b.deadline, 1500000);

	struct ss_sched_entity *se = resched(&cfs, 0, &feat_v66);
	assert_ptr_equal(se, &a);
	assert_int_equal(expect[n].t, 0);
	n++;
	for (uint64_t t = 1; t <= 30; t++) {
		bool rs = ss_update_curr(&cfs, t * MS, SLICE);

		check_invariants(&cfs);
		if (rs) {
			/*
			 * Picking with curr still set (as the kernel's
			 * CONFIG_FAIR_GROUP_SCHED path does) gives the same
			 * entity as after put_prev: curr loses a full tie (t=4).
			 */
			struct ss_sched_entity *pre = ss_pick_eevdf(&cfs, &feat_v66);

			se = resched(&cfs, t * MS, &feat_v66);
			assert_ptr_equal(pre, se);
			assert_true(n < sizeof(expect) / sizeof(expect[0]));
			assert_int_equal(expect[n].t, t);
			assert_ptr_equal(se, expect[n].who == 'A' ? &a : &b);
			n++;
		}
		/*
		 * A tick-time pick is not what v6.6 does (entity_tick has no
		 * preemption check), but it shows the curr was the one ahead:
		 * at t=1 A.v=1 > V=0.5, ineligible even for RUN_TO_PARITY.
		 */
		if (t == 1) {
			assert_false(ss_entity_eligible(&cfs, &a));
			assert_ptr_equal(ss_pick_eevdf(&cfs, &feat_v66), &b);
		}
	}
	assert_int_equal(n, sizeof(expect) / sizeof(expect[0]));
	assert_int_equal(a.sum_exec_runtime, 16 * MS);
	assert_int_equal(b.sum_exec_runtime, 14 * MS);
	/* nice 0: vruntime = service since fork; min_vruntime = min(curr A, B) */
	assert_int_equal(a.vruntime, 16 * MS);
	assert_int_equal(b.vruntime, 14 * MS);
	assert_int_equal(cfs.min_vruntime, 14 * MS);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * nice 0 vs nice 5 hogs over 10 s at 1 ms ticks: CPU time splits as the
 * weights, 1024:335 (nice 0 share 1024/1359 = 0.7535). EEVDF bounds each
 * entity's lag, so the error is a few slices over 10 s: tolerance 0.5 %.
 */
static void test_weighted_share(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(5);
	const uint64_t end = 10000;
	unsigned switches = 0;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &a, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &b, true, &feat_v66, SLICE, TICK_HZ1000);
	resched(&cfs, 0, &feat_v66);
	for (uint64_t t = 1; t <= end; t++) {
		if (ss_update_curr(&cfs, t * MS, SLICE)) {
			struct ss_sched_entity *prev = cfs.curr;

			if (resched(&cfs, t * MS, &feat_v66) != prev)
				switches++;
		}
	}
	check_invariants(&cfs);
	assert_int_equal(a.sum_exec_runtime + b.sum_exec_runtime, end * MS);

	double share = (double)a.sum_exec_runtime / (double)(end * MS);
	double want = 1024.0 / 1359.0;
	assert_true(share > want - 0.005 && share < want + 0.005);
	/* both made progress in slices, not in one long run each */
	assert_true(switches > 1000);
	/* lags stay bounded: vruntimes within a few slices of each other */
	int64_t dv = (int64_t)(a.vruntime - b.vruntime);
	assert_true(dv < 20 * (int64_t)MS && dv > -20 * (int64_t)MS);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * Wakeup preemption, positive lag against a curr past its fair share.
 *   t=0    A, B forked (v 0, dl 1.5); pick A
 *   t=2    A.v=2: dl 5, resched -> B
 *   t=2.5  B sleeps: B.v=0.5, V=1.25 -> B.vlag=+750 000; A picked (fresh:
 *          vlag == deadline == 5 ms)
 *   t=3.5  B wakes: A.v=3 = V; lag 750000*2048/1024 = 1.5 ms -> B.v=1.5,
 *          dl 4.5; V' = 2.25 < A.v: A is no longer eligible, so even under
 *          RUN_TO_PARITY pick_eevdf() returns B: preempt.
 */
static void test_wakeup_preempts_past_fair_share(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(0);
	struct ss_eevdf_features nowp = feat_v66;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &a, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &b, true, &feat_v66, SLICE, TICK_HZ1000);
	assert_ptr_equal(resched(&cfs, 0, &feat_v66), &a);
	assert_false(ss_update_curr(&cfs, 1 * MS, SLICE));
	assert_true(ss_update_curr(&cfs, 2 * MS, SLICE));
	assert_ptr_equal(resched(&cfs, 2 * MS, &feat_v66), &b);

	sleep_curr(&cfs, 2500000, &feat_v66);
	assert_false(b.on_rq);
	assert_int_equal(b.vlag, 750000);
	assert_ptr_equal(cfs.curr, &a);
	assert_int_equal(a.vlag, (int64_t)a.deadline);
	check_invariants(&cfs);

	/* wakeup: ttwu -> enqueue (after update_curr) -> check_preempt_wakeup */
	ss_update_curr(&cfs, 3500000, SLICE);
	assert_int_equal(a.vruntime, 3 * MS);
	ss_enqueue_entity(&cfs, &b, false, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal(b.vruntime, 1500000);
	assert_int_equal(b.deadline, 4500000);
	assert_int_equal(ss_avg_vruntime(&cfs), 2250000);
	assert_false(ss_entity_eligible(&cfs, &a));
	assert_int_equal(a.vlag, (int64_t)a.deadline);	/* fresh, yet ineligible */
	check_invariants(&cfs);

	nowp.wakeup_preemption = false;
	assert_false(ss_check_preempt_wakeup(&cfs, &b, 3500000, &nowp, SLICE));
	assert_true(ss_check_preempt_wakeup(&cfs, &b, 3500000, &feat_v66, SLICE));
	/* the woken entity is curr's successor */
	assert_ptr_equal(resched(&cfs, 3500000, &feat_v66), &b);
	check_invariants(&cfs);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * RUN_TO_PARITY: a positive-lag wakee with an earlier deadline does not
 * preempt a freshly picked curr that is still eligible.
 *   t=0    A, B, C forked (v 0, dl 1.5); pick A
 *   t=4    (late update) A.v=4: dl 7, resched; V=4/3 -> B (tie with C on
 *          dl and v, B enqueued first)
 *   t=4.1  B sleeps: B.v=0.1, V=floor(4.1e6*1024/3072)=1 366 666 ->
 *          B.vlag = 1 266 666; pick: V=2, A ineligible -> C
 *   t=5.6  C.v=1.5: dl 4.5, resched; V=2.75: C eligible, A not -> C again,
 *          fresh (vlag == deadline == 4.5 ms)
 *   t=5.7  B wakes: C.v=1.6, v0=1.6, V=2.8; lag 1266666*3072/2048 =
 *          1 899 999 -> B.v = 900 001, dl 3 900 001 < C's 4 500 000;
 *          V' = (4 + 0.900001 + 1.6)/3 ms > C.v: C still eligible.
 *   RUN_TO_PARITY keeps C (no preemption); without it B's earlier deadline
 *   wins (preemption).
 */
static void test_wakeup_run_to_parity(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(0), c = mk_se(0);
	struct ss_eevdf_features no_rtp = feat_v66;

	(void)state;
	no_rtp.run_to_parity = false;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &a, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &b, true, &feat_v66, SLICE, TICK_HZ1000);
	ss_enqueue_entity(&cfs, &c, true, &feat_v66, SLICE, TICK_HZ1000);
	assert_ptr_equal(resched(&cfs, 0, &feat_v66), &a);
	assert_true(ss_update_curr(&cfs, 4 * MS, SLICE));
	assert_int_equal(a.deadline, 7 * MS);
	assert_ptr_equal(resched(&cfs, 4 * MS, &feat_v66), &b);

	sleep_curr(&cfs, 4100000, &feat_v66);
	assert_int_equal(b.vlag, 1266666);
	assert_ptr_equal(cfs.curr, &c);

	assert_true(ss_update_curr(&cfs, 5600000, SLICE));
	assert_int_equal(c.deadline, 4500000);
	assert_ptr_equal(resched(&cfs, 5600000, &feat_v66), &c);
	assert_int_equal(c.vlag, 4500000);
	check_invariants(&cfs);

	ss_update_curr(&cfs, 5700000, SLICE);
	assert_int_equal(c.vruntime, 1600000);
	assert_int_equal(cfs.min_vruntime, 1600000);
	assert_int_equal(ss_avg_vruntime(&cfs), 2800000);
	ss_enqueue_entity(&cfs, &b, false, &feat_v66, SLICE, TICK_HZ1000);
	assert_int_equal(b.vruntime, 900001);
	assert_int_equal(b.deadline, 3900001);
	assert_true(ss_entity_eligible(&cfs, &b));
	assert_true(ss_entity_eligible(&cfs, &c));
	assert_true(b.deadline < c.deadline);
	check_invariants(&cfs);

	assert_false(ss_check_preempt_wakeup(&cfs, &b, 5700000, &feat_v66, SLICE));
	assert_true(ss_check_preempt_wakeup(&cfs, &b, 5700000, &no_rtp, SLICE));

	/* 0.1 ms later C is still eligible and on its picked request: kept */
	assert_false(ss_check_preempt_wakeup(&cfs, &b, 5800000, &feat_v66, SLICE));
	assert_int_equal(c.vruntime, 1700000);
	assert_ptr_equal(ss_pick_eevdf(&cfs, &no_rtp), &b);
	ss_cfs_rq_destroy(&cfs);
}

/* check_preempt_wakeup(): curr itself never preempts; an idle cfs_rq always runs the wakee */
static void test_wakeup_trivial(void **state)
{
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0);

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity(&cfs, &a, true, &feat_v66, SLICE, TICK_HZ1000);
	assert_true(ss_check_preempt_wakeup(&cfs, &a, 0, &feat_v66, SLICE));
	ss_set_next_entity(&cfs, &a, 0);
	assert_false(ss_check_preempt_wakeup(&cfs, &a, MS, &feat_v66, SLICE));
	/* a lone curr never gets a resched from update_deadline */
	assert_false(ss_update_curr(&cfs, 100 * MS, SLICE));
	assert_int_equal(a.vruntime, 100 * MS);
	assert_int_equal(cfs.min_vruntime, 100 * MS);
	assert_ptr_equal(ss_pick_eevdf(&cfs, &feat_v66), &a);
	/* time going backwards is ignored (s64 delta <= 0) */
	assert_false(ss_update_curr(&cfs, 50 * MS, SLICE));
	assert_int_equal(a.sum_exec_runtime, 100 * MS);
	ss_dequeue_entity(&cfs, &a, TICK_HZ1000);
	assert_int_equal(a.vlag, 0);
	ss_put_prev_entity(&cfs, &a);
	assert_null(ss_pick_eevdf(&cfs, &feat_v66));
	assert_int_equal(cfs.nr_running, 0);
	assert_int_equal(cfs.load_weight, 0);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * Many entities: the array grows past its initial capacity, removal swaps
 * with the last element, the sums stay exact, the pick is the earliest
 * eligible deadline and min_vruntime never goes backwards.
 */
static void test_queue_churn(void **state)
{
	enum { N = 100 };
	static struct ss_sched_entity se[N];
	struct ss_cfs_rq cfs;
	uint64_t now = 0, last_min = 0;
	uint32_t rnd = 12345;

	(void)state;
	ss_cfs_rq_init(&cfs);
	for (int i = 0; i < N; i++) {
		se[i] = mk_se((i % 40) - 20);
		ss_enqueue_entity(&cfs, &se[i], true, &feat_v66, SLICE, TICK_HZ1000);
	}
	assert_int_equal(cfs.nr_queued, N);
	assert_true(cfs.cap_queued >= N);
	check_invariants(&cfs);
	resched(&cfs, now, &feat_v66);

	for (int step = 0; step < 3000; step++) {
		rnd = rnd * 1103515245u + 12345u;
		now += 100000 + (rnd >> 16) % 900000;
		bool rs = ss_update_curr(&cfs, now, SLICE);

		assert_true((int64_t)(cfs.min_vruntime - last_min) >= 0);
		last_min = cfs.min_vruntime;
		/* sleep one queued entity or wake a sleeping one */
		struct ss_sched_entity *x = &se[(rnd >> 8) % N];
		if (x != cfs.curr) {
			if (x->on_rq)
				ss_dequeue_entity(&cfs, x, TICK_HZ1000);
			else
				ss_enqueue_entity(&cfs, x, false, &feat_v66, SLICE, TICK_HZ1000);
		}
		check_invariants(&cfs);
		if (rs || !cfs.curr) {
			struct ss_sched_entity *n = resched(&cfs, now, &feat_v66);

			if (n) {
				/* nothing eligible in the queue has an earlier deadline */
				assert_true(ss_entity_eligible(&cfs, n));
				for (unsigned i = 0; i < cfs.nr_queued; i++) {
					struct ss_sched_entity *q = cfs.queue[i];

					if (ss_entity_eligible(&cfs, q))
						assert_true((int64_t)(q->deadline - n->deadline) >= 0);
				}
			}
		}
	}
	ss_cfs_rq_destroy(&cfs);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_weight_tables),
		cmocka_unit_test(test_calc_delta_fair_vectors),
		cmocka_unit_test(test_calc_delta_shift_logic),
		cmocka_unit_test(test_base_slice),
		cmocka_unit_test(test_vslice),
		cmocka_unit_test(test_lag_clamp),
		cmocka_unit_test(test_eligibility_example),
		cmocka_unit_test(test_placement_example),
		cmocka_unit_test(test_avg_vruntime_floor),
		cmocka_unit_test(test_fork_deadline),
		cmocka_unit_test(test_two_task_round_robin),
		cmocka_unit_test(test_weighted_share),
		cmocka_unit_test(test_wakeup_preempts_past_fair_share),
		cmocka_unit_test(test_wakeup_run_to_parity),
		cmocka_unit_test(test_wakeup_trivial),
		cmocka_unit_test(test_queue_churn),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

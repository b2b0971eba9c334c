/*
 * test_pelt.c — kernel-exact PELT (lib/pelt.c) against the test vectors of
 * /work/shared/reference/kernel-sched.md section 1 and hand computations from
 * the kernel v6.6 sources (pelt.c, pelt.h, fair.c).
 *
 * Unless said otherwise an entity starts "from zero": all sums and averages 0,
 * period_contrib 0, last_update_time 0, nice-0 weight 1024, capacity and
 * frequency 1024 (PELT time = wall time).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "simsched/pelt.h"

#define NSEC_PER_MSEC 1000000ull
#define PELT_PERIOD_NS 1048576ull /* 1024 * 1024 ns */
#define NICE_0_WEIGHT 1024ul

static void zero_se(struct ss_sched_avg *se)
{
	memset(se, 0, sizeof(*se));
}

/* A running task, as the kernel updates curr: on_rq = 1, running = 1. */
static int update_running(uint64_t now, struct ss_sched_avg *se)
{
	return ss___update_load_avg_se(now, se, NICE_0_WEIGHT, true, true);
}

/* ---- 1.1 / 1.8.1 / 1.8.2: decay_load and the geometric series ---------- */

/* runnable_avg_yN_inv (reference 1.1): decay_load(2^32, n) returns it exactly. */
static void test_decay_table(void **state)
{
	static const uint32_t inv[32] = {
		0xffffffff, 0xfa83b2da, 0xf5257d14, 0xefe4b99a, 0xeac0c6e6, 0xe5b906e6,
		0xe0ccdeeb, 0xdbfbb796, 0xd744fcc9, 0xd2a81d91, 0xce248c14, 0xc9b9bd85,
		0xc5672a10, 0xc12c4cc9, 0xbd08a39e, 0xb8fbaf46, 0xb504f333, 0xb123f581,
		0xad583ee9, 0xa9a15ab4, 0xa5fed6a9, 0xa2704302, 0x9ef5325f, 0x9b8d39b9,
		0x9837f050, 0x94f4efa8, 0x91c3d373, 0x8ea4398a, 0x8b95c1e3, 0x88980e80,
		0x85aac367, 0x82cd8698,
	};
	(void)state;

	for (unsigned n = 0; n < 32; n++)
		assert_int_equal(ss_decay_load(1ull << 32, n), inv[n]);
}

/* Reference 1.8.1, plus the 96-bit intermediate and the n > 2016 cut-off. */
static void test_decay_load_vectors(void **state)
{
	(void)state;

	assert_int_equal(ss_decay_load(1024, 0), 1023);
	assert_int_equal(ss_decay_load(1024, 1), 1002);
	assert_int_equal(ss_decay_load(1024, 32), 511);
	assert_int_equal(ss_decay_load(47742, 1), 46718);
	assert_int_equal(ss_decay_load(47742, 32), 23870);
	assert_int_equal(ss_decay_load(47742, 64), 11934);
	assert_int_equal(ss_decay_load(1048576, 32), 524287);
	assert_int_equal(ss_decay_load(1000, 100), 114);
	assert_int_equal(ss_decay_load(47742, 345), 26);
	assert_int_equal(ss_decay_load(1024, 2016), 0);
	assert_int_equal(ss_decay_load(1024, 2017), 0);

	/*
	 * (2^64-1)(2^32-1) >> 32 = 2^64 - 2^32 - 1: needs the 128-bit product
	 * of mul_u64_u32_shr().
	 */
	assert_int_equal(ss_decay_load(UINT64_MAX, 0), 0xfffffffeffffffffull);
	/* n = 2015: >> 62 leaves 3; 3 * INV[31] >> 32 = 6583522248 >> 32 = 1 */
	assert_int_equal(ss_decay_load(UINT64_MAX, 2015), 1);
	/* n = 2016: >> 63 leaves 1; 1 * INV[0] >> 32 = 0 */
	assert_int_equal(ss_decay_load(UINT64_MAX, 2016), 0);
	/* n = 2017: cut-off, not computed */
	assert_int_equal(ss_decay_load(UINT64_MAX, 2017), 0);
}

/* Reference 1.8.2: c1 + c2 + c3 with d1 = 1024, d3 = 0. */
static void test_full_period_contrib(void **state)
{
	static const struct { uint64_t p; uint32_t c; } v[] = {
		{ 1, 1002 }, { 2, 1981 }, { 4, 3878 }, { 8, 7433 }, { 16, 13684 },
		{ 32, 23359 }, { 64, 35039 }, { 345, 46692 }, { 1000, 46718 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++)
		assert_int_equal(ss___accumulate_pelt_segments(v[i].p, 1024, 0), v[i].c);
	/* d3 is added undecayed */
	assert_int_equal(ss___accumulate_pelt_segments(1, 1024, 100), 1102);
}

/* Reference 1.1: LOAD_AVG_MAX is the fixed point of max = max*y + 1024. */
static void test_load_avg_max_fixed_point(void **state)
{
	uint64_t max = 1024, prev = 0;
	unsigned iter = 0;
	(void)state;

	while (max != prev && iter < 10000) {
		prev = max;
		max = ss_decay_load(max, 1) + 1024;
		iter++;
	}
	assert_true(iter < 10000);
	assert_int_equal(max, SS_LOAD_AVG_MAX);
	assert_int_equal(SS_PELT_MIN_DIVIDER, 46718);
}

/* ---- 1.8.3: a task running continuously from t = 0 --------------------- */

static const uint64_t n_ms[9] = { 1, 2, 4, 8, 16, 32, 64, 128, 345 };

/* (A) one update at N ms. */
static void test_running_single_update(void **state)
{
	static const struct { uint64_t util, sum, pc; } v[9] = {
		{ 0, 999424, 976 }, { 41, 1977344, 929 }, { 81, 3863552, 834 },
		{ 156, 7389184, 644 }, { 288, 13542400, 265 }, { 495, 23403520, 530 },
		{ 751, 35113984, 36 }, { 951, 44508160, 72 }, { 1023, 47819776, 18 },
	};
	(void)state;

	for (int i = 0; i < 9; i++) {
		struct ss_sched_avg se;

		zero_se(&se);
		/* N = 1 ms crosses no period boundary: averages stay 0 */
		assert_int_equal(update_running(n_ms[i] * NSEC_PER_MSEC, &se), i > 0);
		assert_int_equal(se.util_avg, v[i].util);
		assert_int_equal(se.util_sum, v[i].sum);
		assert_int_equal(se.period_contrib, v[i].pc);
		assert_int_equal(se.load_avg, v[i].util);
		assert_int_equal(se.runnable_avg, v[i].util);
		/* last_update_time keeps only whole 1024-ns units */
		assert_int_equal(se.last_update_time, (n_ms[i] * NSEC_PER_MSEC) & ~1023ull);
	}
}

/* Updates every step ns (t = step, 2 step, ... < N), final update at N. */
static void run_schedule(struct ss_sched_avg *se, uint64_t step, uint64_t end)
{
	zero_se(se);
	for (uint64_t t = step; t < end; t += step)
		update_running(t, se);
	update_running(end, se);
}

/* (B) 1 ms ticks, (C) 4 ms ticks: same util_avg as (A), other util_sum. */
static void test_running_ticks(void **state)
{
	static const uint64_t util[9] = { 0, 41, 81, 156, 288, 495, 751, 951, 1023 };
	struct ss_sched_avg se;
	(void)state;

	for (int i = 0; i < 9; i++) {
		run_schedule(&se, NSEC_PER_MSEC, n_ms[i] * NSEC_PER_MSEC);
		assert_int_equal(se.util_avg, util[i]);
		if (n_ms[i] == 32)
			assert_int_equal(se.util_sum, 23410391);
		if (n_ms[i] == 345)
			assert_int_equal(se.util_sum, 47840778);

		run_schedule(&se, 4 * NSEC_PER_MSEC, n_ms[i] * NSEC_PER_MSEC);
		assert_int_equal(se.util_avg, util[i]);
		if (n_ms[i] == 32)
			assert_int_equal(se.util_sum, 23403924);
	}
}

/* (D) one update at N PELT periods (period-aligned). */
static void test_running_period_aligned(void **state)
{
	static const struct { uint64_t n, util; } v[] = {
		{ 1, 21 }, { 2, 43 }, { 4, 85 }, { 8, 162 }, { 16, 299 },
		{ 32, 512 }, { 64, 768 }, { 128, 960 }, { 345, 1023 },
	};
	(void)state;

	for (size_t i = 0; i < sizeof(v) / sizeof(v[0]); i++) {
		struct ss_sched_avg se;

		zero_se(&se);
		update_running(v[i].n * PELT_PERIOD_NS, &se);
		assert_int_equal(se.util_avg, v[i].util);
		assert_int_equal(se.period_contrib, 0);
		if (v[i].n == 1)
			assert_int_equal(se.util_sum, 1026048); /* 1002 * 1024 */
	}
}

/* (E) updates every 1024 ns: util_avg frozen at the last boundary crossing. */
static void test_running_finest(void **state)
{
	static const uint64_t util[9] = { 0, 21, 64, 144, 284, 489, 750, 951, 1023 };
	(void)state;

	for (int i = 0; i < 9; i++) {
		struct ss_sched_avg se;

		run_schedule(&se, 1024, n_ms[i] * NSEC_PER_MSEC);
		assert_int_equal(se.util_avg, util[i]);
	}
}

/* Time going backwards resyncs last_update_time and changes nothing else. */
static void test_clock_backwards(void **state)
{
	struct ss_sched_avg se, before;
	(void)state;

	zero_se(&se);
	update_running(5 * NSEC_PER_MSEC, &se);
	before = se;
	assert_int_equal(update_running(4 * NSEC_PER_MSEC, &se), 0);
	assert_int_equal(se.last_update_time, 4 * NSEC_PER_MSEC);
	assert_int_equal(se.util_sum, before.util_sum);
	assert_int_equal(se.util_avg, before.util_avg);
	/* less than 1024 ns later: nothing */
	assert_int_equal(update_running(4 * NSEC_PER_MSEC + 1023, &se), 0);
	assert_int_equal(se.last_update_time, 4 * NSEC_PER_MSEC);
}

/* ---- 1.8.4: periodic task ---------------------------------------------- */

struct minmax {
	uint64_t min, max;
};

static void record(struct minmax *mm, const struct ss_sched_avg *se)
{
	if (se->util_avg < mm->min)
		mm->min = se->util_avg;
	if (se->util_avg > mm->max)
		mm->max = se->util_avg;
}

/*
 * Event protocol of reference 1.8.4 (mirrors fair.c): period 10 ms, busy for
 * the first X % of each period. At wakeup (t0 = k * 10 ms) enqueue_entity()
 * updates the se before on_rq is set (load = 0: the sleep decays); ticks at
 * every multiple of tick_ns strictly inside the run update curr (on_rq = 1,
 * running = 1); at the end of the run dequeue_entity() updates it with
 * on_rq = 1, running = 1. Nothing happens while it sleeps. Steady state =
 * cycles 300..399, min/max over util_avg after every update.
 * tick_ns = 0: no tick.
 */
static struct minmax periodic_task(unsigned x_pct, uint64_t tick_ns)
{
	const uint64_t period = 10 * NSEC_PER_MSEC;
	const uint64_t run = period * x_pct / 100;
	struct minmax mm = { UINT64_MAX, 0 };
	struct ss_sched_avg se;

	zero_se(&se);
	for (uint64_t k = 0; k < 400; k++) {
		uint64_t t0 = k * period, t1 = t0 + run;
		bool steady = k >= 300;

		ss___update_load_avg_se(t0, &se, NICE_0_WEIGHT, false, false);
		if (steady)
			record(&mm, &se);
		if (tick_ns) {
			for (uint64_t t = (t0 / tick_ns + 1) * tick_ns; t < t1; t += tick_ns) {
				update_running(t, &se);
				if (steady)
					record(&mm, &se);
			}
		}
		update_running(t1, &se);
		if (steady)
			record(&mm, &se);
	}
	return mm;
}

static void test_periodic_task(void **state)
{
	/* X, tick 1 ms min-max, tick 4 ms min-max, no tick min-max */
	static const uint64_t v[10][7] = {
		{ 10, 93, 112, 93, 112, 93, 112 },
		{ 20, 188, 222, 188, 222, 188, 222 },
		{ 30, 285, 329, 285, 329, 285, 329 },
		{ 40, 384, 435, 384, 435, 384, 435 },
		{ 50, 485, 538, 485, 538, 485, 538 },
		{ 60, 589, 639, 588, 639, 588, 639 },
		{ 70, 694, 739, 694, 738, 694, 738 },
		{ 80, 802, 836, 801, 835, 801, 835 },
		{ 90, 912, 931, 911, 930, 911, 930 },
		{ 100, 1024, 1024, 1024, 1024, 1023, 1024 },
	};
	(void)state;

	for (int i = 0; i < 10; i++) {
		const uint64_t ticks[3] = { NSEC_PER_MSEC, 4 * NSEC_PER_MSEC, 0 };

		for (int j = 0; j < 3; j++) {
			struct minmax mm = periodic_task((unsigned)v[i][0], ticks[j]);

			assert_int_equal(mm.min, v[i][1 + 2 * j]);
			assert_int_equal(mm.max, v[i][2 + 2 * j]);
		}
	}
}

/* ---- 1.6 / 1.8.5: frequency and CPU invariance ------------------------- */

static void test_clock_pelt_vectors(void **state)
{
	struct ss_rq_clock_pelt c;
	(void)state;

	memset(&c, 0, sizeof(c));
	ss_update_rq_clock_pelt(&c, NSEC_PER_MSEC, false, 1024, 512);
	assert_int_equal(c.clock_task, NSEC_PER_MSEC);
	assert_int_equal(c.clock_pelt, 500000);

	memset(&c, 0, sizeof(c));
	ss_update_rq_clock_pelt(&c, NSEC_PER_MSEC, false, 446, 1024);
	assert_int_equal(c.clock_pelt, 435546);

	/* two truncating shifts: 435546 * 768 >> 10 = 326659 */
	memset(&c, 0, sizeof(c));
	ss_update_rq_clock_pelt(&c, NSEC_PER_MSEC, false, 446, 768);
	assert_int_equal(c.clock_pelt, 326659);
	assert_int_equal(ss_rq_clock_pelt(&c), 326659);

	/* an idle rq re-syncs clock_pelt to clock_task */
	ss_update_rq_clock_pelt(&c, NSEC_PER_MSEC, true, 446, 768);
	assert_int_equal(c.clock_task, 2 * NSEC_PER_MSEC);
	assert_int_equal(c.clock_pelt, 2 * NSEC_PER_MSEC);
	assert_int_equal(c.lost_idle_time, 0);
}

/*
 * The periodic task of 1.8.4 on a scaled CPU. Protocol: the rq clock is
 * updated (ss_update_rq_clock_pelt with the wall-clock delta since the last
 * update) before every PELT update, idle = true for the interval before a
 * wakeup (the CPU ran its idle task), false during the run; the se is driven
 * with now = rq_clock_pelt(); when the run ends and the CPU goes idle,
 * ss_update_idle_rq_clock_pelt() is called with the cfs util_sum (a single
 * task here, so the task's util_sum; far below the saturation bound).
 */
static struct minmax periodic_task_scaled(unsigned x_pct, uint64_t tick_ns,
					  unsigned long cpu_cap, unsigned long freq_cap)
{
	const uint64_t period = 10 * NSEC_PER_MSEC;
	const uint64_t run = period * x_pct / 100;
	struct minmax mm = { UINT64_MAX, 0 };
	struct ss_rq_clock_pelt c;
	struct ss_sched_avg se;

	memset(&c, 0, sizeof(c));
	zero_se(&se);
	for (uint64_t k = 0; k < 400; k++) {
		uint64_t t0 = k * period, t1 = t0 + run;
		bool steady = k >= 300;

		ss_update_rq_clock_pelt(&c, t0 - c.clock_task, true, cpu_cap, freq_cap);
		ss___update_load_avg_se(ss_rq_clock_pelt(&c), &se, NICE_0_WEIGHT, false, false);
		if (steady)
			record(&mm, &se);
		if (tick_ns) {
			for (uint64_t t = (t0 / tick_ns + 1) * tick_ns; t < t1; t += tick_ns) {
				ss_update_rq_clock_pelt(&c, t - c.clock_task, false, cpu_cap, freq_cap);
				update_running(ss_rq_clock_pelt(&c), &se);
				if (steady)
					record(&mm, &se);
			}
		}
		ss_update_rq_clock_pelt(&c, t1 - c.clock_task, false, cpu_cap, freq_cap);
		update_running(ss_rq_clock_pelt(&c), &se);
		if (steady)
			record(&mm, &se);
		ss_update_idle_rq_clock_pelt(&c, se.util_sum);
		assert_int_equal(c.lost_idle_time, 0);
		assert_int_equal(c.clock_pelt, c.clock_task);
	}
	return mm;
}

static void test_invariance_periodic(void **state)
{
	const uint64_t ticks[3] = { 0, NSEC_PER_MSEC, 4 * NSEC_PER_MSEC };
	(void)state;

	for (int j = 0; j < 3; j++) {
		struct minmax mm;

		/* 50 % at freq 512, at cap 512, and 25 % at full speed: 236-276 */
		mm = periodic_task_scaled(50, ticks[j], 1024, 512);
		assert_int_equal(mm.min, 236);
		assert_int_equal(mm.max, 276);
		mm = periodic_task_scaled(50, ticks[j], 512, 1024);
		assert_int_equal(mm.min, 236);
		assert_int_equal(mm.max, 276);
		mm = periodic_task_scaled(25, ticks[j], 1024, 1024);
		assert_int_equal(mm.min, 236);
		assert_int_equal(mm.max, 276);
		/* 80 % at freq 512 = 40 % at full speed: 384-435 */
		mm = periodic_task_scaled(80, ticks[j], 1024, 512);
		assert_int_equal(mm.min, 384);
		assert_int_equal(mm.max, 435);
	}
}

/*
 * A saturated rq has no idle time to steal: update_idle_rq_clock_pelt()
 * books clock_task - clock_pelt as lost idle time, so rq_clock_pelt() does
 * not jump. Task always running at cap 512 for 690 ms: 345 ms of PELT time,
 * util_sum = 47819776 (1.8.3 A) >= (46718 << 10) - 47742 = 47791490.
 */
static void test_lost_idle_time(void **state)
{
	struct ss_rq_clock_pelt c;
	struct ss_sched_avg se;
	(void)state;

	memset(&c, 0, sizeof(c));
	zero_se(&se);
	ss_update_rq_clock_pelt(&c, 690 * NSEC_PER_MSEC, false, 512, 1024);
	assert_int_equal(ss_rq_clock_pelt(&c), 345 * NSEC_PER_MSEC);
	update_running(ss_rq_clock_pelt(&c), &se);
	assert_int_equal(se.util_sum, 47819776);

	ss_update_idle_rq_clock_pelt(&c, se.util_sum);
	assert_int_equal(c.lost_idle_time, 345 * NSEC_PER_MSEC);
	assert_int_equal(c.clock_pelt, 690 * NSEC_PER_MSEC);
	assert_int_equal(ss_rq_clock_pelt(&c), 345 * NSEC_PER_MSEC);

	/* one below the bound: no lost time, the PELT clock catches up */
	memset(&c, 0, sizeof(c));
	ss_update_rq_clock_pelt(&c, 690 * NSEC_PER_MSEC, false, 512, 1024);
	ss_update_idle_rq_clock_pelt(&c, 47791489);
	assert_int_equal(c.lost_idle_time, 0);
	assert_int_equal(ss_rq_clock_pelt(&c), 690 * NSEC_PER_MSEC);
}

/* ---- 1.5: new tasks ----------------------------------------------------- */

/*
 * cfs_rq inputs: an idle CPU of capacity 1024 whose cfs_rq has util_avg 0 and
 * load_avg 0. First task: cap = 1024 / 2 = 512 → util_avg 512. It is attached
 * (cfs util_avg 512, load_avg 1024). Second task: cap = (1024 - 512) / 2 = 256;
 * extrapolation 512 * (1024 << 10) / 1025 = 523776 > 256 → 256.
 */
static void test_post_init(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg a, b;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	ss_init_entity_runnable_average(&a, NICE_0_WEIGHT);
	assert_int_equal(a.load_avg, 1024);
	assert_int_equal(a.util_avg, 0);
	assert_int_equal(a.last_update_time, 0);

	ss_post_init_entity_util_avg(&cfs, &a, NICE_0_WEIGHT, 1024);
	assert_int_equal(a.util_avg, 512);
	assert_int_equal(a.runnable_avg, 512);

	ss_attach_entity_load_avg(&cfs, &a, NICE_0_WEIGHT);
	assert_int_equal(cfs.avg.util_avg, 512);
	assert_int_equal(cfs.avg.load_avg, 1024);

	ss_init_entity_runnable_average(&b, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &b, NICE_0_WEIGHT, 1024);
	assert_int_equal(b.util_avg, 256);
	assert_int_equal(b.runnable_avg, 256);
}

/*
 * v6.6 multiplies by se->load.weight, scale_load()'ed on 64-bit (1024 << 10):
 * cfs util 100, load 1024 → 100 * 1048576 / 1025 = 102300 > cap 462 → 462
 * (with se_weight() it would be 99). cfs util 1, load 4095:
 * 1 * 1048576 / 4096 = 256 < cap 511 → 256. cfs util 1023: cap 0 → untouched.
 */
static void test_post_init_extrapolation(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg se;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	cfs.avg.util_avg = 100;
	cfs.avg.load_avg = 1024;
	ss_init_entity_runnable_average(&se, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &se, NICE_0_WEIGHT, 1024);
	assert_int_equal(se.util_avg, 462);

	cfs.avg.util_avg = 1;
	cfs.avg.load_avg = 4095;
	ss_init_entity_runnable_average(&se, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &se, NICE_0_WEIGHT, 1024);
	assert_int_equal(se.util_avg, 256);
	assert_int_equal(se.runnable_avg, 256);

	cfs.avg.util_avg = 1023;
	ss_init_entity_runnable_average(&se, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &se, NICE_0_WEIGHT, 1024);
	assert_int_equal(se.util_avg, 0);
	assert_int_equal(se.runnable_avg, 0);

	/* a 446-capacity CPU with an empty cfs_rq: cap = 223 */
	memset(&cfs, 0, sizeof(cfs));
	ss_init_entity_runnable_average(&se, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &se, NICE_0_WEIGHT, 446);
	assert_int_equal(se.util_avg, 223);
}

/* ---- util_est (fair.c v6.6), expected values computed by hand ----------- */

#define F SS_UTIL_AVG_UNCHANGED

static struct ss_sched_avg task_with(uint32_t enqueued, uint32_t ewma, uint64_t util)
{
	struct ss_sched_avg p;

	zero_se(&p);
	p.util_est.enqueued = enqueued;
	p.util_est.ewma = ewma;
	p.util_avg = util;
	return p;
}

static void test_util_est_update(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg p;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	assert_int_equal(SS_UTIL_AVG_UNCHANGED, 0x80000000u);

	/* fast-up: ewma 100 < util 300 → ewma = 300, enqueued = 300 | F */
	p = task_with(100, 100, 300);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.enqueued, 300 | F);
	assert_int_equal(p.util_est.ewma, 300);

	/* no fast-up: diff 200 → ewma = (100*4 + 200) / 4 = 150 */
	p = task_with(100, 100, 300);
	ss_util_est_update(&cfs, &p, true, false, 1024);
	assert_int_equal(p.util_est.enqueued, 300 | F);
	assert_int_equal(p.util_est.ewma, 150);

	/* decrease: diff 200 - 400 = -200 → ewma = (1600 - 200) >> 2 = 350 */
	p = task_with(400, 400, 200);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.enqueued, 200 | F);
	assert_int_equal(p.util_est.ewma, 350);

	/* truncation: ewma 401, util 0: (1604 - 401) >> 2 = 1203 >> 2 = 300 */
	p = task_with(401, 401, 0);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.ewma, 300);

	/*
	 * margin: ewma diff 295 - 300 = -5 (within 10) and enqueued diff
	 * 298 - 295 = 3 (within 10): return, nothing written, flag stays clear.
	 */
	p = task_with(298, 300, 295);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.enqueued, 298);
	assert_int_equal(p.util_est.ewma, 300);

	/*
	 * margin: ewma diff -5 within, enqueued diff 305 - 295 = 10 is not
	 * (|x| < 10): goto done, enqueued = 295 | F, ewma kept.
	 */
	p = task_with(305, 300, 295);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.enqueued, 295 | F);
	assert_int_equal(p.util_est.ewma, 300);

	/* ewma diff exactly -10 is outside the margin: (1200 - 10) >> 2 = 297 */
	p = task_with(300, 300, 290);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.enqueued, 290 | F);
	assert_int_equal(p.util_est.ewma, 297);

	/* util_avg 600 > capacity_orig 512: return before the ewma step */
	p = task_with(800, 800, 600);
	ss_util_est_update(&cfs, &p, true, true, 512);
	assert_int_equal(p.util_est.enqueued, 800);
	assert_int_equal(p.util_est.ewma, 800);

	/* flag still set (util_avg not recomputed since enqueue): skip */
	p = task_with(100 | F, 100, 300);
	ss_util_est_update(&cfs, &p, true, true, 1024);
	assert_int_equal(p.util_est.enqueued, 100 | F);
	assert_int_equal(p.util_est.ewma, 100);

	/* not a sleep (migration): skip */
	p = task_with(100, 100, 300);
	ss_util_est_update(&cfs, &p, false, true, 1024);
	assert_int_equal(p.util_est.enqueued, 100);
	assert_int_equal(p.util_est.ewma, 100);
}

static void test_util_est_cfs_and_cpu_util(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg a, b;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	/* _task_util_est(a) = max(350, 200 & ~F) = 350 */
	a = task_with(200 | F, 350, 400);
	b = task_with(120, 80, 90);
	assert_int_equal(ss_task_util_est(&a), 400); /* util_avg wins */
	a.util_avg = 100;
	assert_int_equal(ss_task_util_est(&a), 350);
	assert_int_equal(ss_task_util_est(&b), 120);

	ss_util_est_enqueue(&cfs, &a);
	assert_int_equal(cfs.avg.util_est.enqueued, 350);
	ss_util_est_enqueue(&cfs, &b);
	assert_int_equal(cfs.avg.util_est.enqueued, 470);

	cfs.avg.util_avg = 300;
	assert_int_equal(ss_cpu_util(&cfs, true, 1024), 470);
	assert_int_equal(ss_cpu_util(&cfs, false, 1024), 300);
	assert_int_equal(ss_cpu_util(&cfs, true, 446), 446);
	cfs.avg.util_avg = 1100;
	assert_int_equal(ss_cpu_util(&cfs, false, 1024), 1024);

	ss_util_est_dequeue(&cfs, &a);
	assert_int_equal(cfs.avg.util_est.enqueued, 120);
	/* dequeue is floored at 0: 120 - min(120, 350) */
	ss_util_est_dequeue(&cfs, &a);
	assert_int_equal(cfs.avg.util_est.enqueued, 0);
}

/* cfs_se_util_change: the flag is cleared only when util_avg is recomputed. */
static void test_util_avg_unchanged_flag(void **state)
{
	struct ss_sched_avg se;
	(void)state;

	zero_se(&se);
	update_running(2 * NSEC_PER_MSEC, &se); /* util 41, period_contrib 929 */
	se.util_est.enqueued = 41 | F;
	/* +50 us: no period boundary → flag kept */
	assert_int_equal(update_running(2 * NSEC_PER_MSEC + 50 * 1024, &se), 0);
	assert_int_equal(se.util_est.enqueued, 41 | F);
	/* +1 ms: boundary crossed → averages recomputed, flag cleared */
	assert_int_equal(update_running(3 * NSEC_PER_MSEC, &se), 1);
	assert_int_equal(se.util_est.enqueued, 41);
	/* the blocked-se variant does not touch util_est */
	se.util_est.enqueued = 7 | F;
	assert_int_equal(ss___update_load_avg_blocked_se(10 * NSEC_PER_MSEC, &se, NICE_0_WEIGHT), 1);
	assert_int_equal(se.util_est.enqueued, 7 | F);
}

/* ---- attach / detach / remove ------------------------------------------- */

static const struct ss_pelt_cfs_input cfs_idle = { 0, 0, false };
static const struct ss_pelt_cfs_input cfs_one_running = { NICE_0_WEIGHT, 1, true };
static const struct ss_pelt_se_input se_new = { NICE_0_WEIGHT, false, false };
static const struct ss_pelt_se_input se_curr = { NICE_0_WEIGHT, true, true };

/*
 * A new task is attached at enqueue (DO_ATTACH, last_update_time == 0): it
 * takes the cfs_rq's decay window and its sums are rebuilt from its
 * averages with the cfs_rq's divider. Detaching it at the same instant gives
 * back exactly the cfs_rq's previous averages and sums.
 */
static void test_attach_detach_roundtrip(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg a, b;
	struct ss_sched_avg before;
	uint64_t now;
	uint32_t div;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	/* task a: new, attached at 3 ms, runs alone until 23 ms (1 ms ticks) */
	ss_init_entity_runnable_average(&a, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &a, NICE_0_WEIGHT, 1024);
	now = 3 * NSEC_PER_MSEC;
	ss_update_load_avg(now, &cfs, cfs_idle, &a, se_new, SS_DO_ATTACH);
	assert_int_equal(a.last_update_time, cfs.avg.last_update_time);
	assert_int_equal(a.period_contrib, cfs.avg.period_contrib);
	div = ss_get_pelt_divider(&cfs.avg);
	assert_int_equal(a.util_sum, 512 * div);
	assert_int_equal(a.runnable_sum, 512 * div);
	assert_int_equal(a.load_sum, (1024ull * div) / 1024);
	assert_int_equal(cfs.avg.util_avg, 512);
	assert_int_equal(cfs.avg.util_sum, a.util_sum);
	assert_int_equal(cfs.avg.load_avg, 1024);
	assert_int_equal(cfs.avg.load_sum, 1024ull * a.load_sum);

	for (now = 4 * NSEC_PER_MSEC; now <= 23 * NSEC_PER_MSEC; now += NSEC_PER_MSEC)
		ss_update_load_avg(now, &cfs, cfs_one_running, &a, se_curr, SS_UPDATE_TG);
	/* one entity, same window, same inputs: identical util and runnable */
	assert_int_equal(cfs.avg.util_sum, a.util_sum);
	assert_int_equal(cfs.avg.util_avg, a.util_avg);
	assert_int_equal(cfs.avg.runnable_avg, a.runnable_avg);
	assert_true(a.util_avg > 512);

	/* task b: new, attached and immediately detached at 23 ms */
	now = 23 * NSEC_PER_MSEC;
	before = cfs.avg;
	ss_init_entity_runnable_average(&b, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &b, NICE_0_WEIGHT, 1024);
	assert_true(b.util_avg > 0);
	ss_update_load_avg(now, &cfs, cfs_one_running, &b, se_new, SS_DO_ATTACH);
	assert_int_equal(cfs.avg.util_avg, before.util_avg + b.util_avg);
	assert_int_equal(cfs.avg.load_avg, before.load_avg + 1024);
	assert_int_equal(cfs.avg.load_sum, before.load_sum + 1024 * b.load_sum);
	ss_update_load_avg(now, &cfs, cfs_one_running, &b, se_new, SS_DO_DETACH);
	assert_int_equal(cfs.avg.util_avg, before.util_avg);
	assert_int_equal(cfs.avg.util_sum, before.util_sum);
	assert_int_equal(cfs.avg.runnable_avg, before.runnable_avg);
	assert_int_equal(cfs.avg.runnable_sum, before.runnable_sum);
	assert_int_equal(cfs.avg.load_avg, before.load_avg);
	assert_int_equal(cfs.avg.load_sum, before.load_sum);

	/* a migrates away (dequeue with DO_DETACH): util goes exactly to 0 */
	now += 2 * NSEC_PER_MSEC;
	ss_update_load_avg(now, &cfs, cfs_one_running, &a, se_curr, SS_DO_DETACH);
	assert_int_equal(cfs.avg.util_avg, 0);
	assert_int_equal(cfs.avg.util_sum, 0);
	assert_int_equal(cfs.avg.runnable_avg, 0);
	assert_int_equal(cfs.avg.runnable_sum, 0);
}

/* SKIP_AGE_LOAD leaves the se alone; the cfs_rq is still aged. */
static void test_skip_age_load(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg a, before;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	ss_init_entity_runnable_average(&a, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &a, NICE_0_WEIGHT, 1024);
	ss_update_load_avg(NSEC_PER_MSEC, &cfs, cfs_idle, &a, se_new, SS_DO_ATTACH);
	before = a;
	assert_int_equal(ss_update_load_avg(9 * NSEC_PER_MSEC, &cfs, cfs_idle, &a, se_new,
					    SS_SKIP_AGE_LOAD), 1);
	assert_int_equal(a.last_update_time, before.last_update_time);
	assert_int_equal(a.util_sum, before.util_sum);
	assert_int_equal(cfs.avg.last_update_time, (9 * NSEC_PER_MSEC) & ~1023ull);
	assert_true(cfs.avg.util_avg < 512);
}

/*
 * remove_entity_load_avg(): the blocked task is first synced to the old
 * cfs_rq's last_update_time, then its averages are queued in removed and
 * folded in at the next update_cfs_rq_load_avg().
 */
static void test_remove_entity(void **state)
{
	struct ss_cfs_rq_avg cfs;
	struct ss_sched_avg a;
	struct ss_sched_avg before;
	uint64_t now;
	uint32_t div;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	ss_init_entity_runnable_average(&a, NICE_0_WEIGHT);
	ss_post_init_entity_util_avg(&cfs, &a, NICE_0_WEIGHT, 1024);
	ss_update_load_avg(NSEC_PER_MSEC, &cfs, cfs_idle, &a, se_new, SS_DO_ATTACH);
	for (now = 2 * NSEC_PER_MSEC; now <= 12 * NSEC_PER_MSEC; now += NSEC_PER_MSEC)
		ss_update_load_avg(now, &cfs, cfs_one_running, &a, se_curr, SS_UPDATE_TG);
	/* a sleeps at 12 ms; the idle cfs_rq's blocked load decays until 20 ms */
	ss_update_cfs_rq_load_avg(20 * NSEC_PER_MSEC, &cfs, cfs_idle);
	assert_true(a.last_update_time < cfs.avg.last_update_time);

	/* a wakes up on another CPU: migrate_task_rq_fair() removes it */
	ss_remove_entity_load_avg(&cfs, &a, NICE_0_WEIGHT);
	assert_int_equal(a.last_update_time, cfs.avg.last_update_time);
	/* same window and history as the cfs_rq: same util after the sync */
	assert_int_equal(a.util_avg, cfs.avg.util_avg);
	assert_int_equal(a.util_sum, cfs.avg.util_sum);
	assert_int_equal(cfs.removed.nr, 1);
	assert_int_equal(cfs.removed.util_avg, a.util_avg);
	assert_int_equal(cfs.removed.load_avg, a.load_avg);
	assert_int_equal(cfs.removed.runnable_avg, a.runnable_avg);

	/* fold the removal in without aging (now == last_update_time) */
	before = cfs.avg;
	div = ss_get_pelt_divider(&cfs.avg);
	assert_int_equal(ss_update_cfs_rq_load_avg(cfs.avg.last_update_time, &cfs, cfs_idle), 1);
	assert_int_equal(cfs.removed.nr, 0);
	assert_int_equal(cfs.removed.util_avg, 0);
	assert_int_equal(cfs.avg.util_avg, 0);
	assert_int_equal(cfs.avg.util_sum, before.util_sum - before.util_avg * div);
	assert_true(cfs.avg.util_sum < div);
	assert_int_equal(cfs.avg.runnable_avg, 0);
}

/*
 * Removal arithmetic (fair.c v6.6 update_cfs_rq_load_avg), by hand:
 * period_contrib 500 → divider 47218.
 *   util: avg 100, sum 4671800 (= 100 * 46718), remove 1:
 *     sum 4671800 - 47218 = 4624582 < 99 * 46718 = 4625082 → 4625082.
 *   load: avg 2048, sum 95678464, remove 1024:
 *     sum 95678464 - 48351232 = 47327232 < 1024 * 46718 = 47839232 → 47839232.
 *   removing more than present: avg and sum clamp at 0 (sub_positive).
 */
static void test_removed_lower_bounds(void **state)
{
	struct ss_cfs_rq_avg cfs;
	uint64_t now = 100 * 1024;
	(void)state;

	memset(&cfs, 0, sizeof(cfs));
	cfs.avg.last_update_time = now;
	cfs.avg.period_contrib = 500;
	cfs.avg.util_avg = 100;
	cfs.avg.util_sum = 4671800;
	cfs.avg.runnable_avg = 100;
	cfs.avg.runnable_sum = 4671800;
	cfs.avg.load_avg = 2048;
	cfs.avg.load_sum = 95678464;
	cfs.removed.nr = 1;
	cfs.removed.util_avg = 1;
	cfs.removed.runnable_avg = 1;
	cfs.removed.load_avg = 1024;
	assert_int_equal(ss_update_cfs_rq_load_avg(now, &cfs, cfs_idle), 1);
	assert_int_equal(cfs.avg.util_avg, 99);
	assert_int_equal(cfs.avg.util_sum, 4625082);
	assert_int_equal(cfs.avg.runnable_avg, 99);
	assert_int_equal(cfs.avg.runnable_sum, 4625082);
	assert_int_equal(cfs.avg.load_avg, 1024);
	assert_int_equal(cfs.avg.load_sum, 47839232);

	cfs.removed.nr = 1;
	cfs.removed.util_avg = 500;
	ss_update_cfs_rq_load_avg(now, &cfs, cfs_idle);
	assert_int_equal(cfs.avg.util_avg, 0);
	assert_int_equal(cfs.avg.util_sum, 0);

	/*
	 * max_t(u32, ...) truncates a 64-bit load_sum (kernel v6.6 quirk,
	 * reproduced): period_contrib 0 (divider 46718), load_avg 100000,
	 * load_sum 4671800000, remove 1024 → 4623960768 on both sides of the
	 * max, which becomes 4623960768 - 2^32 = 328993472.
	 */
	memset(&cfs, 0, sizeof(cfs));
	cfs.avg.last_update_time = now;
	cfs.avg.load_avg = 100000;
	cfs.avg.load_sum = 4671800000ull;
	cfs.removed.nr = 1;
	cfs.removed.load_avg = 1024;
	ss_update_cfs_rq_load_avg(now, &cfs, cfs_idle);
	assert_int_equal(cfs.avg.load_avg, 98976);
	assert_int_equal(cfs.avg.load_sum, 328993472);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decay_table),
		cmocka_unit_test(test_decay_load_vectors),
		cmocka_unit_test(test_full_period_contrib),
		cmocka_unit_test(test_load_avg_max_fixed_point),
		cmocka_unit_test(test_running_single_update),
		cmocka_unit_test(test_running_ticks),
		cmocka_unit_test(test_running_period_aligned),
		cmocka_unit_test(test_running_finest),
		cmocka_unit_test(test_clock_backwards),
		cmocka_unit_test(test_periodic_task),
		cmocka_unit_test(test_clock_pelt_vectors),
		cmocka_unit_test(test_invariance_periodic),
		cmocka_unit_test(test_lost_idle_time),
		cmocka_unit_test(test_post_init),
		cmocka_unit_test(test_post_init_extrapolation),
		cmocka_unit_test(test_util_est_update),
		cmocka_unit_test(test_util_est_cfs_and_cpu_util),
		cmocka_unit_test(test_util_avg_unchanged_flag),
		cmocka_unit_test(test_attach_detach_roundtrip),
		cmocka_unit_test(test_skip_age_load),
		cmocka_unit_test(test_remove_entity),
		cmocka_unit_test(test_removed_lower_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

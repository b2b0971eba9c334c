/*
 * test_cfs.c — the v5.17 CFS run order (lib/cfs.c, --kernel 5.17).
 *
 * Expectations from the reference formulas (reference page §4.2 and §4.4:
 * tunables scaled by 1 + ilog2(min(ncpus, 8)), __sched_period(),
 * sched_slice(), place_entity() with GENTLE_FAIR_SLEEPERS and START_DEBIT,
 * check_preempt_tick(), wakeup_preempt_entity() with wakeup_gran(), buddies),
 * worked by hand in the comments; __calc_delta() values are computed with the
 * kernel's integer recipe (fact = w * (2^32 - 1) / W, renormalised to 32 bits).
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "simsched/cfs.h"

#define MS 1000000ULL

static struct ss_cfs_tunables tun(unsigned ncpus)
{
	struct ss_cfs_tunables t;

	ss_cfs_tunables_init(&t, ncpus, ss_features_default_kernel(SS_KERNEL_5_17));
	return t;
}

static struct ss_sched_entity mk_se(int nice)
{
	struct ss_sched_entity se = { 0 };

	ss_se_set_nice(&se, nice);
	return se;
}

/* §4.2: latency / min_granularity / wakeup_granularity = 6 / 0.75 / 1 ms × (1 + ilog2(min(n, 8))) */
static void test_tunables_scale_with_cpus(void **state)
{
	static const struct { unsigned n; uint64_t lat, min, wake; } v[] = {
		{ 1, 6 * MS, 750000, 1 * MS },      { 2, 12 * MS, 1500000, 2 * MS }, { 3, 12 * MS, 1500000, 2 * MS },
		{ 4, 18 * MS, 2250000, 3 * MS },    { 7, 18 * MS, 2250000, 3 * MS }, { 8, 24 * MS, 3 * MS, 4 * MS },
		{ 128, 24 * MS, 3 * MS, 4 * MS },
	};

	(void)state;
	for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
		struct ss_cfs_tunables t = tun(v[i].n);
		assert_int_equal(t.latency, v[i].lat);
		assert_int_equal(t.min_granularity, v[i].min);
		assert_int_equal(t.wakeup_granularity, v[i].wake);
		assert_int_equal(t.nr_latency, 8);
		/* v5.17 features.h defaults */
		assert_true(t.gentle_fair_sleepers && t.start_debit && t.last_buddy && !t.next_buddy);
	}
}

/* Enqueue n nice-0 entities that have run before (vruntime 0, not relative, not a wakeup). */
static void fill(struct ss_cfs_rq *cfs, struct ss_sched_entity *se, unsigned n, const struct ss_cfs_tunables *t)
{
	for (unsigned i = 0; i < n; i++) {
		se[i] = mk_se(0);
		ss_enqueue_entity_v5_17(cfs, &se[i], false, t);
	}
}

/*
 * __sched_period(): latency up to sched_nr_latency (8) tasks, nr × min_gran
 * beyond: 8 → 24 ms, 9 → 27 ms, 20 → 60 ms. sched_slice() of one of 10 queued
 * nice-0 tasks: 30 ms × 1024 / 10240 → 3 ms (= min_granularity; the integer
 * recipe gives 2 999 997, BASE_SLICE floors it at 3 ms). With 2 queued:
 * 24 ms × 1024 × ⌊(2^32−1)/2048⌋ >> 32 = 11 999 994; a third, not yet queued,
 * is counted in: 24 ms / 3 → 7 999 998 (× ⌊(2^32−1)/3072⌋).
 */
static void test_period_stretches(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs;
	struct ss_sched_entity se[10], extra = mk_se(0);

	(void)state;
	assert_int_equal(ss___sched_period_v5_17(1, &t), 24 * MS);
	assert_int_equal(ss___sched_period_v5_17(8, &t), 24 * MS);
	assert_int_equal(ss___sched_period_v5_17(9, &t), 27 * MS);
	assert_int_equal(ss___sched_period_v5_17(20, &t), 60 * MS);

	ss_cfs_rq_init(&cfs);
	fill(&cfs, se, 2, &t);
	assert_int_equal(ss_sched_slice_v5_17(&cfs, &se[0], &t), 11999994);
	assert_int_equal(ss_sched_slice_v5_17(&cfs, &extra, &t), 7999998);
	ss_cfs_rq_destroy(&cfs);

	ss_cfs_rq_init(&cfs);
	fill(&cfs, se, 10, &t);
	assert_int_equal(ss_sched_slice_v5_17(&cfs, &se[3], &t), 3 * MS);
	t.base_slice = false;
	assert_int_equal(ss_sched_slice_v5_17(&cfs, &se[3], &t), 2999997);
	ss_cfs_rq_destroy(&cfs);
}

/* One tick of a CPU running cfs: entity_tick(), and on a resched put_prev + pick + set_next. */
static bool tick(struct ss_cfs_rq *cfs, uint64_t now, const struct ss_cfs_tunables *t)
{
	if (!ss_entity_tick_v5_17(cfs, now, t))
		return false;
	ss_put_prev_entity(cfs, cfs->curr);
	ss_set_next_entity_v5_17(cfs, ss_pick_next_entity_v5_17(cfs, NULL, t), now);
	return true;
}

/*
 * Two nice-0 CPU hogs on 8 CPUs' tunables, HZ=1000: sched_slice() =
 * 11 999 994 ns, so check_preempt_tick() reschedules at the first tick
 * where the run exceeds it: after 12 ms. They alternate in 12-ms runs.
 */
static void test_two_hogs_alternate_in_slices(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(0);
	const struct ss_sched_entity *prev;
	uint64_t since = 0;
	unsigned runs = 0;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_task_fork_fair_v5_17(&cfs, &a, NULL, &t);
	ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
	ss_task_fork_fair_v5_17(&cfs, &b, NULL, &t);
	ss_enqueue_entity_v5_17(&cfs, &b, false, &t);
	ss_set_next_entity_v5_17(&cfs, ss_pick_next_entity_v5_17(&cfs, NULL, &t), 0);
	prev = cfs.curr;
	for (uint64_t ms = 1; ms <= 1000; ms++) {
		if (!tick(&cfs, ms * MS, &t))
			continue;
		assert_ptr_not_equal(cfs.curr, prev);   /* the other one */
		if (runs++ >= 1)                       /* after the first: both started */
			assert_int_equal(ms * MS - since, 12 * MS);
		since = ms * MS;
		prev = cfs.curr;
	}
	assert_true(runs >= 80);
	ss_cfs_rq_destroy(&cfs);
}

/* nice 0 against nice 5 on one CPU for 20 s: CPU shared 1024:335 (weights), within 0.5 %. */
static void test_nice_share(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), b = mk_se(5);
	const uint64_t end = 20000;

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_task_fork_fair_v5_17(&cfs, &a, NULL, &t);
	ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
	ss_task_fork_fair_v5_17(&cfs, &b, NULL, &t);
	ss_enqueue_entity_v5_17(&cfs, &b, false, &t);
	ss_set_next_entity_v5_17(&cfs, ss_pick_next_entity_v5_17(&cfs, NULL, &t), 0);
	for (uint64_t ms = 1; ms <= end; ms++)
		tick(&cfs, ms * MS, &t);
	ss_update_curr_v5_17(&cfs, end * MS);
	assert_int_equal(a.sum_exec_runtime + b.sum_exec_runtime, end * MS);
	double share = (double)a.sum_exec_runtime / (double)(end * MS), want = 1024.0 / 1359.0;
	assert_true(share > want - 0.005 && share < want + 0.005);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * place_entity() of a wakeup: a long sleeper (vruntime far behind) is put at
 * min_vruntime − latency/2 (GENTLE_FAIR_SLEEPERS; − latency without it); a
 * short one keeps its vruntime ("never gain time by being placed backwards").
 */
static void test_sleeper_placement(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs;
	struct ss_sched_entity a = mk_se(0), s = mk_se(0), q = mk_se(0), g = mk_se(0);

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
	ss_set_next_entity_v5_17(&cfs, &a, 0);
	ss_update_curr_v5_17(&cfs, 100 * MS);          /* a runs 100 ms alone: min_vruntime 100 ms */
	assert_int_equal(cfs.min_vruntime, 100 * MS);

	s.vruntime = 10 * MS;                          /* slept long */
	ss_enqueue_entity_v5_17(&cfs, &s, true, &t);
	assert_int_equal(s.vruntime, 100 * MS - 12 * MS);

	q.vruntime = 95 * MS;                          /* slept briefly: within latency/2 */
	ss_enqueue_entity_v5_17(&cfs, &q, true, &t);
	assert_int_equal(q.vruntime, 95 * MS);

	t.gentle_fair_sleepers = false;
	g.vruntime = 10 * MS;
	ss_enqueue_entity_v5_17(&cfs, &g, true, &t);
	assert_int_equal(g.vruntime, 100 * MS - 24 * MS);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * Fork (START_DEBIT): the child starts a vslice after min_vruntime:
 * parent alone at v = min_vruntime = 50 ms; sched_vslice of the child with
 * nr 1 + 1 and load 1024 + 1024: 11 999 994; relative to the parent's
 * cfs_rq, then re-based on the CPU it is enqueued on.
 */
static void test_fork_start_debit(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs, other;
	struct ss_sched_entity p = mk_se(0), c = mk_se(0);

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_cfs_rq_init(&other);
	ss_enqueue_entity_v5_17(&cfs, &p, false, &t);
	ss_set_next_entity_v5_17(&cfs, &p, 0);
	ss_update_curr_v5_17(&cfs, 50 * MS);
	ss_task_fork_fair_v5_17(&cfs, &c, &p, &t);
	assert_true(c.vruntime_relative);
	assert_int_equal(c.vruntime, 11999994);
	other.min_vruntime = 7 * MS;
	ss_enqueue_entity_v5_17(&other, &c, false, &t);
	assert_int_equal(c.vruntime, 7 * MS + 11999994);
	assert_false(c.vruntime_relative);
	ss_cfs_rq_destroy(&cfs);
	ss_cfs_rq_destroy(&other);
}

/*
 * check_preempt_wakeup(): the wakee preempts only when curr.v − wakee.v >
 * wakeup_gran(wakee) = calc_delta_fair(4 ms, wakee): 4 000 000 for nice 0,
 * 12 226 865 for nice 5 (4 ms × 1024/335, the integer recipe). A preempting
 * wakee becomes the next buddy, which pick_next_entity() prefers over a
 * leftmost it is within wakeup_gran() of.
 */
static void test_wakeup_preemption_gran(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_sched_entity w0 = mk_se(0), w5 = mk_se(5);

	(void)state;
	assert_int_equal(ss_wakeup_gran_v5_17(&w0, &t), 4 * MS);
	assert_int_equal(ss_wakeup_gran_v5_17(&w5, &t), 12226865);

	for (int d = -1; d <= 1; d++) {
		struct ss_cfs_rq cfs;
		struct ss_sched_entity a = mk_se(0), w = mk_se(0), l = mk_se(0);

		ss_cfs_rq_init(&cfs);
		ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
		ss_set_next_entity_v5_17(&cfs, &a, 0);
		ss_update_curr_v5_17(&cfs, 40 * MS);           /* a.v = min_vruntime = 40 ms */
		l.vruntime = 40 * MS - 4 * MS + 1;              /* another waiter, queued (not a wakeup) */
		ss_enqueue_entity_v5_17(&cfs, &l, false, &t);
		w.vruntime = (uint64_t)((int64_t)(40 * MS - 4 * MS) + d);   /* vdiff = 4 ms - d */
		ss_enqueue_entity_v5_17(&cfs, &w, true, &t);    /* placement keeps it: above min_v - 12 ms */
		assert_int_equal(w.vruntime, (uint64_t)((int64_t)(36 * MS) + d));
		bool preempt = ss_check_preempt_wakeup_v5_17(&cfs, &w, 40 * MS, false, &t);
		assert_int_equal(preempt, d < 0);              /* vdiff > gran only for d = -1 */
		assert_ptr_equal(cfs.next, d < 0 ? &w : NULL);
		assert_null(cfs.last);                         /* nr_running 3 < sched_nr_latency */
		ss_cfs_rq_destroy(&cfs);
	}

	/* the next buddy is picked over the leftmost when within wakeup_gran() of it */
	{
		struct ss_cfs_rq cfs;
		struct ss_sched_entity a = mk_se(0), w = mk_se(0), l = mk_se(0);

		ss_cfs_rq_init(&cfs);
		ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
		ss_set_next_entity_v5_17(&cfs, &a, 0);
		ss_update_curr_v5_17(&cfs, 40 * MS);
		l.vruntime = 30 * MS;                           /* leftmost */
		ss_enqueue_entity_v5_17(&cfs, &l, false, &t);
		w.vruntime = 33 * MS;                           /* 3 ms right of it, 7 ms left of curr */
		ss_enqueue_entity_v5_17(&cfs, &w, true, &t);
		assert_true(ss_check_preempt_wakeup_v5_17(&cfs, &w, 40 * MS, false, &t));
		ss_put_prev_entity(&cfs, &a);
		assert_ptr_equal(ss_pick_next_entity_v5_17(&cfs, NULL, &t), &w);
		cfs.next = NULL;
		assert_ptr_equal(ss_pick_next_entity_v5_17(&cfs, NULL, &t), &l);
		w.vruntime = 35 * MS;                           /* 5 ms right: more than wakeup_gran */
		cfs.next = &w;
		assert_ptr_equal(ss_pick_next_entity_v5_17(&cfs, NULL, &t), &l);
		ss_cfs_rq_destroy(&cfs);
	}
}

/*
 * LAST_BUDDY: with nr_running >= sched_nr_latency (8) a preempted curr is
 * marked last buddy; picking it (or dequeuing it) clears it.
 */
static void test_last_buddy(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs;
	struct ss_sched_entity se[7], a = mk_se(0), w = mk_se(0);

	(void)state;
	ss_cfs_rq_init(&cfs);
	ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
	ss_set_next_entity_v5_17(&cfs, &a, 0);
	ss_update_curr_v5_17(&cfs, 100 * MS);
	for (unsigned i = 0; i < 7; i++) {
		se[i] = mk_se(0);
		se[i].vruntime = 100 * MS + (i + 1) * MS;
		ss_enqueue_entity_v5_17(&cfs, &se[i], false, &t);
	}
	w.vruntime = 90 * MS;
	ss_enqueue_entity_v5_17(&cfs, &w, true, &t);      /* nr_running 9 */
	assert_true(ss_check_preempt_wakeup_v5_17(&cfs, &w, 100 * MS, false, &t));
	assert_ptr_equal(cfs.next, &w);
	assert_ptr_equal(cfs.last, &a);
	ss_put_prev_entity(&cfs, &a);
	ss_set_next_entity_v5_17(&cfs, ss_pick_next_entity_v5_17(&cfs, NULL, &t), 100 * MS);
	assert_ptr_equal(cfs.curr, &w);
	assert_null(cfs.next);
	assert_ptr_equal(cfs.last, &a);
	ss_dequeue_entity_v5_17(&cfs, &a, true);
	assert_null(cfs.last);
	ss_cfs_rq_destroy(&cfs);
}

/*
 * sched_yield() (yield_task_fair): the yielder becomes the skip buddy, and
 * pick_next_entity() passes over it while it is the leftmost if the second
 * is within wakeup_gran() (4 ms at 8 CPUs) of it. a runs to vruntime 1 ms,
 * yields; b (2 ms) is 1 ms right of it: b runs. With b at 6 ms (5 ms > gran)
 * a runs again, and picking it clears the skip buddy; a dequeue clears it too.
 */
static void test_skip_buddy(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	(void)state;

	for (unsigned far = 0; far < 2; far++) {
		struct ss_cfs_rq cfs;
		struct ss_sched_entity a = mk_se(0), b = mk_se(0), c = mk_se(0);

		ss_cfs_rq_init(&cfs);
		ss_enqueue_entity_v5_17(&cfs, &a, false, &t);
		b.vruntime = far ? 6 * MS : 2 * MS;
		c.vruntime = 10 * MS;
		ss_enqueue_entity_v5_17(&cfs, &b, false, &t);
		ss_enqueue_entity_v5_17(&cfs, &c, false, &t);
		ss_set_next_entity_v5_17(&cfs, &a, 0);
		ss_yield_task_fair_v5_17(&cfs, 1 * MS);
		assert_int_equal(a.vruntime, 1 * MS);   /* update_curr() charged the 1 ms */
		assert_ptr_equal(cfs.skip, &a);
		ss_put_prev_entity(&cfs, &a);
		struct ss_sched_entity *se = ss_pick_next_entity_v5_17(&cfs, NULL, &t);
		assert_ptr_equal(se, far ? &a : &b);
		ss_set_next_entity_v5_17(&cfs, se, 1 * MS);
		if (far) {
			assert_null(cfs.skip);
		} else {
			assert_ptr_equal(cfs.skip, &a);   /* picking b leaves a the skip buddy */
			ss_dequeue_entity_v5_17(&cfs, &a, true);
			assert_null(cfs.skip);
		}
		ss_cfs_rq_destroy(&cfs);
	}
}

/* The tree's successor of an entity: the next larger vruntime, ties by enqueue order. */
static void test_pick_next_entity_order(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq cfs;
	struct ss_sched_entity se[4];
	static const uint64_t v[4] = { 5 * MS, 1 * MS, 5 * MS, 3 * MS };
	(void)state;

	ss_cfs_rq_init(&cfs);
	for (unsigned i = 0; i < 4; i++) {
		se[i] = mk_se(0);
		se[i].vruntime = v[i];
		ss_enqueue_entity_v5_17(&cfs, &se[i], false, &t);
	}
	assert_ptr_equal(ss__pick_first_entity(&cfs), &se[1]);
	assert_ptr_equal(ss__pick_next_entity(&cfs, &se[1]), &se[3]);
	assert_ptr_equal(ss__pick_next_entity(&cfs, &se[3]), &se[0]);
	assert_ptr_equal(ss__pick_next_entity(&cfs, &se[0]), &se[2]);
	assert_null(ss__pick_next_entity(&cfs, &se[2]));
	ss_cfs_rq_destroy(&cfs);
}

/* A migrating entity keeps its vruntime relative to min_vruntime across cfs_rqs. */
static void test_migration_renormalises(void **state)
{
	struct ss_cfs_tunables t = tun(8);
	struct ss_cfs_rq src, dst;
	struct ss_sched_entity a = mk_se(0), b = mk_se(0), s = mk_se(0);

	(void)state;
	ss_cfs_rq_init(&src);
	ss_cfs_rq_init(&dst);
	ss_enqueue_entity_v5_17(&src, &a, false, &t);
	ss_set_next_entity_v5_17(&src, &a, 0);
	ss_update_curr_v5_17(&src, 20 * MS);               /* min_vruntime 20 ms */
	b.vruntime = 23 * MS;
	ss_enqueue_entity_v5_17(&src, &b, false, &t);
	ss_dequeue_entity_v5_17(&src, &b, false);          /* balancer's detach */
	assert_int_equal(b.vruntime, 3 * MS);
	dst.min_vruntime = 500 * MS;
	ss_enqueue_entity_v5_17(&dst, &b, false, &t);
	assert_int_equal(b.vruntime, 503 * MS);
	/* a waking task moved by select_task_rq: migrate_task_rq_fair() makes it relative, the
	 * wakeup enqueue re-bases it, then places it (GENTLE_FAIR_SLEEPERS) */
	s.vruntime = 21 * MS;
	ss_migrate_task_rq_v5_17(&src, &s);
	assert_int_equal(s.vruntime, 1 * MS);
	ss_enqueue_entity_v5_17(&dst, &s, true, &t);
	assert_int_equal(s.vruntime, 501 * MS);
	ss_cfs_rq_destroy(&src);
	ss_cfs_rq_destroy(&dst);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tunables_scale_with_cpus),
		cmocka_unit_test(test_period_stretches),
		cmocka_unit_test(test_two_hogs_alternate_in_slices),
		cmocka_unit_test(test_nice_share),
		cmocka_unit_test(test_sleeper_placement),
		cmocka_unit_test(test_fork_start_debit),
		cmocka_unit_test(test_wakeup_preemption_gran),
		cmocka_unit_test(test_last_buddy),
		cmocka_unit_test(test_migration_renormalises),
		cmocka_unit_test(test_skip_buddy),
		cmocka_unit_test(test_pick_next_entity_order),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Unit tests of the simulator's own pieces and of the scan-limit arithmetic:
 * event ordering and cancellation, CPU masks and for_each_cpu_wrap, the
 * SIS_UTIL nr_idle_scan table and SIS_PROP budgets of the reference
 * (kernel-sched.md §2.6, §2.8, §2.11), features, parameters, histograms.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"

/* ---------------------------------------------------------------- event queue */

static void test_evq_order(void **state)
{
	struct ss_evq q;
	struct ss_event ev[6];
	ss_evq_init(&q, 6);
	for (int i = 0; i < 6; i++)
		ev[i].heap_idx = SS_EV_IDLE;
	/* same time: class first, then cpu, then sequence */
	ss_evq_schedule(&q, &ev[0], 100, SS_EV_TICK, 3);
	ss_evq_schedule(&q, &ev[1], 100, SS_EV_ARRIVE, 7);
	ss_evq_schedule(&q, &ev[2], 50, SS_EV_CONTROL, 0);
	ss_evq_schedule(&q, &ev[3], 100, SS_EV_TICK, 1);
	ss_evq_schedule(&q, &ev[4], 100, SS_EV_ARRIVE, 7);
	ss_evq_schedule(&q, &ev[5], 200, SS_EV_ARRIVE, 0);
	assert_ptr_equal(ss_evq_pop(&q), &ev[2]);
	assert_ptr_equal(ss_evq_pop(&q), &ev[1]);
	assert_ptr_equal(ss_evq_pop(&q), &ev[4]);
	assert_ptr_equal(ss_evq_pop(&q), &ev[3]);
	assert_ptr_equal(ss_evq_pop(&q), &ev[0]);
	assert_ptr_equal(ss_evq_pop(&q), &ev[5]);
	assert_null(ss_evq_pop(&q));
	ss_evq_destroy(&q);
}

static void test_evq_cancel_reschedule(void **state)
{
	enum { N = 200 };
	struct ss_evq q;
	struct ss_event ev[N];
	uint64_t last = 0;
	unsigned popped = 0;
	ss_evq_init(&q, N);
	for (int i = 0; i < N; i++) {
		ev[i].heap_idx = SS_EV_IDLE;
		ss_evq_schedule(&q, &ev[i], (uint64_t)((i * 7919) % 1000), SS_EV_TIMER, (unsigned)i);
	}
	/* cancel every third, move every fifth later */
	for (int i = 0; i < N; i += 3) {
		ss_evq_cancel(&q, &ev[i]);
		assert_false(ss_ev_queued(&ev[i]));
		ss_evq_cancel(&q, &ev[i]);   /* cancelling twice is harmless */
	}
	for (int i = 1; i < N; i += 5)
		if (i % 3)
			ss_evq_schedule(&q, &ev[i], 5000 + (uint64_t)i, SS_EV_TIMER, (unsigned)i);
	struct ss_event *e;
	while ((e = ss_evq_pop(&q))) {
		unsigned i = (unsigned)(e - ev);
		assert_true(i % 3 != 0);
		assert_true(e->time >= last);
		if (i % 5 == 1)
			assert_int_equal(e->time, 5000 + i);
		else
			assert_int_equal(e->time, (i * 7919) % 1000);
		last = e->time;
		popped++;
	}
	unsigned expect = 0;
	for (int i = 0; i < N; i++)
		expect += i % 3 != 0;
	assert_int_equal(popped, expect);
	ss_evq_destroy(&q);
}

/*
 * Near and far events (the calendar and the tree of evq.c) mixed: times from
 * the same nanosecond to seconds ahead, events moved and cancelled while
 * others are popped; the pops must come in (time, class, cpu, sequence)
 * order, checked against a scan of what is queued.
 */
static void evq_near_far(unsigned used)
{
	enum { N = 300 };
	struct ss_evq q;
	struct ss_event ev[N];
	bool queued[N] = { false };
	uint64_t rnd = 12345 + used, now = 0;
	unsigned nq = 0;
	ss_evq_init(&q, N);
	for (int i = 0; i < N; i++)
		ev[i].heap_idx = SS_EV_IDLE;
	for (int step = 0; step < 20000; step++) {
		rnd = rnd * 6364136223846793005ull + 1442695040888963407ull;
		unsigned i = (unsigned)(rnd >> 33) % used, op = (unsigned)(rnd >> 20) % 8;
		uint64_t r = rnd >> 40, dt;
		switch (r % 4) {
		case 0: dt = r % 3; break;                          /* ties */
		case 1: dt = r % 20000; break;                      /* µs: the calendar */
		case 2: dt = r % 20000000; break;                   /* ms: near and far */
		default: dt = (r % 4000) * 1000000ull; break;       /* seconds: far */
		}
		if (op < 5) {
			if (!queued[i])
				nq++;
			ss_evq_schedule(&q, &ev[i], now + dt, (unsigned)(r % SS_EV_NR_CLASSES), (unsigned)(r % 7));
			queued[i] = true;
		} else if (op == 5) {
			if (queued[i])
				nq--;
			ss_evq_cancel(&q, &ev[i]);
			queued[i] = false;
			assert_false(ss_ev_queued(&ev[i]));
		} else if (nq) {
			/* the expected next: the smallest (time, key) queued */
			int best = -1;
			for (int k = 0; k < N; k++)
				if (queued[k] && (best < 0 || ev[k].time < ev[best].time ||
						  (ev[k].time == ev[best].time && ev[k].key < ev[best].key)))
					best = k;
			struct ss_event *e = ss_evq_pop(&q);
			assert_ptr_equal(e, &ev[best]);
			assert_false(ss_ev_queued(e));
			assert_true(e->time >= now);
			now = e->time;
			queued[best] = false;
			nq--;
		}
	}
	while (nq) {
		struct ss_event *e = ss_evq_pop(&q);
		assert_non_null(e);
		assert_true(e->time >= now);
		now = e->time;
		nq--;
	}
	assert_null(ss_evq_pop(&q));
	ss_evq_destroy(&q);
}

static void test_evq_near_far(void **state)
{
	evq_near_far(300);   /* dense */
	evq_near_far(4);     /* sparse: gaps longer than the calendar */
}

/* ---------------------------------------------------------------- cpumask */

static unsigned wrap_order(const uint64_t *m, unsigned n, unsigned start, unsigned *out)
{
	struct ss_cpumask_wrap it;
	unsigned k = 0;
	for (unsigned c = ss_cpumask_wrap_first(&it, m, n, start); c < n; c = ss_cpumask_wrap_next(&it, m, n))
		out[k++] = c;
	return k;
}

static void test_for_each_cpu_wrap(void **state)
{
	uint64_t m[2] = { 0 };
	unsigned out[128], k;
	unsigned bad;
	/* allowed CPUs 2,5,64,70 of 72: from target 6 + 1 = 7: 64, 70, 2, 5 */
	assert_int_equal(ss_cpumask_parse_list("2,5,64,70", m, 72, &bad), 0);
	k = wrap_order(m, 72, 7, out);
	assert_int_equal(k, 4);
	assert_int_equal(out[0], 64);
	assert_int_equal(out[1], 70);
	assert_int_equal(out[2], 2);
	assert_int_equal(out[3], 5);
	/* start on a set bit: it comes first, visited once */
	k = wrap_order(m, 72, 5, out);
	assert_int_equal(k, 4);
	assert_int_equal(out[0], 5);
	assert_int_equal(out[3], 2);
	/* start >= nr_cpus behaves as 0 (target + 1 for the last CPU) */
	k = wrap_order(m, 72, 72, out);
	assert_int_equal(k, 4);
	assert_int_equal(out[0], 2);
	/* target itself is last (select_idle_cpu scans it last) */
	ss_cpumask_zero(m, 2);
	for (unsigned c = 32; c < 64; c++)
		ss_cpumask_set(m, c);
	k = wrap_order(m, 128, 41, out);
	assert_int_equal(k, 32);
	assert_int_equal(out[0], 41);
	k = wrap_order(m, 128, 41 + 1, out);
	assert_int_equal(out[0], 42);
	assert_int_equal(out[21], 63);
	assert_int_equal(out[22], 32);
	assert_int_equal(out[31], 41);
	/* empty mask */
	ss_cpumask_zero(m, 2);
	assert_int_equal(wrap_order(m, 128, 3, out), 0);
}

static void test_cpulist(void **state)
{
	uint64_t m[2];
	char buf[64];
	unsigned bad;
	assert_int_equal(ss_cpumask_parse_list("0-3,8,10-11,127", m, 128, &bad), 0);
	assert_int_equal(ss_cpumask_weight(m, 2), 8);
	assert_string_equal(ss_cpumask_format_list(m, 128, buf, sizeof buf), "0-3,8,10-11,127");
	assert_int_equal(ss_cpumask_parse_list("0-3,x", m, 128, &bad), -1);
	assert_int_equal(bad, 4);
	assert_int_equal(ss_cpumask_parse_list("5-2", m, 128, &bad), -1);
	assert_int_equal(ss_cpumask_parse_list("0-128", m, 128, &bad), -1);
	assert_int_equal(ss_cpumask_parse_list("", m, 128, &bad), -1);
	assert_int_equal(ss_cpumask_parse_list("1,", m, 128, &bad), -1);
}

/* ---------------------------------------------------------------- SIS_UTIL / SIS_PROP */

/* reference kernel-sched.md §2.8 table: pct 117, sum_util = u * llc */
static void test_sis_util_table(void **state)
{
	static const unsigned llc[8] = { 4, 8, 16, 24, 32, 64, 112, 128 };
	static const struct {
		unsigned u;
		unsigned nr[8];
	} rows[] = {
		{ 0, { 4, 8, 16, 24, 32, 64, 112, 128 } },
		{ 102, { 3, 7, 15, 23, 31, 63, 110, 126 } },
		{ 205, { 3, 7, 15, 22, 30, 60, 105, 121 } },
		{ 256, { 3, 7, 14, 21, 29, 58, 102, 117 } },
		{ 307, { 3, 7, 14, 21, 28, 56, 98, 112 } },
		{ 410, { 3, 6, 12, 18, 25, 50, 87, 100 } },
		{ 512, { 2, 5, 10, 15, 21, 42, 73, 84 } },
		{ 614, { 2, 4, 8, 12, 16, 32, 56, 65 } },
		{ 717, { 1, 2, 5, 7, 10, 21, 36, 42 } },
		{ 768, { 0, 1, 3, 5, 7, 14, 25, 29 } },
		{ 820, { 0, 0, 1, 2, 3, 7, 13, 15 } },
		{ 850, { 0, 0, 0, 1, 1, 3, 6, 7 } },
		{ 860, { 0, 0, 0, 0, 1, 2, 3, 4 } },
		{ 870, { 0, 0, 0, 0, 0, 0, 1, 1 } },
		{ 875, { 0, 0, 0, 0, 0, 0, 0, 0 } },
		{ 1024, { 0, 0, 0, 0, 0, 0, 0, 0 } },
	};
	for (unsigned r = 0; r < sizeof rows / sizeof rows[0]; r++)
		for (unsigned i = 0; i < 8; i++)
			assert_int_equal(ss_sis_util_nr_idle_scan(llc[i], (uint64_t)rows[r].u * llc[i], 117), rows[r].nr[i]);
	/* first u giving 0 */
	static const unsigned first0[8] = { 759, 820, 848, 858, 862, 869, 872, 873 };
	for (unsigned i = 0; i < 8; i++) {
		assert_int_equal(ss_sis_util_nr_idle_scan(llc[i], (uint64_t)first0[i] * llc[i], 117), 0);
		assert_true(ss_sis_util_nr_idle_scan(llc[i], (uint64_t)(first0[i] - 1) * llc[i], 117) > 0);
	}
	/* pct 110, llc 16 */
	static const unsigned u110[6] = { 0, 256, 512, 768, 900, 931 }, n110[6] = { 16, 14, 11, 5, 1, 0 };
	for (unsigned i = 0; i < 6; i++)
		assert_int_equal(ss_sis_util_nr_idle_scan(16, (uint64_t)u110[i] * 16, 110), n110[i]);
	/* x is the integer average: a sum just under llc*u rounds down */
	assert_int_equal(ss_sis_util_nr_idle_scan(32, 768 * 32 - 1, 117), ss_sis_util_nr_idle_scan(32, 767 * 32, 117));
}

/* reference §2.9 linear RFC table: total_capacity = llc * 1024, sum_util = u * llc */
static void test_sis_util_linear_table(void **state)
{
	static const unsigned llc[8] = { 4, 8, 16, 24, 32, 64, 112, 128 };
	static const struct {
		unsigned u;
		unsigned nr[8];
	} rows[] = {
		{ 0, { 4, 8, 16, 24, 32, 64, 112, 128 } },
		{ 102, { 4, 8, 14, 21, 27, 53, 91, 104 } },
		{ 205, { 4, 7, 12, 16, 21, 40, 69, 79 } },
		{ 256, { 4, 6, 10, 14, 18, 34, 58, 66 } },
		{ 307, { 4, 6, 9, 13, 16, 29, 48, 54 } },
		{ 410, { 4, 5, 7, 8, 10, 16, 26, 29 } },
		{ 512, { 4, 4, 4, 4, 4, 4, 4, 4 } },
		{ 1024, { 4, 4, 4, 4, 4, 4, 4, 4 } },
	};
	for (unsigned r = 0; r < sizeof rows / sizeof rows[0]; r++)
		for (unsigned i = 0; i < 8; i++)
			assert_int_equal(ss_sis_util_linear_nr(llc[i], (uint64_t)rows[r].u * llc[i], (uint64_t)llc[i] * 1024),
					 rows[r].nr[i]);
}

/* reference §2.6 SIS_PROP test vectors */
static void test_sis_prop_budget(void **state)
{
	assert_int_equal(ss_sis_prop_nr(16, 500000, 4999), 1600);
	assert_int_equal(ss_sis_prop_nr(16, 20000, 24999), 12);
	assert_int_equal(ss_sis_prop_nr(16, 10000, 49999), 4);
	assert_int_equal(ss_sis_prop_nr(16, 0, 1000), 4);
	assert_int_equal(ss_sis_prop_nr(64, 5000, 9999), 32);
	assert_int_equal(ss_sis_prop_nr(112, 50000, 2999), 1866);
	/* update_avg cost vectors */
	uint64_t a = 1000;
	ss_update_avg(&a, 1800);
	assert_int_equal(a, 1100);
	a = 1000;
	ss_update_avg(&a, 200);
	assert_int_equal(a, 900);
	a = 1000;
	ss_update_avg(&a, 1007);
	assert_int_equal(a, 1000);
	a = 1000;
	ss_update_avg(&a, 993);
	assert_int_equal(a, 1000);
	/* avg_idle example of §2.1: 1 000 000 with a 200 000 idle period -> 900 000 */
	a = 1000000;
	ss_update_avg(&a, 200000);
	assert_int_equal(a, 900000);
}

/* ---------------------------------------------------------------- features, params */

static void test_features(void **state)
{
	ss_features_t f = ss_features_default();
	GError *err = NULL;
	assert_true(ss_feat(f, SS_FEAT_SIS_UTIL));
	assert_false(ss_feat(f, SS_FEAT_SIS_PROP));
	assert_true(ss_features_parse("SIS_PROP,NO_SIS_UTIL", &f, &err));
	assert_true(ss_feat(f, SS_FEAT_SIS_PROP));
	assert_false(ss_feat(f, SS_FEAT_SIS_UTIL));
	ss_features_t before = f;
	assert_false(ss_features_parse("SIS_UTIL,NO_SUCH_THING", &f, &err));
	assert_non_null(err);
	assert_non_null(strstr(err->message, "SUCH_THING"));
	assert_non_null(strstr(err->message, "TTWU_QUEUE"));
	g_clear_error(&err);
	assert_int_equal(f, before);
	char *s = ss_features_format(ss_features_default());
	assert_non_null(strstr(s, "NO_SIS_PROP SIS_UTIL"));
	g_free(s);
}

static void test_params(void **state)
{
	struct ss_params p;
	GError *err = NULL;
	ss_params_defaults(&p, NULL);
	assert_int_equal(p.hz, 250);
	assert_int_equal(p.freq_capacity, 1024);
	assert_true(ss_params_set(&p, "sis_util", "kernel.hz=1000", &err));
	assert_int_equal(p.hz, 1000);
	assert_true(ss_params_set(&p, "sis_util", "kernel.freq_ratio=0.5", &err));
	assert_int_equal(p.freq_capacity, 512);
	assert_true(ss_params_set(&p, "sis_util", "cost.ipi_ns=2us", &err));
	assert_int_equal(p.ipi_ns, 2000);
	assert_false(ss_params_set(&p, "sis_util", "cost.nope=1", &err));
	assert_non_null(strstr(err->message, "cost.probe_llc_ns"));
	g_clear_error(&err);
	assert_false(ss_params_set(&p, "sis_util", "bogus.x=1", &err));
	assert_non_null(strstr(err->message, "cost, policy, balance, kernel"));
	g_clear_error(&err);
	assert_false(ss_params_set(&p, "sis_util", "kernel.hz=5", &err));
	g_clear_error(&err);
	assert_false(ss_params_set(&p, "sis_util", "kernel.freq_ratio=1.5", &err));
	g_clear_error(&err);
	assert_false(ss_params_set(&p, "sis_util", "policy.tasks=4", &err));
	assert_non_null(strstr(err->message, "no parameters"));
	g_clear_error(&err);
	assert_false(ss_params_set(&p, "sis_util", "novalue", &err));
	g_clear_error(&err);

	uint64_t ns;
	assert_true(ss_parse_duration("1.5ms", &ns));
	assert_int_equal(ns, 1500000);
	assert_true(ss_parse_duration("2s", &ns));
	assert_int_equal(ns, 2000000000);
	assert_false(ss_parse_duration("-1s", &ns));
	assert_false(ss_parse_duration("3 parsecs", &ns));
	/* exact decimal: no exponent, hex, inf/nan, sign or bare point; whole ns only */
	assert_true(ss_parse_duration("0.1s", &ns));
	assert_int_equal(ns, 100000000);
	assert_true(ss_parse_duration("2.5us", &ns));
	assert_int_equal(ns, 2500);
	assert_true(ss_parse_duration("1500", &ns));
	assert_int_equal(ns, 1500);
	assert_true(ss_parse_duration("3µs", &ns));
	assert_int_equal(ns, 3000);
	assert_true(ss_parse_duration("18000000000s", &ns));
	assert_int_equal(ns, UINT64_C(18000000000000000000));
	static const char *const bad[] = { "1e3", "0x10", "inf", "nan", "+1s", "1.5", "1.5ns", "0.0000000001s", ".5s",
					   "5.s", "1 s", "", "s", "18000000001s", "99999999999999999999", "1.2.3s" };
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (ss_parse_duration(bad[i], &ns))
			fail_msg("'%s' parsed as %llu ns", bad[i], (unsigned long long)ns);
	unsigned l;
	assert_true(ss_parse_load("25%", &l, NULL));
	assert_int_equal(l, 2500);
	assert_true(ss_parse_load("150%", &l, NULL));
	assert_int_equal(l, 15000);
	assert_true(ss_parse_load("0.5", &l, NULL));
	assert_int_equal(l, 5000);
	assert_true(ss_parse_load("1", &l, NULL));
	assert_int_equal(l, 10000);
	assert_false(ss_parse_load("0%", &l, NULL));
	assert_false(ss_parse_load("-5%", &l, NULL));
	assert_false(ss_parse_load("abc", &l, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "expected a percentage"));
	g_clear_error(&err);
	/* a bare number is a fraction: above 1 it is refused, with the percentage it probably meant */
	l = 7;
	assert_false(ss_parse_load("50", &l, &err));
	assert_int_equal(l, 7);
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "at most 1 (did you mean 50%?)"));
	g_clear_error(&err);
	assert_false(ss_parse_load("1.5", &l, &err));
	assert_non_null(strstr(err->message, "(did you mean 1.5%?)"));
	g_clear_error(&err);
	g_autofree char *fix = ss_load_suggest_pct("0.5,50,12.5%,200");
	assert_string_equal(fix, "0.5,50%,12.5%,200%");
	g_autofree char *fix2 = ss_load_suggest_pct("25..200/25");
	assert_string_equal(fix2, "25%..200%/25%");
}

static void test_histograms(void **state)
{
	struct ss_log2_hist h = { 0 };
	ss_log2_hist_add(&h, 0);
	ss_log2_hist_add(&h, 1);
	ss_log2_hist_add(&h, 2);
	ss_log2_hist_add(&h, 3);
	ss_log2_hist_add(&h, 1024);
	assert_int_equal(h.count[0], 1);
	assert_int_equal(h.count[1], 1);
	assert_int_equal(h.count[2], 2);
	assert_int_equal(h.count[11], 1);
	struct ss_lat_hist *l = g_new0(struct ss_lat_hist, 1);
	for (uint64_t v = 1; v <= 100000; v++)
		ss_lat_hist_add(l, v);
	uint64_t p50 = ss_lat_hist_quantile(l, 0.5), p99 = ss_lat_hist_quantile(l, 0.99);
	/* within the sub-bucket resolution (1/32) */
	assert_true(p50 >= 50000 && p50 <= 50000 + 50000 / 32 + 1);
	assert_true(p99 >= 99000 && p99 <= 99000 + 99000 / 32 + 1);
	assert_int_equal(ss_lat_hist_quantile(l, 1.0), 100000);
	g_free(l);
}

/*
 * The memory a task costs: its struct, its plan entry with a path of typical
 * length, its two queue slots with their index entries and its
 * runqueue-array pointer stay within the 1 KiB-per-task budget.
 */
static void test_task_memory_budget(void **state)
{
	size_t per_task = sizeof(struct ss_task) + sizeof(struct ss_wl_task) + 32 /* "pair[12345]/server" + malloc header */
			  + 2 * (sizeof(struct ss_evq_slot) + 2 * sizeof(uint32_t) + sizeof(void *)) + sizeof(void *);
	assert_true(per_task <= 1024);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_evq_order),
		cmocka_unit_test(test_evq_cancel_reschedule),
		cmocka_unit_test(test_evq_near_far),
		cmocka_unit_test(test_for_each_cpu_wrap),
		cmocka_unit_test(test_cpulist),
		cmocka_unit_test(test_sis_util_table),
		cmocka_unit_test(test_sis_util_linear_table),
		cmocka_unit_test(test_sis_prop_budget),
		cmocka_unit_test(test_features),
		cmocka_unit_test(test_params),
		cmocka_unit_test(test_histograms),
		cmocka_unit_test(test_task_memory_budget),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * test_pelt_task.c — the replay behind `simsched pelt` (lib/pelt_task.c):
 * the periodic task of reference kernel-sched.md 1.8.4 and 1.8.5 through the
 * full update_load_avg() path, and a workload task replayed alone.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "simsched/error.h"
#include "simsched/pelt_task.h"
#include "simsched/workload.h"

#define MS 1000000ull

static struct ss_pelt_task_spec periodic(unsigned x_pct, uint64_t tick_ns)
{
	struct ss_pelt_task_spec s;

	memset(&s, 0, sizeof(s));
	s.period_ns = 10 * MS;
	s.busy_ns = 10 * MS * x_pct / 100;
	s.weight = 1024;
	s.capacity = 1024;
	s.freq_capacity = 1024;
	s.tick_ns = tick_ns;
	s.duration_ns = 4000 * MS;     /* cycles 0..399 */
	s.steady_from_ns = 3000 * MS;  /* steady state: cycles 300..399 */
	s.sample_ns = 100 * MS;
	return s;
}

static struct ss_pelt_trace *run_ok(const struct ss_pelt_task_spec *s)
{
	GError *err = NULL;
	struct ss_pelt_trace *t = ss_pelt_task_run(s, &err);

	if (!t)
		fail_msg("ss_pelt_task_run: %s", err ? err->message : "?");
	return t;
}

/* Reference 1.8.4: X %, tick 1 ms min-max, tick 4 ms min-max, no tick min-max. */
static void test_reference_periodic_table(void **state)
{
	static const unsigned v[9][7] = {
		{ 10, 93, 112, 93, 112, 93, 112 },
		{ 20, 188, 222, 188, 222, 188, 222 },
		{ 30, 285, 329, 285, 329, 285, 329 },
		{ 40, 384, 435, 384, 435, 384, 435 },
		{ 50, 485, 538, 485, 538, 485, 538 },
		{ 60, 589, 639, 588, 639, 588, 639 },
		{ 70, 694, 739, 694, 738, 694, 738 },
		{ 80, 802, 836, 801, 835, 801, 835 },
		{ 90, 912, 931, 911, 930, 911, 930 },
	};
	const uint64_t ticks[3] = { MS, 4 * MS, 0 };
	(void)state;

	for (int i = 0; i < 9; i++) {
		for (int j = 0; j < 3; j++) {
			/* a forked task and one from zero reach the same steady state */
			for (int z = 0; z < 2; z++) {
				struct ss_pelt_task_spec s = periodic(v[i][0], ticks[j]);
				struct ss_pelt_trace *t;

				s.from_zero = z;
				t = run_ok(&s);
				assert_true(t->steady);
				assert_int_equal(t->steady_min, v[i][1 + 2 * j]);
				assert_int_equal(t->steady_max, v[i][2 + 2 * j]);
				/* a single task: runnable = running */
				assert_int_equal(t->steady_runnable_min, t->steady_min);
				assert_int_equal(t->steady_runnable_max, t->steady_max);
				assert_int_equal(t->steady_running_ns, 100 * s.busy_ns);
				assert_false(t->exited);
				ss_pelt_trace_free(t);
			}
		}
	}
}

/*
 * X = 100 %: the task never blocks, so only ticks update it. (The
 * reference's protocol dequeues and re-enqueues it at every period boundary,
 * which a task that never sleeps does not do; with 1 ms ticks both agree.)
 */
static void test_always_running(void **state)
{
	struct ss_pelt_task_spec s = periodic(100, MS);
	struct ss_pelt_trace *t;
	(void)state;

	t = run_ok(&s);
	assert_int_equal(t->steady_min, 1024);
	assert_int_equal(t->steady_max, 1024);
	assert_int_equal(t->running_ns, s.duration_ns);
	/* fork + 3999 ticks (1 ms .. 3999 ms), no wakeup, no sleep */
	assert_int_equal(t->nr_updates, 4000);
	ss_pelt_trace_free(t);

	s = periodic(100, 0);
	t = run_ok(&s);
	assert_false(t->steady);    /* no tick, no sleep: nothing updates it */
	assert_int_equal(t->nr_updates, 1);
	ss_pelt_trace_free(t);
}

/* Reference 1.8.5: frequency and CPU invariance through clock_pelt. */
static void test_reference_invariance(void **state)
{
	const uint64_t ticks[3] = { 0, MS, 4 * MS };
	(void)state;

	for (int j = 0; j < 3; j++) {
		struct ss_pelt_task_spec s;
		struct ss_pelt_trace *t;

		s = periodic(50, ticks[j]);
		s.freq_capacity = 512;
		t = run_ok(&s);
		assert_int_equal(t->steady_min, 236);
		assert_int_equal(t->steady_max, 276);
		ss_pelt_trace_free(t);

		s = periodic(50, ticks[j]);
		s.capacity = 512;
		t = run_ok(&s);
		assert_int_equal(t->steady_min, 236);
		assert_int_equal(t->steady_max, 276);
		ss_pelt_trace_free(t);

		s = periodic(80, ticks[j]);
		s.freq_capacity = 512;
		t = run_ok(&s);
		assert_int_equal(t->steady_min, 384);
		assert_int_equal(t->steady_max, 435);
		ss_pelt_trace_free(t);
	}
}

/* Rows: one per sample time, the state held then; or one per update. */
static void test_samples(void **state)
{
	struct ss_pelt_task_spec s = periodic(50, 4 * MS);
	struct ss_pelt_trace *t;
	const struct ss_pelt_sample *x;
	(void)state;

	s.duration_ns = 40 * MS;
	s.steady_from_ns = 30 * MS;
	s.sample_ns = MS;
	t = run_ok(&s);
	assert_int_equal(t->samples->len, 40);
	x = &g_array_index(t->samples, struct ss_pelt_sample, 0);
	assert_int_equal(x->time_ns, 0);
	assert_int_equal(x->event, SS_PELT_EV_FORK);
	assert_true(x->running);
	/* post_init_entity_util_avg() on an idle 1024 CPU: half of it */
	assert_int_equal(x->util_avg, 512);
	assert_int_equal(x->runnable_avg, 512);
	assert_int_equal(x->load_avg, 1024);
	x = &g_array_index(t->samples, struct ss_pelt_sample, 5);   /* 5 ms: the first run ended */
	assert_int_equal(x->event, SS_PELT_EV_SLEEP);
	assert_false(x->running);
	x = &g_array_index(t->samples, struct ss_pelt_sample, 12);  /* 12 ms: tick at 12 ms */
	assert_int_equal(x->time_ns, 12 * MS);
	assert_int_equal(x->event, SS_PELT_EV_TICK);
	assert_true(x->running);
	/* util_est: set at the first sleep (FASTUP: ewma jumps to util_avg) */
	x = &g_array_index(t->samples, struct ss_pelt_sample, 39);
	assert_true(x->util_est_ewma > 0);
	ss_pelt_trace_free(t);

	s.sample_ns = 0;
	s.from_zero = true;
	t = run_ok(&s);
	/* fork, then per cycle: wakeup (not at 0), tick at 4 ms in [0, 5), sleep;
	 * cycles 0..3: 4 updates each minus cycle 0's wakeup = fork */
	x = &g_array_index(t->samples, struct ss_pelt_sample, 0);
	assert_int_equal(x->util_avg, 0);
	assert_int_equal(x->load_avg, 0);
	assert_int_equal(t->samples->len, t->nr_updates);
	for (guint i = 1; i < t->samples->len; i++) {
		const struct ss_pelt_sample *a = &g_array_index(t->samples, struct ss_pelt_sample, i - 1);
		const struct ss_pelt_sample *b = &g_array_index(t->samples, struct ss_pelt_sample, i);
		assert_true(a->time_ns <= b->time_ns);
		assert_true(a->clock_pelt_ns <= b->clock_pelt_ns);
	}
	ss_pelt_trace_free(t);
}

static struct ss_workload *wl(const char *text)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);

	if (!w)
		fail_msg("workload: %s", err ? err->message : "?");
	return w;
}

static const char *const WL_HEAD =
	"name: t\ninstance: pair\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n";

static struct ss_pelt_task_spec wl_spec(const struct ss_wl_plan *p, uint32_t task, uint64_t tick_ns)
{
	struct ss_pelt_task_spec s = periodic(0, tick_ns);

	s.period_ns = 0;
	s.plan = p;
	s.task = task;
	s.seed = 1;
	return s;
}

/* A workload task "run 5 ms, sleep 5 ms" is the 50 % periodic task. */
static void test_workload_task(void **state)
{
	g_autofree char *text = g_strconcat(WL_HEAD,
		"tasks:\n"
		"  - name: a\n"
		"    program:\n"
		"      - loop: {forever: true, do: [{run: 5ms}, {sleep: 5ms}]}\n", NULL);
	struct ss_workload *w = wl(text);
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 1, NULL);
	const uint64_t ticks[3] = { MS, 4 * MS, 0 };
	(void)state;

	for (int j = 0; j < 3; j++) {
		struct ss_pelt_task_spec s = wl_spec(p, 0, ticks[j]);
		struct ss_pelt_trace *t = run_ok(&s);

		assert_int_equal(t->steady_min, 485);
		assert_int_equal(t->steady_max, 538);
		ss_pelt_trace_free(t);
	}
	/* at half frequency the 5 ms of work take 10 ms: running 2/3 of a 15 ms
	 * cycle at half speed = the periodic 15 ms / 10 ms task at freq 512 */
	{
		struct ss_pelt_task_spec s = wl_spec(p, 0, 0), q = periodic(0, 0);
		struct ss_pelt_trace *t, *u;

		s.freq_capacity = 512;
		q.period_ns = 15 * MS;
		q.busy_ns = 10 * MS;
		q.freq_capacity = 512;
		q.duration_ns = 6000 * MS;
		s.duration_ns = q.duration_ns;
		s.steady_from_ns = q.steady_from_ns = 4500 * MS;
		t = run_ok(&s);
		u = run_ok(&q);
		assert_int_equal(t->steady_min, u->steady_min);
		assert_int_equal(t->steady_max, u->steady_max);
		assert_true(t->steady_max < 538);
		ss_pelt_trace_free(t);
		ss_pelt_trace_free(u);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* Waits: own tokens pass; a wait for others blocks wait_ns, or is an error. */
static void test_workload_waits(void **state)
{
	g_autofree char *text = g_strconcat(WL_HEAD,
		"tasks:\n"
		"  - name: a\n"
		"    program:\n"
		"      - wake: a\n"
		"      - wait\n"
		"      - loop: {count: 3, do: [{run: 2ms}, {wake: b}, {wait: 1}]}\n"
		"  - name: b\n"
		"    program:\n"
		"      - loop: {forever: true, do: [{wait: 1}, {run: 1ms}, {wake: a}]}\n", NULL);
	struct ss_workload *w = wl(text);
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 1, NULL);
	struct ss_pelt_task_spec s = wl_spec(p, 0, MS);
	struct ss_pelt_trace *t;
	GError *err = NULL;
	(void)state;

	/* the first wait is satisfied by its own wake; the loop's is not */
	assert_null(ss_pelt_task_run(&s, &err));
	assert_int_equal(err->code, SS_ERROR_INVALID);
	assert_non_null(strstr(err->message, "pair[0]/a"));
	assert_non_null(strstr(err->message, "--wait-time"));
	assert_non_null(strstr(err->message, "2000000 ns"));
	g_clear_error(&err);

	s.wait_ns = 3 * MS;
	s.steady_from_ns = 0;
	t = run_ok(&s);
	/* run 2, wait 3, run 2, wait 3, run 2, wait 3, then the program ends */
	assert_true(t->exited);
	assert_int_equal(t->end_ns, 15 * MS);
	assert_int_equal(t->running_ns, 6 * MS);
	ss_pelt_trace_free(t);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

static void test_bad_spec(void **state)
{
	struct ss_pelt_task_spec s = periodic(50, MS);
	GError *err = NULL;
	(void)state;

	s.busy_ns = s.period_ns + 1;
	assert_null(ss_pelt_task_run(&s, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	g_clear_error(&err);
	s = periodic(50, MS);
	s.capacity = 0;
	assert_null(ss_pelt_task_run(&s, &err));
	g_clear_error(&err);
	s = periodic(50, MS);
	s.steady_from_ns = s.duration_ns;
	assert_null(ss_pelt_task_run(&s, &err));
	g_clear_error(&err);
	assert_null(ss_pelt_task_run(NULL, &err));
	g_clear_error(&err);
	/* periods outside 1024 ns..2500 s, and runs outside 1..10^7 periods */
	s = periodic(50, MS);
	s.period_ns = SS_PELT_MIN_PERIOD_NS - 1;
	s.busy_ns = 0;
	s.duration_ns = 400 * s.period_ns;
	s.steady_from_ns = 0;
	assert_null(ss_pelt_task_run(&s, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "1024 ns..2500 s"));
	g_clear_error(&err);
	s.period_ns = SS_PELT_MAX_PERIOD_NS + 1;
	s.duration_ns = s.period_ns;
	assert_null(ss_pelt_task_run(&s, &err));
	g_clear_error(&err);
	s = periodic(50, MS);
	s.duration_ns = s.period_ns - 1;
	s.steady_from_ns = 0;
	assert_null(ss_pelt_task_run(&s, &err));
	assert_non_null(strstr(err->message, "1..10^7 periods"));
	g_clear_error(&err);
	s = periodic(50, MS);
	s.period_ns = SS_PELT_MIN_PERIOD_NS;
	s.busy_ns = 512;
	s.duration_ns = (SS_PELT_MAX_PERIODS + 1) * s.period_ns;
	assert_null(ss_pelt_task_run(&s, &err));
	g_clear_error(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reference_periodic_table),
		cmocka_unit_test(test_always_running),
		cmocka_unit_test(test_reference_invariance),
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_workload_task),
		cmocka_unit_test(test_workload_waits),
		cmocka_unit_test(test_bad_spec),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

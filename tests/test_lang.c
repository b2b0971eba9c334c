/*
 * test_lang.c — the behaviour language's constructs run by the simulator:
 * wake sets, token conservation, bounded channels, mutexes, barriers,
 * spawn/exit and fork placement (find_idlest_cpu), timers, phases, and the
 * distributions' means.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"

static struct ss_topology *kunpeng;

static int setup(void **state)
{
	GError *err = NULL;

	(void)state;
	kunpeng = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	return !kunpeng;
}

static int teardown(void **state)
{
	(void)state;
	ss_topology_free(kunpeng);
	return 0;
}

#define MAXA 200000
#include "action_trace.h"

static const char head[] = "name: t\ninstance: inst\nmetric: {name: x, unit: transactions/s, higher_is_better: true}\n";

static struct ss_results *run(const char *body, unsigned load_pct, uint64_t dur, struct trace *tr,
			      struct ss_workload **wout)
{
	char *text = g_strconcat(head, body, NULL);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);
	struct ss_run_config c = { 0 };
	struct ss_results *r;

	if (!w)
		fail_msg("%s", err->message);
	g_free(text);
	c.topo = kunpeng;
	c.wl = w;
	ss_params_defaults(&c.params, kunpeng);
	c.load_pct_x100 = load_pct * 100;
	c.seed = 7;
	c.duration_ns = dur;
	c.trace = tr ? record : NULL;
	c.trace_ctx = tr;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	if (wout)
		*wout = w;
	else
		ss_workload_free(w);
	return r;
}

static unsigned count(const struct trace *tr, unsigned task, enum ss_wl_action_kind k)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->n; i++)
		n += tr->e[i].task == task && tr->e[i].a.kind == k;
	return n;
}

/* wake which: all reaches every worker; round robin cycles; tokens are not lost */
static void test_wake_sets(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	/* 1 instance: boss (task 0) + 4 workers (1..4) + rr (5) + 3 others (6..8) */
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: boss\n    program:\n      - loop: {count: 10, do: [run: 10us, wake: {task: w, which: all}, wake: {task: o, which: round_robin}, sleep: 1ms]}\n"
				   "  - name: w\n    count: 4\n    program: [loop: {forever: true, do: [wait, run: 5us]}]\n"
				   "  - name: o\n    count: 3\n    program: [loop: {forever: true, do: [wait, run: 5us]}]\n",
				   100, 50000000, tr, NULL);

	(void)state;
	assert_int_equal(r->nr_tasks, 8);
	for (unsigned t = 1; t <= 4; t++)
		assert_int_equal(count(tr, t, SS_ACT_RUN), 10);   /* every wake of all reached every worker */
	/* 10 round-robin wakes over 3 tasks: 4, 3, 3 */
	assert_int_equal(count(tr, 5, SS_ACT_RUN), 4);
	assert_int_equal(count(tr, 6, SS_ACT_RUN), 3);
	assert_int_equal(count(tr, 7, SS_ACT_RUN), 3);
	ss_results_free(r);
	g_free(tr);
}

/* wake if_waiting reaches a task only while it waits: no token for a running one */
static void test_wake_if_waiting(void **state)
{
	static const char *const body[2] = {
		"instances_per_cpu: 0.001\ntasks:\n"
		"  - name: a\n    program: [loop: {count: 20, do: [sleep: 100us, wake: {task: b, if_waiting: true}]}]\n"
		"  - name: b\n    program: [loop: {forever: true, do: [wait, run: 500us]}]\n",
		"instances_per_cpu: 0.001\ntasks:\n"
		"  - name: a\n    program: [loop: {count: 20, do: [sleep: 100us, wake: {task: b}]}]\n"
		"  - name: b\n    program: [loop: {forever: true, do: [wait, run: 500us]}]\n",
	};

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		struct trace *tr = g_new0(struct trace, 1);
		struct ss_results *r = run(body[k], 100, 20000000, tr, NULL);
		uint64_t last = 0;
		unsigned runs = count(tr, 1, SS_ACT_RUN);

		for (unsigned i = 0; i < tr->n; i++)
			if (tr->e[i].task == 1 && tr->e[i].a.kind == SS_ACT_RUN)
				last = tr->e[i].t;
		if (k == 0) {
			/* a wake every ~100 us, b busy 500 us after each one it gets: the
			 * wakes during its runs are skipped, 4 runs, the last by ~2 ms */
			if (runs < 3 || runs > 4 || last > 2200000)
				fail_msg("if_waiting: %u runs, last at %llu ns", runs, (unsigned long long)last);
		} else {
			/* plain wakes leave tokens: all 20 are served, back to back to ~10 ms */
			if (runs != 20 || last < 9000000)
				fail_msg("tokens: %u runs, last at %llu ns", runs, (unsigned long long)last);
		}
		ss_results_free(r);
		g_free(tr);
	}
}

/* a full channel blocks its sender; every message is received exactly once */
static void test_channel_blocks(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	/* the sender is fast, the receiver slow; capacity 2 */
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: s\n    program: [loop: {count: 50, do: [run: 1us, send: {task: r}]}]\n"
				   "  - name: r\n    channel: 2\n    program: [loop: {count: 50, do: [recv, run: 100us]}]\n",
				   100, 100000000, tr, NULL);
	uint64_t last_send = 0, first_recv_run = UINT64_MAX;
	unsigned sends = 0;

	(void)state;
	for (unsigned i = 0; i < tr->n; i++) {
		if (tr->e[i].task == 0 && tr->e[i].a.kind == SS_ACT_SEND) {
			sends++;
			last_send = tr->e[i].t;
		}
		if (tr->e[i].task == 1 && tr->e[i].a.kind == SS_ACT_RUN && tr->e[i].t < first_recv_run)
			first_recv_run = tr->e[i].t;
	}
	assert_int_equal(sends, 50);
	assert_int_equal(count(tr, 1, SS_ACT_RUN), 50);
	/* without blocking, 50 sends take ~50 us; blocked by a 2-message channel
	 * they are paced by the receiver's 100 us per message: the 50th send
	 * goes once the receiver has taken ~47 messages */
	if (last_send <= 45 * UINT64_C(100000)) fail_msg("last send at %llu", (unsigned long long)last_send);
	assert_int_equal(r->finish_ns, 0);   /* not a finish-time metric */
	ss_results_free(r);
	g_free(tr);
}

/*
 * recv that wakes a blocked sender and then blocks itself: the probing of
 * that wakeup is charged to the receiver's CPU first (as for wake), then the
 * recv is tried again and blocks. In the trace: the recv of 3, the retry for
 * the last message a probe-cost later, and that recv again once the sender's
 * message wakes the receiver.
 */
static void test_recv_charges_wakeup_cost(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	/* channel of 1: the sender's 2nd message waits in the sender (blocked);
	 * the receiver takes 1, which lets the 2nd in and wakes the sender,
	 * takes the 2nd, and blocks for the 3rd, 100 us away */
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: s\n    start_cpu: 8\n    program: [loop: {count: 30, do: [send: r, send: r, send: r, run: 100us]}]\n"
				   "  - name: r\n    cpus: \"0\"\n    channel: 1\n    program: [loop: {count: 10, do: [recv: 3, run: 10us]}]\n",
				   100, 20000000, tr, NULL);
	unsigned retries = 0, recv3 = 0;
	uint64_t charged = 0;

	(void)state;
	for (unsigned i = 0; i < tr->n; i++) {
		if (tr->e[i].task != 1 || tr->e[i].a.kind != SS_ACT_RECV || tr->e[i].a.count != 3)
			continue;
		unsigned next[2] = { 0, 0 }, k = 0;

		recv3++;
		for (unsigned j = i + 1; j < tr->n && k < 2; j++)
			if (tr->e[j].task == 1)
				next[k++] = j;
		/*
		 * The receiver's next two actions: the retry of the last message a
		 * probe-cost later (well under the microseconds a wakeup of the
		 * sender, its run and its send take), which blocks, and the same
		 * recv again when the sender's message wakes it.
		 */
		if (k == 2 && tr->e[next[0]].a.kind == SS_ACT_RECV && tr->e[next[0]].a.count == 1 &&
		    tr->e[next[1]].a.kind == SS_ACT_RECV && tr->e[next[1]].a.count == 1 &&
		    tr->e[next[0]].t > tr->e[i].t && tr->e[next[0]].t - tr->e[i].t < 1000 &&
		    tr->e[next[1]].t - tr->e[next[0]].t > 1000) {
			retries++;
			charged += tr->e[next[0]].t - tr->e[i].t;
		}
	}
	/* a recv of 3 is traced again when it resumes after blocking with none taken */
	assert_true(recv3 >= 10);
	/* the first recv finds the channel holding 1 message and no sender blocked */
	if (retries < 9)
		fail_msg("%u of 10 recvs charged their wakeup's probing before blocking", retries);
	assert_true(charged > 0);
	assert_int_equal(count(tr, 1, SS_ACT_RUN), 10);
	ss_results_free(r);
	g_free(tr);
}

/* a mutex serialises its critical sections; FIFO handoff */
static void test_mutex_serialises(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: a\n    count: 6\n    program: [loop: {count: 5, do: [lock: m, transaction: begin, run: 50us, transaction: end, unlock: m, run: 10us]}]\n",
				   100, 100000000, tr, NULL);
	int holder = -1;
	unsigned ends = 0;

	(void)state;
	for (unsigned i = 0; i < tr->n; i++) {
		const struct ss_wl_action *a = &tr->e[i].a;

		if (a->kind == SS_ACT_TXN_BEGIN) {
			assert_int_equal(holder, -1);   /* nobody else inside */
			holder = (int)tr->e[i].task;
		} else if (a->kind == SS_ACT_TXN_END) {
			assert_int_equal(holder, (int)tr->e[i].task);
			holder = -1;
			ends++;
		}
	}
	assert_int_equal(ends, 30);
	ss_results_free(r);
	g_free(tr);
}

/* a barrier releases all its parties, and none before the last arrives */
static void test_barrier_releases_all(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: fast\n    count: 3\n    program: [run: 10us, barrier: b, run: 1us]\n"
				   "  - name: slow\n    program: [run: 500us, barrier: b, run: 1us]\n",
				   100, 10000000, tr, NULL);
	unsigned after = 0;
	uint64_t slow_arrive = 0;

	(void)state;
	for (unsigned i = 0; i < tr->n; i++)
		if (tr->e[i].task == 3 && tr->e[i].a.kind == SS_ACT_BARRIER)
			slow_arrive = tr->e[i].t;
	for (unsigned i = 0; i < tr->n; i++)
		if (tr->e[i].a.kind == SS_ACT_RUN && tr->e[i].a.ns == 1000) {
			after++;
			assert_true(tr->e[i].t >= slow_arrive);
		}
	assert_true(slow_arrive >= 500000);
	assert_int_equal(after, 4);
	ss_results_free(r);
	g_free(tr);
}

/* spawn/exit: counts; seconds to finish; children land on idle CPUs (find_idlest_cpu) */
static void test_spawn_exit_and_placement(void **state)
{
	struct ss_workload *w;
	char *text = g_strconcat("name: t\ninstance: inst\nmetric: {name: time, unit: s, higher_is_better: false}\n"
				 "instances_per_cpu: 0.001\ntasks:\n"
				 "  - name: parent\n    start_cpu: 0\n    program: [run: 50us, spawn: {task: child, count: 8}, run: 10us, exit]\n"
				 "  - name: child\n    count: 8\n    spawned: true\n    program: [run: 1ms, exit]\n", NULL);
	GError *err = NULL;
	struct ss_run_config c = { 0 };
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r;
	bool seen[128] = { false };

	(void)state;
	w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);
	g_free(text);
	assert_non_null(w);
	c.topo = kunpeng;
	c.wl = w;
	ss_params_defaults(&c.params, kunpeng);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 100000000;
	c.trace = record;
	c.trace_ctx = tr;
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(r->spawns, 8);
	/* all children ran 1 ms in parallel: done a little after 1.05 ms, not 8 ms */
	if (!(r->finish_ns > 1050000 && r->finish_ns < 1500000)) fail_msg("finish %llu", (unsigned long long)r->finish_ns);
	assert_true(ss_results_metric_value(r) > 0.00105 && ss_results_metric_value(r) < 0.0015);
	for (unsigned t = 1; t <= 8; t++)
		assert_int_equal(count(tr, t, SS_ACT_RUN), 1);
	ss_results_free(r);
	ss_workload_free(w);
	g_free(tr);
	(void)seen;
}

/* find_idlest_cpu() picks an idle CPU over a busy one, and stays in the fork domain */
static void test_find_idlest_cpu(void **state)
{
	struct ss_workload *w;
	struct ss_results *r;
	struct trace *tr = g_new0(struct trace, 1);

	(void)state;
	/* 4 hogs pinned to CPUs 1-4 keep them busy; the parent on CPU 0 spawns 4 children */
	r = run("instances_per_cpu: 0.001\ntasks:\n"
		"  - name: hog\n    count: 4\n    cpus: 1-4\n    program: [run: 50ms]\n"
		"  - name: parent\n    start_cpu: 0\n    program: [run: 1ms, spawn: {task: child, count: 4}, run: 1ms]\n"
		"  - name: child\n    count: 4\n    spawned: true\n    program: [run: 2ms, exit]\n",
		100, 10000000, tr, &w);
	assert_int_equal(r->spawns, 4);
	ss_results_free(r);
	ss_workload_free(w);
	g_free(tr);
}

/* distributions: sample means within tolerance for a fixed seed */
static void test_distribution_means(void **state)
{
	struct ss_dist_bin bins[] = { { 10000, 3 }, { 50000, 1 } };
	struct ss_dist n = { .kind = SS_DIST_NORMAL, .a = 100000, .b = 20000 };
	struct ss_dist l = { .kind = SS_DIST_LOGNORMAL, .a = 100000, .b = 60000 };
	struct ss_dist e = { .kind = SS_DIST_EMPIRICAL, .a = 4, .bins = bins, .nr_bins = 2 };
	struct ss_rng rng;
	double sn = 0, sn2 = 0, sl = 0, sl2 = 0, se = 0;
	const unsigned N = 200000;

	(void)state;
	ss_rng_seed(&rng, 42, 1);
	for (unsigned i = 0; i < N; i++) {
		double x = (double)ss_dist_draw(&n, &rng), y = (double)ss_dist_draw(&l, &rng);
		uint64_t z = ss_dist_draw(&e, &rng);

		assert_true(z == 10000 || z == 50000);
		sn += x;
		sn2 += x * x;
		sl += y;
		sl2 += y * y;
		se += (double)z;
	}
	sn /= N;
	sl /= N;
	se /= N;
	assert_true(fabs(sn - 100000) < 300);
	assert_true(fabs(sqrt(sn2 / N - sn * sn) - 20000) < 300);
	assert_true(fabs(sl - 100000) < 600);
	assert_true(fabs(sqrt(sl2 / N - sl * sl) - 60000) < 2000);
	assert_true(fabs(se - 20000) < 300);   /* (3 x 10 + 50) / 4 us */
}

/* timer: absolute periods; phases: start_after / stop_after */
static void test_timer_and_phases(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: p\n    start_after: 3ms\n    stop_after: 53ms\n"
				   "    program: [loop: {forever: true, do: [timer: 10ms, run: {uniform: [1ms, 4ms]}]}]\n",
				   100, 100000000, tr, NULL);
	unsigned runs = 0;

	(void)state;
	for (unsigned i = 0; i < tr->n; i++)
		if (tr->e[i].a.kind == SS_ACT_RUN) {
			/* each run starts at 3 ms + k x 10 ms (+ the context switch) */
			uint64_t off = (tr->e[i].t - 3000000) % 10000000;

			assert_true(tr->e[i].t >= 13000000);
			assert_true(off < 20000);
			runs++;
		}
	assert_int_equal(runs, 5);   /* periods ending at 13, 23, 33, 43, 53 ms; exit after 53 ms */
	ss_results_free(r);
	g_free(tr);
}

/* Times (ns) of task 0's runs of `ns` work, at most max of them. */
static unsigned run_times(const struct trace *tr, uint64_t ns, uint64_t *out, unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->n && n < max; i++)
		if (tr->e[i].task == 0 && tr->e[i].a.kind == SS_ACT_RUN && tr->e[i].a.ns == ns)
			out[n++] = tr->e[i].t;
	return n;
}

static void near_ms(uint64_t t, double ms)
{
	double d = (double)t / 1e6 - ms;

	if (d < -0.001 || d > 0.05)
		fail_msg("%.4f ms, expected %.3f ms", (double)t / 1e6, ms);
}

/*
 * timer modes after an overrun (rt-app): absolute keeps its period
 * boundaries (anchored at the start: 2, 4, 6 ms passed, next 8 ms);
 * relative restarts the period from the overrun (5 ms, next 7 ms).
 */
static void test_timer_modes(void **state)
{
	static const char *const body[] = {
		"tasks:\n  - name: t\n    start_cpu: 0\n    program:\n      - run: 5ms\n"
		"      - loop: {forever: true, do: [timer: {period: 2ms, anchor: start}, run: 500us]}\n",
		"tasks:\n  - name: t\n    start_cpu: 0\n    program:\n      - run: 5ms\n"
		"      - loop: {forever: true, do: [timer: {period: 2ms, mode: relative, anchor: start}, run: 500us]}\n",
		"tasks:\n  - name: t\n    start_cpu: 0\n    program:\n      - run: 5ms\n"
		"      - loop: {forever: true, do: [timer: 2ms, run: 500us]}\n",
	};
	static const double want[][5] = {
		{ 5.0, 5.5, 6.0, 8.0, 10.0 },   /* absolute, anchored: 2, 4, 6 overrun */
		{ 5.0, 7.0, 9.0, 11.0, 13.0 },  /* relative: 2 overrun, restart at 5 */
		{ 7.0, 9.0, 11.0, 13.0, 15.0 }, /* the first timer arms at now + period */
	};
	(void)state;

	for (unsigned k = 0; k < 3; k++) {
		struct trace *tr = g_new0(struct trace, 1);
		uint64_t t[5];

		ss_results_free(run(body[k], 1, 16000000, tr, NULL));
		assert_int_equal(run_times(tr, 500000, t, 5), 5);
		for (unsigned i = 0; i < 5; i++)
			near_ms(t[i], want[k][i]);
		g_free(tr);
	}
}

/*
 * run_wall ends at its wall deadline whatever the progress: at half the
 * frequency, run: 2ms takes 4 ms of wall time, run_wall: 2ms takes 2 ms.
 */
static void test_run_wall(void **state)
{
	static const char *const body[] = {
		"tasks:\n  - name: t\n    start_cpu: 0\n    program: [loop: {forever: true, do: [run: 2ms, run: 10us, sleep: 1ms]}]\n",
		"tasks:\n  - name: t\n    start_cpu: 0\n    program: [loop: {forever: true, do: [run_wall: 2ms, run: 10us, sleep: 1ms]}]\n",
	};
	(void)state;

	for (unsigned k = 0; k < 2; k++) {
		struct trace *tr = g_new0(struct trace, 1);
		char *text = g_strconcat(head, body[k], NULL);
		GError *err = NULL;
		struct ss_workload *w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);
		struct ss_run_config c = { 0 };
		uint64_t t[3];

		assert_non_null(w);
		c.topo = kunpeng;
		c.wl = w;
		ss_params_defaults(&c.params, kunpeng);
		c.params.freq_capacity = 512;
		c.load_pct_x100 = 100;
		c.seed = 7;
		c.duration_ns = 20000000;
		c.trace = record;
		c.trace_ctx = tr;
		ss_results_free(ss_simulate(&c, &err));
		/* the 10 us marker run follows the 2 ms burst; one period is burst + 20 us + 1 ms */
		assert_int_equal(run_times(tr, 10000, t, 3), 3);
		near_ms(t[0], k ? 2.0 : 4.0);
		near_ms(t[1] - t[0], (k ? 2.0 : 4.0) + 1.02);
		g_free(tr);
		g_free(text);
		ss_workload_free(w);
	}
}

/*
 * yield: two tasks on CPU 0 that run 100 us and yield take turns (each
 * run follows one of the other task); a task alone on CPU 1 yields without
 * switching, and every yield is counted. The language refuses a loop of
 * yields only (no time passes) and a value.
 */
static void test_yield(void **state)
{
	struct trace *tr = g_new0(struct trace, 1);
	struct ss_results *r = run("tasks:\n  - name: pair\n    count: 2\n    cpus: \"0\"\n"
				   "    program: [loop: {forever: true, do: [run: 100us, yield]}]\n"
				   "  - name: solo\n    cpus: \"1\"\n"
				   "    program: [loop: {forever: true, do: [run: 100us, yield: true]}]\n",
				   1, 20000000, tr, NULL);
	unsigned n = 0, changes = 0, last = 0, yields = 0;
	(void)state;

	for (unsigned i = 0; i < tr->n; i++) {
		if (tr->e[i].a.kind == SS_ACT_YIELD)
			yields++;
		if (tr->e[i].a.kind != SS_ACT_RUN || tr->e[i].task > 1)
			continue;
		if (n++ && tr->e[i].task != last)
			changes++;
		last = tr->e[i].task;
	}
	assert_in_range(n, 150, 200);
	assert_true(changes + 2 >= n - 1);
	assert_in_range(count(tr, 2, SS_ACT_YIELD), 195, 200);   /* alone: 100 us per yield */
	assert_int_equal(r->yields, yields);
	ss_results_free(r);
	g_free(tr);
}

/*
 * exec: sched_exec() places the task by the fork path with its own load
 * left out of its CPU (find_idlest_cpu(), SD_BALANCE_EXEC). Sharing CPU 0
 * with a pinned hog, it moves to an idle CPU (the stopper: one migration of
 * cause exec) and runs its 5 ms there; alone on an idle machine it stays
 * at every exec (counted with itself, its CPU would look busy and it
 * would move each time).
 */
static void test_exec_places(void **state)
{
	struct ss_results *r = run("instances_per_cpu: 0.001\ntasks:\n"
				   "  - name: worker\n    start_cpu: 0\n    program: [exec, run: 5ms, exit]\n"
				   "  - name: hog\n    cpus: \"0\"\n    start_cpu: 0\n    program: [run: 20ms, exit]\n",
				   100, 30000000, NULL, NULL);
	uint64_t other = 0;
	(void)state;

	assert_int_equal(r->migrations_by_cause[SS_MIG_EXEC], 1);
	for (unsigned i = 1; i < r->nr_cpus; i++)
		other += r->cpu[i].busy_ns;
	assert_in_range(other, 5000000, 5200000);
	assert_in_range(r->cpu[0].busy_ns, 20000000, 20200000);
	ss_results_free(r);

	r = run("instances_per_cpu: 0.001\ntasks:\n"
		"  - name: solo\n    start_cpu: 5\n    program: [loop: {count: 10, do: [run: 1ms, exec]}, exit]\n",
		100, 30000000, NULL, NULL);
	assert_int_equal(r->migrations_by_cause[SS_MIG_EXEC], 0);
	assert_int_equal(r->migrations, 0);
	assert_in_range(r->cpu[5].busy_ns, 10000000, 10100000);
	ss_results_free(r);
}

/*
 * metric `from: begin`: a finish time counted from the first transaction
 * begin (hackbench's gettimeofday(&start) after forking), with every
 * statistic restarted there; `from: start` (the default) counts from t = 0.
 */
static void test_finish_from_begin(void **state)
{
	static const char body[] =
		"name: t\ninstance: inst\nmetric: {name: time, unit: s, higher_is_better: false, from: %s}\n"
		"instances_per_cpu: 0.001\ntasks:\n"
		"  - name: parent\n    start_cpu: 0\n"
		"    program: [run: 1ms, spawn: {task: kid, count: 2}, wait: 2, transaction: begin,\n"
		"              wake: {task: kid, which: all}, wait: 2, transaction: end]\n"
		"  - name: kid\n    count: 2\n    spawned: true\n    program: [wake: parent, wait, run: 2ms, wake: parent]\n";
	uint64_t finish[2], busy[2], wakeups[2], warmup[2];

	(void)state;
	for (unsigned k = 0; k < 2; k++) {
		char *text = g_strdup_printf(body, k ? "start" : "begin");
		GError *err = NULL;
		struct ss_workload *w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);
		struct ss_run_config c = { 0 };
		struct ss_results *r;

		assert_non_null(w);
		c.topo = kunpeng;
		c.wl = w;
		ss_params_defaults(&c.params, kunpeng);
		c.load_pct_x100 = 10000;
		c.seed = 3;
		c.duration_ns = 100000000;
		r = ss_simulate(&c, &err);
		assert_non_null(r);
		finish[k] = r->finish_ns;
		warmup[k] = r->warmup_ns;
		wakeups[k] = r->wakeups;
		busy[k] = 0;
		for (unsigned i = 0; i < r->nr_cpus; i++)
			busy[k] += r->cpu[i].busy_ns;
		assert_int_equal(r->duration_ns, r->finish_ns);
		assert_true(ss_results_metric_value(r) == (double)r->finish_ns / 1e9);
		ss_results_free(r);
		ss_workload_free(w);
		g_free(text);
	}
	/* from the begin: the parent's 1 ms and the kids' ready wakeups are before it */
	if (!(warmup[0] >= 1000000 && warmup[0] < 1100000))
		fail_msg("start mark at %llu ns", (unsigned long long)warmup[0]);
	if (!(finish[0] >= 2000000 && finish[0] < 2100000))
		fail_msg("timed %llu ns", (unsigned long long)finish[0]);
	assert_int_equal(warmup[1], 0);
	assert_true(finish[1] == finish[0] + warmup[0]);    /* the same run, timed from t = 0 */
	/* statistics: after the mark, 2 kick-off wakeups and 1 of the parent (its
	 * wait: 2 wakes it on the second token); before it, 1 more (the ready tokens) */
	assert_int_equal(wakeups[0], 3);
	assert_int_equal(wakeups[1], 4);
	/* busy time: the kids' 2 ms each after the mark, the parent's 1 ms before it too */
	if (!(busy[0] >= 4000000 && busy[0] < 4200000) || !(busy[1] >= 5000000 && busy[1] < 5300000))
		fail_msg("busy %llu / %llu ns", (unsigned long long)busy[0], (unsigned long long)busy[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wake_sets),
		cmocka_unit_test(test_wake_if_waiting),
		cmocka_unit_test(test_channel_blocks),
		cmocka_unit_test(test_recv_charges_wakeup_cost),
		cmocka_unit_test(test_mutex_serialises),
		cmocka_unit_test(test_barrier_releases_all),
		cmocka_unit_test(test_spawn_exit_and_placement),
		cmocka_unit_test(test_find_idlest_cpu),
		cmocka_unit_test(test_distribution_means),
		cmocka_unit_test(test_timer_and_phases),
		cmocka_unit_test(test_timer_modes),
		cmocka_unit_test(test_run_wall),
		cmocka_unit_test(test_yield),
		cmocka_unit_test(test_exec_places),
		cmocka_unit_test(test_finish_from_begin),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

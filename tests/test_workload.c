/*
 * test_workload.c — the workload language: loading, validation errors with
 * their file:line:col, instantiation at a load level, the interpreter's
 * action sequences, the duration distributions, and parameters ($NAME,
 * ${EXPR}, overrides).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "simsched/error.h"
#include "simsched/rng.h"
#include "simsched/workload.h"
#include "simsched/sim.h"
#include "simsched/topology.h"
#include "simsched/params.h"

#define NETPERF SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml"
#define BAD(f) SS_TEST_DATA "/workload/" f

static const char metric_line[] = "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n";

/* A workload from inline text (header lines added); fails the test on error. */
static struct ss_workload *load_ok(const char *body)
{
	char *text = g_strconcat("name: t\ninstance: inst\n", metric_line, body, NULL);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);

	if (!w)
		fail_msg("unexpected error: %s", err->message);
	g_free(text);
	return w;
}

/* Loading text must fail with a message starting with prefix (and containing part). */
static void expect_error_text(const char *text, const char *prefix, const char *part, int code)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(text, strlen(text), "t.yaml", &err);

	assert_null(w);
	assert_non_null(err);
	if (strncmp(err->message, prefix, strlen(prefix)) || (part && !strstr(err->message, part)))
		fail_msg("expected '%s...%s', got '%s'", prefix, part ? part : "", err->message);
	assert_true(err->domain == SS_ERROR);
	assert_int_equal(err->code, code);
	g_error_free(err);
}

/* Same, with the standard header lines (name, instance, metric: lines 1-3). */
static void expect_error(const char *body, const char *prefix, const char *part)
{
	char *text = g_strconcat("name: t\ninstance: inst\n", metric_line, body, NULL);

	expect_error_text(text, prefix, part, SS_ERROR_INVALID);
	g_free(text);
}

static struct ss_wl_plan *plan_ok(const struct ss_workload *w, unsigned load, unsigned cpus)
{
	GError *err = NULL;
	struct ss_wl_plan *p = ss_workload_instantiate(w, load, cpus, &err);

	if (!p)
		fail_msg("unexpected error: %s", err->message);
	return p;
}

static void seed_task(const struct ss_wl_plan *p, uint32_t task, uint64_t seed, struct ss_rng *r)
{
	ss_rng_seed(r, seed, ss_rng_stream_id(p->task[task].path));
}

static void next(const struct ss_wl_plan *p, uint32_t t, struct ss_wl_cursor *c, struct ss_rng *r,
		 struct ss_wl_action *a)
{
	ss_wl_next(p, t, c, r, a);
}

static void expect_kind(const struct ss_wl_plan *p, uint32_t t, struct ss_wl_cursor *c, struct ss_rng *r,
			enum ss_wl_action_kind kind)
{
	struct ss_wl_action a;

	next(p, t, c, r, &a);
	assert_int_equal(a.kind, kind);
}

static void expect_run(const struct ss_wl_plan *p, uint32_t t, struct ss_wl_cursor *c, struct ss_rng *r,
		       enum ss_wl_action_kind kind, uint64_t lo, uint64_t hi)
{
	struct ss_wl_action a;

	next(p, t, c, r, &a);
	assert_int_equal(a.kind, kind);
	assert_in_range(a.ns, lo, hi);
}

static void expect_wake(const struct ss_wl_plan *p, uint32_t t, struct ss_wl_cursor *c, struct ss_rng *r,
			uint32_t target, bool sync)
{
	struct ss_wl_action a;

	next(p, t, c, r, &a);
	assert_int_equal(a.kind, SS_ACT_WAKE);
	assert_int_equal(a.target, target);
	assert_int_equal(a.sync, sync);
}

static void expect_wait(const struct ss_wl_plan *p, uint32_t t, struct ss_wl_cursor *c, struct ss_rng *r,
			uint32_t count)
{
	struct ss_wl_action a;

	next(p, t, c, r, &a);
	assert_int_equal(a.kind, SS_ACT_WAIT);
	assert_int_equal(a.count, count);
}

/* ---- the shipped netperf file ---- */

static void test_netperf_loads(void **state)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load(NETPERF, &err);
	const struct ss_wl_metric *m;

	if (!w)
		fail_msg("%s", err->message);
	assert_string_equal(ss_workload_name(w), "netperf-tcp-rr");
	assert_string_equal(ss_workload_instance_unit(w), "pair");
	/* the harness's and netserver's shares of the start, then the pair (their forks) */
	assert_int_equal(ss_workload_nr_roles(w), 4);
	assert_string_equal(ss_workload_role_name(w, 0), "harness");
	assert_string_equal(ss_workload_role_name(w, 1), "netserver");
	assert_string_equal(ss_workload_role_name(w, 2), "client");
	assert_string_equal(ss_workload_role_name(w, 3), "server");
	assert_null(ss_workload_role_name(w, 4));
	assert_int_equal(ss_workload_instances_per_cpu_x1000(w), 1000);
	m = ss_workload_metric(w);
	assert_string_equal(m->name, "throughput");
	assert_string_equal(m->unit, "transactions/s");
	assert_true(m->higher_is_better);
	assert_non_null(strstr(ss_workload_source(w), "TCP_RR"));
	assert_non_null(strstr(ss_workload_description(w), "netserver"));
	ss_workload_free(w);
}

static void test_instantiate_counts(void **state)
{
	static const struct {
		unsigned load, pairs;
	} cases[] = { { 2500, 32 }, { 10000, 128 }, { 20000, 256 } };
	struct ss_workload *w = ss_workload_load(NETPERF, NULL);

	assert_non_null(w);
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		struct ss_wl_plan *p = plan_ok(w, cases[i].load, 128);

		assert_ptr_equal(p->wl, w);
		assert_int_equal(p->nr_instances, cases[i].pairs);
		assert_int_equal(p->nr_tasks, 4 * cases[i].pairs);
		ss_wl_plan_free(p);
	}
	ss_workload_free(w);
}

static unsigned instances(const struct ss_workload *w, unsigned load, unsigned cpus)
{
	struct ss_wl_plan *p = plan_ok(w, load, cpus);
	unsigned n = p->nr_instances;

	ss_wl_plan_free(p);
	return n;
}

static void test_instantiate_rounding(void **state)
{
	struct ss_workload *w = load_ok("tasks:\n  - name: a\n    program: [run: 1us]\n");
	struct ss_workload *half = load_ok("instances_per_cpu: 0.5\n"
					   "tasks:\n  - name: a\n    program: [run: 1us]\n");
	struct ss_workload *two = load_ok("instances_per_cpu: 2\n"
					  "tasks:\n  - name: a\n    program: [run: 1us]\n"
					  "  - name: b\n    program: [run: 1us]\n");
	GError *err = NULL;

	assert_int_equal(instances(w, 150, 100), 2);     /* 1.5 -> 2 (half up) */
	assert_int_equal(instances(w, 250, 100), 3);     /* 2.5 -> 3 */
	assert_int_equal(instances(w, 249, 100), 2);     /* 2.49 -> 2 */
	assert_int_equal(instances(w, 351, 100), 4);     /* 3.51 -> 4 */
	assert_int_equal(instances(w, 1, 1), 1);         /* 0.0001 -> at least one */
	assert_int_equal(instances(w, 10000, 7), 7);
	assert_int_equal(ss_workload_instances_per_cpu_x1000(half), 500);
	assert_int_equal(instances(half, 10000, 3), 2);  /* 1.5 -> 2 */
	assert_int_equal(instances(half, 10000, 128), 64);
	assert_int_equal(instances(two, 5000, 3), 3);    /* 0.5 * 3 * 2 */
	assert_int_equal(instances(two, 2500, 3), 2);    /* 1.5 -> 2 */

	assert_null(ss_workload_instantiate(w, 0, 128, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	g_clear_error(&err);
	assert_null(ss_workload_instantiate(w, 10000, 0, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	g_clear_error(&err);
	assert_null(ss_workload_instantiate(two, UINT32_MAX, 4096, &err));
	assert_non_null(strstr(err->message, "too many"));
	g_clear_error(&err);
	assert_null(ss_workload_instantiate(NULL, 10000, 4, &err));
	g_clear_error(&err);
	ss_workload_free(w);
	ss_workload_free(half);
	ss_workload_free(two);
}

static void test_paths(void **state)
{
	struct ss_workload *w = ss_workload_load(NETPERF, NULL);
	struct ss_wl_plan *p = plan_ok(w, 10000, 128);

	assert_string_equal(p->task[0].path, "pair[0]/harness");
	assert_string_equal(p->task[1].path, "pair[0]/netserver");
	assert_string_equal(p->task[2].path, "pair[0]/client");
	assert_string_equal(p->task[3].path, "pair[0]/server");
	assert_string_equal(p->task[6].path, "pair[1]/client");
	assert_string_equal(p->task[511].path, "pair[127]/server");
	for (unsigned t = 0; t < p->nr_tasks; t++) {
		assert_int_equal(p->task[t].instance, t / 4);
		assert_int_equal(p->task[t].role, t % 4);
		/* harness and netserver start on the first allowed CPU, client and server are forked */
		if (t % 4 < 2) {
			assert_int_equal(p->task[t].start_cpu, 0);
			assert_true(p->task[t].start_cpu_is_index && !p->task[t].spawned);
		} else {
			assert_true(p->task[t].spawned);
		}
		assert_int_equal(p->task[t].nice, 0);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

static void test_netperf_client_sequence(void **state)
{
	struct ss_workload *w = ss_workload_load(NETPERF, NULL);
	struct ss_wl_plan *p = plan_ok(w, 10000, 4);
	struct ss_wl_cursor c;
	struct ss_rng r;

	struct ss_wl_action a;

	/* the harness (pair[1]/harness, task 4) forks the client (task 6) */
	seed_task(p, 4, 42, &r);
	ss_wl_cursor_init(&c);
	expect_run(p, 4, &c, &r, SS_ACT_RUN, 40000, 60000);
	next(p, 4, &c, &r, &a);
	assert_int_equal(a.kind, SS_ACT_SPAWN);
	assert_int_equal(a.target, 6);
	next(p, 4, &c, &r, &a);
	assert_int_equal(a.kind, SS_ACT_EXIT);
	/* netserver (task 5) sleeps in accept() until the client connects, then forks the server (task 7) */
	seed_task(p, 5, 42, &r);
	ss_wl_cursor_init(&c);
	expect_wait(p, 5, &c, &r, 1);
	expect_run(p, 5, &c, &r, SS_ACT_RUN, 5000, 10000);
	expect_run(p, 5, &c, &r, SS_ACT_RUN, 40000, 60000);
	next(p, 5, &c, &r, &a);
	assert_int_equal(a.kind, SS_ACT_SPAWN);
	assert_int_equal(a.target, 7);

	seed_task(p, 6, 42, &r);   /* pair[1]/client; its server is task 7 */
	ss_wl_cursor_init(&c);
	next(p, 6, &c, &r, &a);    /* execve() of netperf: sched_exec() first */
	assert_int_equal(a.kind, SS_ACT_EXEC);
	expect_run(p, 6, &c, &r, SS_ACT_RUN, 400000, 600000);   /* exec(), set-up */
	expect_wake(p, 6, &c, &r, 5, true);                    /* connect() wakes netserver */
	expect_wait(p, 6, &c, &r, 1);
	expect_run(p, 6, &c, &r, SS_ACT_RUN, 20000, 40000);
	for (int i = 0; i < 1000; i++) {
		expect_kind(p, 6, &c, &r, SS_ACT_TXN_BEGIN);
		expect_run(p, 6, &c, &r, SS_ACT_RUN, 3200, 4800);
		expect_wake(p, 6, &c, &r, 7, true);
		expect_run(p, 6, &c, &r, SS_ACT_RUN, 7400, 10400);
		expect_wait(p, 6, &c, &r, 1);
		expect_run(p, 6, &c, &r, SS_ACT_RUN, 1600, 3200);
		expect_kind(p, 6, &c, &r, SS_ACT_TXN_END);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

static void test_netperf_server_sequence(void **state)
{
	struct ss_workload *w = ss_workload_load(NETPERF, NULL);
	struct ss_wl_plan *p = plan_ok(w, 10000, 4);
	struct ss_wl_cursor c;
	struct ss_rng r;
	uint64_t sum = 0;

	seed_task(p, 15, 42, &r);   /* pair[3]/server; its client is task 14 */
	ss_wl_cursor_init(&c);
	expect_run(p, 15, &c, &r, SS_ACT_RUN, 10000, 20000);    /* back from fork(), the control answer */
	expect_wake(p, 15, &c, &r, 14, true);
	expect_run(p, 15, &c, &r, SS_ACT_RUN, 20000, 40000);
	for (int i = 0; i < 1000; i++) {
		struct ss_wl_action a;

		expect_wait(p, 15, &c, &r, 1);   /* waits for a request */
		next(p, 15, &c, &r, &a);
		assert_int_equal(a.kind, SS_ACT_RUN);
		assert_in_range(a.ns, 4800, 8000);
		sum += a.ns;
		expect_wake(p, 15, &c, &r, 14, true);
		expect_run(p, 15, &c, &r, SS_ACT_RUN, 7400, 10400);
	}
	/* the server's pre-wake burst averages 6.4 us (the file's fitted 4.8-8 us) */
	assert_in_range(sum / 1000, 6300, 6500);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* ---- the language ---- */

static void test_statements_and_tokens(void **state)
{
	struct ss_workload *w = load_ok("tasks:\n"
					"  - name: a\n"
					"    nice: -5\n"
					"    start_cpu: 7\n"
					"    program:\n"
					"      - run: 1.5ms\n"
					"      - wake: b\n"
					"      - wake: {task: b, sync: false}\n"
					"      - wake: {task: a, sync: true}\n"
					"      - wait\n"
					"      - wait:\n"
					"      - wait: 3\n"
					"      - sleep: {constant: 2s}\n"
					"      - transaction: begin\n"
					"      - transaction: end\n"
					"  - name: b\n"
					"    nice: 19\n"
					"    start_cpu: 2 * instance + 1\n"
					"    program:\n"
					"      - sleep: 200ns\n"
					"      - run: 5 us\n"
					"      - run: \"7\xc2\xb5s\"\n"
					"      - wait: 2\n");
	struct ss_wl_plan *p = plan_ok(w, 10000, 4);
	struct ss_wl_cursor c;
	struct ss_rng r;

	assert_int_equal(p->nr_tasks, 8);
	assert_int_equal(p->task[2].nice, -5);
	assert_int_equal(p->task[2].start_cpu, 7);
	assert_int_equal(p->task[3].nice, 19);
	assert_int_equal(p->task[1].start_cpu, 1);   /* 2*0+1 */
	assert_int_equal(p->task[3].start_cpu, 3);   /* 2*1+1 */
	assert_int_equal(p->task[5].start_cpu, 1);   /* 5 mod 4 */
	assert_int_equal(p->task[7].start_cpu, 3);   /* 7 mod 4 */

	seed_task(p, 2, 1, &r);
	ss_wl_cursor_init(&c);
	expect_run(p, 2, &c, &r, SS_ACT_RUN, 1500000, 1500000);
	expect_wake(p, 2, &c, &r, 3, false);
	expect_wake(p, 2, &c, &r, 3, false);
	expect_wake(p, 2, &c, &r, 2, true);
	expect_wait(p, 2, &c, &r, 1);
	expect_wait(p, 2, &c, &r, 1);
	expect_wait(p, 2, &c, &r, 3);
	expect_run(p, 2, &c, &r, SS_ACT_SLEEP, 2000000000, 2000000000);
	expect_kind(p, 2, &c, &r, SS_ACT_TXN_BEGIN);
	expect_kind(p, 2, &c, &r, SS_ACT_TXN_END);
	for (int i = 0; i < 3; i++)   /* the end is sticky */
		expect_kind(p, 2, &c, &r, SS_ACT_EXIT);

	ss_wl_cursor_init(&c);
	expect_run(p, 3, &c, &r, SS_ACT_SLEEP, 200, 200);
	expect_run(p, 3, &c, &r, SS_ACT_RUN, 5000, 5000);
	expect_run(p, 3, &c, &r, SS_ACT_RUN, 7000, 7000);
	expect_wait(p, 3, &c, &r, 2);
	expect_kind(p, 3, &c, &r, SS_ACT_EXIT);

	/* a task index outside the plan ends at once */
	ss_wl_cursor_init(&c);
	expect_kind(p, 8, &c, &r, SS_ACT_EXIT);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

static void test_start_cpu_instance(void **state)
{
	struct ss_workload *w = load_ok("tasks:\n"
					"  - name: a\n    start_cpu: instance\n    program: [run: 1us]\n"
					"  - name: b\n    start_cpu: instance + 64\n    program: [run: 1us]\n"
					"  - name: c\n    start_cpu: 3*instance\n    program: [run: 1us]\n");
	struct ss_wl_plan *p = plan_ok(w, 20000, 128);   /* 256 instances */

	assert_int_equal(p->nr_instances, 256);
	assert_int_equal(p->task[3 * 5 + 0].start_cpu, 5);
	assert_int_equal(p->task[3 * 5 + 1].start_cpu, 69);
	assert_int_equal(p->task[3 * 5 + 2].start_cpu, 15);
	assert_int_equal(p->task[3 * 130 + 0].start_cpu, 2);          /* 130 mod 128 */
	assert_int_equal(p->task[3 * 100 + 1].start_cpu, 164 % 128);
	assert_int_equal(p->task[3 * 200 + 2].start_cpu, 600 % 128);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

static void test_loops_with_counts(void **state)
{
	struct ss_workload *w = load_ok("tasks:\n"
					"  - name: a\n"
					"    program:\n"
					"      - loop:\n"
					"          count: 2\n"
					"          do:\n"
					"            - transaction: begin\n"
					"            - loop:\n"
					"                count: 3\n"
					"                do: [run: 1us, sleep: 2us]\n"
					"            - transaction: end\n"
					"      - run: 9us\n");
	struct ss_wl_plan *p = plan_ok(w, 10000, 1);
	struct ss_wl_cursor c;
	struct ss_rng r;

	seed_task(p, 0, 3, &r);
	ss_wl_cursor_init(&c);
	for (int i = 0; i < 2; i++) {
		expect_kind(p, 0, &c, &r, SS_ACT_TXN_BEGIN);
		for (int j = 0; j < 3; j++) {
			expect_run(p, 0, &c, &r, SS_ACT_RUN, 1000, 1000);
			expect_run(p, 0, &c, &r, SS_ACT_SLEEP, 2000, 2000);
		}
		expect_kind(p, 0, &c, &r, SS_ACT_TXN_END);
	}
	expect_run(p, 0, &c, &r, SS_ACT_RUN, 9000, 9000);
	expect_kind(p, 0, &c, &r, SS_ACT_EXIT);
	assert_int_equal(c.depth, 0);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

static void test_loops_max_depth(void **state)
{
	/* four nested levels are allowed: 2*2*2*2 runs, then a forever loop runs on */
	struct ss_workload *w = load_ok("tasks:\n"
					"  - name: a\n"
					"    program:\n"
					"      - loop: {count: 2, do: [loop: {count: 2, do: [loop: {count: 2, do: [\n"
					"          loop: {count: 2, do: [run: 1ns]}]}]}]}\n"
					"      - loop: {forever: true, do: [sleep: 3ns, wait: 1, wake: a]}\n");
	struct ss_wl_plan *p = plan_ok(w, 10000, 1);
	struct ss_wl_cursor c;
	struct ss_rng r;

	seed_task(p, 0, 3, &r);
	ss_wl_cursor_init(&c);
	for (int i = 0; i < 16; i++)
		expect_run(p, 0, &c, &r, SS_ACT_RUN, 1, 1);
	for (int i = 0; i < 100000; i++) {
		expect_run(p, 0, &c, &r, SS_ACT_SLEEP, 3, 3);
		expect_wait(p, 0, &c, &r, 1);
		expect_wake(p, 0, &c, &r, 0, false);
	}
	assert_int_equal(c.depth, 1);
	ss_wl_plan_free(p);
	ss_workload_free(w);

	expect_error("tasks:\n  - name: a\n    program: [run: 1us, loop: {forever: true, do: [yield]}]\n", "t.yaml:6:",
		     "a yield takes no time");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, yield: 3]\n", "t.yaml:6:",
		     "yield takes no value");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, exec: 3]\n", "t.yaml:6:",
		     "exec takes no value");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, loop: {forever: true, do: [exec]}]\n", "t.yaml:6:",
		     "nor does an exec");
	expect_error("tasks:\n"
		     "  - name: a\n"
		     "    program:\n"
		     "      - loop: {count: 2, do: [loop: {count: 2, do: [loop: {count: 2, do: [\n"
		     "          loop: {count: 2, do: [loop: {count: 2, do: [run: 1ns]}]}]}]}]}\n",
		     "t.yaml:8:33:", "nested too deeply");
}

static void test_durations(void **state)
{
	static const struct {
		const char *text;
		uint64_t ns;
	} ok[] = {
		{ "5us", 5000 }, { "1.5ms", 1500000 }, { "200ns", 200 }, { "2s", 2000000000 },
		{ "0.000000001s", 1 }, { "1000000s", UINT64_C(1000000000000000) }, { "2.25us", 2250 },
		{ "3 ms", 3000000 },
	};

	for (unsigned i = 0; i < G_N_ELEMENTS(ok); i++) {
		char *body = g_strdup_printf("tasks:\n  - name: a\n    program: [run: \"%s\"]\n", ok[i].text);
		struct ss_workload *w = load_ok(body);
		struct ss_wl_plan *p = plan_ok(w, 10000, 1);
		struct ss_wl_cursor c;
		struct ss_rng r;

		ss_rng_seed(&r, 1, 1);
		ss_wl_cursor_init(&c);
		expect_run(p, 0, &c, &r, SS_ACT_RUN, ok[i].ns, ok[i].ns);
		ss_wl_plan_free(p);
		ss_workload_free(w);
		g_free(body);
	}
}

/* ---- distributions ---- */

static void test_dist_determinism(void **state)
{
	struct ss_dist e = { .kind = SS_DIST_EXP, .a = 4000, .b = 0 }, u = { .kind = SS_DIST_UNIFORM, .a = 3000, .b = 5000 };
	struct ss_rng r1, r2, r3;
	int differ = 0;

	ss_rng_seed(&r1, 7, ss_rng_stream_id("pair[3]/server"));
	ss_rng_seed(&r2, 7, ss_rng_stream_id("pair[3]/server"));
	ss_rng_seed(&r3, 7, ss_rng_stream_id("pair[4]/server"));
	for (int i = 0; i < 1000; i++) {
		uint64_t a = ss_dist_draw(i & 1 ? &e : &u, &r1);
		uint64_t b = ss_dist_draw(i & 1 ? &e : &u, &r2);
		uint64_t c = ss_dist_draw(i & 1 ? &e : &u, &r3);

		assert_int_equal(a, b);
		differ += a != c;
	}
	assert_true(differ > 900);
}

static void test_dist_exponential(void **state)
{
	static const uint64_t means[] = { 5000, 1000000 };
	struct ss_rng r;

	for (unsigned m = 0; m < G_N_ELEMENTS(means); m++) {
		struct ss_dist d = { .kind = SS_DIST_EXP, .a = means[m], .b = 0 };
		double sum = 0, sq = 0;
		unsigned above = 0;
		const int n = 100000;

		ss_rng_seed(&r, 11 + m, 99);
		for (int i = 0; i < n; i++) {
			uint64_t x = ss_dist_draw(&d, &r);

			assert_true(x >= 1);
			sum += (double)x;
			sq += (double)x * (double)x;
			above += x > means[m];
		}
		double mean = sum / n, sd = sqrt(sq / n - mean * mean);
		/* standard error of the mean is mean/sqrt(n) = 0.32 %: allow 1.5 % */
		assert_true(fabs(mean - (double)means[m]) < 0.015 * (double)means[m]);
		/* exponential: sd = mean, P(X > mean) = 1/e */
		assert_true(fabs(sd - (double)means[m]) < 0.03 * (double)means[m]);
		assert_true(fabs((double)above / n - exp(-1.0)) < 0.01);
	}
	/* a tiny mean still never yields 0 */
	struct ss_dist tiny = { .kind = SS_DIST_EXP, .a = 1, .b = 0 };
	ss_rng_seed(&r, 5, 5);
	for (int i = 0; i < 10000; i++)
		assert_true(ss_dist_draw(&tiny, &r) >= 1);
}

static void test_dist_uniform_const(void **state)
{
	struct ss_dist u = { .kind = SS_DIST_UNIFORM, .a = 5, .b = 9 }, one = { .kind = SS_DIST_UNIFORM, .a = 42, .b = 42 };
	struct ss_dist k = { .kind = SS_DIST_CONST, .a = 1234, .b = 0 };
	unsigned hits[5] = { 0 };
	struct ss_rng r, before;

	ss_rng_seed(&r, 3, 4);
	for (int i = 0; i < 10000; i++) {
		uint64_t x = ss_dist_draw(&u, &r);

		assert_in_range(x, 5, 9);
		hits[x - 5]++;
		assert_int_equal(ss_dist_draw(&one, &r), 42);
	}
	for (int i = 0; i < 5; i++)
		assert_in_range(hits[i], 1800, 2200);
	/* a constant consumes nothing from the stream */
	before = r;
	assert_int_equal(ss_dist_draw(&k, &r), 1234);
	assert_memory_equal(&before, &r, sizeof(r));
}

/* One task's actions depend only on its path, not on the other tasks. */
static void test_stream_by_path(void **state)
{
	struct ss_workload *w = ss_workload_load(NETPERF, NULL);
	struct ss_wl_plan *small = plan_ok(w, 2500, 32);     /* 8 pairs */
	struct ss_wl_plan *big = plan_ok(w, 20000, 128);     /* 256 pairs */
	struct ss_wl_cursor c1, c2;
	struct ss_rng r1, r2, r3;
	uint32_t t = 2 * 5 + 1;                              /* pair[5]/server */
	int differ = 0;

	assert_int_equal(small->nr_instances, 8);
	assert_string_equal(small->task[t].path, big->task[t].path);
	seed_task(small, t, 2024, &r1);
	seed_task(big, t, 2024, &r2);
	seed_task(big, t + 2, 2024, &r3);                    /* pair[6]/server */
	ss_wl_cursor_init(&c1);
	ss_wl_cursor_init(&c2);
	for (int i = 0; i < 10000; i++) {
		struct ss_wl_action a1, a2, a3;
		struct ss_wl_cursor c3 = c2;

		next(small, t, &c1, &r1, &a1);
		next(big, t + 2, &c3, &r3, &a3);
		next(big, t, &c2, &r2, &a2);
		assert_int_equal(a1.kind, a2.kind);
		assert_int_equal(a1.sync, a2.sync);
		assert_int_equal(a1.target, a2.target);
		assert_int_equal(a1.count, a2.count);
		assert_int_equal(a1.ns, a2.ns);
		assert_int_equal(c1.pc, c2.pc);
		assert_int_equal(c1.depth, c2.depth);
		assert_memory_equal(c1.loop_left, c2.loop_left, sizeof(c1.loop_left));
		if (a1.kind == SS_ACT_RUN)
			differ += a1.ns != a3.ns;
	}
	assert_true(differ > 4000);
	ss_wl_plan_free(small);
	ss_wl_plan_free(big);
	ss_workload_free(w);
}

/* ---- bad input ---- */

static void expect_file_error(const char *file, const char *where, const char *part, int code)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load(file, &err);
	char *prefix = g_strdup_printf("%s:%s ", file, where);

	assert_null(w);
	assert_non_null(err);
	if (strncmp(err->message, prefix, strlen(prefix)) || !strstr(err->message, part))
		fail_msg("expected '%s...%s', got '%s'", prefix, part, err->message);
	assert_true(err->domain == SS_ERROR);
	assert_int_equal(err->code, code);
	g_error_free(err);
	g_free(prefix);
}

/* working_set, memory_bandwidth, memory_node: parsed per role, copied to every task. */
static void test_memory_fields(void **state)
{
	struct ss_workload *w = load_ok("tasks:\n"
					"  - name: a\n    working_set: 1536B\n    memory_bandwidth: 2.5GB/s\n"
					"    memory_node: 1\n    program: [run: 1us]\n"
					"  - name: b\n    working_set: 1.5 MiB\n    memory_bandwidth: 800MB/s\n"
					"    memory_node: local\n    program: [run: 1us]\n"
					"  - name: c\n    working_set: 4GiB\n    program: [run: 1us]\n"
					"  - name: d\n    working_set: 1B\n    program: [run: 1us]\n");
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 2, NULL);

	(void)state;
	assert_int_equal(p->nr_tasks, 8);
	for (unsigned i = 0; i < 2; i++) {
		const struct ss_wl_task *t = &p->task[4 * i];

		assert_int_equal(t[0].working_set_kib, 2);       /* 1536 B rounds up */
		assert_int_equal(t[0].mem_bw_mbps, 2500);
		assert_int_equal(t[0].mem_node, 1);
		assert_int_equal(t[1].working_set_kib, 1536);
		assert_int_equal(t[1].mem_bw_mbps, 800);
		assert_int_equal(t[1].mem_node, -1);
		assert_int_equal(t[2].working_set_kib, 4u * 1024 * 1024);
		assert_int_equal(t[2].mem_bw_mbps, 0);           /* absent: none */
		assert_int_equal(t[2].mem_node, -1);             /* absent: local */
		assert_int_equal(t[3].working_set_kib, 1);
	}
	ss_wl_plan_free(p);
	ss_workload_free(w);

	expect_error("tasks:\n  - name: a\n    working_set: 10MB\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "working_set '10MB' has an unknown unit 'MB' (expected one of: B, KiB, MiB or GiB)");
	expect_error("tasks:\n  - name: a\n    working_set: 512\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "has no unit");
	expect_error("tasks:\n  - name: a\n    working_set: -1KiB\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "is negative");
	expect_error("tasks:\n  - name: a\n    working_set: 0.5B\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "not a whole number of B");
	expect_error("tasks:\n  - name: a\n    working_set: 4096GiB\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "too large");
	expect_error("tasks:\n  - name: a\n    memory_bandwidth: 3GiB/s\n    program: [run: 1us]\n", "t.yaml:6:23:",
		     "unknown unit 'GiB/s' (expected one of: MB/s or GB/s)");
	expect_error("tasks:\n  - name: a\n    memory_bandwidth: 1.0005GB/s\n    program: [run: 1us]\n",
		     "t.yaml:6:23:", "not a whole number of MB/s");
	expect_error("tasks:\n  - name: a\n    memory_bandwidth: [1GB/s]\n    program: [run: 1us]\n",
		     "t.yaml:6:23:", "memory_bandwidth is a list");
	expect_error("tasks:\n  - name: a\n    memory_node: remote\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "memory_node is 'remote' (expected a NUMA node number 0..1023 or local)");
	expect_error("tasks:\n  - name: a\n    memory_node: -1\n    program: [run: 1us]\n", "t.yaml:6:18:",
		     "out of range (expected 0..1023)");
}

static void test_bad_files(void **state)
{
	expect_file_error(BAD("syntax-error.yaml"), "8:9:", "YAML syntax error", SS_ERROR_PARSE);
	expect_file_error(BAD("unknown-key.yaml"), "7:5:",
			  "unknown key 'prio' in a task (expected one of: name, count, nice, start_cpu, cpus, channel, start_after, stop_after, spawned, working_set, memory_bandwidth, memory_node or program)",
			  SS_ERROR_INVALID);
	expect_file_error(BAD("unknown-role.yaml"), "9:22:",
			  "unknown role 'srv' (expected one of: client, server)", SS_ERROR_INVALID);
	expect_file_error(BAD("bad-unit.yaml"), "11:34:", "unknown unit 'xs'", SS_ERROR_INVALID);
	expect_file_error(BAD("negative-duration.yaml"), "9:16:", "'-3us' is negative", SS_ERROR_INVALID);
	expect_file_error(BAD("loop-without-time.yaml"), "9:9:", "never lets simulated time pass",
			  SS_ERROR_INVALID);
	expect_file_error(BAD("nice-out-of-range.yaml"), "7:11:", "nice 25 is out of range (expected -20..19)",
			  SS_ERROR_INVALID);
	/* the behaviour language's cross-checks */
	expect_file_error(BAD("send-no-channel.yaml"), "7:58:",
			  "send to role 'reader' that has no channel (expected 'channel: N' in role 'reader')",
			  SS_ERROR_INVALID);
	expect_file_error(BAD("recv-no-sender.yaml"), "11:16:",
			  "task 'reader' receives but no task sends to it (expected a 'send: reader' in some program)",
			  SS_ERROR_INVALID);
	expect_file_error(BAD("spawn-not-spawned.yaml"), "7:39:",
			  "spawn of role 'child' that starts with the run (expected a role with spawned: true)",
			  SS_ERROR_INVALID);
	expect_file_error(BAD("bad-which.yaml"), "7:80:",
			  "which is 'every' (expected same, all, random, round_robin or a task number 0..N-1)",
			  SS_ERROR_INVALID);
	expect_file_error(BAD("which-out-of-range.yaml"), "7:80:",
			  "which 4 is not a task of role 'worker' (expected 0..3)", SS_ERROR_INVALID);
	expect_file_error(BAD("shared-unknown.yaml"), "5:10:",
			  "shared 'big_lock' is not a mutex or barrier of any program", SS_ERROR_INVALID);
	expect_file_error(BAD("send-if-waiting.yaml"), "7:73:",
			  "unknown key 'if_waiting' in send (expected one of: task, which or sync)", SS_ERROR_INVALID);
	expect_file_error(BAD("metric-unit.yaml"), "4:33:", "metric unit 'GB/s' is not measured by this version (expected one of: transactions/s, MB/s, s or us)",
			  SS_ERROR_INVALID);

	GError *err = NULL;
	/* not a regular file: refused at once instead of read for ever */
	assert_null(ss_workload_load("/dev/zero", &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	assert_non_null(strstr(err->message, "/dev/zero: not a regular file"));
	g_clear_error(&err);
	assert_null(ss_workload_load(BAD("no-such-file.yaml"), &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	assert_non_null(strstr(err->message, "no-such-file.yaml"));
	g_error_free(err);
}

/*
 * Errors only a machine can reveal come when the run starts, at the
 * field's file:line:col: a cpus list with no CPU of the machine (or of the
 * --nodes subset), a memory_node the machine lacks.
 */
static void expect_run_error(struct ss_workload *w, const char *nodes, const char *prefix, const char *part)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	struct ss_run_config c = { 0 };
	struct ss_results *r;

	assert_non_null(t);
	assert_non_null(w);
	c.topo = t;
	c.wl = w;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 1000000;
	c.nodes = nodes;
	r = ss_simulate(&c, &err);
	assert_null(r);
	assert_non_null(err);
	if (strncmp(err->message, prefix, strlen(prefix)) || !strstr(err->message, part))
		fail_msg("expected '%s...%s', got '%s'", prefix, part, err->message);
	assert_int_equal(err->code, SS_ERROR_INVALID);
	g_error_free(err);
	ss_workload_free(w);
	ss_topology_free(t);
}

static void test_run_start_errors(void **state)
{
	static const char pinned[] = "name: t\ninstance: one\n"
				     "metric: {name: x, unit: transactions/s, higher_is_better: true}\n"
				     "tasks:\n  - name: pinned\n    cpus: \"0-3\"\n    program: [run: 1ms]\n";
	GError *err = NULL;

	(void)state;
	expect_run_error(ss_workload_load(BAD("cpus-not-on-machine.yaml"), &err), NULL,
			 BAD("cpus-not-on-machine.yaml") ":7:11: ",
			 "cpus '4000-4003' of role 'pinned' has no CPU the task may use on kunpeng920 (expected CPUs of 0-127)");
	expect_run_error(ss_workload_load(BAD("memory-node-not-on-machine.yaml"), &err), NULL,
			 BAD("memory-node-not-on-machine.yaml") ":7:18: ",
			 "memory_node 9 of role 'remote' is not a node of kunpeng920 (expected one of its node ids: 0-3)");
	{
		/* a start_cpu outside the role's own cpus: at the start_cpu field */
		static const char start[] = "name: t\ninstance: one\n"
					    "metric: {name: x, unit: transactions/s, higher_is_better: true}\n"
					    "tasks:\n  - name: s\n    cpus: \"3\"\n    start_cpu: 5\n    program: [run: 1ms]\n";
		expect_run_error(ss_workload_load_string(start, sizeof start - 1, "start.yaml", &err), NULL, "start.yaml:7:16: ",
				 "start_cpu 5 of task one[0]/s is not in its cpus '3'");
	}
	/* CPUs 0-3 exist, but --nodes 2 leaves only 64-95 */
	expect_run_error(ss_workload_load_string(pinned, sizeof pinned - 1, "pinned.yaml", &err), "2", "pinned.yaml:6:11: ",
			 "cpus '0-3' of role 'pinned' has no CPU the task may use on kunpeng920 (expected CPUs of 64-95, as restricted by --nodes)");
}

/*
 * A cpus list that also names CPUs the machine does not have is the list ∩
 * the machine's CPUs (sched_setaffinity() drops bits past nr_cpu_ids): on
 * kunpeng920 (0-127) "126-200" is CPUs 126-127, every busy ns there.
 */
static void test_cpus_beyond_machine_dropped(void **state)
{
	static const char wide[] = "name: t\ninstance: one\ninstances_per_cpu: 1\n"
				   "metric: {name: x, unit: transactions/s, higher_is_better: true}\n"
				   "tasks:\n  - name: pinned\n    count: 4\n    cpus: \"126-200\"\n"
				   "    program: [loop: {forever: true, do: [transaction: begin, run: 100us, transaction: end]}]\n";
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	struct ss_workload *w = ss_workload_load_string(wide, sizeof wide - 1, "wide.yaml", &err);
	struct ss_run_config c = { 0 };
	struct ss_results *r;
	uint64_t busy = 0;

	(void)state;
	assert_non_null(t);
	assert_non_null(w);
	c.topo = t;
	c.wl = w;
	ss_params_defaults(&c.params, t);
	c.params.background = 0;
	c.load_pct_x100 = 1;
	c.seed = 1;
	c.warmup_ns = 1000000;
	c.duration_ns = 2000000;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	for (unsigned cpu = 0; cpu < 126; cpu++)
		assert_int_equal(r->cpu[cpu].busy_ns, 0);
	busy = r->cpu[126].busy_ns + r->cpu[127].busy_ns;
	assert_true(busy > 2 * 1900000);   /* four tasks on two CPUs: both busy */
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

static void test_bad_strings(void **state)
{
	/* structure (header lines are 1-3) */
	expect_error_text("", "t.yaml:1:1:", "no workload", SS_ERROR_INVALID);
	/* shared: a list of names of mutexes or barriers the programs use, each once */
	{
		static const char prog[] = "tasks:\n  - name: a\n    count: 2\n"
					   "    program: [loop: {forever: true, do: [lock: m, run: 5us, unlock: m, sleep: 1ms]}]\n";
		char *t1 = g_strconcat("shared: m\n", prog, NULL), *t2 = g_strconcat("shared: [[m]]\n", prog, NULL),
		     *t3 = g_strconcat("shared: [m, m]\n", prog, NULL), *t4 = g_strconcat("shared: [w]\n", prog, NULL);

		expect_error(t1, "t.yaml:4:9:", "is a scalar (expected a list of mutex and barrier names)");
		expect_error(t2, "t.yaml:4:10:", "a shared name is a list");
		expect_error(t3, "t.yaml:4:13:", "shared 'm' is listed twice (expected each name once)");
		expect_error(t4, "t.yaml:4:10:", "shared 'w' is not a mutex or barrier of any program");
		g_free(t1);
		g_free(t2);
		g_free(t3);
		g_free(t4);
	}
	/* wake: if_waiting takes a boolean */
	expect_error("tasks:\n  - name: a\n    program: [loop: {forever: true, do: [wake: {task: a, if_waiting: maybe}, wait, run: 1us]}]\n",
		     "t.yaml:6:70:", "if_waiting is 'maybe' (expected true or false)");
	expect_error_text("- a\n- b\n", "t.yaml:1:1:", "is a list", SS_ERROR_INVALID);
	expect_error_text("name: t\ninstance: pair\nname: u\n", "t.yaml:3:1:", "duplicate key 'name'",
			  SS_ERROR_INVALID);
	expect_error_text("name: t\ninstance: pair\ntasks: []\n", "t.yaml:3:8:", "tasks is empty",
			  SS_ERROR_INVALID);
	expect_error_text("name: t\ninstance: pair\n---\nname: u\n", "t.yaml:4:1:", "second YAML document",
			  SS_ERROR_INVALID);
	expect_error_text("name: t\ninstance: pair\ntasks: [{name: a, program: [run: 1us]}]\n", "t.yaml:1:1:",
			  "no 'metric'", SS_ERROR_INVALID);
	expect_error_text("name: t\ninstance: pair/x\n", "t.yaml:2:11:", "is not a name", SS_ERROR_INVALID);
	expect_error_text("name: t\n\tinstance: pair\n", "t.yaml:2:1:", "YAML syntax error", SS_ERROR_PARSE);
	expect_error_text("name: t\ninstance: p\xff\n", "t.yaml:2:12:", "YAML syntax error", SS_ERROR_PARSE);
	expect_error("color: red\n", "t.yaml:4:1:", "unknown key 'color' in the workload (expected one of: name,");
	expect_error("instances_per_cpu: 0\ntasks: [{name: a, program: [run: 1us]}]\n", "t.yaml:4:20:",
		     "instances_per_cpu '0'");
	expect_error("instances_per_cpu: 0.1234\n", "t.yaml:4:20:", "at most 3 decimals");
	expect_error("tasks: [{name: a, program: [run: 1us]}]\nmetric: {}\n", "t.yaml:5:1:", "duplicate key 'metric'");
	expect_error("", "t.yaml:1:1:", "no 'tasks'");
	/* roles */
	expect_error("tasks:\n  - program: [run: 1us]\n", "t.yaml:5:5:", "task has no 'name'");
	expect_error("tasks:\n  - name: a\n", "t.yaml:5:5:", "task 'a' has no 'program'");
	expect_error("tasks:\n  - name: a\n    program: []\n", "t.yaml:6:14:", "program is empty");
	expect_error("tasks:\n  - name: a\n    program:\n", "t.yaml:6:13:", "program is empty");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us]\n  - name: a\n    program: [run: 1us]\n",
		     "t.yaml:7:11:", "used twice");
	expect_error("tasks:\n  - name: a\n    nice: high\n    program: [run: 1us]\n", "t.yaml:6:11:",
		     "nice is 'high' (expected an integer in -20..19)");
	expect_error("tasks:\n  - name: a\n    nice: -21\n    program: [run: 1us]\n", "t.yaml:6:11:",
		     "out of range");
	expect_error("tasks:\n  - name: a\n    start_cpu: instance * 2\n    program: [run: 1us]\n",
		     "t.yaml:6:16:", "start_cpu 'instance * 2'");
	expect_error("tasks:\n  - name: a\n    start_cpu: 4096\n    program: [run: 1us]\n",
		     "t.yaml:6:16:", "out of range (expected 0..4095)");
	/* statements */
	expect_error("tasks:\n  - name: a\n    program: [spin: 1us]\n", "t.yaml:6:15:",
		     "unknown key 'spin' in a program (expected one of: run, sleep, wake, wait, loop, transaction, send, recv, lock, unlock, timer, barrier, spawn, exit, run_wall, yield or exec)");
	expect_error("tasks:\n  - name: a\n    program:\n      - run: 1us\n        sleep: 1us\n", "t.yaml:8:9:",
		     "'sleep' in the same statement as 'run'");
	expect_error("tasks:\n  - name: a\n    program: [spin]\n", "t.yaml:6:15:", "unknown statement 'spin'");
	/* a timer period below rt-app's 1 us unit, plain or in a mapping */
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, timer: 1ns]\n", "t.yaml:6:32:",
		     "timer period 1 ns is shorter than 1 us (expected at least 1us");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, timer: {period: 999ns}]\n", "t.yaml:6:32:",
		     "timer period 999 ns is shorter than 1 us");
	expect_error("tasks:\n  - name: a\n    program: [run: [1us]]\n", "t.yaml:6:20:", "run duration is a list");
	expect_error("tasks:\n  - name: a\n    program: [run: 5]\n", "t.yaml:6:20:", "has no unit");
	expect_error("tasks:\n  - name: a\n    program: [run: 0us]\n", "t.yaml:6:20:", "is zero");
	expect_error("tasks:\n  - name: a\n    program: [run: 1.5ns]\n", "t.yaml:6:20:", "whole number of nanoseconds");
	expect_error("tasks:\n  - name: a\n    program: [run: 1000001s]\n", "t.yaml:6:20:", "too long");
	expect_error("tasks:\n  - name: a\n    program: [run: 99999999999999999999999ns]\n", "t.yaml:6:20:",
		     "too long");
	expect_error("tasks:\n  - name: a\n    program: [run: {uniform: [5us, 3us]}]\n", "t.yaml:6:31:",
		     "uniform minimum '5us' is larger than the maximum '3us'");
	expect_error("tasks:\n  - name: a\n    program: [run: {uniform: [5us]}]\n", "t.yaml:6:30:",
		     "expected a list of two durations");
	expect_error("tasks:\n  - name: a\n    program: [run: {gauss: 5us}]\n", "t.yaml:6:21:",
		     "unknown key 'gauss' in a distribution (expected one of: constant, exponential, uniform, normal, lognormal or empirical)");
	expect_error("tasks:\n  - name: a\n    program: [sleep: {exponential: 0ms}]\n", "t.yaml:6:36:", "is zero");
	expect_error("tasks:\n  - name: a\n    program: [wait: 0]\n", "t.yaml:6:21:", "wait count 0 is out of range");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, wait: 1]\n", "t.yaml:6:25:",
		     "task 'a' waits but no task wakes it");
	expect_error("tasks:\n  - name: a\n    program: [wake: {sync: true}]\n", "t.yaml:6:21:", "wake has no 'task'");
	expect_error("tasks:\n  - name: a\n    program: [wake: {task: a, sync: maybe}]\n", "t.yaml:6:37:",
		     "sync is 'maybe' (expected true or false)");
	expect_error("tasks:\n  - name: a\n    program: [transaction: start]\n", "t.yaml:6:28:",
		     "(expected begin or end)");
	/* loops */
	expect_error("tasks:\n  - name: a\n    program: [loop: {count: 0, do: [run: 1us]}]\n", "t.yaml:6:29:",
		     "loop count 0 is out of range");
	expect_error("tasks:\n  - name: a\n    program: [loop: {count: 2, forever: true, do: [run: 1us]}]\n",
		     "t.yaml:6:41:", "both 'count' and 'forever'");
	expect_error("tasks:\n  - name: a\n    program: [loop: {forever: false, do: [run: 1us]}]\n",
		     "t.yaml:6:31:", "forever is false");
	expect_error("tasks:\n  - name: a\n    program: [loop: {do: [run: 1us]}]\n", "t.yaml:6:21:",
		     "neither 'count' nor 'forever'");
	expect_error("tasks:\n  - name: a\n    program: [loop: {count: 3}]\n", "t.yaml:6:21:", "loop has no 'do'");
	expect_error("tasks:\n  - name: a\n    program: [loop: {count: 3, do: []}]\n", "t.yaml:6:36:",
		     "loop body is empty");
	expect_error("tasks:\n  - name: a\n    program: [run: 1us, loop: {count: 3, do: [transaction: end]}]\n",
		     "t.yaml:6:25:", "never lets simulated time pass");
	expect_error("tasks:\n  - name: a\n    program: [loop: {forever: true, do: [loop: {count: 2, do: [wake: a]}]}]\n",
		     "t.yaml:6:42:", "never lets simulated time pass");
	/* an alias that makes a loop contain itself is caught by the depth limit, not followed forever */
	expect_error("tasks:\n  - name: a\n    program: &p [loop: {count: 2, do: *p}]\n", "t.yaml:6:", "nested too deeply");
}

/* ---- parameters: params, $NAME, ${EXPR}, overrides ---- */

static const char params_body[] =
	"params:\n"                                              /* line 4 */
	"  n: {default: 3, min: 1, max: 10, description: tasks per instance}\n"
	"  t: 5\n"
	"description: n is ${n}, $$1, t=$t\n"                    /* line 7 */
	"instances_per_cpu: 1/${2 * n}\n"
	"tasks:\n"
	"  - name: a\n"
	"    count: $n\n"
	"    nice: ${-(7 - 2) * 3 / 4}\n"
	"    program: [loop: {count: \"${n * t + 1}\", do: [run: \"${t}us\"]}]\n";

static struct ss_workload *load_params_ok(const char *body, const char *const *set)
{
	char *text = g_strconcat("name: t\ninstance: inst\n", metric_line, body, NULL);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string_params(text, strlen(text), "t.yaml", set, &err);

	if (!w)
		fail_msg("unexpected error: %s", err->message);
	g_free(text);
	return w;
}

/* the program of role a: `runs` runs of run_ns each, then the end */
static void expect_runs(const struct ss_workload *w, unsigned runs, uint64_t run_ns)
{
	struct ss_wl_plan *p = plan_ok(w, 10000, 1);
	struct ss_wl_cursor c;
	struct ss_rng r;

	ss_wl_cursor_init(&c);
	seed_task(p, 0, 1, &r);
	for (unsigned i = 0; i < runs; i++)
		expect_run(p, 0, &c, &r, SS_ACT_RUN, run_ns, run_ns);
	expect_kind(p, 0, &c, &r, SS_ACT_EXIT);
	ss_wl_plan_free(p);
}

static void test_params_defaults_and_overrides(void **state)
{
	static const char *const set[] = { "n=4", "t=2", "n=5", NULL };
	struct ss_workload *w = load_params_ok(params_body, NULL);
	const struct ss_wl_param *pn, *pt;
	struct ss_wl_plan *p;

	(void)state;
	assert_int_equal(ss_workload_nr_params(w), 2);
	pn = ss_workload_param(w, 0);
	pt = ss_workload_param(w, 1);
	assert_null(ss_workload_param(w, 2));
	assert_string_equal(pn->name, "n");
	assert_string_equal(pn->description, "tasks per instance");
	assert_true(pn->value == 3 && pn->def == 3 && pn->min == 1 && pn->max == 10 && !pn->overridden);
	assert_string_equal(pt->name, "t");
	assert_string_equal(pt->description, "");
	assert_true(pt->value == 5 && pt->min == INT64_MIN && pt->max == INT64_MAX);
	/* substituted everywhere a value is read, $$ is a '$' */
	assert_string_equal(ss_workload_description(w), "n is 3, $1, t=5");
	assert_int_equal(ss_workload_tasks_per_instance(w), 3);
	assert_int_equal(instances(w, 10000, 60), 10);          /* 1/6 per CPU, exact */
	p = plan_ok(w, 10000, 6);
	assert_int_equal(p->task[0].nice, -3);                  /* -15 / 4 truncates toward zero */
	ss_wl_plan_free(p);
	expect_runs(w, 16, 5000);                               /* n * t + 1 runs of t us */
	ss_workload_free(w);

	/* overrides replace the defaults before the file is read; the last one of a name wins */
	w = load_params_ok(params_body, set);
	pn = ss_workload_param(w, 0);
	assert_true(pn->value == 5 && pn->def == 3 && pn->overridden);
	assert_true(ss_workload_param(w, 1)->value == 2 && ss_workload_param(w, 1)->overridden);
	assert_string_equal(ss_workload_description(w), "n is 5, $1, t=2");
	assert_int_equal(ss_workload_tasks_per_instance(w), 5);
	assert_int_equal(instances(w, 10000, 60), 6);           /* 1/10 per CPU */
	expect_runs(w, 11, 2000);
	ss_workload_free(w);

	/* precedence, parentheses, unary minus; keys and the params block are never substituted */
	w = load_params_ok("params: {a: 2}\ntasks:\n  - name: x\n"
			   "    program: [loop: {count: \"${a + 3 * 4 - (a + 3) * 2}\", do: [run: \"${-a * -a}us\"]}]\n", NULL);
	expect_runs(w, 4, 4000);
	ss_workload_free(w);
}

static void expect_params_error(const char *body, const char *const *set, const char *prefix, const char *part, int code)
{
	char *text = g_strconcat("name: t\ninstance: inst\n", metric_line, body, NULL);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string_params(text, strlen(text), "t.yaml", set, &err);

	assert_null(w);
	assert_non_null(err);
	if (strncmp(err->message, prefix, strlen(prefix)) || !strstr(err->message, part))
		fail_msg("expected '%s...%s', got '%s'", prefix, part, err->message);
	assert_int_equal(err->code, code);
	g_error_free(err);
	g_free(text);
}

static void test_params_errors(void **state)
{
	static const char prog[] = "tasks:\n  - name: a\n    program: [run: 1us]\n";
	static const char *const unknown[] = { "m=1", NULL }, *const noint[] = { "n=x", NULL },
		*const big[] = { "n=11", NULL }, *const noeq[] = { "n", NULL }, *const noname[] = { "=3", NULL },
		*const huge[] = { "n=99999999999999999999", NULL }, *const sign[] = { "n=+7", NULL };
	char *text;

	(void)state;
	/* in the file: the value's file:line:col, SS_ERROR_INVALID */
	expect_params_error("params: {n: 2}\ntasks:\n  - name: a\n    count: $m\n    program: [run: 1us]\n", NULL,
			    "t.yaml:7:12:", "'$m' uses an unknown parameter 'm' (expected one of: n)", SS_ERROR_INVALID);
	expect_params_error("tasks:\n  - name: a\n    count: $n\n    program: [run: 1us]\n", NULL,
			    "t.yaml:6:12:", "unknown parameter 'n' (the workload declares no params)", SS_ERROR_INVALID);
	expect_params_error("params: {n: 2, k: 1}\ndescription: ${n +}\n", NULL, "t.yaml:5:14:",
			    "${n +} ends where a value should be", SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: ${n / (n - 2)}\n", NULL, "t.yaml:5:14:", "divides by zero",
			    SS_ERROR_INVALID);
	expect_params_error("params: {n: 9223372036854775807}\ndescription: ${n + 1}\n", NULL, "t.yaml:5:14:", "overflows",
			    SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: ${99999999999999999999}\n", NULL, "t.yaml:5:14:", "number too large",
			    SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: \"${n\"\n", NULL, "t.yaml:5:14:", "'${' without its '}'",
			    SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: ${(n * 2}\n", NULL, "t.yaml:5:14:", "'(' without its ')'",
			    SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: ${n n}\n", NULL, "t.yaml:5:14:",
			    "${n n} has 'n' where an operator should be (expected +, -, * or / between values)", SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: ${n % 2}\n", NULL, "t.yaml:5:14:", "has '%' where an operator",
			    SS_ERROR_INVALID);
	expect_params_error("params: {n: 2}\ndescription: costs $5\n", NULL, "t.yaml:5:14:",
			    "has a '$' that is not a parameter (expected $NAME, ${EXPR} or $$ for a '$')", SS_ERROR_INVALID);
	/* a substituted value is read as if the file said it, errors at the value */
	expect_params_error("params: {n: 0}\ntasks:\n  - name: a\n    count: $n\n    program: [run: 1us]\n", NULL,
			    "t.yaml:7:12:", "count 0 is out of range (expected 1..65536)", SS_ERROR_INVALID);
	/* the params block */
	text = g_strconcat("params: [n]\n", prog, NULL);
	expect_params_error(text, NULL, "t.yaml:4:9:", "a mapping of parameters", SS_ERROR_INVALID);
	g_free(text);
	expect_params_error("params: {2x: 1}\n", NULL, "t.yaml:4:10:", "parameter name '2x' is not a name", SS_ERROR_INVALID);
	expect_params_error("params: {a-b: 1}\n", NULL, "t.yaml:4:10:", "parameter name 'a-b' is not a name", SS_ERROR_INVALID);
	expect_params_error("params: {n: 1, n: 2}\n", NULL, "t.yaml:4:16:", "duplicate parameter 'n'", SS_ERROR_INVALID);
	expect_params_error("params: {n: [1]}\n", NULL, "t.yaml:4:13:", "parameter 'n' is a list", SS_ERROR_INVALID);
	expect_params_error("params: {n: {min: 1}}\n", NULL, "t.yaml:4:13:", "parameter 'n' has no 'default'", SS_ERROR_INVALID);
	expect_params_error("params: {n: {default: 5, min: 6}}\n", NULL, "t.yaml:4:23:",
			    "parameter 'n' default 5 is out of range (expected 6..9223372036854775807)", SS_ERROR_INVALID);
	expect_params_error("params: {n: {default: 5, min: 6, max: 4}}\n", NULL, "t.yaml:4:31:",
			    "parameter 'n' has min 6 above its max 4", SS_ERROR_INVALID);
	expect_params_error("params: {n: {default: 5, step: 1}}\n", NULL, "t.yaml:4:26:",
			    "unknown key 'step' in a parameter (expected one of: default, min, max or description)", SS_ERROR_INVALID);
	expect_params_error("params: {n: \"${1}\"}\n", NULL, "t.yaml:4:13:", "parameter default is '${1}'", SS_ERROR_INVALID);
	expect_params_error("params: {n: 1}\nparams: {n: 2}\n", NULL, "t.yaml:5:1:", "duplicate key 'params'", SS_ERROR_INVALID);
	/* keys are names, not values: never substituted */
	expect_params_error("params: {n: 1}\n$n: 2\n", NULL, "t.yaml:5:1:", "unknown key '$n' in the workload", SS_ERROR_INVALID);

	/* overrides: SS_ERROR_USAGE, naming the file */
	text = g_strconcat("params: {n: {default: 2, min: 1, max: 10}}\n", prog, NULL);
	expect_params_error(text, unknown, "t.yaml: no workload parameter 'm' (expected one of: n)", "", SS_ERROR_USAGE);
	expect_params_error(text, noint, "t.yaml: parameter n = 'x' is not an integer in range (expected an integer in 1..10)", "",
			    SS_ERROR_USAGE);
	expect_params_error(text, huge, "t.yaml: parameter n = '99999999999999999999' is not an integer", "", SS_ERROR_USAGE);
	expect_params_error(text, big, "t.yaml: parameter n = 11 is out of range (expected 1..10)", "", SS_ERROR_USAGE);
	expect_params_error(text, noeq, "t.yaml: parameter assignment 'n' is not NAME=VALUE", "", SS_ERROR_USAGE);
	expect_params_error(text, noname, "t.yaml: parameter assignment '=3' is not NAME=VALUE", "", SS_ERROR_USAGE);
	{
		struct ss_workload *w = load_params_ok(text, sign);

		assert_true(ss_workload_param(w, 0)->value == 7);
		ss_workload_free(w);
	}
	g_free(text);
	expect_params_error(prog, unknown, "t.yaml: no workload parameter 'm' (the workload declares no params)", "",
			    SS_ERROR_USAGE);
	/* an rt-app file has none */
	{
		GError *err = NULL;

		assert_null(ss_workload_load_params(SS_SOURCE_DIR "/workloads/rt-app/periodic-taskset.json", unknown, &err));
		assert_int_equal(err->code, SS_ERROR_USAGE);
		assert_non_null(strstr(err->message, "an rt-app file has no workload parameters"));
		g_error_free(err);
	}
}

/* instances_per_cpu A/B is exact; start_cpu first is rank 0 in every instance; metric from */
static void test_fraction_first_from(void **state)
{
	struct ss_workload *third = load_ok("instances_per_cpu: 1/3\ntasks:\n  - name: a\n    start_cpu: first\n    program: [run: 1us]\n");
	struct ss_workload *dec = load_ok("instances_per_cpu: 0.333\ntasks:\n  - name: a\n    program: [run: 1us]\n");
	struct ss_workload *w28 = load_ok("instances_per_cpu: 1 / 28\ntasks:\n  - name: a\n    program: [run: 1us]\n");
	struct ss_wl_plan *p;

	(void)state;
	assert_int_equal(ss_workload_instances_per_cpu_x1000(third), 333);
	assert_int_equal(instances(third, 10000, 3000), 1000);   /* exact: 3000 / 3 */
	assert_int_equal(instances(dec, 10000, 3000), 999);
	assert_int_equal(instances(third, 5000, 3), 1);          /* 0.5 -> 1 (half up) */
	for (unsigned g = 1; g <= 8; g++)                        /* 28 tasks per group on 112 CPUs: 25 %..200 % */
		assert_int_equal(instances(w28, 2500 * g, 112), g);
	assert_int_equal(ss_workload_instances_per_cpu_x1000(w28), 36);
	p = plan_ok(third, 20000, 30);                           /* 20 instances */
	assert_int_equal(p->nr_instances, 20);
	for (unsigned i = 0; i < p->nr_instances; i++) {
		assert_int_equal(p->task[i].start_cpu, 0);
		assert_true(p->task[i].start_cpu_is_index);
	}
	ss_wl_plan_free(p);
	ss_workload_free(third);
	ss_workload_free(dec);
	ss_workload_free(w28);

	expect_error("instances_per_cpu: 1/0\n", "t.yaml:4:20:", "or a fraction A/B such as 1/28");
	expect_error("instances_per_cpu: 0/5\n", "t.yaml:4:20:", "instances_per_cpu '0/5'");
	expect_error("instances_per_cpu: 2001/2\n", "t.yaml:4:20:", "instances_per_cpu '2001/2'");
	expect_error("instances_per_cpu: 1/2000000\n", "t.yaml:4:20:", "instances_per_cpu '1/2000000'");
	expect_error("instances_per_cpu: 1.5/2\n", "t.yaml:4:20:", "instances_per_cpu '1.5/2'");
	expect_error("instances_per_cpu: 1/\n", "t.yaml:4:20:", "instances_per_cpu '1/'");
	expect_error("tasks:\n  - name: a\n    start_cpu: last\n    program: [run: 1us]\n", "t.yaml:6:16:",
		     "start_cpu 'last' (expected a CPU number 0..4095, first, spread, or an expression");

	/* from: begin only times a finish; start is the default */
	{
		static const char fin[] = "name: t\ninstance: i\nmetric: {name: time, unit: s, higher_is_better: false, from: %s}\n"
					  "tasks: [{name: a, program: [run: 1us]}]\n";
		char *t1 = g_strdup_printf(fin, "begin"), *t2 = g_strdup_printf(fin, "start"), *t3 = g_strdup_printf(fin, "later");
		GError *err = NULL;
		struct ss_workload *w1 = ss_workload_load_string(t1, strlen(t1), "t.yaml", &err);
		struct ss_workload *w2 = ss_workload_load_string(t2, strlen(t2), "t.yaml", &err);

		assert_non_null(w1);
		assert_non_null(w2);
		assert_true(ss_workload_metric(w1)->from_begin);
		assert_false(ss_workload_metric(w2)->from_begin);
		expect_error_text(t3, "t.yaml:3:62:", "from 'later' (expected start or begin)", SS_ERROR_INVALID);
		ss_workload_free(w1);
		ss_workload_free(w2);
		g_free(t1);
		g_free(t2);
		g_free(t3);
		expect_error_text("name: t\ninstance: i\nmetric: {name: x, unit: transactions/s, higher_is_better: true, from: begin}\n",
				  "t.yaml:3:71:", "from with unit 'transactions/s' (expected unit s", SS_ERROR_INVALID);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netperf_loads),
		cmocka_unit_test(test_instantiate_counts),
		cmocka_unit_test(test_instantiate_rounding),
		cmocka_unit_test(test_paths),
		cmocka_unit_test(test_netperf_client_sequence),
		cmocka_unit_test(test_netperf_server_sequence),
		cmocka_unit_test(test_statements_and_tokens),
		cmocka_unit_test(test_start_cpu_instance),
		cmocka_unit_test(test_loops_with_counts),
		cmocka_unit_test(test_loops_max_depth),
		cmocka_unit_test(test_durations),
		cmocka_unit_test(test_dist_determinism),
		cmocka_unit_test(test_dist_exponential),
		cmocka_unit_test(test_dist_uniform_const),
		cmocka_unit_test(test_stream_by_path),
		cmocka_unit_test(test_memory_fields),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_run_start_errors),
		cmocka_unit_test(test_cpus_beyond_machine_dropped),
		cmocka_unit_test(test_bad_strings),
		cmocka_unit_test(test_params_defaults_and_overrides),
		cmocka_unit_test(test_params_errors),
		cmocka_unit_test(test_fraction_first_from),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

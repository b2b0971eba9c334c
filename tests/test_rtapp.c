/*
 * test_rtapp.c — rt-app JSON import (lib/rtapp.c): the compiled programs,
 * loose JSON, and errors with JSON paths.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "simsched/error.h"
#include "simsched/rtapp.h"
#include "simsched/workload.h"
#include "workload_priv.h"

static struct ss_workload *load_ok(const char *json)
{
	GError *err = NULL;
	struct ss_workload *w = ss_rtapp_load_string(json, strlen(json), "t.json", &err);

	if (!w)
		fail_msg("load: %s", err ? err->message : "?");
	return w;
}

static char *load_err(const char *json, int *code)
{
	GError *err = NULL;
	struct ss_workload *w = ss_rtapp_load_string(json, strlen(json), "t.json", &err);
	char *msg;

	if (w)
		fail_msg("accepted: %s", json);
	assert_non_null(err);
	*code = err->code;
	msg = g_strdup(err->message);
	g_error_free(err);
	return msg;
}

static unsigned nr_warnings(const struct ss_workload *w)
{
	unsigned n = 0;

	for (const char *const *s = ss_workload_warnings(w); *s; s++)
		n++;
	return n;
}

static bool has_warning(const struct ss_workload *w, const char *needle)
{
	for (const char *const *s = ss_workload_warnings(w); *s; s++)
		if (strstr(*s, needle))
			return true;
	return false;
}

/* Actions of one task for n steps, from a plan at load 100 % on 4 CPUs. */
static void actions(const struct ss_workload *w, uint32_t task, unsigned n, struct ss_wl_action *out)
{
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 4, NULL);
	struct ss_wl_cursor c;
	struct ss_rng r;

	assert_non_null(p);
	ss_wl_cursor_init(&c);
	ss_rng_seed(&r, 1, 1);
	for (unsigned i = 0; i < n; i++)
		ss_wl_next(p, task, &c, &r, &out[i]);
	ss_wl_plan_free(p);
}

static void test_detect(void **state)
{
	(void)state;
	assert_true(ss_rtapp_detect("a.json", "x", 1));
	assert_true(ss_rtapp_detect("a.JSON", "", 0));
	assert_true(ss_rtapp_detect("a", "  // c\n /* x */ {", strlen("  // c\n /* x */ {")));
	assert_false(ss_rtapp_detect("a.yaml", "name: x\n", 8));
	assert_false(ss_rtapp_detect(NULL, "", 0));
}

/* A thread without phases loops for ever; events in file order; priority = nice. */
static void test_single_phase_thread(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"t\": {\"priority\": 5, \"run\": 1000, \"sleep\": 9000}}}");
	struct ss_wl_action a[8];
	struct ss_wl_plan *p;
	(void)state;

	assert_int_equal(ss_workload_nr_roles(w), 1);
	assert_string_equal(ss_workload_role_name(w, 0), "t");
	assert_string_equal(ss_workload_instance_unit(w), "taskset");
	assert_string_equal(ss_workload_name(w), "t");
	assert_string_equal(ss_workload_metric(w)->unit, "transactions/s");
	assert_int_equal(nr_warnings(w), 0);
	actions(w, 0, 8, a);
	for (int k = 0; k < 2; k++) {
		assert_int_equal(a[4 * k + 0].kind, SS_ACT_TXN_BEGIN);
		assert_int_equal(a[4 * k + 1].kind, SS_ACT_RUN);
		assert_int_equal(a[4 * k + 1].ns, 1000000);
		assert_int_equal(a[4 * k + 2].kind, SS_ACT_SLEEP);
		assert_int_equal(a[4 * k + 2].ns, 9000000);
		assert_int_equal(a[4 * k + 3].kind, SS_ACT_TXN_END);
	}
	/* a task set is one instance at 100 %, whatever the number of CPUs */
	p = ss_workload_instantiate(w, 10000, 128, NULL);
	assert_int_equal(p->nr_instances, 1);
	assert_int_equal(p->task[0].nice, 5);
	assert_string_equal(p->task[0].path, "taskset[0]/t");
	ss_wl_plan_free(p);
	p = ss_workload_instantiate(w, 20000, 128, NULL);
	assert_int_equal(p->nr_instances, 2);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* Phases with loops, a thread loop, delay, instances. */
static void test_phases_and_instances(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"a\": {\"instance\": 3, \"delay\": 500, \"loop\": 2, \"phases\": {"
		"  \"p1\": {\"loop\": 2, \"run\": 10},"
		"  \"p2\": {\"sleep\": 20}}}}}");
	struct ss_wl_action a[20];
	unsigned runs = 0, sleeps = 0, ends = 0, i;
	(void)state;

	assert_int_equal(ss_workload_nr_roles(w), 3);
	assert_string_equal(ss_workload_role_name(w, 2), "a[2]");
	actions(w, 1, 20, a);
	assert_int_equal(a[0].kind, SS_ACT_SLEEP);
	assert_int_equal(a[0].ns, 500000);
	for (i = 1; i < 20 && a[i].kind != SS_ACT_EXIT; i++) {
		runs += a[i].kind == SS_ACT_RUN;
		sleeps += a[i].kind == SS_ACT_SLEEP;
		ends += a[i].kind == SS_ACT_TXN_END;
	}
	/* 2 thread loops x (2 x p1 + 1 x p2), then the program ends */
	assert_int_equal(runs, 4);
	assert_int_equal(sleeps, 2);
	assert_int_equal(ends, 6);
	assert_int_equal(a[i].kind, SS_ACT_EXIT);
	ss_workload_free(w);
}

/* signal -> a wake of the waiting thread; broad -> all waiters; wait -> 1 token. */
static void test_signal_wait_broad(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"prod\": {\"run\": 100, \"signal\": \"q\", \"broad\": \"all\", \"sleep\": 1000},"
		" \"cons\": {\"wait\": {\"ref\": \"q\"}, \"run\": 50},"
		" \"w\": {\"instance\": 2, \"suspend\": \"all\", \"run\": 10}}}");
	struct ss_wl_action a[7];
	(void)state;

	actions(w, 0, 7, a);
	assert_int_equal(a[1].kind, SS_ACT_RUN);
	assert_int_equal(a[2].kind, SS_ACT_WAKE);
	assert_int_equal(a[2].target, 1);     /* cons */
	assert_false(a[2].sync);
	assert_int_equal(a[3].kind, SS_ACT_WAKE);
	assert_int_equal(a[3].target, 2);     /* w[0] */
	assert_int_equal(a[4].kind, SS_ACT_WAKE);
	assert_int_equal(a[4].target, 3);     /* w[1] */
	assert_int_equal(a[5].kind, SS_ACT_SLEEP);
	actions(w, 1, 3, a);
	assert_int_equal(a[1].kind, SS_ACT_WAIT);
	assert_int_equal(a[1].count, 1);
	assert_true(has_warning(w, "token"));
	ss_workload_free(w);
}

/* A barrier of N parties: wake the N - 1 others, wait for N - 1 tokens. */
static void test_barrier(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"a\": {\"instance\": 3, \"run\": 100, \"barrier\": \"b\"},"
		" \"b\": {\"run\": 50, \"barrier\": \"b\"}}}");
	struct ss_wl_action a[7];
	(void)state;

	actions(w, 1, 7, a);
	assert_int_equal(a[2].kind, SS_ACT_WAKE);
	assert_int_equal(a[2].target, 0);
	assert_int_equal(a[3].target, 2);
	assert_int_equal(a[4].target, 3);
	assert_int_equal(a[5].kind, SS_ACT_WAIT);
	assert_int_equal(a[5].count, 3);
	ss_workload_free(w);
}

/* Loose JSON: trailing commas, comments, duplicate keys numbered and kept in order. */
static void test_loose_json(void **state)
{
	struct ss_workload *w = load_ok(
		"// an rt-app file\n"
		"{\n"
		"  \"tasks\": {\n"
		"    \"t\": {\n"
		"      \"loop\": 1,\n"
		"      \"run\": 1000, /* first */\n"
		"      \"sleep\": 2000,\n"
		"      \"run\": 3000,\n"
		"      \"run\": 4000,\n"
		"    },\n"
		"  },\n"
		"  \"global\": {\"logdir\": \"/tmp\", \"log_basename\": \"x\", \"gnuplot\": false,},\n"
		"}\n");
	struct ss_wl_action a[7];
	(void)state;

	actions(w, 0, 7, a);
	assert_int_equal(a[1].ns, 1000000);
	assert_int_equal(a[2].kind, SS_ACT_SLEEP);
	assert_int_equal(a[3].ns, 3000000);
	assert_int_equal(a[4].ns, 4000000);
	assert_int_equal(a[5].kind, SS_ACT_TXN_END);
	assert_int_equal(a[6].kind, SS_ACT_EXIT);
	assert_true(has_warning(w, "4 trailing commas"));
	assert_true(has_warning(w, "2 comments"));
	assert_true(has_warning(w, "tasks.t.run -> run1, tasks.t.run -> run2"));
	assert_true(has_warning(w, "logdir, log_basename, gnuplot"));
	assert_int_equal(nr_warnings(w), 4);
	ss_workload_free(w);
}

static void expect_error(const char *json, int code, const char *needle)
{
	int c;
	char *msg = load_err(json, &c);

	if (!strstr(msg, needle))
		fail_msg("message '%s' lacks '%s'", msg, needle);
	assert_int_equal(c, code);
	g_free(msg);
}

static void test_errors(void **state)
{
	(void)state;
	expect_error("{\"tasks\": {\"thread0\": {\"phases\": {\"p1\": {\"run\": 10, \"mem\": 1000}}}}}",
		     SS_ERROR_INVALID, "t.json: tasks.thread0.phases.p1.mem: event 'mem' is not modelled by simsched");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"iorun\": 10}}}", SS_ERROR_INVALID, "tasks.t.iorun: event 'iorun'");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"yield\": \"\"}}}", SS_ERROR_INVALID, "tasks.t.yield: event 'yield'");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"spin\": 10}}}", SS_ERROR_INVALID,
		     "tasks.t.spin: unknown event or key 'spin'");
	expect_error("{\"tasks\": {\"t\": {\"policy\": \"SCHED_FIFO\", \"priority\": 10, \"run\": 10}}}",
		     SS_ERROR_INVALID, "tasks.t.policy: policy 'SCHED_FIFO' is not modelled");
	expect_error("{\"global\": {\"default_policy\": \"SCHED_DEADLINE\"}, \"tasks\": {\"t\": {\"run\": 10}}}",
		     SS_ERROR_INVALID, "global.default_policy: policy 'SCHED_DEADLINE'");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"lock\": \"m\"}}}", SS_ERROR_INVALID, "tasks.t.lock: event 'lock' is not modelled yet");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"unique\", \"period\": 100}}}}",
		     SS_ERROR_INVALID, "tasks.t.timer: event 'timer' is not modelled yet");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"fork\": \"u\"}}}", SS_ERROR_INVALID, "event 'fork' is not modelled yet");
	expect_error("{\"tasks\": {\"t\": {\"runtime\": 10}}}", SS_ERROR_INVALID, "event 'runtime'");
	expect_error("{\"tasks\": {\"t\": {\"cpus\": [0], \"run\": 10}}}", SS_ERROR_INVALID, "tasks.t.cpus: CPU affinity");
	expect_error("{\"tasks\": {\"t\": {\"util_min\": 100, \"run\": 10}}}", SS_ERROR_INVALID, "tasks.t.util_min");
	expect_error("{\"tasks\": {\"t\": {\"taskgroup\": \"/a\", \"run\": 10}}}", SS_ERROR_INVALID, "task groups");
	expect_error("{\"tasks\": {\"t\": {\"priority\": 30, \"run\": 10}}}", SS_ERROR_INVALID, "tasks.t.priority: 30 is out of range");
	expect_error("{\"tasks\": {\"t\": {\"run\": -5}}}", SS_ERROR_INVALID, "tasks.t.run: -5 is out of range");
	expect_error("{\"tasks\": {\"t\": {\"run\": \"10\"}}}", SS_ERROR_INVALID, "tasks.t.run: expected an integer");
	expect_error("{\"tasks\": {\"t\": {\"signal\": \"q\"}}}", SS_ERROR_INVALID, "tasks.t: this loop never lets simulated time pass");
	expect_error("{\"tasks\": {\"t\": {\"loop\": 3}}}", SS_ERROR_INVALID, "tasks.t: no events");
	expect_error("{\"tasks\": {}}", SS_ERROR_INVALID, "tasks: expected an object of threads");
	expect_error("{\"global\": {}}", SS_ERROR_INVALID, "tasks: missing");
	expect_error("{\"tasks\": {\"t\": {\"run\": 1}}, \"extra\": 1}", SS_ERROR_INVALID, "extra: unknown top-level key");
	expect_error("{\"global\": {\"pi_enabled\": true}, \"tasks\": {\"t\": {\"run\": 1}}}", SS_ERROR_INVALID,
		     "global.pi_enabled: priority-inheritance");
	expect_error("{\"tasks\": {\"t\": {\"instance\": 0, \"run\": 1}}}", SS_ERROR_INVALID, "no thread is created");
	/* signal to one of several waiters: rt-app wakes the first in its list */
	expect_error("{\"tasks\": {\"p\": {\"run\": 1, \"signal\": \"q\"}, \"c\": {\"instance\": 2, \"wait\": {\"ref\": \"q\"}}}}",
		     SS_ERROR_INVALID, "tasks.p.signal: signal 'q' wakes one of 2 waiting threads");
	expect_error("{\"tasks\": {\"t\": {\"run\": 1, \"barrier\": \"b\", \"sleep\": 1, \"barrier\": \"b\"}, \"u\": {\"run\": 1, \"barrier\": \"b\"}}}",
		     SS_ERROR_INVALID, "tasks.t.barrier1: barrier 'b' is used a second time");
	/* syntax errors keep line and column, comments blanked or not */
	expect_error("{\n  \"tasks\": {\n    \"t\": {\"run\": 1 \"sleep\": 2}\n  }\n}\n", SS_ERROR_PARSE, "t.json:3:");
	expect_error("/* c */ {\"tasks\": 1} x", SS_ERROR_PARSE, "t.json:1:22: text after the JSON object");
	expect_error("[1, 2]", SS_ERROR_INVALID, "expected a JSON object");
}

/* The shipped examples load. */
static void test_examples(void **state)
{
	static const char *const files[] = { "periodic-taskset.json", "producer-consumer.json" };
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(files); i++) {
		g_autofree char *path = g_build_filename(SS_SOURCE_DIR, "workloads", "rt-app", files[i], NULL);
		GError *err = NULL;
		struct ss_workload *w = ss_workload_load(path, &err);

		if (!w)
			fail_msg("%s: %s", path, err->message);
		assert_true(ss_workload_nr_roles(w) >= 4);
		ss_workload_free(w);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_detect),
		cmocka_unit_test(test_single_phase_thread),
		cmocka_unit_test(test_phases_and_instances),
		cmocka_unit_test(test_signal_wait_broad),
		cmocka_unit_test(test_barrier),
		cmocka_unit_test(test_loose_json),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_examples),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

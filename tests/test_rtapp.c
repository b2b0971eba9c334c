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

/*
 * Actions of an initial thread's task after its start barrier (every
 * initial thread first waits at rt-app's threads_barrier). Task 0 of the
 * task set is rt-app's main thread.
 */
static void tactions(const struct ss_workload *w, uint32_t task, unsigned n, struct ss_wl_action *out)
{
	struct ss_wl_action *all = g_new(struct ss_wl_action, n + 1);

	actions(w, task, n + 1, all);
	assert_int_equal(all[0].kind, SS_ACT_BARRIER);
	memcpy(out, all + 1, n * sizeof(*out));
	g_free(all);
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

	assert_int_equal(ss_workload_nr_roles(w), 2);
	assert_string_equal(ss_workload_role_name(w, 0), "rt-app");
	assert_string_equal(ss_workload_role_name(w, 1), "t");
	assert_string_equal(ss_workload_instance_unit(w), "taskset");
	assert_string_equal(ss_workload_name(w), "t");
	assert_string_equal(ss_workload_metric(w)->unit, "transactions/s");
	assert_int_equal(nr_warnings(w), 0);
	tactions(w, 1, 8, a);
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
	assert_int_equal(p->task[1].nice, 5);
	assert_string_equal(p->task[1].path, "taskset[0]/t");
	assert_true(p->task[1].spawned);
	assert_false(p->task[0].spawned);
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

	assert_int_equal(ss_workload_nr_roles(w), 4);
	assert_string_equal(ss_workload_role_name(w, 3), "a[2]");
	tactions(w, 2, 20, a);
	/* delay: clock_nanosleep(TIMER_ABSTIME) until 500 us after the start */
	assert_int_equal(a[0].kind, SS_ACT_TIMER);
	assert_int_equal(a[0].ns, 500000);
	assert_int_equal(a[0].count, SS_TIMER_ANCHORED);
	assert_int_equal(a[0].anchor_ns, 0);
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

	tactions(w, 1, 7, a);
	assert_int_equal(a[1].kind, SS_ACT_RUN);
	assert_int_equal(a[2].kind, SS_ACT_WAKE);
	assert_int_equal(a[2].target, 2);     /* cons */
	assert_false(a[2].sync);
	assert_int_equal(a[3].kind, SS_ACT_WAKE);
	assert_int_equal(a[3].target, 3);     /* w[0] */
	assert_int_equal(a[4].kind, SS_ACT_WAKE);
	assert_int_equal(a[4].target, 4);     /* w[1] */
	assert_int_equal(a[5].kind, SS_ACT_SLEEP);
	tactions(w, 2, 3, a);
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

	tactions(w, 2, 7, a);
	assert_int_equal(a[2].kind, SS_ACT_WAKE);
	assert_int_equal(a[2].target, 1);
	assert_int_equal(a[3].target, 3);
	assert_int_equal(a[4].target, 4);
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

	tactions(w, 1, 7, a);
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
	/* mutexes: lock twice, unlock not held, a loop that leaves one locked */
	expect_error("{\"tasks\": {\"t\": {\"lock\": \"m\", \"run\": 10, \"lock1\": \"m\"}}}", SS_ERROR_INVALID,
		     "tasks.t.lock1: mutex 'm' is locked again");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"unlock\": \"m\"}}}", SS_ERROR_INVALID,
		     "tasks.t.unlock: mutex 'm' is unlocked by a thread that does not hold it");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"lock\": \"m\"}}}", SS_ERROR_INVALID,
		     "tasks.t: the mutexes held at the end of this loop");
	/* timers: two in one thread, one shared by instances, period 0, bad mode */
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"a\", \"period\": 100},"
		     " \"timer1\": {\"ref\": \"b\", \"period\": 100}}}}", SS_ERROR_INVALID,
		     "tasks.t.timer1: a second timer ('b'; the first, 'a', at tasks.t.timer)");
	expect_error("{\"tasks\": {\"t\": {\"instance\": 2, \"run\": 10, \"timer\": {\"ref\": \"tick\", \"period\": 100}}}}",
		     SS_ERROR_INVALID, "tasks.t.timer: timer 'tick' is shared by several threads");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"a\", \"period\": 0}}}}", SS_ERROR_INVALID,
		     "tasks.t.timer.period: a timer of period 0 never sleeps");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"a\", \"period\": 5, \"mode\": \"abs\"}}}}",
		     SS_ERROR_INVALID, "tasks.t.timer.mode: unknown timer mode 'abs'");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"fork\": \"u\"}}}", SS_ERROR_INVALID,
		     "tasks.t.fork: fork of unknown thread 'u'");
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"fork\": \"u\"}, \"u\": {\"instance\": 0, \"run\": 1, \"barrier\": \"b\"},"
		     " \"v\": {\"run\": 1, \"barrier\": \"b\"}}}", SS_ERROR_INVALID, "tasks.u.barrier: barrier 'b' in thread 'u', which is forked");
	expect_error("{\"tasks\": {\"t\": {\"cpus\": [], \"run\": 10}}}", SS_ERROR_INVALID, "tasks.t.cpus: empty CPU list");
	expect_error("{\"tasks\": {\"t\": {\"cpus\": [0, 5000], \"run\": 10}}}", SS_ERROR_INVALID, "tasks.t.cpus[1]: 5000 is out of range");
	expect_error("{\"tasks\": {\"t\": {\"cpus\": [0], \"phases\": {\"a\": {\"run\": 1}, \"b\": {\"cpus\": [1], \"run\": 1}}}}}",
		     SS_ERROR_INVALID, "tasks.t.phases.b.cpus: an affinity change between phases (cpus 0, then 1)");
	expect_error("{\"tasks\": {\"t\": {\"phases\": {\"a\": {\"priority\": 1, \"run\": 1}, \"b\": {\"priority\": 2, \"run\": 1}}}}}",
		     SS_ERROR_INVALID, "tasks.t.phases.b.priority: a nice change between phases (priority 1, then 2)");
	expect_error("{\"tasks\": {\"t\": {\"phases\": {\"a\": {\"run\": 1}, \"b\": {\"priority\": 2, \"run\": 1}}}}}",
		     SS_ERROR_INVALID, "tasks.t.phases.b.priority: a nice change at this phase (priority 2, the thread runs its first phase at 0)");
	expect_error("{\"tasks\": {\"rt-app\": {\"run\": 1, \"sleep\": 1}}}", SS_ERROR_INVALID, "tasks.rt-app: a thread named 'rt-app'");
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
	/* signal to one of several waiters that are not consecutive threads */
	expect_error("{\"tasks\": {\"c\": {\"wait\": {\"ref\": \"q\"}}, \"p\": {\"run\": 1, \"signal\": \"q\"},"
		     " \"d\": {\"wait\": {\"ref\": \"q\"}}}}",
		     SS_ERROR_INVALID, "tasks.p.signal: signal 'q' wakes one of 2 waiting threads that are not consecutive");
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

/* rt-app's main thread forks every initial thread, which waits at the start barrier. */
static void test_launcher(void **state)
{
	struct ss_workload *w = load_ok("{\"tasks\": {\"a\": {\"instance\": 2, \"run\": 10}, \"b\": {\"run\": 5}}}");
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 4, NULL);
	struct ss_wl_action a[5];
	(void)state;

	actions(w, 0, 5, a);
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(a[i].kind, SS_ACT_SPAWN);
		assert_int_equal(a[i].target, i + 1);
		assert_int_equal(a[i].count, 1);
	}
	assert_int_equal(a[3].kind, SS_ACT_WAIT);   /* pthread_join() for the rest of the run */
	actions(w, 3, 1, a);
	assert_int_equal(a[0].kind, SS_ACT_BARRIER);
	assert_int_equal(a[0].count, 3);             /* threads_barrier: the 3 initial threads */
	assert_string_equal(p->task[0].path, "taskset[0]/rt-app");
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* lock/unlock -> the language's mutex; wait with a held mutex -> unlock, wait, lock. */
static void test_lock_wait_mutex(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"c\": {\"lock\": \"m\", \"wait\": {\"ref\": \"q\", \"mutex\": \"m\"}, \"run\": 50, \"unlock\": \"m\"},"
		" \"p\": {\"run\": 100, \"lock\": \"m\", \"signal\": \"q\", \"unlock\": \"m\", \"sleep\": 1000},"
		" \"s\": {\"lock\": \"n\", \"sync\": {\"ref\": \"r\", \"mutex\": \"n\"}, \"unlock\": \"n\"},"
		" \"t\": {\"wait\": {\"ref\": \"r\", \"mutex\": \"n\"}, \"run\": 10}}}");
	struct ss_wl_action a[12];
	(void)state;

	tactions(w, 1, 7, a);   /* c */
	assert_int_equal(a[1].kind, SS_ACT_LOCK);
	assert_int_equal(a[2].kind, SS_ACT_UNLOCK);
	assert_int_equal(a[2].target, a[1].target);
	assert_int_equal(a[2].count, 0);             /* a mutex, not a barrier */
	assert_int_equal(a[3].kind, SS_ACT_WAIT);
	assert_int_equal(a[4].kind, SS_ACT_LOCK);
	assert_int_equal(a[5].kind, SS_ACT_RUN);
	assert_int_equal(a[6].kind, SS_ACT_UNLOCK);
	tactions(w, 2, 6, a);   /* p: the same mutex slot, signal -> a wake of c */
	assert_int_equal(a[2].kind, SS_ACT_LOCK);
	assert_int_equal(a[3].kind, SS_ACT_WAKE);
	assert_int_equal(a[3].target, 1);
	assert_int_equal(a[4].kind, SS_ACT_UNLOCK);
	tactions(w, 3, 7, a);   /* s: lock, sync = signal t + unlock/wait/lock, unlock */
	assert_int_equal(a[1].kind, SS_ACT_LOCK);
	assert_int_equal(a[2].kind, SS_ACT_WAKE);
	assert_int_equal(a[2].target, 4);
	assert_int_equal(a[3].kind, SS_ACT_UNLOCK);
	assert_int_equal(a[4].kind, SS_ACT_WAIT);
	assert_int_equal(a[5].kind, SS_ACT_LOCK);
	assert_int_equal(a[6].kind, SS_ACT_UNLOCK);
	tactions(w, 4, 2, a);   /* t waits without holding n: a plain wait, warned */
	assert_int_equal(a[1].kind, SS_ACT_WAIT);
	assert_true(has_warning(w, "does not hold mutex 'n'"));
	ss_workload_free(w);
}

/* timer -> the absolute timer: relative by default, anchored at the start + delay. */
static void test_timer(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"r\": {\"run\": 100, \"timer\": {\"ref\": \"r\", \"period\": 1000}},"
		" \"a\": {\"instance\": 2, \"delay\": 300, \"run\": 100, \"timer\": {\"ref\": \"unique\", \"period\": 2000, \"mode\": \"absolute\"}}}}");
	struct ss_wl_action a[4];
	(void)state;

	tactions(w, 1, 3, a);
	assert_int_equal(a[2].kind, SS_ACT_TIMER);
	assert_int_equal(a[2].ns, 1000000);
	assert_int_equal(a[2].count, SS_TIMER_ANCHORED | SS_TIMER_RELATIVE);
	assert_int_equal(a[2].anchor_ns, 0);
	tactions(w, 3, 4, a);
	assert_int_equal(a[0].kind, SS_ACT_TIMER);   /* the delay */
	assert_int_equal(a[0].ns, 300000);
	assert_int_equal(a[3].kind, SS_ACT_TIMER);
	assert_int_equal(a[3].ns, 2000000);
	assert_int_equal(a[3].count, SS_TIMER_ANCHORED);
	assert_int_equal(a[3].anchor_ns, 300000);
	ss_workload_free(w);
}

/* fork -> spawn of the thread's fork role; runtime -> run_wall; cpus; a constant phase priority. */
static void test_fork_runtime_cpus_nice(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"parent\": {\"loop\": 3, \"cpus\": [3, 1, 2, 1], \"run\": 100, \"fork\": \"child\", \"sleep\": 1000},"
		" \"child\": {\"instance\": 0, \"loop\": 1, \"phases\": {"
		"    \"a\": {\"priority\": -5, \"runtime\": 700}, \"b\": {\"priority\": -5, \"run\": 10}}}}}");
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 4, NULL);
	struct ss_wl_action a[6];
	(void)state;

	assert_int_equal(ss_workload_nr_roles(w), 3);
	assert_string_equal(ss_workload_role_name(w, 2), "child-fork");
	assert_int_equal(p->tasks_per_instance, 5);  /* rt-app, parent, 3 fork slots */
	assert_string_equal(p->task[1].cpus, "1,2,3");
	assert_true(p->task[2].spawned);
	assert_int_equal(p->task[2].nice, -5);
	tactions(w, 1, 4, a);
	assert_int_equal(a[2].kind, SS_ACT_SPAWN);
	assert_int_equal(a[2].target, 2);
	assert_int_equal(a[2].nr, 3);
	assert_int_equal(a[2].count, 1);
	/* a forked thread does not wait at the start barrier */
	actions(w, 2, 2, a);
	assert_int_equal(a[0].kind, SS_ACT_TXN_BEGIN);
	assert_int_equal(a[1].kind, SS_ACT_RUN_WALL);
	assert_int_equal(a[1].ns, 700000);
	assert_true(has_warning(w, "forked threads"));
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* signal with several waiting threads -> round robin over them, with a warning. */
static void test_signal_round_robin(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"p\": {\"run\": 1, \"signal\": \"q\", \"sleep\": 100},"
		" \"c\": {\"instance\": 3, \"wait\": {\"ref\": \"q\"}, \"run\": 5}}}");
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 4, NULL);
	struct ss_wl_action a[3];
	(void)state;

	tactions(w, 1, 3, a);
	assert_int_equal(a[2].kind, SS_ACT_WAKE);
	assert_int_equal(a[2].pick, SS_PICK_RR);
	assert_int_equal(a[2].target, 2);
	assert_int_equal(a[2].nr, 3);
	assert_true(has_warning(w, "round robin"));
	ss_wl_plan_free(p);
	ss_workload_free(w);
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
		cmocka_unit_test(test_launcher),
		cmocka_unit_test(test_lock_wait_mutex),
		cmocka_unit_test(test_timer),
		cmocka_unit_test(test_fork_runtime_cpus_nice),
		cmocka_unit_test(test_signal_round_robin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

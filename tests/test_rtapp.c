/*
 * test_rtapp.c — rt-app JSON import (lib/rtapp.c): the compiled programs,
 * loose JSON, errors with JSON paths, and the timelines of small task sets
 * (tests/data/rtapp) run by the simulator, computed by hand from rt-app's
 * src/rt-app.c run_event().
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "simsched/error.h"
#include "simsched/params.h"
#include "simsched/rtapp.h"
#include "simsched/sim.h"
#include "simsched/topology.h"
#include "simsched/workload.h"
#include "workload_priv.h"

#define MS UINT64_C(1000000)

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

/*
 * signal, broad -> COND_SIGNAL, COND_BROADCAST of the condition named by
 * the event, one sync slot per condition name; wait -> COND_WAIT on it.
 */
static void test_signal_wait_broad(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"prod\": {\"run\": 100, \"signal\": \"q\", \"broad\": \"all\", \"sleep\": 1000},"
		" \"cons\": {\"lock\": \"m\", \"wait\": {\"ref\": \"q\", \"mutex\": \"m\"}, \"unlock\": \"m\", \"run\": 50},"
		" \"w\": {\"instance\": 2, \"wait\": {\"ref\": \"all\", \"mutex\": \"m\"}, \"run\": 10}}}");
	struct ss_wl_action a[7], b[4], d[3];
	(void)state;

	tactions(w, 1, 6, a);
	assert_int_equal(a[1].kind, SS_ACT_RUN);
	assert_int_equal(a[2].kind, SS_ACT_COND_SIGNAL);
	assert_int_equal(a[3].kind, SS_ACT_COND_BROADCAST);
	assert_int_not_equal(a[2].target, a[3].target);   /* two conditions, two wait queues */
	assert_int_equal(a[4].kind, SS_ACT_SLEEP);
	tactions(w, 2, 4, b);   /* cons: lock m, wait on q releasing m, unlock m */
	assert_int_equal(b[1].kind, SS_ACT_LOCK);
	assert_int_equal(b[2].kind, SS_ACT_COND_WAIT);
	assert_int_equal(b[2].target, a[2].target);
	assert_int_equal(b[2].nr, b[1].target + 1);        /* the mutex it releases and takes again */
	assert_int_equal(b[2].count, 0);
	assert_int_equal(b[3].kind, SS_ACT_UNLOCK);
	tactions(w, 4, 3, d);   /* w[1]: the broadcast's condition, the same slot as w[0]'s */
	assert_int_equal(d[1].kind, SS_ACT_COND_WAIT);
	assert_int_equal(d[1].target, a[3].target);
	assert_int_equal(d[1].nr, b[1].target + 1);
	assert_false(has_warning(w, "token"));
	assert_true(has_warning(w, "tasks.w.wait: the thread does not hold mutex 'm' here"));
	ss_workload_free(w);
}

/*
 * suspend: lock, wait and unlock on the condition and mutex named after
 * the thread (whatever the value names, as rt-app since 2025); resume: T:
 * lock, broadcast, unlock on T's. Instances share them.
 */
static void test_suspend_resume(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"r\": {\"run\": 100, \"resume\": \"s\", \"sleep\": 1000},"
		" \"s\": {\"instance\": 2, \"suspend\": \"other\", \"run\": 10},"
		" \"q\": {\"suspend\": \"\", \"run\": 10, \"lock\": \"s\", \"unlock\": \"s\"}}}");
	struct ss_wl_action a[6], b[5], c[5], d[6];
	(void)state;

	tactions(w, 1, 6, a);
	assert_int_equal(a[2].kind, SS_ACT_LOCK);
	assert_int_equal(a[3].kind, SS_ACT_COND_BROADCAST);
	assert_int_equal(a[4].kind, SS_ACT_UNLOCK);
	assert_int_equal(a[4].target, a[2].target);
	assert_int_equal(a[5].kind, SS_ACT_SLEEP);
	tactions(w, 2, 5, b);   /* s[0] */
	assert_int_equal(b[1].kind, SS_ACT_LOCK);
	assert_int_equal(b[1].target, a[2].target);       /* mutex "s" */
	assert_int_equal(b[2].kind, SS_ACT_COND_WAIT);
	assert_int_equal(b[2].target, a[3].target);       /* condition "s": the one resume broadcasts */
	assert_int_equal(b[2].nr, a[2].target + 1);
	assert_int_equal(b[3].kind, SS_ACT_UNLOCK);
	assert_int_equal(b[4].kind, SS_ACT_RUN);
	tactions(w, 3, 5, c);   /* s[1]: the same condition */
	assert_int_equal(c[2].target, b[2].target);
	tactions(w, 4, 6, d);   /* q suspends on "q"; its lock of mutex "s" is resume's mutex */
	assert_int_not_equal(d[2].target, b[2].target);
	assert_int_equal(d[5].kind, SS_ACT_LOCK);
	assert_int_equal(d[5].target, a[2].target);
	assert_true(has_warning(w, "tasks.s.suspend: \"suspend\": \"other\" suspends thread 's' on its own name"));
	ss_workload_free(w);
}

/* A barrier of N parties: the language's barrier, one slot per name; one party: nothing. */
static void test_barrier(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"a\": {\"instance\": 3, \"run\": 100, \"barrier\": \"b\"},"
		" \"b\": {\"run\": 50, \"barrier\": \"b\", \"barrier1\": \"solo\"}}}");
	struct ss_wl_action a[4], b[5];
	(void)state;

	tactions(w, 2, 4, a);
	assert_int_equal(a[2].kind, SS_ACT_BARRIER);
	assert_int_equal(a[2].count, 4);
	tactions(w, 4, 5, b);
	assert_int_equal(b[2].kind, SS_ACT_BARRIER);
	assert_int_equal(b[2].target, a[2].target);
	assert_int_equal(b[2].count, 4);
	assert_int_equal(b[3].kind, SS_ACT_TXN_END);   /* "solo" has one party: it never waits */
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
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"sem_post\": 3}}}", SS_ERROR_INVALID, "tasks.t.sem_post:");
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
	/* timers: two unique ones in one thread (shared ones may be many: test_sim_shared_timer), period 0, bad mode */
	expect_error("{\"tasks\": {\"t\": {\"run\": 10, \"timer\": {\"ref\": \"unique_a\", \"period\": 100},"
		     " \"timer1\": {\"ref\": \"unique_b\", \"period\": 100}}}}", SS_ERROR_INVALID,
		     "tasks.t.timer1: a second unique timer ('unique_b'; the first, 'unique_a', at tasks.t.timer)");
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
	/* suspend/resume lock the mutex named after the thread: holding it already deadlocks */
	expect_error("{\"tasks\": {\"t\": {\"lock\": \"t\", \"suspend\": \"\", \"unlock\": \"t\", \"run\": 1}}}",
		     SS_ERROR_INVALID, "tasks.t.suspend: suspend 't' while the thread holds mutex 't'");
	expect_error("{\"tasks\": {\"t\": {\"lock\": \"u\", \"resume\": \"u\", \"unlock\": \"u\", \"run\": 1},"
		     " \"u\": {\"suspend\": \"\", \"run\": 1}}}",
		     SS_ERROR_INVALID, "tasks.t.resume: resume 'u' while the thread holds mutex 'u'");
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

/*
 * lock/unlock -> the language's mutex; wait with a held mutex -> COND_WAIT
 * releasing and retaking it; sync -> COND_SIGNAL then COND_WAIT on the same
 * condition; a mutex and a condition of the same name are two objects.
 */
static void test_lock_wait_mutex(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {"
		" \"c\": {\"lock\": \"m\", \"wait\": {\"ref\": \"q\", \"mutex\": \"m\"}, \"run\": 50, \"unlock\": \"m\"},"
		" \"p\": {\"run\": 100, \"lock\": \"m\", \"signal\": \"q\", \"unlock\": \"m\", \"sleep\": 1000},"
		" \"s\": {\"lock\": \"n\", \"sync\": {\"ref\": \"r\", \"mutex\": \"n\"}, \"unlock\": \"n\"},"
		" \"t\": {\"wait\": {\"ref\": \"r\", \"mutex\": \"n\"}, \"run\": 10, \"signal\": \"m\"}}}");
	struct ss_wl_action a[6], b[6], d[5], e[4];
	(void)state;

	tactions(w, 1, 5, a);   /* c */
	assert_int_equal(a[1].kind, SS_ACT_LOCK);
	assert_int_equal(a[1].count, 0);             /* a mutex, not a barrier */
	assert_int_equal(a[2].kind, SS_ACT_COND_WAIT);
	assert_int_equal(a[2].nr, a[1].target + 1);
	assert_int_equal(a[3].kind, SS_ACT_RUN);
	assert_int_equal(a[4].kind, SS_ACT_UNLOCK);
	assert_int_equal(a[4].target, a[1].target);
	tactions(w, 2, 6, b);   /* p: the same mutex slot, signal of c's condition */
	assert_int_equal(b[2].kind, SS_ACT_LOCK);
	assert_int_equal(b[2].target, a[1].target);
	assert_int_equal(b[3].kind, SS_ACT_COND_SIGNAL);
	assert_int_equal(b[3].target, a[2].target);
	assert_int_equal(b[4].kind, SS_ACT_UNLOCK);
	tactions(w, 3, 5, d);   /* s: lock, sync = signal r + wait on r releasing n, unlock */
	assert_int_equal(d[1].kind, SS_ACT_LOCK);
	assert_int_equal(d[2].kind, SS_ACT_COND_SIGNAL);
	assert_int_equal(d[3].kind, SS_ACT_COND_WAIT);
	assert_int_equal(d[3].target, d[2].target);
	assert_int_equal(d[3].nr, d[1].target + 1);
	assert_int_equal(d[4].kind, SS_ACT_UNLOCK);
	tactions(w, 4, 4, e);   /* t waits on r without holding n (warned); "m" the condition is not "m" the mutex */
	assert_int_equal(e[1].kind, SS_ACT_COND_WAIT);
	assert_int_equal(e[1].target, d[2].target);
	assert_int_equal(e[1].nr, d[1].target + 1);
	assert_int_equal(e[3].kind, SS_ACT_COND_SIGNAL);
	assert_int_not_equal(e[3].target, a[1].target);
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

/*
 * An affinity that changes between phases (rt-app's set_thread_affinity()
 * at each phase's start: the phase's cpus, else the thread's, else the
 * default): the role has no cpus, each phase begins with a SET_CPUS of its
 * set (0: the default); one set per distinct list, with where it is given.
 */
static void test_affinity_between_phases(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"t\": {\"cpus\": [0], \"phases\": {\"a\": {\"run\": 1}, \"b\": {\"cpus\": [2, 1], \"run\": 1},"
		" \"c\": {\"loop\": 3, \"run\": 1}}},"
		" \"u\": {\"phases\": {\"a\": {\"cpus\": [3], \"run\": 1}, \"b\": {\"run\": 1}}}}}");
	struct ss_wl_plan *p = ss_workload_instantiate(w, 10000, 4, NULL);
	struct ss_wl_action a[16];
	const char *at = NULL;
	(void)state;

	assert_null(p->task[1].cpus);
	assert_null(p->task[2].cpus);
	assert_int_equal(ss_workload_nr_cpusets(w), 3);
	assert_string_equal(ss_workload_cpuset(w, 0, &at), "0");
	assert_string_equal(at, "t.json: tasks.t.cpus");
	assert_string_equal(ss_workload_cpuset(w, 1, &at), "1,2");
	assert_string_equal(at, "t.json: tasks.t.phases.b.cpus");
	assert_string_equal(ss_workload_cpuset(w, 2, NULL), "3");
	assert_null(ss_workload_cpuset(w, 3, NULL));
	/* t: [set 0] a, [set 1] b, [set 0] c c c, and again */
	tactions(w, 1, 16, a);
	assert_int_equal(a[0].kind, SS_ACT_SET_CPUS);
	assert_int_equal(a[0].target, 1);
	assert_int_equal(a[1].kind, SS_ACT_TXN_BEGIN);
	assert_int_equal(a[2].kind, SS_ACT_RUN);
	assert_int_equal(a[4].kind, SS_ACT_SET_CPUS);
	assert_int_equal(a[4].target, 2);
	assert_int_equal(a[8].kind, SS_ACT_SET_CPUS);
	assert_int_equal(a[8].target, 1);
	assert_int_equal(a[9].kind, SS_ACT_TXN_BEGIN);   /* phase c's loop: one SET_CPUS before it */
	assert_int_equal(a[12].kind, SS_ACT_TXN_BEGIN);
	assert_int_equal(a[15].kind, SS_ACT_TXN_BEGIN);
	/* u: [set 2] a, [default] b */
	tactions(w, 2, 5, a);
	assert_int_equal(a[0].kind, SS_ACT_SET_CPUS);
	assert_int_equal(a[0].target, 3);
	assert_int_equal(a[4].kind, SS_ACT_SET_CPUS);
	assert_int_equal(a[4].target, 0);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* Conditions are per copy of the task set: at 200 % the second copy signals its own. */
static void test_cond_per_copy(void **state)
{
	struct ss_workload *w = load_ok(
		"{\"tasks\": {\"p\": {\"run\": 1, \"signal\": \"q\", \"sleep\": 100},"
		" \"c\": {\"instance\": 3, \"wait\": {\"ref\": \"q\"}, \"run\": 5}}}");
	struct ss_wl_plan *p = ss_workload_instantiate(w, 20000, 4, NULL);
	struct ss_wl_action a[2][4];
	(void)state;

	assert_int_equal(p->nr_instances, 2);
	for (unsigned i = 0; i < 2; i++) {
		struct ss_wl_cursor c;
		struct ss_rng r;

		ss_wl_cursor_init(&c);
		ss_rng_seed(&r, 1, 1);
		for (unsigned k = 0; k < 4; k++)   /* start barrier, begin, run, signal */
			ss_wl_next(p, i * p->tasks_per_instance + 1, &c, &r, &a[i][k]);
		assert_int_equal(a[i][3].kind, SS_ACT_COND_SIGNAL);
		assert_true(a[i][3].target < p->nr_sync);
		assert_int_equal(p->sync_parties[a[i][3].target], 0);
	}
	assert_int_not_equal(a[0][3].target, a[1][3].target);
	ss_wl_plan_free(p);
	ss_workload_free(w);
}

/* ------------------------------------------------------------ timelines run by the simulator */

static struct ss_topology *kunpeng;

static int sim_setup(void **state)
{
	GError *err = NULL;

	(void)state;
	kunpeng = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	if (!kunpeng)
		g_error_free(err);
	return !kunpeng;
}

static int sim_teardown(void **state)
{
	(void)state;
	ss_topology_free(kunpeng);
	return 0;
}

#define MAXA 100000
#include "action_trace.h"

/*
 * Run tests/data/rtapp/FILE on kunpeng920 at 100 % (the task set once),
 * measuring from the start for dur ns, with every action of every task
 * recorded. Task 0 is rt-app's main thread, then the threads in file order.
 */
/*
 * Run tests/data/rtapp/FILE on kunpeng920 under kernel k for dur ns and
 * return its action trace; the workload and the results are handed to the
 * caller when asked for (wout, rout: the caller frees them).
 */
static struct trace *run_file_k(const char *file, uint64_t dur, struct ss_workload **wout, enum ss_kernel k,
				 struct ss_results **rout)
{
	g_autofree char *path = g_build_filename(SS_TEST_DATA, "rtapp", file, NULL);
	struct trace *tr = g_new0(struct trace, 1);
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load(path, &err);
	struct ss_run_config c;
	struct ss_results *r;

	if (!w)
		fail_msg("%s: %s", path, err->message);
	memset(&c, 0, sizeof(c));
	c.topo = kunpeng;
	c.wl = w;
	ss_params_defaults(&c.params, kunpeng);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = dur;
	c.trace = record;
	c.trace_ctx = tr;
	c.kernel = k;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s: %s", path, err->message);
	assert_int_equal(r->nr_instances, 1);
	assert_true(tr->n < MAXA);
	if (rout)
		*rout = r;
	else
		ss_results_free(r);
	if (wout)
		*wout = w;
	else
		ss_workload_free(w);
	return tr;
}

static struct trace *run_file(const char *file, uint64_t dur, struct ss_workload **wout)
{
	return run_file_k(file, dur, wout, SS_KERNEL_6_6, NULL);
}

static bool is_run(const struct ss_wl_action *a)
{
	return a->kind == SS_ACT_RUN || a->kind == SS_ACT_RUN_WALL;
}

/* Start times (ns) of task's run events (of `ns` ns of work, 0: any) in [from, to); their number. */
static unsigned runs(const struct trace *tr, unsigned task, uint64_t ns, uint64_t from, uint64_t to, uint64_t *at,
		     unsigned max)
{
	unsigned n = 0;

	for (unsigned i = 0; i < tr->n; i++) {
		if (tr->e[i].task != task || !is_run(&tr->e[i].a) || (ns && tr->e[i].a.ns != ns) ||
		    tr->e[i].t < from || tr->e[i].t >= to)
			continue;
		if (at && n >= max)
			fail_msg("task %u has more than %u runs", task, max);
		if (at)
			at[n] = tr->e[i].t;
		n++;
	}
	return n;
}

/* Busy time (ns of run events) of task's runs that start in [from, to). */
static uint64_t busy(const struct trace *tr, unsigned task, uint64_t from, uint64_t to)
{
	uint64_t sum = 0;

	for (unsigned i = 0; i < tr->n; i++)
		if (tr->e[i].task == task && is_run(&tr->e[i].a) && tr->e[i].t >= from && tr->e[i].t < to)
			sum += tr->e[i].a.ns;
	return sum;
}

/* |x - want| <= tol (ns), with the values in the failure message. */
static void assert_near(uint64_t x, uint64_t want, uint64_t tol)
{
	if ((x > want ? x - want : want - x) > tol)
		fail_msg("%llu ns is not within %llu ns of %llu ns", (unsigned long long)x, (unsigned long long)tol,
			 (unsigned long long)want);
}

/*
 * tutorial example5 (tests/data/rtapp/example5-signal-resume.json), by hand
 * from rt-app's run_event(): thread0 (CPU 0) sleeps 10 ms, then in each of
 * 8 periods of 200 ms (timer from t = 0) locks "mutex", runs 10 ms,
 * signals "queue", runs 10 ms, unlocks, runs 100 ms, resumes thread1.
 * thread1 (CPU 1), 3 times: lock, wait "queue", unlock, run 10 ms,
 * suspend, run 10 ms, suspend, run 10 ms.
 *   period 0: signal at 20 (thread1 waits) -> it gets the mutex at 30,
 *             runs 30-40, suspends; resume at 130 -> runs 130-140, suspends
 *   period 1: signal at 210 finds thread1 suspended: lost; resume at 320
 *             -> runs 320-330, then waits on "queue" again
 *   periods 2-5 repeat 0-1; thread1 ends after its run at 1120.
 * thread1 runs 20 ms, 10 ms, 20 ms, 10 ms, 20 ms, 10 ms per period, 90 ms.
 * (With wakeups kept for whoever waited next, the signal at 210 woke its
 * suspend and it ran 20 ms in every period until its 90 ms were done.)
 */
static void test_sim_example5(void **state)
{
	static const uint64_t want[] = { 30, 130, 320, 420, 520, 720, 820, 920, 1120 };
	static const uint64_t per_period[] = { 20, 10, 20, 10, 20, 10, 0, 0 };
	struct trace *tr = run_file("example5-signal-resume.json", 1700 * MS, NULL);
	uint64_t at[16];
	unsigned exits = 0;
	(void)state;

	assert_int_equal(runs(tr, 2, 0, 0, UINT64_MAX, at, 16), G_N_ELEMENTS(want));
	for (unsigned i = 0; i < G_N_ELEMENTS(want); i++)
		assert_near(at[i], want[i] * MS, MS / 2);
	for (unsigned k = 0; k < G_N_ELEMENTS(per_period); k++)
		assert_int_equal(busy(tr, 2, k * 200 * MS, (k + 1) * 200 * MS), per_period[k] * MS);
	assert_int_equal(busy(tr, 2, 0, UINT64_MAX), 90 * MS);
	/* thread0: 8 periods of 10 + 10 + 100 ms */
	assert_int_equal(runs(tr, 1, 0, 0, UINT64_MAX, NULL, 0), 24);
	assert_int_equal(busy(tr, 1, 0, UINT64_MAX), 960 * MS);
	for (unsigned i = 0; i < tr->n; i++)
		exits += (tr->e[i].task == 1 || tr->e[i].task == 2) && tr->e[i].a.kind == SS_ACT_EXIT;
	assert_int_equal(exits, 2);   /* both threads finish their loops */
	g_free(tr);
}

/*
 * A timer shared by two threads (shared-timer.json: "a" and "b" each run
 * 1 ms and use timer "tick" of 10 ms). rt-app's run_event() keeps one
 * t_next for the resource: each use by either thread adds 10 ms and sleeps
 * to it. Both run at 0; the first to reach the timer sleeps to 10 ms, the
 * other to 20 ms, then each use pushes the expiry 10 ms on: one of them
 * runs at every multiple of 10 ms, each every 20 ms (11 runs in 100 ms,
 * where two timers of their own would give 20).
 */
static void test_sim_shared_timer(void **state)
{
	struct trace *tr = run_file("shared-timer.json", 100 * MS, NULL);
	uint64_t at0[16], at1[16];
	unsigned n0 = runs(tr, 1, 0, 0, UINT64_MAX, at0, 16), n1 = runs(tr, 2, 0, 0, UINT64_MAX, at1, 16);
	(void)state;

	assert_int_equal(n0 + n1, 11);
	assert_near(at0[0], 0, MS / 2);
	assert_near(at1[0], 0, MS / 2);
	uint64_t *late = at0[1] < at1[1] ? at1 : at0, *early = late == at0 ? at1 : at0;
	unsigned nl = late == at0 ? n0 : n1, ne = late == at0 ? n1 : n0;
	assert_int_equal(ne, 6);
	assert_int_equal(nl, 5);
	for (unsigned i = 1; i < ne; i++)
		assert_near(early[i], (20 * i - 10) * MS, MS / 2);
	for (unsigned i = 1; i < nl; i++)
		assert_near(late[i], 20 * i * MS, MS / 2);
	g_free(tr);
}

/*
 * tutorial example4 (example4-resume.json): two threads run 10 ms, resume
 * the other, suspend. Both start together; the first to finish resumes a
 * thread that still runs (lost) and suspends; the other resumes it and
 * suspends. From then on exactly one runs at a time, 10 ms each in turn:
 * each thread 50 %, not 100 %.
 */
static void test_sim_example4(void **state)
{
	struct trace *tr = run_file("example4-resume.json", 1000 * MS, NULL);
	uint64_t at0[64], at1[64];
	unsigned n0 = runs(tr, 1, 0, 0, UINT64_MAX, at0, 64), n1 = runs(tr, 2, 0, 0, UINT64_MAX, at1, 64);
	(void)state;

	assert_in_range(n0, 49, 51);
	assert_in_range(n1, 49, 51);
	assert_in_range(n0 + n1, 99, 101);
	/* after the first runs the two alternate: each run starts >= 10 ms after the other's */
	for (unsigned i = 1, j = 1; i < n0 && j < n1;) {
		uint64_t a = at0[i], b = at1[j];

		if ((a > b ? a - b : b - a) < 10 * MS - MS / 10)
			fail_msg("thread0 at %llu ns and thread1 at %llu ns run together", (unsigned long long)a,
				 (unsigned long long)b);
		if (a < b)
			i++;
		else
			j++;
	}
	g_free(tr);
}

/*
 * A consumer woken by a signal that also suspends, and that nothing
 * resumes (suspend-unresumed.json): it runs once (3 ms at 3 ms), then is
 * suspended for ever — 0 %, where keeping wakeups for its next wait ran it
 * 3 ms of every 10 ms.
 */
static void test_sim_suspend_unresumed(void **state)
{
	struct ss_workload *w;
	struct trace *tr = run_file("suspend-unresumed.json", 1000 * MS, &w);
	uint64_t at[4];
	(void)state;

	assert_int_equal(runs(tr, 2, 0, 0, UINT64_MAX, at, 4), 1);
	assert_near(at[0], 3 * MS, MS / 2);
	assert_int_equal(busy(tr, 2, 10 * MS, UINT64_MAX), 0);
	assert_in_range(runs(tr, 1, 0, 0, UINT64_MAX, NULL, 0), 99, 100);   /* the producer goes on */
	assert_true(has_warning(w, "conditions that no signal, broad, sync or resume wakes: 'consumer' "
				   "(tasks.consumer.suspend)"));
	ss_workload_free(w);
	g_free(tr);
}

/*
 * A signal before anyone waits is lost (signal-lost.json): signals at 1,
 * 11, 21, ... ms; the waiter waits from 5 ms, so it first runs at 11 ms,
 * then after every signal: 9 runs in the first 100 ms.
 */
static void test_sim_signal_lost(void **state)
{
	struct trace *tr = run_file("signal-lost.json", 100 * MS, NULL);
	uint64_t at[16];
	unsigned n = runs(tr, 2, 0, 0, UINT64_MAX, at, 16);
	(void)state;

	assert_int_equal(n, 9);
	for (unsigned i = 0; i < n; i++)
		assert_near(at[i], (11 + 10 * i) * MS, MS / 2);
	g_free(tr);
}

/*
 * broad wakes every waiter of its condition only; signal wakes the first
 * (broadcast-signal.json): over 100 periods the three "all" waiters run
 * 100 times each, the "b" waiter never, the two "one" waiters 50 each, in
 * turn.
 */
static void test_sim_broadcast_signal(void **state)
{
	struct trace *tr = run_file("broadcast-signal.json", 1000 * MS, NULL);
	(void)state;

	for (unsigned t = 2; t <= 4; t++)
		assert_int_equal(runs(tr, t, 0, 0, UINT64_MAX, NULL, 0), 100);
	assert_int_equal(runs(tr, 5, 0, 0, UINT64_MAX, NULL, 0), 0);
	assert_int_equal(runs(tr, 6, 0, 0, UINT64_MAX, NULL, 0), 50);
	assert_int_equal(runs(tr, 7, 0, 0, UINT64_MAX, NULL, 0), 50);
	for (unsigned k = 0; k < 100; k++) {   /* one of them per period */
		uint64_t from = k * 10 * MS, to = from + 10 * MS;

		assert_int_equal(runs(tr, 6, 0, from, to, NULL, 0) + runs(tr, 7, 0, from, to, NULL, 0), 1);
		assert_int_not_equal(runs(tr, 6, 0, from, to, NULL, 0), runs(tr, 6, 0, to, to + 10 * MS, NULL, 0));
	}
	g_free(tr);
}

/*
 * Two conditions do not share wakeups (two-conditions.json): "b" at 1 ms
 * and "a" at 4 ms of every 10 ms; the waiter's 1 ms run (after "a") starts
 * at 4 ms of each period, its 2 ms run (after "b") at 1 ms from the second
 * period on (the first "b" finds it waiting on "a": lost).
 */
static void test_sim_two_conditions(void **state)
{
	struct trace *tr = run_file("two-conditions.json", 100 * MS, NULL);
	uint64_t at[16];
	unsigned n;
	(void)state;

	n = runs(tr, 2, MS, 0, UINT64_MAX, at, 16);
	assert_int_equal(n, 10);
	for (unsigned i = 0; i < n; i++)
		assert_near(at[i], (4 + 10 * i) * MS, MS / 2);
	n = runs(tr, 2, 2 * MS, 0, UINT64_MAX, at, 16);
	assert_int_equal(n, 9);
	for (unsigned i = 0; i < n; i++)
		assert_near(at[i], (11 + 10 * i) * MS, MS / 2);
	g_free(tr);
}

/*
 * A semaphore keeps a post nobody waited for (sem-remembered.json): posts
 * at 1, 11, 21, ... ms; the waiter's first sem_wait at 5 ms takes the
 * first one, so it runs at 5 ms, then at 11, 21, ..., 91 ms: 10 runs.
 */
static void test_sim_sem_remembered(void **state)
{
	struct trace *tr = run_file("sem-remembered.json", 100 * MS, NULL);
	uint64_t at[16];
	unsigned n = runs(tr, 2, 0, 0, UINT64_MAX, at, 16);
	(void)state;

	assert_int_equal(n, 10);
	assert_near(at[0], 5 * MS, MS / 2);
	for (unsigned i = 1; i < n; i++)
		assert_near(at[i], (1 + 10 * i) * MS, MS / 2);
	g_free(tr);
}

/*
 * A post is not handed to the woken waiter (sem-retake.json): the poster
 * posts and waits on the semaphore itself, taking the unit back at once;
 * the waiter on CPU 1, woken every round, finds the value 0 again and
 * never runs, while the poster runs its 1 ms every round (about 100 in
 * 100 ms) and is never blocked for good.
 */
static void test_sim_sem_retake(void **state)
{
	struct trace *tr = run_file("sem-retake.json", 100 * MS, NULL);
	(void)state;

	assert_int_equal(runs(tr, 2, 0, 0, UINT64_MAX, NULL, 0), 0);
	assert_in_range(runs(tr, 1, 0, 0, UINT64_MAX, NULL, 0), 95, 101);
	g_free(tr);
}

/*
 * An affinity change between phases moves the running thread at once
 * (affinity-phases.json): phase a on CPU 2, phase b on CPU 3, each 1 ms of
 * run and 1 ms of sleep, 25 rounds in 100 ms. Every phase start but the
 * ones whose CPU is already allowed migrates it (cause "affinity"): about
 * 50; each CPU is busy about 25 ms, and no other CPU runs it.
 */
static void test_sim_affinity_phases(void **state)
{
	struct ss_results *r;
	uint64_t other = 0;
	(void)state;

	g_free(run_file_k("affinity-phases.json", 100 * MS, NULL, SS_KERNEL_6_6, &r));
	assert_in_range(r->migrations_by_cause[SS_MIG_AFFINITY], 48, 51);
	assert_near(r->cpu[2].busy_ns, 25 * MS, 2 * MS);
	assert_near(r->cpu[3].busy_ns, 25 * MS, 2 * MS);
	for (unsigned i = 4; i < r->nr_cpus; i++)
		other += r->cpu[i].busy_ns;
	assert_true(other < MS / 10);
	ss_results_free(r);
}

/*
 * sched_yield() hands the CPU over (yield-alternate.json): on both kernels
 * the two threads' 100 us runs alternate — nearly every run follows one of
 * the other thread — and they share the CPU evenly; each run is followed
 * by one yield. Without the yields they would switch once a slice (>= 3 ms).
 */
static void test_sim_yield_alternates(void **state)
{
	static const enum ss_kernel kernels[] = { SS_KERNEL_6_6, SS_KERNEL_5_17 };
	(void)state;

	for (unsigned k = 0; k < 2; k++) {
		struct ss_results *r;
		struct trace *tr = run_file_k("yield-alternate.json", 50 * MS, NULL, kernels[k], &r);
		unsigned n = 0, changes = 0, last = 0;
		uint64_t ba = busy(tr, 1, 0, UINT64_MAX), bb = busy(tr, 2, 0, UINT64_MAX);

		for (unsigned i = 0; i < tr->n; i++) {
			if (!is_run(&tr->e[i].a) || (tr->e[i].task != 1 && tr->e[i].task != 2))
				continue;
			if (n++ && tr->e[i].task != last)
				changes++;
			last = tr->e[i].task;
		}
		/* 50 ms of 100 us runs and context switches: about 480 runs */
		assert_in_range(n, 400, 500);
		assert_true(changes + 2 >= n - 1);
		assert_near(ba, bb, 200000);
		assert_in_range(r->yields, n - 2, n + 2);
		ss_results_free(r);
		g_free(tr);
	}
}

/*
 * sync = signal and wait atomically under the mutex (sync-pingpong.json):
 * two threads hand over to each other, one runs 5 ms while the other
 * waits — 100 runs each per second, never together.
 */
static void test_sim_sync_pingpong(void **state)
{
	struct trace *tr = run_file("sync-pingpong.json", 1000 * MS, NULL);
	uint64_t at[2][128];
	unsigned n0 = runs(tr, 1, 0, 0, UINT64_MAX, at[0], 128), n1 = runs(tr, 2, 0, 0, UINT64_MAX, at[1], 128);
	(void)state;

	assert_in_range(n0, 99, 101);
	assert_in_range(n1, 99, 101);
	for (unsigned i = 0; i + 1 < n0 && i + 1 < n1; i++) {
		/* the first to run starts each round, the other 5 ms later */
		uint64_t a = at[0][i], b = at[1][i];

		assert_near(a > b ? a - b : b - a, 5 * MS, MS / 10);
	}
	g_free(tr);
}

/*
 * tutorial example7 (example7-barrier.json), its own timeline: one loop
 * every 9 ms; task0's runtime2 starts 3 ms into it, task1's runtime3 6 ms
 * (each loop a few us later for the wakeups' latency).
 */
static void test_sim_example7_barriers(void **state)
{
	struct trace *tr = run_file("example7-barrier.json", 900 * MS, NULL);
	uint64_t at[256];
	unsigned n;
	(void)state;

	n = runs(tr, 1, 2 * MS, 0, UINT64_MAX, at, 256);
	assert_in_range(n, 98, 100);
	assert_near(at[0], 3 * MS, MS / 10);
	for (unsigned i = 1; i < n; i++)
		assert_near(at[i] - at[i - 1], 9 * MS, MS / 10);
	n = runs(tr, 2, 2 * MS, 0, UINT64_MAX, at, 256);   /* task1: runtime1 at 0, runtime3 at 6 */
	assert_in_range(n, 196, 200);
	assert_near(at[1], 6 * MS, MS / 10);
	for (unsigned i = 1; i < n; i++)
		assert_near(at[i] - at[i - 1], (i % 2 ? 6 : 3) * MS, MS / 10);
	g_free(tr);
}

/*
 * A barrier and a condition wait in one thread do not share wakeups
 * (barrier-and-wait.json): y reaching the barrier at 0.5 ms does not wake
 * x from its wait; x runs at 1 ms of every period (the signal), y at 0 ms
 * and then at 3 ms (when x reaches the barrier).
 */
static void test_sim_barrier_and_wait(void **state)
{
	struct trace *tr = run_file("barrier-and-wait.json", 100 * MS, NULL);
	uint64_t at[16];
	unsigned n;
	(void)state;

	n = runs(tr, 2, 0, 0, UINT64_MAX, at, 16);
	assert_int_equal(n, 10);
	for (unsigned i = 0; i < n; i++)
		assert_near(at[i], (1 + 10 * i) * MS, MS / 2);
	n = runs(tr, 3, 0, 0, UINT64_MAX, at, 16);
	assert_int_equal(n, 11);
	assert_near(at[0], 0, MS / 2);
	for (unsigned i = 1; i < n; i++)
		assert_near(at[i], (3 + 10 * (i - 1)) * MS, MS / 2);
	g_free(tr);
}

/*
 * Waits without a lock before them (unheld-mutex.json): glibc's
 * pthread_cond_wait() returns holding the mutex, so after each broadcast
 * the two workers run one after the other, the second 2 ms after the first.
 */
static void test_sim_unheld_mutex(void **state)
{
	struct trace *tr = run_file("unheld-mutex.json", 100 * MS, NULL);
	(void)state;

	for (unsigned k = 0; k < 10; k++) {
		uint64_t a[2], b[2];

		assert_int_equal(runs(tr, 2, 0, k * 10 * MS, (k + 1) * 10 * MS, a, 2), 1);
		assert_int_equal(runs(tr, 3, 0, k * 10 * MS, (k + 1) * 10 * MS, b, 2), 1);
		assert_near(a[0] < b[0] ? a[0] : b[0], (1 + 10 * k) * MS, MS / 2);
		assert_near(a[0] > b[0] ? a[0] - b[0] : b[0] - a[0], 2 * MS, MS / 10);
	}
	g_free(tr);
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
		cmocka_unit_test(test_affinity_between_phases),
		cmocka_unit_test(test_cond_per_copy),
		cmocka_unit_test(test_suspend_resume),
	};
	const struct CMUnitTest sim_tests[] = {
		cmocka_unit_test(test_sim_example5),
		cmocka_unit_test(test_sim_shared_timer),
		cmocka_unit_test(test_sim_example4),
		cmocka_unit_test(test_sim_suspend_unresumed),
		cmocka_unit_test(test_sim_signal_lost),
		cmocka_unit_test(test_sim_broadcast_signal),
		cmocka_unit_test(test_sim_two_conditions),
		cmocka_unit_test(test_sim_sync_pingpong),
		cmocka_unit_test(test_sim_sem_remembered),
		cmocka_unit_test(test_sim_sem_retake),
		cmocka_unit_test(test_sim_affinity_phases),
		cmocka_unit_test(test_sim_yield_alternates),
		cmocka_unit_test(test_sim_example7_barriers),
		cmocka_unit_test(test_sim_barrier_and_wait),
		cmocka_unit_test(test_sim_unheld_mutex),
	};

	return cmocka_run_group_tests(tests, NULL, NULL) | cmocka_run_group_tests(sim_tests, sim_setup, sim_teardown);
}

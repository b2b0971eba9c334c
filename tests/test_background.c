/*
 * Background work (docs/model.md "Background work"): the tick's own cost on
 * a busy CPU, its rq lock, and a kworker per CPU woken from the ticks of a
 * busy CPU (deferrable), kept out of the workload's figures and out of the
 * work an idle CPU could take; cost.background=0 removes all of it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "machine_helpers.h"

#define MS 1000000ull

/* A run of w on t (sis_util, seed 1, load 100 %) with the --set assignments sets (NULL-terminated). */
static struct ss_results *run(const struct ss_topology *t, const struct ss_workload *w, const char *const *sets,
			      uint64_t warmup_ns, uint64_t duration_ns)
{
	struct ss_run_config c = { 0 };
	GError *err = NULL;
	struct ss_results *r;
	c.topo = t;
	c.wl = w;
	c.policy = "sis_util";
	ss_params_defaults(&c.params, t);
	for (unsigned i = 0; sets && sets[i]; i++)
		if (!ss_params_set(&c.params, "sis_util", sets[i], &err))
			fail_msg("%s", err->message);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.warmup_ns = warmup_ns;
	c.duration_ns = duration_ns;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	return r;
}

static const char one_cpu[] = "name: one\nvendor: arm\ncores: \"0\"\n";
static const char four_cpus[] = "name: four\nvendor: arm\ncores: \"0-3\"\n";

/* A hog per instance: 10 ms transactions of pure work. */
static const char hog_yaml[] =
	"name: hog\ninstance: task\n%s"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n  - name: h\n%s    program:\n      - loop:\n          forever: true\n          do:\n"
	"            - transaction: begin\n            - run: 10ms\n            - transaction: end\n";

static struct ss_workload *hogs(const char *per_cpu, const char *role_keys)
{
	char y[1024];
	snprintf(y, sizeof y, hog_yaml, per_cpu, role_keys);
	return wl_from(y);
}

/*
 * The tick of a busy CPU steals cost.tick_ns from the task it interrupts:
 * 250 ticks a second (HZ 250), each transaction of 10 ms of work takes
 * 2.5 ticks × 2300 ns longer, and the figures count every tick.
 */
static void test_tick_cost(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(one_cpu);
	struct ss_workload *w = hogs("", "");
	static const char *const tick_only[] = { "cost.kthread_rate_hz=0", "cost.rq_lock_all=0", "cost.idle_states=0",
						 "cost.context_switch_ns=0", NULL };
	static const char *const off[] = { "cost.background=0", "cost.rq_lock_all=0", "cost.idle_states=0",
					   "cost.context_switch_ns=0", NULL };
	struct ss_results *r = run(t, w, tick_only, 0, 1000 * MS), *r0 = run(t, w, off, 0, 1000 * MS);
	double mean = (double)r->txn_latency.sum / (double)r->txn_latency.n;
	double mean0 = (double)r0->txn_latency.sum / (double)r0->txn_latency.n;

	assert_true(r->background.ticks >= 249 && r->background.ticks <= 250);
	assert_int_equal(r->background.tick_ns, r->background.ticks * 2300);
	assert_int_equal(r->background.kthread_wakeups, 0);
	assert_int_equal(mean0, 10 * MS);
	/* 10 ms / 4 ms = 2.5 ticks per transaction, 5750 ns (a transaction holds 2 or 3 ticks) */
	assert_true(mean - mean0 >= 4600 && mean - mean0 <= 6900);
	assert_int_equal(r0->background.ticks, 0);
	assert_int_equal(r0->background.tick_ns, 0);
	/* the JSON's time lost and background figures */
	char *j = ss_results_to_json(r);
	char want[64];
	snprintf(want, sizeof want, "\"tick\":\t%llu", (unsigned long long)r->background.tick_ns);
	assert_non_null(strstr(j, want));
	assert_non_null(strstr(j, "\"background\":\t{"));
	g_free(j);
	ss_results_free(r);
	ss_results_free(r0);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * scheduler_tick() takes its rq's lock: one acquisition per busy tick, with
 * or without the interrupt's cost (cost.tick_ns=0), under cost.rq_lock_all;
 * neither with cost.background=0 (the clean machine).
 */
static void test_tick_lock(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(one_cpu);
	struct ss_workload *w = hogs("", "");
	static const char *const lock[] = { "cost.tick_ns=0", "cost.kthread_rate_hz=0", NULL };
	static const char *const nolock[] = { "cost.tick_ns=0", "cost.kthread_rate_hz=0", "cost.rq_lock_all=0", NULL };
	static const char *const off[] = { "cost.background=0", NULL };
	struct ss_results *r = run(t, w, lock, 0, 1000 * MS), *r0 = run(t, w, nolock, 0, 1000 * MS);
	struct ss_results *r1 = run(t, w, off, 0, 1000 * MS);

	assert_true(r->contention.lock_acquires[SS_LOCK_TICK] >= 249 && r->contention.lock_acquires[SS_LOCK_TICK] <= 250);
	assert_int_equal(r->contention.lock_acquires[SS_LOCK_TICK], r->background.ticks);
	assert_int_equal(r->background.tick_ns, 0);
	assert_int_equal(r->contention.lock_contended[SS_LOCK_TICK], 0);   /* nobody else takes it */
	assert_int_equal(r0->contention.lock_acquires[SS_LOCK_TICK], 0);
	assert_int_equal(r1->contention.lock_acquires[SS_LOCK_TICK], 0);
	assert_int_equal(r1->background.ticks, 0);
	ss_results_free(r);
	ss_results_free(r0);
	ss_results_free(r1);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * A kworker per CPU, woken at cost.kthread_rate_hz (Poisson) from the
 * ticks of its busy CPU: 4 busy CPUs × 11/s × 10 s ≈ 440 activations of
 * 3000 ns; none of them is a wakeup of the workload. With one busy CPU
 * and three idle ones, the idle CPUs' kworkers do not run (deferrable:
 * no tick, no activation), so only about a quarter as many.
 */
static void test_kworker_rate(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w4 = hogs("instances_per_cpu: 1\n", ""), *w1 = hogs("instances_per_cpu: 0.25\n", "");
	struct ss_results *r = run(t, w4, NULL, 0, 10000 * MS), *r1 = run(t, w1, NULL, 0, 10000 * MS);

	assert_int_equal(r->nr_tasks, 4);   /* the workload's tasks only */
	if (r->background.kthread_wakeups < 380 || r->background.kthread_wakeups > 500)
		fail_msg("%llu kworker activations (expected about 440)", (unsigned long long)r->background.kthread_wakeups);
	/* at this rate nearly every activation takes one item (two fall in one tick now and then); the CPU
	 * time from switch in to switch out: the work and the switch */
	assert_true(r->background.kthread_items >= r->background.kthread_wakeups &&
		    r->background.kthread_items <= r->background.kthread_wakeups * 21 / 20);
	assert_true(r->background.kthread_ns >= r->background.kthread_items * 3000 &&
		    r->background.kthread_ns <= r->background.kthread_items * (3000 + 2000 + 2500));
	assert_int_equal(r->wakeups, 0);                      /* the hogs never sleep */
	assert_int_equal(r->wakeup_latency.n, 0);
	assert_true(r->background.kthread_latency.n > 0 && r->background.kthread_latency.n <= r->background.kthread_wakeups);
	/* each activation switches to the kworker and back: two switches */
	assert_true(r->context_switches >= 2 * r->background.kthread_latency.n);
	assert_int_equal(r1->nr_tasks, 1);
	if (r1->background.kthread_wakeups < 70 || r1->background.kthread_wakeups > 170)
		fail_msg("%llu kworker activations with one busy CPU (expected about 110)",
			 (unsigned long long)r1->background.kthread_wakeups);
	ss_results_free(r);
	ss_results_free(r1);
	ss_workload_free(w4);
	ss_workload_free(w1);
	ss_topology_free(t);
}

/*
 * Work items above the tick rate (HZ 250) are batched: 2000 items per
 * CPU-second come in at most 250 activations a second, each doing the
 * work of the items it took, and the kworkers' CPU time is what they held
 * their CPUs in the window, whatever each activation's length (one item of
 * 100 ms: the window ends inside it).
 */
static void test_kworker_batches(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w = hogs("instances_per_cpu: 1\n", "");
	static const char *const fast[] = { "cost.kthread_rate_hz=2000", NULL };
	static const char *const long_item[] = { "cost.kthread_rate_hz=1", "cost.kthread_ns=100ms", NULL };
	struct ss_results *r = run(t, w, fast, 0, 2000 * MS), *r1 = run(t, w, long_item, 0, 2000 * MS);
	uint64_t items = r->background.kthread_items;

	if (items < 4 * 2 * 2000 * 9 / 10 || items > 4 * 2 * 2000 * 11 / 10)
		fail_msg("%llu work items (expected about 16000)", (unsigned long long)items);
	assert_true(r->background.kthread_wakeups <= 4 * 2 * 250);
	assert_true(r->background.kthread_wakeups < items);
	assert_true(r->background.kthread_ns >= items * 3000);
	/* 2 s on 4 CPUs: the kworkers' share stays below the window's CPU time */
	assert_true(r1->background.kthread_ns <= 4 * 2000 * MS);
	assert_true(r1->background.kthread_ns >= r1->background.kthread_wakeups * 50 * MS);
	ss_results_free(r);
	ss_results_free(r1);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * A kworker waiting for its CPU is bound to it: it is not work an idle
 * CPU could take. One hog pinned to CPU 0 (so its own waits are not
 * either): the affinity-aware idle-with-work figure stays 0 while the
 * kworker and the hog take turns on CPU 0 beside three idle CPUs.
 */
static void test_kworker_not_work_elsewhere(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w = hogs("instances_per_cpu: 0.25\n", "    cpus: \"0\"\n    start_cpu: 0\n");
	struct ss_results *r = run(t, w, NULL, 0, 10000 * MS);

	assert_true(r->background.kthread_wakeups > 50);
	assert_int_equal(r->idle_work_allowed_ns, 0);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* cost.background=0 is the clean machine: the same run as no tick cost and no kworker. */
static void test_switch_off(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w = hogs("instances_per_cpu: 1\n", "");
	static const char *const off[] = { "cost.background=0", NULL };
	static const char *const zero[] = { "cost.tick_ns=0", "cost.kthread_rate_hz=0", NULL };
	struct ss_results *a = run(t, w, off, 10 * MS, 1000 * MS), *b = run(t, w, zero, 10 * MS, 1000 * MS);

	assert_int_equal(a->background.ticks + a->background.kthread_wakeups + a->background.tick_ns, 0);
	assert_int_equal(a->transactions, b->transactions);
	assert_int_equal(a->context_switches, b->context_switches);
	assert_int_equal(a->txn_latency.sum, b->txn_latency.sum);
	ss_results_free(a);
	ss_results_free(b);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* A machine's own background figures: topology costs {tick_ns, kthread_rate_hz, kthread_ns}. */
static void test_topology_costs(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from("name: own\nvendor: arm\ncosts: {tick_ns: 1200, kthread_rate_hz: 40, kthread_ns: 5000}\n"
					  "cores: \"0-1\"\n");
	struct ss_params p;
	GError *err = NULL;
	char *txt;

	ss_params_defaults(&p, t);
	assert_int_equal(p.tick_ns, 1200);
	assert_int_equal(p.kthread_rate_hz, 40);
	assert_int_equal(p.kthread_ns, 5000);
	txt = ss_topology_describe(t, "text", &err);
	assert_non_null(txt);
	assert_non_null(strstr(txt, "background work (* = from this file, else the default): tick 1200 ns*, "
				    "kworker 40 per CPU-second* of 5000 ns*"));
	g_free(txt);
	ss_topology_free(t);
	t = topo_from(four_cpus);
	ss_params_defaults(&p, t);
	assert_int_equal(p.tick_ns, 2300);
	assert_int_equal(p.kthread_rate_hz, 11);
	assert_int_equal(p.kthread_ns, 3000);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tick_cost),
		cmocka_unit_test(test_tick_lock),
		cmocka_unit_test(test_kworker_rate),
		cmocka_unit_test(test_kworker_batches),
		cmocka_unit_test(test_kworker_not_work_elsewhere),
		cmocka_unit_test(test_switch_off),
		cmocka_unit_test(test_topology_costs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

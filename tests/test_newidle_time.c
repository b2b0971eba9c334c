/*
 * cost.newidle_time (docs/model.md "How each cost is charged"): a
 * newidle_balance() that pulls nothing holds its CPU in schedule() for its
 * modelled time. Constructed states: the held time is busy time, exactly
 * the balance's cost; a wakeup of the task that blocked while its CPU still
 * balances goes back to that CPU without select_task_rq() (WF_ON_CPU);
 * cost.newidle_time=0 gives the instantaneous balance and a zero counter.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "machine_helpers.h"

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
		if (!ss_params_set(&c.params, c.policy, sets[i], &err))
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

/*
 * Two CPUs: two hogs pinned to CPU 1 keep the root domain overloaded, a
 * task pinned to CPU 0 runs 100 us and sleeps 100 us. Each time it sleeps
 * CPU 0 balances (newidle) and finds only pinned tasks. Held, that balance
 * is CPU 0's busy time: CPU 0 is busy longer by exactly the held time,
 * which is the newidle passes' modelled cost; the timer-driven work is the
 * same. Off: the counter is 0.
 */
static void test_held_time_is_busy(void **unused)
{
	static const char yaml[] =
		"name: held\ninstance: set\ninstances_per_cpu: 0.001\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: hog1, start_cpu: 1, cpus: \"1\", program: [loop: {forever: true, do: [run: 1ms]}]}\n"
		"  - {name: hog2, start_cpu: 1, cpus: \"1\", program: [loop: {forever: true, do: [run: 1ms]}]}\n"
		"  - {name: s, start_cpu: 0, cpus: \"0\", program: [loop: {forever: true, do: [transaction: begin, "
		"run: 100us, transaction: end, sleep: 100us]}]}\n";
	struct ss_topology *t = topo_from("name: two\nvendor: arm\ncores: \"0-1\"\n");
	struct ss_workload *w = wl_from(yaml);
	struct ss_results *r[2];
	(void)unused;

	for (int k = 0; k < 2; k++) {
		/* no background work: the tick and kworkers would fall into the
		 * held windows at different moments in the two runs */
		const char *const sets[] = { "cost.background=0", k ? "cost.newidle_time=0" : "cost.newidle_time=1", NULL };
		r[k] = run(t, w, sets, 20000000, 20000000);
	}
	assert_true(r[0]->lb[1].passes > 50);
	assert_true(r[0]->newidle_held_ns > 0);
	assert_int_equal(r[0]->newidle_held_ns, r[0]->lb[1].cost_ns);
	assert_int_equal(r[0]->lb[1].moved, 0);
	assert_int_equal(r[1]->newidle_held_ns, 0);
	assert_int_equal(r[0]->transactions, r[1]->transactions);
	assert_int_equal(r[0]->cpu[0].busy_ns - r[1]->cpu[0].busy_ns, r[0]->newidle_held_ns);
	assert_int_equal(r[0]->cpu[1].busy_ns, r[1]->cpu[1].busy_ns);
	for (int k = 0; k < 2; k++)
		ss_results_free(r[k]);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Four CPUs: a hog and a ticker pinned to CPU 3 (each ticker wakeup makes
 * CPU 3's nr_running 2: add_nr_running() marks the root domain
 * overloaded; a pass that finds only pinned tasks there clears it again,
 * load_balance()'s LBF_ALL_PINNED redo), and a free ping-pong pair. Each
 * side blocks after waking the other; its CPU balances (one pass over the
 * 4-CPU domain, made long by cost.lb_pass_ns) and the reply often comes
 * before the pass ends: p->on_cpu, so try_to_wake_up() queues it on its
 * own CPU's wake list and select_task_rq() is not asked. The pair's
 * wakeups (two per transaction) are then select_idle_sibling() calls or
 * such wakeups, and nothing migrates. Off: no such wakeup.
 */
static void test_wakeup_while_on_cpu(void **unused)
{
	static const char yaml[] =
		"name: pingpong\ninstance: set\ninstances_per_cpu: 0.001\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: hog, start_cpu: 3, cpus: \"3\", program: [loop: {forever: true, do: [run: 1ms]}]}\n"
		"  - {name: ticker, start_cpu: 3, cpus: \"3\", program: [loop: {forever: true, do: [run: 1us, sleep: 10us]}]}\n"
		"  - {name: a, start_cpu: 0, program: [loop: {forever: true, do: [transaction: begin, "
		"run: {uniform: [2us, 30us]}, wake: b, wait: 1, transaction: end]}]}\n"
		"  - {name: b, start_cpu: 1, program: [loop: {forever: true, do: [wait: 1, run: {uniform: [2us, 30us]}, "
		"wake: a]}]}\n";
	struct ss_topology *t = topo_from("name: four\nvendor: arm\ncores: \"0-3\"\n");
	struct ss_workload *w = wl_from(yaml);
	struct ss_results *r[2];
	(void)unused;

	for (int k = 0; k < 2; k++) {
		const char *const sets[] = { "cost.background=0", "cost.lb_pass_ns=15000",
					     k ? "cost.newidle_time=0" : "cost.newidle_time=1", NULL };
		r[k] = run(t, w, sets, 5000000, 50000000);
	}
	for (int k = 0; k < 2; k++) {
		int64_t pair = 2 * (int64_t)r[k]->transactions, seen = (int64_t)(r[k]->sis_calls + r[k]->wakeups_on_cpu);
		assert_true(r[k]->transactions > 500);
		/* the window cuts at most one round trip */
		assert_true(seen >= pair - 2 && seen <= pair + 2);
		assert_int_equal(r[k]->migrations, 0);
	}
	assert_true(r[0]->wakeups_on_cpu > 100);
	assert_true(r[0]->sis_calls > 100);
	assert_true(r[0]->newidle_held_ns > 0);
	assert_int_equal(r[1]->wakeups_on_cpu, 0);
	assert_int_equal(r[1]->newidle_held_ns, 0);
	for (int k = 0; k < 2; k++)
		ss_results_free(r[k]);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_held_time_is_busy),
		cmocka_unit_test(test_wakeup_while_on_cpu),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

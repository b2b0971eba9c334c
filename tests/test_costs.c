/*
 * The cost model (docs/model.md "Costs"): SMT contention, memory bandwidth,
 * cache refill after migration, idle states (exit latency, polling without an
 * IPI), rq-lock serialisation, and for every cost: its parameter at 0 makes
 * its time-lost counter 0.
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

static struct ss_topology *topo_from(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "inline-topology.yaml", &err);
	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static struct ss_workload *wl_from(const char *yaml)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(yaml, strlen(yaml), "inline.yaml", &err);
	if (!w)
		fail_msg("%s", err->message);
	return w;
}

static struct ss_results *run(const struct ss_topology *t, const struct ss_workload *w, const char *policy,
			      const char *const *sets, uint64_t warmup, uint64_t duration)
{
	struct ss_run_config c = { 0 };
	GError *err = NULL;
	struct ss_results *r;
	c.topo = t;
	c.wl = w;
	c.policy = policy;
	ss_params_defaults(&c.params, t);
	for (unsigned i = 0; sets && sets[i]; i++)
		if (!ss_params_set(&c.params, policy, sets[i], &err))
			fail_msg("%s", err->message);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.warmup_ns = warmup;
	c.duration_ns = duration;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	return r;
}

/* Two CPU-bound tasks, each started on its own CPU (0 and 1), counting 1 ms runs. */
static const char two_hogs[] =
	"name: hogs\ninstance: set\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n"
	"  - name: a\n    start_cpu: 0\n"
	"    program: [loop: {forever: true, do: [transaction: begin, run: 1ms, transaction: end]}]\n"
	"  - name: b\n    start_cpu: 1\n"
	"    program: [loop: {forever: true, do: [transaction: begin, run: 1ms, transaction: end]}]\n";

/* Two busy threads on one core run slower than on two cores, by 1/(1 + pct/100). */
static void test_smt_contention(void **state)
{
	struct ss_topology *smt = topo_from("name: smt\nvendor: intel\ncores:\n  - [0, 1]\n");
	struct ss_topology *two = topo_from("name: two\nvendor: intel\ncores: \"0-1\"\n");
	struct ss_workload *w = wl_from(two_hogs);
	struct ss_results *a = run(smt, w, "sis_util", NULL, 10000000, 100000000);
	struct ss_results *b = run(two, w, "sis_util", NULL, 10000000, 100000000);
	static const char *const off[] = { "cost.smt_contention_pct=0", NULL };
	struct ss_results *c = run(smt, w, "sis_util", off, 10000000, 100000000);

	/* 2 × 100 runs of 1 ms in 100 ms on two cores; at 1/1.6 speed on one core: 2 × 62 */
	assert_in_range(b->transactions, 198, 200);
	assert_in_range(a->transactions, 122, 126);
	assert_true(a->lost.smt > 0);
	/* about 37.5 % of 2 × 100 ms of CPU time */
	assert_in_range(a->lost.smt, 70000000, 80000000);
	assert_int_equal(b->lost.smt, 0);
	assert_int_equal(c->lost.smt, 0);
	assert_int_equal(c->transactions, b->transactions);
	ss_results_free(a);
	ss_results_free(b);
	ss_results_free(c);
	ss_workload_free(w);
	ss_topology_free(smt);
	ss_topology_free(two);
}

/* Memory-bound tasks homed on one node share its bandwidth; spread they do not. */
static void test_memory_bandwidth(void **state)
{
	static const char topo[] = "name: bw\nvendor: arm\ncosts: {node_bandwidth_mbps: 10000}\n"
				   "numa: {distance: [[10, 20], [20, 10]]}\n"
				   "nodes:\n  - cores: \"0-1\"\n  - cores: \"2-3\"\n";
	static const char stacked[] =
		"name: bw\ninstance: set\ninstances_per_cpu: 0.001\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: a\n    start_cpu: 0\n    memory_bandwidth: 8GB/s\n    memory_node: 0\n"
		"    program: [loop: {forever: true, do: [transaction: begin, run: 1ms, transaction: end]}]\n"
		"  - name: b\n    start_cpu: 2\n    memory_bandwidth: 8GB/s\n    memory_node: 0\n"
		"    program: [loop: {forever: true, do: [transaction: begin, run: 1ms, transaction: end]}]\n";
	struct ss_topology *t = topo_from(topo);
	struct ss_workload *ws = wl_from(stacked);
	g_autofree char *spread_yaml = g_strdup(stacked);
	/* the same with first-touch homes: node 0 and node 1 */
	for (char *p = spread_yaml; (p = strstr(p, "memory_node: 0")); p += 14)
		memcpy(p, "memory_node:-1", 14);
	char *second = strstr(spread_yaml, "memory_node:-1");
	memcpy(second, "memory_node: 0", 14);              /* a: node 0 */
	second = strstr(second + 14, "memory_node:-1");
	memcpy(second, "memory_node: 1", 14);              /* b: node 1 */
	struct ss_workload *wsp = wl_from(spread_yaml);
	struct ss_results *a = run(t, ws, "sis_util", NULL, 10000000, 100000000);
	struct ss_results *b = run(t, wsp, "sis_util", NULL, 10000000, 100000000);
	static const char *const off[] = { "cost.node_bandwidth_mbps=0", NULL };
	struct ss_results *c = run(t, ws, "sis_util", off, 10000000, 100000000);

	/* stacked: 16 GB/s asked of 10 GB/s, each at 10/16 speed */
	assert_in_range(a->transactions, 122, 126);
	assert_true(a->lost.memory_bandwidth > 70000000);
	assert_in_range(b->transactions, 198, 200);
	assert_int_equal(b->lost.memory_bandwidth, 0);
	assert_int_equal(c->lost.memory_bandwidth, 0);
	assert_int_equal(c->transactions, b->transactions);
	ss_results_free(a);
	ss_results_free(b);
	ss_results_free(c);
	ss_workload_free(ws);
	ss_workload_free(wsp);
	ss_topology_free(t);
}

/* A periodic sleeper: its CPU idles ~1 ms each period. */
static const char sleeper[] =
	"name: sleeper\ninstance: task\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n  - name: t\n    start_cpu: 0\n"
	"    program: [loop: {forever: true, do: [sleep: 1ms, transaction: begin, run: 20us, transaction: end]}]\n";

/* The exit latency of the state menu picks appears in the wakeup latency. */
static void test_idle_exit_latency(void **state)
{
	struct ss_topology *deep = topo_from("name: deep\nvendor: intel\ncores: \"0-1\"\n"
					     "idle_states:\n"
					     "  - {name: C1, exit_latency_us: 2, target_residency_us: 2}\n"
					     "  - {name: C6, exit_latency_us: 100, target_residency_us: 400}\n");
	struct ss_workload *w = wl_from(sleeper);
	struct ss_results *a = run(deep, w, "sis_util", NULL, 20000000, 100000000);
	static const char *const off[] = { "cost.idle_states=0", NULL };
	struct ss_results *b = run(deep, w, "sis_util", off, 20000000, 100000000);
	double mean_a = (double)a->wakeup_latency.sum / (double)a->wakeup_latency.n;
	double mean_b = (double)b->wakeup_latency.sum / (double)b->wakeup_latency.n;

	/* idle periods of ~1 ms: menu's typical interval picks C6 once it has history */
	assert_true(a->idle_state_entries[1] > 80);
	assert_true(a->idle_state_entries[1] > 10 * a->idle_state_entries[0]);
	assert_true(mean_a - mean_b > 95000.0 && mean_a - mean_b < 101000.0);
	assert_true(a->lost.idle_exit >= 100000ull * a->idle_state_entries[1] - 100000);
	assert_int_equal(b->lost.idle_exit, 0);
	ss_results_free(a);
	ss_results_free(b);
	ss_workload_free(w);
	ss_topology_free(deep);
}

/* A request/response pair across two CPUs (client on 0, server on 1, no migration). */
static const char pingpong[] =
	"name: pp\ninstance: pair\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n"
	"  - name: client\n    start_cpu: 0\n"
	"    program: [loop: {forever: true, do: [transaction: begin, run: 5us, wake: server, wait: 1, transaction: end]}]\n"
	"  - name: server\n    start_cpu: 1\n"
	"    program: [loop: {forever: true, do: [wait: 1, run: 5us, wake: client]}]\n";

/* A polling idle CPU is woken without an IPI (set_nr_if_polling). */
static void test_polling_sends_no_ipi(void **state)
{
	struct ss_topology *poll = topo_from("name: poll\nvendor: intel\ncores: \"0-1\"\n"
					     "idle_states: [{name: POLL, exit_latency_us: 0, target_residency_us: 0, polling: true}]\n");
	struct ss_topology *c1 = topo_from("name: c1\nvendor: intel\ncores: \"0-1\"\n"
					   "idle_states: [{name: C1, exit_latency_us: 0, target_residency_us: 0}]\n");
	struct ss_workload *w = wl_from(pingpong);
	struct ss_results *a = run(poll, w, "prev_cpu", NULL, 1000000, 10000000);
	struct ss_results *b = run(c1, w, "prev_cpu", NULL, 1000000, 10000000);

	assert_true(a->wakeups > 1000);
	assert_int_equal(a->ipis, 0);
	assert_int_equal(a->lost.ipi, 0);
	assert_true(a->ipis_saved_polling >= a->wakeups - 2);
	assert_true(b->ipis >= b->wakeups - 2);
	assert_int_equal(b->ipis_saved_polling, 0);
	assert_int_equal(b->lost.ipi, b->ipis * 1500);
	/* no IPI round trip: more transactions */
	assert_true(a->transactions > b->transactions);
	ss_results_free(a);
	ss_results_free(b);
	ss_workload_free(w);
	ss_topology_free(poll);
	ss_topology_free(c1);
}

/*
 * A task woken alternately (WF_SYNC) by a waker in each of two LLCs follows
 * its waker (wake_affine, then an idle CPU of the waker's LLC) and pays the
 * refill of its 1 MiB working set at each cross-LLC move.
 */
static void test_cache_refill(void **state)
{
	static const char topo[] = "name: twollc\nvendor: arm\nllcs:\n  - cores: \"0-1\"\n  - cores: \"2-3\"\n";
	static const char yaml[] =
		"name: mover\ninstance: set\ninstances_per_cpu: 0.001\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: a\n    start_cpu: 0\n"
		"    program: [loop: {forever: true, do: [transaction: begin, run: 20us, wake: {task: m, sync: true}, wait: 1, transaction: end]}]\n"
		"  - name: m\n    start_cpu: 1\n    working_set: 1MiB\n"
		"    program: [loop: {forever: true, do: [wait: 1, run: 20us, wake: b, wait: 1, run: 20us, wake: a]}]\n"
		"  - name: b\n    start_cpu: 2\n"
		"    program: [loop: {forever: true, do: [wait: 1, run: 20us, wake: {task: m, sync: true}]}]\n";
	struct ss_topology *t = topo_from(topo);
	struct ss_workload *w = wl_from(yaml);
	struct ss_results *a = run(t, w, "sis_util", NULL, 2000000, 20000000);
	static const char *const off[] = { "cost.refill_llc_ns_per_kib=0", "cost.refill_cross_llc_ns_per_kib=0",
					   "cost.refill_cross_node_ns_per_kib=0", NULL };
	struct ss_results *b = run(t, w, "sis_util", off, 2000000, 20000000);
	const uint64_t cross = 1024 * 80;   /* 1 MiB × cost.refill_cross_llc_ns_per_kib */

	assert_true(a->migrations_llc > 10);
	assert_true(a->lost.cache_refill >= (a->migrations_llc - 1) * cross);
	assert_true(a->lost.cache_refill <= (a->migrations_llc + 1) * cross + a->migrations * 1024 * 30);
	assert_int_equal(b->lost.cache_refill, 0);
	assert_true(b->transactions > a->transactions);
	ss_results_free(a);
	ss_results_free(b);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * A clock task wakes four wakers (CPUs 1-4) at once; each wakes its sleeper
 * on CPU 0, which a hog keeps busy: prev_cpu places them there,
 * ttwu_queue_cond() says direct enqueue (same LLC, busy target), and the four
 * wakers serialise on rq 0's lock (waits 0, 200, 400, 600 ns per round).
 */
static void test_rq_lock_serialises(void **state)
{
	GString *y = g_string_new("name: lock\ninstance: set\ninstances_per_cpu: 0.001\n"
				  "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
				  "tasks:\n  - name: hog\n    start_cpu: 0\n    program: [loop: {forever: true, do: [run: 1ms]}]\n"
				  "  - name: clock\n    start_cpu: 5\n"
				  "    program: [loop: {forever: true, do: [run: 100us, wake: w1, wake: w2, wake: w3, wake: w4]}]\n");
	for (int i = 1; i <= 4; i++) {
		g_string_append_printf(y, "  - name: s%d\n    start_cpu: 0\n    program: [loop: {forever: true, do: [wait: 1, run: 1us]}]\n", i);
		g_string_append_printf(y, "  - name: w%d\n    start_cpu: %d\n"
				       "    program: [loop: {forever: true, do: [wait: 1, run: 1us, transaction: begin, wake: s%d, transaction: end]}]\n",
				       i, i, i);
	}
	struct ss_topology *t = topo_from("name: six\nvendor: arm\ncores: \"0-5\"\n");
	struct ss_workload *w = wl_from(y->str);
	/* the balancer would pull the sleepers off the hog's CPU: keep them there */
	static const char *const on[] = { "balance.load_balance=0", NULL };
	struct ss_results *a = run(t, w, "prev_cpu", on, 1000000, 10000000);
	static const char *const off[] = { "cost.rq_lock_ns=0", "balance.load_balance=0", NULL };
	struct ss_results *b = run(t, w, "prev_cpu", off, 1000000, 10000000);

	static const char *const ttwu_only[] = { "cost.rq_lock_all=0", "balance.load_balance=0", NULL };
	struct ss_results *c = run(t, w, "prev_cpu", ttwu_only, 1000000, 10000000);
	const struct ss_contention_stats *ca = &a->contention, *cc = &c->contention;

	/* remote direct enqueues only: each round's four wakers wait 0, 200,
	 * 400 and 600 ns, exactly */
	assert_true(c->transactions > 350);
	assert_int_equal(cc->lock_acquires[SS_LOCK_SCHEDULE] + cc->lock_acquires[SS_LOCK_DRAIN] +
				 cc->lock_acquires[SS_LOCK_BALANCE], 0);
	{
		/* (the window may cut a round at each end) */
		uint64_t rounds = cc->lock_acquires[SS_LOCK_TTWU] / 4;
		assert_in_range(c->lost.rq_lock, rounds * 1200 - 1200, rounds * 1200 + 1200);
		assert_in_range(cc->lock_contended[SS_LOCK_TTWU], rounds * 3 - 3, rounds * 3 + 3);
		assert_int_equal(c->lost.rq_lock % 200, 0);
	}
	/* with the owner's __schedule() taking it too: the wakers still wait
	 * for each other; CPU 0's switches (the sleepers preempting the hog)
	 * take it after the enqueue that caused them is over, so they never
	 * wait for a waker, and a switch right after another of CPU 0's own is
	 * a delay, not contention */
	assert_true(a->transactions > 250);
	assert_in_range(ca->lock_wait_ns[SS_LOCK_TTWU], ca->lock_acquires[SS_LOCK_TTWU] / 4 * 1200,
			ca->lock_acquires[SS_LOCK_TTWU] / 4 * 2000);
	assert_true(ca->lock_acquires[SS_LOCK_SCHEDULE] > 1000);
	assert_int_equal(ca->lock_contended[SS_LOCK_SCHEDULE], 0);
	assert_int_equal(a->lost.rq_lock, ca->lock_wait_ns[SS_LOCK_TTWU] + ca->lock_wait_ns[SS_LOCK_SCHEDULE] +
						  ca->lock_wait_ns[SS_LOCK_DRAIN] + ca->lock_wait_ns[SS_LOCK_BALANCE]);
	assert_int_equal(b->lost.rq_lock, 0);
	for (unsigned k = 0; k < SS_LOCK_NR; k++)
		assert_int_equal(b->contention.lock_acquires[k], 0);
	ss_results_free(c);
	ss_results_free(a);
	ss_results_free(b);
	ss_workload_free(w);
	ss_topology_free(t);
	g_string_free(y, TRUE);
}

/* Every cost's time-lost counter is 0 when its parameter is 0 — on a busy SMT NUMA machine. */
static void test_each_cost_zero(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/xeon6148.yaml", &err);
	struct ss_workload *w = wl_from(
		"name: mix\ninstance: pair\ninstances_per_cpu: 0.5\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: client\n    working_set: 256KiB\n    memory_bandwidth: 20GB/s\n"
		"    program: [loop: {forever: true, do: [transaction: begin, run: {exponential: 20us}, wake: server, wait: 1, transaction: end, sleep: {exponential: 30us}]}]\n"
		"  - name: server\n    working_set: 256KiB\n"
		"    program: [loop: {forever: true, do: [wait: 1, run: {exponential: 30us}, wake: client]}]\n"
		"  - name: hog\n    memory_bandwidth: 20GB/s\n    memory_node: 0\n"
		"    program: [loop: {forever: true, do: [run: 1ms]}]\n");
	assert_non_null(t);
	static const struct {
		const char *set;
		size_t off;
	} costs[] = {
		{ "cost.context_switch_ns=0", offsetof(struct ss_time_lost, context_switch) },
		{ "cost.ipi_ns=0", offsetof(struct ss_time_lost, ipi) },
		{ "cost.idle_states=0", offsetof(struct ss_time_lost, idle_exit) },
		{ "cost.smt_contention_pct=0", offsetof(struct ss_time_lost, smt) },
		{ "cost.node_bandwidth_mbps=0", offsetof(struct ss_time_lost, memory_bandwidth) },
		{ "cost.rq_lock_ns=0", offsetof(struct ss_time_lost, rq_lock) },
	};
	struct ss_results *base = run(t, w, "sis_prop", NULL, 5000000, 20000000);
	for (size_t i = 0; i < G_N_ELEMENTS(costs); i++) {
		const char *const sets[] = { costs[i].set, NULL };
		struct ss_results *r = run(t, w, "sis_prop", sets, 5000000, 20000000);
		uint64_t on = *(const uint64_t *)(const void *)((const char *)&base->lost + costs[i].off);
		uint64_t off = *(const uint64_t *)(const void *)((const char *)&r->lost + costs[i].off);
		if (costs[i].off != offsetof(struct ss_time_lost, rq_lock))
			assert_true(on > 0);   /* the base run exercises the cost */
		assert_int_equal(off, 0);
		ss_results_free(r);
	}
	{
		const char *const sets[] = { "cost.probe_self_ns=0", "cost.probe_smt_ns=0", "cost.probe_cluster_ns=0",
					     "cost.probe_llc_ns=0", "cost.probe_package_ns=0", "cost.probe_remote_ns=0",
					     "cost.line_cached_ns=0", NULL };
		struct ss_results *r = run(t, w, "sis_prop", sets, 5000000, 20000000);
		assert_true(base->lost.probe > 0);
		assert_int_equal(r->lost.probe, 0);
		ss_results_free(r);
	}
	{
		const char *const sets[] = { "cost.refill_llc_ns_per_kib=0", "cost.refill_cross_llc_ns_per_kib=0",
					     "cost.refill_cross_node_ns_per_kib=0", NULL };
		struct ss_results *r = run(t, w, "sis_prop", sets, 5000000, 20000000);
		assert_true(base->lost.cache_refill > 0);
		assert_int_equal(r->lost.cache_refill, 0);
		ss_results_free(r);
	}
	{
		/* time_lost_ns.newidle_balance (not in struct ss_time_lost: appended to the results) */
		const char *const sets[] = { "cost.newidle_time=0", NULL };
		struct ss_results *r = run(t, w, "sis_prop", sets, 5000000, 20000000);
		assert_true(base->newidle_held_ns > 0);
		assert_int_equal(r->newidle_held_ns, 0);
		assert_int_equal(r->wakeups_on_cpu, 0);
		ss_results_free(r);
	}
	ss_results_free(base);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* Bad idle-state tables are refused with file:line:col. */
static void test_bad_idle_states(void **state)
{
	static const char *const bad[] = {
		"name: x\nvendor: intel\ncores: \"0-1\"\nidle_states: []\n",
		"name: x\nvendor: intel\ncores: \"0-1\"\nidle_states: [{name: C1, exit_latency_us: 2}]\n",
		"name: x\nvendor: intel\ncores: \"0-1\"\nidle_states: [{name: C6, exit_latency_us: 2, target_residency_us: 600}, "
		"{name: C1, exit_latency_us: 1, target_residency_us: 1}]\n",
		"name: x\nvendor: intel\ncores: \"0-1\"\nidle_states: [{name: C1, exit_latency_us: 2, target_residency_us: 2, polling: maybe}]\n",
		"name: x\nvendor: intel\ncores: \"0-1\"\nidle_states: [{name: C1, exit_latency_us: -2, target_residency_us: 2}]\n",
	};
	for (size_t i = 0; i < G_N_ELEMENTS(bad); i++) {
		GError *err = NULL;
		struct ss_topology *t = ss_topology_load_string(bad[i], strlen(bad[i]), "bad.yaml", &err);
		assert_null(t);
		assert_non_null(err);
		assert_non_null(strstr(err->message, "bad.yaml:4:"));
		g_error_free(err);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_smt_contention),
		cmocka_unit_test(test_memory_bandwidth),
		cmocka_unit_test(test_idle_exit_latency),
		cmocka_unit_test(test_polling_sends_no_ipi),
		cmocka_unit_test(test_cache_refill),
		cmocka_unit_test(test_rq_lock_serialises),
		cmocka_unit_test(test_each_cost_zero),
		cmocka_unit_test(test_bad_idle_states),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Contention (docs/model.md "Contention"), each mechanism on a constructed
 * state: a scheduler line read after its owner wrote it costs a transfer,
 * read again unwritten a hit; transfers of one line queue at its home; two
 * takers of one rq lock serialise in simulated time; two wakers whose scans
 * overlap can choose the same idle CPU; each switch zeroes its counters.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "simsched/state.h"
#include "machine_helpers.h"

/* A run of w on t under policy with the --set assignments sets (NULL-terminated, may be NULL). */
static struct ss_results *run(const struct ss_topology *t, const struct ss_workload *w, const char *policy,
			      const char *const *sets, uint64_t warmup_ns, uint64_t duration_ns)
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
	c.warmup_ns = warmup_ns;
	c.duration_ns = duration_ns;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	return r;
}

static struct ss_sim *state(const struct ss_topology *t, const char *policy)
{
	GError *err = NULL;
	struct ss_state_config c = { .topo = t, .policy = policy, .nr_tasks = 1 };
	struct ss_sim *s = ss_state_new(&c, &err);
	if (!s)
		fail_msg("%s", err->message);
	return s;
}

static void set_cpu(struct ss_sim *s, unsigned cpu, unsigned nr_running)
{
	GError *err = NULL;
	struct ss_cpu_desc d = { .nr_running = nr_running, .util_avg = nr_running ? 1024 : 0, .idle_state = -1 };
	if (!ss_state_set_cpu(s, cpu, &d, &err))
		fail_msg("%s", err->message);
}

/*
 * An idle Kunpeng 920 (clusters of 4, 32-CPU LLCs): a wakeup on CPU 0 whose
 * target is busy CPU 1 finds prev 2 idle; each probe costs its uncontended
 * core-to-core latency — the lines were written by their owners (idle
 * entry) since CPU 0 last read them. Again with nothing written: hits.
 * After CPU 2's owner writes its line: a transfer again. Without the
 * coherence model every probe costs cost.probe_* by distance, hit or not.
 */
static void test_line_written_or_not(void **unused)
{
	struct ss_topology *t = load_file("topologies/kunpeng920.yaml");
	struct ss_sim *s = state(t, "sis_util");
	struct ss_placement pl;
	const struct ss_params params = s->params, *pr = &params;   /* a copy: it outlives the first state */
	(void)unused;

	assert_true(pr->coherence);
	set_cpu(s, 1, 1);
	ss_state_set_waker(s, 0, -1);
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 2, 1, &pl), 2);
	assert_int_equal(pl.nr_probes, 2);   /* target 1 busy, prev 2 idle */
	assert_int_equal(pl.probes[0].cost_ns, pr->probe_cluster_ns);
	assert_int_equal(pl.probes[1].cost_ns, pr->probe_cluster_ns);
	assert_int_equal(pl.probes[0].cost_ns, 35);   /* kunpeng920.yaml costs.probe_cluster_ns: the c2c median */

	/* nothing written since: both lines are still in CPU 0's cache */
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 2, 1, &pl), 2);
	assert_int_equal(pl.probes[0].cost_ns, pr->line_cached_ns);
	assert_int_equal(pl.probes[1].cost_ns, pr->line_cached_ns);

	/* CPU 2's owner writes its line (its state set again): a transfer; CPU 1's stays a hit */
	set_cpu(s, 2, 0);
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 2, 1, &pl), 2);
	assert_int_equal(pl.probes[0].cost_ns, pr->line_cached_ns);
	assert_int_equal(pl.probes[1].cost_ns, pr->probe_cluster_ns);

	/* a waker in another LLC (CPU 40, node 1) pays the cross-die transfer for the same line */
	ss_state_set_waker(s, 40, -1);
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 2, 1, &pl), 2);
	assert_int_equal(pl.probes[1].cost_ns, pr->probe_package_ns);
	ss_state_free(s);

	/* cost.coherence=0: by distance every time */
	{
		GError *err = NULL;
		struct ss_state_config c = { .topo = t, .policy = "sis_util", .nr_tasks = 1 };
		s = ss_state_new(&c, &err);
		assert_non_null(s);
		/* the switch as a run sets it: the lines are not kept */
		s->coherence = false;
		set_cpu(s, 1, 1);
		ss_state_set_waker(s, 0, -1);
		for (int k = 0; k < 2; k++) {
			assert_int_equal(ss_state_select_idle_sibling(s, 0, 2, 1, &pl), 2);
			assert_int_equal(pl.probes[0].cost_ns, pr->probe_cluster_ns);
			assert_int_equal(pl.probes[1].cost_ns, pr->probe_cluster_ns);
		}
		ss_state_free(s);
	}
	ss_topology_free(t);
}

/*
 * The line's home serves one transfer at a time: three readers missing on
 * one line at the same instant wait 0, one and two transfer times; a reader
 * after the backlog drained waits nothing; cost.line_queue=0 never waits.
 */
static void test_line_queue(void **unused)
{
	struct ss_topology *t = load_file("topologies/kunpeng920.yaml");
	struct ss_sim *s = state(t, "sis_util");
	struct ss_cline *l = &s->cl_rq[5];
	uint64_t lat = s->params.probe_cluster_ns;   /* CPUs 4-7 share CPU 5's cluster */
	(void)unused;

	ss_cline_write(s, l, 5);
	assert_int_equal(ss_cline_read(s, l, 4, 1000, 1), lat);
	assert_int_equal(ss_cline_read(s, l, 6, 1000, 1), 2 * lat);
	assert_int_equal(ss_cline_read(s, l, 7, 1000, 1), 3 * lat);
	assert_int_equal(ss_cline_read(s, l, 7, 1000, 1), 1);   /* CPU 7 holds a copy now: the hit cost given */
	/* an earlier-stamped reader (the engine handles scans out of their probes' order) waits the backlog, no more */
	assert_int_equal(ss_cline_read(s, l, 8, 900, 1), s->params.probe_llc_ns + 3 * lat);
	/* drained */
	ss_cline_write(s, l, 5);
	assert_int_equal(ss_cline_read(s, l, 4, 100000, 1), lat);
	s->params.line_queue = 0;
	assert_int_equal(ss_cline_read(s, l, 6, 100000, 1), lat);
	assert_int_equal(ss_cline_read(s, l, 7, 100000, 1), lat);
	ss_state_free(s);
	ss_topology_free(t);
}

/*
 * rq->__lock: takers get the first free interval at or after their time,
 * whatever order the engine hands them in; waits are counted per taker.
 */
static void test_two_takers_of_one_lock(void **unused)
{
	struct ss_topology *t = topo_from("name: eight\nvendor: arm\ncores: \"0-7\"\n");
	struct ss_sim *s = state(t, "sis_util");
	struct ss_rq *rq = &s->rq[3];
	struct ss_results res, *own = s->res;
	(void)unused;

	memset(&res, 0, sizeof res);
	res.cpu = g_new0(struct ss_cpu_stats, s->nr_cpus);
	s->res = &res;   /* count into a results of the test's own (the state's back before it goes) */
	s->measuring = true;
	s->now = 100;
	assert_int_equal(ss_rq_lock(s, rq, 100, 200, 1, SS_LOCK_TTWU), 0);      /* [100, 300) */
	assert_int_equal(ss_rq_lock(s, rq, 150, 200, 2, SS_LOCK_TTWU), 150);    /* [300, 500) */
	assert_int_equal(ss_rq_lock(s, rq, 1000, 100, 3, SS_LOCK_SCHEDULE), 0); /* [1000, 1100) */
	/* a taker handed in later but stamped earlier fits a gap before */
	assert_int_equal(ss_rq_lock(s, rq, 500, 300, 4, SS_LOCK_DRAIN), 0);     /* [500, 800) */
	assert_int_equal(ss_rq_lock(s, rq, 700, 150, 5, SS_LOCK_BALANCE), 100); /* [800, 950) */
	assert_int_equal(ss_rq_lock(s, rq, 900, 100, 6, SS_LOCK_TTWU), 200);    /* [1100, 1200): [950, 1000) too short */
	assert_int_equal(res.contention.lock_acquires[SS_LOCK_TTWU], 3);
	assert_int_equal(res.contention.lock_contended[SS_LOCK_TTWU], 2);
	assert_int_equal(res.contention.lock_wait_ns[SS_LOCK_TTWU], 350);
	assert_int_equal(res.contention.lock_wait_ns[SS_LOCK_BALANCE], 100);
	assert_int_equal(res.cpu[3].rq_lock_acquires, 6);
	assert_int_equal(res.cpu[3].rq_lock_contended, 3);
	assert_int_equal(res.cpu[3].rq_lock_wait_ns, 450);
	assert_int_equal(res.lost.rq_lock, 450);
	/* the lock word shares the rq's first line: the last taker wrote it */
	assert_int_equal(s->cl_rq[3].writer, 6);
	/* once time has passed them, old intervals go */
	s->now = 5000;
	assert_int_equal(ss_rq_lock(s, rq, 5000, 100, 1, SS_LOCK_TTWU), 0);
	assert_int_equal(rq->nr_lock, 1);
	/* CPU 3's own drain, then the switch it causes: a delay of its own work, no contention */
	s->now = 8000;
	assert_int_equal(ss_rq_lock(s, rq, 8000, 200, 3, SS_LOCK_DRAIN), 0);
	assert_int_equal(ss_rq_lock(s, rq, 8000, 200, 3, SS_LOCK_SCHEDULE), 200);
	assert_int_equal(res.contention.lock_contended[SS_LOCK_SCHEDULE], 0);
	assert_int_equal(res.contention.lock_acquires[SS_LOCK_SCHEDULE], 2);
	assert_int_equal(res.lost.rq_lock, 450);
	/* behind its own hold and another CPU's: contended, the whole wait counted */
	assert_int_equal(ss_rq_lock(s, rq, 8300, 200, 2, SS_LOCK_TTWU), 100);   /* [8400, 8600) */
	assert_int_equal(ss_rq_lock(s, rq, 8000, 300, 3, SS_LOCK_SCHEDULE), 600); /* after 8600 */
	assert_int_equal(res.contention.lock_contended[SS_LOCK_SCHEDULE], 1);
	assert_int_equal(res.lost.rq_lock, 450 + 100 + 600);
	s->measuring = false;
	s->res = own;
	g_free(res.cpu);
	ss_state_free(s);
	ss_topology_free(t);
}

/*
 * Two wakers, on CPUs 1 and 2, woken at the same instant by two clocks (on
 * CPUs 7 and 5), each wake their sleeper at the same instant and run on;
 * both sleepers last ran on CPU 6, the only idle CPU (hogs on 0, 3, 4).
 * Each waker's select_idle_sibling() finds prev 6 idle. With
 * cost.claim_after_scan the first wakeup claims CPU 6 only when its scan
 * (one probe) is over, so the second waker, deciding meanwhile, chooses it
 * too: both chose it idle, one stacks, every round, and no domain search.
 * Claimed at the decision, the second finds prev taken, searches the LLC
 * (nothing idle) and falls back to prev: it did not choose an idle CPU, so
 * nothing counts as stacked.
 */
static void test_two_wakers_one_idle_cpu(void **unused)
{
	static const char yaml[] =
		"name: stack\ninstance: set\ninstances_per_cpu: 0.001\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: h0, start_cpu: 0, program: [loop: {forever: true, do: [run: 1ms]}]}\n"
		"  - {name: h3, start_cpu: 3, program: [loop: {forever: true, do: [run: 1ms]}]}\n"
		"  - {name: h4, start_cpu: 4, program: [loop: {forever: true, do: [run: 1ms]}]}\n"
		"  - {name: clock2, start_cpu: 5, program: [loop: {forever: true, do: [run: 200us, wake: w2]}]}\n"
		"  - {name: clock, start_cpu: 7, program: [loop: {forever: true, do: [run: 200us, wake: w1]}]}\n"
		"  - {name: w1, start_cpu: 1, program: [loop: {forever: true, do: [wait: 1, run: 1us, transaction: begin, wake: s1, transaction: end, run: 50us]}]}\n"
		"  - {name: w2, start_cpu: 2, program: [loop: {forever: true, do: [wait: 1, run: 1us, wake: s2, run: 50us]}]}\n"
		"  - {name: s1, start_cpu: 6, program: [loop: {forever: true, do: [wait: 1, run: 20us]}]}\n"
		"  - {name: s2, start_cpu: 6, program: [loop: {forever: true, do: [wait: 1, run: 20us]}]}\n";
	struct ss_topology *t = topo_from("name: eight\nvendor: arm\ncores: \"0-7\"\n");
	struct ss_workload *w = wl_from(yaml);
	struct ss_results *r[2];
	(void)unused;

	for (int k = 0; k < 2; k++) {
		/* the balancer would move the hogs and sleepers about */
		const char *const sets[] = { "balance.load_balance=0", k == 0 ? "cost.claim_after_scan=1" : "cost.claim_after_scan=0",
					     NULL };
		r[k] = run(t, w, "sis_util", sets, 1000000, 10000000);
	}
	/* 50 rounds in 10 ms: 4 wakeups onto idle CPUs each (w1, w2, s1, s2), one of the two onto 6 stacks */
	assert_int_equal(r[0]->transactions, 50);
	assert_int_equal(r[0]->contention.wakeups_chose_idle, 200);
	assert_int_equal(r[0]->contention.wakeups_stacked, 50);
	assert_int_equal(r[0]->sic_calls, 0);
	/* claimed at the decision: s2 searches and falls back to its busy prev */
	assert_int_equal(r[1]->transactions, 50);
	assert_int_equal(r[1]->contention.wakeups_chose_idle, 150);
	assert_int_equal(r[1]->contention.wakeups_stacked, 0);
	assert_int_equal(r[1]->sic_calls, 50);
	assert_int_equal(r[1]->sic_found, 0);
	for (int k = 0; k < 2; k++)
		ss_results_free(r[k]);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * One waker wakes four sleepers with one `wake: {which: all}` (the engine
 * handles the four wakeups at the same simulated time): its own earlier claims are visible to
 * its later scans, as the kernel's program order makes them, so the four go
 * to four CPUs and none stacks.
 */
static void test_one_waker_sees_its_claims(void **unused)
{
	static const char yaml[] =
		"name: fan\ninstance: set\ninstances_per_cpu: 0.001\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: w, start_cpu: 5, program: [loop: {forever: true, do: [run: 100us, transaction: begin, wake: {task: s, which: all}, transaction: end]}]}\n"
		"  - {name: s, count: 4, start_cpu: 1, program: [loop: {forever: true, do: [wait: 1, run: 20us]}]}\n";
	struct ss_topology *t = topo_from("name: eight\nvendor: arm\ncores: \"0-7\"\n");
	struct ss_workload *w = wl_from(yaml);
	static const char *const sets[] = { "balance.load_balance=0", NULL };
	/* from t = 0: in the first round all four last ran on CPU 1 */
	struct ss_results *r = run(t, w, "sis_util", sets, 0, 5000000);
	(void)unused;

	assert_true(r->transactions >= 45);
	assert_true(r->contention.wakeups_chose_idle >= 4 * (r->transactions - 1));
	assert_int_equal(r->contention.wakeups_stacked, 0);
	assert_int_equal(r->wakeups_busy, 0);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* Each switch zeroes what it governs, on a busy SMT NUMA machine. */
static void test_switches_zero_counters(void **unused)
{
	struct ss_topology *t = load_file("topologies/xeon6148.yaml");
	struct ss_workload *w = wl_from(
		"name: rr\ninstance: pair\ninstances_per_cpu: 1\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: client\n"
		"    program: [loop: {forever: true, do: [transaction: begin, run: {exponential: 10us}, wake: server, wait: 1, transaction: end]}]\n"
		"  - name: server\n"
		"    program: [loop: {forever: true, do: [wait: 1, run: {exponential: 10us}, wake: client]}]\n");
	static const char *const sets[][4] = {
		{ NULL }, { "cost.coherence=0" }, { "cost.line_queue=0" }, { "cost.claim_after_scan=0" },
		{ "cost.rq_lock_all=0" }, { "cost.rq_lock_ns=0" },
	};
	struct ss_results *r[G_N_ELEMENTS(sets)];
	(void)unused;

	for (size_t k = 0; k < G_N_ELEMENTS(sets); k++)
		r[k] = run(t, w, "sis_prop", sets[k], 5000000, 20000000);
	const struct ss_contention_stats *base = &r[0]->contention;
	/* the base run exercises each */
	assert_true(base->line_reads > 0 && base->line_hits > 0 && base->line_reads_llc > 0);
	assert_true(base->line_queued > 0 && base->line_queue_ns > 0);
	assert_true(base->wakeups_stacked > 0);
	assert_true(base->lock_acquires[SS_LOCK_SCHEDULE] > 0 && base->lock_acquires[SS_LOCK_DRAIN] > 0);
	assert_true(r[0]->lost.rq_lock > 0);
	/* cost.coherence=0: no line read; cost.line_queue=0: no wait */
	assert_int_equal(r[1]->contention.line_reads + r[1]->contention.line_hits + r[1]->contention.line_transfer_ns, 0);
	assert_true(r[2]->contention.line_reads > 0);
	assert_int_equal(r[2]->contention.line_queued + r[2]->contention.line_queue_ns, 0);
	/* claimed at the decision: nothing stacks */
	assert_true(r[3]->contention.wakeups_chose_idle > 0);
	assert_int_equal(r[3]->contention.wakeups_stacked, 0);
	/* remote direct enqueues only / no rq lock at all */
	assert_int_equal(r[4]->contention.lock_acquires[SS_LOCK_SCHEDULE] + r[4]->contention.lock_acquires[SS_LOCK_DRAIN] +
				 r[4]->contention.lock_acquires[SS_LOCK_BALANCE], 0);
	for (unsigned k = 0; k < SS_LOCK_NR; k++)
		assert_int_equal(r[5]->contention.lock_acquires[k] + r[5]->contention.lock_wait_ns[k], 0);
	assert_int_equal(r[5]->lost.rq_lock, 0);
	for (size_t k = 0; k < G_N_ELEMENTS(sets); k++)
		ss_results_free(r[k]);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * The figures cover the measured window like every other: a `from: begin`
 * workload (hackbench) starts it at its first begin, not at the warmup, and
 * the contention counters start with it (the per-rq and per-taker lock
 * figures agree; no more idle choices than wakeups).
 */
static void test_window_from_begin(void **unused)
{
	GError *err = NULL;
	struct ss_topology *t = load_file("topologies/desktop-8c16t.yaml");
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/hackbench-process-pipes.yaml", &err);
	struct ss_results *r;
	uint64_t per_taker = 0, per_rq = 0;
	(void)unused;

	assert_non_null(w);
	r = run(t, w, "sis_util", NULL, 0, 2000000000);
	assert_true(r->warmup_ns > 0);   /* measured from the first begin */
	for (unsigned k = 0; k < SS_LOCK_NR; k++)
		per_taker += r->contention.lock_acquires[k];
	for (unsigned i = 0; i < r->nr_cpus; i++)
		per_rq += r->cpu[i].rq_lock_acquires;
	assert_true(per_taker > 0);
	assert_int_equal(per_taker, per_rq);
	assert_true(r->contention.wakeups_chose_idle + r->wakeups_busy <= r->wakeups);
	assert_true(r->contention.line_reads - r->contention.line_reads_llc == r->sis_probes_total);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_written_or_not),
		cmocka_unit_test(test_line_queue),
		cmocka_unit_test(test_two_takers_of_one_lock),
		cmocka_unit_test(test_two_wakers_one_idle_cpu),
		cmocka_unit_test(test_one_waker_sees_its_claims),
		cmocka_unit_test(test_switches_zero_counters),
		cmocka_unit_test(test_window_from_begin),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

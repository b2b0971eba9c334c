/*
 * Whole-simulation tests: token semantics, per-task random streams that do
 * not depend on the policy, determinism, SIS_UTIL's nr_idle_scan written by
 * the (NOHZ) periodic balance at low load, PELT wiring through the
 * enqueue/dequeue/tick path, and the scan figures of the four runs of the
 * foundation issue in miniature.
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

static struct ss_topology *kunpeng, *xeon, *one_cpu;
static struct ss_workload *netperf;

static int setup(void **state)
{
	GError *err = NULL;
	kunpeng = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	xeon = ss_topology_load(SS_SOURCE_DIR "/topologies/xeon6148.yaml", &err);
	static const char one[] = "name: one\nvendor: arm\ncores: \"0\"\n";
	one_cpu = ss_topology_load_string(one, sizeof one - 1, "one.yaml", &err);
	netperf = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	if (err)
		fprintf(stderr, "%s\n", err->message);
	return !(kunpeng && xeon && one_cpu && netperf);
}

static int teardown(void **state)
{
	ss_topology_free(kunpeng);
	ss_topology_free(xeon);
	ss_topology_free(one_cpu);
	ss_workload_free(netperf);
	return 0;
}

static struct ss_run_config config(const struct ss_topology *t, const struct ss_workload *w, const char *policy,
				   unsigned load_pct, uint64_t warmup, uint64_t duration)
{
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = w;
	c.policy = policy;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = load_pct * 100;
	c.seed = 1;
	c.warmup_ns = warmup;
	c.duration_ns = duration;
	return c;
}

static struct ss_workload *wl_from(const char *yaml)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(yaml, strlen(yaml), "inline.yaml", &err);
	if (!w)
		fail_msg("%s", err->message);
	return w;
}

/* ---------------------------------------------------------------- tokens */

struct act {
	uint64_t t;
	unsigned task;
	enum ss_wl_action_kind kind;
	uint64_t ns;
};

struct trace {
	struct act a[4096];
	unsigned n;
	int only_task;   /* -1 = all */
};

static void record(void *ctx, uint64_t now, unsigned task, const struct ss_wl_action *a)
{
	struct trace *tr = ctx;
	if (tr->only_task >= 0 && (unsigned)tr->only_task != task)
		return;
	if (tr->n < 4096)
		tr->a[tr->n++] = (struct act){ now, task, a->kind, a->ns };
}

/*
 * A wakes B while B is still running its 5 ms burst; B's later wait must
 * consume that token and go on without sleeping (a wake that arrives early
 * is not lost). Then B wakes A, which waits for it.
 */
static void test_token_early_wake(void **state)
{
	struct ss_workload *w = wl_from(
		"name: tokens\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: a\n    start_cpu: 0\n    program:\n"
		"      - run: 1ms\n      - wake: b\n      - wait: 1\n      - transaction: end\n"
		"  - name: b\n    start_cpu: 1\n    program:\n"
		"      - run: 5ms\n      - wait: 1\n      - wake: a\n      - run: 1ms\n");
	struct ss_topology *t = xeon;
	struct trace *tr = g_new0(struct trace, 1);
	tr->only_task = -1;
	struct ss_run_config c = config(t, w, "sis_util", 1, 0, 20000000);
	c.load_pct_x100 = 1;   /* one instance */
	c.params.context_switch_ns = 0;
	c.params.idle_states = 0;   /* no idle-exit latency: exact times */
	c.params.background = 0;    /* no tick cost, no kworker */
	/* booted at t = 0: no first-tick balance passes delaying b by their cost */
	c.params.idle_before_ns = 0;
	c.trace = record;
	c.trace_ctx = tr;
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	/* b: WAIT at 5 ms, and its WAKE at the same instant: the token was there */
	uint64_t b_wait = 0, b_wake = 0, a_txn = 0;
	for (unsigned i = 0; i < tr->n; i++) {
		if (tr->a[i].task == 1 && tr->a[i].kind == SS_ACT_WAIT)
			b_wait = tr->a[i].t;
		if (tr->a[i].task == 1 && tr->a[i].kind == SS_ACT_WAKE)
			b_wake = tr->a[i].t;
		if (tr->a[i].task == 0 && tr->a[i].kind == SS_ACT_TXN_END)
			a_txn = tr->a[i].t;
	}
	assert_int_equal(b_wait, 5000000);
	assert_int_equal(b_wake, b_wait);
	/* a slept from 1 ms until b's wake at 5 ms reached it */
	assert_true(a_txn >= 5000000 && a_txn < 5100000);
	assert_int_equal(r->transactions, 1);
	ss_results_free(r);
	g_free(tr);
	ss_workload_free(w);
}

/* a wait for 2 tokens sleeps until the second arrives */
static void test_token_wait_n(void **state)
{
	struct ss_workload *w = wl_from(
		"name: tokens2\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: a\n    start_cpu: 0\n    program:\n"
		"      - wait: 2\n      - transaction: end\n"
		"  - name: b\n    start_cpu: 2\n    program:\n"
		"      - run: 1ms\n      - wake: a\n      - run: 3ms\n      - wake: a\n      - sleep: 1s\n");
	struct trace *tr = g_new0(struct trace, 1);
	tr->only_task = 0;
	struct ss_run_config c = config(xeon, w, "sis_util", 1, 0, 20000000);
	c.load_pct_x100 = 1;
	c.params.idle_states = 0;   /* no idle-exit latency: exact times */
	c.trace = record;
	c.trace_ctx = tr;
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(r->transactions, 1);
	assert_int_equal(tr->n, 3);   /* WAIT, TXN_END, EXIT */
	assert_int_equal(tr->a[1].kind, SS_ACT_TXN_END);
	assert_true(tr->a[1].t >= 4000000 && tr->a[1].t < 4100000);
	ss_results_free(r);
	g_free(tr);
	ss_workload_free(w);
}

/* ---------------------------------------------------------------- streams */

static void test_same_service_times_two_policies(void **state)
{
	struct trace *a = g_new0(struct trace, 1), *b = g_new0(struct trace, 1);
	const char *pol[2] = { "sis_prop", "sis_util" };
	struct trace *tr[2] = { a, b };
	for (int i = 0; i < 2; i++) {
		tr[i]->only_task = 11;   /* pair[2]/server (harness, netserver, client, server per pair) */
		struct ss_run_config c = config(kunpeng, netperf, pol[i], 100, 0, 30000000);
		c.trace = record;
		c.trace_ctx = tr[i];
		GError *err = NULL;
		struct ss_results *r = ss_simulate(&c, &err);
		assert_non_null(r);
		ss_results_free(r);
	}
	assert_true(a->n > 100 && b->n > 100);
	unsigned n = a->n < b->n ? a->n : b->n, runs = 0;
	for (unsigned i = 0; i < n; i++) {
		assert_int_equal(a->a[i].kind, b->a[i].kind);
		assert_int_equal(a->a[i].ns, b->a[i].ns);
		runs += a->a[i].kind == SS_ACT_RUN;
	}
	assert_true(runs > 50);
	g_free(a);
	g_free(b);
}

/* ---------------------------------------------------------------- determinism */

static void test_deterministic_json(void **state)
{
	char *j[3];
	for (int i = 0; i < 3; i++) {
		struct ss_run_config c = config(xeon, netperf, "sis_prop", 75, 20000000, 50000000);
		c.seed = i < 2 ? 7 : 8;
		GError *err = NULL;
		struct ss_results *r = ss_simulate(&c, &err);
		assert_non_null(r);
		j[i] = ss_results_to_json(r);
		ss_results_free(r);
	}
	assert_string_equal(j[0], j[1]);
	assert_string_not_equal(j[0], j[2]);   /* another seed draws other service times */
	for (int i = 0; i < 3; i++)
		g_free(j[i]);
}

/* ---------------------------------------------------------------- SIS_UTIL writer */

/*
 * At 25 % load most CPUs are idle and tickless, so the LLC balance is run by
 * the NOHZ idle-balance CPU for the idle CPU should_we_balance() picks. The
 * first nr_idle_scan write must come within a few LLC balance intervals
 * (32 ms for a 32-CPU MC domain on an idle CPU), and follow utilisation.
 */
static void test_nr_idle_scan_written_at_low_load(void **state)
{
	struct ss_run_config c = config(kunpeng, netperf, "sis_util", 25, 0, 400000000);
	c.sample_ns = 1000000;   /* 1 ms samples */
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	unsigned busy_llcs = 0;
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		struct ss_llc_stats *ls = &r->llc[l];
		unsigned first = UINT32_MAX;
		for (unsigned i = 0; i < ls->nr_samples; i++)
			if (ls->nr_idle_scan_series[i]) {
				first = i;
				break;
			}
		/* written within 3 x 32 ms of the start */
		assert_true(first <= 96);
		assert_true(ls->nr_idle_scan_writes >= 1);
		/* and it is the formula's value for the LLC's utilisation, never above the LLC size */
		assert_true(ls->nr_idle_scan_final <= ls->nr_cpus);
		if (ls->util_series[ls->nr_samples - 1] > 100) {
			busy_llcs++;
			assert_true(ls->nr_idle_scan_final < ls->nr_cpus);
		}
	}
	assert_true(busy_llcs >= 1);
	assert_true(r->nohz_balances > 0);
	assert_true(r->lb_stats_passes > 0);
	ss_results_free(r);
}

/* under sis_prop nr_idle_scan is never written (SIS_UTIL off in update_idle_cpu_scan) */
static void test_nr_idle_scan_untouched_without_sis_util(void **state)
{
	struct ss_run_config c = config(kunpeng, netperf, "sis_prop", 25, 0, 200000000);
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		assert_int_equal(r->llc[l].nr_idle_scan_writes, 0);
		assert_int_equal(r->llc[l].nr_idle_scan_final, 0);
	}
	ss_results_free(r);
}

/* ---------------------------------------------------------------- scan figures */

static void test_scan_figures_full_load(void **state)
{
	struct ss_results *r[2];
	const char *pol[2] = { "sis_prop", "sis_util" };
	for (int i = 0; i < 2; i++) {
		struct ss_run_config c = config(kunpeng, netperf, pol[i], 100, 100000000, 100000000);
		GError *err = NULL;
		r[i] = ss_simulate(&c, &err);
		assert_non_null(r[i]);
		assert_true(r[i]->sic_calls > 0);
		assert_true(r[i]->sic_found <= r[i]->sic_calls);
	}
	double per_call_prop = (double)r[0]->sic_probes / (double)r[0]->sic_calls;
	/* SIS_PROP never probes more than the LLC */
	assert_true(per_call_prop <= (double)kunpeng->cpu[0].llc_size);
	/*
	 * SIS_UTIL probes at most its budget: per LLC, at most the LLC, and
	 * where one budget held through the window (the first busy tick's, from
	 * the start's low util: the next LLC balance of a busy CPU is 32 ms x
	 * busy_factor 16 later; idle CPUs' balances may rewrite it sooner), at
	 * most that budget.
	 */
	for (unsigned l = 0; l < r[1]->nr_llcs; l++) {
		const struct ss_llc_stats *ls = &r[1]->llc[l];
		double mean = (double)ls->nr_idle_scan_weighted / (double)r[1]->duration_ns;
		if (!ls->sic_calls)
			continue;
		assert_true((double)ls->sic_probes / (double)ls->sic_calls <= (double)ls->nr_cpus);
		/* where the budget held through the window, at most that budget */
		if ((double)ls->nr_idle_scan_final == mean)
			assert_true((double)ls->sic_probes / (double)ls->sic_calls <= mean + 1e-9);
	}
	ss_results_free(r[0]);
	ss_results_free(r[1]);
}

/* SMT machine: select_idle_smt/select_idle_core paths run and the counters stay consistent */
static void test_smt_machine_runs(void **state)
{
	struct ss_run_config c = config(xeon, netperf, "sis_util", 50, 50000000, 100000000);
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	uint64_t outcomes = 0;
	for (int i = 0; i < SS_SIS_NR; i++)
		outcomes += r->sis_outcome[i];
	assert_int_equal(outcomes, r->sis_calls);
	assert_true(r->transactions > 0);
	assert_true(r->sic_found <= r->sic_calls);
	ss_results_free(r);
}

/* ---------------------------------------------------------------- PELT wiring */

/*
 * One task, busy 5 ms of every 10 ms (sleep 5 ms) on a 1-CPU machine with no
 * context-switch cost: the cfs_rq's util_avg seen at wakeups must sit in the
 * reference's 50 % band (kernel-sched.md 1.8.4: 485-538 with a 4 ms tick).
 */
static void test_pelt_periodic_task(void **state)
{
	struct ss_workload *w = wl_from(
		"name: periodic\ninstance: task\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: p\n    program:\n      - loop:\n          forever: true\n          do:\n"
		"            - run: 5ms\n            - sleep: 5ms\n            - transaction: end\n");
	uint64_t u[2];
	for (unsigned half = 0; half < 2; half++) {
		struct ss_run_config c = config(one_cpu, w, "sis_util", 100, 0, 600000000 + half * 5000000);
		c.params.context_switch_ns = 0;
		c.params.idle_states = 0;   /* an exact 10 ms period */
		c.params.background = 0;    /* the task alone on its CPU */
		GError *err = NULL;
		struct ss_results *r = ss_simulate(&c, &err);
		assert_non_null(r);
		u[half] = r->cpu[0].util_avg;
		ss_results_free(r);
	}
	/* at t = 600 ms the task has just slept 5 ms (the band's minimum), at 605 ms it has just run 5 ms */
	assert_true(u[0] >= 485 && u[0] <= 538);
	assert_true(u[1] >= 485 && u[1] <= 538);
	assert_true(u[0] < u[1]);
	ss_workload_free(w);
}

/*
 * SIS_CLEAR_TARGET: on a saturated machine a full scan visits every CPU of
 * the LLC but target (target is last in the wrap order, and cleared), and
 * pays the clear on every call.
 */
static void test_clear_target(void **state)
{
	struct ss_results *r[2];
	const char *features[2] = { NULL, "SIS_CLEAR_TARGET" };
	for (int i = 0; i < 2; i++) {
		struct ss_run_config c = config(kunpeng, netperf, "full_scan", 200, 50000000, 50000000);
		c.sched_features = features[i];
		GError *err = NULL;
		r[i] = ss_simulate(&c, &err);
		assert_non_null(r[i]);
		assert_true(r[i]->sic_calls > 0);
	}
	/* the largest number of runqueues probed by one call: 32 (whole LLC) vs 31 */
	unsigned top[2];
	for (int i = 0; i < 2; i++) {
		top[i] = 0;
		for (unsigned b = 0; b < SS_LOG2_BUCKETS; b++)
			if (r[i]->sic_probes_hist.count[b])
				top[i] = b;
	}
	assert_int_equal(top[0], 6);   /* bucket [32, 64) */
	assert_int_equal(top[1], 5);   /* bucket [16, 32) */
	ss_results_free(r[0]);
	ss_results_free(r[1]);
}

/* prev_cpu never moves a task at wakeup; sis_util_linear runs and writes its budget */
static void test_prev_cpu_and_linear(void **state)
{
	struct ss_run_config c = config(kunpeng, netperf, "prev_cpu", 100, 20000000, 50000000);
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(r->migrations_by_cause[SS_MIG_WAKEUP], 0);
	assert_int_equal(r->sis_calls, 0);
	ss_results_free(r);

	c = config(kunpeng, netperf, "sis_util_linear", 25, 0, 200000000);
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		/* the linear formula's floor is 4 and its ceiling the LLC size */
		assert_true(r->llc[l].nr_idle_scan_writes >= 1);
		assert_true(r->llc[l].nr_idle_scan_final >= 4 && r->llc[l].nr_idle_scan_final <= 32);
	}
	ss_results_free(r);

	/* both writers of nr_idle_scan at once is refused */
	c = config(kunpeng, netperf, "sis_util", 25, 0, 1000000);
	c.sched_features = "SIS_UTIL_LINEAR";
	assert_null(ss_simulate(&c, &err));
	assert_non_null(strstr(err->message, "SIS_UTIL_LINEAR"));
	g_clear_error(&err);
}

/* bad configurations are errors, not crashes */
static void test_bad_config(void **state)
{
	GError *err = NULL;
	struct ss_run_config c = config(kunpeng, netperf, "no_such_policy", 100, 0, 1000000);
	assert_null(ss_simulate(&c, &err));
	assert_non_null(strstr(err->message, "sis_util"));
	g_clear_error(&err);
	c = config(kunpeng, netperf, "sis_util", 100, 0, 1000000);
	c.nodes = "7";
	assert_null(ss_simulate(&c, &err));
	assert_non_null(strstr(err->message, "--nodes"));
	g_clear_error(&err);
	c.nodes = NULL;
	c.sched_features = "SIS_FOO";
	assert_null(ss_simulate(&c, &err));
	g_clear_error(&err);
	c.sched_features = NULL;
	c.duration_ns = 0;
	assert_null(ss_simulate(&c, &err));
	g_clear_error(&err);
}

/* --nodes 0 restricts every task to node 0's CPUs */
static void test_nodes_restrict(void **state)
{
	struct ss_run_config c = config(kunpeng, netperf, "sis_util", 100, 10000000, 50000000);
	c.nodes = "0";
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(r->nr_allowed_cpus, 32);
	assert_int_equal(r->nr_instances, 32);
	for (unsigned cpu = 32; cpu < 128; cpu++)
		assert_int_equal(r->cpu[cpu].busy_ns, 0);
	ss_results_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_token_early_wake),
		cmocka_unit_test(test_token_wait_n),
		cmocka_unit_test(test_same_service_times_two_policies),
		cmocka_unit_test(test_deterministic_json),
		cmocka_unit_test(test_nr_idle_scan_written_at_low_load),
		cmocka_unit_test(test_nr_idle_scan_untouched_without_sis_util),
		cmocka_unit_test(test_scan_figures_full_load),
		cmocka_unit_test(test_smt_machine_runs),
		cmocka_unit_test(test_pelt_periodic_task),
		cmocka_unit_test(test_clear_target),
		cmocka_unit_test(test_prev_cpu_and_linear),
		cmocka_unit_test(test_bad_config),
		cmocka_unit_test(test_nodes_restrict),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

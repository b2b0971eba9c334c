/*
 * The counters simsched validate reads (docs/output.md): full_mask_fail_pct,
 * sis.by_budget, --set sis.nr_fixed, the affinity-aware idle with work
 * elsewhere, the burst figures, sis.nr_idle_scan_written_ns and
 * run.ended_ns, the start-up figures (busy % and runqueue depth from
 * t = 0) and the time per select_idle_cpu call by walk kind, on small
 * machines whose figures can be worked out by hand.
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
#include "simsched/compare.h"
#include "simsched/error.h"
#include "simsched/policy.h"
#include "simsched/state.h"

#define MS UINT64_C(1000000)

static const char flat2_yaml[] = "name: flat2\nvendor: arm\ncores: \"0-1\"\n";
static const char flat4_yaml[] = "name: flat4\nvendor: arm\ncores: \"0-3\"\n";
static const char flat8_yaml[] = "name: flat8\nvendor: arm\ncores: \"0-7\"\n";

static struct ss_topology *topo(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "fixture.yaml", &err);
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

static void set(struct ss_run_config *c, const char *as)
{
	GError *err = NULL;
	if (!ss_params_set(&c->params, c->policy, as, &err))
		fail_msg("%s: %s", as, err->message);
}

/* A run with every cost 0: times are the workload's own, to the ns. */
static struct ss_run_config config(const struct ss_topology *t, const struct ss_workload *w, const char *policy,
				   uint64_t warmup, uint64_t duration)
{
	static const char *const zero[] = {
		"cost.ipi_ns=0", "cost.context_switch_ns=0", "cost.idle_states=0", "cost.rq_lock_ns=0",
		"cost.probe_smt_ns=0", "cost.probe_cluster_ns=0", "cost.probe_llc_ns=0", "cost.probe_package_ns=0",
		"cost.probe_remote_ns=0", "cost.lb_pass_ns=0", "cost.refill_llc_ns_per_kib=0",
		"cost.refill_cross_llc_ns_per_kib=0", "cost.refill_cross_node_ns_per_kib=0", "cost.background=0",
	};
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = w;
	c.policy = policy;
	ss_params_defaults(&c.params, t);
	for (unsigned i = 0; i < G_N_ELEMENTS(zero); i++)
		set(&c, zero[i]);
	c.load_pct_x100 = 100;   /* one instance: the files give their own counts */
	c.seed = 1;
	c.warmup_ns = warmup;
	c.duration_ns = duration;
	return c;
}

static struct ss_results *run(const struct ss_run_config *c)
{
	GError *err = NULL;
	struct ss_results *r = ss_simulate(c, &err);
	if (!r)
		fail_msg("%s", err->message);
	return r;
}

static double metric(const struct ss_results *r, const char *name)
{
	enum ss_cmp_metric m;
	GError *err = NULL;
	if (!ss_cmp_metric_parse(name, &m, &err))
		fail_msg("%s", err->message);
	return ss_cmp_metric_value(m, r);
}

/* Σ of the by-budget buckets: calls, found */
static void budget_sums(const struct ss_results *r, uint64_t *calls, uint64_t *found)
{
	*calls = *found = 0;
	for (unsigned k = 0; k < SS_SIC_BUDGET_MAX + 2; k++) {
		*calls += r->sic_budget_calls[k];
		*found += r->sic_budget_found[k];
	}
}

/*
 * One CPU-bound task pinned to each CPU, and one unpinned task that sleeps
 * 1 ms between 100 us bursts: when it wakes every CPU runs a hog, so every
 * select_idle_sibling() call goes past the fast path and finds no idle CPU.
 */
static struct ss_workload *every_cpu_busy(unsigned nr_cpus)
{
	GString *y = g_string_new("name: busy\ninstance: machine\n"
				  "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\ntasks:\n");
	for (unsigned c = 0; c < nr_cpus; c++)
		g_string_append_printf(y, "  - name: hog%u\n    cpus: \"%u\"\n    start_cpu: %u\n    program:\n"
				       "      - loop:\n          forever: true\n          do:\n            - run: 10ms\n",
				       c, c, c);
	g_string_append(y, "  - name: sleeper\n    start_cpu: 0\n    program:\n      - loop:\n          forever: true\n"
			   "          do:\n            - run: 100us\n            - sleep: 1ms\n            - transaction: end\n");
	struct ss_workload *w = wl_from(y->str);
	g_string_free(y, TRUE);
	return w;
}

/* full_scan walks the whole LLC and finds nothing: every call fails on the whole mask (100 %). */
static void test_full_mask_fail_every_scan(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w = every_cpu_busy(4);
	struct ss_run_config c = config(t, w, "full_scan", 10 * MS, 200 * MS);
	struct ss_results *r = run(&c);

	assert_true(r->sis.calls > 100);
	assert_int_equal(r->sis.walked_all, r->sis.calls);
	assert_int_equal(r->sis.failed, r->sis.calls);
	assert_true(metric(r, "full_mask_fail_pct") == 100.0);
	/* an unlimited walk over the 4 CPUs of the LLC: 4 probes per call, none found */
	assert_int_equal(r->sic_probes, 4 * r->sic_calls);
	assert_int_equal(r->sic_budget_calls[SS_SIC_BUDGET_MAX + 1], r->sic_calls);
	assert_int_equal(r->sic_found, 0);
	char *j = ss_results_to_json(r);
	assert_non_null(strstr(j, "\"full_mask_fail_pct\":\t100"));
	g_free(j);
	ss_results_free(r);

	/* sis_util on the same machine: nr_idle_scan is 0 once the LLC is busy, so the scans
	 * are skipped (budget 0) and none walks the mask */
	c = config(t, w, "sis_util", 500 * MS, 200 * MS);
	r = run(&c);
	assert_true(r->sis.calls > 100);
	assert_int_equal(r->sic_skipped_nr0, r->sic_calls);
	assert_int_equal(r->sic_budget_calls[0], r->sic_calls);
	assert_int_equal(r->sis.walked_all, 0);
	assert_true(metric(r, "full_mask_fail_pct") == 0.0);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* no select_idle_sibling() call: no value (null), never 0 */
static void test_full_mask_fail_no_calls(void **state)
{
	struct ss_topology *t = topo(flat2_yaml);
	struct ss_workload *w = wl_from("name: alone\ninstance: machine\n"
					"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
					"tasks:\n  - name: a\n    cpus: \"0\"\n    program:\n      - run: 1ms\n      - sleep: 1ms\n");
	struct ss_run_config c = config(t, w, "sis_util", 0, 20 * MS);
	struct ss_results *r = run(&c);

	assert_int_equal(r->sis.calls, 0);
	assert_true(isnan(metric(r, "full_mask_fail_pct")));
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* the by-budget buckets count every select_idle_cpu() call once, and every idle CPU found */
static void test_by_budget_sums(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	static const char *const policies[] = { "sis_util", "sis_prop", "sis_util_linear", "full_scan" };
	/* loads where each searches often: sis_prop's budget varies at 75 % (from 100 % on it is its floor, nr 4: 3 probes) */
	static const unsigned loads[] = { 15000, 7500, 15000, 15000 };

	assert_non_null(t);
	assert_non_null(w);
	for (unsigned i = 0; i < G_N_ELEMENTS(policies); i++) {
		struct ss_run_config c = { .topo = t, .wl = w, .policy = policies[i], .load_pct_x100 = loads[i], .seed = 1,
					   .warmup_ns = 20 * MS, .duration_ns = 30 * MS };   /* the default costs */
		uint64_t calls, found, kinds = 0;
		ss_params_defaults(&c.params, t);
		struct ss_results *r = run(&c);

		budget_sums(r, &calls, &found);
		if (r->sic_calls <= 100)
			fail_msg("%s: %llu calls", policies[i], (unsigned long long)r->sic_calls);
		assert_int_equal(calls, r->sic_calls);
		assert_int_equal(found, r->sic_found);
		for (unsigned k = 0; k < SS_SIC_BUDGET_MAX + 2; k++) {
			assert_true(r->sic_budget_found[k] <= r->sic_budget_calls[k]);
			kinds += r->sic_budget_calls[k] != 0;
			/* a walk never probes more than its budget (probes of a call >= 1 only if its budget is) */
			if (k == 0)
				assert_int_equal(r->sic_budget_found[0], 0);
		}
		if (!strcmp(policies[i], "full_scan"))
			assert_int_equal(r->sic_budget_calls[SS_SIC_BUDGET_MAX + 1], r->sic_calls);
		if (!strcmp(policies[i], "sis_util")) {
			/* nr_idle_scan 0: the calls skipped are the budget-0 bucket */
			assert_int_equal(r->sic_budget_calls[0], r->sic_skipped_nr0);
		}
		if (!strcmp(policies[i], "sis_prop"))
			assert_true(kinds >= 2);   /* the budget follows avg_idle / avg_scan_cost */
		ss_results_free(r);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * wakeups.onto_waker_cpu / onto_prev_cpu / onto_other_cpu: where wakees land.
 * netperf pairs on 8 CPUs: 2 pairs (25 %) each keep a CPU per task and
 * wake onto prev (select_idle_sibling()'s prev shortcut); 16 pairs (200 %)
 * stack each pair on one CPU (WF_SYNC wake_affine_idle() returns the
 * waker's CPU, the search finds nothing idle).
 */
static void test_wakee_landing(void **state)
{
	(void)state;
	GError *err = NULL;
	struct ss_topology *t = topo(flat8_yaml);
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	static const unsigned loads[] = { 2500, 20000 };

	assert_non_null(w);
	for (unsigned k = 0; k < G_N_ELEMENTS(loads); k++) {
		struct ss_run_config c = { .topo = t, .wl = w, .policy = "sis_prop", .load_pct_x100 = loads[k], .seed = 1,
					   .warmup_ns = 20 * MS, .duration_ns = 20 * MS };
		ss_params_defaults(&c.params, t);
		struct ss_results *r = run(&c);
		uint64_t waker = r->wakeups_on_waker_cpu, prev = r->wakeups_on_prev_cpu;

		assert_true(r->wakeups > 1000);
		assert_true(waker + prev <= r->wakeups);   /* the rest went to a third CPU */
		if (k == 0) {
			if (prev * 10 < r->wakeups * 9)
				fail_msg("2 pairs: %llu of %llu onto prev", (unsigned long long)prev, (unsigned long long)r->wakeups);
		} else if (waker * 10 < r->wakeups * 9) {
			fail_msg("16 pairs: %llu of %llu onto the waker's CPU", (unsigned long long)waker,
				 (unsigned long long)r->wakeups);
		}
		ss_results_free(r);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

/* sis.nr_fixed=K: exactly min(K, |mask|) probes per call when nothing is idle, whatever the policy */
static void test_nr_fixed(void **state)
{
	struct ss_topology *t = topo(flat8_yaml);
	struct ss_workload *w = every_cpu_busy(8);
	static const char *const policies[] = { "sis_util", "sis_prop", "sis_util_linear" };
	static const unsigned ks[] = { 1, 3, 8, 20 };

	for (unsigned i = 0; i < G_N_ELEMENTS(policies); i++) {
		for (unsigned j = 0; j < G_N_ELEMENTS(ks); j++) {
			struct ss_run_config c = config(t, w, policies[i], 10 * MS, 100 * MS);
			char as[32];
			unsigned probes = ks[j] < 8 ? ks[j] : 8;

			snprintf(as, sizeof as, "sis.nr_fixed=%u", ks[j]);
			set(&c, as);
			struct ss_results *r = run(&c);
			assert_true(r->sic_calls > 50);
			assert_int_equal(r->sic_probes, (uint64_t)probes * r->sic_calls);
			assert_int_equal(r->sic_probes_hist.count[64 - __builtin_clzll(probes)], r->sic_calls);
			assert_int_equal(r->sic_budget_calls[ks[j]], r->sic_calls);
			assert_int_equal(r->sic_skipped_nr0, 0);
			/* a budget below the mask stops the walk; one at or above it walks the whole mask */
			assert_int_equal(r->sic_nr_exhausted, ks[j] < 8 ? r->sic_calls : 0);
			assert_int_equal(r->sis.walked_all, ks[j] < 8 ? 0 : r->sis.calls);
			ss_results_free(r);
		}
	}
	/* 0 is off: sis_util's own budget (skipped while nr_idle_scan is 0) */
	struct ss_run_config c = config(t, w, "sis_util", 500 * MS, 100 * MS);
	set(&c, "sis.nr_fixed=0");
	struct ss_results *r = run(&c);
	assert_int_equal(r->sic_skipped_nr0, r->sic_calls);
	ss_results_free(r);
	/* the parameter's range */
	GError *err = NULL;
	assert_false(ss_params_set(&c.params, "sis_util", "sis.nr_fixed=-1", &err));
	assert_non_null(strstr(err->message, "sis.nr_fixed takes an integer in 0..4096"));
	g_clear_error(&err);
	assert_false(ss_params_set(&c.params, "sis_util", "sis.nr_fxed=1", &err));
	assert_non_null(strstr(err->message, "valid: sis.nr_fixed"));
	g_clear_error(&err);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Two CPUs. A dispatcher pinned to CPU0 sleeps 20 ms and wakes both workers
 * at once (a burst); under prev_cpu both land on CPU1, where they started,
 * and with a 10 ms slice one runs its 2 ms while the other waits, then the
 * other. So after each burst: one task waits on CPU1 for 2 ms while CPU0 is
 * idle; at +1 ms CPU1 holds 2 tasks and CPU0 (1 of 2) is idle; the last
 * worker blocks at +4 ms. Bursts at 20, 40, 60, 80 and 100 ms; the window
 * is [10 ms, 110 ms).
 */
static const char *burst_yaml(const char *worker_cpus)
{
	static char buf[1024];
	snprintf(buf, sizeof buf,
		 "name: burst2\ninstance: machine\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		 "tasks:\n"
		 "  - name: dispatcher\n    cpus: \"0\"\n    start_cpu: 0\n    program:\n"
		 "      - loop:\n          forever: true\n          do:\n            - sleep: 20ms\n"
		 "            - wake: {task: worker, which: all}\n"
		 "  - name: worker\n    count: 2\n%s    start_cpu: 1\n    program:\n"
		 "      - loop:\n          forever: true\n          do:\n            - wait\n            - run: 2ms\n"
		 "            - transaction: end\n",
		 worker_cpus);
	return buf;
}

static struct ss_run_config burst_config(const struct ss_topology *t, const struct ss_workload *w)
{
	struct ss_run_config c = config(t, w, "prev_cpu", 10 * MS, 100 * MS);
	set(&c, "kernel.base_slice_ns=10ms");
	set(&c, "balance.load_balance=0");
	return c;
}

static void test_bursts_by_hand(void **state)
{
	struct ss_topology *t = topo(flat2_yaml);
	struct ss_workload *w = wl_from(burst_yaml(""));
	struct ss_run_config c = burst_config(t, w);
	struct ss_results *r = run(&c);

	assert_int_equal(r->transactions, 10);
	assert_int_equal(r->bursts, 5);
	assert_int_equal(r->burst_window_ns, 4 * MS);
	assert_int_equal(r->burst_cover_ns, 5 * 4 * MS);
	assert_int_equal(r->burst_idle_work_ns, 5 * 2 * MS);   /* CPU0 idle while a worker waits, 2 ms a burst */
	assert_int_equal(r->idle_work_allowed_ns, 5 * 2 * MS);
	assert_int_equal(r->idle_work_llc_ns, 5 * 2 * MS);
	assert_int_equal(r->burst_sampled, 5);
	assert_int_equal(r->burst_idle_1ms_cpus, 5);            /* CPU0 at each +1 ms */
	assert_int_equal(r->burst_completed, 5);
	assert_int_equal(r->burst_makespan_ns, 5 * 4 * MS);
	assert_true(metric(r, "burst_idle_with_work_pct") == 25.0);   /* 2 ms of 2 CPUs x 4 ms */
	assert_true(metric(r, "burst_idle_1ms_pct") == 50.0);
	assert_true(metric(r, "burst_makespan_ns") == 4.0 * MS);
	assert_true(metric(r, "idle_with_work_allowed_pct") == 5.0);  /* 10 ms of 2 CPUs x 100 ms */
	assert_int_equal(r->ended_ns, 110 * MS);
	char *j = ss_results_to_json(r);
	assert_non_null(strstr(j, "\"bursts\":\t{\n\t\t\"count\":\t5,\n\t\t\"window_ns\":\t4000000,"));
	assert_non_null(strstr(j, "\"makespan_ns\":\t4000000\n"));
	g_free(j);
	ss_results_free(r);

	/* a 1 ms window: the waiting of the first 1 ms of each burst only */
	c = burst_config(t, w);
	set(&c, "stats.burst_window_ns=1ms");
	r = run(&c);
	assert_int_equal(r->burst_cover_ns, 5 * MS);
	assert_int_equal(r->burst_idle_work_ns, 5 * MS);
	assert_true(metric(r, "burst_idle_with_work_pct") == 50.0);
	assert_int_equal(r->idle_work_allowed_ns, 5 * 2 * MS);   /* the whole-window figure does not change */
	ss_results_free(r);
	ss_workload_free(w);

	/*
	 * The workers pinned to CPU1: the one waiting may not run on the idle
	 * CPU0, so the affinity-aware figures are 0 where the LLC figure, which
	 * ignores affinity, is not. The 1 ms share still counts CPU0.
	 */
	w = wl_from(burst_yaml("    cpus: \"1\"\n"));
	c = burst_config(t, w);
	r = run(&c);
	assert_int_equal(r->bursts, 5);
	assert_int_equal(r->idle_work_llc_ns, 5 * 2 * MS);
	assert_int_equal(r->idle_work_allowed_ns, 0);
	assert_int_equal(r->burst_idle_work_ns, 0);
	assert_true(metric(r, "idle_with_work_allowed_pct") == 0.0);
	assert_true(metric(r, "burst_idle_with_work_pct") == 0.0);
	assert_true(metric(r, "burst_idle_1ms_pct") == 50.0);
	assert_true(metric(r, "burst_makespan_ns") == 4.0 * MS);
	ss_results_free(r);
	ss_workload_free(w);

	/* one worker pinned to CPU1, the other free: the free one counts when it is the one waiting */
	w = wl_from("name: mixed\ninstance: machine\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		    "tasks:\n"
		    "  - name: pinned\n    cpus: \"1\"\n    start_cpu: 1\n    program:\n"
		    "      - loop:\n          forever: true\n          do:\n            - run: 10ms\n"
		    "  - name: free\n    start_cpu: 1\n    program:\n"
		    "      - loop:\n          forever: true\n          do:\n            - run: 10ms\n");
	c = burst_config(t, w);
	r = run(&c);
	/* CPU0 idle the whole window; one of the two always waits on CPU1: the free one half of the time */
	assert_int_equal(r->idle_work_llc_ns, 100 * MS);
	assert_true(r->idle_work_allowed_ns > 30 * MS && r->idle_work_allowed_ns < 70 * MS);
	assert_int_equal(r->bursts, 0);
	assert_true(isnan(metric(r, "burst_idle_with_work_pct")));
	assert_true(isnan(metric(r, "burst_idle_1ms_pct")));
	assert_true(isnan(metric(r, "burst_makespan_ns")));
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * The two ways of keeping the affinity-aware figure agree: tasks whose role
 * names every CPU (cpus: "0-3") run exactly as tasks without cpus, but take
 * the per-class walk instead of the single-class counter.
 */
static void test_idle_with_work_classes_agree(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	static const char fmt[] =
		"name: mix\ninstance: machine\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: a\n    count: 6\n%s    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - run: {exponential: 300us}\n"
		"            - sleep: {exponential: 150us}\n            - transaction: end\n"
		"  - name: b\n    count: 2\n    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - run: {exponential: 500us}\n"
		"            - sleep: {exponential: 500us}\n";
	char y1[1024], y2[1024];
	snprintf(y1, sizeof y1, fmt, "");
	snprintf(y2, sizeof y2, fmt, "    cpus: \"0-3\"\n");
	struct ss_workload *w1 = wl_from(y1), *w2 = wl_from(y2);
	struct ss_run_config c1 = config(t, w1, "sis_util", 20 * MS, 300 * MS);
	struct ss_run_config c2 = config(t, w2, "sis_util", 20 * MS, 300 * MS);
	struct ss_results *r1 = run(&c1), *r2 = run(&c2);

	assert_int_equal(r1->transactions, r2->transactions);
	assert_int_equal(r1->idle_work_llc_ns, r2->idle_work_llc_ns);
	assert_true(r1->idle_work_allowed_ns > 10 * MS);
	assert_int_equal(r1->idle_work_allowed_ns, r2->idle_work_allowed_ns);
	/* one LLC, every task allowed everywhere: the LLC figure plus the instants an idle CPU held a
	 * task on its way in (counted by the LLC figure, not by this one) */
	assert_true(r1->idle_work_allowed_ns <= r1->idle_work_llc_ns);
	assert_true(r1->idle_work_allowed_ns * 100 >= r1->idle_work_llc_ns * 95);
	ss_results_free(r1);
	ss_results_free(r2);
	ss_workload_free(w1);
	ss_workload_free(w2);
	ss_topology_free(t);
}

/* a wake of `which: all` that wakes one task (the other is not waiting) is no burst */
static void test_single_wake_is_no_burst(void **state)
{
	struct ss_topology *t = topo(flat2_yaml);
	struct ss_workload *w = wl_from(
		"name: one\ninstance: machine\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: dispatcher\n    cpus: \"0\"\n    start_cpu: 0\n    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - sleep: 20ms\n"
		"            - wake: {task: worker, which: all}\n"
		"  - name: worker\n    count: 2\n    start_cpu: 1\n    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - wait\n            - run: 30ms\n");
	struct ss_run_config c = burst_config(t, w);
	struct ss_results *r = run(&c);

	/* the workers run 30 ms per 20 ms token: they are mostly running, rarely both waiting */
	assert_true(r->bursts <= 1);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* One CPU-bound task pinned to CPU 0 (the nr_idle_scan_written tests). */
static struct ss_workload *hog_on_cpu0(void)
{
	return wl_from("name: hog\ninstance: machine\n"
		       "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		       "tasks:\n  - name: hog\n    cpus: \"0\"\n    start_cpu: 0\n    program:\n"
		       "      - loop:\n          forever: true\n          do:\n            - run: 10ms\n");
}

/*
 * nr_idle_scan_written_ns: one CPU-bound task on CPU0 of a flat 4-CPU
 * machine (one LLC, its MC domain of 4 CPUs), no NOHZ balancing: the only
 * balance passes are CPU0's periodic ones. The MC domain's busy interval is
 * 4 ms x busy_factor 16 = 64 ms = 16 jiffies at HZ 250, minus 1: 15 jiffies,
 * from last_balance 0; the tick at jiffy 15 balances it: 60 ms. That is
 * a machine booted at t = 0 (kernel.idle_before_ns=0); test_up_and_idle
 * below is the default start.
 */
static void test_nr_idle_scan_written(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w = hog_on_cpu0();
	static const char *const policies[] = { "sis_util", "sis_util_linear", "sis_prop", "prev_cpu" };

	for (unsigned i = 0; i < G_N_ELEMENTS(policies); i++) {
		struct ss_run_config c = config(t, w, policies[i], 0, 200 * MS);
		set(&c, "balance.nohz=0");
		set(&c, "kernel.idle_before_ns=0");
		struct ss_results *r = run(&c);
		assert_true(r->nr_idle_scan_written);
		assert_int_equal(r->nr_idle_scan_written_ns, 60 * MS);
		/* written under SIS_UTIL: the series' value changed at that pass, not before */
		if (!strcmp(policies[i], "sis_util"))
			assert_true(r->llc[0].nr_idle_scan_writes >= 1);
		if (!strcmp(policies[i], "sis_prop"))
			assert_int_equal(r->llc[0].nr_idle_scan_writes, 0);
		ss_results_free(r);

		/* a run that ends before: null */
		c = config(t, w, policies[i], 0, 59 * MS);
		set(&c, "balance.nohz=0");
		set(&c, "kernel.idle_before_ns=0");
		r = run(&c);
		assert_false(r->nr_idle_scan_written);
		char *j = ss_results_to_json(r);
		assert_non_null(strstr(j, "\"nr_idle_scan_written_ns\":\tnull"));
		g_free(j);
		ss_results_free(r);
	}
	/* HZ 100: 15 jiffies of 10 ms... (64 ms -> 7 jiffies, minus 1: 6): 60 ms too; HZ 1000: 63 ms */
	struct ss_run_config c = config(t, w, "sis_util", 0, 200 * MS);
	set(&c, "balance.nohz=0");
		set(&c, "kernel.idle_before_ns=0");
	set(&c, "kernel.hz=1000");
	struct ss_results *r = run(&c);
	assert_int_equal(r->nr_idle_scan_written_ns, 63 * MS);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * The default start: a machine up and idle for kernel.idle_before_ns. The
 * same hog on CPU0 of the flat 4-CPU machine. At t = 0 the LLC's
 * nr_idle_scan holds what update_idle_cpu_scan() gives an idle LLC (its 4
 * CPUs) and counts as written (nr_idle_scan_written_ns 0); every
 * sd->last_balance lies idle_before in the past, so CPU0's first busy tick
 * (jiffy 1, 4 ms at HZ 250) balances the MC domain at once and writes the
 * busy value: util 512 (post_init_entity_util_avg() of a new task on an
 * empty rq) plus 4 ms of growth, about 600 over 4 CPUs, x = 150: 1024 -
 * 150^2 x 117^2 / 10^7 = 994, 994 x 4 / 1024 = 3. Sampled every 1 ms, the
 * series reads 4 until the 4 ms tick and 3 after it. Booted at t = 0, the
 * same run keeps 0 until 60 ms (the test above).
 */
static void test_up_and_idle(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w = hog_on_cpu0();
	struct ss_run_config c = config(t, w, "sis_util", 0, 20 * MS);
	set(&c, "balance.nohz=0");
	c.sample_ns = MS;
	struct ss_results *r = run(&c);
	assert_true(r->nr_idle_scan_written);
	assert_int_equal(r->nr_idle_scan_written_ns, 0);
	assert_true(r->llc[0].nr_samples >= 10);
	/* sample k is taken at (k + 1) ms */
	for (unsigned k = 0; k < 3; k++)
		assert_int_equal(r->llc[0].nr_idle_scan_series[k], 4);
	for (unsigned k = 4; k < 10; k++)
		assert_int_equal(r->llc[0].nr_idle_scan_series[k], 3);
	assert_int_equal(r->llc[0].nr_idle_scan_final, 3);
	ss_results_free(r);

	/* booted at t = 0: nothing written in the first 20 ms, and the run warns */
	c = config(t, w, "sis_util", 0, 20 * MS);
	set(&c, "balance.nohz=0");
	set(&c, "kernel.idle_before_ns=0");
	c.sample_ns = MS;
	r = run(&c);
	assert_false(r->nr_idle_scan_written);
	for (unsigned k = 0; k < 10; k++)
		assert_int_equal(r->llc[0].nr_idle_scan_series[k], 0);
	assert_non_null(r->warnings[0]);
	assert_non_null(strstr(r->warnings[0], "before every LLC's nr_idle_scan was written"));
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* run.ended_ns: the end of the window, the last exit, or a deadlock's start */
static void test_ended_ns(void **state)
{
	struct ss_topology *t = topo(flat2_yaml);
	struct ss_workload *w = wl_from("name: short\ninstance: machine\n"
					"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
					"tasks:\n  - name: a\n    start_cpu: 0\n    program:\n      - run: 3ms\n      - sleep: 2ms\n"
					"      - run: 1ms\n");
	struct ss_run_config c = config(t, w, "sis_util", 10 * MS, 30 * MS);
	struct ss_results *r = run(&c);
	assert_int_equal(r->ended_ns, 6 * MS);   /* it exited before the window began */
	char *j = ss_results_to_json(r);
	assert_non_null(strstr(j, "\"ended_ns\":\t6000000"));
	g_free(j);
	ss_results_free(r);
	ss_workload_free(w);

	w = wl_from("name: stuck\ninstance: machine\n"
		    "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		    "tasks:\n  - name: a\n    start_cpu: 0\n    program:\n      - run: 3ms\n      - wait\n      - wake: b\n"
		    "  - name: b\n    start_cpu: 1\n    program:\n      - run: 1ms\n      - wait\n      - wake: a\n");
	c = config(t, w, "sis_util", 0, 30 * MS);
	r = run(&c);
	assert_true(r->deadlocked);
	assert_int_equal(r->ended_ns, 3 * MS);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* The start-up figures of CPU c: busy and Σ nr_running × ns over [0, end_ns), ns; the largest nr_running. */
static void assert_startup_cpu(const struct ss_results *r, unsigned c, uint64_t busy, uint64_t nr_running_ns, unsigned max)
{
	const struct ss_startup_cpu *sc = &r->startup.cpu[c];

	if (sc->busy_ns != busy || sc->nr_running_ns != nr_running_ns || sc->nr_running_max != max)
		fail_msg("CPU %u: busy %llu nr_running_ns %llu max %u (expected %llu %llu %u)", c,
			 (unsigned long long)sc->busy_ns, (unsigned long long)sc->nr_running_ns, sc->nr_running_max,
			 (unsigned long long)busy, (unsigned long long)nr_running_ns, max);
}

/*
 * Start-up figures (docs/output.md "Start-up"), one CPU-bound task on CPU0
 * of an otherwise idle 4-CPU machine from t = 0: CPU0 busy the whole
 * 100 ms at depth 1, the others idle at depth 0; every 10 ms slice holds
 * one busy CPU and a mean depth of 1/4. The figures run from t = 0
 * whatever the measured window: a warmup that ends inside the start-up
 * window changes nothing, a run that ends inside it cuts it (at 65 ms
 * here: 6 full slices and half of the seventh), and stats.startup_window_ns
 * sets its length (50 ms: 10 slices of 5 ms).
 */
static void test_startup_one_task(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w = hog_on_cpu0();
	static const uint64_t windows[][2] = { { 0, 200 * MS }, { 35 * MS, 200 * MS }, { 150 * MS, 1 * MS } };

	for (unsigned i = 0; i < G_N_ELEMENTS(windows); i++) {
		struct ss_run_config c = config(t, w, "sis_util", windows[i][0], windows[i][1]);
		struct ss_results *r = run(&c);

		assert_int_equal(r->startup.window_ns, 100 * MS);
		assert_int_equal(r->startup.end_ns, 100 * MS);
		assert_startup_cpu(r, 0, 100 * MS, 100 * MS, 1);
		for (unsigned cpu = 1; cpu < 4; cpu++)
			assert_startup_cpu(r, cpu, 0, 0, 0);
		for (unsigned k = 0; k < SS_STARTUP_SLICES; k++) {
			assert_int_equal(r->startup.slice_busy_ns[k], 10 * MS);
			assert_int_equal(r->startup.slice_nr_running_ns[k], 10 * MS);
		}
		char *j = ss_results_to_json(r), *txt = ss_results_to_text(r);
		assert_non_null(strstr(j, "\"startup\":\t{\n\t\t\"window_ns\":\t100000000,\n\t\t\"end_ns\":\t100000000,\n"
					  "\t\t\"series\":\t[{\n\t\t\t\t\"from_ns\":\t0,\n\t\t\t\t\"to_ns\":\t10000000,\n"
					  "\t\t\t\t\"busy_cpus\":\t1,\n\t\t\t\t\"rq_depth_mean\":\t0.25\n"));
		assert_non_null(strstr(j, "\"cpu\":\t0,\n\t\t\t\t\"busy_pct\":\t100,\n\t\t\t\t\"rq_depth_mean\":\t1,\n"
					  "\t\t\t\t\"rq_depth_max\":\t1\n"));
		assert_non_null(strstr(j, "\"cpu\":\t3,\n\t\t\t\t\"busy_pct\":\t0,\n\t\t\t\t\"rq_depth_mean\":\t0,\n"
					  "\t\t\t\t\"rq_depth_max\":\t0\n"));
		assert_non_null(strstr(txt, "\nstart-up (first 100 ms from t = 0; 4 allowed CPUs)\n"
					    "  from (ms)           0     10     20     30     40     50     60     70     80     90\n"
					    "  busy CPUs         1.0    1.0    1.0    1.0    1.0    1.0    1.0    1.0    1.0    1.0\n"
					    "  mean rq depth    0.25   0.25   0.25   0.25   0.25   0.25   0.25   0.25   0.25   0.25\n"
					    "  CPUs busy      <10 % 3, 10-50 % 0, 50-90 % 0, >=90 % 1\n"
					    "  max rq depth   1 (CPU 0)\n"));
		g_free(j);
		g_free(txt);
		ss_results_free(r);
	}

	/* the run ends at 65 ms, inside the window: 6.5 slices */
	struct ss_run_config c = config(t, w, "sis_util", 35 * MS, 30 * MS);
	struct ss_results *r = run(&c);
	assert_int_equal(r->startup.end_ns, 65 * MS);
	assert_startup_cpu(r, 0, 65 * MS, 65 * MS, 1);
	for (unsigned k = 0; k < SS_STARTUP_SLICES; k++)
		assert_int_equal(r->startup.slice_busy_ns[k], k < 6 ? 10 * MS : k == 6 ? 5 * MS : 0);
	char *j = ss_results_to_json(r), *txt = ss_results_to_text(r);
	assert_non_null(strstr(j, "\"from_ns\":\t60000000,\n\t\t\t\t\"to_ns\":\t65000000,\n\t\t\t\t\"busy_cpus\":\t1,\n"));
	assert_null(strstr(j, "\"from_ns\":\t70000000"));
	assert_non_null(strstr(txt, "\nstart-up (first 100 ms from t = 0; the run ended at 65 ms; 4 allowed CPUs)\n"
				    "  from (ms)           0     10     20     30     40     50     60\n"));
	g_free(j);
	g_free(txt);
	ss_results_free(r);

	/* a 50 ms window: slices of 5 ms */
	c = config(t, w, "sis_util", 0, 200 * MS);
	set(&c, "stats.startup_window_ns=50ms");
	r = run(&c);
	assert_int_equal(r->startup.window_ns, 50 * MS);
	assert_int_equal(r->startup.end_ns, 50 * MS);
	assert_startup_cpu(r, 0, 50 * MS, 50 * MS, 1);
	for (unsigned k = 0; k < SS_STARTUP_SLICES; k++)
		assert_int_equal(r->startup.slice_busy_ns[k], 5 * MS);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Start-up by hand on a 4-CPU machine, every cost 0: CPU0 runs a hog, CPU1
 * a task that runs 25 ms and exits, CPU2 two hogs (depth 2), CPU3 nothing.
 * Slices 0 and 1: 3 busy CPUs, depth (1 + 1 + 2) / 4 = 1; slice 2: CPU1
 * busy 5 ms of it, 2.5 busy CPUs, depth 0.875; from slice 3 on: 2 busy
 * CPUs, depth 0.75. By busy share: CPU3 below 10 %, CPU1 (25 %) in
 * 10-50 %, CPU0 and CPU2 at >= 90 %; the deepest rq is CPU2's, 2.
 */
static void test_startup_by_hand(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w = wl_from(
		"name: start\ninstance: machine\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: hog\n    cpus: \"0\"\n    start_cpu: 0\n    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - run: 10ms\n"
		"  - name: short\n    cpus: \"1\"\n    start_cpu: 1\n    program:\n      - run: 25ms\n"
		"  - name: pair\n    count: 2\n    cpus: \"2\"\n    start_cpu: 2\n    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - run: 10ms\n");
	struct ss_run_config c = config(t, w, "sis_util", 20 * MS, 200 * MS);
	struct ss_results *r = run(&c);

	assert_startup_cpu(r, 0, 100 * MS, 100 * MS, 1);
	assert_startup_cpu(r, 1, 25 * MS, 25 * MS, 1);
	assert_startup_cpu(r, 2, 100 * MS, 200 * MS, 2);
	assert_startup_cpu(r, 3, 0, 0, 0);
	for (unsigned k = 0; k < SS_STARTUP_SLICES; k++) {
		uint64_t busy = k < 2 ? 30 * MS : k == 2 ? 25 * MS : 20 * MS;
		uint64_t depth = k < 2 ? 40 * MS : k == 2 ? 35 * MS : 30 * MS;

		assert_int_equal(r->startup.slice_busy_ns[k], busy);
		assert_int_equal(r->startup.slice_nr_running_ns[k], depth);
	}
	char *txt = ss_results_to_text(r);
	assert_non_null(strstr(txt, "\n  busy CPUs         3.0    3.0    2.5    2.0    2.0    2.0    2.0    2.0    2.0    2.0\n"
				    "  mean rq depth    1.00   1.00   0.88   0.75   0.75   0.75   0.75   0.75   0.75   0.75\n"
				    "  CPUs busy      <10 % 1, 10-50 % 1, 50-90 % 0, >=90 % 2\n"
				    "  max rq depth   2 (CPU 2)\n"));
	g_free(txt);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Six CPU-bound tasks forked from CPU0 at t = 0 (no start_cpu: the
 * harness's fork path, find_idlest_cpu()) on a 4-CPU machine, with
 * load_balance() moving nothing: the first four forks each find an idle
 * CPU (CPU0, then 1, 2, 3: group_has_spare, most idle CPUs); the fifth and
 * sixth find none idle anywhere and stay in the local group (its idle CPUs,
 * 0, are not fewer than the idlest group's): CPU0. So CPU0 holds 3 tasks
 * for the whole window, CPUs 1-3 one each; every CPU is busy throughout
 * and every slice has 4 busy CPUs at a mean depth of 6 / 4.
 */
static void test_startup_forked(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	struct ss_workload *w = wl_from(
		"name: forked\ninstance: machine\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: hog\n    count: 6\n    program:\n"
		"      - loop:\n          forever: true\n          do:\n            - run: 10ms\n");
	struct ss_run_config c = config(t, w, "sis_util", 0, 150 * MS);
	set(&c, "balance.load_balance=0");
	struct ss_results *r = run(&c);

	assert_startup_cpu(r, 0, 100 * MS, 3 * 100 * MS, 3);
	for (unsigned cpu = 1; cpu < 4; cpu++)
		assert_startup_cpu(r, cpu, 100 * MS, 100 * MS, 1);
	for (unsigned k = 0; k < SS_STARTUP_SLICES; k++) {
		assert_int_equal(r->startup.slice_busy_ns[k], 4 * 10 * MS);
		assert_int_equal(r->startup.slice_nr_running_ns[k], 6 * 10 * MS);
	}
	char *j = ss_results_to_json(r), *txt = ss_results_to_text(r);
	assert_non_null(strstr(j, "\"busy_cpus\":\t4,\n\t\t\t\t\"rq_depth_mean\":\t1.5\n"));
	assert_non_null(strstr(j, "\"cpu\":\t0,\n\t\t\t\t\"busy_pct\":\t100,\n\t\t\t\t\"rq_depth_mean\":\t3,\n"
				  "\t\t\t\t\"rq_depth_max\":\t3\n"));
	assert_non_null(strstr(txt, "  CPUs busy      <10 % 0, 10-50 % 0, 50-90 % 0, >=90 % 4\n"
				    "  max rq depth   3 (CPU 0)\n"));
	g_free(j);
	g_free(txt);
	ss_results_free(r);

	/* the same with six CPUs: one fork each, depth 1 everywhere; the deepest rq is the first of six */
	struct ss_topology *t6 = topo("name: flat6\nvendor: arm\ncores: \"0-5\"\n");
	c = config(t6, w, "sis_util", 0, 150 * MS);
	set(&c, "balance.load_balance=0");
	r = run(&c);
	for (unsigned cpu = 0; cpu < 6; cpu++)
		assert_startup_cpu(r, cpu, 100 * MS, 100 * MS, 1);
	txt = ss_results_to_text(r);
	assert_non_null(strstr(txt, "  max rq depth   1 (CPU 0 and 5 more)\n"));
	g_free(txt);
	ss_results_free(r);
	ss_topology_free(t6);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* ------------------------------------------------------------ select_idle_cpu by walk kind */

/* one LLC of two SMT cores: CPUs 0 and 2 are one core, 1 and 3 the other */
static const char smt4_yaml[] = "name: smt4\nvendor: intel\npackages:\n  - nodes:\n      - llcs:\n"
				"          - cores: [[0, 2], [1, 3]]\n";

static struct ss_sim *smt4_state(const struct ss_topology *t, const char *policy)
{
	GError *err = NULL;
	struct ss_state_config sc = { .topo = t, .policy = policy, .nr_tasks = 1 };
	struct ss_sim *s = ss_state_new(&sc, &err);
	if (!s)
		fail_msg("%s", err->message);
	/* the core of CPU 0 busy: the wakee's prev and target; the other core idle */
	for (unsigned c = 0; c < 4; c += 2)
		if (!ss_state_set_cpu(s, c, &(struct ss_cpu_desc){ .nr_running = 1, .util_avg = 512, .idle_state = -1 }, &err))
			fail_msg("%s", err->message);
	if (!ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 0, .recent_used_cpu = -1 }, &err))
		fail_msg("%s", err->message);
	ss_state_set_waker(s, 0, -1);
	s->measuring = true;   /* a state counts nothing by itself: count its steps as a run's window would */
	/* probes by distance, and no sd_llc_shared read priced: a frame's time is its probes' costs */
	s->coherence = false;
	return s;
}

/* the cost the frame charged: every probe of the step but the fast path's first (target) */
static uint64_t cost_after_target(const struct ss_placement *pl)
{
	uint64_t c = 0;
	for (unsigned i = 1; i < pl->nr_probes; i++)
		c += pl->probes[i].cost_ns;
	return c;
}

/*
 * A wakeup whose LLC has has_idle_cores set walks core by core and is
 * counted as an idle-core walk; one without it walks CPU by CPU (after
 * select_idle_smt() on prev's siblings) and is an idle-CPU walk.
 */
static void test_sic_kind_wakeups(void **state)
{
	struct ss_topology *t = topo(smt4_yaml);
	struct ss_sim *s = smt4_state(t, "sis_util");
	struct ss_results *r = s->res;
	struct ss_placement pl;
	uint64_t core_cost, cpu_cost;

	ss_state_set_llc(s, 0, 4, true);
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 0, 0, &pl), 1);   /* core {1, 3} is idle */
	assert_int_equal(pl.probes[0].cpu, 0);
	assert_int_equal(pl.nr_probes, 3);                                      /* 0, then 1 and 3 */
	core_cost = cost_after_target(&pl);
	assert_true(core_cost > 0);
	assert_int_equal(r->sic_calls, 1);
	assert_int_equal(r->sic_time_core.n, 1);
	assert_int_equal(r->sic_time_cpu.n, 0);
	assert_int_equal(r->sic_probes_core, 2);
	assert_int_equal(r->sic_time_core.sum, core_cost);
	assert_int_equal(r->sis.core_searches, 1);

	ss_state_set_llc(s, 0, 4, false);
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 0, 0, &pl), 1);   /* 2 (prev's sibling) busy, then 1 */
	assert_int_equal(pl.nr_probes, 3);                                      /* 0, 2, 1: select_idle_cpu probed 1 */
	cpu_cost = pl.probes[2].cost_ns;
	assert_int_equal(r->sic_calls, 2);
	assert_int_equal(r->sic_time_core.n, 1);
	assert_int_equal(r->sic_time_cpu.n, 1);
	assert_int_equal(r->sic_probes_cpu, 1);
	assert_int_equal(r->sic_time_cpu.sum, cpu_cost);
	assert_int_equal(r->sic_probes_core + r->sic_probes_cpu, r->sic_probes);

	/* the all-calls histogram is their sum */
	ss_sic_time_merge(r);
	assert_int_equal(r->sic_time.n, 2);
	assert_int_equal(r->sic_time.sum, core_cost + cpu_cost);
	assert_true(r->sic_time.count[64 - __builtin_clzll(core_cost)] >= 1);
	assert_true(r->sic_time.count[64 - __builtin_clzll(cpu_cost)] >= 1);
	ss_state_free(s);
	ss_topology_free(t);
}

/*
 * A plugin's search is told has_idle_core; it counts as the walk it makes:
 * passed on to ss_select_idle_cpu_nr() it is an idle-core walk, a linear
 * budgeted walk (has_idle_core false) an idle-CPU walk although the LLC
 * has idle cores.
 */
static int scan_core(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target)
{
	long nr = -1;
	return ss_select_idle_cpu_nr(sim, p, ss_cpu_llc_mask(sim, (unsigned)target), target, has_idle_core, &nr);
}
static int scan_linear(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target)
{
	long nr = 4;
	(void)has_idle_core;
	return ss_select_idle_cpu_nr(sim, p, ss_cpu_llc_mask(sim, (unsigned)target), target, false, &nr);
}
static int place_core(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	(void)wake_flags;
	return ss_select_idle_sibling_scan(sim, p, prev_cpu, prev_cpu, scan_core);
}
static int place_linear(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	(void)wake_flags;
	return ss_select_idle_sibling_scan(sim, p, prev_cpu, prev_cpu, scan_linear);
}
static const struct ss_policy_ops core_ops = {
	.abi_version = SS_POLICY_ABI_VERSION, .name = "test_sic_kind_core", .description = "test",
	.source = "tests/test_counters.c", .select_task_rq = place_core,
};
static const struct ss_policy_ops linear_ops = {
	.abi_version = SS_POLICY_ABI_VERSION, .name = "test_sic_kind_linear", .description = "test",
	.source = "tests/test_counters.c", .select_task_rq = place_linear,
};

static void test_sic_kind_plugin(void **state)
{
	struct ss_topology *t = topo(smt4_yaml);
	GError *err = NULL;
	struct ss_placement pl;

	assert_true(ss_policy_register(&core_ops, &err));
	assert_true(ss_policy_register(&linear_ops, &err));
	struct ss_sim *s = smt4_state(t, "test_sic_kind_core");
	ss_state_set_llc(s, 0, 4, true);
	assert_int_equal(ss_state_select_task_rq(s, 0, 0, SS_WF_TTWU, &pl), 1);
	assert_int_equal(s->res->sic_calls, 1);
	assert_int_equal(s->res->sic_time_core.n, 1);
	assert_int_equal(s->res->sic_time_cpu.n, 0);
	assert_int_equal(s->res->sic_probes_core, 2);
	ss_state_free(s);

	s = smt4_state(t, "test_sic_kind_linear");
	ss_state_set_llc(s, 0, 4, true);
	assert_int_equal(ss_state_select_task_rq(s, 0, 0, SS_WF_TTWU, &pl), 1);
	assert_int_equal(s->res->sic_calls, 1);
	assert_int_equal(s->res->sic_time_core.n, 0);
	assert_int_equal(s->res->sic_time_cpu.n, 1);
	assert_int_equal(s->res->sic_probes_cpu, 1);
	ss_state_free(s);
	ss_topology_free(t);
}

/* over a run: the kinds add up to every call; a machine without SMT has no idle-core walk */
static void test_sic_kind_run(void **state)
{
	GError *err = NULL;
	struct ss_topology *d = ss_topology_load(SS_SOURCE_DIR "/topologies/desktop-8c16t.yaml", &err);
	struct ss_topology *flat = topo(flat8_yaml);
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/hackbench-process-pipes.yaml", &err);
	if (!d || !w)
		fail_msg("%s", err->message);
	for (int i = 0; i < 2; i++) {
		struct ss_run_config c = { 0 };
		c.topo = i ? flat : d;
		c.wl = w;
		c.policy = "sis_util";
		ss_params_defaults(&c.params, c.topo);
		c.load_pct_x100 = 5000;
		c.seed = 1;
		c.warmup_ns = 50 * MS;
		c.duration_ns = 100 * MS;
		struct ss_results *r = run(&c);
		const struct ss_log2_hist *a = &r->sic_time, *k = &r->sic_time_core, *u = &r->sic_time_cpu;
		assert_true(r->sic_calls > 100);
		if (i) {
			assert_int_equal(k->n, 0);
			assert_int_equal(r->sic_probes_core, 0);
		} else {
			assert_true(k->n > 10 && u->n > 10);   /* hackbench at 50 % on 8 cores x 2: both walks */
		}
		assert_int_equal(k->n + u->n, r->sic_calls);
		assert_int_equal(a->n, r->sic_calls);
		assert_int_equal(k->sum + u->sum, a->sum);
		for (unsigned b = 0; b < SS_LOG2_BUCKETS; b++)
			assert_int_equal(k->count[b] + u->count[b], a->count[b]);
		assert_int_equal(r->sic_probes_core + r->sic_probes_cpu, r->sic_probes);
		char *j = ss_results_to_json(r);
		assert_non_null(strstr(j, "\"time_per_call_ns_idle_core\":"));
		assert_non_null(strstr(j, "\"time_per_call_ns_idle_cpu\":"));
		g_free(j);
		char *txt = ss_results_to_text(r);
		assert_non_null(strstr(txt, "(idle-core walk "));
		/* the two histograms only when both kinds have calls */
		assert_true(!strstr(txt, "@nsecs_idle_core") == (i == 1));
		g_free(txt);
		ss_results_free(r);
	}
	ss_workload_free(w);
	ss_topology_free(flat);
	ss_topology_free(d);
}

/* ------------------------------------------------------------ the µs histogram and its S05 figures */

/*
 * One select_idle_cpu() call probing one runqueue at cost.probe_llc_ns =
 * ns: its µs bucket is bpftrace's hist(ns / 1000) with integer division
 * (7999 ns is 7 µs, [4, 8); 8000 ns 8 µs, [8, 16)).
 */
static unsigned us_bucket_of_call(const struct ss_topology *t, uint64_t ns)
{
	GError *err = NULL;
	g_autofree char *cost = g_strdup_printf("cost.probe_llc_ns=%" G_GUINT64_FORMAT, ns);
	const char *set[] = { cost, NULL };
	struct ss_state_config sc = { .topo = t, .policy = "sis_util", .set = set, .nr_tasks = 1 };
	struct ss_sim *s = ss_state_new(&sc, &err);
	struct ss_placement pl;
	unsigned b;

	if (!s)
		fail_msg("%s", err->message);
	assert_true(ss_state_set_cpu(s, 0, &(struct ss_cpu_desc){ .nr_running = 1, .util_avg = 512, .idle_state = -1 }, &err));
	s->measuring = true;
	assert_int_equal(ss_state_select_idle_cpu(s, 0, 0, false, &pl), 1);
	assert_int_equal(pl.scan_cost_ns, ns);
	assert_int_equal(s->res->sic_time_us.n, 1);
	b = ss_log2_hist_mode(&s->res->sic_time_us);
	assert_int_equal(s->res->sic_time_us.count[b], 1);
	assert_true(metric(s->res, "sic_time_mode_ns") == (b ? 1000.0 * (double)(UINT64_C(1) << (b - 1)) : 0.0));
	assert_true(metric(s->res, "sic_time_8us_512us_pct") == (ns >= 8000 && ns < 512000 ? 100.0 : 0.0));
	ss_state_free(s);
	return b;
}

static void test_sic_time_us_buckets(void **state)
{
	struct ss_topology *t = topo(flat4_yaml);
	assert_int_equal(us_bucket_of_call(t, 999), 0);        /* [0]: 0 us */
	assert_int_equal(us_bucket_of_call(t, 1000), 1);       /* [1] */
	assert_int_equal(us_bucket_of_call(t, 7999), 3);       /* [4, 8) */
	assert_int_equal(us_bucket_of_call(t, 8000), 4);       /* [8, 16) */
	assert_int_equal(us_bucket_of_call(t, 32000), 6);      /* [32, 64) */
	assert_int_equal(us_bucket_of_call(t, 63999), 6);
	assert_int_equal(us_bucket_of_call(t, 511999), 9);     /* [256, 512) */
	assert_int_equal(us_bucket_of_call(t, 512000), 10);    /* [512, 1K) */
	ss_topology_free(t);
}

/* add count calls of us µs each */
static void add_us(struct ss_results *r, uint64_t us, unsigned count)
{
	for (unsigned i = 0; i < count; i++)
		ss_log2_hist_add(&r->sic_time_us, us);
}

/* The mode and the [8, 512) us share from known histograms; no calls: no value (NAN), never 0. */
static void test_sic_time_us_metrics(void **state)
{
	struct ss_results *r = g_new0(struct ss_results, 1);

	assert_true(isnan(metric(r, "sic_time_mode_ns")));
	assert_true(isnan(metric(r, "sic_time_8us_512us_pct")));
	/* the seed's histogram (seed 000 lines 26-44), in thousands of calls */
	static const unsigned real[] = { 1, 5, 12, 239, 4042, 12357, 14820, 13048, 8235, 4508, 2600, 928, 219, 98, 38, 7, 0, 0 };
	unsigned tot = 0, in = 0;
	for (unsigned b = 0; b < G_N_ELEMENTS(real); b++) {
		add_us(r, b ? UINT64_C(1) << (b - 1) : 0, real[b]);
		tot += real[b];
		in += b >= 4 && b <= 9 ? real[b] : 0;
	}
	assert_true(metric(r, "sic_time_mode_ns") == 32000.0);   /* [32, 64) us */
	assert_true(fabs(metric(r, "sic_time_8us_512us_pct") - 100.0 * in / tot) < 1e-9);
	assert_true(metric(r, "sic_time_8us_512us_pct") > 93.0 && metric(r, "sic_time_8us_512us_pct") < 93.5);
	memset(&r->sic_time_us, 0, sizeof r->sic_time_us);

	/* equal buckets: the lowest; the bucket edges 8 and 512 us */
	add_us(r, 3, 5);     /* [2, 4) */
	add_us(r, 8, 2);     /* [8, 16): in */
	add_us(r, 511, 2);   /* [256, 512): in */
	add_us(r, 512, 5);   /* [512, 1K): out */
	add_us(r, 7, 1);     /* [4, 8): out */
	assert_true(metric(r, "sic_time_mode_ns") == 2000.0);
	assert_true(metric(r, "sic_time_8us_512us_pct") == 100.0 * 4 / 15);
	memset(&r->sic_time_us, 0, sizeof r->sic_time_us);

	/* every call under 1 us (today's model on S05): mode 0 ns, a value, not missing */
	add_us(r, 0, 10);
	assert_true(metric(r, "sic_time_mode_ns") == 0.0);
	assert_true(metric(r, "sic_time_8us_512us_pct") == 0.0);
	assert_int_equal(ss_log2_hist_mode(&r->sic_time_us), 0);
	memset(&r->sic_time_us, 0, sizeof r->sic_time_us);
	assert_int_equal(ss_log2_hist_mode(&r->sic_time_us), SS_LOG2_BUCKETS);
	g_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_mask_fail_every_scan),
		cmocka_unit_test(test_full_mask_fail_no_calls),
		cmocka_unit_test(test_by_budget_sums),
		cmocka_unit_test(test_nr_fixed),
		cmocka_unit_test(test_bursts_by_hand),
		cmocka_unit_test(test_single_wake_is_no_burst),
		cmocka_unit_test(test_idle_with_work_classes_agree),
		cmocka_unit_test(test_nr_idle_scan_written),
		cmocka_unit_test(test_up_and_idle),
		cmocka_unit_test(test_ended_ns),
		cmocka_unit_test(test_startup_one_task),
		cmocka_unit_test(test_startup_by_hand),
		cmocka_unit_test(test_startup_forked),
		cmocka_unit_test(test_sic_kind_wakeups),
		cmocka_unit_test(test_sic_kind_plugin),
		cmocka_unit_test(test_sic_kind_run),
		cmocka_unit_test(test_sic_time_us_buckets),
		cmocka_unit_test(test_sic_time_us_metrics),
		cmocka_unit_test(test_wakee_landing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

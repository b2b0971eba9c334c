/*
 * The policy API: the example plugin (docs/examples/policy-plugin) loaded
 * with GModule and run; each load error with its own message; policies
 * registered from the program; and select_idle_cpu()'s feature semantics
 * (kernel v6.6 fair.c) exercised through a registered policy that sets up
 * the LLC state itself at a wakeup.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "simsched/policy.h"

static struct ss_topology *kunpeng;
static struct ss_workload *netperf;

static int setup(void **state)
{
	GError *err = NULL;
	kunpeng = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	netperf = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	if (err)
		fprintf(stderr, "%s\n", err->message);
	return !(kunpeng && netperf);
}

static int teardown(void **state)
{
	ss_topology_free(kunpeng);
	ss_workload_free(netperf);
	return 0;
}

static struct ss_run_config config(const struct ss_topology *t, const struct ss_workload *w, const char *policy,
				   unsigned load_pct)
{
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = w;
	c.policy = policy;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = load_pct * 100;
	c.seed = 3;
	c.warmup_ns = 50000000;
	c.duration_ns = 50000000;
	return c;
}

static struct ss_results *run(struct ss_run_config *c)
{
	GError *err = NULL;
	struct ss_results *r = ss_simulate(c, &err);
	if (!r)
		fail_msg("%s", err->message);
	return r;
}

/* identities every run's SIS statistics satisfy */
static void check_sis_identities(const struct ss_results *r)
{
	struct ss_sis_stats sum = { 0 };
	uint64_t outcomes = 0;
	for (unsigned i = 0; i < SS_SIS_NR; i++)
		outcomes += r->sis_outcome[i];
	assert_int_equal(r->sis.calls, r->sis_calls);
	assert_int_equal(outcomes, r->sis.calls);
	assert_int_equal(r->sis.fast, r->sis_outcome[SS_SIS_TARGET] + r->sis_outcome[SS_SIS_PREV] + r->sis_outcome[SS_SIS_RECENT]);
	/* every call reads target: at least one runqueue each */
	assert_true(r->sis.scanned >= r->sis.calls);
	assert_true(r->sis.domain_scanned <= r->sis.scanned);
	assert_true(r->sis.domain_failed <= r->sis.failed && r->sis.failed <= r->sis.calls);
	assert_true(r->sis.walked_all <= r->sis.domain_failed);
	assert_true(r->sis.domain_searches + r->sis.fast <= r->sis.calls);
	assert_int_equal(r->sis_scanned_hist.n, r->sis.calls);
	assert_int_equal(r->sis_scanned_hist.sum, r->sis.scanned);
	assert_int_equal(r->sis.scanned, r->sis_probes_total);
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		const struct ss_sis_stats *s = &r->llc[l].sis;
		sum.calls += s->calls;
		sum.fast += s->fast;
		sum.domain_searches += s->domain_searches;
		sum.scanned += s->scanned;
		sum.domain_scanned += s->domain_scanned;
		sum.failed += s->failed;
		sum.domain_failed += s->domain_failed;
		sum.core_searches += s->core_searches;
		sum.walked_all += s->walked_all;
	}
	assert_memory_equal(&sum, &r->sis, sizeof sum);
	/* the select_idle_cpu figures: one histogram entry per call, per-LLC sums are the totals */
	uint64_t sic_calls = 0, sic_probes = 0, sic_found = 0;
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		sic_calls += r->llc[l].sic_calls;
		sic_probes += r->llc[l].sic_probes;
		sic_found += r->llc[l].sic_found;
	}
	assert_int_equal(sic_calls, r->sic_calls);
	assert_int_equal(sic_probes, r->sic_probes);
	assert_int_equal(sic_found, r->sic_found);
	assert_int_equal(r->sic_time.n, r->sic_calls);
	assert_int_equal(r->sic_probes_hist.n, r->sic_calls);
	assert_int_equal(r->sic_probes_hist.sum, r->sic_probes);
	assert_true(r->sic_found + r->sic_nr_exhausted <= r->sic_calls);
	assert_true(r->sic_probes <= r->sis.domain_scanned);
}

/* ---------------------------------------------------------------- the example plugin */

static void test_example_plugin(void **state)
{
	GError *err = NULL;
	const char *name = NULL, *again = NULL;
	assert_true(ss_policy_plugin_load(SS_PLUGIN_DIR "/cluster_first.so", &name, &err));
	assert_string_equal(name, "cluster_first");
	/* loading it again is harmless and gives the same policy */
	assert_true(ss_policy_plugin_load(SS_PLUGIN_DIR "/cluster_first.so", &again, &err));
	assert_string_equal(again, "cluster_first");
	const struct ss_policy *pol = ss_policy_find("cluster_first");
	assert_non_null(pol);
	assert_int_equal(pol->nr_params, 1);
	assert_string_equal(pol->params[0].key, "cluster_only");

	/* 70 % netperf on kunpeng920: the fast path fails often enough for domain searches, and some find an idle CPU */
	struct ss_run_config c = config(kunpeng, netperf, "cluster_first", 70);
	struct ss_results *a = run(&c), *b = run(&c);
	assert_string_equal(a->policy, "cluster_first");
	assert_true(a->transactions > 0);
	assert_true(a->sis.domain_searches > 1000);
	assert_true(a->sis.domain_scanned > a->sis.domain_searches);
	check_sis_identities(a);
	/*
	 * the plugin's domain search is its select_idle_cpu(): every domain
	 * search reaches it (kunpeng920 has no SMT: no select_idle_smt step),
	 * and every runqueue a domain search reads is the plugin's probe
	 */
	assert_int_equal(a->sic_calls, a->sis.domain_searches);
	assert_int_equal(a->sic_probes, a->sis.domain_scanned);
	assert_true(a->sic_found > 0 && a->sic_found <= a->sic_calls);
	assert_int_equal(a->sic_found, a->sis.domain_searches - a->sis.domain_failed);
	/* a plugin run is as deterministic as a built-in one */
	char *ja = ss_results_to_json(a), *jb = ss_results_to_json(b);
	assert_string_equal(ja, jb);
	g_free(ja);
	g_free(jb);

	/* it is not sis_util: the scan order and budget split differ */
	struct ss_run_config cu = config(kunpeng, netperf, "sis_util", 80);
	struct ss_results *u = run(&cu);
	assert_true(u->sis.domain_scanned != a->sis.domain_scanned || u->sis.failed != a->sis.failed);

	/*
	 * policy.cluster_only=1 at 60 % (where nr_idle_scan leaves room beyond
	 * the cluster): a domain search reads at most the 4 CPUs of target's
	 * cluster, walks it whole more often and fails more often.
	 */
	struct ss_run_config c6 = config(kunpeng, netperf, "cluster_first", 60);
	struct ss_results *a6 = run(&c6);
	struct ss_run_config co = config(kunpeng, netperf, "cluster_first", 60);
	assert_true(ss_params_set(&co.params, "cluster_first", "policy.cluster_only=1", &err));
	struct ss_results *o = run(&co);
	assert_true(o->sis.domain_searches > 1000);
	assert_true(o->sis.domain_scanned <= 4 * o->sis.domain_searches);
	assert_true(a6->sis.domain_scanned > 4 * a6->sis.domain_searches / 2);
	assert_true(o->sis.walked_all > 1000 && o->sis.walked_all > a6->sis.walked_all);
	assert_true(o->sis.failed > a6->sis.failed);
	ss_results_free(a6);
	check_sis_identities(o);
	/* an out-of-range value is refused with the key's range */
	assert_false(ss_params_set(&co.params, "cluster_first", "policy.cluster_only=2", &err));
	assert_non_null(strstr(err->message, "0..1"));
	g_clear_error(&err);
	ss_results_free(a);
	ss_results_free(b);
	ss_results_free(u);
	ss_results_free(o);
}

/*
 * A plugin that is sis_util rebuilt from the API's shared steps
 * (tests/plugins/plugin_sis_util_copy.c) gives the built-in's figures, byte
 * for byte: its domain search is counted as select_idle_cpu() calls, its
 * walk's probes, answers, budget stops and scan time as the built-in's.
 * Only run.policy differs, and skipped_nr_idle_scan_0, which counts the
 * built-in SIS_UTIL's own early return (the copy's return -1 is a call that
 * probed nothing).
 */
static char *json_without(const struct ss_results *r)
{
	char *j = ss_results_to_json(r), *out;
	cJSON *o = cJSON_Parse(j);
	g_free(j);
	assert_non_null(o);
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "run"), "policy");
	cJSON_DeleteItemFromObjectCaseSensitive(cJSON_GetObjectItemCaseSensitive(o, "select_idle_cpu"),
						"skipped_nr_idle_scan_0");
	out = cJSON_Print(o);
	cJSON_Delete(o);
	return out;
}

static void test_plugin_copy_of_sis_util(void **state)
{
	GError *err = NULL;
	const char *name = NULL;
	assert_true(ss_policy_plugin_load(SS_PLUGIN_DIR "/plugin_sis_util_copy.so", &name, &err));
	assert_string_equal(name, "test_sis_util_copy");
	/* 80 %, short: SIS_UTIL both skips scans (nr_idle_scan == 0) and probes with a budget that runs out */
	struct ss_run_config cb = config(kunpeng, netperf, "sis_util", 80);
	struct ss_run_config cc = config(kunpeng, netperf, "test_sis_util_copy", 80);
	cb.warmup_ns = cc.warmup_ns = cb.duration_ns = cc.duration_ns = 20000000;
	/* booted at t = 0: the budgets start at 0 and the first LLC balances come in the window (a skip regime) */
	cb.params.idle_before_ns = cc.params.idle_before_ns = 0;
	struct ss_results *b = run(&cb), *c = run(&cc);
	check_sis_identities(b);
	check_sis_identities(c);
	assert_true(b->sic_calls > 1000);
	assert_true(b->sic_probes > 1000 && b->sic_found > 0 && b->sic_nr_exhausted > 0 && b->sic_skipped_nr0 > 0);
	assert_int_equal(c->sic_calls, b->sic_calls);
	assert_int_equal(c->sic_probes, b->sic_probes);
	assert_int_equal(c->sic_found, b->sic_found);
	assert_int_equal(c->sic_nr_exhausted, b->sic_nr_exhausted);
	assert_int_equal(c->sic_time.sum, b->sic_time.sum);
	assert_int_equal(c->transactions, b->transactions);
	assert_int_equal(c->sic_skipped_nr0, 0);
	char *jb = json_without(b), *jc = json_without(c);
	assert_string_equal(jb, jc);
	cJSON_free(jb);
	cJSON_free(jc);
	ss_results_free(b);
	ss_results_free(c);
}

/* ---------------------------------------------------------------- load errors */

static void expect_load_error(const char *path, int code, const char *what)
{
	GError *err = NULL;
	const char *name = NULL;
	assert_false(ss_policy_plugin_load(path, &name, &err));
	assert_non_null(err);
	assert_int_equal(err->code, code);
	if (!strstr(err->message, what))
		fail_msg("%s: expected '%s' in: %s", path, what, err->message);
	assert_non_null(strstr(err->message, path));
	g_error_free(err);
}

static void test_load_errors(void **state)
{
	expect_load_error(SS_PLUGIN_DIR "/no_such_plugin.so", SS_ERROR_IO, "no such policy plugin file");
	expect_load_error(SS_PLUGIN_DIR, SS_ERROR_IO, "is a directory");
	/* a file that is not a shared object */
	expect_load_error(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", SS_ERROR_INVALID, "not a shared object");
	expect_load_error(SS_PLUGIN_DIR "/plugin_no_symbol.so", SS_ERROR_INVALID,
			  "does not export the function ss_policy_plugin_v1");
	expect_load_error(SS_PLUGIN_DIR "/plugin_bad_abi.so", SS_ERROR_INVALID,
			  "policy plugin ABI version 42, but this simsched has ABI version 1");
	assert_null(ss_policy_find("bad_abi"));
}

static int noop_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	return prev_cpu;
}

static void test_register_checks(void **state)
{
	GError *err = NULL;
	static const struct ss_policy_ops taken = {
		.abi_version = SS_POLICY_ABI_VERSION, .name = "sis_util", .select_task_rq = noop_select,
	};
	static const struct ss_policy_ops badname = {
		.abi_version = SS_POLICY_ABI_VERSION, .name = "Bad-Name", .select_task_rq = noop_select,
	};
	static const struct ss_policy_ops nohook = { .abi_version = SS_POLICY_ABI_VERSION, .name = "nohook" };
	static const struct ss_policy_param p[] = { { "k", "x", "doc", 5, 0, 3 } };
	static const struct ss_policy_ops baddef = {
		.abi_version = SS_POLICY_ABI_VERSION, .name = "baddef", .select_task_rq = noop_select, .params = p, .nr_params = 1,
	};
	static const struct ss_policy_ops badfeat = {
		.abi_version = SS_POLICY_ABI_VERSION, .name = "badfeat", .select_task_rq = noop_select, .features = "SIS_NOPE",
	};
	static const struct ss_policy_ops ok = {
		.abi_version = SS_POLICY_ABI_VERSION, .name = "test_noop", .select_task_rq = noop_select,
	};
	const struct { const struct ss_policy_ops *ops; const char *msg; } cases[] = {
		{ &taken, "already taken" },
		{ &badname, "a-z, 0-9 and _" },
		{ &nohook, "no select_task_rq" },
		{ &baddef, "default 5 is not in 0..3" },
		{ &badfeat, "unknown sched feature 'SIS_NOPE'" },
	};
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		assert_false(ss_policy_register(cases[i].ops, &err));
		if (!strstr(err->message, cases[i].msg))
			fail_msg("expected '%s' in: %s", cases[i].msg, err->message);
		g_clear_error(&err);
	}
	assert_true(ss_policy_register(&ok, &err));
	assert_true(ss_policy_register(&ok, &err));   /* again: no-op */
	assert_non_null(ss_policy_find("test_noop"));
}

/* ---------------------------------------------------------------- select_idle_cpu semantics */

/*
 * An 8-CPU, one-LLC machine without SMT and one task that runs 1 ms and
 * sleeps 1 ms: at its wakeups every CPU is idle. The probe policy marks the
 * CPUs it wants busy (a pending wakeup: rq->wake_inflight, so idle_cpu() is
 * false), sets the features and SIS state, calls select_idle_cpu() and
 * records what it did; then restores everything and leaves the task on
 * prev_cpu.
 */
struct sic_case {
	const char *features;
	bool has_idle_core;
	unsigned nr_idle_scan;
	uint64_t wake_avg_idle, avg_scan_cost;
	int idle_cpu;            /* the one CPU left idle, -1: none */
	/* observed */
	bool done;
	int target, ret;
	uint64_t probes, time, avg_scan_cost_after, wake_avg_idle_after;
	bool has_idle_cores_after;
};

static struct sic_case *sic_cases;
static unsigned nr_sic_cases;

static int sic_probe_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	if (!sim->measuring)
		return prev_cpu;
	for (unsigned k = 0; k < nr_sic_cases; k++) {
		struct sic_case *c = &sic_cases[k];
		struct ss_rq *this_rq = &sim->rq[sim->this_cpu];
		const struct ss_cpu_topo *ct = &sim->topo->cpu[sim->this_cpu];
		struct ss_sd_rt *rt = &this_rq->sd_rt[ct->sd_llc];
		struct ss_sd_shared *sh = sd_llc_shared(sim, (unsigned)prev_cpu);
		ss_features_t saved = sim->features;
		uint64_t cost0, probes0, wai0 = this_rq->wake_avg_idle, asc0 = rt->avg_scan_cost;
		unsigned nis0 = sh->nr_idle_scan;
		bool hic0 = sh->has_idle_cores;
		GError *err = NULL;

		if (c->done)
			continue;
		sim->features = ss_features_default();
		assert_true(ss_features_parse(c->features, &sim->features, &err));
		for (unsigned cpu = 0; cpu < sim->nr_cpus; cpu++)
			if ((int)cpu != c->idle_cpu)
				sim->rq[cpu].wake_inflight++;
		sh->nr_idle_scan = c->nr_idle_scan;
		sh->has_idle_cores = c->has_idle_core;
		this_rq->wake_stamp = ss_jiffies(sim);   /* no aging of wake_avg_idle */
		this_rq->wake_avg_idle = c->wake_avg_idle;
		rt->avg_scan_cost = c->avg_scan_cost;
		cost0 = sim->scan_cost;
		probes0 = sim->res->sis_probes_total;

		c->target = prev_cpu;
		c->ret = ss_select_idle_cpu(sim, p, sd_llc(sim, (unsigned)prev_cpu), c->has_idle_core, prev_cpu);
		c->probes = sim->res->sis_probes_total - probes0;
		c->time = sim->scan_cost - cost0;
		c->avg_scan_cost_after = rt->avg_scan_cost;
		c->wake_avg_idle_after = this_rq->wake_avg_idle;
		c->has_idle_cores_after = sh->has_idle_cores;
		c->done = true;

		for (unsigned cpu = 0; cpu < sim->nr_cpus; cpu++)
			if ((int)cpu != c->idle_cpu)
				sim->rq[cpu].wake_inflight--;
		sh->nr_idle_scan = nis0;
		sh->has_idle_cores = hic0;
		this_rq->wake_avg_idle = wai0;
		rt->avg_scan_cost = asc0;
		sim->features = saved;
		break;   /* one case per wakeup */
	}
	return prev_cpu;
}

static void run_sic_cases(struct sic_case *cases, unsigned n)
{
	static const struct ss_policy_ops probe = {
		.abi_version = SS_POLICY_ABI_VERSION, .name = "test_sic_probe", .select_task_rq = sic_probe_select,
		.description = "test: select_idle_cpu() in set-up states", .features = "NO_SIS_UTIL,NO_SIS_PROP",
	};
	static const char topo[] = "name: eight\nvendor: arm\ncores: \"0-7\"\n";
	static const char wl[] =
		"name: periodic\ninstance: task\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: p\n    program:\n      - loop:\n          forever: true\n          do:\n"
		"            - run: 1ms\n            - sleep: 1ms\n            - transaction: end\n";
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(topo, sizeof topo - 1, "eight.yaml", &err);
	struct ss_workload *w = ss_workload_load_string(wl, sizeof wl - 1, "periodic.yaml", &err);
	assert_non_null(t);
	assert_non_null(w);
	assert_true(ss_policy_register(&probe, &err));
	struct ss_run_config c = config(t, w, "test_sic_probe", 1);
	c.load_pct_x100 = 1;   /* one instance */
	c.warmup_ns = 0;
	c.duration_ns = 40000000;
	sic_cases = cases;
	nr_sic_cases = n;
	struct ss_results *r = run(&c);
	for (unsigned k = 0; k < n; k++)
		if (!cases[k].done)
			fail_msg("case %u (%s) never ran", k, cases[k].features);
	ss_results_free(r);
	ss_topology_free(t);
	ss_workload_free(w);
}

static void test_select_idle_cpu_semantics(void **state)
{
	enum { BIG = 1000000 };   /* wake_avg_idle (ns): SIS_PROP's budget is then the whole LLC */
#define CASE(f, hic, nis, wai, asc, idle) \
	{ .features = f, .has_idle_core = hic, .nr_idle_scan = nis, .wake_avg_idle = wai, .avg_scan_cost = asc, .idle_cpu = idle }
	struct sic_case cs[] = {
		/* 0: SIS_UTIL and SIS_PROP on: nr_idle_scan + 1 = 3 wins over SIS_PROP's 8*10^6/1 -> 2 probes, none idle */
		CASE("SIS_UTIL,SIS_PROP", false, 2, BIG, 0, -1),
		/* 1: the same, one idle CPU on the second probe: found, and SIS_PROP's avg_scan_cost and
		 *    wake_avg_idle are maintained from the scan's time */
		CASE("SIS_UTIL,SIS_PROP", false, 2, BIG, 1000, -2),
		/* 2: SIS_UTIL with an idle core: nr_idle_scan does not bound the core walk: all 8 */
		CASE("SIS_UTIL,NO_SIS_PROP", true, 1, BIG, 0, -1),
		/* 3: ... except nr_idle_scan == 0: nothing scanned, has_idle_cores left set */
		CASE("SIS_UTIL,NO_SIS_PROP", true, 0, BIG, 0, -1),
		/* 4: both off: the whole LLC, 8 probes */
		CASE("NO_SIS_UTIL,NO_SIS_PROP", false, 0, 0, 0, -1),
		/* 5: SIS_PROP alone with wake_avg_idle 0: floor nr = 4 -> 3 probes */
		CASE("NO_SIS_UTIL,SIS_PROP", false, 5, 0, 0, -1),
		/* 6: SIS_UTIL alone, nr_idle_scan 5: 5 probes */
		CASE("SIS_UTIL,NO_SIS_PROP", false, 5, 0, 0, -1),
	};
	run_sic_cases(cs, 1);   /* learn the target (the task's CPU) for case 1's idle CPU */
	int target = cs[0].target;
	cs[0].done = false;
	cs[1].idle_cpu = (target + 2) % 8;   /* visited second: target + 1, target + 2 */
	run_sic_cases(cs, G_N_ELEMENTS(cs));

	assert_int_equal(cs[0].ret, -1);
	assert_int_equal(cs[0].probes, 2);
	assert_int_equal(cs[0].avg_scan_cost_after, 0);        /* "if (!--nr) return -1": no update */

	assert_int_equal(cs[1].ret, (target + 2) % 8);
	assert_int_equal(cs[1].probes, 2);
	assert_true(cs[1].time > 0);
	/* update_avg(&avg_scan_cost, time): 1000 + (time - 1000) / 8 */
	assert_int_equal(cs[1].avg_scan_cost_after, (uint64_t)(1000 + ((int64_t)cs[1].time - 1000) / 8));
	assert_int_equal(cs[1].wake_avg_idle_after, BIG - cs[1].time);

	assert_int_equal(cs[2].ret, -1);
	assert_int_equal(cs[2].probes, 8);
	assert_false(cs[2].has_idle_cores_after);              /* set_idle_cores(target, false) */

	assert_int_equal(cs[3].ret, -1);
	assert_int_equal(cs[3].probes, 0);
	assert_true(cs[3].has_idle_cores_after);

	assert_int_equal(cs[4].probes, 8);
	assert_int_equal(cs[5].probes, 3);
	assert_int_equal(cs[6].probes, 5);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_example_plugin),
		cmocka_unit_test(test_plugin_copy_of_sis_util),
		cmocka_unit_test(test_load_errors),
		cmocka_unit_test(test_register_checks),
		cmocka_unit_test(test_select_idle_cpu_semantics),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

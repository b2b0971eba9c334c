/*
 * test_kernel.c — what differs between --kernel 6.6 and --kernel 5.17 in
 * the wakeup path, on constructed states: ttwu_queue_cond() per version
 * (reference §2.1: v5.14–v5.19 queue only across LLCs; v6.0+ also to an idle
 * CPU of the waker's LLC) and select_idle_cpu()'s budgets (§2.6 SIS_PROP
 * with wake_avg_idle aging, the same code in both; §2.7 SIS_UTIL, v6.6 only),
 * and the policy × kernel table.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ss_sched.h"
#include "ss_fair.h"
#include "simsched/error.h"

/* one LLC of eight CPUs, another of four */
static const char topo_yaml[] = "name: llc8-llc4\nvendor: arm\nllcs:\n  - cores: \"0-7\"\n  - cores: \"8-11\"\n";
static const char wl_yaml[] =
	"name: one\ninstance: task\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n  - name: t\n    start_cpu: 1\n    program: [loop: {forever: true, do: [run: 1ms, sleep: 1ms]}]\n";

struct fixture {
	struct ss_topology *t;
	struct ss_workload *w;
};

static struct ss_sim *make_sim(struct fixture *f, const char *policy, enum ss_kernel k, GError **err)
{
	struct ss_run_config c = { 0 };
	c.topo = f->t;
	c.wl = f->w;
	c.policy = policy;
	c.kernel = k;
	ss_params_defaults(&c.params, f->t);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 1000000;
	return ss_sim_create(&c, err);
}

static struct ss_sim *must_sim(struct fixture *f, const char *policy, enum ss_kernel k)
{
	GError *err = NULL;
	struct ss_sim *sim = make_sim(f, policy, k, &err);
	if (!sim)
		fail_msg("%s", err->message);
	return sim;
}

static int setup(void **state)
{
	GError *err = NULL;
	struct fixture *f = g_new0(struct fixture, 1);
	f->t = ss_topology_load_string(topo_yaml, sizeof topo_yaml - 1, "llc8-llc4.yaml", &err);
	f->w = ss_workload_load_string(wl_yaml, sizeof wl_yaml - 1, "one.yaml", &err);
	*state = f;
	return !(f->t && f->w);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	ss_workload_free(f->w);
	ss_topology_free(f->t);
	g_free(f);
	return 0;
}

static struct ss_task busy_task;

static void set_busy(struct ss_sim *sim, unsigned cpu, bool busy)
{
	sim->rq[cpu].curr = busy ? &busy_task : NULL;
	sim->rq[cpu].cfs.nr_running = busy;
}

/*
 * ttwu_queue_cond() with the waker on CPU 1:
 *                                   v6.6    v5.17
 *   CPU 9 (other LLC), idle or busy  true    true     (cpus_share_cache() false)
 *   CPU 3 (same LLC), idle           true    false    (v6.0: idle wakee CPU -> wake list)
 *   CPU 3 (same LLC), busy           false   false
 *   CPU 1 (the waker's own)          false   false
 */
static void test_ttwu_queue_cond_per_version(void **state)
{
	struct fixture *f = *state;
	struct ss_sim *s66 = must_sim(f, "sis_prop", SS_KERNEL_6_6), *s517 = must_sim(f, "sis_prop", SS_KERNEL_5_17);
	struct ss_sim *sims[] = { s66, s517 };

	assert_ptr_equal(s66->ttwu_queue_cond, ss_ttwu_queue_cond_v6_6);
	assert_ptr_equal(s517->ttwu_queue_cond, ss_ttwu_queue_cond_v5_17);
	for (unsigned i = 0; i < 2; i++) {
		struct ss_sim *sim = sims[i];
		struct ss_task *p = &sim->tasks[0];
		bool v66 = sim == s66;

		sim->this_cpu = 1;
		set_busy(sim, 1, true);
		assert_true(sim->ttwu_queue_cond(sim, p, 9));
		set_busy(sim, 9, true);
		assert_true(sim->ttwu_queue_cond(sim, p, 9));
		assert_int_equal(sim->ttwu_queue_cond(sim, p, 3), v66);
		set_busy(sim, 3, true);
		assert_false(sim->ttwu_queue_cond(sim, p, 3));
		assert_false(sim->ttwu_queue_cond(sim, p, 1));
		set_busy(sim, 1, false);
		set_busy(sim, 3, false);
		set_busy(sim, 9, false);
	}
	ss_sim_destroy(s66);
	ss_sim_destroy(s517);
}

/*
 * select_idle_cpu() from waker 0 for target 0 over the 8-CPU LLC: the scan
 * visits 1, 2, 3, 4, ...; every CPU busy except 4 (the 4th). SIS_PROP
 * (reference §2.6; v5.17 and v6.6 alike): wake_avg_idle 400 000 stamped at
 * jiffy 0, waking during jiffy 3 -> aged to 50 000; avg_scan_cost 49 999:
 * span_avg = 8 × 50 000 = 400 000 > 4 × 50 000 -> nr = 8, 7 probes: found.
 * Aged once more (jiffy 4: 25 000): 200 000 <= 200 000 -> nr = 4, 3 probes
 * (1, 2, 3): not found. SIS_UTIL (v6.6): nr_idle_scan 3 -> 3 probes, none;
 * 4 -> found.
 */
static int scan(struct ss_sim *sim, uint64_t jiffy, uint64_t wake_avg_idle, uint64_t avg_scan_cost)
{
	struct ss_rq *rq = &sim->rq[0];
	int llc = sim->topo->cpu[0].sd_llc;

	for (unsigned c = 0; c < 8; c++)
		set_busy(sim, c, c != 4);
	sim->now = jiffy * sim->tick_nsec + 1;
	sim->this_cpu = 0;
	sim->current = NULL;
	rq->wake_stamp = 0;
	rq->wake_avg_idle = wake_avg_idle;
	rq->sd_rt[llc].avg_scan_cost = avg_scan_cost;
	int cpu = ss_select_idle_cpu(sim, &sim->tasks[0], ss_cpu_sd_llc(sim, 0), false, 0);
	for (unsigned c = 0; c < 8; c++)
		set_busy(sim, c, false);
	return cpu;
}

static void test_select_idle_cpu_budgets(void **state)
{
	struct fixture *f = *state;

	for (int k = 0; k < SS_NR_KERNELS; k++) {
		struct ss_sim *sim = must_sim(f, "sis_prop", (enum ss_kernel)k);
		assert_true(ss_feat(sim->features, SS_FEAT_SIS_PROP));
		assert_int_equal(scan(sim, 3, 400000, 49999), 4);
		assert_int_equal(sim->rq[0].wake_stamp, 3);
		assert_int_equal(scan(sim, 4, 400000, 49999), -1);
		assert_true(sim->sic_budget_stop);
		ss_sim_destroy(sim);
	}
	{
		struct ss_sim *sim = must_sim(f, "sis_util", SS_KERNEL_6_6);
		sd_llc_shared(sim, 0)->nr_idle_scan = 3;
		assert_int_equal(scan(sim, 0, 0, 0), -1);
		sd_llc_shared(sim, 0)->nr_idle_scan = 4;
		assert_int_equal(scan(sim, 0, 0, 0), 4);
		ss_sim_destroy(sim);
	}
}

/* Policy × kernel: the defaults, what v5.17 refuses, and the bases recorded. */
static void test_policy_kernel_table(void **state)
{
	struct fixture *f = *state;
	static const struct { const char *policy; bool on517; const char *base66, *base517; } v[] = {
		{ "sis_prop", true, "v6.6", "v5.17" },
		{ "sis_util", false, "v6.6", NULL },
		{ "sis_util_linear", true, "v5.17 patch ported to v6.6", "v5.17 patch" },
		{ "sis_clear_target", true, "v5.16-rc1 patch ported to v6.6", "v5.16-rc1 patch" },
		{ "full_scan", true, "v6.6", "v5.17" },
		{ "prev_cpu", true, "v6.6", "v5.17" },
		{ "burst_threshold", false, "post-v6.6 patch (seeds/004) ported to v6.6", NULL },
		{ "burst_avg_depth", false, "post-v6.6 patch (seeds/004) ported to v6.6", NULL },
	};

	assert_string_equal(ss_kernel_default_policy(SS_KERNEL_6_6), "sis_util");
	assert_string_equal(ss_kernel_default_policy(SS_KERNEL_5_17), "sis_prop");
	for (unsigned i = 0; i < sizeof v / sizeof v[0]; i++) {
		GError *err = NULL;
		struct ss_sim *sim = must_sim(f, v[i].policy, SS_KERNEL_6_6);
		assert_string_equal(sim->policy_base, v[i].base66);
		assert_ptr_equal(sim->fair, &ss_fair_v6_6);
		ss_sim_destroy(sim);
		sim = make_sim(f, v[i].policy, SS_KERNEL_5_17, &err);
		if (v[i].on517) {
			assert_non_null(sim);
			assert_string_equal(sim->policy_base, v[i].base517);
			assert_ptr_equal(sim->fair, &ss_fair_v5_17);
			/* v5.17's features.h: no SIS_UTIL, no EEVDF features; CFS's are on */
			assert_false(ss_feat(sim->features, SS_FEAT_SIS_UTIL));
			assert_false(ss_feat(sim->features, SS_FEAT_PLACE_LAG));
			assert_true(ss_feat(sim->features, SS_FEAT_GENTLE_FAIR_SLEEPERS));
			ss_sim_destroy(sim);
		} else {
			assert_null(sim);
			assert_true(err->domain == SS_ERROR && err->code == SS_ERROR_USAGE);
			assert_non_null(strstr(err->message, "does not run on kernel v5.17"));
			g_error_free(err);
		}
	}
}

/* ---------------------------------------------------------------- balancer and fork path */

/* 4 nodes x 4 CPUs, one LLC per node: MC(4) -> NUMA(16) */
static const char numa16_yaml[] = "name: numa16\nvendor: arm\n"
				  "numa: {distance: [[10, 20, 20, 20], [20, 10, 20, 20], [20, 20, 10, 20], [20, 20, 20, 10]]}\n"
				  "packages:\n  - repeat: 4\n    step: 4\n    nodes:\n      - llcs:\n          - cores: \"0-3\"\n";

static struct ss_sim *cpu_bound_sim(const struct ss_topology *t, unsigned n, const int *start, enum ss_kernel k,
				    struct ss_workload **wout)
{
	GString *y = g_string_new("name: cpubound\ninstance: group\n"
				  "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\ntasks:\n");
	GError *err = NULL;
	struct ss_run_config c = { 0 };
	for (unsigned i = 0; i < n; i++)
		g_string_append_printf(y, "  - name: t%u\n    start_cpu: %d\n    program: [{loop: {forever: true, do: [{run: 10ms}]}}]\n",
				       i, start[i]);
	*wout = ss_workload_load_string(y->str, y->len, "inline.yaml", &err);
	g_string_free(y, TRUE);
	if (!*wout)
		fail_msg("%s", err->message);
	c.topo = t;
	c.wl = *wout;
	c.policy = "sis_prop";
	c.kernel = k;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 1;
	c.seed = 1;
	c.duration_ns = 1000000;
	struct ss_sim *sim = ss_sim_create(&c, &err);
	if (!sim)
		fail_msg("%s", err->message);
	ss_sim_start(sim);
	return sim;
}

/*
 * Two tasks on node 0 (CPUs 0, 1); idle CPU 4 balances at the NUMA level.
 * Both: local and busiest have spare capacity, prefer sibling (the groups'
 * child, MC, has SD_PREFER_SIBLING).
 * v6.6: sibling_imbalance() = 2 - 0 = 2 > 1 forces the balance; then
 *   adjust_numa_imbalance(2, local 0 + 1 <= imb_numa_nr) -> 2 <= 2 -> 0:
 *   balanced (a pair of tasks may stay on one node).
 * v5.17: busiest 2 > local 0 + 1 forces it; imbalance = (2 - 0) >> 1 = 1;
 *   adjust_numa_imbalance(1, busiest 2, weight 4): 2 < 4 >> 2 = 1 is false,
 *   so no tolerance: move 1 task.
 */
static void test_numa_balance_per_version(void **state)
{
	(void)state;
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(numa16_yaml, sizeof numa16_yaml - 1, "numa16.yaml", &err);
	static const int start[2] = { 0, 1 };
	unsigned lvl;

	assert_non_null(t);
	lvl = t->cpu[4].nr_sd - 1;
	assert_true(t->cpu[4].sd[lvl].flags & SD_NUMA);
	assert_int_equal(t->cpu[4].sd[lvl].span_weight, 16);
	assert_true(t->cpu[4].sd[lvl].imb_numa_nr >= 1);
	for (int k = 0; k < SS_NR_KERNELS; k++) {
		struct ss_workload *w;
		struct ss_sim *sim = cpu_bound_sim(t, 2, start, (enum ss_kernel)k, &w);
		struct ss_lb_decision d;
		ss_lb_inspect(sim, 4, lvl, CPU_IDLE, &d);
		assert_true(d.should_balance);
		assert_int_equal(d.local_type, 0);     /* group_has_spare */
		assert_int_equal(d.busiest_type, 0);
		assert_int_equal(d.busiest_first_cpu, 0);
		if (k == SS_KERNEL_6_6) {
			assert_false(d.imbalanced);
		} else {
			assert_true(d.imbalanced);
			assert_int_equal(d.migration_type, 2);   /* migrate_task */
			assert_int_equal(d.imbalance, 1);
		}
		ss_sim_destroy(sim);
		ss_workload_free(w);
	}
	ss_topology_free(t);
}

/*
 * The fork path's NUMA rule (find_idlest_group(), group_has_spare): the
 * parent on CPU 0, CPUs 0-2 busy (node 0: 3 tasks, 1 idle CPU), the other
 * nodes idle (4 idle CPUs each).
 * v6.6: |1 - 4| = 3 > NUMA_IMBALANCE_MIN: no tolerance, node 1 has more idle
 *   CPUs: the child goes to CPU 4.
 * v5.17: allow_numa_imbalance(3 tasks, span 16): 3 < 16 >> 2 = 4: stay on
 *   node 0, on its idle CPU 3.
 */
static struct ss_task running_task;

static void test_fork_numa_per_version(void **state)
{
	(void)state;
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(numa16_yaml, sizeof numa16_yaml - 1, "numa16.yaml", &err);
	struct ss_workload *w = ss_workload_load_string(wl_yaml, sizeof wl_yaml - 1, "one.yaml", &err);
	uint64_t mask[1] = { 0xffff };

	assert_non_null(t);
	assert_non_null(w);
	for (int k = 0; k < SS_NR_KERNELS; k++) {
		struct fixture f = { t, w };
		struct ss_sim *sim = must_sim(&f, "sis_prop", (enum ss_kernel)k);
		struct ss_task *p = &sim->tasks[0];
		for (unsigned c = 0; c < 16; c++) {
			struct ss_rq *rq = &sim->rq[c];
			bool b = c < 3;
			rq->curr = b ? &running_task : NULL;
			rq->cfs.nr_running = b;
			rq->idle_state = -1;
			rq->idle_stamp = 0;
			memset(&rq->cfs_avg, 0, sizeof rq->cfs_avg);
			rq->cfs_avg.avg.load_avg = rq->cfs_avg.avg.util_avg = rq->cfs_avg.avg.runnable_avg = b ? 1024 : 0;
		}
		p->cpus_ptr = mask;
		p->nr_cpus_allowed = 16;
		memset(&p->avg, 0, sizeof p->avg);
		p->cpu = 0;
		sim->this_cpu = 0;
		sim->current = NULL;
		assert_int_equal(ss_select_task_rq_fair(sim, p, 0, WF_FORK), k == SS_KERNEL_6_6 ? 4 : 3);
		ss_sim_destroy(sim);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_ttwu_queue_cond_per_version, setup, teardown),
		cmocka_unit_test_setup_teardown(test_select_idle_cpu_budgets, setup, teardown),
		cmocka_unit_test_setup_teardown(test_policy_kernel_table, setup, teardown),
		cmocka_unit_test(test_numa_balance_per_version),
		cmocka_unit_test(test_fork_numa_per_version),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

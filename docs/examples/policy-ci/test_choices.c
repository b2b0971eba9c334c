/*
 * util_budget's choices on constructed machine states (simsched/state.h):
 * the plugin loaded as `simsched --policy-plugin` loads it, on the shipped
 * kunpeng920 (LLCs of 32 CPUs, no SMT) found by name in the installation.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <simsched/error.h>
#include <simsched/sim.h>
#include <simsched/state.h>
#include <simsched/topology.h>
#include <simsched/version.h>

static struct ss_topology *kunpeng;

static int setup(void **unused)
{
	GError *err = NULL;
	const char *name = NULL;

	/* the library this test runs with is the one it was compiled for */
	if (ss_version_number() != SS_VERSION_NUMBER)
		return 1;
	if (!ss_policy_plugin_load(PLUGIN, &name, &err) || strcmp(name, "util_budget"))
		return 1;
	kunpeng = ss_topology_load("kunpeng920", &err);   /* share/simsched/topologies/kunpeng920.yaml */
	return kunpeng == NULL;
}

static int teardown(void **unused)
{
	ss_topology_free(kunpeng);
	return 0;
}

/* LLC 0 = CPUs 0-31: the first `nr_busy` run one task each at full utilisation */
static struct ss_sim *llc0_busy(unsigned nr_busy)
{
	GError *err = NULL;
	struct ss_state_config c = { .topo = kunpeng, .policy = "util_budget", .nr_tasks = 1 };
	struct ss_sim *s = ss_state_new(&c, &err);

	assert_non_null(s);
	for (unsigned cpu = 0; cpu < nr_busy; cpu++)
		assert_true(ss_state_set_cpu(s, cpu, &(struct ss_cpu_desc){ .nr_running = 1, .util_avg = 1024,
									   .idle_state = -1 }, &err));
	/* the wakee last ran on CPU 0; an interrupt on CPU 0 wakes it */
	assert_true(ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 0, .recent_used_cpu = -1,
								    .util_avg = 200 }, &err));
	ss_state_set_waker(s, 0, -1);
	return s;
}

/* probes of the domain search: every probe of a CPU other than target 0, in order, as first..last */
static void assert_scanned(const struct ss_placement *pl, unsigned first, unsigned last)
{
	unsigned want = first;
	for (unsigned i = 0; i < pl->nr_probes; i++) {
		if (pl->probes[i].cpu == 0)
			continue;   /* the fast path's reads of target/prev */
		assert_int_equal(pl->probes[i].cpu, want);
		want++;
	}
	assert_int_equal(want, last + 1);
}

/* half the LLC busy: budget 16 reaches CPU 16, the first idle one */
static void test_half_busy_finds_idle(void **unused)
{
	struct ss_sim *s = llc0_busy(16);
	struct ss_placement pl;

	assert_int_equal(ss_state_select_task_rq(s, 0, 0, SS_WF_TTWU, &pl), 16);
	assert_scanned(&pl, 1, 16);
	assert_true(pl.probes[pl.nr_probes - 1].idle);
	ss_state_free(s);
}

/* 20 of 32 busy: budget 12 stops at CPU 12, before the idle CPUs: the task stays on target 0 */
static void test_budget_stops_before_idle(void **unused)
{
	struct ss_sim *s = llc0_busy(20);
	struct ss_placement pl;

	assert_int_equal(ss_state_select_task_rq(s, 0, 0, SS_WF_TTWU, &pl), 0);
	assert_scanned(&pl, 1, 12);
	ss_state_free(s);
}

/* the whole LLC busy: budget 0, no domain search at all */
static void test_full_llc_no_scan(void **unused)
{
	struct ss_sim *s = llc0_busy(32);
	struct ss_placement pl;

	assert_int_equal(ss_state_select_task_rq(s, 0, 0, SS_WF_TTWU, &pl), 0);
	assert_scanned(&pl, 1, 0);
	ss_state_free(s);
}

/* an idle target needs no search */
static void test_idle_target(void **unused)
{
	struct ss_sim *s = llc0_busy(0);
	struct ss_placement pl;

	assert_int_equal(ss_state_select_task_rq(s, 0, 0, SS_WF_TTWU, &pl), 0);
	assert_scanned(&pl, 1, 0);
	ss_state_free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_half_busy_finds_idle),
		cmocka_unit_test(test_budget_stops_before_idle),
		cmocka_unit_test(test_full_llc_no_scan),
		cmocka_unit_test(test_idle_target),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

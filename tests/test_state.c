/*
 * Constructed machine states and single placement steps (simsched/state.h):
 * the choice and every probe of select_idle_cpu(), select_idle_sibling()
 * and a policy's select_task_rq() on runqueues the test sets, through the
 * public API only.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "simsched/error.h"
#include "simsched/params.h"
#include "simsched/policy.h"
#include "simsched/sim.h"
#include "simsched/state.h"
#include "simsched/topology.h"

/* two LLCs of four CPUs, no SMT, no clusters */
static const char topo_yaml[] = "name: two-llc\nvendor: arm\nllcs:\n  - cores: \"0-3\"\n  - cores: \"4-7\"\n";

static struct ss_topology *topo(void)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(topo_yaml, sizeof topo_yaml - 1, "two-llc.yaml", &err);
	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static struct ss_sim *state(const struct ss_topology *t, const char *policy, const char *features, unsigned nr_tasks)
{
	GError *err = NULL;
	struct ss_state_config c = { .topo = t, .policy = policy, .sched_features = features, .nr_tasks = nr_tasks };
	struct ss_sim *s = ss_state_new(&c, &err);
	if (!s)
		fail_msg("%s", err->message);
	return s;
}

static void busy(struct ss_sim *s, unsigned cpu, unsigned nr_running)
{
	GError *err = NULL;
	struct ss_cpu_desc d = { .nr_running = nr_running, .util_avg = 512 * nr_running > 1024 ? 1024 : 512 * nr_running,
				 .idle_state = -1 };
	if (!ss_state_set_cpu(s, cpu, &d, &err))
		fail_msg("%s", err->message);
}

/* the CPUs of pl's probes as "1b,2b,3i" (b: busy, i: idle) */
static const char *probes(const struct ss_placement *pl)
{
	static char buf[256];
	size_t n = 0;
	buf[0] = '\0';
	for (unsigned i = 0; i < pl->nr_probes; i++)
		n += (size_t)snprintf(buf + n, sizeof buf - n, "%s%u%c", i ? "," : "", pl->probes[i].cpu,
				      pl->probes[i].idle ? 'i' : 'b');
	return buf;
}

/* a new state: every CPU idle, nr_idle_scan = LLC size, has_idle_cores, tasks on CPU 0 */
static void test_new_state(void **unused)
{
	struct ss_topology *t = topo();
	struct ss_sim *s = state(t, NULL, NULL, 3);

	assert_int_equal(ss_nr_cpus(s), 8);
	for (unsigned c = 0; c < 8; c++) {
		assert_true(ss_idle_cpu(s, c));
		assert_int_equal(ss_cpu_nr_running(s, c), 0);
		assert_int_equal(ss_cpu_util_of(s, c), 0);
		assert_int_equal(ss_nr_idle_scan(s, c), 4);
		assert_true(ss_llc_has_idle_cores(s, c));
	}
	for (unsigned i = 0; i < 3; i++) {
		assert_int_equal(ss_task_prev_cpu(ss_state_task(s, i)), 0);
		assert_int_equal(ss_task_nr_cpus_allowed(ss_state_task(s, i)), 8);
	}
	assert_null(ss_state_task(s, 3));
	assert_int_equal(ss_waker_cpu(s), 0);
	ss_state_free(s);
	ss_topology_free(t);
}

/* the setters are what the accessors read */
static void test_setters(void **unused)
{
	struct ss_topology *t = topo();
	struct ss_sim *s = state(t, NULL, NULL, 1);
	GError *err = NULL;
	uint64_t allowed[1] = { 0x0a };   /* CPUs 1, 3 */

	assert_true(ss_state_set_cpu(s, 5, &(struct ss_cpu_desc){ .nr_running = 2, .util_avg = 700, .idle_state = -1 }, &err));
	assert_false(ss_idle_cpu(s, 5));
	assert_int_equal(ss_cpu_nr_running(s, 5), 2);
	assert_int_equal(ss_cpu_util_of(s, 5), 700);
	/* a wakeup pending: not idle without a task */
	assert_true(ss_state_set_cpu(s, 6, &(struct ss_cpu_desc){ .ttwu_pending = true, .idle_state = -1 }, &err));
	assert_false(ss_idle_cpu(s, 6));
	assert_int_equal(ss_cpu_nr_running(s, 6), 0);
	ss_state_set_llc(s, 6, 2, false);
	assert_int_equal(ss_nr_idle_scan(s, 4), 2);
	assert_false(ss_llc_has_idle_cores(s, 7));
	assert_int_equal(ss_nr_idle_scan(s, 0), 4);
	assert_true(ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 3, .recent_used_cpu = 1, .util_avg = 300,
								    .util_est = 350, .allowed = allowed }, &err));
	assert_int_equal(ss_task_prev_cpu(ss_state_task(s, 0)), 3);
	assert_int_equal(ss_task_recent_used_cpu(ss_state_task(s, 0)), 1);
	assert_int_equal(ss_task_util_avg_of(ss_state_task(s, 0)), 300);
	assert_int_equal(ss_task_util_est_of(ss_state_task(s, 0)), 350);
	assert_int_equal(ss_task_nr_cpus_allowed(ss_state_task(s, 0)), 2);
	assert_int_equal(ss_task_allowed_mask(ss_state_task(s, 0))[0], 0x0a);
	ss_state_set_waker(s, 6, 0);
	assert_int_equal(ss_waker_cpu(s), 6);

	/* bad values: refused with what is wrong, the state unchanged */
	assert_false(ss_state_set_cpu(s, 8, &(struct ss_cpu_desc){ .idle_state = -1 }, &err));
	assert_string_equal(err->message, "CPU 8 is not an online CPU of the machine");
	g_clear_error(&err);
	assert_false(ss_state_set_cpu(s, 5, &(struct ss_cpu_desc){ .util_avg = 1025, .idle_state = -1 }, &err));
	assert_string_equal(err->message, "CPU 5: util_avg 1025, util_est 0 (expected 0..1024)");
	g_clear_error(&err);
	assert_int_equal(ss_cpu_util_of(s, 5), 700);
	assert_false(ss_state_set_cpu(s, 5, &(struct ss_cpu_desc){ .nr_running = 1, .idle_state = 0 }, &err));
	assert_non_null(strstr(err->message, "CPU 5: idle state 0 (expected -1"));
	g_clear_error(&err);
	assert_false(ss_state_set_task(s, 1, &(struct ss_task_desc){ .prev_cpu = 0, .recent_used_cpu = -1 }, &err));
	assert_string_equal(err->message, "task 1 of a state of 1 tasks");
	g_clear_error(&err);
	uint64_t none[1] = { 0x100 };
	assert_false(ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 0, .recent_used_cpu = -1, .allowed = none },
				       &err));
	assert_string_equal(err->message, "task 0: no online CPU is allowed");
	g_clear_error(&err);
	assert_int_equal(ss_task_prev_cpu(ss_state_task(s, 0)), 3);
	ss_state_free(s);

	struct ss_state_config c = { .topo = t, .policy = "no_such_policy", .nr_tasks = 1 };
	assert_null(ss_state_new(&c, &err));
	assert_true(g_error_matches(err, SS_ERROR, SS_ERROR_USAGE));
	g_clear_error(&err);
	c.policy = NULL;
	c.nr_tasks = 0;
	assert_null(ss_state_new(&c, &err));
	assert_string_equal(err->message, "a state of 0 tasks (expected 1..8000 on 8 online CPUs)");
	g_clear_error(&err);
	c.nr_tasks = 8001;
	assert_null(ss_state_new(&c, &err));
	assert_string_equal(err->message, "a state of 8001 tasks (expected 1..8000 on 8 online CPUs)");
	g_clear_error(&err);
	c.nr_tasks = 8000;
	struct ss_sim *big = ss_state_new(&c, &err);
	assert_non_null(big);
	assert_non_null(ss_state_task(big, 7999));
	assert_null(ss_state_task(big, 8000));
	ss_state_free(big);
	ss_topology_free(t);
}

/*
 * select_idle_cpu() of v6.6 with SIS_UTIL: the walk starts after target and
 * probes at most nr_idle_scan CPUs (nr = nr_idle_scan + 1, "if (!--nr)");
 * nr_idle_scan 0 skips it. Every probe is an LLC probe from waker CPU 0.
 */
static void test_select_idle_cpu_budget(void **unused)
{
	struct ss_topology *t = topo();
	struct ss_sim *s = state(t, "sis_util", NULL, 1);
	struct ss_params pr;
	struct ss_placement pl;

	ss_params_defaults(&pr, t);
	busy(s, 0, 1);
	busy(s, 1, 1);
	busy(s, 2, 2);
	assert_int_equal(ss_state_select_idle_cpu(s, 0, 0, false, &pl), 3);
	assert_int_equal(pl.cpu, 3);
	assert_string_equal(probes(&pl), "1b,2b,3i");
	assert_int_equal(pl.probes[1].nr_running, 2);
	for (unsigned i = 0; i < pl.nr_probes; i++)
		assert_int_equal(pl.probes[i].cost_ns, pr.probe_llc_ns);
	assert_int_equal(pl.scan_cost_ns, 3 * pr.probe_llc_ns);

	ss_state_set_llc(s, 0, 2, false);   /* budget of two probes: 3 is not reached */
	assert_int_equal(ss_state_select_idle_cpu(s, 0, 0, false, &pl), -1);
	assert_string_equal(probes(&pl), "1b,2b");
	ss_state_set_llc(s, 0, 0, false);   /* overloaded LLC: no scan */
	assert_int_equal(ss_state_select_idle_cpu(s, 0, 0, false, &pl), -1);
	assert_int_equal(pl.nr_probes, 0);
	assert_int_equal(pl.scan_cost_ns, 0);

	/* the walk visits only allowed CPUs; a remote waker pays the package probe */
	uint64_t allowed[1] = { 0x0c };   /* 2, 3 */
	GError *err = NULL;
	assert_true(ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 2, .recent_used_cpu = -1, .allowed = allowed },
				      &err));
	ss_state_set_llc(s, 0, 4, false);
	ss_state_set_waker(s, 4, -1);
	assert_int_equal(ss_state_select_idle_cpu(s, 0, 1, false, &pl), 3);
	assert_string_equal(probes(&pl), "2b,3i");
	assert_int_equal(pl.probes[0].cost_ns, pr.probe_package_ns);
	ss_state_free(s);

	/* without SIS_UTIL (and SIS_PROP) the whole LLC is walked */
	s = state(t, "sis_util", "NO_SIS_UTIL", 1);
	for (unsigned c = 0; c < 4; c++)
		busy(s, c, 1);
	ss_state_set_llc(s, 0, 0, false);
	assert_int_equal(ss_state_select_idle_cpu(s, 0, 1, false, &pl), -1);
	assert_string_equal(probes(&pl), "2b,3b,0b,1b");
	ss_state_free(s);
	ss_topology_free(t);
}

/* select_idle_sibling(): an idle target is taken without a probe of the LLC walk; a busy one is scanned past */
static void test_select_idle_sibling(void **unused)
{
	struct ss_topology *t = topo();
	struct ss_sim *s = state(t, "sis_util", NULL, 1);
	struct ss_placement pl;
	GError *err = NULL;

	assert_true(ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 1, .recent_used_cpu = -1 }, &err));
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 1, 1, &pl), 1);
	busy(s, 1, 1);
	busy(s, 2, 1);
	ss_state_set_llc(s, 1, 4, false);
	assert_int_equal(ss_state_select_idle_sibling(s, 0, 1, 1, &pl), 3);
	assert_int_equal(pl.probes[pl.nr_probes - 1].cpu, 3);
	assert_true(pl.probes[pl.nr_probes - 1].idle);
	assert_true(pl.nr_probes >= 2);
	ss_state_free(s);
	ss_topology_free(t);
}

/* a policy of the policy API, run by ss_state_select_task_rq(): scans the LLC of prev with a budget of its parameter */
static const struct ss_policy_param budget_param[] = {
	{ .key = "budget", .unit = "CPUs", .doc = "probes", .def = 2, .min = 0, .max = 64 },
};
static int budget_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	long nr = (long)ss_policy_param(sim, 0);
	int cpu = ss_select_idle_cpu_nr(sim, p, ss_cpu_llc_mask(sim, (unsigned)prev_cpu), prev_cpu, false, &nr);
	return cpu >= 0 ? cpu : prev_cpu;
}
static const struct ss_policy_ops budget_ops = {
	.abi_version = SS_POLICY_ABI_VERSION, .name = "test_state_budget", .description = "test",
	.source = "tests/test_state.c", .select_task_rq = budget_select, .params = budget_param, .nr_params = 1,
};

static void test_select_task_rq_policy(void **unused)
{
	struct ss_topology *t = topo();
	GError *err = NULL;
	struct ss_placement pl;

	assert_true(ss_policy_register(&budget_ops, &err));
	struct ss_sim *s = state(t, "test_state_budget", NULL, 2);
	for (unsigned c = 4; c < 7; c++)
		busy(s, c, 1);
	assert_true(ss_state_set_task(s, 1, &(struct ss_task_desc){ .prev_cpu = 5, .recent_used_cpu = -1 }, &err));
	/* budget 2: 6 busy, 7 idle */
	assert_int_equal(ss_state_select_task_rq(s, 1, 5, SS_WF_TTWU, &pl), 7);
	assert_string_equal(probes(&pl), "6b,7i");
	busy(s, 7, 1);
	assert_int_equal(ss_state_select_task_rq(s, 1, 5, SS_WF_TTWU, &pl), 5);
	assert_string_equal(probes(&pl), "6b,7b");
	assert_int_equal(ss_state_select_task_rq(s, 9, 5, SS_WF_TTWU, &pl), -1);
	assert_int_equal(pl.nr_probes, 0);
	ss_state_free(s);

	const char *set[] = { "policy.budget=4", NULL };
	struct ss_state_config c = { .topo = t, .policy = "test_state_budget", .set = set, .nr_tasks = 1 };
	assert_non_null(s = ss_state_new(&c, &err));
	for (unsigned c2 = 4; c2 < 8; c2++)
		busy(s, c2, 1);
	assert_true(ss_state_set_task(s, 0, &(struct ss_task_desc){ .prev_cpu = 5, .recent_used_cpu = -1 }, &err));
	assert_int_equal(ss_state_select_task_rq(s, 0, 5, SS_WF_TTWU, &pl), 5);
	assert_string_equal(probes(&pl), "6b,7b,4b,5b");
	ss_state_free(s);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_new_state),
		cmocka_unit_test(test_setters),
		cmocka_unit_test(test_select_idle_cpu_budget),
		cmocka_unit_test(test_select_idle_sibling),
		cmocka_unit_test(test_select_task_rq_policy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Test plugin: a policy whose answers are not CPUs the task may use, chosen
 * by policy.answer. try_to_wake_up() (and the fork path) must replace each
 * by select_fallback_rq()'s CPU and count it, never reading a runqueue or
 * mask out of bounds (tests/test_affinity.c, also under ASan):
 *
 *   0  nr_cpus             (one past the last CPU id)
 *   1  INT_MAX
 *   2  -5
 *   3  the first offline CPU (nr_cpus if none is offline)
 *   4  the first online CPU the task may not use (outside --nodes / its cpus)
 *   5  INT_MIN
 *   6  a domain search (ss_select_idle_sibling_scan) answering nr_cpus + 7:
 *      select_idle_sibling() treats it as "none found", as v6.6 treats
 *      select_idle_cpu()'s return >= nr_cpumask_bits, so no fallback
 */
#include <limits.h>

#include <simsched/policy.h>

enum { PARAM_ANSWER };

static const struct ss_policy_param params[] = {
	[PARAM_ANSWER] = { "answer", "kind", "which bad answer (see the file)", 0, 0, 6 },
};

static int first_not_in(struct ss_sim *sim, const uint64_t *mask, const uint64_t *within)
{
	unsigned n = ss_nr_cpus(sim);

	for (unsigned c = 0; c < n; c++)
		if (!ss_cpumask_test(mask, c) && (!within || ss_cpumask_test(within, c)))
			return (int)c;
	return (int)n;
}

static int bad_scan(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target)
{
	return (int)ss_nr_cpus(sim) + 7;
}

static int bad_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	switch (ss_policy_param(sim, PARAM_ANSWER)) {
	case 0:
		return (int)ss_nr_cpus(sim);
	case 1:
		return INT_MAX;
	case 2:
		return -5;
	case 3:
		return first_not_in(sim, ss_cpu_active_mask(sim), NULL);
	case 4:
		return first_not_in(sim, ss_task_allowed_mask(p), ss_cpu_active_mask(sim));
	case 5:
		return INT_MIN;
	default:
		if (!(wake_flags & SS_WF_TTWU))
			return prev_cpu;
		return ss_select_idle_sibling_scan(sim, p, prev_cpu, ss_wake_target(sim, p, prev_cpu, wake_flags), bad_scan);
	}
}

static const struct ss_policy_ops ops = {
	.abi_version = SS_POLICY_ABI_VERSION,
	.name = "test_bad_cpu",
	.description = "test: answers a CPU the task may not use (policy.answer picks which)",
	.source = "tests/plugins/plugin_bad_cpu.c",
	.select_task_rq = bad_select,
	.params = params,
	.nr_params = 1,
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &ops;
}

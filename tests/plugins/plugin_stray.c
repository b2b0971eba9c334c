/*
 * Test plugin: a policy that ignores the task's allowed CPUs (it always
 * answers the last CPU of the machine). The affinity property test runs it
 * to show that the check it relies on (wakeups.fallback_rq) catches a policy
 * that places outside p->cpus_ptr.
 */
#include <simsched/policy.h>

static int stray_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	return (int)ss_nr_cpus(sim) - 1;
}

static const struct ss_policy_ops ops = {
	.abi_version = SS_POLICY_ABI_VERSION,
	.name = "test_stray",
	.description = "test: always the last CPU, allowed or not",
	.select_task_rq = stray_select,
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &ops;
}

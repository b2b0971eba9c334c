/* Test plugin: a well-formed ops table that claims another ABI version. */
#include <simsched/policy.h>

static int bad_abi_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	return prev_cpu;
}

static const struct ss_policy_ops ops = {
	.abi_version = SS_POLICY_ABI_VERSION + 41,
	.name = "bad_abi",
	.select_task_rq = bad_abi_select,
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &ops;
}

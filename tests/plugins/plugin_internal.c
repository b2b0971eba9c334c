/*
 * Test plugin: calls ss_update_rq_clock(), a function of the library that is
 * not in its public API (lib/libsimsched.symbols). The simsched tool does not
 * export it, so loading the plugin fails and names the symbol
 * (tests/cli/exported_symbols.sh).
 */
#include <simsched/policy.h>

struct ss_rq;
void ss_update_rq_clock(struct ss_sim *sim, struct ss_rq *rq);

static int internal_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	ss_update_rq_clock(sim, (struct ss_rq *)0);
	return prev_cpu;
}

static const struct ss_policy_ops internal_ops = {
	.abi_version = SS_POLICY_ABI_VERSION,
	.name = "test_internal",
	.description = "test plugin calling an internal function",
	.source = "tests/plugins/plugin_internal.c",
	.select_task_rq = internal_select,
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &internal_ops;
}

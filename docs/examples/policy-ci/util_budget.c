/*
 * util_budget — an example wake-placement policy, built as a simsched plugin
 * (simsched/policy.h) against an installed libsimsched.
 *
 * On a wakeup it keeps v6.6's wake_affine() target and select_idle_sibling()
 * fast path and replaces the domain search: it probes the target's LLC
 * from target + 1 with a budget of util_budget() CPUs, computed at the
 * wakeup from the LLC's utilisation (linear, where SIS_UTIL's is quadratic
 * and computed in periodic balance).
 *
 * Run: simsched run --policy-plugin util_budget.so --topology kunpeng920 --workload netperf-tcp-rr
 */
#include <simsched/policy.h>

#include "util_budget.h"

unsigned util_budget(unsigned llc_size, uint64_t sum_util, uint64_t sum_capacity)
{
	if (sum_util >= sum_capacity)
		return 0;
	return (unsigned)((uint64_t)llc_size * (sum_capacity - sum_util) / sum_capacity);
}

/* The domain search, where v6.6 calls select_idle_cpu(p, sd_llc(target), has_idle_core, target). */
static int util_budget_scan(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target)
{
	const uint64_t *llc = ss_cpu_llc_mask(sim, (unsigned)target);
	unsigned n = ss_nr_cpus(sim);
	uint64_t sum_util = 0, sum_cap = 0;
	long nr;

	for (unsigned cpu = 0; cpu < n; cpu++) {
		if (!(llc[cpu / 64] >> (cpu % 64) & 1))
			continue;
		sum_util += ss_cpu_util_of(sim, cpu);
		sum_cap += ss_cpu_capacity(sim, cpu);
	}
	nr = (long)util_budget(ss_llc_size(sim, (unsigned)target), sum_util, sum_cap);
	if (nr == 0)
		return -1;
	return ss_select_idle_cpu_nr(sim, p, llc, target, false, &nr);
}

static int util_budget_select_task_rq(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	int target = ss_wake_target(sim, p, prev_cpu, wake_flags);
	return ss_select_idle_sibling_scan(sim, p, prev_cpu, target, util_budget_scan);
}

static const struct ss_policy_ops util_budget_ops = {
	.abi_version = SS_POLICY_ABI_VERSION,
	.name = "util_budget",
	.description = "example (docs/examples/policy-ci): LLC scan budget linear in the LLC's idle capacity",
	.source = "docs/examples/policy-ci/util_budget.c",
	.features = "NO_SIS_PROP,NO_SIS_UTIL",
	.select_task_rq = util_budget_select_task_rq,
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &util_budget_ops;
}

/*
 * The kernel's own wake placement as policies: presets of sched features over
 * select_task_rq_fair() (kernel v6.6 fair.c).
 *
 *   sis_prop  — legacy SIS_PROP (v5.16 default; still present in v6.6):
 *               SIS_PROP on, SIS_UTIL off.
 *   sis_util  — the v6.6 default: SIS_UTIL on, SIS_PROP off (merged in v6.0,
 *               commit 70fb5ccf2ebb).
 *   full_scan — both off: select_idle_cpu() walks the whole LLC.
 * and the patches of the seed threads on the same path:
 *   sis_util_linear  — the linear limit of the SIS_UTIL RFC v2 (seeds/000).
 *   sis_clear_target — SIS_PROP + target cleared from the scan (seeds/003).
 *   prev_cpu         — no placement at all: a floor.
 */
#include "ss_sched.h"
#include "simsched/error.h"

#include <string.h>

/* update_sd_lb_stats() -> update_idle_cpu_scan(): only SIS_UTIL uses it (feature-gated inside). */
static void kernel_update_lb_stats(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
				   enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity)
{
	ss_update_idle_cpu_scan(sim, dst_cpu, sd, idle, sum_util, total_capacity);
}

/* prev_cpu: every wakeup stays on the task's previous CPU (if allowed) — a floor. */
static int prev_cpu_select_task_rq(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	return prev_cpu;
}

static const struct ss_policy sis_prop = {
	.name = "sis_prop",
	.description = "legacy SIS_PROP: scan budget from the waking CPU's wake_avg_idle over the LLC's avg_scan_cost (floor 4, i.e. at most 3 probes)",
	.source = "kernel v5.16-v6.6 fair.c select_idle_cpu() (SIS_PROP); v6.6 features.h with SIS_PROP=true, SIS_UTIL=false",
	.features = "SIS_PROP,NO_SIS_UTIL",
	.select_task_rq = ss_select_task_rq_fair,
	.update_lb_stats = kernel_update_lb_stats,
	.kernels = (1u << SS_KERNEL_6_6) | (1u << SS_KERNEL_5_17),
};

static const struct ss_policy sis_util = {
	.name = "sis_util",
	.description = "SIS_UTIL (v6.6 default): scan at most nr_idle_scan CPUs, from the LLC's sum of cpu_util() at the LLC's periodic balance",
	.source = "kernel v6.0-v6.6 fair.c select_idle_cpu()/update_idle_cpu_scan(), commit 70fb5ccf2ebb",
	.features = "NO_SIS_PROP,SIS_UTIL",
	.select_task_rq = ss_select_task_rq_fair,
	.update_lb_stats = kernel_update_lb_stats,
	.kernels = 1u << SS_KERNEL_6_6,
	.why_not = "SIS_UTIL was merged in v6.0 (70fb5ccf2ebb); v5.17's features.h has no SIS_UTIL (stable backports are not modelled)",
};

static const struct ss_policy full_scan = {
	.name = "full_scan",
	.description = "no scan limit: SIS_PROP and SIS_UTIL off, select_idle_cpu() walks the whole LLC",
	.source = "kernel v6.6 fair.c select_idle_cpu() with both features off",
	.features = "NO_SIS_PROP,NO_SIS_UTIL",
	.select_task_rq = ss_select_task_rq_fair,
	.update_lb_stats = kernel_update_lb_stats,
	.kernels = (1u << SS_KERNEL_6_6) | (1u << SS_KERNEL_5_17),
};

static const struct ss_policy sis_util_linear = {
	.name = "sis_util_linear",
	.description = "SIS_UTIL RFC v2: nr_idle_scan = llc_size - (llc_size - 4) * 2 * sum_util / total_capacity, floor 4, from the LLC's periodic balance; read without +1 and only when there is no idle core",
	.source = "Chen Yu, [PATCH v2][RFC] sched/fair: Change SIS_PROP to search idle CPU based on sum of util_avg, LKML 2022-03-10 (seeds/000); not merged",
	.features = "NO_SIS_PROP,NO_SIS_UTIL,SIS_UTIL_LINEAR",
	.select_task_rq = ss_select_task_rq_fair,
	.update_lb_stats = kernel_update_lb_stats,
	.kernels = (1u << SS_KERNEL_6_6) | (1u << SS_KERNEL_5_17),
	.base = { [SS_KERNEL_6_6] = "v5.17 patch ported to v6.6", [SS_KERNEL_5_17] = "v5.17 patch" },
};

static const struct ss_policy sis_clear_target = {
	.name = "sis_clear_target",
	.description = "SIS_PROP with target cleared from select_idle_cpu()'s scan mask (the clear costs cost.clear_target_ns per call)",
	.source = "Yicong Yang, [PATCH] sched/fair: Clear target from cpus to scan in select_idle_cpu, LKML 2021-11 (seeds/003), measured on 5.16-rc1 with SIS_PROP",
	.features = "SIS_PROP,NO_SIS_UTIL,SIS_CLEAR_TARGET",
	.select_task_rq = ss_select_task_rq_fair,
	.update_lb_stats = kernel_update_lb_stats,
	.kernels = (1u << SS_KERNEL_6_6) | (1u << SS_KERNEL_5_17),
	.base = { [SS_KERNEL_6_6] = "v5.16-rc1 patch ported to v6.6", [SS_KERNEL_5_17] = "v5.16-rc1 patch" },
};

static const struct ss_policy prev_cpu = {
	.name = "prev_cpu",
	.description = "always the task's previous CPU: no wake_affine, no idle search (a floor for comparisons)",
	.source = "simsched baseline",
	.features = "NO_SIS_PROP,NO_SIS_UTIL",
	.select_task_rq = prev_cpu_select_task_rq,
	.update_lb_stats = NULL,
	.kernels = (1u << SS_KERNEL_6_6) | (1u << SS_KERNEL_5_17),
};

static const struct ss_policy *const all_policies[] = {
	&sis_prop, &sis_util, &sis_util_linear, &sis_clear_target, &full_scan, &prev_cpu, &ss_policy_burst_threshold, &ss_policy_burst_avg_depth, NULL,
};

const struct ss_policy *const *ss_policies(void)
{
	return all_policies;
}

static const char *const kernel_base[SS_NR_KERNELS] = {
	[SS_KERNEL_6_6] = "v6.6", [SS_KERNEL_5_17] = "v5.17",
};

const char *ss_kernel_default_policy(enum ss_kernel k)
{
	return k == SS_KERNEL_5_17 ? "sis_prop" : "sis_util";
}

bool ss_policy_kernel_check(const struct ss_policy *pol, enum ss_kernel k, const char **base, GError **err)
{
	if ((unsigned)k >= SS_NR_KERNELS) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "kernel %d is not modelled (expected 6.6 or 5.17)", (int)k);
		return false;
	}
	if (pol->kernels && !(pol->kernels & (1u << k))) {
		GString *names = g_string_new(NULL);
		for (const struct ss_policy *const *pp = all_policies; *pp; pp++)
			if ((*pp)->kernels & (1u << k))
				g_string_append_printf(names, "%s%s", names->len ? ", " : "", (*pp)->name);
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "policy '%s' does not run on kernel v%s: %s (policies on v%s: %s)",
			    pol->name, ss_kernel_name(k), pol->why_not ? pol->why_not : "not defined there",
			    ss_kernel_name(k), names->str);
		g_string_free(names, TRUE);
		return false;
	}
	*base = pol->base[k] ? pol->base[k] : kernel_base[k];
	return true;
}

const struct ss_policy *ss_policy_find(const char *name)
{
	for (const struct ss_policy *const *p = all_policies; *p; p++)
		if (strcmp((*p)->name, name) == 0)
			return *p;
	return ss_policy_plugin_find(name);
}

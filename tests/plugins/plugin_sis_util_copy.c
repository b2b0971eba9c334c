/*
 * Test plugin: the built-in sis_util written against the public policy API
 * (simsched/policy.h) only. The wakeup path is select_task_rq_fair()'s
 * (ss_wake_target, then select_idle_sibling's fast path and SMT step from
 * ss_select_idle_sibling_scan), and the domain search is v6.6's
 * select_idle_cpu() under SIS_UTIL rebuilt from the shared walk:
 *
 *     nr = nr_idle_scan + 1; if (nr == 1) return -1;   // overloaded LLC
 *     for_each_cpu_wrap(cpu, sd_llc ∩ p->cpus_ptr, target + 1)
 *         has_idle_core ? select_idle_core() (unbounded) : if (!--nr) return -1; ...
 *
 * i.e. at most nr_idle_scan probes, unbounded with an idle core. Forks take
 * the kernel's slow path (ss_select_task_rq_fair). On a machine without SMT
 * it places every task as sis_util does, so every figure of the run must be
 * the built-in's: tests/test_plugin.c compares the two JSON outputs. (With
 * SMT the copy differs in one way the API does not offer: a fruitless
 * idle-core walk does not clear has_idle_cores, set_idle_cores(target, 0).)
 */
#include <simsched/policy.h>

static int copy_select_idle_cpu(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target)
{
	long nr;
	ss_charge_llc_shared(sim, (unsigned)target);   /* READ_ONCE(sd_share->nr_idle_scan) */
	nr = (long)ss_nr_idle_scan(sim, (unsigned)target);

	if (nr == 0)
		return -1;
	if (has_idle_core)
		nr = -1;
	return ss_select_idle_cpu_nr(sim, p, ss_cpu_llc_mask(sim, (unsigned)target), target, has_idle_core, &nr);
}

static int copy_select_task_rq(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	int target;

	if (!(wake_flags & SS_WF_TTWU))
		return ss_select_task_rq_fair(sim, p, prev_cpu, wake_flags);
	target = ss_wake_target(sim, p, prev_cpu, wake_flags);
	return ss_select_idle_sibling_scan(sim, p, prev_cpu, target, copy_select_idle_cpu);
}

static const struct ss_policy_ops ops = {
	.abi_version = SS_POLICY_ABI_VERSION,
	.name = "test_sis_util_copy",
	.description = "test: sis_util rebuilt from the plugin API's shared steps",
	.source = "tests/plugins/plugin_sis_util_copy.c",
	.features = "NO_SIS_PROP,SIS_UTIL",
	.select_task_rq = copy_select_task_rq,
	.update_lb_stats = ss_update_idle_cpu_scan,
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &ops;
}

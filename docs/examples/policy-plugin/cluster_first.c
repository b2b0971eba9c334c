/*
 * cluster_first — an example simsched policy plugin: on wakeup, scan the
 * target's cluster (the CPUs sharing its L2 / L3 tag: cpu_clustergroup_mask)
 * first, then the rest of the LLC, with SIS_UTIL's budget shared over both.
 *
 * This is the idea of Yicong Yang's "sched/fair: Scan cluster before
 * scanning LLC in wake-up path" (merged in v6.7, commit 8881e1639f1f),
 * written against the policy API rather than as a patch: everything around
 * the domain search (wake_affine, the target/prev/recent_used_cpu fast path,
 * select_idle_smt, the scan statistics) is v6.6's, taken from the shared
 * steps. Differences from the v6.7 patch: no prev/recent-in-cluster
 * fallbacks, and the budget is nr_idle_scan probes (v6.6 reads nr_idle_scan
 * + 1 and stops at "!--nr", i.e. the same count).
 *
 * Build: CMake builds it as <build>/plugins/cluster_first.so. By hand:
 *   cc -O2 -fPIC -shared -fvisibility=hidden -I lib/include \
 *      docs/examples/policy-plugin/cluster_first.c -o cluster_first.so
 * Run:
 *   simsched run --policy-plugin cluster_first.so --policy cluster_first \
 *      --topology topologies/kunpeng920.yaml --workload workloads/netperf-tcp-rr.yaml
 */
#include <simsched/policy.h>

/* per-run state: the LLC-minus-cluster mask, rebuilt per domain search (word operations, no allocation) */
struct cluster_first_state {
	uint64_t rest[SS_MAX_CPUS / 64];
};

enum { PARAM_CLUSTER_ONLY };

static const struct ss_policy_param cluster_first_params[] = {
	[PARAM_CLUSTER_ONLY] = { "cluster_only", "0/1",
				 "1: never scan beyond the target's cluster (the cluster is the whole search)", 0, 0, 1 },
};

/* The domain search, where v6.6 calls select_idle_cpu(p, sd_llc(target), has_idle_core, target). */
static int cluster_first_scan(struct ss_sim *sim, struct ss_task *p, bool has_idle_core, int target)
{
	struct cluster_first_state *st = ss_policy_state(sim);
	const uint64_t *cluster = ss_cpu_cluster_mask(sim, (unsigned)target);
	long nr;
	ss_charge_llc_shared(sim, (unsigned)target);   /* READ_ONCE(sd_share->nr_idle_scan) */
	nr = (long)ss_nr_idle_scan(sim, (unsigned)target);
	int cpu;

	/* as SIS_UTIL: an LLC judged overloaded (nr_idle_scan == 0) is not scanned at all */
	if (nr == 0)
		return -1;
	if (has_idle_core)
		nr = -1;   /* as v6.6: the idle-core walk is not bounded */

	cpu = ss_select_idle_cpu_nr(sim, p, cluster, target, has_idle_core, &nr);
	if (cpu >= 0 || ss_policy_param(sim, PARAM_CLUSTER_ONLY))
		return cpu;

	ss_cpumask_andnot(st->rest, ss_cpu_llc_mask(sim, (unsigned)target), cluster, ss_nr_mask_words(sim));
	return ss_select_idle_cpu_nr(sim, p, st->rest, target, has_idle_core, &nr);
}

static int cluster_first_select_task_rq(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	int target = ss_wake_target(sim, p, prev_cpu, wake_flags);
	return ss_select_idle_sibling_scan(sim, p, prev_cpu, target, cluster_first_scan);
}

static const struct ss_policy_ops cluster_first_ops = {
	.abi_version = SS_POLICY_ABI_VERSION,
	.name = "cluster_first",
	.description = "example plugin: scan the target's cluster first, then the rest of the LLC, within SIS_UTIL's nr_idle_scan",
	.source = "docs/examples/policy-plugin; after Yicong Yang, sched/fair: Scan cluster before scanning LLC in wake-up path (v6.7)",
	.features = "NO_SIS_PROP,SIS_UTIL",
	.select_task_rq = cluster_first_select_task_rq,
	.update_lb_stats = ss_update_idle_cpu_scan,   /* keeps nr_idle_scan written, as SIS_UTIL does */
	.params = cluster_first_params,
	.nr_params = 1,
	.state_size = sizeof(struct cluster_first_state),
};

SS_POLICY_EXPORT const struct ss_policy_ops *ss_policy_plugin_v1(void)
{
	return &cluster_first_ops;
}

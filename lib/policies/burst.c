/*
 * The burst policies of seeds/004 (LKML, October 2026):
 *
 *   burst_threshold — Li kunyu, "[RFC PATCH 5/6] sched/fair: Add task burst
 *       threshold for large-scale bursts": after select_task_rq_fair() picked
 *       new_cpu (wakeup or fork path), if new_cpu's rq already holds at least
 *       sysctl_smt_buddy_balance_task runnable tasks, take the first CPU of
 *       nohz.idle_cpus_mask after new_cpu (for_each_cpu_wrap from new_cpu + 1)
 *       that is idle and allowed.
 *
 * Both are built on the v6.6 select_task_rq_fair() of placement.c.
 */
#include "ss_sched.h"

/* Index of the parameters in the policies' tables below. */
enum { BT_TASKS };

static int burst_threshold_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	int new_cpu = ss_select_task_rq_fair(sim, p, prev_cpu, wake_flags);
	struct ss_cpumask_wrap it;
	unsigned c;

	/* cpu_rq(new_cpu)->nr_running: one more rq read */
	ss_charge_probe(sim, (unsigned)new_cpu);
	if (sim->rq[new_cpu].cfs.nr_running < (uint64_t)sim->policy_param[BT_TASKS])
		return new_cpu;
	for (c = ss_cpumask_wrap_first(&it, sim->nohz_idle_cpus_mask, sim->nr_cpus, ((unsigned)new_cpu + 1) % sim->nr_cpus);
	     c < sim->nr_cpus; c = ss_cpumask_wrap_next(&it, sim->nohz_idle_cpus_mask, sim->nr_cpus)) {
		ss_charge_probe(sim, c);   /* idle_cpu(nohz_idle_cpu) reads its rq */
		if (!ss_idle_cpu(sim, c))
			continue;
		if (!ss_cpumask_test(p->cpus_ptr, c))
			continue;
		if (sim->measuring)
			sim->res->policy_redirects++;
		return (int)c;
	}
	return new_cpu;
}

static const struct ss_policy_param burst_threshold_params[] = {
	[BT_TASKS] = { .key = "tasks", .unit = "runnable tasks", .def = 2, .min = 1, .max = 1000000,
		       .doc = "sysctl_smt_buddy_balance_task: redirect when new_cpu's rq->nr_running is at least this; the patch "
			      "does not publish its default. 2 = new_cpu already has a task waiting besides the one it runs: the "
			      "smallest value that never redirects a wakee away from a CPU running only its waker (sync wakeups)" },
};

const struct ss_policy ss_policy_burst_threshold = {
	.name = "burst_threshold",
	.description = "SIS_UTIL, then: if new_cpu has >= policy.tasks runnable tasks, the first idle allowed CPU of "
		       "nohz.idle_cpus_mask after new_cpu",
	.source = "Li kunyu, [RFC PATCH 5/6] sched/fair: Add task burst threshold for large-scale bursts, LKML 2026-10-20 "
		  "(seeds/004); threshold default chosen here (docs/policies.md)",
	.features = "NO_SIS_PROP,SIS_UTIL",
	.select_task_rq = burst_threshold_select,
	.update_lb_stats = ss_update_idle_cpu_scan,
	.params = burst_threshold_params,
	.nr_params = G_N_ELEMENTS(burst_threshold_params),
};

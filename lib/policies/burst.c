/*
 * The burst policies of seeds/004 (LKML, October 2026):
 *
 *   burst_threshold — Li kunyu, "[RFC PATCH 5/6] sched/fair: Add task burst
 *       threshold for large-scale bursts": after select_task_rq_fair() picked
 *       new_cpu (wakeup, fork or exec path: the check ends select_task_rq_fair(),
 *       which sched_exec() calls too, WF_EXEC), if new_cpu's rq already holds at least
 *       sysctl_smt_buddy_balance_task runnable tasks, take the first CPU of
 *       nohz.idle_cpus_mask after new_cpu (for_each_cpu_wrap from new_cpu + 1)
 *       that is idle and allowed.
 *
 *   burst_avg_depth — Peter Zijlstra's counter-proposal in the same thread:
 *       "track an average rq-depth in the periodic load-balance pass, in say
 *       the root domain … when the local rq-depth reaches some multiple (3
 *       sounds like a good number?) of that, … cpu =
 *       cpumask_any_distribute(p->cpus_ptr); … *and* reset the periodic load
 *       balance period." The open choices are parameters (docs/policies.md).
 *
 * Both are built on the v6.6 select_task_rq_fair() of placement.c.
 */
#include "ss_sched.h"

/* Index of the parameters in the policies' tables below. */
enum { BT_TASKS };
enum { AD_FACTOR, AD_LOCAL, AD_MIN_AVG, AD_RESET, AD_AVG_SHIFT };

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
	.kernels = 1u << SS_KERNEL_6_6,
	.base = { [SS_KERNEL_6_6] = "post-v6.6 patch (seeds/004) ported to v6.6" },
	.why_not = "a patch on a kernel after v6.6 (seeds/004): it is modelled on v6.6 with SIS_UTIL, which v5.17 lacks",
};

/* ------------------------------------------------------------ burst_avg_depth */

struct avg_depth_state {
	uint64_t avg_x1024;                     /* average rq depth of the root domain, ×1024 */
	bool valid;                             /* a root-domain pass has measured it */
	uint16_t distribute_prev[SS_MAX_CPUS];  /* per-CPU distribute_cpu_mask_prev (lib/cpumask.c) */
};

/*
 * The periodic balance pass over the root domain (the highest domain, whose
 * span is every CPU of the root domain): the mean nr_running over its CPUs,
 * smoothed over passes by policy.avg_shift (0 = the last pass's value). Then
 * SIS_UTIL's own update, as the kernel's update_sd_lb_stats() does.
 */
static void avg_depth_lb_stats(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			       enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity)
{
	struct avg_depth_state *st = sim->policy_state;
	ss_update_idle_cpu_scan(sim, dst_cpu, sd, idle, sum_util, total_capacity);
	if (sd->parent || idle == CPU_NEWLY_IDLE)
		return;   /* only the periodic pass of the root domain */
	uint64_t sum = 0;
	for (unsigned c = ss_cpumask_first(sd->span, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(sd->span, sim->nr_cpus, c + 1))
		sum += sim->rq[c].cfs.nr_running;
	uint64_t now = sum * 1024 / sd->span_weight;
	unsigned shift = (unsigned)sim->policy_param[AD_AVG_SHIFT];
	if (!st->valid || !shift) {
		st->avg_x1024 = now;
	} else {
		int64_t diff = (int64_t)(now - st->avg_x1024);
		st->avg_x1024 += (uint64_t)(diff / (1 << shift));
	}
	st->valid = true;
}

/*
 * cpumask_any_distribute() (lib/cpumask.c): the first CPU of mask strictly
 * after this CPU's previous answer, wrapping; the answer is remembered.
 */
static unsigned any_distribute(struct ss_sim *sim, struct avg_depth_state *st, unsigned this_cpu, const uint64_t *mask)
{
	unsigned prev = st->distribute_prev[this_cpu];
	unsigned next = ss_cpumask_next(mask, sim->nr_cpus, prev + 1);
	if (next >= sim->nr_cpus)
		next = ss_cpumask_first(mask, sim->nr_cpus);
	if (next < sim->nr_cpus)
		st->distribute_prev[this_cpu] = (uint16_t)next;
	return next;
}

static int avg_depth_select(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	struct avg_depth_state *st = sim->policy_state;
	int new_cpu = ss_select_task_rq_fair(sim, p, prev_cpu, wake_flags);
	unsigned local = sim->policy_param[AD_LOCAL] ? sim->this_cpu : (unsigned)new_cpu;
	uint64_t avg = st->avg_x1024, min_avg = (uint64_t)sim->policy_param[AD_MIN_AVG] * 1024 / 100;
	unsigned cpu;

	if (local != sim->this_cpu)
		ss_charge_probe(sim, local);   /* reading a remote rq's nr_running */
	if (avg < min_avg)
		avg = min_avg;
	if ((uint64_t)sim->rq[local].cfs.nr_running * 1024 < (uint64_t)sim->policy_param[AD_FACTOR] * avg)
		return new_cpu;
	cpu = any_distribute(sim, st, sim->this_cpu, p->cpus_ptr);
	if (cpu >= sim->nr_cpus)
		return new_cpu;
	/* "and reset the periodic load balance period" */
	if (sim->policy_param[AD_RESET]) {
		for (unsigned c = 0; c < sim->nr_cpus; c++) {
			if (sim->policy_param[AD_RESET] == 1 && c != local)
				continue;
			const struct ss_cpu_topo *ct = &sim->topo->cpu[c];
			for (unsigned l = 0; l < ct->nr_sd; l++) {
				sim->rq[c].sd_rt[l].balance_interval = ct->sd[l].min_interval;
				sim->rq[c].sd_rt[l].last_balance = 0;
			}
			sim->rq[c].next_balance = ss_jiffies(sim);
		}
	}
	if (sim->measuring)
		sim->res->policy_redirects++;
	return (int)cpu;
}

static const struct ss_policy_param avg_depth_params[] = {
	[AD_FACTOR] = { .key = "factor", .unit = "multiple of the average depth", .def = 3, .min = 1, .max = 1000,
			.doc = "fire when the local rq depth reaches factor x the average depth (\"3 sounds like a good number\")" },
	[AD_LOCAL] = { .key = "local", .unit = "0 = new_cpu, 1 = waking CPU", .def = 0, .min = 0, .max = 1,
		       .doc = "whose rq depth is compared: new_cpu's (where the wakee would queue: default) or the waking CPU's" },
	[AD_MIN_AVG] = { .key = "min_avg", .unit = "% of one task per CPU", .def = 100, .min = 0, .max = 100000,
			 .doc = "floor of the average depth: below one runnable task per CPU a CPU running only its current task is not a burst" },
	[AD_RESET] = { .key = "reset", .unit = "0 none, 1 local CPU, 2 all CPUs", .def = 1, .min = 0, .max = 2,
		       .doc = "whose periodic balance period is reset (balance_interval = min_interval, balance at the next tick)" },
	[AD_AVG_SHIFT] = { .key = "avg_shift", .unit = "log2 weight", .def = 0, .min = 0, .max = 10,
			   .doc = "smoothing of the average over root-domain passes: 0 = the last pass's mean, k = EWMA with weight 1/2^k" },
};

const struct ss_policy ss_policy_burst_avg_depth = {
	.name = "burst_avg_depth",
	.description = "SIS_UTIL, then: if the local rq depth >= policy.factor x the root domain's average depth (from its "
		       "periodic balance), cpumask_any_distribute(p->cpus_ptr) and reset the local periodic balance period",
	.source = "Peter Zijlstra, reply to [RFC PATCH 5/6] sched/fair: Add task burst threshold, LKML 2026-10-21 (seeds/004); "
		  "an idea in prose, its open choices are parameters (docs/policies.md)",
	.features = "NO_SIS_PROP,SIS_UTIL",
	.select_task_rq = avg_depth_select,
	.update_lb_stats = avg_depth_lb_stats,
	.params = avg_depth_params,
	.nr_params = G_N_ELEMENTS(avg_depth_params),
	.state_size = sizeof(struct avg_depth_state),
	.kernels = 1u << SS_KERNEL_6_6,
	.base = { [SS_KERNEL_6_6] = "post-v6.6 patch (seeds/004) ported to v6.6" },
	.why_not = "a patch on a kernel after v6.6 (seeds/004): it is modelled on v6.6 with SIS_UTIL, which v5.17 lacks",
};

/*
 * fork.c — the slow path of select_task_rq_fair() that fork and exec take
 * (kernel v6.6 fair.c): find_idlest_cpu() walks down the SD_BALANCE_FORK
 * (SD_BALANCE_EXEC) domains,
 * find_idlest_group() picks a group by update_sg_wakeup_stats() and
 * group_classify(), find_idlest_group_cpu() a CPU in it.
 *
 * Checked line by line against the v6.6 functions as they stand in the
 * kernel's history: the tip/LKML patches that last touched them before and
 * after v6.6 quote them whole or in context — "sched/numa: Apply imbalance
 * limitations consistently" (v5.19, adjust_numa_imbalance() and its use
 * here), "sched/fair: Consider CPU affinity when allowing NUMA imbalance in
 * find_idlest_group()" (v6.0, the `p->nr_cpus_allowed != NR_CPUS` clamp),
 * "sched/fair: Determine active load balance for SMT sched groups" (v6.6,
 * group_smt_balance), "sched/fair: Use the new cfs_rq.h_nr_runnable" (v6.14,
 * update_sg_wakeup_stats() body, unchanged since v6.6 but for that field)
 * and "sched/fair: Use cpumask_weight_and() in sched_balance_find_dst_group()"
 * (v6.20, the NUMA clamp still `!= NR_CPUS`) — and a v6.17-era mainline
 * fair.c (sched_balance_find_dst_*(), the v6.10 names of the same code).
 *
 * Fork (WF_FORK / SD_BALANCE_FORK): the child is not on any runqueue yet,
 * so the *_without(p) figures are the plain figures of each CPU
 * (cpu_load_without() etc. return early for a task whose
 * se.avg.last_update_time is 0 or that is not on that CPU), and
 * task_running_on_cpu() is 0 everywhere. Exec (WF_EXEC / SD_BALANCE_EXEC,
 * sched_exec()): the task runs on its CPU, whose figures leave it out
 * (without_p()), and its PELT is first synced to its cfs_rq
 * (sync_entity_load_avg(), only when not SD_BALANCE_FORK).
 */
#include "ss_sched.h"

#include <string.h>

/* enum group_type, kernel v6.6 fair.c, in its order (higher = busier) */
enum group_type {
	group_has_spare = 0,
	group_fully_busy,
	group_misfit_task,
	group_smt_balance,
	group_asym_packing,
	group_imbalanced,
	group_overloaded,
};

/* struct sg_lb_stats, the fields the wakeup path fills */
struct sg_wakeup_stats {
	uint64_t avg_load, group_load, group_util, group_runnable, group_capacity;
	unsigned sum_nr_running, sum_h_nr_running, idle_cpus, group_weight;
	enum group_type group_type;
};

/* group_is_overloaded(), v6.6 */
static bool group_is_overloaded(unsigned imbalance_pct, const struct sg_wakeup_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;
	if (sgs->group_capacity * 100 < sgs->group_util * imbalance_pct)
		return true;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return true;
	return false;
}

/* group_has_capacity(), v6.6 */
static bool group_has_capacity(unsigned imbalance_pct, const struct sg_wakeup_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;
	if (sgs->group_capacity * imbalance_pct < sgs->group_runnable * 100)
		return false;
	if (sgs->group_capacity * 100 > sgs->group_util * imbalance_pct)
		return true;
	return false;
}

/*
 * group_classify(), v6.6, as the wakeup path reaches it:
 * - group_asym_packing and group_smt_balance: their sgs fields are only set
 *   by update_sg_lb_stats(); update_sg_wakeup_stats() memsets them to 0.
 * - group_misfit_task: update_sg_wakeup_stats() sets group_misfit_task_load
 *   on SD_ASYM_CPUCAPACITY domains and clears it as soon as task_fits_cpu(p,
 *   i) for one CPU of the group. A fork child has util_avg 0 here
 *   (post_init_entity_util_avg() runs after select_task_rq() in
 *   wake_up_new_task()) and no uclamp is modelled, so it fits every CPU:
 *   never misfit on this path.
 * - group_imbalanced: sg_imbalanced(), the group's sgc->imbalance that
 *   load_balance() sets when affinity kept it from balancing (balance.c
 *   keeps it per sched_group_capacity, sim->sgc_imbalance).
 */
static bool sg_imbalanced(const struct ss_sim *sim, const struct ss_sched_domain *sd, const struct ss_sched_group *sg)
{
	unsigned key = ss_sd_level_key(sd);

	if (!sim->sgc_imbalance)
		return false;
	if (key >= sim->nr_level_keys)
		key = sim->nr_level_keys - 1;
	return sim->sgc_imbalance[(size_t)key * sim->nr_cpus + sg->id] != 0;
}

static enum group_type group_classify(unsigned imbalance_pct, bool imbalanced, const struct sg_wakeup_stats *sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		return group_overloaded;
	if (imbalanced)
		return group_imbalanced;
	if (!group_has_capacity(imbalance_pct, sgs))
		return group_fully_busy;
	return group_has_spare;
}

static uint64_t lsub(uint64_t a, uint64_t b)   /* lsub_positive() */
{
	return a > b ? a - b : 0;
}

/* _task_util_est(), v6.6 fair.c: max(ewma, enqueued without UTIL_AVG_UNCHANGED) */
static uint64_t task_util_est_only(const struct ss_sched_avg *a)
{
	uint64_t enq = a->util_est.enqueued & ~SS_UTIL_AVG_UNCHANGED;

	return a->util_est.ewma > enq ? a->util_est.ewma : enq;
}

/*
 * CPU cpu's figures without p, v6.6 fair.c: cpu_load_without() (load_avg
 * less task_h_load(p), no task groups: its load_avg), cpu_util_without()
 * (cpu_util(cpu, p, -1): util_avg less task_util(p); with UTIL_EST,
 * max with util_est.enqueued less _task_util_est(p), p being queued or
 * current; at most capacity_orig), cpu_runnable_without() and
 * task_running_on_cpu(). p counts on its CPU only once it has PELT history
 * (se.avg.last_update_time != 0) and is on that rq: never for a fork's child.
 */
static unsigned without_p(struct ss_sim *sim, unsigned cpu, const struct ss_task *p, uint64_t *load, uint64_t *util,
			  uint64_t *runnable)
{
	const struct ss_cfs_rq_avg *cfs = &sim->rq[cpu].cfs_avg;
	uint64_t u, est;

	if ((unsigned)p->cpu != cpu || !p->avg.last_update_time || p->state != SS_TASK_RUNNABLE) {
		*load = ss_cpu_load(sim, cpu);
		*util = ss_cpu_util_of(sim, cpu);
		*runnable = cfs->avg.runnable_avg;
		return 0;
	}
	*load = lsub(cfs->avg.load_avg, p->avg.load_avg);
	*runnable = lsub(cfs->avg.runnable_avg, p->avg.runnable_avg);
	u = lsub(cfs->avg.util_avg, p->avg.util_avg);
	if (ss_feat(sim->features, SS_FEAT_UTIL_EST)) {
		est = lsub(cfs->avg.util_est.enqueued, task_util_est_only(&p->avg));
		if (est > u)
			u = est;
	}
	*util = u < sim->topo->cpu[cpu].capacity ? u : sim->topo->cpu[cpu].capacity;
	return 1;
}

/* update_sg_wakeup_stats(), v6.6: the group's figures without p (a fork's child: none of them) */
static void update_sg_wakeup_stats(struct ss_sim *sim, const struct ss_sched_domain *sd,
				   const struct ss_sched_group *group, const struct ss_task *p,
				   struct sg_wakeup_stats *sgs)
{
	memset(sgs, 0, sizeof *sgs);
	for (unsigned i = ss_cpumask_first(group->span, sim->nr_cpus); i < sim->nr_cpus;
	     i = ss_cpumask_next(group->span, sim->nr_cpus, i + 1)) {
		const struct ss_rq *rq = &sim->rq[i];
		uint64_t load, util, runnable;
		unsigned local = without_p(sim, i, p, &load, &util, &runnable);
		unsigned nr_running = rq->cfs.nr_running - local;

		sgs->group_load += load;                 /* cpu_load_without() */
		sgs->group_util += util;                 /* cpu_util_without() */
		sgs->group_runnable += runnable;         /* cpu_runnable_without() */
		sgs->sum_h_nr_running += nr_running;     /* h_nr_running - task_running_on_cpu() */
		sgs->sum_nr_running += nr_running;
		/*
		 * idle_cpu_without(): nothing running but maybe p (rq->curr is the
		 * idle task or p) and no pending wakeup, once nr_running without p is 0
		 */
		if (!nr_running && (rq->curr == NULL || rq->curr == p) && !ss_rq_claimed(sim, rq))
			sgs->idle_cpus++;
	}
	sgs->group_capacity = group->capacity;
	sgs->group_weight = group->weight;
	sgs->group_type = group_classify(sd->imbalance_pct, sg_imbalanced(sim, sd, group), sgs);
	/* avg_load only makes sense for fully busy or overloaded groups */
	if (sgs->group_type == group_fully_busy || sgs->group_type == group_overloaded)
		sgs->avg_load = sgs->group_load * SS_SCHED_CAPACITY_SCALE / sgs->group_capacity;
}

/* update_pick_idlest(), v6.6 */
static bool update_pick_idlest(const struct sg_wakeup_stats *idlest_sgs, const struct sg_wakeup_stats *sgs)
{
	if (sgs->group_type < idlest_sgs->group_type)
		return true;
	if (sgs->group_type > idlest_sgs->group_type)
		return false;
	switch (sgs->group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* select the group with the lowest avg_load */
		if (idlest_sgs->avg_load <= sgs->avg_load)
			return false;
		break;
	case group_has_spare:
		/* select the group with most idle CPUs, then the lowest group_util */
		if (idlest_sgs->idle_cpus > sgs->idle_cpus)
			return false;
		if (idlest_sgs->idle_cpus == sgs->idle_cpus && idlest_sgs->group_util <= sgs->group_util)
			return false;
		break;
	default:   /* not used in the slow wakeup path */
		return false;
	}
	return true;
}

/* allow_numa_imbalance() / adjust_numa_imbalance(), v6.6 (NUMA_IMBALANCE_MIN = 2) */
static long adjust_numa_imbalance(long imbalance, unsigned dst_running, unsigned imb_numa_nr)
{
	if (!(dst_running <= imb_numa_nr))
		return imbalance;
	if (imbalance <= 2)
		return 0;
	return imbalance;
}

/*
 * find_idlest_group(), group_has_spare across NUMA, v6.6: stay local (NULL)
 * when adjust_numa_imbalance() allows the difference of idle CPUs, i.e. the
 * local group would run at most imb_numa_nr tasks (v5.18, clamped to the
 * task's allowed CPUs in it, v6.0) and the difference is at most 2.
 */
static bool numa_spare_stay_local_v6_6(struct ss_sim *sim, const struct ss_sched_domain *sd, const struct ss_task *p,
				       const struct ss_sched_group *local, const struct sg_wakeup_stats *local_sgs,
				       const struct sg_wakeup_stats *idlest_sgs)
{
	unsigned imb_numa_nr = sd->imb_numa_nr;
	long imb;

	/*
	 * The task may be pinned to a subset of the local group.
	 * v6.6 tests p->nr_cpus_allowed != NR_CPUS, NR_CPUS being the
	 * build-time maximum (8192 x86_64 distro, 256+ arm64), above
	 * any machine's CPU count: the clamp always applies, and it
	 * matters when imb_numa_nr exceeds the local group's weight
	 * (upper NUMA levels: imb × span factor).
	 */
	{
		unsigned w = 0;

		for (unsigned k = 0; k < sim->nr_words; k++)
			w += (unsigned)__builtin_popcountll(local->span[k] & p->cpus_ptr[k]);
		if (w < imb_numa_nr)
			imb_numa_nr = w;
	}
	imb = (long)local_sgs->idle_cpus - (long)idlest_sgs->idle_cpus;
	if (imb < 0)
		imb = -imb;
	return !adjust_numa_imbalance(imb, local_sgs->sum_nr_running + 1, imb_numa_nr);
}

/*
 * The same, v5.17: stay local while allow_numa_imbalance(local tasks,
 * sd->span_weight), i.e. the local group runs fewer tasks than a quarter of
 * the domain's CPUs, whatever the idle CPUs elsewhere.
 */
static bool numa_spare_stay_local_v5_17(const struct ss_sched_domain *sd, const struct sg_wakeup_stats *local_sgs)
{
	return local_sgs->sum_nr_running < (sd->span_weight >> 2);
}

/* What find_idlest_group() saw, for the trace's find_idlest_cpu line (ss_ft_fork_level()). */
struct fig_why {
	const char *why;                  /* the test that decided */
	unsigned local_idle, idlest_idle; /* idle CPUs of the local and the idlest group */
};

/* find_idlest_group(), v6.6 (no core scheduling cookies, no NUMA balancing preferred node) */
static const struct ss_sched_group *find_idlest_group(struct ss_sim *sim, const struct ss_sched_domain *sd,
						      struct ss_task *p, unsigned this_cpu, struct fig_why *w)
{
	const struct ss_sched_group *idlest = NULL, *local = NULL, *group = sd->groups;
	struct sg_wakeup_stats local_sgs = { 0 }, tmp_sgs, idlest_sgs = { .avg_load = UINT32_MAX,
									     .group_type = group_overloaded };
	uint64_t imbalance;

	do {
		bool local_group;
		struct sg_wakeup_stats *sgs;

		/* skip over this group if it has no CPUs allowed */
		if (!ss_cpumask_intersects(group->span, p->cpus_ptr, sim->nr_words))
			continue;
		local_group = ss_cpumask_test(group->span, this_cpu);
		if (local_group) {
			sgs = &local_sgs;
			local = group;
		} else {
			sgs = &tmp_sgs;
		}
		update_sg_wakeup_stats(sim, sd, group, p, sgs);
		if (!local_group && update_pick_idlest(&idlest_sgs, sgs)) {
			idlest = group;
			idlest_sgs = *sgs;
		}
	} while (group = group->next, group != sd->groups);

	w->local_idle = local_sgs.idle_cpus;
	w->idlest_idle = idlest_sgs.idle_cpus;
	/* there is no idlest group to push tasks to */
	w->why = "no_other_group";
	if (!idlest)
		return NULL;
	/* the local group has been skipped because of CPU affinity */
	w->why = "local_not_allowed";
	if (!local)
		return idlest;
	/* if the local group is idler than the selected idlest group don't try and push the task */
	w->why = "local_type";
	if (local_sgs.group_type < idlest_sgs.group_type)
		return NULL;
	/* if the local group is busier than the selected idlest group try and push the task */
	if (local_sgs.group_type > idlest_sgs.group_type)
		return idlest;
	w->why = "load";

	switch (local_sgs.group_type) {
	case group_overloaded:
	case group_fully_busy:
		/* allowed imbalance based on load: scale_load_down(NICE_0_LOAD) * (pct - 100) / 100 */
		imbalance = (uint64_t)SS_SCHED_CAPACITY_SCALE * (sd->imbalance_pct - 100) / 100;
		/* across NUMA domains, add the imbalance to the remote load and consider staying local */
		if ((sd->flags & SD_NUMA) && idlest_sgs.avg_load + imbalance >= local_sgs.avg_load)
			return NULL;
		/* if the local group is less loaded than the selected idlest group don't push */
		if (idlest_sgs.avg_load >= local_sgs.avg_load + imbalance)
			return NULL;
		if (100 * local_sgs.avg_load <= sd->imbalance_pct * idlest_sgs.avg_load)
			return NULL;
		break;
	case group_has_spare:
		/* keep the task on this node, close to its wakeup source, while the imbalance is allowed */
		w->why = "numa_imbalance";
		if ((sd->flags & SD_NUMA) &&
		    (sim->kernel == SS_KERNEL_5_17 ? numa_spare_stay_local_v5_17(sd, &local_sgs)
						   : numa_spare_stay_local_v6_6(sim, sd, p, local, &local_sgs, &idlest_sgs)))
			return NULL;
		/* select the group with the highest number of idle CPUs */
		w->why = "idle_cpus";
		if (local_sgs.idle_cpus >= idlest_sgs.idle_cpus)
			return NULL;
		break;
	default:
		return NULL;
	}
	return idlest;
}

/*
 * find_idlest_group_cpu(), v6.6: among the allowed CPUs of the group, the
 * idle CPU in the shallowest cpuidle state (smallest exit latency), ties to
 * the one that went idle last (largest rq->idle_stamp, warmest cache); with
 * no idle CPU, the least loaded one (cpu_load()).
 * idle_get_state(rq) is the state the CPU sleeps in (rq->idle_state), NULL
 * while it has none (cost.idle_states=0, or not entered yet).
 * Not modelled: sched_core_cookie_match() (no core scheduling) and the
 * sched_idle_cpu() early return (no SCHED_IDLE tasks).
 */
static int find_idlest_group_cpu(struct ss_sim *sim, const struct ss_sched_group *group, struct ss_task *p,
				 int this_cpu)
{
	uint64_t min_load = UINT64_MAX, latest_idle_timestamp = 0, min_exit_latency = UINT64_MAX;
	int least_loaded_cpu = this_cpu, shallowest_idle_cpu = -1;

	/* check if we have any choice */
	if (group->weight == 1)
		return (int)ss_cpumask_first(group->span, sim->nr_cpus);
	/* traverse only the allowed CPUs */
	for (unsigned i = ss_cpumask_first(group->span, sim->nr_cpus); i < sim->nr_cpus;
	     i = ss_cpumask_next(group->span, sim->nr_cpus, i + 1)) {
		const struct ss_rq *rq = &sim->rq[i];

		if (!ss_cpumask_test(p->cpus_ptr, i))
			continue;
		if (ss_available_idle_cpu(sim, i)) {
			const struct ss_idle_state *idle =
				rq->idle_state >= 0 ? &sim->topo->idle_state[rq->idle_state] : NULL;

			if (idle && idle->exit_latency_ns < min_exit_latency) {
				/* priority to the smallest exit latency, whatever the idle timestamp */
				min_exit_latency = idle->exit_latency_ns;
				latest_idle_timestamp = rq->idle_stamp;
				shallowest_idle_cpu = (int)i;
			} else if ((!idle || idle->exit_latency_ns == min_exit_latency) &&
				   (rq->idle_stamp > latest_idle_timestamp ||
				    /*
				     * deviation: a CPU idle since the run began has
				     * idle_stamp 0 and no state, where a booted kernel's
				     * CPUs have all been through newidle_balance() and
				     * the idle loop; the kernel's test
				     * (idle_stamp > latest) would never pick it. It is
				     * taken when nothing else idle was seen.
				     */
				    shallowest_idle_cpu == -1)) {
				/* equal or no active idle state: the most recently idled CPU */
				latest_idle_timestamp = rq->idle_stamp;
				shallowest_idle_cpu = (int)i;
			}
		} else if (shallowest_idle_cpu == -1) {
			uint64_t load = ss_cpu_load(sim, i);

			if (load < min_load) {
				min_load = load;
				least_loaded_cpu = (int)i;
			}
		}
	}
	return shallowest_idle_cpu != -1 ? shallowest_idle_cpu : least_loaded_cpu;
}

/* The domain of cpu at the same level index as sd's level, or a NULL walk: for_each_domain(). */
int ss_find_idlest_cpu(struct ss_sim *sim, const struct ss_sched_domain *sd, struct ss_task *p, int cpu,
		       int prev_cpu, int sd_flag)
{
	int new_cpu = cpu;

	if (!ss_cpumask_intersects(sd->span, p->cpus_ptr, sim->nr_words))
		return prev_cpu;
	/* we need the task's util for cpu_util_without(): sync it to its cfs_rq's last update (a fork's child
	 * needs none: it has no history) */
	if (!((unsigned)sd_flag & SD_BALANCE_FORK))
		ss___update_load_avg_blocked_se(sim->rq[p->cpu].cfs_avg.avg.last_update_time, &p->avg, p->se.weight);
	while (sd) {
		const struct ss_sched_group *group;
		const struct ss_cpu_topo *ct;
		unsigned weight;

		if (!(sd->flags & (unsigned)sd_flag)) {
			sd = sd->child;
			continue;
		}
		struct fig_why w = { .why = "" };

		group = find_idlest_group(sim, sd, p, (unsigned)cpu, &w);
		if (!group) {
			if (ss_tracing(sim))
				ss_ft_fork_level(sim, sd, w.why, -1, w.local_idle, w.idlest_idle, cpu);
			sd = sd->child;
			continue;
		}
		new_cpu = find_idlest_group_cpu(sim, group, p, cpu);
		if (ss_tracing(sim))
			ss_ft_fork_level(sim, sd, w.why, (int)ss_cpumask_first(group->span, sim->nr_cpus), w.local_idle,
					 w.idlest_idle, new_cpu);
		if (new_cpu == cpu) {
			/* now try balancing at a lower domain level of 'cpu' */
			sd = sd->child;
			continue;
		}
		/* now try balancing at a lower domain level of 'new_cpu' */
		cpu = new_cpu;
		weight = sd->span_weight;
		sd = NULL;
		ct = &sim->topo->cpu[cpu];
		for (unsigned l = 0; l < ct->nr_sd; l++) {
			const struct ss_sched_domain *tmp = &ct->sd[l];

			if (weight <= tmp->span_weight)
				break;
			if (tmp->flags & (unsigned)sd_flag)
				sd = tmp;
		}
	}
	return new_cpu;
}

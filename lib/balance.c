/*
 * Load balancing, statistics half (kernel v6.6 kernel/sched/fair.c):
 * trigger_load_balance(), rebalance_domains(), get_sd_balance_interval(),
 * should_we_balance(), the update_sd_lb_stats() sums that feed the policy's
 * update_lb_stats hook (SIS_UTIL's update_idle_cpu_scan()), and the NOHZ idle
 * balance that runs them on behalf of idle CPUs (nohz_balance_enter_idle,
 * nohz_balance_exit_idle, nohz_balancer_kick, kick_ilb, find_new_ilb,
 * _nohz_idle_balance, update_blocked_averages).
 *
 * Task migration by the balancer is not modelled yet: load_balance() here
 * computes the statistics and stops (docs/model.md, README limitations). As
 * no imbalance is ever acted on, balance_interval stays at its initial value
 * (sd->min_interval = span weight, ms).
 */
#include "ss_sched.h"

#define NOHZ_BALANCE_KICK 0x1
#define NOHZ_STATS_KICK 0x2

uint64_t ss_msecs_to_jiffies(const struct ss_sim *sim, uint64_t ms)
{
	/* msecs_to_jiffies(): round up */
	return (ms * sim->params.hz + 999) / 1000;
}

void ss_balance_init(struct ss_sim *sim)
{
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		const struct ss_cpu_topo *ct = &sim->topo->cpu[c];
		struct ss_rq *rq = &sim->rq[c];
		for (unsigned l = 0; l < ct->nr_sd; l++) {
			rq->sd_rt[l].balance_interval = ct->sd[l].min_interval;   /* sd_init(): balance_interval = sd_weight */
			rq->sd_rt[l].last_balance = 0;                          /* jiffies at boot */
		}
		rq->next_balance = 0;
		/* every CPU starts idle with its tick stopped */
		rq->nohz_tick_stopped = false;
	}
	for (unsigned l = 0; l < sim->topo->nr_llc_shared; l++)
		sim->llc_shared[l].nr_busy_cpus = 0;
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		if (sim->params.nohz)
			ss_nohz_balance_enter_idle(sim, &sim->rq[c]);
	}
	sim->nohz_next_balance = 0;
	sim->nohz_next_blocked = 0;
}

/* get_sd_balance_interval(), fair.c v6.6. */
uint64_t ss_get_sd_balance_interval(const struct ss_sim *sim, const struct ss_sched_domain *sd,
				    const struct ss_sd_rt *rt, bool cpu_busy)
{
	uint64_t interval = rt->balance_interval;
	uint64_t busy_factor = sim->params.busy_factor ? sim->params.busy_factor : sd->busy_factor;
	if (cpu_busy)
		interval *= busy_factor;
	interval = ss_msecs_to_jiffies(sim, interval);
	/* Reduce likelihood of busy balancing at higher domains racing with
	 * balancing at lower domains by preventing their balancing periods
	 * from being multiples of each other. */
	if (cpu_busy)
		interval -= 1;
	if (interval < 1)
		interval = 1;
	if (interval > sim->max_load_balance_interval)
		interval = sim->max_load_balance_interval;
	return interval;
}

/* is_core_idle(), fair.c v6.6. */
static bool is_core_idle(struct ss_sim *sim, unsigned cpu)
{
	const uint64_t *smt = sim->topo->cpu[cpu].smt_mask;
	for (unsigned c = ss_cpumask_first(smt, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(smt, sim->nr_cpus, c + 1)) {
		if (c == cpu)
			continue;
		if (!ss_idle_cpu(sim, c))
			return false;
	}
	return true;
}

/*
 * should_we_balance(), fair.c v6.6 (with "Consider the idle state of the
 * whole core for load balance", v6.6): in the local group's balance mask the
 * first idle CPU of an idle core balances, else the first idle SMT CPU, else
 * the group's balance CPU (its first CPU).
 */
bool ss_should_we_balance(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			  enum ss_cpu_idle_type idle)
{
	const struct ss_sched_group *sg = sd->groups;
	const uint64_t *mask = sg->balance_mask ? sg->balance_mask : sg->span;
	int idle_smt = -1;

	if (idle == CPU_NEWLY_IDLE)
		return true;   /* (v6.6 also requires no pending ttwu / nr_running; newidle is not modelled) */
	for (unsigned c = ss_cpumask_first(mask, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(mask, sim->nr_cpus, c + 1)) {
		if (!ss_idle_cpu(sim, c))
			continue;
		if (!(sd->flags & SD_SHARE_CPUCAPACITY) && !is_core_idle(sim, c)) {
			if (idle_smt == -1)
				idle_smt = (int)c;
			continue;
		}
		return c == dst_cpu;
	}
	if (idle_smt != -1)
		return (unsigned)idle_smt == dst_cpu;
	return ss_cpumask_first(mask, sim->nr_cpus) == dst_cpu;   /* group_balance_cpu() */
}

/*
 * load_balance(), statistics only: update_sd_lb_stats() sums cpu_util() and
 * capacity over the domain's groups (= its span) and calls the policy's hook
 * (update_idle_cpu_scan() at its end in v6.6). Returns continue_balancing.
 */
static bool load_balance_stats(struct ss_sim *sim, unsigned cpu, const struct ss_sched_domain *sd,
			       enum ss_cpu_idle_type idle)
{
	uint64_t sum_util = 0, total_capacity = 0;
	if (!ss_should_we_balance(sim, cpu, sd, idle))
		return false;
	if (sim->policy->update_lb_stats) {
		for (unsigned c = ss_cpumask_first(sd->span, sim->nr_cpus); c < sim->nr_cpus;
		     c = ss_cpumask_next(sd->span, sim->nr_cpus, c + 1)) {
			sum_util += ss_cpu_util_of(sim, c);
			total_capacity += sim->rq[c].capacity;
		}
		sim->policy->update_lb_stats(sim, cpu, sd, idle, sum_util, total_capacity);
	}
	if (sim->measuring)
		sim->res->lb_stats_passes++;
	return true;
}

/* rebalance_domains(), fair.c v6.6. */
static void rebalance_domains(struct ss_sim *sim, struct ss_rq *rq, enum ss_cpu_idle_type idle)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[rq->cpu];
	uint64_t jiffies = ss_jiffies(sim);
	uint64_t next_balance = jiffies + 60 * sim->params.hz;
	bool update_next_balance = false, continue_balancing = true;
	bool busy = idle != CPU_IDLE;   /* && !sched_idle_cpu(cpu): no SCHED_IDLE tasks */

	for (unsigned l = 0; l < ct->nr_sd; l++) {
		const struct ss_sched_domain *sd = &ct->sd[l];
		struct ss_sd_rt *rt = &rq->sd_rt[l];
		uint64_t interval;
		if (!continue_balancing)
			break;
		interval = ss_get_sd_balance_interval(sim, sd, rt, busy);
		if (jiffies >= rt->last_balance + interval) {
			continue_balancing = load_balance_stats(sim, rq->cpu, sd, idle);
			rt->last_balance = jiffies;
			interval = ss_get_sd_balance_interval(sim, sd, rt, busy);
		}
		if (next_balance > rt->last_balance + interval) {
			next_balance = rt->last_balance + interval;
			update_next_balance = true;
		}
	}
	if (update_next_balance)
		rq->next_balance = next_balance;
}

/* update_blocked_averages() for a CPU without task groups: decay its cfs_rq. */
static bool update_blocked_averages(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_pelt_cfs_input in = {
		.load_weight = rq->cfs.load_weight, .h_nr_running = rq->cfs.nr_running, .curr = rq->cfs.curr != NULL,
	};
	ss_update_rq_clock(sim, rq);
	ss_update_cfs_rq_load_avg(ss_rq_clock_pelt(&rq->pclk), &rq->cfs_avg, in);
	rq->has_blocked_load = rq->cfs_avg.avg.load_avg || rq->cfs_avg.avg.util_avg || rq->cfs_avg.avg.runnable_avg;
	return rq->has_blocked_load;
}

/* nohz_balance_enter_idle(), fair.c v6.6: the tick is being stopped. */
void ss_nohz_balance_enter_idle(struct ss_sim *sim, struct ss_rq *rq)
{
	rq->has_blocked_load = true;
	sim->nohz_has_blocked = true;
	if (rq->nohz_tick_stopped)
		return;
	rq->nohz_tick_stopped = true;
	ss_cpumask_set(sim->nohz_idle_cpus_mask, rq->cpu);
	sim->nohz_nr_cpus++;
	/* set_cpu_sd_state_idle() */
	if (sim->topo->cpu[rq->cpu].sd_llc >= 0 && sd_llc_shared(sim, rq->cpu)->nr_busy_cpus)
		sd_llc_shared(sim, rq->cpu)->nr_busy_cpus--;
}

/* nohz_balance_exit_idle(), fair.c v6.6: the first busy tick. */
void ss_nohz_balance_exit_idle(struct ss_sim *sim, struct ss_rq *rq)
{
	if (!rq->nohz_tick_stopped)
		return;
	rq->nohz_tick_stopped = false;
	ss_cpumask_clear_cpu(sim->nohz_idle_cpus_mask, rq->cpu);
	sim->nohz_nr_cpus--;
	/* set_cpu_sd_state_busy() */
	if (sim->topo->cpu[rq->cpu].sd_llc >= 0)
		sd_llc_shared(sim, rq->cpu)->nr_busy_cpus++;
}

/* find_new_ilb(), fair.c v6.6: first idle CPU of the nohz mask, not this one. */
static int find_new_ilb(struct ss_sim *sim, unsigned this_cpu)
{
	for (unsigned c = ss_cpumask_first(sim->nohz_idle_cpus_mask, sim->nr_cpus); c < sim->nr_cpus;
	     c = ss_cpumask_next(sim->nohz_idle_cpus_mask, sim->nr_cpus, c + 1)) {
		if (c == this_cpu)
			continue;
		if (ss_idle_cpu(sim, c))
			return (int)c;
	}
	return -1;
}

/* kick_ilb(), fair.c v6.6: IPI the chosen idle CPU. */
static void kick_ilb(struct ss_sim *sim, unsigned this_cpu, unsigned flags)
{
	int ilb;
	if (flags & NOHZ_BALANCE_KICK)
		sim->nohz_next_balance = ss_jiffies(sim) + 1;
	ilb = find_new_ilb(sim, this_cpu);
	if (ilb < 0)
		return;
	struct ss_rq *irq = &sim->rq[ilb];
	unsigned old = irq->ilb_pending;
	irq->ilb_pending |= (uint8_t)flags;
	if (old)
		return;   /* already kicked and not yet serviced */
	/* the IPI (none to a polling CPU) and the idle state's exit latency */
	ss_evq_schedule(&sim->evq, &irq->ev_ilb, sim->now + ss_cpu_wake_cost(sim, irq, true), SS_EV_ILB, (unsigned)ilb);
	if (sim->measuring)
		sim->res->nohz_kicks++;
}

/* nohz_balancer_kick(), fair.c v6.6 (symmetric capacity, no asym packing). */
static void nohz_balancer_kick(struct ss_sim *sim, struct ss_rq *rq)
{
	uint64_t now = ss_jiffies(sim);
	unsigned flags = 0;

	ss_nohz_balance_exit_idle(sim, rq);
	if (!sim->nohz_nr_cpus)
		return;
	/* None are in tickless mode and hence no need for NOHZ idle load balancing */
	if (sim->nohz_has_blocked && now > sim->nohz_next_blocked)
		flags = NOHZ_STATS_KICK;
	if (now < sim->nohz_next_balance)
		goto out;
	if (rq->cfs.nr_running >= 2) {
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
	/* (check_cpu_capacity: capacity_of == capacity_orig here, never reduced) */
	if (sim->topo->cpu[rq->cpu].sd_llc >= 0 && sd_llc_shared(sim, rq->cpu)->nr_busy_cpus > 1) {
		/* If there is another busy CPU in our LLC, kick the ILB. */
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
out:
	if (flags)
		kick_ilb(sim, rq->cpu, flags);
}

/* trigger_load_balance(), fair.c v6.6 — from scheduler_tick() of a busy CPU. */
void ss_trigger_load_balance(struct ss_sim *sim, struct ss_rq *rq)
{
	if (ss_jiffies(sim) >= rq->next_balance)
		rebalance_domains(sim, rq, rq->curr ? CPU_NOT_IDLE : CPU_IDLE);   /* run_rebalance_domains() */
	if (sim->params.nohz)
		nohz_balancer_kick(sim, rq);
}

/* _nohz_idle_balance(), fair.c v6.6, on the kicked idle CPU. */
void ss_nohz_idle_balance(struct ss_sim *sim, struct ss_rq *this_rq, unsigned flags)
{
	uint64_t now = ss_jiffies(sim);
	uint64_t next_balance = now + 60 * sim->params.hz;
	bool update_next_balance = false, has_blocked_load = false;
	struct ss_cpumask_wrap it;
	unsigned c;

	/* nohz_idle_balance(): only an idle CPU services the kick */
	if (!ss_idle_cpu(sim, this_rq->cpu))
		return;
	if (sim->measuring)
		sim->res->nohz_balances++;
	if (flags & NOHZ_STATS_KICK)
		sim->nohz_has_blocked = false;
	for (c = ss_cpumask_wrap_first(&it, sim->nohz_idle_cpus_mask, sim->nr_cpus, this_rq->cpu + 1); c < sim->nr_cpus;
	     c = ss_cpumask_wrap_next(&it, sim->nohz_idle_cpus_mask, sim->nr_cpus)) {
		struct ss_rq *rq = &sim->rq[c];
		if (!ss_idle_cpu(sim, c))
			continue;
		if (flags & NOHZ_STATS_KICK)
			has_blocked_load |= update_blocked_averages(sim, rq);
		if ((flags & NOHZ_BALANCE_KICK) && now >= rq->next_balance) {
			ss_update_rq_clock(sim, rq);
			rebalance_domains(sim, rq, CPU_IDLE);
		}
		if (next_balance > rq->next_balance) {
			next_balance = rq->next_balance;
			update_next_balance = true;
		}
	}
	if ((flags & NOHZ_BALANCE_KICK) && update_next_balance)
		sim->nohz_next_balance = next_balance;
	sim->nohz_next_blocked = now + ss_msecs_to_jiffies(sim, SS_LOAD_AVG_PERIOD);
	if (has_blocked_load)
		sim->nohz_has_blocked = true;
}

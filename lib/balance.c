/*
 * Load balancing (kernel v6.6 kernel/sched/fair.c): the periodic balance
 * (trigger_load_balance, rebalance_domains, get_sd_balance_interval), the
 * migration decision (load_balance, should_we_balance, find_busiest_group,
 * update_sd_lb_stats, update_sg_lb_stats, group_classify, group_has_capacity,
 * group_is_overloaded, update_sd_pick_busiest, sibling_imbalance,
 * calculate_imbalance, adjust_numa_imbalance, find_busiest_queue), the task
 * moves (detach_tasks, can_migrate_task, task_hot, attach_tasks), active
 * balance (need_active_balance, active_load_balance_cpu_stop), newidle
 * balance (newidle_balance, update_newidle_cost) and the NOHZ idle balance
 * (nohz_balance_enter_idle/exit_idle, nohz_balancer_kick, kick_ilb,
 * find_new_ilb, _nohz_idle_balance, nohz_newidle_balance,
 * update_blocked_averages).
 *
 * Not modelled: SD_ASYM_PACKING (no topology has ITMT priorities; so
 * group_asym_packing never occurs), NUMA balancing (fbq_type, 
 * migrate_degrades_locality), EAS (rd->overutilized), task groups
 * (task_h_load = load_avg), RT/DL/IRQ pressure (capacity_of = arch capacity,
 * so check_cpu_capacity() is always false), core scheduling cookies.
 * CACHE_HOT_BUDDY acts under v5.17 only (v6.6 EEVDF sets no buddies). The
 * SD_SERIALIZE lock never fails: a balance pass takes no simulated time
 * between its decisions. --kernel 5.17: the differences of v5.17's fair.c
 * are named variants (lb_version(): calculate_imbalance()'s has-spare case
 * without sibling_imbalance() and imb_numa_nr, find_busiest_group()'s
 * prefer-sibling test, no group_smt_balance).
 *
 * Everything here runs per balance pass, not per event; the pass allocates
 * nothing (masks and the detached-task list are preallocated per simulation).
 */
#include "ss_sched.h"

#include <string.h>

#define NOHZ_BALANCE_KICK 0x1
#define NOHZ_STATS_KICK 0x2
#define NOHZ_NEWILB_KICK 0x4
#define NOHZ_NEXT_KICK 0x8
#define NOHZ_KICK_MASK (NOHZ_BALANCE_KICK | NOHZ_STATS_KICK | NOHZ_NEXT_KICK)

/* fair.c v6.6 */
#define SCHED_NR_MIGRATE_BREAK 32u   /* 8 on PREEMPT_RT */
#define MAX_PINNED_INTERVAL 512u     /* ms */
#define NUMA_IMBALANCE_MIN 2

#define LBF_ALL_PINNED 0x01
#define LBF_NEED_BREAK 0x02
#define LBF_DST_PINNED 0x04
#define LBF_SOME_PINNED 0x08
#define LBF_ACTIVE_LB 0x10

#define SG_OVERLOAD 0x1

struct lb_env;
struct sd_lb_stats;
/* The balancer's version differences (docs/model.md "By kernel version"), per --kernel. */
struct lb_version {
	void (*calculate_imbalance_spare)(struct lb_env *env, struct sd_lb_stats *sds);
	bool (*prefer_sibling_excess)(struct lb_env *env, struct sd_lb_stats *sds);
	bool smt_balance;   /* group_smt_balance exists (fee1759e4f04, merged for v6.6) */
};
static const struct lb_version *lb_version(const struct ss_sim *sim);

/* fits_capacity() / capacity_greater(), fair.c v6.6 */
#define fits_capacity(cap, max) ((cap) * 1280 < (max) * 1024)
#define capacity_greater(cap1, cap2) ((cap1) * 1024 > (cap2) * 1078)

enum group_type {
	group_has_spare = 0,
	group_fully_busy,
	group_misfit_task,
	group_smt_balance,
	group_asym_packing,
	group_imbalanced,
	group_overloaded,
};

enum migration_type { migrate_load = 0, migrate_util, migrate_task, migrate_misfit };

struct sg_lb_stats {
	unsigned long avg_load;       /* avg load across the CPUs of the group */
	unsigned long group_load;     /* total load over the CPUs of the group */
	unsigned long group_capacity;
	unsigned long group_util;     /* total utilization over the CPUs of the group */
	unsigned long group_runnable; /* total runnable time over the CPUs of the group */
	unsigned sum_nr_running;      /* nr of all tasks running in the group */
	unsigned sum_h_nr_running;    /* nr of CFS tasks running in the group */
	unsigned idle_cpus;
	unsigned group_weight;
	enum group_type group_type;
	unsigned group_asym_packing;
	unsigned group_smt_balance;
	unsigned long group_misfit_task_load;
	unsigned long max_capacity, min_capacity;  /* sgc->max_capacity / min_capacity */
};

struct sd_lb_stats {
	const struct ss_sched_group *busiest, *local;
	unsigned long total_load, total_capacity, avg_load;
	unsigned prefer_sibling;
	struct sg_lb_stats busiest_stat, local_stat;
};

struct lb_env {
	struct ss_sim *sim;
	const struct ss_sched_domain *sd;
	struct ss_sd_rt *sdrt;        /* the mutable half of env->sd (of the balancing CPU) */
	struct ss_rq *src_rq;
	unsigned src_cpu;
	unsigned dst_cpu;
	struct ss_rq *dst_rq;
	const uint64_t *dst_grpmask;
	int new_dst_cpu;
	enum ss_cpu_idle_type idle;
	long imbalance;
	uint64_t *cpus;
	unsigned flags;
	unsigned loop, loop_break, loop_max;
	enum migration_type migration_type;
	unsigned cause;               /* enum ss_mig_cause */
	struct ss_task **tasks;       /* env->tasks (SCHED_NR_MIGRATE_BREAK + 1 slots, load_balance()'s), newest first
	                                 when attached; only [0, nr_tasks) is ever read, so the array is not zeroed */
	unsigned nr_tasks;
};

/* ------------------------------------------------------------ helpers */

static inline struct ss_lb_kind_stats *lb_kind(struct ss_sim *sim, unsigned cause)
{
	return &sim->res->lb[cause == SS_MIG_NEWIDLE ? 1 : cause == SS_MIG_NOHZ ? 2 : 0];
}

uint64_t ss_msecs_to_jiffies(const struct ss_sim *sim, uint64_t ms)
{
	/* msecs_to_jiffies(): round up */
	return (ms * sim->params.hz + 999) / 1000;
}

/* Iterate the bits of a ∩ b (word operations). */
#define for_each_cpu_and(cpu, a, b, nw)                                                                  \
	for (unsigned _w = 0; _w < (nw); _w++)                                                           \
		for (uint64_t _bits = (a)[_w] & (b)[_w]; _bits && ((cpu) = _w * 64u + (unsigned)__builtin_ctzll(_bits), 1); \
		     _bits &= _bits - 1)

static bool mask_subset(const uint64_t *a, const uint64_t *b, unsigned nw)
{
	for (unsigned w = 0; w < nw; w++)
		if (a[w] & ~b[w])
			return false;
	return true;
}

/* The cost of reading cpu's rq from `from`, by distance (the cost.probe_* parameters). */
static uint64_t read_cost(const struct ss_sim *sim, unsigned from, unsigned cpu)
{
	return ss_c2c_ns(sim, from, cpu);
}

void ss_balance_init(struct ss_sim *sim)
{
	const struct ss_topology *t = sim->topo;
	sim->lb_cpus = g_new0(uint64_t, sim->nr_words);
	sim->lb_swb = g_new0(uint64_t, sim->nr_words);
	sim->nr_level_keys = SS_SD_NUMA + t->nr_numa_levels;
	if (sim->nr_level_keys > SS_MAX_LEVEL_KEYS)
		sim->nr_level_keys = SS_MAX_LEVEL_KEYS;
	sim->sgc_imbalance = g_new0(uint8_t, (size_t)sim->nr_level_keys * sim->nr_cpus);
	sim->rd_max_cpu_capacity = 0;
	sim->asym_cpucapacity = false;
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		const struct ss_cpu_topo *ct = &t->cpu[c];
		struct ss_rq *rq = &sim->rq[c];
		/* rd->max_cpu_capacity: over the root domain's (active) CPUs */
		if (!ct->offline && ct->capacity > sim->rd_max_cpu_capacity)
			sim->rd_max_cpu_capacity = ct->capacity;
		for (unsigned l = 0; l < ct->nr_sd; l++) {
			const struct ss_sched_domain *sd = &ct->sd[l];
			struct ss_sd_rt *rt = &rq->sd_rt[l];
			uint64_t reads = 0;
			unsigned i;
			rt->balance_interval = sd->min_interval;   /* sd_init(): balance_interval = sd_weight */
			rt->last_balance = 0;                      /* jiffies at boot */
			rt->max_newidle_lb_cost = 0;
			rt->last_decay_max_lb_cost = 0;
			rt->nr_balance_failed = 0;
			if (sd->flags & SD_ASYM_CPUCAPACITY)
				sim->asym_cpucapacity = true;
			for_each_cpu_and(i, sd->span, sd->span, sim->nr_words)
				reads += read_cost(sim, c, i);
			rt->lb_pass_cost = sim->params.lb_pass_ns + reads;
		}
		rq->next_balance = 0;
		rq->nohz_tick_stopped = false;
		rq->cfs_tasks_head = rq->cfs_tasks_tail = -1;
	}
	for (unsigned l = 0; l < t->nr_llc_shared; l++)
		sim->llc_shared[l].nr_busy_cpus = 0;
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		/* every online CPU starts idle with its tick stopped; an offline CPU is never
		 * in nohz.idle_cpus_mask (nohz_balance_enter_idle() needs an active CPU) */
		if (sim->params.nohz && !t->cpu[c].offline)
			ss_nohz_balance_enter_idle(sim, &sim->rq[c]);
	}
	sim->nohz_next_balance = 0;
	sim->nohz_next_blocked = 0;
	sim->rd_overload = false;
}

void ss_balance_free(struct ss_sim *sim)
{
	g_free(sim->lb_cpus);
	g_free(sim->lb_swb);
	g_free(sim->sgc_imbalance);
}

/* sgc->imbalance of group sg of domain sd: groups built from the same span share one sgc. */
static uint8_t *sgc_imbalance(struct ss_sim *sim, const struct ss_sched_domain *sd, const struct ss_sched_group *sg)
{
	unsigned key = ss_sd_level_key(sd);
	if (key >= sim->nr_level_keys)
		key = sim->nr_level_keys - 1;
	return &sim->sgc_imbalance[(size_t)key * sim->nr_cpus + sg->id];
}

static struct ss_sd_rt *sd_rt_of(struct ss_sim *sim, unsigned cpu, const struct ss_sched_domain *sd)
{
	return &sim->rq[cpu].sd_rt[sd->level_index];
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
	unsigned c;
	for_each_cpu_and(c, smt, smt, sim->nr_words) {
		if (c == cpu)
			continue;
		if (!ss_idle_cpu(sim, c))
			return false;
	}
	return true;
}

/*
 * should_we_balance(), fair.c v6.6 (with "Consider the idle state of the
 * whole core for load balance" and its fix "Fix the decision for load
 * balance", both v6.6-rc): in the local group's balance mask the first idle
 * CPU of an idle core balances, else the first idle SMT CPU, else the
 * group's balance CPU.
 */
static bool should_we_balance(struct lb_env *env)
{
	struct ss_sim *sim = env->sim;
	const struct ss_sched_group *sg = env->sd->groups;
	const uint64_t *mask = sg->balance_mask ? sg->balance_mask : sg->span;
	uint64_t *swb = sim->lb_swb;
	int idle_smt = -1;
	unsigned cpu;

	if (!ss_cpumask_test(env->cpus, env->dst_cpu))
		return false;
	/* In the newly idle case every CPU may balance, unless it already has
	 * tasks or a wakeup pending. */
	if (env->idle == CPU_NEWLY_IDLE)
		return !(rq_nr_running(env->dst_rq) > 0 || env->dst_rq->ttwu_pending);

	ss_cpumask_copy(swb, mask, sim->nr_words);
	for (unsigned w = 0; w < sim->nr_words; w++) {
		for (;;) {
			uint64_t bits = swb[w] & env->cpus[w];
			if (!bits)
				break;
			cpu = w * 64u + (unsigned)__builtin_ctzll(bits);
			swb[w] &= ~(UINT64_C(1) << (cpu % 64));
			if (!ss_idle_cpu(sim, cpu))
				continue;
			/* Don't balance to an idle SMT CPU of a busy core when balancing
			 * cores; remember the first one, skip its siblings. */
			if (!(env->sd->flags & SD_SHARE_CPUCAPACITY) && !is_core_idle(sim, cpu)) {
				if (idle_smt == -1)
					idle_smt = (int)cpu;
				for (unsigned k = 0; k < sim->nr_words; k++)
					swb[k] &= ~sim->topo->cpu[cpu].smt_mask[k];
				continue;
			}
			/* Are we the first idle CPU? */
			return cpu == env->dst_cpu;
		}
	}
	if (idle_smt != -1)
		return (unsigned)idle_smt == env->dst_cpu;
	/* Are we the first CPU of this group? */
	return sg->balance_cpu == env->dst_cpu;
}

bool ss_should_we_balance(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			  enum ss_cpu_idle_type idle)
{
	struct lb_env env = { .sim = sim, .sd = sd, .dst_cpu = dst_cpu, .dst_rq = &sim->rq[dst_cpu], .idle = idle,
			      .cpus = sim->lb_cpus };
	ss_cpumask_copy(env.cpus, sd->span, sim->nr_words);
	return should_we_balance(&env);
}

/* ------------------------------------------------------------ group statistics */

/* cpu_util(cpu, NULL, -1, 1) = cpu_util_cfs_boost(), fair.c v6.6. */
static unsigned long cpu_util_cfs_boost(struct ss_sim *sim, unsigned cpu)
{
	const struct ss_cfs_rq_avg *a = &sim->rq[cpu].cfs_avg;
	unsigned long util = (unsigned long)a->avg.util_avg, cap = sim->topo->cpu[cpu].capacity;
	if (a->avg.runnable_avg > util)
		util = (unsigned long)a->avg.runnable_avg;
	if (ss_feat(sim->features, SS_FEAT_UTIL_EST) && a->avg.util_est.enqueued > util)
		util = a->avg.util_est.enqueued;
	return util < cap ? util : cap;
}

/* task_fits_cpu() without uclamp: util_fits_cpu() = fits_capacity(task_util_est, capacity_of). */
static bool task_fits_cpu(struct ss_sim *sim, struct ss_task *p, unsigned cpu)
{
	unsigned long util = ss_task_util_est(&p->avg);
	if (p->avg.util_avg > util)
		util = (unsigned long)p->avg.util_avg;   /* task_util_est() = max(task_util, _task_util_est) */
	return fits_capacity(util, (unsigned long)sim->rq[cpu].capacity);
}

/* update_misfit_status(), fair.c v6.6. */
void ss_update_misfit_status(struct ss_sim *sim, struct ss_task *p, struct ss_rq *rq)
{
	if (!sim->asym_cpucapacity)
		return;
	if (!p || p->nr_cpus_allowed == 1 || task_fits_cpu(sim, p, rq->cpu)) {
		rq->misfit_task_load = 0;
		return;
	}
	/* Make sure that misfit_task_load will not be null even if task_h_load() returns 0. */
	rq->misfit_task_load = p->avg.load_avg > 1 ? p->avg.load_avg : 1;
}

/* group_has_capacity(), fair.c v6.6. */
static bool group_has_capacity(unsigned imbalance_pct, const struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running < sgs->group_weight)
		return true;
	if ((uint64_t)sgs->group_capacity * imbalance_pct < (uint64_t)sgs->group_runnable * 100)
		return false;
	if ((uint64_t)sgs->group_capacity * 100 > (uint64_t)sgs->group_util * imbalance_pct)
		return true;
	return false;
}

/* group_is_overloaded(), fair.c v6.6. */
static bool group_is_overloaded(unsigned imbalance_pct, const struct sg_lb_stats *sgs)
{
	if (sgs->sum_nr_running <= sgs->group_weight)
		return false;
	if ((uint64_t)sgs->group_capacity * 100 < (uint64_t)sgs->group_util * imbalance_pct)
		return true;
	if ((uint64_t)sgs->group_capacity * imbalance_pct < (uint64_t)sgs->group_runnable * 100)
		return true;
	return false;
}

/* group_classify(), fair.c v6.6. */
static inline enum group_type group_classify(unsigned imbalance_pct, bool sg_imbalanced, const struct sg_lb_stats *sgs)
{
	if (group_is_overloaded(imbalance_pct, sgs))
		return group_overloaded;
	if (sg_imbalanced)
		return group_imbalanced;
	if (sgs->group_asym_packing)
		return group_asym_packing;
	if (sgs->group_smt_balance)
		return group_smt_balance;
	if (sgs->group_misfit_task_load)
		return group_misfit_task;
	if (!group_has_capacity(imbalance_pct, sgs))
		return group_fully_busy;
	return group_has_spare;
}

/* smt_vs_nonsmt_groups(), fair.c v6.6. */
static bool smt_vs_nonsmt_groups(const struct ss_sched_group *sg1, const struct ss_sched_group *sg2)
{
	if (!sg1 || !sg2)
		return false;
	return (sg1->flags & SD_SHARE_CPUCAPACITY) != (sg2->flags & SD_SHARE_CPUCAPACITY);
}

/* smt_balance(), fair.c v6.6 (before v6.7's "Don't force smt balancing when CPU has spare capacity"). */
static bool smt_balance(const struct lb_env *env, const struct sg_lb_stats *sgs, const struct ss_sched_group *group)
{
	if (env->idle == CPU_NOT_IDLE)
		return false;
	/* For an SMT source group it is better to move a task to a CPU that
	 * doesn't have multiple tasks sharing its CPU capacity. */
	if ((group->flags & SD_SHARE_CPUCAPACITY) && sgs->sum_h_nr_running > 1)
		return true;
	return false;
}

/*
 * The per-CPU sums of update_sg_lb_stats() over span ∩ cpus, in locals the
 * caller stores once. Inlined with asym_misfit (the misfit check: an
 * asymmetric domain, not the local group) and asym (the capacity bounds)
 * constant, so each caller's loop holds only what it reads. A CPU's
 * capacity_orig (arch_scale_cpu_capacity(), cpu_util()'s clamp) is
 * rq->capacity: both are the topology's capacity, set once at start
 * (sim_init) and never changed (no RT/IRQ pressure is modelled).
 */
struct sg_sums {
	unsigned long load, util, runnable, misfit, max_capacity, min_capacity;
	unsigned sum_h_nr_running, sum_nr_running, idle_cpus;
	int status;
};

static inline __attribute__((always_inline)) void sg_lb_sums(const struct ss_sim *sim, const uint64_t *span,
							     const uint64_t *cpus, bool asym_misfit, bool asym,
							     struct sg_sums *out)
{
	const struct ss_rq *rqs = sim->rq;
	const bool util_est = ss_feat(sim->features, SS_FEAT_UTIL_EST);
	const unsigned nw = sim->nr_words;
	unsigned long group_load = 0, group_util = 0, group_runnable = 0, misfit = 0;
	unsigned long max_capacity = 0, min_capacity = ~0ul;
	unsigned sum_h_nr_running = 0, sum_nr_running = 0, idle_cpus = 0;
	int status = 0;

	for (unsigned w = 0; w < nw; w++) {
		for (uint64_t bits = span[w] & cpus[w]; bits; bits &= bits - 1) {
			const struct ss_rq *rq = &rqs[w * 64u + (unsigned)__builtin_ctzll(bits)];
			unsigned long util = (unsigned long)rq->cfs_avg.avg.util_avg, cap = rq->capacity;
			unsigned h = rq->cfs.nr_running, nr_running = h + (rq->stopper_running ? 1u : 0u);

			group_load += (unsigned long)rq->cfs_avg.avg.load_avg;   /* cpu_load() */
			/* cpu_util_cfs(): max(util_avg, util_est.enqueued) clamped to capacity_orig */
			if (util_est && rq->cfs_avg.avg.util_est.enqueued > util)
				util = rq->cfs_avg.avg.util_est.enqueued;
			group_util += util < cap ? util : cap;
			group_runnable += (unsigned long)rq->cfs_avg.avg.runnable_avg;   /* cpu_runnable() */
			sum_h_nr_running += h;
			sum_nr_running += nr_running;
			if (nr_running > 1)
				status |= SG_OVERLOAD;
			/* (sgc capacity bounds: update_group_capacity() over the span; a
			 * domain without SD_ASYM_CPUCAPACITY spans one capacity) */
			if (asym) {
				if (cap > max_capacity)
					max_capacity = cap;
				if (cap < min_capacity)
					min_capacity = cap;
			} else {
				max_capacity = min_capacity = cap;
			}
			/* No need to call idle_cpu() if nr_running is not 0 */
			if (!nr_running && !rq->curr && !rq->in_newidle && !ss_rq_claimed(sim, rq)) {   /* idle_cpu() */
				idle_cpus++;
				/* Idle cpu can't have misfit task */
				continue;
			}
			/* Check for a misfit task on the cpu (asymmetric domains, not the local group) */
			if (asym_misfit && misfit < rq->misfit_task_load) {
				misfit = rq->misfit_task_load;
				status |= SG_OVERLOAD;
			}
			/* (else: sched_reduced_capacity() is false without RT/IRQ pressure) */
		}
	}
	out->load = group_load;
	out->util = group_util;
	out->runnable = group_runnable;
	out->misfit = misfit;
	out->max_capacity = max_capacity;
	out->min_capacity = min_capacity;
	out->sum_h_nr_running = sum_h_nr_running;
	out->sum_nr_running = sum_nr_running;
	out->idle_cpus = idle_cpus;
	out->status = status;
}

/*
 * update_sg_lb_stats(), fair.c v6.6 (no ASYM_PACKING, no reduced capacity,
 * no NUMA balancing). imbalanced is the group's sgc->imbalance.
 */
static void update_sg_lb_stats(struct lb_env *env, bool local_group, const struct ss_sched_group *group,
			       struct sg_lb_stats *sgs, int *sg_status, bool imbalanced)
{
	struct ss_sim *sim = env->sim;
	struct sg_sums t;

	if (__builtin_expect((env->sd->flags & SD_ASYM_CPUCAPACITY) != 0, 0)) {
		if (local_group)
			sg_lb_sums(sim, group->span, env->cpus, false, true, &t);
		else
			sg_lb_sums(sim, group->span, env->cpus, true, true, &t);
	} else {
		sg_lb_sums(sim, group->span, env->cpus, false, false, &t);
	}
	*sg_status |= t.status;
	sgs->group_load = t.load;
	sgs->group_util = t.util;
	sgs->group_runnable = t.runnable;
	sgs->sum_h_nr_running = t.sum_h_nr_running;
	sgs->sum_nr_running = t.sum_nr_running;
	sgs->max_capacity = t.max_capacity;
	sgs->min_capacity = t.min_capacity;
	sgs->idle_cpus = t.idle_cpus;
	sgs->group_misfit_task_load = t.misfit;
	sgs->group_capacity = group->capacity;
	sgs->group_weight = group->weight;
	sgs->avg_load = 0;   /* every field is set here (the kernel's memset(sgs, 0, ...)) */
	sgs->group_asym_packing = 0;
	sgs->group_smt_balance = 0;
	/* Check for loaded SMT group to be balanced to dst CPU */
	if (!local_group && lb_version(sim)->smt_balance && smt_balance(env, sgs, group))
		sgs->group_smt_balance = 1;
	sgs->group_type = group_classify(env->sd->imbalance_pct, imbalanced, sgs);
	/* Computing avg_load makes sense only when group is overloaded */
	if (sgs->group_type == group_overloaded)
		sgs->avg_load = (sgs->group_load * SS_SCHED_CAPACITY_SCALE) / sgs->group_capacity;
}

/* update_sd_pick_busiest(), fair.c v6.6 (no ASYM_PACKING). */
static bool update_sd_pick_busiest(struct lb_env *env, const struct sd_lb_stats *sds, const struct ss_sched_group *sg,
				   const struct sg_lb_stats *sgs)
{
	const struct sg_lb_stats *busiest = &sds->busiest_stat;
	unsigned long dst_cap = env->sim->rq[env->dst_cpu].capacity;

	/* Make sure that there is at least one task to pull */
	if (!sgs->sum_h_nr_running)
		return false;
	/* Don't try to pull misfit tasks we can't help. */
	if ((env->sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_type == group_misfit_task &&
	    (!capacity_greater(dst_cap, sgs->max_capacity) || sds->local_stat.group_type != group_has_spare))
		return false;
	if (sgs->group_type > busiest->group_type)
		return true;
	if (sgs->group_type < busiest->group_type)
		return false;

	switch (sgs->group_type) {
	case group_overloaded:
		/* Select the overloaded group with highest avg_load. */
		if (sgs->avg_load <= busiest->avg_load)
			return false;
		break;
	case group_imbalanced:
		/* Select the 1st imbalanced group */
		return false;
	case group_asym_packing:
		return false;   /* not modelled: never classified */
	case group_misfit_task:
		/* If we have more than one misfit sg go with the biggest misfit. */
		if (sgs->group_misfit_task_load < busiest->group_misfit_task_load)
			return false;
		break;
	case group_smt_balance:
		/* Check if we have spare CPUs on either SMT group to choose
		 * has spare or fully busy handling. */
		if (sgs->idle_cpus != 0 || busiest->idle_cpus != 0)
			goto has_spare;
		/* fallthrough */
	case group_fully_busy:
		/* Select the fully busy group with highest avg_load (not computed,
		 * always 0: so the 1st one), except if @sg is composed of SMT
		 * siblings. */
		if (sgs->avg_load < busiest->avg_load)
			return false;
		if (sgs->avg_load == busiest->avg_load) {
			/* SMT sched groups need more help than non-SMT groups. */
			if (sds->busiest->flags & SD_SHARE_CPUCAPACITY)
				return false;
		}
		break;
	case group_has_spare:
		/* Do not pick sg with SMT CPUs over sg with pure CPUs, as we do not
		 * want to pull task off SMT core with one task and make the core idle. */
		if (smt_vs_nonsmt_groups(sds->busiest, sg)) {
			if ((sg->flags & SD_SHARE_CPUCAPACITY) && sgs->sum_h_nr_running <= 1)
				return false;
			else
				return true;
		}
has_spare:
		/* Select not overloaded group with lowest number of idle cpus and
		 * highest number of running tasks. */
		if (sgs->idle_cpus > busiest->idle_cpus)
			return false;
		else if (sgs->idle_cpus == busiest->idle_cpus && sgs->sum_nr_running <= busiest->sum_nr_running)
			return false;
		break;
	}
	/* Candidate sg has no more than one task per CPU and has higher per-CPU
	 * capacity: migrating tasks to less capable CPUs may harm throughput. */
	if ((env->sd->flags & SD_ASYM_CPUCAPACITY) && sgs->group_type <= group_fully_busy &&
	    capacity_greater(sgs->min_capacity, dst_cap))
		return false;
	return true;
}

/* update_sd_lb_stats(), fair.c v6.6. */
static void update_sd_lb_stats(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct ss_sim *sim = env->sim;
	const struct ss_sched_group *sg = env->sd->groups;
	struct sg_lb_stats *local = &sds->local_stat, tmp_sgs;
	unsigned long sum_util = 0;
	int sg_status = 0;
	/* sgc_imbalance() of this domain's groups: one row per level */
	const uint8_t *imb = sgc_imbalance(sim, env->sd, sg) - sg->id;

	do {
		struct sg_lb_stats *sgs = &tmp_sgs;
		bool local_group = ss_cpumask_test(sg->span, env->dst_cpu);
		if (local_group) {
			sds->local = sg;
			sgs = local;
			/* (update_group_capacity(): capacities are static here) */
		}
		update_sg_lb_stats(env, local_group, sg, sgs, &sg_status, imb[sg->id] != 0);
		if (!local_group && update_sd_pick_busiest(env, sds, sg, sgs)) {
			sds->busiest = sg;
			sds->busiest_stat = *sgs;
		}
		/* Now, start updating sd_lb_stats */
		sds->total_load += sgs->group_load;
		sds->total_capacity += sgs->group_capacity;
		sum_util += sgs->group_util;
		sg = sg->next;
	} while (sg != env->sd->groups);

	/* The child domain of the busiest group prefers tasks go to a child's
	 * sibling domains first (a group's flags are its child domain's). */
	if (sds->busiest)
		sds->prefer_sibling = !!(sds->busiest->flags & SD_PREFER_SIBLING);
	if (!env->sd->parent) {
		/* update overload indicator if we are at root domain */
		sim->rd_overload = (sg_status & SG_OVERLOAD) != 0;
	}
	/* update_idle_cpu_scan(env, sum_util): the policy's hook (SIS_UTIL's writer) */
	if (sim->policy->update_lb_stats)
		sim->policy->update_lb_stats(sim, env->dst_cpu, env->sd, env->idle, sum_util, sds->total_capacity);
	/*
	 * sis.nr_idle_scan_written_ns: the passes where update_idle_cpu_scan()
	 * writes the LLC's nr_idle_scan under SIS_UTIL (and SIS_UTIL_LINEAR),
	 * whatever the policy: not newidle, at the LLC's own domain.
	 */
	if (__builtin_expect(sim->llc_scan_unwritten != 0, 0) && env->idle != CPU_NEWLY_IDLE) {
		const struct ss_cpu_topo *ct = &sim->topo->cpu[env->dst_cpu];
		if (ct->sd_llc >= 0 && env->sd->span_weight == ct->llc_size && sim->llc_scan_written[ct->llc_index] == 1) {
			sim->llc_scan_written[ct->llc_index] = 2;
			if (!--sim->llc_scan_unwritten) {
				sim->res->nr_idle_scan_written = true;
				sim->res->nr_idle_scan_written_ns = sim->now;
			}
		}
	}
}

/* sibling_imbalance(), fair.c v6.6. */
static long sibling_imbalance(struct lb_env *env, const struct sd_lb_stats *sds, const struct sg_lb_stats *busiest,
			      const struct sg_lb_stats *local)
{
	long ncores_busiest, ncores_local, imbalance;

	if (env->idle == CPU_NOT_IDLE || !busiest->sum_nr_running)
		return 0;
	ncores_busiest = sds->busiest->cores;   /* sg->cores, counted at build (topology.c publish_group) */
	ncores_local = sds->local->cores;
	if (ncores_busiest == ncores_local) {
		imbalance = (long)busiest->sum_nr_running - (long)local->sum_nr_running;   /* lsub_positive */
		return imbalance > 0 ? imbalance : 0;
	}
	/* Balance such that nr_running/ncores ratio are same on both groups */
	imbalance = ncores_local * (long)busiest->sum_nr_running;
	imbalance -= ncores_busiest * (long)local->sum_nr_running;
	if (imbalance < 0)
		imbalance = 0;
	/* Normalize imbalance and do rounding on normalization */
	imbalance = 2 * imbalance + ncores_local + ncores_busiest;
	imbalance /= ncores_local + ncores_busiest;
	/* Take advantage of resource in an empty sched group */
	if (imbalance <= 1 && local->sum_nr_running == 0 && busiest->sum_nr_running > 1)
		imbalance = 2;
	return imbalance;
}

/* adjust_numa_imbalance(), fair.c v6.6. */
static long adjust_numa_imbalance(long imbalance, long dst_running, long imb_numa_nr)
{
	if (dst_running > imb_numa_nr)   /* !allow_numa_imbalance() */
		return imbalance;
	/* Allow a small imbalance based on a simple pair of communicating tasks
	 * that remain local when the destination is lightly loaded. */
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

/*
 * calculate_imbalance(), its group_has_spare case when busiest is not
 * overloaded outside the LLC, v6.6: sibling_imbalance() (7ff1693236f5, v6.6) or the
 * difference of idle CPUs, adjust_numa_imbalance() against imb_numa_nr
 * (v5.18) with the local group's tasks + 1, then halved.
 */
static void calculate_imbalance_spare_v6_6(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;

	if (busiest->group_weight == 1 || sds->prefer_sibling) {
		/* When prefer sibling, evenly spread running tasks on groups. */
		env->migration_type = migrate_task;
		env->imbalance = sibling_imbalance(env, sds, busiest, local);
	} else {
		/* If there is no overload, we just want to even the number of idle cpus. */
		env->migration_type = migrate_task;
		env->imbalance = (long)local->idle_cpus - (long)busiest->idle_cpus;
		if (env->imbalance < 0)
			env->imbalance = 0;
	}
	/* Consider allowing a small imbalance between NUMA groups */
	if (env->sd->flags & SD_NUMA)
		env->imbalance = adjust_numa_imbalance(env->imbalance, (long)local->sum_nr_running + 1,
						       (long)env->sd->imb_numa_nr);
	/* Number of tasks to move to restore balance */
	env->imbalance >>= 1;
}

/*
 * allow_numa_imbalance() / adjust_numa_imbalance(), fair.c v5.17: a NUMA
 * imbalance of up to NUMA_IMBALANCE_MIN tasks is left alone while the
 * destination runs fewer tasks than a quarter of its CPUs (dst_weight >> 2;
 * v5.18's imb_numa_nr replaced this rule).
 */
static long adjust_numa_imbalance_v5_17(long imbalance, long dst_running, long dst_weight)
{
	if (!(dst_running < (dst_weight >> 2)))   /* !allow_numa_imbalance() */
		return imbalance;
	if (imbalance <= NUMA_IMBALANCE_MIN)
		return 0;
	return imbalance;
}

/*
 * The same case, v5.17: halve first — (busiest - local) tasks when prefer
 * sibling, else (local - busiest) idle CPUs, computed in unsigned int as
 * the kernel does (sg_lb_stats.idle_cpus is unsigned: a local group with
 * fewer idle CPUs wraps to a large imbalance) — then adjust_numa_imbalance()
 * with the busiest group's tasks and weight.
 */
static void calculate_imbalance_spare_v5_17(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;

	env->migration_type = migrate_task;
	if (busiest->group_weight == 1 || sds->prefer_sibling) {
		unsigned nr_diff = busiest->sum_nr_running;
		nr_diff = nr_diff > local->sum_nr_running ? nr_diff - local->sum_nr_running : 0;   /* lsub_positive */
		env->imbalance = (long)(nr_diff >> 1);
	} else {
		long imb = (long)((unsigned)(local->idle_cpus - busiest->idle_cpus) >> 1);
		env->imbalance = imb > 0 ? imb : 0;
	}
	if (env->sd->flags & SD_NUMA)
		env->imbalance = adjust_numa_imbalance_v5_17(env->imbalance, (long)busiest->sum_nr_running,
							     (long)busiest->group_weight);
}

/*
 * find_busiest_group()'s "try to move all excess tasks to a sibling domain
 * of the busiest group's child domain": v6.6 by sibling_imbalance() (per
 * core), v5.17 by task counts (busiest runs more than local + 1).
 */
static bool prefer_sibling_excess_v6_6(struct lb_env *env, struct sd_lb_stats *sds)
{
	return sibling_imbalance(env, sds, &sds->busiest_stat, &sds->local_stat) > 1;
}

static bool prefer_sibling_excess_v5_17(struct lb_env *env, struct sd_lb_stats *sds)
{
	(void)env;
	return sds->busiest_stat.sum_nr_running > sds->local_stat.sum_nr_running + 1;
}


static const struct lb_version lb_v6_6 = { calculate_imbalance_spare_v6_6, prefer_sibling_excess_v6_6, true };
static const struct lb_version lb_v5_17 = { calculate_imbalance_spare_v5_17, prefer_sibling_excess_v5_17, false };

static const struct lb_version *lb_version(const struct ss_sim *sim)
{
	return sim->kernel == SS_KERNEL_5_17 ? &lb_v5_17 : &lb_v6_6;
}

/* calculate_imbalance(), fair.c v6.6 (the has-spare case per version: lb_version()). */
static void calculate_imbalance(struct lb_env *env, struct sd_lb_stats *sds)
{
	struct sg_lb_stats *local = &sds->local_stat, *busiest = &sds->busiest_stat;

	if (busiest->group_type == group_misfit_task) {
		if (env->sd->flags & SD_ASYM_CPUCAPACITY) {
			/* Set imbalance to allow misfit tasks to be balanced. */
			env->migration_type = migrate_misfit;
			env->imbalance = 1;
		} else {
			/* Set load imbalance to allow moving task from cpu with reduced capacity. */
			env->migration_type = migrate_load;
			env->imbalance = (long)busiest->group_misfit_task_load;
		}
		return;
	}
	if (busiest->group_type == group_asym_packing) {
		env->migration_type = migrate_task;
		env->imbalance = busiest->sum_h_nr_running;
		return;
	}
	if (busiest->group_type == group_smt_balance) {
		/* Reduce number of tasks sharing CPU capacity */
		env->migration_type = migrate_task;
		env->imbalance = 1;
		return;
	}
	if (busiest->group_type == group_imbalanced) {
		/* In the group_imb case we cannot rely on group-wide averages to
		 * ensure CPU-load equilibrium, try to move any task to fix the
		 * imbalance. The next load balance will take care of balancing
		 * back the system. */
		env->migration_type = migrate_task;
		env->imbalance = 1;
		return;
	}
	/* Try to use spare capacity of local group without overloading it or emptying busiest. */
	if (local->group_type == group_has_spare) {
		if (busiest->group_type > group_fully_busy && !(env->sd->flags & SD_SHARE_PKG_RESOURCES)) {
			/* If busiest is overloaded, try to fill spare capacity. */
			env->migration_type = migrate_util;
			env->imbalance = (long)((local->group_capacity > local->group_util ? local->group_capacity
											    : local->group_util) -
						local->group_util);
			/* The local CPU is (newly) idle and there is at least one
			 * waiting task in this overloaded busiest group: pull it. */
			if (env->idle != CPU_NOT_IDLE && env->imbalance == 0) {
				env->migration_type = migrate_task;
				env->imbalance = 1;
			}
			return;
		}
		lb_version(env->sim)->calculate_imbalance_spare(env, sds);
		return;
	}
	/* Local is fully busy but has to take more load to relieve the busiest group */
	if (local->group_type < group_overloaded) {
		/* Local will become overloaded so the avg_load metrics are finally needed. */
		local->avg_load = (local->group_load * SS_SCHED_CAPACITY_SCALE) / local->group_capacity;
		/* If the local group is more loaded than the selected busiest group
		 * don't try to pull any tasks. */
		if (local->avg_load >= busiest->avg_load) {
			env->imbalance = 0;
			return;
		}
		sds->avg_load = (sds->total_load * SS_SCHED_CAPACITY_SCALE) / sds->total_capacity;
		/* If the local group is more loaded than the average system load,
		 * don't try to pull any tasks. */
		if (local->avg_load >= sds->avg_load) {
			env->imbalance = 0;
			return;
		}
	}
	/* Both group are or will become overloaded: get all the CPUs to the
	 * average load, without pushing ourselves above it nor the busiest
	 * below it. */
	env->migration_type = migrate_load;
	{
		unsigned long a = (busiest->avg_load - sds->avg_load) * busiest->group_capacity;
		unsigned long b = (sds->avg_load - local->avg_load) * local->group_capacity;
		env->imbalance = (long)((a < b ? a : b) / SS_SCHED_CAPACITY_SCALE);
	}
}

/* find_busiest_group(), fair.c v6.6 (no EAS). Returns the busiest group or NULL (balanced). */
static const struct ss_sched_group *find_busiest_group(struct lb_env *env, struct sd_lb_stats *out)
{
	struct sg_lb_stats *local, *busiest;
	struct sd_lb_stats sds;
	const struct ss_sched_group *ret = NULL;

	/* init_sd_lb_stats() */
	memset(&sds, 0, sizeof sds);
	sds.busiest_stat.idle_cpus = ~0u;
	sds.busiest_stat.group_type = group_has_spare;

	update_sd_lb_stats(env, &sds);

	/* There is no busy sibling group to pull tasks from */
	if (!sds.busiest)
		goto out_balanced;
	busiest = &sds.busiest_stat;
	/* Misfit tasks should be dealt with regardless of the avg load */
	if (busiest->group_type == group_misfit_task)
		goto force_balance;
	/* ASYM feature bypasses nice load balance check */
	if (busiest->group_type == group_asym_packing)
		goto force_balance;
	/* If the busiest group is imbalanced the below checks don't work because
	 * they assume all things are equal (cpus_ptr constraints). */
	if (busiest->group_type == group_imbalanced)
		goto force_balance;
	local = &sds.local_stat;
	/* If the local group is busier than the selected busiest group don't try and pull any tasks. */
	if (local->group_type > busiest->group_type)
		goto out_balanced;
	/* When groups are overloaded, use the avg_load to ensure fairness between tasks. */
	if (local->group_type == group_overloaded) {
		if (local->avg_load >= busiest->avg_load)
			goto out_balanced;
		/* The kernel's own comment here (v6.6 find_busiest_group()) says this
		 * average is wrong for overlapping NUMA groups (their CPUs count twice);
		 * mirrored as the kernel computes it. */
		sds.avg_load = (sds.total_load * SS_SCHED_CAPACITY_SCALE) / sds.total_capacity;
		/* Don't pull any tasks if this group is already above the domain average load. */
		if (local->avg_load >= sds.avg_load)
			goto out_balanced;
		/* If the busiest group is more loaded, use imbalance_pct to be conservative. */
		if (100 * busiest->avg_load <= env->sd->imbalance_pct * local->avg_load)
			goto out_balanced;
	}
	/* Try to move all excess tasks to a sibling domain of the busiest group's child domain. */
	if (sds.prefer_sibling && local->group_type == group_has_spare &&
	    lb_version(env->sim)->prefer_sibling_excess(env, &sds))
		goto force_balance;
	if (busiest->group_type != group_overloaded) {
		if (env->idle == CPU_NOT_IDLE)
			/* If the busiest group is not overloaded (and as a result the
			 * local one too) but this CPU is already busy, let another
			 * idle CPU try to pull task. */
			goto out_balanced;
		if (busiest->group_type == group_smt_balance && smt_vs_nonsmt_groups(sds.local, sds.busiest))
			/* Let non SMT CPU pull from SMT CPU sharing with sibling */
			goto force_balance;
		if (busiest->group_weight > 1 && local->idle_cpus <= busiest->idle_cpus + 1)
			/* No imbalance between this and busiest group wrt idle CPUs:
			 * moving would just move the imbalance to another group. */
			goto out_balanced;
		if (busiest->sum_h_nr_running == 1)
			/* busiest doesn't have any tasks waiting to run */
			goto out_balanced;
	}
force_balance:
	/* Looks like there is an imbalance. Compute it */
	calculate_imbalance(env, &sds);
	ret = env->imbalance ? sds.busiest : NULL;
	goto out;
out_balanced:
	env->imbalance = 0;
out:
	if (out)
		*out = sds;
	return ret;
}

/* find_busiest_queue(), fair.c v6.6 (no NUMA balancing, no ASYM_PACKING). */
static struct ss_rq *find_busiest_queue(struct lb_env *env, const struct ss_sched_group *group)
{
	struct ss_sim *sim = env->sim;
	struct ss_rq *busiest = NULL;
	unsigned long busiest_util = 0, busiest_load = 0, busiest_capacity = 1;
	unsigned busiest_nr = 0, i;

	for_each_cpu_and(i, group->span, env->cpus, sim->nr_words) {
		struct ss_rq *rq = &sim->rq[i];
		unsigned long capacity, load, util;
		unsigned nr_running = rq->cfs.nr_running;   /* h_nr_running */

		if (!nr_running)
			continue;
		capacity = rq->capacity;
		/* For ASYM_CPUCAPACITY domains, don't pick a CPU that could
		 * eventually lead to active_balancing high->low capacity. */
		if ((env->sd->flags & SD_ASYM_CPUCAPACITY) &&
		    !capacity_greater((unsigned long)sim->rq[env->dst_cpu].capacity, capacity) && nr_running == 1)
			continue;
		switch (env->migration_type) {
		case migrate_load:
			/* When comparing with load imbalance, use cpu_load() which is
			 * not scaled with the CPU capacity. (!check_cpu_capacity()) */
			load = (unsigned long)ss_cpu_load(sim, i);
			if (nr_running == 1 && load > (unsigned long)env->imbalance)
				break;
			/* max(load_i / capacity_i) by crosswise multiplication */
			if (load * busiest_capacity > busiest_load * capacity) {
				busiest_load = load;
				busiest_capacity = capacity;
				busiest = rq;
			}
			break;
		case migrate_util:
			util = cpu_util_cfs_boost(sim, i);
			/* Don't try to pull utilization from a CPU with one running task. */
			if (nr_running <= 1)
				continue;
			if (busiest_util < util) {
				busiest_util = util;
				busiest = rq;
			}
			break;
		case migrate_task:
			if (busiest_nr < nr_running) {
				busiest_nr = nr_running;
				busiest = rq;
			}
			break;
		case migrate_misfit:
			/* For ASYM_CPUCAPACITY domains with misfit tasks we simply seek the "biggest" misfit task. */
			if (rq->misfit_task_load > busiest_load) {
				busiest_load = (unsigned long)rq->misfit_task_load;
				busiest = rq;
			}
			break;
		}
	}
	return busiest;
}

/* ------------------------------------------------------------ moving tasks */

/*
 * task_hot(), fair.c v6.6 = v5.17 (no core cookies, fair tasks only). Buddy
 * candidates are cache hot: only v5.17's CFS sets cfs_rq->next/last (the
 * v6.6 model has no NEXT_BUDDY, so they stay NULL there).
 */
static bool task_hot(const struct lb_env *env, const struct ss_task *p)
{
	int64_t delta;
	const struct ss_rq *src = env->src_rq;
	/* SMT siblings share cache */
	if (env->sd->flags & SD_SHARE_CPUCAPACITY)
		return false;
	if (ss_feat(env->sim->features, SS_FEAT_CACHE_HOT_BUDDY) && env->sim->rq[env->dst_cpu].cfs.nr_running &&
	    (&p->se == src->cfs.next || &p->se == src->cfs.last))
		return true;
	if (env->sim->params.migration_cost_ns == 0)
		return false;
	/*
	 * delta = rq_clock_task(env->src_rq) - p->se.exec_start. The kernel
	 * stamps exec_start from rq_clock_task() too; here it is stamped with
	 * the simulated time (update_curr(), set_next_entity() get sim->now),
	 * and so is rq->clock, while pclk.clock_task starts 2^20 ns in (the
	 * PELT clock offset, core.c). Reading pclk.clock_task would add that
	 * offset (1.05 ms > 500 µs) to every delta: no task would ever be hot.
	 * rq->clock is clock_task without the offset (no IRQ or steal time);
	 * the caller has updated it (update_rq_clock(busiest)). A task that
	 * never ran keeps exec_start 0 (__sched_fork()): its delta is the
	 * whole clock_task, as in the kernel (cold).
	 */
	if (!p->se.exec_start)
		delta = (int64_t)src->pclk.clock_task;
	else
		delta = (int64_t)(src->clock - p->se.exec_start);
	return delta < (int64_t)env->sim->params.migration_cost_ns;
}

/* can_migrate_task(), fair.c v6.6. */
static bool can_migrate_task(struct ss_task *p, struct lb_env *env)
{
	struct ss_sim *sim = env->sim;
	if (!ss_cpumask_test(p->cpus_ptr, env->dst_cpu)) {
		unsigned cpu;
		env->flags |= LBF_SOME_PINNED;
		/* Remember if this task can be migrated to any other CPU in our
		 * sched_group (not for NEWLY_IDLE, not twice, not for active balance). */
		if (env->idle == CPU_NEWLY_IDLE || (env->flags & (LBF_DST_PINNED | LBF_ACTIVE_LB)))
			return false;
		/* Prevent to re-select dst_cpu via env's CPUs */
		for_each_cpu_and(cpu, env->dst_grpmask, env->cpus, sim->nr_words) {
			if (ss_cpumask_test(p->cpus_ptr, cpu)) {
				env->flags |= LBF_DST_PINNED;
				env->new_dst_cpu = (int)cpu;
				return false;
			}
		}
		return false;
	}
	/* Record that we found at least one task that could run on dst_cpu */
	env->flags &= ~(unsigned)LBF_ALL_PINNED;
	if (env->src_rq->curr == p)   /* task_on_cpu() */
		return false;
	/* Aggressive migration if active balance, the task is cache cold, or
	 * too many balance attempts have failed. */
	if (env->flags & LBF_ACTIVE_LB)
		return true;
	if (!task_hot(env, p) || env->sdrt->nr_balance_failed > env->sd->cache_nice_tries)
		return true;
	return false;
}

/* detach_task(): deactivate_task() + set_task_cpu(p, env->dst_cpu). */
static void detach_task(struct ss_task *p, struct lb_env *env)
{
	ss_detach_task(env->sim, p, env->dst_cpu, env->cause);
}

/* detach_one_task(), fair.c v6.6: for active balance. */
static struct ss_task *detach_one_task(struct lb_env *env)
{
	struct ss_sim *sim = env->sim;
	for (int32_t id = env->src_rq->cfs_tasks_tail; id >= 0; id = sim->tasks[id].tasks_prev) {
		struct ss_task *p = &sim->tasks[id];
		if (!can_migrate_task(p, env))
			continue;
		detach_task(p, env);
		return p;
	}
	return NULL;
}

/* detach_tasks(), fair.c v6.6. Returns the number of detached tasks (env->tasks). */
static int detach_tasks(struct lb_env *env)
{
	struct ss_sim *sim = env->sim;
	struct ss_rq *src = env->src_rq;
	int detached = 0;

	/* Source run queue has been emptied by another CPU, clear LBF_ALL_PINNED
	 * flag as we will not test any task. */
	if (rq_nr_running(src) <= 1) {
		env->flags &= ~(unsigned)LBF_ALL_PINNED;
		return 0;
	}
	if (env->imbalance <= 0)
		return 0;

	while (src->cfs_tasks_tail >= 0) {
		struct ss_task *p;
		/* We don't want to steal all, otherwise we may be treated likewise. */
		if (env->idle != CPU_NOT_IDLE && rq_nr_running(src) <= 1)
			break;
		env->loop++;
		/* We've more or less seen every task there is, call it quits unless
		 * we haven't found any movable task yet. */
		if (env->loop > env->loop_max && !(env->flags & LBF_ALL_PINNED))
			break;
		/* take a breather every nr_migrate tasks */
		if (env->loop > env->loop_break) {
			env->loop_break += SCHED_NR_MIGRATE_BREAK;
			env->flags |= LBF_NEED_BREAK;
			break;
		}
		p = &sim->tasks[src->cfs_tasks_tail];
		if (!can_migrate_task(p, env))
			goto next;

		switch (env->migration_type) {
		case migrate_load: {
			/* task_h_load(), at least 1 so that the imbalance decreases */
			unsigned long load = p->avg.load_avg > 1 ? (unsigned long)p->avg.load_avg : 1;
			unsigned shift = env->sdrt->nr_balance_failed;
			/* (LB_MIN is off by default) Make sure that we don't migrate too
			 * much load; relax as balance attempts fail. */
			if ((shift < 64 ? load >> shift : 0) > (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)load;
			break;
		}
		case migrate_util: {
			unsigned long util = ss_task_util_est(&p->avg);
			if (p->avg.util_avg > util)
				util = (unsigned long)p->avg.util_avg;
			if (util > (unsigned long)env->imbalance)
				goto next;
			env->imbalance -= (long)util;
			break;
		}
		case migrate_task:
			env->imbalance--;
			break;
		case migrate_misfit:
			/* This is not a misfit task */
			if (task_fits_cpu(sim, p, env->src_cpu))
				goto next;
			env->imbalance = 0;
			break;
		}
		detach_task(p, env);
		env->tasks[env->nr_tasks++] = p;   /* list_add(&p->se.group_node, &env->tasks) */
		detached++;
		/* NEWIDLE balancing is a source of latency, so preemptible kernels
		 * stop after the first task is detached. */
		if (sim->params.preemption && env->idle == CPU_NEWLY_IDLE)
			break;
		/* We only want to steal up to the prescribed amount of load/util/tasks. */
		if (env->imbalance <= 0)
			break;
		continue;
next:
		ss_tasks_move_head(sim, src, p);   /* list_move(&p->se.group_node, tasks) */
	}
	return detached;
}

/* attach_tasks(): list_add put the last detached first: attach newest first. */
static void attach_tasks(struct lb_env *env)
{
	bool local = env->dst_cpu == env->sim->this_cpu;
	ss_update_rq_clock(env->sim, env->dst_rq);
	while (env->nr_tasks) {
		struct ss_task *p = env->tasks[--env->nr_tasks];
		ss_attach_task(env->sim, p, local, local && env->idle == CPU_NEWLY_IDLE);
	}
}

/* asym_active_balance() is false (no ASYM_PACKING); imbalanced_active_balance(), need_active_balance(), fair.c v6.6. */
static bool need_active_balance(struct lb_env *env)
{
	/* The imbalanced case includes the case of pinned tasks preventing a fair
	 * distribution of the load on the system but also the even distribution
	 * of the threads on a system with spare capacity. */
	if (env->migration_type == migrate_task && env->sdrt->nr_balance_failed > env->sd->cache_nice_tries + 2)
		return true;
	/* (reduced src capacity: never, no RT/IRQ pressure) */
	if (env->migration_type == migrate_misfit)
		return true;
	return false;
}

/*
 * load_balance(), fair.c v6.6: check this_cpu to ensure it is balanced
 * within domain sd by moving tasks if there is an imbalance. Returns the
 * number of tasks moved; *continue_balancing = false when another CPU of
 * the group balances (should_we_balance).
 */
static int load_balance(struct ss_sim *sim, unsigned this_cpu, struct ss_rq *this_rq, const struct ss_sched_domain *sd,
			enum ss_cpu_idle_type idle, bool *continue_balancing, uint64_t *pass_time)
{
	bool counted = false;
	int ld_moved = 0, cur_ld_moved;
	bool active_balance = false;
	const struct ss_sched_domain *sd_parent = sd->parent;
	const struct ss_sched_group *group = NULL;
	struct ss_rq *busiest = NULL;
	struct ss_lb_kind_stats *ks = sim->measuring ? lb_kind(sim, sim->lb_cause) : NULL;
	struct ss_task *tasks[SCHED_NR_MIGRATE_BREAK + 1];
	struct lb_env env = {
		.tasks = tasks,
		.sim = sim,
		.sd = sd,
		.sdrt = sd_rt_of(sim, this_cpu, sd),
		.dst_cpu = this_cpu,
		.dst_rq = this_rq,
		.dst_grpmask = sd->groups->balance_mask ? sd->groups->balance_mask : sd->groups->span,
		.new_dst_cpu = -1,
		.idle = idle,
		.loop_break = SCHED_NR_MIGRATE_BREAK,
		.cpus = sim->lb_cpus,
		.cause = sim->lb_cause,
	};

	ss_cpumask_copy(env.cpus, sd->span, sim->nr_words);   /* ∩ cpu_active_mask: all active */
redo:
	if (!should_we_balance(&env)) {
		*continue_balancing = false;
		goto out_balanced;
	}
	if (!counted) {
		/* the pass reads the domain's runqueues: its modelled time */
		counted = true;
		*pass_time += env.sdrt->lb_pass_cost;
		if (ks) {
			sim->res->lb_stats_passes++;
			ks->passes++;
			ks->cost_ns += env.sdrt->lb_pass_cost;
		}
	}
	group = find_busiest_group(&env, NULL);
	if (!group) {
		if (ks)
			ks->balanced++;
		goto out_balanced;
	}
	busiest = find_busiest_queue(&env, group);
	if (!busiest) {
		if (ks)
			ks->no_busiest_rq++;
		goto out_balanced;
	}
	if (ks)
		ks->imbalanced++;
	if (!sim->params.load_balance)
		goto out;   /* balance.load_balance=0: statistics only */
	env.src_cpu = busiest->cpu;
	env.src_rq = busiest;
	ld_moved = 0;
	/* Clear this flag as soon as we find a pullable task */
	env.flags |= LBF_ALL_PINNED;
	if (rq_nr_running(busiest) > 1) {
		/* Attempt to move tasks. If find_busiest_group has found an
		 * imbalance but busiest->nr_running <= 1, the group is still
		 * unbalanced. ld_moved simply stays zero. */
		env.loop_max = (unsigned)sim->params.nr_migrate < rq_nr_running(busiest) ? (unsigned)sim->params.nr_migrate
											 : rq_nr_running(busiest);
more_balance:
		ss_update_rq_clock(sim, busiest);
		cur_ld_moved = detach_tasks(&env);
		/* rq_lock_irqsave(busiest) around detach_tasks(): held for one
		 * operation and one per task detached (cost.rq_lock_all); the
		 * balancing CPU waits for it */
		if (sim->params.rq_lock_all && sim->params.rq_lock_ns)
			*pass_time += ss_rq_lock(sim, busiest, sim->now, sim->params.rq_lock_ns * (1 + (uint64_t)cur_ld_moved),
						 env.dst_cpu, SS_LOCK_BALANCE);
		/* attach_tasks(): rq_lock(env->dst_rq), one hold per task attached */
		if (cur_ld_moved && sim->params.rq_lock_all && sim->params.rq_lock_ns)
			*pass_time += ss_rq_lock(sim, env.dst_rq, sim->now + *pass_time,
						 sim->params.rq_lock_ns * (uint64_t)cur_ld_moved, env.dst_cpu, SS_LOCK_BALANCE);
		if (cur_ld_moved) {
			attach_tasks(&env);
			ld_moved += cur_ld_moved;
		}
		if (env.flags & LBF_NEED_BREAK) {
			env.flags &= ~(unsigned)LBF_NEED_BREAK;
			/* Stop if we tried all running tasks */
			if (env.loop < rq_nr_running(busiest))
				goto more_balance;
		}
		/* Revisit (affine) tasks on src_cpu that couldn't be moved to us and
		 * move them to an alternate dst_cpu in our sched_group. */
		if ((env.flags & LBF_DST_PINNED) && env.imbalance > 0) {
			/* Prevent to re-select dst_cpu via env's CPUs */
			ss_cpumask_clear_cpu(env.cpus, env.dst_cpu);
			env.dst_rq = &sim->rq[env.new_dst_cpu];
			env.dst_cpu = (unsigned)env.new_dst_cpu;
			env.flags &= ~(unsigned)LBF_DST_PINNED;
			env.loop = 0;
			env.loop_break = SCHED_NR_MIGRATE_BREAK;
			/* Go back to "more_balance" rather than "redo" since we need to
			 * continue with same src_cpu. */
			goto more_balance;
		}
		/* We failed to reach balance because of affinity. */
		if (sd_parent && (env.flags & LBF_SOME_PINNED) && env.imbalance > 0)
			*sgc_imbalance(sim, sd_parent, sd_parent->groups) = 1;
		/* All tasks on this runqueue were pinned by CPU affinity */
		if (env.flags & LBF_ALL_PINNED) {
			ss_cpumask_clear_cpu(env.cpus, busiest->cpu);
			/* Continue at this level only if active CPUs remain as possible
			 * busiest CPUs outside the destination group. */
			if (!mask_subset(env.cpus, env.dst_grpmask, sim->nr_words)) {
				env.loop = 0;
				env.loop_break = SCHED_NR_MIGRATE_BREAK;
				goto redo;
			}
			if (ks)
				ks->all_pinned++;
			goto out_all_pinned;
		}
	}
	if (ks)
		ks->moved += (uint64_t)ld_moved;
	if (!ld_moved) {
		if (ks)
			ks->failed++;
		/* Increment the failure counter only on periodic balance: newidle
		 * balance, which can be very frequent, would pollute it. */
		if (idle != CPU_NEWLY_IDLE)
			env.sdrt->nr_balance_failed++;
		if (need_active_balance(&env)) {
			/* Don't kick the active_load_balance_cpu_stop, if the curr task
			 * on busiest CPU can't be moved to this_cpu. */
			if (!busiest->curr || !ss_cpumask_test(busiest->curr->cpus_ptr, this_cpu))
				goto out_one_pinned;
			/* Record that we found at least one task that could run on this_cpu */
			env.flags &= ~(unsigned)LBF_ALL_PINNED;
			/* ->active_balance synchronizes accesses to ->active_balance_work. */
			if (!busiest->active_balance) {
				busiest->active_balance = true;
				busiest->push_cpu = this_cpu;
				active_balance = true;
			}
			if (active_balance) {
				ss_queue_stopper(sim, busiest->cpu);   /* stop_one_cpu_nowait() */
				if (ks)
					ks->active_kicks++;
			}
		}
	} else {
		env.sdrt->nr_balance_failed = 0;
	}
	if (!active_balance || need_active_balance(&env)) {
		/* We were unbalanced, so reset the balancing interval */
		env.sdrt->balance_interval = sd->min_interval;
	}
	goto out;

out_balanced:
	/* We reach balance although we may have faced some affinity constraints.
	 * Clear the imbalance flag only if other tasks got a chance to move and
	 * fix the imbalance. */
	if (sd_parent && !(env.flags & LBF_ALL_PINNED)) {
		uint8_t *gi = sgc_imbalance(sim, sd_parent, sd_parent->groups);
		if (*gi)
			*gi = 0;
	}
out_all_pinned:
	/* We reach balance because all tasks are pinned at this level so we
	 * can't migrate them. Let the imbalance flag set so parent level can try. */
	env.sdrt->nr_balance_failed = 0;
out_one_pinned:
	ld_moved = 0;
	/* newidle_balance() disregards balance intervals: skip the
	 * balance_interval increase to avoid it skyrocketing. */
	if (env.idle == CPU_NEWLY_IDLE)
		goto out;
	/* tune up the balancing interval */
	if (((env.flags & LBF_ALL_PINNED) && env.sdrt->balance_interval < MAX_PINNED_INTERVAL) ||
	    env.sdrt->balance_interval < sd->max_interval)
		env.sdrt->balance_interval *= 2;
out:
	if (ss_tracing(sim) && counted)
		ss_ft_load_balance(sim, this_cpu, sd, (int)idle, busiest ? (int)busiest->cpu : -1, env.imbalance,
				   (int)env.migration_type, ld_moved,
				   !group                         ? "balanced"
				   : !busiest                     ? "no_busiest_rq"
				   : !sim->params.load_balance    ? "stats_only"
				   : ld_moved                     ? "moved"
				   : active_balance               ? "active_kick"
				   : env.flags & LBF_ALL_PINNED   ? "all_pinned"
								  : "failed",
				   env.sdrt->lb_pass_cost);
	return ld_moved;
}

/*
 * active_load_balance_cpu_stop(), fair.c v6.6: runs on the busiest CPU as
 * the stopper, which has preempted that CPU's task (core.c puts it back on
 * the rq and counts the stopper in nr_running), and pushes one task to
 * push_cpu.
 */
void ss_active_load_balance_cpu_stop(struct ss_sim *sim, struct ss_rq *busiest_rq)
{
	unsigned busiest_cpu = busiest_rq->cpu, target_cpu = busiest_rq->push_cpu;
	struct ss_rq *target_rq = &sim->rq[target_cpu];
	const struct ss_cpu_topo *tt = &sim->topo->cpu[target_cpu];
	const struct ss_sched_domain *sd = NULL;
	struct ss_task *p = NULL;

	if (!busiest_rq->active_balance)
		goto out_unlock;
	/* Is there any task to move? */
	if (rq_nr_running(busiest_rq) <= 1)
		goto out_unlock;
	/* Search for an sd spanning us and the target CPU. */
	for (unsigned l = 0; l < tt->nr_sd; l++) {
		if (ss_cpumask_test(tt->sd[l].span, busiest_cpu)) {
			sd = &tt->sd[l];
			break;
		}
	}
	if (sd) {
		struct lb_env env = {
			.sim = sim,
			.sd = sd,
			.sdrt = sd_rt_of(sim, target_cpu, sd),
			.dst_cpu = target_cpu,
			.dst_rq = target_rq,
			.src_cpu = busiest_cpu,
			.src_rq = busiest_rq,
			.idle = CPU_IDLE,
			.flags = LBF_ACTIVE_LB,
			.cpus = sim->lb_cpus,
			.cause = SS_MIG_ACTIVE,
		};
		ss_cpumask_copy(env.cpus, sd->span, sim->nr_words);
		env.dst_grpmask = sd->groups->span;
		ss_update_rq_clock(sim, busiest_rq);
		p = detach_one_task(&env);
		if (p) {
			if (sim->measuring)
				sim->res->active_pushed++;
			/* Active balancing done, reset the failure counter. */
			env.sdrt->nr_balance_failed = 0;
		}
	}
out_unlock:
	busiest_rq->active_balance = false;
	if (p) {
		/* attach_one_task(target_rq, p): from the busiest CPU, remote to target */
		ss_update_rq_clock(sim, target_rq);
		ss_attach_task(sim, p, false, false);
	}
}

/* ------------------------------------------------------------ periodic balance */

/* update_newidle_cost(), fair.c v6.6. Returns true when it decayed. */
static bool update_newidle_cost(struct ss_sim *sim, struct ss_sd_rt *rt, uint64_t cost)
{
	uint64_t jiffies = ss_jiffies(sim);
	if (cost > rt->max_newidle_lb_cost) {
		/* Track max cost of a domain to make sure to not delay the next wakeup on the CPU. */
		rt->max_newidle_lb_cost = cost;
		rt->last_decay_max_lb_cost = jiffies;
	} else if (jiffies > rt->last_decay_max_lb_cost + sim->params.hz) {
		/* Decay the newidle max times by ~1% per second. */
		rt->max_newidle_lb_cost = (rt->max_newidle_lb_cost * 253) / 256;
		rt->last_decay_max_lb_cost = jiffies;
		return true;
	}
	return false;
}

/* rebalance_domains(), fair.c v6.6. Returns the modelled time of the passes it ran. */
static uint64_t rebalance_domains(struct ss_sim *sim, struct ss_rq *rq, enum ss_cpu_idle_type idle)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[rq->cpu];
	uint64_t jiffies = ss_jiffies(sim);
	uint64_t next_balance = jiffies + 60 * sim->params.hz;
	uint64_t max_cost = 0, time = 0;
	bool update_next_balance = false, continue_balancing = true, need_decay = false;
	bool busy = idle != CPU_IDLE;   /* && !sched_idle_cpu(cpu): no SCHED_IDLE tasks */

	for (unsigned l = 0; l < ct->nr_sd; l++) {
		const struct ss_sched_domain *sd = &ct->sd[l];
		struct ss_sd_rt *rt = &rq->sd_rt[l];
		uint64_t interval;
		/* Decay the newidle max times here because this is a regular visit to all the domains. */
		need_decay = update_newidle_cost(sim, rt, 0);
		max_cost += rt->max_newidle_lb_cost;
		/* Stop the load balance at this level: another CPU of our sched group balances more actively. */
		if (!continue_balancing) {
			if (need_decay)
				continue;
			break;
		}
		interval = ss_get_sd_balance_interval(sim, sd, rt, busy);
		/* (SD_SERIALIZE: the global balancing lock is never contended here) */
		if (jiffies >= rt->last_balance + interval) {
			if (load_balance(sim, rq->cpu, rq, sd, idle, &continue_balancing, &time)) {
				/* The LBF_DST_PINNED logic could have changed env->dst_cpu,
				 * so we can't know our idle state even if we migrated tasks. */
				idle = ss_idle_cpu(sim, rq->cpu) ? CPU_IDLE : CPU_NOT_IDLE;
				busy = idle != CPU_IDLE;
			}
			rt->last_balance = jiffies;
			interval = ss_get_sd_balance_interval(sim, sd, rt, busy);
		}
		if (next_balance > rt->last_balance + interval) {
			next_balance = rt->last_balance + interval;
			update_next_balance = true;
		}
	}
	if (need_decay) {
		/* Ensure the rq-wide value also decays but keep it at a reasonable
		 * floor to avoid funnies with rq->avg_idle. */
		rq->max_idle_balance_cost = max_cost > sim->params.migration_cost_ns ? max_cost : sim->params.migration_cost_ns;
	}
	if (update_next_balance)
		rq->next_balance = next_balance;
	return time;
}

/* update_blocked_averages() for a CPU without task groups: decay its cfs_rq. */
static bool update_blocked_averages(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_pelt_cfs_input in = {
		.load_weight = rq->cfs.load_weight, .h_nr_running = rq->cfs.nr_running, .curr = rq->cfs.curr != NULL,
	};
	ss_update_rq_clock(sim, rq);
	ss_update_cfs_rq_load_avg(ss_rq_clock_pelt(&rq->pclk), &rq->cfs_avg, in);
	rq->has_blocked_load = rq->cfs_avg.avg.load_avg || rq->cfs_avg.avg.util_avg;   /* cfs_rq_has_blocked() */
	return rq->has_blocked_load;
}

/* ------------------------------------------------------------ newidle balance */

/*
 * newidle_balance(), fair.c v6.6, called by schedule() (pick_next_task_fair)
 * when nothing is runnable on rq. Each domain pass costs its modelled time
 * (cost.lb_pass_ns + the span's rq reads) — the kernel's measured
 * domain_cost — which feeds max_newidle_lb_cost; the sum is returned in
 * *cost_ns and delays a pulled task's start (with cost.newidle_time it also
 * holds the CPU when nothing was pulled: core.c __schedule(); the passes'
 * ends are kept in sd_rt[].newidle_pass_end for a task enqueued meanwhile).
 */
int ss_newidle_balance(struct ss_sim *sim, struct ss_rq *this_rq, uint64_t *cost_ns)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[this_rq->cpu];
	uint64_t next_balance = ss_jiffies(sim) + sim->params.hz;
	uint64_t curr_cost = 0;
	int pulled_task = 0;
	unsigned saved_cause = sim->lb_cause, saved_this = sim->this_cpu;

	*cost_ns = 0;
	this_rq->newidle_nr_pass = 0;
	ss_update_misfit_status(sim, NULL, this_rq);
	/* There is a task waiting to run. No need to search for one. */
	if (this_rq->ttwu_pending)
		return 0;
	/* We must set idle_stamp _before_ calling idle_balance(), such that we
	 * measure the duration of idle_balance() as idle time. */
	this_rq->idle_stamp = this_rq->clock;
	if (!ct->nr_sd)
		goto out;
	if (!sim->rd_overload || this_rq->avg_idle < this_rq->sd_rt[0].max_newidle_lb_cost) {
		const struct ss_sched_domain *sd = &ct->sd[0];
		uint64_t nb = this_rq->sd_rt[0].last_balance + ss_get_sd_balance_interval(sim, sd, &this_rq->sd_rt[0], false);
		if (next_balance > nb)   /* update_next_balance() */
			next_balance = nb;
		if (sim->measuring)
			sim->res->newidle_skipped++;
		goto out;
	}
	update_blocked_averages(sim, this_rq);
	sim->lb_cause = SS_MIG_NEWIDLE;
	sim->this_cpu = this_rq->cpu;
	for (unsigned l = 0; l < ct->nr_sd; l++) {
		const struct ss_sched_domain *sd = &ct->sd[l];
		struct ss_sd_rt *rt = &this_rq->sd_rt[l];
		bool continue_balancing = true;
		uint64_t nb = rt->last_balance + ss_get_sd_balance_interval(sim, sd, rt, false);
		if (next_balance > nb)
			next_balance = nb;
		if (this_rq->avg_idle < curr_cost + rt->max_newidle_lb_cost)
			break;
		/* balance.newidle_llc_only: seeds/004 patch 4's title read as "newidle
		 * balancing stops at the LLC domain" — no level above sd_llc (none at
		 * all without an LLC domain); docs/policies.md */
		if (sim->params.newidle_llc_only && (int)l > ct->sd_llc)
			break;
		if (sd->flags & SD_BALANCE_NEWIDLE) {
			uint64_t domain_cost = 0;
			pulled_task = load_balance(sim, this_rq->cpu, this_rq, sd, CPU_NEWLY_IDLE, &continue_balancing,
						   &domain_cost);
			update_newidle_cost(sim, rt, domain_cost);
			curr_cost += domain_cost;
		}
		/* cost.newidle_time: where each pass ends, for a task enqueued meanwhile */
		rt->newidle_pass_end = curr_cost;
		this_rq->newidle_nr_pass = (uint8_t)(l + 1);
		/* Stop searching for tasks to pull if there are now runnable tasks on this rq. */
		if (pulled_task || this_rq->cfs.nr_running > 0 || this_rq->ttwu_pending)
			break;
	}
	sim->lb_cause = saved_cause;
	sim->this_cpu = saved_this;
	if (curr_cost > this_rq->max_idle_balance_cost)
		this_rq->max_idle_balance_cost = curr_cost;
	/* A task could have been enqueued in the meantime: pretend we pulled it. */
	if (this_rq->cfs.nr_running && !pulled_task)
		pulled_task = 1;
	*cost_ns = curr_cost;
out:
	/* Move the next balance forward */
	if (this_rq->next_balance > next_balance)
		this_rq->next_balance = next_balance;
	if (pulled_task) {
		this_rq->idle_stamp = 0;
	} else if (sim->params.nohz) {
		/* nohz_newidle_balance(): ask for a blocked-load update before
		 * entering idle, unless it will wake up very soon. */
		if (this_rq->avg_idle >= sim->params.migration_cost_ns && sim->nohz_has_blocked &&
		    ss_jiffies(sim) >= sim->nohz_next_blocked)
			this_rq->ilb_pending |= NOHZ_NEWILB_KICK;
	}
	return pulled_task;
}

/* ------------------------------------------------------------ NOHZ */

/* nohz_balance_enter_idle(), fair.c v6.6: the tick is being stopped. */
void ss_nohz_balance_enter_idle(struct ss_sim *sim, struct ss_rq *rq)
{
	rq->has_blocked_load = true;
	if (!rq->nohz_tick_stopped) {
		rq->nohz_tick_stopped = true;
		ss_cpumask_set(sim->nohz_idle_cpus_mask, rq->cpu);
		sim->nohz_nr_cpus++;
		/* set_cpu_sd_state_idle() */
		if (sim->topo->cpu[rq->cpu].sd_llc >= 0 && sd_llc_shared(sim, rq->cpu)->nr_busy_cpus) {
			sd_llc_shared(sim, rq->cpu)->nr_busy_cpus--;   /* atomic_dec() on sd_llc_shared */
			ss_llc_line_write(sim, sim->topo->cpu[rq->cpu].llc_index, rq->cpu);
		}
		sim->nohz_needs_update = true;
	}
	/* Each time a cpu enters idle, we assume that it has blocked load. */
	sim->nohz_has_blocked = true;
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
	if (sim->topo->cpu[rq->cpu].sd_llc >= 0) {
		sd_llc_shared(sim, rq->cpu)->nr_busy_cpus++;   /* atomic_inc() on sd_llc_shared */
		ss_llc_line_write(sim, sim->topo->cpu[rq->cpu].llc_index, rq->cpu);
	}
}

/* find_new_ilb(), fair.c v6.6: first idle CPU of the nohz mask, not this one. */
static int find_new_ilb(struct ss_sim *sim, unsigned this_cpu)
{
	unsigned c;
	for_each_cpu_and(c, sim->nohz_idle_cpus_mask, sim->nohz_idle_cpus_mask, sim->nr_words) {
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
	unsigned old;
	/* Increase nohz.next_balance only when a full ilb is triggered. */
	if (flags & NOHZ_BALANCE_KICK)
		sim->nohz_next_balance = ss_jiffies(sim) + 1;
	ilb = find_new_ilb(sim, this_cpu);
	if (ilb < 0)
		return;
	struct ss_rq *irq = &sim->rq[ilb];
	old = irq->ilb_pending;
	irq->ilb_pending |= (uint8_t)flags;
	if (old & NOHZ_KICK_MASK)
		return;   /* already kicked and not yet serviced */
	/* the IPI (none to a polling CPU) and the idle state's exit latency */
	ss_evq_schedule(&sim->evq, &irq->ev_ilb, sim->now + ss_cpu_wake_cost(sim, irq, true), SS_EV_ILB, (unsigned)ilb);
	if (sim->measuring)
		sim->res->nohz_kicks++;
}

/* nohz_balancer_kick(), fair.c v6.6 (no ASYM_PACKING; capacity never reduced). */
static void nohz_balancer_kick(struct ss_sim *sim, struct ss_rq *rq)
{
	uint64_t now = ss_jiffies(sim);
	const struct ss_cpu_topo *ct = &sim->topo->cpu[rq->cpu];
	unsigned flags = 0;

	/* We may be recently in ticked or tickless idle mode. At the first busy
	 * tick after returning from idle, we will update the busy stats. */
	ss_nohz_balance_exit_idle(sim, rq);
	/* None are in tickless mode and hence no need for NOHZ idle load balancing */
	if (!sim->nohz_nr_cpus)
		return;
	if (sim->nohz_has_blocked && now > sim->nohz_next_blocked)
		flags = NOHZ_STATS_KICK;
	if (now < sim->nohz_next_balance)
		goto out;
	if (rq_nr_running(rq) >= 2) {
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
	/* (rq->cfs.h_nr_running >= 1 && check_cpu_capacity(): never reduced) */
	if (sim->asym_cpucapacity) {
		/* sd_asym_cpucapacity: lowest SD_ASYM_CPUCAPACITY_FULL domain */
		for (unsigned l = 0; l < ct->nr_sd; l++) {
			if (!(ct->sd[l].flags & SD_ASYM_CPUCAPACITY_FULL))
				continue;
			/* When ASYM_CPUCAPACITY, see if there's a higher capacity CPU to
			 * run the misfit task on (check_misfit_status()); skip the LLC
			 * logic, which is not relevant then. */
			if (rq->misfit_task_load && rq->capacity < sim->rd_max_cpu_capacity)
				flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
			goto out;
		}
	}
	if (ct->sd_llc >= 0 && sd_llc_shared(sim, rq->cpu)->nr_busy_cpus > 1) {
		/* There may be an imbalance between LLCs, or within this LLC (packed
		 * SMT cores while others are idle): get a NOHZ balance going. */
		flags = NOHZ_STATS_KICK | NOHZ_BALANCE_KICK;
		goto out;
	}
out:
	if (sim->nohz_needs_update)
		flags |= NOHZ_NEXT_KICK;
	if (flags)
		kick_ilb(sim, rq->cpu, flags);
}

/* _nohz_idle_balance(), fair.c v6.6, on this_rq for the idle CPUs. */
static void _nohz_idle_balance(struct ss_sim *sim, struct ss_rq *this_rq, unsigned flags)
{
	uint64_t now = ss_jiffies(sim);
	uint64_t next_balance = now + 60 * sim->params.hz;
	bool update_next_balance = false, has_blocked_load = false;
	struct ss_cpumask_wrap it;
	unsigned c, saved_cause = sim->lb_cause, saved_this = sim->this_cpu;

	/* We assume there will be no idle load after this update and clear the
	 * has_blocked flag (and needs_update likewise). */
	if (flags & NOHZ_STATS_KICK)
		sim->nohz_has_blocked = false;
	if (flags & NOHZ_NEXT_KICK)
		sim->nohz_needs_update = false;
	sim->lb_cause = SS_MIG_NOHZ;
	sim->this_cpu = this_rq->cpu;
	/* Start with the next CPU after this_cpu so we will end with this_cpu
	 * and let a chance for other idle cpu to pull load. */
	for (c = ss_cpumask_wrap_first(&it, sim->nohz_idle_cpus_mask, sim->nr_cpus, this_rq->cpu + 1); c < sim->nr_cpus;
	     c = ss_cpumask_wrap_next(&it, sim->nohz_idle_cpus_mask, sim->nr_cpus)) {
		struct ss_rq *rq = &sim->rq[c];
		if (!ss_idle_cpu(sim, c))
			continue;
		/* If this CPU gets work to do, stop the load balancing work being
		 * done for other CPUs. Next load balancing owner will pick it up. */
		if (this_rq->curr || this_rq->cfs.nr_running) {
			if (flags & NOHZ_STATS_KICK)
				has_blocked_load = true;
			if (flags & NOHZ_NEXT_KICK)
				sim->nohz_needs_update = true;
			goto abort;
		}
		if (flags & NOHZ_STATS_KICK)
			has_blocked_load |= update_blocked_averages(sim, rq);   /* update_nohz_stats() */
		/* If time for next balance is due, do the balance. */
		if (now >= rq->next_balance) {
			ss_update_rq_clock(sim, rq);
			if (flags & NOHZ_BALANCE_KICK)
				rebalance_domains(sim, rq, CPU_IDLE);
		}
		if (next_balance > rq->next_balance) {
			next_balance = rq->next_balance;
			update_next_balance = true;
		}
	}
	if (update_next_balance)
		sim->nohz_next_balance = next_balance;
	if (flags & NOHZ_STATS_KICK)
		sim->nohz_next_blocked = now + ss_msecs_to_jiffies(sim, SS_LOAD_AVG_PERIOD);
abort:
	sim->lb_cause = saved_cause;
	sim->this_cpu = saved_this;
	/* There is still blocked load, enable periodic update */
	if (has_blocked_load)
		sim->nohz_has_blocked = true;
}

/* nohz_csd_func() + nohz_idle_balance(), fair.c v6.6: the kick's IPI reached this_rq. */
void ss_nohz_idle_balance(struct ss_sim *sim, struct ss_rq *this_rq, unsigned flags)
{
	flags &= NOHZ_KICK_MASK;
	/* rq->idle_balance = idle_cpu(cpu); only an idle CPU without need_resched services it */
	if (!flags || !ss_idle_cpu(sim, this_rq->cpu))
		return;
	if (sim->measuring && (flags & NOHZ_BALANCE_KICK))
		sim->res->nohz_balances++;
	_nohz_idle_balance(sim, this_rq, flags);
}

/* nohz_run_idle_balance(), fair.c v6.6: the stats-only update newidle asked for. */
void ss_nohz_run_idle_balance(struct ss_sim *sim, struct ss_rq *rq)
{
	unsigned flags = rq->ilb_pending;
	rq->ilb_pending &= (uint8_t)~NOHZ_NEWILB_KICK;
	/* Update the blocked load only if no SCHED_SOFTIRQ is about to happen
	 * (ie NOHZ_STATS_KICK set) and will do the same. */
	if (flags == NOHZ_NEWILB_KICK && !rq->curr && !rq->cfs.nr_running)
		_nohz_idle_balance(sim, rq, NOHZ_STATS_KICK);
}

/*
 * trigger_load_balance(), fair.c v6.6 — from scheduler_tick() of a busy
 * CPU: nohz_balancer_kick() runs in the tick; the SCHED_SOFTIRQ it raised
 * when rq->next_balance was due runs at the tick's irq exit:
 * run_rebalance_domains() = update_blocked_averages() + rebalance_domains().
 * The passes' modelled time delays the running task (softirq time).
 */
void ss_trigger_load_balance(struct ss_sim *sim, struct ss_rq *rq)
{
	bool softirq = ss_jiffies(sim) >= rq->next_balance;
	if (sim->params.nohz)
		nohz_balancer_kick(sim, rq);
	if (softirq) {
		enum ss_cpu_idle_type idle = rq->curr ? CPU_NOT_IDLE : CPU_IDLE;   /* rq->idle_balance */
		unsigned saved_cause = sim->lb_cause, saved_this = sim->this_cpu;
		uint64_t t;
		sim->lb_cause = idle == CPU_IDLE ? SS_MIG_NOHZ : SS_MIG_PERIODIC;
		sim->this_cpu = rq->cpu;
		update_blocked_averages(sim, rq);
		t = rebalance_domains(sim, rq, idle);
		sim->lb_cause = saved_cause;
		sim->this_cpu = saved_this;
		if (t)
			ss_delay_curr(sim, rq, t);
	}
}

/* ------------------------------------------------------------ test entry points */

int ss_lb_group_classify(unsigned imbalance_pct, unsigned sum_nr_running, unsigned group_weight,
			 unsigned long group_capacity, unsigned long group_util, unsigned long group_runnable)
{
	struct sg_lb_stats sgs = { 0 };
	sgs.sum_nr_running = sgs.sum_h_nr_running = sum_nr_running;
	sgs.group_weight = group_weight;
	sgs.group_capacity = group_capacity;
	sgs.group_util = group_util;
	sgs.group_runnable = group_runnable;
	return (int)group_classify(imbalance_pct, false, &sgs);
}

void ss_lb_inspect(struct ss_sim *sim, unsigned cpu, unsigned level, enum ss_cpu_idle_type idle,
		   struct ss_lb_decision *d)
{
	const struct ss_sched_domain *sd = &sim->topo->cpu[cpu].sd[level];
	struct sd_lb_stats sds;
	const struct ss_sched_group *g;
	struct ss_rq *busiest;
	struct lb_env env = {
		.sim = sim, .sd = sd, .sdrt = sd_rt_of(sim, cpu, sd), .dst_cpu = cpu, .dst_rq = &sim->rq[cpu],
		.dst_grpmask = sd->groups->span, .new_dst_cpu = -1, .idle = idle, .cpus = sim->lb_cpus,
		.cause = SS_MIG_PERIODIC,
	};
	memset(d, 0, sizeof *d);
	ss_cpumask_copy(env.cpus, sd->span, sim->nr_words);
	d->should_balance = should_we_balance(&env);
	g = find_busiest_group(&env, &sds);
	d->local_type = (int)sds.local_stat.group_type;
	d->local_idle_cpus = sds.local_stat.idle_cpus;
	d->busiest_type = sds.busiest ? (int)sds.busiest_stat.group_type : -1;
	d->busiest_first_cpu = sds.busiest ? (int)ss_cpumask_first(sds.busiest->span, sim->nr_cpus) : -1;
	d->imbalanced = g != NULL;
	d->migration_type = (int)env.migration_type;
	d->imbalance = env.imbalance;
	busiest = g ? find_busiest_queue(&env, g) : NULL;
	d->busiest_cpu = busiest ? (int)busiest->cpu : -1;
}

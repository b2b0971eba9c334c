/*
 * Wake placement: the shared steps of kernel v6.6 kernel/sched/fair.c —
 * select_task_rq_fair() (wakeup path), record_wakee(), wake_wide(),
 * wake_affine() (WA_IDLE, WA_WEIGHT, WA_BIAS), select_idle_sibling(),
 * select_idle_smt(), select_idle_core(), select_idle_cpu() with SIS_PROP and
 * SIS_UTIL, __update_idle_core(), update_idle_cpu_scan().
 *
 * Every runqueue these functions read on another CPU is a probe: it costs
 * simulated time on the waking CPU (ss_charge_probe(), by distance).
 */
#include "ss_sched.h"

#include <limits.h>

/* ------------------------------------------------------------ wakee flips */

/* record_wakee(), fair.c v6.6: runs on the waker (current). */
void ss_record_wakee(struct ss_sim *sim, struct ss_task *p)
{
	struct ss_task *cur = sim->current;
	uint64_t jiffies = ss_jiffies(sim);
	if (!cur)
		return;
	/* Only decay a single time; tasks that have less then 1 wakeup per
	 * jiffy will not have built up many flips. */
	if (jiffies > cur->wakee_flip_decay_ts + sim->params.hz) {
		cur->wakee_flips >>= 1;
		cur->wakee_flip_decay_ts = jiffies;
	}
	if (cur->last_wakee != p->id + 1) {
		cur->last_wakee = p->id + 1;
		cur->wakee_flips++;
	}
}

/* wake_wide(), fair.c v6.6. */
bool ss_wake_wide(struct ss_sim *sim, struct ss_task *p)
{
	struct ss_task *cur = sim->current;
	unsigned master, slave, factor;
	if (!cur)
		return false;
	master = cur->wakee_flips;
	slave = p->wakee_flips;
	factor = sim->topo->cpu[sim->this_cpu].llc_size;
	if (master < slave) {
		unsigned tmp = master;
		master = slave;
		slave = tmp;
	}
	if (slave < factor || master < slave * factor)
		return false;
	return true;
}

/* ------------------------------------------------------------ wake_affine */

#define WA_NONE INT_MIN   /* nr_cpumask_bits in the kernel */

/* wake_affine_idle(), fair.c v6.6. */
static int wake_affine_idle(struct ss_sim *sim, int this_cpu, int prev_cpu, bool sync)
{
	/*
	 * If this_cpu is idle, it implies the wakeup is from interrupt context.
	 * Only allow the move if cache is shared.
	 */
	if (ss_available_idle_cpu(sim, (unsigned)this_cpu) &&
	    ss_cpus_share_cache(sim->topo, (unsigned)this_cpu, (unsigned)prev_cpu))
		return ss_available_idle_cpu(sim, (unsigned)prev_cpu) ? prev_cpu : this_cpu;
	if (sync && sim->rq[this_cpu].cfs.nr_running == 1)
		return this_cpu;
	if (ss_available_idle_cpu(sim, (unsigned)prev_cpu))
		return prev_cpu;
	return WA_NONE;
}

/* wake_affine_weight(), fair.c v6.6 (task_h_load = load_avg without groups). */
static int wake_affine_weight(struct ss_sim *sim, const struct ss_sched_domain *sd, struct ss_task *p,
			      int this_cpu, int prev_cpu, bool sync)
{
	int64_t this_eff_load, prev_eff_load;
	uint64_t task_load;

	this_eff_load = (int64_t)ss_cpu_load(sim, (unsigned)this_cpu);
	if (sync && sim->current) {
		int64_t current_load = (int64_t)sim->current->avg.load_avg;
		if (current_load > this_eff_load)
			return this_cpu;
		this_eff_load -= current_load;
	}
	task_load = p->avg.load_avg;
	this_eff_load += (int64_t)task_load;
	if (ss_feat(sim->features, SS_FEAT_WA_BIAS))
		this_eff_load *= 100;
	this_eff_load *= sim->rq[prev_cpu].capacity;

	prev_eff_load = (int64_t)ss_cpu_load(sim, (unsigned)prev_cpu);
	prev_eff_load -= (int64_t)task_load;
	if (ss_feat(sim->features, SS_FEAT_WA_BIAS))
		prev_eff_load *= 100 + (sd->imbalance_pct - 100) / 2;
	prev_eff_load *= sim->rq[this_cpu].capacity;

	/*
	 * If sync, adjust the weight of prev_eff_load such that if
	 * prev_eff == this_eff that select_idle_sibling() will consider
	 * stacking the wakee on top of the waker if no other CPU is idle.
	 */
	if (sync)
		prev_eff_load += 1;
	return this_eff_load < prev_eff_load ? this_cpu : WA_NONE;
}

/* wake_affine(), fair.c v6.6. */
int ss_wake_affine(struct ss_sim *sim, const struct ss_sched_domain *sd, struct ss_task *p, int this_cpu,
		   int prev_cpu, bool sync)
{
	int target = WA_NONE;
	if (ss_feat(sim->features, SS_FEAT_WA_IDLE))
		target = wake_affine_idle(sim, this_cpu, prev_cpu, sync);
	if (ss_feat(sim->features, SS_FEAT_WA_WEIGHT) && target == WA_NONE)
		target = wake_affine_weight(sim, sd, p, this_cpu, prev_cpu, sync);
	if (target != this_cpu)
		return prev_cpu;
	return target;
}

/* ------------------------------------------------------------ idle cores */

static bool smt_active(const struct ss_sim *sim)
{
	return sim->topo->smt_threads > 1;   /* sched_smt_active() */
}

/* __update_idle_core(), fair.c v6.6: at idle entry. */
void ss_update_idle_core(struct ss_sim *sim, unsigned cpu)
{
	struct ss_sd_shared *sds;
	const uint64_t *smt;
	if (!smt_active(sim))
		return;
	sds = sd_llc_shared(sim, cpu);
	if (sds->has_idle_cores)
		return;
	smt = sim->topo->cpu[cpu].smt_mask;
	for (unsigned c = ss_cpumask_first(smt, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(smt, sim->nr_cpus, c + 1)) {
		if (c == cpu)
			continue;
		if (!ss_available_idle_cpu(sim, c))
			return;
	}
	sds->has_idle_cores = true;
}

/* __select_idle_cpu(), fair.c v6.6 (no SCHED_IDLE tasks, no core cookies). */
static inline int __select_idle_cpu(struct ss_sim *sim, unsigned cpu)
{
	ss_charge_probe(sim, cpu);
	return ss_available_idle_cpu(sim, cpu) ? (int)cpu : -1;
}

/* select_idle_core(), fair.c v6.6. */
static int select_idle_core(struct ss_sim *sim, struct ss_task *p, unsigned core, uint64_t *cpus, int *idle_cpu,
			    unsigned *probes)
{
	bool idle = true;
	const uint64_t *smt;
	if (!smt_active(sim)) {
		(*probes)++;
		return __select_idle_cpu(sim, core);
	}
	smt = sim->topo->cpu[core].smt_mask;
	for (unsigned c = ss_cpumask_first(smt, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(smt, sim->nr_cpus, c + 1)) {
		(*probes)++;
		ss_charge_probe(sim, c);
		if (!ss_available_idle_cpu(sim, c)) {
			idle = false;
			if (*idle_cpu == -1) {
				/* the kernel's "sched_idle_cpu(cpu) && cpumask_test_cpu(cpu, p->cpus_ptr)"
				 * shortcut never applies: no SCHED_IDLE tasks here */
				continue;
			}
			break;
		}
		if (*idle_cpu == -1 && ss_cpumask_test(p->cpus_ptr, c))
			*idle_cpu = (int)c;
	}
	if (idle)
		return (int)core;
	ss_cpumask_andnot(cpus, cpus, smt, sim->nr_words);
	return -1;
}

/* select_idle_smt(), fair.c v6.6: the SMT siblings of target (prev), except itself. */
static int select_idle_smt(struct ss_sim *sim, struct ss_task *p, unsigned target)
{
	const uint64_t *smt = sim->topo->cpu[target].smt_mask;
	for (unsigned c = ss_cpumask_next_and(smt, p->cpus_ptr, sim->nr_cpus, 0); c < sim->nr_cpus;
	     c = ss_cpumask_next_and(smt, p->cpus_ptr, sim->nr_cpus, c + 1)) {
		if (c == target)
			continue;
		ss_charge_probe(sim, c);
		if (ss_available_idle_cpu(sim, c))
			return (int)c;
	}
	return -1;
}

/* ------------------------------------------------------------ select_idle_cpu */

unsigned ss_sis_prop_nr(unsigned span_weight, uint64_t wake_avg_idle, uint64_t avg_scan_cost)
{
	uint64_t avg_cost = avg_scan_cost + 1;
	uint64_t span_avg = (uint64_t)span_weight * wake_avg_idle;
	if (span_avg > 4 * avg_cost) {
		uint64_t nr = span_avg / avg_cost;
		return nr > INT_MAX ? INT_MAX : (unsigned)nr;
	}
	return 4;
}

/*
 * select_idle_cpu(), kernel v6.6 fair.c: scan the LLC of target (∩ allowed)
 * from target + 1, wrapping. SIS_PROP bounds the scan by the waking CPU's
 * wake_avg_idle against its LLC's avg_scan_cost; SIS_UTIL (applied after, so
 * it wins when both are on) by nr_idle_scan + 1 of target's LLC.
 */
int ss_select_idle_cpu(struct ss_sim *sim, struct ss_task *p, const struct ss_sched_domain *sd,
		       bool has_idle_core, int target)
{
	uint64_t *cpus = sim->scratch_mask;
	struct ss_rq *this_rq = &sim->rq[sim->this_cpu];
	struct ss_sd_rt *this_sd_rt = NULL;
	int idle_cpu = -1, i;
	long nr = INT_MAX;
	unsigned probes = 0;
	uint64_t cost0 = sim->scan_cost;
	struct ss_llc_stats *ls = sim->measuring ? &sim->res->llc[sim->topo->cpu[target].llc_index] : NULL;
	struct ss_cpumask_wrap it;
	unsigned cpu;

	if (sim->measuring) {
		sim->res->sic_calls++;
		ls->sic_calls++;
	}
	ss_cpumask_and(cpus, sd->span, p->cpus_ptr, sim->nr_words);
	if (ss_feat(sim->features, SS_FEAT_SIS_CLEAR_TARGET)) {
		/*
		 * seeds/003 (Yicong Yang, 2021): "Clear target from cpus to scan
		 * in select_idle_cpu" — target was already checked by
		 * select_idle_sibling(); the clear is paid on every call.
		 */
		ss_cpumask_clear_cpu(cpus, (unsigned)target);
		sim->scan_cost += sim->params.clear_target_ns;
	}

	if (ss_feat(sim->features, SS_FEAT_SIS_PROP) && !has_idle_core) {
		uint64_t now = ss_jiffies(sim);
		int this_llc = sim->topo->cpu[sim->this_cpu].sd_llc;
		if (this_llc < 0)
			return -1;
		this_sd_rt = &this_rq->sd_rt[this_llc];
		if (this_rq->wake_stamp < now) {
			while (this_rq->wake_stamp < now && this_rq->wake_avg_idle) {
				this_rq->wake_stamp++;
				this_rq->wake_avg_idle >>= 1;
			}
		}
		nr = (long)ss_sis_prop_nr(sd->span_weight, this_rq->wake_avg_idle, this_sd_rt->avg_scan_cost);
	}

	if (ss_feat(sim->features, SS_FEAT_SIS_UTIL_LINEAR) && !has_idle_core) {
		/*
		 * SIS_UTIL RFC v2 (seeds/000): nr = nr_idle_scan replaces the
		 * SIS_PROP budget, no +1, so "if (!--nr)" allows nr - 1 probes.
		 * Before the first LLC balance writes it, nr_idle_scan is 0 and
		 * the decrement never reaches 0: the whole LLC is scanned, as the
		 * patch would.
		 */
		nr = (long)sd_llc_shared(sim, (unsigned)target)->nr_idle_scan;
	}

	if (ss_feat(sim->features, SS_FEAT_SIS_UTIL)) {
		nr = (long)sd_llc_shared(sim, (unsigned)target)->nr_idle_scan + 1;
		/* overloaded LLC is unlikely to have idle cpu/core */
		if (nr == 1) {
			if (sim->measuring)
				sim->res->sic_skipped_nr0++;
			goto out_stats;
		}
	}

	for (cpu = ss_cpumask_wrap_first(&it, cpus, sim->nr_cpus, (unsigned)target + 1); cpu < sim->nr_cpus;
	     cpu = ss_cpumask_wrap_next(&it, cpus, sim->nr_cpus)) {
		if (!ss_cpumask_test(cpus, cpu))   /* siblings removed by select_idle_core() */
			continue;
		if (has_idle_core) {
			i = select_idle_core(sim, p, cpu, cpus, &idle_cpu, &probes);
			if (i >= 0) {
				idle_cpu = i;
				goto out_found;
			}
		} else {
			if (!--nr) {   /* long: from 0 it goes negative and never stops the scan */
				if (sim->measuring)
					sim->res->sic_nr_exhausted++;
				idle_cpu = -1;
				goto out_stats;   /* no scan-cost update on this exit */
			}
			probes++;
			idle_cpu = __select_idle_cpu(sim, cpu);
			if (idle_cpu >= 0)
				break;
		}
	}
	if (has_idle_core)
		sd_llc_shared(sim, (unsigned)target)->has_idle_cores = false;   /* set_idle_cores(target, 0) */

	if (ss_feat(sim->features, SS_FEAT_SIS_PROP) && this_sd_rt && !has_idle_core) {
		uint64_t time = sim->scan_cost - cost0;   /* cpu_clock(this) - time: the simulated scan */
		this_rq->wake_avg_idle -= this_rq->wake_avg_idle < time ? this_rq->wake_avg_idle : time;
		ss_update_avg(&this_sd_rt->avg_scan_cost, time);
	}
	goto out_stats;
out_found:
out_stats:
	if (sim->measuring) {
		sim->res->sic_probes += probes;
		ls->sic_probes += probes;
		if (idle_cpu >= 0) {
			sim->res->sic_found++;
			ls->sic_found++;
		}
		ss_log2_hist_add(&sim->res->sic_time, sim->scan_cost - cost0);
		ss_log2_hist_add(&sim->res->sic_probes_hist, probes);
	}
	return idle_cpu;
}

/* ------------------------------------------------------------ select_idle_sibling */

static inline int sis_return(struct ss_sim *sim, enum ss_sis_outcome o, int cpu)
{
	if (sim->measuring)
		sim->res->sis_outcome[o]++;
	return cpu;
}

/* select_idle_sibling(), kernel v6.6 fair.c, symmetric capacity. */
int ss_select_idle_sibling(struct ss_sim *sim, struct ss_task *p, int prev, int target)
{
	const struct ss_topology *t = sim->topo;
	const struct ss_sched_domain *sd;
	bool has_idle_core = false;
	int i, recent_used_cpu;

	if (sim->measuring)
		sim->res->sis_calls++;

	ss_charge_probe(sim, (unsigned)target);
	if (ss_available_idle_cpu(sim, (unsigned)target))
		return sis_return(sim, SS_SIS_TARGET, target);

	/* If the previous CPU is cache affine and idle, don't be stupid. */
	if (prev != target && ss_cpus_share_cache(t, (unsigned)prev, (unsigned)target)) {
		ss_charge_probe(sim, (unsigned)prev);
		if (ss_available_idle_cpu(sim, (unsigned)prev))
			return sis_return(sim, SS_SIS_PREV, prev);
	}
	/* (the per-CPU-kthread stacking shortcut never applies: wakers here are user tasks) */

	/* Check a recently used CPU as a potential idle candidate. */
	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent_used_cpu != prev && recent_used_cpu != target &&
	    ss_cpus_share_cache(t, (unsigned)recent_used_cpu, (unsigned)target)) {
		ss_charge_probe(sim, (unsigned)recent_used_cpu);
		if (ss_available_idle_cpu(sim, (unsigned)recent_used_cpu) &&
		    ss_cpumask_test(p->cpus_ptr, (unsigned)recent_used_cpu))
			return sis_return(sim, SS_SIS_RECENT, recent_used_cpu);
	}

	sd = sd_llc(sim, (unsigned)target);
	if (!sd)
		return sis_return(sim, SS_SIS_FALLBACK, target);

	if (smt_active(sim)) {
		has_idle_core = sd_llc_shared(sim, (unsigned)target)->has_idle_cores;   /* test_idle_cores() */
		if (!has_idle_core && ss_cpus_share_cache(t, (unsigned)prev, (unsigned)target)) {
			i = select_idle_smt(sim, p, (unsigned)prev);
			if (i >= 0)
				return sis_return(sim, SS_SIS_SMT, i);
		}
	}

	i = ss_select_idle_cpu(sim, p, sd, has_idle_core, target);
	if (i >= 0)
		return sis_return(sim, SS_SIS_IDLE_CPU, i);
	return sis_return(sim, SS_SIS_FALLBACK, target);
}

/* ------------------------------------------------------------ select_task_rq_fair */

/*
 * select_task_rq_fair(), kernel v6.6 fair.c. The waking CPU is
 * sim->this_cpu and the waker sim->current. SD_BALANCE_WAKE is never set
 * (sd_init), so a wakeup (WF_TTWU) takes the fast path; a fork (WF_FORK =
 * SD_BALANCE_FORK: "SD_flags and WF_flags share the first nibble") walks up
 * to the highest SD_BALANCE_FORK domain and takes the slow path,
 * find_idlest_cpu() (fork.c).
 */
int ss_select_task_rq_fair(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[sim->this_cpu];
	const struct ss_sched_domain *sd = NULL;
	bool sync = (wake_flags & WF_SYNC) && sim->current;
	int cpu = (int)sim->this_cpu;
	int new_cpu = prev_cpu;
	bool want_affine = false;
	int sd_flag = wake_flags & 0xF;

	if (wake_flags & WF_TTWU) {
		ss_record_wakee(sim, p);
		want_affine = !ss_wake_wide(sim, p) && ss_cpumask_test(p->cpus_ptr, (unsigned)cpu);
	}
	for (unsigned l = 0; l < ct->nr_sd; l++) {
		const struct ss_sched_domain *tmp = &ct->sd[l];
		/* If both 'cpu' and 'prev_cpu' are part of this domain, cpu is a valid SD_WAKE_AFFINE target. */
		if (want_affine && (tmp->flags & SD_WAKE_AFFINE) && ss_cpumask_test(tmp->span, (unsigned)prev_cpu)) {
			if (cpu != prev_cpu)
				new_cpu = ss_wake_affine(sim, tmp, p, cpu, prev_cpu, sync);
			sd = NULL;   /* prefer wake_affine over balance flags */
			break;
		}
		if (tmp->flags & (unsigned)sd_flag)
			sd = tmp;
		else if (!want_affine)
			break;
	}
	if (sd)   /* slow path */
		return ss_find_idlest_cpu(sim, sd, p, cpu, prev_cpu, sd_flag);
	if (wake_flags & WF_TTWU)   /* fast path */
		return ss_select_idle_sibling(sim, p, prev_cpu, new_cpu);
	return new_cpu;
}

/* ------------------------------------------------------------ SIS_UTIL writer */

unsigned ss_sis_util_nr_idle_scan(unsigned llc_size, uint64_t sum_util, unsigned imbalance_pct)
{
	/*
	 * update_idle_cpu_scan(), kernel v6.6 fair.c:
	 *   x = sum_util / llc_size
	 *   f(x) = 1024 - min(1024, x^2 * pct^2 / (10000 * 1024))
	 *   nr = f(x) * llc_size / 1024
	 */
	uint64_t x = sum_util / llc_size;
	uint64_t pct = imbalance_pct;
	uint64_t tmp = x * x * pct * pct;
	tmp /= 10000 * SS_SCHED_CAPACITY_SCALE;
	if (tmp > SS_SCHED_CAPACITY_SCALE)
		tmp = SS_SCHED_CAPACITY_SCALE;
	tmp = SS_SCHED_CAPACITY_SCALE - tmp;
	return (unsigned)((tmp * llc_size) / SS_SCHED_CAPACITY_SCALE);
}

unsigned ss_sis_util_linear_nr(unsigned llc_size, uint64_t sum_util, uint64_t total_capacity)
{
	/*
	 * update_nr_idle_scan(), SIS_UTIL RFC v2 (Chen Yu, LKML 2022-03-10):
	 *   nr_scan = llc_size - (llc_size - 4) * 2 * sum_util / total_capacity
	 * evaluated left to right, floored at 4.
	 */
	int64_t nr = (int64_t)llc_size;
	if (total_capacity)
		nr -= (int64_t)(((uint64_t)(llc_size > 4 ? llc_size - 4 : 0) * 2 * sum_util) / total_capacity);
	return nr < 4 ? 4 : (unsigned)nr;
}

/*
 * update_idle_cpu_scan(), kernel v6.6 fair.c (SIS_UTIL, quadratic), and the
 * linear writer of the RFC v2 (SIS_UTIL_LINEAR) at the same place with the
 * same guards: periodic or NOHZ balance only (not newidle), only when the
 * domain is the LLC. Both write sd_llc_shared->nr_idle_scan, so the two
 * features exclude each other (checked at the start of a run).
 */
void ss_update_idle_cpu_scan(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			     enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[dst_cpu];
	bool quadratic = ss_feat(sim->features, SS_FEAT_SIS_UTIL);
	bool linear = ss_feat(sim->features, SS_FEAT_SIS_UTIL_LINEAR);
	if (!(quadratic || linear) || idle == CPU_NEWLY_IDLE)
		return;
	if (sd->span_weight != ct->llc_size || ct->sd_llc < 0)
		return;
	ss_set_nr_idle_scan(sim, ct->llc_index,
			    quadratic ? ss_sis_util_nr_idle_scan(ct->llc_size, sum_util, sd->imbalance_pct)
				      : ss_sis_util_linear_nr(ct->llc_size, sum_util, total_capacity));
}

/*
 * Wake placement: the shared steps of kernel v6.6 kernel/sched/fair.c —
 * select_task_rq_fair() (wakeup path), record_wakee(), wake_wide(),
 * wake_affine() (WA_IDLE, WA_WEIGHT, WA_BIAS), select_idle_sibling(),
 * select_idle_smt(), select_idle_core(), select_idle_cpu() with SIS_PROP and
 * SIS_UTIL, __update_idle_core(), update_idle_cpu_scan(); on asymmetric-
 * capacity machines select_idle_capacity(), asym_fits_cpu(), util_fits_cpu().
 * Energy-aware placement (find_energy_efficient_cpu) is not modelled.
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
	ss_llc_line_write(sim, sim->topo->cpu[cpu].llc_index, cpu);   /* set_idle_cores(cpu, 1): WRITE_ONCE on sd_llc_shared */
}

/* __select_idle_cpu(), fair.c v6.6 (no SCHED_IDLE tasks, no core cookies). */
static inline __attribute__((always_inline)) int __select_idle_cpu(struct ss_sim *sim, unsigned cpu)
{
	ss_charge_probe(sim, cpu);
	return ss_available_idle_cpu(sim, cpu) ? (int)cpu : -1;
}

/*
 * The idle-CPU walk of select_idle_cpu() (its loop without an idle core)
 * when every probe is ss_charge_probe()'s common case: cost.coherence on,
 * the distances by ids (sim->c2c_id), no trace and no constructed state.
 * The same probes in the same order, the same costs and figures: each
 * probe is ss_cline_read() of the rq's line (ss_sched.h) with
 * probe_self_ns or line_cached_ns as the hit cost, added to the scan cost,
 * then __select_idle_cpu()'s idle test — with what those read of the
 * simulation that the walk does not change in locals, so that the stores
 * into the figures between probes do not make the compiler load it again.
 * Walks the set bits of cpus in [start, nr_cpus) then [0, start); returns
 * the CPU found idle, -1 if the walk ran out of CPUs, -2 if the budget
 * *nr ran out ("if (!--nr)"); *nr and *probes as the walk leaves them.
 */
static int select_idle_cpu_walk_coherent(struct ss_sim *sim, const uint64_t *cpus, unsigned start, long *nr,
					 unsigned *probes)
{
	const unsigned me = sim->this_cpu, mw = me / 64, nr_cpus = sim->nr_cpus;
	const uint64_t mbit = UINT64_C(1) << (me % 64), now = sim->now;
	const struct ss_params *pr = &sim->params;
	const uint64_t self_ns = pr->probe_self_ns, cached_ns = pr->line_cached_ns, smt_ns = pr->probe_smt_ns,
		       cluster_ns = pr->probe_cluster_ns, llc_ns = pr->probe_llc_ns,
		       package_ns = pr->probe_package_ns, remote_ns = pr->probe_remote_ns;
	const bool line_queue = pr->line_queue != 0;
	const struct ss_c2c_id *ids = sim->c2c_id, mine = sim->c2c_id[me];
	struct ss_cline *cl = sim->cl_rq;
	struct ss_results *res = sim->measuring ? sim->res : NULL;
	uint64_t scan_cost = sim->scan_cost;
	long left = *nr;
	unsigned n = *probes;
	int found = -1;
	unsigned seg_lo[2] = { start, 0 }, seg_hi[2] = { nr_cpus, start };

	for (unsigned sg = 0; sg < 2; sg++) {
		unsigned lo = seg_lo[sg], hi = seg_hi[sg];
		for (unsigned w = lo / 64; w * 64 < hi; w++) {
			uint64_t word = cpus[w];
			if (w == lo / 64)
				word &= ~UINT64_C(0) << (lo % 64);
			if (hi - w * 64 < 64)
				word &= (UINT64_C(1) << (hi - w * 64)) - 1;
			for (; word; word &= word - 1) {
				unsigned cpu = w * 64 + (unsigned)__builtin_ctzll(word);
				struct ss_cline *l = &cl[cpu];
				uint64_t c;

				if (!--left) {   /* long: from 0 it goes negative and never stops the scan */
					found = -2;
					goto out;
				}
				n++;
				/* ss_charge_probe(sim, cpu): ss_cline_read() */
				if (res)
					res->contention.line_reads++;
				if (l->sharers[mw] & mbit) {
					if (res)
						res->contention.line_hits++;
					c = cpu == me ? self_ns : cached_ns;
				} else {
					const struct ss_c2c_id *y = &ids[l->writer];
					uint64_t lat, wait = 0;
					/* ss_c2c_of(me, writer) */
					if (l->writer == me)
						lat = self_ns;
					else if (mine.smt == y->smt)
						lat = smt_ns;
					else if (mine.cluster == y->cluster)
						lat = cluster_ns;
					else if (mine.llc == y->llc)
						lat = llc_ns;
					else if (mine.package == y->package)
						lat = package_ns;
					else
						lat = remote_ns;
					if (line_queue)   /* the home's FIFO (ss_cline_queue) */
						wait = ss_cline_queue(l, now + scan_cost, lat);
					l->sharers[mw] |= mbit;
					if (res) {
						res->contention.line_transfer_ns += lat;
						if (wait) {
							res->contention.line_queued++;
							res->contention.line_queue_ns += wait;
						}
					}
					c = lat + wait;
				}
				scan_cost += c;
				if (res) {
					res->sis_probes_total++;
					res->cpu[cpu].probed++;
				}
				/* __select_idle_cpu(): available_idle_cpu() */
				if (ss_available_idle_cpu(sim, cpu)) {
					found = (int)cpu;
					goto out;
				}
			}
		}
	}
out:
	sim->scan_cost = scan_cost;
	*nr = left;
	*probes = n;
	return found;
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

/* ------------------------------------------------------------ select_idle_cpu figures */

/*
 * The select_idle_cpu figures (select_idle_cpu.* in docs/output.md: calls,
 * rqs_probed, found_idle, budget_exhausted, time per call, probes per call)
 * are counted here, by a frame around every domain search, and not by the
 * code of one scan: the built-in select_idle_cpu() and
 * select_idle_capacity(), a plugin's scan passed to
 * ss_select_idle_sibling_scan() and ss_select_idle_cpu_nr() each open one.
 * Only the outermost frame counts, so a plugin's scan that walks two masks
 * with ss_select_idle_cpu_nr() is one call. Its probes are the runqueues
 * charged (ss_charge_probe()) while it was open, its time the scan cost
 * charged meanwhile, its answer the outermost one.
 *
 * Its kind (the time per call by walk kind): an idle-core walk if any walk
 * in the frame went core by core — select_idle_cpu() with has_idle_core,
 * ss_select_idle_cpu_nr() passed has_idle_core, ss_select_idle_core()
 * called in a plugin's scan — else an idle-CPU walk (the one SIS_PROP and
 * SIS_UTIL bound; select_idle_capacity() too). A plugin's scan is told
 * has_idle_core but counts as the walk it makes. The hot path pays one
 * histogram add and one add for the kind, and one histogram add for the
 * time in µs (sic_time_us); the all-calls histogram sic_time is the sum of
 * the two kinds', made at the end of the run (ss_sic_time_merge()).
 */
static inline void sic_enter(struct ss_sim *sim)
{
	if (sim->sic_depth++)
		return;
	sim->sic_budget_stop = false;
	sim->sic_core = false;
	sim->sic_budget_k = SS_SIC_BUDGET_UNSET;
	if (sim->measuring) {
		sim->sic_probes0 = sim->res->sis_probes_total;
		sim->sic_cost0 = sim->scan_cost;
	}
}

/* ss_log2_hist_add() (stats.c) inlined for the three histograms every call adds to */
static inline void sic_hist_add(struct ss_log2_hist *h, uint64_t v)
{
	h->count[v ? 64 - __builtin_clzll(v) : 0]++;
	h->n++;
	h->sum += v;
}

/* Close a frame opened for target's LLC; returns cpu, the search's answer (-1: none). Inlined at each
 * search as it was before the split by kind made it big enough for the compiler to call it. */
static inline __attribute__((always_inline)) int sic_exit(struct ss_sim *sim, int target, int cpu)
{
	struct ss_results *r = sim->res;
	struct ss_llc_stats *ls;
	uint64_t probes, time;
	unsigned k;

	if (--sim->sic_depth || !sim->measuring)
		return cpu;
	ls = &r->llc[sim->topo->cpu[target].llc_index];
	probes = r->sis_probes_total - sim->sic_probes0;
	r->sic_calls++;
	ls->sic_calls++;
	r->sic_probes += probes;
	ls->sic_probes += probes;
	/* by the budget in force: a fixed array, the last two buckets "SS_SIC_BUDGET_MAX or more" and unlimited */
	k = sim->sic_budget_k;
	if (k == SS_SIC_BUDGET_UNSET)   /* no walk with a budget: one that probed nothing had none to spend */
		k = probes ? SS_SIC_BUDGET_MAX + 1 : 0;
	r->sic_budget_calls[k]++;
	if (cpu >= 0) {
		r->sic_found++;
		ls->sic_found++;
		r->sic_budget_found[k]++;
	} else if (sim->sic_budget_stop) {
		r->sic_nr_exhausted++;
	}
	time = sim->scan_cost - sim->sic_cost0;
	sic_hist_add(sim->sic_core ? &r->sic_time_core : &r->sic_time_cpu, time);
	*(sim->sic_core ? &r->sic_probes_core : &r->sic_probes_cpu) += probes;
	sic_hist_add(&r->sic_time_us, time / 1000);   /* bpftrace's hist(nsecs / 1000) */
	sic_hist_add(&r->sic_probes_hist, probes);
	return cpu;
}

void ss_sic_time_merge(struct ss_results *r)
{
	for (unsigned i = 0; i < SS_LOG2_BUCKETS; i++)
		r->sic_time.count[i] = r->sic_time_core.count[i] + r->sic_time_cpu.count[i];
	r->sic_time.n = r->sic_time_core.n + r->sic_time_cpu.n;
	r->sic_time.sum = r->sic_time_core.sum + r->sic_time_cpu.sum;
}

/*
 * The trace line of a plugin's domain search (its scan given to
 * ss_select_idle_sibling_scan(), or ss_select_idle_cpu_nr() called on its
 * own): the built-in searches write theirs themselves. nr is the budget it
 * started with (-1: none); stop is found, budget (a walk ended on its
 * budget with CPUs left) or none.
 */
struct sic_trace {
	unsigned probes0;
	uint64_t cost0;
	long nr;
};

static inline void sic_trace_begin(const struct ss_sim *sim, struct sic_trace *tr, long nr)
{
	if (!ss_tracing(sim))
		return;
	tr->probes0 = ss_ft_nr_probes(sim);
	tr->cost0 = sim->scan_cost;
	tr->nr = nr;
}

static inline void sic_trace_end(struct ss_sim *sim, const struct sic_trace *tr, struct ss_task *p, int target,
				 bool has_idle_core, int cpu)
{
	if (!ss_tracing(sim))
		return;
	ss_ft_select_idle_cpu(sim, p, "select_idle_cpu", target, has_idle_core, tr->nr,
			      ss_ft_nr_probes(sim) - tr->probes0, cpu,
			      cpu >= 0 ? "found" : sim->sic_budget_stop ? "budget" : "none",
			      sim->scan_cost - tr->cost0);
}

/*
 * The budget of the search open now, for the by-budget figures: the most
 * CPUs its walk may probe (-1: unlimited). The first walk of a frame that
 * has a budget sets it; a frame none sets counts as unlimited if it probed
 * a runqueue, else as budget 0 (a plugin's search that gave up at once, as
 * SIS_UTIL's with nr_idle_scan 0).
 */
static inline void sic_set_budget(struct ss_sim *sim, long budget)
{
	if (sim->sic_budget_k == SS_SIC_BUDGET_UNSET)
		sim->sic_budget_k = budget < 0 ? SS_SIC_BUDGET_MAX + 1
				  : budget >= SS_SIC_BUDGET_MAX ? SS_SIC_BUDGET_MAX : (unsigned)budget;
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
	struct ss_cpumask_wrap it;
	unsigned cpu;

	sim->scan_walked_all = false;
	sic_enter(sim);
	if (has_idle_core)
		sim->sic_core = true;   /* the frame's kind: the idle-core walk */
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

	if (sim->params.sis_nr_fixed && !has_idle_core) {
		/*
		 * --set sis.nr_fixed=K (a simulator knob, no kernel equivalent):
		 * K probes, in place of the SIS_PROP / SIS_UTIL budget; the
		 * "if (!--nr)" below then stops before probe K + 1.
		 */
		nr = (long)sim->params.sis_nr_fixed + 1;
		goto walk;
	}

	if (ss_feat(sim->features, SS_FEAT_SIS_PROP) && !has_idle_core) {
		uint64_t now = ss_jiffies(sim);
		int this_llc = sim->topo->cpu[sim->this_cpu].sd_llc;
		if (this_llc < 0)
			return sic_exit(sim, target, -1);
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
		ss_charge_llc_shared(sim, (unsigned)target);   /* READ_ONCE(sd_share->nr_idle_scan) */
		nr = (long)sd_llc_shared(sim, (unsigned)target)->nr_idle_scan;
	}

	if (ss_feat(sim->features, SS_FEAT_SIS_UTIL)) {
		ss_charge_llc_shared(sim, (unsigned)target);   /* READ_ONCE(sd_share->nr_idle_scan) */
		nr = (long)sd_llc_shared(sim, (unsigned)target)->nr_idle_scan + 1;
		/* overloaded LLC is unlikely to have idle cpu/core */
		if (nr == 1) {
			if (sim->measuring)
				sim->res->sic_skipped_nr0++;
			sic_set_budget(sim, 0);
			goto out_stats;
		}
	}

walk:
	/* the budget in force: "if (!--nr)" allows nr - 1 probes; from INT_MAX or from 0 it never stops the walk */
	sic_set_budget(sim, has_idle_core || nr <= 0 || nr == INT_MAX ? -1 : nr - 1);
	if (has_idle_core) {
		for (cpu = ss_cpumask_wrap_first(&it, cpus, sim->nr_cpus, (unsigned)target + 1); cpu < sim->nr_cpus;
		     cpu = ss_cpumask_wrap_next(&it, cpus, sim->nr_cpus)) {
			if (!ss_cpumask_test(cpus, cpu))   /* siblings removed by select_idle_core() */
				continue;
			i = select_idle_core(sim, p, cpu, cpus, &idle_cpu, &probes);
			if (i >= 0) {
				idle_cpu = i;
				goto out_found;
			}
		}
	} else {
		/*
		 * for_each_cpu_wrap(cpu, cpus, target + 1) as above, a word at a
		 * time: this walk does not change cpus, so the order is that of
		 * the set bits of [start, nr_cpus), then of [0, start).
		 */
		unsigned start = (unsigned)target + 1 < sim->nr_cpus ? (unsigned)target + 1 : 0;
		unsigned seg_lo[2] = { start, 0 }, seg_hi[2] = { sim->nr_cpus, start };
		if (sim->coherence && sim->c2c_id && !ss_tracing(sim) && !sim->state_ext) {
			idle_cpu = select_idle_cpu_walk_coherent(sim, cpus, start, &nr, &probes);
			if (idle_cpu == -2) {
				sim->sic_budget_stop = true;
				idle_cpu = -1;
				goto out_stats;   /* no scan-cost update on this exit */
			}
			goto walked;
		}
		for (unsigned sg = 0; sg < 2; sg++) {
			unsigned lo = seg_lo[sg], hi = seg_hi[sg];
			for (unsigned w = lo / 64; w * 64 < hi; w++) {
				uint64_t word = cpus[w];
				if (w == lo / 64)
					word &= ~UINT64_C(0) << (lo % 64);
				if (hi - w * 64 < 64)
					word &= (UINT64_C(1) << (hi - w * 64)) - 1;
				for (; word; word &= word - 1) {
					cpu = w * 64 + (unsigned)__builtin_ctzll(word);
					if (!--nr) {   /* long: from 0 it goes negative and never stops the scan */
						sim->sic_budget_stop = true;
						idle_cpu = -1;
						goto out_stats;   /* no scan-cost update on this exit */
					}
					probes++;
					idle_cpu = __select_idle_cpu(sim, cpu);
					if (idle_cpu >= 0)
						goto walked;
				}
			}
		}
	}
walked:
	/* the walk ran out of CPUs: every CPU of the mask was visited (a found core returned above) */
	sim->scan_walked_all = idle_cpu < 0;
	if (has_idle_core) {
		sd_llc_shared(sim, (unsigned)target)->has_idle_cores = false;   /* set_idle_cores(target, 0) */
		ss_llc_line_write(sim, sim->topo->cpu[target].llc_index, sim->this_cpu);
	}

	if (ss_feat(sim->features, SS_FEAT_SIS_PROP) && this_sd_rt && !has_idle_core) {
		uint64_t time = sim->scan_cost - cost0;   /* cpu_clock(this) - time: the simulated scan */
		this_rq->wake_avg_idle -= this_rq->wake_avg_idle < time ? this_rq->wake_avg_idle : time;
		ss_update_avg(&this_sd_rt->avg_scan_cost, time);
	}
	goto out_stats;
out_found:
out_stats:
	if (ss_tracing(sim))
		ss_ft_sic(sim, p, target, has_idle_core, nr, probes, idle_cpu, sim->scan_cost - cost0);
	return sic_exit(sim, target, idle_cpu);
}

/* ------------------------------------------------------------ asymmetric CPU capacity */

/* fits_capacity(), fair.c v6.6: util fits with a 20% margin (1280/1024). */
static inline bool fits_capacity(unsigned long cap, unsigned long max)
{
	return cap * 1280 < max * 1024;
}

/*
 * util_fits_cpu(), kernel v6.6 fair.c: 1 = fits, 0 = does not, -1 = util
 * fits but uclamp_min asks for more than the CPU can give. capacity_of() is
 * rq->capacity and no thermal pressure is modelled, so capacity_orig_thermal
 * = capacity_orig = arch capacity. uclamp_is_used() (the sched_uclamp_used
 * key) is false while every clamp has its default (0, 1024), which is all
 * this model's tasks have: then only fits_capacity() decides.
 */
int ss_util_fits_cpu(struct ss_sim *sim, unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
		     unsigned cpu)
{
	unsigned long capacity_orig, capacity_orig_thermal;
	unsigned long capacity = sim->rq[cpu].capacity;
	bool fits, uclamp_max_fits;

	/* Check if the real util fits without any uclamp boost/cap applied. */
	fits = fits_capacity(util, capacity);
	if (uclamp_min == 0 && uclamp_max == SS_SCHED_CAPACITY_SCALE)   /* !uclamp_is_used() */
		return fits;

	capacity_orig = sim->topo->cpu[cpu].capacity;   /* capacity_orig_of() */
	capacity_orig_thermal = capacity_orig;          /* - arch_scale_thermal_pressure(): none */
	/*
	 * We want to force a task to fit a cpu as implied by uclamp_max, except
	 * on the biggest CPUs where uclamp_max = 1024 means "no cap".
	 */
	uclamp_max_fits = (capacity_orig == SS_SCHED_CAPACITY_SCALE) && (uclamp_max == SS_SCHED_CAPACITY_SCALE);
	uclamp_max_fits = !uclamp_max_fits && (uclamp_max <= capacity_orig);
	fits = fits || uclamp_max_fits;
	/* uclamp_min > uclamp_max: uclamp_max wins */
	if (uclamp_min > uclamp_max)
		uclamp_min = uclamp_max;
	if (fits && (util < uclamp_min) && (uclamp_min > capacity_orig_thermal))
		return -1;
	return fits;
}

/* asym_fits_cpu(), fair.c v6.6: true on symmetric machines, else util_fits_cpu() > 0. */
static inline bool asym_fits_cpu(struct ss_sim *sim, unsigned long util, unsigned long util_min,
				 unsigned long util_max, unsigned cpu)
{
	if (sim->topo->asym_cpucap_active)
		return ss_util_fits_cpu(sim, util, util_min, util_max, cpu) > 0;
	return true;
}

/*
 * select_idle_capacity(), kernel v6.6 fair.c: scan the sd_asym_cpucapacity
 * domain of target (∩ allowed) from target itself, wrapping; return the
 * first idle CPU the task fits, else the idle CPU that fits best (-1 before
 * 0), at equal fit the one with the largest capacity; -1 if none is idle.
 * Every CPU looked at is a probe, charged and counted as select_idle_cpu's.
 */
int ss_select_idle_capacity(struct ss_sim *sim, struct ss_task *p, const struct ss_sched_domain *sd, int target)
{
	unsigned long task_util, util_min, util_max, best_cap = 0;
	int fits, best_fits = 0;
	int cpu_found = -1, best_cpu = -1;
	uint64_t *cpus = sim->scratch_mask;
	unsigned probes = 0;              /* for the trace line */
	uint64_t cost0 = sim->scan_cost;
	struct ss_cpumask_wrap it;
	unsigned cpu;

	sic_enter(sim);
	ss_cpumask_and(cpus, sd->span, p->cpus_ptr, sim->nr_words);
	task_util = ss_task_util_est(&p->avg);
	util_min = 0;                          /* uclamp_eff_value(p, UCLAMP_MIN): default */
	util_max = SS_SCHED_CAPACITY_SCALE;    /* uclamp_eff_value(p, UCLAMP_MAX): default */

	for (cpu = ss_cpumask_wrap_first(&it, cpus, sim->nr_cpus, (unsigned)target); cpu < sim->nr_cpus;
	     cpu = ss_cpumask_wrap_next(&it, cpus, sim->nr_cpus)) {
		unsigned long cpu_cap = sim->rq[cpu].capacity;   /* capacity_of() */

		probes++;
		ss_charge_probe(sim, cpu);
		if (!ss_available_idle_cpu(sim, cpu))   /* no SCHED_IDLE tasks: sched_idle_cpu() is false */
			continue;
		fits = ss_util_fits_cpu(sim, task_util, util_min, util_max, cpu);
		/* This CPU fits with all requirements */
		if (fits > 0) {
			cpu_found = (int)cpu;
			break;
		}
		/* Only the min performance hint (uclamp_min) doesn't fit: capacity_orig - thermal */
		else if (fits < 0)
			cpu_cap = sim->topo->cpu[cpu].capacity;
		/* First, select CPU which fits better (-1 being better than 0), then the best capacity. */
		if ((fits < best_fits) || ((fits == best_fits) && (cpu_cap > best_cap))) {
			best_cap = cpu_cap;
			best_cpu = (int)cpu;
			best_fits = fits;
		}
	}
	if (cpu_found < 0)
		cpu_found = best_cpu;
	if (ss_tracing(sim))
		ss_ft_select_idle_cpu(sim, p, "select_idle_capacity", target, false, -1, probes, cpu_found,
				      cpu_found >= 0 ? "found" : "walked_all", sim->scan_cost - cost0);
	return sic_exit(sim, target, cpu_found);
}

/* ------------------------------------------------------------ select_idle_sibling */

/*
 * The scan statistics of select_idle_sibling() (docs/output.md), counted by
 * target's LLC and in total, in the terms of the SIS schedstats used on LKML
 * (Mel Gorman, "sched/fair: Track efficiency of select_idle_sibling", 2020,
 * and mmtests): calls, fast-path answers, domain searches, runqueues
 * scanned, failures. Counters only: a handful of increments per call.
 */
struct sis_acct {
	uint64_t scanned0, domain0;   /* sis_probes_total at entry / at the domain search */
	bool domain;
};

static int sis_done(struct ss_sim *sim, struct ss_task *p, int target, const struct sis_acct *a,
		    enum ss_sis_outcome o, int cpu)
{
	struct ss_results *r = sim->res;
	struct ss_sis_stats *t, *l;
	uint64_t scanned;
	if (ss_tracing(sim))
		ss_ft_sis_done(sim, p, (int)o, cpu);
	if (!sim->measuring)
		return cpu;
	t = &r->sis;
	l = &r->llc[sim->topo->cpu[target].llc_index].sis;
	scanned = r->sis_probes_total - a->scanned0;
	r->sis_outcome[o]++;
	t->calls++;
	l->calls++;
	t->scanned += scanned;
	l->scanned += scanned;
	if (o == SS_SIS_TARGET || o == SS_SIS_PREV || o == SS_SIS_RECENT) {
		t->fast++;
		l->fast++;
	}
	if (a->domain) {
		uint64_t d = r->sis_probes_total - a->domain0;
		t->domain_searches++;
		l->domain_searches++;
		t->domain_scanned += d;
		l->domain_scanned += d;
	}
	/* failure: the answer is a CPU that is not idle (the wakee will queue) */
	if (!ss_available_idle_cpu(sim, (unsigned)cpu)) {
		t->failed++;
		l->failed++;
		if (a->domain) {
			t->domain_failed++;
			l->domain_failed++;
		}
		if (a->domain && sim->scan_walked_all) {
			t->walked_all++;
			l->walked_all++;
		}
	}
	ss_log2_hist_add(&r->sis_scanned_hist, scanned);
	return cpu;
}

/*
 * select_idle_sibling(), kernel v6.6 fair.c. On an asymmetric-capacity
 * machine (sched_asym_cpucap_active()) the target/prev/recent shortcuts also
 * need the task to fit (asym_fits_cpu()) and the scan is
 * select_idle_capacity() over sd_asym_cpucapacity instead of the LLC.
 */
int ss_select_idle_sibling(struct ss_sim *sim, struct ss_task *p, int prev, int target)
{
	return ss_select_idle_sibling_scan(sim, p, prev, target, NULL);
}

/*
 * select_idle_sibling() (kernel v6.6 fair.c, symmetric capacity) with the
 * domain search replaceable: scan == NULL is v6.6's select_idle_cpu().
 */
int ss_select_idle_sibling_scan(struct ss_sim *sim, struct ss_task *p, int prev, int target,
				ss_select_idle_cpu_fn scan)
{
	const struct ss_topology *t = sim->topo;
	const struct ss_sched_domain *sd;
	bool has_idle_core = false;
	int i, recent_used_cpu;
	unsigned long task_util = 0, util_min = 0, util_max = SS_SCHED_CAPACITY_SCALE;
	struct sis_acct a = { 0 };

	if (ss_tracing(sim))
		ss_ft_sis_enter(sim, p, prev, target);
	if (sim->measuring) {
		sim->res->sis_calls++;
		a.scanned0 = sim->res->sis_probes_total;
	}

	/*
	 * On asymmetric system, update task utilization because we will check
	 * that the task fits with cpu's capacity.
	 */
	if (t->asym_cpucap_active) {
		/* sync_entity_load_avg(&p->se): to task_cpu(p)'s cfs_rq last_update_time */
		ss___update_load_avg_blocked_se(sim->rq[p->cpu].cfs_avg.avg.last_update_time, &p->avg, p->se.weight);
		task_util = ss_task_util_est(&p->avg);
		/* uclamp_eff_value(p, UCLAMP_MIN/MAX): the defaults 0 and 1024 */
	}

	ss_charge_probe(sim, (unsigned)target);
	if (ss_available_idle_cpu(sim, (unsigned)target) &&
	    asym_fits_cpu(sim, task_util, util_min, util_max, (unsigned)target))
		return sis_done(sim, p, target, &a, SS_SIS_TARGET, target);

	/* If the previous CPU is cache affine and idle, don't be stupid. */
	if (prev != target && ss_cpus_share_cache(t, (unsigned)prev, (unsigned)target)) {
		ss_charge_probe(sim, (unsigned)prev);
		if (ss_available_idle_cpu(sim, (unsigned)prev) &&
		    asym_fits_cpu(sim, task_util, util_min, util_max, (unsigned)prev))
			return sis_done(sim, p, target, &a, SS_SIS_PREV, prev);
	}
	/* (the per-CPU-kthread stacking shortcut never applies: wakers here are user tasks) */

	/* Check a recently used CPU as a potential idle candidate. */
	recent_used_cpu = p->recent_used_cpu;
	p->recent_used_cpu = prev;
	if (recent_used_cpu != prev && recent_used_cpu != target &&
	    ss_cpus_share_cache(t, (unsigned)recent_used_cpu, (unsigned)target)) {
		ss_charge_probe(sim, (unsigned)recent_used_cpu);
		if (ss_available_idle_cpu(sim, (unsigned)recent_used_cpu) &&
		    ss_cpumask_test(p->cpus_ptr, (unsigned)recent_used_cpu) &&
		    asym_fits_cpu(sim, task_util, util_min, util_max, (unsigned)recent_used_cpu))
			return sis_done(sim, p, target, &a, SS_SIS_RECENT, recent_used_cpu);
	}

	/*
	 * For asymmetric CPU capacity systems, our domain of interest is
	 * sd_asym_cpucapacity rather than sd_llc. CPUs without such a domain
	 * (a symmetric island) take the usual path.
	 */
	if (t->asym_cpucap_active && t->cpu[target].sd_asym_cpucapacity >= 0) {
		sd = &t->cpu[target].sd[t->cpu[target].sd_asym_cpucapacity];
		a.domain = true;
		if (sim->measuring)
			a.domain0 = sim->res->sis_probes_total;
		sim->scan_walked_all = false;
		i = ss_select_idle_capacity(sim, p, sd, target);
		return i >= 0 ? sis_done(sim, p, target, &a, SS_SIS_IDLE_CPU, i) : sis_done(sim, p, target, &a, SS_SIS_FALLBACK, target);
	}

	sd = sd_llc(sim, (unsigned)target);
	if (!sd)
		return sis_done(sim, p, target, &a, SS_SIS_FALLBACK, target);

	/* the domain search: what the fast path could not answer */
	a.domain = true;
	if (sim->measuring)
		a.domain0 = sim->res->sis_probes_total;
	sim->scan_walked_all = false;
	if (smt_active(sim)) {
		ss_charge_llc_shared(sim, (unsigned)target);   /* test_idle_cores(): READ_ONCE(sds->has_idle_cores) */
		has_idle_core = sd_llc_shared(sim, (unsigned)target)->has_idle_cores;
		if (!has_idle_core && ss_cpus_share_cache(t, (unsigned)prev, (unsigned)target)) {
			i = select_idle_smt(sim, p, (unsigned)prev);
			if (i >= 0)
				return sis_done(sim, p, target, &a, SS_SIS_SMT, i);
		}
	}
	if (has_idle_core && sim->measuring) {
		sim->res->sis.core_searches++;
		sim->res->llc[t->cpu[target].llc_index].sis.core_searches++;
	}

	if (scan) {
		/* the plugin's domain search is its select_idle_cpu(): counted as one call */
		struct sic_trace tr = { 0 };

		sic_trace_begin(sim, &tr, -1);
		sic_enter(sim);
		i = scan(sim, p, has_idle_core, target);
		if ((unsigned)i >= sim->nr_cpus)   /* v6.6: "if ((unsigned)i < nr_cpumask_bits) return i" */
			i = -1;
		sic_trace_end(sim, &tr, p, target, has_idle_core, i);
		i = sic_exit(sim, target, i);
	} else {
		i = ss_select_idle_cpu(sim, p, sd, has_idle_core, target);
	}
	if (i >= 0)
		return sis_done(sim, p, target, &a, SS_SIS_IDLE_CPU, i);
	return sis_done(sim, p, target, &a, SS_SIS_FALLBACK, target);
}

/* ------------------------------------------------------------ shared steps for policies */

int ss_select_idle_smt(struct ss_sim *sim, struct ss_task *p, int target)
{
	return select_idle_smt(sim, p, (unsigned)target);
}

int ss_select_idle_core(struct ss_sim *sim, struct ss_task *p, int core, uint64_t *cpus, int *idle_cpu)
{
	unsigned probes = 0;
	if (sim->sic_depth)   /* inside a plugin's search: it walks core by core */
		sim->sic_core = true;
	return select_idle_core(sim, p, (unsigned)core, cpus, idle_cpu, &probes);
}

/*
 * select_idle_cpu()'s loop (kernel v6.6 fair.c) over mask ∩ p->cpus_ptr
 * with the caller's budget *nr instead of SIS_PROP/SIS_UTIL's. Unlike the
 * kernel's "if (!--nr) return -1" (nr - 1 probes), *nr is the number of CPUs
 * still to probe at most, decreased per probe.
 */
static int select_idle_cpu_nr(struct ss_sim *sim, struct ss_task *p, const uint64_t *mask, int target,
			      bool has_idle_core, long *nr);

int ss_select_idle_cpu_nr(struct ss_sim *sim, struct ss_task *p, const uint64_t *mask, int target,
			  bool has_idle_core, long *nr)
{
	struct sic_trace tr = { 0 };
	int cpu;

	/* on its own (not inside a plugin's search) it is a search of its own, with its trace line */
	if (!sim->sic_depth)
		sic_trace_begin(sim, &tr, *nr);
	sic_enter(sim);
	if (has_idle_core)
		sim->sic_core = true;
	sic_set_budget(sim, has_idle_core ? -1 : *nr);
	cpu = select_idle_cpu_nr(sim, p, mask, target, has_idle_core, nr);
	if (sim->sic_depth == 1)
		sic_trace_end(sim, &tr, p, target, has_idle_core, cpu);
	return sic_exit(sim, target, cpu);
}

static int select_idle_cpu_nr(struct ss_sim *sim, struct ss_task *p, const uint64_t *mask, int target,
			      bool has_idle_core, long *nr)
{
	uint64_t *cpus = sim->scratch_mask;
	struct ss_cpumask_wrap it;
	int idle_cpu = -1, i;
	unsigned cpu, probes = 0;

	sim->scan_walked_all = false;
	ss_cpumask_and(cpus, mask, p->cpus_ptr, sim->nr_words);
	for (cpu = ss_cpumask_wrap_first(&it, cpus, sim->nr_cpus, (unsigned)target + 1); cpu < sim->nr_cpus;
	     cpu = ss_cpumask_wrap_next(&it, cpus, sim->nr_cpus)) {
		if (!ss_cpumask_test(cpus, cpu))   /* siblings removed by select_idle_core() */
			continue;
		if (has_idle_core) {
			i = select_idle_core(sim, p, cpu, cpus, &idle_cpu, &probes);
			if (i >= 0)
				return i;
		} else {
			if (*nr == 0) {   /* a CPU left to probe, no budget left: "if (!--nr) return -1" */
				sim->sic_budget_stop = true;
				return -1;
			}
			if (*nr > 0)
				(*nr)--;
			idle_cpu = __select_idle_cpu(sim, cpu);
			if (idle_cpu >= 0)
				return idle_cpu;
		}
	}
	sim->scan_walked_all = idle_cpu < 0;
	return idle_cpu;
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
static int wake_target_sd(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags,
			  const struct ss_sched_domain **sdp)
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
	*sdp = sd;
	return new_cpu;
}

/* The wake_affine() half of select_task_rq_fair(): new_cpu before the fast or slow path. */
int ss_wake_target(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	const struct ss_sched_domain *sd;
	return wake_target_sd(sim, p, prev_cpu, wake_flags, &sd);
}

int ss_select_task_rq_fair(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags)
{
	const struct ss_sched_domain *sd;
	int new_cpu = wake_target_sd(sim, p, prev_cpu, wake_flags, &sd);
	if (sd)   /* slow path */
		return ss_find_idlest_cpu(sim, sd, p, (int)sim->this_cpu, prev_cpu, wake_flags & 0xF);
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

/*
 * The simulation loop and the parts of kernel/sched/core.c and the
 * enqueue/dequeue/pick half of fair.c that the model needs (kernel v6.6):
 * try_to_wake_up / ttwu_queue / ttwu_do_activate, schedule(), the tick,
 * idle entry/exit, and the task programs driven by the workload interpreter.
 */
#include "ss_sched.h"
#include "simsched/runlen.h"
#include "ss_fair.h"

#include <stdlib.h>
#include <string.h>

#include "simsched/error.h"
#include "workload_priv.h"

#define SS_MAX_ACTIONS_WITHOUT_TIME 1000000u

/* ------------------------------------------------------------ helpers */

/*
 * Speeds. A burst is `work` ns at capacity 1024, full frequency, alone on its
 * core, with all the memory bandwidth it asks for. rq->speed_num (32.32 wall
 * ns per work ns) covers capacity and frequency; rq->cur_speed adds the SMT
 * and memory-bandwidth slowdowns of the running task (docs/model.md "Costs").
 */
static inline uint64_t speed_to_wall(uint64_t speed, uint64_t work)
{
	unsigned __int128 w = (unsigned __int128)work * speed;
	return (uint64_t)((w + 0xffffffffu) >> 32);
}

static inline uint64_t wall_to_work(uint64_t speed, uint64_t wall)
{
	/* the same quotient without a 128-bit division where it fits 64 bits */
	if (speed == UINT64_C(1) << 32)
		return wall;
	if (!(wall >> 32))
		return (wall << 32) / speed;
	return (uint64_t)(((unsigned __int128)wall << 32) / speed);
}

bool (ss_idle_cpu)(struct ss_sim *sim, unsigned cpu)
{
	return ss__idle_cpu(sim, cpu);
}

void (ss_charge_probe)(struct ss_sim *sim, unsigned cpu)
{
	ss__charge_probe(sim, cpu);
}

void ss_update_rq_clock(struct ss_sim *sim, struct ss_rq *rq)
{
	uint64_t delta = sim->now - rq->clock;
	if (!delta)
		return;
	rq->clock = sim->now;
	/* clock_task advances by delta inside (no IRQ/steal time modelled) */
	ss_update_rq_clock_pelt(&rq->pclk, delta, rq->curr == NULL, rq->capacity,
				(unsigned long)sim->params.freq_capacity);
}

static inline struct ss_pelt_cfs_input cfs_input(const struct ss_rq *rq)
{
	struct ss_pelt_cfs_input in = {
		.load_weight = rq->cfs.load_weight,
		.h_nr_running = rq->cfs.nr_running,
		.curr = rq->cfs.curr != NULL,
	};
	return in;
}

static inline struct ss_pelt_se_input se_input(const struct ss_rq *rq, const struct ss_task *p)
{
	struct ss_pelt_se_input in = {
		.weight = p->se.weight,
		.on_rq = p->se.on_rq,
		.running = rq->cfs.curr == &p->se,
	};
	return in;
}

static inline void pelt_update(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, int flags)
{
	ss_update_load_avg(ss_rq_clock_pelt(&rq->pclk), &rq->cfs_avg, cfs_input(rq), &p->avg, se_input(rq, p),
			   flags);
}

unsigned long (ss_cpu_util_of)(struct ss_sim *sim, unsigned cpu)
{
	return ss__cpu_util_of(sim, cpu);
}

/* ------------------------------------------------------------ costs */

/*
 * SMT contention: a thread's speed with k busy threads on its core is
 * 1 / (1 + pct/100 × (k − 1)), in 1/1024 units.
 */
static inline uint32_t smt_factor(const struct ss_sim *sim, const struct ss_rq *rq)
{
	unsigned k;
	uint64_t pct = sim->params.smt_contention_pct;
	/* without SMT (or without contention) no core ever has two busy threads:
	 * skip the topology and core_busy loads, once per burst */
	if (!sim->smt_contention)
		return 1024;
	k = sim->core_busy[sim->topo->cpu[rq->cpu].core];
	if (k <= 1 || !pct)
		return 1024;
	return (uint32_t)(1024 * 100 / (100 + pct * (k - 1)));
}

/* Memory bandwidth: tasks homed on an oversubscribed node run at bandwidth / demand. */
static inline uint32_t bw_factor(const struct ss_sim *sim, const struct ss_task *p)
{
	uint64_t d, b = sim->node_bw_mbps;
	uint32_t f;
	if (!p->mem_bw_mbps || !b || p->mem_home < 0)
		return 1024;
	d = sim->node_bw_demand[p->mem_home];
	if (d <= b)
		return 1024;
	f = (uint32_t)(b * 1024 / d);
	return f ? f : 1;
}

static void set_rate(struct ss_sim *sim, struct ss_rq *rq, const struct ss_task *p)
{
	uint32_t fs = smt_factor(sim, rq), fb = bw_factor(sim, p);
	rq->cur_smt_f = fs;
	rq->cur_bw_f = fb;
	if (fs == 1024 && fb == 1024)
		rq->cur_speed = rq->speed_num;
	else
		rq->cur_speed = (uint64_t)(((unsigned __int128)rq->speed_num << 20) / ((uint64_t)fs * fb));
}

/*
 * Account the running task's progress up to now at the current rate: first
 * its overhead (wall time), then work. Time lost to the SMT and bandwidth
 * slowdowns is e·(1 − fs) and e·fs·(1 − fb) of the work time e.
 */
static void progress(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	uint64_t e, done;
	if (sim->now <= p->run_start)
		return;
	e = sim->now - p->run_start;
	p->run_start = sim->now;
	if (p->overhead_left) {
		uint64_t x = e < p->overhead_left ? e : p->overhead_left;
		p->overhead_left -= x;
		e -= x;
	}
	if (!e)
		return;
	done = wall_to_work(rq->cur_speed, e);
	p->work_left = done >= p->work_left ? 0 : p->work_left - done;
	if (sim->measuring && (rq->cur_smt_f != 1024 || rq->cur_bw_f != 1024)) {
		sim->res->lost.smt += e * (1024 - rq->cur_smt_f) / 1024;
		sim->res->lost.memory_bandwidth += e * rq->cur_smt_f / 1024 * (1024 - rq->cur_bw_f) / 1024;
	}
}

/* wall-clock bursts (run_wall) never run out of work: they end at wall_end */
#define SS_WALL_WORK (UINT64_MAX / 4)

static inline void start_burst(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	uint64_t end = p->run_start + p->overhead_left;

	set_rate(sim, rq, p);
	if (p->wall_end)
		end = end > p->wall_end ? end : p->wall_end;
	else
		end += speed_to_wall(rq->cur_speed, p->work_left);
	/* handle_run_end reads the task first: have the queue prefetch it */
	ss_evq_schedule_hint(&sim->evq, &rq->ev_run_end, end, SS_EV_RUN_END, rq->cpu, p->id + 1);
}

/*
 * run_wall (rt-app's "runtime"): busy until `ns` of wall time after the
 * statement began, preempted or not (rt-app loops on clock_gettime()); a
 * task switched in after that time ends the burst at once.
 */
static inline void set_wall_burst(struct ss_sim *sim, struct ss_task *p, uint64_t ns)
{
	p->wall_end = sim->now + ns;
	p->work_left = SS_WALL_WORK;
}

/* The running task's progress so far; its end event is cancelled. */
static void stop_burst(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	if (ss_ev_queued(&rq->ev_run_end)) {
		ss_evq_cancel(&sim->evq, &rq->ev_run_end);
		progress(sim, rq, p);
	}
}

/* The speed of rq's running task changed (a sibling or its node changed): move its end. */
static void retime(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_task *p = rq->curr;
	if (!p || !ss_ev_queued(&rq->ev_run_end))
		return;
	progress(sim, rq, p);
	start_burst(sim, rq, p);
}

/* rq's CPU became busy (+1) or idle (-1): its SMT siblings' speed changes. */
static void smt_busy_change(struct ss_sim *sim, struct ss_rq *rq, int delta)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[rq->cpu];
	sim->core_busy[ct->core] = (uint16_t)(sim->core_busy[ct->core] + delta);
	if (sim->topo->smt_threads <= 1 || !sim->params.smt_contention_pct)
		return;
	for (unsigned c = ss_cpumask_first(ct->smt_mask, sim->nr_cpus); c < sim->nr_cpus;
	     c = ss_cpumask_next(ct->smt_mask, sim->nr_cpus, c + 1))
		if (c != rq->cpu)
			retime(sim, &sim->rq[c]);
}

/* p starts (+1) or stops (-1) running on rq: its node's bandwidth demand changes. */
static void bw_change(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, int delta)
{
	uint64_t *mask, old, b = sim->node_bw_mbps;
	unsigned node;
	if (!p->mem_bw_mbps)
		return;
	if (p->mem_home < 0)
		p->mem_home = (int32_t)sim->topo->cpu[rq->cpu].node;   /* first touch */
	node = (unsigned)p->mem_home;
	mask = sim->node_bw_cpus + (size_t)node * sim->nr_words;
	old = sim->node_bw_demand[node];
	if (delta > 0) {
		sim->node_bw_demand[node] += p->mem_bw_mbps;
		ss_cpumask_set(mask, rq->cpu);
	} else {
		sim->node_bw_demand[node] -= p->mem_bw_mbps;
		ss_cpumask_clear_cpu(mask, rq->cpu);
	}
	/* the others' speed changes only if the node is or was oversubscribed */
	if (!b || (old <= b && sim->node_bw_demand[node] <= b))
		return;
	for (unsigned c = ss_cpumask_first(mask, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(mask, sim->nr_cpus, c + 1))
		if (c != rq->cpu)
			retime(sim, &sim->rq[c]);
}

/*
 * Cache refill after a migration: extra run time working_set × the refill
 * cost of the distance moved (none between SMT siblings, which share L1/L2).
 */
static void cache_refill(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	const struct ss_topology *t = sim->topo;
	int from = p->last_ran_cpu;
	uint64_t per_kib, refill;
	p->last_ran_cpu = (int32_t)rq->cpu;
	if (from < 0 || (unsigned)from == rq->cpu || !p->working_set_kib ||
	    ss_cpumask_test(t->cpu[rq->cpu].smt_mask, (unsigned)from))
		return;
	if (t->cpu[from].node != t->cpu[rq->cpu].node)
		per_kib = sim->params.refill_cross_node_ns_per_kib;
	else if (t->cpu[from].llc != t->cpu[rq->cpu].llc)
		per_kib = sim->params.refill_cross_llc_ns_per_kib;
	else
		per_kib = sim->params.refill_llc_ns_per_kib;
	refill = per_kib * p->working_set_kib;
	p->overhead_left += refill;
	if (sim->measuring)
		sim->res->lost.cache_refill += refill;
}

/*
 * get_typical_interval(), drivers/cpuidle/governors/menu.c (v6.6): the
 * average of the last 8 idle periods if their spread is small, discarding
 * upper outliers down to 3/4 of them; UINT_MAX when there is no pattern.
 */
static uint32_t menu_typical_interval(const struct ss_rq *rq)
{
	uint32_t thresh = INT32_MAX;
	for (;;) {
		uint64_t sum = 0, variance = 0, avg;
		uint32_t max = 0;
		int divisor = 0;
		for (int i = 0; i < 8; i++) {
			uint32_t v = rq->menu_intervals[i];
			if (v <= thresh) {
				sum += v;
				divisor++;
				if (v > max)
					max = v;
			}
		}
		if (!max)
			return UINT32_MAX;
		avg = divisor == 8 ? sum >> 3 : sum / (uint64_t)divisor;
		for (int i = 0; i < 8; i++) {
			uint32_t v = rq->menu_intervals[i];
			if (v <= thresh) {
				int64_t diff = (int64_t)v - (int64_t)avg;
				variance += (uint64_t)(diff * diff);
			}
		}
		variance = divisor == 8 ? variance >> 3 : variance / (uint64_t)divisor;
		if (variance <= UINT64_MAX / 36 && ((avg * avg > variance * 36 && divisor * 4 >= 8 * 3) || variance <= 400))
			return (uint32_t)avg;
		if (divisor * 4 <= 8 * 3)
			return UINT32_MAX;
		thresh = max - 1;
	}
}

void ss_timer_armed(struct ss_rq *rq, uint64_t expires)
{
	for (int i = 0; i < 4; i++) {
		if (!rq->timer_slot[i]) {
			rq->timer_slot[i] = expires;
			return;
		}
	}
}

void ss_timer_fired(struct ss_rq *rq, uint64_t expires)
{
	for (int i = 0; i < 4; i++) {
		if (rq->timer_slot[i] == expires) {
			rq->timer_slot[i] = 0;
			return;
		}
	}
}

/*
 * tick_nohz_get_sleep_length(): the next sleep timer armed on this CPU, ns
 * from now; without one, the next tick (one jiffy): the timers a real idle
 * CPU has besides the workload's are not modelled, and menu keeps the tick
 * when it predicts less than a jiffy.
 */
static uint64_t next_timer_ns(const struct ss_sim *sim, const struct ss_rq *rq)
{
	uint64_t next = UINT64_MAX;
	for (int i = 0; i < 4; i++)
		if (rq->timer_slot[i] && rq->timer_slot[i] < next)
			next = rq->timer_slot[i];
	if (next == UINT64_MAX)
		return sim->tick_nsec;
	return next > sim->now ? next - sim->now : 0;
}

#define RESIDENCY_THRESHOLD_NS 15000   /* menu.c v6.6 */
#define MENU_RESOLUTION 1024u          /* menu.c: RESOLUTION */
#define MENU_DECAY 8u                  /* menu.c: DECAY */
#define MENU_MAX_INTERESTING 50000000u /* menu.c: MAX_INTERESTING, 50 ms in ns */

/* which_bucket(), menu.c v6.6 (no iowaiters: buckets 0..5) */
static unsigned menu_which_bucket(uint64_t duration_ns)
{
	if (duration_ns < 10000)
		return 0;
	if (duration_ns < 100000)
		return 1;
	if (duration_ns < 1000000)
		return 2;
	if (duration_ns < 10000000)
		return 3;
	if (duration_ns < 100000000)
		return 4;
	return 5;
}

/*
 * menu_select() (drivers/cpuidle/governors/menu.c v6.6): the predicted idle
 * length is the typical interval, bounded — when it is above
 * RESIDENCY_THRESHOLD_NS — by the next timer event scaled by the bucket's
 * correction factor (which menu_update() keeps as the measured / predicted
 * ratio); no PM QoS latency limit. The deepest state whose target residency
 * fits wins; a polling state 0 is left for the next state unless a timer is
 * due before that state pays off.
 */
static int menu_select(const struct ss_sim *sim, struct ss_rq *rq)
{
	const struct ss_topology *t = sim->topo;
	uint64_t typical = menu_typical_interval(rq);
	uint64_t predicted = typical * 1000, next_timer = UINT64_MAX;
	int idx = -1;

	rq->menu_next_timer = UINT64_MAX;
	rq->menu_bucket = 5;
	if (predicted > RESIDENCY_THRESHOLD_NS) {
		uint64_t timer_us;
		next_timer = next_timer_ns(sim, rq);
		rq->menu_next_timer = next_timer;
		rq->menu_bucket = (uint8_t)menu_which_bucket(next_timer);
		timer_us = (uint64_t)(((unsigned __int128)MENU_RESOLUTION * MENU_DECAY * 1000 / 2 +
				       (unsigned __int128)next_timer * rq->menu_correction[rq->menu_bucket]) /
				      ((uint64_t)MENU_RESOLUTION * MENU_DECAY * 1000));
		if (timer_us * 1000 < predicted)
			predicted = timer_us * 1000;
	}
	if (t->nr_idle_states <= 1 || next_timer < t->idle_state[1].target_residency_ns)
		return 0;
	for (unsigned i = 0; i < t->nr_idle_states; i++) {
		const struct ss_idle_state *st = &t->idle_state[i];
		if (idx == -1)
			idx = (int)i;
		if (st->target_residency_ns > predicted) {
			if (t->idle_state[idx].polling && st->target_residency_ns <= next_timer)
				idx = (int)i;
			break;
		}
		idx = (int)i;
	}
	return idx < 0 ? 0 : idx;
}

/* menu_update() (menu.c v6.6): the correction factor of the bucket, from the measured idle period. */
static void menu_update(struct ss_rq *rq, uint64_t measured_ns)
{
	uint32_t f;
	if (rq->menu_next_timer == UINT64_MAX)
		return;   /* no timer-based prediction was made for this period */
	f = rq->menu_correction[rq->menu_bucket];
	f -= f / MENU_DECAY;
	if (rq->menu_next_timer > 0 && measured_ns < MENU_MAX_INTERESTING)
		f += (uint32_t)((uint64_t)MENU_RESOLUTION * measured_ns / rq->menu_next_timer);
	else
		f += MENU_RESOLUTION;
	rq->menu_correction[rq->menu_bucket] = f;
}

static void idle_state_enter(struct ss_sim *sim, struct ss_rq *rq)
{
	rq->idle_entry = sim->now;
	if (!sim->params.idle_states) {
		rq->idle_state = -1;
		return;
	}
	rq->idle_state = (int8_t)menu_select(sim, rq);
	if (sim->measuring && rq->idle_state < SS_STATS_IDLE_STATES)
		sim->res->idle_state_entries[rq->idle_state]++;
}

uint64_t ss_cpu_wake_cost(struct ss_sim *sim, struct ss_rq *rq, bool send_ipi)
{
	uint64_t c = 0, us;
	bool polling = false;
	if (rq->idle_state >= 0) {
		const struct ss_idle_state *st = &sim->topo->idle_state[rq->idle_state];
		polling = st->polling;
		c = st->exit_latency_ns;
		/* menu_update(): the measured idle period, µs */
		menu_update(rq, sim->now - rq->idle_entry);
		us = (sim->now - rq->idle_entry) / 1000;
		rq->menu_intervals[rq->menu_ptr] = us > UINT32_MAX ? UINT32_MAX : (uint32_t)us;
		rq->menu_ptr = (uint8_t)((rq->menu_ptr + 1) & 7);
		rq->idle_state = -1;
		if (sim->measuring)
			sim->res->lost.idle_exit += c;
	}
	if (send_ipi) {
		if (polling) {
			/* set_nr_if_polling(): the idle loop sees TIF_NEED_RESCHED, no IPI */
			if (sim->measuring)
				sim->res->ipis_saved_polling++;
		} else {
			c += sim->params.ipi_ns;
			if (sim->measuring) {
				sim->res->ipis++;
				sim->res->lost.ipi += sim->params.ipi_ns;
			}
		}
	}
	return c;
}

void ss_idle_reenter(struct ss_sim *sim, struct ss_rq *rq)
{
	if (!rq->curr && !rq->in_newidle && !rq->cfs.nr_running && rq->idle_state < 0 && !rq->ttwu_pending &&
	    !rq->wake_inflight)
		idle_state_enter(sim, rq);
}

/* ------------------------------------------------------------ statistics */

/*
 * Start-up figures (docs/output.md "Start-up"): add weight × the part of
 * [from, now) before the end of stats.startup_window_ns to *sum and to the
 * slices it falls in (at most SS_STARTUP_SLICES). Called only for an
 * interval that starts in that window: after it, the callers pay one
 * branch on a time they already hold.
 */
static __attribute__((noinline)) void startup_add(struct ss_sim *sim, uint64_t *sum, uint64_t *slice,
						   uint64_t from, uint64_t weight)
{
	uint64_t w = sim->startup_end, to = sim->now < w ? sim->now : w;

	if (to <= from || !weight)
		return;
	*sum += weight * (to - from);
	for (unsigned k = (unsigned)(from * SS_STARTUP_SLICES / w); from < to; k++) {
		uint64_t hi = ss_startup_slice_start(w, k + 1);

		if (hi > to)
			hi = to;
		slice[k] += weight * (hi - from);
		from = hi;
	}
}

/* rq's busy time since rq->busy_since into the start-up figures (curr != NULL) */
static inline void startup_busy(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_startup_stats *st = &sim->res->startup;

	if (__builtin_expect(rq->busy_since < sim->startup_end, 0))
		startup_add(sim, &st->cpu[rq->cpu].busy_ns, st->slice_busy_ns, rq->busy_since, 1);
}

/* rq's depth rq->acct_depth since rq->depth_since into the start-up figures (an allowed CPU) */
static inline void startup_depth(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_startup_stats *st = &sim->res->startup;

	if (__builtin_expect(rq->depth_since < sim->startup_end, 0))
		startup_add(sim, &st->cpu[rq->cpu].nr_running_ns, st->slice_nr_running_ns, rq->depth_since, rq->acct_depth);
}

/* rq's depth changes to depth at a time its last depth began before the end of the start-up window */
static __attribute__((noinline)) void startup_depth_change(struct ss_sim *sim, struct ss_rq *rq, unsigned depth)
{
	struct ss_startup_cpu *sc = &sim->res->startup.cpu[rq->cpu];

	startup_add(sim, &sc->nr_running_ns, sim->res->startup.slice_nr_running_ns, rq->depth_since, rq->acct_depth);
	if (sim->now < sim->startup_end && depth > sc->nr_running_max)
		sc->nr_running_max = depth;
}

static void account_busy(struct ss_sim *sim, struct ss_rq *rq)
{
	if (rq->curr || rq->in_newidle) {
		if (sim->measuring) {
			uint64_t from = rq->busy_since > sim->measure_start ? rq->busy_since : sim->measure_start;
			if (sim->now > from)
				sim->res->cpu[rq->cpu].busy_ns += sim->now - from;
		}
		startup_busy(sim, rq);
	}
	rq->busy_since = sim->now;
}

/* A kworker's stint on rq's CPU ends now (it is curr and is switched out): its CPU time in the window. */
static inline void kthread_stint_end(struct ss_sim *sim, struct ss_rq *rq)
{
	if (__builtin_expect(rq->curr && rq->curr->kthread, 0) && sim->measuring) {
		uint64_t from = rq->kthread_since > sim->measure_start ? rq->kthread_since : sim->measure_start;

		if (sim->now > from)
			sim->res->background.kthread_ns += sim->now - from;
	}
}

/*
 * "Idle with work elsewhere" and runqueue depth. Each allowed CPU contributes
 * (idle?, waiting tasks, nr_running) to its LLC's and node's counters; the
 * integrals advance only when a contribution changes (O(1) per change).
 */
static void idle_acc_move(struct ss_sim *sim, struct ss_idle_acc *a, uint64_t *out, int d_idle, int d_waiting)
{
	if (sim->measuring && a->nr_idle && a->nr_waiting)
		*out += (uint64_t)a->nr_idle * (sim->now - a->since);
	a->since = sim->now;
	a->nr_idle = (unsigned)((int)a->nr_idle + d_idle);
	a->nr_waiting = (unsigned)((int)a->nr_waiting + d_waiting);
}

/*
 * Affinity-aware idle with work elsewhere (idle_with_work_elsewhere.allowed_*,
 * and bursts.idle_with_work_pct within the burst windows): advance the
 * integrals at the rate in force since the last change. O(1).
 */
static void iwa_flush(struct ss_sim *sim)
{
	uint64_t since = sim->iwa_since, now = sim->now;

	sim->iwa_since = now;
	if (!sim->iwa_rate || !sim->measuring || now <= since)
		return;
	sim->res->idle_work_allowed_ns += (uint64_t)sim->iwa_rate * (now - since);
	if (sim->burst_win_end > since) {
		uint64_t lo = since > sim->burst_win_start ? since : sim->burst_win_start;
		uint64_t hi = now < sim->burst_win_end ? now : sim->burst_win_end;
		if (hi > lo)
			sim->res->burst_idle_work_ns += (uint64_t)sim->iwa_rate * (hi - lo);
	}
}

/*
 * One affinity class (every task may use every allowed CPU): the rate is
 * the idle CPUs while any task waits. Called when an idle state or that
 * "any" changed (rare: not at every enqueue of a busy machine).
 */
static inline void iwa_change(struct ss_sim *sim, int d_idle)
{
	iwa_flush(sim);
	sim->iwa_nr_idle = (unsigned)((int)sim->iwa_nr_idle + d_idle);
	sim->iwa_rate = sim->aff_wait[0] ? sim->iwa_nr_idle : 0;
}

/*
 * Several affinity classes: the rq's waiting tasks counted by class (a walk
 * of its cfs_tasks), the union of the masks of the classes with waiting
 * tasks, and the rate |idle ∩ union|. Out of line: only workloads with
 * pinned roles take it.
 */
static __attribute__((noinline)) void iwa_update_classes(struct ss_sim *sim, struct ss_rq *rq, bool idle2, bool old_idle2)
{
	uint32_t *cnt = sim->aff_scratch, *mine = &sim->aff_rq_wait[(size_t)rq->cpu * sim->aff_nr_cls];
	bool toggled = false;

	memset(cnt, 0, sim->aff_nr_cls * sizeof *cnt);
	for (int32_t id = rq->cfs_tasks_head; id >= 0; id = sim->tasks[id].tasks_next)
		if (&sim->tasks[id] != rq->curr && !sim->tasks[id].kthread)   /* a kworker: bound here */
			cnt[sim->tasks[id].aff_cls]++;
	for (unsigned c = 0; c < sim->aff_nr_cls; c++) {
		if (cnt[c] == mine[c])
			continue;
		bool had = sim->aff_wait[c] != 0;
		sim->aff_wait[c] = sim->aff_wait[c] + cnt[c] - mine[c];
		mine[c] = cnt[c];
		toggled |= had != (sim->aff_wait[c] != 0);
	}
	if (!toggled && idle2 == old_idle2)
		return;
	iwa_flush(sim);
	if (idle2 != old_idle2) {
		sim->iwa_nr_idle = sim->iwa_nr_idle + (unsigned)idle2 - (unsigned)old_idle2;
		if (idle2)
			ss_cpumask_set(sim->iwa_idle, rq->cpu);
		else
			ss_cpumask_clear_cpu(sim->iwa_idle, rq->cpu);
	}
	if (toggled) {
		ss_cpumask_zero(sim->iwa_union, sim->nr_words);
		for (unsigned c = 0; c < sim->aff_nr_cls; c++)
			if (sim->aff_wait[c])
				ss_cpumask_or(sim->iwa_union, sim->iwa_union, sim->aff_mask[c], sim->nr_words);
		sim->iwa_rate = 0;
		for (unsigned w = 0; w < sim->nr_words; w++)
			sim->iwa_rate += (unsigned)__builtin_popcountll(sim->iwa_idle[w] & sim->iwa_union[w]);
	} else if (ss_cpumask_test(sim->iwa_union, rq->cpu)) {
		sim->iwa_rate = sim->iwa_rate + (unsigned)idle2 - (unsigned)old_idle2;
	}
}

/*
 * The depth and idle-with-work integrals of rq after a change. multi: the
 * tasks fall in several affinity classes (a constant: the common case is
 * compiled without it).
 */
static inline __attribute__((always_inline)) void rq_acct_body(struct ss_sim *sim, struct ss_rq *rq, bool multi)
{
	unsigned depth = rq->cfs.nr_running, running, waiting;
	bool idle = rq->curr == NULL && !rq->in_newidle;
	running = rq->curr && rq->curr->se.on_rq ? 1u : 0u;
	waiting = depth > running ? depth - running : 0;
	if (__builtin_expect(rq->nr_kthreads != 0, 0)) {
		/* a waiting kworker is bound to this CPU: no work another CPU could take */
		unsigned kw = rq->nr_kthreads - (running && rq->curr->kthread);
		waiting = waiting > kw ? waiting - kw : 0;
	}
	if (depth != rq->acct_depth) {
		if (sim->measuring) {
			uint64_t d = sim->now - rq->depth_since;
			sim->res->rq_depth_ns[rq->acct_depth < SS_RQ_DEPTH_MAX ? rq->acct_depth : SS_RQ_DEPTH_MAX - 1] += d;
			sim->res->cpu[rq->cpu].nr_running_ns += (uint64_t)rq->acct_depth * d;
		}
		if (__builtin_expect(rq->depth_since < sim->startup_end, 0))
			startup_depth_change(sim, rq, depth);
		rq->depth_since = sim->now;
		rq->acct_depth = depth;
	}
	if (multi || idle != rq->acct_idle || waiting != rq->acct_waiting) {
		const struct ss_cpu_topo *ct = &sim->topo->cpu[rq->cpu];
		int di = (int)idle - (int)rq->acct_idle, dw = (int)waiting - (int)rq->acct_waiting;
		/* idle with an empty rq: an idle CPU's queued tasks (on their way in) all wait */
		bool idle2 = idle && !waiting, old_idle2 = rq->acct_idle && !rq->acct_waiting;
		idle_acc_move(sim, &sim->acc_llc[ct->llc_index], &sim->res->idle_work_llc_ns, di, dw);
		idle_acc_move(sim, &sim->acc_node[ct->node], &sim->res->idle_work_node_ns, di, dw);
		if (multi) {
			iwa_update_classes(sim, rq, idle2, old_idle2);
		} else {
			uint32_t w0 = sim->aff_wait[0];
			sim->aff_wait[0] = (uint32_t)((int)w0 + dw);
			if (__builtin_expect(idle2 != old_idle2 || !w0 != !sim->aff_wait[0], 0))
				iwa_change(sim, (int)idle2 - (int)old_idle2);
		}
		rq->acct_idle = idle;
		rq->acct_waiting = waiting;
	}
}

static __attribute__((noinline)) void rq_acct_multi(struct ss_sim *sim, struct ss_rq *rq)
{
	rq_acct_body(sim, rq, true);
}

static void rq_acct(struct ss_sim *sim, struct ss_rq *rq)
{
	if (__builtin_expect(!rq->acct_on, 0))
		return;
	if (__builtin_expect(sim->aff_multi, 0))
		rq_acct_multi(sim, rq);
	else
		rq_acct_body(sim, rq, false);
}

/*
 * Switch rq_acct() between the one-class and the per-class path, at a task
 * start or exit of a pinned class. Both paths keep each rq's acct_idle and
 * acct_waiting and the count iwa_nr_idle of allowed CPUs idle with an empty
 * rq; what only one of them keeps is rebuilt from those and the rqs' task
 * lists, after the integrals advanced at the old rate: the figures are the
 * same as with the per-class path throughout.
 */
static void aff_set_multi(struct ss_sim *sim, bool multi)
{
	iwa_flush(sim);
	sim->aff_multi = multi;
	memset(sim->aff_wait, 0, sim->aff_nr_cls * sizeof *sim->aff_wait);
	if (multi)
		ss_cpumask_zero(sim->iwa_idle, sim->nr_words);
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_rq *rq = &sim->rq[c];

		if (!rq->acct_on)
			continue;
		if (!multi) {
			sim->aff_wait[0] += rq->acct_waiting;
			continue;
		}
		uint32_t *mine = &sim->aff_rq_wait[(size_t)c * sim->aff_nr_cls];

		memset(mine, 0, sim->aff_nr_cls * sizeof *mine);
		for (int32_t id = rq->cfs_tasks_head; id >= 0; id = sim->tasks[id].tasks_next)
			if (&sim->tasks[id] != rq->curr && !sim->tasks[id].kthread)
				mine[sim->tasks[id].aff_cls]++;
		for (unsigned k = 0; k < sim->aff_nr_cls; k++)
			sim->aff_wait[k] += mine[k];
		if (rq->acct_idle && !rq->acct_waiting)
			ss_cpumask_set(sim->iwa_idle, c);
	}
	if (!multi) {
		sim->iwa_rate = sim->aff_wait[0] ? sim->iwa_nr_idle : 0;
		return;
	}
	ss_cpumask_zero(sim->iwa_union, sim->nr_words);
	for (unsigned k = 0; k < sim->aff_nr_cls; k++)
		if (sim->aff_wait[k])
			ss_cpumask_or(sim->iwa_union, sim->iwa_union, sim->aff_mask[k], sim->nr_words);
	sim->iwa_rate = 0;
	for (unsigned w = 0; w < sim->nr_words; w++)
		sim->iwa_rate += (unsigned)__builtin_popcountll(sim->iwa_idle[w] & sim->iwa_union[w]);
}

/* ------------------------------------------------------------ tick */

/*
 * Ticks. Every busy CPU ticks on jiffy boundaries (the tick is stopped on
 * idle entry: NOHZ idle). All of one boundary's ticks are handled by one
 * event that walks the mask of ticking CPUs in CPU order — the order the
 * per-CPU tick events of the same instant would have in the queue — which
 * keeps the queue small.
 */
static void start_tick(struct ss_sim *sim, struct ss_rq *rq)
{
	/* tick_nohz_idle_exit(): the periodic tick resumes at the next jiffy boundary */
	if (ss_cpumask_test(sim->ticking, rq->cpu))
		return;
	ss_cpumask_set(sim->ticking, rq->cpu);
	rq->busy_from = sim->now;
	rq->tick_from = (sim->now / sim->tick_nsec + 1) * sim->tick_nsec;
	if (!ss_ev_queued(&sim->ev_jiffy))
		ss_evq_schedule(&sim->evq, &sim->ev_jiffy, rq->tick_from, SS_EV_TICK, 0);
}

static void stop_tick(struct ss_sim *sim, struct ss_rq *rq)
{
	ss_cpumask_clear_cpu(sim->ticking, rq->cpu);
}

/* ------------------------------------------------------------ schedule */

static void idle_enter(struct ss_sim *sim, struct ss_rq *rq, bool enter_state)
{
	/* (idle_stamp, which feeds avg_idle, is set by newidle_balance()) */
	/* set_next_task_idle() -> update_idle_core() */
	ss_update_idle_core(sim, rq->cpu);
	/* update_idle_rq_clock_pelt() */
	ss_update_idle_rq_clock_pelt(&rq->pclk, rq->cfs_avg.avg.util_sum);
	/* do_idle(): nohz_run_idle_balance() first (newidle may have asked for a
	 * blocked-load update), then the tick stops: tick_nohz_idle_stop_tick()
	 * -> nohz_balance_enter_idle() */
	if (sim->params.nohz)
		ss_nohz_run_idle_balance(sim, rq);
	stop_tick(sim, rq);
	if (sim->params.nohz)
		ss_nohz_balance_enter_idle(sim, rq);
	/* cpuidle_idle_call(): the governor picks a state; with an IPI already
	 * pending the idle loop takes it at once (no state entered) */
	if (enter_state) {
		idle_state_enter(sim, rq);
	} else {
		rq->idle_entry = sim->now;
		rq->idle_state = -1;
	}
}

/*
 * A task switched in between two actions of its program takes its next
 * action when the switch is over (run_start). If that is a run, the burst is
 * set now and ends at run_start + run — one event instead of two; anything
 * else is held and taken at run_start. Draws come from the task's own
 * stream, so when they happen changes no value.
 */
static void fetch_next_action(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	struct ss_wl_action a;
	ss_wl_next(sim->plan, p->id, &p->cursor, &p->rng, &a);
	if (a.kind == SS_ACT_RUN) {
		if (sim->trace && !p->kthread)
			sim->trace(sim->trace_ctx, p->run_start, p->id, &a);
		p->run_work = a.ns;
		p->work_left = a.ns;
	} else if (a.kind == SS_ACT_RUN_WALL) {
		if (sim->trace && !p->kthread)
			sim->trace(sim->trace_ctx, p->run_start, p->id, &a);
		set_wall_burst(sim, p, p->run_start - sim->now + a.ns);
	} else {
		p->held = a;
		p->has_held = true;
	}
}

/*
 * The switch to idle of schedule() (prev: the task that blocked, NULL after
 * the stopper or a held newidle balance without one). ipi_pending: a wakeup
 * is already due here (a held newidle balance cut short by it), so the idle
 * loop takes it at once and enters no idle state.
 */
static void switch_to_idle(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *trace_prev, bool prev_stopper,
			   bool ipi_pending)
{
	if (ss_tracing(sim))
		ss_ft_switch(sim, rq, trace_prev, NULL, prev_stopper && !trace_prev ? SS_FT_PREV_STOPPER : 0);
	account_busy(sim, rq);
	rq->curr = NULL;
	rq->in_newidle = false;
	smt_busy_change(sim, rq, -1);
	if (sim->params.rq_lock_all && sim->params.rq_lock_ns)
		(void)ss_rq_lock(sim, rq, sim->now, sim->params.rq_lock_ns, rq->cpu, SS_LOCK_SCHEDULE);
	ss_rq_line_write(sim, rq->cpu, rq->cpu);
	idle_enter(sim, rq, !ipi_pending);
}

/*
 * cost.newidle_time: the newidle balance is cut short by a task enqueued
 * (or a wakeup queued) on its CPU: newidle_balance() stops when the domain
 * pass in progress ends ("if (pulled_task || this_rq->nr_running > 0 ||
 * this_rq->ttwu_pending) break;", fair.c v6.6/v5.17); the switch happens
 * then (SS_EV_NEWIDLE).
 */
static void newidle_cut(struct ss_sim *sim, struct ss_rq *rq)
{
	uint64_t stop = rq->newidle_end;
	for (unsigned l = 0; l < rq->newidle_nr_pass; l++) {
		uint64_t e = rq->newidle_start + rq->sd_rt[l].newidle_pass_end;
		if (e >= sim->now) {
			stop = e < stop ? e : stop;
			break;
		}
	}
	if (stop < rq->newidle_end) {
		rq->newidle_end = stop;
		ss_evq_schedule(&sim->evq, &rq->ev_newidle, stop, SS_EV_NEWIDLE, rq->cpu);
	}
}

/*
 * schedule() on rq: put prev, pick next (pick_eevdf), switch. When nothing
 * is runnable, pick_next_task_fair() runs newidle_balance() and picks again
 * if it pulled a task; the pulled task starts after the balance's modelled
 * time. With cost.newidle_time a balance that pulled nothing holds the CPU
 * (in_newidle) for that time and SS_EV_NEWIDLE calls this again to pick or
 * go idle; a call meanwhile (a task enqueued here) cuts the balance at the
 * end of its pass in progress. after_stopper: the CPU switches away from
 * the stopper (prev already put back by run_stopper()).
 */
static void __schedule(struct ss_sim *sim, struct ss_rq *rq, bool after_stopper)
{
	struct ss_task *prev = rq->curr, *next, *trace_prev;
	struct ss_sched_entity *se;
	uint64_t newidle_cost = 0;
	bool was_busy = prev || after_stopper, resumed = false;

	if (__builtin_expect(rq->in_newidle, 0)) {
		/* still balancing: the pick waits for the pass in progress */
		if (sim->now < rq->newidle_end) {
			newidle_cut(sim, rq);
			return;
		}
		/* the held balance is over: pick_next_task_fair() picks what was
		 * enqueued meanwhile ("pretend we pulled it") or the CPU goes idle */
		if (ss_ev_queued(&rq->ev_newidle))
			ss_evq_cancel(&sim->evq, &rq->ev_newidle);
		if (sim->measuring)
			sim->res->newidle_held_ns += sim->now - (rq->newidle_start > sim->measure_start ?
								 rq->newidle_start : sim->measure_start);
		resumed = was_busy = true;
		after_stopper = rq->newidle_prev_stopper;
	}
	trace_prev = resumed ? rq->newidle_prev : prev;
	ss_update_rq_clock(sim, rq);
	if (prev) {
		stop_burst(sim, rq, prev);
		sim->fair->update_curr(sim, rq);
		if (prev->se.on_rq)
			pelt_update(sim, rq, prev, 0);     /* put_prev_entity() */
		ss_put_prev_entity(&rq->cfs, &prev->se);
	}
	se = sim->fair->pick_next_entity(sim, rq);
	if (!se && was_busy && !resumed && ss_newidle_balance(sim, rq, &newidle_cost) > 0)
		se = sim->fair->pick_next_entity(sim, rq);
	if (!se) {
		if (was_busy) {
			if (prev)
				bw_change(sim, rq, prev, -1);
			kthread_stint_end(sim, rq);
			if (newidle_cost && sim->params.newidle_time) {
				/* cost.newidle_time: newidle_balance() ran in this
				 * schedule() for newidle_cost and found nothing; until
				 * it ends rq->curr is still prev (on_cpu, not
				 * idle_cpu()) and the CPU is busy */
				rq->curr = NULL;
				rq->in_newidle = true;
				rq->newidle_prev = prev;
				rq->newidle_prev_stopper = after_stopper && !prev;
				rq->newidle_start = sim->now;
				rq->newidle_end = sim->now + newidle_cost;
				ss_evq_schedule(&sim->evq, &rq->ev_newidle, rq->newidle_end, SS_EV_NEWIDLE, rq->cpu);
				rq_acct(sim, rq);
				return;
			}
			switch_to_idle(sim, rq, trace_prev, after_stopper,
				       resumed && (rq->ttwu_pending || rq->wake_inflight));
			rq->newidle_prev = NULL;
		}
		rq_acct(sim, rq);
		return;
	}
	next = task_of(se);
	rq->in_newidle = false;
	rq->newidle_prev = NULL;
	if (ss_tracing(sim) && next != prev) {
		if (resumed && next == trace_prev) {
			/* woken while still on_cpu: its wake list is taken after the
			 * switch to idle, so the CPU goes idle and back */
			ss_ft_switch(sim, rq, trace_prev, NULL, 0);
			ss_ft_switch(sim, rq, NULL, next, 0);
		} else {
			ss_ft_switch(sim, rq, trace_prev, next,
				     after_stopper && !trace_prev ? SS_FT_PREV_STOPPER : 0);
		}
	}
	pelt_update(sim, rq, next, SS_UPDATE_TG);          /* set_next_entity() */
	sim->fair->set_next_entity(sim, rq, se);
	if (!prev && !resumed) {
		rq->busy_since = sim->now;
		start_tick(sim, rq);
	}
	if (prev && prev != next)
		bw_change(sim, rq, prev, -1);
	if (prev != next) {
		kthread_stint_end(sim, rq);
		rq->kthread_since = sim->now;
	}
	rq->curr = next;
	if (!was_busy)
		smt_busy_change(sim, rq, +1);
	next->run_start = sim->now + newidle_cost;
	/* pick_next_task_fair(): the cfs_tasks list becomes MRU */
	ss_tasks_move_head(sim, rq, next);
	ss_update_misfit_status(sim, next, rq);
	/* a CPU given work without an IPI (a pull by the balancer) still leaves its idle state */
	if (!was_busy && rq->idle_state >= 0)
		next->run_start += ss_cpu_wake_cost(sim, rq, false);
	if (next != prev) {
		/* __schedule() holds rq->__lock from its start to the switch: a
		 * wait for it (remote enqueuers, a balancer) delays the switch */
		if (sim->params.rq_lock_all && sim->params.rq_lock_ns)
			next->run_start += ss_rq_lock(sim, rq, sim->now, sim->params.rq_lock_ns, rq->cpu, SS_LOCK_SCHEDULE);
		ss_rq_line_write(sim, rq->cpu, rq->cpu);   /* rq->curr */
		next->run_start += sim->params.context_switch_ns;
		if (sim->measuring) {
			sim->res->context_switches++;
			sim->res->cpu[rq->cpu].nr_switches++;
			sim->res->lost.context_switch += sim->params.context_switch_ns;
		}
	}
	if (next->wake_time) {
		if (__builtin_expect(next->kthread, 0)) {
			if (sim->measuring && next->wake_time >= sim->measure_start)
				ss_log2_hist_add(&sim->res->background.kthread_latency, next->run_start - next->wake_time);
		} else if (sim->measuring && next->wake_time >= sim->measure_start) {
			const bool *roles = ss_workload_metric(sim->plan->wl)->roles;

			ss_lat_hist_add(&sim->res->wakeup_latency, next->run_start - next->wake_time);
			if (!roles || roles[sim->plan->task[next->id].role])
				ss_lat_hist_add(&sim->res->metric_latency, next->run_start - next->wake_time);
		}
		if (__builtin_expect(sim->obs_lat != NULL, 0) && !next->kthread) {
			const bool *roles = ss_workload_metric(sim->plan->wl)->roles;

			if (!roles || roles[sim->plan->task[next->id].role])
				ss_lat_hist_add(sim->obs_lat, next->run_start - next->wake_time);
		}
		next->wake_time = 0;
	}
	if (!next->work_left && !next->has_held && !next->scan_pending && !next->overhead_left)
		fetch_next_action(sim, rq, next);
	if (next != prev) {
		bw_change(sim, rq, next, +1);
		cache_refill(sim, rq, next);
	}
	start_burst(sim, rq, next);
	rq_acct(sim, rq);
}

static void schedule(struct ss_sim *sim, struct ss_rq *rq)
{
	__schedule(sim, rq, false);
}

static void resched_curr(struct ss_sim *sim, struct ss_rq *rq)
{
	schedule(sim, rq);
}

/* ------------------------------------------------------------ enqueue / dequeue */

/* enqueue_task_fair() for one task (no groups), v6.6; wakeup = ENQUEUE_WAKEUP (the run order's part: sim->fair). */
static void enqueue_task(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, bool wakeup)
{
	ss_update_rq_clock(sim, rq);
	ss_util_est_enqueue(&rq->cfs_avg, &p->avg);
	/* enqueue_entity(): update_curr, update_load_avg(DO_ATTACH), place, account */
	if (rq->cfs.curr)
		sim->fair->update_curr(sim, rq);
	pelt_update(sim, rq, p, SS_UPDATE_TG | SS_DO_ATTACH);
	sim->fair->enqueue_entity(sim, rq, &p->se, wakeup);
	ss_tasks_add_head(sim, rq, p);   /* account_entity_enqueue(): list_add(&se->group_node, &rq->cfs_tasks) */
	p->state = SS_TASK_RUNNABLE;
	rq->nr_kthreads += p->kthread;
	/* add_nr_running(): a second runnable task marks the root domain overloaded */
	if (rq->cfs.nr_running == 2)
		sim->rd_overload = true;
	ss_rq_line_write(sim, rq->cpu, rq->cpu);
	rq_acct(sim, rq);
	if (ss_tracing(sim))
		ss_ft_nr_running(sim, rq);
}

/* ------------------------------------------------------------ bursts (docs/output.md "bursts") */

/* A task a burst woke blocked, slept or exited: the burst's makespan ends with its last one. */
static void burst_task_done(struct ss_sim *sim, struct ss_task *p)
{
	uint32_t seq = p->burst_tag - 1;
	struct ss_burst *b = &sim->bursts[seq % SS_BURST_RING];

	p->burst_tag = 0;
	if (b->seq != seq || !b->left)   /* its slot went to a later burst: that one was dropped */
		return;
	if (--b->left || !b->measured || !sim->measuring)
		return;
	sim->res->burst_completed++;
	sim->res->burst_makespan_ns += sim->now - b->start;
}

/*
 * A wake of `which: all` woke nr >= 2 tasks (tagged 1 + sim->burst_seq):
 * a burst. In the measured window it opens a burst window (the union of
 * [burst, burst + stats.burst_window_ns) is what bursts.idle_with_work_pct
 * covers) and schedules the 1 ms sample unless one is pending.
 */
static void burst_start(struct ss_sim *sim, uint32_t nr)
{
	struct ss_burst *b = &sim->bursts[sim->burst_seq % SS_BURST_RING];
	struct ss_results *r = sim->res;

	b->start = sim->now;
	b->seq = sim->burst_seq++;
	b->left = nr;
	b->measured = sim->measuring;
	if (!sim->measuring)
		return;
	r->bursts++;
	iwa_flush(sim);
	if (sim->burst_win_end > sim->now)
		r->burst_cover_ns += sim->now - sim->burst_win_start;
	else
		r->burst_cover_ns += sim->burst_win_end - sim->burst_win_start;
	sim->burst_win_start = sim->now;
	sim->burst_win_end = sim->now + sim->params.burst_window_ns;
	/* one sample stands for every burst of the same instant; a burst while another's is pending has none */
	if (!ss_ev_queued(&sim->ev_burst)) {
		ss_evq_schedule(&sim->evq, &sim->ev_burst, sim->now + SS_BURST_SAMPLE_NS, SS_EV_SAMPLE, 1);
		sim->burst_sample_n = 1;
	} else if (sim->ev_burst.time == sim->now + SS_BURST_SAMPLE_NS) {
		sim->burst_sample_n++;
	}
}

static uint64_t post_token(struct ss_sim *sim, struct ss_task *p, bool sync);

/*
 * wake `which: all` (a.target .. a.target + a.nr - 1, the waker set up in
 * sim->current): one token each, as the single wake; two or more tasks
 * woken from `wait` make a burst. Returns the probing cost (ns).
 */
static __attribute__((noinline)) uint64_t wake_all(struct ss_sim *sim, const struct ss_wl_action *a)
{
	uint32_t woken = 0, last_woken = 0;
	uint64_t cost = 0;

	for (uint32_t i = 0; i < a->nr; i++) {
		struct ss_task *t = &sim->tasks[a->target + i];
		bool blocked;

		if (t->state == SS_TASK_DEAD)
			continue;
		/* if_waiting: only a task blocked in wait is reached (as the single wake) */
		if (a->if_waiting && (t->state != SS_TASK_BLOCKED || t->block_on != SS_BLOCK_TOKENS))
			continue;
		blocked = t->state == SS_TASK_BLOCKED;
		cost += post_token(sim, t, a->sync);
		if (blocked && t->state != SS_TASK_BLOCKED) {
			/* woken by this statement: a member of the burst, if it is one */
			t->burst_tag = sim->burst_seq + 1;
			last_woken = t->id;
			woken++;
		}
	}
	if (woken >= 2)
		burst_start(sim, woken);
	else if (woken)
		sim->tasks[last_woken].burst_tag = 0;
	return cost;
}

/* burst + 1 ms: the allowed CPUs idle (empty rq) while some rq holds >= 2 tasks. */
static void burst_sample(struct ss_sim *sim)
{
	if (!sim->measuring)
		return;
	sim->res->burst_sampled += sim->burst_sample_n;
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		if (sim->rq[c].acct_on && sim->rq[c].cfs.nr_running >= 2) {
			sim->res->burst_idle_1ms_cpus += (uint64_t)sim->burst_sample_n * sim->iwa_nr_idle;
			break;
		}
	}
}

/* dequeue_task_fair(DEQUEUE_SLEEP) of the running task p, v6.6. */
static void dequeue_sleep(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	sim->last_dequeue_ns = sim->now;
	if (__builtin_expect(p->burst_tag != 0, 0))
		burst_task_done(sim, p);
	ss_update_rq_clock(sim, rq);
	stop_burst(sim, rq, p);
	ss_util_est_dequeue(&rq->cfs_avg, &p->avg);
	sim->fair->update_curr(sim, rq);
	pelt_update(sim, rq, p, SS_UPDATE_TG);
	sim->fair->dequeue_entity(sim, rq, &p->se, true);
	ss_tasks_del(sim, rq, p);
	rq->nr_kthreads -= p->kthread;
	ss_util_est_update(&rq->cfs_avg, &p->avg, true, ss_feat(sim->features, SS_FEAT_UTIL_EST_FASTUP),
			   sim->topo->cpu[rq->cpu].capacity);
	ss_rq_line_write(sim, rq->cpu, rq->cpu);
	rq_acct(sim, rq);
	if (ss_tracing(sim))
		ss_ft_nr_running(sim, rq);
}

/* ------------------------------------------------------------ wakeups */

/*
 * is_cpu_allowed() (core.c v6.6) for a user task: cpu is in p->cpus_ptr,
 * which holds only active CPUs (the allowed CPUs ∩ the role's cpus). Any
 * int is checked, in range first: a policy plugin's answer may be anything.
 */
static bool cpu_allowed(const struct ss_sim *sim, const struct ss_task *p, int cpu)
{
	return cpu >= 0 && (unsigned)cpu < sim->nr_cpus && ss_cpumask_test(p->cpus_ptr, (unsigned)cpu);
}

/*
 * A workload's cpulist as the machine's mask m (nr_words words): CPUs the
 * machine does not have are dropped, as the kernel's sched_setaffinity()
 * drops bits past nr_cpu_ids before it ands the request with the online
 * CPUs. false for a list the loader would have refused (malformed, or a CPU
 * >= SS_MAX_CPUS).
 */
static bool parse_cpus_clipped(const struct ss_sim *sim, const char *list, uint64_t *m)
{
	uint64_t all[SS_MAX_CPUS / 64];
	unsigned bad;

	if (ss_cpumask_parse_list(list, all, SS_MAX_CPUS, &bad) < 0)
		return false;
	for (unsigned w = 0; w < sim->nr_words; w++)
		m[w] = all[w];
	if (sim->nr_cpus % 64)
		m[sim->nr_words - 1] &= (UINT64_C(1) << (sim->nr_cpus % 64)) - 1;
	return true;
}

/*
 * select_fallback_rq(cpu, p) (core.c v6.6), cpu = task_cpu(p): the first
 * allowed CPU of cpu's node, else the first allowed CPU. (The cpuset and
 * cpu_possible_mask widening after that never happens: p->cpus_ptr is never
 * empty here.)
 */
static int select_fallback_rq(struct ss_sim *sim, const struct ss_task *p, int cpu)
{
	unsigned dest = ss_cpumask_next_and(sim->topo->cpu[cpu].node_mask, p->cpus_ptr, sim->nr_cpus, 0);
	if (dest < sim->nr_cpus)
		return (int)dest;
	return (int)ss_cpumask_first(p->cpus_ptr, sim->nr_cpus);
}

/*
 * ttwu_queue_cond(), core.c v6.6 (since v6.0, "Queue task on wakelist in the
 * same llc if the wakee cpu is idle"): the wake list (and an IPI) for another
 * LLC, and for an idle CPU of the same LLC other than the waker's.
 */
bool ss_ttwu_queue_cond_v6_6(struct ss_sim *sim, struct ss_task *p, unsigned cpu)
{
	if (!cpu_allowed(sim, p, (int)cpu))
		return false;
	if (!ss_cpus_share_cache(sim->topo, sim->this_cpu, cpu))
		return true;
	if (cpu == sim->this_cpu)
		return false;
	/* If the wakee cpu is idle, or the task is descheduling and the only
	 * running task on the CPU, then use the wakelist. */
	if (!sim->rq[cpu].cfs.nr_running && !sim->rq[cpu].curr)
		return true;
	return false;
}

/*
 * ttwu_queue_cond(), core.c v5.17 (v5.14-v5.19): the wake list only for a
 * CPU that does not share the waker's LLC; in the LLC the waker enqueues
 * directly under the target's rq lock (ttwu_queue() -> rq_lock()), idle
 * target or not. Its third case, "the task is descheduling (WF_ON_CPU) and
 * the only running task on the CPU", is try_to_wake_up()'s on_cpu path
 * (cost.newidle_time: a task woken while its CPU is still balancing in the
 * schedule() it blocked in); otherwise a task is off its CPU when woken.
 */
bool ss_ttwu_queue_cond_v5_17(struct ss_sim *sim, struct ss_task *p, unsigned cpu)
{
	(void)p;
	if (!ss_cpumask_test(sim->topo->active_mask, cpu))
		return false;
	if (!ss_cpus_share_cache(sim->topo, sim->this_cpu, cpu))
		return true;
	return false;
}

int ss_mig_level(const struct ss_sim *sim, unsigned src, unsigned dst)
{
	const struct ss_cpu_topo *ct = &sim->topo->cpu[src];
	for (unsigned l = 0; l < ct->nr_sd; l++)
		if (ss_cpumask_test(ct->sd[l].span, dst)) {
			unsigned k = ss_sd_level_key(&ct->sd[l]);
			return (int)(k < SS_MAX_LEVEL_KEYS ? k : SS_MAX_LEVEL_KEYS - 1);
		}
	return -1;
}

/* set_task_cpu() from cause (enum ss_mig_cause); migrating: the task is on a rq (balancer), not waking. */
static void set_task_cpu(struct ss_sim *sim, struct ss_task *p, unsigned new_cpu, unsigned cause, bool migrating)
{
	/* migrate_task_rq_fair(), v6.6: a waking task's averages are removed
	 * from the old cfs_rq (remove_entity_load_avg); a migrating one was
	 * detached at dequeue (DO_DETACH). last_update_time = 0 makes the next
	 * enqueue attach it to the new cfs_rq. */
	struct ss_rq *old = &sim->rq[p->cpu];
	const struct ss_topology *t = sim->topo;
	if (!migrating) {
		ss_remove_entity_load_avg(&old->cfs_avg, &p->avg, p->se.weight);
		if (p->state == SS_TASK_WAKING)
			sim->fair->migrate_task_rq(sim, old, &p->se);
	}
	p->avg.last_update_time = 0;
	if (sim->on_migrate)
		sim->on_migrate(sim->trace_ctx, sim->now, p->id, (unsigned)p->cpu, new_cpu, cause);
	if (ss_tracing(sim))
		ss_ft_migrate(sim, p, new_cpu, cause);
	if (sim->measuring) {
		int lvl = ss_mig_level(sim, (unsigned)p->cpu, new_cpu);
		sim->res->migrations++;
		sim->res->migrations_by_cause[cause]++;
		if (lvl >= 0)
			sim->res->migrations_by_level[lvl][cause]++;
		if (t->cpu[p->cpu].llc != t->cpu[new_cpu].llc)
			sim->res->migrations_llc++;
		if (t->cpu[p->cpu].node != t->cpu[new_cpu].node)
			sim->res->migrations_node++;
	}
	p->cpu = (int32_t)new_cpu;
}

/*
 * try_to_wake_up(p) from sim->current on sim->this_cpu (core.c v6.6). The
 * placement decision is taken now; the probes it made cost sim->scan_cost ns
 * on the waking CPU, so the enqueue lands that much later (plus the IPI for a
 * wake-list wakeup). Returns the scan cost to charge to the waker.
 */
static void ttwu_arrive(struct ss_sim *sim, struct ss_task *p);

static uint64_t try_to_wake_up(struct ss_sim *sim, struct ss_task *p, int wake_flags)
{
	int cpu;
	uint64_t cost, at;

	if (ss_tracing(sim))
		ss_ft_waking(sim, p);
	if (!p->wake_time)   /* set earlier when an idle CPU had to wake up to run the timer */
		p->wake_time = sim->now;
	p->state = SS_TASK_WAKING;
	sim->scan_cost = 0;
	wake_flags |= WF_TTWU;
	/* cost.newidle_time: p blocked and its CPU is still in schedule(),
	 * balancing (p->on_cpu): "if (smp_load_acquire(&p->on_cpu) &&
	 * ttwu_queue_wakelist(p, task_cpu(p), wake_flags | WF_ON_CPU)) goto
	 * unlock;" (try_to_wake_up(), core.c v5.17; v6.6 without the flag) —
	 * queued on that CPU's wake list, no select_task_rq(). When the wake list
	 * is refused the kernel waits for on_cpu and places p as usual; here it
	 * is placed at once (the wait is not modelled). */
	bool on_cpu = false;
	{
		struct ss_rq *prq = &sim->rq[p->cpu];
		if (__builtin_expect(prq->in_newidle, 0) && prq->newidle_prev == p &&
		    ss_feat(sim->features, SS_FEAT_TTWU_QUEUE)) {
			if (sim->kernel == SS_KERNEL_5_17)   /* v5.17 ttwu_queue_cond(cpu, WF_ON_CPU); not this CPU:
								  ttwu_queue_wakelist()'s WARN_ON_ONCE() */
				on_cpu = (unsigned)p->cpu != sim->this_cpu &&
					 ss_cpumask_test(sim->topo->active_mask, (unsigned)p->cpu) &&
					 (!ss_cpus_share_cache(sim->topo, sim->this_cpu, (unsigned)p->cpu) ||
					  prq->cfs.nr_running <= 1);
			else
				on_cpu = ss_ttwu_queue_cond_v6_6(sim, p, (unsigned)p->cpu);
		}
	}
	if (on_cpu) {
		cpu = p->cpu;
		if (sim->measuring && !p->kthread)
			sim->res->wakeups_on_cpu++;
	} else if (p->nr_cpus_allowed > 1) {
		/* select_task_rq(): the class hook only if more than one CPU is allowed */
		cpu = sim->policy->select_task_rq(sim, p, p->cpu, wake_flags);
		if (ss_tracing(sim))
			ss_ft_select_task_rq(sim, p, wake_flags, cpu);
	} else {
		cpu = (int)ss_cpumask_first(p->cpus_ptr, sim->nr_cpus);
	}
	/* select_task_rq(): "if (unlikely(!is_cpu_allowed(p, cpu))) cpu = select_fallback_rq(task_cpu(p), p)" */
	if (!cpu_allowed(sim, p, cpu)) {
		cpu = select_fallback_rq(sim, p, p->cpu);
		if (sim->measuring)
			sim->res->wakeups_fallback++;
	}
	const unsigned prev_cpu = p->cpu;
	if ((unsigned)cpu != prev_cpu)
		set_task_cpu(sim, p, (unsigned)cpu, SS_MIG_WAKEUP, false);
	cost = sim->scan_cost;
	bool cpu_idle = ss_idle_cpu(sim, (unsigned)cpu);
	p->chose_idle = cpu_idle && (unsigned)cpu != sim->this_cpu;
	if (p->chose_idle) {
		struct ss_rq *trq = &sim->rq[cpu];
		p->stack_risk = trq->idle_pending > 0;
		trq->idle_pending++;
		p->idle_seq = ++trq->idle_choices;
	}
	if (sim->measuring && !p->kthread) {
		const struct ss_cpu_topo *w = &sim->topo->cpu[sim->this_cpu], *c = &sim->topo->cpu[cpu];
		if (!cpu_idle)
			sim->res->wakeups_busy++;
		sim->res->contention.wakeups_chose_idle += p->chose_idle;
		sim->res->wakeups_remote_llc += w->llc != c->llc;
		sim->res->wakeups_remote_node += w->node != c->node;
		if ((unsigned)cpu == sim->this_cpu)
			sim->res->wakeups_on_waker_cpu++;
		else if ((unsigned)cpu == prev_cpu)
			sim->res->wakeups_on_prev_cpu++;
		sim->res->wakeups++;
		sim->res->cpu[cpu].wakeups++;
		sim->res->scan_time_ns += cost;
	}
	at = sim->now + cost;
	p->via_wakelist = on_cpu ||
			  (ss_feat(sim->features, SS_FEAT_TTWU_QUEUE) && sim->ttwu_queue_cond(sim, p, (unsigned)cpu));
	p->drain_locked = 0;
	{
		struct ss_rq *trq = &sim->rq[cpu];
		uint64_t claim;
		if (p->via_wakelist) {
			/* __ttwu_queue_wakelist(): set ttwu_pending (a write of the
			 * target's first line by the waker), send the IPI (none to a
			 * polling idle CPU); an idle target leaves its idle state first */
			claim = at;
			trq->ttwu_pending++;
			ss_rq_line_write(sim, (unsigned)cpu, sim->this_cpu);
			at += ss_cpu_wake_cost(sim, trq, true);
		} else {
			trq->wake_inflight++;
			if ((unsigned)cpu != sim->this_cpu && sim->params.rq_lock_ns) {
				/* ttwu_queue() -> rq_lock(target): the waker spins on its own
				 * CPU until the lock is free, then enqueues under it
				 * (cost.rq_lock_ns hold time) */
				uint64_t hold = sim->params.rq_lock_ns;
				uint64_t wait = ss_rq_lock(sim, trq, at, hold, sim->this_cpu, SS_LOCK_TTWU);
				cost += wait + hold;
				at += wait + hold;
			}
			claim = at;   /* activate_task(): nr_running counts it */
			/* check_preempt_curr() on an idle rq: resched_curr() IPIs it (a
			 * CPU in a held newidle balance sees nr_running at its pass end) */
			if ((unsigned)cpu != sim->this_cpu && !trq->curr && !trq->in_newidle)
				at += ss_cpu_wake_cost(sim, trq, true);
		}
		/* the claim: from the decision, or (cost.claim_after_scan) from the
		 * end of the scan; the earliest of the wakeups pending here */
		if (!sim->params.claim_after_scan)
			claim = sim->now;
		if (trq->ttwu_pending + trq->wake_inflight == 1 || claim < trq->claim_min)
			trq->claim_min = claim;
		trq->claim_cpu = (uint16_t)sim->this_cpu;
	}
	p->waker_cpu = (uint16_t)sim->this_cpu;
	if (at == sim->now) {
		/* a direct enqueue with nothing to wait for happens inside ttwu */
		ttwu_arrive(sim, p);
		return 0;
	}
	ss_evq_schedule(&sim->evq, &p->ev_arrive, at, SS_EV_ARRIVE, (unsigned)cpu);
	return cost;
}

/* ttwu_do_activate() on the target CPU (core.c v6.6), at arrival. */
static void ttwu_arrive(struct ss_sim *sim, struct ss_task *p)
{
	struct ss_rq *rq = &sim->rq[p->cpu];
	bool preempt;

	if (p->via_wakelist && !p->drain_locked && sim->params.rq_lock_ns && sim->params.rq_lock_all) {
		/* sched_ttwu_pending(): the target takes its own rq lock to drain
		 * the wake list; a wait for it delays the enqueue and the task the
		 * IPI interrupted */
		uint64_t wait = ss_rq_lock(sim, rq, sim->now, sim->params.rq_lock_ns, rq->cpu, SS_LOCK_DRAIN);
		p->drain_locked = 1;
		if (wait) {
			ss_delay_curr(sim, rq, wait);
			ss_evq_schedule(&sim->evq, &p->ev_arrive, sim->now + wait, SS_EV_ARRIVE, rq->cpu);
			return;
		}
	}
	if (p->via_wakelist)
		rq->ttwu_pending--;
	else
		rq->wake_inflight--;
	if (!rq->ttwu_pending && !rq->wake_inflight)
		rq->claim_min = 0;
	/* a CPU that was idle when this scan chose it, taken before this
	 * enqueue by a wakeup whose scan also found it idle: one pending at this
	 * decision but not yet claimed, or one that decided after it */
	if (p->chose_idle) {
		rq->idle_pending--;
		if ((rq->curr || rq->cfs.nr_running) && (p->stack_risk || rq->idle_choices != p->idle_seq)) {
			if (sim->measuring)
				sim->res->contention.wakeups_stacked++;
			if (ss_tracing(sim))
				ss_ft_wakeup_stacked(sim, p, rq);
		}
	}
	enqueue_task(sim, rq, p, true);
	if (!p->via_wakelist && p->waker_cpu != rq->cpu)
		ss_rq_line_write(sim, rq->cpu, p->waker_cpu);   /* the waker enqueued under the lock */
	/* avg_idle from idle_stamp (ttwu_do_activate) */
	if (rq->idle_stamp) {
		uint64_t delta = rq->clock - rq->idle_stamp;
		uint64_t max = 2 * rq->max_idle_balance_cost;
		ss_update_avg(&rq->avg_idle, delta);
		if (rq->avg_idle > max)
			rq->avg_idle = max;
		rq->wake_stamp = ss_jiffies(sim);
		rq->wake_avg_idle = rq->avg_idle / 2;
		rq->idle_stamp = 0;
	}
	if (!rq->curr) {
		if (ss_tracing(sim))
			ss_ft_wakeup(sim, p, p->via_wakelist ? rq->cpu : p->waker_cpu, false,
				     p->via_wakelist || p->waker_cpu == rq->cpu, p->via_wakelist);
		schedule(sim, rq);
		return;
	}
	/* check_preempt_curr() -> check_preempt_wakeup() (EEVDF rule) */
	preempt = ss_feat(sim->features, SS_FEAT_WAKEUP_PREEMPTION) &&
		  sim->fair->check_preempt_wakeup(sim, rq, &p->se, false);
	/* trace_sched_wakeup() in ttwu_do_activate(): on the target for a wake-list
	 * wakeup (its IPI), else on the waking CPU */
	if (ss_tracing(sim))
		ss_ft_wakeup(sim, p, p->via_wakelist ? rq->cpu : p->waker_cpu, false,
			     preempt && (p->via_wakelist || p->waker_cpu == rq->cpu), p->via_wakelist);
	if (preempt) {
		/* The wake list is processed by the target itself (its IPI already
		 * paid), and a wakeup onto the waker's own CPU preempts at once. */
		if (p->via_wakelist || p->waker_cpu == rq->cpu) {
			resched_curr(sim, rq);
		} else {
			/* a remote resched_curr() sends a reschedule IPI */
			if (!ss_ev_queued(&rq->ev_resched))
				ss_evq_schedule(&sim->evq, &rq->ev_resched, sim->now + sim->params.ipi_ns,
						SS_EV_RESCHED, rq->cpu);
			if (sim->measuring) {
				sim->res->ipis++;
				sim->res->lost.ipi += sim->params.ipi_ns;
			}
		}
	}
}

/* A token for p: wake it if it waits for as many as it has. */
static uint64_t post_token(struct ss_sim *sim, struct ss_task *p, bool sync)
{
	p->tokens++;
	if (p->state != SS_TASK_BLOCKED || p->block_on != SS_BLOCK_TOKENS || p->tokens < p->wait_need)
		return 0;
	p->tokens -= p->wait_need;
	p->wait_need = 0;
	return try_to_wake_up(sim, p, sync ? WF_SYNC : 0);
}

/* ------------------------------------------------------------ balancer moves */

/*
 * A remote resched_curr() (smp_send_reschedule()): a busy CPU gets the IPI;
 * an idle one also leaves its idle state (no IPI if it polls).
 */
static void send_resched_ipi(struct ss_sim *sim, struct ss_rq *rq)
{
	uint64_t at;
	if (!rq->curr) {
		at = sim->now + ss_cpu_wake_cost(sim, rq, true);
	} else {
		at = sim->now + sim->params.ipi_ns;
		if (sim->measuring) {
			sim->res->ipis++;
			sim->res->lost.ipi += sim->params.ipi_ns;
		}
	}
	if (!ss_ev_queued(&rq->ev_resched) || rq->ev_resched.time > at)
		ss_evq_schedule(&sim->evq, &rq->ev_resched, at, SS_EV_RESCHED, rq->cpu);
}

/*
 * detach_task() (fair.c v6.6): deactivate_task(src, p, DEQUEUE_NOCLOCK) —
 * dequeue_task_fair() of a migrating task (util_est_dequeue, update_curr,
 * update_load_avg(DO_DETACH), dequeue_entity keeping the lag) — then
 * set_task_cpu(p, dst).
 */
void ss_detach_task(struct ss_sim *sim, struct ss_task *p, unsigned dst_cpu, unsigned cause)
{
	struct ss_rq *src = &sim->rq[p->cpu];
	ss_util_est_dequeue(&src->cfs_avg, &p->avg);
	if (src->cfs.curr)
		sim->fair->update_curr(sim, src);
	pelt_update(sim, src, p, SS_UPDATE_TG | SS_DO_DETACH);
	sim->fair->dequeue_entity(sim, src, &p->se, false);
	ss_tasks_del(sim, src, p);
	/* (util_est_update(task_sleep = false) does nothing; work_left is work:
	 * the rest of a preempted burst runs at the new CPU's speed) */
	set_task_cpu(sim, p, dst_cpu, cause, true);
	ss_rq_line_write(sim, src->cpu, sim->this_cpu);
	rq_acct(sim, src);
	if (ss_tracing(sim))
		ss_ft_nr_running(sim, src);
}

/*
 * attach_task() (fair.c v6.6): activate_task() on the task's new rq, then
 * check_preempt_curr(). An idle CPU is rescheduled: at once when the
 * balancing code runs on it (local), else by a reschedule IPI.
 */
void ss_attach_task(struct ss_sim *sim, struct ss_task *p, bool local, bool in_newidle)
{
	struct ss_rq *rq = &sim->rq[p->cpu];
	enqueue_task(sim, rq, p, false);
	if (!local)
		ss_rq_line_write(sim, rq->cpu, sim->this_cpu);
	if (in_newidle)
		return;   /* inside schedule(): pick_next_task_fair() picks again */
	if (!rq->curr) {
		if (rq->stopper_running)
			return;
		if (local)
			schedule(sim, rq);
		else
			send_resched_ipi(sim, rq);
		return;
	}
	if (ss_feat(sim->features, SS_FEAT_WAKEUP_PREEMPTION) &&
	    sim->fair->check_preempt_wakeup(sim, rq, &p->se, false)) {
		if (local)
			resched_curr(sim, rq);
		else
			send_resched_ipi(sim, rq);
	}
}

void ss_delay_curr(struct ss_sim *sim, struct ss_rq *rq, uint64_t ns)
{
	/* softirq time on this CPU: the running task's burst ends that much later */
	struct ss_task *p = rq->curr;
	if (!p || !ss_ev_queued(&rq->ev_run_end))
		return;
	progress(sim, rq, p);
	p->overhead_left += ns;
	start_burst(sim, rq, p);
}

void ss_queue_stopper(struct ss_sim *sim, unsigned cpu)
{
	/* stop_one_cpu_nowait(): queue the work, wake the stopper thread; on a
	 * remote CPU that is a reschedule IPI */
	struct ss_rq *rq = &sim->rq[cpu];
	uint64_t at = sim->now;
	if (ss_ev_queued(&rq->ev_stop))
		return;
	if (cpu != sim->this_cpu) {
		at += rq->curr ? sim->params.ipi_ns : ss_cpu_wake_cost(sim, rq, true);
		if (rq->curr && sim->measuring) {
			sim->res->ipis++;
			sim->res->lost.ipi += sim->params.ipi_ns;
		}
	}
	ss_evq_schedule(&sim->evq, &rq->ev_stop, at, SS_EV_STOP, cpu);
}

/*
 * The stopper thread (cpu_stopper_thread, stop class) takes rq's CPU from
 * its running task prev: prev's burst stops, it is put back on the rq
 * (put_prev_task_fair() -> put_prev_entity()) and the stopper runs, as
 * rq->cpu, until stopper_finish(). The caller has updated rq's clock.
 */
static void stopper_preempt(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *prev)
{
	stop_burst(sim, rq, prev);
	sim->fair->update_curr(sim, rq);
	pelt_update(sim, rq, prev, 0);       /* put_prev_entity() */
	ss_put_prev_entity(&rq->cfs, &prev->se);
	if (ss_tracing(sim))
		ss_ft_switch(sim, rq, prev, NULL, SS_FT_NEXT_STOPPER);
	bw_change(sim, rq, prev, -1);
	account_busy(sim, rq);
	kthread_stint_end(sim, rq);
	rq->curr = NULL;
	rq->stopper_running = true;
	sim->this_cpu = rq->cpu;
}

/* The stopper's work is done: the CPU switches to its next task (a context switch). */
static void stopper_finish(struct ss_sim *sim, struct ss_rq *rq, unsigned saved_this)
{
	sim->this_cpu = saved_this;
	rq->stopper_running = false;
	__schedule(sim, rq, true);
}

/*
 * The stopper runs on rq (cpu_stopper_thread, stop class): it preempts the
 * running task (put back on the rq), runs active_load_balance_cpu_stop(),
 * and the CPU switches to the next task — a context switch. On a CPU that
 * went idle meanwhile it finds nothing to move (nr_running <= 1).
 */
static void run_stopper(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_task *prev = rq->curr;
	unsigned saved_this = sim->this_cpu;
	ss_update_rq_clock(sim, rq);
	if (!prev) {
		rq->active_balance = false;
		ss_idle_reenter(sim, rq);
		return;
	}
	stopper_preempt(sim, rq, prev);
	ss_active_load_balance_cpu_stop(sim, rq);
	stopper_finish(sim, rq, saved_this);
}

/* ------------------------------------------------------------ task programs */

static void sim_fail(struct ss_sim *sim, const char *fmt, const char *name)
{
	if (!sim->fatal)
		g_set_error(&sim->fatal, SS_ERROR, SS_ERROR_INVALID, fmt, name);
}

/* ------------------------------------------------------------ the behaviour language's objects */

static void block_current(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, enum ss_block why)
{
	dequeue_sleep(sim, rq, p);
	p->state = SS_TASK_BLOCKED;
	p->block_on = (uint8_t)why;
	schedule(sim, rq);
}

/* FIFO wait queues threaded through the tasks (task id + 1; a task waits in at most one). */
static void waitq_push(struct ss_sim *sim, uint32_t *head, uint32_t *tail, struct ss_task *p)
{
	p->next_waiter = 0;
	if (*tail)
		sim->tasks[*tail - 1].next_waiter = p->id + 1;
	else
		*head = p->id + 1;
	*tail = p->id + 1;
}

static struct ss_task *waitq_pop(struct ss_sim *sim, uint32_t *head, uint32_t *tail)
{
	struct ss_task *p;

	if (!*head)
		return NULL;
	p = &sim->tasks[*head - 1];
	*head = p->next_waiter;
	if (!*head)
		*tail = 0;
	p->next_waiter = 0;
	return p;
}

/* Wake a task blocked on a channel, mutex or barrier (try_to_wake_up from the current waker). */
static uint64_t wake_blocked(struct ss_sim *sim, struct ss_task *t, bool sync)
{
	return try_to_wake_up(sim, t, sync ? WF_SYNC : 0);
}

/*
 * p, running on rq, wakes w, one waiter of a mutex or semaphore queue
 * (futex_wake() -> wake_up_q(): try_to_wake_up() without WF_SYNC).
 * Returns the probing cost (ns of p's CPU).
 */
static uint64_t wake_waiter(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, struct ss_task *w)
{
	uint64_t cost;

	sim->current = p;
	sim->this_cpu = rq->cpu;
	cost = wake_blocked(sim, w, false);
	sim->current = NULL;
	return cost;
}

/*
 * After p, running on rq, woke tasks at a cost of `cost` ns of its CPU
 * (runqueue probing, kernel time): a cost is charged first (scan_pending)
 * and p goes on; without one, p goes on unless a wakee enqueued on rq
 * preempted it. Returns whether task_continue() goes on with p's program.
 */
static bool waker_goes_on(struct ss_rq *rq, struct ss_task *p, uint64_t cost)
{
	if (cost) {
		p->scan_pending = cost;
		return true;
	}
	return rq->curr == p;
}

/*
 * unlock of mutex m by its owner p on rq: hand it to the first waiter (FIFO)
 * and wake it (futex wake: no WF_SYNC). Returns the wakeup's probing cost
 * (ns of p's CPU).
 */
static uint64_t mutex_unlock(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, struct ss_sync_obj *m)
{
	struct ss_task *w = waitq_pop(sim, &m->head, &m->tail);

	m->owner = w ? w->id + 1 : 0;
	return w ? wake_waiter(sim, rq, p, w) : 0;
}

/*
 * pthread_cond_signal() / pthread_cond_broadcast() by p on rq: take the
 * first waiter (all of them) off condition cv's wait queue and wake it
 * (glibc: FUTEX_WAKE of 1 / of all; futex_wake() -> wake_up_q(): no
 * WF_SYNC; the futex queue is FIFO among SCHED_OTHER waiters). Nobody
 * waiting: nothing happens, the wakeup is lost (a condition has no
 * memory). A waiter still on its way to sleep (its mutex release is being
 * paid for, or it was preempted there) is only marked: its futex_wait()
 * returns at once. Returns the probing cost (ns of p's CPU).
 */
static uint64_t cond_wake(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, struct ss_sync_obj *cv, bool all)
{
	uint64_t cost = 0;

	sim->current = p;
	sim->this_cpu = rq->cpu;
	for (struct ss_task *w; (w = waitq_pop(sim, &cv->head, &cv->tail));) {
		if (w->state == SS_TASK_BLOCKED)
			cost += wake_blocked(sim, w, false);
		else
			w->block_on = SS_BLOCK_COND_SIGNALLED;
		if (!all)
			break;
	}
	sim->current = NULL;
	return cost;
}

/*
 * send: one message into t's channel. A blocked receiver is woken (pipe_write
 * / unix_stream_sendmsg wake the reader with wake_up_interruptible_sync_poll:
 * WF_SYNC if the statement says so). A full channel blocks the sender, which
 * queues FIFO on the channel; *blocked tells the caller.
 */
static uint64_t chan_send(struct ss_sim *sim, struct ss_task *p, struct ss_task *t, bool sync, bool *blocked)
{
	*blocked = false;
	if (t->state == SS_TASK_DEAD)
		return 0;   /* a dead reader: the message is lost (EPIPE) */
	if (t->msgs >= t->chan_cap) {
		waitq_push(sim, &t->sendq_head, &t->sendq_tail, p);
		*blocked = true;
		return 0;
	}
	t->msgs++;
	if (t->state == SS_TASK_BLOCKED && t->block_on == SS_BLOCK_RECV)
		return wake_blocked(sim, t, sync);
	return 0;
}

/*
 * recv: take one message from p's own channel (true), or false if it is
 * empty. Taking a message frees a slot: the first blocked sender's message
 * goes in and that sender is woken (pipe_read wakes writers with
 * wake_up_interruptible_sync_poll: WF_SYNC).
 */
static bool chan_take(struct ss_sim *sim, struct ss_task *p, uint64_t *cost)
{
	struct ss_task *s;

	if (!p->msgs)
		return false;
	p->msgs--;
	s = waitq_pop(sim, &p->sendq_head, &p->sendq_tail);
	if (s) {
		p->msgs++;
		*cost += wake_blocked(sim, s, true);
	}
	return true;
}

/* The last task alive has exited: record the finish time and end the run if that is the metric. */
static void task_exited(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	/* task_dead_fair() -> remove_entity_load_avg() (fair.c v6.6) */
	ss_remove_entity_load_avg(&rq->cfs_avg, &p->avg, p->se.weight);
	p->avg.last_update_time = 0;
	if (sim->nr_alive)
		sim->nr_alive--;
	if (p->aff_cls && !--sim->aff_pinned_alive)
		aff_set_multi(sim, false);
	if (!sim->nr_alive && !sim->nr_to_start) {
		sim->finish_ns = sim->now;
		if (sim->res->measure == SS_MEASURE_FINISH)
			ss_evq_schedule(&sim->evq, &sim->ev_stop, sim->now, SS_EV_CONTROL, 1);
	}
}

static void start_task(struct ss_sim *sim, struct ss_task *p);
static void reset_stats(struct ss_sim *sim);

/*
 * wake_up_new_task() (core.c v6.6): p->recent_used_cpu = task_cpu(p) (the
 * parent's CPU, in c->cpu), then select_task_rq(p, task_cpu(p), WF_FORK) —
 * the policy's, so a policy that acts on forks sees them — and
 * select_fallback_rq() for an answer p may not use. sim->this_cpu is the
 * forking CPU. Returns the CPU the child starts on.
 */
static int fork_place(struct ss_sim *sim, struct ss_task *c)
{
	int cpu;

	c->recent_used_cpu = c->cpu;
	if (c->nr_cpus_allowed > 1)
		cpu = sim->policy->select_task_rq(sim, c, c->cpu, WF_FORK);
	else
		cpu = (int)ss_cpumask_first(c->cpus_ptr, sim->nr_cpus);
	if (!cpu_allowed(sim, c, cpu)) {   /* select_fallback_rq(task_cpu(p) = the parent's CPU, p) */
		cpu = select_fallback_rq(sim, c, c->cpu);
		if (sim->measuring)
			sim->res->fork_fallback++;
	}
	if (ss_tracing(sim))
		ss_ft_fork_place(sim, c, "parent_cpu", sim->this_cpu, cpu);
	return cpu;
}

/*
 * spawn: fork `count` tasks into the free slots (never started or exited) of
 * the set target..target+nr-1, as wake_up_new_task() (core.c v6.6): the
 * child starts on the parent's CPU, select_task_rq(WF_FORK) (the fork slow
 * path, find_idlest_cpu) places it, post_init_entity_util_avg() gives its
 * util on the new rq, then it is enqueued and may preempt the CPU's task.
 */
static void do_spawn(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *parent, const struct ss_wl_action *a)
{
	uint32_t k = 0;

	for (uint32_t i = 0; i < a->nr && k < a->count; i++) {
		struct ss_task *c = &sim->tasks[a->target + i];
		int cpu;

		if (c->state != SS_TASK_DEAD)
			continue;
		k++;
		/* sched_fork(): a fresh entity, the parent's CPU */
		ss_wl_cursor_init(&c->cursor);
		c->tokens = c->wait_need = c->msgs = c->recv_left = c->rr = 0;
		c->sendq_head = c->sendq_tail = c->next_waiter = 0;
		c->timer_next = c->work_left = c->scan_pending = c->wake_time = c->run_work = c->wall_end = 0;
		c->has_held = false;
		c->overhead_left = 0;
		c->last_wakee = c->wakee_flips = 0;
		c->last_ran_cpu = -1;   /* a new process: cold cache, memory touched afresh */
		c->mem_home = sim->plan->task[c->id].mem_node;
		c->cpu = parent->cpu;
		sim->this_cpu = rq->cpu;
		sim->current = parent;
		sim->fair->task_fork(sim, rq, &c->se, true);   /* sched_fork() -> task_fork_fair() */
		cpu = fork_place(sim, c);
		sim->current = NULL;
		c->cpu = cpu;
		if (sim->measuring)
			sim->res->spawns++;
		start_task(sim, c);
	}
	if (k < a->count)
		sim_fail(sim, "task %s spawns more tasks of a role than it has slots (raise the role's count)",
			 sim->plan->task[parent->id].path);
}

/*
 * The running task p on rq finished its burst: run its program until it
 * starts a new burst or blocks. Returns with rq rescheduled if p left the CPU.
 */
/*
 * sched_setaffinity() of the running task p on rq, to CPU set `target` - 1
 * (0: every allowed CPU), as v6.6 __set_cpus_allowed_ptr_locked() runs it:
 * an equal mask changes nothing; else the mask is set (__do_set_cpus_
 * allowed()), and if p's CPU is still in it nothing moves
 * (affine_move_task()). Otherwise dest_cpu = cpumask_any_and_distribute(
 * cpu_active_mask, new mask) — the next CPU of the mask after this CPU's
 * distribute_cpu_mask_prev, wrapping — and, p running, stop_one_cpu()
 * runs migration_cpu_stop() on this CPU: the stopper preempts p
 * (put back on its rq), move_queued_task() deactivates it, sets its CPU and
 * activates it on dest_cpu's rq with check_preempt_curr(); this CPU then
 * switches to its next task. Returns whether p still runs on rq.
 */
static bool set_cpus_allowed(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p, uint32_t target)
{
	unsigned nr_roles = ss_workload_nr_roles(sim->plan->wl);
	const uint64_t *m = target && target <= sim->nr_cpusets ?
			    &sim->cpuset_cpus[(size_t)(target - 1) * sim->nr_words] : sim->allowed_mask;
	uint16_t cls = target && target <= sim->nr_cpusets ? (uint16_t)(1 + nr_roles + target - 1) : 0;
	unsigned dest, saved_this = sim->this_cpu;

	if (p->cpus_ptr == m || ss_cpumask_equal(p->cpus_ptr, m, sim->nr_words))
		return true;
	/* the class of the idle-with-work figure: p runs, so no rq counts it as waiting now */
	if (!p->aff_cls && cls && !sim->aff_pinned_alive++)
		aff_set_multi(sim, true);
	else if (p->aff_cls && !cls && !--sim->aff_pinned_alive)
		aff_set_multi(sim, false);
	p->aff_cls = cls;
	p->cpus_ptr = m;
	p->nr_cpus_allowed = ss_cpumask_weight(m, sim->nr_words);
	if (ss_cpumask_test(m, rq->cpu))
		return true;
	dest = ss_cpumask_next(m, sim->nr_cpus, rq->distribute_prev + 1);
	if (dest >= sim->nr_cpus)
		dest = ss_cpumask_first(m, sim->nr_cpus);
	rq->distribute_prev = dest;
	/* stop_one_cpu(migration_cpu_stop): the stopper takes the CPU from p */
	ss_update_rq_clock(sim, rq);
	stopper_preempt(sim, rq, p);
	/* move_queued_task(): deactivate_task, set_task_cpu, activate_task + check_preempt_curr on dest */
	ss_detach_task(sim, p, dest, SS_MIG_AFFINITY);
	ss_attach_task(sim, p, false, false);
	stopper_finish(sim, rq, saved_this);
	return false;
}

/*
 * sched_exec() (core.c v6.6), early in bprm_execve() of the running task p
 * on rq: dest_cpu = select_task_rq(p, task_cpu(p), WF_EXEC) — the policy's;
 * select_task_rq_fair() takes the slow path, as sd_init() sets
 * SD_BALANCE_EXEC wherever it sets SD_BALANCE_FORK: find_idlest_cpu() with
 * p's own load left out of its CPU (fork.c) — with one allowed CPU that
 * CPU, and select_fallback_rq() for an answer p may not use. This CPU:
 * nothing. Another: stop_one_cpu(task_cpu(p), migration_cpu_stop): the
 * stopper preempts p and __migrate_task() -> move_queued_task() moves it to
 * dest_cpu (migrations.exec); this CPU then switches to its next task. The
 * same steps in v5.17. Returns whether p still runs on rq.
 */
static bool sched_exec(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	unsigned saved_this = sim->this_cpu;
	int dest;

	sim->this_cpu = rq->cpu;
	sim->current = p;
	/*
	 * sched_exec() (core.c v6.6) calls p->sched_class->select_task_rq() itself, not the
	 * core's select_task_rq(): no select_fallback_rq() for an answer the
	 * task may not use. (A task with one allowed CPU runs on it, which is
	 * what select_task_rq_fair()'s find_idlest_cpu() answers: asked here
	 * without the walk.)
	 */
	if (p->nr_cpus_allowed > 1)
		dest = sim->policy->select_task_rq(sim, p, p->cpu, WF_EXEC);
	else
		dest = (int)ss_cpumask_first(p->cpus_ptr, sim->nr_cpus);
	if (ss_tracing(sim))
		ss_ft_fork_place(sim, p, "exec_cpu", rq->cpu, dest);
	sim->current = NULL;
	sim->this_cpu = saved_this;
	/* the new image (exec_mmap()) is memory touched afresh, hot on no CPU: no refill after
	 * a move for it, and its home node is where it first runs, as a new process's */
	p->last_ran_cpu = -1;
	p->mem_home = sim->plan->task[p->id].mem_node;
	/* dest_cpu == smp_processor_id(), or !cpu_active(dest_cpu): the task stays, no stopper */
	if (dest == (int)rq->cpu || dest < 0 || (unsigned)dest >= sim->nr_cpus ||
	    !ss_cpumask_test(sim->topo->active_mask, (unsigned)dest)) {
		if (dest != (int)rq->cpu && sim->measuring)
			sim->res->exec_refused++;
		return true;
	}
	ss_update_rq_clock(sim, rq);
	stopper_preempt(sim, rq, p);
	/* migration_cpu_stop() -> __migrate_task(): !is_cpu_allowed(p, dest_cpu) leaves it where it is */
	if (cpu_allowed(sim, p, dest)) {
		ss_detach_task(sim, p, (unsigned)dest, SS_MIG_EXEC);
		ss_attach_task(sim, p, false, false);
	} else if (sim->measuring) {
		sim->res->exec_refused++;
	}
	stopper_finish(sim, rq, saved_this);
	return false;
}

static void task_continue(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	struct ss_wl_action a;

	for (;;) {
		if (p->has_held) {
			a = p->held;
			p->has_held = false;
		} else {
			if (++sim->actions_without_time > SS_MAX_ACTIONS_WITHOUT_TIME) {
				sim_fail(sim, "task %s keeps acting without simulated time passing (a loop with no run, sleep or wait)",
					 sim->plan->task[p->id].path);
				return;
			}
			if (p->stop_at && sim->now >= p->stop_at) {
				memset(&a, 0, sizeof a);
				a.kind = SS_ACT_EXIT;
			} else {
				ss_wl_next(sim->plan, p->id, &p->cursor, &p->rng, &a);
			}
		}
		if (a.kind == SS_ACT_RUN)
			p->run_work = a.ns;
		if (p->scan_pending) {
			/*
			 * The last wakeup's probes cost scan_pending ns of this CPU.
			 * A run that follows directly continues that busy stretch
			 * (one burst, one event); any other action waits for its end.
			 */
			uint64_t c = p->scan_pending;
			p->scan_pending = 0;
			p->overhead_left += c;
			if (a.kind == SS_ACT_RUN) {
				if (sim->trace && !p->kthread)
					sim->trace(sim->trace_ctx, sim->now + c, p->id, &a);
				p->work_left = a.ns;
			} else if (a.kind == SS_ACT_RUN_WALL) {
				/* the wall time counts from the end of the probing */
				if (sim->trace && !p->kthread)
					sim->trace(sim->trace_ctx, sim->now + c, p->id, &a);
				set_wall_burst(sim, p, c + a.ns);
			} else {
				p->held = a;
				p->has_held = true;
				p->work_left = 0;
			}
			p->run_start = sim->now;
			start_burst(sim, rq, p);
			return;
		}
		if (sim->trace && !p->kthread)
			sim->trace(sim->trace_ctx, sim->now, p->id, &a);
		switch (a.kind) {
		case SS_ACT_RUN:
			if (!a.ns)
				continue;
			p->work_left = a.ns;
			p->run_start = sim->now;
			start_burst(sim, rq, p);
			return;
		case SS_ACT_RUN_WALL:
			if (!a.ns)
				continue;
			set_wall_burst(sim, p, a.ns);
			p->run_start = sim->now;
			start_burst(sim, rq, p);
			return;
		case SS_ACT_SLEEP:
			dequeue_sleep(sim, rq, p);
			p->state = SS_TASK_SLEEPING;
			ss_evq_schedule(&sim->evq, &p->ev_timer, sim->now + a.ns, SS_EV_TIMER, (unsigned)p->cpu);
			ss_timer_armed(rq, sim->now + a.ns);
			schedule(sim, rq);
			return;
		case SS_ACT_WAKE: {
			uint64_t cost = 0;
			uint32_t first = a.target, n = 1;

			if (a.pick == SS_PICK_ALL)
				n = a.nr;
			else if (a.pick == SS_PICK_RR)
				first = a.target + p->rr++ % a.nr;
			sim->current = p;
			sim->this_cpu = rq->cpu;
			if (a.pick == SS_PICK_ALL) {   /* every replica, maybe a burst (docs/output.md "Bursts") */
				cost = wake_all(sim, &a);
				n = 0;
			}
			for (uint32_t i = 0; i < n; i++) {
				struct ss_task *t = &sim->tasks[first + i];

				if (t->state == SS_TASK_DEAD)
					continue;
				/* if_waiting: like schbench's fpost() of a worker on the
				 * message thread's list, only a task blocked in wait is
				 * reached; any other is skipped and gets no token */
				if (a.if_waiting && (t->state != SS_TASK_BLOCKED || t->block_on != SS_BLOCK_TOKENS))
					continue;
				cost += post_token(sim, t, a.sync);
			}
			sim->current = NULL;
			if (!waker_goes_on(rq, p, cost))
				return;
			continue;
		}
		case SS_ACT_WAIT:
			if (p->tokens >= a.count) {
				p->tokens -= a.count;
				continue;
			}
			p->wait_need = a.count;
			block_current(sim, rq, p, SS_BLOCK_TOKENS);
			return;
		case SS_ACT_SEND: {
			struct ss_task *t = &sim->tasks[a.pick == SS_PICK_RR ? a.target + p->rr++ % a.nr : a.target];
			bool blocked;
			uint64_t cost;

			sim->current = p;
			sim->this_cpu = rq->cpu;
			cost = chan_send(sim, p, t, a.sync, &blocked);
			sim->current = NULL;
			if (blocked) {
				block_current(sim, rq, p, SS_BLOCK_SEND);
				return;
			}
			if (!waker_goes_on(rq, p, cost))
				return;
			continue;
		}
		case SS_ACT_RECV: {
			uint64_t cost = 0;
			uint32_t left = a.count;

			sim->current = p;
			sim->this_cpu = rq->cpu;
			while (left && chan_take(sim, p, &cost))
				left--;
			sim->current = NULL;
			if (left) {
				/* the rest is taken later: after the wakeups' probing, or when woken by a send */
				p->held = a;
				p->held.count = left;
				p->has_held = true;
				if (cost) {
					/* the senders woken cost `cost` ns of this CPU (as WAKE): charged
					 * first, then the recv is tried again and blocks if still short */
					p->scan_pending = cost;
					continue;
				}
				if (rq->curr != p)   /* preempted by a sender enqueued here: retry when back */
					return;
				block_current(sim, rq, p, SS_BLOCK_RECV);
				return;
			}
			if (!waker_goes_on(rq, p, cost))
				return;
			continue;
		}
		case SS_ACT_LOCK: {
			struct ss_sync_obj *m = &sim->sync[a.target];

			if (!m->owner) {
				m->owner = p->id + 1;
				continue;
			}
			waitq_push(sim, &m->head, &m->tail, p);
			block_current(sim, rq, p, SS_BLOCK_LOCK);
			return;
		}
		case SS_ACT_UNLOCK: {
			struct ss_sync_obj *m = &sim->sync[a.target];
			uint64_t cost;

			if (m->owner != p->id + 1) {
				sim_fail(sim, "task %s unlocks a mutex it does not hold", sim->plan->task[p->id].path);
				return;
			}
			cost = mutex_unlock(sim, rq, p, m);
			if (!waker_goes_on(rq, p, cost))
				return;
			continue;
		}
		case SS_ACT_BARRIER: {
			struct ss_sync_obj *b = &sim->sync[a.target];
			uint64_t cost = 0;

			if (b->arrived + 1 < a.count) {
				b->arrived++;
				waitq_push(sim, &b->head, &b->tail, p);
				block_current(sim, rq, p, SS_BLOCK_BARRIER);
				return;
			}
			/* the last party wakes all (pthread_cond_broadcast: futex, no WF_SYNC) */
			b->arrived = 0;
			sim->current = p;
			sim->this_cpu = rq->cpu;
			for (struct ss_task *w; (w = waitq_pop(sim, &b->head, &b->tail));)
				cost += wake_blocked(sim, w, false);
			sim->current = NULL;
			if (!waker_goes_on(rq, p, cost))
				return;
			continue;
		}
		case SS_ACT_COND_WAIT: {
			/*
			 * pthread_cond_wait(cond, mutex), as glibc orders it: join the
			 * condition's wait queue, then release the mutex (which may wake
			 * its next owner), then sleep (futex_wait). Queued before the
			 * release, the task cannot miss a signal sent under the mutex.
			 * If the release's wakeup costs probing time, or its wakee
			 * preempts the task, the sleep is a second step (count 1), taken
			 * when the task runs again unless a signal came meanwhile. Once
			 * woken, the task locks the mutex (a held LOCK), whether it held
			 * it before or not: pthread_cond_wait() returns with it locked.
			 */
			uint64_t cost = 0;

			if (!a.count) {
				struct ss_sync_obj *cv = &sim->sync[a.target];

				waitq_push(sim, &cv->head, &cv->tail, p);
				p->block_on = SS_BLOCK_COND;
				if (a.nr && sim->sync[a.nr - 1].owner == p->id + 1)
					cost = mutex_unlock(sim, rq, p, &sim->sync[a.nr - 1]);
				if (cost || rq->curr != p) {
					p->held = a;
					p->held.count = 1;
					p->has_held = true;
					p->scan_pending = cost;
					if (cost)
						continue;
					return;
				}
			}
			if (a.nr) {
				p->held = (struct ss_wl_action){ .kind = SS_ACT_LOCK, .target = a.nr - 1 };
				p->has_held = true;
			}
			if (p->block_on == SS_BLOCK_COND_SIGNALLED)
				continue;   /* signalled before it slept: futex_wait() returns at once */
			block_current(sim, rq, p, SS_BLOCK_COND);
			return;
		}
		case SS_ACT_COND_SIGNAL:
		case SS_ACT_COND_BROADCAST: {
			uint64_t cost = cond_wake(sim, rq, p, &sim->sync[a.target], a.kind == SS_ACT_COND_BROADCAST);

			if (!waker_goes_on(rq, p, cost))
				return;
			continue;
		}
		case SS_ACT_YIELD:
			/*
			 * do_sched_yield() (core.c, v6.6 and v5.17): schedstat
			 * yld_count, current->sched_class->yield_task(rq), which does
			 * nothing for a task alone on its rq, then schedule(): the
			 * yielder stays runnable and the pick may run another task.
			 * Alone, schedule() picks it again at once: the statement
			 * takes no simulated time.
			 */
			if (sim->measuring)
				sim->res->yields++;
			if (rq->cfs.nr_running <= 1)
				continue;
			sim->fair->yield_task(sim, rq);
			schedule(sim, rq);
			return;
		case SS_ACT_SET_CPUS:
			if (!set_cpus_allowed(sim, rq, p, a.target))
				return;
			continue;
		case SS_ACT_EXEC:
			if (!sched_exec(sim, rq, p))
				return;
			continue;
		case SS_ACT_SEM_POST: {
			/*
			 * sem_post() (glibc nptl sem_post.c __new_sem_post(): the value
			 * goes up, then, with waiters, FUTEX_WAKE of one: the first of
			 * the futex queue, FIFO among SCHED_OTHER tasks; no WF_SYNC).
			 * The unit is not handed over: the woken task retries its
			 * sem_wait() when it runs (sem_waitcommon.c), and whoever
			 * decrements first — the poster itself, say — takes it.
			 */
			struct ss_sync_obj *s = &sim->sync[a.target];
			struct ss_task *w;

			if (s->sem_value == UINT32_MAX) {
				sim_fail(sim, "task %s posts a semaphore past its maximum value (SEM_VALUE_MAX)",
					 sim->plan->task[p->id].path);
				return;
			}
			s->sem_value++;
			w = waitq_pop(sim, &s->head, &s->tail);
			if (!w)
				continue;
			if (!waker_goes_on(rq, p, wake_waiter(sim, rq, p, w)))
				return;
			continue;
		}
		case SS_ACT_SEM_WAIT: {
			/*
			 * sem_wait() (glibc __new_sem_wait_slow()): take a unit if the
			 * value is above 0, else sleep on the futex (at the tail of its
			 * queue); woken by a post, try again from the start (held).
			 */
			struct ss_sync_obj *s = &sim->sync[a.target];

			if (s->sem_value) {
				s->sem_value--;
				continue;
			}
			p->held = a;
			p->has_held = true;
			waitq_push(sim, &s->head, &s->tail, p);
			block_current(sim, rq, p, SS_BLOCK_SEM);
			return;
		}
		case SS_ACT_TIMER: {
			/*
			 * rt-app's absolute timer (rt-app.c run_event(), rtapp_timer):
			 * the first use arms it at t_first (or now) + period, each later
			 * one adds a period; an overrun goes on at once. A shared timer
			 * is one resource for every thread naming it: each use by any
			 * of them advances the one expiry, and the user sleeps to it.
			 */
			uint64_t *next = (a.count & SS_TIMER_SHARED) ? &sim->sync[a.target].timer_next : &p->timer_next;

			if (*next)
				*next += a.ns;
			else
				*next = ((a.count & SS_TIMER_ANCHORED) ? a.anchor_ns : sim->now) + a.ns;
			if (*next <= sim->now) {
				/* rt-app's relative mode restarts the period from now */
				if (a.count & SS_TIMER_RELATIVE)
					*next = sim->now;
				continue;
			}
			dequeue_sleep(sim, rq, p);
			p->state = SS_TASK_SLEEPING;
			ss_evq_schedule(&sim->evq, &p->ev_timer, *next, SS_EV_TIMER, (unsigned)p->cpu);
			schedule(sim, rq);
			return;
		}
		case SS_ACT_SPAWN:
			do_spawn(sim, rq, p, &a);
			if (sim->fatal || rq->curr != p)
				return;
			continue;
		case SS_ACT_TXN_BEGIN:
			p->txn_start = sim->now;
			if (sim->timed_from_begin) {
				/*
				 * A finish time counted from the benchmark's own start
				 * mark (hackbench's gettimeofday(&start) after its
				 * children are ready): the statistics restart here, as
				 * at the end of a warmup, once, before the wakeups that
				 * follow the mark are counted.
				 */
				sim->timed_from_begin = false;
				reset_stats(sim);
			}
			continue;
		case SS_ACT_TXN_END:
			sim->obs_txn++;   /* the run-length observer's count, from t = 0 */
			if (sim->measuring) {
				sim->res->transactions++;
				if (p->txn_start >= sim->measure_start)
					ss_lat_hist_add(&sim->res->txn_latency, sim->now - p->txn_start);
			}
			continue;
		case SS_ACT_EXIT:
			dequeue_sleep(sim, rq, p);
			p->state = SS_TASK_DEAD;
			task_exited(sim, rq, p);
			schedule(sim, rq);
			return;
		}
	}
}

/* ------------------------------------------------------------ event handlers */

static void handle_run_end(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_task *p = rq->curr;
	/* a wake action of the program walks this CPU's domains (wake_target_sd):
	 * at thousands of CPUs their lines are a cache miss, start them now */
	__builtin_prefetch(rq->sd);
	__builtin_prefetch((const char *)rq->sd + 64);
	progress(sim, rq, p);
	p->work_left = 0;
	p->overhead_left = 0;
	p->wall_end = 0;
	if (p->run_work) {
		/* memory traffic: a completed burst moved work × memory_bandwidth bytes */
		uint32_t bw = p->mem_bw_mbps;   /* the plan's, copied at init */

		if (bw) {
			sim->obs_mem += p->run_work * bw / 1000;   /* the run-length observer's, from t = 0 */
			if (sim->measuring)
				sim->res->mem_traffic_bytes += p->run_work * bw / 1000;
		}
		p->run_work = 0;
	}
	task_continue(sim, rq, p);
}

static void handle_timer(struct ss_sim *sim, struct ss_task *p)
{
	if (!p->started) {   /* a phase that starts late */
		start_task(sim, p);
		return;
	}
	/* hrtimer wakeup: interrupt context on the CPU the task slept on, which
	 * first leaves its idle state if it is in one */
	struct ss_rq *rq = &sim->rq[p->cpu];
	ss_timer_fired(rq, p->ev_timer.time);
	if (!rq->curr && rq->idle_state >= 0) {
		uint64_t lat = ss_cpu_wake_cost(sim, rq, false);
		if (lat) {
			p->wake_time = sim->now;
			ss_evq_schedule(&sim->evq, &p->ev_timer, sim->now + lat, SS_EV_TIMER, (unsigned)p->cpu);
			return;
		}
	}
	sim->current = NULL;
	sim->this_cpu = (unsigned)p->cpu;
	try_to_wake_up(sim, p, 0);
	ss_idle_reenter(sim, rq);
}

static void kworker_tick(struct ss_sim *sim, struct ss_rq *rq);

/*
 * The tick's own cost on a busy CPU, with cost.background: the local timer
 * interrupt (cost.tick_ns) and scheduler_tick()'s rq_lock(rq)
 * (cost.rq_lock_ns with cost.rq_lock_all; core.c v6.6 scheduler_tick():
 * rq_lock(rq, &rf) around update_rq_clock() and task_tick()). Both are
 * time the interrupted task does not run.
 */
static void tick_cost(struct ss_sim *sim, struct ss_rq *rq)
{
	uint64_t delay = 0;

	if (!sim->params.background)
		return;
	delay = sim->params.tick_ns;
	if (sim->measuring) {
		sim->res->background.ticks++;
		sim->res->background.tick_ns += delay;
	}
	if (sim->params.rq_lock_all && sim->params.rq_lock_ns)
		delay += ss_rq_lock(sim, rq, sim->now, sim->params.rq_lock_ns, rq->cpu, SS_LOCK_TICK);
	if (delay)
		ss_delay_curr(sim, rq, delay);
}

/* scheduler_tick(), core.c v6.6 (+ task_tick_fair/entity_tick). */
static void handle_tick(struct ss_sim *sim, struct ss_rq *rq)
{
	bool resched;
	if (!rq->curr)
		return;
	tick_cost(sim, rq);
	ss_update_rq_clock(sim, rq);
	resched = sim->fair->entity_tick(sim, rq);   /* task_tick_fair() -> entity_tick() */
	pelt_update(sim, rq, rq->curr, SS_UPDATE_TG);
	ss_update_misfit_status(sim, rq->curr, rq);   /* task_tick_fair() */
	ss_trigger_load_balance(sim, rq);
	if (resched)
		resched_curr(sim, rq);
	/* irq_exit() -> the timer softirq: expired deferrable timers queue the kworker's work */
	if (rq->kworker)
		kworker_tick(sim, rq);
}

/* One jiffy boundary: scheduler_tick() on every ticking CPU, in CPU order. */
static void handle_jiffy(struct ss_sim *sim)
{
	uint64_t *snap = sim->scratch_mask2;
	ss_cpumask_copy(snap, sim->ticking, sim->nr_words);
	for (unsigned c = ss_cpumask_first(snap, sim->nr_cpus); c < sim->nr_cpus; c = ss_cpumask_next(snap, sim->nr_cpus, c + 1)) {
		struct ss_rq *rq = &sim->rq[c];
		if (sim->now >= rq->tick_from && ss_cpumask_test(sim->ticking, c))
			handle_tick(sim, rq);
	}
	if (!ss_cpumask_empty(sim->ticking, sim->nr_words))
		ss_evq_schedule(&sim->evq, &sim->ev_jiffy, sim->now + sim->tick_nsec, SS_EV_TICK, 0);
}

static void sample_series(struct ss_sim *sim)
{
	struct ss_results *r = sim->res;
	uint64_t sum[r->nr_llcs ? r->nr_llcs : 1];
	if (sim->sample_idx >= sim->max_samples)
		return;
	memset(sum, 0, sizeof sum);
	for (unsigned c = 0; c < sim->nr_cpus; c++)
		if (!sim->topo->cpu[c].offline)
			sum[sim->topo->cpu[c].llc_index] += ss_cpu_util_of(sim, c);
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		struct ss_llc_stats *ls = &r->llc[l];
		ls->nr_idle_scan_series[sim->sample_idx] = (uint16_t)sim->llc_shared[l].nr_idle_scan;
		ls->util_series[sim->sample_idx] = (uint16_t)(sum[l] / ls->nr_cpus);
		ls->nr_samples = sim->sample_idx + 1;
	}
	sim->sample_idx++;
}

/* Append a warning (takes msg) to r->warnings (NULL-terminated). */
void ss_results_warn(struct ss_results *r, char *msg)
{
	unsigned n = r->warnings ? g_strv_length(r->warnings) : 0;

	r->warnings = g_renew(char *, r->warnings, n + 2);
	r->warnings[n] = msg;
	r->warnings[n + 1] = NULL;
}

static void reset_stats(struct ss_sim *sim)
{
	struct ss_results *r = sim->res;
	r->transactions = r->wakeups = r->migrations = r->migrations_llc = r->migrations_node = 0;
	r->mem_traffic_bytes = r->spawns = r->yields = 0;
	memset(&r->metric_latency, 0, sizeof r->metric_latency);
	r->ipis = r->context_switches = 0;
	memset(&r->wakeup_latency, 0, sizeof r->wakeup_latency);
	memset(&r->txn_latency, 0, sizeof r->txn_latency);
	r->sis_calls = r->sic_calls = r->sic_probes = r->sic_found = r->sic_nr_exhausted = r->sic_skipped_nr0 = 0;
	r->sis_probes_total = r->scan_time_ns = 0;
	memset(r->sis_outcome, 0, sizeof r->sis_outcome);
	memset(&r->sic_time, 0, sizeof r->sic_time);
	memset(&r->sic_time_core, 0, sizeof r->sic_time_core);
	memset(&r->sic_time_cpu, 0, sizeof r->sic_time_cpu);
	memset(&r->sic_time_us, 0, sizeof r->sic_time_us);
	r->sic_probes_core = r->sic_probes_cpu = 0;
	memset(&r->sic_probes_hist, 0, sizeof r->sic_probes_hist);
	memset(r->sic_budget_calls, 0, sizeof r->sic_budget_calls);
	memset(r->sic_budget_found, 0, sizeof r->sic_budget_found);
	memset(&r->sis, 0, sizeof r->sis);
	memset(&r->sis_scanned_hist, 0, sizeof r->sis_scanned_hist);
	r->wakeups_on_waker_cpu = r->wakeups_on_prev_cpu = 0;
	r->wakeups_busy = r->wakeups_remote_llc = r->wakeups_remote_node = r->wakeups_fallback = r->fork_fallback = r->exec_refused = 0;
	r->lb_stats_passes = r->nohz_kicks = r->nohz_balances = 0;
	memset(r->migrations_by_cause, 0, sizeof r->migrations_by_cause);
	memset(r->migrations_by_level, 0, sizeof r->migrations_by_level);
	memset(r->lb, 0, sizeof r->lb);
	memset(r->rq_depth_ns, 0, sizeof r->rq_depth_ns);
	r->active_pushed = r->newidle_skipped = r->idle_work_llc_ns = r->idle_work_node_ns = 0;
	r->idle_work_allowed_ns = 0;
	r->bursts = r->burst_cover_ns = r->burst_idle_work_ns = r->burst_sampled = r->burst_idle_1ms_cpus = 0;
	r->burst_completed = r->burst_makespan_ns = 0;
	sim->iwa_since = sim->now;
	sim->burst_win_start = sim->burst_win_end = 0;
	memset(&r->lost, 0, sizeof r->lost);
	memset(&r->contention, 0, sizeof r->contention);
	memset(&r->background, 0, sizeof r->background);
	memset(r->idle_state_entries, 0, sizeof r->idle_state_entries);
	r->ipis_saved_polling = 0;
	r->policy_redirects = 0;
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_cpu_stats *cs = &r->cpu[c];
		struct ss_rq *rq = &sim->rq[c];

		memset(cs, 0, sizeof *cs);
		/* the start-up figures run on from t = 0: what they have not taken yet first */
		if (rq->curr || rq->in_newidle)
			startup_busy(sim, rq);
		if (rq->acct_on)
			startup_depth(sim, rq);
		rq->busy_since = sim->now;
		rq->depth_since = sim->now;
	}
	for (unsigned l = 0; l < sim->topo->nr_llc_shared; l++)
		sim->acc_llc[l].since = sim->now;
	for (unsigned n = 0; n < sim->topo->nr_nodes; n++)
		sim->acc_node[n].since = sim->now;
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		struct ss_llc_stats *ls = &r->llc[l];
		ls->nr_idle_scan_weighted = 0;
		ls->sic_calls = ls->sic_probes = ls->sic_found = ls->nr_idle_scan_writes = 0;
		memset(&ls->sis, 0, sizeof ls->sis);
		sim->llc_shared[l].nr_idle_scan_since = sim->now;
	}
	sim->measuring = true;
	sim->measure_start = sim->now;
}

static void finish_stats(struct ss_sim *sim)
{
	struct ss_results *r = sim->res;
	r->lost.probe = r->scan_time_ns;
	ss_sic_time_merge(r);
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_rq *rq = &sim->rq[c];
		account_busy(sim, rq);
		kthread_stint_end(sim, rq);   /* a kworker running at the window's end */
		rq->kthread_since = sim->now;
		r->cpu[c].util_avg = rq->cfs_avg.avg.util_avg;
		if (rq->acct_on) {
			uint64_t d = sim->now - rq->depth_since;

			startup_depth(sim, rq);
			r->rq_depth_ns[rq->acct_depth < SS_RQ_DEPTH_MAX ? rq->acct_depth : SS_RQ_DEPTH_MAX - 1] += d;
			r->cpu[c].nr_running_ns += (uint64_t)rq->acct_depth * d;
			rq->depth_since = sim->now;
		}
	}
	for (unsigned l = 0; l < sim->topo->nr_llc_shared; l++)
		idle_acc_move(sim, &sim->acc_llc[l], &r->idle_work_llc_ns, 0, 0);
	for (unsigned n = 0; n < sim->topo->nr_nodes; n++)
		idle_acc_move(sim, &sim->acc_node[n], &r->idle_work_node_ns, 0, 0);
	iwa_flush(sim);
	if (sim->burst_win_end > sim->burst_win_start)   /* the last burst window, cut at the end */
		r->burst_cover_ns += (sim->now < sim->burst_win_end ? sim->now : sim->burst_win_end) - sim->burst_win_start;
	r->burst_window_ns = sim->params.burst_window_ns;
	r->startup.end_ns = sim->now < sim->startup_end ? sim->now : sim->startup_end;
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		struct ss_sd_shared *sh = &sim->llc_shared[l];
		r->llc[l].nr_idle_scan_weighted += (uint64_t)sh->nr_idle_scan * (sim->now - sh->nr_idle_scan_since);
		r->llc[l].nr_idle_scan_final = sh->nr_idle_scan;
	}
}

void ss_set_nr_idle_scan(struct ss_sim *sim, unsigned llc_index, unsigned nr)
{
	struct ss_sd_shared *sh = &sim->llc_shared[llc_index];
	if (sh->nr_idle_scan == nr)
		return;
	if (sim->measuring) {
		sim->res->llc[llc_index].nr_idle_scan_weighted += (uint64_t)sh->nr_idle_scan * (sim->now - sh->nr_idle_scan_since);
		sim->res->llc[llc_index].nr_idle_scan_writes++;
	}
	sh->nr_idle_scan_since = sim->now;
	sh->nr_idle_scan = nr;
	ss_llc_line_write(sim, llc_index, sim->this_cpu);   /* update_idle_cpu_scan(): atomic_set() */
	if (ss_tracing(sim))
		ss_ft_nr_idle_scan(sim, llc_index, nr);
}

/* ------------------------------------------------------------ setup */

/* --nodes by firmware node id, as numactl -N (ss_topology_parse_nodes()) */
static bool parse_nodes(struct ss_sim *sim, const char *nodes, GError **err)
{
	const struct ss_topology *t = sim->topo;
	uint64_t nm[ (SS_MAX_CPUS + 63) / 64 ];
	/* the CPUs a task may use are at most the online ones: v6.6 __sched_setaffinity()
	 * intersects the request with cpuset_cpus_allowed(), which holds online CPUs only */
	ss_cpumask_zero(sim->allowed_mask, sim->nr_words);
	if (!nodes) {
		ss_cpumask_copy(sim->allowed_mask, t->active_mask, sim->nr_words);
		return true;
	}
	if (!ss_topology_parse_nodes(t, nodes, nm, err)) {
		g_prefix_error(err, "--nodes '%s': ", nodes);
		return false;
	}
	for (unsigned c = 0; c < sim->nr_cpus; c++)
		if (!t->cpu[c].offline && ss_cpumask_test(nm, t->cpu[c].node))
			ss_cpumask_set(sim->allowed_mask, c);
	return true;
}

static void sim_destroy(struct ss_sim *sim)
{
	ss_cline_free(sim);
	if (sim->rq) {
		for (unsigned c = 0; c < sim->nr_cpus; c++) {
			ss_cfs_rq_destroy(&sim->rq[c].cfs);
			g_free(sim->rq[c].sd_rt);
		}
	}
	g_aligned_free(sim->rq);
	g_free(sim->llc_shared);
	g_aligned_free(sim->tasks);
	g_free(sim->sync);
	g_free(sim->task_cpus);
	g_free(sim->cpuset_cpus);
	g_free(sim->kworker_cpus);
	g_free(sim->kworker_insn);
	if (sim->plan)
		ss_wl_plan_free(sim->plan);
	ss_evq_destroy(&sim->evq);
	g_free(sim->allowed_mask);
	g_free(sim->scratch_mask);
	g_free(sim->scratch_mask2);
	g_free(sim->nohz_idle_cpus_mask);
	g_free(sim->ticking);
	g_free(sim->acc_llc);
	g_free(sim->acc_node);
	g_free(sim->aff_wait);
	g_free(sim->aff_mask);
	g_free(sim->aff_rq_wait);
	g_free(sim->aff_scratch);
	g_free(sim->iwa_idle);
	g_free(sim->iwa_union);
	g_free(sim->llc_scan_written);
	ss_balance_free(sim);
	g_free(sim->core_busy);
	g_free(sim->node_bw_demand);
	g_free(sim->node_bw_cpus);
	g_free(sim->policy_state);
	g_clear_error(&sim->fatal);
}

static struct ss_results *results_new(struct ss_sim *sim, const struct ss_run_config *cfg)
{
	const struct ss_topology *t = sim->topo;
	struct ss_results *r = g_new0(struct ss_results, 1);
	r->topology = g_strdup(t->name);
	r->topology_file = g_strdup(t->file);
	r->workload = g_strdup(ss_workload_name(cfg->wl));
	r->policy = g_strdup(sim->policy->name);
	r->features = ss_features_format_kernel(sim->features, sim->kernel);
	r->kernel = sim->kernel;
	r->policy_base = sim->policy_base;
	r->seed = cfg->seed;
	r->warnings = g_new0(char *, 1);
	r->duration_ns = cfg->duration_ns;
	r->warmup_ns = cfg->warmup_ns;
	r->sample_ns = cfg->sample_ns ? cfg->sample_ns : 100000000;
	r->load_pct_x100 = cfg->load_pct_x100;
	r->nr_cpus = sim->nr_cpus;
	r->nr_allowed_cpus = ss_cpumask_weight(sim->allowed_mask, sim->nr_words);
	r->nr_online_cpus = t->nr_active;
	if (t->nr_active < t->nr_cpus) {
		unsigned len = 8 * sim->nr_cpus + 16;
		uint64_t *off = g_new0(uint64_t, sim->nr_words);

		for (unsigned c = 0; c < sim->nr_cpus; c++)
			if (t->cpu[c].offline)
				ss_cpumask_set(off, c);
		r->cpu_offline = g_new0(bool, sim->nr_cpus);
		for (unsigned c = 0; c < sim->nr_cpus; c++)
			r->cpu_offline[c] = t->cpu[c].offline;
		r->offline_cpus = g_malloc(len);
		ss_cpumask_format_list(off, sim->nr_cpus, r->offline_cpus, len);
		g_free(off);
	}
	r->instance_unit = g_strdup(ss_workload_instance_unit(cfg->wl));
	{
		const struct ss_wl_metric *m = ss_workload_metric(cfg->wl);
		r->metric_name = g_strdup(m->name);
		r->metric_unit = g_strdup(m->unit);
		r->higher_is_better = m->higher_is_better;
		r->measure = (int)m->measure;
		r->bytes_per_txn = m->bytes_per_txn;
		r->percentile_x10 = m->percentile_x10;
	}
	r->cpu = g_new0(struct ss_cpu_stats, sim->nr_cpus);
	r->startup.window_ns = sim->startup_end;
	r->startup.cpu = g_new0(struct ss_startup_cpu, sim->nr_cpus);
	for (unsigned c = 0; c < sim->nr_cpus; c++)
		r->startup.cpu[c].allowed = ss_cpumask_test(sim->allowed_mask, c);
	r->nr_idle_states = t->nr_idle_states < SS_STATS_IDLE_STATES ? t->nr_idle_states : SS_STATS_IDLE_STATES;
	for (unsigned i = 0; i < r->nr_idle_states; i++)
		memcpy(r->idle_state_name[i], t->idle_state[i].name, sizeof r->idle_state_name[i]);
	r->nr_llcs = t->nr_llc_shared;
	r->llc = g_new0(struct ss_llc_stats, r->nr_llcs);
	sim->max_samples = (unsigned)(cfg->duration_ns / r->sample_ns) + 1;
	for (unsigned l = 0; l < r->nr_llcs; l++) {
		r->llc[l].first_cpu = UINT32_MAX;
		r->llc[l].nr_idle_scan_series = g_new0(uint16_t, sim->max_samples);
		r->llc[l].util_series = g_new0(uint16_t, sim->max_samples);
	}
	/* domain levels that exist on this machine, for migrations by level */
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		for (unsigned l = 0; l < t->cpu[c].nr_sd; l++) {
			const struct ss_sched_domain *sd = &t->cpu[c].sd[l];
			unsigned k = ss_sd_level_key(sd);
			if (k >= SS_MAX_LEVEL_KEYS)
				k = SS_MAX_LEVEL_KEYS - 1;
			if (!r->level_name[k][0]) {
				/* NUMA levels carry their distance: the kernel names them all "NUMA" */
				if (sd->level == SS_SD_NUMA && sd->numa_level >= 0 && (unsigned)sd->numa_level < t->nr_numa_levels &&
				    strcmp(sd->name, "NODE") != 0)
					g_snprintf(r->level_name[k], sizeof r->level_name[k], "NUMA-%u",
						   t->numa_distances[sd->numa_level]);
				else
					g_strlcpy(r->level_name[k], sd->name, sizeof r->level_name[k]);
			}
			if (k + 1 > r->nr_level_keys)
				r->nr_level_keys = k + 1;
		}
	}
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_llc_stats *ls = &r->llc[t->cpu[c].llc_index];
		if (t->cpu[c].offline)
			continue;
		if (ls->first_cpu == UINT32_MAX) {
			char buf[4096];
			ls->first_cpu = c;
			ls->cpus = g_strdup(ss_cpumask_format_list(t->cpu[c].llc_mask, sim->nr_cpus, buf, sizeof buf));
		}
		ls->nr_cpus++;
	}
	return r;
}

void ss_results_free(struct ss_results *r)
{
	if (!r)
		return;
	g_free(r->topology);
	g_free(r->topology_file);
	g_free(r->offline_cpus);
	g_free(r->cpu_offline);
	g_free(r->startup.cpu);
	g_free(r->workload);
	g_free(r->workload_file);
	g_free(r->policy);
	g_free(r->features);
	g_free(r->instance_unit);
	g_free(r->metric_name);
	g_free(r->metric_unit);
	for (unsigned l = 0; r->llc && l < r->nr_llcs; l++) {
		g_free(r->llc[l].cpus);
		g_free(r->llc[l].nr_idle_scan_series);
		g_free(r->llc[l].util_series);
	}
	g_free(r->llc);
	g_free(r->cpu);
	g_strfreev(r->warnings);
	g_free(r);
}

struct spread_key {
	unsigned cpu, k[4];
};

static int spread_cmp(const void *a, const void *b)
{
	const struct spread_key *x = a, *y = b;
	for (int i = 0; i < 4; i++)
		if (x->k[i] != y->k[i])
			return x->k[i] < y->k[i] ? -1 : 1;
	return x->cpu < y->cpu ? -1 : x->cpu > y->cpu;
}

/*
 * Where tasks with `start_cpu: spread` start (pre-placed; a task without
 * start_cpu is forked by the harness instead, start_task()). Instances are
 * spread over the LLCs (taken round robin, interleaving NUMA nodes), and the
 * tasks of one instance start in the same LLC, each on the next CPU of that
 * LLC in an order that spreads over clusters, then cores, SMT siblings last:
 * communicating tasks together, instances spread out, independent of the
 * fork path. Returns the start CPU of each task.
 */
static unsigned *start_cpus(struct ss_sim *sim, unsigned nr_allowed)
{
	const struct ss_topology *t = sim->topo;
	unsigned n = sim->nr_cpus, k = 0, nr_llc = 0;
	struct spread_key *keys = g_new0(struct spread_key, nr_allowed ? nr_allowed : 1);
	unsigned *rank_thr = g_new0(unsigned, n), *rank_core = g_new0(unsigned, n), *rank_cls = g_new0(unsigned, n);
	unsigned *seen_core = g_new0(unsigned, n), *seen_cls = g_new0(unsigned, n), *seen_llc = g_new0(unsigned, n);
	unsigned *seen_node = g_new0(unsigned, n);
	int *first_core = g_new(int, n), *first_cls = g_new(int, n), *llc_slot = g_new(int, n);
	unsigned *llc_first = g_new0(unsigned, n), *llc_size = g_new0(unsigned, n), *llc_next = g_new0(unsigned, n);
	struct spread_key *llcs = g_new0(struct spread_key, n);
	unsigned *start = g_new0(unsigned, sim->nr_tasks ? sim->nr_tasks : 1);

	for (unsigned i = 0; i < n; i++)
		first_core[i] = first_cls[i] = llc_slot[i] = -1;
	/* ranks within the parent, over allowed CPUs in id order */
	for (unsigned c = 0; c < n; c++) {
		const struct ss_cpu_topo *ct = &t->cpu[c];
		if (!ss_cpumask_test(sim->allowed_mask, c))
			continue;
		rank_thr[c] = seen_core[ct->core]++;
		if (first_core[ct->core] < 0) {
			first_core[ct->core] = (int)c;
			rank_core[c] = seen_cls[ct->cluster]++;
		} else {
			rank_core[c] = rank_core[first_core[ct->core]];
		}
		if (first_cls[ct->cluster] < 0) {
			first_cls[ct->cluster] = (int)c;
			rank_cls[c] = seen_llc[ct->llc]++;
		} else {
			rank_cls[c] = rank_cls[first_cls[ct->cluster]];
		}
		if (llc_slot[ct->llc] < 0) {
			/* LLC order: the j-th LLC of every node before the (j+1)-th of any */
			llc_slot[ct->llc] = (int)nr_llc;
			llcs[nr_llc].cpu = ct->llc;
			llcs[nr_llc].k[0] = seen_node[ct->node]++;
			llcs[nr_llc].k[1] = ct->node;
			nr_llc++;
		}
		keys[k].cpu = c;
		keys[k].k[0] = ct->llc;
		keys[k].k[1] = rank_thr[c];
		keys[k].k[2] = rank_core[c];
		keys[k].k[3] = rank_cls[c];
		k++;
	}
	/* CPUs grouped by LLC, each LLC in spread order */
	qsort(keys, k, sizeof *keys, spread_cmp);
	for (unsigned i = k; i-- > 0;) {
		llc_first[keys[i].k[0]] = i;
		llc_size[keys[i].k[0]]++;
	}
	qsort(llcs, nr_llc, sizeof *llcs, spread_cmp);
	for (unsigned i = 0; i < sim->nr_tasks; i++) {
		unsigned llc = llcs[sim->plan->task[i].instance % nr_llc].cpu;
		start[i] = keys[llc_first[llc] + llc_next[llc]].cpu;
		llc_next[llc] = (llc_next[llc] + 1) % llc_size[llc];
	}
	g_free(keys);
	g_free(rank_thr);
	g_free(rank_core);
	g_free(rank_cls);
	g_free(seen_core);
	g_free(seen_cls);
	g_free(seen_llc);
	g_free(seen_node);
	g_free(first_core);
	g_free(first_cls);
	g_free(llc_slot);
	g_free(llc_first);
	g_free(llc_size);
	g_free(llc_next);
	g_free(llcs);
	return start;
}


/*
 * Background work: a kworker per allowed CPU (docs/model.md "Background
 * work"). A per-CPU bound worker of the system workqueue
 * (kernel/workqueue.c v6.6: create_worker() binds it to its pool's CPU,
 * kthread_bind_mask()), SCHED_NORMAL nice 0. Its work items come from
 * deferrable timers (vmstat_update, the per-CPU delayed works: a
 * TIMER_DEFERRABLE timer_list sits in the BASE_DEF wheel, which
 * get_next_timer_interrupt() leaves out of an idle CPU's next event, so it
 * expires in run_timer_softirq() at the CPU's first tick after it wakes;
 * kernel/time/timer.c v6.6), so
 * an activation due while its CPU is idle waits for that CPU's next busy
 * tick (kworker_tick()). Program: loop { run cost.kthread_ns; wait for the next work item }.
 */
static void kworkers_add(struct ss_sim *sim, unsigned nr_allowed)
{
	g_autofree unsigned *cpus = g_new(unsigned, nr_allowed);
	unsigned k = 0;

	for (unsigned c = ss_cpumask_first(sim->allowed_mask, sim->nr_cpus); c < sim->nr_cpus;
	     c = ss_cpumask_next(sim->allowed_mask, sim->nr_cpus, c + 1))
		cpus[k++] = c;
	sim->kworker_insn = g_new0(struct ss_wl_insn, 4);
	sim->kworker_insn[0] = (struct ss_wl_insn){ .op = SS_OP_LOOP, .arg = SS_WL_FOREVER };
	sim->kworker_insn[1] = (struct ss_wl_insn){ .op = SS_OP_RUN,
						    .dist = { .kind = SS_DIST_CONST, .a = sim->params.kthread_ns } };
	sim->kworker_insn[2] = (struct ss_wl_insn){ .op = SS_OP_WAIT, .arg = 1 };
	sim->kworker_insn[3] = (struct ss_wl_insn){ .op = SS_OP_ENDLOOP, .arg = 1 };
	sim->kworker_cpus = g_new0(uint64_t, (size_t)k * sim->nr_words);
	for (unsigned i = 0; i < k; i++)
		ss_cpumask_set(&sim->kworker_cpus[(size_t)i * sim->nr_words], cpus[i]);
	ss_wl_plan_add_kthreads(sim->plan, cpus, k, sim->kworker_insn, 4);
}

/* Time to a kworker's next work item: exponential with mean 1 / cost.kthread_rate_hz (a Poisson process). */
static uint64_t kworker_gap(struct ss_sim *sim, struct ss_task *p)
{
	struct ss_dist d = { .kind = SS_DIST_EXP, .a = 1000000000u / sim->params.kthread_rate_hz };

	return ss_dist_draw(&d, &p->rng);
}

/*
 * A kworker at the start: asleep on its CPU in worker_thread()'s wait for
 * work, as on a machine that has been up for a while (never enqueued
 * before t = 0, PELT sums zero: decayed).
 */
static void kworker_start(struct ss_sim *sim, struct ss_task *p)
{
	struct ss_rq *rq = &sim->rq[p->cpu];

	p->started = true;
	p->state = SS_TASK_BLOCKED;
	p->block_on = SS_BLOCK_TOKENS;
	p->wait_need = 1;
	p->last_ran_cpu = p->cpu;
	rq->kworker = p->id + 1;
	rq->kworker_due = kworker_gap(sim, p);
}

/*
 * The timer softirq of a busy CPU's tick: the kworker's work items that are
 * due are queued (queue_work_on()) and the kworker is woken if it waits
 * (wake_up_process() on this CPU: a local wakeup, check_preempt_curr()).
 * Items are a Poisson process of cost.kthread_rate_hz over the time the CPU
 * ticks; those that fell due while it was idle with its tick stopped
 * (deferrable timers) fire once, at its first tick after it woke. Each item
 * is a token of the kworker's wait: items queued while it runs are taken in
 * the same run (worker_thread() empties its worklist before it sleeps), so
 * an activation does as many cost.kthread_ns of work as it has items.
 */
static void kworker_tick(struct ss_sim *sim, struct ss_rq *rq)
{
	struct ss_task *p = &sim->tasks[rq->kworker - 1];
	unsigned k = 0;

	if (sim->now < rq->kworker_due)
		return;
	if (rq->kworker_due < rq->busy_from) {
		/* due while the tick was stopped: one run for all of them; the
		 * process restarts when the CPU woke (memoryless) */
		k = 1;
		rq->kworker_due = rq->busy_from + kworker_gap(sim, p);
	}
	while (rq->kworker_due <= sim->now) {
		k++;
		rq->kworker_due += kworker_gap(sim, p);
	}
	if (!k)
		return;
	bool woken = p->state == SS_TASK_BLOCKED;

	sim->current = NULL;
	sim->this_cpu = rq->cpu;
	sim->in_softirq = true;
	for (unsigned i = 0; i < k; i++)
		post_token(sim, p, false);
	sim->in_softirq = false;
	if (sim->measuring) {
		struct ss_background_stats *b = &sim->res->background;
		b->kthread_items += k;
		b->kthread_wakeups += woken;
		b->kthread_preempts += woken && rq->curr == p;   /* check_preempt_curr() switched to it at once */
	}
}


static bool sim_init(struct ss_sim *sim, const struct ss_run_config *cfg, GError **err)
{
	const struct ss_topology *t = cfg->topo;
	unsigned nr_allowed;

	memset(sim, 0, sizeof *sim);
	sim->cfg = cfg;
	sim->topo = t;
	sim->nr_cpus = t->nr_cpus;
	sim->nr_words = t->nr_words;
	sim->params = cfg->params;
	sim->startup_end = sim->params.startup_window_ns;
	sim->trace = cfg->trace;
	sim->trace_ctx = cfg->trace_ctx;
	sim->on_migrate = cfg->on_migrate;
	sim->kernel = cfg->kernel;
	sim->policy = ss_policy_find(cfg->policy ? cfg->policy : ss_kernel_default_policy(cfg->kernel));
	if (!sim->policy) {
		GString *names = g_string_new(NULL);
		for (const struct ss_policy *const *pp = ss_policies(); *pp; pp++)
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", (*pp)->name);
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "unknown policy '%s' (valid: %s)", cfg->policy, names->str);
		g_string_free(names, TRUE);
		return false;
	}
	for (unsigned i = 0; i < sim->policy->nr_params && i < G_N_ELEMENTS(sim->policy_param); i++)
		sim->policy_param[i] = sim->params.policy_set[i] ? sim->params.policy_values[i] : sim->policy->params[i].def;
	if (sim->policy->state_size)
		sim->policy_state = g_malloc0(sim->policy->state_size);
	/* policy × kernel (docs/policies.md), then that kernel's features.h and the policy's preset over it */
	if (!ss_policy_kernel_check(sim->policy, sim->kernel, &sim->policy_base, err))
		return false;
	sim->features = ss_features_default_kernel(sim->kernel);
	if (sim->policy->features && *sim->policy->features &&
	    !ss_features_parse_kernel(sim->policy->features, &sim->features, sim->kernel, true, err)) {
		g_prefix_error(err, "policy '%s' on kernel v%s: ", sim->policy->name, ss_kernel_name(sim->kernel));
		return false;
	}
	if (cfg->sched_features && !ss_features_parse_kernel(cfg->sched_features, &sim->features, sim->kernel, false, err))
		return false;
	if (ss_feat(sim->features, SS_FEAT_SIS_UTIL) && ss_feat(sim->features, SS_FEAT_SIS_UTIL_LINEAR)) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "SIS_UTIL and SIS_UTIL_LINEAR both write nr_idle_scan: turn one off (e.g. --sched-features NO_SIS_UTIL)");
		return false;
	}
	sim->eevdf_f.run_to_parity = ss_feat(sim->features, SS_FEAT_RUN_TO_PARITY);
	sim->eevdf_f.place_lag = ss_feat(sim->features, SS_FEAT_PLACE_LAG);
	sim->eevdf_f.place_deadline_initial = ss_feat(sim->features, SS_FEAT_PLACE_DEADLINE_INITIAL);
	sim->eevdf_f.wakeup_preemption = ss_feat(sim->features, SS_FEAT_WAKEUP_PREEMPTION);
	sim->tick_nsec = (1000000000ull + sim->params.hz / 2) / sim->params.hz;   /* TICK_NSEC */
	if (sim->params.background && sim->params.tick_ns >= sim->tick_nsec) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "cost.tick_ns %llu ns is not below the tick period of %llu ns (kernel.hz %llu): a busy CPU would do "
			    "nothing but its ticks (expected a tick cost below %llu ns)",
			    (unsigned long long)sim->params.tick_ns, (unsigned long long)sim->tick_nsec,
			    (unsigned long long)sim->params.hz, (unsigned long long)sim->tick_nsec);
		return false;
	}
	/* both scale with num_online_cpus() (get_update_sysctl_factor(), update_max_interval()) */
	sim->base_slice = sim->params.base_slice_ns ? sim->params.base_slice_ns : ss_sched_base_slice(t->nr_active);
	sim->max_load_balance_interval = sim->params.hz * t->nr_active / 10;      /* update_max_interval() */
	/* the run order of the kernel modelled (ss_fair.h): v6.6 EEVDF or v5.17 CFS with its tunables
	 * scaled like the base slice (update_sysctl() at boot, sched_init_granularity()) */
	sim->fair = sim->kernel == SS_KERNEL_5_17 ? &ss_fair_v5_17 : &ss_fair_v6_6;
	sim->ttwu_queue_cond = sim->kernel == SS_KERNEL_5_17 ? ss_ttwu_queue_cond_v5_17 : ss_ttwu_queue_cond_v6_6;
	ss_cfs_tunables_init(&sim->cfs_t, t->nr_active, sim->features);

	sim->allowed_mask = g_new0(uint64_t, sim->nr_words);
	sim->scratch_mask = g_new0(uint64_t, sim->nr_words);
	sim->scratch_mask2 = g_new0(uint64_t, sim->nr_words);
	sim->nohz_idle_cpus_mask = g_new0(uint64_t, sim->nr_words);
	sim->ticking = g_new0(uint64_t, sim->nr_words);
	if (!parse_nodes(sim, cfg->nodes, err))
		return false;
	nr_allowed = ss_cpumask_weight(sim->allowed_mask, sim->nr_words);

	sim->plan = ss_workload_instantiate(cfg->wl, cfg->load_pct_x100, nr_allowed, err);
	if (!sim->plan)
		return false;
	sim->nr_wl_tasks = sim->plan->nr_tasks;
	if (sim->params.background && sim->params.kthread_rate_hz)
		kworkers_add(sim, nr_allowed);
	sim->nr_tasks = sim->plan->nr_tasks;

	/* runqueues: sched_init() values */
	/* 64-byte aligned: each rq starts with its burst-end cache line (ss_sched.h) */
	sim->rq = g_aligned_alloc0(sim->nr_cpus, sizeof(struct ss_rq), 64);
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_rq *rq = &sim->rq[c];
		rq->cpu = c;
		rq->sd = t->cpu[c].sd;
		ss_cfs_rq_init(&rq->cfs);
		rq->capacity = t->cpu[c].capacity;
		/* A kernel's rq clock is never 0 — and PELT reads last_update_time == 0
		 * as "not attached": start the PELT clock 1024 periods in (2^20 ns,
		 * a whole number of periods, so period boundaries stay aligned). */
		rq->pclk.clock_task = rq->pclk.clock_pelt = 1u << 20;
		rq->speed_num = (uint64_t)(((unsigned __int128)1 << 52) / ((uint64_t)rq->capacity * sim->params.freq_capacity));
		rq->avg_idle = 2 * sim->params.migration_cost_ns;
		rq->wake_avg_idle = rq->avg_idle;
		rq->max_idle_balance_cost = sim->params.migration_cost_ns;
		rq->sd_rt = g_new0(struct ss_sd_rt, t->cpu[c].nr_sd ? t->cpu[c].nr_sd : 1);
		rq->ev_run_end.heap_idx = rq->ev_resched.heap_idx = rq->ev_ilb.heap_idx = rq->ev_stop.heap_idx = SS_EV_IDLE;
		rq->ev_newidle.heap_idx = SS_EV_IDLE;
		rq->ev_run_end.owner = rq->ev_resched.owner = rq->ev_ilb.owner = rq->ev_stop.owner = rq->ev_newidle.owner = c;
		rq->cur_speed = rq->speed_num;
		rq->cur_smt_f = rq->cur_bw_f = 1024;
		for (unsigned b = 0; b < G_N_ELEMENTS(rq->menu_correction); b++)
			rq->menu_correction[b] = MENU_RESOLUTION * MENU_DECAY;   /* menu_enable_device() */
		rq->idle_state = -1;
	}
	sim->core_busy = g_new0(uint16_t, t->nr_cores ? t->nr_cores : 1);
	sim->smt_contention = t->smt_threads > 1 && sim->params.smt_contention_pct;
	sim->node_bw_demand = g_new0(uint64_t, t->nr_nodes);
	sim->node_bw_cpus = g_new0(uint64_t, (size_t)t->nr_nodes * sim->nr_words);
	sim->node_bw_mbps = sim->params.node_bandwidth_mbps;
	sim->llc_shared = g_new0(struct ss_sd_shared, t->nr_llc_shared ? t->nr_llc_shared : 1);
	/* figures: every allowed CPU starts idle with an empty rq */
	sim->acc_llc = g_new0(struct ss_idle_acc, t->nr_llc_shared ? t->nr_llc_shared : 1);
	sim->acc_node = g_new0(struct ss_idle_acc, t->nr_nodes ? t->nr_nodes : 1);
	sim->llc_scan_written = g_new0(uint8_t, t->nr_llc_shared ? t->nr_llc_shared : 1);
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_rq *rq = &sim->rq[c];
		rq->acct_on = ss_cpumask_test(sim->allowed_mask, c);
		rq->acct_idle = rq->acct_on;
		if (rq->acct_on) {
			sim->acc_llc[t->cpu[c].llc_index].nr_idle++;
			sim->acc_node[t->cpu[c].node].nr_idle++;
			sim->iwa_nr_idle++;
			/* an LLC of the allowed CPUs whose nr_idle_scan a balance at its domain writes */
			if (t->cpu[c].sd_llc >= 0 && !sim->llc_scan_written[t->cpu[c].llc_index]) {
				sim->llc_scan_written[t->cpu[c].llc_index] = 1;
				sim->llc_scan_unwritten++;
			}
		}
	}
	sim->ev_burst.heap_idx = sim->ev_batch.heap_idx = SS_EV_IDLE;
	ss_evq_init(&sim->evq, 5 * sim->nr_cpus + 2 * sim->nr_tasks + 8);   /* per rq: run_end, resched, ilb, stop, newidle */
	sim->ev_sample.heap_idx = sim->ev_warmup.heap_idx = sim->ev_stop.heap_idx = sim->ev_jiffy.heap_idx = SS_EV_IDLE;
	ss_balance_init(sim);
	ss_cline_init(sim);

	/* tasks */
	g_autofree unsigned *spread = start_cpus(sim, nr_allowed);
	/* where the harness (the shell that starts the benchmark) runs: CPU 0, or the first CPU of --nodes as under numactl -N */
	sim->harness_cpu = ss_cpumask_first(sim->allowed_mask, sim->nr_cpus);
	/* the estimate ss_workload_instantiate() refuses plans by (SS_WL_MAX_TASK_MEMORY) covers a task */
	G_STATIC_ASSERT(sizeof(struct ss_task) + sizeof(struct ss_wl_task) + sizeof(struct ss_wl_prog) +
			2 * (sizeof(struct ss_evq_slot) + 2 * sizeof(uint32_t)) + 64 <= SS_WL_TASK_BYTES);
	sim->tasks = g_aligned_alloc0(sim->nr_tasks ? sim->nr_tasks : 1, sizeof(struct ss_task), 64);
	ss_evq_set_hint_array(&sim->evq, sim->tasks, sizeof(struct ss_task));
	sim->sync = g_new0(struct ss_sync_obj, sim->plan->nr_sync ? sim->plan->nr_sync : 1);
	{
		/* per-role affinity: the role's cpus ∩ the allowed CPUs */
		unsigned nr_roles = ss_workload_nr_roles(cfg->wl);

		sim->task_cpus = g_new0(uint64_t, (size_t)nr_roles * sim->nr_words);
		for (unsigned i = 0; i < sim->nr_tasks && i < sim->plan->tasks_per_instance; i++) {
			const struct ss_wl_task *wt = &sim->plan->task[i];
			uint64_t *m = &sim->task_cpus[(size_t)wt->role * sim->nr_words];

			if (!wt->cpus)
				continue;
			if (!strcmp(wt->cpus, "first")) {
				/* the harness's CPU: the first allowed one (docs/workloads.md "cpus") */
				ss_cpumask_zero(m, sim->nr_words);
				ss_cpumask_set(m, sim->harness_cpu);
			} else if (!parse_cpus_clipped(sim, wt->cpus, m) ||
			    (ss_cpumask_and(m, m, sim->allowed_mask, sim->nr_words), ss_cpumask_empty(m, sim->nr_words))) {
				const char *at = ss_workload_role_where(cfg->wl, wt->role, SS_WL_FIELD_CPUS);
				unsigned len = 8 * sim->nr_cpus + 16;
				g_autofree char *allowed = g_malloc(len);

				ss_cpumask_format_list(sim->allowed_mask, sim->nr_cpus, allowed, len);

				/* v6.6 __sched_setaffinity(): request ∩ cpuset_cpus_allowed() (online CPUs);
				 * __set_cpus_allowed_ptr_locked(): -EINVAL when no active CPU is left */
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s%s: cpus '%s' of role '%s' has no CPU the task may use on %s (expected CPUs of %s%s%s)",
					    at ? at : "workload ", at ? "" : ss_workload_name(cfg->wl), wt->cpus,
					    ss_workload_role_name(cfg->wl, wt->role), t->name, allowed,
					    t->nr_active < sim->nr_cpus ? ", the online ones" : "",
					    ss_cpumask_weight(sim->allowed_mask, sim->nr_words) < t->nr_active ? ", as restricted by --nodes" : "");
				return false;
			}
		}
	}
	{
		/* the CPU sets of SET_CPUS actions: each ∩ the allowed CPUs, refused when empty (v6.6
		 * __sched_setaffinity(): -EINVAL; rt-app's set_thread_affinity() then exits) */
		sim->nr_cpusets = ss_workload_nr_cpusets(cfg->wl);
		sim->cpuset_cpus = g_new0(uint64_t, (size_t)(sim->nr_cpusets ? sim->nr_cpusets : 1) * sim->nr_words);
		for (unsigned k = 0; k < sim->nr_cpusets; k++) {
			const char *at = NULL, *list = ss_workload_cpuset(cfg->wl, k, &at);
			uint64_t *m = &sim->cpuset_cpus[(size_t)k * sim->nr_words];

			if (parse_cpus_clipped(sim, list, m) &&
			    (ss_cpumask_and(m, m, sim->allowed_mask, sim->nr_words), !ss_cpumask_empty(m, sim->nr_words)))
				continue;
			unsigned len = 8 * sim->nr_cpus + 16;
			g_autofree char *allowed = g_malloc(len);

			ss_cpumask_format_list(sim->allowed_mask, sim->nr_cpus, allowed, len);
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s%s: cpus '%s' has no CPU the task may use on %s (expected CPUs of %s%s%s; "
				    "sched_setaffinity() refuses such a set)",
				    at ? at : "workload ", at ? "" : ss_workload_name(cfg->wl), list, t->name, allowed,
				    t->nr_active < sim->nr_cpus ? ", the online ones" : "",
				    ss_cpumask_weight(sim->allowed_mask, sim->nr_words) < t->nr_active ? ", as restricted by --nodes" : "");
			return false;
		}
	}
	{
		/* affinity classes of the idle-with-work figure: 0 the allowed CPUs, 1 + role a role's cpus,
		 * 1 + nr_roles + k CPU set k */
		unsigned nr_roles = ss_workload_nr_roles(cfg->wl);
		bool any = sim->nr_cpusets > 0;

		for (unsigned i = 0; i < sim->nr_tasks && i < sim->plan->tasks_per_instance; i++)
			any |= sim->plan->task[i].cpus != NULL;
		sim->aff_nr_cls = any ? 1 + nr_roles + sim->nr_cpusets : 1;
		sim->aff_wait = g_new0(uint32_t, sim->aff_nr_cls);
		sim->aff_mask = g_new0(const uint64_t *, sim->aff_nr_cls);
		sim->aff_mask[0] = sim->allowed_mask;
		for (unsigned r = 0; any && r < nr_roles; r++)
			sim->aff_mask[1 + r] = &sim->task_cpus[(size_t)r * sim->nr_words];
		for (unsigned k = 0; any && k < sim->nr_cpusets; k++)
			sim->aff_mask[1 + nr_roles + k] = &sim->cpuset_cpus[(size_t)k * sim->nr_words];
		if (any) {
			/* rq_acct() takes the per-class path while a task of a pinned class is alive (aff_set_multi()) */
			sim->aff_rq_wait = g_new0(uint32_t, (size_t)sim->nr_cpus * sim->aff_nr_cls);
			sim->aff_scratch = g_new0(uint32_t, sim->aff_nr_cls);
			sim->iwa_idle = g_new0(uint64_t, sim->nr_words);
			sim->iwa_union = g_new0(uint64_t, sim->nr_words);
			ss_cpumask_copy(sim->iwa_idle, sim->allowed_mask, sim->nr_words);
		}
	}
	for (unsigned i = 0; i < sim->nr_tasks; i++) {
		struct ss_task *p = &sim->tasks[i];
		const struct ss_wl_task *wt = &sim->plan->task[i];
		p->id = i;
		p->aff_cls = wt->cpus ? (uint16_t)(1 + wt->role) : 0;
		p->ev_timer.heap_idx = p->ev_arrive.heap_idx = SS_EV_IDLE;
		p->ev_timer.owner = p->ev_arrive.owner = i;
		p->tasks_prev = p->tasks_next = -1;
		p->cpus_ptr = wt->cpus ? &sim->task_cpus[(size_t)wt->role * sim->nr_words] : sim->allowed_mask;
		p->nr_cpus_allowed = wt->cpus ? ss_cpumask_weight(p->cpus_ptr, sim->nr_words) : nr_allowed;
		if (wt->kthread) {
			/* kthread_bind_mask(): its one CPU */
			p->kthread = true;
			p->cpus_ptr = &sim->kworker_cpus[(size_t)(i - sim->nr_wl_tasks) * sim->nr_words];
			p->nr_cpus_allowed = 1;
		}
		p->chan_cap = wt->channel_capacity;
		p->stop_at = wt->stop_after_ns;
		ss_se_set_nice(&p->se, wt->nice);
		p->se.slice = sim->base_slice;
		ss_rng_seed(&p->rng, cfg->seed, ss_rng_stream_id(wt->path));
		ss_wl_cursor_init(&p->cursor);
		int start_cpu = wt->start_cpu;

		if (start_cpu >= 0 && wt->start_cpu_is_index) {
			/*
			 * "K * instance + B" is a rank among the allowed CPUs (online,
			 * within --nodes), so pairs stay pinned side by side on a machine
			 * with offline CPUs or a --nodes subset; with every CPU allowed
			 * the rank is the CPU number.
			 */
			unsigned cpu = ss_cpumask_first(sim->allowed_mask, sim->nr_cpus);

			for (int k = 0; k < start_cpu; k++)
				cpu = ss_cpumask_next(sim->allowed_mask, sim->nr_cpus, cpu + 1);
			start_cpu = (int)cpu;
		}
		if (start_cpu >= 0) {
			if ((unsigned)start_cpu < sim->nr_cpus && t->cpu[start_cpu].offline) {
				const char *at = ss_workload_role_where(cfg->wl, wt->role, SS_WL_FIELD_START_CPU);
				unsigned len = 8 * sim->nr_cpus + 16;
				g_autofree char *online = g_malloc(len);

				ss_cpumask_format_list(t->active_mask, sim->nr_cpus, online, len);
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s%s: start_cpu %d of task %s is offline on %s (expected an online CPU: %s)",
					    at ? at : "workload ", at ? "" : ss_workload_name(cfg->wl), start_cpu,
					    wt->path, t->name, online);
				return false;
			}
			if ((unsigned)start_cpu >= sim->nr_cpus || !ss_cpumask_test(sim->allowed_mask, (unsigned)start_cpu)) {
				const char *at = ss_workload_role_where(cfg->wl, wt->role, SS_WL_FIELD_START_CPU);
				unsigned len = 8 * sim->nr_cpus + 16;
				g_autofree char *allowed = g_malloc(len);

				ss_cpumask_format_list(sim->allowed_mask, sim->nr_cpus, allowed, len);
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s%s: start_cpu %d of task %s is not a CPU the task may use on %s (expected one of %s%s%s)",
					    at ? at : "workload ", at ? "" : ss_workload_name(cfg->wl), start_cpu,
					    wt->path, t->name, allowed, cfg->nodes ? ", the CPUs of --nodes " : "",
					    cfg->nodes ? cfg->nodes : "");
				return false;
			}
			p->cpu = start_cpu;
		} else if (start_cpu == SS_WL_START_SPREAD || wt->spawned) {
			p->cpu = (int32_t)spread[i];
		} else {
			/* SS_WL_START_FORK: the harness's CPU, the parent's for fork_place() at the start */
			p->cpu = (int32_t)sim->harness_cpu;
		}
		/* (a task the harness forks is placed when it starts: start_task()) */
		if ((start_cpu != SS_WL_START_FORK || wt->spawned) && !ss_cpumask_test(p->cpus_ptr, (unsigned)p->cpu)) {
			if (start_cpu >= 0) {
				const char *at = ss_workload_role_where(cfg->wl, wt->role, SS_WL_FIELD_START_CPU);

				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s%s: start_cpu %d of task %s is not in its cpus '%s'",
					    at ? at : "workload ", at ? "" : ss_workload_name(cfg->wl), start_cpu, wt->path,
					    wt->cpus);
				return false;
			}
			p->cpu = (int32_t)ss_cpumask_first(p->cpus_ptr, sim->nr_cpus);
		}
		p->state = SS_TASK_DEAD;   /* until start_task() (a kworker: kworker_start()) */
		if (!wt->spawned && !wt->kthread)
			sim->nr_to_start++;
		p->recent_used_cpu = p->cpu;   /* wake_up_new_task() */
		p->last_ran_cpu = -1;
		p->working_set_kib = wt->working_set_kib;
		p->mem_bw_mbps = wt->mem_bw_mbps;
		if (wt->mem_node >= 0) {
			/* memory_node names the firmware's node id; the plan keeps the node's index */
			int idx = ss_topology_node_index(t, (uint64_t)wt->mem_node);
			const char *at = ss_workload_role_where(cfg->wl, wt->role, SS_WL_FIELD_MEMORY_NODE);
			g_autofree char *ids = idx < 0 ? ss_topology_format_node_ids(t, NULL) : NULL;

			if (idx < 0 && at) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: memory_node %d of role '%s' is not a node of %s (expected one of its node ids: %s)", at,
					    wt->mem_node, ss_workload_role_name(cfg->wl, wt->role), t->name, ids);
				return false;
			}
			if (idx < 0) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "workload %s, task %s: memory_node %d is not a node of %s (its node ids: %s)",
					    ss_workload_name(cfg->wl), wt->path, wt->mem_node, t->name, ids);
				return false;
			}
			sim->plan->task[i].mem_node = (int16_t)idx;   /* spawned tasks read it again (do_spawn) */
		}
		p->mem_home = sim->plan->task[i].mem_node;
	}
	sim->ft = cfg->ftrace;
	if (sim->ft && !ss_ft_attach(sim, err))
		return false;
	sim->res = results_new(sim, cfg);
	sim->res->workload_file = NULL;
	sim->res->nr_tasks = sim->nr_wl_tasks;   /* the workload's, not the kworkers */
	sim->res->nr_instances = sim->plan->nr_instances;
	return true;
}

/*
 * wake_up_new_task() (core.c v6.6) on p->cpu: post_init_entity_util_avg +
 * enqueue + check_preempt_curr. Used for the tasks of the run's start, late
 * phases and spawned children (whose CPU do_spawn() chose).
 */
static void start_task(struct ss_sim *sim, struct ss_task *p)
{
	struct ss_rq *rq = &sim->rq[p->cpu];
	bool preempt;

	if (!sim->plan->task[p->id].spawned && !p->started && sim->nr_to_start)
		sim->nr_to_start--;
	if (!sim->plan->task[p->id].spawned && sim->plan->task[p->id].start_cpu == SS_WL_START_FORK) {
		/*
		 * No start_cpu: the harness forks it from its CPU (the first
		 * allowed one), at no CPU cost of its own, through the fork path
		 * as a benchmark's parent would; tasks of the start in task order.
		 */
		struct ss_task *cur = sim->current;
		unsigned this_cpu = sim->this_cpu;

		sim->current = NULL;
		sim->this_cpu = sim->harness_cpu;
		p->cpu = (int32_t)sim->harness_cpu;
		p->cpu = fork_place(sim, p);
		sim->current = cur;
		sim->this_cpu = this_cpu;
		rq = &sim->rq[p->cpu];
	}
	p->started = true;
	sim->nr_alive++;
	if (p->aff_cls && !sim->aff_pinned_alive++)
		aff_set_multi(sim, true);
	ss_update_rq_clock(sim, rq);
	ss_se_set_nice(&p->se, sim->plan->task[p->id].nice);
	p->se.slice = sim->base_slice;
	ss_init_entity_runnable_average(&p->avg, p->se.weight);
	ss_post_init_entity_util_avg(&rq->cfs_avg, &p->avg, p->se.weight, rq->capacity);
	/* v6.6 wake_up_new_task() enqueues without ENQUEUE_INITIAL, so the
	 * second place_entity() gives a full-slice deadline: initial=false */
	if (!sim->plan->task[p->id].spawned)
		sim->fair->task_fork(sim, rq, &p->se, false);   /* no parent here (a spawn forked in do_spawn) */
	enqueue_task(sim, rq, p, false);
	preempt = !rq->curr || sim->fair->check_preempt_wakeup(sim, rq, &p->se, true);
	if (ss_tracing(sim)) {
		/* trace_sched_wakeup_new(), on the parent's CPU for a spawned task */
		unsigned on = sim->plan->task[p->id].spawned ? sim->this_cpu : rq->cpu;
		ss_ft_wakeup(sim, p, on, true, preempt && on == rq->cpu, false);
	}
	if (!rq->curr) {
		schedule(sim, rq);
	} else if (preempt) {
		if (!sim->current || rq->cpu == sim->this_cpu) {
			resched_curr(sim, rq);
		} else {
			/* a remote resched_curr() sends a reschedule IPI */
			if (!ss_ev_queued(&rq->ev_resched))
				ss_evq_schedule(&sim->evq, &rq->ev_resched, sim->now + sim->params.ipi_ns, SS_EV_RESCHED,
						rq->cpu);
			if (sim->measuring)
				sim->res->ipis++;
		}
	}
}

/*
 * The machine at t = 0 has been up and idle for kernel.idle_before_ns (0 =
 * booted at t = 0: the domain build's values, and nothing of this is done).
 * Nothing is set by hand; each value is the one the kernel's own rules leave
 * on a box whose CPUs have sat idle, tick stopped, for that long:
 *  - jiffies: sim->jiffies_base = idle_before / TICK_NSEC, so every jiffies
 *    stamp that starts at 0 lies that far in the past — sd->last_balance
 *    and rq->next_balance (the first busy tick's rebalance_domains() finds
 *    every level due: time_after_eq(jiffies, sd->last_balance + interval),
 *    fair.c v6.6, where a freshly built domain waits a whole busy interval,
 *    112 ms x busy_factor 16 on a 112-CPU LLC), nohz.next_balance and
 *    next_blocked, last_decay_max_lb_cost, wakee_flip_decay_ts, and
 *    rq->wake_stamp: SIS_PROP's wake_avg_idle ages away on a CPU's first
 *    select_idle_cpu() unless a wakeup from idle refreshed it since (v5.17
 *    select_idle_cpu(), ttwu_do_activate()).
 *  - nr_idle_scan: what the last periodic balance at each LLC domain wrote
 *    before the box went idle — the policy's update_lb_stats() hook
 *    (update_idle_cpu_scan() under SIS_UTIL) over the idle machine, called
 *    for every CPU and level where should_we_balance() lets that CPU balance
 *    an idle machine (CPU_IDLE), with the statistics update_sd_lb_stats()
 *    passes: sum_util of the span (0: PELT has decayed, halving every
 *    32 ms) and its capacity. The budget is then written at t = 0 and the
 *    run's nr_idle_scan_written_ns is 0.
 *  - the rest is already what sched_init() and the idle loop leave on an
 *    idle box: util_avg and load_avg 0, avg_idle at its cap 2 x
 *    max_idle_balance_cost (the floor, sysctl_sched_migration_cost), every
 *    CPU in nohz.idle_cpus_mask with its tick stopped (ss_balance_init()),
 *    in the idle state the menu governor picks for an unbounded sleep.
 */
static void machine_up_and_idle(struct ss_sim *sim)
{
	const struct ss_topology *t = sim->topo;

	if (!sim->params.idle_before_ns)
		return;
	sim->jiffies_base = sim->params.idle_before_ns / sim->tick_nsec;
	if (sim->policy->update_lb_stats) {
		for (unsigned c = 0; c < sim->nr_cpus; c++) {
			const struct ss_cpu_topo *ct = &t->cpu[c];

			if (ct->offline)
				continue;
			for (unsigned l = 0; l < ct->nr_sd; l++) {
				const struct ss_sched_domain *sd = &ct->sd[l];
				const struct ss_sched_group *sg = sd->groups;
				uint64_t sum_util = 0, total_capacity = 0;

				if (!ss_should_we_balance(sim, c, sd, CPU_IDLE))
					continue;
				do {
					for (unsigned i = ss_cpumask_first(sg->span, sim->nr_cpus); i < sim->nr_cpus;
					     i = ss_cpumask_next(sg->span, sim->nr_cpus, i + 1))
						sum_util += ss_cpu_util_of(sim, i);
					total_capacity += sg->capacity;
					sg = sg->next;
				} while (sg != sd->groups);
				sim->policy->update_lb_stats(sim, c, sd, CPU_IDLE, sum_util, total_capacity);
			}
		}
	}
	/* written before the run: no window starts before it */
	if (sim->llc_scan_unwritten) {
		for (unsigned l = 0; l < t->nr_llc_shared; l++)
			if (sim->llc_scan_written[l] == 1)
				sim->llc_scan_written[l] = 2;
		sim->llc_scan_unwritten = 0;
		sim->res->nr_idle_scan_written = true;
		sim->res->nr_idle_scan_written_ns = 0;
	}
}

/* The tasks of the run's start at t = 0; late phases get a timer. */
static void start_tasks(struct ss_sim *sim)
{
	machine_up_and_idle(sim);
	for (unsigned i = 0; i < sim->nr_tasks; i++) {
		struct ss_task *p = &sim->tasks[i];
		const struct ss_wl_task *wt = &sim->plan->task[i];

		if (wt->spawned)
			continue;
		if (wt->kthread)
			kworker_start(sim, p);
		else if (wt->start_after_ns)
			ss_evq_schedule(&sim->evq, &p->ev_timer, wt->start_after_ns, SS_EV_TIMER, (unsigned)p->cpu);
		else
			start_task(sim, p);
	}
	/* CPUs left without a task enter the idle loop; offline CPUs never run anything */
	for (unsigned c = 0; c < sim->nr_cpus; c++)
		if (!sim->topo->cpu[c].offline)
			ss_idle_reenter(sim, &sim->rq[c]);
}

struct ss_sim *ss_sim_create(const struct ss_run_config *cfg, GError **err)
{
	struct ss_sim *sim = g_new0(struct ss_sim, 1);
	if (!cfg->topo || !cfg->wl || !sim_init(sim, cfg, err)) {
		if (!cfg->topo || !cfg->wl)
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a run needs a topology and a workload");
		ss_sim_destroy(sim);
		return NULL;
	}
	return sim;
}

void ss_sim_destroy(struct ss_sim *sim)
{
	if (!sim)
		return;
	if (sim->res)
		ss_results_free(sim->res);
	sim_destroy(sim);
	g_free(sim);
}

void ss_sim_start(struct ss_sim *sim)
{
	start_tasks(sim);
}

static const char *const block_names[] = {
	[SS_BLOCK_TOKENS] = "wait", [SS_BLOCK_RECV] = "recv", [SS_BLOCK_SEND] = "send",
	[SS_BLOCK_LOCK] = "lock", [SS_BLOCK_BARRIER] = "barrier",
	[SS_BLOCK_COND] = "a condition wait", [SS_BLOCK_COND_SIGNALLED] = "a condition wait",
	[SS_BLOCK_SEM] = "sem_wait",
};
G_STATIC_ASSERT(G_N_ELEMENTS(block_names) == SS_BLOCK_SEM + 1);

/*
 * The deadlock check, at the end of the run: tasks remain, and none can ever
 * run again. No task is runnable, waking or asleep on a timer (each of
 * those holds an event: a burst end, an arrival, a timer), none is still to
 * start (a start timer), and some started task is blocked — in wait, recv,
 * send, lock or barrier — where only another task's action could release
 * it: with nobody able to run, nothing will. A task blocked in a wait that
 * no program can wake (ss_workload_role_wakeable(): rt-app's main thread
 * in pthread_join()) is parked for the rest of the run by construction, and
 * so is one whose phase ended (stop_after passed: it would exit at its next
 * statement); a run where only such tasks are left has finished, as one
 * whose tasks all exited has. The deadlock began when the last task left
 * its CPU.
 * Returns the number of tasks blocked for ever (0: no deadlock); *example
 * is one of them.
 */
static unsigned deadlock_check(const struct ss_sim *sim, const bool *wakeable, const struct ss_task **example)
{
	unsigned blocked = 0;

	if (sim->nr_to_start)
		return 0;
	for (unsigned i = 0; i < sim->nr_tasks; i++) {
		const struct ss_task *p = &sim->tasks[i];

		if (p->kthread)
			continue;   /* woken by its CPU's ticks */
		switch (p->state) {
		case SS_TASK_DEAD:
			continue;
		case SS_TASK_BLOCKED:
			if ((p->block_on == SS_BLOCK_TOKENS && !wakeable[sim->plan->task[i].role]) ||
			    (p->stop_at && p->stop_at <= sim->now))
				continue;   /* parked */
			if (!blocked++)
				*example = p;
			continue;
		default:
			return 0;   /* runnable, waking or on a timer: the run goes on */
		}
	}
	return blocked;
}

/*
 * A run in progress (ss_run_open): the simulation, and what its driver
 * controls. ss_simulate() is open + step to the end + close; the run-length
 * controller (runlen.c) steps a run one observation at a time and decides
 * where its window begins and ends.
 */
struct ss_run {
	struct ss_sim sim;
	uint64_t measure_from;       /* a fixed warmup's end (0: from the start) */
	uint64_t batch_ns;           /* the observer's interval, 0 = none */
	bool ctl_warmup, ctl_stop;   /* the driver ends the warmup / the window */
	bool ended;                  /* the event loop reached the run's end (its stop, or a fatal error) */
	bool window_open;            /* the measured window has begun */
};

struct ss_run *ss_run_open(const struct ss_run_config *cfg, const struct ss_run_ctl *ctl, GError **err)
{
	struct ss_run *run;
	struct ss_sim *sim;

	if (!cfg->topo || !cfg->wl) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a run needs a topology and a workload");
		return NULL;
	}
	if (!cfg->duration_ns) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--duration must be greater than 0");
		return NULL;
	}
	run = g_new0(struct ss_run, 1);
	sim = &run->sim;
	if (!sim_init(sim, cfg, err)) {
		if (sim->res)
			ss_results_free(sim->res);
		sim_destroy(sim);
		g_free(run);
		return NULL;
	}
	if (ctl) {
		run->batch_ns = ctl->batch_ns;
		run->ctl_warmup = ctl->warmup;
		run->ctl_stop = ctl->stop;
	}
	sim->end_time = cfg->warmup_ns + cfg->duration_ns;
	/*
	 * A finish-time figure (hackbench's "Total time") is the whole run from
	 * t = 0: it is measured from the start whatever --warmup says (warmup +
	 * duration only bounds how long the run may take), and the measured
	 * window ends when the last task exits.
	 */
	run->measure_from = sim->res->measure == SS_MEASURE_FINISH ? 0 : cfg->warmup_ns;
	sim->timed_from_begin = sim->res->measure == SS_MEASURE_FINISH && ss_workload_metric(cfg->wl)->from_begin;
	if (!run->ctl_warmup) {
		if (run->measure_from)
			ss_evq_schedule(&sim->evq, &sim->ev_warmup, run->measure_from, SS_EV_CONTROL, 0);
		else
			reset_stats(sim);
		run->window_open = true;
		ss_evq_schedule(&sim->evq, &sim->ev_sample, run->measure_from, SS_EV_SAMPLE, 0);
	}
	if (!run->ctl_stop)
		ss_evq_schedule(&sim->evq, &sim->ev_stop, sim->end_time, SS_EV_CONTROL, 1);
	if (run->batch_ns) {
		/* the observer: (SAMPLE, cpu 2) is its own key, so it moves no other event's order */
		sim->obs_on = true;
		if (sim->res->measure == SS_MEASURE_WAKEUP_PCT)
			sim->obs_lat = g_new0(struct ss_lat_hist, 1);
		ss_evq_schedule(&sim->evq, &sim->ev_batch, ctl->first_ns, SS_EV_SAMPLE, 2);
	}
	if (sim->ft)
		ss_ft_window(sim, true);
	start_tasks(sim);
	return run;
}

/*
 * Handle events until the observer's next boundary (true: paused there,
 * with every event before it handled) or the run's end (false: its stop
 * event, or a fatal error, which ss_run_close reports).
 */
bool ss_run_step(struct ss_run *run)
{
	struct ss_sim *sim = &run->sim;
	struct ss_event *ev;

	if (run->ended)
		return false;
	while ((ev = ss_evq_pop(&sim->evq))) {
		if (ev->time != sim->now)
			sim->actions_without_time = 0;
		sim->now = ev->time;
		if (__builtin_expect(ev == &sim->ev_batch, 0)) {   /* an observer: not one of engine.events, no trace window */
			ss_evq_schedule(&sim->evq, &sim->ev_batch, sim->now + run->batch_ns, SS_EV_SAMPLE, 2);
			return true;
		}
		if (__builtin_expect(sim->ft != NULL, 0) && sim->now >= sim->ft_next)
			ss_ft_window(sim, ev->cls == SS_EV_CONTROL);
		if (__builtin_expect(!(++sim->res->events & 0x3ffff), 0) && sim->cfg->progress)
			sim->cfg->progress(sim->cfg->progress_ctx, sim->now, sim->end_time, sim->res->events);
		switch (ev->cls) {
		case SS_EV_ARRIVE:
			ttwu_arrive(sim, &sim->tasks[ev->owner]);
			break;
		case SS_EV_TIMER:
			handle_timer(sim, &sim->tasks[ev->owner]);
			break;
		case SS_EV_RESCHED: {
			struct ss_rq *rq = &sim->rq[ev->owner];
			if (rq->curr || rq->cfs.nr_running)
				resched_curr(sim, rq);
			break;
		}
		case SS_EV_STOP:
			run_stopper(sim, &sim->rq[ev->owner]);
			break;
		case SS_EV_RUN_END:
			handle_run_end(sim, &sim->rq[ev->owner]);
			break;
		case SS_EV_NEWIDLE:
			/* the held newidle balance ends: schedule() picks or idles */
			__schedule(sim, &sim->rq[ev->owner], false);
			break;
		case SS_EV_TICK:
			handle_jiffy(sim);
			break;
		case SS_EV_ILB: {
			struct ss_rq *rq = &sim->rq[ev->owner];
			unsigned flags = rq->ilb_pending;
			rq->ilb_pending = 0;
			ss_nohz_idle_balance(sim, rq, flags);
			ss_idle_reenter(sim, rq);
			break;
		}
		case SS_EV_SAMPLE:
			if (ev == &sim->ev_burst) {   /* an observer: not one of engine.events */
				sim->res->events--;
				burst_sample(sim);
				break;
			}
			sample_series(sim);
			ss_evq_schedule(&sim->evq, &sim->ev_sample, sim->now + sim->res->sample_ns, SS_EV_SAMPLE, 0);
			break;
		case SS_EV_CONTROL:
			if (ev == &sim->ev_warmup) {
				reset_stats(sim);
				break;
			}
			run->ended = true;
			return false;
		}
		if (sim->fatal)
			break;
	}
	run->ended = true;
	return false;
}

uint64_t ss_run_now(const struct ss_run *run)
{
	return run->sim.now;
}

void ss_run_observe(const struct ss_run *run, struct ss_run_obs *o)
{
	const struct ss_sim *sim = &run->sim;

	o->now_ns = sim->now;
	o->transactions = sim->obs_txn;
	o->mem_traffic_bytes = sim->obs_mem;
	o->bytes_per_txn = sim->res->bytes_per_txn;
	o->measure = sim->res->measure;
	o->percentile_x10 = sim->res->percentile_x10;
	o->metric_latency = sim->obs_lat;
	o->events = sim->res->events;
	o->all_exited = sim->finish_ns != 0;
	o->nr_idle_scan_pending = (ss_feat(sim->features, SS_FEAT_SIS_UTIL) || ss_feat(sim->features, SS_FEAT_SIS_UTIL_LINEAR)) &&
		(!sim->res->nr_idle_scan_written || sim->res->nr_idle_scan_written_ns > sim->now);
}

/* The warmup ends now: as a fixed --warmup of this length would end it (the (CONTROL, 0) event at this time). */
void ss_run_begin_window(struct ss_run *run)
{
	struct ss_sim *sim = &run->sim;

	if (run->window_open)
		return;
	run->window_open = true;
	run->measure_from = sim->now;
	if (sim->now)
		ss_evq_schedule(&sim->evq, &sim->ev_warmup, sim->now, SS_EV_CONTROL, 0);
	else
		reset_stats(sim);
	ss_evq_schedule(&sim->evq, &sim->ev_sample, sim->now, SS_EV_SAMPLE, 0);
}

/* The window ends now: as a fixed --duration ending here would end it (the (CONTROL, 1) event at this time). */
void ss_run_end_window(struct ss_run *run)
{
	struct ss_sim *sim = &run->sim;

	if (!run->ended && !ss_ev_queued(&sim->ev_stop))
		ss_evq_schedule(&sim->evq, &sim->ev_stop, sim->now, SS_EV_CONTROL, 1);
}

/* The window ends at t (≥ now): as a fixed --duration ending there would end it. */
void ss_run_end_window_at(struct ss_run *run, uint64_t t)
{
	struct ss_sim *sim = &run->sim;

	if (!run->ended)
		ss_evq_schedule(&sim->evq, &sim->ev_stop, t, SS_EV_CONTROL, 1);
}

void ss_run_free(struct ss_run *run)
{
	if (!run)
		return;
	if (run->sim.res)
		ss_results_free(run->sim.res);
	g_free(run->sim.obs_lat);
	sim_destroy(&run->sim);
	g_free(run);
}

struct ss_results *ss_run_close(struct ss_run *run, GError **err)
{
	struct ss_sim *sim = &run->sim;
	const struct ss_run_config *cfg = sim->cfg;
	struct ss_results *res = NULL;
	uint64_t measure_from;

	while (ss_run_step(run))
		;   /* to the stop event */
	measure_from = run->measure_from;
	if (!sim->fatal) {
		unsigned nr_roles = ss_workload_nr_roles(cfg->wl), blocked;
		g_autofree bool *wakeable = g_new0(bool, nr_roles ? nr_roles : 1);
		const struct ss_task *ex = NULL;

		ss_workload_wakeable_roles(cfg->wl, wakeable);
		blocked = deadlock_check(sim, wakeable, &ex);
		if (blocked) {
			struct ss_results *r = sim->res;
			uint64_t at = sim->last_dequeue_ns;
			g_autofree char *idle = at <= measure_from ? g_strdup("nothing ran in the measured window")
				: g_strdup_printf("nothing ran in the last %.6f s of the measured window", (double)(sim->now - at) / 1e9);

			r->deadlocked = true;
			r->deadlock_ns = at;
			r->deadlock_blocked = blocked;
			if (r->measure == SS_MEASURE_FINISH) {
				g_set_error(&sim->fatal, SS_ERROR, SS_ERROR_DEADLOCK,
					    "workload %s: deadlock at %.9f s: %u of %u tasks blocked for ever (e.g. %s in %s) with no task able to run or timer pending to wake them: it never finishes (raising --duration will not help)",
					    ss_workload_name(cfg->wl), (double)at / 1e9, blocked, sim->nr_wl_tasks,
					    sim->plan->task[ex->id].path, block_names[ex->block_on]);
			} else {
				ss_results_warn(r, g_strdup_printf(
					"deadlock at %.9f s: %u of %u tasks blocked for ever (e.g. %s in %s) with no task able to run or timer pending to wake them; %s",
					(double)at / 1e9, blocked, sim->nr_wl_tasks, sim->plan->task[ex->id].path,
					block_names[ex->block_on], idle));
			}
		}
	}
	if (!sim->fatal && sim->res->measure == SS_MEASURE_FINISH) {
		if (!sim->finish_ns)
			g_set_error(&sim->fatal, SS_ERROR, SS_ERROR_INVALID,
				    "workload %s: %u of %u tasks still alive at %.3f s, the end of --warmup + --duration (its figure is the time until every task has exited: raise --duration)",
				    ss_workload_name(cfg->wl), sim->nr_alive + sim->nr_to_start, sim->nr_wl_tasks,
				    (double)sim->end_time / 1e9);
		else {
			/* from t = 0, or from the first transaction begin (metric `from: begin`) */
			sim->res->finish_ns = sim->finish_ns - sim->measure_start;
			sim->res->warmup_ns = sim->measure_start;
			sim->res->duration_ns = sim->finish_ns - sim->measure_start;   /* the window the other figures cover */
		}
	} else if (!sim->fatal && (run->ctl_warmup || run->ctl_stop)) {
		/* the window the driver chose */
		if (!run->window_open) {
			g_set_error(&sim->fatal, SS_ERROR, SS_ERROR_INVALID, "the run ended at %.6f s before its measured window began",
				    (double)sim->now / 1e9);
		} else {
			sim->res->warmup_ns = sim->measure_start;
			sim->res->duration_ns = sim->now - sim->measure_start;
		}
	}
	if (sim->fatal) {
		g_propagate_error(err, sim->fatal);
		sim->fatal = NULL;
		ss_run_free(run);
		return NULL;
	}
	/* run.ended_ns: the last task's exit, else a deadlock's start, else the end of the window */
	sim->res->ended_ns = sim->finish_ns ? sim->finish_ns : sim->res->deadlocked ? sim->res->deadlock_ns : sim->now;
	/* a SIS_UTIL budget the window used before any balance computed it (a machine booted at t = 0) */
	if ((ss_feat(sim->features, SS_FEAT_SIS_UTIL) || ss_feat(sim->features, SS_FEAT_SIS_UTIL_LINEAR)) &&
	    (!sim->res->nr_idle_scan_written || sim->res->nr_idle_scan_written_ns > sim->res->warmup_ns)) {
		g_autofree char *when = sim->res->nr_idle_scan_written
			? g_strdup_printf("the last LLC's first at %.3f s", (double)sim->res->nr_idle_scan_written_ns / 1e9)
			: g_strdup("some LLC's never");
		ss_results_warn(sim->res, g_strdup_printf(
			"the measured window starts at %.3f s, before every LLC's nr_idle_scan was written by a periodic balance "
			"(%s): its SIS_UTIL scans used the domain build's 0 (kernel.idle_before_ns=%.3f s; raise --warmup, or start "
			"from a machine that has been up and idle, kernel.idle_before_ns > 0)",
			(double)sim->res->warmup_ns / 1e9, when, (double)sim->params.idle_before_ns / 1e9));
	}
	finish_stats(sim);
	res = sim->res;
	sim->res = NULL;
	ss_run_free(run);
	return res;
}

struct ss_results *ss_simulate(const struct ss_run_config *cfg, GError **err)
{
	struct ss_run *run;

	if (cfg->warmup_auto || cfg->precision > 0)
		return ss_runlen_simulate(cfg, err);
	if (!(run = ss_run_open(cfg, NULL, err)))
		return NULL;
	return ss_run_close(run, err);
}

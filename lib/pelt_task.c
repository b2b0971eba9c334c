/*
 * pelt_task.c — one task alone on one CPU, driven through the kernel-exact
 * PELT of pelt.c with the update sequence of fair.c v6.6 (see
 * simsched/pelt_task.h). What `simsched pelt` prints.
 *
 * The replay is deliberately a small loop rather than a run of the
 * simulator: with one task on one CPU nothing is placed, balanced or
 * preempted, and the simulator's costs (context switch, IPI) would blur the
 * pattern the user asked about. The PELT calls and their order are the ones
 * lib/core.c makes (enqueue_task, dequeue_sleep, schedule, handle_tick).
 */
#include <string.h>

#include "simsched/error.h"
#include "simsched/pelt.h"
#include "simsched/pelt_task.h"
#include "simsched/rng.h"
#include "workload_priv.h"

#define MAX_ACTIONS_WITHOUT_TIME 1000000u

/*
 * The rq clocks start one PELT period after "boot", not at 0: in
 * update_load_avg() a last_update_time of 0 means "not attached", so a task
 * forked at clock 0 would never be aged and would be attached a second time
 * at its first wakeup. A whole period keeps the PELT period boundaries where
 * they are for a clock starting at 0 (the reference's test vectors).
 */
#define CLOCK_BASE_NS UINT64_C(1048576)

const char *ss_pelt_event_name(enum ss_pelt_event ev)
{
	switch (ev) {
	case SS_PELT_EV_FORK:
		return "fork";
	case SS_PELT_EV_WAKEUP:
		return "wakeup";
	case SS_PELT_EV_TICK:
		return "tick";
	case SS_PELT_EV_SLEEP:
		return "sleep";
	case SS_PELT_EV_EXIT:
		return "exit";
	}
	return "?";
}

/* What the task does next, in wall-clock terms on this CPU. */
enum seg_kind { SEG_RUN, SEG_SLEEP, SEG_EXIT };
struct seg {
	enum seg_kind kind;
	uint64_t until;     /* RUN: end of the burst; SLEEP: wakeup time (absolute wall ns) */
};

struct replay {
	const struct ss_pelt_task_spec *s;
	struct ss_pelt_trace *tr;
	GError **err;

	/* the rq */
	struct ss_rq_clock_pelt clk;
	struct ss_cfs_rq_avg cfs;
	unsigned long cfs_load_weight;   /* cfs_rq->load.weight (scale_load_down'ed) */
	unsigned h_nr_running;
	bool cfs_curr;
	uint64_t speed_num;              /* 2^52 / (capacity x freq_capacity): as core.c's rq->speed_num */

	/* the task */
	struct ss_sched_avg se;
	bool on_rq, running;
	uint64_t run_since;
	uint64_t next_tick;

	/* the pattern */
	uint64_t period_idx;             /* periodic: the current period */
	bool periodic_ran;               /* periodic: this period's run was handed out */
	struct ss_wl_cursor cursor;      /* workload */
	struct ss_rng rng;
	uint64_t tokens;
	uint64_t timer_next;             /* workload: the task's absolute timer (core.c SS_ACT_TIMER), 0 = not armed */
	uint64_t *slot_timer_next;       /* workload: the shared timers (SS_TIMER_SHARED) by sync slot, this task their
					    only user here (plan->nr_sync entries) */
	uint32_t *slot_sem;              /* workload: the semaphores' values by sync slot (this task their only user) */

	/* output */
	uint64_t now;
	uint64_t next_sample;
	enum ss_pelt_event last_event;
};

/* ------------------------------------------------------------ trace */

static void push_sample(struct replay *r, uint64_t t)
{
	struct ss_pelt_sample smp = {
		.time_ns = t,
		.clock_pelt_ns = ss_rq_clock_pelt(&r->clk) - CLOCK_BASE_NS,
		.event = r->last_event,
		.running = r->running,
		.util_avg = (uint32_t)r->se.util_avg,
		.runnable_avg = (uint32_t)r->se.runnable_avg,
		.load_avg = (uint32_t)r->se.load_avg,
		.util_est_enqueued = r->se.util_est.enqueued & ~SS_UTIL_AVG_UNCHANGED,
		.util_est_ewma = r->se.util_est.ewma,
		.cfs_util_avg = (uint32_t)r->cfs.avg.util_avg,
	};
	g_array_append_val(r->tr->samples, smp);
}

/* Rows for every sample time before t, with the state held until t. */
static void samples_before(struct replay *r, uint64_t t)
{
	if (!r->s->sample_ns)
		return;
	while (r->next_sample < t) {
		push_sample(r, r->next_sample);
		if (r->next_sample > UINT64_MAX - r->s->sample_ns)
			r->next_sample = UINT64_MAX;
		else
			r->next_sample += r->s->sample_ns;
	}
}

/* After the updates of one event at r->now. */
static void updated(struct replay *r, enum ss_pelt_event ev)
{
	struct ss_pelt_trace *tr = r->tr;
	uint32_t u = (uint32_t)r->se.util_avg, ra = (uint32_t)r->se.runnable_avg;

	r->last_event = ev;
	tr->nr_updates++;
	if (!r->s->sample_ns)
		push_sample(r, r->now);
	if (r->now >= r->s->steady_from_ns) {
		if (!tr->steady) {
			tr->steady = true;
			tr->steady_min = tr->steady_max = u;
			tr->steady_runnable_min = tr->steady_runnable_max = ra;
		}
		tr->steady_min = MIN(tr->steady_min, u);
		tr->steady_max = MAX(tr->steady_max, u);
		tr->steady_runnable_min = MIN(tr->steady_runnable_min, ra);
		tr->steady_runnable_max = MAX(tr->steady_runnable_max, ra);
	}
}

/* ------------------------------------------------------------ the rq (core.c / fair.c v6.6) */

/* update_rq_clock(): the CPU ran the task (or idled) since the last update. */
static void rq_clock(struct replay *r)
{
	uint64_t delta = CLOCK_BASE_NS + r->now - r->clk.clock_task;

	if (delta)
		ss_update_rq_clock_pelt(&r->clk, delta, !r->running, r->s->capacity, r->s->freq_capacity);
}

/* update_load_avg(cfs_rq, se, flags) with what the kernel reads at this point. */
static void load_avg(struct replay *r, int flags)
{
	struct ss_pelt_cfs_input cin = {
		.load_weight = r->cfs_load_weight,
		.h_nr_running = r->h_nr_running,
		.curr = r->cfs_curr,
	};
	struct ss_pelt_se_input sin = {
		.weight = r->s->weight,
		.on_rq = r->on_rq,
		.running = r->cfs_curr,   /* the only entity: curr == se */
	};

	ss_update_load_avg(ss_rq_clock_pelt(&r->clk), &r->cfs, cin, &r->se, sin, flags);
}

/* enqueue_task_fair() then schedule() picking it: set_next_entity(). */
static void wakeup(struct replay *r, enum ss_pelt_event ev)
{
	samples_before(r, r->now);
	rq_clock(r);
	ss_util_est_enqueue(&r->cfs, &r->se);
	load_avg(r, SS_UPDATE_TG | SS_DO_ATTACH);       /* enqueue_entity(), before on_rq */
	r->on_rq = true;
	r->cfs_load_weight += r->s->weight;             /* account_entity_enqueue() */
	r->h_nr_running++;
	load_avg(r, SS_UPDATE_TG);                      /* set_next_entity(), before curr */
	r->cfs_curr = true;
	r->running = true;
	r->run_since = r->now;
	/* tick_nohz_idle_exit(): the tick resumes at the next jiffy boundary */
	if (r->s->tick_ns)
		r->next_tick = (r->now / r->s->tick_ns + 1) * r->s->tick_ns;
	updated(r, ev);
}

/* entity_tick() of scheduler_tick(). */
static void tick(struct replay *r)
{
	samples_before(r, r->now);
	rq_clock(r);
	load_avg(r, SS_UPDATE_TG);
	updated(r, SS_PELT_EV_TICK);
}

/* dequeue_task_fair(DEQUEUE_SLEEP), put_prev, the idle task (update_idle_rq_clock_pelt). */
static void sleep_now(struct replay *r, enum ss_pelt_event ev)
{
	samples_before(r, r->now);
	rq_clock(r);
	ss_util_est_dequeue(&r->cfs, &r->se);
	load_avg(r, SS_UPDATE_TG);                      /* dequeue_entity(): on_rq and curr still set */
	r->on_rq = false;
	r->cfs_load_weight -= r->s->weight;             /* account_entity_dequeue() */
	r->h_nr_running--;
	/* util_est_update(): UTIL_EST_FASTUP is on in v6.6 */
	ss_util_est_update(&r->cfs, &r->se, true, true, r->s->capacity);
	r->cfs_curr = false;                            /* put_prev_entity(): not on_rq, no update */
	r->running = false;
	r->tr->running_ns += r->now - r->run_since;
	if (r->now > r->s->steady_from_ns)
		r->tr->steady_running_ns += r->now - MAX(r->run_since, r->s->steady_from_ns);
	ss_update_idle_rq_clock_pelt(&r->clk, r->cfs.avg.util_sum);
	updated(r, ev);
}

/* ------------------------------------------------------------ the pattern */

/* Wall-clock ns of `work` (ns at capacity 1024, max frequency): core.c work_to_wall(). */
static uint64_t work_to_wall(const struct replay *r, uint64_t work)
{
	unsigned __int128 w = (unsigned __int128)work * r->speed_num;
	unsigned __int128 wall = (w + 0xffffffffu) >> 32;

	return wall > UINT64_MAX ? UINT64_MAX : (uint64_t)wall;
}

static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static bool next_periodic(struct replay *r, struct seg *sg)
{
	const struct ss_pelt_task_spec *s = r->s;

	if (!r->periodic_ran) {
		r->periodic_ran = true;
		sg->kind = SEG_RUN;
		sg->until = add_sat(r->now, s->busy_ns);
		return true;
	}
	r->periodic_ran = false;
	r->period_idx++;
	sg->kind = SEG_SLEEP;
	sg->until = r->period_idx > UINT64_MAX / s->period_ns ? UINT64_MAX : r->period_idx * s->period_ns;
	return true;
}

static const char *action_name(enum ss_wl_action_kind k)
{
	switch (k) {
	case SS_ACT_RUN: return "run";
	case SS_ACT_SLEEP: return "sleep";
	case SS_ACT_WAKE: return "wake";
	case SS_ACT_WAIT: return "wait";
	case SS_ACT_TXN_BEGIN: return "transaction: begin";
	case SS_ACT_TXN_END: return "transaction: end";
	case SS_ACT_EXIT: return "exit";
	case SS_ACT_SEND: return "send";
	case SS_ACT_RECV: return "recv";
	case SS_ACT_LOCK: return "lock";
	case SS_ACT_UNLOCK: return "unlock";
	case SS_ACT_TIMER: return "timer";
	case SS_ACT_BARRIER: return "barrier";
	case SS_ACT_SPAWN: return "spawn";
	case SS_ACT_RUN_WALL: return "run_wall";
	case SS_ACT_COND_WAIT: return "cond_wait";
	case SS_ACT_COND_SIGNAL: return "cond_signal";
	case SS_ACT_COND_BROADCAST: return "cond_broadcast";
	case SS_ACT_YIELD: return "yield";
	case SS_ACT_SEM_POST: return "sem_post";
	case SS_ACT_SEM_WAIT: return "sem_wait";
	case SS_ACT_SET_CPUS: return "set_cpus";
	case SS_ACT_EXEC: return "exec";
	}
	return "?";
}

/*
 * The replayed task, alone on its CPU, waits on what only another task
 * could post or signal (`object`): it sleeps for the spec's wait_ns, or,
 * with none given, the replay fails naming the task and the time.
 */
static bool sleep_alone(struct replay *r, struct seg *sg, const char *path, const char *object,
			const char *verb)
{
	if (!r->s->wait_ns) {
		g_set_error(r->err, SS_ERROR, SS_ERROR_INVALID,
			    "task %s waits on %s at %llu ns; alone on a CPU nobody %s it "
			    "(give the time a wait blocks, --wait-time)",
			    path, object, (unsigned long long)r->now, verb);
		return false;
	}
	sg->kind = SEG_SLEEP;
	sg->until = add_sat(r->now, r->s->wait_ns);
	return true;
}

static bool next_workload(struct replay *r, struct seg *sg)
{
	const struct ss_wl_plan *p = r->s->plan;
	const struct ss_wl_task *t = &p->task[r->s->task];

	for (unsigned n = 0; n < MAX_ACTIONS_WITHOUT_TIME; n++) {
		struct ss_wl_action a;

		ss_wl_next(p, r->s->task, &r->cursor, &r->rng, &a);
		switch (a.kind) {
		case SS_ACT_RUN:
			sg->kind = SEG_RUN;
			sg->until = add_sat(r->now, work_to_wall(r, a.ns));
			return true;
		case SS_ACT_SLEEP:
			sg->kind = SEG_SLEEP;
			sg->until = add_sat(r->now, a.ns);
			return true;
		case SS_ACT_WAKE:
			/* alone on the CPU: a wakeup of another task changes nothing here */
			if (a.target == r->s->task)
				r->tokens++;
			break;
		case SS_ACT_WAIT:
			if (r->tokens >= a.count) {
				r->tokens -= a.count;
				break;
			}
			if (!r->s->wait_ns) {
				g_set_error(r->err, SS_ERROR, SS_ERROR_INVALID,
					    "task %s waits for %u wakeup(s) from other tasks at %llu ns; alone on a CPU "
					    "nobody wakes it (give the time a wait blocks, --wait-time)",
					    t->path, a.count, (unsigned long long)r->now);
				return false;
			}
			r->tokens = 0;
			sg->kind = SEG_SLEEP;
			sg->until = add_sat(r->now, r->s->wait_ns);
			return true;
		case SS_ACT_COND_WAIT:
			/* alone: nobody signals the condition (its own signals, sent while
			 * nobody waited, were lost), so the wait always blocks */
			return sleep_alone(r, sg, t->path, "a condition variable", "signals");
		case SS_ACT_COND_SIGNAL:
		case SS_ACT_COND_BROADCAST:
			/* alone: nobody waits, the wakeup is lost */
			break;
		case SS_ACT_YIELD:
			/* alone on its rq: yield_task_fair() does nothing, schedule() picks it again */
			break;
		case SS_ACT_SET_CPUS:
			/* the replay's one CPU stands for whichever the task may use */
			break;
		case SS_ACT_EXEC:
			/* alone on an idle machine: sched_exec() keeps the task where it runs */
			break;
		case SS_ACT_SEM_POST:
			/* alone: nobody waits, the value counts the post */
			if (r->slot_sem[a.target] < UINT32_MAX)
				r->slot_sem[a.target]++;
			break;
		case SS_ACT_SEM_WAIT:
			/* its own posts first; at 0 only another task could post */
			if (r->slot_sem[a.target]) {
				r->slot_sem[a.target]--;
				break;
			}
			return sleep_alone(r, sg, t->path, "a semaphore of value 0", "posts");
		case SS_ACT_RUN_WALL:
			/* alone and never preempted: wall time is run time */
			sg->kind = SEG_RUN;
			sg->until = add_sat(r->now, a.ns);
			return true;
		case SS_ACT_TIMER: {
			/* as core.c: the first arms at now (or the anchor) + period, each later
			 * adds a period; an overrun goes on at once (relative mode: from now) */
			uint64_t *next = (a.count & SS_TIMER_SHARED) ? &r->slot_timer_next[a.target] : &r->timer_next;

			if (*next)
				*next = add_sat(*next, a.ns);
			else
				*next = add_sat((a.count & SS_TIMER_ANCHORED) ? a.anchor_ns : r->now, a.ns);
			if (*next <= r->now) {
				if (a.count & SS_TIMER_RELATIVE)
					*next = r->now;
				break;
			}
			sg->kind = SEG_SLEEP;
			sg->until = *next;
			return true;
		}
		case SS_ACT_LOCK:
		case SS_ACT_UNLOCK:
			/* alone: no other task holds the mutex, nobody waits for it */
			break;
		case SS_ACT_SPAWN:
			/* the children are other tasks; the parent goes on (fork costs no time here) */
			break;
		case SS_ACT_BARRIER:
			/* as a lock alone: the other parties are taken to be there already */
			break;
		case SS_ACT_SEND:
		case SS_ACT_RECV:
			g_set_error(r->err, SS_ERROR, SS_ERROR_INVALID,
				    "task %s: its program uses '%s' at %llu ns, which needs another task at the other end "
				    "of a channel; the replay of one task alone cannot model it",
				    t->path, action_name(a.kind), (unsigned long long)r->now);
			return false;
		case SS_ACT_TXN_BEGIN:
		case SS_ACT_TXN_END:
			break;
		case SS_ACT_EXIT:
			sg->kind = SEG_EXIT;
			return true;
		default:
			g_set_error(r->err, SS_ERROR, SS_ERROR_INVALID,
				    "task %s: its program uses '%s', which the replay of one task alone does not model",
				    t->path, action_name(a.kind));
			return false;
		}
	}
	g_set_error(r->err, SS_ERROR, SS_ERROR_INVALID,
		    "task %s: %u actions in a row without simulated time passing at %llu ns (a loop of wakes "
		    "to itself and waits?)", t->path, MAX_ACTIONS_WITHOUT_TIME, (unsigned long long)r->now);
	return false;
}

static bool next_seg(struct replay *r, struct seg *sg)
{
	return r->s->plan ? next_workload(r, sg) : next_periodic(r, sg);
}

/* ------------------------------------------------------------ run */

static bool check_spec(const struct ss_pelt_task_spec *s, GError **err)
{
	const char *bad = NULL;

	if (!s->plan && (s->period_ns < SS_PELT_MIN_PERIOD_NS || s->period_ns > SS_PELT_MAX_PERIOD_NS))
		bad = "the period must be in 1024 ns..2500 s (one PELT time unit .. 400 periods within 10^6 s)";
	else if (!s->plan && (s->duration_ns < s->period_ns || s->duration_ns / s->period_ns > SS_PELT_MAX_PERIODS))
		bad = "the run must cover 1..10^7 periods";
	else if (!s->plan && s->busy_ns > s->period_ns)
		bad = "the busy time must be at most the period";
	else if (s->plan && s->task >= s->plan->nr_tasks)
		bad = "no such task in the plan";
	else if (!s->capacity || s->capacity > SS_SCHED_CAPACITY_SCALE)
		bad = "the capacity must be in 1..1024";
	else if (!s->freq_capacity || s->freq_capacity > SS_SCHED_CAPACITY_SCALE)
		bad = "the frequency capacity must be in 1..1024";
	else if (!s->weight)
		bad = "the weight must be greater than 0";
	else if (!s->duration_ns)
		bad = "the duration must be greater than 0";
	else if (s->steady_from_ns >= s->duration_ns)
		bad = "the steady state must start before the end of the run";
	if (bad) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "pelt: %s", bad);
		return false;
	}
	return true;
}

struct ss_pelt_trace *ss_pelt_task_run(const struct ss_pelt_task_spec *s, GError **err)
{
	struct replay r;
	struct seg sg;
	const uint64_t end = s ? s->duration_ns : 0;

	if (!s) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "pelt: no pattern given");
		return NULL;
	}
	if (!check_spec(s, err))
		return NULL;

	memset(&r, 0, sizeof(r));
	r.s = s;
	r.err = err;
	r.tr = g_new0(struct ss_pelt_trace, 1);
	r.tr->samples = g_array_new(FALSE, FALSE, sizeof(struct ss_pelt_sample));
	r.clk.clock_task = r.clk.clock_pelt = CLOCK_BASE_NS;
	r.cfs.avg.last_update_time = CLOCK_BASE_NS;
	r.speed_num = (uint64_t)(((unsigned __int128)1 << 52) / ((uint64_t)s->capacity * s->freq_capacity));
	if (s->plan) {
		r.slot_timer_next = g_new0(uint64_t, s->plan->nr_sync ? s->plan->nr_sync : 1);
		r.slot_sem = g_new0(uint32_t, s->plan->nr_sync ? s->plan->nr_sync : 1);
		ss_wl_cursor_init(&r.cursor);
		ss_rng_seed(&r.rng, s->seed, ss_rng_stream_id(s->plan->task[s->task].path));
	}

	/* wake_up_new_task() at t = 0 on the idle CPU (core.c start_tasks) */
	if (!s->from_zero) {
		ss_init_entity_runnable_average(&r.se, s->weight);
		ss_post_init_entity_util_avg(&r.cfs, &r.se, s->weight, s->capacity);
	}
	wakeup(&r, SS_PELT_EV_FORK);

	for (;;) {
		if (!next_seg(&r, &sg))
			goto fail;
		if (sg.kind == SEG_EXIT) {
			sleep_now(&r, SS_PELT_EV_EXIT);
			r.tr->exited = true;
			break;
		}
		if (sg.kind == SEG_RUN) {
			/* ticks strictly inside the burst; a tick at its end would find
			 * nothing to age (same clock) or an idle CPU */
			while (s->tick_ns && r.next_tick < sg.until && r.next_tick < end) {
				r.now = r.next_tick;
				tick(&r);
				r.next_tick += s->tick_ns;
			}
			if (sg.until >= end)
				break;
			r.now = sg.until;
			continue;
		}
		/* SEG_SLEEP */
		if (sg.until <= r.now)
			continue;       /* no time to sleep (a periodic task busy 100 %) */
		sleep_now(&r, SS_PELT_EV_SLEEP);
		if (sg.until >= end)
			break;
		r.now = sg.until;
		wakeup(&r, SS_PELT_EV_WAKEUP);
	}

	r.tr->end_ns = r.tr->exited ? r.now : end;
	if (r.running) {
		r.tr->running_ns += end - r.run_since;
		if (end > s->steady_from_ns)
			r.tr->steady_running_ns += end - MAX(r.run_since, s->steady_from_ns);
	}
	samples_before(&r, r.tr->end_ns);
	g_free(r.slot_timer_next);
	g_free(r.slot_sem);
	return r.tr;
fail:
	g_free(r.slot_timer_next);
	g_free(r.slot_sem);
	ss_pelt_trace_free(r.tr);
	return NULL;
}

void ss_pelt_trace_free(struct ss_pelt_trace *t)
{
	if (!t)
		return;
	if (t->samples)
		g_array_free(t->samples, TRUE);
	g_free(t);
}

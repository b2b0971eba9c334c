/*
 * simsched/pelt_task.h — the PELT signals of one task alone on one CPU.
 *
 * What `simsched pelt` prints: a task follows a pattern (a periodic duty
 * cycle, or the program of one task of a workload replayed by the
 * interpreter) on an otherwise idle CPU, and the kernel-exact PELT of
 * pelt.h is driven with the updates fair.c v6.6 makes for it:
 *
 *   fork      wake_up_new_task(): init_entity_runnable_average() +
 *             post_init_entity_util_avg() (unless from_zero), then enqueue
 *   wakeup    enqueue_task_fair() -> enqueue_entity(): util_est_enqueue(),
 *             update_load_avg(UPDATE_TG | DO_ATTACH) with on_rq = 0 (the
 *             sleep decays), then set_next_entity(): update_load_avg()
 *   tick      entity_tick(): update_load_avg(curr), every jiffy boundary
 *             strictly inside a run (the tick is stopped while idle: NOHZ)
 *   sleep     dequeue_task_fair(DEQUEUE_SLEEP): util_est_dequeue(),
 *             update_load_avg() with on_rq = 1 and curr == se, then
 *             util_est_update(task_sleep); the CPU enters idle:
 *             update_idle_rq_clock_pelt()
 *
 * "now" is rq_clock_pelt(): before every update the rq clock advances
 * (update_rq_clock_pelt(), pelt.h v6.6), scaled by capacity and frequency
 * while the task runs and re-synced while the CPU is idle, so frequency and
 * CPU invariance come out as the kernel computes them. No costs (context
 * switch, IPI) and no other task: the pattern's times are the task's own.
 * Everything is integer and deterministic.
 */
#ifndef SIMSCHED_PELT_TASK_H
#define SIMSCHED_PELT_TASK_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/workload.h"

/** What the last PELT update before a sample was. */
enum ss_pelt_event {
	SS_PELT_EV_FORK,      /* wake_up_new_task */
	SS_PELT_EV_WAKEUP,    /* enqueue + set_next_entity */
	SS_PELT_EV_TICK,      /* entity_tick */
	SS_PELT_EV_SLEEP,     /* dequeue (DEQUEUE_SLEEP) */
	SS_PELT_EV_EXIT,      /* the program ended: dequeue for good */
};

/** Name of an event ("fork", "wakeup", "tick", "sleep", "exit"). */
const char *ss_pelt_event_name(enum ss_pelt_event ev);

/**
 * The pattern and the CPU. Either periodic (plan == NULL: busy_ns of running
 * at the start of every period_ns of wall-clock time, then sleep until the
 * next period starts) or one task of a workload plan (plan != NULL).
 */
/*
 * Bounds of the periodic pattern (docs/pelt.md, "The pattern"):
 * - a period of at least 1024 ns: PELT accrues time in 1024-ns units
 *   (___update_load_sum() works on delta >> 10), so a whole run+sleep cycle
 *   shorter than one unit is below PELT's resolution (and shorter than one
 *   context switch: no real task can follow it);
 * - at most 2500 s: the default run of 400 periods (the reference's
 *   protocol, steady state = cycles 300..399) then stays within the 10^6-s
 *   limit of a run; long before that each busy phase saturates util_avg
 *   (LOAD_AVG_MAX_N = 345 PELT periods, ~353 ms) and each sleep decays it;
 * - a run of at least one period (else nothing repeats) and at most 10^7
 *   periods (two updates per period: a bound on the run time).
 */
#define SS_PELT_MIN_PERIOD_NS UINT64_C(1024)
#define SS_PELT_MAX_PERIOD_NS (UINT64_C(2500) * 1000000000u)
#define SS_PELT_MAX_PERIODS UINT64_C(10000000)

struct ss_pelt_task_spec {
	/* periodic pattern */
	uint64_t period_ns;          /* SS_PELT_MIN_PERIOD_NS..SS_PELT_MAX_PERIOD_NS */
	uint64_t busy_ns;            /* wall-clock ns running per period, 0..period_ns */
	unsigned long weight;        /* se weight: 1024 for nice 0 (sched_prio_to_weight) */
	/* workload pattern */
	const struct ss_wl_plan *plan;  /* borrowed; NULL for the periodic pattern */
	uint32_t task;               /* index of the task in plan */
	uint64_t seed;               /* run seed: the task's stream is (seed, its path) as in ss_simulate */
	uint64_t wait_ns;            /* a wait that the task's own tokens do not satisfy, and every wait on a
					condition variable, blocks this long (its partners' answer time);
					0 = such a wait is an error */
	/* CPU */
	unsigned long capacity;      /* arch_scale_cpu_capacity(), 1..1024 */
	unsigned long freq_capacity; /* arch_scale_freq_capacity(), 1..1024 (cur/max freq x 1024) */
	uint64_t tick_ns;            /* TICK_NSEC (10^9 / HZ); 0 = no tick */
	bool from_zero;              /* start from zeroed averages (the reference's test vectors)
					instead of post_init_entity_util_avg() on the idle CPU */
	/* run */
	uint64_t duration_ns;        /* simulated wall-clock time, > 0; periodic: 1..SS_PELT_MAX_PERIODS periods */
	uint64_t steady_from_ns;     /* steady state = updates in [steady_from_ns, duration_ns) */
	uint64_t sample_ns;          /* a row every sample_ns (state held at that time);
					0 = a row after every update */
};

/** One row: the task's and the CPU's averages as the kernel holds them at time_ns. */
struct ss_pelt_sample {
	uint64_t time_ns;            /* wall-clock ns since the fork */
	uint64_t clock_pelt_ns;      /* rq_clock_pelt() at the last update */
	uint32_t event;              /* enum ss_pelt_event of the last update at or before time_ns */
	bool running;                /* the task was running at time_ns */
	uint32_t util_avg;           /* se->avg.util_avg, 0..1024 */
	uint32_t runnable_avg;       /* se->avg.runnable_avg */
	uint32_t load_avg;           /* se->avg.load_avg (weight units) */
	uint32_t util_est_enqueued;  /* util_est.enqueued without the UTIL_AVG_UNCHANGED flag */
	uint32_t util_est_ewma;
	uint32_t cfs_util_avg;       /* the CPU's cfs_rq util_avg */
};

/** Result of ss_pelt_task_run(); owned by the caller (ss_pelt_trace_free). */
struct ss_pelt_trace {
	GArray *samples;             /* struct ss_pelt_sample, in time order */
	uint64_t nr_updates;         /* PELT updates made (fork, wakeups, ticks, sleeps) */
	uint64_t end_ns;             /* duration_ns, or the time the program ended */
	bool exited;                 /* the program ended before duration_ns */
	uint64_t running_ns;         /* wall-clock ns the task ran in [0, end_ns) */
	uint64_t steady_running_ns;  /* ... in [steady_from_ns, end_ns) */
	bool steady;                 /* at least one update in the steady-state window */
	uint32_t steady_min, steady_max;          /* util_avg after every update in the window */
	uint32_t steady_runnable_min, steady_runnable_max;
};

/**
 * Run the pattern of spec and trace its PELT averages. Kernel sources:
 * pelt.c/pelt.h and fair.c of v6.6 (see the top of this header).
 * Errors (*err, SS_ERROR_USAGE for a bad spec, SS_ERROR_INVALID for a
 * program that cannot be replayed alone — a wait nobody answers without
 * wait_ns, an action the replay does not know, a program that stops
 * letting time pass): NULL.
 */
struct ss_pelt_trace *ss_pelt_task_run(const struct ss_pelt_task_spec *spec, GError **err);
void ss_pelt_trace_free(struct ss_pelt_trace *t);

#endif

/*
 * simsched/pelt.h — kernel-exact integer PELT (per-entity load tracking).
 *
 * Mirrors kernel v6.6 kernel/sched/pelt.c, pelt.h, sched-pelt.h and the PELT
 * parts of fair.c (update_load_avg, attach/detach/remove_entity_load_avg,
 * post_init_entity_util_avg, util_est_*, cpu_util). Time is the rq's PELT
 * clock in ns (rq_clock_pelt); 1 PELT "µs" = 1024 ns, 1 period = 1024 µs.
 * util/runnable in 0..1024 (SCHED_CAPACITY_SCALE) per entity; for a cfs_rq the
 * sum over its entities. load_avg in weight units (1024 for nice 0).
 *
 * Nothing here allocates or depends on the simulator's task/rq structs: the
 * caller passes the inputs the kernel would read (on_rq, running, weights).
 */
#ifndef SIMSCHED_PELT_H
#define SIMSCHED_PELT_H

#include <stdbool.h>
#include <stdint.h>

#define SS_SCHED_CAPACITY_SHIFT 10
#define SS_SCHED_CAPACITY_SCALE 1024u
#define SS_LOAD_AVG_PERIOD 32u
#define SS_LOAD_AVG_MAX 47742u
#define SS_PELT_MIN_DIVIDER (SS_LOAD_AVG_MAX - 1024u)
#define SS_UTIL_EST_WEIGHT_SHIFT 2
#define SS_UTIL_EST_MARGIN (SS_SCHED_CAPACITY_SCALE / 100)
#define SS_UTIL_AVG_UNCHANGED 0x80000000u  /* flag in util_est.enqueued (v5.16..v6.7) */

/** struct util_est (v6.6): enqueued carries SS_UTIL_AVG_UNCHANGED. */
struct ss_util_est {
	uint32_t enqueued;
	uint32_t ewma;
};

/** struct sched_avg (v6.6). last_update_time in ns of the PELT clock. */
struct ss_sched_avg {
	uint64_t last_update_time;
	uint64_t load_sum;
	uint64_t runnable_sum;
	uint32_t util_sum;
	uint32_t period_contrib;   /* 0..1023 */
	uint64_t load_avg;
	uint64_t runnable_avg;
	uint64_t util_avg;
	struct ss_util_est util_est;
};

/** PELT state of a cfs_rq: its sched_avg plus pending removals (cfs_rq->removed). */
struct ss_cfs_rq_avg {
	struct ss_sched_avg avg;
	struct {
		uint64_t load_avg, util_avg, runnable_avg;
		unsigned nr;
	} removed;
};

/** decay_load(): val * y^n, kernel integer arithmetic (pelt.c). */
uint64_t ss_decay_load(uint64_t val, uint64_t n);

/** __accumulate_pelt_segments() (pelt.c). */
uint32_t ss___accumulate_pelt_segments(uint64_t periods, uint32_t d1, uint32_t d3);

/**
 * ___update_load_sum() (pelt.c): advance sa to now (ns). load/runnable/running
 * as the kernel passes them. Returns 1 if at least one period boundary was
 * crossed (the caller then calls ss___update_load_avg), else 0.
 */
int ss___update_load_sum(uint64_t now, struct ss_sched_avg *sa, unsigned long load,
			 unsigned long runnable, int running);

/** ___update_load_avg() (pelt.c): recompute *_avg from the sums; load = weight. */
void ss___update_load_avg(struct ss_sched_avg *sa, unsigned long load);

/** get_pelt_divider() (pelt.h): PELT_MIN_DIVIDER + period_contrib. */
static inline uint32_t ss_get_pelt_divider(const struct ss_sched_avg *sa)
{
	return SS_PELT_MIN_DIVIDER + sa->period_contrib;
}

/**
 * Per-entity updates (pelt.c). weight = se_weight (nice weight, 1024 nice 0).
 * Return 1 if *_avg were recomputed. The se variant also clears
 * SS_UTIL_AVG_UNCHANGED in util_est.enqueued when util_avg was recomputed
 * (cfs_se_util_change).
 */
int ss___update_load_avg_blocked_se(uint64_t now, struct ss_sched_avg *se, unsigned long weight);
int ss___update_load_avg_se(uint64_t now, struct ss_sched_avg *se, unsigned long weight,
			    bool on_rq, bool running);
/** cfs_rq: load = Σ weights queued, runnable = h_nr_running, running = curr != NULL. */
int ss___update_load_avg_cfs_rq(uint64_t now, struct ss_sched_avg *cfs, unsigned long load_weight,
				unsigned h_nr_running, bool curr);

/** update_load_avg() flags (fair.c v6.6). */
enum { SS_UPDATE_TG = 0x1, SS_SKIP_AGE_LOAD = 0x2, SS_DO_ATTACH = 0x4, SS_DO_DETACH = 0x8 };

/** Inputs of update_load_avg() about the entity and its cfs_rq. */
struct ss_pelt_se_input {
	unsigned long weight;   /* se weight */
	bool on_rq;             /* se->on_rq */
	bool running;           /* cfs_rq->curr == se */
};
struct ss_pelt_cfs_input {
	unsigned long load_weight; /* cfs_rq->load.weight, scale_load_down'ed */
	unsigned h_nr_running;
	bool curr;                 /* cfs_rq->curr != NULL */
};

/**
 * update_load_avg(cfs_rq, se, flags) (fair.c v6.6, without task groups):
 * ages se (unless SKIP_AGE_LOAD or se->last_update_time == 0), applies
 * cfs->removed and ages the cfs_rq (update_cfs_rq_load_avg), then attaches
 * (DO_ATTACH and se->last_update_time == 0) or detaches (DO_DETACH).
 * Returns the kernel's "decayed" result.
 */
int ss_update_load_avg(uint64_t now, struct ss_cfs_rq_avg *cfs, struct ss_pelt_cfs_input cin,
		       struct ss_sched_avg *se, struct ss_pelt_se_input sin, int flags);

/** update_cfs_rq_load_avg() (fair.c v6.6): apply removed, then age. Returns decayed. */
int ss_update_cfs_rq_load_avg(uint64_t now, struct ss_cfs_rq_avg *cfs, struct ss_pelt_cfs_input cin);

/**
 * attach_entity_load_avg() / detach_entity_load_avg() (fair.c v6.6).
 * weight = se_weight(se): both need it for the cfs_rq's load_sum
 * (enqueue_load_avg / dequeue_load_avg add/subtract se_weight * se->load_sum).
 */
void ss_attach_entity_load_avg(struct ss_cfs_rq_avg *cfs, struct ss_sched_avg *se, unsigned long weight);
void ss_detach_entity_load_avg(struct ss_cfs_rq_avg *cfs, struct ss_sched_avg *se, unsigned long weight);

/**
 * remove_entity_load_avg() (fair.c v6.6) on migration: first sync_entity_load_avg
 * (age se to the old cfs_rq's last_update_time as blocked), then queue its
 * averages in cfs->removed. The caller then sets se->last_update_time = 0
 * (migrate_task_rq_fair) so that the next enqueue attaches it.
 */
void ss_remove_entity_load_avg(struct ss_cfs_rq_avg *cfs, struct ss_sched_avg *se, unsigned long weight);

/**
 * post_init_entity_util_avg() (fair.c v6.6): a new task's util_avg from its
 * cfs_rq's util (cap = (capacity_orig - cfs util)/2), runnable_avg = util_avg.
 * se->load_avg is expected already = weight (init_entity_runnable_average).
 * weight = nice weight (1024 for nice 0); as v6.6 on a 64-bit kernel, the
 * extrapolation multiplies by se->load.weight = weight << 10 (see pelt.c).
 */
void ss_init_entity_runnable_average(struct ss_sched_avg *se, unsigned long weight);
void ss_post_init_entity_util_avg(const struct ss_cfs_rq_avg *cfs, struct ss_sched_avg *se,
				  unsigned long weight, unsigned long capacity_orig);

/**
 * util_est (fair.c v6.6, UTIL_EST on): cfs_util_est_enqueued is
 * cfs_rq->avg.util_est.enqueued. util_est_update() runs at dequeue with
 * task_sleep; fastup = sched_feat(UTIL_EST_FASTUP).
 */
void ss_util_est_enqueue(struct ss_cfs_rq_avg *cfs, const struct ss_sched_avg *p);
void ss_util_est_dequeue(struct ss_cfs_rq_avg *cfs, const struct ss_sched_avg *p);
void ss_util_est_update(const struct ss_cfs_rq_avg *cfs, struct ss_sched_avg *p, bool task_sleep,
			bool fastup, unsigned long capacity_orig);
/** _task_util_est / task_util_est. */
unsigned long ss_task_util_est(const struct ss_sched_avg *p);

/**
 * cpu_util_cfs() as SIS_UTIL sums it (fair.c v6.6 cpu_util(cpu, NULL, -1, 0)):
 * max(util_avg, util_est.enqueued if util_est) capped at capacity_orig.
 */
unsigned long ss_cpu_util(const struct ss_cfs_rq_avg *cfs, bool util_est, unsigned long capacity_orig);

/**
 * rq PELT clock (pelt.h v6.6 update_rq_clock_pelt / update_idle_rq_clock_pelt /
 * rq_clock_pelt). All in ns. cpu_cap and freq_cap in 0..1024.
 */
struct ss_rq_clock_pelt {
	uint64_t clock_task;
	uint64_t clock_pelt;
	uint64_t lost_idle_time;
};
/** Advance clock_task by delta ns; idle = the rq runs its idle task. */
void ss_update_rq_clock_pelt(struct ss_rq_clock_pelt *c, uint64_t delta, bool idle,
			     unsigned long cpu_cap, unsigned long freq_cap);
/** At idle entry; util_sum = cfs util_sum (+ rt + dl, zero here). */
void ss_update_idle_rq_clock_pelt(struct ss_rq_clock_pelt *c, uint32_t util_sum);
static inline uint64_t ss_rq_clock_pelt(const struct ss_rq_clock_pelt *c)
{
	return c->clock_pelt - c->lost_idle_time;
}

#endif /* SIMSCHED_PELT_H */

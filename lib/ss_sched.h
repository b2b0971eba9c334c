/*
 * lib/ss_sched.h — the simulator's internal state, the counterpart of
 * kernel/sched/sched.h: runqueues, tasks, the event queue and the policy ops.
 * Not a public header: tests may include it (they build with -Ilib).
 */
#ifndef SIMSCHED_INTERNAL_SCHED_H
#define SIMSCHED_INTERNAL_SCHED_H

#include <stdbool.h>
#include <stdint.h>

#include "simsched/cfs.h"
#include "simsched/cpumask.h"
#include "simsched/eevdf.h"
#include "simsched/features.h"
#include "simsched/params.h"
#include "simsched/pelt.h"
#include "simsched/policy.h"
#include "simsched/rng.h"
#include "simsched/sim.h"
#include "simsched/stats.h"
#include "simsched/topology.h"
#include "simsched/workload.h"

/* ---------------------------------------------------------------- events */

/*
 * Event classes: the second key of the order (time, class, cpu, sequence), so
 * that simultaneous events are handled in an order that never depends on
 * history: a wakee's arrival before the waker continues, timers before ticks.
 */
enum ss_ev_class {
	SS_EV_ARRIVE,    /* a woken task reaches its CPU (wake list IPI or direct enqueue) */
	SS_EV_TIMER,     /* a sleeping task's timer fires */
	SS_EV_RESCHED,   /* a reschedule IPI reaches a CPU */
	SS_EV_STOP,      /* the stopper (active_load_balance_cpu_stop) runs on a CPU */
	SS_EV_RUN_END,   /* the running task's burst ends: run its program on */
	SS_EV_NEWIDLE,   /* a newidle balance that pulled nothing is over (cost.newidle_time): switch on */
	SS_EV_TICK,      /* a jiffy boundary: scheduler_tick() on every busy CPU */
	SS_EV_ILB,       /* the NOHZ idle-balance kick reaches the chosen idle CPU */
	SS_EV_SAMPLE,    /* time-series sample */
	SS_EV_CONTROL,   /* end of warmup, end of run */
	SS_EV_NR_CLASSES
};

/*
 * An event is embedded in its owner (a task, a CPU or the simulation): the
 * queue holds pointers, so nothing is allocated per event. heap_idx is the
 * queue's slot id of a queued event (a leaf of its tournament tree, evq.c),
 * SS_EV_IDLE when not queued; cancelling is O(log n).
 */
#define SS_EV_IDLE UINT32_MAX
struct ss_event {
	uint64_t time;      /* ns */
	uint64_t key;       /* class << 56 | cpu << 40 | sequence (40 bits) */
	uint32_t heap_idx;
	uint16_t cls;
	uint32_t owner;     /* task id or cpu */
};

struct ss_evq_slot {
	uint64_t t, key;           /* the event's priority: time (ns), key */
	struct ss_event *ev;
	uint32_t hint;      /* 1 + index into the hint array of what the handler reads first, 0 = none */
	uint32_t next, prev;       /* a near event's neighbours in its bucket, UINT32_MAX = none */
	uint32_t where;            /* its bucket, UINT32_MAX: a far event (in the tree) */
};

/* the calendar of near events (evq.c): SS_EVQ_BUCKETS buckets of 2^SS_EVQ_SHIFT ns, 8.4 ms */
#define SS_EVQ_SHIFT 8
#define SS_EVQ_BUCKETS 32768u

struct ss_evq {
	struct ss_evq_slot *slot;  /* nr_slots (cap rounded up to a power of two): by slot id */
	uint32_t *head;            /* SS_EVQ_BUCKETS: each bucket's first slot id, UINT32_MAX = empty */
	uint64_t *bits;            /* SS_EVQ_BUCKETS bits: the buckets that are not empty */
	uint64_t *summary;         /* SS_EVQ_BUCKETS / 64 bits: the words of bits that are not 0 */
	uint64_t cur;              /* the current bucket: time >> SS_EVQ_SHIFT of the earliest events */
	uint64_t *time;            /* nr_slots: each far event's time (ns), UINT64_MAX for the other slots */
	uint32_t *win;             /* 2 × width: win[n] the far slot id winning below tree node n (root 1, leaf width + id) */
	uint32_t *free_id;         /* stack of nr_free unused slot ids */
	const char *hint_base;     /* prefetch hints index this array (ss_evq_set_hint_array), NULL = none */
	size_t hint_stride;
	uint32_t nr, cap, nr_free;
	uint32_t nr_near, nr_far;  /* events in the calendar, in the tree */
	uint32_t width, nr_slots;  /* leaves of the tree (ids below it), a power of two; slots allocated */
	uint64_t seq;
};

void ss_evq_init(struct ss_evq *q, uint32_t cap);
void ss_evq_destroy(struct ss_evq *q);
/**
 * As ss_evq_schedule, with a prefetch hint: hint - 1 indexes the array set by
 * ss_evq_set_hint_array (0 = none); that element is prefetched when the event
 * reaches the front of the queue. Hints change no order.
 */
void ss_evq_schedule_hint(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu,
			  uint32_t hint);
void ss_evq_set_hint_array(struct ss_evq *q, const void *base, size_t stride);
/** Queue (or move, if queued) ev at time t for (cls, cpu). */
static inline void ss_evq_schedule(struct ss_evq *q, struct ss_event *ev, uint64_t t, unsigned cls, unsigned cpu)
{
	ss_evq_schedule_hint(q, ev, t, cls, cpu, 0);
}
void ss_evq_cancel(struct ss_evq *q, struct ss_event *ev);
/** Pop the earliest event, NULL if empty. */
struct ss_event *ss_evq_pop(struct ss_evq *q);
static inline bool ss_ev_queued(const struct ss_event *ev)
{
	return ev->heap_idx != SS_EV_IDLE;
}

/* ---------------------------------------------------------------- tasks */

enum ss_task_state {
	SS_TASK_RUNNABLE,   /* on a rq (running or waiting) */
	SS_TASK_BLOCKED,    /* waiting for tokens */
	SS_TASK_SLEEPING,   /* timer sleep */
	SS_TASK_WAKING,     /* woken, travelling to its CPU */
	SS_TASK_DEAD,
};

/* wake_flags (kernel/sched/sched.h v6.6) */
enum { WF_EXEC = 0x02, WF_FORK = 0x04, WF_TTWU = 0x08, WF_SYNC = 0x10, WF_MIGRATED = 0x20 };

struct ss_task {
	/*
	 * First cache line: what the end of a burst and the step to the next
	 * action read and write (handle_run_end, progress, task_continue,
	 * start_burst); the array is 64-byte aligned (sim_init).
	 */
	_Alignas(64) uint64_t run_start; /* when the current stint on CPU starts making progress (ns) */
	uint64_t work_left;            /* ns of work of the current burst still to do, at capacity 1024, full
	                                  frequency, alone on its core, full memory bandwidth */
	uint64_t overhead_left;        /* wall ns of overhead before the work resumes: probing charged to
	                                  this task, cache refill after a migration */
	uint64_t wall_end;             /* run_wall: the burst ends at this time (ns), whatever its progress; 0 = none */
	uint64_t run_work;             /* work ns of the burst in progress (memory traffic metric) */
	uint64_t scan_pending;         /* ns of probing the last wakeup costs this task's CPU, not yet run */
	uint64_t stop_at;              /* phase: exit at the first statement at or after (ns), 0 = never */
	uint32_t id;
	uint8_t state;                 /* enum ss_task_state */
	bool has_held;
	uint8_t block_on;              /* enum ss_block: what a BLOCKED task waits for */
	/* second line: the interpreter's state and the wait/wake fields */
	struct ss_wl_cursor cursor;
	uint32_t mem_bw_mbps;          /* memory bandwidth demand when running alone, MB/s */
	struct ss_rng rng;
	uint32_t tokens, wait_need;
	struct ss_sched_entity se;
	struct ss_sched_avg avg;       /* se->avg, incl. util_est */
	struct ss_event ev_arrive;     /* arrival after ttwu */
	const uint64_t *cpus_ptr;      /* affinity, shared */
	uint64_t wake_time;            /* ttwu start, for wakeup latency; 0 = none pending */
	uint64_t txn_start;
	uint64_t wakee_flip_decay_ts;  /* jiffies */
	int32_t cpu;                   /* task_cpu() */
	int32_t recent_used_cpu;
	uint32_t last_wakee;           /* task id + 1, 0 = none */
	uint32_t wakee_flips;
	uint16_t waker_cpu;            /* the CPU that ran ttwu for the pending arrival */
	uint8_t via_wakelist;          /* the pending arrival uses the wake list */
	uint8_t chose_idle;            /* the pending arrival's CPU was idle when the scan chose it */
	uint8_t stack_risk;            /* ... while another wakeup that chose it idle was pending, not yet claimed */
	uint32_t idle_seq;             /* the CPU's idle_choices after this wakeup's own */
	uint8_t drain_locked;          /* its wake-list drain has taken the target's rq lock */
	uint32_t nr_cpus_allowed;
	int32_t tasks_prev, tasks_next; /* rq->cfs_tasks links (se.group_node): task ids, -1 = end */
	int32_t last_ran_cpu;          /* CPU it last ran on (cache warmth), -1 = never ran */
	int32_t mem_home;              /* home node of its memory, -1 = not yet touched */
	uint32_t working_set_kib;      /* cache working set, KiB */
	/* the behaviour language's per-task state (docs/workloads.md) */
	bool started;                  /* enqueued at least once (spawned and delayed tasks start later) */
	uint32_t rr;                   /* round-robin counter of its wake/send statements */
	/* colder: timers, held actions, channels, wait queues */
	struct ss_event ev_timer;      /* sleep end */
	struct ss_wl_action held;      /* the action after a wakeup, held until its probing time has run */
	uint32_t msgs, chan_cap;       /* messages in its channel, capacity */
	uint32_t sendq_head, sendq_tail; /* senders blocked on its full channel (task id + 1, FIFO) */
	uint32_t next_waiter;          /* link in a wait queue (task id + 1, 0 = end) */
	uint32_t recv_left;            /* messages still to take for the current recv */
	uint64_t timer_next;           /* absolute timer: next expiry (ns), 0 = not armed */
	/* figures */
	uint32_t burst_tag;            /* 1 + seq of the burst that woke it, until it blocks or exits; 0 = none */
	uint16_t aff_cls;              /* affinity class: 0 = the allowed CPUs, 1 + role for a role with cpus,
					  1 + nr_roles + k for CPU set k (SET_CPUS) */
	bool kthread;                  /* a per-CPU kworker of the background work, not a workload task */
};

enum ss_block {
	SS_BLOCK_TOKENS, SS_BLOCK_RECV, SS_BLOCK_SEND, SS_BLOCK_LOCK, SS_BLOCK_BARRIER,
	SS_BLOCK_COND,            /* on a condition's wait queue (set from the moment it joins the queue) */
	SS_BLOCK_COND_SIGNALLED,  /* taken off the queue by a signal before it got to sleep: it does not sleep */
	SS_BLOCK_SEM,             /* on a semaphore's wait queue (sem_wait at value 0) */
};

/** A mutex, barrier, condition variable or shared timer of the plan (slot numbering: struct ss_wl_plan). */
struct ss_sync_obj {
	uint32_t owner;                /* mutex: task id + 1, 0 = free */
	uint32_t head, tail;           /* waiters, task id + 1, FIFO (a condition's wait queue) */
	uint32_t arrived;              /* barrier: tasks waiting */
	uint32_t sem_value;            /* semaphore: its count (sem_init() value 0) */
	uint64_t timer_next;           /* shared timer (SS_TIMER_SHARED): next expiry (ns), 0 = not armed */
};

/* ---------------------------------------------------------------- runqueues */

/** Per-CPU, per-domain runtime state (the mutable half of struct sched_domain). */
struct ss_sd_rt {
	uint64_t last_balance;       /* jiffies */
	uint64_t balance_interval;   /* ms */
	uint64_t avg_scan_cost;      /* ns, SIS_PROP (kept on the LLC domain) */
	uint64_t max_newidle_lb_cost;    /* ns */
	uint64_t last_decay_max_lb_cost; /* jiffies */
	uint64_t lb_pass_cost;       /* ns: modelled cost of one load_balance() pass at this level (balance.c) */
	uint64_t newidle_pass_end;   /* ns from the start of the last newidle balance to the end of this level's pass */
	unsigned nr_balance_failed;
};

#define SS_RQ_LOCK_SLOTS 6

struct ss_rq {
	/*
	 * First cache line: what the end of a burst reads (handle_run_end,
	 * progress, start_burst), next to its event, so that the event queue's
	 * prefetch of the next event brings them in. The array is 64-byte
	 * aligned (sim_init).
	 */
	_Alignas(64) struct ss_event ev_run_end;
	struct ss_task *curr;          /* NULL: running the idle task */
	uint64_t cur_speed;            /* wall ns per work ns of the running task, 32.32: speed_num / (smt × bw) */
	const struct ss_sched_domain *sd; /* topo->cpu[cpu].sd, prefetched when a burst ends (a wakeup walks it) */
	uint32_t cur_smt_f, cur_bw_f;  /* the factors in cur_speed, 1/1024 units (1024 = no slowdown) */
	/* second line: also read at every burst start (the queue prefetches it with the first) */
	uint64_t speed_num;            /* wall ns per work ns = 2^20 / (capacity × freq_capacity) */
	unsigned cpu;
	bool in_newidle;               /* cost.newidle_time: in schedule(), balancing, nothing picked yet (curr NULL) */
	struct ss_cfs_rq cfs;
	struct ss_cfs_rq_avg cfs_avg;
	struct ss_rq_clock_pelt pclk;
	struct ss_sd_rt *sd_rt;        /* topology cpu[].nr_sd entries */
	uint64_t clock;                /* ns of the last update_rq_clock */
	uint64_t idle_stamp, avg_idle, max_idle_balance_cost;  /* ns */
	uint64_t wake_stamp;           /* jiffies */
	uint64_t wake_avg_idle;        /* ns */
	uint64_t next_balance;         /* jiffies */
	uint64_t busy_since;           /* ns, valid while curr != NULL */
	unsigned ttwu_pending;         /* wakees queued on the wake list */
	unsigned wake_inflight;        /* direct wakeups decided but not yet enqueued */
	unsigned capacity;             /* capacity_of() = arch capacity (no RT/IRQ pressure modelled) */
	bool nohz_tick_stopped;
	bool has_blocked_load;
	uint8_t ilb_pending;           /* NOHZ kick flags in flight to this CPU */
	struct ss_event ev_resched, ev_ilb;
	uint64_t tick_from;            /* ns: first jiffy boundary this CPU ticks at after going busy */
	/* load balancing (fair.c v6.6) */
	int32_t cfs_tasks_head, cfs_tasks_tail;  /* rq->cfs_tasks, most recently picked first; task ids */
	uint64_t misfit_task_load;
	bool active_balance;           /* a stopper work is queued (rq->active_balance) */
	bool stopper_running;          /* the stopper runs: curr is off the CPU, nr_running counts it */
	uint32_t distribute_prev;      /* per-CPU distribute_cpu_mask_prev of cpumask_any_and_distribute() */
	unsigned push_cpu;
	struct ss_event ev_stop;
	/* figures: what this CPU last contributed to the idle/waiting/depth integrals */
	uint8_t acct_on;               /* CPU in the allowed set (core.c rq_acct) */
	bool acct_idle;
	unsigned acct_waiting, acct_depth;
	uint64_t depth_since;          /* ns */
	/* costs (docs/model.md "Costs") */
	int8_t idle_state;             /* index into topo->idle_state while idle in it, -1 = awake */
	uint8_t menu_ptr;              /* next slot of menu_intervals */
	uint64_t idle_entry;           /* ns: when the current idle period began */
	uint32_t menu_intervals[8];    /* µs: the last 8 idle periods (menu governor's data->intervals) */
	uint32_t menu_correction[6];   /* menu's correction_factor[] per next-timer bucket, RESOLUTION × DECAY = 1.0 */
	uint8_t menu_bucket;           /* bucket of the current idle period */
	uint64_t menu_next_timer;      /* ns: next timer event seen at idle entry */
	uint64_t timer_slot[4];        /* ns: expiry of sleep timers armed on this CPU (0 = free slot), for the
	                                  governor's next-timer bound; more than 4 pending are not tracked */
	/* rq->__lock as the intervals [s, e) of simulated time it is held or
	 * promised to a taker, sorted (core.c ss_rq_lock()); older ones dropped */
	uint64_t lock_s[SS_RQ_LOCK_SLOTS], lock_e[SS_RQ_LOCK_SLOTS];
	uint16_t lock_cpu[SS_RQ_LOCK_SLOTS];   /* the CPU holding each */
	uint8_t nr_lock;
	/* cost.claim_after_scan: the earliest end of scan of the wakeups pending
	 * here (ttwu_pending + wake_inflight): they make the CPU busy from then on */
	uint64_t claim_min;            /* ns; 0 while none is pending (a count set by hand is claimed) */
	uint16_t claim_cpu;            /* the CPU that made the latest pending claim: its own later scans see it */
	/* wakeups.stacked: pending wakeups whose scan chose this CPU idle, and how many ever did */
	uint32_t idle_pending, idle_choices;
	/* background work (docs/model.md "Background work"): this CPU's kworker */
	uint32_t kworker;              /* its task id + 1, 0 = none */
	uint32_t nr_kthreads;          /* kworkers enqueued here (on_rq, running or waiting): not work for another CPU */
	uint64_t kworker_due;          /* ns: its next work item is due (taken at the first busy tick at or after) */
	uint64_t busy_from;            /* ns: when the CPU last left idle (its tick restarted) */
	uint64_t kthread_since;        /* ns: when the kworker running here (curr) was switched in */
	/* cost.newidle_time: a newidle balance that pulled nothing holds the CPU
	 * in schedule() over [newidle_start, newidle_end) (in_newidle) */
	struct ss_event ev_newidle;
	uint64_t newidle_start, newidle_end;   /* ns */
	struct ss_task *newidle_prev;  /* the task that blocked (still on_cpu), NULL after the stopper */
	bool newidle_prev_stopper;     /* the CPU came from the stopper */
	uint8_t newidle_nr_pass;       /* domain passes of that balance (sd_rt[].newidle_pass_end) */
};

/**
 * One coherence unit (docs/model.md "Contention"): a cache line of
 * scheduler state that its owner keeps writing and other CPUs read —
 * a rq's first lines (__lock, nr_running, ttwu_pending; with curr and
 * cfs.idle_h_nr_running modelled as the same unit) or an LLC's
 * sd_llc_shared (nr_busy_cpus, has_idle_cores, nr_idle_scan).
 */
/*
 * What ss_c2c_ns() compares of two CPUs (coherence.c ss_cline_init()): the
 * first CPU of each one's smt_mask and cluster_mask — when those masks are
 * partitions (b in a's mask iff their masks are the same), membership is
 * equality of these — and its llc and package.
 */
struct ss_c2c_id {
	uint32_t smt, cluster, llc, package;
};

struct ss_cline {
	uint64_t *sharers;             /* CPUs holding a valid copy: read since the last write (nr_words) */
	uint64_t t_last;               /* ns: the last request its home served */
	uint64_t backlog;              /* ns of transfers queued at its home at t_last */
	uint32_t writer;               /* the CPU that wrote it last */
};

/** struct sched_domain_shared (one per LLC). */
struct ss_sd_shared {
	unsigned nr_busy_cpus;
	bool has_idle_cores;
	unsigned nr_idle_scan;
	uint64_t nr_idle_scan_since;   /* ns, for the time-weighted mean */
};

/** Idle CPUs and waiting tasks of one LLC or node, for the "idle with work elsewhere" integral. */
struct ss_idle_acc {
	unsigned nr_idle, nr_waiting;
	uint64_t since;                /* ns */
};

/* A burst (docs/output.md "bursts"): a wake of `which: all` that woke at least two tasks. */
#define SS_BURST_RING 64
#define SS_BURST_SAMPLE_NS UINT64_C(1000000)   /* bursts.idle_1ms_pct: the sample 1 ms after the burst */
struct ss_burst {
	uint64_t start;                /* ns */
	uint32_t seq;                  /* burst number; tasks carry 1 + seq in burst_tag */
	uint32_t left;                 /* tasks it woke that have not blocked or exited yet */
	bool measured;                 /* it started in the measured window */
};

/* ---------------------------------------------------------------- policies */

struct ss_sim;
struct ss_fair_ops;

/* struct ss_policy_param and enum ss_cpu_idle_type: simsched/policy.h */

/**
 * A wake-placement policy: the ops of design.md. A policy is a named preset
 * of sched features plus these hooks.
 */
struct ss_policy {
	const char *name, *description, *source;
	const char *features;   /* applied over the v6.6 defaults, e.g. "SIS_PROP,NO_SIS_UTIL" */
	/** select_task_rq(): the CPU for a waking task; may use the shared SIS steps. */
	int (*select_task_rq)(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags);
	/**
	 * Called from the statistics part of load_balance() (update_sd_lb_stats)
	 * with the domain's Σ cpu_util and Σ capacity; optional.
	 */
	void (*update_lb_stats)(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
				enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity);
	const struct ss_policy_param *params;
	unsigned nr_params;
	size_t state_size;      /* bytes of zeroed per-run state (sim->policy_state), 0 = none */
	/*
	 * Policy × kernel (docs/policies.md "Policies and kernels"): a policy is
	 * a patch against a kernel. kernels: the kernels it runs on, one bit per
	 * enum ss_kernel (0 = every kernel whose features table takes its preset:
	 * a plugin); base: the kernel its code was written against or ported
	 * from, per kernel (NULL = native to the kernel run); why_not: why the
	 * others are refused.
	 */
	unsigned kernels;
	const char *base[SS_NR_KERNELS];
	const char *why_not;
};

/**
 * Whether pol runs on kernel k: true and *base (static: "v5.17", "v6.6",
 * "v5.16-rc1 patch ported to v6.6"...) or false + *err (SS_ERROR_USAGE)
 * saying why and which policies that kernel has.
 */
bool ss_policy_kernel_check(const struct ss_policy *pol, enum ss_kernel k, const char **base, GError **err);

/** A built-in policy or one registered by ss_policy_plugin_load(); NULL if none has that name. */
const struct ss_policy *ss_policy_find(const char *name);
/* lib/policies/burst.c */
extern const struct ss_policy ss_policy_burst_threshold, ss_policy_burst_avg_depth;
/** A policy registered by ss_policy_plugin_load() (lib/policy_plugin.c), NULL if none has that name. */
const struct ss_policy *ss_policy_plugin_find(const char *name);
/** NULL-terminated array of the built-in policies. */
const struct ss_policy *const *ss_policies(void);

/* ---------------------------------------------------------------- the simulation */

#define SS_SIC_BUDGET_UNSET 0xffffu

struct ss_sim {
	const struct ss_topology *topo;
	const struct ss_policy *policy;
	struct ss_params params;
	ss_features_t features;
	struct ss_eevdf_features eevdf_f;
	enum ss_kernel kernel;         /* --kernel: the version modelled */
	const struct ss_fair_ops *fair; /* its run order (ss_fair.h) */
	/* its ttwu_queue_cond(): wake list + IPI (true) or a direct enqueue under the target's rq lock */
	bool (*ttwu_queue_cond)(struct ss_sim *sim, struct ss_task *p, unsigned cpu);
	struct ss_cfs_tunables cfs_t;  /* v5.17 CFS tunables (unused under v6.6) */
	const char *policy_base;       /* ss_policy_kernel_check(): what the policy is a patch against */
	unsigned nr_cpus, nr_words;
	uint64_t now;                  /* ns */
	uint64_t tick_nsec;
	unsigned harness_cpu;    /* the first allowed CPU: where the harness forks tasks without start_cpu */
	uint64_t jiffies_base;   /* jiffies at t = 0: kernel.idle_before_ns / TICK_NSEC (core.c machine_up_and_idle()) */
	uint64_t base_slice;
	uint64_t max_load_balance_interval; /* jiffies */
	struct ss_rq *rq;
	struct ss_sd_shared *llc_shared; /* topo->nr_llc_shared */
	struct ss_task *tasks;
	unsigned nr_tasks;
	struct ss_wl_plan *plan;
	struct ss_sync_obj *sync;      /* plan->nr_sync */
	uint64_t *task_cpus;           /* per role with `cpus`: the role's mask ∩ allowed, nr_words each */
	uint64_t *cpuset_cpus;         /* per CPU set of SET_CPUS (ss_workload_cpuset()) ∩ allowed, nr_words each */
	unsigned nr_cpusets;
	unsigned nr_alive;             /* tasks started and not exited */
	unsigned nr_to_start;          /* tasks not spawned that have not started yet */
	uint64_t finish_ns;            /* when the last task exited (0 = not yet) */
	uint64_t last_dequeue_ns;      /* when a task last left a CPU (blocked, slept or exited): a deadlock's start */
	struct ss_evq evq;
	uint64_t *allowed_mask;        /* --nodes */
	uint64_t *scratch_mask;        /* select_idle_cpu's cpus */
	uint64_t *scratch_mask2;
	/* NOHZ (fair.c struct nohz) */
	uint64_t *nohz_idle_cpus_mask;
	unsigned nohz_nr_cpus;
	uint64_t nohz_next_balance, nohz_next_blocked; /* jiffies */
	bool nohz_has_blocked;
	bool nohz_needs_update;
	/* root domain (one: no cpusets) */
	bool rd_overload;              /* rd->overload */
	unsigned long rd_max_cpu_capacity;
	bool asym_cpucapacity;         /* static key sched_asym_cpucapacity */
	/* load balance scratch, preallocated (balance.c) */
	uint64_t *lb_cpus;             /* env->cpus (load_balance_mask) */
	uint64_t *lb_swb;              /* should_we_balance_tmpmask */
	uint8_t *sgc_imbalance;        /* sgc->imbalance by (level key, sgc id) */
	unsigned nr_level_keys;
	unsigned lb_cause;             /* enum ss_mig_cause of the pass running now */
	/* idle-with-work-elsewhere integrals: per LLC (llc_index) and per node */
	struct ss_idle_acc *acc_llc, *acc_node;
	/*
	 * The same machine-wide and affinity-aware (core.c iwa_*): an idle
	 * allowed CPU with an empty rq counts while a task that may run on it
	 * waits on some rq. Tasks fall in affinity classes by their cpus_ptr
	 * (0: the allowed CPUs; 1 + role: a role's cpus); the integral's rate is
	 * |idle ∩ ∪ {mask of a class with waiting tasks}|, kept up to date at
	 * the rq changes that can alter it.
	 */
	unsigned aff_nr_cls;           /* 1: every task may use every allowed CPU (no per-task walk) */
	uint32_t *aff_wait;            /* per class: waiting tasks on all rqs */
	uint32_t *aff_rq_wait;         /* nr_cpus × aff_nr_cls: per rq and class (aff_nr_cls > 1 only) */
	uint32_t *aff_scratch;         /* aff_nr_cls */
	const uint64_t **aff_mask;     /* per class: its CPUs */
	uint64_t *iwa_idle;            /* allowed CPUs idle with an empty rq (aff_nr_cls > 1 only) */
	uint64_t *iwa_union;           /* ∪ of the masks of classes with waiting tasks (aff_nr_cls > 1 only) */
	unsigned iwa_nr_idle, iwa_rate;
	/*
	 * Tasks of a pinned class (aff_cls != 0) alive, and whether rq_acct()
	 * takes the per-class path: only while one is (core.c aff_set_multi()),
	 * so a run whose pinned tasks are gone (a harness's share that forked
	 * and exited) goes back to the one-class path.
	 */
	unsigned aff_pinned_alive;
	bool aff_multi;
	uint64_t iwa_since;            /* ns */
	/* bursts: the measured window's burst windows [start, end) and the bursts in flight */
	uint64_t burst_win_start, burst_win_end;
	uint32_t burst_seq;
	struct ss_burst bursts[SS_BURST_RING];
	struct ss_event ev_burst;      /* the 1 ms sample of the last burst (an observer: changes nothing) */
	uint32_t burst_sample_n;       /* bursts the pending sample stands for (all of one instant) */
	/* the first periodic/NOHZ balance at the LLC level that writes (or would write) nr_idle_scan */
	uint8_t *llc_scan_written;     /* per LLC: 0 not of the allowed CPUs (or no LLC domain), 1 not yet, 2 written */
	unsigned llc_scan_unwritten;   /* LLCs of allowed CPUs (with an LLC domain) not written yet */
	int64_t policy_param[8];       /* the policy's parameters: --set policy.KEY values, else defaults */
	/* the waker context of the wakeup being placed */
	struct ss_task *current;       /* waker task, NULL for timer/interrupt wakeups */
	unsigned this_cpu;             /* smp_processor_id() of the wakeup */
	uint64_t scan_cost;            /* ns charged to the waker by probes so far */
	void *policy_state;            /* policy->state_size bytes, zeroed per run */
	bool scan_walked_all;          /* the last idle-CPU walk ran out of CPUs (no budget stop, nothing found) */
	/*
	 * The select_idle_cpu figures' accounting frame (placement.c sic_enter/
	 * sic_exit): the outermost domain search open now — the built-in
	 * select_idle_cpu()/select_idle_capacity(), a plugin's scan run by
	 * ss_select_idle_sibling_scan(), or ss_select_idle_cpu_nr() called on
	 * its own — counts as one call, whatever it calls inside.
	 */
	unsigned sic_depth;            /* frames open (nesting) */
	uint64_t sic_probes0, sic_cost0; /* sis_probes_total and scan_cost at the outermost frame's entry */
	bool sic_budget_stop;          /* a walk of the frame stopped on its budget with CPUs left */
	bool sic_core;                 /* the frame made an idle-core walk (has_idle_core, select_idle_core()) */
	unsigned sic_budget_k;         /* the frame's budget bucket (sic_budget_calls index), SS_SIC_BUDGET_UNSET: none yet */
	/* statistics */
	bool measuring;
	bool tracing;                  /* --trace: this event is inside the trace window (lib/ftrace.c) */
	struct ss_ftrace *ft;          /* --trace writer, NULL = none */
	uint64_t ft_next;              /* ns: the trace window may open or close at an event at or after this */
	uint64_t measure_start;
	uint64_t startup_end;          /* ns: end of the start-up figures' window, stats.startup_window_ns (res->startup) */
	bool timed_from_begin;         /* metric `from: begin`: the first transaction begin starts the measurement */
	struct ss_results *res;
	struct ss_event ev_sample, ev_warmup, ev_stop, ev_jiffy;
	/* the run-length observer (runlen.c; ss_run_open with a batch interval): an observer, changes nothing */
	struct ss_event ev_batch;
	bool obs_on;
	uint64_t obs_txn, obs_mem;     /* since t = 0: transactions ended, memory traffic bytes */
	struct ss_lat_hist *obs_lat;   /* since t = 0: the metric roles' wakeup latencies (percentile metrics), else NULL */
	const struct ss_run_config *cfg;   /* borrowed: the run's configuration */
	uint64_t *ticking;             /* CPUs whose tick runs (busy CPUs) */
	uint64_t end_time;
	unsigned sample_idx, max_samples;
	uint64_t actions_without_time;
	GError *fatal;                 /* set when the run must abort */
	/* costs */
	uint16_t *core_busy;           /* per core: threads running a task (SMT contention) */
	bool smt_contention;           /* SMT threads exist and cost.smt_contention_pct > 0 */
	uint64_t *node_bw_demand;      /* per node: Σ mem_bw_mbps of running tasks homed there */
	uint64_t *node_bw_cpus;        /* per node: nr_words mask of CPUs running a task homed there with demand */
	uint64_t node_bw_mbps;         /* bandwidth of one node, MB/s */
	void (*trace)(void *ctx, uint64_t now_ns, unsigned task, const struct ss_wl_action *a);
	void *trace_ctx;
	void (*on_migrate)(void *ctx, uint64_t now_ns, unsigned task, unsigned from_cpu, unsigned to_cpu, unsigned cause);
	struct ss_state_ext *state_ext; /* a constructed state (lib/state.c, simsched/state.h), NULL in a run */
	/* contention (docs/model.md "Contention", lib/coherence.c) */
	bool coherence;                /* cost.coherence */
	struct ss_c2c_id *c2c_id;      /* per CPU, for ss_c2c_ns(); NULL: the masks are not partitions, test them */
	struct ss_cline *cl_rq;        /* per CPU: its rq's line */
	struct ss_cline *cl_llc;       /* per LLC (llc_index): its sd_llc_shared line */
	uint64_t *cl_words;            /* the sharers masks, (nr_cpus + nr_llcs) × nr_words */
	/* background work (docs/model.md "Background work") */
	unsigned nr_wl_tasks;          /* the workload's tasks: ids 0..nr_wl_tasks-1; the kworkers follow */
	uint64_t *kworker_cpus;        /* per kworker: its one-CPU affinity mask (nr_words each) */
	struct ss_wl_insn *kworker_insn; /* the kworkers' program: loop { run cost.kthread_ns; wait } */
	bool in_softirq;               /* a wakeup from the timer softirq (the kworkers'): its trace context */
};

/**
 * ttwu_queue_cond(cpu) of the wakeup sim->current (on sim->this_cpu) is
 * making of p, per version (core.c): true = queue p on cpu's wake list and
 * IPI it; false = enqueue directly under cpu's rq lock. cpu < nr_cpus.
 */
bool ss_ttwu_queue_cond_v6_6(struct ss_sim *sim, struct ss_task *p, unsigned cpu);
bool ss_ttwu_queue_cond_v5_17(struct ss_sim *sim, struct ss_task *p, unsigned cpu);

static inline struct ss_rq *cpu_rq(struct ss_sim *sim, unsigned cpu)
{
	return &sim->rq[cpu];
}

static inline uint64_t ss_jiffies(const struct ss_sim *sim)
{
	return sim->now / sim->tick_nsec + sim->jiffies_base;
}

static inline struct ss_task *task_of(struct ss_sched_entity *se)
{
	return (struct ss_task *)(void *)((char *)se - offsetof(struct ss_task, se));
}

static inline struct ss_sd_shared *sd_llc_shared(struct ss_sim *sim, unsigned cpu)
{
	return &sim->llc_shared[sim->topo->cpu[cpu].llc_index];
}

static inline const struct ss_sched_domain *sd_llc(const struct ss_sim *sim, unsigned cpu)
{
	const struct ss_cpu_topo *c = &sim->topo->cpu[cpu];
	return c->sd_llc >= 0 ? &c->sd[c->sd_llc] : NULL;
}

/*
 * A wakeup pending on rq (ttwu_pending or wake_inflight) is visible to
 * idle_cpu() from its claim: at once, or with cost.claim_after_scan from
 * the end of its scan (rq->claim_min, the earliest of those pending) —
 * and to the CPU that made it at once (rq->claim_cpu, the latest claimer).
 */
static inline bool ss_rq_claimed(const struct ss_sim *sim, const struct ss_rq *rq)
{
	/* a CPU's own earlier wakeups are over before its next one scans
	 * (program order), even those the engine handles at the same instant */
	return (rq->ttwu_pending || rq->wake_inflight) && (rq->claim_min <= sim->now || rq->claim_cpu == sim->this_cpu);
}

/* core.c: predicates the placement code reads (core.c v6.6). */
bool ss_idle_cpu(struct ss_sim *sim, unsigned cpu);
/* idle_cpu(), core.c v6.6: rq->curr == rq->idle && !nr_running && !ttwu_pending
 * (in_newidle: curr is still the task that blocked, in newidle_balance()).
 * wake_inflight: a direct wakeup already decided for this CPU (see docs/model.md);
 * with cost.claim_after_scan, pending wakeups count from the end of their scan.
 * Inline for the library's callers (the macro); ss_idle_cpu() is the exported copy. */
static inline bool ss__idle_cpu(const struct ss_sim *sim, unsigned cpu)
{
	const struct ss_rq *rq = &sim->rq[cpu];
	return !rq->curr && !rq->in_newidle && !rq->cfs.nr_running && !ss_rq_claimed(sim, rq);
}
#define ss_idle_cpu(sim, cpu) ss__idle_cpu(sim, cpu)
static inline bool ss_available_idle_cpu(struct ss_sim *sim, unsigned cpu)
{
	return ss_idle_cpu(sim, cpu);   /* vcpu_is_preempted() is false on bare metal */
}
/** Charge one probe of cpu's rq to the waker (by distance from sim->this_cpu, or by its line's state). */
void ss_charge_probe(struct ss_sim *sim, unsigned cpu);
/** ss_c2c_ns() by the topology's masks (the definition; the fast path below when they are partitions). */
uint64_t ss_c2c_ns_masks(const struct ss_sim *sim, unsigned a, unsigned b);
/** The uncontended latency of moving a line between CPUs a and b: cost.probe_* by distance (probe_self_ns if a == b). */
static inline uint64_t ss_c2c_ns(const struct ss_sim *sim, unsigned a, unsigned b)
{
	const struct ss_params *pr = &sim->params;
	const struct ss_c2c_id *x, *y;
	if (__builtin_expect(!sim->c2c_id, 0))
		return ss_c2c_ns_masks(sim, a, b);
	if (a == b)
		return pr->probe_self_ns;
	x = &sim->c2c_id[a];
	y = &sim->c2c_id[b];
	/* the tests of ss_c2c_ns_masks() in its order: b in a's smt_mask, in its cluster_mask, ... */
	if (x->smt == y->smt)
		return pr->probe_smt_ns;
	if (x->cluster == y->cluster)
		return pr->probe_cluster_ns;
	if (x->llc == y->llc)
		return pr->probe_llc_ns;
	if (x->package == y->package)
		return pr->probe_package_ns;
	return pr->probe_remote_ns;
}

/* coherence.c: the lines of scheduler state (docs/model.md "Contention"). */
void ss_cline_init(struct ss_sim *sim);
void ss_cline_free(struct ss_sim *sim);
/*
 * cost.line_queue: the line's home serves one transfer at a time. At time t
 * (ns) the backlog drained since the last transfer is gone; this transfer of
 * lat ns queues behind what is left. Returns the wait (ns) before it starts.
 */
static inline uint64_t ss_cline_queue(struct ss_cline *l, uint64_t t, uint64_t lat)
{
	uint64_t wait;

	if (t > l->t_last) {
		uint64_t drained = t - l->t_last;
		l->backlog = l->backlog > drained ? l->backlog - drained : 0;
		l->t_last = t;
	}
	wait = l->backlog;
	l->backlog += lat;
	return wait;
}

/**
 * What reading line l costs CPU reader at simulated time t (ns) — hit_ns if
 * the reader holds a valid copy — and the read itself: the reader holds a
 * copy after.
 */
static inline __attribute__((always_inline)) uint64_t ss_cline_read(struct ss_sim *sim, struct ss_cline *l, unsigned reader, uint64_t t,
				     uint64_t hit_ns)
{
	uint64_t lat, wait = 0;

	if (sim->measuring)
		sim->res->contention.line_reads++;
	if (ss_cpumask_test(l->sharers, reader)) {
		if (sim->measuring)
			sim->res->contention.line_hits++;
		return hit_ns;
	}
	lat = ss_c2c_ns(sim, reader, l->writer);
	if (sim->params.line_queue)
		wait = ss_cline_queue(l, t, lat);
	ss_cpumask_set(l->sharers, reader);
	if (sim->measuring) {
		struct ss_contention_stats *cs = &sim->res->contention;
		cs->line_transfer_ns += lat;
		if (wait) {
			cs->line_queued++;
			cs->line_queue_ns += wait;
		}
	}
	return lat + wait;
}
/** writer wrote line l: every other copy is invalid. */
static inline void ss_cline_write(struct ss_sim *sim, struct ss_cline *l, unsigned writer)
{
	if (!sim->coherence)
		return;
	/* one store per word (a zeroing loop would become a memset() call per write) */
	for (unsigned w = 0, ww = writer / 64; w < sim->nr_words; w++)
		l->sharers[w] = w == ww ? UINT64_C(1) << (writer % 64) : 0;
	l->writer = writer;
}
/** The owner's or another CPU's write of cpu's rq line. */
static inline void ss_rq_line_write(struct ss_sim *sim, unsigned cpu, unsigned writer)
{
	if (sim->coherence)
		ss_cline_write(sim, &sim->cl_rq[cpu], writer);
}
/** A write of the sd_llc_shared line of LLC llc_index (topology cpu[].llc_index), by writer. */
void ss_llc_line_write(struct ss_sim *sim, unsigned llc_index, unsigned writer);
/**
 * Take rq's lock at simulated time t (ns, >= sim->now) for hold ns, by CPU
 * taker: the wait until a free interval of that length (ns); the lock is
 * then held [t + wait, t + wait + hold). Counts the acquisition, and the
 * wait in lost.rq_lock and the rq's contention figures — unless only holds
 * of the taker's own CPU delayed it (its own work in sequence: the delay
 * is returned, no wait counted).
 */
uint64_t ss_rq_lock(struct ss_sim *sim, struct ss_rq *rq, uint64_t t, uint64_t hold, unsigned taker,
		    enum ss_lock_taker kind);
unsigned long ss_cpu_util_of(struct ss_sim *sim, unsigned cpu);
/* ss_cpu_util_of() inline for the library's callers (the macro): ss_cpu_util() (pelt.c; cpu_util(),
 * fair.c v6.6, without a task) of cpu's rq at its arch capacity; the function is the exported copy. */
static inline unsigned long ss__cpu_util_of(const struct ss_sim *sim, unsigned cpu)
{
	const struct ss_cfs_rq_avg *cfs = &sim->rq[cpu].cfs_avg;
	unsigned long util = (unsigned long)cfs->avg.util_avg;
	unsigned long capacity_orig = sim->topo->cpu[cpu].capacity;

	if (ss_feat(sim->features, SS_FEAT_UTIL_EST)) {
		unsigned long est = cfs->avg.util_est.enqueued;

		if (est > util)
			util = est;
	}
	return util < capacity_orig ? util : capacity_orig;
}
#define ss_cpu_util_of(sim, cpu) ss__cpu_util_of(sim, cpu)
/* cpu_load(): cfs_rq_load_avg() */
static inline uint64_t ss_cpu_load(const struct ss_sim *sim, unsigned cpu)
{
	return sim->rq[cpu].cfs_avg.avg.load_avg;
}
void ss_update_rq_clock(struct ss_sim *sim, struct ss_rq *rq);

/* fork.c: the fork and exec slow path of select_task_rq_fair (kernel v6.6). */
int ss_find_idlest_cpu(struct ss_sim *sim, const struct ss_sched_domain *sd, struct ss_task *p, int cpu,
		       int prev_cpu, int sd_flag);

/* placement.c: the shared steps of fair.c (kernel v6.6). */
int ss_select_task_rq_fair(struct ss_sim *sim, struct ss_task *p, int prev_cpu, int wake_flags);
int ss_select_idle_sibling(struct ss_sim *sim, struct ss_task *p, int prev, int target);
int ss_select_idle_cpu(struct ss_sim *sim, struct ss_task *p, const struct ss_sched_domain *sd,
		       bool has_idle_core, int target);
/** util_fits_cpu() (fair.c v6.6): 1 fits, 0 not, -1 util fits but not uclamp_min; util/clamps 0..1024. */
int ss_util_fits_cpu(struct ss_sim *sim, unsigned long util, unsigned long uclamp_min, unsigned long uclamp_max,
		     unsigned cpu);
/** select_idle_capacity() (fair.c v6.6) over sd (sd_asym_cpucapacity of target); -1 if no CPU is idle. */
int ss_select_idle_capacity(struct ss_sim *sim, struct ss_task *p, const struct ss_sched_domain *sd, int target);
/** r->sic_time (every select_idle_cpu call) as the sum of its two kinds, sic_time_core and sic_time_cpu: at the end of a run. */
void ss_sic_time_merge(struct ss_results *r);
int ss_wake_affine(struct ss_sim *sim, const struct ss_sched_domain *sd, struct ss_task *p, int this_cpu,
		   int prev_cpu, bool sync);
bool ss_wake_wide(struct ss_sim *sim, struct ss_task *p);
void ss_record_wakee(struct ss_sim *sim, struct ss_task *p);
void ss_update_idle_core(struct ss_sim *sim, unsigned cpu);
/** update_idle_cpu_scan() (fair.c v6.6): SIS_UTIL's writer, and SIS_UTIL_LINEAR's (RFC v2). */
void ss_update_idle_cpu_scan(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			     enum ss_cpu_idle_type idle, uint64_t sum_util, uint64_t total_capacity);
/** The RFC v2 linear nr_idle_scan (seeds/000): llc size, Σ cpu_util, Σ capacity of the LLC. */
unsigned ss_sis_util_linear_nr(unsigned llc_size, uint64_t sum_util, uint64_t total_capacity);
/** nr_idle_scan closed form, exposed for tests: llc size, average util x, imbalance_pct. */
unsigned ss_sis_util_nr_idle_scan(unsigned llc_size, uint64_t sum_util, unsigned imbalance_pct);
/** SIS_PROP's budget (fair.c v6.6 select_idle_cpu), exposed for tests. */
unsigned ss_sis_prop_nr(unsigned span_weight, uint64_t wake_avg_idle, uint64_t avg_scan_cost);
void ss_set_nr_idle_scan(struct ss_sim *sim, unsigned llc_index, unsigned nr);

/* core.c: the task moves the balancer makes (v6.6 detach_task / attach_task). */
/** rq->nr_running as the balancer sees it: CFS tasks plus a running stopper. */
static inline unsigned rq_nr_running(const struct ss_rq *rq)
{
	return rq->cfs.nr_running + (rq->stopper_running ? 1u : 0u);
}
/** detach_task(): deactivate_task() on p's rq + set_task_cpu(dst); p must be queued, not running. */
void ss_detach_task(struct ss_sim *sim, struct ss_task *p, unsigned dst_cpu, unsigned cause);
/**
 * attach_task(): activate_task() on p's (new) rq + check_preempt_curr().
 * local: the code runs on that CPU (a remote idle or preempted CPU gets a
 * reschedule IPI); in_newidle: the CPU is inside schedule() and picks next.
 */
void ss_attach_task(struct ss_sim *sim, struct ss_task *p, bool local, bool in_newidle);
/** Delay the running task of rq by ns (softirq time of a balance pass on that CPU). */
void ss_delay_curr(struct ss_sim *sim, struct ss_rq *rq, uint64_t ns);
/** Queue the stopper on cpu (stop_one_cpu_nowait: woken by an IPI). */
void ss_queue_stopper(struct ss_sim *sim, unsigned cpu);
/** Index of migration-by-level counters for two CPUs: lowest domain of src spanning dst (-1: none). */
int ss_mig_level(const struct ss_sim *sim, unsigned src, unsigned dst);
/** Level key of a domain: SMT, CLS, MC, PKG = 0..3, NUMA level n = 4 + n. */
static inline unsigned ss_sd_level_key(const struct ss_sched_domain *sd)
{
	return sd->level < SS_SD_NUMA ? (unsigned)sd->level : (unsigned)SS_SD_NUMA + (unsigned)(sd->numa_level < 0 ? 0 : sd->numa_level);
}
/* cpu_runnable(): cfs_rq->avg.runnable_avg */
static inline unsigned long ss_cpu_runnable(const struct ss_sim *sim, unsigned cpu)
{
	return (unsigned long)sim->rq[cpu].cfs_avg.avg.runnable_avg;
}

/* rq->cfs_tasks (se.group_node list), by task id: add at the head, walk from the tail. */
static inline void ss_tasks_add_head(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	p->tasks_prev = -1;
	p->tasks_next = rq->cfs_tasks_head;
	if (rq->cfs_tasks_head >= 0)
		sim->tasks[rq->cfs_tasks_head].tasks_prev = (int32_t)p->id;
	else
		rq->cfs_tasks_tail = (int32_t)p->id;
	rq->cfs_tasks_head = (int32_t)p->id;
}

static inline void ss_tasks_del(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	if (p->tasks_prev >= 0)
		sim->tasks[p->tasks_prev].tasks_next = p->tasks_next;
	else
		rq->cfs_tasks_head = p->tasks_next;
	if (p->tasks_next >= 0)
		sim->tasks[p->tasks_next].tasks_prev = p->tasks_prev;
	else
		rq->cfs_tasks_tail = p->tasks_prev;
	p->tasks_prev = p->tasks_next = -1;
}

/** list_move(&p->se.group_node, &rq->cfs_tasks). */
static inline void ss_tasks_move_head(struct ss_sim *sim, struct ss_rq *rq, struct ss_task *p)
{
	if (rq->cfs_tasks_head == (int32_t)p->id)
		return;
	ss_tasks_del(sim, rq, p);
	ss_tasks_add_head(sim, rq, p);
}

/* balance.c */
/** newidle_balance() (fair.c v6.6) from schedule(); returns pulled (>0) and the time it took in *cost_ns. */
int ss_newidle_balance(struct ss_sim *sim, struct ss_rq *rq, uint64_t *cost_ns);
/** active_load_balance_cpu_stop() (fair.c v6.6): the stopper's work on the busiest CPU. */
void ss_active_load_balance_cpu_stop(struct ss_sim *sim, struct ss_rq *busiest_rq);
/** update_misfit_status() (fair.c v6.6). */
void ss_update_misfit_status(struct ss_sim *sim, struct ss_task *p, struct ss_rq *rq);
void ss_balance_free(struct ss_sim *sim);
/** For tests: group_classify() (fair.c v6.6) of one group's figures; returns enum group_type (0 has_spare .. 6 overloaded). */
int ss_lb_group_classify(unsigned imbalance_pct, unsigned sum_nr_running, unsigned group_weight,
			 unsigned long group_capacity, unsigned long group_util, unsigned long group_runnable);
/** For tests: what load_balance() would decide for cpu at its domain sd[level] now (nothing is moved). */
struct ss_lb_decision {
	bool should_balance;      /* should_we_balance() */
	int local_type, busiest_type;   /* group types (-1: no busiest group) */
	unsigned local_idle_cpus;
	int busiest_first_cpu;    /* first CPU of the busiest group, -1 if none */
	bool imbalanced;          /* find_busiest_group() returned a group */
	int migration_type;       /* 0 load, 1 util, 2 task, 3 misfit */
	long imbalance;
	int busiest_cpu;          /* find_busiest_queue(), -1 if none */
};
void ss_lb_inspect(struct ss_sim *sim, unsigned cpu, unsigned level, enum ss_cpu_idle_type idle,
		   struct ss_lb_decision *d);
/** For tests: start a simulation from ss_sim_create(): every task is created (enqueued) at t = 0, nothing runs further. */
void ss_sim_start(struct ss_sim *sim);

/** nohz_run_idle_balance() (fair.c v6.6): from the idle entry, after a newidle balance asked for it. */
void ss_nohz_run_idle_balance(struct ss_sim *sim, struct ss_rq *rq);
void ss_trigger_load_balance(struct ss_sim *sim, struct ss_rq *rq);
void ss_nohz_balance_enter_idle(struct ss_sim *sim, struct ss_rq *rq);
void ss_nohz_balance_exit_idle(struct ss_sim *sim, struct ss_rq *rq);
void ss_nohz_idle_balance(struct ss_sim *sim, struct ss_rq *rq, unsigned flags);
void ss_balance_init(struct ss_sim *sim);
uint64_t ss_get_sd_balance_interval(const struct ss_sim *sim, const struct ss_sched_domain *sd,
				    const struct ss_sd_rt *rt, bool cpu_busy);
bool ss_should_we_balance(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd,
			  enum ss_cpu_idle_type idle);
uint64_t ss_msecs_to_jiffies(const struct ss_sim *sim, uint64_t ms);

/**
 * A simulation set up but not started (tests: build a state, call a policy):
 * tasks are created on their start CPUs but not enqueued, every CPU is idle.
 * NULL + *err as ss_simulate(). Free with ss_sim_destroy().
 */
struct ss_sim *ss_sim_create(const struct ss_run_config *cfg, GError **err);

/*
 * A run stepped by a driver (lib/runlen.c). ss_run_open() with ctl NULL is
 * ss_simulate()'s fixed run. With ctl: an observer pauses the run every
 * batch_ns from first_ns (ss_run_step() returns true there, every event
 * before that instant handled); warmup/stop: the driver ends the warmup
 * (ss_run_begin_window) and the window (ss_run_end_window) at a pause,
 * exactly as a fixed --warmup/--duration ending at that instant would.
 */
struct ss_run;
struct ss_run_ctl {
	uint64_t batch_ns, first_ns;
	bool warmup, stop;
};
/* What the observer sees at a pause: counts from t = 0. */
struct ss_run_obs {
	uint64_t now_ns, transactions, mem_traffic_bytes, bytes_per_txn, events;
	unsigned measure, percentile_x10;
	const struct ss_lat_hist *metric_latency;   /* percentile metrics: the metric roles' wakeups from t = 0 */
	bool nr_idle_scan_pending;                   /* SIS_UTIL: some LLC's nr_idle_scan not yet written */
	bool all_exited;                             /* every task of the workload has exited */
};
struct ss_run *ss_run_open(const struct ss_run_config *cfg, const struct ss_run_ctl *ctl, GError **err);
bool ss_run_step(struct ss_run *run);
uint64_t ss_run_now(const struct ss_run *run);
void ss_run_observe(const struct ss_run *run, struct ss_run_obs *o);
void ss_run_begin_window(struct ss_run *run);
void ss_run_end_window(struct ss_run *run);
void ss_run_end_window_at(struct ss_run *run, uint64_t t);
/* Append a warning (takes msg, a g_malloc'd string) to r->warnings. */
void ss_results_warn(struct ss_results *r, char *msg);
/* Run to the stop, then the results (NULL + *err on a fatal error); frees run either way. */
struct ss_results *ss_run_close(struct ss_run *run, GError **err);
void ss_run_free(struct ss_run *run);
void ss_sim_destroy(struct ss_sim *sim);

/* core.c: costs (docs/model.md "Costs") */
/**
 * Wake the idle CPU rq from outside (an IPI or interrupt reaches it): returns
 * the ns until it runs again — the IPI unless its idle state polls (send_ipi
 * false skips it: interrupts that are not IPIs), plus the state's exit
 * latency — and accounts both. 0 for a CPU that is not in an idle state.
 */
uint64_t ss_cpu_wake_cost(struct ss_sim *sim, struct ss_rq *rq, bool send_ipi);
/** A sleep timer expiring at `expires` (ns) is armed on / fired on rq's CPU (the governor's next timer). */
void ss_timer_armed(struct ss_rq *rq, uint64_t expires);
void ss_timer_fired(struct ss_rq *rq, uint64_t expires);
/** An idle CPU that was woken but got no task goes back into an idle state (menu choice). */
void ss_idle_reenter(struct ss_sim *sim, struct ss_rq *rq);

/*
 * lib/ftrace.c: the --trace hooks. Each call site tests ss_tracing(sim) first
 * (a branch predicted not taken when no trace is written); the hooks read the
 * model and write lines of the traced CPUs, and change nothing.
 */
#define ss_tracing(sim) __builtin_expect((sim)->tracing, 0)
enum { SS_FT_PREV_STOPPER = 1, SS_FT_NEXT_STOPPER = 2 };
/** Set up the trace of this run (comms, pids); false + *err if the trace was used already. */
bool ss_ft_attach(struct ss_sim *sim, GError **err);
/**
 * Before the start and at events at or after sim->ft_next (at_control: a
 * control-class event): set sim->tracing and sim->ft_next.
 */
void ss_ft_window(struct ss_sim *sim, bool at_control);
/** sched_switch on rq: prev (NULL: idle or, with SS_FT_PREV_STOPPER, the stopper) to next (likewise). */
void ss_ft_switch(struct ss_sim *sim, struct ss_rq *rq, const struct ss_task *prev, const struct ss_task *next,
		  unsigned how);
void ss_ft_waking(struct ss_sim *sim, const struct ss_task *p);
/** sched_wakeup(_new) of p, written on cpu; resched: cpu reschedules for it; irq: from the IPI. */
void ss_ft_wakeup(struct ss_sim *sim, const struct ss_task *p, unsigned cpu, bool new_task, bool resched, bool irq);
void ss_ft_migrate(struct ss_sim *sim, const struct ss_task *p, unsigned dest_cpu, unsigned cause);
void ss_ft_nr_running(struct ss_sim *sim, const struct ss_rq *rq);
void ss_ft_nr_idle_scan(struct ss_sim *sim, unsigned llc_index, unsigned nr);
/** p arrives on rq's CPU, which its scan chose idle and another wakeup that also found it idle took first. */
void ss_ft_wakeup_stacked(struct ss_sim *sim, const struct ss_task *p, const struct ss_rq *rq);
/** A contended acquisition of rq's lock by taker (enum ss_lock_taker kind) at t after waiting wait_ns. */
void ss_ft_rq_lock_wait(struct ss_sim *sim, const struct ss_rq *rq, unsigned taker, unsigned kind, uint64_t t,
			uint64_t wait_ns);
/** A runqueue probe of the placement in progress (ss_charge_probe). */
void ss_ft_probe(struct ss_sim *sim, unsigned cpu);
/** Probes recorded so far in the placement in progress (the difference of two calls counts a search's). */
unsigned ss_ft_nr_probes(const struct ss_sim *sim);
void ss_ft_select_task_rq(struct ss_sim *sim, const struct ss_task *p, int wake_flags, int cpu);
/* fork placement (find_idlest_cpu): one level's decision, then the task's line */
void ss_ft_fork_level(struct ss_sim *sim, const struct ss_sched_domain *sd, const char *why, int group_cpu,
		      unsigned local_idle, unsigned idlest_idle, int cpu);
/* from: "parent_cpu" (a fork, from the parent's CPU) or "exec_cpu" (sched_exec(), from the task's own) */
void ss_ft_fork_place(struct ss_sim *sim, const struct ss_task *p, const char *from, unsigned from_cpu, int cpu);
void ss_ft_sis_enter(struct ss_sim *sim, const struct ss_task *p, int prev, int target);
/** outcome: enum ss_sis_outcome. */
void ss_ft_sis_done(struct ss_sim *sim, const struct ss_task *p, int outcome, int cpu);
/** select_idle_cpu() at its end: nr as left by the walk, probes of the walk. */
void ss_ft_sic(struct ss_sim *sim, const struct ss_task *p, int target, bool has_idle_core, long nr, unsigned probes,
	       int result, uint64_t cost_ns);
/** A domain search line (fn: its name): budget nr (-1 = none), its last `probes` probes, why it stopped. */
void ss_ft_select_idle_cpu(struct ss_sim *sim, const struct ss_task *p, const char *fn, int target, bool has_idle_core,
			   long nr, unsigned probes, int result, const char *stop, uint64_t cost_ns);
/** A load_balance() pass (idle: enum ss_cpu_idle_type; busiest_cpu -1 = none). */
void ss_ft_load_balance(struct ss_sim *sim, unsigned dst_cpu, const struct ss_sched_domain *sd, int idle,
			int busiest_cpu, long imbalance, int migration_type, int moved, const char *result,
			uint64_t cost_ns);

/* lib/state.c: record a probe of the placement step in progress (sim->state_ext set). */
void ss_state_log_probe(struct ss_sim *sim, unsigned cpu, uint64_t cost_ns);

/* update_avg() (sched.h): a += (s - a) / 8, signed, truncating. */
static inline void ss_update_avg(uint64_t *avg, uint64_t sample)
{
	int64_t diff = (int64_t)(sample - *avg);
	*avg += (uint64_t)(diff / 8);
}

/* ss_charge_probe() (core.c) inline for the library's callers (the macro); the function is the exported copy. */
static inline __attribute__((always_inline)) void ss__charge_probe(struct ss_sim *sim, unsigned cpu)
{
	unsigned me = sim->this_cpu;
	uint64_t c;

	/* cost.coherence: by the state of the probed rq's line at the probe's
	 * instant (the scan's start plus what it cost so far); a hit on the
	 * waker's own line is L1-hot (cost.probe_self_ns); else by distance */
	if (sim->coherence)
		c = ss_cline_read(sim, &sim->cl_rq[cpu], me, sim->now + sim->scan_cost,
				  cpu == me ? sim->params.probe_self_ns : sim->params.line_cached_ns);
	else
		c = ss_c2c_ns(sim, me, cpu);
	sim->scan_cost += c;
	if (ss_tracing(sim))
		ss_ft_probe(sim, cpu);
	if (__builtin_expect(sim->state_ext != NULL, 0))
		ss_state_log_probe(sim, cpu, c);
	if (sim->measuring) {
		sim->res->sis_probes_total++;
		sim->res->cpu[cpu].probed++;
	}
}
#define ss_charge_probe(sim, cpu) ss__charge_probe(sim, cpu)

#endif

/*
 * simsched/workload.h — workloads: a small behaviour language (YAML, libyaml)
 * and its interpreter.
 *
 * A workload file declares task roles grouped in one *instance* (e.g. a
 * netperf client/server pair), a program per role, and how --load scales the
 * number of instances (load 100 % = one instance per allowed CPU unless the
 * file says otherwise). The simulator asks the interpreter for a task's next
 * action; it implements the actions (run on a CPU, sleep, wake with token
 * semantics, wait). Format: docs/workloads.md.
 */
#ifndef SIMSCHED_WORKLOAD_H
#define SIMSCHED_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/rng.h"

/** A duration distribution; all parameters in ns. */
enum ss_dist_kind {
	SS_DIST_CONST, SS_DIST_EXP, SS_DIST_UNIFORM, SS_DIST_NORMAL, SS_DIST_LOGNORMAL, SS_DIST_EMPIRICAL
};
/** One row of an empirical table: a duration (ns) and its integer weight (>= 1). */
struct ss_dist_bin {
	uint64_t ns, weight;
};
struct ss_dist {
	enum ss_dist_kind kind;
	uint64_t a, b;   /* CONST: a; EXP: mean a; UNIFORM: [a, b]; NORMAL, LOGNORMAL: mean a, stddev b;
			    EMPIRICAL: a = Σ weights */
	const struct ss_dist_bin *bins;  /* EMPIRICAL: nr_bins rows, owned by the workload */
	uint32_t nr_bins;
};

/**
 * Draw a duration (ns) from d with the task's stream; the result is in
 * 1..SS_WL_MAX_DURATION_NS (normal and lognormal draws are rounded to whole
 * ns and clamped into that range). Formulas: docs/workloads.md.
 */
uint64_t ss_dist_draw(const struct ss_dist *d, struct ss_rng *r);

/** What the interpreter tells the simulator to do next. */
enum ss_wl_action_kind {
	SS_ACT_RUN,        /* run on a CPU for `ns` of work (ns at capacity 1024, max frequency) */
	SS_ACT_SLEEP,      /* block for `ns` (timer) */
	SS_ACT_WAKE,       /* post one token to task `target`; wake it if it waits (WF_SYNC if sync) */
	SS_ACT_WAIT,       /* consume `count` tokens; block until they are there */
	SS_ACT_TXN_BEGIN,  /* transaction mark: start */
	SS_ACT_TXN_END,    /* transaction mark: one transaction completed */
	SS_ACT_EXIT,       /* the program ended, or the statement exit */
	SS_ACT_SEND,       /* put one message in the channel of `target` (set: pick/nr); block while it is full */
	SS_ACT_RECV,       /* take `count` messages from the task's own channel, blocking while it is empty */
	SS_ACT_LOCK,       /* lock mutex `target` (sync-object slot); sleep while another task holds it */
	SS_ACT_UNLOCK,     /* unlock mutex `target`; hand it to the first waiter (FIFO) and wake it */
	SS_ACT_TIMER,      /* absolute periodic timer of period `ns`: sleep until the next period boundary */
	SS_ACT_BARRIER,    /* arrive at barrier `target` of `count` parties; the last arrival wakes all */
	SS_ACT_SPAWN,      /* fork `count` tasks among the slots target..target+nr-1 not alive */
	SS_ACT_RUN_WALL,   /* run on a CPU until `ns` of wall time have passed since the statement began,
			      whatever the progress (preemption, speed); rt-app's "runtime" */
	/*
	 * Condition variables (pthread_cond_*, futex-based in glibc): a FIFO
	 * wait queue per condition (sync-object slot `target`) and no memory.
	 */
	SS_ACT_COND_WAIT,      /* join condition `target`'s wait queue, release mutex slot `nr` - 1 if the task
				  holds it (nr 0: no mutex), sleep until a signal or broadcast takes it off the
				  queue, then lock that mutex (held or not before, as pthread_cond_wait returns) */
	SS_ACT_COND_SIGNAL,    /* wake the first waiter of condition `target`; with none, nothing (lost) */
	SS_ACT_COND_BROADCAST, /* wake every waiter of condition `target`; with none, nothing (lost) */
	SS_ACT_YIELD,      /* sched_yield(): the fair class's yield_task() (v6.6: the deadline one slice
			      later; v5.17: the skip buddy), then schedule(); alone on the rq, nothing */
	/*
	 * Counting semaphores (POSIX sem_post/sem_wait, rt-app's "sem_*"
	 * resources; sem_init() value 0): sync-object slot `target`.
	 */
	SS_ACT_SEM_POST,   /* count semaphore `target` one up and wake its first waiter (FIFO), if any */
	SS_ACT_SEM_WAIT,   /* count semaphore `target` one down; at 0, sleep until a post wakes the task,
			      then try again (glibc: a woken waiter may find the unit taken) */
	SS_ACT_SET_CPUS,   /* sched_setaffinity() of the task itself: CPU set `target` - 1 of the workload
			      (ss_workload_cpuset()), `target` 0 = every CPU the run allows; a running task
			      whose CPU leaves its mask moves at once (the migration stopper) */
	SS_ACT_EXEC,       /* execve()'s sched_exec(): select_task_rq(WF_EXEC), the fork path's
			      find_idlest_cpu() over the SD_BALANCE_EXEC domains with the task itself
			      left out; another CPU chosen: the migration stopper moves it there */
};

/** SS_ACT_TIMER flags (field `count`). */
#define SS_TIMER_RELATIVE 1u   /* an overrun re-anchors the timer at now (rt-app's "relative" mode) */
#define SS_TIMER_ANCHORED 2u   /* the first expiry is at `anchor_ns` + period from the run's start, not now + period */
#define SS_TIMER_SHARED 4u     /* sync-object slot `target`'s timer, one expiry for every task that uses it (rt-app's
				  timer resource named by several threads), not the task's own */

/** Which task(s) of a role's set a WAKE or SEND addresses. */
enum ss_wl_pick {
	SS_PICK_ONE,       /* `target` only */
	SS_PICK_ALL,       /* every task target..target+nr-1 */
	SS_PICK_RR,        /* round robin over target..target+nr-1 (the simulator keeps the counter) */
};

struct ss_wl_action {
	enum ss_wl_action_kind kind;
	bool sync;         /* WAKE, SEND: WF_SYNC */
	bool if_waiting;   /* WAKE: post only to targets blocked in a wait; skip the others (no token) */
	uint8_t pick;      /* WAKE, SEND: enum ss_wl_pick */
	uint32_t target;   /* WAKE, SEND, SPAWN: global task index (first of the set); LOCK, UNLOCK, BARRIER,
			      COND_*, SEM_*: slot; SET_CPUS: CPU set + 1, 0 = all allowed */
	uint32_t nr;       /* WAKE, SEND (ALL, RR), SPAWN: size of the set; COND_WAIT: mutex slot + 1, 0 = none */
	uint32_t count;    /* WAIT: tokens; RECV: messages; BARRIER: parties; SPAWN: tasks to fork;
			      TIMER: SS_TIMER_* flags; COND_WAIT: 0 (the simulator marks a wait it has queued 1) */
	uint64_t ns;       /* RUN, SLEEP, RUN_WALL: duration; TIMER: period */
	uint64_t anchor_ns; /* TIMER with SS_TIMER_ANCHORED: ns after the run's start that the first period counts from */
};

#define SS_WL_MAX_LOOP_DEPTH 4

/** Interpreter position of one task (part of the task, at most 24 bytes). */
struct ss_wl_cursor {
	uint16_t pc;
	uint16_t depth;
	uint32_t loop_left[SS_WL_MAX_LOOP_DEPTH]; /* UINT32_MAX = forever */
};

struct ss_workload;   /* parsed file, immutable, shareable between threads */
struct ss_wl_prog;    /* internal (workload_priv.h) */

/** struct ss_wl_task.start_cpu values below 0 */
#define SS_WL_START_FORK (-1)
#define SS_WL_START_SPREAD (-2)

/** One task of an instantiated workload. */
struct ss_wl_task {
	char *path;          /* "pair[3]/server": identity in the workload tree (stream id source) */
	uint32_t role;       /* index of the role in the file */
	uint32_t instance;   /* instance number */
	uint32_t replica;    /* 0..count-1 within the role (role key `count`) */
	bool spawned;        /* created by a `spawn` statement, not at the start of the run */
	uint64_t start_after_ns;  /* phase: the task starts this long after the run starts (0 = at once) */
	uint64_t stop_after_ns;   /* phase: it exits at its first statement at or after this time (0 = never) */
	const char *cpus;    /* affinity as a cpulist ("0-3,8"), NULL = every allowed CPU; owned by the workload */
	uint32_t channel_capacity; /* messages its channel holds, 0 = no channel */
	/*
	 * >= 0: the start CPU (see start_cpu_is_index); SS_WL_START_FORK (-1,
	 * no start_cpu in the file): created by the harness on the first
	 * allowed CPU through the fork path; SS_WL_START_SPREAD (-2,
	 * `start_cpu: spread`): dealt over the LLCs by the simulator
	 * (docs/workloads.md "Task roles").
	 */
	int start_cpu;
	/*
	 * true when start_cpu came from an "instance" expression: it is then an
	 * index 0..nr_cpus-1 into the allowed CPUs in ascending order (online
	 * CPUs within --nodes), not a CPU number; the simulator maps it.
	 */
	bool start_cpu_is_index;
	int nice;            /* -20..19 */
	/*
	 * A per-CPU kernel thread of the machine's background work, not of the
	 * workload (ss_wl_plan_add_kthreads(); role SS_WL_ROLE_KTHREAD, after
	 * every workload task): start_cpu is its one CPU.
	 */
	bool kthread;
	/*
	 * Memory behaviour of the role, for the cost model (docs/workloads.md
	 * "Memory"): working set in KiB (0 = no cache-refill cost, at most
	 * SS_WL_MAX_WORKING_SET_KIB), memory bandwidth the task demands when
	 * running alone in MB/s (10^6 bytes/s; 0 = none, at most
	 * SS_WL_MAX_MEM_BW_MBPS), home NUMA node of its memory (-1 = local: the
	 * node of the CPU it first runs on; else 0..SS_WL_MAX_MEM_NODE, checked
	 * against the machine by the simulator).
	 */
	uint32_t working_set_kib;
	uint32_t mem_bw_mbps;
	int16_t mem_node;
};

/** Largest working_set: 4 TiB - 1 KiB, in KiB. */
#define SS_WL_MAX_WORKING_SET_KIB UINT32_MAX
/** Largest memory_bandwidth: 10^9 MB/s (1 PB/s). */
#define SS_WL_MAX_MEM_BW_MBPS 1000000000u
/** Largest memory_node number. */
#define SS_WL_MAX_MEM_NODE 1023

/** The tasks of a workload at one load level, owned by the caller (ss_wl_plan_free). */
/** ss_wl_task.role of a kernel thread: no role of the workload file. */
#define SS_WL_ROLE_KTHREAD UINT32_MAX

struct ss_wl_plan {
	const struct ss_workload *wl;
	unsigned nr_tasks;
	unsigned nr_instances;
	unsigned tasks_per_instance;
	struct ss_wl_task *task;
	/*
	 * Sync objects (mutexes and barriers): one slot per object and instance,
	 * then one per object declared `shared` (workload-wide). sync_parties[s]
	 * is a barrier's number of parties, 0 for a mutex.
	 */
	unsigned nr_sync;
	uint32_t *sync_parties;
	/* per task: the interpreter's view of its program (internal, filled by ss_workload_instantiate) */
	struct ss_wl_prog *prog;
};

/**
 * Load a workload YAML file. NULL + *err ("file:line:col: message") on error.
 * Caller owns the result (ss_workload_free).
 */
struct ss_workload *ss_workload_load(const char *path, GError **err);
struct ss_workload *ss_workload_load_string(const char *yaml, size_t len, const char *name, GError **err);
void ss_workload_free(struct ss_workload *w);

/** Name and description (from the file), unit of one instance ("pair"), metric info. */
const char *ss_workload_name(const struct ss_workload *w);
const char *ss_workload_instance_unit(const struct ss_workload *w);

/** `description` and `source` of the file ("" when absent); owned by w. */
const char *ss_workload_description(const struct ss_workload *w);
const char *ss_workload_source(const struct ss_workload *w);

/** The figure the benchmark reports (file key `metric`); strings owned by w. */
enum ss_wl_measure {
	SS_MEASURE_TXN_RATE,     /* unit transactions/s: transaction end marks per second */
	SS_MEASURE_TXN_BYTES,    /* unit MB/s with bytes_per_transaction: end marks × bytes / s / 10^6 */
	SS_MEASURE_MEM_BW,       /* unit MB/s without it: completed run work × memory_bandwidth, per second */
	SS_MEASURE_FINISH,       /* unit s: time from the start until every task has exited */
	SS_MEASURE_WAKEUP_PCT,   /* unit us: a percentile of the wakeup latency of the metric's roles */
};
struct ss_wl_metric {
	const char *name;        /* e.g. "throughput" */
	const char *unit;        /* e.g. "transactions/s" */
	bool higher_is_better;
	enum ss_wl_measure measure;
	uint64_t bytes_per_txn;  /* SS_MEASURE_TXN_BYTES */
	unsigned percentile_x10; /* SS_MEASURE_WAKEUP_PCT: 990 = p99 */
	const bool *roles;       /* SS_MEASURE_WAKEUP_PCT: per role, counted or not (NULL = all) */
	bool from_begin;         /* SS_MEASURE_FINISH (`from: begin`): timed from the first transaction
				    begin of any task, not from t = 0; the statistics restart there */
};
const struct ss_wl_metric *ss_workload_metric(const struct ss_workload *w);

/** Roles (tasks of one instance) in file order; role < ss_workload_nr_roles(w), else NULL. */
unsigned ss_workload_nr_roles(const struct ss_workload *w);
const char *ss_workload_role_name(const struct ss_workload *w, unsigned role);
/**
 * wakeable[role] (ss_workload_nr_roles() entries, caller's): whether some
 * program's `wake` can reach the role. A task of a role no `wake` reaches
 * that blocks in `wait` stays there for the rest of the run by construction
 * (rt-app's main thread in pthread_join()): the engine's deadlock check
 * treats it as parked. One pass over the programs.
 */
void ss_workload_wakeable_roles(const struct ss_workload *w, bool *wakeable);

/**
 * Where a role's field was given, "file:line:col" (owned by w), for errors
 * found when a run starts (a cpus list with no CPU of the machine, a
 * memory_node the machine lacks). NULL if the field is absent, the role out
 * of range, or the workload did not come from a YAML file (rt-app import).
 */
enum ss_wl_field { SS_WL_FIELD_CPUS, SS_WL_FIELD_MEMORY_NODE, SS_WL_FIELD_START_CPU };
const char *ss_workload_role_where(const struct ss_workload *w, unsigned role, enum ss_wl_field field);

/**
 * The CPU sets that SET_CPUS actions name (rt-app phases' "cpus" where a
 * thread's affinity changes between phases): ss_workload_nr_cpusets()
 * of them; set k's CPU list ("0,2-5", owned by w), and in *at (if not
 * NULL) where the file gives it (owned by w; NULL if unknown). NULL for
 * k out of range. The simulator intersects each with the CPUs a run
 * allows and refuses a set left empty (as sched_setaffinity() does).
 */
unsigned ss_workload_nr_cpusets(const struct ss_workload *w);
const char *ss_workload_cpuset(const struct ss_workload *w, unsigned set, const char **at);

/**
 * instances_per_cpu × 1000, rounded half up (1000 = one per CPU). The file
 * gives a decimal with at most three decimals, exact here, or a fraction
 * A/B (e.g. 1/28), which ss_workload_instantiate() uses exactly.
 */
unsigned ss_workload_instances_per_cpu_x1000(const struct ss_workload *w);

/**
 * Workload parameters (top-level `params`, docs/workloads.md
 * "Parameters"): integers that the file uses as $NAME or ${EXPR} in its
 * values, each with a default that `--set workload.NAME=VALUE` overrides.
 */
struct ss_wl_param {
	char *name;              /* a C identifier, at most 64 characters */
	char *description;       /* "" when absent */
	int64_t value;           /* in effect: the default or the override */
	int64_t def, min, max;   /* default and the accepted range (INT64_MIN..INT64_MAX when not given) */
	bool overridden;         /* value came from an assignment, not the default */
};
/** Number of parameters of w (0 for a file without `params` and for rt-app files). */
unsigned ss_workload_nr_params(const struct ss_workload *w);
/** Parameter i in file order (owned by w), or NULL if i is out of range. */
const struct ss_wl_param *ss_workload_param(const struct ss_workload *w, unsigned i);

/**
 * Load a workload file with parameters overridden. `set` is a NULL-terminated
 * list of "NAME=VALUE" (VALUE a decimal integer; a later assignment of a name
 * replaces an earlier one), or NULL for none. The overrides replace the
 * defaults before any value of the file is read, so everything derived from a
 * parameter (counts, loops, durations, instances_per_cpu) follows it.
 * Errors: SS_ERROR_USAGE "workload parameter ...: what is wrong (what was
 * expected)" for a malformed assignment, a name the file does not declare,
 * a value that is not an integer or outside the parameter's min..max; a
 * rt-app JSON file takes no parameters (SS_ERROR_USAGE); otherwise as
 * ss_workload_load(), at the file:line:col where a substituted value is used.
 */
struct ss_workload *ss_workload_load_params(const char *path, const char *const *set, GError **err);
struct ss_workload *ss_workload_load_string_params(const char *yaml, size_t len, const char *name,
						    const char *const *set, GError **err);

/** Longest duration a file may give (run/sleep constant, mean, bound): 10^6 s in ns. */
#define SS_WL_MAX_DURATION_NS UINT64_C(1000000000000000)
/** Most tasks one plan may hold (ss_workload_instantiate fails beyond). */
#define SS_WL_MAX_TASKS (1u << 24)
/**
 * Most memory a run's tasks may need (the plan's and the simulator's per-task
 * state, SS_WL_TASK_BYTES each): 4 GiB. ss_workload_instantiate fails beyond,
 * before allocating, with the estimate in the message.
 */
#define SS_WL_MAX_TASK_MEMORY (UINT64_C(4) << 30)
/** What one task needs, about: its plan entry and program state, its path, its simulator state and events. */
#define SS_WL_TASK_BYTES 1200u

/**
 * Instantiate at load_pct_x100 (percent × 100, > 0; 100 % = 10000) of nr_cpus
 * allowed CPUs: instances = max(1, round(load_pct_x100 * nr_cpus *
 * instances_per_cpu / 10000)), rounded half up in integer arithmetic.
 * Tasks are instance-major: task = instance * nr_roles + role.
 * start_cpu values in the file are CPU numbers of the machine; the caller
 * checks them against the machine. "instance" expressions are reduced
 * modulo nr_cpus here and marked start_cpu_is_index: the caller takes the
 * allowed CPU of that rank. NULL + *err (SS_ERROR_USAGE) on load 0, nr_cpus 0 or
 * more than SS_WL_MAX_TASKS tasks.
 */
struct ss_wl_plan *ss_workload_instantiate(const struct ss_workload *w, unsigned load_pct_x100,
					   unsigned nr_cpus, GError **err);
void ss_wl_plan_free(struct ss_wl_plan *p);

/** Size of one instance in tasks: Σ over roles of their `count`. */
unsigned ss_workload_tasks_per_instance(const struct ss_workload *w);

/** Reset a cursor to the start of task's program. */
void ss_wl_cursor_init(struct ss_wl_cursor *c);

/**
 * The next action of task `task` of plan p; advances *c. Durations are drawn
 * from *rng (the task's own stream). Never allocates. A program that ends
 * yields SS_ACT_EXIT forever.
 */
void ss_wl_next(const struct ss_wl_plan *p, uint32_t task, struct ss_wl_cursor *c, struct ss_rng *rng,
		struct ss_wl_action *out);

#endif

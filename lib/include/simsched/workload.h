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
enum ss_dist_kind { SS_DIST_CONST, SS_DIST_EXP, SS_DIST_UNIFORM };
struct ss_dist {
	enum ss_dist_kind kind;
	uint64_t a, b;   /* CONST: a; EXP: mean a; UNIFORM: [a, b] */
};

/** Draw a duration (ns) from d with the task's stream. */
uint64_t ss_dist_draw(const struct ss_dist *d, struct ss_rng *r);

/** What the interpreter tells the simulator to do next. */
enum ss_wl_action_kind {
	SS_ACT_RUN,        /* run on a CPU for `ns` of work (ns at capacity 1024, max frequency) */
	SS_ACT_SLEEP,      /* block for `ns` (timer) */
	SS_ACT_WAKE,       /* post one token to task `target`; wake it if it waits (WF_SYNC if sync) */
	SS_ACT_WAIT,       /* consume `count` tokens; block until they are there */
	SS_ACT_TXN_BEGIN,  /* transaction mark: start */
	SS_ACT_TXN_END,    /* transaction mark: one transaction completed */
	SS_ACT_EXIT,       /* the program ended */
};

struct ss_wl_action {
	enum ss_wl_action_kind kind;
	bool sync;         /* WAKE: WF_SYNC */
	uint32_t target;   /* WAKE: global task index */
	uint32_t count;    /* WAIT: tokens */
	uint64_t ns;       /* RUN, SLEEP */
};

#define SS_WL_MAX_LOOP_DEPTH 4

/** Interpreter position of one task (part of the task, at most 24 bytes). */
struct ss_wl_cursor {
	uint16_t pc;
	uint16_t depth;
	uint32_t loop_left[SS_WL_MAX_LOOP_DEPTH]; /* UINT32_MAX = forever */
};

struct ss_workload;   /* parsed file, immutable, shareable between threads */

/** One task of an instantiated workload. */
struct ss_wl_task {
	char *path;          /* "pair[3]/server": identity in the workload tree (stream id source) */
	uint32_t role;       /* index of the role in the file */
	uint32_t instance;   /* instance number */
	int start_cpu;       /* -1 = first allowed CPU policy of the simulator (see docs) */
	int nice;            /* -20..19 */
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
struct ss_wl_plan {
	const struct ss_workload *wl;
	unsigned nr_tasks;
	unsigned nr_instances;
	struct ss_wl_task *task;
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
struct ss_wl_metric {
	const char *name;        /* e.g. "throughput" */
	const char *unit;        /* e.g. "transactions/s" */
	bool higher_is_better;
};
const struct ss_wl_metric *ss_workload_metric(const struct ss_workload *w);

/** Roles (tasks of one instance) in file order; role < ss_workload_nr_roles(w), else NULL. */
unsigned ss_workload_nr_roles(const struct ss_workload *w);
const char *ss_workload_role_name(const struct ss_workload *w, unsigned role);

/** instances_per_cpu × 1000 (the file allows three decimals; 1000 = one per CPU). */
unsigned ss_workload_instances_per_cpu_x1000(const struct ss_workload *w);

/** Longest duration a file may give (run/sleep constant, mean, bound): 10^6 s in ns. */
#define SS_WL_MAX_DURATION_NS UINT64_C(1000000000000000)
/** Most tasks one plan may hold (ss_workload_instantiate fails beyond). */
#define SS_WL_MAX_TASKS (1u << 24)

/**
 * Instantiate at load_pct_x100 (percent × 100, > 0; 100 % = 10000) of nr_cpus
 * allowed CPUs: instances = max(1, round(load_pct_x100 * nr_cpus *
 * instances_per_cpu / 10000)), rounded half up in integer arithmetic.
 * Tasks are instance-major: task = instance * nr_roles + role.
 * start_cpu values in the file are CPU numbers of the machine; the caller
 * checks them against the machine ("instance" expressions are reduced
 * modulo nr_cpus here). NULL + *err (SS_ERROR_USAGE) on load 0, nr_cpus 0 or
 * more than SS_WL_MAX_TASKS tasks.
 */
struct ss_wl_plan *ss_workload_instantiate(const struct ss_workload *w, unsigned load_pct_x100,
					   unsigned nr_cpus, GError **err);
void ss_wl_plan_free(struct ss_wl_plan *p);

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

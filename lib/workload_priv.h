/*
 * workload_priv.h — the compiled form of a workload file, shared by the
 * loader (workload_yaml.c) and the interpreter (workload.c). Not installed.
 *
 * A role's program is a flat instruction array. Loops compile to a LOOP
 * instruction (arg = iterations, UINT32_MAX = forever) before the body and an
 * ENDLOOP instruction (arg = pc of the body's first instruction) after it;
 * the cursor keeps one counter per open loop, so interpreting never
 * allocates.
 */
#ifndef SIMSCHED_WORKLOAD_PRIV_H
#define SIMSCHED_WORKLOAD_PRIV_H

#include <stdbool.h>
#include <stdint.h>

#include "simsched/workload.h"

enum ss_wl_op {
	SS_OP_RUN,
	SS_OP_SLEEP,
	SS_OP_WAKE,       /* arg = role of the same instance, sync */
	SS_OP_WAIT,       /* arg = tokens */
	SS_OP_TXN_BEGIN,
	SS_OP_TXN_END,
	SS_OP_LOOP,       /* arg = iterations (>= 1), UINT32_MAX = forever */
	SS_OP_ENDLOOP,    /* arg = pc of the first instruction of the body */
	SS_OP_SEND,       /* arg = role, pick/index, sync */
	SS_OP_RECV,       /* arg = messages */
	SS_OP_LOCK,       /* arg = sync object */
	SS_OP_UNLOCK,     /* arg = sync object */
	SS_OP_TIMER,      /* dist.a = period, index = SS_TIMER_* flags, dist.b = anchor (ns) */
	SS_OP_BARRIER,    /* arg = sync object */
	SS_OP_SPAWN,      /* arg = role, index = count */
	SS_OP_EXIT,
	SS_OP_RUN_WALL,   /* dist = wall duration */
	SS_OP_COND_WAIT,      /* arg = condition (sync object), index = mutex sync object + 1, 0 = none */
	SS_OP_COND_SIGNAL,    /* arg = condition */
	SS_OP_COND_BROADCAST, /* arg = condition */
	SS_OP_YIELD,
	SS_OP_SEM_POST,       /* arg = semaphore (sync object) */
	SS_OP_SEM_WAIT,       /* arg = semaphore */
	SS_OP_SET_CPUS,       /* arg = CPU set + 1 (struct ss_workload cpusets), 0 = all allowed */
	SS_OP_EXEC,
};

/* WAKE/SEND target selection within the target role's set */
enum ss_wl_which {
	SS_WHICH_SAME, SS_WHICH_INDEX, SS_WHICH_RANDOM, SS_WHICH_ALL, SS_WHICH_RR,
};

#define SS_WL_FOREVER UINT32_MAX
/* pc is a uint16_t and pc == nr_insn means "ended" */
#define SS_WL_MAX_INSN UINT16_MAX

struct ss_wl_insn {
	uint8_t op;           /* enum ss_wl_op */
	bool sync;            /* WAKE, SEND */
	bool if_waiting;      /* WAKE: only targets blocked in a wait */
	uint8_t which;        /* WAKE, SEND: enum ss_wl_which */
	uint32_t index;       /* WAKE, SEND: SS_WHICH_INDEX replica; SPAWN: count; TIMER: SS_TIMER_* flags;
				 COND_WAIT: mutex sync object + 1, 0 = none */
	uint32_t arg;
	struct ss_dist dist;  /* RUN, SLEEP */
};

enum ss_wl_start {
	SS_START_ANY,         /* no start_cpu: forked by the harness at the start (-1) */
	SS_START_CPU,         /* start_cpu: N */
	SS_START_INSTANCE,    /* start_cpu: "[MUL *] instance [+ ADD]" mod nr_cpus */
	SS_START_SPREAD,      /* start_cpu: spread: dealt over the LLCs by the simulator (-2) */
};

struct ss_wl_role {
	char *name;
	int nice;
	enum ss_wl_start start;
	uint32_t start_mul, start_add;   /* SS_START_CPU: start_add is the CPU */
	uint32_t working_set_kib;        /* working_set, KiB (0 = none) */
	uint32_t mem_bw_mbps;            /* memory_bandwidth, MB/s (0 = none) */
	int16_t mem_node;                /* memory_node, -1 = local */
	uint32_t count;                  /* tasks of this role per instance (>= 1) */
	uint32_t first;                  /* index of its first task within an instance */
	bool spawned;
	uint64_t start_after_ns, stop_after_ns;
	char *cpus;                      /* cpulist or NULL */
	char *cpus_at, *mem_node_at;     /* "file:line:col" of the cpus / memory_node values, or NULL */
	char *start_cpu_at;              /* "file:line:col" of the start_cpu value, or NULL */
	uint32_t channel_capacity;
	struct ss_wl_insn *insn;
	uint32_t nr_insn;                /* 1..SS_WL_MAX_INSN */
};

/*
 * A mutex, barrier or condition variable named in the programs (what it is
 * follows from the instructions that name it: LOCK/UNLOCK, BARRIER, COND_*).
 */
struct ss_wl_sync {
	char *name;
	bool barrier;                    /* else mutex or condition variable (no parties) */
	bool shared;                     /* workload-wide, else one per instance */
	uint32_t parties;                /* barrier: tasks per instance whose program names it */
};

struct ss_workload {
	char *name, *description, *source, *instance;
	char *metric_name, *metric_unit;
	struct ss_wl_metric metric;      /* points into the two strings above */
	uint32_t ipc_x1000;              /* instances_per_cpu × 1000 × ipc_div */
	uint32_t ipc_div;                /* instances_per_cpu = ipc_x1000 / (1000 × ipc_div); 0 counts as 1
					    (a fraction A/B: ipc_x1000 = 1000 A, ipc_div = B) */
	bool per_machine;                /* ipc_x1000 counts instances per machine at 100 %, not per CPU
					    (rt-app task sets: 100 % = the file's task set once) */
	char **warnings;                 /* NULL-terminated, what the loader accepted or ignored (rtapp.c) */
	unsigned nr_roles;
	struct ss_wl_role *role;
	unsigned nr_cpusets;             /* CPU sets of SET_CPUS (cpu lists), and where each was given */
	char **cpusets, **cpuset_at;
	unsigned tasks_per_instance;
	unsigned nr_sync, nr_local_sync;   /* objects; the local ones first (sync ids 0..nr_local_sync-1) */
	struct ss_wl_sync *sync;
	GPtrArray *tables;                 /* empirical tables (struct ss_dist_bin arrays), owned */
	struct ss_wl_param *params;        /* top-level `params`, file order */
	unsigned nr_params;
	bool *metric_roles;                /* nr_roles, or NULL */
};

/*
 * What ss_wl_next needs of one task, in one place: the interpreter runs once
 * per program action, and reaching the instructions through the plan's task,
 * its role index, the workload and its role array was a chain of five
 * dependent loads in front of the dispatch.
 */
struct ss_wl_prog {
	const struct ss_wl_insn *insn;   /* the role's program */
	uint32_t nr_insn;
	uint32_t instance;               /* ss_wl_task.instance */
	uint32_t replica;                /* ss_wl_task.replica */
	uint32_t inst_base;              /* instance × tasks_per_instance: its instance's first task */
};

/*
 * Append nr per-CPU kernel threads to plan p, after its workload tasks:
 * task p->nr_tasks + k is "kworker/CPU:1" (CPU = cpus[k]), pinned there
 * (start_cpu = cpus[k], cpus NULL: the simulator gives it a one-CPU mask),
 * nice 0, role SS_WL_ROLE_KTHREAD, kthread true, running insn (nr_insn
 * instructions; owned by the caller and outliving the plan's use). The
 * workload's tasks keep their ids.
 */
void ss_wl_plan_add_kthreads(struct ss_wl_plan *p, const unsigned *cpus, unsigned nr, const struct ss_wl_insn *insn,
			     uint32_t nr_insn);

#endif

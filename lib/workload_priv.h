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
};

#define SS_WL_FOREVER UINT32_MAX
/* pc is a uint16_t and pc == nr_insn means "ended" */
#define SS_WL_MAX_INSN UINT16_MAX

struct ss_wl_insn {
	uint8_t op;           /* enum ss_wl_op */
	bool sync;            /* WAKE */
	uint32_t arg;
	struct ss_dist dist;  /* RUN, SLEEP */
};

enum ss_wl_start {
	SS_START_ANY,         /* no start_cpu: the simulator's choice (-1) */
	SS_START_CPU,         /* start_cpu: N */
	SS_START_INSTANCE,    /* start_cpu: "[MUL *] instance [+ ADD]" mod nr_cpus */
};

struct ss_wl_role {
	char *name;
	int nice;
	enum ss_wl_start start;
	uint32_t start_mul, start_add;   /* SS_START_CPU: start_add is the CPU */
	uint32_t working_set_kib;        /* working_set, KiB (0 = none) */
	uint32_t mem_bw_mbps;            /* memory_bandwidth, MB/s (0 = none) */
	int16_t mem_node;                /* memory_node, -1 = local */
	struct ss_wl_insn *insn;
	uint32_t nr_insn;                /* 1..SS_WL_MAX_INSN */
};

struct ss_workload {
	char *name, *description, *source, *instance;
	char *metric_name, *metric_unit;
	struct ss_wl_metric metric;      /* points into the two strings above */
	uint32_t ipc_x1000;              /* instances_per_cpu × 1000 */
	unsigned nr_roles;
	struct ss_wl_role *role;
};

#endif

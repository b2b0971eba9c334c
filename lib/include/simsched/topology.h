/*
 * simsched/topology.h — a machine (CPUs, SMT siblings, clusters, LLCs, NUMA
 * nodes, packages, distances, capacity, frequency) and the sched-domain
 * hierarchy the kernel builds for it.
 *
 * Mirrors kernel v6.6 kernel/sched/topology.c (sd_init, build_sched_domains,
 * sched_init_numa, build_overlap_sched_groups, sd_degenerate/sd_parent_degenerate,
 * update_top_cache_domain) and include/linux/sched/sd_flags.h.
 *
 * A struct ss_topology is immutable after ss_topology_load()/ss_topology_build():
 * several simulations (threads) may share one. Per-domain runtime state
 * (last_balance, balance_interval, avg_scan_cost, ...) lives in the simulation.
 */
#ifndef SIMSCHED_TOPOLOGY_H
#define SIMSCHED_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "simsched/cpumask.h"

/* include/linux/sched/sd_flags.h order (v6.6); values are 1 << index. */
enum {
	SD_BALANCE_NEWIDLE = 1 << 0,
	SD_BALANCE_EXEC = 1 << 1,
	SD_BALANCE_FORK = 1 << 2,
	SD_BALANCE_WAKE = 1 << 3,
	SD_WAKE_AFFINE = 1 << 4,
	SD_ASYM_CPUCAPACITY = 1 << 5,
	SD_ASYM_CPUCAPACITY_FULL = 1 << 6,
	SD_SHARE_CPUCAPACITY = 1 << 7,
	SD_SHARE_PKG_RESOURCES = 1 << 8, /* "LLC sharing"; SD_SHARE_LLC in later kernels */
	SD_SERIALIZE = 1 << 9,
	SD_ASYM_PACKING = 1 << 10,
	SD_PREFER_SIBLING = 1 << 11,
	SD_OVERLAP = 1 << 12,
	SD_NUMA = 1 << 13,
};

/**
 * Domain level kinds, bottom-up. Enum names follow current kernels: SS_SD_PKG
 * is the level v6.6 still names "DIE" (cpu_cpu_mask, i.e. the CPU's node);
 * SS_SD_NUMA covers the "NODE" level (numa_level 0) and the "NUMA" levels.
 */
enum ss_sd_level {
	SS_SD_SMT,
	SS_SD_CLS,
	SS_SD_MC,
	SS_SD_PKG,
	SS_SD_NUMA,
};

/**
 * A sched group: CPUs balanced as one unit at a domain level. Groups of one
 * domain form a circular list starting with the group that holds the domain's
 * CPU (the "local" group). NUMA levels have overlapping groups (SD_OVERLAP).
 * Spans are owned by the topology.
 */
struct ss_sched_group {
	const uint64_t *span;          /* CPUs of the group (ss_topology.nr_words words) */
	const uint64_t *balance_mask;  /* CPUs that may balance for it (group_balance_mask) */
	unsigned weight;               /* CPUs in span */
	unsigned capacity;             /* Σ arch capacity of span, SCHED_CAPACITY_SCALE units */
	struct ss_sched_group *next;   /* circular */
	/* Added (topology helper): */
	unsigned id;                   /* sgc->id: the CPU whose sched_group_capacity the group uses
	                                  (first CPU of the child span, or of balance_mask if SD_OVERLAP);
	                                  the number the kernel's debug output prints before ":{" */
	unsigned balance_cpu;          /* group_balance_cpu(): first CPU of balance_mask */
	unsigned flags;                /* sg->flags: SD_* of the child domain the group was built from,
	                                  as cpu_attach_domain() leaves them (0 at the lowest level) */
	unsigned cores;                /* sg->cores: cores (SMT sibling sets) the span touches, as
	                                  init_sched_groups_capacity() (v6.6) counts them at build */
};

/**
 * One sched_domain of one CPU (struct sched_domain, static part).
 * Intervals in ms as in sd_init(): min_interval = span_weight,
 * max_interval = 2 * span_weight, busy_factor 16.
 */
struct ss_sched_domain {
	enum ss_sd_level level;
	char name[8];                  /* tl->name as v6.6 prints it: "SMT", "CLS", "MC", "DIE"
	                                  (level SS_SD_PKG: v6.6 still calls it DIE; renamed PKG
	                                  in v6.7, commit f577cd57bfaa), "NODE" (numa_level 0),
	                                  "NUMA" (numa_level >= 1) */
	int numa_level;                /* index into the distinct distances, -1 if not NUMA */
	unsigned level_index;          /* position in the CPU's hierarchy, 0 = lowest kept */
	const uint64_t *span;          /* sched_domain_span() */
	unsigned span_weight;
	unsigned flags;                /* SD_* */
	unsigned imbalance_pct;        /* 110 SMT, 117 otherwise (sd_init) */
	unsigned cache_nice_tries;     /* 0 SMT, 1, 2 for NUMA levels >= 1 */
	unsigned busy_factor;          /* 16 */
	unsigned min_interval, max_interval; /* ms */
	struct ss_sched_group *groups; /* local group first */
	unsigned nr_groups;
	const struct ss_sched_domain *parent, *child; /* NULL at the ends */
	/* Added (topology helper): */
	unsigned imb_numa_nr;          /* sd->imb_numa_nr as build_sched_domains() sets it (0 below the
	                                  first level above the LLC) */
};

/**
 * Per-CPU facts. ids are dense 0..count-1 in order of first appearance
 * among the online CPUs. An offline CPU (offline = true) keeps its number
 * but has no place in the machine: its ids are 0 and meaningless, nr_sd 0,
 * sd_llc/sd_numa -1, empty smt/cluster/llc/node masks, llc_id = the CPU
 * itself; it is in no span, group or mask of any other CPU (v6.6: an
 * offline CPU is out of cpu_active_mask and of every sibling mask, and
 * build_sched_domains() runs over cpu_active_mask).
 */
struct ss_cpu_topo {
	unsigned package, node, die, llc, cluster, core;
	unsigned capacity;             /* arch_scale_cpu_capacity, 1..1024 */
	unsigned nr_sd;                /* domains kept after degeneration */
	struct ss_sched_domain *sd;    /* array of nr_sd, bottom-up; sd[0] = lowest */
	int sd_llc;                    /* index in sd[] of sd_llc (highest SD_SHARE_PKG_RESOURCES), -1 if none */
	unsigned llc_size;             /* sd_llc_size (1 if no sd_llc) */
	unsigned llc_id;               /* sd_llc_id: first CPU of sd_llc's span (or the CPU itself) */
	unsigned llc_index;            /* dense index of this CPU's sd_llc_shared, 0..nr_llc_shared-1 */
	const uint64_t *smt_mask;      /* cpu_smt_mask(): SMT siblings incl. itself */
	const uint64_t *cluster_mask;  /* cpu_clustergroup_mask() */
	const uint64_t *llc_mask;      /* CPUs sharing the LLC (cpu_coregroup_mask()) */
	const uint64_t *node_mask;     /* cpumask_of_node() */
	/* Added (topology helper): */
	int sd_numa;                   /* index in sd[] of sd_numa (lowest SD_NUMA domain), -1 if none */
	/* Added (asymmetric capacity): */
	int sd_asym_cpucapacity;       /* index in sd[] of sd_asym_cpucapacity (lowest domain with
	                                  SD_ASYM_CPUCAPACITY_FULL, v6.6 update_top_cache_domain()), -1 if none */
	/* Added (offline CPUs): */
	bool offline;                  /* not in cpu_active_mask (set before ss_topology_build()) */
};

/** One idle state of the cpuidle driver's table (drivers/idle/intel_idle.c style), state 0 first. */
#define SS_MAX_IDLE_STATES 8
struct ss_idle_state {
	char name[16];
	uint32_t exit_latency_ns;      /* wall ns from the wakeup to the CPU running again */
	uint32_t target_residency_ns;  /* shortest idle period for which the state pays off */
	bool polling;                  /* the CPU polls need_resched: waking it needs no IPI (TIF_POLLING_NRFLAG) */
};

struct ss_topology {
	char *name;                    /* from the YAML "name" key */
	char *file;                    /* path it was loaded from (for messages) */
	char *vendor;                  /* "intel", "amd", "arm", ... (decides rules like node_reclaim_distance) */
	unsigned nr_cpus;              /* nr_cpu_ids: CPUs are numbered 0..nr_cpus-1, offline ones included */
	unsigned nr_words;             /* ss_cpumask_words(nr_cpus) */
	unsigned nr_nodes, nr_packages, nr_dies, nr_llcs, nr_clusters, nr_cores;
	unsigned smt_threads;          /* max threads per core; SMT active iff > 1 */
	unsigned *distance;            /* nr_nodes x nr_nodes SLIT, row-major: [a * nr_nodes + b] is
	                                  node_distance(a, b), from a to b; may be asymmetric */
	unsigned node_reclaim_distance;/* 30 (RECLAIM_DISTANCE), 32 on AMD Zen */
	uint64_t base_freq_khz, max_freq_khz; /* 0 if not given */
	unsigned nr_llc_shared;        /* number of distinct sd_llc_shared structs */
	struct ss_cpu_topo *cpu;       /* nr_cpus entries */
	/* Default probe costs from the YAML "costs:" block, ns; 0 = not given.
	 * Used as defaults for --set cost.probe_* (docs/model.md). */
	unsigned probe_smt_ns, probe_cluster_ns, probe_llc_ns;
	/* Cost-model defaults from the "costs:" block, 0 = not given (docs/topologies.md):
	 * SMT contention (% slowdown per extra busy sibling) and per-node memory bandwidth (MB/s). */
	unsigned smt_contention_pct, node_bandwidth_mbps;
	/* The cpuidle states ("idle_states:" key), shallowest first; a default table
	 * (one non-polling state, 1 µs exit latency) when the file gives none. */
	unsigned nr_idle_states;
	struct ss_idle_state idle_state[SS_MAX_IDLE_STATES];
	/* Added (topology helper): */
	char *description;             /* from the YAML "description" key, NULL if not given */
	unsigned nr_numa_levels;       /* sched_domains_numa_levels: distinct SLIT values */
	unsigned *numa_distances;      /* sched_domains_numa_distance[], ascending, [0] = 10 */
	/* Added (asymmetric capacity): */
	bool asym_cpucap_active;       /* sched_asym_cpucap_active(): some domain has SD_ASYM_CPUCAPACITY
	                                  (the sched_asym_cpucapacity key build_sched_domains() sets) */
	/* Added (offline CPUs), set by ss_topology_build(): */
	const uint64_t *active_mask;   /* cpu_active_mask: the online CPUs (nr_words words) */
	unsigned nr_active;            /* CPUs in active_mask, 1..nr_cpus (nr_cpus if none is offline) */
	/*
	 * Added (firmware node ids): node_id[n] is the firmware's number of node
	 * n (the n-th node in file order: the row of `distance`, the value of
	 * cpu[].node), as /sys/devices/system/node/nodeK and numactl -N name it;
	 * nr_nodes entries, distinct, 0..SS_MAX_NODE_ID. ss_topology_new() sets
	 * node_id[n] = n; the YAML 'id' key of a node sets it. NULL reads as
	 * the identity (ss_node_id()).
	 */
	unsigned *node_id;
	/* Added (contention): more "costs:" defaults, 0 = not given — the transfer
	 * latencies to another LLC of the package and to another package (ns),
	 * and a hit on a line still in the reader's cache (ns) */
	unsigned probe_package_ns, probe_remote_ns, line_cached_ns;
	/* Added (background work): "costs:" defaults of the machine's background
	 * work, 0 = not given — the tick's interrupt (ns), the kworker
	 * activations per CPU-second and the CPU time of one (ns) */
	unsigned tick_ns, kthread_rate_hz, kthread_ns;
	/* internal storage (masks, domains, groups) — owned, freed by ss_topology_free */
	void *priv;
};

/**
 * Load a topology YAML file (format: docs/topologies.md). On error returns NULL
 * and sets *err (SS_ERROR_PARSE / SS_ERROR_INVALID / SS_ERROR_IO) with a
 * message "file:line:col: what is wrong (what was expected)". The caller owns
 * the result (ss_topology_free).
 */
struct ss_topology *ss_topology_load(const char *path, GError **err);

/** Same from a buffer; `name` is used as the file name in messages. */
struct ss_topology *ss_topology_load_string(const char *yaml, size_t len, const char *name, GError **err);

void ss_topology_free(struct ss_topology *t);

/**
 * Added (topology helper). Allocate a machine of nr_cpus CPUs (1..SS_MAX_CPUS)
 * and nr_nodes NUMA nodes (1..nr_cpus) for ss_topology_build(): every id 0,
 * capacity 1024, distance 10 on the diagonal and 20 (REMOTE_DISTANCE)
 * elsewhere, node_reclaim_distance 30, every CPU online. The caller fills
 * cpu[].package/node/die/llc/cluster/core/capacity (and cpu[].offline for
 * CPUs that are offline: their ids and capacity are ignored), distance, and
 * the strings (g_strdup'ed; name and vendor are required), then calls
 * ss_topology_build(). Returns NULL for
 * out-of-range counts. Free with ss_topology_free().
 */
struct ss_topology *ss_topology_new(unsigned nr_cpus, unsigned nr_nodes);

/**
 * Added (topology helper). Build the sched domains, groups, LLC bookkeeping
 * and masks of a machine filled in as ss_topology_new() describes (ss_topology_load
 * calls it). Follows v6.6 build_sched_domains()/cpu_attach_domain(); the
 * topology table is x86's (vendor intel/amd/hygon/zhaoxin: PKG dropped when a
 * package holds several nodes) or the generic one (others). Validates that
 * the ids of the online CPUs are dense and nest (core ⊆ cluster ⊆ llc ⊆ die
 * ⊆ node ⊆ package), that some CPU is online, and the SLIT (diagonal 10,
 * others 11..254; distance[a][b] is node_distance(a, b), the row of node a,
 * which need not equal distance[b][a]: an asymmetric matrix is built as v6.6
 * builds it, with one ss_topology_warnings() line); offline CPUs get no
 * domain and are in no mask (struct ss_cpu_topo). On error returns -1 with
 * *err (SS_ERROR_INVALID), else 0.
 * Call once per topology.
 */
int ss_topology_build(struct ss_topology *t, GError **err);

/**
 * Added (asymmetric NUMA distances). What ss_topology_build() accepted but a
 * user should know, one line each (no "warning:" prefix): today an
 * asymmetric distance matrix ("FILE: the NUMA distance matrix is asymmetric
 * (distance[a][b] is X, distance[b][a] is Y): each node's NUMA spans come
 * from its own row ..."; v6.6 sched_init_numa() only says "Node-distance not
 * symmetric" under sched_verbose). A NULL-terminated array owned by t, never
 * NULL (empty before ss_topology_build()).
 */
const char *const *ss_topology_warnings(const struct ss_topology *t);

/** Added (topology helper). Name of one SD_* flag ("SD_WAKE_AFFINE"), NULL if unknown. */
const char *ss_sd_flag_name(unsigned flag);

/** cpus_share_cache() (v6.6 core.c): same sd_llc_id. */
static inline bool ss_cpus_share_cache(const struct ss_topology *t, unsigned a, unsigned b)
{
	return t->cpu[a].llc_id == t->cpu[b].llc_id;
}

/** The largest firmware node id a topology file or node list takes (sysfs: nodeK, K < 2^32 - 1). */
#define SS_MAX_NODE_ID 4294967294u

/** Added (firmware node ids). The firmware id of node n (n < t->nr_nodes, file order). */
static inline unsigned ss_node_id(const struct ss_topology *t, unsigned n)
{
	return t->node_id ? t->node_id[n] : n;
}

/**
 * Added (firmware node ids). The node (index in file order) whose firmware
 * id is id, or -1 if the machine has none.
 */
int ss_topology_node_index(const struct ss_topology *t, uint64_t id);

/**
 * Added (firmware node ids). Parse a NUMA node list as numactl -N reads it,
 * by firmware node id: "1", "0-1", "0,2-3" (decimal ids, ranges inclusive,
 * spaces around items allowed). Every id named, and both ends of a range,
 * must be a node of the machine; a range takes the machine's nodes whose
 * ids lie in it (ids 0,2 and "0-2": both nodes). Sets bit n of node_mask
 * (ss_cpumask_words(t->nr_nodes) words, cleared first) for each node n
 * (file-order index) taken. false + *err (SS_ERROR_USAGE) with a message
 * without the option's name: "kunpeng920 has no node 4 (its node ids:
 * 0-3)" or "not a node list (expected node ids like 0-1 or 0,2; ...)".
 */
bool ss_topology_parse_nodes(const struct ss_topology *t, const char *list, uint64_t *node_mask, GError **err);

/**
 * Added (firmware node ids). The firmware ids of the nodes in node_mask
 * (bits = file-order indices; NULL = every node) as a node list, ascending,
 * ranges folded: "0-3", "1", "0,2,99". g_free.
 */
char *ss_topology_format_node_ids(const struct ss_topology *t, const uint64_t *node_mask);

/** node_distance(a, b): SLIT row a, column b (10 = local); may differ from (b, a). */
static inline unsigned ss_node_distance(const struct ss_topology *t, unsigned a, unsigned b)
{
	return t->distance[a * t->nr_nodes + b];
}

/**
 * Render the machine and each CPU's domain levels (like the kernel's
 * sched_domain debug output) as text or JSON, or the machine as a topology
 * file (YAML in the form `simsched topo import` writes, the domains in
 * comments; ss_topology_load() of it builds the same machine), into a newly
 * allocated string (g_free). format: "text", "json", "yaml". Returns NULL
 * and sets *err for an unknown format.
 */
char *ss_topology_describe(const struct ss_topology *t, const char *format, GError **err);

/**
 * Added (sysfs import). Read a Linux sysfs tree — root "/" (or NULL) for the
 * running machine, or a copy under `root` (root/sys/devices/system/cpu/...,
 * root/sys/devices/system/node/..., root/proc/cpuinfo) — and return topology
 * YAML (docs/topologies.md, "Import") that ss_topology_load() accepts: name
 * `name` (NULL = "imported"), the vendor, the SLIT and packages → nodes →
 * llcs → [clusters →] cores with explicit CPU lists and capacities
 * (cpu_capacity, SCHED_CAPACITY_SCALE units, written where not 1024).
 * CPUs missing from cpu/online below its highest CPU (and cpu/present ones
 * above it) are offline: written as the `offline` list, numbers kept, one
 * warning naming them. Where sysfs lacks information the kernel's v6.6
 * fallback is used (no cache info: the core on x86, the package within the
 * node elsewhere; no node directories: one node, SLIT 10; no distance files:
 * 10/20) and a message is appended to `warnings` (may be NULL; elements are
 * g_strdup'ed strings, so create it with g_ptr_array_new_with_free_func(g_free)).
 * Returns a newly allocated string (g_free), or NULL with *err in SS_ERROR:
 * SS_ERROR_IO (a required file or directory cannot be read), SS_ERROR_INVALID
 * (malformed or inconsistent content), SS_ERROR_USAGE (bad name); messages
 * are "path: what is wrong (what was expected)".
 */
char *ss_topology_import_sysfs(const char *root, const char *name, GPtrArray *warnings, GError **err);

/**
 * Added (hwloc import). Read an hwloc XML export (v1 or v2, e.g. `lstopo
 * FILE.xml`) with libhwloc and return topology YAML as
 * ss_topology_import_sysfs() does (same writer, same v6.6 rules; the
 * mapping from hwloc objects is in docs/topologies.md, "Import"). CPU
 * numbers are the PUs' os_index; PUs of the complete cpuset that are not
 * in the topology are written as `offline`. name: NULL =
 * "imported". warnings: as for ss_topology_import_sysfs(). Returns a newly
 * allocated string (g_free), or NULL with *err in SS_ERROR: SS_ERROR_IO
 * (the file cannot be read), SS_ERROR_INVALID (not hwloc XML, or a machine
 * that cannot be modelled: the message says what and why; an asymmetric
 * latency matrix is kept as it is, with a warning), SS_ERROR_USAGE (bad
 * name, or simsched built without libhwloc). Messages start with "path: ".
 * The file is first loaded in a child process (fork(); the child only
 * runs libhwloc and _exits), so that a libhwloc crash on a malformed file
 * becomes an SS_ERROR_INVALID; a multi-threaded caller should call this
 * before it starts threads, as with any fork() without exec.
 */
char *ss_topology_import_hwloc(const char *path, const char *name, GPtrArray *warnings, GError **err);

#endif /* SIMSCHED_TOPOLOGY_H */

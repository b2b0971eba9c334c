/*
 * lib/topology_import.h — the part the machine importers share (internal):
 * per-CPU level masks of an imported machine, the checks and fixes every
 * importer applies, and the topology YAML writer. The sysfs importer
 * (topology_import.c) and the hwloc importer (topology_hwloc.c) fill a
 * struct ss_imp and call ss_imp_emit_yaml().
 */
#ifndef SIMSCHED_TOPOLOGY_IMPORT_H
#define SIMSCHED_TOPOLOGY_IMPORT_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

struct ss_imp {
	const char *root;              /* sysfs: the tree's root */
	char *cpu_dir;                 /* sysfs: ROOT/sys/devices/system/cpu; hwloc: the file (for messages) */
	char *node_dir;                /* sysfs: ROOT/sys/devices/system/node; hwloc: the file (for messages) */
	char *origin;                  /* "`simsched topo import --... ` from ..." for the YAML header */
	unsigned nr_cpus, nw;
	GPtrArray *warnings;
	/* per CPU masks: [0] package, [1] node, [2] llc, [3] cluster, [4] core */
	uint64_t *lv[5];
	unsigned *capacity;
	/* NUMA */
	unsigned nr_nodes;             /* nodes as the source lists them */
	unsigned *node_ids;            /* their numbers (sparse ids kept for comments) */
	unsigned *cpu_node;            /* CPU -> index into node_ids */
	unsigned *dist;                /* nr_nodes x nr_nodes, source order */
	bool have_dist;
	char *vendor;
	const char *vendor_src;
	unsigned x86_family;           /* x86 "cpu family" (0x15: AMD Bulldozer), 0 unknown */
	/*
	 * Offline CPUs (ss_imp_set_online()): the importer works on the online
	 * CPUs numbered densely 0..nr_cpus-1; cpu_id[i] is the real number of
	 * CPU i (NULL: the identity, no CPU offline), dense_of[] the reverse
	 * (SS_MAX_CPUS entries, UINT_MAX for CPUs that are not online), nr_ids
	 * the nr_cpu_ids written, offline the real offline CPUs (nr_ids bits).
	 */
	unsigned *cpu_id, *dense_of;
	unsigned nr_ids;
	uint64_t *offline;
	/* sysfs: the CPUs a cpulist file may name (SS_MAX_CPUS bits; NULL: unchecked) and where they come from */
	uint64_t *known;
	const char *known_src;
	/* Set only when writing a loaded machine back (ss_imp_emit_topology): */
	uint64_t *die;                 /* per CPU die masks (im->nw words each), or NULL: no dies level */
	const char *header;            /* comment lines (with '#' and '\n') instead of the import's */
	const char *extra;             /* top-level keys (YAML lines) written after vendor: */
};

enum { LV_PKG, LV_NODE, LV_LLC, LV_CLS, LV_CORE, NR_LV };

/**
 * Set the CPUs from the online ones (SS_MAX_CPUS bits, real numbers) and,
 * optionally, further offline CPUs above them (`more`, may be NULL): CPUs
 * missing below the highest online one and those of `more` are offline,
 * keep their numbers and are written as the file's `offline` list (one
 * warning naming them, from `src`). Fills nr_cpus, nw and the fields above.
 */
void ss_imp_set_online(struct ss_imp *im, const uint64_t *online, const uint64_t *more, const char *src);
/** The real CPU number of the importer's CPU c. */
static inline unsigned ss_imp_id(const struct ss_imp *im, unsigned c)
{
	return im->cpu_id ? im->cpu_id[c] : c;
}
/** Append a warning (no-op when im->warnings is NULL). */
void ss_imp_warn(struct ss_imp *im, const char *fmt, ...) G_GNUC_PRINTF(2, 3);
/** The mask of level lv of cpu (im->nw words). */
uint64_t *ss_imp_mask(struct ss_imp *im, unsigned lv, unsigned cpu);
/** mask(lv) &= mask(parent) for every CPU; true if anything was cut. */
bool ss_imp_restrict(struct ss_imp *im, unsigned lv, unsigned parent);
/** Join packages that one node spans (warning if any). */
void ss_imp_join_packages(struct ss_imp *im);
/** intel/amd/hygon/zhaoxin: the x86 topology table and LLC rules. */
bool ss_imp_is_x86(const char *vendor);
/** Default NULL to "imported"; refuse empty names and control characters (SS_ERROR_USAGE). */
bool ss_imp_check_name(const char **name, GError **err);
/** Free everything an importer filled in (and zero *im). */
void ss_imp_clear(struct ss_imp *im);
/**
 * The topology YAML of the filled-in machine (g_free). llc_note, if not
 * NULL, is added to the header's LLC count (e.g. how the LLC was derived).
 * Nodes without CPUs are left out of the SLIT, with a warning. An
 * asymmetric SLIT (im->dist[i][j] = node_distance(i, j)) is written as it
 * is, with a comment line and a warning.
 */
char *ss_imp_emit_yaml(struct ss_imp *im, const char *name, const char *llc_note);

struct ss_topology;
/**
 * The topology YAML of a loaded (built) machine, in the form the importers
 * write (ss_imp_emit_yaml: explicit cpus per level, cores as thread lists),
 * so that ss_topology_load() of it builds the same machine; dies are
 * written where a node holds more than one. header: comment lines ('#',
 * '\n') above the keys; extra: top-level keys after vendor (description,
 * frequency, costs, idle states: the caller's). g_free.
 */
char *ss_imp_emit_topology(const struct ss_topology *t, const char *header, const char *extra);

#endif

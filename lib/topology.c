/*
 * A machine → the sched domains, groups and LLC bookkeeping kernel v6.6
 * builds for it, and their rendering as text/JSON/YAML.
 *
 * Follows kernel/sched/topology.c at v6.6: sd_init(), build_sched_domain(),
 * build_sched_domains(), build_sched_groups()/get_group(),
 * build_overlap_sched_groups()/find_descended_sibling()/build_balance_mask(),
 * sched_init_numa(), asym_cpu_capacity_classify(), cpu_attach_domain()
 * (sd_degenerate/sd_parent_degenerate), update_top_cache_domain(); the
 * metaflags of include/linux/sched/sd_flags.h; the topology tables of
 * kernel/sched/topology.c (default_topology) and arch/x86/kernel/smpboot.c
 * (x86_topology, x86_has_numa_in_package); the masks of
 * drivers/base/arch_topology.c (cpu_coregroup_mask, cpu_clustergroup_mask).
 *
 * The YAML side is lib/topology_yaml.c; this file only sees the filled-in
 * struct ss_topology (ss_topology_new + ids).
 */
#include "simsched/topology.h"
#include "simsched/params.h"
#include "simsched/error.h"
#include "topology_import.h"

#include <cJSON.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#define SCHED_CAPACITY_SCALE	1024u
#define LOCAL_DISTANCE		10u
#define REMOTE_DISTANCE		20u
#define RECLAIM_DISTANCE	30u	/* include/linux/topology.h */
#define NR_DISTANCE_VALUES	256u	/* 1 << DISTANCE_BITS */

/* include/linux/sched/sd_flags.h metaflags */
#define SDF_SHARED_CHILD	0x1u
#define SDF_SHARED_PARENT	0x2u
#define SDF_NEEDS_GROUPS	0x4u

/*
 * v6.6 sd_flags.h, in order. SD_ASYM_PACKING lost SDF_SHARED_CHILD in v6.5
 * ("sched/topology: Remove SHARED_CHILD from ASYM_PACKING").
 */
static const struct {
	unsigned flag;
	const char *name;
	unsigned meta;
} sd_flag_table[] = {
	{ SD_BALANCE_NEWIDLE, "SD_BALANCE_NEWIDLE", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS },
	{ SD_BALANCE_EXEC, "SD_BALANCE_EXEC", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS },
	{ SD_BALANCE_FORK, "SD_BALANCE_FORK", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS },
	{ SD_BALANCE_WAKE, "SD_BALANCE_WAKE", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS },
	{ SD_WAKE_AFFINE, "SD_WAKE_AFFINE", SDF_SHARED_CHILD },
	{ SD_ASYM_CPUCAPACITY, "SD_ASYM_CPUCAPACITY", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS },
	{ SD_ASYM_CPUCAPACITY_FULL, "SD_ASYM_CPUCAPACITY_FULL", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS },
	{ SD_SHARE_CPUCAPACITY, "SD_SHARE_CPUCAPACITY", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS },
	{ SD_SHARE_PKG_RESOURCES, "SD_SHARE_PKG_RESOURCES", SDF_SHARED_CHILD | SDF_NEEDS_GROUPS },
	{ SD_SERIALIZE, "SD_SERIALIZE", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS },
	{ SD_ASYM_PACKING, "SD_ASYM_PACKING", SDF_NEEDS_GROUPS },
	{ SD_PREFER_SIBLING, "SD_PREFER_SIBLING", SDF_NEEDS_GROUPS },
	{ SD_OVERLAP, "SD_OVERLAP", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS },
	{ SD_NUMA, "SD_NUMA", SDF_SHARED_PARENT | SDF_NEEDS_GROUPS },
};

#define NR_SD_FLAGS (sizeof(sd_flag_table) / sizeof(sd_flag_table[0]))

static unsigned sd_meta_mask(unsigned meta)
{
	unsigned m = 0;

	for (unsigned i = 0; i < NR_SD_FLAGS; i++)
		if (sd_flag_table[i].meta & meta)
			m |= sd_flag_table[i].flag;
	return m;
}

const char *ss_sd_flag_name(unsigned flag)
{
	for (unsigned i = 0; i < NR_SD_FLAGS; i++)
		if (sd_flag_table[i].flag == flag)
			return sd_flag_table[i].name;
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* Storage: interned masks (every span/mask is stored once and compared by  */
/* pointer) and a list of other allocations.                                */

struct imask {
	unsigned nwords;
	uint64_t w[];
};

struct topo_priv {
	GHashTable *masks;	/* struct imask * → itself */
	GPtrArray *allocs;	/* g_free'd with the topology */
	struct imask *scratch;
	GPtrArray *warnings;	/* char *, NULL-terminated (ss_topology_warnings) */
};

static guint imask_hash(gconstpointer p)
{
	const struct imask *m = p;
	uint64_t h = UINT64_C(0xcbf29ce484222325);

	for (unsigned i = 0; i < m->nwords; i++) {
		h ^= m->w[i];
		h *= UINT64_C(0x100000001b3);
		h ^= h >> 29;
	}
	return (guint)(h ^ (h >> 32));
}

static gboolean imask_equal(gconstpointer a, gconstpointer b)
{
	const struct imask *x = a, *y = b;

	return x->nwords == y->nwords && !memcmp(x->w, y->w, x->nwords * sizeof(uint64_t));
}

static struct topo_priv *priv_new(unsigned nwords)
{
	struct topo_priv *pv = g_new0(struct topo_priv, 1);

	pv->masks = g_hash_table_new_full(imask_hash, imask_equal, g_free, NULL);
	pv->allocs = g_ptr_array_new_with_free_func(g_free);
	pv->scratch = g_malloc0(sizeof(struct imask) + nwords * sizeof(uint64_t));
	pv->scratch->nwords = nwords;
	pv->warnings = g_ptr_array_new_with_free_func(g_free);
	g_ptr_array_add(pv->warnings, NULL);
	return pv;
}

static void priv_free(struct topo_priv *pv)
{
	if (!pv)
		return;
	g_hash_table_destroy(pv->masks);
	g_ptr_array_free(pv->allocs, TRUE);
	g_free(pv->scratch);
	g_ptr_array_free(pv->warnings, TRUE);
	g_free(pv);
}

/* The one stored copy of mask m. */
static const uint64_t *intern(struct topo_priv *pv, const uint64_t *m)
{
	unsigned nw = pv->scratch->nwords;
	struct imask *found;

	memcpy(pv->scratch->w, m, nw * sizeof(uint64_t));
	found = g_hash_table_lookup(pv->masks, pv->scratch);
	if (!found) {
		found = g_malloc(sizeof(struct imask) + nw * sizeof(uint64_t));
		found->nwords = nw;
		memcpy(found->w, m, nw * sizeof(uint64_t));
		g_hash_table_insert(pv->masks, found, found);
	}
	return found->w;
}

static void *priv_alloc(struct topo_priv *pv, size_t size)
{
	void *p = g_malloc0(size ? size : 1);

	g_ptr_array_add(pv->allocs, p);
	return p;
}

/* ------------------------------------------------------------------------ */

struct ss_topology *ss_topology_new(unsigned nr_cpus, unsigned nr_nodes)
{
	struct ss_topology *t;

	if (nr_cpus < 1 || nr_cpus > SS_MAX_CPUS || nr_nodes < 1 || nr_nodes > nr_cpus)
		return NULL;
	t = g_new0(struct ss_topology, 1);
	t->nr_cpus = nr_cpus;
	t->nr_words = ss_cpumask_words(nr_cpus);
	t->nr_nodes = nr_nodes;
	t->node_reclaim_distance = RECLAIM_DISTANCE;
	/* No cpuidle table given: the architecture's default idle (HLT on x86,
	 * WFI on arm64, default_idle_call()), which does not poll. */
	t->nr_idle_states = 1;
	memcpy(t->idle_state[0].name, "WFI/HLT", sizeof "WFI/HLT");
	t->idle_state[0].exit_latency_ns = 1000;
	t->idle_state[0].target_residency_ns = 1000;
	t->cpu = g_new0(struct ss_cpu_topo, nr_cpus);
	for (unsigned i = 0; i < nr_cpus; i++) {
		t->cpu[i].capacity = SCHED_CAPACITY_SCALE;
		t->cpu[i].sd_llc = -1;
		t->cpu[i].sd_numa = -1;
		t->cpu[i].llc_size = 1;
		t->cpu[i].llc_id = i;
	}
	t->distance = g_new(unsigned, (size_t)nr_nodes * nr_nodes);
	for (unsigned a = 0; a < nr_nodes; a++)
		for (unsigned b = 0; b < nr_nodes; b++)
			t->distance[a * nr_nodes + b] = a == b ? LOCAL_DISTANCE : REMOTE_DISTANCE;
	t->node_id = g_new(unsigned, nr_nodes);
	for (unsigned n = 0; n < nr_nodes; n++)
		t->node_id[n] = n;
	return t;
}

void ss_topology_free(struct ss_topology *t)
{
	if (!t)
		return;
	if (t->cpu)
		for (unsigned i = 0; i < t->nr_cpus; i++)
			g_free(t->cpu[i].sd);
	g_free(t->cpu);
	g_free(t->distance);
	g_free(t->node_id);
	g_free(t->numa_distances);
	g_free(t->name);
	g_free(t->file);
	g_free(t->vendor);
	g_free(t->description);
	priv_free(t->priv);
	g_free(t);
}

/* ------------------------------------------------------------------------ */
/* The builder                                                              */

/* struct sched_domain_topology_level */
struct tl {
	enum ss_sd_level kind;
	const char *name;
	unsigned sd_flags;		/* tl->sd_flags() */
	bool overlap;			/* SDTL_OVERLAP */
	int numa_level;			/* -1 for the non-NUMA table entries */
	const uint64_t **mask;		/* tl->mask(cpu), per CPU */
};

struct bgrp {
	const uint64_t *span, *balance;
	unsigned id, flags, capacity, weight, cores;
};

/*
 * A group ring of a non-overlapping level, shared (as the kernel shares
 * sdd->sg) by every CPU whose domain at that level has the same span; each
 * CPU only records the index of its local group. The public groups are
 * built once per ring (finish_cpu), so memory and time stay proportional to
 * the number of distinct spans, not CPUs x groups.
 *
 * Published layout: a ring of at most GROUP_COPY_MAX groups is published as
 * one array per local group, rotated so that sd->groups[0..nr_groups-1] is
 * also the list order (len^2 groups per ring, shared by the CPUs of a
 * group); a longer ring is published once and each CPU's sd->groups points
 * at its local group inside it, so only the `next` walk is valid there
 * (len groups per ring instead of len^2: 4096 CPUs in one LLC would need
 * 16M groups otherwise).
 */
#define GROUP_COPY_MAX 64u

struct ring {
	struct bgrp *g;
	unsigned len;
	unsigned *flags;		/* final sg->flags per group, NULL until published */
	struct ss_sched_group *pub;	/* len > GROUP_COPY_MAX: the one published ring */
	struct ss_sched_group **copies;	/* len <= GROUP_COPY_MAX: rotated copy per local group */
};

/* One CPU's sched_domain at one topology level, before cpu_attach_domain(). */
struct bsd {
	bool built;			/* sd_init() ran (else the kernel's zeroed sd) */
	bool kept;			/* survived cpu_attach_domain() */
	bool has_override;		/* cpu_attach_domain() rewrote sd->groups->flags */
	const uint64_t *span;
	unsigned weight, sd_weight;
	unsigned flags, final_flags;
	unsigned imbalance_pct, cache_nice_tries, imb_numa_nr;
	unsigned override_flags;
	struct ring *ring;		/* non-overlapping levels: the shared ring ... */
	unsigned local;			/* ... and the index of this CPU's group in it */
	struct bgrp *groups;		/* SD_OVERLAP: this CPU's own list, local group first */
	unsigned nr_groups;
};

struct builder {
	struct ss_topology *t;
	struct topo_priv *pv;
	unsigned n, nw, nr_tl;
	struct tl *tl;
	struct bsd *b;
	const uint64_t *all;		/* cpu_map: the active CPUs */
	const uint64_t *empty;
	uint64_t *tmp, *tmp2;
	GPtrArray *rings;		/* struct ring *, freed after the build */
	unsigned nr_caps;
	const uint64_t **cap_mask;	/* asym_cap_list (only if > 1 capacity) */
};

static struct bsd *BSD(struct builder *bd, unsigned cpu, unsigned level)
{
	return &bd->b[(size_t)cpu * bd->nr_tl + level];
}

static void set_err(GError **err, const char *fmt, ...) G_GNUC_PRINTF(2, 3);

static void set_err(GError **err, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error_literal(err, SS_ERROR, SS_ERROR_INVALID, msg);
	g_free(msg);
}

static bool vendor_is_x86(const char *vendor)
{
	static const char *const x86[] = { "intel", "amd", "hygon", "zhaoxin" };

	for (unsigned i = 0; i < G_N_ELEMENTS(x86); i++)
		if (!strcmp(vendor, x86[i]))
			return true;
	return false;
}

/*
 * Check that the ids of one level are dense (0..count-1, each used) and that
 * each id of the level below sits in exactly one id of this level.
 */
static bool check_level(struct ss_topology *t, const char *what, size_t off,
			const char *below, size_t below_off, unsigned *count, GError **err)
{
	unsigned n = t->nr_cpus, max = 0;
	unsigned *parent_of = NULL, nr_below = 0;
	bool *used;
	bool ok = true;

	for (unsigned i = 0; i < n; i++) {
		unsigned id = *(const unsigned *)((const char *)&t->cpu[i] + off);
		if (t->cpu[i].offline)
			continue;
		if (id >= n) {
			set_err(err, "CPU %u has %s id %u (expected ids below the number of CPUs, %u)",
				i, what, id, n);
			return false;
		}
		if (id > max)
			max = id;
	}
	used = g_new0(bool, max + 1);
	for (unsigned i = 0; i < n; i++)
		if (!t->cpu[i].offline)
			used[*(const unsigned *)((const char *)&t->cpu[i] + off)] = true;
	for (unsigned id = 0; id <= max && ok; id++)
		if (!used[id]) {
			set_err(err, "%s id %u has no CPU (expected dense %s ids 0..%u)", what, id, what, max);
			ok = false;
		}
	g_free(used);
	if (!ok)
		return false;
	*count = max + 1;
	if (!below)
		return true;
	for (unsigned i = 0; i < n; i++) {
		unsigned b = *(const unsigned *)((const char *)&t->cpu[i] + below_off);
		if (t->cpu[i].offline)
			continue;
		if (b + 1 > nr_below)
			nr_below = b + 1;
	}
	parent_of = g_new(unsigned, nr_below);
	for (unsigned b = 0; b < nr_below; b++)
		parent_of[b] = UINT_MAX;
	for (unsigned i = 0; i < n && ok; i++) {
		unsigned b = *(const unsigned *)((const char *)&t->cpu[i] + below_off);
		unsigned p = *(const unsigned *)((const char *)&t->cpu[i] + off);
		if (t->cpu[i].offline)
			continue;
		if (parent_of[b] == UINT_MAX) {
			parent_of[b] = p;
		} else if (parent_of[b] != p) {
			set_err(err, "%s %u spans %s %u and %u (CPU %u); expected each %s inside one %s",
				below, b, what, parent_of[b], p, i, below, what);
			ok = false;
		}
	}
	g_free(parent_of);
	return ok;
}

static bool validate_machine(struct ss_topology *t, GError **err)
{
	unsigned n = t->nr_cpus, nn = t->nr_nodes, count;

	if (!t->name || !*t->name || !t->vendor || !*t->vendor) {
		set_err(err, "the machine needs a name and a vendor");
		return false;
	}
	if (n < 1 || n > SS_MAX_CPUS || t->nr_words != ss_cpumask_words(n)) {
		set_err(err, "%u CPUs (expected 1..%u)", n, SS_MAX_CPUS);
		return false;
	}
	count = 0;
	for (unsigned i = 0; i < n; i++) {
		if (t->cpu[i].offline)
			continue;
		count++;
		if (t->cpu[i].capacity < 1 || t->cpu[i].capacity > SCHED_CAPACITY_SCALE) {
			set_err(err, "CPU %u has capacity %u (expected 1..%u)", i, t->cpu[i].capacity,
				SCHED_CAPACITY_SCALE);
			return false;
		}
	}
	if (!count) {
		set_err(err, "every CPU is offline (expected at least one online CPU)");
		return false;
	}
#define OFF(f) offsetof(struct ss_cpu_topo, f)
	if (!check_level(t, "core", OFF(core), NULL, 0, &t->nr_cores, err) ||
	    !check_level(t, "cluster", OFF(cluster), "core", OFF(core), &t->nr_clusters, err) ||
	    !check_level(t, "llc", OFF(llc), "cluster", OFF(cluster), &t->nr_llcs, err) ||
	    !check_level(t, "die", OFF(die), "llc", OFF(llc), &t->nr_dies, err) ||
	    !check_level(t, "node", OFF(node), "die", OFF(die), &count, err) ||
	    !check_level(t, "package", OFF(package), "node", OFF(node), &t->nr_packages, err))
		return false;
#undef OFF
	if (count != nn) {
		set_err(err, "CPUs use %u nodes but the machine has %u (expected every node to hold CPUs)",
			count, nn);
		return false;
	}
	for (unsigned a = 0; a < nn; a++)
		for (unsigned b = 0; b < a; b++)
			if (ss_node_id(t, a) == ss_node_id(t, b) || ss_node_id(t, a) > SS_MAX_NODE_ID) {
				set_err(err, "node %u (in file order) has firmware id %u, %s (expected distinct ids 0..%u)", a,
					ss_node_id(t, a), ss_node_id(t, a) > SS_MAX_NODE_ID ? "out of range" : "as another node", SS_MAX_NODE_ID);
				return false;
			}
	for (unsigned a = 0; a < nn; a++) {
		for (unsigned b = 0; b < nn; b++) {
			unsigned d = t->distance[a * nn + b];
			if (a == b && d != LOCAL_DISTANCE) {
				set_err(err, "distance[%u][%u] is %u (expected %u, LOCAL_DISTANCE)", a, b, d,
					LOCAL_DISTANCE);
				return false;
			}
			if (a != b && (d <= LOCAL_DISTANCE || d >= NR_DISTANCE_VALUES - 1)) {
				set_err(err, "distance[%u][%u] is %u (expected %u..%u)", a, b, d,
					LOCAL_DISTANCE + 1, NR_DISTANCE_VALUES - 2);
				return false;
			}
		}
	}
	if (t->node_reclaim_distance < LOCAL_DISTANCE || t->node_reclaim_distance >= NR_DISTANCE_VALUES) {
		set_err(err, "node_reclaim_distance %u (expected %u..%u)", t->node_reclaim_distance,
			LOCAL_DISTANCE, NR_DISTANCE_VALUES - 1);
		return false;
	}
	return true;
}

/*
 * Per-CPU masks of one id level: mask[cpu] = CPUs with the same id.
 */
static const uint64_t **level_masks(struct builder *bd, size_t off, unsigned count)
{
	unsigned n = bd->n, nw = bd->nw;
	uint64_t *m = g_new0(uint64_t, (size_t)count * nw);
	const uint64_t **per_id = g_new(const uint64_t *, count);
	const uint64_t **per_cpu = priv_alloc(bd->pv, n * sizeof(*per_cpu));

	for (unsigned i = 0; i < n; i++)
		if (!bd->t->cpu[i].offline)
			ss_cpumask_set(m + (size_t)nw * *(const unsigned *)((const char *)&bd->t->cpu[i] + off), i);
	for (unsigned id = 0; id < count; id++)
		per_id[id] = intern(bd->pv, m + (size_t)nw * id);
	/* an offline CPU is in no mask and has an empty one (remove_siblinginfo()) */
	for (unsigned i = 0; i < n; i++)
		per_cpu[i] = bd->t->cpu[i].offline ? bd->empty
						   : per_id[*(const unsigned *)((const char *)&bd->t->cpu[i] + off)];
	g_free(per_id);
	g_free(m);
	return per_cpu;
}

static const uint64_t *single_mask(struct builder *bd, unsigned cpu)
{
	ss_cpumask_zero(bd->tmp, bd->nw);
	ss_cpumask_set(bd->tmp, cpu);
	return intern(bd->pv, bd->tmp);
}

/* asym_cpu_capacity_classify() (v6.6) */
static unsigned asym_classify(struct builder *bd, const uint64_t *span)
{
	unsigned count = 0, miss = 0;

	for (unsigned c = 0; c < bd->nr_caps; c++) {
		if (ss_cpumask_intersects(span, bd->cap_mask[c], bd->nw))
			count++;
		else
			miss++;	/* cpu_map is every CPU */
	}
	if (count < 2)
		return 0;
	if (miss)
		return SD_ASYM_CPUCAPACITY;
	return SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL;
}

static void capacity_classes(struct builder *bd)
{
	struct ss_topology *t = bd->t;
	unsigned vals[SCHED_CAPACITY_SCALE + 1] = { 0 };
	unsigned distinct = 0;

	for (unsigned i = 0; i < bd->n; i++)
		if (!t->cpu[i].offline && !vals[t->cpu[i].capacity]++)
			distinct++;
	/* asym_cpu_capacity_scan(): a single capacity leaves the list empty */
	if (distinct < 2)
		return;
	bd->cap_mask = priv_alloc(bd->pv, distinct * sizeof(*bd->cap_mask));
	/* the kernel keeps the list ordered by descending capacity */
	for (unsigned cap = SCHED_CAPACITY_SCALE; cap >= 1; cap--) {
		if (!vals[cap])
			continue;
		ss_cpumask_zero(bd->tmp, bd->nw);
		for (unsigned i = 0; i < bd->n; i++)
			if (!t->cpu[i].offline && t->cpu[i].capacity == cap)
				ss_cpumask_set(bd->tmp, i);
		bd->cap_mask[bd->nr_caps++] = intern(bd->pv, bd->tmp);
	}
}

/*
 * The topology table: default_topology[] or x86_topology[] (both
 * SMT, CLS, MC, DIE with CONFIG_SCHED_SMT/CLUSTER/MC), then the levels
 * sched_init_numa() appends: NODE (numa_level 0) and one NUMA level per
 * further distinct distance.
 */
static void build_tl(struct builder *bd)
{
	struct ss_topology *t = bd->t;
	unsigned n = bd->n, nn = t->nr_nodes;
	bool x86 = vendor_is_x86(t->vendor), numa_in_package = false;
	const uint64_t **smt, **cluster, **llc, **node, **cls, **mc;
	bool dist[NR_DISTANCE_VALUES] = { false };
	unsigned nr_levels = 0, i;

#define OFF(f) offsetof(struct ss_cpu_topo, f)
	smt = level_masks(bd, OFF(core), t->nr_cores);
	cluster = level_masks(bd, OFF(cluster), t->nr_clusters);
	llc = level_masks(bd, OFF(llc), t->nr_llcs);
	node = level_masks(bd, OFF(node), nn);
#undef OFF
	cls = priv_alloc(bd->pv, n * sizeof(*cls));
	mc = priv_alloc(bd->pv, n * sizeof(*mc));
	for (i = 0; i < n; i++) {
		if (t->cpu[i].offline) {
			mc[i] = cls[i] = bd->empty;
			continue;
		}
		/*
		 * cpu_coregroup_mask(): x86 returns cpu_llc_shared_mask; arm64's
		 * (drivers/base/arch_topology.c) returns the smallest of node,
		 * package and LLC siblings, extended to the cluster if that
		 * covers it. LLCs nest in nodes here, so both give the LLC.
		 */
		mc[i] = llc[i];
		if (!x86 && ss_cpumask_subset(mc[i], cluster[i], bd->nw))
			mc[i] = cluster[i];
		/*
		 * cpu_clustergroup_mask(): x86 returns cpu_l2c_shared_mask; the
		 * generic one forbids a cluster covering the coregroup and
		 * returns the CPU alone then (v6.6: get_cpu_mask(cpu)).
		 */
		if (!x86 && ss_cpumask_subset(mc[i], cluster[i], bd->nw))
			cls[i] = single_mask(bd, i);
		else
			cls[i] = cluster[i];
	}
	/* x86_has_numa_in_package: some package holds CPUs of two nodes */
	{
		unsigned *pkg_node = g_new(unsigned, t->nr_packages);

		for (i = 0; i < t->nr_packages; i++)
			pkg_node[i] = UINT_MAX;
		for (i = 0; i < n; i++) {
			unsigned *pn = &pkg_node[t->cpu[i].package];
			if (t->cpu[i].offline)
				continue;
			if (*pn == UINT_MAX)
				*pn = t->cpu[i].node;
			else if (*pn != t->cpu[i].node)
				numa_in_package = true;
		}
		g_free(pkg_node);
	}

	/* sched_init_numa(): the distinct distances, ascending */
	for (unsigned a = 0; a < nn; a++)
		for (unsigned b = 0; b < nn; b++)
			dist[t->distance[a * nn + b]] = true;
	t->numa_distances = g_new(unsigned, NR_DISTANCE_VALUES);
	for (unsigned d = 0; d < NR_DISTANCE_VALUES; d++)
		if (dist[d])
			t->numa_distances[nr_levels++] = d;
	t->nr_numa_levels = nr_levels;

	bd->tl = priv_alloc(bd->pv, (4 + nr_levels) * sizeof(*bd->tl));
	i = 0;
	bd->tl[i++] = (struct tl){ SS_SD_SMT, "SMT", SD_SHARE_CPUCAPACITY | SD_SHARE_PKG_RESOURCES, false, -1, smt };
	/* v6.6 cpu_cluster_flags(): SD_SHARE_PKG_RESOURCES (SD_CLUSTER is v6.7) */
	bd->tl[i++] = (struct tl){ SS_SD_CLS, "CLS", SD_SHARE_PKG_RESOURCES, false, -1, cls };
	bd->tl[i++] = (struct tl){ SS_SD_MC, "MC", SD_SHARE_PKG_RESOURCES, false, -1, mc };
	/*
	 * cpu_cpu_mask() is the CPU's node. x86 build_sched_topology() leaves
	 * this level out when NUMA nodes split a package, "since the NUMA
	 * domains will auto-magically create the right spanning domains".
	 * ITMT (SD_ASYM_PACKING) is not modelled: symmetric machines only.
	 */
	if (!(x86 && numa_in_package))
		bd->tl[i++] = (struct tl){ SS_SD_PKG, "DIE", 0, false, -1, node };
	{
		const uint64_t **node_by_id = g_new0(const uint64_t *, nn);

		for (unsigned c = 0; c < n; c++)
			if (!t->cpu[c].offline)
				node_by_id[t->cpu[c].node] = node[c];
		for (unsigned lvl = 0; lvl < nr_levels; lvl++) {
			const uint64_t **m = priv_alloc(bd->pv, n * sizeof(*m));
			const uint64_t **per_node = g_new(const uint64_t *, nn);

			/*
			 * sched_domains_numa_masks[lvl][a]: the nodes k with
			 * node_distance(a, k) <= sched_domains_numa_distance[lvl],
			 * i.e. node a's own row (v6.6 sched_init_numa()). With an
			 * asymmetric matrix the masks of two nodes at one level may
			 * overlap without being equal, and k may be in a's mask while
			 * a is not in k's; sd_numa_mask() gives each CPU its node's.
			 */
			for (unsigned a = 0; a < nn; a++) {
				ss_cpumask_zero(bd->tmp, bd->nw);
				for (unsigned b = 0; b < nn; b++)
					if (t->distance[a * nn + b] <= t->numa_distances[lvl])
						ss_cpumask_or(bd->tmp, bd->tmp, node_by_id[b], bd->nw);
				per_node[a] = intern(bd->pv, bd->tmp);
			}
			for (unsigned c = 0; c < n; c++)
				m[c] = t->cpu[c].offline ? bd->empty : per_node[t->cpu[c].node];
			g_free(per_node);
			if (lvl == 0)
				bd->tl[i++] = (struct tl){ SS_SD_NUMA, "NODE", 0, false, 0, m };
			else
				bd->tl[i++] = (struct tl){ SS_SD_NUMA, "NUMA", SD_NUMA, true, (int)lvl, m };
		}
		g_free(node_by_id);
	}
	bd->nr_tl = i;
}

/*
 * build_sched_domains(), first loop: build_sched_domain()/sd_init() for
 * every CPU of cpu_map (the active CPUs) and level, bottom-up, stopping at
 * the first domain that spans cpu_map.
 */
static void build_domains(struct builder *bd)
{
	unsigned n = bd->n, nw = bd->nw;
	struct ss_topology *t = bd->t;

	for (unsigned cpu = 0; cpu < n; cpu++) {
		if (t->cpu[cpu].offline)
			continue;
		for (unsigned l = 0; l < bd->nr_tl; l++) {
			const struct tl *tl = &bd->tl[l];
			struct bsd *sd = BSD(bd, cpu, l), *child = l ? BSD(bd, cpu, l - 1) : NULL;
			const uint64_t *span = tl->mask[cpu];
			unsigned flags;

			sd->built = true;
			sd->sd_weight = ss_cpumask_weight(span, nw);
			/* build_sched_domain(): "BUG: arch topology borken" fixup */
			if (child && !ss_cpumask_subset(child->span, span, nw)) {
				ss_cpumask_or(bd->tmp, span, child->span, nw);
				span = intern(bd->pv, bd->tmp);
			}
			sd->span = span;
			sd->weight = ss_cpumask_weight(span, nw);

			flags = SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK |
				SD_WAKE_AFFINE | SD_PREFER_SIBLING | tl->sd_flags;
			/* sd_init() classifies its own span (tl->mask), before the widening above */
			flags |= asym_classify(bd, tl->mask[cpu]);
			/* Don't attempt to spread across CPUs of different capacities. */
			if ((flags & SD_ASYM_CPUCAPACITY) && child)
				child->flags &= ~SD_PREFER_SIBLING;
			sd->imbalance_pct = 117;
			sd->cache_nice_tries = 0;
			if (flags & SD_SHARE_CPUCAPACITY) {
				sd->imbalance_pct = 110;
			} else if (flags & SD_SHARE_PKG_RESOURCES) {
				sd->imbalance_pct = 117;
				sd->cache_nice_tries = 1;
			} else if (flags & SD_NUMA) {
				sd->cache_nice_tries = 2;
				flags &= ~SD_PREFER_SIBLING;
				flags |= SD_SERIALIZE;
				if (t->numa_distances[tl->numa_level] > t->node_reclaim_distance)
					flags &= ~(SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE);
			} else {
				sd->cache_nice_tries = 1;
			}
			if (tl->overlap)
				flags |= SD_OVERLAP;
			sd->flags = flags;
			if (ss_cpumask_equal(span, bd->all, nw))
				break;
		}
	}
}

/*
 * sg->cores, as init_sched_groups_capacity() (topology.c v6.6) counts it:
 * for each CPU left in a copy of the span, one core, and its SMT siblings
 * (cpu_smt_mask(), the SMT level's mask) leave the copy.
 */
static unsigned group_cores(const struct builder *bd, const uint64_t *span)
{
	uint64_t *m = g_new(uint64_t, bd->nw);
	unsigned n = 0;

	ss_cpumask_copy(m, span, bd->nw);
	for (unsigned c = ss_cpumask_first(m, bd->n); c < bd->n; c = ss_cpumask_first(m, bd->n)) {
		n++;
		for (unsigned w = 0; w < bd->nw; w++)
			m[w] &= ~bd->tl[0].mask[c][w];
		ss_cpumask_clear_cpu(m, c);
	}
	g_free(m);
	return n;
}

static void fill_group(struct builder *bd, struct bgrp *g, const uint64_t *span,
		       const uint64_t *balance, unsigned id, unsigned flags)
{
	unsigned cap = 0;

	g->span = span;
	g->balance = balance;
	g->id = id;
	g->flags = flags;
	g->weight = ss_cpumask_weight(span, bd->nw);
	for (unsigned c = ss_cpumask_first(span, bd->n); c < bd->n; c = ss_cpumask_next(span, bd->n, c + 1))
		cap += bd->t->cpu[c].capacity;
	g->capacity = cap;
	g->cores = group_cores(bd, span);
}

/* First CPU >= start and < end in a but not in b; end if none. */
static unsigned next_andnot(const uint64_t *a, const uint64_t *b, unsigned end, unsigned start)
{
	unsigned w, nwords = ss_cpumask_words(end);
	uint64_t word;

	if (start >= end)
		return end;
	w = start / 64;
	word = a[w] & ~b[w] & (~UINT64_C(0) << (start % 64));
	for (;;) {
		if (word) {
			unsigned cpu = w * 64 + (unsigned)__builtin_ctzll(word);
			return cpu < end ? cpu : end;
		}
		if (++w >= nwords)
			return end;
		word = a[w] & ~b[w];
	}
}

/*
 * for_each_cpu_wrap(j, span, start) that skips the CPUs already in
 * "covered" (which only grows while the loop runs): the next such CPU after
 * *pos, advancing *pos; n when done. *wrapped starts false.
 */
static unsigned wrap_next_uncovered(const uint64_t *span, const uint64_t *covered, unsigned n,
				    unsigned start, unsigned *pos, bool *wrapped)
{
	unsigned j;

	if (start >= n)
		start = 0;
	if (!*wrapped) {
		j = next_andnot(span, covered, n, *pos);
		if (j < n) {
			*pos = j + 1;
			return j;
		}
		*wrapped = true;
		*pos = 0;
	}
	j = next_andnot(span, covered, start, *pos);
	if (j < start) {
		*pos = j + 1;
		return j;
	}
	return n;
}

/*
 * build_sched_groups()/get_group(): one group per child domain in the span.
 * The kernel shares these groups between the CPUs of the span and every CPU
 * relinks them in its own for_each_cpu_wrap() order; the CPUs are built in
 * ascending order, so the ring left behind is the one the highest CPU of
 * the span built, and each CPU's sd->groups points at its own group in it.
 * The ring is computed once per span, by its lowest CPU, and handed to every
 * CPU of the span whose domain has that span, with the index of its local
 * group (the last group holding it, were groups ever to overlap).
 */
static void build_groups(struct builder *bd, unsigned cpu, unsigned l)
{
	struct bsd *sd = BSD(bd, cpu, l);
	unsigned n = bd->n, nw = bd->nw;
	const uint64_t *span = sd->span;
	struct ring *ring;
	GArray *arr;
	unsigned last = cpu, pos, j;
	bool wrapped = false;

	for (unsigned c = ss_cpumask_first(span, n); c < n; c = ss_cpumask_next(span, n, c + 1))
		if (BSD(bd, c, l)->built)
			last = c;
	arr = g_array_new(FALSE, TRUE, sizeof(struct bgrp));
	ss_cpumask_zero(bd->tmp2, nw);
	pos = last;
	while ((j = wrap_next_uncovered(span, bd->tmp2, n, last, &pos, &wrapped)) < n) {
		struct bgrp g;
		const struct bsd *child = l ? BSD(bd, j, l - 1) : NULL;
		const uint64_t *gspan;

		if (child) {
			gspan = child->span;
			fill_group(bd, &g, gspan, gspan, ss_cpumask_first(gspan, n), child->flags);
		} else {
			gspan = single_mask(bd, j);
			fill_group(bd, &g, gspan, gspan, j, 0);
		}
		ss_cpumask_or(bd->tmp2, bd->tmp2, gspan, nw);
		g_array_append_val(arr, g);
	}
	ring = g_new0(struct ring, 1);
	ring->len = arr->len;
	ring->g = (struct bgrp *)g_array_free(arr, FALSE);
	g_ptr_array_add(bd->rings, ring);

	for (unsigned k = 0; k < ring->len; k++) {
		const uint64_t *gspan = ring->g[k].span;

		for (unsigned c = ss_cpumask_first(gspan, n); c < n; c = ss_cpumask_next(gspan, n, c + 1)) {
			struct bsd *o = BSD(bd, c, l);

			if (o->built && o->span == span && ss_cpumask_test(span, c) &&
			    (!o->ring || o->ring == ring)) {
				o->ring = ring;
				o->local = k;
				o->nr_groups = ring->len;
			}
		}
	}
}

/* Span-only facts of an overlapping group, shared by every CPU that builds it. */
struct ovl_key {
	const uint64_t *gspan;
	unsigned sl;
};

static guint ovl_hash(gconstpointer p)
{
	const struct ovl_key *k = p;

	return g_direct_hash(k->gspan) ^ (k->sl * 2654435761u);
}

static gboolean ovl_equal(gconstpointer a, gconstpointer b)
{
	const struct ovl_key *x = a, *y = b;

	return x->gspan == y->gspan && x->sl == y->sl;
}

/*
 * build_overlap_sched_groups() with find_descended_sibling() (v5.13+,
 * "sched/topology: fix the issue groups don't span domain->span for NUMA
 * diameter > 2") and build_balance_mask(). "sibling" is CPU j's domain at
 * level sl; a CPU whose hierarchy stopped below a level has the kernel's
 * zeroed sd there: empty span, no child. The balance mask, id, weight and
 * capacity depend on (group span, sl) only and are computed once (cache).
 */
static void build_overlap_groups(struct builder *bd, unsigned cpu, unsigned l, GHashTable *cache)
{
	struct bsd *sd = BSD(bd, cpu, l);
	unsigned n = bd->n, nw = bd->nw, pos = cpu, j;
	GArray *list = g_array_new(FALSE, TRUE, sizeof(struct bgrp));
	bool wrapped = false;

	ss_cpumask_zero(bd->tmp2, nw);
	while ((j = wrap_next_uncovered(sd->span, bd->tmp2, n, cpu, &pos, &wrapped)) < n) {
		const struct bsd *sibling = BSD(bd, j, l);
		const uint64_t *gspan;
		unsigned sl = l, gflags;
		struct ovl_key key;
		struct bgrp g, *tmpl;

		if (!sibling->built || !ss_cpumask_test(sibling->span, j))
			continue;
		if (sl > 0 && !ss_cpumask_subset(BSD(bd, j, sl - 1)->span, sd->span, nw)) {
			/* find_descended_sibling() */
			while (sl > 0 && !ss_cpumask_subset(BSD(bd, j, sl - 1)->span, sd->span, nw))
				sl--;
			while (sl > 0 && BSD(bd, j, sl - 1)->span == BSD(bd, j, sl)->span)
				sl--;
		}
		if (sl > 0) {
			gspan = BSD(bd, j, sl - 1)->span;
			gflags = BSD(bd, j, sl - 1)->flags;
		} else {
			gspan = BSD(bd, j, sl)->span;
			gflags = 0;
		}
		ss_cpumask_or(bd->tmp2, bd->tmp2, gspan, nw);

		key.gspan = gspan;
		key.sl = sl;
		tmpl = g_hash_table_lookup(cache, &key);
		if (!tmpl) {
			struct ovl_key *k2 = g_new(struct ovl_key, 1);
			const uint64_t *balance;
			unsigned id;

			/* build_balance_mask(sibling, sg) */
			ss_cpumask_zero(bd->tmp, nw);
			for (unsigned k = ss_cpumask_first(gspan, n); k < n; k = ss_cpumask_next(gspan, n, k + 1)) {
				const struct bsd *s2 = BSD(bd, k, sl);

				if (!s2->built || sl == 0)
					continue;
				if (BSD(bd, k, sl - 1)->span == gspan)
					ss_cpumask_set(bd->tmp, k);
			}
			/* WARN_ON_ONCE(cpumask_empty(mask)) cannot fire: j itself qualifies */
			balance = intern(bd->pv, bd->tmp);
			id = ss_cpumask_first(balance, n);
			if (id >= n)
				id = ss_cpumask_first(gspan, n);
			tmpl = g_new(struct bgrp, 1);
			fill_group(bd, tmpl, gspan, balance, id, 0);
			*k2 = key;
			g_hash_table_insert(cache, k2, tmpl);
		}
		g = *tmpl;
		g.flags = gflags;
		g_array_append_val(list, g);
	}
	sd->nr_groups = list->len;
	sd->groups = (struct bgrp *)g_array_free(list, FALSE);
}

static void ring_free(gpointer p)
{
	struct ring *r = p;

	g_free(r->g);
	g_free(r->flags);
	g_free(r->copies);
	g_free(r);
}

static void build_all_groups(struct builder *bd)
{
	for (unsigned l = 0; l < bd->nr_tl; l++) {
		GHashTable *cache = NULL;

		for (unsigned cpu = 0; cpu < bd->n; cpu++) {
			struct bsd *sd = BSD(bd, cpu, l);

			if (!sd->built)
				continue;
			if (sd->flags & SD_OVERLAP) {
				if (!cache)
					cache = g_hash_table_new_full(ovl_hash, ovl_equal, g_free, g_free);
				build_overlap_groups(bd, cpu, l, cache);
			} else if (!sd->ring) {
				build_groups(bd, cpu, l);
			}
		}
		if (cache)
			g_hash_table_destroy(cache);
	}
}

/* build_sched_domains(): "allowed NUMA imbalance such that LLCs do not get imbalanced" */
static void compute_imb_numa_nr(struct builder *bd)
{
	for (unsigned cpu = 0; cpu < bd->n; cpu++) {
		unsigned imb = 0, imb_span = 1;

		for (unsigned l = 0; l < bd->nr_tl && BSD(bd, cpu, l)->built; l++) {
			struct bsd *sd = BSD(bd, cpu, l), *child = l ? BSD(bd, cpu, l - 1) : NULL;

			if (!(sd->flags & SD_SHARE_PKG_RESOURCES) && child &&
			    (child->flags & SD_SHARE_PKG_RESOURCES)) {
				unsigned nr_llcs = sd->weight / child->weight, p;

				imb = nr_llcs == 1 ? sd->weight >> 3 : nr_llcs;
				imb = MAX(1u, imb);
				sd->imb_numa_nr = imb;
				/* Set span based on the first NUMA domain. */
				for (p = l + 1; p < bd->nr_tl && BSD(bd, cpu, p)->built; p++)
					if (BSD(bd, cpu, p)->flags & SD_NUMA)
						break;
				if (p < bd->nr_tl && BSD(bd, cpu, p)->built)
					imb_span = BSD(bd, cpu, p)->weight;
				else
					imb_span = sd->weight;
			} else {
				unsigned factor = MAX(1u, sd->weight / imb_span);

				sd->imb_numa_nr = imb * factor;
			}
		}
	}
}

/* sd_degenerate() (v6.6) on the CPU's working copy of the flags */
static bool sd_degenerate(const struct bsd *sd, unsigned flags, unsigned degen_mask)
{
	if (sd->weight == 1)
		return true;
	/* Following flags need at least 2 groups */
	if ((flags & degen_mask) && sd->nr_groups > 1)
		return false;
	/* Following flags don't use groups */
	if (flags & SD_WAKE_AFFINE)
		return false;
	return true;
}

static bool sd_parent_degenerate(const struct bsd *sd, unsigned cflags, const struct bsd *parent,
				 unsigned pflags, unsigned degen_mask)
{
	if (sd_degenerate(parent, pflags, degen_mask))
		return true;
	if (sd->span != parent->span)
		return false;
	/* Flags needing groups don't count if only 1 group in parent */
	if (parent->nr_groups == 1)
		pflags &= ~degen_mask;
	if (~cflags & pflags)
		return false;
	return true;
}

/*
 * cpu_attach_domain(): remove the domains that do not contribute. Works on a
 * doubly linked list of level indices; keeps the kernel's order of effects
 * (the grandparent's local group takes the new child's flags before
 * SD_PREFER_SIBLING moves down; removing the base domain clears the new
 * base's local group flags).
 */
static void attach_domain(struct builder *bd, unsigned cpu, unsigned degen_mask)
{
	unsigned nl = 0;
	int up[64 + NR_DISTANCE_VALUES], down[64 + NR_DISTANCE_VALUES];
	unsigned flags[64 + NR_DISTANCE_VALUES];
	int base, tmp;

	while (nl < bd->nr_tl && BSD(bd, cpu, nl)->built)
		nl++;
	for (unsigned l = 0; l < nl; l++) {
		up[l] = l + 1 < nl ? (int)l + 1 : -1;
		down[l] = (int)l - 1;
		flags[l] = BSD(bd, cpu, l)->flags;
	}
	base = nl ? 0 : -1;
	for (tmp = base; tmp >= 0;) {
		int parent = up[tmp];

		if (parent < 0)
			break;
		if (sd_parent_degenerate(BSD(bd, cpu, tmp), flags[tmp], BSD(bd, cpu, parent),
					 flags[parent], degen_mask)) {
			int gp = up[parent];

			up[tmp] = gp;
			if (gp >= 0) {
				struct bsd *g = BSD(bd, cpu, gp);

				down[gp] = tmp;
				g->has_override = true;
				g->override_flags = flags[tmp];
			}
			if (flags[parent] & SD_PREFER_SIBLING)
				flags[tmp] |= SD_PREFER_SIBLING;
			up[parent] = down[parent] = -2;	/* destroyed */
		} else {
			tmp = parent;
		}
	}
	if (base >= 0 && sd_degenerate(BSD(bd, cpu, base), flags[base], degen_mask)) {
		int nb = up[base];

		up[base] = -2;
		base = nb;
		if (base >= 0) {
			struct bsd *b = BSD(bd, cpu, base);

			/* the kernel's loop never advances: only the first group */
			b->has_override = true;
			b->override_flags = 0;
			down[base] = -1;
		}
	}
	for (tmp = base; tmp >= 0; tmp = up[tmp]) {
		BSD(bd, cpu, tmp)->kept = true;
		BSD(bd, cpu, tmp)->final_flags = flags[tmp];
	}
}

/* Flags of group k of CPU cpu's SD_OVERLAP level l once every CPU is attached. */
static unsigned overlap_group_flags(struct builder *bd, unsigned cpu, unsigned l, unsigned k)
{
	const struct bsd *sd = BSD(bd, cpu, l);

	/* private groups: only this CPU's own local group was rewritten */
	if (k == 0 && sd->has_override)
		return sd->override_flags;
	return sd->groups[k].flags;
}

/*
 * Flags of a shared group of level l: every CPU of the group rewrote it as
 * its local group, all to the same value; ask its first CPU.
 */
static unsigned shared_group_flags(struct builder *bd, unsigned l, const struct bgrp *g)
{
	const struct bsd *owner = BSD(bd, ss_cpumask_first(g->span, bd->n), l);

	if (owner->has_override)
		return owner->override_flags;
	return g->flags;
}

static void publish_group(struct builder *bd, struct ss_sched_group *pg, const struct bgrp *g, unsigned flags)
{
	pg->span = g->span;
	pg->balance_mask = g->balance;
	pg->weight = g->weight;
	pg->capacity = g->capacity;
	pg->id = g->id;
	pg->balance_cpu = ss_cpumask_first(g->balance, bd->n);
	pg->flags = flags;
	pg->cores = g->cores;
}

static void finish_cpu(struct builder *bd, unsigned cpu, GHashTable *llc_ids)
{
	struct ss_topology *t = bd->t;
	struct ss_cpu_topo *c = &t->cpu[cpu];
	unsigned nr = 0, k = 0, shared_child = sd_meta_mask(SDF_SHARED_CHILD);
	unsigned lv[64 + NR_DISTANCE_VALUES];
	int hsd = -1;

	for (unsigned l = 0; l < bd->nr_tl; l++)
		if (BSD(bd, cpu, l)->built && BSD(bd, cpu, l)->kept)
			nr++;
	c->nr_sd = nr;
	c->sd = nr ? g_new0(struct ss_sched_domain, nr) : NULL;
	for (unsigned l = 0; l < bd->nr_tl; l++) {
		const struct bsd *b = BSD(bd, cpu, l);
		struct ss_sched_domain *d;
		struct ss_sched_group *g;

		if (!b->built || !b->kept)
			continue;
		d = &c->sd[k];
		d->level = bd->tl[l].kind;
		g_strlcpy(d->name, bd->tl[l].name, sizeof(d->name));
		d->numa_level = bd->tl[l].numa_level;
		d->level_index = k;
		d->span = b->span;
		d->span_weight = b->weight;
		d->flags = b->final_flags;
		d->imbalance_pct = b->imbalance_pct;
		d->cache_nice_tries = b->cache_nice_tries;
		d->busy_factor = 16;
		d->min_interval = b->sd_weight;
		d->max_interval = 2 * b->sd_weight;
		d->imb_numa_nr = b->imb_numa_nr;
		d->nr_groups = b->nr_groups;
		if (b->ring) {
			struct ring *r = b->ring;

			if (!r->flags) {
				r->flags = g_new(unsigned, r->len);
				for (unsigned q = 0; q < r->len; q++)
					r->flags[q] = shared_group_flags(bd, l, &r->g[q]);
			}
			if (r->len <= GROUP_COPY_MAX) {
				if (!r->copies)
					r->copies = g_new0(struct ss_sched_group *, r->len);
				g = r->copies[b->local];
				if (!g) {
					g = priv_alloc(bd->pv, r->len * sizeof(*g));
					for (unsigned q = 0; q < r->len; q++) {
						unsigned rk = (b->local + q) % r->len;

						publish_group(bd, &g[q], &r->g[rk], r->flags[rk]);
						g[q].next = &g[(q + 1) % r->len];
					}
					r->copies[b->local] = g;
				}
				d->groups = g;
			} else {
				if (!r->pub) {
					r->pub = priv_alloc(bd->pv, r->len * sizeof(*r->pub));
					for (unsigned q = 0; q < r->len; q++) {
						publish_group(bd, &r->pub[q], &r->g[q], r->flags[q]);
						r->pub[q].next = &r->pub[(q + 1) % r->len];
					}
				}
				d->groups = &r->pub[b->local];
			}
		} else {
			g = priv_alloc(bd->pv, b->nr_groups * sizeof(*g));
			for (unsigned q = 0; q < b->nr_groups; q++) {
				publish_group(bd, &g[q], &b->groups[q], overlap_group_flags(bd, cpu, l, q));
				g[q].next = &g[(q + 1) % b->nr_groups];
			}
			d->groups = g;
		}
		d->parent = k + 1 < nr ? &c->sd[k + 1] : NULL;
		d->child = k ? &c->sd[k - 1] : NULL;
		lv[k] = l;
		k++;
	}

	/* update_top_cache_domain(): highest_flag_domain(cpu, SD_SHARE_PKG_RESOURCES) */
	for (unsigned q = 0; q < nr; q++) {
		if (c->sd[q].flags & SD_SHARE_PKG_RESOURCES) {
			hsd = (int)q;
			continue;
		}
		if (SD_SHARE_PKG_RESOURCES & shared_child)
			break;
	}
	c->sd_llc = hsd;
	if (hsd >= 0) {
		const struct ss_sched_domain *llc = &c->sd[hsd];
		unsigned level = lv[hsd];
		gpointer key, idx;

		c->llc_id = ss_cpumask_first(llc->span, bd->n);
		c->llc_size = llc->span_weight;
		/* sd->shared is per (topology level, first CPU of the span) */
		key = GUINT_TO_POINTER(level * bd->n + c->llc_id + 1);
		if (!g_hash_table_lookup_extended(llc_ids, key, NULL, &idx)) {
			idx = GUINT_TO_POINTER(t->nr_llc_shared++);
			g_hash_table_insert(llc_ids, key, idx);
		}
		c->llc_index = GPOINTER_TO_UINT(idx);
	} else {
		/* no sd_llc_shared in the kernel; give the CPU one of its own */
		c->llc_id = cpu;
		c->llc_size = 1;
		c->llc_index = t->nr_llc_shared++;
	}
	c->sd_numa = -1;
	for (unsigned q = 0; q < nr; q++) {
		if (c->sd[q].flags & SD_NUMA) {
			c->sd_numa = (int)q;
			break;
		}
	}
	/* update_top_cache_domain(): lowest_flag_domain(cpu, SD_ASYM_CPUCAPACITY_FULL) */
	c->sd_asym_cpucapacity = -1;
	for (unsigned q = 0; q < nr; q++) {
		if (c->sd[q].flags & SD_ASYM_CPUCAPACITY_FULL) {
			c->sd_asym_cpucapacity = (int)q;
			break;
		}
	}
}

/*
 * sched_init_numa() (v6.6) checks node_distance(j, k) != node_distance(k, j)
 * only under sched_verbose ("Node-distance not symmetric") and builds the
 * masks from each node's row regardless; say so once per machine.
 */
static void warn_asymmetric(struct ss_topology *t, struct topo_priv *pv)
{
	unsigned nn = t->nr_nodes;

	for (unsigned a = 0; a < nn; a++) {
		for (unsigned b = a + 1; b < nn; b++) {
			unsigned ab = t->distance[a * nn + b], ba = t->distance[b * nn + a];

			if (ab == ba)
				continue;
			g_ptr_array_insert(pv->warnings, (gint)pv->warnings->len - 1,
				g_strdup_printf("%s%sthe NUMA distance matrix is asymmetric (distance[%u][%u] is %u, "
						"distance[%u][%u] is %u): each node's NUMA spans come from its own row, "
						"node_distance(node, k), as v6.6 sched_init_numa() builds them",
						t->file ? t->file : "", t->file ? ": " : "", a, b, ab, b, a, ba));
			return;
		}
	}
}

const char *const *ss_topology_warnings(const struct ss_topology *t)
{
	static const char *const none[] = { NULL };
	const struct topo_priv *pv = t ? t->priv : NULL;

	return pv ? (const char *const *)pv->warnings->pdata : none;
}

int ss_topology_build(struct ss_topology *t, GError **err)
{
	struct builder bd = { 0 };
	unsigned degen_mask = sd_meta_mask(SDF_NEEDS_GROUPS);
	GHashTable *llc_ids;

	if (!t || t->priv) {
		set_err(err, "ss_topology_build: %s", t ? "topology already built" : "no topology");
		return -1;
	}
	if (!validate_machine(t, err))
		return -1;
	bd.t = t;
	bd.n = t->nr_cpus;
	bd.nw = t->nr_words;
	bd.pv = priv_new(bd.nw);
	t->priv = bd.pv;
	warn_asymmetric(t, bd.pv);
	bd.tmp = g_new0(uint64_t, bd.nw);
	bd.tmp2 = g_new0(uint64_t, bd.nw);
	bd.rings = g_ptr_array_new_with_free_func(ring_free);
	bd.empty = intern(bd.pv, bd.tmp);
	t->nr_active = 0;
	for (unsigned i = 0; i < bd.n; i++) {
		struct ss_cpu_topo *c = &t->cpu[i];

		if (!c->offline) {
			ss_cpumask_set(bd.tmp, i);
			t->nr_active++;
			continue;
		}
		c->package = c->node = c->die = c->llc = c->cluster = c->core = 0;
	}
	bd.all = intern(bd.pv, bd.tmp);
	t->active_mask = bd.all;

	t->smt_threads = 0;
	{
		unsigned *threads = g_new0(unsigned, t->nr_cores);

		for (unsigned i = 0; i < bd.n; i++)
			if (!t->cpu[i].offline && ++threads[t->cpu[i].core] > t->smt_threads)
				t->smt_threads = threads[t->cpu[i].core];
		g_free(threads);
	}
	capacity_classes(&bd);
	build_tl(&bd);
	bd.b = g_new0(struct bsd, (size_t)bd.n * bd.nr_tl);
	build_domains(&bd);
	build_all_groups(&bd);
	compute_imb_numa_nr(&bd);
	/* build_sched_domains(): has_asym |= sd->flags & SD_ASYM_CPUCAPACITY, before attaching */
	t->asym_cpucap_active = false;
	for (size_t i = 0; i < (size_t)bd.n * bd.nr_tl; i++)
		if (bd.b[i].built && (bd.b[i].flags & SD_ASYM_CPUCAPACITY))
			t->asym_cpucap_active = true;
	for (unsigned cpu = 0; cpu < bd.n; cpu++)
		if (!t->cpu[cpu].offline)
			attach_domain(&bd, cpu, degen_mask);

	llc_ids = g_hash_table_new(g_direct_hash, g_direct_equal);
	t->nr_llc_shared = 0;
	for (unsigned cpu = 0; cpu < bd.n; cpu++) {
		struct ss_cpu_topo *c = &t->cpu[cpu];

		if (c->offline) {
			/* no domain, no sd_llc_shared: nothing runs there */
			c->nr_sd = 0;
			c->sd = NULL;
			c->sd_llc = c->sd_numa = c->sd_asym_cpucapacity = -1;
			c->llc_id = cpu;
			c->llc_size = 1;
			c->llc_index = 0;
		} else {
			finish_cpu(&bd, cpu, llc_ids);
		}
		c->smt_mask = bd.tl[0].mask[cpu];
		c->cluster_mask = bd.tl[1].mask[cpu];
		c->llc_mask = bd.tl[2].mask[cpu];
	}
	g_hash_table_destroy(llc_ids);
	{
		/* cpumask_of_node() */
		const uint64_t **node = level_masks(&bd, offsetof(struct ss_cpu_topo, node), t->nr_nodes);

		for (unsigned cpu = 0; cpu < bd.n; cpu++)
			t->cpu[cpu].node_mask = node[cpu];
	}

	for (size_t i = 0; i < (size_t)bd.n * bd.nr_tl; i++)
		g_free(bd.b[i].groups);
	g_free(bd.b);
	g_ptr_array_free(bd.rings, TRUE);
	g_free(bd.tmp);
	g_free(bd.tmp2);
	return 0;
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

struct fmtbuf {
	char *buf;
	unsigned len;
};

static const char *cpulist(const struct ss_topology *t, struct fmtbuf *fb, const uint64_t *m)
{
	return ss_cpumask_format_list(m, t->nr_cpus, fb->buf, fb->len);
}

static void flags_text(GString *s, unsigned flags)
{
	bool first = true;

	for (unsigned i = 0; i < NR_SD_FLAGS; i++) {
		if (!(flags & sd_flag_table[i].flag))
			continue;
		g_string_append_printf(s, "%s%s", first ? "" : "|", sd_flag_table[i].name);
		first = false;
	}
	if (first)
		g_string_append(s, "0");
}

/* Threads of the core holding cpu, "a,b" (CPU numbers ascending). */
static void core_text(const struct ss_topology *t, GString *s, unsigned cpu)
{
	const uint64_t *m = t->cpu[cpu].smt_mask;
	bool first = true;

	for (unsigned c = ss_cpumask_first(m, t->nr_cpus); c < t->nr_cpus; c = ss_cpumask_next(m, t->nr_cpus, c + 1)) {
		g_string_append_printf(s, "%s%u", first ? "" : ",", c);
		first = false;
	}
}

/*
 * The compact tree: packages > nodes > LLCs > clusters > cores (threads).
 * Entries in order of their first CPU; a cluster line only where clusters
 * differ from cores.
 */
static void tree_text(const struct ss_topology *t, struct fmtbuf *fb, GString *s)
{
	unsigned n = t->nr_cpus, nw = t->nr_words;
	bool clusters = t->nr_clusters != t->nr_cores;
	uint64_t *seen = g_new0(uint64_t, 4 * (size_t)nw);
	uint64_t *seen_node = seen, *seen_llc = seen + nw, *seen_cls = seen + 2 * nw, *pkg = seen + 3 * nw;

	g_string_append_printf(s, "tree (package > node > llc%s > core threads):\n", clusters ? " > cluster" : "");
	for (unsigned p = 0; p < t->nr_packages; p++) {
		bool printed = false;

		ss_cpumask_zero(pkg, nw);
		for (unsigned c = 0; c < n; c++)
			if (!t->cpu[c].offline && t->cpu[c].package == p)
				ss_cpumask_set(pkg, c);
		for (unsigned c = ss_cpumask_first(pkg, n); c < n; c = ss_cpumask_next(pkg, n, c + 1)) {
			const struct ss_cpu_topo *ct = &t->cpu[c];

			if (!printed) {
				g_string_append_printf(s, "package %u: %s\n", p, cpulist(t, fb, pkg));
				printed = true;
			}
			if (!ss_cpumask_test(seen_node, c)) {
				ss_cpumask_or(seen_node, seen_node, ct->node_mask, nw);
				g_string_append_printf(s, "  node %u: %s\n", ss_node_id(t, ct->node), cpulist(t, fb, ct->node_mask));
			}
			if (!ss_cpumask_test(seen_llc, c)) {
				ss_cpumask_or(seen_llc, seen_llc, ct->llc_mask, nw);
				g_string_append_printf(s, "    llc %s:", cpulist(t, fb, ct->llc_mask));
				if (clusters)
					g_string_append_c(s, '\n');
				else
					for (unsigned d = c; d < n; d = ss_cpumask_next(ct->llc_mask, n, d + 1))
						if (ss_cpumask_first(t->cpu[d].smt_mask, n) == d) {
							g_string_append_c(s, ' ');
							core_text(t, s, d);
						}
				if (!clusters)
					g_string_append_c(s, '\n');
			}
			if (clusters && !ss_cpumask_test(seen_cls, c)) {
				ss_cpumask_or(seen_cls, seen_cls, ct->cluster_mask, nw);
				g_string_append_printf(s, "      cluster %s:", cpulist(t, fb, ct->cluster_mask));
				for (unsigned d = c; d < n; d = ss_cpumask_next(ct->cluster_mask, n, d + 1))
					if (ss_cpumask_first(t->cpu[d].smt_mask, n) == d) {
						g_string_append_c(s, ' ');
						core_text(t, s, d);
					}
				g_string_append_c(s, '\n');
			}
		}
	}
	/* offline CPUs: numbered, in no package (v6.6 keeps nr_cpu_ids) */
	for (unsigned c = 0; c < n; c++)
		if (t->cpu[c].offline)
			g_string_append_printf(s, "cpu%u offline\n", c);
	g_free(seen);
}

/* "SMT(2) -> MC(16) -> ..." of one CPU */
static void stack_text(const struct ss_topology *t, GString *s, unsigned cpu)
{
	const struct ss_cpu_topo *ct = &t->cpu[cpu];

	if (!ct->nr_sd)
		g_string_append(s, "none");
	for (unsigned l = 0; l < ct->nr_sd; l++)
		g_string_append_printf(s, "%s%s(%u)", l ? " -> " : "", ct->sd[l].name, ct->sd[l].span_weight);
}

/*
 * The per-level domain table: one row per distinct (position, level,
 * span weight, imbalance_pct, flags), with the number of CPUs that have it;
 * then each distinct bottom-up stack of levels with its CPUs.
 */
static void levels_text(const struct ss_topology *t, struct fmtbuf *fb, GString *s)
{
	unsigned n = t->nr_cpus;
	GPtrArray *stacks = g_ptr_array_new_with_free_func(g_free);
	GArray *stack_cpu = g_array_new(FALSE, FALSE, sizeof(unsigned));
	unsigned max_sd = 0;

	for (unsigned c = 0; c < n; c++)
		max_sd = MAX(max_sd, t->cpu[c].nr_sd);
	g_string_append(s, "sched domains (v6.6, per CPU bottom-up after degeneration):\n");
	g_string_append_printf(s, "  %-5s %-5s %11s %13s %5s  %s\n", "level", "name", "span_weight", "imbalance_pct",
			       "CPUs", "flags");
	for (unsigned l = 0; l < max_sd; l++) {
		bool *done = g_new0(bool, n);

		for (unsigned c = 0; c < n; c++) {
			const struct ss_sched_domain *sd;
			unsigned count = 0;

			if (done[c] || t->cpu[c].nr_sd <= l)
				continue;
			sd = &t->cpu[c].sd[l];
			for (unsigned d = c; d < n; d++) {
				const struct ss_sched_domain *e;

				if (done[d] || t->cpu[d].nr_sd <= l)
					continue;
				e = &t->cpu[d].sd[l];
				if (!strcmp(e->name, sd->name) && e->span_weight == sd->span_weight &&
				    e->imbalance_pct == sd->imbalance_pct && e->flags == sd->flags) {
					done[d] = true;
					count++;
				}
			}
			g_string_append_printf(s, "  %-5u %-5s %11u %13u %5u  ", l, sd->name, sd->span_weight,
					       sd->imbalance_pct, count);
			flags_text(s, sd->flags);
			g_string_append_c(s, '\n');
		}
		g_free(done);
	}
	for (unsigned c = 0; c < n; c++) {
		GString *st;
		unsigned k;

		if (t->cpu[c].offline)
			continue;
		st = g_string_new(NULL);
		stack_text(t, st, c);
		for (k = 0; k < stacks->len; k++)
			if (!strcmp(g_ptr_array_index(stacks, k), st->str))
				break;
		if (k == stacks->len) {
			g_ptr_array_add(stacks, g_string_free(st, FALSE));
			g_array_append_val(stack_cpu, c);
		} else {
			g_string_free(st, TRUE);
		}
	}
	if (stacks->len == 1) {
		g_string_append_printf(s, "levels: %s\n", (const char *)g_ptr_array_index(stacks, 0));
	} else {
		uint64_t *m = g_new0(uint64_t, t->nr_words);

		for (unsigned k = 0; k < stacks->len; k++) {
			GString *st = g_string_new(NULL);

			ss_cpumask_zero(m, t->nr_words);
			for (unsigned c = 0; c < n; c++) {
				if (t->cpu[c].offline)
					continue;
				g_string_truncate(st, 0);
				stack_text(t, st, c);
				if (!strcmp(st->str, g_ptr_array_index(stacks, k)))
					ss_cpumask_set(m, c);
			}
			g_string_append_printf(s, "levels of CPUs %s: %s\n", cpulist(t, fb, m),
					       (const char *)g_ptr_array_index(stacks, k));
			g_string_free(st, TRUE);
		}
		g_free(m);
	}
	g_ptr_array_free(stacks, TRUE);
	g_array_free(stack_cpu, TRUE);
}

static void describe_text(const struct ss_topology *t, struct fmtbuf *fb, GString *s)
{
	unsigned nn = t->nr_nodes;

	g_string_append_printf(s, "machine %s: vendor %s, %u CPUs, %u packages, %u nodes, %u dies, "
			       "%u LLCs, %u clusters, %u cores, %u thread%s/core\n",
			       t->name, t->vendor, t->nr_cpus, t->nr_packages, t->nr_nodes, t->nr_dies,
			       t->nr_llcs, t->nr_clusters, t->nr_cores, t->smt_threads,
			       t->smt_threads == 1 ? "" : "s");
	if (t->nr_active < t->nr_cpus) {
		uint64_t *off = g_new0(uint64_t, t->nr_words);

		for (unsigned c = 0; c < t->nr_cpus; c++)
			if (t->cpu[c].offline)
				ss_cpumask_set(off, c);
		g_string_append_printf(s, "offline CPUs: %s (%u online; no domains, in no mask, nothing runs there)\n",
				       cpulist(t, fb, off), t->nr_active);
		g_free(off);
	}
	if (t->description)
		g_string_append_printf(s, "description: %s\n", t->description);
	if (t->base_freq_khz)
		g_string_append_printf(s, "frequency: base %" G_GUINT64_FORMAT " MHz, max %" G_GUINT64_FORMAT " MHz\n",
				       t->base_freq_khz / 1000, t->max_freq_khz / 1000);
	g_string_append_printf(s, "node_reclaim_distance: %u\n", t->node_reclaim_distance);
	{
		/* what a run uses: the file's value (*) or the parameter's default */
		struct ss_params p;
		ss_params_defaults(&p, t);
		g_string_append_printf(s, "probe costs (ns; * = from this file, else the default): smt %" G_GUINT64_FORMAT "%s, "
				       "cluster %" G_GUINT64_FORMAT "%s, llc %" G_GUINT64_FORMAT "%s, package %" G_GUINT64_FORMAT
				       "%s, remote %" G_GUINT64_FORMAT "%s, cached line %" G_GUINT64_FORMAT "%s\n",
				       p.probe_smt_ns, t->probe_smt_ns ? "*" : "", p.probe_cluster_ns, t->probe_cluster_ns ? "*" : "",
				       p.probe_llc_ns, t->probe_llc_ns ? "*" : "", p.probe_package_ns, t->probe_package_ns ? "*" : "",
				       p.probe_remote_ns, t->probe_remote_ns ? "*" : "", p.line_cached_ns, t->line_cached_ns ? "*" : "");
		g_string_append_printf(s, "background work (* = from this file, else the default): tick %" G_GUINT64_FORMAT " ns%s, "
				       "kworker %" G_GUINT64_FORMAT " per CPU-second%s of %" G_GUINT64_FORMAT " ns%s\n",
				       p.tick_ns, t->tick_ns ? "*" : "", p.kthread_rate_hz, t->kthread_rate_hz ? "*" : "",
				       p.kthread_ns, t->kthread_ns ? "*" : "");
	}
	g_string_append(s, "numa levels (sched_domains_numa_distance):");
	for (unsigned i = 0; i < t->nr_numa_levels; i++)
		g_string_append_printf(s, " %u", t->numa_distances[i]);
	{
		bool asym = false;

		for (unsigned a = 0; a < nn; a++)
			for (unsigned b = 0; b < nn; b++)
				asym |= ss_node_distance(t, a, b) != ss_node_distance(t, b, a);
		/* an asymmetric matrix: say which way it reads (the spans follow the rows) */
		g_string_append(s, asym ? "\nnode distances (asymmetric; row = from, column = to):\nnode "
					: "\nnode distances:\nnode ");
	}
	for (unsigned b = 0; b < nn; b++)
		g_string_append_printf(s, " %3u", ss_node_id(t, b));
	g_string_append_c(s, '\n');
	for (unsigned a = 0; a < nn; a++) {
		g_string_append_printf(s, "%3u: ", ss_node_id(t, a));
		for (unsigned b = 0; b < nn; b++)
			g_string_append_printf(s, " %3u", ss_node_distance(t, a, b));
		g_string_append_c(s, '\n');
	}
	for (unsigned a = 0; a < nn; a++) {
		for (unsigned c = 0; c < t->nr_cpus; c++) {
			if (!t->cpu[c].offline && t->cpu[c].node == a) {
				g_string_append_printf(s, "node %u cpus: %s\n", ss_node_id(t, a), cpulist(t, fb, t->cpu[c].node_mask));
				break;
			}
		}
	}
	tree_text(t, fb, s);
	levels_text(t, fb, s);
	g_string_append(s, "per CPU (the kernel's sched_domain debug layout):\n");
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		const struct ss_cpu_topo *ct = &t->cpu[c];

		if (ct->offline) {
			g_string_append_printf(s, "CPU%u offline\n", c);
			continue;
		}
		if (!ct->nr_sd) {
			g_string_append_printf(s, "CPU%u attaching NULL sched-domain.\n", c);
		} else {
			g_string_append_printf(s, "CPU%u attaching sched-domain(s):\n", c);
		}
		for (unsigned l = 0; l < ct->nr_sd; l++) {
			const struct ss_sched_domain *sd = &ct->sd[l];
			const struct ss_sched_group *g = sd->groups;

			g_string_append_printf(s, "%*s domain-%u: span=%s level=%s\n", (int)l, "", l,
					       cpulist(t, fb, sd->span), sd->name);
			g_string_append_printf(s, "%*s flags=", (int)l + 1, "");
			flags_text(s, sd->flags);
			g_string_append_printf(s, " span_weight=%u imbalance_pct=%u cache_nice_tries=%u "
					       "busy_factor=%u min_interval=%u max_interval=%u imb_numa_nr=%u\n",
					       sd->span_weight, sd->imbalance_pct, sd->cache_nice_tries,
					       sd->busy_factor, sd->min_interval, sd->max_interval, sd->imb_numa_nr);
			g_string_append_printf(s, "%*s groups:", (int)l + 1, "");
			for (unsigned k = 0; k < sd->nr_groups; k++, g = g->next) {
				g_string_append_printf(s, " %u:{ span=%s", g->id, cpulist(t, fb, g->span));
				if ((sd->flags & SD_OVERLAP) && !ss_cpumask_equal(g->balance_mask, g->span, t->nr_words))
					g_string_append_printf(s, " mask=%s", cpulist(t, fb, g->balance_mask));
				g_string_append_printf(s, " cap=%u }%s", g->capacity, k + 1 < sd->nr_groups ? "," : "");
			}
			g_string_append_c(s, '\n');
		}
		g_string_append_printf(s, " smt=%s cluster=%s", cpulist(t, fb, ct->smt_mask),
				       cpulist(t, fb, ct->cluster_mask));
		g_string_append_printf(s, " llc=%s", cpulist(t, fb, ct->llc_mask));
		g_string_append_printf(s, " node=%s", cpulist(t, fb, ct->node_mask));
		if (ct->sd_llc >= 0)
			g_string_append_printf(s, " sd_llc=domain-%d", ct->sd_llc);
		else
			g_string_append(s, " sd_llc=none");
		g_string_append_printf(s, " llc_size=%u llc_id=%u llc_index=%u", ct->llc_size, ct->llc_id,
				       ct->llc_index);
		if (ct->sd_numa >= 0)
			g_string_append_printf(s, " sd_numa=domain-%d\n", ct->sd_numa);
		else
			g_string_append(s, " sd_numa=none\n");
	}
}

static cJSON *flags_json(unsigned flags)
{
	cJSON *a = cJSON_CreateArray();

	for (unsigned i = 0; i < NR_SD_FLAGS; i++)
		if (flags & sd_flag_table[i].flag)
			cJSON_AddItemToArray(a, cJSON_CreateString(sd_flag_table[i].name));
	return a;
}

static cJSON *topology_json(const struct ss_topology *t, struct fmtbuf *fb)
{
	cJSON *root = cJSON_CreateObject(), *o, *a, *cpus;
	unsigned nn = t->nr_nodes;

	cJSON_AddStringToObject(root, "name", t->name);
	cJSON_AddStringToObject(root, "vendor", t->vendor);
	if (t->description)
		cJSON_AddStringToObject(root, "description", t->description);
	else
		cJSON_AddNullToObject(root, "description");
	cJSON_AddNumberToObject(root, "nr_cpus", t->nr_cpus);
	if (t->nr_active < t->nr_cpus) {
		uint64_t *off = g_new0(uint64_t, t->nr_words);

		for (unsigned c = 0; c < t->nr_cpus; c++)
			if (t->cpu[c].offline)
				ss_cpumask_set(off, c);
		cJSON_AddNumberToObject(root, "nr_online", t->nr_active);
		cJSON_AddStringToObject(root, "offline", cpulist(t, fb, off));
		g_free(off);
	}
	cJSON_AddNumberToObject(root, "nr_packages", t->nr_packages);
	cJSON_AddNumberToObject(root, "nr_nodes", t->nr_nodes);
	cJSON_AddNumberToObject(root, "nr_dies", t->nr_dies);
	cJSON_AddNumberToObject(root, "nr_llcs", t->nr_llcs);
	cJSON_AddNumberToObject(root, "nr_clusters", t->nr_clusters);
	cJSON_AddNumberToObject(root, "nr_cores", t->nr_cores);
	cJSON_AddNumberToObject(root, "smt_threads", t->smt_threads);
	cJSON_AddNumberToObject(root, "nr_llc_shared", t->nr_llc_shared);
	o = cJSON_AddObjectToObject(root, "frequency");
	cJSON_AddNumberToObject(o, "base_khz", (double)t->base_freq_khz);
	cJSON_AddNumberToObject(o, "max_khz", (double)t->max_freq_khz);
	cJSON_AddNumberToObject(root, "node_reclaim_distance", t->node_reclaim_distance);
	o = cJSON_AddObjectToObject(root, "costs");
	cJSON_AddNumberToObject(o, "probe_smt_ns", t->probe_smt_ns);
	cJSON_AddNumberToObject(o, "probe_cluster_ns", t->probe_cluster_ns);
	cJSON_AddNumberToObject(o, "probe_llc_ns", t->probe_llc_ns);
	cJSON_AddNumberToObject(o, "probe_package_ns", t->probe_package_ns);
	cJSON_AddNumberToObject(o, "probe_remote_ns", t->probe_remote_ns);
	cJSON_AddNumberToObject(o, "line_cached_ns", t->line_cached_ns);
	cJSON_AddNumberToObject(o, "smt_contention_pct", t->smt_contention_pct);
	cJSON_AddNumberToObject(o, "node_bandwidth_mbps", t->node_bandwidth_mbps);
	cJSON_AddNumberToObject(o, "tick_ns", t->tick_ns);
	cJSON_AddNumberToObject(o, "kthread_rate_hz", t->kthread_rate_hz);
	cJSON_AddNumberToObject(o, "kthread_ns", t->kthread_ns);
	o = cJSON_AddObjectToObject(root, "numa");
	a = cJSON_AddArrayToObject(o, "distance");
	for (unsigned r = 0; r < nn; r++) {
		cJSON *row = cJSON_CreateArray();

		for (unsigned c = 0; c < nn; c++)
			cJSON_AddItemToArray(row, cJSON_CreateNumber(ss_node_distance(t, r, c)));
		cJSON_AddItemToArray(a, row);
	}
	/* the firmware id of each node, in the order of the distance rows and node_cpus */
	a = cJSON_AddArrayToObject(o, "node_ids");
	for (unsigned r = 0; r < nn; r++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(ss_node_id(t, r)));
	a = cJSON_AddArrayToObject(o, "levels");
	for (unsigned i = 0; i < t->nr_numa_levels; i++)
		cJSON_AddItemToArray(a, cJSON_CreateNumber(t->numa_distances[i]));
	a = cJSON_AddArrayToObject(o, "node_cpus");
	for (unsigned r = 0; r < nn; r++)
		for (unsigned c = 0; c < t->nr_cpus; c++)
			if (!t->cpu[c].offline && t->cpu[c].node == r) {
				cJSON_AddItemToArray(a, cJSON_CreateString(cpulist(t, fb, t->cpu[c].node_mask)));
				break;
			}

	cpus = cJSON_AddArrayToObject(root, "cpus");
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		const struct ss_cpu_topo *ct = &t->cpu[c];
		cJSON *co = cJSON_CreateObject(), *doms;

		cJSON_AddNumberToObject(co, "cpu", c);
		if (ct->offline) {
			/* present only on machines with offline CPUs, so other output is unchanged */
			cJSON_AddBoolToObject(co, "offline", true);
			cJSON_AddItemToArray(cpus, co);
			continue;
		}
		cJSON_AddNumberToObject(co, "package", ct->package);
		cJSON_AddNumberToObject(co, "node", ss_node_id(t, ct->node));   /* the firmware id */
		cJSON_AddNumberToObject(co, "die", ct->die);
		cJSON_AddNumberToObject(co, "llc", ct->llc);
		cJSON_AddNumberToObject(co, "cluster", ct->cluster);
		cJSON_AddNumberToObject(co, "core", ct->core);
		cJSON_AddNumberToObject(co, "capacity", ct->capacity);
		cJSON_AddStringToObject(co, "smt_mask", cpulist(t, fb, ct->smt_mask));
		cJSON_AddStringToObject(co, "cluster_mask", cpulist(t, fb, ct->cluster_mask));
		cJSON_AddStringToObject(co, "llc_mask", cpulist(t, fb, ct->llc_mask));
		cJSON_AddStringToObject(co, "node_mask", cpulist(t, fb, ct->node_mask));
		cJSON_AddNumberToObject(co, "sd_llc", ct->sd_llc);
		cJSON_AddNumberToObject(co, "llc_size", ct->llc_size);
		cJSON_AddNumberToObject(co, "llc_id", ct->llc_id);
		cJSON_AddNumberToObject(co, "llc_index", ct->llc_index);
		cJSON_AddNumberToObject(co, "sd_numa", ct->sd_numa);
		doms = cJSON_AddArrayToObject(co, "domains");
		for (unsigned l = 0; l < ct->nr_sd; l++) {
			const struct ss_sched_domain *sd = &ct->sd[l];
			const struct ss_sched_group *g = sd->groups;
			cJSON *d = cJSON_CreateObject(), *grps;

			cJSON_AddNumberToObject(d, "level", sd->level_index);
			cJSON_AddStringToObject(d, "name", sd->name);
			cJSON_AddNumberToObject(d, "numa_level", sd->numa_level);
			cJSON_AddStringToObject(d, "span", cpulist(t, fb, sd->span));
			cJSON_AddNumberToObject(d, "span_weight", sd->span_weight);
			cJSON_AddItemToObject(d, "flags", flags_json(sd->flags));
			cJSON_AddNumberToObject(d, "imbalance_pct", sd->imbalance_pct);
			cJSON_AddNumberToObject(d, "cache_nice_tries", sd->cache_nice_tries);
			cJSON_AddNumberToObject(d, "busy_factor", sd->busy_factor);
			cJSON_AddNumberToObject(d, "min_interval", sd->min_interval);
			cJSON_AddNumberToObject(d, "max_interval", sd->max_interval);
			cJSON_AddNumberToObject(d, "imb_numa_nr", sd->imb_numa_nr);
			grps = cJSON_AddArrayToObject(d, "groups");
			for (unsigned k = 0; k < sd->nr_groups; k++, g = g->next) {
				cJSON *go = cJSON_CreateObject();

				cJSON_AddNumberToObject(go, "id", g->id);
				cJSON_AddStringToObject(go, "span", cpulist(t, fb, g->span));
				cJSON_AddStringToObject(go, "balance_mask", cpulist(t, fb, g->balance_mask));
				cJSON_AddNumberToObject(go, "weight", g->weight);
				cJSON_AddNumberToObject(go, "capacity", g->capacity);
				cJSON_AddItemToObject(go, "flags", flags_json(g->flags));
				cJSON_AddItemToArray(grps, go);
			}
			cJSON_AddItemToArray(doms, d);
		}
		cJSON_AddItemToArray(cpus, co);
	}
	return root;
}

/* A YAML double-quoted string. */
static void yaml_string(GString *s, const char *v)
{
	g_string_append_c(s, '"');
	for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
		switch (*p) {
		case '"':
			g_string_append(s, "\\\"");
			break;
		case '\\':
			g_string_append(s, "\\\\");
			break;
		case '\n':
			g_string_append(s, "\\n");
			break;
		case '\t':
			g_string_append(s, "\\t");
			break;
		case '\r':
			g_string_append(s, "\\r");
			break;
		default:
			if (*p < 0x20 || *p == 0x7f)
				g_string_append_printf(s, "\\x%02x", *p);
			else
				g_string_append_c(s, (char)*p);
		}
	}
	g_string_append_c(s, '"');
}

/*
 * YAML: the machine as a loadable topology file, in the form `simsched topo
 * import` writes (the importers' writer), plus what only a file gives
 * (description, reclaim distance, frequency, costs, idle states); the sched
 * domains built for it as comments.
 */
static void describe_yaml(const struct ss_topology *t, struct fmtbuf *fb, GString *s)
{
	GString *hdr = g_string_new(NULL), *lv = g_string_new(NULL), *x = g_string_new(NULL);
	char *body, *line, *nl;

	g_string_append(hdr, "# simsched topo --format yaml: a topology file (docs/topologies.md); loading it builds\n"
			     "# the same machine and sched domains. The domains, as kernel v6.6 builds them:\n");
	levels_text(t, fb, lv);
	for (line = lv->str; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		g_string_append_printf(hdr, "#   %.*s\n", (int)(nl - line), line);
	}
	if (t->description) {
		g_string_append(x, "description: ");
		yaml_string(x, t->description);
		g_string_append_c(x, '\n');
	}
	g_string_append_printf(x, "node_reclaim_distance: %u\n", t->node_reclaim_distance);
	if (t->base_freq_khz)
		g_string_append_printf(x, "frequency: {base_mhz: %" G_GUINT64_FORMAT ", max_mhz: %" G_GUINT64_FORMAT "}\n",
				       t->base_freq_khz / 1000, t->max_freq_khz / 1000);
	{
		const char *const key[] = { "probe_smt_ns", "probe_cluster_ns", "probe_llc_ns", "probe_package_ns",
					    "probe_remote_ns", "line_cached_ns", "smt_contention_pct", "node_bandwidth_mbps",
					    "tick_ns", "kthread_rate_hz", "kthread_ns" };
		const unsigned val[] = { t->probe_smt_ns, t->probe_cluster_ns, t->probe_llc_ns, t->probe_package_ns,
					 t->probe_remote_ns, t->line_cached_ns, t->smt_contention_pct, t->node_bandwidth_mbps,
					 t->tick_ns, t->kthread_rate_hz, t->kthread_ns };
		bool any = false;

		for (unsigned i = 0; i < G_N_ELEMENTS(key); i++) {
			if (!val[i])
				continue;   /* 0 = not given */
			g_string_append_printf(x, "%s%s: %u", any ? ", " : "costs: {", key[i], val[i]);
			any = true;
		}
		if (any)
			g_string_append(x, "}\n");
	}
	g_string_append(x, "idle_states:\n");
	for (unsigned i = 0; i < t->nr_idle_states; i++) {
		const struct ss_idle_state *st = &t->idle_state[i];

		g_string_append(x, "  - {name: ");
		yaml_string(x, st->name);
		g_string_append_printf(x, ", exit_latency_us: %u, target_residency_us: %u%s}\n", st->exit_latency_ns / 1000,
				       st->target_residency_ns / 1000, st->polling ? ", polling: true" : "");
	}
	body = ss_imp_emit_topology(t, hdr->str, x->str);
	g_string_append(s, body);
	g_free(body);
	g_string_free(hdr, TRUE);
	g_string_free(lv, TRUE);
	g_string_free(x, TRUE);
}

char *ss_topology_describe(const struct ss_topology *t, const char *format, GError **err)
{
	struct fmtbuf fb;
	GString *s;

	if (!t || !t->priv) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "ss_topology_describe: topology not built");
		return NULL;
	}
	if (!format || (strcmp(format, "text") && strcmp(format, "json") && strcmp(format, "yaml"))) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "unknown topology format '%s' (expected text, json or yaml)",
			    format ? format : "(null)");
		return NULL;
	}
	fb.len = t->nr_cpus * 6 + 16;
	fb.buf = g_malloc(fb.len);
	s = g_string_new(NULL);
	if (!strcmp(format, "text")) {
		describe_text(t, &fb, s);
	} else if (!strcmp(format, "yaml")) {
		describe_yaml(t, &fb, s);
	} else {
		cJSON *root = topology_json(t, &fb);
		char *out = cJSON_Print(root);

		g_string_append(s, out);
		g_string_append_c(s, '\n');
		cJSON_free(out);
		cJSON_Delete(root);
	}
	g_free(fb.buf);
	return g_string_free(s, FALSE);
}

/*
 * Import a machine from an hwloc XML export (v1 or v2, `lstopo machine.xml`)
 * as topology YAML (docs/topologies.md, "Import"), with libhwloc reading
 * the XML. Shares the checks and the YAML writer with the sysfs importer
 * (topology_import.h).
 *
 * The groupings are those kernel v6.6 builds from the same facts:
 *   CPUs      PU objects, CPU number = os_index; PUs of the complete
 *             cpuset not in the topology are offline (numbers kept);
 *   packages  Package ancestors;
 *   nodes     a CPU's node is the NUMA node with the fewest CPUs whose
 *             cpuset holds it (ties: a node without a memory subtype or
 *             "DRAM" first, then the lowest os_index) — hwloc gives a
 *             memory-only node (HBM, NVDIMM, CXL) the cpuset of its locality,
 *             Linux gives it no CPUs; nodes left without CPUs are memory-only
 *             and, as in v6.6 sched_init_numa() (for_each_cpu_node_but), add
 *             no NUMA level;
 *   LLC       the L3 cache (x86 cpu_llc_shared_mask(), arm64 llc_sibling),
 *             else the L2, else the kernel's fallback without cache
 *             information (x86: the core; others: the package within the
 *             node); clipped to the node (x86 match_llc() under SNC);
 *   clusters  x86: the L2 (v6.6 cpu_clustergroup_mask() = cpu_l2c_shared_mask());
 *             others: a Group of subtype "Cluster" (Linux cluster_cpus_list);
 *   cores     Core ancestors (SMT siblings = the core's PUs);
 *   SLIT      the NUMA distance matrix of kind FROM_OS|MEANS_LATENCY (the
 *             firmware SLIT), else FROM_USER|MEANS_LATENCY, chosen by kind,
 *             not by name; without one 10/20 (the kernel's default);
 *             values[i * nbobjs + j] is the distance from i to j, i.e.
 *             node_distance(i, j): an asymmetric matrix is kept as it is
 *             (row = from), warning in ss_imp_emit_yaml();
 *   capacity  CPU kinds: the "LinuxCapacity" info (the kernel's
 *             cpu_capacity), else on non-x86 the "FrequencyMaxMHz" ratio
 *             (arch_topology's normalisation with equal capacity-dmips-mhz);
 *             x86 stays 1024 (v6.6 x86 has no arch_scale_cpu_capacity);
 *   vendor    the "CPUVendor" info (GenuineIntel, AuthenticAMD, ...), else
 *             the "Architecture" info (aarch64, riscv64, loongarch64).
 */
#include "simsched/topology.h"
#include "simsched/error.h"
#include "topology_import.h"
#include "ss_input.h"

#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SIMSCHED_HAVE_HWLOC

char *ss_topology_import_hwloc(const char *path, const char *name, GPtrArray *warnings, GError **err)
{
	(void)name;
	(void)warnings;
	g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
		    "%s: simsched was built without hwloc, so --hwloc is not available "
		    "(install libhwloc-dev, e.g. scripts/setup.sh, and rebuild)", path ? path : "--hwloc");
	return NULL;
}

#else

#include <hwloc.h>

struct hw {
	struct ss_imp im;
	hwloc_topology_t topo;
	const char *path;
	hwloc_obj_t *pu;               /* CPU -> its PU object */
	hwloc_obj_t *node;             /* node index (os_index order) -> object */
};

static int cmp_node(const void *a, const void *b)
{
	const hwloc_obj_t x = *(const hwloc_obj_t *)a, y = *(const hwloc_obj_t *)b;

	return x->os_index < y->os_index ? -1 : x->os_index > y->os_index;
}

static void mask_from_cpuset(struct hw *h, hwloc_const_cpuset_t cs, uint64_t *m)
{
	unsigned i;

	ss_cpumask_zero(m, h->im.nw);
	hwloc_bitmap_foreach_begin(i, cs) {
		if (h->im.dense_of ? i < SS_MAX_CPUS && h->im.dense_of[i] != UINT_MAX : i < h->im.nr_cpus)
			ss_cpumask_set(m, h->im.dense_of ? h->im.dense_of[i] : i);
	} hwloc_bitmap_foreach_end();
}

/*
 * CPUs: PU objects, numbered by os_index. PUs of the machine's complete
 * cpuset that are not in the topology are offline: they keep their numbers
 * (the file's 'offline' list, v6.6 keeps nr_cpu_ids) and get no place.
 */
static int read_pus(struct hw *h, GError **err)
{
	unsigned n = (unsigned)hwloc_get_nbobjs_by_type(h->topo, HWLOC_OBJ_PU), k = 0;
	unsigned nw_all = ss_cpumask_words(SS_MAX_CPUS), i;
	hwloc_obj_t pu = NULL, *by_id;
	uint64_t *online, *complete;

	if (n == 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: no PU objects (expected an hwloc topology with CPUs)",
			    h->path);
		return -1;
	}
	if (n > SS_MAX_CPUS) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: %u PUs (at most %u CPUs can be modelled)", h->path, n,
			    SS_MAX_CPUS);
		return -1;
	}
	by_id = g_new0(hwloc_obj_t, SS_MAX_CPUS);
	online = g_new0(uint64_t, nw_all);
	complete = g_new0(uint64_t, nw_all);
	while ((pu = hwloc_get_next_obj_by_type(h->topo, HWLOC_OBJ_PU, pu))) {
		if (pu->os_index > INT_MAX) {
			/* hwloc reads os_index with strtoul: "-1" (also its HWLOC_UNKNOWN_INDEX) wraps around */
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: a PU with os_index %d (expected CPU numbers 0..%u)", h->path, (int)pu->os_index,
				    SS_MAX_CPUS - 1);
			goto fail;
		}
		if (pu->os_index >= SS_MAX_CPUS) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: PU os_index %u (expected CPU numbers below %u)", h->path, pu->os_index, SS_MAX_CPUS);
			goto fail;
		}
		if (by_id[pu->os_index]) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: two PUs with os_index %u (expected unique CPU numbers)",
				    h->path, pu->os_index);
			goto fail;
		}
		by_id[pu->os_index] = pu;
		ss_cpumask_set(online, pu->os_index);
	}
	hwloc_bitmap_foreach_begin(i, hwloc_topology_get_complete_cpuset(h->topo)) {
		if (i >= SS_MAX_CPUS)
			break;
		ss_cpumask_set(complete, i);
	} hwloc_bitmap_foreach_end();
	ss_imp_set_online(&h->im, online, complete, h->path);
	h->pu = g_new0(hwloc_obj_t, n);
	for (unsigned c = ss_cpumask_first(online, SS_MAX_CPUS); c < SS_MAX_CPUS; c = ss_cpumask_next(online, SS_MAX_CPUS, c + 1))
		h->pu[k++] = by_id[c];
	g_free(by_id);
	g_free(online);
	g_free(complete);
	return 0;
fail:
	g_free(by_id);
	g_free(online);
	g_free(complete);
	return -1;
}

/* "CPUVendor" (x86 packages), else "Architecture" (root). */
static void read_vendor(struct hw *h)
{
	const char *v = NULL, *arch;
	hwloc_obj_t o = NULL;

	while (!v && (o = hwloc_get_next_obj_by_type(h->topo, HWLOC_OBJ_PACKAGE, o)))
		v = hwloc_obj_get_info_by_name(o, "CPUVendor");
	const char *fam = o ? hwloc_obj_get_info_by_name(o, "CPUFamilyNumber") : NULL;
	if (fam)
		h->im.x86_family = (unsigned)strtoul(fam, NULL, 10);
	if (!v)
		v = hwloc_obj_get_info_by_name(hwloc_get_root_obj(h->topo), "CPUVendor");
	if (v) {
		if (!strcmp(v, "GenuineIntel"))
			h->im.vendor = g_strdup("intel");
		else if (!strcmp(v, "AuthenticAMD"))
			h->im.vendor = g_strdup("amd");
		else if (!strcmp(v, "HygonGenuine"))
			h->im.vendor = g_strdup("hygon");
		else if (!strcmp(v, "CentaurHauls") || !strcmp(v, "  Shanghai  ") || !strcmp(v, "Shanghai"))
			h->im.vendor = g_strdup("zhaoxin");
		if (h->im.vendor) {
			h->im.vendor_src = "the hwloc CPUVendor info";
			return;
		}
	}
	arch = hwloc_obj_get_info_by_name(hwloc_get_root_obj(h->topo), "Architecture");
	if (arch) {
		if (g_str_has_prefix(arch, "aarch64") || g_str_has_prefix(arch, "arm"))
			h->im.vendor = g_strdup("arm");
		else if (g_str_has_prefix(arch, "riscv"))
			h->im.vendor = g_strdup("riscv");
		else if (g_str_has_prefix(arch, "loongarch"))
			h->im.vendor = g_strdup("loongarch");
		if (h->im.vendor) {
			h->im.vendor_src = "the hwloc Architecture info";
			return;
		}
	}
	h->im.vendor = g_strdup("generic");
	h->im.vendor_src = "default";
	ss_imp_warn(&h->im, "%s: CPU vendor not recognised (CPUVendor \"%s\", Architecture \"%s\"); using vendor "
		    "\"generic\" (the kernel's default topology table, node_reclaim_distance 30)", h->path,
		    v ? v : "none", arch ? arch : "none");
}

static bool dram_like(hwloc_obj_t n)
{
	return !n->subtype || !strcmp(n->subtype, "DRAM");
}

/* Nodes and each CPU's node. */
static int read_nodes(struct hw *h, GError **err)
{
	struct ss_imp *im = &h->im;
	unsigned nn = (unsigned)hwloc_get_nbobjs_by_type(h->topo, HWLOC_OBJ_NUMANODE);
	hwloc_obj_t o = NULL;
	unsigned k = 0;

	im->cpu_node = g_new(unsigned, im->nr_cpus);
	if (nn == 0) {
		ss_imp_warn(im, "%s: no NUMA nodes; one node", h->path);
		im->nr_nodes = 1;
		im->node_ids = g_new0(unsigned, 1);
		for (unsigned c = 0; c < im->nr_cpus; c++)
			im->cpu_node[c] = 0;
		return 0;
	}
	h->node = g_new(hwloc_obj_t, nn);
	while ((o = hwloc_get_next_obj_by_type(h->topo, HWLOC_OBJ_NUMANODE, o)))
		h->node[k++] = o;
	qsort(h->node, nn, sizeof(*h->node), cmp_node);
	im->nr_nodes = nn;
	im->node_ids = g_new(unsigned, nn);
	for (unsigned i = 0; i < nn; i++) {
		im->node_ids[i] = h->node[i]->os_index;
		if (i && im->node_ids[i] == im->node_ids[i - 1]) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: two NUMA nodes with os_index %u (expected unique node numbers)",
				    h->path, im->node_ids[i]);
			return -1;
		}
	}
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		int best = -1;
		int best_w = 0;

		for (unsigned i = 0; i < nn; i++) {
			hwloc_obj_t n = h->node[i];
			int w;

			if (!n->cpuset || !hwloc_bitmap_isset(n->cpuset, ss_imp_id(im, c)))
				continue;
			w = hwloc_bitmap_weight(n->cpuset);
			if (best < 0 || w < best_w ||
			    (w == best_w && dram_like(n) && !dram_like(h->node[best]))) {
				best = (int)i;
				best_w = w;
			}
		}
		if (best < 0) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: PU %u is in no NUMA node's cpuset (expected every CPU local to one node)", h->path,
				    ss_imp_id(im, c));
			return -1;
		}
		im->cpu_node[c] = (unsigned)best;
	}
	return 0;
}

/* The SLIT: a NUMA latency matrix chosen by kind. */
static int read_distances(struct hw *h, GError **err)
{
	struct ss_imp *im = &h->im;
	static const struct {
		unsigned long kind;
		const char *what;
	} kinds[] = {
		{ HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_LATENCY, "FROM_OS latency (the firmware SLIT)" },
		{ HWLOC_DISTANCES_KIND_FROM_USER | HWLOC_DISTANCES_KIND_MEANS_LATENCY, "FROM_USER latency" },
	};
	unsigned nn = im->nr_nodes;
	bool *has_cpu = g_new0(bool, nn);
	int rc = -1;

	im->dist = g_new(unsigned, (size_t)nn * nn);
	for (unsigned i = 0; i < nn; i++)
		for (unsigned j = 0; j < nn; j++)
			im->dist[i * nn + j] = i == j ? 10 : 20;
	for (unsigned c = 0; c < im->nr_cpus; c++)
		has_cpu[im->cpu_node[c]] = true;
	im->have_dist = false;
	for (unsigned kk = 0; kk < G_N_ELEMENTS(kinds) && !im->have_dist && h->node; kk++) {
		struct hwloc_distances_s *d[16];
		unsigned nr = G_N_ELEMENTS(d);

		if (hwloc_distances_get_by_type(h->topo, HWLOC_OBJ_NUMANODE, &nr, d, kinds[kk].kind, 0) < 0)
			continue;
		nr = MIN(nr, (unsigned)G_N_ELEMENTS(d));
		for (unsigned m = 0; m < nr && !im->have_dist; m++) {
			int *idx = g_new(int, nn);
			bool covers = true;

			for (unsigned i = 0; i < nn; i++) {
				idx[i] = -1;
				for (unsigned q = 0; q < d[m]->nbobjs; q++)
					if (d[m]->objs[q] == h->node[i])
						idx[i] = (int)q;
				if (idx[i] < 0 && has_cpu[i])
					covers = false;
			}
			if (covers) {
				for (unsigned i = 0; i < nn; i++)
					for (unsigned j = 0; j < nn; j++)
						if (idx[i] >= 0 && idx[j] >= 0) {
							hwloc_uint64_t v = d[m]->values[(unsigned)idx[i] * d[m]->nbobjs + (unsigned)idx[j]];
							im->dist[i * nn + j] = v > 1000 ? 1000 : (unsigned)v;
						}
				im->have_dist = true;
				if (kk > 0)
					ss_imp_warn(im, "%s: no OS-provided NUMA latency matrix; using the %s matrix",
						    h->path, kinds[kk].what);
			}
			g_free(idx);
		}
		for (unsigned m = 0; m < nr; m++)
			hwloc_distances_release(h->topo, d[m]);
	}
	{
		unsigned nr_cpu_nodes = 0;

		for (unsigned i = 0; i < nn; i++)
			nr_cpu_nodes += has_cpu[i];
		if (!im->have_dist && nr_cpu_nodes > 1)
			ss_imp_warn(im, "%s: no NUMA latency matrix; using 10 locally and 20 (REMOTE_DISTANCE) between nodes, "
				    "as the kernel does without a SLIT", h->path);
	}
	/* ACPI SLIT rules between the nodes with CPUs (the ones sched_init_numa() reads) */
	for (unsigned i = 0; i < nn; i++) {
		for (unsigned j = 0; j < nn; j++) {
			unsigned v = im->dist[i * nn + j];

			if (!has_cpu[i] || !has_cpu[j])
				continue;
			if (i == j && v != 10) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: distance node%u->node%u is %u (expected 10 on the diagonal, ACPI SLIT rules)",
					    h->path, im->node_ids[i], im->node_ids[j], v);
				goto out;
			}
			if (i != j && (v < 11 || v > 254)) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s: distance node%u->node%u is %u (expected 11..254 between nodes, ACPI SLIT rules)",
					    h->path, im->node_ids[i], im->node_ids[j], v);
				goto out;
			}
		}
	}
	rc = 0;
out:
	g_free(has_cpu);
	return rc;
}

/* Capacity from CPU kinds. */
static void read_capacity(struct hw *h)
{
	struct ss_imp *im = &h->im;
	int nk = hwloc_cpukinds_get_nr(h->topo, 0);
	hwloc_bitmap_t cs = hwloc_bitmap_alloc();
	unsigned *cap = NULL, *freq = NULL;
	bool all_cap = true, all_freq = true;
	unsigned fmax = 0;

	for (unsigned c = 0; c < im->nr_cpus; c++)
		im->capacity[c] = 1024;
	if (nk < 2)
		goto out;
	if (ss_imp_is_x86(im->vendor)) {
		ss_imp_warn(im, "%s: %d CPU kinds (hybrid x86); capacities stay 1024: v6.6 x86 has no per-CPU "
			    "capacity and prefers big cores through ITMT/SD_ASYM_PACKING, which is not modelled", h->path, nk);
		goto out;
	}
	cap = g_new0(unsigned, (unsigned)nk);
	freq = g_new0(unsigned, (unsigned)nk);
	for (int k = 0; k < nk; k++) {
		unsigned nr_infos = 0;
		struct hwloc_info_s *infos = NULL;
		int eff;

		if (hwloc_cpukinds_get_info(h->topo, (unsigned)k, cs, &eff, &nr_infos, &infos, 0) < 0) {
			all_cap = all_freq = false;
			continue;
		}
		for (unsigned i = 0; i < nr_infos; i++) {
			guint64 v;

			if (!g_ascii_string_to_unsigned(infos[i].value, 10, 1, 1000000, &v, NULL))
				continue;
			if (!strcmp(infos[i].name, "LinuxCapacity"))
				cap[k] = (unsigned)v;
			else if (!strcmp(infos[i].name, "FrequencyMaxMHz"))
				freq[k] = (unsigned)v;
		}
		all_cap &= cap[k] > 0 && cap[k] <= 1024;
		all_freq &= freq[k] > 0;
		fmax = MAX(fmax, freq[k]);
	}
	if (!all_cap && !all_freq) {
		ss_imp_warn(im, "%s: %d CPU kinds without LinuxCapacity nor FrequencyMaxMHz on every kind; capacities "
			    "stay 1024 (hwloc efficiency ranks are an order, not a capacity)", h->path, nk);
		goto out;
	}
	if (!all_cap)
		ss_imp_warn(im, "%s: capacity from the CPU kinds' FrequencyMaxMHz ratio (no LinuxCapacity): "
			    "capacity = 1024 x MHz / max MHz, arch_topology's rule when every CPU has the same "
			    "capacity-dmips-mhz; an estimate, edit if the cores differ in IPC", h->path);
	for (int k = 0; k < nk; k++) {
		unsigned v = all_cap ? cap[k] : (unsigned)MAX(1u, (uint64_t)freq[k] * 1024 / fmax);
		unsigned i;

		if (hwloc_cpukinds_get_info(h->topo, (unsigned)k, cs, NULL, NULL, NULL, 0) < 0)
			continue;
		hwloc_bitmap_foreach_begin(i, cs) {
			if (im->dense_of ? i < SS_MAX_CPUS && im->dense_of[i] != UINT_MAX : i < im->nr_cpus)
				im->capacity[im->dense_of ? im->dense_of[i] : i] = v;
		} hwloc_bitmap_foreach_end();
	}
out:
	g_free(cap);
	g_free(freq);
	hwloc_bitmap_free(cs);
}

static hwloc_obj_t ancestor_cache(hwloc_obj_t pu, unsigned depth)
{
	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_cache(o->type) && o->attr->cache.depth == depth &&
		    o->attr->cache.type != HWLOC_OBJ_CACHE_INSTRUCTION)
			return o;
	return NULL;
}

static hwloc_obj_t ancestor_cluster(hwloc_obj_t pu)
{
	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (o->type == HWLOC_OBJ_GROUP && o->subtype && !strcmp(o->subtype, "Cluster"))
			return o;
	return NULL;
}

static int build_masks(struct hw *h, GError **err)
{
	struct ss_imp *im = &h->im;
	bool no_pkg = false, l3 = false, l2 = false;
	unsigned cache_depth = 0, nr_cu_paired = 0;
	bool cu_pairs = im->vendor && !strcmp(im->vendor, "amd") && im->x86_family == 0x15;

	for (unsigned c = 0; c < im->nr_cpus; c++) {
		hwloc_obj_t pu = h->pu[c], o;

		o = hwloc_get_ancestor_obj_by_type(h->topo, HWLOC_OBJ_PACKAGE, pu);
		if (o) {
			mask_from_cpuset(h, o->cpuset, ss_imp_mask(im, LV_PKG, c));
		} else {
			no_pkg = true;
			for (unsigned d = 0; d < im->nr_cpus; d++)
				ss_cpumask_set(ss_imp_mask(im, LV_PKG, c), d);
		}
		o = hwloc_get_ancestor_obj_by_type(h->topo, HWLOC_OBJ_CORE, pu);
		/*
		 * AMD family 15h: hwloc shows each core of a compute unit as a Core
		 * (they have their own core_id), but v6.6 match_smt()
		 * (arch/x86/kernel/smpboot.c) makes CPUs with the same cu_id SMT
		 * siblings; amd_get_topology() sets cu_id for family 0x15 only. The
		 * compute unit is the two cores sharing an L2 (and FPU): SMT from it.
		 */
		hwloc_obj_t cu = cu_pairs ? ancestor_cache(pu, 2) : NULL;
		if (cu) {
			mask_from_cpuset(h, cu->cpuset, ss_imp_mask(im, LV_CORE, c));
			nr_cu_paired++;
		} else if (o) {
			mask_from_cpuset(h, o->cpuset, ss_imp_mask(im, LV_CORE, c));
		} else {
			ss_cpumask_set(ss_imp_mask(im, LV_CORE, c), c);
		}
		for (unsigned d = 0; d < im->nr_cpus; d++)
			if (im->cpu_node[d] == im->cpu_node[c])
				ss_cpumask_set(ss_imp_mask(im, LV_NODE, c), d);
		if (ancestor_cache(pu, 3))
			l3 = true;
		if (ancestor_cache(pu, 2))
			l2 = true;
	}
	if (nr_cu_paired)
		ss_imp_warn(im, "%s: AMD family 15h: the cores of each compute unit (one L2) are SMT siblings, as "
			    "v6.6 match_smt() pairs them by cu_id", h->path);
	if (no_pkg)
		ss_imp_warn(im, "%s: no Package objects; one package", h->path);
	cache_depth = l3 ? 3 : l2 ? 2 : 0;
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		hwloc_obj_t llc = cache_depth ? ancestor_cache(h->pu[c], cache_depth) : NULL;

		if (cache_depth && !llc) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: PU %u has no L%u cache while others do (expected every CPU under one last-level cache)",
				    h->path, ss_imp_id(im, c), cache_depth);
			return -1;
		}
		if (llc)
			mask_from_cpuset(h, llc->cpuset, ss_imp_mask(im, LV_LLC, c));
	}
	if (l3) {
		/* the L3 is the LLC */
	} else if (l2) {
		ss_imp_warn(im, "%s: no L3 cache; the LLC is the L2, the highest cache level as the kernel's cacheinfo "
			    "finds it", h->path);
	} else if (ss_imp_is_x86(im->vendor)) {
		ss_imp_warn(im, "%s: no L2/L3 cache objects; each core is its own LLC (x86 cpu_llc_shared_mask() "
			    "without an LLC id, widened to the SMT siblings)", h->path);
		for (unsigned c = 0; c < im->nr_cpus; c++)
			ss_cpumask_copy(ss_imp_mask(im, LV_LLC, c), ss_imp_mask(im, LV_CORE, c), im->nw);
	} else {
		ss_imp_warn(im, "%s: no L2/L3 cache objects; the LLC is the package within the node "
			    "(arch_topology cpu_coregroup_mask() without llc_sibling)", h->path);
	}

	/* clusters: x86's L2, others' Cluster groups; without them the core */
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		hwloc_obj_t cl = ss_imp_is_x86(im->vendor) ? ancestor_cache(h->pu[c], 2) : ancestor_cluster(h->pu[c]);

		if (cl)
			mask_from_cpuset(h, cl->cpuset, ss_imp_mask(im, LV_CLS, c));
		else
			ss_cpumask_copy(ss_imp_mask(im, LV_CLS, c), ss_imp_mask(im, LV_CORE, c), im->nw);
	}

	ss_imp_join_packages(im);
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		if (!ss_cpumask_subset(ss_imp_mask(im, LV_CORE, c), ss_imp_mask(im, LV_NODE, c), im->nw)) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: the SMT siblings of PU %u are in different NUMA nodes (expected a core's threads in one node)",
				    h->path, ss_imp_id(im, c));
			return -1;
		}
	}
	if (!l3 && !l2 && !ss_imp_is_x86(im->vendor))
		for (unsigned c = 0; c < im->nr_cpus; c++)
			ss_cpumask_and(ss_imp_mask(im, LV_LLC, c), ss_imp_mask(im, LV_PKG, c), ss_imp_mask(im, LV_NODE, c), im->nw);
	if (ss_imp_restrict(im, LV_LLC, LV_NODE))
		ss_imp_warn(im, "%s: an L%u cache spans several NUMA nodes; the LLC is clipped to the node, as x86 "
			    "match_llc() does (Sub-NUMA Clustering; elsewhere topology_sane() ignores the dependency)",
			    h->path, cache_depth);
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		if (!ss_cpumask_subset(ss_imp_mask(im, LV_CORE, c), ss_imp_mask(im, LV_LLC, c), im->nw)) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: the SMT siblings of PU %u do not share its LLC (expected a core's threads under one cache)",
				    h->path, ss_imp_id(im, c));
			return -1;
		}
	}
	if (ss_imp_restrict(im, LV_CLS, LV_LLC))
		ss_imp_warn(im, "%s: a cluster is larger than its LLC; cut to the LLC", h->path);
	for (unsigned c = 0; c < im->nr_cpus; c++) {
		if (!ss_cpumask_subset(ss_imp_mask(im, LV_CORE, c), ss_imp_mask(im, LV_CLS, c), im->nw)) {
			ss_imp_warn(im, "%s: PU %u's cluster does not hold its SMT siblings; cluster information ignored "
				    "(one cluster per core)", h->path, ss_imp_id(im, c));
			for (unsigned d = 0; d < im->nr_cpus; d++)
				ss_cpumask_copy(ss_imp_mask(im, LV_CLS, d), ss_imp_mask(im, LV_CORE, d), im->nw);
			break;
		}
	}
	im->origin = g_strdup_printf("`simsched topo import --hwloc` from %s (read by libhwloc %s)", h->path,
				     HWLOC_VERSION);
	return 0;
}

/*
 * Refuse an <object> that libhwloc 2.9 (Debian's) would crash on, by the
 * rule hwloc itself adopted for this (hwloc__xml_import_object(),
 * topology-xml.c, open-mpi/hwloc PR #783, 2026): a normal or memory object
 * has all four of cpuset, complete_cpuset, nodeset and complete_nodeset, a
 * special one (Misc, Bridge, PCIDev, OSDev) none of cpuset and nodeset.
 * hwloc 2.9 checks only cpuset and nodeset, then compares complete_cpuset
 * (sibling reordering) or the sets of a NUMA node without a cpuset
 * (hwloc_bitmap_isequal) and dereferences NULL inside
 * hwloc_topology_load(). lstopo writes the four sets of every object, v1
 * and v2, so such a file was not exported by hwloc: say where, before
 * libhwloc sees it. Likewise a PU or NUMA node needs a numeric os_index in
 * range (below).
 *
 * The attributes are read as libhwloc's own XML reader reads them
 * (topology-xml-nolibxml.c, hwloc 2.9): a start tag ends at its first '>';
 * hwloc__nolibxml_import_next_attr() takes a name of [a-z_], then '="',
 * the value up to the next '"' (an '&' must start &#10; &#13; &#9; &quot;
 * &lt; &gt; or &amp;), then blanks, and stops at the first attribute that
 * does not parse, ignoring the rest of the tag. An attribute
 * is present if that reader reaches it. Returns false with err set.
 */
/*
 * Whether v[0..n) is a bitmap as hwloc writes one (hwloc_bitmap_asprintf():
 * "0x" and hex digits per 32-bit word, comma-separated, most significant
 * first, a zero word after the first written as nothing ("0x1,,0x2"),
 * optionally after "0xf...f," for an infinite set, or "0xf...f" alone).
 * hwloc_bitmap_sscanf() of hwloc 2.9 aborts (assert(count > 0)) on some
 * other strings, e.g. one starting with a comma.
 */
static bool hwloc_bitmap_text_ok(const char *v, size_t n)
{
	if (n >= 7 && !strncmp(v, "0xf...f", 7)) {
		if (n == 7)
			return true;
		if (v[7] != ',')
			return false;
		v += 8;
		n -= 8;
	}
	for (bool first = true;; first = false) {
		size_t k = 0;
		if (!first && (!n || v[0] == ',')) {   /* an empty word: zero, as hwloc writes it */
			if (!n)
				return true;
			v++;
			n--;
			continue;
		}
		if (n < 3 || v[0] != '0' || v[1] != 'x')
			return false;
		for (k = 2; k < n && v[k] != ','; k++)
			if (!g_ascii_isxdigit(v[k]) || k >= 2 + 16)
				return false;
		if (k == 2)
			return false;
		if (k == n)
			return true;
		v += k + 1;
		n -= k + 1;
	}
}

static bool check_object_sets(const char *path, const char *xml, gsize len, GError **err)
{
	static const char *const sets[4] = { "cpuset", "complete_cpuset", "nodeset", "complete_nodeset" };
	static const char *const special[] = { "Misc", "Bridge", "PCIDev", "OSDev" };
	const char *end = xml + len;
	size_t line = 1;
	const char *bol = xml;
	const char *nul = memchr(xml, '\0', len);

	/* XML has no NUL byte; libhwloc's reader stops its string scans at one and dereferences NULL */
	if (nul) {
		for (const char *r = xml; r < nul; r++)
			if (*r == '\n') {
				line++;
				bol = r + 1;
			}
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s:%zu:%zu: a NUL byte (expected text: XML has none)", path,
			    line, (size_t)(nul - bol) + 1);
		return false;
	}
	/*
	 * The <topology version="M.N"> tag as hwloc_nolibxml_look_init() (hwloc
	 * 2.9) finds it: past the lines that start with "<?xml " or
	 * "<!DOCTYPE ", and its end at the next '>' in the file -- with none,
	 * libhwloc takes NULL + 1 for the rest of the document and crashes.
	 * The root object is the tag right after it (hwloc_look_xml():
	 * find_child() must give an "object", whose first attribute is its
	 * type): lstopo writes a Machine there (hwloc 1.x: also System, or a
	 * NUMANode, which hwloc__xml_import_object() puts under a new Machine
	 * for a v1 file only). Any other root (a v2 NUMANode, when that '>' is
	 * a later tag's) sends hwloc 2.9 down paths that dereference NULL;
	 * refused.
	 */
	{
		const char *b = xml;
		size_t l = 1;
		while (b && ((end - b >= 6 && !strncmp(b, "<?xml ", 6)) || (end - b >= 10 && !strncmp(b, "<!DOCTYPE ", 10)))) {
			b = memchr(b, '\n', (size_t)(end - b));
			if (b) {
				b++;
				l++;
			}
		}
		const char *root = NULL;
		bool v1 = true;

		if (b && end - b >= 19 && !strncmp(b, "<topology version=\"", 19)) {
			v1 = end - b > 20 && b[19] == '1' && !g_ascii_isdigit(b[20]);
			root = memchr(b, '>', (size_t)(end - b));
			if (!root) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s:%zu:1: a <topology version=...> start tag without its '>' (expected e.g. "
					    "<topology version=\"2.0\">; libhwloc %s cannot read the file safely)", path, l,
					    HWLOC_VERSION);
				return false;
			}
			root++;
		} else if (b && end - b >= 10 && !strncmp(b, "<topology>", 10)) {
			root = b + 10;
		}
		while (root && root < end && strchr(" \t\n", *root))
			root++;
		if (root && end - root >= 8 && !strncmp(root, "<object", 7) && strchr(" \t\n", root[7])) {
			const char *ty = root + 8, *te;

			while (ty < end && strchr(" \t\n", *ty))
				ty++;
			te = end - ty > 6 && !strncmp(ty, "type=\"", 6) ? memchr(ty + 6, '"', (size_t)(end - ty - 6)) : NULL;
			if (te && !((te - ty - 6 == 7 && !strncmp(ty + 6, "Machine", 7)) ||
				    (te - ty - 6 == 6 && !strncmp(ty + 6, "System", 6)) ||
				    (v1 && te - ty - 6 == 8 && !strncmp(ty + 6, "NUMANode", 8)))) {
				const char *rb = b;

				for (const char *r = b; r < root; r++)
					if (*r == '\n') {
						l++;
						rb = r + 1;
					}
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s:%zu:%zu: the root object (the first tag after <topology ...>) is of type \"%.*s\" "
					    "(expected Machine, as lstopo writes it, or in a v1 file System or NUMANode; "
					    "libhwloc %s cannot load other roots safely)", path, l, (size_t)(root - rb) + 1, (int)MIN(te - ty - 6, 40), ty + 6, HWLOC_VERSION);
				return false;
			}
		}
	}
	for (const char *p = xml; p < end; p++) {
		if (*p == '\n') {
			line++;
			bol = p + 1;
			continue;
		}
		if (*p != '<' || p + 1 == end || !g_ascii_isalpha(p[1]))
			continue;
		/* a start tag: <NAME of hwloc's tag characters, then its attributes */
		const char *gt = memchr(p, '>', (size_t)(end - p));
		const char *tag_end = gt ? gt : end;
		const char *q = p + 1;
		while (q < tag_end && (g_ascii_isalnum(*q) || *q == '_'))
			q++;
		bool is_object = q - p == 7 && !strncmp(p, "<object", 7);
		bool has[4] = { false };
		const char *type = NULL, *os_index = NULL;   /* values, up to their closing '"' */
		size_t type_len = 0;

		while (q < tag_end && strchr(" \t\n", *q))
			q++;
		for (;;) {
			const char *name = q;
			while (q < tag_end && ((*q >= 'a' && *q <= 'z') || *q == '_'))
				q++;
			size_t nlen = (size_t)(q - name);
			if (tag_end - q < 2 || q[0] != '=' || q[1] != '"')
				break;
			/* the value up to its '"'; an '&' that starts none of hwloc's entities ends the attributes */
			const char *close = NULL;
			bool bad = false;
			for (const char *v = q + 2; v < tag_end && !close && !bad; v++) {
				static const char *const ent[] = { "#10;", "#13;", "#9;", "quot;", "lt;", "gt;", "amp;" };
				if (*v == '"') {
					close = v;
				} else if (*v == '&') {
					bad = true;
					for (unsigned k = 0; k < G_N_ELEMENTS(ent) && bad; k++)
						if ((size_t)(tag_end - v - 1) >= strlen(ent[k]) && !strncmp(v + 1, ent[k], strlen(ent[k])))
							bad = false;
				} else if (!*v) {
					bad = true;
				}
			}
			if (!close)
				break;
			if (nlen >= 3 && !strncmp(name + nlen - 3, "set", 3) && !hwloc_bitmap_text_ok(q + 2, (size_t)(close - q - 2))) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s:%zu:%zu: %.*s=\"%.*s\" is not a bitmap as hwloc writes one (expected e.g. "
					    "0x0000000f or 0x00000001,0xffffffff; libhwloc %s aborts on some others)", path, line,
					    (size_t)(p - bol) + 1, (int)nlen, name, (int)MIN(close - q - 2, 40), q + 2, HWLOC_VERSION);
				return false;
			}
			for (unsigned i = 0; i < G_N_ELEMENTS(sets); i++)
				if (nlen == strlen(sets[i]) && !strncmp(name, sets[i], nlen))
					has[i] = true;
			if (nlen == 4 && !strncmp(name, "type", 4)) {
				type = q + 2;
				type_len = (size_t)(close - type);
			} else if (nlen == 8 && !strncmp(name, "os_index", 8)) {
				os_index = q + 2;
			}
			q = close + 1;
			while (q < tag_end && strchr(" \t\n", *q))
				q++;
		}
		/*
		 * The type as lstopo writes it (hwloc_obj_type_string(), v2, and
		 * the v1 names): libhwloc reads the value by prefix
		 * (hwloc_type_sscanf(): "NUM" is a NUMA node, without the checks
		 * below), so anything else is refused here.
		 */
		static const char *const types[] = { "Machine", "Package", "Die", "NUMANode", "MemCache", "L1Cache", "L2Cache",
						     "L3Cache", "L4Cache", "L5Cache", "L1iCache", "L2iCache", "L3iCache", "Core",
						     "PU", "Group", "Misc", "Bridge", "PCIDev", "OSDev", "System", "Socket",
						     "Cache" };
		bool known = false;
		for (unsigned i = 0; is_object && type && i < G_N_ELEMENTS(types); i++)
			if (type_len == strlen(types[i]) && !strncmp(type, types[i], type_len))
				known = true;
		if (is_object && !known) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s:%zu:%zu: an <object> %s%.*s%s (expected a type lstopo writes: Machine, Package, Die, "
				    "NUMANode, L1Cache..L5Cache, L1iCache..L3iCache, MemCache, Core, PU, Group, Misc, Bridge, "
				    "PCIDev, OSDev, or hwloc 1.x's System, Socket, Cache)", path, line, (size_t)(p - bol) + 1,
				    type ? "of type \"" : "without a type", type ? (int)MIN(type_len, 40) : 0, type ? type : "",
				    type ? "\"" : "");
			return false;
		}
		bool is_special = false;
		for (unsigned i = 0; is_object && i < G_N_ELEMENTS(special); i++)
			if (type_len == strlen(special[i]) && !strncmp(type, special[i], type_len))
				is_special = true;
		for (unsigned i = 0; is_object && i < G_N_ELEMENTS(sets); i++) {
			if (is_special ? !(has[i] && (i == 0 || i == 2)) : has[i])
				continue;
			char *ty = g_strdup_printf("%.*s", (int)MIN(type_len, 40), type ? type : "");
			if (is_special)
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s:%zu:%zu: a special <object type=\"%s\"> with a %s (expected none: hwloc's rule "
					    "for Misc and I/O objects)", path, line, (size_t)(p - bol) + 1, ty, sets[i]);
			else
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s:%zu:%zu: an <object type=\"%s\"> without %s (expected cpuset, complete_cpuset, "
					    "nodeset and complete_nodeset, as every lstopo export writes them; libhwloc %s "
					    "cannot load such an object safely)",
					    path, line, (size_t)(p - bol) + 1, ty, sets[i], HWLOC_VERSION);
			g_free(ty);
			return false;
		}
		/*
		 * A PU or NUMA node indexes libhwloc's cpusets and nodesets: without
		 * an os_index (HWLOC_UNKNOWN_INDEX, 2^32 - 1) or with a huge one,
		 * hwloc_insert_object_by_parent() sets that bit and allocates half
		 * a gigabyte for it. lstopo writes the index of each; the kernel has
		 * at most SS_MAX_CPUS CPUs here and MAX_NUMNODES <= 1024 nodes.
		 */
		bool pu = is_object && type_len == 2 && !strncmp(type, "PU", 2);
		bool node = is_object && type_len == 8 && !strncmp(type, "NUMANode", 8);
		if (pu || node) {
			unsigned long long limit = pu ? SS_MAX_CPUS : 1u << 24, v = 0;
			bool ok = os_index && g_ascii_isdigit(*os_index);
			for (const char *d = os_index; ok && *d != '"'; d++) {
				if (!g_ascii_isdigit(*d) || (v = v * 10 + (unsigned)(*d - '0')) >= limit)
					ok = false;
			}
			if (!ok) {
				const char *oe = os_index ? memchr(os_index, '"', (size_t)(tag_end - os_index)) : NULL;
				char *shown = os_index ? g_strdup_printf("with os_index \"%.*s\"", (int)MIN(oe - os_index, 40), os_index)
						       : g_strdup("without an os_index");
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
					    "%s:%zu:%zu: an <object type=\"%s\"> %s (expected a %s number 0..%llu, as every lstopo "
					    "export writes one)", path, line, (size_t)(p - bol) + 1, pu ? "PU" : "NUMANode", shown,
					    pu ? "CPU" : "node", limit - 1);
				g_free(shown);
				return false;
			}
		}
		/* on past the tag, counting its lines */
		for (const char *r = p; r < tag_end; r++)
			if (*r == '\n') {
				line++;
				bol = r + 1;
			}
		p = tag_end < end ? tag_end : end - 1;
	}
	return true;
}

/*
 * libhwloc 2.9 crashes on some files that no lstopo wrote: when
 * remove_empty() deletes the root object itself (a root without PUs or
 * NUMA nodes under it), hwloc_topology_load() reports "Topology became
 * empty" and then dereferences levels[0][0] = NULL (fuzz findings; later
 * hwloc releases check). check_object_sets() refuses the shapes found so
 * far with their line; as the last guard the load is first tried in a
 * child process that only runs libhwloc and _exits (0: loaded, 3: refused
 * cleanly), so any other crash of libhwloc becomes an error here, and a
 * load past 60 s (SIGALRM) too. One extra load: milliseconds for a real
 * machine's export. Without a child (fork() failed) the load runs here as
 * before. Returns false with err set if the child did not come back.
 */
static bool hwloc_load_survives(const char *path, const char *xml, gsize len, GError **err)
{
	int status = 0;
	pid_t pid = fork();

	if (pid < 0)
		return true;
	if (pid == 0) {
		static const int sigs[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGALRM };
		hwloc_topology_t t;
		int rc = 3;

		/* the kernel's default actions: a crash ends the child, whatever handlers the program
		 * installed (a sanitizer's or a fuzzer's would report the child's crash as its own) */
		for (unsigned i = 0; i < G_N_ELEMENTS(sigs); i++)
			signal(sigs[i], SIG_DFL);
		alarm(60);
		if (hwloc_topology_init(&t) == 0 && hwloc_topology_set_xmlbuffer(t, xml, (int)len + 1) == 0 &&
		    hwloc_topology_load(t) == 0)
			rc = 0;
		_exit(rc);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return true;
	if (WIFEXITED(status) && (WEXITSTATUS(status) == 0 || WEXITSTATUS(status) == 3))
		return true;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: libhwloc %s did not finish loading the file in 60 s (expected an `lstopo FILE.xml` export, "
			    "v1 or v2)", path, HWLOC_VERSION);
	else
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: not a valid hwloc XML topology: libhwloc %s crashed loading it (%s %d; expected an `lstopo "
			    "FILE.xml` export, v1 or v2, which it reads safely)", path, HWLOC_VERSION,
			    WIFSIGNALED(status) ? "signal" : "exit status",
			    WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status));
	return false;
}

char *ss_topology_import_hwloc(const char *path, const char *name, GPtrArray *warnings, GError **err)
{
	struct hw h = { 0 };
	char *xml = NULL, *out = NULL;
	gsize len = 0;
	GError *e = NULL;
	GStatBuf st;
	const char *llc_note;

	g_return_val_if_fail(err == NULL || *err == NULL, NULL);
	if (!ss_imp_check_name(&name, err))
		return NULL;
	h.path = path;
	h.im.warnings = warnings;
	h.im.cpu_dir = g_strdup(path);
	h.im.node_dir = g_strdup(path);
	/* refuse /dev/zero, a FIFO or a directory before reading (they would hang or fill memory) */
	if (g_stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: not a regular file (expected an hwloc XML file)", path);
		goto out;
	}
	if (g_stat(path, &st) == 0 && (uint64_t)st.st_size > SS_MAX_INPUT_BYTES) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: %llu bytes is too large for an hwloc XML file (at most %u MiB)",
			    path, (unsigned long long)st.st_size, (unsigned)(SS_MAX_INPUT_BYTES >> 20));
		goto out;
	}
	if (!g_file_get_contents(path, &xml, &len, &e)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, e->message);
		g_error_free(e);
		goto out;
	}
	if (!check_object_sets(path, xml, len, err))
		goto out;
	if (len > G_MAXINT - 1) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: too large for libhwloc's XML reader", path);
		goto out;
	}
	if (!hwloc_load_survives(path, xml, len, err))
		goto out;
	if (hwloc_topology_init(&h.topo) < 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: hwloc_topology_init failed", path);
		goto out;
	}
	if (len > G_MAXINT - 1 || hwloc_topology_set_xmlbuffer(h.topo, xml, (int)len + 1) < 0 ||
	    hwloc_topology_load(h.topo) < 0) {
		/* an export newer than this libhwloc reads: <topology version="3.0"> (hwloc 2.x reads 1.x and 2.x) */
		const char *tv = strstr(xml, "<topology version=\"");
		unsigned major = tv ? (unsigned)strtoul(tv + strlen("<topology version=\""), NULL, 10) : 0;
		if (major > HWLOC_API_VERSION >> 16) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: an hwloc %u.x XML export (<topology version=\"%u...\">), which libhwloc %s, built into "
				    "simsched, cannot read (expected a v1 or v2 export: lstopo of hwloc 1.x or 2.x, or simsched "
				    "built with a libhwloc of version %u or later)",
				    path, major, major, HWLOC_VERSION, major);
			goto out;
		}
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: not a valid hwloc XML topology (libhwloc %s could not load it; expected an `lstopo FILE.xml` "
			    "export, v1 or v2; HWLOC_XML_VERBOSE=1 shows the parser's reason)", path, HWLOC_VERSION);
		goto out;
	}
	if (read_pus(&h, err) < 0)
		goto out;
	for (unsigned lv = 0; lv < NR_LV; lv++)
		h.im.lv[lv] = g_new0(uint64_t, (size_t)h.im.nr_cpus * h.im.nw);
	h.im.capacity = g_new(unsigned, h.im.nr_cpus);
	read_vendor(&h);
	if (read_nodes(&h, err) < 0 || read_distances(&h, err) < 0)
		goto out;
	read_capacity(&h);
	if (build_masks(&h, err) < 0)
		goto out;
	llc_note = NULL;
	for (unsigned c = 0; c < h.im.nr_cpus && !llc_note; c++)
		llc_note = ancestor_cache(h.pu[c], 3) ? "(LLC = L3)" : ancestor_cache(h.pu[c], 2) ? "(LLC = L2: no L3)"
										   : "(no cache information: kernel fallback)";
	out = ss_imp_emit_yaml(&h.im, name, llc_note);
out:
	if (h.topo)
		hwloc_topology_destroy(h.topo);
	g_free(xml);
	g_free(h.pu);
	g_free(h.node);
	ss_imp_clear(&h.im);
	return out;
}

#endif /* SIMSCHED_HAVE_HWLOC */

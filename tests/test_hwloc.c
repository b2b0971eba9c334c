/*
 * ss_topology_import_hwloc(): hwloc XML generated here from hwloc synthetic
 * topologies (hwloc_topology_set_synthetic + hwloc_topology_export_xmlbuffer),
 * distances added through the hwloc API, v1 XML through the v1 export flag.
 * Each odd machine gets the kernel's (v6.6) behaviour or a refusal that says
 * what and why; the imported YAML loads, builds the expected domains, equals
 * a hand-written file of the same machine (round trip) and runs the main job.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "simsched/error.h"
#include "simsched/sim.h"
#include "simsched/topology.h"
#include "simsched/workload.h"
#include "machine_helpers.h"

#ifdef SIMSCHED_HAVE_HWLOC
#include <hwloc.h>

enum { NO_DIST = 0, SLIT = 1, ASYM = 2, USER = 3 };

struct gen {
	const char *synth;
	const char *vendor;            /* CPUVendor on every package, NULL = none; "V:F" adds CPUFamilyNumber F */
	const char *arch;              /* Architecture on the root, NULL = none */
	int dist;                      /* NO_DIST, SLIT (10/12/21 by pairs), ASYM, USER */
	bool v1;
	int offline_pu;                /* restrict away this PU (-1 = none) */
	const char *kind_info;         /* two CPU kinds (first half / second half) with this info name */
	unsigned kind_val[2];
};

/* Export the described synthetic machine as XML into a temporary file; returns its path (g_free). */
static char *gen_xml(const struct gen *g)
{
	hwloc_topology_t t;
	char *buf = NULL, *path, *full = NULL, *cut = NULL;
	int len = 0, fd;
	GError *err = NULL;

	assert_int_equal(hwloc_topology_init(&t), 0);
	assert_int_equal(hwloc_topology_set_synthetic(t, g->synth), 0);
	assert_int_equal(hwloc_topology_load(t), 0);
	if (g->offline_pu >= 0) {
		hwloc_bitmap_t cs = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(t));

		hwloc_bitmap_asprintf(&full, cs);
		hwloc_bitmap_clr(cs, (unsigned)g->offline_pu);
		hwloc_bitmap_asprintf(&cut, cs);
		assert_int_equal(hwloc_topology_restrict(t, cs, 0), 0);
		hwloc_bitmap_free(cs);
	}
	char **vf = g->vendor ? g_strsplit(g->vendor, ":", 2) : NULL;
	for (hwloc_obj_t p = NULL; vf && (p = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_PACKAGE, p));) {
		hwloc_obj_add_info(p, "CPUVendor", vf[0]);
		if (vf[1])
			hwloc_obj_add_info(p, "CPUFamilyNumber", vf[1]);
	}
	g_strfreev(vf);
	if (g->arch)
		hwloc_obj_add_info(hwloc_get_root_obj(t), "Architecture", g->arch);
	if (g->dist != NO_DIST) {
		unsigned nn = (unsigned)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
		hwloc_obj_t objs[16];
		hwloc_uint64_t v[256];
		unsigned long kind = (g->dist == USER ? HWLOC_DISTANCES_KIND_FROM_USER : HWLOC_DISTANCES_KIND_FROM_OS) |
				     HWLOC_DISTANCES_KIND_MEANS_LATENCY;

		assert_true(nn <= 16);
		for (unsigned i = 0; i < nn; i++) {
			objs[i] = hwloc_get_obj_by_type(t, HWLOC_OBJ_NUMANODE, i);
			for (unsigned j = 0; j < nn; j++)
				v[i * nn + j] = i == j ? 10 : i / 2 == j / 2 ? 12 : 21;
		}
		if (g->dist == ASYM)
			v[0 * nn + 1] = 13;   /* node0 -> node1 differs from node1 -> node0 */
		/* a bandwidth matrix first: the importer chooses by kind, not by order or name */
		{
			hwloc_uint64_t bw[256];
			hwloc_distances_add_handle_t h = hwloc_distances_add_create(t, "NUMALatency",
				HWLOC_DISTANCES_KIND_FROM_OS | HWLOC_DISTANCES_KIND_MEANS_BANDWIDTH, 0);

			for (unsigned i = 0; i < nn * nn; i++)
				bw[i] = 5000 + i;
			assert_non_null(h);
			assert_int_equal(hwloc_distances_add_values(t, h, nn, objs, bw, 0), 0);
			assert_int_equal(hwloc_distances_add_commit(t, h, 0), 0);
		}
		hwloc_distances_add_handle_t h = hwloc_distances_add_create(t, "Whatever", kind, 0);
		assert_non_null(h);
		assert_int_equal(hwloc_distances_add_values(t, h, nn, objs, v, 0), 0);
		assert_int_equal(hwloc_distances_add_commit(t, h, 0), 0);
	}
	if (g->kind_info) {
		unsigned n = (unsigned)hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);

		for (unsigned k = 0; k < 2; k++) {
			hwloc_bitmap_t cs = hwloc_bitmap_alloc();
			char val[16];
			struct hwloc_info_s info = { (char *)g->kind_info, val };

			g_snprintf(val, sizeof(val), "%u", g->kind_val[k]);
			hwloc_bitmap_set_range(cs, k * n / 2, (k + 1) * n / 2 - 1);
			assert_int_equal(hwloc_cpukinds_register(t, cs, (int)k, 1, &info, 0), 0);
			hwloc_bitmap_free(cs);
		}
	}
	assert_int_equal(hwloc_topology_export_xmlbuffer(t, &buf, &len, g->v1 ? HWLOC_TOPOLOGY_EXPORT_XML_FLAG_V1 : 0), 0);
	fd = g_file_open_tmp("simsched-hwloc-XXXXXX.xml", &path, &err);
	assert_true(fd >= 0);
	close(fd);
	if (full) {
		/*
		 * As Linux exports it: an offline CPU stays in the machine's
		 * complete_cpuset (restrict removed it from there too).
		 */
		char *from = g_strdup_printf("complete_cpuset=\"%s\"", cut);
		char *to = g_strdup_printf("complete_cpuset=\"%s\"", full);
		char *at = strstr(buf, from);
		assert_non_null(at);
		GString *x = g_string_new_len(buf, at - buf);
		g_string_append(x, to);
		g_string_append(x, at + strlen(from));
		assert_true(g_file_set_contents(path, x->str, (gssize)x->len, &err));
		g_string_free(x, TRUE);
		g_free(from);
		g_free(to);
		free(full);
		free(cut);
	} else {
		assert_true(g_file_set_contents(path, buf, len - 1, &err));
	}
	hwloc_free_xmlbuffer(t, buf);
	hwloc_topology_destroy(t);
	return path;
}

/* Import; on success load the YAML. *warn gets the warnings joined by '\n'. */
static struct ss_topology *import(const struct gen *g, char **yaml_out, char **warn, GError **err)
{
	char *path = gen_xml(g);
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *yaml = ss_topology_import_hwloc(path, "hw", w, err);
	struct ss_topology *t = NULL;

	g_ptr_array_add(w, NULL);
	*warn = g_strjoinv("\n", (char **)w->pdata);
	g_ptr_array_free(w, TRUE);
	g_unlink(path);
	g_free(path);
	if (!yaml)
		return NULL;
	t = ss_topology_load_string(yaml, strlen(yaml), "imported.yaml", err);
	if (!t)
		fail_msg("imported YAML does not load: %s\n%s", (*err)->message, yaml);
	if (yaml_out)
		*yaml_out = yaml;
	else
		g_free(yaml);
	return t;
}

static const char *levels(const struct ss_topology *t, unsigned cpu)
{
	static char buf[256];
	GString *s = g_string_new(NULL);

	for (unsigned l = 0; l < t->cpu[cpu].nr_sd; l++)
		g_string_append_printf(s, "%s%s(%u)", l ? " " : "", t->cpu[cpu].sd[l].name, t->cpu[cpu].sd[l].span_weight);
	g_strlcpy(buf, s->str, sizeof(buf));
	g_string_free(s, TRUE);
	return buf;
}

/* 2 sockets x 2 L3 groups (one node each) x 4 cores x 2 threads, SLIT 10/12/21 */
#define TWO_SOCKET "pack:2 l3:2 group:1 [numa] core:4 pu:2"

static const char *const two_socket_yaml =
	"name: hw\nvendor: intel\n"
	"numa: {distance: [[10, 12, 21, 21], [12, 10, 21, 21], [21, 21, 10, 12], [21, 21, 12, 10]]}\n"
	"packages:\n"
	"  - repeat: 2\n"
	"    nodes:\n"
	"      - repeat: 2\n"
	"        cores: [{cpus: [0, 1], repeat: 4, step: 2}]\n";

static void check_two_socket(bool v1)
{
	struct gen g = { TWO_SOCKET, "GenuineIntel", "x86_64", SLIT, v1, -1, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL, *yaml = NULL;
	struct ss_topology *t = import(&g, &yaml, &warn, &err);

	assert_non_null(t);
	assert_string_equal(t->vendor, "intel");
	assert_int_equal(t->nr_cpus, 32);
	assert_int_equal(t->nr_packages, 2);
	assert_int_equal(t->nr_nodes, 4);
	assert_int_equal(t->nr_llcs, 4);
	assert_int_equal(t->smt_threads, 2);
	assert_int_equal(ss_node_distance(t, 0, 1), 12);
	assert_int_equal(ss_node_distance(t, 0, 2), 21);
	/* a package holds two nodes: x86 drops DIE; NODE(8) then NUMA(16), NUMA(32) */
	assert_string_equal(levels(t, 0), "SMT(2) MC(8) NUMA(16) NUMA(32)");
	assert_string_equal(L(t, t->cpu[0].smt_mask), "0-1");
	assert_string_equal(L(t, t->cpu[9].llc_mask), "8-15");
	assert_true(strstr(yaml, "LLC = L3") != NULL);

	/* round trip: the imported file builds what the hand-written one builds */
	struct ss_topology *h = ss_topology_load_string(two_socket_yaml, strlen(two_socket_yaml), "hand.yaml", &err);
	assert_non_null(h);
	char *a = ss_topology_describe(t, "json", &err), *b = ss_topology_describe(h, "json", &err);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	ss_topology_free(h);

	/* and it runs the main job */
	char *wpath = g_build_filename(SS_SOURCE_DIR, "workloads", "netperf-tcp-rr.yaml", NULL);
	struct ss_workload *w = ss_workload_load(wpath, &err);
	assert_non_null(w);
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = w;
	c.policy = "sis_util";
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 200000000;
	c.warmup_ns = 100000000;
	struct ss_results *r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_true(ss_results_throughput(r) > 0);
	ss_results_free(r);
	ss_workload_free(w);
	g_free(wpath);
	ss_topology_free(t);
	g_free(yaml);
	g_free(warn);
}

static void test_two_socket_v2(void **state)
{
	check_two_socket(false);
}

static void test_two_socket_v1(void **state)
{
	check_two_socket(true);
}

/* Two NUMA nodes per package with the same cpuset: the second is memory-only (no CPUs, no NUMA level). */
static void test_memory_only_node(void **state)
{
	struct gen g = { "pack:2 [numa] [numa] l3:1 core:2 pu:2", "AuthenticAMD", NULL, SLIT, false, -1, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL, *yaml = NULL;
	struct ss_topology *t = import(&g, &yaml, &warn, &err);

	assert_non_null(t);
	/* nodes 0..3 in hwloc; 0 and 2 have the CPUs, 1 and 3 are memory-only */
	assert_int_equal(t->nr_nodes, 2);
	assert_int_equal(ss_node_distance(t, 0, 1), 21);   /* node0 <-> node2: 0/2 != 2/2 */
	assert_int_equal(t->nr_numa_levels, 2);            /* 10, 21: the 12 of node0<->node1 adds nothing */
	assert_string_equal(levels(t, 0), "SMT(2) MC(4) NUMA(8)");
	assert_int_equal(t->node_reclaim_distance, 32);    /* amd */
	assert_true(strstr(warn, "node(s) without online CPUs left out") != NULL);
	assert_true(strstr(yaml, "# node2") != NULL);
	ss_topology_free(t);
	g_free(yaml);
	g_free(warn);
}

/* Sparse node numbers (0 and 2): the SLIT rows follow the nodes, their ids survive as comments. */
static void test_sparse_node_ids(void **state)
{
	struct gen g = { "pack:2 [numa(indexes=0,2)] l3:1 core:2 pu:2", "GenuineIntel", NULL, NO_DIST, false, -1, NULL,
			 { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL, *yaml = NULL;
	struct ss_topology *t = import(&g, &yaml, &warn, &err);

	assert_non_null(t);
	assert_int_equal(t->nr_nodes, 2);
	assert_true(strstr(yaml, "# node0") && strstr(yaml, "# node2"));
	/* the firmware's numbers are the nodes' ids (os_index): --nodes 2 is the second socket */
	assert_true(strstr(yaml, "# node0\n        id: 0\n") && strstr(yaml, "# node2\n        id: 2\n"));
	assert_int_equal(ss_node_id(t, 0), 0);
	assert_int_equal(ss_node_id(t, 1), 2);
	/* no distance matrix: 10/20 with a warning, one NUMA level */
	assert_int_equal(ss_node_distance(t, 0, 1), 20);
	assert_true(strstr(warn, "no NUMA latency matrix") != NULL);
	assert_string_equal(levels(t, 0), "SMT(2) MC(4) NUMA(8)");
	ss_topology_free(t);
	g_free(yaml);
	g_free(warn);
}

/*
 * An asymmetric latency matrix (node0->node1 13, node1->node0 12) is kept as
 * it is, row = from (hwloc's values[i * nbobjs + j] is the distance from i
 * to j), with a warning; v6.6 builds each node's NUMA spans from its own
 * row: node 0 reaches node 1 at 13, node 1 reaches node 0 at 12.
 */
static void test_asymmetric_distances(void **state)
{
	struct gen g = { TWO_SOCKET, "GenuineIntel", NULL, ASYM, false, -1, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL, *yaml = NULL;
	struct ss_topology *t = import(&g, &yaml, &warn, &err);

	if (!t)
		fail_msg("%s", err->message);
	assert_true(strstr(warn, "asymmetric NUMA distances (node0->node1 is 13, node1->node0 is 12): kept as they are") != NULL);
	assert_true(strstr(yaml, "# asymmetric: row = from node, column = to node") != NULL);
	assert_true(strstr(yaml, "- [10, 13, 21, 21]\n    - [12, 10, 21, 21]\n") != NULL);
	assert_int_equal(ss_node_distance(t, 0, 1), 13);
	assert_int_equal(ss_node_distance(t, 1, 0), 12);
	assert_int_equal(t->nr_numa_levels, 4);            /* 10, 12, 13, 21 */
	assert_string_equal(levels(t, 0), "SMT(2) MC(8) NUMA(16) NUMA(32)");
	assert_string_equal(levels(t, 8), "SMT(2) MC(8) NUMA(16) NUMA(32)");
	/* the same 16 CPUs, reached at each node's own distance */
	assert_int_equal(t->cpu[0].sd[2].numa_level, 2);   /* node 0: 13 */
	assert_int_equal(t->cpu[8].sd[2].numa_level, 1);   /* node 1: 12 */
	assert_int_equal(t->cpu[16].sd[2].numa_level, 1);
	assert_string_equal(L(t, t->cpu[0].sd[2].span), "0-15");
	assert_non_null(ss_topology_warnings(t)[0]);

	/* round trip: the hand-written file with the same matrix builds the same domains */
	GString *hand = g_string_new(two_socket_yaml);
	g_string_replace(hand, "[[10, 12, 21, 21], [12, 10", "[[10, 13, 21, 21], [12, 10", 1);
	struct ss_topology *h = ss_topology_load_string(hand->str, hand->len, "hand.yaml", &err);
	assert_non_null(h);
	char *a = ss_topology_describe(t, "json", &err), *b = ss_topology_describe(h, "json", &err);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	ss_topology_free(h);
	g_string_free(hand, TRUE);
	ss_topology_free(t);
	g_free(yaml);
	g_free(warn);
}

/* A user-provided latency matrix is used (after the OS one), with a warning. */
static void test_user_distances(void **state)
{
	struct gen g = { TWO_SOCKET, "GenuineIntel", NULL, USER, false, -1, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL;
	struct ss_topology *t = import(&g, NULL, &warn, &err);

	assert_non_null(t);
	assert_int_equal(ss_node_distance(t, 2, 3), 12);
	assert_true(strstr(warn, "FROM_USER latency") != NULL);
	ss_topology_free(t);
	g_free(warn);
}

/* One L3 over two nodes (Sub-NUMA Clustering): the LLC is clipped to the node. */
static void test_l3_spanning_nodes(void **state)
{
	struct gen g = { "pack:2 l3:1 group:2 [numa] core:2 pu:2", "GenuineIntel", NULL, SLIT, false, -1, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL;
	struct ss_topology *t = import(&g, NULL, &warn, &err);

	assert_non_null(t);
	assert_int_equal(t->nr_llcs, 4);
	assert_string_equal(L(t, t->cpu[0].llc_mask), "0-3");
	assert_string_equal(levels(t, 0), "SMT(2) MC(4) NUMA(8) NUMA(16)");
	assert_true(strstr(warn, "clipped to the node") != NULL);
	ss_topology_free(t);
	g_free(warn);
}

/* The highest CPU offline: its core keeps one thread (absent from the sibling mask); its number stays. */
static void test_smt_thread_offline(void **state)
{
	struct gen g = { "pack:1 [numa] l3:1 core:4 pu:2", "GenuineIntel", NULL, NO_DIST, false, 7, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL, *yaml = NULL;
	struct ss_topology *t = import(&g, &yaml, &warn, &err);

	assert_non_null(t);
	assert_int_equal(t->nr_cpus, 8);
	assert_int_equal(t->nr_active, 7);
	assert_true(t->cpu[7].offline);
	assert_non_null(strstr(yaml, "offline: \"7\""));
	assert_string_equal(L(t, t->cpu[6].smt_mask), "6");
	assert_string_equal(L(t, t->cpu[5].smt_mask), "4-5");
	/* CPU 6 has no SMT domain (one CPU), the others do */
	assert_string_equal(levels(t, 6), "MC(7)");
	assert_string_equal(levels(t, 0), "SMT(2) MC(7)");
	assert_string_equal(levels(t, 7), "");
	assert_true(strstr(warn, "CPU 7 is offline") != NULL);
	ss_topology_free(t);
	g_free(warn);
	g_free(yaml);
}

static const char *const gap_yaml =
	"name: hw\nvendor: intel\noffline: \"2\"\n"
	"packages:\n  - cores: [[0, 1], [3], [4, 5], [6, 7]]\n";

/*
 * An offline CPU in the middle (PU 2 of core {2,3}): the numbers stay, CPU 2
 * is written as offline, CPU 3 is a core alone; the round trip builds what a
 * hand-written file with the same 'offline' builds.
 */
static void test_offline_gap(void **state)
{
	struct gen g = { "pack:1 [numa] l3:1 core:4 pu:2", "GenuineIntel", NULL, NO_DIST, false, 2, NULL, { 0, 0 } };
	GError *err = NULL;
	char *warn = NULL, *yaml = NULL;
	struct ss_topology *t = import(&g, &yaml, &warn, &err);

	if (!t)
		fail_msg("%s", err->message);
	assert_int_equal(t->nr_cpus, 8);
	assert_int_equal(t->nr_active, 7);
	assert_true(t->cpu[2].offline);
	assert_non_null(strstr(yaml, "offline: \"2\""));
	assert_non_null(strstr(yaml, "- [3]"));
	assert_true(strstr(warn, "CPU 2 is offline") != NULL);
	assert_string_equal(levels(t, 3), "MC(7)");
	assert_string_equal(levels(t, 0), "SMT(2) MC(7)");
	assert_string_equal(L(t, t->cpu[0].sd[1].span), "0-1,3-7");

	struct ss_topology *h = ss_topology_load_string(gap_yaml, strlen(gap_yaml), "hand.yaml", &err);
	if (!h)
		fail_msg("%s", err->message);
	char *a = ss_topology_describe(t, "json", &err), *b = ss_topology_describe(h, "json", &err);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	ss_topology_free(h);
	ss_topology_free(t);
	g_free(warn);
	g_free(yaml);
}

/* arm64 big.LITTLE: LinuxCapacity of two CPU kinds gives capacities; the asym flags follow. */
static void test_cpukinds_capacity(void **state)
{
	struct gen g = { "pack:1 [numa] l2:2 core:4 pu:1", NULL, "aarch64", NO_DIST, false, -1, "LinuxCapacity", { 446, 1024 } };
	GError *err = NULL;
	char *warn = NULL;
	struct ss_topology *t = import(&g, NULL, &warn, &err);

	assert_non_null(t);
	assert_string_equal(t->vendor, "arm");
	assert_int_equal(t->cpu[0].capacity, 446);
	assert_int_equal(t->cpu[7].capacity, 1024);
	/* no L3: the LLC is the L2 of each cluster of four, so the machine level is DIE */
	assert_string_equal(levels(t, 0), "MC(4) DIE(8)");
	assert_true(t->cpu[0].sd[1].flags & SD_ASYM_CPUCAPACITY_FULL);
	assert_true(strstr(warn, "no L3 cache") != NULL);
	ss_topology_free(t);
	g_free(warn);

	/* FrequencyMaxMHz only: the frequency ratio, with a warning */
	struct gen f = { "pack:1 [numa] l2:2 core:4 pu:1", NULL, "aarch64", NO_DIST, false, -1, "FrequencyMaxMHz",
			 { 1800, 2400 } };
	t = import(&f, NULL, &warn, &err);
	assert_non_null(t);
	assert_int_equal(t->cpu[0].capacity, 1800 * 1024 / 2400);
	assert_int_equal(t->cpu[4].capacity, 1024);
	assert_true(strstr(warn, "FrequencyMaxMHz ratio") != NULL);
	ss_topology_free(t);
	g_free(warn);

	/* x86 hybrid: v6.6 x86 has no per-CPU capacity */
	struct gen x = { "pack:1 [numa] l3:1 core:8 pu:1", "GenuineIntel", NULL, NO_DIST, false, -1, "LinuxCapacity",
			 { 446, 1024 } };
	t = import(&x, NULL, &warn, &err);
	assert_non_null(t);
	assert_int_equal(t->cpu[0].capacity, 1024);
	assert_true(strstr(warn, "ITMT") != NULL);
	ss_topology_free(t);
	g_free(warn);
}

/*
 * AMD family 15h, as hwloc shows hwloc's 64amd64-4p2n4ca2co (Opteron 6272):
 * each core of a compute unit is a Core of its own under the unit's L2.
 * v6.6 match_smt() pairs them by cu_id: SMT(2), not a cluster of two.
 */
static void test_bulldozer_compute_units(void **state)
{
	struct gen g = { "pack:2 [numa] l3:1 l2:4 core:2 pu:1", "AuthenticAMD:21", NULL, NO_DIST, false, -1, NULL, { 0 } };
	GError *err = NULL;
	char *warn = NULL;
	struct ss_topology *t = import(&g, NULL, &warn, &err);

	(void)state;
	assert_non_null(t);
	for (unsigned c = 0; c < 16; c++) {
		assert_string_equal(levels(t, c), "SMT(2) MC(8) NUMA(16)");
		assert_true(ss_cpumask_test(t->cpu[c].smt_mask, c ^ 1));
	}
	assert_non_null(strstr(warn, "AMD family 15h: the cores of each compute unit (one L2) are SMT siblings"));
	ss_topology_free(t);
	g_free(warn);

	/* Zen (family 23) and Intel: the L2 pairs stay a cluster of two cores without SMT */
	static const char *const other[] = { "AuthenticAMD:23", "GenuineIntel:6" };
	for (unsigned i = 0; i < G_N_ELEMENTS(other); i++) {
		struct gen o = g;
		o.vendor = other[i];
		t = import(&o, NULL, &warn, &err);
		assert_non_null(t);
		assert_string_equal(levels(t, 0), "CLS(2) MC(8) NUMA(16)");
		assert_null(strstr(warn, "compute unit"));
		ss_topology_free(t);
		g_free(warn);
	}
}

static void test_bad_files(void **state)
{
	GError *err = NULL;
	char *path = NULL;
	int fd = g_file_open_tmp("simsched-hwloc-XXXXXX.xml", &path, &err);

	close(fd);
	assert_true(g_file_set_contents(path, "<topology><object type=", -1, &err));
	assert_null(ss_topology_import_hwloc(path, NULL, NULL, &err));
	assert_int_equal(err->code, SS_ERROR_INVALID);
	assert_true(g_str_has_prefix(err->message, path));
	g_clear_error(&err);
	g_unlink(path);
	assert_null(ss_topology_import_hwloc(path, NULL, NULL, &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	g_clear_error(&err);

	/* a symlink to /dev/zero is refused before anything is read (it would never end) */
	assert_int_equal(symlink("/dev/zero", path), 0);
	assert_null(ss_topology_import_hwloc(path, NULL, NULL, &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	if (!strstr(err->message, "not a regular file"))
		fail_msg("%s", err->message);
	g_clear_error(&err);
	g_unlink(path);
	g_free(path);

	/* a negative os_index reads as what it says, not as 4294967295, refused before libhwloc sees it */
	struct gen g = { "pack:1 [numa] l3:1 core:2 pu:2", "GenuineIntel", NULL, NO_DIST, false, -1, NULL, { 0, 0 } };
	char *xml = NULL, *neg, *at;

	path = gen_xml(&g);
	assert_true(g_file_get_contents(path, &xml, NULL, NULL));
	at = strstr(xml, "type=\"PU\" os_index=\"3\"");
	assert_non_null(at);
	*strstr(at, "\"3\"") = 0;
	neg = g_strconcat(xml, "\"-1\"", at + strlen(at) + 3, NULL);
	assert_true(g_file_set_contents(path, neg, -1, NULL));
	assert_null(ss_topology_import_hwloc(path, NULL, NULL, &err));
	if (!strstr(err->message, ":21:11: an <object type=\"PU\"> with os_index \"-1\" (expected a CPU number 0..4095") ||
	    strstr(err->message, "4294967295"))
		fail_msg("%s", err->message);
	g_clear_error(&err);
	g_unlink(path);
	g_free(path);
	g_free(xml);
	g_free(neg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_socket_v2),
		cmocka_unit_test(test_two_socket_v1),
		cmocka_unit_test(test_memory_only_node),
		cmocka_unit_test(test_sparse_node_ids),
		cmocka_unit_test(test_asymmetric_distances),
		cmocka_unit_test(test_user_distances),
		cmocka_unit_test(test_l3_spanning_nodes),
		cmocka_unit_test(test_smt_thread_offline),
		cmocka_unit_test(test_offline_gap),
		cmocka_unit_test(test_cpukinds_capacity),
		cmocka_unit_test(test_bulldozer_compute_units),
		cmocka_unit_test(test_bad_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#else /* built without hwloc */

static void test_without_hwloc(void **state)
{
	GError *err = NULL;

	assert_null(ss_topology_import_hwloc("m.xml", NULL, NULL, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_true(strstr(err->message, "built without hwloc") != NULL);
	g_error_free(err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_without_hwloc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

#endif

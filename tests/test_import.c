/*
 * sysfs → topology YAML (ss_topology_import_sysfs): the fake trees in
 * tests/data/sysfs/ round-trip through ss_topology_load_string with the
 * per-CPU groupings sysfs describes; missing information gives warnings and
 * the kernel's fallbacks; malformed trees give "path: what (expected)" errors.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <glib/gstdio.h>

#include "simsched/topology.h"
#include "simsched/params.h"
#include "simsched/sim.h"
#include "simsched/workload.h"
#include "simsched/error.h"
#include "sysfs_tree.h"

static char *tree(const char *name)
{
	return g_build_filename(SS_TEST_DATA, "sysfs", name, NULL);
}

/* Import tree `name`, load the YAML, return the machine; warnings into *w. */
static struct ss_topology *import_load(const char *name, GPtrArray **w)
{
	GError *err = NULL;
	char *root = tree(name);
	GPtrArray *warnings = g_ptr_array_new_with_free_func(g_free);
	char *yaml = ss_topology_import_sysfs(root, "test", warnings, &err);

	if (!yaml)
		fail_msg("%s: %s", root, err->message);
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "imported.yaml", &err);
	if (!t)
		fail_msg("%s\n---\n%s", err->message, yaml);
	assert_non_null(strstr(yaml, "# Imported by"));
	g_free(yaml);
	g_free(root);
	if (w)
		*w = warnings;
	else
		g_ptr_array_free(warnings, TRUE);
	return t;
}

static bool has_warning(GPtrArray *w, const char *needle)
{
	for (unsigned i = 0; i < w->len; i++)
		if (strstr(g_ptr_array_index(w, i), needle))
			return true;
	return false;
}

static void test_x86_2s(void **state)
{
	(void)state;
	GPtrArray *w;
	struct ss_topology *t = import_load("x86-2s", &w);

	assert_int_equal(w->len, 0);
	assert_string_equal(t->vendor, "intel");
	assert_string_equal(t->name, "test");
	assert_int_equal(t->nr_cpus, 16);
	assert_int_equal(t->nr_packages, 2);
	assert_int_equal(t->nr_nodes, 2);
	assert_int_equal(t->nr_llcs, 2);
	assert_int_equal(t->nr_cores, 8);
	assert_int_equal(t->smt_threads, 2);
	assert_int_equal(ss_node_distance(t, 0, 1), 21);
	assert_int_equal(ss_node_distance(t, 1, 1), 10);
	for (unsigned c = 0; c < 16; c++) {
		unsigned sock = (c % 8) / 4;

		assert_int_equal(t->cpu[c].package, sock);
		assert_int_equal(t->cpu[c].node, sock);
		assert_int_equal(t->cpu[c].capacity, 1024);
		assert_int_equal(ss_cpumask_weight(t->cpu[c].smt_mask, t->nr_words), 2);
		assert_true(ss_cpumask_test(t->cpu[c].smt_mask, c % 8));
		assert_true(ss_cpumask_test(t->cpu[c].smt_mask, c % 8 + 8));
		for (unsigned d = 0; d < 16; d++)
			assert_int_equal(ss_cpus_share_cache(t, c, d), (d % 8) / 4 == sock);
		/* SMT(2) -> MC(8) -> NUMA(16) */
		assert_int_equal(t->cpu[c].nr_sd, 3);
		assert_int_equal(t->cpu[c].sd[0].level, SS_SD_SMT);
		assert_int_equal(t->cpu[c].sd[0].span_weight, 2);
		assert_int_equal(t->cpu[c].sd[1].level, SS_SD_MC);
		assert_int_equal(t->cpu[c].sd[1].span_weight, 8);
		assert_int_equal(t->cpu[c].sd[2].level, SS_SD_NUMA);
		assert_string_equal(t->cpu[c].sd[2].name, "NUMA");
		assert_int_equal(t->cpu[c].sd[2].span_weight, 16);
	}
	ss_topology_free(t);
	g_ptr_array_free(w, TRUE);
}

static void test_arm_clusters(void **state)
{
	(void)state;
	GPtrArray *w;
	struct ss_topology *t = import_load("arm-cls", &w);

	assert_int_equal(w->len, 0);
	assert_string_equal(t->vendor, "arm");
	assert_int_equal(t->nr_cpus, 8);
	assert_int_equal(t->nr_nodes, 1);
	assert_int_equal(t->nr_llcs, 1);
	assert_int_equal(t->nr_clusters, 2);
	assert_int_equal(t->smt_threads, 1);
	for (unsigned c = 0; c < 8; c++) {
		assert_int_equal(t->cpu[c].package, 0);
		assert_int_equal(t->cpu[c].node, 0);
		assert_int_equal(t->cpu[c].cluster, c / 4);
		assert_int_equal(t->cpu[c].capacity, c < 4 ? 512 : 1024);
		assert_int_equal(ss_cpumask_weight(t->cpu[c].smt_mask, t->nr_words), 1);
		assert_int_equal(ss_cpumask_weight(t->cpu[c].cluster_mask, t->nr_words), 4);
		for (unsigned d = 0; d < 8; d++)
			assert_true(ss_cpus_share_cache(t, c, d));
		assert_int_equal(t->cpu[c].sd[0].level, SS_SD_CLS);
		assert_int_equal(t->cpu[c].sd[t->cpu[c].nr_sd - 1].span_weight, 8);
		assert_true(t->cpu[c].sd[t->cpu[c].nr_sd - 1].flags & SD_ASYM_CPUCAPACITY);
	}
	ss_topology_free(t);
	g_ptr_array_free(w, TRUE);
}

static void test_vm_fallbacks(void **state)
{
	(void)state;
	GPtrArray *w;
	struct ss_topology *t = import_load("vm", &w);

	/* vendor from modalias (ven0000 = intel); no caches, no nodes */
	assert_string_equal(t->vendor, "intel");
	assert_true(has_warning(w, "no cache information"));
	assert_true(has_warning(w, "no node directories"));
	assert_int_equal(t->nr_cpus, 4);
	assert_int_equal(t->nr_nodes, 1);
	assert_int_equal(t->nr_cores, 2);
	/* x86 without LLC ids: the LLC is the core (its SMT siblings) */
	assert_int_equal(t->nr_llcs, 2);
	assert_true(ss_cpus_share_cache(t, 0, 1));
	assert_true(ss_cpus_share_cache(t, 2, 3));
	assert_false(ss_cpus_share_cache(t, 0, 2));
	for (unsigned c = 0; c < 4; c++) {
		assert_int_equal(ss_cpumask_weight(t->cpu[c].smt_mask, t->nr_words), 2);
		assert_true(ss_cpumask_test(t->cpu[c].smt_mask, c ^ 1));
		assert_int_equal(t->cpu[c].llc_size, 2);
	}
	ss_topology_free(t);
	g_ptr_array_free(w, TRUE);
}

static void expect_error(const char *name, const char *path_part, const char *what)
{
	GError *err = NULL;
	char *root = tree(name);
	char *yaml = ss_topology_import_sysfs(root, NULL, NULL, &err);

	assert_null(yaml);
	assert_non_null(err);
	assert_true(err->domain == SS_ERROR);
	if (!strstr(err->message, path_part) || !strstr(err->message, what) || !strstr(err->message, "(expected"))
		fail_msg("%s: unexpected message: %s", name, err->message);
	g_error_free(err);
	g_free(root);
}

static void test_malformed(void **state)
{
	(void)state;
	expect_error("bad-online", "cpu/online: ", "bad cpulist \"0-1,3x\"");
	expect_error("bad-siblings", "cpu1/topology/thread_siblings_list: ", "bad cpulist \"1-x\"");
	expect_error("bad-distance", "node0/distance: ", "3 distances");
	expect_error("does-not-exist", "does-not-exist", "not a directory");
}

static void test_name_and_warnings_null(void **state)
{
	(void)state;
	GError *err = NULL;
	char *root = tree("vm");
	char *yaml = ss_topology_import_sysfs(root, "a \"quoted\" name", NULL, &err);

	assert_non_null(yaml);
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "imported.yaml", &err);
	assert_non_null(t);
	assert_string_equal(t->name, "a \"quoted\" name");
	ss_topology_free(t);
	g_free(yaml);
	assert_null(ss_topology_import_sysfs(root, "bad\nname", NULL, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	g_clear_error(&err);
	g_free(root);
}

/* The machine running the tests: it loads, or fails with a path-prefixed error. */
static void test_live(void **state)
{
	(void)state;
	GError *err = NULL;
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *yaml = ss_topology_import_sysfs("/", NULL, w, &err);

	if (!yaml) {
		assert_non_null(err);
		assert_true(err->domain == SS_ERROR);
		assert_non_null(strchr(err->message, '/'));
		print_message("live import failed (accepted): %s\n", err->message);
		g_clear_error(&err);
	} else {
		struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "live.yaml", &err);

		if (!t)
			fail_msg("%s\n---\n%s", err->message, yaml);
		assert_true(t->nr_cpus >= 1);
		ss_topology_free(t);
		g_free(yaml);
	}
	for (unsigned i = 0; i < w->len; i++)
		print_message("live warning: %s\n", (const char *)g_ptr_array_index(w, i));
	g_ptr_array_free(w, TRUE);
}

/*
 * The odd cases in sysfs form, built here: CPU 7 offline (so core 3,7 has
 * one thread and sibling lists stop at 6), sparse node ids (node0, node2), a
 * memory-only node3 (empty cpulist; it adds no NUMA level, v6.6
 * for_each_cpu_node_but), and one L3 over both nodes (SNC: clipped to the
 * node, x86 match_llc()).
 */
static void test_odd_tree(void **state)
{
	GError *err = NULL;
	char *root = g_dir_make_tmp("simsched-sysfs-XXXXXX", &err);
	char rel[128], txt[64];

	assert_non_null(root);
	put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
	put(root, "sys/devices/system/cpu/online", "0-6\n");
	for (unsigned c = 0; c < 7; c++) {
		unsigned core = c % 4;

		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		put(root, rel, "0\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/core_id", c);
		g_snprintf(txt, sizeof(txt), "%u\n", core);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		g_snprintf(txt, sizeof(txt), core == 3 ? "3\n" : "%u,%u\n", core, core + 4);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/level", c);
		put(root, rel, "3\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/type", c);
		put(root, rel, "Unified\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/shared_cpu_list", c);
		put(root, rel, "0-6\n");
	}
	put(root, "sys/devices/system/node/node0/cpulist", "0-1,4-5\n");
	put(root, "sys/devices/system/node/node0/distance", "10 21 17\n");
	put(root, "sys/devices/system/node/node2/cpulist", "2-3,6\n");
	put(root, "sys/devices/system/node/node2/distance", "21 10 28\n");
	put(root, "sys/devices/system/node/node3/cpulist", "\n");
	put(root, "sys/devices/system/node/node3/distance", "17 28 10\n");

	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *yaml = ss_topology_import_sysfs(root, "odd", w, &err);
	if (!yaml)
		fail_msg("%s", err->message);
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "odd.yaml", &err);
	if (!t)
		fail_msg("%s\n%s", err->message, yaml);
	assert_int_equal(t->nr_cpus, 7);
	assert_int_equal(t->nr_nodes, 2);
	assert_int_equal(ss_node_distance(t, 0, 1), 21);
	assert_int_equal(t->nr_numa_levels, 2);            /* 10, 21: node3's 17 and 28 add nothing */
	assert_non_null(strstr(yaml, "# node2"));
	assert_true(has_warning(w, "without online CPUs left out"));
	assert_true(has_warning(w, "split at node boundaries"));
	assert_int_equal(ss_cpumask_weight(t->cpu[3].smt_mask, t->nr_words), 1);
	assert_int_equal(t->cpu[0].llc_size, 4);
	assert_int_equal(t->cpu[3].llc_size, 3);
	/* CPU 0: SMT(2) MC(4) NUMA(7); CPU 3 (no sibling online): MC(3) NUMA(7) */
	assert_int_equal(t->cpu[0].nr_sd, 3);
	assert_string_equal(t->cpu[0].sd[0].name, "SMT");
	assert_int_equal(t->cpu[3].nr_sd, 2);
	assert_string_equal(t->cpu[3].sd[0].name, "MC");
	assert_int_equal(t->cpu[3].sd[1].span_weight, 7);
	ss_topology_free(t);
	g_free(yaml);

	/* an asymmetric SLIT is kept as it is (row = from), with a warning (tests/test_numa_asym.c) */
	put(root, "sys/devices/system/node/node2/distance", "22 10 28\n");
	g_ptr_array_set_size(w, 0);
	yaml = ss_topology_import_sysfs(root, "odd", w, &err);
	assert_non_null(yaml);
	assert_true(has_warning(w, "asymmetric NUMA distances (node0->node2 is 21, node2->node0 is 22)"));
	assert_non_null(strstr(yaml, "- [10, 21]\n    - [22, 10]\n"));
	g_free(yaml);

	/* no distance files: 10/20 with a warning */
	for (unsigned n = 0; n < 4; n++) {
		g_snprintf(rel, sizeof(rel), "%s/sys/devices/system/node/node%u/distance", root, n);
		g_remove(rel);
	}
	g_ptr_array_set_size(w, 0);
	yaml = ss_topology_import_sysfs(root, "odd", w, &err);
	assert_non_null(yaml);
	assert_true(has_warning(w, "20 (REMOTE_DISTANCE)"));
	assert_non_null(strstr(yaml, "- [10, 20]"));
	g_free(yaml);
	g_ptr_array_free(w, TRUE);
	rm_tree(root);
	g_free(root);
}

static const char *const offline_hand_yaml =
	"name: hole\nvendor: intel\noffline: \"5\"\n"
	"numa: {distance: [[10, 21], [21, 10]]}\n"
	"packages:\n"
	"  - cores: [[0, 8], [1, 9], [2, 10], [3, 11]]\n"
	"  - cores: [[4, 12], [5, 13], [6, 14], [7, 15]]\n";

/*
 * A hole in cpu/online ("0-4,6-15": cpu5 offline, so core 5,13 keeps one
 * thread): the CPU numbers are kept, cpu5 is written as 'offline' with one
 * warning naming it, the file builds what a hand-written one with the same
 * 'offline' builds, and the main job runs on it. As in Linux, the offline
 * CPU's directory has no topology/ or cache/, and other CPUs' lists do not
 * name it.
 */
/*
 * A small consistent tree: 2 packages x 2 cores x 2 threads, siblings n and
 * n+4, one L3 and one node per package, cpu/possible 0-7. Returns its root.
 */
static char *small_tree(void)
{
	char *root = g_dir_make_tmp("simsched-sysfs-XXXXXX", NULL);
	char rel[128], txt[64];

	assert_non_null(root);
	put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
	put(root, "sys/devices/system/cpu/online", "0-7\n");
	put(root, "sys/devices/system/cpu/possible", "0-7\n");
	for (unsigned c = 0; c < 8; c++) {
		unsigned core = c % 4, pkg = core / 2;

#define P(file, ...) do { g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/%s", c, file); \
		g_snprintf(txt, sizeof(txt), __VA_ARGS__); put(root, rel, txt); } while (0)
		P("topology/physical_package_id", "%u\n", pkg);
		P("topology/core_id", "%u\n", core % 2);
		P("topology/thread_siblings_list", "%u,%u\n", core, core + 4);
		P("cache/index0/level", "1\n");
		P("cache/index0/type", "Data\n");
		P("cache/index0/shared_cpu_list", "%u,%u\n", core, core + 4);
		P("cache/index3/level", "3\n");
		P("cache/index3/type", "Unified\n");
		P("cache/index3/shared_cpu_list", pkg ? "2-3,6-7\n" : "0-1,4-5\n");
#undef P
	}
	put(root, "sys/devices/system/node/node0/cpulist", "0-1,4-5\n");
	put(root, "sys/devices/system/node/node0/distance", "10 21\n");
	put(root, "sys/devices/system/node/node1/cpulist", "2-3,6-7\n");
	put(root, "sys/devices/system/node/node1/distance", "21 10\n");
	return root;
}

/* Import root: NULL and *msg set on error; the YAML otherwise. */
static char *import_root(const char *root, GPtrArray *w, char **msg)
{
	GError *err = NULL;
	char *yaml = ss_topology_import_sysfs(root, "t", w, &err);

	*msg = NULL;
	if (!yaml) {
		assert_non_null(err);
		assert_true(err->domain == SS_ERROR);
		*msg = g_strdup(err->message);
		g_error_free(err);
	}
	return yaml;
}

/* Change one file of a fresh small tree (text NULL: remove it; "->X": symlink to X) and expect an error. */
static void tree_error(const char *rel, const char *text, const char *want1, const char *want2)
{
	char *root = small_tree(), *p = g_build_filename(root, rel, NULL), *msg;

	if (!text) {
		rm_tree(p);
	} else if (g_str_has_prefix(text, "->")) {
		g_remove(p);
		assert_int_equal(symlink(text + 2, p), 0);
	} else {
		put(root, rel, text);
	}
	char *yaml = import_root(root, NULL, &msg);
	if (yaml)
		fail_msg("%s = %s: imported without error", rel, text ? text : "(removed)");
	if (!strstr(msg, want1) || (want2 && !strstr(msg, want2)) || !strstr(msg, "(expected"))
		fail_msg("%s: unexpected message: %s", rel, msg);
	g_free(msg);
	g_free(p);
	rm_tree(root);
	g_free(root);
}

/*
 * Kernels before the *_list attributes (2.6.x, e.g. hwloc's 16em64t-4s2c2t
 * tree) have only the masks: node/cpumap, topology/thread_siblings,
 * cache/indexN/shared_cpu_map. The same tree with masks instead of lists
 * imports as the same machine; an empty cache mask (ia64) is the CPU's own
 * cache, with a warning; a mask that is not hex words is an error naming it.
 */
static char *as_mask(unsigned lo, unsigned hi_bits)
{
	return g_strdup_printf("00000000,%08x\n", lo | hi_bits);
}

static void test_masks_without_lists(void **state)
{
	char *root = small_tree(), *msg, *want = import_root(root, NULL, &msg);
	(void)state;

	if (!want)
		fail_msg("%s", msg);
	for (unsigned c = 0; c < 8; c++) {
		unsigned core = c % 4, pkg = core / 2;
		char rel[128], *m;

		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		g_autofree char *sib = g_build_filename(root, rel, NULL);
		rm_tree(sib);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings", c);
		put(root, rel, m = as_mask(1u << core | 1u << (core + 4), 0));
		g_free(m);
		for (unsigned i = 0; i < 4; i += 3) {
			g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index%u/shared_cpu_list", c, i);
			char *full = g_build_filename(root, rel, NULL);
			if (g_file_test(full, G_FILE_TEST_EXISTS)) {
				rm_tree(full);
				g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index%u/shared_cpu_map", c, i);
				put(root, rel, m = i ? as_mask(pkg ? 0xcc : 0x33, 0) : as_mask(1u << core | 1u << (core + 4), 0));
				g_free(m);
			}
			g_free(full);
		}
	}
	for (unsigned n = 0; n < 2; n++) {
		char rel[128];
		g_snprintf(rel, sizeof(rel), "sys/devices/system/node/node%u/cpulist", n);
		g_autofree char *list = g_build_filename(root, rel, NULL);
		rm_tree(list);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/node/node%u/cpumap", n);
		put(root, rel, n ? "00000000,000000cc\n" : "00000000,00000033\n");
	}
	char *got = import_root(root, NULL, &msg);
	if (!got)
		fail_msg("%s", msg);
	assert_string_equal(strchr(got, '\n'), strchr(want, '\n'));   /* after the header line naming the tree */
	g_free(got);

	/* an empty cache mask: the CPU's own cache (cpu0's L3 alone), with a warning */
	put(root, "sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_map", "00000000,00000000\n");
	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	got = import_root(root, w, &msg);
	if (got)
		fail_msg("cpu0 alone in an L3 that cpu1 says it shares: imported");
	assert_non_null(strstr(msg, "shared_cpu_list (highest level)"));
	g_free(msg);
	bool warned = false;
	for (guint i = 0; i < w->len; i++)
		warned |= strstr(g_ptr_array_index(w, i), "cpu0/cache/index3: shares the cache with no CPU; taken as cpu0's own") != NULL;
	assert_true(warned);
	g_ptr_array_free(w, TRUE);

	/* not a mask */
	put(root, "sys/devices/system/node/node0/cpumap", "0-3\n");
	got = import_root(root, NULL, &msg);
	assert_null(got);
	if (!strstr(msg, "node0/cpumap: bad CPU mask \"0-3") || !strstr(msg, "(expected 32-bit hex words"))
		fail_msg("%s", msg);
	g_free(msg);
	g_free(want);
	rm_tree(root);
	g_free(root);
}

/*
 * AMD family 15h (Bulldozer): one package, four compute units of two cores,
 * each core its own core_id; the kernel lists the two cores of a unit as
 * thread siblings (v6.6 match_smt() pairs by cu_id) and they share the L2.
 */
static char *bulldozer_tree(const char *vendor, unsigned family)
{
	char *root = g_dir_make_tmp("simsched-sysfs-XXXXXX", NULL);
	char rel[128], txt[96];

	assert_non_null(root);
	g_snprintf(txt, sizeof(txt), "processor\t: 0\nvendor_id\t: %s\ncpu family\t: %u\n\nprocessor\t: 1\n", vendor, family);
	put(root, "proc/cpuinfo", txt);
	put(root, "sys/devices/system/cpu/online", "0-7\n");
	put(root, "sys/devices/system/cpu/possible", "0-7\n");
	for (unsigned c = 0; c < 8; c++) {
		unsigned cu = c / 2;
#define P(file, ...) do { g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/%s", c, file); \
		g_snprintf(txt, sizeof(txt), __VA_ARGS__); put(root, rel, txt); } while (0)
		P("topology/physical_package_id", "0\n");
		P("topology/core_id", "%u\n", c);
		P("topology/thread_siblings_list", "%u-%u\n", 2 * cu, 2 * cu + 1);
		P("cache/index0/level", "1\n");
		P("cache/index0/type", "Data\n");
		P("cache/index0/shared_cpu_list", "%u\n", c);
		P("cache/index2/level", "2\n");
		P("cache/index2/type", "Unified\n");
		P("cache/index2/shared_cpu_list", "%u-%u\n", 2 * cu, 2 * cu + 1);
		P("cache/index3/level", "3\n");
		P("cache/index3/type", "Unified\n");
		P("cache/index3/shared_cpu_list", "0-7\n");
#undef P
	}
	put(root, "sys/devices/system/node/node0/cpulist", "0-7\n");
	put(root, "sys/devices/system/node/node0/distance", "10\n");
	return root;
}

static void test_bulldozer_compute_units(void **state)
{
	char *root = bulldozer_tree("AuthenticAMD", 21), *msg;
	char *yaml = import_root(root, NULL, &msg);
	GError *err = NULL;

	(void)state;
	if (!yaml)
		fail_msg("%s", msg);
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "bulldozer.yaml", &err);
	assert_non_null(t);
	/* SMT(2) -> MC(8): the compute units are SMT siblings, the L2 cluster is the same span (degenerate) */
	for (unsigned c = 0; c < 8; c++) {
		assert_int_equal(ss_cpumask_weight(t->cpu[c].smt_mask, t->nr_words), 2);
		assert_true(ss_cpumask_test(t->cpu[c].smt_mask, c ^ 1));
		assert_int_equal(t->cpu[c].nr_sd, 2);
		assert_int_equal(t->cpu[c].sd[0].level, SS_SD_SMT);
		assert_int_equal(t->cpu[c].sd[0].span_weight, 2);
		assert_int_equal(t->cpu[c].sd[1].level, SS_SD_MC);
		assert_int_equal(t->cpu[c].sd[1].span_weight, 8);
	}
	ss_topology_free(t);
	g_free(yaml);
	rm_tree(root);
	g_free(root);

	/* cu_id is family 15h's alone (amd.c amd_get_topology()): elsewhere different core_ids are not one core */
	static const struct { const char *vendor; unsigned family; } other[] = { { "AuthenticAMD", 23 }, { "GenuineIntel", 6 } };
	for (unsigned i = 0; i < G_N_ELEMENTS(other); i++) {
		root = bulldozer_tree(other[i].vendor, other[i].family);
		yaml = import_root(root, NULL, &msg);
		if (yaml)
			fail_msg("%s family %u: siblings with different core_id imported", other[i].vendor, other[i].family);
		assert_non_null(strstr(msg, "cpu0/topology/core_id: 0 but its SMT sibling's"));
		g_free(msg);
		rm_tree(root);
		g_free(root);
	}
}

static void test_inconsistent_trees(void **state)
{
	(void)state;
	/* the tree itself imports */
	{
		char *root = small_tree(), *msg;
		char *yaml = import_root(root, NULL, &msg);

		if (!yaml)
			fail_msg("%s", msg);
		g_free(yaml);
		rm_tree(root);
		g_free(root);
	}
	/* device files and FIFOs are refused before reading (/dev/zero would never end) */
	tree_error("sys/devices/system/cpu/online", "->/dev/zero", "cpu/online: not a regular file", NULL);
	tree_error("sys/devices/system/cpu/cpu1/topology/core_id", "->/dev/zero", "cpu1/topology/core_id: not a regular", NULL);
	tree_error("proc/cpuinfo", "->/dev/zero", "proc/cpuinfo: not a regular file", NULL);
	/* a sysfs attribute is at most one page */
	{
		char *big = g_strnfill(5000, '0');

		tree_error("sys/devices/system/cpu/cpu2/topology/core_id", big, "core_id: larger than 4096 bytes",
			   "at most one page");
		g_free(big);
	}
	/* CPUs the machine cannot have (beyond cpu/possible) */
	tree_error("sys/devices/system/cpu/cpu0/topology/thread_siblings_list", "0,4,99\n",
		   "cpu0/topology/thread_siblings_list: names CPU 99, which is not in cpu/possible", NULL);
	tree_error("sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", "0-1,4-5,40\n",
		   "index3/shared_cpu_list: names CPU 40", NULL);
	tree_error("sys/devices/system/node/node0/cpulist", "0-1,4-5,40\n", "node0/cpulist: names CPU 40", NULL);
	/* SMT siblings in different packages, or -1 on one of them (-1 is an id of its own, as v6.6 compares it) */
	tree_error("sys/devices/system/cpu/cpu4/topology/physical_package_id", "1\n",
		   "cpu0/topology/physical_package_id: 0 but its SMT sibling's", "cpu4/topology/physical_package_id: 1");
	tree_error("sys/devices/system/cpu/cpu0/topology/physical_package_id", "-1\n",
		   "cpu0/topology/physical_package_id: -1 but its SMT sibling's", "cpu0 and cpu4");
	tree_error("sys/devices/system/cpu/cpu5/topology/core_id", "0\n", "cpu1/topology/core_id: 1 but", "cpu5");
	/* one CPU without cache information while the others have it */
	tree_error("sys/devices/system/cpu/cpu3/cache", NULL, "cpu3/cache: no Unified or Data cache", "cpu0/cache has one");
	/* the real cause, not "disagrees with cpu0's" */
	tree_error("sys/devices/system/cpu/cpu0/cache/index3", NULL, "cpu0/cache: highest Unified/Data cache is level 1",
		   "level 3");
	tree_error("sys/devices/system/cpu/cpu1/cache/index3/type", "Weird\n",
		   "cpu1/cache/index3/type: unknown cache type \"Weird\"", NULL);

	/* possible but offline CPUs in a cache list are dropped; a sparse large node id is kept */
	{
		char *root = small_tree(), *msg, *p, *old = g_build_filename(root, "sys/devices/system/node/node1", NULL);
		GPtrArray *w = g_ptr_array_new_with_free_func(g_free);

		put(root, "sys/devices/system/cpu/possible", "0-15\n");
		put(root, "sys/devices/system/cpu/cpu0/cache/index3/shared_cpu_list", "0-1,4-5,8-9\n");
		p = g_build_filename(root, "sys/devices/system/node/node99999999", NULL);
		assert_int_equal(g_rename(old, p), 0);
		char *yaml = import_root(root, w, &msg);
		if (!yaml)
			fail_msg("%s", msg);
		assert_non_null(strstr(yaml, "# node99999999"));
		assert_non_null(strstr(yaml, "- cpus: \"0-1,4-5\"    # node0"));
		g_free(yaml);
		g_free(p);
		g_free(old);
		g_ptr_array_free(w, TRUE);
		rm_tree(root);
		g_free(root);
	}
	/* the capacity warning names its file */
	{
		char *root = small_tree(), *msg;
		GPtrArray *w = g_ptr_array_new_with_free_func(g_free);

		put(root, "sys/devices/system/cpu/cpu4/cpu_capacity", "512\n");
		char *yaml = import_root(root, w, &msg);
		assert_non_null(yaml);
		assert_true(has_warning(w, "cpu4/cpu_capacity: cpu4's capacity 512 differs from its SMT sibling cpu0's 1024"));
		g_free(yaml);
		g_ptr_array_free(w, TRUE);
		rm_tree(root);
		g_free(root);
	}
}

static void test_offline_hole(void **state)
{
	GError *err = NULL;
	char *root = g_dir_make_tmp("simsched-sysfs-XXXXXX", &err);
	char rel[128], txt[64];

	(void)state;
	assert_non_null(root);
	put(root, "proc/cpuinfo", "processor\t: 0\nvendor_id\t: GenuineIntel\n");
	put(root, "sys/devices/system/cpu/online", "0-4,6-15\n");
	put(root, "sys/devices/system/cpu/present", "0-15\n");
	put(root, "sys/devices/system/cpu/cpu5/online", "0\n");
	for (unsigned c = 0; c < 16; c++) {
		unsigned core = c % 8, pkg = core / 4;

		if (c == 5)
			continue;
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		g_snprintf(txt, sizeof(txt), "%u\n", pkg);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/core_id", c);
		g_snprintf(txt, sizeof(txt), "%u\n", core);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		g_snprintf(txt, sizeof(txt), core == 5 ? "13\n" : "%u,%u\n", core, core + 8);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/level", c);
		put(root, rel, "3\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/type", c);
		put(root, rel, "Unified\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/shared_cpu_list", c);
		put(root, rel, pkg ? "4,6-7,12-15\n" : "0-3,8-11\n");
	}
	put(root, "sys/devices/system/node/node0/cpulist", "0-3,8-11\n");
	put(root, "sys/devices/system/node/node0/distance", "10 21\n");
	put(root, "sys/devices/system/node/node1/cpulist", "4,6-7,12-15\n");
	put(root, "sys/devices/system/node/node1/distance", "21 10\n");

	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *yaml = ss_topology_import_sysfs(root, "hole", w, &err);
	if (!yaml)
		fail_msg("%s", err->message);
	unsigned nr_offline_warnings = 0;
	for (unsigned i = 0; i < w->len; i++)
		if (strstr(g_ptr_array_index(w, i), "offline"))
			nr_offline_warnings++;
	assert_int_equal(nr_offline_warnings, 1);
	assert_true(has_warning(w, "cpu/online: CPU 5 is offline"));
	assert_non_null(strstr(yaml, "\noffline: \"5\""));
	assert_non_null(strstr(yaml, "# 16 CPUs (15 online, offline 5)"));
	assert_non_null(strstr(yaml, "cpus: \"4,6-7,12-15\""));
	assert_non_null(strstr(yaml, "- [13]"));
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "hole.yaml", &err);
	if (!t)
		fail_msg("%s\n%s", err->message, yaml);
	assert_int_equal(t->nr_cpus, 16);
	assert_int_equal(t->nr_active, 15);
	assert_true(t->cpu[5].offline);
	assert_int_equal(t->cpu[13].nr_sd, 2);            /* MC(7) NUMA(15): no SMT sibling online */
	assert_int_equal(t->cpu[12].nr_sd, 3);            /* SMT(2) MC(7) NUMA(15) */
	assert_int_equal(t->cpu[12].sd[1].span_weight, 7);
	assert_int_equal(t->cpu[0].sd[2].span_weight, 15);

	/* round trip: import -> YAML -> load builds what the hand-written file builds */
	struct ss_topology *h = ss_topology_load_string(offline_hand_yaml, strlen(offline_hand_yaml), "hand.yaml", &err);
	if (!h)
		fail_msg("%s", err->message);
	/* (the text form: domains, groups, masks, LLC bookkeeping; core ids follow file order) */
	char *a = ss_topology_describe(t, "text", &err), *b = ss_topology_describe(h, "text", &err);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	ss_topology_free(h);

	/* the main job runs on it: 15 pairs at 100 %, nothing on cpu5 */
	char *wpath = g_build_filename(SS_SOURCE_DIR, "workloads", "netperf-tcp-rr.yaml", NULL);
	struct ss_workload *wl = ss_workload_load(wpath, &err);
	assert_non_null(wl);
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = wl;
	c.policy = "sis_util";
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 20000000;
	c.warmup_ns = 5000000;
	struct ss_results *r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_int_equal(r->nr_instances, 15);
	assert_true(ss_results_throughput(r) > 0);
	assert_int_equal(r->cpu[5].busy_ns, 0);
	assert_int_equal(r->cpu[5].wakeups, 0);
	ss_results_free(r);
	ss_workload_free(wl);
	g_free(wpath);

	ss_topology_free(t);
	g_free(yaml);
	g_ptr_array_free(w, TRUE);
	rm_tree(root);
	g_free(root);
}

/*
 * A machine whose firmware numbers its nodes across the packages: package 0
 * holds nodes 0 (CPUs 0-3) and 2 (4-7), package 1 nodes 1 (8-11) and 3
 * (12-15), so the import lists the nodes 0,2,1,3. Node lists name firmware
 * ids, as numactl -N does: --nodes 1 runs on CPUs 8-11, not on the second
 * node of the file (CPUs 4-7); memory_node does the same.
 */
static void test_node_ids_out_of_order(void **state)
{
	static const unsigned node_of_cpu[4] = { 0, 2, 1, 3 };        /* by CPU / 4 */
	static const char *const dist[4] = { "10 20 12 20\n", "20 10 20 12\n", "12 20 10 20\n", "20 12 20 10\n" };
	GError *err = NULL;
	char *root = g_dir_make_tmp("simsched-sysfs-XXXXXX", &err), rel[128], txt[64];
	(void)state;

	assert_non_null(root);
	put(root, "proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x48\n");
	put(root, "sys/devices/system/cpu/online", "0-15\n");
	for (unsigned c = 0; c < 16; c++) {
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		put(root, rel, c < 8 ? "0\n" : "1\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/core_id", c);
		g_snprintf(txt, sizeof(txt), "%u\n", c);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/thread_siblings_list", c);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/level", c);
		put(root, rel, "3\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/type", c);
		put(root, rel, "Unified\n");
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/cache/index3/shared_cpu_list", c);
		g_snprintf(txt, sizeof(txt), "%u-%u\n", c / 4 * 4, c / 4 * 4 + 3);
		put(root, rel, txt);
	}
	for (unsigned k = 0; k < 4; k++) {
		unsigned n = node_of_cpu[k];

		g_snprintf(rel, sizeof(rel), "sys/devices/system/node/node%u/cpulist", n);
		g_snprintf(txt, sizeof(txt), "%u-%u\n", 4 * k, 4 * k + 3);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/node/node%u/distance", n);
		put(root, rel, dist[n]);
	}

	char *yaml = ss_topology_import_sysfs(root, "interleaved", NULL, &err);
	if (!yaml)
		fail_msg("%s", err->message);
	/* file order 0,2,1,3, each node with its firmware id */
	const char *n0 = strstr(yaml, "- cpus: \"0-3\"    # node0\n        id: 0\n");
	const char *n2 = strstr(yaml, "- cpus: \"4-7\"    # node2\n        id: 2\n");
	const char *n1 = strstr(yaml, "- cpus: \"8-11\"    # node1\n        id: 1\n");
	const char *n3 = strstr(yaml, "- cpus: \"12-15\"    # node3\n        id: 3\n");
	if (!n0 || !n2 || !n1 || !n3)
		fail_msg("node ids missing:\n%s", yaml);
	assert_true(n0 < n2 && n2 < n1 && n1 < n3);
	/* the SLIT follows the file's node order: row 2 is node1's (20 10 20 12 by id -> 20 20 10 12) */
	assert_non_null(strstr(yaml, "    - [10, 12, 20, 20]\n    - [12, 10, 20, 20]\n    - [20, 20, 10, 12]\n"));
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "interleaved.yaml", &err);
	if (!t)
		fail_msg("%s\n%s", err->message, yaml);
	for (unsigned c = 0; c < 16; c++)
		assert_int_equal(ss_node_id(t, t->cpu[c].node), node_of_cpu[c / 4]);

	char *wpath = g_build_filename(SS_SOURCE_DIR, "workloads", "netperf-tcp-rr.yaml", NULL);
	struct ss_workload *wl = ss_workload_load(wpath, &err);
	assert_non_null(wl);
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = wl;
	c.policy = "sis_util";
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 20000000;
	c.warmup_ns = 5000000;
	c.nodes = "1";
	struct ss_results *r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_int_equal(r->nr_allowed_cpus, 4);
	assert_int_equal(r->nr_instances, 4);
	for (unsigned cpu = 0; cpu < 16; cpu++) {
		if (cpu >= 8 && cpu < 12) {
			assert_true(r->cpu[cpu].busy_ns > 0);
		} else {
			assert_int_equal(r->cpu[cpu].busy_ns, 0);
			assert_int_equal(r->cpu[cpu].wakeups, 0);
		}
	}
	ss_results_free(r);
	/* "0,2" is package 0 (CPUs 0-7); a node the machine lacks names the valid ids */
	c.nodes = "0,2";
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	for (unsigned cpu = 0; cpu < 16; cpu++)
		assert_int_equal(r->cpu[cpu].busy_ns > 0, cpu < 8);
	ss_results_free(r);
	c.nodes = "4";
	assert_null(ss_simulate(&c, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_string_equal(err->message, "--nodes '4': interleaved has no node 4 (its node ids: 0-3)");
	g_clear_error(&err);
	ss_workload_free(wl);

	/* memory_node names a firmware node too: 2 is the second node of the file; 5 is none */
	static const char wl_yaml[] =
		"name: mem\ninstance: one\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: t\n    memory_node: %s\n    memory_bandwidth: 1000MB/s\n"
		"    program: [loop: {forever: true, do: [run: 100us, sleep: 100us]}]\n";
	char *wtxt = g_strdup_printf(wl_yaml, "2");
	wl = ss_workload_load_string(wtxt, strlen(wtxt), "mem.yaml", &err);
	if (!wl)
		fail_msg("%s", err->message);
	c.wl = wl;
	c.nodes = NULL;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	ss_results_free(r);
	ss_workload_free(wl);
	g_free(wtxt);
	wtxt = g_strdup_printf(wl_yaml, "5");
	wl = ss_workload_load_string(wtxt, strlen(wtxt), "mem.yaml", &err);
	assert_non_null(wl);
	c.wl = wl;
	assert_null(ss_simulate(&c, &err));
	assert_non_null(strstr(err->message, "memory_node 5 of role 't' is not a node of interleaved (expected one of its node ids: 0-3)"));
	g_clear_error(&err);
	ss_workload_free(wl);
	g_free(wtxt);

	g_free(wpath);
	ss_topology_free(t);
	g_free(yaml);
	rm_tree(root);
	g_free(root);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_2s),
		cmocka_unit_test(test_arm_clusters),
		cmocka_unit_test(test_vm_fallbacks),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_name_and_warnings_null),
		cmocka_unit_test(test_live),
		cmocka_unit_test(test_odd_tree),
		cmocka_unit_test(test_offline_hole),
		cmocka_unit_test(test_inconsistent_trees),
		cmocka_unit_test(test_bulldozer_compute_units),
		cmocka_unit_test(test_masks_without_lists),
		cmocka_unit_test(test_node_ids_out_of_order),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

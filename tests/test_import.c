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
#include <cmocka.h>

#include "simsched/topology.h"
#include "simsched/error.h"

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
	expect_error("bad-online", "cpu/online: ", "not contiguous");
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_2s),
		cmocka_unit_test(test_arm_clusters),
		cmocka_unit_test(test_vm_fallbacks),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_name_and_warnings_null),
		cmocka_unit_test(test_live),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

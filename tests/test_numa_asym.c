/*
 * Asymmetric NUMA distance matrices, as kernel v6.6 builds them: the levels
 * are the distinct values over all node pairs; node j's level-i mask is the
 * nodes k with node_distance(j, k) <= sched_domains_numa_distance[i]
 * (sched_init_numa(), its own row); overlapping groups come from
 * build_overlap_sched_groups() with its "sibling span does not hold i"
 * skip and find_descended_sibling(); degenerate domains go per CPU.
 *
 * The machine: 4 nodes of 2 CPUs (one LLC each, no SMT, vendor arm), with
 *
 *        to: 0   1   2   3
 *   from 0: 10  20  20  20      node 0 sees every node at 20 ...
 *        1: 20  10  20  30
 *        2: 30  20  10  20      ... but node 2 sees node 0 at 30
 *        3: 30  30  20  10
 *
 * levels 10, 20, 30; the 20-masks by row are node0 {0,1,2,3}, node1
 * {0,1,2}, node2 {1,2,3}, node3 {2,3} (by column they would be {0,1},
 * {0,1,2}, {0,1,2,3}, {0,2,3}). CPUs 0-1 reach every CPU at 20 and stop
 * there, so the 30-level of CPUs 4-5 finds no domain on CPUs 0-1 and has
 * one group.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "simsched/error.h"
#include "simsched/sim.h"
#include "simsched/topology.h"
#include "simsched/workload.h"
#include "machine_helpers.h"
#include "sysfs_tree.h"

#define ASYM4_HEAD                                                                                      \
	"name: asym4\nvendor: arm\n"                                                                     \
	"numa:\n  distance:\n    - [10, 20, 20, 20]\n    - [20, 10, 20, 30]\n"                           \
	"    - [30, 20, 10, 20]\n    - [30, 30, 20, 10]\n"
#define ASYM4_BODY "nodes:\n  - {cores: \"0-1\"}\n  - {cores: \"2-3\"}\n  - {cores: \"4-5\"}\n  - {cores: \"6-7\"}\n"

static const char asym4_yaml[] = ASYM4_HEAD ASYM4_BODY;

/* The same machine with the matrix transposed (row k = column k above). */
static const char asym4_transposed_yaml[] =
	"name: asym4\nvendor: arm\n"
	"numa:\n  distance:\n    - [10, 20, 30, 30]\n    - [20, 10, 20, 30]\n"
	"    - [20, 20, 10, 20]\n    - [20, 30, 20, 10]\n" ASYM4_BODY;

static const char asym4_warning[] =
	"asym4.yaml: the NUMA distance matrix is asymmetric (distance[0][2] is 20, distance[2][0] is 30): each "
	"node's NUMA spans come from its own row, node_distance(node, k), as v6.6 sched_init_numa() builds them";

#define MC_FLAGS                                                                                        \
	(SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_SHARE_PKG_RESOURCES | \
	 SD_PREFER_SIBLING)
#define NUMA_FLAGS                                                                                       \
	(SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE | SD_SERIALIZE | SD_OVERLAP | \
	 SD_NUMA)
/* sd_init(): a level farther than node_reclaim_distance loses these */
#define NUMA_FAR_FLAGS (SD_BALANCE_NEWIDLE | SD_SERIALIZE | SD_OVERLAP | SD_NUMA)

struct want_group {
	unsigned id;
	const char *span, *mask;
};

struct want_dom {
	const char *name;
	int numa_level;
	const char *span;
	unsigned flags, imb_numa_nr, nr_groups;
	struct want_group g[4];
};

struct want_cpu {
	unsigned nr_sd;
	struct want_dom d[3];
};

#define MC(a, b) { "MC", -1, a "-" b, MC_FLAGS, 0, 2, { { 0, NULL, NULL } } }

/* Per node (even CPU of the pair; the odd CPU has the same NUMA domains and groups). */
static const struct want_cpu want_asym4[4] = {
	{ 2, { MC("0", "1"),
	       { "NUMA", 1, "0-7", NUMA_FLAGS, 1, 4,
		 { { 0, "0-1", "0-1" }, { 2, "2-3", "2-3" }, { 4, "4-5", "4-5" }, { 6, "6-7", "6-7" } } } } },
	{ 3, { MC("2", "3"),
	       { "NUMA", 1, "0-5", NUMA_FLAGS, 1, 3, { { 2, "2-3", "2-3" }, { 4, "4-5", "4-5" }, { 0, "0-1", "0-1" } } },
	       { "NUMA", 2, "0-7", NUMA_FLAGS, 1, 2, { { 2, "0-5", "2-3" }, { 6, "4-7", "6-7" } } } } },
	{ 3, { MC("4", "5"),
	       { "NUMA", 1, "2-7", NUMA_FLAGS, 1, 3, { { 4, "4-5", "4-5" }, { 6, "6-7", "6-7" }, { 2, "2-3", "2-3" } } },
	       /* build_overlap_sched_groups(): CPUs 0-1 have no 30-level domain (empty span): skipped */
	       { "NUMA", 2, "0-7", NUMA_FLAGS, 1, 1, { { 4, "2-7", "4-5" } } } } },
	{ 3, { MC("6", "7"),
	       { "NUMA", 1, "4-7", NUMA_FLAGS, 1, 2, { { 6, "6-7", "6-7" }, { 4, "4-5", "4-5" } } },
	       /* imb_numa_nr: 1 x (8 / 4, the weight of the first SD_NUMA domain) */
	       { "NUMA", 2, "0-7", NUMA_FLAGS, 2, 2, { { 6, "4-7", "6-7" }, { 2, "0-5", "2-3" } } } } },
};

static struct ss_topology *load(const char *yaml, const char *name)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), name, &err);

	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static void check_cpu(const struct ss_topology *t, unsigned cpu, const struct want_cpu *w)
{
	const struct ss_cpu_topo *c = &t->cpu[cpu];

	if (c->nr_sd != w->nr_sd)
		fail_msg("CPU %u: %u domains, expected %u", cpu, c->nr_sd, w->nr_sd);
	for (unsigned k = 0; k < w->nr_sd; k++) {
		const struct ss_sched_domain *sd = &c->sd[k];
		const struct want_dom *d = &w->d[k];
		const struct ss_sched_group *g = sd->groups;

		assert_string_equal(sd->name, d->name);
		assert_int_equal(sd->numa_level, d->numa_level);
		if (strcmp(L(t, sd->span), d->span))
			fail_msg("CPU %u level %u: span %s, expected %s", cpu, k, L(t, sd->span), d->span);
		if (sd->flags != d->flags)
			fail_msg("CPU %u level %u: flags %#x, expected %#x", cpu, k, sd->flags, d->flags);
		if (d->numa_level < 0)
			continue;
		assert_int_equal(sd->imb_numa_nr, d->imb_numa_nr);
		if (sd->nr_groups != d->nr_groups)
			fail_msg("CPU %u level %u: %u groups, expected %u", cpu, k, sd->nr_groups, d->nr_groups);
		for (unsigned q = 0; q < d->nr_groups; q++, g = g->next) {
			if (strcmp(L(t, g->span), d->g[q].span) || strcmp(L(t, g->balance_mask), d->g[q].mask) ||
			    g->id != d->g[q].id)
				fail_msg("CPU %u level %u group %u: %u:{span=%s mask=%s}, expected %u:{span=%s mask=%s}", cpu,
					 k, q, g->id, L(t, g->span), L(t, g->balance_mask), d->g[q].id, d->g[q].span,
					 d->g[q].mask);
			assert_int_equal(g->capacity, 1024 * g->weight);
		}
		assert_ptr_equal(g, sd->groups);	/* circular */
	}
	/* sd_numa: the lowest SD_NUMA domain */
	assert_int_equal(c->sd_numa, 1);
}

static void check_asym4(const struct ss_topology *t)
{
	assert_int_equal(t->nr_nodes, 4);
	assert_int_equal(t->nr_numa_levels, 3);
	assert_int_equal(t->numa_distances[0], 10);
	assert_int_equal(t->numa_distances[1], 20);
	assert_int_equal(t->numa_distances[2], 30);
	/* node_distance(from, to) is row from */
	assert_int_equal(ss_node_distance(t, 0, 2), 20);
	assert_int_equal(ss_node_distance(t, 2, 0), 30);
	for (unsigned cpu = 0; cpu < 8; cpu++)
		check_cpu(t, cpu, &want_asym4[cpu / 2]);
	/* spans of one level overlap without being equal, and k's span may not hold j */
	assert_true(ss_cpumask_test(t->cpu[0].sd[1].span, 4));
	assert_false(ss_cpumask_test(t->cpu[4].sd[1].span, 0));
}

static void test_asym4_domains(void **state)
{
	(void)state;
	struct ss_topology *t = load(asym4_yaml, "asym4.yaml");
	const char *const *w = ss_topology_warnings(t);

	check_asym4(t);
	/* one warning line, saying what and which way the spans read */
	assert_non_null(w[0]);
	assert_string_equal(w[0], asym4_warning);
	assert_null(w[1]);
	/* the text rendering says which way the matrix reads */
	GError *err = NULL;
	char *txt = ss_topology_describe(t, "text", &err);
	assert_non_null(strstr(txt, "node distances (asymmetric; row = from, column = to):"));
	assert_non_null(strstr(txt, "levels of CPUs 2-5: MC(2) -> NUMA(6) -> NUMA(8)"));
	g_free(txt);
	ss_topology_free(t);
}

/* The transposed matrix gives the column view: the direction is not a detail. */
static void test_asym4_transposed(void **state)
{
	(void)state;
	struct ss_topology *t = load(asym4_transposed_yaml, "t.yaml");
	static const char *const span20[4] = { "0-3", "0-5", "0-7", "0-1,4-7" };

	for (unsigned cpu = 0; cpu < 8; cpu += 2) {
		const struct ss_sched_domain *sd = &t->cpu[cpu].sd[1];

		assert_int_equal(sd->numa_level, 1);
		assert_string_equal(L(t, sd->span), span20[cpu / 2]);
	}
	assert_int_equal(t->cpu[4].nr_sd, 2);	/* node 2 reaches every node at 20 now */
	assert_int_equal(t->cpu[0].nr_sd, 3);
	assert_non_null(ss_topology_warnings(t)[0]);
	ss_topology_free(t);
}

/*
 * node_reclaim_distance 20: the 30 level loses SD_BALANCE_EXEC/FORK and
 * SD_WAKE_AFFINE (sd_init(), per level); CPUs 4-5's one-group 30 level is
 * then degenerate (sd_degenerate(): flags needing groups, one group, no
 * SD_WAKE_AFFINE) and goes, while CPUs 2-3 and 6-7 keep theirs.
 */
static void test_asym4_reclaim(void **state)
{
	(void)state;
	struct ss_topology *t = load(ASYM4_HEAD "node_reclaim_distance: 20\n" ASYM4_BODY, "r.yaml");

	for (unsigned cpu = 0; cpu < 8; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];
		unsigned node = cpu / 2;

		assert_int_equal(c->nr_sd, node == 0 || node == 2 ? 2 : 3);
		assert_int_equal(c->sd[1].flags, NUMA_FLAGS);   /* 20 is not > 20 */
		assert_string_equal(L(t, c->sd[1].span), want_asym4[node].d[1].span);
		if (c->nr_sd == 3) {
			assert_int_equal(c->sd[2].numa_level, 2);
			assert_int_equal(c->sd[2].flags, NUMA_FAR_FLAGS);
			assert_int_equal(c->sd[2].nr_groups, 2);
		}
	}
	ss_topology_free(t);
}

/* tests/data/numa/distance_asym.yaml (once in the bad-input corpus), loads with the warning. */
static void test_asym_file(void **state)
{
	(void)state;
	GError *err = NULL;
	char *path = g_build_filename(SS_TEST_DATA, "numa", "distance_asym.yaml", NULL);
	struct ss_topology *t = ss_topology_load(path, &err);
	char *want = g_strdup_printf("%s: the NUMA distance matrix is asymmetric (distance[0][1] is 21, "
				     "distance[1][0] is 22): each node's NUMA spans come from its own row", path);

	if (!t)
		fail_msg("%s", err->message);
	assert_int_equal(ss_node_distance(t, 0, 1), 21);
	assert_int_equal(ss_node_distance(t, 1, 0), 22);
	/* levels 10, 21, 22: each node reaches the other at its own row's value */
	assert_int_equal(t->nr_numa_levels, 3);
	assert_int_equal(t->cpu[0].sd[t->cpu[0].nr_sd - 1].numa_level, 1);
	assert_int_equal(t->cpu[4].sd[t->cpu[4].nr_sd - 1].numa_level, 2);
	assert_int_equal(t->cpu[4].sd[t->cpu[4].nr_sd - 1].span_weight, 8);
	assert_true(g_str_has_prefix(ss_topology_warnings(t)[0], want));
	g_free(want);
	g_free(path);
	ss_topology_free(t);
}

/* ss_topology_new() + ss_topology_build(): same rules, the warning without a file name. */
static void test_programmatic(void **state)
{
	(void)state;
	GError *err = NULL;
	struct ss_topology *t = ss_topology_new(2, 2);

	t->name = g_strdup("p");
	t->vendor = g_strdup("generic");
	t->cpu[1].node = t->cpu[1].die = t->cpu[1].llc = t->cpu[1].cluster = t->cpu[1].core = 1;
	t->distance[1] = 30;
	assert_null(ss_topology_warnings(t)[0]);
	assert_int_equal(ss_topology_build(t, &err), 0);
	assert_true(g_str_has_prefix(ss_topology_warnings(t)[0],
				     "the NUMA distance matrix is asymmetric (distance[0][1] is 30, distance[1][0] is 20)"));
	assert_int_equal(t->nr_numa_levels, 3);
	ss_topology_free(t);

	/* the range checks stay: diagonal 10, others 11..254 */
	t = ss_topology_new(2, 2);
	t->name = g_strdup("p");
	t->vendor = g_strdup("generic");
	t->cpu[1].node = t->cpu[1].die = t->cpu[1].llc = t->cpu[1].cluster = t->cpu[1].core = 1;
	t->distance[2] = 255;
	assert_int_equal(ss_topology_build(t, &err), -1);
	assert_string_equal(err->message, "distance[1][0] is 255 (expected 11..254)");
	g_clear_error(&err);
	ss_topology_free(t);

	/* symmetric machines: no warning */
	t = load_file("topologies/kunpeng920.yaml");
	assert_null(ss_topology_warnings(t)[0]);
	ss_topology_free(t);
}

/*
 * The machine as sysfs shows it (node<j>/distance is node_distance(j, *),
 * row j): imported as it is, with a warning and a comment, and the YAML
 * builds the domains of the hand-written file (round trip).
 */
static void test_sysfs_import(void **state)
{
	(void)state;
	static const char *const rows[4] = { "10 20 20 20\n", "20 10 20 30\n", "30 20 10 20\n", "30 30 20 10\n" };
	GError *err = NULL;
	char *root = g_dir_make_tmp("simsched-asym-XXXXXX", &err);
	char rel[128], txt[64];

	assert_non_null(root);
	put(root, "proc/cpuinfo", "processor\t: 0\nCPU implementer\t: 0x41\n");
	put(root, "sys/devices/system/cpu/online", "0-7\n");
	for (unsigned c = 0; c < 8; c++) {
		g_snprintf(rel, sizeof(rel), "sys/devices/system/cpu/cpu%u/topology/physical_package_id", c);
		put(root, rel, "0\n");
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
		g_snprintf(txt, sizeof(txt), "%u-%u\n", c & ~1u, c | 1u);
		put(root, rel, txt);
	}
	for (unsigned n = 0; n < 4; n++) {
		g_snprintf(rel, sizeof(rel), "sys/devices/system/node/node%u/cpulist", n);
		g_snprintf(txt, sizeof(txt), "%u-%u\n", 2 * n, 2 * n + 1);
		put(root, rel, txt);
		g_snprintf(rel, sizeof(rel), "sys/devices/system/node/node%u/distance", n);
		put(root, rel, rows[n]);
	}

	GPtrArray *w = g_ptr_array_new_with_free_func(g_free);
	char *yaml = ss_topology_import_sysfs(root, "asym4", w, &err);
	if (!yaml)
		fail_msg("%s", err->message);
	char *want = g_strdup_printf("%s/sys/devices/system/node: asymmetric NUMA distances (node0->node2 is 20, "
				     "node2->node0 is 30): kept as they are; each node's NUMA spans come from its "
				     "own row", root);
	assert_int_equal(w->len, 1);
	assert_true(g_str_has_prefix(g_ptr_array_index(w, 0), want));
	g_free(want);
	if (!strstr(yaml, "    # asymmetric: row = from node, column = to node (node_distance(row, column))\n"
			  "    - [10, 20, 20, 20]\n    - [20, 10, 20, 30]\n"
			  "    - [30, 20, 10, 20]\n    - [30, 30, 20, 10]\n"))
		fail_msg("the matrix is not in the YAML as sysfs gave it:\n%s", yaml);
	struct ss_topology *t = load(yaml, "asym4.yaml");
	struct ss_topology *h = load(asym4_yaml, "asym4.yaml");

	check_asym4(t);
	assert_string_equal(ss_topology_warnings(t)[0], asym4_warning);
	char *a = ss_topology_describe(t, "json", &err), *b = ss_topology_describe(h, "json", &err);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	ss_topology_free(h);
	ss_topology_free(t);
	g_free(yaml);
	g_ptr_array_free(w, TRUE);
	rm_tree(root);
	g_free(root);
}

/* The main job runs on it, deterministically. */
static void test_main_job(void **state)
{
	(void)state;
	struct ss_topology *t = load(asym4_yaml, "asym4.yaml");
	GError *err = NULL;
	char *wpath = g_build_filename(SS_SOURCE_DIR, "workloads", "netperf-tcp-rr.yaml", NULL);
	struct ss_workload *w = ss_workload_load(wpath, &err);
	char *json[2];

	assert_non_null(w);
	for (unsigned i = 0; i < 2; i++) {
		struct ss_run_config c = { 0 };

		c.topo = t;
		c.wl = w;
		c.policy = "sis_util";
		ss_params_defaults(&c.params, t);
		c.load_pct_x100 = 15000;   /* more tasks than CPUs: balancing at every level */
		c.seed = 3;
		c.duration_ns = 100000000;
		c.warmup_ns = 20000000;
		struct ss_results *r = ss_simulate(&c, &err);
		if (!r)
			fail_msg("%s", err->message);
		assert_true(ss_results_throughput(r) > 0);
		json[i] = ss_results_to_json(r);
		ss_results_free(r);
	}
	assert_string_equal(json[0], json[1]);
	assert_non_null(strstr(json[0], "NUMA-30"));
	g_free(json[0]);
	g_free(json[1]);
	ss_workload_free(w);
	g_free(wpath);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_asym4_domains),
		cmocka_unit_test(test_asym4_transposed),
		cmocka_unit_test(test_asym4_reclaim),
		cmocka_unit_test(test_asym_file),
		cmocka_unit_test(test_programmatic),
		cmocka_unit_test(test_sysfs_import),
		cmocka_unit_test(test_main_job),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

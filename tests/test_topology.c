/*
 * Topology YAML → sched domains (kernel v6.6): the shipped machines against
 * the reference tables, the kernel rules one by one (reclaim distance,
 * degeneration, x86 numa-in-package, asymmetric capacity), the invariants
 * the kernel's sched_domain_debug() checks, rendering, and the bad-input
 * corpus in tests/data/topology/.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>
#include <cJSON.h>

#include "simsched/topology.h"
#include "simsched/error.h"
#include "simsched/workload.h"

#define ALL_NUMA (SD_NUMA | SD_SERIALIZE | SD_OVERLAP)

#include "machine_helpers.h"

static struct ss_topology *load_str(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "inline.yaml", &err);

	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static const struct ss_sched_domain *dom(const struct ss_topology *t, unsigned cpu, unsigned k)
{
	assert_true(k < t->cpu[cpu].nr_sd);
	return &t->cpu[cpu].sd[k];
}

/*
 * The checks of the kernel's sched_domain_debug_one(), plus our own
 * bookkeeping, on every CPU and domain.
 */
static void check_invariants(const struct ss_topology *t)
{
	unsigned nw = t->nr_words;
	uint64_t *u = g_new0(uint64_t, nw);

	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];

		assert_true(ss_cpumask_test(c->smt_mask, cpu));
		assert_true(ss_cpumask_subset(c->smt_mask, c->llc_mask, nw));
		assert_true(ss_cpumask_subset(c->llc_mask, c->node_mask, nw));
		for (unsigned k = 0; k < c->nr_sd; k++) {
			const struct ss_sched_domain *sd = &c->sd[k];
			const struct ss_sched_group *g = sd->groups;

			assert_int_equal(sd->level_index, k);
			assert_true(ss_cpumask_test(sd->span, cpu));
			assert_int_equal(sd->span_weight, ss_cpumask_weight(sd->span, nw));
			assert_ptr_equal(sd->parent, k + 1 < c->nr_sd ? &c->sd[k + 1] : NULL);
			assert_ptr_equal(sd->child, k ? &c->sd[k - 1] : NULL);
			if (sd->child)
				assert_true(ss_cpumask_subset(sd->child->span, sd->span, nw));
			assert_int_equal(sd->busy_factor, 16);
			assert_true(sd->nr_groups >= 1);
			/* domain->groups contains the CPU, matches domain->child */
			assert_true(ss_cpumask_test(g->span, cpu));
			if (sd->child)
				assert_true(ss_cpumask_equal(g->span, sd->child->span, nw));
			ss_cpumask_zero(u, nw);
			for (unsigned q = 0; q < sd->nr_groups; q++, g = g->next) {
				assert_ptr_equal(g, &sd->groups[q]);
				assert_false(ss_cpumask_empty(g->span, nw));
				/* no repeated CPUs unless SD_OVERLAP */
				if (!(sd->flags & SD_OVERLAP))
					assert_false(ss_cpumask_intersects(u, g->span, nw));
				/* find_descended_sibling(): groups stay inside the domain */
				assert_true(ss_cpumask_subset(g->span, sd->span, nw));
				ss_cpumask_or(u, u, g->span, nw);
				assert_int_equal(g->weight, ss_cpumask_weight(g->span, nw));
				assert_false(ss_cpumask_empty(g->balance_mask, nw));
				assert_true(ss_cpumask_subset(g->balance_mask, g->span, nw));
				assert_int_equal(g->balance_cpu, ss_cpumask_first(g->balance_mask, t->nr_cpus));
				if (!(sd->flags & SD_OVERLAP))
					assert_int_equal(g->id, ss_cpumask_first(g->span, t->nr_cpus));
				else
					assert_int_equal(g->id, g->balance_cpu);
			}
			assert_ptr_equal(g, sd->groups);	/* circular */
			/* groups span domain->span */
			assert_true(ss_cpumask_equal(u, sd->span, nw));
		}
		if (c->sd_llc >= 0) {
			const struct ss_sched_domain *llc = &c->sd[c->sd_llc];

			assert_true(llc->flags & SD_SHARE_PKG_RESOURCES);
			assert_true(!llc->parent || !(llc->parent->flags & SD_SHARE_PKG_RESOURCES));
			assert_int_equal(c->llc_size, llc->span_weight);
			assert_int_equal(c->llc_id, ss_cpumask_first(llc->span, t->nr_cpus));
		} else {
			assert_int_equal(c->llc_size, 1);
			assert_int_equal(c->llc_id, cpu);
		}
		assert_true(c->llc_index < t->nr_llc_shared);
		for (unsigned o = 0; o < t->nr_cpus; o++) {
			bool same = c->llc_id == t->cpu[o].llc_id;

			assert_int_equal(ss_cpus_share_cache(t, cpu, o), same);
			if (c->sd_llc >= 0)
				assert_int_equal(same, c->llc_index == t->cpu[o].llc_index);
		}
	}
	g_free(u);
}

/* ------------------------------------------------------------------------ */
/* Kunpeng 920                                                              */

/* reference A.1: the NUMA spans of each node, by level, after degeneration */
static const char *const kp_numa_span[4][3] = {
	{ "0-63", "0-95", "0-127" },
	{ "0-63", "0-95", "0-127" },
	{ "64-127", "0-31,64-127", "0-127" },
	{ "64-127", "0-31,64-127", "0-127" },
};

/* numa_level of each kept NUMA domain: node 1's and 3's "20" level collapses */
static const int kp_numa_level[4][3] = { { 1, 2, 3 }, { 1, 3, 4 }, { 1, 2, 3 }, { 1, 3, 4 } };

static void test_kunpeng_domains(void **state)
{
	struct ss_topology *t = load_file("topologies/kunpeng920.yaml");
	static const unsigned weights[5] = { 4, 32, 64, 96, 128 };
	static const unsigned dist[4][4] = {
		{ 10, 12, 20, 22 }, { 12, 10, 22, 24 }, { 20, 22, 10, 12 }, { 22, 24, 12, 10 },
	};
	(void)state;

	assert_string_equal(t->name, "kunpeng920");
	assert_string_equal(t->vendor, "arm");
	assert_int_equal(t->nr_cpus, 128);
	assert_int_equal(t->nr_packages, 2);
	assert_int_equal(t->nr_nodes, 4);
	assert_int_equal(t->nr_dies, 4);
	assert_int_equal(t->nr_llcs, 4);
	assert_int_equal(t->nr_clusters, 32);
	assert_int_equal(t->nr_cores, 128);
	assert_int_equal(t->smt_threads, 1);
	assert_int_equal(t->node_reclaim_distance, 30);
	assert_int_equal(t->base_freq_khz, 2600000);
	assert_int_equal(t->max_freq_khz, 2600000);
	assert_int_equal(t->probe_cluster_ns, 35);
	assert_int_equal(t->probe_llc_ns, 36);
	assert_int_equal(t->probe_smt_ns, 0);
	for (unsigned a = 0; a < 4; a++)
		for (unsigned b = 0; b < 4; b++)
			assert_int_equal(ss_node_distance(t, a, b), dist[a][b]);
	assert_int_equal(t->nr_numa_levels, 5);
	assert_int_equal(t->numa_distances[4], 24);
	assert_int_equal(t->nr_llc_shared, 4);

	for (unsigned cpu = 0; cpu < 128; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];
		unsigned node = cpu / 32;
		char want[32];

		assert_int_equal(c->node, node);
		assert_int_equal(c->package, cpu / 64);
		assert_int_equal(c->cluster, cpu / 4);
		assert_int_equal(c->capacity, 1024);
		assert_int_equal(c->nr_sd, 5);
		assert_string_equal(dom(t, cpu, 0)->name, "CLS");
		assert_int_equal(dom(t, cpu, 0)->level, SS_SD_CLS);
		assert_string_equal(dom(t, cpu, 1)->name, "MC");
		assert_int_equal(dom(t, cpu, 1)->level, SS_SD_MC);
		for (unsigned k = 0; k < 5; k++)
			assert_int_equal(dom(t, cpu, k)->span_weight, weights[k]);
		g_snprintf(want, sizeof(want), "%u-%u", cpu & ~3u, (cpu & ~3u) + 3);
		assert_string_equal(L(t, dom(t, cpu, 0)->span), want);
		assert_string_equal(L(t, c->cluster_mask), want);
		g_snprintf(want, sizeof(want), "%u-%u", node * 32, node * 32 + 31);
		assert_string_equal(L(t, dom(t, cpu, 1)->span), want);
		assert_string_equal(L(t, c->llc_mask), want);
		assert_string_equal(L(t, c->node_mask), want);
		assert_int_equal(ss_cpumask_weight(c->smt_mask, t->nr_words), 1);

		/* CLS and MC: LLC-sharing, no NUMA */
		for (unsigned k = 0; k < 2; k++) {
			const struct ss_sched_domain *sd = dom(t, cpu, k);

			assert_int_equal(sd->flags, SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK |
					 SD_WAKE_AFFINE | SD_SHARE_PKG_RESOURCES | SD_PREFER_SIBLING);
			assert_int_equal(sd->imbalance_pct, 117);
			assert_int_equal(sd->cache_nice_tries, 1);
			assert_int_equal(sd->numa_level, -1);
			assert_int_equal(sd->min_interval, weights[k]);
			assert_int_equal(sd->max_interval, 2 * weights[k]);
		}
		/* CLS groups: the 4 CPUs; MC groups: the 8 clusters of the node */
		assert_int_equal(dom(t, cpu, 0)->nr_groups, 4);
		assert_int_equal(dom(t, cpu, 1)->nr_groups, 8);
		for (unsigned q = 0; q < 8; q++) {
			const struct ss_sched_group *g = &dom(t, cpu, 1)->groups[q];
			unsigned first = node * 32 + ((cpu % 32) / 4 + q) % 8 * 4;

			g_snprintf(want, sizeof(want), "%u-%u", first, first + 3);
			assert_string_equal(L(t, g->span), want);
			assert_int_equal(g->capacity, 4096);
			/* sg->flags: the CLS child's */
			assert_true(g->flags & SD_SHARE_PKG_RESOURCES);
		}
		/* the lowest level's groups lost the degenerate SMT child's flags */
		for (unsigned q = 0; q < 4; q++)
			assert_int_equal(dom(t, cpu, 0)->groups[q].flags, 0);

		/* the three NUMA levels of the reference table, all keeping SD_WAKE_AFFINE */
		for (unsigned k = 2; k < 5; k++) {
			const struct ss_sched_domain *sd = dom(t, cpu, k);

			assert_string_equal(sd->name, "NUMA");
			assert_int_equal(sd->level, SS_SD_NUMA);
			assert_string_equal(L(t, sd->span), kp_numa_span[node][k - 2]);
			assert_int_equal(sd->numa_level, kp_numa_level[node][k - 2]);
			assert_int_equal(sd->flags & ALL_NUMA, ALL_NUMA);
			assert_true(sd->flags & SD_WAKE_AFFINE);
			assert_true(sd->flags & SD_BALANCE_FORK);
			assert_true(sd->flags & SD_BALANCE_EXEC);
			assert_false(sd->flags & SD_PREFER_SIBLING);
			assert_false(sd->flags & SD_SHARE_PKG_RESOURCES);
			assert_int_equal(sd->imbalance_pct, 117);
			assert_int_equal(sd->cache_nice_tries, 2);
			assert_int_equal(sd->nr_groups, 2);
		}
		assert_int_equal(c->sd_llc, 1);
		assert_int_equal(c->llc_size, 32);
		assert_int_equal(c->llc_id, node * 32);
		assert_int_equal(c->llc_index, node);
		assert_int_equal(c->sd_numa, 2);
		/* imb_numa_nr: one LLC per node → 32 >> 3 = 4, doubled at the 128-CPU level */
		assert_int_equal(dom(t, cpu, 1)->imb_numa_nr, 0);
		assert_int_equal(dom(t, cpu, 2)->imb_numa_nr, 4);
		assert_int_equal(dom(t, cpu, 4)->imb_numa_nr, 8);
	}
	assert_true(ss_cpus_share_cache(t, 0, 31));
	assert_false(ss_cpus_share_cache(t, 31, 32));
	check_invariants(t);
	ss_topology_free(t);
}

struct want_group {
	unsigned id;
	const char *span, *mask;
};

static void check_groups(const struct ss_topology *t, unsigned cpu, unsigned k, const struct want_group *w,
			 unsigned n)
{
	const struct ss_sched_domain *sd = dom(t, cpu, k);
	const struct ss_sched_group *g = sd->groups;

	assert_int_equal(sd->nr_groups, n);
	for (unsigned q = 0; q < n; q++, g = g->next) {
		assert_int_equal(g->id, w[q].id);
		assert_string_equal(L(t, g->span), w[q].span);
		assert_string_equal(L(t, g->balance_mask), w[q].mask);
		assert_int_equal(g->capacity, 1024 * g->weight);
	}
}

/*
 * The overlapping NUMA groups of CPUs 0 and 32, as build_overlap_sched_groups()
 * builds them from the pre-degeneration child domains: sibling's child, or
 * find_descended_sibling() where that child would stick out of the domain
 * (Valentin Schneider's 2020 "groups don't span domain->span" report on this
 * very SLIT), balance masks from build_balance_mask().
 */
static void test_kunpeng_numa_groups(void **state)
{
	struct ss_topology *t = load_file("topologies/kunpeng920.yaml");
	static const struct want_group c0_l2[] = { { 0, "0-31", "0-31" }, { 32, "32-63", "32-63" } };
	static const struct want_group c0_l3[] = { { 0, "0-63", "0-63" }, { 64, "64-95", "64-95" } };
	static const struct want_group c0_l4[] = { { 0, "0-95", "0-31" }, { 96, "64-127", "96-127" } };
	static const struct want_group c32_l2[] = { { 32, "32-63", "32-63" }, { 0, "0-31", "0-31" } };
	static const struct want_group c32_l3[] = { { 32, "0-63", "32-63" }, { 64, "64-95", "64-95" } };
	static const struct want_group c32_l4[] = { { 32, "0-95", "32-63" }, { 96, "0-31,64-127", "96-127" } };
	static const struct want_group c64_l4[] = { { 64, "0-31,64-127", "64-95" }, { 32, "0-63", "32-63" } };
	(void)state;

	check_groups(t, 0, 2, c0_l2, 2);
	check_groups(t, 0, 3, c0_l3, 2);
	check_groups(t, 0, 4, c0_l4, 2);
	check_groups(t, 32, 2, c32_l2, 2);
	check_groups(t, 32, 3, c32_l3, 2);
	check_groups(t, 32, 4, c32_l4, 2);
	check_groups(t, 64, 4, c64_l4, 2);
	/* CPU 32's 96-CPU level: its child (the 64-CPU level) replaced the degenerate 20-hop one */
	assert_ptr_equal(dom(t, 32, 3)->child, dom(t, 32, 2));
	ss_topology_free(t);
}

/* The compact form (repeat, implied die/llc) describes the same machine. */
static void test_kunpeng_compact_form(void **state)
{
	struct ss_topology *full = load_file("topologies/kunpeng920.yaml"), *compact;
	char *yaml = g_strdup_printf(
		"name: kunpeng920\n"
		"vendor: arm\n"
		"description: \"%s\"\n"
		"frequency: {base_mhz: 2600}\n"
		"costs: {probe_cluster_ns: 35, probe_llc_ns: 36, probe_package_ns: 80, node_bandwidth_mbps: 70000}\n"
		"numa: {distance: [[10, 12, 20, 22], [12, 10, 22, 24], [20, 22, 10, 12], [22, 24, 12, 10]]}\n"
		"packages:\n"
		"  - repeat: 2\n"
		"    nodes:\n"
		"      - repeat: 2\n"
		"        cpus: \"0-31\"\n"
		"        clusters:\n"
		"          - {cores: \"0-3\", repeat: 8}\n", full->description);
	char *a, *b;
	(void)state;

	compact = load_str(yaml);
	a = ss_topology_describe(full, "json", NULL);
	b = ss_topology_describe(compact, "json", NULL);
	assert_non_null(a);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	g_free(yaml);
	ss_topology_free(full);
	ss_topology_free(compact);
}

/* ------------------------------------------------------------------------ */
/* Xeon Gold 6148                                                           */

static void test_xeon_domains(void **state)
{
	struct ss_topology *t = load_file("topologies/xeon6148.yaml");
	(void)state;

	assert_string_equal(t->vendor, "intel");
	assert_int_equal(t->nr_cpus, 80);
	assert_int_equal(t->nr_packages, 2);
	assert_int_equal(t->nr_nodes, 2);
	assert_int_equal(t->nr_cores, 40);
	assert_int_equal(t->smt_threads, 2);
	assert_int_equal(t->base_freq_khz, 2400000);
	assert_int_equal(t->max_freq_khz, 3700000);
	assert_int_equal(t->probe_smt_ns, 7);
	assert_int_equal(t->probe_llc_ns, 48);
	assert_int_equal(ss_node_distance(t, 0, 1), 21);
	assert_int_equal(t->nr_llc_shared, 2);
	for (unsigned cpu = 0; cpu < 80; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];
		unsigned core = cpu % 40, node = core / 20;
		const struct ss_sched_domain *smt, *mc, *numa;
		char want[32];

		assert_int_equal(c->node, node);
		assert_int_equal(c->nr_sd, 3);	/* CLS = the core: collapsed */
		smt = dom(t, cpu, 0);
		mc = dom(t, cpu, 1);
		numa = dom(t, cpu, 2);
		assert_string_equal(smt->name, "SMT");
		assert_string_equal(mc->name, "MC");
		assert_string_equal(numa->name, "NUMA");
		/* siblings n and n + 40 */
		g_snprintf(want, sizeof(want), "%u,%u", core, core + 40);
		assert_string_equal(L(t, smt->span), want);
		assert_string_equal(L(t, c->smt_mask), want);
		assert_string_equal(L(t, c->cluster_mask), want);
		assert_int_equal(smt->flags, SD_BALANCE_NEWIDLE | SD_BALANCE_EXEC | SD_BALANCE_FORK | SD_WAKE_AFFINE |
				 SD_SHARE_CPUCAPACITY | SD_SHARE_PKG_RESOURCES | SD_PREFER_SIBLING);
		assert_int_equal(smt->imbalance_pct, 110);
		assert_int_equal(smt->cache_nice_tries, 0);
		assert_int_equal(smt->nr_groups, 2);
		assert_int_equal(smt->groups[0].weight, 1);
		assert_int_equal(smt->groups[0].id, cpu);
		assert_int_equal(smt->groups[1].id, cpu < 40 ? cpu + 40 : cpu - 40);

		g_snprintf(want, sizeof(want), "%u-%u,%u-%u", 20 * node, 20 * node + 19, 20 * node + 40,
			   20 * node + 59);
		assert_string_equal(L(t, mc->span), want);
		assert_string_equal(L(t, c->node_mask), want);
		assert_int_equal(mc->span_weight, 40);
		assert_int_equal(mc->imbalance_pct, 117);
		assert_int_equal(mc->cache_nice_tries, 1);
		assert_false(mc->flags & SD_SHARE_CPUCAPACITY);
		assert_true(mc->flags & SD_SHARE_PKG_RESOURCES);
		/* MC groups: the 20 SMT pairs, each carrying the SMT child's flags */
		assert_int_equal(mc->nr_groups, 20);
		for (unsigned q = 0; q < 20; q++) {
			assert_int_equal(mc->groups[q].weight, 2);
			assert_int_equal(mc->groups[q].capacity, 2048);
			assert_true(mc->groups[q].flags & SD_SHARE_CPUCAPACITY);
		}
		assert_int_equal(mc->groups[0].id, core);

		assert_int_equal(numa->span_weight, 80);
		assert_int_equal(numa->numa_level, 1);
		assert_int_equal(numa->flags & ALL_NUMA, ALL_NUMA);
		assert_true(numa->flags & SD_WAKE_AFFINE);	/* 21 <= 30 */
		assert_int_equal(numa->nr_groups, 2);
		assert_int_equal(numa->groups[0].id, node ? 20 : 0);
		assert_int_equal(numa->groups[0].capacity, 40 * 1024);
		assert_int_equal(numa->imb_numa_nr, 5);	/* 40 >> 3 */

		assert_int_equal(c->sd_llc, 1);
		assert_int_equal(c->llc_size, 40);
		assert_int_equal(c->llc_id, 20 * node);
		assert_int_equal(c->sd_numa, 2);
	}
	assert_true(ss_cpus_share_cache(t, 0, 59));
	assert_false(ss_cpus_share_cache(t, 19, 20));
	check_invariants(t);
	ss_topology_free(t);
}

static void test_xeon_compact_form(void **state)
{
	struct ss_topology *full = load_file("topologies/xeon6148.yaml"), *compact;
	char *yaml = g_strdup_printf(
		"name: xeon6148\n"
		"vendor: intel\n"
		"description: '%s'\n"
		"frequency: {base_mhz: 2400, max_mhz: 3700}\n"
		"costs: {probe_smt_ns: 7, probe_llc_ns: 48, probe_remote_ns: 141}\n"
		"numa: {distance: [[10, 21], [21, 10]]}\n"
		"packages:\n"
		"  - {repeat: 2, step: 20, cpus: \"0-19,40-59\", cores: [{cpus: [0, 40], repeat: 20, step: 1}]}\n",
		full->description);
	char *a, *b;
	(void)state;

	compact = load_str(yaml);
	a = ss_topology_describe(full, "text", NULL);
	b = ss_topology_describe(compact, "text", NULL);
	assert_string_equal(a, b);
	g_free(a);
	g_free(b);
	g_free(yaml);
	ss_topology_free(full);
	ss_topology_free(compact);
}

/* ------------------------------------------------------------------------ */
/* Kernel rules on small machines                                           */

static struct ss_topology *two_node(const char *vendor, const char *extra, unsigned slit)
{
	char *yaml = g_strdup_printf("name: two-node\n"
				     "vendor: %s\n"
				     "%s"
				     "numa:\n"
				     "  distance: [[10, %u], [%u, 10]]\n"
				     "packages:\n"
				     "  - cores: \"0-3\"\n"
				     "  - cores: \"4-7\"\n", vendor, extra, slit, slit);
	struct ss_topology *t = load_str(yaml);

	g_free(yaml);
	return t;
}

/* sd_init(): NUMA levels beyond node_reclaim_distance lose wake-affine/fork/exec */
static void test_reclaim_distance(void **state)
{
	static const unsigned dropped = SD_WAKE_AFFINE | SD_BALANCE_FORK | SD_BALANCE_EXEC;
	struct ss_topology *t;
	(void)state;

	t = two_node("intel", "", 32);
	assert_int_equal(t->node_reclaim_distance, 30);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(t->cpu[cpu].nr_sd, 2);
		assert_string_equal(dom(t, cpu, 0)->name, "MC");
		assert_string_equal(dom(t, cpu, 1)->name, "NUMA");
		assert_int_equal(dom(t, cpu, 1)->flags & dropped, 0);
		assert_int_equal(dom(t, cpu, 1)->flags & (ALL_NUMA | SD_BALANCE_NEWIDLE), ALL_NUMA | SD_BALANCE_NEWIDLE);
		assert_int_equal(dom(t, cpu, 0)->flags & dropped, dropped);
	}
	check_invariants(t);
	ss_topology_free(t);

	/* AMD Zen sets node_reclaim_distance = 32: 32 > 32 is false */
	t = two_node("amd", "", 32);
	assert_int_equal(t->node_reclaim_distance, 32);
	assert_int_equal(dom(t, 0, 1)->flags & dropped, dropped);
	ss_topology_free(t);

	t = two_node("amd", "", 33);
	assert_int_equal(dom(t, 5, 1)->flags & dropped, 0);
	ss_topology_free(t);

	/* an explicit node_reclaim_distance wins over the vendor default */
	t = two_node("intel", "node_reclaim_distance: 32\n", 32);
	assert_int_equal(t->node_reclaim_distance, 32);
	assert_int_equal(dom(t, 0, 1)->flags & dropped, dropped);
	ss_topology_free(t);

	/* 21 keeps it on every vendor */
	t = two_node("intel", "", 21);
	assert_int_equal(dom(t, 0, 1)->flags & dropped, dropped);
	ss_topology_free(t);
}

static void test_degenerate_cluster_is_core(void **state)
{
	struct ss_topology *t;
	(void)state;

	/* each cluster holds one 2-thread core: CLS spans the SMT pair and goes */
	t = load_str("name: cls-is-core\nvendor: intel\npackages:\n  - clusters:\n"
		     "      - cores: [[0, 4]]\n      - cores: [[1, 5]]\n      - cores: [[2, 6]]\n      - cores: [[3, 7]]\n");
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(t->cpu[cpu].nr_sd, 2);
		assert_string_equal(dom(t, cpu, 0)->name, "SMT");
		assert_string_equal(dom(t, cpu, 1)->name, "MC");
		assert_int_equal(dom(t, cpu, 1)->span_weight, 8);
		/* the MC group of the CPU took its new child's (SMT) flags */
		assert_true(dom(t, cpu, 1)->groups[0].flags & SD_SHARE_CPUCAPACITY);
		assert_int_equal(t->cpu[cpu].sd_llc, 1);
	}
	check_invariants(t);
	ss_topology_free(t);

	/* two cores per cluster: CLS stays between SMT and MC */
	t = load_str("name: cls-two-cores\nvendor: intel\npackages:\n  - clusters:\n"
		     "      - cores: [[0, 4], [1, 5]]\n      - cores: [[2, 6], [3, 7]]\n");
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(t->cpu[cpu].nr_sd, 3);
		assert_string_equal(dom(t, cpu, 1)->name, "CLS");
		assert_int_equal(dom(t, cpu, 1)->span_weight, 4);
		assert_int_equal(dom(t, cpu, 1)->nr_groups, 2);
		assert_int_equal(t->cpu[cpu].sd_llc, 2);	/* the highest LLC-sharing level: MC */
	}
	check_invariants(t);
	ss_topology_free(t);
}

/*
 * A cluster that is the whole LLC: arm's cpu_clustergroup_mask() refuses it
 * (CLS = the CPU, gone; MC stays), x86's keeps it (MC is the degenerate one).
 */
static void test_cluster_is_llc(void **state)
{
	static const char *fmt = "name: cls-is-llc\nvendor: %s\nnuma: {distance: [[10, 20], [20, 10]]}\n"
				 "packages:\n  - clusters: [{cores: \"0-3\"}]\n  - clusters: [{cores: \"4-7\"}]\n";
	char *yaml;
	struct ss_topology *t;
	(void)state;

	yaml = g_strdup_printf(fmt, "arm");
	t = load_str(yaml);
	g_free(yaml);
	assert_int_equal(t->cpu[0].nr_sd, 2);
	assert_string_equal(dom(t, 0, 0)->name, "MC");
	assert_string_equal(L(t, t->cpu[0].cluster_mask), "0");
	check_invariants(t);
	ss_topology_free(t);

	yaml = g_strdup_printf(fmt, "intel");
	t = load_str(yaml);
	g_free(yaml);
	assert_int_equal(t->cpu[0].nr_sd, 2);
	assert_string_equal(dom(t, 0, 0)->name, "CLS");
	assert_string_equal(L(t, t->cpu[0].cluster_mask), "0-3");
	assert_int_equal(t->cpu[0].sd_llc, 0);
	assert_int_equal(t->cpu[0].llc_size, 4);
	check_invariants(t);
	ss_topology_free(t);
}

/*
 * x86 drops DIE when a package holds several nodes; the NODE level of
 * sched_init_numa() then spans the node. arm keeps DIE (cpu_cpu_mask = node).
 */
static void test_numa_in_package(void **state)
{
	static const char *fmt =
		"name: nps2\nvendor: %s\n"
		"numa:\n  distance:\n    - [10, 12, 32, 32]\n    - [12, 10, 32, 32]\n"
		"    - [32, 32, 10, 12]\n    - [32, 32, 12, 10]\n"
		"packages:\n"
		"  - repeat: 2\n    nodes:\n      - repeat: 2\n        llcs: [{cores: \"0-3\"}, {cores: \"4-7\"}]\n";
	static const char *const names[2][4] = { { "MC", "NODE", "NUMA", "NUMA" }, { "MC", "DIE", "NUMA", "NUMA" } };
	static const unsigned weights[4] = { 4, 8, 16, 32 };
	(void)state;

	for (unsigned v = 0; v < 2; v++) {
		char *yaml = g_strdup_printf(fmt, v ? "arm" : "amd");
		struct ss_topology *t = load_str(yaml);

		g_free(yaml);
		for (unsigned cpu = 0; cpu < 32; cpu++) {
			assert_int_equal(t->cpu[cpu].nr_sd, 4);
			for (unsigned k = 0; k < 4; k++) {
				assert_string_equal(dom(t, cpu, k)->name, names[v][k]);
				assert_int_equal(dom(t, cpu, k)->span_weight, weights[k]);
			}
			assert_int_equal(dom(t, cpu, 1)->level, v ? SS_SD_PKG : SS_SD_NUMA);
			assert_int_equal(dom(t, cpu, 1)->numa_level, v ? -1 : 0);
			assert_int_equal(dom(t, cpu, 1)->nr_groups, 2);
			/* 32 > 30 on arm; AMD's node_reclaim_distance 32 keeps wake-affine */
			assert_int_equal(!!(dom(t, cpu, 3)->flags & SD_WAKE_AFFINE), v ? 0 : 1);
			assert_int_equal(t->cpu[cpu].llc_size, 4);
			/* two LLCs per node: imb_numa_nr = nr_llcs = 2, x2 at the 32-CPU level */
			assert_int_equal(dom(t, cpu, 1)->imb_numa_nr, 2);
			assert_int_equal(dom(t, cpu, 3)->imb_numa_nr, 4);
		}
		assert_int_equal(t->nr_llc_shared, 8);
		check_invariants(t);
		ss_topology_free(t);
	}
}

static void test_single_node_and_cpu(void **state)
{
	struct ss_topology *t;
	char *s;
	(void)state;

	/* one node, one LLC: the hierarchy stops at MC, which spans everything */
	t = load_str("name: desktop\nvendor: intel\npackages:\n  - cores: [[0, 1], [2, 3], [4, 5], [6, 7]]\n");
	assert_int_equal(t->nr_numa_levels, 1);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		assert_int_equal(t->cpu[cpu].nr_sd, 2);
		assert_string_equal(dom(t, cpu, 1)->name, "MC");
		assert_int_equal(t->cpu[cpu].sd_numa, -1);
		assert_int_equal(dom(t, cpu, 1)->imb_numa_nr, 0);
	}
	check_invariants(t);
	ss_topology_free(t);

	/* one CPU: every domain degenerates, like "CPU0 attaching NULL sched-domain." */
	t = load_str("name: up\nvendor: arm\ncores: 0\n");
	assert_int_equal(t->nr_cpus, 1);
	assert_int_equal(t->cpu[0].nr_sd, 0);
	assert_null(t->cpu[0].sd);
	assert_int_equal(t->cpu[0].sd_llc, -1);
	assert_int_equal(t->cpu[0].llc_size, 1);
	assert_int_equal(t->nr_llc_shared, 1);
	s = ss_topology_describe(t, "text", NULL);
	assert_non_null(strstr(s, "CPU0 attaching NULL sched-domain.\n"));
	g_free(s);
	check_invariants(t);
	ss_topology_free(t);
}

/* asym_cpu_capacity_classify(): big and little clusters under one LLC */
static void test_asym_capacity(void **state)
{
	struct ss_topology *t = load_str("name: biglittle\nvendor: arm\npackages:\n  - clusters:\n"
					 "      - {cores: \"0-3\", capacity: 1024}\n"
					 "      - {cores: \"4-7\", capacity: 446}\n");
	(void)state;

	assert_int_equal(t->cpu[5].capacity, 446);
	for (unsigned cpu = 0; cpu < 8; cpu++) {
		const struct ss_sched_domain *cls = dom(t, cpu, 0), *mc = dom(t, cpu, 1);

		assert_string_equal(mc->name, "MC");
		assert_int_equal(mc->flags & (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL),
				 SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL);
		assert_false(cls->flags & SD_ASYM_CPUCAPACITY);
		/* "Don't attempt to spread across CPUs of different capacities." */
		assert_false(cls->flags & SD_PREFER_SIBLING);
		assert_true(mc->flags & SD_PREFER_SIBLING);
		assert_int_equal(mc->groups[0].capacity, cpu < 4 ? 4096 : 4 * 446);
		assert_int_equal(mc->groups[1].capacity, cpu < 4 ? 4 * 446 : 4096);
	}
	ss_topology_free(t);
}

/* Machines built in code, without YAML */
static void test_programmatic(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_new(4, 2);
	(void)state;

	assert_null(ss_topology_new(0, 1));
	assert_null(ss_topology_new(SS_MAX_CPUS + 1, 1));
	assert_null(ss_topology_new(2, 3));
	t->name = g_strdup("code");
	t->vendor = g_strdup("generic");
	for (unsigned i = 0; i < 4; i++) {
		t->cpu[i].package = 0;
		t->cpu[i].node = t->cpu[i].die = t->cpu[i].llc = i / 2;
		t->cpu[i].cluster = t->cpu[i].core = i;
	}
	assert_int_equal(ss_topology_build(t, &err), 0);
	assert_null(err);
	assert_int_equal(t->cpu[3].nr_sd, 2);
	assert_string_equal(L(t, dom(t, 3, 0)->span), "2-3");
	assert_string_equal(dom(t, 3, 1)->name, "NUMA");	/* default SLIT 20 */
	check_invariants(t);
	/* a second build is refused */
	assert_int_equal(ss_topology_build(t, &err), -1);
	assert_non_null(err);
	g_clear_error(&err);
	ss_topology_free(t);

	/* a core split across two clusters */
	t = ss_topology_new(2, 1);
	t->name = g_strdup("bad");
	t->vendor = g_strdup("generic");
	t->cpu[1].cluster = 1;
	assert_int_equal(ss_topology_build(t, &err), -1);
	assert_true(g_error_matches(err, SS_ERROR, SS_ERROR_INVALID));
	assert_string_equal(err->message, "core 0 spans cluster 0 and 1 (CPU 1); expected each core inside one cluster");
	g_clear_error(&err);
	ss_topology_free(t);

	/* an asymmetric SLIT builds as v6.6 builds it (tests/test_numa_asym.c), with a warning */
	t = ss_topology_new(2, 2);
	t->name = g_strdup("asym");
	t->vendor = g_strdup("generic");
	t->cpu[1].node = t->cpu[1].die = t->cpu[1].llc = t->cpu[1].cluster = t->cpu[1].core = 1;
	t->distance[1] = 30;
	assert_int_equal(ss_topology_build(t, &err), 0);
	assert_non_null(strstr(ss_topology_warnings(t)[0], "the NUMA distance matrix is asymmetric"));
	ss_topology_free(t);
	ss_topology_free(NULL);
}

/* ------------------------------------------------------------------------ */
/* Rendering                                                                */

static void test_describe(void **state)
{
	struct ss_topology *t = load_file("topologies/kunpeng920.yaml");
	GError *err = NULL;
	char *text, *text2, *json, *yaml;
	cJSON *root, *c32, *d2;
	struct ss_topology *again;
	(void)state;

	text = ss_topology_describe(t, "text", &err);
	assert_non_null(text);
	assert_non_null(strstr(text, "CPU0 attaching sched-domain(s):\n"
				     " domain-0: span=0-3 level=CLS\n"));
	assert_non_null(strstr(text, "  groups: 0:{ span=0 cap=1024 }, 1:{ span=1 cap=1024 }, "
				     "2:{ span=2 cap=1024 }, 3:{ span=3 cap=1024 }\n"
				     "  domain-1: span=0-31 level=MC\n"));
	assert_non_null(strstr(text, "     groups: 0:{ span=0-95 mask=0-31 cap=98304 }, "
				     "96:{ span=64-127 mask=96-127 cap=65536 }\n"));
	assert_non_null(strstr(text, "SD_BALANCE_NEWIDLE|SD_BALANCE_EXEC|SD_BALANCE_FORK|SD_WAKE_AFFINE|"
				     "SD_SERIALIZE|SD_OVERLAP|SD_NUMA span_weight=64 imbalance_pct=117 "
				     "cache_nice_tries=2"));
	assert_non_null(strstr(text, " sd_llc=domain-1 llc_size=32 llc_id=32 llc_index=1 sd_numa=domain-2\n"));
	/* deterministic */
	text2 = ss_topology_describe(t, "text", NULL);
	assert_string_equal(text, text2);

	json = ss_topology_describe(t, "json", &err);
	root = cJSON_Parse(json);
	assert_non_null(root);
	assert_string_equal(cJSON_GetObjectItem(root, "name")->valuestring, "kunpeng920");
	assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(root, "cpus")), 128);
	c32 = cJSON_GetArrayItem(cJSON_GetObjectItem(root, "cpus"), 32);
	assert_int_equal(cJSON_GetObjectItem(c32, "llc_id")->valueint, 32);
	d2 = cJSON_GetArrayItem(cJSON_GetObjectItem(c32, "domains"), 3);
	assert_string_equal(cJSON_GetObjectItem(d2, "span")->valuestring, "0-95");
	assert_string_equal(cJSON_GetObjectItem(cJSON_GetArrayItem(cJSON_GetObjectItem(d2, "groups"), 0),
						"balance_mask")->valuestring, "32-63");
	assert_string_equal(cJSON_GetArrayItem(cJSON_GetObjectItem(d2, "flags"), 3)->valuestring, "SD_WAKE_AFFINE");
	cJSON_Delete(root);

	yaml = ss_topology_describe(t, "yaml", &err);
	assert_non_null(yaml);
	assert_non_null(strstr(yaml, "\nname: \"kunpeng920\"\n"));
	assert_non_null(strstr(yaml, "\n    - [10, 12, 20, 22]\n"));
	assert_non_null(strstr(yaml, "\n#   levels: CLS(4) -> MC(32) -> NUMA(64) -> NUMA(96) -> NUMA(128)\n"));
	/* the YAML rendering is a topology file: loading it builds the same machine */
	again = ss_topology_load_string(yaml, strlen(yaml), "describe.yaml", &err);
	assert_non_null(again);
	{
		char *text3 = ss_topology_describe(again, "text", NULL);

		assert_string_equal(text, text3);
		g_free(text3);
	}
	ss_topology_free(again);

	assert_null(ss_topology_describe(t, "xml", &err));
	assert_true(g_error_matches(err, SS_ERROR, SS_ERROR_USAGE));
	assert_string_equal(err->message, "unknown topology format 'xml' (expected text, json or yaml)");
	g_clear_error(&err);

	assert_string_equal(ss_sd_flag_name(SD_SHARE_PKG_RESOURCES), "SD_SHARE_PKG_RESOURCES");
	assert_null(ss_sd_flag_name(1u << 20));
	g_free(text);
	g_free(text2);
	g_free(json);
	g_free(yaml);
	ss_topology_free(t);
}

/* A string that needs quoting survives the YAML rendering. */
static void test_describe_quoting(void **state)
{
	struct ss_topology *t = load_str("name: 'odd: \"name\" # x'\nvendor: generic\n"
					 "description: \"tab\\there\\nnewline \\\\ back\"\ncores: \"0-1\"\n");
	char *yaml = ss_topology_describe(t, "yaml", NULL);
	(void)state;

	assert_string_equal(t->name, "odd: \"name\" # x");
	assert_non_null(strstr(yaml, "\nname: \"odd: \\\"name\\\" # x\"\n"));
	assert_non_null(strstr(yaml, "\ndescription: \"tab\\there\\nnewline \\\\ back\"\n"));
	/* and loads back to the same strings */
	struct ss_topology *again = load_str(yaml);
	assert_string_equal(again->name, t->name);
	assert_string_equal(again->description, t->description);
	ss_topology_free(again);
	g_free(yaml);
	ss_topology_free(t);
}

/*
 * The YAML rendering round-trips what the shipped machines do not show:
 * several dies per node, per-core capacity, every cost, idle states and a
 * reclaim distance, a control character in the name.
 */
static void test_describe_yaml_round_trip(void **state)
{
	struct ss_topology *t = load_str(
		"name: \"two\\tdies\"\nvendor: arm\nnode_reclaim_distance: 25\n"
		"frequency: {base_mhz: 1800, max_mhz: 2900}\n"
		"costs: {probe_smt_ns: 3, probe_cluster_ns: 9, probe_llc_ns: 40, probe_package_ns: 70, probe_remote_ns: 150, "
		"line_cached_ns: 5, smt_contention_pct: 30, node_bandwidth_mbps: 5000}\n"
		"idle_states: [{name: POLL, exit_latency_us: 0, target_residency_us: 0, polling: true},\n"
		"              {name: C1, exit_latency_us: 2, target_residency_us: 4}]\n"
		"numa: {distance: [[10, 21], [21, 10]]}\n"
		"packages:\n"
		"  - nodes:\n"
		"      - dies:\n"
		"          - llcs: [{clusters: [{cores: [0, 1]}, {cores: [2, 3]}]}]\n"
		"          - llcs: [{cores: [{cpus: [4], capacity: 512}, {cpus: [5], capacity: 512}]}]\n"
		"      - cores: [6, 7]\n");
	char *yaml = ss_topology_describe(t, "yaml", NULL);
	struct ss_topology *u = load_str(yaml);
	char *a = ss_topology_describe(t, "text", NULL), *b = ss_topology_describe(u, "text", NULL);
	char *yaml2 = ss_topology_describe(u, "yaml", NULL);
	(void)state;

	assert_non_null(strstr(yaml, "dies:\n"));
	assert_string_equal(a, b);
	assert_string_equal(yaml, yaml2);
	assert_string_equal(u->name, "two\tdies");
	assert_int_equal(u->nr_dies, 3);
	assert_int_equal(u->nr_dies, t->nr_dies);
	assert_int_equal(u->nr_clusters, t->nr_clusters);
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		assert_int_equal(u->cpu[c].die, t->cpu[c].die);
		assert_int_equal(u->cpu[c].cluster, t->cpu[c].cluster);
		assert_int_equal(u->cpu[c].capacity, t->cpu[c].capacity);
	}
	assert_int_equal(u->cpu[4].capacity, 512);
	assert_int_equal(u->node_reclaim_distance, 25);
	assert_int_equal(u->base_freq_khz, 1800000);
	assert_int_equal(u->max_freq_khz, 2900000);
	assert_int_equal(u->probe_smt_ns, 3);
	assert_int_equal(u->probe_cluster_ns, 9);
	assert_int_equal(u->probe_llc_ns, 40);
	assert_int_equal(u->probe_package_ns, 70);
	assert_int_equal(u->probe_remote_ns, 150);
	assert_int_equal(u->line_cached_ns, 5);
	assert_int_equal(u->smt_contention_pct, 30);
	assert_int_equal(u->node_bandwidth_mbps, 5000);
	assert_int_equal(u->nr_idle_states, 2);
	assert_memory_equal(u->idle_state, t->idle_state, sizeof(t->idle_state[0]) * 2);
	g_free(a);
	g_free(b);
	g_free(yaml);
	g_free(yaml2);
	ss_topology_free(u);
	ss_topology_free(t);
}

/*
 * The topology and the workload loaders word the same mistakes the same way:
 * "file:line:col: what is wrong (expected ...)", a subject key bare, keys
 * listed as "a, b or c", one YAML syntax error form (lib/ss_yaml.h).
 */
static void test_loader_wording(void **state)
{
	static const struct {
		const char *topo, *wl;     /* the same mistake in a topology and in a workload */
		const char *topo_msg, *wl_msg;
	} cases[] = {
		{ "name: x\nvendor: intel\ncores: [0\n", "name: x\ninstance: [a\n",
		  "t.yaml:4:1: YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence at 3:8 (expected valid YAML)",
		  "w.yaml:3:1: YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence at 2:11 (expected valid YAML)" },
		{ "name: x\nvendor: intel\nbogus: 1\ncores: 0\n", "name: x\nbogus: 1\n",
		  "t.yaml:3:1: unknown key 'bogus' in the machine (expected one of: ",
		  "w.yaml:2:1: unknown key 'bogus' in the workload (expected one of: " },
		{ "name: x\nname: y\nvendor: intel\ncores: 0\n", "name: x\nname: y\n",
		  "t.yaml:2:1: duplicate key 'name' in the machine (first given at 1:1; expected each key once)",
		  "w.yaml:2:1: duplicate key 'name' in the workload (expected each key once)" },
		{ "name: [x]\nvendor: intel\ncores: 0\n", "name: [x]\n",
		  "t.yaml:1:7: name is a list (expected ", "w.yaml:1:7: name is a list (expected " },
	};
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *te = NULL, *we = NULL;

		assert_null(ss_topology_load_string(cases[i].topo, strlen(cases[i].topo), "t.yaml", &te));
		assert_null(ss_workload_load_string(cases[i].wl, strlen(cases[i].wl), "w.yaml", &we));
		if (strncmp(te->message, cases[i].topo_msg, strlen(cases[i].topo_msg)))
			fail_msg("case %u topology:\n  got:  %s\n  want: %s", i, te->message, cases[i].topo_msg);
		if (strncmp(we->message, cases[i].wl_msg, strlen(cases[i].wl_msg)))
			fail_msg("case %u workload:\n  got:  %s\n  want: %s", i, we->message, cases[i].wl_msg);
		/* key lists end "... or LAST)" in both */
		if (strstr(te->message, "expected one of:")) {
			assert_non_null(strstr(te->message, " or cores)"));
			assert_non_null(strstr(we->message, " or "));
		}
		g_error_free(te);
		g_error_free(we);
	}
}

/* ------------------------------------------------------------------------ */
/* Bad inputs                                                               */

struct bad_case {
	const char *file;
	int code;
	const char *where;	/* "line:col" */
	const char *message;	/* the message after "file:line:col: " (prefix) */
};

static const struct bad_case bad_cases[] = {
	{ "bad_syntax.yaml", SS_ERROR_PARSE, "5:1",
	  "YAML syntax error: did not find expected ',' or ']' while parsing a flow sequence at 4:13 (expected valid YAML)" },
	{ "unknown_key.yaml", SS_ERROR_INVALID, "3:1",
	  "unknown key 'smt_threads' in the machine (expected one of: name, vendor, description, node_reclaim_distance, "
	  "frequency, costs, idle_states, numa, capacity, offline, packages, nodes, dies, llcs, clusters or cores)" },
	{ "cpu_twice.yaml", SS_ERROR_INVALID, "9:17",
	  "CPU 1 is listed twice (first at 7:14; expected each CPU in exactly one core)" },
	{ "cpu_twice_repeat.yaml", SS_ERROR_INVALID, "7:21",
	  "CPU 12 (shifted by 4 by 'repeat') is listed twice (first at 7:24;" },
	{ "distance_size.yaml", SS_ERROR_INVALID, "5:5",
	  "the distance matrix has 3 rows but the machine has 2 nodes (expected a 2x2 matrix, one row per node)" },
	{ "distance_row.yaml", SS_ERROR_INVALID, "6:7",
	  "row 1 of the distance matrix has 1 entry (expected 2, one per node)" },
	{ "distance_diag.yaml", SS_ERROR_INVALID, "6:12",
	  "distance[1][1] is 12 (expected 10: a node's distance to itself is LOCAL_DISTANCE)" },
	{ "missing_cpu.yaml", SS_ERROR_INVALID, "3:1",
	  "CPU 2 is not listed (expected CPUs numbered 0..N-1 without gaps: 4 CPUs are listed, the highest is 4)" },
	{ "wrong_type.yaml", SS_ERROR_INVALID, "3:24",
	  "node_reclaim_distance is the string 'far' (expected an integer in 10..255)" },
	{ "wrong_type_list.yaml", SS_ERROR_INVALID, "4:12",
	  "cores is a mapping (expected a list of cores or a cpulist string such as \"0-3\")" },
	{ "nesting_cpus.yaml", SS_ERROR_INVALID, "10:19",
	  "the CPUs listed inside this llc (8-19) are not all in its 'cpus' 8-15: 16-19 lie outside it" },
	{ "nesting_level.yaml", SS_ERROR_INVALID, "5:9",
	  "llcs cannot be inside a cluster: levels nest packages > nodes > dies > llcs > clusters > cores "
	  "(expected one of: cores, cpus, capacity, repeat or step)" },
	{ "too_many_cpus.yaml", SS_ERROR_INVALID, "5:13",
	  "CPU 4096 is out of range (expected CPU numbers 0..4095, SS_MAX_CPUS = 4096)" },
	{ "duplicate_key.yaml", SS_ERROR_INVALID, "3:1", "duplicate key 'name' in the machine (first given at 1:1; expected each key once)" },
	{ "bad_cpulist.yaml", SS_ERROR_INVALID, "4:17", "cores has a bad cpulist '0-3,x' at character 5" },
	{ "two_child_keys.yaml", SS_ERROR_INVALID, "6:5",
	  "both 'clusters' and 'cores' given in a package (expected exactly one list of the level below)" },
	{ "bad_vendor.yaml", SS_ERROR_INVALID, "2:9", "unknown vendor 'sparc' (expected one of intel, amd" },
	{ "empty.yaml", SS_ERROR_INVALID, "1:1", "the file holds no YAML document (expected a machine" },
};

static void test_bad_inputs(void **state)
{
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(bad_cases); i++) {
		const struct bad_case *bc = &bad_cases[i];
		char *path = g_build_filename(SS_TEST_DATA, "topology", bc->file, NULL);
		char *want = g_strdup_printf("%s:%s: %s", path, bc->where, bc->message);
		GError *err = NULL;
		struct ss_topology *t = ss_topology_load(path, &err);

		if (t || !err)
			fail_msg("%s: loaded without error", bc->file);
		if (!g_error_matches(err, SS_ERROR, bc->code))
			fail_msg("%s: error code %d, expected %d (%s)", bc->file, err->code, bc->code, err->message);
		if (strncmp(err->message, want, strlen(want)))
			fail_msg("%s:\n  got:  %s\n  want: %s", bc->file, err->message, want);
		g_error_free(err);
		g_free(want);
		g_free(path);
	}
}

/* Errors of the in-memory loader and of small snippets. */
static void test_bad_strings(void **state)
{
	static const struct {
		const char *yaml, *msg;
	} cases[] = {
		{ "- 1\n", "<string>:1:1: the document is a list (expected a mapping" },
		{ "vendor: intel\ncores: 0\n", "<string>:1:1: the machine has no 'name'" },
		{ "name: x\ncores: 0\n", "<string>:1:1: the machine has no 'vendor'" },
		{ "name: x\nvendor: intel\n", "<string>:1:1: the machine lists no CPUs (expected 'packages', 'nodes', "
					     "'dies', 'llcs', 'clusters' or 'cores')" },
		{ "name: [x]\nvendor: intel\ncores: 0\n", "<string>:1:7: name is a list (expected a non-empty string)" },
		{ "name: x\nvendor: intel\ncores: []\n", "<string>:3:8: cores is an empty list" },
		{ "name: x\nvendor: intel\ncores: [[0, a]]\n",
		  "<string>:3:13: an entry of cores is the string 'a' (expected a CPU number 0..4095)" },
		{ "name: x\nvendor: intel\ncores: [-1]\n", "<string>:3:9: CPU -1 is out of range" },
		{ "name: x\nvendor: intel\ncapacity: 2000\ncores: 0\n",
		  "<string>:3:11: capacity 2000 is out of range (expected 1..1024)" },
		{ "name: x\nvendor: intel\nfrequency: {base_mhz: 2400, max_mhz: 2000}\ncores: 0\n",
		  "<string>:3:38: max_mhz 2000 is below base_mhz 2400 (expected max_mhz >= base_mhz)" },
		{ "name: x\nvendor: intel\nfrequency: {max_mhz: 2000}\ncores: 0\n",
		  "<string>:3:12: frequency has no 'base_mhz'" },
		{ "name: x\nvendor: intel\ncosts: {probe_l3_ns: 4}\ncores: 0\n",
		  "<string>:3:9: unknown key 'probe_l3_ns' in costs (expected one of: probe_smt_ns, probe_cluster_ns, "
		  "probe_llc_ns, probe_package_ns, probe_remote_ns, line_cached_ns, smt_contention_pct, node_bandwidth_mbps, "
		  "tick_ns, kthread_rate_hz or kthread_ns)" },
		{ "name: x\nvendor: intel\nnuma: {distance: [[10, 10], [10, 10]]}\ncores: 0\n",
		  "<string>:3:18: the distance matrix has 2 rows but the machine has 1 node" },
		{ "name: x\nvendor: intel\nnuma: {distance: [[10, 10], [10, 10]]}\nnodes: [{cores: 0}, {cores: 1}]\n",
		  "<string>:3:24: distance[0][1] is 10 (expected 11..254" },
		{ "name: x\nvendor: intel\ncores: [{cpus: 0, repeat: 2, step: 0}]\n",
		  "<string>:3:16: CPU 0 is listed twice (first at 3:16;" },
		{ "name: x\nvendor: intel\ncores: [{repeat: 2}]\n", "<string>:3:9: a core has no 'cpus'" },
		{ "name: x\nvendor: intel\ncores: 0\n---\nname: y\n",
		  "<string>:4:1: a second YAML document (expected one machine per file)" },
		{ "name: x\nvendor: intel\ncores: \"0\xff\"\n", "<string>:3:10: YAML syntax error: " },
		{ "name: x\nvendor: intel\nllcs:\n  - clusters:\n      - cores: [0]\n    cpus: \"0-1\"\n",
		  "<string>:6:11: this llc declares 'cpus' 0-1 but the levels inside it list only 0 (missing: 1)" },
		/* a CPU twice inside one cpulist string is as wrong as twice in a list */
		{ "name: x\nvendor: intel\ncores: \"0-3,3\"\n",
		  "<string>:3:13: CPU 3 is listed twice in the cpulist '0-3,3' of cores (first at 3:9;" },
		{ "name: x\nvendor: intel\ncores: [\"0,0\", 1]\n",
		  "<string>:3:12: CPU 0 is listed twice in the cpulist '0,0' of cores (first at 3:10;" },
		{ "name: x\nvendor: intel\noffline: \"1,1\"\ncores: \"0-3\"\n",
		  "<string>:3:13: CPU 1 is listed twice in the cpulist '1,1' of offline (first at 3:11;" },
		{ "name: x\nvendor: intel\noffline: \"1-2,2-3\"\ncores: \"0-3\"\n",
		  "<string>:3:15: CPU 2 is listed twice in the cpulist '1-2,2-3' of offline (first at 3:11;" },
		{ "name: x\nvendor: intel\noffline: \"9\"\ncores: \"0-3\"\n",
		  "<string>:3:10: 'offline' names CPU 9, beyond the machine's CPUs 0..3 (expected" },
		{ "name: \"\"\nvendor: intel\ncores: \"0-3\"\n", "<string>:1:7: name is empty (expected" },
		/* node ids: distinct, in range, on nodes only, not in repeated entries */
		{ "name: x\nvendor: intel\nnodes: [{id: 2, cores: 0}, {id: 2, cores: 1}]\n",
		  "<string>:3:33: node id 2 is given twice, here and at 3:14 (expected each node's firmware id once)" },
		{ "name: x\nvendor: intel\nnodes: [{id: 1, cores: 0}, {cores: 1}]\n",
		  "<string>:3:14: node id 1 is also the id of node 1 in file order, which has no 'id'" },
		{ "name: x\nvendor: intel\nnodes: [{cores: 0}, {id: 0, cores: 1}]\n",
		  "<string>:3:26: node id 0 is also the id of node 0 in file order, which has no 'id'" },
		{ "name: x\nvendor: intel\nnodes: [{id: -1, cores: 0}]\n",
		  "<string>:3:14: id -1 is out of range (expected 0..4294967294)" },
		{ "name: x\nvendor: intel\nnodes: [{id: 4294967295, cores: 0}]\n",
		  "<string>:3:14: id 4294967295 is out of range (expected 0..4294967294)" },
		{ "name: x\nvendor: intel\nnodes: [{id: one, cores: 0}]\n",
		  "<string>:3:14: id is the string 'one' (expected an integer in 0..4294967294)" },
		{ "name: x\nvendor: intel\nnodes: [{id: 3, repeat: 2, cores: 0}]\n",
		  "<string>:3:14: id 3 in a repeated node: every copy would have it" },
		{ "name: x\nvendor: intel\npackages: [{repeat: 2, nodes: [{id: 3, cores: 0}]}]\n",
		  "<string>:3:37: id 3 in a repeated node: every copy would have it" },
		{ "name: x\nvendor: intel\npackages: [{id: 3, cores: 0}]\n",
		  "<string>:3:13: unknown key 'id' in a package" },
	};
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		GError *err = NULL;
		struct ss_topology *t = ss_topology_load_string(cases[i].yaml, strlen(cases[i].yaml), NULL, &err);

		if (t || !err)
			fail_msg("case %u loaded without error", i);
		if (strncmp(err->message, cases[i].msg, strlen(cases[i].msg)))
			fail_msg("case %u:\n  got:  %s\n  want: %s", i, err->message, cases[i].msg);
		g_error_free(err);
	}
}

/*
 * Firmware node ids ('id' on a node, docs/topologies.md): nodes keep their
 * file order inside (cpu[].node, SLIT rows) and their ids outside: topo
 * text, JSON and YAML print the ids, the YAML round-trips them, and node
 * lists name nodes by id. Without 'id' a node's id is its file order.
 */
static void test_node_ids(void **state)
{
	static const char yaml[] =
		"name: ids\nvendor: arm\n"
		"numa: {distance: [[10, 12, 20, 20], [12, 10, 20, 20], [20, 20, 10, 12], [20, 20, 12, 10]]}\n"
		"packages:\n"
		"  - nodes: [{id: 0, cores: \"0-3\"}, {id: 2, cores: \"4-7\"}]\n"
		"  - nodes: [{id: 1, cores: \"8-11\"}, {id: 3, cores: \"12-15\"}]\n";
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "ids.yaml", &err), *again;
	uint64_t m[1];
	char *s;
	(void)state;

	if (!t)
		fail_msg("%s", err->message);
	assert_int_equal(t->nr_nodes, 4);
	assert_int_equal(t->cpu[4].node, 1);               /* second in file order ... */
	assert_int_equal(ss_node_id(t, t->cpu[4].node), 2);/* ... firmware node 2 */
	assert_int_equal(ss_node_id(t, t->cpu[8].node), 1);
	assert_int_equal(ss_topology_node_index(t, 1), 2);
	assert_int_equal(ss_topology_node_index(t, 4), -1);
	/* node lists by id: "1" is the third node in file order (CPUs 8-11) */
	assert_true(ss_topology_parse_nodes(t, "1", m, &err));
	assert_int_equal(m[0], 1u << 2);
	assert_true(ss_topology_parse_nodes(t, "0-1", m, &err));
	assert_int_equal(m[0], (1u << 0) | (1u << 2));
	assert_true(ss_topology_parse_nodes(t, " 3 ,2", m, &err));
	assert_int_equal(m[0], (1u << 3) | (1u << 1));
	s = ss_topology_format_node_ids(t, m);
	assert_string_equal(s, "2-3");
	g_free(s);
	s = ss_topology_format_node_ids(t, NULL);
	assert_string_equal(s, "0-3");
	g_free(s);
	assert_false(ss_topology_parse_nodes(t, "4", m, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_string_equal(err->message, "ids has no node 4 (its node ids: 0-3)");
	g_clear_error(&err);
	assert_false(ss_topology_parse_nodes(t, "1-7", m, &err));
	assert_string_equal(err->message, "ids has no node 7 (its node ids: 0-3)");
	g_clear_error(&err);
	assert_false(ss_topology_parse_nodes(t, "99999999999999999999", m, &err));
	assert_string_equal(err->message, "ids has no node 99999999999999999999 (its node ids: 0-3)");
	g_clear_error(&err);
	assert_false(ss_topology_parse_nodes(t, "3-1", m, &err));
	assert_non_null(strstr(err->message, "node range 3-1 runs backwards"));
	g_clear_error(&err);
	static const char *const bad[] = { "", "a", "1,", "-1", "1-", "0x1", "1 2", ",0" };
	for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
		if (ss_topology_parse_nodes(t, bad[i], m, &err))
			fail_msg("'%s' parsed as a node list", bad[i]);
		assert_non_null(strstr(err->message, "not a node list (expected firmware node ids like 0-1 or 0,2"));
		assert_non_null(strstr(err->message, "ids has nodes 0-3)"));
		g_clear_error(&err);
	}
	/* topo text and JSON print the ids; the distance table is labelled with them */
	s = ss_topology_describe(t, "text", &err);
	assert_non_null(strstr(s, "  node 2: 4-7\n"));
	assert_non_null(strstr(s, "  node 1: 8-11\n"));
	assert_non_null(strstr(s, "\nnode    0   2   1   3\n  0:   10  12  20  20\n  2:   12  10  20  20\n"));
	assert_non_null(strstr(s, "node 2 cpus: 4-7\n"));
	g_free(s);
	s = ss_topology_describe(t, "json", &err);
	assert_non_null(strstr(s, "\"node_ids\":\t[0, 2, 1, 3]"));
	assert_non_null(strstr(s, "\"cpu\":\t4,\n\t\t\t\"package\":\t0,\n\t\t\t\"node\":\t2,"));
	g_free(s);
	/* YAML: written with the ids, loads to the same machine and ids */
	s = ss_topology_describe(t, "yaml", &err);
	assert_non_null(strstr(s, "# node2\n        id: 2\n"));
	again = ss_topology_load_string(s, strlen(s), "again.yaml", &err);
	if (!again)
		fail_msg("%s\n%s", err->message, s);
	for (unsigned n = 0; n < 4; n++)
		assert_int_equal(ss_node_id(again, n), ss_node_id(t, n));
	g_free(s);
	ss_topology_free(again);
	ss_topology_free(t);

	/* without ids: file order, as before */
	t = ss_topology_load_string("name: x\nvendor: intel\nnodes: [{cores: 0}, {cores: 1}]\n", 54, "x.yaml", &err);
	assert_non_null(t);
	assert_int_equal(ss_node_id(t, 0), 0);
	assert_int_equal(ss_node_id(t, 1), 1);
	ss_topology_free(t);
}

/* The two ```yaml examples of docs/topologies.md load and describe the same machine. */
static void test_docs_examples(void **state)
{
	char *path = g_build_filename(SS_SOURCE_DIR, "docs", "topologies.md", NULL), *doc = NULL;
	char *text[2] = { NULL, NULL };
	const char *p;
	unsigned n = 0;
	(void)state;

	assert_true(g_file_get_contents(path, &doc, NULL, NULL));
	for (p = doc; n < 2 && (p = strstr(p, "```yaml\n")); n++) {
		const char *start = p + 8, *end = strstr(start, "```");
		GError *err = NULL;
		struct ss_topology *t;

		assert_non_null(end);
		t = ss_topology_load_string(start, (size_t)(end - start), "docs/topologies.md", &err);
		if (!t)
			fail_msg("example %u: %s", n, err->message);
		assert_int_equal(t->nr_cpus, 16);
		assert_int_equal(t->smt_threads, 2);
		text[n] = ss_topology_describe(t, "text", NULL);
		ss_topology_free(t);
		p = end;
	}
	assert_int_equal(n, 2);
	/* same domains and groups for every CPU */
	assert_string_equal(strstr(text[0], "CPU0 attaching"), strstr(text[1], "CPU0 attaching"));
	g_free(text[0]);
	g_free(text[1]);
	g_free(doc);
	g_free(path);
}

/*
 * 4096 CPUs in one LLC: one MC domain per CPU with 4096 single-CPU groups,
 * shared between the CPUs as the kernel shares sched_group (one ring, each
 * CPU's sd->groups at its own group); and a 4096-CPU SMT2 machine on two
 * nodes. Behaviour only: the domains, the ring order, LLC bookkeeping.
 */
static void test_big_machines(void **state)
{
	static const unsigned probe[] = { 0, 1, 2047, 4094, 4095 };
	struct ss_topology *t;
	(void)state;

	t = load_str("name: big\nvendor: arm\ncores: \"0-4095\"\n");
	assert_int_equal(t->nr_cpus, 4096);
	assert_int_equal(t->nr_llcs, 1);
	for (unsigned cpu = 0; cpu < 4096; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];
		const struct ss_sched_domain *mc = dom(t, cpu, 0);

		assert_int_equal(c->nr_sd, 1);
		assert_int_equal(mc->level, SS_SD_MC);
		assert_string_equal(mc->name, "MC");
		assert_int_equal(mc->span_weight, 4096);
		assert_int_equal(ss_cpumask_weight(mc->span, t->nr_words), 4096);
		assert_int_equal(mc->nr_groups, 4096);
		assert_int_equal(mc->min_interval, 4096);
		assert_true(mc->flags & SD_SHARE_PKG_RESOURCES);
		assert_null(mc->parent);
		assert_null(mc->child);
		/* the local group holds the CPU */
		assert_int_equal(mc->groups->weight, 1);
		assert_int_equal(mc->groups->id, cpu);
		assert_true(ss_cpumask_test(mc->groups->span, cpu));
		assert_int_equal(c->sd_llc, 0);
		assert_int_equal(c->llc_size, 4096);
		assert_int_equal(c->llc_id, 0);
		assert_int_equal(c->llc_index, 0);
		assert_int_equal(c->sd_numa, -1);
	}
	assert_int_equal(t->nr_llc_shared, 1);
	assert_true(ss_cpus_share_cache(t, 0, 4095));
	{
		const struct ss_sched_domain *mc = dom(t, 4095, 0);
		const struct ss_sched_group *g = mc->groups;

		assert_int_equal(g->id, 4095);
		assert_string_equal(L(t, g->span), "4095");
		assert_string_equal(L(t, g->balance_mask), "4095");
		assert_int_equal(g->balance_cpu, 4095);
		assert_int_equal(g->capacity, 1024);
		assert_int_equal(g->flags, 0);
	}
	/* for_each_cpu_wrap() order from each CPU; the groups cover the span once */
	for (unsigned i = 0; i < G_N_ELEMENTS(probe); i++) {
		const struct ss_sched_domain *mc = dom(t, probe[i], 0);
		const struct ss_sched_group *g = mc->groups;
		uint64_t u[64] = { 0 };

		for (unsigned q = 0; q < mc->nr_groups; q++, g = g->next) {
			assert_int_equal(g->id, (probe[i] + q) % 4096);
			assert_int_equal(g->weight, 1);
			assert_false(ss_cpumask_intersects(u, g->span, t->nr_words));
			ss_cpumask_or(u, u, g->span, t->nr_words);
		}
		assert_ptr_equal(g, mc->groups);	/* circular */
		assert_true(ss_cpumask_equal(u, mc->span, t->nr_words));
	}
	/* one ring for the span: CPU 0's next group is CPU 1's local group */
	assert_ptr_equal(dom(t, 0, 0)->groups->next, dom(t, 1, 0)->groups);
	ss_topology_free(t);

	t = load_str("name: bigsmt\nvendor: intel\nnuma: {distance: [[10, 21], [21, 10]]}\n"
		     "packages:\n  - repeat: 2\n    step: 1024\n    cores:\n"
		     "      - {cpus: [0, 2048], repeat: 1024, step: 1}\n");
	assert_int_equal(t->nr_cpus, 4096);
	assert_int_equal(t->smt_threads, 2);
	for (unsigned cpu = 0; cpu < 4096; cpu += 511) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];
		unsigned node = (cpu % 2048) / 1024;

		assert_int_equal(c->nr_sd, 3);
		assert_string_equal(dom(t, cpu, 0)->name, "SMT");
		assert_int_equal(dom(t, cpu, 0)->nr_groups, 2);
		assert_string_equal(dom(t, cpu, 1)->name, "MC");
		assert_int_equal(dom(t, cpu, 1)->span_weight, 2048);
		assert_int_equal(dom(t, cpu, 1)->nr_groups, 1024);
		assert_int_equal(dom(t, cpu, 1)->groups->weight, 2);
		assert_int_equal(dom(t, cpu, 1)->groups->id, cpu % 2048);
		assert_true(dom(t, cpu, 1)->groups->flags & SD_SHARE_CPUCAPACITY);
		assert_string_equal(dom(t, cpu, 2)->name, "NUMA");
		assert_int_equal(dom(t, cpu, 2)->span_weight, 4096);
		assert_int_equal(dom(t, cpu, 2)->nr_groups, 2);
		assert_int_equal(dom(t, cpu, 2)->groups->weight, 2048);
		assert_int_equal(dom(t, cpu, 2)->groups->id, node * 1024);
		assert_int_equal(c->sd_llc, 1);
		assert_int_equal(c->llc_size, 2048);
		assert_int_equal(c->llc_id, node * 1024);
		assert_int_equal(c->sd_numa, 2);
	}
	ss_topology_free(t);
}

static void test_io_error(void **state)
{
	GError *err = NULL;
	(void)state;

	assert_null(ss_topology_load(SS_TEST_DATA "/topology/no-such-file.yaml", &err));
	assert_true(g_error_matches(err, SS_ERROR, SS_ERROR_IO));
	assert_non_null(strstr(err->message, "no-such-file.yaml: cannot read the topology file"));
	g_clear_error(&err);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kunpeng_domains),
		cmocka_unit_test(test_kunpeng_numa_groups),
		cmocka_unit_test(test_kunpeng_compact_form),
		cmocka_unit_test(test_xeon_domains),
		cmocka_unit_test(test_xeon_compact_form),
		cmocka_unit_test(test_reclaim_distance),
		cmocka_unit_test(test_degenerate_cluster_is_core),
		cmocka_unit_test(test_cluster_is_llc),
		cmocka_unit_test(test_numa_in_package),
		cmocka_unit_test(test_single_node_and_cpu),
		cmocka_unit_test(test_asym_capacity),
		cmocka_unit_test(test_programmatic),
		cmocka_unit_test(test_describe),
		cmocka_unit_test(test_describe_quoting),
		cmocka_unit_test(test_describe_yaml_round_trip),
		cmocka_unit_test(test_bad_inputs),
		cmocka_unit_test(test_bad_strings),
		cmocka_unit_test(test_node_ids),
		cmocka_unit_test(test_loader_wording),
		cmocka_unit_test(test_docs_examples),
		cmocka_unit_test(test_io_error),
		cmocka_unit_test(test_big_machines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

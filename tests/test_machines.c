/*
 * The shipped machines (the YAML files in topologies/) load and build the sched domains
 * shared/reference/topologies-workloads.md (A.1-A.5) expects at kernel v6.6:
 * counts for all five; for spr224, epyc9654 and desktop-8c16t the levels and
 * span weights of every CPU, SMT siblings, the LLC bookkeeping (sd_llc size,
 * llc_id, cpus_share_cache) and the NUMA level's wake-affine flag, plus a few
 * named CPUs (0, the last, a sibling, a CPU of the second socket) with their
 * spans written out.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <string.h>
#include <cmocka.h>

#include "simsched/topology.h"
#include "simsched/error.h"

#define MAX_LEVELS 5
#define NO_NUMA (-1)

#include "machine_helpers.h"

/* ------------------------------------------------------------------------ */
/* All five: they load, with the reference's counts                         */

static void test_all_shipped_load(void **state)
{
	static const struct {
		const char *file, *name;
		unsigned nr_cpus, nr_nodes, nr_packages, nr_llcs, nr_llc_shared, smt_threads;
	} m[] = {
		{ "topologies/kunpeng920.yaml", "kunpeng920", 128, 4, 2, 4, 4, 1 },
		{ "topologies/xeon6148.yaml", "xeon6148", 80, 2, 2, 2, 2, 2 },
		{ "topologies/spr224.yaml", "spr224", 224, 2, 2, 2, 2, 2 },
		{ "topologies/epyc9654.yaml", "epyc9654", 384, 2, 2, 24, 24, 2 },
		{ "topologies/desktop-8c16t.yaml", "desktop-8c16t", 16, 1, 1, 1, 1, 2 },
	};
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(m); i++) {
		struct ss_topology *t = load_file(m[i].file);

		assert_string_equal(t->name, m[i].name);
		assert_int_equal(t->nr_cpus, m[i].nr_cpus);
		assert_int_equal(t->nr_nodes, m[i].nr_nodes);
		assert_int_equal(t->nr_packages, m[i].nr_packages);
		assert_int_equal(t->nr_llcs, m[i].nr_llcs);
		assert_int_equal(t->nr_llc_shared, m[i].nr_llc_shared);
		assert_int_equal(t->smt_threads, m[i].smt_threads);
		assert_non_null(t->description);
		assert_true(t->base_freq_khz > 0);
		assert_true(t->probe_llc_ns > 0);
		for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++)
			assert_int_equal(t->cpu[cpu].capacity, 1024);
		ss_topology_free(t);
	}
}

/* ------------------------------------------------------------------------ */
/* The three new machines, table-driven                                     */

struct named_cpu {
	unsigned cpu, sibling, node, llc_id;
	const char *llc_span;          /* sd_llc span as a cpulist */
	const char *top_span;          /* the highest domain's span */
};

struct machine {
	const char *file, *name, *vendor;
	unsigned nr_cpus, nr_nodes, reclaim, dist;   /* dist: the off-diagonal SLIT value */
	unsigned base_mhz, max_mhz, probe_smt_ns, probe_llc_ns;
	unsigned nr_sd;
	const char *level[MAX_LEVELS];
	unsigned weight[MAX_LEVELS];
	unsigned imb_numa_nr[MAX_LEVELS]; /* build_sched_domains() */
	int numa;                       /* index of the NUMA level (sd_numa), NO_NUMA if none */
	unsigned llc_size;              /* sd_llc = the MC level, index 1 */
	unsigned cpus_per_node_half;    /* CPUs of one node among 0..N/2-1 */
	struct named_cpu named[6];
	unsigned nr_named;
};

/* v6.6 imb_numa_nr: the first level above the LLC gets nr_llcs in it
 * (or span/8 with one LLC), the levels above it that times span / NUMA span. */
static const struct machine spr224 = {
	"topologies/spr224.yaml", "spr224", "intel", 224, 2, 30, 21, 2000, 3800, 8, 55,
	3, { "SMT", "MC", "NUMA" }, { 2, 112, 224 }, { 0, 0, 14 }, 2, 112, 56,
	{
		{ 0, 112, 0, 0, "0-55,112-167", "0-223" },
		{ 55, 167, 0, 0, "0-55,112-167", "0-223" },
		{ 112, 0, 0, 0, "0-55,112-167", "0-223" },
		{ 56, 168, 1, 56, "56-111,168-223", "0-223" },
		{ 223, 111, 1, 56, "56-111,168-223", "0-223" },
	},
	5,
};

static const struct machine epyc9654 = {
	"topologies/epyc9654.yaml", "epyc9654", "amd", 384, 2, 32, 32, 2400, 3700, 8, 27,
	4, { "SMT", "MC", "DIE", "NUMA" }, { 2, 16, 192, 384 }, { 0, 0, 12, 12 }, 3, 16, 96,
	{
		{ 0, 192, 0, 0, "0-7,192-199", "0-383" },
		{ 192, 0, 0, 0, "0-7,192-199", "0-383" },
		{ 13, 205, 0, 8, "8-15,200-207", "0-383" },
		{ 95, 287, 0, 88, "88-95,280-287", "0-383" },
		{ 96, 288, 1, 96, "96-103,288-295", "0-383" },
		{ 383, 191, 1, 184, "184-191,376-383", "0-383" },
	},
	6,
};

static const struct machine desktop = {
	"topologies/desktop-8c16t.yaml", "desktop-8c16t", "amd", 16, 1, 32, 0, 3800, 4700, 8, 18,
	2, { "SMT", "MC" }, { 2, 16 }, { 0, 0 }, NO_NUMA, 16, 8,
	{
		{ 0, 8, 0, 0, "0-15", "0-15" },
		{ 8, 0, 0, 0, "0-15", "0-15" },
		{ 15, 7, 0, 0, "0-15", "0-15" },
		{ 3, 11, 0, 0, "0-15", "0-15" },
	},
	4,
};

/*
 * Every CPU: CPU n's sibling is n +- N/2; its node is which half of each
 * N/2 block it lies in; its LLC is the node (spr224, desktop) or its CCX of
 * 8 cores (epyc9654), whose first CPU is llc_id.
 */
static unsigned exp_sibling(const struct machine *m, unsigned cpu)
{
	return cpu < m->nr_cpus / 2 ? cpu + m->nr_cpus / 2 : cpu - m->nr_cpus / 2;
}

static unsigned exp_llc_id(const struct machine *m, unsigned cpu)
{
	unsigned core = cpu % (m->nr_cpus / 2);

	return core - core % (m->llc_size / 2);
}

static void check_machine(const struct machine *m)
{
	struct ss_topology *t = load_file(m->file);
	unsigned nw;

	assert_string_equal(t->name, m->name);
	assert_string_equal(t->vendor, m->vendor);
	assert_int_equal(t->nr_cpus, m->nr_cpus);
	assert_int_equal(t->nr_nodes, m->nr_nodes);
	assert_int_equal(t->node_reclaim_distance, m->reclaim);
	assert_int_equal(t->base_freq_khz, (uint64_t)m->base_mhz * 1000);
	assert_int_equal(t->max_freq_khz, (uint64_t)m->max_mhz * 1000);
	assert_int_equal(t->probe_smt_ns, m->probe_smt_ns);
	assert_int_equal(t->probe_cluster_ns, 0);
	assert_int_equal(t->probe_llc_ns, m->probe_llc_ns);
	assert_int_equal(t->smt_threads, 2);
	assert_int_equal(t->nr_llc_shared, m->nr_cpus / m->llc_size);
	for (unsigned a = 0; a < m->nr_nodes; a++)
		for (unsigned b = 0; b < m->nr_nodes; b++)
			assert_int_equal(ss_node_distance(t, a, b), a == b ? 10 : m->dist);
	nw = t->nr_words;

	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];
		unsigned sib = exp_sibling(m, cpu);

		assert_int_equal(c->nr_sd, m->nr_sd);
		for (unsigned k = 0; k < m->nr_sd; k++) {
			const struct ss_sched_domain *sd = &c->sd[k];

			assert_string_equal(sd->name, m->level[k]);
			assert_int_equal(sd->span_weight, m->weight[k]);
			assert_int_equal(sd->imb_numa_nr, m->imb_numa_nr[k]);
			/* every level keeps wake-affine: no SLIT value beyond node_reclaim_distance */
			assert_true(sd->flags & SD_WAKE_AFFINE);
		}
		assert_int_equal(c->sd[0].level, SS_SD_SMT);
		assert_true(c->sd[0].flags & SD_SHARE_CPUCAPACITY);
		assert_int_equal(c->sd[1].level, SS_SD_MC);
		assert_int_equal(c->sd_llc, 1);
		assert_int_equal(c->llc_size, m->llc_size);
		assert_int_equal(c->llc_id, exp_llc_id(m, cpu));
		assert_int_equal(c->node, (cpu % (m->nr_cpus / 2)) / m->cpus_per_node_half);
		assert_int_equal(ss_cpumask_weight(c->smt_mask, nw), 2);
		assert_true(ss_cpumask_test(c->smt_mask, cpu));
		assert_true(ss_cpumask_test(c->smt_mask, sib));
		assert_true(ss_cpus_share_cache(t, cpu, sib));
		assert_true(ss_cpumask_equal(c->llc_mask, c->sd[1].span, nw));
		assert_int_equal(c->sd_numa, m->numa);
		if (m->numa != NO_NUMA) {
			const struct ss_sched_domain *numa = &c->sd[m->numa];

			assert_int_equal(numa->level, SS_SD_NUMA);
			assert_true(numa->flags & SD_NUMA);
			assert_true(numa->flags & SD_WAKE_AFFINE);
			assert_true(numa->flags & SD_BALANCE_FORK);
			assert_true(numa->flags & SD_BALANCE_EXEC);
			assert_int_equal(numa->nr_groups, 2);
			assert_null(numa->parent);
		}
	}

	for (unsigned i = 0; i < m->nr_named; i++) {
		const struct named_cpu *n = &m->named[i];
		const struct ss_cpu_topo *c = &t->cpu[n->cpu];
		char smt[32];

		g_snprintf(smt, sizeof(smt), "%u,%u", MIN(n->cpu, n->sibling), MAX(n->cpu, n->sibling));
		assert_string_equal(L(t, c->smt_mask), smt);
		assert_string_equal(L(t, c->sd[0].span), smt);
		assert_int_equal(c->node, n->node);
		assert_int_equal(c->llc_id, n->llc_id);
		assert_string_equal(L(t, c->sd[c->sd_llc].span), n->llc_span);
		assert_string_equal(L(t, c->sd[c->nr_sd - 1].span), n->top_span);
	}
	ss_topology_free(t);
}

static void test_spr224(void **state)
{
	(void)state;
	check_machine(&spr224);
}

static void test_epyc9654(void **state)
{
	(void)state;
	check_machine(&epyc9654);
}

static void test_desktop(void **state)
{
	(void)state;
	check_machine(&desktop);
}

/* ------------------------------------------------------------------------ */
/* Machine-specific facts                                                   */

/* SPR, SNC off: one 112-CPU LLC per socket; the DIE level is the node and
 * collapses into MC, NODE too; the two sockets share no cache. */
static void test_spr224_sockets(void **state)
{
	struct ss_topology *t = load_file("topologies/spr224.yaml");
	(void)state;

	assert_true(ss_cpus_share_cache(t, 0, 55));
	assert_true(ss_cpus_share_cache(t, 0, 167));
	assert_false(ss_cpus_share_cache(t, 0, 56));
	assert_false(ss_cpus_share_cache(t, 55, 56));
	assert_false(ss_cpus_share_cache(t, 167, 168));
	assert_string_equal(L(t, t->cpu[0].node_mask), "0-55,112-167");
	assert_string_equal(L(t, t->cpu[223].node_mask), "56-111,168-223");
	assert_int_equal(t->cpu[0].sd[2].groups->weight, 112);
	ss_topology_free(t);
}

/* EPYC 9654, NPS1: the LLC is the CCX, so CPUs of one socket but different
 * CCXs do not share cache; the DIE level (the node) is where the CCXs meet. */
static void test_epyc9654_ccx(void **state)
{
	struct ss_topology *t = load_file("topologies/epyc9654.yaml");
	const struct ss_sched_domain *die;
	(void)state;

	/* n and its sibling; CPUs of one CCX */
	assert_true(ss_cpus_share_cache(t, 0, 192));
	assert_true(ss_cpus_share_cache(t, 8, 200));
	assert_true(ss_cpus_share_cache(t, 0, 7));
	assert_true(ss_cpus_share_cache(t, 7, 192));
	assert_true(ss_cpus_share_cache(t, 96, 295));
	/* different CCXs of one socket */
	assert_false(ss_cpus_share_cache(t, 0, 8));
	assert_false(ss_cpus_share_cache(t, 7, 8));
	assert_false(ss_cpus_share_cache(t, 199, 200));
	assert_false(ss_cpus_share_cache(t, 0, 95));
	assert_false(ss_cpus_share_cache(t, 192, 287));
	/* different sockets */
	assert_false(ss_cpus_share_cache(t, 95, 96));
	assert_false(ss_cpus_share_cache(t, 0, 288));

	/* 12 LLC indices per socket, dense */
	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++)
		assert_true(t->cpu[cpu].llc_index < 24);
	assert_int_equal(t->cpu[0].llc_index, t->cpu[192].llc_index);
	assert_int_not_equal(t->cpu[0].llc_index, t->cpu[8].llc_index);

	/* DIE = the node: 12 groups, one per CCX */
	die = &t->cpu[13].sd[2];
	assert_int_equal(die->level, SS_SD_PKG);
	assert_false(die->flags & SD_SHARE_PKG_RESOURCES);
	assert_string_equal(L(t, die->span), "0-95,192-287");
	assert_int_equal(die->nr_groups, 12);
	assert_string_equal(L(t, die->groups->span), "8-15,200-207");
	assert_string_equal(L(t, t->cpu[383].sd[2].span), "96-191,288-383");
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all_shipped_load),
		cmocka_unit_test(test_spr224),
		cmocka_unit_test(test_epyc9654),
		cmocka_unit_test(test_desktop),
		cmocka_unit_test(test_spr224_sockets),
		cmocka_unit_test(test_epyc9654_ccx),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

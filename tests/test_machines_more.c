/*
 * The four machines added after tests/test_machines.c: AMD EPYC 7713 (Milan)
 * in NPS1, NPS2 and NPS4, and Marvell ThunderX2 (28 cores, SMT4). For each:
 * counts, the levels and span weights every CPU gets at v6.6 (with
 * imb_numa_nr), SMT siblings, the LLC bookkeeping, SD_WAKE_AFFINE (and
 * fork/exec balancing) on every NUMA level, and a few named CPUs with their
 * spans written out. On the NPS2/NPS4 files x86 leaves DIE out (a package
 * holds several nodes) and NODE is the node.
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

#include "machine_helpers.h"

struct named_cpu {
	unsigned cpu, node, llc_id;
	const char *smt;               /* SMT siblings (domain-0 span) */
	const char *llc_span;          /* sd_llc span */
	const char *node_span;         /* the CPU's node */
	const char *numa_span;         /* sd_numa span (the first NUMA level) */
};

struct machine {
	const char *file, *name, *vendor;
	unsigned nr_cpus, nr_nodes, nr_packages, nr_llcs, smt_threads, reclaim;
	unsigned base_mhz, max_mhz, probe_smt_ns, probe_llc_ns;
	unsigned nr_sd;
	const char *level[MAX_LEVELS];
	unsigned weight[MAX_LEVELS];
	unsigned imb_numa_nr[MAX_LEVELS];
	int numa;                       /* index of the first NUMA level (sd_numa) */
	unsigned llc_size;
	struct named_cpu named[5];
	unsigned nr_named;
};

static const struct machine nps1 = {
	"topologies/epyc7713-nps1.yaml", "epyc7713-nps1", "amd", 256, 2, 2, 16, 2, 32,
	2000, 3675, 8, 25,
	4, { "SMT", "MC", "DIE", "NUMA" }, { 2, 16, 128, 256 }, { 0, 0, 8, 8 }, 3, 16,
	{
		{ 0, 0, 0, "0,128", "0-7,128-135", "0-63,128-191", "0-255" },
		{ 135, 0, 0, "7,135", "0-7,128-135", "0-63,128-191", "0-255" },
		{ 63, 0, 56, "63,191", "56-63,184-191", "0-63,128-191", "0-255" },
		{ 64, 1, 64, "64,192", "64-71,192-199", "64-127,192-255", "0-255" },
		{ 255, 1, 120, "127,255", "120-127,248-255", "64-127,192-255", "0-255" },
	},
	5,
};

static const struct machine nps2 = {
	"topologies/epyc7713-nps2.yaml", "epyc7713-nps2", "amd", 256, 4, 2, 16, 2, 32,
	2000, 3675, 8, 25,
	5, { "SMT", "MC", "NODE", "NUMA", "NUMA" }, { 2, 16, 64, 128, 256 }, { 0, 0, 4, 4, 8 }, 3, 16,
	{
		{ 0, 0, 0, "0,128", "0-7,128-135", "0-31,128-159", "0-63,128-191" },
		{ 40, 1, 40, "40,168", "40-47,168-175", "32-63,160-191", "0-63,128-191" },
		{ 191, 1, 56, "63,191", "56-63,184-191", "32-63,160-191", "0-63,128-191" },
		{ 96, 3, 96, "96,224", "96-103,224-231", "96-127,224-255", "64-127,192-255" },
		{ 200, 2, 72, "72,200", "72-79,200-207", "64-95,192-223", "64-127,192-255" },
	},
	5,
};

static const struct machine nps4 = {
	"topologies/epyc7713-nps4.yaml", "epyc7713-nps4", "amd", 256, 8, 2, 16, 2, 32,
	2000, 3675, 8, 25,
	5, { "SMT", "MC", "NODE", "NUMA", "NUMA" }, { 2, 16, 32, 128, 256 }, { 0, 0, 2, 2, 4 }, 3, 16,
	{
		{ 0, 0, 0, "0,128", "0-7,128-135", "0-15,128-143", "0-63,128-191" },
		{ 24, 1, 24, "24,152", "24-31,152-159", "16-31,144-159", "0-63,128-191" },
		{ 176, 3, 48, "48,176", "48-55,176-183", "48-63,176-191", "0-63,128-191" },
		{ 64, 4, 64, "64,192", "64-71,192-199", "64-79,192-207", "64-127,192-255" },
		{ 255, 7, 120, "127,255", "120-127,248-255", "112-127,240-255", "64-127,192-255" },
	},
	5,
};

static const struct machine tx2 = {
	"topologies/thunderx2.yaml", "thunderx2", "arm", 224, 2, 2, 2, 4, 30,
	2000, 2500, 0, 0,
	3, { "SMT", "MC", "NUMA" }, { 4, 112, 224 }, { 0, 0, 14 }, 2, 112,
	{
		{ 0, 0, 0, "0,28,56,84", "0-111", "0-111", "0-223" },
		{ 84, 0, 0, "0,28,56,84", "0-111", "0-111", "0-223" },
		{ 27, 0, 0, "27,55,83,111", "0-111", "0-111", "0-223" },
		{ 112, 1, 112, "112,140,168,196", "112-223", "112-223", "0-223" },
		{ 223, 1, 112, "139,167,195,223", "112-223", "112-223", "0-223" },
	},
	5,
};

static void check_machine(const struct machine *m)
{
	struct ss_topology *t = load_file(m->file);
	unsigned nw;

	assert_string_equal(t->name, m->name);
	assert_string_equal(t->vendor, m->vendor);
	assert_int_equal(t->nr_cpus, m->nr_cpus);
	assert_int_equal(t->nr_nodes, m->nr_nodes);
	assert_int_equal(t->nr_packages, m->nr_packages);
	assert_int_equal(t->nr_llcs, m->nr_llcs);
	assert_int_equal(t->nr_llc_shared, m->nr_llcs);
	assert_int_equal(t->smt_threads, m->smt_threads);
	assert_int_equal(t->node_reclaim_distance, m->reclaim);
	assert_int_equal(t->base_freq_khz, (uint64_t)m->base_mhz * 1000);
	assert_int_equal(t->max_freq_khz, (uint64_t)m->max_mhz * 1000);
	assert_int_equal(t->probe_smt_ns, m->probe_smt_ns);
	assert_int_equal(t->probe_cluster_ns, 0);
	assert_int_equal(t->probe_llc_ns, m->probe_llc_ns);
	assert_non_null(t->description);
	nw = t->nr_words;

	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		const struct ss_cpu_topo *c = &t->cpu[cpu];

		assert_int_equal(c->capacity, 1024);
		assert_int_equal(c->nr_sd, m->nr_sd);
		for (unsigned k = 0; k < m->nr_sd; k++) {
			const struct ss_sched_domain *sd = &c->sd[k];

			assert_string_equal(sd->name, m->level[k]);
			assert_int_equal(sd->span_weight, m->weight[k]);
			assert_int_equal(sd->imb_numa_nr, m->imb_numa_nr[k]);
			/* no SLIT value exceeds node_reclaim_distance */
			assert_true(sd->flags & SD_WAKE_AFFINE);
			if (k >= (unsigned)m->numa) {
				assert_int_equal(sd->level, SS_SD_NUMA);
				assert_true(sd->flags & SD_NUMA);
				assert_true(sd->flags & SD_BALANCE_FORK);
				assert_true(sd->flags & SD_BALANCE_EXEC);
			} else {
				assert_false(sd->flags & SD_NUMA);
			}
		}
		assert_int_equal(c->sd[0].level, SS_SD_SMT);
		assert_true(c->sd[0].flags & SD_SHARE_CPUCAPACITY);
		assert_int_equal(c->sd[1].level, SS_SD_MC);
		assert_int_equal(c->sd_llc, 1);
		assert_int_equal(c->llc_size, m->llc_size);
		assert_int_equal(c->sd_numa, m->numa);
		assert_int_equal(ss_cpumask_weight(c->smt_mask, nw), m->smt_threads);
		assert_true(ss_cpumask_test(c->smt_mask, cpu));
		assert_true(ss_cpumask_equal(c->llc_mask, c->sd[1].span, nw));
		assert_null(c->sd[m->nr_sd - 1].parent);
	}

	for (unsigned i = 0; i < m->nr_named; i++) {
		const struct named_cpu *n = &m->named[i];
		const struct ss_cpu_topo *c = &t->cpu[n->cpu];

		assert_string_equal(L(t, c->smt_mask), n->smt);
		assert_string_equal(L(t, c->sd[0].span), n->smt);
		assert_int_equal(c->node, n->node);
		assert_int_equal(c->llc_id, n->llc_id);
		assert_string_equal(L(t, c->sd[c->sd_llc].span), n->llc_span);
		assert_string_equal(L(t, c->node_mask), n->node_span);
		assert_string_equal(L(t, c->sd[c->sd_numa].span), n->numa_span);
		assert_string_equal(L(t, c->sd[c->nr_sd - 1].span), m->nr_cpus == 256 ? "0-255" : "0-223");
	}
	ss_topology_free(t);
}

static void test_epyc7713_nps1(void **state)
{
	(void)state;
	check_machine(&nps1);
}

static void test_epyc7713_nps2(void **state)
{
	(void)state;
	check_machine(&nps2);
}

static void test_epyc7713_nps4(void **state)
{
	(void)state;
	check_machine(&nps4);
}

static void test_thunderx2(void **state)
{
	(void)state;
	check_machine(&tx2);
}

/* The SLITs, and the NUMA distances sched_init_numa() keeps */
static void test_slits(void **state)
{
	static const struct {
		const struct machine *m;
		unsigned nr_levels, d[3];
	} s[] = {
		{ &nps1, 2, { 10, 32 } },
		{ &nps2, 3, { 10, 12, 32 } },
		{ &nps4, 3, { 10, 12, 32 } },
		{ &tx2, 2, { 10, 20 } },
	};
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(s); i++) {
		struct ss_topology *t = load_file(s[i].m->file);
		unsigned per_socket = t->nr_nodes / 2;

		assert_int_equal(t->nr_numa_levels, s[i].nr_levels);
		for (unsigned l = 0; l < s[i].nr_levels; l++)
			assert_int_equal(t->numa_distances[l], s[i].d[l]);
		for (unsigned a = 0; a < t->nr_nodes; a++)
			for (unsigned b = 0; b < t->nr_nodes; b++) {
				unsigned want = a == b ? 10 :
					a / per_socket == b / per_socket ? 12 : s[i].d[s[i].nr_levels - 1];

				assert_int_equal(ss_node_distance(t, a, b), want);
			}
		ss_topology_free(t);
	}
}

/* EPYC 7713: the LLC is one CCX in every NPS mode; x86 drops DIE once a
 * package holds several nodes and NODE (the node) takes its place. */
static void test_epyc7713_ccx_and_die(void **state)
{
	static const char *const files[] = {
		"topologies/epyc7713-nps1.yaml", "topologies/epyc7713-nps2.yaml",
		"topologies/epyc7713-nps4.yaml",
	};
	(void)state;

	for (unsigned i = 0; i < G_N_ELEMENTS(files); i++) {
		struct ss_topology *t = load_file(files[i]);
		const struct ss_sched_domain *above_llc = &t->cpu[13].sd[2];

		assert_true(ss_cpus_share_cache(t, 0, 128));
		assert_true(ss_cpus_share_cache(t, 0, 7));
		assert_true(ss_cpus_share_cache(t, 7, 128));
		assert_true(ss_cpus_share_cache(t, 64, 199));
		assert_false(ss_cpus_share_cache(t, 7, 8));
		assert_false(ss_cpus_share_cache(t, 135, 136));
		assert_false(ss_cpus_share_cache(t, 63, 64));
		assert_false(ss_cpus_share_cache(t, 0, 192));
		for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
			assert_true(t->cpu[cpu].llc_index < 16);
			assert_int_equal(t->cpu[cpu].llc_id, (cpu % 128) - (cpu % 8));
			for (unsigned k = 0; k < t->cpu[cpu].nr_sd; k++)
				if (i > 0)
					assert_int_not_equal(t->cpu[cpu].sd[k].level, SS_SD_PKG);
		}
		assert_false(above_llc->flags & SD_SHARE_PKG_RESOURCES);
		assert_false(above_llc->flags & SD_NUMA);
		assert_string_equal(L(t, above_llc->groups->span), "8-15,136-143");
		if (i == 0) {
			assert_int_equal(above_llc->level, SS_SD_PKG);
			assert_int_equal(above_llc->nr_groups, 8);
		} else {
			/* NODE is numa_level 0: kind SS_SD_NUMA, no SD_NUMA flag */
			assert_int_equal(above_llc->level, SS_SD_NUMA);
			assert_string_equal(above_llc->name, "NODE");
			assert_int_equal(above_llc->nr_groups, i == 1 ? 4 : 2);
		}
		ss_topology_free(t);
	}
}

/* ThunderX2: four threads per core, numbered 28 apart; one LLC per socket */
static void test_thunderx2_smt4(void **state)
{
	struct ss_topology *t = load_file("topologies/thunderx2.yaml");
	(void)state;

	for (unsigned cpu = 0; cpu < t->nr_cpus; cpu++) {
		unsigned base = cpu - cpu % 112, c = cpu % 28;

		for (unsigned th = 0; th < 4; th++)
			assert_true(ss_cpumask_test(t->cpu[cpu].smt_mask, base + c + 28 * th));
		assert_int_equal(t->cpu[cpu].node, cpu / 112);
		assert_int_equal(t->cpu[cpu].llc_id, base);
		assert_int_equal(t->cpu[cpu].sd[0].nr_groups, 4);
		assert_int_equal(t->cpu[cpu].sd[1].nr_groups, 28);
		assert_int_equal(t->cpu[cpu].sd[2].nr_groups, 2);
	}
	assert_true(ss_cpus_share_cache(t, 0, 111));
	assert_false(ss_cpus_share_cache(t, 111, 112));
	assert_false(ss_cpus_share_cache(t, 0, 168));
	assert_int_not_equal(t->cpu[0].llc_index, t->cpu[112].llc_index);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_epyc7713_nps1),
		cmocka_unit_test(test_epyc7713_nps2),
		cmocka_unit_test(test_epyc7713_nps4),
		cmocka_unit_test(test_thunderx2),
		cmocka_unit_test(test_slits),
		cmocka_unit_test(test_epyc7713_ccx_and_die),
		cmocka_unit_test(test_thunderx2_smt4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

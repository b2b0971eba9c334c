/*
 * Asymmetric CPU capacity (kernel v6.6): asym_cpu_capacity_classify() puts
 * SD_ASYM_CPUCAPACITY[_FULL] at the right level, sd_asym_cpucapacity is the
 * lowest domain with the _FULL flag, and select_idle_sibling() takes
 * select_idle_capacity() there, with asym_fits_cpu() on its shortcuts.
 * Capacities 1024 and 446 (an arm64 big.LITTLE pair); a little CPU fits
 * util < 446 × 1024 / 1280 = 356.8.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ss_sched.h"
#include "simsched/error.h"

/* big CPUs 0-3, little CPUs 4-7, one LLC */
static const char *const bl8 =
	"name: bl8\nvendor: arm\n"
	"llcs:\n"
	"  - clusters:\n"
	"      - {capacity: 1024, cores: \"0-3\"}\n"
	"      - {capacity: 446, cores: \"4-7\"}\n";

static struct ss_topology *load(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "asym.yaml", &err);

	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static void test_flags_one_llc(void **state)
{
	struct ss_topology *t = load(bl8);

	assert_true(t->asym_cpucap_active);
	for (unsigned c = 0; c < 8; c++) {
		const struct ss_cpu_topo *ct = &t->cpu[c];

		assert_int_equal(ct->capacity, c < 4 ? 1024 : 446);
		assert_int_equal(ct->nr_sd, 2);
		assert_string_equal(ct->sd[0].name, "CLS");
		assert_string_equal(ct->sd[1].name, "MC");
		/* CLS spans one capacity: no flag; MC spans both, and every capacity: FULL */
		assert_int_equal(ct->sd[0].flags & (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL), 0);
		assert_int_equal(ct->sd[1].flags & (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL),
				 SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL);
		/* sd_init() clears the child's SD_PREFER_SIBLING under an asymmetric parent */
		assert_false(ct->sd[0].flags & SD_PREFER_SIBLING);
		assert_int_equal(ct->sd_asym_cpucapacity, 1);
	}
	ss_topology_free(t);
}

/*
 * Three capacities: node 0 holds 1024 and 700, node 1 the 446 CPUs. MC (node
 * 0) sees two of three capacities: SD_ASYM_CPUCAPACITY only; the NUMA level
 * sees all three: _FULL, so sd_asym_cpucapacity is the NUMA level there.
 * Node 1 is symmetric below NUMA.
 */
static void test_flags_partial_and_numa(void **state)
{
	struct ss_topology *t = load("name: asym3\nvendor: arm\n"
				     "numa: {distance: [[10, 20], [20, 10]]}\n"
				     "nodes:\n"
				     "  - clusters:\n"
				     "      - {capacity: 1024, cores: \"0-3\"}\n"
				     "      - {capacity: 700, cores: \"4-5\"}\n"
				     "  - clusters:\n"
				     "      - {capacity: 446, cores: \"6-7\"}\n");

	assert_true(t->asym_cpucap_active);
	const struct ss_cpu_topo *c0 = &t->cpu[0], *c6 = &t->cpu[6];
	assert_int_equal(c0->nr_sd, 3);   /* CLS(4) MC(6) NUMA(8) */
	assert_int_equal(c0->sd[1].flags & (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL), SD_ASYM_CPUCAPACITY);
	assert_int_equal(c0->sd[2].flags & (SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL),
			 SD_ASYM_CPUCAPACITY | SD_ASYM_CPUCAPACITY_FULL);
	assert_int_equal(c0->sd_asym_cpucapacity, 2);
	assert_string_equal(c6->sd[c6->sd_asym_cpucapacity].name, "NUMA");
	assert_int_equal(c6->sd[0].flags & SD_ASYM_CPUCAPACITY, 0);
	ss_topology_free(t);
}

static void test_symmetric_machine(void **state)
{
	struct ss_topology *t = load("name: sym\nvendor: intel\ncores: \"0-7\"\n");

	assert_false(t->asym_cpucap_active);
	for (unsigned c = 0; c < 8; c++)
		assert_int_equal(t->cpu[c].sd_asym_cpucapacity, -1);
	ss_topology_free(t);
}

/* ---------------------------------------------------------------- select_idle_capacity */

struct rig {
	struct ss_sim sim;
	struct ss_rq rq[8];
	struct ss_task p, busy;
	uint64_t scratch[1], allowed[1], all[1];
};

static struct rig *rig_new(struct ss_topology *t)
{
	struct rig *r = g_new0(struct rig, 1);

	r->sim.topo = t;
	r->sim.nr_cpus = t->nr_cpus;
	r->sim.nr_words = t->nr_words;
	r->sim.rq = r->rq;
	r->sim.scratch_mask = r->scratch;
	/* every probe costs 1 ns: scan_cost counts probes */
	r->sim.params.probe_self_ns = r->sim.params.probe_smt_ns = r->sim.params.probe_cluster_ns = 1;
	r->sim.params.probe_llc_ns = r->sim.params.probe_package_ns = r->sim.params.probe_remote_ns = 1;
	for (unsigned c = 0; c < t->nr_cpus; c++) {
		r->rq[c].cpu = c;
		r->rq[c].capacity = t->cpu[c].capacity;
		ss_cpumask_set(r->all, c);
	}
	r->p.cpus_ptr = r->all;
	r->p.cpu = 0;
	r->p.recent_used_cpu = 0;
	return r;
}

static void set_busy(struct rig *r, const char *list)
{
	uint64_t m[1] = { 0 };
	unsigned bad;

	if (*list)
		assert_int_equal(ss_cpumask_parse_list(list, m, 8, &bad), 0);
	for (unsigned c = 0; c < 8; c++)
		r->rq[c].curr = ss_cpumask_test(m, c) ? &r->busy : NULL;
}

static int pick(struct rig *r, unsigned long util, int target, unsigned *probes)
{
	const struct ss_cpu_topo *ct = &r->sim.topo->cpu[target];

	r->p.avg.util_avg = util;
	r->sim.scan_cost = 0;
	int cpu = ss_select_idle_capacity(&r->sim, &r->p, &ct->sd[ct->sd_asym_cpucapacity], target);
	*probes = (unsigned)r->sim.scan_cost;
	return cpu;
}

static void test_select_idle_capacity(void **state)
{
	struct ss_topology *t = load(bl8);
	struct rig *r = rig_new(t);
	unsigned probes;

	/* util_fits_cpu(): the 20 % margin, uclamp at its defaults */
	assert_int_equal(ss_util_fits_cpu(&r->sim, 356, 0, 1024, 4), 1);
	assert_int_equal(ss_util_fits_cpu(&r->sim, 357, 0, 1024, 4), 0);
	assert_int_equal(ss_util_fits_cpu(&r->sim, 819, 0, 1024, 0), 1);
	assert_int_equal(ss_util_fits_cpu(&r->sim, 820, 0, 1024, 0), 0);
	/* with a uclamp_min the little CPU cannot give: util fits, performance does not */
	assert_int_equal(ss_util_fits_cpu(&r->sim, 100, 600, 1024, 4), -1);
	/* uclamp_max at or below a little CPU's capacity forces a fit */
	assert_int_equal(ss_util_fits_cpu(&r->sim, 800, 0, 400, 4), 1);

	/* all idle, small task: the scan starts at target, which fits */
	set_busy(r, "");
	assert_int_equal(pick(r, 100, 5, &probes), 5);
	assert_int_equal(probes, 1);
	/* all idle, task too big for a little CPU: wraps 4..7 to the first big CPU */
	assert_int_equal(pick(r, 500, 4, &probes), 0);
	assert_int_equal(probes, 5);
	/* big CPUs 0-1 busy: from little target 6, wraps 6, 7, 0, 1 to 2 */
	set_busy(r, "0-1");
	assert_int_equal(pick(r, 500, 6, &probes), 2);
	assert_int_equal(probes, 5);
	/* every big CPU busy: nothing fits; the idle CPU of largest capacity, the first at equal capacity */
	set_busy(r, "0-3");
	assert_int_equal(pick(r, 500, 5, &probes), 5);
	assert_int_equal(probes, 8);
	/* a task no CPU fits: the idle CPU with the largest capacity (maximise capacity) */
	set_busy(r, "1");
	assert_int_equal(pick(r, 1000, 5, &probes), 0);
	assert_int_equal(probes, 8);
	/* busy little CPUs are skipped, a fitting small task lands on the first idle one */
	set_busy(r, "4-6");
	assert_int_equal(pick(r, 100, 4, &probes), 7);
	/* nothing idle */
	set_busy(r, "0-7");
	assert_int_equal(pick(r, 100, 4, &probes), -1);
	assert_int_equal(probes, 8);
	/* affinity to the little CPUs: the scan never looks at the big ones */
	set_busy(r, "");
	r->allowed[0] = 0xf0;
	r->p.cpus_ptr = r->allowed;
	assert_int_equal(pick(r, 500, 6, &probes), 6);
	assert_int_equal(probes, 4);
	g_free(r);
	ss_topology_free(t);
}

/* select_idle_sibling(): the target/prev/recent shortcuts need the task to fit */
static void test_select_idle_sibling_asym(void **state)
{
	struct ss_topology *t = load(bl8);
	struct rig *r = rig_new(t);

	set_busy(r, "");
	/* small task, idle little target: the target shortcut */
	r->p.avg.util_avg = 100;
	r->p.cpu = 4;
	r->p.recent_used_cpu = 4;
	assert_int_equal(ss_select_idle_sibling(&r->sim, &r->p, 4, 4), 4);
	/* big task: idle little target and prev do not fit; select_idle_capacity finds big CPU 0 */
	r->p.avg.util_avg = 600;
	r->p.recent_used_cpu = 6;
	assert_int_equal(ss_select_idle_sibling(&r->sim, &r->p, 5, 4), 0);
	assert_int_equal(r->p.recent_used_cpu, 5);
	/* big task, target busy, prev a big idle CPU: the prev shortcut */
	set_busy(r, "4");
	assert_int_equal(ss_select_idle_sibling(&r->sim, &r->p, 2, 4), 2);
	/* recent_used_cpu big and idle, target and prev little: the recent shortcut */
	r->p.recent_used_cpu = 3;
	assert_int_equal(ss_select_idle_sibling(&r->sim, &r->p, 5, 4), 3);
	/* every big CPU busy, big task: best idle little from target's scan (target 4 busy, so 5) */
	set_busy(r, "0-4");
	r->p.recent_used_cpu = 6;
	assert_int_equal(ss_select_idle_sibling(&r->sim, &r->p, 6, 4), 5);
	/* nothing idle: target */
	set_busy(r, "0-7");
	assert_int_equal(ss_select_idle_sibling(&r->sim, &r->p, 6, 4), 4);
	g_free(r);
	ss_topology_free(t);
}

/* A run on the big.LITTLE machine goes through the asymmetric path and stays deterministic. */
static void test_run(void **state)
{
	struct ss_topology *t = load(bl8);
	GError *err = NULL;
	char *wpath = g_build_filename(SS_SOURCE_DIR, "workloads", "netperf-tcp-rr.yaml", NULL);
	struct ss_workload *w = ss_workload_load(wpath, &err);
	char *json[2];

	assert_non_null(w);
	for (int k = 0; k < 2; k++) {
		struct ss_run_config c = { 0 };

		c.topo = t;
		c.wl = w;
		ss_params_defaults(&c.params, t);
		c.load_pct_x100 = 10000;
		c.seed = 3;
		c.duration_ns = 50000000;
		c.warmup_ns = 10000000;
		struct ss_results *res = ss_simulate(&c, &err);
		if (!res)
			fail_msg("%s", err->message);
		assert_true(res->sic_calls > 0);   /* select_idle_capacity ran and was counted */
		json[k] = ss_results_to_json(res);
		ss_results_free(res);
	}
	assert_string_equal(json[0], json[1]);
	g_free(json[0]);
	g_free(json[1]);
	ss_workload_free(w);
	g_free(wpath);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flags_one_llc),
		cmocka_unit_test(test_flags_partial_and_numa),
		cmocka_unit_test(test_symmetric_machine),
		cmocka_unit_test(test_select_idle_capacity),
		cmocka_unit_test(test_select_idle_sibling_asym),
		cmocka_unit_test(test_run),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Offline CPUs (docs/topologies.md, "Odd machines"): a CPU that is not
 * online keeps its number (v6.6 keeps nr_cpu_ids) but is out of
 * cpu_active_mask, of every sibling/cluster/LLC/node mask, of every
 * sched-domain span and group, and nothing runs there. The machine: two
 * nodes of four SMT-2 cores (siblings n, n+8), CPU 5 (a middle CPU; its
 * sibling 13 stays alone) and CPU 10 (sibling of 2) offline.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"

static const char topo_yaml[] =
	"name: off16\nvendor: intel\n"
	"offline: \"5,10\"\n"
	"numa: {distance: [[10, 21], [21, 10]]}\n"
	"packages:\n"
	"  - cores: [[0, 8], [1, 9], [2, 10], [3, 11]]\n"
	"  - cores: [[4, 12], [5, 13], [6, 14], [7, 15]]\n";

/* The same machine with the offline CPUs left out of the hierarchy (as the importers write it). */
static const char topo_absent_yaml[] =
	"name: off16\nvendor: intel\n"
	"offline: [5, 10]\n"
	"numa: {distance: [[10, 21], [21, 10]]}\n"
	"packages:\n"
	"  - cores: [[0, 8], [1, 9], [2], [3, 11]]\n"
	"  - cores: [[4, 12], [13], [6, 14], [7, 15]]\n";

static struct ss_topology *load(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "off16.yaml", &err);

	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static const char *L(const struct ss_topology *t, const uint64_t *m)
{
	static char buf[4][256];
	static unsigned k;

	k = (k + 1) % 4;
	return ss_cpumask_format_list(m, t->nr_cpus, buf[k], sizeof buf[k]);
}

static const char *stack(const struct ss_topology *t, unsigned cpu)
{
	static char buf[256];
	GString *s = g_string_new(NULL);

	for (unsigned l = 0; l < t->cpu[cpu].nr_sd; l++)
		g_string_append_printf(s, "%s%s(%s)", l ? " " : "", t->cpu[cpu].sd[l].name, L(t, t->cpu[cpu].sd[l].span));
	g_strlcpy(buf, s->str, sizeof buf);
	g_string_free(s, TRUE);
	return buf;
}

static const char *groups(const struct ss_topology *t, unsigned cpu, unsigned l)
{
	static char buf[256];
	const struct ss_sched_domain *sd = &t->cpu[cpu].sd[l];
	const struct ss_sched_group *g = sd->groups;
	GString *s = g_string_new(NULL);

	for (unsigned k = 0; k < sd->nr_groups; k++, g = g->next)
		g_string_append_printf(s, "%s{%s}", k ? " " : "", L(t, g->span));
	g_strlcpy(buf, s->str, sizeof buf);
	g_string_free(s, TRUE);
	return buf;
}

static void test_domains(void **state)
{
	(void)state;
	struct ss_topology *t = load(topo_yaml);

	assert_int_equal(t->nr_cpus, 16);          /* nr_cpu_ids: the numbers are kept */
	assert_int_equal(t->nr_active, 14);
	assert_string_equal(L(t, t->active_mask), "0-4,6-9,11-15");
	assert_int_equal(t->nr_cores, 8);
	assert_int_equal(t->nr_llc_shared, 2);
	/* exact spans per level */
	assert_string_equal(stack(t, 0), "SMT(0,8) MC(0-3,8-9,11) NUMA(0-4,6-9,11-15)");
	assert_string_equal(stack(t, 2), "MC(0-3,8-9,11) NUMA(0-4,6-9,11-15)");   /* sibling 10 offline */
	assert_string_equal(stack(t, 13), "MC(4,6-7,12-15) NUMA(0-4,6-9,11-15)");  /* sibling 5 offline */
	assert_string_equal(stack(t, 15), "SMT(7,15) MC(4,6-7,12-15) NUMA(0-4,6-9,11-15)");
	assert_string_equal(groups(t, 0, 1), "{0,8} {1,9} {2} {3,11}");
	assert_string_equal(groups(t, 0, 2), "{0-3,8-9,11} {4,6-7,12-15}");
	assert_int_equal(t->cpu[0].llc_size, 7);
	assert_int_equal(t->cpu[0].sd[2].span_weight, 14);
	assert_int_equal(t->cpu[0].sd[2].groups->capacity, 7 * 1024);
	assert_string_equal(L(t, t->cpu[13].smt_mask), "13");
	assert_string_equal(L(t, t->cpu[4].node_mask), "4,6-7,12-15");
	/* the offline CPUs: no domain, empty masks, in no span, group or mask of another CPU */
	for (unsigned off = 5; off <= 10; off += 5) {
		const struct ss_cpu_topo *o = &t->cpu[off];

		assert_true(o->offline);
		assert_int_equal(o->nr_sd, 0);
		assert_int_equal(o->sd_llc, -1);
		assert_int_equal(o->sd_numa, -1);
		assert_true(ss_cpumask_empty(o->smt_mask, t->nr_words));
		assert_true(ss_cpumask_empty(o->llc_mask, t->nr_words));
		assert_true(ss_cpumask_empty(o->node_mask, t->nr_words));
		assert_false(ss_cpus_share_cache(t, off, off == 5 ? 4 : 2));
		for (unsigned c = 0; c < t->nr_cpus; c++) {
			const struct ss_cpu_topo *ct = &t->cpu[c];

			assert_false(ss_cpumask_test(ct->smt_mask, off));
			assert_false(ss_cpumask_test(ct->cluster_mask, off));
			assert_false(ss_cpumask_test(ct->llc_mask, off));
			assert_false(ss_cpumask_test(ct->node_mask, off));
			for (unsigned l = 0; l < ct->nr_sd; l++) {
				const struct ss_sched_group *g = ct->sd[l].groups;

				assert_false(ss_cpumask_test(ct->sd[l].span, off));
				for (unsigned k = 0; k < ct->sd[l].nr_groups; k++, g = g->next) {
					assert_false(ss_cpumask_test(g->span, off));
					assert_false(ss_cpumask_test(g->balance_mask, off));
				}
			}
		}
	}
	/* offline CPUs listed in the hierarchy or left out of it: the same machine */
	struct ss_topology *a = load(topo_absent_yaml);
	GError *err = NULL;
	char *x = ss_topology_describe(t, "json", &err), *y = ss_topology_describe(a, "json", &err);
	assert_string_equal(x, y);
	g_free(x);
	g_free(y);
	/* simsched topo shows them */
	x = ss_topology_describe(t, "text", &err);
	assert_non_null(strstr(x, "offline CPUs: 5,10 (14 online"));
	assert_non_null(strstr(x, "\ncpu5 offline\n"));
	assert_non_null(strstr(x, "\nCPU10 offline\n"));
	assert_non_null(strstr(x, "levels of CPUs 0-1,3-4,6-9,11-12,14-15: SMT(2) -> MC(7) -> NUMA(14)\n"));
	assert_non_null(strstr(x, "levels of CPUs 2,13: MC(7) -> NUMA(14)\n"));
	g_free(x);
	ss_topology_free(a);
	ss_topology_free(t);
}

static void expect_topo_error(const char *yaml, const char *where, const char *what)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "bad.yaml", &err);

	assert_null(t);
	assert_non_null(err);
	if (!g_str_has_prefix(err->message, where) || !strstr(err->message, what))
		fail_msg("expected \"%s ... %s\", got: %s", where, what, err->message);
	g_error_free(err);
}

static void test_topology_errors(void **state)
{
	(void)state;
	expect_topo_error("name: x\nvendor: arm\noffline: [2, 3, 2]\ncores: \"0-1\"\n", "bad.yaml:3:17:",
			  "CPU 2 is listed twice in 'offline'");
	expect_topo_error("name: x\nvendor: arm\noffline: \"3\"\ncores: \"0-1\"\n", "bad.yaml:3:10:",
			  "'offline' names CPU 3, beyond the machine's CPUs 0..1 (expected offline CPUs above the highest listed one to follow it without gaps: CPU 2 is neither listed nor offline)");
	expect_topo_error("name: x\nvendor: arm\noffline: \"0-1\"\ncores: \"0-1\"\n", "bad.yaml:3:1:",
			  "every CPU is offline");
	expect_topo_error("name: x\nvendor: arm\noffline: \"2-3\"\nnodes: [{cores: \"0-1\"}, {cores: \"2-3\"}]\n",
			  "bad.yaml:3:1:", "node 1 (in file order) has no online CPU");
	expect_topo_error("name: x\nvendor: arm\noffline: \"1-x\"\ncores: \"0-1\"\n", "bad.yaml:3:13:",
			  "offline has a bad cpulist");
	expect_topo_error("name: x\nvendor: arm\noffline: {a: 1}\ncores: \"0-1\"\n", "bad.yaml:3:10:", "offline");
	/* without 'offline', a gap says how to mark offline CPUs */
	expect_topo_error("name: x\nvendor: arm\ncores: \"0,2\"\n", "bad.yaml:3:1:", "a CPU that is not online goes in 'offline'");
}

static struct ss_workload *wl(const char *yaml)
{
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(yaml, strlen(yaml), "w.yaml", &err);

	if (!w)
		fail_msg("%s", err->message);
	return w;
}

static struct ss_results *run(struct ss_topology *t, struct ss_workload *w, const char *policy, unsigned load_pct,
			      GError **err)
{
	struct ss_run_config c = { 0 };

	c.topo = t;
	c.wl = w;
	c.policy = policy;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = load_pct * 100;
	c.seed = 3;
	c.warmup_ns = 5000000;   /* netperf's start (forks, exec) is over by then */
	c.duration_ns = 20000000;
	return ss_simulate(&c, err);
}

/* Nothing ever runs on, is woken onto, or is probed on an offline CPU; figures count online CPUs. */
static void test_runs(void **state)
{
	(void)state;
	struct ss_topology *t = load(topo_yaml);
	GError *err = NULL;
	char *path = g_build_filename(SS_SOURCE_DIR, "workloads", "netperf-tcp-rr.yaml", NULL);
	struct ss_workload *netperf = ss_workload_load(path, &err);
	static const char *const policies[] = { "sis_util", "sis_prop", "full_scan", "burst_avg_depth", "prev_cpu" };
	static const unsigned loads[] = { 50, 100, 200 };

	assert_non_null(netperf);
	for (unsigned p = 0; p < G_N_ELEMENTS(policies); p++) {
		for (unsigned l = 0; l < G_N_ELEMENTS(loads); l++) {
			struct ss_results *r = run(t, netperf, policies[p], loads[l], &err);
			uint64_t probed = 0, busy = 0;

			if (!r)
				fail_msg("%s: %s", policies[p], err->message);
			/* --load N% counts online CPUs */
			assert_int_equal(r->nr_instances, 14 * loads[l] / 100);
			assert_int_equal(r->nr_cpus, 16);
			assert_int_equal(r->nr_online_cpus, 14);
			assert_int_equal(r->nr_allowed_cpus, 14);
			assert_string_equal(r->offline_cpus, "5,10");
			assert_true(r->wakeups > 0);
			for (unsigned c = 0; c < 16; c++) {
				const struct ss_cpu_stats *cs = &r->cpu[c];

				probed += cs->probed;
				busy += cs->busy_ns;
				if (c != 5 && c != 10)
					continue;
				assert_int_equal(cs->busy_ns, 0);
				assert_int_equal(cs->nr_switches, 0);
				assert_int_equal(cs->wakeups, 0);
				assert_int_equal(cs->probed, 0);
				assert_int_equal(cs->nr_running_ns, 0);
			}
			if (strcmp(policies[p], "prev_cpu"))
				assert_true(probed > 0);
			/* busy % over the 14 online CPUs */
			assert_true(fabs(ss_results_busy_pct(r) - 100.0 * (double)busy / (14.0 * 20e6)) < 1e-9);
			/* (prev_cpu places no fork either: its tasks start on the harness's CPU and only the balancer spreads them) */
			if (loads[l] == 200 && strcmp(policies[p], "prev_cpu"))
				assert_true(ss_results_busy_pct(r) > 95.0);
			/* the JSON skips offline CPUs in per_cpu[] and names them in run */
			char *json = ss_results_to_json(r);
			assert_non_null(strstr(json, "\"offline_cpus\":\t\"5,10\""));
			assert_non_null(strstr(json, "\"cpu\":\t4,"));
			assert_null(strstr(json, "\"cpu\":\t5,"));
			assert_null(strstr(json, "\"cpu\":\t10,"));
			g_free(json);
			ss_results_free(r);
		}
	}
	ss_workload_free(netperf);
	g_free(path);

	/* the fork path (spawn: find_idlest_cpu over SD_BALANCE_FORK domains) never picks them either */
	struct ss_workload *forker = wl("name: forker\ninstance: group\ninstances_per_cpu: 0.25\n"
					"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
					"tasks:\n"
					"  - name: parent\n"
					"    program: [loop: {forever: true, do: [run: 20us, spawn: {task: child, count: 4}, "
					"sleep: 1ms]}]\n"
					"  - name: child\n    spawned: true\n    count: 8\n"
					"    program: [run: {uniform: [50us, 300us]}]\n");
	struct ss_results *r = run(t, forker, "sis_util", 400, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_true(r->spawns > 0);
	assert_int_equal(r->cpu[5].busy_ns + r->cpu[10].busy_ns, 0);
	assert_int_equal(r->cpu[5].wakeups + r->cpu[10].wakeups + r->cpu[5].probed + r->cpu[10].probed, 0);
	ss_results_free(r);
	ss_workload_free(forker);
	ss_topology_free(t);
}

/* Offline CPUs never enter the idle loop: no nohz.idle_cpus_mask, no idle state. */
static void test_idle_state(void **state)
{
	(void)state;
	struct ss_topology *t = load(topo_yaml);
	struct ss_workload *w = wl("name: one\ninstance: task\ninstances_per_cpu: 0.001\n"
				   "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
				   "tasks:\n  - name: t\n    start_cpu: 0\n    program: [run: 1ms]\n");
	struct ss_run_config c = { 0 };
	GError *err = NULL;

	c.topo = t;
	c.wl = w;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 10000;
	c.duration_ns = 1000000;
	struct ss_sim *sim = ss_sim_create(&c, &err);
	if (!sim)
		fail_msg("%s", err->message);
	ss_sim_start(sim);
	assert_false(ss_cpumask_test(sim->nohz_idle_cpus_mask, 5));
	assert_false(ss_cpumask_test(sim->nohz_idle_cpus_mask, 10));
	assert_true(ss_cpumask_test(sim->nohz_idle_cpus_mask, 4));
	assert_int_equal(sim->rq[5].idle_state, -1);
	/* every online CPU starts in it (CPU 0, running the task, leaves at its first tick) */
	assert_int_equal(sim->nohz_nr_cpus, 14);
	assert_false(ss_cpumask_test(sim->allowed_mask, 5));
	ss_sim_destroy(sim);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * An affinity is intersected with the online CPUs (v6.6 __sched_setaffinity():
 * request ∩ cpuset_cpus_allowed()); none left (-EINVAL in
 * __set_cpus_allowed_ptr_locked()), or an offline start CPU, is an error.
 */
static void test_affinity(void **state)
{
	(void)state;
	struct ss_topology *t = load(topo_yaml);
	GError *err = NULL;
	static const char head[] = "name: pin\ninstance: task\ninstances_per_cpu: 0.1\n"
				   "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
				   "tasks:\n  - name: t\n";
	char yaml[512];

	/* "4-5": only CPU 4 is left */
	g_snprintf(yaml, sizeof yaml, "%s    cpus: \"4-5\"\n    program: [loop: {forever: true, do: [run: 50us, sleep: 20us]}]\n",
		   head);
	struct ss_workload *w = wl(yaml);
	struct ss_results *r = run(t, w, "sis_util", 100, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_true(r->cpu[4].busy_ns > 0);
	for (unsigned c = 0; c < 16; c++)
		if (c != 4)
			assert_int_equal(r->cpu[c].busy_ns, 0);
	ss_results_free(r);
	ss_workload_free(w);

	/* "5,10": no online CPU left */
	g_snprintf(yaml, sizeof yaml, "%s    cpus: \"5,10\"\n    program: [run: 1us]\n", head);
	w = wl(yaml);
	assert_null(run(t, w, "sis_util", 100, &err));
	assert_non_null(err);
	if (!g_str_has_prefix(err->message, "w.yaml:7:11: cpus '5,10' of role 't' has no CPU") ||
	    !strstr(err->message, "0-4,6-9,11-15, the online ones"))
		fail_msg("%s", err->message);
	g_clear_error(&err);
	ss_workload_free(w);

	/*
	 * "start_cpu: instance" ranks the online CPUs: the 14 instances at 100 %
	 * start on CPUs 0-4,6-9,11-15, one each (instance 5 on CPU 6, not on
	 * the offline CPU 5), and each runs its 5 ms burst there.
	 */
	g_snprintf(yaml, sizeof yaml, "name: pin\ninstance: task\ninstances_per_cpu: 1\n"
		   "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		   "tasks:\n  - name: t\n    start_cpu: instance\n    program: [run: 5ms]\n");
	w = wl(yaml);
	{
		struct ss_run_config c = { 0 };

		c.topo = t;
		c.wl = w;
		c.policy = "sis_util";
		ss_params_defaults(&c.params, t);
		c.load_pct_x100 = 10000;
		c.seed = 3;
		c.duration_ns = 4000000;
		r = ss_simulate(&c, &err);
	}
	if (!r)
		fail_msg("%s", err->message);
	for (unsigned c = 0; c < 16; c++) {
		if (c == 5 || c == 10)
			assert_int_equal(r->cpu[c].busy_ns, 0);
		else
			assert_int_equal(r->cpu[c].busy_ns, 4000000);
	}
	ss_results_free(r);
	ss_workload_free(w);

	/* start_cpu 10 is offline */
	g_snprintf(yaml, sizeof yaml, "%s    start_cpu: 10\n    program: [run: 1us]\n", head);
	w = wl(yaml);
	assert_null(run(t, w, "sis_util", 100, &err));
	assert_non_null(err);
	if (!g_str_has_prefix(err->message, "w.yaml:7:16: start_cpu 10 of task") || !strstr(err->message, "is offline"))
		fail_msg("%s", err->message);
	g_clear_error(&err);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_domains),
		cmocka_unit_test(test_topology_errors),
		cmocka_unit_test(test_runs),
		cmocka_unit_test(test_idle_state),
		cmocka_unit_test(test_affinity),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

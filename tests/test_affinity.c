/*
 * Property: whatever the policy, machine, allowed CPUs and seed, a wakeup is
 * placed on a CPU the task may run on. Random small machines (nodes, LLCs,
 * clusters, cores, SMT), random --nodes sets, loads and seeds, every policy
 * of ss_policies(). The check is try_to_wake_up()'s own: a select_task_rq()
 * answer outside p->cpus_ptr is counted in wakeups_fallback (where
 * select_fallback_rq() would step in), and no CPU outside the allowed set
 * may receive a wakeup. A plugin policy that ignores affinity shows that the
 * check catches it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"

static struct ss_workload *netperf;

static int setup(void **state)
{
	GError *err = NULL;
	netperf = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	return !netperf;
}

static int teardown(void **state)
{
	ss_workload_free(netperf);
	return 0;
}

struct machine {
	struct ss_topology *t;
	unsigned nr_nodes;
	char desc[128];
};

/* A random machine: 1-3 nodes × 1-2 LLCs × 1-2 clusters × 1-3 cores × 1-2 threads, consecutive ids. */
static struct machine random_machine(GRand *rng)
{
	struct machine m = { 0 };
	unsigned nodes = (unsigned)g_rand_int_range(rng, 1, 4), llcs = (unsigned)g_rand_int_range(rng, 1, 3);
	unsigned clusters = (unsigned)g_rand_int_range(rng, 1, 3), cores = (unsigned)g_rand_int_range(rng, 1, 4);
	unsigned smt = (unsigned)g_rand_int_range(rng, 1, 3), cpu = 0;
	GString *y = g_string_new("name: random\nvendor: arm\nnuma:\n  distance:\n");
	GError *err = NULL;

	for (unsigned i = 0; i < nodes; i++) {
		g_string_append(y, "    - [");
		for (unsigned j = 0; j < nodes; j++)
			g_string_append_printf(y, "%s%u", j ? ", " : "", i == j ? 10 : 20 + 2 * (i + j));
		g_string_append(y, "]\n");
	}
	g_string_append(y, "packages:\n  - nodes:\n");
	for (unsigned n = 0; n < nodes; n++) {
		g_string_append(y, "      - llcs:\n");
		for (unsigned l = 0; l < llcs; l++) {
			g_string_append(y, "          - clusters:\n");
			for (unsigned c = 0; c < clusters; c++) {
				g_string_append(y, "              - cores: [");
				for (unsigned k = 0; k < cores; k++) {
					g_string_append_printf(y, "%s[", k ? ", " : "");
					for (unsigned th = 0; th < smt; th++)
						g_string_append_printf(y, "%s%u", th ? ", " : "", cpu++);
					g_string_append(y, "]");
				}
				g_string_append(y, "]\n");
			}
		}
	}
	m.t = ss_topology_load_string(y->str, y->len, "random.yaml", &err);
	if (!m.t)
		fail_msg("%s\n%s", err->message, y->str);
	m.nr_nodes = nodes;
	snprintf(m.desc, sizeof m.desc, "%u nodes x %u LLCs x %u clusters x %u cores x %u threads", nodes, llcs, clusters,
		 cores, smt);
	g_string_free(y, TRUE);
	return m;
}

/* a random non-empty node list like "0,2" */
static char *random_nodes(GRand *rng, unsigned nr_nodes)
{
	unsigned set = (unsigned)g_rand_int_range(rng, 1, (gint32)(1u << nr_nodes));
	GString *s = g_string_new(NULL);
	for (unsigned n = 0; n < nr_nodes; n++)
		if (set & (1u << n))
			g_string_append_printf(s, "%s%u", s->len ? "," : "", n);
	return g_string_free(s, FALSE);
}

static struct ss_results *run_one(const struct machine *m, const char *policy, const char *nodes, unsigned load_pct,
				  uint64_t seed)
{
	struct ss_run_config c = { 0 };
	GError *err = NULL;
	c.topo = m->t;
	c.wl = netperf;
	c.policy = policy;
	ss_params_defaults(&c.params, m->t);
	c.load_pct_x100 = load_pct * 100;
	c.seed = seed;
	c.nodes = nodes;
	c.warmup_ns = 0;
	c.duration_ns = 8000000;
	struct ss_results *r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s on %s, nodes %s: %s", policy, m->desc, nodes, err->message);
	return r;
}

/* wakeups on CPUs outside the nodes' CPUs */
static uint64_t wakeups_outside(const struct ss_topology *t, const struct ss_results *r, const char *nodes)
{
	uint64_t nm[1] = { 0 }, n = 0;
	unsigned bad;
	assert_true(ss_cpumask_parse_list(nodes, nm, 64, &bad) >= 0);
	for (unsigned c = 0; c < t->nr_cpus; c++)
		if (!ss_cpumask_test(nm, t->cpu[c].node))
			n += r->cpu[c].wakeups;
	return n;
}

static void test_affinity_property(void **state)
{
	GRand *rng = g_rand_new_with_seed(20231101);
	unsigned runs = 0;
	uint64_t wakeups = 0;
	for (unsigned trial = 0; trial < 10; trial++) {
		struct machine m = random_machine(rng);
		char *nodes = random_nodes(rng, m.nr_nodes);
		unsigned load = (unsigned)g_rand_int_range(rng, 25, 201);
		uint64_t seed = g_rand_int(rng);
		for (const struct ss_policy *const *pp = ss_policies(); *pp; pp++) {
			struct ss_results *r = run_one(&m, (*pp)->name, nodes, load, seed);
			if (r->wakeups_fallback || wakeups_outside(m.t, r, nodes))
				fail_msg("%s placed a wakeup outside the allowed CPUs on %s, --nodes %s, load %u%%, seed %llu "
					 "(%llu fallbacks)", (*pp)->name, m.desc, nodes, load, (unsigned long long)seed,
					 (unsigned long long)r->wakeups_fallback);
			if (r->nr_allowed_cpus > 1 && !r->wakeups)
				fail_msg("%s on %s: no wakeups: the property was not exercised", (*pp)->name, m.desc);
			runs++;
			wakeups += r->wakeups;
			ss_results_free(r);
		}
		g_free(nodes);
		ss_topology_free(m.t);
	}
	assert_true(runs >= 60);
	printf("# %u runs, %llu wakeups checked\n", runs, (unsigned long long)wakeups);
	g_rand_free(rng);
}

/* the check fails for a policy that ignores p->cpus_ptr */
static void test_affinity_check_catches_stray_policy(void **state)
{
	GError *err = NULL;
	const char *name = NULL;
	static const char two_nodes[] =
		"name: two\nvendor: arm\nnuma: {distance: [[10, 20], [20, 10]]}\n"
		"packages:\n  - nodes:\n      - cores: \"0-3\"\n      - cores: \"4-7\"\n";
	struct machine m = { 0 };
	assert_true(ss_policy_plugin_load(SS_PLUGIN_DIR "/plugin_stray.so", &name, &err));
	assert_string_equal(name, "test_stray");
	m.t = ss_topology_load_string(two_nodes, sizeof two_nodes - 1, "two.yaml", &err);
	assert_non_null(m.t);
	m.nr_nodes = 2;
	/* node 0 only: the stray answer, CPU 7, is not allowed */
	struct ss_results *r = run_one(&m, "test_stray", "0", 100, 1);
	assert_true(r->wakeups > 0);
	assert_int_equal(r->wakeups_fallback, r->wakeups);   /* every answer was refused */
	assert_int_equal(wakeups_outside(m.t, r, "0"), 0);   /* and fell back inside */
	ss_results_free(r);
	ss_topology_free(m.t);
}

/*
 * A policy answering something that is not a CPU the task may use — one
 * past the last CPU id, INT_MAX, -5, an offline CPU, a CPU outside --nodes,
 * INT_MIN — never crashes or reads out of bounds (also under ASan): each
 * answer is replaced as v6.6 select_task_rq() does, by select_fallback_rq():
 * the first allowed CPU of task_cpu(p)'s node, else the first allowed CPU;
 * wakeups count in wakeups_fallback, spawned tasks' placements in
 * fork_fallback. A domain search answering >= nr_cpus is "none found".
 * The machine: two nodes of four SMT-2 cores, CPUs 5 and 10 offline (node 0
 * = 0-3,8-9,11; node 1 = 4,6-7,12-15).
 */
static void test_invalid_answers_fall_back(void **state)
{
	static const char off16[] =
		"name: off16\nvendor: intel\noffline: \"5,10\"\nnuma: {distance: [[10, 21], [21, 10]]}\n"
		"packages:\n  - cores: [[0, 8], [1, 9], [2, 10], [3, 11]]\n  - cores: [[4, 12], [5, 13], [6, 14], [7, 15]]\n";
	static const char forks[] =
		"name: forks\ninstance: tree\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - name: parent\n"
		"    program: [loop: {forever: true, do: [sleep: 500us, spawn: {task: child, count: 2}]}]\n"
		"  - name: child\n    count: 2\n    spawned: true\n"
		"    program: [transaction: begin, run: 10us, transaction: end, exit]\n";
	GError *err = NULL;
	const char *name = NULL;
	struct ss_topology *t = ss_topology_load_string(off16, sizeof off16 - 1, "off16.yaml", &err);
	struct ss_workload *fw = ss_workload_load_string(forks, sizeof forks - 1, "forks.yaml", &err);
	if (!t || !fw)
		fail_msg("%s", err->message);
	assert_true(ss_policy_plugin_load(SS_PLUGIN_DIR "/plugin_bad_cpu.so", &name, &err));
	assert_string_equal(name, "test_bad_cpu");

	for (unsigned answer = 0; answer <= 6; answer++) {
		for (unsigned wl = 0; wl < 2; wl++) {
			for (unsigned all = 0; all < 2; all++) {
				struct ss_run_config c = { 0 };
				char set[32];
				c.topo = t;
				c.wl = wl ? fw : netperf;
				c.policy = "test_bad_cpu";
				ss_params_defaults(&c.params, t);
				snprintf(set, sizeof set, "policy.answer=%u", answer);
				assert_true(ss_params_set(&c.params, "test_bad_cpu", set, &err));
				c.load_pct_x100 = 10000;
				c.seed = 7;
				c.nodes = all ? NULL : "0";
				c.warmup_ns = 3000000;   /* netperf's start (forks, exec) is over by then */
				c.duration_ns = 8000000;
				struct ss_results *r = ss_simulate(&c, &err);
				if (!r)
					fail_msg("answer %u: %s", answer, err->message);
				assert_true(r->wakeups > 20);
				assert_true(r->transactions > 0);
				uint64_t on0 = r->cpu[0].wakeups, on4 = r->cpu[4].wakeups;
				if (answer == 6) {
					/* the domain search's garbage is no CPU: nothing to fall back from */
					assert_int_equal(r->wakeups_fallback, 0);
					assert_int_equal(r->fork_fallback, 0);
					if (!wl)   /* netperf's wakeups reach the domain search */
						assert_true(r->sic_calls > 1000);
					assert_int_equal(r->sic_found, 0);
				} else {
					/* every answer refused; a wakeup of a task still on its CPU
					 * (cost.newidle_time: WF_ON_CPU) asks no policy */
					assert_int_equal(r->wakeups_fallback, r->wakeups - r->wakeups_on_cpu);
					/* both workloads fork (netperf: the harness and netserver fork client and server) */
					assert_int_equal(r->fork_fallback, r->spawns);
					/*
					 * select_fallback_rq(): the first allowed CPU of the task's
					 * node, 0 or 4: every task is forked from the harness's CPU 0
					 * and falls back there; node 1 sees wakeups only of tasks the
					 * balancer moved there, and none with --nodes 0. A wakeup
					 * of a task still on its CPU stays on that CPU.
					 */
					assert_true(on0 + on4 >= r->wakeups - r->wakeups_on_cpu);
					assert_true(on0 + on4 <= r->wakeups);
					assert_true(on0 > 0);
					if (!all)
						assert_int_equal(on4, 0);
				}
				if (wl)
					assert_true(r->spawns > 10);
				for (unsigned off = 5; off <= 10; off += 5)
					assert_int_equal(r->cpu[off].wakeups, 0);
				ss_results_free(r);
			}
		}
	}
	ss_workload_free(fw);
	ss_topology_free(t);
}

/*
 * The same bad answers at an exec: v6.6 sched_exec() calls the class's
 * select_task_rq() itself, without the core's select_fallback_rq(); an
 * answer that is not an active CPU makes it return, and __migrate_task()
 * refuses one the task may not use. A task on CPU 6 (node 1 of off16) that
 * execs every 200 us stays there for every answer, each refused exec
 * counted in exec_refused (answer 6 answers exec with its own CPU: none).
 */
static void test_invalid_exec_answers_stay(void **state)
{
	static const char off16[] =
		"name: off16\nvendor: intel\noffline: \"5,10\"\nnuma: {distance: [[10, 21], [21, 10]]}\n"
		"packages:\n  - cores: [[0, 8], [1, 9], [2, 10], [3, 11]]\n  - cores: [[4, 12], [5, 13], [6, 14], [7, 15]]\n";
	static const char execs[] =
		"name: execs\ninstance: task\ninstances_per_cpu: 1\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: t\n    start_cpu: 6\n"
		"    program: [loop: {forever: true, do: [transaction: begin, run: 200us, transaction: end, exec]}]\n";
	GError *err = NULL;
	const char *name = NULL;
	struct ss_topology *t = ss_topology_load_string(off16, sizeof off16 - 1, "off16.yaml", &err);
	struct ss_workload *w = ss_workload_load_string(execs, sizeof execs - 1, "execs.yaml", &err);
	if (!t || !w)
		fail_msg("%s", err->message);
	assert_true(ss_policy_plugin_load(SS_PLUGIN_DIR "/plugin_bad_cpu.so", &name, &err));

	for (unsigned answer = 0; answer <= 6; answer++) {
		struct ss_run_config c = { 0 };
		char set[32];
		c.topo = t;
		c.wl = w;
		c.policy = "test_bad_cpu";
		ss_params_defaults(&c.params, t);
		snprintf(set, sizeof set, "policy.answer=%u", answer);
		assert_true(ss_params_set(&c.params, "test_bad_cpu", set, &err));
		c.params.background = 0;
		c.load_pct_x100 = 1;   /* one instance */
		c.seed = 3;
		c.warmup_ns = 1000000;
		c.duration_ns = 10000000;
		struct ss_results *r = ss_simulate(&c, &err);
		if (!r)
			fail_msg("answer %u: %s", answer, err->message);
		assert_int_equal(r->nr_instances, 1);
		assert_true(r->transactions >= 40);
		assert_int_equal(r->migrations_by_cause[SS_MIG_EXEC], 0);
		for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++)
			if (cpu != 6)
				assert_int_equal(r->cpu[cpu].busy_ns, 0);
		if (answer == 6) {
			assert_int_equal(r->exec_refused, 0);
		} else {
			/* one exec per transaction: those of the window, give or take the one at its edge */
			assert_true(r->exec_refused + 1 >= r->transactions && r->exec_refused <= r->transactions + 1);
		}
		ss_results_free(r);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_affinity_property),
		cmocka_unit_test(test_affinity_check_catches_stray_policy),
		cmocka_unit_test(test_invalid_answers_fall_back),
		cmocka_unit_test(test_invalid_exec_answers_stay),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

/*
 * test_fork.c — the fork slow path, find_idlest_cpu() (kernel v6.6
 * fair.c), on constructed states, and children of a whole run spreading as
 * the kernel spreads them.
 *
 * The machine: two nodes (packages) of two LLCs of 2 CPUs each, SLIT
 * 10/20, so the domains are MC(2) -> PKG(4) -> NUMA(8), all with
 * SD_BALANCE_FORK, and the NUMA level's imb_numa_nr is 2 (two LLCs per
 * node; build_sched_domains()). Two cpuidle states, C1 (2 us) and C6
 * (100 us). The forking parent runs on CPU 0.
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

static const char topo_yaml[] =
	"name: two-node\nvendor: arm\n"
	"idle_states:\n"
	"  - {name: C1, exit_latency_us: 2, target_residency_us: 2}\n"
	"  - {name: C6, exit_latency_us: 100, target_residency_us: 400}\n"
	"numa:\n  distance: [[10, 20], [20, 10]]\n"
	"packages:\n"
	"  - llcs: [{cores: \"0-1\"}, {cores: \"2-3\"}]\n"
	"  - llcs: [{cores: \"4-5\"}, {cores: \"6-7\"}]\n";

static const char wl_yaml[] =
	"name: one\ninstance: task\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n  - name: t\n    start_cpu: 0\n    program: [run: 1ms]\n";

struct fixture {
	struct ss_topology *t;
	struct ss_workload *w;
	struct ss_sim *sim;
	uint64_t mask[1];
};

static struct ss_task running_task;   /* stands for whatever runs on a busy CPU */

static int setup(void **state)
{
	GError *err = NULL;
	struct fixture *f = g_new0(struct fixture, 1);
	struct ss_run_config c = { 0 };

	f->t = ss_topology_load_string(topo_yaml, sizeof topo_yaml - 1, "two-node.yaml", &err);
	f->w = f->t ? ss_workload_load_string(wl_yaml, sizeof wl_yaml - 1, "one.yaml", &err) : NULL;
	if (!f->w) {
		fprintf(stderr, "%s\n", err->message);
		return 1;
	}
	c.topo = f->t;
	c.wl = f->w;
	ss_params_defaults(&c.params, f->t);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 1000000;
	f->sim = ss_sim_create(&c, &err);
	*state = f;
	return !f->sim;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ss_sim_destroy(f->sim);
	ss_workload_free(f->w);
	ss_topology_free(f->t);
	g_free(f);
	return 0;
}

/* Back to an idle machine (no state entered yet, idle_stamp 0) and a child allowed everywhere. */
static void reset(struct fixture *f)
{
	struct ss_sim *sim = f->sim;
	struct ss_task *p = &sim->tasks[0];

	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_rq *rq = &sim->rq[c];

		rq->curr = NULL;
		rq->cfs.nr_running = 0;
		rq->ttwu_pending = rq->wake_inflight = 0;
		rq->idle_state = -1;
		rq->idle_stamp = 0;
		memset(&rq->cfs_avg, 0, sizeof rq->cfs_avg);
	}
	f->mask[0] = 0xff;
	p->cpus_ptr = f->mask;
	p->nr_cpus_allowed = 8;
	memset(&p->avg, 0, sizeof p->avg);   /* a new task: last_update_time 0 */
}

/* cpu runs nr tasks with these PELT figures (SCHED_CAPACITY_SCALE units) */
static void busy(struct fixture *f, unsigned cpu, unsigned nr, uint64_t load, uint64_t util, uint64_t runnable)
{
	struct ss_rq *rq = &f->sim->rq[cpu];

	rq->curr = &running_task;
	rq->cfs.nr_running = nr;
	rq->cfs_avg.avg.load_avg = load;
	rq->cfs_avg.avg.util_avg = util;
	rq->cfs_avg.avg.runnable_avg = runnable;
}

static void idle_in(struct fixture *f, unsigned cpu, int state, uint64_t stamp)
{
	f->sim->rq[cpu].idle_state = (int8_t)state;
	f->sim->rq[cpu].idle_stamp = stamp;
}

/* wake_up_new_task() from a parent running on CPU 0: select_task_rq(WF_FORK) */
static int fork_from(struct fixture *f, unsigned parent_cpu)
{
	struct ss_sim *sim = f->sim;
	struct ss_task *p = &sim->tasks[0];

	p->cpu = (int32_t)parent_cpu;
	sim->this_cpu = parent_cpu;
	sim->current = NULL;
	return ss_select_task_rq_fair(sim, p, (int)parent_cpu, WF_FORK);
}

static void test_domains(void **state)
{
	struct fixture *f = *state;
	const struct ss_cpu_topo *ct = &f->t->cpu[0];

	assert_int_equal(ct->nr_sd, 3);
	for (unsigned l = 0; l < 3; l++)
		assert_true(ct->sd[l].flags & SD_BALANCE_FORK);
	assert_int_equal(ct->sd[0].span_weight, 2);
	assert_int_equal(ct->sd[1].span_weight, 4);
	assert_true(ct->sd[2].flags & SD_NUMA);
	assert_int_equal(ct->sd[2].imb_numa_nr, 2);
}

/*
 * group_has_spare at NUMA: the node with more idle CPUs wins unless the
 * imbalance is within adjust_numa_imbalance()'s tolerance (<= 2 idle CPUs
 * while the local node would run <= imb_numa_nr tasks).
 */
static void test_numa_idle_groups(void **state)
{
	struct fixture *f = *state;

	/* only the parent's CPU busy: 3 vs 4 idle, 2 tasks <= imb_numa_nr: stay on node 0,
	 * then PKG picks the idle LLC of node 0, and in it the first CPU (none has idled yet) */
	reset(f);
	busy(f, 0, 1, 1024, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 2);

	/* three busy: 1 vs 4 idle and 4 tasks > imb_numa_nr: node 1 */
	busy(f, 1, 1, 1024, 1024, 1024);
	busy(f, 2, 1, 1024, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 4);

	/* two busy: 2 vs 4 idle, imbalance 2 <= NUMA_IMBALANCE_MIN but 3 tasks > 2: node 1 */
	reset(f);
	busy(f, 0, 1, 1024, 1024, 1024);
	busy(f, 1, 1, 1024, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 4);

	/* the idlest group is the one with more idle CPUs, not the first */
	busy(f, 4, 1, 1024, 1024, 1024);
	busy(f, 5, 1, 1024, 1024, 1024);
	busy(f, 6, 1, 1024, 1024, 1024);
	/* node 1 has 1 idle CPU, node 0 has 2: stay local, the idle LLC, CPU 2 */
	assert_int_equal(fork_from(f, 0), 2);
}

/*
 * find_idlest_group_cpu(): the shallowest cpuidle state first, then the CPU
 * that went idle last; a CPU with no state competes on its idle_stamp.
 */
static void test_idlest_cpu_in_group(void **state)
{
	struct fixture *f = *state;

	reset(f);
	busy(f, 0, 1, 1024, 1024, 1024);
	busy(f, 1, 1, 1024, 1024, 1024);
	busy(f, 2, 1, 1024, 1024, 1024);
	idle_in(f, 4, 1, 100);   /* C6 */
	idle_in(f, 5, 0, 50);    /* C1 */
	idle_in(f, 6, 0, 80);    /* C1, idled later than 5 */
	idle_in(f, 7, 1, 200);   /* C6, latest but deeper */
	assert_int_equal(fork_from(f, 0), 6);
	idle_in(f, 6, 1, 80);    /* now only 5 is in C1 */
	assert_int_equal(fork_from(f, 0), 5);
	/* all in C6: the most recently idled */
	idle_in(f, 5, 1, 50);
	assert_int_equal(fork_from(f, 0), 7);
}

/*
 * Fully busy groups: avg_load decides, with the imbalance_pct margins:
 * push to the other node only if its avg_load + imbalance is below the local
 * one (NUMA) and the local one is above pct × the remote one.
 */
static void test_load_differences(void **state)
{
	struct fixture *f = *state;

	reset(f);
	for (unsigned c = 0; c < 8; c++)
		busy(f, c, 1, 1024, 1024, 1024);
	/* node 1 lighter: 700 per CPU, CPU 6 the least loaded (500) */
	busy(f, 4, 1, 700, 1024, 1024);
	busy(f, 5, 1, 700, 1024, 1024);
	busy(f, 6, 1, 500, 1024, 1024);
	busy(f, 7, 1, 700, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 6);

	/* node 1 at 950 per CPU: 950 + 174 >= 993, stay on node 0; in it, LLC 1 at
	 * (1024 + 900) / 2 is within 117 % of LLC 0's 1024: stay on the parent's CPU */
	for (unsigned c = 4; c < 8; c++)
		busy(f, c, 1, 950, 1024, 1024);
	busy(f, 3, 1, 900, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 0);

	/* CPU 3 at 600: LLC 1 at 812, 100 × 1024 > 117 × 812 and 812 + 174 < 1024:
	 * LLC 1, its least loaded CPU, 3 */
	busy(f, 3, 1, 600, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 3);

	/* an idle CPU anywhere beats any load: group_has_spare < group_fully_busy */
	reset(f);
	for (unsigned c = 0; c < 8; c++)
		busy(f, c, 1, 1024, 1024, 1024);
	busy(f, 3, 1, 100, 100, 100);
	f->sim->rq[7].curr = NULL;
	f->sim->rq[7].cfs.nr_running = 0;
	f->sim->rq[7].cfs_avg.avg.util_avg = 0;
	f->sim->rq[7].cfs_avg.avg.runnable_avg = 0;
	assert_int_equal(fork_from(f, 0), 7);
}

/* Affinity: groups with no allowed CPU are skipped; the NUMA tolerance uses the allowed part of the local node. */
static void test_affinity(void **state)
{
	struct fixture *f = *state;

	/* allowed on 5 and 6 only: the local group is skipped, node 1 wins, CPU 5 */
	reset(f);
	f->mask[0] = (1u << 5) | (1u << 6);
	f->sim->tasks[0].nr_cpus_allowed = 2;
	assert_int_equal(fork_from(f, 0), 5);
	/* CPU 5 busy: 6 */
	busy(f, 5, 1, 1024, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 6);

	/*
	 * allowed on CPU 0 and node 1; only CPU 0 busy. Without affinity the
	 * child would stay on node 0 (see test_numa_idle_groups); here imb_numa_nr
	 * is clamped to the 1 allowed CPU of node 0, so 2 tasks exceed it and the
	 * child goes to node 1 instead of queueing behind the parent.
	 */
	reset(f);
	f->mask[0] = 0xf1;
	f->sim->tasks[0].nr_cpus_allowed = 5;
	busy(f, 0, 1, 1024, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 4);
}

/* sg_imbalanced(): a group the load balancer flagged (sgc->imbalance) is group_imbalanced, never the idlest */
static void test_imbalanced_group(void **state)
{
	struct fixture *f = *state;
	const struct ss_sched_domain *numa = &f->t->cpu[0].sd[2];
	uint8_t *flag;

	reset(f);
	busy(f, 0, 1, 1024, 1024, 1024);
	busy(f, 1, 1, 1024, 1024, 1024);
	busy(f, 2, 1, 1024, 1024, 1024);
	assert_int_equal(fork_from(f, 0), 4);   /* as in test_numa_idle_groups */
	flag = &f->sim->sgc_imbalance[(size_t)ss_sd_level_key(numa) * f->sim->nr_cpus + 4];
	*flag = 1;
	/* node 1 imbalanced: stay on node 0, its LLC with an idle CPU, CPU 3 */
	assert_int_equal(fork_from(f, 0), 3);
	*flag = 0;
}

/* run a storm: a parent on CPU 0 forks n children that each run 2 ms; per-CPU busy time out */
static struct ss_results *storm(struct ss_topology *t, unsigned n)
{
	GError *err = NULL;
	char *wl = g_strdup_printf("name: storm\ninstance: tree\ninstances_per_cpu: 0.001\n"
				   "metric: {name: time, unit: s, higher_is_better: false}\n"
				   "tasks:\n"
				   "  - name: parent\n    start_cpu: 0\n    program: [run: 100us, spawn: {task: child, count: %u}, exit]\n"
				   "  - name: child\n    count: %u\n    spawned: true\n    program: [run: 2ms, exit]\n",
				   n, n);
	struct ss_workload *w = ss_workload_load_string(wl, strlen(wl), "storm.yaml", &err);
	struct ss_run_config c = { 0 };
	struct ss_results *r;

	g_free(wl);
	assert_non_null(w);
	c.topo = t;
	c.wl = w;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 10000;
	c.seed = 3;
	c.duration_ns = 20000000;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	ss_workload_free(w);
	assert_int_equal(r->spawns, n);
	/* parallel 2 ms children: done in about 2.1 ms, not n × 2 ms */
	if (!(r->finish_ns > 2100000 && r->finish_ns < 2600000))
		fail_msg("finish at %llu ns", (unsigned long long)r->finish_ns);
	return r;
}

/*
 * Whole run on xeon6148 (2 nodes × 20 cores × 2 threads): 32 children of a
 * parent on CPU 0. find_idlest_group() at NUMA alternates the nodes once the
 * idle-CPU imbalance exceeds the tolerance, and at MC (groups = cores)
 * prefers a core with both threads idle: every child gets a core of its
 * own, the nodes split 17/16 (the parent counts on node 0).
 */
static void test_whole_run_spreads_cores(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/xeon6148.yaml", &err);
	struct ss_results *r;
	unsigned per_node[2] = { 0 }, cores_used[40] = { 0 }, busy = 0;

	(void)state;
	assert_non_null(t);
	r = storm(t, 32);
	for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->cpu[cpu].busy_ns)
			continue;
		busy++;
		per_node[t->cpu[cpu].node]++;
		cores_used[cpu % 40]++;
	}
	assert_int_equal(busy, 33);
	for (unsigned core = 0; core < 40; core++)
		if (cores_used[core] > 1)
			fail_msg("core %u runs two tasks on its two threads while idle cores remain", core);
	if (!((per_node[0] == 17 && per_node[1] == 16) || (per_node[0] == 16 && per_node[1] == 17)))
		fail_msg("nodes %u / %u", per_node[0], per_node[1]);
	ss_results_free(r);
	ss_topology_free(t);
}

/*
 * Whole run on kunpeng920 (4 nodes, SLIT 10/12/20/22/24): its NUMA groups
 * overlap. From CPU 0 the 96-CPU level compares nodes 0-1 with node 2 and
 * the 128-CPU level nodes 0-2 with nodes 2-3, so a local group of 64 or 96
 * CPUs keeps more idle CPUs than the remote one until nodes 0-1 hold 33
 * tasks: package 0 fills first (33 of 65 tasks before package 1 gets one),
 * as find_idlest_group() does on such a machine. Every child still gets an
 * idle CPU of its own and every LLC is used.
 */
static void test_whole_run_overlapping_numa(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	struct ss_results *r;
	unsigned per_llc[4] = { 0 }, busy = 0;

	(void)state;
	assert_non_null(t);
	r = storm(t, 64);
	for (unsigned cpu = 0; cpu < r->nr_cpus; cpu++) {
		if (!r->cpu[cpu].busy_ns)
			continue;
		busy++;
		per_llc[t->cpu[cpu].llc_index]++;
	}
	assert_int_equal(busy, 65);
	/* package 0 (LLCs 0, 1) takes the first 33 tasks, then the packages alternate:
	 * 33 + 32 / 3 on package 0 (96 vs 64 CPUs at the top level) */
	if (!(per_llc[0] + per_llc[1] >= 40 && per_llc[0] + per_llc[1] <= 46 && per_llc[2] >= 8 && per_llc[3] >= 8))
		fail_msg("LLCs %u %u %u %u", per_llc[0], per_llc[1], per_llc[2], per_llc[3]);
	if (per_llc[0] > per_llc[1] + 2 || per_llc[1] > per_llc[0] + 2 || per_llc[2] > per_llc[3] + 2 ||
	    per_llc[3] > per_llc[2] + 2)
		fail_msg("LLCs %u %u %u %u", per_llc[0], per_llc[1], per_llc[2], per_llc[3]);
	ss_results_free(r);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_domains),
		cmocka_unit_test(test_numa_idle_groups),
		cmocka_unit_test(test_idlest_cpu_in_group),
		cmocka_unit_test(test_load_differences),
		cmocka_unit_test(test_affinity),
		cmocka_unit_test(test_imbalanced_group),
		cmocka_unit_test(test_whole_run_spreads_cores),
		cmocka_unit_test(test_whole_run_overlapping_numa),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

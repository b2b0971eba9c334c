/*
 * Load balancing (kernel v6.6 fair.c): group classification, the imbalance
 * find_busiest_group()/calculate_imbalance() compute on small machines,
 * spreading of CPU-bound tasks by the periodic/NOHZ balancer, the SMT split
 * by active balance, newidle pulls, affinity under randomized runs, and the
 * balance figures (migrations by cause and level, idle with work elsewhere,
 * runqueue depth).
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

enum { has_spare, fully_busy, misfit_task, smt_balance, asym_packing, imbalanced, overloaded };
enum { mig_load, mig_util, mig_task, mig_misfit };

static struct ss_topology *topo(const char *yaml)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(yaml, strlen(yaml), "inline-topo.yaml", &err);
	if (!t)
		fail_msg("%s", err->message);
	return t;
}

static const char flat8_yaml[] = "name: flat8\nvendor: arm\ncores: \"0-7\"\n";
static const char flat2_yaml[] = "name: flat2\nvendor: arm\ncores: \"0-1\"\n";
static const char llc2_yaml[] = "name: llc2\nvendor: arm\npackages:\n  - nodes:\n      - llcs:\n"
				"          - cores: \"0-3\"\n          - cores: \"4-7\"\n";
static const char smt4_yaml[] = "name: smt4\nvendor: intel\npackages:\n  - nodes:\n      - llcs:\n"
				"          - cores: [[0, 2], [1, 3]]\n";
/* 4 nodes x 4 CPUs, one LLC per node */
static const char numa16_yaml[] = "name: numa16\nvendor: arm\n"
				  "numa: {distance: [[10, 20, 20, 20], [20, 10, 20, 20], [20, 20, 10, 20], [20, 20, 20, 10]]}\n"
				  "packages:\n  - repeat: 4\n    step: 4\n    nodes:\n      - llcs:\n          - cores: \"0-3\"\n";

/* A workload of CPU-bound tasks (10 ms bursts for ever), task i on start[i]. */
static struct ss_workload *cpu_bound(unsigned n, const int *start)
{
	GString *y = g_string_new("name: cpubound\ninstance: group\n"
				  "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\ntasks:\n");
	GError *err = NULL;
	for (unsigned i = 0; i < n; i++) {
		g_string_append_printf(y, "  - name: t%u\n", i);
		if (start[i] >= 0)
			g_string_append_printf(y, "    start_cpu: %d\n", start[i]);
		g_string_append(y, "    program: [{loop: {forever: true, do: [{run: 10ms}]}}]\n");
	}
	struct ss_workload *w = ss_workload_load_string(y->str, y->len, "inline.yaml", &err);
	if (!w)
		fail_msg("%s", err->message);
	g_string_free(y, TRUE);
	return w;
}

static struct ss_run_config config(const struct ss_topology *t, const struct ss_workload *w, uint64_t warmup,
				   uint64_t duration)
{
	struct ss_run_config c = { 0 };
	c.topo = t;
	c.wl = w;
	c.policy = "sis_util";
	ss_params_defaults(&c.params, t);
	/* the balancer's own logic on a clean machine: no kworker preempting, no tick cost */
	c.params.background = 0;
	c.load_pct_x100 = 1;   /* one instance */
	c.seed = 1;
	c.warmup_ns = warmup;
	c.duration_ns = duration;
	return c;
}

/* ---------------------------------------------------------------- classification */

/* group_has_capacity / group_is_overloaded (reference §3.3), imbalance_pct 117, 4 CPUs. */
static void test_group_classify(void **state)
{
	(void)state;
	/* fewer tasks than CPUs: spare, whatever the utilization */
	assert_int_equal(ss_lb_group_classify(117, 3, 4, 4096, 4096, 8000), has_spare);
	/* as many tasks as CPUs: capacity × 100 > util × pct → spare */
	assert_int_equal(ss_lb_group_classify(117, 4, 4, 4096, 3000, 3000), has_spare);
	/* util × pct above capacity × 100 (3600 × 117 = 421200 > 409600): fully busy */
	assert_int_equal(ss_lb_group_classify(117, 4, 4, 4096, 3600, 3600), fully_busy);
	/* runnable pressure (capacity × pct < runnable × 100): fully busy even at low util */
	assert_int_equal(ss_lb_group_classify(117, 4, 4, 4096, 1000, 4800), fully_busy);
	/* more tasks than CPUs and util above the threshold: overloaded */
	assert_int_equal(ss_lb_group_classify(117, 5, 4, 4096, 3600, 3600), overloaded);
	/* more tasks than CPUs but low util and runnable: still spare */
	assert_int_equal(ss_lb_group_classify(117, 5, 4, 4096, 3000, 4200), has_spare);
	/* runnable 4800 × 100 > 4096 × 117 = 479232: overloaded */
	assert_int_equal(ss_lb_group_classify(117, 5, 4, 4096, 3000, 4800), overloaded);
	/* SMT level pct 110: 1 CPU, 2 tasks, util 1000 (1000 × 110 > 102400) */
	assert_int_equal(ss_lb_group_classify(110, 2, 1, 1024, 1000, 1000), overloaded);
}

/* ---------------------------------------------------------------- imbalance examples */

static struct ss_sim *sim_with(const struct ss_topology *t, unsigned n, const int *start, struct ss_workload **wout)
{
	GError *err = NULL;
	struct ss_workload *w = cpu_bound(n, start);
	struct ss_run_config c = config(t, w, 0, 1000000);
	struct ss_sim *sim = ss_sim_create(&c, &err);
	if (!sim)
		fail_msg("%s", err->message);
	ss_sim_start(sim);
	*wout = w;
	return sim;
}

/* The level index of cpu's domain whose span has `weight` CPUs. */
static unsigned level_of(const struct ss_topology *t, unsigned cpu, unsigned weight)
{
	for (unsigned l = 0; l < t->cpu[cpu].nr_sd; l++)
		if (t->cpu[cpu].sd[l].span_weight == weight)
			return l;
	fail_msg("cpu %u has no domain of %u CPUs", cpu, weight);
	return 0;
}

/*
 * Two LLCs of 4 CPUs (DIE level, groups = LLCs with SD_PREFER_SIBLING from
 * MC). An idle CPU of the empty LLC: with one task in the other LLC,
 * "local.idle_cpus <= busiest.idle_cpus + 1" → balanced; with 2, 3 and 4
 * (one per CPU) sibling_imbalance() = the task difference > 1 → force
 * balance, migrate_task, imbalance = difference >> 1.
 */
static void test_imbalance_prefer_sibling(void **state)
{
	(void)state;
	struct ss_topology *t = topo(llc2_yaml);
	static const int start[4] = { 0, 1, 2, 3 };
	static const long want[5] = { 0, 0, 1, 1, 2 };
	unsigned lvl = level_of(t, 4, 8);
	for (unsigned n = 1; n <= 4; n++) {
		struct ss_workload *w;
		struct ss_sim *sim = sim_with(t, n, start, &w);
		struct ss_lb_decision d;
		ss_lb_inspect(sim, 4, lvl, CPU_IDLE, &d);
		assert_true(d.should_balance);   /* CPU 4 is the first idle CPU of its group */
		assert_int_equal(d.local_type, has_spare);
		assert_int_equal(d.local_idle_cpus, 4);
		assert_int_equal(d.busiest_first_cpu, 0);
		assert_int_equal(d.imbalanced, n >= 2);
		if (n >= 2) {
			assert_int_equal(d.migration_type, mig_task);
			assert_int_equal(d.imbalance, want[n]);
			assert_int_equal(d.busiest_cpu, 0);   /* first rq with the most tasks */
		}
		/* CPU 5 may not balance for the group: CPU 4 is its first idle CPU */
		ss_lb_inspect(sim, 5, lvl, CPU_IDLE, &d);
		assert_false(d.should_balance);
		ss_sim_destroy(sim);
		ss_workload_free(w);
	}
	ss_topology_free(t);
}

/*
 * Flat 8 CPUs (MC, single-CPU groups): 4 tasks on CPU 0. For idle CPU 1 the
 * busiest group (CPU 0) is overloaded, the local one has spare; group_weight
 * 1 → migrate_task with sibling_imbalance 4 - 0, halved: 2. A busy CPU
 * (CPU_NOT_IDLE) gets sibling_imbalance() = 0: no imbalance.
 */
static void test_imbalance_overloaded_single_cpu(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat8_yaml);
	static const int start[4] = { 0, 0, 0, 0 };
	struct ss_workload *w;
	struct ss_sim *sim = sim_with(t, 4, start, &w);
	struct ss_lb_decision d;
	ss_lb_inspect(sim, 1, 0, CPU_IDLE, &d);
	assert_int_equal(d.busiest_type, overloaded);
	assert_int_equal(d.local_type, has_spare);
	assert_true(d.imbalanced);
	assert_int_equal(d.migration_type, mig_task);
	assert_int_equal(d.imbalance, 2);
	assert_int_equal(d.busiest_cpu, 0);
	ss_lb_inspect(sim, 1, 0, CPU_NOT_IDLE, &d);
	assert_false(d.imbalanced);
	ss_sim_destroy(sim);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Both groups overloaded (2 CPUs, loads set by hand): avg_load decides
 * (reference §3.3). CPU 0 load 3072 (3 tasks), CPU 1 load 2048 (2 tasks):
 * domain avg = 5120 × 1024 / 2048 = 2560; local 2048 < avg and 100 × 3072 >
 * 117 × 2048 → migrate_load, imbalance = min((3072 − 2560) × 1024,
 * (2560 − 2048) × 1024) / 1024 = 512. With CPU 1 at 2816 the busiest is
 * within imbalance_pct (100 × 3072 ≤ 117 × 2816): balanced.
 */
static void test_imbalance_load(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat2_yaml);
	static const int start[5] = { 0, 0, 0, 1, 1 };
	struct ss_workload *w;
	struct ss_sim *sim = sim_with(t, 5, start, &w);
	struct ss_lb_decision d;
	struct ss_sched_avg *a0 = &sim->rq[0].cfs_avg.avg, *a1 = &sim->rq[1].cfs_avg.avg;
	a0->load_avg = 3072;
	a0->util_avg = 1024;
	a0->runnable_avg = 3072;
	a1->load_avg = 2048;
	a1->util_avg = 1024;
	a1->runnable_avg = 2048;
	ss_lb_inspect(sim, 1, 0, CPU_NOT_IDLE, &d);
	assert_int_equal(d.busiest_type, overloaded);
	assert_int_equal(d.local_type, overloaded);
	assert_true(d.imbalanced);
	assert_int_equal(d.migration_type, mig_load);
	assert_int_equal(d.imbalance, 512);
	assert_int_equal(d.busiest_cpu, 0);
	a1->load_avg = 2816;
	ss_lb_inspect(sim, 1, 0, CPU_NOT_IDLE, &d);
	assert_false(d.imbalanced);
	ss_sim_destroy(sim);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * SMT: core {0,2} runs two tasks, core {1,3} is idle. For CPU 1 at the MC
 * level the busy core is group_smt_balance (v6.6), prefer_sibling from the
 * SMT child; imbalance 1 task.
 */
static void test_imbalance_smt_balance(void **state)
{
	(void)state;
	struct ss_topology *t = topo(smt4_yaml);
	static const int start[2] = { 0, 2 };
	struct ss_workload *w;
	struct ss_sim *sim = sim_with(t, 2, start, &w);
	struct ss_lb_decision d;
	ss_lb_inspect(sim, 1, level_of(t, 1, 4), CPU_IDLE, &d);
	assert_int_equal(d.busiest_type, smt_balance);
	assert_int_equal(d.local_idle_cpus, 2);
	assert_true(d.imbalanced);
	assert_int_equal(d.migration_type, mig_task);
	assert_int_equal(d.imbalance, 1);
	/* a busy CPU does not see smt_balance */
	ss_lb_inspect(sim, 1, level_of(t, 1, 4), CPU_NOT_IDLE, &d);
	assert_int_not_equal(d.busiest_type, smt_balance);
	assert_false(d.imbalanced);
	ss_sim_destroy(sim);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* ---------------------------------------------------------------- whole runs */

struct where {
	int cpu[64];
	unsigned nr, moves;
	uint64_t last_move;
	const uint64_t *allowed;   /* NULL: no check */
	uint64_t task_allowed[64]; /* per-task affinity (16-CPU machines), 0: no check */
	unsigned bad;
	unsigned by_cause[SS_MIG_NR];
};

static void on_migrate(void *ctx, uint64_t now, unsigned task, unsigned from, unsigned to, unsigned cause)
{
	struct where *w = ctx;
	if (task < 64) {
		if (w->cpu[task] >= 0 && (unsigned)w->cpu[task] != from)
			w->bad++;
		w->cpu[task] = (int)to;
	}
	if (w->allowed && !ss_cpumask_test(w->allowed, to))
		w->bad++;
	if (task < 64 && w->task_allowed[task] && !(w->task_allowed[task] >> to & 1))
		w->bad++;
	w->moves++;
	w->last_move = now;
	w->by_cause[cause]++;
}

/* 4 CPU-bound tasks started on CPU 0 of an idle 8-CPU machine are on 4 CPUs within 50 ms. */
static void test_spread_four(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat8_yaml);
	static const int start[4] = { 0, 0, 0, 0 };
	struct ss_workload *w = cpu_bound(4, start);
	struct ss_run_config c = config(t, w, 50000000, 50000000);
	struct where wh = { .nr = 4 };
	GError *err = NULL;
	for (unsigned i = 0; i < 4; i++)
		wh.cpu[i] = 0;
	c.on_migrate = on_migrate;
	c.trace_ctx = &wh;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(wh.bad, 0);
	/* distinct CPUs, and nothing moves in the measured window */
	for (unsigned i = 0; i < 4; i++)
		for (unsigned j = i + 1; j < 4; j++)
			assert_int_not_equal(wh.cpu[i], wh.cpu[j]);
	assert_true(wh.last_move < 50000000);
	assert_int_equal(r->migrations, 0);
	/* the window's figures agree: 4 CPUs at depth 1, 4 at 0, nothing idle with work elsewhere */
	assert_int_equal(r->rq_depth_ns[1], 4 * 50000000ull);
	assert_int_equal(r->rq_depth_ns[0], 4 * 50000000ull);
	assert_int_equal(r->idle_work_llc_ns, 0);
	ss_results_free(r);

	/* the same from t = 0: the balancer moved 3 tasks, and CPUs sat idle
	 * while CPU 0 had waiting tasks before that */
	c.warmup_ns = 0;
	c.duration_ns = 50000000;
	memset(&wh, 0, sizeof wh);
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_true(r->migrations >= 3);
	assert_int_equal(r->migrations_by_cause[SS_MIG_WAKEUP], 0);
	assert_true(r->idle_work_llc_ns > 0);
	assert_true(r->rq_depth_ns[4] > 0);
	assert_true(r->lb[0].passes + r->lb[2].passes > 0);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* Without the balancer's kicks and pulls (NOHZ off, nothing sleeps) the tasks stay stacked. */
static void test_no_balance_no_spread(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat8_yaml);
	static const int start[4] = { 0, 0, 0, 0 };
	struct ss_workload *w = cpu_bound(4, start);
	struct ss_run_config c = config(t, w, 0, 50000000);
	GError *err = NULL;
	c.params.nohz = 0;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	/* CPU 0 is busy: its own periodic balance never pulls from itself */
	assert_int_equal(r->migrations, 0);
	assert_int_equal(r->rq_depth_ns[4], 50000000ull);
	assert_int_equal(r->idle_work_llc_ns, 7 * 50000000ull);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* Two busy threads on the SMT siblings of one core are split onto the idle core by active balance. */
static void test_smt_split(void **state)
{
	(void)state;
	struct ss_topology *t = topo(smt4_yaml);
	static const int start[2] = { 0, 2 };
	struct ss_workload *w = cpu_bound(2, start);
	struct ss_run_config c = config(t, w, 200000000, 50000000);
	struct where wh = { .nr = 2 };
	GError *err = NULL;
	wh.cpu[0] = 0;
	wh.cpu[1] = 2;
	c.on_migrate = on_migrate;
	c.trace_ctx = &wh;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(wh.bad, 0);
	/* one task per core: {0,2} and {1,3} */
	assert_int_not_equal(wh.cpu[0] % 2, wh.cpu[1] % 2);
	/* each CPU either of the 2 was running; nothing moves any more */
	assert_int_equal(r->migrations, 0);
	assert_int_equal(r->rq_depth_ns[1], 2 * 50000000ull);
	/* it took the stopper: the busiest rq ran one task each, nothing else could move */
	assert_true(wh.by_cause[SS_MIG_ACTIVE] >= 1);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Two CPU-bound tasks a and b on CPU 0 and a task s on CPU 1 that runs
 * sleeper_run, then sleeps 1 s (the newidle tests).
 */
static struct ss_workload *two_hogs_and_sleeper(const char *name, const char *sleeper_run)
{
	GError *err = NULL;
	g_autofree char *y = g_strdup_printf(
		"name: %s\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: a, start_cpu: 0, program: [{loop: {forever: true, do: [{run: 10ms}]}}]}\n"
		"  - {name: b, start_cpu: 0, program: [{loop: {forever: true, do: [{run: 10ms}]}}]}\n"
		"  - {name: s, start_cpu: 1, program: [{run: %s}, {sleep: 1s}]}\n",
		name, sleeper_run);
	struct ss_workload *w = ss_workload_load_string(y, strlen(y), "newidle.yaml", &err);

	assert_non_null(w);
	return w;
}

/*
 * Newidle: CPU 0 runs two CPU-bound tasks, CPU 1 one task that runs 2 ms
 * and sleeps 1 s. NOHZ kicks off, so only newidle_balance() can move a task
 * to CPU 1: it pulls the waiting task when CPU 1's task goes to sleep.
 */
static void test_newidle_pull(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat2_yaml);
	GError *err = NULL;
	struct ss_workload *w = two_hogs_and_sleeper("newidle", "2ms");
	struct ss_run_config c = config(t, w, 0, 20000000);
	struct where wh = { .nr = 3 };
	wh.cpu[0] = wh.cpu[1] = 0;
	wh.cpu[2] = 1;
	c.params.nohz = 0;
	c.on_migrate = on_migrate;
	c.trace_ctx = &wh;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(wh.bad, 0);
	assert_int_equal(r->migrations_by_cause[SS_MIG_NEWIDLE], 1);
	assert_int_equal(r->migrations, 1);
	/* at the moment s sleeps (2 ms + its context switch) */
	assert_true(wh.last_move >= 2000000 && wh.last_move <= 2100000);
	assert_true(wh.cpu[0] == 1 || wh.cpu[1] == 1);
	assert_true(r->lb[1].passes >= 1);
	ss_results_free(r);

	/* rd->overload gate: with one task per CPU nothing is pulled */
	static const char y2[] =
		"name: newidle2\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: a, start_cpu: 0, program: [{loop: {forever: true, do: [{run: 10ms}]}}]}\n"
		"  - {name: s, start_cpu: 1, program: [{run: 2ms}, {sleep: 1s}]}\n";
	struct ss_workload *w2 = ss_workload_load_string(y2, sizeof y2 - 1, "newidle2.yaml", &err);
	c.wl = w2;
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_int_equal(r->migrations, 0);
	ss_results_free(r);
	ss_workload_free(w2);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * task_hot() (fair.c v6.6): a waiting task that ran within
 * sysctl_sched_migration_cost (500 µs) of the source rq's clock_task is
 * cache hot, and newidle balance (which never raises nr_balance_failed
 * above cache_nice_tries) leaves it. CPU 0 runs a and b, CPU-bound, which
 * the 4 ms tick alternates (a 0-4 ms, b 4-8 ms, a from 8 ms); s runs
 * 8.2 ms on CPU 1 and sleeps. When CPU 1 goes newly idle at ~8.2 ms, b
 * last ran 200 µs ago: hot, not pulled. With kernel.migration_cost_ns =
 * 100 µs it is cold and pulled then. (exec_start and the rq clock must be
 * on one time base: a 2^20 ns offset between them made every task cold.)
 */
static void test_newidle_cache_hot(void **state)
{
	(void)state;
	struct ss_topology *t = topo(flat2_yaml);
	GError *err = NULL;
	struct ss_workload *w = two_hogs_and_sleeper("hot", "8200us");
	for (int cold = 0; cold <= 1; cold++) {
		struct ss_run_config c = config(t, w, 0, 9000000);
		struct where wh = { .nr = 3 };
		wh.cpu[0] = wh.cpu[1] = 0;
		wh.cpu[2] = 1;
		c.params.nohz = 0;
		c.params.hz = 250;
		if (cold)
			c.params.migration_cost_ns = 100000;
		c.on_migrate = on_migrate;
		c.trace_ctx = &wh;
		struct ss_results *r = ss_simulate(&c, &err);
		assert_non_null(r);
		assert_int_equal(wh.bad, 0);
		/* newidle balance ran at CPU 1's sleep and found the imbalance */
		assert_true(r->lb[1].passes >= 1);
		assert_int_equal(r->migrations_by_cause[SS_MIG_NEWIDLE], cold ? 1 : 0);
		assert_int_equal(r->migrations, cold ? 1 : 0);
		if (cold) {
			assert_true(wh.last_move >= 8200000 && wh.last_move <= 8300000);
			assert_int_equal(wh.cpu[1], 1);   /* b, the waiting one */
			assert_int_equal(wh.cpu[0], 0);
		}
		ss_results_free(r);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * balance.newidle_llc_only: CPU 2 (LLC {2,3}) goes idle while CPU 0 (LLC
 * {0,1}) has a task waiting: newidle pulls it across LLCs at the DIE level,
 * and not when newidle balancing stops at the LLC domain.
 */
static void test_newidle_llc_only(void **state)
{
	(void)state;
	struct ss_topology *t = topo("name: twollc\nvendor: arm\nllcs:\n  - cores: \"0-1\"\n  - cores: \"2-3\"\n");
	static const char y[] =
		"name: newidle3\ninstance: group\nmetric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n"
		"  - {name: a, start_cpu: 0, program: [{loop: {forever: true, do: [{run: 10ms}]}}]}\n"
		"  - {name: b, start_cpu: 0, program: [{loop: {forever: true, do: [{run: 10ms}]}}]}\n"
		"  - {name: c, start_cpu: 1, program: [{loop: {forever: true, do: [{run: 10ms}]}}]}\n"
		"  - {name: s, start_cpu: 2, program: [{run: 2ms}, {sleep: 1s}]}\n";
	GError *err = NULL;
	struct ss_workload *w = ss_workload_load_string(y, sizeof y - 1, "newidle3.yaml", &err);
	assert_non_null(w);
	for (int only = 0; only <= 1; only++) {
		struct ss_run_config c = config(t, w, 0, 20000000);
		c.params.nohz = 0;
		c.params.newidle_llc_only = (uint64_t)only;
		struct ss_results *r = ss_simulate(&c, &err);
		assert_non_null(r);
		assert_int_equal(r->migrations_by_cause[SS_MIG_NEWIDLE], only ? 0 : 1);
		ss_results_free(r);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * Affinity (--nodes and per-task cpus): over randomized node sets, task
 * affinities, start CPUs and a mix of CPU-bound and sleeping tasks, no task
 * is ever placed or pulled onto a CPU outside its allowed set — while the
 * balancer does move tasks (idle CPUs outside a task's set try to pull it:
 * LBF_SOME_PINNED, LBF_DST_PINNED's retry on another CPU, ALL_PINNED).
 */
static void test_affinity_randomized(void **state)
{
	(void)state;
	struct ss_topology *t = topo(numa16_yaml);
	GRand *rand = g_rand_new_with_seed(20240607);
	uint64_t balancer_moves = 0;
	for (unsigned run = 0; run < 24; run++) {
		unsigned nodes_mask = 0;
		while (!nodes_mask)
			nodes_mask = (unsigned)g_rand_int_range(rand, 0, 16);
		char nodes[32] = "";
		uint64_t allowed[1] = { 0 };
		int allowed_cpus[16];
		unsigned na = 0;
		for (unsigned n = 0; n < 4; n++) {
			if (!(nodes_mask & (1u << n)))
				continue;
			g_snprintf(nodes + strlen(nodes), sizeof nodes - strlen(nodes), "%s%u", nodes[0] ? "," : "", n);
			for (unsigned cpu = 4 * n; cpu < 4 * n + 4; cpu++) {
				allowed[0] |= UINT64_C(1) << cpu;
				allowed_cpus[na++] = (int)cpu;
			}
		}
		unsigned nt = (unsigned)g_rand_int_range(rand, 2, 24);
		GString *y = g_string_new("name: aff\ninstance: group\n"
					  "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\ntasks:\n");
		struct where wh = { .allowed = allowed };
		for (unsigned i = 0; i < nt; i++) {
			/* a few start CPUs shared, so that runqueues stack */
			int sc = allowed_cpus[g_rand_int_range(rand, 0, (gint32)(na < 3 ? na : 3))];
			char cpus[96] = "";
			wh.cpu[i] = sc;
			/* half of the tasks get their own affinity: the start CPU plus random others */
			if (g_rand_boolean(rand)) {
				uint64_t m = UINT64_C(1) << sc;
				for (unsigned k = 0; k < 16; k++)
					if (g_rand_int_range(rand, 0, 4) == 0)
						m |= UINT64_C(1) << k;
				for (unsigned k = 0; k < 16; k++)
					if (m >> k & 1)
						g_snprintf(cpus + strlen(cpus), sizeof cpus - strlen(cpus), "%s%u", cpus[0] ? "," : "", k);
				wh.task_allowed[i] = m & allowed[0];
			}
			g_string_append_printf(y, "  - name: t%u\n    start_cpu: %d\n", i, sc);
			if (cpus[0])
				g_string_append_printf(y, "    cpus: \"%s\"\n", cpus);
			if (g_rand_boolean(rand))
				g_string_append(y, "    program: [{loop: {forever: true, do: [{run: 5ms}]}}]\n");
			else
				g_string_append(y, "    program: [{loop: {forever: true, do: [{run: {exponential: 300us}}, "
						   "{sleep: {exponential: 700us}}]}}]\n");
		}
		GError *err = NULL;
		struct ss_workload *w = ss_workload_load_string(y->str, y->len, "aff.yaml", &err);
		assert_non_null(w);
		struct ss_run_config c = config(t, w, 0, 60000000);
		c.seed = run + 1;
		c.nodes = nodes;
		c.on_migrate = on_migrate;
		c.trace_ctx = &wh;
		struct ss_results *r = ss_simulate(&c, &err);
		if (!r)
			fail_msg("%s", err->message);
		assert_int_equal(wh.bad, 0);
		balancer_moves += wh.moves - wh.by_cause[SS_MIG_WAKEUP];
		ss_results_free(r);
		ss_workload_free(w);
		g_string_free(y, TRUE);
	}
	assert_true(balancer_moves > 0);
	g_rand_free(rand);
	ss_topology_free(t);
}

/* Migrations are counted at the lowest domain spanning both CPUs, by cause. */
static void test_migration_levels(void **state)
{
	(void)state;
	struct ss_topology *t = topo(llc2_yaml);
	static const int start[6] = { 0, 0, 0, 0, 0, 0 };
	struct ss_workload *w = cpu_bound(6, start);
	struct ss_run_config c = config(t, w, 0, 200000000);
	GError *err = NULL;
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	uint64_t sum = 0, mc = 0, die = 0;
	for (unsigned k = 0; k < r->nr_level_keys; k++)
		for (unsigned i = 0; i < SS_MIG_NR; i++) {
			sum += r->migrations_by_level[k][i];
			if (!strcmp(r->level_name[k], "MC"))
				mc += r->migrations_by_level[k][i];
			if (!strcmp(r->level_name[k], "DIE"))
				die += r->migrations_by_level[k][i];
		}
	assert_int_equal(sum, r->migrations);
	assert_int_equal(die, r->migrations_llc);
	assert_true(mc > 0 && die > 0);
	/* 6 tasks on 8 CPUs in 2 LLCs end 3 + 3 */
	assert_int_equal(r->cpu[0].nr_running_ns + r->cpu[1].nr_running_ns + r->cpu[2].nr_running_ns +
				 r->cpu[3].nr_running_ns >= 2 * 200000000ull,
			 1);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * The two machines of the issue, all tasks started on CPU 0 (64 on
 * kunpeng920, 40 on xeon6148, CPU-bound). After 10 s: no CPU runs two tasks,
 * the nodes hold 16 ± 4 (kunpeng920) tasks (NUMA levels tolerate small
 * imbalances: halved sibling imbalances, imb_numa_nr), and on xeon6148 every core
 * holds exactly one task (the SMT split across the NUMA level needs active
 * balance: each node's CPUs hold a single task, so detach_tasks() cannot
 * move any). The figures of the whole run show it.
 */
static void test_machines_spread(void **state)
{
	(void)state;
	GError *err = NULL;
	struct ss_topology *k = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	struct ss_topology *x = ss_topology_load(SS_SOURCE_DIR "/topologies/xeon6148.yaml", &err);
	int start[64];
	assert_non_null(k);
	assert_non_null(x);
	for (unsigned i = 0; i < 64; i++)
		start[i] = 0;

	struct ss_workload *w = cpu_bound(64, start);
	struct ss_run_config c = config(k, w, 10000000000ull, 100000000);
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	for (unsigned d = 2; d < SS_RQ_DEPTH_MAX; d++)
		assert_int_equal(r->rq_depth_ns[d], 0);
	assert_int_equal(r->rq_depth_ns[1], 64 * 100000000ull);
	for (unsigned n = 0; n < 4; n++) {
		uint64_t sum = 0;
		for (unsigned cpu = 32 * n; cpu < 32 * n + 32; cpu++)
			sum += r->cpu[cpu].nr_running_ns;
		assert_true(sum >= 12 * 100000000ull && sum <= 20 * 100000000ull);
	}
	ss_results_free(r);
	/* from t = 0: the NOHZ balance and the stopper moved the tasks, CPUs sat idle with work elsewhere in their LLC */
	c.warmup_ns = 0;
	c.duration_ns = 2000000000ull;
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_true(r->migrations_by_cause[SS_MIG_NOHZ] > 0);
	assert_true(r->migrations_by_cause[SS_MIG_ACTIVE] > 0);
	assert_int_equal(r->migrations_by_cause[SS_MIG_WAKEUP], 0);
	assert_true(r->migrations_node > 0);
	assert_true(r->idle_work_llc_ns > 0);
	ss_results_free(r);
	ss_workload_free(w);

	w = cpu_bound(40, start);
	c = config(x, w, 10000000000ull, 100000000);
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	for (unsigned core = 0; core < 40; core++)   /* siblings n and n + 40 */
		assert_int_equal(r->cpu[core].nr_running_ns + r->cpu[core + 40].nr_running_ns, 100000000ull);
	assert_int_equal(r->migrations, 0);
	ss_results_free(r);
	c.warmup_ns = 0;
	c.duration_ns = 10000000000ull;
	r = ss_simulate(&c, &err);
	assert_non_null(r);
	assert_true(r->migrations_by_cause[SS_MIG_ACTIVE] > 0);
	assert_true(r->migrations_by_level[0][SS_MIG_NOHZ] > 0 || r->migrations_by_level[2][SS_MIG_NOHZ] > 0);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(k);
	ss_topology_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_classify),
		cmocka_unit_test(test_imbalance_prefer_sibling),
		cmocka_unit_test(test_imbalance_overloaded_single_cpu),
		cmocka_unit_test(test_imbalance_load),
		cmocka_unit_test(test_imbalance_smt_balance),
		cmocka_unit_test(test_spread_four),
		cmocka_unit_test(test_no_balance_no_spread),
		cmocka_unit_test(test_smt_split),
		cmocka_unit_test(test_newidle_pull),
		cmocka_unit_test(test_newidle_cache_hot),
		cmocka_unit_test(test_newidle_llc_only),
		cmocka_unit_test(test_affinity_randomized),
		cmocka_unit_test(test_migration_levels),
		cmocka_unit_test(test_machines_spread),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

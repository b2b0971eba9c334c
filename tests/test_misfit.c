/*
 * Misfit balancing (kernel v6.6 fair.c): update_misfit_status() marks a rq
 * whose current task does not fit its CPU (task_fits_cpu() /
 * util_fits_cpu() false), update_sg_lb_stats() makes its group
 * group_misfit_task at an SD_ASYM_CPUCAPACITY level, calculate_imbalance()
 * asks for migrate_misfit, find_busiest_queue() picks the rq with the
 * biggest misfit_task_load, and as the task runs alone there,
 * detach_tasks() moves nothing and need_active_balance() has the stopper
 * push it (active_load_balance_cpu_stop()). The big CPU must have room:
 * update_sd_pick_busiest() does not pick a misfit group a busy or no
 * bigger CPU cannot help.
 *
 * Machine: big CPUs 0-3 (capacity 1024), little CPUs 4-7 (446), one LLC,
 * as in test_asym.c. fits_capacity(util, 446): util × 1280 < 446 × 1024,
 * i.e. util ≤ 356.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ss_sched.h"
#include "simsched/error.h"

enum { has_spare, fully_busy, misfit_task, smt_balance, asym_packing, imbalanced, overloaded };
enum { mig_load, mig_util, mig_task, mig_misfit };

static const char bl8[] =
	"name: bl8\nvendor: arm\n"
	"llcs:\n"
	"  - clusters:\n"
	"      - {capacity: 1024, cores: \"0-3\"}\n"
	"      - {capacity: 446, cores: \"4-7\"}\n";

static struct ss_topology *load_bl8(void)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load_string(bl8, sizeof bl8 - 1, "bl8.yaml", &err);

	if (!t)
		fail_msg("%s", err->message);
	return t;
}

/*
 * CPU-bound tasks (10 ms bursts for ever): task i starts on start[i], after
 * start_after_ms[i] ms (0: at the start), on the CPUs of cpus (NULL: all).
 */
static struct ss_workload *cpu_bound(unsigned n, const int *start, const unsigned *start_after_ms, const char *cpus)
{
	GString *y = g_string_new("name: misfit\ninstance: group\n"
				  "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\ntasks:\n");
	GError *err = NULL;

	for (unsigned i = 0; i < n; i++) {
		g_string_append_printf(y, "  - name: t%u\n    start_cpu: %d\n", i, start[i]);
		if (start_after_ms && start_after_ms[i])
			g_string_append_printf(y, "    start_after: %ums\n", start_after_ms[i]);
		if (cpus)
			g_string_append_printf(y, "    cpus: \"%s\"\n", cpus);
		g_string_append(y, "    program: [{loop: {forever: true, do: [{run: 10ms}]}}]\n");
	}
	struct ss_workload *w = ss_workload_load_string(y->str, y->len, "misfit.yaml", &err);
	if (!w)
		fail_msg("%s", err->message);
	g_string_free(y, TRUE);
	return w;
}

static struct ss_run_config config(const struct ss_topology *t, const struct ss_workload *w, uint64_t duration)
{
	struct ss_run_config c = { 0 };

	c.topo = t;
	c.wl = w;
	c.policy = "sis_util";
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 1;   /* one instance */
	c.seed = 1;
	c.duration_ns = duration;
	return c;
}

/* The MC level (both capacities) of cpu. */
static unsigned mc_level(const struct ss_topology *t, unsigned cpu)
{
	for (unsigned l = 0; l < t->cpu[cpu].nr_sd; l++)
		if (t->cpu[cpu].sd[l].flags & SD_ASYM_CPUCAPACITY)
			return l;
	fail_msg("cpu %u has no SD_ASYM_CPUCAPACITY domain", cpu);
	return 0;
}

/*
 * The decision, step by step, on a state set by hand: the task on little
 * CPU 4 is misfit exactly when util_fits_cpu() is false there, and then an
 * idle big CPU's balance picks CPU 4 with migrate_misfit.
 */
static void test_misfit_detection(void **state)
{
	(void)state;
	struct ss_topology *t = load_bl8();
	static const int start[1] = { 4 };
	struct ss_workload *w = cpu_bound(1, start, NULL, NULL);
	struct ss_run_config c = config(t, w, 1000000);
	GError *err = NULL;
	struct ss_sim *sim = ss_sim_create(&c, &err);
	struct ss_lb_decision d;

	assert_non_null(sim);
	ss_sim_start(sim);
	assert_true(sim->asym_cpucapacity);
	struct ss_task *p = &sim->tasks[0];
	struct ss_rq *little = &sim->rq[4];
	assert_int_equal(p->cpu, 4);
	assert_int_equal(little->cfs.nr_running, 1);

	/* task_util_est() = max(util_avg, util_est): both at the threshold's two sides */
	memset(&p->avg.util_est, 0, sizeof p->avg.util_est);
	p->avg.util_avg = 356;   /* 356 × 1280 = 455680 < 446 × 1024 = 456704: fits */
	ss_update_misfit_status(sim, p, little);
	assert_int_equal(little->misfit_task_load, 0);
	p->avg.util_avg = 357;   /* 456960 > 456704: does not fit */
	ss_update_misfit_status(sim, p, little);
	assert_true(little->misfit_task_load > 0);
	assert_int_equal(little->misfit_task_load, p->avg.load_avg > 1 ? p->avg.load_avg : 1);
	/* util_est alone counts too (task_util_est is the max) */
	p->avg.util_avg = 100;
	p->avg.util_est.ewma = 600;
	ss_update_misfit_status(sim, p, little);
	assert_true(little->misfit_task_load > 0);
	/* the same task fits a big CPU; no task or a pinned one is never misfit */
	ss_update_misfit_status(sim, p, &sim->rq[0]);
	assert_int_equal(sim->rq[0].misfit_task_load, 0);
	ss_update_misfit_status(sim, NULL, &sim->rq[5]);
	assert_int_equal(sim->rq[5].misfit_task_load, 0);
	p->nr_cpus_allowed = 1;
	ss_update_misfit_status(sim, p, &sim->rq[6]);
	assert_int_equal(sim->rq[6].misfit_task_load, 0);
	p->nr_cpus_allowed = 8;
	ss_update_misfit_status(sim, p, little);
	assert_true(little->misfit_task_load > 0);

	/* idle big CPU 0 at MC: the little group is group_misfit_task, migrate_misfit, CPU 4 */
	ss_lb_inspect(sim, 0, mc_level(t, 0), CPU_IDLE, &d);
	assert_true(d.should_balance);
	assert_int_equal(d.local_type, has_spare);
	assert_int_equal(d.busiest_type, misfit_task);
	assert_int_equal(d.busiest_first_cpu, 4);
	assert_true(d.imbalanced);
	assert_int_equal(d.migration_type, mig_misfit);
	assert_int_equal(d.imbalance, 1);
	assert_int_equal(d.busiest_cpu, 4);
	/* an idle little CPU cannot help: capacity 446 is not greater than 446 */
	ss_lb_inspect(sim, 5, mc_level(t, 5), CPU_IDLE, &d);
	assert_false(d.imbalanced);
	/* without the misfit mark a lone task is balanced where it is */
	little->misfit_task_load = 0;
	ss_lb_inspect(sim, 0, mc_level(t, 0), CPU_IDLE, &d);
	assert_false(d.imbalanced);
	ss_sim_destroy(sim);
	ss_workload_free(w);
	ss_topology_free(t);
}

struct trace {
	int cpu[8];
	unsigned moves[8];
	unsigned cause[8];      /* cause of the last move */
	uint64_t when[8];       /* time of the first move */
	unsigned bad;
};

static void on_migrate(void *ctx, uint64_t now, unsigned task, unsigned from, unsigned to, unsigned cause)
{
	struct trace *tr = ctx;

	if (task >= 8)
		return;
	if (tr->cpu[task] != (int)from)
		tr->bad++;
	if (!tr->moves[task])
		tr->when[task] = now;
	tr->cpu[task] = (int)to;
	tr->moves[task]++;
	tr->cause[task] = cause;
}

/*
 * A CPU-bound task started alone on little CPU 4 of an idle machine: its
 * util_avg passes 356 after some 20 ms (the move comes at the next 4-ms tick,
 * 24 ms); the tick marks CPU 4 misfit, the
 * NOHZ kick (check_misfit_status()) has an idle big CPU balance, and the
 * stopper pushes the running task there. It then stays.
 */
static void test_misfit_moves_to_big(void **state)
{
	(void)state;
	struct ss_topology *t = load_bl8();
	static const int start[1] = { 4 };
	struct ss_workload *w = cpu_bound(1, start, NULL, NULL);
	struct ss_run_config c = config(t, w, 200000000);
	struct trace tr = { .cpu = { 4 } };
	GError *err = NULL;

	c.on_migrate = on_migrate;
	c.trace_ctx = &tr;
	struct ss_results *r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_int_equal(tr.bad, 0);
	assert_int_equal(tr.moves[0], 1);
	assert_int_equal(tr.cause[0], SS_MIG_ACTIVE);
	assert_true(tr.cpu[0] >= 0 && tr.cpu[0] < 4);
	/* not before util_avg can exceed 356: from 223 (post_init_entity_util_avg() on an
	 * idle 446 CPU) at the little CPU's pace it takes well over 10 ms */
	assert_true(tr.when[0] > 10000000);
	assert_true(tr.when[0] < 100000000);
	assert_int_equal(r->migrations_by_cause[SS_MIG_ACTIVE], 1);
	assert_int_equal(r->migrations, 1);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * The same task while every big CPU runs a CPU-bound task of its own: the
 * big group is fully busy (update_sd_pick_busiest() "Don't try to pull
 * misfit tasks we can't help"), and no little CPU is bigger. The misfit
 * task stays on CPU 4 and the big tasks stay where they are. The misfit
 * task starts after 200 ms, when the big tasks' util_avg has saturated
 * (before that the big group still has spare capacity by util, and v6.6
 * would pull it).
 */
static void test_misfit_stays_when_big_busy(void **state)
{
	(void)state;
	struct ss_topology *t = load_bl8();
	static const int start[5] = { 0, 1, 2, 3, 4 };
	static const unsigned after[5] = { 0, 0, 0, 0, 200 };
	struct ss_workload *w = cpu_bound(5, start, after, NULL);
	struct ss_run_config c = config(t, w, 400000000);
	struct trace tr = { .cpu = { 0, 1, 2, 3, 4 } };
	GError *err = NULL;

	c.on_migrate = on_migrate;
	c.trace_ctx = &tr;
	struct ss_results *r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_int_equal(tr.bad, 0);
	for (unsigned i = 0; i < 5; i++) {
		assert_int_equal(tr.moves[i], 0);
		assert_int_equal(tr.cpu[i], (int)i);
	}
	assert_int_equal(r->migrations, 0);
	ss_results_free(r);

	/* control: the same with one big CPU free (3 big tasks) moves it there, by the stopper */
	ss_workload_free(w);
	static const int start3[4] = { 0, 1, 2, 4 };
	static const unsigned after3[4] = { 0, 0, 0, 200 };
	w = cpu_bound(4, start3, after3, NULL);
	c = config(t, w, 400000000);
	memset(&tr, 0, sizeof tr);
	tr.cpu[0] = 0;
	tr.cpu[1] = 1;
	tr.cpu[2] = 2;
	tr.cpu[3] = 4;
	c.on_migrate = on_migrate;
	c.trace_ctx = &tr;
	r = ss_simulate(&c, &err);
	if (!r)
		fail_msg("%s", err->message);
	assert_int_equal(tr.bad, 0);
	assert_int_equal(tr.moves[3], 1);
	assert_int_equal(tr.cause[3], SS_MIG_ACTIVE);
	assert_int_equal(tr.cpu[3], 3);
	assert_true(tr.when[3] > 200000000);
	for (unsigned i = 0; i < 3; i++)
		assert_int_equal(tr.moves[i], 0);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_misfit_detection),
		cmocka_unit_test(test_misfit_moves_to_big),
		cmocka_unit_test(test_misfit_stays_when_big_busy),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

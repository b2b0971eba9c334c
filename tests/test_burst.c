/*
 * The burst policies of seeds/004 on a constructed state: burst_threshold
 * fires at exactly policy.tasks runnable tasks on new_cpu and then picks the
 * first idle, allowed CPU of nohz.idle_cpus_mask after new_cpu (wrapping).
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

/* two LLCs of four CPUs */
static const char topo_yaml[] = "name: two-llc\nvendor: arm\nllcs:\n  - cores: \"0-3\"\n  - cores: \"4-7\"\n";
static const char wl_yaml[] =
	"name: one\ninstance: task\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n  - name: t\n    start_cpu: 1\n    program: [loop: {forever: true, do: [run: 1ms, sleep: 1ms]}]\n";

struct fixture {
	struct ss_topology *t;
	struct ss_workload *w;
	struct ss_sim *sim;
	uint64_t allowed[1];
};

static struct ss_sim *make_sim(struct fixture *f, const char *policy, const char *set)
{
	GError *err = NULL;
	struct ss_run_config c = { 0 };
	c.topo = f->t;
	c.wl = f->w;
	c.policy = policy;
	ss_params_defaults(&c.params, f->t);
	if (set && !ss_params_set(&c.params, policy, set, &err))
		fail_msg("%s", err->message);
	c.load_pct_x100 = 10000;
	c.seed = 1;
	c.duration_ns = 1000000;
	struct ss_sim *sim = ss_sim_create(&c, &err);
	if (!sim)
		fail_msg("%s", err->message);
	return sim;
}

static int setup(void **state)
{
	GError *err = NULL;
	struct fixture *f = g_new0(struct fixture, 1);
	f->t = ss_topology_load_string(topo_yaml, sizeof topo_yaml - 1, "two-llc.yaml", &err);
	f->w = ss_workload_load_string(wl_yaml, sizeof wl_yaml - 1, "one.yaml", &err);
	*state = f;
	return !(f->t && f->w);
}

static int teardown(void **state)
{
	struct fixture *f = *state;
	ss_workload_free(f->w);
	ss_topology_free(f->t);
	g_free(f);
	return 0;
}

/*
 * LLC 0 (CPUs 0-3) busy: a timer wakeup of the task (prev 1) on CPU 1 gets
 * new_cpu = 1 from select_task_rq_fair(). CPU 1 holds `depth` runnable tasks.
 * LLC 1: CPU 4 is in the nohz mask but has a wakeup pending (not idle),
 * CPU 5 is idle but not allowed, CPUs 6 and 7 are idle and allowed.
 */
static int place(struct fixture *f, struct ss_sim *sim, unsigned depth)
{
	struct ss_task *p = &sim->tasks[0];
	static struct ss_task dummy;
	for (unsigned c = 0; c < 4; c++) {
		sim->rq[c].curr = &dummy;
		sim->rq[c].cfs.nr_running = 1;
		ss_cpumask_clear_cpu(sim->nohz_idle_cpus_mask, c);
	}
	sim->rq[1].cfs.nr_running = depth;
	sim->rq[4].ttwu_pending = 1;
	f->allowed[0] = 0xffu & ~(1u << 5);
	p->cpus_ptr = f->allowed;
	p->nr_cpus_allowed = 7;
	p->cpu = 1;
	p->recent_used_cpu = 1;
	sim->current = NULL;
	sim->this_cpu = 1;
	int cpu = sim->policy->select_task_rq(sim, p, 1, WF_TTWU);
	for (unsigned c = 0; c < 4; c++) {
		sim->rq[c].curr = NULL;
		sim->rq[c].cfs.nr_running = 0;
	}
	sim->rq[4].ttwu_pending = 0;
	return cpu;
}

static void test_burst_threshold_fires_at_tasks(void **state)
{
	struct fixture *f = *state;
	struct ss_sim *sim = make_sim(f, "burst_threshold", NULL);   /* policy.tasks = 2 */
	assert_int_equal(sim->policy_param[0], 2);
	assert_int_equal(place(f, sim, 1), 1);   /* below the threshold: new_cpu */
	assert_int_equal(place(f, sim, 2), 6);   /* at it: first idle allowed nohz CPU after 1 */
	assert_int_equal(place(f, sim, 5), 6);
	ss_sim_destroy(sim);

	sim = make_sim(f, "burst_threshold", "policy.tasks=4");
	assert_int_equal(place(f, sim, 3), 1);
	assert_int_equal(place(f, sim, 4), 6);
	/* with 6 busy too, the walk goes on to 7 */
	sim->rq[6].ttwu_pending = 1;
	assert_int_equal(place(f, sim, 4), 7);
	/* nothing idle and allowed: new_cpu stays */
	sim->rq[7].ttwu_pending = 1;
	assert_int_equal(place(f, sim, 4), 1);
	ss_sim_destroy(sim);
}

/*
 * The walk starts after new_cpu and wraps: LLC 1 (4-7) busy, the task's prev
 * is 6 and it holds `depth` tasks; 7 is busy, 0 is not allowed, 1 has a
 * wakeup pending: the first candidate after the wrap is 2.
 */
static void test_burst_threshold_wraps(void **state)
{
	struct fixture *f = *state;
	struct ss_sim *sim = make_sim(f, "burst_threshold", NULL);
	struct ss_task *p = &sim->tasks[0];
	static struct ss_task dummy;
	for (unsigned c = 4; c < 8; c++) {
		sim->rq[c].curr = &dummy;
		sim->rq[c].cfs.nr_running = 1;
		ss_cpumask_clear_cpu(sim->nohz_idle_cpus_mask, c);
	}
	sim->rq[6].cfs.nr_running = 3;
	sim->rq[1].ttwu_pending = 1;
	f->allowed[0] = 0xfeu;
	p->cpus_ptr = f->allowed;
	p->nr_cpus_allowed = 7;
	p->cpu = 6;
	p->recent_used_cpu = 6;
	sim->this_cpu = 6;
	assert_int_equal(sim->policy->select_task_rq(sim, p, 6, WF_TTWU), 2);
	ss_sim_destroy(sim);
}

struct avg_state {   /* the head of burst.c's struct avg_depth_state */
	uint64_t avg_x1024;
	bool valid;
};

/* burst_avg_depth fires at factor x the average depth and then distributes round robin. */
static void test_burst_avg_depth(void **state)
{
	struct fixture *f = *state;
	struct ss_sim *sim = make_sim(f, "burst_avg_depth", NULL);   /* factor 3, local = new_cpu */
	struct avg_state *st = sim->policy_state;
	assert_non_null(st);
	/* before any root-domain pass the average is floored at one task per CPU: fire at 3 */
	assert_int_equal(place(f, sim, 2), 1);
	assert_int_equal(place(f, sim, 3), 1);   /* fired: cpumask_any_distribute() after prev 0 is CPU 1 */
	/* average 2 tasks per CPU: fire at 6 */
	st->avg_x1024 = 2048;
	st->valid = true;
	assert_int_equal(place(f, sim, 5), 1);
	/* round robin over the allowed CPUs (5 is not allowed), after the previous answer 1 */
	static const int seq[] = { 2, 3, 4, 6, 7, 0, 1, 2 };
	for (unsigned i = 0; i < G_N_ELEMENTS(seq); i++)
		assert_int_equal(place(f, sim, 6), seq[i]);
	assert_int_equal(sim->res->policy_redirects, 0);   /* not measuring: no counting */
	/* the local CPU's periodic balance period was reset */
	const struct ss_cpu_topo *ct = &sim->topo->cpu[1];
	for (unsigned l = 0; l < ct->nr_sd; l++)
		assert_int_equal(sim->rq[1].sd_rt[l].balance_interval, ct->sd[l].min_interval);
	assert_int_equal(sim->rq[1].next_balance, ss_jiffies(sim));
	ss_sim_destroy(sim);
}

/* The root domain's periodic pass measures the mean nr_running; newidle passes and lower domains do not. */
static void test_burst_avg_depth_tracking(void **state)
{
	struct fixture *f = *state;
	struct ss_sim *sim = make_sim(f, "burst_avg_depth", "policy.avg_shift=1");
	struct avg_state *st = sim->policy_state;
	const struct ss_cpu_topo *ct = &sim->topo->cpu[0];
	const struct ss_sched_domain *top = &ct->sd[ct->nr_sd - 1], *low = &ct->sd[0];
	assert_null(top->parent);
	assert_non_null(low->parent);
	for (unsigned c = 0; c < 8; c++)
		sim->rq[c].cfs.nr_running = c < 4 ? 3 : 1;   /* mean 2 */
	sim->policy->update_lb_stats(sim, 0, low, CPU_IDLE, 0, 8192);
	assert_false(st->valid);
	sim->policy->update_lb_stats(sim, 0, top, CPU_NEWLY_IDLE, 0, 8192);
	assert_false(st->valid);
	sim->policy->update_lb_stats(sim, 0, top, CPU_NOT_IDLE, 0, 8192);
	assert_true(st->valid);
	assert_int_equal(st->avg_x1024, 2048);
	for (unsigned c = 0; c < 8; c++)
		sim->rq[c].cfs.nr_running = 4;
	sim->policy->update_lb_stats(sim, 0, top, CPU_IDLE, 0, 8192);
	assert_int_equal(st->avg_x1024, 2048 + (4096 - 2048) / 2);   /* EWMA weight 1/2 */
	for (unsigned c = 0; c < 8; c++)
		sim->rq[c].cfs.nr_running = 0;
	ss_sim_destroy(sim);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_burst_avg_depth),
		cmocka_unit_test(test_burst_avg_depth_tracking),
		cmocka_unit_test(test_burst_threshold_fires_at_tasks),
		cmocka_unit_test(test_burst_threshold_wraps),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}

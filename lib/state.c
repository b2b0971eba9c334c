/*
 * A constructed machine state and single placement steps on it
 * (simsched/state.h): a simulation set up by ss_sim_create() on a workload of
 * nr_tasks idle tasks, whose runqueues, tasks and LLC hints the setters
 * write, and whose probes ss_charge_probe() records while a step runs.
 */
#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "simsched/state.h"

struct ss_state_ext {
	struct ss_workload *wl;
	uint64_t *allowed;             /* nr_tasks × nr_words: the tasks' cpus_ptr */
	struct ss_task busy;           /* rq->curr of a CPU with nr_running > 0 */
	GArray *probes;                /* struct ss_probe of the step in progress */
	bool recording;
};

struct ss_sim *ss_state_new(const struct ss_state_config *cfg, GError **err)
{
	const struct ss_topology *t = cfg ? cfg->topo : NULL;
	struct ss_run_config rc = { 0 };
	struct ss_state_ext *x;
	struct ss_sim *sim;
	unsigned online, first, max_tasks;
	char *yaml;

	if (!t) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a state needs a topology");
		return NULL;
	}
	/* the tasks are instances of a workload: at most 1000 per online CPU (docs/workloads.md) */
	online = ss_cpumask_weight(t->active_mask, t->nr_words);
	max_tasks = MIN(SS_STATE_MAX_TASKS, 1000u * online);
	if (cfg->nr_tasks < 1 || cfg->nr_tasks > max_tasks) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "a state of %u tasks (expected 1..%u on %u online CPUs)",
			    cfg->nr_tasks, max_tasks, online);
		return NULL;
	}
	ss_params_defaults(&rc.params, t);
	for (const char *const *s = cfg->set; s && *s; s++)
		if (!ss_params_set(&rc.params, cfg->policy ? cfg->policy : "sis_util", *s, err))
			return NULL;
	/* a constructed state holds exactly the tasks it names: no kworkers of the background work */
	rc.params.background = 0;
	/* exactly nr_tasks instances of one idle task: instances = online × (nr_tasks / online) at 100 % */
	first = ss_cpumask_first(t->active_mask, t->nr_cpus);
	x = g_new0(struct ss_state_ext, 1);
	yaml = g_strdup_printf("name: state\ninstance: task\ninstances_per_cpu: %u/%u\n"
			       "metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
			       "tasks:\n  - name: t\n    program: [loop: {forever: true, do: [run: 1ms, sleep: 1ms]}]\n",
			       cfg->nr_tasks, online);
	x->wl = ss_workload_load_string(yaml, strlen(yaml), "<state>", err);
	g_free(yaml);
	if (!x->wl) {
		g_free(x);
		return NULL;
	}
	rc.topo = t;
	rc.wl = x->wl;
	rc.policy = cfg->policy;
	rc.sched_features = cfg->sched_features;
	rc.load_pct_x100 = 10000;
	rc.seed = 1;
	rc.duration_ns = 1000000;
	if (!(sim = ss_sim_create(&rc, err))) {
		ss_workload_free(x->wl);
		g_free(x);
		return NULL;
	}
	g_assert(sim->nr_tasks == cfg->nr_tasks);
	sim->state_ext = x;
	x->probes = g_array_sized_new(FALSE, FALSE, sizeof(struct ss_probe), sim->nr_cpus);
	x->allowed = g_new0(uint64_t, (size_t)sim->nr_tasks * sim->nr_words);
	x->busy.id = UINT32_MAX;
	x->busy.cpu = -1;
	for (unsigned i = 0; i < sim->nr_tasks; i++) {
		struct ss_task *p = &sim->tasks[i];
		uint64_t *m = x->allowed + (size_t)i * sim->nr_words;

		memcpy(m, t->active_mask, sim->nr_words * sizeof *m);
		p->cpus_ptr = m;
		p->nr_cpus_allowed = online;
		p->cpu = p->recent_used_cpu = (int)first;
		p->last_ran_cpu = (int)first;
	}
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		struct ss_cpu_desc idle = { .idle_state = -1 };
		if (ss_cpumask_test(t->active_mask, c))
			ss_state_set_cpu(sim, c, &idle, NULL);
	}
	for (unsigned c = 0; c < sim->nr_cpus; c++)
		if (ss_cpumask_test(t->active_mask, c))
			ss_state_set_llc(sim, c, ss_llc_size(sim, c), true);
	ss_state_set_waker(sim, first, -1);
	return sim;
}

void ss_state_free(struct ss_sim *sim)
{
	struct ss_state_ext *x;

	if (!sim)
		return;
	x = sim->state_ext;
	sim->state_ext = NULL;
	/* the runqueues point at x->busy: empty them before the simulation goes */
	for (unsigned c = 0; c < sim->nr_cpus; c++) {
		sim->rq[c].curr = NULL;
		sim->rq[c].cfs.nr_running = 0;
	}
	ss_sim_destroy(sim);
	if (x) {
		g_array_free(x->probes, TRUE);
		g_free(x->allowed);
		ss_workload_free(x->wl);
		g_free(x);
	}
}

static bool online_cpu(const struct ss_sim *sim, int cpu)
{
	return cpu >= 0 && (unsigned)cpu < sim->nr_cpus && ss_cpumask_test(sim->topo->active_mask, (unsigned)cpu);
}

bool ss_state_set_cpu(struct ss_sim *sim, unsigned cpu, const struct ss_cpu_desc *cs, GError **err)
{
	struct ss_rq *rq;

	if (!online_cpu(sim, (int)cpu)) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "CPU %u is not an online CPU of the machine", cpu);
		return false;
	}
	if (cs->util_avg > SS_SCHED_CAPACITY_SCALE || cs->util_est > SS_SCHED_CAPACITY_SCALE) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "CPU %u: util_avg %lu, util_est %lu (expected 0..1024)", cpu,
			    cs->util_avg, cs->util_est);
		return false;
	}
	if (cs->idle_state < -1 || cs->idle_state >= (int)sim->topo->nr_idle_states ||
	    (cs->idle_state >= 0 && cs->nr_running)) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "CPU %u: idle state %d (expected -1, or 0..%d for a CPU without tasks)", cpu, cs->idle_state,
			    (int)sim->topo->nr_idle_states - 1);
		return false;
	}
	rq = cpu_rq(sim, cpu);
	rq->curr = cs->nr_running ? &sim->state_ext->busy : NULL;
	rq->cfs.nr_running = cs->nr_running;
	rq->cfs_avg.avg.util_avg = cs->util_avg;
	rq->cfs_avg.avg.util_est.enqueued = (uint32_t)cs->util_est;
	rq->ttwu_pending = cs->ttwu_pending ? 1 : 0;
	rq->wake_inflight = 0;
	rq->claim_min = 0;                                   /* a pending wakeup is claimed already */
	ss_rq_line_write(sim, cpu, cpu);                     /* its owner just wrote it */
	rq->idle_state = (int8_t)cs->idle_state;
	if (cs->nr_running)
		ss_cpumask_clear_cpu(sim->nohz_idle_cpus_mask, cpu);
	else
		ss_cpumask_set(sim->nohz_idle_cpus_mask, cpu);
	return true;
}

void ss_state_set_llc(struct ss_sim *sim, unsigned cpu, unsigned nr_idle_scan, bool has_idle_cores)
{
	struct ss_sd_shared *sh;

	if (cpu >= sim->nr_cpus || !sd_llc(sim, cpu))
		return;
	sh = sd_llc_shared(sim, cpu);
	sh->nr_idle_scan = nr_idle_scan;
	sh->has_idle_cores = has_idle_cores;
}

bool ss_state_set_task(struct ss_sim *sim, unsigned id, const struct ss_task_desc *ts, GError **err)
{
	struct ss_task *p;
	uint64_t *m;
	unsigned n;

	if (id >= sim->nr_tasks) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "task %u of a state of %u tasks", id, sim->nr_tasks);
		return false;
	}
	if (!online_cpu(sim, ts->prev_cpu) || (ts->recent_used_cpu != -1 && !online_cpu(sim, ts->recent_used_cpu))) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "task %u: prev_cpu %d, recent_used_cpu %d (expected online CPUs; recent_used_cpu may be -1)", id,
			    ts->prev_cpu, ts->recent_used_cpu);
		return false;
	}
	if (ts->util_avg > SS_SCHED_CAPACITY_SCALE || ts->util_est > SS_SCHED_CAPACITY_SCALE) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "task %u: util_avg %lu, util_est %lu (expected 0..1024)", id,
			    ts->util_avg, ts->util_est);
		return false;
	}
	m = sim->state_ext->allowed + (size_t)id * sim->nr_words;
	n = 0;
	for (unsigned w = 0; w < sim->nr_words; w++)
		n += (unsigned)__builtin_popcountll((ts->allowed ? ts->allowed[w] : UINT64_MAX) &
						    sim->topo->active_mask[w]);
	if (!n) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "task %u: no online CPU is allowed", id);
		return false;
	}
	for (unsigned w = 0; w < sim->nr_words; w++)
		m[w] = (ts->allowed ? ts->allowed[w] : UINT64_MAX) & sim->topo->active_mask[w];
	p = &sim->tasks[id];
	p->nr_cpus_allowed = n;
	p->cpu = ts->prev_cpu;
	p->last_ran_cpu = ts->prev_cpu;
	p->recent_used_cpu = ts->recent_used_cpu == -1 ? ts->prev_cpu : ts->recent_used_cpu;
	p->avg.util_avg = ts->util_avg;
	p->avg.util_est.enqueued = (uint32_t)ts->util_est;
	p->avg.util_est.ewma = (uint32_t)ts->util_est;
	return true;
}

struct ss_task *ss_state_task(struct ss_sim *sim, unsigned id)
{
	return id < sim->nr_tasks ? &sim->tasks[id] : NULL;
}

void ss_state_set_waker(struct ss_sim *sim, unsigned cpu, int waker)
{
	sim->this_cpu = cpu < sim->nr_cpus ? cpu : 0;
	sim->current = waker >= 0 && (unsigned)waker < sim->nr_tasks ? &sim->tasks[waker] : NULL;
}

void ss_state_log_probe(struct ss_sim *sim, unsigned cpu, uint64_t cost_ns)
{
	struct ss_state_ext *x = sim->state_ext;
	struct ss_probe pr = { .cpu = cpu, .idle = ss_available_idle_cpu(sim, cpu),
			       .nr_running = sim->rq[cpu].cfs.nr_running, .cost_ns = cost_ns };

	if (x->recording)
		g_array_append_val(x->probes, pr);
}

static void step_begin(struct ss_sim *sim)
{
	g_array_set_size(sim->state_ext->probes, 0);
	sim->state_ext->recording = true;
	sim->scan_cost = 0;
	/* a step is one wakeup on its own: no transfer of another is queued at
	 * any line's home (the copies the waker read before stay valid) */
	if (sim->coherence)
		for (unsigned i = 0; i < sim->nr_cpus + sim->topo->nr_llc_shared; i++) {
			struct ss_cline *l = i < sim->nr_cpus ? &sim->cl_rq[i] : &sim->cl_llc[i - sim->nr_cpus];
			l->backlog = 0;
			l->t_last = 0;
		}
}

static int step_end(struct ss_sim *sim, int cpu, struct ss_placement *out)
{
	struct ss_state_ext *x = sim->state_ext;

	x->recording = false;
	if (out) {
		out->cpu = cpu;
		out->nr_probes = x->probes->len;
		out->probes = (const struct ss_probe *)(const void *)x->probes->data;
		out->scan_cost_ns = 0;
		for (unsigned i = 0; i < x->probes->len; i++)
			out->scan_cost_ns += out->probes[i].cost_ns;
	}
	return cpu;
}

int ss_state_select_task_rq(struct ss_sim *sim, unsigned id, int prev_cpu, int wake_flags, struct ss_placement *out)
{
	step_begin(sim);
	if (id >= sim->nr_tasks)
		return step_end(sim, -1, out);
	return step_end(sim, sim->policy->select_task_rq(sim, &sim->tasks[id], prev_cpu, wake_flags), out);
}

int ss_state_select_idle_sibling(struct ss_sim *sim, unsigned id, int prev, int target, struct ss_placement *out)
{
	step_begin(sim);
	if (id >= sim->nr_tasks || !online_cpu(sim, prev) || !online_cpu(sim, target))
		return step_end(sim, -1, out);
	return step_end(sim, ss_select_idle_sibling(sim, &sim->tasks[id], prev, target), out);
}

int ss_state_select_idle_cpu(struct ss_sim *sim, unsigned id, int target, bool has_idle_core, struct ss_placement *out)
{
	const struct ss_sched_domain *sd;

	step_begin(sim);
	if (id >= sim->nr_tasks || !online_cpu(sim, target) || !(sd = sd_llc(sim, (unsigned)target)))
		return step_end(sim, -1, out);
	return step_end(sim, ss_select_idle_cpu(sim, &sim->tasks[id], sd, has_idle_core, target), out);
}

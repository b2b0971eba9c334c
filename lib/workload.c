/*
 * workload.c — workloads: distributions, instantiation at a load level and
 * the interpreter the simulator calls for a task's next action.
 *
 * The file format and its compilation live in workload_yaml.c; the compiled
 * form in workload_priv.h. Format reference: docs/workloads.md.
 */
#include <math.h>
#include <string.h>

#include "simsched/error.h"
#include "simsched/workload.h"
#include "workload_priv.h"

_Static_assert(sizeof(struct ss_wl_cursor) <= 24, "the cursor is part of every task: keep it small");

/*
 * CONST: a. EXP: round(-mean * ln(1 - u)), u in [0, 1) from the task's
 * stream (inverse transform), at least 1 ns. UNIFORM: a + [0, b - a].
 * Only C11 double arithmetic on one libm call, with -ffp-contract=off, so
 * the same stream gives the same durations on every run.
 */
/* A drawn real number of ns, rounded half away from zero, clamped into 1..SS_WL_MAX_DURATION_NS. */
static uint64_t to_ns(double x)
{
	x = round(x);
	if (!(x >= 1.0))   /* also NaN */
		return 1;
	if (x >= (double)SS_WL_MAX_DURATION_NS)
		return SS_WL_MAX_DURATION_NS;
	return (uint64_t)x;
}

/*
 * A standard normal deviate by the Box-Muller transform from two uniforms
 * of the task's stream (always two draws, so the stream advances the same
 * way whatever the values): z = sqrt(-2 ln(1 - u1)) cos(2 pi u2).
 */
static double std_normal(struct ss_rng *r)
{
	double u1 = ss_rng_double(r), u2 = ss_rng_double(r);

	return sqrt(-2.0 * log(1.0 - u1)) * cos(6.283185307179586 * u2);
}

/* The draw itself, inlined into the interpreter (ss_wl_next runs once per action). */
static inline uint64_t dist_draw(const struct ss_dist *d, struct ss_rng *r)
{
	switch (d->kind) {
	case SS_DIST_CONST:
		return d->a;
	case SS_DIST_EXP: {
		double u = ss_rng_double(r);
		double x = round(-(double)d->a * log(1.0 - u));

		if (!(x >= 1.0))
			return 1;
		if (x >= 18446744073709551616.0) /* 2^64 */
			return UINT64_MAX;
		return (uint64_t)x;
	}
	case SS_DIST_UNIFORM: {
		uint64_t n;

		if (d->b < d->a)
			return d->a;
		n = d->b - d->a + 1;
		if (n == 0) /* [0, UINT64_MAX] */
			return ss_rng_next(r);
		return d->a + ss_rng_below(r, n);
	}
	case SS_DIST_NORMAL:
		return to_ns((double)d->a + (double)d->b * std_normal(r));
	case SS_DIST_LOGNORMAL: {
		/* mean m and standard deviation s of the value itself:
		 * sigma^2 = ln(1 + s^2/m^2), mu = ln(m) - sigma^2/2 */
		double m = (double)d->a, sd = (double)d->b;
		double s2 = log(1.0 + (sd * sd) / (m * m));
		double mu = log(m) - s2 / 2.0;

		return to_ns(exp(mu + sqrt(s2) * std_normal(r)));
	}
	case SS_DIST_EMPIRICAL: {
		uint64_t x;

		if (!d->nr_bins || !d->a)
			return 1;
		x = ss_rng_below(r, d->a);
		for (uint32_t i = 0; i < d->nr_bins; i++) {
			if (x < d->bins[i].weight)
				return d->bins[i].ns;
			x -= d->bins[i].weight;
		}
		return d->bins[d->nr_bins - 1].ns;
	}
	}
	return d->a;
}

uint64_t ss_dist_draw(const struct ss_dist *d, struct ss_rng *r)
{
	return dist_draw(d, r);
}

static void role_clear(struct ss_wl_role *r)
{
	g_free(r->name);
	g_free(r->insn);
	g_free(r->cpus);
	g_free(r->cpus_at);
	g_free(r->mem_node_at);
	g_free(r->start_cpu_at);
}

void ss_workload_free(struct ss_workload *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < w->nr_roles; i++)
		role_clear(&w->role[i]);
	g_free(w->role);
	for (unsigned i = 0; i < w->nr_cpusets; i++) {
		g_free(w->cpusets[i]);
		g_free(w->cpuset_at[i]);
	}
	g_free(w->cpusets);
	g_free(w->cpuset_at);
	for (unsigned i = 0; i < w->nr_sync; i++)
		g_free(w->sync[i].name);
	g_free(w->sync);
	if (w->tables)
		g_ptr_array_free(w->tables, TRUE);
	g_free(w->metric_roles);
	for (unsigned i = 0; i < w->nr_params; i++) {
		g_free(w->params[i].name);
		g_free(w->params[i].description);
	}
	g_free(w->params);
	g_free(w->name);
	g_free(w->description);
	g_free(w->source);
	g_free(w->instance);
	g_free(w->metric_name);
	g_free(w->metric_unit);
	g_strfreev(w->warnings);
	g_free(w);
}

const char *ss_workload_name(const struct ss_workload *w)
{
	return w->name;
}

const char *ss_workload_instance_unit(const struct ss_workload *w)
{
	return w->instance;
}

const char *ss_workload_description(const struct ss_workload *w)
{
	return w->description;
}

const char *ss_workload_source(const struct ss_workload *w)
{
	return w->source;
}

const struct ss_wl_metric *ss_workload_metric(const struct ss_workload *w)
{
	return &w->metric;
}

unsigned ss_workload_nr_roles(const struct ss_workload *w)
{
	return w->nr_roles;
}

const char *ss_workload_role_where(const struct ss_workload *w, unsigned role, enum ss_wl_field field)
{
	if (!w || role >= w->nr_roles)
		return NULL;
	return field == SS_WL_FIELD_CPUS ? w->role[role].cpus_at
	       : field == SS_WL_FIELD_START_CPU ? w->role[role].start_cpu_at : w->role[role].mem_node_at;
}

unsigned ss_workload_nr_cpusets(const struct ss_workload *w)
{
	return w ? w->nr_cpusets : 0;
}

const char *ss_workload_cpuset(const struct ss_workload *w, unsigned set, const char **at)
{
	if (!w || set >= w->nr_cpusets)
		return NULL;
	if (at)
		*at = w->cpuset_at[set];
	return w->cpusets[set];
}

const char *ss_workload_role_name(const struct ss_workload *w, unsigned role)
{
	return role < w->nr_roles ? w->role[role].name : NULL;
}

void ss_workload_wakeable_roles(const struct ss_workload *w, bool *wakeable)
{
	for (unsigned r = 0; r < w->nr_roles; r++)
		wakeable[r] = false;
	for (unsigned r = 0; r < w->nr_roles; r++)
		for (uint32_t i = 0; i < w->role[r].nr_insn; i++) {
			const struct ss_wl_insn *in = &w->role[r].insn[i];
			if (in->op == SS_OP_WAKE && in->arg < w->nr_roles)
				wakeable[in->arg] = true;
		}
}

unsigned ss_workload_tasks_per_instance(const struct ss_workload *w)
{
	return w->tasks_per_instance;
}

unsigned ss_workload_instances_per_cpu_x1000(const struct ss_workload *w)
{
	uint32_t div = w->ipc_div ? w->ipc_div : 1;

	return (unsigned)((w->ipc_x1000 + div / 2) / div);
}

unsigned ss_workload_nr_params(const struct ss_workload *w)
{
	return w ? w->nr_params : 0;
}

const struct ss_wl_param *ss_workload_param(const struct ss_workload *w, unsigned i)
{
	return w && i < w->nr_params ? &w->params[i] : NULL;
}

struct ss_wl_plan *ss_workload_instantiate(const struct ss_workload *w, unsigned load_pct_x100,
					   unsigned nr_cpus, GError **err)
{
	/* instances = round(load_pct_x100 * nr_cpus * ipc_x1000 / (10000 * 1000 * ipc_div)), half up */
	const uint64_t den = UINT64_C(10000) * 1000 * (w && w->ipc_div ? w->ipc_div : 1);
	struct ss_wl_plan *p;
	uint64_t x, inst;
	unsigned t = 0;

	if (!w) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "no workload to instantiate");
		return NULL;
	}
	if (load_pct_x100 == 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "workload '%s': load 0 %% (expected a load greater than 0 %%)", w->name);
		return NULL;
	}
	if (nr_cpus == 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "workload '%s': no allowed CPU (expected at least one)", w->name);
		return NULL;
	}
	x = (uint64_t)load_pct_x100 * (w->per_machine ? 1 : nr_cpus); /* < 2^64: both factors < 2^32 */
	if (x > (UINT64_MAX - den / 2) / w->ipc_x1000)
		inst = UINT64_MAX;
	else
		inst = (x * w->ipc_x1000 + den / 2) / den;
	if (inst < 1)
		inst = 1;
	if (inst > SS_WL_MAX_TASKS / w->tasks_per_instance) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "workload '%s': %u.%02u %% of %u CPUs is too many %ss (expected at most %u tasks, %u per %s)",
			    w->name, load_pct_x100 / 100, load_pct_x100 % 100, nr_cpus, w->instance,
			    SS_WL_MAX_TASKS, w->tasks_per_instance, w->instance);
		return NULL;
	}
	if (inst * w->tasks_per_instance * (uint64_t)SS_WL_TASK_BYTES > SS_WL_MAX_TASK_MEMORY) {
		uint64_t n = inst * w->tasks_per_instance;
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "workload '%s': %" G_GUINT64_FORMAT " tasks need about %.1f GiB (expected at most %u GiB for "
			    "the tasks of a run, %u bytes each: at most %" G_GUINT64_FORMAT " tasks; a lower --load)",
			    w->name, n, (double)n * SS_WL_TASK_BYTES / (double)(1u << 30),
			    (unsigned)(SS_WL_MAX_TASK_MEMORY >> 30), SS_WL_TASK_BYTES,
			    SS_WL_MAX_TASK_MEMORY / SS_WL_TASK_BYTES);
		return NULL;
	}

	p = g_new0(struct ss_wl_plan, 1);
	p->wl = w;
	p->nr_instances = (unsigned)inst;
	p->tasks_per_instance = w->tasks_per_instance;
	p->nr_tasks = p->nr_instances * w->tasks_per_instance;
	p->task = g_new0(struct ss_wl_task, p->nr_tasks);
	p->prog = g_new0(struct ss_wl_prog, p->nr_tasks);
	p->nr_sync = p->nr_instances * w->nr_local_sync + (w->nr_sync - w->nr_local_sync);
	p->sync_parties = g_new0(uint32_t, p->nr_sync ? p->nr_sync : 1);
	for (unsigned s = 0; s < w->nr_sync; s++) {
		const struct ss_wl_sync *so = &w->sync[s];

		if (!so->barrier)
			continue;
		if (so->shared)
			p->sync_parties[p->nr_instances * w->nr_local_sync + (s - w->nr_local_sync)] =
				so->parties * p->nr_instances;
		else
			for (unsigned i = 0; i < p->nr_instances; i++)
				p->sync_parties[i * w->nr_local_sync + s] = so->parties;
	}
	for (unsigned i = 0; i < p->nr_instances; i++) {
		for (unsigned r = 0; r < w->nr_roles; r++) {
		for (unsigned k = 0; k < w->role[r].count; k++, t++) {
			const struct ss_wl_role *role = &w->role[r];
			struct ss_wl_task *task = &p->task[t];

			if (role->count > 1)
				task->path = g_strdup_printf("%s[%u]/%s[%u]", w->instance, i, role->name, k);
			else
				task->path = g_strdup_printf("%s[%u]/%s", w->instance, i, role->name);
			task->role = r;
			task->instance = i;
			task->replica = k;
			p->prog[t] = (struct ss_wl_prog){ .insn = role->insn, .nr_insn = role->nr_insn, .instance = i,
							  .replica = k, .inst_base = i * p->tasks_per_instance };
			task->spawned = role->spawned;
			task->start_after_ns = role->start_after_ns;
			task->stop_after_ns = role->stop_after_ns;
			task->cpus = role->cpus;
			task->channel_capacity = role->channel_capacity;
			task->nice = role->nice;
			task->working_set_kib = role->working_set_kib;
			task->mem_bw_mbps = role->mem_bw_mbps;
			task->mem_node = role->mem_node;
			switch (role->start) {
			case SS_START_ANY:
				task->start_cpu = SS_WL_START_FORK;
				break;
			case SS_START_SPREAD:
				task->start_cpu = SS_WL_START_SPREAD;
				break;
			case SS_START_CPU:
				task->start_cpu = (int)role->start_add;
				break;
			case SS_START_INSTANCE:
				task->start_cpu = (int)(((uint64_t)role->start_mul * i + role->start_add) % nr_cpus);
				task->start_cpu_is_index = true;
				break;
			}
		}
		}
	}
	return p;
}

void ss_wl_plan_add_kthreads(struct ss_wl_plan *p, const unsigned *cpus, unsigned nr, const struct ss_wl_insn *insn,
			     uint32_t nr_insn)
{
	unsigned base = p->nr_tasks;

	if (!nr)
		return;
	p->task = g_renew(struct ss_wl_task, p->task, base + nr);
	p->prog = g_renew(struct ss_wl_prog, p->prog, base + nr);
	memset(&p->task[base], 0, nr * sizeof *p->task);
	for (unsigned k = 0; k < nr; k++) {
		struct ss_wl_task *task = &p->task[base + k];

		/* comm of a per-CPU bound kworker of pool 0 (kernel/workqueue.c create_worker(): "kworker/%d:%d") */
		task->path = g_strdup_printf("kworker/%u:1", cpus[k]);
		task->role = SS_WL_ROLE_KTHREAD;
		task->kthread = true;
		task->start_cpu = (int)cpus[k];
		task->mem_node = -1;
		p->prog[base + k] = (struct ss_wl_prog){ .insn = insn, .nr_insn = nr_insn };
	}
	p->nr_tasks = base + nr;
}

void ss_wl_plan_free(struct ss_wl_plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr_tasks; i++)
		g_free(p->task[i].path);
	g_free(p->task);
	g_free(p->prog);
	g_free(p->sync_parties);
	g_free(p);
}

void ss_wl_cursor_init(struct ss_wl_cursor *c)
{
	memset(c, 0, sizeof(*c));
}

/* The plan's slot of sync object id of the workload: one per instance, or the shared one. */
static inline uint32_t sync_slot(const struct ss_wl_plan *p, const struct ss_wl_prog *t, uint32_t id)
{
	const struct ss_workload *w = p->wl;

	if (id < w->nr_local_sync)
		return t->instance * w->nr_local_sync + id;
	return p->nr_instances * w->nr_local_sync + (id - w->nr_local_sync);
}

/*
 * Loops: LOOP pushes its iteration count, ENDLOOP decrements it and jumps
 * back to the body or pops. The loader guarantees every loop body holds an
 * action (it even requires a run, sleep or wait), so this returns after a
 * bounded number of steps. A cursor that does not fit the program (e.g. a
 * cursor of another role) ends the program instead of reading out of bounds.
 */
void ss_wl_next(const struct ss_wl_plan *p, uint32_t task, struct ss_wl_cursor *c, struct ss_rng *rng,
		struct ss_wl_action *out)
{
	const struct ss_wl_prog *t;

	*out = (struct ss_wl_action){ .kind = SS_ACT_EXIT, .pick = SS_PICK_ONE };
	if (!p || task >= p->nr_tasks)
		return;
	t = &p->prog[task];

	for (;;) {
		const struct ss_wl_insn *in;
		uint32_t *left;

		if (c->pc >= t->nr_insn)
			return;
		in = &t->insn[c->pc];
		switch ((enum ss_wl_op)in->op) {
		case SS_OP_RUN:
		case SS_OP_SLEEP:
		case SS_OP_RUN_WALL:
			out->kind = in->op == SS_OP_RUN ? SS_ACT_RUN : in->op == SS_OP_SLEEP ? SS_ACT_SLEEP : SS_ACT_RUN_WALL;
			out->ns = dist_draw(&in->dist, rng);
			c->pc++;
			return;
		case SS_OP_WAKE:
		case SS_OP_SEND: {
			const struct ss_wl_role *tr = &p->wl->role[in->arg];
			uint32_t base = t->inst_base + tr->first;

			out->kind = in->op == SS_OP_WAKE ? SS_ACT_WAKE : SS_ACT_SEND;
			out->sync = in->sync;
			out->if_waiting = in->if_waiting;
			out->target = base;
			out->nr = tr->count;
			switch ((enum ss_wl_which)in->which) {
			case SS_WHICH_SAME:
				out->target = base + t->replica % tr->count;
				break;
			case SS_WHICH_INDEX:
				out->target = base + in->index;
				break;
			case SS_WHICH_RANDOM:
				out->target = base + (uint32_t)ss_rng_below(rng, tr->count);
				break;
			case SS_WHICH_ALL:
				out->pick = SS_PICK_ALL;
				break;
			case SS_WHICH_RR:
				out->pick = SS_PICK_RR;
				break;
			}
			if (out->pick == SS_PICK_ONE)
				out->nr = 1;
			c->pc++;
			return;
		}
		case SS_OP_RECV:
			out->kind = SS_ACT_RECV;
			out->count = in->arg;
			c->pc++;
			return;
		case SS_OP_LOCK:
		case SS_OP_UNLOCK:
		case SS_OP_BARRIER:
			out->kind = in->op == SS_OP_LOCK ? SS_ACT_LOCK : in->op == SS_OP_UNLOCK ? SS_ACT_UNLOCK : SS_ACT_BARRIER;
			out->target = sync_slot(p, t, in->arg);
			out->count = p->sync_parties[out->target];
			c->pc++;
			return;
		case SS_OP_COND_WAIT:
		case SS_OP_COND_SIGNAL:
		case SS_OP_COND_BROADCAST:
			out->kind = in->op == SS_OP_COND_WAIT ? SS_ACT_COND_WAIT : in->op == SS_OP_COND_SIGNAL ?
				    SS_ACT_COND_SIGNAL : SS_ACT_COND_BROADCAST;
			out->target = sync_slot(p, t, in->arg);
			if (in->op == SS_OP_COND_WAIT && in->index)
				out->nr = sync_slot(p, t, in->index - 1) + 1;
			c->pc++;
			return;
		case SS_OP_YIELD:
			out->kind = SS_ACT_YIELD;
			c->pc++;
			return;
		case SS_OP_EXEC:
			out->kind = SS_ACT_EXEC;
			c->pc++;
			return;
		case SS_OP_SET_CPUS:
			out->kind = SS_ACT_SET_CPUS;
			out->target = in->arg <= p->wl->nr_cpusets ? in->arg : 0;
			c->pc++;
			return;
		case SS_OP_SEM_POST:
		case SS_OP_SEM_WAIT:
			out->kind = in->op == SS_OP_SEM_POST ? SS_ACT_SEM_POST : SS_ACT_SEM_WAIT;
			out->target = sync_slot(p, t, in->arg);
			c->pc++;
			return;
		case SS_OP_TIMER:
			out->kind = SS_ACT_TIMER;
			out->ns = in->dist.a;
			out->count = in->index;
			out->anchor_ns = in->dist.b;
			if (in->index & SS_TIMER_SHARED)
				out->target = sync_slot(p, t, in->arg);
			c->pc++;
			return;
		case SS_OP_SPAWN: {
			const struct ss_wl_role *tr = &p->wl->role[in->arg];

			out->kind = SS_ACT_SPAWN;
			out->target = t->inst_base + tr->first;
			out->nr = tr->count;
			out->count = in->index;
			c->pc++;
			return;
		}
		case SS_OP_EXIT:
			c->pc = (uint16_t)t->nr_insn;
			c->depth = 0;
			return;
		case SS_OP_WAIT:
			out->kind = SS_ACT_WAIT;
			out->count = in->arg;
			c->pc++;
			return;
		case SS_OP_TXN_BEGIN:
		case SS_OP_TXN_END:
			out->kind = in->op == SS_OP_TXN_BEGIN ? SS_ACT_TXN_BEGIN : SS_ACT_TXN_END;
			c->pc++;
			return;
		case SS_OP_LOOP:
			if (c->depth >= SS_WL_MAX_LOOP_DEPTH)
				goto corrupt;
			c->loop_left[c->depth++] = in->arg;
			c->pc++;
			break;
		case SS_OP_ENDLOOP:
			if (c->depth == 0 || in->arg >= c->pc)
				goto corrupt;
			left = &c->loop_left[c->depth - 1];
			if (*left != SS_WL_FOREVER && (*left == 0 || --*left == 0)) {
				c->depth--;
				c->pc++;
			} else {
				c->pc = (uint16_t)in->arg;
			}
			break;
		default:
			goto corrupt;
		}
	}
corrupt:
	c->pc = (uint16_t)t->nr_insn;
	c->depth = 0;
}

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
uint64_t ss_dist_draw(const struct ss_dist *d, struct ss_rng *r)
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
	}
	return d->a;
}

static void role_clear(struct ss_wl_role *r)
{
	g_free(r->name);
	g_free(r->insn);
}

void ss_workload_free(struct ss_workload *w)
{
	if (!w)
		return;
	for (unsigned i = 0; i < w->nr_roles; i++)
		role_clear(&w->role[i]);
	g_free(w->role);
	g_free(w->name);
	g_free(w->description);
	g_free(w->source);
	g_free(w->instance);
	g_free(w->metric_name);
	g_free(w->metric_unit);
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

const char *ss_workload_role_name(const struct ss_workload *w, unsigned role)
{
	return role < w->nr_roles ? w->role[role].name : NULL;
}

unsigned ss_workload_instances_per_cpu_x1000(const struct ss_workload *w)
{
	return w->ipc_x1000;
}

struct ss_wl_plan *ss_workload_instantiate(const struct ss_workload *w, unsigned load_pct_x100,
					   unsigned nr_cpus, GError **err)
{
	/* instances = round(load_pct_x100 * nr_cpus * ipc_x1000 / (10000 * 1000)), half up */
	const uint64_t den = UINT64_C(10000) * 1000;
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
	x = (uint64_t)load_pct_x100 * nr_cpus; /* < 2^64: both factors < 2^32 */
	if (x > (UINT64_MAX - den / 2) / w->ipc_x1000)
		inst = UINT64_MAX;
	else
		inst = (x * w->ipc_x1000 + den / 2) / den;
	if (inst < 1)
		inst = 1;
	if (inst > SS_WL_MAX_TASKS / w->nr_roles) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "workload '%s': %u.%02u %% of %u CPUs is too many %ss (expected at most %u tasks, %u per %s)",
			    w->name, load_pct_x100 / 100, load_pct_x100 % 100, nr_cpus, w->instance,
			    SS_WL_MAX_TASKS, w->nr_roles, w->instance);
		return NULL;
	}

	p = g_new0(struct ss_wl_plan, 1);
	p->wl = w;
	p->nr_instances = (unsigned)inst;
	p->nr_tasks = p->nr_instances * w->nr_roles;
	p->task = g_new0(struct ss_wl_task, p->nr_tasks);
	for (unsigned i = 0; i < p->nr_instances; i++) {
		for (unsigned r = 0; r < w->nr_roles; r++, t++) {
			const struct ss_wl_role *role = &w->role[r];
			struct ss_wl_task *task = &p->task[t];

			task->path = g_strdup_printf("%s[%u]/%s", w->instance, i, role->name);
			task->role = r;
			task->instance = i;
			task->nice = role->nice;
			task->working_set_kib = role->working_set_kib;
			task->mem_bw_mbps = role->mem_bw_mbps;
			task->mem_node = role->mem_node;
			switch (role->start) {
			case SS_START_ANY:
				task->start_cpu = -1;
				break;
			case SS_START_CPU:
				task->start_cpu = (int)role->start_add;
				break;
			case SS_START_INSTANCE:
				task->start_cpu = (int)(((uint64_t)role->start_mul * i + role->start_add) % nr_cpus);
				break;
			}
		}
	}
	return p;
}

void ss_wl_plan_free(struct ss_wl_plan *p)
{
	if (!p)
		return;
	for (unsigned i = 0; i < p->nr_tasks; i++)
		g_free(p->task[i].path);
	g_free(p->task);
	g_free(p);
}

void ss_wl_cursor_init(struct ss_wl_cursor *c)
{
	memset(c, 0, sizeof(*c));
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
	const struct ss_wl_role *role;
	const struct ss_wl_task *t;

	out->kind = SS_ACT_EXIT;
	out->sync = false;
	out->target = 0;
	out->count = 0;
	out->ns = 0;
	if (!p || task >= p->nr_tasks)
		return;
	t = &p->task[task];
	role = &p->wl->role[t->role];

	for (;;) {
		const struct ss_wl_insn *in;
		uint32_t *left;

		if (c->pc >= role->nr_insn)
			return;
		in = &role->insn[c->pc];
		switch ((enum ss_wl_op)in->op) {
		case SS_OP_RUN:
		case SS_OP_SLEEP:
			out->kind = in->op == SS_OP_RUN ? SS_ACT_RUN : SS_ACT_SLEEP;
			out->ns = ss_dist_draw(&in->dist, rng);
			c->pc++;
			return;
		case SS_OP_WAKE:
			out->kind = SS_ACT_WAKE;
			out->sync = in->sync;
			out->target = t->instance * p->wl->nr_roles + in->arg;
			c->pc++;
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
	c->pc = (uint16_t)role->nr_insn;
	c->depth = 0;
}

/*
 * experiment.c — experiment files (docs/experiments.md) into struct
 * ss_experiment, with file:line:col errors like every other input, and the
 * load-unit → --load derivation.
 */
#include "ss_yaml.h"
#include "simsched/experiment.h"
#include "simsched/error.h"
#include "simsched/params.h"
#include "simsched/sim.h"
#include "simsched/topology.h"
#include "simsched/workload.h"
#include "simsched/compare.h"
#include "simsched/policy.h"
#include "ss_input.h"
#include "ss_sched.h"
#include "workload_priv.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

struct xctx {
	const char *file;
	yaml_document_t *doc;
	GError **err;
	struct ss_experiment *x;
};

static bool fail(struct xctx *c, const yaml_node_t *n, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static bool fail(struct xctx *c, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	yaml_mark_t m = n ? n->start_mark : (yaml_mark_t){ 0, 0, 0 };
	g_set_error(c->err, SS_ERROR, SS_ERROR_INVALID, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, msg);
	g_free(msg);
	return false;
}

static yaml_node_t *nd(struct xctx *c, int i)
{
	return yaml_document_get_node(c->doc, i);
}

/* The values of a mapping's known keys into v[] (NULL when absent); unknown or repeated keys are errors. */
static bool take_keys(struct xctx *c, yaml_node_t *m, const char *what, const char *const *keys, yaml_node_t **v)
{
	unsigned n = 0;
	while (keys[n])
		v[n++] = NULL;
	if (m->type != YAML_MAPPING_NODE)
		return fail(c, m, "%s is %s (expected a mapping)", what, ss_yaml_kind_name(m));
	for (yaml_node_pair_t *p = m->data.mapping.pairs.start; p < m->data.mapping.pairs.top; p++) {
		yaml_node_t *k = nd(c, p->key);
		unsigned i;
		if (k->type != YAML_SCALAR_NODE)
			return fail(c, k, "a key of %s is %s (expected a plain key)", what, ss_yaml_kind_name(k));
		for (i = 0; keys[i] && strcmp(keys[i], ss_yaml_sval(k)); i++)
			;
		if (!keys[i]) {
			g_autofree char *list = g_strjoinv(", ", (char **)keys);
			return fail(c, k, "unknown key '%.*s' in %s (expected one of: %s)", ss_yaml_slen(k), ss_yaml_sval(k),
				    what, list);
		}
		if (v[i])
			return fail(c, k, "duplicate key '%s' in %s (expected each key once)", keys[i], what);
		v[i] = nd(c, p->value);
	}
	return true;
}

static bool want_str(struct xctx *c, yaml_node_t *n, const char *what, char **out)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n, "%s is %s (expected text)", what, ss_yaml_kind_name(n));
	if (strlen(ss_yaml_sval(n)) != n->data.scalar.length || !ss_yaml_sval(n)[0])
		return fail(c, n, "%s is empty or holds a NUL character (expected text)", what);
	g_free(*out);
	*out = g_strdup(ss_yaml_sval(n));
	return true;
}

static bool want_num(struct xctx *c, yaml_node_t *n, const char *what, double lo, double hi, double *out)
{
	char *end;
	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n, "%s is %s (expected a number)", what, ss_yaml_kind_name(n));
	const char *s = ss_yaml_sval(n);
	double v = g_ascii_strtod(s, &end);
	if (end == s || *end || !isfinite(v) || v < lo || v > hi)
		return fail(c, n, "%s is '%.*s' (expected a number in %g..%g)", what, ss_yaml_slen(n), s, lo, hi);
	*out = v;
	return true;
}

static bool want_uint(struct xctx *c, yaml_node_t *n, const char *what, uint64_t lo, uint64_t hi, uint64_t *out)
{
	guint64 v;
	if (n->type != YAML_SCALAR_NODE || !g_ascii_string_to_unsigned(ss_yaml_sval(n), 10, lo, hi, &v, NULL))
		return fail(c, n, "%s is %s%.*s%s (expected an integer in %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ")", what,
			    n->type == YAML_SCALAR_NODE ? "'" : ss_yaml_kind_name(n),
			    n->type == YAML_SCALAR_NODE ? ss_yaml_slen(n) : 0, n->type == YAML_SCALAR_NODE ? ss_yaml_sval(n) : "",
			    n->type == YAML_SCALAR_NODE ? "'" : "", lo, hi);
	*out = v;
	return true;
}

static bool want_bool(struct xctx *c, yaml_node_t *n, const char *what, bool *out)
{
	if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "true"))
		*out = true;
	else if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "false"))
		*out = false;
	else
		return fail(c, n, "%s is not true or false (expected true or false)", what);
	return true;
}

static bool want_time(struct xctx *c, yaml_node_t *n, const char *what, uint64_t *out)
{
	if (n->type != YAML_SCALAR_NODE || !ss_yaml_sval(n)[0] ||
	    !g_ascii_isalpha(ss_yaml_sval(n)[strlen(ss_yaml_sval(n)) - 1]) || !ss_parse_duration(ss_yaml_sval(n), out) ||
	    *out > UINT64_C(1000000) * 1000000000u)
		return fail(c, n, "%s is not a time (expected a time with a unit, ns, us, ms or s, like 3s or 500ms)", what);
	return true;
}

/* A list of numbers (or `null` entries when nulls); *out g_new'd. */
static bool want_nums(struct xctx *c, yaml_node_t *n, const char *what, double lo, double hi, bool nulls,
		      double **out, unsigned *nr)
{
	if (n->type != YAML_SEQUENCE_NODE)
		return fail(c, n, "%s is %s (expected a list of numbers)", what, ss_yaml_kind_name(n));
	unsigned cnt = (unsigned)(n->data.sequence.items.top - n->data.sequence.items.start);
	if (!cnt)
		return fail(c, n, "%s is an empty list (expected at least one number)", what);
	g_free(*out);
	*out = g_new0(double, cnt);
	*nr = cnt;
	for (unsigned i = 0; i < cnt; i++) {
		yaml_node_t *v = nd(c, n->data.sequence.items.start[i]);
		if (nulls && v->type == YAML_SCALAR_NODE && (!strcmp(ss_yaml_sval(v), "null") || !strcmp(ss_yaml_sval(v), "~"))) {
			(*out)[i] = NAN;
			continue;
		}
		if (!want_num(c, v, what, lo, hi, &(*out)[i]))
			return false;
	}
	return true;
}

/* A list of text (or one text) into a NULL-terminated vector. */
static bool want_strs(struct xctx *c, yaml_node_t *n, const char *what, char ***out)
{
	GPtrArray *a = g_ptr_array_new();
	bool ok = true;
	if (n->type == YAML_SCALAR_NODE) {
		char *s = NULL;
		ok = want_str(c, n, what, &s);
		if (ok)
			g_ptr_array_add(a, s);
	} else if (n->type == YAML_SEQUENCE_NODE) {
		for (yaml_node_item_t *it = n->data.sequence.items.start; ok && it < n->data.sequence.items.top; it++) {
			char *s = NULL;
			ok = want_str(c, nd(c, *it), what, &s);
			if (ok)
				g_ptr_array_add(a, s);
		}
	} else {
		ok = fail(c, n, "%s is %s (expected a list of names)", what, ss_yaml_kind_name(n));
	}
	g_ptr_array_add(a, NULL);
	g_strfreev(*out);
	*out = (char **)g_ptr_array_free(a, FALSE);
	return ok;
}

/* `set: {SECTION.KEY: VALUE}` into "KEY=VALUE" strings; each checked against every policy of the file. */
static bool want_set(struct xctx *c, yaml_node_t *n, const char *what, char ***out)
{
	GPtrArray *a = g_ptr_array_new();
	bool ok = true;
	if (n->type != YAML_MAPPING_NODE)
		ok = fail(c, n, "%s is %s (expected a mapping SECTION.KEY: VALUE)", what, ss_yaml_kind_name(n));
	for (yaml_node_pair_t *p = ok ? n->data.mapping.pairs.start : NULL; ok && p < n->data.mapping.pairs.top; p++) {
		yaml_node_t *k = nd(c, p->key), *v = nd(c, p->value);
		char *ks = NULL, *vs = NULL;
		ok = want_str(c, k, "a set key", &ks) && want_str(c, v, "a set value", &vs);
		if (ok && (!strchr(ks, '.') || strchr(ks, '=')))
			ok = fail(c, k, "set key '%s' is not SECTION.KEY (expected e.g. cost.membw or kernel.freq_ratio)", ks);
		if (ok && g_str_has_prefix(ks, "workload."))
			ok = fail(c, k, "set key '%s': workload parameters go in a series' params (expected a cost, policy, balance or kernel key)", ks);
		if (ok) {
			char *as = g_strdup_printf("%s=%s", ks, vs);
			for (unsigned i = 0; ok && i < c->x->nr_policies; i++) {
				struct ss_params prm;
				GError *e = NULL;
				ss_params_defaults(&prm, NULL);
				if (!ss_params_set(&prm, c->x->policies[i].policy, as, &e)) {
					ok = fail(c, v, "set %s for policy %s: %s", as, c->x->policies[i].policy, e->message);
					g_error_free(e);
				}
			}
			g_ptr_array_add(a, as);
		}
		g_free(ks);
		g_free(vs);
	}
	g_ptr_array_add(a, NULL);
	g_strfreev(*out);
	*out = (char **)g_ptr_array_free(a, FALSE);
	return ok;
}

static char *resolve(const struct ss_experiment *x, const char *p)
{
	return g_path_is_absolute(p) ? g_strdup(p) : g_build_filename(x->dir, p, NULL);
}

static bool want_seeds(struct xctx *c, yaml_node_t *n, uint64_t **seeds, unsigned *nr)
{
	g_free(*seeds);
	*seeds = NULL;
	if (n->type == YAML_SCALAR_NODE) {
		uint64_t cnt;
		if (!want_uint(c, n, "seeds (a count)", 1, 100, &cnt))
			return false;
		*seeds = g_new0(uint64_t, cnt);
		for (unsigned i = 0; i < cnt; i++)
			(*seeds)[i] = i + 1;
		*nr = (unsigned)cnt;
		return true;
	}
	if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start)
		return fail(c, n, "seeds is %s (expected a count or a non-empty list of seeds)", ss_yaml_kind_name(n));
	unsigned cnt = (unsigned)(n->data.sequence.items.top - n->data.sequence.items.start);
	*seeds = g_new0(uint64_t, cnt);
	*nr = cnt;
	for (unsigned i = 0; i < cnt; i++) {
		yaml_node_t *v = nd(c, n->data.sequence.items.start[i]);
		if (!want_uint(c, v, "seed", 0, SS_SEED_MAX, &(*seeds)[i]))
			return false;
		for (unsigned j = 0; j < i; j++)
			if ((*seeds)[j] == (*seeds)[i])
				return fail(c, v, "seed %" G_GUINT64_FORMAT " is listed twice (expected each seed once)", (*seeds)[i]);
	}
	return true;
}

static int load_index(const struct ss_xp_series *s, double v)
{
	for (unsigned i = 0; i < s->nr_loads; i++)
		if (s->loads[i] == v)
			return (int)i;
	return -1;
}

static int series_index(const struct ss_experiment *x, const char *name)
{
	for (unsigned i = 0; i < x->nr_series; i++)
		if (!strcmp(x->series[i].name, name))
			return (int)i;
	return -1;
}

static int policy_index(const struct ss_experiment *x, const char *label)
{
	for (unsigned i = 0; i < x->nr_policies; i++)
		if (!strcmp(x->policies[i].label, label))
			return (int)i;
	return -1;
}

/* ------------------------------------------------------------ load units */

uint64_t ss_xp_instances_at(const struct ss_workload *w, unsigned load_pct_x100, unsigned nr_cpus)
{
	/* ss_workload_instantiate()'s rounding (workload.c); test_experiment checks the two agree */
	const uint64_t den = UINT64_C(10000) * 1000 * (w->ipc_div ? w->ipc_div : 1);
	uint64_t x = (uint64_t)load_pct_x100 * (w->per_machine ? 1 : nr_cpus);
	uint64_t inst = (x * w->ipc_x1000 + den / 2) / den;
	return inst < 1 ? 1 : inst;
}

bool ss_xp_load_for_instances(const struct ss_workload *w, unsigned nr_allowed, uint64_t instances,
			      unsigned *load_pct_x100, GError **err)
{
	const unsigned lo_lim = 1, hi_lim = 1000000;   /* 0.01 % .. 10000 % */
	if (!instances || ss_xp_instances_at(w, hi_lim, nr_allowed) < instances) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%" G_GUINT64_FORMAT " %ss of workload %s on %u CPUs is outside what --load 0.01%%..10000%% gives (expected 1..%" G_GUINT64_FORMAT ")",
			    instances, ss_workload_instance_unit(w), ss_workload_name(w), nr_allowed,
			    ss_xp_instances_at(w, hi_lim, nr_allowed));
		return false;
	}
	/* the exact load, instances / (instances_per_cpu × CPUs), to 0.01 % (nearest) */
	const uint64_t per = (uint64_t)w->ipc_x1000 * (w->per_machine ? 1 : nr_allowed);   /* × 1000 × ipc_div */
	const uint64_t num = instances * UINT64_C(10000) * 1000 * (w->ipc_div ? w->ipc_div : 1);
	uint64_t exact = per ? (num + per / 2) / per : hi_lim;
	if (exact < lo_lim)
		exact = lo_lim;
	if (exact <= hi_lim && ss_xp_instances_at(w, (unsigned)exact, nr_allowed) == instances) {
		*load_pct_x100 = (unsigned)exact;
		return true;
	}
	/* not representable to 0.01 %: the smallest load that gives the count */
	unsigned lo = lo_lim, hi = hi_lim;
	while (lo < hi) {
		unsigned mid = lo + (hi - lo) / 2;
		if (ss_xp_instances_at(w, mid, nr_allowed) >= instances)
			hi = mid;
		else
			lo = mid + 1;
	}
	if (ss_xp_instances_at(w, lo, nr_allowed) != instances) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "no --load gives exactly %" G_GUINT64_FORMAT " %ss of workload %s on %u CPUs (%.2f%% gives %" G_GUINT64_FORMAT ")",
			    instances, ss_workload_instance_unit(w), ss_workload_name(w), nr_allowed, lo / 100.0,
			    ss_xp_instances_at(w, lo, nr_allowed));
		return false;
	}
	*load_pct_x100 = lo;
	return true;
}

bool ss_xp_nr_allowed(const struct ss_topology *t, const char *nodes, unsigned *nr, GError **err)
{
	if (!nodes) {
		*nr = t->nr_active;
		return true;
	}
	uint64_t *m = g_new0(uint64_t, ss_cpumask_words(t->nr_nodes ? t->nr_nodes : 1));
	bool ok = ss_topology_parse_nodes(t, nodes, m, err);
	*nr = 0;
	for (unsigned c = 0; ok && c < t->nr_cpus; c++)
		if (!t->cpu[c].offline && ss_cpumask_test(m, t->cpu[c].node))
			(*nr)++;
	g_free(m);
	return ok;
}

/* ------------------------------------------------------------ the file */

static bool parse_policies(struct xctx *c, yaml_node_t *n)
{
	struct ss_experiment *x = c->x;
	/* one policy is enough for an experiment of counter rules only (S05's calibration); parse_rule checks */
	if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start)
		return fail(c, n, "policies is %s (expected a list of policies, the baseline first)",
			    n->type == YAML_SEQUENCE_NODE ? "an empty list" : ss_yaml_kind_name(n));
	x->nr_policies = (unsigned)(n->data.sequence.items.top - n->data.sequence.items.start);
	x->policies = g_new0(struct ss_xp_policy, x->nr_policies);
	for (unsigned i = 0; i < x->nr_policies; i++) {
		yaml_node_t *v = nd(c, n->data.sequence.items.start[i]), *kv[4];
		struct ss_xp_policy *p = &x->policies[i];
		static const char *const keys[] = { "label", "policy", "set", NULL };
		p->set = g_new0(char *, 1);
		if (v->type == YAML_SCALAR_NODE) {
			if (!want_str(c, v, "a policy", &p->policy))
				return false;
			p->label = g_strdup(p->policy);
			kv[0] = kv[1] = v;
			kv[2] = NULL;
		} else {
			if (!take_keys(c, v, "a policy", keys, kv))
				return false;
			if (!kv[1])
				return fail(c, v, "a policy without 'policy' (expected {label: L, policy: NAME, set: {...}})");
			if (!want_str(c, kv[1], "policy", &p->policy))
				return false;
			if (kv[0] && !want_str(c, kv[0], "label", &p->label))
				return false;
			if (!p->label)
				p->label = g_strdup(p->policy);
		}
		if (!ss_policy_find(p->policy)) {
			GString *names = g_string_new(NULL);
			for (const struct ss_policy *const *pp = ss_policies(); *pp; pp++)
				g_string_append_printf(names, "%s%s", names->len ? ", " : "", (*pp)->name);
			fail(c, kv[1], "unknown policy '%s' (expected one of: %s)", p->policy, names->str);
			g_string_free(names, TRUE);
			return false;
		}
		for (unsigned j = 0; j < i; j++)
			if (!strcmp(x->policies[j].label, p->label))
				return fail(c, v, "policy label '%s' is used twice (expected a unique label per column)", p->label);
		if (kv[2]) {
			/* checked against this policy only */
			unsigned save = x->nr_policies;
			struct ss_xp_policy *savep = x->policies;
			x->policies = p;
			x->nr_policies = 1;
			bool ok = want_set(c, kv[2], "a policy's set", &p->set);
			x->policies = savep;
			x->nr_policies = save;
			if (!ok)
				return false;
		}
	}
	return true;
}

static bool parse_load_spec(struct xctx *c, yaml_node_t *n, struct ss_xp_series *s)
{
	static const char *const keys[] = { "unit", "param", "instances", NULL };
	yaml_node_t *v[3];
	if (!take_keys(c, n, "load", keys, v))
		return false;
	if (!v[0])
		return fail(c, n, "load has no 'unit' (expected {unit: pairs} or {unit: threads, param: NAME, instances: N})");
	if (!want_str(c, v[0], "load unit", &s->unit))
		return false;
	if (!!v[1] != !!v[2])
		return fail(c, n, "load has %s without %s (expected both param and instances, or neither)",
			    v[1] ? "param" : "instances", v[1] ? "instances" : "param");
	if (v[1]) {
		uint64_t inst;
		if (!want_str(c, v[1], "load param", &s->unit_param) || !want_uint(c, v[2], "load instances", 1, 1000000, &inst))
			return false;
		s->unit_instances = (unsigned)inst;
	}
	return true;
}

/* Check every load of s maps to a run: its workload with the series' parameters on the series' machine. */
static bool check_series_loads(struct xctx *c, struct ss_xp_series *s, yaml_node_t *wl_node, yaml_node_t *loads_node)
{
	GError *e = NULL;
	struct ss_topology *t = NULL;
	struct ss_workload *w = NULL;
	unsigned nr = 0;
	bool ok = false;

	if (!(t = ss_topology_load(s->topology_path, &e))) {
		fail(c, wl_node, "series %s: topology %s: %s", s->name, s->topology_file, e->message);
		goto out;
	}
	if (!ss_xp_nr_allowed(t, s->nodes, &nr, &e)) {
		fail(c, wl_node, "series %s: nodes '%s': %s", s->name, s->nodes, e->message);
		goto out;
	}
	for (unsigned l = 0; l < s->nr_loads; l++) {
		yaml_node_t *ln = nd(c, loads_node->data.sequence.items.start[l]);
		GPtrArray *prm = g_ptr_array_new_with_free_func(g_free);
		for (char **p = s->params; *p; p++)
			g_ptr_array_add(prm, g_strdup(*p));
		if (s->unit_param)
			g_ptr_array_add(prm, g_strdup_printf("%s=%.0f", s->unit_param, s->loads[l]));
		g_ptr_array_add(prm, NULL);
		ss_workload_free(w);
		w = ss_workload_load_params(s->workload_path, (const char *const *)prm->pdata, &e);
		g_ptr_array_free(prm, TRUE);
		if (!w) {
			fail(c, s->unit_param ? ln : wl_node, "series %s: workload %s: %s", s->name, s->workload_file, e->message);
			goto out;
		}
		if (!l)
			s->latency = !strcmp(s->metric, "workload") && ss_workload_metric(w)->measure == SS_MEASURE_WAKEUP_PCT;
		if (s->loads[l] != floor(s->loads[l]) || s->loads[l] < 1) {
			fail(c, ln, "load %g is not a whole number of %s (expected a count)", s->loads[l], s->unit);
			goto out;
		}
		unsigned pct;
		if (!ss_xp_load_for_instances(w, nr, s->unit_param ? s->unit_instances : (uint64_t)s->loads[l], &pct, &e)) {
			fail(c, ln, "load %g %s: %s", s->loads[l], s->unit, e->message);
			goto out;
		}
	}
	ok = true;
out:
	if (e)
		g_error_free(e);
	ss_workload_free(w);
	ss_topology_free(t);
	return ok;
}

static bool parse_series(struct xctx *c, yaml_node_t *n, struct ss_xp_series *s, unsigned idx)
{
	static const char *const keys[] = { "name", "workload", "params", "topology", "nodes", "set", "metric", "load",
					    "loads", "real", "real_source", "unscored", "warmup", "duration", "seeds", NULL };
	enum { NAME, WL, PARAMS, TOPO, NODES, SET, METRIC, LOAD, LOADS, REAL, RSRC, UNSC, WARM, DUR, SEEDS, NK };
	yaml_node_t *v[NK];
	struct ss_experiment *x = c->x;
	s->line = (unsigned)n->start_mark.line + 1;
	s->params = g_new0(char *, 1);
	s->set = g_new0(char *, 1);
	if (!take_keys(c, n, "a series", keys, v))
		return false;
	static const int req[] = { NAME, WL, LOAD, LOADS, REAL, RSRC };
	static const char *const reqn[] = { "name", "workload", "load", "loads", "real", "real_source" };
	for (unsigned i = 0; i < G_N_ELEMENTS(req); i++)
		if (!v[req[i]])
			return fail(c, n, "a series without '%s' (expected name, workload, load, loads, real and real_source)", reqn[i]);
	if (!want_str(c, v[NAME], "series name", &s->name))
		return false;
	for (unsigned i = 0; i < idx; i++)
		if (!strcmp(x->series[i].name, s->name))
			return fail(c, v[NAME], "series name '%s' is used twice (expected unique names)", s->name);
	if (!want_str(c, v[WL], "workload", &s->workload_file))
		return false;
	s->workload_path = resolve(x, s->workload_file);
	if (v[PARAMS]) {
		GPtrArray *a = g_ptr_array_new();
		if (v[PARAMS]->type != YAML_MAPPING_NODE) {
			g_ptr_array_free(a, TRUE);
			return fail(c, v[PARAMS], "params is %s (expected a mapping NAME: VALUE)", ss_yaml_kind_name(v[PARAMS]));
		}
		for (yaml_node_pair_t *p = v[PARAMS]->data.mapping.pairs.start; p < v[PARAMS]->data.mapping.pairs.top; p++) {
			char *k = NULL, *val = NULL;
			if (!want_str(c, nd(c, p->key), "a parameter name", &k) || !want_str(c, nd(c, p->value), "a parameter value", &val)) {
				g_free(k);
				g_free(val);
				g_ptr_array_add(a, NULL);
				g_strfreev((char **)g_ptr_array_free(a, FALSE));
				return false;
			}
			g_ptr_array_add(a, g_strdup_printf("%s=%s", k, val));
			g_free(k);
			g_free(val);
		}
		g_ptr_array_add(a, NULL);
		g_strfreev(s->params);
		s->params = (char **)g_ptr_array_free(a, FALSE);
	}
	if (v[TOPO]) {
		if (!want_str(c, v[TOPO], "topology", &s->topology_file))
			return false;
	} else if (x->topology_file) {
		s->topology_file = g_strdup(x->topology_file);
	} else {
		return fail(c, n, "series %s has no topology (expected topology here or at the top level)", s->name);
	}
	s->topology_path = resolve(x, s->topology_file);
	if (v[NODES] && !want_str(c, v[NODES], "nodes", &s->nodes))
		return false;
	if (!v[NODES] && !v[TOPO] && x->nodes)
		s->nodes = g_strdup(x->nodes);
	if (v[SET] && !want_set(c, v[SET], "a series' set", &s->set))
		return false;
	s->metric = g_strdup("workload");
	if (v[METRIC]) {
		enum ss_cmp_metric m;
		GError *e = NULL;
		if (!want_str(c, v[METRIC], "metric", &s->metric))
			return false;
		/* a figure this build does not know is refused here only if it is not a record figure either:
		 * newer figures (docs/output.md) are read from the records and reported "not available" when absent */
		if (!ss_cmp_metric_parse(s->metric, &m, &e) && !g_regex_match_simple("^[a-z][a-z0-9_]*$", s->metric, 0, 0)) {
			fail(c, v[METRIC], "metric '%s': %s", s->metric, e->message);
			g_error_free(e);
			return false;
		}
		g_clear_error(&e);
	}
	if (!parse_load_spec(c, v[LOAD], s))
		return false;
	if (!want_nums(c, v[LOADS], "loads", 0, 1e9, false, &s->loads, &s->nr_loads))
		return false;
	for (unsigned i = 0; i < s->nr_loads; i++)
		for (unsigned j = 0; j < i; j++)
			if (s->loads[i] == s->loads[j])
				return fail(c, nd(c, v[LOADS]->data.sequence.items.start[i]), "load %g is listed twice (expected each load once)", s->loads[i]);
	unsigned nr_real = 0;
	if (!want_nums(c, v[REAL], "real", -1000, 100000, true, &s->real, &nr_real))
		return false;
	if (nr_real != s->nr_loads)
		return fail(c, v[REAL], "real has %u values for %u loads (expected one per load, null where the thread gives none)",
			    nr_real, s->nr_loads);
	if (!want_str(c, v[RSRC], "real_source", &s->real_source))
		return false;
	if (!g_regex_match_simple("^seeds/[^:]+:[0-9]+(-[0-9]+)?$", s->real_source, 0, 0))
		return fail(c, v[RSRC], "real_source '%s' is not seeds/FILE:LINE (expected e.g. seeds/000_x.md:120 or :120-131)", s->real_source);
	s->unscored = g_new0(bool, s->nr_loads);
	if (v[UNSC]) {
		double *u = NULL;
		unsigned nu = 0;
		if (!want_nums(c, v[UNSC], "unscored", 0, 1e9, false, &u, &nu)) {
			g_free(u);
			return false;
		}
		for (unsigned i = 0; i < nu; i++) {
			int l = load_index(s, u[i]);
			if (l < 0) {
				yaml_node_t *at = v[UNSC]->type == YAML_SEQUENCE_NODE ? nd(c, v[UNSC]->data.sequence.items.start[i]) : v[UNSC];
				double bad = u[i];
				g_free(u);
				return fail(c, at, "unscored load %g is not one of the series' loads (expected values from loads)", bad);
			}
			s->unscored[l] = true;
		}
		g_free(u);
	}
	s->warmup_ns = x->warmup_ns;
	s->duration_ns = x->duration_ns;
	if (v[WARM] && !want_time(c, v[WARM], "warmup", &s->warmup_ns))
		return false;
	if (v[DUR] && !want_time(c, v[DUR], "duration", &s->duration_ns))
		return false;
	if (!s->duration_ns)
		return fail(c, v[DUR] ? v[DUR] : n, "duration is 0 (expected a positive time)");
	if (v[SEEDS]) {
		if (!want_seeds(c, v[SEEDS], &s->seeds, &s->nr_seeds))
			return false;
	} else {
		s->nr_seeds = x->nr_seeds;
		s->seeds = g_memdup2(x->seeds, sizeof(uint64_t) * x->nr_seeds);
	}
	return check_series_loads(c, s, v[WL], v[LOADS]);
}

/* The loads of a rule key: each must be a load of every series the rule reads. */
static bool rule_loads(struct xctx *c, yaml_node_t *n, const char *what, const struct ss_xp_rule *r, double **out,
		       unsigned *nr)
{
	if (n->type == YAML_SCALAR_NODE) {
		g_free(*out);
		*out = g_new0(double, 1);
		*nr = 1;
		if (!want_num(c, n, what, 0, 1e9, &(*out)[0]))
			return false;
	} else if (!want_nums(c, n, what, 0, 1e9, false, out, nr)) {
		return false;
	}
	for (unsigned s = 0; s < c->x->nr_series; s++) {
		const struct ss_xp_series *se = &c->x->series[s];
		bool reads = !r->series;
		for (char **p = r->series; p && *p; p++)
			reads |= !strcmp(*p, se->name);
		for (unsigned i = 0; reads && i < *nr; i++)
			if (load_index(se, (*out)[i]) < 0)
				return fail(c, n, "%s %g is not a load of series %s (expected one of its loads)", what, (*out)[i], se->name);
	}
	return true;
}

static const char *const rule_names[] = { "direction", "crossover", "range", "sign", "peak", "counter",
					  "counter_ratio", "contrast", "check", NULL };
static const char *const check_names[] = { "s06_pelt", "s07_budgets", "s13_mechanism_gate", "s13_probe_identity",
					   "s17_cost_off", "s19_windows", NULL };

static bool parse_rule(struct xctx *c, yaml_node_t *n, struct ss_xp_rule *r, unsigned idx)
{
	static const char *const keys[] = { "rule", "grade", "id", "series", "policy", "epsilon", "neutral_max", "misses",
					    "threshold", "within", "sustain", "loads", "min", "max", "abs", "at_least",
					    "of", "sign", "at", "steps", "by", "metric", "num", "den", "strict", "other",
					    "load", "other_load", "max_ratio", "name", NULL };
	enum { RULE, GRADE, ID, SERIES, POLICY, EPS, NMAX, MISSES, THR, WITHIN, SUSTAIN, LOADS, MIN, MAX, ABS, ATL, OF,
	       SIGN, AT, STEPS, BY, METRIC, NUM, DEN, STRICT, OTHER, LOAD, OLOAD, MRATIO, NAME, NK };
	yaml_node_t *v[NK];
	struct ss_experiment *x = c->x;
	r->line = (unsigned)n->start_mark.line + 1;
	r->grade = 'A';
	r->epsilon = r->neutral_max = r->min = r->max = r->threshold = NAN;
	r->misses = -1;
	r->at_least = -1;
	r->steps = 1;
	if (!take_keys(c, n, "a rule", keys, v))
		return false;
	if (!v[RULE])
		return fail(c, n, "a rule without 'rule' (expected one of: direction, crossover, range, sign, peak, counter, counter_ratio, contrast, check)");
	g_autofree char *kind = NULL;
	if (!want_str(c, v[RULE], "rule", &kind))
		return false;
	unsigned k;
	for (k = 0; rule_names[k] && strcmp(rule_names[k], kind); k++)
		;
	if (!rule_names[k])
		return fail(c, v[RULE], "unknown rule '%s' (expected one of: direction, crossover, range, sign, peak, counter, counter_ratio, contrast, check)", kind);
	r->kind = (enum ss_xp_rule_kind)k;
	/* keys each kind takes */
	static const int allowed[][NK] = {
		[SS_XP_DIRECTION] = { [EPS] = 1, [NMAX] = 1, [MISSES] = 1 },
		[SS_XP_CROSSOVER] = { [THR] = 1, [WITHIN] = 1, [SUSTAIN] = 1 },
		[SS_XP_RANGE] = { [LOADS] = 1, [MIN] = 1, [MAX] = 1, [ABS] = 1, [ATL] = 1, [OF] = 1 },
		[SS_XP_SIGN] = { [LOADS] = 1, [SIGN] = 1, [EPS] = 1 },
		[SS_XP_PEAK] = { [AT] = 1, [STEPS] = 1, [BY] = 1, [MIN] = 1 },
		[SS_XP_COUNTER] = { [METRIC] = 1, [LOADS] = 1, [MIN] = 1, [MAX] = 1 },
		[SS_XP_COUNTER_RATIO] = { [METRIC] = 1, [LOADS] = 1, [NUM] = 1, [DEN] = 1, [MIN] = 1, [MAX] = 1, [STRICT] = 1 },
		[SS_XP_CONTRAST] = { [OTHER] = 1, [LOAD] = 1, [OLOAD] = 1, [MRATIO] = 1 },
		[SS_XP_CHECK] = { [NAME] = 1 },
	};
	for (int i = GRADE + 0; i < NK; i++) {
		if (!v[i] || i == ID || i == SERIES || i == GRADE || (i == POLICY && r->kind != SS_XP_CHECK &&
								       r->kind != SS_XP_COUNTER_RATIO))
			continue;
		if (!allowed[r->kind][i])
			return fail(c, v[i], "key '%s' does not go with rule %s (expected keys of that rule, docs/experiments.md)",
				    keys[i], kind);
	}
	if (v[GRADE]) {
		g_autofree char *g = NULL;
		if (!want_str(c, v[GRADE], "grade", &g))
			return false;
		if (strcmp(g, "A") && strcmp(g, "B"))
			return fail(c, v[GRADE], "grade '%s' (expected A or B)", g);
		r->grade = g[0];
	}
	if (v[ID]) {
		if (!want_str(c, v[ID], "id", &r->id))
			return false;
	} else {
		r->id = g_strdup_printf("%s#%u", kind, idx + 1);
	}
	if (r->kind != SS_XP_CHECK && r->kind != SS_XP_COUNTER && x->nr_series && x->nr_policies < 2)
		return fail(c, n, "rule %s compares policies but the file has one (expected at least two policies, the baseline first)", kind);
	if (r->kind != SS_XP_CHECK && !x->nr_series)
		return fail(c, n, "rule %s needs series (expected series in the file, or only check rules)", kind);
	if (v[SERIES]) {
		if (!want_strs(c, v[SERIES], "series", &r->series))
			return false;
		for (char **p = r->series; *p; p++)
			if (series_index(x, *p) < 0)
				return fail(c, v[SERIES], "series '%s' is not a series of this file (expected a series name)", *p);
	}
	if (v[POLICY]) {
		if (!want_str(c, v[POLICY], "policy", &r->policy))
			return false;
		/* a counter may read the baseline's figure; a Δ rule grades a compared column */
		int pi = policy_index(x, r->policy);
		if (pi < 0 || (pi == 0 && r->kind != SS_XP_COUNTER))
			return fail(c, v[POLICY], "policy '%s' is not a policy label of this file%s (expected %s)", r->policy,
				    pi == 0 ? " other than the baseline" : "",
				    r->kind == SS_XP_COUNTER ? "a policy label" : "a compared column");
	}
	if (v[EPS] && !want_num(c, v[EPS], "epsilon", 0, 1000, &r->epsilon))
		return false;
	if (v[NMAX] && !want_num(c, v[NMAX], "neutral_max", 0, 1000, &r->neutral_max))
		return false;
	if (v[MISSES]) {
		uint64_t m;
		if (!want_uint(c, v[MISSES], "misses", 0, 1000, &m))
			return false;
		r->misses = (int)m;
	}
	if (v[MIN] && !want_num(c, v[MIN], "min", -1e12, 1e12, &r->min))
		return false;
	if (v[MAX] && !want_num(c, v[MAX], "max", -1e12, 1e12, &r->max))
		return false;
	if (v[LOADS] && !rule_loads(c, v[LOADS], "loads", r, &r->loads, &r->nr_loads))
		return false;
	if (v[ABS] && !want_bool(c, v[ABS], "abs", &r->abs))
		return false;
	if (v[STRICT] && !want_bool(c, v[STRICT], "strict", &r->strict))
		return false;
	if (v[SUSTAIN] && !want_bool(c, v[SUSTAIN], "sustain", &r->sustain))
		return false;
	if (v[ATL]) {
		uint64_t a;
		if (!want_uint(c, v[ATL], "at_least", 1, 1000, &a))
			return false;
		r->at_least = (int)a;
	}
	if (v[OF]) {
		g_autofree char *of = NULL;
		if (!want_str(c, v[OF], "of", &of))
			return false;
		if (strcmp(of, "each") && strcmp(of, "mean"))
			return fail(c, v[OF], "of '%s' (expected each or mean)", of);
		r->of_mean = !strcmp(of, "mean");
	}
	if (v[BY]) {
		g_autofree char *by = NULL;
		if (!want_str(c, v[BY], "by", &by))
			return false;
		if (strcmp(by, "max") && strcmp(by, "abs"))
			return fail(c, v[BY], "by '%s' (expected max or abs)", by);
		r->by_abs = !strcmp(by, "abs");
	}
	if (v[STEPS]) {
		uint64_t st;
		if (!want_uint(c, v[STEPS], "steps", 0, 100, &st))
			return false;
		r->steps = (unsigned)st;
	}
	switch (r->kind) {
	case SS_XP_CROSSOVER:
		if (!v[THR] || !v[WITHIN])
			return fail(c, n, "rule crossover needs threshold and within (expected both)");
		if (!want_num(c, v[THR], "threshold", -1000, 100000, &r->threshold) ||
		    !rule_loads(c, v[WITHIN], "within", r, &r->at, &r->nr_at))
			return false;
		break;
	case SS_XP_RANGE:
		if (isnan(r->min) && isnan(r->max))
			return fail(c, n, "rule range needs min or max (expected at least one bound)");
		break;
	case SS_XP_SIGN: {
		g_autofree char *sg = NULL;
		if (!v[SIGN] || !want_str(c, v[SIGN], "sign", &sg))
			return v[SIGN] ? false : fail(c, n, "rule sign needs sign (expected +, - or 0)");
		if (strcmp(sg, "+") && strcmp(sg, "-") && strcmp(sg, "0"))
			return fail(c, v[SIGN], "sign '%s' (expected +, - or 0)", sg);
		r->sign = sg[0];
		break;
	}
	case SS_XP_PEAK:
		if (!v[AT])
			return fail(c, n, "rule peak needs at (expected the loads where the peak lies)");
		if (!rule_loads(c, v[AT], "at", r, &r->at, &r->nr_at))
			return false;
		break;
	case SS_XP_COUNTER:
	case SS_XP_COUNTER_RATIO:
		if (!v[METRIC] || !want_str(c, v[METRIC], "metric", &r->metric))
			return v[METRIC] ? false : fail(c, n, "rule %s needs metric (expected a record figure name)", kind);
		if (isnan(r->min) && isnan(r->max))
			return fail(c, n, "rule %s needs min or max (expected at least one bound)", kind);
		if (r->kind == SS_XP_COUNTER_RATIO) {
			if (!v[NUM] || !v[DEN])
				return fail(c, n, "rule counter_ratio needs num and den (expected two policy labels)");
			if (!want_str(c, v[NUM], "num", &r->num) || !want_str(c, v[DEN], "den", &r->den))
				return false;
			if (policy_index(x, r->num) < 0)
				return fail(c, v[NUM], "num '%s' is not a policy label of this file (expected a label of policies)", r->num);
			if (policy_index(x, r->den) < 0)
				return fail(c, v[DEN], "den '%s' is not a policy label of this file (expected a label of policies)", r->den);
		}
		break;
	case SS_XP_CONTRAST:
		if (!v[OTHER] || !v[LOAD] || !v[OLOAD] || !v[MRATIO])
			return fail(c, n, "rule contrast needs other, load, other_load and max_ratio (expected all four)");
		if (!want_str(c, v[OTHER], "other", &r->other) || !want_num(c, v[LOAD], "load", 0, 1e9, &r->load) ||
		    !want_num(c, v[OLOAD], "other_load", 0, 1e9, &r->other_load) ||
		    !want_num(c, v[MRATIO], "max_ratio", -1000, 1000, &r->max_ratio))
			return false;
		if (series_index(x, r->other) < 0)
			return fail(c, v[OTHER], "other '%s' is not a series of this file (expected a series name)", r->other);
		if (load_index(&x->series[series_index(x, r->other)], r->other_load) < 0)
			return fail(c, v[OLOAD], "other_load %g is not a load of series %s (expected one of its loads)", r->other_load, r->other);
		for (unsigned s = 0; s < x->nr_series; s++) {
			bool reads = !r->series;
			for (char **p = r->series; p && *p; p++)
				reads |= !strcmp(*p, x->series[s].name);
			if (reads && load_index(&x->series[s], r->load) < 0)
				return fail(c, v[LOAD], "load %g is not a load of series %s (expected one of its loads)", r->load, x->series[s].name);
		}
		break;
	case SS_XP_CHECK: {
		if (!v[NAME] || !want_str(c, v[NAME], "name", &r->check))
			return v[NAME] ? false : fail(c, n, "rule check needs name (expected s06_pelt, s07_budgets, s13_mechanism_gate, s17_cost_off or s19_windows)");
		unsigned i;
		for (i = 0; check_names[i] && strcmp(check_names[i], r->check); i++)
			;
		if (!check_names[i])
			return fail(c, v[NAME], "unknown check '%s' (expected s06_pelt, s07_budgets, s13_mechanism_gate, s17_cost_off or s19_windows)", r->check);
		break;
	}
	default:
		break;
	}
	return true;
}

/* ------------------------------------------------------------ named-check inputs */

static bool parse_check_s06(struct xctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "period", "freq_ratio", "busy", "real", "slope", "tolerance_pct",
					    "tolerance_units", "at_least", NULL };
	yaml_node_t *v[8];
	struct ss_xp_check_s06 *s = c->x->s06 = g_new0(struct ss_xp_check_s06, 1);
	if (!take_keys(c, n, "check (s06_pelt)", keys, v))
		return false;
	for (unsigned i = 0; keys[i]; i++)
		if (!v[i])
			return fail(c, n, "check (s06_pelt) has no '%s' (expected period, freq_ratio, busy, real, slope, tolerance_pct, tolerance_units, at_least)", keys[i]);
	unsigned nb = 0, nr = 0, ns = 0;
	double *slope = NULL;
	uint64_t al;
	bool ok = want_time(c, v[0], "period", &s->period_ns) && want_num(c, v[1], "freq_ratio", 0.001, 1, &s->freq_ratio) &&
		  want_nums(c, v[2], "busy", 0, 100, false, &s->busy_pct, &nb) &&
		  want_nums(c, v[3], "real", 0, 1024, false, &s->real, &nr) &&
		  want_nums(c, v[4], "slope", 0, 1024, false, &slope, &ns) &&
		  want_num(c, v[5], "tolerance_pct", 0, 100, &s->tol_pct) && want_num(c, v[6], "tolerance_units", 0, 1024, &s->tol_units) &&
		  want_uint(c, v[7], "at_least", 0, 1000, &al);
	if (ok && nb != nr)
		ok = fail(c, v[3], "real has %u values for %u busy shares (expected one each)", nr, nb);
	if (ok && ns != 2)
		ok = fail(c, v[4], "slope has %u values (expected [min, max])", ns);
	if (ok && al > nb)
		ok = fail(c, v[7], "at_least %" G_GUINT64_FORMAT " exceeds the %u points (expected at most %u)", al, nb, nb);
	if (ok) {
		s->nr_points = nb;
		s->slope_min = slope[0];
		s->slope_max = slope[1];
		s->at_least = (unsigned)al;
	}
	g_free(slope);
	return ok;
}

static bool want_uints(struct xctx *c, yaml_node_t *n, const char *what, unsigned **out, unsigned *nr, bool minus1)
{
	double *d = NULL;
	bool ok = want_nums(c, n, what, minus1 ? -1 : 0, 1e6, false, &d, nr);
	if (ok) {
		*out = g_new0(unsigned, *nr);
		for (unsigned i = 0; ok && i < *nr; i++) {
			if (d[i] != floor(d[i]))
				ok = fail(c, n, "%s holds %g (expected integers)", what, d[i]);
			(*out)[i] = d[i] < 0 ? UINT_MAX : (unsigned)d[i];
		}
	}
	g_free(d);
	return ok;
}

static bool parse_check_s07(struct xctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "llc", "util_pct", "linear", "quadratic", "fixtures", NULL };
	yaml_node_t *v[5];
	struct ss_xp_check_s07 *s = c->x->s07 = g_new0(struct ss_xp_check_s07, 1);
	/* the fixtures run on the experiment's kernel (checked before the check block) */
	s->kernel = strcmp(c->x->kernel, "5.17") ? SS_KERNEL_6_6 : SS_KERNEL_5_17;
	uint64_t llc;
	unsigned nl = 0, nq = 0;
	if (!take_keys(c, n, "check (s07_budgets)", keys, v))
		return false;
	if (!v[0] || !v[1] || !v[2] || !v[4])
		return fail(c, n, "check (s07_budgets) lacks a key (expected llc, util_pct, linear and fixtures; quadratic optional)");
	if (!want_uint(c, v[0], "llc", 4, 4096, &llc) || !want_uints(c, v[1], "util_pct", &s->util_pct, &s->nr_utils, false) ||
	    !want_uints(c, v[2], "linear", &s->linear, &nl, false))
		return false;
	s->llc = (unsigned)llc;
	if (nl != s->nr_utils)
		return fail(c, v[2], "linear has %u values for %u utils (expected one each)", nl, s->nr_utils);
	if (v[3] && !want_uints(c, v[3], "quadratic", &s->quadratic, &nq, false))
		return false;
	if (v[3] && nq != s->nr_utils)
		return fail(c, v[3], "quadratic has %u values for %u utils (expected one each)", nq, s->nr_utils);
	for (unsigned i = 0; i < s->nr_utils; i++)
		if (s->util_pct[i] > 100)
			return fail(c, v[1], "util_pct %u exceeds 100 (expected 0..100)", s->util_pct[i]);
	yaml_node_t *f = v[4];
	if (f->type != YAML_SEQUENCE_NODE || f->data.sequence.items.top == f->data.sequence.items.start)
		return fail(c, f, "fixtures is %s (expected a list of {llc, pinned, expect})", ss_yaml_kind_name(f));
	s->nr_fixtures = (unsigned)(f->data.sequence.items.top - f->data.sequence.items.start);
	s->fixtures = g_new0(struct ss_xp_check_s07_fixture, s->nr_fixtures);
	for (unsigned i = 0; i < s->nr_fixtures; i++) {
		static const char *const fk[] = { "llc", "pinned", "expect", NULL };
		yaml_node_t *fv[3], *fn = nd(c, f->data.sequence.items.start[i]);
		struct ss_xp_check_s07_fixture *fx = &s->fixtures[i];
		uint64_t a, b;
		if (!take_keys(c, fn, "a fixture", fk, fv))
			return false;
		if (!fv[0] || !fv[1] || !fv[2])
			return fail(c, fn, "a fixture lacks a key (expected llc, pinned and expect)");
		if (!want_uint(c, fv[0], "llc", 2, 64, &a) || !want_uint(c, fv[1], "pinned", 1, 63, &b))
			return false;
		if (b >= a)
			return fail(c, fv[1], "pinned %" G_GUINT64_FORMAT " leaves no idle CPU in an LLC of %" G_GUINT64_FORMAT " (expected fewer)", b, a);
		fx->llc = (unsigned)a;
		fx->pinned = (unsigned)b;
		yaml_node_t *e = fv[2];
		if (e->type != YAML_MAPPING_NODE)
			return fail(c, e, "expect is %s (expected a mapping POLICY: {found, probes, nr_idle_scan})", ss_yaml_kind_name(e));
		unsigned np = (unsigned)(e->data.mapping.pairs.top - e->data.mapping.pairs.start);
		fx->policies = g_new0(char *, np + 1);
		fx->found = g_new0(int *, np + 1);
		fx->probes = g_new0(unsigned *, np + 1);
		fx->nr_idle_scan = g_new0(unsigned, np + 1);
		for (unsigned p = 0; p < np; p++) {
			yaml_node_pair_t *pr = &e->data.mapping.pairs.start[p];
			static const char *const ek[] = { "found", "probes", "nr_idle_scan", NULL };
			yaml_node_t *ev[3];
			unsigned *found = NULL, nf = 0, nprb = 0;
			if (!want_str(c, nd(c, pr->key), "a policy", &fx->policies[p]))
				return false;
			if (!ss_policy_find(fx->policies[p]))
				return fail(c, nd(c, pr->key), "unknown policy '%s' (expected a policy name, simsched policies)", fx->policies[p]);
			if (!take_keys(c, nd(c, pr->value), "a fixture's expectation", ek, ev))
				return false;
			if (!ev[0] || !ev[1])
				return fail(c, nd(c, pr->value), "an expectation lacks found or probes (expected both, one value per target 0..%u)", fx->pinned - 1);
			bool ok = want_uints(c, ev[0], "found", &found, &nf, true) && want_uints(c, ev[1], "probes", &fx->probes[p], &nprb, false);
			if (ok && (nf != fx->pinned || nprb != fx->pinned))
				ok = fail(c, ev[0], "found and probes have %u and %u values (expected %u, one per target 0..%u)", nf, nprb, fx->pinned,
					  fx->pinned - 1);
			if (ok) {
				fx->found[p] = g_new0(int, nf);
				for (unsigned t = 0; t < nf; t++)
					fx->found[p][t] = found[t] == UINT_MAX ? -1 : (int)found[t];
			}
			g_free(found);
			if (!ok)
				return false;
			fx->nr_idle_scan[p] = UINT_MAX;
			uint64_t nis;
			if (ev[2]) {
				if (!want_uint(c, ev[2], "nr_idle_scan", 0, 4096, &nis))
					return false;
				fx->nr_idle_scan[p] = (unsigned)nis;
			}
		}
	}
	return true;
}

/* s13_probe_identity's fixtures: [{llc, pinned}, ...] (pinned may fill the LLC: whole-mask fails) */
static bool parse_s13_fixtures(struct xctx *c, yaml_node_t *f)
{
	struct ss_experiment *x = c->x;
	if (f->type != YAML_SEQUENCE_NODE || f->data.sequence.items.top == f->data.sequence.items.start)
		return fail(c, f, "fixtures is %s (expected a list of {llc, pinned})", ss_yaml_kind_name(f));
	struct ss_xp_check_s13 *s = x->s13 = g_new0(struct ss_xp_check_s13, 1);
	s->kernel = strcmp(x->kernel, "5.17") ? SS_KERNEL_6_6 : SS_KERNEL_5_17;
	s->nr_fixtures = (unsigned)(f->data.sequence.items.top - f->data.sequence.items.start);
	s->llc = g_new0(unsigned, s->nr_fixtures);
	s->pinned = g_new0(unsigned, s->nr_fixtures);
	for (unsigned i = 0; i < s->nr_fixtures; i++) {
		static const char *const fk[] = { "llc", "pinned", NULL };
		yaml_node_t *fv[2], *fn = nd(c, f->data.sequence.items.start[i]);
		uint64_t a, b;
		if (!take_keys(c, fn, "a fixture", fk, fv))
			return false;
		if (!fv[0] || !fv[1])
			return fail(c, fn, "a fixture lacks a key (expected llc and pinned)");
		if (!want_uint(c, fv[0], "llc", 2, 64, &a) || !want_uint(c, fv[1], "pinned", 1, 64, &b))
			return false;
		if (b > a)
			return fail(c, fv[1], "pinned %" G_GUINT64_FORMAT " exceeds the LLC's %" G_GUINT64_FORMAT " CPUs (expected at most that)", b, a);
		s->llc[i] = (unsigned)a;
		s->pinned[i] = (unsigned)b;
	}
	return true;
}

static bool parse_check_other(struct xctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "max_abs", "gate_pct", "series", "min_base_pct", "min_reduction_pct", "min_load",
					    "fixtures", NULL };
	yaml_node_t *v[7];
	struct ss_experiment *x = c->x;
	if (!take_keys(c, n, "check", keys, v))
		return false;
	if (v[6] && !parse_s13_fixtures(c, v[6]))
		return false;
	if (v[0] && !want_num(c, v[0], "max_abs", 0, 1000, &x->check_max_abs))
		return false;
	if (v[1] && !want_num(c, v[1], "gate_pct", 0, 100, &x->check_gate_pct))
		return false;
	if (v[2]) {
		if (!want_strs(c, v[2], "series", &x->check_series))
			return false;
		for (char **p = x->check_series; *p; p++)
			if (series_index(x, *p) < 0)
				return fail(c, v[2], "series '%s' is not a series of this file (expected a series name)", *p);
	}
	if (v[3] && !want_num(c, v[3], "min_base_pct", 0, 100, &x->check_min_base_pct))
		return false;
	if (v[4] && !want_num(c, v[4], "min_reduction_pct", 0, 100, &x->check_min_reduction_pct))
		return false;
	if (v[5] && !want_num(c, v[5], "min_load", 0, 1e9, &x->check_min_load))
		return false;
	return true;
}

static bool parse_quick(struct xctx *c, yaml_node_t *n)
{
	static const char *const keys[] = { "series", "loads", "seeds", "warmup", "duration", "max_abs", NULL };
	yaml_node_t *v[6];
	struct ss_experiment *x = c->x;
	struct ss_xp_quick *q = &x->quick;
	if (!take_keys(c, n, "quick", keys, v))
		return false;
	if (!v[1] || !v[2] || !v[4])
		return fail(c, n, "quick needs loads, seeds and duration (expected a reduced grid: loads whose real sign is 0)");
	q->present = true;
	q->max_abs = NAN;
	q->warmup_ns = x->warmup_ns;
	uint64_t ns;
	if (v[0]) {
		if (!want_strs(c, v[0], "series", &q->series))
			return false;
		for (char **p = q->series; *p; p++)
			if (series_index(x, *p) < 0)
				return fail(c, v[0], "series '%s' is not a series of this file (expected a series name)", *p);
	}
	if (!want_nums(c, v[1], "quick loads", 0, 1e9, false, &q->loads, &q->nr_loads) ||
	    !want_uint(c, v[2], "quick seeds", 2, 100, &ns) || !want_time(c, v[4], "quick duration", &q->duration_ns))
		return false;
	q->nr_seeds = (unsigned)ns;
	if (v[3] && !want_time(c, v[3], "quick warmup", &q->warmup_ns))
		return false;
	if (v[5] && !want_num(c, v[5], "max_abs", 0, 1000, &q->max_abs))
		return false;
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		bool in = !q->series;
		for (char **p = q->series; p && *p; p++)
			in |= !strcmp(*p, se->name);
		for (unsigned i = 0; in && i < q->nr_loads; i++) {
			int l = load_index(se, q->loads[i]);
			if (l < 0)
				return fail(c, v[1], "quick load %g is not a load of series %s (expected one of its loads)", q->loads[i], se->name);
			if (ss_xp_real_sign(se, (unsigned)l, ss_xp_epsilon(se)) != '0')
				return fail(c, v[1], "quick load %g of series %s has real sign %c (expected a neutral load: real sign 0)",
					    q->loads[i], se->name, ss_xp_real_sign(se, (unsigned)l, ss_xp_epsilon(se)));
		}
	}
	return true;
}

static bool parse_top(struct xctx *c, yaml_node_t *root)
{
	static const char *const keys[] = { "id", "title", "grade", "source", "kernel", "seed_kernel", "topology", "nodes",
					    "policies", "seeds", "warmup", "duration", "set", "series", "rules", "notes",
					    "check", "quick", NULL };
	enum { ID, TITLE, GRADE, SOURCE, KERNEL, SKERNEL, TOPO, NODES, POLS, SEEDS, WARM, DUR, SET, SERIES, RULES, NOTES,
	       CHECK, QUICK, NK };
	yaml_node_t *v[NK];
	struct ss_experiment *x = c->x;
	if (!take_keys(c, root, "the experiment", keys, v))
		return false;
	static const int req[] = { ID, TITLE, GRADE, SOURCE, KERNEL, SKERNEL, RULES };
	for (unsigned i = 0; i < G_N_ELEMENTS(req); i++)
		if (!v[req[i]])
			return fail(c, root, "the experiment has no '%s' (expected id, title, grade, source, kernel, seed_kernel and rules)",
				    keys[req[i]]);
	if (!want_str(c, v[ID], "id", &x->id) || !want_str(c, v[TITLE], "title", &x->title) ||
	    !want_str(c, v[SOURCE], "source", &x->source) || !want_str(c, v[KERNEL], "kernel", &x->kernel) ||
	    !want_str(c, v[SKERNEL], "seed_kernel", &x->seed_kernel))
		return false;
	g_autofree char *base = g_path_get_basename(c->file);
	char *dot = strrchr(base, '.');
	if (dot)
		*dot = '\0';
	if (!g_regex_match_simple("^[A-Za-z0-9]+$", x->id, 0, 0) || strcmp(base, x->id))
		return fail(c, v[ID], "id '%s' does not match the file name '%s' (expected letters and digits, equal to the file's stem)", x->id, base);
	g_autofree char *g = NULL;
	if (!want_str(c, v[GRADE], "grade", &g))
		return false;
	if (strcmp(g, "A") && strcmp(g, "B"))
		return fail(c, v[GRADE], "grade '%s' (expected A or B)", g);
	x->grade = g[0];
	if (strcmp(x->kernel, "6.6") && strcmp(x->kernel, "5.17") && strcmp(x->kernel, "newest"))
		return fail(c, v[KERNEL], "kernel '%s' (expected 6.6, 5.17 or newest)", x->kernel);
	if (v[NOTES] && !want_str(c, v[NOTES], "notes", &x->notes))
		return false;
	if (v[TOPO]) {
		if (!want_str(c, v[TOPO], "topology", &x->topology_file))
			return false;
		x->topology_path = resolve(x, x->topology_file);
	}
	if (v[NODES] && !want_str(c, v[NODES], "nodes", &x->nodes))
		return false;
	x->warmup_ns = UINT64_C(1000000000);
	x->duration_ns = UINT64_C(3000000000);
	if (v[WARM] && !want_time(c, v[WARM], "warmup", &x->warmup_ns))
		return false;
	if (v[DUR] && !want_time(c, v[DUR], "duration", &x->duration_ns))
		return false;
	x->set = g_new0(char *, 1);
	if (v[SERIES]) {
		if (!v[POLS] || !v[SEEDS])
			return fail(c, v[SERIES], "an experiment with series needs policies and seeds (expected both at the top level)");
		if (!parse_policies(c, v[POLS]) || !want_seeds(c, v[SEEDS], &x->seeds, &x->nr_seeds))
			return false;
		if (v[SET] && !want_set(c, v[SET], "set", &x->set))
			return false;
		yaml_node_t *sn = v[SERIES];
		if (sn->type != YAML_SEQUENCE_NODE || sn->data.sequence.items.top == sn->data.sequence.items.start)
			return fail(c, sn, "series is %s (expected a non-empty list of series)", ss_yaml_kind_name(sn));
		unsigned cnt = (unsigned)(sn->data.sequence.items.top - sn->data.sequence.items.start);
		x->series = g_new0(struct ss_xp_series, cnt);
		for (unsigned i = 0; i < cnt; i++) {
			x->nr_series = i + 1;
			if (!parse_series(c, nd(c, sn->data.sequence.items.start[i]), &x->series[i], i))
				return false;
		}
	} else {
		static const int sweep_only[] = { POLS, SEEDS, SET, TOPO, NODES, QUICK };
		for (unsigned i = 0; i < G_N_ELEMENTS(sweep_only); i++)
			if (v[sweep_only[i]])
				return fail(c, v[sweep_only[i]], "'%s' without series (expected series for a sweep experiment, or check only)",
					    keys[sweep_only[i]]);
	}
	yaml_node_t *rn = v[RULES];
	if (rn->type != YAML_SEQUENCE_NODE || rn->data.sequence.items.top == rn->data.sequence.items.start)
		return fail(c, rn, "rules is %s (expected a non-empty list of rules)", ss_yaml_kind_name(rn));
	unsigned cnt = (unsigned)(rn->data.sequence.items.top - rn->data.sequence.items.start);
	x->rules = g_new0(struct ss_xp_rule, cnt);
	/* at most one named check, besides S13's identity, which reads no sweep figures */
	const struct ss_xp_rule *check_rule = NULL, *identity_rule = NULL;
	for (unsigned i = 0; i < cnt; i++) {
		x->nr_rules = i + 1;
		if (!parse_rule(c, nd(c, rn->data.sequence.items.start[i]), &x->rules[i], i))
			return false;
		if (x->rules[i].kind == SS_XP_CHECK) {
			const struct ss_xp_rule **slot = strcmp(x->rules[i].check, "s13_probe_identity") ? &check_rule : &identity_rule;
			if (*slot)
				return fail(c, nd(c, rn->data.sequence.items.start[i]), "a second check rule (expected at most one named check per experiment)");
			*slot = &x->rules[i];
		}
	}
	if (identity_rule) {
		if (!v[CHECK])
			return fail(c, rn, "check s13_probe_identity has no inputs (expected check: {fixtures: [{llc, pinned}, ...]})");
		if (x->nr_policies < 2)
			return fail(c, rn, "check s13_probe_identity compares the first two policies (expected at least two)");
		for (unsigned p = 0; p < 2; p++)
			if (x->policies[p].set[0])
				return fail(c, rn, "check s13_probe_identity runs plain policies (expected no set: on policy '%s')", x->policies[p].label);
	}
	/* defaults of the sweep checks, as seed-experiments.md gives them */
	x->check_max_abs = check_rule && !strcmp(check_rule->check, "s13_mechanism_gate") ? 2 : 3;
	x->check_gate_pct = 2;
	x->check_min_base_pct = 5;
	x->check_min_reduction_pct = 30;
	if (check_rule) {
		bool needs_series = strcmp(check_rule->check, "s06_pelt") && strcmp(check_rule->check, "s07_budgets");
		if (needs_series != (x->nr_series > 0))
			return fail(c, rn, "check %s %s (expected %s)", check_rule->check, needs_series ? "reads sweep figures but the file has no series" : "takes no series",
				    needs_series ? "series" : "no series, policies or seeds");
		if (!needs_series && !v[CHECK])
			return fail(c, root, "check %s has no inputs (expected a check: mapping, docs/experiments.md)", check_rule->check);
		if (!needs_series && cnt != 1)
			return fail(c, rn, "check %s is the only rule of its experiment (expected one rule)", check_rule->check);
	}
	if (v[CHECK]) {
		if (!check_rule && !identity_rule)
			return fail(c, v[CHECK], "check: without a check rule (expected a rule {rule: check, name: ...})");
		bool ok = !check_rule                                 ? parse_check_other(c, v[CHECK])
			  : !strcmp(check_rule->check, "s06_pelt")    ? parse_check_s06(c, v[CHECK])
			  : !strcmp(check_rule->check, "s07_budgets") ? parse_check_s07(c, v[CHECK])
								      : parse_check_other(c, v[CHECK]);
		if (!ok)
			return false;
		if (identity_rule && !x->s13)
			return fail(c, v[CHECK], "check s13_probe_identity needs fixtures (expected check: {fixtures: [{llc, pinned}, ...]})");
		if (!identity_rule && x->s13)
			return fail(c, v[CHECK], "fixtures without a s13_probe_identity rule (expected the rule {rule: check, name: s13_probe_identity})");
		if (x->s13) {
			x->s13->base = x->policies[0].policy;
			x->s13->variant = x->policies[1].policy;
		}
	} else if (!x->nr_series && !check_rule) {
		return fail(c, root, "the experiment has no series and no check (expected one of them)");
	}
	if (check_rule && !strcmp(check_rule->check, "s17_cost_off") && !x->check_series)
		return fail(c, v[CHECK] ? v[CHECK] : rn, "check s17_cost_off needs its control series (expected check: {series: [NAME]})");
	if (v[QUICK] && !parse_quick(c, v[QUICK]))
		return false;
	return true;
}

struct ss_experiment *ss_experiment_load(const char *path, GError **err)
{
	char *text = NULL;
	size_t len = 0;
	yaml_parser_t ps;
	yaml_document_t doc, extra;
	bool ok = false;

	if (!ss_read_input_file(path, "experiment file", &text, &len, err))
		return NULL;
	struct ss_experiment *x = g_new0(struct ss_experiment, 1);
	struct xctx c = { .file = path, .doc = &doc, .err = err, .x = x };
	x->file = g_strdup(path);
	x->dir = g_path_get_dirname(path);
	if (!yaml_parser_initialize(&ps)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: out of memory while reading YAML", path);
		goto out_text;
	}
	yaml_parser_set_input_string(&ps, (const unsigned char *)text, len);
	if (!ss_yaml_check_depth(err, path, text, len))
		goto out_parser;
	if (!yaml_parser_load(&ps, &doc)) {
		ss_yaml_syntax_error(err, path, &ps, text, len);
		goto out_parser;
	}
	yaml_node_t *root = yaml_document_get_root_node(&doc);
	if (!root) {
		fail(&c, NULL, "no experiment in the file (expected a mapping with id, title, grade, source, kernel, seed_kernel and rules)");
		goto out_doc;
	}
	if (!yaml_parser_load(&ps, &extra)) {
		ss_yaml_syntax_error(err, path, &ps, text, len);
		goto out_doc;
	}
	if (yaml_document_get_root_node(&extra)) {
		fail(&c, yaml_document_get_root_node(&extra), "a second YAML document (expected one experiment per file)");
		yaml_document_delete(&extra);
		goto out_doc;
	}
	yaml_document_delete(&extra);
	ok = parse_top(&c, root);
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&ps);
out_text:
	g_free(text);
	if (!ok) {
		ss_experiment_free(x);
		return NULL;
	}
	return x;
}

static void free_s13(struct ss_xp_check_s13 *s)
{
	if (!s)
		return;
	g_free(s->llc);
	g_free(s->pinned);
	g_free(s);   /* base and variant are the experiment's policy names */
}

static void free_s07(struct ss_xp_check_s07 *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nr_fixtures; i++) {
		struct ss_xp_check_s07_fixture *f = &s->fixtures[i];
		for (unsigned p = 0; f->policies && f->policies[p]; p++) {
			g_free(f->found[p]);
			g_free(f->probes[p]);
		}
		g_strfreev(f->policies);
		g_free(f->found);
		g_free(f->probes);
		g_free(f->nr_idle_scan);
	}
	g_free(s->fixtures);
	g_free(s->util_pct);
	g_free(s->linear);
	g_free(s->quadratic);
	g_free(s);
}

void ss_experiment_free(struct ss_experiment *x)
{
	if (!x)
		return;
	for (unsigned i = 0; i < x->nr_policies; i++) {
		g_free(x->policies[i].label);
		g_free(x->policies[i].policy);
		g_strfreev(x->policies[i].set);
	}
	g_free(x->policies);
	for (unsigned i = 0; i < x->nr_series; i++) {
		struct ss_xp_series *s = &x->series[i];
		g_free(s->name);
		g_free(s->workload_file);
		g_free(s->workload_path);
		g_free(s->topology_file);
		g_free(s->topology_path);
		g_free(s->nodes);
		g_strfreev(s->params);
		g_strfreev(s->set);
		g_free(s->metric);
		g_free(s->unit);
		g_free(s->unit_param);
		g_free(s->loads);
		g_free(s->real);
		g_free(s->unscored);
		g_free(s->real_source);
		g_free(s->seeds);
	}
	g_free(x->series);
	for (unsigned i = 0; i < x->nr_rules; i++) {
		struct ss_xp_rule *r = &x->rules[i];
		g_free(r->id);
		g_strfreev(r->series);
		g_free(r->policy);
		g_free(r->loads);
		g_free(r->at);
		g_free(r->metric);
		g_free(r->num);
		g_free(r->den);
		g_free(r->other);
		g_free(r->check);
	}
	g_free(x->rules);
	g_strfreev(x->quick.series);
	g_free(x->quick.loads);
	if (x->s06) {
		g_free(x->s06->busy_pct);
		g_free(x->s06->real);
		g_free(x->s06);
	}
	free_s07(x->s07);
	free_s13(x->s13);
	g_strfreev(x->check_series);
	g_strfreev(x->set);
	g_free(x->seeds);
	g_free(x->id);
	g_free(x->title);
	g_free(x->source);
	g_free(x->kernel);
	g_free(x->seed_kernel);
	g_free(x->notes);
	g_free(x->topology_file);
	g_free(x->topology_path);
	g_free(x->nodes);
	g_free(x->file);
	g_free(x->dir);
	g_free(x);
}

static gint cmp_str(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **ss_experiment_files(const char *dir, GError **err)
{
	GDir *d = g_dir_open(dir, 0, err);
	if (!d) {
		g_prefix_error(err, "--experiments: ");
		return NULL;
	}
	GPtrArray *a = g_ptr_array_new();
	const char *n;
	while ((n = g_dir_read_name(d)))
		if (g_str_has_suffix(n, ".yaml"))
			g_ptr_array_add(a, g_build_filename(dir, n, NULL));
	g_dir_close(d);
	g_ptr_array_sort(a, cmp_str);
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

/*
 * xp_rules.c — the pass rules of experiment files (docs/experiments.md):
 * Δ % per load with paired 95 % intervals, simulated and real signs, rules
 * D (direction), X (crossover), range, sign, peak, counters, contrast, and
 * the named checks (S06 PELT, S07 budgets, S13 mechanism gate, S17 cost-off
 * control, S19 burst windows).
 */
#include "simsched/experiment.h"
#include "simsched/runlen.h"
#include "simsched/compare.h"
#include "simsched/error.h"
#include "simsched/params.h"
#include "simsched/pelt_task.h"
#include "simsched/topology.h"
#include "simsched/workload.h"
#include "ss_sched.h"

#include <cjson/cJSON.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *ss_xp_status_name(enum ss_xp_status s)
{
	static const char *const n[] = { "PASS", "FAIL", "INVALID", "SKIP" };
	return n[s];
}

static bool is_latency_metric(const char *m)
{
	return strstr(m, "latency") || strstr(m, "p99") || strstr(m, "p90") || strstr(m, "p50");
}

double ss_xp_epsilon(const struct ss_xp_series *s)
{
	return s->latency || is_latency_metric(s->metric) ? 10.0 : 3.0;
}

char ss_xp_real_sign(const struct ss_xp_series *s, unsigned l, double eps)
{
	double r = s->real[l];
	if (s->unscored[l] || isnan(r))
		return 'u';
	return r >= eps ? '+' : r <= -eps ? '-' : '0';
}

static char sim_sign(const struct ss_xp_cell *c, double eps)
{
	if (fabs(c->delta) < eps)
		return '0';
	if (c->delta > 0 && c->lo > 0)
		return '+';
	if (c->delta < 0 && c->hi < 0)
		return '-';
	return '0';
}

/* ------------------------------------------------------------ data */

struct ss_xp_data *ss_xp_data_new(const struct ss_experiment *x)
{
	struct ss_xp_data *d = g_new0(struct ss_xp_data, 1);
	d->x = x;
	d->cells = g_new0(struct ss_xp_cell *, x->nr_series + 1);
	d->records = g_new0(void **, x->nr_series + 1);
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		d->cells[s] = g_new0(struct ss_xp_cell, (size_t)x->nr_policies * se->nr_loads);
		d->records[s] = g_new0(void *, (size_t)x->nr_policies * se->nr_loads * se->nr_seeds + 1);
	}
	return d;
}

void ss_xp_data_free(struct ss_xp_data *d)
{
	if (!d)
		return;
	for (unsigned s = 0; s < d->x->nr_series; s++) {
		const struct ss_xp_series *se = &d->x->series[s];
		for (unsigned i = 0; i < d->x->nr_policies * se->nr_loads; i++)
			g_free(d->cells[s][i].why);
		g_free(d->cells[s]);
		g_free(d->records[s]);   /* the records belong to the caller */
	}
	g_free(d->cells);
	g_free(d->records);
	g_free(d);
}

/* Two-sided 95 % Student t quantile, df degrees of freedom (runlen.h). */
#define t975 ss_t975

/*
 * The one place that reads a record's validity fields. A record from a
 * build that writes them has nr_idle_scan_written_ns (when the last LLC got
 * its first nr_idle_scan write by a periodic balance; null: never) and
 * ended_ns (when the run stopped), at the top level or under
 * "validity"; without them validity cannot be told. The window starts at
 * window_start_ns (newer records: for a finish-time metric the run's own
 * start of measurement, t = 0 or the first `from: begin` transaction,
 * whatever the warmup), else at warmup_ns. A run that deadlocked
 * (deadlock_at_ns) is INVALID whatever else it says.
 */
int ss_xp_record_validity(const void *record, char **why)
{
	const cJSON *o = record;
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, "validity");
	const cJSON *src = cJSON_IsObject(v) ? v : o;
	const cJSON *w = cJSON_GetObjectItemCaseSensitive(src, "nr_idle_scan_written_ns");
	const cJSON *e = cJSON_GetObjectItemCaseSensitive(src, "ended_ns");
	/* the window's own start when the record has it (a finish-time metric
	 * measures from t = 0 or its first begin, not from the warmup) */
	const cJSON *warm = cJSON_GetObjectItemCaseSensitive(src, "window_start_ns");
	const cJSON *dl = cJSON_GetObjectItemCaseSensitive(o, "deadlock_at_ns");
	if (cJSON_IsNumber(dl)) {
		*why = g_strdup_printf("the run deadlocked at %.3f s", dl->valuedouble / 1e9);
		return 1;
	}
	if (!cJSON_IsNumber(warm))
		warm = cJSON_GetObjectItemCaseSensitive(o, "window_start_ns");
	if (!cJSON_IsNumber(warm))
		warm = cJSON_GetObjectItemCaseSensitive(o, "warmup_ns");
	if (!w || !e || !cJSON_IsNumber(warm))
		return 2;
	double start = warm->valuedouble;
	if (cJSON_IsNull(w) || (cJSON_IsNumber(w) && w->valuedouble > start)) {
		*why = cJSON_IsNull(w) ? g_strdup("nr_idle_scan never written by a periodic balance")
				       : g_strdup_printf("window starts at %.3f s, before every LLC's nr_idle_scan was written (%.3f s)",
							 start / 1e9, w->valuedouble / 1e9);
		return 1;
	}
	if (cJSON_IsNumber(e) && e->valuedouble < start) {
		*why = g_strdup_printf("run ended at %.3f s, before its window (%.3f s)", e->valuedouble / 1e9, start / 1e9);
		return 1;
	}
	return 0;
}

static const cJSON *rec(const struct ss_xp_data *d, unsigned s, unsigned p, unsigned l, unsigned k)
{
	const struct ss_xp_series *se = &d->x->series[s];
	return d->records[s][((size_t)p * se->nr_loads + l) * se->nr_seeds + k];
}

/* metric of a record: value, or NAN + *why */
static double rec_metric(const cJSON *r, const char *metric, bool *hib, char **why)
{
	const cJSON *m = cJSON_GetObjectItemCaseSensitive(cJSON_GetObjectItemCaseSensitive(r, "metrics"), metric);
	if (!m) {
		*why = g_strdup_printf("metric %s not available", metric);
		return NAN;
	}
	if (!cJSON_IsNumber(m)) {
		*why = g_strdup_printf("metric %s has no value (no samples)", metric);
		return NAN;
	}
	if (hib) {
		enum ss_cmp_metric cm;
		if (!strcmp(metric, "workload")) {
			const cJSON *wm = cJSON_GetObjectItemCaseSensitive(r, "workload_metric");
			*hib = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(wm, "higher_is_better"));
		} else if (ss_cmp_metric_parse(metric, &cm, NULL)) {
			*hib = ss_cmp_metric_higher_is_better(cm);
		} else {
			*why = g_strdup_printf("metric %s: direction not known to this build", metric);
			return NAN;
		}
	}
	return m->valuedouble;
}

void ss_xp_data_compute(struct ss_xp_data *d)
{
	const struct ss_experiment *x = d->x;
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		unsigned n = se->nr_seeds;
		for (unsigned p = 1; p < x->nr_policies; p++)
			for (unsigned l = 0; l < se->nr_loads; l++) {
				struct ss_xp_cell *c = &d->cells[s][p * se->nr_loads + l];
				double sb = 0, sn = 0, *diff = g_new0(double, n);
				bool hib = true, ok = true;
				g_clear_pointer(&c->why, g_free);
				c->have = c->invalid = c->unknown_validity = false;
				for (unsigned k = 0; ok && k < n; k++) {
					const cJSON *b = rec(d, s, 0, l, k), *w = rec(d, s, p, l, k);
					char *why = NULL;
					if (!b || !w) {
						c->why = g_strdup_printf("seed %" G_GUINT64_FORMAT " of %s not run", se->seeds[k],
									 !b ? x->policies[0].label : x->policies[p].label);
						ok = false;
						break;
					}
					for (int i = 0; i < 2; i++) {
						int v = ss_xp_record_validity(i ? w : b, &why);
						if (v == 1) {
							c->invalid = true;
							c->why = why;
							ok = false;
							break;
						}
						if (v == 2)
							c->unknown_validity = true;
					}
					if (!ok)
						break;
					double vb = rec_metric(b, se->metric, &hib, &why);
					double vn = isnan(vb) ? NAN : rec_metric(w, se->metric, NULL, &why);
					if (isnan(vb) || isnan(vn)) {
						c->why = why;
						c->invalid = strstr(why, "not available") != NULL;
						ok = false;
						break;
					}
					sb += vb;
					sn += vn;
					diff[k] = vn - vb;
				}
				if (ok && sb == 0) {
					c->why = g_strdup("baseline mean is 0");
					ok = false;
				}
				if (ok) {
					double mb = sb / n, mn = sn / n, md = (sn - sb) / n, var = 0;
					for (unsigned k = 0; k < n; k++)
						var += (diff[k] - md) * (diff[k] - md);
					double half = n > 1 ? t975(n - 1) * sqrt(var / (n - 1)) / sqrt((double)n) : INFINITY;
					double sgn = hib ? 1.0 : -1.0;
					c->have = true;
					c->delta = sgn * 100.0 * (mn - mb) / mb;
					double a = sgn * 100.0 * (md - half) / mb, bnd = sgn * 100.0 * (md + half) / mb;
					c->lo = n > 1 ? fmin(a, bnd) : -INFINITY;
					c->hi = n > 1 ? fmax(a, bnd) : INFINITY;
				}
				g_free(diff);
			}
	}
}

struct ss_xp_data *ss_xp_data_from_real(const struct ss_experiment *x, int transform)
{
	struct ss_xp_data *d = ss_xp_data_new(x);
	d->synthetic = true;
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		int peak = -1;
		for (unsigned l = 0; l < se->nr_loads; l++)
			if (!isnan(se->real[l]) && !se->unscored[l] && (peak < 0 || fabs(se->real[l]) > fabs(se->real[peak])))
				peak = (int)l;
		/* a series without any real value is a control (S17's cost-off run):
		 * what the experiment expects of it is no effect, Δ = 0 */
		bool control = true;
		for (unsigned l = 0; l < se->nr_loads; l++)
			control = control && isnan(se->real[l]);
		for (unsigned p = 1; p < x->nr_policies; p++)
			for (unsigned l = 0; l < se->nr_loads; l++) {
				struct ss_xp_cell *c = &d->cells[s][p * se->nr_loads + l];
				if (control) {
					c->have = true;
					continue;
				}
				if (isnan(se->real[l])) {
					c->why = g_strdup("no real value");
					continue;
				}
				c->have = true;
				c->delta = transform == 1 ? 0 : transform == 2 && (int)l == peak ? -se->real[l] : se->real[l];
				c->lo = c->hi = c->delta;
			}
	}
	return d;
}

double ss_xp_counter(const struct ss_xp_data *d, unsigned s, unsigned p, unsigned l, const char *metric, char **why)
{
	const struct ss_xp_series *se = &d->x->series[s];
	double sum = 0;
	for (unsigned k = 0; k < se->nr_seeds; k++) {
		const cJSON *r = rec(d, s, p, l, k);
		if (!r) {
			*why = g_strdup_printf("series %s, %s, load %g: seed %" G_GUINT64_FORMAT " not run", se->name,
					       d->x->policies[p].label, se->loads[l], se->seeds[k]);
			return NAN;
		}
		char *w = NULL;
		if (ss_xp_record_validity(r, &w) == 1) {
			*why = g_strdup_printf("series %s, %s, load %g: %s", se->name, d->x->policies[p].label, se->loads[l], w);
			g_free(w);
			return NAN;
		}
		double v = rec_metric(r, metric, NULL, &w);
		if (isnan(v)) {
			*why = w;
			return NAN;
		}
		sum += v;
	}
	return sum / se->nr_seeds;
}

/* ------------------------------------------------------------ rules */

struct rctx {
	const struct ss_xp_data *d;
	const struct ss_xp_rule *r;
	GString *why;
	enum ss_xp_status st;
	GHashTable *seen;         /* reasons of missing points already noted (said once) */
	unsigned repeats;         /* points whose reason was said already */
};

static void note(struct rctx *c, enum ss_xp_status st, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static void note(struct rctx *c, enum ss_xp_status st, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	if (c->why->len)
		g_string_append(c->why, "; ");
	g_string_append_vprintf(c->why, fmt, ap);
	va_end(ap);
	/* INVALID outranks FAIL: a rule reading an invalid point says nothing */
	if (st == SS_XP_INVALID || (st == SS_XP_FAIL && c->st != SS_XP_INVALID))
		c->st = st;
}

static bool reads_series(const struct ss_xp_rule *r, const char *name)
{
	if (!r->series)
		return true;
	for (char **p = r->series; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

static unsigned column(const struct ss_experiment *x, const char *label)
{
	if (label)
		for (unsigned i = 0; i < x->nr_policies; i++)
			if (!strcmp(x->policies[i].label, label))
				return i;
	return 1;
}

static int lidx(const struct ss_xp_series *s, double v)
{
	for (unsigned i = 0; i < s->nr_loads; i++)
		if (s->loads[i] == v)
			return (int)i;
	return -1;
}

/* The cell, or NULL after noting why it is missing (INVALID). */
static const struct ss_xp_cell *cell(struct rctx *c, unsigned s, unsigned l)
{
	const struct ss_experiment *x = c->d->x;
	const struct ss_xp_series *se = &x->series[s];
	const struct ss_xp_cell *ce = &c->d->cells[s][column(x, c->r->policy) * se->nr_loads + l];
	if (ce->have)
		return ce;
	const char *why = ce->why ? ce->why : "no value";
	if (g_hash_table_contains(c->seen, why)) {
		c->repeats++;
		c->st = SS_XP_INVALID;
		return NULL;
	}
	g_hash_table_add(c->seen, (gpointer)why);
	note(c, SS_XP_INVALID, "%s %g %s: %s", se->name, se->loads[l], se->unit, why);
	return NULL;
}

static double rule_eps(const struct ss_xp_rule *r, const struct ss_xp_series *s)
{
	return isnan(r->epsilon) ? ss_xp_epsilon(s) : r->epsilon;
}

static void rule_direction(struct rctx *c, unsigned s)
{
	const struct ss_xp_series *se = &c->d->x->series[s];
	double eps = rule_eps(c->r, se);
	bool lat = se->latency || is_latency_metric(se->metric);
	double nmax = isnan(c->r->neutral_max) ? (lat ? 15.0 : 5.0) : c->r->neutral_max;
	unsigned k = 0, misses = 0;
	bool fatal = false;
	GString *m = g_string_new(NULL);
	for (unsigned l = 0; l < se->nr_loads; l++) {
		char rs = ss_xp_real_sign(se, l, eps);
		if (rs == 'u')
			continue;
		k++;
		const struct ss_xp_cell *ce = cell(c, s, l);
		if (!ce)
			continue;
		char ss = sim_sign(ce, eps);
		bool miss = rs == '0' ? fabs(ce->delta) > nmax : ss != rs;
		if (miss) {
			misses++;
			bool opp = rs != '0' && ss != '0' && ss != rs && fabs(se->real[l]) >= 10;
			fatal |= opp;
			g_string_append_printf(m, "%s%g: sim %+.1f%% (%c) vs real %+.1f%% (%c)%s", m->len ? ", " : "", se->loads[l],
					       ce->delta, ss, se->real[l], rs, opp ? " opposite" : "");
		}
	}
	unsigned allowed = c->r->misses >= 0 ? (unsigned)c->r->misses : k / 4;
	if (misses > allowed || fatal)
		note(c, SS_XP_FAIL, "%s: %u miss%s of %u scored loads (%u allowed%s): %s", se->name, misses, misses == 1 ? "" : "es",
		     k, allowed, fatal ? ", an opposite sign where |real| >= 10%" : "", m->str);
	g_string_free(m, TRUE);
}

static void rule_crossover(struct rctx *c, unsigned s)
{
	const struct ss_xp_series *se = &c->d->x->series[s];
	int first = -1;
	for (unsigned l = 0; l < se->nr_loads; l++) {
		const struct ss_xp_cell *ce = cell(c, s, l);
		if (!ce)
			return;
		if (first < 0 && ce->delta >= c->r->threshold)
			first = (int)l;
		else if (first >= 0 && c->r->sustain && ce->delta < c->r->threshold)
			note(c, SS_XP_FAIL, "%s: %+.1f%% at %g, below %g%% after the crossover at %g", se->name, ce->delta,
			     se->loads[l], c->r->threshold, se->loads[first]);
	}
	if (first < 0) {
		note(c, SS_XP_FAIL, "%s: no load reaches %+g%%", se->name, c->r->threshold);
		return;
	}
	for (unsigned i = 0; i < c->r->nr_at; i++)
		if (c->r->at[i] == se->loads[first])
			return;
	note(c, SS_XP_FAIL, "%s: first load with >= %+g%% is %g (expected one of the rule's within)", se->name,
	     c->r->threshold, se->loads[first]);
}

static bool in_range(const struct ss_xp_rule *r, double v)
{
	if (!isnan(r->min) && (r->strict ? v <= r->min : v < r->min))
		return false;
	if (!isnan(r->max) && (r->strict ? v >= r->max : v > r->max))
		return false;
	return true;
}

static void bounds(GString *g, const struct ss_xp_rule *r)
{
	if (!isnan(r->min) && !isnan(r->max))
		g_string_append_printf(g, "[%g, %g]", r->min, r->max);
	else if (!isnan(r->min))
		g_string_append_printf(g, ">= %g", r->min);
	else
		g_string_append_printf(g, "<= %g", r->max);
}

/* The loads a rule reads on series s: its `loads`, or every scored load. */
static unsigned rule_load_list(const struct ss_xp_rule *r, const struct ss_xp_series *se, unsigned *out)
{
	unsigned n = 0;
	if (r->nr_loads) {
		for (unsigned i = 0; i < r->nr_loads; i++)
			out[n++] = (unsigned)lidx(se, r->loads[i]);
		return n;
	}
	for (unsigned l = 0; l < se->nr_loads; l++)
		if (ss_xp_real_sign(se, l, ss_xp_epsilon(se)) != 'u')
			out[n++] = l;
	return n;
}

static void rule_range(struct rctx *c, unsigned s)
{
	const struct ss_xp_series *se = &c->d->x->series[s];
	g_autofree unsigned *ls = g_new0(unsigned, se->nr_loads + c->r->nr_loads + 1);
	unsigned n = rule_load_list(c->r, se, ls), in = 0;
	double sum = 0;
	GString *bad = g_string_new(NULL), *b = g_string_new(NULL);
	bounds(b, c->r);
	for (unsigned i = 0; i < n; i++) {
		const struct ss_xp_cell *ce = cell(c, s, ls[i]);
		if (!ce)
			goto out;
		double v = c->r->abs ? fabs(ce->delta) : ce->delta;
		sum += v;
		if (in_range(c->r, v))
			in++;
		else
			g_string_append_printf(bad, "%s%g: %+.1f%%", bad->len ? ", " : "", se->loads[ls[i]], ce->delta);
	}
	if (c->r->of_mean) {
		double mean = n ? sum / n : NAN;
		if (!n || !in_range(c->r, mean))
			note(c, SS_XP_FAIL, "%s: mean %sΔ %.1f%% not %s", se->name, c->r->abs ? "|" : "", mean, b->str);
	} else {
		unsigned need = c->r->at_least >= 0 ? (unsigned)c->r->at_least : n;
		if (in < need)
			note(c, SS_XP_FAIL, "%s: %u of %u loads with %sΔ%s %s (%u needed): %s", se->name, in, n, c->r->abs ? "|" : "",
			     c->r->abs ? "|" : "", b->str, need, bad->str);
	}
out:
	g_string_free(bad, TRUE);
	g_string_free(b, TRUE);
}

static void rule_sign(struct rctx *c, unsigned s)
{
	const struct ss_xp_series *se = &c->d->x->series[s];
	g_autofree unsigned *ls = g_new0(unsigned, se->nr_loads + c->r->nr_loads + 1);
	unsigned n = rule_load_list(c->r, se, ls);
	for (unsigned i = 0; i < n; i++) {
		const struct ss_xp_cell *ce = cell(c, s, ls[i]);
		if (!ce)
			return;
		char sg = sim_sign(ce, rule_eps(c->r, se));
		if (sg != c->r->sign)
			note(c, SS_XP_FAIL, "%s %g: sign %c (%+.1f%%), expected %c", se->name, se->loads[ls[i]], sg, ce->delta, c->r->sign);
	}
}

static void rule_peak(struct rctx *c, unsigned s)
{
	const struct ss_xp_series *se = &c->d->x->series[s];
	int best = -1;
	double bv = 0;
	for (unsigned l = 0; l < se->nr_loads; l++) {
		if (se->unscored[l])
			continue;
		const struct ss_xp_cell *ce = cell(c, s, l);
		if (!ce)
			return;
		double v = c->r->by_abs ? fabs(ce->delta) : ce->delta;
		if (best < 0 || v > bv) {
			best = (int)l;
			bv = v;
		}
	}
	if (best < 0) {
		note(c, SS_XP_INVALID, "%s: no load to find a peak in", se->name);
		return;
	}
	bool near = false;
	for (unsigned i = 0; i < c->r->nr_at; i++) {
		int a = lidx(se, c->r->at[i]);
		near |= abs(a - best) <= (int)c->r->steps;
	}
	double d = c->d->cells[s][column(c->d->x, c->r->policy) * se->nr_loads + (unsigned)best].delta;
	if (!near)
		note(c, SS_XP_FAIL, "%s: largest %sΔ at %g (%+.1f%%), not within %u step%s of the rule's loads", se->name,
		     c->r->by_abs ? "|" : "", se->loads[best], d, c->r->steps, c->r->steps == 1 ? "" : "s");
	else if (!isnan(c->r->min) && d < c->r->min)
		note(c, SS_XP_FAIL, "%s: peak %+.1f%% at %g below %g%%", se->name, d, se->loads[best], c->r->min);
}

static void rule_counter(struct rctx *c, unsigned s)
{
	const struct ss_experiment *x = c->d->x;
	const struct ss_xp_series *se = &x->series[s];
	g_autofree unsigned *ls = g_new0(unsigned, se->nr_loads + c->r->nr_loads + 1);
	unsigned n = rule_load_list(c->r, se, ls);
	GString *b = g_string_new(NULL);
	bounds(b, c->r);
	for (unsigned i = 0; i < n; i++) {
		char *why = NULL;
		double v;
		if (c->r->kind == SS_XP_COUNTER) {
			v = ss_xp_counter(c->d, s, column(x, c->r->policy), ls[i], c->r->metric, &why);
		} else {
			double a = ss_xp_counter(c->d, s, column(x, c->r->num), ls[i], c->r->metric, &why);
			double bb = isnan(a) ? NAN : ss_xp_counter(c->d, s, column(x, c->r->den), ls[i], c->r->metric, &why);
			v = isnan(bb) ? NAN : bb == 0 ? (a == 0 ? 1.0 : INFINITY) : a / bb;
		}
		if (isnan(v)) {
			note(c, SS_XP_INVALID, "%s", why);
			g_free(why);
			continue;
		}
		if (!in_range(c->r, v))
			note(c, SS_XP_FAIL, "%s %g: %s %s%s = %.3g, expected %s", se->name, se->loads[ls[i]], c->r->metric,
			     c->r->kind == SS_XP_COUNTER_RATIO ? "ratio " : "",
			     c->r->kind == SS_XP_COUNTER_RATIO ? c->r->num : x->policies[column(x, c->r->policy)].label, v, b->str);
	}
	g_string_free(b, TRUE);
}

static void rule_contrast(struct rctx *c, unsigned s)
{
	const struct ss_experiment *x = c->d->x;
	const struct ss_xp_series *se = &x->series[s];
	unsigned o = 0;
	while (strcmp(x->series[o].name, c->r->other))
		o++;
	const struct ss_xp_cell *a = cell(c, s, (unsigned)lidx(se, c->r->load));
	const struct ss_xp_cell *b = cell(c, o, (unsigned)lidx(&x->series[o], c->r->other_load));
	if (a && b && !(a->delta <= b->delta * c->r->max_ratio))
		note(c, SS_XP_FAIL, "%s %g: %+.1f%% > %g × %s %g (%+.1f%%)", se->name, c->r->load, a->delta, c->r->max_ratio,
		     c->r->other, c->r->other_load, b->delta);
}

/* S13: probes saved follow the full-mask-fail rate; no effect without the mechanism. */
static void check_s13(struct rctx *c)
{
	const struct ss_experiment *x = c->d->x;
	struct ss_params prm;
	ss_params_defaults(&prm, NULL);
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		for (unsigned l = 0; l < se->nr_loads; l++) {
			char *why = NULL;
			double rate = ss_xp_counter(c->d, s, 1, l, "full_mask_fail_pct", &why);
			if (isnan(rate)) {
				note(c, SS_XP_INVALID, "%s", why);
				g_free(why);
				return;
			}
			const struct ss_xp_cell *ce = cell(c, s, l);
			if (!ce)
				continue;
			if (rate < x->check_gate_pct) {
				if (fabs(ce->delta) > x->check_max_abs)
					note(c, SS_XP_FAIL, "%s %g: full-mask fails %.2f%% < %g%% but |Δ| = %.1f%% > %g%% (an effect without the mechanism)",
					     se->name, se->loads[l], rate, x->check_gate_pct, fabs(ce->delta), x->check_max_abs);
			} else {
				/* per call: one probe saved in each full-mask fail, one mask operation always */
				double net = rate / 100.0 * (double)prm.probe_llc_ns - (double)prm.clear_target_ns;
				if (net * ce->delta < 0 && fabs(ce->delta) >= ss_xp_epsilon(se))
					note(c, SS_XP_FAIL, "%s %g: Δ %+.1f%% against the sign of probe cost saved − mask-op cost (%+.1f ns per call)",
					     se->name, se->loads[l], ce->delta, net);
			}
		}
	}
}

static bool in_list(char **list, const char *name)
{
	if (!list)
		return true;
	for (char **p = list; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

/* S17's negative control: with the cost its series switch off (`set`), placement alone moves nothing. */
static void check_s17(struct rctx *c)
{
	const struct ss_experiment *x = c->d->x;
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		if (!in_list(x->check_series, se->name))
			continue;
		if (!se->set[0]) {
			note(c, SS_XP_INVALID, "%s: not a control (the series sets no cost off)", se->name);
			continue;
		}
		for (unsigned l = 0; l < se->nr_loads; l++) {
			const struct ss_xp_cell *ce = cell(c, s, l);
			if (ce && fabs(ce->delta) > x->check_max_abs)
				note(c, SS_XP_FAIL, "%s %g: |Δ| %.1f%% > %g%% with the cost off", se->name, se->loads[l],
				     fabs(ce->delta), x->check_max_abs);
		}
	}
}

/* S19: idle-with-work-elsewhere in the windows after bursts, its reduction, and the makespan. */
static void check_s19(struct rctx *c)
{
	const struct ss_experiment *x = c->d->x;
	unsigned p = column(x, "burst_threshold");
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		if (!in_list(x->check_series, se->name))
			continue;
		for (unsigned l = 0; l < se->nr_loads; l++) {
			if (se->loads[l] < x->check_min_load)
				continue;
			char *why = NULL;
			double b = ss_xp_counter(c->d, s, 0, l, "burst_idle_with_work_pct", &why);
			double n = isnan(b) ? NAN : ss_xp_counter(c->d, s, p, l, "burst_idle_with_work_pct", &why);
			double mb = isnan(n) ? NAN : ss_xp_counter(c->d, s, 0, l, "burst_makespan_ns", &why);
			double mn = isnan(mb) ? NAN : ss_xp_counter(c->d, s, p, l, "burst_makespan_ns", &why);
			if (isnan(mn)) {
				note(c, SS_XP_INVALID, "%s", why);
				g_free(why);
				return;
			}
			if (b < x->check_min_base_pct)
				note(c, SS_XP_FAIL, "%s %g: baseline idle-with-work after bursts %.1f%% < %g%%", se->name, se->loads[l], b,
				     x->check_min_base_pct);
			else if (n > b * (1 - x->check_min_reduction_pct / 100.0))
				note(c, SS_XP_FAIL, "%s %g: %s reduces idle-with-work from %.1f%% to %.1f%% (less than %g%%)", se->name,
				     se->loads[l], x->policies[p].label, b, n, x->check_min_reduction_pct);
			if (mn > mb * 1.03)
				note(c, SS_XP_FAIL, "%s %g: makespan %.3f ms under %s vs %.3f ms (longer by more than 3%%)", se->name,
				     se->loads[l], mn / 1e6, x->policies[p].label, mb / 1e6);
		}
	}
}

static void eval_rule(struct rctx *c)
{
	const struct ss_experiment *x = c->d->x;
	const struct ss_xp_rule *r = c->r;
	if (r->kind == SS_XP_CHECK) {
		char *why = NULL;
		if (!strcmp(r->check, "s06_pelt") || !strcmp(r->check, "s07_budgets") || !strcmp(r->check, "s13_probe_identity")) {
			if (c->d->synthetic) {
				note(c, SS_XP_SKIP, "exact check: not graded from a table");
				c->st = SS_XP_SKIP;
				return;
			}
			enum ss_xp_status st = !strcmp(r->check, "s06_pelt")      ? ss_xp_check_s06_pelt(x->s06, &why)
					       : !strcmp(r->check, "s07_budgets") ? ss_xp_check_s07_budgets(x->s07, &why)
										  : ss_xp_check_s13_identity(x->s13, &why);
			note(c, st, "%s", why);
			c->st = st;
			g_free(why);
			return;
		}
		if (c->d->synthetic) {
			note(c, SS_XP_SKIP, "reads counters: not graded from a table");
			c->st = SS_XP_SKIP;
			return;
		}
		if (!strcmp(r->check, "s13_mechanism_gate"))
			check_s13(c);
		else if (!strcmp(r->check, "s17_cost_off"))
			check_s17(c);
		else
			check_s19(c);
		return;
	}
	if ((r->kind == SS_XP_COUNTER || r->kind == SS_XP_COUNTER_RATIO) && c->d->synthetic) {
		note(c, SS_XP_SKIP, "reads counters: not graded from a table");
		c->st = SS_XP_SKIP;
		return;
	}
	for (unsigned s = 0; s < x->nr_series; s++) {
		if (!reads_series(r, x->series[s].name))
			continue;
		switch (r->kind) {
		case SS_XP_DIRECTION: rule_direction(c, s); break;
		case SS_XP_CROSSOVER: rule_crossover(c, s); break;
		case SS_XP_RANGE: rule_range(c, s); break;
		case SS_XP_SIGN: rule_sign(c, s); break;
		case SS_XP_PEAK: rule_peak(c, s); break;
		case SS_XP_COUNTER:
		case SS_XP_COUNTER_RATIO: rule_counter(c, s); break;
		case SS_XP_CONTRAST: rule_contrast(c, s); break;
		default: break;
		}
	}
}

/* --quick: |Δ| within the neutral band at the quick loads (real sign 0 there, checked at load). */
static void eval_quick(struct rctx *c)
{
	const struct ss_experiment *x = c->d->x;
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		if (!in_list(x->quick.series, se->name))
			continue;
		double bound = !isnan(x->quick.max_abs) ? x->quick.max_abs
			       : se->latency || is_latency_metric(se->metric) ? 15.0 : 5.0;
		for (unsigned i = 0; i < x->quick.nr_loads; i++) {
			const struct ss_xp_cell *ce = cell(c, s, (unsigned)lidx(se, x->quick.loads[i]));
			if (ce && fabs(ce->delta) > bound)
				note(c, SS_XP_FAIL, "%s %g: |Δ| %.1f%% > %g%% at a neutral load", se->name, x->quick.loads[i],
				     fabs(ce->delta), bound);
		}
	}
}

struct ss_xp_grade *ss_xp_grade(const struct ss_xp_data *d)
{
	const struct ss_experiment *x = d->x;
	struct ss_xp_grade *g = g_new0(struct ss_xp_grade, 1);
	GString *why = g_string_new(NULL);
	bool any_invalid = false, any_fail = false, any_graded = false;
	g->nr_rules = x->nr_rules + (d->quick && x->quick.present ? 1 : 0);
	g->rules = g_new0(struct ss_xp_rule_result, g->nr_rules);
	for (unsigned i = 0; i < g->nr_rules; i++) {
		struct ss_xp_rule quick_rule = { .kind = SS_XP_RANGE, .grade = 'A', .id = (char *)"quick" };
		bool is_quick = i == x->nr_rules;
		const struct ss_xp_rule *r = is_quick ? &quick_rule : &x->rules[i];
		struct rctx c = { .d = d, .r = r, .why = g_string_new(NULL), .st = SS_XP_PASS,
				  .seen = g_hash_table_new(g_str_hash, g_str_equal) };
		if (is_quick)
			eval_quick(&c);
		else if (d->quick && r->kind != SS_XP_CHECK)
			c.st = SS_XP_SKIP, g_string_append(c.why, "not in --quick");
		else if (d->quick && strcmp(r->check, "s06_pelt") && strcmp(r->check, "s07_budgets"))
			c.st = SS_XP_SKIP, g_string_append(c.why, "not in --quick");
		else
			eval_rule(&c);
		if (c.repeats)
			g_string_append_printf(c.why, " (the same for %u more point%s)", c.repeats, c.repeats == 1 ? "" : "s");
		g_hash_table_destroy(c.seen);
		g->rules[i].status = c.st;
		g->rules[i].why = g_string_free(c.why, FALSE);
		bool counts = x->grade == 'B' || r->grade == 'A';
		if (!counts || c.st == SS_XP_SKIP)
			continue;
		any_graded = true;
		if (c.st == SS_XP_INVALID) {
			/* the first reason in full, then the other rules it makes INVALID by name */
			if (!any_invalid)
				g_string_append_printf(why, "%s: %s", r->id, g->rules[i].why);
			else
				g_string_append_printf(why, "%s%s", strstr(why->str, "; also INVALID: ") ? ", " : "; also INVALID: ", r->id);
			any_invalid = true;
		} else if (c.st == SS_XP_FAIL) {
			any_fail = true;
		}
	}
	if (!any_invalid && any_fail)
		for (unsigned i = 0; i < g->nr_rules; i++)
			if (g->rules[i].status == SS_XP_FAIL && (i == x->nr_rules || x->grade == 'B' || x->rules[i].grade == 'A'))
				g_string_append_printf(why, "%s%s: %s", why->len ? "; " : "",
						       i == x->nr_rules ? "quick" : x->rules[i].id, g->rules[i].why);
	g->status = any_invalid ? SS_XP_INVALID : any_fail ? SS_XP_FAIL : any_graded ? SS_XP_PASS : SS_XP_SKIP;
	for (unsigned s = 0; s < x->nr_series; s++)
		for (unsigned i = 0; i < x->nr_policies * x->series[s].nr_loads; i++)
			g->validity_unknown |= d->cells[s][i].unknown_validity;
	g->why = g_string_free(why, FALSE);
	return g;
}

void ss_xp_grade_free(struct ss_xp_grade *g)
{
	if (!g)
		return;
	for (unsigned i = 0; i < g->nr_rules; i++)
		g_free(g->rules[i].why);
	g_free(g->rules);
	g_free(g->why);
	g_free(g);
}

/* ------------------------------------------------------------ S06 */

enum ss_xp_status ss_xp_check_s06_pelt(const struct ss_xp_check_s06 *c, char **why)
{
	struct ss_params prm;
	GString *g = g_string_new(NULL);
	double *mid = g_new0(double, c->nr_points);
	unsigned inside = 0;
	bool monotone = true;
	enum ss_xp_status st = SS_XP_PASS;

	ss_params_defaults(&prm, NULL);
	for (unsigned i = 0; i < c->nr_points; i++) {
		struct ss_pelt_task_spec sp = { 0 };
		GError *e = NULL;
		sp.period_ns = c->period_ns;
		sp.busy_ns = (uint64_t)llround((double)c->period_ns * c->busy_pct[i] / 100.0);
		sp.weight = 1024;
		sp.capacity = SS_SCHED_CAPACITY_SCALE;
		sp.freq_capacity = (unsigned long)(c->freq_ratio * 1024.0 + 0.5);   /* kernel.freq_ratio's rounding */
		sp.tick_ns = prm.hz ? (1000000000ull + prm.hz / 2) / prm.hz : 0;
		sp.duration_ns = 400 * c->period_ns;       /* the reference's protocol: cycles 300..399 */
		sp.steady_from_ns = 300 * c->period_ns;
		sp.sample_ns = c->period_ns;
		struct ss_pelt_trace *tr = ss_pelt_task_run(&sp, &e);
		if (!tr) {
			*why = g_strdup_printf("PELT at busy %.2f%%: %s", c->busy_pct[i], e->message);
			g_error_free(e);
			g_string_free(g, TRUE);
			g_free(mid);
			return SS_XP_INVALID;
		}
		double lo = tr->steady_min, hi = tr->steady_max;
		mid[i] = (lo + hi) / 2;
		double wl = fmax(lo * c->tol_pct / 100.0, c->tol_units), wh = fmax(hi * c->tol_pct / 100.0, c->tol_units);
		bool in = c->real[i] >= lo - wl && c->real[i] <= hi + wh;
		inside += in;
		if (i && mid[i] < mid[i - 1])
			monotone = false;
		g_string_append_printf(g, "%s%.2f%%: %u..%u (real %g%s)", i ? ", " : "", c->busy_pct[i], tr->steady_min,
				       tr->steady_max, c->real[i], in ? "" : " outside");
		ss_pelt_trace_free(tr);
	}
	double sx = 0, sy = 0, sxx = 0, sxy = 0, n = c->nr_points;
	for (unsigned i = 0; i < c->nr_points; i++) {
		sx += c->busy_pct[i];
		sy += mid[i];
		sxx += c->busy_pct[i] * c->busy_pct[i];
		sxy += c->busy_pct[i] * mid[i];
	}
	double slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
	g_string_append_printf(g, "; slope %.2f per %% (expected %g..%g); %u of %u real values in range (%u needed)%s", slope,
			       c->slope_min, c->slope_max, inside, c->nr_points, c->at_least, monotone ? "" : "; not monotone");
	if (!monotone || inside < c->at_least || !(slope >= c->slope_min && slope <= c->slope_max))
		st = SS_XP_FAIL;
	g_free(mid);
	*why = g_string_free(g, FALSE);
	return st;
}

/* ------------------------------------------------------------ S07 */

static const char fixture_wl_fmt[] =
	"name: s07-pinned\ninstance: fixture\ninstances_per_cpu: 0.001\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n";

/* util_avg of a task that ran alone for 1 s (the pinned CPU-bound tasks' settled util) */
static unsigned long settled_util(void)
{
	struct ss_params prm;
	struct ss_pelt_task_spec sp = { 0 };
	ss_params_defaults(&prm, NULL);
	sp.period_ns = UINT64_C(10000000);
	sp.busy_ns = sp.period_ns;
	sp.weight = 1024;
	sp.capacity = SS_SCHED_CAPACITY_SCALE;
	sp.freq_capacity = SS_SCHED_CAPACITY_SCALE;
	sp.tick_ns = prm.hz ? (1000000000ull + prm.hz / 2) / prm.hz : 0;
	sp.duration_ns = UINT64_C(1000000000);
	sp.steady_from_ns = sp.duration_ns - sp.period_ns;
	sp.sample_ns = sp.period_ns;
	struct ss_pelt_trace *tr = ss_pelt_task_run(&sp, NULL);
	unsigned long u = tr ? tr->steady_max : SS_SCHED_CAPACITY_SCALE;
	ss_pelt_trace_free(tr);
	return u;
}

/*
 * One fixture under one policy: the machine (one LLC of llc CPUs, no SMT),
 * pinned CPU-bound tasks pinned to CPUs 0..pinned-1 and one unpinned task
 * queued behind the task of CPU 0; the state frozen at 1 s: every pinned
 * task's util settled (the library's PELT), SIS_UTIL's budget written by an
 * LLC periodic balance (update_idle_cpu_scan), SIS_PROP's wake_avg_idle aged
 * on the busy waker. False with *e set when it cannot be built (a policy the
 * kernel lacks); free with fixture_free().
 */
struct fixture {
	struct ss_topology *t;
	struct ss_workload *w;
	struct ss_sim *sim;
	unsigned long util;
	unsigned nr_idle_scan;
};

static void fixture_free(struct fixture *fx)
{
	if (fx->sim)
		ss_sim_destroy(fx->sim);
	ss_workload_free(fx->w);
	ss_topology_free(fx->t);
}

static bool fixture_build(struct fixture *fx, unsigned llc, unsigned pinned, const char *policy, enum ss_kernel kernel,
			  GError **e)
{
	memset(fx, 0, sizeof(*fx));
	g_autofree char *topo = g_strdup_printf("name: s07-llc%u\nvendor: arm\nllcs:\n  - cores: \"0-%u\"\n", llc, llc - 1);
	GString *wl = g_string_new(fixture_wl_fmt);
	for (unsigned i = 0; i < pinned; i++)
		g_string_append_printf(wl, "  - name: hog%u\n    cpus: \"%u\"\n    start_cpu: %u\n    program: [loop: {forever: true, do: [run: 10ms]}]\n", i, i, i);
	g_string_append(wl, "  - name: wakee\n    start_cpu: 0\n    program: [loop: {forever: true, do: [run: 1ms, sleep: 1ms]}]\n");
	fx->t = ss_topology_load_string(topo, strlen(topo), "s07-fixture.yaml", e);
	fx->w = fx->t ? ss_workload_load_string(wl->str, wl->len, "s07-fixture-workload.yaml", e) : NULL;
	g_string_free(wl, TRUE);
	if (fx->w) {
		struct ss_run_config cfg = { 0 };
		cfg.topo = fx->t;
		cfg.wl = fx->w;
		cfg.policy = policy;
		cfg.kernel = kernel;
		ss_params_defaults(&cfg.params, fx->t);
		cfg.load_pct_x100 = 10000;
		cfg.seed = 1;
		cfg.duration_ns = UINT64_C(1000000000);
		fx->sim = ss_sim_create(&cfg, e);
	}
	if (!fx->sim) {
		fixture_free(fx);
		return false;
	}
	struct ss_sim *sim = fx->sim;
	ss_sim_start(sim);
	sim->now = UINT64_C(1000000000);
	fx->util = settled_util();
	uint64_t sum_util = (uint64_t)pinned * fx->util, total = (uint64_t)llc * SS_SCHED_CAPACITY_SCALE;
	ss_update_idle_cpu_scan(sim, 0, sd_llc(sim, 0), CPU_NOT_IDLE, sum_util, total);
	fx->nr_idle_scan = ss_nr_idle_scan(sim, 0);
	sim->measuring = true;
	return true;
}

/* select_idle_cpu() for the unpinned task with the waker running on tgt: the CPU found (-1: none) */
static int fixture_call(struct fixture *fx, unsigned pinned, unsigned tgt, unsigned *probes, bool *walked_all)
{
	struct ss_sim *sim = fx->sim;
	struct ss_task *p = &sim->tasks[pinned];   /* the unpinned task */
	sim->this_cpu = tgt;
	uint64_t p0 = sim->res->sis_probes_total;
	int cpu = ss_select_idle_cpu(sim, p, sd_llc(sim, tgt), false, (int)tgt);
	*probes = (unsigned)(sim->res->sis_probes_total - p0);
	*walked_all = sim->scan_walked_all;
	return cpu;
}

/* one S07 fixture under its policy pi: select_idle_cpu() once per target t, against the file's lists */
static bool run_fixture(const struct ss_xp_check_s07_fixture *f, unsigned pi, enum ss_kernel kernel, GString *g)
{
	GError *e = NULL;
	const char *policy = f->policies[pi];
	struct fixture fx;
	if (!fixture_build(&fx, f->llc, f->pinned, policy, kernel, &e)) {
		g_string_append_printf(g, "%sfixture llc %u, %s: %s", g->len ? "; " : "", f->llc, policy, e ? e->message : "cannot build");
		if (e)
			g_error_free(e);
		return false;
	}
	bool good = true;
	GString *got = g_string_new(NULL);
	if (f->nr_idle_scan[pi] != UINT_MAX && fx.nr_idle_scan != f->nr_idle_scan[pi]) {
		good = false;
		g_string_append_printf(got, " nr_idle_scan %u (expected %u)", fx.nr_idle_scan, f->nr_idle_scan[pi]);
	}
	for (unsigned tgt = 0; tgt < f->pinned; tgt++) {
		unsigned probes;
		bool walked;
		int cpu = fixture_call(&fx, f->pinned, tgt, &probes, &walked);
		g_string_append_printf(got, " t%u:%d/%u", tgt, cpu, probes);
		if (cpu != f->found[pi][tgt] || probes != f->probes[pi][tgt]) {
			good = false;
			g_string_append_printf(got, "(expected %d/%u)", f->found[pi][tgt], f->probes[pi][tgt]);
		}
	}
	g_string_append_printf(g, "%sllc %u %s: util %lu, nr_idle_scan %u, found/probes%s%s", g->len ? "; " : "", f->llc, policy,
			       fx.util, fx.nr_idle_scan, got->str, good ? "" : " MISMATCH");
	g_string_free(got, TRUE);
	fixture_free(&fx);
	return good;
}

enum ss_xp_status ss_xp_check_s07_budgets(const struct ss_xp_check_s07 *c, char **why)
{
	GString *g = g_string_new(NULL);
	bool ok = true;
	uint64_t total = (uint64_t)c->llc * SS_SCHED_CAPACITY_SCALE;
	g_string_append_printf(g, "llc %u linear:", c->llc);
	for (unsigned i = 0; i < c->nr_utils; i++) {
		uint64_t sum = total * c->util_pct[i] / 100;
		unsigned lin = ss_sis_util_linear_nr(c->llc, sum, total);
		g_string_append_printf(g, " %u%%→%u", c->util_pct[i], lin);
		if (lin != c->linear[i]) {
			ok = false;
			g_string_append_printf(g, "(expected %u)", c->linear[i]);
		}
	}
	if (c->quadratic)
		g_string_append(g, "; SIS_UTIL (imbalance_pct 117):");
	for (unsigned i = 0; c->quadratic && i < c->nr_utils; i++) {
		unsigned q = ss_sis_util_nr_idle_scan(c->llc, total * c->util_pct[i] / 100, 117);
		g_string_append_printf(g, " %u%%→%u", c->util_pct[i], q);
		if (q != c->quadratic[i]) {
			ok = false;
			g_string_append_printf(g, "(expected %u)", c->quadratic[i]);
		}
	}
	for (unsigned i = 0; i < c->nr_fixtures; i++)
		for (unsigned p = 0; c->fixtures[i].policies[p]; p++)
			ok &= run_fixture(&c->fixtures[i], p, (enum ss_kernel)c->kernel, g);
	*why = g_string_free(g, FALSE);
	return ok ? SS_XP_PASS : SS_XP_FAIL;
}

/* ------------------------------------------------------------ S13 */

/*
 * S13's Pass A, an accounting identity on constructed states: clearing the
 * target from select_idle_cpu()'s mask (the base policy's walk wraps from
 * target + 1, so the target is the last CPU it reads) saves exactly one
 * probe in a call that walked the whole mask without finding an idle CPU
 * and changes nothing else: the same CPU found, the same probes otherwise.
 * Each fixture (S07's construction) is built under the base and the variant
 * policy and select_idle_cpu() called once per target t = 0..pinned-1.
 */
enum ss_xp_status ss_xp_check_s13_identity(const struct ss_xp_check_s13 *c, char **why)
{
	GString *g = g_string_new(NULL);
	bool ok = true;
	unsigned calls = 0, fails = 0;
	int saved = 0;
	for (unsigned i = 0; i < c->nr_fixtures; i++) {
		unsigned llc = c->llc[i], pinned = c->pinned[i];
		struct fixture b, v;
		GError *e = NULL;
		if (!fixture_build(&b, llc, pinned, c->base, (enum ss_kernel)c->kernel, &e)) {
			g_string_append_printf(g, "%sfixture llc %u, %s: %s", g->len ? "; " : "", llc, c->base, e ? e->message : "cannot build");
			g_clear_error(&e);
			ok = false;
			continue;
		}
		if (!fixture_build(&v, llc, pinned, c->variant, (enum ss_kernel)c->kernel, &e)) {
			g_string_append_printf(g, "%sfixture llc %u, %s: %s", g->len ? "; " : "", llc, c->variant, e ? e->message : "cannot build");
			g_clear_error(&e);
			fixture_free(&b);
			ok = false;
			continue;
		}
		g_string_append_printf(g, "%sllc %u pinned %u found/probes %s→%s:", g->len ? "; " : "", llc, pinned, c->base, c->variant);
		for (unsigned tgt = 0; tgt < pinned; tgt++) {
			unsigned pb, pv;
			bool wb, wv;
			int cb = fixture_call(&b, pinned, tgt, &pb, &wb);
			int cv = fixture_call(&v, pinned, tgt, &pv, &wv);
			unsigned want = pb - (wb ? 1u : 0u);
			calls++;
			fails += wb;
			saved += (int)pb - (int)pv;
			g_string_append_printf(g, " t%u:%d/%u%s→%d/%u", tgt, cb, pb, wb ? "(whole mask)" : "", cv, pv);
			if (cv != cb || pv != want) {
				ok = false;
				g_string_append_printf(g, "(expected %d/%u)", cb, want);
			}
		}
		fixture_free(&b);
		fixture_free(&v);
	}
	g_string_append_printf(g, "; %u calls, %u whole-mask fails of %s, %d probes saved", calls, fails, c->base, saved);
	*why = g_string_free(g, FALSE);
	return ok ? SS_XP_PASS : SS_XP_FAIL;
}

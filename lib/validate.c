/*
 * validate.c — simsched validate: experiments' grids as sweep specs run
 * through the sweep machinery (parallel, resumable, shardable), the records
 * read back, graded (xp_rules.c) and rendered as a scorecard.
 *
 * The points where this build and newer ones differ sit in three functions:
 * kernel_line() (the kernel an experiment runs: a `kernel:` spec key),
 * workload_sets() (workload parameters as `set: {workload.NAME: ...}`),
 * and ss_xp_record_validity() in xp_rules.c (the records' validity fields).
 * A spec the sweep machinery of this build refuses makes its points INVALID
 * with the sweep's own message.
 */
#include "simsched/experiment.h"
#include "simsched/error.h"
#include "simsched/sweep.h"
#include "simsched/topology.h"
#include "simsched/workload.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ --quick */

static bool listed(char **list, const char *name)
{
	if (!list)
		return true;
	for (char **p = list; *p; p++)
		if (!strcmp(*p, name))
			return true;
	return false;
}

bool ss_experiment_apply_quick(struct ss_experiment *x)
{
	const struct ss_xp_quick *q = &x->quick;
	if (!q->present)
		return false;
	unsigned keep = 0;
	for (unsigned s = 0; s < x->nr_series; s++) {
		struct ss_xp_series *se = &x->series[s];
		if (!listed(q->series, se->name)) {
			g_free(se->name);
			g_free(se->workload_file);
			g_free(se->workload_path);
			g_free(se->topology_file);
			g_free(se->topology_path);
			g_free(se->nodes);
			g_strfreev(se->params);
			g_strfreev(se->set);
			g_free(se->metric);
			g_free(se->unit);
			g_free(se->unit_param);
			g_free(se->loads);
			g_free(se->real);
			g_free(se->unscored);
			g_free(se->real_source);
			g_free(se->seeds);
			continue;
		}
		double *loads = g_new0(double, q->nr_loads), *real = g_new0(double, q->nr_loads);
		bool *uns = g_new0(bool, q->nr_loads);
		for (unsigned i = 0; i < q->nr_loads; i++)
			for (unsigned l = 0; l < se->nr_loads; l++)
				if (se->loads[l] == q->loads[i]) {
					loads[i] = se->loads[l];
					real[i] = se->real[l];
					uns[i] = se->unscored[l];
				}
		g_free(se->loads);
		g_free(se->real);
		g_free(se->unscored);
		se->loads = loads;
		se->real = real;
		se->unscored = uns;
		se->nr_loads = q->nr_loads;
		g_free(se->seeds);
		se->nr_seeds = q->nr_seeds;
		se->seeds = g_new0(uint64_t, q->nr_seeds);
		for (unsigned k = 0; k < q->nr_seeds; k++)
			se->seeds[k] = k + 1;
		se->warmup_ns = q->warmup_ns;
		se->duration_ns = q->duration_ns;
		x->series[keep++] = *se;
	}
	x->nr_series = keep;
	return true;
}

/* ------------------------------------------------------------ specs */

struct job {
	unsigned xi, s;
	unsigned *cols, nr_cols;      /* experiment policy columns, spec order */
	unsigned *lidx, nr_l;         /* series load indices, spec order */
	unsigned *pct;                /* derived --load per spec load */
	char *path;
	char *error;                  /* why its points have no records */
	struct ss_sweep_spec *spec;
};

static void job_free(gpointer p)
{
	struct job *j = p;
	g_free(j->cols);
	g_free(j->lidx);
	g_free(j->pct);
	g_free(j->path);
	g_free(j->error);
	ss_sweep_spec_free(j->spec);
	g_free(j);
}

static void yq(GString *g, const char *s)
{
	g_string_append_c(g, '"');
	for (; *s; s++) {
		if (*s == '"' || *s == '\\')
			g_string_append_c(g, '\\');
		g_string_append_c(g, *s);
	}
	g_string_append_c(g, '"');
}

static void ytime(GString *g, uint64_t ns)
{
	if (ns % 1000000 == 0)
		g_string_append_printf(g, "%" G_GUINT64_FORMAT "ms", ns / 1000000);
	else
		g_string_append_printf(g, "%" G_GUINT64_FORMAT "ns", ns);
}

/* The kernel an experiment runs: the v6.6 model needs no key; another is a `kernel:` key of the spec. */
static void kernel_line(GString *g, const struct ss_experiment *x)
{
	if (strcmp(x->kernel, "6.6") && strcmp(x->kernel, "newest")) {
		g_string_append(g, "kernel: ");
		yq(g, x->kernel);
		g_string_append_c(g, '\n');
	}
}

/* Workload parameters of a run: `--set workload.NAME=VALUE` as sweep set keys. */
static void workload_sets(GPtrArray *kv, const struct ss_xp_series *se, double param_value)
{
	for (char **p = se->params; *p; p++)
		g_ptr_array_add(kv, g_strconcat("workload.", *p, NULL));
	if (se->unit_param)
		g_ptr_array_add(kv, g_strdup_printf("workload.%s=%.0f", se->unit_param, param_value));
}

/* KEY=VALUE strings merged by key (a later one replaces an earlier one), in first-seen order */
static void add_sets(GPtrArray *kv, char **sets)
{
	for (char **p = sets; p && *p; p++) {
		size_t klen = (size_t)(strchr(*p, '=') - *p);
		bool replaced = false;
		for (unsigned i = 0; i < kv->len; i++) {
			char *o = g_ptr_array_index(kv, i);
			if (!strncmp(o, *p, klen) && o[klen] == '=') {
				g_free(o);
				kv->pdata[i] = g_strdup(*p);
				replaced = true;
			}
		}
		if (!replaced)
			g_ptr_array_add(kv, g_strdup(*p));
	}
}

static bool same_set(char **a, char **b)
{
	unsigned na = g_strv_length(a), nb = g_strv_length(b);
	if (na != nb)
		return false;
	for (unsigned i = 0; i < na; i++)
		if (!g_strv_contains((const char *const *)b, a[i]))
			return false;
	return true;
}

static char *sanitize(const char *s)
{
	char *o = g_strdup(s);
	for (char *p = o; *p; p++)
		if (!g_ascii_isalnum(*p) && *p != '-' && *p != '_')
			*p = '_';
	return o;
}

static bool write_file(const char *path, const char *text, GError **err)
{
	/* only when it differs: an unchanged spec keeps its bytes (and its records' provenance) */
	char *old = NULL;
	gsize len;
	if (g_file_get_contents(path, &old, &len, NULL) && len == strlen(text) && !memcmp(old, text, len)) {
		g_free(old);
		return true;
	}
	g_free(old);
	return g_file_set_contents(path, text, -1, err);
}

/* The specs of one series: a job per group of policies with equal set values (and per load for a unit by parameter). */
static bool make_jobs(const struct ss_experiment *x, unsigned xi, unsigned s, const char *spec_dir,
		      const struct ss_validate_opts *o, GPtrArray *jobs,
		      GError **err)
{
	const struct ss_xp_series *se = &x->series[s];
	bool *done = g_new0(bool, x->nr_policies);
	g_autofree char *topo_abs = g_canonicalize_filename(se->topology_path, NULL);
	g_autofree char *wl_abs = g_canonicalize_filename(se->workload_path, NULL);
	GError *e = NULL;
	unsigned nr_cpus = 0;
	bool ok = true;
	struct ss_topology *t = ss_topology_load(se->topology_path, &e);
	if (t && !ss_xp_nr_allowed(t, se->nodes, &nr_cpus, &e)) {
		ss_topology_free(t);
		t = NULL;
	}
	unsigned group = 0;
	for (unsigned p0 = 0; ok && p0 < x->nr_policies; p0++) {
		if (done[p0])
			continue;
		group++;
		GArray *cols = g_array_new(FALSE, FALSE, sizeof(unsigned));
		for (unsigned p = p0; p < x->nr_policies; p++)
			if (!done[p] && same_set(x->policies[p].set, x->policies[p0].set)) {
				/* one name per spec: a second column of the same policy and set is the same runs */
				bool dup = false;
				for (unsigned i = 0; i < cols->len; i++)
					dup |= !strcmp(x->policies[g_array_index(cols, unsigned, i)].policy, x->policies[p].policy);
				if (dup)
					continue;
				done[p] = true;
				g_array_append_val(cols, p);
			}
		unsigned nr_parts = se->unit_param ? se->nr_loads : 1;
		for (unsigned part = 0; ok && part < nr_parts; part++) {
			struct job *j = g_new0(struct job, 1);
			j->xi = xi;
			j->s = s;
			j->nr_cols = cols->len;
			j->cols = g_memdup2(cols->data, sizeof(unsigned) * cols->len);
			j->nr_l = se->unit_param ? 1 : se->nr_loads;
			j->lidx = g_new0(unsigned, j->nr_l);
			j->pct = g_new0(unsigned, j->nr_l);
			for (unsigned i = 0; i < j->nr_l; i++)
				j->lidx[i] = se->unit_param ? part : i;
			g_autofree char *sn = sanitize(se->name);
			char *base = se->unit_param ? g_strdup_printf("%s-%s-%u-%s%.0f.yaml", x->id, sn, group, se->unit, se->loads[part])
						    : g_strdup_printf("%s-%s-%u.yaml", x->id, sn, group);
			j->path = g_build_filename(spec_dir, base, NULL);
			g_free(base);
			g_ptr_array_add(jobs, j);
			if (!t) {
				j->error = g_strdup_printf("topology %s: %s", se->topology_file, e->message);
				continue;
			}
			/* the sets of the run: experiment, series, policy group, workload parameters */
			GPtrArray *kv = g_ptr_array_new_with_free_func(g_free);
			add_sets(kv, x->set);
			add_sets(kv, se->set);
			add_sets(kv, x->policies[p0].set);
			GPtrArray *wkv = g_ptr_array_new_with_free_func(g_free);
			workload_sets(wkv, se, se->loads[j->lidx[0]]);
			g_ptr_array_add(wkv, NULL);
			add_sets(kv, (char **)wkv->pdata);
			/* the derived loads: the workload with these parameters */
			GPtrArray *prm = g_ptr_array_new_with_free_func(g_free);
			for (unsigned i = 0; i + 1 < wkv->len; i++)
				g_ptr_array_add(prm, g_strdup((char *)g_ptr_array_index(wkv, i) + strlen("workload.")));
			g_ptr_array_add(prm, NULL);
			GError *we = NULL;
			struct ss_workload *w = ss_workload_load_params(se->workload_path, (const char *const *)prm->pdata, &we);
			/* a finish time is one number per run: --warmup auto and --precision do not apply, the
			 * experiment's fixed lengths and its seeds give the spread (runlen.c run_group()) */
			bool finish = w && ss_workload_metric(w)->measure == SS_MEASURE_FINISH;
			for (unsigned i = 0; w && i < j->nr_l; i++) {
				uint64_t inst = se->unit_param ? se->unit_instances : (uint64_t)se->loads[j->lidx[i]];
				if (!ss_xp_load_for_instances(w, nr_cpus, inst, &j->pct[i], &we))
					break;
			}
			ss_workload_free(w);
			g_ptr_array_free(prm, TRUE);
			g_ptr_array_free(wkv, TRUE);
			if (we) {
				j->error = g_strdup_printf("workload %s: %s", se->workload_file, we->message);
				g_error_free(we);
				g_ptr_array_free(kv, TRUE);
				continue;
			}
			GString *g = g_string_new(NULL);
			g_string_append_printf(g, "# %s series %s (generated by simsched validate from %s; rerun with simsched sweep --spec)\n",
					       x->id, se->name, x->file);
			g_string_append(g, "topologies: [");
			yq(g, topo_abs);
			g_string_append(g, "]\nworkloads: [");
			yq(g, wl_abs);
			g_string_append(g, "]\npolicies: [");
			for (unsigned i = 0; i < j->nr_cols; i++) {
				g_string_append(g, i ? ", " : "");
				yq(g, x->policies[j->cols[i]].policy);
			}
			g_string_append(g, "]\nloads: [");
			for (unsigned i = 0; i < j->nr_l; i++)
				g_string_append_printf(g, "%s\"%u.%02u%%\"", i ? ", " : "", j->pct[i] / 100, j->pct[i] % 100);
			g_string_append(g, "]\nseeds: [");
			for (unsigned k = 0; k < se->nr_seeds; k++)
				g_string_append_printf(g, "%s%" G_GUINT64_FORMAT, k ? ", " : "", se->seeds[k]);
			g_string_append(g, o->warmup_auto && !finish ? "]\nwarmup: auto:" : "]\nwarmup: ");
			ytime(g, o->warmup_auto && !finish && !se->warmup_ns ? UINT64_C(1000000) : se->warmup_ns);
			g_string_append(g, "\nduration: ");
			ytime(g, se->duration_ns);
			g_string_append_c(g, '\n');
			if (o->precision > 0 && !finish) {   /* the experiment's duration is the cap */
				/* as a percentage with the digits ss_parse_precision() reads (at most 6
				 * decimals, which any precision it parsed has), trailing zeros dropped */
				char pc[32];
				size_t n = (size_t)snprintf(pc, sizeof pc, "%.6f", 100.0 * o->precision);

				while (n && pc[n - 1] == '0')
					pc[--n] = 0;
				if (n && pc[n - 1] == '.')
					pc[--n] = 0;
				g_string_append_printf(g, "precision: \"%s%%\"\n", pc);
			}
			if (se->nodes) {
				g_string_append(g, "nodes: ");
				yq(g, se->nodes);
				g_string_append_c(g, '\n');
			}
			kernel_line(g, x);
			if (kv->len) {
				g_string_append(g, "set:\n");
				for (unsigned i = 0; i < kv->len; i++) {
					const char *a = g_ptr_array_index(kv, i), *eq = strchr(a, '=');
					g_autofree char *k = g_strndup(a, (gsize)(eq - a));
					g_string_append(g, "  ");
					yq(g, k);
					g_string_append(g, ": ");
					yq(g, eq + 1);
					g_string_append_c(g, '\n');
				}
			}
			g_ptr_array_free(kv, TRUE);
			ok = write_file(j->path, g->str, err);
			g_string_free(g, TRUE);
			if (ok && !(j->spec = ss_sweep_spec_load(j->path, &we))) {
				j->error = g_strdup_printf("sweep spec %s: %s", j->path, we->message);
				g_error_free(we);
			}
		}
		g_array_free(cols, TRUE);
	}
	if (e)
		g_error_free(e);
	ss_topology_free(t);
	g_free(done);
	return ok;
}

/* ------------------------------------------------------------ records */

static bool read_results(const char *dir, GHashTable *by_key, cJSON *all, GError **err)
{
	GDir *d = g_dir_open(dir, 0, err);
	if (!d)
		return false;
	GPtrArray *names = g_ptr_array_new_with_free_func(g_free);
	const char *n;
	while ((n = g_dir_read_name(d)))
		if (g_str_has_prefix(n, "results") && g_str_has_suffix(n, ".jsonl"))
			g_ptr_array_add(names, g_build_filename(dir, n, NULL));
	g_dir_close(d);
	g_ptr_array_sort(names, (GCompareFunc)g_strcmp0);
	bool ok = true;
	for (unsigned i = 0; ok && i < names->len; i++) {
		char *text = NULL;
		gsize len = 0;
		if (!g_file_get_contents(g_ptr_array_index(names, i), &text, &len, err)) {
			ok = false;
			break;
		}
		char *p = text;
		while (p < text + len) {
			char *nl = memchr(p, '\n', (size_t)(text + len - p));
			if (!nl)
				break;   /* a torn last line: a sweep still writing */
			*nl = '\0';
			cJSON *o = cJSON_Parse(p);
			const cJSON *k = cJSON_GetObjectItemCaseSensitive(o, "key");
			if (cJSON_IsString(k) && !g_hash_table_contains(by_key, k->valuestring)) {
				g_hash_table_insert(by_key, g_strdup(k->valuestring), o);
				cJSON_AddItemToArray(all, o);
			} else {
				cJSON_Delete(o);
			}
			p = nl + 1;
		}
		g_free(text);
	}
	g_ptr_array_free(names, TRUE);
	return ok;
}

/* ------------------------------------------------------------ run */

/* validate's points progress over its sweeps: the grids of the sweeps done, plus the current one's records */
struct point_prog {
	const struct ss_validate_opts *o;
	uint64_t base, total;
};

static void sweep_points(void *ctx, unsigned done, unsigned total)
{
	struct point_prog *pp = ctx;
	(void)total;
	pp->o->point_progress(pp->o->progress_ctx, pp->base + done, pp->total);
}

bool ss_validate_run(struct ss_experiment **xs, unsigned nr, const struct ss_validate_opts *o,
		     struct ss_validate_result **out, GError **err)
{
	g_autofree char *spec_dir = g_build_filename(o->out_dir, "specs", NULL);
	if (g_mkdir_with_parents(spec_dir, 0755) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot create: %s", spec_dir, g_strerror(errno));
		return false;
	}
	GPtrArray *jobs = g_ptr_array_new_with_free_func(job_free);
	struct ss_validate_result *r = g_new0(struct ss_validate_result, 1);
	r->nr = nr;
	r->x = g_new0(struct ss_experiment *, nr + 1);
	r->data = g_new0(struct ss_xp_data *, nr + 1);
	r->grade = g_new0(struct ss_xp_grade *, nr + 1);
	r->spec_files = g_new0(char **, nr + 1);
	cJSON *all = cJSON_CreateArray();
	r->records = all;
	bool ok = true;
	for (unsigned i = 0; ok && i < nr; i++) {
		r->x[i] = xs[i];
		for (unsigned s = 0; ok && s < xs[i]->nr_series; s++)
			ok = make_jobs(xs[i], i, s, spec_dir, o, jobs, err);
	}
	g_autofree char *res_name = o->shard_n ? g_strdup_printf("results-%u-of-%u.jsonl", o->shard_k, o->shard_n)
					       : g_strdup("results.jsonl");
	g_autofree char *res_path = g_build_filename(o->out_dir, res_name, NULL);
	for (unsigned i = 0; ok && i < jobs->len; i++) {
		struct job *j = g_ptr_array_index(jobs, i);
		if (j->spec)
			r->points_total += ss_sweep_nr_points(j->spec);
	}
	struct point_prog pp = { .o = o, .total = r->points_total };
	for (unsigned i = 0; ok && i < jobs->len; i++) {
		struct job *j = g_ptr_array_index(jobs, i);
		if (!j->spec)
			continue;
		if (o->no_run)
			continue;
		struct ss_sweep_opts so = { .out_path = res_path, .jobs = o->jobs, .shard_k = o->shard_k, .shard_n = o->shard_n,
					    .resume = true };
		if (o->point_progress) {
			so.progress = sweep_points;
			so.progress_ctx = &pp;
		}
		struct ss_sweep_stats st;
		GError *e = NULL;
		if (o->progress)
			o->progress(o->progress_ctx, j->path, i + 1, jobs->len);
		if (!ss_sweep_run(j->spec, &so, &st, &e)) {
			if (!st.failed) {   /* the result file itself: an error of the call */
				g_propagate_error(err, e);
				ok = false;
				break;
			}
			j->error = g_strdup(e->message);
			g_error_free(e);
		}
		r->points_run += st.ran;
		pp.base += ss_sweep_nr_points(j->spec);
		if (o->point_progress)
			o->point_progress(o->progress_ctx, pp.base, pp.total);
	}
	GHashTable *by_key = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	if (ok && !read_results(o->out_dir, by_key, all, err))
		ok = false;
	for (unsigned i = 0; ok && i < nr; i++) {
		struct ss_xp_data *d = r->data[i] = ss_xp_data_new(xs[i]);
		d->quick = o->quick;
		GPtrArray *files = g_ptr_array_new();
		/* per cell: the error of the job that should have made its records */
		GPtrArray *errs = g_ptr_array_new();
		for (unsigned k = 0; k < jobs->len; k++) {
			struct job *j = g_ptr_array_index(jobs, k);
			if (j->xi != i)
				continue;
			g_ptr_array_add(files, g_strdup(j->path));
			const struct ss_xp_series *se = &xs[i]->series[j->s];
			for (unsigned c = 0; c < j->nr_cols; c++)
				for (unsigned li = 0; li < j->nr_l; li++)
					for (unsigned kk = 0; kk < se->nr_seeds; kk++) {
						size_t at = ((size_t)j->cols[c] * se->nr_loads + j->lidx[li]) * se->nr_seeds + kk;
						if (!j->spec)
							continue;
						char *key = ss_sweep_point_key(j->spec, ((uint64_t)c * j->nr_l + li) * se->nr_seeds + kk);
						d->records[j->s][at] = g_hash_table_lookup(by_key, key);
						g_free(key);
					}
			/* a column of the same policy and set as an earlier one reads that one's records */
			for (unsigned p = 0; p < xs[i]->nr_policies; p++)
				for (unsigned c = 0; c < j->nr_cols; c++) {
					unsigned q = j->cols[c];
					if (p == q || strcmp(xs[i]->policies[p].policy, xs[i]->policies[q].policy) ||
					    !same_set(xs[i]->policies[p].set, xs[i]->policies[q].set))
						continue;
					for (unsigned li = 0; li < j->nr_l; li++)
						for (unsigned kk = 0; kk < se->nr_seeds; kk++) {
							size_t a = ((size_t)p * se->nr_loads + j->lidx[li]) * se->nr_seeds + kk;
							size_t b = ((size_t)q * se->nr_loads + j->lidx[li]) * se->nr_seeds + kk;
							if (!d->records[j->s][a])
								d->records[j->s][a] = d->records[j->s][b];
						}
				}
			if (j->error)
				g_ptr_array_add(errs, j);
		}
		ss_xp_data_compute(d);
		for (unsigned k = 0; k < errs->len; k++) {
			struct job *j = g_ptr_array_index(errs, k);
			const struct ss_xp_series *se = &xs[i]->series[j->s];
			for (unsigned p = 1; p < xs[i]->nr_policies; p++)
				for (unsigned li = 0; li < j->nr_l; li++) {
					struct ss_xp_cell *c = &d->cells[j->s][p * se->nr_loads + j->lidx[li]];
					if (c->have || (c->why && !strstr(c->why, "not run")))
						continue;
					g_free(c->why);
					c->why = g_strdup(j->error);
					c->invalid = true;
				}
		}
		g_ptr_array_free(errs, TRUE);
		g_ptr_array_add(files, NULL);
		r->spec_files[i] = (char **)g_ptr_array_free(files, FALSE);
		r->grade[i] = ss_xp_grade(d);
	}
	g_hash_table_destroy(by_key);
	g_ptr_array_free(jobs, TRUE);
	if (!ok) {
		ss_validate_result_free(r);
		return false;
	}
	*out = r;
	return true;
}

void ss_validate_result_free(struct ss_validate_result *r)
{
	if (!r)
		return;
	for (unsigned i = 0; i < r->nr; i++) {
		ss_xp_data_free(r->data[i]);
		ss_xp_grade_free(r->grade[i]);
		g_strfreev(r->spec_files[i]);
	}
	g_free(r->x);
	g_free(r->data);
	g_free(r->grade);
	g_free(r->spec_files);
	cJSON_Delete(r->records);
	g_free(r);
}

/* ------------------------------------------------------------ rendering */

static const char *rule_kind_name(enum ss_xp_rule_kind k)
{
	static const char *const n[] = { "direction", "crossover", "range", "sign", "peak", "counter",
					 "counter_ratio", "contrast", "check" };
	return n[k];
}

/* The counters an experiment's rules read. */
static char **counters_of(const struct ss_experiment *x)
{
	GPtrArray *a = g_ptr_array_new();
	for (unsigned i = 0; i < x->nr_rules; i++) {
		const struct ss_xp_rule *r = &x->rules[i];
		const char *m[4] = { NULL };
		if (r->kind == SS_XP_COUNTER || r->kind == SS_XP_COUNTER_RATIO)
			m[0] = r->metric;
		else if (r->kind == SS_XP_CHECK && !strcmp(r->check, "s13_mechanism_gate"))
			m[0] = "full_mask_fail_pct", m[1] = "probes_per_call";
		else if (r->kind == SS_XP_CHECK && !strcmp(r->check, "s19_windows"))
			m[0] = "burst_idle_with_work_pct", m[1] = "burst_makespan_ns", m[2] = "idle_with_work_allowed_pct",
			m[3] = "burst_idle_1ms_pct";
		for (unsigned k = 0; k < 4 && m[k]; k++) {
			bool have = false;
			for (unsigned j = 0; j < a->len; j++)
				have |= !strcmp(g_ptr_array_index(a, j), m[k]);
			if (!have)
				g_ptr_array_add(a, g_strdup(m[k]));
		}
	}
	g_ptr_array_add(a, NULL);
	return (char **)g_ptr_array_free(a, FALSE);
}

static void fmt_delta(GString *g, const struct ss_xp_cell *c)
{
	if (c->have)
		g_string_append_printf(g, "%+.1f", c->delta);
	else
		g_string_append(g, c->invalid ? "INV" : "-");
}

static char *result_text(const struct ss_xp_grade *gr)
{
	GString *g = g_string_new(ss_xp_status_name(gr->status));
	if (gr->why && gr->why[0] && gr->status != SS_XP_PASS)
		g_string_append_printf(g, " (%s)", gr->why);
	if (gr->validity_unknown)
		g_string_append(g, " [validity of the windows: cannot tell]");
	return g_string_free(g, FALSE);
}

static void md_escape(GString *g, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			g_string_append(g, "\\|");
		else if (*s == '\n')
			g_string_append_c(g, ' ');
		else
			g_string_append_c(g, *s);
	}
}

static void series_rows(const struct ss_validate_result *r, unsigned i, GString *sim, GString *real, bool md)
{
	const struct ss_experiment *x = r->x[i];
	const struct ss_xp_data *d = r->data[i];
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		for (unsigned p = 1; p < x->nr_policies; p++) {
			if (sim->len)
				g_string_append(sim, md ? "<br>" : "\n");
			g_string_append_printf(sim, "%s%s%s:", se->name, x->nr_policies > 2 ? " " : "",
					       x->nr_policies > 2 ? x->policies[p].label : "");
			for (unsigned l = 0; l < se->nr_loads; l++) {
				g_string_append_c(sim, ' ');
				fmt_delta(sim, &d->cells[s][p * se->nr_loads + l]);
			}
		}
		if (real->len)
			g_string_append(real, md ? "<br>" : "\n");
		g_string_append_printf(real, "%s:", se->name);
		for (unsigned l = 0; l < se->nr_loads; l++) {
			if (isnan(se->real[l]))
				g_string_append(real, " -");
			else
				g_string_append_printf(real, " %+.1f", se->real[l]);
		}
	}
}

static void render_details(GString *g, const struct ss_validate_result *r, unsigned i, bool md)
{
	const struct ss_experiment *x = r->x[i];
	const struct ss_xp_data *d = r->data[i];
	const struct ss_xp_grade *gr = r->grade[i];
	g_autofree char *res = result_text(gr);
	g_string_append_printf(g, "\n%s %s — %s\n\n", md ? "###" : "==", x->id, x->title);
	g_string_append_printf(g, "%sgrade %c, kernel %s (the thread's: %s); source: %s%s\n\n", md ? "" : "", x->grade, x->kernel,
			       x->seed_kernel, x->source, md ? "" : "");
	g_string_append_printf(g, "%sresult: %s\n\n", md ? "" : "", res);
	for (unsigned k = 0; k < gr->nr_rules; k++) {
		const char *id = k < x->nr_rules ? x->rules[k].id : "quick";
		const char *kind = k < x->nr_rules ? rule_kind_name(x->rules[k].kind) : "quick";
		char grade = k < x->nr_rules ? x->rules[k].grade : 'A';
		g_string_append_printf(g, "%s%s (%s, grade %c): %s%s%s\n", md ? "- " : "  ", id, kind, grade,
				       ss_xp_status_name(gr->rules[k].status), gr->rules[k].why[0] ? " — " : "", gr->rules[k].why);
	}
	g_auto(GStrv) counters = counters_of(x);
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		double eps = ss_xp_epsilon(se);
		g_string_append_printf(g, "\n%sseries %s: %s, metric %s, real: %s; %u seeds, warmup %.3g s, measured %.3g s%s\n\n",
				       md ? "**" : "", se->name, se->workload_file, se->metric, se->real_source, se->nr_seeds,
				       se->warmup_ns / 1e9, se->duration_ns / 1e9, md ? "**" : "");
		GString *h = g_string_new(NULL);
		g_string_append_printf(h, "%s | real Δ %% | sign", se->unit);
		for (unsigned p = 1; p < x->nr_policies; p++)
			g_string_append_printf(h, " | %s Δ %% [95 %%] | sign", x->policies[p].label);
		for (char **m = counters; *m; m++)
			for (unsigned p = 0; p < x->nr_policies; p++)
				g_string_append_printf(h, " | %s %s", *m, x->policies[p].label);
		if (md) {
			g_string_append_printf(g, "| %s |\n|", h->str);
			unsigned cols = 3 + 2 * (x->nr_policies - 1) + g_strv_length(counters) * x->nr_policies;
			for (unsigned c = 0; c < cols; c++)
				g_string_append(g, "---|");
			g_string_append_c(g, '\n');
		} else {
			g_string_append_printf(g, "  %s\n", h->str);
		}
		g_string_free(h, TRUE);
		for (unsigned l = 0; l < se->nr_loads; l++) {
			GString *row = g_string_new(NULL);
			g_string_append_printf(row, "%g | ", se->loads[l]);
			if (isnan(se->real[l]))
				g_string_append(row, "-");
			else
				g_string_append_printf(row, "%+.1f", se->real[l]);
			g_string_append_printf(row, " | %c", ss_xp_real_sign(se, l, eps));
			for (unsigned p = 1; p < x->nr_policies; p++) {
				const struct ss_xp_cell *c = &d->cells[s][p * se->nr_loads + l];
				if (c->have) {
					char sg = fabs(c->delta) < eps ? '0' : c->delta > 0 && c->lo > 0 ? '+' : c->delta < 0 && c->hi < 0 ? '-' : '0';
					if (isfinite(c->lo))
						g_string_append_printf(row, " | %+.1f [%+.1f, %+.1f] | %c", c->delta, c->lo, c->hi, sg);
					else
						g_string_append_printf(row, " | %+.1f [one seed] | %c", c->delta, sg);
				} else {
					g_string_append(row, " | ");
					if (md)
						md_escape(row, c->why ? c->why : "-");
					else
						g_string_append(row, c->why ? c->why : "-");
					g_string_append(row, " | -");
				}
			}
			for (char **m = counters; *m; m++)
				for (unsigned p = 0; p < x->nr_policies; p++) {
					char *why = NULL;
					double v = ss_xp_counter(d, s, p, l, *m, &why);
					if (isnan(v))
						g_string_append_printf(row, " | %s", why && strstr(why, "not available") ? "n/a" : "-");
					else
						g_string_append_printf(row, " | %.4g", v);
					g_free(why);
				}
			g_string_append_printf(g, md ? "| %s |\n" : "  %s\n", row->str);
			g_string_free(row, TRUE);
		}
	}
}

static char *render_json(const struct ss_validate_result *r)
{
	cJSON *root = cJSON_CreateObject();
	cJSON *xa = cJSON_AddArrayToObject(root, "experiments");
	for (unsigned i = 0; i < r->nr; i++) {
		const struct ss_experiment *x = r->x[i];
		const struct ss_xp_data *d = r->data[i];
		const struct ss_xp_grade *gr = r->grade[i];
		cJSON *o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "id", x->id);
		cJSON_AddStringToObject(o, "title", x->title);
		char gs[2] = { x->grade, 0 };
		cJSON_AddStringToObject(o, "grade", gs);
		cJSON_AddStringToObject(o, "kernel", x->kernel);
		cJSON_AddStringToObject(o, "seed_kernel", x->seed_kernel);
		cJSON_AddStringToObject(o, "status", ss_xp_status_name(gr->status));
		cJSON_AddStringToObject(o, "why", gr->why);
		cJSON_AddBoolToObject(o, "validity_unknown", gr->validity_unknown);
		cJSON *ra = cJSON_AddArrayToObject(o, "rules");
		for (unsigned k = 0; k < gr->nr_rules; k++) {
			cJSON *ro = cJSON_CreateObject();
			cJSON_AddStringToObject(ro, "id", k < x->nr_rules ? x->rules[k].id : "quick");
			cJSON_AddStringToObject(ro, "rule", k < x->nr_rules ? rule_kind_name(x->rules[k].kind) : "quick");
			char rg[2] = { k < x->nr_rules ? x->rules[k].grade : 'A', 0 };
			cJSON_AddStringToObject(ro, "grade", rg);
			cJSON_AddStringToObject(ro, "status", ss_xp_status_name(gr->rules[k].status));
			cJSON_AddStringToObject(ro, "why", gr->rules[k].why);
			cJSON_AddItemToArray(ra, ro);
		}
		cJSON *sa = cJSON_AddArrayToObject(o, "series");
		for (unsigned s = 0; s < x->nr_series; s++) {
			const struct ss_xp_series *se = &x->series[s];
			cJSON *so = cJSON_CreateObject();
			cJSON_AddStringToObject(so, "name", se->name);
			cJSON_AddStringToObject(so, "unit", se->unit);
			cJSON_AddStringToObject(so, "metric", se->metric);
			cJSON_AddStringToObject(so, "real_source", se->real_source);
			cJSON_AddNumberToObject(so, "seeds", se->nr_seeds);
			cJSON_AddNumberToObject(so, "warmup_ns", (double)se->warmup_ns);
			cJSON_AddNumberToObject(so, "duration_ns", (double)se->duration_ns);
			cJSON *la = cJSON_AddArrayToObject(so, "loads"), *rla = cJSON_AddArrayToObject(so, "real");
			for (unsigned l = 0; l < se->nr_loads; l++) {
				cJSON_AddItemToArray(la, cJSON_CreateNumber(se->loads[l]));
				cJSON_AddItemToArray(rla, isnan(se->real[l]) ? cJSON_CreateNull() : cJSON_CreateNumber(se->real[l]));
			}
			cJSON *ca = cJSON_AddArrayToObject(so, "columns");
			for (unsigned p = 1; p < x->nr_policies; p++) {
				cJSON *co = cJSON_CreateObject();
				cJSON_AddStringToObject(co, "policy", x->policies[p].label);
				cJSON *da = cJSON_AddArrayToObject(co, "delta_pct"), *lo = cJSON_AddArrayToObject(co, "ci95_lo"),
				      *hi = cJSON_AddArrayToObject(co, "ci95_hi"), *wa = cJSON_AddArrayToObject(co, "why");
				for (unsigned l = 0; l < se->nr_loads; l++) {
					const struct ss_xp_cell *c = &d->cells[s][p * se->nr_loads + l];
					cJSON_AddItemToArray(da, c->have ? cJSON_CreateNumber(c->delta) : cJSON_CreateNull());
					cJSON_AddItemToArray(lo, c->have && isfinite(c->lo) ? cJSON_CreateNumber(c->lo) : cJSON_CreateNull());
					cJSON_AddItemToArray(hi, c->have && isfinite(c->hi) ? cJSON_CreateNumber(c->hi) : cJSON_CreateNull());
					cJSON_AddItemToArray(wa, c->why ? cJSON_CreateString(c->why) : cJSON_CreateNull());
				}
				cJSON_AddItemToArray(ca, co);
			}
			cJSON_AddItemToArray(sa, so);
		}
		cJSON *fa = cJSON_AddArrayToObject(o, "specs");
		for (char **f = r->spec_files[i]; f && *f; f++)
			cJSON_AddItemToArray(fa, cJSON_CreateString(*f));
		cJSON_AddItemToArray(xa, o);
	}
	cJSON_AddNumberToObject(root, "points_total", (double)r->points_total);
	cJSON_AddNumberToObject(root, "points_run", (double)r->points_run);
	char *txt = cJSON_Print(root);
	cJSON_Delete(root);
	char *out = g_strconcat(txt, "\n", NULL);
	cJSON_free(txt);
	return out;
}

char *ss_validate_render(const struct ss_validate_result *r, const char *format, GError **err)
{
	bool md = !strcmp(format, "markdown");
	if (!strcmp(format, "json"))
		return render_json(r);
	if (!md && strcmp(format, "text")) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--format '%s' (expected text, markdown or json)", format);
		return NULL;
	}
	unsigned n[4] = { 0 };
	for (unsigned i = 0; i < r->nr; i++)
		n[r->grade[i]->status]++;
	GString *g = g_string_new(NULL);
	g_string_append_printf(g, "%s%u experiments: %u PASS, %u FAIL, %u INVALID", md ? "" : "# ", r->nr, n[SS_XP_PASS],
			       n[SS_XP_FAIL], n[SS_XP_INVALID]);
	if (n[SS_XP_SKIP])
		g_string_append_printf(g, ", %u not graded", n[SS_XP_SKIP]);
	g_string_append(g, "\n\n");
	if (md)
		g_string_append(g, "| experiment | grade | kernel run (seed's) | simulated Δ % per load | real Δ % per load | result |\n"
				   "|---|---|---|---|---|---|\n");
	for (unsigned i = 0; i < r->nr; i++) {
		const struct ss_experiment *x = r->x[i];
		GString *sim = g_string_new(NULL), *real = g_string_new(NULL);
		series_rows(r, i, sim, real, md);
		g_autofree char *res = result_text(r->grade[i]);
		if (md) {
			g_string_append_printf(g, "| %s | %c | %s (%s) | ", x->id, x->grade, x->kernel, x->seed_kernel);
			md_escape(g, sim->len ? sim->str : "exact check");
			g_string_append(g, " | ");
			g_string_append(g, real->len ? real->str : "-");
			g_string_append(g, " | ");
			md_escape(g, res);
			g_string_append(g, " |\n");
		} else {
			g_string_append_printf(g, "%-4s %c  kernel %s (%s)  %s\n", x->id, x->grade, x->kernel, x->seed_kernel, res);
			if (sim->len) {
				gchar **sl = g_strsplit(sim->str, "\n", -1), **rl = g_strsplit(real->str, "\n", -1);
				for (gchar **p = sl; *p; p++)
					g_string_append_printf(g, "       simulated %s\n", *p);
				for (gchar **p = rl; *p; p++)
					g_string_append_printf(g, "       real      %s\n", *p);
				g_strfreev(sl);
				g_strfreev(rl);
			}
		}
		g_string_free(sim, TRUE);
		g_string_free(real, TRUE);
	}
	for (unsigned i = 0; i < r->nr; i++)
		render_details(g, r, i, md);
	return g_string_free(g, FALSE);
}

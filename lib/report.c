/*
 * simsched report: merge sweep result files (JSON lines) as a set of records
 * and print compare's mmtests-style tables, one per group of topology ×
 * workload × --set values (docs/sweeps.md).
 */
#include "simsched/error.h"
#include "simsched/sweep.h"
#include "ss_sweep.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

char *ss_sweep_record_key(const char *line)
{
	cJSON *o = cJSON_Parse(line);
	char *key = NULL;
	if (o && cJSON_IsObject(o) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "key")) &&
	    cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "metrics")))
		key = g_strdup(cJSON_GetObjectItemCaseSensitive(o, "key")->valuestring);
	cJSON_Delete(o);
	return key;
}

struct rec {
	char *key;
	char *where;            /* "file:line" of its first occurrence */
	char *figures;          /* metrics and counts as printed: what "identical" compares */
	unsigned group;         /* index into groups */
	char *policy;
	unsigned policy_rank;   /* grid.policy */
	unsigned load_x100;
	uint64_t seed;
	double metric[SS_CMP_NR_METRICS];       /* NAN: null in the record, the run had no value */
	bool has_metric[SS_CMP_NR_METRICS];
	unsigned schema;        /* schema_version, 1 when absent */
	char *wl_metric_name, *wl_metric_unit;   /* workload_metric: what metrics.workload is */
	bool wl_higher_is_better;
};

struct group {
	char *gkey;             /* everything but policy, load and seed */
	uint64_t rank[3];       /* min grid.topology, grid.workload, grid.set of its records */
	cJSON *info;            /* topology, topology_file, workload, workload_file, set, ... */
};

struct ss_report {
	GPtrArray *recs;        /* struct rec *, in first-seen order */
	GPtrArray *groups;      /* struct group * */
	GHashTable *by_key;     /* record key -> struct rec * (lookups only) */
	GHashTable *by_gkey;    /* group key -> index + 1 (lookups only) */
	GHashTable *by_cell;    /* "group|policy|load|seed" -> struct rec * (lookups only) */
};

static void rec_free(gpointer p)
{
	struct rec *r = p;
	g_free(r->key);
	g_free(r->where);
	g_free(r->figures);
	g_free(r->policy);
	g_free(r->wl_metric_name);
	g_free(r->wl_metric_unit);
	g_free(r);
}

static void group_free(gpointer p)
{
	struct group *g = p;
	g_free(g->gkey);
	cJSON_Delete(g->info);
	g_free(g);
}

void ss_report_free(struct ss_report *r)
{
	if (!r)
		return;
	g_hash_table_destroy(r->by_key);
	g_hash_table_destroy(r->by_gkey);
	g_hash_table_destroy(r->by_cell);
	g_ptr_array_free(r->recs, TRUE);
	g_ptr_array_free(r->groups, TRUE);
	g_free(r);
}

unsigned ss_report_nr_records(const struct ss_report *r)
{
	return r->recs->len;
}

static const cJSON *field(const cJSON *o, const char *name, int type_mask)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
	return f && (f->type & 0xff & type_mask) ? f : NULL;
}

static bool bad_record(GError **err, const char *where, const char *what)
{
	g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: %s (expected a record written by simsched sweep)", where, what);
	return false;
}

static char *cell_key(unsigned group, const char *policy, unsigned load, uint64_t seed)
{
	return g_strdup_printf("%u|%s|%u|%" G_GUINT64_FORMAT, group, policy, load, seed);
}

/* Parse one line into the report. */
static bool add_line(struct ss_report *rep, const char *line, const char *where, GPtrArray *warnings, GError **err)
{
	static const char *const strs[] = { "key", "topology", "topology_file", "workload", "workload_file", "policy" };
	static const char *const nums[] = { "load_pct", "seed", "duration_ns", "warmup_ns" };
	cJSON *o = cJSON_Parse(line);
	const cJSON *grid, *metrics, *counts, *set, *feat, *nodes;
	bool ok = false;

	if (!o || !cJSON_IsObject(o)) {
		bad_record(err, where, "not a JSON object");
		goto out;
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(strs); i++)
		if (!field(o, strs[i], cJSON_String)) {
			g_autofree char *m = g_strdup_printf("no string \"%s\"", strs[i]);
			bad_record(err, where, m);
			goto out;
		}
	for (unsigned i = 0; i < G_N_ELEMENTS(nums); i++)
		if (!field(o, nums[i], cJSON_Number)) {
			g_autofree char *m = g_strdup_printf("no number \"%s\"", nums[i]);
			bad_record(err, where, m);
			goto out;
		}
	if (!(grid = field(o, "grid", cJSON_Object)) || !field(grid, "topology", cJSON_Number) ||
	    !field(grid, "workload", cJSON_Number) || !field(grid, "set", cJSON_Number) ||
	    !field(grid, "policy", cJSON_Number)) {
		bad_record(err, where, "no \"grid\" object with topology, workload, set and policy");
		goto out;
	}
	if (!(metrics = field(o, "metrics", cJSON_Object)) || !(set = field(o, "set", cJSON_Object)) ||
	    !(feat = field(o, "sched_features", cJSON_String | cJSON_NULL)) ||
	    !(nodes = field(o, "nodes", cJSON_String | cJSON_NULL))) {
		bad_record(err, where, "no \"metrics\", \"set\", \"sched_features\" or \"nodes\"");
		goto out;
	}
	for (const cJSON *v = set->child; v; v = v->next)
		if (!cJSON_IsString(v)) {
			bad_record(err, where, "a \"set\" value is not a string");
			goto out;
		}
	counts = field(o, "counts", cJSON_Object);

	const char *key = field(o, "key", cJSON_String)->valuestring;
	char *mtxt = cJSON_PrintUnformatted(metrics), *ctxt = counts ? cJSON_PrintUnformatted(counts) : NULL;
	char *figures = g_strconcat(mtxt, ctxt ? ctxt : "", NULL);
	cJSON_free(mtxt);
	cJSON_free(ctxt);
	struct rec *old = g_hash_table_lookup(rep->by_key, key);
	if (old) {
		ok = !strcmp(old->figures, figures);
		if (!ok)
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: the point of %s again, with other figures (the same point must give the same record; were they run with different simsched versions?)",
				    where, old->where);
		g_free(figures);
		goto out;
	}

	/* the group: everything that is not policy, load or seed */
	cJSON *info = cJSON_CreateObject();
	static const char *const gfields[] = { "topology", "topology_file", "workload", "workload_file", "set",
					       "sched_features", "nodes", "duration_ns", "warmup_ns" };
	for (unsigned i = 0; i < G_N_ELEMENTS(gfields); i++)
		cJSON_AddItemToObject(info, gfields[i], cJSON_Duplicate(cJSON_GetObjectItemCaseSensitive(o, gfields[i]), 1));
	/* a run length chosen by statistics (sweeps with warmup: auto or precision): only then in the group */
	for (unsigned i = 0; i < 2; i++) {
		static const char *const rl[2] = { "warmup_auto", "precision" };
		const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, rl[i]);
		if (v)
			cJSON_AddItemToObject(info, rl[i], cJSON_Duplicate(v, 1));
	}
	char *gk = cJSON_PrintUnformatted(info);
	gpointer gi = g_hash_table_lookup(rep->by_gkey, gk);
	struct group *g;
	uint64_t rank[3] = { (uint64_t)field(grid, "topology", cJSON_Number)->valuedouble,
			     (uint64_t)field(grid, "workload", cJSON_Number)->valuedouble,
			     (uint64_t)field(grid, "set", cJSON_Number)->valuedouble };
	if (!gi) {
		g = g_new0(struct group, 1);
		g->gkey = g_strdup(gk);
		g->info = info;
		memcpy(g->rank, rank, sizeof rank);
		g_ptr_array_add(rep->groups, g);
		gi = GUINT_TO_POINTER(rep->groups->len);
		g_hash_table_insert(rep->by_gkey, g_strdup(gk), gi);
	} else {
		g = g_ptr_array_index(rep->groups, GPOINTER_TO_UINT(gi) - 1);
		for (unsigned i = 0; i < 3; i++)
			if (rank[i] < g->rank[i])
				g->rank[i] = rank[i];
		cJSON_Delete(info);
	}
	cJSON_free(gk);

	struct rec *r = g_new0(struct rec, 1);
	r->key = g_strdup(key);
	r->where = g_strdup(where);
	r->figures = figures;
	r->group = GPOINTER_TO_UINT(gi) - 1;
	{
		/* a record of another kernel than v6.6 (sweep spec `kernel:`) is its own column: POLICY@KERNEL */
		const cJSON *kern = cJSON_GetObjectItemCaseSensitive(o, "kernel");
		const char *pol = field(o, "policy", cJSON_String)->valuestring;
		r->policy = cJSON_IsString(kern) && strcmp(kern->valuestring, "6.6")
				    ? g_strdup_printf("%s@%s", pol, kern->valuestring) : g_strdup(pol);
	}
	r->policy_rank = (unsigned)field(grid, "policy", cJSON_Number)->valuedouble;
	r->load_x100 = (unsigned)lround(field(o, "load_pct", cJSON_Number)->valuedouble * 100.0);
	r->seed = (uint64_t)field(o, "seed", cJSON_Number)->valuedouble;
	const cJSON *sv = field(o, "schema_version", cJSON_Number);
	r->schema = sv && sv->valuedouble >= 1 ? (unsigned)sv->valuedouble : 1;
	for (int i = 0; i < SS_CMP_NR_METRICS; i++) {
		/* null: the run had no value (no samples); missing, never 0 */
		const cJSON *m = field(metrics, ss_cmp_metric_name((enum ss_cmp_metric)i), cJSON_Number | cJSON_NULL);
		r->has_metric[i] = m != NULL;
		r->metric[i] = m && cJSON_IsNumber(m) ? m->valuedouble : NAN;
	}
	const cJSON *wm = field(o, "workload_metric", cJSON_Object);
	if (wm && field(wm, "name", cJSON_String) && field(wm, "unit", cJSON_String) &&
	    field(wm, "higher_is_better", cJSON_True | cJSON_False)) {
		r->wl_metric_name = g_strdup(field(wm, "name", cJSON_String)->valuestring);
		r->wl_metric_unit = g_strdup(field(wm, "unit", cJSON_String)->valuestring);
		r->wl_higher_is_better = cJSON_IsTrue(field(wm, "higher_is_better", cJSON_True | cJSON_False));
	} else {
		r->has_metric[SS_CMP_WORKLOAD] = false;   /* a value without its meaning is no use */
	}
	char *ck = cell_key(r->group, r->policy, r->load_x100, r->seed);
	struct rec *other = g_hash_table_lookup(rep->by_cell, ck);
	if (other) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: policy %s at load %.2f%%, seed %" G_GUINT64_FORMAT " is already in %s under another key (expected one record per point)",
			    where, r->policy, r->load_x100 / 100.0, r->seed, other->where);
		g_free(ck);
		rec_free(r);
		goto out;
	}
	g_hash_table_insert(rep->by_cell, ck, r);
	g_hash_table_insert(rep->by_key, r->key, r);
	g_ptr_array_add(rep->recs, r);
	const cJSON *dl = field(o, "deadlock_at_ns", cJSON_Number);
	if (dl && warnings)
		g_ptr_array_add(warnings, g_strdup_printf("%s: policy %s at load %.2f%%, seed %" G_GUINT64_FORMAT
							  " deadlocked at %.9f s: its figures cover a window where nothing ran",
							  where, r->policy, r->load_x100 / 100.0, r->seed, dl->valuedouble / 1e9));
	/* precision: a window that reached its cap (the spec's duration) first is wider than asked */
	const cJSON *win = field(field(o, "run_length", cJSON_Object), "window", cJSON_Object);
	const cJSON *stopped = field(win, "stopped", cJSON_String);
	if (stopped && !strcmp(stopped->valuestring, "cap") && warnings)
		g_ptr_array_add(warnings, g_strdup_printf("%s: policy %s at load %.2f%%, seed %" G_GUINT64_FORMAT
							  " reached its duration cap before its precision: its interval is wider than asked",
							  where, r->policy, r->load_x100 / 100.0, r->seed));
	ok = true;
out:
	cJSON_Delete(o);
	return ok;
}

struct ss_report *ss_report_load(const char *const *files, unsigned nr_files, GPtrArray *warnings, GError **err)
{
	struct ss_report *rep = g_new0(struct ss_report, 1);
	rep->recs = g_ptr_array_new_with_free_func(rec_free);
	rep->groups = g_ptr_array_new_with_free_func(group_free);
	rep->by_key = g_hash_table_new(g_str_hash, g_str_equal);
	rep->by_gkey = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	rep->by_cell = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);

	if (!nr_files) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "no result file given");
		goto fail;
	}
	for (unsigned f = 0; f < nr_files; f++) {
		FILE *fp = fopen(files[f], "r");
		if (!fp) {
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read: %s", files[f], g_strerror(errno));
			goto fail;
		}
		char *line = NULL;
		size_t cap = 0;
		ssize_t n;
		unsigned lineno = 0;
		bool ok = true;
		while (ok && (n = getline(&line, &cap, fp)) >= 0) {
			lineno++;
			g_autofree char *where = g_strdup_printf("%s:%u", files[f], lineno);
			if (n == 0 || line[n - 1] != '\n') {
				if (warnings)
					g_ptr_array_add(warnings,
							g_strdup_printf("%s: last line has no end (a sweep still writing, or killed); skipped", where));
				break;
			}
			line[n - 1] = '\0';
			if (strlen(line) != (size_t)n - 1) {
				ok = bad_record(err, where, "a NUL byte in the line");
				break;
			}
			ok = add_line(rep, line, where, warnings, err);
		}
		if (ok && ferror(fp)) {
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: read error: %s", files[f], g_strerror(errno));
			ok = false;
		}
		free(line);
		fclose(fp);
		if (!ok)
			goto fail;
	}
	return rep;
fail:
	ss_report_free(rep);
	return NULL;
}

/* ---------------------------------------------------------------- rendering */

static int cmp_group(gconstpointer a, gconstpointer b)
{
	const struct group *x = *(struct group *const *)a, *y = *(struct group *const *)b;
	for (unsigned i = 0; i < 3; i++)
		if (x->rank[i] != y->rank[i])
			return x->rank[i] < y->rank[i] ? -1 : 1;
	return strcmp(x->gkey, y->gkey);
}

struct pol {
	const char *name;
	unsigned rank;
};

static int cmp_pol(const void *a, const void *b)
{
	const struct pol *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;
	return x < y ? -1 : x > y;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

static void time_label(GString *s, uint64_t ns)
{
	if (ns && ns % 1000000000u == 0)
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "s", ns / 1000000000u);
	else if (ns && ns % 1000000u == 0)
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "ms", ns / 1000000u);
	else if (ns && ns % 1000u == 0)
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "us", ns / 1000u);
	else
		g_string_append_printf(s, "%" G_GUINT64_FORMAT "ns", ns);
}

/* "topology kunpeng920 (topologies/kunpeng920.yaml), workload ..., set k=v, duration 2s, warmup 1s" */
static char *group_title(const cJSON *info)
{
	GString *s = g_string_new(NULL);
	const cJSON *set = cJSON_GetObjectItemCaseSensitive(info, "set");
	const cJSON *feat = cJSON_GetObjectItemCaseSensitive(info, "sched_features");
	const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(info, "nodes");
	g_string_append_printf(s, "topology %s (%s), workload %s (%s)",
			       cJSON_GetObjectItemCaseSensitive(info, "topology")->valuestring,
			       cJSON_GetObjectItemCaseSensitive(info, "topology_file")->valuestring,
			       cJSON_GetObjectItemCaseSensitive(info, "workload")->valuestring,
			       cJSON_GetObjectItemCaseSensitive(info, "workload_file")->valuestring);
	for (const cJSON *v = set->child; v; v = v->next)
		g_string_append_printf(s, "%s %s=%s", v == set->child ? ", set" : "", v->string, v->valuestring);
	if (cJSON_IsString(feat))
		g_string_append_printf(s, ", sched_features %s", feat->valuestring);
	if (cJSON_IsString(nodes))
		g_string_append_printf(s, ", nodes %s", nodes->valuestring);
	const cJSON *wa = cJSON_GetObjectItemCaseSensitive(info, "warmup_auto");
	const cJSON *pr = cJSON_GetObjectItemCaseSensitive(info, "precision");
	bool prec = cJSON_IsNumber(pr) && pr->valuedouble > 0;
	g_string_append(s, prec ? ", duration until +-" : ", duration ");
	if (prec) {
		g_string_append_printf(s, "%g %% at 95 %% (at most ", 100.0 * pr->valuedouble);
		time_label(s, (uint64_t)cJSON_GetObjectItemCaseSensitive(info, "duration_ns")->valuedouble);
		g_string_append_c(s, ')');
	} else {
		time_label(s, (uint64_t)cJSON_GetObjectItemCaseSensitive(info, "duration_ns")->valuedouble);
	}
	g_string_append(s, cJSON_IsTrue(wa) ? ", warmup by MSER-5 (at most " : ", warmup ");
	time_label(s, (uint64_t)cJSON_GetObjectItemCaseSensitive(info, "warmup_ns")->valuedouble);
	if (cJSON_IsTrue(wa))
		g_string_append_c(s, ')');
	return g_string_free(s, FALSE);
}

static void csv_field(GString *s, const char *v)
{
	if (strpbrk(v, ",\"\n")) {
		g_string_append_c(s, '"');
		for (; *v; v++) {
			if (*v == '"')
				g_string_append_c(s, '"');
			g_string_append_c(s, *v);
		}
		g_string_append_c(s, '"');
	} else {
		g_string_append(s, v);
	}
	g_string_append_c(s, ',');
}

/* The compare result of group g, or NULL + *err for an incomplete grid. */
static struct ss_compare_result *group_table(const struct ss_report *rep, unsigned gi, enum ss_cmp_metric metric,
					     const char *const *want, GError **err)
{
	GArray *pols = g_array_new(FALSE, FALSE, sizeof(struct pol));
	GArray *loads = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *seeds = g_array_new(FALSE, FALSE, sizeof(uint64_t));
	GHashTable *seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);   /* lookups only */
	struct ss_compare_result *res = NULL;
	const struct group *g = g_ptr_array_index(rep->groups, gi);
	g_autofree char *title = group_title(g->info);
	/*
	 * Records of schema versions before the metric's (ss_cmp_metric_info()->schema)
	 * beside newer ones: a value that version 2 would write otherwise — busy_pct
	 * under --nodes (over the online CPUs then), a 0 that may be a missing value
	 * (null since version 2) — cannot share a table with the newer records.
	 */
	const struct rec *older = NULL, *newer = NULL;
	unsigned since = ss_cmp_metric_info(metric)->schema;
	bool nodes = cJSON_IsString(cJSON_GetObjectItemCaseSensitive(g->info, "nodes"));

	for (unsigned i = 0; i < rep->recs->len; i++) {
		const struct rec *r = g_ptr_array_index(rep->recs, i);
		if (r->group != gi)
			continue;
		if (want) {
			bool in = false;
			for (const char *const *w = want; *w; w++)
				in = in || !strcmp(*w, r->policy);
			if (!in)
				continue;
		}
		char *pk = g_strconcat("p:", r->policy, NULL);
		if (!g_hash_table_contains(seen, pk)) {
			struct pol p = { r->policy, r->policy_rank };
			g_array_append_val(pols, p);
			g_hash_table_add(seen, pk);
		} else {
			g_free(pk);
			for (unsigned k = 0; k < pols->len; k++) {
				struct pol *p = &g_array_index(pols, struct pol, k);
				if (!strcmp(p->name, r->policy) && r->policy_rank < p->rank)
					p->rank = r->policy_rank;
			}
		}
		char *lk = g_strdup_printf("l:%u", r->load_x100);
		if (!g_hash_table_contains(seen, lk)) {
			g_array_append_val(loads, r->load_x100);
			g_hash_table_add(seen, lk);
		} else {
			g_free(lk);
		}
		char *sk = g_strdup_printf("s:%" G_GUINT64_FORMAT, r->seed);
		if (!g_hash_table_contains(seen, sk)) {
			g_array_append_val(seeds, r->seed);
			g_hash_table_add(seen, sk);
		} else {
			g_free(sk);
		}
	}
	if (want) {
		/* the order given; each must be present */
		g_array_set_size(pols, 0);
		for (const char *const *w = want; *w; w++) {
			char *pk = g_strconcat("p:", *w, NULL);
			bool has = g_hash_table_contains(seen, pk);
			g_free(pk);
			if (!has) {
				g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: no record of policy %s", title, *w);
				goto out;
			}
			struct pol p = { *w, 0 };
			g_array_append_val(pols, p);
		}
	} else {
		g_array_sort(pols, cmp_pol);
	}
	g_array_sort(loads, cmp_uint);
	g_array_sort(seeds, cmp_u64);
	const char **names = g_new0(const char *, pols->len + 1);
	for (unsigned p = 0; p < pols->len; p++)
		names[p] = g_array_index(pols, struct pol, p).name;
	res = ss_compare_result_new(metric, names, pols->len, (const unsigned *)(void *)loads->data, loads->len, seeds->len);
	g_free(names);
	for (unsigned l = 0; l < loads->len && res; l++)
		for (unsigned p = 0; p < pols->len && res; p++)
			for (unsigned k = 0; k < seeds->len; k++) {
				unsigned load = g_array_index(loads, unsigned, l);
				uint64_t seed = g_array_index(seeds, uint64_t, k);
				const char *pn = g_array_index(pols, struct pol, p).name;
				char *ck = cell_key(gi, pn, load, seed);
				const struct rec *r = g_hash_table_lookup(rep->by_cell, ck);
				g_free(ck);
				if (!r) {
					g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
						    "%s: no record of policy %s at load %.2f%%, seed %" G_GUINT64_FORMAT
						    " (every policy and load needs the same seeds: is a shard missing or still running?)",
						    title, pn, load / 100.0, seed);
					ss_compare_result_free(res);
					res = NULL;
					break;
				}
				if (!r->has_metric[metric]) {
					g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: the record has no metric '%s' (written by an older simsched?)",
						    r->where, ss_cmp_metric_name(metric));
					ss_compare_result_free(res);
					res = NULL;
					break;
				}
				if (r->schema < since && !older &&
				    (metric == SS_CMP_BUSY_PCT ? nodes : r->metric[metric] == 0.0))
					older = r;
				if (r->schema >= since && !newer)
					newer = r;
				if (older && newer) {
					/* e.g. busy_pct over the online CPUs (1) beside over the allowed ones (2) */
					g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
						    "%s: records of schema versions %u (%s) and %u (%s) in one table, and metric '%s' changed meaning in version %u (docs/output.md, \"Schema versions\"; the older record's value may differ): run the older points again with this simsched",
						    title, older->schema, older->where, newer->schema, newer->where,
						    ss_cmp_metric_name(metric), since);
					ss_compare_result_free(res);
					res = NULL;
					break;
				}
				if (metric == SS_CMP_WORKLOAD && !l && !p && !k)
					ss_compare_result_set_metric(res, r->wl_metric_name, r->wl_metric_unit,
								     r->wl_higher_is_better);
				res->cells[l * pols->len + p].values[k] = r->metric[metric];
			}
	if (res)
		ss_compare_summarise(res);
out:
	g_hash_table_destroy(seen);
	g_array_free(pols, TRUE);
	g_array_free(loads, TRUE);
	g_array_free(seeds, TRUE);
	return res;
}

char *ss_report_render(const struct ss_report *rep, enum ss_cmp_metric metric, const char *const *policies,
		       const char *format, GError **err)
{
	bool text = !strcmp(format, "text"), md = !strcmp(format, "markdown"), csv = !strcmp(format, "csv"),
	     json = !strcmp(format, "json");
	if (!text && !md && !csv && !json) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--format '%s': expected text, markdown, csv or json", format);
		return NULL;
	}
	if (!rep->recs->len) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "no records in the result files");
		return NULL;
	}
	/* groups in spec order: sort a copy of the indices */
	GPtrArray *order = g_ptr_array_new();
	for (unsigned i = 0; i < rep->groups->len; i++)
		g_ptr_array_add(order, g_ptr_array_index(rep->groups, i));
	g_ptr_array_sort(order, cmp_group);

	GString *s = g_string_new(NULL);
	cJSON *root = NULL, *jgroups = NULL;
	if (json) {
		root = cJSON_CreateObject();
		cJSON_AddStringToObject(root, "metric", ss_cmp_metric_name(metric));
		jgroups = cJSON_AddArrayToObject(root, "groups");
	}
	bool ok = true;
	for (unsigned o = 0; o < order->len && ok; o++) {
		const struct group *g = g_ptr_array_index(order, o);
		unsigned gi = 0;
		while (g_ptr_array_index(rep->groups, gi) != g)
			gi++;
		struct ss_compare_result *res = group_table(rep, gi, metric, policies, err);
		if (!res) {
			ok = false;
			break;
		}
		char *t = ss_compare_render(res, json ? "json" : format, err);
		ss_compare_result_free(res);
		if (!t) {
			ok = false;
			break;
		}
		g_autofree char *title = group_title(g->info);
		if (text) {
			g_string_append_printf(s, "%s## %s\n%s", o ? "\n" : "", title, t);
		} else if (md) {
			g_string_append_printf(s, "%s### %s\n\n%s", o ? "\n" : "", title, t);
		} else if (csv) {
			/* compare's csv lines, prefixed by the group's coordinates; one header */
			gchar **lines = g_strsplit(t, "\n", -1);
			if (!o)
				g_string_append_printf(s, "topology,workload,set,sched_features,nodes,duration_ns,warmup_ns,%s\n", lines[0]);
			GString *pre = g_string_new(NULL);
			const cJSON *set = cJSON_GetObjectItemCaseSensitive(g->info, "set");
			const cJSON *feat = cJSON_GetObjectItemCaseSensitive(g->info, "sched_features");
			const cJSON *nodes = cJSON_GetObjectItemCaseSensitive(g->info, "nodes");
			GString *sets = g_string_new(NULL);
			for (const cJSON *v = set->child; v; v = v->next)
				g_string_append_printf(sets, "%s%s=%s", v == set->child ? "" : ";", v->string, v->valuestring);
			csv_field(pre, cJSON_GetObjectItemCaseSensitive(g->info, "topology")->valuestring);
			csv_field(pre, cJSON_GetObjectItemCaseSensitive(g->info, "workload")->valuestring);
			csv_field(pre, sets->str);
			csv_field(pre, cJSON_IsString(feat) ? feat->valuestring : "");
			csv_field(pre, cJSON_IsString(nodes) ? nodes->valuestring : "");
			g_string_append_printf(pre, "%.0f,%.0f,", cJSON_GetObjectItemCaseSensitive(g->info, "duration_ns")->valuedouble,
					       cJSON_GetObjectItemCaseSensitive(g->info, "warmup_ns")->valuedouble);
			for (unsigned i = 1; lines[i]; i++)
				if (lines[i][0])
					g_string_append_printf(s, "%s%s\n", pre->str, lines[i]);
			g_string_free(sets, TRUE);
			g_string_free(pre, TRUE);
			g_strfreev(lines);
		} else {
			cJSON *e = cJSON_Duplicate(g->info, 1);
			cJSON_AddItemToObject(e, "table", cJSON_Parse(t));
			cJSON_AddItemToArray(jgroups, e);
		}
		g_free(t);
	}
	g_ptr_array_free(order, TRUE);
	if (json) {
		if (ok) {
			char *txt = cJSON_Print(root);
			g_string_append(s, txt);
			g_string_append_c(s, '\n');
			cJSON_free(txt);
		}
		cJSON_Delete(root);
	}
	if (!ok) {
		g_string_free(s, TRUE);
		return NULL;
	}
	return g_string_free(s, FALSE);
}

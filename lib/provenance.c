/*
 * Provenance of results (simsched/provenance.h, docs/output.md): the object
 * a run's JSON and a sweep record end with, and reading it back for
 * `simsched run --rerun`. Everything written is a function of the inputs:
 * no wall clock, no host name, no absolute path the user did not give.
 */
#include "ss_provenance.h"
#include "simsched/error.h"
#include "simsched/params.h"
#include "ss_sched.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

/* ---------------------------------------------------------------- files and command lines */

char *ss_file_sha256(const char *path, GError **err)
{
	GStatBuf st;
	FILE *f;
	GChecksum *ck;
	unsigned char buf[65536];
	size_t n;
	char *hex;

	if (g_stat(path, &st) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (not a regular file)", path);
		return NULL;
	}
	if (!(f = fopen(path, "rb"))) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
		return NULL;
	}
	ck = g_checksum_new(G_CHECKSUM_SHA256);
	while ((n = fread(buf, 1, sizeof buf, f)) > 0)
		g_checksum_update(ck, buf, (gssize)n);
	if (ferror(f)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, g_strerror(errno));
		g_checksum_free(ck);
		fclose(f);
		return NULL;
	}
	fclose(f);
	hex = g_strdup(g_checksum_get_string(ck));
	g_checksum_free(ck);
	return hex;
}


/* The value in force of the workload's parameter name; false if it has none of that name. */
static bool wl_param(const struct ss_workload *w, const char *name, double *v)
{
	for (unsigned i = 0; w && i < ss_workload_nr_params(w); i++) {
		const struct ss_wl_param *pm = ss_workload_param(w, i);
		if (!strcmp(pm->name, name)) {
			*v = (double)pm->value;
			return true;
		}
	}
	return false;
}

static bool shell_safe(const char *a)
{
	if (!*a)
		return false;
	for (const char *p = a; *p; p++)
		if (!g_ascii_isalnum(*p) && !strchr("_@%+=:,./-", *p))
			return false;
	return true;
}

char *ss_shell_join(int argc, const char *const *argv)
{
	GString *s = g_string_new(NULL);

	for (int i = 0; i < argc; i++) {
		const char *a = argv[i] ? argv[i] : "";

		if (i)
			g_string_append_c(s, ' ');
		if (shell_safe(a)) {
			g_string_append(s, a);
			continue;
		}
		g_string_append_c(s, '\'');
		for (const char *p = a; *p; p++) {
			if (*p == '\'')
				g_string_append(s, "'\\''");
			else
				g_string_append_c(s, *p);
		}
		g_string_append_c(s, '\'');
	}
	if (!g_utf8_validate(s->str, (gssize)s->len, NULL)) {
		char *v = g_utf8_make_valid(s->str, (gssize)s->len);
		g_string_free(s, TRUE);
		return v;
	}
	return g_string_free(s, FALSE);
}

/* ---------------------------------------------------------------- writing */

static void add_file(cJSON *o, const char *name, const char *file, const char *sha)
{
	cJSON *f = cJSON_AddObjectToObject(o, name);

	cJSON_AddStringToObject(f, "file", file ? file : "");
	cJSON_AddStringToObject(f, "sha256", sha ? sha : "");
}

static void add_u64(cJSON *o, const char *name, uint64_t v)
{
	/* exact: cJSON's %.15g would round a 16-digit value */
	char num[24];

	snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, (guint64)v);
	cJSON_AddRawToObject(o, name, num);
}

cJSON *ss_provenance_json(const struct ss_provenance *p, const struct ss_run_config *cfg)
{
	const struct ss_topology *t = cfg->topo;
	const char *policy = cfg->policy ? cfg->policy : ss_kernel_default_policy(cfg->kernel);
	const struct ss_policy *pol = ss_policy_find(policy);
	cJSON *o = cJSON_CreateObject(), *x, *a;
	const char *section, *key;
	double v;

	if (p->command)
		cJSON_AddStringToObject(o, "command", p->command);
	if (p->spec_file)
		add_file(o, "spec", p->spec_file, p->spec_sha256);
	cJSON_AddStringToObject(o, "simsched_version", SS_VERSION_STRING);
	{
		/* --kernel: the version modelled (rerun reads it back) */
		char km[16];
		snprintf(km, sizeof km, "v%s", ss_kernel_name(cfg->kernel));
		cJSON_AddStringToObject(o, "kernel_model", km);
	}
	add_file(o, "topology", p->topology_file, p->topology_sha256);
	add_file(o, "workload", p->workload_file, p->workload_sha256);

	x = cJSON_AddObjectToObject(o, "policy");
	cJSON_AddStringToObject(x, "name", policy);
	if (p->plugin_file)
		add_file(x, "plugin", p->plugin_file, p->plugin_sha256);
	else
		cJSON_AddNullToObject(x, "plugin");
	a = cJSON_AddObjectToObject(x, "params");
	for (unsigned i = 0; pol && i < pol->nr_params; i++) {
		g_autofree char *k = g_strdup_printf("policy.%s", pol->params[i].key);
		if (ss_params_resolve(&cfg->params, policy, k, &v))
			cJSON_AddNumberToObject(a, k, v);
	}

	/* --set as given, each with the value in force for the run */
	a = cJSON_AddArrayToObject(o, "set");
	for (unsigned i = 0; i < p->nr_sets; i++) {
		const char *eq = strchr(p->sets[i], '=');
		g_autofree char *k = g_strndup(p->sets[i], eq ? (gsize)(eq - p->sets[i]) : strlen(p->sets[i]));
		cJSON *e = cJSON_CreateObject();

		cJSON_AddStringToObject(e, "given", p->sets[i]);
		cJSON_AddStringToObject(e, "key", k);
		if (g_str_has_prefix(k, "workload.") && wl_param(cfg->wl, k + strlen("workload."), &v))
			cJSON_AddNumberToObject(e, "value", v);
		else if (ss_params_resolve(&cfg->params, policy, k, &v))
			cJSON_AddNumberToObject(e, "value", v);
		else
			cJSON_AddNullToObject(e, "value");
		cJSON_AddItemToArray(a, e);
	}
	/* the workload file's parameters in force (docs/workloads.md "Parameters"), defaults included */
	x = cJSON_AddObjectToObject(o, "workload_params");
	for (unsigned i = 0; cfg->wl && i < ss_workload_nr_params(cfg->wl); i++) {
		const struct ss_wl_param *pm = ss_workload_param(cfg->wl, i);
		cJSON_AddNumberToObject(x, pm->name, (double)pm->value);
	}
	x = cJSON_AddObjectToObject(o, "params");
	for (unsigned i = 0; ss_params_nth(i, &section, &key); i++) {
		g_autofree char *k = g_strdup_printf("%s.%s", section, key);
		if (ss_params_resolve(&cfg->params, policy, k, &v))
			cJSON_AddNumberToObject(x, k, v);
	}

	/* --nodes: as given, and the firmware node ids and online CPUs it allows */
	{
		uint64_t *nm = g_new0(uint64_t, ss_cpumask_words(t->nr_nodes));
		uint64_t *cpus = g_new0(uint64_t, t->nr_words);
		unsigned len = 8 * t->nr_cpus + 16;
		char *buf = g_malloc(len);
		bool ok = !cfg->nodes || ss_topology_parse_nodes(t, cfg->nodes, nm, NULL);
		unsigned *ids = g_new(unsigned, t->nr_nodes), k = 0;

		x = cJSON_AddObjectToObject(o, "nodes");
		if (cfg->nodes)
			cJSON_AddStringToObject(x, "given", cfg->nodes);
		else
			cJSON_AddNullToObject(x, "given");
		for (unsigned n = 0; n < t->nr_nodes; n++)
			if (!cfg->nodes || (ok && ss_cpumask_test(nm, n)))
				ids[k++] = ss_node_id(t, n);
		/* ascending ids (file order need not be) */
		for (unsigned i = 1; i < k; i++)
			for (unsigned j = i; j && ids[j - 1] > ids[j]; j--) {
				unsigned tmp = ids[j];
				ids[j] = ids[j - 1];
				ids[j - 1] = tmp;
			}
		a = cJSON_AddArrayToObject(x, "ids");
		for (unsigned i = 0; i < k; i++)
			cJSON_AddItemToArray(a, cJSON_CreateNumber(ids[i]));
		for (unsigned c = 0; c < t->nr_cpus; c++)
			if (!t->cpu[c].offline && (!cfg->nodes || (ok && ss_cpumask_test(nm, t->cpu[c].node))))
				ss_cpumask_set(cpus, c);
		cJSON_AddStringToObject(x, "cpus", ss_cpumask_format_list(cpus, t->nr_cpus, buf, len));
		g_free(ids);
		g_free(buf);
		g_free(cpus);
		g_free(nm);
	}
	if (cfg->sched_features)
		cJSON_AddStringToObject(o, "sched_features", cfg->sched_features);
	else
		cJSON_AddNullToObject(o, "sched_features");
	cJSON_AddNumberToObject(o, "load_pct", (double)cfg->load_pct_x100 / 100.0);
	add_u64(o, "seed", cfg->seed);
	add_u64(o, "warmup_ns", cfg->warmup_ns);
	add_u64(o, "duration_ns", cfg->duration_ns);
	add_u64(o, "sample_interval_ns", cfg->sample_ns ? cfg->sample_ns : UINT64_C(100000000));
	/* run length by statistics: only when asked for, so a fixed run's provenance is as before */
	if (cfg->warmup_auto || cfg->precision > 0) {
		cJSON_AddBoolToObject(o, "warmup_auto", cfg->warmup_auto);
		cJSON_AddNumberToObject(o, "precision", cfg->precision);
		add_u64(o, "batch_ns", cfg->batch_ns);
	}
	return o;
}

char *ss_results_to_json_provenance(const struct ss_results *r, const struct ss_run_config *cfg,
				    const struct ss_provenance *p)
{
	char *base = ss_results_to_json(r), *wrap, *out;
	cJSON *w = cJSON_CreateObject();
	size_t n = strlen(base);

	/*
	 * The results' JSON with "provenance" appended as its last key, exactly
	 * as cJSON prints an object with one more item: the results end in
	 * "\n}\n", the wrapper {"provenance": ...} starts with "{\n". Splicing
	 * keeps ss_results_to_json() the one renderer of the figures.
	 */
	cJSON_AddItemToObject(w, "provenance", ss_provenance_json(p, cfg));
	wrap = cJSON_Print(w);
	cJSON_Delete(w);
	g_assert(n >= 3 && g_str_has_suffix(base, "\n}\n") && g_str_has_prefix(wrap, "{\n"));
	base[n - 3] = '\0';
	out = g_strconcat(base, ",\n", wrap + 2, "\n", NULL);
	cJSON_free(wrap);
	g_free(base);
	return out;
}

/* ---------------------------------------------------------------- reading */

void ss_rerun_free(struct ss_rerun *rr)
{
	if (!rr)
		return;
	g_free(rr->where);
	g_free(rr->line);
	g_free(rr->version);
	g_free(rr->command);
	g_free(rr->topology_file);
	g_free(rr->topology_sha256);
	g_free(rr->workload_file);
	g_free(rr->workload_sha256);
	g_free(rr->policy);
	g_free(rr->plugin_file);
	g_free(rr->plugin_sha256);
	g_strfreev(rr->sets);
	g_free(rr->nodes);
	g_free(rr->sched_features);
	g_strfreev(rr->param_keys);
	g_free(rr->param_values);
	g_free(rr);
}

bool ss_rerun_check_params(const struct ss_rerun *rr, const struct ss_params *p, const char *policy, GError **err)
{
	const char *section, *key;

	if (!rr->param_keys)
		return true;
	for (unsigned i = 0; ss_params_nth(i, &section, &key); i++) {
		g_autofree char *k = g_strdup_printf("%s.%s", section, key);
		double now = 0;
		unsigned j;

		if (!ss_params_resolve(p, policy, k, &now))
			continue;
		for (j = 0; rr->param_keys[j] && strcmp(rr->param_keys[j], k); j++)
			;
		if (!rr->param_keys[j]) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: the result records no %s: it was made by a simsched without that parameter, whose model "
				    "this one does not run (expected a result of this version; rerun it with the version that "
				    "wrote it, simsched %s)", rr->where, k, rr->version ? rr->version : "?");
			return false;
		}
		if (rr->param_values[j] != now) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s: the result ran with %s = %.17g, this simsched would run %.17g (a default changed since "
				    "it was written; expected the same value)", rr->where, k, rr->param_values[j], now);
			return false;
		}
	}
	return true;
}

static bool bad(GError **err, const char *where, const char *what)
{
	g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: %s (expected a result as simsched wrote it: a run's --json file or a sweep record)",
		    where, what);
	return false;
}

/* o.name as a string (NULL allowed when nullable: *out stays NULL) */
static bool get_str(const cJSON *o, const char *name, bool nullable, char **out, const char *where, const char *path,
		    GError **err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (cJSON_IsString(v)) {
		*out = g_strdup(v->valuestring);
		return true;
	}
	if (nullable && cJSON_IsNull(v))
		return true;
	g_autofree char *m = g_strdup_printf("%s%s is %s", path, name, v ? "not a string" : "missing");
	return bad(err, where, m);
}

/* o.name as a whole number in 0..max (JSON numbers are exact below 2^53) */
static bool get_u64(const cJSON *o, const char *name, uint64_t max, uint64_t *out, const char *where, GError **err)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);

	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0) || v->valuedouble > (double)max ||
	    v->valuedouble != floor(v->valuedouble)) {
		g_autofree char *m = g_strdup_printf("provenance.%s is %s", name, v ? "not a whole number in range" : "missing");
		return bad(err, where, m);
	}
	*out = (uint64_t)v->valuedouble;
	return true;
}

static bool get_file(const cJSON *o, const char *name, char **file, char **sha, const char *where, GError **err)
{
	const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
	g_autofree char *path = g_strdup_printf("provenance.%s.", name);

	if (!cJSON_IsObject(f)) {
		g_autofree char *m = g_strdup_printf("provenance.%s is %s", name, f ? "not an object" : "missing");
		return bad(err, where, m);
	}
	return get_str(f, "file", false, file, where, path, err) && get_str(f, "sha256", false, sha, where, path, err);
}

/* The parameters of a result from its provenance object. */
static bool from_provenance(struct ss_rerun *rr, const cJSON *root, GError **err)
{
	const cJSON *p = cJSON_GetObjectItemCaseSensitive(root, "provenance"), *x, *a;
	const char *w = rr->where;
	uint64_t load;

	if (!cJSON_IsObject(p)) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "%s: no \"provenance\" (a result written by a simsched that did not record it, or not a "
			    "result; expected a run's --json file or a sweep record)", w);
		return false;
	}
	if (!rr->is_record && !get_str(p, "command", false, &rr->command, w, "provenance.", err))
		return false;
	x = cJSON_GetObjectItemCaseSensitive(p, "kernel_model");
	if (x) {
		/* written by every simsched that records provenance; "v6.6" before --kernel existed */
		enum ss_kernel k;
		if (!cJSON_IsString(x) || !ss_kernel_parse(x->valuestring, &k, NULL))
			return bad(err, w, "provenance.kernel_model is not a kernel simsched models (expected \"v6.6\" or \"v5.17\")");
		rr->kernel = k;
	}
	if (!get_str(p, "simsched_version", false, &rr->version, w, "provenance.", err) ||
	    !get_file(p, "topology", &rr->topology_file, &rr->topology_sha256, w, err) ||
	    !get_file(p, "workload", &rr->workload_file, &rr->workload_sha256, w, err))
		return false;
	x = cJSON_GetObjectItemCaseSensitive(p, "policy");
	if (!cJSON_IsObject(x))
		return bad(err, w, "provenance.policy is missing");
	if (!get_str(x, "name", false, &rr->policy, w, "provenance.policy.", err))
		return false;
	a = cJSON_GetObjectItemCaseSensitive(x, "plugin");
	if (a && !cJSON_IsNull(a) && !get_file(x, "plugin", &rr->plugin_file, &rr->plugin_sha256, w, err))
		return false;
	if (!a)
		return bad(err, w, "provenance.policy.plugin is missing");
	a = cJSON_GetObjectItemCaseSensitive(p, "set");
	if (!cJSON_IsArray(a))
		return bad(err, w, "provenance.set is not a list");
	rr->sets = g_new0(char *, (gsize)cJSON_GetArraySize(a) + 1);
	{
		unsigned i = 0;
		const cJSON *e;

		cJSON_ArrayForEach(e, a)
			if (!get_str(e, "given", false, &rr->sets[i++], w, "provenance.set[].", err))
				return false;
	}
	x = cJSON_GetObjectItemCaseSensitive(p, "nodes");
	if (!cJSON_IsObject(x))
		return bad(err, w, "provenance.nodes is missing");
	if (!get_str(x, "given", true, &rr->nodes, w, "provenance.nodes.", err) ||
	    !get_str(p, "sched_features", true, &rr->sched_features, w, "provenance.", err))
		return false;
	x = cJSON_GetObjectItemCaseSensitive(p, "params");
	if (x) {
		unsigned n = 0;
		const cJSON *e;

		if (!cJSON_IsObject(x))
			return bad(err, w, "provenance.params is not an object");
		rr->param_keys = g_new0(char *, (gsize)cJSON_GetArraySize(x) + 1);
		rr->param_values = g_new0(double, (gsize)cJSON_GetArraySize(x) + 1);
		cJSON_ArrayForEach(e, x) {
			if (!cJSON_IsNumber(e) || !e->string)
				return bad(err, w, "provenance.params holds a value that is not a number");
			rr->param_keys[n] = g_strdup(e->string);
			rr->param_values[n++] = e->valuedouble;
		}
	}
	x = cJSON_GetObjectItemCaseSensitive(p, "load_pct");
	if (!cJSON_IsNumber(x) || !(x->valuedouble > 0) || x->valuedouble > 10000.0)
		return bad(err, w, "provenance.load_pct is not a load in percent");
	load = (uint64_t)llround(x->valuedouble * 100.0);
	rr->load_pct_x100 = (unsigned)load;
	x = cJSON_GetObjectItemCaseSensitive(p, "warmup_auto");
	if (x) {
		const cJSON *pr = cJSON_GetObjectItemCaseSensitive(p, "precision");
		if (!cJSON_IsBool(x))
			return bad(err, w, "provenance.warmup_auto is not true or false");
		if (!cJSON_IsNumber(pr) || pr->valuedouble < 0 || pr->valuedouble >= 1)
			return bad(err, w, "provenance.precision is not a fraction in [0, 1)");
		rr->warmup_auto = cJSON_IsTrue(x);
		rr->precision = pr->valuedouble;
		if (!get_u64(p, "batch_ns", UINT64_C(1000000) * 1000000000u, &rr->batch_ns, w, err))
			return false;
	}
	return get_u64(p, "seed", SS_SEED_MAX, &rr->seed, w, err) &&
	       get_u64(p, "warmup_ns", UINT64_C(1000000) * 1000000000u, &rr->warmup_ns, w, err) &&
	       get_u64(p, "duration_ns", UINT64_C(1000000) * 1000000000u, &rr->duration_ns, w, err) &&
	       get_u64(p, "sample_interval_ns", UINT64_C(1000000) * 1000000000u, &rr->sample_ns, w, err);
}

/* A sweep record: an object with "key", "grid" and "metrics" (what report reads). */
static bool is_record(const cJSON *o)
{
	return cJSON_IsObject(o) && cJSON_IsString(cJSON_GetObjectItemCaseSensitive(o, "key")) &&
	       cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "grid")) &&
	       cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(o, "metrics"));
}

/* The n-th line (1-based) of a file read whole: a pointer into text and its length, or NULL. */
static const char *nth_line(const char *text, size_t len, unsigned n, size_t *line_len, unsigned *nr_lines)
{
	const char *p = text, *end = text + len, *found = NULL;
	unsigned k = 0;

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *e = nl ? nl : end;

		k++;
		if (k == n) {
			found = p;
			*line_len = (size_t)(e - p);
		}
		p = nl ? nl + 1 : end;
	}
	*nr_lines = k;
	return found;
}

struct ss_rerun *ss_rerun_load(const char *path, unsigned record, GError **err)
{
	struct ss_rerun *rr = g_new0(struct ss_rerun, 1);
	char *text = NULL;
	gsize len = 0;
	GError *e = NULL;
	cJSON *root = NULL;
	bool ok = false;

	rr->where = g_strdup(path);
	/* a sweep's result file may be larger than an input file: read it whole without that limit */
	if (!g_file_get_contents(path, &text, &len, &e)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read (%s)", path, e->message);
		g_error_free(e);
		goto out;
	}
	if (!record) {
		/* the whole file one JSON value (trailing white space only): a second record is not ignored */
		root = cJSON_ParseWithOpts(text, NULL, 1);
		if (cJSON_IsObject(root) && !is_record(root)) {
			rr->is_record = false;   /* a run's JSON */
		} else if (is_record(root)) {
			size_t l = len;
			while (l && (text[l - 1] == '\n' || text[l - 1] == '\r'))
				l--;
			rr->is_record = true;
			rr->line = g_strndup(text, l);
			g_free(rr->where);
			rr->where = g_strdup_printf("%s:1", path);
		} else {
			/* several records (JSON lines): one must be named */
			unsigned nr = 0;
			size_t ll = 0;
			const char *first = nth_line(text, len, 1, &ll, &nr);
			g_autofree char *l1 = first ? g_strndup(first, ll) : NULL;
			cJSON *o1 = l1 ? cJSON_Parse(l1) : NULL;
			bool records = is_record(o1);

			cJSON_Delete(o1);
			cJSON_Delete(root);
			root = NULL;
			if (records)
				g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
					    "%s: not one result but %u lines (a sweep result file? name the record to rerun "
					    "with --record LINE)", path, nr);
			else
				bad(err, path, "not a JSON result");
			goto out;
		}
	} else {
		size_t ll = 0;
		unsigned nr = 0;
		const char *l = nth_line(text, len, record, &ll, &nr);

		if (!l) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--record %u: %s has %u line%s (expected a line number "
				    "1..%u of a sweep result file)", record, path, nr, nr == 1 ? "" : "s", nr);
			goto out;
		}
		g_free(rr->where);
		rr->where = g_strdup_printf("%s:%u", path, record);
		rr->is_record = true;
		rr->line = g_strndup(l, ll);
		root = cJSON_Parse(rr->line);
		if (!is_record(root)) {
			bad(err, rr->where, "not a sweep record (a JSON object with \"key\", \"grid\" and \"metrics\" on one line)");
			goto out;
		}
	}
	ok = from_provenance(rr, root, err);
out:
	cJSON_Delete(root);
	g_free(text);
	if (!ok) {
		ss_rerun_free(rr);
		return NULL;
	}
	return rr;
}

static bool check_one(const char *where, const char *what, const char *file, const char *sha, GError **err)
{
	GError *e = NULL;
	g_autofree char *now = ss_file_sha256(file, &e);

	if (!now) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: the %s %s cannot be read (%s): a rerun needs the files "
			    "of the run where they were (paths relative to the directory it ran in)", where, what, file,
			    e->message);
		g_error_free(e);
		return false;
	}
	if (strcmp(now, sha)) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID, "%s: the %s %s has changed since the run (its SHA-256 is "
			    "%s, the run's was %s): its content is not what the result was made from", where, what, file,
			    now, sha);
		return false;
	}
	return true;
}

bool ss_rerun_check_files(const struct ss_rerun *rr, GError **err)
{
	return check_one(rr->where, "topology", rr->topology_file, rr->topology_sha256, err) &&
	       check_one(rr->where, "workload", rr->workload_file, rr->workload_sha256, err) &&
	       (!rr->plugin_file || check_one(rr->where, "policy plugin", rr->plugin_file, rr->plugin_sha256, err));
}

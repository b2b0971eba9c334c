/*
 * simsched sweep: a grid of runs read from a YAML spec, run on a GLib thread
 * pool and appended as JSON lines by one writer thread; --shard and --resume.
 * The report that merges result files lives in report.c. Format and
 * semantics: docs/sweeps.md.
 */
#include "ss_yaml.h"
#include "simsched/sweep.h"
#include "simsched/error.h"
#include "simsched/sim.h"
#include "ss_input.h"
#include "ss_provenance.h"
#include "ss_sched.h"
#include "ss_sweep.h"
#include "simsched/runlen.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <yaml.h>

#define MAX_POINTS UINT64_C(10000000)
#define MAX_SEED SS_SEED_MAX   /* seeds are JSON numbers in records (simsched/sim.h) */

struct sw_file {
	char *as_written;   /* the spec's string: part of the key */
	char *path;         /* resolved against the spec's directory */
	char *sha256;       /* of the file's bytes (provenance) */
	char *text;         /* a workload's bytes as hashed, for points with workload.* sets (NULL: none) */
	size_t len;
};

struct sw_set {
	char *key;          /* SECTION.KEY */
	char **values;      /* as written */
	unsigned nr_values;
};

struct ss_sweep_spec {
	char *file;
	char *sha256;             /* of the spec's bytes (provenance) */
	struct sw_file *topo_files, *wl_files;
	struct ss_topology **topos;
	struct ss_workload **wls;
	unsigned nr_topos, nr_wls;
	char **policies;          /* per policy column: with several kernels, each policy once per kernel */
	unsigned nr_policies;
	enum ss_kernel *pol_kernel; /* per policy column: the kernel it runs on (`kernel:`, default 6.6) */
	unsigned *loads;
	unsigned nr_loads;
	uint64_t *seeds;
	unsigned nr_seeds;
	struct sw_set *sets;      /* spec order */
	unsigned nr_sets;
	unsigned *set_order;      /* indices of sets sorted by key (for keys) */
	bool wl_sets;             /* some set key is workload.NAME: each point loads its workload */
	uint64_t nr_combos;       /* product of the sets' lengths (1 without sets) */
	char *sched_features, *nodes;
	uint64_t duration_ns, warmup_ns;
	/* run length by statistics (simsched/runlen.h): warmup: auto[:CAP], precision, batch */
	bool warmup_auto;
	double precision;
	uint64_t batch_ns;
	uint64_t nr_points;
};

/* ---------------------------------------------------------------- spec parsing */

struct pctx {
	const char *file;
	yaml_document_t *doc;
	GError **err;
};

static bool fail(struct pctx *c, yaml_mark_t m, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static bool fail(struct pctx *c, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(c->err, SS_ERROR, SS_ERROR_INVALID, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, msg);
	g_free(msg);
	return false;
}

static yaml_node_t *node(struct pctx *c, int i)
{
	return yaml_document_get_node(c->doc, i);
}

static bool want_scalar(struct pctx *c, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n->start_mark, "%s is %s (expected a single value%s)", what, ss_yaml_kind_name(n),
			    !strcmp(what, "sched_features") ? ", the features comma-separated: NO_SIS_UTIL,TTWU_QUEUE" : "");
	if (strlen(ss_yaml_sval(n)) != n->data.scalar.length)
		return fail(c, n->start_mark, "%s contains a NUL character (expected text)", what);
	if (!ss_yaml_sval(n)[0])
		return fail(c, n->start_mark, "%s is empty (expected a value)", what);
	return true;
}

/*
 * A scalar or a list of scalars into items (yaml_node_t *), non-empty,
 * without duplicates (a duplicate would be the same point twice).
 */
static bool scalar_list(struct pctx *c, yaml_node_t *n, const char *what, GPtrArray *items)
{
	if (n->type == YAML_SCALAR_NODE) {
		if (!want_scalar(c, n, what))
			return false;
		g_ptr_array_add(items, n);
		return true;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return fail(c, n->start_mark, "%s is %s (expected a list or a single value)", what, ss_yaml_kind_name(n));
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
		yaml_node_t *v = node(c, *it);
		if (!want_scalar(c, v, what))
			return false;
		for (unsigned i = 0; i < items->len; i++)
			if (!strcmp(ss_yaml_sval(v), ss_yaml_sval((yaml_node_t *)g_ptr_array_index(items, i))))
				return fail(c, v->start_mark, "%s '%.*s' is listed twice (expected each value once)", what,
					    ss_yaml_slen(v), ss_yaml_sval(v));
		g_ptr_array_add(items, v);
	}
	if (!items->len)
		return fail(c, n->start_mark, "%s is an empty list (expected at least one value)", what);
	return true;
}

static bool parse_u64(struct pctx *c, const yaml_node_t *n, const char *what, uint64_t lo, uint64_t hi, uint64_t *out)
{
	guint64 v;
	if (!want_scalar(c, n, what))
		return false;
	if (!g_ascii_string_to_unsigned(ss_yaml_sval(n), 10, lo, hi, &v, NULL))
		return fail(c, n->start_mark, "%s is '%.*s' (expected an integer in %" G_GUINT64_FORMAT "..%" G_GUINT64_FORMAT ")",
			    what, ss_yaml_slen(n), ss_yaml_sval(n), lo, hi);
	*out = v;
	return true;
}

static bool parse_time(struct pctx *c, const yaml_node_t *n, const char *what, bool allow_zero, uint64_t *out)
{
	if (!want_scalar(c, n, what))
		return false;
	size_t len = strlen(ss_yaml_sval(n));
	bool unit = g_ascii_isalpha(ss_yaml_sval(n)[len - 1]);
	if (!(unit || !strcmp(ss_yaml_sval(n), "0")) || !ss_parse_duration(ss_yaml_sval(n), out) ||
	    *out > UINT64_C(1000000) * 1000000000u || (!allow_zero && !*out))
		return fail(c, n->start_mark, "%s is '%.*s' (expected a %stime with a unit, ns, us, ms or s, like 2s or 500ms, at most 10^6 s)",
			    what, ss_yaml_slen(n), ss_yaml_sval(n), allow_zero ? "" : "positive ");
	return true;
}

static bool load_files(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n, bool topo)
{
	const char *what = topo ? "topology" : "workload";
	GPtrArray *items = g_ptr_array_new();
	bool ok = scalar_list(c, n, topo ? "topologies" : "workloads", items);
	g_autofree char *dir = g_path_get_dirname(s->file);
	unsigned cnt = ok ? items->len : 0;
	struct sw_file *files = g_new0(struct sw_file, cnt ? cnt : 1);
	void **objs = g_new0(void *, cnt ? cnt : 1);
	if (topo) {
		s->topo_files = files;
		s->topos = (struct ss_topology **)objs;
	} else {
		s->wl_files = files;
		s->wls = (struct ss_workload **)objs;
	}
	for (unsigned i = 0; ok && i < cnt; i++) {
		yaml_node_t *v = g_ptr_array_index(items, i);
		GError *e = NULL;
		files[i].as_written = g_strdup(ss_yaml_sval(v));
		files[i].path = g_path_is_absolute(ss_yaml_sval(v)) ? g_strdup(ss_yaml_sval(v)) : g_build_filename(dir, ss_yaml_sval(v), NULL);
		if (topo) {
			s->nr_topos = i + 1;
			s->topos[i] = ss_topology_load(files[i].path, &e);
		} else {
			s->nr_wls = i + 1;
			s->wls[i] = ss_workload_load(files[i].path, &e);
		}
		if (!e && !(files[i].sha256 = ss_file_sha256(files[i].path, &e)))
			g_prefix_error(&e, "cannot hash: ");
		if (!e && !topo && ss_read_input_file(files[i].path, "workload", &files[i].text, &files[i].len, &e)) {
			/* the bytes hashed, loaded again with each point's workload.* sets */
			g_autofree char *sum = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)files[i].text,
									   files[i].len);
			if (strcmp(sum, files[i].sha256))
				g_set_error(&e, SS_ERROR, SS_ERROR_IO, "changed while it was read (expected the same bytes twice)");
		}
		if (e) {
			g_set_error(c->err, SS_ERROR, e->code, "%s:%zu:%zu: %s '%s': %s", c->file, v->start_mark.line + 1,
				    v->start_mark.column + 1, what, ss_yaml_sval(v), e->message);
			g_error_free(e);
			ok = false;
		}
	}
	g_ptr_array_free(items, TRUE);
	return ok;
}

static bool parse_policies(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n)
{
	GPtrArray *items = g_ptr_array_new();
	bool ok = scalar_list(c, n, "policy", items);
	if (ok) {
		s->nr_policies = items->len;
		s->policies = g_new0(char *, items->len + 1);
	}
	for (unsigned i = 0; ok && i < items->len; i++) {
		yaml_node_t *v = g_ptr_array_index(items, i);
		if (!ss_policy_find(ss_yaml_sval(v))) {
			GString *names = g_string_new(NULL);
			for (const struct ss_policy *const *pp = ss_policies(); *pp; pp++)
				g_string_append_printf(names, "%s%s", names->len ? ", " : "", (*pp)->name);
			ok = fail(c, v->start_mark, "unknown policy '%.*s' (expected one of: %s; a plugin's policy needs --policy-plugin FILE.so)",
				  ss_yaml_slen(v), ss_yaml_sval(v), names->str);
			g_string_free(names, TRUE);
			break;
		}
		s->policies[i] = g_strdup(ss_yaml_sval(v));
	}
	g_ptr_array_free(items, TRUE);
	return ok;
}

/*
 * kernel: a version or a list of them (default 6.6): a dimension of the
 * grid folded into the policy columns, policy-major (each policy once per
 * kernel). Each policy must run on each kernel (policy × kernel).
 */
static bool parse_kernels(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n)
{
	GPtrArray *items = g_ptr_array_new();
	enum ss_kernel ks[SS_NR_KERNELS] = { SS_KERNEL_6_6 };
	unsigned nk = 1;
	bool ok = true;

	if (n) {
		ok = scalar_list(c, n, "kernel", items);
		nk = 0;
		for (unsigned i = 0; ok && i < items->len; i++) {
			yaml_node_t *v = g_ptr_array_index(items, i);
			GError *e = NULL;
			enum ss_kernel k;
			if (!ss_kernel_parse(ss_yaml_sval(v), &k, &e)) {
				ok = fail(c, v->start_mark, "%s", e->message);
				g_error_free(e);
				break;
			}
			for (unsigned j = 0; j < nk; j++)
				if (ks[j] == k) {
					ok = fail(c, v->start_mark, "kernel %s is listed twice (expected each kernel once)",
						  ss_kernel_name(k));
					break;
				}
			if (ok)
				ks[nk++] = k;
		}
	}
	g_ptr_array_free(items, TRUE);
	if (!ok)
		return false;
	char **pols = s->policies;
	unsigned np = s->nr_policies;
	s->policies = g_new0(char *, np * nk + 1);
	s->pol_kernel = g_new0(enum ss_kernel, np * nk + 1);
	s->nr_policies = np * nk;
	for (unsigned p = 0; p < np; p++)
		for (unsigned k = 0; k < nk; k++) {
			GError *e = NULL;
			const char *base;
			s->policies[p * nk + k] = g_strdup(pols[p]);
			s->pol_kernel[p * nk + k] = ks[k];
			if (ok && !ss_policy_kernel_check(ss_policy_find(pols[p]), ks[k], &base, &e)) {
				ok = fail(c, n->start_mark, "%s", e->message);
				g_error_free(e);
			}
		}
	g_strfreev(pols);
	return ok;
}

static bool parse_loads(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n)
{
	if (n->type == YAML_SCALAR_NODE) {
		GError *e = NULL;
		if (!want_scalar(c, n, "loads"))
			return false;
		s->loads = ss_cmp_parse_loads(ss_yaml_sval(n), &s->nr_loads, &e);
		if (!s->loads) {
			/* the message speaks of --load; say it in the spec's words (a
			 * limit or a duplicate keeps its own explanation) */
			g_autofree char *pfx = g_strdup_printf("--load '%s': ", ss_yaml_sval(n));
			const char *why = g_str_has_prefix(e->message, pfx) ? e->message + strlen(pfx) : e->message;
			if (!g_str_has_prefix(why, "expected")) {
				bool r = fail(c, n->start_mark, "loads '%.*s': %s", ss_yaml_slen(n), ss_yaml_sval(n), why);
				g_error_free(e);
				return r;
			}
			g_error_free(e);
			return fail(c, n->start_mark,
				    "loads '%.*s' is not a load range or list (expected a list like [25%%, 50%%] or a range like 25%%..200%%/25%%, each 0.01%%..10000%%)",
				    ss_yaml_slen(n), ss_yaml_sval(n));
		}
	} else {
		GPtrArray *items = g_ptr_array_new();
		bool ok = scalar_list(c, n, "load", items);
		if (ok) {
			s->loads = g_new0(unsigned, items->len);
			s->nr_loads = items->len;
		}
		for (unsigned i = 0; ok && i < items->len; i++) {
			yaml_node_t *v = g_ptr_array_index(items, i);
			GError *e = NULL;
			if (!ss_parse_load(ss_yaml_sval(v), &s->loads[i], &e)) {
				if (g_str_has_prefix(e->message, "a bare number"))
					ok = fail(c, v->start_mark, "load '%.*s': %s", ss_yaml_slen(v), ss_yaml_sval(v), e->message);
				else
					ok = fail(c, v->start_mark, "load '%.*s' is not a load (expected a percentage like 25%% or a fraction like 0.5, 0.01%%..10000%%)",
						  ss_yaml_slen(v), ss_yaml_sval(v));
				g_error_free(e);
			}
		}
		g_ptr_array_free(items, TRUE);
		if (!ok)
			return false;
	}
	for (unsigned i = 0; i < s->nr_loads; i++)
		for (unsigned j = 0; j < i; j++)
			if (s->loads[i] == s->loads[j])
				return fail(c, n->start_mark, "load %.2f%% is listed twice (expected each load once)",
					    s->loads[i] / 100.0);
	return true;
}

static bool parse_seeds(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n, yaml_node_t *first)
{
	uint64_t f = 1;
	if (first && !parse_u64(c, first, "first_seed", 0, MAX_SEED, &f))
		return false;
	if (n->type == YAML_SCALAR_NODE) {
		uint64_t cnt;
		if (!parse_u64(c, n, "seeds (a count)", 1, 100000, &cnt))
			return false;
		if (f + cnt - 1 > MAX_SEED)
			return fail(c, n->start_mark, "seeds: first_seed + seeds - 1 exceeds 2^53 - 1 (seeds are JSON numbers in the records)");
		s->nr_seeds = (unsigned)cnt;
		s->seeds = g_new0(uint64_t, cnt);
		for (unsigned i = 0; i < cnt; i++)
			s->seeds[i] = f + i;
		return true;
	}
	if (first)
		return fail(c, first->start_mark, "first_seed goes with a seed count (seeds: 3), not with a list of seeds");
	GPtrArray *items = g_ptr_array_new();
	bool ok = scalar_list(c, n, "seed", items);
	if (ok) {
		s->seeds = g_new0(uint64_t, items->len);
		s->nr_seeds = items->len;
	}
	for (unsigned i = 0; ok && i < items->len; i++)
		ok = parse_u64(c, g_ptr_array_index(items, i), "seed", 0, MAX_SEED, &s->seeds[i]);
	for (unsigned i = 0; ok && i < s->nr_seeds; i++)
		for (unsigned j = 0; ok && j < i; j++)
			if (s->seeds[i] == s->seeds[j])
				ok = fail(c, ((yaml_node_t *)g_ptr_array_index(items, i))->start_mark,
					  "seed %" G_GUINT64_FORMAT " is listed twice (expected each seed once)", s->seeds[i]);
	g_ptr_array_free(items, TRUE);
	return ok;
}

static gint cmp_set_key(gconstpointer a, gconstpointer b, gpointer data)
{
	const struct sw_set *sets = data;
	return strcmp(sets[*(const unsigned *)a].key, sets[*(const unsigned *)b].key);
}

/* A workload.NAME set key: NAME is a parameter of every workload of the spec (docs/workloads.md "Parameters"). */
static bool check_wl_param(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *k, const char *name)
{
	for (unsigned w = 0; w < s->nr_wls; w++) {
		GString *names = g_string_new(NULL);
		bool found = false;
		for (unsigned i = 0; i < ss_workload_nr_params(s->wls[w]); i++) {
			const struct ss_wl_param *pm = ss_workload_param(s->wls[w], i);
			found = found || !strcmp(pm->name, name);
			g_string_append_printf(names, "%s%s", names->len ? ", " : "", pm->name);
		}
		if (!found) {
			fail(c, k->start_mark, "set key 'workload.%s': workload %s has no parameter '%s' (expected %s%s)", name,
			     s->wl_files[w].as_written, name, names->len ? "one of: " : "a parameter the file declares; it declares none",
			     names->str);
			g_string_free(names, TRUE);
			return false;
		}
		g_string_free(names, TRUE);
	}
	return true;
}

/* A value of a workload.NAME set: every workload of the spec loads with it (range, and what it feeds). */
static bool check_wl_value(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *x, const char *name, const char *value)
{
	g_autofree char *as = g_strdup_printf("%s=%s", name, value);
	const char *const set[] = { as, NULL };
	for (unsigned w = 0; w < s->nr_wls; w++) {
		GError *e = NULL;
		struct ss_workload *wl = ss_workload_load_string_params(s->wl_files[w].text, s->wl_files[w].len,
									 s->wl_files[w].path, set, &e);
		if (!wl) {
			fail(c, x->start_mark, "set workload.%s for workload %s: %s", as, s->wl_files[w].as_written, e->message);
			g_error_free(e);
			return false;
		}
		ss_workload_free(wl);
	}
	return true;
}

static bool parse_sets(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n)
{
	if (n->type != YAML_MAPPING_NODE)
		return fail(c, n->start_mark, "set is %s (expected a mapping of SECTION.KEY: value or [values])", ss_yaml_kind_name(n));
	unsigned cnt = (unsigned)(n->data.mapping.pairs.top - n->data.mapping.pairs.start);
	s->sets = g_new0(struct sw_set, cnt ? cnt : 1);
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);
		if (!want_scalar(c, k, "a set key"))
			return false;
		if (!strchr(ss_yaml_sval(k), '.') || strchr(ss_yaml_sval(k), '='))
			return fail(c, k->start_mark, "set key '%.*s' is not SECTION.KEY (expected e.g. cost.ipi_ns or policy.tasks)",
				    ss_yaml_slen(k), ss_yaml_sval(k));
		for (unsigned i = 0; i < s->nr_sets; i++)
			if (!strcmp(s->sets[i].key, ss_yaml_sval(k)))
				return fail(c, k->start_mark, "duplicate set key '%.*s' (expected each key once; give its values as a list)",
					    ss_yaml_slen(k), ss_yaml_sval(k));
		struct sw_set *st = &s->sets[s->nr_sets++];
		st->key = g_strdup(ss_yaml_sval(k));
		GPtrArray *items = g_ptr_array_new();
		bool ok = scalar_list(c, v, "a set value", items);
		if (ok) {
			st->nr_values = items->len;
			st->values = g_new0(char *, items->len + 1);
		}
		if (ok && g_str_has_prefix(st->key, "workload.")) {
			s->wl_sets = true;
			ok = check_wl_param(c, s, k, st->key + strlen("workload."));
		}
		for (unsigned i = 0; ok && i < items->len; i++) {
			yaml_node_t *x = g_ptr_array_index(items, i);
			st->values[i] = g_strdup(ss_yaml_sval(x));
			if (g_str_has_prefix(st->key, "workload.")) {
				ok = check_wl_value(c, s, x, st->key + strlen("workload."), st->values[i]);
				continue;
			}
			/* a value every policy of the sweep accepts, or an error here rather than mid-sweep */
			for (unsigned p = 0; ok && p < s->nr_policies; p++) {
				struct ss_params prm;
				GError *e = NULL;
				g_autofree char *as = g_strdup_printf("%s=%s", st->key, st->values[i]);
				ss_params_defaults(&prm, NULL);
				if (!ss_params_set(&prm, s->policies[p], as, &e)) {
					ok = fail(c, x->start_mark, "set %s for policy %s: %s", as, s->policies[p], e->message);
					g_error_free(e);
				}
			}
		}
		g_ptr_array_free(items, TRUE);
		if (!ok)
			return false;
	}
	return true;
}

static bool check_nodes(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *n)
{
	/* firmware node ids, as --nodes and numactl -N: valid on every topology of the spec */
	for (unsigned t = 0; t < s->nr_topos; t++) {
		uint64_t *m = g_new0(uint64_t, ss_cpumask_words(s->topos[t]->nr_nodes));
		GError *e = NULL;
		bool ok = ss_topology_parse_nodes(s->topos[t], s->nodes, m, &e);
		g_free(m);
		if (!ok) {
			fail(c, n->start_mark, "nodes '%.*s' on topology %s: %s", ss_yaml_slen(n), ss_yaml_sval(n),
			     s->topo_files[t].as_written, e->message);
			g_error_free(e);
			return false;
		}
	}
	return true;
}

static bool parse_top(struct pctx *c, struct ss_sweep_spec *s, yaml_node_t *root)
{
	static const char *const keys[] = { "topologies", "workloads", "policies", "loads", "seeds", "first_seed",
					    "duration", "warmup", "set", "sched_features", "nodes", "kernel", "precision",
					    "batch", NULL };
	enum { K_TOPO, K_WL, K_POL, K_LOAD, K_SEEDS, K_FIRST, K_DUR, K_WARM, K_SET, K_FEAT, K_NODES, K_KERNEL, K_PREC,
	       K_BATCH, K_NR };
	yaml_node_t *v[K_NR] = { 0 };

	if (root->type != YAML_MAPPING_NODE)
		return fail(c, root->start_mark, "the spec is %s (expected a mapping with topologies, workloads, policies, loads and seeds)",
			    ss_yaml_kind_name(root));
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
		yaml_node_t *k = node(c, pr->key);
		int i;
		if (k->type != YAML_SCALAR_NODE)
			return fail(c, k->start_mark, "a key of the spec is %s (expected a plain key)", ss_yaml_kind_name(k));
		for (i = 0; keys[i] && strcmp(keys[i], ss_yaml_sval(k)); i++)
			;
		if (!keys[i])
			return fail(c, k->start_mark, "unknown key '%.*s' (expected one of: topologies, workloads, policies, loads, seeds, first_seed, duration, warmup, set, sched_features, nodes, kernel, precision, batch)",
				    ss_yaml_slen(k), ss_yaml_sval(k));
		if (v[i])
			return fail(c, k->start_mark, "duplicate key '%s' (expected each key once)", keys[i]);
		v[i] = node(c, pr->value);
	}
	for (int i = 0; i <= K_SEEDS; i++)
		if (!v[i])
			return fail(c, root->start_mark, "the spec has no '%s' (expected topologies, workloads, policies, loads and seeds)",
				    keys[i]);
	if (!load_files(c, s, v[K_TOPO], true) || !load_files(c, s, v[K_WL], false) || !parse_policies(c, s, v[K_POL]) ||
	    !parse_kernels(c, s, v[K_KERNEL]) || !parse_loads(c, s, v[K_LOAD]) || !parse_seeds(c, s, v[K_SEEDS], v[K_FIRST]))
		return false;
	s->duration_ns = UINT64_C(2000000000);
	s->warmup_ns = UINT64_C(1000000000);
	if (v[K_DUR] && !parse_time(c, v[K_DUR], "duration", false, &s->duration_ns))
		return false;
	if (v[K_PREC]) {
		if (!want_scalar(c, v[K_PREC], "precision"))
			return false;
		if (!ss_parse_precision(ss_yaml_sval(v[K_PREC]), &s->precision))
			return fail(c, v[K_PREC]->start_mark, "precision is '%.*s' (expected a half-width like 1%% or 0.01, above 0 and below 100%%)",
				    ss_yaml_slen(v[K_PREC]), ss_yaml_sval(v[K_PREC]));
		if (!v[K_DUR])
			s->duration_ns = UINT64_C(60000000000);   /* with a precision, duration is the window's cap */
	}
	if (v[K_WARM] && v[K_WARM]->type == YAML_SCALAR_NODE && g_str_has_prefix(ss_yaml_sval(v[K_WARM]), "auto")) {
		if (!ss_parse_warmup(ss_yaml_sval(v[K_WARM]), &s->warmup_auto, &s->warmup_ns))
			return fail(c, v[K_WARM]->start_mark, "warmup is '%.*s' (expected a time with a unit, auto, or auto:CAP like auto:5s)",
				    ss_yaml_slen(v[K_WARM]), ss_yaml_sval(v[K_WARM]));
	} else if (v[K_WARM] && !parse_time(c, v[K_WARM], "warmup", true, &s->warmup_ns)) {
		return false;
	}
	if (v[K_BATCH]) {
		if (!parse_time(c, v[K_BATCH], "batch", false, &s->batch_ns))
			return false;
		if (!s->warmup_auto && !(s->precision > 0))
			return fail(c, v[K_BATCH]->start_mark, "batch goes with warmup: auto or precision (the interval they observe the figure at)");
		if (s->batch_ns < 1000 || s->batch_ns > s->duration_ns)
			return fail(c, v[K_BATCH]->start_mark, "batch is %.*s (expected at least 1us and at most the duration)",
				    ss_yaml_slen(v[K_BATCH]), ss_yaml_sval(v[K_BATCH]));
	}
	if (v[K_SET] && !parse_sets(c, s, v[K_SET]))
		return false;
	if (v[K_FEAT]) {
		GError *e = NULL;
		if (!want_scalar(c, v[K_FEAT], "sched_features"))
			return false;
		/* against the features table of every kernel of the sweep */
		for (unsigned i = 0; i < s->nr_policies; i++) {
			ss_features_t f = ss_features_default_kernel(s->pol_kernel[i]);
			if (!ss_features_parse_kernel(ss_yaml_sval(v[K_FEAT]), &f, s->pol_kernel[i], false, &e)) {
				fail(c, v[K_FEAT]->start_mark, "sched_features: %s", e->message);
				g_error_free(e);
				return false;
			}
		}
		s->sched_features = g_strdup(ss_yaml_sval(v[K_FEAT]));
	}
	if (v[K_NODES]) {
		if (!want_scalar(c, v[K_NODES], "nodes"))
			return false;
		s->nodes = g_strdup(ss_yaml_sval(v[K_NODES]));
		if (!check_nodes(c, s, v[K_NODES]))
			return false;
	}
	s->set_order = g_new0(unsigned, s->nr_sets + 1);
	for (unsigned i = 0; i < s->nr_sets; i++)
		s->set_order[i] = i;
	g_qsort_with_data(s->set_order, (gint)s->nr_sets, sizeof(unsigned), cmp_set_key, s->sets);
	/* grid size, refusing overflow */
	uint64_t dims[] = { s->nr_topos, s->nr_wls, s->nr_policies, s->nr_loads, s->nr_seeds };
	s->nr_combos = 1;
	for (unsigned i = 0; i < s->nr_sets; i++) {
		s->nr_combos *= s->sets[i].nr_values;
		if (s->nr_combos > MAX_POINTS)
			break;
	}
	s->nr_points = s->nr_combos;
	for (unsigned i = 0; i < G_N_ELEMENTS(dims) && s->nr_points <= MAX_POINTS; i++)
		s->nr_points *= dims[i];
	if (s->nr_points > MAX_POINTS)
		return fail(c, root->start_mark, "the grid has more than %" G_GUINT64_FORMAT " points (expected fewer: split the sweep into several specs)",
			    MAX_POINTS);
	return true;
}

struct ss_sweep_spec *ss_sweep_spec_load(const char *path, GError **err)
{
	char *text = NULL;
	size_t len = 0;
	yaml_parser_t ps;
	yaml_document_t doc, extra;
	bool ok = false;

	if (!ss_read_input_file(path, "sweep spec", &text, &len, err))
		return NULL;
	struct ss_sweep_spec *s = g_new0(struct ss_sweep_spec, 1);
	struct pctx c = { .file = path, .doc = &doc, .err = err };
	s->file = g_strdup(path);
	s->sha256 = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
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
		yaml_mark_t m = { 0 };
		fail(&c, m, "no sweep in the file (expected a mapping with topologies, workloads, policies, loads and seeds)");
		goto out_doc;
	}
	if (!yaml_parser_load(&ps, &extra)) {
		ss_yaml_syntax_error(err, path, &ps, text, len);
		goto out_doc;
	}
	if (yaml_document_get_root_node(&extra)) {
		fail(&c, yaml_document_get_root_node(&extra)->start_mark, "a second YAML document (expected one sweep per file)");
		yaml_document_delete(&extra);
		goto out_doc;
	}
	yaml_document_delete(&extra);
	ok = parse_top(&c, s, root);
out_doc:
	yaml_document_delete(&doc);
out_parser:
	yaml_parser_delete(&ps);
out_text:
	g_free(text);
	if (!ok) {
		ss_sweep_spec_free(s);
		return NULL;
	}
	return s;
}

void ss_sweep_spec_free(struct ss_sweep_spec *s)
{
	if (!s)
		return;
	for (unsigned i = 0; i < s->nr_topos; i++) {
		g_free(s->topo_files[i].as_written);
		g_free(s->topo_files[i].path);
		g_free(s->topo_files[i].sha256);
		ss_topology_free(s->topos[i]);
	}
	for (unsigned i = 0; i < s->nr_wls; i++) {
		g_free(s->wl_files[i].as_written);
		g_free(s->wl_files[i].path);
		g_free(s->wl_files[i].sha256);
		g_free(s->wl_files[i].text);
		ss_workload_free(s->wls[i]);
	}
	g_free(s->topo_files);
	g_free(s->wl_files);
	g_free(s->topos);
	g_free(s->wls);
	g_strfreev(s->policies);
	g_free(s->pol_kernel);
	g_free(s->loads);
	g_free(s->seeds);
	for (unsigned i = 0; i < s->nr_sets; i++) {
		g_free(s->sets[i].key);
		g_strfreev(s->sets[i].values);
	}
	g_free(s->sets);
	g_free(s->set_order);
	g_free(s->sched_features);
	g_free(s->nodes);
	g_free(s->file);
	g_free(s->sha256);
	g_free(s);
}

uint64_t ss_sweep_nr_points(const struct ss_sweep_spec *s)
{
	return s->nr_points;
}

/* ---------------------------------------------------------------- points */

/* Canonical grid order: topology, workload, set combination, policy, load, seed (fastest). */
struct point {
	unsigned topo, wl, policy, load, seed;
	uint64_t combo;
};

static struct point point_of(const struct ss_sweep_spec *s, uint64_t idx)
{
	struct point p;
	p.seed = (unsigned)(idx % s->nr_seeds);
	idx /= s->nr_seeds;
	p.load = (unsigned)(idx % s->nr_loads);
	idx /= s->nr_loads;
	p.policy = (unsigned)(idx % s->nr_policies);
	idx /= s->nr_policies;
	p.combo = idx % s->nr_combos;
	idx /= s->nr_combos;
	p.wl = (unsigned)(idx % s->nr_wls);
	p.topo = (unsigned)(idx / s->nr_wls);
	return p;
}

/* Value index of set i in combination combo: the last set varies fastest. */
static unsigned set_value(const struct ss_sweep_spec *s, uint64_t combo, unsigned i)
{
	for (unsigned j = s->nr_sets; j-- > i + 1;)
		combo /= s->sets[j].nr_values;
	return (unsigned)(combo % s->sets[i].nr_values);
}

static void append_esc(GString *k, const char *v)
{
	for (; v && *v; v++) {
		if (*v == '|' || *v == '\\' || *v == ';' || *v == '=')
			g_string_append_c(k, '\\');
		g_string_append_c(k, *v);
	}
}

static void key_part(GString *k, const char *name, const char *v)
{
	if (k->len)
		g_string_append_c(k, '|');
	g_string_append(k, name);
	g_string_append_c(k, '=');
	append_esc(k, v);
}

char *ss_sweep_point_key(const struct ss_sweep_spec *s, uint64_t idx)
{
	struct point p = point_of(s, idx);
	GString *k = g_string_new(NULL);
	char num[64];
	key_part(k, "topology", s->topo_files[p.topo].as_written);
	key_part(k, "workload", s->wl_files[p.wl].as_written);
	key_part(k, "policy", s->policies[p.policy]);
	if (s->pol_kernel[p.policy] != SS_KERNEL_6_6)
		key_part(k, "kernel", ss_kernel_name(s->pol_kernel[p.policy]));
	snprintf(num, sizeof num, "%u", s->loads[p.load]);
	key_part(k, "load_x100", num);
	snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, s->seeds[p.seed]);
	key_part(k, "seed", num);
	snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, s->duration_ns);
	key_part(k, "duration_ns", num);
	snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, s->warmup_ns);
	key_part(k, "warmup_ns", num);
	if (s->warmup_auto || s->precision > 0) {   /* only then: the keys of fixed sweeps are as before */
		key_part(k, "warmup_auto", s->warmup_auto ? "1" : "0");
		snprintf(num, sizeof num, "%.10g", s->precision);   /* every digit parsed (8 significant at most); the same key as %.6g up to 6 */
		key_part(k, "precision", num);
		snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, s->batch_ns);
		key_part(k, "batch_ns", num);
	}
	key_part(k, "sched_features", s->sched_features);
	key_part(k, "nodes", s->nodes);
	key_part(k, "set", NULL);
	for (unsigned j = 0; j < s->nr_sets; j++) {
		unsigned i = s->set_order[j];
		if (j)
			g_string_append_c(k, ';');
		append_esc(k, s->sets[i].key);
		g_string_append_c(k, '=');
		append_esc(k, s->sets[i].values[set_value(s, p.combo, i)]);
	}
	return g_string_free(k, FALSE);
}

bool ss_sweep_parse_shard(const char *text, unsigned *k, unsigned *n, GError **err)
{
	guint64 a, b;
	gchar **parts = g_strsplit(text, "/", -1);
	bool ok = g_strv_length(parts) == 2 && g_ascii_string_to_unsigned(parts[0], 10, 1, 1000000, &a, NULL) &&
		  g_ascii_string_to_unsigned(parts[1], 10, 1, 1000000, &b, NULL) && a <= b;
	g_strfreev(parts);
	if (!ok) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "--shard '%s': expected K/N with 1 <= K <= N <= 1000000, e.g. 1/4", text);
		return false;
	}
	*k = (unsigned)a;
	*n = (unsigned)b;
	return true;
}

/* A record's coordinates: from the spec (a sweep) or from the record being rerun. */
struct rec_in {
	const char *key, *topology, *topology_file, *workload, *workload_file, *policy;
	enum ss_kernel kernel;
	unsigned load_x100;
	uint64_t seed;
	const char *const *set_keys, *const *set_values;   /* spec order */
	unsigned nr_sets;
	uint64_t duration_ns, warmup_ns;
	bool warmup_auto;         /* the spec's warmup: auto (warmup_ns its cap) */
	double precision;         /* the spec's precision (duration_ns its cap), 0 = none */
	const char *sched_features, *nodes;
	uint64_t grid_point, grid_set;
	unsigned grid_topo, grid_wl, grid_policy;
	const cJSON *run_length;  /* a rerun: the record's own run_length, which chose the lengths it reran */
};

/* The record line: coordinates, every metric of compare's table, then the provenance (taken). */
static char *record_line(const struct rec_in *in, const struct ss_results *r, cJSON *prov)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "key", in->key);
	cJSON_AddStringToObject(o, "topology", in->topology ? in->topology : "");
	cJSON_AddStringToObject(o, "topology_file", in->topology_file);
	cJSON_AddStringToObject(o, "workload", in->workload);
	cJSON_AddStringToObject(o, "workload_file", in->workload_file);
	cJSON_AddStringToObject(o, "policy", in->policy);
	cJSON_AddStringToObject(o, "kernel", ss_kernel_name(in->kernel));
	cJSON_AddNumberToObject(o, "load_pct", in->load_x100 / 100.0);
	/* exact, not cJSON's %.15g: seeds go up to 2^53 - 1 (16 digits) */
	char num[24];
	snprintf(num, sizeof num, "%" G_GUINT64_FORMAT, in->seed);
	cJSON_AddRawToObject(o, "seed", num);
	cJSON *set = cJSON_AddObjectToObject(o, "set");
	for (unsigned i = 0; i < in->nr_sets; i++)
		cJSON_AddStringToObject(set, in->set_keys[i], in->set_values[i]);
	cJSON_AddNumberToObject(o, "duration_ns", (double)in->duration_ns);
	cJSON_AddNumberToObject(o, "warmup_ns", (double)in->warmup_ns);
	if (in->warmup_auto || in->precision > 0) {   /* a run length chosen (duration_ns, warmup_ns: the caps) */
		cJSON_AddBoolToObject(o, "warmup_auto", in->warmup_auto);
		cJSON_AddNumberToObject(o, "precision", in->precision);
	}
	if (in->sched_features)
		cJSON_AddStringToObject(o, "sched_features", in->sched_features);
	else
		cJSON_AddNullToObject(o, "sched_features");
	if (in->nodes)
		cJSON_AddStringToObject(o, "nodes", in->nodes);
	else
		cJSON_AddNullToObject(o, "nodes");
	cJSON *g = cJSON_AddObjectToObject(o, "grid");
	cJSON_AddNumberToObject(g, "point", (double)in->grid_point);
	cJSON_AddNumberToObject(g, "topology", in->grid_topo);
	cJSON_AddNumberToObject(g, "workload", in->grid_wl);
	cJSON_AddNumberToObject(g, "set", (double)in->grid_set);
	cJSON_AddNumberToObject(g, "policy", in->grid_policy);
	cJSON_AddStringToObject(o, "simsched_version", SS_VERSION_STRING);
	cJSON_AddNumberToObject(o, "schema_version", SS_RESULTS_SCHEMA_VERSION);
	cJSON *m = cJSON_AddObjectToObject(o, "metrics");
	for (int i = 0; i < SS_CMP_NR_METRICS; i++) {
		const struct ss_cmp_metric_info *mi = ss_cmp_metric_info((enum ss_cmp_metric)i);
		double v = mi->value(r);
		if (isnan(v))   /* no value in this run (docs/output.md): null, never 0 */
			cJSON_AddNullToObject(m, mi->name);
		else
			cJSON_AddNumberToObject(m, mi->name, v);
	}
	cJSON *wm = cJSON_AddObjectToObject(o, "workload_metric");   /* what metrics.workload is */
	cJSON_AddStringToObject(wm, "name", r->metric_name ? r->metric_name : "");
	cJSON_AddStringToObject(wm, "unit", r->metric_unit ? r->metric_unit : "");
	cJSON_AddBoolToObject(wm, "higher_is_better", r->higher_is_better != 0);
	cJSON *cnt = cJSON_AddObjectToObject(o, "counts");
	cJSON_AddNumberToObject(cnt, "transactions", (double)r->transactions);
	cJSON_AddNumberToObject(cnt, "wakeups", (double)r->wakeups);
	cJSON_AddNumberToObject(cnt, "migrations", (double)r->migrations);
	cJSON_AddNumberToObject(cnt, "sis_calls", (double)r->sis_calls);
	cJSON_AddNumberToObject(cnt, "sic_calls", (double)r->sic_calls);
	cJSON_AddNumberToObject(cnt, "sic_probes", (double)r->sic_probes);
	cJSON_AddNumberToObject(cnt, "sic_found", (double)r->sic_found);
	cJSON_AddNumberToObject(cnt, "events", (double)r->events);
	/* a deadlocked run (docs/output.md run.deadlock_at_ns): its figures cover a window where nothing ran */
	if (r->deadlocked)
		cJSON_AddNumberToObject(o, "deadlock_at_ns", (double)r->deadlock_ns);
	else
		cJSON_AddNullToObject(o, "deadlock_at_ns");
	/* a point whose warmup ends before nr_idle_scan was written, or whose run ended before its window */
	if (r->nr_idle_scan_written)
		cJSON_AddNumberToObject(o, "nr_idle_scan_written_ns", (double)r->nr_idle_scan_written_ns);
	else
		cJSON_AddNullToObject(o, "nr_idle_scan_written_ns");
	cJSON_AddNumberToObject(o, "ended_ns", (double)r->ended_ns);
	/* where the measured window began: the warmup, or for a finish-time
	 * metric the first `from: begin` transaction (or t = 0) whatever the warmup */
	cJSON_AddNumberToObject(o, "window_start_ns", (double)r->warmup_ns);
	/*
	 * a chosen run length (warmup: auto, precision:): how it was chosen and
	 * why the window stopped. A record reruns with those lengths as fixed
	 * ones (its provenance), so its rerun carries the record's object over.
	 */
	if (in->run_length)
		cJSON_AddItemToObject(o, "run_length", cJSON_Duplicate(in->run_length, true));
	else if (r->run_length.on)
		cJSON_AddItemToObject(o, "run_length", ss_run_length_json(r));
	cJSON_AddItemToObject(o, "provenance", prov);
	char *txt = cJSON_PrintUnformatted(o);
	cJSON_Delete(o);
	char *line = g_strconcat(txt, "\n", NULL);
	cJSON_free(txt);
	return line;
}

/* The record of a finished point of the spec. */
static char *make_record(const struct ss_sweep_spec *s, uint64_t idx, const struct ss_results *r, cJSON *prov)
{
	struct point p = point_of(s, idx);
	char *key = ss_sweep_point_key(s, idx);
	const char **keys = g_new0(const char *, s->nr_sets + 1), **vals = g_new0(const char *, s->nr_sets + 1);
	for (unsigned i = 0; i < s->nr_sets; i++) {
		keys[i] = s->sets[i].key;
		vals[i] = s->sets[i].values[set_value(s, p.combo, i)];
	}
	struct rec_in in = {
		.key = key, .topology = s->topos[p.topo]->name, .topology_file = s->topo_files[p.topo].as_written,
		.workload = ss_workload_name(s->wls[p.wl]), .workload_file = s->wl_files[p.wl].as_written,
		.policy = s->policies[p.policy], .kernel = s->pol_kernel[p.policy], .load_x100 = s->loads[p.load],
		.seed = s->seeds[p.seed],
		.set_keys = keys, .set_values = vals, .nr_sets = s->nr_sets,
		.duration_ns = s->duration_ns, .warmup_ns = s->warmup_ns,
		.warmup_auto = s->warmup_auto, .precision = s->precision,
		.sched_features = s->sched_features, .nodes = s->nodes,
		.grid_point = idx, .grid_set = p.combo, .grid_topo = p.topo, .grid_wl = p.wl, .grid_policy = p.policy,
	};
	char *line = record_line(&in, r, prov);
	g_free(keys);
	g_free(vals);
	g_free(key);
	return line;
}

/* o.name as a string, or NULL (JSON null or missing) */
static const char *rec_str(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	return cJSON_IsString(v) ? v->valuestring : NULL;
}

static double rec_num(const cJSON *o, const char *name, bool *ok)
{
	const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, name);
	if (!cJSON_IsNumber(v) || !(v->valuedouble >= 0)) {
		*ok = false;
		return 0;
	}
	return v->valuedouble;
}

char *ss_sweep_record_rerun(const char *line, const struct ss_run_config *cfg, const struct ss_results *r,
			    const struct ss_provenance *pv, GError **err)
{
	cJSON *o = cJSON_Parse(line);
	const cJSON *grid = cJSON_GetObjectItemCaseSensitive(o, "grid"), *set = cJSON_GetObjectItemCaseSensitive(o, "set");
	const cJSON *prov = cJSON_GetObjectItemCaseSensitive(o, "provenance");
	const cJSON *spec = cJSON_GetObjectItemCaseSensitive(prov, "spec");
	bool ok = cJSON_IsObject(grid) && cJSON_IsObject(set) && cJSON_IsObject(spec);
	struct rec_in in = { 0 };
	char *out = NULL;
	unsigned n = 0;

	in.key = rec_str(o, "key");
	in.topology_file = rec_str(o, "topology_file");
	in.workload_file = rec_str(o, "workload_file");
	in.policy = rec_str(o, "policy");
	ok = ok && in.key && in.topology_file && in.workload_file && in.policy && rec_str(spec, "file") &&
	     rec_str(spec, "sha256");
	const char **keys = g_new0(const char *, ok ? (gsize)cJSON_GetArraySize(set) + 1 : 1);
	const char **vals = g_new0(const char *, ok ? (gsize)cJSON_GetArraySize(set) + 1 : 1);
	for (const cJSON *v = ok ? set->child : NULL; v; v = v->next, n++) {
		keys[n] = v->string;
		vals[n] = cJSON_IsString(v) ? v->valuestring : NULL;
		ok = ok && vals[n];
	}
	if (ok) {
		in.topology = cfg->topo->name;
		in.workload = ss_workload_name(cfg->wl);
		in.kernel = cfg->kernel;
		in.load_x100 = (unsigned)lround(rec_num(o, "load_pct", &ok) * 100.0);
		in.seed = (uint64_t)rec_num(o, "seed", &ok);
		in.set_keys = keys;
		in.set_values = vals;
		in.nr_sets = n;
		in.duration_ns = (uint64_t)rec_num(o, "duration_ns", &ok);
		in.warmup_ns = (uint64_t)rec_num(o, "warmup_ns", &ok);
		in.warmup_auto = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "warmup_auto"));
		if (cJSON_GetObjectItemCaseSensitive(o, "precision"))
			in.precision = rec_num(o, "precision", &ok);
		in.sched_features = rec_str(o, "sched_features");
		in.nodes = rec_str(o, "nodes");
		in.grid_point = (uint64_t)rec_num(grid, "point", &ok);
		in.grid_topo = (unsigned)rec_num(grid, "topology", &ok);
		in.grid_wl = (unsigned)rec_num(grid, "workload", &ok);
		in.grid_set = (uint64_t)rec_num(grid, "set", &ok);
		in.grid_policy = (unsigned)rec_num(grid, "policy", &ok);
		in.run_length = cJSON_GetObjectItemCaseSensitive(o, "run_length");
		ok = ok && (!in.run_length || cJSON_IsObject(in.run_length));
	}
	if (!ok) {
		g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
			    "not a sweep record with its coordinates and provenance.spec (expected a record as simsched sweep wrote it)");
	} else {
		/* the spec the record came from, as recorded: the rerun takes nothing else from it */
		struct ss_provenance p = *pv;
		p.command = NULL;
		p.spec_file = rec_str(spec, "file");
		p.spec_sha256 = rec_str(spec, "sha256");
		out = record_line(&in, r, ss_provenance_json(&p, cfg));
	}
	g_free(keys);
	g_free(vals);
	cJSON_Delete(o);
	return out;
}

/* ---------------------------------------------------------------- resume */

/*
 * Read the existing file on fd: every complete line must be a record; its
 * keys go to *done. A last line without '\n' is cut off (after the check).
 */
static bool read_existing(int fd, const char *path, GHashTable *done, uint64_t *torn, GError **err)
{
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: not a regular file (expected a sweep result file)", path);
		return false;
	}
	size_t size = (size_t)st.st_size, got = 0;
	char *buf = g_malloc(size + 1);
	while (got < size) {
		ssize_t n = pread(fd, buf + got, size - got, (off_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot read: %s", path, n < 0 ? g_strerror(errno) : "short read");
			g_free(buf);
			return false;
		}
		got += (size_t)n;
	}
	buf[size] = '\0';
	size_t complete = size;
	while (complete && buf[complete - 1] != '\n')
		complete--;
	unsigned line = 0;
	for (size_t off = 0; off < complete;) {
		char *nl = memchr(buf + off, '\n', complete - off);
		*nl = '\0';
		line++;
		char *key = ss_sweep_record_key(buf + off);
		if (!key) {
			g_set_error(err, SS_ERROR, SS_ERROR_INVALID,
				    "%s:%u: not a sweep record (expected one JSON object with \"key\" and \"metrics\" per line; the file is left as it is)",
				    path, line);
			g_free(buf);
			return false;
		}
		g_hash_table_add(done, key);
		off = (size_t)(nl - buf) + 1;
	}
	g_free(buf);
	*torn = size - complete;
	if (complete < size && ftruncate(fd, (off_t)complete) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot cut off the torn last line: %s", path, g_strerror(errno));
		return false;
	}
	return true;
}

/* ---------------------------------------------------------------- running */

struct run_ctx {
	const struct ss_sweep_spec *s;
	const uint32_t *todo;     /* point indices, ascending */
	uint64_t nr_todo;
	gint next;                /* next todo entry to take (atomic) */
	gint stop;                /* set on the first failure (atomic) */
	gint deadlocked;          /* runs that deadlocked (atomic) */
	GAsyncQueue *lines;       /* finished records for the writer; SENTINEL ends */
	GMutex lock;
	uint64_t fail_idx;
	GError *fail_err;         /* the failed run of the lowest point index */
	/* writer */
	int fd;
	const char *path;
	GError *write_err;
	uint64_t written;
	const struct ss_sweep_opts *o;
	/* provenance: per policy of the spec, its plugin file and that file's SHA-256 (NULL: built in) */
	const char **plugin_file;
	char **plugin_sha256;
	/* precision with several policies: todo holds groups (their policy-0 points); skip: 1 + the
	 * indices of members already in the file (--resume), not recorded again */
	bool grouped;
	GHashTable *skip;
	uint64_t nr_records;      /* records this call is to write (progress) */
};

static char SENTINEL[] = "";

static void record_failure(struct run_ctx *x, uint64_t idx, GError *e)
{
	g_mutex_lock(&x->lock);
	if (!x->fail_err || idx < x->fail_idx) {
		g_clear_error(&x->fail_err);
		x->fail_err = e;
		x->fail_idx = idx;
	} else {
		g_error_free(e);
	}
	g_mutex_unlock(&x->lock);
	g_atomic_int_set(&x->stop, 1);
}

static void describe_point(const struct ss_sweep_spec *s, uint64_t idx, GString *d)
{
	struct point p = point_of(s, idx);
	g_string_append_printf(d, "point %" G_GUINT64_FORMAT " (topology %s, workload %s, policy %s, load %.2f%%, seed %" G_GUINT64_FORMAT,
			       idx, s->topo_files[p.topo].as_written, s->wl_files[p.wl].as_written, s->policies[p.policy],
			       s->loads[p.load] / 100.0, s->seeds[p.seed]);
	if (s->pol_kernel[p.policy] != SS_KERNEL_6_6)
		g_string_append_printf(d, ", kernel %s", ss_kernel_name(s->pol_kernel[p.policy]));
	for (unsigned i = 0; i < s->nr_sets; i++)
		g_string_append_printf(d, ", %s=%s", s->sets[i].key, s->sets[i].values[set_value(s, p.combo, i)]);
	g_string_append_c(d, ')');
}

/* One point's run, prepared: its configuration and the --set assignments it records. */
struct prepared {
	struct ss_run_config c;
	GPtrArray *sets;      /* "KEY=VALUE", owned */
	GPtrArray *wl_sets;   /* "NAME=VALUE" of the workload.* sets, borrowed from sets */
	struct ss_workload *wl;   /* the point's workload when it has workload.* sets */
};

static void prepared_free(struct prepared *pp)
{
	if (pp->sets)
		g_ptr_array_free(pp->sets, TRUE);
	if (pp->wl_sets)
		g_ptr_array_free(pp->wl_sets, TRUE);
	ss_workload_free(pp->wl);
	memset(pp, 0, sizeof *pp);
}

static bool prepare_point(struct run_ctx *x, uint64_t idx, struct prepared *pp, GError **e)
{
	const struct ss_sweep_spec *s = x->s;
	struct point p = point_of(s, idx);
	struct ss_run_config *c = &pp->c;

	memset(pp, 0, sizeof *pp);
	c->topo = s->topos[p.topo];
	c->wl = s->wls[p.wl];
	c->policy = s->policies[p.policy];
	c->kernel = s->pol_kernel[p.policy];
	c->sched_features = s->sched_features;
	c->nodes = s->nodes;
	c->load_pct_x100 = s->loads[p.load];
	c->seed = s->seeds[p.seed];
	c->duration_ns = s->duration_ns;
	c->warmup_ns = s->warmup_ns;
	c->warmup_auto = s->warmup_auto;
	c->precision = s->precision;
	c->batch_ns = s->batch_ns;
	ss_params_defaults(&c->params, c->topo);
	pp->sets = g_ptr_array_new_with_free_func(g_free);
	pp->wl_sets = g_ptr_array_new();
	for (unsigned i = 0; i < s->nr_sets; i++) {
		char *as = g_strdup_printf("%s=%s", s->sets[i].key, s->sets[i].values[set_value(s, p.combo, i)]);
		g_ptr_array_add(pp->sets, as);
		if (g_str_has_prefix(as, "workload."))   /* applied as the workload is loaded, as --set workload.NAME */
			g_ptr_array_add(pp->wl_sets, as + strlen("workload."));
		else if (!ss_params_set(&c->params, c->policy, as, e))
			return false;
	}
	if (s->wl_sets) {
		g_ptr_array_add(pp->wl_sets, NULL);
		pp->wl = ss_workload_load_string_params(s->wl_files[p.wl].text, s->wl_files[p.wl].len, s->wl_files[p.wl].path,
							(const char *const *)pp->wl_sets->pdata, e);
		if (!pp->wl)
			return false;
		c->wl = pp->wl;
	}
	return true;
}

/*
 * A point's record to the writer. A run whose length was chosen (warmup:
 * auto, precision) records the lengths it ran as fixed ones in its
 * provenance: its figures are those of that fixed run (runlen.h), so a
 * rerun of the record reproduces it alone, without the runs it was paired with.
 */
static void emit_record(struct run_ctx *x, uint64_t idx, struct prepared *pp, struct ss_results *r)
{
	const struct ss_sweep_spec *s = x->s;
	struct point p = point_of(s, idx);
	struct ss_run_config c = pp->c;

	if (r->deadlocked)
		g_atomic_int_inc(&x->deadlocked);
	if (r->run_length.on) {
		c.warmup_ns = r->warmup_ns;
		c.duration_ns = r->duration_ns;
		c.warmup_auto = false;
		c.precision = 0;
		c.batch_ns = 0;
	}
	/* no command line: a record is the same bytes whichever shard, --jobs or --resume wrote it */
	struct ss_provenance pv = {
		.spec_file = s->file, .spec_sha256 = s->sha256,
		.topology_file = s->topo_files[p.topo].path, .topology_sha256 = s->topo_files[p.topo].sha256,
		.workload_file = s->wl_files[p.wl].path, .workload_sha256 = s->wl_files[p.wl].sha256,
		.plugin_file = x->plugin_file[p.policy], .plugin_sha256 = x->plugin_sha256[p.policy],
		.sets = (const char *const *)pp->sets->pdata, .nr_sets = pp->sets->len,
	};
	g_async_queue_push(x->lines, make_record(s, idx, r, ss_provenance_json(&pv, &c)));
}

static bool run_point(struct run_ctx *x, uint64_t idx)
{
	struct prepared pp;
	struct ss_results *r = NULL;
	GError *e = NULL;

	if (!prepare_point(x, idx, &pp, &e) || !(r = ss_simulate(&pp.c, &e))) {
		record_failure(x, idx, e);
		prepared_free(&pp);
		return false;
	}
	emit_record(x, idx, &pp, r);
	prepared_free(&pp);
	ss_results_free(r);
	return true;
}

/*
 * precision with two policies or more: the points that differ only in their
 * policy run side by side (ss_simulate_paired), the window chosen on every
 * policy's Δ against the first. idx is the group's first point (policy 0);
 * the members already in the file (--resume) run again, unrecorded, since
 * the group's length depends on all of them.
 */
static bool run_group(struct run_ctx *x, uint64_t idx)
{
	const struct ss_sweep_spec *s = x->s;
	unsigned np = s->nr_policies;
	uint64_t stride = (uint64_t)s->nr_seeds * s->nr_loads;   /* between the policies of one group */
	struct prepared *pp = g_new0(struct prepared, np);
	struct ss_run_config *cfgs = g_new0(struct ss_run_config, np);
	struct ss_results **res = g_new0(struct ss_results *, np);
	GError *e = NULL;
	bool ok = true;
	unsigned p;

	for (p = 0; p < np && ok; p++) {
		ok = prepare_point(x, idx + p * stride, &pp[p], &e);
		cfgs[p] = pp[p].c;
	}
	if (ok && !(ok = ss_simulate_paired(cfgs, np, s->precision, res, &e)))
		p = 0;
	if (!ok) {
		record_failure(x, idx + (p ? p - 1 : 0) * stride, e);
	} else {
		for (p = 0; p < np; p++)
			if (!x->skip || !g_hash_table_contains(x->skip, GUINT_TO_POINTER((guint)(idx + p * stride + 1))))
				emit_record(x, idx + p * stride, &pp[p], res[p]);
	}
	for (p = 0; p < np; p++) {
		prepared_free(&pp[p]);
		ss_results_free(res[p]);
	}
	g_free(pp);
	g_free(cfgs);
	g_free(res);
	return ok;
}

/* A pool task: take points until none is left or the sweep stops. */
static void worker(gpointer data, gpointer user)
{
	struct run_ctx *x = user;
	for (;;) {
		if (g_atomic_int_get(&x->stop))
			return;
		gint i = g_atomic_int_add(&x->next, 1);
		if ((uint64_t)i >= x->nr_todo)
			return;
		if (x->grouped)
			run_group(x, x->todo[i]);
		else
			run_point(x, x->todo[i]);
	}
}

static bool write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		buf += n;
		len -= (size_t)n;
	}
	return true;
}

/* The single writer: one record per write(2), made durable before the next. */
static gpointer writer(gpointer data)
{
	struct run_ctx *x = data;
	for (;;) {
		char *line = g_async_queue_pop(x->lines);
		if (line == SENTINEL)
			break;
		if (!x->write_err) {
			if (!write_all(x->fd, line, strlen(line)) || fsync(x->fd) != 0) {
				g_set_error(&x->write_err, SS_ERROR, SS_ERROR_IO, "%s: cannot write a record: %s", x->path,
					    g_strerror(errno));
				g_atomic_int_set(&x->stop, 1);
			} else {
				x->written++;
				if (x->o->progress)
					x->o->progress(x->o->progress_ctx, (unsigned)x->written, (unsigned)x->nr_records);
			}
		}
		g_free(line);
	}
	return NULL;
}

bool ss_sweep_run(const struct ss_sweep_spec *s, const struct ss_sweep_opts *o, struct ss_sweep_stats *st,
		  GError **err)
{
	struct ss_sweep_stats dummy;
	unsigned k = o->shard_n ? o->shard_k : 1, n = o->shard_n ? o->shard_n : 1;
	bool ok = false;

	if (!st)
		st = &dummy;
	memset(st, 0, sizeof *st);
	st->grid = s->nr_points;
	if (k < 1 || k > n) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "shard %u/%u: expected 1 <= K <= N", k, n);
		return false;
	}
	/* created: this call made the file, so a failure with nothing written may remove it */
	bool created = true;
	int fd = open(o->out_path, O_WRONLY | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 && errno == EEXIST && o->resume) {
		created = false;
		fd = open(o->out_path, O_WRONLY | O_APPEND | O_CLOEXEC);
	}
	if (fd < 0) {
		if (errno == EEXIST)
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "%s exists (give --resume to continue that sweep, or another --out file)", o->out_path);
		else
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot open for writing: %s", o->out_path, g_strerror(errno));
		return false;
	}
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "%s: another sweep is writing this file (%s)", o->out_path,
			    g_strerror(errno));
		close(fd);
		return false;
	}
	GHashTable *done = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);   /* lookups only */
	GArray *todo = g_array_new(FALSE, FALSE, sizeof(uint32_t));
	struct run_ctx x = { .s = s, .fd = fd, .path = o->out_path, .o = o };

	/* each plugin policy's file, hashed once (the plugin is loaded: its file is there) */
	x.plugin_file = g_new0(const char *, s->nr_policies);
	x.plugin_sha256 = g_new0(char *, s->nr_policies + 1);
	for (unsigned i = 0; i < s->nr_policies; i++) {
		if (!(x.plugin_file[i] = ss_policy_plugin_file(s->policies[i])))
			continue;
		if (!(x.plugin_sha256[i] = ss_file_sha256(x.plugin_file[i], err))) {
			g_prefix_error(err, "policy %s: ", s->policies[i]);
			goto out;
		}
	}

	if (o->resume) {
		/* read with a second descriptor: fd is write-only (O_APPEND) */
		int rfd = open(o->out_path, O_RDWR | O_CLOEXEC);
		bool rok = rfd >= 0 && read_existing(rfd, o->out_path, done, &st->torn_bytes, err);
		if (rfd < 0)
			g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: cannot open for reading: %s", o->out_path, g_strerror(errno));
		if (rfd >= 0)
			close(rfd);
		if (!rok)
			goto out;
	}
	x.grouped = s->precision > 0 && s->nr_policies > 1;
	if (!x.grouped) {
		for (uint64_t i = (uint64_t)(k - 1); i < s->nr_points; i += n) {
			st->shard++;
			if (g_hash_table_size(done)) {
				char *key = ss_sweep_point_key(s, i);
				bool found = g_hash_table_contains(done, key);
				g_free(key);
				if (found) {
					st->done_before++;
					continue;
				}
			}
			uint32_t v = (uint32_t)i;
			g_array_append_val(todo, v);
		}
	} else {
		/* groups: the points of policy 0 (point_of: the policy between the combination and the load);
		 * sharded by group, so a group's members stay together */
		uint64_t stride = (uint64_t)s->nr_seeds * s->nr_loads, g = 0;
		x.skip = g_hash_table_new(g_direct_hash, g_direct_equal);
		for (uint64_t i = 0; i < s->nr_points; i++) {
			if ((i / stride) % s->nr_policies)
				continue;
			if (g++ % n != (uint64_t)(k - 1))
				continue;
			unsigned missing = 0;
			for (unsigned p = 0; p < s->nr_policies; p++) {
				uint64_t m = i + p * stride;
				st->shard++;
				if (g_hash_table_size(done)) {
					char *key = ss_sweep_point_key(s, m);
					bool found = g_hash_table_contains(done, key);
					g_free(key);
					if (found) {
						st->done_before++;
						g_hash_table_add(x.skip, GUINT_TO_POINTER((guint)(m + 1)));
						continue;
					}
				}
				missing++;
			}
			if (missing) {
				uint32_t v = (uint32_t)i;
				g_array_append_val(todo, v);
				x.nr_records += missing;
			}
		}
	}
	st->foreign = g_hash_table_size(done) - st->done_before;
	x.todo = (const uint32_t *)(void *)todo->data;
	x.nr_todo = todo->len;
	if (!x.grouped)
		x.nr_records = x.nr_todo;
	x.lines = g_async_queue_new();
	g_mutex_init(&x.lock);
	GThread *wt = g_thread_new("sweep-writer", writer, &x);
	unsigned jobs = o->jobs ? o->jobs : g_get_num_processors();
	if (jobs > x.nr_todo)
		jobs = x.nr_todo ? (unsigned)x.nr_todo : 1;
	GError *perr = NULL;
	GThreadPool *pool = g_thread_pool_new(worker, &x, (gint)jobs, TRUE, &perr);
	if (pool) {
		for (unsigned j = 0; j < jobs; j++)
			g_thread_pool_push(pool, GUINT_TO_POINTER(j + 1), NULL);
		g_thread_pool_free(pool, FALSE, TRUE);   /* wait for the points in flight */
	}
	g_async_queue_push(x.lines, SENTINEL);
	g_thread_join(wt);
	g_async_queue_unref(x.lines);
	g_mutex_clear(&x.lock);
	st->ran = x.written;
	st->deadlocked = (uint64_t)g_atomic_int_get(&x.deadlocked);
	if (!pool) {
		g_propagate_error(err, perr);
	} else if (x.write_err) {
		g_propagate_error(err, x.write_err);
		g_clear_error(&x.fail_err);
	} else if (x.fail_err) {
		GString *d = g_string_new(NULL);
		describe_point(s, x.fail_idx, d);
		g_propagate_prefixed_error(err, x.fail_err, "%s failed: ", d->str);
		g_string_free(d, TRUE);
		st->failed = true;
		st->failed_point = x.fail_idx;
	} else {
		ok = true;
	}
	/*
	 * A failed sweep keeps exactly the finished points (docs/sweeps.md), so
	 * --resume continues; if it finished none in a file it created, there is
	 * nothing to keep: remove the file rather than leave an empty result.
	 * Still under the lock, so no other sweep is writing it.
	 */
out:
	if (!ok && created && !x.written && unlink(o->out_path) == 0)
		st->out_removed = true;
	g_array_free(todo, TRUE);
	g_hash_table_destroy(done);
	if (x.skip)
		g_hash_table_destroy(x.skip);
	for (unsigned i = 0; i < s->nr_policies; i++)
		g_free(x.plugin_sha256[i]);
	g_free(x.plugin_sha256);
	g_free(x.plugin_file);
	close(fd);
	return ok;
}

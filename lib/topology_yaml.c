/*
 * Topology YAML (docs/topologies.md) → struct ss_topology → ss_topology_build().
 *
 * The document is read with libyaml's document API; every node keeps its
 * start mark, so each error names file:line:col (1-based) of the offending
 * key or value: "file:line:col: what is wrong (what was expected)".
 */
#include "ss_yaml.h"
#include "simsched/topology.h"
#include "simsched/error.h"
#include "ss_input.h"

#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

enum {
	LV_PACKAGE,
	LV_NODE,
	LV_DIE,
	LV_LLC,
	LV_CLUSTER,
	LV_CORE,
	NR_LV,
};

static const char *const lv_name[NR_LV] = { "package", "node", "die", "llc", "cluster", "core" };
static const char *const lv_a[NR_LV] = { "a package", "a node", "a die", "an llc", "a cluster", "a core" };
static const char *const lv_key[NR_LV] = { "packages", "nodes", "dies", "llcs", "clusters", "cores" };

#define MAX_REPEAT	SS_MAX_CPUS
#define MAX_COST_NS	10000000u
#define MAX_MHZ		100000u

struct ycpu {
	unsigned cpu;
	unsigned id[NR_LV];
	unsigned capacity;
};

/* A node's firmware id ('id' key), by node index in file order. */
struct ynodeid {
	unsigned id;
	bool given;
	yaml_mark_t mark;		/* of the 'id' value */
};

struct yctx {
	const char *file;
	yaml_document_t *doc;
	GError **err;
	bool failed;
	GArray *cpus;			/* struct ycpu, in document order */
	yaml_mark_t *first_mark;	/* SS_MAX_CPUS entries: where each CPU was listed */
	bool *seen;
	unsigned next_id[NR_LV];
	unsigned max_cpu;
	uint64_t *scratch;		/* SS_MAX_CPUS bits */
	GArray *node_ids;		/* struct ynodeid, by node index (entries of nodes without 'id' are zero) */
	unsigned in_repeat;		/* enclosing entries with repeat > 1 */
};

static void yerr(struct yctx *c, yaml_mark_t m, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static void yerr(struct yctx *c, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	if (c->failed)
		return;
	c->failed = true;
	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(c->err, SS_ERROR, SS_ERROR_INVALID, "%s:%zu:%zu: %s", c->file, m.line + 1, m.column + 1, msg);
	g_free(msg);
}

static yaml_node_t *ynode(struct yctx *c, int id)
{
	return yaml_document_get_node(c->doc, id);
}

static const char *sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

static bool is_plain(const yaml_node_t *n)
{
	return n->type == YAML_SCALAR_NODE && n->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

static bool is_null(const yaml_node_t *n)
{
	const char *v;

	if (!is_plain(n))
		return false;
	v = sval(n);
	return !*v || !strcmp(v, "~") || !strcmp(v, "null") || !strcmp(v, "Null") || !strcmp(v, "NULL");
}

/* A plain scalar that reads as a (decimal) integer; sets *v. */
static bool plain_int(const yaml_node_t *n, long long *v)
{
	const char *s;
	char *end;

	if (!is_plain(n))
		return false;
	s = sval(n);
	if (!*s || strlen(s) > 20)
		return false;
	for (const char *p = (*s == '-' || *s == '+') ? s + 1 : s; ; p++) {
		if (!*p)
			break;
		if (*p < '0' || *p > '9')
			return false;
	}
	if ((*s == '-' || *s == '+') && !s[1])
		return false;
	errno = 0;
	*v = strtoll(s, &end, 10);
	return !errno && !*end;
}

/* "a mapping", "the integer 3", "the string 'x'" ... for messages */
static char *what_is(const yaml_node_t *n)
{
	long long v;

	switch (n->type) {
	case YAML_MAPPING_NODE:
		return g_strdup("a mapping");
	case YAML_SEQUENCE_NODE:
		return g_strdup("a list");
	case YAML_SCALAR_NODE:
		if (is_null(n))
			return g_strdup("an empty value");
		if (plain_int(n, &v))
			return g_strdup_printf("the integer %lld", v);
		if (is_plain(n) && (!g_ascii_strcasecmp(sval(n), "true") || !g_ascii_strcasecmp(sval(n), "false")))
			return g_strdup_printf("the boolean %s", sval(n));
		if (n->data.scalar.length > 40)
			return g_strdup_printf("the string '%.37s...'", sval(n));
		return g_strdup_printf("the string '%s'", sval(n));
	default:
		return g_strdup("nothing");
	}
}

static void type_err(struct yctx *c, const yaml_node_t *n, const char *key, const char *want)
{
	char *got = what_is(n);

	yerr(c, n->start_mark, "%s is %s (expected %s)", key, got, want);
	g_free(got);
}

static bool get_uint(struct yctx *c, const yaml_node_t *n, const char *key, unsigned min, unsigned max,
		     unsigned *out)
{
	long long v;

	if (!plain_int(n, &v)) {
		char *got = what_is(n);

		yerr(c, n->start_mark, "%s is %s (expected an integer in %u..%u)", key, got, min, max);
		g_free(got);
		return false;
	}
	if (v < (long long)min || v > (long long)max) {
		yerr(c, n->start_mark, "%s %lld is out of range (expected %u..%u)", key, v, min, max);
		return false;
	}
	*out = (unsigned)v;
	return true;
}

static char *get_string(struct yctx *c, const yaml_node_t *n, const char *key)
{
	if (n->type != YAML_SCALAR_NODE || is_null(n)) {
		type_err(c, n, key, "a non-empty string");
		return NULL;
	}
	if (strlen(sval(n)) != n->data.scalar.length) {
		yerr(c, n->start_mark, "%s contains a NUL character (expected text)", key);
		return NULL;
	}
	return g_strndup(sval(n), n->data.scalar.length);
}

/*
 * Check a mapping's keys: scalars, no duplicates, all in valid[]. extra_hint
 * (may be NULL) explains a key that is known elsewhere.
 */
static bool check_keys(struct yctx *c, const yaml_node_t *map, const char *where, const char *const *valid,
		       unsigned nvalid, int level)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = ynode(c, p->key);
		bool ok = false;

		if (k->type != YAML_SCALAR_NODE || is_null(k)) {
			char *got = what_is(k);

			yerr(c, k->start_mark, "a key in %s is %s (expected a name such as '%s')", where, got, valid[0]);
			g_free(got);
			return false;
		}
		for (unsigned i = 0; i < nvalid; i++)
			if (!strcmp(sval(k), valid[i]))
				ok = true;
		if (!ok) {
			GString *list = g_string_new(NULL);
			int known = -1;

			for (unsigned i = 0; i < nvalid; i++)   /* "a, b or c", as the workload loader lists keys */
				g_string_append_printf(list, "%s%s", !i ? "" : i + 1 < nvalid ? ", " : " or ", valid[i]);
			for (int l = 0; l < NR_LV; l++)
				if (!strcmp(sval(k), lv_key[l]))
					known = l;
			if (known >= 0 && level >= 0)
				yerr(c, k->start_mark,
				     "%s cannot be inside %s: levels nest packages > nodes > dies > llcs > clusters > cores "
				     "(expected one of: %s)", sval(k), lv_a[level], list->str);
			else
				yerr(c, k->start_mark, "unknown key '%s' in %s (expected one of: %s)", sval(k), where, list->str);
			g_string_free(list, TRUE);
			return false;
		}
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *k2 = ynode(c, q->key);

			if (k2->type == YAML_SCALAR_NODE && !strcmp(sval(k2), sval(k))) {
				yerr(c, k->start_mark, "duplicate key '%s' in %s (first given at %zu:%zu; expected each key once)", sval(k), where,
				     k2->start_mark.line + 1, k2->start_mark.column + 1);
				return false;
			}
		}
	}
	return true;
}

/* Value of key in a (checked) mapping; *key_node gets the key if non-NULL. */
static yaml_node_t *get_key(struct yctx *c, const yaml_node_t *map, const char *key, yaml_node_t **key_node)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top; p++) {
		yaml_node_t *k = ynode(c, p->key);

		if (k->type == YAML_SCALAR_NODE && !strcmp(sval(k), key)) {
			if (key_node)
				*key_node = k;
			return ynode(c, p->value);
		}
	}
	return NULL;
}

/* ------------------------------------------------------------------------ */
/* CPU lists: an integer, a list of integers, or a cpulist string "0-3,8"   */

/*
 * A cpulist string that names a CPU twice ("0-3,3", "1-2,2-3"): kernel
 * cpulist_parse() would take the union, but a topology file lists each CPU
 * once (docs/topologies.md "Errors"). The string has already parsed as a
 * cpulist; the error points at the range that repeats the CPU.
 */
static bool cpulist_once(struct yctx *c, const yaml_node_t *n, const char *key, size_t quote)
{
	const char *s = sval(n), *p = s;
	uint64_t *seen = g_new0(uint64_t, ss_cpumask_words(SS_MAX_CPUS));
	size_t *at = g_new(size_t, SS_MAX_CPUS);
	bool ok = true;

	while (*p && ok) {
		char *end;

		while (*p == ' ' || *p == ',')
			p++;
		if (!*p)
			break;
		size_t off = (size_t)(p - s);
		unsigned long a = strtoul(p, &end, 10), b = a;

		p = end;
		if (*p == '-')
			b = strtoul(p + 1, &end, 10), p = end;
		for (unsigned long cpu = a; cpu <= b && cpu < SS_MAX_CPUS; cpu++) {
			if (ss_cpumask_test(seen, (unsigned)cpu)) {
				yaml_mark_t m = n->start_mark, f = n->start_mark;

				m.column += quote + off;
				f.column += quote + at[cpu];
				yerr(c, m, "CPU %lu is listed twice in the cpulist '%s' of %s (first at %zu:%zu; expected each "
				     "CPU once)", cpu, s, key, f.line + 1, f.column + 1);
				ok = false;
				break;
			}
			ss_cpumask_set(seen, (unsigned)cpu);
			at[cpu] = off;
		}
	}
	g_free(seen);
	g_free(at);
	return ok;
}

/*
 * Collect the CPU numbers of n into out (ascending for cpulists, document
 * order for lists) with the mark of each. shift is added to every number.
 */
static bool cpu_numbers(struct yctx *c, const yaml_node_t *n, const char *key, unsigned shift, GArray *out,
			GArray *marks)
{
	long long v;

	if (plain_int(n, &v)) {
		if (v < 0 || v + shift >= SS_MAX_CPUS) {
			yerr(c, n->start_mark, "CPU %lld%s is out of range (expected CPU numbers 0..%u, SS_MAX_CPUS = %u)",
			     v + (v >= 0 ? shift : 0), shift && v >= 0 ? " (after 'repeat' shifts)" : "",
			     SS_MAX_CPUS - 1, SS_MAX_CPUS);
			return false;
		}
		unsigned u = (unsigned)v + shift;
		g_array_append_val(out, u);
		g_array_append_val(marks, n->start_mark);
		return true;
	}
	if (n->type == YAML_SCALAR_NODE && !is_null(n)) {
		unsigned bad = 0;
		size_t quote = n->data.scalar.style == YAML_SINGLE_QUOTED_SCALAR_STYLE ||
			       n->data.scalar.style == YAML_DOUBLE_QUOTED_SCALAR_STYLE;

		if (ss_cpumask_parse_list(sval(n), c->scratch, SS_MAX_CPUS, &bad)) {
			yaml_mark_t m = n->start_mark;

			m.column += quote + bad;
			yerr(c, m, "%s has a bad cpulist '%s' at character %u (expected CPU numbers 0..%u "
			     "as a kernel cpulist such as \"0-3,8\", an integer or a list of integers)",
			     key, sval(n), bad + 1, SS_MAX_CPUS - 1);
			return false;
		}
		if (!cpulist_once(c, n, key, quote))
			return false;
		for (unsigned cpu = ss_cpumask_first(c->scratch, SS_MAX_CPUS); cpu < SS_MAX_CPUS;
		     cpu = ss_cpumask_next(c->scratch, SS_MAX_CPUS, cpu + 1)) {
			unsigned u = cpu + shift;

			if (u >= SS_MAX_CPUS) {
				yerr(c, n->start_mark, "CPU %u (after 'repeat' shifts) is out of range (expected CPU "
				     "numbers 0..%u, SS_MAX_CPUS = %u)", u, SS_MAX_CPUS - 1, SS_MAX_CPUS);
				return false;
			}
			g_array_append_val(out, u);
			g_array_append_val(marks, n->start_mark);
		}
		return true;
	}
	if (n->type == YAML_SEQUENCE_NODE) {
		if (n->data.sequence.items.start == n->data.sequence.items.top) {
			yerr(c, n->start_mark, "%s is an empty list (expected at least one CPU number)", key);
			return false;
		}
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++) {
			yaml_node_t *e = ynode(c, *it);

			if (!plain_int(e, &v)) {
				char *got = what_is(e);

				yerr(c, e->start_mark, "an entry of %s is %s (expected a CPU number 0..%u)", key, got,
				     SS_MAX_CPUS - 1);
				g_free(got);
				return false;
			}
			if (!cpu_numbers(c, e, key, shift, out, marks))
				return false;
		}
		return true;
	}
	type_err(c, n, key, "CPU numbers (an integer, a list of integers or a cpulist string such as \"0-3\")");
	return false;
}

static bool add_cpu(struct yctx *c, unsigned cpu, yaml_mark_t m, const unsigned id[NR_LV], unsigned capacity,
		    unsigned shift)
{
	struct ycpu y;

	if (c->seen[cpu]) {
		if (shift)
			yerr(c, m, "CPU %u (shifted by %u by 'repeat') is listed twice (first at %zu:%zu; expected each "
			     "CPU in exactly one core)", cpu, shift, c->first_mark[cpu].line + 1,
			     c->first_mark[cpu].column + 1);
		else
			yerr(c, m, "CPU %u is listed twice (first at %zu:%zu; expected each CPU in exactly one core)",
			     cpu, c->first_mark[cpu].line + 1, c->first_mark[cpu].column + 1);
		return false;
	}
	c->seen[cpu] = true;
	c->first_mark[cpu] = m;
	y.cpu = cpu;
	memcpy(y.id, id, sizeof(y.id));
	y.capacity = capacity;
	g_array_append_val(c->cpus, y);
	if (cpu > c->max_cpu || c->cpus->len == 1)
		c->max_cpu = cpu;
	return true;
}

/* ------------------------------------------------------------------------ */
/* The hierarchy                                                            */

static bool parse_item(struct yctx *c, const yaml_node_t *n, int lv, const unsigned ids[NR_LV], bool cluster_implied,
		       unsigned capacity, unsigned shift);

/* One core's threads (n: an integer, a list or a cpulist). */
static bool add_core(struct yctx *c, const yaml_node_t *n, const char *key, unsigned id[NR_LV],
		     bool cluster_implied, unsigned capacity, unsigned shift)
{
	GArray *nums = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *marks = g_array_new(FALSE, FALSE, sizeof(yaml_mark_t));
	bool ok = cpu_numbers(c, n, key, shift, nums, marks);

	if (cluster_implied)
		id[LV_CLUSTER] = c->next_id[LV_CLUSTER]++;	/* no cluster given: the core is its own */
	id[LV_CORE] = c->next_id[LV_CORE]++;
	for (unsigned i = 0; ok && i < nums->len; i++)
		ok = add_cpu(c, g_array_index(nums, unsigned, i), g_array_index(marks, yaml_mark_t, i), id, capacity,
			     shift);
	g_array_free(nums, TRUE);
	g_array_free(marks, TRUE);
	return ok;
}

/*
 * The children of a mapping at level lv (-1: the machine): exactly one of
 * the list keys of the levels below; skipped levels are implied (one per
 * parent, except the cluster: one per core).
 */
static bool parse_children(struct yctx *c, const yaml_node_t *map, int lv, const unsigned ids[NR_LV],
			   bool cluster_implied, unsigned capacity, unsigned shift)
{
	yaml_node_t *val = NULL, *k;
	unsigned id[NR_LV];
	int cl = -1;

	for (int l = lv + 1; l < NR_LV; l++) {
		yaml_node_t *v = get_key(c, map, lv_key[l], &k);

		if (!v)
			continue;
		if (val) {
			yerr(c, k->start_mark, "both '%s' and '%s' given in %s (expected exactly one list of the "
			     "level below)", lv_key[cl], lv_key[l], lv < 0 ? "the machine" : lv_a[lv]);
			return false;
		}
		val = v;
		cl = l;
	}
	if (!val) {
		GString *list = g_string_new(NULL);

		for (int l = lv + 1; l < NR_LV; l++)
			g_string_append_printf(list, "%s'%s'", l == lv + 1 ? "" : l == NR_LV - 1 ? " or " : ", ",
					       lv_key[l]);
		yerr(c, map->start_mark, "%s lists no CPUs (expected %s)", lv < 0 ? "the machine" : lv_a[lv], list->str);
		g_string_free(list, TRUE);
		return false;
	}
	memcpy(id, ids, sizeof(id));
	for (int l = lv + 1; l < cl; l++) {
		if (l == LV_CLUSTER)
			cluster_implied = true;
		else
			id[l] = c->next_id[l]++;
	}
	if (cl == LV_CORE && val->type == YAML_SCALAR_NODE && !is_null(val)) {
		/* cores: "0-31" (or a single CPU number) — one single-thread core per CPU */
		GArray *nums = g_array_new(FALSE, FALSE, sizeof(unsigned));
		GArray *marks = g_array_new(FALSE, FALSE, sizeof(yaml_mark_t));
		bool ok = cpu_numbers(c, val, "cores", shift, nums, marks);

		for (unsigned i = 0; ok && i < nums->len; i++) {
			if (cluster_implied)
				id[LV_CLUSTER] = c->next_id[LV_CLUSTER]++;
			id[LV_CORE] = c->next_id[LV_CORE]++;
			ok = add_cpu(c, g_array_index(nums, unsigned, i), g_array_index(marks, yaml_mark_t, i), id,
				     capacity, shift);
		}
		g_array_free(nums, TRUE);
		g_array_free(marks, TRUE);
		return ok;
	}
	if (val->type != YAML_SEQUENCE_NODE) {
		type_err(c, val, lv_key[cl], cl == LV_CORE ? "a list of cores or a cpulist string such as \"0-3\""
							  : "a list");
		return false;
	}
	if (val->data.sequence.items.start == val->data.sequence.items.top) {
		yerr(c, val->start_mark, "%s is an empty list (expected at least one %s)", lv_key[cl], lv_name[cl]);
		return false;
	}
	for (yaml_node_item_t *it = val->data.sequence.items.start; it < val->data.sequence.items.top; it++)
		if (!parse_item(c, ynode(c, *it), cl, id, cluster_implied, capacity, shift))
			return false;
	return true;
}

/* Compare the CPUs added since start with a level's declared 'cpus'. */
static bool check_declared(struct yctx *c, const yaml_node_t *decl, int lv, unsigned start, unsigned shift)
{
	GArray *nums = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *marks = g_array_new(FALSE, FALSE, sizeof(yaml_mark_t));
	uint64_t *want, *have, *diff;
	unsigned nw = ss_cpumask_words(SS_MAX_CPUS);
	bool ok;

	ok = cpu_numbers(c, decl, "cpus", shift, nums, marks);
	if (!ok)
		goto out;
	want = g_new0(uint64_t, nw);
	have = g_new0(uint64_t, nw);
	diff = g_new0(uint64_t, nw);
	for (unsigned i = 0; i < nums->len; i++)
		ss_cpumask_set(want, g_array_index(nums, unsigned, i));
	for (unsigned i = start; i < c->cpus->len; i++)
		ss_cpumask_set(have, g_array_index(c->cpus, struct ycpu, i).cpu);
	if (!ss_cpumask_equal(want, have, nw)) {
		unsigned len = SS_MAX_CPUS * 6;
		char *a = g_malloc(len), *b = g_malloc(len), *d = g_malloc(len);

		ss_cpumask_format_list(have, SS_MAX_CPUS, a, len);
		ss_cpumask_format_list(want, SS_MAX_CPUS, b, len);
		if (ss_cpumask_andnot(diff, have, want, nw)) {
			ss_cpumask_format_list(diff, SS_MAX_CPUS, d, len);
			yerr(c, decl->start_mark, "the CPUs listed inside this %s (%s) are not all in its 'cpus' %s: "
			     "%s lie outside it (expected the levels below to nest inside it)", lv_name[lv], a, b, d);
		} else {
			ss_cpumask_andnot(diff, want, have, nw);
			ss_cpumask_format_list(diff, SS_MAX_CPUS, d, len);
			yerr(c, decl->start_mark, "this %s declares 'cpus' %s but the levels inside it list only %s "
			     "(missing: %s)", lv_name[lv], b, a, d);
		}
		g_free(a);
		g_free(b);
		g_free(d);
		ok = false;
	}
	g_free(want);
	g_free(have);
	g_free(diff);
out:
	g_array_free(nums, TRUE);
	g_array_free(marks, TRUE);
	return ok;
}

static bool parse_item(struct yctx *c, const yaml_node_t *n, int lv, const unsigned ids[NR_LV], bool cluster_implied,
		       unsigned capacity, unsigned shift)
{
	const char *valid[NR_LV + 5];
	unsigned nvalid = 0, repeat = 1, step = 0, node_id = 0;
	bool step_given = false, id_given = false;
	yaml_mark_t id_mark = { 0, 0, 0 };
	yaml_node_t *v, *decl = NULL;
	unsigned id[NR_LV];

	memcpy(id, ids, sizeof(id));
	if (lv == LV_CORE && n->type != YAML_MAPPING_NODE) {
		/* 5, [3, 43] or "3,43" */
		if (is_null(n) || n->type == YAML_MAPPING_NODE) {
			type_err(c, n, "cores", "a core: a CPU number, a list of thread CPU numbers or a mapping with 'cpus'");
			return false;
		}
		return add_core(c, n, "cores", id, cluster_implied, capacity, shift);
	}
	if (n->type != YAML_MAPPING_NODE) {
		char *got = what_is(n);

		yerr(c, n->start_mark, "an entry of %s is %s (expected a mapping describing %s)", lv_key[lv], got,
		     lv_a[lv]);
		g_free(got);
		return false;
	}
	for (int l = lv + 1; l < NR_LV; l++)
		valid[nvalid++] = lv_key[l];
	valid[nvalid++] = "cpus";
	valid[nvalid++] = "capacity";
	valid[nvalid++] = "repeat";
	valid[nvalid++] = "step";
	if (lv == LV_NODE)
		valid[nvalid++] = "id";
	if (!check_keys(c, n, lv_a[lv], valid, nvalid, lv))
		return false;
	if ((v = get_key(c, n, "capacity", NULL)) && !get_uint(c, v, "capacity", 1, 1024, &capacity))
		return false;
	if ((v = get_key(c, n, "repeat", NULL)) && !get_uint(c, v, "repeat", 1, MAX_REPEAT, &repeat))
		return false;
	if ((v = get_key(c, n, "step", NULL))) {
		if (!get_uint(c, v, "step", 0, SS_MAX_CPUS, &step))
			return false;
		step_given = true;
	}
	if (lv == LV_NODE && (v = get_key(c, n, "id", NULL))) {
		/* the firmware's node number (nodeK in sysfs, numactl -N K) */
		if (!get_uint(c, v, "id", 0, SS_MAX_NODE_ID, &node_id))
			return false;
		if (repeat > 1 || c->in_repeat) {
			yerr(c, v->start_mark, "id %u in a repeated node: every copy would have it (expected the nodes "
			     "written out, each with its own id, or no ids)", node_id);
			return false;
		}
		id_given = true;
		id_mark = v->start_mark;
	}
	decl = get_key(c, n, "cpus", NULL);
	if (lv == LV_CORE && !decl) {
		yerr(c, n->start_mark, "a core has no 'cpus' (expected its thread CPU numbers, e.g. cpus: [3, 43])");
		return false;
	}
	if (repeat > 1)
		c->in_repeat++;
	for (unsigned r = 0; r < repeat; r++) {
		unsigned start = c->cpus->len, copy_shift = shift + r * step;

		if (lv == LV_CORE) {
			if (!add_core(c, decl, "cpus", id, cluster_implied, capacity, copy_shift))
				return false;
		} else {
			id[lv] = c->next_id[lv]++;
			if (lv == LV_NODE && id_given) {
				struct ynodeid y = { node_id, true, id_mark };

				if (c->node_ids->len <= id[lv])
					g_array_set_size(c->node_ids, id[lv] + 1);
				g_array_index(c->node_ids, struct ynodeid, id[lv]) = y;
			}
			if (!parse_children(c, n, lv, id, cluster_implied, capacity, copy_shift))
				return false;
			if (decl && !check_declared(c, decl, lv, start, copy_shift))
				return false;
		}
		if (r == 0 && !step_given)
			step = c->cpus->len - start;
	}
	if (repeat > 1)
		c->in_repeat--;
	return true;
}

/* ------------------------------------------------------------------------ */
/* Machine-level keys                                                       */

static const char *const vendors[] = { "intel", "amd", "hygon", "zhaoxin", "arm", "riscv", "loongarch", "generic" };

static bool parse_vendor(struct yctx *c, const yaml_node_t *n, char **out)
{
	char *v = get_string(c, n, "vendor");

	if (!v)
		return false;
	for (unsigned i = 0; i < G_N_ELEMENTS(vendors); i++) {
		if (!strcmp(v, vendors[i])) {
			*out = v;
			return true;
		}
	}
	yerr(c, n->start_mark, "unknown vendor '%s' (expected one of intel, amd, hygon, zhaoxin (x86 topology "
	     "table), arm, riscv, loongarch, generic (the kernel's default table))", v);
	g_free(v);
	return false;
}

static bool parse_frequency(struct yctx *c, const yaml_node_t *n, struct ss_topology *t)
{
	static const char *const keys[] = { "base_mhz", "max_mhz" };
	unsigned base, max;
	yaml_node_t *v;

	if (n->type != YAML_MAPPING_NODE) {
		type_err(c, n, "frequency", "a mapping {base_mhz, max_mhz}");
		return false;
	}
	if (!check_keys(c, n, "frequency", keys, 2, -1))
		return false;
	v = get_key(c, n, "base_mhz", NULL);
	if (!v) {
		yerr(c, n->start_mark, "frequency has no 'base_mhz' (expected the base clock in MHz)");
		return false;
	}
	if (!get_uint(c, v, "base_mhz", 1, MAX_MHZ, &base))
		return false;
	max = base;
	v = get_key(c, n, "max_mhz", NULL);
	if (v) {
		if (!get_uint(c, v, "max_mhz", 1, MAX_MHZ, &max))
			return false;
		if (max < base) {
			yerr(c, v->start_mark, "max_mhz %u is below base_mhz %u (expected max_mhz >= base_mhz)", max, base);
			return false;
		}
	}
	t->base_freq_khz = (uint64_t)base * 1000;
	t->max_freq_khz = (uint64_t)max * 1000;
	return true;
}

static bool parse_costs(struct yctx *c, const yaml_node_t *n, struct ss_topology *t)
{
	static const char *const keys[] = { "probe_smt_ns", "probe_cluster_ns", "probe_llc_ns", "probe_package_ns",
					     "probe_remote_ns", "line_cached_ns", "smt_contention_pct", "node_bandwidth_mbps",
					     "tick_ns", "kthread_rate_hz", "kthread_ns" };
	static const unsigned max[] = { MAX_COST_NS, MAX_COST_NS, MAX_COST_NS, MAX_COST_NS, MAX_COST_NS, MAX_COST_NS,
					1000, 100000000, 1000000, 100000, 100000000 };
	unsigned *dst[] = { &t->probe_smt_ns, &t->probe_cluster_ns, &t->probe_llc_ns, &t->probe_package_ns,
			    &t->probe_remote_ns, &t->line_cached_ns, &t->smt_contention_pct, &t->node_bandwidth_mbps,
			    &t->tick_ns, &t->kthread_rate_hz, &t->kthread_ns };

	if (n->type != YAML_MAPPING_NODE) {
		type_err(c, n, "costs", "a mapping {probe_smt_ns, probe_cluster_ns, probe_llc_ns, probe_package_ns, probe_remote_ns, "
					"line_cached_ns, smt_contention_pct, node_bandwidth_mbps, tick_ns, kthread_rate_hz, kthread_ns}");
		return false;
	}
	if (!check_keys(c, n, "costs", keys, G_N_ELEMENTS(keys), -1))
		return false;
	for (unsigned i = 0; i < G_N_ELEMENTS(keys); i++) {
		yaml_node_t *v = get_key(c, n, keys[i], NULL);

		if (v && !get_uint(c, v, keys[i], 0, max[i], dst[i]))
			return false;
	}
	return true;
}

/*
 * idle_states: [{name: C1, exit_latency_us: 2, target_residency_us: 2}, ...] —
 * the cpuidle table, shallowest first, as drivers/idle/intel_idle.c lists it
 * (POLL, when given, has polling: true and zero latency).
 */
static bool parse_idle_states(struct yctx *c, const yaml_node_t *n, struct ss_topology *t)
{
	static const char *const keys[] = { "name", "exit_latency_us", "target_residency_us", "polling" };
	unsigned i = 0;

	if (n->type != YAML_SEQUENCE_NODE || n->data.sequence.items.top == n->data.sequence.items.start) {
		type_err(c, n, "idle_states", "a non-empty list of {name, exit_latency_us, target_residency_us[, polling]}");
		return false;
	}
	if (n->data.sequence.items.top - n->data.sequence.items.start > SS_MAX_IDLE_STATES) {
		yerr(c, n->start_mark, "%d idle states (expected at most %d)",
		     (int)(n->data.sequence.items.top - n->data.sequence.items.start), SS_MAX_IDLE_STATES);
		return false;
	}
	for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++, i++) {
		yaml_node_t *m = ynode(c, *it), *v;
		struct ss_idle_state *st = &t->idle_state[i];
		unsigned lat, res;
		char *name;

		if (m->type != YAML_MAPPING_NODE) {
			type_err(c, m, "an idle state", "a mapping {name, exit_latency_us, target_residency_us[, polling]}");
			return false;
		}
		if (!check_keys(c, m, "an idle state", keys, G_N_ELEMENTS(keys), -1))
			return false;
		for (unsigned k = 0; k < 3; k++) {
			if (!get_key(c, m, keys[k], NULL)) {
				yerr(c, m->start_mark, "the idle state has no '%s' (expected name, exit_latency_us, target_residency_us)",
				     keys[k]);
				return false;
			}
		}
		if (!(name = get_string(c, get_key(c, m, "name", NULL), "name")))
			return false;
		if (!*name || strlen(name) >= sizeof st->name) {
			yerr(c, get_key(c, m, "name", NULL)->start_mark, "idle state name '%s' is empty or too long (expected 1 to %zu characters)", name,
			     sizeof st->name - 1);
			g_free(name);
			return false;
		}
		memcpy(st->name, name, strlen(name) + 1);
		g_free(name);
		if (!get_uint(c, get_key(c, m, "exit_latency_us", NULL), "exit_latency_us", 0, 1000000, &lat) ||
		    !get_uint(c, get_key(c, m, "target_residency_us", NULL), "target_residency_us", 0, 10000000, &res))
			return false;
		st->exit_latency_ns = lat * 1000u;
		st->target_residency_ns = res * 1000u;
		if ((v = get_key(c, m, "polling", NULL))) {
			char *b = get_string(c, v, "polling");
			if (!b)
				return false;
			if (strcmp(b, "true") && strcmp(b, "false")) {
				yerr(c, v->start_mark, "polling is '%s' (expected true or false)", b);
				g_free(b);
				return false;
			}
			st->polling = !strcmp(b, "true");
			g_free(b);
		}
		if (i && (st->target_residency_ns < t->idle_state[i - 1].target_residency_ns)) {
			yerr(c, m->start_mark, "idle state %s has a shorter target residency than %s before it (expected the table shallowest first)",
			     st->name, t->idle_state[i - 1].name);
			return false;
		}
	}
	t->nr_idle_states = i;
	return true;
}

/* numa: {distance: [[10, 21], [21, 10]]} — the SLIT, rows in node order; row r = from node r */
static bool parse_numa(struct yctx *c, const yaml_node_t *n, struct ss_topology *t)
{
	static const char *const keys[] = { "distance" };
	unsigned nn = t->nr_nodes, r = 0;
	yaml_node_t *m;
	bool ok = true;

	if (n->type != YAML_MAPPING_NODE) {
		type_err(c, n, "numa", "a mapping {distance: [[...], ...]}");
		return false;
	}
	if (!check_keys(c, n, "numa", keys, 1, -1))
		return false;
	m = get_key(c, n, "distance", NULL);
	if (!m) {
		yerr(c, n->start_mark, "numa has no 'distance' (expected the %ux%u node distance matrix)", nn, nn);
		return false;
	}
	if (m->type != YAML_SEQUENCE_NODE) {
		type_err(c, m, "distance", "a list of rows (a square matrix)");
		return false;
	}
	if ((unsigned)(m->data.sequence.items.top - m->data.sequence.items.start) != nn) {
		yerr(c, m->start_mark, "the distance matrix has %u rows but the machine has %u node%s (expected a "
		     "%ux%u matrix, one row per node)", (unsigned)(m->data.sequence.items.top - m->data.sequence.items.start),
		     nn, nn == 1 ? "" : "s", nn, nn);
		return false;
	}
	for (yaml_node_item_t *it = m->data.sequence.items.start; ok && it < m->data.sequence.items.top; it++, r++) {
		yaml_node_t *row = ynode(c, *it);
		unsigned col = 0;

		if (row->type != YAML_SEQUENCE_NODE) {
			char *got = what_is(row);

			yerr(c, row->start_mark, "row %u of the distance matrix is %s (expected a list of %u distances)",
			     r, got, nn);
			g_free(got);
			ok = false;
			break;
		}
		if ((unsigned)(row->data.sequence.items.top - row->data.sequence.items.start) != nn) {
			unsigned got = (unsigned)(row->data.sequence.items.top - row->data.sequence.items.start);

			yerr(c, row->start_mark, "row %u of the distance matrix has %u entr%s (expected %u, one per node)",
			     r, got, got == 1 ? "y" : "ies", nn);
			ok = false;
			break;
		}
		for (yaml_node_item_t *e = row->data.sequence.items.start; e < row->data.sequence.items.top; e++, col++) {
			yaml_node_t *cell = ynode(c, *e);
			char key[48];
			unsigned d;

			g_snprintf(key, sizeof(key), "distance[%u][%u]", r, col);
			if (!get_uint(c, cell, key, 0, 1000000, &d)) {
				ok = false;
				break;
			}
			if (r == col && d != 10) {
				yerr(c, cell->start_mark, "distance[%u][%u] is %u (expected 10: a node's distance to "
				     "itself is LOCAL_DISTANCE)", r, col, d);
				ok = false;
				break;
			}
			if (r != col && (d <= 10 || d >= 255)) {
				yerr(c, cell->start_mark, "distance[%u][%u] is %u (expected 11..254: the ACPI SLIT "
				     "puts remote nodes above 10 and 255 means unreachable)", r, col, d);
				ok = false;
				break;
			}
			t->distance[r * nn + col] = d;
		}
	}
	/*
	 * An asymmetric matrix is the kernel's too: row r is node_distance(r, k),
	 * the row sched_init_numa() builds node r's spans from
	 * (ss_topology_build() records the warning).
	 */
	return ok;
}

static int cmp_ycpu(const void *a, const void *b)
{
	const struct ycpu *x = a, *y = b;

	return (x->cpu > y->cpu) - (x->cpu < y->cpu);
}

static const char *const machine_keys[] = {
	"name", "vendor", "description", "node_reclaim_distance", "frequency", "costs", "idle_states", "numa", "capacity",
	"offline", "packages", "nodes", "dies", "llcs", "clusters", "cores",
};

/*
 * The 'offline' key: CPUs that keep their numbers but are not online (v6.6:
 * out of cpu_active_mask, in no sibling mask, no sched domain). They may
 * also appear in the hierarchy (where they would sit); either way they get
 * no place in the machine. Sets off (SS_MAX_CPUS bits) and *max_off (-1 if
 * none).
 */
static bool parse_offline(struct yctx *c, const yaml_node_t *n, uint64_t *off, int *max_off)
{
	GArray *nums = g_array_new(FALSE, FALSE, sizeof(unsigned));
	GArray *marks = g_array_new(FALSE, FALSE, sizeof(yaml_mark_t));
	bool ok = cpu_numbers(c, n, "offline", 0, nums, marks);

	for (unsigned i = 0; ok && i < nums->len; i++) {
		unsigned cpu = g_array_index(nums, unsigned, i);

		if (ss_cpumask_test(off, cpu)) {
			yerr(c, g_array_index(marks, yaml_mark_t, i), "CPU %u is listed twice in 'offline' (expected "
			     "each offline CPU once)", cpu);
			ok = false;
			break;
		}
		ss_cpumask_set(off, cpu);
		if ((int)cpu > *max_off)
			*max_off = (int)cpu;
	}
	g_array_free(nums, TRUE);
	g_array_free(marks, TRUE);
	return ok;
}

/*
 * Ids of the online CPUs, dense in order of first appearance once the
 * offline CPUs are taken out (an offline CPU's ids are 0). Fails when a
 * node is left without online CPUs.
 */
static bool compact_ids(struct yctx *c, const uint64_t *off, yaml_mark_t where, unsigned nr_id[NR_LV])
{
	bool ok = true;

	for (int lv = 0; lv < NR_LV && ok; lv++) {
		unsigned *map = g_new(unsigned, c->next_id[lv] ? c->next_id[lv] : 1);

		nr_id[lv] = 0;
		for (unsigned i = 0; i < c->next_id[lv]; i++)
			map[i] = UINT_MAX;
		for (unsigned i = 0; i < c->cpus->len; i++) {
			const struct ycpu *y = &g_array_index(c->cpus, struct ycpu, i);

			if (!ss_cpumask_test(off, y->cpu) && map[y->id[lv]] == UINT_MAX)
				map[y->id[lv]] = nr_id[lv]++;
		}
		if (lv == LV_NODE) {
			for (unsigned i = 0; i < c->next_id[lv]; i++) {
				if (map[i] == UINT_MAX) {
					yerr(c, where, "node %u (in file order) has no online CPU (expected every node "
					     "of the file to keep one: v6.6 builds no NUMA level for a node without "
					     "CPUs, so leave the node and its SLIT row out)", i);
					ok = false;
					break;
				}
			}
		}
		for (unsigned i = 0; ok && i < c->cpus->len; i++) {
			struct ycpu *y = &g_array_index(c->cpus, struct ycpu, i);

			y->id[lv] = ss_cpumask_test(off, y->cpu) ? 0 : map[y->id[lv]];
		}
		g_free(map);
	}
	return ok;
}

/*
 * The firmware id of every node: its 'id', else its index in file order (so
 * a file without ids keeps its meaning). Ids must be distinct.
 */
static bool node_ids(struct yctx *c, struct ss_topology *t)
{
	for (unsigned n = 0; n < t->nr_nodes; n++) {
		const struct ynodeid *y = n < c->node_ids->len ? &g_array_index(c->node_ids, struct ynodeid, n) : NULL;

		t->node_id[n] = y && y->given ? y->id : n;
		for (unsigned m = 0; m < n; m++) {
			const struct ynodeid *x = m < c->node_ids->len ? &g_array_index(c->node_ids, struct ynodeid, m) : NULL;

			if (t->node_id[m] != t->node_id[n])
				continue;
			if (y && y->given && x && x->given)
				yerr(c, y->mark, "node id %u is given twice, here and at %zu:%zu (expected each node's "
				     "firmware id once)", t->node_id[n], x->mark.line + 1, x->mark.column + 1);
			else
				yerr(c, y && y->given ? y->mark : x->mark, "node id %u is also the id of node %u in file "
				     "order, which has no 'id' (a node without 'id' takes its place in file order: "
				     "expected an id on every node or on none)", t->node_id[n], y && y->given ? m : n);
			return false;
		}
	}
	return true;
}

static struct ss_topology *parse_machine(struct yctx *c, const yaml_node_t *root)
{
	struct ss_topology *t = NULL;
	char *name = NULL, *vendor = NULL, *description = NULL;
	unsigned capacity = 1024, reclaim = 0, ids[NR_LV] = { 0 }, nr_id[NR_LV], nr_cpus, nr_online = 0;
	bool reclaim_given = false;
	yaml_node_t *v, *hier_key = NULL, *off_key = NULL, *off_val;
	GError *berr = NULL;
	uint64_t *off = NULL;
	int max_off = -1;

	if (root->type != YAML_MAPPING_NODE) {
		char *got = what_is(root);

		yerr(c, root->start_mark, "the document is %s (expected a mapping with the machine's name, vendor, "
		     "numa and packages)", got);
		g_free(got);
		return NULL;
	}
	if (!check_keys(c, root, "the machine", machine_keys, G_N_ELEMENTS(machine_keys), -1))
		return NULL;
	v = get_key(c, root, "name", NULL);
	if (!v) {
		yerr(c, root->start_mark, "the machine has no 'name' (expected name: <machine name>)");
		return NULL;
	}
	if (!(name = get_string(c, v, "name")))
		goto fail;
	if (!*name) {
		yerr(c, v->start_mark, "name is empty (expected a machine name, e.g. name: \"xeon-2s\")");
		goto fail;
	}
	v = get_key(c, root, "vendor", NULL);
	if (!v) {
		yerr(c, root->start_mark, "the machine has no 'vendor' (expected vendor: intel, amd, arm, ...)");
		goto fail;
	}
	if (!parse_vendor(c, v, &vendor))
		goto fail;
	if ((v = get_key(c, root, "description", NULL)) && !(description = get_string(c, v, "description")))
		goto fail;
	if ((v = get_key(c, root, "node_reclaim_distance", NULL))) {
		if (!get_uint(c, v, "node_reclaim_distance", 10, 255, &reclaim))
			goto fail;
		reclaim_given = true;
	}
	if ((v = get_key(c, root, "capacity", NULL)) && !get_uint(c, v, "capacity", 1, 1024, &capacity))
		goto fail;

	/* the hierarchy: first, so that the node count is known for 'numa' */
	for (int l = 0; l < NR_LV && !hier_key; l++)
		get_key(c, root, lv_key[l], &hier_key);
	if (!parse_children(c, root, -1, ids, false, capacity, 0))
		goto fail;
	off = g_new0(uint64_t, ss_cpumask_words(SS_MAX_CPUS));
	if ((off_val = get_key(c, root, "offline", &off_key)) && !parse_offline(c, off_val, off, &max_off))
		goto fail;
	nr_cpus = MAX(c->max_cpu + 1, (unsigned)(max_off + 1));
	for (unsigned i = 0; i < nr_cpus; i++) {
		if (!c->seen[i] && !ss_cpumask_test(off, i)) {
			if (max_off >= 0 && c->cpus->len && i > c->max_cpu)
				/* the gap lies between the hierarchy's highest CPU and an offline one */
				yerr(c, off_val->start_mark, "'offline' names CPU %d, beyond the machine's CPUs 0..%u (expected "
				     "offline CPUs above the highest listed one to follow it without gaps: CPU %u is "
				     "neither listed nor offline)", max_off, c->max_cpu, i);
			else if (max_off >= 0)
				yerr(c, hier_key->start_mark, "CPU %u is neither listed nor offline (expected CPUs "
				     "numbered 0..%u, each in the hierarchy or in 'offline')", i, nr_cpus - 1);
			else
				yerr(c, hier_key->start_mark, "CPU %u is not listed (expected CPUs numbered 0..N-1 "
				     "without gaps: %u CPUs are listed, the highest is %u); a CPU that is not online "
				     "goes in 'offline'", i, c->cpus->len, c->max_cpu);
			goto fail;
		}
		if (c->seen[i] && !ss_cpumask_test(off, i))
			nr_online++;
	}
	if (!nr_online) {
		yerr(c, off_key->start_mark, "every CPU is offline (expected at least one online CPU)");
		goto fail;
	}
	for (int l = 0; l < NR_LV; l++)
		nr_id[l] = c->next_id[l];
	if (max_off >= 0 && !compact_ids(c, off, off_key->start_mark, nr_id))
		goto fail;
	g_array_sort(c->cpus, cmp_ycpu);
	t = ss_topology_new(nr_cpus, nr_id[LV_NODE]);
	if (!t) {
		yerr(c, hier_key->start_mark, "%u CPUs in %u nodes (expected 1..%u CPUs)", nr_cpus,
		     nr_id[LV_NODE], SS_MAX_CPUS);
		goto fail;
	}
	for (unsigned i = 0; i < nr_cpus; i++)
		t->cpu[i].offline = ss_cpumask_test(off, i);
	for (unsigned i = 0; i < c->cpus->len; i++) {
		const struct ycpu *y = &g_array_index(c->cpus, struct ycpu, i);
		struct ss_cpu_topo *ct = &t->cpu[y->cpu];

		if (ct->offline)
			continue;

		ct->package = y->id[LV_PACKAGE];
		ct->node = y->id[LV_NODE];
		ct->die = y->id[LV_DIE];
		ct->llc = y->id[LV_LLC];
		ct->cluster = y->id[LV_CLUSTER];
		ct->core = y->id[LV_CORE];
		ct->capacity = y->capacity;
	}
	if (!node_ids(c, t))
		goto fail;
	t->name = name;
	t->vendor = vendor;
	t->description = description;
	name = vendor = description = NULL;
	t->file = g_strdup(c->file);
	/* RECLAIM_DISTANCE, or 32 as init_amd_zn() sets on AMD Zen */
	t->node_reclaim_distance = reclaim_given ? reclaim : !strcmp(t->vendor, "amd") ? 32 : 30;
	if ((v = get_key(c, root, "frequency", NULL)) && !parse_frequency(c, v, t))
		goto fail;
	if ((v = get_key(c, root, "costs", NULL)) && !parse_costs(c, v, t))
		goto fail;
	if ((v = get_key(c, root, "idle_states", NULL)) && !parse_idle_states(c, v, t))
		goto fail;
	if ((v = get_key(c, root, "numa", NULL)) && !parse_numa(c, v, t))
		goto fail;
	if (ss_topology_build(t, &berr)) {
		/* cannot happen for a file that passed the checks above; report it anyway */
		yerr(c, hier_key->start_mark, "%s", berr->message);
		g_error_free(berr);
		goto fail;
	}
	g_free(off);
	return t;
fail:
	g_free(off);
	g_free(name);
	g_free(vendor);
	g_free(description);
	ss_topology_free(t);
	return NULL;
}

struct ss_topology *ss_topology_load_string(const char *yaml, size_t len, const char *name, GError **err)
{
	yaml_parser_t parser;
	yaml_document_t doc, doc2;
	struct yctx c = { 0 };
	struct ss_topology *t = NULL;
	yaml_node_t *root;

	if (!name)
		name = "<string>";
	if (!yaml) {
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "%s: no YAML text given", name);
		return NULL;
	}
	if (!yaml_parser_initialize(&parser)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: out of memory starting the YAML parser", name);
		return NULL;
	}
	yaml_parser_set_input_string(&parser, (const unsigned char *)yaml, len);
	if (!ss_yaml_check_depth(err, name, yaml, len)) {
		yaml_parser_delete(&parser);
		return NULL;
	}
	if (!yaml_parser_load(&parser, &doc)) {
		ss_yaml_syntax_error(err, name, &parser, yaml, len);
		yaml_parser_delete(&parser);
		return NULL;
	}
	c.file = name;
	c.doc = &doc;
	c.err = err;
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		yaml_mark_t m = { 0, 0, 0 };

		yerr(&c, m, "the file holds no YAML document (expected a machine: name, vendor, numa, packages)");
		goto out;
	}
	if (yaml_parser_load(&parser, &doc2)) {
		bool more = yaml_document_get_root_node(&doc2) != NULL;
		yaml_mark_t m = doc2.start_mark;

		yaml_document_delete(&doc2);
		if (more) {
			yerr(&c, m, "a second YAML document (expected one machine per file)");
			goto out;
		}
	} else {
		ss_yaml_syntax_error(err, name, &parser, yaml, len);
		c.failed = true;
		goto out;
	}
	c.cpus = g_array_new(FALSE, FALSE, sizeof(struct ycpu));
	c.first_mark = g_new0(yaml_mark_t, SS_MAX_CPUS);
	c.seen = g_new0(bool, SS_MAX_CPUS);
	c.scratch = g_new0(uint64_t, ss_cpumask_words(SS_MAX_CPUS));
	c.node_ids = g_array_new(FALSE, TRUE, sizeof(struct ynodeid));
	t = parse_machine(&c, root);
	g_array_free(c.node_ids, TRUE);
	g_array_free(c.cpus, TRUE);
	g_free(c.first_mark);
	g_free(c.seen);
	g_free(c.scratch);
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&parser);
	return t;
}

struct ss_topology *ss_topology_load(const char *path, GError **err)
{
	char *buf = NULL;
	size_t len = 0;
	struct ss_topology *t;
	char *found = ss_data_find("topologies", path);   /* a shipped machine's name (simsched/data.h) */

	if (found)
		path = found;
	if (!ss_read_input_file(path, "topology", &buf, &len, err)) {
		g_free(found);
		return NULL;
	}
	t = ss_topology_load_string(buf, len, path, err);
	g_free(buf);
	g_free(found);
	return t;
}

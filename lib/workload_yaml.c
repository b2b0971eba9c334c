/*
 * workload_yaml.c — load a workload file (YAML, libyaml document API) and
 * compile each role's program to the instruction array of workload_priv.h.
 *
 * Every error names the file, line and column (1-based) of the offending
 * node: "file:line:col: what is wrong (what was expected)". The format is
 * documented in docs/workloads.md; keep the two in step.
 */
#include "ss_yaml.h"
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "simsched/cpumask.h"
#include "simsched/error.h"
#include "simsched/rtapp.h"
#include "ss_input.h"
#include "simsched/workload.h"
#include "workload_priv.h"

#define MAX_ROLES 4096u
#define MAX_TOTAL_INSN (1u << 20)   /* all roles together: bounds what aliases can expand to */
#define MAX_NAME_LEN 64u

/* A name resolved once all roles are known: a wake/send/spawn target role or a sync object. */
enum fixup_kind { FX_WAKE, FX_SEND, FX_SPAWN, FX_LOCK, FX_UNLOCK, FX_BARRIER };
struct wake_fixup {
	uint32_t role, pc;
	uint8_t kind;         /* enum fixup_kind */
	const char *name;     /* inside the YAML document */
	yaml_mark_t mark;
	yaml_mark_t index_mark;  /* WAKE/SEND with an index: where it is */
};

struct ctx {
	const char *file;
	yaml_document_t *doc;
	GError **err;
	struct ss_workload *w;
	GHashTable *role_index;   /* role name -> index + 1 (lookups only, never iterated) */
	GArray *fixups;           /* struct wake_fixup */
	bool *waits;              /* per role: has a wait ... */
	yaml_mark_t *wait_mark;   /* ... the first one is here */
	bool *recvs;              /* per role: has a recv ... */
	yaml_mark_t *recv_mark;   /* ... the first one is here */
	yaml_mark_t *role_mark;   /* per role: its mapping */
	yaml_mark_t *channel_mark;
	const yaml_node_t *shared;   /* top-level `shared` list, or NULL */
	const yaml_node_t *metric_roles;  /* metric `roles` list, or NULL */
	unsigned total_insn;
	const char *const *set;           /* parameter overrides "NAME=VALUE", NULL-terminated, or NULL */
};

static bool fail(struct ctx *c, yaml_mark_t m, const char *fmt, ...) G_GNUC_PRINTF(3, 4);

static bool fail(struct ctx *c, yaml_mark_t m, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = g_strdup_vprintf(fmt, ap);
	va_end(ap);
	g_set_error(c->err, SS_ERROR, SS_ERROR_INVALID, "%s:%zu:%zu: %s", c->file, m.line + 1,
		    m.column + 1, msg);
	g_free(msg);
	return false;
}

static yaml_node_t *node(struct ctx *c, int i)
{
	return yaml_document_get_node(c->doc, i);
}

/* A YAML null: empty plain scalar, "~" or "null". */
static bool is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !strcmp(ss_yaml_sval(n), "") || !strcmp(ss_yaml_sval(n), "~") || !strcmp(ss_yaml_sval(n), "null") ||
	       !strcmp(ss_yaml_sval(n), "Null") || !strcmp(ss_yaml_sval(n), "NULL");
}

static bool want_scalar(struct ctx *c, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n->start_mark, "%s is %s (expected %s)", what, ss_yaml_kind_name(n), what);
	if (strlen(ss_yaml_sval(n)) != n->data.scalar.length)
		return fail(c, n->start_mark, "%s contains a NUL character (expected text)", what);
	return true;
}

static bool want_kind(struct ctx *c, const yaml_node_t *n, yaml_node_type_t type, const char *what)
{
	if (n->type != type)
		return fail(c, n->start_mark, "%s is %s (expected %s)", what, ss_yaml_kind_name(n), what);
	return true;
}

/* "a, b or c" of a NULL-terminated key list. */
static char *key_list(const char *const *keys)
{
	GString *s = g_string_new(NULL);

	for (unsigned i = 0; keys[i]; i++) {
		if (i)
			g_string_append(s, keys[i + 1] ? ", " : " or ");
		g_string_append(s, keys[i]);
	}
	return g_string_free(s, FALSE);
}

/*
 * Walk a mapping's keys: returns the index of key in keys[], or -1 after
 * reporting an unknown, duplicate or non-scalar key. seen[] has one flag per
 * entry of keys[].
 */
static int map_key(struct ctx *c, const yaml_node_t *k, const char *const *keys, bool *seen,
		   const char *where)
{
	if (k->type != YAML_SCALAR_NODE) {
		fail(c, k->start_mark, "a key in %s is %s (expected a plain key)", where, ss_yaml_kind_name(k));
		return -1;
	}
	for (int i = 0; keys[i]; i++) {
		if (strcmp(ss_yaml_sval(k), keys[i]))
			continue;
		if (seen[i]) {
			fail(c, k->start_mark, "duplicate key '%s' in %s (expected each key once)", keys[i],
			     where);
			return -1;
		}
		seen[i] = true;
		return i;
	}
	char *list = key_list(keys);
	fail(c, k->start_mark, "unknown key '%.*s' in %s (expected one of: %s)", ss_yaml_slen(k), ss_yaml_sval(k), where,
	     list);
	g_free(list);
	return -1;
}

static bool parse_ident(struct ctx *c, const yaml_node_t *n, const char *what, char **out)
{
	const char *s;
	size_t len;

	if (!want_scalar(c, n, what))
		return false;
	s = ss_yaml_sval(n);
	len = strlen(s);
	if (len == 0)
		return fail(c, n->start_mark, "%s is empty (expected a name such as 'client')", what);
	if (len > MAX_NAME_LEN)
		return fail(c, n->start_mark, "%s '%.*s...' is too long (expected at most %u characters)",
			    what, SS_YAML_SHOW_LEN, s, MAX_NAME_LEN);
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
			  (i > 0 && ((ch >= '0' && ch <= '9') || ch == '-' || ch == '.'));

		if (!ok)
			return fail(c, n->start_mark,
				    "%s '%.*s' is not a name (expected a letter or '_' followed by letters, digits, '_', '-' or '.')",
				    what, ss_yaml_slen(n), s);
	}
	*out = g_strdup(s);
	return true;
}

static bool parse_text(struct ctx *c, const yaml_node_t *n, const char *what, bool nonempty, char **out)
{
	if (!want_scalar(c, n, what))
		return false;
	if (nonempty && !ss_yaml_sval(n)[0])
		return fail(c, n->start_mark, "%s is empty (expected some text)", what);
	*out = g_strdup(ss_yaml_sval(n));
	return true;
}

static bool parse_bool(struct ctx *c, const yaml_node_t *n, const char *what, bool *out)
{
	static const char *const t[] = { "true", "True", "TRUE" }, *const f[] = { "false", "False", "FALSE" };

	if (!want_scalar(c, n, what))
		return false;
	for (unsigned i = 0; i < 3; i++) {
		if (!strcmp(ss_yaml_sval(n), t[i])) {
			*out = true;
			return true;
		}
		if (!strcmp(ss_yaml_sval(n), f[i])) {
			*out = false;
			return true;
		}
	}
	return fail(c, n->start_mark, "%s is '%.*s' (expected true or false)", what, ss_yaml_slen(n), ss_yaml_sval(n));
}

/* Decimal digits at *s into *v; false on overflow. Advances *s. */
static bool scan_u64(const char **s, uint64_t *v, unsigned *ndigits)
{
	uint64_t x = 0;
	unsigned n = 0;

	for (; **s >= '0' && **s <= '9'; (*s)++, n++) {
		unsigned d = (unsigned)(**s - '0');

		if (x > (UINT64_MAX - d) / 10)
			return false;
		x = x * 10 + d;
	}
	*v = x;
	*ndigits = n;
	return true;
}

static bool parse_int(struct ctx *c, const yaml_node_t *n, const char *what, int64_t lo, int64_t hi,
		      int64_t *out)
{
	const char *s;
	bool neg = false;
	uint64_t v;
	unsigned nd;

	if (!want_scalar(c, n, what))
		return false;
	s = ss_yaml_sval(n);
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!scan_u64(&s, &v, &nd) || v > (uint64_t)INT64_MAX) {
		return fail(c, n->start_mark, "%s '%.*s' is out of range (expected %" G_GINT64_FORMAT "..%"
			    G_GINT64_FORMAT ")", what, ss_yaml_slen(n), ss_yaml_sval(n), lo, hi);
	}
	if (nd == 0 || *s)
		return fail(c, n->start_mark, "%s is '%.*s' (expected an integer in %" G_GINT64_FORMAT "..%"
			    G_GINT64_FORMAT ")", what, ss_yaml_slen(n), ss_yaml_sval(n), lo, hi);
	int64_t x = neg ? -(int64_t)v : (int64_t)v;
	if (x < lo || x > hi)
		return fail(c, n->start_mark, "%s %" G_GINT64_FORMAT " is out of range (expected %"
			    G_GINT64_FORMAT "..%" G_GINT64_FORMAT ")", what, x, lo, hi);
	*out = x;
	return true;
}

/*
 * A duration: DIGITS[.DIGITS] UNIT with UNIT one of ns, us (or µs), ms, s,
 * optionally separated by spaces. Must be a whole number of ns in
 * 1..SS_WL_MAX_DURATION_NS.
 */
static bool parse_duration(struct ctx *c, const yaml_node_t *n, const char *what, uint64_t *out)
{
	static const struct {
		const char *unit;
		uint64_t ns;
	} units[] = {
		{ "ns", 1 }, { "us", 1000 }, { "\xc2\xb5s", 1000 }, { "ms", 1000000 }, { "s", 1000000000 },
	};
	const char *s, *p;
	uint64_t ip, fp = 0, mult = 0, pow10 = 1, ns;
	unsigned nd, nf = 0;

	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n->start_mark, "%s is %s (expected a duration such as 5us)", what,
			    ss_yaml_kind_name(n));
	if (!want_scalar(c, n, what))
		return false;
	s = p = ss_yaml_sval(n);
	if (*p == '-')
		return fail(c, n->start_mark,
			    "%s '%.*s' is negative (expected a positive duration such as 5us)", what,
			    ss_yaml_slen(n), s);
	if (!scan_u64(&p, &ip, &nd))
		goto too_long;
	if (nd == 0)
		return fail(c, n->start_mark,
			    "%s '%.*s' is not a duration (expected a number and a unit: ns, us, ms or s, e.g. 5us)",
			    what, ss_yaml_slen(n), s);
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++, nf++) {
			if (nf >= 9)
				return fail(c, n->start_mark,
					    "%s '%.*s' has too many decimals (expected at most 9)", what,
					    ss_yaml_slen(n), s);
			fp = fp * 10 + (uint64_t)(*p - '0');
			pow10 *= 10;
		}
		if (nf == 0)
			return fail(c, n->start_mark,
				    "%s '%.*s' has no digits after '.' (expected e.g. 1.5ms)", what,
				    ss_yaml_slen(n), s);
	}
	while (*p == ' ')
		p++;
	if (!*p)
		return fail(c, n->start_mark, "%s '%.*s' has no unit (expected ns, us, ms or s, e.g. 5us)",
			    what, ss_yaml_slen(n), s);
	for (unsigned i = 0; i < G_N_ELEMENTS(units); i++)
		if (!strcmp(p, units[i].unit))
			mult = units[i].ns;
	if (!mult)
		return fail(c, n->start_mark,
			    "%s '%.*s' has an unknown unit '%s' (expected ns, us, ms or s)", what, ss_yaml_slen(n),
			    s, p);
	if (ip > SS_WL_MAX_DURATION_NS / mult)
		goto too_long;
	/* fp < 10^9 and mult <= 10^9: the product fits in 64 bits */
	if ((fp * mult) % pow10)
		return fail(c, n->start_mark,
			    "%s '%.*s' is not a whole number of nanoseconds (expected a multiple of 1ns)",
			    what, ss_yaml_slen(n), s);
	ns = ip * mult + fp * mult / pow10;
	if (ns > SS_WL_MAX_DURATION_NS)
		goto too_long;
	if (ns == 0)
		return fail(c, n->start_mark, "%s '%.*s' is zero (expected at least 1ns)", what, ss_yaml_slen(n),
			    s);
	*out = ns;
	return true;
too_long:
	return fail(c, n->start_mark, "%s '%.*s' is too long (expected at most 1000000s)", what, ss_yaml_slen(n), s);
}

/*
 * A quantity: DIGITS[.DIGITS] UNIT (optionally separated by spaces), UNIT one
 * of units[] with its multiplier in the base unit. The value in the base unit
 * must be whole; it is returned in *out (at most max). Used for working_set
 * (base: bytes) and memory_bandwidth (base: MB/s).
 */
struct qunit {
	const char *unit;
	uint64_t mult;
};

static bool parse_quantity(struct ctx *c, const yaml_node_t *n, const char *what, const struct qunit *units,
			   unsigned nr_units, const char *ulist, const char *base, uint64_t max, uint64_t *out)
{
	const char *s, *p;
	uint64_t ip, fp = 0, mult = 0, pow10 = 1, v;
	unsigned nd, nf = 0;

	if (!want_scalar(c, n, what))
		return false;
	s = p = ss_yaml_sval(n);
	if (*p == '-')
		return fail(c, n->start_mark, "%s '%.*s' is negative (expected a number and a unit: %s)", what,
			    ss_yaml_slen(n), s, ulist);
	if (!scan_u64(&p, &ip, &nd))
		goto too_big;
	if (nd == 0)
		return fail(c, n->start_mark, "%s '%.*s' is not a number and a unit (expected one of: %s)",
			    what, ss_yaml_slen(n), s, ulist);
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, nf++) {
			if (nf >= 9)
				return fail(c, n->start_mark,
					    "%s '%.*s' has too many decimals (expected at most 9)", what, ss_yaml_slen(n), s);
			fp = fp * 10 + (uint64_t)(*p - '0');
			pow10 *= 10;
		}
		if (nf == 0)
			return fail(c, n->start_mark, "%s '%.*s' has no digits after '.' (expected e.g. 1.5%s)",
				    what, ss_yaml_slen(n), s, units[nr_units - 1].unit);
	}
	while (*p == ' ')
		p++;
	if (!*p)
		return fail(c, n->start_mark, "%s '%.*s' has no unit (expected one of: %s)", what, ss_yaml_slen(n), s,
			    ulist);
	for (unsigned i = 0; i < nr_units; i++)
		if (!strcmp(p, units[i].unit))
			mult = units[i].mult;
	if (!mult)
		return fail(c, n->start_mark, "%s '%.*s' has an unknown unit '%s' (expected one of: %s)", what,
			    ss_yaml_slen(n), s, p, ulist);
	if (ip > max / mult)
		goto too_big;
	/* fp < 10^9 and mult <= 2^30: the product fits in 64 bits */
	if ((fp * mult) % pow10)
		return fail(c, n->start_mark, "%s '%.*s' is not a whole number of %s (expected a multiple of 1%s)",
			    what, ss_yaml_slen(n), s, base, base);
	v = ip * mult + fp * mult / pow10;
	if (v > max)
		goto too_big;
	*out = v;
	return true;
too_big:
	return fail(c, n->start_mark, "%s '%.*s' is too large (expected at most %" G_GUINT64_FORMAT "%s)", what,
		    ss_yaml_slen(n), s, max, base);
}

/* working_set: SIZE in B, KiB, MiB or GiB; stored in KiB, rounded up. */
static bool parse_working_set(struct ctx *c, const yaml_node_t *n, uint32_t *kib)
{
	static const struct qunit units[] = {
		{ "B", 1 }, { "KiB", 1024 }, { "MiB", 1024 * 1024 }, { "GiB", 1024 * 1024 * 1024 },
	};
	uint64_t bytes;

	if (!parse_quantity(c, n, "working_set", units, G_N_ELEMENTS(units), "B, KiB, MiB or GiB", "B",
			    (uint64_t)SS_WL_MAX_WORKING_SET_KIB * 1024, &bytes))
		return false;
	*kib = (uint32_t)((bytes + 1023) / 1024);
	return true;
}

/* memory_bandwidth: RATE in MB/s or GB/s (decimal: 1 GB/s = 1000 MB/s). */
static bool parse_mem_bw(struct ctx *c, const yaml_node_t *n, uint32_t *mbps)
{
	static const struct qunit units[] = { { "MB/s", 1 }, { "GB/s", 1000 } };
	uint64_t v;

	if (!parse_quantity(c, n, "memory_bandwidth", units, G_N_ELEMENTS(units), "MB/s or GB/s", "MB/s",
			    SS_WL_MAX_MEM_BW_MBPS, &v))
		return false;
	*mbps = (uint32_t)v;
	return true;
}

/* memory_node: N (0..SS_WL_MAX_MEM_NODE) | local (-1). */
static bool parse_mem_node(struct ctx *c, const yaml_node_t *n, int16_t *node_out)
{
	int64_t v;

	if (!want_scalar(c, n, "memory_node"))
		return false;
	if (!strcmp(ss_yaml_sval(n), "local")) {
		*node_out = -1;
		return true;
	}
	if (!(ss_yaml_sval(n)[0] >= '0' && ss_yaml_sval(n)[0] <= '9') && ss_yaml_sval(n)[0] != '-' && ss_yaml_sval(n)[0] != '+')
		return fail(c, n->start_mark, "memory_node is '%.*s' (expected a NUMA node number 0..%d or local)",
			    ss_yaml_slen(n), ss_yaml_sval(n), SS_WL_MAX_MEM_NODE);
	if (!parse_int(c, n, "memory_node", 0, SS_WL_MAX_MEM_NODE, &v))
		return false;
	*node_out = (int16_t)v;
	return true;
}

/* {mean: D, stddev: D} of a normal or lognormal distribution */
static bool parse_mean_sd(struct ctx *c, const yaml_node_t *v, const char *what, struct ss_dist *d)
{
	static const char *const keys[] = { "mean", "stddev", NULL };
	bool seen[2] = { false };

	if (v->type != YAML_MAPPING_NODE)
		return fail(c, v->start_mark, "%s parameters are %s (expected {mean: D, stddev: D})", what,
			    ss_yaml_kind_name(v));
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *val = node(c, pr->value);

		switch (map_key(c, k, keys, seen, what)) {
		case 0:
			if (!parse_duration(c, val, "mean", &d->a))
				return false;
			break;
		case 1:
			if (!parse_duration(c, val, "stddev", &d->b))
				return false;
			break;
		default:
			return false;
		}
	}
	if (!seen[0] || !seen[1])
		return fail(c, v->start_mark, "%s has no '%s' (expected {mean: D, stddev: D})", what,
			    seen[0] ? "stddev" : "mean");
	return true;
}

/* [[D, WEIGHT], ...]: at least one row, weights >= 1, Σ weights < 2^32 */
static bool parse_empirical(struct ctx *c, const yaml_node_t *v, struct ss_dist *d)
{
	ptrdiff_t nr;
	struct ss_dist_bin *bins;
	uint64_t total = 0;

	if (v->type != YAML_SEQUENCE_NODE || v->data.sequence.items.top == v->data.sequence.items.start)
		return fail(c, v->start_mark,
			    "empirical table is %s (expected a non-empty list of [DURATION, WEIGHT] rows)",
			    v->type == YAML_SEQUENCE_NODE ? "empty" : ss_yaml_kind_name(v));
	nr = v->data.sequence.items.top - v->data.sequence.items.start;
	if (nr > 65536)
		return fail(c, v->start_mark, "empirical table has %d rows (expected at most 65536)", (int)nr);
	bins = g_new0(struct ss_dist_bin, nr);
	g_ptr_array_add(c->w->tables, bins);
	for (ptrdiff_t i = 0; i < nr; i++) {
		const yaml_node_t *row = node(c, v->data.sequence.items.start[i]);
		int64_t wgt;

		if (row->type != YAML_SEQUENCE_NODE || row->data.sequence.items.top - row->data.sequence.items.start != 2)
			return fail(c, row->start_mark, "empirical row is %s (expected [DURATION, WEIGHT])",
				    row->type == YAML_SEQUENCE_NODE ? "not two items" : ss_yaml_kind_name(row));
		if (!parse_duration(c, node(c, row->data.sequence.items.start[0]), "empirical duration", &bins[i].ns) ||
		    !parse_int(c, node(c, row->data.sequence.items.start[1]), "empirical weight", 1, UINT32_MAX, &wgt))
			return false;
		bins[i].weight = (uint64_t)wgt;
		total += (uint64_t)wgt;
	}
	if (total > UINT32_MAX)
		return fail(c, v->start_mark, "empirical weights sum to %" G_GUINT64_FORMAT " (expected at most %u)",
			    total, UINT32_MAX);
	d->kind = SS_DIST_EMPIRICAL;
	d->a = total;
	d->b = 0;
	d->bins = bins;
	d->nr_bins = (uint32_t)nr;
	return true;
}

/* DURATION | {constant: D} | {exponential: MEAN} | {uniform: [MIN, MAX]} | {normal: {mean, stddev}}
 * | {lognormal: {mean, stddev}} | {empirical: [[D, W], ...]} */
static bool parse_dist(struct ctx *c, const yaml_node_t *n, const char *what, struct ss_dist *d)
{
	static const char *const keys[] = { "constant", "exponential", "uniform", "normal", "lognormal",
					    "empirical", NULL };
	bool seen[6] = { false };
	const yaml_node_t *k, *v, *lo, *hi;
	int key;

	if (n->type == YAML_SCALAR_NODE) {
		d->kind = SS_DIST_CONST;
		d->b = 0;
		return parse_duration(c, n, what, &d->a);
	}
	if (n->type != YAML_MAPPING_NODE)
		return fail(c, n->start_mark,
			    "%s is %s (expected a duration such as 5us or one of {constant: D}, {exponential: MEAN}, {uniform: [MIN, MAX]}, {normal: {mean, stddev}}, {lognormal: {mean, stddev}}, {empirical: [[D, WEIGHT], ...]})",
			    what, ss_yaml_kind_name(n));
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
		return fail(c, n->start_mark,
			    "%s has %d keys (expected exactly one of constant, exponential, uniform, normal, lognormal or empirical)",
			    what, (int)(n->data.mapping.pairs.top - n->data.mapping.pairs.start));
	k = node(c, n->data.mapping.pairs.start->key);
	v = node(c, n->data.mapping.pairs.start->value);
	key = map_key(c, k, keys, seen, "a distribution");
	switch (key) {
	case 0:
		d->kind = SS_DIST_CONST;
		d->b = 0;
		return parse_duration(c, v, "constant duration", &d->a);
	case 1:
		d->kind = SS_DIST_EXP;
		d->b = 0;
		return parse_duration(c, v, "exponential mean", &d->a);
	case 2:
		if (v->type != YAML_SEQUENCE_NODE ||
		    v->data.sequence.items.top - v->data.sequence.items.start != 2)
			return fail(c, v->start_mark,
				    "uniform bounds are %s (expected a list of two durations [MIN, MAX])",
				    v->type == YAML_SEQUENCE_NODE ? "not two items" : ss_yaml_kind_name(v));
		lo = node(c, v->data.sequence.items.start[0]);
		hi = node(c, v->data.sequence.items.start[1]);
		d->kind = SS_DIST_UNIFORM;
		if (!parse_duration(c, lo, "uniform minimum", &d->a) ||
		    !parse_duration(c, hi, "uniform maximum", &d->b))
			return false;
		if (d->a > d->b)
			return fail(c, lo->start_mark,
				    "uniform minimum '%.*s' is larger than the maximum '%.*s' (expected [MIN, MAX] with MIN <= MAX)",
				    ss_yaml_slen(lo), ss_yaml_sval(lo), ss_yaml_slen(hi), ss_yaml_sval(hi));
		return true;
	case 3:
		d->kind = SS_DIST_NORMAL;
		return parse_mean_sd(c, v, "normal", d);
	case 4:
		d->kind = SS_DIST_LOGNORMAL;
		return parse_mean_sd(c, v, "lognormal", d);
	case 5:
		return parse_empirical(c, v, d);
	default:
		return false;
	}
}

static bool emit(struct ctx *c, GArray *code, const struct ss_wl_insn *in, yaml_mark_t m)
{
	if (code->len >= SS_WL_MAX_INSN)
		return fail(c, m, "program too long (expected at most %u instructions per role)",
			    (unsigned)SS_WL_MAX_INSN);
	if (c->total_insn >= MAX_TOTAL_INSN)
		return fail(c, m, "workload too large (expected at most %u instructions in all roles)",
			    MAX_TOTAL_INSN);
	g_array_append_vals(code, in, 1);
	c->total_insn++;
	return true;
}

static bool compile_block(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *seq,
			  unsigned depth, bool *has_time, const char *what);

/* which: same | all | random | round_robin | N (a replica index, checked against the role's count later) */
static bool parse_which(struct ctx *c, const yaml_node_t *n, struct ss_wl_insn *in)
{
	static const char *const names[] = { "same", "all", "random", "round_robin" };
	static const uint8_t vals[] = { SS_WHICH_SAME, SS_WHICH_ALL, SS_WHICH_RANDOM, SS_WHICH_RR };
	int64_t idx;

	if (!want_scalar(c, n, "which"))
		return false;
	for (unsigned i = 0; i < G_N_ELEMENTS(names); i++)
		if (!strcmp(ss_yaml_sval(n), names[i])) {
			in->which = vals[i];
			return true;
		}
	if (ss_yaml_sval(n)[0] < '0' || ss_yaml_sval(n)[0] > '9')
		return fail(c, n->start_mark,
			    "which is '%.*s' (expected same, all, random, round_robin or a task number 0..N-1)",
			    ss_yaml_slen(n), ss_yaml_sval(n));
	if (!parse_int(c, n, "which", 0, SS_WL_MAX_TASKS - 1, &idx))
		return false;
	in->which = SS_WHICH_INDEX;
	in->index = (uint32_t)idx;
	return true;
}

static bool add_fixup(struct ctx *c, uint32_t role, uint32_t pc, enum fixup_kind kind, const yaml_node_t *name,
		      const char *what)
{
	struct wake_fixup fx = { 0 };

	if (!want_scalar(c, name, what))
		return false;
	if (!ss_yaml_sval(name)[0])
		return fail(c, name->start_mark, "%s is empty (expected a name)", what);
	fx.role = role;
	fx.pc = pc;
	fx.kind = (uint8_t)kind;
	fx.name = ss_yaml_sval(name);
	fx.mark = name->start_mark;
	g_array_append_val(c->fixups, fx);
	return true;
}

/*
 * wake: ROLE | {task: ROLE, which: W, sync: B, if_waiting: B};
 * send: the same without if_waiting (sync defaults to true)
 */
static bool compile_wake(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *v, yaml_mark_t m,
			 bool send)
{
	static const char *const wake_keys[] = { "task", "which", "sync", "if_waiting", NULL };
	static const char *const send_keys[] = { "task", "which", "sync", NULL };
	const char *const *keys = send ? send_keys : wake_keys;
	const char *stmt = send ? "send" : "wake";
	bool seen[4] = { false };
	struct ss_wl_insn in = { .op = send ? SS_OP_SEND : SS_OP_WAKE, .sync = send };
	const yaml_node_t *name = NULL, *which = NULL;

	if (v->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
			const yaml_node_t *k = node(c, pr->key), *val = node(c, pr->value);

			switch (map_key(c, k, keys, seen, stmt)) {
			case 0:
				name = val;
				break;
			case 1:
				if (!parse_which(c, val, &in))
					return false;
				which = val;
				break;
			case 2:
				if (!parse_bool(c, val, "sync", &in.sync))
					return false;
				break;
			case 3:
				if (!parse_bool(c, val, "if_waiting", &in.if_waiting))
					return false;
				break;
			default:
				return false;
			}
		}
		if (send && which && in.which == SS_WHICH_ALL)
			return fail(c, which->start_mark, "send to all (expected same, random, round_robin or a task number: a message goes to one channel)");
		if (!name)
			return fail(c, v->start_mark, "%s has no 'task' (expected the name of a role to %s)", stmt,
				    send ? "send to" : "wake");
	} else {
		name = v;
	}
	if (name->type == YAML_SCALAR_NODE && !ss_yaml_sval(name)[0])
		return fail(c, name->start_mark, "%s names no role (expected the name of a role)", stmt);
	if (!add_fixup(c, role, code->len, send ? FX_SEND : FX_WAKE, name, send ? "the role to send to" : "the role to wake"))
		return false;
	if (which)
		g_array_index(c->fixups, struct wake_fixup, c->fixups->len - 1).index_mark = which->start_mark;
	return emit(c, code, &in, m);
}

/* spawn: ROLE | {task: ROLE, count: N} */
static bool compile_spawn(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *v, yaml_mark_t m)
{
	static const char *const keys[] = { "task", "count", NULL };
	bool seen[2] = { false };
	struct ss_wl_insn in = { .op = SS_OP_SPAWN, .index = 1 };
	const yaml_node_t *name = v;
	int64_t n;

	if (v->type == YAML_MAPPING_NODE) {
		name = NULL;
		for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
			const yaml_node_t *k = node(c, pr->key), *val = node(c, pr->value);

			switch (map_key(c, k, keys, seen, "spawn")) {
			case 0:
				name = val;
				break;
			case 1:
				if (!parse_int(c, val, "spawn count", 1, SS_WL_MAX_TASKS, &n))
					return false;
				in.index = (uint32_t)n;
				break;
			default:
				return false;
			}
		}
		if (!name)
			return fail(c, v->start_mark, "spawn has no 'task' (expected the name of a role with spawned: true)");
	}
	if (!add_fixup(c, role, code->len, FX_SPAWN, name, "the role to spawn"))
		return false;
	return emit(c, code, &in, m);
}

static bool compile_loop(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *v,
			 unsigned depth, bool *has_time, yaml_mark_t m)
{
	static const char *const keys[] = { "count", "forever", "do", NULL };
	bool seen[3] = { false }, forever = false, body_time = false;
	const yaml_node_t *count = NULL, *fnode = NULL, *body = NULL;
	struct ss_wl_insn in = { .op = SS_OP_LOOP };
	uint32_t start;
	int64_t n;

	if (!want_kind(c, v, YAML_MAPPING_NODE, "a loop {count: N or forever: true, do: [...]}"))
		return false;
	if (depth >= SS_WL_MAX_LOOP_DEPTH)
		return fail(c, m, "loops nested too deeply (expected at most %d levels)", SS_WL_MAX_LOOP_DEPTH);
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *val = node(c, pr->value);

		switch (map_key(c, k, keys, seen, "loop")) {
		case 0:
			count = val;
			break;
		case 1:
			fnode = val;
			break;
		case 2:
			body = val;
			break;
		default:
			return false;
		}
	}
	if (count && fnode)
		return fail(c, fnode->start_mark,
			    "loop has both 'count' and 'forever' (expected one of them)");
	if (fnode) {
		if (!parse_bool(c, fnode, "forever", &forever))
			return false;
		if (!forever)
			return fail(c, fnode->start_mark,
				    "forever is false (expected true, or 'count: N' for a finite loop)");
		in.arg = SS_WL_FOREVER;
	} else if (count) {
		if (!parse_int(c, count, "loop count", 1, SS_WL_FOREVER - 1, &n))
			return false;
		in.arg = (uint32_t)n;
	} else {
		return fail(c, v->start_mark, "loop has neither 'count' nor 'forever' (expected count: N or forever: true)");
	}
	if (!body)
		return fail(c, v->start_mark, "loop has no 'do' (expected a list of statements)");

	if (!emit(c, code, &in, m))
		return false;
	start = code->len;
	if (!compile_block(c, role, code, body, depth + 1, &body_time, "loop body"))
		return false;
	if (!body_time)
		return fail(c, m,
			    "loop body never lets simulated time pass (expected a run, sleep or wait in it; a yield takes "
			    "no time, nor does an exec)");
	*has_time = true;
	in.op = SS_OP_ENDLOOP;
	in.arg = start;
	return emit(c, code, &in, m);
}

static bool compile_wait(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *v, yaml_mark_t m,
			 bool *has_time)
{
	struct ss_wl_insn in = { .op = SS_OP_WAIT, .arg = 1 };
	int64_t n;

	if (v && !is_null(v)) {
		if (!parse_int(c, v, "wait count", 1, UINT32_MAX, &n))
			return false;
		in.arg = (uint32_t)n;
	}
	if (!c->waits[role]) {
		c->waits[role] = true;
		c->wait_mark[role] = m;
	}
	*has_time = true;
	return emit(c, code, &in, m);
}

static const char *const stmt_keys[] = { "run", "sleep", "wake", "wait", "loop", "transaction", "send", "recv",
					 "lock", "unlock", "timer", "barrier", "spawn", "exit", "run_wall", "yield", "exec", NULL };

/*
 * A timer period of at least 1 us, rt-app's unit (its periods are whole
 * microseconds, rt-app_parse_config.c): a shorter one (timer: 1ns) is no
 * workload anyone measured, and costs one event per period (10 ms of
 * simulated time took 7 s).
 */
static bool check_timer_period(struct ctx *c, const yaml_node_t *v, uint64_t ns)
{
	if (ns < 1000)
		return fail(c, v->start_mark, "timer period %llu ns is shorter than 1 us (expected at least 1us, "
					      "rt-app's unit)", (unsigned long long)ns);
	return true;
}

/* timer: PERIOD | {period: PERIOD, mode: absolute|relative, anchor: start|DURATION} */
static bool compile_timer(struct ctx *c, GArray *code, const yaml_node_t *v, yaml_mark_t m)
{
	static const char *const keys[] = { "period", "mode", "anchor", NULL };
	bool seen[3] = { false };
	struct ss_wl_insn in = { .op = SS_OP_TIMER };

	in.dist.kind = SS_DIST_CONST;
	if (v->type != YAML_MAPPING_NODE)
		return parse_duration(c, v, "timer period", &in.dist.a) && check_timer_period(c, v, in.dist.a) &&
		       emit(c, code, &in, m);
	for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *val = node(c, pr->value);

		switch (map_key(c, k, keys, seen, "timer")) {
		case 0:
			if (!parse_duration(c, val, "timer period", &in.dist.a))
				return false;
			break;
		case 1:
			if (!want_scalar(c, val, "timer mode"))
				return false;
			if (!strcmp(ss_yaml_sval(val), "relative"))
				in.index |= SS_TIMER_RELATIVE;
			else if (strcmp(ss_yaml_sval(val), "absolute"))
				return fail(c, val->start_mark, "timer mode '%.*s' (expected absolute or relative)",
					    ss_yaml_slen(val), ss_yaml_sval(val));
			break;
		case 2:
			in.index |= SS_TIMER_ANCHORED;
			if (val->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(val), "start"))
				in.dist.b = 0;
			else if (!parse_duration(c, val, "timer anchor", &in.dist.b))
				return false;
			break;
		default:
			return false;
		}
	}
	if (!seen[0])
		return fail(c, v->start_mark, "timer has no 'period' (expected e.g. timer: {period: 10ms})");
	if (!check_timer_period(c, v, in.dist.a))
		return false;
	return emit(c, code, &in, m);
}

static bool compile_recv(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *v, yaml_mark_t m,
			 bool *has_time)
{
	struct ss_wl_insn in = { .op = SS_OP_RECV, .arg = 1 };
	int64_t n;

	if (v && !is_null(v)) {
		if (!parse_int(c, v, "recv count", 1, UINT32_MAX, &n))
			return false;
		in.arg = (uint32_t)n;
	}
	if (!c->recvs[role]) {
		c->recvs[role] = true;
		c->recv_mark[role] = m;
	}
	*has_time = true;
	return emit(c, code, &in, m);
}

static bool compile_stmt(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *n,
			 unsigned depth, bool *has_time)
{
	bool seen[G_N_ELEMENTS(stmt_keys)] = { false };   /* one per statement key */
	const yaml_node_t *k, *v;
	struct ss_wl_insn in = { 0 };
	ptrdiff_t npairs;

	if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "wait"))
		return compile_wait(c, role, code, NULL, n->start_mark, has_time);
	if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "recv"))
		return compile_recv(c, role, code, NULL, n->start_mark, has_time);
	if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "exit")) {
		in.op = SS_OP_EXIT;
		*has_time = true;   /* nothing runs after it */
		return emit(c, code, &in, n->start_mark);
	}
	if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "yield")) {
		in.op = SS_OP_YIELD;   /* sched_yield(): takes no simulated time of its own */
		return emit(c, code, &in, n->start_mark);
	}
	if (n->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(n), "exec")) {
		in.op = SS_OP_EXEC;    /* sched_exec(): a placement, no simulated time of its own */
		return emit(c, code, &in, n->start_mark);
	}
	if (n->type != YAML_MAPPING_NODE) {
		char *list = key_list(stmt_keys);

		if (n->type == YAML_SCALAR_NODE)
			fail(c, n->start_mark, "unknown statement '%.*s' (expected KEY: VALUE with KEY one of: %s)",
			     ss_yaml_slen(n), ss_yaml_sval(n), list);
		else
			fail(c, n->start_mark, "statement is %s (expected KEY: VALUE with KEY one of: %s)",
			     ss_yaml_kind_name(n), list);
		g_free(list);
		return false;
	}
	npairs = n->data.mapping.pairs.top - n->data.mapping.pairs.start;
	if (npairs == 0)
		return fail(c, n->start_mark, "empty statement (expected e.g. run: 5us)");
	k = node(c, n->data.mapping.pairs.start[0].key);
	v = node(c, n->data.mapping.pairs.start[0].value);
	if (npairs > 1) {
		const yaml_node_t *k2 = node(c, n->data.mapping.pairs.start[1].key);

		if (k2->type == YAML_SCALAR_NODE && k->type == YAML_SCALAR_NODE)
			return fail(c, k2->start_mark,
				    "'%.*s' in the same statement as '%.*s' (expected one statement per list item: '- %.*s: ...')",
				    ss_yaml_slen(k2), ss_yaml_sval(k2), ss_yaml_slen(k), ss_yaml_sval(k), ss_yaml_slen(k2), ss_yaml_sval(k2));
		return fail(c, k2->start_mark, "statement has %d keys (expected one)", (int)npairs);
	}
	switch (map_key(c, k, stmt_keys, seen, "a program")) {
	case 0: /* run */
	case 1: /* sleep */
		in.op = strcmp(ss_yaml_sval(k), "run") ? SS_OP_SLEEP : SS_OP_RUN;
		if (!parse_dist(c, v, in.op == SS_OP_RUN ? "run duration" : "sleep duration", &in.dist))
			return false;
		*has_time = true;
		return emit(c, code, &in, k->start_mark);
	case 2:
		return compile_wake(c, role, code, v, k->start_mark, false);
	case 3:
		return compile_wait(c, role, code, v, k->start_mark, has_time);
	case 4:
		return compile_loop(c, role, code, v, depth, has_time, k->start_mark);
	case 5:
		if (!want_scalar(c, v, "transaction mark"))
			return false;
		if (!strcmp(ss_yaml_sval(v), "begin"))
			in.op = SS_OP_TXN_BEGIN;
		else if (!strcmp(ss_yaml_sval(v), "end"))
			in.op = SS_OP_TXN_END;
		else
			return fail(c, v->start_mark, "transaction mark '%.*s' (expected begin or end)",
				    ss_yaml_slen(v), ss_yaml_sval(v));
		return emit(c, code, &in, k->start_mark);
	case 6:
		return compile_wake(c, role, code, v, k->start_mark, true);
	case 7:
		return compile_recv(c, role, code, v, k->start_mark, has_time);
	case 8:
	case 9:
	case 11: {
		int op = !strcmp(ss_yaml_sval(k), "lock") ? SS_OP_LOCK : !strcmp(ss_yaml_sval(k), "unlock") ? SS_OP_UNLOCK : SS_OP_BARRIER;

		in.op = (uint8_t)op;
		if (!add_fixup(c, role, code->len, op == SS_OP_LOCK ? FX_LOCK : op == SS_OP_UNLOCK ? FX_UNLOCK : FX_BARRIER,
			       v, op == SS_OP_BARRIER ? "barrier name" : "mutex name"))
			return false;
		if (op != SS_OP_UNLOCK)
			*has_time = true;   /* a lock or barrier may block */
		return emit(c, code, &in, k->start_mark);
	}
	case 10:
		*has_time = true;
		return compile_timer(c, code, v, k->start_mark);
	case 12:
		return compile_spawn(c, role, code, v, k->start_mark);
	case 13:
		if (!is_null(v) && !(v->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(v), "true")))
			return fail(c, v->start_mark, "exit takes no value (expected '- exit')");
		in.op = SS_OP_EXIT;
		*has_time = true;
		return emit(c, code, &in, k->start_mark);
	case 14: /* run_wall */
		in.op = SS_OP_RUN_WALL;
		if (!parse_dist(c, v, "run_wall duration", &in.dist))
			return false;
		*has_time = true;
		return emit(c, code, &in, k->start_mark);
	case 15: /* yield */
		if (!is_null(v) && !(v->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(v), "true")))
			return fail(c, v->start_mark, "yield takes no value (expected '- yield')");
		in.op = SS_OP_YIELD;
		return emit(c, code, &in, k->start_mark);
	case 16: /* exec */
		if (!is_null(v) && !(v->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(v), "true")))
			return fail(c, v->start_mark, "exec takes no value (expected '- exec')");
		in.op = SS_OP_EXEC;
		return emit(c, code, &in, k->start_mark);
	default:
		return false;
	}
}

static bool compile_block(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *seq,
			  unsigned depth, bool *has_time, const char *what)
{
	if (is_null(seq) ||
	    (seq->type == YAML_SEQUENCE_NODE && seq->data.sequence.items.top == seq->data.sequence.items.start))
		return fail(c, seq->start_mark, "%s is empty (expected at least one statement)", what);
	if (seq->type != YAML_SEQUENCE_NODE)
		return fail(c, seq->start_mark, "%s is %s (expected a list of statements)", what,
			    ss_yaml_kind_name(seq));
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++)
		if (!compile_stmt(c, role, code, node(c, *it), depth, has_time))
			return false;
	return true;
}

/* start_cpu: N | first | spread | "instance" | "K * instance" | "instance + B" | "K * instance + B" */
static bool parse_start_cpu(struct ctx *c, const yaml_node_t *n, struct ss_wl_role *r)
{
	const char *s, *p;
	uint64_t mul = 1, add = 0, v;
	unsigned nd;
	int64_t cpu;

	if (!want_scalar(c, n, "start_cpu"))
		return false;
	s = p = ss_yaml_sval(n);
	if (!strcmp(s, "first")) {
		/* rank 0 of the allowed CPUs, in every instance: where a benchmark's parent starts */
		r->start = SS_START_INSTANCE;
		r->start_mul = 0;
		r->start_add = 0;
		return true;
	}
	if (!strcmp(s, "spread")) {
		/* pre-placed: dealt over the LLCs, an instance's tasks together (core.c start_cpus()) */
		r->start = SS_START_SPREAD;
		return true;
	}
	if (*s == '-' || (*s >= '0' && *s <= '9' && !strstr(s, "instance"))) {
		if (!parse_int(c, n, "start_cpu", 0, SS_MAX_CPUS - 1, &cpu))
			return false;
		r->start = SS_START_CPU;
		r->start_add = (uint32_t)cpu;
		return true;
	}
	while (*p == ' ')
		p++;
	if (*p >= '0' && *p <= '9') {
		if (!scan_u64(&p, &mul, &nd) || mul < 1 || mul > SS_MAX_CPUS)
			goto bad;
		while (*p == ' ')
			p++;
		if (*p++ != '*')
			goto bad;
		while (*p == ' ')
			p++;
	}
	if (strncmp(p, "instance", 8))
		goto bad;
	p += 8;
	while (*p == ' ')
		p++;
	if (*p == '+') {
		p++;
		while (*p == ' ')
			p++;
		if (!scan_u64(&p, &v, &nd) || nd == 0 || v > SS_MAX_CPUS - 1)
			goto bad;
		add = v;
		while (*p == ' ')
			p++;
	}
	if (*p)
		goto bad;
	r->start = SS_START_INSTANCE;
	r->start_mul = (uint32_t)mul;
	r->start_add = (uint32_t)add;
	return true;
bad:
	return fail(c, n->start_mark,
		    "start_cpu '%.*s' (expected a CPU number 0..%u, first, spread, or an expression [K *] instance [+ B] with K in 1..%u, B in 0..%u)",
		    ss_yaml_slen(n), s, SS_MAX_CPUS - 1, SS_MAX_CPUS, SS_MAX_CPUS - 1);
}

static bool parse_role(struct ctx *c, uint32_t idx, const yaml_node_t *n)
{
	static const char *const keys[] = { "name", "count", "nice", "start_cpu", "cpus", "channel", "start_after",
					    "stop_after", "spawned", "working_set", "memory_bandwidth",
					    "memory_node", "program", NULL };
	bool seen[13] = { false }, has_time = false;
	struct ss_wl_role *r = &c->w->role[idx];
	const yaml_node_t *prog = NULL, *name = NULL, *stop = NULL;
	GArray *code;
	int64_t nice, iv;

	if (!want_kind(c, n, YAML_MAPPING_NODE, "a task role {name, program}"))
		return false;
	c->role_mark[idx] = n->start_mark;
	r->start = SS_START_ANY;
	r->mem_node = -1;
	r->count = 1;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);

		switch (map_key(c, k, keys, seen, "a task")) {
		case 0:
			if (!parse_ident(c, v, "task name", &r->name))
				return false;
			name = v;
			break;
		case 1:
			if (!parse_int(c, v, "count", 1, 65536, &nice))
				return false;
			r->count = (uint32_t)nice;
			break;
		case 2:
			if (!parse_int(c, v, "nice", -20, 19, &nice))
				return false;
			r->nice = (int)nice;
			break;
		case 3:
			if (!parse_start_cpu(c, v, r))
				return false;
			g_free(r->start_cpu_at);
			r->start_cpu_at = g_strdup_printf("%s:%zu:%zu", c->file, v->start_mark.line + 1,
							  v->start_mark.column + 1);
			break;
		case 4: {
			uint64_t m[SS_MAX_CPUS / 64];
			unsigned bad;

			if (!want_scalar(c, v, "cpus"))
				return false;
			/* "first": the first allowed CPU, where the harness runs (resolved by the simulator) */
			if (strcmp(ss_yaml_sval(v), "first") &&
			    (ss_cpumask_parse_list(ss_yaml_sval(v), m, SS_MAX_CPUS, &bad) < 0 || !ss_yaml_sval(v)[0]))
				return fail(c, v->start_mark,
					    "cpus '%.*s' is not a CPU list (expected first or a cpulist such as 0-3,8 with CPUs 0..%u)",
					    ss_yaml_slen(v), ss_yaml_sval(v), SS_MAX_CPUS - 1);
			r->cpus = g_strdup(ss_yaml_sval(v));
			r->cpus_at = g_strdup_printf("%s:%zu:%zu", c->file, v->start_mark.line + 1, v->start_mark.column + 1);
			break;
		}
		case 5:
			if (!parse_int(c, v, "channel capacity", 1, UINT32_MAX, &iv))
				return false;
			r->channel_capacity = (uint32_t)iv;
			c->channel_mark[idx] = k->start_mark;
			break;
		case 6:
			if (!parse_duration(c, v, "start_after", &r->start_after_ns))
				return false;
			break;
		case 7:
			if (!parse_duration(c, v, "stop_after", &r->stop_after_ns))
				return false;
			stop = v;
			break;
		case 8:
			if (!parse_bool(c, v, "spawned", &r->spawned))
				return false;
			break;
		case 9:
			if (!parse_working_set(c, v, &r->working_set_kib))
				return false;
			break;
		case 10:
			if (!parse_mem_bw(c, v, &r->mem_bw_mbps))
				return false;
			break;
		case 11:
			if (!parse_mem_node(c, v, &r->mem_node))
				return false;
			r->mem_node_at = g_strdup_printf("%s:%zu:%zu", c->file, v->start_mark.line + 1,
							 v->start_mark.column + 1);
			break;
		case 12:
			prog = v;
			break;
		default:
			return false;
		}
	}
	if (stop && r->stop_after_ns <= r->start_after_ns)
		return fail(c, stop->start_mark, "stop_after is not later than start_after (expected a later time)");
	if (!name)
		return fail(c, n->start_mark, "task has no 'name' (expected a role name such as 'client')");
	if (g_hash_table_contains(c->role_index, r->name))
		return fail(c, name->start_mark, "task name '%s' is used twice (expected unique role names)",
			    r->name);
	g_hash_table_insert(c->role_index, r->name, GUINT_TO_POINTER(idx + 1));
	if (!prog)
		return fail(c, n->start_mark, "task '%s' has no 'program' (expected a list of statements)",
			    r->name);

	code = g_array_new(FALSE, FALSE, sizeof(struct ss_wl_insn));
	if (!compile_block(c, idx, code, prog, 0, &has_time, "program")) {
		g_array_free(code, TRUE);
		return false;
	}
	r->nr_insn = code->len;
	r->insn = (struct ss_wl_insn *)(void *)g_array_free(code, FALSE);
	return true;
}

static bool parse_tasks(struct ctx *c, const yaml_node_t *n)
{
	ptrdiff_t nr;

	if (!want_kind(c, n, YAML_SEQUENCE_NODE, "a list of task roles"))
		return false;
	nr = n->data.sequence.items.top - n->data.sequence.items.start;
	if (nr == 0)
		return fail(c, n->start_mark, "tasks is empty (expected at least one task role)");
	if ((size_t)nr > MAX_ROLES)
		return fail(c, n->start_mark, "%d task roles (expected at most %u per instance)", (int)nr,
			    MAX_ROLES);
	c->w->role = g_new0(struct ss_wl_role, nr);
	c->w->nr_roles = (unsigned)nr;
	c->waits = g_new0(bool, nr);
	c->wait_mark = g_new0(yaml_mark_t, nr);
	c->recvs = g_new0(bool, nr);
	c->recv_mark = g_new0(yaml_mark_t, nr);
	c->role_mark = g_new0(yaml_mark_t, nr);
	c->channel_mark = g_new0(yaml_mark_t, nr);
	for (ptrdiff_t i = 0; i < nr; i++)
		if (!parse_role(c, (uint32_t)i, node(c, n->data.sequence.items.start[i])))
			return false;
	return true;
}

static bool parse_metric(struct ctx *c, const yaml_node_t *n)
{
	static const char *const keys[] = { "name", "unit", "higher_is_better", "bytes_per_transaction",
					    "percentile", "roles", "from", NULL };
	static const char *const units[] = { "transactions/s", "MB/s", "s", "us", NULL };
	bool seen[7] = { false };
	struct ss_workload *w = c->w;
	const yaml_node_t *unit = NULL, *bpt = NULL, *pct = NULL, *from = NULL;

	if (!want_kind(c, n, YAML_MAPPING_NODE, "a metric {name, unit, higher_is_better}"))
		return false;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);
		bool ok = true;

		switch (map_key(c, k, keys, seen, "metric")) {
		case 0:
			ok = parse_text(c, v, "metric name", true, &w->metric_name);
			break;
		case 1:
			ok = parse_text(c, v, "metric unit", true, &w->metric_unit);
			unit = v;
			break;
		case 2:
			ok = parse_bool(c, v, "higher_is_better", &w->metric.higher_is_better);
			break;
		case 3: {
			static const struct qunit bu[] = { { "B", 1 }, { "KiB", 1024 }, { "MiB", 1024 * 1024 } };

			ok = parse_quantity(c, v, "bytes_per_transaction", bu, G_N_ELEMENTS(bu), "B, KiB or MiB", "B",
					    UINT64_C(1) << 40, &w->metric.bytes_per_txn);
			if (ok && !w->metric.bytes_per_txn)
				return fail(c, v->start_mark, "bytes_per_transaction is zero (expected at least 1B)");
			bpt = v;
			break;
		}
		case 4: {
			/* 50, 90, 99, 99.9: percent with at most one decimal */
			const char *p;
			uint64_t ip, fp = 0;
			unsigned nd;

			if (!want_scalar(c, v, "percentile"))
				return false;
			p = ss_yaml_sval(v);
			if (!scan_u64(&p, &ip, &nd) || nd == 0 || ip > 100)
				goto bad_pct;
			if (*p == '.') {
				p++;
				if (*p < '0' || *p > '9')
					goto bad_pct;
				fp = (uint64_t)(*p++ - '0');
			}
			if (*p || ip * 10 + fp == 0 || ip * 10 + fp > 1000)
				goto bad_pct;
			w->metric.percentile_x10 = (unsigned)(ip * 10 + fp);
			pct = v;
			break;
bad_pct:
			return fail(c, v->start_mark, "percentile '%.*s' (expected a percent in 0.1..100 with at most one decimal, e.g. 99)",
				    ss_yaml_slen(v), ss_yaml_sval(v));
		}
		case 5:
			if (!want_kind(c, v, YAML_SEQUENCE_NODE, "a list of role names"))
				return false;
			c->metric_roles = v;
			break;
		case 6:
			/* from: start (t = 0) | begin (the first transaction begin) */
			if (!want_scalar(c, v, "from"))
				return false;
			if (!strcmp(ss_yaml_sval(v), "begin"))
				w->metric.from_begin = true;
			else if (strcmp(ss_yaml_sval(v), "start"))
				return fail(c, v->start_mark, "from '%.*s' (expected start or begin)", ss_yaml_slen(v),
					    ss_yaml_sval(v));
			from = v;
			break;
		default:
			ok = false;
		}
		if (!ok)
			return false;
	}
	for (unsigned i = 0; i < 3; i++)
		if (!seen[i])
			return fail(c, n->start_mark, "metric has no '%s' (expected name, unit and higher_is_better)",
				    keys[i]);
	if (!strcmp(w->metric_unit, "transactions/s")) {
		w->metric.measure = SS_MEASURE_TXN_RATE;
	} else if (!strcmp(w->metric_unit, "MB/s")) {
		w->metric.measure = bpt ? SS_MEASURE_TXN_BYTES : SS_MEASURE_MEM_BW;
	} else if (!strcmp(w->metric_unit, "s")) {
		w->metric.measure = SS_MEASURE_FINISH;
	} else if (!strcmp(w->metric_unit, "us")) {
		w->metric.measure = SS_MEASURE_WAKEUP_PCT;
		if (!pct)
			w->metric.percentile_x10 = 990;
	} else {
		char *list = key_list(units);

		fail(c, unit->start_mark, "metric unit '%s' is not measured by this version (expected one of: %s)",
		     w->metric_unit, list);
		g_free(list);
		return false;
	}
	if (bpt && w->metric.measure != SS_MEASURE_TXN_BYTES)
		return fail(c, bpt->start_mark, "bytes_per_transaction with unit '%s' (expected unit MB/s)", w->metric_unit);
	if (pct && w->metric.measure != SS_MEASURE_WAKEUP_PCT)
		return fail(c, pct->start_mark, "percentile with unit '%s' (expected unit us: wakeup latency)", w->metric_unit);
	if (from && w->metric.measure != SS_MEASURE_FINISH)
		return fail(c, from->start_mark, "from with unit '%s' (expected unit s: the time until every task has exited)",
			    w->metric_unit);
	if (c->metric_roles && w->metric.measure != SS_MEASURE_WAKEUP_PCT)
		return fail(c, c->metric_roles->start_mark, "roles with unit '%s' (expected unit us: wakeup latency)",
			    w->metric_unit);
	w->metric.name = w->metric_name;
	w->metric.unit = w->metric_unit;
	return true;
}

/*
 * instances_per_cpu: a positive decimal with at most 3 decimals, at most
 * 1000; or a fraction A/B of whole numbers (A, B in 1..10^6, A/B at most
 * 1000), kept exact: 1/28 = one instance per 28 CPUs.
 */
static bool parse_ipc(struct ctx *c, const yaml_node_t *n)
{
	const char *p;
	uint64_t ip, fp = 0, b;
	unsigned nd, nf = 0;

	if (!want_scalar(c, n, "instances_per_cpu"))
		return false;
	p = ss_yaml_sval(n);
	if (!scan_u64(&p, &ip, &nd) || nd == 0 || ip > 1000000)
		goto bad;
	while (*p == ' ')
		p++;
	if (*p == '/') {
		for (p++; *p == ' '; p++)
			;
		if (!scan_u64(&p, &b, &nd) || nd == 0 || *p || ip == 0 || b == 0 || b > 1000000 || ip > 1000 * b)
			goto bad;
		c->w->ipc_x1000 = (uint32_t)(ip * 1000);
		c->w->ipc_div = (uint32_t)b;
		return true;
	}
	if (ip > 1000)
		goto bad;
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++) {
			if (++nf > 3)
				goto bad;
			fp = fp * 10 + (uint64_t)(*p - '0');
		}
		if (nf == 0)
			goto bad;
	}
	for (; nf < 3; nf++)
		fp *= 10;
	if (*p || ip * 1000 + fp == 0 || ip * 1000 + fp > 1000000)
		goto bad;
	c->w->ipc_x1000 = (uint32_t)(ip * 1000 + fp);
	return true;
bad:
	return fail(c, n->start_mark,
		    "instances_per_cpu '%.*s' (expected a number greater than 0 and at most 1000, with at most 3 decimals, or a fraction A/B such as 1/28)",
		    ss_yaml_slen(n), ss_yaml_sval(n));
}

/* ------------------------------------------------------------ parameters */

/*
 * A file's `params` are integers with defaults; `--set workload.NAME=VALUE`
 * replaces a default before the file is read any further. Every scalar value
 * of the document (not keys, not the `params` block itself) may then use
 * them: $NAME stands for the value, ${EXPR} for an integer expression over
 * parameters and numbers (+ - * /, parentheses, unary minus; division
 * truncates toward zero), $$ for a '$'. The text substituted is decimal, so
 * "${cputime}us" becomes a duration and "1/${2 * num_fds}" a fraction; the
 * substituted scalar is then read as if the file had said it, and its errors
 * point at the scalar. Docs: docs/workloads.md "Parameters".
 */
#define MAX_PARAMS 64u
#define MAX_EXPR_DEPTH 32u

static bool ident_start(char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_';
}

static bool ident_char(char ch)
{
	return ident_start(ch) || (ch >= '0' && ch <= '9');
}

static struct ss_wl_param *param_find(const struct ss_workload *w, const char *name, size_t len)
{
	for (unsigned i = 0; i < w->nr_params; i++)
		if (strlen(w->params[i].name) == len && !strncmp(w->params[i].name, name, len))
			return &w->params[i];
	return NULL;
}

/* "(expected one of: a, b or c)" / "(the workload declares no params)" */
static char *param_expect(const struct ss_workload *w)
{
	GString *s;

	if (!w->nr_params)
		return g_strdup("the workload declares no params");
	s = g_string_new("expected one of: ");
	for (unsigned i = 0; i < w->nr_params; i++) {
		if (i)
			g_string_append(s, i + 1 < w->nr_params ? ", " : " or ");
		g_string_append(s, w->params[i].name);
	}
	return g_string_free(s, FALSE);
}

/* params: {NAME: INTEGER | {default: INTEGER, min: INTEGER, max: INTEGER, description: TEXT}, ...} */
static bool parse_params(struct ctx *c, const yaml_node_t *n)
{
	static const char *const keys[] = { "default", "min", "max", "description", NULL };
	struct ss_workload *w = c->w;
	ptrdiff_t nr;

	if (!want_kind(c, n, YAML_MAPPING_NODE, "a mapping of parameters {NAME: DEFAULT, ...}"))
		return false;
	nr = n->data.mapping.pairs.top - n->data.mapping.pairs.start;
	if ((size_t)nr > MAX_PARAMS)
		return fail(c, n->start_mark, "%d parameters (expected at most %u)", (int)nr, MAX_PARAMS);
	w->params = g_new0(struct ss_wl_param, nr ? nr : 1);
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);
		const yaml_node_t *defn = NULL, *minn = NULL;
		struct ss_wl_param *pm;
		const char *name;
		size_t len;

		if (!want_scalar(c, k, "a parameter name"))
			return false;
		name = ss_yaml_sval(k);
		len = strlen(name);
		if (!len || len > MAX_NAME_LEN || !ident_start(name[0]))
			goto bad_name;
		for (size_t i = 1; i < len; i++)
			if (!ident_char(name[i]))
				goto bad_name;
		if (param_find(w, name, len))
			return fail(c, k->start_mark, "duplicate parameter '%s' (expected each name once)", name);
		pm = &w->params[w->nr_params++];
		pm->name = g_strdup(name);
		pm->min = INT64_MIN;
		pm->max = INT64_MAX;
		if (v->type == YAML_SCALAR_NODE) {
			if (!parse_int(c, v, "parameter default", INT64_MIN, INT64_MAX, &pm->def))
				return false;
			defn = v;
		} else if (v->type == YAML_MAPPING_NODE) {
			bool seen[4] = { false };

			for (yaml_node_pair_t *q = v->data.mapping.pairs.start; q < v->data.mapping.pairs.top; q++) {
				const yaml_node_t *qk = node(c, q->key), *qv = node(c, q->value);

				switch (map_key(c, qk, keys, seen, "a parameter")) {
				case 0:
					if (!parse_int(c, qv, "parameter default", INT64_MIN, INT64_MAX, &pm->def))
						return false;
					defn = qv;
					break;
				case 1:
					if (!parse_int(c, qv, "parameter min", INT64_MIN, INT64_MAX, &pm->min))
						return false;
					minn = qv;
					break;
				case 2:
					if (!parse_int(c, qv, "parameter max", INT64_MIN, INT64_MAX, &pm->max))
						return false;
					break;
				case 3:
					if (!parse_text(c, qv, "parameter description", false, &pm->description))
						return false;
					break;
				default:
					return false;
				}
			}
			if (!defn)
				return fail(c, v->start_mark, "parameter '%s' has no 'default' (expected {default: N, ...})", name);
		} else {
			return fail(c, v->start_mark, "parameter '%s' is %s (expected an integer default or {default, min, max, description})",
				    name, ss_yaml_kind_name(v));
		}
		if (pm->min > pm->max)
			return fail(c, minn->start_mark, "parameter '%s' has min %" G_GINT64_FORMAT " above its max %" G_GINT64_FORMAT
				    " (expected min <= max)", name, pm->min, pm->max);
		if (pm->def < pm->min || pm->def > pm->max)
			return fail(c, defn->start_mark, "parameter '%s' default %" G_GINT64_FORMAT " is out of range (expected %"
				    G_GINT64_FORMAT "..%" G_GINT64_FORMAT ")", name, pm->def, pm->min, pm->max);
		pm->value = pm->def;
		if (!pm->description)
			pm->description = g_strdup("");
		continue;
bad_name:
		return fail(c, k->start_mark,
			    "parameter name '%.*s' is not a name (expected a letter or '_' followed by letters, digits or '_', at most %u characters)",
			    ss_yaml_slen(k), name, MAX_NAME_LEN);
	}
	return true;
}

/* Overrides "NAME=VALUE" (SS_ERROR_USAGE): a later one of a name wins. */
static bool apply_overrides(struct ctx *c)
{
	struct ss_workload *w = c->w;

	for (const char *const *a = c->set; a && *a; a++) {
		const char *eq = strchr(*a, '='), *p;
		struct ss_wl_param *pm;
		char *expect;
		bool neg = false;
		uint64_t v;
		unsigned nd;

		if (!eq || eq == *a) {
			g_set_error(c->err, SS_ERROR, SS_ERROR_USAGE,
				    "%s: parameter assignment '%s' is not NAME=VALUE (expected e.g. num_fds=14)", c->file, *a);
			return false;
		}
		pm = param_find(w, *a, (size_t)(eq - *a));
		if (!pm) {
			expect = param_expect(w);
			g_set_error(c->err, SS_ERROR, SS_ERROR_USAGE, "%s: no workload parameter '%.*s' (%s)", c->file,
				    (int)(eq - *a), *a, expect);
			g_free(expect);
			return false;
		}
		p = eq + 1;
		if (*p == '-' || *p == '+')
			neg = *p++ == '-';
		if (!scan_u64(&p, &v, &nd) || nd == 0 || *p || v > (uint64_t)INT64_MAX) {
			g_set_error(c->err, SS_ERROR, SS_ERROR_USAGE,
				    "%s: parameter %s = '%s' is not an integer in range (expected an integer in %" G_GINT64_FORMAT
				    "..%" G_GINT64_FORMAT ")", c->file, pm->name, eq + 1, pm->min, pm->max);
			return false;
		}
		int64_t x = neg ? -(int64_t)v : (int64_t)v;
		if (x < pm->min || x > pm->max) {
			g_set_error(c->err, SS_ERROR, SS_ERROR_USAGE,
				    "%s: parameter %s = %" G_GINT64_FORMAT " is out of range (expected %" G_GINT64_FORMAT "..%"
				    G_GINT64_FORMAT ")", c->file, pm->name, x, pm->min, pm->max);
			return false;
		}
		pm->value = x;
		pm->overridden = true;
	}
	return true;
}

/* ${EXPR}: recursive descent over e->p .. e->end */
struct expr {
	struct ctx *c;
	const yaml_node_t *n;     /* the scalar (error position) */
	const char *s, *p, *end;  /* the expression, the cursor */
};

static bool ex_fail(struct expr *e, const char *what, const char *expected)
{
	return fail(e->c, e->n->start_mark, "${%.*s} %s (expected %s)", (int)(e->end - e->s), e->s, what, expected);
}

static void ex_ws(struct expr *e)
{
	while (e->p < e->end && *e->p == ' ')
		e->p++;
}

static bool ex_sum(struct expr *e, int64_t *v, unsigned depth);

static bool ex_atom(struct expr *e, int64_t *v, unsigned depth)
{
	if (depth > MAX_EXPR_DEPTH)
		return ex_fail(e, "is nested too deeply", "at most 32 levels");
	ex_ws(e);
	if (e->p >= e->end)
		return ex_fail(e, "ends where a value should be", "a number, a parameter or '('");
	if (*e->p == '(') {
		e->p++;
		if (!ex_sum(e, v, depth + 1))
			return false;
		ex_ws(e);
		if (e->p >= e->end || *e->p != ')')
			return ex_fail(e, "has a '(' without its ')'", "balanced parentheses");
		e->p++;
		return true;
	}
	if (*e->p == '-') {
		e->p++;
		if (!ex_atom(e, v, depth + 1))
			return false;
		if (*v == INT64_MIN)
			return ex_fail(e, "overflows", "a result within 64-bit integers");
		*v = -*v;
		return true;
	}
	if (*e->p >= '0' && *e->p <= '9') {
		int64_t x = 0;

		for (; e->p < e->end && *e->p >= '0' && *e->p <= '9'; e->p++)
			if (__builtin_mul_overflow(x, 10, &x) || __builtin_add_overflow(x, *e->p - '0', &x))
				return ex_fail(e, "has a number too large", "a result within 64-bit integers");
		*v = x;
		return true;
	}
	if (ident_start(*e->p)) {
		const char *name = e->p;
		const struct ss_wl_param *pm;

		while (e->p < e->end && ident_char(*e->p))
			e->p++;
		pm = param_find(e->c->w, name, (size_t)(e->p - name));
		if (!pm) {
			char *expect = param_expect(e->c->w);
			bool ok = fail(e->c, e->n->start_mark, "${%.*s} uses an unknown parameter '%.*s' (%s)",
				       (int)(e->end - e->s), e->s, (int)(e->p - name), name, expect);
			g_free(expect);
			return ok;
		}
		*v = pm->value;
		return true;
	}
	{
		char what[48];

		snprintf(what, sizeof what, "has '%c' where a value should be", *e->p);
		return ex_fail(e, what, "a number, a parameter or '('");
	}
}

static bool ex_prod(struct expr *e, int64_t *v, unsigned depth)
{
	if (!ex_atom(e, v, depth))
		return false;
	for (;;) {
		int64_t r;
		char op;

		ex_ws(e);
		if (e->p >= e->end || (*e->p != '*' && *e->p != '/'))
			return true;
		op = *e->p++;
		if (!ex_atom(e, &r, depth))
			return false;
		if (op == '*') {
			if (__builtin_mul_overflow(*v, r, v))
				return ex_fail(e, "overflows", "a result within 64-bit integers");
		} else {
			if (r == 0)
				return ex_fail(e, "divides by zero", "a divisor other than 0");
			if (*v == INT64_MIN && r == -1)
				return ex_fail(e, "overflows", "a result within 64-bit integers");
			*v /= r;
		}
	}
}

static bool ex_sum(struct expr *e, int64_t *v, unsigned depth)
{
	if (!ex_prod(e, v, depth))
		return false;
	for (;;) {
		int64_t r;
		char op;

		ex_ws(e);
		if (e->p >= e->end || (*e->p != '+' && *e->p != '-'))
			return true;
		op = *e->p++;
		if (!ex_prod(e, &r, depth))
			return false;
		if (op == '+' ? __builtin_add_overflow(*v, r, v) : __builtin_sub_overflow(*v, r, v))
			return ex_fail(e, "overflows", "a result within 64-bit integers");
	}
}

/* Substitute $NAME, ${EXPR} and $$ in one scalar node (its text is replaced in the document). */
static bool expand_scalar(struct ctx *c, yaml_node_t *n)
{
	const char *s = ss_yaml_sval(n), *p = s;
	GString *out;
	char *text;

	if (!strchr(s, '$') || strlen(s) != n->data.scalar.length)
		return true;   /* nothing to do, or a NUL inside that the reader reports */
	out = g_string_new(NULL);
	while (*p) {
		int64_t v;

		if (*p != '$') {
			g_string_append_c(out, *p++);
			continue;
		}
		if (p[1] == '$') {
			g_string_append_c(out, '$');
			p += 2;
			continue;
		}
		if (p[1] == '{') {
			const char *close = strchr(p + 2, '}');
			struct expr e = { .c = c, .n = n, .s = p + 2, .p = p + 2, .end = close };

			if (!close) {
				g_string_free(out, TRUE);
				return fail(c, n->start_mark, "'%.*s' has a '${' without its '}' (expected ${EXPR})", ss_yaml_slen(n), s);
			}
			if (!ex_sum(&e, &v, 0)) {
				g_string_free(out, TRUE);
				return false;
			}
			ex_ws(&e);
			if (e.p != e.end) {
				char what[48];

				snprintf(what, sizeof what, "has '%c' where an operator should be", *e.p);
				g_string_free(out, TRUE);
				return ex_fail(&e, what, "+, -, * or / between values");
			}
			p = close + 1;
		} else if (ident_start(p[1])) {
			const char *name = p + 1, *q = name;
			const struct ss_wl_param *pm;

			while (ident_char(*q))
				q++;
			pm = param_find(c->w, name, (size_t)(q - name));
			if (!pm) {
				char *expect = param_expect(c->w);
				bool ok = fail(c, n->start_mark, "'%.*s' uses an unknown parameter '%.*s' (%s)", ss_yaml_slen(n), s,
					       (int)(q - name), name, expect);
				g_free(expect);
				g_string_free(out, TRUE);
				return ok;
			}
			v = pm->value;
			p = q;
		} else {
			g_string_free(out, TRUE);
			return fail(c, n->start_mark, "'%.*s' has a '$' that is not a parameter (expected $NAME, ${EXPR} or $$ for a '$')",
				    ss_yaml_slen(n), s);
		}
		g_string_append_printf(out, "%" G_GINT64_FORMAT, v);
	}
	/* the document frees its scalars with free(): give it a malloc'd copy */
	text = malloc(out->len + 1);
	if (!text) {
		g_string_free(out, TRUE);
		return fail(c, n->start_mark, "out of memory");
	}
	memcpy(text, out->str, out->len + 1);
	free(n->data.scalar.value);
	n->data.scalar.value = (yaml_char_t *)text;
	n->data.scalar.length = out->len;
	g_string_free(out, TRUE);
	return true;
}

/* Mark node i and everything below it (the `params` block is not substituted). */
static void mark_subtree(struct ctx *c, bool *mark, int i)
{
	const yaml_node_t *n = node(c, i);

	if (!n || mark[i])
		return;
	mark[i] = true;
	if (n->type == YAML_SEQUENCE_NODE)
		for (yaml_node_item_t *it = n->data.sequence.items.start; it < n->data.sequence.items.top; it++)
			mark_subtree(c, mark, *it);
	else if (n->type == YAML_MAPPING_NODE)
		for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
			mark_subtree(c, mark, pr->key);
			mark_subtree(c, mark, pr->value);
		}
}

/*
 * Before the file is read: its `params` (the first such key of the root),
 * the overrides, then the substitution in every scalar value outside the
 * `params` block. Mapping keys are never substituted.
 */
static bool prepare_params(struct ctx *c, yaml_node_t *root)
{
	int params = 0;
	int nr = (int)(c->doc->nodes.top - c->doc->nodes.start);
	bool *keep, ok = true;

	if (root->type == YAML_MAPPING_NODE)
		for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
			const yaml_node_t *k = node(c, pr->key);

			if (k->type == YAML_SCALAR_NODE && !strcmp(ss_yaml_sval(k), "params")) {
				params = pr->value;
				break;
			}
		}
	if (params && !parse_params(c, node(c, params)))
		return false;
	if (!apply_overrides(c))
		return false;
	keep = g_new0(bool, nr + 1);   /* node ids are 1..nr */
	for (int i = 1; i <= nr; i++) {
		const yaml_node_t *n = node(c, i);

		if (n->type == YAML_MAPPING_NODE)
			for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++)
				if (node(c, pr->key)->type == YAML_SCALAR_NODE)
					keep[pr->key] = true;
	}
	if (params)
		mark_subtree(c, keep, params);
	for (int i = 1; ok && i <= nr; i++) {
		yaml_node_t *n = node(c, i);

		if (!keep[i] && n->type == YAML_SCALAR_NODE)
			ok = expand_scalar(c, n);
	}
	g_free(keep);
	return ok;
}

static bool parse_top(struct ctx *c, const yaml_node_t *root)
{
	static const char *const keys[] = { "name", "description", "source", "instance",
					    "instances_per_cpu", "metric", "tasks", "shared", "params", NULL };
	static const char *const required[] = { "name", NULL, NULL, "instance", NULL, "metric", "tasks", NULL, NULL };
	static const char *const expect[] = { "the workload's name", NULL, NULL,
					      "what one instance is, e.g. instance: pair", NULL,
					      "metric: {name, unit, higher_is_better}",
					      "a list of task roles", NULL, NULL };
	bool seen[9] = { false };
	struct ss_workload *w = c->w;
	bool ok;

	if (!want_kind(c, root, YAML_MAPPING_NODE, "a workload mapping {name, instance, metric, tasks}"))
		return false;
	for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);

		switch (map_key(c, k, keys, seen, "the workload")) {
		case 0:
			ok = parse_text(c, v, "name", true, &w->name);
			break;
		case 1:
			ok = parse_text(c, v, "description", false, &w->description);
			break;
		case 2:
			ok = parse_text(c, v, "source", false, &w->source);
			break;
		case 3:
			ok = parse_ident(c, v, "instance", &w->instance);
			break;
		case 4:
			ok = parse_ipc(c, v);
			break;
		case 5:
			ok = parse_metric(c, v);
			break;
		case 6:
			ok = parse_tasks(c, v);
			break;
		case 7:
			ok = want_kind(c, v, YAML_SEQUENCE_NODE, "a list of mutex and barrier names");
			c->shared = v;
			break;
		case 8:
			ok = true;   /* read before everything else (prepare_params) */
			break;
		default:
			ok = false;
		}
		if (!ok)
			return false;
	}
	for (unsigned i = 0; i < G_N_ELEMENTS(required); i++)
		if (required[i] && !seen[i])
			return fail(c, root->start_mark, "workload has no '%s' (expected %s)", required[i],
				    expect[i]);
	if (!w->description)
		w->description = g_strdup("");
	if (!w->source)
		w->source = g_strdup("");
	return true;
}

static char *role_names(const struct ss_workload *w)
{
	GString *names = g_string_new(NULL);

	for (unsigned r = 0; r < w->nr_roles; r++)
		g_string_append_printf(names, "%s%s", r ? ", " : "", w->role[r].name);
	return g_string_free(names, FALSE);
}

static int sync_find(const GPtrArray *names, const char *name)
{
	for (guint i = 0; i < names->len; i++)
		if (!strcmp(g_ptr_array_index(names, i), name))
			return (int)i;
	return -1;
}

/*
 * Resolve names: wake/send/spawn targets (roles), mutexes and barriers (one
 * object per name; `shared` ones workload-wide, placed after the per-instance
 * ones). Then check the graph: a role that waits is woken by some role, a
 * role that receives has a channel and a sender, a send goes to a role with a
 * channel, a spawn to a `spawned` role and every `spawned` role is spawned.
 */
static bool resolve(struct ctx *c)
{
	struct ss_workload *w = c->w;
	bool *woken = g_new0(bool, w->nr_roles), *sent = g_new0(bool, w->nr_roles), *spawned = g_new0(bool, w->nr_roles);
	GPtrArray *names = g_ptr_array_new();         /* sync object names, first use order */
	GArray *kinds = g_array_new(FALSE, TRUE, sizeof(uint8_t));   /* 1 mutex, 2 barrier */
	GArray *marks = g_array_new(FALSE, TRUE, sizeof(yaml_mark_t));
	bool *is_shared = NULL;
	uint32_t *parties_mark = NULL;
	unsigned *map = NULL;
	bool ok = true;
	unsigned tpi = 0;

	for (unsigned r = 0; r < w->nr_roles; r++) {
		w->role[r].first = tpi;
		tpi += w->role[r].count;
		if (tpi > SS_WL_MAX_TASKS) {
			ok = fail(c, c->role_mark[r], "an instance has more than %u tasks (expected fewer)", SS_WL_MAX_TASKS);
			goto out;
		}
	}
	w->tasks_per_instance = tpi;

	for (guint i = 0; ok && i < c->fixups->len; i++) {
		const struct wake_fixup *fx = &g_array_index(c->fixups, struct wake_fixup, i);
		struct ss_wl_insn *in = &w->role[fx->role].insn[fx->pc];

		if (fx->kind == FX_LOCK || fx->kind == FX_UNLOCK || fx->kind == FX_BARRIER) {
			uint8_t kind = fx->kind == FX_BARRIER ? 2 : 1;
			int id = sync_find(names, fx->name);

			if (id < 0) {
				g_ptr_array_add(names, (gpointer)fx->name);
				g_array_append_val(kinds, kind);
				g_array_append_val(marks, fx->mark);
				id = (int)names->len - 1;
			} else if (g_array_index(kinds, uint8_t, id) != kind) {
				yaml_mark_t fm = g_array_index(marks, yaml_mark_t, id);

				ok = fail(c, fx->mark, "'%.*s' is used as a %s here and as a %s at line %zu (expected one name per object)",
					  SS_YAML_SHOW_LEN, fx->name, kind == 2 ? "barrier" : "mutex", kind == 2 ? "mutex" : "barrier",
					  fm.line + 1);
				break;
			}
			in->arg = (uint32_t)id;
			continue;
		}
		gpointer v = g_hash_table_lookup(c->role_index, fx->name);

		if (!v) {
			char *list = role_names(w);

			ok = fail(c, fx->mark, "%s of unknown role '%.*s' (expected one of: %s)",
				  fx->kind == FX_WAKE ? "wake" : fx->kind == FX_SEND ? "send" : "spawn", SS_YAML_SHOW_LEN, fx->name, list);
			g_free(list);
			break;
		}
		unsigned t = GPOINTER_TO_UINT(v) - 1;
		in->arg = t;
		if (fx->kind == FX_SPAWN) {
			if (!w->role[t].spawned) {
				ok = fail(c, fx->mark, "spawn of role '%s' that starts with the run (expected a role with spawned: true)",
					  w->role[t].name);
				break;
			}
			spawned[t] = true;
			continue;
		}
		if ((in->which == SS_WHICH_INDEX) && in->index >= w->role[t].count) {
			ok = fail(c, fx->index_mark, "which %u is not a task of role '%s' (expected 0..%u)", in->index,
				  w->role[t].name, w->role[t].count - 1);
			break;
		}
		if (fx->kind == FX_SEND) {
			if (!w->role[t].channel_capacity) {
				ok = fail(c, fx->mark, "send to role '%s' that has no channel (expected 'channel: N' in role '%s')",
					  w->role[t].name, w->role[t].name);
				break;
			}
			sent[t] = true;
		} else {
			woken[t] = true;
		}
	}
	for (unsigned r = 0; ok && r < w->nr_roles; r++) {
		if (c->waits[r] && !woken[r])
			ok = fail(c, c->wait_mark[r],
				  "task '%s' waits but no task wakes it (expected a 'wake: %s' in some program)",
				  w->role[r].name, w->role[r].name);
		else if (c->recvs[r] && !w->role[r].channel_capacity)
			ok = fail(c, c->recv_mark[r], "task '%s' receives but has no channel (expected 'channel: N' in its role)",
				  w->role[r].name);
		else if (c->recvs[r] && !sent[r])
			ok = fail(c, c->recv_mark[r], "task '%s' receives but no task sends to it (expected a 'send: %s' in some program)",
				  w->role[r].name, w->role[r].name);
		else if (w->role[r].spawned && !spawned[r])
			ok = fail(c, c->role_mark[r], "role '%s' is spawned: true but no program spawns it (expected a 'spawn: %s')",
				  w->role[r].name, w->role[r].name);
		else if (w->role[r].spawned && w->role[r].start_after_ns)
			ok = fail(c, c->role_mark[r], "role '%s' is spawned and has start_after (expected one of them)",
				  w->role[r].name);
	}
	if (!ok)
		goto out;

	/* shared names */
	is_shared = g_new0(bool, names->len ? names->len : 1);
	if (c->shared) {
		for (yaml_node_item_t *it = c->shared->data.sequence.items.start; it < c->shared->data.sequence.items.top; it++) {
			const yaml_node_t *n = node(c, *it);
			int id;

			if (!want_scalar(c, n, "a shared name")) {
				ok = false;
				goto out;
			}
			id = sync_find(names, ss_yaml_sval(n));
			if (id < 0) {
				ok = fail(c, n->start_mark, "shared '%.*s' is not a mutex or barrier of any program (expected a name used by lock or barrier)",
					  ss_yaml_slen(n), ss_yaml_sval(n));
				goto out;
			}
			if (is_shared[id]) {
				ok = fail(c, n->start_mark, "shared '%.*s' is listed twice (expected each name once)", ss_yaml_slen(n),
					  ss_yaml_sval(n));
				goto out;
			}
			is_shared[id] = true;
		}
	}
	/* objects: per-instance first, then shared, each in first-use order */
	w->nr_sync = names->len;
	w->sync = g_new0(struct ss_wl_sync, w->nr_sync ? w->nr_sync : 1);
	map = g_new0(unsigned, w->nr_sync ? w->nr_sync : 1);
	for (int pass = 0, k = 0; pass < 2; pass++)
		for (unsigned i = 0; i < names->len; i++) {
			if (is_shared[i] != (pass == 1))
				continue;
			map[i] = (unsigned)k;
			w->sync[k].name = g_strdup(g_ptr_array_index(names, i));
			w->sync[k].barrier = g_array_index(kinds, uint8_t, i) == 2;
			w->sync[k].shared = is_shared[i];
			if (pass == 0)
				w->nr_local_sync = (unsigned)k + 1;
			k++;
		}
	/* barrier parties: tasks per instance whose program names the barrier */
	parties_mark = g_new0(uint32_t, w->nr_sync ? w->nr_sync : 1);
	for (unsigned r = 0; r < w->nr_roles; r++) {
		for (unsigned i = 0; i < w->nr_sync; i++)
			parties_mark[i] = 0;
		for (uint32_t pc = 0; pc < w->role[r].nr_insn; pc++) {
			struct ss_wl_insn *in = &w->role[r].insn[pc];

			if (in->op != SS_OP_LOCK && in->op != SS_OP_UNLOCK && in->op != SS_OP_BARRIER)
				continue;
			in->arg = map[in->arg];
			if (in->op == SS_OP_BARRIER && !parties_mark[in->arg]) {
				parties_mark[in->arg] = 1;
				w->sync[in->arg].parties += w->role[r].count;
			}
		}
	}
	/* metric roles */
	if (c->metric_roles) {
		w->metric_roles = g_new0(bool, w->nr_roles);
		for (yaml_node_item_t *it = c->metric_roles->data.sequence.items.start;
		     it < c->metric_roles->data.sequence.items.top; it++) {
			const yaml_node_t *n = node(c, *it);
			gpointer v;

			if (!want_scalar(c, n, "a role name")) {
				ok = false;
				goto out;
			}
			v = g_hash_table_lookup(c->role_index, ss_yaml_sval(n));
			if (!v) {
				char *list = role_names(w);

				ok = fail(c, n->start_mark, "metric role '%.*s' is unknown (expected one of: %s)", ss_yaml_slen(n),
					  ss_yaml_sval(n), list);
				g_free(list);
				goto out;
			}
			w->metric_roles[GPOINTER_TO_UINT(v) - 1] = true;
		}
		w->metric.roles = w->metric_roles;
	}
out:
	g_free(woken);
	g_free(sent);
	g_free(spawned);
	g_free(is_shared);
	g_free(parties_mark);
	g_free(map);
	g_ptr_array_free(names, TRUE);
	g_array_free(kinds, TRUE);
	g_array_free(marks, TRUE);
	return ok;
}

struct ss_workload *ss_workload_load_string_params(const char *yaml, size_t len, const char *name,
						    const char *const *set, GError **err)
{
	struct ctx c = { .file = name ? name : "<string>", .err = err, .set = set };
	yaml_parser_t ps;
	yaml_document_t doc, extra;
	yaml_node_t *root;
	bool ok = false;

	if (!yaml)
		len = 0;
	if (!yaml_parser_initialize(&ps)) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: out of memory while reading YAML", c.file);
		return NULL;
	}
	yaml_parser_set_input_string(&ps, (const unsigned char *)(yaml ? yaml : ""), len);
	if (!ss_yaml_check_depth(err, c.file, yaml ? yaml : "", len)) {
		yaml_parser_delete(&ps);
		return NULL;
	}
	if (!yaml_parser_load(&ps, &doc)) {
		ss_yaml_syntax_error(err, c.file, &ps, yaml, len);
		yaml_parser_delete(&ps);
		return NULL;
	}
	c.doc = &doc;
	root = yaml_document_get_root_node(&doc);
	if (!root) {
		yaml_mark_t m = { 0 };

		fail(&c, m, "no workload in the file (expected a mapping with name, instance, metric and tasks)");
		goto out;
	}
	if (!yaml_parser_load(&ps, &extra)) {
		ss_yaml_syntax_error(err, c.file, &ps, yaml, len);
		goto out;
	}
	if (yaml_document_get_root_node(&extra)) {
		fail(&c, yaml_document_get_root_node(&extra)->start_mark,
		     "a second YAML document (expected one workload per file)");
		yaml_document_delete(&extra);
		goto out;
	}
	yaml_document_delete(&extra);

	c.w = g_new0(struct ss_workload, 1);
	c.w->ipc_x1000 = 1000;
	c.w->tables = g_ptr_array_new_with_free_func(g_free);
	c.role_index = g_hash_table_new(g_str_hash, g_str_equal);
	c.fixups = g_array_new(FALSE, FALSE, sizeof(struct wake_fixup));
	ok = prepare_params(&c, root) && parse_top(&c, root) && resolve(&c);
	g_hash_table_destroy(c.role_index);
	g_array_free(c.fixups, TRUE);
	g_free(c.waits);
	g_free(c.wait_mark);
	g_free(c.recvs);
	g_free(c.recv_mark);
	g_free(c.role_mark);
	g_free(c.channel_mark);
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&ps);
	if (!ok) {
		ss_workload_free(c.w);
		return NULL;
	}
	return c.w;
}

struct ss_workload *ss_workload_load_string(const char *yaml, size_t len, const char *name, GError **err)
{
	return ss_workload_load_string_params(yaml, len, name, NULL, err);
}

struct ss_workload *ss_workload_load_params(const char *path, const char *const *set, GError **err)
{
	struct ss_workload *w;
	char *text = NULL;
	size_t len = 0;
	char *found = ss_data_find("workloads", path);   /* a shipped workload's name (simsched/data.h) */

	if (found)
		path = found;
	if (!ss_read_input_file(path, "workload", &text, &len, err)) {
		g_free(found);
		return NULL;
	}
	if (ss_rtapp_detect(path, text, len)) {
		if (set && *set) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "%s: an rt-app file has no workload parameters (expected a YAML workload with params for '%s')",
				    path, *set);
			w = NULL;
		} else {
			w = ss_rtapp_load_string(text, len, path, err);   /* rt-app JSON: rtapp.c */
		}
	} else {
		w = ss_workload_load_string_params(text, len, path, set, err);
	}
	g_free(text);
	g_free(found);
	return w;
}

struct ss_workload *ss_workload_load(const char *path, GError **err)
{
	return ss_workload_load_params(path, NULL, err);
}

/*
 * workload_yaml.c — load a workload file (YAML, libyaml document API) and
 * compile each role's program to the instruction array of workload_priv.h.
 *
 * Every error names the file, line and column (1-based) of the offending
 * node: "file:line:col: what is wrong (what was expected)". The format is
 * documented in docs/workloads.md; keep the two in step.
 */
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <yaml.h>

#include "simsched/cpumask.h"
#include "simsched/error.h"
#include "ss_input.h"
#include "simsched/workload.h"
#include "workload_priv.h"

#define MAX_ROLES 4096u
#define MAX_TOTAL_INSN (1u << 20)   /* all roles together: bounds what aliases can expand to */
#define MAX_NAME_LEN 64u
#define SHOW_LEN 48                 /* characters of a bad value quoted in a message */

/* A wake whose role name is resolved once all roles are known. */
struct wake_fixup {
	uint32_t role, pc;
	const char *name;     /* inside the YAML document */
	yaml_mark_t mark;
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
	unsigned total_insn;
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

static const char *sval(const yaml_node_t *n)
{
	return (const char *)n->data.scalar.value;
}

/* Length to print of a scalar in a message (printf "%.*s"). */
static int slen(const yaml_node_t *n)
{
	return n->data.scalar.length > SHOW_LEN ? SHOW_LEN : (int)n->data.scalar.length;
}

static const char *kind_name(const yaml_node_t *n)
{
	switch (n->type) {
	case YAML_SCALAR_NODE:
		return "a scalar";
	case YAML_SEQUENCE_NODE:
		return "a list";
	case YAML_MAPPING_NODE:
		return "a mapping";
	default:
		return "nothing";
	}
}

/* A YAML null: empty plain scalar, "~" or "null". */
static bool is_null(const yaml_node_t *n)
{
	if (n->type != YAML_SCALAR_NODE || n->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
		return false;
	return !strcmp(sval(n), "") || !strcmp(sval(n), "~") || !strcmp(sval(n), "null") ||
	       !strcmp(sval(n), "Null") || !strcmp(sval(n), "NULL");
}

static bool want_scalar(struct ctx *c, const yaml_node_t *n, const char *what)
{
	if (n->type != YAML_SCALAR_NODE)
		return fail(c, n->start_mark, "%s is %s (expected %s)", what, kind_name(n), what);
	if (strlen(sval(n)) != n->data.scalar.length)
		return fail(c, n->start_mark, "%s contains a NUL character (expected text)", what);
	return true;
}

static bool want_kind(struct ctx *c, const yaml_node_t *n, yaml_node_type_t type, const char *what)
{
	if (n->type != type)
		return fail(c, n->start_mark, "%s is %s (expected %s)", what, kind_name(n), what);
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
		fail(c, k->start_mark, "a key in %s is %s (expected a plain key)", where, kind_name(k));
		return -1;
	}
	for (int i = 0; keys[i]; i++) {
		if (strcmp(sval(k), keys[i]))
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
	fail(c, k->start_mark, "unknown key '%.*s' in %s (expected one of: %s)", slen(k), sval(k), where,
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
	s = sval(n);
	len = strlen(s);
	if (len == 0)
		return fail(c, n->start_mark, "%s is empty (expected a name such as 'client')", what);
	if (len > MAX_NAME_LEN)
		return fail(c, n->start_mark, "%s '%.*s...' is too long (expected at most %u characters)",
			    what, SHOW_LEN, s, MAX_NAME_LEN);
	for (size_t i = 0; i < len; i++) {
		char ch = s[i];
		bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' ||
			  (i > 0 && ((ch >= '0' && ch <= '9') || ch == '-' || ch == '.'));

		if (!ok)
			return fail(c, n->start_mark,
				    "%s '%.*s' is not a name (expected a letter or '_' followed by letters, digits, '_', '-' or '.')",
				    what, slen(n), s);
	}
	*out = g_strdup(s);
	return true;
}

static bool parse_text(struct ctx *c, const yaml_node_t *n, const char *what, bool nonempty, char **out)
{
	if (!want_scalar(c, n, what))
		return false;
	if (nonempty && !sval(n)[0])
		return fail(c, n->start_mark, "%s is empty (expected some text)", what);
	*out = g_strdup(sval(n));
	return true;
}

static bool parse_bool(struct ctx *c, const yaml_node_t *n, const char *what, bool *out)
{
	static const char *const t[] = { "true", "True", "TRUE" }, *const f[] = { "false", "False", "FALSE" };

	if (!want_scalar(c, n, what))
		return false;
	for (unsigned i = 0; i < 3; i++) {
		if (!strcmp(sval(n), t[i])) {
			*out = true;
			return true;
		}
		if (!strcmp(sval(n), f[i])) {
			*out = false;
			return true;
		}
	}
	return fail(c, n->start_mark, "%s is '%.*s' (expected true or false)", what, slen(n), sval(n));
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
	s = sval(n);
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!scan_u64(&s, &v, &nd) || v > (uint64_t)INT64_MAX) {
		return fail(c, n->start_mark, "%s '%.*s' is out of range (expected %" G_GINT64_FORMAT "..%"
			    G_GINT64_FORMAT ")", what, slen(n), sval(n), lo, hi);
	}
	if (nd == 0 || *s)
		return fail(c, n->start_mark, "%s is '%.*s' (expected an integer in %" G_GINT64_FORMAT "..%"
			    G_GINT64_FORMAT ")", what, slen(n), sval(n), lo, hi);
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
			    kind_name(n));
	if (!want_scalar(c, n, what))
		return false;
	s = p = sval(n);
	if (*p == '-')
		return fail(c, n->start_mark,
			    "%s '%.*s' is negative (expected a positive duration such as 5us)", what,
			    slen(n), s);
	if (!scan_u64(&p, &ip, &nd))
		goto too_long;
	if (nd == 0)
		return fail(c, n->start_mark,
			    "%s '%.*s' is not a duration (expected a number and a unit: ns, us, ms or s, e.g. 5us)",
			    what, slen(n), s);
	if (*p == '.') {
		p++;
		for (; *p >= '0' && *p <= '9'; p++, nf++) {
			if (nf >= 9)
				return fail(c, n->start_mark,
					    "%s '%.*s' has too many decimals (expected at most 9)", what,
					    slen(n), s);
			fp = fp * 10 + (uint64_t)(*p - '0');
			pow10 *= 10;
		}
		if (nf == 0)
			return fail(c, n->start_mark,
				    "%s '%.*s' has no digits after '.' (expected e.g. 1.5ms)", what,
				    slen(n), s);
	}
	while (*p == ' ')
		p++;
	if (!*p)
		return fail(c, n->start_mark, "%s '%.*s' has no unit (expected ns, us, ms or s, e.g. 5us)",
			    what, slen(n), s);
	for (unsigned i = 0; i < G_N_ELEMENTS(units); i++)
		if (!strcmp(p, units[i].unit))
			mult = units[i].ns;
	if (!mult)
		return fail(c, n->start_mark,
			    "%s '%.*s' has an unknown unit '%s' (expected ns, us, ms or s)", what, slen(n),
			    s, p);
	if (ip > SS_WL_MAX_DURATION_NS / mult)
		goto too_long;
	/* fp < 10^9 and mult <= 10^9: the product fits in 64 bits */
	if ((fp * mult) % pow10)
		return fail(c, n->start_mark,
			    "%s '%.*s' is not a whole number of nanoseconds (expected a multiple of 1ns)",
			    what, slen(n), s);
	ns = ip * mult + fp * mult / pow10;
	if (ns > SS_WL_MAX_DURATION_NS)
		goto too_long;
	if (ns == 0)
		return fail(c, n->start_mark, "%s '%.*s' is zero (expected at least 1ns)", what, slen(n),
			    s);
	*out = ns;
	return true;
too_long:
	return fail(c, n->start_mark, "%s '%.*s' is too long (expected at most 1000000s)", what, slen(n), s);
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
	s = p = sval(n);
	if (*p == '-')
		return fail(c, n->start_mark, "%s '%.*s' is negative (expected a number and a unit: %s)", what,
			    slen(n), s, ulist);
	if (!scan_u64(&p, &ip, &nd))
		goto too_big;
	if (nd == 0)
		return fail(c, n->start_mark, "%s '%.*s' is not a number and a unit (expected one of: %s)",
			    what, slen(n), s, ulist);
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++, nf++) {
			if (nf >= 9)
				return fail(c, n->start_mark,
					    "%s '%.*s' has too many decimals (expected at most 9)", what, slen(n), s);
			fp = fp * 10 + (uint64_t)(*p - '0');
			pow10 *= 10;
		}
		if (nf == 0)
			return fail(c, n->start_mark, "%s '%.*s' has no digits after '.' (expected e.g. 1.5%s)",
				    what, slen(n), s, units[nr_units - 1].unit);
	}
	while (*p == ' ')
		p++;
	if (!*p)
		return fail(c, n->start_mark, "%s '%.*s' has no unit (expected one of: %s)", what, slen(n), s,
			    ulist);
	for (unsigned i = 0; i < nr_units; i++)
		if (!strcmp(p, units[i].unit))
			mult = units[i].mult;
	if (!mult)
		return fail(c, n->start_mark, "%s '%.*s' has an unknown unit '%s' (expected one of: %s)", what,
			    slen(n), s, p, ulist);
	if (ip > max / mult)
		goto too_big;
	/* fp < 10^9 and mult <= 2^30: the product fits in 64 bits */
	if ((fp * mult) % pow10)
		return fail(c, n->start_mark, "%s '%.*s' is not a whole number of %s (expected a multiple of 1%s)",
			    what, slen(n), s, base, base);
	v = ip * mult + fp * mult / pow10;
	if (v > max)
		goto too_big;
	*out = v;
	return true;
too_big:
	return fail(c, n->start_mark, "%s '%.*s' is too large (expected at most %" G_GUINT64_FORMAT "%s)", what,
		    slen(n), s, max, base);
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
	if (!strcmp(sval(n), "local")) {
		*node_out = -1;
		return true;
	}
	if (!(sval(n)[0] >= '0' && sval(n)[0] <= '9') && sval(n)[0] != '-' && sval(n)[0] != '+')
		return fail(c, n->start_mark, "memory_node is '%.*s' (expected a NUMA node number 0..%d or local)",
			    slen(n), sval(n), SS_WL_MAX_MEM_NODE);
	if (!parse_int(c, n, "memory_node", 0, SS_WL_MAX_MEM_NODE, &v))
		return false;
	*node_out = (int16_t)v;
	return true;
}

/* DURATION | {constant: D} | {exponential: MEAN} | {uniform: [MIN, MAX]} */
static bool parse_dist(struct ctx *c, const yaml_node_t *n, const char *what, struct ss_dist *d)
{
	static const char *const keys[] = { "constant", "exponential", "uniform", NULL };
	bool seen[3] = { false };
	const yaml_node_t *k, *v, *lo, *hi;
	int key;

	if (n->type == YAML_SCALAR_NODE) {
		d->kind = SS_DIST_CONST;
		d->b = 0;
		return parse_duration(c, n, what, &d->a);
	}
	if (n->type != YAML_MAPPING_NODE)
		return fail(c, n->start_mark,
			    "%s is %s (expected a duration such as 5us or one of {constant: D}, {exponential: MEAN}, {uniform: [MIN, MAX]})",
			    what, kind_name(n));
	if (n->data.mapping.pairs.top - n->data.mapping.pairs.start != 1)
		return fail(c, n->start_mark,
			    "%s has %d keys (expected exactly one of constant, exponential or uniform)",
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
				    v->type == YAML_SEQUENCE_NODE ? "not two items" : kind_name(v));
		lo = node(c, v->data.sequence.items.start[0]);
		hi = node(c, v->data.sequence.items.start[1]);
		d->kind = SS_DIST_UNIFORM;
		if (!parse_duration(c, lo, "uniform minimum", &d->a) ||
		    !parse_duration(c, hi, "uniform maximum", &d->b))
			return false;
		if (d->a > d->b)
			return fail(c, lo->start_mark,
				    "uniform minimum '%.*s' is larger than the maximum '%.*s' (expected [MIN, MAX] with MIN <= MAX)",
				    slen(lo), sval(lo), slen(hi), sval(hi));
		return true;
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

static bool compile_wake(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *v, yaml_mark_t m)
{
	static const char *const keys[] = { "task", "sync", NULL };
	bool seen[2] = { false };
	struct ss_wl_insn in = { .op = SS_OP_WAKE };
	const yaml_node_t *name = NULL;
	struct wake_fixup fx;

	if (v->type == YAML_MAPPING_NODE) {
		for (yaml_node_pair_t *pr = v->data.mapping.pairs.start; pr < v->data.mapping.pairs.top; pr++) {
			const yaml_node_t *k = node(c, pr->key), *val = node(c, pr->value);

			switch (map_key(c, k, keys, seen, "wake")) {
			case 0:
				name = val;
				break;
			case 1:
				if (!parse_bool(c, val, "sync", &in.sync))
					return false;
				break;
			default:
				return false;
			}
		}
		if (!name)
			return fail(c, v->start_mark, "wake has no 'task' (expected the name of a role to wake)");
	} else {
		name = v;
	}
	if (!want_scalar(c, name, "the role to wake"))
		return false;
	if (!sval(name)[0])
		return fail(c, name->start_mark, "wake names no role (expected the name of a role)");
	fx.role = role;
	fx.pc = code->len;
	fx.name = sval(name);
	fx.mark = name->start_mark;
	if (!emit(c, code, &in, m))
		return false;
	g_array_append_val(c->fixups, fx);
	return true;
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
			    "loop body never lets simulated time pass (expected a run, sleep or wait in it)");
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

static const char *const stmt_keys[] = { "run", "sleep", "wake", "wait", "loop", "transaction", NULL };

static bool compile_stmt(struct ctx *c, uint32_t role, GArray *code, const yaml_node_t *n,
			 unsigned depth, bool *has_time)
{
	bool seen[6] = { false };
	const yaml_node_t *k, *v;
	struct ss_wl_insn in = { 0 };
	ptrdiff_t npairs;

	if (n->type == YAML_SCALAR_NODE && !strcmp(sval(n), "wait"))
		return compile_wait(c, role, code, NULL, n->start_mark, has_time);
	if (n->type != YAML_MAPPING_NODE) {
		char *list = key_list(stmt_keys);

		if (n->type == YAML_SCALAR_NODE)
			fail(c, n->start_mark, "unknown statement '%.*s' (expected KEY: VALUE with KEY one of: %s)",
			     slen(n), sval(n), list);
		else
			fail(c, n->start_mark, "statement is %s (expected KEY: VALUE with KEY one of: %s)",
			     kind_name(n), list);
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
				    slen(k2), sval(k2), slen(k), sval(k), slen(k2), sval(k2));
		return fail(c, k2->start_mark, "statement has %d keys (expected one)", (int)npairs);
	}
	switch (map_key(c, k, stmt_keys, seen, "a program")) {
	case 0: /* run */
	case 1: /* sleep */
		in.op = strcmp(sval(k), "run") ? SS_OP_SLEEP : SS_OP_RUN;
		if (!parse_dist(c, v, in.op == SS_OP_RUN ? "run duration" : "sleep duration", &in.dist))
			return false;
		*has_time = true;
		return emit(c, code, &in, k->start_mark);
	case 2:
		return compile_wake(c, role, code, v, k->start_mark);
	case 3:
		return compile_wait(c, role, code, v, k->start_mark, has_time);
	case 4:
		return compile_loop(c, role, code, v, depth, has_time, k->start_mark);
	case 5:
		if (!want_scalar(c, v, "transaction mark"))
			return false;
		if (!strcmp(sval(v), "begin"))
			in.op = SS_OP_TXN_BEGIN;
		else if (!strcmp(sval(v), "end"))
			in.op = SS_OP_TXN_END;
		else
			return fail(c, v->start_mark, "transaction mark '%.*s' (expected begin or end)",
				    slen(v), sval(v));
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
			    kind_name(seq));
	for (yaml_node_item_t *it = seq->data.sequence.items.start; it < seq->data.sequence.items.top; it++)
		if (!compile_stmt(c, role, code, node(c, *it), depth, has_time))
			return false;
	return true;
}

/* start_cpu: N | "instance" | "K * instance" | "instance + B" | "K * instance + B" */
static bool parse_start_cpu(struct ctx *c, const yaml_node_t *n, struct ss_wl_role *r)
{
	const char *s, *p;
	uint64_t mul = 1, add = 0, v;
	unsigned nd;
	int64_t cpu;

	if (!want_scalar(c, n, "start_cpu"))
		return false;
	s = p = sval(n);
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
		    "start_cpu '%.*s' (expected a CPU number 0..%u or an expression [K *] instance [+ B] with K in 1..%u, B in 0..%u)",
		    slen(n), s, SS_MAX_CPUS - 1, SS_MAX_CPUS, SS_MAX_CPUS - 1);
}

static bool parse_role(struct ctx *c, uint32_t idx, const yaml_node_t *n)
{
	static const char *const keys[] = { "name", "nice", "start_cpu", "working_set", "memory_bandwidth",
					    "memory_node", "program", NULL };
	bool seen[7] = { false }, has_time = false;
	struct ss_wl_role *r = &c->w->role[idx];
	const yaml_node_t *prog = NULL, *name = NULL;
	GArray *code;
	int64_t nice;

	if (!want_kind(c, n, YAML_MAPPING_NODE, "a task role {name, program}"))
		return false;
	r->start = SS_START_ANY;
	r->mem_node = -1;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);

		switch (map_key(c, k, keys, seen, "a task")) {
		case 0:
			if (!parse_ident(c, v, "task name", &r->name))
				return false;
			name = v;
			break;
		case 1:
			if (!parse_int(c, v, "nice", -20, 19, &nice))
				return false;
			r->nice = (int)nice;
			break;
		case 2:
			if (!parse_start_cpu(c, v, r))
				return false;
			break;
		case 3:
			if (!parse_working_set(c, v, &r->working_set_kib))
				return false;
			break;
		case 4:
			if (!parse_mem_bw(c, v, &r->mem_bw_mbps))
				return false;
			break;
		case 5:
			if (!parse_mem_node(c, v, &r->mem_node))
				return false;
			break;
		case 6:
			prog = v;
			break;
		default:
			return false;
		}
	}
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
	for (ptrdiff_t i = 0; i < nr; i++)
		if (!parse_role(c, (uint32_t)i, node(c, n->data.sequence.items.start[i])))
			return false;
	return true;
}

static bool parse_metric(struct ctx *c, const yaml_node_t *n)
{
	static const char *const keys[] = { "name", "unit", "higher_is_better", NULL };
	bool seen[3] = { false };
	struct ss_workload *w = c->w;

	if (!want_kind(c, n, YAML_MAPPING_NODE, "a metric {name, unit, higher_is_better}"))
		return false;
	for (yaml_node_pair_t *pr = n->data.mapping.pairs.start; pr < n->data.mapping.pairs.top; pr++) {
		const yaml_node_t *k = node(c, pr->key), *v = node(c, pr->value);
		bool ok;

		switch (map_key(c, k, keys, seen, "metric")) {
		case 0:
			ok = parse_text(c, v, "metric name", true, &w->metric_name);
			break;
		case 1:
			ok = parse_text(c, v, "metric unit", true, &w->metric_unit);
			/* what this version measures: transaction end marks per second */
			if (ok && strcmp(w->metric_unit, "transactions/s") != 0)
				return fail(c, v->start_mark,
					    "metric unit '%s' is not measured by this version (expected transactions/s: transaction end marks per second)",
					    w->metric_unit);
			break;
		case 2:
			ok = parse_bool(c, v, "higher_is_better", &w->metric.higher_is_better);
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
	w->metric.name = w->metric_name;
	w->metric.unit = w->metric_unit;
	return true;
}

/* instances_per_cpu: a positive decimal with at most 3 decimals, at most 1000. */
static bool parse_ipc(struct ctx *c, const yaml_node_t *n)
{
	const char *p;
	uint64_t ip, fp = 0;
	unsigned nd, nf = 0;

	if (!want_scalar(c, n, "instances_per_cpu"))
		return false;
	p = sval(n);
	if (!scan_u64(&p, &ip, &nd) || nd == 0 || ip > 1000)
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
		    "instances_per_cpu '%.*s' (expected a number greater than 0 and at most 1000, with at most 3 decimals)",
		    slen(n), sval(n));
}

static bool parse_top(struct ctx *c, const yaml_node_t *root)
{
	static const char *const keys[] = { "name", "description", "source", "instance",
					    "instances_per_cpu", "metric", "tasks", NULL };
	static const char *const required[] = { "name", NULL, NULL, "instance", NULL, "metric", "tasks" };
	static const char *const expect[] = { "the workload's name", NULL, NULL,
					      "what one instance is, e.g. instance: pair", NULL,
					      "metric: {name, unit, higher_is_better}",
					      "a list of task roles" };
	bool seen[7] = { false };
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

/* Resolve wake targets; a role that waits must be woken by some role. */
static bool resolve(struct ctx *c)
{
	struct ss_workload *w = c->w;
	bool *woken = g_new0(bool, w->nr_roles);
	bool ok = true;

	for (guint i = 0; ok && i < c->fixups->len; i++) {
		const struct wake_fixup *fx = &g_array_index(c->fixups, struct wake_fixup, i);
		gpointer v = g_hash_table_lookup(c->role_index, fx->name);

		if (!v) {
			GString *names = g_string_new(NULL);

			for (unsigned r = 0; r < w->nr_roles; r++)
				g_string_append_printf(names, "%s%s", r ? ", " : "", w->role[r].name);
			ok = fail(c, fx->mark, "wake of unknown role '%.*s' (expected one of: %s)", SHOW_LEN,
				  fx->name, names->str);
			g_string_free(names, TRUE);
			break;
		}
		w->role[fx->role].insn[fx->pc].arg = GPOINTER_TO_UINT(v) - 1;
		woken[GPOINTER_TO_UINT(v) - 1] = true;
	}
	for (unsigned r = 0; ok && r < w->nr_roles; r++)
		if (c->waits[r] && !woken[r])
			ok = fail(c, c->wait_mark[r],
				  "task '%s' waits but no task wakes it (expected a 'wake: %s' in some program)",
				  w->role[r].name, w->role[r].name);
	g_free(woken);
	return ok;
}

/* Line/column (0-based) of a byte offset, for reader errors that only carry an offset. */
static yaml_mark_t mark_at(const char *s, size_t len, size_t off)
{
	yaml_mark_t m = { 0 };

	for (size_t i = 0; i < off && i < len; i++) {
		if (s[i] == '\n') {
			m.line++;
			m.column = 0;
		} else if (((unsigned char)s[i] & 0xc0) != 0x80) {
			m.column++;
		}
	}
	m.index = off;
	return m;
}

static void syntax_error(const char *file, const yaml_parser_t *ps, const char *s, size_t len,
			 GError **err)
{
	yaml_mark_t m = ps->error == YAML_READER_ERROR ? mark_at(s, len, ps->problem_offset) : ps->problem_mark;
	const char *problem = ps->problem ? ps->problem : "malformed YAML";

	if (ps->error == YAML_MEMORY_ERROR) {
		g_set_error(err, SS_ERROR, SS_ERROR_IO, "%s: out of memory while reading YAML", file);
		return;
	}
	if (ps->context)
		g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: YAML syntax error: %s (%s at line %zu column %zu)",
			    file, m.line + 1, m.column + 1, problem, ps->context, ps->context_mark.line + 1,
			    ps->context_mark.column + 1);
	else
		g_set_error(err, SS_ERROR, SS_ERROR_PARSE, "%s:%zu:%zu: YAML syntax error: %s (expected valid YAML)",
			    file, m.line + 1, m.column + 1, problem);
}

struct ss_workload *ss_workload_load_string(const char *yaml, size_t len, const char *name, GError **err)
{
	struct ctx c = { .file = name ? name : "<string>", .err = err };
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
	if (!yaml_parser_load(&ps, &doc)) {
		syntax_error(c.file, &ps, yaml, len, err);
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
		syntax_error(c.file, &ps, yaml, len, err);
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
	c.role_index = g_hash_table_new(g_str_hash, g_str_equal);
	c.fixups = g_array_new(FALSE, FALSE, sizeof(struct wake_fixup));
	ok = parse_top(&c, root) && resolve(&c);
	g_hash_table_destroy(c.role_index);
	g_array_free(c.fixups, TRUE);
	g_free(c.waits);
	g_free(c.wait_mark);
out:
	yaml_document_delete(&doc);
	yaml_parser_delete(&ps);
	if (!ok) {
		ss_workload_free(c.w);
		return NULL;
	}
	return c.w;
}

struct ss_workload *ss_workload_load(const char *path, GError **err)
{
	struct ss_workload *w;
	char *text = NULL;
	size_t len = 0;

	if (!ss_read_input_file(path, "workload", &text, &len, err))
		return NULL;
	w = ss_workload_load_string(text, len, path, err);
	g_free(text);
	return w;
}

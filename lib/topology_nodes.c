/*
 * NUMA nodes by their firmware ids. A machine's nodes are indexed 0..N-1 in
 * file order inside the library (cpu[].node, the rows of the SLIT); users
 * name them as the firmware does (/sys/devices/system/node/nodeK, numactl
 * -N K), which an imported machine need not number in file order (nodes
 * 0,2 in package 0 and 1,3 in package 1 are written 0,2,1,3). Everything a
 * user types or reads goes through ss_node_id() and the functions here.
 */
#include "simsched/topology.h"
#include "simsched/error.h"

#include <stdlib.h>
#include <string.h>

int ss_topology_node_index(const struct ss_topology *t, uint64_t id)
{
	for (unsigned n = 0; n < t->nr_nodes; n++)
		if (ss_node_id(t, n) == id)
			return (int)n;
	return -1;
}

static int cmp_uint(const void *a, const void *b)
{
	unsigned x = *(const unsigned *)a, y = *(const unsigned *)b;

	return (x > y) - (x < y);
}

char *ss_topology_format_node_ids(const struct ss_topology *t, const uint64_t *node_mask)
{
	unsigned *ids = g_new(unsigned, t->nr_nodes ? t->nr_nodes : 1), k = 0;
	GString *s = g_string_new(NULL);

	for (unsigned n = 0; n < t->nr_nodes; n++)
		if (!node_mask || ss_cpumask_test(node_mask, n))
			ids[k++] = ss_node_id(t, n);
	qsort(ids, k, sizeof(unsigned), cmp_uint);
	for (unsigned i = 0; i < k;) {
		unsigned j = i;

		while (j + 1 < k && ids[j + 1] == ids[j] + 1)
			j++;
		g_string_append_printf(s, "%s%u", s->len ? "," : "", ids[i]);
		if (j > i)
			g_string_append_printf(s, "-%u", ids[j]);
		i = j + 1;
	}
	g_free(ids);
	return g_string_free(s, FALSE);
}

/* One decimal id of a node list (no sign, no spaces inside), 0..SS_MAX_NODE_ID. */
static bool parse_id(const char *s, const char *end, uint64_t *id)
{
	g_autofree char *tok = g_strndup(s, (gsize)(end - s));

	if (!*tok)
		return false;
	for (const char *p = tok; *p; p++)
		if (!g_ascii_isdigit(*p))
			return false;
	/* an id beyond the range is still a number: "has no node N" says more than "not a list" */
	if (!g_ascii_string_to_unsigned(tok, 10, 0, G_MAXUINT64, id, NULL))
		*id = G_MAXUINT64;
	return true;
}

static bool no_node(const struct ss_topology *t, uint64_t id, const char *what, GError **err)
{
	g_autofree char *ids = ss_topology_format_node_ids(t, NULL);

	if (id == G_MAXUINT64)
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "%s has no node %s (its node ids: %s)", t->name ? t->name : "the machine",
			    what, ids);
	else
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE, "%s has no node %" G_GUINT64_FORMAT " (its node ids: %s)",
			    t->name ? t->name : "the machine", id, ids);
	return false;
}

bool ss_topology_parse_nodes(const struct ss_topology *t, const char *list, uint64_t *node_mask, GError **err)
{
	gchar **items;
	bool ok = true;

	ss_cpumask_zero(node_mask, ss_cpumask_words(t->nr_nodes));
	items = g_strsplit(list ? list : "", ",", -1);
	if (!items[0])
		ok = false;
	for (gchar **it = items; ok && *it; it++) {
		char *item = g_strstrip(*it), *dash = strchr(item, '-');
		uint64_t a, b;
		int ia, ib;

		if (!(dash ? parse_id(item, dash, &a) && parse_id(dash + 1, dash + 1 + strlen(dash + 1), &b)
			   : parse_id(item, item + strlen(item), &a))) {
			ok = false;
			break;
		}
		if ((ia = ss_topology_node_index(t, a)) < 0) {
			g_autofree char *what = g_strndup(item, dash ? (gsize)(dash - item) : strlen(item));
			g_strfreev(items);
			return no_node(t, a, what, err);
		}
		if (!dash) {
			ss_cpumask_set(node_mask, (unsigned)ia);
			continue;
		}
		if ((ib = ss_topology_node_index(t, b)) < 0) {
			g_autofree char *what = g_strdup(dash + 1);
			g_strfreev(items);
			return no_node(t, b, what, err);
		}
		if (a > b) {
			g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
				    "node range %" G_GUINT64_FORMAT "-%" G_GUINT64_FORMAT " runs backwards (expected the lower id first)", a, b);
			g_strfreev(items);
			return false;
		}
		/* numactl: the range's nodes that exist (sparse ids leave gaps) */
		for (unsigned n = 0; n < t->nr_nodes; n++)
			if (ss_node_id(t, n) >= a && ss_node_id(t, n) <= b)
				ss_cpumask_set(node_mask, n);
	}
	g_strfreev(items);
	if (!ok) {
		g_autofree char *ids = ss_topology_format_node_ids(t, NULL);
		g_set_error(err, SS_ERROR, SS_ERROR_USAGE,
			    "not a node list (expected firmware node ids like 0-1 or 0,2, as numactl -N takes them; %s has nodes %s)",
			    t->name ? t->name : "the machine", ids);
	}
	return ok;
}

/* simsched sweep and report: spec errors at file:line:col, canonical keys,
 * shards that partition the grid, resume after a torn line, and the report's
 * merge (identical duplicates merged, conflicting ones named) whose tables
 * equal compare's. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "simsched/compare.h"
#include "simsched/error.h"
#include "simsched/sweep.h"

#define TOPO SS_SOURCE_DIR "/topologies/desktop-8c16t.yaml"
#define WL SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml"
#define HEAD "topologies: [" TOPO "]\nworkloads: [" WL "]\n"

#include "tmpdir.h"

G_GNUC_NO_INLINE static char *slurp(const char *path)
{
	char *t = NULL;
	assert_true(g_file_get_contents(path, &t, NULL, NULL));
	return t;
}

static int cmp_strp(gconstpointer a, gconstpointer b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* the lines of files, sorted, joined */
static char *sorted(const char *const *paths)
{
	GPtrArray *all = g_ptr_array_new_with_free_func(g_free);
	for (; *paths; paths++) {
		char *t = slurp(*paths);
		gchar **l = g_strsplit(t, "\n", -1);
		for (gchar **x = l; *x; x++)
			if (**x)
				g_ptr_array_add(all, g_strdup(*x));
		g_strfreev(l);
		g_free(t);
	}
	g_ptr_array_sort(all, cmp_strp);
	GString *s = g_string_new(NULL);
	for (unsigned i = 0; i < all->len; i++)
		g_string_append_printf(s, "%s\n", (char *)g_ptr_array_index(all, i));
	g_ptr_array_free(all, TRUE);
	return g_string_free(s, FALSE);
}

/* A bad spec gives "FILE:LINE:COL: ..." pointing at the offending node. */
static void expect_error(const char *name, const char *text, const char *where, const char *what)
{
	char *p = write_tmp(name, text);
	GError *err = NULL;
	struct ss_sweep_spec *s = ss_sweep_spec_load(p, &err);
	assert_null(s);
	assert_non_null(err);
	char *prefix = g_strdup_printf("%s:%s: ", p, where);
	if (strncmp(err->message, prefix, strlen(prefix)) || !strstr(err->message, what))
		fail_msg("%s: got '%s', expected '%s...%s'", name, err->message, prefix, what);
	g_free(prefix);
	g_error_free(err);
	g_free(p);
}

static void test_spec_errors(void **state)
{
	expect_error("pol.yaml", HEAD "policies: [sis_prop, bogus]\nloads: 50%\nseeds: 2\n", "3:22", "unknown policy 'bogus'");
	expect_error("load.yaml", HEAD "policies: [sis_prop]\nloads: [50%, 7x]\nseeds: 2\n", "4:14", "load '7x'");
	expect_error("bare.yaml", HEAD "policies: [sis_prop]\nloads: [50%, 75]\nseeds: 2\n", "4:14",
		     "load '75': a bare number is a fraction of one instance per CPU (0.5 = 50%), at most 1 (did you mean 75%?)");
	expect_error("barerange.yaml", HEAD "policies: [sis_prop]\nloads: 50..200/50\nseeds: 2\n", "4:8",
		     "loads '50..200/50': '50' is a bare number");
	expect_error("range.yaml", HEAD "policies: [sis_prop]\nloads: 200%..25%/25%\nseeds: 2\n", "4:8", "not a load range");
	expect_error("dupload.yaml", HEAD "policies: [sis_prop]\nloads: [50%, 0.5]\nseeds: 2\n", "4:8", "listed twice");
	expect_error("duppol.yaml", HEAD "policies: [sis_prop, sis_prop]\nloads: 50%\nseeds: 2\n", "3:22", "listed twice");
	expect_error("seeds.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: 0\n", "5:8", "seeds (a count)");
	expect_error("seedlist.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: [1, x]\n", "5:12", "seed is 'x'");
	expect_error("first.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: [1, 2]\nfirst_seed: 3\n", "6:13",
		     "first_seed goes with a seed count");
	expect_error("key.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseed: 2\n", "5:1", "unknown key 'seed'");
	expect_error("missing.yaml", HEAD "policies: [sis_prop]\nloads: 50%\n", "1:1", "no 'seeds'");
	expect_error("dur.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: 2\nduration: 5\n", "6:11", "duration is '5'");
	expect_error("set.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: 2\nset:\n  cost.ipi_ns: [1us, -3]\n", "7:22",
		     "set cost.ipi_ns=-3 for policy sis_prop");
	expect_error("setkey.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: 2\nset:\n  ipi: 3\n", "7:3", "not SECTION.KEY");
	expect_error("feat.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: 2\nsched_features: NO_BOGUS\n", "6:17",
		     "sched_features");
	expect_error("nodes.yaml", HEAD "policies: [sis_prop]\nloads: 50%\nseeds: 2\nnodes: 0-5\n", "6:8",
		     "nodes '0-5' on topology " TOPO ": desktop-8c16t has no node 5 (its node ids: 0)");
	expect_error("topo.yaml", "topologies: [nothere.yaml]\nworkloads: [" WL "]\npolicies: [sis_prop]\nloads: 50%\nseeds: 2\n",
		     "1:14", "topology 'nothere.yaml'");
	expect_error("syntax.yaml", "topologies: [" TOPO "\nworkloads: x\n", "2:10", "YAML syntax error");
	expect_error("list.yaml", "- a\n- b\n", "1:1", "expected a mapping");
	expect_error("empty.yaml", HEAD "policies: []\nloads: 50%\nseeds: 2\n", "3:11", "empty list");
	/* a file that is not there: an IO error without position */
	GError *err = NULL;
	assert_null(ss_sweep_spec_load("/nonexistent/sweep.yaml", &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	g_clear_error(&err);
}

static void test_keys_and_shards(void **state)
{
	/* the same grid with the set keys in another order has the same keys */
	char *a = write_tmp("ka.yaml", HEAD "policies: [sis_prop, sis_util]\nloads: [50%, 100%]\nseeds: 2\n"
					   "set:\n  cost.ipi_ns: [1us, 2us]\n  cost.context_switch_ns: [1us, 3us]\n");
	char *b = write_tmp("kb.yaml", HEAD "policies: [sis_prop, sis_util]\nloads: [50%, 100%]\nseeds: 2\n"
					   "set:\n  cost.context_switch_ns: [1us, 3us]\n  cost.ipi_ns: [1us, 2us]\n");
	GError *err = NULL;
	struct ss_sweep_spec *sa = ss_sweep_spec_load(a, &err), *sb = ss_sweep_spec_load(b, &err);
	assert_non_null(sa);
	assert_non_null(sb);
	assert_int_equal(ss_sweep_nr_points(sa), 2 * 2 * 2 * 2 * 2);
	GHashTable *ka = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
	for (uint64_t i = 0; i < ss_sweep_nr_points(sa); i++)
		g_hash_table_add(ka, ss_sweep_point_key(sa, i));
	assert_int_equal(g_hash_table_size(ka), 32);   /* every point its own key */
	for (uint64_t i = 0; i < ss_sweep_nr_points(sb); i++) {
		char *k = ss_sweep_point_key(sb, i);
		assert_true(g_hash_table_contains(ka, k));
		g_free(k);
	}
	/* seed fastest, then load: point 0 and 1 differ in the seed only */
	char *k0 = ss_sweep_point_key(sa, 0), *k1 = ss_sweep_point_key(sa, 1);
	assert_non_null(strstr(k0, "|seed=1|"));
	assert_non_null(strstr(k1, "|seed=2|"));
	assert_non_null(strstr(k0, "|set=cost.context_switch_ns=1us;cost.ipi_ns=1us"));
	g_free(k0);
	g_free(k1);
	g_hash_table_destroy(ka);
	ss_sweep_spec_free(sa);
	ss_sweep_spec_free(sb);
	g_free(a);
	g_free(b);

	unsigned k, n;
	assert_true(ss_sweep_parse_shard("2/3", &k, &n, &err));
	assert_int_equal(k, 2);
	assert_int_equal(n, 3);
	assert_false(ss_sweep_parse_shard("4/3", &k, &n, &err));
	g_clear_error(&err);
	assert_false(ss_sweep_parse_shard("0/3", &k, &n, &err));
	g_clear_error(&err);
	assert_false(ss_sweep_parse_shard("1/", &k, &n, &err));
	g_clear_error(&err);
}

#define SMALL HEAD "policies: [sis_prop, sis_util]\nloads: [50%, 100%]\nseeds: 2\nduration: 20ms\nwarmup: 10ms\n"

static bool run(const char *spec, const char *out, unsigned k, unsigned n, bool resume, unsigned jobs,
		struct ss_sweep_stats *st, GError **err)
{
	struct ss_sweep_spec *s = ss_sweep_spec_load(spec, err);
	assert_non_null(s);
	struct ss_sweep_opts o = { .out_path = out, .jobs = jobs, .shard_k = k, .shard_n = n, .resume = resume };
	bool ok = ss_sweep_run(s, &o, st, err);
	ss_sweep_spec_free(s);
	return ok;
}

static void test_shards_resume_report(void **state)
{
	char *spec = write_tmp("small.yaml", SMALL);
	char *full = g_build_filename(tmpdir, "full.jsonl", NULL), *s1 = g_build_filename(tmpdir, "s1.jsonl", NULL),
	     *s2 = g_build_filename(tmpdir, "s2.jsonl", NULL), *res = g_build_filename(tmpdir, "res.jsonl", NULL);
	struct ss_sweep_stats st;
	GError *err = NULL;

	assert_true(run(spec, full, 0, 0, false, 2, &st, &err));
	assert_int_equal(st.grid, 8);
	assert_int_equal(st.ran, 8);
	/* refuse to append without --resume */
	assert_false(run(spec, full, 0, 0, false, 1, &st, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "--resume"));
	g_clear_error(&err);
	/* --resume of a finished sweep runs nothing */
	assert_true(run(spec, full, 0, 0, true, 1, &st, &err));
	assert_int_equal(st.done_before, 8);
	assert_int_equal(st.ran, 0);

	/* two shards (one job each) hold the same records as the full run */
	assert_true(run(spec, s1, 1, 2, false, 1, &st, &err));
	assert_int_equal(st.shard, 4);
	assert_true(run(spec, s2, 2, 2, false, 1, &st, &err));
	const char *const fl[] = { full, NULL }, *const sh[] = { s1, s2, NULL };
	char *a = sorted(fl), *b = sorted(sh);
	assert_string_equal(a, b);
	g_free(b);

	/* a torn sweep: three whole records and half of a fourth; resume completes it */
	char *t = slurp(full);
	char *p = t;
	for (int i = 0; i < 3; i++)
		p = strchr(p, '\n') + 1;
	size_t keep = (size_t)(p - t) + 40;
	assert_true(g_file_set_contents(res, t, (gssize)keep, NULL));
	g_free(t);
	assert_true(run(spec, res, 0, 0, true, 2, &st, &err));
	assert_int_equal(st.torn_bytes, 40);
	assert_int_equal(st.done_before, 3);
	assert_int_equal(st.ran, 5);
	const char *const rl[] = { res, NULL };
	b = sorted(rl);
	assert_string_equal(a, b);
	g_free(b);

	/* a complete line that is not a record: an error naming it, the file untouched */
	char *bad = write_tmp("bad.jsonl", "{\"key\":\"x\",\"metrics\":{}}\nnot json\n");
	assert_false(run(spec, bad, 0, 0, true, 1, &st, &err));
	assert_non_null(strstr(err->message, "bad.jsonl:2: not a sweep record"));
	g_clear_error(&err);
	char *after = slurp(bad);
	assert_string_equal(after, "{\"key\":\"x\",\"metrics\":{}}\nnot json\n");
	g_free(after);

	/* report: the shards merged equal the full run, and compare's table */
	GPtrArray *warn = g_ptr_array_new_with_free_func(g_free);
	const char *const all[] = { full, s1, s2 };
	struct ss_report *r1 = ss_report_load(fl, 1, warn, &err), *r3 = ss_report_load(all, 3, warn, &err);
	assert_non_null(r1);
	assert_non_null(r3);
	assert_int_equal(ss_report_nr_records(r3), 8);
	assert_int_equal(warn->len, 0);
	char *t1 = ss_report_render(r1, SS_CMP_THROUGHPUT, NULL, "text", &err);
	char *t3 = ss_report_render(r3, SS_CMP_THROUGHPUT, NULL, "text", &err);
	assert_string_equal(t1, t3);
	for (int f = 0; f < 3; f++) {
		static const char *const fmts[] = { "markdown", "csv", "json" };
		char *x = ss_report_render(r3, SS_CMP_LATENCY_P99, NULL, fmts[f], &err);
		assert_non_null(x);
		g_free(x);
	}
	/* --policies reorders: the baseline column changes sign */
	const char *const rev[] = { "sis_util", "sis_prop", NULL };
	char *tr = ss_report_render(r3, SS_CMP_THROUGHPUT, rev, "text", &err);
	assert_non_null(strstr(tr, "sis_util                     sis_prop"));
	g_free(tr);

	struct ss_topology *topo = ss_topology_load(TOPO, &err);
	struct ss_workload *wl = ss_workload_load(WL, &err);
	static const char *const pols[2] = { "sis_prop", "sis_util" };
	static const unsigned loads[2] = { 5000, 10000 };
	struct ss_compare_spec cs = { 0 };
	cs.base.topo = topo;
	cs.base.wl = wl;
	ss_params_defaults(&cs.base.params, topo);
	cs.base.seed = 1;
	cs.base.warmup_ns = 10000000;
	cs.base.duration_ns = 20000000;
	cs.policies = pols;
	cs.nr_policies = 2;
	cs.loads = loads;
	cs.nr_loads = 2;
	cs.nr_seeds = 2;
	cs.jobs = 2;
	struct ss_compare_result *cr = ss_compare_run(&cs, &err);
	assert_non_null(cr);
	char *ct = ss_compare_render(cr, "text", &err);
	assert_non_null(strchr(t1, '\n'));
	assert_string_equal(strchr(t1, '\n') + 1, ct);   /* after the group's title line */
	g_free(ct);
	ss_compare_result_free(cr);
	ss_workload_free(wl);
	ss_topology_free(topo);
	g_free(t1);
	g_free(t3);
	ss_report_free(r1);
	ss_report_free(r3);

	/* a conflicting duplicate is an error naming both places */
	t = slurp(full);
	char *nl = strchr(t, '\n');
	*nl = '\0';
	char *m = strstr(t, "\"throughput\":");
	assert_non_null(m);
	m[13] = m[13] == '9' ? '8' : '9';
	char *line = g_strconcat(t, "\n", NULL);   /* as a whole line */
	char *conf = write_tmp("conflict.jsonl", line);
	g_free(line);
	g_free(t);
	const char *const cf[] = { full, conf };
	assert_null(ss_report_load(cf, 2, warn, &err));
	char *want = g_strdup_printf("%s:1: the point of %s:1 again, with other figures", conf, full);
	assert_non_null(strstr(err->message, want));
	g_free(want);
	g_clear_error(&err);

	/* a missing point: report names it; a torn last line is a warning */
	t = slurp(s1);
	char *cut = strrchr(t, '\n');
	*cut = '\0';
	cut = strrchr(t, '\n');
	cut[20] = '\0';   /* the last record half written */
	char *part = write_tmp("part.jsonl", t);
	g_free(t);
	const char *const pf[] = { part, s2 };
	struct ss_report *rp = ss_report_load(pf, 2, warn, &err);
	assert_non_null(rp);
	assert_int_equal(warn->len, 1);
	assert_non_null(strstr(g_ptr_array_index(warn, 0), "part.jsonl:4: last line has no end"));
	assert_int_equal(ss_report_nr_records(rp), 7);
	assert_null(ss_report_render(rp, SS_CMP_THROUGHPUT, NULL, "text", &err));
	assert_non_null(strstr(err->message, "no record of policy"));
	g_clear_error(&err);
	ss_report_free(rp);
	g_ptr_array_free(warn, TRUE);

	g_free(a);
	g_free(bad);
	g_free(conf);
	g_free(part);
	g_free(spec);
	g_free(full);
	g_free(s1);
	g_free(s2);
	g_free(res);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_spec_errors),
		cmocka_unit_test(test_keys_and_shards),
		cmocka_unit_test(test_shards_resume_report),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}

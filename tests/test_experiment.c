/*
 * Experiment files (docs/experiments.md): load-unit derivation (instances
 * that do not map 1:1 to CPUs), the loader's file:line:col errors, Δ with
 * its paired Student-t interval, INVALID propagation, the rules on
 * hand-made data, and the named checks on synthetic records.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <glib.h>
#include <glib/gstdio.h>

#include "simsched/experiment.h"
#include "simsched/features.h"
#include "simsched/error.h"
#include "simsched/topology.h"
#include "simsched/workload.h"

#define FIX SS_TEST_DATA "/experiments/"

static struct ss_experiment *load_ok(const char *path)
{
	GError *err = NULL;
	struct ss_experiment *x = ss_experiment_load(path, &err);
	if (!x)
		fail_msg("%s", err->message);
	return x;
}

/* ------------------------------------------------------------ load units */

static struct ss_workload *wl(const char *name, const char *const *set)
{
	GError *err = NULL;
	g_autofree char *p = g_strdup_printf("%s/workloads/%s", SS_SOURCE_DIR, name);
	struct ss_workload *w = ss_workload_load_params(p, set, &err);
	if (!w)
		fail_msg("%s", err->message);
	return w;
}

static unsigned load_for(const struct ss_workload *w, unsigned cpus, uint64_t n)
{
	GError *err = NULL;
	unsigned pct = 0;
	if (!ss_xp_load_for_instances(w, cpus, n, &pct, &err))
		fail_msg("%s", err->message);
	/* the run has exactly n instances: ss_workload_instantiate() agrees */
	struct ss_wl_plan *p = ss_workload_instantiate(w, pct, cpus, &err);
	assert_non_null(p);
	assert_int_equal(p->nr_instances, n);
	ss_wl_plan_free(p);
	return pct;
}

static void test_load_units(void **state)
{
	(void)state;
	/* tbench: a client + server per instance, 0.5 per CPU: 28 clients on 112 CPUs are 50 %, not 25 % */
	struct ss_workload *t = wl("tbench.yaml", NULL);
	assert_int_equal(load_for(t, 112, 28), 5000);
	assert_int_equal(load_for(t, 112, 224), 40000);
	assert_int_equal(load_for(t, 80, 1), 250);
	ss_workload_free(t);
	/* sysbench OLTP: 16 threads on K64 (64 CPUs) are 50 % */
	struct ss_workload *s = wl("sysbench-oltp.yaml", NULL);
	assert_int_equal(load_for(s, 64, 16), 5000);
	assert_int_equal(load_for(s, 64, 24), 7500);
	ss_workload_free(s);
	/* hackbench, 14 fds (28 tasks per group) on 112 CPUs: a group is 25 %; 20 fds on 80 CPUs: 50 % */
	static const char *const fds14[] = { "num_fds=14", NULL };
	struct ss_workload *h = wl("hackbench-process-pipes.yaml", fds14);
	for (unsigned g = 1; g <= 8; g++)
		assert_int_equal(load_for(h, 112, g), 2500 * g);
	ss_workload_free(h);
	struct ss_workload *h20 = wl("hackbench-process-sockets.yaml", NULL);
	assert_int_equal(load_for(h20, 80, 1), 5000);
	assert_int_equal(load_for(h20, 80, 7), 35000);
	/* more groups than 10000 % gives: an error naming the range */
	GError *err = NULL;
	unsigned pct;
	assert_false(ss_xp_load_for_instances(h20, 80, 1000000, &pct, &err));
	assert_non_null(strstr(err->message, "outside what --load 0.01%..10000% gives"));
	g_clear_error(&err);
	ss_workload_free(h20);
	/* netperf: one pair per CPU, the one workload here that does map 1:1 */
	struct ss_workload *n = wl("netperf-tcp-rr.yaml", NULL);
	assert_int_equal(load_for(n, 64, 64), 10000);
	/* the derivation's rounding is the instantiation's, load by load */
	for (unsigned l = 1; l <= 40000; l += 37)
		for (unsigned cpus = 1; cpus <= 130; cpus += 43) {
			struct ss_wl_plan *p = ss_workload_instantiate(n, l, cpus, &err);
			assert_int_equal(p->nr_instances, ss_xp_instances_at(n, l, cpus));
			ss_wl_plan_free(p);
		}
	ss_workload_free(n);
}

/* ------------------------------------------------------------ loader errors */

static const char good[] =
	"id: X\ntitle: t\ngrade: A\nsource: s\nkernel: \"6.6\"\nseed_kernel: v6.6\n"
	"topology: %s/machine-8.yaml\npolicies: [sis_prop, sis_util]\nseeds: 2\n"
	"series:\n  - name: a\n    workload: %s/workloads/netperf-tcp-rr.yaml\n    load: {unit: pairs}\n"
	"    loads: [2, 4]\n    real: [0.5, 20]\n    real_source: seeds/000_x.txt:12\n"
	"rules:\n  - {rule: direction}\n";

/* Write text (a printf format taking the fixture and source directories) as X.yaml; load; expect the error. */
static unsigned nr_mismatch;
static void expect_error(const char *text, const char *want)
{
	g_autofree char *dir = g_dir_make_tmp("ssxp-XXXXXX", NULL);
	g_autofree char *path = g_build_filename(dir, "X.yaml", NULL);
	g_autofree char *body = g_strdup_printf(text, SS_TEST_DATA "/experiments", SS_SOURCE_DIR);
	assert_true(g_file_set_contents(path, body, -1, NULL));
	GError *err = NULL;
	struct ss_experiment *x = ss_experiment_load(path, &err);
	if (x)
		fail_msg("loaded, expected %s", want);
	g_autofree char *full = g_strdup_printf("%s:%s", path, want);
	if (!g_str_has_prefix(err->message, full)) {
		print_message("got '%s', expected prefix '%s'\n", err->message, full);
		nr_mismatch++;
	}
	g_error_free(err);
	g_unlink(path);
	g_rmdir(dir);
}

static char *edit(const char *from, const char *to)
{
	GString *g = g_string_new(good);
	g_assert_nonnull(strstr(g->str, from));
	size_t at = (size_t)(strstr(g->str, from) - g->str);
	g_string_erase(g, (gssize)at, (gssize)strlen(from));
	g_string_insert(g, (gssize)at, to);
	return g_string_free(g, FALSE);
}

static void test_loader_errors(void **state)
{
	(void)state;
	struct {
		const char *from, *to, *want;
	} cases[] = {
		{ "grade: A\n", "grade: C\n", "3:8: grade 'C' (expected A or B)" },
		{ "source: s\n", "source: s\nbogus: 1\n", "5:1: unknown key 'bogus' in the experiment (expected one of:" },
		{ "id: X\n", "id: Y\n", "1:5: id 'Y' does not match the file name 'X'" },
		{ "kernel: \"6.6\"", "kernel: \"4.19\"", "5:9: kernel '4.19' (expected 6.6, 5.17 or newest)" },
		{ "[sis_prop, sis_util]", "[sis_prop, sis_bogus]", "8:22: unknown policy 'sis_bogus' (expected one of:" },
		{ "real: [0.5, 20]", "real: [0.5]", "15:11: real has 1 values for 2 loads" },
		{ "loads: [2, 4]", "loads: [2, 2.5]", "14:16: load 2.5 is not a whole number of pairs" },
		{ "loads: [2, 4]", "loads: [2, 2000]", "14:16: load 2000 pairs: 2000 pairs of workload netperf-tcp-rr on 8 CPUs is outside" },
		{ "seeds/000_x.txt:12", "the post", "16:18: real_source 'the post' is not seeds/FILE:LINE" },
		{ "{rule: direction}", "{rule: dance}", "18:12: unknown rule 'dance'" },
		{ "{rule: direction}", "{rule: peak, at: [3]}", "18:22: at 3 is not a load of series a" },
		{ "{rule: direction}", "{rule: direction, within: [2]}", "18:31: key 'within' does not go with rule direction" },
		{ "{rule: direction}", "{rule: counter, metric: busy_pct}", "18:5: rule counter needs min or max" },
		{ "{rule: direction}", "{rule: check, name: s99}", "18:25: unknown check 's99'" },
		{ "{rule: direction}", "{rule: direction}\nquick: {loads: [4], seeds: 2, duration: 10ms}",
		  "19:16: quick load 4 of series a has real sign + (expected a neutral load: real sign 0)" },
		{ "    load: {unit: pairs}", "    load: {unit: threads, param: workers}", "13:11: load has param without instances" },
		{ "seeds: 2", "seeds: [1, 1]", "9:12: seed 1 is listed twice" },
		{ "[sis_prop, sis_util]", "[sis_prop]",
		  "18:5: rule direction compares policies but the file has one (expected at least two policies, the baseline first)" },
		{ "{rule: direction}", "{rule: direction, policy: sis_prop}",
		  "18:31: policy 'sis_prop' is not a policy label of this file other than the baseline (expected a compared column)" },
		{ "{rule: direction}", "{rule: counter, metric: busy_pct, policy: bogus, max: 1}",
		  "18:47: policy 'bogus' is not a policy label of this file (expected a policy label)" },
		{ "    real_source", "    warmup: 3\n    real_source", "16:13: warmup is not a time" },
		{ "{rule: direction}", "{rule: check, name: s13_probe_identity}",
		  "18:3: check s13_probe_identity has no inputs (expected check: {fixtures: [{llc, pinned}, ...]})" },
		{ "{rule: direction}", "{rule: check, name: s13_mechanism_gate}\ncheck: {fixtures: [{llc: 3, pinned: 3}]}",
		  "19:8: fixtures without a s13_probe_identity rule" },
		{ "{rule: direction}", "{rule: check, name: s13_probe_identity}\ncheck: {fixtures: [{llc: 3, pinned: 4}]}",
		  "19:37: pinned 4 exceeds the LLC's 3 CPUs" },
		{ "{rule: direction}", "{rule: check, name: s13_probe_identity}\ncheck: {fixtures: [{llc: 3}]}",
		  "19:20: a fixture lacks a key (expected llc and pinned)" },
		{ "{rule: direction}", "{rule: check, name: s13_probe_identity}\n  - {rule: check, name: s13_probe_identity}\ncheck: {fixtures: [{llc: 3, pinned: 3}]}",
		  "19:5: a second check rule" },
	};
	for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
		g_autofree char *t = edit(cases[i].from, cases[i].to);
		expect_error(t, cases[i].want);
	}
	/* YAML syntax and an empty file */
	expect_error("id: [\n", "2:1: YAML syntax error");
	expect_error("", "1:1: no experiment in the file");
	assert_int_equal(nr_mismatch, 0);
	/* a counter may read the baseline's own figure */
	{
		g_autofree char *dir = g_dir_make_tmp("ssxp-XXXXXX", NULL);
		g_autofree char *path = g_build_filename(dir, "X.yaml", NULL);
		g_autofree char *t = edit("{rule: direction}", "{rule: counter, metric: busy_pct, policy: sis_prop, max: 100}");
		g_autofree char *body = g_strdup_printf(t, SS_TEST_DATA "/experiments", SS_SOURCE_DIR);
		assert_true(g_file_set_contents(path, body, -1, NULL));
		GError *err = NULL;
		struct ss_experiment *x = ss_experiment_load(path, &err);
		if (!x)
			fail_msg("counter on the baseline refused: %s", err->message);
		ss_experiment_free(x);
		g_unlink(path);
		g_rmdir(dir);
	}
}

/* ------------------------------------------------------------ Δ and its interval */

static cJSON *record(double v, bool hib, const char *metric2, double v2, int validity, double warmup)
{
	cJSON *o = cJSON_CreateObject();
	cJSON_AddStringToObject(o, "key", "k");
	cJSON_AddNumberToObject(o, "warmup_ns", warmup);
	cJSON *m = cJSON_AddObjectToObject(o, "metrics");
	cJSON_AddNumberToObject(m, "workload", v);
	cJSON_AddNumberToObject(m, "probes_per_call", 2);
	if (metric2)
		cJSON_AddNumberToObject(m, metric2, v2);
	cJSON *wm = cJSON_AddObjectToObject(o, "workload_metric");
	cJSON_AddBoolToObject(wm, "higher_is_better", hib);
	if (validity >= 0) {
		cJSON *va = cJSON_AddObjectToObject(o, "validity");
		cJSON_AddNumberToObject(va, "nr_idle_scan_written_ns", validity ? warmup + 1e9 : warmup / 2);
		cJSON_AddNumberToObject(va, "ended_ns", warmup + 1e9);
	}
	return o;
}

/* Fill every point of data with records: value of column p at load l and seed k from f(). */
typedef double (*valfn)(unsigned p, unsigned l, unsigned k);
static GPtrArray *fill(struct ss_xp_data *d, valfn f, bool hib, const char *m2, valfn f2, int validity)
{
	GPtrArray *keep = g_ptr_array_new_with_free_func((GDestroyNotify)cJSON_Delete);
	const struct ss_experiment *x = d->x;
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		for (unsigned p = 0; p < x->nr_policies; p++)
			for (unsigned l = 0; l < se->nr_loads; l++)
				for (unsigned k = 0; k < se->nr_seeds; k++) {
					cJSON *r = record(f(p, l, k), hib, m2, f2 ? f2(p, l, k) : 0, validity, 1e9);
					g_ptr_array_add(keep, r);
					d->records[s][((size_t)p * se->nr_loads + l) * se->nr_seeds + k] = r;
				}
	}
	return keep;
}

static const double base3[] = { 100, 110, 90 };
static double ten_pct(unsigned p, unsigned l, unsigned k)
{
	/* the new column 10 % above the base, with per-seed differences 10, 11, 9 */
	return p ? base3[k] * 1.1 : base3[k];
}

static void test_delta_interval(void **state)
{
	(void)state;
	struct ss_experiment *x = load_ok(FIX "T03.yaml");   /* 3 seeds */
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = fill(d, ten_pct, true, NULL, NULL, 0);
	ss_xp_data_compute(d);
	const struct ss_xp_cell *c = &d->cells[0][1 * x->series[0].nr_loads + 0];
	assert_true(c->have);
	assert_false(c->unknown_validity);
	/* mean diff 10 on a base mean of 100: +10 %; half width t(2) = 4.303 × 1/√3 */
	assert_true(fabs(c->delta - 10.0) < 1e-9);
	assert_true(fabs(c->lo - (10.0 - 4.303 / sqrt(3.0))) < 1e-9);
	assert_true(fabs(c->hi - (10.0 + 4.303 / sqrt(3.0))) < 1e-9);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	/* lower is better: the same numbers are a 10 % loss, the interval mirrored */
	d = ss_xp_data_new(x);
	keep = fill(d, ten_pct, false, NULL, NULL, -1);
	ss_xp_data_compute(d);
	c = &d->cells[0][1 * x->series[0].nr_loads + 0];
	assert_true(fabs(c->delta + 10.0) < 1e-9);
	assert_true(fabs(c->hi + (10.0 - 4.303 / sqrt(3.0))) < 1e-9);
	assert_true(c->unknown_validity);   /* records without validity fields: cannot tell */
	struct ss_xp_grade *g = ss_xp_grade(d);
	assert_true(g->validity_unknown);
	ss_xp_grade_free(g);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
}

static double step(unsigned p, unsigned l, unsigned k)
{
	/* T03's shape: neutral below 12 pairs (index 5), +180 % from there, small seed noise */
	double b = 1000 + k;
	return p && l >= 5 ? b * 2.8 : b + (p ? 0.5 * k : 0);
}

static void test_rules_and_invalid(void **state)
{
	(void)state;
	struct ss_experiment *x = load_ok(FIX "T03.yaml");
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = fill(d, step, true, NULL, NULL, 0);
	ss_xp_data_compute(d);
	struct ss_xp_grade *g = ss_xp_grade(d);
	for (unsigned i = 0; i < g->nr_rules; i++)
		print_message("%s: %s %s\n", x->rules[i].id, ss_xp_status_name(g->rules[i].status), g->rules[i].why);
	/* tbench's series is flat: its contrast with the TCP_RR step passes; the counter ratio 2/2 < 3 fails (grade B) */
	assert_int_equal(g->status, SS_XP_PASS);
	assert_int_equal(g->rules[6].status, SS_XP_FAIL);
	assert_non_null(strstr(g->rules[6].why, "probes_per_call ratio sis_prop = 1"));
	ss_xp_grade_free(g);
	/* one invalid point (window before nr_idle_scan was written): every rule reading it is INVALID, never FAIL */
	cJSON *bad = record(1000, true, NULL, 0, 1, 1e9);
	d->records[0][(1 * x->series[0].nr_loads + 3) * 3 + 1] = bad;
	ss_xp_data_compute(d);
	g = ss_xp_grade(d);
	assert_int_equal(g->status, SS_XP_INVALID);
	assert_int_equal(g->rules[0].status, SS_XP_INVALID);
	assert_non_null(strstr(g->rules[0].why, "TCP_RR 8 pairs: window starts at 1.000 s, before every LLC's nr_idle_scan was written (2.000 s)"));
	assert_int_equal(g->rules[3].status, SS_XP_PASS);   /* the tbench rule reads no invalid point */
	assert_non_null(strstr(g->why, "direction#1: "));
	ss_xp_grade_free(g);
	cJSON_Delete(bad);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
}

/* A rule reading a figure the records lack: INVALID "metric X not available", not a crash. */
static void test_unknown_metric(void **state)
{
	(void)state;
	struct ss_experiment *x = load_ok(FIX "T01.yaml");
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = fill(d, ten_pct, true, NULL, NULL, 0);
	ss_xp_data_compute(d);
	struct ss_xp_grade *g = ss_xp_grade(d);
	assert_int_equal(g->rules[3].status, SS_XP_INVALID);
	assert_string_equal(g->rules[3].why, "metric no_such_figure not available");
	ss_xp_grade_free(g);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
}

/* The one reader of the validity fields: valid, INVALID (late budget, run over early, deadlock), cannot tell. */
static void test_record_validity(void **state)
{
	(void)state;
	char *why = NULL;
	cJSON *r = record(1, true, NULL, 0, 0, 1e9);
	assert_int_equal(ss_xp_record_validity(r, &why), 0);
	cJSON_Delete(r);
	r = record(1, true, NULL, 0, -1, 1e9);
	assert_int_equal(ss_xp_record_validity(r, &why), 2);
	cJSON_AddNullToObject(r, "nr_idle_scan_written_ns");
	cJSON_AddNumberToObject(r, "ended_ns", 5e8);
	assert_int_equal(ss_xp_record_validity(r, &why), 1);
	assert_string_equal(why, "nr_idle_scan never written by a periodic balance");
	g_free(why);
	cJSON_ReplaceItemInObject(r, "nr_idle_scan_written_ns", cJSON_CreateNumber(2e8));
	assert_int_equal(ss_xp_record_validity(r, &why), 1);
	assert_string_equal(why, "run ended at 0.500 s, before its window (1.000 s)");
	g_free(why);
	/* a finish-time run measured from its first begin at 2 ms (window_start_ns), whatever the 1 s warmup:
	 * it ended after its window began, but the budget was written later than that */
	cJSON_AddNumberToObject(r, "window_start_ns", 2e6);
	assert_int_equal(ss_xp_record_validity(r, &why), 1);
	assert_string_equal(why, "window starts at 0.002 s, before every LLC's nr_idle_scan was written (0.200 s)");
	g_free(why);
	cJSON_ReplaceItemInObject(r, "nr_idle_scan_written_ns", cJSON_CreateNumber(0));
	why = NULL;
	assert_int_equal(ss_xp_record_validity(r, &why), 0);
	assert_null(why);
	cJSON_AddNumberToObject(r, "deadlock_at_ns", 3e9);
	assert_int_equal(ss_xp_record_validity(r, &why), 1);
	assert_string_equal(why, "the run deadlocked at 3.000 s");
	g_free(why);
	cJSON_Delete(r);
}

/* ------------------------------------------------------------ named checks on synthetic records */

static double flat(unsigned p, unsigned l, unsigned k)
{
	return 1000 + k;
}
static double s13_rate_low(unsigned p, unsigned l, unsigned k)
{
	return 0.5;
}
static double up8(unsigned p, unsigned l, unsigned k)
{
	return p ? 1080 + k : 1000 + k;
}

static enum ss_xp_status grade_with(const char *file, valfn f, const char *m2, valfn f2, char **why)
{
	struct ss_experiment *x = load_ok(file);
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = fill(d, f, true, m2, f2, 0);
	ss_xp_data_compute(d);
	struct ss_xp_grade *g = ss_xp_grade(d);
	enum ss_xp_status st = g->status;
	*why = g_strdup(g->why);
	ss_xp_grade_free(g);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
	return st;
}

static void test_check_s13(void **state)
{
	(void)state;
	char *why = NULL;
	/* no full-mask fails and no effect: PASS */
	assert_int_equal(grade_with(FIX "T13.yaml", flat, "full_mask_fail_pct", s13_rate_low, &why), SS_XP_PASS);
	g_free(why);
	/* no full-mask fails but +8 %: an effect without the mechanism */
	assert_int_equal(grade_with(FIX "T13.yaml", up8, "full_mask_fail_pct", s13_rate_low, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "full-mask fails 0.50% < 2% but |Δ| = 8.0% > 2% (an effect without the mechanism)"));
	g_free(why);
	/* records without the counter: INVALID, named */
	assert_int_equal(grade_with(FIX "T13.yaml", flat, NULL, NULL, &why), SS_XP_INVALID);
	assert_non_null(strstr(why, "metric full_mask_fail_pct not available"));
	g_free(why);
}

static double s13_rate_high(unsigned p, unsigned l, unsigned k)
{
	return 50;
}
static double down8(unsigned p, unsigned l, unsigned k)
{
	return p ? 920 + k : 1000 + k;
}

static void test_check_s13_gate_open(void **state)
{
	(void)state;
	char *why = NULL;
	/* half the calls fail the full mask: 0.5 × 50 ns saved − 10 ns mask op > 0, so a gain passes, a loss fails */
	assert_int_equal(grade_with(FIX "T13.yaml", up8, "full_mask_fail_pct", s13_rate_high, &why), SS_XP_PASS);
	g_free(why);
	assert_int_equal(grade_with(FIX "T13.yaml", down8, "full_mask_fail_pct", s13_rate_high, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "against the sign of probe cost saved − mask-op cost (+15.0 ns per call)"));
	g_free(why);
}

/* S17: the first series gains ≥ 10 %; the control (its cost off) must stay within 3 % */
static double s17_ok(unsigned p, unsigned l, unsigned k)
{
	return p ? 1200 + k : 1000 + k;
}
static void test_check_s17(void **state)
{
	(void)state;
	struct ss_experiment *x = load_ok(FIX "T17.yaml");
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = fill(d, s17_ok, true, NULL, NULL, 0);
	ss_xp_data_compute(d);
	struct ss_xp_grade *g = ss_xp_grade(d);
	assert_int_equal(g->rules[0].status, SS_XP_PASS);
	assert_int_equal(g->rules[1].status, SS_XP_FAIL);   /* +20 % in the control too */
	assert_non_null(strstr(g->rules[1].why, "stream-off 4: |Δ| 20.0% > 3% with the cost off"));
	ss_xp_grade_free(g);
	/* the control flat: PASS */
	for (unsigned l = 0; l < 2; l++)
		for (unsigned k = 0; k < 2; k++) {
			cJSON *r = d->records[1][(1 * 2 + l) * 2 + k];
			cJSON_SetNumberHelper(cJSON_GetObjectItem(cJSON_GetObjectItem(r, "metrics"), "workload"), 1000 + k);
		}
	ss_xp_data_compute(d);
	g = ss_xp_grade(d);
	assert_int_equal(g->status, SS_XP_PASS);
	ss_xp_grade_free(g);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
}

/* S19: baseline idle-with-work 12 % after bursts, burst_threshold 6 % (−50 %), makespan equal */
static cJSON *s19_rec(double iww, double makespan)
{
	cJSON *o = record(1000, true, "burst_idle_with_work_pct", iww, 0, 1e9);
	cJSON_AddNumberToObject(cJSON_GetObjectItem(o, "metrics"), "burst_makespan_ns", makespan);
	return o;
}

static enum ss_xp_status s19(double base, double thr, double mk_thr, char **why)
{
	struct ss_experiment *x = load_ok(FIX "T19.yaml");
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = g_ptr_array_new_with_free_func((GDestroyNotify)cJSON_Delete);
	const struct ss_xp_series *se = &x->series[0];
	for (unsigned p = 0; p < 3; p++)
		for (unsigned l = 0; l < se->nr_loads; l++)
			for (unsigned k = 0; k < se->nr_seeds; k++) {
				cJSON *r = s19_rec(p == 1 ? thr : base, p == 1 ? mk_thr : 4e6);
				g_ptr_array_add(keep, r);
				d->records[0][((size_t)p * se->nr_loads + l) * se->nr_seeds + k] = r;
			}
	ss_xp_data_compute(d);
	struct ss_xp_grade *g = ss_xp_grade(d);
	enum ss_xp_status st = g->status;
	*why = g_strdup(g->why);
	ss_xp_grade_free(g);
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
	return st;
}

static void test_check_s19(void **state)
{
	(void)state;
	char *why = NULL;
	assert_int_equal(s19(12, 6, 4e6, &why), SS_XP_PASS);
	g_free(why);
	assert_int_equal(s19(12, 10, 4e6, &why), SS_XP_FAIL);   /* −17 %: less than 30 % */
	assert_non_null(strstr(why, "burst_threshold reduces idle-with-work from 12.0% to 10.0% (less than 30%)"));
	g_free(why);
	assert_int_equal(s19(3, 1, 4e6, &why), SS_XP_FAIL);     /* no symptom in the baseline */
	assert_non_null(strstr(why, "baseline idle-with-work after bursts 3.0% < 5%"));
	g_free(why);
	assert_int_equal(s19(12, 6, 5e6, &why), SS_XP_FAIL);    /* a longer makespan */
	assert_non_null(strstr(why, "makespan 5.000 ms under burst_threshold vs 4.000 ms"));
	g_free(why);
}

/*
 * S05's histogram rules on the shipped file: the mode of the time per call
 * in us buckets (sic_time_mode_ns, the bucket's lower bound) and the share
 * in [8, 512) us, per series; a record whose run had no call (null) makes
 * the rule INVALID with the reason, never PASS.
 */
static enum ss_xp_status s05(double mode_tcp, double mode_udp, double share, struct ss_xp_grade **out)
{
	struct ss_experiment *x = load_ok(SS_SOURCE_DIR "/experiments/S05.yaml");
	struct ss_xp_data *d = ss_xp_data_new(x);
	GPtrArray *keep = g_ptr_array_new_with_free_func((GDestroyNotify)cJSON_Delete);
	assert_int_equal(x->nr_policies, 1);
	for (unsigned s = 0; s < x->nr_series; s++) {
		const struct ss_xp_series *se = &x->series[s];
		double mode = strcmp(se->name, "TCP_RR") ? mode_udp : mode_tcp;
		for (unsigned k = 0; k < se->nr_seeds; k++) {
			cJSON *r = record(1000, true, "txn_latency_p99", 250000, 0, 1e9);
			cJSON *m = cJSON_GetObjectItem(r, "metrics");
			if (isnan(mode))
				cJSON_AddNullToObject(m, "sic_time_mode_ns");
			else
				cJSON_AddNumberToObject(m, "sic_time_mode_ns", mode);
			if (isnan(share))
				cJSON_AddNullToObject(m, "sic_time_8us_512us_pct");
			else
				cJSON_AddNumberToObject(m, "sic_time_8us_512us_pct", share);
			g_ptr_array_add(keep, r);
			d->records[s][k] = r;
		}
	}
	ss_xp_data_compute(d);
	struct ss_xp_grade *g = ss_xp_grade(d);
	enum ss_xp_status st = g->status;
	for (unsigned i = 0; i < g->nr_rules; i++)
		print_message("%s: %s %s\n", x->rules[i].id, ss_xp_status_name(g->rules[i].status), g->rules[i].why);
	*out = g;
	g_ptr_array_free(keep, TRUE);
	ss_xp_data_free(d);
	ss_experiment_free(x);
	return st;
}

/* the status of S05's rule i in g (file order: tcp-p99, udp-p99, tcp-mode, udp-mode, share), its why holding want_why */
static enum ss_xp_status s05_rule(const struct ss_xp_grade *g, unsigned i, const char *want_why)
{
	if (want_why && !strstr(g->rules[i].why, want_why))
		fail_msg("rule %u: '%s' lacks '%s'", i, g->rules[i].why, want_why);
	return g->rules[i].status;
}

static void test_s05_histogram_rules(void **state)
{
	(void)state;
	struct ss_xp_grade *g;
	/* the real histogram: mode [32, 64) us, 93 % in [8, 512) us */
	assert_int_equal(s05(32000, 32000, 93.2, &g), SS_XP_PASS);
	assert_int_equal(g->nr_rules, 5);
	ss_xp_grade_free(g);
	/* one bucket off either way passes; two do not */
	assert_int_equal(s05(16000, 64000, 50, &g), SS_XP_PASS);
	ss_xp_grade_free(g);
	assert_int_equal(s05(8000, 32000, 93.2, &g), SS_XP_FAIL);
	assert_int_equal(s05_rule(g, 2, "TCP_RR 224: sic_time_mode_ns sis_prop = 8e+03"), SS_XP_FAIL);
	assert_int_equal(s05_rule(g, 3, NULL), SS_XP_PASS);
	ss_xp_grade_free(g);
	assert_int_equal(s05(32000, 128000, 93.2, &g), SS_XP_FAIL);
	assert_int_equal(s05_rule(g, 3, "UDP_RR 224: sic_time_mode_ns sis_prop = 1.28e+05"), SS_XP_FAIL);
	ss_xp_grade_free(g);
	/* today's model: every call under 1 us (mode 0 ns, nothing in [8, 512) us) */
	assert_int_equal(s05(0, 0, 0, &g), SS_XP_FAIL);
	assert_int_equal(s05_rule(g, 2, "sic_time_mode_ns sis_prop = 0"), SS_XP_FAIL);
	assert_int_equal(s05_rule(g, 4, "TCP_RR 224: sic_time_8us_512us_pct sis_prop = 0"), SS_XP_FAIL);
	assert_int_equal(s05_rule(g, 4, "UDP_RR 224: sic_time_8us_512us_pct sis_prop = 0"), SS_XP_FAIL);
	assert_non_null(strstr(g->why, "tcp-mode-32-64us"));
	ss_xp_grade_free(g);
	/* runs without a select_idle_cpu() call: no value, INVALID with the reason */
	assert_int_equal(s05(NAN, 32000, NAN, &g), SS_XP_INVALID);
	assert_int_equal(s05_rule(g, 2, "metric sic_time_mode_ns has no value (no samples)"), SS_XP_INVALID);
	assert_int_equal(s05_rule(g, 3, NULL), SS_XP_PASS);
	assert_int_equal(s05_rule(g, 4, "metric sic_time_8us_512us_pct has no value (no samples)"), SS_XP_INVALID);
	ss_xp_grade_free(g);
}

/* S06 and S07 against the shipped files, and a wrong expectation of each fails. */
static void test_exact_checks(void **state)
{
	(void)state;
	struct ss_experiment *x6 = load_ok(SS_SOURCE_DIR "/experiments/S06.yaml");
	struct ss_experiment *x7 = load_ok(SS_SOURCE_DIR "/experiments/S07.yaml");
	char *why = NULL;
	assert_int_equal(ss_xp_check_s06_pelt(x6->s06, &why), SS_XP_PASS);
	assert_non_null(strstr(why, "slope 5.26 per %"));
	g_free(why);
	/* the fixtures run on the file's kernel: v6.6, whose SIS_UTIL they
	   compare; on v5.17 the sis_util fixture is refused (merged in v6.0) */
	assert_int_equal(x7->s07->kernel, SS_KERNEL_6_6);
	assert_int_equal(ss_xp_check_s07_budgets(x7->s07, &why), SS_XP_PASS);
	g_free(why);
	x7->s07->kernel = SS_KERNEL_5_17;
	assert_int_equal(ss_xp_check_s07_budgets(x7->s07, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "fixture llc 6, sis_util: policy 'sis_util' does not run on kernel v5.17"));
	assert_non_null(strstr(why, "llc 6 sis_prop: util 1024, nr_idle_scan 0, found/probes t0:-1/3 t1:-1/3 t2:5/3 t3:5/2 t4:5/1"));
	g_free(why);
	x7->s07->kernel = SS_KERNEL_6_6;
	/* S13's identity: one probe saved in each whole-mask fail of sis_prop (the
	   3-CPU LLC, all busy), nothing else changed; with the roles swapped the
	   "variant" probes one more and the identity fails */
	struct ss_experiment *x13 = load_ok(SS_SOURCE_DIR "/experiments/S13.yaml");
	assert_non_null(x13->s13);
	assert_int_equal(x13->s13->kernel, SS_KERNEL_5_17);
	assert_int_equal(ss_xp_check_s13_identity(x13->s13, &why), SS_XP_PASS);
	assert_non_null(strstr(why, "llc 3 pinned 3 found/probes sis_prop→sis_clear_target: t0:-1/3(whole mask)→-1/2 "));
	assert_non_null(strstr(why, "llc 6 pinned 5 found/probes sis_prop→sis_clear_target: t0:-1/3→-1/3 t1:-1/3→-1/3 t2:5/3→5/3"));
	assert_non_null(strstr(why, "28 calls, 3 whole-mask fails of sis_prop, 3 probes saved"));
	g_free(why);
	char *tmp = x13->s13->base;
	x13->s13->base = x13->s13->variant;
	x13->s13->variant = tmp;
	assert_int_equal(ss_xp_check_s13_identity(x13->s13, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "t0:-1/2(whole mask)→-1/3(expected -1/1)"));
	g_free(why);
	x13->s13->variant = x13->s13->base;
	x13->s13->base = tmp;
	ss_experiment_free(x13);
	/* a slope band the model misses, and a budget one off */
	x6->s06->slope_min = 6.0;
	assert_int_equal(ss_xp_check_s06_pelt(x6->s06, &why), SS_XP_FAIL);
	g_free(why);
	x7->s07->linear[3] = 96;   /* the thread's "112 - 2x" value at 8 % */
	assert_int_equal(ss_xp_check_s07_budgets(x7->s07, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "8%→95(expected 96)"));
	g_free(why);
	x7->s07->linear[3] = 95;
	x7->s07->quadratic[5] = 79;
	assert_int_equal(ss_xp_check_s07_budgets(x7->s07, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "47%→78(expected 79)"));
	g_free(why);
	x7->s07->quadratic[5] = 78;
	x7->s07->fixtures[0].found[1][4] = 5;   /* sis_util finding CPU5 from target 4 */
	assert_int_equal(ss_xp_check_s07_budgets(x7->s07, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "t4:-1/0(expected 5/0)"));
	g_free(why);
	ss_experiment_free(x6);
	ss_experiment_free(x7);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_load_units),
		cmocka_unit_test(test_loader_errors),
		cmocka_unit_test(test_delta_interval),
		cmocka_unit_test(test_rules_and_invalid),
		cmocka_unit_test(test_unknown_metric),
		cmocka_unit_test(test_record_validity),
		cmocka_unit_test(test_s05_histogram_rules),
		cmocka_unit_test(test_check_s13),
		cmocka_unit_test(test_check_s13_gate_open),
		cmocka_unit_test(test_check_s17),
		cmocka_unit_test(test_check_s19),
		cmocka_unit_test(test_exact_checks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/* simsched compare: statistics on constructed samples with known answers,
 * signs (positive = better in both directions), load parsing, and a small
 * real comparison whose table does not depend on the number of jobs. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include <stdio.h>

#include "simsched/compare.h"
#include "simsched/error.h"

static void test_paired_t(void **state)
{
	/* every pair differs by exactly 1: significant */
	double a1[3] = { 10, 11, 12 }, b1[3] = { 9, 10, 11 };
	assert_true(ss_paired_t_significant(a1, b1, 3));
	/* d = -1, 1, 3: mean 1, sd 2, t = 0.866 < t(0.975, 2) = 4.303 */
	double a2[3] = { 10, 12, 14 }, b2[3] = { 11, 11, 11 };
	assert_false(ss_paired_t_significant(a2, b2, 3));
	/* d = 2.0, 2.2, 1.8, 2.1, 1.9: mean 2, sd 0.158, t = 28.3 > 2.776 */
	double a3[5] = { 12.0, 12.2, 11.8, 12.1, 11.9 }, b3[5] = { 10, 10, 10, 10, 10 };
	assert_true(ss_paired_t_significant(a3, b3, 5));
	/* d = 1, 3 (n = 2): mean 2, sd 1.414, t = 2 < 12.706 */
	double a4[2] = { 11, 13 }, b4[2] = { 10, 10 };
	assert_false(ss_paired_t_significant(a4, b4, 2));
	/* identical samples and single samples are never significant */
	assert_false(ss_paired_t_significant(b3, b3, 5));
	assert_false(ss_paired_t_significant(a1, b1, 1));
}

static struct ss_compare_result *constructed(enum ss_cmp_metric m, const double *base, const double *other, unsigned n)
{
	static const char *const pols[2] = { "base", "new" };
	static const unsigned loads[1] = { 10000 };
	struct ss_compare_result *r = ss_compare_result_new(m, pols, 2, loads, 1, n);
	g_free(r->cells[0].values);
	g_free(r->cells[1].values);
	r->cells[0].values = g_memdup2(base, n * sizeof(double));
	r->cells[1].values = g_memdup2(other, n * sizeof(double));
	ss_compare_summarise(r);
	return r;
}

static void test_means_and_signs(void **state)
{
	/* higher is better: Hmean; 10 % more is +10 % */
	double b[3] = { 100, 100, 100 }, n[3] = { 110, 110, 110 };
	struct ss_compare_result *r = constructed(SS_CMP_THROUGHPUT, b, n, 3);
	assert_true(fabs(r->cells[1].diff_pct - 10.0) < 1e-9);
	assert_true(r->cells[1].significant);
	assert_true(fabs(r->cells[0].diff_pct) < 1e-12);
	ss_compare_result_free(r);
	/* lower is better (latency): 10 % less is +10 % */
	double n2[3] = { 90, 90, 90 };
	r = constructed(SS_CMP_LATENCY_P99, b, n2, 3);
	assert_true(fabs(r->cells[1].diff_pct - 10.0) < 1e-9);
	ss_compare_result_free(r);
	/* Hmean of 1, 2, 4 = 3 / 1.75; Amean for lower-is-better */
	double h[3] = { 1, 2, 4 };
	r = constructed(SS_CMP_THROUGHPUT, h, h, 3);
	assert_true(fabs(r->cells[0].mean - 3.0 / 1.75) < 1e-12);
	assert_false(r->cells[1].significant);
	/* CoeffVar = sample stddev / arithmetic mean: sd(1,2,4) = 1.5275, mean 7/3 */
	assert_true(fabs(r->cells[0].cov_pct - 100.0 * sqrt(7.0 / 3.0) / (7.0 / 3.0)) < 1e-9);
	ss_compare_result_free(r);
	r = constructed(SS_CMP_LATENCY_P50, h, h, 3);
	assert_true(fabs(r->cells[0].mean - 7.0 / 3.0) < 1e-12);
	/* the text table marks significance with asterisks and shows the baseline at 0.00 % */
	GError *err = NULL;
	char *txt = ss_compare_render(r, "text", &err);
	assert_non_null(strstr(txt, "Amean"));
	assert_non_null(strstr(txt, "(   0.00%)"));
	g_free(txt);
	assert_null(ss_compare_render(r, "xml", &err));
	g_clear_error(&err);
	ss_compare_result_free(r);
}

/*
 * A seed without a value (NAN: no samples in that run) makes its cell
 * missing: no mean, no % change, never "100 % better" than the baseline;
 * every format shows it as missing and says why. A baseline mean of 0 gives
 * no % change either.
 */
static void test_missing_values(void **state)
{
	GError *err = NULL;
	double b[3] = { 4.0, 4.2, 3.8 }, none[3] = { NAN, NAN, NAN }, one[3] = { 3.0, NAN, 3.2 };
	/* lower is better: a missing figure must not read as 0 = best */
	struct ss_compare_result *r = constructed(SS_CMP_PROBES_PER_CALL, b, none, 3);
	assert_int_equal(r->cells[0].nr_missing, 0);
	assert_int_equal(r->cells[1].nr_missing, 3);
	assert_true(isnan(r->cells[1].mean) && isnan(r->cells[1].diff_pct));
	assert_false(r->cells[1].significant);
	char *txt = ss_compare_render(r, "text", &err);
	assert_null(strstr(txt, "100.00%"));
	assert_non_null(strstr(txt, "Amean     100%                  4.00 (   0.00%)                            -\n"));
	assert_non_null(strstr(txt, "# \"-\": new has no probes_per_call at 100% (3 of 3 runs without samples of it"));
	g_free(txt);
	txt = ss_compare_render(r, "json", &err);
	assert_non_null(strstr(txt, "\"mean\":\tnull"));
	assert_non_null(strstr(txt, "\"missing_seeds\":\t3"));
	assert_non_null(strstr(txt, "\"notes\":"));
	g_free(txt);
	txt = ss_compare_render(r, "csv", &err);
	assert_non_null(strstr(txt, "\nprobes_per_call,100.00,new,,Amean,,0,,,;;\n"));
	g_free(txt);
	txt = ss_compare_render(r, "markdown", &err);
	assert_non_null(strstr(txt, "| Amean | 100% | 4.00 (   0.00%) | - |\n"));
	assert_non_null(strstr(txt, "\n- \"-\": new has no probes_per_call"));
	g_free(txt);
	ss_compare_result_free(r);

	/* one seed of three missing: the cell is missing (no mean over a subset of the seeds) */
	r = constructed(SS_CMP_PROBES_PER_CALL, b, one, 3);
	assert_int_equal(r->cells[1].nr_missing, 1);
	assert_true(isnan(r->cells[1].mean));
	ss_compare_result_free(r);

	/* the baseline missing: the other cell keeps its mean but has no % change */
	r = constructed(SS_CMP_PROBES_PER_CALL, none, b, 3);
	assert_true(fabs(r->cells[1].mean - 4.0) < 1e-12);
	assert_true(isnan(r->cells[1].diff_pct));
	txt = ss_compare_render(r, "text", &err);
	assert_non_null(strstr(txt, "4.00 (       -)"));
	assert_non_null(strstr(txt, "no % change against the baseline base at 100% (no baseline value)"));
	g_free(txt);
	ss_compare_result_free(r);

	/* a baseline mean of 0: no % change (was "100 % better" or "0 %"), unless the other is 0 too */
	double zero[3] = { 0, 0, 0 };
	r = constructed(SS_CMP_PROBES_PER_CALL, zero, b, 3);
	assert_true(isnan(r->cells[1].diff_pct));
	ss_compare_result_free(r);
	r = constructed(SS_CMP_PROBES_PER_CALL, zero, zero, 3);
	assert_true(r->cells[1].diff_pct == 0.0);
	ss_compare_result_free(r);
}

static void test_parse_loads(void **state)
{
	unsigned n;
	GError *err = NULL;
	unsigned *l = ss_cmp_parse_loads("25%..200%/25%", &n, &err);
	assert_non_null(l);
	assert_int_equal(n, 8);
	assert_int_equal(l[0], 2500);
	assert_int_equal(l[7], 20000);
	g_free(l);
	l = ss_cmp_parse_loads("50%,100%,0.25", &n, &err);
	assert_int_equal(n, 3);
	assert_int_equal(l[2], 2500);
	g_free(l);
	assert_null(ss_cmp_parse_loads("200%..25%/25%", &n, &err));
	g_clear_error(&err);
	assert_null(ss_cmp_parse_loads("25%..200%", &n, &err));
	/* a range without a step: the error shows the form it needs */
	assert_non_null(strstr(err->message, "a range needs a step, FROM..TO/STEP (e.g. 25%..200%/25%)"));
	g_clear_error(&err);
	assert_null(ss_cmp_parse_loads("25%,,50%", &n, &err));
	g_clear_error(&err);
	/* bare numbers above 1 in a list or a range: refused with the spec as it was probably meant */
	assert_null(ss_cmp_parse_loads("0.25,50,100", &n, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "--load '0.25,50,100': '50' is a bare number"));
	assert_non_null(strstr(err->message, "(did you mean 0.25,50%,100%?)"));
	g_clear_error(&err);
	assert_null(ss_cmp_parse_loads("25..200/25", &n, &err));
	assert_non_null(strstr(err->message, "'25' is a bare number"));
	assert_non_null(strstr(err->message, "(did you mean 25%..200%/25%?)"));
	g_clear_error(&err);
	assert_null(ss_cmp_parse_loads("25%..200%/25", &n, &err));
	assert_non_null(strstr(err->message, "(did you mean 25%..200%/25%?)"));
	g_clear_error(&err);
	l = ss_cmp_parse_loads("0.25..1/0.25", &n, &err);
	assert_non_null(l);
	assert_int_equal(n, 4);
	assert_int_equal(l[3], 10000);
	g_free(l);
	/* one load twice (also spelled differently) and more than the limit: usage errors naming it */
	assert_null(ss_cmp_parse_loads("50%,100%,0.5", &n, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "load 50% is given twice"));
	g_clear_error(&err);
	assert_null(ss_cmp_parse_loads("1%..1001%/1%", &n, &err));
	assert_non_null(strstr(err->message, "1001 loads asked, at most 1000"));
	g_clear_error(&err);
	l = ss_cmp_parse_loads("1%..1000%/1%", &n, &err);
	assert_int_equal(n, SS_CMP_MAX_LOADS);
	g_free(l);
	enum ss_cmp_metric m;
	assert_true(ss_cmp_metric_parse("latency_p99", &m, &err));
	assert_int_equal(m, SS_CMP_LATENCY_P99);
	assert_false(ss_cmp_metric_parse("nope", &m, &err));
	assert_non_null(strstr(err->message, "throughput"));
	g_clear_error(&err);
}

/* a real comparison: the rendered table is the same with 1 and 2 jobs */
static void test_jobs_do_not_change_results(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/desktop-8c16t.yaml", &err);
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml", &err);
	assert_non_null(t);
	assert_non_null(w);
	static const char *const pols[2] = { "sis_prop", "sis_util" };
	static const unsigned loads[2] = { 5000, 9000 };
	char *out[3];
	for (unsigned j = 1; j <= 3; j++) {
		struct ss_compare_spec s = { 0 };
		s.base.topo = t;
		s.base.wl = w;
		ss_params_defaults(&s.base.params, t);
		s.base.seed = 1;
		s.base.warmup_ns = 20000000;
		s.base.duration_ns = 30000000;
		s.policies = pols;
		s.nr_policies = 2;
		s.loads = loads;
		s.nr_loads = 2;
		s.nr_seeds = 2;
		s.jobs = j > 2 ? 1 : j;
		/* the workload's own figure: netperf's is throughput in transactions/s */
		s.metric = j > 2 ? SS_CMP_WORKLOAD : SS_CMP_THROUGHPUT;
		struct ss_compare_result *r = ss_compare_run(&s, &err);
		assert_non_null(r);
		out[j - 1] = ss_compare_render(r, "json", &err);
		ss_compare_result_free(r);
	}
	assert_string_equal(out[0], out[1]);
	assert_string_equal(out[0], out[2]);
	/* the library refuses a policy or a load twice before running anything */
	{
		static const char *const twice[2] = { "sis_util", "sis_util" };
		static const unsigned loads_twice[2] = { 5000, 5000 };
		struct ss_compare_spec s = { 0 };
		s.base.topo = t;
		s.base.wl = w;
		ss_params_defaults(&s.base.params, t);
		s.base.duration_ns = 30000000;
		s.policies = twice;
		s.nr_policies = 2;
		s.loads = loads;
		s.nr_loads = 2;
		s.nr_seeds = 1;
		assert_null(ss_compare_run(&s, &err));
		assert_int_equal(err->code, SS_ERROR_USAGE);
		assert_string_equal(err->message, "policy 'sis_util' is named twice (expected each policy once)");
		g_clear_error(&err);
		s.policies = pols;
		s.loads = loads_twice;
		assert_null(ss_compare_run(&s, &err));
		assert_string_equal(err->message, "load 50% is given twice (expected each load once)");
		g_clear_error(&err);
	}
	g_free(out[0]);
	g_free(out[1]);
	g_free(out[2]);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * A finish-time workload (hackbench): its figure is the time from its start
 * mark (the parent's transaction begin, `from: begin`) to the last exit
 * whatever the warmup, and compare reports it as the workload's own
 * figure: seconds, lower is better, Amean.
 */
static void test_finish_time_workload(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(SS_SOURCE_DIR "/topologies/kunpeng920.yaml", &err);
	struct ss_workload *w = ss_workload_load(SS_SOURCE_DIR "/workloads/hackbench-process-pipes.yaml", &err);
	static const char *const pols[2] = { "sis_util", "prev_cpu" };
	static const unsigned loads[1] = { 5000 };
	struct ss_run_config c = { 0 };
	struct ss_results *r0, *r1;
	(void)state;

	assert_non_null(t);
	assert_non_null(w);
	c.topo = t;
	c.wl = w;
	ss_params_defaults(&c.params, t);
	c.load_pct_x100 = 5000;
	c.seed = 1;
	c.duration_ns = 200000000;
	r0 = ss_simulate(&c, &err);
	c.warmup_ns = 100000000;   /* far beyond the finish (a few ms) */
	r1 = ss_simulate(&c, &err);
	assert_non_null(r0);
	assert_non_null(r1);
	assert_true(r0->finish_ns > 1000000 && r0->finish_ns < 100000000);
	assert_int_equal(r0->finish_ns, r1->finish_ns);
	assert_true(ss_results_metric_value(r1) == (double)r1->finish_ns / 1e9);
	/* every statistic covers [start mark, finish], with or without the warmup:
	 * the mark comes after the parent forked 40 children (>= 40 x 40 us) */
	assert_int_equal(r1->duration_ns, r1->finish_ns);
	assert_int_equal(r1->warmup_ns, r0->warmup_ns);
	assert_true(r1->warmup_ns >= 1600000 && r1->warmup_ns < 100000000);
	assert_int_equal(r0->wakeups, r1->wakeups);
	assert_true(r1->wakeups > 1000);
	assert_true(ss_results_busy_pct(r1) > 5.0 && ss_results_busy_pct(r1) <= 100.0);
	ss_results_free(r0);

	struct ss_compare_spec s = { 0 };
	s.base = c;
	s.policies = pols;
	s.nr_policies = 2;
	s.loads = loads;
	s.nr_loads = 1;
	s.nr_seeds = 2;
	s.jobs = 1;
	s.metric = SS_CMP_WORKLOAD;
	struct ss_compare_result *cr = ss_compare_run(&s, &err);
	assert_non_null(cr);
	assert_string_equal(cr->metric_name, "time");
	assert_string_equal(cr->metric_unit, "s");
	assert_false(cr->higher_is_better);
	/* seed 1 of the baseline is the run above; the mean is the arithmetic one */
	assert_true(cr->cells[0].values[0] == ss_results_metric_value(r1));
	assert_true(fabs(cr->cells[0].mean - (cr->cells[0].values[0] + cr->cells[0].values[1]) / 2) < 1e-12);
	/* positive = better: the other policy's shorter time shows as a positive difference */
	if (cr->cells[1].mean < cr->cells[0].mean)
		assert_true(cr->cells[1].diff_pct > 0);
	else
		assert_true(cr->cells[1].diff_pct <= 0);
	char *txt = ss_compare_render(cr, "text", &err);
	assert_non_null(strstr(txt, "# time (s), lower is better"));
	assert_non_null(strstr(txt, "\nAmean     50% "));
	char buf[32];
	snprintf(buf, sizeof buf, "%.4f (", cr->cells[0].mean);
	assert_non_null(strstr(txt, buf));   /* 4 decimals for seconds */
	g_free(txt);
	ss_compare_result_free(cr);
	ss_results_free(r1);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_paired_t),
		cmocka_unit_test(test_means_and_signs),
		cmocka_unit_test(test_missing_values),
		cmocka_unit_test(test_parse_loads),
		cmocka_unit_test(test_jobs_do_not_change_results),
		cmocka_unit_test(test_finish_time_workload),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * Run length by statistics (simsched/runlen.h): MSER-5, batch means, the
 * option grammar, and the runs they drive — a run whose warmup and window
 * were chosen gives the figures of a fixed run of those lengths; MSER-5
 * finds a transient planted in a workload; a paired run of a policy against
 * itself has a Δ of exactly 0.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ss_sched.h"
#include "simsched/error.h"
#include "simsched/runlen.h"
#include "machine_helpers.h"

#define MS 1000000ull

static void cfg_init(struct ss_run_config *c, const struct ss_topology *t, const struct ss_workload *w,
		     const char *policy, unsigned load_x100)
{
	memset(c, 0, sizeof *c);
	c->topo = t;
	c->wl = w;
	c->policy = policy;
	ss_params_defaults(&c->params, t);
	c->load_pct_x100 = load_x100;
	c->seed = 1;
}

static struct ss_results *sim(const struct ss_run_config *c)
{
	GError *err = NULL;
	struct ss_results *r = ss_simulate(c, &err);

	if (!r)
		fail_msg("%s", err->message);
	return r;
}

/* The JSON of r without run_length (the one key a chosen run adds) and engine.events. */
static char *figures(struct ss_results *r)
{
	struct ss_run_length keep = r->run_length;
	uint64_t ev = r->events;
	char *j;

	char **warn = r->warnings, *kept[8] = { 0 };
	unsigned n = 0;

	/* and without the warnings of the run length's own (a cap reached) */
	for (char **x = warn; x && *x && n < 7; x++)
		if (!g_str_has_prefix(*x, "--precision") && !g_str_has_prefix(*x, "--warmup auto"))
			kept[n++] = *x;
	r->warnings = kept;
	memset(&r->run_length, 0, sizeof r->run_length);
	r->events = 0;
	j = ss_results_to_json(r);
	r->run_length = keep;
	r->events = ev;
	r->warnings = warn;
	return j;
}

static void test_mser_planted(void **state)
{
	(void)state;
	/* a level shift of +5 for the first 37 batches, then noise of amplitude 1 about 0 */
	double z[300];
	unsigned d;
	for (unsigned i = 0; i < 300; i++)
		z[i] = (i < 37 ? 5.0 : 0.0) + ((int)((i * 7919u) % 13) - 6) / 6.0;
	d = ss_mser(z, 300, 300, NULL);
	assert_true(d >= 37 && d <= 40);
	/* stationary from the start: nothing (or next to nothing) to cut */
	assert_true(ss_mser(z + 40, 260, 260, NULL) <= 5);
	/* two equal last batches make MSER 0 at d = n - 2 when the second half is searched; not in the first half */
	double tie[100];
	for (unsigned i = 0; i < 100; i++)
		tie[i] = ((int)((i * 7919u) % 13) - 6) / 6.0;
	tie[99] = tie[98];
	assert_int_equal(ss_mser(tie, 100, 100, NULL), 98);
	assert_true(ss_mser(tie, 100, 50, NULL) < 50);
	/* MSER-5 on raw observations: in observations, a multiple of 5 */
	double y[1000];
	unsigned nb;
	for (unsigned i = 0; i < 1000; i++)
		y[i] = (i < 200 ? 10.0 * (200 - i) / 200.0 : 0.0) + ((int)((i * 104729u) % 11) - 5) / 5.0;
	d = ss_mser5(y, 1000, &nb);
	assert_int_equal(nb, 200);
	assert_int_equal(d % 5, 0);
	assert_true(d >= 120 && d <= 260);
	assert_int_equal(ss_mser(z, 1, 1, NULL), 0);
}

static void test_batch_means(void **state)
{
	(void)state;
	double x[] = { 1, 2, 3, 4, 5 }, m, hw, vn;
	assert_true(ss_batch_means(x, 5, &m, &hw, &vn));
	assert_float_equal(m, 3.0, 1e-12);
	/* s = sqrt(2.5), t_{4,0.975} = 2.776: 2.776 * sqrt(2.5 / 5) */
	assert_float_equal(hw, 2.776 * sqrt(0.5), 1e-9);
	/* a trend: the successive differences are small against the spread, C > 0, rejected */
	assert_true(vn > 0);
	double alt[] = { 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1 };
	assert_true(ss_batch_means(alt, 12, &m, &hw, &vn));
	assert_true(vn < 0);   /* alternating: negatively correlated, not rejected */
	assert_false(ss_batch_means(x, 1, &m, &hw, NULL));
	assert_float_equal(ss_t975(1), 12.706, 1e-9);
	assert_float_equal(ss_t975(19), 2.093, 1e-9);
	assert_float_equal(ss_t975(100), 1.984, 2e-3);
	assert_true(isnan(ss_t975(0)));
}

/*
 * The AR(1) correction: φ of known series; and over 2000 replications of 32
 * batch means from an AR(1) process (φ = 0.5, mean 0, GLib's seeded
 * generator), the corrected 95 % intervals cover the mean at least 90 % of
 * the time where the uncorrected ones, too narrow by √3, do not reach 85 %.
 */
static void test_ar1_inflation(void **state)
{
	(void)state;
	double phi, x[32];
	const double alt[] = { 1, -1, 1, -1, 1, -1, 1, -1, 1, -1, 1, -1 }, flat[] = { 2, 2, 2, 2 }, ramp[] = { 1, 2, 3, 4, 5 };
	GRand *g = g_rand_new_with_seed(7);
	unsigned cov = 0, cov_plain = 0, n = 2000;

	/* alternating, k = 12: r = −11/12, φ = (12 r + 1)/9 = −10/9 < 0: never narrower */
	assert_float_equal(ss_ar1_inflation(alt, 12, &phi), 1.0, 1e-12);
	assert_float_equal(phi, -10.0 / 9.0, 1e-12);
	assert_float_equal(ss_ar1_inflation(flat, 4, &phi), 1.0, 1e-12);
	assert_float_equal(phi, 0.0, 1e-12);
	assert_float_equal(ss_ar1_inflation(ramp, 3, &phi), 1.0, 1e-12);   /* k < 4 */
	/* 1..5: Σ(x−3)(x'−3) = (−2)(−1) + (−1)0 + 0·1 + 1·2 = 4, Σ(x−3)² = 10: r = 0.4, φ = (5·0.4 + 1)/2 = 1.5 */
	assert_true(isinf(ss_ar1_inflation(ramp, 5, &phi)));
	assert_float_equal(phi, 1.5, 1e-12);
	for (unsigned r = 0; r < n; r++) {
		double e = 0, m, hw, f;

		for (unsigned i = 0; i < 200; i++)   /* start in the stationary law */
			e = 0.5 * e + g_rand_double_range(g, -1, 1);
		for (unsigned i = 0; i < 32; i++) {
			e = 0.5 * e + g_rand_double_range(g, -1, 1);
			x[i] = e;
		}
		assert_true(ss_batch_means(x, 32, &m, &hw, NULL));
		f = ss_ar1_inflation(x, 32, NULL);
		assert_true(f >= 1.0);
		cov_plain += fabs(m) <= hw;
		cov += fabs(m) <= hw * f;
	}
	g_rand_free(g);
	print_message("AR(1) phi 0.5, 32 batches: corrected intervals cover %u of %u, uncorrected %u\n", cov, n, cov_plain);
	assert_true(cov >= 9 * n / 10);
	assert_true(cov_plain < 85 * n / 100);
}

static void test_grammar(void **state)
{
	(void)state;
	double p;
	bool a;
	uint64_t ns;
	assert_true(ss_parse_precision("1%", &p));
	assert_float_equal(p, 0.01, 1e-15);
	assert_true(ss_parse_precision("0.5%", &p));
	assert_float_equal(p, 0.005, 1e-15);
	assert_true(ss_parse_precision("0.02", &p));
	assert_float_equal(p, 0.02, 1e-15);
	const char *bad_p[] = { "", "%", "0%", "100%", "1", "-1%", "1e-2", "0x1", ".5%", "1.%", "nan", "1%%", "2 %" };
	for (unsigned i = 0; i < G_N_ELEMENTS(bad_p); i++)
		assert_false(ss_parse_precision(bad_p[i], &p));
	assert_true(ss_parse_warmup("auto", &a, &ns) && a && ns == SS_RL_WARMUP_MAX_DEFAULT);
	assert_true(ss_parse_warmup("auto:5s", &a, &ns) && a && ns == 5000 * MS);
	assert_true(ss_parse_warmup("200ms", &a, &ns) && !a && ns == 200 * MS);
	assert_true(ss_parse_warmup("0", &a, &ns) && !a && ns == 0);
	const char *bad_w[] = { "", "auto:", "auto:0", "auto:5", "automatic", "5", "auto:-1s", "1e3ms" };
	for (unsigned i = 0; i < G_N_ELEMENTS(bad_w); i++)
		assert_false(ss_parse_warmup(bad_w[i], &a, &ns));
}

static const char four_cpus[] = "name: four\nvendor: arm\nclusters:\n  - cores: \"0-3\"\n";

/* A pair ping-pong (netperf-like, small): the client wakes the server and waits. */
static const char pingpong[] =
	"name: pingpong\ninstance: pair\ninstances_per_cpu: 0.5\n"
	"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
	"tasks:\n"
	"  - name: client\n    program:\n      - loop:\n          forever: true\n          do:\n"
	"            - transaction: begin\n            - run: {exponential: 20us}\n            - wake: server\n"
	"            - wait: 1\n            - transaction: end\n"
	"  - name: server\n    program:\n      - loop:\n          forever: true\n          do:\n"
	"            - wait: 1\n            - run: {exponential: 15us}\n            - wake: client\n";

/* A chosen warmup and window give exactly the figures of a fixed run of those lengths. */
static void test_chosen_equals_fixed(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w = wl_from(pingpong);
	struct ss_run_config c;
	struct ss_results *a, *b;

	cfg_init(&c, t, w, "sis_util", 20000);
	c.warmup_auto = true;
	c.warmup_ns = 2000 * MS;
	c.precision = 0.01;
	c.duration_ns = 20000 * MS;
	a = sim(&c);
	print_message("chosen: %s, %u batches of %.3f ms, warmup %.3f ms\n", a->run_length.stopped, a->run_length.batches,
		      a->run_length.batch_len_ns / 1e6, a->warmup_ns / 1e6);
	assert_true(a->run_length.on && a->run_length.warmup_auto);
	assert_string_equal(a->run_length.stopped, "precision");
	assert_true(a->run_length.batches >= SS_RL_MIN_BATCHES && a->run_length.batches < SS_RL_MAX_BATCHES);
	assert_int_equal(a->duration_ns, (uint64_t)a->run_length.batches * a->run_length.batch_len_ns);
	assert_true(a->run_length.half_width <= 0.01 * a->run_length.mean);
	assert_true(a->warmup_ns >= a->run_length.mser_truncation_ns && a->warmup_ns % (5 * MS) == 0);
	/* the batch mean is the window's figure */
	assert_float_equal(a->run_length.mean, ss_results_metric_value(a), 1e-6 * a->run_length.mean);

	cfg_init(&c, t, w, "sis_util", 20000);
	c.warmup_ns = a->warmup_ns;
	c.duration_ns = a->duration_ns;
	b = sim(&c);
	assert_false(b->run_length.on);
	char *ja = figures(a), *jb = figures(b);
	assert_string_equal(ja, jb);
	g_free(ja);
	g_free(jb);
	ss_results_free(b);

	/* a fixed warmup with --precision: the window starts there */
	cfg_init(&c, t, w, "sis_util", 20000);
	c.warmup_ns = 37 * MS + 123;
	c.precision = 0.01;
	c.duration_ns = 3000 * MS;
	b = sim(&c);
	assert_false(b->run_length.warmup_auto);
	assert_int_equal(b->warmup_ns, 37 * MS + 123);
	assert_int_equal(b->duration_ns % MS, 0);
	ss_results_free(b);
	ss_results_free(a);
	ss_workload_free(w);
	ss_topology_free(t);
}

/*
 * A planted start-up transient: transactions that get faster in steps over
 * the first 100 ms (1 ms, 0.8, 0.6, 0.4, 0.2 ms, 20 ms each), then steady
 * ones of 50 us on average. MSER-5 has to cut at the ramp's end.
 */
static void test_mser_finds_transient(void **state)
{
	(void)state;
	static const char yaml[] =
		"name: transient\ninstance: task\ninstances_per_cpu: 1\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: t\n    program:\n"
		"      - loop: {count: 20, do: [{transaction: begin}, {run: 1ms}, {transaction: end}]}\n"
		"      - loop: {count: 25, do: [{transaction: begin}, {run: 800us}, {transaction: end}]}\n"
		"      - loop: {count: 33, do: [{transaction: begin}, {run: 600us}, {transaction: end}]}\n"
		"      - loop: {count: 50, do: [{transaction: begin}, {run: 400us}, {transaction: end}]}\n"
		"      - loop: {count: 100, do: [{transaction: begin}, {run: 200us}, {transaction: end}]}\n"
		"      - loop: {forever: true, do: [{transaction: begin}, {run: {exponential: 50us}}, {transaction: end}]}\n";
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w = wl_from(yaml);
	struct ss_run_config c;
	struct ss_results *r;

	cfg_init(&c, t, w, "sis_util", 10000);
	c.params.background = 0;
	c.warmup_auto = true;
	c.warmup_ns = 5000 * MS;
	c.duration_ns = 100 * MS;
	r = sim(&c);
	print_message("transient: truncation %.3f ms, warmup %.3f ms\n", r->run_length.mser_truncation_ns / 1e6, r->warmup_ns / 1e6);
	/* the ramp ends at 99.8 ms (plus what the start costs); MSER-5's cut is there, not before */
	assert_true(r->run_length.mser_truncation_ns >= 95 * MS);
	assert_true(r->run_length.mser_truncation_ns <= 110 * MS);
	assert_false(r->run_length.warmup_capped);
	assert_true(r->warmup_ns >= 2 * r->run_length.mser_truncation_ns);
	ss_results_free(r);
	/* a cap before the transient's end: the window starts at the cap, with a warning */
	c.warmup_ns = 60 * MS;
	r = sim(&c);
	assert_true(r->run_length.warmup_capped);
	assert_int_equal(r->warmup_ns, 60 * MS);
	assert_non_null(r->warnings[0]);
	assert_non_null(strstr(r->warnings[0], "--warmup auto"));
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

/* Paired: a policy against itself is a Δ of exactly 0; against another, each equals its own fixed run. */
static void test_paired(void **state)
{
	(void)state;
	struct ss_topology *t = topo_from(four_cpus);
	struct ss_workload *w = wl_from(pingpong);
	struct ss_run_config c[2];
	struct ss_results *r[2], *f;
	GError *err = NULL;

	cfg_init(&c[0], t, w, "sis_util", 20000);
	c[0].warmup_ns = 50 * MS;
	c[0].duration_ns = 2000 * MS;
	c[1] = c[0];
	assert_true(ss_simulate_paired(c, 2, 0.01, r, &err));
	assert_true(r[1]->run_length.paired && r[1]->run_length.paired_index == 1);
	assert_float_equal(r[1]->run_length.delta_pct, 0.0, 0.0);
	assert_float_equal(r[1]->run_length.delta_half_width_pct, 0.0, 0.0);
	assert_string_equal(r[0]->run_length.stopped, "precision");
	assert_int_equal(r[0]->run_length.batches, SS_RL_MIN_BATCHES);
	ss_results_free(r[0]);
	ss_results_free(r[1]);

	c[1].policy = "full_scan";
	assert_true(ss_simulate_paired(c, 2, 0.002, r, &err));
	assert_int_equal(r[0]->duration_ns, r[1]->duration_ns);
	for (unsigned i = 0; i < 2; i++) {
		struct ss_run_config x = c[i];
		x.duration_ns = r[i]->duration_ns;
		f = sim(&x);
		char *ja = figures(r[i]), *jb = figures(f);
		assert_string_equal(ja, jb);
		g_free(ja);
		g_free(jb);
		ss_results_free(f);
	}
	double d = 100.0 * (ss_results_metric_value(r[1]) / ss_results_metric_value(r[0]) - 1.0);
	assert_float_equal(r[1]->run_length.delta_pct, d, 1e-6);
	if (!strcmp(r[1]->run_length.stopped, "precision"))
		assert_true(r[1]->run_length.delta_half_width_pct <= 0.2);
	ss_results_free(r[0]);
	ss_results_free(r[1]);

	/* a finish-time figure has no run length to choose */
	static const char fin[] =
		"name: fin\ninstance: task\nmetric: {name: time, unit: s, higher_is_better: false}\n"
		"tasks:\n  - name: t\n    program: [run: 1ms]\n";
	struct ss_workload *wf = ss_workload_load_string(fin, strlen(fin), "fin.yaml", &err);
	if (wf) {
		cfg_init(&c[0], t, wf, "sis_util", 10000);
		c[0].precision = 0.01;
		c[0].duration_ns = 100 * MS;
		assert_null(ss_simulate(&c[0], &err));
		assert_int_equal(err->code, SS_ERROR_USAGE);
		g_clear_error(&err);
		ss_workload_free(wf);
	} else {
		g_clear_error(&err);
	}
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_mser_planted),
		cmocka_unit_test(test_batch_means),
		cmocka_unit_test(test_ar1_inflation),
		cmocka_unit_test(test_grammar),
		cmocka_unit_test(test_chosen_equals_fixed),
		cmocka_unit_test(test_mser_finds_transient),
		cmocka_unit_test(test_paired),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

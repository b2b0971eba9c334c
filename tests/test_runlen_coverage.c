/*
 * --precision's intervals cover the truth (release pass only, label
 * release-only: 100 runs). A synthetic workload with a known mean: one task
 * alone on one CPU doing transactions of exponential length, mean 50 us, with
 * no background work, so its throughput is a renewal rate of exactly
 * 1 / 50 us = 20 000 per second. Over 100 seeds, at least 90 of the 95 %
 * batch-means intervals must contain it (each run stops by its own
 * sequential rule, so a few points under 95 % are expected), at least 85
 * must stop by the precision (the rest at the cap: the lag-1 correlation of
 * the batch means above 0.8), and the stop rule must have held (half-width
 * within the target) in each that stopped by it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ss_sched.h"
#include "simsched/runlen.h"
#include "machine_helpers.h"

static void test_coverage(void **state)
{
	(void)state;
	static const char yaml[] =
		"name: renewal\ninstance: task\ninstances_per_cpu: 1\n"
		"metric: {name: throughput, unit: transactions/s, higher_is_better: true}\n"
		"tasks:\n  - name: t\n    program:\n"
		"      - loop: {forever: true, do: [{transaction: begin}, {run: {exponential: 50us}}, {transaction: end}]}\n";
	struct ss_topology *t = topo_from("name: one\nvendor: arm\ncores: \"0\"\n");
	struct ss_workload *w = wl_from(yaml);
	unsigned covered = 0, by_precision = 0;
	const double truth = 20000.0;

	for (unsigned seed = 1; seed <= 100; seed++) {
		struct ss_run_config c = { 0 };
		GError *err = NULL;
		struct ss_results *r;

		c.topo = t;
		c.wl = w;
		c.policy = "sis_util";
		ss_params_defaults(&c.params, t);
		c.params.background = 0;
		c.load_pct_x100 = 10000;
		c.seed = seed;
		c.warmup_ns = 0;
		c.precision = 0.01;
		c.duration_ns = UINT64_C(20000000000);
		r = ss_simulate(&c, &err);
		if (!r)
			fail_msg("%s", err->message);
		assert_true(r->run_length.on);
		if (!strcmp(r->run_length.stopped, "precision")) {
			by_precision++;
			assert_true(r->run_length.half_width <= 0.01 * r->run_length.mean);
		}
		if (fabs(r->run_length.mean - truth) <= r->run_length.half_width)
			covered++;
		ss_results_free(r);
	}
	print_message("coverage: %u of 100 intervals hold %.0f/s (%u stopped by the precision)\n", covered, truth,
		      by_precision);
	/* the rest reached the cap with the batches too correlated (phi > 0.8) or the interval too wide */
	assert_true(by_precision >= 85);
	assert_true(covered >= 90);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coverage),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

/*
 * The rule self-test (docs/experiments.md, "Self-test"): over every
 * experiments/S*.yaml (every .yaml there) of the tree and the fixtures of
 * tests/data/experiments/, each experiment's own real table graded as if
 * it were simulated (Δ = real, zero-width interval) passes; for every
 * experiment with a scored non-neutral load, a table of zeros fails, and so
 * does the table with the sign of its largest |Δ| flipped. Rules that read
 * counters and the named checks are not graded from a table (SKIP); an
 * experiment with no other rule is reported and not spoiled.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include <glib.h>

#include "simsched/experiment.h"

/* A series that only a contrast rule reads as its `other` (S03's TCP_RR row) is
 * the yardstick, not a table the experiment claims to reproduce. */
static bool only_contrast_other(const struct ss_experiment *x, unsigned s)
{
	bool other = false;
	for (unsigned i = 0; i < x->nr_rules; i++) {
		const struct ss_xp_rule *r = &x->rules[i];
		if (r->kind == SS_XP_CONTRAST && r->other && !strcmp(r->other, x->series[s].name)) {
			other = true;
			continue;
		}
		if (!r->series)
			return false;
		for (char **n = r->series; *n; n++)
			if (!strcmp(*n, x->series[s].name))
				return false;
	}
	return other;
}

static bool non_neutral(const struct ss_experiment *x)
{
	for (unsigned s = 0; s < x->nr_series; s++)
		for (unsigned l = 0; l < x->series[s].nr_loads && !only_contrast_other(x, s); l++) {
			char c = ss_xp_real_sign(&x->series[s], l, ss_xp_epsilon(&x->series[s]));
			if (c == '+' || c == '-')
				return true;
		}
	return false;
}

static enum ss_xp_status grade_real(const struct ss_experiment *x, int transform, char **why)
{
	struct ss_xp_data *d = ss_xp_data_from_real(x, transform);
	struct ss_xp_grade *g = ss_xp_grade(d);
	enum ss_xp_status st = g->status;
	*why = g_strdup(g->why);
	ss_xp_grade_free(g);
	ss_xp_data_free(d);
	return st;
}

static unsigned check_dir(const char *dir, const char *only_prefix, unsigned *nr)
{
	GError *err = NULL;
	g_auto(GStrv) files = ss_experiment_files(dir, &err);
	unsigned bad = 0;
	if (!files)
		fail_msg("%s", err->message);
	for (char **f = files; *f; f++) {
		g_autofree char *b = g_path_get_basename(*f);
		if (only_prefix && !g_str_has_prefix(b, only_prefix))
			continue;
		struct ss_experiment *x = ss_experiment_load(*f, &err);
		if (!x) {
			print_message("%s\n", err->message);
			g_clear_error(&err);
			bad++;
			continue;
		}
		(*nr)++;
		char *why = NULL;
		enum ss_xp_status st = grade_real(x, 0, &why);
		if (st != SS_XP_PASS && st != SS_XP_SKIP) {
			print_message("%s: its own real table grades %s: %s\n", x->id, ss_xp_status_name(st), why);
			bad++;
		}
		g_free(why);
		/* an experiment whose rules all read counters or are named checks has no table to spoil */
		bool graded = st == SS_XP_PASS;
		if (graded && non_neutral(x)) {
			for (int t = 1; t <= 2; t++) {
				enum ss_xp_status st2 = grade_real(x, t, &why);
				if (st2 != SS_XP_FAIL) {
					print_message("%s: a table of %s grades %s (expected FAIL)%s%s\n", x->id,
						      t == 1 ? "zeros" : "the peak's sign flipped", ss_xp_status_name(st2),
						      why[0] ? ": " : "", why);
					bad++;
				}
				g_free(why);
			}
		}
		print_message("%s: real %s%s\n", x->id, ss_xp_status_name(st),
			      !graded ? " (no rule reads the table)" : non_neutral(x) ? ", zeros FAIL, flipped peak FAIL" : " (neutral)");
		ss_experiment_free(x);
	}
	return bad;
}

static void test_selftest(void **state)
{
	(void)state;
	unsigned nr = 0, bad = check_dir(SS_SOURCE_DIR "/experiments", NULL, &nr);
	bad += check_dir(SS_TEST_DATA "/experiments", "T", &nr);
	assert_true(nr >= 2);
	assert_int_equal(bad, 0);
}

/* The self-test can fail: a fixture whose peak is flipped in its file is caught by its own rules. */
static void test_selftest_catches(void **state)
{
	(void)state;
	GError *err = NULL;
	struct ss_experiment *x = ss_experiment_load(SS_TEST_DATA "/experiments/T03.yaml", &err);
	assert_non_null(x);
	char *why = NULL;
	assert_int_equal(grade_real(x, 1, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "crossover#2: TCP_RR: no load reaches +20%"));
	g_free(why);
	assert_int_equal(grade_real(x, 2, &why), SS_XP_FAIL);
	assert_non_null(strstr(why, "16: sim -188.0% (-) vs real +188.0% (+) opposite"));
	g_free(why);
	ss_experiment_free(x);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_selftest),
		cmocka_unit_test(test_selftest_catches),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

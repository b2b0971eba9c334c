/*
 * Provenance (simsched/provenance.h): file hashes, the shell-quoted command
 * line, resolved parameters, the "provenance" key appended to a run's JSON
 * without changing a byte of the rest, and reading it back for --rerun with
 * its errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "simsched/error.h"
#include "simsched/params.h"
#include "simsched/provenance.h"
#include "simsched/sim.h"

#define TOPO SS_SOURCE_DIR "/topologies/desktop-8c16t.yaml"
#define WL SS_SOURCE_DIR "/workloads/netperf-tcp-rr.yaml"

#include "tmpdir.h"

static void test_sha256_and_command_line(void **state)
{
	GError *err = NULL;
	char *p = write_tmp("abc", "abc"), *h;
	(void)state;

	/* FIPS 180-2 example: SHA-256("abc") */
	h = ss_file_sha256(p, &err);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	g_free(h);
	g_free(p);
	p = g_build_filename(tmpdir, "none", NULL);
	assert_null(ss_file_sha256(p, &err));
	assert_int_equal(err->code, SS_ERROR_IO);
	assert_non_null(strstr(err->message, "none: cannot read ("));
	g_clear_error(&err);
	g_free(p);
	assert_null(ss_file_sha256(tmpdir, &err));
	assert_non_null(strstr(err->message, "not a regular file"));
	g_clear_error(&err);

	const char *argv[] = { "build/simsched", "run", "--set", "cost.ipi_ns=2us", "--json", "it's here.json", "", "a$b",
			       "--nodes=0,2", "x\xff" };
	char *c = ss_shell_join(G_N_ELEMENTS(argv), argv);
	assert_string_equal(c, "build/simsched run --set cost.ipi_ns=2us --json 'it'\\''s here.json' '' 'a$b' "
			       "--nodes=0,2 'x\xef\xbf\xbd'");
	g_free(c);
}

static void test_params_resolve(void **state)
{
	struct ss_params p;
	const char *section, *key;
	double v;
	unsigned n = 0;
	(void)state;

	ss_params_defaults(&p, NULL);
	assert_true(ss_params_set(&p, "burst_threshold", "kernel.freq_ratio=0.8", NULL));
	assert_true(ss_params_set(&p, "burst_threshold", "cost.ipi_ns=2us", NULL));
	assert_true(ss_params_set(&p, "burst_threshold", "policy.tasks=4", NULL));
	assert_true(ss_params_resolve(&p, "burst_threshold", "cost.ipi_ns", &v));
	assert_true(v == 2000.0);
	assert_true(ss_params_resolve(&p, "burst_threshold", "cost.ipi_ns=7us", &v));   /* the key of an assignment */
	assert_true(v == 2000.0);
	assert_true(ss_params_resolve(&p, "burst_threshold", "kernel.freq_ratio", &v));
	assert_true(v == 819.0 / 1024.0);
	assert_true(ss_params_resolve(&p, "burst_threshold", "policy.tasks", &v));
	assert_true(v == 4.0);
	assert_true(ss_params_resolve(&p, NULL, "kernel.hz", &v));
	assert_true(v == 250.0);
	assert_false(ss_params_resolve(&p, "sis_util", "policy.tasks", &v));
	assert_false(ss_params_resolve(&p, NULL, "cost.nope", &v));
	assert_false(ss_params_resolve(&p, NULL, "nodot", &v));
	while (ss_params_nth(n, &section, &key)) {
		g_autofree char *k = g_strdup_printf("%s.%s", section, key);
		assert_true(ss_params_resolve(&p, NULL, k, &v));
		assert_string_not_equal(section, "policy");
		n++;
	}
	assert_true(n > 20);
}

/* The run's JSON plus "provenance" as its last key; everything before it is ss_results_to_json()'s. */
static void test_json_and_rerun_load(void **state)
{
	GError *err = NULL;
	struct ss_topology *t = ss_topology_load(TOPO, &err);
	struct ss_workload *w = ss_workload_load(WL, &err);
	struct ss_run_config c = { 0 };
	const char *sets[] = { "cost.ipi_ns=2us" };
	(void)state;

	assert_non_null(t);
	assert_non_null(w);
	c.topo = t;
	c.wl = w;
	c.policy = "sis_prop";
	c.sched_features = "NO_TTWU_QUEUE";
	c.nodes = "0";
	c.load_pct_x100 = 5000;
	c.seed = 9007199254740991ull;
	c.duration_ns = 5000000;
	c.warmup_ns = 0;
	ss_params_defaults(&c.params, t);
	assert_true(ss_params_set(&c.params, c.policy, sets[0], &err));
	struct ss_results *r = ss_simulate(&c, &err);
	assert_non_null(r);
	char *tsha = ss_file_sha256(TOPO, &err), *wsha = ss_file_sha256(WL, &err);
	struct ss_provenance pv = { .command = "simsched run 'x y'", .topology_file = TOPO, .topology_sha256 = tsha,
				    .workload_file = WL, .workload_sha256 = wsha, .sets = sets, .nr_sets = 1 };
	char *plain = ss_results_to_json(r), *j = ss_results_to_json_provenance(r, &c, &pv);
	const char *at = strstr(j, ",\n\t\"provenance\":\t{\n");
	assert_non_null(at);
	assert_int_equal((size_t)(at - j), strlen(plain) - 3);
	assert_memory_equal(j, plain, strlen(plain) - 3);
	assert_true(g_str_has_suffix(j, "\n\t}\n}\n"));
	assert_non_null(strstr(j, "\t\t\"command\":\t\"simsched run 'x y'\",\n"));
	assert_non_null(strstr(j, "\t\t\"seed\":\t9007199254740991,\n"));
	assert_non_null(strstr(j, "\"given\":\t\"cost.ipi_ns=2us\",\n\t\t\t\t\"key\":\t\"cost.ipi_ns\",\n\t\t\t\t\"value\":\t2000\n"));

	/* read back: every parameter as given */
	char *p = write_tmp("a.json", j);
	struct ss_rerun *rr = ss_rerun_load(p, 0, &err);
	if (!rr)
		fail_msg("%s", err->message);
	assert_false(rr->is_record);
	assert_string_equal(rr->command, "simsched run 'x y'");
	assert_string_equal(rr->topology_file, TOPO);
	assert_string_equal(rr->workload_sha256, wsha);
	assert_string_equal(rr->policy, "sis_prop");
	assert_null(rr->plugin_file);
	assert_string_equal(rr->sets[0], "cost.ipi_ns=2us");
	assert_null(rr->sets[1]);
	assert_string_equal(rr->nodes, "0");
	assert_string_equal(rr->sched_features, "NO_TTWU_QUEUE");
	assert_int_equal(rr->load_pct_x100, 5000);
	assert_true(rr->seed == 9007199254740991ull);
	assert_int_equal(rr->duration_ns, 5000000);
	assert_int_equal(rr->warmup_ns, 0);
	assert_int_equal(rr->sample_ns, 100000000);
	assert_true(ss_rerun_check_files(rr, &err));
	/* a changed file is named, with both hashes */
	g_free(rr->topology_sha256);
	rr->topology_sha256 = g_strdup("00");
	assert_false(ss_rerun_check_files(rr, &err));
	assert_non_null(strstr(err->message, "the topology " TOPO " has changed since the run"));
	assert_non_null(strstr(err->message, tsha));
	g_clear_error(&err);
	ss_rerun_free(rr);

	/* not results, or not one */
	char *q = write_tmp("old.json", plain);
	assert_null(ss_rerun_load(q, 0, &err));
	assert_int_equal(err->code, SS_ERROR_INVALID);
	assert_non_null(strstr(err->message, "old.json: no \"provenance\""));
	g_clear_error(&err);
	g_free(q);
	q = write_tmp("two.jsonl", "{\"key\":\"a\",\"grid\":{},\"metrics\":{}}\n{\"key\":\"b\",\"grid\":{},\"metrics\":{}}\n");
	assert_null(ss_rerun_load(q, 0, &err));
	assert_int_equal(err->code, SS_ERROR_USAGE);
	assert_non_null(strstr(err->message, "two.jsonl: not one result but 2 lines"));
	g_clear_error(&err);
	assert_null(ss_rerun_load(q, 3, &err));
	assert_non_null(strstr(err->message, "--record 3: "));
	assert_non_null(strstr(err->message, "two.jsonl has 2 lines"));
	g_clear_error(&err);
	assert_null(ss_rerun_load(q, 2, &err));   /* a record without provenance */
	assert_non_null(strstr(err->message, "two.jsonl:2: no \"provenance\""));
	g_clear_error(&err);
	assert_null(ss_rerun_load(p, 2, &err));   /* line 2 of a run's JSON */
	assert_non_null(strstr(err->message, "a.json:2: not a sweep record"));
	g_clear_error(&err);
	g_free(q);
	/* a provenance field of the wrong type, and a file that is no JSON */
	const char *lp = strstr(at, "\"load_pct\":\t50,");   /* the provenance's, not run.load_pct */
	assert_non_null(lp);
	char *broken = g_strdup_printf("%.*s\"load_pct\":\t\"50%%\",%s", (int)(lp - j), j, lp + strlen("\"load_pct\":\t50,"));
	q = write_tmp("broken.json", broken);
	assert_null(ss_rerun_load(q, 0, &err));
	assert_int_equal(err->code, SS_ERROR_INVALID);
	assert_non_null(strstr(err->message, "broken.json: provenance.load_pct is not a load in percent"));
	g_clear_error(&err);
	g_free(q);
	g_free(broken);
	q = write_tmp("garbage.json", "seed=1\n");
	assert_null(ss_rerun_load(q, 0, &err));
	assert_non_null(strstr(err->message, "garbage.json: not a JSON result"));
	g_clear_error(&err);
	g_free(q);

	g_free(p);
	g_free(plain);
	g_free(j);
	g_free(tsha);
	g_free(wsha);
	ss_results_free(r);
	ss_workload_free(w);
	ss_topology_free(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sha256_and_command_line),
		cmocka_unit_test(test_params_resolve),
		cmocka_unit_test(test_json_and_rerun_load),
	};
	return cmocka_run_group_tests(tests, tmpdir_setup, tmpdir_teardown);
}

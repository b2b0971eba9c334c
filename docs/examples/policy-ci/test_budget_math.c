/* The budget math of util_budget: linear in the idle share of the LLC's capacity. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util_budget.h"

static void test_idle_llc_scans_all(void **unused)
{
	assert_int_equal(util_budget(32, 0, 32 * 1024), 32);
	assert_int_equal(util_budget(8, 0, 8 * 1024), 8);
}

static void test_linear(void **unused)
{
	assert_int_equal(util_budget(32, 16 * 1024, 32 * 1024), 16);   /* half used: half the LLC */
	assert_int_equal(util_budget(32, 24 * 1024, 32 * 1024), 8);
	assert_int_equal(util_budget(32, 1, 32 * 1024), 31);           /* rounded down */
	assert_int_equal(util_budget(32, 32 * 1024 - 1024, 32 * 1024), 1);
	assert_int_equal(util_budget(32, 32 * 1024 - 1023, 32 * 1024), 0);
}

static void test_full_llc_scans_nothing(void **unused)
{
	assert_int_equal(util_budget(32, 32 * 1024, 32 * 1024), 0);
	assert_int_equal(util_budget(32, 40 * 1024, 32 * 1024), 0);   /* util above capacity */
	assert_int_equal(util_budget(32, 0, 0), 0);                    /* no capacity */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_idle_llc_scans_all),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_full_llc_scans_nothing),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}

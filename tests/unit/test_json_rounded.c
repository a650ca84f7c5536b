// SPDX-License-Identifier: GPL-2.0
/* json_rounded(): JSON floats carry the digits that were measured, no binary noise. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include "output/json_out.h"

static void assert_json(double v, int decimals, const char *want)
{
	json_object *o = json_rounded(v, decimals);

	assert_string_equal(json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN), want);
	json_object_put(o);
}

static void test_rounding(void **state)
{
	(void)state;
	assert_json(13136199.999999998, 0, "13136200");
	assert_json(0.21120876700115332, 6, "0.211209");
	assert_json(61.599999999999994, 2, "61.60");
	assert_json(0.0, 9, "0.000000000");
}

/* The value read back is the rounded one, not the original. */
static void test_value(void **state)
{
	json_object *o = json_rounded(2.8049999, 2);

	(void)state;
	assert_true(json_object_get_double(o) == 2.80);
	json_object_put(o);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rounding),
		cmocka_unit_test(test_value),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}

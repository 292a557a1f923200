/*
 * check_result.c - the one set of cell setters (result.c) that queries,
 * verify and the comparison table share: what each leaves in a cell, as
 * the public getters read it.  Expected values are written by hand.
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "query/query.h"

static profdb_result *two_by_two(void)
{
	static const char *const names[] = { "a", "b" };
	static const enum profdb_coltype types[] = { PROFDB_COL_TEXT, PROFDB_COL_REAL };
	profdb_result *r = NULL;
	ck_assert_int_eq(profdb__result_new_rows(&r, names, types, 2, 2), PROFDB_OK);
	return r;
}

START_TEST(each_setter)
{
	profdb_result *r = two_by_two();

	ck_assert(profdb_result_isnull(r, 0, 0)); /* new rows are NULL */
	ck_assert_int_eq(profdb__result_set_int(r, 0, 0, -42), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 0, 0), "-42");
	ck_assert_int_eq(profdb_result_int(r, 0, 0), -42);
	ck_assert_int_eq(profdb__result_set_int(r, 0, 1, INT64_MAX), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 0, 1), "9223372036854775807");
	ck_assert_int_eq(profdb__result_set_text(r, 1, 0, "MatMul<float>"), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 1, 0), "MatMul<float>");
	ck_assert(!profdb_result_isnull(r, 1, 0));
	/* a double's text is its round trip: 0.1 is not exactly 1/10 */
	ck_assert_int_eq(profdb__result_set_double(r, 1, 1, 0.1), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 1, 1), "0.10000000000000001");
	ck_assert(strtod(profdb_result_text(r, 1, 1), NULL) == profdb_result_double(r, 1, 1));
	ck_assert_int_eq(profdb__result_set_double(r, 1, 1, 653.026), PROFDB_OK);
	ck_assert(strtod(profdb_result_text(r, 1, 1), NULL) == 653.026);
	profdb_result_free(r);
}
END_TEST

START_TEST(replace_and_null)
{
	profdb_result *r = two_by_two();

	/* each set replaces the text it held (ASan: no leak) */
	ck_assert_int_eq(profdb__result_set_text(r, 0, 0, "first"), PROFDB_OK);
	ck_assert_int_eq(profdb__result_set_text(r, 0, 0, "second"), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 0, 0), "second");
	ck_assert_int_eq(profdb__result_set_int(r, 0, 0, 7), PROFDB_OK);
	ck_assert_str_eq(profdb_result_text(r, 0, 0), "7");
	ck_assert_int_eq(profdb__result_set_null(r, 0, 0), PROFDB_OK);
	ck_assert(profdb_result_isnull(r, 0, 0));
	ck_assert_ptr_null(profdb_result_text(r, 0, 0));
	/* NULL text is a NULL cell, not a TEXT cell without text */
	ck_assert_int_eq(profdb__result_set_text(r, 1, 0, NULL), PROFDB_OK);
	ck_assert(profdb_result_isnull(r, 1, 0));
	profdb_result_free(r);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("result");
	TCase *tc = tcase_create("setters");
	tcase_add_test(tc, each_setter);
	tcase_add_test(tc, replace_and_null);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

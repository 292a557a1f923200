/*
 * check_step_sums.c - kernel_step_stat summed as rows are sent
 * (lib/store/step_sums.c): the cells of a handful of rows worked out by
 * hand, in the order the commit's scan would write them (rank, then step
 * with none first, then each cell in the order of its first row); past the
 * cell bound, or once dropped, the sums are not valid and write nothing.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "store/name_stats.h"
#include "store/step_sums.h"
#include "testutil.h"

static sqlite3 *open_table(sqlite3_stmt **ins)
{
	sqlite3 *db = NULL;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE kernel_step_stat(run_id, rank, step, name_id, base_id,"
	                              " kind, calls, total_ns)", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "INSERT INTO kernel_step_stat VALUES (?1, ?2, ?3, ?4, ?5, ?6,"
	                                    " ?7, ?8)", -1, ins, NULL), SQLITE_OK);
	return db;
}

/* The table's rows in rowid order, one "rank,step,name,base,kind,calls,total" each, ';' between. */
static void rows_of(sqlite3 *db, char *out, size_t cap)
{
	sqlite3_stmt *q = NULL;
	size_t off = 0;
	out[0] = '\0';
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT rank, coalesce(step, 'none'), name_id, base_id, kind,"
	                                    " calls, total_ns FROM kernel_step_stat ORDER BY rowid", -1, &q, NULL),
	                 SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW)
		off += (size_t)snprintf(out + off, cap - off, "%s%s,%s,%s,%s,%s,%s,%s", off ? ";" : "",
		                        sqlite3_column_text(q, 0), sqlite3_column_text(q, 1),
		                        sqlite3_column_text(q, 2), sqlite3_column_text(q, 3),
		                        sqlite3_column_text(q, 4), sqlite3_column_text(q, 5),
		                        sqlite3_column_text(q, 6));
	sqlite3_finalize(q);
}

START_TEST(cells_in_the_scan_order)
{
	sqlite3_stmt *ins = NULL;
	sqlite3 *db = open_table(&ins);
	struct profdb__step_sums *s = profdb__step_sums_new(16);
	char got[1024];
	/* rank, step, name, base, kind, dur: in id order */
	profdb__step_sums_add(s, 1, 7, 30, 3, 0, 100);          /* rank 1 comes after rank 0 */
	profdb__step_sums_add(s, 0, 5, 20, 2, 0, 10);           /* step 5: name 20 first seen */
	profdb__step_sums_add(s, 0, 5, 10, 1, 0, 1);            /* then name 10 */
	profdb__step_sums_add(s, 0, 5, 20, 2, 0, 30);           /* name 20 again: 2 calls, 40 */
	profdb__step_sums_add(s, 0, PROFDB_NULL, 10, 1, 0, 4);  /* no step: before step 5 */
	profdb__step_sums_add(s, 0, 3, 10, 1, 1, 5);            /* step 3, kind 1 */
	profdb__step_sums_add(s, 0, 3, 10, 1, 0, 6);            /* step 3, kind 0: a cell apart */
	profdb__step_sums_add(s, 0, PROFDB_NULL, 10, 1, 0, 8);  /* no step again: 2 calls, 12 */
	ck_assert(profdb__step_sums_valid(s));
	ck_assert_int_eq(profdb__step_sums_write(s, ins, 9), SQLITE_OK);
	rows_of(db, got, sizeof got);
	ck_assert_str_eq(got, "0,none,10,1,0,2,12;0,3,10,1,1,1,5;0,3,10,1,0,1,6;0,5,20,2,0,2,40;0,5,10,1,0,1,1;"
	                      "1,7,30,3,0,1,100");
	profdb__step_sums_free(s);
	sqlite3_finalize(ins);
	sqlite3_close(db);
}
END_TEST

START_TEST(past_the_bound_or_dropped_not_valid)
{
	struct profdb__step_sums *s = profdb__step_sums_new(2);
	profdb__step_sums_add(s, 0, 1, 10, 1, 0, 1);
	profdb__step_sums_add(s, 0, 1, 10, 1, 0, 1); /* the same cell: still two at most */
	profdb__step_sums_add(s, 0, 2, 10, 1, 0, 1);
	ck_assert(profdb__step_sums_valid(s));
	profdb__step_sums_add(s, 0, 3, 10, 1, 0, 1); /* a third cell */
	ck_assert(!profdb__step_sums_valid(s));
	profdb__step_sums_add(s, 0, 1, 10, 1, 0, 1); /* and it stays so */
	ck_assert(!profdb__step_sums_valid(s));
	profdb__step_sums_free(s);

	s = profdb__step_sums_new(16);
	profdb__step_sums_add(s, 0, 1, 10, 1, 0, 1);
	profdb__step_sums_drop(s);
	ck_assert(!profdb__step_sums_valid(s));
	profdb__step_sums_free(s);
	ck_assert(!profdb__step_sums_valid(NULL));
	profdb__step_sums_drop(NULL);
}
END_TEST

/* Many cells: the map grows and every cell is still found. */
START_TEST(many_cells_found_again)
{
	sqlite3_stmt *ins = NULL;
	sqlite3 *db = open_table(&ins);
	struct profdb__step_sums *s = profdb__step_sums_new(1u << 16);
	sqlite3_stmt *q = NULL;
	for (int pass = 0; pass < 3; pass++)
		for (int i = 0; i < 5000; i++)
			profdb__step_sums_add(s, i % 7, i / 7, i % 13, 1, 0, pass + 1);
	ck_assert(profdb__step_sums_valid(s));
	ck_assert_int_eq(profdb__step_sums_write(s, ins, 1), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*), min(calls), max(calls), sum(total_ns)"
	                                    " FROM kernel_step_stat", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int(q, 0), 5000); /* (i % 7, i / 7) tells i apart */
	ck_assert_int_eq(sqlite3_column_int(q, 1), 3);
	ck_assert_int_eq(sqlite3_column_int(q, 2), 3);
	ck_assert_int_eq(sqlite3_column_int(q, 3), 5000 * (1 + 2 + 3));
	sqlite3_finalize(q);
	profdb__step_sums_free(s);
	sqlite3_finalize(ins);
	sqlite3_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("step_sums");
	TCase *tc = tcase_create("sums");
	tcase_add_test(tc, cells_in_the_scan_order);
	tcase_add_test(tc, past_the_bound_or_dropped_not_valid);
	tcase_add_test(tc, many_cells_found_again);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

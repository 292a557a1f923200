/*
 * check_writeback.c - cmd/writeback.c: once installed, SQLite's writes to
 * a database file ask the kernel to start their write-back every 8 MB,
 * writes to a temporary file (a TEMP table spilled to an etilqs_* file)
 * never do, and the rows read back whole.
 */
#include <check.h>
#include <stdio.h>
#include <sqlite3.h>

#include "cmd.h"
#include "testutil.h"

/* 1536 rows of 16 KiB: 24 MB */
#define ROWS "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < 1536)"

static void exec(sqlite3 *db, const char *sql)
{
	char *err = NULL;
	int rc = sqlite3_exec(db, sql, NULL, NULL, &err);
	ck_assert_msg(rc == SQLITE_OK, "%s: %s", sql, err ? err : "?");
}

static int64_t scalar(sqlite3 *db, const char *sql)
{
	sqlite3_stmt *q;
	int64_t v = -1;
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	if (sqlite3_step(q) == SQLITE_ROW)
		v = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return v;
}

START_TEST(database_writes_hinted_temporary_not)
{
	char path[512];
	sqlite3 *db = NULL;
	long before;
	cli_writeback_early();
	snprintf(path, sizeof path, "%s/wb.db", tu_tmpdir());
	ck_assert_int_eq(sqlite3_open(path, &db), SQLITE_OK);
	exec(db, "PRAGMA cache_size = -2048; PRAGMA temp_store = FILE;"
	         " CREATE TABLE t(b BLOB); CREATE TEMP TABLE tt(b BLOB)");
	before = cli_writeback_hints();
	exec(db, ROWS " INSERT INTO tt SELECT randomblob(16384) FROM c");
	ck_assert_int_eq(scalar(db, "SELECT count(*) FROM tt"), 1536);
	ck_assert_int_eq(cli_writeback_hints(), before);
	exec(db, "BEGIN; " ROWS " INSERT INTO t SELECT randomblob(16384) FROM c; COMMIT");
	/* 24 MB and more (pages, overflow chains) in 8 MB steps */
	ck_assert_int_ge(cli_writeback_hints() - before, 2);
	ck_assert_int_eq(scalar(db, "SELECT sum(length(b)) FROM t"), (int64_t)1536 * 16384);
	sqlite3_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("writeback");
	TCase *tc = tcase_create("hints");
	tcase_add_test(tc, database_writes_hinted_temporary_not);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

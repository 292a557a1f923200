/*
 * check_clickhouse.c - the parts of lib/clickhouse that need no server:
 * RowBinary bytes (worked out by hand from the format: little-endian
 * integers and IEEE doubles, LEB128 string lengths, a flag byte before a
 * Nullable), URL parsing and its errors, and the one-line error for a
 * server that is down.  The tests/cli/clickhouse_*.sh cases run a real one.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "clickhouse/ch.h"
#include "store/columns.h"

START_TEST(rowbinary_bytes)
{
	struct profdb__ch_buf b = { 0 };
	static const unsigned char want[] = {
		0x01, 0, 0, 0, 0, 0, 0, 0,             /* UInt64 1 */
		0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, /* Int64 -1 */
		0, 0, 0, 0, 0, 0, 0xf8, 0x3f,          /* Float64 1.5 */
		0x02, 'a', 'b',                        /* String "ab" */
		0x01,                                  /* Nullable NULL */
		0x00, 0x00                             /* Nullable(String) "" */
	};
	ck_assert_int_eq(profdb__ch_put_u64(&b, 1), 0);
	ck_assert_int_eq(profdb__ch_put_u64(&b, (uint64_t)-1), 0);
	ck_assert_int_eq(profdb__ch_put_f64(&b, 1.5), 0);
	ck_assert_int_eq(profdb__ch_put_str(&b, "ab", 2), 0);
	ck_assert_int_eq(profdb__ch_put_null(&b, 1), 0);
	ck_assert_int_eq(profdb__ch_put_null(&b, 0), 0);
	ck_assert_int_eq(profdb__ch_put_str(&b, "", 0), 0);
	ck_assert_uint_eq(b.len, sizeof want);
	ck_assert_int_eq(memcmp(b.data, want, sizeof want), 0);

	static const enum profdb__ch_type types[] = { CH_U64, CH_I64, CH_F64, CH_STR, CH_NI64, CH_NSTR };
	struct profdb__ch_val v[6];
	ck_assert_uint_eq(profdb__ch_get_row(b.data, b.len, types, 6, v), sizeof want);
	ck_assert_int_eq(v[0].i, 1);
	ck_assert_int_eq(v[1].i, -1);
	ck_assert(v[2].d == 1.5);
	ck_assert_uint_eq(v[3].n, 2);
	ck_assert_int_eq(memcmp(v[3].s, "ab", 2), 0);
	ck_assert_int_eq(v[4].null, 1);
	ck_assert_int_eq(v[5].null, 0);
	ck_assert_uint_eq(v[5].n, 0);
	/* every shorter prefix is an incomplete row, never a wrong one */
	for (size_t n = 0; n < sizeof want; n++)
		ck_assert_uint_eq(profdb__ch_get_row(b.data, n, types, 6, v), 0);
	profdb__ch_buf_free(&b);
}
END_TEST

START_TEST(rowbinary_long_string)
{
	/* 300 = 0b10_0101100: LEB128 0xac 0x02 */
	struct profdb__ch_buf b = { 0 };
	char s[300];
	memset(s, 'x', sizeof s);
	ck_assert_int_eq(profdb__ch_put_str(&b, s, sizeof s), 0);
	ck_assert_uint_eq(b.len, 302);
	ck_assert_uint_eq((unsigned char)b.data[0], 0xac);
	ck_assert_uint_eq((unsigned char)b.data[1], 0x02);
	enum profdb__ch_type t = CH_STR;
	struct profdb__ch_val v;
	ck_assert_uint_eq(profdb__ch_get_row(b.data, b.len, &t, 1, &v), 302);
	ck_assert_uint_eq(v.n, 300);
	profdb__ch_buf_free(&b);
}
END_TEST

static int open_err(const char *url, char *msg)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *c = NULL;
	int rc = profdb__ch_open(&c, url, NULL, &err);
	snprintf(msg, PROFDB_ERRMAX, "%s", rc == PROFDB_OK ? profdb__ch_where(c) : err.msg);
	profdb__ch_close(c);
	return rc;
}

/*
 * Push and pull copy every column the store writes: the SQLite columns of
 * each batched table's ClickHouse mapping (ch_tables.c) are the store's
 * column list (store/columns.h), no more, no fewer.
 */
#define COL_NAME(c, sql, how, f) sql,
static const char *const kernel_sq[] = { PROFDB__KERNEL_COLUMNS(COL_NAME) NULL };
static const char *const op_sq[] = { PROFDB__OP_COLUMNS(COL_NAME) NULL };
static const char *const launch_sq[] = { PROFDB__LAUNCH_COLUMNS(COL_NAME) NULL };
static const char *const coll_sq[] = { PROFDB__COLL_COLUMNS(COL_NAME) NULL };

static int names_has(const char *const *v, const char *s)
{
	for (; *v; v++)
		if (strcmp(*v, s) == 0)
			return 1;
	return 0;
}

static void check_table_columns(const char *table, const char *const *store_cols)
{
	const struct profdb__ch_table *t = profdb__ch_tables;
	while (t->name && strcmp(t->name, table) != 0)
		t++;
	ck_assert_msg(t->name != NULL, "no ClickHouse mapping of %s", table);
	for (size_t i = 0; i < t->ncols; i++)
		ck_assert_msg(!t->cols[i].sq || names_has(store_cols, t->cols[i].sq), "%s.%s is not a stored column",
		              table, t->cols[i].sq);
	for (size_t k = 0; store_cols[k]; k++) {
		size_t i = 0;
		while (i < t->ncols && !(t->cols[i].sq && strcmp(t->cols[i].sq, store_cols[k]) == 0))
			i++;
		ck_assert_msg(i < t->ncols, "%s.%s is stored but not pushed", table, store_cols[k]);
	}
}

START_TEST(store_columns_mapped)
{
	check_table_columns("kernel", kernel_sq);
	check_table_columns("op", op_sq);
	check_table_columns("launch", launch_sq);
	check_table_columns("kernel_coll", coll_sq);
}
END_TEST

START_TEST(urls)
{
	char msg[PROFDB_ERRMAX];
	ck_assert_int_eq(open_err("clickhouse://h/db1", msg), PROFDB_OK);
	ck_assert_str_eq(msg, "h:8123/db1");
	ck_assert_int_eq(open_err("clickhouses://u:p%40ss@h:9/db_2", msg), PROFDB_OK);
	ck_assert_str_eq(msg, "h:9/db_2"); /* no user or password in messages */
	ck_assert_int_eq(open_err("http://h/db", msg), PROFDB_EUSAGE);
	ck_assert_int_eq(open_err("clickhouse://h", msg), PROFDB_EUSAGE);
	ck_assert_int_eq(open_err("clickhouse://h/", msg), PROFDB_EUSAGE);
	ck_assert_int_eq(open_err("clickhouse://h/a-b", msg), PROFDB_EUSAGE);
	ck_assert_int_eq(open_err("clickhouse://h/1db", msg), PROFDB_EUSAGE);
	ck_assert_int_eq(open_err("clickhouse:///db", msg), PROFDB_EUSAGE);
	ck_assert_int_eq(open_err("clickhouse://u:%zz@h/db", msg), PROFDB_EUSAGE);
	ck_assert(profdb_is_remote("clickhouse://h/d"));
	ck_assert(profdb_is_remote("clickhouses://h/d"));
	ck_assert(!profdb_is_remote("./clickhouse.db"));
	ck_assert(!profdb_is_remote("file:///tmp/x.db"));
	ck_assert(!profdb_is_remote("clickhousex://h/d")); /* not a scheme of the table: a path */
}
END_TEST

/*
 * profdb_open_with picks the source by the scheme: clickhouse:// and
 * clickhouses:// reach the server (nobody listens on port 1: the
 * server's error, naming host:port/database and never the password),
 * file:// and a plain path open a SQLite file.
 */
START_TEST(open_by_scheme)
{
	static const char *const remote[] = { "clickhouse://u:secretpw@127.0.0.1:1/db",
	                                       "clickhouses://u:secretpw@127.0.0.1:1/db" };
	struct profdb_remote_opts ro = PROFDB_REMOTE_OPTS_INIT;
	struct profdb_open_opts o = PROFDB_OPEN_OPTS_INIT;
	profdb *db = NULL;
	ro.read_timeout_s = 5;
	o.flags = PROFDB_OPEN_READONLY | PROFDB_OPEN_LAZY;
	o.remote = &ro;
	for (size_t i = 0; i < 2; i++) {
		ck_assert_int_eq(profdb_open_with(&db, remote[i], &o), PROFDB_ERROR);
		ck_assert_msg(strncmp(profdb_errmsg(db), "clickhouse 127.0.0.1:1/db: ", 27) == 0, "%s", profdb_errmsg(db));
		ck_assert_msg(!strstr(profdb_errmsg(db), "secretpw"), "%s", profdb_errmsg(db));
		profdb_close(db);
	}
	/* a path with no file: the file source's own answer */
	o.flags = PROFDB_OPEN_READONLY;
	ck_assert_int_eq(profdb_open_with(&db, "file:///nonexistent/profdb-x.db", &o), PROFDB_ENOTFOUND);
	ck_assert_msg(strstr(profdb_errmsg(db), "'/nonexistent/profdb-x.db'") != NULL, "%s", profdb_errmsg(db));
	profdb_close(db);
	ck_assert_int_eq(profdb_open_with(&db, ":memory:", NULL), PROFDB_OK);
	profdb_close(db);
}
END_TEST

/* Versions and settings the library refuses, with nothing changed. */
START_TEST(open_opts_checked)
{
	struct profdb_remote_opts ro = PROFDB_REMOTE_OPTS_INIT;
	struct profdb_open_opts o = PROFDB_OPEN_OPTS_INIT;
	profdb *db = NULL;
	o.version = PROFDB_OPEN_OPTS_VERSION + 1;
	ck_assert_int_eq(profdb_open_with(&db, ":memory:", &o), PROFDB_EUSAGE);
	profdb_close(db);
	ck_assert_int_eq(profdb_open_with(&db, ":memory:", NULL), PROFDB_OK);
	ro.read_timeout_s = 0;
	ck_assert_int_eq(profdb_set_remote(db, &ro), PROFDB_EUSAGE);
	ro.read_timeout_s = PROFDB_REMOTE_TIMEOUT_MAX + 1;
	ck_assert_int_eq(profdb_set_remote(db, &ro), PROFDB_EUSAGE);
	ro.read_timeout_s = 1;
	ro.password = "pw";
	ck_assert_int_eq(profdb_set_remote(db, &ro), PROFDB_OK);
	ck_assert_int_eq(profdb_set_remote(db, NULL), PROFDB_OK);
	profdb_close(db);
}
END_TEST

START_TEST(server_down)
{
	/* port 1 on loopback: nobody listens (needs no root to connect) */
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *c = NULL;
	ck_assert_int_eq(profdb__ch_open(&c, "clickhouse://u:secretpw@127.0.0.1:1/db", NULL, &err), PROFDB_OK);
	ck_assert_int_eq(profdb__ch_query(c, "SELECT 1", NULL, &err), PROFDB_ERROR);
	ck_assert_msg(strncmp(err.msg, "clickhouse 127.0.0.1:1/db: ", 27) == 0, "%s", err.msg);
	ck_assert_msg(!strstr(err.msg, "secretpw") && !strchr(err.msg, '\n'), "%s", err.msg);
	profdb__ch_close(c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("clickhouse");
	TCase *tc = tcase_create("rowbinary");
	tcase_add_test(tc, rowbinary_bytes);
	tcase_add_test(tc, rowbinary_long_string);
	suite_add_tcase(s, tc);
	tc = tcase_create("http");
	tcase_add_test(tc, urls);
	tcase_add_test(tc, store_columns_mapped);
	tcase_add_test(tc, server_down);
	tcase_add_test(tc, open_by_scheme);
	tcase_add_test(tc, open_opts_checked);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

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
	int rc = profdb__ch_open(&c, url, &err);
	snprintf(msg, PROFDB_ERRMAX, "%s", rc == PROFDB_OK ? profdb__ch_where(c) : err.msg);
	profdb__ch_close(c);
	return rc;
}

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
	ck_assert(profdb_is_clickhouse_url("clickhouse://h/d"));
	ck_assert(!profdb_is_clickhouse_url("./clickhouse.db"));
}
END_TEST

START_TEST(server_down)
{
	/* port 1 on loopback: nobody listens (needs no root to connect) */
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *c = NULL;
	ck_assert_int_eq(profdb__ch_open(&c, "clickhouse://u:secretpw@127.0.0.1:1/db", &err), PROFDB_OK);
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
	tcase_add_test(tc, server_down);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

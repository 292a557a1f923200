/*
 * check_op_rows.c - a file's held op rows sorted into the order of
 * op_run_tid (by rank, thread and start, stable) and inserted from their
 * array (lib/store/op_rows.c), though they are held as they closed
 * (children first) with two threads interleaved and runtime calls
 * appended.  Each row gets the id of its place after the sort, so ids and
 * the order they went in (read back from a trigger's log) both ascend; the
 * row each id holds must be the one qsort puts at that place over the same
 * keys, ties in the order held (each row carries its held place in seq).
 * Rows the order cannot be made for (one without a start) go in as held.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "store/columns.h"
#include "store/op_rows.h"
#include "store/store_impl.h"
#include "testutil.h"

static const char op_cols[] = PROFDB__OP_COLUMNS(PROFDB__COL_SQL);

#define FIRST_ID 1000

static sqlite3 *open_op(struct profdb__op_rows **r)
{
	sqlite3 *db = NULL;
	char sql[1024];
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	snprintf(sql, sizeof sql, "CREATE TABLE op(%s); CREATE TABLE seen(id);"
	         " CREATE TRIGGER log AFTER INSERT ON op BEGIN INSERT INTO seen VALUES (new.id); END;",
	         op_cols + 2);
	ck_assert_int_eq(sqlite3_exec(db, sql, NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(profdb__op_rows_new(r, db, 1, op_cols + 2), SQLITE_OK);
	return db;
}

static struct profdb__op_held held(int64_t tid, int64_t start, int64_t dur)
{
	struct profdb__op_held h;
	memset(&h, 0, sizeof h);
	h.p.rank = 3;
	h.p.step = h.p.ext = h.p.seq = PROFDB_NULL;
	h.p.name_id = 1;
	h.p.tid = tid;
	h.p.start = start;
	h.p.dur = dur;
	h.self = h.dev_self = h.dev_total = PROFDB_NULL;
	return h;
}

/* Insert v[0..n) through r: the ids in the order they went in, into got. */
static void insert_all(sqlite3 *db, struct profdb__op_rows *r, struct profdb__op_held *v, size_t n, int64_t *got)
{
	struct profdb__op_held *copy = malloc(n * sizeof *copy), *old = NULL;
	size_t oldcap = 0, i = 0;
	sqlite3_stmt *q = NULL;
	memcpy(copy, v, n * sizeof *copy);
	profdb__op_rows_sort(copy, n);
	profdb__op_rows_set(r, copy, n, n, FIRST_ID, &old, &oldcap);
	ck_assert_ptr_null(old);
	ck_assert_int_eq(profdb__op_rows_insert(r), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT id FROM seen ORDER BY rowid", -1, &q, NULL), SQLITE_OK);
	while (sqlite3_step(q) == SQLITE_ROW && i < n)
		got[i++] = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	ck_assert_uint_eq(i, n);
}

/* The seq column of the row with id id: the place it was held at. */
static int64_t seq_of(sqlite3 *db, int64_t id)
{
	sqlite3_stmt *q = NULL;
	int64_t seq = -1;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT seq FROM op WHERE id = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_int64(q, 1, id);
	if (sqlite3_step(q) == SQLITE_ROW)
		seq = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return seq;
}

struct keyed { int64_t tid, start; size_t at; };

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->tid != y->tid)
		return x->tid < y->tid ? -1 : 1;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

START_TEST(by_thread_then_start)
{
	struct profdb__op_rows *r = NULL;
	sqlite3 *db = open_op(&r);
	enum { N = 5000 };
	struct profdb__op_held *v = malloc(N * sizeof *v);
	struct keyed *k = malloc(N * sizeof *k);
	int64_t got[N];
	size_t n = 0;
	/* per thread, parents of three children each, held as they closed:
	 * children first (their starts after the parent's), the two threads
	 * interleaved; then runtime calls appended in start order */
	for (int64_t p = 0; n + 8 <= N - 1000; p++)
		for (int64_t tid = 20; tid >= 10; tid -= 10) {
			int64_t t0 = p * 1000 + tid;
			for (int c = 1; c <= 3; c++)
				v[n++] = held(tid, t0 + c * 100, 50);
			v[n++] = held(tid, t0, 900);
		}
	for (int64_t c = 0; n < N; c++)
		v[n++] = held(c % 2 ? 10 : 20, c * 3 + 1, 1);
	for (size_t i = 0; i < n; i++) {
		v[i].p.seq = (int64_t)i;
		k[i] = (struct keyed){ v[i].p.tid, v[i].p.start, i };
	}
	qsort(k, n, sizeof *k, cmp_keyed);
	insert_all(db, r, v, n, got);
	for (size_t i = 0; i < n; i++) {
		ck_assert_int_eq(got[i], FIRST_ID + (int64_t)i);
		ck_assert_int_eq(seq_of(db, got[i]), (int64_t)k[i].at);
	}
	profdb__op_rows_free(r);
	sqlite3_close(db);
	free(v);
	free(k);
}
END_TEST

START_TEST(as_held_without_a_start)
{
	struct profdb__op_rows *r = NULL;
	sqlite3 *db = open_op(&r);
	struct profdb__op_held v[3] = { held(2, 30, 1), held(1, PROFDB_NULL, 1), held(1, 10, 1) };
	int64_t got[3];
	for (int i = 0; i < 3; i++)
		v[i].p.seq = i;
	insert_all(db, r, v, 3, got);
	for (int i = 0; i < 3; i++) {
		ck_assert_int_eq(got[i], FIRST_ID + i);
		ck_assert_int_eq(seq_of(db, got[i]), i);
	}
	profdb__op_rows_free(r);
	sqlite3_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("op_rows");
	TCase *tc = tcase_create("order");
	tcase_add_test(tc, by_thread_then_start);
	tcase_add_test(tc, as_held_without_a_start);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

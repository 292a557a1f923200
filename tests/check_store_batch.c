/*
 * check_store_batch.c - kernel and launch rows inserted a batch at a time
 * (store_batch.c): over several batches, the rows are those sent, with ids
 * that continue the table's; a rank fix-up and the end of a file see rows
 * still pending; the batch on its own keeps NULLs, integers and text; rows
 * whose ids SQLite may give keep them.
 * Every expected value comes from the formulas that generate the rows here.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/rows_vtab.h"
#include "store/store_batch.h"
#include "testutil.h"

#define NK 10000 /* kernels: full batches (1081 rows) and a part */
#define NL 12000 /* launches: two full batches (5120 rows) and a part */
#define ROWS ((int)(PROFDB_BATCH_BYTES / 48)) /* rows of batch_cells' 3-column batch */

static void send_kernels(struct profdb_sink *s, int n, int64_t base)
{
	struct profdb_metric m[1] = { { "aic_mac_ratio", 0.5 } };
	for (int i = 0; i < n; i++) {
		struct profdb_kernel_rec k;
		char name[32];
		profdb__kernel_rec_init(&k);
		snprintf(name, sizeof name, "k%d", i % 7);
		k.name = name;
		k.start_ns = base + 10 * i;
		k.dur_ns = i + 1;
		k.stream = i % 3 == 0 ? PROFDB_NULL : i % 3;
		k.correlation = i;
		k.type = i % 2 ? "MatMul" : NULL;
		if (i % 1000 == 0) {
			k.metrics = m;
			k.nmetrics = 1;
		}
		ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
	}
}

static void send_launches(struct profdb_sink *s, int n)
{
	for (int i = 0; i < n; i++) {
		struct profdb_launch_rec l;
		memset(&l, 0, sizeof l);
		l.rank = PROFDB_NULL;
		l.correlation = i;
		l.tid = i % 2 ? 7 : PROFDB_NULL;
		l.start_ns = 5 * i;
		l.dur_ns = 2;
		l.name = "cudaLaunchKernel";
		l.external_id = PROFDB_NULL;
		ck_assert_int_eq(s->launch(s->arg, &l), PROFDB_OK);
	}
}

/* One run of n kernels (and NL launches when launches) in one file. */
static void ingest(profdb *db, const char *run, int n, int launches)
{
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb__store_begin(&st, db, run, "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	send_kernels(s, n, 1000);
	if (launches)
		send_launches(s, NL);
	ck_assert_int_eq(s->source_end(s->arg, n, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
}

START_TEST(rows_over_batches)
{
	profdb *db = NULL;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ingest(db, "first", 3, 0);
	ingest(db, "second", NK, 1);
	/* ids continue the table's: 3 rows of the first run, then 1..NK + 3 */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel k JOIN run r ON r.id = k.run_id"
	                 " WHERE r.name = 'second'"), NK);
	ck_assert_int_eq(tu_scalar(db, "SELECT min(id) FROM kernel WHERE run_id = 2"), 4);
	ck_assert_int_eq(tu_scalar(db, "SELECT max(id) FROM kernel WHERE run_id = 2"), NK + 3);
	/* row i has id i + 4, start 1000 + 10 i, dur i + 1, correlation i */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND"
	                 " (start_ns <> 1000 + 10 * (id - 4) OR dur_ns <> id - 3 OR correlation <> id - 4)"), 0);
	/* sums: dur 1..NK = NK (NK + 1) / 2 */
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(dur_ns) FROM kernel WHERE run_id = 2"),
	                 (int64_t)NK * (NK + 1) / 2);
	/* stream NULL for i % 3 == 0: i = 0, 3, ..., 9999: 3334 rows */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND stream IS NULL"), 3334);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND stream <> (id - 4) % 3"), 0);
	/* type for odd i only: 5000 rows, all MatMul */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel k JOIN str s ON s.id = k.type_id"
	                 " WHERE k.run_id = 2 AND s.value = 'MatMul' AND (k.id - 4) % 2 = 1"), NK / 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND type_id IS NULL"), NK / 2);
	/* names k0..k6 by i % 7 */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel k JOIN str s ON s.id = k.name_id"
	                 " WHERE k.run_id = 2 AND s.value <> 'k' || ((k.id - 4) % 7)"), 0);
	/* metrics text on every 1000th row: 10 rows, in the view */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND metrics IS NOT NULL"), 10);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND metrics IS NOT NULL"
	                 " AND (id - 4) % 1000 <> 0"), 0);
	/* launches: rowid 1..NL, start 5 i, tid 7 on odd i */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM launch"), NL);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM launch WHERE start_ns <> 5 * (rowid - 1)"
	                 " OR correlation <> rowid - 1 OR rank <> 0"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM launch WHERE tid IS NULL"), NL / 2);
	/* the per-name statistics saw every row: k0 has i = 0, 7, ..., 9996: 1429 */
	ck_assert_int_eq(tu_scalar(db, "SELECT n.calls FROM kernel_name_stat n JOIN str s ON s.id = n.name_id"
	                 " WHERE n.run_id = 2 AND s.value = 'k0'"), 1429);
	ck_assert_int_eq(tu_scalar(db, "SELECT rows_kernels FROM source_file WHERE run_id = 2"), NK);
	profdb_close(db);
}
END_TEST

/* A rank fix-up while rows are pending moves them all (they are flushed
 * first); the other run's rows stay. */
START_TEST(rank_fixup_sees_pending_rows)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ingest(db, "first", 3, 0);
	ck_assert_int_eq(profdb__store_begin(&st, db, "second", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/t.json", "kineto", 0, NULL, 0), PROFDB_OK);
	send_kernels(s, 5000, 0);
	send_launches(s, 100);
	ck_assert_int_eq(s->rank_fixup(s->arg, 0, 3, 100), PROFDB_OK);
	ck_assert_int_eq(s->source_end(s->arg, 5000, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2 AND rank = 3"), 5000);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 2"
	                 " AND start_ns <> 100 + 10 * (id - 4)"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM launch WHERE rank = 3 AND start_ns = 100 + 5 * (rowid - 1)"), 100);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE run_id = 1 AND rank = 0"), 3);
	profdb_close(db);
}
END_TEST

/* An aborted ingest inserts none of its pending rows. */
START_TEST(abort_drops_pending_rows)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	send_kernels(s, 5000, 0);
	profdb__store_abort(st);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run"), 0);
	/* the connection is usable again: a new ingest starts its ids at 1 */
	ingest(db, "r", 2, 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT min(id) FROM kernel"), 1);
	profdb_close(db);
}
END_TEST

/* The batch alone: NULL, integer and text cells, a flush when full, the
 * statement's error when a row breaks a constraint. */
START_TEST(batch_cells)
{
	sqlite3 *db = NULL;
	struct profdb__batch *b = NULL;
	sqlite3_stmt *q = NULL;
	char text[16];
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(a INTEGER NOT NULL, b, c TEXT)", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(profdb__batch_new(&b, db, "t", "a, b, c", 3), SQLITE_OK);
	/* 640 KiB of 16-byte cells, 3 a row */
	ck_assert_uint_eq(profdb__batch_rows(b), PROFDB_BATCH_BYTES / 48);
	for (int i = 0; i < ROWS + 10; i++) {
		ck_assert_int_eq(profdb__batch_row(b), SQLITE_OK);
		profdb__batch_int(b, 0, i);
		profdb__batch_i64(b, 1, i % 2 ? i * 1000000000000LL : PROFDB_NULL);
		snprintf(text, sizeof text, "t%d", i);
		ck_assert_int_eq(profdb__batch_text(b, 2, text), 0);
	}
	/* the first ROWS went in when the batch was full */
	ck_assert_uint_eq(profdb__batch_pending(b), 10);
	ck_assert_int_eq(profdb__batch_flush(b), SQLITE_OK);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT count(*), sum(a), count(b), sum(b = a * 1000000000000),"
	                 " sum(c = 't' || a), sum(typeof(c) = 'text') FROM t", -1, &q, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_ROW);
	ck_assert_int_eq(sqlite3_column_int64(q, 0), ROWS + 10);
	ck_assert_int_eq(sqlite3_column_int64(q, 1), (int64_t)(ROWS + 10) * (ROWS + 9) / 2);
	ck_assert_int_eq(sqlite3_column_int64(q, 2), (ROWS + 10) / 2);
	ck_assert_int_eq(sqlite3_column_int64(q, 3), (ROWS + 10) / 2);
	ck_assert_int_eq(sqlite3_column_int64(q, 4), ROWS + 10);
	ck_assert_int_eq(sqlite3_column_int64(q, 5), ROWS + 10);
	sqlite3_finalize(q);
	/* a NULL in the NOT NULL column: the flush fails with SQLite's reason */
	ck_assert_int_eq(profdb__batch_row(b), SQLITE_OK);
	profdb__batch_null(b, 0);
	ck_assert_int_eq(profdb__batch_flush(b) & 0xff, SQLITE_CONSTRAINT);
	ck_assert_ptr_nonnull(strstr(sqlite3_errmsg(db), "NOT NULL constraint failed: t.a"));
	profdb__batch_free(b);
	/* the module is gone with the batch */
	ck_assert_int_ne(sqlite3_exec(db, "SELECT * FROM profdb_batch_t", NULL, NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
}
END_TEST

/* Rows that leave columns unset: those go in as NULL, as a bound NULL
 * would (not as the column's DEFAULT), whatever mix of columns each flush
 * sets, past the cached statements (one per mix, rows_vtab.h); a column
 * set back to NULL stays NULL. */
START_TEST(batch_columns_never_set)
{
	sqlite3 *db = NULL;
	struct profdb__batch *b = NULL;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(a INTEGER, b DEFAULT 7, c TEXT DEFAULT 'x', d, e)", NULL,
	                              NULL, NULL), SQLITE_OK);
	ck_assert_int_eq(profdb__batch_new(&b, db, "t", "a, b, c, d, e", 5), SQLITE_OK);
	/* flush f sets column a and the columns of f's bits 1-4 (16 mixes) */
	for (int f = 0; f < 16; f++) {
		for (int r = 0; r < 3; r++) {
			ck_assert_int_eq(profdb__batch_row(b), SQLITE_OK);
			profdb__batch_int(b, 0, f * 10 + r);
			if (f & 1)
				profdb__batch_int(b, 1, f);
			if (f & 2)
				ck_assert_int_eq(profdb__batch_text(b, 2, "t"), 0);
			if (f & 4)
				profdb__batch_int(b, 3, -f);
			if (f & 8) /* set, then back to NULL */
				profdb__batch_set(b, profdb__batch_pending(b) - 1, 4, PROFDB_NULL);
		}
		ck_assert_int_eq(profdb__batch_flush(b), SQLITE_OK);
	}
	{
		sqlite3_stmt *q = NULL;
		int n = 0;
		ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT a, b, c, d, e FROM t ORDER BY rowid", -1, &q, NULL),
		                 SQLITE_OK);
		while (sqlite3_step(q) == SQLITE_ROW) {
			int f = n / 3;
			ck_assert_int_eq(sqlite3_column_int64(q, 0), f * 10 + n % 3);
			if (f & 1)
				ck_assert_int_eq(sqlite3_column_int64(q, 1), f);
			else
				ck_assert_int_eq(sqlite3_column_type(q, 1), SQLITE_NULL);
			if (f & 2)
				ck_assert_str_eq((const char *)sqlite3_column_text(q, 2), "t");
			else
				ck_assert_int_eq(sqlite3_column_type(q, 2), SQLITE_NULL);
			if (f & 4)
				ck_assert_int_eq(sqlite3_column_int64(q, 3), -f);
			else
				ck_assert_int_eq(sqlite3_column_type(q, 3), SQLITE_NULL);
			ck_assert_int_eq(sqlite3_column_type(q, 4), SQLITE_NULL);
			n++;
		}
		sqlite3_finalize(q);
		ck_assert_int_eq(n, 48);
	}
	profdb__batch_free(b);
	ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
}
END_TEST

/* Rows id first .. first + n - 1 with v = 3 * id (rows_vtab.h's source). */
struct id_rows {
	struct profdb__rows_src src;
	int64_t first;
	size_t n;
};

static size_t id_rows_count(const struct profdb__rows_src *src)
{
	return ((const struct id_rows *)(const void *)src)->n;
}

static void id_rows_column(const struct profdb__rows_src *src, size_t row, int col, sqlite3_context *ctx)
{
	int64_t id = ((const struct id_rows *)(const void *)src)->first + (int64_t)row;
	sqlite3_result_int64(ctx, col == 0 ? id : 3 * id);
}

/* profdb__rows_insert_run_ids: ids continuing the table's are left to
 * SQLite, which gives the same; ids past a gap, below the largest, or on
 * rows already there go in as given, so a duplicate still fails. */
START_TEST(rows_ids_left_to_sqlite)
{
	static const struct { int64_t first; size_t n; int appended, rc; } step[] = {
		{ 1, 5, 1, SQLITE_OK },         /* an empty table: ids from 1 */
		{ 6, 3, 1, SQLITE_OK },         /* continues 1..5 */
		{ 20, 2, 0, SQLITE_OK },        /* a gap after 8 */
		{ 22, 2, 1, SQLITE_OK },        /* continues 20, 21 */
		{ 10, 2, 0, SQLITE_OK },        /* below the largest, 23: free ids */
		{ 11, 1, 0, SQLITE_CONSTRAINT } /* 11 is there */
	};
	static const int64_t want[] = { 1, 2, 3, 4, 5, 6, 7, 8, 10, 11, 20, 21, 22, 23 };
	struct id_rows rows = { .src = { .ncols = 2, .count = id_rows_count, .column = id_rows_column } };
	struct profdb__rows_insert ri;
	sqlite3 *db = NULL;
	sqlite3_stmt *q = NULL;
	size_t i = 0;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v INTEGER NOT NULL)", NULL, NULL,
	                              NULL), SQLITE_OK);
	ck_assert_int_eq(profdb__rows_insert_new(&ri, db, "test", "t", "id, v", &rows.src), SQLITE_OK);
	for (size_t k = 0; k < sizeof step / sizeof step[0]; k++) {
		int appended = -1;
		rows.first = step[k].first;
		rows.n = step[k].n;
		ck_assert_int_eq(profdb__rows_insert_run_ids(&ri, 3, step[k].first, &appended) & 0xff, step[k].rc);
		ck_assert_int_eq(appended, step[k].appended);
	}
	profdb__rows_insert_free(&ri);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT id, v FROM t ORDER BY id", -1, &q, NULL), SQLITE_OK);
	for (; sqlite3_step(q) == SQLITE_ROW; i++) {
		ck_assert_uint_lt(i, sizeof want / sizeof want[0]);
		ck_assert_int_eq(sqlite3_column_int64(q, 0), want[i]);
		ck_assert_int_eq(sqlite3_column_int64(q, 1), 3 * want[i]);
	}
	ck_assert_uint_eq(i, sizeof want / sizeof want[0]);
	sqlite3_finalize(q);
	ck_assert_int_eq(sqlite3_close(db), SQLITE_OK);
}
END_TEST

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return (x > y) - (x < y);
}

/* numpy.percentile(v, p) (method "linear") over sorted v */
static double pct(const int64_t *v, size_t n, double p)
{
	double h = (double)(n - 1) * p / 100.0;
	size_t lo = (size_t)h;
	if (lo + 1 >= n)
		return (double)v[n - 1];
	return (double)v[lo] + (h - (double)lo) * (double)(v[lo + 1] - v[lo]);
}

/* Durations over the whole 32-bit range (every radix digit), a name with
 * few calls (the short path) and one whose values share the top digits. */
START_TEST(name_percentiles_sorted)
{
	static const struct { const char *name; size_t n; uint32_t mask; } g[] = {
		{ "wide", 20011, 0xffffffffu }, { "few", 37, 0xffffffffu }, { "narrow", 5000, 0x7ffu },
	};
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	uint64_t x = 88172645463325252ull; /* xorshift64 */
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/x", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/x/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	int64_t *want[3];
	for (size_t i = 0; i < 3; i++) {
		want[i] = malloc(g[i].n * sizeof *want[i]);
		ck_assert_ptr_nonnull(want[i]);
		for (size_t j = 0; j < g[i].n; j++) {
			struct profdb_kernel_rec k;
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			profdb__kernel_rec_init(&k);
			k.name = g[i].name;
			k.start_ns = (int64_t)j;
			k.dur_ns = want[i][j] = (int64_t)(x & g[i].mask);
			k.step = 1;
			ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
		}
	}
	ck_assert_int_eq(s->source_end(s->arg, 0, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	for (size_t i = 0; i < 3; i++) {
		static const double ps[3] = { 50, 90, 99 };
		static const char *const col[3] = { "median_ns", "p90_ns", "p99_ns" };
		char sql[200];
		qsort(want[i], g[i].n, sizeof *want[i], cmp_i64);
		for (int p = 0; p < 3; p++) {
			double w = pct(want[i], g[i].n, ps[p]);
			snprintf(sql, sizeof sql, "SELECT n.%s FROM kernel_name_stat n JOIN str s ON s.id = n.name_id"
			         " WHERE s.value = '%s'", col[p], g[i].name);
			ck_assert_double_eq_tol(tu_scalar_d(db, sql), w, 1e-6 * (w > 1 ? w : 1));
		}
		snprintf(sql, sizeof sql, "SELECT n.min_ns = %lld AND n.max_ns = %lld FROM kernel_name_stat n"
		         " JOIN str s ON s.id = n.name_id WHERE s.value = '%s'", (long long)want[i][0],
		         (long long)want[i][g[i].n - 1], g[i].name);
		ck_assert_int_eq(tu_scalar(db, sql), 1);
		free(want[i]);
	}
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("store_batch");
	TCase *tc = tcase_create("batch");
	tcase_add_test(tc, rows_over_batches);
	tcase_add_test(tc, rank_fixup_sees_pending_rows);
	tcase_add_test(tc, abort_drops_pending_rows);
	tcase_add_test(tc, batch_cells);
	tcase_add_test(tc, batch_columns_never_set);
	tcase_add_test(tc, rows_ids_left_to_sqlite);
	tcase_add_test(tc, name_percentiles_sorted);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

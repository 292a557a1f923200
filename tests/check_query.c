/*
 * check_query.c - the queries (query_*.c, filter.c) over runs built through
 * the store API with hand-made kernels and ops.  Every expected value is
 * worked out by hand in the comments from the data below.
 *
 * Run r1 (repeats 2: rank 0 has steps 1 and 2), times in ns:
 *   id  rank step name     kind    type   start dur  stream ext
 *   k1  0    1    MatMul1  kernel  MatMul     0 100  1      11
 *   k2  0    1    MatMul2  kernel  MatMul    50  30  2      11
 *   k3  0    1    Add      kernel  Add      200  10  1      13
 *   k4  0    2    MatMul1  kernel  MatMul  1000 300  1      12
 *   k5  0    2    Add      kernel  Add     1400  20  1      14
 *   k6  0    2    Add      kernel  Add     1410  40  2      14
 *   k7  0    2    Memcpy   memcpy  -       1500  50  3      -
 *   k8  1    1    MatMul1  kernel  MatMul     0 200  1      -
 *   k9  1    -    Add      kernel  Add      300  10  1      -
 * Ops of r1 (rank 0): aten::mm ext 11 (dur 80, self 50), aten::mm ext 12
 * (120, 100), aten::add ext 13 (30, 30), aten::add ext 14 (20, 20).
 * Run r2: one step 1 with host span [0, 1000) on rank 0 and one MatMul1
 * kernel [100, 600).
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void kernel(struct profdb_sink *s, int64_t rank, int64_t step, const char *name, int kind,
                   const char *type, int64_t start, int64_t dur, int64_t stream, int64_t ext)
{
	struct profdb_kernel_rec k;
	profdb__kernel_rec_init(&k);
	k.rank = rank;
	k.step = step;
	k.name = name;
	k.kind = kind;
	k.type = type;
	k.start_ns = start;
	k.dur_ns = dur;
	k.stream = stream;
	k.external_id = ext;
	ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
}

static void op(struct profdb_sink *s, const char *name, int64_t ext, int64_t dur, int64_t self)
{
	struct profdb_op_rec o;
	profdb__op_rec_init(&o);
	o.rank = 0;
	o.name = name;
	o.external_id = ext;
	o.dur_ns = dur;
	o.self_ns = self;
	ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
}

static profdb *make_db(void)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	struct profdb_step_rec sr = { 0, 1, 0, 1000 };

	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r1", "/r1", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/r1/k.csv", "kernel_details", 0, NULL, 0), PROFDB_OK);
	kernel(s, 0, 1, "MatMul1", PROFDB_KIND_KERNEL, "MatMul", 0, 100, 1, 11);
	kernel(s, 0, 1, "MatMul2", PROFDB_KIND_KERNEL, "MatMul", 50, 30, 2, 11);
	kernel(s, 0, 1, "Add", PROFDB_KIND_KERNEL, "Add", 200, 10, 1, 13);
	kernel(s, 0, 2, "MatMul1", PROFDB_KIND_KERNEL, "MatMul", 1000, 300, 1, 12);
	kernel(s, 0, 2, "Add", PROFDB_KIND_KERNEL, "Add", 1400, 20, 1, 14);
	kernel(s, 0, 2, "Add", PROFDB_KIND_KERNEL, "Add", 1410, 40, 2, 14);
	kernel(s, 0, 2, "Memcpy", PROFDB_KIND_MEMCPY, NULL, 1500, 50, 3, PROFDB_NULL);
	kernel(s, 1, 1, "MatMul1", PROFDB_KIND_KERNEL, "MatMul", 0, 200, 1, PROFDB_NULL);
	kernel(s, 1, PROFDB_NULL, "Add", PROFDB_KIND_KERNEL, "Add", 300, 10, 1, PROFDB_NULL);
	op(s, "aten::mm", 11, 80, 50);
	op(s, "aten::mm", 12, 120, 100);
	op(s, "aten::add", 13, 30, 30);
	op(s, "aten::add", 14, 20, 20);
	ck_assert_int_eq(s->source_end(s->arg, 13, NULL, 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);

	ck_assert_int_eq(profdb__store_begin(&st, db, "r2", "/r2", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->step(s->arg, &sr), PROFDB_OK);
	kernel(s, 0, 1, "MatMul1", PROFDB_KIND_KERNEL, "MatMul", 100, 500, 1, PROFDB_NULL);
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
	return db;
}

static size_t col(const profdb_result *r, const char *name)
{
	for (size_t c = 0; c < profdb_result_ncols(r); c++)
		if (strcmp(profdb_result_colname(r, c), name) == 0)
			return c;
	ck_abort_msg("no column %s", name);
	return 0;
}

static double val(const profdb_result *r, size_t row, const char *name)
{
	return profdb_result_double(r, row, col(r, name));
}

static const char *txt(const profdb_result *r, size_t row, const char *name)
{
	return profdb_result_text(r, row, col(r, name));
}

static int isnull(const profdb_result *r, size_t row, const char *name)
{
	return profdb_result_isnull(r, row, col(r, name));
}

static const char *const r1[] = { "r1" };

static struct profdb_kernel_query kq_r1(void)
{
	struct profdb_kernel_query q = PROFDB_KERNEL_QUERY_INIT;
	q.filter.runs = r1;
	q.filter.nruns = 1;
	return q;
}

START_TEST(kernels_by_name)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_kernel_query q = kq_r1();

	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 4);
	ck_assert_int_eq(profdb_result_coltype(r, col(r, "total")), PROFDB_COL_NS);
	ck_assert_int_eq(profdb_result_coltype(r, col(r, "share_pct")), PROFDB_COL_PCT);
	/* one run selected: no run column; order by total: 600, 80, 50, 30 */
	ck_assert_str_eq(profdb_result_colname(r, 0), "share_pct");
	ck_assert_str_eq(txt(r, 0, "name"), "MatMul1");
	ck_assert_str_eq(txt(r, 1, "name"), "Add");
	ck_assert_str_eq(txt(r, 2, "name"), "Memcpy");
	ck_assert_str_eq(txt(r, 3, "name"), "MatMul2");
	/* MatMul1 {100, 300, 200} */
	ck_assert_double_eq(val(r, 0, "total"), 600);
	ck_assert_double_eq(val(r, 0, "calls"), 3);
	ck_assert_double_eq(val(r, 0, "avg"), 200);
	ck_assert_double_eq(val(r, 0, "median"), 200);
	ck_assert_double_eq(val(r, 0, "min"), 100);
	ck_assert_double_eq(val(r, 0, "max"), 300);
	ck_assert_double_eq_tol(val(r, 0, "stddev"), 100, 1e-9);      /* sqrt(20000 / 2) */
	ck_assert_double_eq_tol(val(r, 0, "p90"), 280, 1e-9);         /* h = 1.8 */
	ck_assert_double_eq_tol(val(r, 0, "p99"), 298, 1e-9);         /* h = 1.98 */
	ck_assert_double_eq_tol(val(r, 0, "share_pct"), 600.0 / 760 * 100, 1e-9);
	ck_assert_double_eq(val(r, 0, "per_repeat"), 300);            /* 600 / 2 repeats */
	/* Add {10, 20, 40, 10} */
	ck_assert_double_eq(val(r, 1, "median"), 15);                 /* h = 1.5 over 10 10 20 40 */
	ck_assert_double_eq_tol(val(r, 1, "stddev"), sqrt(200.0), 1e-9); /* 600 / 3 */
	ck_assert_double_eq_tol(val(r, 1, "p90"), 34, 1e-9);          /* h = 2.7 */
	ck_assert_double_eq_tol(val(r, 1, "p99"), 39.4, 1e-9);        /* h = 2.97 */
	/* MatMul2: one call, stddev undefined */
	ck_assert(isnull(r, 3, "stddev"));
	ck_assert_double_eq(val(r, 3, "median"), 30);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(kernels_group_keys)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_kernel_query q = kq_r1();

	q.by = "base-name";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_str_eq(txt(r, 0, "base_name"), "MatMul"); /* MatMul1 + MatMul2 */
	ck_assert_double_eq(val(r, 0, "total"), 630);
	ck_assert_double_eq(val(r, 0, "calls"), 4);
	profdb_result_free(r);

	q.by = "type,rank";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	/* integer keys first, text keys last */
	ck_assert_str_eq(profdb_result_colname(r, 0), "rank");
	ck_assert_str_eq(profdb_result_colname(r, profdb_result_ncols(r) - 1), "type");
	/* MatMul rank 0: 100+30+300 = 430; rank 1: 200; Add rank 0: 70; Memcpy (no type): 50; Add rank 1: 10 */
	ck_assert_int_eq(profdb_result_nrows(r), 5);
	ck_assert_double_eq(val(r, 0, "total"), 430);
	ck_assert_double_eq(val(r, 1, "total"), 200);
	ck_assert_double_eq(val(r, 1, "rank"), 1);
	ck_assert_double_eq(val(r, 2, "total"), 70);
	ck_assert(isnull(r, 3, "type"));
	profdb_result_free(r);

	q.by = "kind";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_str_eq(txt(r, 0, "kind"), "kernel");
	ck_assert_double_eq(val(r, 0, "total"), 710);
	ck_assert_str_eq(txt(r, 1, "kind"), "memcpy");
	profdb_result_free(r);

	q.by = "name,step";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	/* MatMul1 step 1 (100 + 200) and step 2 (300) tie on total: step 1 first */
	ck_assert_str_eq(txt(r, 0, "name"), "MatMul1");
	ck_assert_double_eq(val(r, 0, "step"), 1);
	ck_assert_double_eq(val(r, 1, "step"), 2);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(kernels_filters)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_kernel_query q = kq_r1();

	q.filter.rank = 0;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_double_eq(val(r, 0, "total"), 400);
	ck_assert_double_eq_tol(val(r, 0, "share_pct"), 400.0 / 550 * 100, 1e-9); /* rank 0 has 550 */
	profdb_result_free(r);

	q = kq_r1();
	q.filter.step_lo = 2;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 3);           /* MatMul1, Add, Memcpy */
	ck_assert_double_eq(val(r, 1, "total"), 60);
	ck_assert_double_eq_tol(val(r, 0, "share_pct"), 300.0 / 410 * 100, 1e-9);
	profdb_result_free(r);

	q = kq_r1();
	q.filter.step_hi = 1;
	q.filter.step_lo = 1;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_double_eq(val(r, 0, "total"), 300);          /* MatMul1 100 + 200 */
	profdb_result_free(r);

	/* the name filter keeps the run's whole device time as denominator */
	q = kq_r1();
	q.filter.name_glob = "Mat*";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 2);
	ck_assert_double_eq_tol(val(r, 1, "share_pct"), 30.0 / 760 * 100, 1e-9);
	profdb_result_free(r);

	q = kq_r1();
	q.filter.kind = "memcpy";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 1);
	ck_assert_str_eq(txt(r, 0, "name"), "Memcpy");
	profdb_result_free(r);

	q = kq_r1();
	q.filter.min_total_ns = 60;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 2);           /* 600 and 80 */
	profdb_result_free(r);

	/* no run given: every run, with a run column, top N per run */
	q = (struct profdb_kernel_query)PROFDB_KERNEL_QUERY_INIT;
	q.top = 1;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_str_eq(profdb_result_colname(r, 0), "run");
	ck_assert_int_eq(profdb_result_nrows(r), 2);
	ck_assert_str_eq(txt(r, 0, "run"), "r1");
	ck_assert_str_eq(txt(r, 1, "run"), "r2");
	ck_assert_double_eq(val(r, 1, "total"), 500);
	ck_assert_double_eq(val(r, 1, "share_pct"), 100);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(kernels_sort)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_kernel_query q = kq_r1();

	q.sort = "calls"; /* 4, 3, then 1 and 1 broken by total: Memcpy 50, MatMul2 30 */
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_str_eq(txt(r, 0, "name"), "Add");
	ck_assert_str_eq(txt(r, 1, "name"), "MatMul1");
	ck_assert_str_eq(txt(r, 2, "name"), "Memcpy");
	profdb_result_free(r);
	q.sort = "name";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_str_eq(txt(r, 0, "name"), "Add");
	ck_assert_str_eq(txt(r, 3, "name"), "Memcpy");
	profdb_result_free(r);
	q.sort = "total";
	q.ascending = 1;
	q.top = 2;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 2);
	ck_assert_str_eq(txt(r, 0, "name"), "MatMul2");
	ck_assert_str_eq(txt(r, 1, "name"), "Memcpy");
	profdb_result_free(r);
	q.sort = "p99";
	q.ascending = 0;
	q.top = 0;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_str_eq(txt(r, 0, "name"), "MatMul1"); /* 298 > 50 > 39.4 > 30 */
	ck_assert_str_eq(txt(r, 2, "name"), "Add");
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(kernels_per_step)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_kernel_query q = kq_r1();

	q.per_step = 1;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 4);
	ck_assert_int_eq(profdb_result_nnotes(r), 1);
	ck_assert_ptr_nonnull(strstr(profdb_result_note(r, 0), "over 2 steps (1..2)"));
	/* MatMul1: step 1 100 + 200, step 2 300: mean 300, sd 0, max_step 1 (tie: lowest) */
	ck_assert_str_eq(txt(r, 0, "name"), "MatMul1");
	ck_assert_double_eq(val(r, 0, "mean"), 300);
	ck_assert_double_eq(val(r, 0, "stddev"), 0);
	ck_assert_double_eq(val(r, 0, "max_step"), 1);
	ck_assert_double_eq(val(r, 0, "steps"), 2);
	ck_assert_double_eq(val(r, 0, "calls"), 3);
	/* Add: step 1 10, step 2 60 (rank 1's Add has no step): mean 35, sd sqrt(1250) */
	ck_assert_str_eq(txt(r, 1, "name"), "Add");
	ck_assert_double_eq(val(r, 1, "mean"), 35);
	ck_assert_double_eq_tol(val(r, 1, "stddev"), sqrt(1250.0), 1e-9);
	ck_assert_double_eq(val(r, 1, "max_step"), 2);
	/* Memcpy only in step 2: 0 and 50 */
	ck_assert_str_eq(txt(r, 2, "name"), "Memcpy");
	ck_assert_double_eq(val(r, 2, "mean"), 25);
	ck_assert_double_eq(val(r, 2, "min"), 0);
	ck_assert_double_eq(val(r, 2, "steps"), 1);
	/* MatMul2 only in step 1: 30 and 0 */
	ck_assert_double_eq(val(r, 3, "mean"), 15);
	ck_assert_double_eq_tol(val(r, 3, "stddev"), sqrt(450.0), 1e-9);
	ck_assert_double_eq(val(r, 3, "max_step"), 1);
	profdb_result_free(r);
	q.by = "name,step";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_EUSAGE);
	profdb_close(db);
}
END_TEST

START_TEST(kernels_errors)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_kernel_query q = kq_r1();
	const char *const evil[] = { "r1' OR '1'='1" };

	q.by = "bogus";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_EUSAGE);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "unknown grouping key 'bogus'"));
	q.by = "name,name";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_EUSAGE);
	q = kq_r1();
	q.sort = "total; DROP TABLE kernel";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_EUSAGE);
	q = kq_r1();
	q.filter.kind = "bogus";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_EUSAGE);
	q = kq_r1();
	q.filter.step_lo = 5;
	q.filter.step_hi = 2;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_EUSAGE);
	/* user values are bound, never SQL */
	q = kq_r1();
	q.filter.runs = evil;
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "no run named"));
	q = kq_r1();
	q.filter.name_glob = "x' OR 1=1 --";
	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 0);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(steps_busy)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_filter f;
	sqlite3_stmt *st;
	const int64_t busy_want[] = { 110, 400, 10, 200 };
	size_t i = 0;

	profdb_filter_init(&f);
	f.runs = r1;
	f.nruns = 1;
	ck_assert_int_eq(profdb_query_steps(db, &r, &f), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 4);
	/* rank 0 step 1: [0,100) u [50,80) u [200,210) = 110 over the span 0..210 */
	ck_assert_double_eq(val(r, 0, "rank"), 0);
	ck_assert_double_eq(val(r, 0, "step"), 1);
	ck_assert_double_eq(val(r, 0, "busy"), 110);
	ck_assert_double_eq(val(r, 0, "span"), 210);
	ck_assert_double_eq(val(r, 0, "wall"), 210);              /* no host span: the device span */
	ck_assert_double_eq_tol(val(r, 0, "busy_pct"), 110.0 / 210 * 100, 1e-9);
	ck_assert_double_eq(val(r, 0, "kernels"), 3);
	ck_assert_double_eq(val(r, 0, "device_total"), 140);
	ck_assert_str_eq(txt(r, 0, "top_kernel"), "MatMul1");
	ck_assert_double_eq(val(r, 0, "top_total"), 100);
	/* rank 0 step 2: 300 + [1400,1450) + 50 = 400; sum 410 */
	ck_assert_double_eq(val(r, 1, "busy"), 400);
	ck_assert_double_eq(val(r, 1, "device_total"), 410);
	ck_assert_double_eq(val(r, 1, "span"), 550);
	/* rank 1: the kernel outside every step first (NULL sorts first), then step 1 */
	ck_assert(isnull(r, 2, "step"));
	ck_assert_double_eq(val(r, 2, "busy"), 10);
	ck_assert_str_eq(txt(r, 2, "top_kernel"), "Add");
	ck_assert_double_eq(val(r, 3, "busy"), 200);
	profdb_result_free(r);

	/* the plain-SQL view agrees with the C sweep */
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT busy_ns FROM step_stats WHERE run = 'r1'"
	                 " ORDER BY rank, step", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		ck_assert_uint_lt(i, 4);
		ck_assert_int_eq(sqlite3_column_int64(st, 0), busy_want[i]);
		i++;
	}
	sqlite3_finalize(st);
	ck_assert_uint_eq(i, 4);

	/* r2: the host span [0, 1000) is the wall; the kernel covers half */
	f.runs = (const char *const[]){ "r2" };
	ck_assert_int_eq(profdb_query_steps(db, &r, &f), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 1);
	ck_assert_double_eq(val(r, 0, "wall"), 1000);
	ck_assert_double_eq(val(r, 0, "busy"), 500);
	ck_assert_double_eq(val(r, 0, "busy_pct"), 100);
	profdb_result_free(r);

	/* a name filter: busy of the matching kernels only */
	f.runs = r1;
	f.name_glob = "Add";
	f.rank = 0;
	ck_assert_int_eq(profdb_query_steps(db, &r, &f), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 2);
	ck_assert_double_eq(val(r, 0, "busy"), 10);
	ck_assert_double_eq(val(r, 1, "busy"), 50);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(ops_linked)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_op_query q = PROFDB_OP_QUERY_INIT;

	q.filter.runs = r1;
	q.filter.nruns = 1;
	ck_assert_int_eq(profdb_query_ops(db, &r, &q), PROFDB_OK);
	/* aten::mm, aten::add and (no operator): the device time no op
	 * claims, r1's 760 less the ops' 430 + 70 = the Memcpy 50 and rank 1's
	 * MatMul1 200 and Add 10 */
	ck_assert_int_eq(profdb_result_nrows(r), 3);
	ck_assert_str_eq(txt(r, 2, "name"), "(no operator)");
	ck_assert_double_eq(val(r, 2, "device_self"), 260);
	ck_assert_str_eq(txt(r, 0, "name"), "aten::mm");
	ck_assert_double_eq(val(r, 0, "calls"), 2);
	ck_assert_double_eq(val(r, 0, "host_self"), 150);
	ck_assert_double_eq(val(r, 0, "host_total"), 200);
	ck_assert_double_eq(val(r, 0, "host_avg"), 100);
	/* the store derives device self time from External ids: 100 + 30 + 300 */
	ck_assert_double_eq(val(r, 0, "device_self"), 430);
	ck_assert(isnull(r, 0, "device_total"));
	/* MatMul1 400 of 430 = 93.0%, MatMul2 30 of 430 = 7.0% */
	ck_assert_str_eq(txt(r, 0, "top_kernels"), "MatMul1 (93.0%); MatMul2 (7.0%)");
	ck_assert_str_eq(txt(r, 1, "top_kernels"), "Add (100.0%)");
	profdb_result_free(r);
	q.sort = "bogus";
	ck_assert_int_eq(profdb_query_ops(db, &r, &q), PROFDB_EUSAGE);
	q.sort = "name";
	q.by_shape = 1;
	ck_assert_int_eq(profdb_query_ops(db, &r, &q), PROFDB_OK);
	/* "(" sorts before the letters */
	ck_assert_str_eq(txt(r, 0, "name"), "(no operator)");
	ck_assert_str_eq(txt(r, 1, "name"), "aten::add");
	ck_assert(isnull(r, 1, "shape"));
	ck_assert_str_eq(txt(r, 2, "top_kernels"), "MatMul1 (93.0%); MatMul2 (7.0%)");
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(summary_and_runs)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_filter f;

	profdb_filter_init(&f);
	ck_assert_int_eq(profdb_query_summary(db, &r, &f), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 2);
	/* cmd_ingest reads column 0 = run, then repeats, kernels, ... */
	ck_assert_str_eq(profdb_result_colname(r, 0), "run");
	ck_assert_str_eq(profdb_result_colname(r, 1), "repeats");
	ck_assert_str_eq(txt(r, 0, "run"), "r1");
	ck_assert_double_eq(val(r, 0, "repeats"), 2);
	ck_assert_double_eq(val(r, 0, "kernels"), 9);
	ck_assert_double_eq(val(r, 0, "total_device"), 760);
	ck_assert_double_eq(val(r, 0, "elapsed"), 1550);          /* rank 0: 0..1550 */
	ck_assert_double_eq(val(r, 0, "total_cpu"), 200);
	profdb_result_free(r);
	f.runs = (const char *const[]){ "r2" };
	f.nruns = 1;
	ck_assert_int_eq(profdb_query_summary(db, &r, &f), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 1);
	ck_assert_double_eq(val(r, 0, "total_device"), 500);
	profdb_result_free(r);
	f.runs = (const char *const[]){ "nope" };
	ck_assert_int_eq(profdb_query_summary(db, &r, &f), PROFDB_ENOTFOUND);

	ck_assert_int_eq(profdb_query_runs(db, &r, NULL), PROFDB_OK);
	ck_assert_int_eq(profdb_result_nrows(r), 2);
	ck_assert_str_eq(profdb_result_colname(r, 0), "id");
	ck_assert_str_eq(profdb_result_colname(r, 1), "name");
	ck_assert_str_eq(txt(r, 1, "name"), "r2");
	ck_assert_double_eq(val(r, 0, "ops"), 4);
	ck_assert_double_eq(val(r, 0, "total_device"), 760);
	profdb_result_free(r);

	ck_assert_int_eq(profdb_sql(db, &r, "SELECT median(dur_ns) FROM kernel WHERE run_id = 1", NULL), PROFDB_OK);
	ck_assert_double_eq(profdb_result_double(r, 0, 0), 40);   /* 9 values: the 5th of 10 10 20 30 40 50 100 200 300 */
	profdb_result_free(r);
	ck_assert_int_eq(profdb_sql(db, &r, "SELECT 1; SELECT 2", NULL), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_sql(db, &r, "SELEC 1", NULL), PROFDB_ERROR);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("query");
	TCase *tc = tcase_create("kernels");
	tcase_add_test(tc, kernels_by_name);
	tcase_add_test(tc, kernels_group_keys);
	tcase_add_test(tc, kernels_filters);
	tcase_add_test(tc, kernels_sort);
	tcase_add_test(tc, kernels_per_step);
	tcase_add_test(tc, kernels_errors);
	suite_add_tcase(s, tc);
	tc = tcase_create("others");
	tcase_add_test(tc, steps_busy);
	tcase_add_test(tc, ops_linked);
	tcase_add_test(tc, summary_and_runs);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

/*
 * check_init.c - every options struct of profdb.h has a PROFDB_*_INIT whose
 * defaults mean "no restriction": a query with it returns every row, the
 * same as with the filter profdb_filter_init makes, while a zeroed struct
 * (rank 0, steps 0..0) returns nothing.  Expected values are counted by
 * hand from the run below.
 *
 * Run "r", two ranks, steps 1 [0, 1000) and 2 [1000, 2000) on each, ns:
 *   rank step name            kind     start dur  stream bytes
 *   0    1    A               kernel       0 100  7
 *   0    1    B               kernel     200  50  7
 *   0    1    Memcpy HtoD     memcpy     400  40  8      4000
 *   0    2    A               kernel    1000 200  7
 *   0    2    ncclAllReduce   comm      1300  60  9
 *   1    1    A               kernel       0 300  7
 *   1    1    Memcpy HtoD     memcpy     500  20  8      2000
 *   1    2    B               kernel    1000  70  7
 *   1    2    ncclAllReduce   comm      1200  90  9
 * 9 activities, 930 ns in all, 4 names; streams 7, 8, 9 on each rank.
 * Ops: aten::mm (rank 0, step 1), aten::add (rank 1, step 2).
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static void kernel(struct profdb_sink *s, int64_t rank, int64_t step, const char *name, int kind,
                   int64_t start, int64_t dur, int64_t stream, int64_t bytes)
{
	struct profdb_kernel_rec k;
	profdb__kernel_rec_init(&k);
	k.rank = rank;
	k.step = step;
	k.name = name;
	k.kind = kind;
	k.start_ns = start;
	k.dur_ns = dur;
	k.stream = stream;
	k.bytes = bytes;
	ck_assert_int_eq(s->kernel(s->arg, &k), PROFDB_OK);
}

static void op(struct profdb_sink *s, int64_t rank, int64_t step, const char *name, int64_t start)
{
	struct profdb_op_rec o;
	profdb__op_rec_init(&o);
	o.rank = rank;
	o.step = step;
	o.name = name;
	o.start_ns = start;
	o.dur_ns = 30;
	o.self_ns = 30;
	ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
}

static profdb *make_db(void)
{
	profdb *db = NULL;
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	const int64_t N = PROFDB_NULL;

	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb__store_begin(&st, db, "r", "/r", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	ck_assert_int_eq(s->source_begin(s->arg, "/r/t.json", "trace", 0, NULL, 0), PROFDB_OK);
	for (int64_t rank = 0; rank < 2; rank++)
		for (int64_t step = 1; step <= 2; step++) {
			struct profdb_step_rec sr = { rank, step, (step - 1) * 1000, step * 1000 };
			ck_assert_int_eq(s->step(s->arg, &sr), PROFDB_OK);
		}
	kernel(s, 0, 1, "A", PROFDB_KIND_KERNEL, 0, 100, 7, N);
	kernel(s, 0, 1, "B", PROFDB_KIND_KERNEL, 200, 50, 7, N);
	kernel(s, 0, 1, "Memcpy HtoD", PROFDB_KIND_MEMCPY, 400, 40, 8, 4000);
	kernel(s, 0, 2, "A", PROFDB_KIND_KERNEL, 1000, 200, 7, N);
	kernel(s, 0, 2, "ncclAllReduce", PROFDB_KIND_COMM, 1300, 60, 9, N);
	kernel(s, 1, 1, "A", PROFDB_KIND_KERNEL, 0, 300, 7, N);
	kernel(s, 1, 1, "Memcpy HtoD", PROFDB_KIND_MEMCPY, 500, 20, 8, 2000);
	kernel(s, 1, 2, "B", PROFDB_KIND_KERNEL, 1000, 70, 7, N);
	kernel(s, 1, 2, "ncclAllReduce", PROFDB_KIND_COMM, 1200, 90, 9, N);
	op(s, 0, 1, "aten::mm", 0);
	op(s, 1, 2, "aten::add", 1000);
	ck_assert_int_eq(s->source_end(s->arg, 9, NULL, 0), PROFDB_OK);
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

/* Sum of column name over r's rows. */
static double sum(const profdb_result *r, const char *name)
{
	double t = 0;
	size_t c = col(r, name);
	for (size_t i = 0; i < profdb_result_nrows(r); i++)
		t += profdb_result_double(r, i, c);
	return t;
}

/* r and s hold the same cells, as text. */
static void same_rows(const profdb_result *r, const profdb_result *s)
{
	ck_assert_uint_eq(profdb_result_nrows(r), profdb_result_nrows(s));
	ck_assert_uint_eq(profdb_result_ncols(r), profdb_result_ncols(s));
	for (size_t i = 0; i < profdb_result_nrows(r); i++)
		for (size_t c = 0; c < profdb_result_ncols(r); c++) {
			const char *a = profdb_result_text(r, i, c), *b = profdb_result_text(s, i, c);
			ck_assert_int_eq(a == NULL, b == NULL);
			if (a)
				ck_assert_str_eq(a, b);
		}
}

START_TEST(kernel_query)
{
	profdb *db = make_db();
	profdb_result *r = NULL, *s = NULL;
	struct profdb_kernel_query q = PROFDB_KERNEL_QUERY_INIT, all, zero;

	ck_assert_int_eq(profdb_query_kernels(db, &r, &q), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 4);
	ck_assert_double_eq(sum(r, "calls"), 9);
	ck_assert_double_eq(sum(r, "total"), 930);
	/* the run-time initialiser selects the same */
	memset(&all, 0, sizeof all);
	all.version = PROFDB_KERNEL_QUERY_VERSION;
	profdb_filter_init(&all.filter);
	ck_assert_int_eq(profdb_query_kernels(db, &s, &all), PROFDB_OK);
	same_rows(r, s);
	profdb_result_free(s);
	s = NULL;
	/* a zeroed struct is refused: its version (0) is none of ours */
	memset(&zero, 0, sizeof zero);
	ck_assert_int_eq(profdb_query_kernels(db, &s, &zero), PROFDB_EUSAGE);
	ck_assert_ptr_null(s);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "struct profdb_kernel_query has version 0"));
	/* the trap the macro avoids: a zeroed filter is rank 0, steps 0..0 */
	zero.version = PROFDB_KERNEL_QUERY_VERSION;
	zero.filter.version = PROFDB_FILTER_VERSION;
	ck_assert_int_eq(profdb_query_kernels(db, &s, &zero), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(s), 0);
	profdb_result_free(s);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(op_query)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_op_query q = PROFDB_OP_QUERY_INIT;

	ck_assert_int_eq(profdb_query_ops(db, &r, &q), PROFDB_OK);
	/* aten::mm on rank 0, aten::add on rank 1, and (no operator): no op
	 * launched a kernel here, so it holds the run's device time, the nine
	 * activities' 100 + 50 + 40 + 200 + 60 + 300 + 20 + 70 + 90 */
	ck_assert_uint_eq(profdb_result_nrows(r), 3);
	ck_assert_double_eq(sum(r, "calls"), 2);
	ck_assert_double_eq(sum(r, "device_self"), 930);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(analyses)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_breakdown_query bq = PROFDB_BREAKDOWN_QUERY_INIT;
	struct profdb_ranks_query rq = PROFDB_RANKS_QUERY_INIT;
	struct profdb_idle_query iq = PROFDB_IDLE_QUERY_INIT;
	struct profdb_bandwidth_query wq = PROFDB_BANDWIDTH_QUERY_INIT;
	struct profdb_collective_query cq = PROFDB_COLLECTIVE_QUERY_INIT;

	/* one row per (rank, step): 2 x 2, every activity counted */
	ck_assert_int_eq(profdb_query_breakdown(db, &r, &bq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 4);
	ck_assert_double_eq(sum(r, "kernels"), 9);
	profdb_result_free(r);
	ck_assert_int_eq(profdb_query_ranks(db, &r, &rq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 4);
	profdb_result_free(r);
	/* one row per (rank, stream): 2 x 3 */
	ck_assert_int_eq(profdb_query_idle(db, &r, &iq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 6);
	ck_assert_double_eq(sum(r, "kernels"), 9);
	profdb_result_free(r);
	/* HtoD of (0, 1) and (1, 1): 4000 + 2000 bytes */
	ck_assert_int_eq(profdb_query_bandwidth(db, &r, &wq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 2);
	ck_assert_double_eq(sum(r, "bytes"), 6000);
	profdb_result_free(r);
	/* all_reduce on each rank, one call each */
	ck_assert_int_eq(profdb_query_collectives(db, &r, &cq), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 2);
	ck_assert_double_eq(sum(r, "calls"), 2);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(launch_and_flops_queries)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_launch_query lq = PROFDB_LAUNCH_QUERY_INIT;
	struct profdb_flops_query fq = PROFDB_FLOPS_QUERY_INIT;

	/* no launch calls and no shapes here: the defaults are valid queries */
	ck_assert_int_eq(profdb_query_launches(db, &r, &lq), PROFDB_OK);
	profdb_result_free(r);
	ck_assert_int_eq(profdb_query_flops(db, &r, &fq), PROFDB_OK);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(sql_and_format_opts)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	struct profdb_sql_opts so = PROFDB_SQL_OPTS_INIT;
	struct profdb_format_opts fo = PROFDB_FORMAT_OPTS_INIT;
	char *a = NULL, *b = NULL;
	size_t na = 0, nb = 0;
	FILE *fa, *fb;

	ck_assert_int_eq(so.write, 0);
	ck_assert_int_eq(so.timeout_ms, 300000);
	ck_assert_int_eq(profdb_sql(db, &r, "SELECT count(*) FROM kernel", &so), PROFDB_OK);
	ck_assert_int_eq(profdb_result_int(r, 0, 0), 9);
	profdb_result_free(r);
	r = NULL;
	/* reads only: a write is refused, nothing deleted */
	ck_assert_int_ne(profdb_sql(db, &r, "DELETE FROM kernel", &so), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 9);

	/* the default format is what a NULL opts writes: a table, no width limit */
	ck_assert_int_eq(fo.format, PROFDB_FMT_TABLE);
	ck_assert_int_eq(fo.unit, PROFDB_UNIT_AUTO);
	ck_assert_int_eq(fo.width, 0);
	ck_assert_int_eq(profdb_sql(db, &r, "SELECT name, count(*) AS n FROM kernel_v GROUP BY name", NULL),
	                 PROFDB_OK);
	fa = open_memstream(&a, &na);
	fb = open_memstream(&b, &nb);
	ck_assert_int_eq(profdb_result_write(r, fa, &fo), PROFDB_OK);
	ck_assert_int_eq(profdb_result_write(r, fb, NULL), PROFDB_OK);
	fclose(fa);
	fclose(fb);
	ck_assert_uint_gt(na, 0);
	ck_assert_str_eq(a, b);
	free(a);
	free(b);
	profdb_result_free(r);
	profdb_close(db);
}
END_TEST

START_TEST(ingest_opts)
{
	/* corr_ext.json holds 5 device activities (its README): conv_kernel,
	 * the memset, gemm_kernel, orphan_kernel, add_kernel */
	const char *path = tu_testdata("kineto_link/corr_ext.json");
	profdb *db = NULL, *db2 = NULL;
	struct profdb_ingest_opts o = PROFDB_INGEST_OPTS_INIT;

	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, NULL, path, &o), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 5);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run WHERE name = 'corr_ext'"), 1);
	ck_assert_int_eq(profdb_open(&db2, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db2, NULL, path, NULL), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db2, "SELECT count(*) FROM kernel"), 5);
	profdb_close(db2);
	profdb_close(db);
}
END_TEST

/* A file no reader recognises is PROFDB_EUNKNOWN, not a generic failure
 * nor a corrupt input; a gzip stream that does not decode is EFORMAT. */
START_TEST(ingest_unknown)
{
	char path[1100], gz[1100];
	static const unsigned char cut[] = { 0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0xcb };
	profdb *db = NULL;

	snprintf(path, sizeof path, "%s/notes.txt", tu_tmpdir());
	snprintf(gz, sizeof gz, "%s/cut.json.gz", tu_tmpdir());
	ck_assert_int_eq(tu_write_file(path, "just some words\n", 16), 0);
	ck_assert_int_eq(tu_write_file(gz, cut, sizeof cut), 0);
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, NULL, path, NULL), PROFDB_EUNKNOWN);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "not a format profdb reads"));
	ck_assert_int_eq(profdb_ingest(db, NULL, gz, NULL), PROFDB_EFORMAT);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run"), 0);
	ck_assert_str_eq(profdb_strerror(PROFDB_EUNKNOWN), "input in no format profdb reads");
	profdb_close(db);
}
END_TEST

/* Each options struct carries the version its _INIT macro sets; a struct
 * of another version (a program built against another header) is refused
 * with PROFDB_EUSAGE before any field is read. */
START_TEST(versions_checked)
{
	profdb *db = make_db();
	profdb_result *r = NULL;
	profdb_comparison *c = NULL;
	struct profdb_limits lim = PROFDB_LIMITS_INIT;
	struct profdb_ingest_opts io = PROFDB_INGEST_OPTS_INIT;
	struct profdb_filter f = PROFDB_FILTER_INIT;
	struct profdb_sql_opts so = PROFDB_SQL_OPTS_INIT;
	struct profdb_format_opts fo = PROFDB_FORMAT_OPTS_INIT;
	struct profdb_diff_opts dopt = PROFDB_DIFF_OPTS_INIT;
	struct profdb_op_query oq = PROFDB_OP_QUERY_INIT;
	struct profdb_breakdown_query bq = PROFDB_BREAKDOWN_QUERY_INIT;
	struct profdb_launch_query lq = PROFDB_LAUNCH_QUERY_INIT;
	struct profdb_bandwidth_query wq = PROFDB_BANDWIDTH_QUERY_INIT;
	struct profdb_memory_query mq = PROFDB_MEMORY_QUERY_INIT;
	struct profdb_idle_query iq = PROFDB_IDLE_QUERY_INIT;
	struct profdb_ranks_query rq = PROFDB_RANKS_QUERY_INIT;
	struct profdb_collective_query cq = PROFDB_COLLECTIVE_QUERY_INIT;
	struct profdb_flops_query fq = PROFDB_FLOPS_QUERY_INIT;
	const char *r_run[] = { "r" };
	FILE *devnull = fopen("/dev/null", "w");

	ck_assert_ptr_nonnull(devnull);
	ck_assert_uint_eq(lim.version, PROFDB_LIMITS_VERSION);
	ck_assert_uint_eq(f.version, PROFDB_FILTER_VERSION);
	ck_assert_uint_eq(oq.filter.version, PROFDB_FILTER_VERSION);
	lim.version = io.version = f.version = so.version = fo.version = dopt.version = 99;
	oq.version = bq.version = lq.version = wq.version = mq.version = 99;
	iq.version = rq.version = cq.version = fq.version = 99;
	ck_assert_int_eq(profdb_set_limits(db, &lim), PROFDB_EUSAGE);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "struct profdb_limits has version 99, this library reads"
	                                                " version 1"));
	ck_assert_int_eq(profdb_ingest(db, NULL, tu_testdata("kineto_link/corr_ext.json"), &io), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_steps(db, &r, &f), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_summary(db, &r, &f), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_runs(db, &r, &f), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_apis(db, &r, &f), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_summary_by(db, &r, &f, "tag:x"), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_tags(db, &r, &f), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_sql(db, &r, "SELECT 1", &so), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_ops(db, &r, &oq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_breakdown(db, &r, &bq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_launches(db, &r, &lq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_bandwidth(db, &r, &wq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_memory(db, &r, &mq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_idle(db, &r, &iq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_ranks(db, &r, &rq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_collectives(db, &r, &cq), PROFDB_EUSAGE);
	ck_assert_int_eq(profdb_query_flops(db, &r, &fq), PROFDB_EUSAGE);
	dopt.base_runs = dopt.new_runs = r_run;
	dopt.nbase = dopt.nnew = 1;
	ck_assert_int_eq(profdb_compare(db, &c, &dopt), PROFDB_EUSAGE);
	ck_assert_ptr_null(c);
	ck_assert_int_eq(profdb_result_stream(db, devnull, &fo), PROFDB_EUSAGE);
	ck_assert_ptr_null(r);
	/* the right versions pass (nothing above changed the handle) */
	so.version = PROFDB_SQL_OPTS_VERSION;
	ck_assert_int_eq(profdb_sql(db, &r, "SELECT count(*) FROM kernel", &so), PROFDB_OK);
	ck_assert_int_eq(profdb_result_int(r, 0, 0), 9);
	ck_assert_int_eq(profdb_result_write(r, devnull, &fo), PROFDB_EUSAGE);
	so.format = &fo;
	so.stream = devnull;
	ck_assert_int_eq(profdb_sql(db, NULL, "SELECT 1", &so), PROFDB_EUSAGE);
	fo.version = PROFDB_FORMAT_OPTS_VERSION;
	ck_assert_int_eq(profdb_result_write(r, devnull, &fo), PROFDB_OK);
	ck_assert_int_eq(profdb_sql(db, NULL, "SELECT 1", &so), PROFDB_OK);
	profdb_result_free(r);
	fclose(devnull);
	profdb_close(db);
}
END_TEST

START_TEST(diff_opts)
{
	struct profdb_diff_opts m = PROFDB_DIFF_OPTS_INIT, f;

	memset(&f, 0xff, sizeof f);
	profdb_diff_opts_init(&f);
	/* the documented defaults, and the function sets the same */
	ck_assert_double_eq(m.threshold, 0.05);
	ck_assert_double_eq(m.alpha, 0.01);
	ck_assert_int_eq(m.resamples, 2000);
	ck_assert_double_eq(m.ci_level, 0.95);
	ck_assert_int_eq(m.test, PROFDB_TEST_MWU);
	ck_assert_int_eq(m.min_delta_ns, 0);
	ck_assert_int_eq(m.top, 0);
	ck_assert_ptr_null(m.by);
	ck_assert_int_eq(m.filter.rank, PROFDB_NULL);
	ck_assert_int_eq(m.filter.step_lo, PROFDB_NULL);
	ck_assert_int_eq(m.filter.step_hi, PROFDB_NULL);
	ck_assert_double_eq(f.threshold, m.threshold);
	ck_assert_double_eq(f.alpha, m.alpha);
	ck_assert_int_eq(f.resamples, m.resamples);
	ck_assert_uint_eq(f.seed, m.seed);
	ck_assert_double_eq(f.ci_level, m.ci_level);
	ck_assert_int_eq(f.test, m.test);
	ck_assert_int_eq(f.min_delta_ns, 0);
	ck_assert_int_eq(f.top, 0);
	ck_assert_ptr_null(f.base_runs);
	ck_assert_ptr_null(f.filter.name_glob);
	ck_assert_int_eq(f.filter.rank, PROFDB_NULL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("init");
	TCase *tc = tcase_create("defaults");
	tcase_add_test(tc, kernel_query);
	tcase_add_test(tc, op_query);
	tcase_add_test(tc, analyses);
	tcase_add_test(tc, launch_and_flops_queries);
	tcase_add_test(tc, sql_and_format_opts);
	tcase_add_test(tc, ingest_opts);
	tcase_add_test(tc, diff_opts);
	tcase_add_test(tc, ingest_unknown);
	tcase_add_test(tc, versions_checked);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

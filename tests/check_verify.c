/*
 * check_verify.c - profdb_verify (verify.c) on runs built here record by
 * record, with summary files written by hand; every expected figure below
 * is worked out in the comments.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static profdb *db;
static struct profdb_store *st;
static struct profdb_sink *sk;

static void begin(const char *run)
{
	ck_assert_int_eq(profdb__store_begin(&st, db, run, "/x", 0), PROFDB_OK);
	sk = profdb__store_sink(st);
}

static void commit(void)
{
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
}

/* A kernel: times in ns. */
static void kernel(int64_t rank, int64_t step, const char *name, const char *type, const char *core,
                   int kind, int64_t start, int64_t dur)
{
	struct profdb_kernel_rec k;
	profdb__kernel_rec_init(&k);
	k.rank = rank;
	k.step = step;
	k.name = name;
	k.type = type;
	k.core = core;
	k.kind = kind;
	k.start_ns = start;
	k.dur_ns = dur;
	ck_assert_int_eq(sk->kernel(sk->arg, &k), PROFDB_OK);
}

static void summary(const char *role, int64_t rank, const char *text)
{
	ck_assert_int_eq(sk->source_begin(sk->arg, role, role, rank, (const unsigned char *)text, strlen(text)),
	                 PROFDB_OK);
	ck_assert_int_eq(sk->source_end(sk->arg, 1, NULL, strlen(text)), PROFDB_OK);
}

static void setup(void)
{
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
}

static void teardown(void)
{
	profdb_close(db);
	db = NULL;
}

/* The row of (check, key); aborts if absent. */
static size_t row_of(const profdb_result *r, const char *check, const char *key)
{
	for (size_t i = 0; i < profdb_result_nrows(r); i++)
		if (strcmp(profdb_result_text(r, i, 0), check) == 0 && strcmp(profdb_result_text(r, i, 1), key) == 0)
			return i;
	ck_abort_msg("no check '%s' for '%s'", check, key);
	return 0;
}

static void expect(const profdb_result *r, const char *check, const char *key, double want, double got,
                   const char *ok)
{
	size_t i = row_of(r, check, key);
	/* shown to the ns (0.001 us), the inputs' resolution: round by hand */
	want = round(want * 1000) / 1000;
	got = round(got * 1000) / 1000;
	ck_assert_double_eq_tol(profdb_result_double(r, i, 2), want, 1e-9);
	ck_assert_double_eq_tol(profdb_result_double(r, i, 3), got, 1e-9);
	ck_assert_double_eq_tol(profdb_result_double(r, i, 4), got - want, 1e-9);
	ck_assert_str_eq(profdb_result_text(r, i, 5), ok);
}

/*
 * Kernels of rank 0: Add/AI_CORE 2000, 4000 ns; Mul/AI_VECTOR_CORE 1500 ns;
 * a communication op (not in op_statistic).  The file (CRLF, quoted field)
 * says Add: count 2, total 6.000, min 2.000, avg 3.000, max 4.000 - all
 * exact; Mul: total 1.5004 (off by 0.0004 us: within the rounding of one
 * kernel, tol max(0.01% x 1.5004, 0.0005 x 2) = 0.001), min 1.502 (off by
 * 0.002 > 0.001: FAIL).  Sub/AI_CORE is listed but has no kernels: count 0
 * vs 1 fails.  Stored Cast/AI_CPU is not listed: a failing Count row.
 */
START_TEST(op_statistic_checks)
{
	profdb_result *r = NULL;
	int failed = -1;
	begin("a");
	kernel(0, 1, "Add_1", "Add", "AI_CORE", PROFDB_KIND_KERNEL, 0, 2000);
	kernel(0, 1, "Add_2", "Add", "AI_CORE", PROFDB_KIND_KERNEL, 5000, 4000);
	kernel(0, 1, "Mul_1", "Mul", "AI_VECTOR_CORE", PROFDB_KIND_KERNEL, 10000, 1500);
	kernel(0, 1, "Cast_1", "Cast", "AI_CPU", PROFDB_KIND_KERNEL, 12000, 100);
	kernel(0, 1, "hcom_x", "hcom_allReduce_", "HCCL", PROFDB_KIND_COMM, 0, 9000);
	summary("op_statistic", 0,
	        "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us),Ratio(%)\r\n"
	        "Add,\"AI_CORE\",2,6.000,2.000,3.000,4.000,75.0\r\n"
	        "Mul,AI_VECTOR_CORE,1,1.5004,1.502,1.5,1.5,25.0\r\n"
	        "Sub,AI_CORE,1,1,1,1,1,0\r\n");
	commit();
	ck_assert_int_eq(profdb_verify(db, &r, &failed, NULL), PROFDB_OK);
	/* 3 rows x 5 checks + 1 unlisted (type, core) */
	ck_assert_uint_eq(profdb_result_nrows(r), 16);
	ck_assert_str_eq(profdb_result_colname(r, 0), "check");
	ck_assert_str_eq(profdb_result_colname(r, 5), "ok");
	expect(r, "op_statistic Count", "rank 0 / Add / AI_CORE", 2, 2, "ok");
	expect(r, "op_statistic Total Time(us)", "rank 0 / Add / AI_CORE", 6, 6, "ok");
	expect(r, "op_statistic Min Time(us)", "rank 0 / Add / AI_CORE", 2, 2, "ok");
	expect(r, "op_statistic Avg Time(us)", "rank 0 / Add / AI_CORE", 3, 3, "ok");
	expect(r, "op_statistic Max Time(us)", "rank 0 / Add / AI_CORE", 4, 4, "ok");
	expect(r, "op_statistic Total Time(us)", "rank 0 / Mul / AI_VECTOR_CORE", 1.5004, 1.5, "ok");
	expect(r, "op_statistic Min Time(us)", "rank 0 / Mul / AI_VECTOR_CORE", 1.502, 1.5, "FAIL");
	expect(r, "op_statistic Count", "rank 0 / Sub / AI_CORE", 1, 0, "FAIL");
	expect(r, "op_statistic Count", "rank 0 / Cast / AI_CPU", 0, 1, "FAIL");
	/* Sub: all 5 of its checks (1 vs 0); Mul: Min; Cast: Count */
	ck_assert_int_eq(failed, 7);
	profdb_result_free(r);
}
END_TEST

/*
 * step_trace_time, step 7 of rank 1, in us: compute [0,10) [5,20) [30,40)
 * -> union [0,20) [30,40) = 30; communication [15,35) = 20; overlap
 * [15,20) + [30,35) = 10; not overlapped 20 - 10 = 10.  Kernels of step 8
 * and of rank 0 must not count.  The file says Computing 30.002 (ok: 0.002
 * <= 0.001 x (3 + 1)), Communication 20, Overlapped 10, Not Overlapped 11
 * (1 us off: FAIL).
 */
START_TEST(step_trace_checks)
{
	profdb_result *r = NULL;
	int failed = -1;
	begin("s");
	kernel(1, 7, "a", "A", "AI_CORE", PROFDB_KIND_KERNEL, 0, 10000);
	kernel(1, 7, "b", "B", "AI_CORE", PROFDB_KIND_KERNEL, 5000, 15000);
	kernel(1, 7, "c", "C", "AI_CORE", PROFDB_KIND_KERNEL, 30000, 10000);
	kernel(1, 7, "h", "H", "HCCL", PROFDB_KIND_COMM, 15000, 20000);
	kernel(1, 8, "a", "A", "AI_CORE", PROFDB_KIND_KERNEL, 100000, 10000);
	kernel(0, 7, "a", "A", "AI_CORE", PROFDB_KIND_KERNEL, 50000, 10000);
	summary("step_trace_time", 1,
	        "Step,Computing,Communication(Not Overlapped),Overlapped,Communication,Free,Stage,Bubble,"
	        "Communication(Not Overlapped and Exclude Receive),Preparing\n"
	        "7,30.002,11,10,20,5,40,0,11,0\n");
	commit();
	ck_assert_int_eq(profdb_verify(db, &r, &failed, "s"), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 4);
	expect(r, "step_trace_time Computing", "rank 1 / step 7", 30.002, 30, "ok");
	expect(r, "step_trace_time Communication", "rank 1 / step 7", 20, 20, "ok");
	expect(r, "step_trace_time Overlapped", "rank 1 / step 7", 10, 10, "ok");
	expect(r, "step_trace_time Communication(Not Overlapped)", "rank 1 / step 7", 11, 10, "FAIL");
	ck_assert_int_eq(failed, 1);
	profdb_result_free(r);
}
END_TEST

/* 2025-11 files carry Device_id: only that device's kernels count; an
 * empty Step means the whole capture. */
START_TEST(device_and_no_step)
{
	profdb_result *r = NULL;
	int failed = -1;
	struct profdb_kernel_rec k;
	begin("d");
	profdb__kernel_rec_init(&k);
	k.rank = 0;
	k.name = "x";
	k.type = "Add";
	k.core = "AI_CORE";
	k.start_ns = 0;
	k.dur_ns = 3000;
	k.device = 4;
	ck_assert_int_eq(sk->kernel(sk->arg, &k), PROFDB_OK);
	k.device = 5;
	k.dur_ns = 7000;
	ck_assert_int_eq(sk->kernel(sk->arg, &k), PROFDB_OK);
	summary("op_statistic", 0, "Device_id,OP Type,Core Type,Count,Total Time(us),Min Time(us),"
	        "Avg Time(us),Max Time(us),Ratio(%)\n4,Add,AI_CORE,1,3,3,3,3,100\n5,Add,AI_CORE,1,7,7,7,7,100\n");
	summary("step_trace_time", 0, "Device_id,Step,Computing,Communication(Not Overlapped),Overlapped,"
	        "Communication,Free\n5,,7,0,0,0,0\n");
	commit();
	ck_assert_int_eq(profdb_verify(db, &r, &failed, "d"), PROFDB_OK);
	expect(r, "op_statistic Total Time(us)", "rank 0 / device 4 / Add / AI_CORE", 3, 3, "ok");
	expect(r, "op_statistic Total Time(us)", "rank 0 / device 5 / Add / AI_CORE", 7, 7, "ok");
	expect(r, "step_trace_time Computing", "rank 0 / device 5 / step (none)", 7, 7, "ok");
	ck_assert_int_eq(failed, 0);
	profdb_result_free(r);
}
END_TEST

START_TEST(run_selection)
{
	profdb_result *r = NULL;
	int failed = -1;
	ck_assert_int_eq(profdb_verify(db, &r, &failed, NULL), PROFDB_ENOTFOUND);
	begin("one");
	kernel(0, 1, "a", "A", "AI_CORE", PROFDB_KIND_KERNEL, 0, 1);
	commit();
	/* no summaries kept: no rows, a note, nothing failed */
	ck_assert_int_eq(profdb_verify(db, &r, &failed, NULL), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 0);
	ck_assert_uint_eq(profdb_result_nnotes(r), 1);
	ck_assert_int_eq(failed, 0);
	profdb_result_free(r);
	begin("two");
	commit();
	ck_assert_int_eq(profdb_verify(db, &r, &failed, NULL), PROFDB_EUSAGE);
	ck_assert_ptr_null(r);
	ck_assert_int_eq(profdb_verify(db, &r, &failed, "three"), PROFDB_ENOTFOUND);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "three"));
}
END_TEST

START_TEST(bad_summary)
{
	profdb_result *r = NULL;
	int failed = -1;
	begin("b");
	kernel(0, 1, "Add_1", "Add", "AI_CORE", PROFDB_KIND_KERNEL, 0, 2000);
	summary("op_statistic", 0, "Kernel Name,Count\nx,1\n");
	commit();
	ck_assert_int_eq(profdb_verify(db, &r, &failed, "b"), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "op_statistic"));
}
END_TEST

/*
 * Rank 1 kept its op_statistic.csv and step_trace_time.csv but has no
 * kernels (its export had no kernel_details.csv): its figures are not
 * checked against 0, one note says why; rank 0's Add row still is.
 */
START_TEST(rank_without_kernels)
{
	profdb_result *r = NULL;
	int failed = -1;
	begin("c");
	kernel(0, 1, "Add_1", "Add", "AI_CORE", PROFDB_KIND_KERNEL, 0, 2000);
	summary("op_statistic", 0, "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us)\n"
	        "Add,AI_CORE,1,2.000,2.000,2.000,2.000\n");
	summary("op_statistic", 1, "OP Type,Core Type,Count,Total Time(us),Min Time(us),Avg Time(us),Max Time(us)\n"
	        "Add,AI_CORE,3,6.000,2.000,2.000,2.000\n");
	summary("step_trace_time", 1, "Step,Computing,Communication(Not Overlapped),Overlapped,Communication\n"
	        "1,6.0,0,0,0\n");
	commit();
	ck_assert_int_eq(profdb_verify(db, &r, &failed, "c"), PROFDB_OK);
	ck_assert_int_eq(failed, 0);
	ck_assert_uint_eq(profdb_result_nrows(r), 5);
	expect(r, "op_statistic Count", "rank 0 / Add / AI_CORE", 1, 1, "ok");
	ck_assert_uint_eq(profdb_result_nnotes(r), 1);
	ck_assert_str_eq(profdb_result_note(r, 0), "rank 1 has no kernel data: its profiler summaries are not checked");
	profdb_result_free(r);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("verify");
	TCase *t = tcase_create("verify");
	tcase_add_checked_fixture(t, setup, teardown);
	tcase_add_test(t, op_statistic_checks);
	tcase_add_test(t, step_trace_checks);
	tcase_add_test(t, device_and_no_step);
	tcase_add_test(t, run_selection);
	tcase_add_test(t, bad_summary);
	tcase_add_test(t, rank_without_kernels);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}

/*
 * check_stats.c - the statistics (stats.c), the SQL functions built on them
 * (sqlfunc.c) and base names (basename.c), against values worked out by
 * hand from the definitions: percentile h = (n-1) p / 100 with linear
 * interpolation, sample standard deviation with n - 1, interval union.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "util/stats.h"

START_TEST(percentile_linear)
{
	double a[] = { 4, 1, 3, 2 };
	double b[] = { 15, 20, 35, 40, 50 };
	double c[] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 };
	double one[] = { 7 };
	profdb__sort_doubles(a, 4);
	ck_assert(a[0] == 1 && a[3] == 4);
	ck_assert_double_eq(profdb__percentile_sorted(a, 4, 50), 2.5);   /* h = 1.5 */
	ck_assert_double_eq(profdb__percentile_sorted(a, 4, 25), 1.75);  /* h = 0.75 */
	ck_assert_double_eq(profdb__percentile_sorted(a, 4, 0), 1);
	ck_assert_double_eq(profdb__percentile_sorted(a, 4, 100), 4);
	ck_assert_double_eq_tol(profdb__percentile_sorted(b, 5, 90), 46, 1e-12);  /* h = 3.6: 40 + 0.6 * 10 */
	ck_assert_double_eq_tol(profdb__percentile_sorted(b, 5, 40), 29, 1e-12);  /* h = 1.6: 20 + 0.6 * 15 */
	ck_assert_double_eq(profdb__percentile_sorted(b, 5, 50), 35);            /* odd n: the middle */
	ck_assert_double_eq_tol(profdb__percentile_sorted(c, 10, 99), 9.91, 1e-12); /* h = 8.91 */
	ck_assert_double_eq_tol(profdb__percentile_sorted(c, 10, 90), 9.1, 1e-12);  /* h = 8.1 */
	ck_assert_double_eq(profdb__percentile_sorted(one, 1, 99), 7);
	ck_assert(isnan(profdb__percentile_sorted(one, 0, 50)));
}
END_TEST

START_TEST(stddev_sample)
{
	struct profdb__moments m = { 0, 0, 0 };
	double v[] = { 2, 4, 4, 4, 5, 5, 7, 9 };
	ck_assert_double_eq(profdb__moments_stddev(&m), -1);
	profdb__moments_add(&m, 3);
	ck_assert_double_eq(profdb__moments_stddev(&m), -1); /* one value: undefined */
	memset(&m, 0, sizeof m);
	for (size_t i = 0; i < 8; i++)
		profdb__moments_add(&m, v[i]);
	/* mean 5, squared deviations sum to 32, 32 / 7 */
	ck_assert_double_eq_tol(profdb__moments_stddev(&m), sqrt(32.0 / 7.0), 1e-12);
	memset(&m, 0, sizeof m);
	profdb__moments_add(&m, 1e12 + 1);
	profdb__moments_add(&m, 1e12 + 3);
	ck_assert_double_eq_tol(profdb__moments_stddev(&m), sqrt(2.0), 1e-6); /* no cancellation */
	memset(&m, 0, sizeof m);
	for (int i = 0; i < 5; i++)
		profdb__moments_add(&m, 0.1);
	ck_assert_double_eq(profdb__moments_stddev(&m), 0);
}
END_TEST

START_TEST(union_of_intervals)
{
	/* unsorted; [0,10)+[5,15) overlap -> 15; [1,2) inside; [20,30)+[30,35)
	 * touch -> 15; [40,40) empty and [50,45) negative add nothing */
	struct profdb__interval iv[] = {
		{ 20, 30 }, { 5, 15 }, { 40, 40 }, { 0, 10 }, { 30, 35 }, { 1, 2 }, { 50, 45 }
	};
	struct profdb__interval two[] = { { 100, 200 }, { 0, 50 } };
	ck_assert_int_eq(profdb__union_ns(iv, 7), 30);
	ck_assert_int_eq(profdb__union_ns(two, 2), 150);
	ck_assert_int_eq(profdb__union_ns(NULL, 0), 0);
}
END_TEST

static double sql_double(profdb *db, const char *sql, int *isnull)
{
	sqlite3_stmt *st;
	double v = -1;
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	*isnull = sqlite3_column_type(st, 0) == SQLITE_NULL;
	v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

START_TEST(sql_functions)
{
	profdb *db = NULL;
	int null;
	sqlite3_stmt *st;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_double_eq(sql_double(db, "WITH t(x) AS (VALUES (1),(3),(2),(10)) SELECT median(x) FROM t", &null), 2.5);
	ck_assert_double_eq_tol(sql_double(db, "WITH t(x) AS (VALUES (15),(20),(35),(40),(50))"
	                                   " SELECT percentile(x, 90) FROM t", &null), 46, 1e-12);
	ck_assert_double_eq_tol(sql_double(db, "WITH t(x) AS (VALUES (2),(4),(4),(4),(5),(5),(7),(9))"
	                                   " SELECT stddev(x) FROM t", &null), sqrt(32.0 / 7.0), 1e-12);
	/* NULL and non-numbers are skipped; numeric text counts */
	ck_assert_double_eq(sql_double(db, "WITH t(x) AS (VALUES (1),(NULL),('abc'),('3')) SELECT median(x) FROM t",
	                               &null), 2);
	sql_double(db, "WITH t(x) AS (VALUES (5)) SELECT stddev(x) FROM t", &null);
	ck_assert(null); /* one value */
	sql_double(db, "SELECT median(x) FROM (SELECT 1 AS x) WHERE x > 1", &null);
	ck_assert(null); /* empty group */
	/* GROUP BY: each group its own */
	ck_assert_double_eq(sql_double(db, "SELECT sum(m) FROM (SELECT g, median(x) AS m FROM"
	                               " (SELECT 1 AS g, 1 AS x UNION ALL SELECT 1, 2 UNION ALL SELECT 2, 10)"
	                               " GROUP BY g)", &null), 11.5);
	/* p out of range is an error, not a silent answer */
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT percentile(x, 101) FROM (SELECT 1 AS x)", -1, &st, NULL),
	                 SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ERROR);
	sqlite3_finalize(st);
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT base_name('ZerosLike46')", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "ZerosLike");
	sqlite3_finalize(st);
	/* union_ns: union_of_intervals' set by hand (30), with rows it skips
	 * (NULL, text); per group; INTEGER; NULL for no interval */
	ck_assert_double_eq(sql_double(db, "WITH t(a, b) AS (VALUES (20,30),(5,15),(40,40),(0,10),(30,35),(1,2),"
	                               "(50,45),(NULL,99),(60,'x')) SELECT union_ns(a, b) FROM t", &null), 30);
	ck_assert_double_eq(sql_double(db, "SELECT sum(u) FROM (SELECT g, union_ns(a, b) AS u FROM (SELECT 1 AS g,"
	                               " 0 AS a, 10 AS b UNION ALL SELECT 1, 5, 12 UNION ALL SELECT 2, 100, 103)"
	                               " GROUP BY g)", &null), 15);
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT typeof(union_ns(0, 7))", -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_str_eq((const char *)sqlite3_column_text(st, 0), "integer");
	sqlite3_finalize(st);
	sql_double(db, "SELECT union_ns(a, b) FROM (SELECT 1 AS a, 2 AS b) WHERE a > 1", &null);
	ck_assert(null); /* empty group */
	profdb_close(db);
}
END_TEST

static void base_is(const char *name, const char *want)
{
	char out[512];
	profdb__base_name(name, out, sizeof out);
	ck_assert_msg(strcmp(out, want) == 0, "base_name('%s') = '%s', want '%s'", name, out, want);
}

START_TEST(base_names)
{
	/* Ascend numeric instance suffixes */
	base_is("ZerosLike46", "ZerosLike");
	base_is("ReduceSum7", "ReduceSum");
	base_is("Conv2D1", "Conv2D");
	base_is("Conv2D", "Conv2D");
	base_is("Conv2DBackpropFilter10", "Conv2DBackpropFilter");
	base_is("GatherV2", "GatherV2");
	base_is("MatMulV3", "MatMulV3");
	base_is("Atan2", "Atan2");
	base_is("Relu63", "Relu6");
	base_is("Log10", "Log10");
	base_is("hcom_broadcast__445_0", "hcom_broadcast");
	base_is("hcom_allReduce__868_0_1", "hcom_allReduce");
	base_is("trans_TransData_0", "trans_TransData");
	base_is("trans_TransData_17", "trans_TransData");
	base_is("atomic_memset-1_68_1413001_1_0", "atomic_memset");
	base_is("aclnnMatmul_MatMulCommon_MatMulV2", "aclnnMatmul_MatMulCommon_MatMulV2");
	base_is("cudnn_infer_volta_scudnn_128x64_relu_small_nn_v1", "cudnn_infer_volta_scudnn_128x64_relu_small_nn_v1");
	base_is("MatMul", "MatMul");
	base_is("123", "123");
	base_is("_5", "_5");
	/* CUDA: template arguments, parameter lists, return types */
	base_is("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>,"
	        " at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
	        "at::native::vectorized_elementwise_kernel");
	base_is("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, true, false>"
	        "(float*, float const*, int, int, int, bool const*, int, bool)",
	        "(anonymous namespace)::softmax_warp_forward");
	base_is("void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::func_wrapper_t<float,"
	        " at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>,"
	        " unsigned int, float, 4> >(at::native::ReduceOp<float, at::native::func_wrapper_t<float,"
	        " at::native::sum_functor<float, float, float>::operator()(at::TensorIterator&)::{lambda(float, float)#1}>,"
	        " unsigned int, float, 4>)", "at::native::reduce_kernel");
	base_is("cask_cudnn_infer::computeBOffsetsKernel(cask_cudnn_infer::ComputeBOffsetsParams)",
	        "cask_cudnn_infer::computeBOffsetsKernel");
	base_is("ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "ncclDevKernel_AllGather_RING_LL");
	base_is("void foo<int>(int) [clone .kd]", "foo");
	base_is("Memcpy HtoD (Pageable -> Device)", "Memcpy HtoD (Pageable -> Device)");
	base_is("Memset (Device)", "Memset (Device)");
	base_is("void broken<int(int)", "void broken<int(int)"); /* unbalanced: unchanged */
	{
		char small[6];
		profdb__base_name("ZerosLike46", small, sizeof small);
		ck_assert_str_eq(small, "Zeros"); /* truncated to the buffer, terminated */
	}
}
END_TEST

int main(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("stats");
	tcase_add_test(tc, percentile_linear);
	tcase_add_test(tc, stddev_sample);
	tcase_add_test(tc, union_of_intervals);
	suite_add_tcase(s, tc);
	tc = tcase_create("sql");
	tcase_add_test(tc, sql_functions);
	tcase_add_test(tc, base_names);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

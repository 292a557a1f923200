/*
 * check_bench.c - the wall-clock benchmark readers (ingest_bench.c and the
 * four format files) through the memory sink: detection, repeats with their
 * API names, repeat numbers and exact ns (the files' values summed by hand
 * in the comments), skips, summaries and the errors of bad files.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "compare/compare.h"

#define US 1000 /* ns per µs */

/* Sum and count of the kernels named api in s; steps must be 1..n in order. */
static int64_t total_of(const struct tu_sink *s, const char *api, size_t *n)
{
	int64_t t = 0;
	*n = 0;
	for (size_t i = 0; i < s->nkernels; i++)
		if (strcmp(s->kernels[i].name, api) == 0) {
			ck_assert_int_eq(s->kernels[i].kind, PROFDB_KIND_WALLCLOCK);
			ck_assert_int_eq(s->kernels[i].step, (int64_t)++*n);
			t += s->kernels[i].dur_ns;
		}
	return t;
}

START_TEST(detect)
{
	ck_assert_ptr_eq(profdb__bench_detect("api,backend,repeat,elapsed_us\nx,cpu,1,2\n", 41),
	                 &profdb__reader_wallclock_csv);
	ck_assert_ptr_eq(profdb__bench_detect("\"api\",\"elapsed_us\"\r\n", 20), &profdb__reader_wallclock_csv);
	ck_assert_ptr_eq(profdb__bench_detect("api,elapsed_ms\n", 15), NULL);
	ck_assert_ptr_eq(profdb__bench_detect("{\"api\": \"a\", \"elapsed_us\": 1}\n", 31),
	                 &profdb__reader_wallclock_jsonl);
	ck_assert_ptr_eq(profdb__bench_detect("{\"machine_info\": {}, \"benchmarks\": []}", 38),
	                 &profdb__reader_pytest_benchmark);
	ck_assert_ptr_eq(profdb__bench_detect("{\"context\": {}, \"benchmarks\": []}", 33), &profdb__reader_gbench);
	ck_assert_ptr_eq(profdb__bench_detect("{\"traceEvents\": [], \"benchmarks\": []}", 37), NULL);
	ck_assert_ptr_eq(profdb__bench_detect("{\"benchmarks\": []}", 18), NULL);
}
END_TEST

/* pytest_benchmark.json: test_matmul data 120+100+130+110 = 460 us in 4
 * rounds, test_add 20.5+20+22.5 = 63 us in 3; test_conv only a summary. */
START_TEST(pytest_benchmark)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	size_t n;
	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("bench/pytest_benchmark.json"));
	ck_assert_int_eq(profdb__read_pytest_benchmark(&ctx), PROFDB_OK);
	ck_assert_int_eq(total_of(&s, "test_matmul", &n), 460 * US);
	ck_assert_uint_eq(n, 4);
	ck_assert_int_eq(total_of(&s, "test_add", &n), 63 * US);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(s.nkernels, 7);
	ck_assert_int_eq(s.rows_read, 7);
	/* 5 file tags (host, python_version, cpu, commit, branch) + 1 summary */
	ck_assert_uint_eq(s.nmeta, 6);
	ck_assert_uint_eq(s.nnotes, 1);
	tu_sink_free(&s);
}
END_TEST

/* gbench.json: BM_matmul/64 repeats 1200.5 (-> 1201, half away), 1210,
 * 1190.25 (-> 1190) ns; BM_conv aggregates only; BM_broken an error. */
START_TEST(gbench)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	size_t n;
	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("bench/gbench.json"));
	ck_assert_int_eq(profdb__read_gbench(&ctx), PROFDB_OK);
	ck_assert_int_eq(total_of(&s, "BM_matmul/64", &n), 1201 + 1210 + 1190);
	ck_assert_uint_eq(n, 3);
	ck_assert_uint_eq(s.nkernels, 3);
	ck_assert_int_eq(s.skipped, 1);
	ck_assert_str_eq(s.last_skip, "benchmark reported an error");
	ck_assert_uint_eq(s.nmeta, 3 + 1);
	tu_sink_free(&s);
}
END_TEST

/* wallclock.csv and .jsonl: torch.matmul 812.5 + 800 + 790.25 = 2402.75 us,
 * torch.add 12.5 + 13 = 25.5 us; n/a and -1 skipped. */
START_TEST(wallclock)
{
	const char *files[] = { "bench/wallclock.csv", "bench/wallclock.jsonl" };
	for (size_t f = 0; f < 2; f++) {
		struct tu_sink s;
		struct profdb_reader_ctx ctx;
		size_t n;
		tu_sink_init(&s);
		ctx = tu_ctx(&s, tu_testdata(files[f]));
		ck_assert_int_eq(f ? profdb__read_wallclock_jsonl(&ctx) : profdb__read_wallclock_csv(&ctx), PROFDB_OK);
		ck_assert_int_eq(total_of(&s, "torch.matmul", &n), 2402750);
		ck_assert_uint_eq(n, 3);
		ck_assert_int_eq(total_of(&s, "torch.add", &n), 25500);
		ck_assert_uint_eq(n, 2);
		ck_assert_int_eq(s.skipped, 2);
		ck_assert_int_eq(s.rows_read, 7);
		ck_assert_uint_eq(s.nmeta, 2); /* backend, dtype */
		tu_sink_free(&s);
	}
}
END_TEST

START_TEST(bad_files)
{
	static const struct { const char *file, *msg; int jsonl; } cases[] = {
		{ "bench/bad_mixed_backend.csv", "bad_mixed_backend.csv:3: 'backend' is 'npu' here but 'cpu' at line 2", 0 },
		{ "bench/bad_ragged.csv", "bad_ragged.csv:2: expected 3 columns, found 2", 0 },
		{ "bench/bad_line.jsonl", "bad_line.jsonl:2: not one JSON object", 1 },
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct tu_sink s;
		struct profdb_reader_ctx ctx;
		tu_sink_init(&s);
		ctx = tu_ctx(&s, tu_testdata(cases[i].file));
		ck_assert_int_eq(cases[i].jsonl ? profdb__read_wallclock_jsonl(&ctx) : profdb__read_wallclock_csv(&ctx),
		                 PROFDB_EFORMAT);
		ck_assert_msg(strstr(s.err.msg, cases[i].msg), "%s: %s", cases[i].file, s.err.msg);
		tu_sink_free(&s);
	}
}
END_TEST

START_TEST(truncated_json)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("bench/bad_truncated_pytest.json"));
	ck_assert_int_eq(profdb__read_pytest_benchmark(&ctx), PROFDB_EFORMAT);
	ck_assert_msg(strstr(s.err.msg, "byte 1500: truncated JSON"), "%s", s.err.msg);
	ck_assert_uint_eq(s.nkernels, 0);
	tu_sink_free(&s);
}
END_TEST

/* Welch's t from summaries (the per-API diff's test when a side has only
 * a summary): base 5 repeats, mean 120, variance 2.5; new 8, mean 100,
 * variance 4: t = -20 / sqrt(2.5/5 + 4/8) = -20 and df = 1 / ((1/2)^2/4 +
 * (1/2)^2/7) = 112/11; and the same as the test over the samples. */
START_TEST(welch_summary)
{
	const double x[] = { 118, 119, 120, 121, 122 }, y[] = { 1, 2, 3, 4, 5 };
	double t, df, p, pa, ta, dfa;
	p = profdb__welch_summary(120, 2.5, 5, 100, 4, 8, &t, &df);
	ck_assert_double_eq_tol(t, -20, 1e-12);
	ck_assert_double_eq_tol(df, 112.0 / 11, 1e-12);
	ck_assert(p > 0 && p < 1e-8);
	pa = profdb__welch(x, 5, y, 5, &ta, &dfa);
	ck_assert_double_eq_tol(profdb__welch_summary(120, 2.5, 5, 3, 2.5, 5, &t, &df), pa, 1e-15);
	ck_assert_double_eq_tol(t, ta, 1e-12);
	ck_assert_double_eq_tol(df, dfa, 1e-12);
	ck_assert(isnan(profdb__welch_summary(120, NAN, 5, 100, 4, 8, NULL, NULL)));
	ck_assert(isnan(profdb__welch_summary(120, 2.5, 1, 100, 4, 8, NULL, NULL)));
}
END_TEST

int main(void)
{
	Suite *su = suite_create("bench");
	TCase *tc = tcase_create("readers");
	tcase_add_test(tc, detect);
	tcase_add_test(tc, pytest_benchmark);
	tcase_add_test(tc, gbench);
	tcase_add_test(tc, wallclock);
	tcase_add_test(tc, bad_files);
	tcase_add_test(tc, truncated_json);
	suite_add_tcase(su, tc);
	tc = tcase_create("diff");
	tcase_add_test(tc, welch_summary);
	suite_add_tcase(su, tc);
	return tu_run(su);
}

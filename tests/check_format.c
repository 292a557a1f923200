/*
 * check_format.c - the output formats (format*.c) over results built cell
 * by cell, compared with text written out by hand: exact time decimals and
 * unit suffixes in csv/json, units chosen per column in table/md, CSV
 * quoting, JSON escaping (and invalid UTF-8), shortening long names in the
 * middle to fit the width, NULLs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "query/result.h"
#include "util/utf8.h"

/* A result with these columns and no rows. */
static profdb_result *make(size_t ncols, const char *const *names, const enum profdb_coltype *types)
{
	profdb_result *r = NULL;
	ck_assert_int_eq(profdb__result_new(&r, ncols), PROFDB_OK);
	for (size_t c = 0; c < ncols; c++) {
		r->names[c] = strdup(names[c]);
		r->types[c] = types[c];
	}
	return r;
}

static struct profdb__cell *add_row(profdb_result *r)
{
	struct profdb__cell *cells = realloc(r->cells, (r->nrows + 1) * r->ncols * sizeof *cells);
	ck_assert_ptr_nonnull(cells);
	r->cells = cells;
	memset(&cells[r->nrows * r->ncols], 0, r->ncols * sizeof *cells);
	for (size_t c = 0; c < r->ncols; c++)
		cells[r->nrows * r->ncols + c].type = SQLITE_NULL;
	return &cells[r->nrows++ * r->ncols];
}

static void set_int(struct profdb__cell *c, int64_t v)
{
	char buf[32];
	snprintf(buf, sizeof buf, "%lld", (long long)v);
	c->type = SQLITE_INTEGER;
	c->i = v;
	c->text = strdup(buf);
}

static void set_real(struct profdb__cell *c, double v)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%.17g", v);
	c->type = SQLITE_FLOAT;
	c->d = v;
	c->text = strdup(buf);
}

static void set_text(struct profdb__cell *c, const char *t)
{
	c->type = SQLITE_TEXT;
	c->text = strdup(t);
}

/* Render r with opts into a static buffer. */
static const char *render(const profdb_result *r, const struct profdb_format_opts *o)
{
	static char *buf;
	size_t len = 0;
	FILE *f;
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	ck_assert_ptr_nonnull(f);
	ck_assert_int_eq(profdb_result_write(r, f, o), PROFDB_OK);
	fclose(f);
	return buf;
}

static const char *const names[] = { "name", "total", "calls", "avg", "share_pct" };
static const enum profdb_coltype types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_NS, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_PCT
};

/* Two rows: a name that needs CSV quoting, exact and fractional ns, a NULL. */
static profdb_result *sample(void)
{
	profdb_result *r = make(5, names, types);
	struct profdb__cell *c = add_row(r);
	set_text(&c[0], "a, \"b\"");
	set_int(&c[1], 1234567);        /* ns */
	set_int(&c[2], 3);
	set_real(&c[3], 411522.75);     /* a mean: a fraction of a ns */
	set_real(&c[4], 12.5);
	c = add_row(r);
	set_text(&c[0], "MatMul");
	set_int(&c[1], 5);
	set_int(&c[2], 1);
	c[3].type = SQLITE_NULL;
	set_real(&c[4], 0.26);
	return r;
}

START_TEST(csv_exact_times)
{
	profdb_result *r = sample();
	struct profdb_format_opts o = { PROFDB_FMT_CSV, PROFDB_UNIT_AUTO, 0, 0, 0, NULL };
	ck_assert_str_eq(render(r, &o),
	                 "name,total_us,calls,avg_us,share_pct\n"
	                 "\"a, \"\"b\"\"\",1234.567,3,411.52275,12.5\n"
	                 "MatMul,0.005,1,,0.26\n");
	o.unit = PROFDB_UNIT_MS;
	ck_assert_str_eq(render(r, &o),
	                 "name,total_ms,calls,avg_ms,share_pct\n"
	                 "\"a, \"\"b\"\"\",1.234567,3,0.41152275,12.5\n"
	                 "MatMul,0.000005,1,,0.26\n");
	o.unit = PROFDB_UNIT_NS;
	ck_assert_str_eq(render(r, &o),
	                 "name,total_ns,calls,avg_ns,share_pct\n"
	                 "\"a, \"\"b\"\"\",1234567,3,411522.75,12.5\n"
	                 "MatMul,5,1,,0.26\n");
	profdb_result_free(r);
}
END_TEST

START_TEST(json_rows_and_escapes)
{
	profdb_result *r = sample();
	struct profdb_format_opts o = { PROFDB_FMT_JSON, PROFDB_UNIT_AUTO, 0, 0, 0, NULL };
	struct profdb__cell *c;
	ck_assert_str_eq(render(r, &o),
	                 "[\n"
	                 "  {\"name\": \"a, \\\"b\\\"\", \"total_us\": 1234.567, \"calls\": 3, \"avg_us\": 411.52275, \"share_pct\": 12.5},\n"
	                 "  {\"name\": \"MatMul\", \"total_us\": 0.005, \"calls\": 1, \"avg_us\": null, \"share_pct\": 0.26}\n"
	                 "]\n");
	profdb_result_free(r);
	/* one row as an object; control characters, a backslash and a byte
	 * that is not UTF-8 (0xff), and valid UTF-8 passed through */
	r = make(5, names, types);
	c = add_row(r);
	set_text(&c[0], "x\n\t\\\x01\xff\xc2\xb5");
	set_int(&c[1], -1500);
	set_int(&c[2], 0);
	set_real(&c[3], 0.0);
	set_int(&c[4], 100);
	o.json_object = 1;
	ck_assert_str_eq(render(r, &o),
	                 "{\"name\": \"x\\n\\t\\\\\\u0001\\ufffd\xc2\xb5\", \"total_us\": -1.5, \"calls\": 0,"
	                 " \"avg_us\": 0, \"share_pct\": 100}\n");
	profdb_result_free(r);
	/* no rows: an empty array */
	r = make(5, names, types);
	ck_assert_str_eq(render(r, &o), "[]\n");
	profdb_result_free(r);
}
END_TEST

START_TEST(table_units_and_nulls)
{
	profdb_result *r = sample();
	struct profdb_format_opts o = { PROFDB_FMT_TABLE, PROFDB_UNIT_AUTO, 0, 0, 0, NULL };
	/*
	 * One unit for the table: the log-average of 1234567, 5 and 411522.75 ns
	 * is 10^4.14 ns, so us.  One precision for the table, from its unit:
	 * hundredths of a us in every time column (1234.567 -> 1234.57,
	 * 0.005 -> 0.01, 411.52275 -> 411.52).
	 */
	ck_assert_str_eq(render(r, &o),
	                 "name    total (us)  calls  avg (us)  share (%)\n"
	                 "------  ----------  -----  --------  ---------\n"
	                 "a, \"b\"     1234.57      3    411.52       12.5\n"
	                 "MatMul        0.01      1         -        0.3\n");
	o.unit = PROFDB_UNIT_NS;
	ck_assert_str_eq(render(r, &o),
	                 "name    total (ns)  calls  avg (ns)  share (%)\n"
	                 "------  ----------  -----  --------  ---------\n"
	                 "a, \"b\"     1234567      3    411523       12.5\n"
	                 "MatMul           5      1         -        0.3\n");
	profdb__result_add_note(r, "something to know");
	o.unit = PROFDB_UNIT_S;
	/* thousandths of a s: 0.001234567 -> 0.001, 5e-9 -> 0.000 */
	ck_assert_str_eq(render(r, &o),
	                 "name    total (s)  calls  avg (s)  share (%)\n"
	                 "------  ---------  -----  -------  ---------\n"
	                 "a, \"b\"      0.001      3    0.000       12.5\n"
	                 "MatMul      0.000      1        -        0.3\n"
	                 "note: something to know\n");
	profdb_result_free(r);
}
END_TEST

/* A note longer than the width breaks at spaces, later lines indented under
 * its text ("note: " is 6 wide); a word longer than a line stays whole;
 * --wide keeps it on one line.  Width 30 worked by hand: "note: alpha beta
 * gamma delta" is 28, " epsilon" would make 36. */
START_TEST(table_notes_wrap)
{
	static const char *const n1[] = { "calls" };
	static const enum profdb_coltype t1[] = { PROFDB_COL_INT };
	profdb_result *r = make(1, n1, t1);
	struct profdb_format_opts o = { PROFDB_FMT_TABLE, PROFDB_UNIT_AUTO, 30, 0, 0, NULL };
	set_int(&add_row(r)[0], 7);
	ck_assert_int_eq(profdb__result_add_note(r, "alpha beta gamma delta epsilon "
	                                         "a_word_longer_than_thirty_characters z"), 0);
	ck_assert_str_eq(render(r, &o),
	                 "calls\n"
	                 "-----\n"
	                 "    7\n"
	                 "note: alpha beta gamma delta\n"
	                 "      epsilon\n"
	                 "      a_word_longer_than_thirty_characters\n"
	                 "      z\n");
	o.wide = 1;
	ck_assert_str_eq(render(r, &o),
	                 "calls\n"
	                 "-----\n"
	                 "    7\n"
	                 "note: alpha beta gamma delta epsilon a_word_longer_than_thirty_characters z\n");
	profdb_result_free(r);
}
END_TEST

START_TEST(table_shortens_in_the_middle)
{
	static const char *const n2[] = { "calls", "name" };
	static const enum profdb_coltype t2[] = { PROFDB_COL_INT, PROFDB_COL_TEXT };
	profdb_result *r = make(2, n2, t2);
	struct profdb_format_opts o = { PROFDB_FMT_TABLE, PROFDB_UNIT_AUTO, 30, 0, 0, NULL };
	struct profdb__cell *c = add_row(r);
	set_int(&c[0], 7);
	set_text(&c[1], "void at::native::vectorized_elementwise_kernel<4>(int)");
	/* 5 + 2 + 23 = 30: the scopes go first ("void at::native::"), then
	 * 23 = 10 head + "..." + 10 tail */
	ck_assert_str_eq(render(r, &o),
	                 "calls  name\n"
	                 "-----  -----------------------\n"
	                 "    7  vectorized...el<4>(int)\n");
	o.wide = 1;
	ck_assert_str_eq(render(r, &o),
	                 "calls  name\n"
	                 "-----  ------------------------------------------------------\n"
	                 "    7  void at::native::vectorized_elementwise_kernel<4>(int)\n");
	/* never narrower than 20: a too-small terminal gets a wider table */
	o.wide = 0;
	o.width = 10;
	ck_assert_str_eq(render(r, &o),
	                 "calls  name\n"
	                 "-----  --------------------\n"
	                 "    7  vectorize...<4>(int)\n");
	profdb_result_free(r);
}
END_TEST

START_TEST(markdown)
{
	profdb_result *r = sample();
	struct profdb_format_opts o = { PROFDB_FMT_MD, PROFDB_UNIT_AUTO, 0, 0, 0, NULL };
	struct profdb__cell *c = add_row(r);
	set_text(&c[0], "a|b\nc");
	set_int(&c[1], 20000000);   /* 20 ms: the log-average stays 10^3.94 ns, us */
	set_int(&c[2], 2);
	set_real(&c[3], 1.0);
	set_real(&c[4], 50);
	ck_assert_str_eq(render(r, &o),
	                 "| name | total (us) | calls | avg (us) | share (%) |\n"
	                 "| :--- | ---: | ---: | ---: | ---: |\n"
	                 "| a, \"b\" | 1234.57 | 3 | 411.52 | 12.5 |\n"
	                 "| MatMul | 0.01 | 1 |  | 0.3 |\n"
	                 "| a\\|b c | 20000.00 | 2 | 0.00 | 50.0 |\n");
	profdb_result_free(r);
}
END_TEST

/*
 * One precision per table (issue 35): every time column of a table in
 * the table's unit with that unit's decimals (ns 0, us 2, ms and s 3), so
 * a single 21.953 us call prints avg, min and max alike, and a row prints
 * the same with or without larger rows beside it; other numbers to three
 * significant digits, at most three decimals, whole ones as integers; a
 * p-value keeps three significant digits however small.  csv keeps all.
 * Expected strings worked out by hand from the values.
 */
START_TEST(one_precision)
{
	static const char *const n[] = { "name", "avg", "min", "max", "gbps", "z", "p" };
	static const enum profdb_coltype t[] = {
		PROFDB_COL_TEXT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
		PROFDB_COL_REAL, PROFDB_COL_REAL, PROFDB_COL_PROB
	};
	profdb_result *r = make(7, n, t);
	struct profdb_format_opts o = { PROFDB_FMT_TABLE, PROFDB_UNIT_AUTO, 0, 0, 0, NULL };
	struct profdb__cell *c = add_row(r);
	set_text(&c[0], "k");
	set_real(&c[1], 21953.0);
	set_int(&c[2], 21953);
	set_int(&c[3], 22000);
	set_real(&c[4], 986.978763915547);
	set_real(&c[5], -0.765298076923077);
	set_real(&c[6], 0.00216);
	ck_assert_str_eq(render(r, &o),
	                 "name  avg (us)  min (us)  max (us)  gbps       z        p\n"
	                 "----  --------  --------  --------  ----  ------  -------\n"
	                 "k        21.95     21.95     22.00   987  -0.765  0.00216\n");
	c = add_row(r);
	set_text(&c[0], "l");
	set_real(&c[1], 88380.4);
	set_int(&c[2], 3);
	set_int(&c[3], 4000000);
	set_real(&c[4], 18.3198651664921);
	set_real(&c[5], 2.0);
	set_real(&c[6], 0.5);
	/* the first row reads as before: the decimals are the unit's */
	ck_assert_str_eq(render(r, &o),
	                 "name  avg (us)  min (us)  max (us)  gbps       z        p\n"
	                 "----  --------  --------  --------  ----  ------  -------\n"
	                 "k        21.95     21.95     22.00   987  -0.765  0.00216\n"
	                 "l        88.38      0.00   4000.00  18.3       2      0.5\n");
	o.unit = PROFDB_UNIT_MS;
	ck_assert_str_eq(render(r, &o),
	                 "name  avg (ms)  min (ms)  max (ms)  gbps       z        p\n"
	                 "----  --------  --------  --------  ----  ------  -------\n"
	                 "k        0.022     0.022     0.022   987  -0.765  0.00216\n"
	                 "l        0.088     0.000     4.000  18.3       2      0.5\n");
	o.unit = PROFDB_UNIT_NS;
	o.format = PROFDB_FMT_MD;
	ck_assert_str_eq(render(r, &o),
	                 "| name | avg (ns) | min (ns) | max (ns) | gbps | z | p |\n"
	                 "| :--- | ---: | ---: | ---: | ---: | ---: | ---: |\n"
	                 "| k | 21953 | 21953 | 22000 | 987 | -0.765 | 0.00216 |\n"
	                 "| l | 88380 | 3 | 4000000 | 18.3 | 2 | 0.5 |\n");
	o.format = PROFDB_FMT_CSV;
	o.unit = PROFDB_UNIT_AUTO;
	ck_assert_str_eq(render(r, &o),
	                 "name,avg_us,min_us,max_us,gbps,z,p\n"
	                 "k,21.953,21.953,22,986.978763915547,-0.765298076923077,0.00216\n"
	                 "l,88.3804,0.003,4000,18.3198651664921,2,0.5\n");
	profdb_result_free(r);
}
END_TEST

START_TEST(parse_names)
{
	ck_assert_int_eq(profdb_format_parse("table"), PROFDB_FMT_TABLE);
	ck_assert_int_eq(profdb_format_parse("csv"), PROFDB_FMT_CSV);
	ck_assert_int_eq(profdb_format_parse("json"), PROFDB_FMT_JSON);
	ck_assert_int_eq(profdb_format_parse("md"), PROFDB_FMT_MD);
	ck_assert_int_eq(profdb_format_parse("xml"), -1);
	ck_assert_int_eq(profdb_unit_parse("ns"), PROFDB_UNIT_NS);
	ck_assert_int_eq(profdb_unit_parse("us"), PROFDB_UNIT_US);
	ck_assert_int_eq(profdb_unit_parse("ms"), PROFDB_UNIT_MS);
	ck_assert_int_eq(profdb_unit_parse("s"), PROFDB_UNIT_S);
	ck_assert_int_eq(profdb_unit_parse("min"), -1);
}
END_TEST

/* Replacement of invalid UTF-8, against byte strings worked out by hand:
 * each byte that starts no valid sequence becomes EF BF BD. */
START_TEST(utf8_replacement)
{
	char *t;
	const char *in = "a\xc3\xa9" "b"; /* valid: returned as is */
	ck_assert_ptr_eq(profdb__utf8_safe(in, &t), in);
	ck_assert_ptr_null(t);
	ck_assert_uint_eq(profdb__utf8_len("\xf0\x9f\x98\x80"), 4);
	ck_assert_uint_eq(profdb__utf8_len("\xed\xa0\x80"), 0); /* a surrogate */
	ck_assert_uint_eq(profdb__utf8_len("\xf4\x90\x80\x80"), 0); /* past U+10FFFF */
	ck_assert_uint_eq(profdb__utf8_len("\xe4\xb8"), 0); /* cut by the end */
	ck_assert_str_eq(profdb__utf8_safe("x\xffy", &t), "x\xef\xbf\xbdy");
	free(t);
	/* overlong '/' (2 bytes), a cut 3-byte sequence (2 bytes) */
	t = profdb__utf8_dup("\xc0\xaf|\xe4\xb8|");
	ck_assert_str_eq(t, "\xef\xbf\xbd\xef\xbf\xbd|\xef\xbf\xbd\xef\xbf\xbd|");
	free(t);
}
END_TEST

/* Real kernel names (Kineto traces of the corpus: NCCL, cutlass, cuBLAS,
 * at::native templates; Ascend kernel_details) that share long heads,
 * argument lists or template tails: shortened to a name column's width
 * they must all still differ, and fit. */
static const char *const real_names[] = {
	"ncclDevKernel_AllGather_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevComm*, unsigned long, ncclWork*)",
	"ncclDevKernel_SendRecv(ncclDevComm*, unsigned long, ncclWork*)",
	"ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
	"ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclDevComm*, unsigned long, ncclWork*)",
	"void at::native::vectorized_elementwise_kernel<4, at::native::AddFunctor<float>, at::detail::Array<char*, 3> >(int, at::native::AddFunctor<float>, at::detail::Array<char*, 3>)",
	"void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, at::detail::Array<char*, 1>)",
	"void at::native::vectorized_elementwise_kernel<4, at::native::BUnaryFunctor<at::native::CompareGEFunctor<float> >, at::detail::Array<char*, 2> >(int, at::native::BUnaryFunctor<at::native::CompareGEFunctor<float> >, at::detail::Array<char*, 2>)",
	"void at::native::(anonymous namespace)::vectorized_layer_norm_kernel<float, float, false>(int, float, float const*, float const*, float const*, float*, float*, float*)",
	"void at::native::(anonymous namespace)::layer_norm_grad_input_kernel_vectorized<float, float, false>(float const*, float const*, float const*, float const*, float const*, float*, int)",
	"void at::native::reduce_kernel<512, 1, at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4> >(at::native::ReduceOp<float, at::native::MeanOps<float, float, float, float>, unsigned int, float, 4, 4>)",
	"void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_nn_align1>(cutlass_80_simt_sgemm_64x64_8x5_nn_align1::Params)",
	"void cutlass::Kernel2<cutlass_80_simt_sgemm_64x64_8x5_tn_align1>(cutlass_80_simt_sgemm_64x64_8x5_tn_align1::Params)",
	"void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_128x128_32x3_nn_align4>",
	"sm80_xmma_gemm_f32f32_f32f32_f32_nt_n_tilesize32x32x8_stage3_warpsize1x2x1_ffma_aligna4_alignc4_execute_kernel__5x_cublas",
	"void gemmSN_NN_kernel<float, 256, 4, 2, 8, 4, 4, false, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float> >(cublasGemmSmallNParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)",
	"void gemmSN_TN_kernel_64addr<float, 128, 16, 2, 4, 8, 9, false, cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float> >(cublasGemmSmallNParams<cublasGemvTensorStridedBatched<float const>, cublasGemvTensorStridedBatched<float>, float>)",
	"aclnnAdaptiveAvgPool2dBackward_AdaptiveAvgPool3dGradAiCore_AdaptiveAvgPool3dGrad",
	"aclnnAdaptiveAvgPool2dBackward_TransposeAiCore_Transpose",
	"aclnnAdaptiveAvgPool2d_AdaptiveAvgPool3dAiCore_AdaptiveAvgPool3d",
	"aclnnAdaptiveAvgPool2d_TransposeAiCore_Transpose",
	"aclnnDropoutDoMask_DropoutDoMaskAiCore_DropOutDoMask",
};
#define NREAL (sizeof real_names / sizeof real_names[0])

START_TEST(name_shorten_keeps_names_apart)
{
	static const size_t widths[] = { 48, 60, 80 };
	char s[NREAL][512];
	for (size_t k = 0; k < sizeof widths / sizeof widths[0]; k++) {
		for (size_t i = 0; i < NREAL; i++) {
			snprintf(s[i], sizeof s[i], "%s", real_names[i]);
			profdb__name_shorten(s[i], widths[k]);
			ck_assert_msg(strlen(s[i]) <= widths[k], "%s: %zu > %zu", s[i], strlen(s[i]), widths[k]);
		}
		for (size_t i = 0; i < NREAL; i++)
			for (size_t j = i + 1; j < NREAL; j++)
				ck_assert_msg(strcmp(s[i], s[j]) != 0, "width %zu: '%s' and '%s' both print '%s'",
				              widths[k], real_names[i], real_names[j], s[i]);
	}
	/* by hand: the argument list goes first, then scopes, then inner
	 * template parameters; the head is kept where (...) ends the name */
	snprintf(s[0], sizeof s[0], "%s", real_names[1]);
	profdb__name_shorten(s[0], 45);
	ck_assert_str_eq(s[0], "ncclDevKernel_AllReduce_Sum_bf16_RING_LL(...)");
	snprintf(s[0], sizeof s[0], "%s", real_names[1]);
	profdb__name_shorten(s[0], 27);
	ck_assert_str_eq(s[0], "ncclDevKernel_AllRe...(...)");
	snprintf(s[0], sizeof s[0], "%s", real_names[5]);
	profdb__name_shorten(s[0], 80);
	ck_assert_str_eq(s[0], "vectorized_elementwise_kernel<4, AddFunctor<float>, Array<char*, 3> >(...)");
	snprintf(s[0], sizeof s[0], "%s", real_names[10]);
	profdb__name_shorten(s[0], 60);
	ck_assert_str_eq(s[0], "reduce_kernel<512, 1, ReduceOp<...> >(...)");
	/* no argument list: the middle is cut, head and tail kept */
	snprintf(s[0], sizeof s[0], "%s", real_names[17]);
	profdb__name_shorten(s[0], 20);
	ck_assert_str_eq(s[0], "aclnnAdap...ol3dGrad");
	/* a name that fits is left alone */
	snprintf(s[0], sizeof s[0], "%s", real_names[2]);
	profdb__name_shorten(s[0], 80);
	ck_assert_str_eq(s[0], real_names[2]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("format");
	TCase *tc = tcase_create("format");
	tcase_add_test(tc, csv_exact_times);
	tcase_add_test(tc, json_rows_and_escapes);
	tcase_add_test(tc, table_units_and_nulls);
	tcase_add_test(tc, table_shortens_in_the_middle);
	tcase_add_test(tc, table_notes_wrap);
	tcase_add_test(tc, markdown);
	tcase_add_test(tc, one_precision);
	tcase_add_test(tc, parse_names);
	tcase_add_test(tc, utf8_replacement);
	tcase_add_test(tc, name_shorten_keeps_names_apart);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

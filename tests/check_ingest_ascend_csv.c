/*
 * check_ingest_ascend_csv.c - the Ascend text-export reader
 * (ingest_ascend_csv.c, ingest_ascend_tables.c, ingest_ascend_meta.c,
 * csv_reader.c).
 *
 *  - reader: hand-made files of testdata/ascend/edge (see make_edge.py)
 *    through the memory sink, expectations computed by hand in comments;
 *  - errors: bad files made here, their messages, and a database file
 *    that is byte for byte unchanged after a failed ingest;
 *  - corpus: every Ascend text set of the corpus ingested through the real
 *    store and compared with a deliberately simple CSV parser written below
 *    (no libcsv, no profdb code) over the same raw files.
 */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "testutil.h"
#include "read/ascend_csv.h"
#include "read/detect.h"

/* ================================================================ helpers */

static struct tu_sink *read_path(const char *path, int expect_rc)
{
	static struct tu_sink s;
	struct profdb_reader_ctx c;
	tu_sink_init(&s);
	c = tu_ctx(&s, path);
	ck_assert_msg(profdb__read_ascend_folder(&c) == expect_rc, "%s: %s", path, s.err.msg);
	return &s;
}

static const struct tu_kernel *kernel_named(const struct tu_sink *s, const char *name, int nth)
{
	for (size_t i = 0; i < s->nkernels; i++)
		if (strcmp(s->kernels[i].name, name) == 0 && nth-- == 0)
			return &s->kernels[i];
	ck_abort_msg("no kernel '%s'", name);
	return NULL;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

/* Write text to DIR/name in a fresh temporary folder; returns the file path. */
static const char *temp_file(const char *name, const void *text, size_t len)
{
	static char path[8][512];
	static int next;
	char *p = path[next++ % 8];
	snprintf(p, sizeof path[0], "%s/%s", tu_tmpdir(), name);
	ck_assert_int_eq(tu_write_file(p, text, len), 0);
	return p;
}

static int ingest(profdb *db, const char *path, const char *run, int jobs, int replace)
{
	struct profdb_ingest_opts o = PROFDB_INGEST_OPTS_INIT;
	o.run = run;
	o.jobs = jobs;
	o.replace = replace;
	return profdb_ingest(db, NULL, path, &o);
}

/* ================================================================ reader */

START_TEST(crlf_quoted_tab_start)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/crlf/kernel_details.csv"), PROFDB_OK);
	const struct tu_kernel *k;
	ck_assert_uint_eq(s->nkernels, 4);
	ck_assert_int_eq(s->rows_read, 4);
	ck_assert_int_eq(s->skipped, 0);
	/* "1736405443881410.320\t" quoted: 1736405443881410 us + 320 ns */
	k = kernel_named(s, "MatMul_1", 0);
	ck_assert_int_eq(k->start_ns, 1736405443881410320LL);
	ck_assert_int_eq(k->dur_ns, 10500);
	ck_assert_int_eq(k->step, 1);
	ck_assert_int_eq(k->block_dim, 20);
	ck_assert_str_eq(k->core, "AI_CORE");
	/* 12 us, wait 1881.080000 us */
	k = kernel_named(s, "MatMul_1", 1);
	ck_assert_int_eq(k->dur_ns, 12000);
	ck_assert_int_eq(k->wait_ns, 1881080);
	ck_assert_int_eq(k->step, 2);
	/* unquoted start with a TAB; HCCL core: communication */
	k = kernel_named(s, "hcom_allReduce__1", 0);
	ck_assert_int_eq(k->start_ns, 1736405443881500000LL);
	ck_assert_int_eq(k->kind, PROFDB_KIND_COMM);
	ck_assert_int_eq(k->wait_ns, 79180);
	/* empty Step Id: no step; N/A type and core: NULL; 0.001 us = 1 ns */
	k = kernel_named(s, "Add_2", 0);
	ck_assert(k->step == PROFDB_NULL);
	ck_assert_ptr_null(k->type);
	ck_assert_ptr_null(k->core);
	ck_assert_int_eq(k->kind, PROFDB_KIND_KERNEL);
	ck_assert_int_eq(k->dur_ns, 1);
	ck_assert_int_eq(k->rank, 0);
	tu_sink_free(s);
}
END_TEST

START_TEST(lf_exponent_no_final_newline)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/lf_no_final_newline/kernel_details.csv"), PROFDB_OK);
	ck_assert_uint_eq(s->nkernels, 2);
	/* 932.0498 us = 932049.8 ns, rounded half away from zero */
	ck_assert_int_eq(kernel_named(s, "Cast16", 0)->dur_ns, 932050);
	/* the last row has no newline; 1.7028669029969568E+15 us */
	ck_assert_int_eq(kernel_named(s, "Conv2D17", 0)->start_ns, 1702866902996956800LL);
	ck_assert_int_eq(kernel_named(s, "Conv2D17", 0)->wait_ns, 23400);
	ck_assert(kernel_named(s, "Conv2D17", 0)->step == PROFDB_NULL);
	tu_sink_free(s);
}
END_TEST

START_TEST(ragged_rows)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/ragged/kernel_details.csv"), PROFDB_OK);
	const struct tu_kernel *k;
	/* 5 rows: Full, ShortMetrics and NAmetrics kept; the row missing its
	 * Duration ("NO" lands in Mix Block Dim) and TooShort skipped */
	ck_assert_int_eq(s->rows_read, 5);
	ck_assert_uint_eq(s->nkernels, 3);
	ck_assert_int_eq(s->skipped, 2);
	ck_assert_str_eq(s->last_skip, "too few fields");
	k = kernel_named(s, "Full", 0);
	ck_assert_uint_eq(k->nmetrics, 3);
	ck_assert_str_eq(k->in_shapes, "8192,2,640;;1"); /* was """8192,2,640;;1""" */
	ck_assert_int_eq(k->stream, 2);
	ck_assert_int_eq(k->task_id, 10);
	ck_assert_uint_eq(kernel_named(s, "ShortMetrics", 0)->nmetrics, 1);
	ck_assert_int_eq(kernel_named(s, "ShortMetrics", 0)->dur_ns, 3000);
	ck_assert_uint_eq(kernel_named(s, "NAmetrics", 0)->nmetrics, 0);
	ck_assert_ptr_null(kernel_named(s, "NAmetrics", 0)->in_shapes);
	tu_sink_free(s);
}
END_TEST

START_TEST(unusable_rows_skipped)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/na_duration/kernel_details.csv"), PROFDB_OK);
	/* 7 rows: Good x2 kept (5 + 7 us) and ZeroDur (0 is kept: doc/definitions.md
	 * "Zero-length events"); N/A and -2 durations, N/A start, empty name
	 * skipped */
	ck_assert_int_eq(s->rows_read, 7);
	ck_assert_uint_eq(s->nkernels, 3);
	ck_assert_int_eq(s->skipped, 4);
	ck_assert_int_eq(kernel_named(s, "ZeroDur", 0)->dur_ns, 0);
	ck_assert_int_eq(kernel_named(s, "Good", 0)->dur_ns + kernel_named(s, "Good", 1)->dur_ns, 12000);
	tu_sink_free(s);
}
END_TEST

START_TEST(raw_op_summary_names)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/raw_names/kernel_details.csv"), PROFDB_OK);
	const struct tu_kernel *k;
	ck_assert_uint_eq(s->nkernels, 2);
	k = kernel_named(s, "aclnnAdd_AddAiCore_Add", 0);
	ck_assert_int_eq(k->device, 3);
	ck_assert_int_eq(k->stream, 7);
	ck_assert_int_eq(k->block_dim, 1);          /* Block Num */
	ck_assert_str_eq(k->type, "Add");            /* OP Type */
	ck_assert_str_eq(k->core, "AI_VECTOR_CORE"); /* Task Type */
	ck_assert_int_eq(k->start_ns, 1736413974268747953LL);
	ck_assert_int_eq(k->dur_ns, 1580);
	ck_assert_int_eq(k->wait_ns, 28280);
	ck_assert_str_eq(k->in_shapes, ";");         /* """;""" */
	ck_assert_uint_eq(k->nmetrics, 2);           /* aiv_time(us), aiv_vec_ratio */
	k = kernel_named(s, "hcom_allReduce__868_0_1", 0);
	ck_assert_int_eq(k->kind, PROFDB_KIND_COMM); /* COMMUNICATION */
	ck_assert(k->stream == PROFDB_NULL);         /* N/A */
	ck_assert_uint_eq(k->nmetrics, 0);
	tu_sink_free(s);
}
END_TEST

START_TEST(mindspore_names)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/mindspore/rank_3_ascend_ms"), PROFDB_OK);
	const struct tu_kernel *k;
	size_t len;
	unsigned char *text;
	const char *copy;
	ck_assert_uint_eq(s->nkernels, 3);
	k = kernel_named(s, "aclnnMatmul_MatMulCommon_MatMulV2", 0);
	ck_assert_str_eq(k->launch_op, "MatMul-op0");
	ck_assert_int_eq(k->rank, 3); /* from the folder name rank_3 */
	ck_assert_ptr_null(kernel_named(s, "NoSlash", 0)->launch_op);
	tu_sink_free(s);
	/* the same file outside a *_ascend_ms folder keeps the whole name */
	text = tu_read_file(tu_testdata("ascend/edge/mindspore/rank_3_ascend_ms/ASCEND_PROFILER_OUTPUT/kernel_details.csv"), &len);
	ck_assert_ptr_nonnull(text);
	copy = temp_file("kernel_details.csv", text, len);
	free(text);
	s = read_path(copy, PROFDB_OK);
	ck_assert_ptr_null(kernel_named(s, "MatMul-op0/aclnnMatmul_MatMulCommon_MatMulV2", 0)->launch_op);
	tu_sink_free(s);
}
END_TEST

START_TEST(cambricon_refused)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/cambricon/kernel_details.csv"), PROFDB_EFORMAT);
	ck_assert_msg(ends_with(s->err.msg, "kernel_details.csv:1: this is a Cambricon torch_mlu kernel_details.csv"
	              " (header 'Thread Id,Correlation Id,Kernel Name,...'), which profdb does not read"),
	              "%s", s->err.msg);
	ck_assert_uint_eq(s->nkernels, 0);
	tu_sink_free(s);
}
END_TEST

START_TEST(whole_folder)
{
	struct tu_sink *s = read_path(tu_testdata("ascend/edge/folder/worker_ascend_pt"), PROFDB_OK);
	/* profiler_info.json (rank_id "2"), profiler_metadata.json and 4 tables */
	ck_assert_uint_eq(s->nsources, 6);
	ck_assert_uint_eq(s->nkernels, 1);
	ck_assert_int_eq(s->kernels[0].rank, 2);
	/* meta: profiler_info, torch_npu_version, cann_version, profiler_level,
	 * profiler_metadata */
	ck_assert_uint_eq(s->nmeta, 5);
	/* ops: aten::add, aten::mul; skipped: ProfilerStep#5, empty name, N/A self */
	ck_assert_uint_eq(s->nops, 2);
	ck_assert_int_eq(s->skipped, 3);
	ck_assert_str_eq(s->ops[0].name, "aten::add");
	ck_assert_int_eq(s->ops[0].self_ns, 10500);
	ck_assert_int_eq(s->ops[0].dur_ns, 20000);
	ck_assert_int_eq(s->ops[0].device_self_ns, 3000);
	ck_assert_int_eq(s->ops[0].rank, 2);
	ck_assert(s->ops[0].start_ns == PROFDB_NULL);
	ck_assert_str_eq(s->ops[0].in_shapes, "8,8;\r\n8,8");
	ck_assert_str_eq(s->ops[0].call_stack, "a.py(1): f;\r\nb.py(2): g");
	ck_assert_int_eq(s->ops[1].self_ns, 1250);
	/* step_trace_time: 9 metric columns x 2 rows; one numbered step */
	ck_assert_uint_eq(s->nstep_metrics, 18);
	ck_assert_uint_eq(s->nsteps, 1);
	ck_assert_int_eq(s->steps[0].step, 7);
	ck_assert_int_eq(s->steps[0].rank, 2);
	tu_sink_free(s);
}
END_TEST

START_TEST(lone_file_rank_from_ctx)
{
	struct tu_sink s;
	struct profdb_reader_ctx c;
	tu_sink_init(&s);
	c = tu_ctx(&s, tu_testdata("ascend/edge/crlf/kernel_details.csv"));
	c.rank = 5;
	ck_assert_int_eq(profdb__read_kernel_details(&c), PROFDB_OK);
	ck_assert_int_eq(s.kernels[0].rank, 5);
	tu_sink_free(&s);
}
END_TEST

struct progress_seen {
	uint64_t last;             /* last done value */
	int calls, backwards;      /* calls, and calls that went down */
};

static void on_progress(void *arg, uint64_t done, uint64_t total)
{
	struct progress_seen *p = arg;
	(void)total;
	p->backwards += done < p->last;
	p->last = done;
	p->calls++;
}

START_TEST(progress_over_the_export)
{
	struct tu_sink s;
	struct profdb_reader_ctx c;
	struct progress_seen seen = { 0, 0, 0 };
	/* the export's four CSV files, sized by stat here: progress ends at
	 * their total and never goes down */
	static const char *const files[] = { "kernel_details.csv", "operator_details.csv",
	                                     "step_trace_time.csv", "op_statistic.csv" };
	uint64_t total = 0;
	for (size_t i = 0; i < 4; i++) {
		char rel[256];
		struct stat sb;
		snprintf(rel, sizeof rel, "ascend/edge/folder/worker_ascend_pt/ASCEND_PROFILER_OUTPUT/%s", files[i]);
		ck_assert_int_eq(stat(tu_testdata(rel), &sb), 0);
		total += (uint64_t)sb.st_size;
	}
	tu_sink_init(&s);
	c = tu_ctx(&s, tu_testdata("ascend/edge/folder/worker_ascend_pt"));
	c.progress = on_progress;
	c.progress_arg = &seen;
	ck_assert_int_eq(profdb__read_ascend_folder(&c), PROFDB_OK);
	ck_assert_int_ge(seen.calls, 4);
	ck_assert_int_eq(seen.backwards, 0);
	ck_assert_uint_eq(seen.last, total);
	tu_sink_free(&s);
}
END_TEST

static const char HDR[] = "Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n";

/* One malformed kernel_details.csv: expect code and a message ending in want. */
static void expect_bad(const char *text, size_t len, int code, const char *want)
{
	struct tu_sink *s = read_path(temp_file("kernel_details.csv", text, len), code);
	ck_assert_msg(ends_with(s->err.msg, want), "got '%s', want '...%s'", s->err.msg, want);
	tu_sink_free(s);
}

START_TEST(header_errors)
{
	static const char no_dur[] = "Name,Type,Accelerator Core,Start Time(us),Wait Time(us),Block Dim\nA,B,C,1,0,0\n";
	static const char dup[] = "Name,Type,Type,Accelerator Core,Start Time(us),Duration(us)\nA,B,B,C,1,2\n";
	static const char both[] = "Name,Op Name,Start Time(us),Duration(us)\nA,A,1,2\n";
	static const char other[] = "Level,API Name,Time(us),Count\nacl,x,1,2\n";
	expect_bad(no_dur, sizeof no_dur - 1, PROFDB_EFORMAT, "kernel_details.csv:1: missing column 'Duration(us)'");
	expect_bad(dup, sizeof dup - 1, PROFDB_EFORMAT, "kernel_details.csv:1: column 'Type' appears twice");
	expect_bad(both, sizeof both - 1, PROFDB_EFORMAT,
	           "kernel_details.csv:1: columns 'Name' and 'Op Name' both present");
	expect_bad(other, sizeof other - 1, PROFDB_EFORMAT,
	           "kernel_details.csv:1: not a kernel_details.csv header (it starts 'Level')");
}
END_TEST

START_TEST(malformed_files)
{
	char buf[512];
	int n;
	/* a quoted name spanning lines 2-3, then a row on line 4 that opens a
	 * quote and never closes it: physical lines, not records */
	n = snprintf(buf, sizeof buf, "%s1,\"two\nlines\",T,C,1,2,0,0\n1,\"open,T,C,1,2,0,0\n", HDR);
	expect_bad(buf, (size_t)n, PROFDB_EFORMAT, "kernel_details.csv:4: file ends inside a quoted field (truncated file?)");
	/* a quote inside an unquoted field on line 3 */
	n = snprintf(buf, sizeof buf, "%s1,A,T,C,1,2,0,0\r\n1,B\"x,T,C,1,2,0,0\r\n", HDR);
	expect_bad(buf, (size_t)n, PROFDB_EFORMAT, "kernel_details.csv:3: malformed CSV quoting"
	           " (a '\"' inside an unquoted field or text after a closing quote)");
	/* NUL bytes on line 2 at byte 90 (the header is 87 bytes, then "1,A") */
	n = snprintf(buf, sizeof buf, "%s1,A", HDR);
	memcpy(buf + n, "\0\0\x01\xff,T", 6);
	expect_bad(buf, (size_t)n + 6, PROFDB_EFORMAT, "kernel_details.csv:2: binary data (NUL byte at byte 90): not a CSV file");
	expect_bad("", 0, PROFDB_EFORMAT, "kernel_details.csv: empty file");
	expect_bad("\r\n\n", 3, PROFDB_EFORMAT, "kernel_details.csv: empty file");
}
END_TEST

START_TEST(header_only_and_blank_lines)
{
	struct tu_sink *s;
	char buf[512];
	int n = snprintf(buf, sizeof buf, "%s", HDR);
	s = read_path(temp_file("kernel_details.csv", buf, (size_t)n), PROFDB_OK);
	ck_assert_uint_eq(s->nkernels, 0);
	ck_assert_int_eq(s->rows_read, 0);
	tu_sink_free(s);
	n = snprintf(buf, sizeof buf, "\n%s\n\n1,A,T,C,1,2,0,0\n\n", HDR);
	s = read_path(temp_file("kernel_details.csv", buf, (size_t)n), PROFDB_OK);
	ck_assert_uint_eq(s->nkernels, 1);
	tu_sink_free(s);
}
END_TEST

/* ================================================================ csv */

/* Rows as text: "LINE:[field][field]\n" per row, fields raw. */
struct rowlog {
	char *s;
	size_t n, cap;
};

static void log_add(struct rowlog *l, const char *p, size_t n)
{
	if (l->n + n + 1 > l->cap) {
		l->cap = (l->n + n + 1) * 2;
		l->s = realloc(l->s, l->cap);
		ck_assert_ptr_nonnull(l->s);
	}
	memcpy(l->s + l->n, p, n);
	l->n += n;
	l->s[l->n] = '\0';
}

static int log_row(void *arg, const struct profdb__csv_row *row)
{
	struct rowlog *l = arg;
	char num[32];
	int k = snprintf(num, sizeof num, "%lld:", (long long)row->line);
	log_add(l, num, (size_t)k);
	for (size_t i = 0; i < row->n; i++) {
		ck_assert_uint_eq(strlen(row->field[i]), row->len[i]);
		log_add(l, "[", 1);
		log_add(l, row->field[i], row->len[i]);
		log_add(l, "]", 1);
	}
	log_add(l, "\n", 1);
	return PROFDB_OK;
}

/* Read text with the given chunk size and parser; the row log, then
 * "rc=N rows=N msg" at its end. */
static char *parse_log(const char *text, size_t n, size_t chunk, int libcsv_only)
{
	struct rowlog l = { NULL, 0, 0 };
	struct profdb_err err = { 0 };
	int64_t rows = -1;
	char tail[PROFDB_ERRMAX + 64];
	int rc = profdb__csv_read_mem_opts(text, n, chunk, libcsv_only, "t.csv", log_row, &l, &rows, &err);
	int k = snprintf(tail, sizeof tail, "rc=%d rows=%lld %s", rc, (long long)rows, err.msg);
	log_add(&l, "", 0);
	log_add(&l, tail, (size_t)k);
	return l.s;
}

/* Inputs whose rows were written down by hand (RFC 4180 plus libcsv's
 * blank trimming of unquoted fields); each is read whole, in chunks of 1, 2,
 * 3, 5 and 64 bytes, and through libcsv alone: all must give these rows. */
static const struct {
	const char *in, *want;
} csv_cases[] = {
	{ "a,b,c\n1,2,3\n", "1:[a][b][c]\n2:[1][2][3]\nrc=0 rows=2 " },
	/* no final newline; CRLF; a lone LF line between */
	{ "a,b\r\n\r\n\nx,y", "1:[a][b]\n4:[x][y]\nrc=0 rows=2 " },
	/* quotes: embedded comma, doubled quote, empty quoted, quoted newline */
	{ "\"x,y\",\"say \"\"hi\"\"\",\"\"\n\"two\nlines\",z\n",
	  "1:[x,y][say \"hi\"][]\n2:[two\nlines][z]\nrc=0 rows=2 " },
	/* empty fields, a trailing comma, blanks around unquoted and quoted */
	{ ",,\n a , b\t,\n  \"q \" ,\t\"\"\"\"\t\r\n", "1:[][][]\n2:[a][b][]\n3:[q ][\"]\nrc=0 rows=3 " },
	/* the Ascend start time: a TAB after the value, quoted or not */
	{ "1736405443881410.320\t,\"1736413971558972.912\t\"\n",
	  "1:[1736405443881410.320][1736413971558972.912\t]\nrc=0 rows=1 " },
	/* the shape triple quotes: the value keeps one pair */
	{ "\"\"\"32,3,224,224\"\"\",N\n", "1:[\"32,3,224,224\"][N]\nrc=0 rows=1 " },
	/* a BOM leaves the first header name; later rows keep their bytes */
	{ "\xEF\xBB\xBFStep Id,Name\n\xEF\xBB\xBF,x\n", "1:[Step Id][Name]\n2:[\xEF\xBB\xBF][x]\nrc=0 rows=2 " },
	/* ragged rows; blank-only lines are no rows */
	{ "a\n \t \nb,c,d\n\ne,f\n", "1:[a]\n3:[b][c][d]\n5:[e][f]\nrc=0 rows=3 " },
	/* a CR alone ends a row (no new line); CR inside quotes is kept */
	{ "a\rb,\"c\rd\"\n", "1:[a]\n1:[b][c\rd]\nrc=0 rows=2 " },
	/* a quoted field ends the file without its newline; CRLF inside quotes */
	{ "h\n\"x\r\ny\"", "1:[h]\n2:[x\r\ny]\nrc=0 rows=2 " },
	/* errors: a quote in an unquoted field (line 3), text after a closing
	 * quote (line 2), an open quote at the end (row from line 2) */
	{ "a\nb\nc\"d\n", "1:[a]\n2:[b]\n"
	  "rc=-3 rows=0 t.csv:3: malformed CSV quoting (a '\"' inside an unquoted field or text after a"
	  " closing quote)" },
	{ "a\n\"b\"c\n", "1:[a]\n"
	  "rc=-3 rows=0 t.csv:2: malformed CSV quoting (a '\"' inside an unquoted field or text after a"
	  " closing quote)" },
	{ "a\n\"b\n\nc", "1:[a]\nrc=-3 rows=0 t.csv:2: file ends inside a quoted field (truncated file?)" },
};

START_TEST(csv_fields_by_hand)
{
	static const size_t chunks[] = { 0, 1, 2, 3, 5, 64 };
	const char *in = csv_cases[_i].in, *want = csv_cases[_i].want;
	size_t n = strlen(in);
	for (int only = 0; only <= 1; only++)
		for (size_t c = 0; c < sizeof chunks / sizeof chunks[0]; c++) {
			char *got = parse_log(in, n, chunks[c] ? chunks[c] : n, only);
			ck_assert_msg(strcmp(got, want) == 0, "case %d, chunk %zu, libcsv only %d:\n%s\nwanted\n%s",
			              _i, chunks[c], only, got, want);
			free(got);
		}
}
END_TEST

/* The fast path against libcsv alone on random text over the bytes that
 * matter (quote, comma, blanks, CR, LF, a NUL now and then), read whole
 * and in small chunks: rows, lines, errors and messages all equal. */
START_TEST(csv_fast_path_matches_libcsv)
{
	static const char alphabet[] = "ab\",,\" \t\r\n\n";
	uint64_t x = 88172645463325252ULL;
	char text[64];
	for (int round = 0; round < 5000; round++) {
		size_t n;
		char *ref, *got;
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		n = (size_t)(x % sizeof text);
		for (size_t i = 0; i < n; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			text[i] = (x >> 8) % 500 == 0 ? '\0' : alphabet[(x >> 16) % (sizeof alphabet - 1)];
		}
		ref = parse_log(text, n, n, 1);
		got = parse_log(text, n, n, 0);
		ck_assert_msg(strcmp(got, ref) == 0, "round %d: fast\n%s\nlibcsv\n%s", round, got, ref);
		free(got);
		got = parse_log(text, n, 1 + (size_t)(x % 7), 0);
		ck_assert_msg(strcmp(got, ref) == 0, "round %d chunked: fast\n%s\nlibcsv\n%s", round, got, ref);
		free(got);
		free(ref);
	}
}
END_TEST

/* A 16 MiB quoted field with commas and newlines between two short rows:
 * its bytes arrive whole and the next row's line counts its newlines. */
START_TEST(csv_16mib_field)
{
	size_t big = (size_t)16 << 20, n = 0;
	char *text = malloc(big + 64);
	struct rowlog l = { NULL, 0, 0 };
	struct profdb_err err = { 0 };
	int64_t rows = 0;
	ck_assert_ptr_nonnull(text);
	n += (size_t)sprintf(text, "a,b\n1,\"");
	for (size_t i = 0; i < big; i++)
		text[n + i] = i % 4096 == 4095 ? '\n' : i % 7 == 0 ? ',' : 'x';
	n += big;
	n += (size_t)sprintf(text + n, "\"\nc,d\n");
	ck_assert_int_eq(profdb__csv_read_mem_opts(text, n, 256 * 1024, 0, "t.csv", log_row, &l, &rows, &err),
	                 PROFDB_OK);
	ck_assert_int_eq(rows, 3);
	/* rows "a,b" line 1, "1,<big>" line 2, "c,d" on line 2 + 4096 + 1
	 * (16 MiB / 4096 newlines inside the field) */
	ck_assert(strncmp(l.s, "1:[a][b]\n2:[1][", 15) == 0);
	ck_assert_uint_eq(l.n, 9 + 6 + big + 2 + 12);
	ck_assert_str_eq(l.s + l.n - 12, "4099:[c][d]\n");
	ck_assert(memcmp(l.s + 15, text + 7, big) == 0);
	free(l.s);
	free(text);
}
END_TEST

/* ================================================================ detect */

/* The reader of a file made of head, then pad bytes of fill, then tail. */
static const struct profdb_reader *detect_made(const char *head, size_t pad, char fill, const char *tail,
                                               char *reason)
{
	size_t nh = strlen(head), nt = strlen(tail);
	char *text = malloc(nh + pad + nt + 1);
	const char *path;
	const struct profdb_reader *kind;
	ck_assert_ptr_nonnull(text);
	memcpy(text, head, nh);
	memset(text + nh, fill, pad);
	memcpy(text + nh + pad, tail, nt);
	path = temp_file("sniff.bin", text, nh + pad + nt);
	free(text);
	reason[0] = '\0';
	kind = profdb__detect_file(path, reason, PROFDB_ERRMAX);
	return kind;
}

START_TEST(detect_reads_as_far_as_needed)
{
	char reason[PROFDB_ERRMAX];
	/* a header at the start; a header after 100 KiB of other lines (past
	 * the first 64 KiB look, inside the 1 MiB sniff) */
	ck_assert_ptr_eq(detect_made("Step Id,Name,Duration(us)\n1,A,2\n", 0, ' ', "", reason),
	                 &profdb__reader_ascend_csv);
	ck_assert_ptr_eq(detect_made("x\n", 100 << 10, 'y', "\nName,Duration(us)\n", reason),
	                 &profdb__reader_ascend_csv);
	ck_assert_ptr_eq(detect_made("x\n", 2 << 20, 'y', "\nName,Duration(us)\n", reason), NULL);
	ck_assert_str_eq(reason, "not a format profdb reads");
	/* "traceEvents" at 300 KiB and at 1 MiB + 10 */
	ck_assert_ptr_eq(detect_made("{\"a\":\"", 300 << 10, 'z', "\",\"traceEvents\":[]}", reason),
	                 &profdb__reader_kineto);
	ck_assert_ptr_eq(detect_made("{\"a\":\"", (1 << 20) + 10, 'z', "\",\"traceEvents\":[]}", reason),
	                 NULL);
	ck_assert_str_eq(reason, "JSON object without \"traceEvents\" in its first 1048576 bytes: not a trace");
	/* 200 KiB of white space, then an array trace; an array of numbers */
	ck_assert_ptr_eq(detect_made("", 200 << 10, '\n', "[{\"ph\":\"X\"}]", reason), &profdb__reader_kineto);
	ck_assert_ptr_eq(detect_made("[", 100 << 10, ' ', "{\"name\":1,\"ts\":2}]", reason), &profdb__reader_kineto);
	ck_assert_ptr_eq(detect_made("[1,", 100 << 10, ' ', "{\"ph\":\"X\"}]", reason), NULL);
	ck_assert_str_eq(reason, "JSON array that does not hold trace events");
	/* empty, short, SQLite */
	ck_assert_ptr_eq(detect_made("", 0, ' ', "", reason), NULL);
	ck_assert_str_eq(reason, "not a format profdb reads");
	/* the SQLite magic on a file SQLite cannot read: refused with the
	 * message the Ascend db reader gave it before detection looked */
	ck_assert_ptr_eq(detect_made("SQLite format 3", 1, '\0', "rest", reason), NULL);
	ck_assert_str_eq(reason, "cannot read as SQLite: file is not a database");
	/* gzip: a real gzipped trace, and gzip holding text */
	reason[0] = '\0';
	ck_assert_ptr_eq(profdb__detect_file(tu_corpus("kineto/tb_plugin/samples/resnet50_num_workers_0/"
	                                               "worker0.1623143089861.pt.trace.json.gz"),
	                                     reason, sizeof reason), &profdb__reader_kineto);
	/* gzip -n of "hello\n" */
	{
		static const unsigned char gz[] = { 0x1f, 0x8b, 0x08, 0, 0, 0, 0, 0, 0, 0x03, 0xcb, 0x48, 0xcd,
		                                    0xc9, 0xc9, 0xe7, 0x02, 0, 0x20, 0x30, 0x3a, 0x36, 0x06, 0,
		                                    0, 0 };
		ck_assert_ptr_eq(profdb__detect_file(temp_file("hello.gz", gz, sizeof gz), reason, sizeof reason),
		                 NULL);
	}
	ck_assert_str_eq(reason, "gzip file that does not hold JSON");
}
END_TEST

/* ================================================================ store */

START_TEST(skip_reasons_stored)
{
	profdb *db = NULL;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(ingest(db, tu_testdata("ascend/edge/na_duration"), "na", 1, 0), PROFDB_OK);
	/* lines: 3 NaDur, 4 ZeroDur, 5 NegDur, 6 BadStart, 7 empty name */
	ck_assert_int_eq(tu_scalar(db, "SELECT count FROM source_skip WHERE reason='non-numeric duration'"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip WHERE reason='non-numeric duration'"), 3);
	/* a zero duration is kept (doc/definitions.md "Zero-length events"), a negative one skipped */
	ck_assert_int_eq(tu_scalar(db, "SELECT count FROM source_skip WHERE reason='negative duration'"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip WHERE reason='negative duration'"), 5);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_v WHERE name='ZeroDur' AND dur_ns = 0"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip WHERE reason='non-numeric start time'"), 6);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip WHERE reason='missing name'"), 7);
	ck_assert_int_eq(tu_scalar(db, "SELECT rows_read FROM source_file"), 7);
	ck_assert_int_eq(tu_scalar(db, "SELECT rows_stored FROM source_file"), 3);
	ck_assert_int_eq(tu_scalar(db, "SELECT rows_skipped FROM source_file"), 4);
	/* Good: 5 + 7 us */
	ck_assert_int_eq(tu_scalar(db, "SELECT calls FROM kernel_summary WHERE name='Good'"), 2);
	ck_assert_double_eq_tol(tu_scalar_d(db, "SELECT total_us FROM kernel_summary WHERE name='Good'"), 12.0, 1e-9);
	profdb_close(db);
}
END_TEST

START_TEST(metrics_and_fields_stored)
{
	profdb *db = NULL;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(ingest(db, tu_testdata("ascend/edge/ragged"), "rg", 1, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_metric m JOIN kernel_v k ON k.id = m.kernel_id"
	                            " WHERE k.name = 'Full'"), 3);
	ck_assert_double_eq_tol(tu_scalar_d(db, "SELECT m.value FROM kernel_metric m JOIN kernel_v k ON k.id = m.kernel_id"
	                                     " WHERE k.name = 'Full' AND m.metric = 'aic_mac_ratio'"), 0.5, 1e-12);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_v WHERE name='Full' AND input_shapes='8192,2,640;;1'"
	                            " AND output_shapes='4096,512' AND input_dtypes='DT_BF16;FLOAT'"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT hf32 FROM kernel k JOIN str s ON s.id = k.name_id WHERE s.value='Full'"), 0);
	ck_assert_int_eq(tu_scalar(db, "SELECT model_id FROM kernel_v WHERE name='Full'"), 4294967295LL);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel WHERE context_id IS NULL"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT count FROM source_skip WHERE reason='too few fields'"), 2);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip WHERE reason='too few fields'"), 4);
	profdb_close(db);
}
END_TEST

START_TEST(folder_stored)
{
	profdb *db = NULL;
	size_t len;
	unsigned char *want;
	sqlite3_stmt *st;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(ingest(db, tu_testdata("ascend/edge/folder"), "f", 0, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_file WHERE rank = 2"), 6);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run_meta WHERE rank = 2 AND key IN ('profiler_info',"
	                            " 'profiler_metadata', 'torch_npu_version', 'cann_version', 'profiler_level')"), 5);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run_meta WHERE key='cann_version' AND value='8.3.RC1'"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM run_meta WHERE key='profiler_level' AND value='Level0'"), 1);
	/* 11.75 us of host self time: aten::add 10.5 + aten::mul 1.25 */
	ck_assert_double_eq_tol(tu_scalar_d(db, "SELECT total_cpu_us FROM run_summary"), 11.75, 1e-9);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM step_metric WHERE step IS NULL"), 9);
	ck_assert_double_eq_tol(tu_scalar_d(db, "SELECT value FROM step_metric WHERE step = 7 AND metric='Computing'"),
	                        8827.472999999998, 1e-9);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM step WHERE rank = 2 AND step = 7"), 1);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM step_metric WHERE metric='Device_id'"), 0);
	/* op_statistic's bytes are kept for verify */
	want = tu_read_file(tu_testdata("ascend/edge/folder/worker_ascend_pt/ASCEND_PROFILER_OUTPUT/op_statistic.csv"), &len);
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT content, rows_read FROM source_file WHERE role='op_statistic'",
	                                    -1, &st, NULL), SQLITE_OK);
	ck_assert_int_eq(sqlite3_step(st), SQLITE_ROW);
	ck_assert_uint_eq((size_t)sqlite3_column_bytes(st, 0), len);
	ck_assert_int_eq(memcmp(sqlite3_column_blob(st, 0), want, len), 0);
	ck_assert_int_eq(sqlite3_column_int64(st, 1), 1);
	sqlite3_finalize(st);
	free(want);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM source_file WHERE role='profiler_info' AND content IS NOT NULL"
	                            " AND sha256 IS NOT NULL"), 1);
	profdb_close(db);
}
END_TEST

/* A database file that held a run is byte for byte the same after each
 * failed ingest: the failure rolls everything back. */
START_TEST(failed_ingest_leaves_file)
{
	static const struct { const char *text; size_t len; const char *want; } bad[] = {
		{ "Name,Start Time(us),Duration(us)\nA,1,\"2\n", 40, "kernel_details.csv:2: file ends inside a quoted field (truncated file?)" },
		{ "Name,Start Time(us)\nA,1\n", 24, "kernel_details.csv:1: missing column 'Duration(us)'" },
		{ "\x7f" "ELF\x02\x01\x01\0\0\0\0", 12, "binary data (NUL byte at byte 7): not a CSV file" },
		{ "", 0, "kernel_details.csv: empty file" },
	};
	const char *dir = tu_tmpdir();
	char dbpath[600], bad_dir[600], bad_file[700];
	unsigned char *before, *after;
	size_t nbefore, nafter;
	profdb *db = NULL;

	snprintf(dbpath, sizeof dbpath, "%s/keep.db", dir);
	ck_assert_int_eq(profdb_open(&db, dbpath, 0), PROFDB_OK);
	ck_assert_int_eq(ingest(db, tu_testdata("ascend/edge/crlf"), "good", 1, 0), PROFDB_OK);
	profdb_close(db);
	before = tu_read_file(dbpath, &nbefore);
	ck_assert_ptr_nonnull(before);
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		snprintf(bad_dir, sizeof bad_dir, "%s/bad%zu", dir, i);
		ck_assert_int_eq(mkdir(bad_dir, 0700), 0);
		snprintf(bad_file, sizeof bad_file, "%s/kernel_details.csv", bad_dir);
		ck_assert_int_eq(tu_write_file(bad_file, bad[i].text, bad[i].len), 0);
		ck_assert_int_eq(profdb_open(&db, dbpath, 0), PROFDB_OK);
		ck_assert_int_eq(ingest(db, bad_dir, "bad", (int)(i % 2) + 1, 0), PROFDB_EFORMAT);
		ck_assert_msg(ends_with(profdb_errmsg(db), bad[i].want), "got '%s'", profdb_errmsg(db));
		/* replacing the good run with bad data fails too and keeps it */
		ck_assert_int_eq(ingest(db, bad_dir, "good", 1, 1), PROFDB_EFORMAT);
		ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel"), 4);
		profdb_close(db);
		after = tu_read_file(dbpath, &nafter);
		ck_assert_ptr_nonnull(after);
		ck_assert_uint_eq(nafter, nbefore);
		ck_assert_msg(memcmp(before, after, nbefore) == 0, "database file changed by failed ingest %zu", i);
		free(after);
	}
	free(before);
}
END_TEST

/* ================================================================ corpus */

/*
 * The reference: a deliberately plain RFC 4180 reader (quotes, "" escapes,
 * CR/LF/CRLF, empty lines ignored) and a decimal-microseconds-to-ns
 * converter, sharing nothing with profdb.
 */
struct ref_csv {
	char ***row;               /* row[i][j] */
	size_t *nf;
	size_t nrows;
};

static void ref_push_field(char ***fields, size_t *nf, const char *b, size_t n)
{
	char *f = malloc(n + 1);
	memcpy(f, b, n);
	f[n] = '\0';
	*fields = realloc(*fields, (*nf + 1) * sizeof **fields);
	(*fields)[(*nf)++] = f;
}

static void ref_load(struct ref_csv *t, const char *path)
{
	size_t len, fl = 0, nf = 0;
	unsigned char *b = tu_read_file(path, &len);
	char *field, **fields = NULL;
	int quoted = 0, started = 0;

	ck_assert_msg(b != NULL, "cannot read %s", path);
	memset(t, 0, sizeof *t);
	field = malloc(len + 1);
	for (size_t i = 0; i <= len; i++) {
		int c = i < len ? b[i] : -1;
		if (quoted) {
			ck_assert_msg(c != -1, "%s: unterminated quote", path);
			if (c == '"' && i + 1 < len && b[i + 1] == '"') {
				field[fl++] = '"';
				i++;
			} else if (c == '"') {
				quoted = 0;
			} else {
				field[fl++] = (char)c;
			}
		} else if (c == '"') {
			quoted = started = 1;
		} else if (c == ',') {
			ref_push_field(&fields, &nf, field, fl);
			fl = 0;
			started = 1;
		} else if (c == '\r' || c == '\n' || c == -1) {
			if (started || fl) {
				ref_push_field(&fields, &nf, field, fl);
				t->row = realloc(t->row, (t->nrows + 1) * sizeof *t->row);
				t->nf = realloc(t->nf, (t->nrows + 1) * sizeof *t->nf);
				t->row[t->nrows] = fields;
				t->nf[t->nrows++] = nf;
			}
			fields = NULL;
			nf = fl = 0;
			started = 0;
		} else {
			field[fl++] = (char)c;
			started = 1;
		}
	}
	free(field);
	free(b);
}

static void ref_free(struct ref_csv *t)
{
	for (size_t i = 0; i < t->nrows; i++) {
		for (size_t j = 0; j < t->nf[i]; j++)
			free(t->row[i][j]);
		free(t->row[i]);
	}
	free(t->row);
	free(t->nf);
}

static int ref_col(const struct ref_csv *t, const char *a, const char *b)
{
	for (size_t j = 0; j < t->nf[0]; j++)
		if (strcmp(t->row[0][j], a) == 0 || (b && strcmp(t->row[0][j], b) == 0))
			return (int)j;
	return -1;
}

/* "1881.080000", "1736405443881410.320\t", "496.8508": us -> ns, rounding
 * the 4th decimal half up (all values here are positive). */
static int64_t ref_ns(const char *s)
{
	int64_t ip = 0, frac = 0;
	int nd = 0;
	while (*s == ' ' || *s == '\t')
		s++;
	ck_assert_msg(*s >= '0' && *s <= '9', "not a number: '%s'", s);
	for (; *s >= '0' && *s <= '9'; s++)
		ip = ip * 10 + (*s - '0');
	if (*s == '.')
		for (s++; *s >= '0' && *s <= '9'; s++, nd++) {
			if (nd < 3)
				frac = frac * 10 + (*s - '0');
			else if (nd == 3 && *s >= '5')
				frac++;
		}
	for (; nd < 3; nd++)
		frac *= 10;
	while (*s == ' ' || *s == '\t')
		s++;
	ck_assert_msg(*s == '\0', "unexpected text '%s'", s);
	return ip * 1000 + frac;
}

struct ref_agg {
	char name[256];
	int64_t calls, total, min, max;
};

struct ref_run {
	struct ref_agg agg[4096];
	size_t nagg;
	double *metric;            /* every PMU metric value, any order */
	size_t nmetric;
	int64_t total_ns, cpu_ns, short_rows, kernel_rows, ops;
	int64_t steps[64][2];      /* (rank, step) */
	size_t nsteps;
};

static void ref_add_step(struct ref_run *r, int64_t rank, int64_t step)
{
	for (size_t i = 0; i < r->nsteps; i++)
		if (r->steps[i][0] == rank && r->steps[i][1] == step)
			return;
	ck_assert_uint_lt(r->nsteps, 64);
	r->steps[r->nsteps][0] = rank;
	r->steps[r->nsteps++][1] = step;
}

/* FORMATS.md 2.2: the metric columns are those after Context ID, or after
 * Output Formats, or after Block Dim/Num when neither is there. */
static int ref_first_metric(const struct ref_csv *t)
{
	static const char *const last[] = { "Context ID", "Output Formats", "Block Dim", "Block Num" };
	for (size_t i = 0; i < sizeof last / sizeof last[0]; i++)
		if (ref_col(t, last[i], NULL) >= 0)
			return ref_col(t, last[i], NULL) + 1;
	return (int)t->nf[0];
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

static void ref_kernels(struct ref_run *r, const char *path, int64_t rank)
{
	struct ref_csv t;
	int name, dur, step, first_metric;
	ref_load(&t, path);
	name = ref_col(&t, "Name", "Op Name");
	dur = ref_col(&t, "Duration(us)", "Task Duration(us)");
	step = ref_col(&t, "Step Id", NULL);
	first_metric = ref_first_metric(&t);
	ck_assert(name >= 0 && dur >= 0);
	for (size_t i = 1; i < t.nrows; i++) {
		struct ref_agg *a = NULL;
		int64_t d;
		r->kernel_rows++;
		if (t.nf[i] != t.nf[0]) { /* a short row cannot be trusted */
			r->short_rows++;
			continue;
		}
		d = ref_ns(t.row[i][dur]);
		for (size_t j = 0; j < r->nagg && !a; j++)
			if (strcmp(r->agg[j].name, t.row[i][name]) == 0)
				a = &r->agg[j];
		if (!a) {
			ck_assert_uint_lt(r->nagg, 4096);
			a = &r->agg[r->nagg++];
			snprintf(a->name, sizeof a->name, "%s", t.row[i][name]);
			a->min = INT64_MAX;
		}
		a->calls++;
		a->total += d;
		a->min = d < a->min ? d : a->min;
		a->max = d > a->max ? d : a->max;
		r->total_ns += d;
		if (step >= 0 && t.row[i][step][0])
			ref_add_step(r, rank, strtoll(t.row[i][step], NULL, 10));
		for (size_t j = (size_t)first_metric; j < t.nf[i]; j++) {
			char *end;
			double v;
			if (!t.row[i][j][0] || strcmp(t.row[i][j], "N/A") == 0)
				continue;
			v = strtod(t.row[i][j], &end);
			ck_assert_msg(*end == '\0', "%s: metric '%s'", path, t.row[i][j]);
			r->metric = realloc(r->metric, (r->nmetric + 1) * sizeof *r->metric);
			r->metric[r->nmetric++] = v;
		}
	}
	ref_free(&t);
}

static void ref_ops(struct ref_run *r, const char *path)
{
	struct ref_csv t;
	int self;
	ref_load(&t, path);
	self = ref_col(&t, "Host Self Duration(us)", NULL);
	ck_assert(self >= 0);
	for (size_t i = 1; i < t.nrows; i++) {
		r->cpu_ns += ref_ns(t.row[i][self]);
		r->ops++;
	}
	ref_free(&t);
}

static void ref_step_trace(struct ref_run *r, const char *path, int64_t rank)
{
	struct ref_csv t;
	int step;
	ref_load(&t, path);
	step = ref_col(&t, "Step", NULL);
	for (size_t i = 1; i < t.nrows; i++)
		if (t.row[i][step][0])
			ref_add_step(r, rank, strtoll(t.row[i][step], NULL, 10));
	ref_free(&t);
}

#define L0 "Ascend-msinsight/test/data/pytorch/text/level0/"
#define L1 "Ascend-msinsight/test/data/pytorch/text/level1/"
#define L2 "Ascend-msinsight/test/data/pytorch/text/level2/"
#define SRV "Ascend-msinsight/server/src/test/test_data/"
#define OUT "/ASCEND_PROFILER_OUTPUT/"

static const struct corpus_set {
	const char *ingest;        /* what profdb ingests (corpus-relative) */
	struct {
		const char *kernels, *ops, *steps; /* raw files for the reference */
		int64_t rank;
	} part[2];
} sets[] = {
	{ L0, { { L0 "rank0_ascend_pt" OUT "kernel_details.csv", L0 "rank0_ascend_pt" OUT "operator_details.csv",
	          L0 "rank0_ascend_pt" OUT "step_trace_time.csv", 0 },
	        { L0 "rank1_ascend_pt" OUT "kernel_details.csv", NULL,
	          L0 "rank1_ascend_pt" OUT "step_trace_time.csv", 1 } } },
	{ L1, { { L1 "rank0_ascend_pt" OUT "kernel_details.csv", L1 "rank0_ascend_pt" OUT "operator_details.csv",
	          L1 "rank0_ascend_pt" OUT "step_trace_time.csv", 0 },
	        { L1 "rank1_ascend_pt" OUT "kernel_details.csv", L1 "rank1_ascend_pt" OUT "operator_details.csv",
	          L1 "rank1_ascend_pt" OUT "step_trace_time.csv", 1 } } },
	{ L2, { { L2 "rank0_ascend_pt" OUT "kernel_details.csv", L2 "rank0_ascend_pt" OUT "operator_details.csv",
	          L2 "rank0_ascend_pt" OUT "step_trace_time.csv", 0 } } },
	{ SRV "test_rank_0", { { SRV "test_rank_0" OUT "kernel_details.csv", SRV "test_rank_0" OUT "operator_details.csv",
	                         SRV "test_rank_0" OUT "step_trace_time.csv", 0 } } },
	{ SRV "test_rank_1", { { SRV "test_rank_1" OUT "kernel_details.csv", SRV "test_rank_1" OUT "operator_details.csv",
	                         SRV "test_rank_1" OUT "step_trace_time.csv", 1 } } },
	{ SRV "test_kernel_parse/op_summary_1.csv", { { SRV "test_kernel_parse/op_summary_1.csv", NULL, NULL, 0 } } },
	{ "msprof-analyze/test/resource/test.csv", { { "msprof-analyze/test/resource/test.csv", NULL, NULL, 0 } } },
	{ "msprof-analyze/test/ut/advisor/compute_advice/data/kernel_details.csv",
	  { { "msprof-analyze/test/ut/advisor/compute_advice/data/kernel_details.csv", NULL, NULL, 0 } } },
};

static struct ref_run ref;

/* Ingest one corpus set through the real store (both the serial and the
 * threaded driver) and compare the views with the reference. */
START_TEST(corpus_matches_reference)
{
	const struct corpus_set *cs = &sets[_i];
	profdb *db = NULL;
	sqlite3_stmt *st;
	size_t nrows = 0, k = 0;

	memset(&ref, 0, sizeof ref);
	for (int p = 0; p < 2 && cs->part[p].kernels; p++) {
		ref_kernels(&ref, tu_corpus(cs->part[p].kernels), cs->part[p].rank);
		if (cs->part[p].ops)
			ref_ops(&ref, tu_corpus(cs->part[p].ops));
		if (cs->part[p].steps)
			ref_step_trace(&ref, tu_corpus(cs->part[p].steps), cs->part[p].rank);
	}
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_msg(ingest(db, tu_corpus(cs->ingest), "r", _i % 2 ? 1 : 0, 0) == PROFDB_OK, "%s: %s",
	              cs->ingest, profdb_errmsg(db));

	/* per kernel name: calls, total, min, max */
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT name, calls, total_us, min_us, max_us"
	                                    " FROM kernel_summary WHERE run = 'r'", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const struct ref_agg *a = NULL;
		for (size_t j = 0; j < ref.nagg && !a; j++)
			if (strcmp(ref.agg[j].name, name) == 0)
				a = &ref.agg[j];
		ck_assert_msg(a != NULL, "%s: kernel '%s' not in the reference", cs->ingest, name);
		ck_assert_int_eq(sqlite3_column_int64(st, 1), a->calls);
		ck_assert_int_eq(llround(sqlite3_column_double(st, 2) * 1000.0), a->total);
		ck_assert_int_eq(llround(sqlite3_column_double(st, 3) * 1000.0), a->min);
		ck_assert_int_eq(llround(sqlite3_column_double(st, 4) * 1000.0), a->max);
		nrows++;
	}
	sqlite3_finalize(st);
	ck_assert_uint_eq(nrows, ref.nagg);

	/* the run: device time, host CPU time, ops, rows read and skipped */
	ck_assert_int_eq(llround(tu_scalar_d(db, "SELECT total_device_us FROM run_summary WHERE run='r'") * 1000.0),
	                 ref.total_ns);
	ck_assert_int_eq(llround(tu_scalar_d(db, "SELECT total_cpu_us FROM run_summary WHERE run='r'") * 1000.0),
	                 ref.cpu_ns);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM op"), ref.ops);
	ck_assert_int_eq(tu_scalar(db, "SELECT sum(rows_read) FROM source_file WHERE role='kernel_details'"),
	                 ref.kernel_rows);
	ck_assert_int_eq(tu_scalar(db, "SELECT coalesce(sum(rows_skipped), 0) FROM source_file"), ref.short_rows);

	/* the step list, per rank */
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM step"), (int64_t)ref.nsteps);
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT rank, step FROM step", -1, &st, NULL), SQLITE_OK);
	while (sqlite3_step(st) == SQLITE_ROW) {
		int found = 0;
		for (size_t j = 0; j < ref.nsteps; j++)
			found |= ref.steps[j][0] == sqlite3_column_int64(st, 0) && ref.steps[j][1] == sqlite3_column_int64(st, 1);
		ck_assert_msg(found, "%s: step %lld of rank %lld not in the reference", cs->ingest,
		              (long long)sqlite3_column_int64(st, 1), (long long)sqlite3_column_int64(st, 0));
		k++;
	}
	sqlite3_finalize(st);
	ck_assert_uint_eq(k, ref.nsteps);

	/* every PMU metric value, exactly (as strtod reads the text) */
	if (ref.nmetric) /* qsort(NULL, 0, ...) is undefined */
		qsort(ref.metric, ref.nmetric, sizeof *ref.metric, cmp_double);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_metric"), (int64_t)ref.nmetric);
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, "SELECT value FROM kernel_metric ORDER BY value", -1, &st, NULL),
	                 SQLITE_OK);
	for (k = 0; sqlite3_step(st) == SQLITE_ROW; k++)
		ck_assert_msg(sqlite3_column_double(st, 0) == ref.metric[k], "%s: metric %zu: %.17g stored, %.17g in the file",
		              cs->ingest, k, sqlite3_column_double(st, 0), ref.metric[k]);
	sqlite3_finalize(st);
	free(ref.metric);
	profdb_close(db);
}
END_TEST

/* A few of the same numbers worked out by hand from the raw files. */
START_TEST(corpus_hand_checked)
{
	profdb *db = NULL;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(ingest(db, tu_corpus(L0), "l0", 0, 0), PROFDB_OK);
	/* hcom_allReduce__868_0_1: rank0 72994.438 us, rank1 56083.72 us;
	 * sum 129078.158 us, both HCCL (communication), step 50 */
	ck_assert_int_eq(tu_scalar(db, "SELECT calls FROM kernel_summary WHERE name='hcom_allReduce__868_0_1'"), 2);
	ck_assert_int_eq(llround(tu_scalar_d(db, "SELECT total_us * 1000 FROM kernel_summary"
	                                      " WHERE name='hcom_allReduce__868_0_1'")), 129078158);
	ck_assert_int_eq(llround(tu_scalar_d(db, "SELECT min_us * 1000 FROM kernel_summary"
	                                      " WHERE name='hcom_allReduce__868_0_1'")), 56083720);
	ck_assert_int_eq(tu_scalar(db, "SELECT count(*) FROM kernel_v WHERE name='hcom_allReduce__868_0_1'"
	                            " AND kind='communication' AND step=50"), 2);
	/* rank0's first row: "1736405443881410.320\t" */
	ck_assert_int_eq(tu_scalar(db, "SELECT min(start_ns) FROM kernel WHERE rank=0"), 1736405443881410320LL);
	ck_assert_int_eq(tu_scalar(db, "SELECT ranks FROM run WHERE name='l0'"), 2);

	/* test_rank_1: Cast 6.34 + 3.54 + 3.14 + 3 us = 16.02 us in 4 calls */
	ck_assert_int_eq(ingest(db, tu_corpus(SRV "test_rank_1"), "t1", 1, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT calls FROM kernel_summary WHERE run='t1' AND name='Cast'"), 4);
	ck_assert_int_eq(llround(tu_scalar_d(db, "SELECT total_us * 1000 FROM kernel_summary"
	                                      " WHERE run='t1' AND name='Cast'")), 16020);
	ck_assert_int_eq(tu_scalar(db, "SELECT min(rank) FROM kernel k JOIN run r ON r.id = k.run_id WHERE r.name='t1'"), 1);

	/* test_rank_0: the FlashAttentionScore row of line 17 lacks a field */
	ck_assert_int_eq(ingest(db, tu_corpus(SRV "test_rank_0"), "t0", 1, 0), PROFDB_OK);
	ck_assert_int_eq(tu_scalar(db, "SELECT first_line FROM source_skip WHERE reason='too few fields'"), 17);
	ck_assert_int_eq(tu_scalar(db, "SELECT calls FROM kernel_summary WHERE run='t0' AND name='FlashAttentionScore'"), 3);

	/* test.csv: 932.0498 (-> 932.050) + 5.86 + 7.77 + 4.35 + 24.26 + 23.98
	 * + 1.22 + 1.36 us = 1000.850 us */
	ck_assert_int_eq(ingest(db, tu_corpus("msprof-analyze/test/resource/test.csv"), "a", 1, 0), PROFDB_OK);
	ck_assert_int_eq(llround(tu_scalar_d(db, "SELECT total_device_us * 1000 FROM run_summary WHERE run='a'")), 1000850);
	profdb_close(db);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("ingest_ascend_csv");
	TCase *t = tcase_create("reader");
	tcase_add_test(t, crlf_quoted_tab_start);
	tcase_add_test(t, lf_exponent_no_final_newline);
	tcase_add_test(t, ragged_rows);
	tcase_add_test(t, unusable_rows_skipped);
	tcase_add_test(t, raw_op_summary_names);
	tcase_add_test(t, mindspore_names);
	tcase_add_test(t, cambricon_refused);
	tcase_add_test(t, whole_folder);
	tcase_add_test(t, lone_file_rank_from_ctx);
	tcase_add_test(t, progress_over_the_export);
	tcase_add_test(t, header_errors);
	tcase_add_test(t, malformed_files);
	tcase_add_test(t, header_only_and_blank_lines);
	suite_add_tcase(s, t);
	t = tcase_create("csv");
	tcase_set_timeout(t, 300);         /* the random comparison under sanitizers */
	tcase_add_loop_test(t, csv_fields_by_hand, 0, (int)(sizeof csv_cases / sizeof csv_cases[0]));
	tcase_add_test(t, csv_fast_path_matches_libcsv);
	tcase_add_test(t, csv_16mib_field);
	tcase_add_test(t, detect_reads_as_far_as_needed);
	suite_add_tcase(s, t);
	t = tcase_create("store");
	tcase_add_test(t, skip_reasons_stored);
	tcase_add_test(t, metrics_and_fields_stored);
	tcase_add_test(t, folder_stored);
	tcase_add_test(t, failed_ingest_leaves_file);
	suite_add_tcase(s, t);
	t = tcase_create("corpus");
	tcase_add_loop_test(t, corpus_matches_reference, 0, (int)(sizeof sets / sizeof sets[0]));
	tcase_add_test(t, corpus_hand_checked);
	suite_add_tcase(s, t);
	return s;
}

int main(void)
{
	return tu_run(suite());
}

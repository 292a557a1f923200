/*
 * check_ingest_kineto.c - the Kineto trace reader: a hand-made nested trace
 * whose every expected value is computed by hand in the comments, invalid
 * events, truncated JSON and gzip, deep nesting, ranks, and the real ingest
 * driver with SQL on the stored tables.  Corpus-wide checks against an
 * independent reference are in tests/cli/kineto_corpus.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

#include "testutil.h"

#define US 1000 /* ns per µs */
#define NULLV (-999) /* what q1 returns for SQL NULL */

static const struct tu_op *op_named(const struct tu_sink *s, const char *name)
{
	for (size_t i = 0; i < s->nops; i++)
		if (strcmp(s->ops[i].name, name) == 0)
			return &s->ops[i];
	ck_abort_msg("no op %s", name);
	return NULL;
}

static const struct tu_kernel *kernel_named(const struct tu_sink *s, const char *name)
{
	for (size_t i = 0; i < s->nkernels; i++)
		if (strcmp(s->kernels[i].name, name) == 0)
			return &s->kernels[i];
	ck_abort_msg("no kernel %s", name);
	return NULL;
}

/*
 * testdata/kineto/nested.json, by hand (times in µs; baseTimeNanoseconds is
 * 1e9 and comes AFTER traceEvents, as does distributedInfo.rank = 3).
 * Thread (100, 1), sorted by start: ProfilerStep#7 [0,100], linear [10,60],
 * addmm [15,45], t [50,55], relu [70,90], clamp_min [70,90] (same span as
 * relu, later in the file: relu is its parent, as in torch), ProfilerStep#8
 * [100,150] (starts at #7's end: not its child), mul [110.5,120.75],
 * empty [130,130], overlap [140,160] (starts inside #8 but ends after it:
 * torch closes #8 first, so it is a top-level op, not #8's child).  The
 * python_function [9,61] is not an op and must not change anything (were it
 * one, it would hold linear).  Thread (100, "25738"): add [20,30], alone.
 *   self: PS7 = 100 - (50 + 20) = 30; linear = 50 - (30 + 5) = 15; addmm 30;
 *   t 5; relu 20 - 20 = 0; clamp_min 20; PS8 = 50 - (10.25 + 0) = 39.75;
 *   mul 10.25; empty 0; overlap 20; add 10.  Sum 180.
 *   device self (device events with the op's External id): addmm 8 (gemm),
 *   clamp_min 6 (relu_kernel), mul 2 (mul_kernel), linear 3 (memcpy).
 *   device total: linear 3 + 8 + 0 = 11; relu 0 + 6 = 6; PS7 0 + 11 + 6 = 17;
 *   PS8 0 + 2 + 0 = 2.
 */
START_TEST(nested_trace)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	const struct tu_op *o;
	const struct tu_kernel *k;
	const int64_t base = 1000000000;

	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("kineto/nested.json"));
	ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_OK);
	ck_assert_int_eq(s.rows_read, 26);
	ck_assert_int_eq(s.skipped, 0);
	ck_assert_uint_eq(s.nops, 11);     /* cpu_op and user_annotation; python_function is not an op */
	ck_assert_uint_eq(s.nkernels, 5);  /* 3 kernels, memcpy, memset; not cuda_sync nor gpu_user_annotation */
	ck_assert_uint_eq(s.nlaunches, 3);
	ck_assert_uint_eq(s.nmeta, 5);     /* schemaVersion, distributedInfo, traceName,
	                                    * baseTimeNanoseconds, device_step_spans */
	/* the gpu_user_annotation copy of #7 is not a second step: it goes to
	 * metadata as the device-side span (see driver_nested) */
	ck_assert_uint_eq(s.nsteps, 2);

	o = op_named(&s, "ProfilerStep#7");
	ck_assert_int_eq(o->rank, 3);
	ck_assert_int_eq(o->start_ns, base);
	ck_assert_int_eq(o->self_ns, 30 * US);
	ck_assert_int_eq(o->device_self_ns, 0);
	ck_assert_int_eq(o->device_total_ns, 17 * US);
	o = op_named(&s, "aten::linear");
	ck_assert_int_eq(o->self_ns, 15 * US);
	ck_assert_int_eq(o->device_self_ns, 3 * US);
	ck_assert_int_eq(o->device_total_ns, 11 * US);
	o = op_named(&s, "aten::addmm");
	ck_assert_int_eq(o->self_ns, 30 * US);
	ck_assert_int_eq(o->device_self_ns, 8 * US);
	ck_assert_str_eq(o->in_shapes, "[[4],[2,3],[3,4]]");
	ck_assert_int_eq(op_named(&s, "aten::t")->self_ns, 5 * US);
	o = op_named(&s, "aten::relu");
	ck_assert_int_eq(o->self_ns, 0);
	ck_assert_int_eq(o->device_total_ns, 6 * US);
	o = op_named(&s, "aten::clamp_min");
	ck_assert_int_eq(o->self_ns, 20 * US);
	ck_assert_int_eq(o->device_self_ns, 6 * US);
	o = op_named(&s, "ProfilerStep#8");
	ck_assert_int_eq(o->self_ns, 39750);
	ck_assert_int_eq(o->device_total_ns, 2 * US);
	o = op_named(&s, "aten::mul");
	ck_assert_int_eq(o->start_ns, base + 110500);
	ck_assert_int_eq(o->dur_ns, 10250);
	ck_assert_int_eq(o->self_ns, 10250);
	ck_assert_int_eq(op_named(&s, "aten::empty")->self_ns, 0);
	ck_assert_int_eq(op_named(&s, "aten::overlap")->self_ns, 20 * US);
	o = op_named(&s, "aten::add");
	ck_assert_int_eq(o->self_ns, 10 * US);
	ck_assert_int_eq(o->tid, 25738); /* a quoted tid */

	ck_assert_int_eq(s.steps[0].step + s.steps[1].step, 15);
	for (size_t i = 0; i < 2; i++) {
		int64_t lo = s.steps[i].step == 7 ? 0 : 100;
		int64_t hi = s.steps[i].step == 7 ? 100 : 150;
		ck_assert_int_eq(s.steps[i].rank, 3);
		ck_assert_int_eq(s.steps[i].start_ns, base + lo * US);
		ck_assert_int_eq(s.steps[i].end_ns, base + hi * US);
	}
	k = kernel_named(&s, "gemm_kernel");
	ck_assert_int_eq(k->rank, 3);
	ck_assert_int_eq(k->kind, PROFDB_KIND_KERNEL);
	ck_assert_str_eq(k->core, "kernel");
	ck_assert_int_eq(k->start_ns, base + 30 * US);
	ck_assert_int_eq(k->dur_ns, 8 * US);
	ck_assert_int_eq(k->device, 0);
	ck_assert_int_eq(k->stream, 7);
	ck_assert_int_eq(k->correlation, 900);
	ck_assert_int_eq(k->external_id, 3);
	k = kernel_named(&s, "Memcpy HtoD (Pageable -> Device)");
	ck_assert_int_eq(k->kind, PROFDB_KIND_MEMCPY);
	ck_assert_int_eq(kernel_named(&s, "Memset (Device)")->kind, PROFDB_KIND_MEMSET);
	tu_sink_free(&s);
}
END_TEST

/*
 * testdata/flops/conv.json (its README): "Concrete Inputs" reach the op
 * record as the array's compact JSON text, strings inside as written; the
 * one conv2d without the arg (External id 13) has NULL.
 */
START_TEST(concrete_inputs)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;

	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("flops/conv.json"));
	ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_OK);
	ck_assert_str_eq(op_named(&s, "aten::conv_transpose2d")->in_concrete,
	                 "[\"\",\"\",\"\",\"[2, 2]\",\"[1, 1]\",\"[0, 0]\",\"1\",\"[1, 1]\"]");
	ck_assert_str_eq(op_named(&s, "aten::_convolution_mode")->in_concrete,
	                 "[\"\",\"\",\"\",\"[1, 1]\",\"same\",\"[1, 1]\",\"4\"]");
	for (size_t i = 0; i < s.nops; i++)
		if (s.ops[i].external_id == 13)
			ck_assert_ptr_null(s.ops[i].in_concrete);
		else
			ck_assert_ptr_nonnull(s.ops[i].in_concrete);
	tu_sink_free(&s);
}
END_TEST

/*
 * testdata/kineto/bad_events.json: a bare array (legacy / trace_view shape)
 * of 15 elements, 8 of them unusable: no name, ts "abc", negative dur, ts NaN,
 * ts 1e400 (out of range), no dur, a bare number, a member without its comma.
 */
START_TEST(bad_events)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	const struct tu_kernel *k;
	const struct tu_op *o;

	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("kineto/bad_events.json"));
	ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_OK);
	ck_assert_int_eq(s.rows_read, 15);
	ck_assert_int_eq(s.skipped, 8);
	ck_assert_uint_eq(s.nkernels, 3);
	ck_assert_uint_eq(s.nops, 3);
	ck_assert_uint_eq(s.nsteps, 1);
	ck_assert_uint_eq(s.nlaunches, 1);
	/* 2021 kernel: tid "stream 7", lower-case "external id" */
	k = kernel_named(&s, "ok_kernel");
	ck_assert_int_eq(k->stream, 7);
	ck_assert_int_eq(k->external_id, 11);
	ck_assert_int_eq(k->start_ns, 1000 * US);
	/* ROCm: numbers as strings, stream "0x1f", opaque device 2 */
	k = kernel_named(&s, "hip_kernel");
	ck_assert_int_eq(k->device, 2);
	ck_assert_int_eq(k->stream, 31);
	ck_assert_int_eq(k->correlation, 77);
	ck_assert_int_eq(k->external_id, 12);
	k = kernel_named(&s, "copy\xc3\xa9"); /* "copy\u00e9" */
	ck_assert_int_eq(k->kind, PROFDB_KIND_MEMCPY);
	/* torch_npu trace_view: string ts with ns decimals, exact; the step is a cpu_op
	 * [..584.000, +10] holding npu_op [..584.732, +1.5]: self 10 - 1.5 = 8.5 */
	o = op_named(&s, "npu_op");
	ck_assert_int_eq(o->start_ns, 1736408883674584732);
	ck_assert_int_eq(o->dur_ns, 1500);
	o = op_named(&s, "ProfilerStep#50");
	ck_assert_int_eq(o->self_ns, 8500);
	ck_assert_int_eq(s.steps[0].step, 50);
	ck_assert_int_eq(s.steps[0].start_ns, 1736408883674584000);
	/* legacy export_chrome_trace: no cat, pid "CPU functions" */
	ck_assert_int_eq(op_named(&s, "aten::mm")->dur_ns, 4 * US);
	ck_assert_int_eq(op_named(&s, "aten::mm")->tid, 3);
	tu_sink_free(&s);
}
END_TEST

/* Write the first n bytes of src to dst (n = 0: all). */
static void copy_prefix(const char *src, const char *dst, size_t n)
{
	size_t len;
	unsigned char *b = tu_read_file(src, &len);
	ck_assert_ptr_nonnull(b);
	ck_assert_int_eq(tu_write_file(dst, b, n && n < len ? n : len), 0);
	free(b);
}

static void gzip_file(const char *src, const char *dst)
{
	size_t len;
	unsigned char *b = tu_read_file(src, &len);
	gzFile g = gzopen(dst, "wb");
	ck_assert_ptr_nonnull(b);
	ck_assert_ptr_nonnull(g);
	ck_assert_int_eq(gzwrite(g, b, (unsigned)len), (int)len);
	gzclose(g);
	free(b);
}

static int read_file_rc(const char *path, struct tu_sink *s)
{
	struct profdb_reader_ctx ctx;
	tu_sink_init(s);
	ctx = tu_ctx(s, path);
	return profdb__reader_kineto.read(&ctx);
}

START_TEST(truncated_and_gzip)
{
	const char *dir = tu_tmpdir();
	char cut[512], gz[512], gzcut[512];
	struct tu_sink s;
	size_t len;
	unsigned char *b;

	/* cut inside the events: an error naming the file and the byte */
	snprintf(cut, sizeof cut, "%s/cut.json", dir);
	copy_prefix(tu_testdata("kineto/nested.json"), cut, 1500);
	ck_assert_int_eq(read_file_rc(cut, &s), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(s.err.msg, "cut.json: byte 1500: truncated JSON"));
	tu_sink_free(&s); /* records sent before the error: the store's transaction rolls back */
	/* a sink without rank_fixup: pass 1 finds it before any record */
	tu_sink_init(&s);
	s.sink.rank_fixup = NULL;
	{
		struct profdb_reader_ctx ctx = tu_ctx(&s, cut);
		ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_EFORMAT);
	}
	ck_assert_ptr_nonnull(strstr(s.err.msg, "cut.json: byte 1500: truncated JSON"));
	ck_assert_uint_eq(s.nkernels, 0);
	tu_sink_free(&s);
	/* the same file gzipped reads the same */
	snprintf(gz, sizeof gz, "%s/nested.json.gz", dir);
	gzip_file(tu_testdata("kineto/nested.json"), gz);
	ck_assert_int_eq(read_file_rc(gz, &s), PROFDB_OK);
	ck_assert_uint_eq(s.nkernels, 5);
	ck_assert_uint_eq(s.nops, 11);
	ck_assert_int_eq(op_named(&s, "ProfilerStep#8")->self_ns, 39750);
	tu_sink_free(&s);
	/* a truncated gzip stream */
	b = tu_read_file(gz, &len);
	snprintf(gzcut, sizeof gzcut, "%s/cut.json.gz", dir);
	ck_assert_int_eq(tu_write_file(gzcut, b, len / 2), 0);
	ck_assert_int_eq(read_file_rc(gzcut, &s), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(s.err.msg, "cut.json.gz: byte"));
	ck_assert_ptr_nonnull(strstr(s.err.msg, "gzip"));
	tu_sink_free(&s);
	/* corrupt gzip data */
	b[len / 2] ^= 0xff;
	b[len / 2 + 1] ^= 0x55;
	ck_assert_int_eq(tu_write_file(gzcut, b, len), 0);
	ck_assert_int_eq(read_file_rc(gzcut, &s), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(s.err.msg, "cut.json.gz: byte"));
	tu_sink_free(&s);
	free(b);
}
END_TEST

static void write_text(const char *path, const char *text)
{
	ck_assert_int_eq(tu_write_file(path, text, strlen(text)), 0);
}

START_TEST(bad_documents)
{
	const char *dir = tu_tmpdir();
	char p[512];
	struct tu_sink s;
	static const struct { const char *text, *msg; } cases[] = {
		{ "", "empty file" },
		{ "  \"traceEvents\"", "not a JSON object or array" },
		{ "{\"schemaVersion\": 1}", "no \"traceEvents\" array" },
		{ "{\"traceEvents\": {}}", "\"traceEvents\" is not an array" },
		{ "{\"traceEvents\": []} x", "data after the end" },
		{ "{\"traceEvents\": [] \"a\": 1}", "expected ',' or '}'" },
		{ "{\"traceEvents\": [{}, 1 2]}", "expected ',' or ']' after an event" },
		{ "{\"a\": 1, \"traceEvents\": [", "truncated JSON" },
		{ "[{\"name\": \"a\"}", "truncated JSON" },
	};
	snprintf(p, sizeof p, "%s/bad.json", dir);
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		write_text(p, cases[i].text);
		ck_assert_int_eq(read_file_rc(p, &s), PROFDB_EFORMAT);
		ck_assert_msg(strstr(s.err.msg, cases[i].msg) && strstr(s.err.msg, "bad.json"),
		              "case %zu: %s", i, s.err.msg);
		tu_sink_free(&s);
	}
}
END_TEST

START_TEST(deep_nesting_and_big_strings)
{
	const char *dir = tu_tmpdir();
	char p[512];
	size_t depth = 1000000, big = (size_t)64 << 20, n = 0;
	struct tu_sink s;
	static const char head[] = "{\"deep\": ";
	static const char mid[] = ", \"traceEvents\": [{\"name\": \"k\", \"ph\": \"X\", \"cat\": \"kernel\","
	                          " \"pid\": 0, \"tid\": 1, \"ts\": 1, \"dur\": 2, \"args\": {\"grid\": ";
	static const char mid2[] = "}}, {\"name\": \"";
	static const char tail[] = "\", \"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 5, \"dur\": 1}]}";
	char *t = malloc(sizeof head + sizeof mid + sizeof mid2 + sizeof tail + 4 * depth + big);
	FILE *f;

	/* a million levels in a metadata value and inside an event, then an op
	 * whose name is a 64 MB string */
	memcpy(t + n, head, sizeof head - 1), n += sizeof head - 1;
	memset(t + n, '[', depth), n += depth;
	memset(t + n, ']', depth), n += depth;
	memcpy(t + n, mid, sizeof mid - 1), n += sizeof mid - 1;
	memset(t + n, '[', depth), n += depth;
	memset(t + n, ']', depth), n += depth;
	memcpy(t + n, mid2, sizeof mid2 - 1), n += sizeof mid2 - 1;
	memset(t + n, 'x', big), n += big;
	memcpy(t + n, tail, sizeof tail - 1), n += sizeof tail - 1;
	snprintf(p, sizeof p, "%s/deep.json", dir);
	f = fopen(p, "wb");
	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(t, 1, n, f), n);
	fclose(f);
	free(t);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_uint_eq(s.nkernels, 1);
	ck_assert_int_eq(s.kernels[0].dur_ns, 2 * US);
	ck_assert_uint_eq(s.nops, 1);
	/* read whole, kept as its first 512 KiB (json_scan's string cap; the
	 * store then cuts it to 64 KiB and marks it) */
	ck_assert_uint_eq(strlen(s.ops[0].name), (size_t)512 << 10);
	ck_assert_uint_eq(s.nmeta, 1);
	tu_sink_free(&s);
}
END_TEST

START_TEST(rank_choice)
{
	const char *dir = tu_tmpdir();
	char p[512];
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	/* no distributedInfo: the number in the file name */
	snprintf(p, sizeof p, "%s/sampled_rank-5.json", dir);
	copy_prefix(tu_testdata("kineto/bad_events.json"), p, 0);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_int_eq(s.kernels[0].rank, 5);
	ck_assert_uint_eq(s.nnotes, 0);
	tu_sink_free(&s);
	snprintf(p, sizeof p, "%s/worker3.1623143089861.pt.trace.json", dir);
	copy_prefix(tu_testdata("kineto/bad_events.json"), p, 0);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_int_eq(s.ops[0].rank, 3);
	tu_sink_free(&s);
	/* nothing says: the driver's rank, with a note; alone: 0 */
	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("kineto/bad_events.json"));
	ctx.rank = 9;
	ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_OK);
	ck_assert_int_eq(s.kernels[0].rank, 9);
	ck_assert_uint_eq(s.nnotes, 1);
	tu_sink_free(&s);
	ck_assert_int_eq(read_file_rc(tu_testdata("kineto/bad_events.json"), &s), PROFDB_OK);
	ck_assert_int_eq(s.kernels[0].rank, 0);
	tu_sink_free(&s);
	/* distributedInfo wins over the name (nested.json says 3) */
	snprintf(p, sizeof p, "%s/rank_1.json", dir);
	copy_prefix(tu_testdata("kineto/nested.json"), p, 0);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_int_eq(s.kernels[0].rank, 3);
	tu_sink_free(&s);
}
END_TEST

/*
 * The reader reads most events in one pass (json_scan's pick) and leaves
 * the rest to member-by-member walks: both must give the same records.
 * By hand: k_fast and k_deep carry the same fields (k_deep's args nest 70
 * levels, past what one pass takes, and come twice: the second counts);
 * k_last's last "args" is not an object (no External id); k_badargs'
 * args lack a colon (skipped); the flow with broken args is not an event
 * we read, so it is not skipped.
 */
START_TEST(one_pass_and_general_path_agree)
{
	const char *dir = tu_tmpdir();
	char p[512], *t;
	size_t n = 0, depth = 70;
	struct tu_sink s;
	const struct tu_kernel *k;
	static const char head[] = "{\"traceEvents\": [\n"
		"{\"name\": \"k_fast\", \"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 100,"
		" \"dur\": 3.5, \"args\": {\"External id\": 21, \"correlation\": 5}},\n"
		"{\"args\": {\"External id\": 99}, \"name\": \"k_deep\", \"ph\": \"X\", \"cat\": \"kernel\","
		" \"pid\": 0, \"tid\": 7, \"ts\": 100, \"dur\": 3.5, \"args\": {\"junk\": ";
	static const char tail[] = ", \"External id\": 21, \"correlation\": 5}},\n"
		"{\"name\": \"k_last\", \"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 200,"
		" \"dur\": 1, \"args\": {\"External id\": 24}, \"args\": 5},\n"
		"{\"name\": \"k_badargs\", \"ph\": \"X\", \"cat\": \"kernel\", \"pid\": 0, \"tid\": 7, \"ts\": 300,"
		" \"dur\": 1, \"args\": {\"External id\" 23}},\n"
		"{\"name\": \"flow\", \"ph\": \"f\", \"cat\": \"ac2g\", \"id\": 1, \"args\": {\"a\" 1}}\n"
		"], \"distributedInfo\": {\"rank\": 0}, \"baseTimeNanoseconds\": 0}";

	t = malloc(sizeof head + sizeof tail + 2 * depth);
	memcpy(t + n, head, sizeof head - 1), n += sizeof head - 1;
	memset(t + n, '[', depth), n += depth;
	memset(t + n, ']', depth), n += depth;
	memcpy(t + n, tail, sizeof tail), n += sizeof tail - 1;
	snprintf(p, sizeof p, "%s/paths.json", dir);
	write_text(p, t);
	free(t);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_int_eq(s.rows_read, 5);
	ck_assert_int_eq(s.skipped, 1);
	ck_assert_str_eq(s.last_skip, "malformed args object");
	ck_assert_uint_eq(s.nkernels, 3);
	k = kernel_named(&s, "k_fast");
	ck_assert_int_eq(k->start_ns, 100 * US);
	ck_assert_int_eq(k->dur_ns, 3500);
	ck_assert_int_eq(k->external_id, 21);
	ck_assert_int_eq(k->correlation, 5);
	ck_assert_int_eq(k->stream, 7);
	k = kernel_named(&s, "k_deep");
	ck_assert_int_eq(k->start_ns, 100 * US);
	ck_assert_int_eq(k->dur_ns, 3500);
	ck_assert_int_eq(k->external_id, 21);
	ck_assert_int_eq(k->correlation, 5);
	ck_assert_int_eq(k->stream, 7);
	k = kernel_named(&s, "k_last");
	ck_assert_int_eq(k->start_ns, 200 * US);
	ck_assert_int_eq(k->external_id, PROFDB_NULL);
	tu_sink_free(&s);
}
END_TEST

/*
 * Times in µs as numbers or strings, to exact ns (FORMATS.md: ts/dur),
 * by hand: 3 decimals are exact, a 4th rounds half away from zero on the
 * ns, an exponent scales; 9223372036854775.807 µs is INT64_MAX ns and one
 * ns more is not a number in range; a time before 0 is out of range (both
 * skipped).
 */
START_TEST(times_in_every_form)
{
	static const struct { const char *ts; int64_t ns; } cases[] = {
		{ "7", 7000 }, { "\"7\"", 7000 }, { "12.", 12000 }, { "-0", 0 },
		{ "1.2345", 1235 }, { "1.2344", 1234 }, { "1.0005", 1001 }, { "00012.5", 12500 },
		{ "1661203462599447", 1661203462599447000 },
		{ "\"1736408883674584.732\"", 1736408883674584732 },
		{ "9223372036854774.807", 9223372036854774807 },
		{ "9223372036854775.807", INT64_MAX }, { "1e3", 1000000 }, { "0.0005", 1 },
		{ "\" 42 \"", 42000 },
	};
	const char *dir = tu_tmpdir();
	char p[512], t[8192];
	size_t n = 0, nc = sizeof cases / sizeof cases[0];
	struct tu_sink s;
	n += (size_t)snprintf(t + n, sizeof t - n, "[");
	for (size_t i = 0; i < nc; i++)
		n += (size_t)snprintf(t + n, sizeof t - n, "{\"name\": \"t%zu\", \"ph\": \"X\", \"cat\": \"kernel\","
		                      " \"pid\": 0, \"tid\": 1, \"ts\": %s, \"dur\": 0},\n", i, cases[i].ts);
	snprintf(t + n, sizeof t - n, "{\"name\": \"neg\", \"ph\": \"X\", \"cat\": \"kernel\", \"ts\": -0.5, \"dur\": 0},\n"
	         "{\"name\": \"over\", \"ph\": \"X\", \"cat\": \"kernel\", \"ts\": 9223372036854775.808, \"dur\": 0}]");
	snprintf(p, sizeof p, "%s/times.json", dir);
	write_text(p, t);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_uint_eq(s.nkernels, nc);
	ck_assert_int_eq(s.skipped, 2);
	ck_assert_str_eq(s.last_skip, "ts is not a number in range");
	for (size_t i = 0; i < nc; i++) {
		char name[16];
		snprintf(name, sizeof name, "t%zu", i);
		ck_assert_msg(kernel_named(&s, name)->start_ns == cases[i].ns, "ts %s", cases[i].ts);
	}
	tu_sink_free(&s);
}
END_TEST

/*
 * Ops without pid and tid are all on one thread and nest, whichever path
 * read them (the child's args nest 70 levels: the general path): outer
 * [0,10] holds inner [2,5] holds leaf [3,4], so by hand the self times
 * are 10 - 3 = 7, 3 - 1 = 2 and 1 µs.
 */
START_TEST(ops_without_pid_tid_nest)
{
	const char *dir = tu_tmpdir();
	char p[512], *t;
	size_t n = 0, depth = 70;
	struct tu_sink s;
	static const char head[] = "[{\"name\": \"outer\", \"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 0, \"dur\": 10},\n"
		"{\"name\": \"inner\", \"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 2, \"dur\": 3, \"args\": {\"x\": ";
	static const char tail[] = "}},\n{\"name\": \"leaf\", \"ph\": \"X\", \"cat\": \"cpu_op\", \"ts\": 3, \"dur\": 1}]";

	t = malloc(sizeof head + sizeof tail + 2 * depth);
	ck_assert_ptr_nonnull(t);
	memcpy(t + n, head, sizeof head - 1), n += sizeof head - 1;
	memset(t + n, '[', depth), n += depth;
	memset(t + n, ']', depth), n += depth;
	memcpy(t + n, tail, sizeof tail), n += sizeof tail - 1;
	snprintf(p, sizeof p, "%s/nopid.json", dir);
	write_text(p, t);
	free(t);
	ck_assert_int_eq(read_file_rc(p, &s), PROFDB_OK);
	ck_assert_uint_eq(s.nops, 3);
	ck_assert_int_eq(op_named(&s, "outer")->self_ns, 7 * US);
	ck_assert_int_eq(op_named(&s, "inner")->self_ns, 2 * US);
	ck_assert_int_eq(op_named(&s, "leaf")->self_ns, 1 * US);
	ck_assert_int_eq(op_named(&s, "leaf")->tid, PROFDB_NULL);
	tu_sink_free(&s);
}
END_TEST

/* ---------------------------------------------------------------- driver */

/* One integer from SQL (NULLV for NULL). */
static int64_t q1(profdb *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = NULLV;
	ck_assert_msg(sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
	              sqlite3_errmsg(db->sql));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static double qd(profdb *db, const char *sql)
{
	sqlite3_stmt *st;
	double v = -1;
	ck_assert_int_eq(sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

START_TEST(driver_nested)
{
	profdb *db = NULL;
	int64_t id = 0;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, &id, tu_testdata("kineto/nested.json"), &opts), PROFDB_OK);
	ck_assert_int_gt(id, 0);
	/* the kernel's step is the step of the CPU call that launched it:
	 * relu_kernel runs at 95 µs but was launched at 75, inside #7 */
	ck_assert_int_eq(q1(db, "SELECT step FROM kernel_v WHERE name = 'gemm_kernel'"), 7);
	ck_assert_int_eq(q1(db, "SELECT step FROM kernel_v WHERE name = 'relu_kernel'"), 7);
	ck_assert_int_eq(q1(db, "SELECT step FROM kernel_v WHERE name = 'mul_kernel'"), 8);
	/* the memcpy has no launch in the trace: the device-side span of #7
	 * [0, 102] holds its start (40) */
	ck_assert_int_eq(q1(db, "SELECT step FROM kernel_v WHERE kind = 'memcpy'"), 7);
	/* no launch and at 160 µs, after every span: outside all steps */
	ck_assert_int_eq(q1(db, "SELECT step FROM kernel_v WHERE name = 'Memset (Device)'"), NULLV);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM step"), 2);
	ck_assert_int_eq(q1(db, "SELECT repeats FROM run"), 2);
	ck_assert_int_eq(q1(db, "SELECT ranks FROM run"), 1);
	ck_assert_int_eq(q1(db, "SELECT min(rank) FROM kernel"), 3);
	/* 8 + 6 + 2 + 3 + 1 µs of device time; host self time 180 µs (above) */
	ck_assert(qd(db, "SELECT total_device_us FROM run_summary") == 20.0);
	ck_assert(qd(db, "SELECT total_cpu_us FROM run_summary") == 180.0);
	ck_assert_int_eq(q1(db, "SELECT calls FROM kernel_summary WHERE name = 'gemm_kernel'"), 1);
	ck_assert(qd(db, "SELECT total_us FROM kernel_summary WHERE name = 'relu_kernel'") == 6.0);
	ck_assert_int_eq(q1(db, "SELECT self_ns FROM op_v WHERE name = 'ProfilerStep#8'"), 39750);
	ck_assert_int_eq(q1(db, "SELECT device_self_ns FROM op_v WHERE name = 'aten::addmm'"), 8000);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'aten::mul'"), 8);
	ck_assert_int_eq(q1(db, "SELECT grid_id IS NOT NULL FROM kernel WHERE correlation = 900"), 1);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM run_meta WHERE key = 'traceName'"
	                        " AND value = '\"nested \\\"hand-made\\\" [trace]\"'"), 1);
	ck_assert_int_eq(q1(db, "SELECT rows_read FROM source_file"), 26);
	/* the device-side span of #7: ts 0, dur 102 µs, after the base of 1 s */
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM run_meta WHERE rank = 3 AND key = 'device_step_spans'"
	                        " AND value = '[[7,1000000000,1000102000]]'"), 1);
	ck_assert_int_eq(q1(db, "SELECT length(sha256) FROM source_file"), 64);
	profdb_close(db);
}
END_TEST

/*
 * HolisticTraceAnalysis triton_example.json.gz by hand (its X events, µs,
 * baseTimeNanoseconds 1727743122000000000):
 *   ProfilerStep#1 user_annotation tid 3100453 ts 2413669096090.1 dur 13336315.805
 *   thread 1670242: TorchDynamo Cache Lookup ts ..096100.149 dur 35.591;
 *     Torch-Compiled Region: 0/0 ts ..096141.794 dur 1352.964 (ends ..097494.758)
 *     holding triton_poi_fused_add_cos_sin_0 ts ..097354.058 dur 95.812 (ext 3);
 *   kernel triton_poi_fused_add_cos_sin_0 dur 1.76, ext 3, correlation 35,
 *   launched by cuLaunchKernel (cuda_driver) at ..097399.166 dur 47.768, inside step 1;
 *   cudaDeviceSynchronize (cuda_runtime) at ..097604.098 dur 16.846, after the Region.
 * So: Compiled Region self = 1352.964 - 95.812 = 1257.152 µs, device total
 * 1.76 µs; the triton op's device self 1.76 µs, its self 95.812 - 47.768 =
 * 48.044 µs (the call is its child, an op row of its own: 4 ops + 2 calls,
 * the synchronize held by no op, self 16.846 µs); the step starts at
 * 1727743122000000000 + 2413669096090100 = 1730156791096090100 ns and ends
 * 13336315805 ns later, at 1730156804432405905.
 */
START_TEST(driver_triton_by_hand)
{
	profdb *db = NULL;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, NULL, tu_corpus("HolisticTraceAnalysis/tests/data/triton_example/"
	                                                   "triton_example.json.gz"), &opts), PROFDB_OK);
	ck_assert_int_eq(q1(db, "SELECT self_ns FROM op_v WHERE name = 'Torch-Compiled Region: 0/0'"), 1257152);
	ck_assert_int_eq(q1(db, "SELECT device_total_ns FROM op_v WHERE name = 'Torch-Compiled Region: 0/0'"), 1760);
	ck_assert_int_eq(q1(db, "SELECT device_self_ns FROM op_v WHERE name = 'triton_poi_fused_add_cos_sin_0'"), 1760);
	ck_assert_int_eq(q1(db, "SELECT start_ns FROM step WHERE step = 1"), 1730156791096090100);
	ck_assert_int_eq(q1(db, "SELECT end_ns FROM step WHERE step = 1"), 1730156804432405905);
	ck_assert_int_eq(q1(db, "SELECT step FROM kernel"), 1);
	ck_assert_int_eq(q1(db, "SELECT self_ns FROM op_v WHERE name = 'triton_poi_fused_add_cos_sin_0'"), 48044);
	ck_assert_int_eq(q1(db, "SELECT self_ns FROM op_v WHERE name = 'cudaDeviceSynchronize'"), 16846);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM op"), 6);
	profdb_close(db);
}
END_TEST

/*
 * HolisticTraceAnalysis trace_compare/base/base.json.gz by hand: aten::empty
 * twice on the main thread (dur 2 inside ProfilerStep#1009, dur 0 inside
 * #1010, no children): 2 calls, self 2 µs; nccl:all_reduce twice on thread
 * 2575472 (66 and 67 µs; the aten::as_strided after each starts after it
 * ends, so no children): 2 calls, self 133 µs; no device event carries their
 * External ids (4691, 10187), so device self 0.
 */
START_TEST(driver_ops_by_hand)
{
	profdb *db = NULL;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, NULL, tu_corpus("HolisticTraceAnalysis/tests/data/trace_compare/"
	                                                   "base/base.json.gz"), &opts), PROFDB_OK);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM op_v WHERE name = 'aten::empty'"), 2);
	ck_assert_int_eq(q1(db, "SELECT sum(self_ns) FROM op_v WHERE name = 'aten::empty'"), 2000);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM op_v WHERE name = 'nccl:all_reduce'"), 2);
	ck_assert_int_eq(q1(db, "SELECT sum(self_ns) FROM op_v WHERE name = 'nccl:all_reduce'"), 133000);
	ck_assert_int_eq(q1(db, "SELECT sum(device_self_ns) FROM op_v WHERE name = 'nccl:all_reduce'"), 0);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM step"), 2);
	ck_assert_int_eq(q1(db, "SELECT min(step) FROM step"), 1009);
	ck_assert_int_eq(q1(db, "SELECT max(step) FROM step"), 1010);
	profdb_close(db);
}
END_TEST

/* One op of testdata/op_nest/ as stored: self, device self, device total, step. */
static void op_times(profdb *db, const char *name, int64_t self, int64_t dev_self, int64_t dev_total)
{
	char sql[256];
	snprintf(sql, sizeof sql, "SELECT self_ns FROM op_v WHERE name = '%s'", name);
	ck_assert_msg(q1(db, sql) == self * US, "%s self %lld", name, (long long)q1(db, sql));
	snprintf(sql, sizeof sql, "SELECT device_self_ns FROM op_v WHERE name = '%s'", name);
	ck_assert_msg(q1(db, sql) == dev_self * US, "%s device self %lld", name, (long long)q1(db, sql));
	snprintf(sql, sizeof sql, "SELECT device_total_ns FROM op_v WHERE name = '%s'", name);
	ck_assert_msg(q1(db, sql) == dev_total * US, "%s device total %lld", name, (long long)q1(db, sql));
	snprintf(sql, sizeof sql, "SELECT step FROM op_v WHERE name = '%s'", name);
	ck_assert_int_eq(q1(db, sql), 1);
}

/* testdata/op_nest/README.md: every value worked out there by hand. */
static profdb *ingest_op_nest(const char *file)
{
	profdb *db = NULL;
	int64_t id = 0;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, &id, tu_testdata(file), &opts), PROFDB_OK);
	op_times(db, "ProfilerStep#1", 570, 0, 80);
	op_times(db, "aten::linear", 0, 0, 70);
	op_times(db, "aten::addmm", 200, 50, 70);
	op_times(db, "aten::empty", 0, 0, 0);
	op_times(db, "aten::copy_", 100, 20, 20);
	op_times(db, "aten::early", 30, 0, 0);
	op_times(db, "aten::relu", 100, 10, 10);
	op_times(db, "autograd::bw", 450, 0, 30);
	op_times(db, "aten::mul", 50, 30, 30);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM op"), 9);
	return db;
}

/* Ops in start order are nested as they arrive, held to the file's end and
 * stored once by thread and start (lib/store/op_rows.h): a parent's row
 * comes before its child's; of two with one span (aten::linear around
 * aten::addmm) the one that closed first, the inner, comes first. */
START_TEST(driver_ops_nested_as_they_arrive)
{
	profdb *db = ingest_op_nest("op_nest/sorted.json");
	ck_assert_int_gt(q1(db, "SELECT id FROM op_v WHERE name = 'aten::empty'"),
	                 q1(db, "SELECT id FROM op_v WHERE name = 'aten::addmm'"));
	ck_assert_int_lt(q1(db, "SELECT id FROM op_v WHERE name = 'aten::addmm'"),
	                 q1(db, "SELECT id FROM op_v WHERE name = 'aten::linear'"));
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM run_note WHERE note LIKE '%not in start order%'"), 0);
	profdb_close(db);
}
END_TEST

/* Out of start order (aten::early after aten::relu): the same values
 * (the equal-span aten::linear / aten::addmm, stored before the file was
 * found out of order, keep file order), and a note names the file. */
START_TEST(driver_ops_out_of_order)
{
	profdb *db = ingest_op_nest("op_nest/unsorted.json");
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM run_note WHERE note LIKE 'host ops of %unsorted.json"
	                        " are not in start order per thread: nested after the file by sorting them'"), 1);
	profdb_close(db);
}
END_TEST

/* testdata/op_nest/README.md (steps.json): a step guessed when an op
 * closes is checked once the file's steps are in. */
START_TEST(driver_op_steps_checked)
{
	profdb *db = NULL;
	int64_t id = 0;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, &id, tu_testdata("op_nest/steps.json"), &opts), PROFDB_OK);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'op_a'"), 2);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'op_b'"), 2);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'op_c'"), 5);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'op_d'"), NULLV);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'ProfilerStep#5'"), 2);
	ck_assert_int_eq(q1(db, "SELECT step FROM op_v WHERE name = 'ProfilerStep#2'"), 2);
	profdb_close(db);
}
END_TEST

/* The same files through the reader's own nesting (kineto_ops.c). */
START_TEST(op_nest_memory_sink)
{
	static const char *const files[] = { "op_nest/sorted.json", "op_nest/unsorted.json" };
	for (size_t f = 0; f < 2; f++) {
		struct tu_sink s;
		struct profdb_reader_ctx ctx;
		tu_sink_init(&s);
		ctx = tu_ctx(&s, tu_testdata(files[f]));
		ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_OK);
		ck_assert_int_eq(op_named(&s, "aten::linear")->self_ns, 0);
		ck_assert_int_eq(op_named(&s, "aten::linear")->device_total_ns, 70 * US);
		ck_assert_int_eq(op_named(&s, "aten::addmm")->self_ns, 200 * US);
		ck_assert_int_eq(op_named(&s, "aten::addmm")->device_self_ns, 50 * US);
		ck_assert_int_eq(op_named(&s, "ProfilerStep#1")->self_ns, 570 * US);
		ck_assert_int_eq(op_named(&s, "ProfilerStep#1")->device_total_ns, 80 * US);
		ck_assert_int_eq(op_named(&s, "autograd::bw")->self_ns, 450 * US);
		ck_assert_int_eq(op_named(&s, "autograd::bw")->device_total_ns, 30 * US);
		tu_sink_free(&s);
	}
}
END_TEST

/* The reader's own nesting (sinks without nests_ops) links the same file
 * the same way as the store (driver_corr_ext; kineto_link/README.md). */
START_TEST(corr_ext_memory_sink)
{
	struct tu_sink s;
	struct profdb_reader_ctx ctx;
	tu_sink_init(&s);
	ctx = tu_ctx(&s, tu_testdata("kineto_link/corr_ext.json"));
	ck_assert_int_eq(profdb__reader_kineto.read(&ctx), PROFDB_OK);
	ck_assert_int_eq(op_named(&s, "aten::conv2d")->device_self_ns, 0);
	ck_assert_int_eq(op_named(&s, "aten::conv2d")->device_total_ns, 20 * US);
	ck_assert_int_eq(op_named(&s, "aten::cudnn_convolution")->device_self_ns, 20 * US);
	ck_assert_int_eq(op_named(&s, "## inner ##")->device_self_ns, 0);
	ck_assert_int_eq(op_named(&s, "## inner ##")->device_total_ns, 0);
	ck_assert_int_eq(op_named(&s, "aten::transpose")->device_self_ns, 0);
	ck_assert_int_eq(op_named(&s, "aten::transpose")->device_total_ns, 0);
	ck_assert_int_eq(op_named(&s, "aten::addmm")->device_self_ns, 10 * US);
	ck_assert_int_eq(op_named(&s, "aten::addmm")->device_total_ns, 10 * US);
	ck_assert_int_eq(op_named(&s, "aten::add")->device_self_ns, 3 * US);
	tu_sink_free(&s);
}
END_TEST

/* testdata/kineto_link/README.md: External ids that are correlation ids,
 * linked through the launches; every value worked out there by hand. */
START_TEST(driver_corr_ext)
{
	profdb *db = NULL;
	int64_t id = 0;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, &id, tu_testdata("kineto_link/corr_ext.json"), &opts), PROFDB_OK);
	ck_assert_int_eq(q1(db, "SELECT device_self_ns FROM op_v WHERE name = 'aten::conv2d'"), 0);
	ck_assert_int_eq(q1(db, "SELECT device_total_ns FROM op_v WHERE name = 'aten::conv2d'"), 20 * US);
	ck_assert_int_eq(q1(db, "SELECT device_self_ns FROM op_v WHERE name = 'aten::cudnn_convolution'"), 20 * US);
	ck_assert_int_eq(q1(db, "SELECT device_total_ns FROM op_v WHERE name = '## inner ##'"), 0);
	ck_assert_int_eq(q1(db, "SELECT device_total_ns FROM op_v WHERE name = 'aten::transpose'"), 0);
	ck_assert_int_eq(q1(db, "SELECT device_self_ns FROM op_v WHERE name = 'aten::addmm'"), 10 * US);
	ck_assert_int_eq(q1(db, "SELECT device_total_ns FROM op_v WHERE name = 'aten::addmm'"), 10 * US);
	ck_assert_int_eq(q1(db, "SELECT device_self_ns FROM op_v WHERE name = 'aten::add'"), 3 * US);
	ck_assert_int_eq(q1(db, "SELECT external_id FROM kernel_v WHERE name = 'conv_kernel'"), 2);
	ck_assert_int_eq(q1(db, "SELECT external_id FROM kernel_v WHERE name = 'gemm_kernel'"), 4);
	ck_assert_int_eq(q1(db, "SELECT external_id FROM kernel_v WHERE kind = 'memset'"), 4);
	ck_assert_int_eq(q1(db, "SELECT external_id FROM kernel_v WHERE name = 'add_kernel'"), 5);
	ck_assert_int_eq(q1(db, "SELECT external_id FROM kernel_v WHERE name = 'orphan_kernel'"), NULLV);
	/* nothing lost: the raw value was the correlation id, still there */
	ck_assert_int_eq(q1(db, "SELECT correlation FROM kernel_v WHERE name = 'orphan_kernel'"), 9);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM run_note WHERE note LIKE '%correlation ids, not op ids%'"), 1);
	profdb_close(db);
}
END_TEST

/* A current trace (External ids are op ids) keeps its links and has no note. */
START_TEST(driver_real_ext_kept)
{
	profdb *db = NULL;
	int64_t id = 0;
	struct profdb_ingest_opts opts = PROFDB_INGEST_OPTS_INIT;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	ck_assert_int_eq(profdb_ingest(db, &id, tu_testdata("kineto/nested.json"), &opts), PROFDB_OK);
	ck_assert_int_eq(q1(db, "SELECT external_id FROM kernel_v WHERE name = 'gemm_kernel'"), 3);
	ck_assert_int_eq(q1(db, "SELECT count(*) FROM run_note WHERE note LIKE '%correlation ids%'"), 0);
	profdb_close(db);
}
END_TEST

/* The communication rule (kind.c, doc/definitions.md "Communication"), by hand. */
START_TEST(comm_kind_by_name)
{
	static const char *const comm[] = {
		"ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)",
		"ncclDevKernel_AllGather_RING_LL(ncclDevKernelArgsStorage<4096ul>)",
		"void ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t(ncclWorkElem)",
		"rcclGenericKernel", "mscclKernel_Sum_float_LL", "hcom_allReduce__868_0_1", "NCCL_x",
	};
	static const char *const not_comm[] = {
		"volta_sgemm_64x64_tn", "void at::native::kernel<ncclX>", "hcomm_x", "nccx", "", "void ",
	};
	for (size_t i = 0; i < sizeof comm / sizeof comm[0]; i++) {
		ck_assert_msg(profdb__kind_is_comm_name(comm[i]), "%s", comm[i]);
		ck_assert_int_eq(profdb__kind_of_device(PROFDB_KIND_KERNEL, comm[i]), PROFDB_KIND_COMM);
	}
	for (size_t i = 0; i < sizeof not_comm / sizeof not_comm[0]; i++)
		ck_assert_msg(!profdb__kind_is_comm_name(not_comm[i]), "%s", not_comm[i]);
	ck_assert(!profdb__kind_is_comm_name(NULL));
	/* a memcpy stays a memcpy whatever its name */
	ck_assert_int_eq(profdb__kind_of_device(PROFDB_KIND_MEMCPY, "ncclMemcpy"), PROFDB_KIND_MEMCPY);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("ingest_kineto");
	TCase *tc = tcase_create("reader");
	SRunner *sr;
	int failed;
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, nested_trace);
	tcase_add_test(tc, concrete_inputs);
	tcase_add_test(tc, bad_events);
	tcase_add_test(tc, truncated_and_gzip);
	tcase_add_test(tc, bad_documents);
	tcase_add_test(tc, deep_nesting_and_big_strings);
	tcase_add_test(tc, rank_choice);
	tcase_add_test(tc, one_pass_and_general_path_agree);
	tcase_add_test(tc, ops_without_pid_tid_nest);
	tcase_add_test(tc, times_in_every_form);
	tcase_add_test(tc, comm_kind_by_name);
	tcase_add_test(tc, corr_ext_memory_sink);
	suite_add_tcase(s, tc);
	tc = tcase_create("driver");
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, driver_nested);
	tcase_add_test(tc, driver_triton_by_hand);
	tcase_add_test(tc, driver_ops_by_hand);
	tcase_add_test(tc, driver_corr_ext);
	tcase_add_test(tc, driver_real_ext_kept);
	tcase_add_test(tc, driver_ops_nested_as_they_arrive);
	tcase_add_test(tc, driver_ops_out_of_order);
	tcase_add_test(tc, op_nest_memory_sink);
	tcase_add_test(tc, driver_op_steps_checked);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

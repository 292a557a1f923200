/*
 * parse_only.c - run one of profdb's readers over a file with a sink that
 * only counts, so bench/run can print how close the full ingest (parse +
 * store) comes to the parse limit.
 *
 * usage: parse_only kineto|kernel_details FILE
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"

static int64_t nkernels, nops, nother;

static int count_kernel(void *a, const struct profdb_kernel_rec *k) { (void)a; (void)k; nkernels++; return 0; }
static int count_op(void *a, const struct profdb_op_rec *o) { (void)a; (void)o; nops++; return 0; }
static int count_launch(void *a, const struct profdb_launch_rec *l) { (void)a; (void)l; nother++; return 0; }
static int count_step(void *a, const struct profdb_step_rec *s) { (void)a; (void)s; return 0; }
static int ok_begin(void *a, const char *p, const char *r, int64_t rank, const unsigned char *c, size_t n)
{ (void)a; (void)p; (void)r; (void)rank; (void)c; (void)n; return 0; }
static int ok_end(void *a, int64_t rows, const char *sha, uint64_t size)
{ (void)a; (void)rows; (void)sha; (void)size; return 0; }
static int ok_skip(void *a, const char *r, int64_t w) { (void)a; (void)r; (void)w; return 0; }
static int ok_metric(void *a, int64_t r, int64_t s, const char *m, double v)
{ (void)a; (void)r; (void)s; (void)m; (void)v; return 0; }
static int ok_meta(void *a, int64_t r, const char *k, const char *v) { (void)a; (void)r; (void)k; (void)v; return 0; }
static int ok_note(void *a, const char *n) { (void)a; (void)n; return 0; }
/* as the store: the reader then reads a file once, as the real ingest does */
static int ok_fixup(void *a, int64_t p, int64_t r, int64_t o) { (void)a; (void)p; (void)r; (void)o; return 0; }

int main(int argc, char **argv)
{
	struct profdb_err err = { 0 };
	struct profdb_sink sink = {
		.arg = NULL, .err = &err, .source_begin = ok_begin, .source_end = ok_end, .skip = ok_skip,
		.kernel = count_kernel, .op = count_op, .launch = count_launch, .step = count_step,
		.step_metric = ok_metric, .meta = ok_meta, .note = ok_note, .rank_fixup = ok_fixup,
		/* as the store: host ops go out as they are read and the store
		 * nests them, so the reader keeps none (kineto_ops.c is for tests) */
		.nests_ops = 1,
	};
	/* the built-in limits, as a database opened without profdb_set_limits has */
	static const struct profdb_limits limits = PROFDB_LIMITS_INIT;
	struct profdb_reader_ctx ctx = { .rank = PROFDB_NULL, .sink = &sink, .err = &err, .limits = &limits };
	int rc;
	if (argc != 3) {
		fprintf(stderr, "usage: parse_only kineto|kernel_details FILE\n");
		return 2;
	}
	ctx.path = argv[2];
	rc = strcmp(argv[1], "kineto") == 0 ? profdb__read_kineto(&ctx) : profdb__read_kernel_details(&ctx);
	if (rc != PROFDB_OK) {
		fprintf(stderr, "parse_only: %s\n", err.msg);
		return 1;
	}
	printf("kernels=%lld ops=%lld launches=%lld\n", (long long)nkernels, (long long)nops, (long long)nother);
	return 0;
}

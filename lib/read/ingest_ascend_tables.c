/*
 * ingest_ascend_tables.c - the other tables of ASCEND_PROFILER_OUTPUT:
 * operator_details.csv (host ops, FORMATS.md 3), step_trace_time.csv (the
 * profiler's own per-step breakdown, 4) and op_statistic.csv (kept whole
 * for verify).  Columns are found by header name, as for kernel_details.
 */
#include <stdlib.h>
#include <string.h>

#include "ascend_csv.h"
#include "csv_reader.h"
#include "banned.h"

static int skip(const struct profdb__ascend_src *src, const char *reason, int64_t line)
{
	struct profdb_sink *s = src->ctx->sink;
	return profdb__sink_skip(s, reason, line);
}

static int header_checks(const struct profdb__ascend_src *src, const struct profdb__csv_row *row,
                         struct profdb__csv_header *hdr, const char *label, const char *what)
{
	struct profdb_err *err = src->ctx->err;
	const char *dup;
	char ex[128];
	int rc;
	if ((rc = profdb__ascend_refuse_cambricon(row->field, row->n, label, what, err)) != PROFDB_OK)
		return rc;
	if ((rc = profdb__csv_header_copy(hdr, row, err)) != PROFDB_OK)
		return rc;
	dup = profdb__csv_header_dup(hdr);
	if (dup) {
		profdb__csv_excerpt(dup, 60, ex, sizeof ex);
		return profdb__err_set(err, PROFDB_EFORMAT, "%s:%lld: column '%s' appears twice", label,
		                       (long long)row->line, ex);
	}
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- operator_details */

enum ocol {
	O_NAME, O_SHAPES, O_STACK, O_HOST_SELF, O_HOST_TOTAL, O_DEV_SELF, O_DEV_TOTAL,
	O_DEV_SELF_AIC, O_DEV_TOTAL_AIC, O_NCOL
};

static const char *const ocol_names[O_NCOL] = {
	[O_NAME] = "Name",
	[O_SHAPES] = "Input Shapes",
	[O_STACK] = "Call Stack",
	[O_HOST_SELF] = "Host Self Duration(us)",
	[O_HOST_TOTAL] = "Host Total Duration(us)",
	[O_DEV_SELF] = "Device Self Duration(us)",
	[O_DEV_TOTAL] = "Device Total Duration(us)",
	[O_DEV_SELF_AIC] = "Device Self Duration With AICore(us)",
	[O_DEV_TOTAL_AIC] = "Device Total Duration With AICore(us)",
};

struct oreader {
	const struct profdb__ascend_src *src;
	const char *label;
	struct profdb__csv_header hdr;
	int col[O_NCOL];           /* column index, -1 when absent */
	size_t need;               /* fields a row needs: past the required columns */
};

static char *ofld(const struct oreader *r, const struct profdb__csv_row *row, enum ocol k)
{
	int c = r->col[k];
	return c >= 0 && (size_t)c < row->n ? row->field[c] : NULL;
}

static int64_t us_or_null(const char *s)
{
	int64_t v;
	if (!s || profdb__parse_ns(s, strlen(s), 3, &v) != 0)
		return PROFDB_NULL;
	return v;
}

static const char *text_or_null(const char *s)
{
	return !s || !s[0] || strcmp(s, "N/A") == 0 ? NULL : s;
}

static int op_header(struct oreader *r, const struct profdb__csv_row *row)
{
	static const enum ocol required[] = { O_NAME, O_HOST_SELF };
	int rc = header_checks(r->src, row, &r->hdr, r->label, "operator_details.csv");
	if (rc != PROFDB_OK)
		return rc;
	for (int k = 0; k < O_NCOL; k++)
		r->col[k] = profdb__csv_header_find(&r->hdr, ocol_names[k]);
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		int c = r->col[required[i]];
		if (c < 0)
			return profdb__err_set(r->src->ctx->err, PROFDB_EFORMAT, "%s:%lld: missing column '%s'",
			                       r->label, (long long)row->line, ocol_names[required[i]]);
		if ((size_t)c + 1 > r->need)
			r->need = (size_t)c + 1;
	}
	return PROFDB_OK;
}

static int op_row(struct oreader *r, const struct profdb__csv_row *row)
{
	struct profdb_sink *s = r->src->ctx->sink;
	struct profdb_op_rec o;
	const char *p;

	if (row->n < r->need)
		return skip(r->src, "too few fields", row->line);
	for (size_t i = r->hdr.n; i < row->n; i++)
		if (row->len[i])
			return skip(r->src, "too many fields", row->line);
	profdb__op_rec_init(&o);
	o.name = ofld(r, row, O_NAME);
	if (!o.name || !o.name[0])
		return skip(r->src, "missing name", row->line);
	/* torch_npu leaves the step spans out; an older or edited file may not */
	if (strncmp(o.name, "ProfilerStep#", 13) == 0)
		return skip(r->src, "profiler step row", row->line);
	p = ofld(r, row, O_HOST_SELF);
	if (profdb__parse_ns(p, strlen(p), 3, &o.self_ns) != 0)
		return skip(r->src, "non-numeric host self duration", row->line);
	o.rank = r->src->rank;
	o.dur_ns = us_or_null(ofld(r, row, O_HOST_TOTAL));
	o.device_self_ns = us_or_null(ofld(r, row, O_DEV_SELF));
	o.device_total_ns = us_or_null(ofld(r, row, O_DEV_TOTAL));
	o.device_self_aicore_ns = us_or_null(ofld(r, row, O_DEV_SELF_AIC));
	o.device_total_aicore_ns = us_or_null(ofld(r, row, O_DEV_TOTAL_AIC));
	o.in_shapes = text_or_null(ofld(r, row, O_SHAPES));
	o.call_stack = text_or_null(ofld(r, row, O_STACK));
	return profdb__sink_op(s, &o);
}

static int on_op_row(void *arg, const struct profdb__csv_row *row)
{
	struct oreader *r = arg;
	return row->index == 0 ? op_header(r, row) : op_row(r, row);
}

int profdb__ascend_read_operators(const struct profdb__ascend_src *src, const char *path)
{
	struct oreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.src = src;
	r.label = path;
	rc = profdb__ascend_stream_csv(src, path, "operator_details", on_op_row, &r);
	profdb__csv_header_free(&r.hdr);
	return rc;
}

/* ---------------------------------------------------------------- step_trace_time */

struct sreader {
	const struct profdb__ascend_src *src;
	const char *label;
	struct profdb__csv_header hdr;
	int step_col;              /* "Step" */
	int device_col;            /* "Device_id" (2025-06+), -1 if absent */
};

static int step_header(struct sreader *r, const struct profdb__csv_row *row)
{
	int rc = header_checks(r->src, row, &r->hdr, r->label, "step_trace_time.csv");
	if (rc != PROFDB_OK)
		return rc;
	r->step_col = profdb__csv_header_find(&r->hdr, "Step");
	r->device_col = profdb__csv_header_find(&r->hdr, "Device_id");
	if (r->step_col < 0)
		return profdb__err_set(r->src->ctx->err, PROFDB_EFORMAT, "%s:%lld: missing column 'Step'",
		                       r->label, (long long)row->line);
	return PROFDB_OK;
}

static int step_row(struct sreader *r, const struct profdb__csv_row *row)
{
	struct profdb_sink *s = r->src->ctx->sink;
	int64_t step = PROFDB_NULL;
	size_t end = row->n < r->hdr.n ? row->n : r->hdr.n;
	int rc;

	/* an empty Step (no schedule) keeps the metrics with a NULL step */
	if ((size_t)r->step_col < row->n && row->len[r->step_col] &&
	    profdb__parse_i64(row->field[r->step_col], row->len[r->step_col], &step) != 0)
		step = PROFDB_NULL;
	for (size_t i = 0; i < end; i++) {
		double v;
		if ((int)i == r->step_col || (int)i == r->device_col ||
		    profdb__parse_double(row->field[i], row->len[i], &v) != 0)
			continue;
		if ((rc = profdb__sink_step_metric(s, r->src->rank, step, r->hdr.name[i], v)) != PROFDB_OK)
			return rc;
	}
	if (step != PROFDB_NULL) {
		struct profdb_step_rec sr = { r->src->rank, step, PROFDB_NULL, PROFDB_NULL };
		return profdb__sink_step(s, &sr);
	}
	return PROFDB_OK;
}

static int on_step_row(void *arg, const struct profdb__csv_row *row)
{
	struct sreader *r = arg;
	return row->index == 0 ? step_header(r, row) : step_row(r, row);
}

int profdb__ascend_read_step_trace(const struct profdb__ascend_src *src, const char *path)
{
	struct sreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.src = src;
	r.label = path;
	rc = profdb__ascend_small_csv(src, path, "step_trace_time", on_step_row, &r);
	profdb__csv_header_free(&r.hdr);
	return rc;
}

/* ---------------------------------------------------------------- op_statistic */

/* op_statistic is the profiler's own per-op-type aggregate: nothing to
 * store row by row, but its bytes are kept so verify can compare it with
 * the stored kernels, and it must still be valid CSV. */
struct streader {
	const struct profdb__ascend_src *src;
	const char *label;
};

static int on_stat_row(void *arg, const struct profdb__csv_row *row)
{
	const struct streader *r = arg;
	if (row->index == 0)
		return profdb__ascend_refuse_cambricon(row->field, row->n, r->label, "op_statistic.csv",
		                               r->src->ctx->err);
	return PROFDB_OK;
}

int profdb__ascend_read_op_statistic(const struct profdb__ascend_src *src, const char *path)
{
	struct streader r = { src, path };
	return profdb__ascend_small_csv(src, path, "op_statistic", on_stat_row, &r);
}

/* ---------------------------------------------------------------- small files */

int profdb__ascend_small_csv(const struct profdb__ascend_src *src, const char *path, const char *role,
                     profdb__csv_row_fn fn, void *arg)
{
	const struct profdb_reader_ctx *ctx = src->ctx;
	struct profdb_sink *s = ctx->sink;
	unsigned char *buf = NULL;
	size_t len = 0;
	uint64_t size = 0;
	int64_t rows = 0;
	char sha[65];
	int rc;

	rc = profdb__ascend_slurp(path, ASCEND_CONTENT_MAX, ctx->limits->gzip_max_bytes, &buf, &len, sha, &size, ctx->err);
	if (rc == 1) /* too big to keep: read it like any other */
		return profdb__ascend_stream_csv(src, path, role, fn, arg);
	if (rc != PROFDB_OK)
		return rc;
	if ((rc = profdb__sink_source_begin(s, path, role, src->rank, buf, len)) != PROFDB_OK)
		goto out;
	if ((rc = profdb__csv_read_mem(buf, len, path, fn, arg, &rows, ctx->err)) != PROFDB_OK)
		goto out;
	if (rows == 0) {
		rc = profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: empty file", path);
		goto out;
	}
	rc = profdb__sink_source_end(s, rows - 1, sha, size);
out:
	free(buf);
	return rc;
}

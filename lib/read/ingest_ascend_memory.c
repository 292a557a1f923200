/*
 * ingest_ascend_memory.c - memory_record.csv of ASCEND_PROFILER_OUTPUT
 * (FORMATS.md "memory_record.csv"): the allocator's totals sampled per
 * component (APP: the whole process, reserved only; PTA: torch_npu's
 * caching allocator; GE: the graph engine; PTA+GE: their sum), one row a
 * sample, into the memory table (schema 012) with no per-event bytes.
 *
 * The export's MB are 2^20 bytes: torch_npu divides by 1024 * 1024, and
 * every value seen times 2^20 is a whole number of bytes.  Columns are found
 * by header name; Total Active(MB) and Stream Ptr are newer.
 *
 * operator_memory.csv, where profile_memory=True: one row per block an
 * operator allocated (Name, Size(KB) of 1024 bytes, Allocation and Release
 * Time(us), the totals at both), into the op_memory table (schema 014).
 * An empty Release Time: not released within the trace.  The Active and
 * Stream Ptr columns are newer; Duration(us) is Release - Allocation and is
 * not kept.
 *
 * npu_module_mem.csv: what each CANN module (SLOG, HCCL, RUNTIME, ...)
 * holds reserved on the device, sampled; into the memory table as samples
 * of reserved bytes only, component "module:<Component>" (module names
 * such as GE and APP are also memory_record.csv components, which they
 * must not merge with).  Total Reserved is in KB (1024 bytes) as msprof
 * writes it, or MB where written so.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascend_csv.h"
#include "csv_reader.h"
#include "banned.h"

enum mcol { M_COMPONENT, M_TS, M_ALLOC, M_RES, M_ACTIVE, M_DEVICE, M_NCOL };

static const char *const mcol_names[M_NCOL] = {
	[M_COMPONENT] = "Component",
	[M_TS] = "Timestamp(us)",
	[M_ALLOC] = "Total Allocated(MB)",
	[M_RES] = "Total Reserved(MB)",
	[M_ACTIVE] = "Total Active(MB)",
	[M_DEVICE] = "Device Type",
};

struct mreader {
	const struct profdb__ascend_src *src;
	const char *label;
	struct profdb__csv_header hdr;
	int col[M_NCOL];           /* column index, -1 when absent */
	size_t need;               /* fields a row needs: past the required columns */
};

static const char *mfld(const struct mreader *r, const struct profdb__csv_row *row, enum mcol k)
{
	int c = r->col[k];
	return c >= 0 && (size_t)c < row->n ? row->field[c] : NULL;
}

static int mem_header(struct mreader *r, const struct profdb__csv_row *row)
{
	static const enum mcol required[] = { M_COMPONENT, M_TS, M_DEVICE };
	int rc = profdb__csv_header_copy(&r->hdr, row, r->src->ctx->err);
	if (rc != PROFDB_OK)
		return rc;
	for (int k = 0; k < M_NCOL; k++)
		r->col[k] = profdb__csv_header_find(&r->hdr, mcol_names[k]);
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		int c = r->col[required[i]];
		if (c < 0)
			return profdb__err_set(r->src->ctx->err, PROFDB_EFORMAT, "%s:%lld: missing column '%s'",
			                       r->label, (long long)row->line, mcol_names[required[i]]);
		if ((size_t)c + 1 > r->need)
			r->need = (size_t)c + 1;
	}
	return PROFDB_OK;
}

/* MB (2^20 bytes) text to bytes: PROFDB_NULL when empty; -1 when not a
 * number (the row is skipped). */
static int mb_bytes(const char *s, int64_t *out)
{
	double v;
	*out = PROFDB_NULL;
	if (!s || !s[0] || strcmp(s, "N/A") == 0)
		return 0;
	if (profdb__parse_double(s, strlen(s), &v) != 0 || v < 0 || v * 1048576.0 > 9.0e18)
		return -1;
	*out = llround(v * 1048576.0);
	return 0;
}

/* "NPU:0" into type "NPU" (in buf) and id 0; a type without ":N" has no id. */
static const char *device_of(const char *s, char *buf, size_t size, int64_t *id)
{
	const char *colon = strrchr(s, ':');
	size_t n = colon ? (size_t)(colon - s) : strlen(s);
	*id = PROFDB_NULL;
	if (colon && profdb__parse_i64(colon + 1, strlen(colon + 1), id) != 0) {
		*id = PROFDB_NULL;
		n = strlen(s);
	}
	if (n >= size)
		n = size - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return buf;
}

static int mem_row(struct mreader *r, const struct profdb__csv_row *row)
{
	struct profdb_sink *s = r->src->ctx->sink;
	struct profdb_mem_rec m;
	const char *ts = mfld(r, row, M_TS), *dev = mfld(r, row, M_DEVICE);
	char type[64];

	if (row->n < r->need)
		return profdb__sink_skip(s, "too few fields", row->line);
	m = (struct profdb_mem_rec){
		.rank = r->src->rank, .component = mfld(r, row, M_COMPONENT), .bytes = PROFDB_NULL,
		.addr = PROFDB_NULL, .step = PROFDB_NULL, .tid = PROFDB_NULL,
	};
	if (profdb__parse_ns(ts, strlen(ts), 3, &m.ts_ns) != 0 || m.ts_ns < 0)
		return profdb__sink_skip(s, "non-numeric timestamp", row->line);
	if (!dev[0])
		return profdb__sink_skip(s, "missing device type", row->line);
	if (mb_bytes(mfld(r, row, M_ALLOC), &m.total_allocated) != 0 ||
	    mb_bytes(mfld(r, row, M_RES), &m.total_reserved) != 0 ||
	    mb_bytes(mfld(r, row, M_ACTIVE), &m.total_active) != 0)
		return profdb__sink_skip(s, "non-numeric memory size", row->line);
	if (!m.component[0])
		m.component = NULL;
	m.device_type = device_of(dev, type, sizeof type, &m.device_id);
	return profdb__sink_memory(s, &m);
}

static int on_mem_row(void *arg, const struct profdb__csv_row *row)
{
	struct mreader *r = arg;
	return row->index == 0 ? mem_header(r, row) : mem_row(r, row);
}

int profdb__ascend_read_memory_record(const struct profdb__ascend_src *src, const char *path)
{
	struct mreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.src = src;
	r.label = path;
	rc = profdb__ascend_stream_csv(src, path, "memory_record", on_mem_row, &r);
	profdb__csv_header_free(&r.hdr);
	return rc;
}

/* ------------------------------------------------- operator_memory.csv */

enum ocol { O_NAME, O_SIZE, O_ALLOC_T, O_REL_T, O_ACT_REL_T, O_A_ALLOC, O_A_RES, O_A_ACT, O_R_ALLOC,
            O_R_RES, O_R_ACT, O_STREAM, O_DEVICE, O_NCOL };

static const char *const ocol_names[O_NCOL] = {
	[O_NAME] = "Name",
	[O_SIZE] = "Size(KB)",
	[O_ALLOC_T] = "Allocation Time(us)",
	[O_REL_T] = "Release Time(us)",
	[O_ACT_REL_T] = "Active Release Time(us)",
	[O_A_ALLOC] = "Allocation Total Allocated(MB)",
	[O_A_RES] = "Allocation Total Reserved(MB)",
	[O_A_ACT] = "Allocation Total Active(MB)",
	[O_R_ALLOC] = "Release Total Allocated(MB)",
	[O_R_RES] = "Release Total Reserved(MB)",
	[O_R_ACT] = "Release Total Active(MB)",
	[O_STREAM] = "Stream Ptr",
	[O_DEVICE] = "Device Type",
};

struct oreader {
	const struct profdb__ascend_src *src;
	const char *label;
	struct profdb__csv_header hdr;
	int col[O_NCOL];
	size_t need;
};

static const char *ofld(const struct oreader *r, const struct profdb__csv_row *row, enum ocol k)
{
	int c = r->col[k];
	return c >= 0 && (size_t)c < row->n ? row->field[c] : NULL;
}

static int opmem_header(struct oreader *r, const struct profdb__csv_row *row)
{
	static const enum ocol required[] = { O_NAME, O_SIZE, O_ALLOC_T, O_DEVICE };
	int rc = profdb__csv_header_copy(&r->hdr, row, r->src->ctx->err);
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

/* A time in us to ns: PROFDB_NULL when empty or N/A; -1 when not a time. */
static int us_ns(const char *s, int64_t *out)
{
	*out = PROFDB_NULL;
	if (!s || !s[0] || strcmp(s, "N/A") == 0)
		return 0;
	return profdb__parse_ns(s, strlen(s), 3, out) != 0 || *out < 0 ? -1 : 0;
}

/* Size(KB) to bytes (1 KB = 1024 bytes; a negative size is kept). */
static int kb_bytes(const char *s, int64_t *out)
{
	double v;
	if (!s || !s[0] || profdb__parse_double(s, strlen(s), &v) != 0 || fabs(v) * 1024.0 > 9.0e18)
		return -1;
	*out = llround(v * 1024.0);
	return 0;
}

static int opmem_row(struct oreader *r, const struct profdb__csv_row *row)
{
	struct profdb_sink *s = r->src->ctx->sink;
	struct profdb_opmem_rec m;
	const char *dev = ofld(r, row, O_DEVICE), *stream;
	char type[64];
	int bad = 0;

	if (row->n < r->need)
		return profdb__sink_skip(s, "too few fields", row->line);
	memset(&m, 0, sizeof m);
	m.rank = r->src->rank;
	m.name = ofld(r, row, O_NAME);
	m.step = m.stream_ptr = PROFDB_NULL;
	if (!m.name[0])
		return profdb__sink_skip(s, "missing operator name", row->line);
	if (!dev[0])
		return profdb__sink_skip(s, "missing device type", row->line);
	if (kb_bytes(ofld(r, row, O_SIZE), &m.bytes) != 0)
		return profdb__sink_skip(s, "non-numeric size", row->line);
	if (us_ns(ofld(r, row, O_ALLOC_T), &m.alloc_ns) != 0 || us_ns(ofld(r, row, O_REL_T), &m.release_ns) != 0 ||
	    us_ns(ofld(r, row, O_ACT_REL_T), &m.active_release_ns) != 0)
		return profdb__sink_skip(s, "non-numeric timestamp", row->line);
	for (int i = 0; i < 3; i++) {
		bad |= mb_bytes(ofld(r, row, (enum ocol)(O_A_ALLOC + i)), &m.alloc_total[i]);
		bad |= mb_bytes(ofld(r, row, (enum ocol)(O_R_ALLOC + i)), &m.release_total[i]);
	}
	if (bad)
		return profdb__sink_skip(s, "non-numeric memory size", row->line);
	stream = ofld(r, row, O_STREAM);
	if (stream && stream[0] && profdb__parse_i64(stream, strlen(stream), &m.stream_ptr) != 0)
		m.stream_ptr = PROFDB_NULL;
	m.device_type = device_of(dev, type, sizeof type, &m.device_id);
	return profdb__sink_op_memory(s, &m);
}

static int on_opmem_row(void *arg, const struct profdb__csv_row *row)
{
	struct oreader *r = arg;
	return row->index == 0 ? opmem_header(r, row) : opmem_row(r, row);
}

int profdb__ascend_read_operator_memory(const struct profdb__ascend_src *src, const char *path)
{
	struct oreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.src = src;
	r.label = path;
	rc = profdb__ascend_stream_csv(src, path, "operator_memory", on_opmem_row, &r);
	profdb__csv_header_free(&r.hdr);
	return rc;
}

/* ---------------------------------------------------- npu_module_mem.csv */

enum ncol { N_COMPONENT, N_TS, N_RES_KB, N_RES_MB, N_DEVICE, N_NCOL };
/* its columns go in struct mreader's col[] */
_Static_assert((int)N_NCOL <= (int)M_NCOL, "npu_module_mem columns fit mreader");

static const char *const ncol_names[N_NCOL] = {
	[N_COMPONENT] = "Component",
	[N_TS] = "Timestamp(us)",
	[N_RES_KB] = "Total Reserved(KB)",
	[N_RES_MB] = "Total Reserved(MB)",
	[N_DEVICE] = "Device",
};

static int module_header(struct mreader *r, const struct profdb__csv_row *row)
{
	static const enum ncol required[] = { N_COMPONENT, N_TS, N_DEVICE };
	int rc = profdb__csv_header_copy(&r->hdr, row, r->src->ctx->err);
	if (rc != PROFDB_OK)
		return rc;
	for (int k = 0; k < N_NCOL; k++)
		r->col[k] = profdb__csv_header_find(&r->hdr, ncol_names[k]);
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++) {
		int c = r->col[required[i]];
		if (c < 0)
			return profdb__err_set(r->src->ctx->err, PROFDB_EFORMAT, "%s:%lld: missing column '%s'",
			                       r->label, (long long)row->line, ncol_names[required[i]]);
		if ((size_t)c + 1 > r->need)
			r->need = (size_t)c + 1;
	}
	if (r->col[N_RES_KB] < 0 && r->col[N_RES_MB] < 0)
		return profdb__err_set(r->src->ctx->err, PROFDB_EFORMAT, "%s:%lld: missing column '%s'",
		                       r->label, (long long)row->line, ncol_names[N_RES_KB]);
	return PROFDB_OK;
}

static int module_row(struct mreader *r, const struct profdb__csv_row *row)
{
	struct profdb_sink *s = r->src->ctx->sink;
	struct profdb_mem_rec m;
	const char *ts = mfld(r, row, (enum mcol)N_TS), *dev = mfld(r, row, (enum mcol)N_DEVICE);
	const char *comp = mfld(r, row, (enum mcol)N_COMPONENT);
	const char *kb = mfld(r, row, (enum mcol)N_RES_KB);
	char type[64], component[128];
	int64_t res_kb;

	if (row->n < r->need)
		return profdb__sink_skip(s, "too few fields", row->line);
	m = (struct profdb_mem_rec){
		.rank = r->src->rank, .bytes = PROFDB_NULL, .addr = PROFDB_NULL, .total_allocated = PROFDB_NULL,
		.total_active = PROFDB_NULL, .step = PROFDB_NULL, .tid = PROFDB_NULL,
	};
	if (profdb__parse_ns(ts, strlen(ts), 3, &m.ts_ns) != 0 || m.ts_ns < 0)
		return profdb__sink_skip(s, "non-numeric timestamp", row->line);
	if (!dev[0] || !comp[0])
		return profdb__sink_skip(s, !dev[0] ? "missing device" : "missing component", row->line);
	if (r->col[N_RES_KB] >= 0) {
		if (!kb || kb_bytes(kb, &res_kb) != 0 || res_kb < 0)
			return profdb__sink_skip(s, "non-numeric memory size", row->line);
		m.total_reserved = res_kb;
	} else if (mb_bytes(mfld(r, row, (enum mcol)N_RES_MB), &m.total_reserved) != 0) {
		return profdb__sink_skip(s, "non-numeric memory size", row->line);
	}
	snprintf(component, sizeof component, "module:%s", comp);
	m.component = component;
	m.device_type = device_of(dev, type, sizeof type, &m.device_id);
	return profdb__sink_memory(s, &m);
}

static int on_module_row(void *arg, const struct profdb__csv_row *row)
{
	struct mreader *r = arg;
	return row->index == 0 ? module_header(r, row) : module_row(r, row);
}

int profdb__ascend_read_npu_module_mem(const struct profdb__ascend_src *src, const char *path)
{
	struct mreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.src = src;
	r.label = path;
	rc = profdb__ascend_stream_csv(src, path, "npu_module_mem", on_module_row, &r);
	profdb__csv_header_free(&r.hdr);
	return rc;
}

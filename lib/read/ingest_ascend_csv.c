/*
 * ingest_ascend_csv.c - the Ascend text export: one *_ascend_pt (torch_npu)
 * or *_ascend_ms (MindSpore) folder, and its kernel_details.csv.
 *
 * kernel_details columns vary with the producer's version, profiler level
 * and aic_metrics (FORMATS.md 2.1-2.3), so every column is found by its
 * header name; whatever follows the last fixed column is a PMU metric.  The
 * other tables of the folder are read by ingest_ascend_tables.c and the
 * profiler_*.json files by ingest_ascend_meta.c.  The sniff at the end
 * matches header names from the reader's own kcol_names: one list of
 * names for reading and detecting.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ascend_csv.h"
#include "csv_reader.h"
#include "fs_path.h"
#include "banned.h"

/* The fixed (non-metric) columns of kernel_details / op_summary. */
enum kcol {
	K_STEP, K_DEVICE, K_MODEL, K_MODEL_NAME, K_INFER, K_TASK, K_STREAM, K_NAME, K_TYPE,
	K_OP_STATE, K_CORE, K_START, K_DUR, K_WAIT, K_BLOCK, K_MIX, K_HF32, K_IN_SHAPES,
	K_IN_DTYPES, K_IN_FORMATS, K_OUT_SHAPES, K_OUT_DTYPES, K_OUT_FORMATS, K_CONTEXT, K_NCOL
};

/* Header names: torch_npu's name, then msprof's raw op_summary name (or
 * the newer/older spelling: Block Dim became Block Num in 2026). */
static const struct { const char *name, *alt; } kcol_names[K_NCOL] = {
	[K_STEP] = { "Step Id", NULL },
	[K_DEVICE] = { "Device_id", NULL },
	[K_MODEL] = { "Model ID", NULL },
	[K_MODEL_NAME] = { "Model Name", NULL },
	[K_INFER] = { "Infer ID", NULL },
	[K_TASK] = { "Task ID", NULL },
	[K_STREAM] = { "Stream ID", NULL },
	[K_NAME] = { "Name", "Op Name" },
	[K_TYPE] = { "Type", "OP Type" },
	[K_OP_STATE] = { "OP State", NULL },
	[K_CORE] = { "Accelerator Core", "Task Type" },
	[K_START] = { "Start Time(us)", "Task Start Time(us)" },
	[K_DUR] = { "Duration(us)", "Task Duration(us)" },
	[K_WAIT] = { "Wait Time(us)", "Task Wait Time(us)" },
	[K_BLOCK] = { "Block Dim", "Block Num" },
	[K_MIX] = { "Mix Block Dim", "Mix Block Num" },
	[K_HF32] = { "HF32 Eligible", NULL },
	[K_IN_SHAPES] = { "Input Shapes", NULL },
	[K_IN_DTYPES] = { "Input Data Types", NULL },
	[K_IN_FORMATS] = { "Input Formats", NULL },
	[K_OUT_SHAPES] = { "Output Shapes", NULL },
	[K_OUT_DTYPES] = { "Output Data Types", NULL },
	[K_OUT_FORMATS] = { "Output Formats", NULL },
	[K_CONTEXT] = { "Context ID", NULL },
};

static const enum kcol required[] = { K_NAME, K_START, K_DUR };

struct kreader {
	const struct profdb__ascend_src *src;
	const char *label;         /* the file, for messages */
	struct profdb__csv_header hdr;
	int col[K_NCOL];           /* column index, -1 when absent */
	size_t nfixed;             /* columns from here on are metrics */
	struct profdb_metric *metrics; /* hdr.n - nfixed slots, reused per row */
};

/* ---------------------------------------------------------------- helpers */

static int is_na(const char *s)
{
	return s[0] == '\0' || (s[0] == 'N' && s[1] == '/' && s[2] == 'A' && s[3] == '\0');
}

/* Text of an optional column: NULL when absent, empty or N/A. */
static const char *text_or_null(const char *s)
{
	return !s || is_na(s) ? NULL : s;
}

/* Shapes arrive as """32,3,224,224""": after CSV decoding the value still
 * has literal quotes around it; drop them in place.  n: strlen(s). */
static const char *unquote(char *s, size_t n)
{
	if (!s)
		return NULL;
	if (n >= 2 && s[0] == '"' && s[n - 1] == '"') {
		memmove(s, s + 1, n - 2);
		s[n - 2] = '\0';
	}
	return text_or_null(s);
}

/* An optional integer column: NULL when absent, N/A or not an integer.
 * Plain digits (the common case, several per row) skip strtoll's copy.
 * n: strlen(s). */
static int64_t opt_i64(const char *s, size_t n)
{
	int64_t v = 0;
	size_t i = 0;
	if (!s || is_na(s))
		return PROFDB_NULL;
	while (s[i] >= '0' && s[i] <= '9' && i < 18)
		v = v * 10 + (s[i++] - '0');
	if (i > 0 && s[i] == '\0')
		return v;
	if (profdb__parse_i64(s, n, &v) != 0)
		return PROFDB_NULL;
	return v;
}

static int64_t opt_ns(const char *s, size_t n)
{
	int64_t v;
	if (!s || profdb__parse_ns(s, n, 3, &v) != 0)
		return PROFDB_NULL;
	return v;
}

/*
 * A metric value.  Rows carry up to ~30 of them, so strtod's general path
 * dominated the reader; plain "123.456" text with at most 15 digits takes
 * the exact fast path (an integer below 2^53 divided by an exact power of
 * ten is correctly rounded: Clinger 1990), anything else goes to strtod.
 */
static int metric_value(const char *s, size_t n, double *out)
{
	static const double pow10[] = { 1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10,
	                                1e11, 1e12, 1e13, 1e14, 1e15 };
	uint64_t mant = 0;
	int digits = 0, frac = -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] >= '0' && s[i] <= '9') {
			mant = mant * 10 + (uint64_t)(s[i] - '0');
			if (++digits > 15)
				return profdb__parse_double(s, n, out);
			if (frac >= 0)
				frac++;
		} else if (s[i] == '.' && frac < 0) {
			frac = 0;
		} else {
			return profdb__parse_double(s, n, out);
		}
	}
	if (digits == 0)
		return -1;
	*out = frac > 0 ? (double)mant / pow10[frac] : (double)mant;
	return 0;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
	size_t m = strlen(suffix);
	return n >= m && memcmp(s + n - m, suffix, m) == 0;
}

int profdb__ascend_path_is_mindspore(const char *path)
{
	const char *p = path;
	while (*p) {
		const char *e = strchr(p, '/');
		size_t n = e ? (size_t)(e - p) : strlen(p);
		if (ends_with(p, n, "_ascend_ms"))
			return 1;
		p += n;
		while (*p == '/')
			p++;
	}
	return 0;
}

int profdb__ascend_refuse_cambricon(char *const *field, size_t n, const char *label, const char *what,
                            struct profdb_err *err)
{
	int thread = 0, other = 0;
	char head[160];
	size_t at = 0;
	for (size_t i = 0; i < n; i++) {
		thread |= strcmp(field[i], "Thread Id") == 0;
		other |= strcmp(field[i], "Correlation Id") == 0 || strcmp(field[i], "Kernel Name") == 0 ||
		         strcmp(field[i], "Input Type") == 0;
	}
	if (!(thread && other))
		return PROFDB_OK;
	head[0] = '\0';
	for (size_t i = 0; i < n && i < 3; i++) {
		char ex[48];
		profdb__csv_excerpt(field[i], 40, ex, sizeof ex);
		at += (size_t)snprintf(head + at, sizeof head - at, "%s%s", i ? "," : "", ex);
		if (at >= sizeof head)
			break;
	}
	return profdb__err_set(err, PROFDB_EFORMAT,
	    "%s:1: this is a Cambricon torch_mlu %s (header '%s%s'), which profdb does not read",
	    label, what, head, n > 3 ? ",..." : "");
}

/* ---------------------------------------------------------------- header */

static int kernel_header(struct kreader *r, const struct profdb__csv_row *row)
{
	struct profdb_err *err = r->src->ctx->err;
	const char *dup;
	int found = 0, rc;
	char ex[128];

	if ((rc = profdb__ascend_refuse_cambricon(row->field, row->n, r->label, "kernel_details.csv", err)) != PROFDB_OK)
		return rc;
	if ((rc = profdb__csv_header_copy(&r->hdr, row, err)) != PROFDB_OK)
		return rc;
	for (int k = 0; k < K_NCOL; k++) {
		int a = profdb__csv_header_find(&r->hdr, kcol_names[k].name);
		int b = kcol_names[k].alt ? profdb__csv_header_find(&r->hdr, kcol_names[k].alt) : -1;
		if (a >= 0 && b >= 0)
			return profdb__err_set(err, PROFDB_EFORMAT, "%s:%lld: columns '%s' and '%s' both present",
			                       r->label, (long long)row->line, kcol_names[k].name, kcol_names[k].alt);
		r->col[k] = a >= 0 ? a : b;
		if (r->col[k] >= 0) {
			found++;
			if ((size_t)r->col[k] + 1 > r->nfixed)
				r->nfixed = (size_t)r->col[k] + 1;
		}
	}
	if (found == 0 || (r->col[K_NAME] < 0 && r->col[K_DUR] < 0 && r->col[K_START] < 0)) {
		profdb__csv_excerpt(row->field[0], 60, ex, sizeof ex);
		return profdb__err_set(err, PROFDB_EFORMAT,
		    "%s:%lld: not a kernel_details.csv header (it starts '%s')", r->label,
		    (long long)row->line, ex);
	}
	for (size_t i = 0; i < sizeof required / sizeof required[0]; i++)
		if (r->col[required[i]] < 0)
			return profdb__err_set(err, PROFDB_EFORMAT, "%s:%lld: missing column '%s'", r->label,
			                       (long long)row->line, kcol_names[required[i]].name);
	dup = profdb__csv_header_dup(&r->hdr);
	if (dup) {
		profdb__csv_excerpt(dup, 60, ex, sizeof ex);
		return profdb__err_set(err, PROFDB_EFORMAT, "%s:%lld: column '%s' appears twice", r->label,
		                       (long long)row->line, ex);
	}
	if (r->hdr.n > r->nfixed) {
		r->metrics = malloc((r->hdr.n - r->nfixed) * sizeof *r->metrics);
		if (!r->metrics)
			return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- rows */

/* The field of column k in this row, or NULL (column absent or row short). */
static char *fld(const struct kreader *r, const struct profdb__csv_row *row, enum kcol k)
{
	int c = r->col[k];
	return c >= 0 && (size_t)c < row->n ? row->field[c] : NULL;
}

/* The same with its length in *n (0 for NULL): rows carry the lengths, so
 * the number parsers need no strlen. */
static char *fldn(const struct kreader *r, const struct profdb__csv_row *row, enum kcol k, size_t *n)
{
	int c = r->col[k];
	if (c >= 0 && (size_t)c < row->n) {
		*n = row->len[c];
		return row->field[c];
	}
	*n = 0;
	return NULL;
}

static int64_t col_i64(const struct kreader *r, const struct profdb__csv_row *row, enum kcol k)
{
	size_t n;
	const char *s = fldn(r, row, k, &n);
	return opt_i64(s, n);
}

/* A shape/type/format column, its literal quotes dropped; NULL for N/A. */
static const char *col_text(const struct kreader *r, const struct profdb__csv_row *row, enum kcol k)
{
	size_t n;
	char *s = fldn(r, row, k, &n);
	return unquote(s, n);
}

static int int_or_na(const char *s)
{
	int64_t v;
	return !s || is_na(s) || profdb__parse_i64(s, strlen(s), &v) == 0;
}

static int num_or_na(const char *s)
{
	int64_t v;
	return !s || is_na(s) || profdb__parse_ns(s, strlen(s), 3, &v) == 0;
}

/*
 * A row with fewer fields than the header cannot say which field is
 * missing.  We keep it only when every typed fixed column still holds a
 * value of its type, i.e. the shortfall is in the trailing metric columns.
 * (The 2023 test_rank_0 FlashAttentionScore row lacks its Duration: its
 * Wait lands in Duration and "NO" in Mix Block Dim, so it is skipped.)
 */
static int fixed_columns_plausible(const struct kreader *r, const struct profdb__csv_row *row)
{
	static const enum kcol ints[] = { K_STEP, K_DEVICE, K_MODEL, K_TASK, K_STREAM, K_BLOCK,
	                                  K_MIX, K_CONTEXT };
	const char *hf32 = fld(r, row, K_HF32);
	for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
		if (!int_or_na(fld(r, row, ints[i])))
			return 0;
	if (!num_or_na(fld(r, row, K_WAIT)))
		return 0;
	return !hf32 || is_na(hf32) || strcmp(hf32, "YES") == 0 || strcmp(hf32, "NO") == 0;
}

static int kind_of(const char *core, const char *type, const char *name)
{
	/* first letters first: this runs for every row, and a full strcmp of
	 * each name is a measurable share of a read */
	if (core && ((core[0] == 'H' && strcmp(core, "HCCL") == 0) ||
	             (core[0] == 'C' && strcmp(core, "COMMUNICATION") == 0)))
		return PROFDB_KIND_COMM;
	/* else the rule for every vendor (kind.c): a collective's name, the
	 * op type's (hcom_allReduce) where there is one, else the name's (a
	 * Core that was not collected is N/A) */
	return profdb__kind_of_device(PROFDB_KIND_KERNEL, type ? type : name);
}

static int skip(const struct kreader *r, const char *reason, int64_t line)
{
	struct profdb_sink *s = r->src->ctx->sink;
	return profdb__sink_skip(s, reason, line);
}

static int kernel_row(struct kreader *r, const struct profdb__csv_row *row)
{
	struct profdb_sink *s = r->src->ctx->sink;
	struct profdb_kernel_rec k;
	char *name, *p, *hf32;
	size_t nm = 0, end, n;

	if (row->n > r->hdr.n) {
		for (size_t i = r->hdr.n; i < row->n; i++)
			if (row->len[i])
				return skip(r, "too many fields", row->line);
	} else if (row->n < r->hdr.n && (row->n < r->nfixed || !fixed_columns_plausible(r, row))) {
		return skip(r, "too few fields", row->line);
	}
	profdb__kernel_rec_init(&k);
	name = fld(r, row, K_NAME);
	if (!name || !name[0])
		return skip(r, "missing name", row->line);
	p = fldn(r, row, K_START, &n);
	if (!p || profdb__parse_ns(p, n, 3, &k.start_ns) != 0)
		return skip(r, "non-numeric start time", row->line);
	p = fldn(r, row, K_DUR, &n);
	if (!p || profdb__parse_ns(p, n, 3, &k.dur_ns) != 0)
		return skip(r, "non-numeric duration", row->line);
	/* one rule for every format (doc/definitions.md "Zero-length events"): a zero
	 * duration is a task shorter than the clock's resolution and kept, as
	 * the profiler counts it (the SQLite export keeps start == end too);
	 * a negative one is no measurement */
	if (k.dur_ns < 0)
		return skip(r, "negative duration", row->line);
	if (r->src->mindspore && (p = strrchr(name, '/')) != NULL && p[1] && p != name) {
		*p = '\0';
		k.launch_op = name;
		name = p + 1;
	}
	k.name = name;
	k.rank = r->src->rank;
	k.step = col_i64(r, row, K_STEP);
	k.device = col_i64(r, row, K_DEVICE);
	k.model_id = col_i64(r, row, K_MODEL);
	k.task_id = col_i64(r, row, K_TASK);
	k.stream = col_i64(r, row, K_STREAM);
	k.type = text_or_null(fld(r, row, K_TYPE));
	k.op_state = text_or_null(fld(r, row, K_OP_STATE));
	k.core = text_or_null(fld(r, row, K_CORE));
	k.kind = kind_of(k.core, k.type, k.name);
	p = fldn(r, row, K_WAIT, &n);
	k.wait_ns = opt_ns(p, n);
	k.block_dim = col_i64(r, row, K_BLOCK);
	k.mix_block_dim = col_i64(r, row, K_MIX);
	hf32 = fld(r, row, K_HF32);
	k.hf32 = !hf32 ? PROFDB_NULL : strcmp(hf32, "YES") == 0 ? 1 : strcmp(hf32, "NO") == 0 ? 0 : PROFDB_NULL;
	k.in_shapes = col_text(r, row, K_IN_SHAPES);
	k.in_dtypes = col_text(r, row, K_IN_DTYPES);
	k.in_formats = col_text(r, row, K_IN_FORMATS);
	k.out_shapes = col_text(r, row, K_OUT_SHAPES);
	k.out_dtypes = col_text(r, row, K_OUT_DTYPES);
	k.out_formats = col_text(r, row, K_OUT_FORMATS);
	k.context_id = col_i64(r, row, K_CONTEXT);
	end = row->n < r->hdr.n ? row->n : r->hdr.n;
	for (size_t i = r->nfixed; i < end; i++) {
		double v;
		if (is_na(row->field[i]) || metric_value(row->field[i], row->len[i], &v) != 0)
			continue;
		r->metrics[nm].name = r->hdr.name[i];
		r->metrics[nm++].value = v;
	}
	k.metrics = nm ? r->metrics : NULL;
	k.nmetrics = nm;
	return profdb__sink_kernel(s, &k);
}

static int on_kernel_row(void *arg, const struct profdb__csv_row *row)
{
	struct kreader *r = arg;
	return row->index == 0 ? kernel_header(r, row) : kernel_row(r, row);
}

/* ---------------------------------------------------------------- files */

/* Progress of one file, relayed as bytes of the whole export. */
static void relay_progress(void *arg, uint64_t done, uint64_t total)
{
	const struct profdb__ascend_src *src = arg;
	src->ctx->progress(src->ctx->progress_arg, src->done_before + done, src->done_before + total);
}

int profdb__ascend_stream_csv(const struct profdb__ascend_src *src, const char *path, const char *role,
                      profdb__csv_row_fn fn, void *arg)
{
	const struct profdb_reader_ctx *ctx = src->ctx;
	struct profdb_sink *s = ctx->sink;
	struct profdb_input *in = NULL;
	int64_t rows = 0;
	char sha[65];
	int rc;

	if ((rc = profdb__input_open(&in, path, ctx->limits->gzip_max_bytes, ctx->err)) != PROFDB_OK)
		return rc;
	if ((rc = profdb__sink_source_begin(s, path, role, src->rank, NULL, 0)) != PROFDB_OK)
		goto out;
	rc = profdb__csv_read(in, path, fn, arg, &rows, ctx->err, ctx->progress ? relay_progress : NULL,
	                     (void *)src);
	if (rc != PROFDB_OK)
		goto out;
	if (rows == 0) {
		rc = profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: empty file", path);
		goto out;
	}
	profdb__input_sha256(in, sha);
	rc = profdb__sink_source_end(s, rows - 1, sha, profdb__input_size(in));
out:
	profdb__input_close(in);
	return rc;
}

int profdb__ascend_read_kernels(const struct profdb__ascend_src *src, const char *path)
{
	struct kreader r;
	int rc;

	memset(&r, 0, sizeof r);
	r.src = src;
	r.label = path;
	rc = profdb__ascend_stream_csv(src, path, "kernel_details", on_kernel_row, &r);
	profdb__csv_header_free(&r.hdr);
	free(r.metrics);
	return rc;
}

/* analysis.db: only the parts whose text form (communication*.json,
 * step_trace_time.csv) the folder lacks, so that nothing counts twice. */
static int read_analysis(const struct profdb__ascend_src *src, const char *out)
{
	char file[4300], db[4300];
	int comm, steps;
	snprintf(db, sizeof db, "%s/analysis.db", out);
	if (!profdb__path_is_file(db))
		return PROFDB_OK;
	snprintf(file, sizeof file, "%s/communication.json", out);
	comm = !profdb__path_is_file(file);
	snprintf(file, sizeof file, "%s/communication_matrix.json", out);
	comm = comm && !profdb__path_is_file(file);
	snprintf(file, sizeof file, "%s/step_trace_time.csv", out);
	steps = !profdb__path_is_file(file);
	return comm || steps ? profdb__ascend_read_analysis(src, db, comm, steps) : PROFDB_OK;
}

/* One kernel_details.csv file. */
static int read_kernel_details(const struct profdb_reader_ctx *ctx)
{
	struct profdb__ascend_src src = { ctx, ctx->rank == PROFDB_NULL ? 0 : ctx->rank,
	                          profdb__ascend_path_is_mindspore(ctx->path), 0 };
	return profdb__ascend_read_kernels(&src, ctx->path);
}

static int read_folder(const struct profdb_reader_ctx *ctx)
{
	static const struct {
		const char *file;
		int (*read)(const struct profdb__ascend_src *, const char *);
	} tables[] = {
		{ "kernel_details.csv", profdb__ascend_read_kernels },
		{ "operator_details.csv", profdb__ascend_read_operators },
		{ "step_trace_time.csv", profdb__ascend_read_step_trace },
		{ "op_statistic.csv", profdb__ascend_read_op_statistic },
		{ "communication.json", profdb__ascend_read_comm },
		{ "communication_matrix.json", profdb__ascend_read_comm_matrix },
		{ "memory_record.csv", profdb__ascend_read_memory_record },
		{ "operator_memory.csv", profdb__ascend_read_operator_memory },
		{ "npu_module_mem.csv", profdb__ascend_read_npu_module_mem },
	};
	struct profdb__ascend_src src = { ctx, 0, 0, 0 };
	char folder[4096], out[4200], file[4300];
	size_t n;
	int rc;

	if (profdb__path_is_file(ctx->path))
		return read_kernel_details(ctx);
	n = strlen(ctx->path);
	while (n > 1 && ctx->path[n - 1] == '/')
		n--;
	if (n >= sizeof folder)
		return profdb__err_set(ctx->err, PROFDB_ERROR, "%s: path too long", ctx->path);
	memcpy(folder, ctx->path, n);
	folder[n] = '\0';
	/* given ASCEND_PROFILER_OUTPUT itself: the export is its parent */
	snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", folder);
	if (!profdb__path_is_dir(out) && ends_with(folder, n, "/ASCEND_PROFILER_OUTPUT")) {
		snprintf(out, sizeof out, "%s", folder);
		folder[n - strlen("/ASCEND_PROFILER_OUTPUT")] = '\0';
	}
	src.mindspore = profdb__ascend_path_is_mindspore(folder);
	if ((rc = profdb__ascend_read_meta(&src, folder)) != PROFDB_OK)
		return rc;
	for (size_t i = 0; i < sizeof tables / sizeof tables[0]; i++) {
		struct stat sb;
		snprintf(file, sizeof file, "%s/%s", out, tables[i].file);
		if (stat(file, &sb) != 0 || !S_ISREG(sb.st_mode))
			continue;
		if ((rc = tables[i].read(&src, file)) != PROFDB_OK)
			return rc;
		src.done_before += (uint64_t)sb.st_size;
		if (ctx->progress)
			ctx->progress(ctx->progress_arg, src.done_before, src.done_before);
	}
	if ((rc = read_analysis(&src, out)) != PROFDB_OK)
		return rc;
	/* the timeline is the device data only when there is no kernel table
	 * (the walk notes it as skipped otherwise) */
	snprintf(file, sizeof file, "%s/kernel_details.csv", out);
	if (!profdb__path_is_file(file)) {
		snprintf(file, sizeof file, "%s/trace_view.json", out);
		if (profdb__path_is_file(file))
			return profdb__ascend_read_trace_view(&src, file);
	}
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- registration */

/* Is the header field [f, fe) (blanks, double quotes and a UTF-8 BOM
 * trimmed) one of the names a, b, c (NULL: none)? */
static int field_is(const char *f, const char *fe, const char *a, const char *b, const char *c)
{
	const char *names[3] = { a, b, c };
	if (fe - f >= 3 && memcmp(f, "\xEF\xBB\xBF", 3) == 0)
		f += 3;
	while (f < fe && (*f == ' ' || *f == '"' || *f == '\t'))
		f++;
	while (fe > f && (fe[-1] == ' ' || fe[-1] == '"' || fe[-1] == '\r' || fe[-1] == '\t'))
		fe--;
	for (int i = 0; i < 3; i++)
		if (names[i] && (size_t)(fe - f) == strlen(names[i]) &&
		    memcmp(f, names[i], (size_t)(fe - f)) == 0)
			return 1;
	return 0;
}

/*
 * Is the line [p, e) a kernel table's header: a name column and a duration
 * column by their exact names (torch_npu's, msprof's raw op_summary ones,
 * or Cambricon's, which the reader refuses with a clear message), or an
 * Accelerator Core column?  Exact names, not substrings: operator_details'
 * "Host Self Duration(us)" is no kernel duration.
 */
static int kernel_header_line(const char *p, const char *e)
{
	int name = 0, dur = 0;
	while (p <= e) {
		const char *c = memchr(p, ',', (size_t)(e - p));
		const char *fe = c ? c : e;
		if (field_is(p, fe, "Accelerator Core", NULL, NULL))
			return 1;
		name |= field_is(p, fe, kcol_names[K_NAME].name, kcol_names[K_NAME].alt, "Kernel Name");
		dur |= field_is(p, fe, kcol_names[K_DUR].name, kcol_names[K_DUR].alt, "Device Duration(us)");
		if (!c)
			break;
		p = c + 1;
	}
	return name && dur;
}

/*
 * A kernel table: text (not JSON, not gzip) that starts with "Step Id," or
 * has a kernel header line in the bytes seen (an export may put lines
 * before it).  Only whole lines count, so a "yes" holds with more bytes.
 */
static int sniff(const struct profdb_sniff *s)
{
	const char *b = s->buf, *e = s->buf + s->n;
	size_t i = profdb__sniff_ws(b, s->n, 0);
	if (s->gzip || (i < s->n && (b[i] == '{' || b[i] == '[')))
		return PROFDB_SNIFF_NO;
	if (s->n - i >= 8 && memcmp(b + i, "Step Id,", 8) == 0)
		return PROFDB_SNIFF_YES;
	for (const char *p = b; p < e;) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		if (!nl && !s->full)
			break;                     /* the last line may go on */
		if (kernel_header_line(p, nl ? nl : e))
			return PROFDB_SNIFF_YES;
		if (!nl)
			break;
		p = nl + 1;
	}
	return PROFDB_SNIFF_MORE;
}

/* The CSV form of an Ascend export: a *_ascend_pt folder (the walk picks
 * it by its layout, ingest_walk.c) or one kernel table file. */
const struct profdb_reader profdb__reader_ascend_csv = {
	.name = "ascend_csv", .label = "ascend_csv", .sniff = sniff, .read = read_folder,
	.flags = PROFDB_READER_WALK,
};

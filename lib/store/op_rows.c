/*
 * op_rows.c - held op rows inserted from their array (op_rows.h says why).
 *
 * The virtual table (rows_vtab.c) reads the struct the row is held in;
 * each column gives the value, and the NULLs, that profdb__store_op_insert
 * puts in the op batch's cells (store_ops.c), so the rows stored are the
 * same.
 */
#include <stddef.h>
#include <stdlib.h>

#include "internal.h"
#include "columns.h"
#include "batch_flusher.h"
#include "op_rows.h"
#include "rows_vtab.h"
#include "store_impl.h"
#include "banned.h"

struct profdb__op_rows {
	struct profdb__rows_src src; /* first: the source is the struct */
	struct profdb__rows_insert ins;
	struct profdb__flush_job job;
	struct profdb__op_held *v; /* owned */
	size_t n, cap;
	size_t done;               /* rows inserted so far */
	int64_t first_id, run_id;
};

/* Rows per INSERT: the flusher runs waiting batches between two. */
#define OP_ROWS_CHUNK 4096

static size_t src_count(const struct profdb__rows_src *src)
{
	const struct profdb__op_rows *r = (const struct profdb__op_rows *)(const void *)src;
	return r->n - r->done < OP_ROWS_CHUNK ? r->n - r->done : OP_ROWS_CHUNK;
}

/* An optional value: PROFDB_NULL is NULL. */
static void result_i64(sqlite3_context *ctx, int64_t v)
{
	if (v != PROFDB_NULL)
		sqlite3_result_int64(ctx, v);
}

/* A str id: 0 is NULL. */
static void result_id(sqlite3_context *ctx, int64_t v)
{
	if (v)
		sqlite3_result_int64(ctx, v);
}

static void src_column(const struct profdb__rows_src *src, size_t row, int col, sqlite3_context *ctx)
{
	const struct profdb__op_rows *r = (const struct profdb__op_rows *)(const void *)src;
	const struct profdb__op_held *h = &r->v[r->done + row];
	switch (col) {
	case OP_COL_ID: sqlite3_result_int64(ctx, r->first_id + (int64_t)(r->done + row)); break;
	case OP_COL_RUN_ID: sqlite3_result_int64(ctx, r->run_id); break;
	case OP_COL_RANK: sqlite3_result_int64(ctx, h->p.rank); break;
	case OP_COL_STEP: result_i64(ctx, h->p.step); break;
	case OP_COL_NAME_ID: sqlite3_result_int64(ctx, h->p.name_id); break;
	case OP_COL_CATEGORY_ID: result_id(ctx, h->p.cat_id); break;
	case OP_COL_TID: result_i64(ctx, h->p.tid); break;
	case OP_COL_START_NS: result_i64(ctx, h->p.start); break;
	case OP_COL_DUR_NS: result_i64(ctx, h->p.dur); break;
	case OP_COL_SELF_NS: result_i64(ctx, h->self); break;
	case OP_COL_DEVICE_SELF_NS: result_i64(ctx, h->dev_self); break;
	case OP_COL_DEVICE_TOTAL_NS: result_i64(ctx, h->dev_total); break;
	case OP_COL_EXTERNAL_ID: result_i64(ctx, h->p.ext); break;
	case OP_COL_SEQ: result_i64(ctx, h->p.seq); break;
	case OP_COL_IN_SHAPES_ID: result_id(ctx, h->p.shapes_id); break;
	case OP_COL_IN_TYPES_ID: result_id(ctx, h->p.types_id); break;
	case OP_COL_CALL_STACK_ID: result_id(ctx, h->p.stack_id); break;
	case OP_COL_IN_CONCRETE_ID: result_id(ctx, h->p.concrete_id); break;
	default: break; /* the Ascend AI Core times: NULL, as in the batch */
	}
}

/* The next chunk: SQLite result code, or PROFDB__FLUSH_AGAIN. */
static int insert_chunk(struct profdb__op_rows *r)
{
	int rc = r->done < r->n ? profdb__rows_insert_run(&r->ins) : SQLITE_OK;
	if (rc != SQLITE_OK) {
		r->done = r->n = 0;
		return rc;
	}
	r->done += src_count(&r->src);
	if (r->done < r->n)
		return PROFDB__FLUSH_AGAIN;
	r->done = r->n = 0;
	return SQLITE_OK;
}

static int job_run(struct profdb__flush_job *job)
{
	return insert_chunk((struct profdb__op_rows *)(void *)((char *)job - offsetof(struct profdb__op_rows, job)));
}

int profdb__op_rows_new(struct profdb__op_rows **out, sqlite3 *db, int64_t run_id, const char *cols)
{
	struct profdb__op_rows *r = calloc(1, sizeof *r);
	int rc;
	*out = NULL;
	if (!r)
		return SQLITE_NOMEM;
	r->src = (struct profdb__rows_src){ .ncols = OP_NCOLS, .count = src_count, .column = src_column };
	r->job = (struct profdb__flush_job){ .run = job_run, .what = "op" };
	r->run_id = run_id;
	if ((rc = profdb__rows_insert_new(&r->ins, db, "held", "op", cols, &r->src)) != SQLITE_OK) {
		free(r);
		return rc;
	}
	*out = r;
	return SQLITE_OK;
}

void profdb__op_rows_free(struct profdb__op_rows *r)
{
	if (!r)
		return;
	profdb__rows_insert_free(&r->ins);
	free(r->v);
	free(r);
}

void profdb__op_rows_set(struct profdb__op_rows *r, struct profdb__op_held *v, size_t n, size_t cap,
                         int64_t first_id, struct profdb__op_held **old, size_t *oldcap)
{
	*old = r->v;
	*oldcap = r->cap;
	r->v = v;
	r->n = n;
	r->cap = cap;
	r->first_id = first_id;
}

struct profdb__flush_job *profdb__op_rows_job(struct profdb__op_rows *r)
{
	return &r->job;
}

int profdb__op_rows_insert(struct profdb__op_rows *r)
{
	int rc;
	while ((rc = insert_chunk(r)) == PROFDB__FLUSH_AGAIN)
		;
	return rc;
}

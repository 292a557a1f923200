/*
 * op_rows.c - held op rows inserted from their array (op_rows.h says why).
 *
 * The virtual table (rows_vtab.c) reads the struct the row is held in;
 * each column gives the value, and the NULLs, that profdb__store_op_insert
 * puts in the op batch's cells (store_ops.c), so the rows stored are the
 * same.  Row i of the array gets id first_id + i, and the store sorts the
 * array by (rank, thread, start) first (profdb__op_rows_sort): the ids,
 * the rowid B-tree and op_run_tid then all grow at their ends, where in
 * the order ops close (children first, a file's threads interleaved) each
 * entry cost a descent from the root (bench/results.md).
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

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
	uint64_t used;             /* the columns some row has a value in */
};

/* Rows per INSERT: the flusher runs waiting batches between two. */
#define OP_ROWS_CHUNK 4096

static size_t src_count(const struct profdb__rows_src *src)
{
	const struct profdb__op_rows *r = (const struct profdb__op_rows *)(const void *)src;
	return r->n - r->done < OP_ROWS_CHUNK ? r->n - r->done : OP_ROWS_CHUNK;
}

/* Row i's value in column col: 0 for NULL (PROFDB_NULL for a number, 0
 * for a str id; the Ascend AI Core times, as in the batch). */
static int value_of(const struct profdb__op_rows *r, size_t i, int col, int64_t *v)
{
	const struct profdb__op_held *h = &r->v[i];
	switch (col) {
	case OP_COL_ID: *v = r->first_id + (int64_t)i; return 1;
	case OP_COL_RUN_ID: *v = r->run_id; return 1;
	case OP_COL_RANK: *v = h->p.rank; return 1;
	case OP_COL_NAME_ID: *v = h->p.name_id; return 1;
	case OP_COL_STEP: *v = h->p.step; break;
	case OP_COL_TID: *v = h->p.tid; break;
	case OP_COL_START_NS: *v = h->p.start; break;
	case OP_COL_DUR_NS: *v = h->p.dur; break;
	case OP_COL_SELF_NS: *v = h->self; break;
	case OP_COL_DEVICE_SELF_NS: *v = h->dev_self; break;
	case OP_COL_DEVICE_TOTAL_NS: *v = h->dev_total; break;
	case OP_COL_EXTERNAL_ID: *v = h->p.ext; break;
	case OP_COL_SEQ: *v = h->p.seq; break;
	case OP_COL_CATEGORY_ID: *v = h->p.cat_id; return *v != 0;
	case OP_COL_IN_SHAPES_ID: *v = h->p.shapes_id; return *v != 0;
	case OP_COL_IN_TYPES_ID: *v = h->p.types_id; return *v != 0;
	case OP_COL_CALL_STACK_ID: *v = h->p.stack_id; return *v != 0;
	case OP_COL_IN_CONCRETE_ID: *v = h->p.concrete_id; return *v != 0;
	default: return 0;
	}
	return *v != PROFDB_NULL;
}

static void src_column(const struct profdb__rows_src *src, size_t row, int col, sqlite3_context *ctx)
{
	const struct profdb__op_rows *r = (const struct profdb__op_rows *)(const void *)src;
	int64_t v;
	if (value_of(r, r->done + row, col, &v))
		sqlite3_result_int64(ctx, v);
}

/* The columns some row has a value in: the others stay out of the INSERT
 * (rows_vtab.h).  A column is scanned only until its first value. */
static uint64_t used_columns(const struct profdb__op_rows *r)
{
	uint64_t used = 0;
	int64_t v;
	for (int col = 0; col < OP_NCOLS && col < 64; col++)
		for (size_t i = 0; i < r->n; i++)
			if (value_of(r, i, col, &v)) {
				used |= (uint64_t)1 << col;
				break;
			}
	return used;
}

/* The next chunk: SQLite result code, or PROFDB__FLUSH_AGAIN. */
static int insert_chunk(struct profdb__op_rows *r)
{
	int rc = r->done < r->n ? profdb__rows_insert_run_ids(&r->ins, r->used, r->first_id + (int64_t)r->done, NULL)
	                        : SQLITE_OK;
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
	r->used = used_columns(r);
}

/* The (rank, tid) groups of v, sorted, at most MAX_GROUPS; 0 if more. */
#define MAX_GROUPS 64
struct group { int64_t rank, tid; };

static int cmp_group(const void *a, const void *b)
{
	const struct group *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->tid < y->tid ? -1 : x->tid > y->tid;
}

static size_t group_of(const struct group *g, size_t ng, int64_t rank, int64_t tid)
{
	size_t i = 0;
	while (i < ng && (g[i].rank != rank || g[i].tid != tid))
		i++;
	return i;
}

static size_t groups_of(const struct profdb__op_held *v, size_t n, struct group *g)
{
	size_t ng = 0, last = 0;
	for (size_t i = 0; i < n; i++) {
		if (ng && g[last].rank == v[i].p.rank && g[last].tid == v[i].p.tid)
			continue;
		last = group_of(g, ng, v[i].p.rank, v[i].p.tid);
		if (last == ng) {
			if (ng == MAX_GROUPS)
				return 0;
			g[ng++] = (struct group){ v[i].p.rank, v[i].p.tid };
		}
	}
	qsort(g, ng, sizeof *g, cmp_group);
	return ng;
}

/* Each row's key: its group's place << 56 | its start above the least;
 * 0 when a start is unknown or the starts span 2^56 ns or more. */
static int keys_of(const struct profdb__op_held *v, size_t n, const struct group *g, size_t ng, uint64_t *key)
{
	int64_t lo = INT64_MAX, hi = INT64_MIN;
	size_t last = 0;
	for (size_t i = 0; i < n; i++) {
		if (v[i].p.start == PROFDB_NULL)
			return 0;
		lo = v[i].p.start < lo ? v[i].p.start : lo;
		hi = v[i].p.start > hi ? v[i].p.start : hi;
	}
	if ((uint64_t)hi - (uint64_t)lo >= (uint64_t)1 << 56)
		return 0;
	for (size_t i = 0; i < n; i++) {
		if (g[last].rank != v[i].p.rank || g[last].tid != v[i].p.tid)
			last = group_of(g, ng, v[i].p.rank, v[i].p.tid);
		key[i] = (uint64_t)last << 56 | ((uint64_t)v[i].p.start - (uint64_t)lo);
	}
	return 1;
}

/* order[0..n) by key, stable, bottom-up merges through tmp. */
static void merge_sort(uint32_t *order, uint32_t *tmp, size_t n, const uint64_t *key)
{
	for (size_t w = 1; w < n; w *= 2) {
		for (size_t lo = 0; lo < n; lo += 2 * w) {
			size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
			size_t a = lo, b = mid, o = lo;
			while (a < mid && b < hi)
				tmp[o++] = key[order[b]] < key[order[a]] ? order[b++] : order[a++];
			while (a < mid)
				tmp[o++] = order[a++];
			while (b < hi)
				tmp[o++] = order[b++];
		}
		memcpy(order, tmp, n * sizeof *order);
	}
}

/* v[0..n) moved into the order of order[0..n) (row order[i] to place i),
 * following each cycle of the permutation; order is spent. */
static void permute(struct profdb__op_held *v, uint32_t *order, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		struct profdb__op_held t;
		size_t at = i;
		if (order[i] == i)
			continue;
		t = v[i];
		while (order[at] != i) {
			size_t from = order[at];
			v[at] = v[from];
			order[at] = (uint32_t)at; /* placed */
			at = from;
		}
		v[at] = t;
		order[at] = (uint32_t)at;
	}
}

void profdb__op_rows_sort(struct profdb__op_held *v, size_t n)
{
	struct group g[MAX_GROUPS];
	size_t ng;
	uint64_t *key = NULL;
	uint32_t *order = NULL, *tmp = NULL;
	if (n < 2 || n > UINT32_MAX || !(ng = groups_of(v, n, g)))
		return;
	key = malloc(n * sizeof *key);
	order = malloc(n * sizeof *order);
	tmp = malloc(n * sizeof *tmp);
	if (key && order && tmp && keys_of(v, n, g, ng, key)) {
		for (size_t i = 0; i < n; i++)
			order[i] = (uint32_t)i;
		merge_sort(order, tmp, n, key);
		permute(v, order, n);
	}
	free(key);
	free(order);
	free(tmp);
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

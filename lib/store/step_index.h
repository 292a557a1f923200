/*
 * step_index.h - which profiler step holds a time (step_index.c), for the
 * store's derivations at commit.
 */
#ifndef PROFDB_STEP_INDEX_H
#define PROFDB_STEP_INDEX_H

#include <stdint.h>
#include <sqlite3.h>

/* A host step span [start, end) of one rank. */
struct profdb__step_span {
	int64_t step, start, end;
};

/* One rank's spans cut into elementary segments at every start and end,
 * each labelled with the smallest step covering it: segment i is
 * [bound[i], bound[i + 1]).  Zero-initialise. */
struct profdb__step_segs {
	size_t nbound;
	int64_t *bound;            /* sorted, distinct; owned */
	int64_t *seg;              /* nbound - 1 labels, PROFDB_NULL = no step; owned */
};
/* Build from spans sp[0..n) (sorted by step, start < end).  0, or -1 out
 * of memory. */
int profdb__step_segs_build(struct profdb__step_segs *r, const struct profdb__step_span *sp, size_t n);
/* The smallest step whose span holds ns, PROFDB_NULL if none. */
int64_t profdb__step_segs_at(const struct profdb__step_segs *r, int64_t ns);
void profdb__step_segs_free(struct profdb__step_segs *r);

/* The spans of run run_id's step rows, per rank, read now (for C callers
 * that look many times up: store_ops.c's held ops).  *out owned by the
 * caller (profdb__step_index_free).  Returns an SQLite result code. */
struct profdb__step_index;
int profdb__step_index_load(sqlite3 *db, struct profdb__step_index **out, int64_t run_id);
/* The same from spans sp[0..n), span i of rank rk[i], sorted by rank then
 * step, each with start < end (both set). */
int profdb__step_index_build(struct profdb__step_index **out, const int64_t *rk, const struct profdb__step_span *sp,
                             size_t n);
/* The smallest step of rank whose span [start_ns, end_ns) holds ns, PROFDB_NULL if none. */
int64_t profdb__step_index_at(const struct profdb__step_index *ix, int64_t rank, int64_t ns);
void profdb__step_index_free(struct profdb__step_index *ix);
/*
 * Register the SQL function profdb_step_at(rank, ns) on db: the smallest
 * step of run run_id and that rank whose host span [start_ns, end_ns) holds
 * ns, or NULL.  The spans are read now, once; later changes to the step
 * table are not seen.  Returns an SQLite result code.
 */
int profdb__step_index_register(sqlite3 *db, int64_t run_id);
/* Remove the function and free its index. */
void profdb__step_index_unregister(sqlite3 *db);

#endif /* PROFDB_STEP_INDEX_H */

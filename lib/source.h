/*
 * source.h - where a handle's runs come from, behind one interface.
 *
 * profdb_open_with picks a source by the URL's scheme (the table in
 * source.c): a SQLite file (no scheme, or file://), or a read-only
 * snapshot of the runs on a ClickHouse server (clickhouse://,
 * clickhouses://; lib/clickhouse/).  Either way the handle's SQLite
 * connection holds the stored tables and every query reads them there.
 *
 * Before it reads, a query asks its source to prepare what it needs
 * (PROFDB__NEED_* bits, with the query's own arguments, as SQLite asks a
 * virtual table's xBestIndex): the source makes the rows exist, or makes a
 * relation of the groups the query would compute (grouped where the rows
 * are, so only the groups travel) and names it in struct profdb__rel.  A
 * query reads a named relation in place of grouping rows itself, and the
 * base tables where the name is NULL.  A file has every row: it names
 * nothing, and its prepare does nothing.  No query asks which source it
 * runs on.
 */
#ifndef PROFDB_SOURCE_H
#define PROFDB_SOURCE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* What a query reads: bits for prepare (arg says of what). */
enum {
	PROFDB__NEED_ROWS = 1u << 0,          /* every stored row of the runs (arg NULL) */
	PROFDB__NEED_KERNEL_GROUPS = 1u << 1, /* kernels' groups (arg: the kernel query);
	                                         the rows when the source cannot group it */
	PROFDB__NEED_KERNEL_ROWS = 1u << 2,   /* what kernels reads from rows (arg: the query) */
	PROFDB__NEED_STEP_GROUPS = 1u << 3,   /* steps' groups per run, rank and step (arg: filter) */
	PROFDB__NEED_RUN_FIGURES = 1u << 4,   /* a run list's counts per run and rank (arg NULL) */
	PROFDB__NEED_RUN_TOTALS = 1u << 5,    /* a summary's totals (arg: the filter) */
	PROFDB__NEED_DIFF = 1u << 6,          /* a comparison's samples (arg: int *key_in_step_stat) */
	PROFDB__NEED_OP_TREE = 1u << 7        /* the op rows of a diff --by op (arg NULL) */
};

/*
 * The relations a prepared query reads in place of grouping rows (names
 * of SQLite tables on the handle's connection; NULL: group the rows).
 * Each has the columns of the groups the query computes from rows.
 */
struct profdb__rel {
	/* kernels: kgroup (run_id, k0..kN-1, total, calls, avg, median, min,
	 * max, stddev, p90, p99, outside; per-step: the step is the last
	 * key), kden (run_id, t: device time under the filter), krep
	 * (run_id, n: the repeats) */
	const char *kgroup, *kden, *krep;
	/* steps: (run_id, rank, step, n, tot, s0, s1, busy, top_total, top) */
	const char *stepgroup;
	/* runs: krank (run_id, rank, kernels, total_device); summary and
	 * runs: runfig (local_id, kernels, total_device, elapsed, ops, total_cpu) */
	const char *krank, *runfig;
	/* diff: opstep (run_id, rank, step, self_ns, ops); keygroup: kernel's
	 * columns summed per run, rank, step and key column (dur_ns, calls) */
	const char *opstep, *keygroup;
	/* diff: kernel_step_stat stays with the source; the comparison gets
	 * its rows through the source's kstep_load */
	int kstep_load;
};

/*
 * kstep_load: the kernel_step_stat sums of runs runs[i].run_id under f's
 * rank and step filters, as stored (per rank, in no order), fetched at
 * once on threads of their own: for each run first its dictionary (text:
 * id, bytes), then its rows (row: name and base name as dictionary ids,
 * kind, step unless !has_step, sum of total_ns, of calls).  The callbacks
 * of one run are called from one thread, those of different runs from
 * different ones: each touches only its arg.  They return 0, or -1 when
 * out of memory (the error).
 */
typedef int (*profdb__kstep_text_fn)(void *arg, uint32_t id, const char *s, size_t n);
typedef int (*profdb__kstep_row_fn)(void *arg, int64_t name, int64_t base, int64_t kind, int has_step,
                                    int64_t step, int64_t sum, int64_t calls);
struct profdb__kstep_fetch {
	int64_t run_id;            /* the handle's run id */
	profdb__kstep_text_fn text;
	profdb__kstep_row_fn row;
	int (*reserve)(void *arg, uint64_t rows); /* NULL, or called between text and
	                              row with rows when known: 0, -1 out of memory */
	void *arg;
	uint64_t rows;             /* set there: the run's rows at the source, at most
	                              what row gets (filters drop some); 0 unknown */
};

/* One kind of source.  NULL operations do nothing (prepare: every row is
 * here; sql: the SQL is SQLite's, on the handle). */
struct profdb__source {
	/* Fill the new handle db (allocated, limits and remote settings set)
	 * from url; on failure the message is on db, which the caller closes. */
	int (*open)(profdb *db, const char *url, const struct profdb_open_opts *o);
	/* Make what need says exist for a query, naming grouped relations in
	 * *rel (zeroed by the caller).  Errors set on db. */
	int (*prepare)(profdb *db, unsigned need, const void *arg, struct profdb__rel *rel);
	/* profdb_sql in the source's own SQL (answered whole). */
	int (*sql)(profdb *db, profdb_result **out, const char *sql);
	/* The rows of rel.kstep_load (above). */
	int (*kstep_load)(profdb *db, const struct profdb_filter *f, struct profdb__kstep_fetch *runs, size_t n);
	/* Free db->source_state. */
	void (*close)(profdb *db);
};

/* The sources the scheme table (source.c) names. */
extern const struct profdb__source profdb__source_file;     /* db.c */
extern const struct profdb__source profdb__source_clickhouse; /* clickhouse/ch_open.c */

/* Ask db's source to prepare need (arg as the bit says); *rel is zeroed
 * first.  Inline: a query reaches its source through db->source only, so
 * it links to no source (nor to the scheme table that names them). */
static inline int profdb__source_prepare(profdb *db, unsigned need, const void *arg, struct profdb__rel *rel)
{
	*rel = (struct profdb__rel){ 0 };
	return db->source->prepare ? db->source->prepare(db, need, arg, rel) : PROFDB_OK;
}

#endif

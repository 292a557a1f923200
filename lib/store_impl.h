/*
 * store_impl.h - the store's state (store.c: records to rows; store_commit.c:
 * the derivations and COMMIT that end an ingest).  Private to those files.
 */
#ifndef PROFDB_STORE_IMPL_H
#define PROFDB_STORE_IMPL_H

#include <stdint.h>
#include <sqlite3.h>

#include "internal.h"
#include "intern.h"
#include "name_stats.h"
#include "op_nest.h"

/* Statements, one per table; indexes into st->stmt. */
enum {
	S_SOURCE, S_SOURCE_END, S_SKIP, S_KERNEL,
	S_OP, S_LAUNCH, S_STEP, S_STEP_METRIC, S_META, S_NOTE, S_KERNEL_COLL, S_COUNT
};

struct skip_count {
	char *reason;              /* owned */
	int64_t count, first;
};

/* What the store tracks about a source file being read.  One per reader
 * slot: with parallel readers, records of several files interleave. */
struct row_runs {
	struct profdb_row_run *v;
	size_t n, cap;
};

struct source_state {
	int64_t id;                /* source_file row, 0 = none */
	int64_t stored;            /* rows stored since source_begin */
	int64_t nkernels, nops, nlaunches; /* of which kernels, ops; and launch rows */
	struct skip_count *skips;  /* per reason */
	size_t nskips;
	/* the file's kernel and launch rows, for rank_fixup: one run each when
	 * readers are serial, one per batch at worst when they interleave;
	 * and its ops sent with nest = 1, nested at source_end (op_nest.c) */
	struct row_runs kernels, launches, ops;
};

#define STORE_SLOTS 64 /* most parallel readers (ingest caps --jobs to this) */

struct profdb_store {
	profdb *db;
	int64_t run_id;
	sqlite3_stmt *stmt[S_COUNT];
	struct profdb_intern *str; /* owned: the str table's map */
	struct profdb_sink sink;
	struct profdb_err err;
	struct source_state src[STORE_SLOTS]; /* per reader slot */
	struct source_state *cur;  /* the slot records are coming from */
	char *format;              /* owned */
	int64_t cache_was;         /* the connection's cache_size before the ingest */
	int fk_off;                /* foreign keys were switched off for the ingest */
	struct profdb_name_stats *names; /* owned: kernel_name_stat of the run */
	void (*phase)(void *arg, const char *what); /* what the commit is doing; may be NULL */
	void *phase_arg;
	char *metrics;             /* owned: JSON text of the current kernel's metrics */
	size_t metrics_cap;
};

/* Free st and put the connection's settings back (no ROLLBACK). */
void profdb__store_free(struct profdb_store *st);
/* Run sql on db; the SQLite message becomes db's error. */
int profdb__store_exec(profdb *db, const char *sql);

#endif

/*
 * ascend_db.h - what the files of the Ascend SQLite reader share: the
 * reader's state for one source database (ingest_ascend_db.c opens it and
 * reads rank and metadata, ascend_db_sql.c finds tables and columns by
 * name, ascend_db_links.c the steps and the host-op/task links,
 * ascend_db_ops.c the host operators, ascend_db_kernels.c the kernels).
 */
#ifndef PROFDB_ASCEND_DB_H
#define PROFDB_ASCEND_DB_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define ADB_NO_OP ((size_t)-1)     /* "no host op" index */

/* A step span from STEP_TIME (host ProfilerStep#N span). */
struct profdb__adb_span {
	int64_t step, start, end;  /* the step number and its [start, end) */
};

/* A CONNECTION_IDS row: PYTORCH_API.connectionId (id) -> task connection. */
struct profdb__adb_conn {
	int64_t conn;              /* the connectionId TASK and COMMUNICATION_OP carry */
	int64_t id;                /* the PYTORCH_API.connectionId it belongs to */
};

/* A host operator, kept until its self and device times are known. */
struct profdb__adb_hop {
	int64_t start, end, tid, conn_id, seq, step;
	int64_t line;              /* its row among PYTORCH_API's op rows, for skip counts */
	int64_t self, dev_self, dev_total, ai_self, ai_total;
	size_t parent;             /* enclosing op on the same thread, ADB_NO_OP if none */
	char *name, *shapes, *dtypes, *stack; /* owned */
};

/* Sort keys of an op, so qsort needs no context. */
struct profdb__adb_okey {
	int64_t a, b, c;           /* by id: (conn_id); nesting: (tid, start, -end) */
	size_t i;                  /* index into adb.ops */
};

/* The reader of one source database. */
struct profdb__adb {
	const struct profdb_reader_ctx *ctx;
	struct profdb_sink *sink;
	sqlite3 *db;               /* the source, read-only */
	const char *file;          /* the .db file */
	int64_t rank, device;      /* device: PROFDB_NULL unless known for the whole file */
	int64_t rows;              /* data records read */
	struct profdb__adb_span *steps;    /* sorted by start */
	size_t nsteps;
	struct profdb__adb_conn *conns;    /* sorted by conn */
	size_t nconns;
	struct profdb__adb_hop *ops;
	size_t nops;
	struct profdb__adb_okey *by_id;    /* ops sorted by conn_id */
	int linked;                /* the file has CONNECTION_IDS: device times can be derived */
};

/* ascend_db_sql.c: errors, columns, the source's schema by name */
int profdb__adb_fail_sql(struct profdb__adb *r, const char *what);
int profdb__adb_oom(struct profdb__adb *r);
int profdb__adb_skip(struct profdb__adb *r, const char *reason, int64_t where);
char *profdb__adb_dup_text(sqlite3_stmt *q, int col);
int64_t profdb__adb_col_i64(sqlite3_stmt *q, int col);
int64_t profdb__adb_col_ns(sqlite3_stmt *q, int col);
int profdb__adb_row_span(struct profdb__adb *r, sqlite3_stmt *q, int named, const char *const why[2], int64_t line,
                 int64_t *start, int64_t *end, int *rc);
int profdb__adb_has_table(struct profdb__adb *r, const char *table);
int profdb__adb_has_col(struct profdb__adb *r, const char *table, const char *col);
const char *profdb__adb_pick(struct profdb__adb *r, char *buf, size_t cap, const char *alias,
                     const char *table, const char *col, const char *alt);
const char *profdb__adb_str_of(struct profdb__adb *r, char *buf, size_t cap, const char *alias,
                       const char *table, const char *col, const char *alt);

/* ascend_db_links.c: steps, and which host op launched a task */
int profdb__adb_read_steps(struct profdb__adb *r);
int profdb__adb_read_conns(struct profdb__adb *r);
int64_t profdb__adb_step_at(const struct profdb__adb *r, int64_t t);
int profdb__adb_cmp_okey(const void *x, const void *y);
int64_t profdb__adb_kernel_step(const struct profdb__adb *r, int64_t conn, int64_t start);
void profdb__adb_charge(struct profdb__adb *r, int64_t conn, int64_t dur, const char *core);

/* ascend_db_ops.c: host operators, their nesting and self times */
int profdb__adb_read_ops(struct profdb__adb *r);
int profdb__adb_nest_ops(struct profdb__adb *r);
int profdb__adb_emit_ops(struct profdb__adb *r);

/* ascend_db_kernels.c: compute tasks with their PMU metrics, communication ops */
int profdb__adb_read_kernels(struct profdb__adb *r);
int profdb__adb_read_comm(struct profdb__adb *r);

#endif

/*
 * ch.h - private declarations of the ClickHouse module (lib/clickhouse/):
 * a connection over HTTP (ch_http.c), RowBinary encoding (ch_rowbin.c),
 * the tables a run is copied into (ch_tables.c), push (ch_push.c) and
 * pull (ch_pull.c).  Nothing here is public: cmd/ sees profdb.h only.
 */
#ifndef PROFDB_CH_H
#define PROFDB_CH_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "store/schema_sql.h"
#include "source.h"

/* schemas/clickhouse/NNN_*.sql, embedded by schemas/embed.py --table. */
extern const struct profdb__schema_file profdb__ch_schema_files[];

/* ---------------------------------------------------------------- source */

/* The clickhouse source's state of a handle (db->source_state): a
 * snapshot whose runs are listed in temp.ch_run (local_id, remote_id,
 * mask: the tables pulled so far, step_rows: its kernel_step_stat rows on
 * the server once a diff counted them). */
struct profdb__ch_snap {
	char *url;                 /* the server's URL (may hold a password) */
};
/* The snapshot's URL. */
const char *profdb__ch_url(const profdb *db);

/* Pull into the snapshot the tables of want (profdb__ch_table_bit, or
 * CH_ALL_TABLES) that its runs lack, so a SQLite query can run on it. */
int profdb__ch_ensure(profdb *db, unsigned want);
unsigned profdb__ch_table_bit(const char *name);
#define CH_ALL_TABLES 0xffffffffu

/* The source's operations (source.h) and its prepare for each need:
 * ch_sql.c, ch_kernels.c, ch_steps.c, ch_runs.c, ch_compare.c. */
int profdb__ch_query_sql(profdb *db, profdb_result **out, const char *sql);
int profdb__ch_prepare_kernels(profdb *db, const struct profdb_kernel_query *q, struct profdb__rel *rel);
int profdb__ch_prepare_kernel_rows(profdb *db, const struct profdb_kernel_query *q);
int profdb__ch_prepare_steps(profdb *db, const struct profdb_filter *f, struct profdb__rel *rel);
int profdb__ch_prepare_run_figures(profdb *db, struct profdb__rel *rel);
int profdb__ch_prepare_run_totals(profdb *db, const struct profdb_filter *f, struct profdb__rel *rel);
int profdb__ch_prepare_diff(profdb *db, int key_in_step_stat, struct profdb__rel *rel);
int profdb__ch_kernel_steps(profdb *db, const struct profdb_filter *f, struct profdb__kstep_fetch *runs,
                            size_t n);

/* ---------------------------------------------------------------- buffer */

/* A growable byte buffer; the owner frees data. */
struct profdb__ch_buf {
	char *data;                /* malloc'd, NULL when empty */
	size_t len, cap;
};
int profdb__ch_buf_add(struct profdb__ch_buf *b, const void *p, size_t n); /* 0, -1 out of memory */
void profdb__ch_buf_free(struct profdb__ch_buf *b);

/* ---------------------------------------------------------------- http */

struct profdb__ch;                 /* one server connection (ch_http.c) */

/*
 * Parse url (clickhouse://[user[:password]@]host[:port]/database, or
 * clickhouses:// for TLS; default ports 8123 / 8443) and make a connection
 * object; nothing is sent yet.  The password comes from the URL, else
 * ro's password, else a netrc file (ro's, or ~/.netrc); ro (NULL: the
 * defaults) also gives the CA file and the idle-read timeout.  Messages
 * never contain the password.  Errors: PROFDB_EUSAGE (bad URL).
 */
int profdb__ch_open(struct profdb__ch **out, const char *url, const struct profdb__remote *ro,
                    struct profdb_err *err);
void profdb__ch_close(struct profdb__ch *c); /* NULL is a no-op */
/* Another handle to c's server and database (a curl handle is one
 * request at a time: a thread streaming its own INSERT needs its own). */
int profdb__ch_dup(const struct profdb__ch *c, struct profdb__ch **out, struct profdb_err *err);
/* "host:port/database" for messages (borrowed). */
const char *profdb__ch_where(const struct profdb__ch *c);
/* Is url a clickhouse:// or clickhouses:// URL? */
int profdb__ch_is_url(const char *url);

/*
 * Send one statement.  With data (INSERT ... FORMAT RowBinary), sql goes in
 * the URL and data is the body; else sql is the body.  use_db: run in the
 * URL's database (0 only to create it).  The response body goes to sink
 * chunk by chunk (may be NULL: discarded); sink returns 0, or -1 to stop
 * (its err already set).  A server that cannot be reached or answers an
 * error: PROFDB_ERROR with one line naming the server.  So is a 200 whose
 * body is not known to be whole (no Content-Length or chunked framing, or
 * the connection closed before its end), and a request the server sends
 * and takes nothing for the idle-read timeout (the remote settings').
 * A sink decoding RowBinary checks at the end that no partial row is left.
 */
typedef int (*ch_sink_fn)(void *arg, const char *p, size_t n);
int profdb__ch_send(struct profdb__ch *c, const char *sql, const void *data, size_t ndata,
                    int use_db, ch_sink_fn sink, void *arg, struct profdb_err *err);
/*
 * Send sql (an INSERT ... FORMAT RowBinary) with a body that read produces
 * on the fly, streamed (chunked): read fills at most cap bytes of buf and
 * returns how many, 0 at the end, -1 to abort (its err already set).
 * Memory stays bounded however many rows go.  settings: NULL, or the
 * query's settings as URL parameters ("name=value&name=value", constant
 * text: not escaped).
 */
typedef long (*ch_read_fn)(void *arg, char *buf, size_t cap);
int profdb__ch_upload(struct profdb__ch *c, const char *sql, const char *settings, ch_read_fn read, void *arg,
                      struct profdb_err *err);
/* profdb__ch_send without a body, for an answer the caller keeps whole
 * in memory (a list, not rows streamed into a store): an answer past
 * PROFDB__CH_HELD_MAX bytes is an error, not a buffer that grows without
 * end.  profdb__ch_query is bounded the same way. */
#define PROFDB__CH_HELD_MAX ((size_t)256 << 20)
int profdb__ch_send_held(struct profdb__ch *c, const char *sql, ch_sink_fn sink, void *arg,
                         struct profdb_err *err);
/* From now on c's requests carry readonly=2, so the server itself refuses
 * any statement that would change it (DDL, INSERT, ...). */
void profdb__ch_set_readonly(struct profdb__ch *c);
/* Same, collecting the whole response into resp (appended). */
int profdb__ch_query(struct profdb__ch *c, const char *sql, struct profdb__ch_buf *resp,
                     struct profdb_err *err);
/* Create the database and apply the embedded schema files newer than the
 * version the server records (table profdb_schema).  Idempotent. */
int profdb__ch_ensure_schema(struct profdb__ch *c, struct profdb_err *err);
/* PROFDB_ESCHEMA, with the message saying what to do, for a database
 * holding runs pushed before schema 4 (kernel texts per row); else OK. */
int profdb__ch_check_layout(struct profdb__ch *c, struct profdb_err *err);

/* ---------------------------------------------------------------- rowbinary */

/* Column types of the copied tables (RowBinary encodings). */
enum profdb__ch_type {
	CH_U64 = 0,                /* UInt64 (run ids) */
	CH_I64,                    /* Int64 */
	CH_NI64,                   /* Nullable(Int64) */
	CH_F64,                    /* Float64 */
	CH_NF64,                   /* Nullable(Float64) */
	CH_STR,                    /* String */
	CH_NSTR,                   /* Nullable(String) */
	CH_U32                     /* UInt32 (dictionary ids, as stored) */
};

/* One decoded value; s points into the decoder's buffer. */
struct profdb__ch_val {
	int null;                  /* 1: NULL */
	int64_t i;                 /* CH_U64 (as bits), CH_I64, CH_NI64 */
	double d;                  /* CH_F64, CH_NF64 */
	const char *s;             /* CH_STR, CH_NSTR: not NUL-terminated */
	size_t n;                  /* bytes at s */
};

int profdb__ch_put_u64(struct profdb__ch_buf *b, uint64_t v);
int profdb__ch_put_u32(struct profdb__ch_buf *b, uint32_t v);
int profdb__ch_put_f64(struct profdb__ch_buf *b, double v);
int profdb__ch_put_str(struct profdb__ch_buf *b, const char *s, size_t n);
int profdb__ch_put_null(struct profdb__ch_buf *b, int null); /* the Nullable flag byte */
/*
 * Decode one row of ncols columns of types from p[0..n).  Returns the bytes
 * it took, 0 when the row is not complete yet (more data needed).
 */
size_t profdb__ch_get_row(const char *p, size_t n, const enum profdb__ch_type *types, size_t ncols,
                          struct profdb__ch_val *vals);

/* ---------------------------------------------------------------- tables */

/* How a column maps between SQLite and ClickHouse. */
enum {
	CHC_STR_REF = 1,           /* SQLite holds a str id; ClickHouse the text */
	CHC_RUN_ID = 2,            /* the run's id (remote on the server, local in SQLite) */
	CHC_SEQ = 4,               /* row order: SQLite rowid, not stored back */
	CHC_HASH = 8,              /* the run's content hash: server only */
	CHC_SRC_DEF = 16,          /* source_file.id: renumbered on pull */
	CHC_SRC_REF = 32,          /* source_skip.source_id: follows the renumbering */
	CHC_BLOB = 64,             /* SQLite holds a BLOB (not TEXT): pulled back as one */
	CHC_DICT = 128,            /* with CHC_STR_REF: stored as a UInt32 id into the run's
	                            * dictionary (kernel_str), column sq; read back as text */
	CHC_ID_DEF = 256,          /* with CHC_SEQ: the row's SQLite id, which other tables'
	                            * CHC_ID_REF point to; pull gives the copies ids at the
	                            * same distances from the run's first (schema 005) */
	CHC_ID_REF = 512,          /* a kernel id, stored as its position (the id less the
	                            * run's first kernel id); pull maps it back */
	CHC_OF_COMM_OP = 1024      /* with CHC_ID_REF: a comm_op id, not a kernel's */
};

struct profdb__ch_col {
	const char *ch;            /* ClickHouse column */
	enum profdb__ch_type type;
	const char *sq;            /* SQLite column (of alias t); NULL: none (server only) */
	int flags;                 /* CHC_* */
};

/* The table a CHC_ID_REF column's ids are of. */
static inline const char *profdb__ch_ref_table(const struct profdb__ch_col *c)
{
	return c->flags & CHC_OF_COMM_OP ? "comm_op" : "kernel";
}

struct profdb__ch_table {
	const char *name;          /* ClickHouse table = SQLite table */
	const char *from;          /* SQLite FROM clause (alias t) */
	const char *run_col;       /* SQLite expression of the run id */
	const char *order;         /* SQLite ORDER BY of a push */
	const struct profdb__ch_col *cols;
	size_t ncols;
	/* NULL: rows are stored in table name.  Else the table they are
	 * stored in, with CHC_DICT columns as ids (name is then a VIEW that
	 * maps them back: schemas/clickhouse/004_kernel_ids.sql) */
	const char *store;
	/* NULL, or a query of the least and greatest id of the run's rows
	 * (?1 the run id), for a table read in id order: with "from" NOT
	 * INDEXED the SELECT walks that range of the table itself (t.id
	 * BETWEEN them), no index, no sort */
	const char *id_range;
};

/* The dictionary table of the CHC_DICT columns: (run_id, id, text). */
#define CH_DICT_TABLE "kernel_str"

/* The column list of t as stored on the server (CHC_DICT columns by their
 * id column) into b, NUL-terminated; 0, -1 out of memory. */
int profdb__ch_store_cols(struct profdb__ch_buf *b, const struct profdb__ch_table *t);

/* The run row (written last on push, first on pull). */
extern const struct profdb__ch_table profdb__ch_run_table;
/* The tables of a run's rows, in push order; ends with name == NULL. */
extern const struct profdb__ch_table profdb__ch_tables[];

/* ---------------------------------------------------------------- runs */

/* A run stored on the server. */
struct profdb__ch_run {
	uint64_t id;
	char *name;                /* malloc'd */
	char *hash;                /* malloc'd */
};
/* Every run row on the server in push order (pushed_at, then the id the
 * run had in its SQLite file), so the newest of equal names comes last; *out (malloc'd, with its strings) is freed by profdb__ch_runs_free. */
int profdb__ch_runs(struct profdb__ch *c, struct profdb__ch_run **out, size_t *n, struct profdb_err *err);
void profdb__ch_runs_free(struct profdb__ch_run *r, size_t n);

/* ---------------------------------------------------------------- pull */

/* Sets of tables: bit i is profdb__ch_tables[i]. */
/* profdb_run_pull, with the run row and the tables of mask only; *local_id
 * and *remote_id (may be NULL) receive the run's ids here and there. */
int profdb__ch_pull(profdb *db, const char *url, const char *run, int replace, unsigned mask,
                    struct profdb_push_stats *out, int64_t *local_id, uint64_t *remote_id);
/* The tables of mask of remote run remote into local run local, which
 * has none of them yet; one transaction. */
int profdb__ch_pull_more(profdb *db, const char *url, uint64_t remote, int64_t local, unsigned mask);
/* The bit of table name in a mask (0 if unknown). */

/* ---------------------------------------------------------------- groups */

/*
 * Send sql (ending in FORMAT RowBinary) to the snapshot's server and give
 * each row, decoded as types, to row (0, or -1 with err set).  Errors are
 * set on db.  At most 22 columns.
 */
typedef int (*ch_row_fn)(void *arg, const struct profdb__ch_val *v, struct profdb_err *err);
int profdb__ch_rows(profdb *db, const char *sql, const enum profdb__ch_type *types, size_t ncols,
                    ch_row_fn row, void *arg);
/* The same on its own connection to url (with ro's settings), the error
 * in err (not on a profdb: a thread of its own may call it); err->code. */
int profdb__ch_rows_at(const char *url, const struct profdb__remote *ro, const char *sql, const enum profdb__ch_type *types, size_t ncols,
                       ch_row_fn row, void *arg, struct profdb_err *err);

/*
 * " WHERE ..." of f on the server's kernel table as profdb__qfilter_where
 * writes it for SQLite: runs and tags (by the snapshot's ids), rank, step
 * range; unless for_total, the name glob and the kind.  1 when written, 0
 * when the server cannot apply f (a glob with [...]), or an error code
 * (set on db).  Values are integers or escaped literals (ch_groups.c).
 */
struct profdb__qbuf;
int profdb__ch_kernel_where(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f, int for_total);

/* The marker row of a run whose kernels carry a step while its
 * kernel_step_stat rows are not in the snapshot (step 0, no calls), so
 * that profdb__qfilter_selected_steps sees the run's steps; a pull of the
 * rows deletes it (ch_kernels.c).  diff (ch_compare.c) and kernels
 * --per-step (ch_groups.c) put it.  ?1 the remote run id, ?2
 * profdb__ch_table_bit("kernel_step_stat"); the str '' must exist. */
#define PROFDB__CH_STEP_MARKER_SQL \
	"INSERT INTO kernel_step_stat (run_id, rank, step, name_id, base_id, kind, calls, total_ns)" \
	" SELECT local_id, 0, 0, (SELECT id FROM str WHERE value = ''), (SELECT id FROM str WHERE value = '')," \
	" (SELECT min(id) FROM kind), 0, 0 FROM temp.ch_run WHERE remote_id = ?1 AND (mask & ?2) = 0"

/* " ANY LEFT JOIN" of the dictionaries of the runs f selects as rows
 * (run_id, name_id, name): joined per group, not copied into each as one
 * array per run (steps: 569 k groups, 6.4 s -> 1.5 s). */
int profdb__ch_name_join_runs(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f);

/* diff keys with type, shape or core (ch_kgroups.c): temp.profdb_keygroup, the
 * snapshot's runs' kernel sums and counts per rank, step, name, base name,
 * kind, type, input shapes and core, grouped by the server. */
int profdb__ch_kernel_groups(profdb *db);

/* profdb kernels grouped by the server (ch_groups.c): fills the TEMP
 * tables query_kernels.c then reads (profdb_kgroup, profdb_kden, profdb_krep).  1 done, 0
 * when the server does not group this query (the rows are pulled), or an
 * error code with the message on db. */
int profdb__ch_group_kernels(profdb *db, const struct profdb_kernel_query *q);

/*
 * A run's dictionary of CHC_DICT texts while its rows stream: SQLite str
 * id -> dense id (1, 2, ... in the order first met), open addressing, and
 * the texts in dense-id order, sent to kernel_str after the rows.  It holds
 * each distinct text of the run once (a few hundred names and shapes for a
 * run of millions of kernels), not rows.
 */
struct profdb__ch_dict {
	int64_t *keys;             /* SQLite str ids; 0: empty slot */
	uint32_t *vals;            /* their dense ids */
	size_t cap, n;             /* slots (a power of two), ids given */
	struct profdb__ch_buf body; /* kernel_str rows (run_id, id, text), RowBinary */
};

void profdb__ch_dict_clear(struct profdb__ch_dict *d);

/* ch_pull.c: a run's dictionary read back, as an array dense id -> local
 * str id (0: none): dict[id] = local, the array (*n entries) grown with
 * zeros to hold id; 0, -1 out of memory.  Pull and the server's kernel
 * sums (ch_kgroups.c) both map ids through it. */
int profdb__ch_dict_set(int64_t **dict, size_t *n, size_t id, int64_t local);

/* ch_push_rows.c: stream the rows of run_id in t (local id) of db's store
 * to the server as remote_id (a big run's kernels in parallel parts, each
 * with its own connection to db's file and its own handle like ch); the texts of CHC_DICT columns go into dict (NULL for a
 * table without them); rows (may be NULL) grows by the rows sent. */
int profdb__ch_push_table(struct profdb__ch *ch, profdb *db, const struct profdb__ch_table *t,
                          int64_t run_id, uint64_t remote_id, const char *hash, struct profdb__ch_dict *dict,
                          int64_t *rows, struct profdb_err *err);

#endif

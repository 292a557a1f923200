/*
 * internal.h - declarations shared between libprofdb's own files.
 *
 * Nothing here is public: cmd/ sees only profdb.h.  The data flow is
 * detect -> reader -> sink -> store (see doc/DESIGN.md): readers turn
 * bytes into the records below and hand them to a struct profdb_sink; the
 * store is the sink that writes SQLite.  Readers know nothing of SQL.
 */
#ifndef PROFDB_INTERNAL_H
#define PROFDB_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <sqlite3.h>

#include "profdb.h"

#define PROFDB_ERRMAX 8192 /* longest error message kept: two paths of PATH_MAX and a reason;
                            * longer ones lose their middle, never the end (db.c) */

/* profdb_set_remote's settings, copied (the strings owned). */
struct profdb__remote {
	char *password, *netrc, *cainfo; /* NULL: none */
	int read_timeout_s;
};

struct profdb__source;

/* The handle behind the opaque typedef. */
struct profdb {
	sqlite3 *sql;              /* the connection */
	int readonly;              /* opened with PROFDB_OPEN_READONLY */
	char *path;                /* the database file as given (owned), for messages */
	char errmsg[PROFDB_ERRMAX]; /* last error, "" if none */
	const struct profdb__source *source; /* where the runs come from (source.h) */
	void *source_state;        /* the source's own, freed by its close */
	int wal_later;             /* a new file: rollback journal until the first ingest commits (db.c) */
	FILE *stream_out;          /* profdb_result_stream: the next streamed query writes here */
	const struct profdb_format_opts *stream_fmt; /* ... in this format (borrowed) */
	/* ... by the report side's writer (report/result_write.c): st's rows
	 * into r, written as they come; the last part left in r */
	int (*stream_write)(profdb *db, sqlite3_stmt *st, profdb_result *r, FILE *out,
	                    const struct profdb_format_opts *fmt, int types_known);
	struct profdb_limits limits; /* profdb_set_limits; PROFDB_LIMITS_INIT at open */
	struct profdb__remote remote_opts; /* profdb_set_remote; the defaults at open */
};

/* A second read-only connection to db's file for another thread; an
 * SQLite code, SQLITE_MISUSE where there is no file (db.c). */
int profdb__db_open_reader(const profdb *db, sqlite3 **out);
/* Open (creating unless NOCREATE/READONLY) the SQLite file at path into
 * the new handle db: profdb_open's file source (db.c). */
int profdb__db_open_file(profdb *db, const char *path, unsigned flags);
/* Switch a new file to WAL once its first ingest has committed (db.c). */
void profdb__db_wal_now(profdb *db);
/* The name of the VFS that opens SQLite files of any path length (the
 * unix one, with long paths named through their folder: vfs_longpath.c),
 * registered on first use; NULL (the default VFS) if it cannot be. */
const char *profdb__vfs_longpath(void);

/* PROFDB_OK when an options struct's version field (got) is the version
 * this library was built with (want), else PROFDB_EUSAGE naming the
 * struct type, with the message on db (db may be NULL: no message). */
int profdb__version_check(profdb *db, unsigned got, unsigned want, const char *type);

/* The kernel step rows one diff may hold in memory over all its runs, and
 * their bytes (compare_rows.c; diff_rows and diff_bytes of db's limits). */
size_t profdb__compare_rows_budget(const profdb *db);
size_t profdb__compare_bytes_budget(const profdb *db);
/* Whether runs with these step rows, distinct (name, base, kind), and
 * dictionary texts and bytes fit in that budget (a source's prepare asks). */
int profdb__compare_rows_fit(const profdb *db, uint64_t rows, uint64_t combos, uint64_t texts,
                             uint64_t text_bytes);
/* The grouping keys of a kernels --by text, in output order: each one's
 * kernel column (NULL for a tag:KEY) and how it resolves (query_kernels.c
 * key_def: 0 integer, 1 str id, 2 kind id, 3 tag); at most 10.  EUSAGE
 * with kernels' own message for a bad key. */
int profdb__kernels_keys(profdb *db, const char *by, const char **exprs, int *resolve, size_t *n);

/* Set db's message (printf-style) and return code.  Always returns code. */
int profdb__error(profdb *db, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Same, appending ": <sqlite message>" of db->sql. */
int profdb__sqlerror(profdb *db, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* An error buffer readers fill; copied to the handle by the caller. */
struct profdb_err {
	int code;                  /* PROFDB_OK or the first error's code */
	char msg[PROFDB_ERRMAX];   /* its message */
};
int profdb__err_set(struct profdb_err *e, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* sql_guard.c: refuse an input SQLite file (another tool's) that has views
 * or fails PRAGMA quick_check; the message names file.  src is open. */
int profdb__sql_source_check(sqlite3 *src, const char *file, struct profdb_err *err);
/* sql_guard.c: prepare sql, which must be exactly one statement (PROFDB_EUSAGE
 * for none or several, the SQLite error for bad SQL).  *out is finalized by
 * the caller. */
int profdb__sql_prepare_one(profdb *db, sqlite3_stmt **out, const char *sql);
/* query_runs.c: run one statement, unguarded, and collect its rows (types
 * from the values); on a clickhouse snapshot the server runs it. */
int profdb__sql_collect(profdb *db, profdb_result **out, const char *sql);

/* ---------------------------------------------------------------- records */

/* Device activity kinds; the numbers are the ids of the kind table. */
enum profdb_kind {
	PROFDB_KIND_KERNEL = 0,
	PROFDB_KIND_MEMCPY = 1,
	PROFDB_KIND_MEMSET = 2,
	PROFDB_KIND_COMM = 3,
	PROFDB_KIND_OTHER = 4,
	PROFDB_KIND_WALLCLOCK = 5  /* a timed benchmark repeat (schema 006_bench) */
};

/* Whether name is a collective library's kernel (nccl*, rccl*, msccl*,
 * hcom_*, without case; kind.c).  NULL: no. */
int profdb__kind_is_comm_name(const char *name);
/* The kind of a device activity a reader classed as kind from its category:
 * a compute kernel with a collective's name is communication, the same rule
 * for every vendor (doc/definitions.md "Communication"). */
int profdb__kind_of_device(int kind, const char *name);
/* Kind of an MTIA device event (cat mtia_ccp_events) by its name: memcpy
 * for a DMA transfer, else kernel. */
int profdb__kind_of_mtia(const char *name);

/* One PMU metric of a kernel. */
struct profdb_metric {
	const char *name;          /* column name, e.g. "aic_mac_ratio" */
	double value;
};
/* The metric a copy's own bandwidth is stored as (Kineto's arg name). */
#define PROFDB_METRIC_GBPS "memory bandwidth (GB/s)"

/* The JSON object of n metrics (metrics_json.c) into *buf, a buffer of
 * *cap bytes the caller owns and frees, grown as needed; -1 out of memory. */
int profdb__metrics_json(const struct profdb_metric *m, size_t n, char **buf, size_t *cap);

/*
 * The collective arguments of a communication kernel (Kineto NCCL kernel
 * args "Collective name", "In msg nelems", ...; stored in kernel_coll,
 * schema 007).  Strings borrowed, int64 fields PROFDB_NULL when absent.
 */
struct profdb_coll_rec {
	const char *collective;    /* the profiler's name: allreduce, allgather, ... */
	int64_t in_nelems, out_nelems; /* elements of the input / output message */
	const char *dtype;         /* c10 scalar type name: Float, BFloat16, ... */
	int64_t group_size;        /* ranks in the process group */
	const char *pg_name, *pg_desc, *pg_ranks; /* process group name, description, "[0, 1]" */
};

/*
 * One device activity.  Strings are borrowed for the duration of the sink
 * call (NULL = absent); int64 fields use PROFDB_NULL for absent.  Initialise
 * with profdb__kernel_rec_init().
 */
struct profdb_kernel_rec {
	int64_t rank;              /* PROFDB_NULL: the source's default rank */
	int64_t device, stream, step;
	const char *name;          /* required */
	int kind;                  /* enum profdb_kind */
	const char *type;          /* op type */
	const char *core;          /* accelerator core / activity category */
	int64_t start_ns, dur_ns;  /* required */
	int64_t wait_ns;
	int64_t task_id, model_id, context_id;
	int64_t correlation, external_id;
	int64_t block_dim, mix_block_dim;
	const char *grid, *block;  /* CUDA "[x, y, z]" text */
	int64_t registers, shared_mem, bytes;
	const char *op_state;
	int64_t hf32;              /* 1, 0 or PROFDB_NULL */
	const char *in_shapes, *in_dtypes, *in_formats;
	const char *out_shapes, *out_dtypes, *out_formats;
	const char *launch_op;
	const struct profdb_metric *metrics; /* nmetrics entries, borrowed */
	size_t nmetrics;
	const struct profdb_coll_rec *coll; /* collective args, borrowed; NULL: none */
};
void profdb__kernel_rec_init(struct profdb_kernel_rec *k);

/* One host operator instance.  Same conventions as the kernel record. */
struct profdb_op_rec {
	int64_t rank, step;
	const char *name;          /* required */
	const char *category;      /* cpu_op, user_annotation, ... */
	int64_t tid;
	int64_t start_ns, dur_ns, self_ns;
	int64_t device_self_ns, device_total_ns;
	int64_t device_self_aicore_ns, device_total_aicore_ns;
	int64_t external_id, seq;
	const char *in_shapes, *in_types, *call_stack;
	const char *in_concrete;   /* Kineto "Concrete Inputs" as written */
	/* 1: self_ns, device_self_ns and device_total_ns are for the sink to
	 * compute once the file has ended (sinks with nests_ops only) */
	int nest;
};
void profdb__op_rec_init(struct profdb_op_rec *o);

/* A runtime launch call (Kineto cuda_runtime & co). */
struct profdb_launch_rec {
	int64_t rank, correlation, tid, start_ns, dur_ns, external_id;
	const char *name;
};

/* A profiler step span; start/end PROFDB_NULL when only the number is known. */
struct profdb_step_rec {
	int64_t rank, step, start_ns, end_ns;
};
/* run_meta key of the step spans seen on the device timeline (Kineto's
 * gpu_user_annotation ProfilerStep#N), as JSON [[step, start_ns, end_ns], ...]:
 * the store places kernels whose launch is unknown with them. */
#define PROFDB_META_DEVICE_STEPS "device_step_spans"

/*
 * One record of Ascend communication.json / communication_matrix.json
 * (ingest_ascend_comm.c; tables comm_op, comm_transport, comm_link of
 * schema 009).  An OP opens the op that the TRANSPORT records after it (in
 * the same file) belong to.  Strings borrowed for the call; int64 fields
 * PROFDB_NULL and doubles NAN when absent.  Sizes are bytes (the export's
 * MB x 10^6), times ns.
 */
enum profdb_comm_what { PROFDB_COMM_OP = 1, PROFDB_COMM_TRANSPORT, PROFDB_COMM_LINK };
struct profdb_comm_rec {
	int what;                  /* enum profdb_comm_what */
	int64_t rank, step;
	const char *scope;         /* collective or p2p */
	const char *op_name;       /* OP: the HCCL op; LINK: its Op Name */
	const char *group;         /* OP, LINK: the communication group (after '@') */
	const char *matrix_op;     /* LINK: allreduce-top1, allreduce-total, ... */
	const char *transport;     /* TRANSPORT, LINK: RDMA, HCCS, SDMA, ..., LOCAL */
	const char *size_dist;     /* TRANSPORT: Size Distribution as JSON */
	int64_t src_rank, dst_rank;                         /* LINK */
	int64_t start_ns, elapse_ns, wait_ns, sync_ns, idle_ns; /* OP */
	int64_t transit_ns;        /* all three */
	int64_t bytes;             /* TRANSPORT, LINK */
	double wait_ratio, sync_ratio;                      /* OP */
	double bandwidth_gbps, large_packet_ratio;          /* TRANSPORT, LINK; LINK: bandwidth only */
};

/*
 * One allocator event (Kineto "[memory]" instant: bytes, addr, totals when
 * written) or one sample of the allocator's totals (Ascend
 * memory_record.csv: component and totals, no bytes).  Strings borrowed
 * for the call; int64 fields PROFDB_NULL when absent.  Sizes in bytes
 * (Ascend's MB are 2^20 bytes), times ns; tables of schema 012.
 */
struct profdb_mem_rec {
	int64_t rank;
	const char *device_type;   /* required: CPU, CUDA, NPU, ... */
	int64_t device_id;
	const char *component;     /* Ascend APP, PTA, GE, PTA+GE; NULL for Kineto */
	int64_t ts_ns;             /* required */
	int64_t bytes, addr;       /* Kineto Bytes (< 0: freed) and Addr */
	int64_t total_allocated, total_reserved, total_active;
	int64_t step, tid;
};

/*
 * One row of Ascend operator_memory.csv (table op_memory, schema 014): a
 * block an operator allocated.  Strings borrowed for the call; int64
 * fields PROFDB_NULL when absent; bytes (Size(KB) * 1024; MB are 2^20),
 * times ns.
 */
struct profdb_opmem_rec {
	int64_t rank;
	const char *device_type;   /* required */
	int64_t device_id;
	const char *name;          /* required */
	int64_t bytes;             /* required */
	int64_t alloc_ns, release_ns, active_release_ns;
	int64_t alloc_total[3];    /* allocated, reserved, active at the allocation */
	int64_t release_total[3];  /* the same after the release */
	int64_t stream_ptr, step;
};

/* ---------------------------------------------------------------- sink */

/*
 * Where readers send records.  Every callback returns PROFDB_OK or an error
 * code (having filled err); a reader stops at the first error.  Callbacks
 * may be NULL (the record is then dropped: only for tests).
 *
 * A reader calls source_begin before the records of a file and source_end
 * after them, so the store can count rows per file.
 */
struct profdb_sink {
	void *arg;                 /* passed to every callback */
	struct profdb_err *err;    /* where callbacks report errors */
	int (*source_begin)(void *arg, const char *path, const char *role,
	                    int64_t rank, const unsigned char *content, size_t content_len);
	/* rows_read: data records seen; sha256: hex digest of the file's bytes
	 * (NULL if not computed); size: bytes on disk */
	int (*source_end)(void *arg, int64_t rows_read, const char *sha256, uint64_t size);
	int (*skip)(void *arg, const char *reason, int64_t where);
	int (*kernel)(void *arg, const struct profdb_kernel_rec *k);
	int (*op)(void *arg, const struct profdb_op_rec *o);
	int (*launch)(void *arg, const struct profdb_launch_rec *l);
	int (*step)(void *arg, const struct profdb_step_rec *s);
	int (*step_metric)(void *arg, int64_t rank, int64_t step, const char *metric, double value);
	int (*meta)(void *arg, int64_t rank, const char *key, const char *value);
	int (*note)(void *arg, const char *note);
	int (*comm)(void *arg, const struct profdb_comm_rec *c);
	/*
	 * Kernels, launches and ops (nest = 1) of the current file sent before
	 * its rank and base time were sure (Kineto keys after traceEvents)
	 * carry a guessed rank and times: this moves those sent since source_begin from
	 * guessed_rank to rank and adds time_offset_ns to their start times,
	 * and sets the file's rank.  The reader holds its other records back
	 * until it knows.  NULL: the reader reads such a file twice instead.
	 */
	int (*rank_fixup)(void *arg, int64_t guessed_rank, int64_t rank, int64_t time_offset_ns);
	/*
	 * Nonzero: ops sent with nest = 1 get their self time (duration minus
	 * direct children's on the same rank and tid, nested as torch's
	 * key_averages does), device self time (kernels of the file with their
	 * External id) and device total time from the sink when their file
	 * ends, so a reader need not keep them.  0: the reader computes them.
	 */
	int nests_ops;
	/* an allocator event or sample (schema 012); rank_fixup moves the
	 * file's ones too */
	int (*memory)(void *arg, const struct profdb_mem_rec *m);
	/* an operator_memory.csv row (schema 014) */
	int (*op_memory)(void *arg, const struct profdb_opmem_rec *m);
};

/*
 * Checked calls of the sink's callbacks: a NULL callback drops the record
 * and returns PROFDB_OK, as the contract above says.  Readers call the
 * sink through these.  (rank_fixup has none: its absence changes how a
 * reader reads, so the reader tests it.)
 */
static inline int profdb__sink_source_begin(struct profdb_sink *s, const char *path, const char *role,
                                            int64_t rank, const unsigned char *content, size_t len)
{
	return s->source_begin ? s->source_begin(s->arg, path, role, rank, content, len) : PROFDB_OK;
}
static inline int profdb__sink_source_end(struct profdb_sink *s, int64_t rows_read, const char *sha256,
                                          uint64_t size)
{
	return s->source_end ? s->source_end(s->arg, rows_read, sha256, size) : PROFDB_OK;
}
static inline int profdb__sink_skip(struct profdb_sink *s, const char *reason, int64_t where)
{
	return s->skip ? s->skip(s->arg, reason, where) : PROFDB_OK;
}
static inline int profdb__sink_kernel(struct profdb_sink *s, const struct profdb_kernel_rec *k)
{
	return s->kernel ? s->kernel(s->arg, k) : PROFDB_OK;
}
static inline int profdb__sink_op(struct profdb_sink *s, const struct profdb_op_rec *o)
{
	return s->op ? s->op(s->arg, o) : PROFDB_OK;
}
static inline int profdb__sink_launch(struct profdb_sink *s, const struct profdb_launch_rec *l)
{
	return s->launch ? s->launch(s->arg, l) : PROFDB_OK;
}
static inline int profdb__sink_step(struct profdb_sink *s, const struct profdb_step_rec *st)
{
	return s->step ? s->step(s->arg, st) : PROFDB_OK;
}
static inline int profdb__sink_step_metric(struct profdb_sink *s, int64_t rank, int64_t step,
                                           const char *metric, double value)
{
	return s->step_metric ? s->step_metric(s->arg, rank, step, metric, value) : PROFDB_OK;
}
static inline int profdb__sink_meta(struct profdb_sink *s, int64_t rank, const char *key, const char *value)
{
	return s->meta ? s->meta(s->arg, rank, key, value) : PROFDB_OK;
}
static inline int profdb__sink_note(struct profdb_sink *s, const char *note)
{
	return s->note ? s->note(s->arg, note) : PROFDB_OK;
}
static inline int profdb__sink_comm(struct profdb_sink *s, const struct profdb_comm_rec *c)
{
	return s->comm ? s->comm(s->arg, c) : PROFDB_OK;
}

static inline int profdb__sink_memory(struct profdb_sink *s, const struct profdb_mem_rec *m)
{
	return s->memory ? s->memory(s->arg, m) : PROFDB_OK;
}
static inline int profdb__sink_op_memory(struct profdb_sink *s, const struct profdb_opmem_rec *m)
{
	return s->op_memory ? s->op_memory(s->arg, m) : PROFDB_OK;
}

/* ---------------------------------------------------------------- input */

/*
 * A byte stream over a file, transparently gunzipped when it starts with the
 * gzip magic.  Tracks the offset (in decompressed bytes) for error messages
 * and the SHA-256 of the raw file bytes.
 */
struct profdb_input;
/* CONSTRUCTOR. Errors: PROFDB_ENOTFOUND, PROFDB_ERROR (err filled). */
int profdb__input_open(struct profdb_input **out, const char *path, uint64_t gzip_max, struct profdb_err *err);
/* Read up to n bytes; returns bytes read, 0 at end, -1 on error (err filled:
 * a corrupt or truncated gzip names the byte offset). */
long profdb__input_read(struct profdb_input *in, void *buf, size_t n, struct profdb_err *err);
uint64_t profdb__input_raw_offset(const struct profdb_input *in);/* file bytes so far */
uint64_t profdb__input_size(const struct profdb_input *in);     /* file size on disk */
/* Hex SHA-256 of the raw bytes read so far (all of them once read to end). */
void profdb__input_sha256(struct profdb_input *in, char hex[65]);
/* DESTRUCTOR. NULL is a no-op. */
void profdb__input_close(struct profdb_input *in);
/* From now on no SHA-256 is made: profdb__input_sha256 must not be asked. */
void profdb__input_no_hash(struct profdb_input *in);

/*
 * file_digests.c: the SHA-256 of n files (paths borrowed, NULL ones
 * skipped), made a piece at a time by profdb__digests_step, which any
 * thread may call: it hashes the next piece and returns non-zero while
 * pieces remain.  profdb__digests_get gives file i's digest of its first
 * bytes bytes (made again where the pieces covered another count); an
 * error (hex "") where the file cannot be read that far.
 */
struct profdb__digests;
int profdb__digests_new(struct profdb__digests **out, const char *const *paths, size_t n);
int profdb__digests_step(struct profdb__digests *g);
int profdb__digests_get(struct profdb__digests *g, size_t i, uint64_t bytes, char hex[65]);
void profdb__digests_free(struct profdb__digests *g);


/* ---------------------------------------------------------------- sha256 */
struct profdb_sha256 { uint32_t h[8]; uint64_t len; unsigned char buf[64]; size_t nbuf; };
void profdb__sha256_init(struct profdb_sha256 *s);
void profdb__sha256_update(struct profdb_sha256 *s, const void *data, size_t n);
void profdb__sha256_hex(const struct profdb_sha256 *s, char hex[65]); /* does not consume */
/* Tests only: non-zero forces the portable code even where SHA-NI exists. */
void profdb__sha256_force_portable(int on);

/* ---------------------------------------------------------------- numbers */

/*
 * Parse decimal text in a given unit exactly into int64 nanoseconds.
 * scale_exp: 3 for microseconds, 0 for ns, 6 for ms.  Accepts leading/
 * trailing white space (incl. the TAB Ascend appends), an optional sign,
 * digits, an optional fraction, and an exponent (spreadsheet "1.69512E+15").
 * Fraction digits beyond ns are rounded half away from zero.
 * Returns 0 on success, -1 if the text is not a number or out of range.
 */
int profdb__parse_ns(const char *s, size_t n, int scale_exp, int64_t *out);
/* Parse an integer (optional sign, white space); 0 ok, -1 bad. */
int profdb__parse_i64(const char *s, size_t n, int64_t *out);
/* The shortest text of v that reads back as v, into out (size bytes, 32
 * are enough; not always NUL-terminated); +-Inf as +-9e999.  Returns its
 * length (metrics_json.c). */
int profdb__number_text(char *out, size_t size, double v);
/* Parse a finite double; 0 ok, -1 bad (N/A, empty, NaN, Inf). */
int profdb__parse_double(const char *s, size_t n, double *out);
/* Ask for 2 MB pages under the whole 2 MB pieces of [p, p + bytes): for
 * large arrays written once (huge_pages.c); a no-op where unsupported. */
void profdb__huge_pages(void *p, size_t bytes);

/* ---------------------------------------------------------------- names */

/*
 * Write the base name of a kernel/op name into out (size cap, always
 * NUL-terminated): the documented normalisation (doc/commands.md "Base names").
 */
void profdb__base_name(const char *name, char *out, size_t cap);

/* ---------------------------------------------------------------- store */

struct profdb_store;
/*
 * Begin an ingest of a new run into db: BEGIN IMMEDIATE, insert the run row.
 * If replace, an existing run of that name is deleted in the same
 * transaction; otherwise PROFDB_EEXISTS.  On success *out is a store whose
 * sink (profdb__store_sink) readers feed.
 */
int profdb__store_begin(struct profdb_store **out, profdb *db, const char *run,
                       const char *source_path, int replace);
struct profdb_sink *profdb__store_sink(struct profdb_store *st);
int64_t profdb__store_run_id(const struct profdb_store *st);
/* Between these two, full batches are inserted on a thread of their own
 * (store_async.c); the caller feeds the sink from one thread meanwhile, one
 * file after the other (its own reads or the readers' records replayed in
 * order).  _end waits for them; both return PROFDB_OK or an error (on the
 * sink). */
int profdb__store_async_begin(struct profdb_store *st);
int profdb__store_async_end(struct profdb_store *st);
/* Between the two: work for the insert thread's idle moments, that does
 * not touch the database (batch_flusher.h profdb__flusher_set_filler); arg
 * must live until profdb__store_async_end.  No insert thread: nothing. */
void profdb__store_set_filler(struct profdb_store *st, int (*fill)(void *arg), void *arg);
/*
 * After profdb__store_async_end: the SHA-256 of each source file of the run
 * stored without one (its reader had PROFDB_READER_HASH_ELSEWHERE), made by
 * digest(arg, path, size, hex) of the file's first size bytes.  digest
 * returns 0, 1 for a file it has no digest for (left NULL), -1 when the
 * file cannot be read again (an error naming it, on the sink).
 */
int profdb__store_fill_digests(struct profdb_store *st,
                               int (*digest)(void *arg, const char *path, uint64_t size, char hex[65]), void *arg);
/* Set the run's format label and rank count (called by the ingest driver). */
void profdb__store_set_format(struct profdb_store *st, const char *format);
/*
 * Finish: derive steps of kernels from launches, device times of ops from
 * External ids, the repeat count (repeats > 0: fixed), ranks; COMMIT.
 * Frees st.  On error rolls back.
 */
int profdb__store_commit(struct profdb_store *st, int64_t repeats);
/* Say what profdb__store_commit is doing through fn(arg, what) (NULL: not). */
void profdb__store_set_phase(struct profdb_store *st, void (*fn)(void *arg, const char *what), void *arg);
/* ROLLBACK and free.  NULL is a no-op. */
void profdb__store_abort(struct profdb_store *st);

/* ---------------------------------------------------------------- readers */

/*
 * Every reader has this shape: read path (a file or a folder the detector
 * chose) and send records to sink.  rank is the default rank for records
 * whose source does not say (PROFDB_NULL lets the reader decide).
 */
struct profdb_reader_ctx {
	const char *path;          /* the file or folder to read */
	int64_t rank;              /* default rank, or PROFDB_NULL */
	struct profdb_sink *sink;
	struct profdb_err *err;
	profdb_progress_fn progress;
	void *progress_arg;
	const struct profdb_limits *limits; /* the handle's (borrowed) */
	/* 1: a reader with PROFDB_READER_HASH_ELSEWHERE makes no SHA-256 and
	 * ends its source file with sha256 NULL; the caller stores it */
	int hash_elsewhere;
};

/* ---------------------------------------------------------------- reader table */

/*
 * What a sniff is shown: the first n bytes of a file (gunzipped when the
 * file is gzip), NUL-terminated.  A sniff answers from these bytes alone,
 * except the SQLite one, which opens path to look at its tables.
 */
struct profdb_sniff {
	const char *path;          /* the file */
	const char *buf;           /* its first n bytes, buf[n] == '\0' */
	size_t n;
	int full;                  /* 1: no more bytes will come (end of file, or PROFDB_SNIFF_BYTES) */
	int gzip;                  /* 1: buf is the gunzipped content of a gzip file */
	char *reason;              /* a sniff that says no may say why here (cap bytes) */
	size_t cap;
};
#define PROFDB_SNIFF_BYTES (1u << 20) /* how far detection looks (for "traceEvents") */

/* The index of the first byte of b[i, n) that is not JSON white space
 * (detect.c; for the sniffs). */
size_t profdb__sniff_ws(const char *b, size_t n, size_t i);

/* Shorten the name s in place to at most w display columns (w >= 4; a
 * name that fits is left alone): its trailing argument list to "(...)",
 * then its template parameter lists to "<...>" deepest first, then its
 * middle cut to "..." (name_short.c); a file path keeps its file name.
 * Tables, md and html reports use it, so a name shortens alike everywhere
 * and names stay told apart. */
void profdb__name_shorten(char *s, size_t w);

/* "; did you mean 'X'?" into buf (cap bytes) when profdb_name_nearest
 * finds X for word among names, else "" (suggest.c).  Returns buf. */
const char *profdb__did_you_mean(char *buf, size_t cap, const char *word, const char *const *names, size_t n);

/* A sniff's answer.  MORE: "no" so far, but more bytes could make it "yes"
 * (detect.c reads on and asks again; at the limit MORE counts as NO).  A
 * YES must still hold with more bytes, and NO only when none can change
 * it: then reading 64 KiB first answers as reading 1 MiB would.  DAMAGED:
 * the file is damaged past telling what it holds (reason says how), so
 * detection stops with PROFDB_EFORMAT rather than "no format of ours". */
enum { PROFDB_SNIFF_NO = 0, PROFDB_SNIFF_YES = 1, PROFDB_SNIFF_MORE = 2, PROFDB_SNIFF_DAMAGED = 3 };

/* Flags of a reader. */
#define PROFDB_READER_WALK 1u  /* the folder walk reads the files of this format it finds */
#define PROFDB_READER_HASH_ELSEWHERE 2u /* one source file per path: honours ctx->hash_elsewhere */

/*
 * One input format: each lib/read/ingest_<format>.c defines one of these,
 * profdb__reader_<name>, and PROFDB__READER_TABLE below lists them all
 * (adding a format is its file and one row there; see doc/DESIGN.md).
 */
struct profdb_reader {
	const char *name;          /* unique, e.g. "kineto" */
	const char *label;         /* the run's format as stored (run.format), e.g. "ascend_csv" */
	/* Is the file of s this format?  PROFDB_SNIFF_YES / _NO / _MORE. */
	int (*sniff)(const struct profdb_sniff *s);
	/* Read ctx->path (a file this sniff said yes to, or for the Ascend
	 * readers an export folder the walk chose) into ctx->sink. */
	int (*read)(const struct profdb_reader_ctx *ctx);
	unsigned flags;            /* PROFDB_READER_* */
};

/*
 * The table of input formats: X(name) for each profdb__reader_<name>
 * (defined in lib/read/ingest_<name>.c), which declares every row here and
 * makes profdb__readers in readers.c.  detect.c asks the rows in this
 * order and takes the first "yes", so a more specific sniff comes before a
 * broader one that would also say yes:
 *  - SQLite first: its magic is certain, and only it opens the file;
 *  - the wall-clock results before traces: a results file is JSON or CSV too;
 *  - an array of events with string ts (trace_view) before any array of
 *    events (kineto);
 *  - text, not JSON, last: a kernel table.
 */
#define PROFDB__READER_TABLE(X) \
	X(ascend_db)            \
	X(pytest_benchmark)     \
	X(gbench)               \
	X(wallclock_jsonl)      \
	X(wallclock_csv)        \
	X(ascend_trace_view)    \
	X(kineto)               \
	X(ascend_csv)

#define PROFDB__READER_EXTERN(name) extern const struct profdb_reader profdb__reader_##name;
PROFDB__READER_TABLE(PROFDB__READER_EXTERN)
#undef PROFDB__READER_EXTERN

/* The rows of PROFDB__READER_TABLE in its order, NULL-terminated (readers.c). */
extern const struct profdb_reader *const profdb__readers[];

/* The wall-clock format of a JSON object or CSV text that starts with buf
 * (NUL-terminated), or NULL (ingest_bench.c; the four wall-clock rows'
 * sniffs share it, one look deciding between them). */
const struct profdb_reader *profdb__bench_detect(const char *buf, size_t n);

/* ---------------------------------------------------------------- result */

/* Build a result from a prepared statement (steps it to the end).  types may
 * be NULL (then inferred: TEXT/INT/REAL from the first non-null value), or
 * give one type per column. */
int profdb__result_from_stmt(profdb *db, profdb_result **out, sqlite3_stmt *st,
                             const enum profdb_coltype *types);
/* Append a note to a result (copied). */
int profdb__result_add_note(profdb_result *r, const char *note);

/* A note's durations (format.c): profdb__note_time writes ns into buf
 * (at least PROFDB__NOTE_TIME_CAP bytes) marked, so that a table or md
 * states it in the table's unit at the table's precision and csv, json
 * and profdb_result_note in us; every note that prints a duration uses
 * it.  profdb__note_render gives note with its marked times in unit u
 * with `decimals` decimals and the unit's name (NULL: out of memory). */
#define PROFDB__NOTE_TIME_CAP 32
void profdb__note_time(char *buf, size_t cap, int64_t ns);
char *profdb__note_render(const char *note, enum profdb_unit u, int decimals);
/*
 * What a table for people keeps when the terminal is narrow, declared by
 * the query that makes r (the table writer knows no command's columns):
 * headline, the columns that answer the command, never hidden; hide, the
 * lesser columns in the order they go ("a|b" goes as a pair).  Both NULL-
 * ended static lists (borrowed, not copied); NULL: none.
 */
void profdb__result_priority(profdb_result *r, const char *const *headline, const char *const *hide);

/* ---------------------------------------------------------------- sql functions */

/* Register median(), percentile(), stddev(), base_name() on a connection. */
int profdb__register_functions(sqlite3 *db);

#endif /* PROFDB_INTERNAL_H */

/*
 * profdb.h - the one public header of libprofdb.
 *
 * profdb ingests ML profiler dumps (torch_npu / msprof Ascend exports and
 * PyTorch Kineto Chrome traces) into one SQLite file and answers kernel,
 * operator and step questions about them.
 *
 * Conventions for the whole API (libgit2 style):
 *  - Every function that can fail returns int: PROFDB_OK (0) or a negative
 *    PROFDB_E* code.  The message is kept on the handle: profdb_errmsg().
 *  - Out parameters come first and are named out.  What comes back through
 *    **out is the caller's and has exactly one matching *_free().  What comes
 *    back as a plain return value (const char *) is borrowed from its parent.
 *  - The library never prints and never exits.  Functions that render output
 *    write to a FILE * the caller passes in.
 *  - Options structs (struct profdb_limits, profdb_*_opts, profdb_*_query,
 *    profdb_filter): initialise with their PROFDB_*_INIT macro, then set
 *    the fields you need.  The defaults mean "no restriction"; the macros
 *    name their fields, so a field added later starts at its default
 *    (zero) without touching the callers.  Each struct begins with
 *    version, which its macro sets to PROFDB_<STRUCT>_VERSION: a function
 *    given a struct of another version (built against another profdb.h,
 *    or zeroed) refuses it with PROFDB_EUSAGE before reading a field.
 */
#ifndef PROFDB_H
#define PROFDB_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROFDB_VERSION "0.1.0"

/* Error codes: 0 is success, the rest are negative. */
#define PROFDB_OK          0
#define PROFDB_ERROR      -1  /* anything not listed below (I/O, SQLite, memory) */
#define PROFDB_ENOTFOUND  -2  /* a named run, file or column does not exist */
#define PROFDB_EFORMAT    -3  /* input in a format we read, but corrupt or unreadable */
#define PROFDB_ESCHEMA    -4  /* database written by a newer profdb, or not ours */
#define PROFDB_EEXISTS    -5  /* run name already stored (see replace) */
#define PROFDB_EUSAGE     -6  /* an argument the caller passed makes no sense */
#define PROFDB_EBUSY      -7  /* database locked by another writer past the timeout */
#define PROFDB_EUNKNOWN   -8  /* input in no format profdb reads (no reader recognises it) */

/* "no value" for optional int64 fields of records and filters */
#define PROFDB_NULL INT64_MIN

typedef struct profdb profdb;               /* an open database */
typedef struct profdb_result profdb_result; /* a table of result rows */

/* ---------------------------------------------------------------- handle */

#define PROFDB_OPEN_READONLY 0x1u /* open without write access */
#define PROFDB_OPEN_NOCREATE 0x2u /* fail with ENOTFOUND if the file is missing */
/* a remote source: fetch only the runs' rows at first (enough for
 * profdb_query_runs and _summary, which the server computes); each query
 * then fetches what it reads.  A file ignores it. */
#define PROFDB_OPEN_LAZY 0x4u

/*
 * CONSTRUCTOR: open (creating unless NOCREATE/READONLY) the database at path
 * (":memory:" works; "" is a private temporary database, kept on disk past
 * its page cache and deleted on close; a URL opens the source its scheme
 * names, as profdb_open_with with only flags), apply or migrate the embedded
 * schema and register the SQL functions median(), percentile(), stddev(),
 * base_name().
 * On failure *out is still set when a handle could be made, so the caller can
 * read profdb_errmsg(*out); it must profdb_close() it either way.
 * Errors: PROFDB_ESCHEMA for a newer schema version or a file that is not
 * SQLite; PROFDB_ENOTFOUND; PROFDB_ERROR.
 * Threads: a handle may move between threads but must not be used by two at
 * once (the connection is opened without SQLite's per-call mutex); open one
 * handle per thread instead.
 */
int profdb_open(profdb **out, const char *path, unsigned flags);

/*
 * How to reach a remote source (a ClickHouse server, doc/clickhouse.md).
 * The library reads no environment: the caller fills these (the profdb
 * command from $PROFDB_CLICKHOUSE_PASSWORD, $NETRC, $PROFDB_CLICKHOUSE_CAINFO
 * and --read-timeout).
 */
struct profdb_remote_opts {
	unsigned version;          /* PROFDB_REMOTE_OPTS_VERSION */
	const char *password;      /* used when the URL has none; NULL: netrc */
	const char *netrc;         /* the netrc file the password is looked up in
	                              when neither gives one; NULL: ~/.netrc */
	const char *cainfo;        /* PEM file of the CAs a TLS server's certificate
	                              is checked against; NULL: the system's */
	int read_timeout_s;        /* a request the server sends (or takes) nothing
	                              for this long fails; the server answers once a
	                              query has ended, so this bounds a query too:
	                              1 to PROFDB_REMOTE_TIMEOUT_MAX seconds */
};
#define PROFDB_REMOTE_OPTS_VERSION 1
#define PROFDB_REMOTE_TIMEOUT_DEFAULT 60
#define PROFDB_REMOTE_TIMEOUT_MAX 86400
#define PROFDB_REMOTE_OPTS_INIT \
	{ .version = PROFDB_REMOTE_OPTS_VERSION, .read_timeout_s = PROFDB_REMOTE_TIMEOUT_DEFAULT }

struct profdb_open_opts {
	unsigned version;          /* PROFDB_OPEN_OPTS_VERSION */
	unsigned flags;            /* PROFDB_OPEN_* */
	const char *const *runs;   /* a remote source: only the runs of these names
	                              (nruns; 0: every run); a file holds its own */
	size_t nruns;
	const struct profdb_remote_opts *remote; /* NULL: PROFDB_REMOTE_OPTS_INIT */
};
#define PROFDB_OPEN_OPTS_VERSION 1
#define PROFDB_OPEN_OPTS_INIT { .version = PROFDB_OPEN_OPTS_VERSION }

/*
 * CONSTRUCTOR: open the runs at url, picking the source by its scheme: a
 * path (or file://path) is a SQLite file, as profdb_open; clickhouse://
 * [user[:password]@]host[:port]/database (clickhouses:// for TLS) is a
 * read-only snapshot of the runs on a ClickHouse server (o->runs of them,
 * pulled into a temporary store in the order they were pushed, so every
 * query answers as on the SQLite file they came from; with
 * PROFDB_OPEN_LAZY only their run rows at first).  On a snapshot
 * profdb_query_runs and _summary are computed by the server and
 * profdb_sql sends ClickHouse SQL to it.  A run name the server does
 * not have is not an error here (the queries report it).  o NULL:
 * PROFDB_OPEN_OPTS_INIT.  *out as profdb_open; errors as profdb_open, and
 * PROFDB_EUSAGE (a bad URL, a version this build does not know).
 */
int profdb_open_with(profdb **out, const char *url, const struct profdb_open_opts *o);

/* Non-zero when url names a remote source (clickhouse://, clickhouses://):
 * read-only, and its text may hold a password (never print it). */
int profdb_is_remote(const char *url);

/*
 * METHOD: use o (NULL: PROFDB_REMOTE_OPTS_INIT; copied) for the servers db
 * talks to from now on (push, pull).  Errors: PROFDB_EUSAGE (a timeout out
 * of range, an unknown version; nothing changed), PROFDB_ERROR (memory).
 */
int profdb_set_remote(profdb *db, const struct profdb_remote_opts *o);

/* DESTRUCTOR: close the database.  NULL is a no-op. */
void profdb_close(profdb *db);

/*
 * The bounds a handle works within (as SQLite's sqlite3_limit): memory it
 * holds before spilling or giving up, and how long it waits for a lock.
 * Initialise with PROFDB_LIMITS_INIT (the built-in values), then lower the
 * fields you need; each field is a whole number from 1 to its built-in
 * value (a limit may be lowered, never raised, so the documented bounds
 * hold; tests lower them to reach them with small inputs).
 */
struct profdb_limits {
	unsigned version;      /* PROFDB_LIMITS_VERSION (the _INIT macro sets it) */
	uint64_t gzip_max_bytes;    /* decompressed bytes per gzip member (gzip-bomb bound) */
	uint64_t busy_timeout_ms;   /* wait for another writer's lock */
	uint64_t intern_cached;     /* ingest: distinct texts cached for interning */
	uint64_t name_stats_values; /* ingest: durations held for the per-name statistics */
	uint64_t name_stats_names;  /* ingest: names given per-name state */
	uint64_t name_stats_bytes;  /* ingest: bytes of that per-name state */
	uint64_t kstep_seg_work;    /* ingest: step-lookup work per kernel file before indexing */
	uint64_t ops_held_bytes;    /* ingest: host ops held in memory before the database */
	uint64_t link_calls_max;    /* ingest: launch calls per file linked in memory */
	uint64_t comm_max_bytes;    /* ingest: a communication*.json read at most */
	uint64_t hold_bytes;        /* query output held before it streams */
	uint64_t idle_hold;         /* idle: busy intervals held before a temporary table */
	uint64_t diff_rows;         /* diff: kernel rows compared in memory */
	uint64_t diff_bytes;        /* diff: bytes of those rows */
	uint64_t diff_bootstrap_draws; /* diff: bootstrap draws in all */
	uint64_t push_streams;      /* push: concurrent INSERTs of a big run */
	uint64_t push_split_rows;   /* push: kernels of a run before it is split */
	uint64_t step_sums_cells;   /* ingest: (rank, step, name, kind) sums held for kernel_step_stat */
};
/* push_streams is the one limit that may be raised (to PROFDB_PUSH_STREAMS_MAX). */
#define PROFDB_PUSH_STREAMS_MAX 8
#define PROFDB_LIMITS_VERSION 1
#define PROFDB_LIMITS_INIT                                                   \
	{ .version = PROFDB_LIMITS_VERSION,                                   \
	  .gzip_max_bytes = 64ull << 30, .busy_timeout_ms = 60000,            \
	  .intern_cached = 1u << 16, .name_stats_values = 8u << 20,           \
	  .name_stats_names = 1u << 17, .name_stats_bytes = 28u << 20,        \
	  .kstep_seg_work = 1u << 22, .ops_held_bytes = 16u << 20,            \
	  .link_calls_max = 1u << 18, .comm_max_bytes = 64u << 20,            \
	  .hold_bytes = 8u << 20, .idle_hold = 524288, .diff_rows = 1500000,   \
	  .diff_bytes = 48u << 20, .diff_bootstrap_draws = 1000000000ull,     \
	  .push_streams = 2, .push_split_rows = 1u << 20,                     \
	  .step_sums_cells = 1u << 16 }

/*
 * METHOD: use limits (NULL: PROFDB_LIMITS_INIT) for every later call on
 * db; a new handle starts with PROFDB_LIMITS_INIT.  Errors: PROFDB_EUSAGE
 * (a field 0 or above its built-in value, push_streams above
 * PROFDB_PUSH_STREAMS_MAX; nothing changed).
 */
int profdb_set_limits(profdb *db, const struct profdb_limits *limits);

/* METHOD: the message of the last failed call on db ("" if none).  Borrowed,
 * valid until the next call on db.  Accepts NULL (returns a fixed text). */
const char *profdb_errmsg(const profdb *db);

/* A static description of an error code ("bad input format", ...). */
const char *profdb_strerror(int code);
/* The one name of names[0..n) nearest to word (edit distance, adjacent
 * swaps counting one) when it is close enough to be what the user meant
 * (at most a third of the longer word), else NULL: the "did you mean" of
 * every mistyped command, option, --by key and --sort column. */
const char *profdb_name_nearest(const char *word, const char *const *names, size_t n);

/* The embedded schema SQL, all files concatenated.  Static storage. */
const char *profdb_schema_sql(void);

/* The schema version this build writes (PRAGMA user_version). */
int profdb_schema_version(void);

/* ---------------------------------------------------------------- ingest */

/* Called now and then during an ingest; done/total are bytes of input. */
typedef void (*profdb_progress_fn)(void *arg, uint64_t done, uint64_t total);

struct profdb_ingest_opts {
	unsigned version;      /* PROFDB_INGEST_OPTS_VERSION (the _INIT macro sets it) */
	const char *run;       /* run name; NULL: the path's base name */
	int64_t repeats;       /* > 0 fixes the repeat count; 0: steps, else 1 */
	int replace;           /* non-zero: an existing run of that name is replaced */
	int jobs;              /* parallel workers; <= 0: number of online cores */
	profdb_progress_fn progress; /* may be NULL */
	void *progress_arg;    /* passed to progress and phase */
	/* may be NULL: called with what an ingest does once its files are read
	 * ("linking kernels and steps", "kernel statistics", "committing"),
	 * so that a progress display does not sit at 100% meanwhile */
	void (*phase)(void *arg, const char *what);
	const char *const *tags; /* "key=value" tags of the new run (ntags), in its transaction */
	size_t ntags;
	int split;             /* non-zero: one run per session (doc/inputs.md "Sessions
	                          and ranks"), named after its folder or file,
	                          with run (if set) as a prefix: "run/level0" */
	/* called after each run is committed (several with split); may be NULL */
	void (*run_done)(void *arg, int64_t run_id, const char *name);
	void *run_done_arg;
};
/* The defaults: run named after path, repeats from the steps, one worker
 * per core, no callbacks, no tags.  (A NULL opts means the same.) */
#define PROFDB_INGEST_OPTS_VERSION 1
#define PROFDB_INGEST_OPTS_INIT { .version = PROFDB_INGEST_OPTS_VERSION }

/*
 * METHOD: ingest everything profdb reads under path (a folder at any depth,
 * an *_ascend_pt folder, a kernel_details.csv, a Kineto trace .json[.gz])
 * as one run, in one transaction: on any error nothing of it remains.
 * *out_run_id receives the new run's id (with split, the last one; may be NULL).
 * Two sources for one rank (two profiling sessions) are refused with
 * PROFDB_EFORMAT naming both, unless split; a file reached twice (a link,
 * a byte-identical copy) is read once, with a note.
 * Errors: PROFDB_EEXISTS, PROFDB_EFORMAT (message names file and line or
 * byte offset), PROFDB_EUNKNOWN (path is a file no reader recognises),
 * PROFDB_ENOTFOUND (nothing readable under path), PROFDB_ERROR.
 */
int profdb_ingest(profdb *db, int64_t *out_run_id, const char *path,
                  const struct profdb_ingest_opts *opts);

/* METHOD: set a run's repeat count (n > 0) without re-ingesting. */
int profdb_run_set_repeats(profdb *db, const char *run, int64_t n);

/* METHOD: delete a run and everything that belongs to it. */
int profdb_run_delete(profdb *db, const char *run);

/*
 * METHOD: set tag key of a run to value (replacing the user's
 * earlier value; hiding a tag of the same key that the run's file or
 * metadata gives), or with value NULL remove the user's tag.  Keys are
 * 1..200 bytes without '=' or ','; values 0..1000 bytes.  Errors:
 * PROFDB_ENOTFOUND (no such run; removing a tag the run does not have),
 * PROFDB_EUSAGE (bad key or value; removing a tag that comes from the
 * run's file or metadata: those are read-only).
 */
int profdb_run_set_tag(profdb *db, const char *run, const char *key, const char *value);

/* ---------------------------------------------------------------- queries */

/* Filters shared by the query functions.  Initialise with
 * PROFDB_FILTER_INIT (or profdb_filter_init), then set. */
struct profdb_filter {
	unsigned version;      /* PROFDB_FILTER_VERSION (the _INIT macro sets it) */
	const char *const *runs; /* run names; NULL/0: all runs */
	size_t nruns;            /* entries in runs */
	int64_t rank;            /* PROFDB_NULL: all ranks (set it! 0 is rank 0) */
	int64_t step_lo;         /* PROFDB_NULL: unbounded */
	int64_t step_hi;         /* PROFDB_NULL: unbounded (inclusive) */
	const char *name_glob;   /* SQLite GLOB on the kernel/op name; NULL: all */
	const char *kind;        /* kernel, memcpy, memset, communication; NULL: all */
	int64_t min_total_ns;    /* drop groups whose total is below; 0: none */
	const char *const *tags; /* "key=value": only runs with that tag (any of the
	                            values given for one key, all keys); NULL/0: all */
	size_t ntags;
};

/* Initialise a filter to "everything" (rank and steps PROFDB_NULL); the
 * macro does the same in a declaration.  A zeroed filter is not that: it
 * means rank 0 and steps 0..0. */
void profdb_filter_init(struct profdb_filter *f);
#define PROFDB_FILTER_VERSION 1
#define PROFDB_FILTER_INIT                                                         \
	{ .version = PROFDB_FILTER_VERSION, .rank = PROFDB_NULL, .step_lo = PROFDB_NULL, \
	  .step_hi = PROFDB_NULL }

struct profdb_kernel_query {
	unsigned version;      /* PROFDB_KERNEL_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter;
	const char *by;        /* comma list of group keys; NULL: "name" */
	const char *sort;      /* column name; NULL: total */
	int ascending;         /* non-zero: ascending sort */
	int64_t top;           /* > 0: at most this many rows */
	int per_step;          /* non-zero: per-kernel mean/sd of per-step totals */
};
/* Every run, rank and step, grouped by name, sorted by total descending. */
#define PROFDB_KERNEL_QUERY_VERSION 1
#define PROFDB_KERNEL_QUERY_INIT { .version = PROFDB_KERNEL_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: per-kernel statistics.  *out is the caller's (profdb_result_free).
 * One row per group (q->by: name, base-name, type, core, kind, shape, rank,
 * device, stream, step) and run, columns [run] [integer keys] share_pct
 * total calls avg median min max stddev p90 p99 per_repeat [text keys]
 * (times PROFDB_COL_NS).  share_pct is of the run's device time after the
 * run/rank/step filters; median/p90/p99 are exact, linear interpolation
 * between closest ranks; stddev is the sample one (NULL for one call); top
 * and the order apply per run.  With per_step: [run] [keys] steps calls
 * mean stddev min max max_step of the group's per-step totals (0 in steps
 * where it did not run), and a note per run naming the steps.
 * Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE (key, sort column, kind,
 * step range), PROFDB_ERROR.
 */
int profdb_query_kernels(profdb *db, profdb_result **out,
                         const struct profdb_kernel_query *q);

struct profdb_op_query {
	unsigned version;      /* PROFDB_OP_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter;
	int by_shape;          /* non-zero: group by (name, input shapes) */
	int step_rows;         /* non-zero: one row per ProfilerStep#N; 0: one ProfilerStep* row */
	const char *sort;      /* column name; NULL: host self total */
	int ascending;
	int64_t top;
	int top_json;          /* non-zero: top_kernels as PROFDB_COL_JSON, [{name, total_us, share}] */
};
/* Every run, rank and step, by name, one ProfilerStep* row. */
#define PROFDB_OP_QUERY_VERSION 1
#define PROFDB_OP_QUERY_INIT { .version = PROFDB_OP_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }
/* METHOD: per operator name (and input shapes): [run] calls host_self
 * host_total host_avg device_self device_total name [shape] top_kernels
 * (up to three linked kernels, "name (62.5%); ...", or with top_json a JSON
 * array of {"name", "total_us" (exact), "share" (0..1)}, [] without any:
 * External id on the same run and rank, or the kernel's launch op).  ProfilerStep#N ops make one
 * ProfilerStep* row unless step_rows.  A note names the rows whose device
 * time is all their child operators'.  Errors as profdb_query_kernels. */
int profdb_query_ops(profdb *db, profdb_result **out, const struct profdb_op_query *q);

/* METHOD: one row per (run, rank, step): [run] rank step wall span busy
 * busy_pct kernels device_total top_total top_kernel.  wall is the step's
 * host span when stored, else span (first kernel start to last kernel end);
 * busy is the union of the step's kernel intervals; busy_pct = busy / span.
 * Kernels outside every step give a row with step NULL.  Streams when
 * profdb_result_stream armed db. */
int profdb_query_steps(profdb *db, profdb_result **out, const struct profdb_filter *f);

/* METHOD: the run_summary rows of the runs in f (all when none; f's rank
 * and step range apply, its name and kind do not; with a step range,
 * repeats is the number of selected steps, as in profdb_query_kernels'
 * per_repeat): run repeats kernels total_device elapsed total_cpu,
 * times in ns (PROFDB_COL_NS).  Errors: PROFDB_ENOTFOUND for a run. */
int profdb_query_summary(profdb *db, profdb_result **out, const struct profdb_filter *f);

/* METHOD: one row per stored run named in f (f NULL or no runs: every
 * run; the rest of f does not apply): id name format ranks
 * no_kernel_ranks repeats repeats_source kernels ops total_device
 * ingested_at source_path.  ranks counts every rank a source named;
 * no_kernel_ranks lists ("1,3") those without device data (NULL: none).
 * Errors: PROFDB_ENOTFOUND for a run. */
int profdb_query_runs(profdb *db, profdb_result **out, const struct profdb_filter *f);

/*
 * METHOD: per run and API, an operator benchmark harness's
 * result fields: api backend run source repeats per_repeat stddev median
 * total_device total_cpu kernels (times PROFDB_COL_NS).  source is
 * profiler (the run's device time; its API is its 'api' tag, else its
 * name), wallclock (timed repeats, per API) or summary (summary statistics
 * only: a note says its median cannot be exact).  Only f's runs, tags and
 * name_glob (on the API) apply.  doc/benchmarks.md "Operator benchmarks".
 */
int profdb_query_apis(profdb *db, profdb_result **out, const struct profdb_filter *f);

/* METHOD: profdb_query_summary's figures summed per value
 * of a run tag: by is "tag:KEY"; columns KEY runs repeats kernels
 * total_device elapsed total_cpu (runs without the tag: KEY NULL, last).
 * Only f's runs and tags apply.  Errors: PROFDB_EUSAGE for another by. */
int profdb_query_summary_by(profdb *db, profdb_result **out, const struct profdb_filter *f,
                            const char *by);

/* METHOD: the tags of the runs in f (only runs and tags apply;
 * all runs when none): run key value origin (user, file: the benchmark
 * file's own columns and context, meta: read-only profiler metadata such
 * as torch/CANN/CUDA versions and the device).  *out is the caller's. */
int profdb_query_tags(profdb *db, profdb_result **out, const struct profdb_filter *f);

/* METHOD: per source file of a run: path role rank rows_read rows_stored
 * rows_skipped skipped_why same_content_in rows_kernels rows_ops
 * rows_launches rows_memory (schema 012) rows_op_memory (schema 014), and
 * the run's notes. */
int profdb_query_sources(profdb *db, profdb_result **out, const char *run);

struct profdb_format_opts; /* below, with the formats */

/* How profdb_sql runs SQL a user typed. */
struct profdb_sql_opts {
	unsigned version;      /* PROFDB_SQL_OPTS_VERSION */
	int write;             /* non-zero: any statement; 0: reads only */
	int64_t timeout_ms;    /* stop the statement after this long; <= 0: never */
	FILE *stream;          /* non-NULL: write the rows here as they come, collect none */
	const struct profdb_format_opts *format; /* the stream's format; NULL: a table */
};
#define PROFDB_SQL_OPTS_VERSION 1
#define PROFDB_SQL_TIMEOUT_MS 300000 /* default: five minutes */
#define PROFDB_SQL_OPTS_INIT { .version = PROFDB_SQL_OPTS_VERSION, .timeout_ms = PROFDB_SQL_TIMEOUT_MS }

/*
 * METHOD: run one SQL statement under o (NULL: PROFDB_SQL_OPTS_INIT) and
 * collect its rows into *out (the caller's, profdb_result_free; column
 * types from the values).  Without o->write only SELECT, reads and
 * reporting pragmas are allowed: INSERT, ATTACH, VACUUM [INTO], setting
 * pragmas... fail with a message naming what was refused.  Past
 * o->timeout_ms the statement stops with PROFDB_ERROR.
 * With o->stream the rows are written there in o->format as they come and
 * nothing is collected (out may be NULL; *out is set to NULL): csv, json
 * and md hold a few thousand rows at a time whatever the result's size; a
 * table (column widths from every value) is built whole first.  On an
 * error after some rows, the stream holds those rows (a cut json array)
 * and the error says why.
 * Errors: PROFDB_EUSAGE for no or several statements, PROFDB_ERROR for bad
 * SQL, a refused statement, the timeout or a failed write.
 */
int profdb_sql(profdb *db, profdb_result **out, const char *sql, const struct profdb_sql_opts *o);

/* ---------------------------------------------------------------- analyses */

struct profdb_breakdown_query {
	unsigned version;      /* PROFDB_BREAKDOWN_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps; name and kind must stay NULL */
	int by_rank;           /* non-zero: one row per rank over the whole run */
};
#define PROFDB_BREAKDOWN_QUERY_VERSION 1
#define PROFDB_BREAKDOWN_QUERY_INIT \
	{ .version = PROFDB_BREAKDOWN_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: where the device time of each (run, rank, step) went, or of each
 * (run, rank) with by_rank.  Device activities are compute (kernel, other),
 * communication or memory (memcpy, memset); each class is the union of its
 * intervals over all streams of the rank.  Columns: [run] rank [step] span
 * busy compute communication memory compute_comm_overlap
 * compute_memory_overlap comm_memory_overlap exposed_communication
 * exposed_memory idle (PROFDB_COL_NS), compute_pct communication_pct
 * memory_pct exposed_communication_pct idle_pct (of span) comm_overlap_pct
 * (of communication) and kernels.  span = last end - first start; busy =
 * the union of all; idle = span - busy; exposed_communication =
 * communication - compute_comm_overlap; exposed_memory = memory not under
 * compute or communication.  *out is the caller's (profdb_result_free).
 * Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE (step range, a name or
 * kind filter), PROFDB_ERROR.
 */
int profdb_query_breakdown(profdb *db, profdb_result **out, const struct profdb_breakdown_query *q);

struct profdb_launch_query {
	unsigned version;      /* PROFDB_LAUNCH_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps; name (with by "name"); no kind */
	const char *by;        /* "name" (NULL), "stream" or "step" */
};
#define PROFDB_LAUNCH_QUERY_VERSION 1
#define PROFDB_LAUNCH_QUERY_INIT \
	{ .version = PROFDB_LAUNCH_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: launch latency and queueing from the runtime calls stored with
 * Kineto traces (device activities joined to the launch table by
 * correlation id).  Only launch calls count (doc/analyses.md "launches": one
 * kernel, copy or set that returns at once: async; graph launches; blocking
 * copies); the other activities are left out and counted in a note.  A
 * call counts once: start_delay = its first activity's start - call start,
 * end_delay = max(0, first start - call end).  by "name": [run] launch
 * name calls per_call launch_total launch_avg launch_max start_delay_median
 * start_delay_p90 start_delay_p99 start_delay_max end_delay_median
 * end_delay_p90 end_delay_max outliers, first a "(all)" row of the async
 * calls per run, graph and blocking rows by call name last; outliers are
 * async start delays above p75 + 3 (p75 - p25) of the run.  by "stream":
 * [run] rank stream kernels queue_mean queue_max queued_pct
 * start_delay_median start_delay_max of the async launches, where the queue
 * is the kernels launched and not finished, over the stream's first launch
 * to last end.  by "step": [run] rank step span kernels host_wait
 * host_wait_pct queued queued_pct host_sync bound (doc/analyses.md "Analyses").
 * Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE (by, filter), PROFDB_ERROR.
 */
int profdb_query_launches(profdb *db, profdb_result **out, const struct profdb_launch_query *q);

struct profdb_bandwidth_query {
	unsigned version;      /* PROFDB_BANDWIDTH_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps, name; no kind */
	int by_rank;           /* non-zero: per rank over the whole run, no step */
};
#define PROFDB_BANDWIDTH_QUERY_VERSION 1
#define PROFDB_BANDWIDTH_QUERY_INIT \
	{ .version = PROFDB_BANDWIDTH_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: memcpy / memset traffic per (run, rank, step, direction), or per
 * (run, rank, direction) with by_rank: [run] rank [step] direction
 * (HtoD, DtoH, DtoD, PtoP, memset, other; from the name) transfers sized
 * (with a byte count) bytes total (PROFDB_COL_NS) gbps (bytes / duration
 * of the sized transfers, GB = 10^9 bytes) max_gbps (fastest transfer).
 * Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE (kind filter, steps).
 */
int profdb_query_bandwidth(profdb *db, profdb_result **out, const struct profdb_bandwidth_query *q);

struct profdb_memory_query {
	unsigned version;      /* PROFDB_MEMORY_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps; name (an op GLOB) with ops only; no kind */
	int by_step;           /* non-zero: per step */
	int timeline;          /* non-zero: the down-sampled curve */
	int ops;               /* non-zero: per operator */
	int64_t points;        /* timeline slices per series; 0: 200 */
};
#define PROFDB_MEMORY_QUERY_VERSION 1
#define PROFDB_MEMORY_QUERY_INIT \
	{ .version = PROFDB_MEMORY_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: the allocator's record (schema 012: Kineto [memory] events,
 * Ascend memory_record.csv) per run, rank, device (device_type device_id)
 * and component (Ascend; empty for Kineto): [run] rank device_type
 * device_id component events allocations frees allocated_bytes
 * freed_bytes peak_allocated_bytes peak_step peak_at (PROFDB_COL_NS from
 * the rank's first memory event) peak_reserved_bytes end_allocated_bytes
 * capacity_bytes (deviceProperties totalGlobalMem) peak_pct_of_capacity;
 * by_step: step in place of peak_step, per step; timeline: [run] rank
 * device_type device_id component at events allocated_bytes
 * reserved_bytes, the highest values of each of `points` equal slices of
 * time; ops: [run] rank device_type device_id op allocations
 * allocated_bytes frees freed_bytes held_bytes live_at_peak_bytes, an
 * event's op the innermost host op holding it on its thread; Ascend runs'
 * from operator_memory.csv (schema 14), per Name (doc/analyses.md
 * "memory").  Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE
 * (modes together, kind, name without ops, points).
 */
int profdb_query_memory(profdb *db, profdb_result **out, const struct profdb_memory_query *q);

struct profdb_idle_query {
	unsigned version;      /* PROFDB_IDLE_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps; no name or kind */
	int64_t gaps;          /* > 0: list the longest gaps (at most this many) */
};
#define PROFDB_IDLE_QUERY_VERSION 1
#define PROFDB_IDLE_QUERY_INIT \
	{ .version = PROFDB_IDLE_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: idle time per (run, rank, stream): [run] rank stream kernels span
 * idle host_wait other_stream other (PROFDB_COL_NS) and their % of idle.
 * A gap between two activities of a stream is host_wait up to the next
 * one's launch call start (nothing queued), other_stream while the next was
 * queued and another stream of the rank ran, other for the rest.  With
 * q->gaps > 0: the longest gaps, [run] rank stream at (from the rank's
 * first device start) gap host_wait other_stream other next_kernel host_op
 * (the innermost operator on the launching thread when the gap began).
 * Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE (filter), PROFDB_ERROR.
 */
int profdb_query_idle(profdb *db, profdb_result **out, const struct profdb_idle_query *q);

struct profdb_ranks_query {
	unsigned version;      /* PROFDB_RANKS_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps; no name or kind */
	int by_rank;           /* non-zero: per rank over the whole run */
	double threshold;      /* least effect of a straggler, % (PROFDB_STRAGGLER_PCT) */
};
/* The straggler rule's least effect: the others' median wait, as % of the
 * median communication (ranks, and collectives' waited_on_rank). */
#define PROFDB_STRAGGLER_PCT 10.0
#define PROFDB_RANKS_QUERY_VERSION 1
#define PROFDB_RANKS_QUERY_INIT                                             \
	{ .version = PROFDB_RANKS_QUERY_VERSION, .filter = PROFDB_FILTER_INIT, \
	  .threshold = PROFDB_STRAGGLER_PCT }

/*
 * METHOD: stragglers.  Per (run, rank, step), or per (run, rank) with
 * by_rank: [run] rank [step] compute communication exposed_communication
 * (as profdb_query_breakdown) wait (communication minus the least of the
 * step's ranks with communication: waiting for the last to arrive)
 * compute_median (of the step's ranks) compute_z (the modified z-score
 * 0.6745 (x - median) / MAD; NULL below 3 ranks) straggler ("yes" for the
 * rank with the least communication when median - least is at least
 * threshold % of the median communication; NULL below 2 ranks with
 * communication).  Errors as
 * profdb_query_breakdown, PROFDB_EUSAGE for threshold <= 0.
 */
int profdb_query_ranks(profdb *db, profdb_result **out, const struct profdb_ranks_query *q);

struct profdb_collective_query {
	unsigned version;      /* PROFDB_COLLECTIVE_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps, name; no kind */
	int by_step;           /* non-zero: per step and collective across ranks */
	int by_link;           /* non-zero: Ascend communication_matrix.json links */
};
#define PROFDB_COLLECTIVE_QUERY_VERSION 1
#define PROFDB_COLLECTIVE_QUERY_INIT \
	{ .version = PROFDB_COLLECTIVE_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: communication kernels (kind communication) per collective (from
 * the name: all_reduce, all_gather, reduce_scatter, all_to_all, broadcast,
 * send_recv, send, recv, reduce, barrier, other), process group and rank:
 * [run] collective process_group rank calls total avg median max group_size
 * dtype bytes avg_msg_bytes algbw_gbps busbw_gbps (the last six from the
 * kernels' collective args where stored) transit_bytes transit_gbps wait
 * sync (Ascend communication.json; doc/analyses.md "collectives").  by_step:
 * [run] step collective ranks calls total_min total_median total_max skew
 * (max - min of the ranks' totals) waited_on_rank (the rank with the least
 * total: it arrived last) wait_max (Ascend: the largest rank's summed
 * wait).  by_link: [run] rank step scope process_group matrix_op src_rank
 * dst_rank transport op_name bytes transit bandwidth_gbps (Ascend
 * communication_matrix.json).
 * Errors: PROFDB_ENOTFOUND (a run), PROFDB_EUSAGE (kind filter, steps).
 */
int profdb_query_collectives(profdb *db, profdb_result **out, const struct profdb_collective_query *q);

struct profdb_flops_query {
	unsigned version;      /* PROFDB_FLOPS_QUERY_VERSION (the _INIT macro sets it) */
	struct profdb_filter filter; /* runs, rank, steps, name (op); no kind */
	double peak_tflops;    /* > 0: add peak_pct = achieved / this */
	double peak_gbps;      /* > 0: add bw_pct = bytes per second / this */
};
#define PROFDB_FLOPS_QUERY_VERSION 1
#define PROFDB_FLOPS_QUERY_INIT \
	{ .version = PROFDB_FLOPS_QUERY_VERSION, .filter = PROFDB_FILTER_INIT }

/*
 * METHOD: GEMM / attention / convolution efficiency per (run, operator,
 * input shapes, input types, conv arguments) for aten::mm, addmm, bmm,
 * baddbmm, linear, matmul, the scaled-dot-product attention ops and the
 * outermost convolution ops with recorded shapes: [run] name shapes
 * dtypes args (a convolution's "Concrete Inputs", else NULL) calls device (sum of the ops' device_total, ns) gflop (per call)
 * tflops (gflop x calls / device) bytes (per call: inputs and output at
 * the first input's element size) intensity (FLOP per byte) peak_pct
 * bw_pct.  Figures are NULL when the shapes (or a convolution's
 * arguments) do not fit the formula
 * (doc/analyses.md "flops").  Errors: PROFDB_ENOTFOUND, PROFDB_EUSAGE.
 */
int profdb_query_flops(profdb *db, profdb_result **out, const struct profdb_flops_query *q);

/* ---------------------------------------------------------------- results */

/* Column types of a result: how formats render a value. */
enum profdb_coltype {
	PROFDB_COL_TEXT = 0,  /* text */
	PROFDB_COL_INT,       /* integer count or id */
	PROFDB_COL_REAL,      /* plain number */
	PROFDB_COL_NS,        /* a time in nanoseconds (int or real): unit-converted */
	PROFDB_COL_PCT,       /* a percentage 0..100 */
	PROFDB_COL_JSON,      /* JSON text: json writes it as a value, the others as text */
	PROFDB_COL_PROB       /* a p-value: tables keep its significant digits */
};

size_t profdb_result_ncols(const profdb_result *r);
size_t profdb_result_nrows(const profdb_result *r);
/* Borrowed from r. */
const char *profdb_result_colname(const profdb_result *r, size_t col);
enum profdb_coltype profdb_result_coltype(const profdb_result *r, size_t col);
int profdb_result_isnull(const profdb_result *r, size_t row, size_t col);
/* Borrowed from r; NULL for SQL NULL. */
const char *profdb_result_text(const profdb_result *r, size_t row, size_t col);
double profdb_result_double(const profdb_result *r, size_t row, size_t col);
int64_t profdb_result_int(const profdb_result *r, size_t row, size_t col);
/* Notes attached to a result (warnings a format prints), borrowed. */
size_t profdb_result_nnotes(const profdb_result *r);
const char *profdb_result_note(const profdb_result *r, size_t i);
/* DESTRUCTOR. NULL is a no-op. */
void profdb_result_free(profdb_result *r);
/*
 * METHOD: reorder r's rows by the column named col (NULL: keep the order;
 * "total (us)" as a table heads it and total_us as csv does name "total"):
 * numbers largest first unless ascending, text A..Z, empty cells last,
 * ties in the query's order.  per_run: rows of one run (a "run" column)
 * stay together, runs in their order, and top counts per run; else the
 * whole answer is one list.  top > 0: keep at most top rows.  An unknown
 * column is EUSAGE naming the columns (and the nearest one when close), on
 * db.  r must be whole (not armed by profdb_result_stream).
 */
int profdb_result_order(profdb *db, profdb_result *r, const char *col, int ascending, int64_t top, int per_run);

/* ---------------------------------------------------------------- output */

/* The output formats.  A result (profdb_result_write) is written as a
 * table, csv, json or md; a comparison's report (profdb_report_write) as
 * md, html, json, junit or csv. */
enum profdb_format {
	PROFDB_FMT_TABLE = 0, PROFDB_FMT_CSV, PROFDB_FMT_JSON, PROFDB_FMT_MD, PROFDB_FMT_HTML,
	PROFDB_FMT_JUNIT
};
enum profdb_unit { PROFDB_UNIT_AUTO = 0, PROFDB_UNIT_NS, PROFDB_UNIT_US, PROFDB_UNIT_MS, PROFDB_UNIT_S };

struct profdb_format_opts {
	unsigned version;      /* PROFDB_FORMAT_OPTS_VERSION (the _INIT macro sets it) */
	enum profdb_format format;
	enum profdb_unit unit; /* AUTO: table/md pick per column; csv/json use us */
	int width;             /* terminal width for table; <= 0: no limit */
	int wide;              /* non-zero: never shorten names */
	int json_object;       /* json: a single row as one object, not an array */
	const char *keep;      /* table: a column never hidden to fit (the --sort
	                          column; COL or COL_pct), NULL: none */
};
/* A table, units per column, no width limit (a NULL opts means the same). */
#define PROFDB_FORMAT_OPTS_VERSION 1
#define PROFDB_FORMAT_OPTS_INIT \
	{ .version = PROFDB_FORMAT_OPTS_VERSION, .format = PROFDB_FMT_TABLE, .unit = PROFDB_UNIT_AUTO }

/* Parse "table", "csv", "json", "md"; returns -1 if unknown. */
int profdb_format_parse(const char *s);
/* Parse "ns", "us", "ms", "s"; returns -1 if unknown. */
int profdb_unit_parse(const char *s);

/* Write text (a run name, a note, a message) for a terminal: control
 * characters as C escapes (\n, \t, \x1b), C1 controls and bidi marks as
 * \uXXXX (\u202e), bytes that are not UTF-8 as \xNN, so no text can
 * move the cursor, recolour or reorder what the terminal shows. */
void profdb_text_write(FILE *out, const char *text);

/* Write r to out in the chosen format.  Returns PROFDB_OK, PROFDB_ERROR
 * (write failure: errno says why) or PROFDB_EUSAGE (opts of another
 * version). */
int profdb_result_write(const profdb_result *r, FILE *out,
                        const struct profdb_format_opts *opts);
/*
 * METHOD: the next query that can stream (profdb_query_kernels, _ops,
 * _steps, _launches, _idle, _breakdown, _flops, _bandwidth, _collectives,
 * _ranks, _apis, _runs, _summary, _summary_by and _tags)
 * writes its rows to out in fmt as they come, a thousand at
 * a time, instead of holding the whole answer: the result it returns
 * holds only the last rows, and profdb_result_write on it writes them and
 * the end of the output.  csv and json rows go out at once; a table or md
 * answer is held up to 8 MiB of rows, and past that written in two passes
 * over the query (the first fixes unit, decimals and widths; names are
 * then shown whole as with opts->wide).  Call profdb_result_write with the
 * same out and fmt (borrowed until then).  One use: later queries answer
 * whole.  A json object (opts->json_object) is written whole when the
 * answer is one row (parts are written from a thousand rows on).  Returns
 * PROFDB_OK, PROFDB_ENOTFOUND (nothing armed) without out or fmt, or
 * PROFDB_EUSAGE (fmt of another version; nothing armed).
 */
int profdb_result_stream(profdb *db, FILE *out, const struct profdb_format_opts *fmt);

/* ---------------------------------------------------------------- diff */

/*
 * Comparing runs.  Kernels of the base runs and the new runs
 * are paired by a grouping key.  The samples of a kernel are its per-step
 * totals (sum of dur of its kernels in each step), over every step of every
 * run of a side: a step in which it did not run counts as 0.  A run without
 * steps gives one sample, its total divided by its repeats.  A change is a
 * regression (improvement) only when it exceeds the threshold and min_delta
 * AND the two-sample test gives p < alpha; too few samples for the test
 * gives "inconclusive", never a silent regression.
 */
enum profdb_diff_test { PROFDB_TEST_MWU = 0, PROFDB_TEST_WELCH };
enum profdb_verdict {
	PROFDB_VERDICT_UNCHANGED = 0,
	PROFDB_VERDICT_REGRESSION,
	PROFDB_VERDICT_IMPROVEMENT,
	PROFDB_VERDICT_INCONCLUSIVE,
	PROFDB_VERDICT_NEW,        /* only in the new runs */
	PROFDB_VERDICT_GONE        /* only in the base runs */
};

struct profdb_diff_opts {
	unsigned version;      /* PROFDB_DIFF_OPTS_VERSION (the _INIT macro sets it) */
	const char *const *base_runs; /* run names of the base side (>= 1) */
	size_t nbase;
	const char *const *new_runs;  /* run names of the new side (>= 1) */
	size_t nnew;
	struct profdb_filter filter;  /* rank, steps, name, kind; runs is ignored */
	const char *by;        /* key parts joined by '+' or ',': name, base-name, type,
	                          shape, kind, core; NULL: "name" */
	double threshold;      /* relative change that matters; default 0.05 */
	int64_t min_delta_ns;  /* per-repeat change below this is unchanged; default 0 */
	enum profdb_diff_test test; /* default MWU */
	double alpha;          /* significance level; default 0.01 */
	int resamples;         /* bootstrap resamples for the CI; default 2000; 0: none */
	uint64_t seed;         /* bootstrap seed; same seed, same interval */
	double ci_level;       /* confidence level of the interval; default 0.95 */
	int64_t top;           /* > 0: the kernel table keeps the N largest changes
	                          (counts, verdicts and reports see all); 0: all */
};

/* The defaults above (no runs; every rank and step); profdb_diff_opts_init
 * sets the same at run time. */
#define PROFDB_DIFF_OPTS_VERSION 1
#define PROFDB_DIFF_OPTS_INIT                                                    \
	{ .version = PROFDB_DIFF_OPTS_VERSION,                                        \
	  .filter = PROFDB_FILTER_INIT, .threshold = 0.05, .test = PROFDB_TEST_MWU, \
	  .alpha = 0.01, .resamples = 2000, .seed = 20240601, .ci_level = 0.95 }

/* Initialise opts with PROFDB_DIFF_OPTS_INIT. */
void profdb_diff_opts_init(struct profdb_diff_opts *o);

/* "mwu", "welch"; -1 if unknown. */
int profdb_diff_test_parse(const char *s);

typedef struct profdb_comparison profdb_comparison; /* a finished comparison */

/*
 * CONSTRUCTOR (METHOD of profdb): compare the runs of o.  *out is the
 * caller's (profdb_comparison_free), and reads db: past 8 MiB its kernel
 * lines are kept in a temporary table of db, so it is written and freed
 * before profdb_close(db).  Errors: PROFDB_ENOTFOUND (a run name
 * not stored), PROFDB_EUSAGE (no runs on a side, bad key, threshold, alpha),
 * PROFDB_ERROR.  On a clickhouse:// snapshot the runs' per-step kernel
 * sums are fetched at once by up to four threads of its own, a connection
 * each; they are joined before it returns.
 */
int profdb_compare(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o);

/*
 * CONSTRUCTOR: compare an analysis table between the sides of o instead of
 * the kernels: table "breakdown" (one line per figure, samples the figure
 * of each (rank, step)) or "collectives" (one line per collective and
 * process group, samples each call's bus bandwidth).  The lines are the
 * whole-run figures of *out (profdb_comparison_table without
 * PROFDB_CMP_KERNELS); verdicts by o's threshold, min_delta (times), test
 * and alpha, a larger value being the regression except for compute_pct
 * and bandwidth.  doc/analyses.md "diff of the analysis tables".  Errors:
 * PROFDB_EUSAGE (unknown table; a name or kind filter), PROFDB_ENOTFOUND.
 */
int profdb_compare_analysis(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o,
                            const char *table);

/* DESTRUCTOR. NULL is a no-op. */
void profdb_comparison_free(profdb_comparison *c);

/* Number of compared kernels (kernels != 0) or whole-run lines (kernels
 * == 0) with verdict v. */
size_t profdb_comparison_count(const profdb_comparison *c, int kernels, enum profdb_verdict v);

/* The comparability warnings (the two sides differ in device, ranks, ...);
 * borrowed from c. */
size_t profdb_comparison_nwarnings(const profdb_comparison *c);
const char *profdb_comparison_warning(const profdb_comparison *c, size_t i);

/*
 * The comparison as a table for profdb_result_write: one row per kernel
 * group (flags has PROFDB_CMP_KERNELS) or per whole-run figure (it has
 * not); the comparability warnings are the kernel table's notes unless
 * flags has PROFDB_CMP_NO_WARNINGS (a caller that shows them itself, first).
 * With opts top > 0 the kernel table has at most top rows and a note
 * saying how many it leaves out.
 * *out is the caller's.
 */
#define PROFDB_CMP_KERNELS     0x1u
#define PROFDB_CMP_NO_WARNINGS 0x2u
#define PROFDB_CMP_ROUNDED     0x4u /* numbers rounded for reading (p to 3
                                       digits, others to 6): table, md */
int profdb_comparison_table(const profdb_comparison *c, profdb_result **out, unsigned flags);

/*
 * profdb_comparison_table(c, flags) written to out in opts's format, with
 * the same bytes as profdb_result_write of it; a long table (past 8 MiB of
 * cells, PROFDB_HOLD_BYTES) is built and written a part at a time, so
 * memory stays that of c's lines.  PROFDB_OK, PROFDB_ERROR (memory,
 * write error) or PROFDB_EUSAGE (opts of another version).
 */
int profdb_comparison_write(const profdb_comparison *c, FILE *out, const struct profdb_format_opts *opts,
                            unsigned flags);

/* METHOD: profdb_compare + profdb_comparison_table(kernels) in one call. */
int profdb_diff(profdb *db, profdb_result **out, const struct profdb_diff_opts *o);

/* Parse a report's format "md", "html", "json", "junit", "csv" (an enum
 * profdb_format); -1 if unknown. */
int profdb_report_format_parse(const char *s);

/*
 * Write a report of c to out: Markdown (a pull-request comment), HTML (one
 * self-contained file with an inline SVG chart), JSON (schemas/
 * diff.schema.json), JUnit XML (one testcase per kernel, <failure> for
 * regressions) or CSV.  Every format carries the comparability warnings.
 * Returns PROFDB_OK or PROFDB_ERROR (write failure, or f is table).
 */
int profdb_report_write(const profdb_comparison *c, FILE *out, enum profdb_format f);

/* ---------------------------------------------------------------- clickhouse */

/*
 * Copying runs to and from a ClickHouse server (doc/clickhouse.md).  url is
 * clickhouse://[user[:password]@]host[:port]/database
 * (HTTP, default port 8123; clickhouses:// for TLS, 8443); the password may
 * instead come from db's remote settings (profdb_set_remote): a password,
 * or a netrc file.  No message ever contains the password.
 */
struct profdb_push_stats {
	int64_t rows;          /* rows copied, every table */
	int64_t kernels;       /* of them, kernel rows */
};

/*
 * METHOD: push the stored run named run (run row, metadata, source files,
 * notes, kernels, ops, launches, steps, step metrics and both stat tables)
 * to url, creating the database and tables on first use.  The run row is
 * written last, so readers never see part of a run; an interrupted push is
 * cleaned up by the next push of the same run.  The same content already
 * on the server (content hash), or another run of that name, is refused
 * with PROFDB_EEXISTS unless replace (which replaces the run of that name).
 * db is only read.  *out (may be NULL) receives the counts.
 * A run of at least push_split_rows kernels (db's limits, 1 M built in)
 * is sent in parallel parts: threads of the call's own, each reading
 * through its own read-only connection to db's file (push_streams of them,
 * 1 to 8, default 2); all have ended when the call returns.
 * Errors: PROFDB_ENOTFOUND (no such local run), PROFDB_EEXISTS,
 * PROFDB_EUSAGE (bad URL), PROFDB_ESCHEMA (server has a newer profdb
 * schema), PROFDB_ERROR (server down or answering an error: the message
 * names host:port/database).
 */
int profdb_run_push(profdb *db, struct profdb_push_stats *out, const char *url, const char *run,
                    int replace);

/*
 * METHOD: copy the run named run from url into db under the same name, in
 * one transaction (on error db is as before).  A local run of that name
 * gives PROFDB_EEXISTS unless replace.  Errors as profdb_run_push, and
 * PROFDB_ENOTFOUND for a run the server does not have.
 */
int profdb_run_pull(profdb *db, struct profdb_push_stats *out, const char *url, const char *run,
                    int replace);

/* ---------------------------------------------------------------- verify */

/*
 * METHOD: check a stored run against the profiler's own summaries kept at
 * ingest (op_statistic.csv, step_trace_time.csv of Ascend text exports):
 * per OP Type and Core Type the count, total, min, avg and max of kernel
 * durations; per step Computing (the union of the non-communication kernel
 * intervals), Communication, Overlapped and Communication(Not Overlapped).
 * run NULL: the only run.  *out (the caller's, profdb_result_free) has the
 * columns check, key, expected, actual, diff, ok ("ok" / "FAIL"); values in
 * microseconds.  A check fails when the difference exceeds both 0.01% and
 * the rounding of the printed inputs.  *out_failed (may be NULL) receives
 * the number of failed checks.  A run without those files gives no rows and
 * a note.  Errors: PROFDB_ENOTFOUND (no such run), PROFDB_EUSAGE (run NULL
 * and several runs stored), PROFDB_EFORMAT (a kept summary is unreadable).
 */
int profdb_verify(profdb *db, profdb_result **out, int *out_failed, const char *run);

#ifdef __cplusplus
}
#endif
#endif /* PROFDB_H */

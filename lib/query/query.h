/*
 * query.h - what the query files (query_*.c, filter.c) share: a growing
 * SQL text buffer, the WHERE clause of a struct profdb_filter with its
 * bound parameters, and a result builder for rows made in C.  Private to
 * lib/.
 *
 * The one rule of this module: user values reach SQL only as bound
 * parameters.  SQL text is built from constant fragments; column and sort
 * names come from whitelists in the query files.
 */
#ifndef PROFDB_QUERY_H
#define PROFDB_QUERY_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "result.h"

/* A growing NUL-terminated SQL text. */
struct profdb__qbuf {
	char *s;                   /* the text ("" until something is added) */
	size_t len, cap;
	int oom;                   /* an allocation failed: s is incomplete */
};
void profdb__qbuf_add(struct profdb__qbuf *b, const char *text);
/* Append printf-style; only for numbers and whitelisted names. */
void profdb__qbuf_addf(struct profdb__qbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void profdb__qbuf_free(struct profdb__qbuf *b);

/* Which table a filter applies to: the column names differ a little. */
enum profdb__qfilter_target { QF_KERNEL, QF_OP, QF_STEP };

/*
 * Append " AND ..." conditions for f on the table alias a (e.g. "k") to b.
 * Parameters are named :run0.., :rank, :slo, :shi, :glob, :kind.  With
 * for_total set, the name and kind conditions are left out (the
 * denominator of a share).
 */
void profdb__qfilter_where(struct profdb__qbuf *b, const struct profdb_filter *f, const char *a,
                   enum profdb__qfilter_target t, int for_total);
/* Bind the parameters profdb__qfilter_where used (by name; absent ones skipped). */
void profdb__qfilter_bind(sqlite3_stmt *st, const struct profdb_filter *f);
/* dst := a filter of f's runs and tags only (f may be NULL: every run), for
 * the questions about whole runs (summaries, tags, APIs, run selection),
 * where name, kind, rank and steps do not apply.  dst borrows f's arrays. */
void profdb__qfilter_runs_of(struct profdb_filter *dst, const struct profdb_filter *f);
/* Check f's values: every run exists (ENOTFOUND), the kind is known and
 * the step range is ordered (EUSAGE).  Sets the message on db. */
int profdb__qfilter_check(profdb *db, const struct profdb_filter *f);
/*
 * Per-repeat figures (doc/definitions.md "Per-repeat averages and step filters"):
 * without a step range a run's repeat count is run.repeats (its steps,
 * --repeats, or 1); with one, a repeat is a selected step, and the count
 * is the number of the run's steps in the range (on the filtered rank)
 * when its kernels carry steps.  Every query and the diff use these.
 */
/* Whether f has a step range. */
int profdb__qfilter_has_steps(const struct profdb_filter *f);
/* Append a SELECT of the selected (run_id, step) pairs of f: the stored
 * steps in f's rank and step range of runs whose kernels carry a step
 * (f's runs apply; name and kind do not). */
void profdb__qfilter_selected_steps(struct profdb__qbuf *b, const struct profdb_filter *f);
/* Append the expression of the repeat count of run alias run_alias
 * (a row of table run) under f. */
void profdb__qfilter_repeats(struct profdb__qbuf *b, const struct profdb_filter *f, const char *run_alias);
/* The run formats of benchmark files (doc/benchmarks.md "Operator benchmarks"): each
 * of their kernel rows is one timed repeat of its API, so an API's time per
 * repeat is its total over its own rows, not over the run's repeats.  The
 * SQL list is fixed text; profdb__format_is_wallclock tests one format. */
#define PROFDB__WALLCLOCK_FORMATS_SQL "('wallclock_csv', 'wallclock_jsonl', 'pytest_benchmark', 'gbench')"
int profdb__format_is_wallclock(const char *format);
/* When r has no rows, add a note per selected run saying why: the rank
 * it lacks and the ranks it has, that it has no steps (need_steps: the
 * query needs them, as --per-step does) or which steps it has, or that
 * --name/--kind match nothing.  Sets the message on db on error. */
int profdb__qfilter_explain_empty(profdb *db, profdb_result *r, const struct profdb_filter *f, int need_steps);
/* Whether the output gets a run column: several runs or none selected. */
int profdb__qfilter_run_column(const struct profdb_filter *f);
/* outside_steps.c: device work outside every step of the runs whose
 * repeats are their profiler steps (README "Per-repeat averages and step
 * filters").  Append a SELECT of (run_id, n activities, t ns) under f's
 * runs, rank and tags; a run with none has no row or n = 0. */
void profdb__outside_steps_sql(struct profdb__qbuf *b, const struct profdb_filter *f);
/* Add a note per selected run with such work ("run 'R': N device
 * activities (X us) ran outside every step; " what); none under a step
 * range.  Sets the message on db on error. */
int profdb__outside_steps_notes(profdb *db, profdb_result *r, const struct profdb_filter *f, const char *what);
/* query_runs.c: summary's outside_kernels and outside_device columns, and
 * the join (alias o, on run r) they read, of f's runs only. */
void profdb__summary_outside_cols(struct profdb__qbuf *b);
void profdb__summary_outside_join(struct profdb__qbuf *b, const struct profdb_filter *f);

/* Prepare b's text on db; reports oom and SQL errors on db. */
int profdb__query_prepare(profdb *db, const struct profdb__qbuf *b, sqlite3_stmt **st, const char *what);

/* CONSTRUCTOR: a result of nrows rows of NULL cells with the given columns,
 * for rows made in C.  On failure *out may be set: free it. */
int profdb__result_new_rows(profdb_result **out, const char *const *names, const enum profdb_coltype *types,
                     size_t ncols, size_t nrows);

/* profdb__qfilter_check, and PROFDB_EUSAGE "<what>: no kind filter" when f has
 * one (the analyses that read one kind of row). */
int profdb__qfilter_check_no_kind(profdb *db, const struct profdb_filter *f, const char *what);
/* Run the statement in b (freed here) with f's parameters bound into *out
 * (types per column, or NULL: inferred); what starts the error message.
 * The tail every SQL-only query shares. */
int profdb__result_query(profdb *db, profdb_result **out, struct profdb__qbuf *b, const struct profdb_filter *f,
                  const enum profdb_coltype *types, const char *what);

/* profdb_query_breakdown's rows with their leading run_id, run, rank, step
 * columns (step NULL with by_rank), each as row 0 of a result given to
 * each(arg, row) as the scan finds it, in (run, rank, step) order: for the
 * analyses built on it.  An error of each stops the scan (its message on
 * db). */
int profdb__query_breakdown_each(profdb *db, const struct profdb_breakdown_query *q,
                                 int (*each)(void *arg, const profdb_result *row), void *arg);

/* The --tag filter and the tag: grouping key (filter.c). */
/* Append " AND run_col IN (...)" for f's tags (parameters :tkN, :tvN). */
void profdb__tags_where(struct profdb__qbuf *b, const struct profdb_filter *f, const char *run_col);
/* Bind the parameters profdb__tags_where used. */
void profdb__tags_bind(sqlite3_stmt *st, const struct profdb_filter *f);
#define PROFDB_TAG_BY_MAX 10     /* tag: grouping keys per query */

/* Is s[0, len) a grouping key "tag:KEY"?  1 with KEY copied to name
 * (PROFDB_TAG_KEY_MAX + 1 bytes, store/tags.h), 0 when it is no tag: key,
 * EUSAGE with a message on db when KEY is not a valid key. */
int profdb__tags_by_key(profdb *db, const char *s, size_t len, char *name);
/* Append key as a double-quoted SQL identifier (an output column's name). */
void profdb__tags_by_ident(struct profdb__qbuf *b, const char *key);
/* The column name ("tag0", ...) of the i-th tag grouping key (i <
 * PROFDB_TAG_BY_MAX) in a SELECT over the CTEs of profdb__tags_by_cte. */
const char *profdb__tags_by_col(size_t i);
/* Append the CTE "tagvI AS MATERIALIZED (run_id, value, ...)": each run's
 * value of tag :bytI, one row per run that has it; join it on run_id. */
void profdb__tags_by_cte(struct profdb__qbuf *b, size_t i);
/* The name of that CTE ("tagv0", ...). */
const char *profdb__tags_by_cte_name(size_t i);
/* Bind :bytI to key (static for the statement's life). */
void profdb__tags_by_bind(sqlite3_stmt *st, size_t i, const char *key);

/* `profdb sql`'s guard (sql_guard.c): what the authorizer and the progress
 * handler saw during one statement of the user's. */
struct profdb__sql_guard {
	int write;                 /* --write: the authorizer allows everything */
	int own_txn;               /* profdb's BEGIN for a table's two passes */
	int64_t deadline_ns;       /* CLOCK_MONOTONIC; 0: no time limit */
	int timed_out;             /* the progress handler interrupted */
	char denied[96];           /* the first action refused, "" if none */
};
/* Install the authorizer and the time limit of o on db for one statement. */
void profdb__sql_guard_begin(profdb *db, struct profdb__sql_guard *g, const struct profdb_sql_opts *o);
/* Remove them; a failure they caused gets a message that says so. */
int profdb__sql_guard_end(profdb *db, struct profdb__sql_guard *g, const struct profdb_sql_opts *o, int rc);

#endif

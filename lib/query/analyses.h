/*
 * analyses.h - what the analysis queries (query_breakdown.c ...
 * query_flops.c) share with the rest of lib/: the per-call rows that
 * `diff --table collectives` (compare_analyses.c) samples, and the by-name
 * half of launches.  Private to lib/.
 */
#ifndef PROFDB_ANALYSES_H
#define PROFDB_ANALYSES_H

#include "internal.h"

struct profdb__qbuf;

/*
 * One row per communication kernel of f that has a message size and a bus
 * factor (query_collectives.c, doc/analyses.md "collectives"): key (collective,
 * process group and figure, "all_reduce 0 (default_pg) busbw_gbps"), dur
 * (ns), msg (bytes), bus_bytes (msg x the NCCL-tests factor); and one per
 * Ascend kernel with communication.json bytes: key "... transit_gbps", dur
 * the transit time of those bytes, msg NULL, bus_bytes the bytes.  Ordered
 * by key.  *out is the
 * caller's.  Errors: PROFDB_ENOTFOUND (a run), PROFDB_ERROR.
 */
int profdb__collective_calls(profdb *db, profdb_result **out, const struct profdb_filter *f);

/* Columns of launches --by name before the helpers (run_id, ord, and run
 * with one run) go. */
enum { N_RUN_ID, N_ORD, N_RUN, N_LAUNCH, N_NAME, N_CALLS, N_PER_CALL, N_LTOTAL, N_LAVG, N_LMAX, N_DMED,
       N_DP90, N_DP99, N_DMAX, N_EMED, N_EP90, N_EMAX, N_OUT, N_COUNT };

/* What the launches views count for their notes: device activities of
 * launch calls (linked), calls and those whose device start comes before
 * the call's start (negative), graph launches and blocking copies (calls,
 * activities). */
struct profdb__launch_counts {
	int64_t linked, calls, negative, graph_calls, graph_acts, blocking_calls, blocking_acts;
};

/* The device activities of f launched by a call of one kernel, copy or
 * set, as a WITH clause whose CTE d has (run_id, rank, step, stream,
 * name_id, ks, ke, ls, ld, delay): the activity's start and end, its call's
 * start and duration, ks - ls.  The caller appends its SELECT over d and
 * binds f (profdb__qfilter_bind); profdb_launch_class must be registered. */
void profdb__launch_acts_sql(struct profdb__qbuf *b, const struct profdb_filter *f);

/* launches --by stream (query_launches_stream.c): one row per (run, rank,
 * stream), run_id and run but with several runs gone, streamed when
 * profdb_result_stream armed db; counts' calls, negative and linked added.
 * *out is the caller's.  Errors: PROFDB_ERROR (memory, SQL). */
int profdb__launches_by_stream(profdb *db, profdb_result **out, const struct profdb_filter *f,
                               struct profdb__launch_counts *counts);

/* The launch calls of f, one row per call (doc/analyses.md "launches"), as the
 * temporary table temp.profdb_lcalls(run_id, rank, cls, gname, n, ls, ld,
 * ks, delay, edelay): cls a PROFDB__LAUNCH_* but OTHER, gname the name of
 * the call's first activity (ASYNC) or of the call, n its activities, ks
 * the first one's start.  Made after a spool opened (it lifts query_only
 * and holds the transaction); dropped with profdb__launch_calls_drop. */
int profdb__launch_calls_make(profdb *db, const struct profdb_filter *f);
void profdb__launch_calls_drop(profdb *db);

/* launches --by name (query_launches_name.c): the N_* columns above but
 * the helpers, rows ordered by run, "(all)" first, then the launches of
 * one kernel, copy or set by launch_total descending, the graph launches,
 * the blocking copies; streamed when profdb_result_stream armed db.
 * *counts for the notes.  *out is the caller's.  Errors: PROFDB_ERROR
 * (memory, SQL). */
int profdb__launches_by_name(profdb *db, profdb_result **out, const struct profdb_filter *f,
                             struct profdb__launch_counts *counts);

/* What a correlated runtime call is (launch_class.c, doc/analyses.md "launches"):
 * a launch of one kernel, copy or set that returns at once (ASYNC), a graph
 * launch, a copy or set that returns when done (BLOCKING), or no launch. */
enum { PROFDB__LAUNCH_OTHER, PROFDB__LAUNCH_ASYNC, PROFDB__LAUNCH_GRAPH, PROFDB__LAUNCH_BLOCKING };
int profdb__launch_class(const char *name);

#endif

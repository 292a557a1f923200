/*
 * analyses.h - what the analysis queries (query_breakdown.c ...
 * query_flops.c) share with the rest of lib/: the per-call rows that
 * `diff --table collectives` (compare_analyses.c) samples, and the by-name
 * half of launches.  Private to lib/.
 */
#ifndef PROFDB_ANALYSES_H
#define PROFDB_ANALYSES_H

#include "internal.h"

/*
 * One row per communication kernel of f that has a message size and a bus
 * factor (query_collectives.c, README "### collectives"): key (collective,
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
enum { N_RUN_ID, N_ORD, N_RUN, N_NAME, N_CALLS, N_LTOTAL, N_LAVG, N_LMAX, N_DMED, N_DP90, N_DP99,
       N_DMAX, N_OUT, N_COUNT };

/* launches --by name (query_launches_name.c): the N_* columns above but
 * the helpers, rows ordered by run, "(all)" first, then launch_total
 * descending; streamed when profdb_result_stream armed db.  *linked: the
 * linked activities (the note's count).  *out is the caller's.  Errors:
 * PROFDB_ERROR (memory, SQL). */
int profdb__launches_by_name(profdb *db, profdb_result **out, const struct profdb_filter *f, int64_t *linked);

#endif

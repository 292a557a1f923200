/*
 * analyses.h - what the analysis queries (query_breakdown.c ...
 * query_flops.c) share with the rest of lib/: the per-call rows that
 * `diff --table collectives` (compare_analyses.c) samples.  Private to lib/.
 */
#ifndef PROFDB_ANALYSES_H
#define PROFDB_ANALYSES_H

#include "internal.h"

/*
 * One row per communication kernel of f that has a message size and a bus
 * factor (query_collectives.c, README "### collectives"): key (collective
 * and process group, "all_reduce 0 (default_pg)"), dur (ns), msg (bytes),
 * bus_bytes (msg x the NCCL-tests factor), ordered by key.  *out is the
 * caller's.  Errors: PROFDB_ENOTFOUND (a run), PROFDB_ERROR.
 */
int profdb__collective_calls(profdb *db, profdb_result **out, const struct profdb_filter *f);

#endif

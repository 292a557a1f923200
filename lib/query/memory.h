/*
 * memory.h - what the two files of profdb memory share (query_memory.c:
 * per device, per step and the curve; query_memory_ops.c: per operator).
 * Private to lib/query.
 */
#ifndef PROFDB_MEMORY_H
#define PROFDB_MEMORY_H

#include "query.h"

/* Append the CTEs e (every memory row of f's runs and rank, with its
 * allocated bytes "alloc", reserved "reserved" and the rank's first
 * memory time t0) and f (those of f's steps) to b, starting "WITH". */
void profdb__memory_series_sql(struct profdb__qbuf *b, const struct profdb_filter *f);

/* profdb memory --ops (query_memory_ops.c). */
int profdb__memory_ops(profdb *db, profdb_result **out, const struct profdb_memory_query *q);

#endif

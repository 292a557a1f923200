/*
 * tags.h - tags on runs (tags.c): the --tag filter's SQL and checks, and
 * storing the tags of a new run.  Private to lib/.
 */
#ifndef PROFDB_TAGS_H
#define PROFDB_TAGS_H

#include <stddef.h>
#include <stdint.h>

#include "query/query.h"

/* Every "key=value" of tags well-formed?  EUSAGE with a message on db. */
int profdb__tags_check(profdb *db, const char *const *tags, size_t n);
/* Append " AND run_col IN (...)" for f's tags (parameters :tkN, :tvN). */
void profdb__tags_where(struct profdb__qbuf *b, const struct profdb_filter *f, const char *run_col);
/* Bind the parameters profdb__tags_where used. */
void profdb__tags_bind(sqlite3_stmt *st, const struct profdb_filter *f);
#define PROFDB_TAG_KEY_MAX 200   /* longest tag key */
#define PROFDB_TAG_BY_MAX 10     /* tag: grouping keys per query */

/* Is s[0, len) a grouping key "tag:KEY"?  1 with KEY copied to name
 * (PROFDB_TAG_KEY_MAX + 1 bytes), 0 when it is no tag: key, EUSAGE with a
 * message on db when KEY is not a valid key. */
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
/* Store "key=value" tags of run run_id (inside the caller's transaction). */
int profdb__tags_insert(profdb *db, int64_t run_id, const char *const *tags, size_t n);

#endif

/*
 * tags.h - tags on runs (tags.c): checking and storing the tags of a run.
 * The --tag filter and tag: grouping that read them: query/query.h.
 * Private to lib/.
 */
#ifndef PROFDB_TAGS_H
#define PROFDB_TAGS_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

#define PROFDB_TAG_KEY_MAX 200   /* longest tag key */

/* Is key[0, n) a valid tag key: 1..PROFDB_TAG_KEY_MAX bytes without '='
 * or ','? */
int profdb__tags_key_ok(const char *key, size_t n);
/* Every "key=value" of tags well-formed?  EUSAGE with a message on db. */
int profdb__tags_check(profdb *db, const char *const *tags, size_t n);
/* Store "key=value" tags of run run_id (inside the caller's transaction). */
int profdb__tags_insert(profdb *db, int64_t run_id, const char *const *tags, size_t n);

#endif

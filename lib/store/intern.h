/*
 * intern.h - the str table seen through an in-memory hash map (intern.c):
 * text that repeats (names, types, shapes, call stacks) is stored once and
 * referenced by id.  Private to lib/; the store owns one per ingest.
 */
#ifndef PROFDB_INTERN_H
#define PROFDB_INTERN_H

#include <stdint.h>
#include <sqlite3.h>

#include "internal.h"

struct profdb__intern;

/* A map in front of db's str table; errors go to err.  NULL when out of
 * memory or the statements cannot be prepared (err set).  Free with
 * profdb__intern_free. */
struct profdb__intern *profdb__intern_new(sqlite3 *db, size_t maxcached, struct profdb_err *err);
void profdb__intern_free(struct profdb__intern *t);

/* Call fn(arg) before each use of the connection (a text not in the map);
 * a non-zero return fails the interning (fn sets the error).  NULL: none. */
void profdb__intern_set_sync(struct profdb__intern *t, int (*fn)(void *arg), void *arg);

/*
 * Load the whole table into the map when it fits in half of it (texts and
 * bytes).  While the map holds it all, a text it lacks is new: its id is
 * the one an INSERT would give (the largest plus one) and its row goes to
 * add(arg, id, s), which may defer the INSERT (s is lent for the call) as
 * long as nothing else adds to the table; a non-zero return fails the
 * interning (add sets err).  Texts that do not fit, or a map emptied past
 * its cap later, leave it to the table as before.  PROFDB_OK, or an error
 * reading the table (err set).
 */
int profdb__intern_hold_all(struct profdb__intern *t, int (*add)(void *arg, int64_t id, const char *s),
                            void *arg);

/* Longest text stored, in bytes; a longer one is cut and ends with the
 * mark (doc/limits.md "Limits and guarantees"). */
#define PROFDB_TEXT_MAX ((size_t)64 << 10)
#define PROFDB_TEXT_CUT_MARK "...[truncated]"

/* How many texts were cut to PROFDB_TEXT_MAX bytes so far. */
int64_t profdb__intern_cut(const struct profdb__intern *t);

/* The str id of s (found or added), or 0 with err set.  s is not NULL. */
int64_t profdb__intern(struct profdb__intern *t, const char *s);

/* The str id of s if the map holds it now, else 0 (it may still be in the
 * table): a lookup that never uses the connection. */
int64_t profdb__intern_cached(const struct profdb__intern *t, const char *s);

/* The ids of name and of its base name (basename.c), the base computed
 * once per name.  0, or -1 with err set. */
int profdb__intern_name(struct profdb__intern *t, const char *name, int64_t *id, int64_t *base);

#endif

/*
 * tags.c - tags on runs: key=value labels the user sets (run_tag, schema
 * 006_bench), offered together with the benchmark file's own tags and the
 * read-only metadata tags by the view run_tag_all.  Here: checking and
 * storing them; the --tag filter and the tag: grouping key that read them
 * are query/filter.c's.
 *
 * Keys cannot hold '=' or ',' (so "key=value" splits at its first '=', and
 * a --by list at ','), which profdb_run_set_tag enforces.
 */
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "tags.h"
#include "banned.h"

#define KEY_MAX PROFDB_TAG_KEY_MAX
#define VALUE_MAX 1000

int profdb__tags_key_ok(const char *key, size_t n)
{
	return n > 0 && n <= KEY_MAX && !memchr(key, '=', n) && !memchr(key, ',', n);
}

int profdb__tags_check(profdb *db, const char *const *tags, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(tags[i], '=');
		if (!eq || !profdb__tags_key_ok(tags[i], (size_t)(eq - tags[i])) || strlen(eq + 1) > VALUE_MAX)
			return profdb__error(db, PROFDB_EUSAGE, "a tag is KEY=VALUE (KEY 1..%d bytes without"
			                     " '=' or ','), not '%.80s'", KEY_MAX, tags[i]);
	}
	return PROFDB_OK;
}

int profdb__tags_insert(profdb *db, int64_t run_id, const char *const *tags, size_t n)
{
	sqlite3_stmt *q = NULL;
	int rc = PROFDB_OK;
	if (!n)
		return PROFDB_OK;
	if ((rc = profdb__tags_check(db, tags, n)) != PROFDB_OK)
		return rc;
	if (sqlite3_prepare_v2(db->sql, "INSERT OR REPLACE INTO run_tag(run_id, key, value) VALUES (?1, ?2, ?3)",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot store tags");
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++) {
		size_t klen = strcspn(tags[i], "=");
		sqlite3_bind_int64(q, 1, run_id);
		sqlite3_bind_text(q, 2, tags[i], (int)klen, SQLITE_STATIC);
		sqlite3_bind_text(q, 3, tags[i] + klen + 1, -1, SQLITE_STATIC);
		if (sqlite3_step(q) != SQLITE_DONE)
			rc = profdb__sqlerror(db, "cannot store tag '%.80s'", tags[i]);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return rc;
}

/* The id of run name, or a PROFDB_ENOTFOUND error. */
static int run_id_of(profdb *db, const char *run, int64_t *id)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (sqlite3_prepare_v2(db->sql, "SELECT id FROM run WHERE name = ?1", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up run '%s'", run);
	sqlite3_bind_text(q, 1, run, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW)
		return PROFDB_OK;
	if (rc == SQLITE_DONE)
		return profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s' ('profdb runs' lists them)", run);
	return profdb__sqlerror(db, "cannot look up run '%s'", run);
}

/* Remove the user's tag key of run id; a file or meta tag is read-only. */
static int unset_tag(profdb *db, const char *run, int64_t id, const char *key)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (sqlite3_prepare_v2(db->sql, "DELETE FROM run_tag WHERE run_id = ?1 AND key = ?2", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot remove tag");
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(db, "cannot remove tag '%s'", key);
	if (sqlite3_changes(db->sql) > 0)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(db->sql, "SELECT origin FROM run_tag_all WHERE run_id = ?1 AND key = ?2",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up tag");
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, key, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	if (rc == SQLITE_ROW)
		return profdb__error(db, PROFDB_EUSAGE, "tag '%s' of run '%s' comes from its file or metadata"
		                     " and is read-only (--set-tag hides it)", key, run);
	return profdb__error(db, PROFDB_ENOTFOUND, "run '%s' has no tag '%s'", run, key);
}

int profdb_run_set_tag(profdb *db, const char *run, const char *key, const char *value)
{
	char kv[KEY_MAX + VALUE_MAX + 2];
	const char *one[1] = { kv };
	int64_t id = 0;
	int rc;
	if (!profdb__tags_key_ok(key, strlen(key)) || (value && strlen(value) > VALUE_MAX))
		return profdb__error(db, PROFDB_EUSAGE, "bad tag '%.80s': KEY is 1..%d bytes without '=' or ',',"
		                     " VALUE at most %d bytes", key, KEY_MAX, VALUE_MAX);
	if ((rc = run_id_of(db, run, &id)) != PROFDB_OK)
		return rc;
	if (!value)
		return unset_tag(db, run, id, key);
	snprintf(kv, sizeof kv, "%s=%s", key, value);
	return profdb__tags_insert(db, id, one, 1);
}

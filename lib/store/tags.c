/*
 * tags.c - tags on runs: key=value labels the user sets (run_tag, schema
 * 006_bench), offered together with the benchmark file's own tags and the
 * read-only metadata tags by the view run_tag_all; the --tag filter every
 * query shares; the tag: grouping key's value expression.
 *
 * A filter "key=value" selects runs whose run_tag_all has that pair; values
 * given for the same key are alternatives, different keys must all match.
 * Keys cannot hold '=' or ',' (so "key=value" splits at its first '=', and
 * a --by list at ','), which profdb_run_set_tag enforces.
 */
#include <stdio.h>
#include <string.h>

#include "query.h"
#include "tags.h"
#include "banned.h"

#define KEY_MAX PROFDB_TAG_KEY_MAX
#define VALUE_MAX 1000

/* Is key a valid tag name? */
static int key_ok(const char *key, size_t n)
{
	return n > 0 && n <= KEY_MAX && !memchr(key, '=', n) && !memchr(key, ',', n);
}

int profdb__tags_check(profdb *db, const char *const *tags, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const char *eq = strchr(tags[i], '=');
		if (!eq || !key_ok(tags[i], (size_t)(eq - tags[i])) || strlen(eq + 1) > VALUE_MAX)
			return profdb__error(db, PROFDB_EUSAGE, "a tag is KEY=VALUE (KEY 1..%d bytes without"
			                     " '=' or ','), not '%.80s'", KEY_MAX, tags[i]);
	}
	return PROFDB_OK;
}

/* Same key as tags[j]? */
static int same_key(const char *a, const char *b)
{
	size_t n = strcspn(a, "=");
	return strcspn(b, "=") == n && memcmp(a, b, n) == 0;
}

void profdb__tags_where(struct profdb__qbuf *b, const struct profdb_filter *f, const char *run_col)
{
	for (size_t i = 0; i < f->ntags; i++) {
		size_t j;
		for (j = 0; j < i && !same_key(f->tags[j], f->tags[i]); j++)
			;
		if (j < i)
			continue;              /* its key's condition is already there */
		profdb__qbuf_addf(b, " AND %s IN (SELECT run_id FROM run_tag_all WHERE key = :tk%zu AND value IN (",
		          run_col, i);
		for (j = i; j < f->ntags; j++)
			if (same_key(f->tags[j], f->tags[i]))
				profdb__qbuf_addf(b, "%s:tv%zu", j == i ? "" : ", ", j);
		profdb__qbuf_add(b, "))");
	}
}

void profdb__tags_bind(sqlite3_stmt *st, const struct profdb_filter *f)
{
	char name[32];
	for (size_t i = 0; i < f->ntags; i++) {
		size_t klen = strcspn(f->tags[i], "=");
		int k;
		snprintf(name, sizeof name, ":tk%zu", i);
		if ((k = sqlite3_bind_parameter_index(st, name)) > 0)
			sqlite3_bind_text(st, k, f->tags[i], (int)klen, SQLITE_STATIC);
		snprintf(name, sizeof name, ":tv%zu", i);
		if ((k = sqlite3_bind_parameter_index(st, name)) > 0)
			sqlite3_bind_text(st, k, f->tags[i][klen] ? f->tags[i] + klen + 1 : "", -1, SQLITE_STATIC);
	}
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
	if (!key_ok(key, strlen(key)) || (value && strlen(value) > VALUE_MAX))
		return profdb__error(db, PROFDB_EUSAGE, "bad tag '%.80s': KEY is 1..%d bytes without '=' or ',',"
		                     " VALUE at most %d bytes", key, KEY_MAX, VALUE_MAX);
	if ((rc = run_id_of(db, run, &id)) != PROFDB_OK)
		return rc;
	if (!value)
		return unset_tag(db, run, id, key);
	snprintf(kv, sizeof kv, "%s=%s", key, value);
	return profdb__tags_insert(db, id, one, 1);
}

int profdb_query_tags(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb_filter only;
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;

	*out = NULL;
	if (f && (rc = profdb__version_check(db, f->version, PROFDB_FILTER_VERSION, "profdb_filter")) != PROFDB_OK)
		return rc;
	profdb__qfilter_runs_of(&only, f);
	if ((rc = profdb__qfilter_check(db, &only)) != PROFDB_OK)
		return rc;
	profdb__qbuf_add(&b, "SELECT r.name AS run, t.key, t.value, t.origin FROM run_tag_all t"
	             " JOIN (SELECT id AS run_id, name FROM run) r ON r.run_id = t.run_id WHERE 1");
	profdb__qfilter_where(&b, &only, "t", QF_STEP, 1);
	profdb__qbuf_add(&b, " ORDER BY t.run_id, t.key");
	rc = profdb__query_prepare(db, &b, &st, "cannot list tags");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &only);
	/* streamed when the CLI armed db: a row per tag, however many */
	rc = profdb__result_from_stmt_stream(db, out, st, NULL);
	sqlite3_finalize(st);
	return rc;
}

/* Can key be a grouping key?  A --by list splits at ',' and '+', a tag
 * at '=', and a control byte would steer the terminal the key's column
 * header is printed on. */
static int by_key_ok(const char *key, size_t n)
{
	if (!key_ok(key, n) || memchr(key, '+', n))
		return 0;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)key[i] < 0x20 || key[i] == 0x7f)
			return 0;
	return 1;
}

int profdb__tags_by_key(profdb *db, const char *s, size_t len, char *name)
{
	if (len < 4 || memcmp(s, "tag:", 4) != 0)
		return 0;
	if (!by_key_ok(s + 4, len - 4))
		return profdb__error(db, PROFDB_EUSAGE, "bad tag key '%.*s' in --by: a KEY is 1..%d bytes,"
		                     " none of them '=', ',', '+' or a control character",
		                     (int)(len - 4 > 80 ? 80 : len - 4), s + 4, KEY_MAX);
	memcpy(name, s + 4, len - 4);
	name[len - 4] = '\0';
	return 1;
}

void profdb__tags_by_ident(struct profdb__qbuf *b, const char *key)
{
	/* an SQL identifier in double quotes, inner quotes doubled: a key
	 * names an output column and stays text whatever it holds */
	profdb__qbuf_add(b, "\"");
	for (const char *q; (q = strchr(key, '"')) != NULL; key = q + 1)
		profdb__qbuf_addf(b, "%.*s\"\"", (int)(q - key), key);
	profdb__qbuf_addf(b, "%s\"", key);
}

const char *profdb__tags_by_col(size_t i)
{
	static const char *const cols[PROFDB_TAG_BY_MAX] = {
		"tag0", "tag1", "tag2", "tag3", "tag4", "tag5", "tag6", "tag7", "tag8", "tag9"
	};
	return cols[i < PROFDB_TAG_BY_MAX ? i : 0];
}

void profdb__tags_by_cte(struct profdb__qbuf *b, size_t i)
{
	/* one GROUP BY over the view, not a lookup in it per run: each lookup
	 * built an index of every run's tags (quadratic: kernels --by tag over
	 * 8 000 runs 2 s of CPU, 100 000 never finished).  The bare value
	 * comes from the row with the least origin = 'meta': a file tag before
	 * a meta one of the same key (a user tag already hides both). */
	profdb__qbuf_addf(b, "%s AS MATERIALIZED (SELECT run_id, value, min(origin = 'meta') FROM run_tag_all"
	          " WHERE key = :byt%zu GROUP BY run_id)", profdb__tags_by_cte_name(i), i);
}

const char *profdb__tags_by_cte_name(size_t i)
{
	static const char *const names[PROFDB_TAG_BY_MAX] = {
		"tagv0", "tagv1", "tagv2", "tagv3", "tagv4", "tagv5", "tagv6", "tagv7", "tagv8", "tagv9"
	};
	return names[i < PROFDB_TAG_BY_MAX ? i : 0];
}

void profdb__tags_by_bind(sqlite3_stmt *st, size_t i, const char *key)
{
	char name[32];
	int k;
	snprintf(name, sizeof name, ":byt%zu", i);
	if ((k = sqlite3_bind_parameter_index(st, name)) > 0)
		sqlite3_bind_text(st, k, key, -1, SQLITE_STATIC);
}

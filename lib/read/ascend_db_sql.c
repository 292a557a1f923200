/*
 * ascend_db_sql.c - the Ascend SQLite reader's access to its source: errors and skips,
 * column values, and tables and columns found by name (PRAGMA table_info):
 * the column order differs between versions and old migration tables exist.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascend_db.h"
#include "banned.h"

int profdb__adb_fail_sql(struct profdb__adb *r, const char *what)
{
	return profdb__err_set(r->ctx->err, PROFDB_EFORMAT, "%s: %s: %s", r->file, what,
	                       sqlite3_errmsg(r->db));
}

int profdb__adb_oom(struct profdb__adb *r)
{
	return profdb__err_set(r->ctx->err, PROFDB_ERROR, "out of memory");
}

int profdb__adb_skip(struct profdb__adb *r, const char *reason, int64_t where)
{
	return profdb__sink_skip(r->sink, reason, where);
}

char *profdb__adb_dup_text(sqlite3_stmt *q, int col)
{
	const unsigned char *t = sqlite3_column_text(q, col);
	return t ? strdup((const char *)t) : NULL;
}

int64_t profdb__adb_col_i64(sqlite3_stmt *q, int col)
{
	return sqlite3_column_type(q, col) == SQLITE_NULL ? PROFDB_NULL : sqlite3_column_int64(q, col);
}

/* An int column that may also hold its number as text ("123"); else NULL. */
int64_t profdb__adb_col_ns(sqlite3_stmt *q, int col)
{
	int64_t v;
	const char *t;
	if (sqlite3_column_type(q, col) == SQLITE_INTEGER)
		return sqlite3_column_int64(q, col);
	t = (const char *)sqlite3_column_text(q, col);
	/* PYTORCH_API stores startNs/endNs as TEXT: parse it exactly */
	if (!t || profdb__parse_ns(t, strlen(t), 0, &v) != 0)
		return PROFDB_NULL;
	return v;
}

/*
 * The [start, end) of a task or op row, from columns 0 and 1: 1 if the row
 * is named (the caller's test of its name column), has both and does not end
 * before it starts; else 0, with the row skipped for why[0] (no name, start
 * or end) or why[1] (ends before it starts) and the skip's code in *rc.
 */
int profdb__adb_row_span(struct profdb__adb *r, sqlite3_stmt *q, int named, const char *const why[2], int64_t line,
                 int64_t *start, int64_t *end, int *rc)
{
	*start = profdb__adb_col_ns(q, 0);
	*end = profdb__adb_col_ns(q, 1);
	if (*start == PROFDB_NULL || *end == PROFDB_NULL || !named) {
		*rc = profdb__adb_skip(r, why[0], line);
		return 0;
	}
	if (*end < *start) {
		*rc = profdb__adb_skip(r, why[1], line);
		return 0;
	}
	return 1;
}

/* ---------------------------------------------------------------- schema by name */

int profdb__adb_has_table(struct profdb__adb *r, const char *table)
{
	sqlite3_stmt *q = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view')"
	                       " AND name = ?1", -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return found;
}

int profdb__adb_has_col(struct profdb__adb *r, const char *table, const char *col)
{
	sqlite3_stmt *q = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2",
	                       -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, col, -1, SQLITE_STATIC);
	found = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return found;
}

/* "alias.col" if table has col (else alt col, else the SQL NULL). */
const char *profdb__adb_pick(struct profdb__adb *r, char *buf, size_t cap, const char *alias,
                        const char *table, const char *col, const char *alt)
{
	if (profdb__adb_has_col(r, table, col))
		snprintf(buf, cap, "%s.\"%s\"", alias, col);
	else if (alt && profdb__adb_has_col(r, table, alt))
		snprintf(buf, cap, "%s.\"%s\"", alias, alt);
	else
		snprintf(buf, cap, "NULL");
	return buf;
}

/* A STRING_IDS lookup of alias.col as a scalar subquery, or NULL. */
const char *profdb__adb_str_of(struct profdb__adb *r, char *buf, size_t cap, const char *alias,
                          const char *table, const char *col, const char *alt)
{
	char c[96];
	profdb__adb_pick(r, c, sizeof c, alias, table, col, alt);
	if (strcmp(c, "NULL") == 0)
		snprintf(buf, cap, "NULL");
	else
		snprintf(buf, cap, "(SELECT value FROM STRING_IDS WHERE id = %s)", c);
	return buf;
}

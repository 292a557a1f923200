/*
 * sql_guard.c - SQL that profdb did not write: the statement a user passes
 * to `profdb sql` (read-only unless asked, bounded in time; its rows are
 * written as they come by report/result_write.c) and an input SQLite file
 * another tool wrote (tables only, structurally sound), so that neither
 * can write where it should not, run forever or fill memory.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "internal.h"
#include "query.h"
#include "source.h"
#include "banned.h"


/* Pragmas that only report: allowed bare or with an argument that names
 * a table, index or check limit (never a value to set). */
static const char *const report_pragmas[] = {
	"table_info", "table_xinfo", "index_list", "index_info", "index_xinfo",
	"foreign_key_list", "foreign_key_check", "integrity_check", "quick_check",
	"database_list", "function_list", "pragma_list", "collation_list", "module_list",
	"compile_options", "table_list", "page_count", "freelist_count", "data_version",
	NULL
};

/* Pragmas that set a value when given one: allowed only bare (a read). */
static const char *const value_pragmas[] = {
	"user_version", "schema_version", "application_id", "page_size", "encoding",
	"journal_mode", "foreign_keys", "cache_size", "auto_vacuum", "max_page_count",
	NULL
};

static int in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (name && strcmp(*list, name) == 0)
			return 1;
	return 0;
}

static int pragma_reads(const char *name, const char *arg)
{
	return in_list(report_pragmas, name) || (arg == NULL && in_list(value_pragmas, name));
}

static const char *action_name(int action)
{
	switch (action) {
	case SQLITE_ATTACH: return "ATTACH or VACUUM";
	case SQLITE_DETACH: return "DETACH";
	case SQLITE_INSERT: return "INSERT";
	case SQLITE_UPDATE: return "UPDATE";
	case SQLITE_DELETE: return "DELETE";
	case SQLITE_PRAGMA: return "PRAGMA";
	case SQLITE_ANALYZE: return "ANALYZE";
	case SQLITE_REINDEX: return "REINDEX";
	case SQLITE_ALTER_TABLE: return "ALTER TABLE";
	case SQLITE_TRANSACTION: return "a transaction statement";
	case SQLITE_SAVEPOINT: return "SAVEPOINT";
	default: return "a statement that changes the database";
	}
}

/* Only reads pass: SELECT (with recursive CTEs), column reads, functions
 * and the reporting pragmas.  Everything else is refused at prepare time,
 * before it can touch a file (VACUUM INTO reaches SQLite's authorizer as
 * an ATTACH of the target file). */
static int authorize(void *arg, int action, const char *a1, const char *a2,
                     const char *a3, const char *a4)
{
	struct profdb__sql_guard *g = arg;
	(void)a3;
	(void)a4;
	if (g->write)
		return SQLITE_OK;
	switch (action) {
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_FUNCTION:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_TRANSACTION:
		if (g->own_txn)
			return SQLITE_OK;
		break;
	case SQLITE_PRAGMA:
		if (pragma_reads(a1, a2))
			return SQLITE_OK;
		break;
	case SQLITE_UPDATE:
		/* SQLite's own bookkeeping when a table-valued pragma function
		 * (pragma_table_info) loads; the connection is read-only anyway */
		if (a1 && strcmp(a1, "sqlite_master") == 0 && !a4)
			return SQLITE_OK;
		break;
	default:
		break;
	}
	if (!g->denied[0]) {
		if (action == SQLITE_PRAGMA)
			snprintf(g->denied, sizeof g->denied, "PRAGMA %.40s%s", a1 ? a1 : "?", a2 ? " with a value" : "");
		else
			snprintf(g->denied, sizeof g->denied, "%s", action_name(action));
	}
	return SQLITE_DENY;
}

static int64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Called every PROGRESS_OPS virtual-machine steps: non-zero interrupts. */
static int progress(void *arg)
{
	struct profdb__sql_guard *g = arg;
	if (g->deadline_ns && now_ns() > g->deadline_ns) {
		g->timed_out = 1;
		return 1;
	}
	return 0;
}

#define PROGRESS_OPS 100000 /* about a millisecond of work between clock reads */

int profdb__sql_prepare_one(profdb *db, sqlite3_stmt **out, const char *sql)
{
	const char *tail = NULL;
	*out = NULL;
	if (sqlite3_prepare_v2(db->sql, sql, -1, out, &tail) != SQLITE_OK)
		return profdb__sqlerror(db, "bad SQL");
	if (!*out)
		return profdb__error(db, PROFDB_EUSAGE, "no SQL statement given");
	while (tail && (*tail == ' ' || *tail == '\t' || *tail == '\n' || *tail == '\r' || *tail == ';'))
		tail++;
	if (tail && *tail) {
		sqlite3_finalize(*out);
		*out = NULL;
		return profdb__error(db, PROFDB_EUSAGE, "give one SQL statement (text after the first: '%.40s')", tail);
	}
	return PROFDB_OK;
}

void profdb__sql_guard_begin(profdb *db, struct profdb__sql_guard *g, const struct profdb_sql_opts *o)
{
	memset(g, 0, sizeof *g);
	g->write = o->write;
	if (o->timeout_ms > 0)
		g->deadline_ns = now_ns() + o->timeout_ms * 1000000;
	sqlite3_set_authorizer(db->sql, authorize, g);
	sqlite3_progress_handler(db->sql, PROGRESS_OPS, progress, g);
}

int profdb__sql_guard_end(profdb *db, struct profdb__sql_guard *g, const struct profdb_sql_opts *o, int rc)
{
	sqlite3_progress_handler(db->sql, 0, NULL, NULL);
	sqlite3_set_authorizer(db->sql, NULL, NULL);
	if (rc == PROFDB_OK)
		return rc;
	if (g->denied[0])
		return profdb__error(db, PROFDB_ERROR,
		    "sql is read-only: %s is refused (pass --write to change the database)", g->denied);
	if (g->timed_out)
		return profdb__error(db, PROFDB_ERROR,
		    "sql: statement stopped after %lld.%03lld s (--timeout SECONDS raises the limit, 0 removes it)",
		    (long long)(o->timeout_ms / 1000), (long long)(o->timeout_ms % 1000));
	return rc;
}

/* Any view in the file, by name (a view can hide an endless recursive
 * CTE behind a table name the reader expects); "" if none. */
static int find_view(sqlite3 *src, char *name, size_t cap)
{
	sqlite3_stmt *q = NULL;
	int rc;
	name[0] = '\0';
	if (sqlite3_prepare_v2(src, "SELECT name FROM sqlite_master WHERE type = 'view' ORDER BY name LIMIT 1",
	                       -1, &q, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW)
		snprintf(name, cap, "%s", (const char *)sqlite3_column_text(q, 0));
	sqlite3_finalize(q);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -1;
}

/* text as one line without SQLite's "*** in database main ***" heading. */
static void one_line(char *out, size_t cap, const char *text)
{
	static const char head[] = "*** in database main ***";
	size_t n = 0;
	if (strncmp(text, head, sizeof head - 1) == 0)
		text += sizeof head - 1;
	while (*text == '\n' || *text == ' ')
		text++;
	for (; *text && n + 1 < cap; text++)
		out[n++] = *text == '\n' || *text == '\r' ? ' ' : *text;
	out[n] = '\0';
}

/* PRAGMA quick_check: the b-trees and records are well formed (O(size),
 * without integrity_check's index cross-checks); its first complaint. */
static int quick_check(sqlite3 *src, char *why, size_t cap)
{
	sqlite3_stmt *q = NULL;
	int rc;
	why[0] = '\0';
	if (sqlite3_prepare_v2(src, "PRAGMA quick_check(1)", -1, &q, NULL) != SQLITE_OK) {
		snprintf(why, cap, "%s", sqlite3_errmsg(src));
		return -1;
	}
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW && strcmp((const char *)sqlite3_column_text(q, 0), "ok") != 0)
		one_line(why, cap, (const char *)sqlite3_column_text(q, 0));
	else if (rc != SQLITE_ROW)
		snprintf(why, cap, "%s", sqlite3_errmsg(src));
	sqlite3_finalize(q);
	return why[0] ? -1 : 0;
}

int profdb__sql_source_check(sqlite3 *src, const char *file, struct profdb_err *err)
{
	char what[160];
	if (find_view(src, what, sizeof what) != 0)
		return profdb__err_set(err, PROFDB_EFORMAT, "%s: cannot read as SQLite: %s", file, sqlite3_errmsg(src));
	if (what[0])
		return profdb__err_set(err, PROFDB_EFORMAT,
		    "%s: has a view '%s' where a profiler database has only tables: refused", file, what);
	if (quick_check(src, what, sizeof what) != 0)
		return profdb__err_set(err, PROFDB_EFORMAT, "%s: corrupt SQLite file (quick_check: %s)", file, what);
	return PROFDB_OK;
}

/*
 * rows_vtab.c - rows in memory as an eponymous virtual table and their
 * INSERT .. SELECT (rows_vtab.h says why).
 *
 * Each user registers its own module, whose client data is its rows'
 * source: the INSERT names that module as a table and SQLite connects to
 * it (eponymous-only: no CREATE VIRTUAL TABLE, nothing in the schema).
 * The source hands values to SQLite with the types a bound parameter
 * would have, so the rows stored are those of one INSERT per row.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "rows_vtab.h"
#include "banned.h"

struct rvtab {
	sqlite3_vtab base;
	struct profdb__rows_src *src;
};

struct rcur {
	sqlite3_vtab_cursor base;
	size_t row;
};

static int r_connect(sqlite3 *db, void *aux, int argc, const char *const *argv, sqlite3_vtab **out,
                     char **err)
{
	struct profdb__rows_src *src = aux;
	struct rvtab *t;
	char *decl;
	size_t cap = 32 + (size_t)src->ncols * 12, off;
	int rc;
	(void)argc;
	(void)argv;
	(void)err;
	decl = malloc(cap);
	if (!decl)
		return SQLITE_NOMEM;
	off = (size_t)snprintf(decl, cap, "CREATE TABLE x(");
	for (int i = 0; i < src->ncols; i++)
		off += (size_t)snprintf(decl + off, cap - off, "%sc%d", i ? "," : "", i);
	snprintf(decl + off, cap - off, ")");
	rc = sqlite3_declare_vtab(db, decl);
	free(decl);
	if (rc != SQLITE_OK)
		return rc;
	t = sqlite3_malloc(sizeof *t);
	if (!t)
		return SQLITE_NOMEM;
	memset(t, 0, sizeof *t);
	t->src = src;
	*out = &t->base;
	return SQLITE_OK;
}

static int r_disconnect(sqlite3_vtab *v)
{
	sqlite3_free(v);
	return SQLITE_OK;
}

static int r_best_index(sqlite3_vtab *v, sqlite3_index_info *info)
{
	(void)v;
	info->estimatedCost = 4096;
	info->estimatedRows = 4096;
	return SQLITE_OK;
}

static int r_open(sqlite3_vtab *v, sqlite3_vtab_cursor **out)
{
	struct rcur *c = sqlite3_malloc(sizeof *c);
	(void)v;
	if (!c)
		return SQLITE_NOMEM;
	memset(c, 0, sizeof *c);
	*out = &c->base;
	return SQLITE_OK;
}

static int r_close(sqlite3_vtab_cursor *c)
{
	sqlite3_free(c);
	return SQLITE_OK;
}

static int r_filter(sqlite3_vtab_cursor *c, int idx, const char *idxstr, int argc, sqlite3_value **argv)
{
	(void)idx;
	(void)idxstr;
	(void)argc;
	(void)argv;
	((struct rcur *)c)->row = 0;
	return SQLITE_OK;
}

static int r_next(sqlite3_vtab_cursor *c)
{
	((struct rcur *)c)->row++;
	return SQLITE_OK;
}

static int r_eof(sqlite3_vtab_cursor *c)
{
	const struct profdb__rows_src *src = ((struct rvtab *)c->pVtab)->src;
	return ((struct rcur *)c)->row >= src->count(src);
}

static int r_column(sqlite3_vtab_cursor *c, sqlite3_context *ctx, int col)
{
	const struct profdb__rows_src *src = ((struct rvtab *)c->pVtab)->src;
	src->column(src, ((struct rcur *)c)->row, col, ctx);
	return SQLITE_OK;
}

static int r_rowid(sqlite3_vtab_cursor *c, sqlite3_int64 *out)
{
	*out = (sqlite3_int64)((struct rcur *)c)->row;
	return SQLITE_OK;
}

static const sqlite3_module rows_module = {
	.iVersion = 0,
	.xCreate = NULL, /* eponymous-only: the module is the table */
	.xConnect = r_connect,
	.xBestIndex = r_best_index,
	.xDisconnect = r_disconnect,
	.xDestroy = r_disconnect,
	.xOpen = r_open,
	.xClose = r_close,
	.xFilter = r_filter,
	.xNext = r_next,
	.xEof = r_eof,
	.xColumn = r_column,
	.xRowid = r_rowid,
};

static int prepare_insert(struct profdb__rows_insert *ri, uint64_t used, sqlite3_stmt **out);

int profdb__rows_insert_new(struct profdb__rows_insert *ri, sqlite3 *db, const char *tag, const char *table,
                            const char *cols, struct profdb__rows_src *src)
{
	size_t cap = strlen(tag) + strlen(table) + 16;
	int rc;
	memset(ri, 0, sizeof *ri);
	ri->db = db;
	if (!(ri->module = malloc(cap)))
		return SQLITE_NOMEM;
	snprintf(ri->module, cap, "profdb_%s_%s", tag, table);
	if ((rc = sqlite3_create_module_v2(db, ri->module, &rows_module, src, NULL)) != SQLITE_OK) {
		free(ri->module); /* nothing registered: nothing to drop */
		ri->module = NULL;
		return rc;
	}
	ri->ncols = src->ncols;
	ri->table = strdup(table);
	ri->cols = strdup(cols);
	rc = !ri->table || !ri->cols ? SQLITE_NOMEM : prepare_insert(ri, ~(uint64_t)0, &ri->insert);
	if (rc != SQLITE_OK)
		profdb__rows_insert_free(ri);
	return rc;
}

void profdb__rows_insert_free(struct profdb__rows_insert *ri)
{
	/* the statement holds the virtual table: finalize it before the
	 * module goes, and the module before the source it points at */
	sqlite3_finalize(ri->insert);
	ri->insert = NULL;
	for (int i = 0; i < ri->nsome; i++)
		sqlite3_finalize(ri->some[i].insert);
	ri->nsome = 0;
	sqlite3_finalize(ri->last);
	ri->last = NULL;
	free(ri->table);
	free(ri->cols);
	ri->table = ri->cols = NULL;
	if (ri->module)
		sqlite3_create_module_v2(ri->db, ri->module, NULL, NULL, NULL);
	free(ri->module);
	ri->module = NULL;
}

static int run(sqlite3_stmt *q)
{
	int rc = sqlite3_step(q);
	sqlite3_reset(q);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/*
 * "INSERT OR FAIL INTO t(cols) SELECT c0, NULL, c2.. FROM module": the
 * columns not in used (bit i: column i; from 64 on, all used) as NULL.
 * Every column named, in order: SQLite then builds the record in place
 * (naming fewer columns made it copy each value once more, and cost more
 * than the calls it saved).  OR FAIL: an INSERT that may stop half way
 * needs no statement journal (ABORT, the default, has SQLite copy each
 * page the statement changes to a temporary file first, in case it must
 * undo them).  The rows of a failed INSERT stay, but so does nothing
 * else: the ingest's one transaction is rolled back on the first error
 * (store.c).  SQLite result code.
 */
static int prepare_insert(struct profdb__rows_insert *ri, uint64_t used, sqlite3_stmt **out)
{
	size_t cap = strlen(ri->table) + strlen(ri->cols) + strlen(ri->module) + 48 + (size_t)ri->ncols * 8, off;
	char *sql = malloc(cap);
	int rc;
	*out = NULL;
	if (!sql)
		return SQLITE_NOMEM;
	off = (size_t)snprintf(sql, cap, "INSERT OR FAIL INTO %s(%s) SELECT ", ri->table, ri->cols);
	for (int i = 0; i < ri->ncols; i++)
		off += (size_t)(i >= 64 || used >> i & 1 ? snprintf(sql + off, cap - off, "%sc%d", i ? "," : "", i)
		                                         : snprintf(sql + off, cap - off, "%sNULL", i ? "," : ""));
	snprintf(sql + off, cap - off, " FROM %s", ri->module);
	rc = sqlite3_prepare_v3(ri->db, sql, -1, SQLITE_PREPARE_PERSISTENT, out, NULL);
	free(sql);
	return rc;
}

int profdb__rows_insert_run_cols(struct profdb__rows_insert *ri, uint64_t used)
{
	uint64_t all = ri->ncols >= 64 ? ~(uint64_t)0 : ((uint64_t)1 << ri->ncols) - 1;
	used &= all;
	if (ri->ncols > 64 || used == all || !used)
		return run(ri->insert);
	for (int i = 0; i < ri->nsome; i++)
		if (ri->some[i].cols == used)
			return run(ri->some[i].insert);
	if (ri->nsome == PROFDB__ROWS_INSERT_VARIANTS ||
	    prepare_insert(ri, used, &ri->some[ri->nsome].insert) != SQLITE_OK)
		return run(ri->insert); /* the INSERT of every column serves */
	ri->some[ri->nsome].cols = used;
	return run(ri->some[ri->nsome++].insert);
}

/* The table's largest rowid, 0 when it is empty, in *out.  SQLite result
 * code. */
static int largest_rowid(struct profdb__rows_insert *ri, int64_t *out)
{
	int rc;
	if (!ri->last) {
		char *sql = sqlite3_mprintf("SELECT max(rowid) FROM \"%w\"", ri->table);
		if (!sql)
			return SQLITE_NOMEM;
		rc = sqlite3_prepare_v3(ri->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &ri->last, NULL);
		sqlite3_free(sql);
		if (rc != SQLITE_OK)
			return rc;
	}
	rc = sqlite3_step(ri->last);
	*out = rc == SQLITE_ROW ? sqlite3_column_int64(ri->last, 0) : 0;
	sqlite3_reset(ri->last);
	return rc == SQLITE_ROW ? SQLITE_OK : rc;
}

int profdb__rows_insert_run_ids(struct profdb__rows_insert *ri, uint64_t used, int64_t first_id, int *appended)
{
	int64_t last;
	int rc = largest_rowid(ri, &last), append;
	if (rc != SQLITE_OK)
		return rc;
	/* an empty table reads as 0, and SQLite's first rowid there is 1 */
	append = last == first_id - 1;
	if (appended)
		*appended = append;
	return profdb__rows_insert_run_cols(ri, append ? used & ~(uint64_t)1 : used);
}

/*
 * ch_kgroups.c - diff keys with type, shape or core on a clickhouse://
 * snapshot, without pulling every kernel row.
 *
 * kernel_step_stat has no type, shape or core column, so such a key was
 * sampled from the kernel rows themselves, pulled into the snapshot: two
 * runs of 10 M kernels took 205 s (bench/results.md).  The comparison only
 * sums dur_ns and counts rows per key and step (compare_samples.c), so the
 * server sums them per rank, step and every column a key or a kernel
 * filter can name (name, base name, kind, type, input shapes, core) and
 * the snapshot gets one row per group in temp.profdb_keygroup, which
 * compare_samples.c reads in place of kernel (sum of calls for count).
 * Sums of integers: the same values as the rows give; the texts are the
 * run's dictionary interned into the snapshot's str table, so the key
 * expression and its order are SQLite's own.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "store/intern.h"
#include "banned.h"

enum { G_RANK, G_STEP, G_NAME, G_BASE, G_KIND, G_TYPE, G_SHAPE, G_CORE, G_SUM, G_CALLS, G_COUNT };

static const enum profdb__ch_type group_types[G_COUNT] = {
	CH_I64, CH_NI64, CH_U32, CH_U32, CH_I64, CH_U32, CH_U32, CH_U32, CH_I64, CH_I64
};

/* One run's groups on their way into temp.profdb_keygroup. */
struct kgroups {
	profdb *db;
	struct profdb__intern *intern;
	sqlite3_stmt *put;
	int64_t local;             /* the snapshot's run id */
	int64_t *dict;             /* local str id by the run's dictionary id (0: not met) */
	size_t ndict;
	char *text;                /* NUL-terminated copy for interning */
	size_t textcap;
};

static int dict_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct kgroups *g = arg;
	if (v[1].n + 1 > g->textcap) {
		char *t = realloc(g->text, v[1].n + 1);
		if (!t)
			return profdb__err_set(err, PROFDB_ERROR, "out of memory"), -1;
		g->text = t;
		g->textcap = v[1].n + 1;
	}
	memcpy(g->text, v[1].s, v[1].n);
	g->text[v[1].n] = '\0';
	int64_t local = profdb__intern(g->intern, g->text);
	if (!local)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(g->db->sql)), -1;
	if (profdb__ch_dict_set(&g->dict, &g->ndict, (size_t)(uint32_t)v[0].i, local) != 0)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory"), -1;
	return 0;
}

/* A dictionary id as a local str id: id 0 (or one the dictionary lacks)
 * is NULL in a nullable column and "" in name and base name, as a pull
 * stores them (ch_pull.c, bind_dict). */
static int bind_text(struct kgroups *g, int k, uint64_t id, int nullable)
{
	int64_t local = id < g->ndict ? g->dict[id] : 0;
	if (!local && nullable)
		return sqlite3_bind_null(g->put, k);
	if (!local && !(local = profdb__intern(g->intern, "")))
		return SQLITE_ERROR;
	return sqlite3_bind_int64(g->put, k, local);
}

static int group_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct kgroups *g = arg;
	sqlite3_stmt *put = g->put;
	int bad = 0;
	sqlite3_reset(put);
	sqlite3_bind_int64(put, 1, g->local);
	sqlite3_bind_int64(put, 2, v[G_RANK].i);
	if (v[G_STEP].null)
		sqlite3_bind_null(put, 3);
	else
		sqlite3_bind_int64(put, 3, v[G_STEP].i);
	bad |= bind_text(g, 4, (uint64_t)v[G_NAME].i, 0) != SQLITE_OK;
	bad |= bind_text(g, 5, (uint64_t)v[G_BASE].i, 0) != SQLITE_OK;
	sqlite3_bind_int64(put, 6, v[G_KIND].i);
	bad |= bind_text(g, 7, (uint64_t)v[G_TYPE].i, 1) != SQLITE_OK;
	bad |= bind_text(g, 8, (uint64_t)v[G_SHAPE].i, 1) != SQLITE_OK;
	bad |= bind_text(g, 9, (uint64_t)v[G_CORE].i, 1) != SQLITE_OK;
	sqlite3_bind_int64(put, 10, v[G_SUM].i);
	sqlite3_bind_int64(put, 11, v[G_CALLS].i);
	if (bad || sqlite3_step(put) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(g->db->sql)), -1;
	return 0;
}

/* The dictionary and the groups of remote run remote (ours: an integer,
 * safe in the statement's text). */
static int fill_run(struct kgroups *g, unsigned long long remote)
{
	static const enum profdb__ch_type dict_types[] = { CH_U32, CH_STR };
	char q[512];
	int rc;
	g->ndict = 0;
	snprintf(q, sizeof q, "SELECT id, text FROM " CH_DICT_TABLE " WHERE run_id = %llu FORMAT RowBinary", remote);
	if ((rc = profdb__ch_rows(g->db, q, dict_types, 2, dict_row, g)) != PROFDB_OK)
		return rc;
	snprintf(q, sizeof q, "SELECT rank, step, name_id, base_id, kind, type_id, in_shapes_id, core_id,"
	         " toInt64(sum(dur_ns)), toInt64(count()) FROM kernel_ids WHERE run_id = %llu"
	         " GROUP BY rank, step, name_id, base_id, kind, type_id, in_shapes_id, core_id FORMAT RowBinary",
	         remote);
	return profdb__ch_rows(g->db, q, group_types, G_COUNT, group_row, g);
}

int profdb__ch_kernel_groups(profdb *db)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct kgroups g;
	sqlite3_stmt *runs = NULL;
	int rc = PROFDB_OK;
	memset(&g, 0, sizeof g);
	g.db = db;
	if (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.profdb_keygroup;"
	                 " CREATE TEMP TABLE profdb_keygroup (run_id INTEGER, rank INTEGER, step INTEGER, name_id INTEGER,"
	                 " base_id INTEGER, kind INTEGER, type_id INTEGER, in_shapes_id INTEGER, core_id INTEGER,"
	                 " dur_ns INTEGER, calls INTEGER)", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "SELECT remote_id, local_id FROM temp.ch_run", -1, &runs, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "INSERT INTO temp.profdb_keygroup VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
	                       -1, &g.put, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot make the snapshot");
		goto out;
	}
	/* one transaction: a commit per group row costs more than the row */
	if (sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot make the snapshot");
		goto out;
	}
	if (!(g.intern = profdb__intern_new(db->sql, (size_t)db->limits.intern_cached, &err)))
		rc = profdb__error(db, err.code, "%s", err.msg);
	while (rc == PROFDB_OK && sqlite3_step(runs) == SQLITE_ROW) {
		g.local = sqlite3_column_int64(runs, 1);
		rc = fill_run(&g, (unsigned long long)sqlite3_column_int64(runs, 0));
	}
	sqlite3_reset(runs);
	profdb__intern_free(g.intern); /* its statements go before COMMIT */
	g.intern = NULL;
	if (rc == PROFDB_OK && sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		rc = profdb__sqlerror(db, "cannot make the snapshot");
	if (rc != PROFDB_OK)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
out:
	sqlite3_finalize(runs);
	sqlite3_finalize(g.put);
	free(g.dict);
	free(g.text);
	return rc;
}

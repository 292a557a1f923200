/*
 * ch_open.c - the clickhouse source (source.h): --db clickhouse://... is a
 * read-only snapshot of runs on a ClickHouse server behind the ordinary
 * profdb handle, and ClickHouse SQL passed through (profdb sql).
 *
 * The snapshot is a temporary store into which the selected runs' rows
 * are pulled (ch_pull.c; the server selects each run's rows by its id) as
 * far as each query needs them, so every query function, formatter and
 * diff runs unchanged on it and prints the same bytes as on the SQLite
 * file the runs came from.  Where a query only needs groups, the server
 * computes them and only the groups travel (prepare, below: runs and
 * summary in ch_runs.c, kernels in ch_kernels.c and ch_groups.c, steps in
 * ch_steps.c, diff in ch_compare.c and ch_kgroups.c); what it does not
 * group is pulled as rows and computed here (doc/clickhouse.md
 * "ClickHouse" says which).  Select runs with --run.
 * It is SQLite's temporary database (""), not ":memory:": past an 8 MB
 * page cache its pages go to a temporary file, so a diff --by type that
 * pulls two 10 M-row runs stays in bounded memory (bench/results.md).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "banned.h"

static int wanted(const char *name, const char *const *runs, size_t nruns)
{
	if (nruns == 0)
		return 1;
	for (size_t i = 0; i < nruns; i++)
		if (strcmp(runs[i], name) == 0)
			return 1;
	return 0;
}

/* Pull one run (its run row and the tables of mask) and note its server
 * id and what is here. */
static int pull_one(profdb *db, const char *url, const char *name, unsigned mask)
{
	int64_t local = 0;
	uint64_t remote = 0;
	sqlite3_stmt *st = NULL;
	int rc = profdb__ch_pull(db, url, name, 0, mask, NULL, &local, &remote);
	if (rc != PROFDB_OK)
		return rc;
	if (sqlite3_prepare_v2(db->sql, "INSERT INTO temp.ch_run (local_id, remote_id, mask) VALUES (?1, ?2, ?3)", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot note run ids");
	sqlite3_bind_int64(st, 1, local);
	sqlite3_bind_int64(st, 2, (int64_t)remote); /* 63 bits (ch_push.c) */
	sqlite3_bind_int64(st, 3, mask);
	rc = sqlite3_step(st) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot note run ids");
	sqlite3_finalize(st);
	return rc;
}

/* Pull the wanted runs in push order, so they get the ids (and the order)
 * they had in the SQLite file they were pushed from. */
static int pull_runs(profdb *db, const char *url, const char *const *runs, size_t nruns, unsigned mask)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *ch = NULL;
	struct profdb__ch_run *list = NULL;
	size_t n = 0;
	int rc = PROFDB_OK;
	if (profdb__ch_open(&ch, url, &db->remote_opts, &err) == PROFDB_OK)
		profdb__ch_set_readonly(ch); /* a snapshot only reads the server */
	if (err.code != PROFDB_OK || profdb__ch_runs(ch, &list, &n, &err) != PROFDB_OK) {
		profdb__ch_close(ch);
		return profdb__error(db, err.code, "%s", err.msg);
	}
	profdb__ch_close(ch);
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++) {
		int newest = 1; /* a name pushed again (--replace mid-way): its last row */
		for (size_t j = i + 1; j < n; j++)
			newest &= strcmp(list[j].name, list[i].name) != 0;
		if (newest && wanted(list[i].name, runs, nruns))
			rc = pull_one(db, url, list[i].name, mask);
	}
	profdb__ch_runs_free(list, n);
	return rc;
}

const char *profdb__ch_url(const profdb *db)
{
	return ((const struct profdb__ch_snap *)db->source_state)->url;
}

static void ch_close(profdb *db)
{
	struct profdb__ch_snap *snap = db->source_state;
	if (!snap)
		return;
	if (snap->url) /* it may hold a password: not left in freed memory */
		memset(snap->url, 0, strlen(snap->url));
	free(snap->url);
	free(snap);
	db->source_state = NULL;
}

static int ch_source_open(profdb *db, const char *url, const struct profdb_open_opts *o)
{
	struct profdb__ch_snap *snap;
	int rc = profdb__db_open_file(db, "", 0);
	if (rc != PROFDB_OK)
		return rc;
	if (sqlite3_exec(db->sql, "PRAGMA cache_size = -8192", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	if (!profdb__ch_is_url(url))
		return profdb__error(db, PROFDB_EUSAGE, "not a clickhouse:// URL");
	if (!(snap = calloc(1, sizeof *snap)) || !(snap->url = strdup(url))) {
		free(snap);
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	db->source_state = snap;
	if (sqlite3_exec(db->sql, "CREATE TEMP TABLE ch_run (local_id INTEGER PRIMARY KEY,"
	                 " remote_id INTEGER NOT NULL, mask INTEGER NOT NULL, step_rows INTEGER)",
	                 NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	/* the tags (run_tag, and run_meta's) even when lazy: --tag selects
	 * runs here, before the server is asked for figures */
	rc = pull_runs(db, url, o->runs, o->nruns, o->flags & PROFDB_OPEN_LAZY ?
	               profdb__ch_table_bit("run_tag") | profdb__ch_table_bit("run_meta") : CH_ALL_TABLES);
	db->readonly = 1; /* the pulls above wrote the snapshot; nothing else may */
	return rc;
}

static int ch_prepare(profdb *db, unsigned need, const void *arg, struct profdb__rel *rel)
{
	switch (need) {
	case PROFDB__NEED_KERNEL_GROUPS:
		return profdb__ch_prepare_kernels(db, arg, rel);
	case PROFDB__NEED_KERNEL_ROWS:
		return profdb__ch_prepare_kernel_rows(db, arg);
	case PROFDB__NEED_STEP_GROUPS:
		return profdb__ch_prepare_steps(db, arg, rel);
	case PROFDB__NEED_RUN_FIGURES:
		return profdb__ch_prepare_run_figures(db, rel);
	case PROFDB__NEED_RUN_TOTALS:
		return profdb__ch_prepare_run_totals(db, arg, rel);
	case PROFDB__NEED_DIFF:
		return profdb__ch_prepare_diff(db, *(const int *)arg, rel);
	case PROFDB__NEED_OP_TREE:
		return profdb__error(db, PROFDB_EUSAGE, "--by op reads a local database, not a clickhouse:// snapshot");
	default:
		return profdb__ch_ensure(db, CH_ALL_TABLES);
	}
}

const struct profdb__source profdb__source_clickhouse = {
	ch_source_open, ch_prepare, profdb__ch_query_sql, profdb__ch_kernel_steps, ch_close
};

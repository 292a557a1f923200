/*
 * ch_open.c - --db clickhouse://...: a read-only snapshot of runs on a
 * ClickHouse server behind the ordinary profdb handle, and ClickHouse SQL
 * passed through (profdb sql).
 *
 * The snapshot is a temporary store into which the selected runs are
 * pulled (ch_pull.c; the server selects each run's rows by its id), so
 * every query function, formatter and diff runs unchanged on it and prints
 * the same bytes as on the SQLite file the runs came from.  The figures
 * are computed here, not on the server: the price is moving the selected
 * runs' rows (doc/clickhouse.md "ClickHouse" says so); select runs with --run.
 * It is SQLite's temporary database (""), not ":memory:": past an 8 MB
 * page cache its pages go to a temporary file, so a diff --by type that
 * pulls two 10 M-row runs stays in bounded memory (it took 3.3 GB; 97 MB
 * with a 16 MB cache, which bounds the sorters too: 3 M rows a run 78 ->
 * 53 MB at 8 MB, and faster).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query/result.h"
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
	if (profdb__ch_open(&ch, url, &err) == PROFDB_OK)
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

int profdb_open_clickhouse(profdb **out, const char *url, const char *const *runs, size_t nruns,
                           unsigned flags)
{
	int rc = profdb_open(out, "", 0);
	if (rc != PROFDB_OK)
		return rc;
	if (sqlite3_exec((*out)->sql, "PRAGMA cache_size = -8192", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(*out, "cannot make the snapshot");
	if (!profdb__ch_is_url(url))
		return profdb__error(*out, PROFDB_EUSAGE, "not a clickhouse:// URL");
	/* mask: the tables of the run pulled so far (queries pull more);
	 * step_rows: its kernel_step_stat rows on the server, once a diff
	 * counted them (ch_compare.c) */
	if (sqlite3_exec((*out)->sql, "CREATE TEMP TABLE ch_run (local_id INTEGER PRIMARY KEY,"
	                 " remote_id INTEGER NOT NULL, mask INTEGER NOT NULL, step_rows INTEGER)",
	                 NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(*out, "cannot make the snapshot");
	/* the tags (run_tag, and run_meta's) of even a light snapshot: --tag
	 * selects runs here, before the server is asked for figures */
	rc = pull_runs(*out, url, runs, nruns, flags & PROFDB_CH_RUNS_ONLY ?
	               profdb__ch_table_bit("run_tag") | profdb__ch_table_bit("run_meta") : CH_ALL_TABLES);
	if (rc != PROFDB_OK)
		return rc;
	(*out)->remote = strdup(url);
	if (!(*out)->remote)
		return profdb__error(*out, PROFDB_ERROR, "out of memory");
	(*out)->readonly = 1;
	return PROFDB_OK;
}

int profdb_is_clickhouse_url(const char *s)
{
	return profdb__ch_is_url(s);
}

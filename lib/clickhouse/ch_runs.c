/*
 * ch_runs.c - profdb runs and profdb summary on a clickhouse:// snapshot,
 * computed by the server: per run the kernel count, total device time,
 * elapsed time (the longest per-rank span) and op count and CPU time are
 * GROUP BYs over the run's rows there (exact integers), so listing 200
 * runs moves 200 rows, not their kernels.  The figures land in TEMP
 * tables next to the snapshot's run rows (profdb_runfig per run; for runs,
 * profdb_krank per run and rank, whose ranks the list counts), which
 * query_runs.c reads in place of the rows, so the formatters print the
 * same bytes.  The definitions are those of query_runs.c and the
 * run_summary view: keep them in step.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "query/query.h"
#include "banned.h"

/* One run's figures, as the server answers them. */
struct agg_acc {
	struct profdb__ch_buf pending;
	sqlite3 *sql;
	sqlite3_stmt *put;         /* UPDATE of temp.profdb_runfig */
	size_t ncols;              /* of the kind's answer (fetch) */
	struct profdb_err *err;
};

static const enum profdb__ch_type agg_types[] = { CH_U64, CH_I64, CH_I64, CH_I64 };

static int agg_sink(void *arg, const char *p, size_t n)
{
	struct agg_acc *a = arg;
	struct profdb__ch_val v[4];
	size_t off = 0, k, ncols = a->ncols;
	if (profdb__ch_buf_add(&a->pending, p, n) != 0)
		return profdb__err_set(a->err, PROFDB_ERROR, "out of memory"), -1;
	while ((k = profdb__ch_get_row(a->pending.data + off, a->pending.len - off, agg_types, ncols, v)) > 0) {
		sqlite3_reset(a->put);
		for (size_t i = 0; i < ncols; i++)
			sqlite3_bind_int64(a->put, (int)i + 1, v[i].i);
		if (sqlite3_step(a->put) != SQLITE_DONE)
			return profdb__err_set(a->err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(a->sql)), -1;
		off += k;
	}
	memmove(a->pending.data, a->pending.data + off, a->pending.len - off);
	a->pending.len -= off;
	return 0;
}

/* "IN (id, ...)" of the snapshot's runs on the server; 0 runs: "IN (0)". */
static int id_list(sqlite3 *sql, struct profdb__ch_buf *b)
{
	sqlite3_stmt *st = NULL;
	int bad = profdb__ch_buf_add(b, " IN (0", 6) != 0;
	if (sqlite3_prepare_v2(sql, "SELECT remote_id FROM temp.ch_run", -1, &st, NULL) != SQLITE_OK)
		return -1;
	while (!bad && sqlite3_step(st) == SQLITE_ROW) {
		char num[32];
		snprintf(num, sizeof num, ", %lld", (long long)sqlite3_column_int64(st, 0));
		bad = profdb__ch_buf_add(b, num, strlen(num)) != 0;
	}
	sqlite3_finalize(st);
	return bad || profdb__ch_buf_add(b, ")", 1) != 0 ? -1 : 0;
}

/* The figures of one kind for the runs ids names: KERNELS and OPS per
 * run into temp.profdb_runfig, KERNEL_RANKS per run and rank into temp.profdb_krank. */
enum fetch_kind { KERNELS, OPS, KERNEL_RANKS };

static int fetch(struct profdb__ch *ch, sqlite3 *sql, enum fetch_kind kind, const char *ids, struct profdb_err *err)
{
	static const char *const q[3][2] = {
		{ "SELECT run_id, sum(n), sum(t), max(span) FROM (SELECT run_id, rank, count() AS n,"
		  " sum(dur_ns) AS t, max(start_ns + dur_ns) - min(start_ns) AS span FROM kernel_ids"
		  " WHERE run_id", " GROUP BY run_id, rank) GROUP BY run_id FORMAT RowBinary" },
		{ "SELECT run_id, count(), sum(ifNull(self_ns, 0)) FROM op WHERE run_id",
		  " GROUP BY run_id FORMAT RowBinary" },
		{ "SELECT run_id, rank, count(), sum(dur_ns) FROM kernel_ids WHERE run_id",
		  " GROUP BY run_id, rank FORMAT RowBinary" } };
	static const char *const put[3] = {
		"UPDATE temp.profdb_runfig SET kernels = ?2, total_device = ?3, elapsed = ?4"
		" WHERE local_id = (SELECT local_id FROM temp.ch_run WHERE remote_id = ?1)",
		"UPDATE temp.profdb_runfig SET ops = ?2, total_cpu = ?3"
		" WHERE local_id = (SELECT local_id FROM temp.ch_run WHERE remote_id = ?1)",
		"INSERT INTO temp.profdb_krank (run_id, rank, kernels, total_device)"
		" SELECT local_id, ?2, ?3, ?4 FROM temp.ch_run WHERE remote_id = ?1" };
	struct agg_acc a = { { 0 }, sql, NULL, kind == OPS ? 3 : 4, err };
	struct profdb__ch_buf text = { 0 };
	int rc;
	if (profdb__ch_buf_add(&text, q[kind][0], strlen(q[kind][0])) || profdb__ch_buf_add(&text, ids, strlen(ids)) ||
	    profdb__ch_buf_add(&text, q[kind][1], strlen(q[kind][1])))
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	else if (sqlite3_prepare_v2(sql, put[kind], -1, &a.put, NULL) != SQLITE_OK)
		rc = profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(sql));
	else
		rc = profdb__ch_send(ch, text.data, NULL, 0, 1, agg_sink, &a, err);
	/* the body's end is a row's end (RowBinary has no end marker) */
	if (rc == PROFDB_OK && a.pending.len)
		rc = profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: the answer ends inside a row",
		    profdb__ch_where(ch));
	sqlite3_finalize(a.put);
	profdb__ch_buf_free(&a.pending);
	profdb__ch_buf_free(&text);
	return rc;
}

/* Fill temp.profdb_runfig with the server's figures of the snapshot's runs: the
 * kernel ones per run, or (kernel_kind KERNEL_RANKS) per run and rank into
 * temp.profdb_krank. */
static int aggregate(profdb *db, enum fetch_kind kernel_kind)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *ch = NULL;
	struct profdb__ch_buf ids = { 0 };
	if (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.profdb_runfig; DROP TABLE IF EXISTS temp.profdb_krank;"
	    " CREATE TEMP TABLE profdb_runfig (local_id INTEGER PRIMARY KEY, kernels INTEGER, total_device INTEGER,"
	    " elapsed INTEGER, ops INTEGER, total_cpu INTEGER);"
	    " CREATE TEMP TABLE profdb_krank (run_id INTEGER, rank INTEGER, kernels INTEGER, total_device INTEGER,"
	    " PRIMARY KEY (run_id, rank));"
	    " INSERT INTO temp.profdb_runfig (local_id) SELECT local_id FROM temp.ch_run", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	if (id_list(db->sql, &ids) != 0)
		profdb__err_set(&err, PROFDB_ERROR, "out of memory");
	else if (profdb__ch_open(&ch, profdb__ch_url(db), &db->remote_opts, &err) == PROFDB_OK) {
		profdb__ch_set_readonly(ch); /* a snapshot only reads the server */
		if (fetch(ch, db->sql, kernel_kind, ids.data, &err) == PROFDB_OK)
			fetch(ch, db->sql, OPS, ids.data, &err);
	}
	profdb__ch_close(ch);
	profdb__ch_buf_free(&ids);
	return err.code == PROFDB_OK ? PROFDB_OK : profdb__error(db, err.code, "%s", err.msg);
}

int profdb__ch_prepare_run_figures(profdb *db, struct profdb__rel *rel)
{
	int rc = profdb__ch_ensure(db, profdb__ch_table_bit("source_file"));
	if (rc == PROFDB_OK && (rc = aggregate(db, KERNEL_RANKS)) == PROFDB_OK) {
		rel->krank = "temp.profdb_krank";
		rel->runfig = "temp.profdb_runfig";
	}
	return rc;
}

int profdb__ch_prepare_run_totals(profdb *db, const struct profdb_filter *f, struct profdb__rel *rel)
{
	int rc;
	/* whole runs are summed on the server; a rank, step or tag filter
	 * reads the rows into the snapshot */
	if (f->ntags || f->rank != PROFDB_NULL || f->step_lo != PROFDB_NULL || f->step_hi != PROFDB_NULL)
		return profdb__ch_ensure(db, CH_ALL_TABLES);
	if ((rc = aggregate(db, KERNELS)) != PROFDB_OK)
		return rc;
	/* the work outside every step: the per-step table's rows without one */
	if ((rc = profdb__ch_ensure(db, profdb__ch_table_bit("kernel_step_stat"))) == PROFDB_OK)
		rel->runfig = "temp.profdb_runfig";
	return rc;
}

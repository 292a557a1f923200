/*
 * ch_runs.c - profdb runs and profdb summary on a clickhouse:// snapshot,
 * computed by the server: per run the kernel count, total device time,
 * elapsed time (the longest per-rank span) and op count and CPU time are
 * GROUP BYs over the run's rows there (exact integers), so listing 200
 * runs moves 200 rows, not their kernels.  The figures land in TEMP
 * tables next to the snapshot's run rows (ch_agg per run; for runs,
 * ch_krank per run and rank, whose ranks the list counts), and SQLite
 * shapes the result as query_runs.c does (same column names, cell types
 * and order), so the formatters print the same bytes.  The definitions
 * are those of query_runs.c and the run_summary view: keep them in step.
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
	sqlite3_stmt *put;         /* UPDATE of temp.ch_agg */
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
 * run into temp.ch_agg, KERNEL_RANKS per run and rank into temp.ch_krank. */
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
		"UPDATE temp.ch_agg SET kernels = ?2, total_device = ?3, elapsed = ?4"
		" WHERE local_id = (SELECT local_id FROM temp.ch_run WHERE remote_id = ?1)",
		"UPDATE temp.ch_agg SET ops = ?2, total_cpu = ?3"
		" WHERE local_id = (SELECT local_id FROM temp.ch_run WHERE remote_id = ?1)",
		"INSERT INTO temp.ch_krank (run_id, rank, kernels, total_device)"
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

/* Fill temp.ch_agg with the server's figures of the snapshot's runs: the
 * kernel ones per run, or (kernel_kind KERNEL_RANKS) per run and rank into
 * temp.ch_krank. */
static int aggregate(profdb *db, enum fetch_kind kernel_kind)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct profdb__ch *ch = NULL;
	struct profdb__ch_buf ids = { 0 };
	if (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.ch_agg; DROP TABLE IF EXISTS temp.ch_krank;"
	    " CREATE TEMP TABLE ch_agg (local_id INTEGER PRIMARY KEY, kernels INTEGER, total_device INTEGER,"
	    " elapsed INTEGER, ops INTEGER, total_cpu INTEGER);"
	    " CREATE TEMP TABLE ch_krank (run_id INTEGER, rank INTEGER, kernels INTEGER, total_device INTEGER,"
	    " PRIMARY KEY (run_id, rank));"
	    " INSERT INTO temp.ch_agg (local_id) SELECT local_id FROM temp.ch_run", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	if (id_list(db->sql, &ids) != 0)
		profdb__err_set(&err, PROFDB_ERROR, "out of memory");
	else if (profdb__ch_open(&ch, db->remote, &err) == PROFDB_OK) {
		profdb__ch_set_readonly(ch); /* a snapshot only reads the server */
		if (fetch(ch, db->sql, kernel_kind, ids.data, &err) == PROFDB_OK)
			fetch(ch, db->sql, OPS, ids.data, &err);
	}
	profdb__ch_close(ch);
	profdb__ch_buf_free(&ids);
	return err.code == PROFDB_OK ? PROFDB_OK : profdb__error(db, err.code, "%s", err.msg);
}

int profdb__ch_runs_figures(profdb *db)
{
	int rc = profdb__ch_ensure(db, profdb__ch_table_bit("source_file"));
	return rc == PROFDB_OK ? aggregate(db, KERNEL_RANKS) : rc;
}

/* as summary_types in query_runs.c */
static const enum profdb_coltype summary_types[] = {
	PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_INT, PROFDB_COL_NS
};

int profdb__ch_query_summary(profdb *db, profdb_result **out, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	sqlite3_stmt *st = NULL;
	int rc = aggregate(db, KERNELS);
	*out = NULL;
	/* the work outside every step: the per-step table's rows without one */
	if (rc == PROFDB_OK)
		rc = profdb__ch_ensure(db, profdb__ch_table_bit("kernel_step_stat"));
	if (rc != PROFDB_OK)
		return rc;
	profdb__qbuf_add(&b, "SELECT r.name AS run, r.repeats, coalesce(a.kernels, 0) AS kernels,"
	    " coalesce(a.total_device, 0) AS total_device, coalesce(a.elapsed, 0) AS elapsed,"
	    /* NULL for a run without host ops (no ops row came back): as query_runs.c */
	    " a.total_cpu AS total_cpu");
	profdb__summary_outside_cols(&b);
	profdb__qbuf_add(&b, " FROM run r LEFT JOIN temp.ch_agg a ON a.local_id = r.id");
	profdb__summary_outside_join(&b, f);
	profdb__qbuf_add(&b, " WHERE 1");
	if (f->nruns) {
		profdb__qbuf_add(&b, " AND r.name IN (");
		for (size_t i = 0; i < f->nruns; i++)
			profdb__qbuf_addf(&b, "%s:run%zu", i ? ", " : "", i);
		profdb__qbuf_add(&b, ")");
	}
	profdb__qbuf_add(&b, " ORDER BY r.id");
	rc = profdb__query_prepare(db, &b, &st, "cannot summarise");
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, f);
	rc = profdb__result_from_stmt(db, out, st, summary_types);
	sqlite3_finalize(st);
	if (rc == PROFDB_OK && (rc = profdb__outside_steps_notes(db, *out, f,
	                       "outside_kernels and outside_device count them apart")) != PROFDB_OK) {
		profdb_result_free(*out);
		*out = NULL;
	}
	return rc;
}

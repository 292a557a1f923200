/*
 * ch_compare.c - profdb diff and report on a clickhouse:// snapshot
 * without moving the runs' kernel and op rows.
 *
 * The comparison (lib/compare/compare_samples.c) samples kernel time from
 * kernel_step_stat when the grouping key is made of name, base name and
 * kind and every run has that table (run.name_stats); it takes the steps
 * from step and each step's host self time from op.  So the snapshot gets
 * the step and kernel_step_stat rows of the two sides' runs, and the
 * server sums op per run, rank and step (temp.profdb_opstep: one row per
 * rank and step instead of every op), which compare_samples.c reads in
 * place of op.  The sums are of integers: the same values as SQLite's.
 *
 * Keys with type, shape or core read the server's kernel sums per rank,
 * step and key column instead (ch_kgroups.c).  Runs ingested before the
 * stat tables existed need every kernel row: then every table is pulled,
 * as before.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <pthread.h>

#include "ch.h"
#include "query/query.h"
#include "banned.h"

/* Does a run of the snapshot lack kernel_step_stat (ingested before it)? */
static int old_runs(profdb *db)
{
	sqlite3_stmt *st = NULL;
	int old = 1;
	if (sqlite3_prepare_v2(db->sql, "SELECT count(*) FROM run WHERE name_stats = 0", -1, &st, NULL) == SQLITE_OK &&
	    sqlite3_step(st) == SQLITE_ROW)
		old = sqlite3_column_int(st, 0) != 0;
	sqlite3_finalize(st);
	return old;
}

static int op_step_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	sqlite3_stmt *put = arg;
	sqlite3_reset(put);
	sqlite3_bind_int64(put, 1, v[0].i);
	sqlite3_bind_int64(put, 2, v[1].i);
	if (v[2].null)
		sqlite3_bind_null(put, 3);
	else
		sqlite3_bind_int64(put, 3, v[2].i);
	sqlite3_bind_int64(put, 4, v[3].i);
	sqlite3_bind_int64(put, 5, v[4].i);
	if (sqlite3_step(put) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s",
		    sqlite3_errmsg(sqlite3_db_handle(put))), -1;
	return 0;
}

/* The snapshot's runs' remote ids as "(id, id, ...)" for the server's
 * WHERE run_id IN (run ids are integers of ours: safe in the statement's
 * text); *n: how many. */
static int run_id_list(profdb *db, struct profdb__qbuf *in, int *n)
{
	sqlite3_stmt *ids = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT remote_id FROM temp.ch_run", -1, &ids, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	profdb__qbuf_add(in, "(");
	while (sqlite3_step(ids) == SQLITE_ROW)
		profdb__qbuf_addf(in, "%s%llu", (*n)++ ? ", " : "", (unsigned long long)sqlite3_column_int64(ids, 0));
	profdb__qbuf_add(in, ")");
	sqlite3_finalize(ids);
	return in->oom ? profdb__error(db, PROFDB_ERROR, "out of memory") : PROFDB_OK;
}

/* temp.profdb_opstep: per run, rank and step, the host self time and op
 * count, summed by the server over the snapshot's runs. */
static int fill_op_steps(profdb *db)
{
	static const enum profdb__ch_type types[] = { CH_U64, CH_I64, CH_NI64, CH_I64, CH_I64 };
	struct profdb__qbuf in = { 0 }, q = { 0 };
	sqlite3_stmt *put = NULL;
	int rc, n = 0;
	if (sqlite3_exec(db->sql, "DROP TABLE IF EXISTS temp.profdb_opstep;"
	                 " CREATE TEMP TABLE profdb_opstep (run_id INTEGER, rank INTEGER, step INTEGER,"
	                 " self_ns INTEGER, ops INTEGER)", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "INSERT INTO temp.profdb_opstep SELECT local_id, ?2, ?3, ?4, ?5"
	                       " FROM temp.ch_run WHERE remote_id = ?1", -1, &put, NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot make the snapshot");
		goto out;
	}
	if ((rc = run_id_list(db, &in, &n)) != PROFDB_OK || n == 0)
		goto out;
	profdb__qbuf_addf(&q, "SELECT run_id, rank, step, toInt64(sum(coalesce(self_ns, 0))), toInt64(count())"
	                  " FROM op WHERE run_id IN %s GROUP BY run_id, rank, step FORMAT RowBinary", in.s);
	rc = q.oom ? profdb__error(db, PROFDB_ERROR, "out of memory") : profdb__ch_rows(db, q.s, types, 5, op_step_row, put);
out:
	sqlite3_finalize(put);
	profdb__qbuf_free(&in);
	profdb__qbuf_free(&q);
	return rc;
}

/* ---------------------------------------------------------------- kernel steps */

/*
 * The merge reads each run's kernel_step_stat sums per key and step
 * (lib/compare/compare_rows.c).  Copying the rows into the snapshot cost
 * more than the comparison (SQLite inserting and sorting 2 x 57 k rows a
 * million kernels), so they go as integers (ids of the run's dictionary)
 * straight to the merge's loader, which sums and orders them.  What stays in the snapshot's
 * kernel_step_stat is one marker row per run whose kernels carry steps,
 * as the selected steps ask (query.h, profdb__qfilter_selected_steps); a
 * later profdb__ch_ensure of the table deletes it before pulling the rows.
 */

struct counts {
	profdb *db;
	sqlite3_stmt *mark, *note;
	uint64_t rows, combos;     /* of every run: rows, distinct (name, base, kind) */
	uint64_t texts, text_bytes; /* and their dictionaries */
};

static int count_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct counts *c = arg;
	c->rows += (uint64_t)v[1].i;
	c->combos += (uint64_t)v[3].i;
	sqlite3_reset(c->note);
	sqlite3_bind_int64(c->note, 1, v[0].i);
	sqlite3_bind_int64(c->note, 2, v[1].i);
	if (sqlite3_step(c->note) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(c->db->sql)), -1;
	if (v[2].i == 0)
		return 0; /* no kernel in a step: no marker, as the file has none */
	sqlite3_reset(c->mark);
	sqlite3_bind_int64(c->mark, 1, v[0].i);
	/* a run whose rows are here already needs none */
	sqlite3_bind_int64(c->mark, 2, profdb__ch_table_bit("kernel_step_stat"));
	if (sqlite3_step(c->mark) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(c->db->sql)), -1;
	return 0;
}

static int dict_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct counts *c = arg;
	(void)err;
	c->texts += (uint64_t)v[0].i;
	c->text_bytes += (uint64_t)v[1].i;
	return 0;
}

/* Count the runs' kernel_step_stat rows on the server and mark the runs
 * whose kernels carry steps; *fits: all runs' rows together within the
 * budget the merge holds (PROFDB_DIFF_ROWS), else they are pulled as before. */
static int mark_runs(profdb *db, int *fits)
{
	static const enum profdb__ch_type types[] = { CH_U64, CH_I64, CH_I64, CH_I64 };
	static const enum profdb__ch_type dtypes[] = { CH_I64, CH_I64 };
	struct profdb__qbuf in = { 0 }, q = { 0 }, d = { 0 };
	struct counts c = { db, NULL, NULL, 0, 0, 0, 0 };
	int rc, n = 0;
	/* the marker names the text '' and the first kind: any will do */
	if (sqlite3_exec(db->sql, "INSERT OR IGNORE INTO str (value) VALUES ('')", NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, PROFDB__CH_STEP_MARKER_SQL, -1, &c.mark, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db->sql, "UPDATE temp.ch_run SET step_rows = ?2 WHERE remote_id = ?1", -1, &c.note,
	                       NULL) != SQLITE_OK) {
		rc = profdb__sqlerror(db, "cannot make the snapshot");
		goto out;
	}
	if ((rc = run_id_list(db, &in, &n)) != PROFDB_OK || n == 0)
		goto out;
	/* combos by a GROUP BY of their own: uniqExact(name_id, base_id,
	 * kind) took 63-75 ms for two 10 M-kernel runs, this 31-47 */
	profdb__qbuf_addf(&q, "SELECT run_id, toInt64(sum(c)), toInt64(sum(s)), toInt64(count())"
	                  " FROM (SELECT run_id, count() AS c, countIf(step IS NOT NULL) AS s"
	                  " FROM kernel_step_stat_ids WHERE run_id IN %s GROUP BY run_id, name_id, base_id, kind)"
	                  " GROUP BY run_id FORMAT RowBinary", in.s);
	/* and the dictionaries the loader holds while it reads (the same run ids) */
	profdb__qbuf_addf(&d, "SELECT toInt64(count()), toInt64(sum(length(text))) FROM " CH_DICT_TABLE
	                  " WHERE run_id IN %s FORMAT RowBinary", in.s);
	if (q.oom || d.oom)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	else if ((rc = profdb__ch_rows(db, q.s, types, 4, count_row, &c)) == PROFDB_OK)
		rc = profdb__ch_rows(db, d.s, dtypes, 2, dict_row, &c);
out:
	*fits = profdb__compare_rows_fit(db, c.rows, c.combos, c.texts, c.text_bytes);
	sqlite3_finalize(c.mark);
	sqlite3_finalize(c.note);
	profdb__qbuf_free(&in);
	profdb__qbuf_free(&q);
	profdb__qbuf_free(&d);
	return rc;
}

/*
 * The runs' rows are fetched at once, a run per connection on threads of
 * its own (at most KSTEP_THREADS): one run's rows at a time left the
 * server idle while this process stored them and this process idle while
 * the server read them (two 10 M-kernel runs: 0.33 and 0.47 s one after
 * the other).  A thread touches only its run's fetch (its loader, its
 * error) and the shared next index; the snapshot's SQLite is read before
 * they start.
 */
#define KSTEP_THREADS 4

struct kfetch_job {
	const char *url;
	const struct profdb__remote *ro; /* the handle's, read only while the threads run */
	struct profdb__kstep_fetch *runs;
	char **dict_sql, **row_sql; /* per run */
	size_t n, next;
	pthread_mutex_t mu;
	int failed;                /* a run failed: the others stop taking runs */
	struct profdb_err err;     /* the first failure */
};

static int text_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct profdb__kstep_fetch *k = arg;
	if (k->text(k->arg, (uint32_t)v[0].i, v[1].s, v[1].n) != 0)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory"), -1;
	return 0;
}

static int kstep_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct profdb__kstep_fetch *k = arg;
	if (k->row(k->arg, v[0].i, v[1].i, v[2].i, !v[3].null, v[3].i, v[4].i, v[5].i) != 0)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory"), -1;
	return 0;
}

static void *kfetch_thread(void *arg)
{
	static const enum profdb__ch_type dict_types[] = { CH_U32, CH_STR };
	static const enum profdb__ch_type types[] = { CH_U32, CH_U32, CH_I64, CH_NI64, CH_I64, CH_I64 };
	struct kfetch_job *j = arg;
	for (;;) {
		struct profdb_err err = { PROFDB_OK, "" };
		size_t i;
		pthread_mutex_lock(&j->mu);
		i = j->failed ? j->n : j->next++;
		pthread_mutex_unlock(&j->mu);
		if (i >= j->n)
			return NULL;
		struct profdb__kstep_fetch *run = &j->runs[i];
		if (profdb__ch_rows_at(j->url, j->ro, j->dict_sql[i], dict_types, 2, text_row, run, &err) == PROFDB_OK) {
			if (run->reserve && run->rows && run->reserve(run->arg, run->rows) != 0)
				profdb__err_set(&err, PROFDB_ERROR, "out of memory");
			else
				profdb__ch_rows_at(j->url, j->ro, j->row_sql[i], types, 6, kstep_row, run, &err);
		}
		if (err.code != PROFDB_OK) {
			pthread_mutex_lock(&j->mu);
			if (!j->failed)
				j->err = err;
			j->failed = 1;
			pthread_mutex_unlock(&j->mu);
		}
	}
}

/* The two statements of run i (its remote id from the snapshot). */
static int kstep_sql(profdb *db, const struct profdb_filter *f, struct profdb__kstep_fetch *run, char **dict,
                     char **rows)
{
	struct profdb__qbuf d = { 0 }, q = { 0 };
	sqlite3_stmt *st = NULL;
	unsigned long long remote = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT remote_id, coalesce(step_rows, 0) FROM temp.ch_run WHERE local_id = ?1",
	                       -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read the snapshot");
	sqlite3_bind_int64(st, 1, run->run_id);
	run->rows = 0;
	if (sqlite3_step(st) == SQLITE_ROW) {
		remote = (unsigned long long)sqlite3_column_int64(st, 0);
		run->rows = (uint64_t)sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	/* ids and integers of ours only: safe in the statement's text */
	profdb__qbuf_addf(&d, "SELECT id, text FROM " CH_DICT_TABLE " WHERE run_id = %llu FORMAT RowBinary", remote);
	/* the rows as stored, neither grouped nor sorted: the merge's loader
	 * sums equal keys and steps and orders them (compare_rows.c); a GROUP
	 * BY and ORDER BY here took the server 0.45 s for 285 k rows (a run of
	 * 5 M kernels), the plain read 0.02-0.03 s */
	profdb__qbuf_addf(&q, "SELECT name_id, base_id, kind, step, total_ns, calls"
	                  " FROM kernel_step_stat_ids WHERE run_id = %llu", remote);
	if (f->rank != PROFDB_NULL)
		profdb__qbuf_addf(&q, " AND rank = %lld", (long long)f->rank);
	if (f->step_lo != PROFDB_NULL)
		profdb__qbuf_addf(&q, " AND step >= %lld", (long long)f->step_lo);
	if (f->step_hi != PROFDB_NULL)
		profdb__qbuf_addf(&q, " AND step <= %lld", (long long)f->step_hi);
	profdb__qbuf_add(&q, " FORMAT RowBinary");
	if (d.oom || q.oom) {
		profdb__qbuf_free(&d);
		profdb__qbuf_free(&q);
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	*dict = d.s;
	*rows = q.s;
	return PROFDB_OK;
}

/* Start the threads of j, join them; the first failure on db. */
static int kfetch_run(profdb *db, struct kfetch_job *j)
{
	pthread_t th[KSTEP_THREADS];
	size_t nth = j->n < KSTEP_THREADS ? j->n : KSTEP_THREADS, started = 0;
	for (; started < nth; started++)
		if (pthread_create(&th[started], NULL, kfetch_thread, j) != 0)
			break;
	if (started == 0)
		kfetch_thread(j); /* no thread to be had: this one fetches them all */
	for (size_t t = 0; t < started; t++)
		pthread_join(th[t], NULL);
	return j->failed ? profdb__error(db, j->err.code, "%s", j->err.msg) : PROFDB_OK;
}

int profdb__ch_kernel_steps(profdb *db, const struct profdb_filter *f, struct profdb__kstep_fetch *runs,
                            size_t n)
{
	struct kfetch_job j;
	int rc = PROFDB_OK;
	memset(&j, 0, sizeof j);
	j.url = profdb__ch_url(db);
	j.ro = &db->remote_opts;
	j.runs = runs;
	j.n = n;
	j.dict_sql = calloc(n ? n : 1, sizeof *j.dict_sql);
	j.row_sql = calloc(n ? n : 1, sizeof *j.row_sql);
	if (!j.dict_sql || !j.row_sql)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; rc == PROFDB_OK && i < n; i++)
		rc = kstep_sql(db, f, &runs[i], &j.dict_sql[i], &j.row_sql[i]);
	if (rc == PROFDB_OK && n) {
		pthread_mutex_init(&j.mu, NULL);
		rc = kfetch_run(db, &j);
		pthread_mutex_destroy(&j.mu);
	}
	for (size_t i = 0; i < n && j.dict_sql && j.row_sql; i++) {
		free(j.dict_sql[i]);
		free(j.row_sql[i]);
	}
	free(j.dict_sql);
	free(j.row_sql);
	return rc;
}

int profdb__ch_prepare_diff(profdb *db, int key_in_step_stat, struct profdb__rel *rel)
{
	int rc, fits = 0;
	if (old_runs(db))
		return profdb__ch_ensure(db, CH_ALL_TABLES);
	if ((rc = mark_runs(db, &fits)) != PROFDB_OK)
		return rc;
	if (key_in_step_stat && !fits) /* the markers go: the rows come instead */
		rc = profdb__ch_ensure(db, profdb__ch_table_bit("kernel_step_stat"));
	if (rc == PROFDB_OK)
		rc = profdb__ch_ensure(db, profdb__ch_table_bit("step"));
	if (rc == PROFDB_OK && !key_in_step_stat)
		rc = profdb__ch_kernel_groups(db);
	if (rc == PROFDB_OK && (rc = fill_op_steps(db)) == PROFDB_OK) {
		rel->opstep = "temp.profdb_opstep";
		rel->kstep_load = key_in_step_stat && fits;
		rel->keygroup = key_in_step_stat ? NULL : "temp.profdb_keygroup";
	}
	return rc;
}

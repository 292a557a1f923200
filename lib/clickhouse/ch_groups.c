/*
 * ch_groups.c - profdb kernels on a clickhouse:// snapshot, grouped by the
 * server: one GROUP BY over the selected runs' kernel rows there gives each
 * group's total, calls, min, max, mean, sample stddev and exact median, p90
 * and p99, and only those rows travel (plus each run's device time and
 * repeat count).  They land in TEMP tables profdb_kgroup, profdb_kden and profdb_krep that
 * query_kernels.c reads instead of grouping kernel rows itself, so the
 * share, per-repeat, order, --top and every formatter are the SQLite
 * file's own code and print the same bytes.
 *
 * Exactness.  ClickHouse 18.16's quantileExact is not profdb's percentile:
 * it returns the element at floor(level * n) of the sorted values (the
 * upper middle of an even count), where profdb interpolates linearly
 * between the closest ranks (stats.h: h = (n - 1) p / 100, v[lo] + (h -
 * lo) (v[lo + 1] - v[lo]); the median of 1, 2, 4, 10 is 3, not 4).  So the
 * server sorts each group's durations (arraySort(groupArray())) and
 * evaluates that formula on them, in the same double operations and order
 * as stats.c: the same bits.  total, calls, min and max are exact integers;
 * the mean is sum / count in doubles as SQLite's avg() of integers (exact
 * below 2^53 ns).  Only the sample stddev is a floating-point sum taken in
 * the server's row order (stddevSamp), so it may differ from the SQLite
 * file's Welford pass in the last bits, far below the thousandth of a ns
 * profdb prints.
 *
 * Not grouped here (the rows are pulled and SQLite answers, as before):
 * --per-step, tag:KEY keys, a --name glob with a [...] class, and an empty
 * answer (its notes say which rank or step the runs lack).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ctype.h>

#include "ch.h"
#include "query/query.h"
#include "banned.h"

#define MAXK 11 /* kernels --by's 10 keys, and the step of --per-step */

/* ---------------------------------------------------------------- rows */

/* Rows of a RowBinary answer, decoded and handed to row() one by one. */
struct row_sink {
	struct profdb__ch_buf pending;
	const enum profdb__ch_type *types;
	size_t ncols;
	ch_row_fn row;
	void *arg;
	struct profdb_err *err;
};

static int row_sink(void *arg, const char *p, size_t n)
{
	struct row_sink *s = arg;
	struct profdb__ch_val v[MAXK + 12];
	size_t off = 0, k;
	if (profdb__ch_buf_add(&s->pending, p, n) != 0)
		return profdb__err_set(s->err, PROFDB_ERROR, "out of memory"), -1;
	while ((k = profdb__ch_get_row(s->pending.data + off, s->pending.len - off, s->types, s->ncols, v)) > 0) {
		if (s->row(s->arg, v, s->err) != 0)
			return -1;
		off += k;
	}
	memmove(s->pending.data, s->pending.data + off, s->pending.len - off);
	s->pending.len -= off;
	return 0;
}

int profdb__ch_rows_at(const char *url, const struct profdb__remote *ro, const char *sql, const enum profdb__ch_type *types, size_t ncols,
                       ch_row_fn row, void *arg, struct profdb_err *err)
{
	struct profdb__ch *ch = NULL;
	struct row_sink s = { { 0 }, types, ncols, row, arg, err };
	if (profdb__ch_open(&ch, url, ro, err) == PROFDB_OK) {
		profdb__ch_set_readonly(ch); /* a snapshot only reads the server */
		profdb__ch_send(ch, sql, NULL, 0, 1, row_sink, &s, err);
	}
	/* the body's end is a row's end (RowBinary has no end marker) */
	if (err->code == PROFDB_OK && s.pending.len)
		profdb__err_set(err, PROFDB_ERROR, "clickhouse %s: the answer ends inside a row",
		    profdb__ch_where(ch));
	profdb__ch_close(ch);
	profdb__ch_buf_free(&s.pending);
	return err->code;
}

int profdb__ch_rows(profdb *db, const char *sql, const enum profdb__ch_type *types, size_t ncols,
                    ch_row_fn row, void *arg)
{
	struct profdb_err err = { PROFDB_OK, "" };
	if (profdb__ch_rows_at(profdb__ch_url(db), &db->remote_opts, sql, types, ncols, row, arg, &err) == PROFDB_OK)
		return PROFDB_OK;
	return profdb__error(db, err.code, "%s", err.msg);
}

/* ---------------------------------------------------------------- where */

/* s as a ClickHouse string literal.  18.16's HTTP interface has no query
 * parameters: every byte that could end or bend the literal is escaped. */
static void add_literal(struct profdb__qbuf *b, const char *s)
{
	char one[2] = { 0, 0 };
	profdb__qbuf_add(b, "'");
	for (; *s; s++) {
		if (*s == '\\' || *s == '\'')
			profdb__qbuf_add(b, "\\");
		one[0] = *s;
		profdb__qbuf_add(b, one);
	}
	profdb__qbuf_add(b, "'");
}

/* SQLite's GLOB (case-sensitive; * any text, ? one character) as an
 * anchored RE2 pattern; 0 when it has a [...] class (not translated). */
static int glob_regex(const char *g, struct profdb__qbuf *re)
{
	char one[3] = { '\\', 0, 0 };
	profdb__qbuf_add(re, "(?s)^");
	for (; *g; g++) {
		if (*g == '[')
			return 0;
		if (*g == '*')
			profdb__qbuf_add(re, ".*");
		else if (*g == '?')
			profdb__qbuf_add(re, ".");
		else if ((unsigned char)*g < 0x80 && ispunct((unsigned char)*g)) {
			one[1] = *g;
			profdb__qbuf_add(re, one);
		} else {
			one[1] = *g;
			profdb__qbuf_add(re, one + 1);
		}
	}
	profdb__qbuf_add(re, "$");
	return 1;
}

/* " run_id IN (...)": the snapshot's runs that f's runs and tags select. */
static int add_run_ids(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f)
{
	struct profdb_filter runs;
	struct profdb__qbuf q = { 0 };
	sqlite3_stmt *st = NULL;
	int rc;
	profdb__qfilter_runs_of(&runs, f);
	profdb__qbuf_add(&q, "SELECT c.remote_id FROM (SELECT local_id AS run_id, remote_id FROM temp.ch_run) c WHERE 1");
	profdb__qfilter_where(&q, &runs, "c", QF_KERNEL, 1);
	rc = profdb__query_prepare(db, &q, &st, "cannot read the snapshot");
	profdb__qbuf_free(&q);
	if (rc != PROFDB_OK)
		return rc;
	profdb__qfilter_bind(st, &runs);
	profdb__qbuf_add(b, " run_id IN (0");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		profdb__qbuf_addf(b, ", %lld", (long long)sqlite3_column_int64(st, 0));
	profdb__qbuf_add(b, ")");
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(db, "cannot read the snapshot");
}

int profdb__ch_kernel_where(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f, int for_total)
{
	int rc;
	profdb__qbuf_add(b, " WHERE");
	if ((rc = add_run_ids(db, b, f)) != PROFDB_OK)
		return rc;
	if (f->rank != PROFDB_NULL)
		profdb__qbuf_addf(b, " AND rank = %lld", (long long)f->rank);
	if (f->step_lo != PROFDB_NULL)
		profdb__qbuf_addf(b, " AND step >= %lld", (long long)f->step_lo);
	if (f->step_hi != PROFDB_NULL)
		profdb__qbuf_addf(b, " AND step <= %lld", (long long)f->step_hi);
	if (for_total)
		return 1;
	if (f->name_glob) {
		struct profdb__qbuf re = { 0 };
		int ok = glob_regex(f->name_glob, &re);
		if (ok) { /* the names are ids into each run's dictionary */
			profdb__qbuf_add(b, " AND (run_id, name_id) IN (SELECT run_id, id FROM " CH_DICT_TABLE
			                 " WHERE match(text, ");
			add_literal(b, re.s);
			profdb__qbuf_add(b, "))");
		}
		profdb__qbuf_free(&re);
		if (!ok)
			return 0;
	}
	if (f->kind) {
		sqlite3_stmt *st = NULL; /* profdb__qfilter_check found it */
		if (sqlite3_prepare_v2(db->sql, "SELECT id FROM kind WHERE name = ?1", -1, &st, NULL) != SQLITE_OK)
			return profdb__sqlerror(db, "cannot look up kind '%s'", f->kind);
		sqlite3_bind_text(st, 1, f->kind, -1, SQLITE_STATIC);
		profdb__qbuf_addf(b, " AND kind = %lld", sqlite3_step(st) == SQLITE_ROW ? (long long)sqlite3_column_int64(st, 0) : -1LL);
		sqlite3_finalize(st);
	}
	return 1;
}

/* ---------------------------------------------------------------- groups */

/* A grouping key: the kernel column on the server and its RowBinary type. */
struct gkey {
	const struct profdb__ch_col *col;
	int str;                   /* the snapshot wants a str id */
};

/* The server column of SQLite kernel column sq (ch_tables.c), or NULL. */
static const struct profdb__ch_col *kernel_col(const char *sq)
{
	for (size_t t = 0; profdb__ch_tables[t].name; t++)
		if (strcmp(profdb__ch_tables[t].name, "kernel") == 0)
			for (size_t i = 0; i < profdb__ch_tables[t].ncols; i++)
				if (strcmp(profdb__ch_tables[t].cols[i].sq, sq) == 0)
					return &profdb__ch_tables[t].cols[i];
	return NULL;
}

/* The server's value of percentile p of a group, as stats.c computes it
 * over the sorted durations a of count calls (see the file comment). */
static void add_percentile(struct profdb__qbuf *b, int p)
{
	profdb__qbuf_addf(b, ", toFloat64(a[toUInt64(floor(h%d)) + 1]) + (h%d - floor(h%d))"
	          " * (toFloat64(a[toUInt64(floor(h%d)) + 2]) - toFloat64(a[toUInt64(floor(h%d)) + 1]))",
	          p, p, p, p, p);
}

/* Key i: its text where the server stores an id (t<i>, joined after
 * grouping, see group_sql; id 0 is NULL in a nullable column), else the
 * column. */
static void add_key(struct profdb__qbuf *b, const struct gkey *k, size_t i)
{
	if (!(k[i].col->flags & CHC_DICT))
		profdb__qbuf_addf(b, ", k%zu", i);
	else if (k[i].col->type == CH_NSTR)
		profdb__qbuf_addf(b, ", if(k%zu = 0, NULL, t%zu)", i, i);
	else
		profdb__qbuf_addf(b, ", t%zu", i);
}

/* " ANY LEFT JOIN" of f's runs' dictionary rows, the id as column id and
 * the text as column text, USING (run_id, id). */
static int dict_rows_join(profdb *db, struct profdb__qbuf *b, const char *id, const char *text,
                          const struct profdb_filter *f)
{
	int rc;
	profdb__qbuf_addf(b, " ANY LEFT JOIN (SELECT run_id, id AS %s, text AS %s FROM " CH_DICT_TABLE " WHERE",
	                  id, text);
	rc = add_run_ids(db, b, f);
	profdb__qbuf_addf(b, ") USING (run_id, %s)", id);
	return rc;
}

int profdb__ch_name_join_runs(profdb *db, struct profdb__qbuf *b, const struct profdb_filter *f)
{
	return dict_rows_join(db, b, "name_id", "name", f);
}

/* The columns a join around the groups passes on: the groups' own and
 * the texts t<i> of the dictionary keys before key upto. */
static void add_carried(struct profdb__qbuf *b, const struct gkey *k, size_t nk, size_t upto, int sums_only)
{
	profdb__qbuf_add(b, "SELECT run_id");
	for (size_t i = 0; i < nk; i++)
		profdb__qbuf_addf(b, ", k%zu", i);
	profdb__qbuf_add(b, ", total, calls, ou");
	if (!sums_only)
		profdb__qbuf_add(b, ", mn, mx, avg, sd, a, h50, h90, h99");
	for (size_t i = 0; i < upto; i++)
		if (k[i].col->flags & CHC_DICT)
			profdb__qbuf_addf(b, ", t%zu", i);
}

/* Dictionary key i's texts as rows (run_id, k<i>, t<i>) of f's runs,
 * joined to the groups; the join closes the SELECT add_carried opened. */
static int add_text_join(profdb *db, struct profdb__qbuf *b, size_t i, const struct profdb_filter *f)
{
	char id[24], text[24];
	int rc;
	snprintf(id, sizeof id, "k%zu", i);
	snprintf(text, sizeof text, "t%zu", i);
	rc = dict_rows_join(db, b, id, text, f);
	profdb__qbuf_add(b, ")");
	return rc;
}

/*
 * The GROUP BY of the plain statistics; 0 when the server cannot apply f.
 * Grouped by the stored ids (integers: cheap), each dictionary key's text
 * joined per group as rows, one nested SELECT per key (18.16 joins one
 * table per SELECT).  The dictionary as one array per run copied into
 * every group cost 6 of 7 s of server CPU at 569 k groups (kernels
 * --per-step of a 10 M-kernel run, bench/results.md).
 */
static int group_sql(profdb *db, struct profdb__qbuf *b, const struct gkey *k, size_t nk,
                     const struct profdb_filter *f, int sums_only)
{
	int rc;
	profdb__qbuf_add(b, "SELECT run_id");
	for (size_t i = 0; i < nk; i++)
		add_key(b, k, i);
	if (sums_only) { /* the other columns' types, any value */
		profdb__qbuf_add(b, ", total, calls, toInt64(0), toInt64(0), toFloat64(0), if(calls < 0, toFloat64(0), NULL),"
		                 " toFloat64(0), toFloat64(0), toFloat64(0)");
	} else {
		profdb__qbuf_add(b, ", total, calls, mn, mx, avg, sd");
		add_percentile(b, 50);
		add_percentile(b, 90);
		add_percentile(b, 99);
	}
	profdb__qbuf_add(b, ", ou FROM ");
	for (size_t i = nk; i-- > 0;) /* outermost first: the last key's join */
		if (k[i].col->flags & CHC_DICT) {
			profdb__qbuf_add(b, "(");
			add_carried(b, k, nk, i + 1, sums_only);
			profdb__qbuf_add(b, " FROM ");
		}
	profdb__qbuf_add(b, "(SELECT run_id");
	for (size_t i = 0; i < nk; i++)
		profdb__qbuf_addf(b, ", %s AS k%zu", k[i].col->flags & CHC_DICT ? k[i].col->sq : k[i].col->ch, i);
	/* ou: the time outside every step (query_kernels.c, per_repeat) */
	profdb__qbuf_add(b, ", toInt64(sum(dur_ns)) AS total, toInt64(count()) AS calls,"
	                 " toInt64(sumIf(dur_ns, isNull(step))) AS ou");
	if (!sums_only)
		profdb__qbuf_add(b, ", toInt64(min(dur_ns)) AS mn, toInt64(max(dur_ns)) AS mx,"
		            " toFloat64(total) / toFloat64(calls) AS avg,"
		            " if(calls < 2, NULL, stddevSamp(toFloat64(dur_ns))) AS sd,"
		            " arraySort(groupArray(dur_ns)) AS a, (calls - 1) * 50 / 100 AS h50,"
		            " (calls - 1) * 90 / 100 AS h90, (calls - 1) * 99 / 100 AS h99");
	profdb__qbuf_add(b, " FROM kernel_ids");
	if ((rc = profdb__ch_kernel_where(db, b, f, 0)) != 1)
		return rc;
	profdb__qbuf_add(b, " GROUP BY run_id");
	for (size_t i = 0; i < nk; i++)
		profdb__qbuf_addf(b, ", k%zu", i);
	if (f->min_total_ns > 0)
		profdb__qbuf_addf(b, " HAVING total >= %lld", (long long)f->min_total_ns);
	profdb__qbuf_add(b, ")");
	for (size_t i = 0; i < nk; i++)
		if ((k[i].col->flags & CHC_DICT) && (rc = add_text_join(db, b, i, f)) != PROFDB_OK)
			return rc;
	profdb__qbuf_add(b, " FORMAT RowBinary");
	return 1;
}

/* Rows into temp.profdb_kgroup: keys as the snapshot holds them. */
struct gfill {
	profdb *db;
	sqlite3_stmt *put, *intern, *id;
	const struct gkey *k;
	size_t nk;
};

/* The snapshot's str id of text v (added when new); 0 on error. */
static int64_t str_id(struct gfill *g, const struct profdb__ch_val *v)
{
	int64_t id = 0;
	sqlite3_reset(g->intern);
	sqlite3_bind_text(g->intern, 1, v->s, (int)v->n, SQLITE_TRANSIENT);
	sqlite3_reset(g->id);
	sqlite3_bind_text(g->id, 1, v->s, (int)v->n, SQLITE_TRANSIENT);
	if (sqlite3_step(g->intern) == SQLITE_DONE && sqlite3_step(g->id) == SQLITE_ROW)
		id = sqlite3_column_int64(g->id, 0);
	return id;
}

static int group_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct gfill *g = arg;
	/* server order: total, calls, mn, mx, avg, sd, p50, p90, p99, ou;
	 * profdb_kgroup order: total, calls, avg, median, min, max, stddev, p90, p99, outside */
	static const int at[] = { 0, 1, 4, 6, 2, 3, 5, 7, 8, 9 };
	size_t nk = g->nk;
	sqlite3_reset(g->put);
	sqlite3_bind_int64(g->put, 1, v[0].i);
	for (size_t i = 0; i < nk; i++) {
		const struct profdb__ch_val *x = &v[1 + i];
		if (x->null)
			sqlite3_bind_null(g->put, (int)i + 2);
		else if (g->k[i].str) {
			int64_t id = str_id(g, x);
			if (!id)
				return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(g->db->sql)), -1;
			sqlite3_bind_int64(g->put, (int)i + 2, id);
		} else
			sqlite3_bind_int64(g->put, (int)i + 2, x->i);
	}
	for (size_t j = 0; j < 10; j++) {
		const struct profdb__ch_val *x = &v[1 + nk + at[j]];
		int k = (int)(nk + 2 + j);
		if (x->null)
			sqlite3_bind_null(g->put, k);
		else if (at[j] < 4 || at[j] == 9)
			sqlite3_bind_int64(g->put, k, x->i);
		else
			sqlite3_bind_double(g->put, k, x->d);
	}
	if (sqlite3_step(g->put) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(g->db->sql)), -1;
	return 0;
}

/* (remote run id, integer) rows into an UPDATE of a temp table. */
static int pair_row(void *arg, const struct profdb__ch_val *v, struct profdb_err *err)
{
	struct gfill *g = arg;
	sqlite3_reset(g->put);
	sqlite3_bind_int64(g->put, 1, v[0].i);
	sqlite3_bind_int64(g->put, 2, v[1].i);
	if (sqlite3_step(g->put) != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "snapshot: %s", sqlite3_errmsg(g->db->sql)), -1;
	return 0;
}

static const enum profdb__ch_type pair_types[] = { CH_U64, CH_I64 };

/* Run sql (rows of remote run id, integer) into put (?1 remote, ?2 value). */
static int pairs(profdb *db, const struct profdb__qbuf *sql, const char *put)
{
	struct gfill g = { db, NULL, NULL, NULL, NULL, 0 };
	int rc;
	if (sql->oom)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (sqlite3_prepare_v2(db->sql, put, -1, &g.put, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	rc = profdb__ch_rows(db, sql->s, pair_types, 2, pair_row, &g);
	sqlite3_finalize(g.put);
	return rc;
}

/* temp.profdb_kden: each run's device time under f's run, rank and step
 * filters; temp.profdb_krep: its repeat count (profdb__qfilter_repeats: with a step
 * range, the stored steps in it of a run whose kernels carry steps). */
static int fill_den_rep(profdb *db, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	int rc;
	if (sqlite3_exec(db->sql, "INSERT INTO temp.profdb_krep SELECT r.id, r.repeats FROM run r", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	profdb__qbuf_add(&b, "SELECT run_id, toInt64(sum(dur_ns)) FROM kernel_ids");
	if ((rc = profdb__ch_kernel_where(db, &b, f, 1)) == 1) {
		profdb__qbuf_add(&b, " GROUP BY run_id FORMAT RowBinary");
		rc = pairs(db, &b, "INSERT INTO temp.profdb_kden SELECT local_id, ?2 FROM temp.ch_run WHERE remote_id = ?1");
	}
	profdb__qbuf_free(&b);
	if (rc != PROFDB_OK || !profdb__qfilter_has_steps(f))
		return rc;
	if (sqlite3_exec(db->sql, "UPDATE temp.profdb_krep SET n = 0", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	profdb__qbuf_add(&b, "SELECT run_id, toInt64(uniqExact(step)) FROM step");
	if ((rc = profdb__ch_kernel_where(db, &b, f, 1)) == 1) {
		profdb__qbuf_add(&b, " AND run_id IN (SELECT run_id FROM kernel_ids WHERE");
		rc = add_run_ids(db, &b, f);
		profdb__qbuf_add(&b, " AND step IS NOT NULL) GROUP BY run_id FORMAT RowBinary");
		if (rc == PROFDB_OK)
			rc = pairs(db, &b, "UPDATE temp.profdb_krep SET n = ?2"
			           " WHERE run_id = (SELECT local_id FROM temp.ch_run WHERE remote_id = ?1)");
	}
	profdb__qbuf_free(&b);
	return rc;
}

/*
 * Per-step statistics spread a group over the run's selected steps, which
 * are those of a run whose kernels carry a step
 * (profdb__qfilter_selected_steps asks kernel_step_stat or kernel): the
 * server says which runs do, and each gets diff's marker row, unless the
 * snapshot holds its rows (PROFDB__CH_STEP_MARKER_SQL).
 */
static int mark_stepped_runs(profdb *db, const struct profdb_filter *f)
{
	struct profdb__qbuf b = { 0 };
	int rc;
	if (sqlite3_exec(db->sql, "INSERT OR IGNORE INTO str (value) VALUES ('')", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot make the snapshot");
	/* each run with the table's bit, which the marker's ?2 wants */
	profdb__qbuf_addf(&b, "SELECT run_id, toInt64(%u) FROM kernel_ids WHERE", profdb__ch_table_bit("kernel_step_stat"));
	rc = add_run_ids(db, &b, f);
	profdb__qbuf_add(&b, " AND step IS NOT NULL GROUP BY run_id FORMAT RowBinary");
	if (rc == PROFDB_OK)
		rc = pairs(db, &b, PROFDB__CH_STEP_MARKER_SQL);
	profdb__qbuf_free(&b);
	return rc;
}

/* temp.profdb_kgroup from the server's GROUP BY (sums_only: only total and calls hold
 * figures, the others are placeholders of their types). */
static int fill_groups(profdb *db, const struct gkey *k, size_t nk, const struct profdb_filter *f,
                       int sums_only)
{
	enum profdb__ch_type types[MAXK + 11];
	struct gfill g = { db, NULL, NULL, NULL, k, nk };
	struct profdb__qbuf b = { 0 }, put = { 0 };
	size_t nt = 0;
	int rc = group_sql(db, &b, k, nk, f, sums_only);
	if (rc != 1) {
		profdb__qbuf_free(&b);
		return rc;
	}
	types[nt++] = CH_U64;
	for (size_t i = 0; i < nk; i++)
		types[nt++] = k[i].col->type;
	for (size_t i = 0; i < 4; i++)
		types[nt++] = CH_I64;
	types[nt++] = CH_F64;
	types[nt++] = CH_NF64;
	for (size_t i = 0; i < 3; i++)
		types[nt++] = CH_F64;
	types[nt++] = CH_I64;
	profdb__qbuf_add(&put, "INSERT INTO temp.profdb_kgroup VALUES ((SELECT local_id FROM temp.ch_run WHERE remote_id = ?1)");
	for (size_t i = 0; i < nk + 10; i++)
		profdb__qbuf_add(&put, ", ?");
	profdb__qbuf_add(&put, ")");
	if (b.oom || put.oom)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	else if (sqlite3_prepare_v2(db->sql, put.s, -1, &g.put, NULL) != SQLITE_OK ||
	         sqlite3_prepare_v2(db->sql, "INSERT OR IGNORE INTO str(value) VALUES (?1)", -1, &g.intern, NULL) != SQLITE_OK ||
	         sqlite3_prepare_v2(db->sql, "SELECT id FROM str WHERE value = ?1", -1, &g.id, NULL) != SQLITE_OK)
		rc = profdb__sqlerror(db, "cannot make the snapshot");
	else
		rc = profdb__ch_rows(db, b.s, types, nt, group_row, &g);
	sqlite3_finalize(g.put);
	sqlite3_finalize(g.intern);
	sqlite3_finalize(g.id);
	profdb__qbuf_free(&b);
	profdb__qbuf_free(&put);
	return rc == PROFDB_OK ? 1 : rc;
}

/* The TEMP tables, made afresh for nk keys. */
static int make_tables(profdb *db, size_t nk)
{
	struct profdb__qbuf b = { 0 };
	int rc;
	profdb__qbuf_add(&b, "DROP TABLE IF EXISTS temp.profdb_kgroup; DROP TABLE IF EXISTS temp.profdb_kden;"
	             " DROP TABLE IF EXISTS temp.profdb_krep; CREATE TEMP TABLE profdb_kden (run_id, t);"
	             " CREATE TEMP TABLE profdb_krep (run_id, n); CREATE TEMP TABLE profdb_kgroup (run_id");
	/* no declared types: integers stay integers and doubles doubles, as
	 * the cells of the SQLite file's own query */
	for (size_t i = 0; i < nk; i++)
		profdb__qbuf_addf(&b, ", k%zu", i);
	profdb__qbuf_add(&b, ", total, calls, avg, median, min, max, stddev, p90, p99, outside)");
	rc = b.oom ? profdb__error(db, PROFDB_ERROR, "out of memory") :
	     sqlite3_exec(db->sql, b.s, NULL, NULL, NULL) != SQLITE_OK ? profdb__sqlerror(db, "cannot make the snapshot") :
	     PROFDB_OK;
	profdb__qbuf_free(&b);
	return rc;
}

int profdb__ch_group_kernels(profdb *db, const struct profdb_kernel_query *q)
{
	const char *exprs[MAXK];
	int resolve[MAXK], rc;
	struct gkey k[MAXK];
	size_t nk = 0;
	if ((rc = profdb__qfilter_check(db, &q->filter)) != PROFDB_OK ||
	    (rc = profdb__kernels_keys(db, q->by, exprs, resolve, &nk)) != PROFDB_OK)
		return rc;
	for (size_t i = 0; i < nk; i++) {
		if (resolve[i] == 3 || !(k[i].col = kernel_col(exprs[i])))
			return 0; /* a tag: its value is the run's, known here */
		if (q->per_step && strcmp(exprs[i], "step") == 0)
			return 0; /* a usage error, which the SQLite code gives */
		k[i].str = resolve[i] == 1;
	}
	/* per-step: the groups per step too, which query_kernels.c spreads
	 * over the run's selected steps (the step table's) as on the file */
	if (q->per_step) {
		k[nk].col = kernel_col("step");
		k[nk++].str = 0;
		if ((rc = profdb__ch_ensure(db, profdb__ch_table_bit("step"))) != PROFDB_OK ||
		    (rc = mark_stepped_runs(db, &q->filter)) != PROFDB_OK)
			return rc;
	}
	/* per-step: --min-total applies to a group's sum over the steps
	 * (query_kernels.c), not to each step's part of it */
	struct profdb_filter gf = q->filter;
	if (q->per_step)
		gf.min_total_ns = 0;
	if ((rc = make_tables(db, nk)) != PROFDB_OK)
		return rc;
	/* per-step reads only total and calls (query_kernels.c): the server
	 * skips the rest, 9-9.6 s of a 10 M-kernel run's 15 s */
	if ((rc = fill_groups(db, k, nk, &gf, q->per_step)) != 1)
		return rc;
	return (rc = fill_den_rep(db, &q->filter)) == PROFDB_OK ? 1 : rc;
}

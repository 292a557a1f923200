/*
 * ch_pull.c - profdb_run_pull: copy one run from a ClickHouse database
 * back into the SQLite store, so verify, sql and every local command work
 * on it.  One SQLite transaction: on any error the database is as before.
 * Rows stream (RowBinary) and are inserted as they come, so memory stays
 * bounded.  Text columns are interned into the local str table, source
 * file ids renumbered, rows inserted in their original order (seq) so
 * local row ids keep the order the run had where it was ingested.
 *
 * This writes SQLite directly rather than through the store (store.c):
 * the rows are already normalised and counted; the store's job, turning
 * reader records into them, is done.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "store/intern.h"
#include "banned.h"

/* Renumbered source_file ids of the run being pulled. */
struct id_map { int64_t *from, *to; size_t n, cap; };

struct pull {
	sqlite3 *sql;
	struct profdb__intern *intern;
	const struct profdb__ch_table *t;
	sqlite3_stmt *ins;         /* INSERT of t's SQLite columns */
	enum profdb__ch_type types[64];    /* of t's columns */
	struct profdb__ch_val vals[64];
	int64_t run_id;            /* the local run id (0 while pulling the run row) */
	struct id_map src;
	struct profdb__ch_buf pending;     /* bytes of an incomplete row */
	char *text;                /* NUL-terminated copy for interning */
	size_t textcap;
	int64_t rows;
	struct profdb_err *err;
	/* t's CHC_ID_DEF ids: the first local id and the first id there;
	 * its CHC_ID_REF positions: the run's first local id of the table */
	int64_t id_base, id_first, ref_first;
	int id_started;
	/* the run's dictionary (kernel_str): local str id by its id there,
	 * loaded once, before the first table that stores ids */
	int64_t *dict;
	size_t ndict;
	int dict_loaded;
};

static int pulled_col(const struct profdb__ch_col *c)
{
	return c->sq && (!(c->flags & (CHC_SEQ | CHC_HASH | CHC_SRC_DEF)) || (c->flags & CHC_ID_DEF));
}

/* INSERT INTO t(cols pulled) VALUES (?, ...) */
static int prepare_insert(struct pull *p)
{
	struct profdb__ch_buf q = { 0 };
	int bad = profdb__ch_buf_add(&q, "INSERT INTO ", 12) ||
	          profdb__ch_buf_add(&q, p->t->name, strlen(p->t->name)) || profdb__ch_buf_add(&q, "(", 1);
	int k = 0;
	for (size_t i = 0; i < p->t->ncols && !bad; i++)
		if (pulled_col(&p->t->cols[i]))
			bad = (k++ && profdb__ch_buf_add(&q, ", ", 2)) ||
			      profdb__ch_buf_add(&q, p->t->cols[i].sq, strlen(p->t->cols[i].sq));
	bad = bad || profdb__ch_buf_add(&q, ") VALUES (", 10);
	for (int i = 0; i < k && !bad; i++)
		bad = profdb__ch_buf_add(&q, i ? ", ?" : "?", i ? 3 : 1);
	bad = bad || profdb__ch_buf_add(&q, ")", 1);
	int rc = PROFDB_OK;
	if (bad)
		rc = profdb__err_set(p->err, PROFDB_ERROR, "out of memory");
	else if (sqlite3_prepare_v2(p->sql, q.data, -1, &p->ins, NULL) != SQLITE_OK)
		rc = profdb__err_set(p->err, PROFDB_ERROR, "storing %s: %s", p->t->name, sqlite3_errmsg(p->sql));
	profdb__ch_buf_free(&q);
	return rc;
}

static int map_add(struct id_map *m, int64_t from, int64_t to)
{
	if (m->n == m->cap) {
		size_t cap = m->cap ? 2 * m->cap : 16;
		int64_t *f = realloc(m->from, cap * sizeof *f);
		if (!f)
			return -1;
		m->from = f;
		int64_t *t = realloc(m->to, cap * sizeof *t);
		if (!t)
			return -1;
		m->to = t;
		m->cap = cap;
	}
	m->from[m->n] = from;
	m->to[m->n++] = to;
	return 0;
}

static int64_t map_get(const struct id_map *m, int64_t from)
{
	for (size_t i = 0; i < m->n; i++)
		if (m->from[i] == from)
			return m->to[i];
	return 0;
}

/* The id of the text v in the local str table. */
static int64_t intern_val(struct pull *p, const struct profdb__ch_val *v)
{
	if (v->n + 1 > p->textcap) {
		char *t = realloc(p->text, v->n + 1);
		if (!t)
			return profdb__err_set(p->err, PROFDB_ERROR, "out of memory"), 0;
		p->text = t;
		p->textcap = v->n + 1;
	}
	memcpy(p->text, v->s, v->n);
	p->text[v->n] = '\0';
	return profdb__intern(p->intern, p->text);
}

/* A CHC_DICT id as the local str id of its text: NULL for 0 where the
 * column is Nullable, else "" (what the view gives for id 0). */
static int bind_dict(struct pull *p, const struct profdb__ch_col *c, const struct profdb__ch_val *v, int k)
{
	uint64_t id = (uint64_t)v->i;
	if (id == 0 && c->type == CH_NSTR)
		return sqlite3_bind_null(p->ins, k) == SQLITE_OK ? 0 : -1;
	int64_t local = id < p->ndict ? p->dict[id] : 0;
	if (!local) {
		struct profdb__ch_val empty = { 0, 0, 0, "", 0 };
		local = intern_val(p, &empty);
	}
	return local ? (sqlite3_bind_int64(p->ins, k, local) == SQLITE_OK ? 0 : -1) : -1;
}

static int bind_col(struct pull *p, const struct profdb__ch_col *c, const struct profdb__ch_val *v, int k)
{
	sqlite3_stmt *st = p->ins;
	if (c->flags & CHC_RUN_ID)
		return sqlite3_bind_int64(st, k, p->run_id) == SQLITE_OK ? 0 : -1;
	if (c->flags & CHC_DICT)
		return bind_dict(p, c, v, k);
	if (v->null)
		return sqlite3_bind_null(st, k) == SQLITE_OK ? 0 : -1;
	if (c->flags & CHC_STR_REF) {
		int64_t id = intern_val(p, v);
		return id ? (sqlite3_bind_int64(st, k, id) == SQLITE_OK ? 0 : -1) : -1;
	}
	if (c->flags & CHC_SRC_REF)
		return sqlite3_bind_int64(st, k, map_get(&p->src, v->i)) == SQLITE_OK ? 0 : -1;
	if (c->flags & CHC_ID_DEF) { /* rows come in id order: the first is the run's first */
		if (!p->id_started)
			p->id_first = v->i;
		p->id_started = 1;
		return sqlite3_bind_int64(st, k, p->id_base + (v->i - p->id_first)) == SQLITE_OK ? 0 : -1;
	}
	if (c->flags & CHC_ID_REF)
		return sqlite3_bind_int64(st, k, p->ref_first + v->i) == SQLITE_OK ? 0 : -1;
	switch (c->type) {
	case CH_F64:
	case CH_NF64:
		return sqlite3_bind_double(st, k, v->d) == SQLITE_OK ? 0 : -1;
	case CH_STR:
	case CH_NSTR:
		if (c->flags & CHC_BLOB)
			return sqlite3_bind_blob(st, k, v->s, (int)v->n, SQLITE_TRANSIENT) == SQLITE_OK ? 0 : -1;
		return sqlite3_bind_text(st, k, v->s, (int)v->n, SQLITE_TRANSIENT) == SQLITE_OK ? 0 : -1;
	default:
		return sqlite3_bind_int64(st, k, v->i) == SQLITE_OK ? 0 : -1;
	}
}

static int insert_row(struct pull *p)
{
	int k = 0;
	for (size_t i = 0; i < p->t->ncols; i++) {
		const struct profdb__ch_col *c = &p->t->cols[i];
		if (pulled_col(c) && bind_col(p, c, &p->vals[i], ++k) != 0)
			return profdb__err_set(p->err, PROFDB_ERROR, "storing %s: %s", p->t->name,
			    p->err->code ? p->err->msg : sqlite3_errmsg(p->sql));
	}
	int rc = sqlite3_step(p->ins);
	sqlite3_reset(p->ins);
	if (rc != SQLITE_DONE)
		return profdb__err_set(p->err, PROFDB_ERROR, "storing %s: %s", p->t->name, sqlite3_errmsg(p->sql));
	for (size_t i = 0; i < p->t->ncols; i++)
		if ((p->t->cols[i].flags & CHC_SRC_DEF) &&
		    map_add(&p->src, p->vals[i].i, sqlite3_last_insert_rowid(p->sql)) != 0)
			return profdb__err_set(p->err, PROFDB_ERROR, "out of memory");
	if (p->t == &profdb__ch_run_table)
		p->run_id = sqlite3_last_insert_rowid(p->sql);
	p->rows++;
	return PROFDB_OK;
}

/* Response chunks: decode every complete row, keep the rest. */
static int pull_sink(void *arg, const char *data, size_t n)
{
	struct pull *p = arg;
	size_t off = 0, k;
	if (profdb__ch_buf_add(&p->pending, data, n) != 0)
		return profdb__err_set(p->err, PROFDB_ERROR, "out of memory"), -1;
	while ((k = profdb__ch_get_row(p->pending.data + off, p->pending.len - off, p->types,
	                               p->t->ncols, p->vals)) > 0) {
		if (insert_row(p) != PROFDB_OK)
			return -1;
		off += k;
	}
	memmove(p->pending.data, p->pending.data + off, p->pending.len - off);
	p->pending.len -= off;
	return 0;
}


static const enum profdb__ch_type dict_types[] = { CH_U32, CH_STR };

int profdb__ch_dict_set(int64_t **dict, size_t *n, size_t id, int64_t local)
{
	if (id >= *n) {
		size_t cap = id + 1 > 2 * *n ? id + 1 : 2 * *n;
		int64_t *d = realloc(*dict, cap * sizeof *d);
		if (!d)
			return -1;
		memset(d + *n, 0, (cap - *n) * sizeof *d);
		*dict = d;
		*n = cap;
	}
	(*dict)[id] = local;
	return 0;
}

/* kernel_str rows: each text interned here, at its id. */
static int dict_sink(void *arg, const char *data, size_t n)
{
	struct pull *p = arg;
	struct profdb__ch_val v[2];
	size_t off = 0, k;
	if (profdb__ch_buf_add(&p->pending, data, n) != 0)
		return profdb__err_set(p->err, PROFDB_ERROR, "out of memory"), -1;
	while ((k = profdb__ch_get_row(p->pending.data + off, p->pending.len - off, dict_types, 2, v)) > 0) {
		int64_t local = intern_val(p, &v[1]);
		if (!local)
			return profdb__err_set(p->err, PROFDB_ERROR, "storing str: %s", sqlite3_errmsg(p->sql)), -1;
		if (profdb__ch_dict_set(&p->dict, &p->ndict, (size_t)(uint32_t)v[0].i, local) != 0)
			return profdb__err_set(p->err, PROFDB_ERROR, "out of memory"), -1;
		off += k;
	}
	memmove(p->pending.data, p->pending.data + off, p->pending.len - off);
	p->pending.len -= off;
	return 0;
}

/* The remote run's dictionary, once: its few distinct texts interned
 * here, so the rows travel as integers and map through an array (no text
 * per row on the wire or through the interner). */
static int pull_dict(struct profdb__ch *ch, struct pull *p, uint64_t remote_id)
{
	char q[160];
	if (p->dict_loaded)
		return PROFDB_OK;
	snprintf(q, sizeof q, "SELECT id, text FROM " CH_DICT_TABLE " WHERE run_id = %llu FORMAT RowBinary",
	    (unsigned long long)remote_id);
	int rc = profdb__ch_send(ch, q, NULL, 0, 1, dict_sink, p, p->err);
	if (rc == PROFDB_OK && p->pending.len)
		rc = profdb__err_set(p->err, PROFDB_EFORMAT, "clickhouse %s: " CH_DICT_TABLE ": truncated answer",
		    profdb__ch_where(ch));
	p->pending.len = 0;
	p->dict_loaded = rc == PROFDB_OK;
	return rc;
}

/* One integer the local database answers (0 for NULL or no row). */
static int64_t local_int(struct pull *p, const char *sql, int64_t bind)
{
	sqlite3_stmt *st = NULL;
	int64_t v = 0;
	if (sqlite3_prepare_v2(p->sql, sql, -1, &st, NULL) != SQLITE_OK) {
		profdb__err_set(p->err, PROFDB_ERROR, "storing: %s", sqlite3_errmsg(p->sql));
		return 0;
	}
	sqlite3_bind_int64(st, 1, bind);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* Where t's ids start (CHC_ID_DEF: after every id here) and where the run's
 * rows of the table its CHC_ID_REF points into start.  Table names are
 * our own, from profdb__ch_tables. */
static int id_bases(struct pull *p, const struct profdb__ch_table *t)
{
	char q[160];
	p->id_started = 0;
	for (size_t i = 0; i < t->ncols; i++) {
		const struct profdb__ch_col *c = &t->cols[i];
		if (c->flags & CHC_ID_DEF) {
			snprintf(q, sizeof q, "SELECT coalesce(max(id), 0) + 1 FROM %s WHERE ?1 IS NOT NULL", t->name);
			p->id_base = local_int(p, q, 1);
		}
		if (c->flags & CHC_ID_REF) {
			snprintf(q, sizeof q, "SELECT min(id) FROM %s WHERE run_id = ?1", profdb__ch_ref_table(c));
			p->ref_first = local_int(p, q, p->run_id);
		}
	}
	return p->err->code;
}

/* Does the server have table (schema 005 tables: not on a database no
 * push of this version has reached; its runs have none of those rows)? */
static int server_has(struct profdb__ch *ch, struct pull *p, const char *table)
{
	struct profdb__ch_buf r = { 0 };
	char q[120];
	int has = 0;
	snprintf(q, sizeof q, "EXISTS TABLE %s", table);
	if (profdb__ch_query(ch, q, &r, p->err) == PROFDB_OK)
		has = r.data && r.data[0] == '1';
	profdb__ch_buf_free(&r);
	return has;
}

/* SELECT t's columns of the remote run, in their original order. */
static int pull_table(struct profdb__ch *ch, struct pull *p, const struct profdb__ch_table *t,
                      uint64_t remote_id)
{
	struct profdb__ch_buf q = { 0 };
	const char *order = t->cols[1].ch;
	char where[120];
	int rc;
	for (size_t i = 0; i < t->ncols; i++)
		if (t->cols[i].flags & (CHC_SEQ | CHC_SRC_DEF))
			order = t->cols[i].ch;
	if (t->ncols > sizeof p->types / sizeof p->types[0])
		return profdb__err_set(p->err, PROFDB_ERROR, "table %s has too many columns", t->name);
	if (t->store && pull_dict(ch, p, remote_id) != PROFDB_OK)
		return p->err->code;
	for (size_t i = 0; i < t->ncols; i++)
		p->types[i] = t->store && (t->cols[i].flags & CHC_DICT) ? CH_U32 : t->cols[i].type;
	p->t = t;
	p->rows = 0;
	snprintf(where, sizeof where, " FROM %s WHERE %s = %llu ORDER BY ", t->store ? t->store : t->name,
	    t == &profdb__ch_run_table ? "id" : "run_id", (unsigned long long)remote_id);
	if (profdb__ch_buf_add(&q, "SELECT ", 7) || profdb__ch_store_cols(&q, t) ||
	    profdb__ch_buf_add(&q, where, strlen(where)) || profdb__ch_buf_add(&q, order, strlen(order)) ||
	    profdb__ch_buf_add(&q, " FORMAT RowBinary", 17)) {
		profdb__ch_buf_free(&q);
		return profdb__err_set(p->err, PROFDB_ERROR, "out of memory");
	}
	rc = prepare_insert(p);
	if (rc == PROFDB_OK)
		rc = id_bases(p, t);
	if (rc == PROFDB_OK)
		rc = profdb__ch_send(ch, q.data, NULL, 0, 1, pull_sink, p, p->err);
	if (rc == PROFDB_OK && p->pending.len)
		rc = profdb__err_set(p->err, PROFDB_EFORMAT, "clickhouse %s: %s: truncated answer",
		    profdb__ch_where(ch), t->name);
	sqlite3_finalize(p->ins);
	p->ins = NULL;
	p->pending.len = 0;
	profdb__ch_buf_free(&q);
	return rc;
}

/* The newest run row of that name on the server. */
static int find_remote(struct profdb__ch *ch, const char *run, uint64_t *id, struct profdb_err *err)
{
	struct profdb__ch_run *runs = NULL;
	size_t n = 0;
	int rc = profdb__ch_runs(ch, &runs, &n, err);
	*id = 0;
	for (size_t i = 0; rc == PROFDB_OK && i < n; i++)
		if (strcmp(runs[i].name, run) == 0)
			*id = runs[i].id;
	profdb__ch_runs_free(runs, n);
	if (rc == PROFDB_OK && *id == 0)
		rc = profdb__err_set(err, PROFDB_ENOTFOUND, "clickhouse %s has no run named '%s'",
		    profdb__ch_where(ch), run);
	return rc;
}

/* A local run of that name: refused, or deleted when replacing. */
static int clear_local(sqlite3 *sql, const char *run, int replace, struct profdb_err *err)
{
	sqlite3_stmt *st = NULL;
	const char *q = replace ? "DELETE FROM run WHERE name = ?1" : "SELECT 1 FROM run WHERE name = ?1";
	if (sqlite3_prepare_v2(sql, q, -1, &st, NULL) != SQLITE_OK)
		return profdb__err_set(err, PROFDB_ERROR, "cannot read runs: %s", sqlite3_errmsg(sql));
	sqlite3_bind_text(st, 1, run, -1, SQLITE_STATIC);
	int rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return profdb__err_set(err, PROFDB_EEXISTS, "run '%s' already exists (use --replace)", run);
	if (rc != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "cannot read runs: %s", sqlite3_errmsg(sql));
	return PROFDB_OK;
}

/* The tables of mask (bit i: profdb__ch_tables[i]) of the remote run. */
static void pull_tables(struct profdb__ch *ch, struct pull *p, uint64_t remote, unsigned mask,
                        struct profdb_push_stats *out)
{
	int has005 = -1;           /* the server has schema 005's tables; -1 not asked */
	int has007 = -1;           /* ... and schema 007's */
	int has008 = -1;           /* ... and schema 008's */
	for (unsigned i = 0; profdb__ch_tables[i].name && p->err->code == PROFDB_OK; i++) {
		const struct profdb__ch_table *t = &profdb__ch_tables[i];
		if (!(mask & (1u << i)))
			continue;
		if (strcmp(t->name, "kernel_coll") == 0 || strncmp(t->name, "comm_", 5) == 0) {
			if (has005 < 0)
				has005 = server_has(ch, p, "comm_link");
			if (!has005)
				continue;
		}
		if (strcmp(t->name, "memory") == 0) {
			if (has007 < 0)
				has007 = server_has(ch, p, "memory");
			if (!has007)
				continue;
		}
		if (strcmp(t->name, "op_memory") == 0) {
			if (has008 < 0)
				has008 = server_has(ch, p, "op_memory");
			if (!has008)
				continue;
		}
		if (pull_table(ch, p, t, remote) != PROFDB_OK || !out)
			continue;
		out->rows += p->rows;
		if (strcmp(t->name, "kernel") == 0)
			out->kernels = p->rows;
	}
}

/* Free the interner, then COMMIT, or ROLLBACK after an error. */
static void finish(profdb *db, struct pull *p)
{
	profdb__intern_free(p->intern); /* its statements must go before COMMIT */
	p->intern = NULL;
	if (p->err->code == PROFDB_OK && sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
		profdb__err_set(p->err, PROFDB_ERROR, "cannot commit: %s", sqlite3_errmsg(db->sql));
	if (p->err->code != PROFDB_OK)
		sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
}

int profdb__ch_pull_more(profdb *db, const char *url, uint64_t remote, int64_t local, unsigned mask)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct pull p;
	struct profdb__ch *ch = NULL;
	memset(&p, 0, sizeof p);
	p.sql = db->sql;
	p.err = &err;
	p.run_id = local;
	if (profdb__ch_open(&ch, url, &db->remote_opts, &err) == PROFDB_OK) {
		profdb__ch_set_readonly(ch); /* a pull only reads the server */
		if (sqlite3_exec(db->sql, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			profdb__err_set(&err, PROFDB_EBUSY, "cannot write: %s", sqlite3_errmsg(db->sql));
		else if ((p.intern = profdb__intern_new(db->sql, (size_t)db->limits.intern_cached, &err)) != NULL)
			pull_tables(ch, &p, remote, mask, NULL);
		if (err.code != PROFDB_EBUSY)
			finish(db, &p);
	}
	profdb__ch_close(ch);
	profdb__ch_buf_free(&p.pending);
	free(p.text);
	free(p.src.from);
	free(p.src.to);
	free(p.dict);
	return err.code == PROFDB_OK ? PROFDB_OK : profdb__error(db, err.code, "%s", err.msg);
}

int profdb__ch_pull(profdb *db, const char *url, const char *run, int replace, unsigned mask,
                    struct profdb_push_stats *out, int64_t *local_id, uint64_t *remote_id)
{
	struct profdb_err err = { PROFDB_OK, "" };
	struct pull p;
	struct profdb__ch *ch = NULL;
	uint64_t remote = 0;
	memset(&p, 0, sizeof p);
	p.sql = db->sql;
	p.err = &err;
	if (out)
		out->rows = out->kernels = 0;
	if (db->readonly)
		return profdb__error(db, PROFDB_EUSAGE, "the database is open read-only");
	if (profdb__ch_open(&ch, url, &db->remote_opts, &err) != PROFDB_OK)
		goto out;
	profdb__ch_set_readonly(ch); /* a pull only reads the server */
	if (find_remote(ch, run, &remote, &err) != PROFDB_OK)
		goto out;
	if (sqlite3_exec(db->sql, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		profdb__err_set(&err, PROFDB_EBUSY, "cannot write the database: %s", sqlite3_errmsg(db->sql));
		goto out;
	}
	p.intern = profdb__intern_new(db->sql, (size_t)db->limits.intern_cached, &err);
	if (p.intern && clear_local(db->sql, run, replace, &err) == PROFDB_OK &&
	    pull_table(ch, &p, &profdb__ch_run_table, remote) == PROFDB_OK && p.run_id == 0)
		profdb__err_set(&err, PROFDB_ERROR, "clickhouse %s: run '%s' vanished while pulling",
		    profdb__ch_where(ch), run);
	if (err.code == PROFDB_OK)
		pull_tables(ch, &p, remote, mask, out);
	finish(db, &p);
out:
	profdb__ch_close(ch);
	profdb__ch_buf_free(&p.pending);
	free(p.text);
	free(p.src.from);
	free(p.src.to);
	free(p.dict);
	if (err.code != PROFDB_OK)
		return profdb__error(db, err.code, "%s", err.msg);
	if (local_id)
		*local_id = p.run_id;
	if (remote_id)
		*remote_id = remote;
	return PROFDB_OK;
}

int profdb_run_pull(profdb *db, struct profdb_push_stats *out, const char *url, const char *run,
                    int replace)
{
	return profdb__ch_pull(db, url, run, replace, CH_ALL_TABLES, out, NULL, NULL);
}

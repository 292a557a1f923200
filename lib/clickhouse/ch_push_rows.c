/*
 * ch_push_rows.c - one table's rows of a run, read from the SQLite store and
 * encoded for one streamed INSERT (profdb__ch_push_table): RowBinary for
 * the small tables, ClickHouse's Native format in blocks for kernel rows,
 * str ids turned into text through a bounded cache, and the run's text
 * dictionary (CHC_DICT columns) gathered as rows pass.  ch_push.c keeps the
 * run-level protocol (content hash, leftovers, push_log, the run row last);
 * the encoding is apart because it is where the push spends its CPU.
 * A big run's kernels go in parallel parts (see "Parts" below).
 *
 * A little over 600 lines: the parts run streams, and a stream's layout
 * (struct stream, its dictionary under a lock) is this file's alone; apart,
 * it would be a header shared by two files for one caller.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ch.h"
#include "banned.h"

/*
 * The text of str ids, cached: a kernel row names up to 15 strings, and a
 * lookup per string per row (a correlated subquery) made the push read
 * SQLite at a fraction of the rate the server takes.  Direct-mapped by id,
 * texts up to STR_CACHE_MAX bytes, so it holds at most 16384 * 512 bytes
 * (8 MiB) however many rows go: memory stays flat.
 */
#define STR_SLOTS 16384
#define STR_CACHE_MAX 512
struct str_slot {
	int64_t id;                /* 0: empty (str ids start at 1) */
	size_t n;
	char text[STR_CACHE_MAX];
};


/* One table being streamed. */
struct stream {
	const struct profdb__ch_table *t;
	sqlite3_stmt *st;
	uint64_t remote_id;        /* the run id on the server */
	const char *hash;          /* the content hash (run table) */
	struct profdb__ch_buf pending;     /* encoded bytes not yet given to curl */
	size_t given;              /* of pending, bytes already given */
	int done;                  /* the statement has no more rows */
	int64_t rows;
	struct profdb_err *err;
	sqlite3 *sql;
	sqlite3_stmt *str_st;      /* SELECT value FROM str WHERE id = ?1 */
	struct str_slot *cache;    /* STR_SLOTS, malloc'd on first use */
	struct profdb__ch_dict *dict;         /* of CHC_DICT columns: the run's, shared by its tables */
	/* A table streamed in parts, one thread each (push_parts): dict is
	 * shared under dict_mu, and each part keeps the ids it has seen in
	 * seen (no lock per cell); a part that fails sets stop, which ends
	 * the others' uploads. */
	pthread_mutex_t *dict_mu;          /* NULL: one part, dict is this stream's alone */
	struct profdb__ch_dict seen;       /* keys and vals only */
	atomic_int *stop;
	int stopped;               /* this part ended because another failed */
	/* A table with a store (kernel) goes in the Native format: a block of
	 * NATIVE_ROWS rows column by column, each column's values (and null
	 * map) in its own buffer.  The server then copies columns instead of
	 * parsing 36 values a row, a quarter less of its CPU on kernel rows
	 * (bench/results.md). */
	struct profdb__ch_buf *cols;       /* t->ncols value buffers; NULL: RowBinary */
	struct profdb__ch_buf *nulls;      /* their null maps (Nullable columns) */
	size_t block_rows;
};

#define NATIVE_ROWS 4096

/*
 * The server gathers those blocks into blocks of min_insert_block_size_rows
 * (1 M by default) before it writes each as a part, and that gathering
 * (SquashingTransform) is a third of its CPU on a big push, most of it
 * page faults on each fresh ~300 MB block (bench/results.md, "push in
 * parts").  131 072 rows: blocks of ~38 MB, at the
 * price of more parts to merge (the INSERT asks it in its URL).  Its
 * CPU across the push and the merges after it, 10 M rows, two parts:
 * 1 M 25.7-27.4 s, 262 144 21.4-23.7 s, 131 072 20.0-20.2 s, 65 536
 * 22.5-23.0 s (more merging).
 */
#define NATIVE_SETTINGS "min_insert_block_size_rows=131072"

/* The text of str id (cached); 1 found, 0 no such id, -1 error. */
static int str_text(struct stream *s, int64_t id, const char **p, size_t *n)
{
	struct str_slot *slot;
	if (!s->cache && !(s->cache = calloc(STR_SLOTS, sizeof *s->cache)))
		return -1;
	slot = &s->cache[(uint64_t)id % STR_SLOTS];
	if (slot->id == id && id != 0) {
		*p = slot->text;
		*n = slot->n;
		return 1;
	}
	if (!s->str_st && sqlite3_prepare_v2(s->sql, "SELECT value FROM str WHERE id = ?1", -1, &s->str_st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_reset(s->str_st);
	sqlite3_bind_int64(s->str_st, 1, id);
	int rc = sqlite3_step(s->str_st);
	if (rc == SQLITE_DONE)
		return 0;
	if (rc != SQLITE_ROW)
		return -1;
	*p = sqlite3_column_blob(s->str_st, 0);
	*n = (size_t)sqlite3_column_bytes(s->str_st, 0);
	if (!*p)
		*p = "";
	if (*n <= STR_CACHE_MAX) {
		memcpy(slot->text, *p, *n);
		slot->n = *n;
		slot->id = id;
		*p = slot->text; /* the statement's copy goes at the next reset */
	}
	return 1;
}

/* A str id column (v): its text, or NULL (Nullable) / "" for none, as
 * the correlated subquery it replaces gave. */
static int put_str_ref(struct stream *s, const struct profdb__ch_col *c, sqlite3_value *v)
{
	struct profdb__ch_buf *b = &s->pending;
	const char *p = "";
	size_t n = 0;
	int found = 0;
	if (sqlite3_value_type(v) != SQLITE_NULL &&
	    (found = str_text(s, sqlite3_value_int64(v), &p, &n)) < 0)
		return -1;
	if (c->type == CH_NSTR && profdb__ch_put_null(b, !found) != 0)
		return -1;
	if (c->type == CH_NSTR && !found)
		return 0;
	return profdb__ch_put_str(b, p, n);
}

/* The slot of id in d: where it is, or the empty one it would take. */
static size_t dict_slot(const struct profdb__ch_dict *d, int64_t id)
{
	size_t h = (size_t)((uint64_t)id * 0x9e3779b97f4a7c15ull >> 20) & (d->cap - 1);
	while (d->keys[h] && d->keys[h] != id)
		h = (h + 1) & (d->cap - 1);
	return h;
}

static int dict_grow(struct profdb__ch_dict *d)
{
	size_t cap = d->cap ? 2 * d->cap : 1024;
	int64_t *keys = calloc(cap, sizeof *keys);
	uint32_t *vals = calloc(cap, sizeof *vals);
	if (!keys || !vals) {
		free(keys);
		free(vals);
		return -1;
	}
	struct profdb__ch_dict old = *d;
	d->keys = keys;
	d->vals = vals;
	d->cap = cap;
	for (size_t i = 0; i < old.cap; i++) {
		if (!old.keys[i])
			continue;
		size_t h = dict_slot(d, old.keys[i]);
		keys[h] = old.keys[i];
		vals[h] = old.vals[i];
	}
	free(old.keys);
	free(old.vals);
	return 0;
}

/* The dense id of str id (> 0) in s's dictionary, added with its text
 * when new; 0 when the store has no such text (as NULL, what the
 * correlated subquery this replaced gave), -1 on error. */
static int64_t dict_add(struct stream *s, struct profdb__ch_dict *d, int64_t id)
{
	if (2 * (d->n + 1) > d->cap && dict_grow(d) != 0)
		return -1;
	size_t h = dict_slot(d, id);
	if (d->keys[h])
		return d->vals[h];
	const char *p;
	size_t n;
	int found = str_text(s, id, &p, &n);
	if (found <= 0)
		return found;
	if (d->n == UINT32_MAX || profdb__ch_put_u64(&d->body, s->remote_id) ||
	    profdb__ch_put_u32(&d->body, (uint32_t)(d->n + 1)) || profdb__ch_put_str(&d->body, p, n))
		return -1;
	d->keys[h] = id;
	d->vals[h] = (uint32_t)++d->n;
	return d->vals[h];
}

/* dict_add on the run's dictionary; a part on a thread of its own looks in
 * what it has seen first and takes the lock only for an id new to it (a
 * few hundred texts a run: the lock is taken that often, not per cell). */
static int64_t dict_id(struct stream *s, int64_t id)
{
	if (!s->dict_mu)
		return dict_add(s, s->dict, id);
	struct profdb__ch_dict *seen = &s->seen;
	size_t h;
	if (seen->cap && seen->keys[h = dict_slot(seen, id)])
		return seen->vals[h];
	pthread_mutex_lock(s->dict_mu);
	int64_t v = dict_add(s, s->dict, id);
	pthread_mutex_unlock(s->dict_mu);
	if (v <= 0)
		return v;
	if (2 * (seen->n + 1) > seen->cap && dict_grow(seen) != 0)
		return -1;
	h = dict_slot(seen, id);
	seen->keys[h] = id;
	seen->vals[h] = (uint32_t)v;
	seen->n++;
	return v;
}

/* Append the n (1, 4 or 8) low bytes of v, little-endian, in place when
 * they fit: a profdb__ch_buf_add call per cell would be a large share of
 * the client's work on a push. */
static inline int put_le(struct profdb__ch_buf *b, uint64_t v, size_t n)
{
	if (b->len + n + 1 > b->cap)
		return n == 8 ? profdb__ch_put_u64(b, v) : n == 4 ? profdb__ch_put_u32(b, (uint32_t)v) :
		       profdb__ch_put_null(b, (int)v);
	unsigned char *p = (unsigned char *)b->data + b->len;
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(v >> (8 * i));
	b->len += n;
	p[n] = '\0';
	return 0;
}

/* A CHC_DICT column (v): the dense id of its text, 0 for none. */
static int put_dict(struct stream *s, struct profdb__ch_buf *b, sqlite3_value *v)
{
	int64_t id = 0;
	if (sqlite3_value_type(v) != SQLITE_NULL && (id = dict_id(s, sqlite3_value_int64(v))) < 0)
		return -1;
	return put_le(b, (uint64_t)id, 4);
}

static int nullable(const struct profdb__ch_col *c)
{
	return c->type == CH_NI64 || c->type == CH_NF64 || c->type == CH_NSTR;
}

/* Column i of the row, into the RowBinary body or its Native column.
 * Read through one sqlite3_value: each sqlite3_column_* call takes the
 * connection's mutex and looks the column up again, and type + value made
 * two per cell (15% of the client's CPU in sqlite3_column_type alone, perf
 * on a push of 1 M kernel rows). */
static int put_col(struct stream *s, const struct profdb__ch_col *c, int i)
{
	struct profdb__ch_buf *b = s->cols ? &s->cols[i] : &s->pending;
	if (c->flags & CHC_RUN_ID)
		return put_le(b, s->remote_id, 8);
	if (c->flags & CHC_HASH)
		return profdb__ch_put_str(b, s->hash, strlen(s->hash));
	sqlite3_value *v = sqlite3_column_value(s->st, i);
	if (c->flags & CHC_DICT)
		return put_dict(s, b, v);
	if (c->flags & CHC_STR_REF) /* never Native: kernel's are all CHC_DICT */
		return put_str_ref(s, c, v);
	int null = sqlite3_value_type(v) == SQLITE_NULL;
	if (nullable(c) && put_le(s->cols ? &s->nulls[i] : b, (uint64_t)null, 1) != 0)
		return -1;
	if (null && nullable(c) && !s->cols)
		return 0; /* Native has a value under a NULL too: the default */
	switch (c->type) {
	case CH_F64:
	case CH_NF64: {
		double d = null ? 0 : sqlite3_value_double(v);
		uint64_t bits;
		memcpy(&bits, &d, sizeof bits);
		return put_le(b, bits, 8);
	}
	case CH_STR:
	case CH_NSTR: {
		const void *p = null ? NULL : sqlite3_value_blob(v);
		return profdb__ch_put_str(b, p ? p : "", p ? (size_t)sqlite3_value_bytes(v) : 0);
	}
	default:
		return put_le(b, null ? 0 : (uint64_t)sqlite3_value_int64(v), 8);
	}
}

static int put_varint(struct profdb__ch_buf *b, uint64_t v)
{
	unsigned char c[10];
	size_t k = 0;
	do {
		c[k] = (unsigned char)(v & 0x7f);
		v >>= 7;
		if (v)
			c[k] |= 0x80;
		k++;
	} while (v);
	return profdb__ch_buf_add(b, c, k);
}

/* The server's type of column c as stored. */
static const char *native_type(const struct profdb__ch_col *c)
{
	static const char *const names[] = { "UInt64", "Int64", "Nullable(Int64)", "Float64",
	                                     "Nullable(Float64)", "String", "Nullable(String)" };
	return c->flags & CHC_DICT ? "UInt32" : names[c->type];
}

/* The block built so far onto pending (HTTP's Native: no block info; the
 * column and row counts, then each column's name, type, null map and
 * values), and the column buffers emptied. */
static int flush_block(struct stream *s)
{
	const struct profdb__ch_table *t = s->t;
	int bad = put_varint(&s->pending, t->ncols) || put_varint(&s->pending, s->block_rows);
	for (size_t i = 0; i < t->ncols && !bad; i++) {
		const struct profdb__ch_col *c = &t->cols[i];
		const char *name = c->flags & CHC_DICT ? c->sq : c->ch, *type = native_type(c);
		bad = profdb__ch_put_str(&s->pending, name, strlen(name)) ||
		      profdb__ch_put_str(&s->pending, type, strlen(type)) ||
		      (s->nulls[i].len && profdb__ch_buf_add(&s->pending, s->nulls[i].data, s->nulls[i].len)) ||
		      profdb__ch_buf_add(&s->pending, s->cols[i].data, s->cols[i].len);
		s->nulls[i].len = s->cols[i].len = 0;
	}
	s->block_rows = 0;
	return bad ? -1 : 0;
}

/* Encode rows until about cap bytes are pending or the rows end. */
static int fill(struct stream *s, size_t cap)
{
	while (!s->done && s->pending.len - s->given < cap) {
		int rc = sqlite3_step(s->st);
		if (rc == SQLITE_DONE) {
			s->done = 1;
			break;
		}
		if (rc != SQLITE_ROW)
			return profdb__err_set(s->err, PROFDB_ERROR, "reading %s: %s", s->t->name,
			    sqlite3_errmsg(s->sql));
		for (size_t i = 0; i < s->t->ncols; i++)
			if (put_col(s, &s->t->cols[i], (int)i) != 0)
				return profdb__err_set(s->err, PROFDB_ERROR, "out of memory");
		s->rows++;
		if (s->cols && ++s->block_rows == NATIVE_ROWS && flush_block(s) != 0)
			return profdb__err_set(s->err, PROFDB_ERROR, "out of memory");
	}
	if (s->cols && s->done && s->block_rows && flush_block(s) != 0)
		return profdb__err_set(s->err, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

/* Give curl a full buffer each time: handing over only the remainder of
 * the last batch made every other chunk of the body a few bytes long (one
 * more send and chunk header each, measured with strace). */
static long stream_read(void *arg, char *buf, size_t cap)
{
	struct stream *s = arg;
	size_t out = 0;
	if (s->stop && atomic_load(s->stop)) {
		s->stopped = 1;
		profdb__err_set(s->err, PROFDB_ERROR, "push stopped: another part failed");
		return -1;
	}
	while (out < cap) {
		if (s->given == s->pending.len) {
			s->pending.len = s->given = 0;
			if (fill(s, cap - out > 65536 ? cap - out : 65536) != PROFDB_OK)
				return -1;
			if (s->pending.len == 0) /* no more rows: the body ends after this */
				break;
		}
		size_t n = s->pending.len - s->given;
		if (n > cap - out)
			n = cap - out;
		memcpy(buf + out, s->pending.data + s->given, n);
		s->given += n;
		out += n;
	}
	return (long)out;
}

/* SELECT of t's columns in column order (NULL for server-only ones). */
static int build_select(struct profdb__ch_buf *q, const struct profdb__ch_table *t)
{
	int bad = profdb__ch_buf_add(q, "SELECT ", 7);
	for (size_t i = 0; i < t->ncols && !bad; i++) {
		const struct profdb__ch_col *c = &t->cols[i];
		char col[160];
		if (c->flags & (CHC_RUN_ID | CHC_HASH))
			snprintf(col, sizeof col, "%sNULL", i ? ", " : "");
		else if (c->flags & CHC_ID_REF) /* the position in the run (schema 005) */
			snprintf(col, sizeof col, "%st.%s - (SELECT min(id) FROM %s WHERE run_id = ?1)",
			         i ? ", " : "", c->sq, profdb__ch_ref_table(c));
		else /* str ids too: put_str_ref looks their text up */
			snprintf(col, sizeof col, "%st.%s", i ? ", " : "", c->sq);
		bad = profdb__ch_buf_add(q, col, strlen(col));
	}
	char tail[400];
	snprintf(tail, sizeof tail, " FROM %s WHERE %s%s = ?1 ORDER BY %s", t->from,
	         t->id_range ? "t.id BETWEEN ?2 AND ?3 AND " : "", t->run_col, t->order);
	return bad || profdb__ch_buf_add(q, tail, strlen(tail));
}

/* The least and greatest id of the run's rows of t into lo, hi: 1, 0
 * when it has none, -1 on error. */
static int read_id_range(sqlite3 *sql, const struct profdb__ch_table *t, int64_t run_id, int64_t *lo,
                         int64_t *hi)
{
	sqlite3_stmt *r;
	if (sqlite3_prepare_v2(sql, t->id_range, -1, &r, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(r, 1, run_id);
	int rc = sqlite3_step(r) == SQLITE_ROW ? 1 : -1;
	if (rc == 1 && sqlite3_column_type(r, 0) == SQLITE_NULL)
		rc = 0;
	if (rc == 1) {
		*lo = sqlite3_column_int64(r, 0);
		*hi = sqlite3_column_int64(r, 1);
	}
	sqlite3_finalize(r);
	return rc;
}

/* The INSERT of t's rows as stored on the server. */
static int build_insert(struct profdb__ch_buf *ins, const struct profdb__ch_table *t)
{
	const char *into = t->store ? t->store : t->name;
	const char *format = t->store ? ") FORMAT Native" : ") FORMAT RowBinary";
	return profdb__ch_buf_add(ins, "INSERT INTO ", 12) || profdb__ch_buf_add(ins, into, strlen(into)) ||
	       profdb__ch_buf_add(ins, " (", 2) || profdb__ch_store_cols(ins, t) ||
	       profdb__ch_buf_add(ins, format, strlen(format));
}

/*
 * Parts.  A big run's kernels go up in push_streams (struct profdb_limits)
 * concurrent INSERTs,
 * each a slice of the run's id range read through its own SQLite
 * connection and sent through its own curl handle, on a thread of its own.
 * Why: one INSERT is one server thread, which stops reading the body while
 * it writes each part of ~1 M rows (squashing the blocks, compressing 36
 * columns), so the client waits; and the client, reading SQLite and
 * encoding, leaves the server waiting in turn.  Two parts are the best of
 * 1-3 with client and server on one 2-core machine (bench/results.md,
 * "push in parts"); a server with cores to spare gains more.  Each
 * slice is in id order, so each server
 * part is still sorted for (run_id, seq).  A run under push_split_rows kernels
 * goes in one INSERT: each INSERT makes a part of its own, which the
 * server then merges.  Nothing is visible before the run row anyway.
 */

struct part {
	struct stream s;
	struct profdb__ch *ch;     /* owned, except the first part's */
	sqlite3 *sql;              /* owned, except the first part's */
	const char *insert;
	struct profdb_err err;     /* a part's own (the first part's is the caller's) */
	int rc;
	pthread_t thread;
	int started;
};

static int stream_init(struct stream *s, const struct profdb__ch_table *t, sqlite3 *sql,
                       const char *select, int64_t run_id, struct profdb_err *err)
{
	s->t = t;
	s->sql = sql;
	s->err = err;
	if (t->store && (!(s->cols = calloc(t->ncols, sizeof *s->cols)) ||
	                 !(s->nulls = calloc(t->ncols, sizeof *s->nulls))))
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	if (sqlite3_prepare_v2(sql, select, -1, &s->st, NULL) != SQLITE_OK)
		return profdb__err_set(err, PROFDB_ERROR, "reading %s: %s", t->name, sqlite3_errmsg(sql));
	sqlite3_bind_int64(s->st, 1, run_id);
	return PROFDB_OK;
}

static void stream_free(struct stream *s)
{
	sqlite3_finalize(s->st);
	sqlite3_finalize(s->str_st);
	free(s->cache);
	for (size_t i = 0; s->cols && i < s->t->ncols; i++)
		profdb__ch_buf_free(&s->cols[i]);
	for (size_t i = 0; s->nulls && i < s->t->ncols; i++)
		profdb__ch_buf_free(&s->nulls[i]);
	free(s->cols);
	free(s->nulls);
	free(s->seen.keys);
	free(s->seen.vals);
	profdb__ch_buf_free(&s->pending);
}

static void *part_run(void *arg)
{
	struct part *p = arg;
	p->rc = profdb__ch_upload(p->ch, p->insert, p->s.t->store ? NATIVE_SETTINGS : NULL, stream_read, &p->s,
	                          p->s.err);
	if (p->rc != PROFDB_OK && p->s.stop)
		atomic_store(p->s.stop, 1);
	return NULL;
}

/* How many parts for a table of span ids: 1 unless it has an id range
 * and at least push_split_rows; else push_streams (db's limits). */
static int parts_for(const profdb *db, const struct profdb__ch_table *t, int64_t span)
{
	int n = (int)db->limits.push_streams;
	if (!t->id_range || span < (int64_t)db->limits.push_split_rows)
		return 1;
	return span < n ? 1 : n;
}

/* The run's row as a text (name, when ingested, from where), or NULL. */
static char *run_row_text(sqlite3 *sql, int64_t run_id)
{
	sqlite3_stmt *st;
	char *text = NULL;
	if (sqlite3_prepare_v2(sql, "SELECT name || char(31) || ingested_at || char(31) || coalesce(source_path, '') "
	    "FROM run WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		text = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return text;
}

/*
 * The connection and server handle of part i > 0.  Its read transaction
 * starts after the first connection's, so it may see later commits: those
 * of other runs leave this run's kernels as they were (a run's rows are
 * written once, by its ingest), but the run deleted or replaced since would
 * not.  So the part checks that it sees the same run row (run) before it
 * reads, and keeps that snapshot until it is closed.
 */
static int part_open(struct part *p, const struct part *first, profdb *db, int64_t run_id, const char *run)
{
	int rc = profdb__db_open_reader(db, &p->sql);
	if (rc != SQLITE_OK)
		return profdb__err_set(&p->err, PROFDB_ERROR, "reading %s: cannot open a second connection (%s)",
		    first->s.t->name, sqlite3_errstr(rc));
	char *now = sqlite3_exec(p->sql, "BEGIN", NULL, NULL, NULL) == SQLITE_OK ? run_row_text(p->sql, run_id) : NULL;
	int same = now && run && strcmp(now, run) == 0;
	free(now);
	if (!same)
		return profdb__err_set(&p->err, PROFDB_ERROR, "the run changed while it was being pushed (push it again)");
	return profdb__ch_dup(first->ch, &p->ch, &p->err);
}
/* Part i of n of the ids lo..hi: its first and last id. */
static void part_bounds(int64_t lo, int64_t hi, int i, int n, int64_t *a, int64_t *b)
{
	int64_t span = hi - lo + 1;
	*a = lo + span / n * i;
	*b = i == n - 1 ? hi : lo + span / n * (i + 1) - 1;
}

/* Run parts 1..n-1 on threads and part 0 here; the first error is the
 * one a failed part met (not another's "stopped"). */
static int run_parts(struct part *parts, int n, struct profdb_err *err)
{
	for (int i = 1; i < n; i++)
		parts[i].started = pthread_create(&parts[i].thread, NULL, part_run, &parts[i]) == 0;
	for (int i = 1; i < n; i++)
		if (!parts[i].started) {
			atomic_store(parts[0].s.stop, 1);
			profdb__err_set(&parts[i].err, PROFDB_ERROR, "cannot start a thread");
			parts[i].rc = PROFDB_ERROR;
		}
	part_run(&parts[0]);
	for (int i = 1; i < n; i++)
		if (parts[i].started)
			pthread_join(parts[i].thread, NULL);
	int failed = -1;
	for (int i = n - 1; i >= 0; i--)
		if (parts[i].rc != PROFDB_OK && (failed < 0 || !parts[i].s.stopped))
			failed = i;
	if (failed > 0)
		*err = parts[failed].err;
	return failed < 0 ? PROFDB_OK : parts[failed].rc;
}

/* Stream the rows of run_id in t to the server; the texts of CHC_DICT
 * columns go into dict. */
int profdb__ch_push_table(struct profdb__ch *ch, profdb *db, const struct profdb__ch_table *t,
                          int64_t run_id, uint64_t remote_id, const char *hash, struct profdb__ch_dict *dict,
                          int64_t *rows, struct profdb_err *err)
{
	struct profdb__ch_buf q = { 0 }, ins = { 0 };
	struct part parts[PROFDB_PUSH_STREAMS_MAX];
	pthread_mutex_t dict_mu = PTHREAD_MUTEX_INITIALIZER;
	atomic_int stop = 0;
	int64_t lo = 0, hi = -1;
	int n = 1, rc = PROFDB_OK, has = 0;
	memset(parts, 0, sizeof parts);
	parts[0].ch = ch;
	parts[0].sql = db->sql;
	if (build_select(&q, t) || build_insert(&ins, t))
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	if (rc == PROFDB_OK && t->id_range && (has = read_id_range(db->sql, t, run_id, &lo, &hi)) < 0)
		rc = profdb__err_set(err, PROFDB_ERROR, "reading %s: %s", t->name, sqlite3_errmsg(db->sql));
	if (rc == PROFDB_OK && has)
		n = parts_for(db, t, hi - lo + 1);
	char *run = n > 1 ? run_row_text(db->sql, run_id) : NULL;
	for (int i = 1; i < n && rc == PROFDB_OK; i++)
		if (part_open(&parts[i], &parts[0], db, run_id, run) != PROFDB_OK) {
			/* a second connection is a speed-up, not a need; the run
			 * changed is an error (a part would read other rows) */
			if (parts[i].sql && parts[i].err.code)
				rc = profdb__err_set(err, parts[i].err.code, "%s", parts[i].err.msg);
			n = i;
		}
	free(run);
	for (int i = 0; i < n && rc == PROFDB_OK; i++) {
		struct part *p = &parts[i];
		p->insert = ins.data;
		rc = stream_init(&p->s, t, p->sql, q.data, run_id, i ? &p->err : err);
		p->s.remote_id = remote_id;
		p->s.hash = hash;
		p->s.dict = dict;
		p->s.dict_mu = n > 1 ? &dict_mu : NULL;
		p->s.stop = n > 1 ? &stop : NULL;
		if (rc == PROFDB_OK && t->id_range) {
			int64_t a = 1, b = 0; /* no rows: an empty range */
			if (has)
				part_bounds(lo, hi, i, n, &a, &b);
			sqlite3_bind_int64(p->s.st, 2, a);
			sqlite3_bind_int64(p->s.st, 3, b);
		}
		if (rc != PROFDB_OK && i)
			*err = p->err;
	}
	if (rc == PROFDB_OK)
		rc = run_parts(parts, n, err);
	for (int i = 0; i < PROFDB_PUSH_STREAMS_MAX; i++) {
		if (rc == PROFDB_OK && rows)
			*rows += parts[i].s.rows;
		if (parts[i].s.t)
			stream_free(&parts[i].s);
		if (i) {
			sqlite3_close(parts[i].sql);
			profdb__ch_close(parts[i].ch);
		}
	}
	profdb__ch_buf_free(&q);
	profdb__ch_buf_free(&ins);
	return rc;
}

void profdb__ch_dict_clear(struct profdb__ch_dict *d)
{
	free(d->keys);
	free(d->vals);
	profdb__ch_buf_free(&d->body);
	memset(d, 0, sizeof *d);
}

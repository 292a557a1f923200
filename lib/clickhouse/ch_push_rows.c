/*
 * ch_push_rows.c - one table's rows of a run, read from the SQLite store and
 * encoded for one streamed INSERT (profdb__ch_push_table): RowBinary for
 * the small tables, ClickHouse's Native format in blocks for kernel rows,
 * str ids turned into text through a bounded cache, and the run's text
 * dictionary (CHC_DICT columns) gathered as rows pass.  ch_push.c keeps the
 * run-level protocol (content hash, leftovers, push_log, the run row last);
 * the encoding is apart because it is where the push spends its CPU.
 */
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
	/* A table with a store (kernel) goes in the Native format: a block of
	 * NATIVE_ROWS rows column by column, each column's values (and null
	 * map) in its own buffer.  The server then copies columns instead of
	 * parsing 36 values a row: 22-25% less of its CPU for the same 1 M
	 * kernel rows (148-163 against 181-206 ticks, one sitting). */
	struct profdb__ch_buf *cols;       /* t->ncols value buffers; NULL: RowBinary */
	struct profdb__ch_buf *nulls;      /* their null maps (Nullable columns) */
	size_t block_rows;
};

#define NATIVE_ROWS 4096

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
	for (size_t i = 0; i < d->cap; i++) {
		if (!d->keys[i])
			continue;
		size_t h = (size_t)((uint64_t)d->keys[i] * 0x9e3779b97f4a7c15ull >> 20) & (cap - 1);
		while (keys[h])
			h = (h + 1) & (cap - 1);
		keys[h] = d->keys[i];
		vals[h] = d->vals[i];
	}
	free(d->keys);
	free(d->vals);
	d->keys = keys;
	d->vals = vals;
	d->cap = cap;
	return 0;
}

/* The dense id of str id (> 0) in s's dictionary, added with its text
 * when new; 0 when the store has no such text (as NULL, what the
 * correlated subquery this replaced gave), -1 on error. */
static int64_t dict_id(struct stream *s, int64_t id)
{
	struct profdb__ch_dict *d = s->dict;
	if (2 * (d->n + 1) > d->cap && dict_grow(d) != 0)
		return -1;
	size_t h = (size_t)((uint64_t)id * 0x9e3779b97f4a7c15ull >> 20) & (d->cap - 1);
	while (d->keys[h] && d->keys[h] != id)
		h = (h + 1) & (d->cap - 1);
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

/* Append the n (1, 4 or 8) low bytes of v, little-endian, in place when
 * they fit: profdb__ch_buf_add's call per cell was 13% of the client's
 * instructions (callgrind, a push of 200 k kernel rows). */
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

/* Bind ?2 and ?3 of st to the least and greatest id of the run's rows of
 * t (NULL when it has none: no rows); 0, -1 on error. */
static int bind_id_range(sqlite3 *sql, const struct profdb__ch_table *t, sqlite3_stmt *st, int64_t run_id)
{
	sqlite3_stmt *r;
	if (sqlite3_prepare_v2(sql, t->id_range, -1, &r, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(r, 1, run_id);
	int rc = sqlite3_step(r) == SQLITE_ROW ? 0 : -1;
	for (int i = 0; i < 2 && rc == 0; i++)
		rc = sqlite3_bind_value(st, 2 + i, sqlite3_column_value(r, i)) == SQLITE_OK ? 0 : -1;
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

/* Stream the rows of run_id in t to the server; the texts of CHC_DICT
 * columns go into dict. */
int profdb__ch_push_table(struct profdb__ch *ch, sqlite3 *sql, const struct profdb__ch_table *t,
                          int64_t run_id, uint64_t remote_id, const char *hash, struct profdb__ch_dict *dict, int64_t *rows,
                      struct profdb_err *err)
{
	struct profdb__ch_buf q = { 0 }, ins = { 0 };
	struct stream s;
	int rc;
	memset(&s, 0, sizeof s);
	s.t = t;
	s.remote_id = remote_id;
	s.hash = hash;
	s.err = err;
	s.sql = sql;
	s.dict = dict;
	if (t->store && (!(s.cols = calloc(t->ncols, sizeof *s.cols)) ||
	                 !(s.nulls = calloc(t->ncols, sizeof *s.nulls)))) {
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
		goto out;
	}
	if (build_select(&q, t) || build_insert(&ins, t)) {
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
		goto out;
	}
	if (sqlite3_prepare_v2(sql, q.data, -1, &s.st, NULL) != SQLITE_OK) {
		rc = profdb__err_set(err, PROFDB_ERROR, "reading %s: %s", t->name, sqlite3_errmsg(sql));
		goto out;
	}
	sqlite3_bind_int64(s.st, 1, run_id);
	if (t->id_range && bind_id_range(sql, t, s.st, run_id) != 0) {
		rc = profdb__err_set(err, PROFDB_ERROR, "reading %s: %s", t->name, sqlite3_errmsg(sql));
		goto out;
	}
	rc = profdb__ch_upload(ch, ins.data, stream_read, &s, err);
	if (rc == PROFDB_OK && rows)
		*rows += s.rows;
out:
	sqlite3_finalize(s.st);
	sqlite3_finalize(s.str_st);
	free(s.cache);
	for (size_t i = 0; s.cols && i < t->ncols; i++)
		profdb__ch_buf_free(&s.cols[i]);
	for (size_t i = 0; s.nulls && i < t->ncols; i++)
		profdb__ch_buf_free(&s.nulls[i]);
	free(s.cols);
	free(s.nulls);
	profdb__ch_buf_free(&q);
	profdb__ch_buf_free(&ins);
	profdb__ch_buf_free(&s.pending);
	return rc;
}

void profdb__ch_dict_clear(struct profdb__ch_dict *d)
{
	free(d->keys);
	free(d->vals);
	profdb__ch_buf_free(&d->body);
	memset(d, 0, sizeof *d);
}

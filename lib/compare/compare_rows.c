/*
 * compare_rows.c - one run's kernel sums per grouping key and step, read in
 * key order by the merge (compare_merge.c): the cursor over them.
 *
 * When the key is made of name, base name and kind (kernel_step_stat's
 * columns) the rows are held in memory, ordered here: the SQL cursor
 * (compare_samples.c: GROUP BY the key text and step, ORDER BY the key)
 * would join str twice a row and sort the rows twice by text in SQLite's
 * sorter, which dominates a diff of big runs.  Here the rows come as integers; each distinct (name, base
 * name, kind) gets its key text once (the same SQL expression, so the same
 * bytes), and the rows are ordered by a counting sort on the key's rank,
 * then by step within a key (already in that order when a key is one name
 * on one rank).  Where kernel_step_stat stays with the source (source.h:
 * rel.kstep_load, a clickhouse:// snapshot) its kstep_load sends the same
 * integer rows, unsorted, and nothing goes through SQLite.
 * The rows of every run are held at once (the merge reads all cursors
 * together), so one budget covers them all: diff_bytes of struct
 * profdb_limits (48 MB built in), counted as
 * they come: a row 36 bytes (32 held, 4 while ordered in place through an
 * index), a distinct (name, base, kind) 64, a key text its length + 32
 * (two 10 M-kernel runs of bench/clickhouse have 570 k rows and 18 keys
 * each: 41 MB); diff_rows caps the rows too.  A run that would pass
 * what is left uses the SQL cursor: memory stays bounded, as the merge
 * promises (two runs of 1 M names each took 141 MB before the count).
 * A clickhouse:// snapshot cannot fall back (its kernel_step_stat stays on
 * the server), so its source asks the server for the same figures first
 * (profdb__compare_rows_fit).  There the first cursor to open fetches
 * every run's rows at once (prefetch: the source's threads), and the
 * loader reserves each run's rows in one array (the source counted them).
 */
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "banned.h"

#define ROW_COST 36u
#define COMBO_COST 64u
#define TEXT_COST 32u

/* A distinct (name, base name, kind) of the run and its key's rank. */
struct combo {
	int64_t a, b, kind;        /* str ids here, dictionary ids on a snapshot */
	uint32_t rank;             /* UINT32_MAX: filtered out */
};

struct loader {
	profdb *db;
	struct combo *combos;
	size_t ncombo, capcombo;
	uint32_t *slots;           /* open addressing: combo index + 1, 0 empty */
	size_t nslots;
	struct profdb__krow *rows; /* .key: the combo, then its rank */
	size_t nrows, caprows, max_rows;
	size_t max_bytes, text_bytes;  /* the budget; key texts counted so far */
	int over, oom;
	char **dict;               /* snapshot: dictionary texts by id (owned) */
	size_t *dictlen, ndict;
};

static size_t combo_hash(int64_t a, int64_t b, int64_t kind)
{
	uint64_t h = (uint64_t)a * 0x9e3779b97f4a7c15ull ^ (uint64_t)b * 0xc2b2ae3d27d4eb4full ^
	             (uint64_t)kind * 0x165667b19e3779f9ull;
	return (size_t)(h ^ (h >> 29));
}

static int grow_slots(struct loader *l)
{
	size_t n = l->nslots ? l->nslots * 2 : 256;
	uint32_t *s = calloc(n, sizeof *s);
	if (!s)
		return -1;
	for (size_t c = 0; c < l->ncombo; c++) {
		size_t h = combo_hash(l->combos[c].a, l->combos[c].b, l->combos[c].kind) & (n - 1);
		while (s[h])
			h = (h + 1) & (n - 1);
		s[h] = (uint32_t)c + 1;
	}
	free(l->slots);
	l->slots = s;
	l->nslots = n;
	return 0;
}

/* The index of (a, b, kind), added when new; -1 out of memory. */
static long combo_of(struct loader *l, int64_t a, int64_t b, int64_t kind)
{
	size_t h;
	if ((l->ncombo + 1) * 2 > l->nslots && grow_slots(l) != 0)
		return -1;
	for (h = combo_hash(a, b, kind) & (l->nslots - 1); l->slots[h]; h = (h + 1) & (l->nslots - 1)) {
		const struct combo *c = &l->combos[l->slots[h] - 1];
		if (c->a == a && c->b == b && c->kind == kind)
			return (long)l->slots[h] - 1;
	}
	if (l->ncombo == l->capcombo) {
		size_t n = l->capcombo ? l->capcombo * 2 : 64;
		struct combo *t = realloc(l->combos, n * sizeof *t);
		if (!t)
			return -1;
		l->combos = t;
		l->capcombo = n;
	}
	l->combos[l->ncombo] = (struct combo){ a, b, kind, 0 };
	l->slots[h] = (uint32_t)++l->ncombo;
	return (long)l->ncombo - 1;
}

/* One row from a source: 0, or -1 to stop (over the budget, out of memory). */
static int add_raw(void *arg, int64_t a, int64_t b, int64_t kind, int has_step, int64_t step,
                   int64_t sum, int64_t calls)
{
	struct loader *l = arg;
	long c;
	if (l->nrows == l->max_rows ||
	    (l->nrows + 1) * ROW_COST + (l->ncombo + 1) * COMBO_COST + l->text_bytes > l->max_bytes) {
		l->over = 1;
		return -1;
	}
	if ((c = combo_of(l, a, b, kind)) < 0) {
		l->oom = 1;
		return -1;
	}
	if (l->nrows == l->caprows) {
		/* never past the budget: the array is what it bounds */
		size_t n = l->caprows ? l->caprows * 2 : 1024;
		if (n > l->max_rows)
			n = l->max_rows;
		struct profdb__krow *t = realloc(l->rows, n * sizeof *t);
		if (!t) {
			l->oom = 1;
			return -1;
		}
		l->rows = t;
		l->caprows = n;
	}
	l->rows[l->nrows++] = (struct profdb__krow){ (uint32_t)c, has_step != 0, has_step ? step : 0, sum, calls };
	return 0;
}

/* A snapshot's run: room for the rows the server holds, at once.  Grown
 * by doubling, the 2 x 18 MB of a diff of two 10 M-kernel runs would go
 * into fresh 4 KB pages one at a time (that store is the diff's hottest
 * instruction); one array of the right size can be backed by 2 MB pages
 * (huge_pages.c).  Advised after each doubling instead, the diff faults
 * more, not less: realloc moves the pages. */
static int reserve_rows(void *arg, uint64_t rows)
{
	struct loader *l = arg;
	struct profdb__krow *t;
	if (l->rows || rows == 0 || rows > l->max_rows)
		return 0; /* the doubling in add_raw, and its budget check */
	if (!(t = malloc((size_t)rows * sizeof *t))) {
		l->oom = 1;
		return -1;
	}
	profdb__huge_pages(t, (size_t)rows * sizeof *t);
	l->rows = t;
	l->caprows = (size_t)rows;
	return 0;
}

/* The dictionary of a snapshot's run: text of id (copied). */
static int add_text(void *arg, uint32_t id, const char *s, size_t n)
{
	struct loader *l = arg;
	if (id >= l->ndict) {
		size_t cap = (size_t)id + 1 > 2 * l->ndict ? (size_t)id + 1 : 2 * l->ndict;
		char **d = realloc(l->dict, cap * sizeof *d);
		size_t *dl = d ? realloc(l->dictlen, cap * sizeof *dl) : NULL;
		if (d)
			l->dict = d;
		if (!d || !dl) {
			l->oom = 1;
			return -1;
		}
		l->dictlen = dl;
		memset(d + l->ndict, 0, (cap - l->ndict) * sizeof *d);
		memset(dl + l->ndict, 0, (cap - l->ndict) * sizeof *dl);
		l->ndict = cap;
	}
	free(l->dict[id]);
	if (!(l->dict[id] = malloc(n + 1))) {
		l->oom = 1;
		return -1;
	}
	memcpy(l->dict[id], s, n);
	l->dict[id][n] = '\0';
	l->dictlen[id] = n;
	return 0;
}

/* The rows of run i of side si from the SQLite file, as stored (per rank). */
static int load_file(struct profdb__compare_state *s, int si, size_t i, struct loader *l)
{
	const struct profdb_filter *f = &s->o->filter;
	sqlite3_stmt *q = NULL;
	int rc;
	if (sqlite3_prepare_v2(s->db->sql, "SELECT name_id, base_id, kind, step, total_ns, calls"
	    " FROM kernel_step_stat WHERE run_id = ?1" COMPARE_RANK_STEP_WHERE, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read kernels");
	sqlite3_bind_int64(q, 1, s->side[si].runs[i].id);
	profdb__compare_bind_filter(q, f);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW &&
	       add_raw(l, sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
	               sqlite3_column_type(q, 3) != SQLITE_NULL, sqlite3_column_int64(q, 3),
	               sqlite3_column_int64(q, 4), sqlite3_column_int64(q, 5)) == 0)
		;
	sqlite3_finalize(q);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return profdb__sqlerror(s->db, "cannot read kernels");
	return PROFDB_OK;
}

struct keyed {
	char *text;
	size_t combo;
};

static int cmp_keyed(const void *x, const void *y)
{
	return strcmp(((const struct keyed *)x)->text, ((const struct keyed *)y)->text);
}

/* Bind the name and base name of combo c: str ids, or a snapshot's texts. */
static int bind_combo(struct loader *l, sqlite3_stmt *q, const struct combo *c)
{
	if (!l->dict) {
		sqlite3_bind_int64(q, 1, c->a);
		sqlite3_bind_int64(q, 2, c->b);
	} else {
		if (c->a <= 0 || c->b <= 0 || (size_t)c->a >= l->ndict || (size_t)c->b >= l->ndict ||
		    !l->dict[c->a] || !l->dict[c->b])
			return 0; /* a name the dictionary lacks: no key (as a failed JOIN) */
		sqlite3_bind_text(q, 1, l->dict[c->a], (int)l->dictlen[c->a], SQLITE_STATIC);
		sqlite3_bind_text(q, 2, l->dict[c->b], (int)l->dictlen[c->b], SQLITE_STATIC);
	}
	sqlite3_bind_int64(q, 3, c->kind);
	return 1;
}

/* The key text of each combo (NULL: filtered out by --name / --kind). */
static int key_texts(struct profdb__compare_state *s, struct loader *l, const char *keyexpr, struct keyed *k)
{
	const struct profdb_filter *f = &s->o->filter;
	sqlite3_stmt *q = NULL;
	char sql[2048];
	/* keyexpr over n, b and kd, as the SQL cursor has them: the same text */
	snprintf(sql, sizeof sql, "SELECT CAST((%s) AS TEXT), (?4 IS NULL OR n.value GLOB ?4)"
	         " AND (?5 IS NULL OR kd.name = ?5) FROM %s, kind kd WHERE kd.id = ?3%s", keyexpr,
	         l->dict ? "(SELECT ?1 AS value) n, (SELECT ?2 AS value) b" : "str n, str b",
	         l->dict ? "" : " AND n.id = ?1 AND b.id = ?2");
	if (sqlite3_prepare_v2(s->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read kernels");
	if (f->name_glob)
		sqlite3_bind_text(q, 4, f->name_glob, -1, SQLITE_STATIC);
	if (f->kind)
		sqlite3_bind_text(q, 5, f->kind, -1, SQLITE_STATIC);
	for (size_t c = 0; c < l->ncombo; c++) {
		k[c].combo = c;
		k[c].text = NULL;
		sqlite3_reset(q);
		if (bind_combo(l, q, &l->combos[c]) && sqlite3_step(q) == SQLITE_ROW && sqlite3_column_int(q, 1)) {
			const char *t = (const char *)sqlite3_column_text(q, 0);
			if (!(k[c].text = strdup(t ? t : ""))) {
				sqlite3_finalize(q);
				return profdb__error(s->db, PROFDB_ERROR, "out of memory");
			}
			l->text_bytes += strlen(k[c].text) + TEXT_COST;
			if (l->nrows * ROW_COST + l->ncombo * COMBO_COST + l->text_bytes > l->max_bytes) {
				l->over = 1; /* the SQL cursor instead */
				break;
			}
		}
	}
	sqlite3_finalize(q);
	return PROFDB_OK;
}

/* Rank the combos by key text (equal texts one rank); the cursor keeps
 * each distinct text once. */
static int rank_keys(struct profdb__compare_state *s, struct loader *l, const char *keyexpr,
                     struct profdb__kcursor *c)
{
	struct keyed *k = calloc(l->ncombo ? l->ncombo : 1, sizeof *k);
	size_t n = 0;
	int rc;
	if (!k)
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	if ((rc = key_texts(s, l, keyexpr, k)) != PROFDB_OK || l->over) {
		for (size_t j = 0; j < l->ncombo; j++)
			free(k[j].text);
		free(k);
		return rc;
	}
	for (size_t j = 0; j < l->ncombo; j++) /* the kept ones (with a text) first */
		if (k[j].text)
			k[n++] = k[j];
	qsort(k, n, sizeof *k, cmp_keyed);
	if (!(c->keys = calloc(n ? n : 1, sizeof *c->keys)))
		rc = profdb__error(s->db, PROFDB_ERROR, "out of memory");
	for (size_t j = 0; j < l->ncombo; j++)
		l->combos[j].rank = UINT32_MAX;
	for (size_t j = 0; j < n; j++) {
		if (rc == PROFDB_OK && (!c->nkeys || strcmp(c->keys[c->nkeys - 1], k[j].text) != 0))
			c->keys[c->nkeys++] = k[j].text;
		else
			free(k[j].text);
		k[j].text = NULL;
		l->combos[k[j].combo].rank = (uint32_t)c->nkeys - 1;
	}
	free(k);
	return rc;
}

/* Steps within a key: NULL (outside every step) first, as SQLite sorts. */
static int cmp_step(const void *x, const void *y)
{
	const struct profdb__krow *a = x, *b = y;
	if (a->has_step != b->has_step)
		return a->has_step ? 1 : -1;
	return a->step < b->step ? -1 : a->step > b->step;
}

/* Move each row to its place (pos[j]: where row j goes) by following
 * the permutation's cycles: no second copy of the rows. */
static void permute(struct profdb__krow *rows, uint32_t *pos, size_t n)
{
	for (size_t j = 0; j < n; j++)
		while (pos[j] != j) {
			uint32_t k = pos[j];
			struct profdb__krow t = rows[k];
			rows[k] = rows[j];
			rows[j] = t;
			pos[j] = pos[k];
			pos[k] = k;
		}
}

/* l's rows into c, by key rank (a counting sort, stable, in place), then
 * by step within each key, equal (key, step) summed: the rows GROUP BY
 * key, step gives; rows filtered out dropped. */
static int order_rows(struct profdb__compare_state *s, struct loader *l, struct profdb__kcursor *c)
{
	size_t *start = calloc(c->nkeys + 1, sizeof *start), n = 0, kept, dropped = 0;
	uint32_t *pos = malloc((l->nrows ? l->nrows : 1) * sizeof *pos);
	struct profdb__krow *out = l->rows;
	if (!start || !pos) {
		free(start);
		free(pos);
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	}
	for (size_t j = 0; j < l->nrows; j++)
		if (l->combos[l->rows[j].key].rank != UINT32_MAX)
			start[l->combos[l->rows[j].key].rank + 1]++;
	for (size_t r = 0; r < c->nkeys; r++)
		start[r + 1] += start[r];
	kept = start[c->nkeys];
	for (size_t j = 0; j < l->nrows; j++) { /* dropped rows go past the kept */
		uint32_t r = l->combos[l->rows[j].key].rank;
		pos[j] = (uint32_t)(r != UINT32_MAX ? start[r]++ : kept + dropped++);
		out[j].key = r;
	}
	permute(out, pos, l->nrows);
	free(pos);
	/* start[r] is now the end of key r */
	for (size_t r = 0, lo = 0; r < c->nkeys; lo = start[r++]) {
		size_t first = n;      /* this key's first row out */
		int sorted = 1;
		for (size_t j = lo + 1; j < start[r] && sorted; j++)
			sorted = cmp_step(&out[j - 1], &out[j]) < 0;
		if (!sorted)
			qsort(out + lo, start[r] - lo, sizeof *out, cmp_step);
		for (size_t j = lo; j < start[r]; j++) {
			if (n > first && cmp_step(&out[n - 1], &out[j]) == 0) {
				out[n - 1].sum += out[j].sum;
				out[n - 1].calls += out[j].calls;
			} else {
				out[n++] = out[j];
			}
		}
	}
	free(start);
	/* the rows move to the cursor, trimmed to what is left */
	c->rows = n ? realloc(out, n * sizeof *out) : NULL;
	if (n && !c->rows)
		c->rows = out;
	else if (!n)
		free(out);
	l->rows = NULL;
	c->nrows = n;
	return PROFDB_OK;
}

static void loader_free(struct loader *l)
{
	free(l->combos);
	free(l->slots);
	free(l->rows);
	for (size_t j = 0; j < l->ndict; j++)
		free(l->dict[j]);
	free(l->dict);
	free(l->dictlen);
}

/* ---------------------------------------------------------------- prefetch */

/* The runs' rows fetched from a snapshot's server at once, in parallel
 * (the source's kstep_load) when the first cursor opens: loader k is run
 * k (side 0's runs, then side 1's) until its cursor takes it. */
struct profdb__kprefetch {
	struct loader *l;          /* n, owned until taken */
	unsigned char *have;       /* n: fetched and not taken */
	size_t n;
};

static size_t run_index(const struct profdb__compare_state *s, int si, size_t i)
{
	return si == 0 ? i : s->side[0].n + i;
}

void profdb__kcursor_prefetch_free(struct profdb__compare_state *s)
{
	struct profdb__kprefetch *p = s->prefetch;
	if (!p)
		return;
	for (size_t k = 0; k < p->n; k++)
		if (p->have[k])
			loader_free(&p->l[k]);
	free(p->l);
	free(p->have);
	free(p);
	s->prefetch = NULL;
}

/* Fetch every run's rows from the source at once into s->prefetch. */
static int prefetch(struct profdb__compare_state *s)
{
	struct profdb__kprefetch *p;
	struct profdb__kstep_fetch *f;
	size_t nf = 0;
	int rc;
	p = calloc(1, sizeof *p);
	f = calloc(s->side[0].n + s->side[1].n + 1, sizeof *f);
	if (p) {
		p->n = s->side[0].n + s->side[1].n;
		p->l = calloc(p->n + 1, sizeof *p->l);
		p->have = calloc(p->n + 1, 1);
	}
	if (!p || !f || !p->l || !p->have) {
		free(f);
		s->prefetch = p;
		profdb__kcursor_prefetch_free(s);
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	}
	s->prefetch = p;
	for (int si = 0; si < 2; si++)
		for (size_t i = 0; i < s->side[si].n; i++) {
			size_t k = run_index(s, si, i);
			struct loader *l = &p->l[k];
			if (!s->side[si].runs[i].stats)
				continue; /* the SQL cursor reads it */
			l->db = s->db;
			l->max_rows = l->max_bytes = SIZE_MAX; /* the source found they fit (profdb__compare_rows_fit) */
			p->have[k] = 1;
			f[nf++] = (struct profdb__kstep_fetch){ s->side[si].runs[i].id, add_text, add_raw,
			                                           reserve_rows, l, 0 };
		}
	rc = s->db->source->kstep_load(s->db, &s->o->filter, f, nf);
	free(f);
	if (rc != PROFDB_OK)
		profdb__kcursor_prefetch_free(s);
	return rc;
}

/* Move prefetched loader k into l: 1, or 0 when there is none. */
static int take(struct profdb__kprefetch *p, size_t k, struct loader *l)
{
	if (!p || k >= p->n || !p->have[k])
		return 0;
	*l = p->l[k]; /* l owns it now */
	p->have[k] = 0;
	return 1;
}

/* Into l: run i of side si's rows, fetched or read from the file. */
static int fill(struct profdb__compare_state *s, int si, size_t i, struct loader *l)
{
	size_t k = run_index(s, si, i);
	int rc;
	if (!s->rel.kstep_load) {
		l->db = s->db;
		l->max_rows = s->rows_left;
		l->max_bytes = s->bytes_left;
		return load_file(s, si, i, l);
	}
	/* the first cursor fetches every run's rows, in parallel */
	if (!s->prefetch && (rc = prefetch(s)) != PROFDB_OK)
		return rc;
	if (!take(s->prefetch, k, l))
		return profdb__error(s->db, PROFDB_ERROR, "snapshot: run '%s' was not fetched", s->side[si].runs[i].name);
	return PROFDB_OK;
}

/* The rows in memory; *held 0 when over the budget (then the SQL cursor). */
static int load(struct profdb__compare_state *s, int si, size_t i, const char *keyexpr,
                struct profdb__kcursor *c, int *held)
{
	struct loader l;
	int rc;
	memset(&l, 0, sizeof l);
	*held = 0;
	rc = fill(s, si, i, &l);
	if (rc == PROFDB_OK && l.oom)
		rc = profdb__error(s->db, PROFDB_ERROR, "out of memory");
	if (rc == PROFDB_OK && !l.over && (rc = rank_keys(s, &l, keyexpr, c)) == PROFDB_OK && !l.over &&
	    (rc = order_rows(s, &l, c)) == PROFDB_OK) {
		size_t used = c->nrows * sizeof *c->rows + l.text_bytes;
		*held = 1;
		s->rows_left -= c->nrows < s->rows_left ? c->nrows : s->rows_left;
		s->bytes_left -= used < s->bytes_left ? used : s->bytes_left;
	}
	if (rc == PROFDB_OK && !*held) /* over: keys of a partial rank go too */
		profdb__kcursor_close(c);
	loader_free(&l);
	return rc;
}

size_t profdb__compare_rows_budget(const profdb *db)
{
	uint64_t n = db->limits.diff_rows;
	return (size_t)(n < UINT32_MAX ? n : UINT32_MAX); /* order_rows' index is 32 bits */
}

size_t profdb__compare_bytes_budget(const profdb *db)
{
	return (size_t)db->limits.diff_bytes;
}

int profdb__compare_rows_fit(const profdb *db, uint64_t rows, uint64_t combos, uint64_t texts,
                             uint64_t text_bytes)
{
	/* the dictionary held while loading, and each combo's key text (as
	 * long as the longest of its two names at most: both, to be safe) */
	uint64_t avg = texts ? text_bytes / texts + 1 : 0;
	uint64_t need = rows * ROW_COST + combos * (COMBO_COST + TEXT_COST + 2 * avg) + text_bytes +
	                texts * (TEXT_COST + 16);
	return rows <= profdb__compare_rows_budget(db) && need <= profdb__compare_bytes_budget(db);
}

/* Set c's current row from the SQL cursor or the held rows. */
static void current(struct profdb__kcursor *c)
{
	if (c->q) {
		const char *t = (const char *)sqlite3_column_text(c->q, 0);
		c->key = t ? t : "";
		c->has_step = sqlite3_column_type(c->q, 1) != SQLITE_NULL;
		c->step = sqlite3_column_int64(c->q, 1);
		c->sum = sqlite3_column_int64(c->q, 2);
		c->calls = sqlite3_column_int64(c->q, 3);
		return;
	}
	c->key = c->keys[c->rows[c->at].key];
	c->has_step = c->rows[c->at].has_step;
	c->step = c->rows[c->at].step;
	c->sum = c->rows[c->at].sum;
	c->calls = c->rows[c->at].calls;
}

int profdb__kcursor_next(struct profdb__kcursor *c)
{
	if (c->q) {
		int rc = sqlite3_step(c->q);
		c->live = rc == SQLITE_ROW;
		if (rc != SQLITE_ROW && rc != SQLITE_DONE)
			return -1;
	} else {
		if (c->started)
			c->at++;
		c->live = c->at < c->nrows;
	}
	c->started = 1;
	if (c->live)
		current(c);
	return 0;
}

int profdb__kcursor_open(struct profdb__compare_state *s, int si, size_t i, const char *keyexpr,
                         struct profdb__kcursor *c)
{
	int held = 0, rc;
	memset(c, 0, sizeof *c);
	if (s->key_in_step_stat && s->side[si].runs[i].stats &&
	    (rc = load(s, si, i, keyexpr, c, &held)) != PROFDB_OK)
		return rc;
	if (!held && (rc = profdb__compare_kernel_cursor(s, &c->q, si, i, keyexpr)) != PROFDB_OK)
		return rc;
	if (profdb__kcursor_next(c) != 0)
		return profdb__sqlerror(s->db, "cannot read kernels of '%s'", s->side[si].runs[i].name);
	return PROFDB_OK;
}

void profdb__kcursor_close(struct profdb__kcursor *c)
{
	sqlite3_finalize(c->q);
	for (size_t j = 0; j < c->nkeys; j++)
		free(c->keys[j]);
	free(c->keys);
	free(c->rows);
	memset(c, 0, sizeof *c);
}

/*
 * csv_reader.c - streaming CSV: chunks in, whole rows out, each with the
 * physical line it starts on (newlines inside quoted fields count, so
 * messages point where an editor would).  Memory is bounded by the longest
 * row, not the file: the row buffer is reused for every row.
 *
 * Two parsers give the same rows.  libcsv is the reference; but its
 * byte-at-a-time state machine and a callback per field cost ~10 k
 * instructions per kernel_details row, the largest part of an ingest.  So a
 * line that holds one whole row (no quoted field runs past its end, no
 * stray CR, no malformed quoting) is split here, in one pass over a copy of
 * the line (split_line); any other line, and whatever follows it until a
 * row ends at a line end, goes to libcsv, which also reports the errors.
 * split_line follows libcsv 3's rules exactly where it accepts a line
 * (fuzz_csv and check_ingest_ascend_csv compare the two on tricky input).
 * Both parsers and the header helpers share the row state and its bounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csv.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "csv_reader.h"
#include "banned.h"

#define CHUNK (256u * 1024u)            /* bytes handed to csv_parse at a time */
#define MAX_FIELD ((size_t)16 << 20)    /* a longer field or row is not profiler output; libcsv's
                                         * field and our row buffer each grow to it: 64 MiB
                                         * let one line take 195 MB (doc/limits.md "CSV bounds") */
#define SLACK 64                        /* readable bytes after the row buffer's cap */
#define MAX_FIELDS ((size_t)1 << 18)    /* fields of one row: 24 bytes each of index;
                                         * unbounded, a 60 MB line of commas takes 1.5 GB */

struct csv_state {
	struct csv_parser p;
	const char *label;         /* file name for messages */
	profdb__csv_row_fn fn;
	void *arg;
	struct profdb_err *err;
	char *buf;                 /* field bytes of the current row, each NUL-terminated */
	size_t len, cap;           /* used / allocated bytes of buf (+ SLACK) */
	uint64_t *mask;            /* split_line: bit i set when buf[i] is , " or CR */
	size_t capm;               /* words of mask */
	size_t *off;               /* offset of each field in buf */
	size_t *flen;              /* length of each field */
	char **ptr;                /* field pointers, built when the row ends */
	size_t nf, capf;           /* fields in the row / allocated slots */
	int64_t nl;                /* newlines seen by the callbacks so far */
	int64_t row_line;          /* line the current row starts on */
	int64_t rows;              /* rows handed to fn */
	int64_t nl_base;           /* newlines in the chunks before the current one */
	uint64_t base;             /* bytes before the current chunk */
	int rc;                    /* first error: later callbacks do nothing */
	int slow;                  /* libcsv holds part of a row: it gets the next line too */
	int libcsv_only;           /* tests: no fast path */
};

static int64_t count_nl(const char *s, size_t n)
{
	int64_t k = 0;
	const char *e = s + n;
	while (s < e && (s = memchr(s, '\n', (size_t)(e - s))) != NULL) {
		k++;
		s++;
	}
	return k;
}

static int oom(struct csv_state *st)
{
	st->rc = profdb__err_set(st->err, PROFDB_ERROR, "%s: out of memory", st->label);
	return st->rc;
}

static int grow_fields(struct csv_state *st)
{
	size_t cap = st->capf ? st->capf * 2 : 64;
	size_t *off, *flen;
	char **ptr;
	if (st->capf >= MAX_FIELDS) {
		/* in split_line st->nf is 0 and the row is on line nl + 1 */
		st->rc = profdb__err_set(st->err, PROFDB_EFORMAT,
		    "%s:%lld: a row of more than %zu fields: not profiler output", st->label,
		    (long long)(st->nf ? st->row_line : st->nl + 1), MAX_FIELDS);
		return st->rc;
	}
	off = realloc(st->off, cap * sizeof *off);
	if (!off)
		return oom(st);
	st->off = off;
	flen = realloc(st->flen, cap * sizeof *flen);
	if (!flen)
		return oom(st);
	st->flen = flen;
	ptr = realloc(st->ptr, cap * sizeof *ptr);
	if (!ptr)
		return oom(st);
	st->ptr = ptr;
	st->capf = cap;
	return PROFDB_OK;
}

/* Make room for need bytes in the row buffer. */
static int grow_buf(struct csv_state *st, size_t need)
{
	size_t cap = st->cap ? st->cap : 4096;
	char *b;
	while (cap < need)
		cap *= 2;
	b = realloc(st->buf, cap + SLACK);
	if (!b)
		return oom(st);
	st->buf = b;
	st->cap = cap;
	return PROFDB_OK;
}

/* Hand the row in ptr/flen (n fields, starting on line) to fn. */
static void emit(struct csv_state *st, size_t n, int64_t line)
{
	struct profdb__csv_row row;
	row.field = st->ptr;
	row.len = st->flen;
	row.n = n;
	row.line = line;
	row.index = st->rows;
	/* a UTF-8 byte order mark is not part of the first column's name */
	if (st->rows == 0 && st->flen[0] >= 3 && memcmp(st->ptr[0], "\xEF\xBB\xBF", 3) == 0) {
		st->ptr[0] += 3;
		st->flen[0] -= 3;
	}
	st->rows++;
	st->rc = st->fn(st->arg, &row);
	if (st->rc != PROFDB_OK && st->err->code == PROFDB_OK)
		profdb__err_set(st->err, st->rc, "%s:%lld: read failed", st->label, (long long)row.line);
}

/* libcsv field callback: append the field to the row buffer. */
static void on_field(void *s, size_t n, void *data)
{
	struct csv_state *st = data;
	if (st->rc)
		return;
	if (st->nf == 0)
		st->row_line = st->nl + 1;
	/* a quoted field may span lines (libcsv keeps its quoted flag in a local
	 * during csv_parse, so we cannot ask it which fields were quoted) */
	if (n)
		st->nl += count_nl(s, n);
	if (st->nf == st->capf && grow_fields(st) != PROFDB_OK)
		return;
	if (st->len + n + 1 > st->cap && grow_buf(st, st->len + n + 1) != PROFDB_OK)
		return;
	if (n)
		memcpy(st->buf + st->len, s, n);
	st->buf[st->len + n] = '\0';
	st->off[st->nf] = st->len;
	st->flen[st->nf] = n;
	st->nf++;
	st->len += n + 1;
}

/* libcsv row callback (c: the terminator, -1 at end of file). */
static void on_row(int c, void *data)
{
	struct csv_state *st = data;
	if (st->rc)
		return;
	if (st->nf > 0) {
		for (size_t i = 0; i < st->nf; i++)
			st->ptr[i] = st->buf + st->off[i];
		emit(st, st->nf, st->row_line);
		st->nf = 0;
		st->len = 0;
	}
	/* CRLF: the row ends at CR and the LF arrives here as an empty row */
	if (c == '\n')
		st->nl++;
}

/* ---------------------------------------------------------------- fast path */

static int is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/*
 * Mark the bytes that matter in b[0, n): bit i of m (word i / 64) for ','
 * '"' and '\r'.  Fields are ~10 bytes, so finding their ends from a mask
 * built 16 bytes per step (SSE2, which every x86-64 has) costs a fraction
 * of a table look-up per byte.  Reads b up to the next multiple of 64
 * (the row buffer's SLACK); bits from there are cleared.
 */
static void mark_specials(const char *b, size_t n, uint64_t *m)
{
	size_t words = (n + 63) / 64;
#if defined(__SSE2__)
	const __m128i comma = _mm_set1_epi8(','), quote = _mm_set1_epi8('"'), cr = _mm_set1_epi8('\r');
	for (size_t w = 0; w < words; w++) {
		uint64_t bits = 0;
		for (int k = 0; k < 4; k++) {
			__m128i v = _mm_loadu_si128((const __m128i *)(const void *)(b + w * 64 + (size_t)k * 16));
			__m128i hit = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(v, comma), _mm_cmpeq_epi8(v, quote)),
			                           _mm_cmpeq_epi8(v, cr));
			bits |= (uint64_t)(uint32_t)_mm_movemask_epi8(hit) << (k * 16);
		}
		m[w] = bits;
	}
#else
	static const unsigned char stop[256] = { [','] = 1, ['"'] = 1, ['\r'] = 1 };
	memset(m, 0, words * sizeof *m);
	for (size_t i = 0; i < n; i++)
		if (stop[(unsigned char)b[i]])
			m[i / 64] |= (uint64_t)1 << (i % 64);
#endif
	if (n % 64)
		m[words - 1] &= ((uint64_t)1 << (n % 64)) - 1;
}

static unsigned lowest_bit(uint64_t w)
{
#if defined(__GNUC__) || defined(__clang__)
	return (unsigned)__builtin_ctzll(w);
#else
	unsigned k = 0;
	while (!(w & 1)) {
		w >>= 1;
		k++;
	}
	return k;
#endif
}

/* Walks the marks in order; bits: the current word's marks not yet taken.
 * The next position comes from the bits alone, not from the field just
 * read, so the loop over fields is no chain of dependent loads. */
struct marks {
	const uint64_t *m;
	size_t w;
	uint64_t bits;
};

/* The next mark (there is one: the sentinel ends every line). */
static size_t next_mark(struct marks *it)
{
	size_t p;
	while (!it->bits)
		it->bits = it->m[++it->w];
	p = it->w * 64 + lowest_bit(it->bits);
	it->bits &= it->bits - 1;
	return p;
}

/* Room for the line s[0, n) in the row buffer and its mask; copy it there
 * without its CRLF's CR and end it with a sentinel CR.  Returns the line's
 * length, or -1 when out of memory (st->rc set). */
static long split_prepare(struct csv_state *st, const char *s, size_t n)
{
	size_t end = n;
	if (n + 1 > st->cap && grow_buf(st, n + 1) != PROFDB_OK)
		return -1;
	if ((n + 64) / 64 > st->capm) {
		size_t words = (st->cap + 64) / 64;
		uint64_t *nm = realloc(st->mask, words * sizeof *nm);
		if (!nm) {
			oom(st);
			return -1;
		}
		st->mask = nm;
		st->capm = words;
	}
	if (end && s[end - 1] == '\r')
		end--;
	memcpy(st->buf, s, end);
	st->buf[end] = '\r';              /* sentinel: stops every scan below */
	return (long)end;
}

/*
 * The quoted field that starts at b[i] (its opening quote), unescaped in
 * place from b[i + 1].  *flen gets its length, *r the index after it and
 * the blanks that follow; *more is 1 when a ',' follows.  -1 when libcsv
 * must read the line: still open at the line end (end), text after the
 * closing quote, or a CR.
 */
static int quoted_field(char *b, size_t end, size_t i, struct marks *it, size_t *flen, size_t *r_out,
                        int *more)
{
	size_t r = i + 1, w = i + 1, start = w, p;
	next_mark(it);                     /* the opening quote, at i */
	for (;;) {
		while (b[p = next_mark(it)] != '"')
			if (p == end)
				return -1;             /* still open at the line end */
		if (w != r)
			memmove(b + w, b + r, p - r);
		w += p - r;
		r = p + 1;                     /* past the quote */
		if (b[r] != '"')
			break;                     /* (r <= end: b[end] is the sentinel) */
		next_mark(it);                 /* the second quote, at r */
		b[w++] = '"';                  /* "" is one quote */
		r++;
	}
	*flen = w - start;
	while (is_blank(b[r]))
		r++;
	if (b[r] == ',')
		*more = next_mark(it) == r;    /* (always: only blanks since the quote) */
	else if (r == end)
		*more = 0;
	else
		return -1;                     /* text after the closing quote, or a CR */
	*r_out = r;
	return 0;
}

/*
 * Split the line s[0, n) (its '\n' left out) into ptr/flen as libcsv 3
 * (CSV_STRICT, blank = ' ' or '\t') would, when the line is a row by
 * itself.  The rules, libcsv's: blanks before a field are skipped; an
 * unquoted field ends at ',' or the line end and loses trailing blanks; a
 * quoted field keeps everything up to its closing quote, "" being one '"',
 * and only blanks may follow the closing quote; a final CR is the CRLF's.
 * Returns the number of fields, 0 for a blank line (no row), or -1 when
 * libcsv must read the line: a quote that is not closed on the line (the
 * field goes on past the newline), a CR before the end (a row ends there),
 * or a quote libcsv rejects (it reports the error and where).
 */
static long split_line(struct csv_state *st, const char *s, size_t n)
{
	size_t i = 0, nf = 0, end;
	long got = split_prepare(st, s, n);
	struct marks it;
	char *b = st->buf;

	if (got < 0)
		return -1;
	end = (size_t)got;
	while (is_blank(b[i]))
		i++;
	if (i == end)
		return 0;                      /* libcsv reports no row for it */
	mark_specials(b, end + 1, st->mask);
	it.m = st->mask;
	it.w = 0;
	it.bits = st->mask[0];
	/* every mark before field i has been taken (blanks are no marks) */
	for (;;) {
		size_t start, flen, next, p;
		int more;
		if (nf == st->capf && grow_fields(st) != PROFDB_OK)
			return -1;
		while (is_blank(b[i]))
			i++;
		if (b[i] == '"') {
			if (quoted_field(b, end, i, &it, &flen, &p, &more) != 0)
				return -1;
			start = i + 1;
			next = p + 1;
		} else {
			size_t e;
			p = next_mark(&it);
			if (b[p] == '"' || (b[p] == '\r' && p != end))
				return -1;             /* quote in an unquoted field; a CR row end */
			more = b[p] == ',';
			start = i;
			e = p;
			while (e > start && is_blank(b[e - 1]))
				e--;
			flen = e - start;
			next = p + 1;
		}
		b[start + flen] = '\0';
		st->ptr[nf] = b + start;
		st->flen[nf] = flen;
		nf++;
		if (!more)
			return (long)nf;
		i = next;
	}
}

/* ---------------------------------------------------------------- reading */

static int state_init(struct csv_state *st, const char *label, profdb__csv_row_fn fn, void *arg,
                      struct profdb_err *err)
{
	memset(st, 0, sizeof *st);
	st->label = label;
	st->fn = fn;
	st->arg = arg;
	st->err = err;
	/* STRICT: malformed quoting is an error, not silently kept text;
	 * REPALL_NL: every LF reaches on_row, so lines can be counted */
	if (csv_init(&st->p, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_REPALL_NL) != 0)
		return profdb__err_set(err, PROFDB_ERROR, "%s: out of memory", label);
	/* libcsv grows a field by this many bytes per realloc (not geometric):
	 * 4 KiB made a 16 MiB field 4096 reallocs, minutes where realloc copies */
	csv_set_blk_size(&st->p, (size_t)1 << 20);
	return PROFDB_OK;
}

static void state_free(struct csv_state *st)
{
	csv_free(&st->p);
	free(st->buf);
	free(st->mask);
	free(st->off);
	free(st->flen);
	free(st->ptr);
}

/*
 * Parse one chunk line by line: split_line when libcsv is between rows,
 * else libcsv, until a line end finds it between rows again.  On error the
 * message names the physical line.
 */
static int feed(struct csv_state *st, const char *buf, size_t n)
{
	const char *nul = memchr(buf, '\0', n);
	size_t lim = nul ? (size_t)(nul - buf) : n, pos = 0;
	int64_t lines = 0;                 /* newlines of this chunk before pos */

	while (pos < lim) {
		const char *eol = memchr(buf + pos, '\n', lim - pos);
		size_t end = eol ? (size_t)(eol - buf) + 1 : lim, done;
		if (eol && !st->slow && !st->libcsv_only) {
			long nf = split_line(st, buf + pos, end - 1 - pos);
			if (st->rc)
				return st->rc;
			if (nf >= 0) {
				if (nf > 0)
					emit(st, (size_t)nf, st->nl + 1);
				st->nl++;
				lines++;
				pos = end;
				if (st->rc)
					return st->rc;
				continue;
			}
		}
		done = csv_parse(&st->p, buf + pos, end - pos, on_field, on_row, st);
		if (st->rc)
			return st->rc;
		if (done < end - pos) {
			if (csv_error(&st->p) != CSV_EPARSE)
				return oom(st);
			return st->rc = profdb__err_set(st->err, PROFDB_EFORMAT,
			    "%s:%lld: malformed CSV quoting (a '\"' inside an unquoted field or text after a"
			    " closing quote)", st->label,
			    (long long)(st->nl_base + lines + count_nl(buf + pos, done) + 1));
		}
		/* after a '\n' libcsv is between rows unless the '\n' went into a
		 * quoted field (then entry_pos > 0); after a piece of a line it may
		 * be inside a field with nothing stored yet, so stay with it */
		st->slow = !eol || st->nf != 0 || st->p.entry_pos != 0;
		lines += eol != NULL;
		pos = end;
	}
	if (nul)
		return st->rc = profdb__err_set(st->err, PROFDB_EFORMAT,
		    "%s:%lld: binary data (NUL byte at byte %llu): not a CSV file", st->label,
		    (long long)(st->nl_base + lines + 1), (unsigned long long)(st->base + lim));
	if (st->p.entry_pos > MAX_FIELD || st->len > MAX_FIELD)
		return st->rc = profdb__err_set(st->err, PROFDB_EFORMAT,
		    "%s:%lld: field or row longer than %zu MiB: not profiler output", st->label,
		    (long long)(st->nf ? st->row_line : st->nl + 1), MAX_FIELD >> 20);
	st->nl_base += lines;
	st->base += n;
	return PROFDB_OK;
}

static int finish(struct csv_state *st, int64_t *rows)
{
	if (st->rc)
		return st->rc;
	if (csv_fini(&st->p, on_field, on_row, st) != 0) {
		if (st->rc)
			return st->rc;
		return st->rc = profdb__err_set(st->err, PROFDB_EFORMAT,
		    "%s:%lld: file ends inside a quoted field (truncated file?)", st->label,
		    (long long)(st->nf ? st->row_line : st->nl + 1));
	}
	if (st->rc)
		return st->rc;
	if (rows)
		*rows = st->rows;
	return PROFDB_OK;
}

int profdb__csv_read(struct profdb_input *in, const char *label, profdb__csv_row_fn fn, void *arg,
                    int64_t *rows, struct profdb_err *err, profdb_progress_fn progress,
                    void *progress_arg)
{
	struct csv_state st;
	char *buf = NULL;
	long got;
	int rc;

	if (rows)
		*rows = 0;
	if ((rc = state_init(&st, label, fn, arg, err)) != PROFDB_OK)
		return rc;
	buf = malloc(CHUNK);
	if (!buf) {
		rc = oom(&st);
		goto out;
	}
	while ((got = profdb__input_read(in, buf, CHUNK, err)) > 0) {
		if ((rc = feed(&st, buf, (size_t)got)) != PROFDB_OK)
			goto out;
		if (progress)
			progress(progress_arg, profdb__input_raw_offset(in), profdb__input_size(in));
	}
	if (got < 0) {
		rc = err->code ? err->code : PROFDB_ERROR;
		goto out;
	}
	rc = finish(&st, rows);
out:
	free(buf);
	state_free(&st);
	return rc;
}

int profdb__csv_read_mem(const void *buf, size_t n, const char *label, profdb__csv_row_fn fn,
                        void *arg, int64_t *rows, struct profdb_err *err)
{
	return profdb__csv_read_mem_opts(buf, n, n, 0, label, fn, arg, rows, err);
}

int profdb__csv_read_mem_opts(const void *buf, size_t n, size_t chunk, int libcsv_only,
                             const char *label, profdb__csv_row_fn fn, void *arg, int64_t *rows,
                             struct profdb_err *err)
{
	struct csv_state st;
	const char *p = buf;
	size_t at = 0;
	int rc;

	if (rows)
		*rows = 0;
	if ((rc = state_init(&st, label, fn, arg, err)) != PROFDB_OK)
		return rc;
	st.libcsv_only = libcsv_only;
	if (chunk == 0)
		chunk = 1;
	rc = PROFDB_OK;
	while (rc == PROFDB_OK && at < n) {
		size_t k = n - at < chunk ? n - at : chunk;
		rc = feed(&st, p + at, k);
		at += k;
	}
	if (rc == PROFDB_OK)
		rc = finish(&st, rows);
	state_free(&st);
	return rc;
}

/* ---------------------------------------------------------------- header */

int profdb__csv_header_copy(struct profdb__csv_header *h, const struct profdb__csv_row *row,
                           struct profdb_err *err)
{
	size_t total = 0, at = 0;
	memset(h, 0, sizeof *h);
	for (size_t i = 0; i < row->n; i++)
		total += row->len[i] + 1;
	h->buf = malloc(total ? total : 1);
	h->name = malloc(row->n * sizeof *h->name);
	if (!h->buf || !h->name) {
		profdb__csv_header_free(h);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	for (size_t i = 0; i < row->n; i++) {
		memcpy(h->buf + at, row->field[i], row->len[i] + 1);
		h->name[i] = h->buf + at;
		at += row->len[i] + 1;
	}
	h->n = row->n;
	return PROFDB_OK;
}

int profdb__csv_header_find(const struct profdb__csv_header *h, const char *name)
{
	for (size_t i = 0; i < h->n; i++)
		if (strcmp(h->name[i], name) == 0)
			return (int)i;
	return -1;
}

/* qsort over references to header names: by name, then column order. */
static int cmp_name_ref(const void *a, const void *b)
{
	char *const *x = *(char *const *const *)a, *const *y = *(char *const *const *)b;
	int c = strcmp(*x, *y);
	return c ? c : (x > y) - (x < y);
}

/*
 * The first column (in header order) whose name a later column repeats.
 * Sorting references to the names makes it n log n: a header of 100 000
 * columns took 14 s by pairs.  Small headers, or no memory, use pairs.
 */
const char *profdb__csv_header_dup(const struct profdb__csv_header *h)
{
	char *const **ref;
	size_t best = h->n;
	if (h->n < 64 || (ref = malloc(h->n * sizeof *ref)) == NULL) {
		for (size_t i = 0; i < h->n; i++)
			for (size_t j = i + 1; j < h->n; j++)
				if (h->name[i][0] && strcmp(h->name[i], h->name[j]) == 0)
					return h->name[i];
		return NULL;
	}
	for (size_t i = 0; i < h->n; i++)
		ref[i] = &h->name[i];
	qsort(ref, h->n, sizeof *ref, cmp_name_ref);
	for (size_t i = 0; i + 1 < h->n; i++) {
		size_t at = (size_t)(ref[i] - h->name);
		if ((*ref[i])[0] && strcmp(*ref[i], *ref[i + 1]) == 0 && at < best)
			best = at;
	}
	free(ref);
	return best < h->n ? h->name[best] : NULL;
}

void profdb__csv_header_free(struct profdb__csv_header *h)
{
	free(h->name);
	free(h->buf);
	memset(h, 0, sizeof *h);
}

void profdb__csv_excerpt(const char *s, size_t max, char *out, size_t cap)
{
	size_t j = 0;
	if (cap == 0)
		return;
	for (size_t i = 0; s[i] && i < max && j + 4 < cap; i++) {
		unsigned char c = (unsigned char)s[i];
		out[j++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (s[0] && strlen(s) > max && j + 4 < cap) {
		memcpy(out + j, "...", 3);
		j += 3;
	}
	out[j] = '\0';
}

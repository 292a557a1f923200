/*
 * json_scan.c - streaming JSON scanner and in-place member extractor (see
 * json_scan.h).  The scanner keeps a window of the stream: bytes before the
 * value being read are dropped on each refill, so memory is bounded by the
 * largest single value.  Containers are matched with a bit stack (one bit
 * per level), so a million nested brackets cost 125 KB, not the C stack.
 * The scanner, the in-place walker and the one-pass picker must give the
 * same answers on the same bytes (fuzz_json_scan compares them), so their
 * rules sit side by side.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
#include <emmintrin.h>
#define HAVE_SSE2_PATH 1
#endif

#include "json_scan.h"
#include "banned.h"

#define CHUNK (256 * 1024) /* bytes asked of the source at a time */

int profdb__json_scan_init(struct profdb__json_scan *s, profdb__json_read_fn read, void *arg,
                          const char *name, struct profdb_err *err)
{
	memset(s, 0, sizeof *s);
	s->read = read;
	s->arg = arg;
	s->name = name;
	s->err = err;
	s->max_value = PROFDB_JSON_MAX_VALUE;
	s->max_string = PROFDB_JSON_MAX_STRING;
	s->cap = CHUNK;
	s->buf = malloc(s->cap);
	s->nest_cap = 64;
	s->nest = malloc(s->nest_cap);
	if (!s->buf || !s->nest) {
		profdb__json_scan_free(s);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	return PROFDB_OK;
}

void profdb__json_scan_free(struct profdb__json_scan *s)
{
	free(s->buf);
	free(s->nest);
	s->buf = NULL;
	s->nest = NULL;
}

uint64_t profdb__json_offset(const struct profdb__json_scan *s)
{
	return s->base + s->pos + s->elided;
}

static int fail(struct profdb__json_scan *s, uint64_t at, const char *what)
{
	return profdb__err_set(s->err, PROFDB_EFORMAT, "%s: byte %llu: %s", s->name,
	                       (unsigned long long)at, what);
}

/*
 * Drop the bytes before buf[keep], then read more.  Returns bytes added,
 * 0 at the end of the stream, -1 on error (err set).
 */
static long refill(struct profdb__json_scan *s, size_t keep)
{
	long got;
	if (keep > 0) {
		memmove(s->buf, s->buf + keep, s->len - keep);
		s->len -= keep;
		s->pos -= keep;
		s->base += keep;
	}
	if (s->eof)
		return 0;
	if (s->cap - s->len < CHUNK / 4) {
		/* the kept value fills the window: grow it, up to the limit */
		/* never past the bound and a chunk: the window stays that size */
		size_t ncap = s->cap * 2 < s->max_value + CHUNK ? s->cap * 2 : s->max_value + CHUNK;
		char *nb;
		if (s->len > s->max_value) {
			char msg[128];
			snprintf(msg, sizeof msg, "a single JSON value is larger than %zu MiB",
			         s->max_value >> 20);
			fail(s, s->base, msg);
			return -1;
		}
		nb = realloc(s->buf, ncap);
		if (!nb) {
			profdb__err_set(s->err, PROFDB_ERROR, "out of memory");
			return -1;
		}
		s->buf = nb;
		s->cap = ncap;
	}
	got = s->read(s->arg, s->buf + s->len, s->cap - s->len, s->err);
	if (got < 0) {
		if (s->err->code == PROFDB_OK)
			profdb__err_set(s->err, PROFDB_ERROR, "%s: read error", s->name);
		return -1;
	}
	if (got == 0)
		s->eof = 1;
	s->len += (size_t)got;
	return got;
}

static int is_ws(char c)
{
	return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

/*
 * Index of the quote that closes the string whose body starts at p[i]
 * (a backslash escapes the byte after it), or n if p[0..n) ends first.
 * Most of a trace is string bodies: 16 bytes are looked at a time.
 */
static size_t str_end(const char *p, size_t n, size_t i)
{
#ifdef HAVE_SSE2_PATH
	const __m128i quote = _mm_set1_epi8('"'), bslash = _mm_set1_epi8('\\');
	while (i + 16 <= n) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		unsigned m = (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_cmpeq_epi8(x, quote),
		                                                      _mm_cmpeq_epi8(x, bslash)));
		if (m == 0) {
			i += 16;
			continue;
		}
		i += (size_t)__builtin_ctz(m);
		if (p[i] == '"')
			return i;
		i += 2; /* the backslash and the byte it escapes */
	}
#endif
	for (; i < n; i++) {
		if (p[i] == '"')
			return i;
		if (p[i] == '\\')
			i++;
	}
	return n;
}

int profdb__json_peek(struct profdb__json_scan *s)
{
	for (;;) {
		long got;
		while (s->pos < s->len && is_ws(s->buf[s->pos]))
			s->pos++;
		if (s->pos < s->len)
			return (unsigned char)s->buf[s->pos];
		got = refill(s, s->pos);
		if (got < 0)
			return PROFDB_JSON_FAIL;
		if (got == 0)
			return PROFDB_JSON_END;
	}
}

void profdb__json_advance(struct profdb__json_scan *s)
{
	if (s->pos < s->len)
		s->pos++;
}

static int is_scalar_char(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '+' || c == '-' || c == '.';
}

/* Push a container on the bit stack (1 = object).  -1: out of memory. */
static int push(struct profdb__json_scan *s, uint64_t depth, int is_obj)
{
	size_t byte = (size_t)(depth >> 3);
	if (byte >= s->nest_cap) {
		size_t ncap = s->nest_cap * 2;
		unsigned char *n = realloc(s->nest, ncap);
		if (!n)
			return profdb__err_set(s->err, PROFDB_ERROR, "out of memory");
		s->nest = n;
		s->nest_cap = ncap;
	}
	if (is_obj)
		s->nest[byte] |= (unsigned char)(1u << (depth & 7));
	else
		s->nest[byte] &= (unsigned char)~(1u << (depth & 7));
	return PROFDB_OK;
}

static int top_is_obj(const struct profdb__json_scan *s, uint64_t depth)
{
	return (s->nest[depth >> 3] >> (depth & 7)) & 1;
}

#define NO_DROP UINT64_MAX

/* Where scan() is in one value.  Positions are base + index: they stay
 * put when refill moves the window. */
struct scan_state {
	uint64_t depth;            /* open containers */
	int in_str, esc, scalar;   /* inside a string / after its backslash / a bare token */
	unsigned hex;              /* digits of a \u escape still to come */
	uint64_t str_open;         /* keep: where the current string's body starts */
	uint64_t drop;             /* keep: where its dropped tail starts, or NO_DROP */
};

/* The string's closing quote is at buf[pos - 1]: move it (and what
 * follows) down to where the dropped tail began. */
static void close_drop(struct profdb__json_scan *s, struct scan_state *t)
{
	size_t d = (size_t)(t->drop - s->base), q = s->pos - 1;
	memmove(s->buf + d, s->buf + q, s->len - q);
	s->elided += q - d;
	s->len -= q - d;
	s->pos = d + 1;
	s->cut++;
	t->drop = NO_DROP;
}

/*
 * Byte b of a string body, at buf[pos - 1]; 1 when it closes the string.
 * A captured string longer than max_string keeps its first bytes only,
 * cut before a whole character or escape: the rest is dropped as it is
 * read, so a 200 MB name or argument costs max_string bytes, not 200 MB.
 */
static int str_byte(struct profdb__json_scan *s, struct scan_state *t, int keep, char b)
{
	if (t->esc) {
		t->esc = 0;
		t->hex = b == 'u' ? 4 : 0;
		return 0;
	}
	if (keep && t->drop == NO_DROP && t->hex == 0 && b != '"' && ((unsigned char)b & 0xC0) != 0x80 &&
	    s->base + s->pos - 1 - t->str_open >= s->max_string)
		t->drop = s->base + s->pos - 1;
	if (b == '\\') {
		t->esc = 1;
	} else if (b == '"') {
		if (t->drop != NO_DROP)
			close_drop(s, t);
		return 1;
	} else if (t->hex) {
		t->hex--;
	}
	return 0;
}

/* One byte b outside strings, at buf[pos - 1]: 1 when it ends the value,
 * -1 on error (err set). */
static int struct_byte(struct profdb__json_scan *s, struct scan_state *t, char b)
{
	if (b == '"') {
		t->in_str = 1;
		t->str_open = s->base + s->pos;
	} else if (b == '{' || b == '[') {
		if (push(s, t->depth, b == '{') != PROFDB_OK)
			return -1;
		t->depth++;
	} else if (b == '}' || b == ']') {
		if (t->depth == 0 || top_is_obj(s, t->depth - 1) != (b == '}')) {
			fail(s, profdb__json_offset(s) - 1, b == '}' ? "mismatched '}'" : "mismatched ']'");
			return -1;
		}
		if (--t->depth == 0)
			return 1;
	}
	return 0;
}

/* The first byte c of a value: sets up t.  -1 on error (err set). */
static int scan_first(struct profdb__json_scan *s, struct scan_state *t, int c)
{
	memset(t, 0, sizeof *t);
	t->drop = NO_DROP;
	if (c == '"') {
		t->in_str = 1;
		t->str_open = s->base + s->pos + 1;
	} else if (c == '{' || c == '[') {
		if (push(s, 0, c == '{') != PROFDB_OK)
			return -1;
		t->depth = 1;
	} else if (is_scalar_char((char)c)) {
		t->scalar = 1;
		return 0;
	} else {
		char msg[64];
		snprintf(msg, sizeof msg, "unexpected character '%c'", c >= 32 && c < 127 ? c : '?');
		fail(s, profdb__json_offset(s), msg);
		return -1;
	}
	s->pos++;
	return 0;
}

/*
 * Scan one value.  keep: keep its bytes in the window (capture).  On
 * success *start is the value's index in buf and s->pos is one past it.
 */
static int scan(struct profdb__json_scan *s, int keep, size_t *start)
{
	struct scan_state t;
	uint64_t begin, braw;
	int c, r;

	c = profdb__json_peek(s);
	if (c == PROFDB_JSON_FAIL)
		return s->err->code;
	if (c == PROFDB_JSON_END)
		return fail(s, profdb__json_offset(s), "truncated JSON: expected a value");
	begin = profdb__json_offset(s);
	braw = s->base + s->pos;
	s->big = 0;
	if (scan_first(s, &t, c) != 0)
		return s->err->code;
	for (;;) {
		long got;
		while (s->pos < s->len) {
			char b = s->buf[s->pos];
			if (t.scalar) {
				if (!is_scalar_char(b))
					goto done;
				s->pos++;
				continue;
			}
			s->pos++;
			if (t.in_str) {
				if (str_byte(s, &t, keep, b)) {
					t.in_str = 0;
					if (t.depth == 0)
						goto done;
				}
				continue;
			}
			r = struct_byte(s, &t, b);
			if (r < 0)
				return s->err->code;
			if (r > 0)
				goto done;
		}
		if (t.drop != NO_DROP) {
			/* the read part of a long string's tail: dropped now */
			size_t d = (size_t)(t.drop - s->base);
			s->elided += s->len - d;
			s->len = s->pos = d;
		}
		if (keep && s->skip_big && s->len - (size_t)(braw - s->base) > s->max_value) {
			/* too large to hold: the rest is read as a skip reads it */
			keep = 0;
			s->big = 1;
			t.drop = NO_DROP;
		}
		got = refill(s, keep ? (size_t)(braw - s->base) : s->pos);
		if (got < 0)
			return s->err->code;
		if (got == 0) {
			char msg[128];
			if (t.scalar)
				goto done;
			snprintf(msg, sizeof msg, "truncated JSON: input ends inside the %s that starts at byte %llu",
			         t.in_str && t.depth == 0 ? "string" : "value", (unsigned long long)begin);
			return fail(s, profdb__json_offset(s), msg);
		}
	}
done:
	*start = s->big ? s->pos : (size_t)(braw - s->base);
	return PROFDB_OK;
}

int profdb__json_value(struct profdb__json_scan *s, const char **out, size_t *len)
{
	size_t start = 0;
	int rc = scan(s, 1, &start);
	if (rc != PROFDB_OK)
		return rc;
	*out = s->buf + start;
	*len = s->pos - start;
	return PROFDB_OK;
}

int profdb__json_skip(struct profdb__json_scan *s)
{
	size_t start;
	return scan(s, 0, &start);
}

/* ---------------------------------------------------------------- in place */

/* skip_ws past its usual cases: a run of white space. */
static size_t skip_ws_run(const char *p, size_t n, size_t i)
{
#ifdef HAVE_SSE2_PATH
	/* a new line and its indent: 16 bytes at a time */
	while (i + 16 <= n) {
		__m128i x = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
		__m128i ws = _mm_or_si128(_mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8(' ')),
		                                       _mm_cmpeq_epi8(x, _mm_set1_epi8('\n'))),
		                          _mm_or_si128(_mm_cmpeq_epi8(x, _mm_set1_epi8('\r')),
		                                       _mm_cmpeq_epi8(x, _mm_set1_epi8('\t'))));
		unsigned m = ~(unsigned)_mm_movemask_epi8(ws) & 0xffffu;
		if (m != 0)
			return i + (size_t)__builtin_ctz(m);
		i += 16;
	}
#endif
	while (i < n && is_ws(p[i]))
		i++;
	return i;
}

static inline size_t skip_ws(const char *p, size_t n, size_t i)
{
	/* none or one space is the usual: white space is at most ' ' */
	if (i < n && (unsigned char)p[i] > ' ')
		return i;
	if (i + 1 < n && p[i] == ' ' && (unsigned char)p[i + 1] > ' ')
		return i + 1;
	return skip_ws_run(p, n, i);
}

/* End of the run of decimal digits at p[i]: 8 bytes at a time while the
 * window holds them (timestamps have 16). */
static size_t digits_end(const char *p, size_t n, size_t i)
{
	while (i + 8 <= n) {
		uint64_t x, lo, hi;
		memcpy(&x, p + i, 8);
		/* high bit of a byte set where it is below '0' or above '9' */
		lo = x - 0x3030303030303030ull;
		hi = x + 0x4646464646464646ull;
		if (((lo | hi | x) & 0x8080808080808080ull) != 0)
			break;
		i += 8;
	}
	while (i < n && (unsigned char)(p[i] - '0') < 10)
		i++;
	return i;
}

/* Bound the value that starts at p[*i] (after white space); advance *i. */
static int value_at(const char *p, size_t n, size_t *i, struct profdb__jval *v)
{
	size_t j = skip_ws(p, n, *i), k;
	if (j >= n)
		return -1;
	v->p = p + j;
	k = j;
	if (p[j] == '"') {
		for (k = j + 1; k < n && p[k] != '"'; k++)
			if (p[k] == '\\')
				k++;
		if (k >= n)
			return -1;
		v->type = PROFDB_J_STRING;
		k++;
	} else if (p[j] == '{' || p[j] == '[') {
		size_t depth = 0;
		v->type = p[j] == '{' ? PROFDB_J_OBJECT : PROFDB_J_ARRAY;
		for (; k < n; k++) {
			char c = p[k];
			if (c == '"') {
				for (k++; k < n && p[k] != '"'; k++)
					if (p[k] == '\\')
						k++;
				if (k >= n)
					return -1;
			} else if (c == '{' || c == '[') {
				depth++;
			} else if ((c == '}' || c == ']') && --depth == 0) {
				break;
			}
		}
		if (k >= n)
			return -1;
		k++;
	} else {
		while (k < n && is_scalar_char(p[k]))
			k++;
		if (k == j)
			return -1;
		v->type = PROFDB_J_NUMBER;
		if (k - j == 4 && memcmp(p + j, "true", 4) == 0)
			v->type = PROFDB_J_TRUE;
		else if (k - j == 5 && memcmp(p + j, "false", 5) == 0)
			v->type = PROFDB_J_FALSE;
		else if (k - j == 4 && memcmp(p + j, "null", 4) == 0)
			v->type = PROFDB_J_NULL;
	}
	v->n = k - j;
	*i = k;
	return 0;
}

/* Shared by member and element: open/close bytes, with or without keys. */
static int next_item(const char *p, size_t n, size_t *pos, char open, char close,
                     struct profdb__jval *key, struct profdb__jval *val)
{
	size_t i = skip_ws(p, n, *pos);
	if (*pos == 0) {
		if (i >= n || p[i] != open)
			return -1;
		i = skip_ws(p, n, i + 1);
		if (i < n && p[i] == close) {
			*pos = n;
			return 0;
		}
	} else {
		if (*pos >= n)
			return 0;
		if (i < n && p[i] == close) {
			*pos = n;
			return 0;
		}
		if (i >= n || p[i] != ',')
			return -1;
		i++;
	}
	if (key) {
		if (value_at(p, n, &i, key) != 0 || key->type != PROFDB_J_STRING)
			return -1;
		i = skip_ws(p, n, i);
		if (i >= n || p[i] != ':')
			return -1;
		i++;
	}
	if (value_at(p, n, &i, val) != 0)
		return -1;
	*pos = i;
	return 1;
}

int profdb__json_member(const char *obj, size_t len, size_t *pos,
                       struct profdb__jval *key, struct profdb__jval *val)
{
	return next_item(obj, len, pos, '{', '}', key, val);
}

int profdb__json_element(const char *arr, size_t len, size_t *pos, struct profdb__jval *val)
{
	return next_item(arr, len, pos, '[', ']', NULL, val);
}

int profdb__json_str_is(const struct profdb__jval *v, const char *lit)
{
	size_t n = strlen(lit);
	return v->type == PROFDB_J_STRING && v->n == n + 2 && memcmp(v->p + 1, lit, n) == 0;
}

static int hex4(const char *p, size_t n, size_t i, unsigned *out)
{
	unsigned v = 0;
	if (i + 4 > n)
		return -1;
	for (size_t k = i; k < i + 4; k++) {
		char c = p[k];
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return -1;
	}
	*out = v;
	return 0;
}

static size_t put_utf8(char *o, unsigned cp)
{
	if (cp < 0x80) {
		o[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		o[0] = (char)(0xc0 | (cp >> 6));
		o[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		o[0] = (char)(0xe0 | (cp >> 12));
		o[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		o[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	o[0] = (char)(0xf0 | (cp >> 18));
	o[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	o[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	o[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

size_t profdb__json_str_decode(const struct profdb__jval *v, char *out, size_t cap)
{
	const char *p = v->p + 1;
	size_t n = v->n >= 2 ? v->n - 2 : 0, o = 0;
	if (cap == 0)
		return 0;
	if (n < cap && !memchr(p, '\\', n)) {
		/* most strings have no escape: a copy */
		memcpy(out, p, n);
		out[n] = '\0';
		return n;
	}
	/* decoded text is never longer than the escaped text (cap >= v->n) */
	for (size_t i = 0; i < n; i++) {
		unsigned cp, lo;
		if (p[i] != '\\') {
			if (o + 1 >= cap)
				break;
			out[o++] = p[i];
			continue;
		}
		/* an escape writes at most 1 byte, \uXXXX at most 4 (from 6 or 12) */
		if (++i >= n || o + (p[i] == 'u' ? 4 : 1) >= cap)
			break;
		switch (p[i]) {
		case 'b': out[o++] = '\b'; break;
		case 'f': out[o++] = '\f'; break;
		case 'n': out[o++] = '\n'; break;
		case 'r': out[o++] = '\r'; break;
		case 't': out[o++] = '\t'; break;
		case 'u':
			if (hex4(p, n, i + 1, &cp) != 0) {
				out[o++] = 'u';
				break;
			}
			i += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && i + 2 < n && p[i + 1] == '\\' && p[i + 2] == 'u' &&
			    hex4(p, n, i + 3, &lo) == 0 && lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
				i += 6;
			} else if (cp == 0 || (cp >= 0xd800 && cp < 0xe000)) {
				cp = 0xfffd; /* a NUL would cut the C string; lone surrogates are not text */
			}
			o += put_utf8(out + o, cp);
			break;
		default: out[o++] = p[i]; break; /* \" \\ \/ and unknown escapes */
		}
	}
	out[o] = '\0';
	return o;
}

size_t profdb__json_compact(const struct profdb__jval *v, char *out, size_t cap)
{
	size_t o = 0;
	int in_str = 0, esc = 0;
	if (cap == 0)
		return 0;
	if (cap > v->n) {
		/* room for all of it: strings are copied whole */
		const char *p = v->p;
		for (size_t i = 0; i < v->n; i++) {
			if (p[i] == '"') {
				size_t e = str_end(p, v->n, i + 1);
				size_t k = e < v->n ? e + 1 : v->n;
				memcpy(out + o, p + i, k - i);
				o += k - i;
				i = k - 1;
			} else if (!is_ws(p[i])) {
				out[o++] = p[i];
			}
		}
		out[o] = '\0';
		return o;
	}
	for (size_t i = 0; i < v->n && o + 1 < cap; i++) {
		char c = v->p[i];
		if (in_str) {
			if (esc)
				esc = 0;
			else if (c == '\\')
				esc = 1;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if (is_ws(c)) {
			continue;
		}
		out[o++] = c;
	}
	out[o] = '\0';
	return o;
}

/* ---------------------------------------------------------------- one pass */

/*
 * profdb__json_pick must answer exactly as a scan (scan above) followed by
 * profdb__json_member walks would, or not at all (0: the caller takes that
 * general path).  So it accepts a subset of what both accept: members as
 * next_item reads them, strings and scalars as value_at bounds them, and
 * brackets matched by kind as scan matches them (value_at only counts
 * them, but scan has already refused a mismatch by then).
 */

#define NO_END ((size_t)-1)

/* End (one past) of the container at p[i] ('{' or '['), brackets matched
 * by kind; NO_END if malformed, cut off, or nested deeper than 64. */
static size_t container_end(const char *p, size_t n, size_t i)
{
	uint64_t objs = 0;         /* bit d: level d is an object */
	unsigned depth = 0;
	for (; i < n; i++) {
		char c = p[i];
		switch (c) {
		case '"':
			i = str_end(p, n, i + 1);
			if (i >= n)
				return NO_END;
			break;
		case '{':
		case '[':
			if (depth == 64)
				return NO_END;
			if (c == '{')
				objs |= (uint64_t)1 << depth;
			else
				objs &= ~((uint64_t)1 << depth);
			depth++;
			break;
		case '}':
		case ']':
			if (depth == 0 || (int)((objs >> (depth - 1)) & 1) != (c == '}'))
				return NO_END;
			if (--depth == 0)
				return i + 1;
			break;
		default:
			break;
		}
	}
	return NO_END;
}

/* Bound the value at p[i] (white space already skipped) as value_at does;
 * returns the index past it, NO_END if there is none. */
static size_t pick_value(const char *p, size_t n, size_t i, struct profdb__jval *v)
{
	size_t k = i;
	if (i >= n)
		return NO_END;
	v->p = p + i;
	if (p[i] == '"') {
		k = str_end(p, n, i + 1);
		if (k >= n)
			return NO_END;
		v->type = PROFDB_J_STRING;
		k++;
	} else if (p[i] == '{' || p[i] == '[') {
		v->type = p[i] == '{' ? PROFDB_J_OBJECT : PROFDB_J_ARRAY;
		k = container_end(p, n, i);
		if (k == NO_END)
			return NO_END;
	} else {
		k = digits_end(p, n, k);
		while (k < n && is_scalar_char(p[k]))
			k++;
		if (k == i || k >= n) /* at n: the token may go on past the window */
			return NO_END;
		v->type = PROFDB_J_NUMBER;
		if (k - i == 4 && memcmp(p + i, "true", 4) == 0)
			v->type = PROFDB_J_TRUE;
		else if (k - i == 5 && memcmp(p + i, "false", 5) == 0)
			v->type = PROFDB_J_FALSE;
		else if (k - i == 4 && memcmp(p + i, "null", 4) == 0)
			v->type = PROFDB_J_NULL;
	}
	v->n = k - i;
	return k;
}

/* a[0..len) == b[0..len) for short keys: words at a time, the last one
 * overlapping, inline (a memcmp call costs more than the compare). */
static int key_eq(const char *a, const char *b, size_t len)
{
	if (len >= 8) {
		uint64_t x, y;
		for (size_t i = 0; i + 8 < len; i += 8) {
			memcpy(&x, a + i, 8);
			memcpy(&y, b + i, 8);
			if (x != y)
				return 0;
		}
		memcpy(&x, a + len - 8, 8);
		memcpy(&y, b + len - 8, 8);
		return x == y;
	}
	if (len >= 4) {
		uint32_t x, y, x2, y2;
		memcpy(&x, a, 4);
		memcpy(&y, b, 4);
		memcpy(&x2, a + len - 4, 4);
		memcpy(&y2, b + len - 4, 4);
		return x == y && x2 == y2;
	}
	for (size_t i = 0; i < len; i++)
		if (a[i] != b[i])
			return 0;
	return 1;
}

/* Bucket of a key (len > 0 bytes) in a pick index. */
static unsigned key_hash(const char *k, size_t len)
{
	return (unsigned)(len * 5 + (unsigned char)k[0] * 3 + (unsigned char)k[len - 1]) & (PROFDB_JSON_PICK_SLOTS - 1);
}

int profdb__json_pick_init(struct profdb__json_pick *spec)
{
	memset(spec->index, 0, sizeof spec->index);
	for (int level = 0; level < 2; level++) {
		const struct profdb__json_key *keys = level ? spec->sub_keys : spec->keys;
		size_t nkeys = level ? spec->nsub_keys : spec->nkeys;
		if (nkeys > PROFDB_JSON_PICK_MAX)
			return -1;
		for (size_t j = 0; j < nkeys; j++) {
			unsigned b;
			if (keys[j].len == 0)
				return -1;
			b = key_hash(keys[j].name, keys[j].len);
			while (spec->index[level][b])
				b = (b + 1) & (PROFDB_JSON_PICK_SLOTS - 1);
			spec->index[level][b] = (unsigned char)(j + 1);
		}
	}
	return 0;
}

/* Slot of key text k[0..len) (between its quotes) in a level's keys, or -1. */
static int key_slot(const struct profdb__json_pick *spec, int level, const char *k, size_t len)
{
	const struct profdb__json_key *keys = level ? spec->sub_keys : spec->keys;
	const unsigned char *index = spec->index[level];
	unsigned b = key_hash(k, len), j;
	/* at most half the buckets are taken: a miss ends at an empty one soon */
	while ((j = index[b]) != 0) {
		const struct profdb__json_key *key = &keys[j - 1];
		if (key->len == len && key_eq(key->name, k, len))
			return key->slot;
		b = (b + 1) & (PROFDB_JSON_PICK_SLOTS - 1);
	}
	return -1;
}

/* The members of the object at p[i] ('{'); sub != NULL: the inner slot's
 * object is walked too.  Returns the index past its '}', or NO_END. */
static size_t pick_object(const char *p, size_t n, size_t i, int level,
                          const struct profdb__json_pick *spec, struct profdb__jval *vals,
                          struct profdb__jval *sub)
{
	i = skip_ws(p, n, i + 1);
	if (i < n && p[i] == '}')
		return i + 1;
	for (;;) {
		size_t ke, vend;
		int slot;
		struct profdb__jval unused, *v;
		if (i >= n || p[i] != '"')
			return NO_END;
		ke = str_end(p, n, i + 1);
		if (ke >= n)
			return NO_END;
		slot = ke > i + 1 ? key_slot(spec, level, p + i + 1, ke - i - 1) : -1;
		i = skip_ws(p, n, ke + 1);
		if (i >= n || p[i] != ':')
			return NO_END;
		i = skip_ws(p, n, i + 1);
		/* straight into its slot (the last member of a key wins, as in a
		 * walk): a copy through the stack stalls on store forwarding */
		v = slot >= 0 ? &vals[slot] : &unused;
		if (sub && slot == spec->inner) {
			for (size_t j = 0; j < spec->nsub_slots; j++)
				sub[j] = (struct profdb__jval){ PROFDB_J_NONE, NULL, 0 };
			if (i < n && p[i] == '{') {
				vend = pick_object(p, n, i, 1, spec, sub, NULL);
				if (vend == NO_END)
					return NO_END;
				v->type = PROFDB_J_OBJECT;
				v->p = p + i;
				v->n = vend - i;
			} else {
				vend = pick_value(p, n, i, v);
			}
		} else {
			vend = pick_value(p, n, i, v);
		}
		if (vend == NO_END)
			return NO_END;
		i = skip_ws(p, n, vend);
		if (i >= n)
			return NO_END;
		if (p[i] == '}')
			return i + 1;
		if (p[i] != ',')
			return NO_END;
		i = skip_ws(p, n, i + 1);
	}
}

size_t profdb__json_pick(const char *p, size_t n, const struct profdb__json_pick *spec,
                        struct profdb__jval *vals, struct profdb__jval *sub)
{
	static const struct profdb__jval none = { PROFDB_J_NONE, NULL, 0 };
	size_t end;
	for (size_t j = 0; j < spec->nslots; j++)
		vals[j] = none;
	for (size_t j = 0; j < spec->nsub_slots; j++)
		sub[j] = none;
	if (n == 0 || p[0] != '{')
		return 0;
	end = pick_object(p, n, 0, 0, spec, vals, spec->inner >= 0 ? sub : NULL);
	return end == NO_END ? 0 : end;
}

int profdb__json_value_pick(struct profdb__json_scan *s, const struct profdb__json_pick *spec,
                           struct profdb__jval *vals, struct profdb__jval *sub,
                           const char **out, size_t *len, int *picked)
{
	int c = profdb__json_peek(s), rc;
	size_t end;
	*picked = 0;
	s->big = 0;
	if (c == '{') {
		/* most values lie whole in the window: one pass, no scan */
		end = profdb__json_pick(s->buf + s->pos, s->len - s->pos, spec, vals, sub);
		if (end > 0) {
			*out = s->buf + s->pos;
			*len = end;
			s->pos += end;
			*picked = 1;
			return PROFDB_OK;
		}
	}
	if ((rc = profdb__json_value(s, out, len)) != PROFDB_OK)
		return rc;
	*picked = *len > 0 && profdb__json_pick(*out, *len, spec, vals, sub) == *len;
	return PROFDB_OK;
}

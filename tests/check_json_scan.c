/*
 * check_json_scan.c - the streaming JSON scanner and the in-place member
 * extractor: strings with escaped quotes and brackets, numbers in every
 * form, truncated and mismatched input, deep nesting, very long values,
 * and reads that stop at every possible byte boundary; the one-pass
 * picker by hand, against an independent bracket matcher and member walks
 * on random objects, and through the stream at every boundary.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "read/json_scan.h"

/* A source over a string, handing out at most `chunk` bytes per read so
 * that values straddle refills at every offset. */
struct mem_src {
	const char *p;
	size_t n, off, chunk;
};

static long mem_read(void *arg, void *buf, size_t n, struct profdb_err *err)
{
	struct mem_src *m = arg;
	size_t k = m->n - m->off;
	(void)err;
	if (k > n)
		k = n;
	if (k > m->chunk)
		k = m->chunk;
	memcpy(buf, m->p + m->off, k);
	m->off += k;
	return (long)k;
}

/* A generated source: `open` repeated depth times, a middle, `close` depth times. */
struct gen_src {
	char open, close, fill;
	size_t depth, fill_len, off;
};

static long gen_read(void *arg, void *buf, size_t n, struct profdb_err *err)
{
	struct gen_src *g = arg;
	char *o = buf;
	size_t total = 2 * g->depth + g->fill_len, k = 0;
	(void)err;
	while (k < n && g->off < total) {
		size_t i = g->off++;
		o[k++] = i < g->depth ? g->open : i < g->depth + g->fill_len ? g->fill : g->close;
	}
	return (long)k;
}

/* Read every element of a top-level array; returns the scanner's code and
 * copies the elements (joined by '|') into out. */
static int elements(const char *text, size_t chunk, char *out, size_t cap, struct profdb_err *err)
{
	struct mem_src m = { text, strlen(text), 0, chunk };
	struct profdb__json_scan s;
	int rc, c;
	size_t o = 0;
	memset(err, 0, sizeof *err);
	ck_assert_int_eq(profdb__json_scan_init(&s, mem_read, &m, "t.json", err), PROFDB_OK);
	out[0] = '\0';
	c = profdb__json_peek(&s);
	ck_assert_int_eq(c, '[');
	profdb__json_advance(&s);
	for (;;) {
		const char *v;
		size_t n;
		if ((rc = profdb__json_value(&s, &v, &n)) != PROFDB_OK)
			break;
		ck_assert_uint_lt(o + n + 2, cap);
		if (o)
			out[o++] = '|';
		memcpy(out + o, v, n);
		o += n;
		out[o] = '\0';
		c = profdb__json_peek(&s);
		profdb__json_advance(&s);
		if (c == ']') {
			rc = profdb__json_peek(&s) == PROFDB_JSON_END ? PROFDB_OK : -99;
			break;
		}
		if (c != ',') {
			rc = -98;
			break;
		}
	}
	profdb__json_scan_free(&s);
	return rc;
}

START_TEST(strings_with_escapes_and_brackets)
{
	/* quotes, backslashes and brackets inside strings must not end or open anything */
	const char *in = "[\"a\\\"]b\", {\"k\": \"}{\\\\\", \"x\": [\"]\"]}, \"\\\\\", [1,[2,[3]]], \"[{\"]";
	const char *want = "\"a\\\"]b\"|{\"k\": \"}{\\\\\", \"x\": [\"]\"]}|\"\\\\\"|[1,[2,[3]]]|\"[{\"";
	char out[512];
	struct profdb_err err;
	/* every chunk size from 1 byte: each boundary falls inside some token */
	for (size_t chunk = 1; chunk <= strlen(in) + 1; chunk++) {
		ck_assert_int_eq(elements(in, chunk, out, sizeof out, &err), PROFDB_OK);
		ck_assert_str_eq(out, want);
	}
}
END_TEST

START_TEST(numbers_in_every_form)
{
	const char *in = "[0, -1, 1.5, 1e3, -2.5E-2, 1736408883674584.732, \"1736408883674584.732\", NaN, -Infinity, true, null]";
	char out[512];
	struct profdb_err err;
	struct profdb__jval v;
	size_t pos = 0;
	int64_t ns;
	/* expected ns for the µs text (scale 3), computed by hand */
	static const int64_t want_ns[] = { 0, -1000, 1500, 1000000, -25, 1736408883674584732, 1736408883674584732 };
	int types[11], i = 0;

	ck_assert_int_eq(elements(in, 3, out, sizeof out, &err), PROFDB_OK);
	ck_assert_str_eq(out, "0|-1|1.5|1e3|-2.5E-2|1736408883674584.732|\"1736408883674584.732\"|NaN|-Infinity|true|null");
	while (profdb__json_element(in, strlen(in), &pos, &v) == 1) {
		types[i] = v.type;
		if (i < 7) {
			const char *p = v.type == PROFDB_J_STRING ? v.p + 1 : v.p;
			size_t n = v.type == PROFDB_J_STRING ? v.n - 2 : v.n;
			ck_assert_int_eq(profdb__parse_ns(p, n, 3, &ns), 0);
			ck_assert_int_eq(ns, want_ns[i]);
		} else if (i < 9) {
			/* NaN / Infinity are tokens, not numbers: the caller rejects them */
			ck_assert_int_eq(profdb__parse_ns(v.p, v.n, 3, &ns), -1);
		}
		i++;
	}
	ck_assert_int_eq(i, 11);
	ck_assert_int_eq(types[0], PROFDB_J_NUMBER);
	ck_assert_int_eq(types[6], PROFDB_J_STRING);
	ck_assert_int_eq(types[7], PROFDB_J_NUMBER);
	ck_assert_int_eq(types[9], PROFDB_J_TRUE);
	ck_assert_int_eq(types[10], PROFDB_J_NULL);
}
END_TEST

START_TEST(truncated_input)
{
	char out[256];
	struct profdb_err err;
	/* ends inside a string: the message names the byte where input ended */
	ck_assert_int_eq(elements("[{\"a\": \"b", 2, out, sizeof out, &err), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "t.json: byte 9: truncated JSON"));
	ck_assert_ptr_nonnull(strstr(err.msg, "starts at byte 1"));
	/* ends inside nested brackets */
	ck_assert_int_eq(elements("[[1, [2", 1, out, sizeof out, &err), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "truncated JSON"));
	/* ends right after a comma: a value was expected */
	ck_assert_int_eq(elements("[1,", 1, out, sizeof out, &err), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "expected a value"));
}
END_TEST

START_TEST(mismatched_brackets)
{
	char out[256];
	struct profdb_err err;
	ck_assert_int_eq(elements("[{\"a\": [1}]", 4, out, sizeof out, &err), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "byte 9: mismatched '}'"));
	ck_assert_int_eq(elements("[{\"a\": 1]]", 4, out, sizeof out, &err), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "mismatched ']'"));
	ck_assert_int_eq(elements("[@]", 4, out, sizeof out, &err), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "byte 1: unexpected character '@'"));
}
END_TEST

START_TEST(deep_nesting)
{
	/* a million levels: the scanner is iterative (a bit per level) */
	struct gen_src g = { '[', ']', '1', 1000000, 1, 0 };
	struct profdb__json_scan s;
	struct profdb_err err = { 0 };
	const char *v;
	size_t n;
	ck_assert_int_eq(profdb__json_scan_init(&s, gen_read, &g, "deep", &err), PROFDB_OK);
	ck_assert_int_eq(profdb__json_value(&s, &v, &n), PROFDB_OK);
	ck_assert_uint_eq(n, 2000001);
	ck_assert_int_eq(v[1000000], '1');
	ck_assert_int_eq(profdb__json_peek(&s), PROFDB_JSON_END);
	profdb__json_scan_free(&s);
	/* skipping it keeps memory flat; a missing close bracket is truncation */
	g = (struct gen_src){ '{', '}', ' ', 1000000, 0, 0 };
	ck_assert_int_eq(profdb__json_scan_init(&s, gen_read, &g, "deep", &err), PROFDB_OK);
	/* objects nested without keys are not JSON, but the scanner only matches
	 * brackets: the extractor rejects the member list */
	ck_assert_int_eq(profdb__json_skip(&s), PROFDB_OK);
	profdb__json_scan_free(&s);
	g = (struct gen_src){ '[', ']', ' ', 1000000, 0, 0 };
	g.depth = 1000000;
	ck_assert_int_eq(profdb__json_scan_init(&s, gen_read, &g, "deep", &err), PROFDB_OK);
	s.max_value = 1000; /* the limit applies to kept values only */
	ck_assert_int_eq(profdb__json_skip(&s), PROFDB_OK);
	profdb__json_scan_free(&s);
	/* the extractor bounds a deep value iteratively too */
	{
		size_t depth = 100000, pos = 0;
		char *t = malloc(2 * depth + 16);
		struct profdb__jval k, val;
		ck_assert_ptr_nonnull(t);
		memcpy(t, "{\"a\":", 5);
		memset(t + 5, '[', depth);
		memset(t + 5 + depth, ']', depth);
		memcpy(t + 5 + 2 * depth, "}", 2);
		ck_assert_int_eq(profdb__json_member(t, strlen(t), &pos, &k, &val), 1);
		ck_assert_int_eq(val.type, PROFDB_J_ARRAY);
		ck_assert_uint_eq(val.n, 2 * depth);
		ck_assert_int_eq(profdb__json_member(t, strlen(t), &pos, &k, &val), 0);
		free(t);
	}
}
END_TEST

START_TEST(long_values)
{
	/* a 64 MB string is read, kept as its first PROFDB_JSON_MAX_STRING
	 * bytes (issue 20: memory); offsets still count every byte.  A value
	 * over the limit fails cleanly with a message */
	struct gen_src g = { '"', '"', 'a', 1, (size_t)64 << 20, 0 };
	struct profdb__json_scan s;
	struct profdb_err err = { 0 };
	const char *v;
	size_t n;
	ck_assert_int_eq(profdb__json_scan_init(&s, gen_read, &g, "big", &err), PROFDB_OK);
	ck_assert_int_eq(profdb__json_value(&s, &v, &n), PROFDB_OK);
	ck_assert_uint_eq(n, PROFDB_JSON_MAX_STRING + 2);
	ck_assert_int_eq(v[0], '"');
	ck_assert_int_eq(v[1], 'a');
	ck_assert_int_eq(v[n - 2], 'a');
	ck_assert_int_eq(v[n - 1], '"');
	ck_assert_int_eq(s.cut, 1);
	ck_assert_uint_eq(profdb__json_offset(&s), ((size_t)64 << 20) + 2);
	ck_assert_uint_lt(s.cap, (size_t)4 << 20);
	profdb__json_scan_free(&s);
	/* not a string (those are cut): a 4 MB number in an array */
	g = (struct gen_src){ '[', ']', '1', 1, 4 << 20, 0 };
	ck_assert_int_eq(profdb__json_scan_init(&s, gen_read, &g, "big", &err), PROFDB_OK);
	s.max_value = 1 << 20;
	ck_assert_int_eq(profdb__json_value(&s, &v, &n), PROFDB_EFORMAT);
	ck_assert_ptr_nonnull(strstr(err.msg, "big: byte 0: a single JSON value is larger than 1 MiB"));
	profdb__json_scan_free(&s);
	/* the same with skip_big (events): read to its end, handed back
	 * empty and marked, the window never past the bound and a chunk */
	g = (struct gen_src){ '[', ']', '1', 1, 4 << 20, 0 };
	ck_assert_int_eq(profdb__json_scan_init(&s, gen_read, &g, "big", &err), PROFDB_OK);
	s.max_value = 1 << 20;
	s.skip_big = 1;
	ck_assert_int_eq(profdb__json_value(&s, &v, &n), PROFDB_OK);
	ck_assert_uint_eq(n, 0);
	ck_assert_int_eq(s.big, 1);
	ck_assert_uint_eq(profdb__json_offset(&s), (4u << 20) + 2);
	ck_assert_uint_le(s.cap, (1u << 20) + (256u << 10));
	ck_assert_int_eq(profdb__json_peek(&s), PROFDB_JSON_END);
	profdb__json_scan_free(&s);
}
END_TEST

/* Cut long strings inside a captured value, max_string lowered to 10:
 * each cut ends before a whole character or escape (never inside \uXXXX,
 * after a lone backslash or inside a UTF-8 sequence), short strings and
 * the structure around them stay, and reading chunk by chunk changes
 * nothing. */
START_TEST(long_strings_cut)
{
	static const struct { const char *in, *want; } c[] = {
		{ "[\"abcdefghijklmnop\", 1]", "[\"abcdefghij\", 1]" },
		{ "{\"k\": \"\\u00e9\\u00e9\\u00e9\\u00e9\", \"s\": \"ok\"}", "{\"k\": \"\\u00e9\\u00e9\", \"s\": \"ok\"}" },
		{ "[\"\\\\\\\\\\\\\\\\\\\\\\\\\\\\\", 2]", "[\"\\\\\\\\\\\\\\\\\\\\\", 2]" },
		{ "[\"123456789\xc3\xa9\xc3\xa9\xc3\xa9\"]", "[\"123456789\xc3\xa9\"]" },
		{ "[\"0123456789\"]", "[\"0123456789\"]" },
	};
	for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
		for (size_t chunk = 1; chunk <= 64; chunk *= 4) {
			struct mem_src m = { c[i].in, strlen(c[i].in), 0, chunk };
			struct profdb__json_scan s;
			struct profdb_err err = { 0 };
			const char *v;
			size_t n;
			ck_assert_int_eq(profdb__json_scan_init(&s, mem_read, &m, "t.json", &err), PROFDB_OK);
			s.max_string = 10;
			ck_assert_int_eq(profdb__json_value(&s, &v, &n), PROFDB_OK);
			ck_assert_msg(n == strlen(c[i].want) && memcmp(v, c[i].want, n) == 0,
			              "case %zu chunk %zu: got '%.*s'", i, chunk, (int)n, v);
			ck_assert_uint_eq(profdb__json_offset(&s), strlen(c[i].in));
			profdb__json_scan_free(&s);
		}
}
END_TEST

START_TEST(members)
{
	const char *t = "{ \"name\" : \"a\\\"b\", \"args\": {\"x\": [1, {\"y\": \"]\"}], \"External id\": 7},"
	                "\"n\": -1.5e3, \"t\": true, \"z\": null }";
	struct profdb__jval k, v, args = { 0 };
	size_t pos = 0, apos = 0;
	int n = 0;
	char buf[64];
	while (profdb__json_member(t, strlen(t), &pos, &k, &v) == 1) {
		if (profdb__json_str_is(&k, "name")) {
			ck_assert_int_eq(v.type, PROFDB_J_STRING);
			profdb__json_str_decode(&v, buf, sizeof buf);
			ck_assert_str_eq(buf, "a\"b");
		}
		if (profdb__json_str_is(&k, "args"))
			args = v;
		if (profdb__json_str_is(&k, "n"))
			ck_assert_int_eq(strncmp(v.p, "-1.5e3", v.n), 0);
		n++;
	}
	ck_assert_int_eq(n, 5);
	ck_assert_int_eq(args.type, PROFDB_J_OBJECT);
	ck_assert_int_eq(profdb__json_member(args.p, args.n, &apos, &k, &v), 1);
	ck_assert_int_eq(v.type, PROFDB_J_ARRAY);
	profdb__json_compact(&v, buf, sizeof buf);
	ck_assert_str_eq(buf, "[1,{\"y\":\"]\"}]");
	ck_assert_int_eq(profdb__json_member(args.p, args.n, &apos, &k, &v), 1);
	ck_assert(profdb__json_str_is(&k, "External id"));
	ck_assert_int_eq(profdb__json_member(args.p, args.n, &apos, &k, &v), 0);
	/* empty object, and malformed member lists */
	pos = 0;
	ck_assert_int_eq(profdb__json_member("{ }", 3, &pos, &k, &v), 0);
	pos = 0;
	ck_assert_int_eq(profdb__json_member("{\"a\" 1}", 7, &pos, &k, &v), -1);
	pos = 0;
	ck_assert_int_eq(profdb__json_member("{1: 2}", 6, &pos, &k, &v), -1);
	pos = 0;
	ck_assert_int_eq(profdb__json_member("{\"a\": 1 \"b\": 2}", 15, &pos, &k, &v), 1);
	ck_assert_int_eq(profdb__json_member("{\"a\": 1 \"b\": 2}", 15, &pos, &k, &v), -1);
	pos = 0;
	ck_assert_int_eq(profdb__json_member("{\"a\": \"open", 11, &pos, &k, &v), -1);
	pos = 0;
	ck_assert_int_eq(profdb__json_member("{\"a\": [1, 2", 11, &pos, &k, &v), -1);
}
END_TEST

START_TEST(decode)
{
	/* \u00e9 is é (c3 a9); the surrogate pair d83d de00 is U+1F600 (f0 9f 98 80);
	 * \u0000 and a lone surrogate become U+FFFD (ef bf bd) */
	const char *raw = "\"a\\n\\t\\/\\\\\\u00e9\\ud83d\\ude00\\u0000\\udc00z\"";
	struct profdb__jval v = { PROFDB_J_STRING, raw, strlen(raw) };
	char buf[64];
	size_t n = profdb__json_str_decode(&v, buf, v.n);
	ck_assert_uint_eq(n, 18);
	ck_assert_int_eq(memcmp(buf, "a\n\t/\\\xc3\xa9\xf0\x9f\x98\x80\xef\xbf\xbd\xef\xbf\xbdz", 19), 0);
	/* the exact capacity (v.n) is enough even with escapes at the very end */
	raw = "\"ab\\n\"";
	v = (struct profdb__jval){ PROFDB_J_STRING, raw, strlen(raw) };
	n = profdb__json_str_decode(&v, buf, v.n);
	ck_assert_uint_eq(n, 3);
	ck_assert_str_eq(buf, "ab\n");
}
END_TEST

/* ------------------------------------------------------------ one pass */

enum { S_A, S_B, S_ARGS, NS };
enum { T_X, T_Y, NT };
static const struct profdb__json_key top_keys[] = {
	{ "a", 1, S_A }, { "b", 1, S_B }, { "args", 4, S_ARGS }, { "bb", 2, S_B },
};
static const struct profdb__json_key sub_keys[] = { { "x", 1, T_X }, { "y", 1, T_Y } };
static struct profdb__json_pick spec = { top_keys, 4, NS, S_ARGS, sub_keys, 2, NT, { { 0 } } };

static void spec_ready(void)
{
	ck_assert_int_eq(profdb__json_pick_init(&spec), 0);
}

static int slice_is(const struct profdb__jval *v, int type, const char *text)
{
	return v->type == type && v->n == strlen(text) && memcmp(v->p, text, v->n) == 0;
}

START_TEST(pick_by_hand)
{
	/* "b" twice (as "bb" too: the later member wins), "args" twice: the
	 * second one's members count; brackets and quotes inside strings */
	const char *t = "{ \"a\" : \"q\\\"}]\" , \"args\": {\"x\": 1}, \"z\": [1, {\"y\": \"]\"}],"
	                " \"b\": true, \"args\" : { \"y\" : [[2], {\"x\": 3}] , \"w\": null },"
	                " \"bb\": -1.5e3 } trailing";
	struct profdb__jval v[NS], a[NT];
	size_t end = strlen(t) - strlen(" trailing");
	ck_assert_uint_eq(profdb__json_pick(t, strlen(t), &spec, v, a), end);
	ck_assert(slice_is(&v[S_A], PROFDB_J_STRING, "\"q\\\"}]\""));
	ck_assert(slice_is(&v[S_B], PROFDB_J_NUMBER, "-1.5e3"));
	ck_assert(slice_is(&v[S_ARGS], PROFDB_J_OBJECT, "{ \"y\" : [[2], {\"x\": 3}] , \"w\": null }"));
	ck_assert_int_eq(a[T_X].type, PROFDB_J_NONE); /* x was in the first args only */
	ck_assert(slice_is(&a[T_Y], PROFDB_J_ARRAY, "[[2], {\"x\": 3}]"));
	/* a last args that is not an object leaves no sub-members */
	t = "{\"args\": {\"x\": 1}, \"args\": [1]}";
	ck_assert_uint_eq(profdb__json_pick(t, strlen(t), &spec, v, a), strlen(t));
	ck_assert(slice_is(&v[S_ARGS], PROFDB_J_ARRAY, "[1]"));
	ck_assert_int_eq(a[T_X].type, PROFDB_J_NONE);
	/* empty objects; literals */
	ck_assert_uint_eq(profdb__json_pick("{}", 2, &spec, v, a), 2);
	ck_assert_int_eq(v[S_A].type, PROFDB_J_NONE);
	t = "{\"a\": null, \"b\": false, \"args\": { }}";
	ck_assert_uint_eq(profdb__json_pick(t, strlen(t), &spec, v, a), strlen(t));
	ck_assert_int_eq(v[S_A].type, PROFDB_J_NULL);
	ck_assert_int_eq(v[S_B].type, PROFDB_J_FALSE);
	ck_assert(slice_is(&v[S_ARGS], PROFDB_J_OBJECT, "{ }"));
	/* long white space runs (a new line and a deep indent) anywhere */
	t = "{\r\n                      \"a\"\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t:\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n\n 1"
	    "                                 ,\"b\":2                 }";
	ck_assert_uint_eq(profdb__json_pick(t, strlen(t), &spec, v, a), strlen(t));
	ck_assert(slice_is(&v[S_A], PROFDB_J_NUMBER, "1"));
	ck_assert(slice_is(&v[S_B], PROFDB_J_NUMBER, "2"));
	/* a key with an escape is not the plain key */
	t = "{\"\\u0061\": 1}";
	ck_assert_uint_eq(profdb__json_pick(t, strlen(t), &spec, v, a), strlen(t));
	ck_assert_int_eq(v[S_A].type, PROFDB_J_NONE);
}
END_TEST

START_TEST(pick_index)
{
	/* keys that share a bucket (same length, first and last byte) are all
	 * found by probing; a key that is not there is not; one key past
	 * PROFDB_JSON_PICK_MAX is too many */
	static const struct profdb__json_key many[] = {
		{ "aXa", 3, 0 }, { "aYa", 3, 1 }, { "aZa", 3, 2 }, { "b", 1, 3 },
	};
	static const char *const names[] = { "aXa", "aYa", "aZa", "b", "aWa", "bb" };
	struct profdb__json_key lots[PROFDB_JSON_PICK_MAX + 1];
	struct profdb__json_pick sp = { many, 4, 4, -1, NULL, 0, 0, { { 0 } } };
	struct profdb__jval v[4];
	char t[64];
	ck_assert_int_eq(profdb__json_pick_init(&sp), 0);
	for (int i = 0; i < 6; i++) {
		snprintf(t, sizeof t, "{\"%s\": %d}", names[i], i);
		ck_assert_uint_eq(profdb__json_pick(t, strlen(t), &sp, v, NULL), strlen(t));
		for (int j = 0; j < 4; j++)
			ck_assert_int_eq(v[j].type, j == i ? PROFDB_J_NUMBER : PROFDB_J_NONE);
	}
	for (int i = 0; i <= PROFDB_JSON_PICK_MAX; i++)
		lots[i] = (struct profdb__json_key){ "k", 1, 0 };
	sp.keys = lots;
	sp.nkeys = PROFDB_JSON_PICK_MAX;
	ck_assert_int_eq(profdb__json_pick_init(&sp), 0);
	sp.nkeys = PROFDB_JSON_PICK_MAX + 1;
	ck_assert_int_eq(profdb__json_pick_init(&sp), -1);
}
END_TEST

START_TEST(pick_refuses)
{
	/* 0 means "take the general path": whatever could be read differently */
	static const char *const cases[] = {
		"{\"a\": [1}}",             /* member walks count brackets; scan refuses this */
		"{\"args\": {\"x\": [1}}}", /* the same inside the walked object */
		"{\"a\": 1",                 /* the window ends before the object */
		"{\"a\": 12",                /* ... inside a number that may go on */
		"{\"a\": \"x\\\"}",          /* ... inside a string */
		"{\"a\" 1}", "{1: 2}", "{\"a\": 1 \"b\": 2}", "{\"a\": 1,}", "{,}", "[1]", "\"a\"",
		"{\"args\": {\"x\" 1}}",     /* a malformed walked object */
		"{\"a\": }", "{\"a\": ]}", "",
	};
	struct profdb__jval v[NS], a[NT];
	char deep[256];
	size_t n = 0;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
		ck_assert_msg(profdb__json_pick(cases[i], strlen(cases[i]), &spec, v, a) == 0, "case %zu", i);
	/* nesting: 64 levels inside a member are picked, 65 are left to the scan */
	n = (size_t)snprintf(deep, sizeof deep, "{\"a\": ");
	memset(deep + n, '[', 64), n += 64;
	memset(deep + n, ']', 64), n += 64;
	deep[n++] = '}';
	ck_assert_uint_eq(profdb__json_pick(deep, n, &spec, v, a), n);
	ck_assert_uint_eq(v[S_A].n, 128);
	n = (size_t)snprintf(deep, sizeof deep, "{\"a\": ");
	memset(deep + n, '[', 65), n += 65;
	memset(deep + n, ']', 65), n += 65;
	deep[n++] = '}';
	ck_assert_uint_eq(profdb__json_pick(deep, n, &spec, v, a), 0);
}
END_TEST

/* Independent reference for where the value at t[0] ends: brackets matched
 * by kind outside strings, a backslash escaping the next byte.  0: none. */
static size_t ref_end(const char *t, size_t n)
{
	char stack[4096];
	size_t depth = 0;
	int in_str = 0;
	for (size_t i = 0; i < n; i++) {
		char c = t[i];
		if (in_str) {
			if (c == '\\')
				i++;
			else if (c == '"')
				in_str = 0;
		} else if (c == '"') {
			in_str = 1;
		} else if (c == '{' || c == '[') {
			if (depth == sizeof stack)
				return 0;
			stack[depth++] = c == '{' ? '}' : ']';
		} else if (c == '}' || c == ']') {
			if (depth == 0 || stack[depth - 1] != c)
				return 0;
			if (--depth == 0)
				return i + 1;
		}
	}
	return 0;
}

/* What member walks give for t[0..n): the contract profdb__json_pick keeps. */
static int walk_pick(const char *t, size_t n, const struct profdb__json_key *keys, size_t nkeys,
                     struct profdb__jval *v, size_t nslots)
{
	struct profdb__jval k, val;
	size_t pos = 0;
	int rc;
	for (size_t i = 0; i < nslots; i++)
		v[i].type = PROFDB_J_NONE;
	while ((rc = profdb__json_member(t, n, &pos, &k, &val)) == 1)
		for (size_t i = 0; i < nkeys; i++)
			if (k.n == keys[i].len + 2 && memcmp(k.p + 1, keys[i].name, keys[i].len) == 0)
				v[keys[i].slot] = val;
	return rc;
}

static unsigned rnd(unsigned long long *st, unsigned n)
{
	*st = *st * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(*st >> 33) % n;
}

/* A random value: objects with the picked keys and others, strings with
 * escapes and brackets, numbers, literals, nesting up to depth 70. */
static void gen_value(unsigned long long *st, char *o, size_t *n, size_t cap, int depth)
{
	static const char *const keys[] = { "\"a\"", "\"b\"", "\"bb\"", "\"args\"", "\"x\"", "\"y\"", "\"z\"", "\"\"" };
	static const char *const scalars[] = { "1", "-2.5e3", "true", "false", "null", "NaN",
	                                       "\"s\"", "\"}]\\\"[{\"", "\"\\\\\"", "\"\"", "\"0123456789abcdefghij\"" };
	static const char *const ws[] = { "", " ", "\n\t", "\r\n\t                    " };
	unsigned kind = depth > 70 ? 2 : rnd(st, 5);
	if (*n + 64 >= cap)
		kind = 2;
	if (kind == 0 || kind == 1) {
		unsigned k = rnd(st, 5);
		o[(*n)++] = kind == 0 ? '{' : '[';
		for (unsigned i = 0; i < k && *n + 64 < cap; i++) {
			const char *w = ws[rnd(st, 4)];
			if (i)
				o[(*n)++] = ',';
			memcpy(o + *n, w, strlen(w)), *n += strlen(w);
			if (kind == 0) {
				const char *key = keys[rnd(st, 8)];
				memcpy(o + *n, key, strlen(key)), *n += strlen(key);
				memcpy(o + *n, w, strlen(w)), *n += strlen(w);
				o[(*n)++] = ':';
			}
			gen_value(st, o, n, cap, depth + 1 + (rnd(st, 8) == 0 ? 20 : 0));
		}
		o[(*n)++] = kind == 0 ? '}' : ']';
	} else {
		const char *sc = scalars[rnd(st, 11)];
		memcpy(o + *n, sc, strlen(sc)), *n += strlen(sc);
	}
}

START_TEST(pick_agrees_with_member_walks)
{
	unsigned long long st = 42;
	static char t[8192];
	size_t picked = 0, whole_ok = 0;
	for (int iter = 0; iter < 20000; iter++) {
		struct profdb__jval v[NS], a[NT], rv[NS], ra[NT];
		size_t n = 0, end, ref;
		int mutate = iter % 2;
		/* an object; half of them then get one byte changed or dropped */
		t[n++] = '{';
		for (unsigned i = 0, k = rnd(&st, 6); i < k && n < 4096; i++) {
			static const char *const keys[] = { "\"a\":", "\"b\" :", "\"args\": ", "\"bb\":", "\"q\":" };
			const char *key = keys[rnd(&st, 5)];
			if (i)
				t[n++] = ',';
			memcpy(t + n, key, strlen(key)), n += strlen(key);
			gen_value(&st, t, &n, 6000, 1);
		}
		t[n++] = '}';
		if (mutate) {
			static const char junk[] = "{}[]\",: \\1";
			size_t at = rnd(&st, (unsigned)n);
			if (rnd(&st, 2))
				t[at] = junk[rnd(&st, sizeof junk - 1)];
			else
				memmove(t + at, t + at + 1, n - at - 1), n--;
		}
		end = profdb__json_pick(t, n, &spec, v, a);
		ref = ref_end(t, n);
		if (!mutate && ref == n && end == 0) {
			/* well-formed: refused only for nesting deeper than 64 */
			int d = 0, maxd = 0, in_str = 0;
			for (size_t i = 0; i < n; i++) {
				if (in_str) {
					if (t[i] == '\\') i++;
					else if (t[i] == '"') in_str = 0;
				} else if (t[i] == '"') in_str = 1;
				else if (t[i] == '{' || t[i] == '[') { if (++d > maxd) maxd = d; }
				else if (t[i] == '}' || t[i] == ']') d--;
			}
			ck_assert_msg(maxd > 65, "iteration %d: well-formed object refused", iter);
		}
		if (!mutate && ref == n)
			whole_ok++;
		if (end == 0)
			continue;
		picked++;
		/* picked: the scan would end there, and member walks agree */
		ck_assert_uint_eq(end, ref);
		ck_assert_int_eq(walk_pick(t, end, top_keys, 4, rv, NS), 0);
		for (int i = 0; i < NS; i++) {
			ck_assert_int_eq(v[i].type, rv[i].type);
			if (v[i].type)
				ck_assert(v[i].p == rv[i].p && v[i].n == rv[i].n);
		}
		for (int i = 0; i < NT; i++)
			ra[i].type = PROFDB_J_NONE;
		if (rv[S_ARGS].type == PROFDB_J_OBJECT)
			ck_assert_int_eq(walk_pick(rv[S_ARGS].p, rv[S_ARGS].n, sub_keys, 2, ra, NT), 0);
		for (int i = 0; i < NT; i++) {
			ck_assert_int_eq(a[i].type, ra[i].type);
			if (a[i].type)
				ck_assert(a[i].p == ra[i].p && a[i].n == ra[i].n);
		}
		/* cut anywhere before its end, it is refused */
		ck_assert_uint_eq(profdb__json_pick(t, rnd(&st, (unsigned)end), &spec, v, a), 0);
	}
	/* not vacuous: most objects went the one-pass way */
	ck_assert_uint_gt(whole_ok, 9000);
	ck_assert_uint_gt(picked, 9000);
}
END_TEST

START_TEST(value_pick_at_every_boundary)
{
	/* picked in the window or, when a refill cuts it, after the scan: the
	 * same slices either way; non-objects and malformed ones are left */
	const char *in = "[{\"a\": \"x\", \"args\": {\"y\": [1, 2]}}, 7, {\"b\": 1 \"a\": 2},"
	                 " {\"bb\": \"}\", \"args\": {\"x\": {\"y\": 3}}}]";
	for (size_t chunk = 1; chunk <= strlen(in) + 1; chunk++) {
		struct mem_src m = { in, strlen(in), 0, chunk };
		struct profdb__json_scan s;
		struct profdb_err err = { 0 };
		struct profdb__jval v[NS], a[NT];
		const char *text;
		size_t len;
		int picked;
		ck_assert_int_eq(profdb__json_scan_init(&s, mem_read, &m, "t.json", &err), PROFDB_OK);
		ck_assert_int_eq(profdb__json_peek(&s), '[');
		profdb__json_advance(&s);
		ck_assert_int_eq(profdb__json_value_pick(&s, &spec, v, a, &text, &len, &picked), PROFDB_OK);
		ck_assert_int_eq(picked, 1);
		ck_assert(slice_is(&v[S_A], PROFDB_J_STRING, "\"x\""));
		ck_assert(slice_is(&a[T_Y], PROFDB_J_ARRAY, "[1, 2]"));
		ck_assert_uint_eq(len, strlen("{\"a\": \"x\", \"args\": {\"y\": [1, 2]}}"));
		ck_assert_int_eq(profdb__json_peek(&s), ',');
		profdb__json_advance(&s);
		ck_assert_int_eq(profdb__json_value_pick(&s, &spec, v, a, &text, &len, &picked), PROFDB_OK);
		ck_assert_int_eq(picked, 0);
		ck_assert(len == 1 && text[0] == '7');
		ck_assert_int_eq(profdb__json_peek(&s), ',');
		profdb__json_advance(&s);
		ck_assert_int_eq(profdb__json_value_pick(&s, &spec, v, a, &text, &len, &picked), PROFDB_OK);
		ck_assert_int_eq(picked, 0);
		ck_assert_uint_eq(len, strlen("{\"b\": 1 \"a\": 2}"));
		ck_assert_int_eq(profdb__json_peek(&s), ',');
		profdb__json_advance(&s);
		ck_assert_int_eq(profdb__json_value_pick(&s, &spec, v, a, &text, &len, &picked), PROFDB_OK);
		ck_assert_int_eq(picked, 1);
		ck_assert(slice_is(&v[S_B], PROFDB_J_STRING, "\"}\""));
		ck_assert(slice_is(&a[T_X], PROFDB_J_OBJECT, "{\"y\": 3}"));
		ck_assert_int_eq(a[T_Y].type, PROFDB_J_NONE); /* not a member of args itself */
		ck_assert_int_eq(profdb__json_peek(&s), ']');
		profdb__json_scan_free(&s);
	}
}
END_TEST

START_TEST(compact)
{
	/* white space goes outside strings only; an escaped quote does not end one */
	const char *raw = "[ \"a b\" ,\t\"c\\\" d\" ,\n {\"k\" : [1, 2]} ]";
	struct profdb__jval v = { PROFDB_J_ARRAY, raw, strlen(raw) };
	char buf[64];
	ck_assert_uint_eq(profdb__json_compact(&v, buf, sizeof buf), 27);
	ck_assert_str_eq(buf, "[\"a b\",\"c\\\" d\",{\"k\":[1,2]}]");
	/* a short buffer: cut, still a C string */
	ck_assert_uint_eq(profdb__json_compact(&v, buf, 5), 4);
	ck_assert_str_eq(buf, "[\"a ");
	/* a string left open runs to the end */
	v = (struct profdb__jval){ PROFDB_J_ARRAY, "[\"x \\", 5 };
	ck_assert_uint_eq(profdb__json_compact(&v, buf, sizeof buf), 5);
	ck_assert_str_eq(buf, "[\"x \\");
}
END_TEST

int main(void)
{
	Suite *s = suite_create("json_scan");
	TCase *tc = tcase_create("scan");
	SRunner *sr;
	int failed;
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, strings_with_escapes_and_brackets);
	tcase_add_test(tc, numbers_in_every_form);
	tcase_add_test(tc, truncated_input);
	tcase_add_test(tc, mismatched_brackets);
	tcase_add_test(tc, deep_nesting);
	tcase_add_test(tc, long_values);
	tcase_add_test(tc, long_strings_cut);
	suite_add_tcase(s, tc);
	tc = tcase_create("extract");
	tcase_add_test(tc, members);
	tcase_add_test(tc, decode);
	tcase_add_test(tc, compact);
	suite_add_tcase(s, tc);
	tc = tcase_create("pick");
	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, spec_ready, NULL);
	tcase_add_test(tc, pick_by_hand);
	tcase_add_test(tc, pick_index);
	tcase_add_test(tc, pick_refuses);
	tcase_add_test(tc, pick_agrees_with_member_walks);
	tcase_add_test(tc, value_pick_at_every_boundary);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

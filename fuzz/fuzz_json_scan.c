/*
 * fuzz_json_scan.c - fuzz the streaming JSON scanner (lib/read/json_scan.c) and
 * its in-place extractor: walk the input the way the Kineto reader does
 * (step into containers, capture or skip each value), with the source
 * handing out odd-sized chunks so values straddle window refills, then
 * take every captured value apart member by member.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "read/json_scan.h"

#define MAX_WALK_DEPTH 48      /* the harness recurses; the scanner does not */
#define MAX_VALUE (64u << 10)  /* a small capture limit, so the fuzzer can reach it */

struct mem_src {
	const uint8_t *p;          /* the input */
	size_t n, off;             /* its size, bytes handed out */
	size_t chunk;              /* most bytes per read */
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

static void walk(const struct profdb__jval *v, int depth);

static void walk_string(const struct profdb__jval *v)
{
	char *out = malloc(v->n + 1);
	size_t got;
	if (!out)
		fuzz_die("out of memory");
	got = profdb__json_str_decode(v, out, v->n + 1);
	if (got > v->n || out[got] != '\0')
		fuzz_die("str_decode wrote past what it returned");
	free(out);
	(void)profdb__json_str_is(v, "traceEvents");
}

static void walk(const struct profdb__jval *v, int depth)
{
	struct profdb__jval key, val;
	size_t pos = 0;
	int rc;

	if (depth > MAX_WALK_DEPTH)
		return;
	switch (v->type) {
	case PROFDB_J_STRING:
		walk_string(v);
		break;
	case PROFDB_J_OBJECT:
		while ((rc = profdb__json_member(v->p, v->n, &pos, &key, &val)) == 1) {
			if (pos > v->n)
				fuzz_die("member position past the object");
			walk_string(&key);
			walk(&val, depth + 1);
		}
		if (rc != 0 && rc != -1)
			fuzz_die("member returned an unknown code");
		break;
	case PROFDB_J_ARRAY:
		while ((rc = profdb__json_element(v->p, v->n, &pos, &val)) == 1) {
			if (pos > v->n)
				fuzz_die("element position past the array");
			walk(&val, depth + 1);
		}
		if (rc != 0 && rc != -1)
			fuzz_die("element returned an unknown code");
		break;
	default:
		break;
	}
}

/* Type of a captured value from its first byte, as the reader would see it. */
static int type_of(const char *p, size_t n)
{
	if (n == 0)
		return PROFDB_J_NONE;
	switch (p[0]) {
	case '"': return PROFDB_J_STRING;
	case '{': return PROFDB_J_OBJECT;
	case '[': return PROFDB_J_ARRAY;
	case 't': return PROFDB_J_TRUE;
	case 'f': return PROFDB_J_FALSE;
	case 'n': return PROFDB_J_NULL;
	default: return PROFDB_J_NUMBER;
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profdb__json_scan s;
	struct profdb_err err = { 0 };
	struct mem_src m = { data, size, 0, 1 + size % 61 };
	size_t values = 0;
	uint64_t before;
	int rc = PROFDB_OK;

	if (profdb__json_scan_init(&s, mem_read, &m, "fuzz.json", &err) != PROFDB_OK)
		fuzz_die("scan_init failed");
	s.max_value = MAX_VALUE;
	for (;;) {
		int c = profdb__json_peek(&s);
		if (c == PROFDB_JSON_END)
			break;
		if (c == PROFDB_JSON_FAIL) {
			rc = err.code ? err.code : PROFDB_ERROR;
			break;
		}
		if (c < 0 || c > 255)
			fuzz_die("peek returned an unknown code");
		if (strchr("{}[],:", c)) {
			/* structure: step into it, as the reader does with the top level */
			profdb__json_advance(&s);
			continue;
		}
		before = profdb__json_offset(&s);
		if (values++ % 3 == 2) {
			rc = profdb__json_skip(&s);
		} else {
			const char *p = NULL;
			size_t n = 0;
			rc = profdb__json_value(&s, &p, &n);
			if (rc == PROFDB_OK) {
				struct profdb__jval v;
				if (n > MAX_VALUE || (n && !p))
					fuzz_die("value over the capture limit");
				v.type = type_of(p, n);
				v.p = p;
				v.n = n;
				walk(&v, 0);
			}
		}
		if (rc != PROFDB_OK)
			break;
		/* a value that consumed nothing: the harness would spin, not the scanner */
		if (profdb__json_offset(&s) == before)
			break;
	}
	if (profdb__json_offset(&s) > size)
		fuzz_die("offset past the end of the input");
	fuzz_check_error(rc, err.msg);
	profdb__json_scan_free(&s);
	return 0;
}

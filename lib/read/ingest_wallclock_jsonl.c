/*
 * ingest_wallclock_jsonl.c - the JSON-lines form of the wall-clock CSV
 * (ingest_wallclock_csv.c): one object per line,
 *
 *   {"api": "torch.matmul", "backend": "cpu", "repeat": 1, "elapsed_us": 812.5}
 *
 * with the same rules: "api" (a string) and "elapsed_us" (a number, µs)
 * required, "repeat" (an integer) optional, every other string, number or
 * boolean member a tag of the run with one value in the whole file.
 * Blank lines are ignored; a line that is not one JSON object is an error
 * naming the line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench.h"
#include "banned.h"

/* The tags of one line: members other than api, elapsed_us and repeat. */
static int line_tags(struct profdb__bench_out *o, const struct profdb__jval *obj, int64_t line)
{
	struct profdb__jval k, v;
	size_t pos = 0;
	int e;
	while ((e = profdb__json_member(obj->p, obj->n, &pos, &k, &v)) == 1) {
		char *key, *val;
		int oom = 0, rc;
		if (profdb__json_str_is(&k, "api") || profdb__json_str_is(&k, "elapsed_us") ||
		    profdb__json_str_is(&k, "repeat"))
			continue;
		key = profdb__bench_jtext(&k, &oom);
		val = key ? profdb__bench_jtext(&v, &oom) : NULL;
		rc = oom ? profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory") :
		     val && *val ? profdb__bench_tag(o, key, val, line, "line") : PROFDB_OK;
		free(key);
		free(val);
		if (rc != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}

static int one_line(struct profdb__bench_out *o, const char *p, size_t n, int64_t line)
{
	struct profdb__jval obj = { PROFDB_J_OBJECT, p, n }, api, el, rep;
	int64_t ns, r = PROFDB_NULL;
	char *name;
	int oom = 0, rc, e;
	long bad = profdb__bench_jobject_bad(p, n);

	if (bad >= 0)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s:%lld: not one JSON object"
		                       " (column %ld)", o->path, (long long)line, bad + 1);
	if ((rc = line_tags(o, &obj, line)) != PROFDB_OK)
		return rc;
	if (profdb__bench_jget(&obj, "api", &api, NULL) != 1 || api.type != PROFDB_J_STRING || api.n <= 2)
		return profdb__bench_skip(o, "no api", line);
	if (profdb__bench_jget(&obj, "elapsed_us", &el, NULL) != 1 || el.type != PROFDB_J_NUMBER ||
	    (e = profdb__bench_parse_ns(el.p, el.n, 3, &ns)) == -1)
		return profdb__bench_skip(o, "elapsed_us is not a number in range", line);
	if (e == -2)
		return profdb__bench_skip(o, "negative elapsed_us", line);
	if (profdb__bench_jget(&obj, "repeat", &rep, NULL) == 1 &&
	    (rep.type != PROFDB_J_NUMBER || profdb__parse_i64(rep.p, rep.n, &r) != 0))
		return profdb__bench_skip(o, "repeat is not an integer", line);
	if (!(name = profdb__bench_jtext(&api, &oom)))
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	rc = profdb__bench_repeat(o, name, r, ns, line);
	free(name);
	return rc;
}

static int read_results(const struct profdb_reader_ctx *ctx)
{
	struct profdb__bench_out o;
	struct profdb_input *in = NULL;
	char *buf = NULL;
	size_t len = 0, at = 0;
	int64_t line = 0;
	int rc = PROFDB_OK;

	if ((rc = profdb__bench_begin(&o, ctx, "wallclock_jsonl", &in, &buf, &len)) != PROFDB_OK)
		return rc;
	while (at < len && rc == PROFDB_OK) {
		const char *nl = memchr(buf + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - buf) : len, s = at, e = end;
		line++;
		while (s < e && (buf[s] == ' ' || buf[s] == '\t' || buf[s] == '\r'))
			s++;
		while (e > s && (buf[e - 1] == ' ' || buf[e - 1] == '\t' || buf[e - 1] == '\r'))
			e--;
		if (e > s)
			rc = one_line(&o, buf + s, e - s, line);
		at = end + 1;
	}
	free(buf);
	return profdb__bench_end(&o, in, rc);
}

/* JSON lines naming an api and its elapsed_us (ingest_bench.c).  Read only
 * when named, as the CSV form. */
static int sniff(const struct profdb_sniff *s)
{
	return profdb__bench_sniff(s, &profdb__reader_wallclock_jsonl);
}

const struct profdb_reader profdb__reader_wallclock_jsonl = {
	.name = "wallclock_jsonl", .label = "wallclock_jsonl", .sniff = sniff,
	.read = read_results,
	.flags = 0,
};

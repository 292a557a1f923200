/*
 * ingest_bench.c - what the wall-clock benchmark readers share: loading a
 * result file whole (they are small: one line per benchmark or repeat),
 * one timed repeat as a kernel row of kind wallclock, summary-only
 * statistics and the file's own tags (see bench.h; doc/benchmarks.md "Operator
 * benchmarks" for the definitions).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cjson/cJSON.h>

#include "bench.h"
#include "banned.h"

int profdb__bench_parse_ns(const char *s, size_t n, int scale_exp, int64_t *out)
{
	if (profdb__parse_ns(s, n, scale_exp, out) != 0)
		return -1;
	return *out < 0 ? -2 : 0;
}

static int load(struct profdb__bench_out *o, struct profdb_input *in, char **buf, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	char *b = malloc(cap + 1);
	long got;
	if (!b)
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	for (;;) {
		if (n == cap) {
			char *nb;
			if (cap >= PROFDB_BENCH_MAX_BYTES) {
				free(b);
				return profdb__err_set(o->ctx->err, PROFDB_EFORMAT,
				    "%s: larger than %zu MiB: not a benchmark result file", o->path,
				    PROFDB_BENCH_MAX_BYTES >> 20);
			}
			nb = realloc(b, cap * 2 + 1);
			if (!nb) {
				free(b);
				return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
			}
			b = nb;
			cap *= 2;
		}
		got = profdb__input_read(in, b + n, cap - n, o->ctx->err);
		if (got < 0) {
			free(b);
			return o->ctx->err->code;
		}
		if (got == 0)
			break;
		n += (size_t)got;
	}
	if (memchr(b, '\0', n)) {
		size_t at = (size_t)((const char *)memchr(b, '\0', n) - b);
		free(b);
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %zu: NUL byte: binary data",
		                       o->path, at);
	}
	b[n] = '\0';
	*buf = b;
	*len = n;
	return PROFDB_OK;
}

int profdb__bench_begin(struct profdb__bench_out *o, const struct profdb_reader_ctx *ctx, const char *role,
                        struct profdb_input **in, char **buf, size_t *len)
{
	struct profdb_sink *s = ctx->sink;
	int rc;
	memset(o, 0, sizeof *o);
	o->ctx = ctx;
	o->path = ctx->path;
	o->rank = ctx->rank != PROFDB_NULL ? ctx->rank : 0;
	*in = NULL;
	if (buf)
		*buf = NULL;
	if ((rc = profdb__input_open(in, ctx->path, ctx->limits->gzip_max_bytes, ctx->err)) != PROFDB_OK)
		return rc;
	if (buf && (rc = load(o, *in, buf, len)) != PROFDB_OK)
		goto fail;
	if ((rc = profdb__sink_source_begin(s, ctx->path, role, o->rank, NULL, 0)) != PROFDB_OK)
		goto fail;
	return PROFDB_OK;
fail:
	if (buf) {
		free(*buf);
		*buf = NULL;
	}
	profdb__input_close(*in);
	*in = NULL;
	return rc;
}

void profdb__bench_free(struct profdb__bench_out *o)
{
	for (size_t i = 0; i < o->napis; i++) {
		free(o->apis[i].name);
		free(o->apis[i].seen);
	}
	free(o->apis);
	for (size_t i = 0; i < o->ntags; i++) {
		free(o->tags[i].key);
		free(o->tags[i].value);
	}
	free(o->tags);
	free(o->tag_slot);
	o->apis = NULL;
	o->tags = NULL;
	o->tag_slot = NULL;
	o->napis = o->ntags = o->tags_cap = o->ntag_slots = 0;
}

static int cmp_seen(const void *a, const void *b)
{
	const struct profdb__bench_seen *x = a, *y = b;
	if (x->rep != y->rep)
		return x->rep < y->rep ? -1 : 1;
	return x->where < y->where ? -1 : x->where > y->where;
}

/*
 * A repeat number twice for one API: refused at the earliest line that
 * repeats one.  Each timed row is one repeat; two rows of one number would
 * be summed into one step, doubling that repeat's time in every per-step
 * figure while the API's mean stayed right.
 */
static int check_duplicates(struct profdb__bench_out *o)
{
	const struct profdb__bench_api *bad = NULL;
	struct profdb__bench_seen first = { 0, 0 }, again = { 0, INT64_MAX };
	for (size_t i = 0; i < o->napis; i++) {
		struct profdb__bench_api *a = &o->apis[i];
		qsort(a->seen, a->nseen, sizeof *a->seen, cmp_seen);
		for (size_t j = 1; j < a->nseen; j++)
			if (a->seen[j].rep == a->seen[j - 1].rep && a->seen[j].where < again.where) {
				bad = a;
				first = a->seen[j - 1];
				again = a->seen[j];
			}
	}
	if (!bad)
		return PROFDB_OK;
	return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s:%lld: repeat %lld of '%.200s' again"
	                       " (first at line %lld): each row is one repeat; number an API's repeats"
	                       " once each", o->path, (long long)again.where, (long long)again.rep,
	                       bad->name, (long long)first.where);
}

int profdb__bench_end(struct profdb__bench_out *o, struct profdb_input *in, int rc)
{
	struct profdb_sink *s = o->ctx->sink;
	char sha[65], note[PROFDB_ERRMAX];
	if (rc == PROFDB_OK)
		rc = check_duplicates(o);
	if (rc != PROFDB_OK) {
		profdb__input_close(in);
		profdb__bench_free(o);
		return rc;
	}
	profdb__input_sha256(in, sha);
	rc = profdb__sink_source_end(s, o->rows, sha, profdb__input_size(in));
	if (rc == PROFDB_OK && o->summaries) {
		snprintf(note, sizeof note, "%.300s: %lld benchmark(s) hold summary statistics only (mean,"
		         " stddev, rounds; no repeats): kept as such ('profdb apis'); their median and"
		         " percentiles cannot be exact", o->path, (long long)o->summaries);
		rc = profdb__sink_note(s, note);
	}
	if (o->ctx->progress)
		o->ctx->progress(o->ctx->progress_arg, profdb__input_size(in), profdb__input_size(in));
	profdb__input_close(in);
	profdb__bench_free(o);
	return rc;
}

/* The repeat counter of api, added if new; NULL out of memory. */
static struct profdb__bench_api *api_slot(struct profdb__bench_out *o, const char *api)
{
	struct profdb__bench_api *a;
	/* linear: a result file holds tens to hundreds of APIs */
	for (size_t i = 0; i < o->napis; i++)
		if (strcmp(o->apis[i].name, api) == 0)
			return &o->apis[i];
	a = realloc(o->apis, (o->napis + 1) * sizeof *a);
	if (!a)
		return NULL;
	o->apis = a;
	a += o->napis;
	a->name = strdup(api);
	if (!a->name)
		return NULL;
	a->repeats = 0;
	a->seen = NULL;
	a->nseen = 0;
	o->napis++;
	return a;
}

int profdb__bench_repeat(struct profdb__bench_out *o, const char *api, int64_t repeat, int64_t dur_ns,
                         int64_t where)
{
	struct profdb_sink *s = o->ctx->sink;
	struct profdb_kernel_rec k;
	struct profdb__bench_api *a = api_slot(o, api);
	struct profdb__bench_seen *seen;
	if (!a || !(seen = realloc(a->seen, (a->nseen + 1) * sizeof *seen)))
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	a->seen = seen;
	a->repeats++;
	profdb__kernel_rec_init(&k);
	k.rank = o->rank;
	k.name = api;
	k.kind = PROFDB_KIND_WALLCLOCK;
	k.step = repeat != PROFDB_NULL ? repeat : a->repeats;
	seen[a->nseen++] = (struct profdb__bench_seen){ k.step, where };
	k.start_ns = o->clock_ns;
	k.dur_ns = dur_ns;
	/* saturate: the synthetic clock only orders repeats */
	o->clock_ns = INT64_MAX - o->clock_ns > dur_ns ? o->clock_ns + dur_ns : INT64_MAX;
	o->rows++;
	return profdb__sink_kernel(s, &k);
}

static void add_num(cJSON *j, const char *key, double v, int present)
{
	if (present)
		cJSON_AddNumberToObject(j, key, v);
}

int profdb__bench_summary(struct profdb__bench_out *o, const char *api, const struct profdb__bench_stats *st)
{
	struct profdb_sink *s = o->ctx->sink;
	cJSON *j = cJSON_CreateObject();
	char *text = NULL;
	int rc;
	if (!j || !cJSON_AddStringToObject(j, "api", api))
		goto oom;
	add_num(j, "rounds", (double)st->rounds, st->rounds != PROFDB_NULL);
	add_num(j, "mean_ns", st->mean_ns, 1);
	add_num(j, "stddev_ns", st->stddev_ns, st->stddev_ns >= 0);
	add_num(j, "min_ns", (double)st->min_ns, st->min_ns != PROFDB_NULL);
	add_num(j, "max_ns", (double)st->max_ns, st->max_ns != PROFDB_NULL);
	add_num(j, "median_ns", st->median_ns, st->median_ns >= 0);
	if (!cJSON_AddStringToObject(j, "source", st->source))
		goto oom;
	text = cJSON_PrintUnformatted(j);
	cJSON_Delete(j);
	if (!text)
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	rc = profdb__sink_meta(s, PROFDB_NULL, "bench_summary", text);
	cJSON_free(text);
	o->summaries++;
	return rc;
oom:
	cJSON_Delete(j);
	return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
}

static size_t key_hash(const char *key)
{
	size_t h = 14695981039346656037u; /* FNV-1a */
	for (const unsigned char *p = (const unsigned char *)key; *p; p++)
		h = (h ^ *p) * 1099511628211u;
	return h;
}

/* The slot of key in o->tag_slot: the one holding it, or the empty one
 * where it goes. */
static size_t tag_slot_of(const struct profdb__bench_out *o, const char *key)
{
	size_t i = key_hash(key) & (o->ntag_slots - 1);
	while (o->tag_slot[i] && strcmp(o->tags[o->tag_slot[i] - 1].key, key) != 0)
		i = (i + 1) & (o->ntag_slots - 1);
	return i;
}

/* Room for one more tag, in the array and in the index (doubled, so adding
 * n tags costs O(n) in all); -1 out of memory. */
static int tag_room(struct profdb__bench_out *o)
{
	if (o->ntags == o->tags_cap) {
		size_t cap = o->tags_cap ? 2 * o->tags_cap : 16;
		struct profdb__bench_tag *t = realloc(o->tags, cap * sizeof *t);
		if (!t)
			return -1;
		o->tags = t;
		o->tags_cap = cap;
	}
	if (2 * (o->ntags + 1) > o->ntag_slots) {
		size_t n = o->ntag_slots ? 2 * o->ntag_slots : 64;
		size_t *old = o->tag_slot, nold = o->ntag_slots;
		if (!(o->tag_slot = calloc(n, sizeof *o->tag_slot))) {
			o->tag_slot = old;
			return -1;
		}
		o->ntag_slots = n;
		for (size_t i = 0; i < nold; i++)
			if (old[i])
				o->tag_slot[tag_slot_of(o, o->tags[old[i] - 1].key)] = old[i];
		free(old);
	}
	return 0;
}

int profdb__bench_tag(struct profdb__bench_out *o, const char *key, const char *value, int64_t where,
                      const char *unit)
{
	struct profdb_sink *s = o->ctx->sink;
	struct profdb__bench_tag *t;
	char mkey[300];
	size_t slot = o->ntag_slots ? tag_slot_of(o, key) : 0;
	if (o->ntag_slots && o->tag_slot[slot]) {
		t = &o->tags[o->tag_slot[slot] - 1];
		if (strcmp(t->value, value) == 0)
			return PROFDB_OK;
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT,
		    "%s:%s%lld: '%s' is '%.80s' here but '%.80s' at %s %lld: a run has one value per tag;"
		    " split the file (one run per %s)", o->path, strcmp(unit, "line") ? " byte " : "",
		    (long long)where, key, value, t->value, unit, (long long)t->where, key);
	}
	if (strlen(key) > 200 || !*key)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s:%s%lld: tag name empty or too long",
		                       o->path, strcmp(unit, "line") ? " byte " : "", (long long)where);
	if (tag_room(o) != 0)
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	t = &o->tags[o->ntags];
	t->key = strdup(key);
	t->value = strdup(value);
	t->where = where;
	if (!t->key || !t->value) {
		free(t->key);
		free(t->value);
		return profdb__err_set(o->ctx->err, PROFDB_ERROR, "out of memory");
	}
	o->tag_slot[tag_slot_of(o, key)] = ++o->ntags;
	snprintf(mkey, sizeof mkey, "tag.%s", key);
	return profdb__sink_meta(s, PROFDB_NULL, mkey, value);
}

int profdb__bench_skip(struct profdb__bench_out *o, const char *reason, int64_t where)
{
	struct profdb_sink *s = o->ctx->sink;
	o->rows++;
	return profdb__sink_skip(s, reason, where);
}

/* Is the header line [p, e) a CSV header with an api column and an
 * elapsed_us column (names trimmed of blanks and double quotes)? */
static int csv_header_is_ours(const char *p, const char *e)
{
	int api = 0, elapsed = 0;
	while (p <= e) {
		const char *c = memchr(p, ',', (size_t)(e - p));
		const char *f = p, *fe = c ? c : e;
		while (f < fe && (*f == ' ' || *f == '"' || *f == '\t'))
			f++;
		while (fe > f && (fe[-1] == ' ' || fe[-1] == '"' || fe[-1] == '\r' || fe[-1] == '\t'))
			fe--;
		if ((size_t)(fe - f) == 3 && memcmp(f, "api", 3) == 0)
			api = 1;
		if ((size_t)(fe - f) == 10 && memcmp(f, "elapsed_us", 10) == 0)
			elapsed = 1;
		if (!c)
			break;
		p = c + 1;
	}
	return api && elapsed;
}

const struct profdb_reader *profdb__bench_detect(const char *buf, size_t n)
{
	size_t i = 0;
	const char *nl;
	while (i < n && (buf[i] == ' ' || buf[i] == '\t' || buf[i] == '\r' || buf[i] == '\n'))
		i++;
	if (i >= n || strstr(buf, "\"traceEvents\""))
		return NULL;
	nl = memchr(buf + i, '\n', n - i);
	if (buf[i] == '{') {
		/* JSON lines: the first line is a whole object naming an api and
		 * its elapsed time; a pretty-printed result file spans lines */
		if (nl && memchr(buf + i, '}', (size_t)(nl - buf - i))) {
			const char *a = strstr(buf + i, "\"api\""), *t = strstr(buf + i, "\"elapsed_us\"");
			if (a && t && a < nl && t < nl)
				return &profdb__reader_wallclock_jsonl;
		}
		if (!strstr(buf, "\"benchmarks\""))
			return NULL;
		if (strstr(buf, "\"machine_info\"") || strstr(buf, "\"commit_info\""))
			return &profdb__reader_pytest_benchmark;
		if (strstr(buf, "\"context\""))
			return &profdb__reader_gbench;
		return NULL;
	}
	if (buf[i] == '[' || !nl)
		return NULL;
	return csv_header_is_ours(buf + i, nl) ? &profdb__reader_wallclock_csv : NULL;
}

int profdb__bench_jget(const struct profdb__jval *obj, const char *key, struct profdb__jval *out,
                       const char **bad)
{
	struct profdb__jval k, v;
	size_t pos = 0;
	int found = 0, rc;
	if (obj->type != PROFDB_J_OBJECT)
		return 0;
	while ((rc = profdb__json_member(obj->p, obj->n, &pos, &k, &v)) == 1)
		if (profdb__json_str_is(&k, key)) {
			*out = v;
			found = 1;
		}
	if (rc < 0 && bad)
		*bad = obj->p + (pos < obj->n ? pos : obj->n);
	return rc < 0 ? -1 : found;
}

char *profdb__bench_jtext(const struct profdb__jval *v, int *oom)
{
	char *s;
	if (v->type != PROFDB_J_STRING && v->type != PROFDB_J_NUMBER && v->type != PROFDB_J_TRUE &&
	    v->type != PROFDB_J_FALSE)
		return NULL;
	s = malloc(v->n + 1);
	if (!s) {
		*oom = 1;
		return NULL;
	}
	if (v->type == PROFDB_J_STRING) {
		profdb__json_str_decode(v, s, v->n + 1);
	} else {
		memcpy(s, v->p, v->n);
		s[v->n] = '\0';
	}
	return s;
}

int profdb__bench_jdouble(const struct profdb__jval *v, double *out)
{
	if (v->type != PROFDB_J_NUMBER)
		return -1;
	return profdb__parse_double(v->p, v->n, out);
}

static size_t ws(const char *p, size_t n, size_t i)
{
	while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
		i++;
	return i;
}

long profdb__bench_jobject_bad(const char *p, size_t n)
{
	struct profdb__jval k, v;
	size_t start = ws(p, n, 0), pos = 0, last, i;
	int e;
	if (start >= n || p[start] != '{')
		return (long)start;
	/* the member walk stops at the end of the text as it does at a '}':
	 * where the last member ended must come the object's own '}' */
	last = start + 1;
	while ((e = profdb__json_member(p + start, n - start, &pos, &k, &v)) == 1)
		last = start + pos;
	if (e < 0)
		return (long)(start + pos);
	i = ws(p, n, last);
	if (i >= n || p[i] != '}')
		return (long)i;
	i = ws(p, n, i + 1);
	return i < n ? (long)i : -1;
}

/* The scanner's byte source over memory. */
struct memsrc {
	const char *p;
	size_t n, at;
};

static long mem_read(void *arg, void *buf, size_t n, struct profdb_err *err)
{
	struct memsrc *m = arg;
	(void)err;
	if (n > m->n - m->at)
		n = m->n - m->at;
	memcpy(buf, m->p + m->at, n);
	m->at += n;
	return (long)n;
}

int profdb__reader_is_bench(const struct profdb_reader *r)
{
	return r == &profdb__reader_wallclock_csv || r == &profdb__reader_wallclock_jsonl ||
	       r == &profdb__reader_pytest_benchmark || r == &profdb__reader_gbench;
}

int profdb__bench_sniff(const struct profdb_sniff *s, const struct profdb_reader *self)
{
	return profdb__bench_detect(s->buf, s->n) == self ? PROFDB_SNIFF_YES : PROFDB_SNIFF_NO;
}

int profdb__bench_jlist(struct profdb__bench_out *o, const char *buf, size_t len,
                        struct profdb__jval *top, struct profdb__jval *list)
{
	size_t i = 0;
	int rc;
	while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
		i++;
	*top = (struct profdb__jval){ PROFDB_J_OBJECT, buf + i, len - i };
	if ((rc = profdb__bench_jcheck_file(o, buf, len)) != PROFDB_OK)
		return rc;
	if (profdb__bench_jget(top, "benchmarks", list, NULL) != 1 || list->type != PROFDB_J_ARRAY)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: \"benchmarks\" is not an array",
		                       o->ctx->path);
	return PROFDB_OK;
}

int profdb__bench_jeach(struct profdb__bench_out *o, const char *buf, const struct profdb__jval *list,
                        int (*fn)(void *arg, const struct profdb__jval *b), void *arg)
{
	struct profdb__jval b;
	size_t pos = 0;
	int rc, e;
	while ((e = profdb__json_element(list->p, list->n, &pos, &b)) == 1)
		if ((rc = fn(arg, &b)) != PROFDB_OK)
			return rc;
	if (e < 0)
		return profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %lld: malformed \"benchmarks\" array",
		                       o->ctx->path, (long long)(list->p + pos - buf));
	return PROFDB_OK;
}

int profdb__bench_jcheck_file(struct profdb__bench_out *o, const char *buf, size_t len)
{
	struct profdb__json_scan s;
	struct memsrc m = { buf, len, 0 };
	int rc, c;
	if ((rc = profdb__json_scan_init(&s, mem_read, &m, o->path, o->ctx->err)) != PROFDB_OK)
		return rc;
	c = profdb__json_peek(&s);
	if (c == '{')
		rc = profdb__json_skip(&s);
	else if (c != PROFDB_JSON_FAIL)
		rc = profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %llu: expected a JSON object",
		                     o->path, (unsigned long long)profdb__json_offset(&s));
	else
		rc = o->ctx->err->code;
	if (rc == PROFDB_OK && (c = profdb__json_peek(&s)) != PROFDB_JSON_END)
		rc = c == PROFDB_JSON_FAIL ? o->ctx->err->code :
		     profdb__err_set(o->ctx->err, PROFDB_EFORMAT, "%s: byte %llu: text after the JSON object",
		                     o->path, (unsigned long long)profdb__json_offset(&s));
	profdb__json_scan_free(&s);
	return rc;
}

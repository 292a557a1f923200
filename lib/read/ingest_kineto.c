/*
 * ingest_kineto.c - one PyTorch Kineto / Chrome trace JSON file, plain or
 * gzip: an object with "traceEvents" (keys in any order) or a bare array of
 * events (legacy torch, torch_npu trace_view.json).  FORMATS.md section 5.
 *
 * Streaming: json_scan.c hands out one event at a time, kineto_event.c
 * reads its fields in place, so memory does not grow with the file.  Host
 * ops go to a sink that nests ops (the store: op_nest.c computes self and
 * device times when the file ends) as they are read; for other sinks
 * (tests' memory sinks) they and the device time per External id are kept
 * to the end (kineto_ops.c, O(host ops)) to compute those times here.
 *
 * Every record needs the file's rank and base time, which may be written
 * after "traceEvents" (distributedInfo and baseTimeNanoseconds at the end of
 * the object).  The file is read once: when both are not seen before
 * "traceEvents", kernels and launches go out with the rank and base time
 * known then (so do ops, for a sink that nests them; host steps are kept
 * to the end), and once the object has been read, if either changed, the
 * sink's rank_fixup moves them.  A
 * sink without rank_fixup (tests' memory sinks) gets the old way: a first
 * pass skips over the events to collect the top-level keys, a second pass
 * reads the events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kineto.h"
#include "banned.h"

/* The rank number in a file name: rank-0, rank_1, sampled_rank-1, worker3. */
static int64_t rank_from_name(const char *path)
{
	static const char *const words[] = { "rank", "worker" };
	const char *base = strrchr(path, '/');
	base = base ? base + 1 : path;
	for (size_t w = 0; w < sizeof words / sizeof words[0]; w++) {
		size_t wl = strlen(words[w]);
		for (const char *p = base; *p; p++) {
			const char *q = p + wl;
			int64_t v = 0;
			int digits = 0;
			if (strncmp(p, words[w], wl) != 0)
				continue;
			if (*q == '-' || *q == '_')
				q++;
			for (; *q >= '0' && *q <= '9' && digits < 9; q++, digits++)
				v = v * 10 + (*q - '0');
			if (digits)
				return v;
		}
	}
	return PROFDB_NULL;
}

/* Decide the rank from what has been read; note_it: say so when it is
 * only the file's place in the folder. */
static int decide_rank(struct profdb__kreader *r, int note_it)
{
	int64_t from_name = rank_from_name(r->path);
	if (r->dist_rank != PROFDB_NULL) {
		r->rank = r->dist_rank;
	} else if (from_name != PROFDB_NULL) {
		r->rank = from_name;
	} else if (r->ctx->rank != PROFDB_NULL) {
		char note[PROFDB_ERRMAX + 128];
		r->rank = r->ctx->rank;
		snprintf(note, sizeof note, "%s: no distributedInfo.rank and no rank in the file name:"
		         " rank %lld assigned by its place in the folder", r->path, (long long)r->rank);
		if (note_it && profdb__sink_note(r->sink, note) != PROFDB_OK)
			return r->err->code ? r->err->code : PROFDB_ERROR;
	} else {
		r->rank = 0;
	}
	return PROFDB_OK;
}

/* Decide the rank (or guess it: provisional) and open the source: before
 * the first record. */
static int begin_records(struct profdb__kreader *r, int provisional)
{
	int rc;
	if (r->begun)
		return PROFDB_OK;
	r->begun = 1;
	r->base_used = r->base_ns;
	r->provisional = provisional;
	if ((rc = decide_rank(r, !provisional)) != PROFDB_OK)
		return rc;
	return profdb__sink_source_begin(r->sink, r->path, "kineto_trace", r->rank, NULL, 0);
}

/* After the whole object: the real rank, and what to add to the times the
 * records were read with; moves the kernels and launches already sent. */
static int fix_rank(struct profdb__kreader *r, int64_t *time_off)
{
	int64_t guess = r->rank, off;
	int rc;
	*time_off = 0;
	if (!r->provisional)
		return PROFDB_OK;
	r->provisional = 0;
	if ((rc = decide_rank(r, 1)) != PROFDB_OK)
		return rc;
	off = r->base_ns - r->base_used;
	if (r->any_time && ((off > 0 && r->t_max > INT64_MAX - off) || (off < 0 && r->t_min < INT64_MIN - off)))
		return profdb__err_set(r->err, PROFDB_EFORMAT, "%s: baseTimeNanoseconds puts event times"
		                       " out of range", r->path);
	*time_off = off;
	if (guess == r->rank && off == 0)
		return PROFDB_OK;
	return r->sink->rank_fixup(r->sink->arg, guess, r->rank, off);
}

/* Host step spans held back while the rank or base time was a guess. */
static int send_held_steps(struct profdb__kreader *r, int64_t time_off)
{
	for (size_t i = 0; i < r->nhsteps && r->sink->step; i++) {
		struct profdb_step_rec s = r->hsteps[i];
		int rc;
		s.rank = r->rank;
		s.start_ns += time_off;
		s.end_ns += time_off;
		if ((rc = profdb__sink_step(r->sink, &s)) != PROFDB_OK)
			return rc;
	}
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- top level */

static long kread(void *arg, void *buf, size_t n, struct profdb_err *err)
{
	struct profdb__kreader *r = arg;
	long got = profdb__input_read(r->in, buf, n, err);
	if (got > 0 && r->ctx->progress) {
		uint64_t size = profdb__input_size(r->in), done = profdb__input_raw_offset(r->in);
		/* two passes: each counts for half of the file */
		if (r->two_pass)
			done = r->pass == 1 ? done / 2 : size / 2 + done / 2;
		r->ctx->progress(r->ctx->progress_arg, done > size ? size : done, size);
	}
	return got;
}

/* The elements of the traceEvents array (or of a bare array); provisional:
 * the rank and base time may still change (keys after the array). */
static int read_events(struct profdb__kreader *r, struct profdb__json_scan *js, int provisional)
{
	int c, rc;
	if ((rc = begin_records(r, provisional)) != PROFDB_OK)
		return rc;
	profdb__json_advance(js); /* '[' */
	c = profdb__json_peek(js);
	if (c == ']') {
		profdb__json_advance(js);
		return PROFDB_OK;
	}
	for (;;) {
		if ((rc = profdb__kineto_event(r, js)) != PROFDB_OK)
			return rc;
		c = profdb__json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		profdb__json_advance(js);
		if (c == ']')
			return PROFDB_OK;
		if (c != ',')
			return profdb__err_set(r->err, PROFDB_EFORMAT, "%s: byte %llu: %s", r->path,
			    (unsigned long long)profdb__json_offset(js),
			    c == PROFDB_JSON_END ? "truncated JSON: the event array is not closed"
			                         : "expected ',' or ']' after an event");
	}
}

static int add_meta(struct profdb__kreader *r, const char *key, const char *text, size_t len)
{
	struct profdb__jval v = { PROFDB_J_NONE, text, len };
	struct profdb__kmeta *m = realloc(r->meta, (r->nmeta + 1) * sizeof *m);
	size_t pos = 0;
	if (!m)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	r->meta = m;
	m += r->nmeta;
	m->key = strdup(key);
	m->value = malloc(len + 1);
	if (!m->key || !m->value) {
		free(m->key);
		free(m->value);
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	}
	profdb__json_compact(&v, m->value, len + 1);
	r->nmeta++;
	if (strcmp(key, "baseTimeNanoseconds") == 0) {
		int64_t b;
		if (profdb__parse_ns(text, len, 0, &b) == 0) {
			r->base_ns = b;
			r->have_base = 1;
		}
	} else if (strcmp(key, "distributedInfo") == 0) {
		struct profdb__jval k, val;
		r->have_dist = 1;
		while (profdb__json_member(text, len, &pos, &k, &val) == 1)
			if (profdb__json_str_is(&k, "rank"))
				r->dist_rank = profdb__kineto_jint(&val);
	}
	return PROFDB_OK;
}

static int bad(struct profdb__kreader *r, struct profdb__json_scan *js, const char *what)
{
	return profdb__err_set(r->err, PROFDB_EFORMAT, "%s: byte %llu: %s", r->path,
	                       (unsigned long long)profdb__json_offset(js), what);
}

/* The members of the top-level object; js is just past its '{'. */
static int read_object(struct profdb__kreader *r, struct profdb__json_scan *js)
{
	int c, rc, first = 1;
	char key[256];
	for (;;) {
		const char *text;
		size_t len;
		struct profdb__jval kv;
		c = profdb__json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		if (c == '}' && first) {
			profdb__json_advance(js);
			return PROFDB_OK;
		}
		if (c != '"')
			return bad(r, js, c == PROFDB_JSON_END ? "truncated JSON: the top-level object is not closed"
			                                       : "expected a key in the top-level object");
		if ((rc = profdb__json_value(js, &text, &len)) != PROFDB_OK)
			return rc;
		kv = (struct profdb__jval){ PROFDB_J_STRING, text, len };
		if (len > sizeof key) /* long keys are user metadata: keep a prefix */
			kv.n = sizeof key;
		profdb__json_str_decode(&kv, key, sizeof key);
		c = profdb__json_peek(js);
		if (c != ':')
			return c == PROFDB_JSON_FAIL ? r->err->code : bad(r, js, "expected ':' after a key");
		profdb__json_advance(js);
		c = profdb__json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		if (strcmp(key, "traceEvents") == 0 && r->events_done) {
			if ((rc = profdb__json_skip(js)) != PROFDB_OK) /* a repeated key: the first counts */
				return rc;
		} else if (strcmp(key, "traceEvents") == 0) {
			if (c != '[')
				return bad(r, js, "\"traceEvents\" is not an array");
			if (r->pass == 2 || (r->have_dist && r->have_base) || r->sink->rank_fixup) {
				int prov = r->pass == 1 && !(r->have_dist && r->have_base);
				if ((rc = read_events(r, js, prov)) != PROFDB_OK)
					return rc;
				r->events_done = 1;
				if (r->pass == 2)
					return PROFDB_OK; /* pass 1 has read the rest */
			} else {
				r->two_pass = 1;
				if ((rc = profdb__json_skip(js)) != PROFDB_OK)
					return rc;
			}
		} else if (r->pass == 1) {
			if ((rc = profdb__json_value(js, &text, &len)) != PROFDB_OK ||
			    (rc = add_meta(r, key, text, len)) != PROFDB_OK)
				return rc;
		} else if ((rc = profdb__json_skip(js)) != PROFDB_OK) {
			return rc;
		}
		first = 0;
		c = profdb__json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		profdb__json_advance(js);
		if (c == '}')
			return PROFDB_OK;
		if (c != ',')
			return bad(r, js, c == PROFDB_JSON_END ? "truncated JSON: the top-level object is not closed"
			                                       : "expected ',' or '}' in the top-level object");
	}
}

/* One pass over the file. */
static int read_pass(struct profdb__kreader *r, int pass)
{
	struct profdb__json_scan js;
	int rc, c;
	r->pass = pass;
	if ((rc = profdb__input_open(&r->in, r->path, r->ctx->limits->gzip_max_bytes, r->err)) != PROFDB_OK)
		return rc;
	/* the digest is pass 1's, unless the caller makes it (file_digests.c) */
	if (pass == 2 || r->ctx->hash_elsewhere)
		profdb__input_no_hash(r->in);
	if ((rc = profdb__json_scan_init(&js, kread, r, r->path, r->err)) != PROFDB_OK)
		goto out;
	c = profdb__json_peek(&js);
	if (c == '[') {
		rc = read_events(r, &js, 0);
		r->events_done = 1;
	} else if (c == '{') {
		profdb__json_advance(&js);
		rc = read_object(r, &js);
	} else if (c == PROFDB_JSON_FAIL) {
		rc = r->err->code;
	} else {
		rc = bad(r, &js, c == PROFDB_JSON_END ? "empty file" : "not a JSON object or array");
	}
	if (rc != PROFDB_OK || pass == 2)
		goto out;
	c = profdb__json_peek(&js);
	if (c != PROFDB_JSON_END) {
		rc = c == PROFDB_JSON_FAIL ? r->err->code : bad(r, &js, "data after the end of the JSON text");
		goto out;
	}
	if (!r->events_done && !r->two_pass) {
		rc = profdb__err_set(r->err, PROFDB_EFORMAT, "%s: no \"traceEvents\" array in the top-level object",
		                     r->path);
		goto out;
	}
	if (!r->ctx->hash_elsewhere)
		profdb__input_sha256(r->in, r->sha);
	r->size = profdb__input_size(r->in);
out:
	profdb__json_scan_free(&js);
	profdb__input_close(r->in);
	r->in = NULL;
	return rc;
}

/*
 * The device-side step spans go to the store as metadata (JSON
 * [[step, start_ns, end_ns], ...]): they are not host steps, only where
 * the store places kernels whose launch is not in the trace.
 */
static int send_device_steps(struct profdb__kreader *r, int64_t time_off)
{
	size_t cap = 2 + r->ndsteps * 72, n = 0;
	char *text;
	int rc;
	if (!r->ndsteps || !r->sink->meta)
		return PROFDB_OK;
	text = malloc(cap);
	if (!text)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	text[n++] = '[';
	for (size_t i = 0; i < r->ndsteps; i++)
		n += (size_t)snprintf(text + n, cap - n, "%s[%lld,%lld,%lld]", i ? "," : "",
		                      (long long)r->dsteps[i].step, (long long)(r->dsteps[i].start_ns + time_off),
		                      (long long)(r->dsteps[i].end_ns + time_off));
	text[n++] = ']';
	text[n] = '\0';
	rc = profdb__sink_meta(r->sink, r->rank, PROFDB_META_DEVICE_STEPS, text);
	free(text);
	return rc;
}

static int finish(struct profdb__kreader *r)
{
	struct profdb_sink *s = r->sink;
	int64_t off;
	int rc;
	/* ops and device steps are still here: they get the real rank and time */
	if ((rc = fix_rank(r, &off)) != PROFDB_OK)
		return rc;
	for (size_t i = 0; i < r->nmeta; i++)
		if ((rc = profdb__sink_meta(s, r->rank, r->meta[i].key, r->meta[i].value)) != PROFDB_OK)
			return rc;
	if ((rc = send_held_steps(r, off)) != PROFDB_OK ||
	    (rc = profdb__kops_emit(r->ops, r->rank, off, s)) != PROFDB_OK)
		return rc;
	if ((rc = send_device_steps(r, off)) != PROFDB_OK)
		return rc;
	if (r->coll_bad) {
		char note[PROFDB_ERRMAX + 160];
		snprintf(note, sizeof note, "%s: %lld collective args with a message size negative or past 2^48"
		         " elements: sizes left out (no bytes or bandwidth from them)", r->path, (long long)r->coll_bad);
		if (profdb__sink_note(s, note) != PROFDB_OK)
			return r->err->code ? r->err->code : PROFDB_ERROR;
	}
	return profdb__sink_source_end(s, r->nevents, r->ctx->hash_elsewhere ? NULL : r->sha, r->size);
}

static int read_trace(const struct profdb_reader_ctx *ctx)
{
	struct profdb__kreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.sink = ctx->sink;
	r.err = ctx->err;
	r.path = ctx->path;
	r.dist_rank = PROFDB_NULL;
	profdb__kineto_pick_init(&r.pick);
	if (profdb__kops_new(&r.ops) != PROFDB_OK)
		return profdb__err_set(ctx->err, PROFDB_ERROR, "out of memory");
	rc = read_pass(&r, 1);
	if (rc == PROFDB_OK && r.two_pass) {
		r.nevents = 0;
		rc = read_pass(&r, 2);
	}
	if (rc == PROFDB_OK)
		rc = finish(&r);
	for (size_t i = 0; i < r.nmeta; i++) {
		free(r.meta[i].key);
		free(r.meta[i].value);
	}
	free(r.meta);
	free(r.scratch);
	free(r.dsteps);
	free(r.hsteps);
	profdb__kops_free(r.ops);
	if (rc != PROFDB_OK && r.err->code == PROFDB_OK)
		profdb__err_set(r.err, rc, "%s: read failed", r.path);
	return rc;
}
/*
 * A Chrome trace: a JSON object with a "traceEvents" key, or an array of
 * events (objects with a "ph" or "ts" key, or none at all), maybe gzip.
 * torch_npu's trace_view.json is an array too: its row comes first.
 */
static int sniff(const struct profdb_sniff *s)
{
	const char *b = s->buf;
	size_t n = s->n, i = profdb__sniff_ws(b, n, 0), j;
	if (i >= n)
		return PROFDB_SNIFF_MORE;          /* only white space so far */
	if (b[i] == '{') {
		if (strstr(b, "\"traceEvents\""))
			return PROFDB_SNIFF_YES;
		snprintf(s->reason, s->cap, "JSON object without \"traceEvents\" in its first %u bytes: not a trace",
		         PROFDB_SNIFF_BYTES);
		return PROFDB_SNIFF_MORE;
	}
	if (b[i] != '[')
		return PROFDB_SNIFF_NO;
	j = profdb__sniff_ws(b, n, i + 1);
	if (j < n && (b[j] == ']' || (b[j] == '{' && (strstr(b, "\"ph\"") || strstr(b, "\"ts\"")))))
		return PROFDB_SNIFF_YES;
	snprintf(s->reason, s->cap, "JSON array that does not hold trace events");
	return j >= n || b[j] == '{' ? PROFDB_SNIFF_MORE : PROFDB_SNIFF_NO;
}

const struct profdb_reader profdb__reader_kineto = {
	.name = "kineto", .label = "kineto", .sniff = sniff, .read = read_trace,
	.flags = PROFDB_READER_WALK | PROFDB_READER_HASH_ELSEWHERE,
};

/*
 * ingest_kineto.c - one PyTorch Kineto / Chrome trace JSON file, plain or
 * gzip: an object with "traceEvents" (keys in any order) or a bare array of
 * events (legacy torch, torch_npu trace_view.json).  FORMATS.md section 5.
 *
 * Streaming: json_scan.c hands out one event at a time and the event's
 * fields are read in place, so memory does not grow with the file except
 * for the host ops (kineto_ops.c), kept to compute self times.
 *
 * Every record needs the file's rank and base time, which may be written
 * after "traceEvents" (distributedInfo and baseTimeNanoseconds at the end of
 * the object).  When both are seen before "traceEvents" the file is read
 * once; otherwise a first pass skips over the events (a cheap bracket scan)
 * to collect the top-level keys, and a second pass reads the events.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "json_scan.h"
#include "kineto_ops.h"
#include "banned.h"

#define STEP_PREFIX "ProfilerStep#"

/* What an event with ph "X" is to us, by its cat. */
enum ev_class { EV_OTHER = 0, EV_DEVICE, EV_OP, EV_LAUNCH, EV_GPU_STEP };

static const struct {
	const char *cat;
	int cls;                   /* enum ev_class */
	int kind;                  /* enum profdb_kind for EV_DEVICE */
} cat_table[] = {
	/* device activities, current names then the 2021 ones (torch 1.8/1.9) */
	{ "kernel", EV_DEVICE, PROFDB_KIND_KERNEL },
	{ "gpu_memcpy", EV_DEVICE, PROFDB_KIND_MEMCPY },
	{ "gpu_memset", EV_DEVICE, PROFDB_KIND_MEMSET },
	{ "mtia_ccp_events", EV_DEVICE, PROFDB_KIND_KERNEL },
	{ "Kernel", EV_DEVICE, PROFDB_KIND_KERNEL },
	{ "Memcpy", EV_DEVICE, PROFDB_KIND_MEMCPY },
	{ "Memset", EV_DEVICE, PROFDB_KIND_MEMSET },
	/* host operators; torch_npu trace_view uses cpu_op too */
	{ "cpu_op", EV_OP, 0 },
	{ "user_annotation", EV_OP, 0 },
	{ "Operator", EV_OP, 0 },
	/* runtime calls that launch device work (ROCm's hip* are cuda_runtime) */
	{ "cuda_runtime", EV_LAUNCH, 0 },
	{ "cuda_driver", EV_LAUNCH, 0 },
	{ "Runtime", EV_LAUNCH, 0 },
	{ "mtia_runtime", EV_LAUNCH, 0 },
	{ "privateuse1_runtime", EV_LAUNCH, 0 },
	{ "privateuse1_driver", EV_LAUNCH, 0 },
	{ "xpu_runtime", EV_LAUNCH, 0 },
	{ "xpu_driver", EV_LAUNCH, 0 },
	{ "mlu_runtime", EV_LAUNCH, 0 },
	/* the device-side copy of a step span: only its ProfilerStep#N is used */
	{ "gpu_user_annotation", EV_GPU_STEP, 0 },
};

struct meta_item {
	char *key, *value;         /* owned; value is compact JSON text */
};

struct kreader {
	const struct profdb_reader_ctx *ctx;
	struct profdb_sink *sink;
	struct profdb_err *err;
	const char *path;
	struct profdb_input *in;   /* the current pass's input */
	int pass;                  /* 1, or 2 for the events pass */
	int two_pass;              /* the events are read in pass 2 */
	int64_t rank;              /* decided when records start */
	int64_t dist_rank;         /* distributedInfo.rank, PROFDB_NULL if none */
	int have_dist, have_base;  /* the key was seen */
	int64_t base_ns;           /* baseTimeNanoseconds, 0 if none */
	struct meta_item *meta;
	size_t nmeta;
	struct profdb_kops *ops;
	char *scratch;             /* decoded strings of the current event */
	size_t scratch_cap, scratch_used;
	int64_t nevents;           /* elements of traceEvents seen */
	int events_done;           /* traceEvents has been read */
	int begun;                 /* source_begin sent */
	char sha[65];              /* of the raw bytes (pass 1 reads them all) */
	uint64_t size;
	struct profdb_step_rec *dsteps; /* gpu_user_annotation ProfilerStep spans */
	size_t ndsteps;
};

/* The fields of one event we look at (type PROFDB_J_NONE when absent). */
struct ev {
	struct profdb_jval name, ph, cat, ts, dur, pid, tid, args;
};

struct ev_args {
	struct profdb_jval correlation, ext, device, stream, context, grid, block;
	struct profdb_jval registers, shmem, bytes, seq, dims, types, stack;
};

/* ---------------------------------------------------------------- values */

static int64_t parse_hex(const char *p, size_t n)
{
	uint64_t v = 0;
	if (n < 3 || n > 18 || p[0] != '0' || (p[1] != 'x' && p[1] != 'X'))
		return PROFDB_NULL;
	for (size_t i = 2; i < n; i++) {
		char c = p[i];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			d = (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			d = (unsigned)(c - 'A' + 10);
		else
			return PROFDB_NULL;
		v = v << 4 | d;
	}
	return v > (uint64_t)INT64_MAX ? PROFDB_NULL : (int64_t)v;
}

/* An integer written as a number or a string ("2560", "0x0": ROCm args). */
static int64_t jint(const struct profdb_jval *v)
{
	const char *p;
	size_t n;
	int64_t x;
	if (v->type == PROFDB_J_NUMBER) {
		p = v->p;
		n = v->n;
	} else if (v->type == PROFDB_J_STRING) {
		p = v->p + 1;
		n = v->n - 2;
	} else {
		return PROFDB_NULL;
	}
	if (profdb_parse_i64(p, n, &x) == 0 && x != PROFDB_NULL)
		return x;
	return v->type == PROFDB_J_STRING ? parse_hex(p, n) : PROFDB_NULL;
}

/* A pid/tid: an int, a numeric string, or "stream 7" (2021 traces). */
static int64_t jid(const struct profdb_jval *v)
{
	int64_t x = jint(v);
	if (x == PROFDB_NULL && v->type == PROFDB_J_STRING && v->n > 9 && memcmp(v->p + 1, "stream ", 7) == 0) {
		struct profdb_jval rest = { PROFDB_J_NUMBER, v->p + 8, v->n - 9 };
		x = jint(&rest);
	}
	return x;
}

/* A time in µs (number or string, any precision) to ns; -1 if not one. */
static int jns(const struct profdb_jval *v, int64_t *out)
{
	if (v->type == PROFDB_J_NUMBER)
		return profdb_parse_ns(v->p, v->n, 3, out);
	if (v->type == PROFDB_J_STRING)
		return profdb_parse_ns(v->p + 1, v->n - 2, 3, out);
	return -1;
}

static uint64_t hash_slice(uint64_t h, const struct profdb_jval *v)
{
	for (size_t i = 0; i < v->n; i++)
		h = (h ^ (unsigned char)v->p[i]) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull;
}

/* Room for n bytes of decoded text in the event's scratch; NULL if none
 * (never happens for the fields of one event: see handle_event). */
static char *scratch(struct kreader *r, size_t n)
{
	char *p;
	if (r->scratch_used + n > r->scratch_cap)
		return NULL;
	p = r->scratch + r->scratch_used;
	r->scratch_used += n;
	return p;
}

/* Decoded string value, or NULL if v is not a string. */
static const char *jstr(struct kreader *r, const struct profdb_jval *v)
{
	char *out;
	if (v->type != PROFDB_J_STRING || !(out = scratch(r, v->n)))
		return NULL;
	profdb_json_str_decode(v, out, v->n);
	return out;
}

/* A value as text: strings decoded, anything else as compact JSON. */
static const char *jtext(struct kreader *r, const struct profdb_jval *v)
{
	char *out;
	if (v->type == PROFDB_J_NONE || v->type == PROFDB_J_NULL)
		return NULL;
	if (v->type == PROFDB_J_STRING)
		return jstr(r, v);
	if (!(out = scratch(r, v->n + 1)))
		return NULL;
	profdb_json_compact(v, out, v->n + 1);
	return out;
}

/* ---------------------------------------------------------------- records */

static int skip(struct kreader *r, const char *reason)
{
	if (!r->sink->skip)
		return PROFDB_OK;
	return r->sink->skip(r->sink->arg, reason, r->nevents - 1);
}

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

/* Decide the rank and open the source: before the first record. */
static int begin_records(struct kreader *r)
{
	int64_t from_name = rank_from_name(r->path);
	if (r->begun)
		return PROFDB_OK;
	r->begun = 1;
	if (r->dist_rank != PROFDB_NULL) {
		r->rank = r->dist_rank;
	} else if (from_name != PROFDB_NULL) {
		r->rank = from_name;
	} else if (r->ctx->rank != PROFDB_NULL) {
		char note[PROFDB_ERRMAX + 128];
		r->rank = r->ctx->rank;
		snprintf(note, sizeof note, "%s: no distributedInfo.rank and no rank in the file name:"
		         " rank %lld assigned by its place in the folder", r->path, (long long)r->rank);
		if (r->sink->note && r->sink->note(r->sink->arg, note) != PROFDB_OK)
			return r->err->code ? r->err->code : PROFDB_ERROR;
	} else {
		r->rank = 0;
	}
	if (r->sink->source_begin)
		return r->sink->source_begin(r->sink->arg, r->path, "kineto_trace", r->rank, NULL, 0);
	return PROFDB_OK;
}

static int read_args(const struct profdb_jval *args, struct ev_args *a)
{
	struct profdb_jval k, v;
	size_t pos = 0;
	int rc;
	memset(a, 0, sizeof *a);
	if (args->type != PROFDB_J_OBJECT)
		return 0;
	while ((rc = profdb_json_member(args->p, args->n, &pos, &k, &v)) == 1) {
		if (profdb_json_str_is(&k, "correlation")) a->correlation = v;
		else if (profdb_json_str_is(&k, "External id") || profdb_json_str_is(&k, "external id")) a->ext = v;
		else if (profdb_json_str_is(&k, "device")) a->device = v;
		else if (profdb_json_str_is(&k, "stream")) a->stream = v;
		else if (profdb_json_str_is(&k, "context")) a->context = v;
		else if (profdb_json_str_is(&k, "grid")) a->grid = v;
		else if (profdb_json_str_is(&k, "block")) a->block = v;
		else if (profdb_json_str_is(&k, "registers per thread")) a->registers = v;
		else if (profdb_json_str_is(&k, "shared memory")) a->shmem = v;
		else if (profdb_json_str_is(&k, "bytes")) a->bytes = v;
		else if (profdb_json_str_is(&k, "Sequence number")) a->seq = v;
		else if (profdb_json_str_is(&k, "Input Dims") || profdb_json_str_is(&k, "Input dims")) a->dims = v;
		else if (profdb_json_str_is(&k, "Input type")) a->types = v;
		else if (profdb_json_str_is(&k, "Call stack")) a->stack = v;
	}
	return rc;
}

static int emit_device(struct kreader *r, const struct ev *e, const struct ev_args *a, int kind,
                       const char *name, const char *cat, int64_t start, int64_t dur)
{
	struct profdb_kernel_rec k;
	int64_t ext = jint(&a->ext);
	profdb_kernel_rec_init(&k);
	k.rank = r->rank;
	/* ROCm device ids (2, 1, 9) are not GPU indexes: kept as opaque keys */
	k.device = a->device.type ? jint(&a->device) : jid(&e->pid);
	k.stream = a->stream.type ? jid(&a->stream) : jid(&e->tid);
	k.name = name;
	k.kind = kind;
	k.core = cat;
	k.start_ns = start;
	k.dur_ns = dur;
	k.context_id = jint(&a->context);
	k.correlation = jint(&a->correlation);
	k.external_id = ext;
	k.grid = jtext(r, &a->grid);
	k.block = jtext(r, &a->block);
	k.registers = jint(&a->registers);
	k.shared_mem = jint(&a->shmem);
	k.bytes = jint(&a->bytes);
	if (profdb__kops_device(r->ops, ext, dur) != PROFDB_OK)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	return r->sink->kernel ? r->sink->kernel(r->sink->arg, &k) : PROFDB_OK;
}

static int emit_op(struct kreader *r, const struct ev *e, const struct ev_args *a,
                   const char *name, const char *cat, int64_t start, int64_t dur)
{
	struct profdb_kop_in o = {
		.name = name, .category = cat,
		.thread = hash_slice(hash_slice(1469598103934665603ull, &e->pid), &e->tid),
		.tid = jid(&e->tid), .start_ns = start, .dur_ns = dur,
		.external_id = jint(&a->ext), .seq = jint(&a->seq),
		.in_shapes = jtext(r, &a->dims), .in_types = jtext(r, &a->types),
		.call_stack = jtext(r, &a->stack),
	};
	if (profdb__kops_add(r->ops, &o) != PROFDB_OK)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

static int emit_launch(struct kreader *r, const struct ev *e, const struct ev_args *a,
                       const char *name, int64_t start, int64_t dur)
{
	struct profdb_launch_rec l = {
		.rank = r->rank, .correlation = jint(&a->correlation), .tid = jid(&e->tid),
		.start_ns = start, .dur_ns = dur, .external_id = jint(&a->ext), .name = name,
	};
	/* a runtime call without a correlation id launched nothing we can see */
	if (l.correlation == PROFDB_NULL || !r->sink->launch)
		return PROFDB_OK;
	return r->sink->launch(r->sink->arg, &l);
}

/* N of "ProfilerStep#N", or PROFDB_NULL. */
static int64_t step_number(const char *name)
{
	size_t n = strlen(STEP_PREFIX);
	int64_t v;
	if (strncmp(name, STEP_PREFIX, n) != 0 || profdb_parse_i64(name + n, strlen(name + n), &v) != 0)
		return PROFDB_NULL;
	return v;
}

static int add_device_step(struct kreader *r, int64_t step, int64_t start, int64_t end)
{
	struct profdb_step_rec *s = realloc(r->dsteps, (r->ndsteps + 1) * sizeof *s);
	if (!s)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	r->dsteps = s;
	s[r->ndsteps++] = (struct profdb_step_rec){ r->rank, step, start, end };
	return PROFDB_OK;
}

static int classify(const struct ev *e, int *kind)
{
	*kind = 0;
	if (e->cat.type == PROFDB_J_NONE)
		/* legacy EventList.export_chrome_trace: host functions have no cat */
		return profdb_json_str_is(&e->pid, "CPU functions") ? EV_OP : EV_OTHER;
	for (size_t i = 0; i < sizeof cat_table / sizeof cat_table[0]; i++)
		if (profdb_json_str_is(&e->cat, cat_table[i].cat)) {
			*kind = cat_table[i].kind;
			return cat_table[i].cls;
		}
	return EV_OTHER;
}

/* One element of traceEvents: text[0..len). */
static int handle_event(struct kreader *r, const char *text, size_t len)
{
	struct ev e;
	struct ev_args a;
	struct profdb_jval k, v;
	size_t pos = 0;
	int rc, cls, kind;
	int64_t ts, dur, start, step;
	const char *name, *cat;

	if (len == 0 || text[0] != '{')
		return skip(r, "event is not a JSON object");
	memset(&e, 0, sizeof e);
	while ((rc = profdb_json_member(text, len, &pos, &k, &v)) == 1) {
		if (profdb_json_str_is(&k, "name")) e.name = v;
		else if (profdb_json_str_is(&k, "ph")) e.ph = v;
		else if (profdb_json_str_is(&k, "cat")) e.cat = v;
		else if (profdb_json_str_is(&k, "ts")) e.ts = v;
		else if (profdb_json_str_is(&k, "dur")) e.dur = v;
		else if (profdb_json_str_is(&k, "pid")) e.pid = v;
		else if (profdb_json_str_is(&k, "tid")) e.tid = v;
		else if (profdb_json_str_is(&k, "args")) e.args = v;
	}
	if (rc < 0)
		return skip(r, "malformed event object");
	if (!profdb_json_str_is(&e.ph, "X"))
		return PROFDB_OK; /* flows, metadata, instants, counters */
	cls = classify(&e, &kind);
	if (cls == EV_OTHER)
		return PROFDB_OK;
	if (read_args(&e.args, &a) < 0)
		return skip(r, "malformed args object");
	/* the decoded fields are disjoint slices of the event: len bytes hold them */
	if (len + 64 > r->scratch_cap) {
		char *s = realloc(r->scratch, len + 64);
		if (!s)
			return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
		r->scratch = s;
		r->scratch_cap = len + 64;
	}
	r->scratch_used = 0;
	if (e.name.type != PROFDB_J_STRING)
		return skip(r, "event without a name");
	if (e.ts.type == PROFDB_J_NONE)
		return skip(r, "event without ts");
	if (jns(&e.ts, &ts) != 0)
		return skip(r, "ts is not a number in range");
	if (e.dur.type == PROFDB_J_NONE)
		return skip(r, "complete event without dur");
	if (jns(&e.dur, &dur) != 0)
		return skip(r, "dur is not a number in range");
	if (dur < 0)
		return skip(r, "negative duration");
	if ((r->base_ns > 0 && ts > INT64_MAX - r->base_ns) || (r->base_ns < 0 && ts < INT64_MIN - r->base_ns))
		return skip(r, "timestamp out of range");
	start = ts + r->base_ns;
	if (dur > INT64_MAX - start)
		return skip(r, "timestamp out of range");
	name = jstr(r, &e.name);
	cat = e.cat.type ? jstr(r, &e.cat) : NULL;
	if (!name)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	switch (cls) {
	case EV_DEVICE:
		return emit_device(r, &e, &a, kind, name, cat, start, dur);
	case EV_LAUNCH:
		return emit_launch(r, &e, &a, name, start, dur);
	case EV_GPU_STEP:
		step = step_number(name);
		return step == PROFDB_NULL ? PROFDB_OK : add_device_step(r, step, start, start + dur);
	default:
		break;
	}
	step = step_number(name);
	if (step != PROFDB_NULL && r->sink->step) {
		struct profdb_step_rec s = { r->rank, step, start, start + dur };
		if ((rc = r->sink->step(r->sink->arg, &s)) != PROFDB_OK)
			return rc;
	}
	return emit_op(r, &e, &a, name, cat, start, dur);
}

/* ---------------------------------------------------------------- top level */

static long kread(void *arg, void *buf, size_t n, struct profdb_err *err)
{
	struct kreader *r = arg;
	long got = profdb_input_read(r->in, buf, n, err);
	if (got > 0 && r->ctx->progress) {
		uint64_t size = profdb_input_size(r->in), done = profdb_input_raw_offset(r->in);
		/* two passes: each counts for half of the file */
		if (r->two_pass)
			done = r->pass == 1 ? done / 2 : size / 2 + done / 2;
		r->ctx->progress(r->ctx->progress_arg, done > size ? size : done, size);
	}
	return got;
}

/* The elements of the traceEvents array (or of a bare array). */
static int read_events(struct kreader *r, struct profdb_json_scan *js)
{
	int c, rc;
	if ((rc = begin_records(r)) != PROFDB_OK)
		return rc;
	profdb_json_advance(js); /* '[' */
	c = profdb_json_peek(js);
	if (c == ']') {
		profdb_json_advance(js);
		return PROFDB_OK;
	}
	for (;;) {
		const char *text;
		size_t len;
		if ((rc = profdb_json_value(js, &text, &len)) != PROFDB_OK)
			return rc;
		r->nevents++;
		if ((rc = handle_event(r, text, len)) != PROFDB_OK)
			return rc;
		c = profdb_json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		profdb_json_advance(js);
		if (c == ']')
			return PROFDB_OK;
		if (c != ',')
			return profdb__err_set(r->err, PROFDB_EFORMAT, "%s: byte %llu: %s", r->path,
			    (unsigned long long)profdb_json_offset(js),
			    c == PROFDB_JSON_END ? "truncated JSON: the event array is not closed"
			                         : "expected ',' or ']' after an event");
	}
}

static int add_meta(struct kreader *r, const char *key, const char *text, size_t len)
{
	struct profdb_jval v = { PROFDB_J_NONE, text, len };
	struct meta_item *m = realloc(r->meta, (r->nmeta + 1) * sizeof *m);
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
	profdb_json_compact(&v, m->value, len + 1);
	r->nmeta++;
	if (strcmp(key, "baseTimeNanoseconds") == 0) {
		int64_t b;
		if (profdb_parse_ns(text, len, 0, &b) == 0) {
			r->base_ns = b;
			r->have_base = 1;
		}
	} else if (strcmp(key, "distributedInfo") == 0) {
		struct profdb_jval k, val;
		r->have_dist = 1;
		while (profdb_json_member(text, len, &pos, &k, &val) == 1)
			if (profdb_json_str_is(&k, "rank"))
				r->dist_rank = jint(&val);
	}
	return PROFDB_OK;
}

static int bad(struct kreader *r, struct profdb_json_scan *js, const char *what)
{
	return profdb__err_set(r->err, PROFDB_EFORMAT, "%s: byte %llu: %s", r->path,
	                       (unsigned long long)profdb_json_offset(js), what);
}

/* The members of the top-level object; js is just past its '{'. */
static int read_object(struct kreader *r, struct profdb_json_scan *js)
{
	int c, rc, first = 1;
	char key[256];
	for (;;) {
		const char *text;
		size_t len;
		struct profdb_jval kv;
		c = profdb_json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		if (c == '}' && first) {
			profdb_json_advance(js);
			return PROFDB_OK;
		}
		if (c != '"')
			return bad(r, js, c == PROFDB_JSON_END ? "truncated JSON: the top-level object is not closed"
			                                       : "expected a key in the top-level object");
		if ((rc = profdb_json_value(js, &text, &len)) != PROFDB_OK)
			return rc;
		kv = (struct profdb_jval){ PROFDB_J_STRING, text, len };
		if (len > sizeof key) /* long keys are user metadata: keep a prefix */
			kv.n = sizeof key;
		profdb_json_str_decode(&kv, key, sizeof key);
		c = profdb_json_peek(js);
		if (c != ':')
			return c == PROFDB_JSON_FAIL ? r->err->code : bad(r, js, "expected ':' after a key");
		profdb_json_advance(js);
		c = profdb_json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		if (strcmp(key, "traceEvents") == 0 && r->events_done) {
			if ((rc = profdb_json_skip(js)) != PROFDB_OK) /* a repeated key: the first counts */
				return rc;
		} else if (strcmp(key, "traceEvents") == 0) {
			if (c != '[')
				return bad(r, js, "\"traceEvents\" is not an array");
			if (r->pass == 2 || (r->have_dist && r->have_base)) {
				if ((rc = read_events(r, js)) != PROFDB_OK)
					return rc;
				r->events_done = 1;
				if (r->pass == 2)
					return PROFDB_OK; /* pass 1 has read the rest */
			} else {
				r->two_pass = 1;
				if ((rc = profdb_json_skip(js)) != PROFDB_OK)
					return rc;
			}
		} else if (r->pass == 1) {
			if ((rc = profdb_json_value(js, &text, &len)) != PROFDB_OK ||
			    (rc = add_meta(r, key, text, len)) != PROFDB_OK)
				return rc;
		} else if ((rc = profdb_json_skip(js)) != PROFDB_OK) {
			return rc;
		}
		first = 0;
		c = profdb_json_peek(js);
		if (c == PROFDB_JSON_FAIL)
			return r->err->code;
		profdb_json_advance(js);
		if (c == '}')
			return PROFDB_OK;
		if (c != ',')
			return bad(r, js, c == PROFDB_JSON_END ? "truncated JSON: the top-level object is not closed"
			                                       : "expected ',' or '}' in the top-level object");
	}
}

/* One pass over the file. */
static int read_pass(struct kreader *r, int pass)
{
	struct profdb_json_scan js;
	int rc, c;
	r->pass = pass;
	if ((rc = profdb_input_open(&r->in, r->path, r->err)) != PROFDB_OK)
		return rc;
	if ((rc = profdb_json_scan_init(&js, kread, r, r->path, r->err)) != PROFDB_OK)
		goto out;
	c = profdb_json_peek(&js);
	if (c == '[') {
		rc = read_events(r, &js);
		r->events_done = 1;
	} else if (c == '{') {
		profdb_json_advance(&js);
		rc = read_object(r, &js);
	} else if (c == PROFDB_JSON_FAIL) {
		rc = r->err->code;
	} else {
		rc = bad(r, &js, c == PROFDB_JSON_END ? "empty file" : "not a JSON object or array");
	}
	if (rc != PROFDB_OK || pass == 2)
		goto out;
	c = profdb_json_peek(&js);
	if (c != PROFDB_JSON_END) {
		rc = c == PROFDB_JSON_FAIL ? r->err->code : bad(r, &js, "data after the end of the JSON text");
		goto out;
	}
	if (!r->events_done && !r->two_pass) {
		rc = profdb__err_set(r->err, PROFDB_EFORMAT, "%s: no \"traceEvents\" array in the top-level object",
		                     r->path);
		goto out;
	}
	profdb_input_sha256(r->in, r->sha);
	r->size = profdb_input_size(r->in);
out:
	profdb_json_scan_free(&js);
	profdb_input_close(r->in);
	r->in = NULL;
	return rc;
}

/*
 * The device-side step spans go to the store as metadata (JSON
 * [[step, start_ns, end_ns], ...]): they are not host steps, only where
 * the store places kernels whose launch is not in the trace.
 */
static int send_device_steps(struct kreader *r)
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
		                      (long long)r->dsteps[i].step, (long long)r->dsteps[i].start_ns,
		                      (long long)r->dsteps[i].end_ns);
	text[n++] = ']';
	text[n] = '\0';
	rc = r->sink->meta(r->sink->arg, r->rank, PROFDB_META_DEVICE_STEPS, text);
	free(text);
	return rc;
}

static int finish(struct kreader *r)
{
	struct profdb_sink *s = r->sink;
	int rc;
	for (size_t i = 0; i < r->nmeta; i++)
		if (s->meta && (rc = s->meta(s->arg, r->rank, r->meta[i].key, r->meta[i].value)) != PROFDB_OK)
			return rc;
	if ((rc = profdb__kops_emit(r->ops, r->rank, s)) != PROFDB_OK)
		return rc;
	if ((rc = send_device_steps(r)) != PROFDB_OK)
		return rc;
	return s->source_end ? s->source_end(s->arg, r->nevents, r->sha, r->size) : PROFDB_OK;
}

int profdb_read_kineto(const struct profdb_reader_ctx *ctx)
{
	struct kreader r;
	int rc;
	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.sink = ctx->sink;
	r.err = ctx->err;
	r.path = ctx->path;
	r.dist_rank = PROFDB_NULL;
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
	profdb__kops_free(r.ops);
	if (rc != PROFDB_OK && r.err->code == PROFDB_OK)
		profdb__err_set(r.err, rc, "%s: read failed", r.path);
	return rc;
}

/*
 * kineto_event.c - one event of a Kineto trace, read in place (no tree, no
 * allocation but the reused scratch for decoded strings): classify it by
 * cat (FORMATS.md 5.4, all eras), check its times, and send a kernel, a
 * launch, a step, or a host op (sent at once to a sink that nests ops,
 * else kept for kineto_ops.c).
 *
 * Non-numeric pid/tid strings ("Spans", "") are stored as NULL; host ops
 * kept for kineto_ops.c still nest per (pid, tid) through a hash of their
 * raw text; the store (op_nest.c) nests them per (rank, stored tid).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kineto.h"
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
int64_t profdb__kineto_jint(const struct profdb_jval *v)
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
	int64_t x = profdb__kineto_jint(v);
	if (x == PROFDB_NULL && v->type == PROFDB_J_STRING && v->n > 9 && memcmp(v->p + 1, "stream ", 7) == 0) {
		struct profdb_jval rest = { PROFDB_J_NUMBER, v->p + 8, v->n - 9 };
		x = profdb__kineto_jint(&rest);
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
static char *scratch(struct profdb_kreader *r, size_t n)
{
	char *p;
	if (r->scratch_used + n > r->scratch_cap)
		return NULL;
	p = r->scratch + r->scratch_used;
	r->scratch_used += n;
	return p;
}

/* Decoded string value, or NULL if v is not a string. */
static const char *jstr(struct profdb_kreader *r, const struct profdb_jval *v)
{
	char *out;
	if (v->type != PROFDB_J_STRING || !(out = scratch(r, v->n)))
		return NULL;
	profdb_json_str_decode(v, out, v->n);
	return out;
}

/* A value as text: strings decoded, anything else as compact JSON. */
static const char *jtext(struct profdb_kreader *r, const struct profdb_jval *v)
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

static int skip(struct profdb_kreader *r, const char *reason)
{
	if (!r->sink->skip)
		return PROFDB_OK;
	return r->sink->skip(r->sink->arg, reason, r->nevents - 1);
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

static int emit_device(struct profdb_kreader *r, const struct ev *e, const struct ev_args *a, int kind,
                       const char *name, const char *cat, int64_t start, int64_t dur)
{
	struct profdb_kernel_rec k;
	int64_t ext = profdb__kineto_jint(&a->ext);
	profdb_kernel_rec_init(&k);
	k.rank = r->rank;
	/* ROCm device ids (2, 1, 9) are not GPU indexes: kept as opaque keys */
	k.device = a->device.type ? profdb__kineto_jint(&a->device) : jid(&e->pid);
	k.stream = a->stream.type ? jid(&a->stream) : jid(&e->tid);
	k.name = name;
	k.kind = kind;
	k.core = cat;
	k.start_ns = start;
	k.dur_ns = dur;
	k.context_id = profdb__kineto_jint(&a->context);
	k.correlation = profdb__kineto_jint(&a->correlation);
	k.external_id = ext;
	k.grid = jtext(r, &a->grid);
	k.block = jtext(r, &a->block);
	k.registers = profdb__kineto_jint(&a->registers);
	k.shared_mem = profdb__kineto_jint(&a->shmem);
	k.bytes = profdb__kineto_jint(&a->bytes);
	/* a sink that nests ops finds device times from the kernels it stored */
	if (!r->sink->nests_ops && profdb__kops_device(r->ops, ext, dur) != PROFDB_OK)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	return r->sink->kernel ? r->sink->kernel(r->sink->arg, &k) : PROFDB_OK;
}

static int emit_op(struct profdb_kreader *r, const struct ev *e, const struct ev_args *a,
                   const char *name, const char *cat, int64_t start, int64_t dur)
{
	struct profdb_kop_in o = {
		.name = name, .category = cat,
		.thread = hash_slice(hash_slice(1469598103934665603ull, &e->pid), &e->tid),
		.tid = jid(&e->tid), .start_ns = start, .dur_ns = dur,
		.external_id = profdb__kineto_jint(&a->ext), .seq = profdb__kineto_jint(&a->seq),
		.in_shapes = jtext(r, &a->dims), .in_types = jtext(r, &a->types),
		.call_stack = jtext(r, &a->stack),
	};
	struct profdb_op_rec rec;
	if (!r->sink->nests_ops) {
		if (profdb__kops_add(r->ops, &o) != PROFDB_OK)
			return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
		return PROFDB_OK;
	}
	/* sent now (rank_fixup moves it if the rank or base time was a
	 * guess); the sink nests it when the file ends: memory stays flat */
	if (!r->sink->op)
		return PROFDB_OK;
	profdb_op_rec_init(&rec);
	rec.rank = r->rank;
	rec.name = o.name;
	rec.category = o.category;
	rec.tid = o.tid;
	rec.start_ns = o.start_ns;
	rec.dur_ns = o.dur_ns;
	rec.external_id = o.external_id;
	rec.seq = o.seq;
	rec.in_shapes = o.in_shapes;
	rec.in_types = o.in_types;
	rec.call_stack = o.call_stack;
	rec.nest = 1;
	return r->sink->op(r->sink->arg, &rec);
}

static int emit_launch(struct profdb_kreader *r, const struct ev *e, const struct ev_args *a,
                       const char *name, int64_t start, int64_t dur)
{
	struct profdb_launch_rec l = {
		.rank = r->rank, .correlation = profdb__kineto_jint(&a->correlation), .tid = jid(&e->tid),
		.start_ns = start, .dur_ns = dur, .external_id = profdb__kineto_jint(&a->ext), .name = name,
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

/* Append a step span to a list the reader keeps (*v, *n). */
static int keep_step(struct profdb_kreader *r, struct profdb_step_rec **v, size_t *n,
                     int64_t step, int64_t start, int64_t end)
{
	struct profdb_step_rec *s = realloc(*v, (*n + 1) * sizeof *s);
	if (!s)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	*v = s;
	s[(*n)++] = (struct profdb_step_rec){ r->rank, step, start, end };
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
int profdb__kineto_event(struct profdb_kreader *r, const char *text, size_t len)
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
	/* the range of times sent, so a later base time can be checked */
	if (!r->any_time || start < r->t_min)
		r->t_min = start;
	if (!r->any_time || start + dur > r->t_max)
		r->t_max = start + dur;
	r->any_time = 1;
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
		return step == PROFDB_NULL ? PROFDB_OK : keep_step(r, &r->dsteps, &r->ndsteps, step, start,
		                                                   start + dur);
	default:
		break;
	}
	step = step_number(name);
	if (step != PROFDB_NULL && r->provisional) {
		/* sent by finish() with the real rank and time */
		if ((rc = keep_step(r, &r->hsteps, &r->nhsteps, step, start, start + dur)) != PROFDB_OK)
			return rc;
	} else if (step != PROFDB_NULL && r->sink->step) {
		struct profdb_step_rec s = { r->rank, step, start, start + dur };
		if ((rc = r->sink->step(r->sink->arg, &s)) != PROFDB_OK)
			return rc;
	}
	return emit_op(r, &e, &a, name, cat, start, dur);
}

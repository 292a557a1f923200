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
#define CAT(name, cls, kind) { name, sizeof name - 1, cls, kind }
enum ev_class { EV_OTHER = 0, EV_DEVICE, EV_OP, EV_LAUNCH, EV_GPU_STEP };

static const struct {
	const char *cat;
	size_t len;
	int cls;                   /* enum ev_class */
	int kind;                  /* enum profdb_kind for EV_DEVICE */
} cat_table[] = {
	/* device activities, current names then the 2021 ones (torch 1.8/1.9) */
	CAT("kernel", EV_DEVICE, PROFDB_KIND_KERNEL),
	CAT("gpu_memcpy", EV_DEVICE, PROFDB_KIND_MEMCPY),
	CAT("gpu_memset", EV_DEVICE, PROFDB_KIND_MEMSET),
	CAT("mtia_ccp_events", EV_DEVICE, PROFDB_KIND_KERNEL),
	CAT("Kernel", EV_DEVICE, PROFDB_KIND_KERNEL),
	CAT("Memcpy", EV_DEVICE, PROFDB_KIND_MEMCPY),
	CAT("Memset", EV_DEVICE, PROFDB_KIND_MEMSET),
	/* host operators; torch_npu trace_view uses cpu_op too */
	CAT("cpu_op", EV_OP, 0),
	CAT("user_annotation", EV_OP, 0),
	CAT("Operator", EV_OP, 0),
	/* runtime calls that launch device work (ROCm's hip* are cuda_runtime) */
	CAT("cuda_runtime", EV_LAUNCH, 0),
	CAT("cuda_driver", EV_LAUNCH, 0),
	CAT("Runtime", EV_LAUNCH, 0),
	CAT("mtia_runtime", EV_LAUNCH, 0),
	CAT("privateuse1_runtime", EV_LAUNCH, 0),
	CAT("privateuse1_driver", EV_LAUNCH, 0),
	CAT("xpu_runtime", EV_LAUNCH, 0),
	CAT("xpu_driver", EV_LAUNCH, 0),
	CAT("mlu_runtime", EV_LAUNCH, 0),
	/* the device-side copy of a step span: only its ProfilerStep#N is used */
	CAT("gpu_user_annotation", EV_GPU_STEP, 0),
};

/* The fields of one event we look at ({ PROFDB_J_NONE, NULL, 0 } when
 * absent: an op's thread key hashes pid and tid, there or not). */
enum ev_field { F_NAME, F_PH, F_CAT, F_TS, F_DUR, F_PID, F_TID, F_ARGS, NFIELDS };
enum ev_arg {
	A_CORRELATION, A_EXT, A_DEVICE, A_STREAM, A_CONTEXT, A_GRID, A_BLOCK, A_REGISTERS, A_SHMEM,
	A_BYTES, A_SEQ, A_DIMS, A_TYPES, A_CONCRETE, A_STACK,
	/* collective args of NCCL kernels and record_param_comms ops (coll_args) */
	A_COLL, A_IN_NELEMS, A_OUT_NELEMS, A_DTYPE, A_GROUP_SIZE, A_PG_NAME, A_PG_DESC, A_PG_RANKS,
	/* a copy's own GB/s (Kineto); an MTIA DMA's size and direction */
	A_GBPS, A_SIZE, A_DIRECTION,
	/* "[memory]" instants (profile_memory=True; the totals since ~2022) */
	A_MEM_BYTES, A_MEM_ADDR, A_MEM_DEVTYPE, A_MEM_DEVID, A_MEM_TOTAL_ALLOC, A_MEM_TOTAL_RES,
	NARGS
};

#define KEY(name, slot) { name, sizeof name - 1, slot }
#define COUNT(a) (sizeof a / sizeof a[0])

static const struct profdb__json_key ev_keys[] = {
	KEY("ph", F_PH), KEY("cat", F_CAT), KEY("name", F_NAME), KEY("pid", F_PID), KEY("tid", F_TID),
	KEY("ts", F_TS), KEY("dur", F_DUR), KEY("args", F_ARGS),
};

static const struct profdb__json_key arg_keys[] = {
	KEY("External id", A_EXT), KEY("Input Dims", A_DIMS), KEY("Input type", A_TYPES),
	KEY("Concrete Inputs", A_CONCRETE),
	KEY("Sequence number", A_SEQ), KEY("Call stack", A_STACK), KEY("correlation", A_CORRELATION),
	KEY("device", A_DEVICE), KEY("stream", A_STREAM), KEY("context", A_CONTEXT),
	KEY("grid", A_GRID), KEY("block", A_BLOCK), KEY("registers per thread", A_REGISTERS),
	KEY("shared memory", A_SHMEM), KEY("bytes", A_BYTES), KEY("external id", A_EXT),
	KEY("Input dims", A_DIMS),
	KEY("Collective name", A_COLL), KEY("In msg nelems", A_IN_NELEMS),
	KEY("Out msg nelems", A_OUT_NELEMS), KEY("dtype", A_DTYPE), KEY("Group size", A_GROUP_SIZE),
	KEY("Process Group Name", A_PG_NAME), KEY("Process Group Description", A_PG_DESC),
	KEY("Process Group Ranks", A_PG_RANKS),
	KEY("memory bandwidth (GB/s)", A_GBPS), KEY("size", A_SIZE), KEY("direction", A_DIRECTION),
	KEY("Bytes", A_MEM_BYTES), KEY("Addr", A_MEM_ADDR), KEY("Device Type", A_MEM_DEVTYPE),
	KEY("Device Id", A_MEM_DEVID), KEY("Total Allocated", A_MEM_TOTAL_ALLOC),
	KEY("Total Reserved", A_MEM_TOTAL_RES),
};

/* The pick index holds at most PROFDB_JSON_PICK_MAX keys a level; past it
 * profdb__json_pick_init finds none, so a key added here must fail the
 * build, not every link at run time. */
_Static_assert(COUNT(ev_keys) <= PROFDB_JSON_PICK_MAX, "too many event keys for the pick index");
_Static_assert(COUNT(arg_keys) <= PROFDB_JSON_PICK_MAX, "too many arg keys for the pick index");

/* An event's fields and its args' in one pass over its bytes. */
void profdb__kineto_pick_init(struct profdb__json_pick *pick)
{
	*pick = (struct profdb__json_pick){
		ev_keys, COUNT(ev_keys), NFIELDS, F_ARGS, arg_keys, COUNT(arg_keys), NARGS, { { 0 } },
	};
	/* cannot fail: the asserts above bound the keys, none is empty */
	(void)profdb__json_pick_init(pick);
}

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
int64_t profdb__kineto_jint(const struct profdb__jval *v)
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
	if (n > 0 && n <= 18) {
		/* most are plain digits: exact without strtoll (18 digits fit) */
		size_t i = p[0] == '-';
		uint64_t u = 0;
		for (; i < n && p[i] >= '0' && p[i] <= '9'; i++)
			u = u * 10 + (uint64_t)(p[i] - '0');
		if (i == n && n > (size_t)(p[0] == '-'))
			return p[0] == '-' ? -(int64_t)u : (int64_t)u;
	}
	if (profdb__parse_i64(p, n, &x) == 0 && x != PROFDB_NULL)
		return x;
	return v->type == PROFDB_J_STRING ? parse_hex(p, n) : PROFDB_NULL;
}

/* A pid/tid: an int, a numeric string, or "stream 7" (2021 traces). */
static int64_t jid(const struct profdb__jval *v)
{
	int64_t x = profdb__kineto_jint(v);
	if (x == PROFDB_NULL && v->type == PROFDB_J_STRING && v->n > 9 && memcmp(v->p + 1, "stream ", 7) == 0) {
		struct profdb__jval rest = { PROFDB_J_NUMBER, v->p + 8, v->n - 9 };
		x = profdb__kineto_jint(&rest);
	}
	return x;
}

/* A time in µs (number or string, any precision) to ns; -1 if not one. */
static int jns(const struct profdb__jval *v, int64_t *out)
{
	const char *p;
	size_t n, i, int_end;
	uint64_t us = 0, frac = 0;
	int neg;
	if (v->type == PROFDB_J_NUMBER) {
		p = v->p;
		n = v->n;
	} else if (v->type == PROFDB_J_STRING) {
		p = v->p + 1;
		n = v->n - 2;
	} else {
		return -1;
	}
	/* the usual "-?D{1,16}(.D{0,3})?" exactly, without profdb__parse_ns's
	 * general path (which gives the same: the digits times 10^(3-decimals)) */
	neg = n > 0 && p[0] == '-';
	for (i = (size_t)neg; i < n && i < 17 && p[i] >= '0' && p[i] <= '9'; i++)
		us = us * 10 + (uint64_t)(p[i] - '0');
	int_end = i;
	if (int_end > (size_t)neg && us <= ((uint64_t)INT64_MAX - 999) / 1000) {
		size_t decimals = 0;
		if (i < n && p[i] == '.')
			for (i++; i < n && decimals < 3 && p[i] >= '0' && p[i] <= '9'; i++, decimals++)
				frac = frac * 10 + (uint64_t)(p[i] - '0');
		if (i == n) {
			for (; decimals < 3; decimals++)
				frac *= 10;
			*out = neg ? -(int64_t)(us * 1000 + frac) : (int64_t)(us * 1000 + frac);
			return 0;
		}
	}
	return profdb__parse_ns(p, n, 3, out);
}

static uint64_t hash_slice(uint64_t h, const struct profdb__jval *v)
{
	for (size_t i = 0; i < v->n; i++)
		h = (h ^ (unsigned char)v->p[i]) * 1099511628211ull;
	return (h ^ 0xff) * 1099511628211ull;
}

/* The key of an event's (pid, tid), as the raw text: ops and runtime
 * calls nest per thread, whatever pid and tid are written as. */
static uint64_t thread_key(const struct profdb__jval *e)
{
	return hash_slice(hash_slice(1469598103934665603ull, &e[F_PID]), &e[F_TID]);
}

/* Room for n bytes of decoded text in the event's scratch; NULL if none
 * (never happens for the fields of one event: see handle_event). */
static char *scratch(struct profdb__kreader *r, size_t n)
{
	char *p;
	if (r->scratch_used + n > r->scratch_cap)
		return NULL;
	p = r->scratch + r->scratch_used;
	r->scratch_used += n;
	return p;
}

/* Decoded string value, or NULL if v is not a string. */
static const char *jstr(struct profdb__kreader *r, const struct profdb__jval *v)
{
	char *out;
	if (v->type != PROFDB_J_STRING || !(out = scratch(r, v->n)))
		return NULL;
	profdb__json_str_decode(v, out, v->n);
	return out;
}

/* A value as text: strings decoded, anything else as compact JSON. */
static const char *jtext(struct profdb__kreader *r, const struct profdb__jval *v)
{
	char *out;
	if (v->type == PROFDB_J_NONE || v->type == PROFDB_J_NULL)
		return NULL;
	if (v->type == PROFDB_J_STRING)
		return jstr(r, v);
	if (!(out = scratch(r, v->n + 1)))
		return NULL;
	profdb__json_compact(v, out, v->n + 1);
	return out;
}

/* ---------------------------------------------------------------- records */

static int skip(struct profdb__kreader *r, const char *reason)
{
	if (!r->sink->skip)
		return PROFDB_OK;
	return r->sink->skip(r->sink->arg, reason, r->nevents - 1);
}

/* The picked members of object text[0..len) into v[slot] (all NONE
 * first); -1 if it is malformed.  The general path for what
 * profdb__json_pick leaves (same keys, same answers). */
static int walk_members(const char *text, size_t len, const struct profdb__json_key *keys, size_t nkeys,
                        struct profdb__jval *v, size_t nslots)
{
	struct profdb__jval k, val;
	size_t pos = 0;
	int rc;
	for (size_t i = 0; i < nslots; i++)
		v[i] = (struct profdb__jval){ PROFDB_J_NONE, NULL, 0 };
	while ((rc = profdb__json_member(text, len, &pos, &k, &val)) == 1)
		for (size_t i = 0; i < nkeys; i++)
			if (k.n == keys[i].len + 2 && memcmp(k.p + 1, keys[i].name, keys[i].len) == 0) {
				v[keys[i].slot] = val;
				break;
			}
	return rc;
}

/* The collective args of an NCCL kernel or a record_param_comms op into
 * *c; NULL when it has neither a collective name nor a message size (older
 * traces, non-NCCL). */
static const struct profdb_coll_rec *coll_args(struct profdb__kreader *r, const struct profdb__jval *a,
                                               struct profdb_coll_rec *c)
{
	if (!a[A_COLL].type && !a[A_IN_NELEMS].type && !a[A_OUT_NELEMS].type)
		return NULL;
	*c = (struct profdb_coll_rec){
		.collective = jtext(r, &a[A_COLL]),
		.in_nelems = profdb__kineto_jint(&a[A_IN_NELEMS]),
		.out_nelems = profdb__kineto_jint(&a[A_OUT_NELEMS]),
		.dtype = jtext(r, &a[A_DTYPE]),
		.group_size = profdb__kineto_jint(&a[A_GROUP_SIZE]),
		.pg_name = jtext(r, &a[A_PG_NAME]),
		.pg_desc = jtext(r, &a[A_PG_DESC]),
		.pg_ranks = jtext(r, &a[A_PG_RANKS]),
	};
	/* a size no message can have (negative, past 2^48 elements) is left
	 * out, both sizes, the collective kept; counted for a note per file */
	if ((c->in_nelems != PROFDB_NULL && (c->in_nelems < 0 || c->in_nelems > PROFDB_COLL_NELEMS_MAX)) ||
	    (c->out_nelems != PROFDB_NULL && (c->out_nelems < 0 || c->out_nelems > PROFDB_COLL_NELEMS_MAX))) {
		c->in_nelems = c->out_nelems = PROFDB_NULL;
		r->coll_bad++;
	}
	return c;
}

/* The copy's own "memory bandwidth (GB/s)" as kernel metric *m (doc/analyses.md
 * "bandwidth": Kineto computes it from the unrounded times, which
 * traces writing whole µs lose); 0 when absent or not a number. */
static size_t gbps_metric(const struct profdb__jval *v, struct profdb_metric *m)
{
	double x;
	if (v->type != PROFDB_J_NUMBER || profdb__parse_double(v->p, v->n, &x) != 0 || x <= 0)
		return 0;
	*m = (struct profdb_metric){ PROFDB_METRIC_GBPS, x };
	return 1;
}

/* An MTIA DMA's byte count and direction (args "size", "direction"). */
static void mtia_dma(struct profdb__kreader *r, const struct profdb__jval *a, struct profdb_kernel_rec *k)
{
	if (k->kind != PROFDB_KIND_MEMCPY)
		return;
	if (k->bytes == PROFDB_NULL)
		k->bytes = profdb__kineto_jint(&a[A_SIZE]);
	k->type = jtext(r, &a[A_DIRECTION]);
}

static int emit_device(struct profdb__kreader *r, const struct profdb__jval *e, const struct profdb__jval *a, int kind,
                       const char *name, const char *cat, int64_t start, int64_t dur)
{
	struct profdb_kernel_rec k;
	struct profdb_coll_rec coll;
	struct profdb_metric gbps;
	int64_t ext = profdb__kineto_jint(&a[A_EXT]);
	int mtia = strcmp(cat, "mtia_ccp_events") == 0;
	profdb__kernel_rec_init(&k);
	k.rank = r->rank;
	/* ROCm device ids (2, 1, 9) are not GPU indexes: kept as opaque keys */
	k.device = a[A_DEVICE].type ? profdb__kineto_jint(&a[A_DEVICE]) : jid(&e[F_PID]);
	k.stream = a[A_STREAM].type ? jid(&a[A_STREAM]) : jid(&e[F_TID]);
	k.name = name;
	/* NCCL/RCCL kernels have cat "kernel": their name says communication */
	k.kind = profdb__kind_of_device(mtia ? profdb__kind_of_mtia(name) : kind, name);
	k.core = cat;
	k.start_ns = start;
	k.dur_ns = dur;
	k.context_id = profdb__kineto_jint(&a[A_CONTEXT]);
	k.correlation = profdb__kineto_jint(&a[A_CORRELATION]);
	k.external_id = ext;
	k.grid = jtext(r, &a[A_GRID]);
	k.block = jtext(r, &a[A_BLOCK]);
	k.registers = profdb__kineto_jint(&a[A_REGISTERS]);
	k.shared_mem = profdb__kineto_jint(&a[A_SHMEM]);
	k.bytes = profdb__kineto_jint(&a[A_BYTES]);
	if (mtia)
		mtia_dma(r, a, &k);
	k.metrics = &gbps;
	k.nmetrics = gbps_metric(&a[A_GBPS], &gbps);
	/* args of its own, else those of the record_param_comms op it names */
	if (k.kind == PROFDB_KIND_COMM && !(k.coll = coll_args(r, a, &coll)))
		k.coll = profdb__kops_coll_find(r->ops, ext, k.correlation, start, &coll);
	/* a sink that nests ops finds device times from the kernels it stored */
	if (!r->sink->nests_ops && profdb__kops_device(r->ops, ext, k.correlation, dur) != PROFDB_OK)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	return r->sink->kernel ? r->sink->kernel(r->sink->arg, &k) : PROFDB_OK;
}

static int emit_op(struct profdb__kreader *r, const struct profdb__jval *e, const struct profdb__jval *a,
                   const char *name, const char *cat, int64_t start, int64_t dur)
{
	struct profdb__kop_in o = {
		.name = name, .category = cat,
		.thread = thread_key(e),
		.tid = jid(&e[F_TID]), .start_ns = start, .dur_ns = dur,
		.external_id = profdb__kineto_jint(&a[A_EXT]), .seq = profdb__kineto_jint(&a[A_SEQ]),
		.in_shapes = jtext(r, &a[A_DIMS]), .in_types = jtext(r, &a[A_TYPES]),
		.in_concrete = jtext(r, &a[A_CONCRETE]),
		.call_stack = jtext(r, &a[A_STACK]),
	};
	struct profdb_op_rec rec;
	struct profdb_coll_rec coll;
	/* the collective it runs, for the kernels it launches (emit_device) */
	if (strcmp(name, "record_param_comms") == 0 && coll_args(r, a, &coll) &&
	    profdb__kops_coll_keep(r->ops, o.external_id, start, &coll) != PROFDB_OK)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	if (!r->sink->nests_ops) {
		if (profdb__kops_add(r->ops, &o) != PROFDB_OK)
			return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
		return PROFDB_OK;
	}
	/* sent now (rank_fixup moves it if the rank or base time was a
	 * guess); the sink nests it when the file ends: memory stays flat */
	if (!r->sink->op)
		return PROFDB_OK;
	profdb__op_rec_init(&rec);
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
	rec.in_concrete = o.in_concrete;
	rec.call_stack = o.call_stack;
	rec.nest = 1;
	return r->sink->op(r->sink->arg, &rec);
}

static int emit_launch(struct profdb__kreader *r, const struct profdb__jval *e, const struct profdb__jval *a,
                       const char *name, int64_t start, int64_t dur)
{
	struct profdb_launch_rec l = {
		.rank = r->rank, .correlation = profdb__kineto_jint(&a[A_CORRELATION]), .tid = jid(&e[F_TID]),
		.start_ns = start, .dur_ns = dur, .external_id = profdb__kineto_jint(&a[A_EXT]), .name = name,
	};
	/* a runtime call without a correlation id launched nothing we can see */
	if (l.correlation == PROFDB_NULL)
		return PROFDB_OK;
	if (!r->sink->nests_ops &&
	    profdb__kops_launch(r->ops, thread_key(e), start, l.correlation) != PROFDB_OK)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	if (!r->sink->launch)
		return PROFDB_OK;
	return r->sink->launch(r->sink->arg, &l);
}

/* N of "ProfilerStep#N", or PROFDB_NULL. */
static int64_t step_number(const char *name)
{
	size_t n = strlen(STEP_PREFIX);
	int64_t v;
	if (strncmp(name, STEP_PREFIX, n) != 0 || profdb__parse_i64(name + n, strlen(name + n), &v) != 0)
		return PROFDB_NULL;
	return v;
}

/* Append a step span to a list the reader keeps (*v, *n). */
static int keep_step(struct profdb__kreader *r, struct profdb_step_rec **v, size_t *n,
                     int64_t step, int64_t start, int64_t end)
{
	struct profdb_step_rec *s = realloc(*v, (*n + 1) * sizeof *s);
	if (!s)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	*v = s;
	s[(*n)++] = (struct profdb_step_rec){ r->rank, step, start, end };
	return PROFDB_OK;
}

/* Is string value v the escape-free text lit (len bytes)? */
static int str_eq(const struct profdb__jval *v, const char *lit, size_t len)
{
	return v->type == PROFDB_J_STRING && v->n == len + 2 && memcmp(v->p + 1, lit, len) == 0;
}

static int classify(const struct profdb__jval *e, int *kind)
{
	*kind = 0;
	if (e[F_CAT].type == PROFDB_J_NONE)
		/* legacy EventList.export_chrome_trace: host functions have no cat */
		return profdb__json_str_is(&e[F_PID], "CPU functions") ? EV_OP : EV_OTHER;
	for (size_t i = 0; i < COUNT(cat_table); i++)
		if (str_eq(&e[F_CAT], cat_table[i].cat, cat_table[i].len)) {
			*kind = cat_table[i].kind;
			return cat_table[i].cls;
		}
	return EV_OTHER;
}

/* The args of an X event we keep into a (unless args_read), and scratch
 * room for its decoded text: NULL, or the reason to skip it; *rc is set
 * when out of memory. */
static const char *event_prepare(struct profdb__kreader *r, size_t len, const struct profdb__jval *e,
                                 struct profdb__jval *a, int args_read, int *rc)
{
	*rc = PROFDB_OK;
	if (!args_read) {
		if (e[F_ARGS].type != PROFDB_J_OBJECT) {
			for (size_t i = 0; i < NARGS; i++)
				a[i] = (struct profdb__jval){ PROFDB_J_NONE, NULL, 0 };
		} else if (walk_members(e[F_ARGS].p, e[F_ARGS].n, arg_keys, COUNT(arg_keys), a, NARGS) < 0) {
			return "malformed args object";
		}
	}
	/* the decoded fields are disjoint slices of the event: len bytes hold them */
	if (len + 64 > r->scratch_cap) {
		char *s = realloc(r->scratch, len + 64);
		if (!s) {
			*rc = profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
			return NULL;
		}
		r->scratch = s;
		r->scratch_cap = len + 64;
	}
	r->scratch_used = 0;
	if (e[F_NAME].type != PROFDB_J_STRING)
		return "event without a name";
	return NULL;
}

/* The event's start (base time added) and duration: NULL, or the reason
 * to skip it.  Widens the range of times sent. */
static const char *event_times(struct profdb__kreader *r, const struct profdb__jval *e, int64_t *start,
                               int64_t *dur)
{
	int64_t ts;
	if (e[F_TS].type == PROFDB_J_NONE)
		return "event without ts";
	if (jns(&e[F_TS], &ts) != 0)
		return "ts is not a number in range";
	if (e[F_DUR].type == PROFDB_J_NONE)
		return "complete event without dur";
	if (jns(&e[F_DUR], dur) != 0)
		return "dur is not a number in range";
	/* doc/definitions.md "Zero-length events": dur 0 is kept (integer-µs traces write
	 * 0 for anything under 1 µs: real calls, which torch and HTA count);
	 * the writer clamps negative ones, so only an edited file has them */
	if (*dur < 0)
		return "negative duration";
	if ((r->base_ns > 0 && ts > INT64_MAX - r->base_ns) || (r->base_ns < 0 && ts < INT64_MIN - r->base_ns))
		return "timestamp out of range";
	*start = ts + r->base_ns;
	/* before the epoch (or the base) is out of range too; said outright,
	 * INT64_MAX - start would overflow for it */
	if (*start < 0 || *dur > INT64_MAX - *start)
		return "timestamp out of range";
	/* the range of times sent, so a later base time can be checked */
	if (!r->any_time || *start < r->t_min)
		r->t_min = *start;
	if (!r->any_time || *start + *dur > r->t_max)
		r->t_max = *start + *dur;
	r->any_time = 1;
	return NULL;
}

/* c10::DeviceType's number as its name (c10/core/DeviceType.h); an
 * unknown one as its number, into buf. */
static const char *device_type_name(int64_t t, char *buf, size_t size)
{
	static const char *const names[] = {
		"CPU", "CUDA", "MKLDNN", "OPENGL", "OPENCL", "IDEEP", "HIP", "FPGA", "MAIA", "XLA",
		"Vulkan", "Metal", "XPU", "MPS", "Meta", "HPU", "VE", "Lazy", "IPU", "MTIA", "PrivateUse1",
	};
	if (t >= 0 && (uint64_t)t < COUNT(names))
		return names[t];
	snprintf(buf, size, "%lld", (long long)t);
	return buf;
}

/* A "[memory]" instant: one allocation (Bytes > 0) or free (< 0) of the
 * allocator of Device Type / Device Id, by the thread tid.  Its step is
 * the store's to find (the host step spans may come later in the file). */
static int handle_memory(struct profdb__kreader *r, size_t len, const struct profdb__jval *e,
                         struct profdb__jval *a, int args_read)
{
	struct profdb_mem_rec m;
	char tbuf[24];
	int64_t ts, dtype;
	int rc;
	const char *why = event_prepare(r, len, e, a, args_read, &rc);
	if (rc != PROFDB_OK)
		return rc;
	if (!why && (e[F_TS].type == PROFDB_J_NONE || jns(&e[F_TS], &ts) != 0))
		why = "memory event without a numeric ts";
	if (!why && ((r->base_ns > 0 && ts > INT64_MAX - r->base_ns) || ts + r->base_ns < 0))
		why = "timestamp out of range";
	if (!why && profdb__kineto_jint(&a[A_MEM_BYTES]) == PROFDB_NULL)
		why = "memory event without Bytes";
	if (!why && (dtype = profdb__kineto_jint(&a[A_MEM_DEVTYPE])) == PROFDB_NULL)
		why = "memory event without Device Type";
	if (why)
		return skip(r, why);
	m = (struct profdb_mem_rec){
		.rank = r->rank, .device_type = device_type_name(dtype, tbuf, sizeof tbuf),
		.device_id = profdb__kineto_jint(&a[A_MEM_DEVID]), .component = NULL,
		.ts_ns = ts + r->base_ns, .bytes = profdb__kineto_jint(&a[A_MEM_BYTES]),
		.addr = profdb__kineto_jint(&a[A_MEM_ADDR]),
		.total_allocated = profdb__kineto_jint(&a[A_MEM_TOTAL_ALLOC]),
		.total_reserved = profdb__kineto_jint(&a[A_MEM_TOTAL_RES]),
		.total_active = PROFDB_NULL, .step = PROFDB_NULL, .tid = jid(&e[F_TID]),
	};
	/* the range of times sent, as for the X events (a later base time) */
	if (!r->any_time || m.ts_ns < r->t_min)
		r->t_min = m.ts_ns;
	if (!r->any_time || m.ts_ns > r->t_max)
		r->t_max = m.ts_ns;
	r->any_time = 1;
	return profdb__sink_memory(r->sink, &m);
}

/*
 * An event of len bytes by its fields e (and a, its args' fields, when
 * args_read; else they are read here, only for events we keep): records
 * or a skip.
 */
static int handle_event(struct profdb__kreader *r, size_t len,
                        const struct profdb__jval *e, struct profdb__jval *a, int args_read)
{
	int rc, cls, kind;
	int64_t dur, start, step;
	const char *name, *cat, *why;

	if (str_eq(&e[F_PH], "i", 1) && str_eq(&e[F_NAME], "[memory]", 8))
		return handle_memory(r, len, e, a, args_read);
	if (!str_eq(&e[F_PH], "X", 1))
		return PROFDB_OK; /* flows, metadata, other instants, counters */
	cls = classify(e, &kind);
	if (cls == EV_OTHER)
		return PROFDB_OK;
	why = event_prepare(r, len, e, a, args_read, &rc);
	if (!why && rc == PROFDB_OK)
		why = event_times(r, e, &start, &dur);
	if (why)
		return skip(r, why);
	if (rc != PROFDB_OK)
		return rc;
	name = jstr(r, &e[F_NAME]);
	cat = e[F_CAT].type ? jstr(r, &e[F_CAT]) : NULL;
	if (!name)
		return profdb__err_set(r->err, PROFDB_ERROR, "out of memory");
	switch (cls) {
	case EV_DEVICE:
		return emit_device(r, e, a, kind, name, cat, start, dur);
	case EV_LAUNCH:
		return emit_launch(r, e, a, name, start, dur);
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
	return emit_op(r, e, a, name, cat, start, dur);
}

/* The next element of traceEvents, read from js. */
int profdb__kineto_event(struct profdb__kreader *r, struct profdb__json_scan *js)
{
	struct profdb__jval e[NFIELDS], a[NARGS];
	const char *text;
	size_t len;
	int rc, picked;

	/* an event past the capture bound (a 200 MB number, an args array of
	 * 10^7 elements) is skipped and counted, the rest of the trace read */
	js->skip_big = 1;
	rc = profdb__json_value_pick(js, &r->pick, e, a, &text, &len, &picked);
	js->skip_big = 0;
	if (rc != PROFDB_OK)
		return rc;
	r->nevents++;
	if (js->big)
		return skip(r, "event over 16 MiB (strings past 512 KiB not counted)");
	if (picked)
		return handle_event(r, len, e, a, 1);
	/* what the one pass leaves: member by member, with the same answers */
	if (len == 0 || text[0] != '{')
		return skip(r, "event is not a JSON object");
	if (walk_members(text, len, ev_keys, COUNT(ev_keys), e, NFIELDS) < 0)
		return skip(r, "malformed event object");
	return handle_event(r, len, e, a, 0);
}

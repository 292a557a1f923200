/*
 * ingest_ascend_trace_view.c - the device events of a torch_npu
 * trace_view.json (FORMATS.md "trace_view.json"): a JSON array of Chrome
 * events whose device tasks sit under the "Ascend Hardware" process and
 * whose communication ops under "HCCL".  Read only when it is a rank's
 * only device data (no kernel_details.csv, no db): the Kineto reader would
 * find no kernel category in it and store nothing.
 *
 * Two passes, so memory stays flat whatever the size: the process and
 * thread names (M events, written after the X events they name) first,
 * then the X events.  What becomes a row (doc/inputs.md "Sessions and ranks"):
 *  - Ascend Hardware X events whose Task Type is a compute core (AI_*,
 *    MIX_*, DSA_SQE, FFTS*), or "Other" (older exports) on a task named
 *    after an op rather than a runtime task (EVENT_RECORD: capitals only):
 *    kernels, core = Task Type; MEMCPY_ASYNC tasks: memcpy.  The other hardware tasks (event record/wait, place
 *    holders, HCCL's Notify Wait/Write Value/SDMA sub-tasks) are not
 *    rows: kernel_details.csv leaves them out too.
 *  - HCCL X events on a "... Communication" thread (hcom_allReduce_...):
 *    communication, core HCCL; the "Plane N" sub-tasks are not rows.
 * Everything else (host ops, flows, counters) is counted as read only.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "ascend_csv.h"
#include "json_scan.h"
#include "banned.h"

enum { P_HARDWARE = 1, P_HCCL = 2 };

struct tv_proc {
	int64_t pid;
	int what;                  /* P_HARDWARE, P_HCCL or 0 */
};

struct tv_thread {
	int64_t pid, tid;          /* an HCCL thread that holds the ops */
};

struct tv {
	const char *path;
	int64_t rank;
	struct profdb_sink *sink;
	struct profdb_err *err;
	struct profdb_input *in;
	uint64_t gzip_max;
	struct tv_proc *procs;
	size_t nprocs;
	struct tv_thread *comm;
	size_t ncomm;
	char *name;                /* decoded name buffer */
	size_t name_cap;
	int64_t events;            /* elements of the array */
};

/* The fields of one event; absent ones have type PROFDB_J_NONE. */
struct tv_event {
	struct profdb__jval ph, name, pid, tid, ts, dur, cat, args;
};

static long tv_read(void *arg, void *buf, size_t n, struct profdb_err *err)
{
	return profdb__input_read(arg, buf, n, err);
}

static void event_fields(const char *text, size_t len, struct tv_event *e)
{
	struct profdb__jval k, v;
	size_t pos = 0;
	memset(e, 0, sizeof *e);
	while (profdb__json_member(text, len, &pos, &k, &v) == 1) {
		struct profdb__jval *slot = profdb__json_str_is(&k, "ph") ? &e->ph
		    : profdb__json_str_is(&k, "name") ? &e->name : profdb__json_str_is(&k, "pid") ? &e->pid
		    : profdb__json_str_is(&k, "tid") ? &e->tid : profdb__json_str_is(&k, "ts") ? &e->ts
		    : profdb__json_str_is(&k, "dur") ? &e->dur : profdb__json_str_is(&k, "cat") ? &e->cat
		    : profdb__json_str_is(&k, "args") ? &e->args : NULL;
		if (slot)
			*slot = v;
	}
}

/* The member key of object value obj, or a NONE value. */
static struct profdb__jval member(const struct profdb__jval *obj, const char *key)
{
	struct profdb__jval k, v, none = { PROFDB_J_NONE, NULL, 0 };
	size_t pos = 0;
	if (obj->type != PROFDB_J_OBJECT)
		return none;
	while (profdb__json_member(obj->p, obj->n, &pos, &k, &v) == 1)
		if (profdb__json_str_is(&k, key))
			return v;
	return none;
}

/* A number or a numeric string ("ts": "1736408883674584.732") in ns. */
static int num_ns(const struct profdb__jval *v, int scale, int64_t *out)
{
	if (v->type == PROFDB_J_NUMBER)
		return profdb__parse_ns(v->p, v->n, scale, out);
	if (v->type == PROFDB_J_STRING && v->n >= 2)
		return profdb__parse_ns(v->p + 1, v->n - 2, scale, out);
	return -1;
}

/* Decode string v into t->name (grown); NULL when v is not a string. */
static const char *text_of(struct tv *t, const struct profdb__jval *v)
{
	if (v->type != PROFDB_J_STRING)
		return NULL;
	if (t->name_cap < v->n + 1) {
		char *p = realloc(t->name, v->n + 1);
		if (!p)
			return NULL;
		t->name = p;
		t->name_cap = v->n + 1;
	}
	profdb__json_str_decode(v, t->name, t->name_cap);
	return t->name;
}

static int proc_of(const struct tv *t, int64_t pid)
{
	for (size_t i = 0; i < t->nprocs; i++)
		if (t->procs[i].pid == pid)
			return t->procs[i].what;
	return 0;
}

static int is_comm_thread(const struct tv *t, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < t->ncomm; i++)
		if (t->comm[i].pid == pid && t->comm[i].tid == tid)
			return 1;
	return 0;
}

/* Pass 1: an M event naming a process or an HCCL thread. */
static int learn_names(struct tv *t, const struct tv_event *e)
{
	struct profdb__jval nm = member(&e->args, "name");
	const char *name;
	int64_t pid, tid = 0;
	if (!profdb__json_str_is(&e->ph, "M") || num_ns(&e->pid, 0, &pid) != 0)
		return PROFDB_OK;
	if (!(name = text_of(t, &nm)))
		return PROFDB_OK;
	if (profdb__json_str_is(&e->name, "process_name")) {
		struct tv_proc *p = realloc(t->procs, (t->nprocs + 1) * sizeof *p);
		if (!p)
			return profdb__err_set(t->err, PROFDB_ERROR, "out of memory");
		t->procs = p;
		p[t->nprocs].pid = pid;
		p[t->nprocs++].what = strcmp(name, "Ascend Hardware") == 0 ? P_HARDWARE
		                      : strcmp(name, "HCCL") == 0 ? P_HCCL : 0;
	} else if (profdb__json_str_is(&e->name, "thread_name") && strstr(name, "Communication") &&
	           num_ns(&e->tid, 0, &tid) == 0) {
		struct tv_thread *c = realloc(t->comm, (t->ncomm + 1) * sizeof *c);
		if (!c)
			return profdb__err_set(t->err, PROFDB_ERROR, "out of memory");
		t->comm = c;
		c[t->ncomm].pid = pid;
		c[t->ncomm++].tid = tid;
	}
	return PROFDB_OK;
}

/* A runtime task's name (EVENT_RECORD, PROFILING_ENABLE): capitals,
 * digits and '_' only.  Operator kernels are named after ops (aclnnMm_...). */
static int is_runtime_name(const char *name)
{
	for (; *name; name++)
		if (!((*name >= 'A' && *name <= 'Z') || (*name >= '0' && *name <= '9') || *name == '_'))
			return 0;
	return 1;
}

/* The kind of a hardware task, or -1 when it is not a row. */
static int hardware_kind(const char *task_type, const char *name)
{
	if (!name)
		return -1;
	if (strcmp(name, "MEMCPY_ASYNC") == 0)
		return PROFDB_KIND_MEMCPY;
	if (task_type && (strncmp(task_type, "AI_", 3) == 0 || strncmp(task_type, "MIX_", 4) == 0 ||
	    strcmp(task_type, "DSA_SQE") == 0 || strncmp(task_type, "FFTS", 4) == 0))
		return PROFDB_KIND_KERNEL;
	/* older exports (2024) write "Other" for every compute task */
	if ((!task_type || strcmp(task_type, "Other") == 0) && !is_runtime_name(name))
		return PROFDB_KIND_KERNEL;
	return -1;
}

/* Pass 2: an X event of the device processes becomes a row. */
static int emit_event(struct tv *t, const struct tv_event *e)
{
	struct profdb_kernel_rec k;
	struct profdb__jval tt = member(&e->args, "Task Type"), task = member(&e->args, "Task Id");
	char type_buf[64] = "";
	int64_t pid, tid = PROFDB_NULL, v;
	int what, kind;

	if (!profdb__json_str_is(&e->ph, "X") || e->cat.type != PROFDB_J_NONE || num_ns(&e->pid, 0, &pid) != 0)
		return PROFDB_OK;
	what = proc_of(t, pid);
	if (!what)
		return PROFDB_OK;
	if (num_ns(&e->tid, 0, &v) == 0)
		tid = v;
	if (what == P_HCCL) {
		if (!is_comm_thread(t, pid, tid))
			return PROFDB_OK;
		kind = PROFDB_KIND_COMM;
		snprintf(type_buf, sizeof type_buf, "HCCL");
	} else {
		if (tt.type == PROFDB_J_STRING && tt.n < sizeof type_buf)
			profdb__json_str_decode(&tt, type_buf, sizeof type_buf);
		kind = hardware_kind(type_buf[0] ? type_buf : NULL, text_of(t, &e->name));
		if (kind < 0)
			return PROFDB_OK;
	}
	profdb__kernel_rec_init(&k);
	k.rank = t->rank;
	k.kind = kind;
	k.core = type_buf;
	k.stream = tid;
	/* synthetic pid: (pid << 10) | (sort index << 5) | device id */
	k.device = pid & 31;
	if (num_ns(&task, 0, &v) == 0)
		k.task_id = v;
	if (num_ns(&e->ts, 3, &k.start_ns) != 0)
		return profdb__sink_skip(t->sink, "device event without a numeric ts", t->events);
	if (num_ns(&e->dur, 3, &k.dur_ns) != 0)
		return profdb__sink_skip(t->sink, "device event without a numeric dur", t->events);
	if (k.dur_ns <= 0)
		return profdb__sink_skip(t->sink, "non-positive duration", t->events);
	if (!(k.name = text_of(t, &e->name)) || !*k.name)
		return profdb__sink_skip(t->sink, "missing name", t->events);
	return profdb__sink_kernel(t->sink, &k);
}

/* One pass over the array: fn on every event. */
static int each_event(struct tv *t, int (*fn)(struct tv *, const struct tv_event *))
{
	struct profdb__json_scan js;
	int c, rc;
	if ((rc = profdb__json_scan_init(&js, tv_read, t->in, t->path, t->err)) != PROFDB_OK)
		return rc;
	t->events = 0;
	c = profdb__json_peek(&js);
	if (c != '[') {
		rc = c == PROFDB_JSON_FAIL ? t->err->code
		     : profdb__err_set(t->err, PROFDB_EFORMAT, "%s: byte %llu: expected a JSON array of events",
		                       t->path, (unsigned long long)profdb__json_offset(&js));
		goto out;
	}
	profdb__json_advance(&js);
	if (profdb__json_peek(&js) == ']')
		goto out;
	for (;;) {
		struct tv_event e;
		const char *text;
		size_t len;
		if ((rc = profdb__json_value(&js, &text, &len)) != PROFDB_OK)
			break;
		t->events++;
		event_fields(text, len, &e);
		if ((rc = fn(t, &e)) != PROFDB_OK)
			break;
		c = profdb__json_peek(&js);
		profdb__json_advance(&js);
		if (c == ']')
			break;
		if (c != ',') {
			rc = c == PROFDB_JSON_FAIL ? t->err->code
			     : profdb__err_set(t->err, PROFDB_EFORMAT, "%s: byte %llu: %s", t->path,
			                       (unsigned long long)profdb__json_offset(&js),
			                       c == PROFDB_JSON_END ? "truncated JSON: the event array is not closed"
			                                            : "expected ',' or ']' after an event");
			break;
		}
	}
out:
	profdb__json_scan_free(&js);
	return rc;
}

static int pass(struct tv *t, int (*fn)(struct tv *, const struct tv_event *))
{
	int rc;
	if ((rc = profdb__input_open(&t->in, t->path, t->gzip_max, t->err)) != PROFDB_OK)
		return rc;
	rc = each_event(t, fn);
	return rc;
}

int profdb__ascend_read_trace_view(const struct profdb__ascend_src *src, const char *path)
{
	struct tv t = { .path = path, .rank = src->rank, .sink = src->ctx->sink, .err = src->ctx->err,
	                .gzip_max = src->ctx->limits->gzip_max_bytes };
	struct profdb_sink *s = t.sink;
	char sha[65];
	int rc;

	rc = pass(&t, learn_names);
	profdb__input_close(t.in);
	t.in = NULL;
	if (rc == PROFDB_OK)
		rc = profdb__sink_source_begin(s, path, "trace_view", t.rank, NULL, 0);
	if (rc == PROFDB_OK)
		rc = pass(&t, emit_event);
	if (rc == PROFDB_OK) {
		profdb__input_sha256(t.in, sha);
		rc = profdb__sink_source_end(s, t.events, sha, profdb__input_size(t.in));
	}
	profdb__input_close(t.in);
	free(t.procs);
	free(t.comm);
	free(t.name);
	return rc;
}

static int read_trace_view(const struct profdb_reader_ctx *ctx)
{
	struct profdb__ascend_src src = { ctx, ctx->rank == PROFDB_NULL ? 0 : ctx->rank, 0, 0 };
	return profdb__ascend_read_trace_view(&src, ctx->path);
}

/* Is the value of the first "ts" key of buf a string ("ts": "1736...")?
 * One file writes ts one way, so the first key answers for all; -1 when
 * buf holds no "ts" key yet. */
static int string_ts(const char *buf)
{
	for (const char *p = strstr(buf, "\"ts\""); p; p = strstr(p + 4, "\"ts\"")) {
		const char *q = p + 4;
		while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
			q++;
		if (*q != ':')
			continue; /* "ts" as a value, not a key */
		q++;
		while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
			q++;
		return *q == '"';
	}
	return -1;
}

/* An array of trace events whose ts is a string: torch_npu writes it so,
 * Kineto never (its row comes after this one). */
static int sniff(const struct profdb_sniff *s)
{
	size_t i = profdb__sniff_ws(s->buf, s->n, 0), j;
	int str;
	if (i >= s->n || s->buf[i] != '[')
		return i >= s->n ? PROFDB_SNIFF_MORE : PROFDB_SNIFF_NO;
	j = profdb__sniff_ws(s->buf, s->n, i + 1);
	if (j >= s->n)
		return PROFDB_SNIFF_MORE;
	if (s->buf[j] != '{')
		return PROFDB_SNIFF_NO;
	str = string_ts(s->buf);
	return str > 0 ? PROFDB_SNIFF_YES : str < 0 ? PROFDB_SNIFF_MORE : PROFDB_SNIFF_NO;
}

const struct profdb_reader profdb__reader_ascend_trace_view = {
	.name = "ascend_trace_view", .label = "ascend_trace_view", .sniff = sniff,
	.read = read_trace_view, .flags = PROFDB_READER_WALK,
};

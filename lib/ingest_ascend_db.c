/*
 * ingest_ascend_db.c - reader for the SQLite exports of torch_npu / msprof:
 * ascend_pytorch_profiler[_N].db (an export_type=db *_ascend_pt folder or
 * the lone file) and msprof_*.db (FORMATS.md 4.1).
 *
 * The source is opened read-only on its own connection, never ATTACHed to
 * the store.  Every column is found by name (PRAGMA table_info): the column
 * order differs between versions and old migration tables exist.
 *
 * Records: device kernels = TASK joined with COMPUTE_TASK_INFO (TASK's other
 * rows are event records, SDMA, notify waits: not kernels), communication
 * operators = COMMUNICATION_OP (what kernel_details.csv lists as
 * communication rows), PMU metrics = TASK_PMU_INFO, host operators =
 * PYTORCH_API rows of type op, steps = STEP_TIME, rank = RANK_DEVICE_MAP or
 * profiler_info_N.json.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cjson/cJSON.h>

#include "internal.h"
#include "banned.h"

#define API_TYPE_OP 50001      /* ENUM_API_TYPE: a torch operator */
#define NO_OP ((size_t)-1)     /* "no host op" index */

/* A step span from STEP_TIME (host ProfilerStep#N span). */
struct span {
	int64_t step, start, end;
};

/* A CONNECTION_IDS row: PYTORCH_API.connectionId (id) -> task connection. */
struct conn {
	int64_t conn;              /* the connectionId TASK and COMMUNICATION_OP carry */
	int64_t id;                /* the PYTORCH_API.connectionId it belongs to */
};

/* A host operator, kept until its self and device times are known. */
struct hop {
	int64_t start, end, tid, conn_id, seq, step;
	int64_t line;              /* its row among PYTORCH_API's op rows, for skip counts */
	int64_t self, dev_self, dev_total, ai_self, ai_total;
	size_t parent;             /* enclosing op on the same thread, NO_OP if none */
	char *name, *shapes, *dtypes, *stack; /* owned */
};

struct okey;

struct rd {
	const struct profdb_reader_ctx *ctx;
	struct profdb_sink *sink;
	sqlite3 *db;               /* the source, read-only */
	const char *file;          /* the .db file */
	int64_t rank, device;      /* device: PROFDB_NULL unless known for the whole file */
	int64_t rows;              /* data records read */
	struct span *steps;        /* sorted by start */
	size_t nsteps;
	struct conn *conns;        /* sorted by conn */
	size_t nconns;
	struct hop *ops;
	size_t nops;
	struct okey *by_id;        /* ops sorted by conn_id */
	int linked;                /* the file has CONNECTION_IDS: device times can be derived */
};

static int fail_sql(struct rd *r, const char *what)
{
	return profdb__err_set(r->ctx->err, PROFDB_EFORMAT, "%s: %s: %s", r->file, what,
	                       sqlite3_errmsg(r->db));
}

static int oom(struct rd *r)
{
	return profdb__err_set(r->ctx->err, PROFDB_ERROR, "out of memory");
}

static int skip(struct rd *r, const char *reason, int64_t where)
{
	return r->sink->skip ? r->sink->skip(r->sink->arg, reason, where) : PROFDB_OK;
}

static char *dup_text(sqlite3_stmt *q, int col)
{
	const unsigned char *t = sqlite3_column_text(q, col);
	return t ? strdup((const char *)t) : NULL;
}

static int64_t col_i64(sqlite3_stmt *q, int col)
{
	return sqlite3_column_type(q, col) == SQLITE_NULL ? PROFDB_NULL : sqlite3_column_int64(q, col);
}

/* An int column that may also hold its number as text ("123"); else NULL. */
static int64_t col_ns(sqlite3_stmt *q, int col)
{
	int64_t v;
	const char *t;
	if (sqlite3_column_type(q, col) == SQLITE_INTEGER)
		return sqlite3_column_int64(q, col);
	t = (const char *)sqlite3_column_text(q, col);
	/* PYTORCH_API stores startNs/endNs as TEXT: parse it exactly */
	if (!t || profdb_parse_ns(t, strlen(t), 0, &v) != 0)
		return PROFDB_NULL;
	return v;
}

/* ---------------------------------------------------------------- schema by name */

static int has_table(struct rd *r, const char *table)
{
	sqlite3_stmt *q = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view')"
	                       " AND name = ?1", -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	found = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return found;
}

static int has_col(struct rd *r, const char *table, const char *col)
{
	sqlite3_stmt *q = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(r->db, "SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2",
	                       -1, &q, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_text(q, 1, table, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, col, -1, SQLITE_STATIC);
	found = sqlite3_step(q) == SQLITE_ROW;
	sqlite3_finalize(q);
	return found;
}

/* "alias.col" if table has col (else alt col, else the SQL NULL). */
static const char *pick(struct rd *r, char *buf, size_t cap, const char *alias,
                        const char *table, const char *col, const char *alt)
{
	if (has_col(r, table, col))
		snprintf(buf, cap, "%s.\"%s\"", alias, col);
	else if (alt && has_col(r, table, alt))
		snprintf(buf, cap, "%s.\"%s\"", alias, alt);
	else
		snprintf(buf, cap, "NULL");
	return buf;
}

/* A STRING_IDS lookup of alias.col as a scalar subquery, or NULL. */
static const char *str_of(struct rd *r, char *buf, size_t cap, const char *alias,
                          const char *table, const char *col, const char *alt)
{
	char c[96];
	pick(r, c, sizeof c, alias, table, col, alt);
	if (strcmp(c, "NULL") == 0)
		snprintf(buf, cap, "NULL");
	else
		snprintf(buf, cap, "(SELECT value FROM STRING_IDS WHERE id = %s)", c);
	return buf;
}

/* ---------------------------------------------------------------- steps, links */

static int cmp_span(const void *a, const void *b)
{
	const struct span *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_conn(const void *a, const void *b)
{
	const struct conn *x = a, *y = b;
	if (x->conn != y->conn)
		return x->conn < y->conn ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The step whose span holds t, or PROFDB_NULL. */
static int64_t step_at(const struct rd *r, int64_t t)
{
	size_t lo = 0, hi = r->nsteps;
	if (t == PROFDB_NULL)
		return PROFDB_NULL;
	while (lo < hi) { /* first span starting after t */
		size_t mid = lo + (hi - lo) / 2;
		if (r->steps[mid].start <= t)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo > 0 && t < r->steps[lo - 1].end)
		return r->steps[lo - 1].step;
	return PROFDB_NULL;
}

static int read_steps(struct rd *r)
{
	sqlite3_stmt *q = NULL;
	char sql[256];
	int rc = PROFDB_OK;

	if (!has_table(r, "STEP_TIME") || !has_col(r, "STEP_TIME", "id"))
		return PROFDB_OK;
	snprintf(sql, sizeof sql, "SELECT id, startNs, endNs FROM STEP_TIME ORDER BY id");
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail_sql(r, "STEP_TIME");
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb_step_rec s = { r->rank, col_i64(q, 0), col_ns(q, 1), col_ns(q, 2) };
		struct span *n;
		if (s.step == PROFDB_NULL)
			continue;
		rc = r->sink->step ? r->sink->step(r->sink->arg, &s) : PROFDB_OK;
		if (s.start_ns == PROFDB_NULL || s.end_ns == PROFDB_NULL)
			continue;
		n = realloc(r->steps, (r->nsteps + 1) * sizeof *n);
		if (!n) {
			rc = oom(r);
			break;
		}
		r->steps = n;
		r->steps[r->nsteps++] = (struct span){ s.step, s.start_ns, s.end_ns };
	}
	sqlite3_finalize(q);
	qsort(r->steps, r->nsteps, sizeof *r->steps, cmp_span);
	return rc;
}

static int read_conns(struct rd *r)
{
	sqlite3_stmt *q = NULL;
	size_t cap = 0;

	if (!has_table(r, "CONNECTION_IDS") || !has_col(r, "CONNECTION_IDS", "id") ||
	    !has_col(r, "CONNECTION_IDS", "connectionId"))
		return PROFDB_OK;
	if (sqlite3_prepare_v2(r->db, "SELECT connectionId, id FROM CONNECTION_IDS"
	                       " WHERE connectionId IS NOT NULL AND id IS NOT NULL", -1, &q, NULL) != SQLITE_OK)
		return fail_sql(r, "CONNECTION_IDS");
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (r->nconns == cap) {
			struct conn *n = realloc(r->conns, (cap = cap ? cap * 2 : 1024) * sizeof *n);
			if (!n) {
				sqlite3_finalize(q);
				return oom(r);
			}
			r->conns = n;
		}
		r->conns[r->nconns++] = (struct conn){ sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1) };
	}
	sqlite3_finalize(q);
	qsort(r->conns, r->nconns, sizeof *r->conns, cmp_conn);
	r->linked = 1;
	return PROFDB_OK;
}

/* Sort keys of an op, so qsort needs no context. */
struct okey {
	int64_t a, b, c;           /* by id: (conn_id); nesting: (tid, start, -end) */
	size_t i;                  /* index into rd.ops */
};

static int cmp_okey(const void *x, const void *y)
{
	const struct okey *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	if (p->c != q->c)
		return p->c < q->c ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

/* The first op (lowest index) whose PYTORCH_API.connectionId is id. */
static size_t op_with_id(const struct rd *r, int64_t id)
{
	size_t lo = 0, hi = r->nops;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->by_id[mid].a < id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < r->nops && r->by_id[lo].a == id ? r->by_id[lo].i : NO_OP;
}

/* The host op that launched a task of this connectionId, or NO_OP. */
static size_t op_of_task(const struct rd *r, int64_t conn)
{
	size_t lo = 0, hi = r->nconns;
	if (conn == PROFDB_NULL || !r->by_id)
		return NO_OP;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r->conns[mid].conn < conn)
			lo = mid + 1;
		else
			hi = mid;
	}
	/* a task connection may belong to several ids (the queue events too) */
	for (; lo < r->nconns && r->conns[lo].conn == conn; lo++) {
		size_t op = op_with_id(r, r->conns[lo].id);
		if (op != NO_OP)
			return op;
	}
	return NO_OP;
}

/*
 * A kernel's step: the step of the host op that launched it (kernels run
 * after their launch, maybe after the host step ended, as torch_npu's
 * device-side step ranges allow); without a link, the step span that holds
 * the kernel's own start.
 */
static int64_t kernel_step(const struct rd *r, int64_t conn, int64_t start)
{
	size_t op = op_of_task(r, conn);
	if (op != NO_OP && r->ops[op].step != PROFDB_NULL)
		return r->ops[op].step;
	return step_at(r, start);
}

/* Add a device activity to the device self time of the op that launched it. */
static void charge(struct rd *r, int64_t conn, int64_t dur, const char *core)
{
	size_t op = op_of_task(r, conn);
	if (op == NO_OP)
		return;
	r->ops[op].dev_self += dur;
	if (core && strcmp(core, "AI_CORE") == 0)
		r->ops[op].ai_self += dur;
}

/* ---------------------------------------------------------------- host ops */

static int read_ops(struct rd *r)
{
	/* a call chain is one row per frame: join them innermost first, as
	 * operator_details' Call Stack (sorted subquery: group_concat keeps it) */
	static const char *const with_cc =
		"WITH cc AS (SELECT id, group_concat(v, ';' || char(10)) AS stack FROM"
		" (SELECT c.id, s.value AS v FROM PYTORCH_CALLCHAINS c JOIN STRING_IDS s ON s.id = c.stack"
		"  ORDER BY c.id, c.stackDepth) GROUP BY id) ";
	static const char *const fmt =
		"%sSELECT p.startNs, p.endNs, %s, %s, %s, %s, %s, %s, %s FROM PYTORCH_API p %s %s";
	char sql[2048], tid[64], cid[64], seq[64], nm[192], sh[192], dt[192], join[128], where[64];
	sqlite3_stmt *q = NULL;
	size_t cap = 0;
	int64_t line = 0;
	int chains, rc = PROFDB_OK;

	if (!has_table(r, "PYTORCH_API") || !has_col(r, "PYTORCH_API", "startNs") ||
	    !has_col(r, "PYTORCH_API", "endNs") || !has_col(r, "PYTORCH_API", "name"))
		return PROFDB_OK;
	chains = has_table(r, "PYTORCH_CALLCHAINS") && has_col(r, "PYTORCH_CALLCHAINS", "stack") &&
	         has_col(r, "PYTORCH_CALLCHAINS", "stackDepth") && has_col(r, "PYTORCH_API", "callchainId");
	snprintf(join, sizeof join, "%s", chains ? "LEFT JOIN cc ON cc.id = p.callchainId" : "");
	if (has_col(r, "PYTORCH_API", "type"))
		snprintf(where, sizeof where, "WHERE p.type = %d", API_TYPE_OP);
	else
		where[0] = '\0';
	snprintf(sql, sizeof sql, fmt, chains ? with_cc : "",
	         pick(r, tid, sizeof tid, "p", "PYTORCH_API", "globalTid", NULL),
	         pick(r, cid, sizeof cid, "p", "PYTORCH_API", "connectionId", NULL),
	         pick(r, seq, sizeof seq, "p", "PYTORCH_API", "sequenceNumber", NULL),
	         str_of(r, nm, sizeof nm, "p", "PYTORCH_API", "name", NULL),
	         str_of(r, sh, sizeof sh, "p", "PYTORCH_API", "inputShapes", NULL),
	         str_of(r, dt, sizeof dt, "p", "PYTORCH_API", "inputDtypes", NULL),
	         chains ? "cc.stack" : "NULL", join, where);
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail_sql(r, "PYTORCH_API");
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct hop h;
		line++;
		r->rows++;
		memset(&h, 0, sizeof h);
		h.start = col_ns(q, 0);
		h.end = col_ns(q, 1);
		if (h.start == PROFDB_NULL || h.end == PROFDB_NULL || sqlite3_column_type(q, 5) == SQLITE_NULL) {
			rc = skip(r, "host op without name, start or end", line);
			continue;
		}
		if (h.end < h.start) {
			rc = skip(r, "host op ends before it starts", line);
			continue;
		}
		h.tid = col_i64(q, 2);
		h.conn_id = col_i64(q, 3);
		h.seq = col_i64(q, 4);
		if (h.seq == -1) /* torch writes -1 for "no sequence number" */
			h.seq = PROFDB_NULL;
		h.parent = NO_OP;
		h.line = line;
		h.step = step_at(r, h.start);
		h.name = dup_text(q, 5);
		h.shapes = dup_text(q, 6);
		h.dtypes = dup_text(q, 7);
		h.stack = dup_text(q, 8);
		if (r->nops == cap) {
			struct hop *n = realloc(r->ops, (cap = cap ? cap * 2 : 1024) * sizeof *n);
			if (!n) {
				free(h.name); free(h.shapes); free(h.dtypes); free(h.stack);
				rc = oom(r);
				break;
			}
			r->ops = n;
		}
		r->ops[r->nops++] = h;
		if (!h.name)
			rc = oom(r);
	}
	sqlite3_finalize(q);
	if (rc != PROFDB_OK || r->nops == 0)
		return rc;
	r->by_id = malloc(r->nops * sizeof *r->by_id);
	if (!r->by_id)
		return oom(r);
	for (size_t i = 0; i < r->nops; i++)
		r->by_id[i] = (struct okey){ r->ops[i].conn_id, 0, 0, i };
	qsort(r->by_id, r->nops, sizeof *r->by_id, cmp_okey);
	return PROFDB_OK;
}

/*
 * Self times need the nesting per thread, as Kineto's: sort by (thread,
 * start, longest first); an op's parent is the innermost open op that
 * contains its start.  Self = duration minus the direct children's time
 * inside it.  Device total = own device time plus the children's totals.
 */
static int nest_ops(struct rd *r)
{
	struct okey *ord = malloc((r->nops ? r->nops : 1) * sizeof *ord);
	size_t *stack = malloc((r->nops ? r->nops : 1) * sizeof *stack);
	size_t depth = 0;

	if (!ord || !stack) {
		free(ord);
		free(stack);
		return oom(r);
	}
	for (size_t i = 0; i < r->nops; i++) {
		/* longest first among equal starts: the enclosing op comes first */
		ord[i] = (struct okey){ r->ops[i].tid, r->ops[i].start, -r->ops[i].end, i };
		r->ops[i].self = r->ops[i].end - r->ops[i].start;
	}
	qsort(ord, r->nops, sizeof *ord, cmp_okey);
	for (size_t k = 0; k < r->nops; k++) {
		struct hop *h = &r->ops[ord[k].i];
		while (depth > 0) {
			struct hop *top = &r->ops[stack[depth - 1]];
			if (top->tid == h->tid && h->start < top->end)
				break;
			depth--;
		}
		if (depth > 0) {
			struct hop *p = &r->ops[stack[depth - 1]];
			h->parent = stack[depth - 1];
			/* a child that outlives its parent only costs the parent its overlap */
			p->self -= (h->end < p->end ? h->end : p->end) - h->start;
		}
		stack[depth++] = ord[k].i;
	}
	for (size_t i = 0; i < r->nops; i++) {
		r->ops[i].dev_total = r->ops[i].dev_self;
		r->ops[i].ai_total = r->ops[i].ai_self;
	}
	/* children follow their parents in ord: walking back finishes them first */
	for (size_t k = r->nops; k-- > 0;) {
		struct hop *h = &r->ops[ord[k].i];
		if (h->parent != NO_OP) {
			r->ops[h->parent].dev_total += h->dev_total;
			r->ops[h->parent].ai_total += h->ai_total;
		}
	}
	free(ord);
	free(stack);
	return PROFDB_OK;
}

static int is_step_op(const char *name)
{
	return strncmp(name, "ProfilerStep#", 13) == 0;
}

static int emit_ops(struct rd *r)
{
	int rc = PROFDB_OK;
	if (!r->sink->op)
		return PROFDB_OK;
	for (size_t i = 0; i < r->nops && rc == PROFDB_OK; i++) {
		const struct hop *h = &r->ops[i];
		struct profdb_op_rec o;
		/* the step spans are steps, not operators (operator_details skips them too) */
		if (is_step_op(h->name)) {
			rc = skip(r, "ProfilerStep span (a step, not an operator)", h->line);
			continue;
		}
		profdb_op_rec_init(&o);
		o.rank = r->rank;
		o.step = h->step;
		o.name = h->name;
		o.category = "cpu_op";
		o.tid = h->tid;
		o.start_ns = h->start;
		o.dur_ns = h->end - h->start;
		o.self_ns = h->self;
		if (r->linked) {
			o.device_self_ns = h->dev_self;
			o.device_total_ns = h->dev_total;
			o.device_self_aicore_ns = h->ai_self;
			o.device_total_aicore_ns = h->ai_total;
		}
		o.seq = h->seq;
		o.in_shapes = h->shapes;
		o.in_types = h->dtypes;
		o.call_stack = h->stack;
		rc = r->sink->op(r->sink->arg, &o);
	}
	return rc;
}

/* ---------------------------------------------------------------- kernels */

/* Collected PMU metrics of one kernel (names owned). */
struct pmu {
	sqlite3_stmt *q;           /* ordered by globalTaskId; NULL: no PMU table */
	int more;                  /* q is on a row */
	struct profdb_metric *m;
	size_t n, cap;
};

static void pmu_clear(struct pmu *p)
{
	for (size_t i = 0; i < p->n; i++)
		free((char *)p->m[i].name);
	p->n = 0;
}

/* Gather the metrics of task gid (the cursor moves forward only). */
static int pmu_collect(struct rd *r, struct pmu *p, int64_t gid)
{
	pmu_clear(p);
	while (p->more && sqlite3_column_int64(p->q, 0) < gid)
		p->more = sqlite3_step(p->q) == SQLITE_ROW;
	for (; p->more && sqlite3_column_int64(p->q, 0) == gid; p->more = sqlite3_step(p->q) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(p->q, 1);
		double v;
		int t = sqlite3_column_type(p->q, 2);
		if (!name)
			continue;
		if (t == SQLITE_INTEGER || t == SQLITE_FLOAT) {
			v = sqlite3_column_double(p->q, 2);
		} else {
			const char *s = (const char *)sqlite3_column_text(p->q, 2);
			if (!s || profdb_parse_double(s, strlen(s), &v) != 0)
				continue; /* N/A: no value */
		}
		if (p->n == p->cap) {
			struct profdb_metric *m = realloc(p->m, (p->cap = p->cap ? p->cap * 2 : 64) * sizeof *m);
			if (!m)
				return oom(r);
			p->m = m;
		}
		p->m[p->n].name = strdup(name);
		if (!p->m[p->n].name)
			return oom(r);
		p->m[p->n++].value = v;
	}
	return PROFDB_OK;
}

static int64_t hf32_of(const char *s)
{
	if (!s)
		return PROFDB_NULL;
	if (strcmp(s, "YES") == 0 || strcmp(s, "1") == 0)
		return 1;
	if (strcmp(s, "NO") == 0 || strcmp(s, "0") == 0)
		return 0;
	return PROFDB_NULL;
}

static int read_kernels(struct rd *r)
{
	static const char *const fmt =
		"SELECT t.startNs, t.endNs, %s, %s, %s, %s, %s, %s, c.globalTaskId,"
		" %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s"
		" FROM COMPUTE_TASK_INFO c JOIN TASK t ON t.globalTaskId = c.globalTaskId"
		" ORDER BY c.globalTaskId, t.startNs";
	char sql[4096], a[22][192];
	const char *T = "TASK", *C = "COMPUTE_TASK_INFO";
	sqlite3_stmt *q = NULL;
	struct pmu p = { 0 };
	int64_t line = 0;
	int rc = PROFDB_OK;

	if (!has_table(r, C) || !has_table(r, T))
		return PROFDB_OK;
	snprintf(sql, sizeof sql, fmt,
	         pick(r, a[0], sizeof a[0], "t", T, "deviceId", NULL),
	         pick(r, a[1], sizeof a[1], "t", T, "streamId", NULL),
	         pick(r, a[2], sizeof a[2], "t", T, "taskId", NULL),
	         pick(r, a[3], sizeof a[3], "t", T, "modelId", NULL),
	         pick(r, a[4], sizeof a[4], "t", T, "contextId", NULL),
	         pick(r, a[5], sizeof a[5], "t", T, "connectionId", NULL),
	         str_of(r, a[6], sizeof a[6], "c", C, "name", NULL),
	         str_of(r, a[7], sizeof a[7], "c", C, "opType", NULL),
	         str_of(r, a[8], sizeof a[8], "c", C, "taskType", NULL),
	         pick(r, a[9], sizeof a[9], "c", C, "blockNum", "blockDim"),
	         pick(r, a[10], sizeof a[10], "c", C, "mixBlockNum", "mixBlockDim"),
	         pick(r, a[11], sizeof a[11], "c", C, "waitNs", NULL),
	         str_of(r, a[12], sizeof a[12], "c", C, "inputShapes", NULL),
	         str_of(r, a[13], sizeof a[13], "c", C, "inputDataTypes", NULL),
	         str_of(r, a[14], sizeof a[14], "c", C, "inputFormats", NULL),
	         str_of(r, a[15], sizeof a[15], "c", C, "outputShapes", NULL),
	         str_of(r, a[16], sizeof a[16], "c", C, "outputDataTypes", NULL),
	         str_of(r, a[17], sizeof a[17], "c", C, "outputFormats", NULL),
	         str_of(r, a[18], sizeof a[18], "c", C, "opState", NULL),
	         /* hf32Eligible: a STRING_IDS id (YES/NO) in the documented schema */
	         str_of(r, a[19], sizeof a[19], "c", C, "hf32Eligible", NULL));
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail_sql(r, "COMPUTE_TASK_INFO");
	if (has_table(r, "TASK_PMU_INFO") && has_col(r, "TASK_PMU_INFO", "globalTaskId") &&
	    has_col(r, "TASK_PMU_INFO", "name") && has_col(r, "TASK_PMU_INFO", "value")) {
		if (sqlite3_prepare_v2(r->db, "SELECT p.globalTaskId, s.value, p.value FROM TASK_PMU_INFO p"
		    " JOIN STRING_IDS s ON s.id = p.name WHERE p.globalTaskId IS NOT NULL"
		    " ORDER BY p.globalTaskId", -1, &p.q, NULL) != SQLITE_OK) {
			rc = fail_sql(r, "TASK_PMU_INFO");
			goto out;
		}
		p.more = sqlite3_step(p.q) == SQLITE_ROW;
	}
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb_kernel_rec k;
		int64_t end, gid = sqlite3_column_int64(q, 8);
		line++;
		r->rows++;
		profdb_kernel_rec_init(&k);
		k.start_ns = col_ns(q, 0);
		end = col_ns(q, 1);
		k.name = (const char *)sqlite3_column_text(q, 9);
		if (k.start_ns == PROFDB_NULL || end == PROFDB_NULL || !k.name) {
			rc = skip(r, "compute task without name, start or end", line);
			continue;
		}
		if (end < k.start_ns) {
			rc = skip(r, "compute task ends before it starts", line);
			continue;
		}
		k.dur_ns = end - k.start_ns;
		k.rank = r->rank;
		k.device = col_i64(q, 2);
		k.stream = col_i64(q, 3);
		k.task_id = col_i64(q, 4);
		k.model_id = col_i64(q, 5);
		k.context_id = col_i64(q, 6);
		if (k.context_id == UINT32_MAX) /* "no context": kernel_details writes N/A */
			k.context_id = PROFDB_NULL;
		k.type = (const char *)sqlite3_column_text(q, 10);
		k.core = (const char *)sqlite3_column_text(q, 11);
		k.block_dim = col_i64(q, 12);
		k.mix_block_dim = col_i64(q, 13);
		k.wait_ns = col_i64(q, 14);
		k.in_shapes = (const char *)sqlite3_column_text(q, 15);
		k.in_dtypes = (const char *)sqlite3_column_text(q, 16);
		k.in_formats = (const char *)sqlite3_column_text(q, 17);
		k.out_shapes = (const char *)sqlite3_column_text(q, 18);
		k.out_dtypes = (const char *)sqlite3_column_text(q, 19);
		k.out_formats = (const char *)sqlite3_column_text(q, 20);
		k.op_state = (const char *)sqlite3_column_text(q, 21);
		k.hf32 = hf32_of((const char *)sqlite3_column_text(q, 22));
		k.step = kernel_step(r, col_i64(q, 7), k.start_ns);
		if (p.q && (rc = pmu_collect(r, &p, gid)) != PROFDB_OK)
			break;
		k.metrics = p.m;
		k.nmetrics = p.n;
		charge(r, col_i64(q, 7), k.dur_ns, k.core);
		rc = r->sink->kernel(r->sink->arg, &k);
	}
out:
	pmu_clear(&p);
	free(p.m);
	sqlite3_finalize(p.q);
	sqlite3_finalize(q);
	return rc;
}

/* Communication operators: kernel_details.csv lists them among the kernels. */
static int read_comm(struct rd *r)
{
	const char *O = "COMMUNICATION_OP";
	char sql[1024], a[4][192];
	sqlite3_stmt *q = NULL;
	int64_t line = 0;
	int rc = PROFDB_OK;

	if (!has_table(r, O) || !has_col(r, O, "startNs") || !has_col(r, O, "endNs"))
		return PROFDB_OK;
	snprintf(sql, sizeof sql, "SELECT o.startNs, o.endNs, %s, %s, %s, %s FROM COMMUNICATION_OP o"
	         " ORDER BY o.startNs",
	         str_of(r, a[0], sizeof a[0], "o", O, "opName", NULL),
	         str_of(r, a[1], sizeof a[1], "o", O, "opType", NULL),
	         pick(r, a[2], sizeof a[2], "o", O, "waitNs", NULL),
	         pick(r, a[3], sizeof a[3], "o", O, "connectionId", NULL));
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return fail_sql(r, O);
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb_kernel_rec k;
		int64_t end;
		line++;
		r->rows++;
		profdb_kernel_rec_init(&k);
		k.start_ns = col_ns(q, 0);
		end = col_ns(q, 1);
		k.name = (const char *)sqlite3_column_text(q, 2);
		if (k.start_ns == PROFDB_NULL || end == PROFDB_NULL || !k.name) {
			rc = skip(r, "communication op without name, start or end", line);
			continue;
		}
		if (end < k.start_ns) {
			rc = skip(r, "communication op ends before it starts", line);
			continue;
		}
		k.dur_ns = end - k.start_ns;
		k.rank = r->rank;
		k.device = r->device;
		k.kind = PROFDB_KIND_COMM;
		k.type = (const char *)sqlite3_column_text(q, 3);
		k.core = "COMMUNICATION";
		k.wait_ns = col_i64(q, 4);
		k.step = kernel_step(r, col_i64(q, 5), k.start_ns);
		charge(r, col_i64(q, 5), k.dur_ns, k.core);
		rc = r->sink->kernel(r->sink->arg, &k);
	}
	sqlite3_finalize(q);
	return rc;
}

/* ---------------------------------------------------------------- rank, metadata */

/* RANK_DEVICE_MAP: the rank (-1 = unset) and device of this file. */
static void read_rank_map(struct rd *r, int64_t *rank)
{
	sqlite3_stmt *q = NULL;
	*rank = PROFDB_NULL;
	if (!has_table(r, "RANK_DEVICE_MAP") || !has_col(r, "RANK_DEVICE_MAP", "rankId") ||
	    !has_col(r, "RANK_DEVICE_MAP", "deviceId"))
		return;
	if (sqlite3_prepare_v2(r->db, "SELECT rankId, deviceId FROM RANK_DEVICE_MAP", -1, &q, NULL) != SQLITE_OK)
		return;
	if (sqlite3_step(q) == SQLITE_ROW) {
		int64_t rk = col_i64(q, 0);
		if (rk != PROFDB_NULL && rk >= 0)
			*rank = rk;
		r->device = col_i64(q, 1);
		if (r->device != PROFDB_NULL && r->device < 0)
			r->device = PROFDB_NULL;
	}
	sqlite3_finalize(q);
}

static int read_meta(struct rd *r)
{
	sqlite3_stmt *q = NULL;
	int rc = PROFDB_OK;
	if (!r->sink->meta)
		return PROFDB_OK;
	if (has_table(r, "META_DATA") && has_col(r, "META_DATA", "name") && has_col(r, "META_DATA", "value") &&
	    sqlite3_prepare_v2(r->db, "SELECT 'ascend_db.' || name, value FROM META_DATA WHERE name IS NOT NULL",
	                       -1, &q, NULL) == SQLITE_OK) {
		while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW)
			rc = r->sink->meta(r->sink->arg, r->rank, (const char *)sqlite3_column_text(q, 0),
			                   (const char *)sqlite3_column_text(q, 1));
		sqlite3_finalize(q);
		q = NULL;
	}
	if (rc == PROFDB_OK && has_table(r, "NPU_INFO") && has_col(r, "NPU_INFO", "name") &&
	    sqlite3_prepare_v2(r->db, "SELECT name FROM NPU_INFO WHERE name IS NOT NULL LIMIT 1",
	                       -1, &q, NULL) == SQLITE_OK) {
		if (sqlite3_step(q) == SQLITE_ROW)
			rc = r->sink->meta(r->sink->arg, r->rank, "npu", (const char *)sqlite3_column_text(q, 0));
		sqlite3_finalize(q);
	}
	return rc;
}

/* ---------------------------------------------------------------- files */

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

static int is_dir(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* Hex SHA-256 and size of a whole file; 0 ok. */
static int hash_file(const char *path, char hex[65], uint64_t *size, struct profdb_err *err)
{
	struct profdb_sha256 s;
	unsigned char buf[65536];
	size_t got;
	FILE *f = fopen(path, "rb");
	if (!f)
		return profdb__err_set(err, PROFDB_ENOTFOUND, "%s: cannot open", path);
	profdb_sha256_init(&s);
	*size = 0;
	while ((got = fread(buf, 1, sizeof buf, f)) > 0) {
		profdb_sha256_update(&s, buf, got);
		*size += got;
	}
	if (ferror(f)) {
		fclose(f);
		return profdb__err_set(err, PROFDB_ERROR, "%s: byte %llu: read error", path,
		                       (unsigned long long)*size);
	}
	fclose(f);
	profdb_sha256_hex(&s, hex);
	return PROFDB_OK;
}

/*
 * Open the source read-only.  immutable=1 makes SQLite write nothing beside
 * the file (no -shm in a read-only corpus folder) and needs no lock; it
 * would ignore a write-ahead log, so a file with a non-empty -wal is opened
 * with mode=ro instead, which reads the log.
 */
static int open_source(struct rd *r)
{
	char uri[8192], wal[4200];
	struct stat sb;
	size_t n = 0;
	const char *p;
	int rc;

	snprintf(wal, sizeof wal, "%s-wal", r->file);
	n = (size_t)snprintf(uri, sizeof uri, "file:");
	for (p = r->file; *p && n + 4 < sizeof uri; p++) {
		unsigned char c = (unsigned char)*p;
		/* percent-encode what a URI path cannot hold as is */
		if (c == '%' || c == '?' || c == '#' || c <= ' ' || c >= 0x7f)
			n += (size_t)snprintf(uri + n, sizeof uri - n, "%%%02X", c);
		else
			uri[n++] = (char)c;
	}
	uri[n] = '\0';
	snprintf(uri + n, sizeof uri - n, "%s",
	         stat(wal, &sb) == 0 && sb.st_size > 0 ? "?mode=ro" : "?immutable=1");
	rc = sqlite3_open_v2(uri, &r->db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(r->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		return profdb__err_set(r->ctx->err, PROFDB_EFORMAT, "%s: cannot read as SQLite: %s", r->file,
		                       r->db ? sqlite3_errmsg(r->db) : "out of memory");
	return PROFDB_OK;
}

/* rank_id of a profiler_info*.json (int or string); PROFDB_NULL if none. */
static int64_t info_rank(const char *text)
{
	cJSON *j = cJSON_Parse(text), *v;
	int64_t rank = PROFDB_NULL, x;
	if (!j)
		return PROFDB_NULL;
	v = cJSON_GetObjectItemCaseSensitive(j, "rank_id");
	if (cJSON_IsNumber(v) && v->valuedouble >= 0)
		rank = (int64_t)v->valuedouble;
	else if (cJSON_IsString(v) && profdb_parse_i64(v->valuestring, strlen(v->valuestring), &x) == 0 && x >= 0)
		rank = x;
	cJSON_Delete(j);
	return rank;
}

/* Read whole small file; NULL if unreadable.  *len set. */
static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;
	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && n < (16L << 20) && fseek(f, 0, SEEK_SET) == 0 &&
	    (buf = malloc((size_t)n + 1)) != NULL) {
		*len = fread(buf, 1, (size_t)n, f);
		buf[*len] = '\0';
	}
	fclose(f);
	return buf;
}

/* Find the first file in folder named prefix*suffix (sorted); 0 if found. */
static int find_file(const char *folder, const char *prefix, const char *suffix, char *out, size_t cap)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	char best[1024] = "";
	if (!d)
		return -1;
	while ((e = readdir(d)) != NULL)
		if (strncmp(e->d_name, prefix, strlen(prefix)) == 0 && ends_with(e->d_name, suffix) &&
		    (!best[0] || strcmp(e->d_name, best) < 0))
			snprintf(best, sizeof best, "%s", e->d_name);
	closedir(d);
	if (!best[0])
		return -1;
	snprintf(out, cap, "%s/%s", folder, best);
	return 0;
}

/* The N of a ..._N.db name, or PROFDB_NULL. */
static int64_t name_rank(const char *path)
{
	const char *base = strrchr(path, '/'), *us, *dot;
	int64_t v;
	base = base ? base + 1 : path;
	if (strncmp(base, "ascend_pytorch_profiler_", 24) != 0)
		return PROFDB_NULL;
	us = base + 24;
	dot = strrchr(us, '.');
	if (!dot || dot == us || profdb_parse_i64(us, (size_t)(dot - us), &v) != 0 || v < 0)
		return PROFDB_NULL;
	return v;
}

static void rd_free(struct rd *r)
{
	for (size_t i = 0; i < r->nops; i++) {
		free(r->ops[i].name);
		free(r->ops[i].shapes);
		free(r->ops[i].dtypes);
		free(r->ops[i].stack);
	}
	free(r->ops);
	free(r->by_id);
	free(r->steps);
	free(r->conns);
	sqlite3_close(r->db);
}

/* Send profiler_info*.json of a folder as a source with its content. */
static int read_info(const struct profdb_reader_ctx *ctx, const char *folder, int64_t *rank)
{
	char path[4200], hex[65];
	char *text;
	size_t len = 0;
	uint64_t size;
	int rc;
	struct profdb_sha256 s;

	*rank = PROFDB_NULL;
	if (find_file(folder, "profiler_info", ".json", path, sizeof path) != 0)
		return PROFDB_OK;
	text = slurp(path, &len);
	if (!text)
		return PROFDB_OK;
	*rank = info_rank(text);
	profdb_sha256_init(&s);
	profdb_sha256_update(&s, text, len);
	profdb_sha256_hex(&s, hex);
	size = len;
	rc = ctx->sink->source_begin(ctx->sink->arg, path, "profiler_info", *rank, (const unsigned char *)text, len);
	if (rc == PROFDB_OK && ctx->sink->meta)
		rc = ctx->sink->meta(ctx->sink->arg, *rank, "profiler_info", text);
	if (rc == PROFDB_OK)
		rc = ctx->sink->source_end(ctx->sink->arg, 0, hex, size);
	free(text);
	return rc;
}

int profdb_read_ascend_db(const struct profdb_reader_ctx *ctx)
{
	struct rd r;
	char file[4200], out[4200], hex[65];
	int64_t info = PROFDB_NULL, map;
	uint64_t size = 0;
	int rc;

	memset(&r, 0, sizeof r);
	r.ctx = ctx;
	r.sink = ctx->sink;
	r.device = PROFDB_NULL;
	if (is_dir(ctx->path)) {
		/* an export_type=db *_ascend_pt folder */
		snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", ctx->path);
		if (find_file(out, "ascend_pytorch_profiler", ".db", file, sizeof file) != 0)
			return profdb__err_set(ctx->err, PROFDB_ENOTFOUND,
			                       "%s: no ASCEND_PROFILER_OUTPUT/ascend_pytorch_profiler*.db", ctx->path);
		if ((rc = read_info(ctx, ctx->path, &info)) != PROFDB_OK)
			return rc;
	} else {
		snprintf(file, sizeof file, "%s", ctx->path);
	}
	r.file = file;
	if ((rc = hash_file(file, hex, &size, ctx->err)) != PROFDB_OK)
		return rc;
	if ((rc = open_source(&r)) != PROFDB_OK)
		goto out;
	if (!has_table(&r, "STRING_IDS") || (!has_table(&r, "COMPUTE_TASK_INFO") &&
	    !has_table(&r, "COMMUNICATION_OP") && !has_table(&r, "PYTORCH_API"))) {
		rc = profdb__err_set(ctx->err, PROFDB_EFORMAT, "%s: no STRING_IDS, COMPUTE_TASK_INFO,"
		                     " COMMUNICATION_OP or PYTORCH_API table: not an Ascend profiler database", file);
		goto out;
	}
	/* the rank: what the database says, else profiler_info, else the file name */
	read_rank_map(&r, &map);
	r.rank = map != PROFDB_NULL ? map : info != PROFDB_NULL ? info :
	         name_rank(file) != PROFDB_NULL ? name_rank(file) : ctx->rank;
	if ((rc = ctx->sink->source_begin(ctx->sink->arg, file, "ascend_db", r.rank, NULL, 0)) != PROFDB_OK)
		goto out;
	if ((rc = read_meta(&r)) != PROFDB_OK || (rc = read_steps(&r)) != PROFDB_OK ||
	    (rc = read_conns(&r)) != PROFDB_OK || (rc = read_ops(&r)) != PROFDB_OK ||
	    (rc = read_kernels(&r)) != PROFDB_OK || (rc = read_comm(&r)) != PROFDB_OK ||
	    (rc = nest_ops(&r)) != PROFDB_OK || (rc = emit_ops(&r)) != PROFDB_OK)
		goto out;
	rc = ctx->sink->source_end(ctx->sink->arg, r.rows, hex, size);
	if (rc == PROFDB_OK && ctx->progress)
		ctx->progress(ctx->progress_arg, size, size);
out:
	rd_free(&r);
	return rc;
}

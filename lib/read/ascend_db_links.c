/*
 * ascend_db_links.c - the steps of an Ascend SQLite export (STEP_TIME) and the
 * links from device tasks to the host ops that launched them
 * (CONNECTION_IDS): a kernel's step and its launching op's device time.
 */
#include <stdlib.h>
#include <string.h>

#include "ascend_db.h"
#include "util/lower_bound.h"
#include "banned.h"

static int cmp_span(const void *a, const void *b)
{
	const struct profdb__adb_span *x = a, *y = b;
	return x->start < y->start ? -1 : x->start > y->start;
}

static int cmp_conn(const void *a, const void *b)
{
	const struct profdb__adb_conn *x = a, *y = b;
	if (x->conn != y->conn)
		return x->conn < y->conn ? -1 : 1;
	return x->id < y->id ? -1 : x->id > y->id;
}

/* The step whose span holds t, or PROFDB_NULL. */
int64_t profdb__adb_step_at(const struct profdb__adb *r, int64_t t)
{
	size_t lo;
	if (t == PROFDB_NULL)
		return PROFDB_NULL;
	/* the first span starting after t */
	PROFDB__LOWER_BOUND(lo, 0, r->nsteps, mid, r->steps[mid].start <= t);
	if (lo > 0 && t < r->steps[lo - 1].end)
		return r->steps[lo - 1].step;
	return PROFDB_NULL;
}

int profdb__adb_read_steps(struct profdb__adb *r)
{
	sqlite3_stmt *q = NULL;
	char sql[256];
	int rc = PROFDB_OK;

	if (!profdb__adb_has_table(r, "STEP_TIME") || !profdb__adb_has_col(r, "STEP_TIME", "id"))
		return PROFDB_OK;
	snprintf(sql, sizeof sql, "SELECT id, startNs, endNs FROM STEP_TIME ORDER BY id");
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__adb_fail_sql(r, "STEP_TIME");
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb_step_rec s = { r->rank, profdb__adb_col_i64(q, 0), profdb__adb_col_ns(q, 1), profdb__adb_col_ns(q, 2) };
		struct profdb__adb_span *n;
		if (s.step == PROFDB_NULL)
			continue;
		rc = profdb__sink_step(r->sink, &s);
		if (s.start_ns == PROFDB_NULL || s.end_ns == PROFDB_NULL)
			continue;
		n = realloc(r->steps, (r->nsteps + 1) * sizeof *n);
		if (!n) {
			rc = profdb__adb_oom(r);
			break;
		}
		r->steps = n;
		r->steps[r->nsteps++] = (struct profdb__adb_span){ s.step, s.start_ns, s.end_ns };
	}
	sqlite3_finalize(q);
	qsort(r->steps, r->nsteps, sizeof *r->steps, cmp_span);
	return rc;
}

int profdb__adb_read_conns(struct profdb__adb *r)
{
	sqlite3_stmt *q = NULL;
	size_t cap = 0;

	if (!profdb__adb_has_table(r, "CONNECTION_IDS") || !profdb__adb_has_col(r, "CONNECTION_IDS", "id") ||
	    !profdb__adb_has_col(r, "CONNECTION_IDS", "connectionId"))
		return PROFDB_OK;
	if (sqlite3_prepare_v2(r->db, "SELECT connectionId, id FROM CONNECTION_IDS"
	                       " WHERE connectionId IS NOT NULL AND id IS NOT NULL", -1, &q, NULL) != SQLITE_OK)
		return profdb__adb_fail_sql(r, "CONNECTION_IDS");
	while (sqlite3_step(q) == SQLITE_ROW) {
		if (r->nconns == cap) {
			struct profdb__adb_conn *n = realloc(r->conns, (cap = cap ? cap * 2 : 1024) * sizeof *n);
			if (!n) {
				sqlite3_finalize(q);
				return profdb__adb_oom(r);
			}
			r->conns = n;
		}
		r->conns[r->nconns++] = (struct profdb__adb_conn){ sqlite3_column_int64(q, 0), sqlite3_column_int64(q, 1) };
	}
	sqlite3_finalize(q);
	qsort(r->conns, r->nconns, sizeof *r->conns, cmp_conn);
	r->linked = 1;
	return PROFDB_OK;
}

int profdb__adb_cmp_okey(const void *x, const void *y)
{
	const struct profdb__adb_okey *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	if (p->c != q->c)
		return p->c < q->c ? -1 : 1;
	return p->i < q->i ? -1 : p->i > q->i;
}

/* The first op (lowest index) whose PYTORCH_API.connectionId is id. */
static size_t op_with_id(const struct profdb__adb *r, int64_t id)
{
	size_t lo;
	PROFDB__LOWER_BOUND(lo, 0, r->nops, mid, r->by_id[mid].a < id);
	return lo < r->nops && r->by_id[lo].a == id ? r->by_id[lo].i : ADB_NO_OP;
}

/* The host op that launched a task of this connectionId, or ADB_NO_OP. */
static size_t op_of_task(const struct profdb__adb *r, int64_t conn)
{
	size_t lo;
	if (conn == PROFDB_NULL || !r->by_id)
		return ADB_NO_OP;
	PROFDB__LOWER_BOUND(lo, 0, r->nconns, mid, r->conns[mid].conn < conn);
	/* a task connection may belong to several ids (the queue events too) */
	for (; lo < r->nconns && r->conns[lo].conn == conn; lo++) {
		size_t op = op_with_id(r, r->conns[lo].id);
		if (op != ADB_NO_OP)
			return op;
	}
	return ADB_NO_OP;
}

/*
 * A kernel's step: the step of the host op that launched it (kernels run
 * after their launch, maybe after the host step ended, as torch_npu's
 * device-side step ranges allow); without a link, the step span that holds
 * the kernel's own start.
 */
int64_t profdb__adb_kernel_step(const struct profdb__adb *r, int64_t conn, int64_t start)
{
	size_t op = op_of_task(r, conn);
	if (op != ADB_NO_OP && r->ops[op].step != PROFDB_NULL)
		return r->ops[op].step;
	return profdb__adb_step_at(r, start);
}

/* Add a device activity to the device self time of the op that launched it. */
void profdb__adb_charge(struct profdb__adb *r, int64_t conn, int64_t dur, const char *core)
{
	size_t op = op_of_task(r, conn);
	if (op == ADB_NO_OP)
		return;
	r->ops[op].dev_self += dur;
	if (core && strcmp(core, "AI_CORE") == 0)
		r->ops[op].ai_self += dur;
}

/*
 * ascend_db_ops.c - the host operators of an Ascend SQLite export: PYTORCH_API
 * rows of type op with their call chains, nested per thread for self times,
 * sent once the device times charged by the kernels are known.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ascend_db.h"
#include "model/op_nest.h"
#include "banned.h"

#define API_TYPE_OP 50001      /* ENUM_API_TYPE: a torch operator */

static const char *const op_why[2] = {
	"host op without name, start or end", "host op ends before it starts"
};

int profdb__adb_read_ops(struct profdb__adb *r)
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

	if (!profdb__adb_has_table(r, "PYTORCH_API") || !profdb__adb_has_col(r, "PYTORCH_API", "startNs") ||
	    !profdb__adb_has_col(r, "PYTORCH_API", "endNs") || !profdb__adb_has_col(r, "PYTORCH_API", "name"))
		return PROFDB_OK;
	chains = profdb__adb_has_table(r, "PYTORCH_CALLCHAINS") && profdb__adb_has_col(r, "PYTORCH_CALLCHAINS", "stack") &&
	         profdb__adb_has_col(r, "PYTORCH_CALLCHAINS", "stackDepth") && profdb__adb_has_col(r, "PYTORCH_API", "callchainId");
	snprintf(join, sizeof join, "%s", chains ? "LEFT JOIN cc ON cc.id = p.callchainId" : "");
	if (profdb__adb_has_col(r, "PYTORCH_API", "type"))
		snprintf(where, sizeof where, "WHERE p.type = %d", API_TYPE_OP);
	else
		where[0] = '\0';
	snprintf(sql, sizeof sql, fmt, chains ? with_cc : "",
	         profdb__adb_pick(r, tid, sizeof tid, "p", "PYTORCH_API", "globalTid", NULL),
	         profdb__adb_pick(r, cid, sizeof cid, "p", "PYTORCH_API", "connectionId", NULL),
	         profdb__adb_pick(r, seq, sizeof seq, "p", "PYTORCH_API", "sequenceNumber", NULL),
	         profdb__adb_str_of(r, nm, sizeof nm, "p", "PYTORCH_API", "name", NULL),
	         profdb__adb_str_of(r, sh, sizeof sh, "p", "PYTORCH_API", "inputShapes", NULL),
	         profdb__adb_str_of(r, dt, sizeof dt, "p", "PYTORCH_API", "inputDtypes", NULL),
	         chains ? "cc.stack" : "NULL", join, where);
	if (sqlite3_prepare_v2(r->db, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__adb_fail_sql(r, "PYTORCH_API");
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		struct profdb__adb_hop h;
		line++;
		r->rows++;
		memset(&h, 0, sizeof h);
		if (!profdb__adb_row_span(r, q, sqlite3_column_type(q, 5) != SQLITE_NULL, op_why, line, &h.start, &h.end, &rc))
			continue;
		h.tid = profdb__adb_col_i64(q, 2);
		h.conn_id = profdb__adb_col_i64(q, 3);
		h.seq = profdb__adb_col_i64(q, 4);
		if (h.seq == -1) /* torch writes -1 for "no sequence number" */
			h.seq = PROFDB_NULL;
		h.parent = ADB_NO_OP;
		h.line = line;
		h.step = profdb__adb_step_at(r, h.start);
		h.name = profdb__adb_dup_text(q, 5);
		h.shapes = profdb__adb_dup_text(q, 6);
		h.dtypes = profdb__adb_dup_text(q, 7);
		h.stack = profdb__adb_dup_text(q, 8);
		if (r->nops == cap) {
			struct profdb__adb_hop *n = realloc(r->ops, (cap = cap ? cap * 2 : 1024) * sizeof *n);
			if (!n) {
				free(h.name); free(h.shapes); free(h.dtypes); free(h.stack);
				rc = profdb__adb_oom(r);
				break;
			}
			r->ops = n;
		}
		r->ops[r->nops++] = h;
		if (!h.name)
			rc = profdb__adb_oom(r);
	}
	sqlite3_finalize(q);
	if (rc != PROFDB_OK || r->nops == 0)
		return rc;
	r->by_id = malloc(r->nops * sizeof *r->by_id);
	if (!r->by_id)
		return profdb__adb_oom(r);
	for (size_t i = 0; i < r->nops; i++)
		r->by_id[i] = (struct profdb__adb_okey){ r->ops[i].conn_id, 0, 0, i };
	qsort(r->by_id, r->nops, sizeof *r->by_id, profdb__adb_cmp_okey);
	return PROFDB_OK;
}

/* profdb__nest hands back each op when its children are all in. */
static int adb_closed(void *arg, const struct profdb__nest_op *n)
{
	struct profdb__adb_hop *h = &((struct profdb__adb *)arg)->ops[n->id];
	h->self = n->self;
	h->dev_total = n->dev_total[0];
	h->ai_total = n->dev_total[1];
	return PROFDB_OK;
}

/*
 * Self times need the nesting per thread (op_nest.c's profdb__nest), in
 * (thread, start, longest first) order, with the PYTORCH_API rule: an
 * op's parent is the innermost open op that holds its start, and a child
 * that outlives its parent costs it only the overlap.  Device totals (all
 * and AI core) = own device time plus the children's totals.
 */
int profdb__adb_nest_ops(struct profdb__adb *r)
{
	struct profdb__adb_okey *ord = malloc((r->nops ? r->nops : 1) * sizeof *ord);
	struct profdb__nest n = { 0 };
	int rc = PROFDB_OK;

	if (!ord)
		return profdb__adb_oom(r);
	for (size_t i = 0; i < r->nops; i++)
		ord[i] = (struct profdb__adb_okey){ r->ops[i].tid, r->ops[i].start, -r->ops[i].end, i };
	qsort(ord, r->nops, sizeof *ord, profdb__adb_cmp_okey);
	profdb__nest_init(&n, 1, adb_closed, r);
	for (size_t k = 0; k < r->nops && rc == PROFDB_OK; k++) {
		const struct profdb__adb_hop *h = &r->ops[ord[k].i];
		struct profdb__nest_op o = { .id = (int64_t)ord[k].i, .start = h->start, .dur = h->end - h->start,
		                            .dev_self = { h->dev_self, h->ai_self } };
		if (k > 0 && ord[k].a != ord[k - 1].a)
			rc = profdb__nest_end(&n); /* another thread */
		if (rc == PROFDB_OK)
			rc = profdb__nest_add(&n, &o);
	}
	if (rc == PROFDB_OK)
		rc = profdb__nest_end(&n);
	profdb__nest_free(&n);
	free(ord);
	return rc == PROFDB_OK ? PROFDB_OK : profdb__adb_oom(r);
}

static int is_step_op(const char *name)
{
	return strncmp(name, "ProfilerStep#", 13) == 0;
}

int profdb__adb_emit_ops(struct profdb__adb *r)
{
	int rc = PROFDB_OK;
	if (!r->sink->op)
		return PROFDB_OK;
	for (size_t i = 0; i < r->nops && rc == PROFDB_OK; i++) {
		const struct profdb__adb_hop *h = &r->ops[i];
		struct profdb_op_rec o;
		/* the step spans are steps, not operators (operator_details skips them too) */
		if (is_step_op(h->name)) {
			rc = profdb__adb_skip(r, "ProfilerStep span (a step, not an operator)", h->line);
			continue;
		}
		profdb__op_rec_init(&o);
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

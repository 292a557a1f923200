/*
 * runtime_ops.c - a Kineto file's runtime calls (the launch rows:
 * cudaLaunchKernel, cuLaunchKernel, cudaMemsetAsync, cudaDeviceSynchronize,
 * hipLaunchKernel, MTIA's gif_merge, ...) listed as host ops of their own,
 * nested as torch's key_averages() nests them.
 *
 * torch builds one tree of a thread's CPU events, runtime calls included:
 * each event is the child of the innermost open event it starts before the
 * end of and ends by the end of, and Self CPU is an event's duration less
 * its direct children's.  A call is therefore a child like any op, and it
 * may be a parent too: MTIA's gif_merge holds operators and other calls,
 * which are then its children, not the enclosing op's (taking both the
 * call and the ops it holds from that op counted them twice and left it a
 * negative self time).  So, once the file's ops are stored and nested,
 * one sweep over its ops and calls together, in (rank, thread, start,
 * longer first, ops before calls) order with a stack of open events, the
 * rule of op_nest.c, recomputes each self time on that tree: every call
 * becomes an op row (category "runtime", no External id: its kernels stay
 * the launching operator's device time) and every op whose direct children
 * changed gets its new self time.  Ops of one span keep op_nest.c's parent:
 * the one whose self time its child took, the smaller.  Migration
 * 013_runtime_ops.sql applies the same tree to stored databases.
 *
 * The sweep is one (profdb__rt_sweep_item); it is fed from SQL here, over
 * the file's stored rows, and from memory by runtime_held.c when the
 * file's ops and calls are still held (the usual case).
 */
#include <stdlib.h>

#include "store_impl.h"
#include "banned.h"

static int rt_fail(struct profdb__rt_sweep *w, const char *what)
{
	return profdb__err_set(&w->st->err, PROFDB_ERROR, "runtime calls as ops: %s: %s", what,
	                       sqlite3_errmsg(w->st->db->sql));
}

/* Close the innermost open event: its children are all known. */
static int pop(struct profdb__rt_sweep *w)
{
	struct profdb__rt_open *o = &w->stack[--w->top];
	int64_t self = o->end - o->start - o->kids;
	if (self == o->self)
		return PROFDB_OK;
	return w->set_self(w, o, self);
}

/* An event opens as the child of the innermost open one. */
static int push(struct profdb__rt_sweep *w, int64_t id, int64_t start, int64_t dur, int64_t self)
{
	if (w->top == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct profdb__rt_open *s = realloc(w->stack, cap * sizeof *s);
		if (!s)
			return profdb__err_set(&w->st->err, PROFDB_ERROR, "out of memory");
		w->stack = s;
		w->cap = cap;
	}
	if (w->top > 0)
		w->stack[w->top - 1].kids += dur;
	w->stack[w->top++] = (struct profdb__rt_open){ id, start, start + dur, self, 0 };
	return PROFDB_OK;
}

/* op_nest.c's holds(): the open event holds a later one that starts
 * before its end and ends by it. */
static int open_holds(const struct profdb__rt_open *p, int64_t start, int64_t end)
{
	return start < p->end && end <= p->end;
}

int profdb__rt_sweep_item(struct profdb__rt_sweep *w, const struct profdb__rt_item *it)
{
	int rc = PROFDB_OK;
	if (w->first || it->rank != w->rank || it->tid_null != w->tid_null || (!it->tid_null && it->tid != w->tid))
		while (rc == PROFDB_OK && w->top > 0)
			rc = pop(w);
	w->first = 0;
	w->rank = it->rank;
	w->tid = it->tid;
	w->tid_null = it->tid_null;
	while (rc == PROFDB_OK && w->top > 0 && !open_holds(&w->stack[w->top - 1], it->start, it->start + it->dur))
		rc = pop(w);
	if (rc != PROFDB_OK)
		return rc;
	if (it->call) {
		/* a call: an op row of its own, its self time set when it closes */
		int64_t id;
		if ((rc = w->add_call(w, it, &id)) != PROFDB_OK)
			return rc;
		return push(w, id, it->start, it->dur, it->dur);
	}
	return push(w, it->id, it->start, it->dur, it->self);
}

int profdb__rt_sweep_end(struct profdb__rt_sweep *w)
{
	int rc = PROFDB_OK;
	while (rc == PROFDB_OK && w->top > 0)
		rc = pop(w);
	free(w->stack);
	w->stack = NULL;
	w->top = w->cap = 0;
	return rc;
}

/* The SQL sweep's statements: the calls' INSERT, the ops' UPDATE. */
struct rt_sql {
	struct profdb__rt_sweep w;   /* first: the callbacks get &w */
	sqlite3_stmt *ins, *upd;
	sqlite3_value *rank, *tid, *name; /* the current row's, for the INSERT */
};

static int sql_set_self(struct profdb__rt_sweep *w, const struct profdb__rt_open *o, int64_t self)
{
	struct rt_sql *q = (struct rt_sql *)w;
	int rc;
	sqlite3_bind_int64(q->upd, 1, o->id);
	sqlite3_bind_int64(q->upd, 2, self);
	rc = sqlite3_step(q->upd);
	sqlite3_reset(q->upd);
	return rc == SQLITE_DONE ? PROFDB_OK : rt_fail(w, "update");
}

static int sql_add_call(struct profdb__rt_sweep *w, const struct profdb__rt_item *it, int64_t *id)
{
	struct rt_sql *q = (struct rt_sql *)w;
	int rc;
	*id = w->st->next_op_id++;
	sqlite3_bind_int64(q->ins, 1, *id);
	sqlite3_bind_int64(q->ins, 2, w->st->run_id);
	sqlite3_bind_value(q->ins, 3, q->rank);
	sqlite3_bind_value(q->ins, 4, q->name);
	sqlite3_bind_int64(q->ins, 5, w->cat_id);
	sqlite3_bind_value(q->ins, 6, q->tid);
	sqlite3_bind_int64(q->ins, 7, it->start);
	sqlite3_bind_int64(q->ins, 8, it->dur);
	rc = sqlite3_step(q->ins);
	sqlite3_reset(q->ins);
	return rc == SQLITE_DONE ? PROFDB_OK : rt_fail(w, "insert");
}

static int sweep(struct rt_sql *q, sqlite3_stmt *sel)
{
	const struct profdb__source_state *c = &q->w.st->src;
	int step, rc = PROFDB_OK;
	while (rc == PROFDB_OK && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		struct profdb__rt_item it = {
			.call = sqlite3_column_int(sel, 0), .id = sqlite3_column_int64(sel, 1),
			.rank = sqlite3_column_int64(sel, 2), .tid = sqlite3_column_int64(sel, 3),
			.tid_null = sqlite3_column_type(sel, 3) == SQLITE_NULL,
			.start = sqlite3_column_int64(sel, 4), .dur = sqlite3_column_int64(sel, 5),
			.self = sqlite3_column_int64(sel, 7),
		};
		if (!profdb__row_runs_has(it.call ? c->launches.v : c->ops.v, it.call ? c->launches.n : c->ops.n, it.id))
			continue; /* another file's, written in between */
		q->rank = sqlite3_column_value(sel, 2);
		q->tid = sqlite3_column_value(sel, 3);
		q->name = sqlite3_column_value(sel, 6);
		rc = profdb__rt_sweep_item(&q->w, &it);
	}
	if (rc == PROFDB_OK && step != SQLITE_DONE)
		rc = rt_fail(&q->w, "select");
	if (rc == PROFDB_OK)
		rc = profdb__rt_sweep_end(&q->w);
	return rc;
}

int profdb__runtime_ops(struct profdb_store *st)
{
	const struct profdb__source_state *c = &st->src;
	struct rt_sql q = { .w = { .st = st, .first = 1, .set_self = sql_set_self, .add_call = sql_add_call } };
	sqlite3_stmt *sel = NULL;
	sqlite3 *db = st->db->sql;
	int rc;
	if (!c->launches.n)
		return PROFDB_OK;
	st->ops_elsewhere = 1;
	if (!(q.w.cat_id = profdb__intern(st->str, PROFDB__RUNTIME_CATEGORY)))
		return st->err.code ? st->err.code : profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
	/* ops of one span: the parent first, the one whose self time its
	 * equal child took (row ids follow the order ops closed in, not the
	 * file's) */
	if (sqlite3_prepare_v2(db, "SELECT 0, id, rank, tid, start_ns, dur_ns, NULL, self_ns FROM op"
	                       " WHERE run_id = ?1 AND id BETWEEN ?2 AND ?3 AND start_ns IS NOT NULL AND dur_ns IS NOT NULL"
	                       " UNION ALL SELECT 1, rowid, rank, tid, start_ns, dur_ns, name_id, NULL FROM launch"
	                       " WHERE run_id = ?1 AND rowid BETWEEN ?4 AND ?5"
	                       " ORDER BY 3, 4, 5, 6 DESC, 1, 8, 2", -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "INSERT INTO op (id, run_id, rank, step, name_id, category_id, tid, start_ns,"
	                       " dur_ns, self_ns) VALUES (?1, ?2, ?3, profdb_step_at(?3, ?7), ?4, ?5, ?6, ?7, ?8, ?8)",
	                       -1, &q.ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE op SET self_ns = ?2 WHERE id = ?1", -1, &q.upd, NULL) != SQLITE_OK) {
		rc = rt_fail(&q.w, "prepare");
		goto out;
	}
	sqlite3_bind_int64(sel, 1, st->run_id);
	sqlite3_bind_int64(sel, 2, c->ops.n ? c->ops.v[0].lo : 1);
	sqlite3_bind_int64(sel, 3, c->ops.n ? c->ops.v[c->ops.n - 1].hi : 0);
	sqlite3_bind_int64(sel, 4, c->launches.v[0].lo);
	sqlite3_bind_int64(sel, 5, c->launches.v[c->launches.n - 1].hi);
	rc = sweep(&q, sel);
out:
	free(q.w.stack);
	sqlite3_finalize(sel);
	sqlite3_finalize(q.ins);
	sqlite3_finalize(q.upd);
	return rc;
}

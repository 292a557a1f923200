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
 */
#include <stdlib.h>

#include "store_impl.h"
#include "banned.h"

#define RUNTIME_CATEGORY "runtime"

struct rt_open {
	int64_t id, start, end, self, kids; /* kids: the durations of its direct children */
};

struct rt_sweep {
	struct profdb_store *st;
	sqlite3_stmt *ins, *upd;
	struct rt_open *stack;
	size_t top, cap;
	int64_t cat_id;
};

static int rt_fail(struct rt_sweep *w, const char *what)
{
	return profdb__err_set(&w->st->err, PROFDB_ERROR, "runtime calls as ops: %s: %s", what,
	                       sqlite3_errmsg(w->st->db->sql));
}

/* Close the innermost open event: its children are all known. */
static int pop(struct rt_sweep *w)
{
	struct rt_open *o = &w->stack[--w->top];
	int64_t self = o->end - o->start - o->kids;
	int rc;
	if (self == o->self)
		return PROFDB_OK;
	sqlite3_bind_int64(w->upd, 1, o->id);
	sqlite3_bind_int64(w->upd, 2, self);
	rc = sqlite3_step(w->upd);
	sqlite3_reset(w->upd);
	return rc == SQLITE_DONE ? PROFDB_OK : rt_fail(w, "update");
}

/* An event opens as the child of the innermost open one. */
static int push(struct rt_sweep *w, int64_t id, int64_t start, int64_t dur, int64_t self)
{
	if (w->top == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 64;
		struct rt_open *s = realloc(w->stack, cap * sizeof *s);
		if (!s)
			return profdb__err_set(&w->st->err, PROFDB_ERROR, "out of memory");
		w->stack = s;
		w->cap = cap;
	}
	if (w->top > 0)
		w->stack[w->top - 1].kids += dur;
	w->stack[w->top++] = (struct rt_open){ id, start, start + dur, self, 0 };
	return PROFDB_OK;
}

/* A call: an op row of its own, its self time set when it closes. */
static int add_call(struct rt_sweep *w, sqlite3_stmt *sel)
{
	int64_t id = w->st->next_op_id++, start = sqlite3_column_int64(sel, 4), dur = sqlite3_column_int64(sel, 5);
	int rc;
	sqlite3_bind_int64(w->ins, 1, id);
	sqlite3_bind_int64(w->ins, 2, w->st->run_id);
	sqlite3_bind_value(w->ins, 3, sqlite3_column_value(sel, 2)); /* rank */
	sqlite3_bind_value(w->ins, 4, sqlite3_column_value(sel, 6)); /* name */
	sqlite3_bind_int64(w->ins, 5, w->cat_id);
	sqlite3_bind_value(w->ins, 6, sqlite3_column_value(sel, 3)); /* tid */
	sqlite3_bind_int64(w->ins, 7, start);
	sqlite3_bind_int64(w->ins, 8, dur);
	rc = sqlite3_step(w->ins);
	sqlite3_reset(w->ins);
	if (rc != SQLITE_DONE)
		return rt_fail(w, "insert");
	return push(w, id, start, dur, dur);
}

/* Whether the row is on another (rank, thread) than the previous one. */
static int new_thread(sqlite3_stmt *sel, int *first, int64_t *rank, int64_t *tid, int *tnull)
{
	int64_t r = sqlite3_column_int64(sel, 2), t = sqlite3_column_int64(sel, 3);
	int tn = sqlite3_column_type(sel, 3) == SQLITE_NULL, changed;
	changed = *first || r != *rank || tn != *tnull || (!tn && t != *tid);
	*first = 0;
	*rank = r;
	*tid = t;
	*tnull = tn;
	return changed;
}

/* op_nest.c's holds(): the open event holds a later one that starts
 * before its end and ends by it. */
static int open_holds(const struct rt_open *p, int64_t start, int64_t end)
{
	return start < p->end && end <= p->end;
}

static int sweep(struct rt_sweep *w, sqlite3_stmt *sel)
{
	const struct profdb__source_state *c = w->st->cur;
	int64_t rank = 0, tid = 0;
	int first = 1, tnull = 0, step, rc = PROFDB_OK;
	while (rc == PROFDB_OK && (step = sqlite3_step(sel)) == SQLITE_ROW) {
		int call = sqlite3_column_int(sel, 0);
		int64_t id = sqlite3_column_int64(sel, 1);
		int64_t start = sqlite3_column_int64(sel, 4), dur = sqlite3_column_int64(sel, 5);
		if (!profdb__row_runs_has(call ? c->launches.v : c->ops.v, call ? c->launches.n : c->ops.n, id))
			continue; /* another file's, written in between */
		if (new_thread(sel, &first, &rank, &tid, &tnull))
			while (rc == PROFDB_OK && w->top > 0)
				rc = pop(w);
		while (rc == PROFDB_OK && w->top > 0 && !open_holds(&w->stack[w->top - 1], start, start + dur))
			rc = pop(w);
		if (rc == PROFDB_OK)
			rc = call ? add_call(w, sel) : push(w, id, start, dur, sqlite3_column_int64(sel, 7));
	}
	if (rc == PROFDB_OK && step != SQLITE_DONE)
		rc = rt_fail(w, "select");
	while (rc == PROFDB_OK && w->top > 0)
		rc = pop(w);
	return rc;
}

int profdb__runtime_ops(struct profdb_store *st)
{
	const struct profdb__source_state *c = st->cur;
	struct rt_sweep w = { .st = st };
	sqlite3_stmt *sel = NULL;
	sqlite3 *db = st->db->sql;
	int rc;
	if (!c->launches.n)
		return PROFDB_OK;
	if (!(w.cat_id = profdb__intern(st->str, RUNTIME_CATEGORY)))
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
	                       -1, &w.ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE op SET self_ns = ?2 WHERE id = ?1", -1, &w.upd, NULL) != SQLITE_OK) {
		rc = rt_fail(&w, "prepare");
		goto out;
	}
	sqlite3_bind_int64(sel, 1, st->run_id);
	sqlite3_bind_int64(sel, 2, c->ops.n ? c->ops.v[0].lo : 1);
	sqlite3_bind_int64(sel, 3, c->ops.n ? c->ops.v[c->ops.n - 1].hi : 0);
	sqlite3_bind_int64(sel, 4, c->launches.v[0].lo);
	sqlite3_bind_int64(sel, 5, c->launches.v[c->launches.n - 1].hi);
	rc = sweep(&w, sel);
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(w.ins);
	sqlite3_finalize(w.upd);
	free(w.stack);
	return rc;
}

/*
 * op_nest.c - host-op nesting (profdb__nest: self, device self and total
 * times of one thread's ops, torch's key_averages rule), and the store's
 * pass that nests a file's op rows when they did not arrive in start order.
 *
 * The nesting is a stack as deep as the ops nest, fed in start order: an
 * op that does not fit inside the innermost open op closes it.  Every
 * caller runs this one implementation: the store as ops arrive, the
 * in-memory readers (kineto_ops.c, ascend_db_ops.c) after sorting, and
 * the SQL fallback below through an ORDER BY.  Threads are the caller's:
 * one profdb__nest per thread, or profdb__nest_end between threads.
 */
#include <stdlib.h>

#include "op_nest.h"
#include "util/lower_bound.h"
#include "banned.h"

void profdb__nest_init(struct profdb__nest *n, int overlap, profdb__nest_emit_fn emit, void *arg)
{
	n->overlap = overlap;
	n->emit = emit;
	n->arg = arg;
	n->top = n->nties = 0;
	n->started = 0;
}

void profdb__nest_free(struct profdb__nest *n)
{
	if (!n)
		return;
	free(n->stack);
	free(n->ties);
	n->stack = n->ties = NULL;
	n->top = n->cap = n->nties = n->capties = 0;
}

static int64_t or0(int64_t v)
{
	return v == PROFDB_NULL ? 0 : v;
}

static int64_t end_of(const struct profdb__nest_op *o)
{
	return o->start + o->dur;
}

/* Close the innermost open op: its subtree is complete. */
static int close_top(struct profdb__nest *n)
{
	struct profdb__nest_op o = n->stack[--n->top];
	/* its own time is read now: a caller may charge an open op (advance) */
	o.dev_total[0] += or0(o.dev_self[0]);
	o.dev_total[1] += or0(o.dev_self[1]);
	o.depth = (int64_t)n->top;
	if (n->top > 0) { /* the op below an open op is its parent */
		n->stack[n->top - 1].dev_total[0] += o.dev_total[0];
		n->stack[n->top - 1].dev_total[1] += o.dev_total[1];
		n->stack[n->top - 1].desc += o.desc + 1;
	}
	return n->emit(n->arg, &o);
}

/* Whether open op p holds o, o coming after p in the order. */
static int holds(const struct profdb__nest *n, const struct profdb__nest_op *p, const struct profdb__nest_op *o)
{
	return o->start < end_of(p) && (n->overlap || end_of(o) <= end_of(p));
}

static int open_op(struct profdb__nest *n, const struct profdb__nest_op *in)
{
	struct profdb__nest_op o = *in;
	int rc;
	while (n->top > 0 && !holds(n, &n->stack[n->top - 1], &o))
		if ((rc = close_top(n)) != PROFDB_OK)
			return rc;
	if (n->top > 0) { /* a child that outlives its parent costs it only the overlap */
		struct profdb__nest_op *p = &n->stack[n->top - 1];
		p->self -= (end_of(&o) < end_of(p) ? end_of(&o) : end_of(p)) - o.start;
	}
	if (n->top == n->cap) {
		size_t cap = n->cap ? n->cap * 2 : 64;
		struct profdb__nest_op *s = realloc(n->stack, cap * sizeof *s);
		if (!s)
			return PROFDB_ERROR;
		n->stack = s;
		n->cap = cap;
	}
	o.self = o.dur;
	o.dev_total[0] = o.dev_total[1] = 0; /* the children's, so far */
	o.desc = 0;
	n->stack[n->top++] = o;
	return PROFDB_OK;
}

/* Ops of equal start: the longer one first (it is the parent), then id. */
static int cmp_tie(const void *pa, const void *pb)
{
	const struct profdb__nest_op *a = pa, *b = pb;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	return (a->id > b->id) - (a->id < b->id);
}

static int open_ties(struct profdb__nest *n)
{
	size_t k = n->nties;
	int rc;
	if (k > 1)
		qsort(n->ties, k, sizeof *n->ties, cmp_tie);
	n->nties = 0;
	for (size_t i = 0; i < k; i++)
		if ((rc = open_op(n, &n->ties[i])) != PROFDB_OK)
			return rc;
	return PROFDB_OK;
}

int profdb__nest_add(struct profdb__nest *n, const struct profdb__nest_op *op)
{
	int rc;
	if (n->started && op->start < n->last_start)
		return PROFDB__NEST_UNSORTED;
	if (n->nties > 0 && op->start > n->last_start && (rc = open_ties(n)) != PROFDB_OK)
		return rc;
	if (n->nties == n->capties) {
		size_t cap = n->capties ? n->capties * 2 : 16;
		struct profdb__nest_op *t = realloc(n->ties, cap * sizeof *t);
		if (!t)
			return PROFDB_ERROR;
		n->ties = t;
		n->capties = cap;
	}
	n->ties[n->nties++] = *op;
	n->last_start = op->start;
	n->started = 1;
	return PROFDB_OK;
}

int profdb__nest_advance(struct profdb__nest *n, int64_t t)
{
	int rc;
	if (n->nties > 0 && n->last_start <= t && (rc = open_ties(n)) != PROFDB_OK)
		return rc;
	while (n->top > 0 && end_of(&n->stack[n->top - 1]) <= t)
		if ((rc = close_top(n)) != PROFDB_OK)
			return rc;
	return PROFDB_OK;
}

struct profdb__nest_op *profdb__nest_open(struct profdb__nest *n, size_t i)
{
	return i < n->top ? &n->stack[n->top - 1 - i] : NULL;
}

int profdb__nest_end(struct profdb__nest *n)
{
	int rc = n->nties > 0 ? open_ties(n) : PROFDB_OK;
	while (rc == PROFDB_OK && n->top > 0)
		rc = close_top(n);
	n->started = 0;
	n->nties = 0;
	return rc;
}

/* ---------------------------------------------------------------- the SQL pass */

struct nest {
	sqlite3 *db;
	int64_t run_id;
	sqlite3_stmt *upd;
	struct profdb__dev_times dev;
	struct profdb__nest nest;
	struct profdb_err *err;
};

int profdb__row_runs_has(const struct profdb__row_run *r, size_t n, int64_t id)
{
	size_t at; /* the first run not wholly below id: it holds id, or none does */
	PROFDB__LOWER_BOUND(at, 0, n, mid, r[mid].hi < id);
	return at < n && r[at].lo <= id;
}

int profdb__row_runs_exec(sqlite3_stmt *q, int lo, const struct profdb__row_run *r, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		int rc;
		sqlite3_bind_int64(q, lo, r[i].lo);
		sqlite3_bind_int64(q, lo + 1, r[i].hi);
		rc = sqlite3_step(q);
		sqlite3_reset(q);
		if (rc != SQLITE_DONE)
			return rc;
	}
	return SQLITE_DONE;
}

static int sql_fail(struct nest *n, const char *what)
{
	return profdb__err_set(n->err, PROFDB_ERROR, "op times: %s: %s", what, sqlite3_errmsg(n->db));
}

static int cmp_dev(const void *a, const void *b)
{
	const struct profdb__dev_time *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->ext > y->ext) - (x->ext < y->ext);
}

static void sift_down(struct profdb__dev_time *d, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		struct profdb__dev_time t;
		if (c >= n)
			return;
		if (c + 1 < n && cmp_dev(&d[c], &d[c + 1]) < 0)
			c++;
		if (cmp_dev(&d[i], &d[c]) >= 0)
			return;
		t = d[i];
		d[i] = d[c];
		d[c] = t;
		i = c;
	}
}

/* Heapsort: in place.  glibc's qsort is a merge sort with a copy of the
 * array, 26 MB more at peak on a 4 GB trace (1.1 M kernels). */
static void sort_dev(struct profdb__dev_time *d, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(d, i, n);
	for (size_t end = n; end > 1; end--) {
		struct profdb__dev_time t = d[0];
		d[0] = d[end - 1];
		d[end - 1] = t;
		sift_down(d, 0, end - 1);
	}
}

/* Sorted, one entry per key with the durations summed. */
static void sum_dev(struct profdb__dev_times *d)
{
	size_t w = 0;
	sort_dev(d->v, d->n);
	for (size_t r = 0; r < d->n; r++)
		if (w > 0 && cmp_dev(&d->v[w - 1], &d->v[r]) == 0)
			d->v[w - 1].dur += d->v[r].dur;
		else
			d->v[w++] = d->v[r];
	d->n = w;
}

/*
 * Sum the file's kernels per (rank, External id) in one pass over their
 * rows: one index probe per op cost more than the nesting itself.  Kept
 * as a sorted array (24 bytes a kernel with an External id, then one per
 * key), searched by bisection: a hash map of the 1 GB trace's 274 k
 * kernels took 32-48 MB.
 */
int profdb__dev_times_load(struct profdb__dev_times *d, sqlite3 *db, const struct profdb__row_run *kr, size_t nk,
                           struct profdb_err *err)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (!nk)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(db, "SELECT id, rank, external_id, dur_ns FROM kernel"
	                       " WHERE id BETWEEN ?1 AND ?2 AND external_id IS NOT NULL", -1, &q, NULL) != SQLITE_OK)
		return profdb__err_set(err, PROFDB_ERROR, "op times: kernels: %s", sqlite3_errmsg(db));
	sqlite3_bind_int64(q, 1, kr[0].lo);
	sqlite3_bind_int64(q, 2, kr[nk - 1].hi);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (!profdb__row_runs_has(kr, nk, sqlite3_column_int64(q, 0)))
			continue; /* another file's, written in between */
		if (d->n == d->cap) {
			size_t cap = d->cap ? d->cap * 2 : 1024;
			struct profdb__dev_time *v = realloc(d->v, cap * sizeof *v);
			if (!v) {
				sqlite3_finalize(q);
				return profdb__err_set(err, PROFDB_ERROR, "out of memory");
			}
			d->v = v;
			d->cap = cap;
		}
		d->v[d->n++] = (struct profdb__dev_time){ sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
		                                         sqlite3_column_int64(q, 3) };
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__err_set(err, PROFDB_ERROR, "op times: kernels: %s", sqlite3_errmsg(db));
	sum_dev(d);
	return PROFDB_OK;
}

int profdb__dev_times_from(struct profdb__dev_times *d, const struct profdb__kernel_ids *k, size_t n,
                           struct profdb_err *err)
{
	size_t m = 0;
	for (size_t i = 0; i < n; i++)
		m += k[i].ext != PROFDB_NULL;
	if (!m)
		return PROFDB_OK;
	if (!(d->v = malloc(m * sizeof *d->v)))
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	d->cap = m;
	for (size_t i = 0; i < n; i++)
		if (k[i].ext != PROFDB_NULL)
			d->v[d->n++] = (struct profdb__dev_time){ k[i].rank, k[i].ext, k[i].dur };
	sum_dev(d);
	return PROFDB_OK;
}

int64_t profdb__dev_times_get(const struct profdb__dev_times *d, int64_t rank, int64_t ext)
{
	const struct profdb__dev_time key = { rank, ext, 0 };
	size_t pos;
	PROFDB__LOWER_BOUND(pos, 0, d->n, i, cmp_dev(&d->v[i], &key) < 0);
	return pos < d->n && cmp_dev(&d->v[pos], &key) == 0 ? d->v[pos].dur : 0;
}

void profdb__dev_times_free(struct profdb__dev_times *d)
{
	free(d->v);
	d->v = NULL;
	d->n = d->cap = 0;
}

/* A closed op's row gets its times. */
static int write_times(void *arg, const struct profdb__nest_op *o)
{
	struct nest *n = arg;
	int rc;
	sqlite3_bind_int64(n->upd, 1, o->tag); /* the rowid */
	sqlite3_bind_int64(n->upd, 2, o->self);
	if (o->dev_self[0] == PROFDB_NULL)
		sqlite3_bind_null(n->upd, 3);
	else
		sqlite3_bind_int64(n->upd, 3, o->dev_self[0]);
	sqlite3_bind_int64(n->upd, 4, o->dev_total[0]);
	rc = sqlite3_step(n->upd);
	sqlite3_reset(n->upd);
	return rc == SQLITE_DONE ? PROFDB_OK : sql_fail(n, "update");
}

/* profdb__nest's PROFDB_ERROR without a message is memory; write_times set its own. */
static int nest_fail(struct nest *n, int rc)
{
	if (n->err->code == PROFDB_OK)
		return profdb__err_set(n->err, PROFDB_ERROR, rc == PROFDB__NEST_UNSORTED ?
		                       "op times: rows out of order" : "out of memory");
	return n->err->code;
}

int profdb__op_nest(sqlite3 *db, int64_t run_id, const struct profdb__row_run *ops, size_t nops,
                    int64_t closed_upto, const struct profdb__row_run *kernels, size_t nk, struct profdb_err *err)
{
	struct nest n = { .db = db, .run_id = run_id, .err = err };
	sqlite3_stmt *sel = NULL;
	int64_t rank = 0, tid = 0;
	int tid_null = 0, first = 1, rc = PROFDB_OK, step;

	if (!nops)
		return PROFDB_OK;
	profdb__nest_init(&n.nest, 0, write_times, &n);
	if (sqlite3_prepare_v2(db, "SELECT id, rank, tid, start_ns, dur_ns, external_id FROM op"
	                       " WHERE run_id = ?1 AND id BETWEEN ?2 AND ?3 AND self_ns IS NULL"
	                       " AND start_ns IS NOT NULL AND dur_ns IS NOT NULL"
	                       " ORDER BY rank, tid, start_ns, dur_ns DESC, CASE WHEN id <= ?4 THEN -id ELSE id END",
	                       -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE op SET self_ns = ?2, device_self_ns = ?3, device_total_ns = ?4,"
	                       " step = coalesce(step, profdb_step_at(rank, start_ns)) WHERE id = ?1",
	                       -1, &n.upd, NULL) != SQLITE_OK) {
		rc = sql_fail(&n, "prepare");
		goto out;
	}
	if ((rc = profdb__dev_times_load(&n.dev, db, kernels, nk, err)) != PROFDB_OK)
		goto out;
	sqlite3_bind_int64(sel, 1, run_id);
	sqlite3_bind_int64(sel, 2, ops[0].lo);
	sqlite3_bind_int64(sel, 3, ops[nops - 1].hi);
	sqlite3_bind_int64(sel, 4, closed_upto);
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		struct profdb__nest_op o = { 0 };
		int64_t r = sqlite3_column_int64(sel, 1), t = sqlite3_column_int64(sel, 2);
		int tn = sqlite3_column_type(sel, 2) == SQLITE_NULL;
		o.tag = sqlite3_column_int64(sel, 0);
		if (!profdb__row_runs_has(ops, nops, o.tag))
			continue; /* another file's, written in between */
		o.id = o.tag <= closed_upto ? -o.tag : o.tag; /* file order, as the ORDER BY */
		o.start = sqlite3_column_int64(sel, 3);
		o.dur = sqlite3_column_int64(sel, 4);
		o.dev_self[0] = o.dev_self[1] = PROFDB_NULL;
		if (sqlite3_column_type(sel, 5) != SQLITE_NULL)
			o.dev_self[0] = profdb__dev_times_get(&n.dev, r, sqlite3_column_int64(sel, 5));
		if (first || r != rank || tn != tid_null || (!tn && t != tid)) {
			if ((rc = profdb__nest_end(&n.nest)) != PROFDB_OK)
				goto out;
			rank = r;
			tid = t;
			tid_null = tn;
			first = 0;
		}
		if ((rc = profdb__nest_add(&n.nest, &o)) != PROFDB_OK)
			goto out;
	}
	if (step != SQLITE_DONE) {
		rc = sql_fail(&n, "ops");
		goto out;
	}
	rc = profdb__nest_end(&n.nest);
out:
	if (rc != PROFDB_OK)
		rc = nest_fail(&n, rc);
	sqlite3_finalize(sel);
	sqlite3_finalize(n.upd);
	profdb__dev_times_free(&n.dev);
	profdb__nest_free(&n.nest);
	return rc;
}

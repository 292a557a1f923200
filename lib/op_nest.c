/*
 * op_nest.c - self and device times of one file's host ops, from the op and
 * kernel rows the store wrote for it.
 *
 * Kineto events are not sorted and a parent is written after its children,
 * so nesting needs every op of the file.  Keeping them in the reader made
 * memory grow with the trace (about 140 bytes an op); here SQLite sorts the
 * rows (spilling to temporary files past its cache) and a stack as deep as
 * the nesting walks them, the same way kineto_ops.c nests ops in memory
 * for sinks that do not nest.  Threads are (rank, tid): the op table has no
 * pid, and host thread ids are unique across the processes of a host.
 */
#include <stdlib.h>

#include "op_nest.h"
#include "banned.h"

/* An op whose children are still coming. */
struct open_op {
	int64_t id, start, end, dur;
	int64_t child_dur;         /* direct children's durations */
	int64_t dev_self;          /* PROFDB_NULL without an External id */
	int64_t dev_total;         /* its own and its children's so far */
};

/* Device time of the file's kernels per (rank, External id). */
struct dev_time {
	int64_t rank, ext, dur;
};

struct nest {
	sqlite3 *db;
	int64_t run_id;
	sqlite3_stmt *upd;
	struct dev_time *dev;      /* sorted by (rank, ext), one per key; owned */
	size_t ndev, capdev;
	struct open_op *stack;
	size_t top, cap;
	struct profdb_err *err;
};

/* Whether rowid id is in the ascending runs r[0..n). */
static int in_runs(const struct profdb_row_run *r, size_t n, int64_t id)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (r[mid].hi < id)
			lo = mid + 1;
		else if (r[mid].lo > id)
			hi = mid;
		else
			return 1;
	}
	return 0;
}

static int sql_fail(struct nest *n, const char *what)
{
	return profdb__err_set(n->err, PROFDB_ERROR, "op times: %s: %s", what, sqlite3_errmsg(n->db));
}

static int cmp_dev(const void *a, const void *b)
{
	const struct dev_time *x = a, *y = b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return (x->ext > y->ext) - (x->ext < y->ext);
}

static void sift_down(struct dev_time *d, size_t i, size_t n)
{
	for (;;) {
		size_t c = 2 * i + 1;
		struct dev_time t;
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
 * array, which on a 4 GB trace (1.1 M kernels) was 26 MB more at peak. */
static void sort_dev(struct dev_time *d, size_t n)
{
	for (size_t i = n / 2; i-- > 0;)
		sift_down(d, i, n);
	for (size_t end = n; end > 1; end--) {
		struct dev_time t = d[0];
		d[0] = d[end - 1];
		d[end - 1] = t;
		sift_down(d, 0, end - 1);
	}
}

/*
 * Sum the file's kernels per (rank, External id) in one pass over their
 * rows: one index probe per op cost more than the nesting itself.  Kept
 * as a sorted array (24 bytes a kernel with an External id, then one per
 * key), searched by bisection: a hash map of the 1 GB trace's 274 k
 * kernels took 32-48 MB.
 */
static int load_device_times(struct nest *n, const struct profdb_row_run *kr, size_t nk)
{
	sqlite3_stmt *q = NULL;
	size_t w = 0;
	int rc;
	if (!nk)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(n->db, "SELECT id, rank, external_id, dur_ns FROM kernel"
	                       " WHERE id BETWEEN ?1 AND ?2 AND external_id IS NOT NULL", -1, &q, NULL) != SQLITE_OK)
		return sql_fail(n, "kernels");
	sqlite3_bind_int64(q, 1, kr[0].lo);
	sqlite3_bind_int64(q, 2, kr[nk - 1].hi);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (!in_runs(kr, nk, sqlite3_column_int64(q, 0)))
			continue; /* another file's, written in between */
		if (n->ndev == n->capdev) {
			size_t cap = n->capdev ? n->capdev * 2 : 1024;
			struct dev_time *d = realloc(n->dev, cap * sizeof *d);
			if (!d) {
				sqlite3_finalize(q);
				return profdb__err_set(n->err, PROFDB_ERROR, "out of memory");
			}
			n->dev = d;
			n->capdev = cap;
		}
		n->dev[n->ndev++] = (struct dev_time){ sqlite3_column_int64(q, 1), sqlite3_column_int64(q, 2),
		                                       sqlite3_column_int64(q, 3) };
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return sql_fail(n, "kernels");
	sort_dev(n->dev, n->ndev);
	for (size_t r = 0; r < n->ndev; r++) /* one entry per key, durations summed */
		if (w > 0 && cmp_dev(&n->dev[w - 1], &n->dev[r]) == 0)
			n->dev[w - 1].dur += n->dev[r].dur;
		else
			n->dev[w++] = n->dev[r];
	n->ndev = w;
	return PROFDB_OK;
}

/* Device time of the file's kernels with External id ext (rank rank), 0 if none. */
static int64_t dev_self(const struct nest *n, int64_t rank, int64_t ext)
{
	struct dev_time key = { rank, ext, 0 };
	const struct dev_time *d = n->ndev ? bsearch(&key, n->dev, n->ndev, sizeof key, cmp_dev) : NULL;
	return d ? d->dur : 0;
}

/* Close the innermost open op: its subtree is complete. */
static int pop(struct nest *n)
{
	const struct open_op *o = &n->stack[--n->top];
	int rc;
	sqlite3_bind_int64(n->upd, 1, o->id);
	sqlite3_bind_int64(n->upd, 2, o->dur - o->child_dur);
	if (o->dev_self == PROFDB_NULL)
		sqlite3_bind_null(n->upd, 3);
	else
		sqlite3_bind_int64(n->upd, 3, o->dev_self);
	sqlite3_bind_int64(n->upd, 4, o->dev_total);
	rc = sqlite3_step(n->upd);
	sqlite3_reset(n->upd);
	if (rc != SQLITE_DONE)
		return sql_fail(n, "update");
	/* the op below an open op is its parent */
	if (n->top > 0)
		n->stack[n->top - 1].dev_total += o->dev_total;
	return PROFDB_OK;
}

static int push(struct nest *n, const struct open_op *o)
{
	if (n->top == n->cap) {
		size_t cap = n->cap ? n->cap * 2 : 64;
		struct open_op *s = realloc(n->stack, cap * sizeof *s);
		if (!s)
			return profdb__err_set(n->err, PROFDB_ERROR, "out of memory");
		n->stack = s;
		n->cap = cap;
	}
	n->stack[n->top++] = *o;
	return PROFDB_OK;
}

int profdb__op_nest(sqlite3 *db, int64_t run_id, const struct profdb_row_run *ops, size_t nops,
                    const struct profdb_row_run *kernels, size_t nk, struct profdb_err *err)
{
	struct nest n = { .db = db, .run_id = run_id, .err = err };
	sqlite3_stmt *sel = NULL;
	int64_t rank = 0, tid = 0;
	int tid_null = 0, first = 1, rc = PROFDB_OK, step;

	if (!nops)
		return PROFDB_OK;
	if (sqlite3_prepare_v2(db, "SELECT id, rank, tid, start_ns, dur_ns, external_id FROM op"
	                       " WHERE run_id = ?1 AND id BETWEEN ?2 AND ?3 AND self_ns IS NULL"
	                       " AND start_ns IS NOT NULL AND dur_ns IS NOT NULL"
	                       " ORDER BY rank, tid, start_ns, dur_ns DESC, id", -1, &sel, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(db, "UPDATE op SET self_ns = ?2, device_self_ns = ?3, device_total_ns = ?4,"
	                       " step = coalesce(step, profdb_step_at(rank, start_ns)) WHERE id = ?1",
	                       -1, &n.upd, NULL) != SQLITE_OK) {
		rc = sql_fail(&n, "prepare");
		goto out;
	}
	if ((rc = load_device_times(&n, kernels, nk)) != PROFDB_OK)
		goto out;
	sqlite3_bind_int64(sel, 1, run_id);
	sqlite3_bind_int64(sel, 2, ops[0].lo);
	sqlite3_bind_int64(sel, 3, ops[nops - 1].hi);
	while ((step = sqlite3_step(sel)) == SQLITE_ROW) {
		struct open_op o = { 0 };
		int64_t r = sqlite3_column_int64(sel, 1), t = sqlite3_column_int64(sel, 2);
		int tn = sqlite3_column_type(sel, 2) == SQLITE_NULL;
		o.id = sqlite3_column_int64(sel, 0);
		if (!in_runs(ops, nops, o.id))
			continue; /* another file's, written in between */
		o.start = sqlite3_column_int64(sel, 3);
		o.dur = sqlite3_column_int64(sel, 4);
		o.end = o.start + o.dur;
		o.dev_self = PROFDB_NULL;
		if (sqlite3_column_type(sel, 5) != SQLITE_NULL)
			o.dev_self = dev_self(&n, r, sqlite3_column_int64(sel, 5));
		o.dev_total = o.dev_self == PROFDB_NULL ? 0 : o.dev_self;
		if (first || r != rank || tn != tid_null || (!tn && t != tid)) {
			while (n.top > 0)
				if ((rc = pop(&n)) != PROFDB_OK)
					goto out;
			rank = r;
			tid = t;
			tid_null = tn;
			first = 0;
		}
		/* as torch: one that starts at or after the top's end, or ends
		 * after it, is not its child */
		while (n.top > 0) {
			const struct open_op *p = &n.stack[n.top - 1];
			if (o.start < p->end && o.end <= p->end)
				break;
			if ((rc = pop(&n)) != PROFDB_OK)
				goto out;
		}
		if (n.top > 0)
			n.stack[n.top - 1].child_dur += o.dur;
		if ((rc = push(&n, &o)) != PROFDB_OK)
			goto out;
	}
	if (step != SQLITE_DONE) {
		rc = sql_fail(&n, "ops");
		goto out;
	}
	while (n.top > 0)
		if ((rc = pop(&n)) != PROFDB_OK)
			goto out;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(n.upd);
	free(n.dev);
	free(n.stack);
	return rc;
}

/*
 * op_link.c - which host op launched each kernel of a Kineto file whose
 * device events carry no op id, done the way the profiler links them.
 *
 * Kineto writes a device event's "External id" as the External id of the
 * innermost op open on the launching thread.  Traces of 2022-2023 (HTA
 * trace_diff, critical_path/alexnet, param linear_kineto) wrote the
 * event's correlation id there instead, on every device and runtime event:
 * matched against op External ids it names nothing, or an unrelated op
 * (linear_kineto credited aten::transpose with volta_sgemm).  Such a file
 * is recognised as a whole: every device event that has both ids has them
 * equal (a real op id equals its event's correlation id at most by
 * chance, never for all of them).  Its kernels are then linked as the
 * profiler does: kernel -> the runtime call with its correlation id (any
 * cuda_runtime / cuda_driver / ... event: cudaLaunchKernel, hipLaunchKernel,
 * cudaMemcpyAsync, ...) -> the innermost op whose span [start, end) holds
 * the call's start on the call's thread (rank, tid), nested as op_nest.c
 * nests ops, user annotations (record_function, ProfilerStep#N) left out:
 * in every corpus trace with real op ids no device event names one, the
 * profiler links the innermost operator (nccl:all_reduce is an annotation
 * inside record_param_comms, which gets the NCCL kernel); and
 * kernel.external_id is rewritten to that op's External
 * id (NULL when no op holds the call), so every later step (op device
 * times, ops' top_kernels) reads one link.  Nothing is lost: the value
 * rewritten is the kernel's correlation id, kept in kernel.correlation.
 * The three sweeps (SQL, C over the table's ops, C over the ops
 * store_ops.c holds) share the merge and the rewrite.
 */
#include <stdlib.h>
#include <string.h>

#include "op_link.h"
#include "batch_flusher.h"
#include "util/lower_bound.h"
#include "banned.h"

/* An op open on the sweep's thread. */
struct open_span {
	int64_t end, ext;          /* ext PROFDB_NULL: the op has none */
};

/* A runtime call and the External id of the op that holds it. */
struct call_link {
	int64_t corr, ext;
	size_t seq;                /* the order the sweep found it in */
};

/* The links of one rank: links[first .. first + n).  The sweep goes rank
 * by rank, so a rank's links are together (and the rank needs no 8 bytes
 * in each: 700 k links in a 1 GB trace). */
struct rank_links {
	int64_t rank;
	size_t first, n;
};

struct linker {
	sqlite3 *db;
	struct profdb_err *err;
	size_t calls_max;          /* struct profdb_limits link_calls_max */
	struct open_span *stack;
	size_t top, cap;
	struct call_link *links;   /* owned */
	size_t nlinks, caplinks;
	struct rank_links *ranks;  /* owned; ascending */
	size_t nranks, capranks;
	int indexed;               /* index_links done */
};

static int lk_fail(struct linker *l, const char *what)
{
	return profdb__err_set(l->err, PROFDB_ERROR, "kernel links: %s: %s", what, sqlite3_errmsg(l->db));
}

/* Whether some kernel row in kr[0..nk) matches cond; -1 on an SQL error.
 * EXISTS stops at the first: a current trace answers at its first kernel. */
static int any_kernel(struct linker *l, const struct profdb__row_run *kr, size_t nk, const char *sql)
{
	sqlite3_stmt *q = NULL;
	int found = 0;
	if (sqlite3_prepare_v2(l->db, sql, -1, &q, NULL) != SQLITE_OK)
		return -1;
	for (size_t i = 0; i < nk && !found; i++) {
		sqlite3_bind_int64(q, 1, kr[i].lo);
		sqlite3_bind_int64(q, 2, kr[i].hi);
		if (sqlite3_step(q) != SQLITE_ROW) {
			sqlite3_finalize(q);
			return -1;
		}
		found = sqlite3_column_int(q, 0);
		sqlite3_reset(q);
	}
	sqlite3_finalize(q);
	return found;
}

/*
 * Whether the file's kernels (rows in kr[0..nk)) carry correlation ids as
 * External ids: some have both, and all that have both have them equal.
 * -1 on an SQL error.
 */
static int ext_is_correlation(struct linker *l, const struct profdb__row_run *kr, size_t nk)
{
	int differ = any_kernel(l, kr, nk, "SELECT EXISTS (SELECT 1 FROM kernel WHERE id BETWEEN ?1 AND ?2"
	                        " AND external_id != correlation)");
	if (differ != 0)
		return differ < 0 ? -1 : 0;
	return any_kernel(l, kr, nk, "SELECT EXISTS (SELECT 1 FROM kernel WHERE id BETWEEN ?1 AND ?2"
	                  " AND external_id = correlation)");
}

static int push_span(struct linker *l, int64_t end, int64_t ext)
{
	if (l->top == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		struct open_span *s = realloc(l->stack, cap * sizeof *s);
		if (!s)
			return profdb__err_set(l->err, PROFDB_ERROR, "out of memory");
		l->stack = s;
		l->cap = cap;
	}
	l->stack[l->top++] = (struct open_span){ end, ext };
	return PROFDB_OK;
}

static int add_link(struct linker *l, int64_t rank, int64_t corr, int64_t ext)
{
	if (l->nranks == 0 || l->ranks[l->nranks - 1].rank != rank) {
		if (l->nranks && l->ranks[l->nranks - 1].rank > rank)
			return profdb__err_set(l->err, PROFDB_ERROR, "kernel links: ranks out of order");
		if (l->nranks == l->capranks) {
			size_t cap = l->capranks ? l->capranks * 2 : 16;
			struct rank_links *v = realloc(l->ranks, cap * sizeof *v);
			if (!v)
				return profdb__err_set(l->err, PROFDB_ERROR, "out of memory");
			l->ranks = v;
			l->capranks = cap;
		}
		l->ranks[l->nranks++] = (struct rank_links){ rank, l->nlinks, 0 };
	}
	if (l->nlinks == l->caplinks) {
		size_t cap = l->caplinks ? l->caplinks * 2 : 1024;
		struct call_link *v = realloc(l->links, cap * sizeof *v);
		if (!v)
			return profdb__err_set(l->err, PROFDB_ERROR, "out of memory");
		l->links = v;
		l->caplinks = cap;
	}
	l->links[l->nlinks] = (struct call_link){ corr, ext, l->nlinks };
	l->nlinks++;
	l->ranks[l->nranks - 1].n++;
	return PROFDB_OK;
}

/*
 * One sweep over the file's ops and runtime calls per thread, sorted by
 * start (at one start ops first, longer first: the call is inside them),
 * with a stack of open ops: a call belongs to the innermost op still open
 * at its start.  Ops open and close by op_nest.c's rule.
 */
static int sweep(struct linker *l, int64_t run_id, const struct profdb__row_run *ops, size_t nops,
                 int64_t closed_upto, const struct profdb__row_run *la, size_t nl)
{
	sqlite3_stmt *q = NULL;
	int64_t rank = 0, tid = 0;
	int tid_null = 0, first = 1, rc = PROFDB_OK, step;
	/* ops of equal start and end: the outer one first, i.e. file order:
	 * descending rowids up to closed_upto (stored as they closed, the
	 * inner one first: store_ops.c), then ascending */
	if (sqlite3_prepare_v2(l->db, "SELECT 0, id, rank, tid, start_ns, dur_ns, external_id,"
	                       " CASE WHEN id <= ?6 THEN -id ELSE id END FROM op"
	                       " WHERE run_id = ?1 AND id BETWEEN ?2 AND ?3"
	                       " AND start_ns IS NOT NULL AND dur_ns IS NOT NULL"
	                       /* str ids are >= 1: 0 and -1 stand for none */
	                       " AND coalesce(category_id, 0) !="
	                       " coalesce((SELECT id FROM str WHERE value = 'user_annotation'), -1)"
	                       " UNION ALL SELECT 1, rowid, rank, tid, start_ns, dur_ns, correlation, rowid FROM launch"
	                       " WHERE run_id = ?1 AND rowid BETWEEN ?4 AND ?5"
	                       " ORDER BY 3, 4, 5, 1, 6 DESC, 8", -1, &q, NULL) != SQLITE_OK)
		return lk_fail(l, "prepare");
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_int64(q, 2, nops ? ops[0].lo : 1);
	sqlite3_bind_int64(q, 3, nops ? ops[nops - 1].hi : 0);
	sqlite3_bind_int64(q, 4, la[0].lo);
	sqlite3_bind_int64(q, 5, la[nl - 1].hi);
	sqlite3_bind_int64(q, 6, closed_upto);
	while ((step = sqlite3_step(q)) == SQLITE_ROW) {
		int is_call = sqlite3_column_int(q, 0);
		int64_t id = sqlite3_column_int64(q, 1), r = sqlite3_column_int64(q, 2);
		int64_t t = sqlite3_column_int64(q, 3), start = sqlite3_column_int64(q, 4);
		int64_t end = start + sqlite3_column_int64(q, 5);
		int64_t v = sqlite3_column_type(q, 6) == SQLITE_NULL ? PROFDB_NULL : sqlite3_column_int64(q, 6);
		int tn = sqlite3_column_type(q, 3) == SQLITE_NULL;
		if (!(is_call ? profdb__row_runs_has(la, nl, id) : profdb__row_runs_has(ops, nops, id)))
			continue; /* another file's, written in between */
		if (first || r != rank || tn != tid_null || (!tn && t != tid)) {
			l->top = 0;
			rank = r;
			tid = t;
			tid_null = tn;
			first = 0;
		}
		if (is_call) {
			/* an op that ended by now holds nothing that starts later */
			while (l->top > 0 && l->stack[l->top - 1].end <= start)
				l->top--;
			rc = add_link(l, r, v, l->top > 0 ? l->stack[l->top - 1].ext : PROFDB_NULL);
		} else {
			while (l->top > 0 && !(start < l->stack[l->top - 1].end && end <= l->stack[l->top - 1].end))
				l->top--;
			rc = push_span(l, end, v);
		}
		if (rc != PROFDB_OK)
			break;
	}
	if (rc == PROFDB_OK && step != SQLITE_DONE)
		rc = lk_fail(l, "sweep");
	sqlite3_finalize(q);
	return rc;
}

/*
 * The same sweep without SQLite's sorter (its ORDER BY over the file's
 * ops and calls costs thousands of instructions a row, a large share of
 * a trace's ingest): the file's runtime calls are read in rowid
 * order and sorted here; its ops come in the order of the op_run_tid
 * index (rank, tid, start_ns), rank by rank, each run of equal starts
 * sorted here as the ORDER BY sorts it.  Used when the calls fit in
 * link_calls_max (struct profdb_limits, 262 144 built in: 56 bytes each,
 * 14 MB: trace300's 222 k calls fit; the 1 GB trace's 720 k would add
 * 40 MB to its 90 MB); a bigger file takes the SQL sweep above, whose
 * sorter spills to disk.
 */

/* Runtime calls and ops of the sweep are struct profdb__link_op (op_nest.h). */

/* The ORDER BY's order: rank, tid (NULL first), start, then (items of one
 * kind) dur descending, key. */
static int cmp_thread_start(const struct profdb__link_op *a, const struct profdb__link_op *b)
{
	if (a->rank != b->rank)
		return a->rank < b->rank ? -1 : 1;
	if (a->tid_null != b->tid_null)
		return a->tid_null ? -1 : 1;
	if (!a->tid_null && a->tid != b->tid)
		return a->tid < b->tid ? -1 : 1;
	return (a->start > b->start) - (a->start < b->start);
}

int profdb__link_op_cmp(const void *pa, const void *pb)
{
	const struct profdb__link_op *a = pa, *b = pb;
	int c = cmp_thread_start(a, b);
	if (c)
		return c;
	if (a->dur != b->dur)
		return a->dur > b->dur ? -1 : 1;
	return (a->key > b->key) - (a->key < b->key);
}

static void item_of(sqlite3_stmt *q, struct profdb__link_op *it)
{
	it->rank = sqlite3_column_int64(q, 1);
	it->tid_null = sqlite3_column_type(q, 2) == SQLITE_NULL;
	it->tid = it->tid_null ? 0 : sqlite3_column_int64(q, 2);
	it->start = sqlite3_column_int64(q, 3);
	it->dur = sqlite3_column_int64(q, 4);
	it->v = sqlite3_column_type(q, 5) == SQLITE_NULL ? PROFDB_NULL : sqlite3_column_int64(q, 5);
}

/* The file's calls, sorted; *out NULL (and 0) when there are more than l->calls_max. */
static int load_calls(struct linker *l, int64_t run_id, const struct profdb__row_run *la, size_t nl,
                      struct profdb__link_op **out, size_t *n)
{
	sqlite3_stmt *q = NULL;
	struct profdb__link_op *v = NULL;
	size_t cap = 0, k = 0, most = l->calls_max;
	int rc;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(l->db, "SELECT rowid, rank, tid, start_ns, dur_ns, correlation FROM launch"
	                       " WHERE run_id = ?1 AND rowid BETWEEN ?2 AND ?3", -1, &q, NULL) != SQLITE_OK)
		return lk_fail(l, "prepare");
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_int64(q, 2, la[0].lo);
	sqlite3_bind_int64(q, 3, la[nl - 1].hi);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (!profdb__row_runs_has(la, nl, sqlite3_column_int64(q, 0)))
			continue; /* another file's, written in between */
		if (k == most) { /* too many: the SQL sweep */
			free(v);
			sqlite3_finalize(q);
			return PROFDB_OK;
		}
		if (k == cap) {
			struct profdb__link_op *nv;
			cap = cap ? cap * 2 : 1024;
			if (!(nv = realloc(v, cap * sizeof *nv))) {
				free(v);
				sqlite3_finalize(q);
				return profdb__err_set(l->err, PROFDB_ERROR, "out of memory");
			}
			v = nv;
		}
		item_of(q, &v[k]);
		v[k++].key = sqlite3_column_int64(q, 0);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE) {
		free(v);
		return lk_fail(l, "calls");
	}
	if (k > 1) /* qsort(NULL, 0) is undefined (UBSan) */
		qsort(v, k, sizeof *v, profdb__link_op_cmp);
	*out = v;
	*n = k;
	return PROFDB_OK;
}

/* The merge's state: the calls, the next one, the thread of the stack. */
struct merge {
	struct linker *l;
	const struct profdb__link_op *calls;
	size_t ncalls, next;
	struct profdb__link_op thread; /* rank and tid of what the stack holds */
	int have_thread;
};

/* Give the items (op: is_call 0) their turn in the ORDER BY's order:
 * a new thread empties the stack; a call links to the innermost open op. */
static int merge_step(struct merge *m, const struct profdb__link_op *it, int is_call)
{
	struct linker *l = m->l;
	if (!m->have_thread || m->thread.rank != it->rank || m->thread.tid_null != it->tid_null ||
	    m->thread.tid != it->tid) {
		l->top = 0;
		m->thread = *it;
		m->have_thread = 1;
	}
	if (is_call) {
		while (l->top > 0 && l->stack[l->top - 1].end <= it->start)
			l->top--;
		return add_link(l, it->rank, it->v, l->top > 0 ? l->stack[l->top - 1].ext : PROFDB_NULL);
	}
	while (l->top > 0 && !(it->start < l->stack[l->top - 1].end && it->start + it->dur <= l->stack[l->top - 1].end))
		l->top--;
	return push_span(l, it->start + it->dur, it->v);
}

/* The calls that come before op o (or all, o NULL): at one start, ops first. */
static int calls_before(struct merge *m, const struct profdb__link_op *o)
{
	int rc = PROFDB_OK;
	while (rc == PROFDB_OK && m->next < m->ncalls && (!o || cmp_thread_start(&m->calls[m->next], o) < 0))
		rc = merge_step(m, &m->calls[m->next++], 1);
	return rc;
}

/* A run of ops of one (rank, tid, start): sorted as the ORDER BY, then swept. */
static int flush_ties(struct merge *m, struct profdb__link_op *ties, size_t n)
{
	int rc;
	if (!n)
		return PROFDB_OK;
	if (n > 1)
		qsort(ties, n, sizeof *ties, profdb__link_op_cmp);
	if ((rc = calls_before(m, &ties[0])) != PROFDB_OK)
		return rc;
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++)
		rc = merge_step(m, &ties[i], 0);
	return rc;
}

/* Add op row q (columns as in sweep_rank's SELECT) to the ties, flushing
 * them first when it starts a new (thread, start).  *n, *cap: the ties'. */
static int op_row(struct merge *m, sqlite3_stmt *q, int64_t closed_upto, struct profdb__link_op **ties, size_t *n,
                  size_t *cap)
{
	struct profdb__link_op it;
	int64_t id = sqlite3_column_int64(q, 0);
	int rc;
	item_of(q, &it);
	it.key = id <= closed_upto ? -id : id; /* file order, as the ORDER BY */
	if (*n && cmp_thread_start(&(*ties)[0], &it) != 0) {
		if ((rc = flush_ties(m, *ties, *n)) != PROFDB_OK)
			return rc;
		*n = 0;
	}
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct profdb__link_op *v = realloc(*ties, c * sizeof *v);
		if (!v)
			return profdb__err_set(m->l->err, PROFDB_ERROR, "out of memory");
		*ties = v;
		*cap = c;
	}
	(*ties)[(*n)++] = it;
	return PROFDB_OK;
}

/* The ops of one rank in op_run_tid's order (no sort), merged with the calls. */
static int sweep_rank(struct merge *m, sqlite3_stmt *q, int64_t rank, const struct profdb__row_run *ops,
                      size_t nops, int64_t closed_upto)
{
	struct profdb__link_op *ties = NULL;
	size_t n = 0, cap = 0;
	int rc = PROFDB_OK, step;
	sqlite3_bind_int64(q, 2, rank);
	while (rc == PROFDB_OK && (step = sqlite3_step(q)) == SQLITE_ROW)
		if (profdb__row_runs_has(ops, nops, sqlite3_column_int64(q, 0)))
			rc = op_row(m, q, closed_upto, &ties, &n, &cap);
	if (rc == PROFDB_OK && step != SQLITE_DONE)
		rc = lk_fail(m->l, "sweep");
	if (rc == PROFDB_OK)
		rc = flush_ties(m, ties, n);
	sqlite3_reset(q);
	free(ties);
	return rc;
}

/* The sweep in C; *done 0 when the file has too many calls for it. */
static int sweep_c(struct linker *l, int64_t run_id, const struct profdb__row_run *ops, size_t nops,
                   int64_t closed_upto, const struct profdb__row_run *la, size_t nl, int *done)
{
	struct merge m = { .l = l };
	struct profdb__link_op *calls;
	sqlite3_stmt *q = NULL;
	int rc;
	*done = 0;
	if ((rc = load_calls(l, run_id, la, nl, &calls, &m.ncalls)) != PROFDB_OK || !calls)
		return rc;
	*done = 1;
	m.calls = calls;
	/* one rank at a time (a file has one): the index's order is the sweep's */
	if (sqlite3_prepare_v2(l->db, "SELECT id, rank, tid, start_ns, dur_ns, external_id FROM op"
	                       " INDEXED BY op_run_tid WHERE run_id = ?1 AND rank = ?2"
	                       " AND start_ns IS NOT NULL AND dur_ns IS NOT NULL"
	                       " AND coalesce(category_id, 0) !="
	                       " coalesce((SELECT id FROM str WHERE value = 'user_annotation'), -1)"
	                       " ORDER BY tid, start_ns", -1, &q, NULL) != SQLITE_OK)
		rc = lk_fail(l, "prepare");
	else
		sqlite3_bind_int64(q, 1, run_id);
	for (size_t i = 0; rc == PROFDB_OK && nops && i < m.ncalls; i++)
		if (i == 0 || calls[i].rank != calls[i - 1].rank)
			rc = sweep_rank(&m, q, calls[i].rank, ops, nops, closed_upto);
	if (rc == PROFDB_OK)
		rc = calls_before(&m, NULL);
	sqlite3_finalize(q);
	free(calls);
	return rc;
}

/* The sweep in C over ops held in memory, sorted here as the ORDER BY
 * sorts them (sweep_c takes them from the table); *done as sweep_c's. */
static int sweep_held(struct linker *l, int64_t run_id, struct profdb__link_op *ops, size_t nops,
                      const struct profdb__link_op *kept, size_t nkept,
                      const struct profdb__row_run *la, size_t nl, int *done)
{
	struct merge m = { .l = l };
	struct profdb__link_op *calls = NULL;
	int rc;
	*done = 0;
	if (kept) {
		m.calls = kept;
		m.ncalls = nkept;
	} else if ((rc = load_calls(l, run_id, la, nl, &calls, &m.ncalls)) != PROFDB_OK || !calls) {
		return rc;
	} else {
		m.calls = calls;
	}
	*done = 1;
	rc = PROFDB_OK;
	if (nops > 1)
		qsort(ops, nops, sizeof *ops, profdb__link_op_cmp);
	/* runs of one (rank, tid, start), as op_row gathers them from the index */
	for (size_t i = 0, j; rc == PROFDB_OK && i < nops; i = j) {
		for (j = i + 1; j < nops && cmp_thread_start(&ops[i], &ops[j]) == 0; j++)
			;
		rc = flush_ties(&m, ops + i, j - i);
	}
	if (rc == PROFDB_OK)
		rc = calls_before(&m, NULL);
	free(calls);
	return rc;
}

/* Links of a rank by corr, then the order the sweep found them in. */
static int cmp_link(const void *a, const void *b)
{
	const struct call_link *x = a, *y = b;
	if (x->corr != y->corr)
		return x->corr < y->corr ? -1 : 1;
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* Keep one link per (rank, corr), sorted by corr within each rank: the
 * last one found with an op (what one UPDATE per link in sweep order left
 * behind). */
static void index_links(struct linker *l)
{
	size_t out = 0;
	if (l->indexed)
		return;
	l->indexed = 1;
	for (size_t r = 0; r < l->nranks; r++) {
		struct rank_links *g = &l->ranks[r];
		size_t start = out, n = 0;
		for (size_t j = g->first; j < g->first + g->n; j++)
			if (l->links[j].ext != PROFDB_NULL && l->links[j].corr != PROFDB_NULL)
				l->links[out++] = l->links[j];
		qsort(l->links + start, out - start, sizeof *l->links, cmp_link);
		for (size_t j = start; j < out; j++) {
			if (n && l->links[start + n - 1].corr == l->links[j].corr)
				n--;
			l->links[start + n++] = l->links[j];
		}
		g->first = start;
		g->n = n;
		out = start + n;
	}
	l->nlinks = out;
}

/* The link of (rank, corr), NULL if none (bisections). */
static const struct call_link *find_link(const struct linker *l, int64_t rank, int64_t corr)
{
	size_t lo;
	const struct rank_links *g;
	PROFDB__LOWER_BOUND(lo, 0, l->nranks, mid, l->ranks[mid].rank < rank);
	if (lo == l->nranks || l->ranks[lo].rank != rank)
		return NULL;
	g = &l->ranks[lo];
	PROFDB__LOWER_BOUND(lo, g->first, g->first + g->n, mid, l->links[mid].corr < corr);
	return lo < g->first + g->n && l->links[lo].corr == corr ? &l->links[lo] : NULL;
}

/* What the rewrite sets a kernel's External id to. */
static int64_t link_ext(const struct linker *l, int64_t rank, int64_t corr)
{
	const struct call_link *k = rank == PROFDB_NULL || corr == PROFDB_NULL ? NULL : find_link(l, rank, corr);
	return k ? k->ext : PROFDB_NULL;
}

/* SQL profdb_link_ext(rank, correlation): the External id of the op that
 * holds the kernel's runtime call, NULL if none. */
static void link_ext_fn(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const struct call_link *k;
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return; /* NULL */
	k = find_link(sqlite3_user_data(ctx), sqlite3_value_int64(argv[0]), sqlite3_value_int64(argv[1]));
	if (k)
		sqlite3_result_int64(ctx, k->ext);
}

/*
 * Rewrite the file's kernels' External ids from the links found: one
 * UPDATE per run of the file's kernel rows, each row looked up in the
 * sorted links, rather than an UPDATE per link finding its kernels
 * through kernel_run_corr after one clearing them all, which costs an
 * index search per link and rewrites every row.  Rows whose value stays
 * are not rewritten.
 */
static int rewrite(struct linker *l, const struct profdb__row_run *kr, size_t nk)
{
	sqlite3_stmt *set = NULL;
	int rc = PROFDB_OK;
	index_links(l);
	if (sqlite3_create_function(l->db, "profdb_link_ext", 2, SQLITE_UTF8, l, link_ext_fn,
	                            NULL, NULL) != SQLITE_OK)
		return lk_fail(l, "function");
	if (sqlite3_prepare_v2(l->db, "UPDATE kernel SET external_id = profdb_link_ext(rank, correlation)"
	                       " WHERE id BETWEEN ?1 AND ?2"
	                       " AND external_id IS NOT profdb_link_ext(rank, correlation)",
	                       -1, &set, NULL) != SQLITE_OK)
		rc = lk_fail(l, "prepare");
	else if (profdb__row_runs_exec(set, 1, kr, nk) != SQLITE_DONE)
		rc = lk_fail(l, "update");
	sqlite3_finalize(set);
	/* the statement is gone: the function goes too, l is the caller's stack */
	sqlite3_create_function(l->db, "profdb_link_ext", 2, SQLITE_UTF8, NULL, NULL, NULL, NULL);
	return rc;
}

/* Say so in the run's notes, naming the file (source_file row source_id). */
static int add_note(struct linker *l, int64_t run_id, int64_t source_id)
{
	sqlite3_stmt *q = NULL;
	int rc;
	if (sqlite3_prepare_v2(l->db, "INSERT INTO run_note(run_id, note) SELECT ?1, path ||"
	                       " ': External ids of device events are their correlation ids, not op ids:"
	                       " kernels linked to operators through their launch calls'"
	                       " FROM source_file WHERE id = ?2", -1, &q, NULL) != SQLITE_OK)
		return lk_fail(l, "note");
	sqlite3_bind_int64(q, 1, run_id);
	sqlite3_bind_int64(q, 2, source_id);
	rc = sqlite3_step(q);
	sqlite3_finalize(q);
	return rc == SQLITE_DONE ? PROFDB_OK : lk_fail(l, "note");
}

/* The link, the rewrite and the note, once the sweep has found the links. */
static int link_end(struct linker *l, int64_t run_id, int64_t source_id, const struct profdb__row_run *kernels,
                    size_t nk)
{
	int rc = nk ? rewrite(l, kernels, nk) : PROFDB_OK;
	if (rc == PROFDB_OK)
		rc = add_note(l, run_id, source_id);
	return rc;
}

/* Does the file need its kernels linked (their External ids are their
 * correlation ids)?  1 yes, 0 no, or an error code (on l). */
static int needs_link(struct linker *l, const struct profdb__row_run *kernels, size_t nk)
{
	int copy = nk ? ext_is_correlation(l, kernels, nk) : 0;
	return copy < 0 ? lk_fail(l, "kernels") : copy;
}

static void linker_free(struct linker *l)
{
	free(l->stack);
	free(l->links);
	free(l->ranks);
}

/* The rewrite and note of a file, run later by the flusher: it owns the
 * links found. */
struct link_job {
	struct profdb__flush_job job; /* first: the job is the struct */
	struct linker l;
	struct profdb_err err;
	struct profdb__row_run *kr; /* owned */
	size_t nk;
	int64_t run_id, source_id;
};

static void link_job_free(struct link_job *j)
{
	linker_free(&j->l);
	free(j->kr);
	free(j);
}

static int link_job_run(struct profdb__flush_job *job)
{
	struct link_job *j = (struct link_job *)(void *)job;
	int rc = link_end(&j->l, j->run_id, j->source_id, j->kr, j->nk);
	link_job_free(j);
	return rc == PROFDB_OK ? SQLITE_OK : SQLITE_ERROR;
}

static void link_job_drop(struct profdb__flush_job *job)
{
	link_job_free((struct link_job *)(void *)job);
}

/* l's links into a job (l is left empty); NULL when out of memory. */
static struct profdb__flush_job *link_job(struct linker *l, int64_t run_id, int64_t source_id,
                                          const struct profdb__row_run *kernels, size_t nk)
{
	struct link_job *j = calloc(1, sizeof *j);
	if (!j || !(j->kr = malloc((nk ? nk : 1) * sizeof *j->kr))) {
		free(j);
		return NULL;
	}
	j->job = (struct profdb__flush_job){ .run = link_job_run, .drop = link_job_drop, .what = "kernel links" };
	j->l = *l;
	j->l.err = &j->err;
	memset(l, 0, sizeof *l);
	memcpy(j->kr, kernels, nk * sizeof *kernels);
	j->nk = nk;
	j->run_id = run_id;
	j->source_id = source_id;
	return &j->job;
}

int profdb__op_link_held(const profdb *db, int64_t run_id, int64_t source_id, struct profdb__link_op *ops,
                         size_t nops, const struct profdb__link_op *calls, size_t ncalls,
                         const struct profdb__row_run *launches, size_t nl,
                         const struct profdb__row_run *kernels, size_t nk, int copy,
                         struct profdb__kernel_ids *kids, size_t nkids, int in_table,
                         struct profdb__flush_job **defer, int *done, struct profdb_err *err)
{
	struct linker l = { .db = db->sql, .err = err, .calls_max = (size_t)db->limits.link_calls_max };
	int rc = PROFDB_OK;
	*done = 1;
	if (defer)
		*defer = NULL;
	if (!copy)
		return PROFDB_OK;
	if (nl && (rc = sweep_held(&l, run_id, ops, nops, calls, ncalls, launches, nl, done)) == PROFDB_OK && !*done) {
		linker_free(&l);
		return PROFDB_OK; /* too many calls: the caller takes profdb__op_link */
	}
	if (rc == PROFDB_OK && kids) { /* the rows the rewrite will make */
		index_links(&l);
		for (size_t i = 0; i < nkids; i++)
			kids[i].ext = link_ext(&l, kids[i].rank, kids[i].corr);
	}
	if (!in_table) /* the caller sets the rows' ids from kids: only the note */
		nk = 0;
	if (rc == PROFDB_OK && defer && !(*defer = link_job(&l, run_id, source_id, kernels, nk)))
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	else if (rc == PROFDB_OK && !defer)
		rc = link_end(&l, run_id, source_id, kernels, nk);
	linker_free(&l);
	return rc;
}

int profdb__op_link(const profdb *db, int64_t run_id, int64_t source_id, const struct profdb__row_run *ops,
                    size_t nops, int64_t closed_upto, const struct profdb__row_run *launches, size_t nl,
                    const struct profdb__row_run *kernels, size_t nk, struct profdb_err *err)
{
	struct linker l = { .db = db->sql, .err = err, .calls_max = (size_t)db->limits.link_calls_max };
	int rc = needs_link(&l, kernels, nk), swept = 0;
	if (rc != 1)
		return rc;
	rc = PROFDB_OK;
	if (nl && (rc = sweep_c(&l, run_id, ops, nops, closed_upto, launches, nl, &swept)) == PROFDB_OK && !swept)
		rc = sweep(&l, run_id, ops, nops, closed_upto, launches, nl);
	if (rc == PROFDB_OK)
		rc = link_end(&l, run_id, source_id, kernels, nk);
	linker_free(&l);
	return rc;
}

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
 */
#include <stdlib.h>

#include "op_nest.h"
#include "banned.h"

/* An op open on the sweep's thread. */
struct open_span {
	int64_t end, ext;          /* ext PROFDB_NULL: the op has none */
};

/* A runtime call and the External id of the op that holds it. */
struct call_link {
	int64_t rank, corr, ext;
};

struct linker {
	sqlite3 *db;
	struct profdb_err *err;
	struct open_span *stack;
	size_t top, cap;
	struct call_link *links;   /* owned */
	size_t nlinks, caplinks;
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
	if (l->nlinks == l->caplinks) {
		size_t cap = l->caplinks ? l->caplinks * 2 : 1024;
		struct call_link *v = realloc(l->links, cap * sizeof *v);
		if (!v)
			return profdb__err_set(l->err, PROFDB_ERROR, "out of memory");
		l->links = v;
		l->caplinks = cap;
	}
	l->links[l->nlinks++] = (struct call_link){ rank, corr, ext };
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

/* Rewrite the file's kernels' External ids from the links found. */
static int rewrite(struct linker *l, int64_t run_id, const struct profdb__row_run *kr, size_t nk)
{
	sqlite3_stmt *clear = NULL, *set = NULL;
	int rc = PROFDB_OK;
	if (sqlite3_prepare_v2(l->db, "UPDATE kernel SET external_id = NULL WHERE id BETWEEN ?1 AND ?2",
	                       -1, &clear, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(l->db, "UPDATE kernel SET external_id = ?4 WHERE run_id = ?1 AND rank = ?2"
	                       " AND correlation = ?3 AND id BETWEEN ?5 AND ?6", -1, &set, NULL) != SQLITE_OK) {
		rc = lk_fail(l, "prepare");
		goto out;
	}
	if (profdb__row_runs_exec(clear, 1, kr, nk) != SQLITE_DONE) {
		rc = lk_fail(l, "update");
		goto out;
	}
	sqlite3_bind_int64(set, 1, run_id);
	for (size_t j = 0; j < l->nlinks; j++) {
		if (l->links[j].ext == PROFDB_NULL || l->links[j].corr == PROFDB_NULL)
			continue;
		sqlite3_bind_int64(set, 2, l->links[j].rank);
		sqlite3_bind_int64(set, 3, l->links[j].corr);
		sqlite3_bind_int64(set, 4, l->links[j].ext);
		if (profdb__row_runs_exec(set, 5, kr, nk) != SQLITE_DONE) {
			rc = lk_fail(l, "update");
			goto out;
		}
	}
out:
	sqlite3_finalize(clear);
	sqlite3_finalize(set);
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

int profdb__op_link(sqlite3 *db, int64_t run_id, int64_t source_id, const struct profdb__row_run *ops,
                    size_t nops, int64_t closed_upto, const struct profdb__row_run *launches, size_t nl,
                    const struct profdb__row_run *kernels, size_t nk, struct profdb_err *err)
{
	struct linker l = { .db = db, .err = err };
	int rc, copy;
	if (!nk)
		return PROFDB_OK;
	copy = ext_is_correlation(&l, kernels, nk);
	if (copy < 0)
		return lk_fail(&l, "kernels");
	if (!copy)
		return PROFDB_OK;
	rc = nl ? sweep(&l, run_id, ops, nops, closed_upto, launches, nl) : PROFDB_OK;
	if (rc == PROFDB_OK)
		rc = rewrite(&l, run_id, kernels, nk);
	if (rc == PROFDB_OK)
		rc = add_note(&l, run_id, source_id);
	free(l.stack);
	free(l.links);
	return rc;
}

/*
 * step_index.c - profdb_step_at(rank, ns): the step whose span holds a time.
 *
 * Why: placing every kernel and host op in a step with a correlated
 * subquery scans all step spans of the rank per row (O(rows x steps), a
 * third of a large ingest).  Here the spans of each rank are cut into
 * elementary segments at every start and end, each segment labelled with
 * the smallest step covering it, so a lookup is two binary searches and the
 * answer is exactly that of "... WHERE ns >= start_ns AND ns < end_ns ORDER
 * BY step LIMIT 1", overlapping spans included.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "step_index.h"
#include "util/lower_bound.h"
#include "banned.h"

#define FN_NAME "profdb_step_at"

/* The segments of one rank (step_index.h). */
struct rank_ix {
	int64_t rank;
	struct profdb__step_segs s;
};

struct profdb__step_index {
	struct rank_ix *ranks;     /* sorted by rank */
	size_t nranks;
};

static void index_free(void *p)
{
	struct profdb__step_index *ix = p;
	if (!ix)
		return;
	for (size_t i = 0; i < ix->nranks; i++)
		profdb__step_segs_free(&ix->ranks[i].s);
	free(ix->ranks);
	free(ix);
}

static int cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
	return x < y ? -1 : x > y;
}

/* Index of the last bound <= v, or -1. */
static long last_le(const int64_t *b, size_t n, int64_t v)
{
	size_t lo;
	PROFDB__LOWER_BOUND(lo, 0, n, mid, b[mid] <= v);
	return (long)lo - 1;
}

/* Path-halving find over "next unlabelled segment" links. */
static size_t find_next(size_t *next, size_t i)
{
	while (next[i] != i) {
		next[i] = next[next[i]];
		i = next[i];
	}
	return i;
}

void profdb__step_segs_free(struct profdb__step_segs *r)
{
	free(r->bound);
	free(r->seg);
	r->bound = r->seg = NULL;
	r->nbound = 0;
}

int profdb__step_segs_build(struct profdb__step_segs *r, const struct profdb__step_span *sp, size_t n)
{
	size_t nb = 0, *next;
	r->bound = malloc(2 * n * sizeof *r->bound);
	r->seg = malloc(2 * n * sizeof *r->seg);
	next = malloc((2 * n + 1) * sizeof *next);
	if (!r->bound || !r->seg || !next) {
		free(next);
		return -1;
	}
	for (size_t i = 0; i < n; i++) {
		r->bound[nb++] = sp[i].start;
		r->bound[nb++] = sp[i].end;
	}
	qsort(r->bound, nb, sizeof *r->bound, cmp_i64);
	{
		size_t u = 0;
		for (size_t i = 0; i < nb; i++)
			if (u == 0 || r->bound[u - 1] != r->bound[i])
				r->bound[u++] = r->bound[i];
		nb = u;
	}
	r->nbound = nb;
	for (size_t i = 0; i + 1 < nb; i++)
		r->seg[i] = PROFDB_NULL;
	for (size_t i = 0; i < nb; i++)
		next[i] = i;
	/* smallest step first: a segment keeps the first label it gets */
	for (size_t k = 0; k < n; k++) {
		size_t lo = (size_t)last_le(r->bound, nb, sp[k].start);
		size_t hi = (size_t)last_le(r->bound, nb, sp[k].end);
		for (size_t i = find_next(next, lo); i < hi; i = find_next(next, i)) {
			r->seg[i] = sp[k].step;
			next[i] = i + 1;
		}
	}
	free(next);
	return 0;
}

int64_t profdb__step_segs_at(const struct profdb__step_segs *r, int64_t ns)
{
	long i = last_le(r->bound, r->nbound, ns);
	if (i < 0 || (size_t)i + 1 >= r->nbound)
		return PROFDB_NULL;
	return r->seg[i];
}

int64_t profdb__step_index_at(const struct profdb__step_index *ix, int64_t rank, int64_t ns)
{
	size_t lo;
	PROFDB__LOWER_BOUND(lo, 0, ix->nranks, mid, ix->ranks[mid].rank < rank);
	if (lo == ix->nranks || ix->ranks[lo].rank != rank)
		return PROFDB_NULL;
	return profdb__step_segs_at(&ix->ranks[lo].s, ns);
}

static void step_at(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	int64_t step;
	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL || sqlite3_value_type(argv[1]) == SQLITE_NULL)
		return; /* NULL */
	step = profdb__step_index_at(sqlite3_user_data(ctx), sqlite3_value_int64(argv[0]),
	                             sqlite3_value_int64(argv[1]));
	if (step != PROFDB_NULL)
		sqlite3_result_int64(ctx, step);
}

int profdb__step_index_load(sqlite3 *db, struct profdb__step_index **out, int64_t run_id)
{
	sqlite3_stmt *q = NULL;
	struct profdb__step_span *sp = NULL;
	int64_t *rk = NULL;
	size_t n = 0, cap = 0;
	int rc;

	*out = NULL;
	rc = sqlite3_prepare_v2(db, "SELECT rank, step, start_ns, end_ns FROM step WHERE run_id = ?1"
	                        " AND start_ns IS NOT NULL AND end_ns IS NOT NULL AND start_ns < end_ns"
	                        " ORDER BY rank, step", -1, &q, NULL);
	if (rc != SQLITE_OK)
		goto out;
	sqlite3_bind_int64(q, 1, run_id);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (n == cap) {
			size_t nc = cap ? cap * 2 : 64;
			struct profdb__step_span *ns = realloc(sp, nc * sizeof *ns);
			int64_t *nr = realloc(rk, nc * sizeof *nr);
			if (ns)
				sp = ns;
			if (nr)
				rk = nr;
			if (!ns || !nr) {
				rc = SQLITE_NOMEM;
				goto out;
			}
			cap = nc;
		}
		rk[n] = sqlite3_column_int64(q, 0);
		sp[n].step = sqlite3_column_int64(q, 1);
		sp[n].start = sqlite3_column_int64(q, 2);
		sp[n].end = sqlite3_column_int64(q, 3);
		n++;
	}
	if (rc != SQLITE_DONE)
		goto out;
	rc = profdb__step_index_build(out, rk, sp, n);
out:
	sqlite3_finalize(q);
	free(sp);
	free(rk);
	return rc;
}

int profdb__step_index_build(struct profdb__step_index **out, const int64_t *rk, const struct profdb__step_span *sp,
                             size_t n)
{
	struct profdb__step_index *ix = calloc(1, sizeof *ix);
	*out = NULL;
	if (!ix)
		return SQLITE_NOMEM;
	for (size_t i = 0; i < n;) {
		size_t j = i;
		struct rank_ix *r;
		while (j < n && rk[j] == rk[i])
			j++;
		r = realloc(ix->ranks, (ix->nranks + 1) * sizeof *r);
		if (!r) {
			index_free(ix);
			return SQLITE_NOMEM;
		}
		ix->ranks = r;
		r += ix->nranks++;
		memset(r, 0, sizeof *r);
		r->rank = rk[i];
		if (profdb__step_segs_build(&r->s, sp + i, j - i) != 0) {
			index_free(ix);
			return SQLITE_NOMEM;
		}
		i = j;
	}
	*out = ix;
	return SQLITE_OK;
}

void profdb__step_index_free(struct profdb__step_index *ix)
{
	index_free(ix);
}

int profdb__step_index_register(sqlite3 *db, int64_t run_id)
{
	struct profdb__step_index *ix = NULL;
	int rc = profdb__step_index_load(db, &ix, run_id);
	if (rc != SQLITE_OK)
		return rc;
	/* freed by SQLite from here on, even on failure */
	return sqlite3_create_function_v2(db, FN_NAME, 2, SQLITE_UTF8 | SQLITE_DETERMINISTIC, ix, step_at, NULL,
	                                  NULL, index_free);
}

void profdb__step_index_unregister(sqlite3 *db)
{
	sqlite3_create_function_v2(db, FN_NAME, 2, SQLITE_UTF8, NULL, NULL, NULL, NULL, NULL);
}

/*
 * step_stats.c - kernel_step_stat at commit: per rank, step, name and kind,
 * the calls and total of the run's kernels, three ways that write the same
 * rows in the same order through one INSERT.
 *
 * From the sums made as the rows were sent (step_sums.c) where they are
 * valid; else an ordered scan of the run's kernels one step at a time,
 * which chains each step's cells through the names name_stats.c holds;
 * and, when it dropped them (too many names), a GROUP BY in SQLite's
 * sorter, which spills to temporary files past its cache.
 */
#include <stdint.h>
#include <stdlib.h>

#include "internal.h"
#include "name_stats.h"
#include "step_sums.h"
#include "banned.h"

/* One (name, kind) of the step being summed. */
struct step_cell {
	int64_t name_id, base_id, calls, total;
	int kind;
	size_t next;               /* the name's next cell (another kind) + 1, 0 = none */
};

int profdb__step_stat_put(sqlite3_stmt *ins, int64_t run_id, int64_t rank, int64_t step, int64_t name_id,
                          int64_t base_id, int kind, int64_t calls, int64_t total_ns)
{
	int rc;
	sqlite3_bind_int64(ins, 1, run_id);
	sqlite3_bind_int64(ins, 2, rank);
	if (step == PROFDB_NULL)
		sqlite3_bind_null(ins, 3);
	else
		sqlite3_bind_int64(ins, 3, step);
	sqlite3_bind_int64(ins, 4, name_id);
	sqlite3_bind_int64(ins, 5, base_id);
	sqlite3_bind_int64(ins, 6, kind);
	sqlite3_bind_int64(ins, 7, calls);
	sqlite3_bind_int64(ins, 8, total_ns);
	rc = sqlite3_step(ins);
	sqlite3_reset(ins);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static int flush_step(sqlite3_stmt *ins, int64_t run_id, int64_t rank, int step_null, int64_t step,
                      const struct step_cell *c, size_t n)
{
	int rc = SQLITE_OK;
	for (size_t i = 0; i < n && rc == SQLITE_OK; i++)
		rc = profdb__step_stat_put(ins, run_id, rank, step_null ? PROFDB_NULL : step, c[i].name_id,
		                           c[i].base_id, c[i].kind, c[i].calls, c[i].total);
	return rc;
}

/* The step's cells: c[0..n) in first-seen order (the rows' order). */
struct step_cells {
	struct step_cell *c;       /* owned */
	size_t n, cap;
};

/*
 * The cell of (name_id, kind) in the step, added when new; NULL when out
 * of memory.  A name held by name_stats.c keeps the index of its first
 * cell, valid when it is below n and names that cell (a sparse set:
 * nothing to clear between steps).  A linear search over the step's cells was quadratic in a step's
 * names: one step of 200 000 names took 10 s, 1 M never finished.
 */
static struct step_cell *step_cell_of(struct profdb__name_stats *ns, struct step_cells *sc, int64_t name_id,
                                      int kind, int64_t base_id)
{
	size_t *first = profdb__name_stats_cell(ns, name_id);
	size_t i = SIZE_MAX, prev = SIZE_MAX;
	if (first && *first < sc->n && sc->c[*first].name_id == name_id)
		for (i = *first; sc->c[i].kind != kind && sc->c[i].next; i = sc->c[i].next - 1)
			;
	else if (!first) /* not counted by name_stats_add: search (never met) */
		for (i = 0; i < sc->n && (sc->c[i].name_id != name_id || sc->c[i].kind != kind); i++)
			;
	if (i < sc->n && sc->c[i].name_id == name_id && sc->c[i].kind == kind)
		return &sc->c[i];
	if (first && i < sc->n)
		prev = i; /* the name's last cell: chain the new kind to it */
	if (sc->n == sc->cap) {
		size_t nc = sc->cap ? sc->cap * 2 : 64;
		struct step_cell *t = realloc(sc->c, nc * sizeof *t);
		if (!t)
			return NULL;
		sc->c = t;
		sc->cap = nc;
	}
	sc->c[sc->n] = (struct step_cell){ name_id, base_id, 0, 0, kind, 0 };
	if (prev != SIZE_MAX)
		sc->c[prev].next = sc->n + 1;
	else if (first)
		*first = sc->n;
	return &sc->c[sc->n++];
}

/* One kernel_step_stat row; both ways of computing them (held names, or
 * the spilled SQL pass below) write through it. */
static const char step_stat_insert[] = "INSERT INTO kernel_step_stat(run_id, rank, step, name_id,"
	" base_id, kind, calls, total_ns) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)";

/* sel, its ?1 bound to run_id, and the INSERT above; an SQLite result code. */
static int prepare_scan(sqlite3 *db, const char *sql, int64_t run_id, sqlite3_stmt **sel, sqlite3_stmt **ins)
{
	int rc = sqlite3_prepare_v2(db, sql, -1, sel, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(db, step_stat_insert, -1, ins, NULL);
	if (rc == SQLITE_OK)
		sqlite3_bind_int64(*sel, 1, run_id);
	return rc;
}

/*
 * kernel_step_stat: the run's kernels in (rank, step) order, which the
 * kernel_run_step index gives without sorting, summed per name and kind
 * one step at a time.  Steps are final only at commit (Kineto kernels are
 * placed by their launches then).  A GROUP BY over all four keys built a
 * temporary B-tree of every group of the run instead: memory grew with
 * the run.  Here it is the names of one step.
 */
static int write_step_stats(struct profdb__name_stats *ns, sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	struct step_cells sc = { 0 };
	int64_t rank = 0, step = 0;
	int first = 1, step_null = 0, rc;

	rc = prepare_scan(db, "SELECT rank, step, name_id, base_id, kind, dur_ns FROM kernel INDEXED BY kernel_run_step"
	                  " WHERE run_id = ?1 ORDER BY rank, step", run_id, &sel, &ins);
	if (rc != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		int64_t r = sqlite3_column_int64(sel, 0), s = sqlite3_column_int64(sel, 1);
		int sn = sqlite3_column_type(sel, 1) == SQLITE_NULL;
		struct step_cell *c;

		if (first || r != rank || sn != step_null || (!sn && s != step)) {
			if (!first && (rc = flush_step(ins, run_id, rank, step_null, step, sc.c, sc.n)) != SQLITE_OK)
				goto out;
			rank = r;
			step = s;
			step_null = sn;
			first = 0;
			sc.n = 0;
		}
		c = step_cell_of(ns, &sc, sqlite3_column_int64(sel, 2), sqlite3_column_int(sel, 4),
		                 sqlite3_column_int64(sel, 3));
		if (!c) {
			rc = SQLITE_NOMEM;
			goto out;
		}
		c->calls++;
		c->total += sqlite3_column_int64(sel, 5);
		if (sqlite3_column_int64(sel, 3) < c->base_id)
			c->base_id = sqlite3_column_int64(sel, 3);
	}
	if (rc != SQLITE_DONE)
		goto out;
	rc = first ? SQLITE_OK : flush_step(ins, run_id, rank, step_null, step, sc.c, sc.n);
out:
	free(sc.c);
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return rc;
}

/*
 * Spilled, kernel_step_stat: the same cells as write_step_stats, by SQL:
 * each step's (name, kind) groups in the order of their first row, which
 * is write_step_stats's first-seen order (the index gives a step's rows by
 * id).  SQLite's sorter spills to temporary files past its cache.
 */
static int write_step_stats_sql(sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *sel = NULL, *ins = NULL;
	int rc = prepare_scan(db, "SELECT rank, step, name_id, min(base_id), kind, count(*), sum(dur_ns),"
	                      " min(id) AS first FROM kernel WHERE run_id = ?1"
	                      " GROUP BY rank, step, name_id, kind ORDER BY rank, step, first", run_id, &sel, &ins);
	if (rc != SQLITE_OK)
		goto out;
	while ((rc = sqlite3_step(sel)) == SQLITE_ROW) {
		struct step_cell c = { sqlite3_column_int64(sel, 2), sqlite3_column_int64(sel, 3),
		                       sqlite3_column_int64(sel, 5), sqlite3_column_int64(sel, 6),
		                       sqlite3_column_int(sel, 4), 0 };
		rc = flush_step(ins, run_id, sqlite3_column_int64(sel, 0), sqlite3_column_type(sel, 1) == SQLITE_NULL,
		                sqlite3_column_int64(sel, 1), &c, 1);
		if (rc != SQLITE_OK)
			goto out;
	}
	rc = rc == SQLITE_DONE ? SQLITE_OK : rc;
out:
	sqlite3_finalize(sel);
	sqlite3_finalize(ins);
	return rc;
}

/* kernel_step_stat from the sums made as the rows were sent. */
static int write_step_sums(struct profdb__step_sums *sums, sqlite3 *db, int64_t run_id)
{
	sqlite3_stmt *ins = NULL;
	int rc = sqlite3_prepare_v2(db, step_stat_insert, -1, &ins, NULL);
	if (rc == SQLITE_OK)
		rc = profdb__step_sums_write(sums, ins, run_id);
	sqlite3_finalize(ins);
	return rc;
}

int profdb__step_stats_write(struct profdb__name_stats *ns, struct profdb__step_sums *sums, sqlite3 *db,
                             int64_t run_id, int spilled)
{
	if (spilled)
		return write_step_stats_sql(db, run_id);
	return profdb__step_sums_valid(sums) ? write_step_sums(sums, db, run_id) : write_step_stats(ns, db, run_id);
}

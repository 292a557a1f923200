/*
 * query_ranks.c - profdb ranks: stragglers.  Per step (or per run with
 * by_rank), each rank's compute, communication and exposed communication
 * come from the breakdown (query_breakdown.c, one definition); across the
 * ranks of a step:
 *
 *  - the straggler rule (doc/analyses.md "ranks", the rule `collectives --by
 *    step` names its waited_on_rank by): ranks meet at collectives, so
 *    the rank the others wait on is the one that arrives last and spends
 *    the least time in them.  Over the step's ranks with communication,
 *    wait = communication - the least communication (time spent waiting
 *    for that rank); it is the straggler ("yes", lowest rank on a tie)
 *    when the median wait, median - least, is at least threshold % of
 *    the median communication (default 10: a smaller gap is noise, not a
 *    rank to chase); the others "no"; empty below 2 ranks with
 *    communication, and for a rank without any;
 *  - compute_z = the robust (modified) z-score of compute, 0.6745 (x -
 *    median) / MAD (Iglewicz and Hoaglin); when MAD is 0, (x - median) /
 *    (1.253314 * mean absolute deviation); 0 when both are 0; NULL with
 *    fewer than 3 ranks: descriptive only (a tiny MAD makes a 6 % gap
 *    z 3.8, and more compute can hide under a collective);
 *  - top_kernel, top_excess: the kernel name whose total in the step on
 *    this rank exceeds the median over the step's ranks (0 where a rank did
 *    not run it) by the most: what explains a slow rank.  NULL when no name
 *    exceeds its median.
 *
 * Nothing grows with the answer (issue 20): the breakdown's rows go to a
 * temporary table as the scan finds them, are read back a step at a time
 * (run, step, rank order), each step's ranks held while they fit in the
 * hold budget (result.h) and read again by ordered SQL passes past it; the
 * rows go to the spool with their top kernel (merged as they pass) and
 * come back in the breakdown's (run, rank, step) order.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "query.h"
#include "result.h"
#include "util/stats.h"
#include "banned.h"

enum { R_RUN_ID, R_RUN, R_RANK, R_STEP, R_COMPUTE, R_COMM, R_EXPOSED, R_WAIT, R_MEDIAN, R_Z, R_STRAGGLER,
       R_TOP, R_EXCESS, R_COUNT };
static const char *const names[R_COUNT] = {
	"run_id", "run", "rank", "step", "compute", "communication", "exposed_communication", "wait",
	"compute_median", "compute_z", "straggler", "top_kernel", "top_excess"
};
static const enum profdb_coltype types[R_COUNT] = {
	PROFDB_COL_INT, PROFDB_COL_TEXT, PROFDB_COL_INT, PROFDB_COL_INT, PROFDB_COL_NS, PROFDB_COL_NS,
	PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_NS, PROFDB_COL_REAL, PROFDB_COL_TEXT, PROFDB_COL_TEXT,
	PROFDB_COL_NS
};

/* The breakdown's rows, keyed in the order the steps are read (a NULL
 * step is INT64_MIN: first, as SQL orders NULL). */
static const char in_sql[] =
	"CREATE TEMP TABLE profdb_ranks_in (run_id INTEGER, step INTEGER, rank INTEGER, compute INTEGER,"
	" comm INTEGER, exposed INTEGER, PRIMARY KEY (run_id, step, rank)) WITHOUT ROWID";
static const char in_drop[] = "DROP TABLE IF EXISTS temp.profdb_ranks_in";

/* One rank of the step being read. */
struct rrow {
	int64_t rank, compute, comm, exposed;
};

/* A step's figures across its ranks. */
struct gstat {
	size_t n, ncomm;           /* ranks; those with communication */
	int64_t least, late;       /* the least communication (> 0), its lowest rank */
	double med, mad, mean_ad;
	double comm_med;           /* median communication of the ncomm ranks */
};

struct ranks {
	profdb *db;
	const struct profdb_ranks_query *q;
	struct profdb__spool sp;   /* the answer's rows */
	sqlite3_stmt *ins;         /* a breakdown row into profdb_ranks_in */
	int bc[6];                 /* the breakdown's run_id, rank, step, compute, comm, exposed */
	sqlite3_stmt *top;         /* the top kernels, (run, step, rank) order */
	int top_rc;                /* top's last step: SQLITE_ROW while it has one */
	sqlite3_stmt *run_q;       /* run name by id */
	int64_t named;             /* the run of run_name */
	char *run_name;
	struct rrow *g;            /* the step's ranks, while they fit */
	size_t ng, gcap, gmax;
	double *v, *d;             /* scratch of gcap */
};

static int find_col(const profdb_result *r, const char *name)
{
	for (size_t i = 0; i < profdb_result_ncols(r); i++)
		if (strcmp(profdb_result_colname(r, i), name) == 0)
			return (int)i;
	return -1;
}

/* A breakdown row into profdb_ranks_in (profdb__query_breakdown_each). */
static int put_in(void *arg, const profdb_result *b)
{
	static const char *const want[6] = { "run_id", "rank", "step", "compute", "communication",
	                                     "exposed_communication" };
	struct ranks *c = arg;
	int rc;

	if (c->bc[0] < 0)
		for (int k = 0; k < 6; k++)
			if ((c->bc[k] = find_col(b, want[k])) < 0)
				return profdb__error(c->db, PROFDB_ERROR, "ranks: breakdown has no '%s' column", want[k]);
	sqlite3_bind_int64(c->ins, 1, profdb_result_int(b, 0, (size_t)c->bc[0]));
	sqlite3_bind_int64(c->ins, 2, profdb_result_isnull(b, 0, (size_t)c->bc[2]) ? INT64_MIN :
	                   profdb_result_int(b, 0, (size_t)c->bc[2]));
	sqlite3_bind_int64(c->ins, 3, profdb_result_int(b, 0, (size_t)c->bc[1]));
	for (int k = 3; k < 6; k++)
		sqlite3_bind_int64(c->ins, k + 1, profdb_result_int(b, 0, (size_t)c->bc[k]));
	rc = sqlite3_step(c->ins) == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(c->db, "cannot keep the rows");
	sqlite3_reset(c->ins);
	return rc;
}

/* The median of n sorted values whose middle two (positions lo =
 * floor((n - 1) / 2) and lo + 1) are a and b: the arithmetic of
 * profdb__percentile_sorted(v, n, 50), so held and read steps agree. */
static double median_at(double a, double b, size_t n)
{
	double h = (double)(n - 1) * 50.0 / 100.0;
	double frac = h - floor(h);
	return n == 1 ? a : a + frac * (b - a);
}

static size_t median_lo(size_t n)
{
	return (size_t)floor((double)(n - 1) * 50.0 / 100.0);
}

/* The figures of the held step c->g[0..ng). */
static void held_stats(struct ranks *c, struct gstat *s)
{
	size_t n = c->ng, m = 0;
	s->n = n;
	s->least = INT64_MAX;
	s->late = -1;
	s->mean_ad = 0;
	/* (the ranks come in rank order: the first least is the lowest rank) */
	for (size_t k = 0; k < n; k++) {
		if (c->g[k].comm > 0) {
			c->d[m++] = (double)c->g[k].comm;
			if (c->g[k].comm < s->least)
				s->least = c->g[k].comm, s->late = c->g[k].rank;
		}
	}
	s->ncomm = m;
	profdb__sort_doubles(c->d, m);
	s->comm_med = m ? profdb__percentile_sorted(c->d, m, 50) : 0;
	for (size_t k = 0; k < n; k++)
		c->v[k] = (double)c->g[k].compute;
	profdb__sort_doubles(c->v, n);
	s->med = profdb__percentile_sorted(c->v, n, 50);
	/* (summed in the order of the sorted computes, as the read steps do) */
	for (size_t k = 0; k < n; k++) {
		c->d[k] = fabs(c->v[k] - s->med);
		s->mean_ad += c->d[k] / (double)n;
	}
	profdb__sort_doubles(c->d, n);
	s->mad = profdb__percentile_sorted(c->d, n, 50);
}

/* Prepare sql (a constant) bound to the step (run, step). */
static int step_stmt(struct ranks *c, const char *sql, sqlite3_stmt **st, int64_t run, int64_t step)
{
	if (sqlite3_prepare_v2(c->db->sql, sql, -1, st, NULL) != SQLITE_OK)
		return profdb__sqlerror(c->db, "cannot read the ranks");
	sqlite3_bind_int64(*st, 1, run);
	sqlite3_bind_int64(*st, 2, step);
	return PROFDB_OK;
}

/* The middle two values of st's one column (sorted, n rows) into *a, *b. */
static int middle(struct ranks *c, sqlite3_stmt *st, size_t n, double *a, double *b)
{
	size_t lo = median_lo(n), i = 0;
	int rc;
	*a = *b = 0;
	while (i <= lo + 1 && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (i == lo)
			*a = sqlite3_column_double(st, 0);
		if (i == lo + 1)
			*b = sqlite3_column_double(st, 0);
		i++;
	}
	if (i <= lo)
		return profdb__sqlerror(c->db, "cannot read the ranks");
	return PROFDB_OK;
}

/* The communication figures of a step too large to hold (held_stats'). */
static int read_comm_stats(struct ranks *c, int64_t run, int64_t step, struct gstat *s)
{
	sqlite3_stmt *st = NULL;
	double a, b;
	int rc;

	s->ncomm = 0;
	s->least = 0;
	s->late = -1;
	s->comm_med = 0;
	if ((rc = step_stmt(c, "SELECT rank, comm, (SELECT count(*) FROM temp.profdb_ranks_in WHERE run_id = ?1"
	                    " AND step = ?2 AND comm > 0) FROM temp.profdb_ranks_in WHERE run_id = ?1 AND step = ?2"
	                    " AND comm > 0 ORDER BY comm, rank LIMIT 1", &st, run, step)) != PROFDB_OK)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW) {
		s->late = sqlite3_column_int64(st, 0);
		s->least = sqlite3_column_int64(st, 1);
		s->ncomm = (size_t)sqlite3_column_int64(st, 2);
	}
	sqlite3_finalize(st);
	if (s->ncomm == 0)
		return PROFDB_OK;
	if ((rc = step_stmt(c, "SELECT comm FROM temp.profdb_ranks_in WHERE run_id = ?1 AND step = ?2"
	                    " AND comm > 0 ORDER BY comm", &st, run, step)) != PROFDB_OK)
		return rc;
	if ((rc = middle(c, st, s->ncomm, &a, &b)) == PROFDB_OK)
		s->comm_med = median_at(a, b, s->ncomm);
	sqlite3_finalize(st);
	return rc;
}

/* The figures of a step too large to hold, by ordered passes over its
 * rows in profdb_ranks_in (SQLite sorts them, on disk past its cache). */
static int read_stats(struct ranks *c, int64_t run, int64_t step, struct gstat *s)
{
	sqlite3_stmt *st = NULL;
	double a, b;
	int rc;

	s->n = 0;
	if ((rc = read_comm_stats(c, run, step, s)) != PROFDB_OK ||
	    (rc = step_stmt(c, "SELECT count(*) FROM temp.profdb_ranks_in WHERE run_id = ?1"
	                    " AND step = ?2", &st, run, step)) != PROFDB_OK)
		return rc;
	if (sqlite3_step(st) == SQLITE_ROW)
		s->n = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (s->n == 0)
		return profdb__sqlerror(c->db, "cannot read the ranks");
	s->mean_ad = 0;
	if ((rc = step_stmt(c, "SELECT compute FROM temp.profdb_ranks_in WHERE run_id = ?1 AND step = ?2"
	                    " ORDER BY compute", &st, run, step)) != PROFDB_OK)
		return rc;
	if ((rc = middle(c, st, s->n, &a, &b)) == PROFDB_OK) {
		s->med = median_at(a, b, s->n);
		sqlite3_reset(st);
		while ((rc = sqlite3_step(st)) == SQLITE_ROW)
			s->mean_ad += fabs((double)sqlite3_column_int64(st, 0) - s->med) / (double)s->n;
		rc = rc == SQLITE_DONE ? PROFDB_OK : profdb__sqlerror(c->db, "cannot read the ranks");
	}
	sqlite3_finalize(st);
	/* |compute - median| as the held step computes it: a double difference */
	if (rc != PROFDB_OK || (rc = step_stmt(c, "SELECT abs(compute - ?3) AS d FROM temp.profdb_ranks_in"
	                                       " WHERE run_id = ?1 AND step = ?2 ORDER BY d", &st, run, step)) != PROFDB_OK)
		return rc;
	sqlite3_bind_double(st, 3, s->med);
	if ((rc = middle(c, st, s->n, &a, &b)) == PROFDB_OK)
		s->mad = median_at(a, b, s->n);
	sqlite3_finalize(st);
	return rc;
}

/* Order of (run, step, rank) against the top statement's current row. */
static int top_cmp(const struct ranks *c, int64_t run, int64_t step, int64_t rank)
{
	int64_t a[3] = { run, step, rank }, b[3];
	b[0] = sqlite3_column_int64(c->top, 0);
	b[1] = sqlite3_column_type(c->top, 2) == SQLITE_NULL ? INT64_MIN : sqlite3_column_int64(c->top, 2);
	b[2] = sqlite3_column_int64(c->top, 1);
	for (int k = 0; k < 3; k++)
		if (a[k] != b[k])
			return a[k] < b[k] ? -1 : 1;
	return 0;
}

/* The run's name into the spool's row (looked up when the run changes). */
static int set_run(struct ranks *c, int64_t run)
{
	if (run != c->named || !c->run_name) {
		const char *name;
		free(c->run_name);
		sqlite3_reset(c->run_q);
		sqlite3_bind_int64(c->run_q, 1, run);
		name = sqlite3_step(c->run_q) == SQLITE_ROW ? (const char *)sqlite3_column_text(c->run_q, 0) : "";
		c->run_name = strdup(name ? name : "");
		sqlite3_reset(c->run_q);
		c->named = run;
		if (!c->run_name)
			return PROFDB_ERROR;
	}
	return profdb__result_set_text(c->sp.row, 0, R_RUN, c->run_name);
}

/* Whether rank is the step's straggler: the rank the others wait on, by
 * at least pct % of the median communication. */
static int straggler(const struct gstat *s, int64_t rank, double pct)
{
	return rank == s->late && (s->comm_med - (double)s->least) * 100.0 >= pct * s->comm_med;
}

/* One rank's row of step (run, step) to the spool, its top kernel merged. */
static int emit(struct ranks *c, int64_t run, int64_t step, const struct rrow *w, const struct gstat *s)
{
	profdb_result *r = c->sp.row;
	int rc = set_run(c, run) | profdb__result_set_int(r, 0, R_RUN_ID, run) |
	         profdb__result_set_int(r, 0, R_RANK, w->rank) | profdb__result_set_int(r, 0, R_COMPUTE, w->compute) |
	         profdb__result_set_int(r, 0, R_COMM, w->comm) | profdb__result_set_int(r, 0, R_EXPOSED, w->exposed) |
	         profdb__result_set_double(r, 0, R_MEDIAN, s->med);
	if (step != INT64_MIN)
		rc |= profdb__result_set_int(r, 0, R_STEP, step);
	if (w->comm > 0)
		rc |= profdb__result_set_int(r, 0, R_WAIT, w->comm - s->least);
	if (w->comm > 0 && s->ncomm >= 2)
		rc |= profdb__result_set_text(r, 0, R_STRAGGLER, straggler(s, w->rank, c->q->threshold) ? "yes" : "no");
	if (s->n >= 3) {
		double x = (double)w->compute - s->med;
		double z = s->mad > 0 ? 0.6745 * x / s->mad : s->mean_ad > 0 ? x / (1.253314 * s->mean_ad) : 0.0;
		rc |= profdb__result_set_double(r, 0, R_Z, z);
	}
	while (c->top_rc == SQLITE_ROW && top_cmp(c, run, step, w->rank) > 0)
		c->top_rc = sqlite3_step(c->top);
	if (c->top_rc == SQLITE_ROW && top_cmp(c, run, step, w->rank) == 0)
		rc |= profdb__result_set_text(r, 0, R_TOP, (const char *)sqlite3_column_text(c->top, 3)) |
		      profdb__result_set_double(r, 0, R_EXCESS, sqlite3_column_double(c->top, 4));
	if (rc)
		return profdb__error(c->db, PROFDB_ERROR, "out of memory");
	if (c->top_rc != SQLITE_ROW && c->top_rc != SQLITE_DONE)
		return profdb__sqlerror(c->db, "cannot find the kernels behind the ranks");
	return profdb__spool_put(&c->sp);
}

/* The step (run, step) read: its figures, then its rows in rank order. */
static int close_step(struct ranks *c, int64_t run, int64_t step, int big)
{
	struct gstat s;
	sqlite3_stmt *st = NULL;
	int rc = PROFDB_OK;

	if (!big) {
		held_stats(c, &s);
		for (size_t k = 0; k < c->ng && rc == PROFDB_OK; k++)
			rc = emit(c, run, step, &c->g[k], &s);
		c->ng = 0;
		return rc;
	}
	if ((rc = read_stats(c, run, step, &s)) != PROFDB_OK ||
	    (rc = step_stmt(c, "SELECT rank, compute, comm, exposed FROM temp.profdb_ranks_in"
	                    " WHERE run_id = ?1 AND step = ?2 ORDER BY rank", &st, run, step)) != PROFDB_OK)
		return rc;
	while (rc == PROFDB_OK && sqlite3_step(st) == SQLITE_ROW) {
		struct rrow w = { sqlite3_column_int64(st, 0), sqlite3_column_int64(st, 1),
		                  sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3) };
		rc = emit(c, run, step, &w, &s);
	}
	sqlite3_finalize(st);
	c->ng = 0;
	return rc;
}

/* Hold rank w of the current step; 0 when the step no longer fits. */
static int hold(struct ranks *c, const struct rrow *w)
{
	if (c->ng == c->gmax)
		return 0;
	if (c->ng == c->gcap) {
		size_t ncap = c->gcap ? 2 * c->gcap : 64;
		struct rrow *g;
		double *v, *d;
		ncap = ncap < c->gmax ? ncap : c->gmax;
		if (!(g = realloc(c->g, ncap * sizeof *g)))
			return -1;
		c->g = g;
		if (!(v = realloc(c->v, ncap * sizeof *v)))
			return -1;
		c->v = v;
		if (!(d = realloc(c->d, ncap * sizeof *d)))
			return -1;
		c->d = d;
		c->gcap = ncap;
	}
	c->g[c->ng++] = *w;
	return 1;
}
/* Whether every run has kernel_step_stat (run.name_stats, schema 003):
 * then the per (rank, step, name) totals are read from it, a row per name
 * and step instead of one per kernel (2.4 M kernels: 137 k rows). */
static int have_step_stats(profdb *db)
{
	sqlite3_stmt *st = NULL;
	int yes = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT NOT EXISTS (SELECT 1 FROM run WHERE name_stats = 0)", -1, &st,
	                       NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW)
		yes = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return yes;
}

/* Per (run, step, rank), in that order (the order the steps are read in):
 * the name with the largest excess over its median across the step's ranks. */
static void top_sql(struct profdb__qbuf *b, const struct profdb_ranks_query *q, int stats)
{
	/* steps are never negative (ProfilerStep#N, Step Id): -1 stands for
	 * NULL so the joins below are equalities SQLite can index */
	profdb__qbuf_addf(b, "WITH kt AS MATERIALIZED (SELECT k.run_id, k.rank, %s AS step, k.name_id, sum(k.%s) AS tot"
	          " FROM %s k WHERE 1", q->by_rank ? "-1" : "coalesce(k.step, -1)", stats ? "total_ns" : "dur_ns",
	          stats ? "kernel_step_stat" : "kernel");
	profdb__qfilter_where(b, &q->filter, "k", QF_KERNEL, 0);
	profdb__qbuf_add(b, " GROUP BY 1, 2, 3, 4),\n"
	         /* materialized and grouped: SQLite then indexes them for the joins
	          * (DISTINCT CTEs were joined by nested scans, minutes on 1500 steps) */
	         " rk AS MATERIALIZED (SELECT run_id, rank, step FROM kt GROUP BY 1, 2, 3),\n"
	         " nm AS MATERIALIZED (SELECT run_id, step, name_id FROM kt GROUP BY 1, 2, 3),\n"
	         " fl AS (SELECT rk.run_id, rk.rank, rk.step, nm.name_id, coalesce(kt.tot, 0) AS tot FROM nm"
	         "  JOIN rk ON rk.run_id = nm.run_id AND rk.step = nm.step LEFT JOIN kt ON kt.run_id = rk.run_id"
	         "  AND kt.rank = rk.rank AND kt.step = rk.step AND kt.name_id = nm.name_id),\n"
	         " md AS (SELECT run_id, step, name_id, median(tot) AS m FROM fl GROUP BY 1, 2, 3),\n"
	         " ex AS (SELECT fl.run_id, fl.rank, fl.step, s.value AS name, fl.tot - md.m AS excess,"
	         "  row_number() OVER (PARTITION BY fl.run_id, fl.rank, fl.step ORDER BY fl.tot - md.m DESC,"
	         "  s.value) AS rn FROM fl JOIN md ON md.run_id = fl.run_id AND md.step = fl.step"
	         "  AND md.name_id = fl.name_id JOIN str s ON s.id = fl.name_id)\n"
	         "SELECT run_id, rank, nullif(step, -1), name, excess FROM ex WHERE rn = 1 AND excess > 0"
	         " ORDER BY run_id, step, rank");
}


/* Every step of profdb_ranks_in in (run, step) order: held while its ranks
 * fit in the hold budget, else read again (close_step). */
static int steps(struct ranks *c)
{
	sqlite3_stmt *st = NULL;
	int64_t run = 0, step = 0;
	int rc, have = 0, big = 0, err = PROFDB_OK;

	c->gmax = (size_t)(c->db->limits.hold_bytes / (sizeof(struct rrow) + 2 * sizeof(double)));
	if (sqlite3_prepare_v2(c->db->sql, "SELECT run_id, step, rank, compute, comm, exposed FROM"
	                       " temp.profdb_ranks_in ORDER BY run_id, step, rank", -1, &st, NULL) != SQLITE_OK)
		return profdb__sqlerror(c->db, "cannot read the ranks");
	while (err == PROFDB_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		int64_t krun = sqlite3_column_int64(st, 0), kstep = sqlite3_column_int64(st, 1);
		struct rrow w = { sqlite3_column_int64(st, 2), sqlite3_column_int64(st, 3),
		                  sqlite3_column_int64(st, 4), sqlite3_column_int64(st, 5) };
		int h;
		if (have && (krun != run || kstep != step)) {
			err = close_step(c, run, step, big);
			big = 0;
		}
		run = krun, step = kstep, have = 1;
		if (err != PROFDB_OK || big)
			continue;
		if ((h = hold(c, &w)) < 0)
			err = profdb__error(c->db, PROFDB_ERROR, "out of memory");
		big = h == 0;
	}
	if (err == PROFDB_OK && rc != SQLITE_DONE)
		err = profdb__sqlerror(c->db, "cannot read the ranks");
	sqlite3_finalize(st);
	if (err == PROFDB_OK && have)
		err = close_step(c, run, step, big);
	return err;
}

/* Open the spool, the input table and the statements the steps use. */
static int ranks_open(struct ranks *c)
{
	struct profdb__qbuf b = { 0 };
	int rc;

	if ((rc = profdb__spool_open(c->db, &c->sp, names, types, R_COUNT)) != PROFDB_OK)
		return rc;
	if (sqlite3_exec(c->db->sql, in_drop, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(c->db->sql, in_sql, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c->db->sql, "INSERT INTO temp.profdb_ranks_in VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	                       -1, &c->ins, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(c->db->sql, "SELECT name FROM run WHERE id = ?1", -1, &c->run_q, NULL) != SQLITE_OK)
		return profdb__sqlerror(c->db, "cannot keep the rows");
	top_sql(&b, c->q, have_step_stats(c->db));
	rc = profdb__query_prepare(c->db, &b, &c->top, "cannot find the kernels behind the ranks");
	profdb__qbuf_free(&b);
	if (rc == PROFDB_OK)
		profdb__qfilter_bind(c->top, &c->q->filter);
	return rc;
}

static void ranks_close(struct ranks *c)
{
	sqlite3_finalize(c->ins);
	sqlite3_finalize(c->top);
	sqlite3_finalize(c->run_q);
	sqlite3_exec(c->db->sql, in_drop, NULL, NULL, NULL);
	profdb__spool_close(&c->sp);
	free(c->g);
	free(c->v);
	free(c->d);
	free(c->run_name);
}

/* A narrow terminal keeps compute, communication and the straggler's z
 * (format_table.c). */
static const char *const headline_cols[] = {
	"compute", "communication", "compute_z", "straggler", NULL
};
static const char *const hide_cols[] = {
	"top_excess", "compute_median", "wait", "exposed_communication", NULL
};

int profdb_query_ranks(profdb *db, profdb_result **out, const struct profdb_ranks_query *q)
{
	struct profdb_breakdown_query bq;
	struct ranks c;
	uint64_t drop = ((uint64_t)1 << R_RUN_ID) | (q->by_rank ? (uint64_t)1 << R_STEP : 0) |
	                (profdb__qfilter_run_column(&q->filter) ? 0 : (uint64_t)1 << R_RUN);
	int rc;

	*out = NULL;
	if (!(q->threshold > 0))
		return profdb__error(db, PROFDB_EUSAGE, "ranks: the threshold must be above 0");
	memset(&c, 0, sizeof c);
	c.db = db;
	c.q = q;
	c.bc[0] = -1;
	bq.filter = q->filter;
	bq.by_rank = q->by_rank;
	if ((rc = ranks_open(&c)) == PROFDB_OK &&
	    (rc = profdb__query_breakdown_each(db, &bq, put_in, &c)) == PROFDB_OK) {
		c.top_rc = sqlite3_step(c.top);
		rc = steps(&c);
	}
	if (rc == PROFDB_OK) {
		/* done with the input (its pages go before the answer is read) */
		sqlite3_finalize(c.top);
		c.top = NULL;
		sqlite3_exec(db->sql, in_drop, NULL, NULL, NULL);
		rc = profdb__spool_answer(&c.sp, out, drop, "run_id, rank, step");
	}
	ranks_close(&c);
	profdb__result_priority(*out, headline_cols, hide_cols);
	return rc;
}

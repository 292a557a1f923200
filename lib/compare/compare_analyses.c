/*
 * compare_analyses.c - profdb diff --table breakdown|collectives: an
 * analysis table compared between the base and new runs with the verdict
 * rules of the kernel diff (profdb__compare_decide: threshold, --min-delta, the
 * two-sample test).  The lines are whole-run figures of a comparison, so
 * every renderer of a comparison shows them.
 *
 * breakdown: one line per figure; its samples are the figure of each
 * (rank, step) row of profdb breakdown on that side (rows outside every
 * step left out when the side has steps), the value their mean.
 * collectives: one line per collective and process group; its samples are
 * each call's bus bandwidth, the value the bytes-weighted bus bandwidth of
 * the table (bus bytes / time); on Ascend each call's transit bandwidth
 * (communication.json bytes / their transit time), likewise.
 * memory: per device (and Ascend component) its peak_allocated_bytes and
 * peak_reserved_bytes of profdb memory; samples each rank's peak, the
 * value their highest.  doc/analyses.md "diff of the analysis tables".
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "query/analyses.h"
#include "banned.h"

/* A breakdown figure: result column, whether it is a percentage, and
 * whether a larger value is better (only compute's share is). */
static const struct {
	const char *col;
	int pct, higher_better;
} figures[] = {
	{ "span", 0, 0 }, { "compute", 0, 0 }, { "communication", 0, 0 }, { "memory", 0, 0 },
	{ "exposed_communication", 0, 0 }, { "idle", 0, 0 }, { "compute_pct", 1, 1 },
	{ "communication_pct", 1, 0 }, { "memory_pct", 1, 0 }, { "exposed_communication_pct", 1, 0 },
	{ "idle_pct", 1, 0 },
};
#define NFIG (sizeof figures / sizeof figures[0])

/* The filter of one side: its runs, the rank and steps of o. */
static struct profdb_filter side_filter(const struct profdb_diff_opts *o, int si)
{
	struct profdb_filter f = o->filter;
	f.runs = si ? o->new_runs : o->base_runs;
	f.nruns = si ? o->nnew : o->nbase;
	f.min_total_ns = 0;
	return f;
}

static size_t col_of(const profdb_result *r, const char *name)
{
	for (size_t i = 0; i < profdb_result_ncols(r); i++)
		if (strcmp(profdb_result_colname(r, i), name) == 0)
			return i;
	return (size_t)-1;
}

static double mean(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

/* Decide line l (base and next set); a larger value is the regression
 * unless higher_better. */
static void decide(profdb_comparison *c, struct profdb__cmp_line *l, const double *x, size_t nx,
                   const double *y, size_t ny, int higher_better)
{
	profdb__compare_decide(c, l, x, nx, y, ny, nx > 0, ny > 0, !l->is_count, NAN);
	profdb__compare_note_short(c, l);
	if (higher_better && l->verdict == PROFDB_VERDICT_REGRESSION)
		l->verdict = PROFDB_VERDICT_IMPROVEMENT;
	else if (higher_better && l->verdict == PROFDB_VERDICT_IMPROVEMENT)
		l->verdict = PROFDB_VERDICT_REGRESSION;
}

/* The next whole-run line of c, keyed key (copied); NULL out of memory. */
static struct profdb__cmp_line *new_line(profdb_comparison *c, const char *key, int is_count)
{
	struct profdb__cmp_line *l = &c->runs[c->nruns];
	if (!(l->key = strdup(key)))
		return NULL;
	c->nruns++;
	l->is_count = is_count;
	l->base_calls = l->next_calls = NAN;
	return l;
}

/* Column col of r's step rows (all rows when none has a step) into x. */
static size_t samples(const profdb_result *r, size_t col, double *x)
{
	size_t step = col_of(r, "step"), n = 0, nr = profdb_result_nrows(r);
	int stepped = 0;
	for (size_t i = 0; i < nr && step != (size_t)-1; i++)
		stepped |= !profdb_result_isnull(r, i, step);
	for (size_t i = 0; i < nr; i++)
		if (!(stepped && profdb_result_isnull(r, i, step)) && !profdb_result_isnull(r, i, col))
			x[n++] = profdb_result_double(r, i, col);
	return n;
}

static int breakdown_lines(profdb *db, profdb_comparison *c, const struct profdb_diff_opts *o)
{
	profdb_result *r[2] = { NULL, NULL };
	double *x[2] = { NULL, NULL };
	int rc = PROFDB_OK;

	for (int si = 0; si < 2 && rc == PROFDB_OK; si++) {
		struct profdb_breakdown_query q = PROFDB_BREAKDOWN_QUERY_INIT;
		q.filter = side_filter(o, si);
		if ((rc = profdb_query_breakdown(db, &r[si], &q)) != PROFDB_OK)
			break;
		if (!(x[si] = malloc((profdb_result_nrows(r[si]) + 1) * sizeof *x[si])))
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	if (rc == PROFDB_OK && !(c->runs = calloc(NFIG, sizeof *c->runs)))
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t f = 0; f < NFIG && rc == PROFDB_OK; f++) {
		size_t n[2];
		struct profdb__cmp_line *l;
		for (int si = 0; si < 2; si++) {
			size_t col = col_of(r[si], figures[f].col);
			n[si] = col == (size_t)-1 ? 0 : samples(r[si], col, x[si]);
		}
		if (!n[0] && !n[1])
			continue; /* neither side has device activities */
		if (!(l = new_line(c, figures[f].col, figures[f].pct))) {
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			break;
		}
		/* the sample arrays are reused per figure: decide before the next */
		l->base = mean(x[0], n[0]);
		l->next = mean(x[1], n[1]);
		decide(c, l, x[0], n[0], x[1], n[1], figures[f].higher_better);
	}
	for (int si = 0; si < 2; si++) {
		profdb_result_free(r[si]);
		free(x[si]);
	}
	return rc;
}

/* One collective and process group on one side: rows [lo, hi) of r. */
struct cgroup {
	const char *key;           /* borrowed from r */
	size_t lo, hi;
};

/* Split r (ordered by key) into groups; *out is the caller's. */
static int groups_of(const profdb_result *r, struct cgroup **out, size_t *n)
{
	size_t nr = profdb_result_nrows(r);
	*n = 0;
	if (!(*out = calloc(nr + 1, sizeof **out)))
		return PROFDB_ERROR;
	for (size_t i = 0; i < nr; i++) {
		const char *k = profdb_result_text(r, i, 0);
		if (*n == 0 || strcmp((*out)[*n - 1].key, k) != 0)
			(*out)[(*n)++] = (struct cgroup){ k, i, i };
		(*out)[*n - 1].hi = i + 1;
	}
	return PROFDB_OK;
}

/* Per-call bus bandwidths of group g into x, and its bus bytes / time. */
static size_t call_samples(const profdb_result *r, const struct cgroup *g, double *x, double *value)
{
	double bus = 0, dur = 0;
	size_t n = 0;
	for (size_t i = g ? g->lo : 0; g && i < g->hi; i++) {
		double d = profdb_result_double(r, i, 1), b = profdb_result_double(r, i, 3);
		bus += b;
		dur += d;
		if (d > 0)
			x[n++] = b / d; /* bytes per ns = GB/s */
	}
	*value = dur > 0 ? bus / dur : NAN;
	return n;
}

/* Add the line of the groups a (base) and b (new), either NULL. */
static int collective_line(profdb_comparison *c, const profdb_result *const *r, const struct cgroup *a,
                           const struct cgroup *b, double *const *x)
{
	char key[512];
	size_t na, nb;
	struct profdb__cmp_line *l;
	/* "<collective> <group> busbw_gbps" (or transit_gbps: Ascend) */
	snprintf(key, sizeof key, "%s", a ? a->key : b->key);
	if (!(l = new_line(c, key, 1)))
		return PROFDB_ERROR;
	na = call_samples(r[0], a, x[0], &l->base);
	nb = call_samples(r[1], b, x[1], &l->next);
	decide(c, l, x[0], na, x[1], nb, 1);
	return PROFDB_OK;
}

static int collectives_lines(profdb *db, profdb_comparison *c, const struct profdb_diff_opts *o)
{
	profdb_result *r[2] = { NULL, NULL };
	struct cgroup *g[2] = { NULL, NULL };
	size_t ng[2] = { 0, 0 }, i = 0, j = 0;
	double *x[2] = { NULL, NULL };
	int rc = PROFDB_OK;

	for (int si = 0; si < 2 && rc == PROFDB_OK; si++) {
		struct profdb_filter f = side_filter(o, si);
		if ((rc = profdb__collective_calls(db, &r[si], &f)) != PROFDB_OK)
			break;
		if (groups_of(r[si], &g[si], &ng[si]) != PROFDB_OK ||
		    !(x[si] = malloc((profdb_result_nrows(r[si]) + 1) * sizeof *x[si])))
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	if (rc == PROFDB_OK && !(c->runs = calloc(ng[0] + ng[1] + 1, sizeof *c->runs)))
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	/* both lists are sorted by key: a merge pairs them */
	while (rc == PROFDB_OK && (i < ng[0] || j < ng[1])) {
		int d = i == ng[0] ? 1 : j == ng[1] ? -1 : strcmp(g[0][i].key, g[1][j].key);
		if (collective_line(c, (const profdb_result *const *)r, d <= 0 ? &g[0][i] : NULL,
		                    d >= 0 ? &g[1][j] : NULL, x) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		i += d <= 0;
		j += d >= 0;
	}
	for (int si = 0; si < 2; si++) {
		profdb_result_free(r[si]);
		free(g[si]);
		free(x[si]);
	}
	return rc;
}

/* The key of memory row i of r: "<device_type>:<device_id>[ <component>] <figure>". */
static void memory_key(const profdb_result *r, size_t i, const char *figure, char *out, size_t size)
{
	size_t id = col_of(r, "device_id"), comp = col_of(r, "component");
	snprintf(out, size, "%s:%s%s%s %s", profdb_result_text(r, i, col_of(r, "device_type")),
	         profdb_result_isnull(r, i, id) ? "" : profdb_result_text(r, i, id),
	         profdb_result_isnull(r, i, comp) ? "" : " ", profdb_result_isnull(r, i, comp) ? "" :
	         profdb_result_text(r, i, comp), figure);
}

/* The samples of key on one side: the figure of each row (rank, run) of
 * that device. */
static size_t memory_samples(const profdb_result *r, const char *key, const char *figure, double *x)
{
	size_t n = 0, col = col_of(r, figure);
	char k[256];
	for (size_t i = 0; i < profdb_result_nrows(r); i++) {
		memory_key(r, i, figure, k, sizeof k);
		if (strcmp(k, key) == 0 && !profdb_result_isnull(r, i, col))
			x[n++] = profdb_result_double(r, i, col);
	}
	return n;
}

static double highest(const double *x, size_t n)
{
	double m = NAN;
	for (size_t i = 0; i < n; i++)
		if (i == 0 || x[i] > m)
			m = x[i];
	return m;
}

/* One line per device key and figure of either side, in the order first seen. */
static int memory_line(profdb_comparison *c, profdb_result *const *r, const char *key, const char *figure,
                       double *const *x)
{
	size_t n[2];
	struct profdb__cmp_line *l;
	for (size_t j = 0; j < c->nruns; j++)
		if (strcmp(c->runs[j].key, key) == 0)
			return PROFDB_OK;
	for (int si = 0; si < 2; si++)
		n[si] = memory_samples(r[si], key, figure, x[si]);
	if (!n[0] && !n[1])
		return PROFDB_OK; /* unknown on both sides (Ascend APP's allocated) */
	if (!(l = new_line(c, key, 1)))
		return PROFDB_ERROR;
	l->base = highest(x[0], n[0]);
	l->next = highest(x[1], n[1]);
	decide(c, l, x[0], n[0], x[1], n[1], 0);
	/* the allocator's peak is one deterministic figure of the program, not
	 * a noisy sample: past the threshold it is the verdict, without a test */
	if (l->verdict == PROFDB_VERDICT_INCONCLUSIVE && n[0] && n[1] &&
	    fabs(l->delta) > c->threshold * fabs(l->base)) {
		l->verdict = l->delta > 0 ? PROFDB_VERDICT_REGRESSION : PROFDB_VERDICT_IMPROVEMENT;
		snprintf(l->why, sizeof l->why, "peak %+.2f%% past the %g%% threshold (a peak needs no test)",
		         isnan(l->rel) ? 0.0 : 100 * l->rel, 100 * c->threshold);
	}
	return PROFDB_OK;
}

static int memory_lines(profdb *db, profdb_comparison *c, const struct profdb_diff_opts *o)
{
	static const char *const figs[] = { "peak_allocated_bytes", "peak_reserved_bytes" };
	profdb_result *r[2] = { NULL, NULL };
	double *x[2] = { NULL, NULL };
	size_t rows = 0;
	char key[256];
	int rc = PROFDB_OK;

	for (int si = 0; si < 2 && rc == PROFDB_OK; si++) {
		struct profdb_memory_query q = PROFDB_MEMORY_QUERY_INIT;
		q.filter = side_filter(o, si);
		if ((rc = profdb_query_memory(db, &r[si], &q)) != PROFDB_OK)
			break;
		rows += profdb_result_nrows(r[si]);
		if (!(x[si] = malloc((profdb_result_nrows(r[si]) + 1) * sizeof *x[si])))
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	if (rc == PROFDB_OK && !(c->runs = calloc(2 * rows + 1, sizeof *c->runs)))
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	for (int si = 0; si < 2 && rc == PROFDB_OK; si++)
		for (size_t i = 0; i < profdb_result_nrows(r[si]) && rc == PROFDB_OK; i++)
			for (size_t f = 0; f < 2 && rc == PROFDB_OK; f++) {
				memory_key(r[si], i, figs[f], key, sizeof key);
				if (memory_line(c, r, key, figs[f], x) != PROFDB_OK)
					rc = profdb__error(db, PROFDB_ERROR, "out of memory");
			}
	/* each side's curve, which the html report draws */
	for (int si = 0; si < 2 && rc == PROFDB_OK; si++) {
		struct profdb_memory_query q = PROFDB_MEMORY_QUERY_INIT;
		q.filter = side_filter(o, si);
		q.timeline = 1;
		rc = profdb_query_memory(db, &c->mem_timeline[si], &q);
	}
	for (int si = 0; si < 2; si++) {
		profdb_result_free(r[si]);
		free(x[si]);
	}
	return rc;
}

int profdb_compare_analysis(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o,
                            const char *table)
{
	profdb_comparison *c;
	int rc, bd = table && strcmp(table, "breakdown") == 0, mem = table && strcmp(table, "memory") == 0;

	*out = NULL;
	if ((rc = profdb__version_check(db, o->version, PROFDB_DIFF_OPTS_VERSION, "profdb_diff_opts")) != PROFDB_OK)
		return rc;
	if (!bd && !mem && !(table && strcmp(table, "collectives") == 0))
		return profdb__error(db, PROFDB_EUSAGE, "unknown table '%s' (breakdown, collectives, memory)",
		                     table ? table : "");
	if (o->filter.name_glob || o->filter.kind)
		return profdb__error(db, PROFDB_EUSAGE, "--table %s compares a whole table: no --name or --kind",
		                     table);
	/* the analyses read every table */
	struct profdb__rel rel;
	if ((rc = profdb__source_prepare(db, PROFDB__NEED_ROWS, NULL, &rel)) != PROFDB_OK)
		return rc;
	if (!(c = profdb__comparison_new(db, o, table, o->base_runs, o->nbase, o->new_runs, o->nnew)))
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	rc = bd ? breakdown_lines(db, c, o) : mem ? memory_lines(db, c, o) : collectives_lines(db, c, o);
	if (rc == PROFDB_OK && profdb__compare_warn_short(c) != PROFDB_OK)
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc != PROFDB_OK) {
		profdb_comparison_free(c);
		return rc;
	}
	*out = c;
	return PROFDB_OK;
}

/*
 * compare.c - profdb_compare: pair the kernels of base runs and new runs by
 * a grouping key, build each kernel's per-step samples on both sides, and
 * decide a verdict from the threshold and a two-sample test.  Reads the
 * store tables directly (kernel, step, op, run, str) with bound parameters
 * only; renders nothing (report_*.c do).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "result.h"
#include "banned.h"

/* ---------------------------------------------------------------- keys */

/* The parts a grouping key may have, and their SQL (fixed text only). */
static const struct {
	const char *name;
	const char *sql;
} key_parts[] = {
	{ "name", "n.value" },
	{ "base-name", "b.value" },
	{ "type", "coalesce(t.value, '')" },
	{ "shape", "coalesce(s.value, '')" },
	{ "kind", "kd.name" },
	{ "core", "coalesce(c.value, '')" },
};
#define NPARTS (sizeof key_parts / sizeof key_parts[0])

/* Build "<part> || ' | ' || <part>" from a spec like "type+shape". */
static int key_sql(profdb *db, const char *by, char *out, size_t cap)
{
	const char *p = by;
	size_t len = 0;
	out[0] = '\0';
	while (*p) {
		size_t n = strcspn(p, "+,"), i;
		for (i = 0; i < NPARTS; i++)
			if (strlen(key_parts[i].name) == n && strncmp(p, key_parts[i].name, n) == 0)
				break;
		if (i == NPARTS)
			return profdb__error(db, PROFDB_EUSAGE, "unknown key '%.*s' in '%s'"
			                     " (name, base-name, type, shape, kind, core)", (int)n, p, by);
		len += (size_t)snprintf(out + len, len < cap ? cap - len : 0, "%s%s",
		                        len ? " || ' | ' || " : "", key_parts[i].sql);
		if (len >= cap)
			return profdb__error(db, PROFDB_EUSAGE, "key '%s' is too long", by);
		p += n;
		if (*p)
			p++;
	}
	if (!len)
		return profdb__error(db, PROFDB_EUSAGE, "empty grouping key");
	return PROFDB_OK;
}

struct key_acc {
	char *text;                /* owned key text */
	uint64_t hash;
	double *samp[2];           /* per side: N samples (ns per step or per repeat) */
	int64_t total[2];          /* sum of dur_ns per side */
	int64_t calls[2];          /* kernels per side */
};

/* Per side: its runs and where each run's samples start. */
struct side {
	struct profdb_cmp_run *runs;
	size_t n;
	size_t *offset;            /* first sample of each run */
	int64_t **steps;           /* sorted step numbers per run; NULL: no steps */
	size_t *nsteps;
	size_t N;                  /* samples on this side */
	double repeats;            /* sum over runs of the per-repeat divisor */
	double *divisor;           /* per run: repeats, or selected steps */
	double *count;             /* N: kernels per sample */
	double *cpu;               /* N: host self time per sample */
	int64_t cpu_total, ops;
	double *span;              /* step spans (max over ranks), nspan of them */
	size_t nspan, capspan;
	int64_t kernels;           /* kernel rows on this side */
};

struct state {
	profdb *db;
	const struct profdb_diff_opts *o;
	struct side side[2];
	struct key_acc *slots;     /* open addressing, power of two */
	size_t nslots, nkeys;
};

static uint64_t fnv(const char *s)
{
	uint64_t h = 1469598103934665603ull;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ull;
	return h;
}

static int grow_keys(struct state *s)
{
	size_t n = s->nslots ? s->nslots * 2 : 256;
	struct key_acc *t = calloc(n, sizeof *t);
	if (!t)
		return PROFDB_ERROR;
	for (size_t i = 0; i < s->nslots; i++) {
		size_t j;
		if (!s->slots[i].text)
			continue;
		for (j = s->slots[i].hash & (n - 1); t[j].text; j = (j + 1) & (n - 1))
			;
		t[j] = s->slots[i];
	}
	free(s->slots);
	s->slots = t;
	s->nslots = n;
	return PROFDB_OK;
}

/* Find or add key text; NULL when out of memory. */
static struct key_acc *key_get(struct state *s, const char *text)
{
	uint64_t h = fnv(text);
	size_t j;
	struct key_acc *k;
	if ((s->nkeys + 1) * 2 > s->nslots && grow_keys(s) != PROFDB_OK)
		return NULL;
	for (j = h & (s->nslots - 1); s->slots[j].text; j = (j + 1) & (s->nslots - 1))
		if (s->slots[j].hash == h && strcmp(s->slots[j].text, text) == 0)
			return &s->slots[j];
	k = &s->slots[j];
	k->text = strdup(text);
	k->samp[0] = calloc(s->side[0].N ? s->side[0].N : 1, sizeof(double));
	k->samp[1] = calloc(s->side[1].N ? s->side[1].N : 1, sizeof(double));
	if (!k->text || !k->samp[0] || !k->samp[1]) {
		free(k->text);
		free(k->samp[0]);
		free(k->samp[1]);
		memset(k, 0, sizeof *k);
		return NULL;
	}
	k->hash = h;
	s->nkeys++;
	return k;
}

/* ---------------------------------------------------------------- runs */

static void bind_filter(sqlite3_stmt *q, const struct profdb_filter *f)
{
	if (f->rank != PROFDB_NULL)
		sqlite3_bind_int64(q, 2, f->rank);
	if (f->step_lo != PROFDB_NULL)
		sqlite3_bind_int64(q, 3, f->step_lo);
	if (f->step_hi != PROFDB_NULL)
		sqlite3_bind_int64(q, 4, f->step_hi);
}

#define RANK_STEP_WHERE " AND (?2 IS NULL OR rank = ?2) AND (?3 IS NULL OR step >= ?3)" \
                        " AND (?4 IS NULL OR step <= ?4)"

static int load_run(profdb *db, struct profdb_cmp_run *r, const char *name)
{
	sqlite3_stmt *q = NULL;
	int rc;
	r->name = name;
	if (sqlite3_prepare_v2(db->sql, "SELECT id, repeats, ranks, format FROM run WHERE name = ?1",
	                       -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up runs");
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	rc = sqlite3_step(q);
	if (rc == SQLITE_ROW) {
		r->id = sqlite3_column_int64(q, 0);
		r->repeats = sqlite3_column_int64(q, 1);
		r->ranks = sqlite3_column_int64(q, 2);
		r->format = strdup((const char *)sqlite3_column_text(q, 3));
		rc = r->format ? PROFDB_OK : profdb__error(db, PROFDB_ERROR, "out of memory");
	} else if (rc == SQLITE_DONE) {
		rc = profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s'", name);
	} else {
		rc = profdb__sqlerror(db, "cannot look up run '%s'", name);
	}
	sqlite3_finalize(q);
	return rc;
}

/*
 * The steps a run's samples are taken over: the stored steps (selected by
 * rank and step range), but only when some kernel of the run carries a
 * step; otherwise the run has one sample.
 */
static int load_steps(profdb *db, const struct profdb_filter *f, int64_t run_id,
                      int64_t **out, size_t *n)
{
	sqlite3_stmt *q = NULL;
	size_t cap = 0;
	int rc;
	*out = NULL;
	*n = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT DISTINCT step FROM step WHERE run_id = ?1"
	    RANK_STEP_WHERE " AND EXISTS (SELECT 1 FROM kernel k WHERE k.run_id = ?1"
	    " AND k.step IS NOT NULL) ORDER BY step", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read steps");
	sqlite3_bind_int64(q, 1, run_id);
	bind_filter(q, f);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (*n == cap) {
			int64_t *t = realloc(*out, (cap = cap ? cap * 2 : 64) * sizeof *t);
			if (!t) {
				sqlite3_finalize(q);
				return profdb__error(db, PROFDB_ERROR, "out of memory");
			}
			*out = t;
		}
		(*out)[(*n)++] = sqlite3_column_int64(q, 0);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(db, "cannot read steps");
	return PROFDB_OK;
}

/* Index of step in the sorted steps, or -1. */
static long step_index(const int64_t *steps, size_t n, int64_t step)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (steps[mid] < step)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && steps[lo] == step ? (long)lo : -1;
}

static int side_init(profdb *db, const struct profdb_filter *f, struct side *sd,
                     const char *const *names, size_t n)
{
	int rc;
	sd->n = n;
	sd->runs = calloc(n, sizeof *sd->runs);
	sd->offset = calloc(n, sizeof *sd->offset);
	sd->steps = calloc(n, sizeof *sd->steps);
	sd->nsteps = calloc(n, sizeof *sd->nsteps);
	sd->divisor = calloc(n, sizeof *sd->divisor);
	if (!sd->runs || !sd->offset || !sd->steps || !sd->nsteps || !sd->divisor)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if ((rc = load_run(db, &sd->runs[i], names[i])) != PROFDB_OK)
			return rc;
		if ((rc = load_steps(db, f, sd->runs[i].id, &sd->steps[i], &sd->nsteps[i])) != PROFDB_OK)
			return rc;
		sd->offset[i] = sd->N;
		sd->N += sd->nsteps[i] ? sd->nsteps[i] : 1;
		/* with a step range, a repeat is one selected step */
		sd->divisor[i] = (f->step_lo != PROFDB_NULL || f->step_hi != PROFDB_NULL) && sd->nsteps[i] ?
		                 (double)sd->nsteps[i] : (double)sd->runs[i].repeats;
		sd->repeats += sd->divisor[i];
	}
	sd->count = calloc(sd->N ? sd->N : 1, sizeof *sd->count);
	sd->cpu = calloc(sd->N ? sd->N : 1, sizeof *sd->cpu);
	if (!sd->count || !sd->cpu)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	return PROFDB_OK;
}

static void side_free(struct side *sd)
{
	for (size_t i = 0; i < sd->n; i++) {
		if (sd->runs)
			free(sd->runs[i].format);
		if (sd->steps)
			free(sd->steps[i]);
	}
	free(sd->runs);
	free(sd->offset);
	free(sd->steps);
	free(sd->nsteps);
	free(sd->divisor);
	free(sd->count);
	free(sd->cpu);
	free(sd->span);
}

/* ---------------------------------------------------------------- samples */

/* Add the kernels of run i of side s into the key accumulators. */
static int read_kernels(struct state *s, int si, size_t i, const char *keyexpr)
{
	struct side *sd = &s->side[si];
	const struct profdb_filter *f = &s->o->filter;
	sqlite3_stmt *q = NULL;
	char sql[2048];
	int rc;

	snprintf(sql, sizeof sql, "SELECT %s, k.step, sum(k.dur_ns), count(*) FROM kernel k"
	         " JOIN str n ON n.id = k.name_id JOIN str b ON b.id = k.base_id"
	         " JOIN kind kd ON kd.id = k.kind LEFT JOIN str t ON t.id = k.type_id"
	         " LEFT JOIN str s ON s.id = k.in_shapes_id LEFT JOIN str c ON c.id = k.core_id"
	         " WHERE k.run_id = ?1 AND (?2 IS NULL OR k.rank = ?2)"
	         " AND (?3 IS NULL OR k.step >= ?3) AND (?4 IS NULL OR k.step <= ?4)"
	         " AND (?5 IS NULL OR n.value GLOB ?5) AND (?6 IS NULL OR kd.name = ?6)"
	         " GROUP BY 1, 2", keyexpr);
	if (sqlite3_prepare_v2(s->db->sql, sql, -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read kernels");
	sqlite3_bind_int64(q, 1, sd->runs[i].id);
	bind_filter(q, f);
	if (f->name_glob)
		sqlite3_bind_text(q, 5, f->name_glob, -1, SQLITE_STATIC);
	if (f->kind)
		sqlite3_bind_text(q, 6, f->kind, -1, SQLITE_STATIC);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		const char *text = (const char *)sqlite3_column_text(q, 0);
		int64_t sum = sqlite3_column_int64(q, 2), cnt = sqlite3_column_int64(q, 3);
		struct key_acc *k = key_get(s, text ? text : "");
		size_t at = sd->offset[i];
		if (!k) {
			sqlite3_finalize(q);
			return profdb__error(s->db, PROFDB_ERROR, "out of memory");
		}
		k->total[si] += sum;
		k->calls[si] += cnt;
		sd->kernels += cnt;
		if (!sd->nsteps[i]) {
			k->samp[si][at] += (double)sum / sd->divisor[i];
			sd->count[at] += (double)cnt / sd->divisor[i];
			continue;
		}
		long j = sqlite3_column_type(q, 1) == SQLITE_NULL ? -1 :
		         step_index(sd->steps[i], sd->nsteps[i], sqlite3_column_int64(q, 1));
		if (j < 0) {
			/* outside every step (no launch inside a step span): spread
			 * evenly over the run's steps, so the mean of the samples
			 * stays the per-repeat time and the CI brackets it */
			for (size_t t = 0; t < sd->nsteps[i]; t++) {
				k->samp[si][at + t] += (double)sum / (double)sd->nsteps[i];
				sd->count[at + t] += (double)cnt / (double)sd->nsteps[i];
			}
			continue;
		}
		k->samp[si][at + (size_t)j] += (double)sum;
		sd->count[at + (size_t)j] += (double)cnt;
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(s->db, "cannot read kernels of '%s'", sd->runs[i].name);
	return PROFDB_OK;
}

/* Host self time per step, and the step spans, of run i of side si. */
static int read_host(struct state *s, int si, size_t i)
{
	struct side *sd = &s->side[si];
	sqlite3_stmt *q = NULL;
	int rc;

	if (sqlite3_prepare_v2(s->db->sql, "SELECT step, sum(coalesce(self_ns, 0)), count(*) FROM op"
	    " WHERE run_id = ?1" RANK_STEP_WHERE " GROUP BY step", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read host operators");
	sqlite3_bind_int64(q, 1, sd->runs[i].id);
	bind_filter(q, &s->o->filter);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		int64_t sum = sqlite3_column_int64(q, 1);
		size_t at = sd->offset[i];
		sd->cpu_total += sum;
		sd->ops += sqlite3_column_int64(q, 2);
		if (!sd->nsteps[i]) {
			sd->cpu[at] += (double)sum / sd->divisor[i];
		} else {
			long j = sqlite3_column_type(q, 0) == SQLITE_NULL ? -1 :
			         step_index(sd->steps[i], sd->nsteps[i], sqlite3_column_int64(q, 0));
			if (j >= 0)
				sd->cpu[at + (size_t)j] += (double)sum;
			else /* outside every step: spread, as for kernels */
				for (size_t t = 0; t < sd->nsteps[i]; t++)
					sd->cpu[at + t] += (double)sum / (double)sd->nsteps[i];
		}
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(s->db, "cannot read host operators");
	/* a step lasts as long as its slowest rank */
	if (sqlite3_prepare_v2(s->db->sql, "SELECT step, max(end_ns - start_ns) FROM step"
	    " WHERE run_id = ?1" RANK_STEP_WHERE " AND start_ns IS NOT NULL AND end_ns IS NOT NULL"
	    " GROUP BY step ORDER BY step", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(s->db, "cannot read steps");
	sqlite3_bind_int64(q, 1, sd->runs[i].id);
	bind_filter(q, &s->o->filter);
	while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
		if (sd->nspan == sd->capspan) {
			double *t = realloc(sd->span, (sd->capspan = sd->capspan ? sd->capspan * 2 : 64) * sizeof *t);
			if (!t) {
				sqlite3_finalize(q);
				return profdb__error(s->db, PROFDB_ERROR, "out of memory");
			}
			sd->span = t;
		}
		sd->span[sd->nspan++] = (double)sqlite3_column_int64(q, 1);
	}
	sqlite3_finalize(q);
	if (rc != SQLITE_DONE)
		return profdb__sqlerror(s->db, "cannot read steps");
	return PROFDB_OK;
}

/* ---------------------------------------------------------------- verdicts */

static double mean(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

/* Microseconds or a count, for the one-line reasons. */
static void fmt_amount(char *out, size_t cap, double v, int is_count)
{
	if (is_count)
		snprintf(out, cap, "%.3g", v);
	else
		snprintf(out, cap, "%.3g us", v / 1000);
}

/*
 * Decide line's verdict from its samples.  base/next, presence and the
 * per-repeat values are already set.  use_min_delta: apply --min-delta
 * (times only).
 */
static void decide(const struct profdb_comparison *c, struct profdb_cmp_line *l,
                   const double *x, size_t nx, const double *y, size_t ny,
                   int in_base, int in_next, int use_min_delta)
{
	char amt[32];
	double absd, minp;
	int enough;

	l->nbase = nx;
	l->nnext = ny;
	l->delta = l->next - l->base;
	l->rel = l->base != 0 ? l->delta / l->base : NAN;
	l->p = NAN;
	l->ci_lo = l->ci_hi = NAN;
	if (!in_base || !in_next) {
		l->verdict = in_base ? PROFDB_VERDICT_GONE : PROFDB_VERDICT_NEW;
		snprintf(l->why, sizeof l->why, "only in the %s runs", in_base ? "base" : "new");
		return;
	}
	l->p = c->test == PROFDB_TEST_WELCH ? profdb__welch(x, nx, y, ny, NULL, NULL) :
	       profdb__mwu(x, nx, y, ny, NULL);
	if (c->resamples > 0)
		profdb__bootstrap_rel(x, nx, y, ny, c->resamples, c->ci_level,
		                      c->seed ^ fnv(l->key), &l->ci_lo, &l->ci_hi);
	absd = fabs(l->delta);
	if (absd <= c->threshold * fabs(l->base)) {
		l->verdict = PROFDB_VERDICT_UNCHANGED;
		snprintf(l->why, sizeof l->why, "change %+.2f%% within the %g%% threshold",
		         isnan(l->rel) ? 0.0 : 100 * l->rel, 100 * c->threshold);
		return;
	}
	if (use_min_delta && absd < (double)c->min_delta_ns) {
		l->verdict = PROFDB_VERDICT_UNCHANGED;
		fmt_amount(amt, sizeof amt, absd, 0);
		snprintf(l->why, sizeof l->why, "change of %s below --min-delta", amt);
		return;
	}
	minp = c->test == PROFDB_TEST_MWU ? profdb__mwu_min_p(nx, ny) : 0;
	enough = nx >= 3 && ny >= 3 && minp <= c->alpha;
	if (!enough || isnan(l->p)) {
		l->verdict = PROFDB_VERDICT_INCONCLUSIVE;
		if (nx < 3 || ny < 3)
			snprintf(l->why, sizeof l->why, "too few samples (%zu base, %zu new; %s needs 3 each)",
			         nx, ny, profdb__test_name(c->test));
		else
			snprintf(l->why, sizeof l->why, "too few samples (%zu base, %zu new): smallest"
			         " %s p is %.3g > alpha %g", nx, ny, profdb__test_name(c->test), minp, c->alpha);
		return;
	}
	if (l->p < c->alpha) {
		l->verdict = l->delta > 0 ? PROFDB_VERDICT_REGRESSION : PROFDB_VERDICT_IMPROVEMENT;
		snprintf(l->why, sizeof l->why, "%+.2f%%, %s p = %.3g < %g",
		         isnan(l->rel) ? 0.0 : 100 * l->rel, profdb__test_name(c->test), l->p, c->alpha);
		return;
	}
	l->verdict = PROFDB_VERDICT_INCONCLUSIVE;
	snprintf(l->why, sizeof l->why, "%+.2f%% but %s p = %.3g >= %g: could be noise",
	         isnan(l->rel) ? 0.0 : 100 * l->rel, profdb__test_name(c->test), l->p, c->alpha);
}

static int cmp_lines(const void *a, const void *b)
{
	const struct profdb_cmp_line *x = a, *y = b;
	double dx = fabs(x->delta), dy = fabs(y->delta);
	if (dx != dy)
		return dx > dy ? -1 : 1;
	return strcmp(x->key, y->key);
}

static int build_kernels(struct state *s, profdb_comparison *c)
{
	size_t n = 0;
	const struct side *b = &s->side[0], *nw = &s->side[1];
	c->kernels = calloc(s->nkeys ? s->nkeys : 1, sizeof *c->kernels);
	if (!c->kernels)
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < s->nslots; i++) {
		struct key_acc *k = &s->slots[i];
		struct profdb_cmp_line *l;
		if (!k->text)
			continue;
		/* --min-total: drop kernels small on both sides */
		if (k->total[0] < s->o->filter.min_total_ns && k->total[1] < s->o->filter.min_total_ns)
			continue;
		l = &c->kernels[n++];
		l->key = k->text;
		k->text = NULL; /* moved */
		l->base = (double)k->total[0] / b->repeats;
		l->next = (double)k->total[1] / nw->repeats;
		l->base_calls = (double)k->calls[0] / b->repeats;
		l->next_calls = (double)k->calls[1] / nw->repeats;
		decide(c, l, k->samp[0], b->N, k->samp[1], nw->N, k->calls[0] > 0, k->calls[1] > 0, 1);
	}
	c->nkernels = n;
	qsort(c->kernels, n, sizeof *c->kernels, cmp_lines);
	return PROFDB_OK;
}

static int add_run_line(struct state *s, profdb_comparison *c, const char *name, int is_count,
                        double base, double next, const double *x, size_t nx,
                        const double *y, size_t ny, int in_base, int in_next)
{
	struct profdb_cmp_line *l = &c->runs[c->nruns];
	if (!in_base && !in_next)
		return PROFDB_OK; /* e.g. no host operators recorded: no line */
	l->key = strdup(name);
	if (!l->key)
		return profdb__error(s->db, PROFDB_ERROR, "out of memory");
	c->nruns++;
	l->is_count = is_count;
	l->base = base;
	l->next = next;
	l->base_calls = l->next_calls = NAN;
	decide(c, l, x, nx, y, ny, in_base, in_next, !is_count);
	if (!in_base || !in_next) {
		l->verdict = PROFDB_VERDICT_INCONCLUSIVE;
		snprintf(l->why, sizeof l->why, "no data in the %s runs", in_base ? "new" : "base");
	}
	return PROFDB_OK;
}

/* Per-repeat device time, kernel count, host CPU time and step time. */
static int build_runs(struct state *s, profdb_comparison *c)
{
	struct side *b = &s->side[0], *nw = &s->side[1];
	double *dev[2] = { NULL, NULL }, tot[2] = { 0, 0 };
	int rc = PROFDB_OK;

	c->runs = calloc(4, sizeof *c->runs);
	dev[0] = calloc(b->N ? b->N : 1, sizeof(double));
	dev[1] = calloc(nw->N ? nw->N : 1, sizeof(double));
	if (!c->runs || !dev[0] || !dev[1]) {
		rc = profdb__error(s->db, PROFDB_ERROR, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < s->nslots; i++)
		for (int si = 0; si < 2; si++)
			if (s->slots[i].samp[si]) {
				for (size_t j = 0; j < s->side[si].N; j++)
					dev[si][j] += s->slots[i].samp[si][j];
				tot[si] += (double)s->slots[i].total[si];
			}
	if ((rc = add_run_line(s, c, "device time", 0, tot[0] / b->repeats, tot[1] / nw->repeats,
	                       dev[0], b->N, dev[1], nw->N, b->kernels > 0, nw->kernels > 0)) != PROFDB_OK)
		goto out;
	if ((rc = add_run_line(s, c, "kernel count", 1, (double)b->kernels / b->repeats,
	                       (double)nw->kernels / nw->repeats, b->count, b->N, nw->count, nw->N,
	                       b->kernels > 0, nw->kernels > 0)) != PROFDB_OK)
		goto out;
	if ((rc = add_run_line(s, c, "host CPU time", 0,
	                       b->ops ? (double)b->cpu_total / b->repeats : NAN,
	                       nw->ops ? (double)nw->cpu_total / nw->repeats : NAN,
	                       b->cpu, b->N, nw->cpu, nw->N, b->ops > 0, nw->ops > 0)) != PROFDB_OK)
		goto out;
	rc = add_run_line(s, c, "step time", 0, b->nspan ? mean(b->span, b->nspan) : NAN,
	                  nw->nspan ? mean(nw->span, nw->nspan) : NAN, b->span, b->nspan,
	                  nw->span, nw->nspan, b->nspan > 0, nw->nspan > 0);
out:
	free(dev[0]);
	free(dev[1]);
	return rc;
}

/* ---------------------------------------------------------------- public */

void profdb_diff_opts_init(struct profdb_diff_opts *o)
{
	memset(o, 0, sizeof *o);
	profdb_filter_init(&o->filter);
	o->threshold = 0.05;
	o->test = PROFDB_TEST_MWU;
	o->alpha = 0.01;
	o->resamples = 2000;
	o->seed = 20240601;
	o->ci_level = 0.95;
}

int profdb_diff_test_parse(const char *s)
{
	return strcmp(s, "mwu") == 0 ? PROFDB_TEST_MWU : strcmp(s, "welch") == 0 ? PROFDB_TEST_WELCH : -1;
}

const char *profdb__test_name(enum profdb_diff_test t)
{
	return t == PROFDB_TEST_WELCH ? "welch" : "mwu";
}

const char *profdb__test_title(enum profdb_diff_test t)
{
	return t == PROFDB_TEST_WELCH ? "Welch's t-test" : "Mann-Whitney U test";
}

const char *profdb__verdict_name(enum profdb_verdict v)
{
	switch (v) {
	case PROFDB_VERDICT_REGRESSION: return "regression";
	case PROFDB_VERDICT_IMPROVEMENT: return "improvement";
	case PROFDB_VERDICT_INCONCLUSIVE: return "inconclusive";
	case PROFDB_VERDICT_NEW: return "new";
	case PROFDB_VERDICT_GONE: return "gone";
	default: return "unchanged";
	}
}

int profdb__compare_warn(profdb_comparison *c, const char *fmt, ...)
{
	char buf[512], **w;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof buf, fmt, ap);
	va_end(ap);
	w = realloc(c->warnings, (c->nwarnings + 1) * sizeof *w);
	if (!w)
		return PROFDB_ERROR;
	c->warnings = w;
	if (!(w[c->nwarnings] = strdup(buf)))
		return PROFDB_ERROR;
	c->nwarnings++;
	return PROFDB_OK;
}

static char **copy_names(const char *const *names, size_t n)
{
	char **out = calloc(n ? n : 1, sizeof *out);
	if (!out)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!(out[i] = strdup(names[i]))) {
			while (i--)
				free(out[i]);
			free(out);
			return NULL;
		}
	return out;
}

static int check_opts(profdb *db, const struct profdb_diff_opts *o)
{
	if (!o->nbase || !o->nnew)
		return profdb__error(db, PROFDB_EUSAGE, "give at least one base run and one new run");
	if (!(o->threshold >= 0))
		return profdb__error(db, PROFDB_EUSAGE, "threshold must be 0 or more");
	if (!(o->alpha > 0 && o->alpha < 1))
		return profdb__error(db, PROFDB_EUSAGE, "alpha must be between 0 and 1");
	if (!(o->ci_level > 0 && o->ci_level < 1))
		return profdb__error(db, PROFDB_EUSAGE, "confidence level must be between 0 and 1");
	if (o->test != PROFDB_TEST_MWU && o->test != PROFDB_TEST_WELCH)
		return profdb__error(db, PROFDB_EUSAGE, "unknown test");
	if (o->min_delta_ns < 0 || o->resamples < 0)
		return profdb__error(db, PROFDB_EUSAGE, "min delta and resamples must be 0 or more");
	return PROFDB_OK;
}

int profdb_compare(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o)
{
	struct state s;
	profdb_comparison *c = NULL;
	char keyexpr[512];
	const char *by = o->by ? o->by : "name";
	int rc, own_txn = 0;

	*out = NULL;
	memset(&s, 0, sizeof s);
	s.db = db;
	s.o = o;
	if ((rc = check_opts(db, o)) != PROFDB_OK || (rc = key_sql(db, by, keyexpr, sizeof keyexpr)) != PROFDB_OK)
		return rc;
	c = calloc(1, sizeof *c);
	if (!c)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	c->base_runs = copy_names(o->base_runs, o->nbase);
	c->new_runs = copy_names(o->new_runs, o->nnew);
	c->by = strdup(by);
	if (!c->base_runs || !c->new_runs || !c->by) {
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		goto out;
	}
	c->nbase = o->nbase;
	c->nnew = o->nnew;
	c->test = o->test;
	c->alpha = o->alpha;
	c->threshold = o->threshold;
	c->ci_level = o->ci_level;
	c->min_delta_ns = o->min_delta_ns;
	c->resamples = o->resamples;
	c->seed = o->seed;
	/* one read transaction: both sides see the same store */
	own_txn = sqlite3_get_autocommit(db->sql) && sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	if ((rc = side_init(db, &o->filter, &s.side[0], (const char *const *)c->base_runs, c->nbase)) != PROFDB_OK ||
	    (rc = side_init(db, &o->filter, &s.side[1], (const char *const *)c->new_runs, c->nnew)) != PROFDB_OK)
		goto out;
	if ((rc = grow_keys(&s)) != PROFDB_OK) {
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
		goto out;
	}
	for (int si = 0; si < 2; si++)
		for (size_t i = 0; i < s.side[si].n; i++)
			if ((rc = read_kernels(&s, si, i, keyexpr)) != PROFDB_OK ||
			    (rc = read_host(&s, si, i)) != PROFDB_OK)
				goto out;
	if ((rc = build_kernels(&s, c)) != PROFDB_OK || (rc = build_runs(&s, c)) != PROFDB_OK)
		goto out;
	rc = profdb__compare_warnings(db, c, s.side[0].runs, s.side[0].n, s.side[1].runs, s.side[1].n,
	                              o->filter.rank);
out:
	if (own_txn)
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	for (size_t i = 0; i < s.nslots; i++) {
		free(s.slots[i].text);
		free(s.slots[i].samp[0]);
		free(s.slots[i].samp[1]);
	}
	free(s.slots);
	side_free(&s.side[0]);
	side_free(&s.side[1]);
	if (rc != PROFDB_OK) {
		profdb_comparison_free(c);
		return rc;
	}
	*out = c;
	return PROFDB_OK;
}

void profdb_comparison_free(profdb_comparison *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nbase && c->base_runs; i++)
		free(c->base_runs[i]);
	for (size_t i = 0; i < c->nnew && c->new_runs; i++)
		free(c->new_runs[i]);
	free(c->base_runs);
	free(c->new_runs);
	free(c->by);
	for (size_t i = 0; i < c->nkernels; i++)
		free(c->kernels[i].key);
	free(c->kernels);
	for (size_t i = 0; i < c->nruns; i++)
		free(c->runs[i].key);
	free(c->runs);
	for (size_t i = 0; i < c->nwarnings; i++)
		free(c->warnings[i]);
	free(c->warnings);
	free(c);
}

size_t profdb_comparison_nwarnings(const profdb_comparison *c) { return c->nwarnings; }
const char *profdb_comparison_warning(const profdb_comparison *c, size_t i) { return c->warnings[i]; }

size_t profdb_comparison_count(const profdb_comparison *c, int kernels, enum profdb_verdict v)
{
	const struct profdb_cmp_line *l = kernels ? c->kernels : c->runs;
	size_t n = kernels ? c->nkernels : c->nruns, k = 0;
	for (size_t i = 0; i < n; i++)
		k += l[i].verdict == v;
	return k;
}

/*
 * bench_diff.c - diff sides chosen by tag (--base tag:backend=cuda) and the
 * per-API comparison (--by tag:api) of operator benchmarks.
 *
 * A side named "tag:KEY=VALUE" is every run with that tag (run_tag_all).
 * With --by tag:KEY the lines are the values of KEY: a profiled run is one
 * API (its KEY tag, else its name) whose samples are its per-step device
 * totals (one repeat each; a run without steps gives total / repeats); a
 * wall-clock row is one repeat of the API it names (for KEY api; for other
 * keys of its run's KEY tag); a summary-only benchmark contributes its
 * count, mean and stddev.  A side with only samples is tested as profdb diff
 * tests kernels (profdb__compare_decide: MWU or Welch, bootstrap interval); once a
 * summary is involved both sides are pooled to count, mean and variance and
 * tested with Welch's t from those.  A profiled side against a wall-clock
 * side is compared but flagged: in the line's key and as a warning, so every
 * report format shows it.  Filters other than --name (on the API) do not
 * apply per API.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "query/query.h"
#include "store/tags.h"
#include "banned.h"

enum { SRC_PROFILER = 1, SRC_WALLCLOCK = 2, SRC_SUMMARY = 4 };

/* One API's data on one side. */
struct api_side {
	double *s;                 /* samples (ns per repeat) */
	size_t n, cap;
	double sn, smean, sm2;     /* pooled summaries: count, mean, sum of squared deviations */
	int nosd;                  /* a summary without a stddev */
	unsigned src;              /* SRC_* bits */
};

struct api {
	char *key;                 /* owned */
	struct api_side side[2];
};

struct apis {
	struct api *a;
	size_t n, cap;
	const char *glob;          /* --name on the API, or NULL */
};

/* Run names, deduplicated, owned. */
struct names {
	char **v;
	size_t n;
};

int profdb__bench_diff_wanted(const struct profdb_diff_opts *o)
{
	if (o->by && strncmp(o->by, "tag:", 4) == 0)
		return 1;
	for (size_t i = 0; i < o->nbase; i++)
		if (strncmp(o->base_runs[i], "tag:", 4) == 0)
			return 1;
	for (size_t i = 0; i < o->nnew; i++)
		if (strncmp(o->new_runs[i], "tag:", 4) == 0)
			return 1;
	return 0;
}

static int names_add(profdb *db, struct names *ns, const char *s)
{
	char **v;
	for (size_t i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], s) == 0)
			return PROFDB_OK;
	if (!(v = realloc(ns->v, (ns->n + 1) * sizeof *v)) || !(v[ns->n] = strdup(s))) {
		if (v)
			ns->v = v;
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	ns->v = v;
	ns->n++;
	return PROFDB_OK;
}

static void names_free(struct names *ns)
{
	for (size_t i = 0; i < ns->n; i++)
		free(ns->v[i]);
	free(ns->v);
}

/* The runs with tag kv ("KEY=VALUE") into ns; ENOTFOUND when none. */
static int runs_with_tag(profdb *db, const char *kv, struct names *ns)
{
	const char *eq = strchr(kv, '=');
	sqlite3_stmt *q = NULL;
	size_t found = 0;
	int rc = PROFDB_OK, src;
	if (!eq || eq == kv)
		return profdb__error(db, PROFDB_EUSAGE, "'tag:%s': a side by tag is tag:KEY=VALUE", kv);
	if (sqlite3_prepare_v2(db->sql, "SELECT r.name FROM run r WHERE r.id IN (SELECT run_id FROM"
	    " run_tag_all WHERE key = ?1 AND value = ?2) ORDER BY r.id", -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot select runs by tag");
	sqlite3_bind_text(q, 1, kv, (int)(eq - kv), SQLITE_STATIC);
	sqlite3_bind_text(q, 2, eq + 1, -1, SQLITE_STATIC);
	while (rc == PROFDB_OK && (src = sqlite3_step(q)) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(q, 0);
		found++;
		rc = strncmp(name, "tag:", 4) == 0 ?
		     profdb__error(db, PROFDB_EUSAGE, "run '%s' has a name diff reads as a tag", name) :
		     names_add(db, ns, name);
	}
	sqlite3_finalize(q);
	if (rc == PROFDB_OK && !found)
		rc = profdb__error(db, PROFDB_ENOTFOUND, "no run has tag %s ('profdb runs --tags' lists"
		                   " them)", kv);
	return rc;
}

static int resolve(profdb *db, const char *const *in, size_t n, struct names *out)
{
	int rc = PROFDB_OK;
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++)
		rc = strncmp(in[i], "tag:", 4) == 0 ? runs_with_tag(db, in[i] + 4, out) : names_add(db, out, in[i]);
	return rc;
}

/* The API entry of key (added if new); NULL out of memory. */
static struct api *api_of(struct apis *A, const char *key)
{
	struct api *a;
	for (size_t i = 0; i < A->n; i++)
		if (strcmp(A->a[i].key, key) == 0)
			return &A->a[i];
	if (A->n == A->cap) {
		size_t cap = A->cap ? A->cap * 2 : 16;
		if (!(a = realloc(A->a, cap * sizeof *a)))
			return NULL;
		A->a = a;
		A->cap = cap;
	}
	a = &A->a[A->n];
	memset(a, 0, sizeof *a);
	if (!(a->key = strdup(key)))
		return NULL;
	A->n++;
	return a;
}

/* One sample of key on side si; 1 skipped by --name, 0 ok, -1 memory. */
static int add_sample(struct apis *A, int si, const char *key, double v, unsigned src)
{
	struct api *a;
	struct api_side *s;
	if (A->glob && sqlite3_strglob(A->glob, key) != 0)
		return 1;
	if (!(a = api_of(A, key)))
		return -1;
	s = &a->side[si];
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 16;
		double *d = realloc(s->s, cap * sizeof *d);
		if (!d)
			return -1;
		s->s = d;
		s->cap = cap;
	}
	s->s[s->n++] = v;
	s->src |= src;
	return 0;
}

/* Pool (n, mean, m2) into a side's summary (Chan et al.'s parallel update). */
static void pool(double *pn, double *pmean, double *pm2, double n, double mean, double m2)
{
	double tot = *pn + n, d = mean - *pmean;
	if (n <= 0)
		return;
	*pm2 += m2 + d * d * *pn * n / tot;
	*pmean += d * n / tot;
	*pn = tot;
}

static int add_summary(struct apis *A, int si, const char *key, double n, double mean, double sd, int has_sd)
{
	struct api *a;
	struct api_side *s;
	if (A->glob && sqlite3_strglob(A->glob, key) != 0)
		return 0;
	if (!(a = api_of(A, key)))
		return -1;
	s = &a->side[si];
	pool(&s->sn, &s->smean, &s->sm2, n, mean, has_sd ? sd * sd * (n - 1) : 0);
	s->nosd |= !has_sd;
	s->src |= SRC_SUMMARY;
	return 0;
}

/* Prepare sql with run id bound to ?1; NULL after setting the error. */
static sqlite3_stmt *prep(profdb *db, const char *sql, int64_t id)
{
	sqlite3_stmt *q = NULL;
	if (sqlite3_prepare_v2(db->sql, sql, -1, &q, NULL) != SQLITE_OK) {
		profdb__sqlerror(db, "cannot read a run for the per-API diff");
		return NULL;
	}
	sqlite3_bind_int64(q, 1, id);
	return q;
}

/* Step rc of q to its end, each row through fn; then finalize. */
#define FOR_ROWS(q, body) do { \
	int src_; \
	while (rc == PROFDB_OK && (src_ = sqlite3_step(q)) == SQLITE_ROW) { body } \
	if (rc == PROFDB_OK && src_ != SQLITE_DONE) \
		rc = profdb__sqlerror(db, "cannot read a run for the per-API diff"); \
	sqlite3_finalize(q); \
} while (0)

/* The profiled part of run id (kernels other than wallclock) as API key. */
static int load_profiled(profdb *db, struct apis *A, int si, int64_t id, int64_t repeats, const char *key)
{
	sqlite3_stmt *q = prep(db, "SELECT count(*), coalesce(sum(dur_ns), 0), count(step) FROM kernel"
	                       " WHERE run_id = ?1 AND kind <> 5", id);
	int64_t n = 0, total = 0, stepped = 0;
	int rc = PROFDB_OK;
	if (!q)
		return PROFDB_ERROR;
	FOR_ROWS(q, n = sqlite3_column_int64(q, 0); total = sqlite3_column_int64(q, 1);
	         stepped = sqlite3_column_int64(q, 2););
	if (rc != PROFDB_OK || n == 0)
		return rc;
	if (!stepped)
		return add_sample(A, si, key, (double)total / (double)repeats, SRC_PROFILER) < 0 ?
		       profdb__error(db, PROFDB_ERROR, "out of memory") : PROFDB_OK;
	/* one sample per step: the device time of that repeat */
	if (!(q = prep(db, "SELECT sum(dur_ns) FROM kernel WHERE run_id = ?1 AND kind <> 5"
	               " AND step IS NOT NULL GROUP BY step ORDER BY step", id)))
		return PROFDB_ERROR;
	FOR_ROWS(q, if (add_sample(A, si, key, sqlite3_column_double(q, 0), SRC_PROFILER) < 0)
	                rc = profdb__error(db, PROFDB_ERROR, "out of memory"););
	return rc;
}

/* Wall-clock repeats and summaries of run id; per_row: the API is the
 * row's own name (KEY api), else key. */
static int load_bench(profdb *db, struct apis *A, int si, int64_t id, int per_row, const char *key)
{
	sqlite3_stmt *q = prep(db, "SELECT s.value, k.dur_ns FROM kernel k JOIN str s ON s.id = k.name_id"
	                       " WHERE k.run_id = ?1 AND k.kind = 5 ORDER BY k.id", id);
	int rc = PROFDB_OK;
	if (!q)
		return PROFDB_ERROR;
	FOR_ROWS(q, if (add_sample(A, si, per_row ? (const char *)sqlite3_column_text(q, 0) : key,
	                           sqlite3_column_double(q, 1), SRC_WALLCLOCK) < 0)
	                rc = profdb__error(db, PROFDB_ERROR, "out of memory"););
	if (rc != PROFDB_OK)
		return rc;
	if (!(q = prep(db, "SELECT api, coalesce(rounds, 1), mean_ns, stddev_ns FROM bench_summary"
	               " WHERE run_id = ?1 ORDER BY api", id)))
		return PROFDB_ERROR;
	FOR_ROWS(q, if (add_summary(A, si, per_row ? (const char *)sqlite3_column_text(q, 0) : key,
	                            sqlite3_column_double(q, 1), sqlite3_column_double(q, 2),
	                            sqlite3_column_double(q, 3), sqlite3_column_type(q, 3) != SQLITE_NULL) < 0)
	                rc = profdb__error(db, PROFDB_ERROR, "out of memory"););
	return rc;
}

/* Everything run name contributes to side si, grouped by tag key tkey. */
static int load_run(profdb *db, struct apis *A, int si, const char *name, const char *tkey,
                    struct profdb__cmp_run *cr)
{
	sqlite3_stmt *q = NULL;
	char *key = NULL;
	int rc = PROFDB_OK, found = 0;
	if (sqlite3_prepare_v2(db->sql, "SELECT r.id, r.repeats, r.ranks, r.format, (SELECT value FROM"
	    " run_tag_all t WHERE t.run_id = r.id AND t.key = ?2) FROM run r WHERE r.name = ?1",
	    -1, &q, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot look up run '%s'", name);
	sqlite3_bind_text(q, 1, name, -1, SQLITE_STATIC);
	sqlite3_bind_text(q, 2, tkey, -1, SQLITE_STATIC);
	FOR_ROWS(q, found = 1; cr->id = sqlite3_column_int64(q, 0); cr->repeats = sqlite3_column_int64(q, 1);
	         cr->ranks = sqlite3_column_int64(q, 2);
	         cr->format = strdup((const char *)sqlite3_column_text(q, 3));
	         key = strdup(sqlite3_column_type(q, 4) != SQLITE_NULL ?
	                      (const char *)sqlite3_column_text(q, 4) : name);
	         if (!cr->format || !key) rc = profdb__error(db, PROFDB_ERROR, "out of memory"););
	if (rc == PROFDB_OK && !found)
		rc = profdb__error(db, PROFDB_ENOTFOUND, "no run named '%s' ('profdb runs' lists them)", name);
	cr->name = name;
	if (rc == PROFDB_OK)
		rc = load_profiled(db, A, si, cr->id, cr->repeats > 0 ? cr->repeats : 1, key);
	if (rc == PROFDB_OK)
		rc = load_bench(db, A, si, cr->id, strcmp(tkey, "api") == 0, key);
	free(key);
	return rc;
}

static const char *src_name(unsigned src)
{
	if (src == SRC_PROFILER)
		return "profiler";
	if (src & SRC_PROFILER)
		return "profiler and wall clock";
	return src == SRC_SUMMARY ? "wall-clock summary" : "wall clock";
}

static double mean_of(const double *x, size_t n)
{
	double s = 0;
	for (size_t i = 0; i < n; i++)
		s += x[i];
	return n ? s / (double)n : NAN;
}

/* A side as count, mean and sample variance (samples pooled with summaries). */
static void side_summary(const struct api_side *s, double *n, double *mean, double *var)
{
	double pn = 0, pm = 0, m2 = 0, sm = mean_of(s->s, s->n), sm2 = 0;
	for (size_t i = 0; i < s->n; i++)
		sm2 += (s->s[i] - sm) * (s->s[i] - sm);
	pool(&pn, &pm, &m2, (double)s->n, sm, sm2);
	pool(&pn, &pm, &m2, s->sn, s->smean, s->sm2);
	*n = pn;
	*mean = pn ? pm : NAN;
	*var = pn > 1 && !s->nosd ? m2 / (pn - 1) : NAN;
}

/* The line of one API: the verdict as profdb diff decides kernels. */
static int api_line(profdb_comparison *c, struct profdb__cmp_line *l, const struct api *a)
{
	const struct api_side *b = &a->side[0], *w = &a->side[1];
	int in0 = b->n || b->sn > 0, in1 = w->n || w->sn > 0;
	int mixed = in0 && in1 && !(b->src & SRC_PROFILER) != !(w->src & SRC_PROFILER);
	char key[600];

	snprintf(key, sizeof key, "%s%s%s%s%s%s", a->key, mixed ? " [" : "", mixed ? src_name(b->src) : "",
	         mixed ? " vs " : "", mixed ? src_name(w->src) : "", mixed ? "]" : "");
	if (!(l->key = strdup(key)))
		return PROFDB_ERROR;
	l->base_calls = l->next_calls = NAN;
	if (b->sn > 0 || w->sn > 0) {
		/* summary statistics: Welch's t from count, mean and variance */
		struct profdb_comparison cw = *c;
		double n0, m0, v0, n1, m1, v1, p;
		side_summary(b, &n0, &m0, &v0);
		side_summary(w, &n1, &m1, &v1);
		l->base = m0;
		l->next = m1;
		p = profdb__welch_summary(m0, v0, n0, m1, v1, n1, NULL, NULL);
		cw.test = PROFDB_TEST_WELCH;
		cw.resamples = 0;
		/* no p (a summary without stddev, < 2 repeats): decide sees no samples */
		profdb__compare_decide(&cw, l, NULL, isnan(p) ? 0 : (size_t)n0, NULL, isnan(p) ? 0 : (size_t)n1,
		               in0, in1, 1, isnan(p) ? NAN : p);
		l->nbase = (size_t)n0;
		l->nnext = (size_t)n1;
		if (isnan(p) && in0 && in1) {
			snprintf(l->why, sizeof l->why, "no test: a side has fewer than 2 repeats or a summary"
			         " without a stddev");
			l->short_alpha = 0;
		}
	} else {
		l->base = mean_of(b->s, b->n);
		l->next = mean_of(w->s, w->n);
		profdb__compare_decide(c, l, b->s, b->n, w->s, w->n, in0, in1, 1, NAN);
	}
	profdb__compare_note_short(c, l);
	if (mixed && profdb__compare_warn(c, "API '%.200s': base measured by %s, new by %s: device time"
	                                  " per repeat against elapsed time per repeat, not the same"
	                                  " measurement", a->key, src_name(b->src), src_name(w->src)) != PROFDB_OK)
		return PROFDB_ERROR;
	return PROFDB_OK;
}

static int cmp_lines(const void *x, const void *y)
{
	const struct profdb__cmp_line *a = x, *b = y;
	double da = isnan(a->delta) ? -1 : fabs(a->delta), dbb = isnan(b->delta) ? -1 : fabs(b->delta);
	if (da != dbb)
		return da > dbb ? -1 : 1;
	return strcmp(a->key, b->key);
}

static void apis_free(struct apis *A)
{
	for (size_t i = 0; i < A->n; i++) {
		free(A->a[i].key);
		free(A->a[i].side[0].s);
		free(A->a[i].side[1].s);
	}
	free(A->a);
}

/* Read both sides' runs into A and their run facts into cr[0..1]. */
static int load_sides(profdb *db, struct apis *A, const struct names *side, const char *tkey,
                      struct profdb__cmp_run **cr)
{
	int rc = PROFDB_OK;
	for (int si = 0; si < 2 && rc == PROFDB_OK; si++) {
		if (!(cr[si] = calloc(side[si].n ? side[si].n : 1, sizeof **cr)))
			return profdb__error(db, PROFDB_ERROR, "out of memory");
		for (size_t i = 0; i < side[si].n && rc == PROFDB_OK; i++)
			rc = load_run(db, A, si, side[si].v[i], tkey, &cr[si][i]);
	}
	return rc;
}

/* The per-API comparison of c's sides (run names in side[2]) by tag tkey. */
static int api_compare(profdb *db, profdb_comparison *c, const struct names *side, const char *tkey,
                       const char *glob)
{
	struct apis A = { NULL, 0, 0, glob };
	struct profdb__cmp_run *cr[2] = { NULL, NULL };
	int rc = load_sides(db, &A, side, tkey, cr);
	if (rc == PROFDB_OK && !(c->kernels = calloc(A.n ? A.n : 1, sizeof *c->kernels)))
		rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < A.n && rc == PROFDB_OK; i++, c->nkernels++)
		if (api_line(c, &c->kernels[i], &A.a[i]) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc == PROFDB_OK) {
		qsort(c->kernels, c->nkernels, sizeof *c->kernels, cmp_lines);
		rc = profdb__compare_warnings(db, c, cr[0], side[0].n, cr[1], side[1].n, PROFDB_NULL);
		if (rc == PROFDB_OK && profdb__compare_warn_short(c) != PROFDB_OK)
			rc = profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	for (int si = 0; si < 2; si++)
		for (size_t i = 0; cr[si] && i < side[si].n; i++)
			free(cr[si][i].format);
	free(cr[0]);
	free(cr[1]);
	apis_free(&A);
	return rc;
}

int profdb__bench_compare(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o)
{
	struct names side[2] = { { NULL, 0 }, { NULL, 0 } };
	struct profdb_diff_opts ro = *o;
	const char *tkey = o->by && strncmp(o->by, "tag:", 4) == 0 ? o->by + 4 : NULL;
	char kbuf[PROFDB_TAG_KEY_MAX + 1];
	int rc, own_txn;

	*out = NULL;
	if (tkey && (rc = profdb__tags_by_key(db, o->by, strlen(o->by), kbuf)) < 0)
		return rc;
	if (tkey && !(o->alpha > 0 && o->alpha < 1 && o->threshold >= 0))
		return profdb__error(db, PROFDB_EUSAGE, "alpha must be between 0 and 1, threshold 0 or more");
	own_txn = sqlite3_get_autocommit(db->sql) && sqlite3_exec(db->sql, "BEGIN", NULL, NULL, NULL) == SQLITE_OK;
	if ((rc = resolve(db, o->base_runs, o->nbase, &side[0])) != PROFDB_OK ||
	    (rc = resolve(db, o->new_runs, o->nnew, &side[1])) != PROFDB_OK)
		goto out;
	if (!side[0].n || !side[1].n) {
		rc = profdb__error(db, PROFDB_EUSAGE, "no runs on the %s side", side[0].n ? "new" : "base");
		goto out;
	}
	if (!tkey) {
		/* sides by tag, kernels by the usual keys: the usual comparison */
		ro.base_runs = (const char *const *)side[0].v;
		ro.nbase = side[0].n;
		ro.new_runs = (const char *const *)side[1].v;
		ro.nnew = side[1].n;
		rc = profdb_compare(db, out, &ro);
		goto out;
	}
	*out = profdb__comparison_new(db, o, o->by, (const char *const *)side[0].v, side[0].n,
	                              (const char *const *)side[1].v, side[1].n);
	rc = *out ? api_compare(db, *out, side, tkey, o->filter.name_glob)
	          : profdb__error(db, PROFDB_ERROR, "out of memory");
	if (rc != PROFDB_OK) {
		profdb_comparison_free(*out);
		*out = NULL;
	}
out:
	if (own_txn)
		sqlite3_exec(db->sql, "COMMIT", NULL, NULL, NULL);
	names_free(&side[0]);
	names_free(&side[1]);
	return rc;
}

/*
 * compare_verdict.c - profdb_compare's verdicts: for each kernel group and
 * each whole-run figure, the change between the sides, decided from the
 * threshold, --min-delta and a two-sample test (stats_test.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_state.h"
#include "banned.h"

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
 * (times only).  p_given: NaN, or the p-value already known (a test from
 * summary statistics, bench_diff.c: then x and y may be NULL, no interval).
 */
void profdb__compare_decide(const struct profdb_comparison *c, struct profdb__cmp_line *l,
                    const double *x, size_t nx, const double *y, size_t ny,
                    int in_base, int in_next, int use_min_delta, double p_given)
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
	l->short_alpha = 0;
	if (!in_base || !in_next) {
		l->verdict = in_base ? PROFDB_VERDICT_GONE : PROFDB_VERDICT_NEW;
		snprintf(l->why, sizeof l->why, "only in the %s runs", in_base ? "base" : "new");
		return;
	}
	if (!isnan(p_given))
		l->p = p_given;
	else
		l->p = c->test == PROFDB_TEST_WELCH ? profdb__welch(x, nx, y, ny, NULL, NULL) :
		       profdb__mwu(x, nx, y, ny, NULL);
	if (c->resamples > 0 && isnan(p_given))
		profdb__bootstrap_rel(x, nx, y, ny, c->resamples, c->ci_level,
		                      c->seed ^ profdb__compare_fnv(l->key), &l->ci_lo, &l->ci_hi);
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
	minp = c->test == PROFDB_TEST_MWU && isnan(p_given) ? profdb__mwu_min_p(nx, ny) : 0;
	enough = nx >= 3 && ny >= 3 && minp <= c->alpha;
	if (!enough || isnan(l->p)) {
		l->verdict = PROFDB_VERDICT_INCONCLUSIVE;
		l->short_alpha = !enough;
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

void profdb__compare_note_short(profdb_comparison *c, const struct profdb__cmp_line *l)
{
	if (!l->short_alpha)
		return;
	if (!c->nshort++)
		snprintf(c->short_why, sizeof c->short_why, "%s", l->why);
}

int profdb__compare_warn_short(profdb_comparison *c)
{
	if (!c->nshort)
		return PROFDB_OK;
	return profdb__compare_warn(c, "%zu line%s cannot be significant at alpha %g whatever the"
	                            " change, the first: %s; more repeats a side, or a larger --alpha",
	                            c->nshort, c->nshort == 1 ? "" : "s", c->alpha, c->short_why);
}

static int add_run_line(struct profdb__compare_state *s, profdb_comparison *c, const char *name, int is_count,
                        double base, double next, const double *x, size_t nx,
                        const double *y, size_t ny, int in_base, int in_next)
{
	struct profdb__cmp_line *l = &c->runs[c->nruns];
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
	profdb__compare_decide(c, l, x, nx, y, ny, in_base, in_next, !is_count, NAN);
	profdb__compare_note_short(c, l);
	if (!in_base || !in_next) {
		l->verdict = PROFDB_VERDICT_INCONCLUSIVE;
		snprintf(l->why, sizeof l->why, "no data in the %s runs", in_base ? "new" : "base");
	}
	return PROFDB_OK;
}

/* Per-repeat device time, kernel count, host CPU time and step time. */
int profdb__compare_build_runs(struct profdb__compare_state *s, profdb_comparison *c)
{
	struct profdb__compare_side *b = &s->side[0], *nw = &s->side[1];
	double *dev[2] = { NULL, NULL }, tot[2] = { 0, 0 };
	int rc = PROFDB_OK;

	c->runs = calloc(4, sizeof *c->runs);
	dev[0] = calloc(b->N ? b->N : 1, sizeof(double));
	dev[1] = calloc(nw->N ? nw->N : 1, sizeof(double));
	if (!c->runs || !dev[0] || !dev[1]) {
		rc = profdb__error(s->db, PROFDB_ERROR, "out of memory");
		goto out;
	}
	/* summed key by key as compare_merge.c read them */
	for (int si = 0; si < 2; si++) {
		memcpy(dev[si], s->side[si].dev, s->side[si].N * sizeof(double));
		tot[si] = (double)s->side[si].dev_total;
	}
	/* --by op: the keys' sums nest (an op's device time is its callees'
	 * too), so they make no run's device time or kernel count */
	if (!s->by_op && (rc = add_run_line(s, c, "device time", 0, tot[0] / b->repeats, tot[1] / nw->repeats,
	                       dev[0], b->N, dev[1], nw->N, b->kernels > 0, nw->kernels > 0)) != PROFDB_OK)
		goto out;
	if (!s->by_op && (rc = add_run_line(s, c, "kernel count", 1, (double)b->kernels / b->repeats,
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


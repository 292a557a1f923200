/*
 * check_compare.c - profdb_compare over runs generated here through the
 * store API (many steps, so the tests have power): one kernel scaled by
 * 1.3 is the only regression, pure noise flags nothing, one step per side
 * is inconclusive, kernels on one side are new/gone, filters and
 * comparability warnings.  Expected sums are computed here from the
 * durations the test itself generated.
 */
#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "compare/compare.h"

#define NK 4
#define CALLS 2 /* launches of each kernel per step */

static const char *const knames[NK] = { "A_gemm", "B_softmax", "C_attn", "D_copy" };
static const int64_t kbase[NK] = { 1000, 5000, 20000, 300 };

/* The test's own PRNG (not profdb's): 64-bit LCG, top 53 bits. */
static double urand(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return (double)(*s >> 11) / 9007199254740992.0;
}

struct spec {
	int nsteps;                /* steps of the run */
	int with_steps;            /* 0: kernels carry no step (one sample per run) */
	double scale[NK];          /* per kernel duration factor (0: kernel absent) */
	double jitter;             /* uniform relative noise, e.g. 0.02 */
	uint64_t seed;
	const char *extra;         /* a kernel only in this run (NULL: none) */
	int extra_steps;           /* ... in this many of the first steps */
	int64_t step_lo;           /* first step number */
	const char *device;        /* deviceProperties value or NULL */
};

struct sums {
	int64_t total[NK + 1];     /* dur per kernel (extra last) */
	int64_t calls[NK + 1];
	int64_t step_total[64][NK];/* per step */
	int64_t span_total, cpu_total, all;
};

static void spec_init(struct spec *sp, uint64_t seed)
{
	memset(sp, 0, sizeof *sp);
	sp->nsteps = 20;
	sp->with_steps = 1;
	for (int k = 0; k < NK; k++)
		sp->scale[k] = 1;
	sp->jitter = 0.02;
	sp->seed = seed;
	sp->step_lo = 1;
}

static void make_run(profdb *db, const char *name, const struct spec *sp, struct sums *sum)
{
	struct profdb_store *st = NULL;
	struct profdb_sink *s;
	uint64_t rng = sp->seed;
	memset(sum, 0, sizeof *sum);
	ck_assert_int_eq(profdb__store_begin(&st, db, name, "/gen", 0), PROFDB_OK);
	s = profdb__store_sink(st);
	if (sp->device)
		ck_assert_int_eq(s->meta(s->arg, PROFDB_NULL, "deviceProperties", sp->device), PROFDB_OK);
	for (int i = 0; i < sp->nsteps; i++) {
		int64_t step = sp->step_lo + i, t0 = step * 10000000, t = t0;
		struct profdb_op_rec o;
		if (sp->with_steps) {
			int64_t span = 1000000 + (int64_t)(urand(&rng) * 20000);
			struct profdb_step_rec sr = { 0, step, t0, t0 + span };
			ck_assert_int_eq(s->step(s->arg, &sr), PROFDB_OK);
			sum->span_total += span;
		}
		profdb__op_rec_init(&o);
		o.name = "aten::mm";
		o.step = sp->with_steps ? step : PROFDB_NULL;
		o.start_ns = t0;
		o.dur_ns = 50000;
		o.self_ns = 40000 + (int64_t)(urand(&rng) * 400);
		ck_assert_int_eq(s->op(s->arg, &o), PROFDB_OK);
		sum->cpu_total += o.self_ns;
		for (int k = 0; k <= NK; k++) {
			const char *kn = k < NK ? knames[k] : sp->extra;
			if (k < NK && sp->scale[k] == 0)
				continue;
			if (k == NK && (!sp->extra || i >= sp->extra_steps))
				continue;
			for (int c = 0; c < CALLS; c++) {
				struct profdb_kernel_rec r;
				double base = k < NK ? (double)kbase[k] * sp->scale[k] : 700;
				int64_t dur = (int64_t)(base * (1 + sp->jitter * (2 * urand(&rng) - 1)) + 0.5);
				profdb__kernel_rec_init(&r);
				r.name = kn;
				r.start_ns = t;
				r.dur_ns = dur;
				r.step = sp->with_steps ? step : PROFDB_NULL;
				ck_assert_int_eq(s->kernel(s->arg, &r), PROFDB_OK);
				t += dur + 100;
				sum->total[k] += dur;
				sum->calls[k]++;
				sum->all += dur;
				if (k < NK && i < 64)
					sum->step_total[i][k] += dur;
			}
		}
	}
	ck_assert_int_eq(profdb__store_commit(st, 0), PROFDB_OK);
}

/* Kernel line number `at` (key NULL) or that of key, walked as the
 * renderers walk them, so the tests pass with the lines held or spooled
 * (PROFDB_HOLD_BYTES=1); a copy, valid for the next three calls. */
static const struct profdb__cmp_line *walk_find(const profdb_comparison *c, const char *key, size_t at)
{
	static struct profdb__cmp_line copy[4];
	static char keys[4][256];
	static int next;
	struct profdb__cmp_walk w;
	const struct profdb__cmp_line *l, *found = NULL;
	size_t i = 0;
	profdb__cmp_walk_start(&w, c, 0);
	for (; (l = profdb__cmp_walk_next(&w)) != NULL; i++)
		if (key ? strcmp(l->key, key) == 0 : i == at) {
			next = (next + 1) % 4;
			copy[next] = *l;
			snprintf(keys[next], sizeof keys[next], "%s", l->key);
			copy[next].key = keys[next];
			found = &copy[next];
			break;
		}
	ck_assert_int_eq(profdb__cmp_walk_end(&w), PROFDB_OK);
	return found;
}

static const struct profdb__cmp_line *find(const profdb_comparison *c, const char *key)
{
	return walk_find(c, key, 0);
}

static const struct profdb__cmp_line *find_run(const profdb_comparison *c, const char *key)
{
	for (size_t i = 0; i < c->nruns; i++)
		if (strcmp(c->runs[i].key, key) == 0)
			return &c->runs[i];
	return NULL;
}

static profdb_comparison *compare2(profdb *db, const char *a, const char *b, struct profdb_diff_opts *o)
{
	static const char *base[1], *next[1];
	profdb_comparison *c = NULL;
	base[0] = a;
	next[0] = b;
	o->base_runs = base;
	o->nbase = 1;
	o->new_runs = next;
	o->nnew = 1;
	ck_assert_msg(profdb_compare(db, &c, o) == PROFDB_OK, "%s", profdb_errmsg(db));
	return c;
}

/*
 * The exact two-sided U p-value when every new sample of kernel k is
 * larger than every base one (U = 0): only one of the C(40, 20) splits of
 * the pooled samples puts the base side lowest, whether or not values
 * repeat inside a side, so 2 / C(40, 20).  NaN if the sides overlap.
 */
static double separated_p(const struct sums *a, const struct sums *b, int k)
{
	double amax = -1, bmin = 1e300;
	for (int i = 0; i < 20; i++) {
		amax = fmax(amax, (double)a->step_total[i][k]);
		bmin = fmin(bmin, (double)b->step_total[i][k]);
	}
	return amax < bmin ? 2 / 137846528820.0 : NAN;
}

START_TEST(scaled_kernel_is_the_only_regression)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums sa, sb;
	struct profdb_diff_opts o;
	profdb_comparison *c;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 1);
	make_run(db, "base", &sp, &sa);
	spec_init(&sp, 2);
	sp.scale[1] = 1.3;
	make_run(db, "new", &sp, &sb);
	profdb_diff_opts_init(&o);
	c = compare2(db, "base", "new", &o);
	ck_assert_uint_eq(c->nkernels, NK);
	ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION), 1);
	ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_IMPROVEMENT), 0);
	for (int k = 0; k < NK; k++) {
		const struct profdb__cmp_line *l = find(c, knames[k]);
		double want_base = (double)sa.total[k] / 20, want_new = (double)sb.total[k] / 20;
		ck_assert_ptr_nonnull(l);
		/* per repeat = sum of the generated durations / 20 steps */
		ck_assert_double_eq_tol(l->base, want_base, 1e-6);
		ck_assert_double_eq_tol(l->next, want_new, 1e-6);
		ck_assert_double_eq_tol(l->rel, want_new / want_base - 1, 1e-9);
		ck_assert_double_eq_tol(l->base_calls, CALLS, 1e-12);
		ck_assert_uint_eq(l->nbase, 20);
		ck_assert_uint_eq(l->nnext, 20);
		if (k == 1) {
			ck_assert_int_eq(l->verdict, PROFDB_VERDICT_REGRESSION);
			ck_assert_double_eq_tol(l->p, separated_p(&sa, &sb, 1), 1e-15);
			ck_assert(l->p < 1e-6);
			ck_assert(l->ci_lo < l->rel && l->rel < l->ci_hi);
			ck_assert(l->ci_lo > 0.25 && l->ci_hi < 0.35);
			ck_assert_ptr_nonnull(strstr(l->why, "mwu p ="));
		} else {
			ck_assert_int_eq(l->verdict, PROFDB_VERDICT_UNCHANGED);
		}
	}
	/* the largest change sorts first */
	ck_assert_str_eq(walk_find(c, NULL, 0)->key, "B_softmax");
	/* whole run: device time, kernel count, host CPU, step time */
	ck_assert_double_eq_tol(find_run(c, "device time")->base, (double)sa.all / 20, 1e-6);
	ck_assert_double_eq_tol(find_run(c, "device time")->next, (double)sb.all / 20, 1e-6);
	ck_assert_int_eq(find_run(c, "device time")->verdict, PROFDB_VERDICT_REGRESSION);
	ck_assert_double_eq_tol(find_run(c, "kernel count")->base, NK * CALLS, 1e-12);
	ck_assert_int_eq(find_run(c, "kernel count")->verdict, PROFDB_VERDICT_UNCHANGED);
	ck_assert_double_eq_tol(find_run(c, "host CPU time")->base, (double)sa.cpu_total / 20, 1e-6);
	ck_assert_int_eq(find_run(c, "host CPU time")->verdict, PROFDB_VERDICT_UNCHANGED);
	ck_assert_double_eq_tol(find_run(c, "step time")->next, (double)sb.span_total / 20, 1e-6);
	ck_assert_uint_eq(c->nwarnings, 0);
	profdb_comparison_free(c);

	/* Welch's t reaches the same verdicts */
	o.test = PROFDB_TEST_WELCH;
	c = compare2(db, "base", "new", &o);
	ck_assert_int_eq(find(c, "B_softmax")->verdict, PROFDB_VERDICT_REGRESSION);
	ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION), 1);
	ck_assert_ptr_nonnull(strstr(find(c, "B_softmax")->why, "welch"));
	profdb_comparison_free(c);

	/* the other direction is an improvement */
	o.test = PROFDB_TEST_MWU;
	c = compare2(db, "new", "base", &o);
	ck_assert_int_eq(find(c, "B_softmax")->verdict, PROFDB_VERDICT_IMPROVEMENT);
	ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION), 0);
	profdb_comparison_free(c);
	profdb_close(db);
}
END_TEST

START_TEST(noise_flags_nothing)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums sa, sb;
	struct profdb_diff_opts o;
	profdb_comparison *c;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	for (uint64_t seed = 10; seed < 16; seed += 2) {
		char a[16], b[16];
		snprintf(a, sizeof a, "n%llu", (unsigned long long)seed);
		snprintf(b, sizeof b, "n%llu", (unsigned long long)seed + 1);
		spec_init(&sp, seed);
		sp.jitter = 0.08; /* noisier than the threshold per sample */
		make_run(db, a, &sp, &sa);
		spec_init(&sp, seed + 1);
		sp.jitter = 0.08;
		make_run(db, b, &sp, &sb);
		profdb_diff_opts_init(&o);
		c = compare2(db, a, b, &o);
		ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION), 0);
		ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_IMPROVEMENT), 0);
		ck_assert_uint_eq(profdb_comparison_count(c, 0, PROFDB_VERDICT_REGRESSION), 0);
		profdb_comparison_free(c);
	}
	profdb_close(db);
}
END_TEST

START_TEST(one_step_is_inconclusive)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums sa, sb;
	struct profdb_diff_opts o;
	profdb_comparison *c;
	const struct profdb__cmp_line *l;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 3);
	sp.nsteps = 1;
	make_run(db, "a", &sp, &sa);
	spec_init(&sp, 4);
	sp.nsteps = 1;
	sp.scale[1] = 1.3;
	make_run(db, "b", &sp, &sb);
	profdb_diff_opts_init(&o);
	c = compare2(db, "a", "b", &o);
	l = find(c, "B_softmax");
	ck_assert_int_eq(l->verdict, PROFDB_VERDICT_INCONCLUSIVE);
	ck_assert_uint_eq(l->nbase, 1);
	ck_assert_ptr_nonnull(strstr(l->why, "too few samples"));
	ck_assert(isnan(l->ci_lo)); /* no bootstrap from one sample */
	ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION), 0);
	profdb_comparison_free(c);
	profdb_close(db);
}
END_TEST

START_TEST(stepless_runs_pool_per_side)
{
	/* runs without steps: one sample each (total / repeats); 5 runs per
	 * side give 5 vs 5, enough for the exact U test at alpha 0.01
	 * (2/252 < 0.01); 4 vs 4 is not (2/70) */
	profdb *db = NULL;
	struct spec sp;
	struct sums s;
	struct profdb_diff_opts o;
	profdb_comparison *c = NULL;
	const char *base[5], *next[5];
	char names[10][8];
	int64_t want_b = 0;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	for (int i = 0; i < 10; i++) {
		snprintf(names[i], sizeof names[i], "r%d", i);
		spec_init(&sp, 100 + (uint64_t)i);
		sp.with_steps = 0;
		sp.nsteps = 3; /* 3 launches per kernel type, no step numbers */
		if (i >= 5)
			sp.scale[1] = 1.3;
		make_run(db, names[i], &sp, &s);
		if (i < 5) {
			base[i] = names[i];
			want_b += s.total[1];
		} else {
			next[i - 5] = names[i];
		}
	}
	profdb_diff_opts_init(&o);
	o.base_runs = base;
	o.new_runs = next;
	o.nbase = o.nnew = 5;
	ck_assert_int_eq(profdb_compare(db, &c, &o), PROFDB_OK);
	ck_assert_uint_eq(find(c, "B_softmax")->nbase, 5);
	/* repeats are 1 per run: per repeat = sum over the 5 runs / 5 */
	ck_assert_double_eq_tol(find(c, "B_softmax")->base, (double)want_b / 5, 1e-6);
	ck_assert_int_eq(find(c, "B_softmax")->verdict, PROFDB_VERDICT_REGRESSION);
	ck_assert_uint_eq(profdb_comparison_count(c, 1, PROFDB_VERDICT_REGRESSION), 1);
	profdb_comparison_free(c);
	o.nbase = o.nnew = 4;
	ck_assert_int_eq(profdb_compare(db, &c, &o), PROFDB_OK);
	ck_assert_int_eq(find(c, "B_softmax")->verdict, PROFDB_VERDICT_INCONCLUSIVE);
	ck_assert_ptr_nonnull(strstr(find(c, "B_softmax")->why, "smallest mwu p"));
	profdb_comparison_free(c);
	profdb_close(db);
}
END_TEST

START_TEST(new_gone_and_zero_steps)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums sa, sb;
	struct profdb_diff_opts o;
	profdb_comparison *c;
	const struct profdb__cmp_line *l;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 5);
	sp.scale[3] = 0; /* D_copy only in the new run */
	sp.extra = "E_rare";
	sp.extra_steps = 5; /* in 5 of 20 steps */
	make_run(db, "a", &sp, &sa);
	spec_init(&sp, 6);
	sp.scale[0] = 0; /* A_gemm gone */
	sp.extra = "E_rare";
	sp.extra_steps = 20; /* now in every step */
	make_run(db, "b", &sp, &sb);
	profdb_diff_opts_init(&o);
	c = compare2(db, "a", "b", &o);
	ck_assert_int_eq(find(c, "A_gemm")->verdict, PROFDB_VERDICT_GONE);
	ck_assert_int_eq(find(c, "D_copy")->verdict, PROFDB_VERDICT_NEW);
	ck_assert(isnan(find(c, "D_copy")->rel));
	ck_assert_double_eq_tol(find(c, "D_copy")->next, (double)sb.total[3] / 20, 1e-6);
	/* E_rare ran in 5 of 20 base steps: 20 samples, 15 of them 0; per
	 * repeat is its sum / 20, not / 5 */
	l = find(c, "E_rare");
	ck_assert_uint_eq(l->nbase, 20);
	ck_assert_double_eq_tol(l->base, (double)sa.total[NK] / 20, 1e-6);
	ck_assert_double_eq_tol(l->base_calls, 5.0 * CALLS / 20, 1e-12);
	ck_assert_int_eq(l->verdict, PROFDB_VERDICT_REGRESSION);
	ck_assert_uint_eq(c->nkernels, NK + 1);
	profdb_comparison_free(c);
	profdb_close(db);
}
END_TEST

/* Two doubles the same bits but NaN's payload: what a spool keeps. */
static void same_double(double x, double y)
{
	ck_assert(isnan(x) ? isnan(y) : x == y && signbit(x) == signbit(y));
}

/* Past the hold budget (hold_bytes 1: from the first line) the
 * kernel lines are spooled, not held, and walk back the same lines in the
 * same order, every field (NaN where a side is missing), from any start,
 * with the same counts per verdict. */
START_TEST(spooled_lines_equal_held)
{
	profdb *db = NULL;
	struct profdb_limits lim = PROFDB_LIMITS_INIT;
	struct spec sp;
	struct sums sa, sb;
	struct profdb_diff_opts o;
	profdb_comparison *held, *spooled;
	struct profdb__cmp_walk w[3];
	const struct profdb__cmp_line *x, *y;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 5);
	sp.scale[3] = 0; /* D_copy only in the new run */
	make_run(db, "a", &sp, &sa);
	spec_init(&sp, 6);
	sp.scale[0] = 0; /* A_gemm gone */
	sp.scale[1] = 1.3;
	make_run(db, "b", &sp, &sb);
	profdb_diff_opts_init(&o);
	held = compare2(db, "a", "b", &o);
	lim.hold_bytes = 1;
	ck_assert_int_eq(profdb_set_limits(db, &lim), PROFDB_OK);
	spooled = compare2(db, "a", "b", &o);
	ck_assert_ptr_null(held->spooled);
	ck_assert_ptr_nonnull(spooled->spooled);
	ck_assert_ptr_null(spooled->kernels);
	ck_assert_uint_eq(held->nkernels, NK);
	ck_assert_uint_eq(spooled->nkernels, NK);
	for (int v = PROFDB_VERDICT_UNCHANGED; v <= PROFDB_VERDICT_GONE; v++)
		ck_assert_uint_eq(profdb_comparison_count(held, 1, v), profdb_comparison_count(spooled, 1, v));
	ck_assert_uint_eq(profdb_comparison_count(spooled, 1, PROFDB_VERDICT_NEW), 1);
	profdb__cmp_walk_start(&w[0], held, 0);
	profdb__cmp_walk_start(&w[1], spooled, 0);
	while ((x = profdb__cmp_walk_next(&w[0])) != NULL) {
		ck_assert_ptr_nonnull(y = profdb__cmp_walk_next(&w[1]));
		ck_assert_str_eq(x->key, y->key);
		ck_assert_int_eq(x->verdict, y->verdict);
		ck_assert_int_eq(x->is_count, y->is_count);
		same_double(x->base, y->base);
		same_double(x->next, y->next);
		same_double(x->base_calls, y->base_calls);
		same_double(x->next_calls, y->next_calls);
		same_double(x->delta, y->delta);
		same_double(x->rel, y->rel);
		same_double(x->p, y->p);
		same_double(x->ci_lo, y->ci_lo);
		same_double(x->ci_hi, y->ci_hi);
		ck_assert_uint_eq(x->nbase, y->nbase);
		ck_assert_uint_eq(x->nnext, y->nnext);
		ck_assert_str_eq(x->why, y->why);
	}
	ck_assert_ptr_null(profdb__cmp_walk_next(&w[1]));
	/* a walk from line 2 starts there (a table part's first row) */
	profdb__cmp_walk_start(&w[2], spooled, 2);
	ck_assert_str_eq(profdb__cmp_walk_next(&w[2])->key, held->kernels[2].key);
	for (int i = 0; i < 3; i++)
		ck_assert_int_eq(profdb__cmp_walk_end(&w[i]), PROFDB_OK);
	profdb_comparison_free(held);
	profdb_comparison_free(spooled);
	profdb_close(db);
}
END_TEST

START_TEST(filters_threshold_min_delta)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums sa, sb;
	struct profdb_diff_opts o;
	profdb_comparison *c;
	int64_t want = 0;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 7);
	sp.jitter = 0.002;
	make_run(db, "a", &sp, &sa);
	spec_init(&sp, 8);
	sp.jitter = 0.002;
	sp.scale[2] = 1.03; /* +3%: below the 5% default */
	make_run(db, "b", &sp, &sb);
	profdb_diff_opts_init(&o);
	c = compare2(db, "a", "b", &o);
	ck_assert_int_eq(find(c, "C_attn")->verdict, PROFDB_VERDICT_UNCHANGED);
	ck_assert_ptr_nonnull(strstr(find(c, "C_attn")->why, "within the 5% threshold"));
	profdb_comparison_free(c);
	o.threshold = 0.01;
	c = compare2(db, "a", "b", &o);
	ck_assert_int_eq(find(c, "C_attn")->verdict, PROFDB_VERDICT_REGRESSION);
	profdb_comparison_free(c);
	/* +3% of 2 x 20 us = 1.2 us per repeat: below --min-delta 2 us */
	o.min_delta_ns = 2000;
	c = compare2(db, "a", "b", &o);
	ck_assert_int_eq(find(c, "C_attn")->verdict, PROFDB_VERDICT_UNCHANGED);
	ck_assert_ptr_nonnull(strstr(find(c, "C_attn")->why, "min-delta"));
	profdb_comparison_free(c);
	/* name filter and step range: steps 3..7 are 5 samples; per repeat is
	 * per selected step */
	profdb_diff_opts_init(&o);
	o.filter.name_glob = "C_*";
	o.filter.step_lo = 3;
	o.filter.step_hi = 7;
	c = compare2(db, "a", "b", &o);
	ck_assert_uint_eq(c->nkernels, 1);
	for (int i = 2; i <= 6; i++) /* steps 3..7 are indexes 2..6 */
		want += sa.step_total[i][2];
	ck_assert_uint_eq(walk_find(c, NULL, 0)->nbase, 5);
	ck_assert_double_eq_tol(walk_find(c, NULL, 0)->base, (double)want / 5, 1e-6);
	profdb_comparison_free(c);
	/* rank 1 has nothing: both sides empty */
	profdb_diff_opts_init(&o);
	o.filter.rank = 1;
	c = compare2(db, "a", "b", &o);
	ck_assert_uint_eq(c->nkernels, 0);
	profdb_comparison_free(c);
	/* by kind: one group holding all kernels */
	profdb_diff_opts_init(&o);
	o.by = "kind";
	c = compare2(db, "a", "b", &o);
	ck_assert_uint_eq(c->nkernels, 1);
	ck_assert_str_eq(walk_find(c, NULL, 0)->key, "kernel");
	ck_assert_double_eq_tol(walk_find(c, NULL, 0)->base, (double)sa.all / 20, 1e-6);
	profdb_comparison_free(c);
	profdb_close(db);
}
END_TEST

START_TEST(warnings_and_errors)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums s;
	struct profdb_diff_opts o;
	profdb_comparison *c = NULL;
	const char *base[1] = { "a" }, *next[1] = { "nope" };
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 9);
	sp.device = "[{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"}]";
	make_run(db, "a", &sp, &s);
	spec_init(&sp, 10);
	sp.device = "[{\"id\": 0, \"name\": \"NVIDIA H100 80GB HBM3\"}]";
	sp.nsteps = 10;
	make_run(db, "b", &sp, &s);
	spec_init(&sp, 11);
	sp.device = "[{\"id\": 0, \"name\": \"NVIDIA A100-SXM4-80GB\"}]";
	make_run(db, "c", &sp, &s);
	profdb_diff_opts_init(&o);
	c = compare2(db, "a", "b", &o);
	ck_assert_uint_eq(c->nwarnings, 2);
	ck_assert_str_eq(c->warnings[0], "base and new runs differ in device: NVIDIA A100-SXM4-80GB"
	                 " vs NVIDIA H100 80GB HBM3");
	ck_assert_str_eq(c->warnings[1], "base and new runs differ in repeats: 20 vs 10");
	profdb_comparison_free(c);
	c = compare2(db, "a", "c", &o);
	ck_assert_uint_eq(c->nwarnings, 0);
	profdb_comparison_free(c);
	/* errors */
	o.base_runs = base;
	o.nbase = 1;
	o.new_runs = next;
	o.nnew = 1;
	ck_assert_int_eq(profdb_compare(db, &c, &o), PROFDB_ENOTFOUND);
	ck_assert_str_eq(profdb_errmsg(db), "no run named 'nope'");
	ck_assert_ptr_null(c);
	next[0] = "b";
	o.by = "name+colour";
	ck_assert_int_eq(profdb_compare(db, &c, &o), PROFDB_EUSAGE);
	ck_assert_ptr_nonnull(strstr(profdb_errmsg(db), "unknown key 'colour'"));
	o.by = NULL;
	o.nnew = 0;
	ck_assert_int_eq(profdb_compare(db, &c, &o), PROFDB_EUSAGE);
	o.nnew = 1;
	o.alpha = 1.5;
	ck_assert_int_eq(profdb_compare(db, &c, &o), PROFDB_EUSAGE);
	profdb_close(db);
}
END_TEST

/* Count non-overlapping occurrences of needle. */
static int count(const char *hay, const char *needle)
{
	int n = 0;
	for (const char *p = strstr(hay, needle); p; p = strstr(p + strlen(needle), needle))
		n++;
	return n;
}

START_TEST(reports_and_table)
{
	profdb *db = NULL;
	struct spec sp;
	struct sums s;
	struct profdb_diff_opts o;
	profdb_comparison *c;
	profdb_result *r = NULL;
	char path[512];
	unsigned char *text;
	size_t len;
	FILE *f;
	ck_assert_int_eq(profdb_open(&db, ":memory:", 0), PROFDB_OK);
	spec_init(&sp, 21);
	make_run(db, "a", &sp, &s);
	spec_init(&sp, 22);
	sp.scale[1] = 1.3;
	sp.scale[0] = 0.6;
	sp.extra = "weird <name> & \"quotes\", |pipe|";
	sp.extra_steps = 20;
	sp.device = "[{\"name\": \"X\"}]";
	make_run(db, "b", &sp, &s);
	profdb_diff_opts_init(&o);
	c = compare2(db, "a", "b", &o);
	ck_assert_int_eq(profdb_comparison_table(c, &r, 1), PROFDB_OK);
	ck_assert_uint_eq(profdb_result_nrows(r), 5);
	ck_assert_str_eq(profdb_result_colname(r, 0), "name");
	ck_assert_str_eq(profdb_result_text(r, 0, 1), "regression"); /* B: largest change */
	ck_assert_int_eq(profdb_result_coltype(r, 2), PROFDB_COL_NS);
	ck_assert_uint_eq(profdb_result_nnotes(r), 1);
	profdb_result_free(r);

	snprintf(path, sizeof path, "%s/r.xml", tu_tmpdir());
	f = fopen(path, "w");
	ck_assert_int_eq(profdb_report_write(c, f, PROFDB_FMT_JUNIT), PROFDB_OK);
	fclose(f);
	text = tu_read_file(path, &len);
	ck_assert_int_eq(count((char *)text, "<testcase "), 5 + 4);
	/* B, and the whole-run device time and kernel count (+2 per step) */
	ck_assert_int_eq(count((char *)text, "<failure "), 3);
	ck_assert_ptr_nonnull(strstr((char *)text, "weird &lt;name&gt; &amp; &quot;quotes&quot;"));
	free(text);

	f = fopen(path, "w");
	ck_assert_int_eq(profdb_report_write(c, f, PROFDB_FMT_HTML), PROFDB_OK);
	fclose(f);
	text = tu_read_file(path, &len);
	ck_assert_ptr_nonnull(strstr((char *)text, "<svg "));
	ck_assert_ptr_nonnull(strstr((char *)text, "differ in device"));
	ck_assert_ptr_null(strstr((char *)text, "<script"));
	ck_assert_ptr_null(strstr((char *)text, "http"));
	free(text);

	f = fopen(path, "w");
	ck_assert_int_eq(profdb_report_write(c, f, PROFDB_FMT_MD), PROFDB_OK);
	fclose(f);
	text = tu_read_file(path, &len);
	ck_assert_ptr_nonnull(strstr((char *)text, "**1 regressions**, 1 improvements"));
	ck_assert_ptr_nonnull(strstr((char *)text, "\\|pipe\\|"));
	free(text);
	profdb_comparison_free(c);
	profdb_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("compare");
	TCase *tc = tcase_create("compare");
	tcase_add_test(tc, scaled_kernel_is_the_only_regression);
	tcase_add_test(tc, noise_flags_nothing);
	tcase_add_test(tc, one_step_is_inconclusive);
	tcase_add_test(tc, stepless_runs_pool_per_side);
	tcase_add_test(tc, new_gone_and_zero_steps);
	tcase_add_test(tc, filters_threshold_min_delta);
	tcase_add_test(tc, spooled_lines_equal_held);
	tcase_add_test(tc, warnings_and_errors);
	tcase_add_test(tc, reports_and_table);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

/*
 * compare.h - the layout of a run comparison (compare.c) for the files that
 * render it (report_*.c), and the two-sample statistics it uses
 * (stats_test.c).  Private to lib/ and the unit tests.
 */
#ifndef PROFDB_COMPARE_H
#define PROFDB_COMPARE_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

struct sqlite3_stmt;

/* One compared item: a kernel group or a whole-run figure. */
struct profdb__cmp_line {
	char *key;                 /* group key text, or the figure's name */
	enum profdb_verdict verdict;
	int is_count;              /* values are counts, not nanoseconds */
	double base, next;         /* mean per repeat on each side (ns or count); NaN: none */
	double base_calls, next_calls; /* calls per repeat (kernels); NaN for whole-run lines */
	double delta;              /* next - base */
	double rel;                /* delta / base; NaN when base is 0 or absent */
	double p;                  /* two-sided p-value; NaN when not tested */
	double ci_lo, ci_hi;       /* confidence interval of rel; NaN when none */
	size_t nbase, nnext;       /* samples per side */
	char why[128];             /* one line: why this verdict */
	int short_alpha;           /* inconclusive because its sample sizes cannot reach alpha */
};

struct profdb_comparison {
	char **base_runs, **new_runs; /* owned run names */
	size_t nbase, nnew;
	char *by;                  /* owned grouping key spec */
	enum profdb_diff_test test;
	double alpha, threshold, ci_level;
	int64_t min_delta_ns;
	int resamples;
	uint64_t seed;
	size_t top;                /* kernel table rows; 0: all */
	struct profdb__cmp_line *kernels; /* held: sorted by |delta| descending; NULL when spooled */
	size_t nkernels;           /* kernel lines, held or spooled */
	struct profdb__cmp_spooled *spooled; /* the kernel lines past the hold budget, or NULL */
	uint64_t hold_bytes;       /* that budget: the handle's hold_bytes (struct profdb_limits) */
	struct profdb__cmp_line *runs;    /* whole-run figures */
	size_t nruns;
	char **warnings;           /* comparability warnings, owned */
	size_t nwarnings;
	size_t nshort;             /* lines with short_alpha */
	char short_why[128];       /* the first one's why */
	profdb_result *mem_timeline[2]; /* --table memory: each side's memory --timeline, owned; or NULL */
};

/* One stored run as the comparison sees it. */
struct profdb__cmp_run {
	int64_t id, ranks;
	int64_t repeats;           /* the per-repeat divisor: run.repeats, or the
	                              selected steps under a step range */
	int stats;                 /* run.name_stats: kernel_step_stat is filled */
	int repeats_steps;         /* run.repeats are its profiler steps */
	const char *name;          /* borrowed from the comparison */
	char *format;              /* owned: run.format */
};

/*
 * Fill c->warnings with the ways the base side differs from the new side
 * (device, rank count, profiler config, versions, repeats, input format),
 * from run and run_meta (compare_meta.c).  rank: PROFDB_NULL or the one
 * rank compared.
 */
/*
 * A new comparison with o's settings (test, alpha, threshold, CI level,
 * minimum delta, resamples, seed), grouped by `by`, over copies of the run
 * names base[nbase] and next[nnext]; no lines yet.  NULL when out of
 * memory.  One constructor for the kernel, analysis-table and tag diffs.
 */
profdb_comparison *profdb__comparison_new(const profdb *db, const struct profdb_diff_opts *o, const char *by,
                                          const char *const *base, size_t nbase,
                                          const char *const *next, size_t nnext);
int profdb__compare_warnings(profdb *db, profdb_comparison *c, const struct profdb__cmp_run *base,
                             size_t nbase, const struct profdb__cmp_run *next, size_t nnext,
                             int64_t rank);

/* Append a warning (printf-style) to c.  PROFDB_OK or PROFDB_ERROR (memory). */
int profdb__compare_warn(profdb_comparison *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Count l if its sample sizes cannot reach alpha; once every line is
 * decided, one warning says how many (a table may hide the why column).
 * PROFDB_OK or PROFDB_ERROR (memory). */
void profdb__compare_note_short(profdb_comparison *c, const struct profdb__cmp_line *l);
int profdb__compare_warn_short(profdb_comparison *c);

/* Stable lower-case names: "regression", ..., "gone". */
const char *profdb__verdict_name(enum profdb_verdict v);
/* "Mann-Whitney U" / "Welch's t" and "mwu" / "welch". */
const char *profdb__test_title(enum profdb_diff_test t);
const char *profdb__test_name(enum profdb_diff_test t);

/*
 * The kernel lines in order (|delta| descending, then key), held in
 * c->kernels or spooled in a temporary table past the hold budget
 * (compare_lines.c): what every renderer reads, once or several times.
 * A walk started at line from; profdb__cmp_walk_next gives the next line
 * (valid until the next call) or NULL at the end or on an error
 * (w->err: PROFDB_ERROR).  Several walks may be open at once.
 */
struct profdb__cmp_walk {
	const profdb_comparison *c;
	size_t pos;                /* the next line's place */
	struct sqlite3_stmt *q;    /* spooled: the lines from pos on */
	struct profdb__cmp_line line; /* spooled: the current line */
	char *key;                 /* its key, owned */
	int err;
};
void profdb__cmp_walk_start(struct profdb__cmp_walk *w, const profdb_comparison *c, size_t from);
const struct profdb__cmp_line *profdb__cmp_walk_next(struct profdb__cmp_walk *w);
/* Close w; returns w->err (PROFDB_OK when every line was read). */
int profdb__cmp_walk_end(struct profdb__cmp_walk *w);

/*
 * Lines of a comparison as they are built (compare_merge.c): held in
 * c->kernels while they fit profdb__result_hold_budget(), then every one
 * spooled; profdb__cmp_lines_done sorts them (|delta|, key) either way.
 */
struct profdb__cmp_lines {
	profdb *db;
	profdb_comparison *c;
	size_t cap;                /* of c->kernels */
	uint64_t held;             /* bytes the held lines take, about */
	struct profdb__spool *spool; /* owned, once past the budget */
};
/* Add line l (its key owned by the lines from here).  Errors on db. */
int profdb__cmp_lines_add(struct profdb__cmp_lines *L, struct profdb__cmp_line *l);
/* Sort the lines; after it, walks read them.  Errors on db. */
int profdb__cmp_lines_done(struct profdb__cmp_lines *L);
/* Release what a failed build left (the comparison frees its lines). */
void profdb__cmp_lines_abort(struct profdb__cmp_lines *L);
/* The spooled lines' table dropped and their state freed (compare.c). */
void profdb__cmp_spooled_free(struct profdb__cmp_spooled *sp);
/* The store the spooled lines are kept in (a renderer's own spool). */
profdb *profdb__cmp_spooled_db(const struct profdb__cmp_spooled *sp);
/* Kernel lines of verdict v, counted as they were added. */
size_t profdb__cmp_spooled_count(const struct profdb__cmp_spooled *sp, enum profdb_verdict v);

/* Number text shared by the renderers (report.c): "" for NaN. */
void profdb__fmt_us(char *out, size_t cap, double ns);       /* "%.3f" microseconds */
void profdb__fmt_value(char *out, size_t cap, const struct profdb__cmp_line *l, double v);
                                                            /* us, or a count */
void profdb__fmt_pct(char *out, size_t cap, double frac);   /* "+12.34%" */
void profdb__fmt_ci(char *out, size_t cap, const struct profdb__cmp_line *l);
                                                            /* "[-1.00%, +2.00%]" */
void profdb__fmt_p(char *out, size_t cap, double p);        /* "0.00123" / "1.2e-07" */
/* "a, b" of run names (truncated to cap). */
void profdb__fmt_runs(char *out, size_t cap, char *const *runs, size_t n);


/* The rows profdb_comparison_table(c, flags) has, and a part of that
 * table: rows [from, to) (cut to those), the notes only when last
 * (report.c; compare_write.c writes a long table a part at a time). */
size_t profdb__comparison_shown(const profdb_comparison *c, unsigned flags);
int profdb__comparison_part(const profdb_comparison *c, profdb_result **out, unsigned flags,
                            size_t from, size_t to, int last);

/* Renderers (report_*.c).  Return PROFDB_OK or PROFDB_ERROR on write error. */
int profdb__report_md(const profdb_comparison *c, FILE *out);
int profdb__report_html(const profdb_comparison *c, FILE *out);
int profdb__report_json(const profdb_comparison *c, FILE *out);
int profdb__report_junit(const profdb_comparison *c, FILE *out);
int profdb__report_csv(const profdb_comparison *c, FILE *out);

/* ---------------------------------------------------------------- stats */

/*
 * Mann-Whitney U, two-sided, of samples x (n) against y (m).  *u gets U of
 * x (number of pairs with x > y, ties counting one half).  Exact null
 * distribution when there are no ties and n, m <= 50; otherwise the normal
 * approximation with tie and continuity correction.  Returns the p-value;
 * 1 when every value is tied; NaN when n or m is 0 or memory runs out.
 */
double profdb__mwu(const double *x, size_t n, const double *y, size_t m, double *u);

/* The smallest two-sided p-value the exact U test can give for n and m:
 * 2 / C(n+m, n) (capped at 1). */
double profdb__mwu_min_p(size_t n, size_t m);

/* Welch's unequal-variance t test, two-sided.  *t and *df may be NULL.
 * NaN when n or m < 2.  Zero variance on both sides: 1 if the means are
 * equal, else 0. */
double profdb__welch(const double *x, size_t n, const double *y, size_t m, double *t, double *df);

/* The same from summary statistics: means, sample variances and counts
 * (bench_diff.c: benchmark files that keep only those).  NaN when n or m
 * < 2 or a variance is NaN. */
double profdb__welch_summary(double mx, double vx, double n, double my, double vy, double m,
                             double *t, double *df);

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1. */
double profdb__ibeta(double a, double b, double x);

/* CDF of Student's t with df degrees of freedom. */
double profdb__t_cdf(double t, double df);

/* A small deterministic PRNG (splitmix64): same seed, same stream. */
uint64_t profdb__rand_next(uint64_t *state);

/*
 * Bootstrap percentile interval of mean(y)/mean(x) - 1 at level (e.g. 0.95)
 * with B resamples of both sides, seeded by seed.  With n and m both at
 * least PROFDB_BOOTSTRAP_MAX_N samples, the normal (delta method) interval
 * r - 1 +- z * se, se^2 = r^2 (var x / (n mx^2) + var y / (m my^2)), which
 * the bootstrap converges to, in one pass instead of B * (n + m) draws.
 * Returns 0 and sets *lo, *hi; -1 when n or m < 2, B < 1, the base mean
 * of every resample is 0, or memory runs out.
 */
#define PROFDB_BOOTSTRAP_MAX_N 1000
int profdb__bootstrap_rel(const double *x, size_t n, const double *y, size_t m,
                          int B, double level, uint64_t seed, double *lo, double *hi);

#endif

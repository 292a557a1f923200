/*
 * compare_state.h - what the files of profdb_compare share while it builds a
 * comparison: the sides, the per-key samples (compare_samples.c reads them
 * from the store) and the verdict lines built from them (compare_verdict.c).
 */
#ifndef PROFDB_COMPARE_STATE_H
#define PROFDB_COMPARE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include <sqlite3.h>

#include "compare.h"
#include "source.h"

/* Per side: its runs and where each run's samples start. */
struct profdb__compare_side {
	struct profdb__cmp_run *runs;
	size_t n;
	size_t *offset;            /* first sample of each run */
	int64_t **steps;           /* sorted step numbers per run; NULL: no steps */
	size_t *nsteps;
	size_t N;                  /* samples on this side */
	double repeats;            /* sum over runs of the per-repeat divisor */
	double *divisor;           /* per run: repeats, or selected steps */
	double *count;             /* N: kernels per sample */
	double *dev;               /* N: device time per sample, every key */
	int64_t dev_total;         /* sum of dur_ns of every key */
	double *cpu;               /* N: host self time per sample */
	int64_t cpu_total, ops;
	double *span;              /* step spans (max over ranks), nspan of them */
	size_t nspan, capspan;
	int64_t kernels;           /* kernel rows on this side */
	/* per run: its repeats are its profiler steps, so its device work
	 * outside every step is left out of the samples (out_n activities,
	 * out_ns of time) and noted apart, as kernels' per_repeat does */
	int *by_step;
	int64_t *out_n, *out_ns;
	int wall;                  /* every run a benchmark file's: a row is one repeat of its key */
};

/* One comparison being built: both sides.  Keys are read one at a time
 * in key order (compare_merge.c): memory holds one key's samples, not
 * every key's (100 k names x 1 000 steps would be 1.6 GB). */
struct profdb__compare_state {
	profdb *db;
	const struct profdb_diff_opts *o;
	struct profdb__compare_side side[2];   /* base, new */
	int key_in_step_stat;          /* the key's parts are kernel_step_stat columns */
	int by_op;                     /* --by op: the keys are operators' figures */
	size_t rows_left, bytes_left;  /* what the cursors may still hold in memory
	                                  (compare_rows.c: one budget for every run) */
	struct profdb__kprefetch *prefetch; /* owned: the runs' rows the source
	                                  fetched at once, until their cursors take them */
	struct profdb__rel rel;        /* what the source prepared (source.h) */
};

/* compare_samples.c: keys, runs and their steps, samples from the store */
int profdb__compare_key_sql(profdb *db, const char *by, char *out, size_t cap, int *in_step_stat);
/* The rank and step filter of f over a run's rows (?1 the run id): the
 * WHERE text after "run_id = ?1", and its binding of ?2 .. ?4. */
#define COMPARE_RANK_STEP_WHERE " AND (?2 IS NULL OR rank = ?2) AND (?3 IS NULL OR step >= ?3)" \
                                " AND (?4 IS NULL OR step <= ?4)"
void profdb__compare_bind_filter(sqlite3_stmt *q, const struct profdb_filter *f);
/* FNV-1a of a key: seeds its bootstrap (compare_verdict.c) */
uint64_t profdb__compare_fnv(const char *s);
int profdb__compare_side_init(profdb *db, const struct profdb_filter *f, struct profdb__compare_side *sd,
                      const char *const *names, size_t n);
void profdb__compare_side_free(struct profdb__compare_side *sd);
/* The kernels of run i of side si as rows (key text, step, sum of ns,
 * count) in key order; *out is the caller's (sqlite3_finalize). */
int profdb__compare_kernel_cursor(struct profdb__compare_state *s, sqlite3_stmt **out, int si, size_t i,
                                  const char *keyexpr);
/* compare_rows.c: one run's kernel sums per key and step in key order,
 * from that SQL cursor or held in memory (keys of kernel_step_stat's
 * columns); the current row in key .. calls while live. */
struct profdb__krow {
	uint32_t key;              /* rank of the key text in keys */
	uint32_t has_step;         /* 0: outside every step (NULL) */
	int64_t step, sum, calls;
};
struct profdb__kcursor {
	sqlite3_stmt *q;           /* the SQL cursor, or NULL: rows */
	struct profdb__krow *rows; /* owned, nrows, ordered by key then step */
	size_t nrows, at;
	char **keys;               /* owned, nkeys, ascending (strcmp) */
	size_t nkeys;
	int live, started;
	const char *key;
	int has_step;
	int64_t step, sum, calls;
	size_t step_hint;          /* profdb__compare_add_row: the last step's index */
};
/* Open and place c on its first row (c->live 0 when none). */
int profdb__kcursor_open(struct profdb__compare_state *s, int si, size_t i, const char *keyexpr,
                         struct profdb__kcursor *c);
/* When kernel_step_stat stays with the source (rel.kstep_load) the first
 * cursor opened fetches every run's rows at once, in parallel, through
 * the source's kstep_load into s->prefetch; each later cursor takes its run's.  Free what was not
 * taken (a no-op when nothing was fetched). */
void profdb__kcursor_prefetch_free(struct profdb__compare_state *s);
/* The next row: 0, or -1 when SQLite failed (its message on the db). */
int profdb__kcursor_next(struct profdb__kcursor *c);
void profdb__kcursor_close(struct profdb__kcursor *c);
/* Add the current row of such a cursor to samp (side si's N samples), its
 * calls to calls (N), and the side's kernel counts: 1; or 0 when the row
 * is outside every step of a run whose repeats are its steps (counted in
 * out_n and out_ns only). */
int profdb__compare_add_row(struct profdb__compare_state *s, int si, size_t i,
                             struct profdb__kcursor *c, double *samp, double *calls);
int profdb__compare_read_host(struct profdb__compare_state *s, int si, size_t i);

/* bench_diff.c: sides named tag:KEY=VALUE, or --by tag:KEY (per API) */
int profdb__bench_diff_wanted(const struct profdb_diff_opts *o);
int profdb__bench_compare(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o);

/* compare_verdict.c: the kernel lines and the whole-run lines of c, and
 * the verdict of one line (also for bench_diff.c's per-API lines) */
void profdb__compare_decide(const struct profdb_comparison *c, struct profdb__cmp_line *l,
                    const double *x, size_t nx, const double *y, size_t ny,
                    int in_base, int in_next, int use_min_delta, double p_given);
/* compare_merge.c: c->kernels, one line per key, keys merged in order */
int profdb__compare_merge_kernels(struct profdb__compare_state *s, profdb_comparison *c, const char *keyexpr);
int profdb__compare_build_runs(struct profdb__compare_state *s, profdb_comparison *c);

#endif

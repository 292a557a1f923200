/*
 * compare_state.h - what the files of profdb_compare share while it builds a
 * comparison: the sides, the per-key samples (compare_samples.c reads them
 * from the store) and the verdict lines built from them (compare_verdict.c).
 */
#ifndef PROFDB_COMPARE_STATE_H
#define PROFDB_COMPARE_STATE_H

#include <stddef.h>
#include <stdint.h>

#include "compare.h"

/* One grouping key's kernels on both sides. */
struct compare_key {
	char *text;                /* owned key text */
	uint64_t hash;
	double *samp[2];           /* per side: N samples (ns per step or per repeat) */
	int64_t total[2];          /* sum of dur_ns per side */
	int64_t calls[2];          /* kernels per side */
};

/* Per side: its runs and where each run's samples start. */
struct compare_side {
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

/* One comparison being built: both sides and the keys seen. */
struct compare_state {
	profdb *db;
	const struct profdb_diff_opts *o;
	struct compare_side side[2];   /* base, new */
	struct compare_key *slots;     /* open addressing, power of two */
	size_t nslots, nkeys;
	int key_in_step_stat;          /* the key's parts are kernel_step_stat columns */
};

/* compare_samples.c: keys, runs and their steps, samples from the store */
int compare_key_sql(profdb *db, const char *by, char *out, size_t cap, int *in_step_stat);
uint64_t compare_fnv(const char *s);
int compare_grow_keys(struct compare_state *s);
int compare_side_init(profdb *db, const struct profdb_filter *f, struct compare_side *sd,
                      const char *const *names, size_t n);
void compare_side_free(struct compare_side *sd);
int compare_read_kernels(struct compare_state *s, int si, size_t i, const char *keyexpr);
int compare_read_host(struct compare_state *s, int si, size_t i);

/* bench_diff.c: sides named tag:KEY=VALUE, or --by tag:KEY (per API) */
int profdb__bench_diff_wanted(const struct profdb_diff_opts *o);
int profdb__bench_compare(profdb *db, profdb_comparison **out, const struct profdb_diff_opts *o);

/* compare_verdict.c: the kernel lines and the whole-run lines of c, and
 * the verdict of one line (also for bench_diff.c's per-API lines) */
void compare_decide(const struct profdb_comparison *c, struct profdb_cmp_line *l,
                    const double *x, size_t nx, const double *y, size_t ny,
                    int in_base, int in_next, int use_min_delta, double p_given);
int compare_build_kernels(struct compare_state *s, profdb_comparison *c);
int compare_build_runs(struct compare_state *s, profdb_comparison *c);

#endif

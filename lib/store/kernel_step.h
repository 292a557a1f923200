/*
 * kernel_step.h - a kernel's step through its launch, known when its row
 * is written (kernel_step.c), so that the commit's UPDATE of every such
 * kernel row (a rewrite of every such row, else) has nothing left to
 * rewrite.  The commit checks that the guesses are what the UPDATE would
 * compute and, if not, sets them back to NULL first.
 */
#ifndef PROFDB_KERNEL_STEP_H
#define PROFDB_KERNEL_STEP_H

#include <stddef.h>
#include <stdint.h>

#include "step_index.h"

/* One file's recent runtime calls and what it takes to trust them
 * (kernel_step.c).  Zero-initialise; profdb__kstep_file_end frees it. */
struct profdb__kstep_file {
	struct profdb__kstep_call *cache; /* direct-mapped by correlation id; owned */
	unsigned char *bits;       /* correlation ids seen, from base; owned */
	size_t nbytes;
	int64_t base, lo, hi;      /* bits' first id (a multiple of 8); ids seen */
	int64_t rank;              /* of its calls */
	int ncalls_any;            /* a call was seen */
	struct profdb__step_span *spans; /* its ProfilerStep#N ops, merged by step; owned */
	size_t nspans, capspans;
	int64_t span_rank;
	uint64_t span_version;     /* bumped when spans change */
	struct profdb__step_segs segs; /* the set its kernels are placed with; owned */
	struct profdb__step_span *set; /* owned: that set (seg_n spans) */
	int segs_built, seg_checked; /* seg_checked: uses[use] holds a copy of segs */
	size_t use;
	int64_t seg_rank;
	uint64_t seg_rv, seg_fv;   /* the versions segs were built at */
	size_t seg_n;              /* spans in segs (0: no segments) */
	int doubt;                 /* a repeated id, a second rank, ids too far apart */
	int guessed;               /* a kernel of the file took a step here */
};

/* The run's: host step spans per rank as the step table has them, and
 * the launch id ranges of the files that ended. */
struct profdb__kstep;

/* CONSTRUCTOR.  NULL when out of memory. */
/* seg_work: spans rebuilt into segments before the guesses stop
 * (kstep_seg_work of struct profdb_limits). */
struct profdb__kstep *profdb__kstep_new(uint64_t seg_work_max);
/* DESTRUCTOR.  NULL is a no-op. */
void profdb__kstep_free(struct profdb__kstep *k);
/* A step row as the store wrote it (merged into an existing one as its
 * ON CONFLICT clause does).  0, or -1 out of memory. */
int profdb__kstep_step(struct profdb__kstep *k, int64_t rank, int64_t step, int64_t start, int64_t end);
/* The step table of the run as written so far, as profdb__step_index_load
 * would read it: for callers that must not wait for the rows to be in
 * (store_async.c).  SQLite result code (SQLITE_NOMEM). */
int profdb__kstep_index(const struct profdb__kstep *k, struct profdb__step_index **out);
/* A ProfilerStep#N op of file f (the step record its reader sends, now
 * or when the file ends).  0, or -1 out of memory. */
int profdb__kstep_file_step(struct profdb__kstep_file *f, int64_t rank, int64_t step, int64_t start, int64_t end);
/* A runtime call of file f.  If a kernel of f with its rank and id came
 * just before it (still waiting), *kid is its row id and *step the step
 * it takes (PROFDB_NULL: none); else *kid is 0.  0, or -1 out of memory. */
int profdb__kstep_launch(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t rank, int64_t corr,
                        int64_t start, int64_t *kid, int64_t *step);
/* Into *step, the step of kernel row kid of file f without one (rank,
 * correlation id): that of its runtime call if f's call is still cached
 * and a step holds it, else PROFDB_NULL (the commit's UPDATE places it,
 * unless its call comes next: profdb__kstep_launch).  0, or -1 out of
 * memory. */
int profdb__kstep_guess(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t rank, int64_t corr,
                       int64_t kid, int64_t *step);
/* f's rows moved from rank guessed to rank (rank_fixup). */
void profdb__kstep_fixup(struct profdb__kstep *k, struct profdb__kstep_file *f, int64_t guessed, int64_t rank);
/* f has ended: its calls' id range is kept, its buffers freed.  0, or -1
 * out of memory. */
int profdb__kstep_file_end(struct profdb__kstep *k, struct profdb__kstep_file *f);
/* Free f's buffers, ended or not. */
void profdb__kstep_file_free(struct profdb__kstep_file *f);
/* At commit: whether every step guessed is what "the smallest step of the
 * launches with the kernel's rank and correlation id" gives on the final
 * tables: the final step spans place the guessed call times as the spans
 * at the time did, no (rank, correlation) has two launches.  1 yes, 0 no. */
int profdb__kstep_valid(struct profdb__kstep *k);

#endif /* PROFDB_KERNEL_STEP_H */

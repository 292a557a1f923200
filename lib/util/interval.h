/*
 * interval.h - set algebra on device time intervals (interval.c): merge a
 * list into its union, the length of a union, the overlap of two unions,
 * and the time breakdown built from them.  One implementation for steps'
 * busy time (stats.c), verify's step_trace_time check and profdb
 * breakdown, so the three agree by construction.  Private to lib/ and the
 * tests.
 */
#ifndef PROFDB_INTERVAL_H
#define PROFDB_INTERVAL_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

/*
 * Sort iv by start and merge it in place into disjoint intervals in start
 * order (overlapping or touching intervals join; empty or negative ones are
 * dropped).  Returns the number of merged intervals (<= n).
 */
size_t profdb__ivals_merge(struct profdb__interval *iv, size_t n);
/* Total length of merged intervals. */
int64_t profdb__ivals_length(const struct profdb__interval *iv, size_t n);
/* Length of the intersection of two merged lists. */
int64_t profdb__ivals_overlap(const struct profdb__interval *a, size_t na,
                              const struct profdb__interval *b, size_t nb);
/* Length of the intersection of merged a with [lo, hi), for queries made in
 * ascending lo: *cursor (start at 0) keeps where the last one began, so a
 * sweep of many queries is linear, not quadratic. */
int64_t profdb__ivals_overlap_at(const struct profdb__interval *a, size_t na, size_t *cursor,
                                 int64_t lo, int64_t hi);
/* The same for one query in any order: a bisection finds the first interval
 * of a ending after lo, so each query costs log(na) plus the intervals it
 * meets (profdb launches --by step asks once per step, steps in any order). */
int64_t profdb__ivals_overlap_one(const struct profdb__interval *a, size_t na, int64_t lo, int64_t hi);
/* The union of two merged lists into out (room for na + nb), merged;
 * returns its count. */
size_t profdb__ivals_union(struct profdb__interval *out, const struct profdb__interval *a, size_t na,
                           const struct profdb__interval *b, size_t nb);

/* The time breakdown of one rank's device activities (ns); doc/analyses.md
 * "breakdown" defines each figure. */
struct profdb__breakdown {
	int64_t compute;           /* |C|: union of compute kernels (kernel, other) */
	int64_t comm;              /* |M|: union of communication kernels */
	int64_t memory;            /* |Y|: union of memcpy and memset */
	int64_t compute_comm;      /* |C n M| */
	int64_t compute_memory;    /* |C n Y| */
	int64_t comm_memory;       /* |M n Y| */
	int64_t exposed_comm;      /* |M| - |C n M|: communication nothing computes under */
	int64_t exposed_memory;    /* |Y| - |Y n (C u M)| */
	int64_t busy;              /* |C u M u Y| */
};

/*
 * Compute b from the three merged lists; scratch has room for nc + nm
 * intervals.  Pure arithmetic: no allocation, cannot fail.
 */
void profdb__breakdown_figures(struct profdb__breakdown *b,
                               const struct profdb__interval *c, size_t nc,
                               const struct profdb__interval *m, size_t nm,
                               const struct profdb__interval *y, size_t ny,
                               struct profdb__interval *scratch);

#endif

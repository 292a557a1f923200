/*
 * lower_bound.h - the one bisection of lib/: the sorted arrays it searches
 * (step spans, rank groups, links by correlation, unions of busy time)
 * differ in element and key, so it takes the comparison as an expression
 * rather than a callback, which keeps the ingest's per-kernel lookups
 * free of an indirect call.  Private to lib/ and the tests.
 */
#ifndef PROFDB_LOWER_BOUND_H
#define PROFDB_LOWER_BOUND_H

#include <stddef.h>

/*
 * pos = the first index i in [first, last) at which the expression before
 * is false, or last when there is none.  before reads the index through
 * the name i and must be true on a prefix of the range and false on the
 * rest: "a[i] < key" on an ascending array gives the first element not
 * below key (a lower bound), "a[i] <= key" the first above it (an upper
 * bound).  i is declared by the macro; each argument is evaluated once,
 * before at most about log2(last - first) + 1 times.
 */
#define PROFDB__LOWER_BOUND(pos, first, last, i, before)                     \
	do {                                                                 \
		size_t lb_lo_ = (first), lb_hi_ = (last);                    \
		while (lb_lo_ < lb_hi_) {                                    \
			size_t i = lb_lo_ + (lb_hi_ - lb_lo_) / 2;           \
			if (before)                                          \
				lb_lo_ = i + 1;                              \
			else                                                 \
				lb_hi_ = i;                                  \
		}                                                            \
		(pos) = lb_lo_;                                              \
	} while (0)

#endif

/*
 * interval.c - union, length and overlap of device time intervals, and
 * the time breakdown (compute / communication / memory, their overlaps,
 * exposed and busy time) of one rank built from them.  Definitions in
 * interval.h and doc/analyses.md "Analyses".
 */
#include <stdlib.h>

#include "interval.h"
#include "lower_bound.h"
#include "banned.h"

static int cmp_interval(const void *a, const void *b)
{
	const struct profdb__interval *x = a, *y = b;
	if (x->start != y->start)
		return x->start < y->start ? -1 : 1;
	return x->end < y->end ? -1 : x->end > y->end ? 1 : 0;
}

size_t profdb__ivals_merge(struct profdb__interval *iv, size_t n)
{
	size_t m = 0;

	if (n > 1)
		qsort(iv, n, sizeof *iv, cmp_interval);
	for (size_t i = 0; i < n; i++) {
		if (iv[i].end <= iv[i].start)
			continue;
		/* touching intervals join: the device had no gap there */
		if (m > 0 && iv[i].start <= iv[m - 1].end) {
			if (iv[i].end > iv[m - 1].end)
				iv[m - 1].end = iv[i].end;
		} else {
			iv[m++] = iv[i];
		}
	}
	return m;
}

int64_t profdb__ivals_length(const struct profdb__interval *iv, size_t n)
{
	int64_t t = 0;
	for (size_t i = 0; i < n; i++)
		t += iv[i].end - iv[i].start;
	return t;
}

int64_t profdb__ivals_overlap(const struct profdb__interval *a, size_t na,
                              const struct profdb__interval *b, size_t nb)
{
	size_t i = 0, j = 0;
	int64_t t = 0;
	while (i < na && j < nb) {
		int64_t lo = a[i].start > b[j].start ? a[i].start : b[j].start;
		int64_t hi = a[i].end < b[j].end ? a[i].end : b[j].end;
		if (hi > lo)
			t += hi - lo;
		if (a[i].end < b[j].end)
			i++;
		else
			j++;
	}
	return t;
}

int64_t profdb__ivals_overlap_at(const struct profdb__interval *a, size_t na, size_t *cursor,
                                 int64_t lo, int64_t hi)
{
	int64_t t = 0;
	size_t i;
	while (*cursor < na && a[*cursor].end <= lo)
		(*cursor)++;
	for (i = *cursor; i < na && a[i].start < hi; i++) {
		int64_t s = a[i].start > lo ? a[i].start : lo, e = a[i].end < hi ? a[i].end : hi;
		if (e > s)
			t += e - s;
	}
	return t;
}

int64_t profdb__ivals_overlap_one(const struct profdb__interval *a, size_t na, int64_t lo, int64_t hi)
{
	size_t first;
	/* merged intervals are disjoint in start order, so their ends ascend */
	PROFDB__LOWER_BOUND(first, 0, na, i, a[i].end <= lo);
	return profdb__ivals_overlap_at(a, na, &first, lo, hi);
}

size_t profdb__ivals_union(struct profdb__interval *out, const struct profdb__interval *a, size_t na,
                           const struct profdb__interval *b, size_t nb)
{
	size_t i = 0, j = 0, m = 0;
	/* both inputs are sorted: a two-way merge by start, joining as we go */
	while (i < na || j < nb) {
		struct profdb__interval x = (j >= nb || (i < na && a[i].start <= b[j].start)) ? a[i++] : b[j++];
		if (m > 0 && x.start <= out[m - 1].end) {
			if (x.end > out[m - 1].end)
				out[m - 1].end = x.end;
		} else {
			out[m++] = x;
		}
	}
	return m;
}

void profdb__breakdown_figures(struct profdb__breakdown *b,
                               const struct profdb__interval *c, size_t nc,
                               const struct profdb__interval *m, size_t nm,
                               const struct profdb__interval *y, size_t ny,
                               struct profdb__interval *scratch)
{
	size_t ncm;

	b->compute = profdb__ivals_length(c, nc);
	b->comm = profdb__ivals_length(m, nm);
	b->memory = profdb__ivals_length(y, ny);
	b->compute_comm = profdb__ivals_overlap(c, nc, m, nm);
	b->compute_memory = profdb__ivals_overlap(c, nc, y, ny);
	b->comm_memory = profdb__ivals_overlap(m, nm, y, ny);
	b->exposed_comm = b->comm - b->compute_comm;
	ncm = profdb__ivals_union(scratch, c, nc, m, nm);
	b->exposed_memory = b->memory - profdb__ivals_overlap(y, ny, scratch, ncm);
	b->busy = profdb__ivals_length(scratch, ncm) + b->exposed_memory;
}

/*
 * huge_pages.c - ask the kernel to back a large array with 2 MB pages.
 *
 * Why: a diff of two 10 M-kernel runs on a clickhouse:// snapshot holds
 * 2 x 18 MB of per-step rows written once, in order (compare_rows.c).
 * With 4 KB pages that is 9 000 page faults and as many TLB misses, and
 * on a virtualised machine the store into each new page is the hottest
 * instruction of the whole diff; transparent huge pages take most of
 * that away (bench/results.md).  Kernels set to "madvise" (Debian's
 * default) give huge pages only to ranges that ask, so an array allocated
 * at its full size asks here (one grown by realloc and advised after each
 * doubling faults more, not less: the pages move).  Only whole 2 MB-aligned
 * pieces inside the array are advised, so nothing outside it changes; where there is
 * no madvise or no MADV_HUGEPAGE it does nothing, and a refusal is
 * harmless (the pages stay small).
 */
#include <stdint.h>

#include "internal.h"

#if defined(__linux__)
#include <sys/mman.h>
#endif
#include "banned.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

void profdb__huge_pages(void *p, size_t bytes)
{
#if defined(__linux__) && defined(MADV_HUGEPAGE)
	uintptr_t lo = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + bytes) & ~(HUGE_PAGE - 1);
	if (p && hi > lo)
		(void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE);
#else
	(void)p;
	(void)bytes;
#endif
}

/*
 * kernels_held.c - a file's kernels as its links need them: their ids kept
 * in memory, and, for an old trace, their rows held in their batch until
 * the links are known.
 *
 * Why: a file whose device events carry correlation ids as External ids
 * has every kernel's External id rewritten from its links when it ends
 * (op_link.c).  With the ids kept, the links, the correlation-id test and
 * the ops' device times need no read of the kernel table; with the rows
 * held, they go in rewritten, not rewritten by an UPDATE of each row on
 * the insert thread after (0.12 s of its 1.1 s on 8 x HTA's control
 * trace; bench/results.md).  What does not fit (past link_calls_max ids,
 * half the held ops' budget of rows, a rank fix-up, several readers) takes
 * the table's way as before.
 */
#include <stdlib.h>

#include "internal.h"
#include "columns.h"
#include "store_impl.h"
#include "store_batch.h"
#include "banned.h"

/* The kernel's ids for the file's links and device times (store_impl.h). */
int profdb__store_kernel_ids(struct profdb_store *st, const struct profdb_kernel_rec *k)
{
	struct profdb__source_state *c = &st->src;
	if (k->external_id != PROFDB_NULL && k->correlation != PROFDB_NULL) {
		c->kext_equal |= k->external_id == k->correlation;
		c->kext_differ |= k->external_id != k->correlation;
	}
	/* only a file whose ops are held uses them (ops_held.c) */
	if (!c->kids_off &&
	    (c->opn.hold_off || c->opn.unsorted || c->nkids >= (size_t)st->db->limits.link_calls_max)) {
		c->kids_off = 1;
		free(c->kids);
		c->kids = NULL;
		c->capkids = c->nkids = 0;
	}
	if (c->kids_off)
		return PROFDB_OK;
	if (c->nkids == c->capkids) {
		size_t cap = c->capkids ? c->capkids * 2 : 1024;
		struct profdb__kernel_ids *v;
		if (!(v = realloc(c->kids, cap * sizeof *v)))
			return profdb__err_set(&st->err, PROFDB_ERROR, "out of memory");
		c->kids = v;
		c->capkids = cap;
	}
	c->kids[c->nkids++] = (struct profdb__kernel_ids){ k->rank == PROFDB_NULL ? 0 : k->rank, k->correlation,
	                                                    k->external_id, k->dur_ns };
	return PROFDB_OK;
}

int profdb__store_kernels_held(const struct profdb_store *st)
{
	const struct profdb__source_state *c = &st->src;
	return c->khold == 1 && !c->kids_off && c->nkids == (size_t)c->nkernels &&
	       profdb__batch_pending(st->kernels) == (size_t)c->nkernels;
}

void profdb__store_kernels_patch(struct profdb_store *st)
{
	const struct profdb__source_state *c = &st->src;
	for (size_t i = 0; i < c->nkids; i++)
		profdb__batch_set(st->kernels, i, KERNEL_COL_EXTERNAL_ID, c->kids[i].ext);
}

int profdb__store_kernels_release(struct profdb_store *st)
{
	if (st->src.khold != 1)
		return PROFDB_OK;
	st->src.khold = -1;
	profdb__batch_hold(st->kernels, 0);
	return profdb__store_hand_over(st, 1);
}

/*
 * A file's kernels that carry correlation ids as External ids (its first
 * one says so) will have them rewritten from its links when it ends
 * (op_link.c): held in their batch until then (up to half the held ops'
 * budget), they go in rewritten, not rewritten by an UPDATE after.  Only
 * when the file's ops are held (its links are found in memory then); the
 * batch holds this file's rows only, files being stored one at a time.
 */
int profdb__store_kernels_hold(struct profdb_store *st, const struct profdb_kernel_rec *k)
{
	struct profdb__source_state *c = &st->src;
	if (c->khold == 1 && profdb__batch_pending(st->kernels) != (size_t)c->nkernels) {
		c->khold = -1; /* past the budget, or flushed: the UPDATE then */
		profdb__batch_hold(st->kernels, 0);
	}
	if (c->khold != 0)
		return PROFDB_OK;
	c->khold = -1;
	if (c->opn.hold_off || c->opn.unsorted || !c->id || k->external_id == PROFDB_NULL ||
	    k->external_id != k->correlation)
		return PROFDB_OK;
	if (profdb__store_hand_over(st, 1) != PROFDB_OK) /* the batch: this file's rows only */
		return st->err.code;
	profdb__batch_hold(st->kernels, (size_t)st->db->limits.ops_held_bytes / 2);
	c->khold = 1;
	return PROFDB_OK;
}


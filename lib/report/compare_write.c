/*
 * compare_write.c - a comparison's table written a part at a time.
 *
 * Why: as one profdb_result, the kernel table of 100 k keys took 45 MB of
 * cells and 12 MB of their texts beside the comparison's own 30 MB of
 * lines (diff_100k peaked at 126 MB).  The lines are held anyway (they
 * are sorted by |delta| before the first is written), so a long table is
 * built and written PART_ROWS rows at a time from them: csv and json as
 * they come, a table or md along a layout (format.h, profdb__fmt_plan)
 * from a first pass over the same parts.  The bytes are those of the
 * whole table (result_write.c's writers, the ones `kernels` streams
 * with); a table shorter than the hold budget is written whole, as ever.
 */
#include <stdio.h>
#include <stdlib.h>

#include "compare/compare.h"
#include "format.h"
#include "query/result.h"
#include "banned.h"

#define PART_ROWS 1024 /* rows held between writes */
/* Bytes r's rows take, about, as result_write.c counts a held row. */
static uint64_t held_bytes(const profdb_result *r)
{
	uint64_t n = 0;
	for (size_t i = 0; i < r->nrows; i++)
		n += profdb__result_row_bytes(r, i);
	return n;
}

/* Rows [from, from + PART_ROWS) of the table written as a part through
 * write (r->plan borrowed from plan when not NULL). */
static int write_part(const profdb_comparison *c, unsigned flags, size_t from, size_t n,
                      profdb__part_fn write, struct profdb__fmt_plan *plan, FILE *out,
                      const struct profdb_format_opts *fmt)
{
	profdb_result *r = NULL;
	size_t to = n - from > PART_ROWS ? from + PART_ROWS : n;
	unsigned part = (from == 0 ? PROFDB__PART_FIRST : 0) | (to == n ? PROFDB__PART_LAST : 0);
	int rc = profdb__comparison_part(c, &r, flags, from, to, to == n);
	if (rc != PROFDB_OK)
		return rc;
	r->plan = plan;
	rc = write(r, out, fmt, part, from);
	r->plan = NULL; /* the caller's */
	profdb_result_free(r);
	return rc;
}

/* The first pass of a table or md: every part folded into a layout. */
static int plan_parts(const profdb_comparison *c, unsigned flags, size_t n,
                      const struct profdb_format_opts *fmt, struct profdb__fmt_plan **out)
{
	profdb_result *r = NULL;
	int rc = PROFDB_OK;
	*out = NULL;
	for (size_t from = 0; from < n && rc == PROFDB_OK; from += PART_ROWS) {
		size_t to = n - from > PART_ROWS ? from + PART_ROWS : n;
		if ((rc = profdb__comparison_part(c, &r, flags, from, to, 0)) != PROFDB_OK)
			break;
		if (!*out && profdb__fmt_plan_new(out, r->ncols) != PROFDB_OK)
			rc = PROFDB_ERROR;
		if (rc == PROFDB_OK)
			rc = profdb__fmt_plan_add(*out, r);
		/* the types of every part are the table's: fixed on the last */
		if (rc == PROFDB_OK && to == n)
			profdb__fmt_plan_fix(*out, r, fmt);
		profdb_result_free(r);
	}
	if (rc != PROFDB_OK) {
		profdb__fmt_plan_free(*out);
		*out = NULL;
	}
	return rc;
}

/* Written whole: the table profdb_comparison_table gives. */
static int write_whole(const profdb_comparison *c, FILE *out, const struct profdb_format_opts *fmt,
                       unsigned flags)
{
	profdb_result *r = NULL;
	int rc = profdb_comparison_table(c, &r, flags);
	if (rc == PROFDB_OK)
		rc = profdb_result_write(r, out, fmt);
	profdb_result_free(r);
	return rc;
}

int profdb_comparison_write(const profdb_comparison *c, FILE *out, const struct profdb_format_opts *fmt,
                            unsigned flags)
{
	uint64_t budget = c->hold_bytes;
	const struct profdb__writer *w = profdb__writer(fmt->format);
	int layout = w && w->write_planned;
	profdb__part_fn write = !w ? NULL : layout ? w->write_planned : w->write_part;
	size_t n = profdb__comparison_shown(c, flags);
	struct profdb__fmt_plan *plan = NULL;
	profdb_result *first = NULL;
	uint64_t about;
	int rc;

	if (!write || n <= PART_ROWS) /* a json object; or one part anyway */
		return write_whole(c, out, fmt, flags);
	/* the whole table's size from its first part's */
	if ((rc = profdb__comparison_part(c, &first, flags, 0, PART_ROWS, 0)) != PROFDB_OK)
		return rc;
	about = held_bytes(first) / PART_ROWS * n;
	profdb_result_free(first);
	if (about <= budget)
		return write_whole(c, out, fmt, flags);
	if (layout && (rc = plan_parts(c, flags, n, fmt, &plan)) != PROFDB_OK)
		return rc;
	for (size_t from = 0; from < n && rc == PROFDB_OK; from += PART_ROWS)
		rc = write_part(c, flags, from, n, write, plan, out, fmt);
	profdb__fmt_plan_free(plan);
	return rc;
}

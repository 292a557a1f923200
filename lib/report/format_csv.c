/*
 * format_csv.c - results as CSV (RFC 4180): a header row, then one line per
 * row; fields with a comma, quote, CR, LF or edge space are quoted, quotes
 * doubled.  Times are exact decimals in the unit (default us, suffix in
 * the column name); NULL is an empty field.  Notes are not written: the
 * output stays one table.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "escape.h"
#include "format.h"
#include "util/utf8.h"
#include "banned.h"

int profdb__write_csv_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                           unsigned part, size_t before)
{
	size_t ncols = profdb_result_ncols(r);
	char buf[512];

	(void)before;
	for (size_t c = 0; (part & PROFDB__PART_FIRST) && c < ncols; c++) {
		profdb__fmt_header(r, c, profdb__fmt_unit(r, c, opts, 0), 0, buf, sizeof buf);
		if (c)
			fputc(',', out);
		profdb__csv_field(out, buf);
	}
	if (part & PROFDB__PART_FIRST)
		fputc('\n', out);
	for (size_t row = 0; row < profdb_result_nrows(r); row++) {
		for (size_t c = 0; c < ncols; c++) {
			/* machine units never depend on the values: no column scan */
			int k = profdb__fmt_cell(r, row, c, profdb__fmt_unit(r, c, opts, 0), 0, buf, sizeof buf);
			if (c)
				fputc(',', out);
			profdb__csv_field(out, k == 2 ? profdb_result_text(r, row, c) : buf);
		}
		fputc('\n', out);
	}
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

int profdb__write_csv(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	return profdb__write_csv_part(r, out, opts, PROFDB__PART_FIRST | PROFDB__PART_LAST, 0);
}

/*
 * format_md.c - results as a GitHub-flavoured Markdown table for reports
 * and issues: units in the header (chosen per column like the text table),
 * numbers right-aligned, '|' escaped, line breaks as spaces, NULL empty,
 * names never shortened.  Notes follow as a paragraph.
 */
#include <stdlib.h>

#include "internal.h"
#include "format.h"
#include "util/utf8.h"
#include "banned.h"

static void put_text(FILE *out, const char *text)
{
	char *tmp;
	const char *s = profdb__utf8_safe(text, &tmp);
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r' || *s == '\t')
			fputc(' ', out);
		else
			fputc(*s, out);
	}
	free(tmp);
}

int profdb__write_md_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                          unsigned part, size_t before)
{
	size_t ncols = profdb_result_ncols(r);
	enum profdb_unit *units = calloc(ncols + 1, sizeof *units);
	int *human = calloc(ncols + 1, sizeof *human);
	char buf[512];

	(void)before;
	if (!units || !human) {
		free(units);
		free(human);
		return PROFDB_ERROR;
	}
	for (size_t c = 0; c < ncols; c++) {
		units[c] = profdb__fmt_unit(r, c, opts, 1);
		human[c] = 1 + (profdb_result_coltype(r, c) == PROFDB_COL_NS ?
		                profdb__fmt_decimals(r, c, units[c]) : 0);
	}
	if (part & PROFDB__PART_FIRST) {
		fputc('|', out);
		for (size_t c = 0; c < ncols; c++) {
			profdb__fmt_header(r, c, units[c], 1, buf, sizeof buf);
			fputc(' ', out);
			put_text(out, buf);
			fputs(" |", out);
		}
		fputs("\n|", out);
		for (size_t c = 0; c < ncols; c++)
			fputs(profdb_result_coltype(r, c) == PROFDB_COL_TEXT ? " :--- |" : " ---: |", out);
		fputc('\n', out);
	}
	for (size_t row = 0; row < profdb_result_nrows(r); row++) {
		fputc('|', out);
		for (size_t c = 0; c < ncols; c++) {
			int k = profdb__fmt_cell(r, row, c, units[c], human[c], buf, sizeof buf);
			fputc(' ', out);
			put_text(out, k == 2 ? profdb_result_text(r, row, c) : buf);
			fputs(" |", out);
		}
		fputc('\n', out);
	}
	for (size_t i = 0; (part & PROFDB__PART_LAST) && i < profdb_result_nnotes(r); i++) {
		fputs("\nNote: ", out);
		put_text(out, profdb_result_note(r, i));
		fputs("\n", out);
	}
	free(units);
	free(human);
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

int profdb__write_md(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	return profdb__write_md_part(r, out, opts, PROFDB__PART_FIRST | PROFDB__PART_LAST, 0);
}

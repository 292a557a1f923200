/* format.c - placeholder: CSV only */
#include <string.h>
#include "internal.h"

int profdb_format_parse(const char *s)
{
	return strcmp(s, "csv") == 0 ? PROFDB_FMT_CSV : -1;
}

int profdb_unit_parse(const char *s)
{
	return strcmp(s, "us") == 0 ? PROFDB_UNIT_US : -1;
}

int profdb_result_write(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	(void)opts;
	for (size_t c = 0; c < profdb_result_ncols(r); c++)
		fprintf(out, "%s%s", c ? "," : "", profdb_result_colname(r, c));
	fputc('\n', out);
	for (size_t i = 0; i < profdb_result_nrows(r); i++) {
		for (size_t c = 0; c < profdb_result_ncols(r); c++) {
			const char *t = profdb_result_text(r, i, c);
			fprintf(out, "%s%s", c ? "," : "", t ? t : "");
		}
		fputc('\n', out);
	}
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

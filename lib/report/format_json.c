/*
 * format_json.c - results as JSON: an array with one object per row, keys
 * the column names (times with their unit suffix, default _us), numbers as
 * JSON numbers (times exact decimals), NULL as null.  With
 * opts->json_object and exactly one row, the object alone.  Text is
 * escaped; bytes that are not valid UTF-8 become U+FFFD so the output is
 * always valid JSON.  The shape of each command's output is described by
 * schemas/<command>.schema.json.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "format.h"
#include "util/utf8.h"
#include "banned.h"

static void put_string(FILE *out, const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	fputc('"', out);
	while (*s) {
		size_t n;
		if (*s == '"' || *s == '\\') {
			fputc('\\', out);
			fputc(*s++, out);
			continue;
		}
		if (*s < 0x20) {
			switch (*s) {
			case '\n': fputs("\\n", out); break;
			case '\r': fputs("\\r", out); break;
			case '\t': fputs("\\t", out); break;
			default: fprintf(out, "\\u%04x", *s); break;
			}
			s++;
			continue;
		}
		n = profdb__utf8_len((const char *)s);
		if (n == 0) {
			fputs("\\ufffd", out);
			s++;
			continue;
		}
		fwrite(s, 1, n, out);
		s += n;
	}
	fputc('"', out);
}

/* A JSON value made by the query (SQLite's json functions): as it is, but
 * valid UTF-8, since SQLite passes a name's bytes through unchecked. */
static void put_json(FILE *out, const char *json)
{
	char *tmp;
	fputs(profdb__utf8_safe(json, &tmp), out);
	free(tmp);
}

static void put_object(FILE *out, const profdb_result *r, size_t row, const struct profdb_format_opts *opts)
{
	char buf[512];
	fputc('{', out);
	for (size_t c = 0; c < profdb_result_ncols(r); c++) {
		enum profdb_unit u = profdb__fmt_unit(r, c, opts, 0);
		int k;
		if (c)
			fputs(", ", out);
		profdb__fmt_header(r, c, u, 0, buf, sizeof buf);
		put_string(out, buf);
		fputs(": ", out);
		k = profdb__fmt_cell(r, row, c, u, 0, buf, sizeof buf);
		if (k == 0)
			fputs("null", out);
		else if (k == 1)
			fputs(buf, out);
		else if (profdb_result_coltype(r, c) == PROFDB_COL_JSON)
			put_json(out, profdb_result_text(r, row, c));
		else
			put_string(out, profdb_result_text(r, row, c));
	}
	fputc('}', out);
}

/* An array of objects, "[\n  {...},\n  {...}\n]\n" ("[]\n" when empty),
 * written a part at a time: each row is preceded by "[\n" or ",\n". */
int profdb__write_json_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                            unsigned part, size_t before)
{
	size_t n = profdb_result_nrows(r);
	for (size_t row = 0; row < n; row++) {
		fputs(before + row == 0 ? "[\n  " : ",\n  ", out);
		put_object(out, r, row, opts);
	}
	if (part & PROFDB__PART_LAST)
		fputs(before + n == 0 ? "[]\n" : "\n]\n", out);
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

int profdb__write_json(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	if (opts->json_object && profdb_result_nrows(r) == 1) {
		put_object(out, r, 0, opts);
		fputc('\n', out);
		return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
	}
	return profdb__write_json_part(r, out, opts, PROFDB__PART_FIRST | PROFDB__PART_LAST, 0);
}

/*
 * format_table.c - results as an aligned text table for people: numbers
 * right-aligned, text left-aligned, units in the header, NULL as "-".
 * When the table is wider than opts->width (and not opts->wide), the widest
 * text columns are narrowed and their values shortened in the middle with
 * "...", so both the start and the end of a long kernel name stay visible;
 * a value is never dropped.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "format.h"
#include "banned.h"

#define ELLIPSIS "..."
#define MIN_TEXT_WIDTH 20 /* narrowest a shortened text column gets */

/* Display width of UTF-8 text: one per character (lead bytes). */
static size_t dwidth(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

/* Byte offset of character number ch in s (or the end). */
static size_t char_offset(const char *s, size_t ch)
{
	size_t i = 0, seen = 0;
	for (; s[i]; i++) {
		if (((unsigned char)s[i] & 0xc0) != 0x80) {
			if (seen == ch)
				return i;
			seen++;
		}
	}
	return i;
}

/* A copy of text with control characters (newlines of call stacks) as spaces. */
static char *clean_text(const char *t)
{
	char *s = strdup(t);
	if (!s)
		return NULL;
	for (char *p = s; *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			*p = ' ';
	return s;
}

/* Shorten s in place to width w by cutting its middle. */
static void shorten_middle(char *s, size_t w)
{
	size_t n = dwidth(s), head, tail, hb, tb, len;
	if (n <= w || w < sizeof ELLIPSIS)
		return;
	head = (w - (sizeof ELLIPSIS - 1) + 1) / 2;
	tail = w - (sizeof ELLIPSIS - 1) - head;
	hb = char_offset(s, head);
	tb = char_offset(s, n - tail);
	len = strlen(s);
	memmove(s + hb + sizeof ELLIPSIS - 1, s + tb, len - tb + 1);
	memcpy(s + hb, ELLIPSIS, sizeof ELLIPSIS - 1);
}

struct table {
	size_t ncols, nrows;
	char **cells;              /* (nrows + 1) * ncols strings, row 0 the header */
	size_t *width;             /* display width per column */
	int *right;                /* right-align the column */
};

static void table_free(struct table *t)
{
	if (t->cells)
		for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
			free(t->cells[i]);
	free(t->cells);
	free(t->width);
	free(t->right);
}

static int table_fill(struct table *t, const profdb_result *r, const struct profdb_format_opts *opts)
{
	char buf[512];
	t->ncols = profdb_result_ncols(r);
	t->nrows = profdb_result_nrows(r);
	t->cells = calloc((t->nrows + 1) * t->ncols + 1, sizeof *t->cells);
	t->width = calloc(t->ncols + 1, sizeof *t->width);
	t->right = calloc(t->ncols + 1, sizeof *t->right);
	if (!t->cells || !t->width || !t->right)
		return PROFDB_ERROR;
	for (size_t c = 0; c < t->ncols; c++) {
		enum profdb_unit u = profdb__fmt_unit(r, c, opts, 1);
		t->right[c] = profdb_result_coltype(r, c) != PROFDB_COL_TEXT;
		profdb__fmt_header(r, c, u, 1, buf, sizeof buf);
		if (!(t->cells[c] = strdup(buf)))
			return PROFDB_ERROR;
		for (size_t row = 0; row < t->nrows; row++) {
			int k = profdb__fmt_cell(r, row, c, u, 1, buf, sizeof buf);
			char **dst = &t->cells[(row + 1) * t->ncols + c];
			*dst = k == 2 ? clean_text(profdb_result_text(r, row, c)) : strdup(k == 0 ? "-" : buf);
			if (!*dst)
				return PROFDB_ERROR;
		}
		for (size_t row = 0; row <= t->nrows; row++) {
			size_t w = dwidth(t->cells[row * t->ncols + c]);
			if (w > t->width[c])
				t->width[c] = w;
		}
	}
	return PROFDB_OK;
}

/* Narrow the widest text columns until the table fits in width. */
static void fit(struct table *t, const profdb_result *r, int width)
{
	size_t total = 0;
	for (size_t c = 0; c < t->ncols; c++)
		total += t->width[c] + (c ? 2 : 0);
	while (total > (size_t)width) {
		size_t best = t->ncols, minw = 0, cut;
		for (size_t c = 0; c < t->ncols; c++) {
			size_t hw = dwidth(t->cells[c]);
			size_t floor_w = hw > MIN_TEXT_WIDTH ? hw : MIN_TEXT_WIDTH;
			if (profdb_result_coltype(r, c) != PROFDB_COL_TEXT || t->width[c] <= floor_w)
				continue;
			if (best == t->ncols || t->width[c] > t->width[best]) {
				best = c;
				minw = floor_w;
			}
		}
		if (best == t->ncols)
			break;
		cut = total - (size_t)width;
		if (cut > t->width[best] - minw)
			cut = t->width[best] - minw;
		t->width[best] -= cut;
		total -= cut;
	}
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t row = 1; row <= t->nrows; row++)
			shorten_middle(t->cells[row * t->ncols + c], t->width[c]);
}

static void put_padded(FILE *out, const char *s, size_t w, int right, int last)
{
	size_t n = dwidth(s);
	if (right)
		for (size_t i = n; i < w; i++)
			fputc(' ', out);
	fputs(s, out);
	if (!right && !last)
		for (size_t i = n; i < w; i++)
			fputc(' ', out);
}

int profdb__write_table(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	struct table t = { 0 };
	int rc = table_fill(&t, r, opts);

	if (rc != PROFDB_OK)
		goto out;
	if (opts->width > 0 && !opts->wide)
		fit(&t, r, opts->width);
	for (size_t row = 0; row <= t.nrows; row++) {
		for (size_t c = 0; c < t.ncols; c++) {
			if (c)
				fputs("  ", out);
			put_padded(out, t.cells[row * t.ncols + c], t.width[c], t.right[c], c + 1 == t.ncols);
		}
		fputc('\n', out);
		if (row == 0) {
			for (size_t c = 0; c < t.ncols; c++) {
				if (c)
					fputs("  ", out);
				for (size_t i = 0; i < t.width[c]; i++)
					fputc('-', out);
			}
			fputc('\n', out);
		}
	}
	if (t.nrows == 0)
		fputs("(no rows)\n", out);
	for (size_t i = 0; i < profdb_result_nnotes(r); i++)
		fprintf(out, "note: %s\n", profdb_result_note(r, i));
out:
	table_free(&t);
	if (rc != PROFDB_OK)
		return rc;
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

/*
 * format_table.c - results as an aligned text table for people: numbers
 * right-aligned, text left-aligned, units in the header, NULL as "-".
 * When the table is wider than opts->width (and not opts->wide), the widest
 * text columns are narrowed and their values shortened in the middle with
 * "...", so both the start and the end of a long kernel name stay visible;
 * a name is never dropped.  If that is not enough, spread statistics (p99,
 * p90, stddev, ...) are left out one by one, and a line names them.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "format.h"
#include "utf8.h"
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

/* A copy of text with control characters (newlines of call stacks) as
 * spaces and bytes that are not UTF-8 as U+FFFD. */
static char *clean_text(const char *t)
{
	char *s = profdb__utf8_dup(t);
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
	int *hidden;               /* left out to fit the terminal (never a name) */
};

/*
 * When shortening names is not enough, these columns are left out, in this
 * order, with a note saying so: the spread before the centre, the centre
 * before the totals.  Totals, calls, shares and names always stay.
 */
static const char *const hide_order[] = {
	"p99", "p90", "stddev", "min", "max", "median", "avg", "per_repeat", /* kernels */
	"span", "top_total", "device_total",                                 /* steps */
	"host_avg",                                                          /* ops */
	"ingested_at", "repeats_source", "source_path", NULL                 /* runs */
};

static void table_free(struct table *t)
{
	if (t->cells)
		for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
			free(t->cells[i]);
	free(t->cells);
	free(t->width);
	free(t->right);
	free(t->hidden);
}

static int table_fill(struct table *t, const profdb_result *r, const struct profdb_format_opts *opts)
{
	char buf[512];
	t->ncols = profdb_result_ncols(r);
	t->nrows = profdb_result_nrows(r);
	t->cells = calloc((t->nrows + 1) * t->ncols + 1, sizeof *t->cells);
	t->width = calloc(t->ncols + 1, sizeof *t->width);
	t->right = calloc(t->ncols + 1, sizeof *t->right);
	t->hidden = calloc(t->ncols + 1, sizeof *t->hidden);
	if (!t->cells || !t->width || !t->right || !t->hidden)
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

/* The narrowest a text column may become: its header, or MIN_TEXT_WIDTH. */
static size_t floor_width(const struct table *t, size_t c)
{
	size_t hw = dwidth(t->cells[c]);
	return hw > MIN_TEXT_WIDTH ? hw : MIN_TEXT_WIDTH;
}

/* Width of the shown columns, text columns at most at their floor if
 * at_floor. */
static size_t shown_width(const struct table *t, const profdb_result *r, int at_floor)
{
	size_t total = 0, n = 0;
	for (size_t c = 0; c < t->ncols; c++) {
		size_t w = t->width[c];
		if (t->hidden[c])
			continue;
		if (at_floor && profdb_result_coltype(r, c) == PROFDB_COL_TEXT && w > floor_width(t, c))
			w = floor_width(t, c);
		total += w + (n++ ? 2 : 0);
	}
	return total;
}

/*
 * Make the table fit in width: first leave out spread statistics (in
 * hide_order) while even the narrowest names would not fit, then narrow the
 * widest text columns, shortening their values in the middle.
 */
static void fit(struct table *t, const profdb_result *r, int width)
{
	size_t total;
	for (size_t h = 0; hide_order[h] && shown_width(t, r, 1) > (size_t)width; h++)
		for (size_t c = 0; c < t->ncols; c++)
			if (strcmp(profdb_result_colname(r, c), hide_order[h]) == 0)
				t->hidden[c] = 1;
	total = shown_width(t, r, 0);
	while (total > (size_t)width) {
		size_t best = t->ncols, cut;
		for (size_t c = 0; c < t->ncols; c++) {
			if (t->hidden[c] || profdb_result_coltype(r, c) != PROFDB_COL_TEXT ||
			    t->width[c] <= floor_width(t, c))
				continue;
			if (best == t->ncols || t->width[c] > t->width[best])
				best = c;
		}
		if (best == t->ncols)
			break;
		cut = total - (size_t)width;
		if (cut > t->width[best] - floor_width(t, best))
			cut = t->width[best] - floor_width(t, best);
		t->width[best] -= cut;
		total -= cut;
	}
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t row = 1; row <= t->nrows; row++)
			shorten_middle(t->cells[row * t->ncols + c], t->width[c]);
}

static size_t last_hidden(const struct table *t)
{
	size_t last = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (t->hidden[c])
			last = c;
	return last;
}

/* The last column that is shown (it gets no trailing padding). */
static size_t last_shown(const struct table *t)
{
	size_t last = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (!t->hidden[c])
			last = c;
	return last;
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
		int first = 1;
		for (size_t c = 0; c < t.ncols; c++) {
			if (t.hidden[c])
				continue;
			if (!first)
				fputs("  ", out);
			first = 0;
			put_padded(out, t.cells[row * t.ncols + c], t.width[c], t.right[c], c == last_shown(&t));
		}
		fputc('\n', out);
		if (row == 0) {
			first = 1;
			for (size_t c = 0; c < t.ncols; c++) {
				if (t.hidden[c])
					continue;
				if (!first)
					fputs("  ", out);
				first = 0;
				for (size_t i = 0; i < t.width[c]; i++)
					fputc('-', out);
			}
			fputc('\n', out);
		}
	}
	if (t.nrows == 0)
		fputs("(no rows)\n", out);
	for (size_t c = 0, n = 0; c < t.ncols; c++)
		if (t.hidden[c])
			fprintf(out, "%s%s%s", n++ ? ", " : "(hidden to fit the width: ",
			        profdb_result_colname(r, c), c == last_hidden(&t) ? "; --wide shows all)\n" : "");
	for (size_t i = 0; i < profdb_result_nnotes(r); i++)
		fprintf(out, "note: %s\n", profdb_result_note(r, i));
out:
	table_free(&t);
	if (rc != PROFDB_OK)
		return rc;
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

/*
 * format_table.c - results as an aligned text table for people: numbers
 * right-aligned, text left-aligned, units in the header, NULL as "-".
 * When the table is wider than opts->width (and not opts->wide), the widest
 * text columns are narrowed and their values shortened in the middle with
 * "...", so both the start and the end of a long kernel name stay visible;
 * a name is never dropped.  If that is not enough, columns empty in every
 * row, then the lesser columns the query declared with its result (in its
 * order), then number columns from the right, are left out, and a line
 * names them; the query's headline columns and the --sort column stay.
 *
 * A table too large to hold (result_stream.c) is written in parts along a
 * layout from a first pass (profdb__fmt_plan): the same cells, widths and
 * hidden copy column as the whole table written with --wide (names are
 * not shortened: telling shortened names apart needs all of them).  Over
 * 600 lines on purpose: both paths share table_fill, put_rows, put_tail
 * and hide_copies, which would otherwise become cross-file functions.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "format.h"
#include "query/result.h"
#include "util/utf8.h"
#include "banned.h"

#define ELLIPSIS "..."
#define MIN_TEXT_WIDTH 20 /* narrowest a shortened text column gets */

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

/* Shorten s in place to width w (argument list and template parameters
 * first, then the middle: profdb__name_shorten). */
static void shorten_middle(char *s, size_t w)
{
	profdb__name_shorten(s, w);
}

struct table {
	size_t ncols, nrows;
	char **cells;              /* (nrows + 1) * ncols strings, row 0 the header */
	size_t *width;             /* display width per column */
	int *right;                /* right-align the column */
	int *hidden;               /* left out to fit the terminal (never a name) */
	int *empty;                /* ... as empty in every row (named apart) */
	size_t copy_hidden;        /* 1 + a column hidden as a copy of another, or 0 */
	char **foot;               /* full texts of shortened values numbered [k] */
	size_t nfoot;
};

/* Never hidden by fit_rest: the columns that say what a row is. */
static const char *const key_cols[] = { "run", "rank", "step", "stream", "name", "collective", NULL };

/* Is column name one of the '|'-separated names of entry (a pair such as
 * ci_low|ci_high goes together)? */
static int hide_matches(const char *entry, const char *name)
{
	size_t n = strlen(name);
	for (const char *p = entry; *p;) {
		size_t len = strcspn(p, "|");
		if (len == n && strncmp(p, name, n) == 0)
			return 1;
		p += len;
		if (*p)
			p++;
	}
	return 0;
}

/* Text columns shown whole or not at all: a sentence cut in the middle
 * reads as another sentence. */
static const char *const whole_text[] = { "why", NULL };

static int is_whole_text(const profdb_result *r, size_t c)
{
	for (size_t i = 0; whole_text[i]; i++)
		if (strcmp(profdb_result_colname(r, c), whole_text[i]) == 0)
			return 1;
	return 0;
}

static void table_free(struct table *t)
{
	if (t->cells)
		for (size_t i = 0; i < (t->nrows + 1) * t->ncols; i++)
			free(t->cells[i]);
	free(t->cells);
	free(t->width);
	free(t->right);
	free(t->hidden);
	free(t->empty);
	for (size_t i = 0; i < t->nfoot; i++)
		free(t->foot[i]);
	free(t->foot);
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
	t->empty = calloc(t->ncols + 1, sizeof *t->empty);
	if (!t->cells || !t->width || !t->right || !t->hidden || !t->empty)
		return PROFDB_ERROR;
	for (size_t c = 0; c < t->ncols; c++) {
		enum profdb_unit u = profdb__fmt_unit(r, c, opts, 1);
		int human = 1 + (profdb_result_coltype(r, c) == PROFDB_COL_NS ? profdb__fmt_decimals(r, c, u) : 0);
		t->right[c] = profdb_result_coltype(r, c) != PROFDB_COL_TEXT;
		profdb__fmt_header(r, c, u, 1, buf, sizeof buf);
		if (!(t->cells[c] = strdup(buf)))
			return PROFDB_ERROR;
		for (size_t row = 0; row < t->nrows; row++) {
			int k = profdb__fmt_cell(r, row, c, u, human, buf, sizeof buf);
			char **dst = &t->cells[(row + 1) * t->ncols + c];
			*dst = k == 2 ? clean_text(profdb_result_text(r, row, c)) : strdup(k == 0 ? "-" : buf);
			if (!*dst)
				return PROFDB_ERROR;
		}
		for (size_t row = 0; row <= t->nrows; row++) {
			size_t w = profdb__utf8_width(t->cells[row * t->ncols + c]);
			if (w > t->width[c])
				t->width[c] = w;
		}
	}
	return PROFDB_OK;
}

/* The narrowest a text column may become: its header, or MIN_TEXT_WIDTH;
 * a whole-text column keeps its width. */
static size_t floor_width(const struct table *t, const profdb_result *r, size_t c)
{
	size_t hw = profdb__utf8_width(t->cells[c]);
	if (is_whole_text(r, c))
		return t->width[c];
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
		if (at_floor && profdb_result_coltype(r, c) == PROFDB_COL_TEXT && w > floor_width(t, r, c))
			w = floor_width(t, r, c);
		total += w + (n++ ? 2 : 0);
	}
	return total;
}

/* Column index of name in r, or ncols. */
static size_t col_index(const profdb_result *r, const char *name)
{
	size_t c = 0;
	while (c < profdb_result_ncols(r) && strcmp(profdb_result_colname(r, c), name) != 0)
		c++;
	return c;
}

/* Does per_repeat (column pr) differ from total (tot) in a row of r? */
static int copy_differs(const profdb_result *r, size_t pr, size_t tot)
{
	if (pr >= profdb_result_ncols(r) || tot >= profdb_result_ncols(r))
		return 0;
	for (size_t row = 0; row < profdb_result_nrows(r); row++)
		if (profdb_result_isnull(r, row, pr) != profdb_result_isnull(r, row, tot) ||
		    profdb_result_double(r, row, pr) != profdb_result_double(r, row, tot))
			return 1;
	return 0;
}

/* per_repeat equal to total in every row (one repeat) says nothing twice:
 * a table for people leaves it out (csv and json keep their columns).
 * differ: that some row differs (a streamed table's first pass saw it),
 * nrows the rows of the whole table. */
static void hide_copies(struct table *t, const profdb_result *r, int differ, size_t nrows)
{
	size_t pr = col_index(r, "per_repeat"), tot = col_index(r, "total");
	if (pr == t->ncols || tot == t->ncols || nrows == 0 || differ)
		return;
	t->copy_hidden = pr + 1;
	t->hidden[pr] = 1;
}

static int is_key(const profdb_result *r, size_t c)
{
	for (size_t i = 0; key_cols[i]; i++)
		if (strcmp(profdb_result_colname(r, c), key_cols[i]) == 0)
			return 1;
	return 0;
}

/* Is column c one the table always shows: a key, the column the rows
 * are sorted by (opts->keep, "share" naming share_pct), or, with
 * headline, a headline column of the command (r->headline)? */
static int shows(const profdb_result *r, const struct profdb_format_opts *opts, size_t c, int headline)
{
	const char *name = profdb_result_colname(r, c);
	size_t n;
	if (is_key(r, c))
		return 1;
	for (size_t i = 0; headline && r->headline && r->headline[i]; i++)
		if (strcmp(name, r->headline[i]) == 0)
			return 1;
	if (!opts->keep)
		return 0;
	n = strlen(opts->keep);
	return strncmp(name, opts->keep, n) == 0 && (name[n] == '\0' || strcmp(name + n, "_pct") == 0);
}

static int must_show(const profdb_result *r, const struct profdb_format_opts *opts, size_t c)
{
	return shows(r, opts, c, 1);
}

/* Hide (or show) the columns of r->hide entry e (never one that must show). */
static void set_hidden(struct table *t, const profdb_result *r, const struct profdb_format_opts *opts,
                       const char *e, int hide)
{
	for (size_t c = 0; c < t->ncols; c++)
		if (hide_matches(e, profdb_result_colname(r, c)) && c + 1 != t->copy_hidden &&
		    !t->empty[c] && !must_show(r, opts, c))
			t->hidden[c] = hide;
}

/* A number column fit_rest may leave out: none that must show, and, for
 * a table that names no headline, not one of its first two figures (a
 * table of names alone says nothing, so a terminal too narrow for them
 * gets a wider table). */
static int rest_hideable(const struct table *t, const profdb_result *r,
                         const struct profdb_format_opts *opts, size_t c)
{
	size_t before = 0;
	if (t->hidden[c] || must_show(r, opts, c) || profdb_result_coltype(r, c) == PROFDB_COL_TEXT)
		return 0;
	if (r->headline)
		return 1;
	for (size_t i = 0; i < c; i++)
		if (!is_key(r, i) && profdb_result_coltype(r, i) != PROFDB_COL_TEXT)
			before++;
	return before >= 2;
}

/* Still too wide with r->hide spent (or none declared): leave out number
 * columns from the right, as a table lists its figures most important
 * first; the hidden line names them. */
static void fit_rest(struct table *t, const profdb_result *r, const struct profdb_format_opts *opts)
{
	for (size_t c = t->ncols; c-- > 0 && shown_width(t, r, 1) > (size_t)opts->width;)
		if (rest_hideable(t, r, opts, c))
			t->hidden[c] = 1;
}

/* Is column c empty in every row (each "-")? */
static int col_empty(const profdb_result *r, size_t c)
{
	size_t n = profdb_result_nrows(r);
	for (size_t row = 0; row < n; row++) {
		const struct profdb__cell *cell = &r->cells[row * r->ncols + c];
		if (cell->type != SQLITE_NULL && !(cell->type == SQLITE_FLOAT && !isfinite(cell->d)))
			return 0;
	}
	return n > 0;
}

/* Too wide even before names are shortened: a column empty in every row
 * says nothing, so it goes first (a line of its own names it), a headline
 * one too (not the keys, not the sorted column). */
static void drop_empty(struct table *t, const profdb_result *r, const struct profdb_format_opts *opts)
{
	if (shown_width(t, r, 0) <= (size_t)opts->width)
		return;
	for (size_t c = 0; c < t->ncols; c++)
		if (!t->hidden[c] && !shows(r, opts, c, 0) && col_empty(r, c))
			t->hidden[c] = t->empty[c] = 1;
}

/*
 * Make the table fit in width: first drop the columns empty in every row,
 * then leave out the command's lesser columns (r->hide, in its order)
 * while even the narrowest names would not fit, then other number columns
 * from the right (fit_rest), then narrow the widest text columns,
 * shortening their values in the middle.  What must show never goes.
 */
static void fit(struct table *t, const profdb_result *r, const struct profdb_format_opts *opts)
{
	const char *const *order = r->hide;
	const int width = opts->width;
	size_t total, h = 0;
	drop_empty(t, r, opts);
	for (; order && order[h] && shown_width(t, r, 1) > (size_t)width; h++)
		set_hidden(t, r, opts, order[h], 1);
	/* a later column may have had to go for all to fit: give back the
	 * earlier ones that fit again (why went, so p fits) */
	while (h-- > 1) {
		set_hidden(t, r, opts, order[h - 1], 0);
		if (shown_width(t, r, 1) > (size_t)width)
			set_hidden(t, r, opts, order[h - 1], 1);
	}
	fit_rest(t, r, opts);
	total = shown_width(t, r, 0);
	while (total > (size_t)width) {
		size_t best = t->ncols, cut;
		for (size_t c = 0; c < t->ncols; c++) {
			if (t->hidden[c] || profdb_result_coltype(r, c) != PROFDB_COL_TEXT ||
			    t->width[c] <= floor_width(t, r, c))
				continue;
			if (best == t->ncols || t->width[c] > t->width[best])
				best = c;
		}
		if (best == t->ncols)
			break;
		cut = total - (size_t)width;
		if (cut > t->width[best] - floor_width(t, r, best))
			cut = t->width[best] - floor_width(t, r, best);
		t->width[best] -= cut;
		total -= cut;
	}
	for (size_t c = 0; c < t->ncols; c++)
		for (size_t row = 1; row <= t->nrows; row++)
			shorten_middle(t->cells[row * t->ncols + c], t->width[c]);
}

/* A shown value and the full text it stands for. */
struct name_ref {
	const char *shown;         /* the cell as it will be printed */
	const char *full;          /* the result's text */
	size_t row;                /* table row (1-based: row 0 is the header) */
};

static int cmp_ref(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	int c = strcmp(x->shown, y->shown);
	if (!c)
		c = strcmp(x->full, y->full);
	return c ? c : (x->row > y->row) - (x->row < y->row);
}

static int cmp_row(const void *a, const void *b)
{
	const struct name_ref *x = a, *y = b;
	return (x->row > y->row) - (x->row < y->row);
}

/* The footnote number (1-based) of full text s, added when new; 0 on
 * out of memory. */
static size_t foot_number(struct table *t, const char *s)
{
	char **f;
	for (size_t i = 0; i < t->nfoot; i++)
		if (strcmp(t->foot[i], s) == 0)
			return i + 1;
	if (!(f = realloc(t->foot, (t->nfoot + 1) * sizeof *f)) || !(f[t->nfoot] = clean_text(s))) {
		if (f)
			t->foot = f;
		return 0;
	}
	t->foot = f;
	return ++t->nfoot;
}

/* Rewrite the cell of row as full shortened to the column's width with a
 * " [k]" mark. */
static int mark_cell(struct table *t, size_t row, size_t c, const char *full)
{
	char mark[24], *s;
	size_t k = foot_number(t, full), w = t->width[c], mw, n;
	if (!k || !(s = clean_text(full)))
		return PROFDB_ERROR;
	mw = (size_t)snprintf(mark, sizeof mark, " [%zu]", k);
	shorten_middle(s, w > mw + sizeof ELLIPSIS ? w - mw : sizeof ELLIPSIS);
	n = strlen(s);
	free(t->cells[row * t->ncols + c]);
	if (!(t->cells[row * t->ncols + c] = malloc(n + mw + 1))) {
		free(s);
		return PROFDB_ERROR;
	}
	memcpy(t->cells[row * t->ncols + c], s, n);
	memcpy(t->cells[row * t->ncols + c] + n, mark, mw + 1);
	free(s);
	return PROFDB_OK;
}

/*
 * Shortened names must stay distinct: where two different texts of column
 * c print alike after shortening, number each ("void spli...long) [2]")
 * and list the full texts under the table.
 */
static int distinct_names(struct table *t, const profdb_result *r, size_t c)
{
	struct name_ref *v = calloc(t->nrows ? t->nrows : 1, sizeof *v);
	size_t n = 0;
	int rc = PROFDB_OK;
	if (!v)
		return PROFDB_ERROR;
	for (size_t row = 1; row <= t->nrows; row++)
		if (profdb_result_text(r, row - 1, c))
			v[n++] = (struct name_ref){ t->cells[row * t->ncols + c],
			                            profdb_result_text(r, row - 1, c), row };
	qsort(v, n, sizeof *v, cmp_ref);
	/* a run of equal shown texts with two full texts or more: mark the run */
	for (size_t i = 0, j; i < n; i = j) {
		int differ = 0;
		for (j = i + 1; j < n && strcmp(v[j].shown, v[i].shown) == 0; j++)
			differ |= strcmp(v[j].full, v[i].full) != 0;
		for (size_t k = i; differ && k < j; k++)
			v[k].shown = NULL; /* marked */
	}
	/* numbers in the order of the rows */
	qsort(v, n, sizeof *v, cmp_row);
	for (size_t k = 0; k < n && rc == PROFDB_OK; k++)
		if (!v[k].shown)
			rc = mark_cell(t, v[k].row, c, v[k].full);
	free(v);
	return rc;
}

/* Hidden to fit the width (not as a copy): named in the hidden line, or,
 * empty (1) or not (0), in the line of empty columns. */
static int fit_hidden(const struct table *t, size_t c, int empty)
{
	return t->hidden[c] && c + 1 != t->copy_hidden && (t->empty[c] != 0) == empty;
}

static size_t last_hidden(const struct table *t, int empty)
{
	size_t last = 0;
	for (size_t c = 0; c < t->ncols; c++)
		if (fit_hidden(t, c, empty))
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

/* "note: " and the note, broken at spaces to stay within width (0: one
 * line), the later lines indented under the text.  A word longer than the
 * line (a kernel name) stays whole. */
static void put_note(FILE *out, const char *text, int width)
{
	const size_t indent = 6; /* strlen("note: ") */
	size_t col = indent, n = 0;
	char *vis = NULL;
	FILE *m = open_memstream(&vis, &n);
	const char *note = text;
	/* a run or kernel name in it must not steer the terminal */
	if (m) {
		profdb_text_write(m, text);
		if (fclose(m) == 0 && vis)
			note = vis;
	}
	fputs("note: ", out);
	while (*note) {
		size_t sp = strspn(note, " "), w = strcspn(note + sp, " ");
		if (col > indent && width > 0 && col + sp + w > (size_t)width) {
			fprintf(out, "\n%*s", (int)indent, "");
			col = indent;
			note += sp;
			sp = 0;
		}
		fwrite(note, 1, sp + w, out);
		col += sp + w;
		note += sp + w;
	}
	fputc('\n', out);
	free(vis);
}

/* The line naming the hidden columns (empty: those empty in every row),
 * broken after a comma to stay within width (it is the one line the table
 * adds that could be wider). */
static void put_hidden(FILE *out, const struct table *t, const profdb_result *r, int width, int empty)
{
	size_t col = 0, last = last_hidden(t, empty);
	for (size_t c = 0, n = 0; c < t->ncols; c++) {
		const char *lead = n++ ? ", " : empty ? "(empty in every row: " : "(hidden to fit the width: ";
		const char *name = profdb_result_colname(r, c);
		const char *tail = c != last ? "" : empty ? ")" : "; --wide shows all)";
		size_t w = strlen(lead) + strlen(name) + strlen(tail);
		if (!fit_hidden(t, c, empty)) {
			n--;
			continue;
		}
		/* (+ 1: the comma that ends a broken line) */
		if (n > 1 && width > 0 && col + w + (c != last) > (size_t)width) {
			fputs(",\n ", out);
			lead = "";
			col = 1;
			w = strlen(name) + strlen(tail);
		}
		fprintf(out, "%s%s%s", lead, name, tail);
		col += w;
	}
	if (col)
		fputc('\n', out);
}

static void put_padded(FILE *out, const char *s, size_t w, int right, int last)
{
	size_t n = profdb__utf8_width(s);
	if (right)
		for (size_t i = n; i < w; i++)
			fputc(' ', out);
	fputs(s, out);
	if (!right && !last)
		for (size_t i = n; i < w; i++)
			fputc(' ', out);
}

/* Rows from..t->nrows of t (row 0, the header, with its dashes). */
static void put_rows(FILE *out, const struct table *t, size_t from)
{
	for (size_t row = from; row <= t->nrows; row++) {
		int first = 1;
		for (size_t c = 0; c < t->ncols; c++) {
			if (t->hidden[c])
				continue;
			if (!first)
				fputs("  ", out);
			first = 0;
			put_padded(out, t->cells[row * t->ncols + c], t->width[c], t->right[c], c == last_shown(t));
		}
		fputc('\n', out);
		if (row == 0) {
			first = 1;
			for (size_t c = 0; c < t->ncols; c++) {
				if (t->hidden[c])
					continue;
				if (!first)
					fputs("  ", out);
				first = 0;
				for (size_t i = 0; i < t->width[c]; i++)
					fputc('-', out);
			}
			fputc('\n', out);
		}
	}
}

/* What follows the rows: "(no rows)", the hidden line, footnotes, notes. */
static void put_tail(FILE *out, const struct table *t, const profdb_result *r,
                     const struct profdb_format_opts *opts, size_t nrows)
{
	if (nrows == 0)
		fputs("(no rows)\n", out);
	put_hidden(out, t, r, opts->width, 1);
	put_hidden(out, t, r, opts->width, 0);
	for (size_t i = 0; i < t->nfoot; i++)
		fprintf(out, "[%zu] %s\n", i + 1, t->foot[i]);
	for (size_t i = 0; i < profdb_result_nnotes(r); i++)
		put_note(out, profdb_result_note(r, i), opts->wide ? 0 : opts->width);
}

int profdb__write_table(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts)
{
	struct table t = { 0 };
	int rc = table_fill(&t, r, opts);

	if (rc != PROFDB_OK)
		goto out;
	hide_copies(&t, r, copy_differs(r, col_index(r, "per_repeat"), col_index(r, "total")), t.nrows);
	if (opts->width > 0 && !opts->wide) {
		fit(&t, r, opts);
		for (size_t c = 0; c < t.ncols && rc == PROFDB_OK; c++)
			if (!t.hidden[c] && profdb_result_coltype(r, c) == PROFDB_COL_TEXT)
				rc = distinct_names(&t, r, c);
		if (rc != PROFDB_OK)
			goto out;
	}
	put_rows(out, &t, 0);
	put_tail(out, &t, r, opts, t.nrows);
out:
	table_free(&t);
	if (rc != PROFDB_OK)
		return rc;
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

/* ------------------------------------------------------------ streamed */

int profdb__fmt_plan_new(struct profdb__fmt_plan **out, size_t ncols)
{
	struct profdb__fmt_plan *p = calloc(1, sizeof *p);
	*out = NULL;
	if (!p)
		return PROFDB_ERROR;
	p->ncols = ncols;
	p->acc = calloc(ncols + 1, sizeof *p->acc);
	p->lo = calloc(ncols + 1, sizeof *p->lo);
	p->hi = calloc(ncols + 1, sizeof *p->hi);
	p->seen = calloc(ncols + 1, sizeof *p->seen);
	p->width = calloc(ncols + 1, sizeof *p->width);
	p->decimals = calloc(ncols + 1, sizeof *p->decimals);
	if (!p->acc || !p->lo || !p->hi || !p->seen || !p->width || !p->decimals) {
		profdb__fmt_plan_free(p);
		return PROFDB_ERROR;
	}
	for (size_t c = 0; c < ncols; c++)
		profdb__col_acc_init(&p->acc[c]);
	*out = p;
	return PROFDB_OK;
}

void profdb__fmt_plan_free(struct profdb__fmt_plan *p)
{
	if (!p)
		return;
	free(p->acc);
	free(p->lo);
	free(p->hi);
	free(p->seen);
	free(p->width);
	free(p->decimals);
	free(p);
}

/* The value of a number cell for ordering (exact for integers). */
static int cell_less(const struct profdb__cell *a, const struct profdb__cell *b)
{
	if (a->type == SQLITE_INTEGER && b->type == SQLITE_INTEGER)
		return a->i < b->i;
	return (a->type == SQLITE_INTEGER ? (double)a->i : a->d) < (b->type == SQLITE_INTEGER ? (double)b->i : b->d);
}

/*
 * A time cell's shown width grows with its distance from zero on either
 * side (its decimals are the column's), so the least and the greatest
 * value give the column's width once the unit is known; every other cell
 * is measured as it will be shown.
 */
static int plan_cell(struct profdb__fmt_plan *p, const profdb_result *r, size_t row, size_t c)
{
	const struct profdb__cell *cell = &r->cells[row * r->ncols + c];
	char buf[512], *text = NULL;
	size_t w;
	int k;

	if (r->types[c] == PROFDB_COL_NS && (cell->type == SQLITE_INTEGER ||
	    (cell->type == SQLITE_FLOAT && isfinite(cell->d)))) {
		profdb__col_acc_add(&p->acc[c], cell);
		if (!p->seen[c] || cell_less(cell, &p->lo[c]))
			p->lo[c] = (struct profdb__cell){ cell->type, cell->i, cell->d, NULL };
		if (!p->seen[c] || cell_less(&p->hi[c], cell))
			p->hi[c] = (struct profdb__cell){ cell->type, cell->i, cell->d, NULL };
		p->seen[c] = 1;
		return PROFDB_OK;
	}
	k = profdb__fmt_cell(r, row, c, PROFDB_UNIT_US, 1, buf, sizeof buf);
	if (k == 2 && !(text = clean_text(profdb_result_text(r, row, c))))
		return PROFDB_ERROR;
	w = profdb__utf8_width(k == 2 ? text : k == 0 ? "-" : buf);
	free(text);
	if (w > p->width[c])
		p->width[c] = w;
	return PROFDB_OK;
}

int profdb__fmt_plan_add(struct profdb__fmt_plan *p, const profdb_result *r)
{
	size_t pr = col_index(r, "per_repeat"), tot = col_index(r, "total");
	for (size_t row = 0; row < r->nrows; row++)
		for (size_t c = 0; c < r->ncols; c++)
			if (plan_cell(p, r, row, c) != PROFDB_OK)
				return PROFDB_ERROR;
	if (copy_differs(r, pr, tot))
		p->copies_differ = 1;
	p->nrows += r->nrows;
	return PROFDB_OK;
}

void profdb__fmt_plan_fix(struct profdb__fmt_plan *p, const profdb_result *r,
                          const struct profdb_format_opts *opts)
{
	char buf[512];
	p->unit = profdb__col_acc_unit(p->acc, p->ncols, opts);
	for (size_t c = 0; c < p->ncols; c++) {
		enum profdb_unit u = p->unit; /* opts->unit when set */
		size_t w;
		if (r->types[c] != PROFDB_COL_NS)
			continue;
		p->decimals[c] = profdb__col_acc_decimals(&p->acc[c], u);
		for (int side = 0; side < 2 && p->seen[c]; side++) {
			profdb__fmt_ns(side ? &p->hi[c] : &p->lo[c], u, 1 + p->decimals[c], buf, sizeof buf);
			if ((w = profdb__utf8_width(buf)) > p->width[c])
				p->width[c] = w;
		}
	}
	p->fixed = 1;
}

int profdb__write_table_part(const profdb_result *r, FILE *out, const struct profdb_format_opts *opts,
                             unsigned part, size_t before)
{
	const struct profdb__fmt_plan *p = r->plan;
	struct table t = { 0 };
	int rc = table_fill(&t, r, opts);

	(void)before;
	if (rc != PROFDB_OK)
		goto out;
	/* every row's widths, as the whole table would have them */
	for (size_t c = 0; c < t.ncols; c++)
		if (p->width[c] > t.width[c])
			t.width[c] = p->width[c];
	hide_copies(&t, r, p->copies_differ, p->nrows);
	put_rows(out, &t, (part & PROFDB__PART_FIRST) ? 0 : 1);
	if (part & PROFDB__PART_LAST)
		put_tail(out, &t, r, opts, p->nrows);
out:
	table_free(&t);
	if (rc != PROFDB_OK)
		return rc;
	return ferror(out) ? PROFDB_ERROR : PROFDB_OK;
}

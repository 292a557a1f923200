/*
 * verify_table.c - a small RFC 4180 parser for the summaries verify reads back
 * from source_file.content (op_statistic.csv, step_trace_time.csv).
 */
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "banned.h"

void verify_table_free(struct verify_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->f[i]);
	free(t->f);
	memset(t, 0, sizeof *t);
}

/*
 * Parse RFC 4180 text (quotes, doubled quotes, CR/LF or LF) into t.  Rows
 * shorter than the header are padded with "", longer ones cut.  Returns 0,
 * or -1 when out of memory.
 */
int verify_table_parse(struct verify_table *t, const char *s, size_t n)
{
	char *field = NULL, **row = NULL;
	size_t flen = 0, fcap = 0, rn = 0, rcap = 0, tcap = 0, i = 0;
	int quoted = 0, end_row = 0, rc = -1;

	memset(t, 0, sizeof *t);
	while (i <= n) {
		int c = i < n ? (unsigned char)s[i] : -1;
		int end_field = 0;
		i++;
		if (quoted) {
			if (c == '"' && i < n && s[i] == '"') {
				i++;
			} else if (c == '"') {
				quoted = 0;
				continue;
			} else if (c == -1) {
				end_field = end_row = 1;
			}
		} else if (c == '"' && flen == 0) {
			quoted = 1;
			continue;
		} else if (c == ',') {
			end_field = 1;
		} else if (c == '\n' || c == -1) {
			end_field = end_row = 1;
		} else if (c == '\r' && i < n && s[i] == '\n') {
			continue;
		}
		if (!end_field) {
			if (flen + 2 > fcap) {
				char *nf = realloc(field, fcap = fcap ? fcap * 2 : 64);
				if (!nf)
					goto out;
				field = nf;
			}
			field[flen++] = (char)c;
			continue;
		}
		if (rn == rcap) {
			char **nr = realloc(row, (rcap = rcap ? rcap * 2 : 16) * sizeof *nr);
			if (!nr)
				goto out;
			row = nr;
		}
		row[rn] = malloc(flen + 1);
		if (!row[rn])
			goto out;
		if (flen)
			memcpy(row[rn], field, flen);
		row[rn++][flen] = '\0';
		flen = 0;
		if (!end_row)
			continue;
		end_row = 0;
		/* a blank line (or the end after a final newline) is no row */
		if (!(rn == 1 && row[0][0] == '\0')) {
			size_t nc = t->nrows == 0 ? rn : t->ncols;
			if (t->nrows == 0)
				t->ncols = nc;
			if ((t->nrows + 1) * nc > tcap) {
				size_t ncap = tcap ? tcap * 2 : nc * 16;
				char **nf;
				while (ncap < (t->nrows + 1) * nc)
					ncap *= 2;
				nf = realloc(t->f, ncap * sizeof *nf);
				if (!nf)
					goto out;
				t->f = nf;
				tcap = ncap;
			}
			for (size_t k = 0; k < nc; k++) {
				t->f[t->nrows * nc + k] = k < rn ? row[k] : strdup("");
				if (k < rn)
					row[k] = NULL;
				if (!t->f[t->nrows * nc + k]) {
					for (size_t j = 0; j < k; j++)
						free(t->f[t->nrows * nc + j]);
					goto out;
				}
			}
			t->nrows++;
		}
		for (size_t k = 0; k < rn; k++)
			free(row[k]);
		rn = 0;
	}
	rc = 0;
out:
	for (size_t k = 0; k < rn; k++)
		free(row[k]);
	free(row);
	free(field);
	if (rc != 0)
		verify_table_free(t);
	return rc;
}

int verify_table_col(const struct verify_table *t, const char *name)
{
	for (size_t c = 0; t->nrows > 0 && c < t->ncols; c++)
		if (strcmp(t->f[c], name) == 0)
			return (int)c;
	return -1;
}

const char *verify_cell(const struct verify_table *t, size_t row, int col)
{
	return col < 0 ? "" : t->f[row * t->ncols + (size_t)col];
}


/*
 * verify_table.c - the summaries verify reads back from source_file.content
 * (op_statistic.csv, step_trace_time.csv) as a table of strings.
 */
#include <stdlib.h>
#include <string.h>

#include "verify.h"
#include "read/csv_reader.h"
#include "banned.h"

void profdb__verify_table_free(struct profdb__verify_table *t)
{
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->f[i]);
	free(t->f);
	memset(t, 0, sizeof *t);
}

/* Append one row to the table being built (arg): the header fixes the
 * width; shorter rows are padded with "", longer ones cut. */
static int add_row(void *arg, const struct profdb__csv_row *row)
{
	struct profdb__verify_table *t = arg;
	size_t nc = t->nrows == 0 ? row->n : t->ncols;
	char **f = realloc(t->f, (t->nrows + 1) * nc * sizeof *f);

	if (!f)
		return PROFDB_ERROR;
	t->f = f;
	t->ncols = nc;
	for (size_t k = 0; k < nc; k++) {
		f[t->nrows * nc + k] = k < row->n ? strdup(row->field[k]) : strdup("");
		if (!f[t->nrows * nc + k]) {
			for (size_t j = 0; j < k; j++)
				free(f[t->nrows * nc + j]);
			return PROFDB_ERROR;
		}
	}
	t->nrows++;
	return PROFDB_OK;
}

/*
 * Parse the stored CSV text into t with the one CSV reader of the ingest
 * (csv_reader.c), so that verify reads the summary exactly as the ingest
 * did.  Returns 0, or -1 (out of memory, or text the reader refuses: it was
 * stored by an ingest that read it, so only a changed database gets here).
 */
int profdb__verify_table_parse(struct profdb__verify_table *t, const char *s, size_t n)
{
	struct profdb_err err = { PROFDB_OK, "" };

	memset(t, 0, sizeof *t);
	if (n == 0)
		return 0;
	if (profdb__csv_read_mem(s, n, "summary", add_row, t, NULL, &err) != PROFDB_OK) {
		profdb__verify_table_free(t);
		return -1;
	}
	return 0;
}

int profdb__verify_table_col(const struct profdb__verify_table *t, const char *name)
{
	for (size_t c = 0; t->nrows > 0 && c < t->ncols; c++)
		if (strcmp(t->f[c], name) == 0)
			return (int)c;
	return -1;
}

const char *profdb__verify_cell(const struct profdb__verify_table *t, size_t row, int col)
{
	return col < 0 ? "" : t->f[row * t->ncols + (size_t)col];
}


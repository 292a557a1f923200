/*
 * fuzz_csv.c - fuzz the Ascend kernel_details.csv reader: the input bytes
 * are one kernel_details.csv, read through a sink that checks every record.
 * The same bytes also go through the CSV layer twice more, with its line
 * fast path (whole and in 3-byte chunks) and through libcsv alone: rows,
 * their lines and any error message must be the same.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "read/csv_reader.h"

/* Every row as "line:" then each field's length and bytes. */
struct trace {
	char *s;
	size_t n, cap;
};

static void put(struct trace *t, const void *p, size_t n)
{
	if (t->n + n > t->cap) {
		size_t cap = (t->n + n) * 2;
		char *s = realloc(t->s, cap);
		if (!s)
			fuzz_die("out of memory");
		t->s = s;
		t->cap = cap;
	}
	memcpy(t->s + t->n, p, n);
	t->n += n;
}

static int on_row(void *arg, const struct profdb__csv_row *row)
{
	struct trace *t = arg;
	put(t, &row->line, sizeof row->line);
	put(t, &row->n, sizeof row->n);
	for (size_t i = 0; i < row->n; i++) {
		if (row->field[i][row->len[i]] != '\0')
			fuzz_die("csv field not NUL-terminated");
		put(t, &row->len[i], sizeof row->len[i]);
		put(t, row->field[i], row->len[i]);
	}
	return PROFDB_OK;
}

static void csv_trace(const uint8_t *data, size_t size, size_t chunk, int libcsv_only,
                      struct trace *t)
{
	struct profdb_err err = { 0 };
	int64_t rows = 0;
	int rc;
	memset(t, 0, sizeof *t);
	rc = profdb__csv_read_mem_opts(data, size, chunk, libcsv_only, "f.csv", on_row, t, &rows, &err);
	put(t, &rc, sizeof rc);
	put(t, &rows, sizeof rows);
	put(t, err.msg, strlen(err.msg));
}

static void csv_compare(const uint8_t *data, size_t size)
{
	struct trace ref, fast, chunked;
	csv_trace(data, size, size, 1, &ref);
	csv_trace(data, size, size, 0, &fast);
	csv_trace(data, size, 3, 0, &chunked);
	if (fast.n != ref.n || memcmp(fast.s, ref.s, ref.n) != 0)
		fuzz_die("csv fast path and libcsv disagree");
	if (chunked.n != ref.n || memcmp(chunked.s, ref.s, ref.n) != 0)
		fuzz_die("csv fast path in 3-byte chunks and libcsv disagree");
	free(ref.s);
	free(fast.s);
	free(chunked.s);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct profdb_limits limits = PROFDB_LIMITS_INIT;
	struct fuzz_sink s;
	struct profdb_reader_ctx ctx;
	int rc;

	fuzz_sink_init(&s);
	memset(&ctx, 0, sizeof ctx);
	ctx.path = fuzz_write_input("kernel_details.csv", data, size);
	ctx.rank = PROFDB_NULL;
	ctx.sink = &s.sink;
	ctx.err = &s.err;
	ctx.limits = &limits; /* the readers take their bounds from the handle's */
	rc = profdb__read_kernel_details(&ctx);
	fuzz_check_error(rc, s.err.msg);
	if (rc == PROFDB_OK && s.open_sources != 0)
		fuzz_die("source_begin without source_end");
	csv_compare(data, size);
	return 0;
}

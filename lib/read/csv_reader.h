/*
 * csv_reader.h - a streaming CSV reader over libcsv (csv_reader.c) that
 * hands out whole rows with the physical line each starts on, and a header
 * helper that finds columns by name.  Used by the Ascend readers.
 */
#ifndef PROFDB_CSV_READER_H
#define PROFDB_CSV_READER_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* One row as the callback sees it.  Everything is borrowed and valid only
 * during the callback; fields are NUL-terminated and writable, so callers
 * may trim or split them in place. */
struct profdb__csv_row {
	char **field;              /* n fields */
	size_t *len;               /* their lengths in bytes */
	size_t n;                  /* number of fields (never 0) */
	int64_t line;              /* physical line the row starts on, 1-based */
	int64_t index;             /* 0 for the first row (the header), then 1, 2, ... */
};

/* Called once per non-empty row; returns PROFDB_OK to go on, any other code
 * (with err filled) to stop reading. */
typedef int (*profdb__csv_row_fn)(void *arg, const struct profdb__csv_row *row);

/*
 * Read CSV text from in to its end, calling fn for every non-empty row.
 * label names the file in messages ("LABEL:LINE: ...").  Accepts LF and CRLF
 * line ends, quoted fields with commas, newlines and "" escapes, and a last
 * row without a newline.  Unquoted fields lose leading/trailing blanks.
 * *rows (may be NULL) receives the number of rows passed to fn.
 * Errors: PROFDB_EFORMAT for a NUL byte (binary data), malformed quoting, a
 * file that ends inside a quoted field or a field over 16 MiB; PROFDB_ERROR
 * for I/O; or whatever fn returned.  progress (may be NULL) is called per
 * chunk with bytes of the file read so far.
 */
int profdb__csv_read(struct profdb_input *in, const char *label, profdb__csv_row_fn fn, void *arg,
                    int64_t *rows, struct profdb_err *err, profdb_progress_fn progress,
                    void *progress_arg);

/* The same over bytes already in memory. */
int profdb__csv_read_mem(const void *buf, size_t n, const char *label, profdb__csv_row_fn fn,
                        void *arg, int64_t *rows, struct profdb_err *err);

/* For tests: the same, the bytes handed to the parser chunk at a time (as
 * file reads would: rows and fields then cross chunk ends), and with
 * libcsv_only through libcsv alone, without the line fast path; rows must
 * come out the same either way. */
int profdb__csv_read_mem_opts(const void *buf, size_t n, size_t chunk, int libcsv_only,
                             const char *label, profdb__csv_row_fn fn, void *arg, int64_t *rows,
                             struct profdb_err *err);

/* A copy of a header row, kept for the whole file (metric names point into it). */
struct profdb__csv_header {
	char **name;               /* n column names, owned through buf */
	size_t n;
	char *buf;                 /* all names, NUL-separated */
};

/* Copy row into h (h zeroed or freed before).  Returns PROFDB_OK or PROFDB_ERROR. */
int profdb__csv_header_copy(struct profdb__csv_header *h, const struct profdb__csv_row *row,
                           struct profdb_err *err);
/* Index of the column called name, or -1. */
int profdb__csv_header_find(const struct profdb__csv_header *h, const char *name);
/* The first column name that appears twice, or NULL. */
const char *profdb__csv_header_dup(const struct profdb__csv_header *h);
/* Free the copy.  A zeroed header is fine. */
void profdb__csv_header_free(struct profdb__csv_header *h);

/* Write a printable excerpt of s (at most max bytes, non-printable bytes as
 * '?') into out (cap bytes).  For quoting input in messages. */
void profdb__csv_excerpt(const char *s, size_t max, char *out, size_t cap);

#endif

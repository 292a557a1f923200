/*
 * readers.c - the one table of input formats.  Each row is defined in its
 * format's file (lib/read/ingest_<format>.c); detect.c shows a file's first
 * bytes to the rows' sniffs in this order and the first "yes" reads it.
 * Adding a format: its file with one const struct profdb_reader, one
 * extern line in internal.h, one row here (doc/DESIGN.md).
 */
#include <stddef.h>

#include "internal.h"
#include "banned.h"

const struct profdb_reader *const profdb__readers[] = {
	/* SQLite first: its magic is certain, and only it opens the file */
	&profdb__reader_ascend_db,
	/* the wall-clock results before traces: a results file is JSON or CSV too */
	&profdb__reader_pytest_benchmark,
	&profdb__reader_gbench,
	&profdb__reader_wallclock_jsonl,
	&profdb__reader_wallclock_csv,
	/* an array of events with string ts before any array of events */
	&profdb__reader_ascend_trace_view,
	&profdb__reader_kineto,
	/* text, not JSON: a kernel table */
	&profdb__reader_ascend_csv,
	NULL
};

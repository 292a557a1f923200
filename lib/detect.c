/*
 * detect.c - what is this file?  Answers from the first bytes (magic, JSON
 * top level, CSV header), never by reading a whole file and never by name
 * alone.  The folder walk in ingest.c asks here for every candidate file.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "detect.h"
#include "banned.h"

#define SNIFF_BYTES (1u << 20) /* how far we look for "traceEvents" */

static const unsigned char sqlite_magic[16] = "SQLite format 3";

/* Skip JSON white space; returns the index of the first other byte. */
static size_t skip_ws(const char *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
		i++;
	return i;
}

int profdb__detect_file(const char *path, char *reason, size_t cap)
{
	struct profdb_input *in = NULL;
	struct profdb_err err = { 0 };
	char *buf = NULL;
	size_t n = 0, i;
	int kind = PROFDB_SRC_NONE;
	FILE *f;
	unsigned char head[16];

	/* SQLite files are not gzip: check the raw magic first */
	f = fopen(path, "rb");
	if (!f) {
		snprintf(reason, cap, "cannot open");
		return PROFDB_SRC_NONE;
	}
	if (fread(head, 1, 16, f) == 16 && memcmp(head, sqlite_magic, 16) == 0) {
		fclose(f);
		return PROFDB_SRC_ASCEND_DB;
	}
	fclose(f);

	if (profdb_input_open(&in, path, &err) != PROFDB_OK) {
		snprintf(reason, cap, "%s", err.msg);
		return PROFDB_SRC_NONE;
	}
	buf = malloc(SNIFF_BYTES + 1);
	if (!buf) {
		profdb_input_close(in);
		snprintf(reason, cap, "out of memory");
		return PROFDB_SRC_NONE;
	}
	while (n < SNIFF_BYTES) {
		long got = profdb_input_read(in, buf + n, SNIFF_BYTES - n, &err);
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	buf[n] = '\0';
	i = skip_ws(buf, n, 0);
	if (i < n && buf[i] == '{') {
		if (strstr(buf, "\"traceEvents\""))
			kind = PROFDB_SRC_KINETO;
		else
			snprintf(reason, cap, "JSON object without \"traceEvents\" in its first %u bytes: not a trace",
			         SNIFF_BYTES);
	} else if (i < n && buf[i] == '[') {
		size_t j = skip_ws(buf, n, i + 1);
		/* an array trace: events are objects with a "ph" or "name" key */
		if (j < n && (buf[j] == ']' || (buf[j] == '{' && (strstr(buf, "\"ph\"") || strstr(buf, "\"ts\"")))))
			kind = PROFDB_SRC_KINETO;
		else
			snprintf(reason, cap, "JSON array that does not hold trace events");
	} else if (profdb_input_is_gzip(in)) {
		snprintf(reason, cap, "gzip file that does not hold JSON");
	} else if (strncmp(buf + i, "Step Id,", 8) == 0 || strstr(buf, "Accelerator Core") ||
	           strstr(buf, "Duration(us)")) {
		kind = PROFDB_SRC_KERNEL_CSV;
	} else {
		snprintf(reason, cap, "not a format profdb reads");
	}
	profdb_input_close(in);
	free(buf);
	return kind;
}

/*
 * detect.c - what is this file?  Answers from the first bytes (magic, JSON
 * top level, CSV header), never by reading a whole file and never by name
 * alone.  The folder walk in ingest.c asks here for every candidate file.
 *
 * It looks at 64 KiB first and reads on (doubling, up to SNIFF_BYTES) only
 * while the answer is still "no" and more bytes could make it "yes": a
 * kernel_details.csv or a trace whose "traceEvents" comes early costs one
 * small read, not 1 MiB hashed and (for .gz) inflated.  The answers are
 * those of looking at SNIFF_BYTES at once: every "yes" test below still
 * holds with more bytes, and a "no" is given only at SNIFF_BYTES or the end.
 * Plain files are read with stdio; only gzip goes through profdb_input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "detect.h"
#include "banned.h"

#define SNIFF_BYTES (1u << 20) /* how far we look for "traceEvents" */
#define FIRST_BYTES (1u << 16) /* the first look */
#define UNDECIDED (-1)

static const unsigned char sqlite_magic[16] = "SQLite format 3";

/* Skip JSON white space; returns the index of the first other byte. */
static size_t skip_ws(const char *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
		i++;
	return i;
}

/* Is the value of the first "ts" key of buf a string ("ts": "1736...")?
 * One file writes ts one way, so the first key answers for all. */
static int string_ts(const char *buf)
{
	for (const char *p = strstr(buf, "\"ts\""); p; p = strstr(p + 4, "\"ts\"")) {
		const char *q = p + 4;
		while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
			q++;
		if (*q != ':')
			continue; /* "ts" as a value, not a key */
		q++;
		while (*q == ' ' || *q == '\t' || *q == '\r' || *q == '\n')
			q++;
		return *q == '"';
	}
	return 0;
}

/*
 * The kind of a file that starts with buf[0, n) (NUL-terminated; strstr
 * stops at a NUL byte as it did over the whole sniff), or UNDECIDED when
 * the answer would be "no" but the file goes on (full: n is all we may
 * look at).
 */
static int classify(const char *buf, size_t n, int full, int gzip, char *reason, size_t cap)
{
	size_t i = skip_ws(buf, n, 0);
	int bench = profdb__bench_detect(buf, n);
	if (bench != PROFDB_SRC_NONE)
		return bench;
	if (i < n && buf[i] == '{') {
		if (strstr(buf, "\"traceEvents\""))
			return PROFDB_SRC_KINETO;
		if (!full)
			return UNDECIDED;
		snprintf(reason, cap, "JSON object without \"traceEvents\" in its first %u bytes: not a trace",
		         SNIFF_BYTES);
		return PROFDB_SRC_NONE;
	}
	if (i < n && buf[i] == '[') {
		size_t j = skip_ws(buf, n, i + 1);
		/* an array trace: events are objects with a "ph" or "name" key;
		 * torch_npu's trace_view.json writes ts as a string, Kineto never */
		if (j < n && buf[j] == '{' && string_ts(buf))
			return PROFDB_SRC_ASCEND_TRACE_VIEW;
		if (j < n && (buf[j] == ']' || (buf[j] == '{' && (strstr(buf, "\"ph\"") || strstr(buf, "\"ts\"")))))
			return PROFDB_SRC_KINETO;
		if (!full && (j >= n || buf[j] == '{'))
			return UNDECIDED;
		snprintf(reason, cap, "JSON array that does not hold trace events");
		return PROFDB_SRC_NONE;
	}
	if (i >= n && !full)
		return UNDECIDED;              /* only white space so far */
	if (gzip) {
		snprintf(reason, cap, "gzip file that does not hold JSON");
		return PROFDB_SRC_NONE;
	}
	if (strncmp(buf + i, "Step Id,", 8) == 0 || strstr(buf, "Accelerator Core") ||
	    strstr(buf, "Duration(us)"))
		return PROFDB_SRC_KERNEL_CSV;
	if (!full)
		return UNDECIDED;
	snprintf(reason, cap, "not a format profdb reads");
	return PROFDB_SRC_NONE;
}

/* Read into buf[*n, want) from f or, for gzip, in; *eof set at the end. */
static void fill(FILE *f, struct profdb_input *in, char *buf, size_t *n, size_t want, int *eof,
                 struct profdb_err *err)
{
	while (*n < want && !*eof) {
		long got;
		if (in)
			got = profdb_input_read(in, buf + *n, want - *n, err);
		else
			got = (long)fread(buf + *n, 1, want - *n, f);
		if (got <= 0)
			*eof = 1;
		else
			*n += (size_t)got;
	}
	buf[*n] = '\0';
}

int profdb__detect_file(const char *path, char *reason, size_t cap)
{
	struct profdb_input *in = NULL;
	struct profdb_err err = { 0 };
	char *buf = NULL;
	size_t n = 0, want = FIRST_BYTES;
	int kind = PROFDB_SRC_NONE, eof = 0, gzip;
	struct stat sb;
	FILE *f;

	f = fopen(path, "rb");
	if (!f) {
		snprintf(reason, cap, "cannot open");
		return PROFDB_SRC_NONE;
	}
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		snprintf(reason, cap, "%s: not a regular file", path);
		goto out;
	}
	buf = malloc(SNIFF_BYTES + 1);
	if (!buf) {
		snprintf(reason, cap, "out of memory");
		goto out;
	}
	/* SQLite files are not gzip: check the raw magic first */
	fill(f, NULL, buf, &n, 16, &eof, &err);
	if (n == 16 && memcmp(buf, sqlite_magic, 16) == 0) {
		kind = PROFDB_SRC_ASCEND_DB;
		goto out;
	}
	gzip = n >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b;
	if (gzip) {
		if (profdb_input_open(&in, path, &err) != PROFDB_OK) {
			snprintf(reason, cap, "%s", err.msg);
			goto out;
		}
		n = 0;
		eof = 0;
	}
	for (;;) {
		fill(f, in, buf, &n, want, &eof, &err);
		kind = classify(buf, n, eof || n >= SNIFF_BYTES, gzip, reason, cap);
		if (kind != UNDECIDED)
			break;
		want = want * 2 < SNIFF_BYTES ? want * 2 : SNIFF_BYTES;
	}
	/* a gzip file that could not be decoded: say why (input.c's message,
	 * less its leading "path: ", which the caller adds) */
	if (kind == PROFDB_SRC_NONE && err.code != PROFDB_OK)
		snprintf(reason, cap, "%s", strncmp(err.msg, path, strlen(path)) == 0 &&
		         err.msg[strlen(path)] == ':' ? err.msg + strlen(path) + 2 : err.msg);
out:
	profdb_input_close(in);
	fclose(f);
	free(buf);
	return kind;
}

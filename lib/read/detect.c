/*
 * detect.c - what is this file?  Answers from the first bytes, never by
 * reading a whole file and never by name: it shows them to the sniff of
 * every row of the reader table (readers.c) and takes the first "yes".
 * The folder walk (ingest_walk.c) asks here for every candidate file.
 *
 * It looks at 64 KiB first and reads on (doubling, up to PROFDB_SNIFF_BYTES)
 * only while no sniff said yes and one said "more": a kernel_details.csv or
 * a trace whose "traceEvents" comes early costs one small read, not 1 MiB
 * hashed and (for .gz) inflated.  The answers are those of looking at
 * PROFDB_SNIFF_BYTES at once, as long as every sniff's "yes" still holds
 * with more bytes and it says "no" (not "more") only when more bytes
 * cannot change that.  Plain files are read with stdio; only gzip goes
 * through profdb_input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "detect.h"
#include "banned.h"

#define FIRST_BYTES (1u << 16) /* the first look */

size_t profdb__sniff_ws(const char *b, size_t n, size_t i)
{
	while (i < n && (b[i] == ' ' || b[i] == '\t' || b[i] == '\r' || b[i] == '\n'))
		i++;
	return i;
}

/*
 * Ask every row of the reader table about buf[0, n): the first "yes" in
 * table order wins.  NULL with *more set when none said yes but one could
 * with more bytes, with *damaged set when one found the file damaged.
 */
static const struct profdb_reader *ask_readers(struct profdb_sniff *s, int *more, int *damaged)
{
	*more = 0;
	for (size_t i = 0; profdb__readers[i]; i++) {
		int a = profdb__readers[i]->sniff(s);
		if (a == PROFDB_SNIFF_YES)
			return profdb__readers[i];
		if (a == PROFDB_SNIFF_DAMAGED) {
			*damaged = 1;
			return NULL;
		}
		if (a == PROFDB_SNIFF_MORE)
			*more = 1;
	}
	return NULL;
}

/* Why no reader took it, when no sniff said: gzip is this file's concern
 * (the sniffs see what it holds), the rest is not ours. */
static void why_not(const struct profdb_sniff *s)
{
	if (s->reason[0])
		return;
	snprintf(s->reason, s->cap, "%s",
	         s->gzip ? "gzip file that does not hold JSON" : "not a format profdb reads");
}

/* Read into buf[*n, want) from f or, for gzip, in; *eof set at the end. */
static void fill(FILE *f, struct profdb_input *in, char *buf, size_t *n, size_t want, int *eof,
                 struct profdb_err *err)
{
	while (*n < want && !*eof) {
		long got;
		if (in)
			got = profdb__input_read(in, buf + *n, want - *n, err);
		else
			got = (long)fread(buf + *n, 1, want - *n, f);
		if (got <= 0)
			*eof = 1;
		else
			*n += (size_t)got;
	}
	buf[*n] = '\0';
}

int profdb__detect_file(const struct profdb_reader **out, const char *path, char *reason, size_t cap)
{
	struct profdb_input *in = NULL;
	struct profdb_err err = { 0 };
	struct profdb_sniff s = { .path = path, .reason = reason, .cap = cap };
	const struct profdb_reader *found = NULL;
	char *buf = NULL;
	size_t n = 0, want = FIRST_BYTES;
	int eof = 0, more, damaged = 0, rc = PROFDB_EFORMAT;
	struct stat sb;
	FILE *f;

	*out = NULL;
	if (cap)
		reason[0] = '\0';
	f = fopen(path, "rb");
	if (!f) {
		snprintf(reason, cap, "cannot open");
		return PROFDB_EFORMAT;
	}
	if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
		snprintf(reason, cap, "%s: not a regular file", path);
		goto out;
	}
	buf = malloc(PROFDB_SNIFF_BYTES + 1);
	if (!buf) {
		snprintf(reason, cap, "out of memory");
		goto out;
	}
	/* the gzip magic on the raw bytes: then the sniffs see what it holds */
	fill(f, NULL, buf, &n, 2, &eof, &err);
	s.gzip = n >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b;
	if (s.gzip) {
		/* the built-in gzip bound: a sniff reads PROFDB_SNIFF_BYTES at most */
		const struct profdb_limits lim = PROFDB_LIMITS_INIT;
		if (profdb__input_open(&in, path, lim.gzip_max_bytes, &err) != PROFDB_OK) {
			snprintf(reason, cap, "%s", err.msg);
			goto out;
		}
		n = 0;
		eof = 0;
	}
	for (;;) {
		fill(f, in, buf, &n, want, &eof, &err);
		s.buf = buf;
		s.n = n;
		s.full = eof || n >= PROFDB_SNIFF_BYTES;
		found = ask_readers(&s, &more, &damaged);
		if (found || damaged || !more || s.full)
			break;
		want = want * 2 < PROFDB_SNIFF_BYTES ? want * 2 : PROFDB_SNIFF_BYTES;
	}
	if (!found && !damaged) {
		why_not(&s);
		rc = PROFDB_EUNKNOWN;
	}
	/* a gzip file that could not be decoded: say why (input.c's message,
	 * less its leading "path: ", which the caller adds) */
	if (!found && err.code != PROFDB_OK) {
		snprintf(reason, cap, "%s", strncmp(err.msg, path, strlen(path)) == 0 &&
		         err.msg[strlen(path)] == ':' ? err.msg + strlen(path) + 2 : err.msg);
		rc = PROFDB_EFORMAT;
	}
	if (found) {
		*out = found;
		rc = PROFDB_OK;
	}
out:
	profdb__input_close(in);
	fclose(f);
	free(buf);
	return rc;
}

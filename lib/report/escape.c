/*
 * escape.c - XML/HTML escaping shared by report_junit.c and report_html.c
 * (one definition, so neither report borrows from the other), and the CSV
 * field quoting of format_csv.c and the csv report (report.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profdb.h"
#include "escape.h"
#include "util/utf8.h"
#include "banned.h"

void profdb__xml_text(FILE *out, const char *text)
{
	char *tmp;
	const char *s = profdb__utf8_safe(text, &tmp);
	for (; *s; s++) {
		unsigned char ch = (unsigned char)*s;
		switch (ch) {
		case '&': fputs("&amp;", out); break;
		case '<': fputs("&lt;", out); break;
		case '>': fputs("&gt;", out); break;
		case '"': fputs("&quot;", out); break;
		case '\'': fputs("&#39;", out); break;
		default:
			/* XML 1.0 has no way to write these, not even as &#N; */
			fputc(ch < 0x20 && ch != '\t' && ch != '\n' && ch != '\r' ? '?' : ch, out);
		}
	}
	free(tmp);
}

void profdb__csv_field(FILE *out, const char *text)
{
	char *tmp;
	const char *s = profdb__utf8_safe(text, &tmp);
	size_t n = strlen(s);
	if (n == 0 || (strpbrk(s, ",\"\r\n") == NULL && s[0] != ' ' && s[n - 1] != ' ')) {
		fputs(s, out);
		free(tmp);
		return;
	}
	fputc('"', out);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', out);
		fputc(*s, out);
	}
	fputc('"', out);
	free(tmp);
}

/* Is code point c one a terminal acts on rather than shows: C1 controls,
 * and the bidi marks, embeddings, overrides and isolates that reorder
 * what follows them (a run name with U+202E reads backwards)? */
static int steers(unsigned c)
{
	return (c >= 0x80 && c <= 0x9f) || c == 0x61c || c == 0x200e || c == 0x200f ||
	       (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069);
}

void profdb_text_write(FILE *out, const char *text)
{
	for (const unsigned char *p = (const unsigned char *)text; *p;) {
		size_t n = *p < 0x80 ? 1 : profdb__utf8_len((const char *)p);
		unsigned c = *p;
		if (n == 0) { /* not UTF-8: the byte as it is, visibly */
			fprintf(out, "\\x%02x", *p++);
			continue;
		}
		if (n > 1) { /* the code point, from a valid sequence */
			c = *p & (0xff >> (n + 1));
			for (size_t i = 1; i < n; i++)
				c = c << 6 | (p[i] & 0x3f);
		}
		if (c == '\n')
			fputs("\\n", out);
		else if (c == '\r')
			fputs("\\r", out);
		else if (c == '\t')
			fputs("\\t", out);
		else if (c < 0x20 || c == 0x7f)
			fprintf(out, "\\x%02x", c);
		else if (steers(c))
			fprintf(out, "\\u%04x", c);
		else
			fwrite(p, 1, n, out);
		p += n;
	}
}

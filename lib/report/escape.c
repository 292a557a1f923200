/*
 * escape.c - XML/HTML escaping shared by report_junit.c and report_html.c
 * (one definition, so neither report borrows from the other), and the CSV
 * field quoting of format_csv.c and the csv report (report.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "escape.h"
#include "utf8.h"
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

/*
 * escape.c - XML/HTML escaping shared by report_junit.c and report_html.c
 * (one definition, so neither report borrows from the other).
 */
#include <stdio.h>
#include <stdlib.h>

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

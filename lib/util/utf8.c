/*
 * utf8.c - validate UTF-8 and replace what is not: each byte that does not
 * begin a well-formed sequence becomes U+FFFD (the W3C/WHATWG "maximal
 * subpart" rule simplified to one replacement per bad byte), so an output
 * has as many replacements as the input had bad bytes.
 */
#include <stdlib.h>
#include <string.h>

#include "utf8.h"
#include "banned.h"

size_t profdb__utf8_len(const char *str)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t n;
	unsigned cp;
	if (s[0] < 0x80)
		return 1;
	if ((s[0] & 0xe0) == 0xc0) {
		n = 2;
		cp = s[0] & 0x1fu;
	} else if ((s[0] & 0xf0) == 0xe0) {
		n = 3;
		cp = s[0] & 0x0fu;
	} else if ((s[0] & 0xf8) == 0xf0) {
		n = 4;
		cp = s[0] & 0x07u;
	} else {
		return 0;
	}
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80) /* also stops at the NUL */
			return 0;
		cp = (cp << 6) | (s[i] & 0x3fu);
	}
	/* overlong forms, surrogates and values past U+10FFFF are invalid */
	if ((n == 2 && cp < 0x80) || (n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) ||
	    (cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff)
		return 0;
	return n;
}

/* Bytes of s that start no valid sequence. */
static size_t count_bad(const char *s)
{
	size_t bad = 0;
	while (*s) {
		size_t n = profdb__utf8_len(s);
		bad += n == 0;
		s += n ? n : 1;
	}
	return bad;
}

char *profdb__utf8_dup(const char *s)
{
	size_t bad = count_bad(s), len = strlen(s), o = 0;
	char *out = malloc(len + 2 * bad + 1); /* one byte becomes three */
	if (!out)
		return NULL;
	while (*s) {
		size_t n = profdb__utf8_len(s);
		if (n == 0) {
			memcpy(out + o, PROFDB_UTF8_REPLACEMENT, 3);
			o += 3;
			s++;
		} else {
			memcpy(out + o, s, n);
			o += n;
			s += n;
		}
	}
	out[o] = '\0';
	return out;
}

const char *profdb__utf8_safe(const char *s, char **tmp)
{
	*tmp = NULL;
	if (count_bad(s) == 0)
		return s;
	*tmp = profdb__utf8_dup(s);
	return *tmp ? *tmp : "?";
}

size_t profdb__utf8_width(const char *s)
{
	size_t w = 0;
	for (; *s; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			w++;
	return w;
}

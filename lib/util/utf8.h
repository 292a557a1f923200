/*
 * utf8.h - one definition of valid UTF-8 for every writer (utf8.c): text
 * that is not valid UTF-8 (a kernel name with a stray byte) is written
 * with each bad byte as U+FFFD, so json, xml, html, csv and md outputs
 * always decode.
 */
#ifndef PROFDB_UTF8_H
#define PROFDB_UTF8_H

#include <stddef.h>

#define PROFDB_UTF8_REPLACEMENT "\xef\xbf\xbd" /* U+FFFD in UTF-8 */

/* Length (1-4) of the valid UTF-8 sequence at s, 0 if the bytes there are
 * not one (a lone continuation, overlong, surrogate, past U+10FFFF or cut
 * short).  s points at a non-NUL byte. */
size_t profdb__utf8_len(const char *s);

/* Display width of UTF-8 text in a terminal: one column per character
 * (its lead bytes), as the table writer and name shortening count it. */
size_t profdb__utf8_width(const char *s);

/* s if it is valid UTF-8; else a copy with every byte that starts no valid
 * sequence replaced by U+FFFD, kept in *tmp for the caller to free() (a
 * fixed "?" on out of memory).  *tmp is set to NULL or the copy. */
const char *profdb__utf8_safe(const char *s, char **tmp);

/* A malloc'd copy of s with invalid sequences replaced (NULL: no memory). */
char *profdb__utf8_dup(const char *s);

#endif

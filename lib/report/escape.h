/*
 * escape.h - text escaped for the markup writers (escape.c): the JUnit XML
 * and HTML reports write names and messages through one escaper, so a
 * kernel name with '<' or a stray byte reads the same in both and never
 * breaks the document; the csv format and the csv report quote fields
 * one way.  Validity of UTF-8 itself is utf8.h's.
 */
#ifndef PROFDB_ESCAPE_H
#define PROFDB_ESCAPE_H

#include <stdio.h>

/* Write s as XML/HTML text or attribute value: & < > " ' as entities,
 * bytes that start no valid UTF-8 sequence as U+FFFD, and the control
 * bytes XML 1.0 forbids (all below 0x20 but tab, LF, CR) as '?'. */
void profdb__xml_text(FILE *out, const char *s);

/* Write s as one RFC 4180 field: quoted (inner quotes doubled) when it
 * holds a comma, quote, CR or LF, or starts or ends with a space (readers
 * that trim would lose it); bytes of invalid UTF-8 as U+FFFD. */
void profdb__csv_field(FILE *out, const char *s);

#endif

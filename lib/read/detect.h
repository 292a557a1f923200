/*
 * detect.h - content sniffing (detect.c), used by the ingest driver.
 */
#ifndef PROFDB_DETECT_H
#define PROFDB_DETECT_H

#include <stddef.h>

struct profdb_reader;

/* The reader of one file (a row of profdb__readers) into *out: PROFDB_OK;
 * else *out NULL and reason (cap bytes) says why: PROFDB_EUNKNOWN when no
 * reader takes the file, PROFDB_EFORMAT when it cannot be read (not a
 * regular file, a gzip stream that does not decode, a damaged SQLite file). */
int profdb__detect_file(const struct profdb_reader **out, const char *path, char *reason, size_t cap);

#endif

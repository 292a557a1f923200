/*
 * detect.h - content sniffing (detect.c), used by the ingest driver.
 */
#ifndef PROFDB_DETECT_H
#define PROFDB_DETECT_H

#include <stddef.h>

struct profdb_reader;

/* The reader of one file (a row of profdb__readers), or NULL with reason
 * (cap bytes) saying why it is not ours. */
const struct profdb_reader *profdb__detect_file(const char *path, char *reason, size_t cap);

#endif

/*
 * detect.h - content sniffing (detect.c), used by the ingest driver.
 */
#ifndef PROFDB_DETECT_H
#define PROFDB_DETECT_H

#include <stddef.h>

/* Returns an enum profdb_source_kind for one file; for PROFDB_SRC_NONE,
 * reason (cap bytes) says why it is not ours. */
int profdb__detect_file(const char *path, char *reason, size_t cap);

#endif

/*
 * readers.c - profdb__readers, the input formats in the order detect.c
 * asks them, made from PROFDB__READER_TABLE (internal.h: the one list, and
 * why it is in that order).  Adding a format: its file with one const
 * struct profdb_reader profdb__reader_<name>, one row in that list
 * (doc/DESIGN.md).
 */
#include <stddef.h>

#include "internal.h"
#include "banned.h"

#define ROW(name) &profdb__reader_##name,
const struct profdb_reader *const profdb__readers[] = { PROFDB__READER_TABLE(ROW) NULL };
#undef ROW

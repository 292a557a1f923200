/*
 * labels.h - the short labels of kernel names in a report's tables and
 * chart (labels.c): each name shortened one way (profdb__name_shorten) and,
 * where different names shorten alike, numbered " #k" in table order, so
 * the md and html reports label the same kernels the same way and no two
 * labels of a table read alike.  Private to lib/report.
 */
#ifndef PROFDB_LABELS_H
#define PROFDB_LABELS_H

#include <stddef.h>
#include <stdint.h>

/* key shortened to max display columns, with room for a " #k" after it
 * (profdb__label_number).  NULL when out of memory; free() it. */
char *profdb__label_shorten(const char *key, size_t max);

/* " #k" appended to a label from profdb__label_shorten. */
void profdb__label_number(char *label, int64_t k);

/*
 * The labels of the n names keys[] (distinct names, in table order) into
 * *out: n strings, each name shortened to max columns, numbered " #k" (k
 * its place among the names whose labels read alike) where several read
 * alike.  Free with profdb__labels_free(*out, n).  PROFDB_ERROR when out
 * of memory (*out NULL).
 */
int profdb__labels_make(char ***out, const char *const *keys, size_t n, size_t max);

void profdb__labels_free(char **labels, size_t n);

#endif

/*
 * kernels_keys.h - the grouping keys of profdb kernels --by
 * (query_kernels_keys.c), which query_kernels.c groups on.
 */
#ifndef PROFDB_KERNELS_KEYS_H
#define PROFDB_KERNELS_KEYS_H

#include <stddef.h>

#include "query.h"
#include "store/tags.h"

/* A grouping key: how --by names it, the output column, the kernel column. */
struct key_def {
	const char *opt;           /* --by spelling */
	const char *alias;         /* another accepted spelling, or NULL */
	const char *col;           /* output column name */
	const char *expr;          /* kernel column grouped on */
	int resolve;               /* 0 integer, 1 str id, 2 kind id, 3 text (a run tag, filter.c) */
};

#define MAXKEYS 10

struct keys {
	const struct key_def *k[MAXKEYS]; /* in output order: integers, then text */
	size_t n;
	struct key_def tag[MAXKEYS];       /* tag:KEY keys (k[] points here) */
	char tagname[MAXKEYS][PROFDB_TAG_KEY_MAX + 1]; /* their KEYs */
	size_t ntags;
};

/* Parse "name,type" (',' or '+' separated) into out (zeroed by the
 * caller); EUSAGE naming the keys for an unknown or repeated one. */
int profdb__kernels_parse_by(profdb *db, const char *by, struct keys *out);
/* The position of the key with output column col in ks (its kN/vN number), or -1. */
int profdb__kernels_has_key(const struct keys *ks, const char *col);
/* ", <prefix>k0, <prefix>k1, ..." of ks's keys. */
void profdb__kernels_key_list(struct profdb__qbuf *b, const struct keys *ks, const char *prefix);

#endif

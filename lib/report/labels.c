/*
 * labels.c - short, distinct labels of kernel names for the md and html
 * reports (labels.h).  Sorted, not compared pairwise: a table may hold
 * every kernel of a comparison.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "labels.h"
#include "banned.h"

#define NUMBER_ROOM 24 /* " #" and an int64_t's digits, and the NUL */

char *profdb__label_shorten(const char *key, size_t max)
{
	size_t n = strlen(key);
	char *s = malloc(n + NUMBER_ROOM);
	if (!s)
		return NULL;
	memcpy(s, key, n + 1);
	profdb__name_shorten(s, max);
	return s;
}

void profdb__label_number(char *label, int64_t k)
{
	size_t len = strlen(label);
	snprintf(label + len, NUMBER_ROOM, " #%" PRId64, k);
}

struct label_ref {
	const char *text;          /* the shortened label */
	size_t pos;                /* its name's place in the table */
};

static int cmp_label_ref(const void *a, const void *b)
{
	const struct label_ref *x = a, *y = b;
	int d = strcmp(x->text, y->text);
	return d ? d : (x->pos > y->pos) - (x->pos < y->pos);
}

void profdb__labels_free(char **labels, size_t n)
{
	for (size_t i = 0; labels && i < n; i++)
		free(labels[i]);
	free(labels);
}

int profdb__labels_make(char ***out, const char *const *keys, size_t n, size_t max)
{
	char **lab = calloc(n ? n : 1, sizeof *lab);
	struct label_ref *ref = calloc(n ? n : 1, sizeof *ref);
	*out = NULL;
	if (!lab || !ref)
		goto fail;
	for (size_t j = 0; j < n; j++) {
		lab[j] = profdb__label_shorten(keys[j], max);
		if (!lab[j])
			goto fail;
		ref[j] = (struct label_ref){ lab[j], j };
	}
	qsort(ref, n, sizeof *ref, cmp_label_ref);
	/* the names are distinct: a run of equal labels is different names
	 * that read alike */
	for (size_t i = 0, e; i < n; i = e) {
		for (e = i + 1; e < n && strcmp(ref[e].text, ref[i].text) == 0; e++)
			;
		for (size_t k = i; e - i > 1 && k < e; k++)
			profdb__label_number(lab[ref[k].pos], (int64_t)(k - i + 1));
	}
	free(ref);
	*out = lab;
	return PROFDB_OK;
fail:
	free(ref);
	profdb__labels_free(lab, n);
	return PROFDB_ERROR;
}

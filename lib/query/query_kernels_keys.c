/*
 * query_kernels_keys.c - the grouping keys of profdb kernels --by: how
 * each is spelled, the output column and the kernel column grouped on;
 * tag:KEY keys group on a run tag (tags.c).
 */
#include <stdio.h>
#include <string.h>

#include "kernels_keys.h"
#include "banned.h"

static const struct key_def key_defs[] = {
	{ "name", NULL, "name", "name_id", 1 },
	{ "base-name", "base_name", "base_name", "base_id", 1 },
	{ "type", NULL, "type", "type_id", 1 },
	{ "core", NULL, "core", "core_id", 1 },
	{ "kind", NULL, "kind", "kind", 2 },
	{ "shape", "shapes", "shape", "in_shapes_id", 1 },
	{ "rank", NULL, "rank", "rank", 0 },
	{ "device", NULL, "device", "device", 0 },
	{ "stream", NULL, "stream", "stream", 0 },
	{ "step", NULL, "step", "step", 0 },
};
#define NKEYDEFS (sizeof key_defs / sizeof key_defs[0])

/* EUSAGE naming the keys, with the nearest when one is close. */
static int unknown_key(profdb *db, const char *s, size_t len)
{
	const char *names[NKEYDEFS];
	char word[64], hint[96];
	for (size_t i = 0; i < NKEYDEFS; i++)
		names[i] = key_defs[i].opt;
	snprintf(word, sizeof word, "%.*s", (int)(len < sizeof word ? len : sizeof word - 1), s);
	return profdb__error(db, PROFDB_EUSAGE, "unknown grouping key '%.*s'%s (name, base-name,"
	                     " type, core, kind, shape, rank, device, stream, step, tag:KEY)", (int)len, s,
	                     profdb__did_you_mean(hint, sizeof hint, word, names, NKEYDEFS));
}

int profdb__kernels_parse_by(profdb *db, const char *by, struct keys *out)
{
	const struct key_def *given[MAXKEYS];
	size_t n = 0;
	const char *p = by && *by ? by : "name";

	while (*p) {
		size_t len = strcspn(p, ",+"), i;
		const char *s = p;
		int tag = 0;
		while (len && *s == ' ')
			s++, len--;
		while (len && s[len - 1] == ' ')
			len--;
		for (i = 0; i < NKEYDEFS; i++) {
			const struct key_def *d = &key_defs[i];
			if ((strlen(d->opt) == len && memcmp(d->opt, s, len) == 0) ||
			    (d->alias && strlen(d->alias) == len && memcmp(d->alias, s, len) == 0))
				break;
		}
		if (i == NKEYDEFS && n < MAXKEYS && (tag = profdb__tags_by_key(db, s, len, out->tagname[out->ntags])) < 0)
			return tag;
		if (i == NKEYDEFS && n < MAXKEYS && tag) {
			const char *tn = out->tagname[out->ntags];
			out->tag[out->ntags] = (struct key_def){ tn, NULL, tn, profdb__tags_by_col(out->ntags), 3 };
			given[n++] = &out->tag[out->ntags++];
			p += strcspn(p, ",+");
			if (*p)
				p++;
			continue;
		}
		if (i == NKEYDEFS)
			return unknown_key(db, s, len);
		for (size_t j = 0; j < n; j++)
			if (given[j] == &key_defs[i])
				return profdb__error(db, PROFDB_EUSAGE, "grouping key '%s' given twice", key_defs[i].opt);
		given[n++] = &key_defs[i];
		p += strcspn(p, ",+");
		if (*p)
			p++;
	}
	out->n = 0;
	for (size_t pass = 0; pass < 2; pass++)
		for (size_t j = 0; j < n; j++)
			if ((given[j]->resolve == 0) == (pass == 0))
				out->k[out->n++] = given[j];
	return PROFDB_OK;
}

int profdb__kernels_keys(profdb *db, const char *by, const char **exprs, int *resolve, size_t *n)
{
	struct keys ks;
	int rc;
	memset(&ks, 0, sizeof ks);
	if ((rc = profdb__kernels_parse_by(db, by, &ks)) != PROFDB_OK)
		return rc;
	for (size_t i = 0; i < ks.n; i++) {
		exprs[i] = ks.k[i]->resolve == 3 ? NULL : ks.k[i]->expr; /* a tag's column is per query */
		resolve[i] = ks.k[i]->resolve;
	}
	*n = ks.n;
	return PROFDB_OK;
}

int profdb__kernels_has_key(const struct keys *ks, const char *col)
{
	for (size_t i = 0; i < ks->n; i++)
		if (strcmp(ks->k[i]->col, col) == 0)
			return (int)i;
	return -1;
}

void profdb__kernels_key_list(struct profdb__qbuf *b, const struct keys *ks, const char *prefix)
{
	for (size_t i = 0; i < ks->n; i++)
		profdb__qbuf_addf(b, ", %sk%zu", prefix, i);
}

/* The group CTE g of plain statistics. */

/*
 * suggest.c - "did you mean" for every mistyped name: commands and options
 * (cmd/), and the values the library checks (--by keys, --sort columns,
 * the columns of a near-miss CSV header), so all offer the same guess.
 *
 * Git's rule of thumb: offer the nearest name only when it is close enough
 * that the user most likely meant it (an edit distance of at most a third of
 * the longer word, and at least 1 allowed), and only when it is the single
 * nearest name; otherwise say nothing rather than guess.
 */
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "banned.h"

#define SUGGEST_MAXLEN 64

/* Optimal string alignment distance (Levenshtein plus adjacent swaps). */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);
	size_t d[SUGGEST_MAXLEN + 1][SUGGEST_MAXLEN + 1];

	if (la > SUGGEST_MAXLEN || lb > SUGGEST_MAXLEN)
		return (size_t)-1;
	for (size_t i = 0; i <= la; i++)
		d[i][0] = i;
	for (size_t j = 0; j <= lb; j++)
		d[0][j] = j;
	for (size_t i = 1; i <= la; i++) {
		for (size_t j = 1; j <= lb; j++) {
			size_t cost = a[i - 1] != b[j - 1];
			size_t best = d[i - 1][j - 1] + cost;
			if (d[i - 1][j] + 1 < best)
				best = d[i - 1][j] + 1;
			if (d[i][j - 1] + 1 < best)
				best = d[i][j - 1] + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    d[i - 2][j - 2] + 1 < best)
				best = d[i - 2][j - 2] + 1;
			d[i][j] = best;
		}
	}
	return d[la][lb];
}

const char *profdb_name_nearest(const char *word, const char *const *names, size_t n)
{
	const char *best = NULL;
	size_t best_d = (size_t)-1;
	int tie = 0;

	for (size_t i = 0; i < n; i++) {
		size_t d = edit_distance(word, names[i]);
		if (d < best_d) {
			best_d = d;
			best = names[i];
			tie = 0;
		} else if (d == best_d) {
			tie = 1;
		}
	}
	if (!best || tie)
		return NULL;
	size_t longer = strlen(word) > strlen(best) ? strlen(word) : strlen(best);
	size_t allowed = longer / 3 > 0 ? longer / 3 : 1;
	return best_d <= allowed ? best : NULL;
}

const char *profdb__did_you_mean(char *buf, size_t cap, const char *word, const char *const *names, size_t n)
{
	const char *near = word && *word ? profdb_name_nearest(word, names, n) : NULL;
	if (cap)
		buf[0] = '\0';
	if (near && cap)
		snprintf(buf, cap, "; did you mean '%s'?", near);
	return buf;
}

/*
 * step_sums.c - kernels summed per (rank, step, name, kind) as their rows
 * are sent (step_sums.h says why), in an open-addressing map of cells.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "name_stats.h"
#include "step_sums.h"
#include "banned.h"

struct cell {
	int64_t rank, step, name_id, base_id;
	int64_t calls, total;
	int kind;                  /* after the 8-byte fields: 56 bytes a cell */
	int has_step;
};

struct profdb__step_sums {
	struct cell *c;            /* owned: in first-seen order */
	size_t n, cap, max;
	uint32_t *map;             /* owned: hash -> cell index + 1; a power of two */
	size_t nmap;
	int dropped;
};

struct profdb__step_sums *profdb__step_sums_new(size_t max_cells)
{
	struct profdb__step_sums *s = calloc(1, sizeof *s);
	if (s)
		s->max = max_cells;
	return s;
}

static void release(struct profdb__step_sums *s)
{
	free(s->c);
	free(s->map);
	s->c = NULL;
	s->map = NULL;
	s->n = s->cap = s->nmap = 0;
}

void profdb__step_sums_free(struct profdb__step_sums *s)
{
	if (!s)
		return;
	release(s);
	free(s);
}

void profdb__step_sums_drop(struct profdb__step_sums *s)
{
	if (!s)
		return;
	release(s);
	s->dropped = 1;
}

int profdb__step_sums_valid(const struct profdb__step_sums *s)
{
	return s && !s->dropped;
}

static size_t hash_of(const struct cell *k)
{
	uint64_t h = (uint64_t)k->name_id * 0x9E3779B97F4A7C15ull;
	h ^= ((uint64_t)k->step + (uint64_t)k->has_step) * 0xC2B2AE3D27D4EB4Full;
	h ^= ((uint64_t)k->rank << 8 | (uint64_t)(unsigned)k->kind) * 0x165667B19E3779F9ull;
	return (size_t)(h ^ h >> 29);
}

/* Whether a and b are one cell: the same rank, step (a step of 0 where
 * there is none), name and kind. */
static int same(const struct cell *a, const struct cell *b)
{
	return a->name_id == b->name_id && a->rank == b->rank && a->has_step == b->has_step &&
	       a->step == b->step && a->kind == b->kind;
}

/* The slot of k's cell in the map: its own, or the empty one it goes in. */
static size_t probe(const struct profdb__step_sums *s, const struct cell *k)
{
	size_t j = hash_of(k) & (s->nmap - 1);
	while (s->map[j] && !same(&s->c[s->map[j] - 1], k))
		j = (j + 1) & (s->nmap - 1);
	return j;
}

/* Room for one more cell, the map kept at most half full; 0 or -1. */
static int grow(struct profdb__step_sums *s)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 256;
		struct cell *c = realloc(s->c, cap * sizeof *c);
		if (!c)
			return -1;
		s->c = c;
		s->cap = cap;
	}
	if (2 * (s->n + 1) > s->nmap) {
		size_t nmap = s->nmap ? s->nmap * 2 : 512;
		uint32_t *m = calloc(nmap, sizeof *m);
		if (!m)
			return -1;
		free(s->map);
		s->map = m;
		s->nmap = nmap;
		for (size_t i = 0; i < s->n; i++)
			s->map[probe(s, &s->c[i])] = (uint32_t)(i + 1);
	}
	return 0;
}

void profdb__step_sums_add(struct profdb__step_sums *s, int64_t rank, int64_t step, int64_t name_id,
                           int64_t base_id, int kind, int64_t dur_ns)
{
	int has_step = step != PROFDB_NULL;
	struct cell k = { rank, has_step ? step : 0, name_id, base_id, 1, dur_ns, kind, has_step };
	if (!s || s->dropped)
		return;
	if (s->nmap) {
		size_t j = probe(s, &k);
		if (s->map[j]) {
			struct cell *c = &s->c[s->map[j] - 1];
			c->calls++;
			c->total += dur_ns;
			if (base_id < c->base_id)
				c->base_id = base_id;
			return;
		}
	}
	if (s->n == s->max || grow(s) != 0) {
		profdb__step_sums_drop(s);
		return;
	}
	/* the map may be new: the slot again */
	size_t j = probe(s, &k);
	s->c[s->n++] = k;
	s->map[j] = (uint32_t)s->n;
}

/* The scan's order: rank, step with none first (SQLite's index order),
 * then first seen (the cell's index: rows came in id order). */
static int by_step(const void *a, const void *b)
{
	const struct cell *x = *(const struct cell *const *)a, *y = *(const struct cell *const *)b;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	if (x->has_step != y->has_step)
		return x->has_step < y->has_step ? -1 : 1;
	if (x->has_step && x->step != y->step)
		return x->step < y->step ? -1 : 1;
	return x < y ? -1 : x > y;
}

int profdb__step_sums_write(struct profdb__step_sums *s, sqlite3_stmt *ins, int64_t run_id)
{
	const struct cell **order = malloc((s->n ? s->n : 1) * sizeof *order);
	int rc = SQLITE_OK;
	if (!order)
		return SQLITE_NOMEM;
	for (size_t i = 0; i < s->n; i++)
		order[i] = &s->c[i];
	qsort(order, s->n, sizeof *order, by_step);
	for (size_t i = 0; i < s->n && rc == SQLITE_OK; i++) {
		const struct cell *c = order[i];
		rc = profdb__step_stat_put(ins, run_id, c->rank, c->has_step ? c->step : PROFDB_NULL, c->name_id,
		                           c->base_id, c->kind, c->calls, c->total);
	}
	free(order);
	return rc;
}

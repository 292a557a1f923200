/*
 * walk_seen.c - a set of (device, inode) pairs: open addressing with
 * linear probing, grown at half full, so each add is O(1) on average and
 * a walk over n folders costs O(n).
 */
#include <stdint.h>
#include <stdlib.h>

#include "walk_seen.h"
#include "banned.h"

struct slot {
	dev_t dev;
	ino_t ino;
	int used;                  /* 0: empty */
};

struct profdb__walk_seen {
	struct slot *slots;        /* cap entries */
	size_t cap;                /* a power of two */
	size_t n;                  /* used slots */
};

static size_t hash(dev_t dev, ino_t ino)
{
	/* splitmix64's finaliser: inode numbers are often sequential */
	uint64_t x = (uint64_t)ino * 0x9e3779b97f4a7c15u ^ (uint64_t)dev;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9u;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebu;
	return (size_t)(x ^ (x >> 31));
}

/* Find (dev, ino) or the empty slot where it goes. */
static struct slot *find(struct slot *slots, size_t cap, dev_t dev, ino_t ino)
{
	size_t i = hash(dev, ino) & (cap - 1);
	while (slots[i].used && !(slots[i].dev == dev && slots[i].ino == ino))
		i = (i + 1) & (cap - 1);
	return &slots[i];
}

static int grow(struct profdb__walk_seen *s)
{
	size_t cap = s->cap ? s->cap * 2 : 64;
	struct slot *slots = calloc(cap, sizeof *slots);
	if (!slots)
		return -1;
	for (size_t i = 0; i < s->cap; i++)
		if (s->slots[i].used)
			*find(slots, cap, s->slots[i].dev, s->slots[i].ino) = s->slots[i];
	free(s->slots);
	s->slots = slots;
	s->cap = cap;
	return 0;
}

int profdb__walk_seen_add(struct profdb__walk_seen **set, dev_t dev, ino_t ino)
{
	struct profdb__walk_seen *s = *set;
	struct slot *sl;
	if (!s) {
		s = calloc(1, sizeof *s);
		if (!s)
			return -1;
		*set = s;
	}
	if ((s->n + 1) * 2 > s->cap && grow(s) != 0)
		return -1;
	sl = find(s->slots, s->cap, dev, ino);
	if (sl->used)
		return 1;
	sl->dev = dev;
	sl->ino = ino;
	sl->used = 1;
	s->n++;
	return 0;
}

void profdb__walk_seen_free(struct profdb__walk_seen *set)
{
	if (!set)
		return;
	free(set->slots);
	free(set);
}

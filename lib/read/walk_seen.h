/*
 * walk_seen.h - the folders a walk has entered, by device and inode
 * (walk_seen.c), so that a folder reached again through another symbolic
 * link is not walked again: with two links per level to the next folder,
 * walking each path visits 2^depth folders; walking each folder, depth.
 */
#ifndef PROFDB_WALK_SEEN_H
#define PROFDB_WALK_SEEN_H

#include <sys/types.h>

struct profdb__walk_seen;

/* Add (dev, ino) to *set, creating the set on first use.  Returns 0 if it
 * is new, 1 if it was there already, -1 out of memory. */
int profdb__walk_seen_add(struct profdb__walk_seen **set, dev_t dev, ino_t ino);

/* DESTRUCTOR.  NULL is a no-op. */
void profdb__walk_seen_free(struct profdb__walk_seen *set);

#endif

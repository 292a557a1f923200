/*
 * ingest_impl.h - what the ingest driver's files share: the units of work
 * the folder walk finds (ingest_walk.c) and the session rules applied to them
 * before reading (ingest_session.c: duplicate files, one run per session,
 * two sources for one rank), and how the units are read on threads
 * (ingest_threads.c).  Private to those files.
 */
#ifndef PROFDB_INGEST_IMPL_H
#define PROFDB_INGEST_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "internal.h"

/* One unit of work found by the walk. */
struct profdb__work {
	char *path;                /* owned by the walk */
	const struct profdb_reader *reader; /* a row of profdb__readers */
	int folder;                /* 1: path is an Ascend export folder, 0: a file */
};

struct profdb__walk {
	struct profdb__work *items;        /* found units, in walk order */
	size_t n, cap;
	char **notes;              /* owned notes for the run */
	size_t nnotes;
	dev_t *dev;                /* folders on the current path (loop guard) */
	ino_t *ino;
	size_t depth;
	struct profdb__walk_seen *seen; /* folders entered, by device and inode (walk_seen.c) */
	struct profdb_err *err;
};

/* Set up w (errors go to err); PROFDB_ERROR when out of memory.  Free it
 * with profdb__walk_free either way. */
int profdb__walk_init(struct profdb__walk *w, struct profdb_err *err);
/* Find the units under path (sb: its stat): a folder walk, or the one
 * file (detected by content). */
int profdb__walk_find(struct profdb__walk *w, const char *path, const struct stat *sb);
/* Free w's units and notes. */
void profdb__walk_free(struct profdb__walk *w);
/* Add a note "fmt" with two %s arguments to w (copied). */
int profdb__walk_note(struct profdb__walk *w, const char *fmt, const char *a, const char *b);

/*
 * Drop from items[0, *n) every unit whose content is that of an earlier one
 * (the same file or folder reached twice, e.g. through a symbolic link, or
 * a byte-identical copy), keeping the first; a note on w names each.
 */
int profdb__ingest_dedupe(struct profdb__walk *w, struct profdb__work *items, size_t *n);

/*
 * The session of each unit (its folder: the one holding the *_ascend_pt
 * folders or the trace files): *out_group[i] is the session index of unit
 * i, *out_names[g] the run name of session g (prefix/relative folder; the
 * prefix alone for root itself).  Both arrays are the caller's (free each
 * name, then the arrays).
 */
int profdb__ingest_sessions(const struct profdb__walk *w, const char *root, const char *prefix,
                            size_t **out_group, char ***out_names, size_t *out_ngroups);

/* The length of the session folder of path: its parent folder, or all of
 * it when path is root. */
size_t profdb__ingest_session_len(const char *path, const char *root);
/* The run name of one unit under --split: prefix/path relative to root
 * (root's own name, or prefix, for root itself).  The caller's (free). */
char *profdb__ingest_unit_name(const char *path, const char *root, const char *prefix);

/*
 * Two source files of the same role for one rank in run_id means two
 * profiling sessions were about to be merged: returns PROFDB_EFORMAT with
 * a message on err naming both, else PROFDB_OK.
 */
int profdb__ingest_check_ranks(profdb *db, int64_t run_id, struct profdb_err *err);

/* Notes for the ranks of run_id that have source files but no kernels. */
int profdb__ingest_note_empty_ranks(profdb *db, int64_t run_id, struct profdb_sink *sink);

/* Progress over the whole ingest: readers report bytes of their own file;
 * this adds the sizes of the files already read. */
struct profdb__progress {
	profdb_progress_fn fn;     /* the caller's callback */
	void *arg;
	uint64_t done_before;      /* bytes of the files already read */
	uint64_t total;            /* bytes of all files */
};

/* Bytes on disk under path (a file, or an Ascend export folder's CSVs): the
 * progress's estimate. */
uint64_t profdb__ingest_size_of(const char *path);

/* Read every unit of w into st on as many threads as jobs allows
 * (ingest_threads.c); progress through prog. */
int profdb__ingest_read_units(profdb *db, struct profdb__walk *w, struct profdb_store *st, int jobs,
                              struct profdb__progress *prog, struct profdb_err *err);

#endif

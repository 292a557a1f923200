/*
 * fs_path.h - the small file-system predicates the folder walk and the
 * Ascend readers ask of a path while deciding what a folder holds.  One
 * copy, so "is a folder" means the same (stat, links followed) everywhere.
 */
#ifndef PROFDB_FS_PATH_H
#define PROFDB_FS_PATH_H

/* 1 when path names a folder (links followed), else 0. */
int profdb__path_is_dir(const char *path);
/* 1 when path names a regular file (links followed), else 0. */
int profdb__path_is_file(const char *path);
/* 1 when the text s ends with suffix. */
int profdb__path_ends_with(const char *s, const char *suffix);

#endif

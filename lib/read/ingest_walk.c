/*
 * ingest_walk.c - what PATH holds: the units of work of an ingest.
 *
 * A folder is searched recursively.  A folder that holds
 * ASCEND_PROFILER_OUTPUT (a *_ascend_pt / *_ascend_ms folder) is one Ascend
 * export: read from its CSV form when kernel_details.csv is there, else from
 * its SQLite form, else from its trace_view.json, and never searched further
 * (beside a kernel table, trace_view.json repeats the kernels as hardware
 * tasks).  Elsewhere every *.json, *.gz, *.csv and *.db file is sniffed
 * (detect.c): those whose content is a format the walk takes are read,
 * other JSON is skipped with a note.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "internal.h"
#include "detect.h"
#include "ingest_impl.h"
#include "walk_seen.h"
#include "fs_path.h"
#include "banned.h"

#define MAX_DEPTH 32 /* deeper folders are not profiler dumps; also stops loops */

static int add_work(struct profdb__walk *w, const char *path, const struct profdb_reader *reader, int folder)
{
	if (w->n == w->cap) {
		size_t cap = w->cap ? w->cap * 2 : 16;
		struct profdb__work *items = realloc(w->items, cap * sizeof *items);
		if (!items)
			return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
		w->items = items;
		w->cap = cap;
	}
	w->items[w->n].path = strdup(path);
	if (!w->items[w->n].path)
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	w->items[w->n].reader = reader;
	w->items[w->n++].folder = folder;
	return PROFDB_OK;
}

int profdb__walk_note(struct profdb__walk *w, const char *fmt, const char *a, const char *b)
{
	char buf[PROFDB_ERRMAX * 2];
	char **notes = realloc(w->notes, (w->nnotes + 1) * sizeof *notes);
	if (!notes)
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	w->notes = notes;
	snprintf(buf, sizeof buf, fmt, a, b);
	w->notes[w->nnotes] = strdup(buf);
	if (!w->notes[w->nnotes])
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	w->nnotes++;
	return PROFDB_OK;
}

/* Does folder hold a file whose name matches prefix*suffix? */
static int has_file_like(const char *folder, const char *prefix, const char *suffix)
{
	DIR *d = opendir(folder);
	struct dirent *e;
	int found = 0;
	if (!d)
		return 0;
	while (!found && (e = readdir(d)) != NULL)
		found = strncmp(e->d_name, prefix, strlen(prefix)) == 0 && profdb__path_ends_with(e->d_name, suffix);
	closedir(d);
	return found;
}

/*
 * Is folder an Ascend export (holds ASCEND_PROFILER_OUTPUT)?  Adds it.
 * Here the export's fixed file names decide, not content: its tables
 * share columns (operator_details and kernel_details both have Name and
 * duration columns, msprof's op_summary has kernel_details' own), and the
 * readers take each table by the name torch_npu gives it.
 */
static int try_ascend_folder(struct profdb__walk *w, const char *folder, int *taken)
{
	char out[4096], csv[4200];
	*taken = 0;
	snprintf(out, sizeof out, "%s/ASCEND_PROFILER_OUTPUT", folder);
	if (!profdb__path_is_dir(out))
		return PROFDB_OK;
	*taken = 1;
	snprintf(csv, sizeof csv, "%s/kernel_details.csv", out);
	if (profdb__path_is_file(csv)) {
		int rc = add_work(w, folder, &profdb__reader_ascend_csv, 1);
		if (rc == PROFDB_OK && has_file_like(out, "ascend_pytorch_profiler", ".db"))
			rc = profdb__walk_note(w, "%s: read from its CSV export (kernel_details.csv); its SQLite"
			              " export holds the same capture%s", folder, " and was not read");
		if (rc == PROFDB_OK && has_file_like(out, "trace_view", ".json"))
			rc = profdb__walk_note(w, "%s: trace_view.json not read: kernel_details.csv holds%s", folder,
			                       " the same device tasks");
		return rc;
	}
	if (has_file_like(out, "ascend_pytorch_profiler", ".db")) {
		int rc = add_work(w, folder, &profdb__reader_ascend_db, 1);
		if (rc == PROFDB_OK && has_file_like(out, "trace_view", ".json"))
			rc = profdb__walk_note(w, "%s: trace_view.json not read: the SQLite export holds%s", folder,
			                       " the same device tasks");
		return rc;
	}
	/* trace_view.json alone: the folder reader takes its device events */
	if (has_file_like(out, "trace_view", ".json"))
		return add_work(w, folder, &profdb__reader_ascend_csv, 1);
	/* a rank without device data is still a rank of the run: read what
	 * there is (its profiler_info names the rank), and the run notes it */
	if (profdb__path_is_file(out) || has_file_like(out, "", ".csv") || has_file_like(folder, "profiler_info", ".json"))
		return add_work(w, folder, &profdb__reader_ascend_csv, 1);
	return profdb__walk_note(w, "%s: Ascend export without kernel_details.csv or a .db export%s", folder,
	                ": nothing to read");
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int walk_dir(struct profdb__walk *w, const char *folder);

/*
 * The format a file's name claims, for the tie-break below: the names
 * torch_npu and msprof give their kernel table and SQLite export.
 */
static const struct profdb_reader *named_format(const char *name)
{
	if (strcmp(name, "kernel_details.csv") == 0)
		return &profdb__reader_ascend_csv;
	if (profdb__path_ends_with(name, ".db") && (strncmp(name, "msprof_", 7) == 0 ||
	                               strncmp(name, "ascend_pytorch_profiler", 23) == 0))
		return &profdb__reader_ascend_db;
	return NULL;
}

/*
 * msprof's op_summary_*.csv has a kernel table's very columns (torch_npu's
 * kernel_details.csv is made from it), sits beside the msprof_*.db that
 * holds the same tasks, and is sliced every million rows: content cannot
 * tell it from a kernel table, so in a walk the name does.  Named on the
 * command line it is read like any kernel table.
 */
static int msprof_text_copy(const char *name)
{
	return strncmp(name, "op_summary_", 11) == 0 && profdb__path_ends_with(name, ".csv");
}

/* Could a file of this name be one we read?  Only these are sniffed: a
 * dump folder also holds checkpoints and logs, and reading up to 1 MiB of
 * each to say "no" would cost more than the walk.  The content decides. */
static int candidate_name(const char *name)
{
	return profdb__path_ends_with(name, ".json") || profdb__path_ends_with(name, ".gz") || profdb__path_ends_with(name, ".csv") ||
	       profdb__path_ends_with(name, ".db");
}

/*
 * One file of a walked folder: read when its content is a format the walk
 * takes (PROFDB_READER_WALK).  The name is only a tie-break: a file named
 * as the Ascend tools name their exports is read even when its content
 * does not look like one, so that a damaged export fails the ingest with
 * the reader's message instead of being left out unnoticed.  JSON that is
 * not ours is noted; other files of a dump folder are not ours: no note.
 */
static int walk_entry(struct profdb__walk *w, const char *path, const char *name)
{
	struct stat sb;
	char reason[PROFDB_ERRMAX] = "";
	const struct profdb_reader *rd;

	if (stat(path, &sb) != 0)
		return profdb__walk_note(w, "%s: skipped: %s", path, strerror(errno));
	if (S_ISDIR(sb.st_mode))
		return walk_dir(w, path);
	if (!S_ISREG(sb.st_mode))
		return profdb__walk_note(w, "%s: skipped: %s", path, "not a regular file");
	if (!candidate_name(name))
		return PROFDB_OK;
	if (msprof_text_copy(name))
		return profdb__walk_note(w, "%s: skipped: %s", path, "msprof's op_summary (its msprof_*.db holds"
		                         " the same tasks; give the file itself to read it)");
	profdb__detect_file(&rd, path, reason, sizeof reason);
	if (rd && (rd->flags & PROFDB_READER_WALK))
		return add_work(w, path, rd, 0);
	if (named_format(name))
		return add_work(w, path, named_format(name), 0);
	if (rd)
		snprintf(reason, sizeof reason, "a %s file is read only when named itself", rd->name);
	if (profdb__path_ends_with(name, ".json") || profdb__path_ends_with(name, ".gz"))
		return profdb__walk_note(w, "%s: skipped: %s", path, reason);
	return PROFDB_OK;
}

static int walk_dir(struct profdb__walk *w, const char *folder)
{
	DIR *d;
	struct dirent *e;
	struct stat sb, lsb;
	char **names = NULL;
	size_t n = 0, cap = 0;
	int rc = PROFDB_OK, taken = 0;

	if (stat(folder, &sb) != 0)
		return profdb__walk_note(w, "%s: skipped: %s", folder, strerror(errno));
	for (size_t i = 0; i < w->depth; i++)
		if (w->dev[i] == sb.st_dev && w->ino[i] == sb.st_ino)
			return profdb__walk_note(w, "%s: skipped: %s", folder, "symbolic link loop");
	if (w->depth >= MAX_DEPTH)
		return profdb__walk_note(w, "%s: skipped: %s", folder, "too deep");
	/*
	 * A folder reached through a symbolic link is entered once: links that
	 * fan out to the same folders would otherwise double the visits per
	 * level (2^depth).  A real folder is always entered, even after a link
	 * to it, so that the link (latest_ascend_pt -> rank0_ascend_pt) and not
	 * the folder is the one the same-content rule reports as read once.
	 */
	if ((rc = profdb__walk_seen_add(&w->seen, sb.st_dev, sb.st_ino)) < 0)
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	if (rc > 0 && lstat(folder, &lsb) == 0 && S_ISLNK(lsb.st_mode))
		return profdb__walk_note(w, "%s: skipped: %s", folder,
		                         "a link to a folder this run already read");
	rc = PROFDB_OK;
	if ((rc = try_ascend_folder(w, folder, &taken)) != PROFDB_OK || taken)
		return rc;
	d = opendir(folder);
	if (!d)
		return profdb__walk_note(w, "%s: skipped: %s", folder, strerror(errno));
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		if (n == cap) {
			char **nn = realloc(names, (cap = cap ? cap * 2 : 32) * sizeof *nn);
			if (!nn) {
				rc = profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
				goto out;
			}
			names = nn;
		}
		if (!(names[n] = strdup(e->d_name))) {
			rc = profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
			goto out;
		}
		n++;
	}
	/* sorted, so runs ingest the same way on every file system */
	if (n > 1) /* qsort's array must not be NULL, even for 0 elements */
		qsort(names, n, sizeof *names, cmp_str);
	w->dev[w->depth] = sb.st_dev;
	w->ino[w->depth] = sb.st_ino;
	w->depth++;
	for (size_t i = 0; i < n && rc == PROFDB_OK; i++) {
		char path[4096];
		if ((size_t)snprintf(path, sizeof path, "%s/%s", folder, names[i]) >= sizeof path)
			rc = profdb__walk_note(w, "%s/%s: skipped: path too long", folder, names[i]);
		else
			rc = walk_entry(w, path, names[i]);
	}
	w->depth--;
out:
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	closedir(d);
	return rc;
}

void profdb__walk_free(struct profdb__walk *w)
{
	for (size_t i = 0; i < w->n; i++)
		free(w->items[i].path);
	free(w->items);
	for (size_t i = 0; i < w->nnotes; i++)
		free(w->notes[i]);
	free(w->notes);
	free(w->dev);
	free(w->ino);
	profdb__walk_seen_free(w->seen);
	w->seen = NULL;
}

int profdb__walk_init(struct profdb__walk *w, struct profdb_err *err)
{
	memset(w, 0, sizeof *w);
	w->err = err;
	w->dev = calloc(MAX_DEPTH + 1, sizeof *w->dev);
	w->ino = calloc(MAX_DEPTH + 1, sizeof *w->ino);
	return w->dev && w->ino ? PROFDB_OK : PROFDB_ERROR;
}

/* Find the units under path: a folder walk, or the one file. */
int profdb__walk_find(struct profdb__walk *w, const char *path, const struct stat *sb)
{
	char reason[PROFDB_ERRMAX] = "";
	const struct profdb_reader *rd;
	int rc;
	if (S_ISDIR(sb->st_mode))
		return walk_dir(w, path);
	if (!S_ISREG(sb->st_mode))
		return profdb__err_set(w->err, PROFDB_EFORMAT, "%s: not a regular file or folder", path);
	if ((rc = profdb__detect_file(&rd, path, reason, sizeof reason)) != PROFDB_OK)
		return profdb__err_set(w->err, rc, "%s: %s", path, reason);
	return add_work(w, path, rd, 0);
}


/*
 * ingest_session.c - the session rules of an ingest (doc/inputs.md "Sessions and
 * ranks"): a file reached twice is read once; with --split each session
 * (the folder holding the rank folders or traces) becomes its own run; and
 * two sources for one rank in one run are refused, never merged silently.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ingest_impl.h"
#include "bench.h"
#include "banned.h"

/* What identifies a unit's content: its inode, and its main file's size
 * and (computed only when two sizes agree) SHA-256. */
struct ident {
	dev_t dev;
	ino_t ino;
	int have_file;             /* file below is set */
	char file[4200];           /* the file whose bytes stand for the unit */
	off_t size;
	int hashed;                /* 1: sha set; -1: unreadable */
	char sha[65];
};

static void ident_of(const struct profdb__work *u, struct ident *id)
{
	struct stat sb;
	memset(id, 0, sizeof *id);
	if (stat(u->path, &sb) == 0) {
		id->dev = sb.st_dev;
		id->ino = sb.st_ino;
	}
	/* an export folder is its kernel table: a copy of the folder has the
	 * same bytes there (a db-only folder is compared by inode alone) */
	if (u->folder)
		snprintf(id->file, sizeof id->file, "%s/ASCEND_PROFILER_OUTPUT/kernel_details.csv", u->path);
	else
		snprintf(id->file, sizeof id->file, "%s", u->path);
	if (stat(id->file, &sb) == 0 && S_ISREG(sb.st_mode)) {
		id->have_file = 1;
		id->size = sb.st_size;
	}
}

/* SHA-256 of the raw bytes of id->file (not gunzipped: equal bytes are
 * what "the same file" means). */
static void ident_hash(struct ident *id)
{
	struct profdb_sha256 h;
	unsigned char buf[1 << 16];
	ssize_t got;
	int fd;
	if (id->hashed)
		return;
	id->hashed = -1;
	fd = open(id->file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	profdb__sha256_init(&h);
	while ((got = read(fd, buf, sizeof buf)) > 0 || (got < 0 && errno == EINTR))
		if (got > 0)
			profdb__sha256_update(&h, buf, (size_t)got);
	close(fd);
	if (got == 0) {
		profdb__sha256_hex(&h, id->sha);
		id->hashed = 1;
	}
}

static int same_content(struct ident *a, struct ident *b)
{
	if (a->ino && a->dev == b->dev && a->ino == b->ino)
		return 1;
	if (!a->have_file || !b->have_file || a->size != b->size)
		return 0;
	ident_hash(a);
	ident_hash(b);
	return a->hashed == 1 && b->hashed == 1 && strcmp(a->sha, b->sha) == 0;
}

static int is_link(const char *path)
{
	struct stat sb;
	return lstat(path, &sb) == 0 && S_ISLNK(sb.st_mode);
}

int profdb__ingest_dedupe(struct profdb__walk *w, struct profdb__work *items, size_t *n)
{
	struct ident *ids;
	size_t kept = 0;
	int rc = PROFDB_OK;
	if (*n < 2)
		return PROFDB_OK;
	ids = malloc(*n * sizeof *ids);
	if (!ids)
		return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < *n && rc == PROFDB_OK; i++) {
		size_t j;
		ident_of(&items[i], &ids[kept]);
		for (j = 0; j < kept; j++)
			if (items[j].reader == items[i].reader && items[j].folder == items[i].folder &&
			    same_content(&ids[j], &ids[kept]))
				break;
		if (j < kept) {
			/* read the real folder, not the link to it (latest_ascend_pt) */
			if (is_link(items[j].path) && !is_link(items[i].path)) {
				struct profdb__work t = items[j];
				items[j] = items[i];
				items[i] = t;
				ids[j] = ids[kept];
			}
			rc = profdb__walk_note(w, "%s: the same content as '%s' (a link or a copy): read once",
			                       items[i].path, items[j].path);
			continue;
		}
		items[kept++] = items[i];
	}
	free(ids);
	*n = kept;
	return rc;
}

size_t profdb__ingest_session_len(const char *path, const char *root)
{
	const char *slash = strrchr(path, '/');
	if (strcmp(path, root) == 0 || !slash)
		return strlen(path);
	return (size_t)(slash - path);
}

static char *session_name(const char *key, size_t keylen, const char *root, const char *prefix)
{
	size_t rlen = strlen(root);
	const char *base = root + rlen;
	char *out;
	while (base > root && base[-1] != '/')
		base--;
	if (keylen <= rlen) /* the root itself: the prefix, else root's own name */
		return strdup(prefix ? prefix : base);
	key += rlen + 1;
	keylen -= rlen + 1;
	out = malloc((prefix ? strlen(prefix) + 1 : 0) + keylen + 1);
	if (!out)
		return NULL;
	snprintf(out, (prefix ? strlen(prefix) + 1 : 0) + keylen + 1, "%s%s%.*s", prefix ? prefix : "",
	         prefix ? "/" : "", (int)keylen, key);
	return out;
}

char *profdb__ingest_unit_name(const char *path, const char *root, const char *prefix)
{
	return session_name(path, strlen(path), root, prefix);
}

int profdb__ingest_sessions(const struct profdb__walk *w, const char *root, const char *prefix,
                            size_t **out_group, char ***out_names, size_t *out_ngroups)
{
	size_t *group = calloc(w->n ? w->n : 1, sizeof *group), ng = 0;
	size_t *first = calloc(w->n ? w->n : 1, sizeof *first); /* a unit of each group */
	char **names = calloc(w->n ? w->n : 1, sizeof *names);
	if (!group || !first || !names)
		goto oom;
	for (size_t i = 0; i < w->n; i++) {
		size_t len = profdb__ingest_session_len(w->items[i].path, root), g;
		/* a benchmark file is a session of its own, named after it */
		int bench = profdb__reader_is_bench(w->items[i].reader);
		for (g = 0; g < ng && !bench; g++) {
			const char *p = w->items[first[g]].path;
			if (!profdb__reader_is_bench(w->items[first[g]].reader) &&
			    profdb__ingest_session_len(p, root) == len && strncmp(p, w->items[i].path, len) == 0)
				break;
		}
		if (bench)
			g = ng;
		if (g == ng) {
			if (!(names[ng] = bench ? profdb__ingest_unit_name(w->items[i].path, root, prefix) :
			                  session_name(w->items[i].path, len, root, prefix)))
				goto oom;
			first[ng++] = i;
		}
		group[i] = g;
	}
	free(first);
	*out_group = group;
	*out_names = names;
	*out_ngroups = ng;
	return PROFDB_OK;
oom:
	for (size_t g = 0; names && g < ng; g++)
		free(names[g]);
	free(names);
	free(first);
	free(group);
	return profdb__err_set(w->err, PROFDB_ERROR, "out of memory");
}

int profdb__ingest_check_ranks(profdb *db, int64_t run_id, struct profdb_err *err)
{
	sqlite3_stmt *q = NULL;
	int rc = PROFDB_OK;
	/* one kind of file twice for a rank; every source of device data
	 * (kernel table, trace, db, timeline) is one kind: two of them are two
	 * captures of that rank, whatever their formats */
	if (sqlite3_prepare_v2(db->sql, "SELECT coalesce(rank, 0), min(path), max(path) FROM"
	    " (SELECT id, rank, path, CASE WHEN role IN ('kernel_details', 'kineto_trace', 'ascend_db',"
	    "  'trace_view') THEN 'device' ELSE role END AS what FROM source_file WHERE run_id = ?1)"
	    " GROUP BY rank, what HAVING count(DISTINCT path) > 1"
	    " ORDER BY what <> 'device', min(id) LIMIT 1", -1, &q, NULL) != SQLITE_OK)
		return profdb__err_set(err, PROFDB_ERROR, "checking ranks: %s", sqlite3_errmsg(db->sql));
	sqlite3_bind_int64(q, 1, run_id);
	if (sqlite3_step(q) == SQLITE_ROW)
		rc = profdb__err_set(err, PROFDB_EFORMAT,
		    "rank %lld has two sources, '%s' and '%s': separate profiling sessions are not merged"
		    " into one run; ingest each on its own, or use --split (one run per session)",
		    (long long)sqlite3_column_int64(q, 0), (const char *)sqlite3_column_text(q, 1),
		    (const char *)sqlite3_column_text(q, 2));
	sqlite3_finalize(q);
	return rc;
}

int profdb__ingest_note_empty_ranks(profdb *db, int64_t run_id, struct profdb_sink *sink)
{
	sqlite3_stmt *q = NULL;
	int rc = PROFDB_OK;
	if (sqlite3_prepare_v2(db->sql, "SELECT DISTINCT s.rank FROM source_file s WHERE s.run_id = ?1"
	    " AND s.rank IS NOT NULL AND NOT EXISTS (SELECT 1 FROM kernel k WHERE k.run_id = ?1"
	    " AND k.rank = s.rank) ORDER BY s.rank", -1, &q, NULL) != SQLITE_OK)
		return profdb__err_set(sink->err, PROFDB_ERROR, "checking ranks: %s", sqlite3_errmsg(db->sql));
	sqlite3_bind_int64(q, 1, run_id);
	while (rc == PROFDB_OK && sqlite3_step(q) == SQLITE_ROW) {
		char note[160];
		snprintf(note, sizeof note, "rank %lld has no kernel data (no kernel_details.csv, .db export"
		         " or device events in its export)",
		         (long long)sqlite3_column_int64(q, 0));
		rc = profdb__sink_note(sink, note);
	}
	sqlite3_finalize(q);
	return rc;
}

/*
 * db.c - the profdb handle: open, close, errors, schema apply and migrate.
 *
 * Every connection gets WAL mode (readers run while an ingest writes), a busy
 * timeout (two writers wait for each other instead of failing), foreign keys,
 * and profdb's SQL functions.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "internal.h"
#include "source.h"
#include "schema_sql.h"
#include "banned.h"

#define ELIDED " ... "

#define PROFDB_NEW_PAGE_SIZE "16384" /* bytes, of a new database file */

/*
 * printf into buf; a message longer than cap keeps its start and its end
 * with ELIDED between, because the end says what went wrong (a file
 * name's tail, a line number, the reason) and the start what was tried.
 */
static void vformat(char *buf, size_t cap, const char *fmt, va_list ap)
{
	va_list again;
	char *all;
	int n;
	/* no format is no message; tested here, before either vsnprintf, so
	 * that no path reaches the second one with a null format (UBSan's
	 * recoverable check on the first leaves such a path, which gcc's
	 * -Wformat-truncation rejects) */
	if (!fmt) {
		buf[0] = '\0';
		return;
	}
	va_copy(again, ap);
	n = vsnprintf(buf, cap, fmt, ap);
	if (n < 0) {
		buf[0] = '\0';
	} else if ((size_t)n >= cap && (all = malloc((size_t)n + 1)) != NULL) {
		size_t head = (cap - sizeof ELIDED) / 2, tail = cap - sizeof ELIDED - head;
		vsnprintf(all, (size_t)n + 1, fmt, again);
		memcpy(buf + head, ELIDED, sizeof ELIDED - 1);
		memcpy(buf + head + sizeof ELIDED - 1, all + (size_t)n - tail, tail);
		buf[cap - 1] = '\0';
		free(all);
	}
	va_end(again);
}

/* SQLite's texts for failures of the database file itself (not of a
 * statement): a message with one of them says which database it was. */
static const char *const file_failures[] = {
	"database or disk is full", "database is locked", "database table is locked",
	"disk I/O error", "attempt to write a readonly database", "database disk image is malformed",
	"unable to open database file", NULL
};

/* Is the filesystem of folder dir out of space for us? */
static int folder_full(const char *dir)
{
	struct statvfs v;
	return statvfs(dir, &v) == 0 && v.f_bavail == 0;
}

/* The folder of path into out ("." when it names none). */
static void folder_of(const char *path, char *out, size_t cap)
{
	const char *slash = strrchr(path, '/');
	size_t n = slash ? (size_t)(slash - path) : 0;
	if (!slash)
		snprintf(out, cap, ".");
	else if (n == 0)
		snprintf(out, cap, "/");
	else
		snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), path);
}

/* The folder SQLite writes db's temporary files to, asked of its VFS
 * (which picks it from the environment and the usual folders) so that the
 * message names the folder SQLite used.  0 when the VFS does not say. */
static int temp_folder(profdb *db, char *out, size_t cap)
{
	char *name = NULL;
	if (!db->sql || sqlite3_file_control(db->sql, "main", SQLITE_FCNTL_TEMPFILENAME, &name) != SQLITE_OK ||
	    !name)
		return 0;
	folder_of(name, out, cap);
	sqlite3_free(name);
	return 1;
}

/*
 * A write that failed for want of space reads "disk I/O error" (a read-only
 * open that cannot create its -shm) or "database or disk is full", which
 * SQLite also says when its temporary folder is full: say which filesystem
 * is full.  Returns 1 when it did.
 */
static int name_full(profdb *db, const char *failure)
{
	char dir[PATH_MAX], tmp[PATH_MAX];
	size_t n = strlen(db->errmsg);
	if (strcmp(failure, "disk I/O error") != 0 && strcmp(failure, "database or disk is full") != 0)
		return 0;
	folder_of(db->path, dir, sizeof dir);
	if (folder_full(dir)) {
		if (!strstr(db->errmsg, db->path))
			snprintf(db->errmsg + n, sizeof db->errmsg - n, " (database '%s')", db->path);
		n = strlen(db->errmsg);
		snprintf(db->errmsg + n, sizeof db->errmsg - n, ": disk full: no space left in folder '%s'", dir);
		return 1;
	}
	if (temp_folder(db, tmp, sizeof tmp) && folder_full(tmp)) {
		snprintf(db->errmsg + n, sizeof db->errmsg - n,
		         ": disk full: no space left in the temporary folder '%s' (SQLITE_TMPDIR), not the database's",
		         tmp);
		return 1;
	}
	return 0;
}

static void name_database(profdb *db)
{
	struct rlimit lim;
	size_t n;
	int e = db->sql ? sqlite3_system_errno(db->sql) : 0;
	if (!db->path || !db->path[0])
		return;
	for (const char *const *f = file_failures; *f; f++) {
		if (!strstr(db->errmsg, *f))
			continue;
		if (name_full(db, *f) || strstr(db->errmsg, db->path))
			return;
		n = strlen(db->errmsg);
		/* "disk I/O error" alone hides EFBIG (ulimit -f), EIO, ENOSPC */
		if (e && n + strlen(db->path) + 128 < sizeof db->errmsg)
			snprintf(db->errmsg + n, sizeof db->errmsg - n, " (database '%s': %s)", db->path, strerror(e));
		else if (n + strlen(db->path) + 16 < sizeof db->errmsg)
			snprintf(db->errmsg + n, sizeof db->errmsg - n, " (database '%s')", db->path);
		n = strlen(db->errmsg);
		/* the errno is gone by now (the rollback made more calls): name
		 * the likely cause of a failed write when a file size limit is set */
		if (!e && strcmp(*f, "disk I/O error") == 0 && getrlimit(RLIMIT_FSIZE, &lim) == 0 &&
		    lim.rlim_cur != RLIM_INFINITY && n + 80 < sizeof db->errmsg)
			snprintf(db->errmsg + n, sizeof db->errmsg - n,
			         "; a file size limit is set (ulimit -f: %llu bytes)", (unsigned long long)lim.rlim_cur);
		return;
	}
}

int profdb__error(profdb *db, int code, const char *fmt, ...)
{
	va_list ap;
	if (!db)
		return code;
	va_start(ap, fmt);
	vformat(db->errmsg, sizeof db->errmsg, fmt, ap);
	va_end(ap);
	name_database(db);
	return code;
}

int profdb__sqlerror(profdb *db, const char *fmt, ...)
{
	char head[PROFDB_ERRMAX];
	va_list ap;
	int rc;
	if (!db)
		return PROFDB_ERROR;
	va_start(ap, fmt);
	vformat(head, sizeof head, fmt, ap);
	va_end(ap);
	rc = db->sql ? sqlite3_extended_errcode(db->sql) : SQLITE_ERROR;
	profdb__error(db, PROFDB_ERROR, "%s: %s", head, db->sql ? sqlite3_errmsg(db->sql) : "no connection");
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return PROFDB_EBUSY;
	if ((rc & 0xff) == SQLITE_NOTADB)
		return PROFDB_ESCHEMA;
	return PROFDB_ERROR;
}

int profdb__err_set(struct profdb_err *e, int code, const char *fmt, ...)
{
	va_list ap;
	if (!e || e->code != PROFDB_OK)
		return e ? e->code : code; /* keep the first error: it is the cause */
	e->code = code;
	va_start(ap, fmt);
	vformat(e->msg, sizeof e->msg, fmt, ap);
	va_end(ap);
	return code;
}

const char *profdb_errmsg(const profdb *db)
{
	if (!db)
		return "out of memory";
	return db->errmsg;
}

int profdb__version_check(profdb *db, unsigned got, unsigned want, const char *type)
{
	if (got == want)
		return PROFDB_OK;
	if (!db)
		return PROFDB_EUSAGE;
	return profdb__error(db, PROFDB_EUSAGE,
	                     "struct %s has version %u, this library reads version %u (initialise it with its _INIT macro)",
	                     type, got, want);
}

const char *profdb_strerror(int code)
{
	switch (code) {
	case PROFDB_OK: return "no error";
	case PROFDB_ENOTFOUND: return "not found";
	case PROFDB_EFORMAT: return "bad input format";
	case PROFDB_ESCHEMA: return "incompatible database";
	case PROFDB_EEXISTS: return "already exists";
	case PROFDB_EUSAGE: return "invalid argument";
	case PROFDB_EBUSY: return "database is locked";
	case PROFDB_EUNKNOWN: return "input in no format profdb reads";
	default: return "error";
	}
}

/* The version a schema file brings: its numeric prefix ("002_x.sql" -> 2). */
static int file_version(const char *name)
{
	int v = 0;
	while (*name >= '0' && *name <= '9')
		v = v * 10 + (*name++ - '0');
	return v;
}

static int is_sql_file(const char *name)
{
	size_t n = strlen(name);
	return n > 4 && strcmp(name + n - 4, ".sql") == 0;
}

int profdb_schema_version(void)
{
	int v = 0;
	for (const struct profdb__schema_file *f = profdb__schema_files; f->name; f++)
		if (is_sql_file(f->name) && file_version(f->name) > v)
			v = file_version(f->name);
	return v;
}

const char *profdb_schema_sql(void)
{
	static char *all; /* built once; the schema never changes in a process */
	size_t len = 0, off = 0;
	if (all)
		return all;
	for (const struct profdb__schema_file *f = profdb__schema_files; f->name; f++)
		if (is_sql_file(f->name))
			len += strlen(f->text) + 1;
	all = malloc(len + 1);
	if (!all)
		return "";
	for (const struct profdb__schema_file *f = profdb__schema_files; f->name; f++) {
		if (!is_sql_file(f->name))
			continue;
		size_t n = strlen(f->text);
		memcpy(all + off, f->text, n);
		off += n;
		all[off++] = '\n';
	}
	all[off] = '\0';
	return all;
}

static int read_user_version(profdb *db, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, "PRAGMA user_version", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read schema version");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? PROFDB_OK : profdb__sqlerror(db, "cannot read schema version");
}

/* Is this database empty (a new file) or does it hold profdb's tables? */
static int count_tables(profdb *db, int *out)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->sql, "SELECT count(*) FROM sqlite_schema", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return profdb__sqlerror(db, "cannot read database");
	rc = sqlite3_step(st);
	*out = rc == SQLITE_ROW ? sqlite3_column_int(st, 0) : 0;
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? PROFDB_OK : profdb__sqlerror(db, "cannot read database");
}

/* Apply every schema file newer than the database, in one transaction. */
static int migrate(profdb *db, const char *path)
{
	int have = 0, ntables = 0, want = profdb_schema_version(), rc;
	char *err = NULL;

	if ((rc = read_user_version(db, &have)) != PROFDB_OK)
		return rc;
	if (have > want)
		return profdb__error(db, PROFDB_ESCHEMA,
		    "'%s' was written by a newer profdb (schema %d, this build knows %d): upgrade profdb",
		    path, have, want);
	if (have == want)
		return PROFDB_OK;
	if ((rc = count_tables(db, &ntables)) != PROFDB_OK)
		return rc;
	if (have == 0 && ntables > 0)
		return profdb__error(db, PROFDB_ESCHEMA,
		    "'%s' is an SQLite database but not a profdb one (it has tables and no profdb schema version)",
		    path);
	if (db->readonly)
		return profdb__error(db, PROFDB_ESCHEMA,
		    "'%s' has schema %d and needs migrating to %d: open it once for writing", path, have, want);
	/*
	 * A new file: 16 KiB pages (bulk ingests and scans gain much more than
	 * point lookups lose; bench/results.md), and the rollback journal
	 * until its first ingest has committed (profdb__db_wal_now): WAL would
	 * write every page twice, once to the log and once at the checkpoint.
	 * Both only before the first page exists; existing files keep theirs.
	 */
	if (have == 0 && ntables == 0 && strcmp(path, ":memory:") != 0 && path[0] != '\0') {
		sqlite3_exec(db->sql, "PRAGMA page_size = " PROFDB_NEW_PAGE_SIZE, NULL, NULL, NULL);
		db->wal_later = 1;
	}
	if (sqlite3_exec(db->sql, "BEGIN IMMEDIATE", NULL, NULL, &err) != SQLITE_OK) {
		rc = profdb__error(db, PROFDB_EBUSY, "cannot migrate '%s': %s", path, err ? err : "?");
		sqlite3_free(err);
		return rc;
	}
	/* another process may have migrated while we waited for the lock */
	if ((rc = read_user_version(db, &have)) != PROFDB_OK)
		goto out;
	for (const struct profdb__schema_file *f = profdb__schema_files; f->name; f++) {
		if (!is_sql_file(f->name) || file_version(f->name) <= have)
			continue;
		if (sqlite3_exec(db->sql, f->text, NULL, NULL, &err) != SQLITE_OK) {
			rc = profdb__error(db, PROFDB_ERROR, "schema %s: %s", f->name, err ? err : "?");
			sqlite3_free(err);
			goto out;
		}
	}
	if (sqlite3_exec(db->sql, "COMMIT", NULL, NULL, &err) != SQLITE_OK) {
		rc = profdb__error(db, PROFDB_ERROR, "cannot commit schema: %s", err ? err : "?");
		sqlite3_free(err);
		goto out;
	}
	return PROFDB_OK;
out:
	sqlite3_exec(db->sql, "ROLLBACK", NULL, NULL, NULL);
	return rc;
}

/*
 * The path as an SQLite URI, so that --db is always a plain file name:
 * this SQLite is built with URIs on, and "file:x.db?mode=rwc" would
 * otherwise be parsed.  '%', '?', '#' and control bytes are escaped; an
 * absolute path gets an empty authority ("file://" + "/abs"), which also
 * keeps a path that starts with "//" from reading as a host name.
 * query: "" or "?immutable=1" / "?mode=ro".  malloc'd; NULL: no memory.
 */
static char *path_uri(const char *path, const char *query)
{
	size_t n = 0, len = strlen(path);
	char *uri = malloc(len * 3 + strlen(query) + 16);
	if (!uri)
		return NULL;
	n = (size_t)snprintf(uri, 16, "%s", path[0] == '/' ? "file://" : "file:");
	for (const char *p = path; *p; p++) {
		unsigned char c = (unsigned char)*p;
		if (c == '%' || c == '?' || c == '#' || c <= ' ' || c == 0x7f) {
			snprintf(uri + n, 4, "%%%02X", c);
			n += 3;
		} else {
			uri[n++] = (char)c;
		}
	}
	memcpy(uri + n, query, strlen(query) + 1);
	return uri;
}

/* Can this process create files beside path (the -wal and -shm of WAL)? */
static int dir_writable(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir;
	int ok;
	if (!slash)
		return access(".", W_OK) == 0;
	if (slash == path)
		return access("/", W_OK) == 0;
	dir = malloc((size_t)(slash - path) + 1);
	if (!dir)
		return 0;
	memcpy(dir, path, (size_t)(slash - path));
	dir[slash - path] = '\0';
	ok = access(dir, W_OK) == 0;
	free(dir);
	return ok;
}

/* Does path have a write-ahead log with content (committed data that an
 * immutable open would not see)? */
static int has_wal_content(const char *path)
{
	size_t len = strlen(path);
	char *wal = malloc(len + 5);
	struct stat sb;
	int yes;
	if (!wal)
		return 1;
	memcpy(wal, path, len);
	memcpy(wal + len, "-wal", 5);
	yes = stat(wal, &sb) == 0 && sb.st_size > 0;
	free(wal);
	return yes;
}

/*
 * Open the connection.  A read-only handle is opened read-write but with
 * query_only, when it can be: the last connection to close a WAL database
 * then checkpoints and removes the -wal and -shm files, which a
 * SQLITE_OPEN_READONLY connection cannot do (it leaves them behind).  Where
 * the file or its folder cannot be written, a read-only open needs no -shm
 * with immutable=1, unless a -wal holds data (then mode=ro reads it).
 */
static int open_connection(profdb *db, const char *path, int mem)
{
	int oflags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX, rc;
	const char *query = "";
	char *uri;

	if (!db->readonly)
		oflags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
	else if (!mem && (access(path, W_OK) != 0 || !dir_writable(path))) {
		oflags |= SQLITE_OPEN_READONLY;
		query = has_wal_content(path) ? "?mode=ro" : "?immutable=1";
	} else
		oflags |= SQLITE_OPEN_READWRITE;
	/* NOMUTEX: a handle is used by one thread at a time (profdb.h):
	 * SQLite's own per-call locking would only cost time (a fifth of a
	 * bulk insert) */
	uri = mem ? NULL : path_uri(path, query);
	if (!mem && !uri)
		return profdb__error(db, PROFDB_ERROR, "cannot open '%s': out of memory", path);
	rc = sqlite3_open_v2(mem ? path : uri, &db->sql, oflags, mem ? NULL : profdb__vfs_longpath());
	free(uri);
	if (rc != SQLITE_OK)
		return profdb__sqlerror(db, "cannot open '%s'", path);
	if (db->readonly && (oflags & SQLITE_OPEN_READWRITE) &&
	    sqlite3_exec(db->sql, "PRAGMA query_only = 1", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot open '%s'", path);
	return PROFDB_OK;
}

/*
 * Another read-only connection to db's file, for a thread of its own
 * (ch_push_rows.c reads a big run's kernels in parallel parts: one
 * connection is one thread at a time, NOMUTEX above).  It sees committed
 * rows only, as the first does outside a write.  Opened the way a
 * read-only handle is, so a file this process cannot write still opens;
 * query_only either way.  SQLITE_MISUSE where there is no file to share
 * (":memory:", a remote source's snapshot).
 */
int profdb__db_open_reader(const profdb *db, sqlite3 **out)
{
	int oflags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READWRITE, rc;
	const char *query = "";
	char *uri;
	*out = NULL;
	if (!db->path || !db->path[0] || strcmp(db->path, ":memory:") == 0)
		return SQLITE_MISUSE;
	if (access(db->path, W_OK) != 0 || !dir_writable(db->path)) {
		oflags = SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_READONLY;
		query = has_wal_content(db->path) ? "?mode=ro" : "?immutable=1";
	}
	if (!(uri = path_uri(db->path, query)))
		return SQLITE_NOMEM;
	rc = sqlite3_open_v2(uri, out, oflags, profdb__vfs_longpath());
	free(uri);
	if (rc == SQLITE_OK && (oflags & SQLITE_OPEN_READWRITE))
		rc = sqlite3_exec(*out, "PRAGMA query_only = 1", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		sqlite3_busy_timeout(*out, (int)db->limits.busy_timeout_ms);
	if (rc != SQLITE_OK) {
		sqlite3_close(*out);
		*out = NULL;
	}
	return rc;
}

/* path + suffix exists? */
static int side_exists(const char *path, const char *suffix)
{
	char p[PATH_MAX + 8];
	struct stat sb;
	snprintf(p, sizeof p, "%s%s", path, suffix);
	return stat(p, &sb) == 0;
}

/*
 * A read-only open that failed (a full disk: the -shm could not grow)
 * leaves no -wal or -shm it made: the connection closed, an empty -wal and
 * the -shm that were not there before are removed.  had: bit 0 the -wal,
 * bit 1 the -shm existed before the open.
 */
static void readonly_failed(profdb *db, int had)
{
	char p[PATH_MAX + 8];
	struct stat sb;
	sqlite3_close_v2(db->sql);
	db->sql = NULL;
	snprintf(p, sizeof p, "%s-wal", db->path);
	if (!(had & 1) && stat(p, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0)
		unlink(p);
	snprintf(p, sizeof p, "%s-shm", db->path);
	if (!(had & 2) && !(had & 1))
		unlink(p);
}

int profdb__db_open_file(profdb *db, const char *path, unsigned flags)
{
	int rc;
	struct stat sb;
	/* "": SQLite's private temporary database, on disk past its page
	 * cache (a remote source's snapshot: bounded memory whatever it pulls) */
	int mem = strcmp(path, ":memory:") == 0 || path[0] == '\0';
	int had;

	db->readonly = (flags & PROFDB_OPEN_READONLY) != 0;
	db->path = strdup(path);
	if (!db->path)
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	if (!mem && stat(path, &sb) != 0) {
		if (db->readonly || (flags & PROFDB_OPEN_NOCREATE))
			return profdb__error(db, PROFDB_ENOTFOUND, "cannot open '%s': %s", path, strerror(errno));
	} else if (!mem && !S_ISREG(sb.st_mode)) {
		return profdb__error(db, PROFDB_ERROR, "cannot open '%s': not a regular file", path);
	}
	/* the kernel's own bound (ENAMETOOLONG): say it rather than SQLite's
	 * "unable to open"; a longer full path is fine (vfs_longpath.c) */
	if (strlen(path) >= PATH_MAX)
		return profdb__error(db, PROFDB_ERROR, "cannot open '%s': the path is %zu bytes, the system's limit is %d",
		                     path, strlen(path), PATH_MAX - 1);
	had = mem ? 3 : side_exists(path, "-wal") | side_exists(path, "-shm") << 1;
	if ((rc = open_connection(db, path, mem)) != PROFDB_OK)
		return rc;
	sqlite3_busy_timeout(db->sql, (int)db->limits.busy_timeout_ms);
	sqlite3_extended_result_codes(db->sql, 1);
	/* Touch the file: a non-SQLite file fails here with SQLITE_NOTADB. */
	rc = sqlite3_exec(db->sql, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db->sql, "SELECT count(*) FROM sqlite_schema", NULL, NULL, NULL);
	if (rc != SQLITE_OK) {
		if ((rc & 0xff) == SQLITE_NOTADB)
			return profdb__error(db, PROFDB_ESCHEMA, "'%s' is not an SQLite database", path);
		rc = profdb__sqlerror(db, "cannot open '%s'", path);
		if (db->readonly && had != 3)
			readonly_failed(db, had);
		return rc;
	}
	/* WAL with synchronous=NORMAL is durable against crashes of the process
	 * and keeps the database consistent on power loss. */
	sqlite3_exec(db->sql, "PRAGMA synchronous = NORMAL", NULL, NULL, NULL);
	if (profdb__register_functions(db->sql) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot register SQL functions");
	if ((rc = migrate(db, path)) != PROFDB_OK)
		return rc;
	/* WAL only once the file is known to be ours: switching rewrites the
	 * header, and a refused file must be left byte for byte as it was. */
	if (!db->readonly && !mem && !db->wal_later &&
	    sqlite3_exec(db->sql, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) != SQLITE_OK)
		return profdb__sqlerror(db, "cannot open '%s'", path);
	return PROFDB_OK;
}

void profdb__db_wal_now(profdb *db)
{
	if (!db->wal_later || !db->sql)
		return;
	/* not inside a transaction, where the switch cannot happen */
	if (sqlite3_get_autocommit(db->sql) &&
	    sqlite3_exec(db->sql, "PRAGMA journal_mode = WAL", NULL, NULL, NULL) == SQLITE_OK)
		db->wal_later = 0;
}

/* A path, or file://path. */
static int file_source_open(profdb *db, const char *url, const struct profdb_open_opts *o)
{
	const char *path = strncmp(url, "file://", 7) == 0 ? url + 7 : url;
	return profdb__db_open_file(db, path, o->flags);
}

/* Every row is in the file: nothing to prepare, SQLite's SQL. */
const struct profdb__source profdb__source_file = { file_source_open, NULL, NULL, NULL, NULL };

void profdb_close(profdb *db)
{
	if (!db)
		return;
	if (db->source && db->source->close)
		db->source->close(db);
	/* a new file that no ingest committed to ends in WAL all the same */
	profdb__db_wal_now(db);
	sqlite3_close_v2(db->sql);
	free(db->path);
	free(db->remote_opts.password);
	free(db->remote_opts.netrc);
	free(db->remote_opts.cainfo);
	free(db);
}

/*
 * vfs_longpath.c - an SQLite VFS over the default unix one that opens
 * databases whose full path is longer than the unix VFS can hold.
 *
 * Why not just a larger mxPathname: the unix VFS (3.40, still so in later
 * versions) copies the database part of a -journal or -wal name into a
 * stack buffer of MAX_PATHNAME + 1 = 513 bytes (findCreateFileMode in
 * unixOpen), and openDirectory cuts a name at 512; a longer full path
 * would overrun that buffer.  So the names the unix VFS sees stay short:
 * for a path too long for it, xFullPathname opens the database's folder
 * (O_PATH) and names the file through that descriptor,
 * /proc/self/fd/N/BASENAME, which the kernel resolves to the same file.
 * The -journal, -wal and -shm names SQLite derives from it land beside
 * the database as usual, and locks are per inode, so another process that
 * opens the long path shares them.  A shorter path goes to the unix VFS
 * unchanged (this VFS then behaves as the default one).
 *
 * The folder descriptors stay open for the life of the process (one per
 * distinct folder: a connection may reopen its journal at any time); the
 * table of them is guarded by a mutex.  The file's own symbolic link is
 * followed first, as the unix VFS does, so its journal lands beside the
 * real file.  Every other method is the unix VFS's, called with its own
 * object (its xOpen reads its pAppData).
 */
#define _GNU_SOURCE /* O_PATH */
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "banned.h"

#define VFS_NAME "profdb-longpath"
/* Full paths from this length on are named through their folder: the unix
 * VFS refuses more than 512 bytes and SQLite wants 8 more for -journal. */
#define SHORT_PATH 500

static sqlite3_vfs longpath;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static int registered;

struct profdb__vfs_dir {
	dev_t dev;
	ino_t ino;
	int fd;
};
static pthread_mutex_t dirs_mu = PTHREAD_MUTEX_INITIALIZER;
static struct profdb__vfs_dir *dirs;
static size_t ndirs, capdirs;

static sqlite3_vfs *base_vfs(sqlite3_vfs *vfs)
{
	return vfs->pAppData;
}

/* A descriptor of the folder dir (one per folder, kept), or -1. */
static int dir_fd(const char *dir)
{
	struct stat sb;
	int fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC), kept = -1;
	if (fd < 0)
		return -1;
	if (fstat(fd, &sb) != 0) {
		close(fd);
		return -1;
	}
	pthread_mutex_lock(&dirs_mu);
	for (size_t i = 0; i < ndirs && kept < 0; i++)
		if (dirs[i].dev == sb.st_dev && dirs[i].ino == sb.st_ino)
			kept = dirs[i].fd;
	if (kept < 0 && ndirs == capdirs) {
		size_t ncap = capdirs ? capdirs * 2 : 8;
		struct profdb__vfs_dir *n = realloc(dirs, ncap * sizeof *n);
		if (n) {
			dirs = n;
			capdirs = ncap;
		}
	}
	if (kept < 0 && ndirs < capdirs) {
		dirs[ndirs++] = (struct profdb__vfs_dir){ sb.st_dev, sb.st_ino, fd };
		pthread_mutex_unlock(&dirs_mu);
		return fd;
	}
	pthread_mutex_unlock(&dirs_mu);
	close(fd);
	return kept; /* -1 when out of memory */
}

/* Length of name's full path (the working folder before a relative one). */
static size_t full_len(const char *name)
{
	char cwd[PATH_MAX];
	size_t n = strlen(name);
	if (name[0] == '/')
		return n;
	return getcwd(cwd, sizeof cwd) ? strlen(cwd) + 1 + n : SIZE_MAX;
}

/* name, too long for the unix VFS, as /proc/self/fd/N/BASENAME in out. */
static int alias_path(const char *name, int nout, char *out)
{
	struct stat sb;
	char *real = NULL, *dir;
	const char *path = name, *slash, *base;
	int fd, rc = SQLITE_CANTOPEN;

	/* the file itself a link: its journal goes beside the real file */
	if (lstat(name, &sb) == 0 && S_ISLNK(sb.st_mode)) {
		if (!(real = realpath(name, NULL)))
			return SQLITE_CANTOPEN;
		path = real;
	}
	slash = strrchr(path, '/');
	base = slash ? slash + 1 : path;
	if (!*base) {
		free(real);
		return SQLITE_CANTOPEN;
	}
	dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	if (!dir) {
		free(real);
		return SQLITE_NOMEM;
	}
	fd = dir_fd(dir);
	if (fd >= 0) {
		int n = snprintf(out, (size_t)nout, "/proc/self/fd/%d/%s", fd, base);
		rc = n > 0 && n < nout ? SQLITE_OK : SQLITE_CANTOPEN;
	}
	free(dir);
	free(real);
	return rc;
}

static int lp_full_pathname(sqlite3_vfs *vfs, const char *name, int nout, char *out)
{
	int rc;
	if (full_len(name) >= SHORT_PATH)
		return alias_path(name, nout, out);
	rc = base_vfs(vfs)->xFullPathname(base_vfs(vfs), name, nout, out);
	/* a short name can be a link to a long path */
	if ((rc & 0xff) == SQLITE_CANTOPEN && alias_path(name, nout, out) == SQLITE_OK)
		return SQLITE_OK;
	return rc;
}

/* The rest: the unix VFS's own methods, on its own object. */
static int lp_open(sqlite3_vfs *vfs, const char *name, sqlite3_file *f, int flags, int *oflags)
{
	return base_vfs(vfs)->xOpen(base_vfs(vfs), name, f, flags, oflags);
}

static int lp_delete(sqlite3_vfs *vfs, const char *name, int sync_dir)
{
	return base_vfs(vfs)->xDelete(base_vfs(vfs), name, sync_dir);
}

static int lp_access(sqlite3_vfs *vfs, const char *name, int flags, int *res)
{
	return base_vfs(vfs)->xAccess(base_vfs(vfs), name, flags, res);
}

static void *lp_dlopen(sqlite3_vfs *vfs, const char *name)
{
	return base_vfs(vfs)->xDlOpen(base_vfs(vfs), name);
}

static void lp_dlerror(sqlite3_vfs *vfs, int n, char *msg)
{
	base_vfs(vfs)->xDlError(base_vfs(vfs), n, msg);
}

static void (*lp_dlsym(sqlite3_vfs *vfs, void *h, const char *sym))(void)
{
	return base_vfs(vfs)->xDlSym(base_vfs(vfs), h, sym);
}

static void lp_dlclose(sqlite3_vfs *vfs, void *h)
{
	base_vfs(vfs)->xDlClose(base_vfs(vfs), h);
}

static int lp_randomness(sqlite3_vfs *vfs, int n, char *out)
{
	return base_vfs(vfs)->xRandomness(base_vfs(vfs), n, out);
}

static int lp_sleep(sqlite3_vfs *vfs, int us)
{
	return base_vfs(vfs)->xSleep(base_vfs(vfs), us);
}

static int lp_current_time(sqlite3_vfs *vfs, double *t)
{
	return base_vfs(vfs)->xCurrentTime(base_vfs(vfs), t);
}

static int lp_last_error(sqlite3_vfs *vfs, int n, char *msg)
{
	return base_vfs(vfs)->xGetLastError(base_vfs(vfs), n, msg);
}

static int lp_current_time64(sqlite3_vfs *vfs, sqlite3_int64 *t)
{
	return base_vfs(vfs)->xCurrentTimeInt64(base_vfs(vfs), t);
}

static void lp_register(void)
{
	sqlite3_vfs *unix_vfs = sqlite3_vfs_find("unix");
	/* version 2's xCurrentTimeInt64 is used; the system-call hooks of
	 * version 3 are for tests and stay the unix VFS's */
	if (!unix_vfs || unix_vfs->iVersion < 2)
		return;
	longpath = (sqlite3_vfs){
		.iVersion = 2, .szOsFile = unix_vfs->szOsFile, .mxPathname = unix_vfs->mxPathname,
		.zName = VFS_NAME, .pAppData = unix_vfs,
		.xOpen = lp_open, .xDelete = lp_delete, .xAccess = lp_access,
		.xFullPathname = lp_full_pathname, .xDlOpen = lp_dlopen, .xDlError = lp_dlerror,
		.xDlSym = lp_dlsym, .xDlClose = lp_dlclose, .xRandomness = lp_randomness,
		.xSleep = lp_sleep, .xCurrentTime = lp_current_time, .xGetLastError = lp_last_error,
		.xCurrentTimeInt64 = lp_current_time64,
	};
	registered = sqlite3_vfs_register(&longpath, 0) == SQLITE_OK;
}

const char *profdb__vfs_longpath(void)
{
	pthread_once(&once, lp_register);
	return registered ? VFS_NAME : NULL;
}

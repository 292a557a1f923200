/*
 * writeback.c - a database's pages start for the disk as they are written,
 * not all at the fsync of the COMMIT.
 *
 * Why: an ingest writes its whole database into the page cache (SQLite
 * spills pages as its cache fills and writes the rest at COMMIT), and the
 * fdatasync of the COMMIT then waits while the disk takes all of it, with
 * nothing else to run (bench/results.md).  Asking the kernel to start the write-back every few MB
 * (sync_file_range with SYNC_FILE_RANGE_WRITE starts the I/O and does not
 * wait for it) lets the disk work while the ingest goes on, and the fsync
 * finds little left.  The fsync is still what makes a transaction durable:
 * only when the disk is asked changes.
 *
 * How: SQLite's unix VFS lets a program replace the system calls it makes
 * (xSetSystemCall).  open notes which descriptors are databases or WAL
 * files, write and pwrite64 count their bytes, close forgets them.  Not
 * journals or -shm files (small, or mapped) nor temporary files (the
 * statement journals and sorter files, whose pages are dropped before any
 * disk needs them).  The table of system calls is the process's, so the
 * program installs this, not the library.  Linux only.
 */
#if defined(__linux__)
#define _GNU_SOURCE /* sync_file_range */
#include <fcntl.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>
#endif
#include <sqlite3.h>

#include "cmd.h"

#if defined(__linux__)

#define TRACKED_FDS 1024          /* a descriptor past these is left alone */
#define HINT_BYTES ((long long)8 << 20)

typedef int (*open_fn)(const char *, int, int);
typedef int (*close_fn)(int);
typedef ssize_t (*write_fn)(int, const void *, size_t);
typedef ssize_t (*pwrite_fn)(int, const void *, size_t, off_t);

static open_fn real_open;
static close_fn real_close;
static write_fn real_write;
static pwrite_fn real_pwrite;
static atomic_bool tracked[TRACKED_FDS];   /* a database or WAL file */
static atomic_llong unhinted[TRACKED_FDS]; /* bytes written since its last hint */
static atomic_long hints;

/* SQLite's temporary files are named etilqs_* (SQLITE_TEMP_FILE_PREFIX). */
static int worth_writing_back(const char *path)
{
	size_t n = path ? strlen(path) : 0;
	if (!n || strstr(path, "etilqs_"))
		return 0;
	return !(n >= 8 && strcmp(path + n - 8, "-journal") == 0) && !(n >= 4 && strcmp(path + n - 4, "-shm") == 0);
}

static int wb_open(const char *path, int flags, int mode)
{
	int fd = real_open(path, flags, mode);
	if (fd >= 0 && fd < TRACKED_FDS) {
		atomic_store(&unhinted[fd], 0);
		atomic_store(&tracked[fd], worth_writing_back(path));
	}
	return fd;
}

static int wb_close(int fd)
{
	if (fd >= 0 && fd < TRACKED_FDS)
		atomic_store(&tracked[fd], 0);
	return real_close(fd);
}

static void wrote(int fd, ssize_t n)
{
	if (n <= 0 || fd < 0 || fd >= TRACKED_FDS || !atomic_load(&tracked[fd]))
		return;
	if (atomic_fetch_add(&unhinted[fd], n) + n < HINT_BYTES)
		return;
	atomic_store(&unhinted[fd], 0);
	/* the whole file: the kernel walks only its dirty pages.  A file
	 * system that cannot (EINVAL, ESPIPE) writes them at the fsync. */
	atomic_fetch_add(&hints, 1);
	(void)sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE);
}

static ssize_t wb_write(int fd, const void *buf, size_t n)
{
	ssize_t got = real_write(fd, buf, n);
	wrote(fd, got);
	return got;
}

static ssize_t wb_pwrite(int fd, const void *buf, size_t n, off_t at)
{
	ssize_t got = real_pwrite(fd, buf, n, at);
	wrote(fd, got);
	return got;
}

void cli_writeback_early(void)
{
	sqlite3_vfs *vfs = sqlite3_vfs_find("unix");
	if (!vfs || vfs->iVersion < 3 || real_open)
		return;
	real_open = (open_fn)vfs->xGetSystemCall(vfs, "open");
	real_close = (close_fn)vfs->xGetSystemCall(vfs, "close");
	real_write = (write_fn)vfs->xGetSystemCall(vfs, "write");
	real_pwrite = (pwrite_fn)vfs->xGetSystemCall(vfs, "pwrite64");
	/* all or none: a descriptor noted must also be forgotten */
	if (!real_open || !real_close || !real_write || !real_pwrite) {
		real_open = NULL;
		return;
	}
	vfs->xSetSystemCall(vfs, "close", (sqlite3_syscall_ptr)wb_close);
	vfs->xSetSystemCall(vfs, "write", (sqlite3_syscall_ptr)wb_write);
	vfs->xSetSystemCall(vfs, "pwrite64", (sqlite3_syscall_ptr)wb_pwrite);
	vfs->xSetSystemCall(vfs, "open", (sqlite3_syscall_ptr)wb_open);
}

long cli_writeback_hints(void)
{
	return atomic_load(&hints);
}

#else

void cli_writeback_early(void)
{
}

long cli_writeback_hints(void)
{
	return 0;
}

#endif

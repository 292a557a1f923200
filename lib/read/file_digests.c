/*
 * file_digests.c - the SHA-256 of an ingest's files, made a piece at a time
 * by whichever thread has nothing better to do.
 *
 * Why: at -j2 over several files one thread reads the files and builds
 * their rows while the insert thread writes them (ingest_threads.c
 * read_beside_inserts).  The reading thread bounds the ingest, and hashing
 * the bytes as they pass is a tenth of its work (with SHA-NI).  The insert
 * thread waits for rows now and then: through the first file's parse, and
 * between files.  So the digests are made apart, from the files again (the
 * page cache has them), in pieces small enough (256 KB, a fraction of a
 * millisecond) that a piece never holds back a job the insert thread is
 * handed meanwhile; whatever is left at the end is hashed by the reading
 * thread while the insert thread writes the last file's rows.
 *
 * A piece is read and hashed under the lock, so pieces of one file go in
 * order whatever thread takes them.  A digest must be of the bytes the
 * reader read: profdb__digests_get hashes the file again, on the calling
 * thread, where the pieces covered another count of bytes (a file that
 * changed meanwhile) or a read failed.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "banned.h"

#define PIECE (256 * 1024)

struct digest {
	const char *path;          /* borrowed; NULL: not asked for */
	struct profdb_sha256 sha;
	uint64_t bytes;            /* hashed so far */
	int state;                 /* 0 not started, 1 open, 2 done, 3 failed */
};

struct profdb__digests {
	pthread_mutex_t mu;        /* guards everything below */
	struct digest *d;
	size_t n, next;            /* the file being hashed, or the next one */
	int fd;                    /* d[next]'s, while open */
	unsigned char *buf;        /* PIECE bytes */
};

int profdb__digests_new(struct profdb__digests **out, const char *const *paths, size_t n)
{
	struct profdb__digests *g = calloc(1, sizeof *g);
	*out = NULL;
	if (!g)
		return PROFDB_ERROR;
	g->d = calloc(n ? n : 1, sizeof *g->d);
	g->buf = malloc(PIECE);
	if (!g->d || !g->buf) {
		free(g->d);
		free(g->buf);
		free(g);
		return PROFDB_ERROR;
	}
	for (size_t i = 0; i < n; i++)
		g->d[i].path = paths[i];
	g->n = n;
	g->fd = -1;
	pthread_mutex_init(&g->mu, NULL);
	*out = g;
	return PROFDB_OK;
}

/* One piece of d[next], opening it first; mu held.  The file ends (done)
 * at a read of 0 bytes. */
static void piece(struct profdb__digests *g)
{
	struct digest *d = &g->d[g->next];
	ssize_t got;
	if (d->state == 0) {
		g->fd = open(d->path, O_RDONLY | O_CLOEXEC);
		d->state = g->fd < 0 ? 3 : 1;
		profdb__sha256_init(&d->sha);
		return;
	}
	do
		got = read(g->fd, g->buf, PIECE);
	while (got < 0 && errno == EINTR);
	if (got > 0) {
		profdb__sha256_update(&d->sha, g->buf, (size_t)got);
		d->bytes += (uint64_t)got;
		return;
	}
	d->state = got == 0 ? 2 : 3;
	close(g->fd);
	g->fd = -1;
}

int profdb__digests_step(struct profdb__digests *g)
{
	int more;
	pthread_mutex_lock(&g->mu);
	while (g->next < g->n && (!g->d[g->next].path || g->d[g->next].state >= 2))
		g->next++;
	if (g->next < g->n)
		piece(g);
	more = g->next < g->n;
	pthread_mutex_unlock(&g->mu);
	return more;
}

/* The digest of path's first bytes bytes, hashed here; -1 if it cannot be
 * read that far. */
static int hash_again(const char *path, uint64_t bytes, unsigned char *buf, char hex[65])
{
	struct profdb_sha256 sha;
	uint64_t off = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	profdb__sha256_init(&sha);
	while (off < bytes) {
		size_t want = bytes - off < PIECE ? (size_t)(bytes - off) : PIECE;
		ssize_t got = read(fd, buf, want);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		profdb__sha256_update(&sha, buf, (size_t)got);
		off += (uint64_t)got;
	}
	close(fd);
	if (off != bytes)
		return -1;
	profdb__sha256_hex(&sha, hex);
	return 0;
}

int profdb__digests_get(struct profdb__digests *g, size_t i, uint64_t bytes, char hex[65])
{
	struct digest *d;
	int rc = PROFDB_OK;
	if (i >= g->n || !g->d[i].path) {
		hex[0] = '\0';
		return PROFDB_ERROR;
	}
	d = &g->d[i];
	while (profdb__digests_step(g))
		;
	pthread_mutex_lock(&g->mu);
	if (d->state == 2 && d->bytes == bytes)
		profdb__sha256_hex(&d->sha, hex);
	else if (hash_again(d->path, bytes, g->buf, hex) != 0) {
		hex[0] = '\0';
		rc = PROFDB_ERROR;
	}
	pthread_mutex_unlock(&g->mu);
	return rc;
}

void profdb__digests_free(struct profdb__digests *g)
{
	if (!g)
		return;
	if (g->fd >= 0)
		close(g->fd);
	pthread_mutex_destroy(&g->mu);
	free(g->d);
	free(g->buf);
	free(g);
}

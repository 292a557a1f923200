/*
 * input.c - a byte stream over one file, gunzipped when it starts with the
 * gzip magic (1f 8b), whatever its name.  It hashes the raw bytes as they
 * pass (so a file is read once) and counts offsets for error messages.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "internal.h"
#include "banned.h"

#define RAW_BUF (256 * 1024) /* bytes read from disk at a time */

struct profdb_input {
	int fd;                    /* open file */
	char *path;                /* owned copy, for messages */
	uint64_t size;             /* bytes on disk (0 for a FIFO or stdin) */
	uint64_t raw_off;          /* file bytes read so far */
	uint64_t off;              /* decompressed bytes handed out so far */
	int gzip;                  /* non-zero: inflate */
	int zinit;                 /* z is initialised */
	int zend;                  /* last member ended and no data follows */
	z_stream z;
	unsigned char *raw;        /* RAW_BUF bytes */
	size_t raw_len, raw_pos;   /* filled / consumed part of raw */
	int eof;                   /* read() returned 0 */
	uint64_t gzip_max;         /* decompressed bytes allowed (gzip-bomb bound) */
	struct profdb_sha256 sha;
};

/* Fill raw from the file; returns bytes added, 0 at end, -1 on error. */
static long fill(struct profdb_input *in, struct profdb_err *err)
{
	ssize_t got;
	if (in->raw_pos < in->raw_len) {
		memmove(in->raw, in->raw + in->raw_pos, in->raw_len - in->raw_pos);
		in->raw_len -= in->raw_pos;
	} else {
		in->raw_len = 0;
	}
	in->raw_pos = 0;
	if (in->eof)
		return 0;
	do
		got = read(in->fd, in->raw + in->raw_len, RAW_BUF - in->raw_len);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		profdb__err_set(err, PROFDB_ERROR, "%s: byte %llu: read error: %s", in->path,
		                (unsigned long long)in->raw_off, strerror(errno));
		return -1;
	}
	if (got == 0)
		in->eof = 1;
	profdb_sha256_update(&in->sha, in->raw + in->raw_len, (size_t)got);
	in->raw_len += (size_t)got;
	in->raw_off += (uint64_t)got;
	return got;
}

int profdb_input_open(struct profdb_input **out, const char *path, struct profdb_err *err)
{
	struct profdb_input *in;
	struct stat sb;

	*out = NULL;
	in = calloc(1, sizeof *in);
	if (!in)
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	in->fd = -1;
	in->path = strdup(path);
	in->raw = malloc(RAW_BUF);
	if (!in->path || !in->raw) {
		profdb_input_close(in);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	/* O_NONBLOCK so that opening a FIFO does not hang; cleared below */
	in->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (in->fd < 0) {
		int code = errno == ENOENT ? PROFDB_ENOTFOUND : PROFDB_ERROR;
		profdb__err_set(err, code, "cannot open '%s': %s", path, strerror(errno));
		profdb_input_close(in);
		return code;
	}
	if (fstat(in->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		profdb__err_set(err, PROFDB_EFORMAT, "%s: not a regular file", path);
		profdb_input_close(in);
		return PROFDB_EFORMAT;
	}
	fcntl(in->fd, F_SETFL, fcntl(in->fd, F_GETFL) & ~O_NONBLOCK);
	in->size = (uint64_t)sb.st_size;
	/* the gzip-bomb bound; tests lower it to trip it in milliseconds */
	in->gzip_max = profdb__env_limit("PROFDB_GZIP_MAX_BYTES", PROFDB_GZIP_MAX_BYTES);
	profdb_sha256_init(&in->sha);
	while (in->raw_len < 2 && !in->eof)
		if (fill(in, err) < 0) {
			profdb_input_close(in);
			return PROFDB_ERROR;
		}
	if (in->raw_len >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
		in->gzip = 1;
		if (inflateInit2(&in->z, 15 + 16) != Z_OK) {
			profdb_input_close(in);
			return profdb__err_set(err, PROFDB_ERROR, "%s: cannot start gzip decoder", path);
		}
		in->zinit = 1;
	}
	*out = in;
	return PROFDB_OK;
}

static long read_plain(struct profdb_input *in, unsigned char *buf, size_t n, struct profdb_err *err)
{
	size_t have;
	if (in->raw_pos == in->raw_len && !in->eof && n >= RAW_BUF / 2) {
		/* a big read goes straight to the caller's buffer: one copy less */
		ssize_t got;
		do
			got = read(in->fd, buf, n);
		while (got < 0 && errno == EINTR);
		if (got < 0) {
			profdb__err_set(err, PROFDB_ERROR, "%s: byte %llu: read error: %s", in->path,
			                (unsigned long long)in->raw_off, strerror(errno));
			return -1;
		}
		if (got == 0)
			in->eof = 1;
		profdb_sha256_update(&in->sha, buf, (size_t)got);
		in->raw_off += (uint64_t)got;
		return (long)got;
	}
	if (in->raw_pos == in->raw_len && fill(in, err) < 0)
		return -1;
	have = in->raw_len - in->raw_pos;
	if (have > n)
		have = n;
	memcpy(buf, in->raw + in->raw_pos, have);
	in->raw_pos += have;
	return (long)have;
}

static long read_gzip(struct profdb_input *in, unsigned char *buf, size_t n, struct profdb_err *err)
{
	if (in->zend)
		return 0;
	in->z.next_out = buf;
	in->z.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	while (in->z.avail_out > 0) {
		int zrc;
		if (in->raw_pos == in->raw_len) {
			long got = fill(in, err);
			if (got < 0)
				return -1;
			if (got == 0 && in->raw_len == 0) {
				if (in->z.next_out != buf)
					break; /* return what we have; report truncation next call */
				profdb__err_set(err, PROFDB_EFORMAT,
				    "%s: byte %llu: truncated gzip stream", in->path,
				    (unsigned long long)in->raw_off);
				return -1;
			}
		}
		in->z.next_in = in->raw + in->raw_pos;
		in->z.avail_in = (uInt)(in->raw_len - in->raw_pos);
		zrc = inflate(&in->z, Z_NO_FLUSH);
		in->raw_pos = in->raw_len - in->z.avail_in;
		if (zrc == Z_STREAM_END) {
			/* concatenated members are legal gzip: go on if more follows */
			if (in->raw_pos == in->raw_len && fill(in, err) < 0)
				return -1;
			if (in->raw_pos == in->raw_len) {
				in->zend = 1;
				break;
			}
			inflateReset(&in->z);
			continue;
		}
		if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
			profdb__err_set(err, PROFDB_EFORMAT, "%s: byte %llu: corrupt gzip data (%s)",
			    in->path, (unsigned long long)(in->raw_off - (in->raw_len - in->raw_pos)),
			    in->z.msg ? in->z.msg : "inflate failed");
			return -1;
		}
	}
	return (long)((unsigned char *)in->z.next_out - buf);
}

long profdb_input_read(struct profdb_input *in, void *buf, size_t n, struct profdb_err *err)
{
	long got = in->gzip ? read_gzip(in, buf, n, err) : read_plain(in, buf, n, err);
	if (got > 0) {
		in->off += (uint64_t)got;
		if (in->gzip && in->off > in->gzip_max) {
			profdb__err_set(err, PROFDB_EFORMAT,
			    "%s: decompresses to more than %llu bytes (gzip bomb limit)", in->path,
			    (unsigned long long)in->gzip_max);
			return -1;
		}
	}
	return got;
}

int profdb_input_is_gzip(const struct profdb_input *in) { return in->gzip; }
uint64_t profdb_input_offset(const struct profdb_input *in) { return in->off; }
uint64_t profdb_input_raw_offset(const struct profdb_input *in) { return in->raw_off; }
uint64_t profdb_input_size(const struct profdb_input *in) { return in->size; }
const char *profdb_input_path(const struct profdb_input *in) { return in->path; }

void profdb_input_sha256(struct profdb_input *in, char hex[65])
{
	profdb_sha256_hex(&in->sha, hex);
}

void profdb_input_close(struct profdb_input *in)
{
	if (!in)
		return;
	if (in->zinit)
		inflateEnd(&in->z);
	if (in->fd >= 0)
		close(in->fd);
	free(in->raw);
	free(in->path);
	free(in);
}

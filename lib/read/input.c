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
	struct profdb_err pend;    /* an error met after some output: reported on the next read */
	z_stream z;
	unsigned char *raw;        /* RAW_BUF bytes */
	size_t raw_len, raw_pos;   /* filled / consumed part of raw */
	int eof;                   /* read() returned 0 */
	uint64_t gzip_max;         /* decompressed bytes allowed (gzip-bomb bound) */
	struct profdb_sha256 sha;
	int no_hash;               /* made elsewhere (file_digests.c) */
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
	if (!in->no_hash)
		profdb__sha256_update(&in->sha, in->raw + in->raw_len, (size_t)got);
	in->raw_len += (size_t)got;
	in->raw_off += (uint64_t)got;
	return got;
}

int profdb__input_open(struct profdb_input **out, const char *path, uint64_t gzip_max, struct profdb_err *err)
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
		profdb__input_close(in);
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	}
	/* O_NONBLOCK so that opening a FIFO does not hang; cleared below */
	in->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (in->fd < 0) {
		int code = errno == ENOENT ? PROFDB_ENOTFOUND : PROFDB_ERROR;
		profdb__err_set(err, code, "cannot open '%s': %s", path, strerror(errno));
		profdb__input_close(in);
		return code;
	}
	if (fstat(in->fd, &sb) != 0 || !S_ISREG(sb.st_mode)) {
		profdb__err_set(err, PROFDB_EFORMAT, "%s: not a regular file", path);
		profdb__input_close(in);
		return PROFDB_EFORMAT;
	}
	fcntl(in->fd, F_SETFL, fcntl(in->fd, F_GETFL) & ~O_NONBLOCK);
	in->size = (uint64_t)sb.st_size;
	/* the gzip-bomb bound (struct profdb_limits) */
	in->gzip_max = gzip_max;
	profdb__sha256_init(&in->sha);
	while (in->raw_len < 2 && !in->eof)
		if (fill(in, err) < 0) {
			profdb__input_close(in);
			return PROFDB_ERROR;
		}
	if (in->raw_len >= 2 && in->raw[0] == 0x1f && in->raw[1] == 0x8b) {
		in->gzip = 1;
		if (inflateInit2(&in->z, 15 + 16) != Z_OK) {
			profdb__input_close(in);
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
		if (!in->no_hash)
			profdb__sha256_update(&in->sha, buf, (size_t)got);
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

/* Where the decoder stands in the file: the offset of the next raw byte. */
static uint64_t raw_at(const struct profdb_input *in)
{
	return in->raw_off - (in->raw_len - in->raw_pos);
}

/* Say what zlib's terse text means for a gzip file, and where. */
static void gzip_error(struct profdb_input *in, int zrc, struct profdb_err *err)
{
	const char *m = in->z.msg ? in->z.msg : "";
	const char *what = "corrupt gzip data";
	if (strcmp(m, "incorrect data check") == 0)
		what = "bad CRC: the gzip trailer's CRC-32 does not match the data (corrupt file)";
	else if (strcmp(m, "incorrect length check") == 0)
		what = "wrong size: the gzip trailer's length does not match the data (corrupt file)";
	else if (strcmp(m, "incorrect header check") == 0 || strcmp(m, "unknown compression method") == 0)
		what = "not a gzip member (bad header)";
	else if (zrc == Z_MEM_ERROR)
		what = "out of memory in the gzip decoder";
	profdb__err_set(err, zrc == Z_MEM_ERROR ? PROFDB_ERROR : PROFDB_EFORMAT, "%s: byte %llu: %s%s%s%s",
	                in->path, (unsigned long long)raw_at(in), what, m[0] ? " (zlib: " : "", m, m[0] ? ")" : "");
}

/*
 * After a member's end: another member (concatenation is legal gzip), or
 * zero bytes to the end of the file (padding, which gzip -t accepts too),
 * or the end itself.  1: a member follows; 0: the stream is over; -1 on an
 * error (trailing bytes that are not gzip).
 */
static int after_member(struct profdb_input *in, struct profdb_err *err)
{
	int zeros = 0;
	for (;;) {
		if (in->raw_len - in->raw_pos < 2 && !in->eof && fill(in, err) < 0)
			return -1;
		if (in->raw_pos == in->raw_len)
			return 0;
		if (!zeros && in->raw_len - in->raw_pos >= 2 && in->raw[in->raw_pos] == 0x1f &&
		    in->raw[in->raw_pos + 1] == 0x8b)
			return 1;
		while (in->raw_pos < in->raw_len && in->raw[in->raw_pos] == 0) {
			in->raw_pos++;
			zeros = 1;
		}
		if (in->raw_pos < in->raw_len && (zeros || in->raw_len - in->raw_pos >= 2 || in->eof)) {
			profdb__err_set(err, PROFDB_EFORMAT,
			    "%s: byte %llu: data after the last gzip member that is neither gzip nor zero padding",
			    in->path, (unsigned long long)raw_at(in));
			return -1;
		}
	}
}

/* Inflate into buf until it is full or the stream ends; -1 on an error
 * (*made says how much was decoded before it). */
static long inflate_some(struct profdb_input *in, unsigned char *buf, size_t n, size_t *made,
                         struct profdb_err *err)
{
	in->z.next_out = buf;
	in->z.avail_out = (uInt)(n > (1u << 30) ? (1u << 30) : n);
	while (in->z.avail_out > 0) {
		int zrc;
		*made = (size_t)((unsigned char *)in->z.next_out - buf);
		if (in->raw_pos == in->raw_len) {
			long got = fill(in, err);
			if (got < 0)
				return -1;
			if (got == 0 && in->raw_len == 0) {
				profdb__err_set(err, PROFDB_EFORMAT,
				    "%s: byte %llu: truncated gzip stream (the file ends inside a member)",
				    in->path, (unsigned long long)in->raw_off);
				return -1;
			}
		}
		in->z.next_in = in->raw + in->raw_pos;
		in->z.avail_in = (uInt)(in->raw_len - in->raw_pos);
		zrc = inflate(&in->z, Z_NO_FLUSH);
		in->raw_pos = in->raw_len - in->z.avail_in;
		*made = (size_t)((unsigned char *)in->z.next_out - buf);
		if (zrc == Z_STREAM_END) {
			int more = after_member(in, err);
			if (more < 0)
				return -1;
			if (more == 0) {
				in->zend = 1;
				break;
			}
			inflateReset(&in->z);
			continue;
		}
		if (zrc != Z_OK && zrc != Z_BUF_ERROR) {
			gzip_error(in, zrc, err);
			return -1;
		}
	}
	return (long)*made;
}

static long read_gzip(struct profdb_input *in, unsigned char *buf, size_t n, struct profdb_err *err)
{
	size_t made = 0;
	long got;
	if (in->pend.code != PROFDB_OK) {
		profdb__err_set(err, in->pend.code, "%s", in->pend.msg);
		return -1;
	}
	if (in->zend)
		return 0;
	got = inflate_some(in, buf, n, &made, &in->pend);
	if (got >= 0)
		return got;
	/* hand out what was decoded (a reader may need it to say what the
	 * file is); the error comes with the next read */
	if (made > 0)
		return (long)made;
	profdb__err_set(err, in->pend.code, "%s", in->pend.msg);
	return -1;
}

long profdb__input_read(struct profdb_input *in, void *buf, size_t n, struct profdb_err *err)
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

uint64_t profdb__input_raw_offset(const struct profdb_input *in) { return in->raw_off; }
uint64_t profdb__input_size(const struct profdb_input *in) { return in->size; }

void profdb__input_sha256(struct profdb_input *in, char hex[65])
{
	profdb__sha256_hex(&in->sha, hex);
}

void profdb__input_no_hash(struct profdb_input *in)
{
	in->no_hash = 1;
}

void profdb__input_close(struct profdb_input *in)
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

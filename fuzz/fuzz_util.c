/*
 * fuzz_util.c - see fuzz.h.  The checks here are the reader contract from
 * lib/internal.h; a violation aborts, which libFuzzer reports as a crash
 * with the input that caused it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz.h"

static char tmpdir[256];       /* per-process folder, made on first use */
static char names[8][64];      /* file names written there, removed at exit */
static size_t nnames;

static void cleanup(void)
{
	char path[sizeof tmpdir + sizeof names[0] + 2];
	for (size_t i = 0; i < nnames; i++) {
		if (snprintf(path, sizeof path, "%s/%s", tmpdir, names[i]) < (int)sizeof path)
			unlink(path);
	}
	if (tmpdir[0])
		rmdir(tmpdir);
}

void fuzz_die(const char *what)
{
	fprintf(stderr, "fuzz: %s\n", what);
	abort();
}

const char *fuzz_write_input(const char *name, const uint8_t *data, size_t size)
{
	static char path[sizeof tmpdir + sizeof names[0] + 2];
	size_t i, off = 0;
	int fd;

	if (!tmpdir[0]) {
		const char *base = getenv("TMPDIR");
		/* /dev/shm when there is one: a fuzz run writes a file per input */
		if (!base || !*base)
			base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
		snprintf(tmpdir, sizeof tmpdir, "%s/profdb-fuzz.XXXXXX", base);
		if (!mkdtemp(tmpdir))
			fuzz_die("cannot make a temporary folder");
		atexit(cleanup);
	}
	for (i = 0; i < nnames && strcmp(names[i], name) != 0; i++)
		;
	if (i == nnames) {
		if (nnames == sizeof names / sizeof names[0] || strlen(name) >= sizeof names[0])
			fuzz_die("too many or too long input names");
		snprintf(names[nnames++], sizeof names[0], "%s", name);
	}
	snprintf(path, sizeof path, "%s/%s", tmpdir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		fuzz_die("cannot write the input file");
	while (off < size) {
		ssize_t n = write(fd, data + off, size - off);
		if (n <= 0)
			fuzz_die("cannot write the input file");
		off += (size_t)n;
	}
	close(fd);
	return path;
}

void fuzz_check_error(int rc, const char *msg)
{
	if (rc == PROFDB_OK)
		return;
	if (!msg || !*msg)
		fuzz_die("a call failed without a message");
	if (strchr(msg, '\n'))
		fuzz_die("an error message spans more than one line");
}

/* Read every byte of s (NULL allowed when the field is optional). */
static size_t touch(struct fuzz_sink *s, const char *str, int required, const char *what)
{
	size_t n;
	if (!str) {
		if (required) {
			fprintf(stderr, "fuzz: %s is NULL\n", what);
			abort();
		}
		return 0;
	}
	n = strlen(str);
	s->bytes += n;
	return n;
}

static int on_source_begin(void *arg, const char *path, const char *role, int64_t rank,
                           const unsigned char *content, size_t len)
{
	struct fuzz_sink *s = arg;
	unsigned sum = 0;
	(void)rank;
	touch(s, path, 1, "source path");
	touch(s, role, 0, "source role");
	for (size_t i = 0; content && i < len; i++)
		sum += content[i];
	s->bytes += sum & 1;
	s->open_sources++;
	return PROFDB_OK;
}

static int on_source_end(void *arg, int64_t rows_read, const char *sha, uint64_t size)
{
	struct fuzz_sink *s = arg;
	(void)size;
	if (rows_read < 0)
		fuzz_die("source_end with a negative row count");
	if (sha && strlen(sha) != 64)
		fuzz_die("source_end with a sha256 that is not 64 hex digits");
	s->open_sources--;
	return PROFDB_OK;
}

static int on_skip(void *arg, const char *reason, int64_t where)
{
	struct fuzz_sink *s = arg;
	(void)where;
	touch(s, reason, 1, "skip reason");
	return PROFDB_OK;
}

static int on_kernel(void *arg, const struct profdb_kernel_rec *k)
{
	struct fuzz_sink *s = arg;
	const char *str[] = { k->type, k->core, k->grid, k->block, k->op_state, k->in_shapes,
	                      k->in_dtypes, k->in_formats, k->out_shapes, k->out_dtypes,
	                      k->out_formats, k->launch_op };
	touch(s, k->name, 1, "kernel name");
	for (size_t i = 0; i < sizeof str / sizeof str[0]; i++)
		touch(s, str[i], 0, "kernel field");
	if (k->start_ns == PROFDB_NULL || k->dur_ns == PROFDB_NULL)
		fuzz_die("kernel without start or duration (both are required)");
	if (k->kind < PROFDB_KIND_KERNEL || k->kind > PROFDB_KIND_OTHER)
		fuzz_die("kernel kind out of range");
	if (k->nmetrics && !k->metrics)
		fuzz_die("kernel metrics count without metrics");
	for (size_t i = 0; i < k->nmetrics; i++)
		touch(s, k->metrics[i].name, 1, "metric name");
	s->records++;
	return PROFDB_OK;
}

static int on_op(void *arg, const struct profdb_op_rec *o)
{
	struct fuzz_sink *s = arg;
	touch(s, o->name, 1, "op name");
	touch(s, o->category, 0, "op category");
	touch(s, o->in_shapes, 0, "op shapes");
	touch(s, o->in_types, 0, "op types");
	touch(s, o->call_stack, 0, "op call stack");
	s->records++;
	return PROFDB_OK;
}

static int on_launch(void *arg, const struct profdb_launch_rec *l)
{
	struct fuzz_sink *s = arg;
	touch(s, l->name, 0, "launch name");
	s->records++;
	return PROFDB_OK;
}

static int on_step(void *arg, const struct profdb_step_rec *st)
{
	struct fuzz_sink *s = arg;
	(void)st;
	s->records++;
	return PROFDB_OK;
}

static int on_step_metric(void *arg, int64_t rank, int64_t step, const char *metric, double value)
{
	struct fuzz_sink *s = arg;
	(void)rank; (void)step; (void)value;
	touch(s, metric, 1, "step metric name");
	s->records++;
	return PROFDB_OK;
}

static int on_meta(void *arg, int64_t rank, const char *key, const char *value)
{
	struct fuzz_sink *s = arg;
	(void)rank;
	touch(s, key, 1, "meta key");
	touch(s, value, 0, "meta value");
	s->records++;
	return PROFDB_OK;
}

static int on_note(void *arg, const char *note)
{
	struct fuzz_sink *s = arg;
	touch(s, note, 1, "note");
	return PROFDB_OK;
}

void fuzz_sink_init(struct fuzz_sink *s)
{
	memset(s, 0, sizeof *s);
	s->sink.arg = s;
	s->sink.err = &s->err;
	s->sink.source_begin = on_source_begin;
	s->sink.source_end = on_source_end;
	s->sink.skip = on_skip;
	s->sink.kernel = on_kernel;
	s->sink.op = on_op;
	s->sink.launch = on_launch;
	s->sink.step = on_step;
	s->sink.step_metric = on_step_metric;
	s->sink.meta = on_meta;
	s->sink.note = on_note;
}

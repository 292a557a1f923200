/*
 * testutil.c - see testutil.h.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "read/detect.h"

static const char *join(const char *env, const char *fallback, const char *rel)
{
	static char bufs[8][4096];
	static int next;
	const char *base = getenv(env);
	char *b = bufs[next++ % 8];
	snprintf(b, sizeof bufs[0], "%s/%s", base && *base ? base : fallback, rel);
	return b;
}

const char *tu_testdata(const char *rel) { return join("PROFDB_TESTDATA", "testdata", rel); }
/* The corpus copy in testdata/corpus; a file it lacks may come from
 * $PROFDB_EXTRA_CORPUS (a fuller corpus checked out beside the project),
 * so suites can read more real dumps where there are some, never needing them. */
const char *tu_corpus(const char *rel)
{
	const char *p = join("PROFDB_CORPUS", "testdata/corpus", rel);
	const char *extra = getenv("PROFDB_EXTRA_CORPUS");
	if (extra && *extra && access(p, F_OK) != 0)
		return join("PROFDB_EXTRA_CORPUS", "", rel);
	return p;
}

const char *tu_tmpdir(void)
{
	static char buf[8][256];
	static int next;
	char *b = buf[next++ % 8];
	snprintf(b, sizeof buf[0], "%s/profdb-test.XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	return mkdtemp(b);
}

unsigned char *tu_read_file(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	unsigned char *buf = NULL;
	size_t cap = 0, n = 0, got;
	if (!f)
		return NULL;
	do {
		if (n == cap) {
			cap = cap ? cap * 2 : 65536;
			buf = realloc(buf, cap + 1);
		}
		got = fread(buf + n, 1, cap - n, f);
		n += got;
	} while (got > 0);
	fclose(f);
	buf[n] = 0;
	*len = n;
	return buf;
}

int tu_write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");
	if (!f)
		return -1;
	if (fwrite(data, 1, len, f) != len) {
		fclose(f);
		return -1;
	}
	return fclose(f);
}

static char *dup_or_null(const char *s) { return s ? strdup(s) : NULL; }

static int on_source_begin(void *arg, const char *path, const char *role, int64_t rank,
                           const unsigned char *content, size_t len)
{
	struct tu_sink *s = arg;
	(void)path; (void)role; (void)rank; (void)content; (void)len;
	s->nsources++;
	s->file_kernels = s->nkernels;
	s->file_ops = s->nops;
	return PROFDB_OK;
}

/* The current file's kernels and ops were sent with a guessed rank and
 * base time: move them (the store's on_rank_fixup, on memory). */
static int on_rank_fixup(void *arg, int64_t guessed, int64_t rank, int64_t offset)
{
	struct tu_sink *s = arg;
	for (size_t i = s->file_kernels; i < s->nkernels; i++)
		if (s->kernels[i].rank == guessed) {
			s->kernels[i].rank = rank;
			s->kernels[i].start_ns += offset;
		}
	for (size_t i = s->file_ops; i < s->nops; i++)
		if (s->ops[i].rank == guessed) {
			s->ops[i].rank = rank;
			s->ops[i].start_ns += offset;
		}
	return PROFDB_OK;
}

static int on_source_end(void *arg, int64_t rows_read, const char *sha, uint64_t size)
{
	struct tu_sink *s = arg;
	(void)sha; (void)size;
	s->rows_read += rows_read;
	return PROFDB_OK;
}

static int on_skip(void *arg, const char *reason, int64_t where)
{
	struct tu_sink *s = arg;
	(void)where;
	s->skipped++;
	snprintf(s->last_skip, sizeof s->last_skip, "%s", reason);
	return PROFDB_OK;
}

static int on_kernel(void *arg, const struct profdb_kernel_rec *k)
{
	struct tu_sink *s = arg;
	struct tu_kernel *t;
	s->kernels = realloc(s->kernels, (s->nkernels + 1) * sizeof *s->kernels);
	t = &s->kernels[s->nkernels++];
	t->rank = k->rank; t->device = k->device; t->stream = k->stream; t->step = k->step;
	t->start_ns = k->start_ns; t->dur_ns = k->dur_ns; t->wait_ns = k->wait_ns;
	t->correlation = k->correlation; t->external_id = k->external_id;
	t->block_dim = k->block_dim; t->task_id = k->task_id; t->kind = k->kind;
	t->name = dup_or_null(k->name); t->type = dup_or_null(k->type); t->core = dup_or_null(k->core);
	t->in_shapes = dup_or_null(k->in_shapes); t->launch_op = dup_or_null(k->launch_op);
	t->nmetrics = k->nmetrics;
	return PROFDB_OK;
}

static int on_op(void *arg, const struct profdb_op_rec *o)
{
	struct tu_sink *s = arg;
	struct tu_op *t;
	s->ops = realloc(s->ops, (s->nops + 1) * sizeof *s->ops);
	t = &s->ops[s->nops++];
	t->rank = o->rank; t->step = o->step; t->tid = o->tid; t->start_ns = o->start_ns;
	t->dur_ns = o->dur_ns; t->self_ns = o->self_ns; t->device_self_ns = o->device_self_ns;
	t->device_total_ns = o->device_total_ns; t->external_id = o->external_id;
	t->name = dup_or_null(o->name); t->in_shapes = dup_or_null(o->in_shapes);
	t->call_stack = dup_or_null(o->call_stack); t->in_concrete = dup_or_null(o->in_concrete);
	return PROFDB_OK;
}

static int on_launch(void *arg, const struct profdb_launch_rec *l)
{
	(void)l;
	((struct tu_sink *)arg)->nlaunches++;
	return PROFDB_OK;
}

static int on_step(void *arg, const struct profdb_step_rec *r)
{
	struct tu_sink *s = arg;
	s->steps = realloc(s->steps, (s->nsteps + 1) * sizeof *s->steps);
	s->steps[s->nsteps++] = *r;
	return PROFDB_OK;
}

static int on_step_metric(void *arg, int64_t rank, int64_t step, const char *m, double v)
{
	(void)rank; (void)step; (void)m; (void)v;
	((struct tu_sink *)arg)->nstep_metrics++;
	return PROFDB_OK;
}

static int on_meta(void *arg, int64_t rank, const char *k, const char *v)
{
	(void)rank; (void)k; (void)v;
	((struct tu_sink *)arg)->nmeta++;
	return PROFDB_OK;
}

static int on_note(void *arg, const char *n)
{
	(void)n;
	((struct tu_sink *)arg)->nnotes++;
	return PROFDB_OK;
}

void tu_sink_init(struct tu_sink *s)
{
	memset(s, 0, sizeof *s);
	s->sink = (struct profdb_sink){
		.arg = s, .err = &s->err, .source_begin = on_source_begin, .source_end = on_source_end,
		.skip = on_skip, .kernel = on_kernel, .op = on_op, .launch = on_launch, .step = on_step,
		.step_metric = on_step_metric, .meta = on_meta, .note = on_note, .rank_fixup = on_rank_fixup,
	};
}

void tu_sink_free(struct tu_sink *s)
{
	for (size_t i = 0; i < s->nkernels; i++) {
		free(s->kernels[i].name); free(s->kernels[i].type); free(s->kernels[i].core);
		free(s->kernels[i].in_shapes); free(s->kernels[i].launch_op);
	}
	free(s->kernels);
	for (size_t i = 0; i < s->nops; i++) {
		free(s->ops[i].name); free(s->ops[i].in_shapes); free(s->ops[i].call_stack);
		free(s->ops[i].in_concrete);
	}
	free(s->ops);
	free(s->steps);
}

const struct profdb_limits tu_limits = PROFDB_LIMITS_INIT;

struct profdb_reader_ctx tu_ctx(struct tu_sink *s, const char *path)
{
	struct profdb_reader_ctx c = { .path = path, .rank = PROFDB_NULL, .sink = &s->sink, .err = &s->err,
	                               .limits = &tu_limits };
	return c;
}

int tu_run(Suite *s)
{
	SRunner *sr = srunner_create(s);
	int failed;
	srunner_set_tap(sr, "-");
	srunner_run_all(sr, CK_SILENT);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}

int64_t tu_scalar(profdb *db, const char *sql)
{
	sqlite3_stmt *st;
	int64_t v = -1;
	ck_assert_msg(sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
	              sqlite3_errmsg(db->sql));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

char *tu_text(profdb *db, const char *sql)
{
	sqlite3_stmt *st;
	char *v = NULL;
	ck_assert_msg(sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
	              sqlite3_errmsg(db->sql));
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

double tu_scalar_d(profdb *db, const char *sql)
{
	sqlite3_stmt *st;
	double v = NAN;
	ck_assert_msg(sqlite3_prepare_v2(db->sql, sql, -1, &st, NULL) == SQLITE_OK, "%s: %s", sql,
	              sqlite3_errmsg(db->sql));
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

const struct profdb_reader *tu_detect(const char *path, char *reason, size_t cap)
{
	const struct profdb_reader *r;
	profdb__detect_file(&r, path, reason, cap);
	return r;
}

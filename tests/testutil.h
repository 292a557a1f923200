/*
 * testutil.h - helpers shared by the Check suites: paths to test inputs, a
 * sink that collects records in memory (reader tests need no SQL), files.
 */
#ifndef PROFDB_TESTUTIL_H
#define PROFDB_TESTUTIL_H

#include <stddef.h>
#include <stdint.h>
#include <check.h>

#include "internal.h"

/* $PROFDB_TESTDATA/rel and $PROFDB_CORPUS/rel (default testdata/corpus; a file
 * missing there is looked up under $PROFDB_EXTRA_CORPUS when set); static
 * buffers, rotating. */
const char *tu_testdata(const char *rel);
const char *tu_corpus(const char *rel);
/* A fresh temporary folder (static buffer, one per call). */
const char *tu_tmpdir(void);
/* Read a whole file; *len set; caller frees.  NULL if unreadable. */
unsigned char *tu_read_file(const char *path, size_t *len);
/* Write bytes to path; 0 ok. */
int tu_write_file(const char *path, const void *data, size_t len);

/* Run a Check suite with TAP on stdout; the exit status for main. */
int tu_run(Suite *s);
/* The first column of the first row of sql on db's store (-1 / NaN when no
 * row; a prepare error fails the test). */
int64_t tu_scalar(profdb *db, const char *sql);
double tu_scalar_d(profdb *db, const char *sql);
/* The same as text, the caller's to free (NULL when no row or NULL). */
char *tu_text(profdb *db, const char *sql);

/* A kernel as the memory sink keeps it (strings owned). */
struct tu_kernel {
	int64_t rank, device, stream, step, start_ns, dur_ns, wait_ns;
	int64_t correlation, external_id, block_dim, task_id;
	int kind;
	char *name, *type, *core, *in_shapes, *launch_op;
	size_t nmetrics;
};
struct tu_op {
	int64_t rank, step, tid, start_ns, dur_ns, self_ns, device_self_ns, device_total_ns, external_id;
	char *name, *in_shapes, *call_stack, *in_concrete;
};

/* A sink that keeps everything in memory. */
struct tu_sink {
	struct profdb_sink sink;
	struct profdb_err err;
	struct tu_kernel *kernels;
	size_t nkernels;
	struct tu_op *ops;
	size_t nops;
	struct profdb_step_rec *steps;
	size_t nsteps;
	size_t nlaunches, nmeta, nnotes, nsources, nstep_metrics;
	int64_t skipped, rows_read;
	char last_skip[256];
	size_t file_kernels, file_ops; /* kernels[], ops[] of files before the current one */
};
/* As the store: with rank_fixup (the Kineto reader reads a file once, with a
 * guessed rank and base time, and moves what it sent), so reader tests run
 * the path `profdb ingest` runs; set sink.rank_fixup = NULL for the
 * two-pass path. */
void tu_sink_init(struct tu_sink *s);
void tu_sink_free(struct tu_sink *s);
/* A reader context over path with the memory sink. */
/* The built-in limits (PROFDB_LIMITS_INIT), which tu_ctx's readers read under. */
extern const struct profdb_limits tu_limits;
struct profdb_reader_ctx tu_ctx(struct tu_sink *s, const char *path);

/* The reader profdb__detect_file finds for path, or NULL (reason says why). */
const struct profdb_reader *tu_detect(const char *path, char *reason, size_t cap);

#endif

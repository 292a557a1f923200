/*
 * fuzz.h - what the fuzz targets share: the libFuzzer entry point they
 * define, a per-process temporary file for the input bytes (readers take
 * paths, not buffers), and a sink that checks the record contract of
 * lib/internal.h so that a reader breaking it is a crash the fuzzer sees.
 */
#ifndef PROFDB_FUZZ_H
#define PROFDB_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"

/* Defined by each target; called by libFuzzer or by replay_main.c. */
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Write data to <per-process temp folder>/name (replacing it) and return
 * that path (static storage, valid until the next call).  Aborts on I/O
 * failure: a fuzz run that cannot write its input tests nothing. */
const char *fuzz_write_input(const char *name, const uint8_t *data, size_t size);

/* A sink that keeps nothing but reads every byte it is handed (so ASan sees
 * a dangling or unterminated string) and aborts on a broken contract. */
struct fuzz_sink {
	struct profdb_sink sink;
	struct profdb_err err;
	size_t records;            /* records seen, all kinds */
	size_t bytes;              /* string bytes read */
	int open_sources;          /* source_begin calls not yet ended */
};
void fuzz_sink_init(struct fuzz_sink *s);

/* Print "fuzz: what" and abort: a broken contract is a crash to libFuzzer. */
void fuzz_die(const char *what);

/* Abort unless a failed call left a message that is one line of text. */
void fuzz_check_error(int rc, const char *msg);

#endif

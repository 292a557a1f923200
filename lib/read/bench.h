/*
 * bench.h - what the wall-clock benchmark readers share (ingest_bench.c):
 * loading a small result file, sending one timed repeat as a kernel row of
 * kind wallclock, summary-only statistics and the file's own tags.  The
 * readers are ingest_pytest_benchmark.c, ingest_gbench.c,
 * ingest_wallclock_csv.c and ingest_wallclock_jsonl.c.  Private to lib/.
 */
#ifndef PROFDB_BENCH_H
#define PROFDB_BENCH_H

#include <stddef.h>
#include <stdint.h>

#include "internal.h"
#include "json_scan.h"

/* Largest benchmark result file read (they are read whole into memory). */
#define PROFDB_BENCH_MAX_BYTES ((size_t)256 << 20)

/* An API's repeat counter (repeats numbered in file order when the file
 * does not number them). */
struct profdb__bench_api {
	char *name;                /* owned */
	int64_t repeats;           /* repeats sent so far */
	struct profdb__bench_seen { int64_t rep, where; } *seen; /* owned: each repeat's number and line */
	size_t nseen;
};

/* A tag the file itself gives (a constant column, the benchmark context). */
struct profdb__bench_tag {
	char *key, *value;         /* owned */
	int64_t where;             /* line or byte offset where first seen */
};

/* One reader's output state over one file. */
struct profdb__bench_out {
	const struct profdb_reader_ctx *ctx;
	const char *path;          /* the file, for messages */
	int64_t rank;              /* rank of every row: the context's, else 0 */
	int64_t clock_ns;          /* synthetic start of the next repeat */
	int64_t rows;              /* records read: repeats sent plus rows skipped */
	int64_t summaries;         /* APIs kept as summary statistics only */
	struct profdb__bench_api *apis;    /* APIs seen so far */
	size_t napis;
	struct profdb__bench_tag *tags;    /* file tags seen so far */
	size_t ntags, tags_cap;
	/* tags by key: open addressing, index + 1 (0 empty), a power of two
	 * at least twice ntags: a file of many columns checks each in O(1) */
	size_t *tag_slot;
	size_t ntag_slots;
};

/* Summary statistics of one API where the repeats themselves are absent
 * (times in ns; PROFDB_NULL where the file gives none). */
struct profdb__bench_stats {
	int64_t rounds;            /* repeats the statistics are over */
	double mean_ns, stddev_ns; /* stddev < 0: not given */
	int64_t min_ns, max_ns;
	double median_ns;          /* < 0: not given */
	const char *source;        /* "pytest-benchmark stats", ... */
};

/*
 * Read the whole file ctx->path (plain or gzip, at most
 * PROFDB_BENCH_MAX_BYTES) into *buf (NUL-terminated, the caller frees it),
 * *len bytes (buf NULL: the caller streams from *in), and start the
 * source (source_begin with role).  *in stays
 * open for profdb__bench_end.  Errors on ctx->err.
 */
int profdb__bench_begin(struct profdb__bench_out *o, const struct profdb_reader_ctx *ctx, const char *role,
                        struct profdb_input **in, char **buf, size_t *len);
/* The reader's last call, with its result so far rc: when PROFDB_OK, end
 * the source (source_end with o->rows, the file's digest, size; a note when
 * some APIs have summary statistics only); in both cases close in, free
 * o's state and return the result. */
int profdb__bench_end(struct profdb__bench_out *o, struct profdb_input *in, int rc);
/* The sniff of every wall-clock reader: yes when profdb__bench_detect
 * (which tells the four forms apart) names self. */
int profdb__bench_sniff(const struct profdb_sniff *s, const struct profdb_reader *self);
/* Is r one of the benchmark file readers?  Such a file is a run of its own,
 * never one rank among others (doc/benchmarks.md "Operator benchmarks"). */
int profdb__reader_is_bench(const struct profdb_reader *r);
/* Free o's state without ending the source (error paths). */
void profdb__bench_free(struct profdb__bench_out *o);
/*
 * One timed repeat of api: a kernel row of kind wallclock, step = the
 * repeat number (repeat, or PROFDB_NULL for the next one of api, from 1),
 * start = the synthetic clock (repeats laid end to end in file order).
 * where: the line (or byte) it came from; a repeat number given twice for
 * one API is refused there by profdb__bench_end.
 */
int profdb__bench_repeat(struct profdb__bench_out *o, const char *api, int64_t repeat, int64_t dur_ns,
                         int64_t where);
/* Summary statistics of api (run_meta 'bench_summary', a JSON object). */
int profdb__bench_summary(struct profdb__bench_out *o, const char *api, const struct profdb__bench_stats *s);
/* A tag of the whole file (run_meta 'tag.KEY').  The same key with another
 * value is an error naming both places (where: line or byte offset, unit
 * names it). */
int profdb__bench_tag(struct profdb__bench_out *o, const char *key, const char *value, int64_t where,
                      const char *unit);
/* Count a skipped row (reason, line or offset). */
int profdb__bench_skip(struct profdb__bench_out *o, const char *reason, int64_t where);

/* Parse a JSON/CSV number in a unit (scale_exp: 0 ns, 3 us, 6 ms, 9 s)
 * exactly into ns: 0 ok, -1 not a number, -2 negative. */
int profdb__bench_parse_ns(const char *s, size_t n, int scale_exp, int64_t *out);

/* ------------------------------------------------ JSON in place (json_scan) */

/* The value of member key of object obj: 1 found (the last of that key),
 * 0 absent or obj not an object, -1 obj malformed; *bad (may be NULL) gets
 * the byte where the walk failed. */
int profdb__bench_jget(const struct profdb__jval *obj, const char *key, struct profdb__jval *out,
                       const char **bad);
/* Is p[0, n) exactly one well-formed JSON object (white space around it
 * allowed)?  -1 yes, else the byte offset in p where it goes wrong. */
long profdb__bench_jobject_bad(const char *p, size_t n);
/* Check that buf[0, len) is one JSON object and nothing else, with the
 * streaming scanner's messages (byte offset, "truncated JSON: ...").
 * PROFDB_OK or PROFDB_EFORMAT on o->ctx->err. */
int profdb__bench_jcheck_file(struct profdb__bench_out *o, const char *buf, size_t len);
/* A JSON result file's checks and its "benchmarks" array, as pytest-benchmark
 * and Google Benchmark both write it: *top the document, *list the array.
 * PROFDB_OK or PROFDB_EFORMAT on o->ctx->err. */
int profdb__bench_jlist(struct profdb__bench_out *o, const char *buf, size_t len,
                        struct profdb__jval *top, struct profdb__jval *list);
/* Call fn on each element of list (from profdb__bench_jlist); stops at the
 * first error; a malformed array is PROFDB_EFORMAT naming its byte. */
int profdb__bench_jeach(struct profdb__bench_out *o, const char *buf, const struct profdb__jval *list,
                        int (*fn)(void *arg, const struct profdb__jval *b), void *arg);
/* A malloc'd copy of a string value (decoded) or of a number/true/false
 * token as written; NULL for other types or out of memory (*oom set). */
char *profdb__bench_jtext(const struct profdb__jval *v, int *oom);
/* A number value as a finite double: 0 ok, -1 not a finite number. */
int profdb__bench_jdouble(const struct profdb__jval *v, double *out);

#endif

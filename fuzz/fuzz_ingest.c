/*
 * fuzz_ingest.c - fuzz the whole ingest of one file into an in-memory
 * database: detection, whichever reader takes it, the store and its
 * derivations at commit, then the queries and every output format over
 * what was stored.  One database serves the whole process (each input
 * replaces run "fuzz"): opening :memory: applies the schema, which costs
 * more than most inputs.  FUZZ_FRESH_DB=1 opens one per input instead, for
 * reproducing a crash that might depend on an earlier input.
 */
#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"

static FILE *devnull; /* output formats write here */
static profdb *shared; /* the process's database, unless FUZZ_FRESH_DB */

/* Run a query and render its rows in every format. */
static void render(profdb *db, int rc, profdb_result *r)
{
	fuzz_check_error(rc, profdb_errmsg(db));
	for (int f = PROFDB_FMT_TABLE; r && f <= PROFDB_FMT_MD; f++) {
		struct profdb_format_opts o = PROFDB_FORMAT_OPTS_INIT;
		o.format = (enum profdb_format)f;
		o.width = 80;
		profdb_result_write(r, devnull, &o);
	}
	profdb_result_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct profdb_ingest_opts io = PROFDB_INGEST_OPTS_INIT;
	struct profdb_filter f;
	profdb *db = NULL;
	profdb_result *r = NULL;
	const char *path;
	int rc;

	const char *fresh = getenv("FUZZ_FRESH_DB");

	if (!devnull && !(devnull = fopen("/dev/null", "w")))
		abort();
	path = fuzz_write_input("input", data, size);
	db = shared;
	if (!db && profdb_open(&db, ":memory:", 0) != PROFDB_OK) {
		fprintf(stderr, "fuzz: cannot open :memory: (%s)\n", profdb_errmsg(db));
		abort();
	}
	io.run = "fuzz";
	io.replace = 1;
	io.jobs = 1;
	rc = profdb_ingest(db, NULL, path, &io);
	fuzz_check_error(rc, profdb_errmsg(db));
	if (rc == PROFDB_OK) {
		profdb_filter_init(&f);
		rc = profdb_query_runs(db, &r, NULL);
		render(db, rc, r);
		rc = profdb_query_sources(db, &r, "fuzz");
		render(db, rc, r);
		rc = profdb_query_summary(db, &r, &f);
		render(db, rc, r);
	}
	if (fresh && *fresh == '1')
		profdb_close(db);
	else
		shared = db;
	return 0;
}

/*
 * cmd_ingest.c - profdb ingest: read each PATH into the database as one run
 * and print what was read, stored and skipped.
 */
#include <stdio.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database file (default $PROFDB_DB, else ./profdb.db)" },
	{ "run", 1, OPT_RUN, "NAME", "run name (default: the PATH's base name; one PATH only)" },
	{ "repeats", 1, OPT_REPEATS, "N", "repeat count (default: number of steps, else 1)" },
	{ "replace", 0, OPT_REPLACE, "", "replace a run of the same name" },
	{ "jobs", 1, 'j', "N", "parallel workers (default: number of cores)" },
	{ "quiet", 0, 'q', "", "print nothing on success" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Read everything profdb understands under each PATH as one run: a folder at any\n"
	"depth above *_ascend_pt folders, one *_ascend_pt folder, a kernel_details.csv, a\n"
	"Kineto trace (.json or .json.gz) or a folder of rank traces.  Each ingest is one\n"
	"transaction: on error the database is left exactly as it was.";

/* The progress bar: only on a terminal, only after the first second. */
struct bar {
	struct timespec start;     /* when the ingest began */
	int shown;                 /* a bar is on screen */
};

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	struct bar *b = arg;
	double t = seconds_since(&b->start), mbs, eta;
	int width = 30, filled;
	char line[40];
	if (t < 1.0 || total == 0)
		return;
	if (done > total)
		done = total;
	mbs = (double)done / 1e6 / t;
	eta = done ? t * (double)(total - done) / (double)done : 0;
	filled = (int)((double)width * (double)done / (double)total);
	memset(line, '#', (size_t)filled);
	memset(line + filled, '.', (size_t)(width - filled));
	line[width] = '\0';
	fprintf(stderr, "\r[%s] %6.1f/%.1f MB %7.1f MB/s ETA %4.0fs ", line, (double)done / 1e6,
	        (double)total / 1e6, mbs, eta);
	b->shown = 1;
}

/* Print the per-file summary of a run that was just stored. */
static void print_summary(profdb *db, const char *run, int64_t id)
{
	profdb_result *src = NULL, *sum = NULL;
	struct profdb_filter f;
	const char *runs[1] = { run };

	if (profdb_query_sources(db, &src, run) != PROFDB_OK)
		return;
	printf("ingested run '%s' (id %lld)\n", run, (long long)id);
	for (size_t i = 0; i < profdb_result_nrows(src); i++) {
		const char *why = profdb_result_text(src, i, 6);
		const char *dup = profdb_result_text(src, i, 7);
		printf("  %s [%s", profdb_result_text(src, i, 0), profdb_result_text(src, i, 1));
		if (!profdb_result_isnull(src, i, 2))
			printf(", rank %lld", (long long)profdb_result_int(src, i, 2));
		printf("]: %lld read, %lld stored, %lld skipped\n",
		       (long long)profdb_result_int(src, i, 3), (long long)profdb_result_int(src, i, 4),
		       (long long)profdb_result_int(src, i, 5));
		if (why)
			printf("    skipped: %s\n", why);
		if (dup)
			printf("    note: the same file content is already stored in run(s) %s\n", dup);
	}
	for (size_t i = 0; i < profdb_result_nnotes(src); i++)
		printf("  note: %s\n", profdb_result_note(src, i));
	profdb_filter_init(&f);
	f.runs = runs;
	f.nruns = 1;
	if (profdb_query_summary(db, &sum, &f) == PROFDB_OK && profdb_result_nrows(sum) == 1) {
		printf("  ");
		for (size_t c = 1; c < profdb_result_ncols(sum); c++) {
			const char *name = profdb_result_colname(sum, c), *sep = c > 1 ? ", " : "";
			if (profdb_result_isnull(sum, 0, c))
				printf("%s%s=NULL", sep, name);
			else if (profdb_result_coltype(sum, c) == PROFDB_COL_NS)
				/* exact: ns are integers, so three decimals say it all */
				printf("%s%s_us=%.3f", sep, name, (double)profdb_result_int(sum, 0, c) / 1000.0);
			else
				printf("%s%s=%s", sep, name, profdb_result_text(sum, 0, c));
		}
		printf("\n");
	}
	profdb_result_free(sum);
	profdb_result_free(src);
}

int cmd_ingest(int argc, char **argv)
{
	struct profdb_ingest_opts io = { 0 };
	const char *dbpath = cli_default_db(), *arg;
	int quiet = 0, key, first = 1, status = PROFDB_EXIT_OK, existed, stored = 0;
	struct stat sb;
	profdb *db;
	int64_t n;

	while ((key = cli_next(argc, argv, opts, &arg, &first)) != -1) {
		switch (key) {
		case 'h':
			cli_help(stdout, "ingest", "[OPTIONS] PATH...", desc, opts);
			return PROFDB_EXIT_OK;
		case OPT_DB: dbpath = arg; break;
		case OPT_RUN: io.run = arg; break;
		case OPT_REPLACE: io.replace = 1; break;
		case 'q': quiet = 1; break;
		case OPT_REPEATS:
			if (cli_parse_i64("ingest", "--repeats", arg, &n) != 0)
				return PROFDB_EXIT_USAGE;
			if (n <= 0)
				return cli_usage_error("ingest", "--repeats must be positive");
			io.repeats = n;
			break;
		case 'j':
			if (cli_parse_i64("ingest", "--jobs", arg, &n) != 0)
				return PROFDB_EXIT_USAGE;
			if (n <= 0 || n > 256)
				return cli_usage_error("ingest", "--jobs must be between 1 and 256");
			io.jobs = (int)n;
			break;
		default:
			return cli_usage_error("ingest", "bad option");
		}
	}
	if (first >= argc)
		return cli_usage_error("ingest", "no PATH given");
	if (io.run && argc - first > 1)
		return cli_usage_error("ingest", "--run names one run: give one PATH, or ingest each separately");
	/* a database this command creates and then stores nothing in is
	 * removed again: a failed first ingest leaves no empty file behind */
	existed = stat(dbpath, &sb) == 0;
	db = cli_open_db(dbpath, 0);
	if (!db) {
		/* an empty file that the failed open left (never one with data) */
		if (!existed && stat(dbpath, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_size == 0)
			unlink(dbpath);
		return PROFDB_EXIT_ERROR;
	}
	for (int i = first; i < argc; i++) {
		int64_t id = 0;
		char name[1024];
		struct bar bar = { 0 };
		int rc;
		if (!quiet && isatty(STDERR_FILENO)) {
			clock_gettime(CLOCK_MONOTONIC, &bar.start);
			io.progress = show_progress;
			io.progress_arg = &bar;
		}
		rc = profdb_ingest(db, &id, argv[i], &io);
		if (bar.shown)
			fputs("\r\033[K", stderr);
		if (rc != PROFDB_OK) {
			status = cli_lib_error(db, rc);
			break;
		}
		stored++;
		if (!quiet) {
			profdb_result *r = NULL;
			/* the run name the library chose is the one with this id */
			snprintf(name, sizeof name, "%s", io.run ? io.run : "");
			if (!io.run && profdb_query_runs(db, &r) == PROFDB_OK) {
				for (size_t j = 0; j < profdb_result_nrows(r); j++)
					if (profdb_result_int(r, j, 0) == id)
						snprintf(name, sizeof name, "%s", profdb_result_text(r, j, 1));
				profdb_result_free(r);
			}
			print_summary(db, name, id);
		}
	}
	if (!existed && stored == 0) {
		/* only if still empty: a concurrent ingest may have stored a run */
		profdb_result *runs = NULL;
		existed = profdb_query_runs(db, &runs) != PROFDB_OK || profdb_result_nrows(runs) > 0;
		profdb_result_free(runs);
	}
	profdb_close(db);
	if (!existed && stored == 0)
		unlink(dbpath);
	return status;
}

/*
 * cmd_ingest.c - profdb ingest: read each PATH into the database as one run
 * and print what was read, stored and skipped.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"

enum { OPT_SPLIT = OPT_FIRST_FREE };

static const struct cli_opt opts[] = {
	{ "db", 1, OPT_DB, "FILE", "database file (default $PROFDB_DB, else ./profdb.db)" },
	{ "run", 1, OPT_RUN, "NAME", "run name (default: the PATH's base name; one PATH only)" },
	{ "repeats", 1, OPT_REPEATS, "N", "repeat count (default: number of steps, else 1)" },
	{ "replace", 0, OPT_REPLACE, "", "replace a run of the same name" },
	{ "split", 0, OPT_SPLIT, "", "one run per profiling session (folder), named after it; --run: a prefix" },
	{ "tag", 1, OPT_TAG, "KEY=VALUE", "tag the new run (repeatable): backend=npu, api=torch.matmul" },
	{ "jobs", 1, 'j', "N", "parallel workers (default: number of cores)" },
	{ "quiet", 0, 'q', "", "print nothing on success" },
	{ "help", 0, 'h', "", "show this help" },
	{ NULL, 0, 0, NULL, NULL }
};

static const char desc[] =
	"Read everything profdb understands under each PATH as one run: a folder at any\n"
	"depth above *_ascend_pt folders, one *_ascend_pt folder, a kernel_details.csv, a\n"
	"Kineto trace (.json or .json.gz) or a folder of rank traces; or benchmark results\n"
	"(pytest-benchmark JSON, Google Benchmark JSON, the wall-clock CSV or JSON lines:\n"
	"doc/benchmarks.md).  Each ingest is one transaction: on error the\n"
	"database is left exactly as it was.  Two sources for one rank (two profiling\n"
	"sessions) are refused; --split makes one run of each.";

/* The progress bar: only on a terminal, only after the first second. */
struct bar {
	struct timespec start;     /* when the ingest began */
	double delay;              /* seconds before the first bar or phase line */
	int shown;                 /* a bar is on screen */
};

/* The bar's delay: 1 s, or PROFDB_PROGRESS_DELAY_MS (a test hook: the
 * tests show the bar and phases of a small input at once). */
static double progress_delay(void)
{
	const char *s = getenv("PROFDB_PROGRESS_DELAY_MS");
	char *end;
	long ms;
	if (!s || !*s)
		return 1.0;
	ms = strtol(s, &end, 10);
	return *end || ms < 0 ? 1.0 : (double)ms / 1000.0;
}

static double seconds_since(const struct timespec *t0)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	return (double)(now.tv_sec - t0->tv_sec) + (double)(now.tv_nsec - t0->tv_nsec) / 1e9;
}

/* A bar or phase line is on stderr: the interrupt handler clears it. */
static volatile sig_atomic_t line_on_screen;

/*
 * Ctrl-C: the ingest in progress is one open transaction, so leaving now
 * stores nothing of it (SQLite rolls it back on the next open, as after a
 * crash); runs of earlier PATHs were committed and stay.  One line, the
 * progress line cleared, and 130 as shells report a SIGINT death.  Only
 * async-signal-safe calls here.
 */
static void on_interrupt(int sig)
{
	static const char msg[] = "\r\033[Kprofdb: ingest interrupted: the run it was reading was not "
	                          "stored (runs already ingested stay)\n";
	size_t skip = line_on_screen ? 0 : 4; /* "\r\033[K" only over a bar */
	(void)sig;
	if (write(STDERR_FILENO, msg + skip, sizeof msg - 1 - skip) < 0) {
		/* nothing more can be said */
	}
	_exit(130);
}

/* What the ingest does after reading (profdb_ingest_opts.phase), in place
 * of a bar that would sit at 100% meanwhile. */
static void show_phase(void *arg, const char *what)
{
	struct bar *b = arg;
	if (seconds_since(&b->start) < b->delay)
		return;
	fprintf(stderr, "\r\033[K%s ...", what);
	b->shown = 1;
	line_on_screen = 1;
}

static void show_progress(void *arg, uint64_t done, uint64_t total)
{
	struct bar *b = arg;
	double t = seconds_since(&b->start), mbs, eta;
	int width = 30, filled;
	char line[40];
	if (t < b->delay || total == 0)
		return;
	if (done > total)
		done = total;
	mbs = t > 0 ? (double)done / 1e6 / t : 0;
	eta = done ? t * (double)(total - done) / (double)done : 0;
	filled = (int)((double)width * (double)done / (double)total);
	memset(line, '#', (size_t)filled);
	memset(line + filled, '.', (size_t)(width - filled));
	line[width] = '\0';
	fprintf(stderr, "\r[%s] %6.1f/%.1f MB %7.1f MB/s ETA %4.0fs ", line, (double)done / 1e6,
	        (double)total / 1e6, mbs, eta);
	b->shown = 1;
	line_on_screen = 1;
}

/* What the rows of a file that are neither kernels, ops, launches nor
 * skipped are, by its role (doc/commands.md "Ingest"). */
static const char *rest_label(const char *role)
{
	if (strcmp(role, "kineto_trace") == 0 || strcmp(role, "trace_view") == 0)
		return "other events (metadata, flows, annotations, counters, instants: not rows)";
	if (strcmp(role, "step_trace_time") == 0 || strcmp(role, "op_statistic") == 0)
		return "summary rows (kept whole for verify)";
	if (strcmp(role, "communication") == 0)
		return "communication ops (table comm_op)";
	if (strcmp(role, "communication_matrix") == 0)
		return "communication links (table comm_link)";
	return "other rows (not kernels or ops)";
}

/*
 * One line per source file whose rows add up: read = kernels + ops +
 * launches + the rest + skipped.  Files where nothing is a row
 * (profiler_info*.json, profiler_metadata.json) get no line.
 */
static void print_source(const profdb_result *src, size_t i, int bench)
{
	const char *why = profdb_result_text(src, i, 6), *dup = profdb_result_text(src, i, 7);
	const char *role = profdb_result_text(src, i, 1);
	int64_t read = profdb_result_int(src, i, 3), skipped = profdb_result_int(src, i, 5);
	int64_t part[5] = { profdb_result_int(src, i, 8), profdb_result_int(src, i, 9),
	                    profdb_result_int(src, i, 10), profdb_result_int(src, i, 11),
	                    profdb_result_int(src, i, 12) };
	static const char *const what[5] = { "kernels", "ops",
	                                     "runtime calls (kept as launches; ops lists them as rows too)",
	                                     "memory events (table memory)",
	                                     "operator memory blocks (table op_memory)" };
	int64_t rest = read - part[0] - part[1] - part[2] - part[3] - part[4] - skipped;
	/* a benchmark file's rows are timed repeats, stored as kernel rows */
	const char *first = bench ? "repeats" : what[0];

	if (read == 0 && skipped == 0 && profdb_result_int(src, i, 4) == 0 && !dup)
		return;
	fputs("  ", stdout);
	profdb_text_write(stdout, profdb_result_text(src, i, 0));
	printf(" [%s", role);
	if (!profdb_result_isnull(src, i, 2))
		printf(", rank %lld", (long long)profdb_result_int(src, i, 2));
	printf("]: %lld read =", (long long)read);
	for (int k = 0; k < 5; k++)
		if (part[k])
			printf(" %lld %s +", (long long)part[k], k ? what[k] : first);
	if (rest > 0)
		printf(" %lld %s +", (long long)rest, rest_label(role));
	printf(" %lld skipped\n", (long long)skipped);
	if (why)
		cli_visible(stdout, "    skipped: %s", why);
	if (dup)
		cli_visible(stdout, "    note: the same file content is already stored in run(s) %s", dup);
}

/* The message of note i without its "FILE: " head, where FILE is one of
 * the run's source files; else the whole note. */
static const char *note_message(const profdb_result *src, size_t i)
{
	const char *note = profdb_result_note(src, i);
	for (size_t r = 0; r < profdb_result_nrows(src); r++) {
		const char *path = profdb_result_text(src, r, 0);
		size_t n = path ? strlen(path) : 0;
		if (n && strncmp(note, path, n) == 0 && note[n] == ':' && note[n + 1] == ' ')
			return note + n + 2;
	}
	return note;
}

/*
 * The run's notes, each message once: the same message of several files
 * (8 ranks whose External ids are correlation ids) is one line with the
 * files' count and the first of them, not 8 lines that hide the others.
 */
static void print_notes(const profdb_result *src)
{
	size_t n = profdb_result_nnotes(src);
	for (size_t i = 0; i < n; i++) {
		const char *msg = note_message(src, i);
		size_t same = 0, seen = 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(note_message(src, j), msg) == 0;
		if (seen)
			continue;
		for (size_t j = i + 1; j < n; j++)
			same += strcmp(note_message(src, j), msg) == 0;
		if (same == 0)
			cli_visible(stdout, "  note: %s", profdb_result_note(src, i));
		else if (msg == profdb_result_note(src, i))
			cli_visible(stdout, "  note: %s (%zu times)", msg, same + 1);
		else
			cli_visible(stdout, "  note: %zu files (%.*s and %zu more): %s", same + 1,
			       (int)(msg - 2 - profdb_result_note(src, i)), profdb_result_note(src, i), same, msg);
	}
}

/* The APIs of a benchmark file's run (f its one run), and its timed
 * repeats in *repeats; 0 APIs for a profiler run (profdb_query_apis:
 * its one row is of source profiler). */
static size_t bench_apis(profdb *db, const struct profdb_filter *f, int64_t *repeats)
{
	profdb_result *apis = NULL;
	size_t n = 0;
	*repeats = 0;
	if (profdb_query_apis(db, &apis, f) == PROFDB_OK)
		for (size_t i = 0; i < profdb_result_nrows(apis); i++) {
			const char *source = profdb_result_text(apis, i, 3);
			if (source && strcmp(source, "profiler") == 0)
				continue;
			n++;
			if (strcmp(source, "wallclock") == 0)
				*repeats += profdb_result_int(apis, i, 4);
		}
	profdb_result_free(apis);
	return n;
}

/* A benchmark run's figures in its own words: APIs, timed repeats and
 * their elapsed time (kernels and device time would name the repeats as
 * what they are stored as). */
static void print_bench_figures(const profdb_result *sum, size_t napis, int64_t repeats)
{
	for (size_t c = 0; c < profdb_result_ncols(sum); c++)
		if (strcmp(profdb_result_colname(sum, c), "elapsed") == 0)
			printf("  apis=%zu, repeats=%lld, elapsed_us=%.3f\n", napis, (long long)repeats,
			       (double)profdb_result_int(sum, 0, c) / 1000.0);
}

/* A profiler run's figures: summary's columns as key=value. */
static void print_run_figures(const profdb_result *sum)
{
	printf("  ");
	for (size_t c = 1; c < profdb_result_ncols(sum); c++) {
		const char *name = profdb_result_colname(sum, c), *sep = c > 1 ? ", " : "";
		/* unknown (total_cpu of a run without host ops) is empty */
		if (profdb_result_isnull(sum, 0, c))
			printf("%s%s%s=", sep, name, profdb_result_coltype(sum, c) == PROFDB_COL_NS ? "_us" : "");
		else if (profdb_result_coltype(sum, c) == PROFDB_COL_NS)
			/* exact: ns are integers, so three decimals say it all */
			printf("%s%s_us=%.3f", sep, name, (double)profdb_result_int(sum, 0, c) / 1000.0);
		else
			printf("%s%s=%s", sep, name, profdb_result_text(sum, 0, c));
	}
	printf("\n");
}

/* Print the per-file summary of a run that was just stored. */
static void print_summary(profdb *db, const char *run, int64_t id)
{
	profdb_result *src = NULL, *sum = NULL;
	struct profdb_filter f = PROFDB_FILTER_INIT;
	const char *runs[1] = { run };
	int64_t repeats;
	size_t napis;

	f.runs = runs;
	f.nruns = 1;
	if (profdb_query_sources(db, &src, run) != PROFDB_OK)
		return;
	napis = bench_apis(db, &f, &repeats);
	cli_visible(stdout, "ingested run '%s' (id %lld)", run, (long long)id);
	for (size_t i = 0; i < profdb_result_nrows(src); i++)
		print_source(src, i, napis > 0);
	print_notes(src);
	if (profdb_query_summary(db, &sum, &f) == PROFDB_OK && profdb_result_nrows(sum) == 1) {
		if (napis)
			print_bench_figures(sum, napis, repeats);
		else
			print_run_figures(sum);
	}
	profdb_result_free(sum);
	profdb_result_free(src);
}

/* The runs one PATH made (several with --split), printed once all are in. */
struct made {
	int64_t id[256];
	char *name[256];
	size_t n;
	int lost;                  /* more than fit: summarised in one line */
};

static void run_done(void *arg, int64_t id, const char *name)
{
	struct made *m = arg;
	if (m->n == sizeof m->id / sizeof m->id[0]) {
		m->lost++;
		return;
	}
	m->id[m->n] = id;
	m->name[m->n] = strdup(name);
	if (m->name[m->n])
		m->n++;
	else
		m->lost++;
}

static void made_print_free(profdb *db, struct made *m, int print)
{
	for (size_t i = 0; i < m->n; i++) {
		if (print)
			print_summary(db, m->name[i], m->id[i]);
		free(m->name[i]);
	}
	if (print && m->lost)
		printf("(%d more runs: 'profdb runs' lists them)\n", m->lost);
	m->n = 0;
	m->lost = 0;
}

static const char *tags[64]; /* --tag values: argv's strings, for io->tags */

static int parse_opts(int argc, char **argv, struct profdb_ingest_opts *io, const char **dbpath,
                      int *quiet, int *first)
{
	size_t ntags = 0;
	const char *arg;
	int key;
	int64_t n;
	while ((key = cli_next(argc, argv, opts, &arg, first)) != -1) {
		switch (key) {
		case 'h':
			cli_help(stdout, "ingest", "[OPTIONS] PATH...", desc, opts);
			return PROFDB_EXIT_OK;
		case OPT_DB: *dbpath = arg; break;
		case OPT_RUN: io->run = arg; break;
		case OPT_REPLACE: io->replace = 1; break;
		case OPT_SPLIT: io->split = 1; break;
		case OPT_TAG:
			if (ntags == sizeof tags / sizeof tags[0])
				return cli_usage_error("ingest", "at most 64 --tag options");
			tags[ntags++] = arg;
			io->tags = tags;
			io->ntags = ntags;
			break;
		case 'q': *quiet = 1; break;
		case OPT_REPEATS:
			if (cli_parse_i64("ingest", "--repeats", arg, &n) != 0)
				return PROFDB_EXIT_USAGE;
			if (n <= 0)
				return cli_usage_error("ingest", "--repeats must be positive");
			io->repeats = n;
			break;
		case 'j':
			if (cli_parse_i64("ingest", "--jobs", arg, &n) != 0)
				return PROFDB_EXIT_USAGE;
			if (n <= 0 || n > 256)
				return cli_usage_error("ingest", "--jobs must be between 1 and 256");
			io->jobs = (int)n;
			break;
		default:
			return PROFDB_EXIT_USAGE; /* cli_next said why */
		}
	}
	if (*first >= argc)
		return cli_usage_error("ingest", "no PATH given");
	if (io->run && argc - *first > 1)
		return cli_usage_error("ingest", "--run names one run: give one PATH, or ingest each separately");
	return -1;
}

int cmd_ingest(int argc, char **argv)
{
	struct profdb_ingest_opts io = PROFDB_INGEST_OPTS_INIT;
	const char *dbpath = cli_default_db();
	int quiet = 0, first = 1, status = PROFDB_EXIT_OK, rc, existed, stored = 0;
	struct stat sb;
	static struct made made; /* 4 KB of ids and names: not on the stack */
	profdb *db;

	if ((rc = parse_opts(argc, argv, &io, &dbpath, &quiet, &first)) >= 0)
		return rc;
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
	io.run_done = run_done;
	io.run_done_arg = &made;
	signal(SIGINT, on_interrupt);
	for (int i = first; i < argc; i++) {
		struct bar bar = { 0 };
		if (!quiet && isatty(STDERR_FILENO)) {
			clock_gettime(CLOCK_MONOTONIC, &bar.start);
			bar.delay = progress_delay();
			io.progress = show_progress;
			io.phase = show_phase;
			io.progress_arg = &bar;
		}
		rc = profdb_ingest(db, NULL, argv[i], &io);
		if (bar.shown)
			fputs("\r\033[K", stderr);
		line_on_screen = 0;
		/* runs --split made before a failure were deleted again: print none */
		made_print_free(db, &made, rc == PROFDB_OK && !quiet);
		if (rc != PROFDB_OK) {
			status = cli_lib_error(db, rc);
			break;
		}
		stored++;
	}
	if (!existed && stored == 0) {
		/* only if still empty: a concurrent ingest may have stored a run */
		profdb_result *runs = NULL;
		existed = profdb_query_runs(db, &runs, NULL) != PROFDB_OK || profdb_result_nrows(runs) > 0;
		profdb_result_free(runs);
	}
	profdb_close(db);
	if (!existed && stored == 0)
		unlink(dbpath);
	return status;
}

/*
 * ingest.c - the ingest driver: find what PATH holds (ingest_walk.c), apply
 * the session rules (ingest_session.c), hand each unit to the reader for
 * its format (on the threads ingest_threads.c picks), all of one run into
 * one store transaction; with --split one run per session.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "ingest_impl.h"
#include "bench.h"
#include "store/tags.h"
#include "banned.h"

/*
 * The default run name: PATH's base name, without the format's extensions
 * when PATH is a file ("rank-34.Jul_15.pt.trace.json.gz" is run
 * "rank-34.Jul_15", "base.json.gz" is "base"): the extension says how the
 * file was stored, not which run it is.  A folder keeps its whole name.
 */
static void base_of(const char *path, int is_file, char *out, size_t cap)
{
	static const char *const exts[] = { ".pt.trace.json.gz", ".pt.trace.json", ".json.gz",
	                                    ".jsonl", ".json", ".csv", ".db", ".gz", NULL };
	size_t n = strlen(path), len;
	const char *s;
	while (n > 1 && path[n - 1] == '/')
		n--;
	s = path + n;
	while (s > path && s[-1] != '/')
		s--;
	len = (size_t)(path + n - s);
	for (size_t i = 0; is_file && exts[i]; i++) {
		size_t e = strlen(exts[i]);
		if (len > e && strncmp(s + len - e, exts[i], e) == 0) {
			len -= e;
			break;
		}
	}
	snprintf(out, cap, "%.*s", (int)len, s);
}

/* One run of an ingest: the units to read, the notes that go with them. */
struct run_part {
	struct profdb__work *items;        /* borrowed from the walk */
	size_t n;
	char **notes;              /* borrowed */
	size_t nnotes;
};

/*
 * Read part into a new run named run, in one transaction.  *conflict is
 * set when two of its sources hold the same rank (nothing is stored then).
 */
static int ingest_part(profdb *db, const struct run_part *part, const char *run, const char *path,
                       const struct profdb_ingest_opts *opts, int64_t *out_id, int *conflict,
                       struct profdb_err *err)
{
	struct profdb__walk view = { .items = part->items, .n = part->n, .err = err };
	struct profdb_store *st = NULL;
	struct profdb_sink *sink;
	struct profdb__progress prog = { 0 };
	const char *format = NULL;
	int rc, jobs;

	*conflict = 0;
	/* diff and report take runs as a list split at ',': such a name could
	 * be stored but never named there */
	if (strchr(run, ','))
		return profdb__err_set(err, PROFDB_EUSAGE, "run name '%s' holds a ',', which diff and report"
		                       " read as a list of runs: name it with --run NAME (no ',')", run);
	rc = profdb__store_begin(&st, db, run, path, opts ? opts->replace : 0);
	if (rc != PROFDB_OK)
		return profdb__err_set(err, rc, "%s", profdb_errmsg(db));
	sink = profdb__store_sink(st);
	if (opts)
		profdb__store_set_phase(st, opts->phase, opts->progress_arg);
	if (opts && opts->ntags && (rc = profdb__tags_insert(db, profdb__store_run_id(st), opts->tags,
	                                                     opts->ntags)) != PROFDB_OK)
		profdb__err_set(err, rc, "%s", profdb_errmsg(db));
	for (size_t i = 0; i < part->nnotes && rc == PROFDB_OK; i++)
		rc = profdb__sink_note(sink, part->notes[i]);
	prog.fn = opts ? opts->progress : NULL;
	prog.arg = opts ? opts->progress_arg : NULL;
	for (size_t i = 0; prog.fn && i < view.n; i++)
		prog.total += profdb__ingest_size_of(view.items[i].path);
	for (size_t i = 0; i < view.n; i++) {
		const char *f = view.items[i].reader->label;
		format = !format || strcmp(format, f) == 0 ? f : "mixed";
	}
	jobs = opts && opts->jobs > 0 ? opts->jobs : (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (rc == PROFDB_OK)
		rc = profdb__ingest_read_units(db, &view, st, jobs, &prog, err);
	if (rc == PROFDB_OK) {
		rc = profdb__ingest_check_ranks(db, profdb__store_run_id(st), err);
		*conflict = rc != PROFDB_OK && err->code == PROFDB_EFORMAT;
	}
	if (rc == PROFDB_OK)
		rc = profdb__ingest_note_empty_ranks(db, profdb__store_run_id(st), sink);
	if (rc != PROFDB_OK) {
		if (err->code == PROFDB_OK)
			*err = *sink->err;
		if (err->code == PROFDB_OK)
			profdb__err_set(err, rc, "%s: ingest failed", path);
		profdb__store_abort(st);
		return err->code;
	}
	profdb__store_set_format(st, format);
	*out_id = profdb__store_run_id(st);
	rc = profdb__store_commit(st, opts ? opts->repeats : 0);
	if (rc != PROFDB_OK)
		return profdb__err_set(err, rc, "%s", profdb_errmsg(db));
	if (opts && opts->run_done)
		opts->run_done(opts->run_done_arg, *out_id, run);
	return PROFDB_OK;
}

/* Does note (it starts with a path) concern the session of folder? */
static int note_of(const char *note, const char *folder, size_t len)
{
	return strncmp(note, folder, len) == 0 && (note[len] == '/' || note[len] == ':');
}

/* The notes of session g of the walk: those naming a path in its folder,
 * and for the first session those naming no session's folder. */
static void part_notes(const struct profdb__walk *w, const size_t *group, size_t g, struct run_part *part,
                       const char *root)
{
	part->nnotes = 0;
	for (size_t i = 0; i < w->nnotes; i++) {
		int owner = -1;
		for (size_t u = 0; u < w->n && owner < 0; u++) {
			size_t len = profdb__ingest_session_len(w->items[u].path, root);
			if (note_of(w->notes[i], w->items[u].path, len))
				owner = (int)group[u];
		}
		if (owner == (int)g || (owner < 0 && g == 0))
			part->notes[part->nnotes++] = w->notes[i];
	}
}

/* Remember a run made by --split (a copy of its name). */
static int remember(char **made, size_t *nmade, const char *name, struct profdb_err *err)
{
	if (!(made[*nmade] = strdup(name)))
		return profdb__err_set(err, PROFDB_ERROR, "out of memory");
	(*nmade)++;
	return PROFDB_OK;
}

/* A session that holds one rank twice (two captures side by side in one
 * folder) is split once more: one run per unit, named after it. */
static int ingest_units(profdb *db, struct run_part *part, const char *root,
                        const struct profdb_ingest_opts *opts, int64_t *out_run_id,
                        char **made, size_t *nmade, struct profdb_err *err)
{
	int rc = PROFDB_OK, conflict;
	for (size_t i = 0; i < part->n && rc == PROFDB_OK; i++) {
		struct run_part one = { .items = &part->items[i], .n = 1 };
		char *name = profdb__ingest_unit_name(part->items[i].path, root, opts->run);
		if (!name)
			return profdb__err_set(err, PROFDB_ERROR, "out of memory");
		rc = ingest_part(db, &one, name, root, opts, out_run_id, &conflict, err);
		if (rc == PROFDB_OK)
			rc = remember(made, nmade, name, err);
		free(name);
	}
	return rc;
}

/*
 * --split: one run per session.  Runs are committed one by one; on an
 * error those already made by this call are deleted again, so the
 * database ends as it began.
 */
static int ingest_split(profdb *db, struct profdb__walk *w, const char *root,
                        const struct profdb_ingest_opts *opts, int64_t *out_run_id,
                        struct profdb_err *err)
{
	size_t *group = NULL, ng = 0, nmade = 0;
	char **names = NULL, **made = NULL;
	struct run_part part = { 0 };
	int rc;

	if ((rc = profdb__ingest_sessions(w, root, opts->run, &group, &names, &ng)) != PROFDB_OK)
		return rc;
	part.items = malloc(w->n * sizeof *part.items);
	/* dedupe adds at most one note per unit */
	part.notes = malloc((w->nnotes + w->n + 1) * sizeof *part.notes);
	made = calloc(w->n + 1, sizeof *made);
	if (!part.items || !part.notes || !made)
		rc = profdb__err_set(err, PROFDB_ERROR, "out of memory");
	for (size_t g = 0; g < ng && rc == PROFDB_OK; g++) {
		size_t nbefore = w->nnotes;
		int conflict = 0;
		part.n = 0;
		for (size_t i = 0; i < w->n; i++)
			if (group[i] == g)
				part.items[part.n++] = w->items[i];
		if ((rc = profdb__ingest_dedupe(w, part.items, &part.n)) != PROFDB_OK)
			break;
		part_notes(w, group, g, &part, root);
		for (size_t i = nbefore; i < w->nnotes; i++)
			part.notes[part.nnotes++] = w->notes[i];
		rc = ingest_part(db, &part, names[g], root, opts, out_run_id, &conflict, err);
		if (rc == PROFDB_OK)
			rc = remember(made, &nmade, names[g], err);
		else if (conflict && part.n > 1) {
			*err = (struct profdb_err){ 0 };
			rc = ingest_units(db, &part, root, opts, out_run_id, made, &nmade, err);
		}
	}
	if (rc != PROFDB_OK)
		for (size_t i = 0; i < nmade; i++)
			profdb_run_delete(db, made[i]);
	for (size_t i = 0; i < nmade; i++)
		free(made[i]);
	for (size_t g = 0; g < ng; g++)
		free(names[g]);
	free(names);
	free(group);
	free(part.items);
	free(part.notes);
	free(made);
	return rc;
}

/*
 * A benchmark file is one run: its rows are repeats of APIs, timed on one
 * backend.  Read beside other files as ranks of one run it would mix
 * backends and number repeats across files, so a walk that finds one with
 * anything else is refused, naming the way out.
 */
static int bench_alone(const struct run_part *all, const char *path, struct profdb_err *err)
{
	size_t nb = 0, first = 0;
	if (all->n < 2)
		return PROFDB_OK;
	for (size_t i = 0; i < all->n; i++)
		if (profdb__reader_is_bench(all->items[i].reader) && !nb++)
			first = i;
	if (!nb)
		return PROFDB_OK;
	return profdb__err_set(err, PROFDB_EFORMAT, "%s: %zu benchmark file(s) among %zu files, first %s:"
	                       " a benchmark file is a run of its own, never a rank of one; ingest each"
	                       " file by itself, or pass --split for one run per file", path, nb, all->n,
	                       all->items[first].path);
}

int profdb_ingest(profdb *db, int64_t *out_run_id, const char *path,
                  const struct profdb_ingest_opts *opts)
{
	struct profdb__walk w = { 0 };
	struct profdb_err err = { 0 };
	const struct profdb_ingest_opts none = PROFDB_INGEST_OPTS_INIT;
	struct stat sb;
	char name[1024], root[4096];
	const char *run;
	int64_t id = 0;
	int rc, conflict = 0;

	if (out_run_id)
		*out_run_id = 0;
	opts = opts ? opts : &none;
	if ((rc = profdb__version_check(db, opts->version, PROFDB_INGEST_OPTS_VERSION, "profdb_ingest_opts")) != PROFDB_OK)
		return rc;
	base_of(path, stat(path, &sb) == 0 && S_ISREG(sb.st_mode), name, sizeof name);
	/* the root without trailing slashes: --split names runs relative to it */
	snprintf(root, sizeof root, "%s", path);
	for (size_t n = strlen(root); n > 1 && root[n - 1] == '/'; n--)
		root[n - 1] = '\0';
	run = opts->run ? opts->run : name;
	if (!*run)
		return profdb__error(db, PROFDB_EUSAGE, "empty run name");
	if ((rc = profdb__tags_check(db, opts->tags, opts->ntags)) != PROFDB_OK)
		return rc;
	if (stat(path, &sb) != 0)
		return profdb__error(db, PROFDB_ENOTFOUND, "cannot read '%s': %s", path, strerror(errno));
	if (profdb__walk_init(&w, &err) != PROFDB_OK) {
		profdb__walk_free(&w);
		return profdb__error(db, PROFDB_ERROR, "out of memory");
	}
	rc = profdb__walk_find(&w, root, &sb);
	if (rc == PROFDB_OK && w.n == 0)
		rc = profdb__err_set(&err, PROFDB_ENOTFOUND,
		    "%s: no profiler data found (no *_ascend_pt folder, kernel_details.csv or trace JSON)%s%s",
		    path, w.nnotes ? "; " : "", w.nnotes ? w.notes[0] : "");
	if (rc == PROFDB_OK && opts->split) {
		rc = ingest_split(db, &w, root, opts, &id, &err);
	} else if (rc == PROFDB_OK) {
		/* a copy: the walk keeps owning every unit, read or dropped */
		struct run_part all = { .items = malloc(w.n * sizeof *all.items), .n = w.n };
		if (!all.items)
			rc = profdb__err_set(&err, PROFDB_ERROR, "out of memory");
		else
			memcpy(all.items, w.items, w.n * sizeof *all.items);
		if (rc == PROFDB_OK)
			rc = profdb__ingest_dedupe(&w, all.items, &all.n);
		if (rc == PROFDB_OK)
			rc = bench_alone(&all, path, &err);
		all.notes = w.notes;
		all.nnotes = w.nnotes;
		if (rc == PROFDB_OK)
			rc = ingest_part(db, &all, run, path, opts, &id, &conflict, &err);
		free(all.items);
	}
	if (rc != PROFDB_OK)
		profdb__error(db, err.code ? err.code : rc, "%s", err.msg[0] ? err.msg : "ingest failed");
	else if (out_run_id)
		*out_run_id = id;
	profdb__walk_free(&w);
	return rc != PROFDB_OK && err.code ? err.code : rc;
}

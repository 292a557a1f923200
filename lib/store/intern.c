/*
 * intern.c - the str table seen through an in-memory hash map.
 *
 * Why a map in front of SQL: a name repeated a million times costs one hash
 * lookup, not one SELECT; only text new to this ingest reaches the table
 * (looked up first, since earlier runs may have stored it).  Keys are
 * owned copies: records only lend their strings.
 *
 * Why a map that may hold the whole table (profdb__intern_hold_all): then
 * a text it lacks is new without asking the table, so a parallel ingest's
 * store never waits for the insert thread to look one up.  A trace's
 * texts are nearly all met in its first file, where each such wait (for
 * the insert thread's current batch) was on the path before any op row
 * can go in.
 */
#include <stdlib.h>
#include <string.h>

#include "intern.h"
#include "banned.h"

/*
 * The map is a cache: past maxcached texts (intern_cached of struct
 * profdb_limits, 65 536 built in) or INTERN_CACHED_BYTES of
 * them it is emptied and refilled as texts come (those are found in the
 * table by its unique index, with the same ids).  A run of 1 M distinct
 * kernel names held 100 MB here; real traces have a few thousand names.
 */
#define INTERN_CACHED_BYTES ((size_t)16 << 20)

/* One interned string. */
struct intern_slot {
	char *key;                 /* owned, NULL = empty slot */
	size_t len;                /* strlen(key) */
	uint64_t hash;
	int64_t id;                /* str.id */
	int64_t base_id;           /* str.id of its base name, 0 = not computed */
};

struct profdb__intern {
	sqlite3 *db;
	sqlite3_stmt *get, *put;
	struct intern_slot *slots; /* open addressing, power-of-two size; owned */
	size_t nslots, nused;
	size_t keybytes;           /* bytes of the keys held */
	size_t maxcached;          /* texts held at most */
	struct profdb_err *err;
	char *cut;                 /* owned: the cut copy of the last text over the cap */
	int64_t ncut;              /* texts cut so far (each occurrence) */
	int (*sync)(void *arg);    /* before using db (intern.h); may be NULL */
	void *sync_arg;
	/* while the map holds every row of the table (profdb__intern_hold_all) */
	int whole;
	int64_t next_id;           /* the id the table gives the next text */
	int (*add)(void *arg, int64_t id, const char *s);
	void *add_arg;
};

/*
 * A text over PROFDB_TEXT_MAX bytes (a kernel name of 200 MB, a call stack
 * of megabytes) is stored as its first bytes, cut at a UTF-8 character
 * boundary, and PROFDB_TEXT_CUT_MARK, PROFDB_TEXT_MAX bytes in all: one
 * such name would otherwise be held in the map, the table, every index
 * and every query row.  Cutting keeps the row (skipping it would lose its
 * time); cut texts are counted for the run's note.
 */
static const char *capped(struct profdb__intern *t, const char *s, size_t *len)
{
	size_t keep = PROFDB_TEXT_MAX - (sizeof PROFDB_TEXT_CUT_MARK - 1);
	if ((*len = strnlen(s, PROFDB_TEXT_MAX + 1)) <= PROFDB_TEXT_MAX)
		return s;
	if (!t->cut && !(t->cut = malloc(PROFDB_TEXT_MAX + 1))) {
		profdb__err_set(t->err, PROFDB_ERROR, "out of memory");
		return NULL;
	}
	/* back to the first byte of a character (continuation bytes: 10xxxxxx) */
	while (keep > 0 && ((unsigned char)s[keep] & 0xC0) == 0x80)
		keep--;
	memcpy(t->cut, s, keep);
	memcpy(t->cut + keep, PROFDB_TEXT_CUT_MARK, sizeof PROFDB_TEXT_CUT_MARK);
	*len = keep + sizeof PROFDB_TEXT_CUT_MARK - 1;
	t->ncut++;
	return t->cut;
}

int64_t profdb__intern_cut(const struct profdb__intern *t)
{
	return t->ncut;
}

/*
 * Eight bytes a step: kernel names are long (C++ templates of 100-500
 * bytes) and every kernel, op and launch row hashes a few of them on the
 * writer thread, where a byte-at-a-time hash (FNV-1a) shows in an
 * ingest's profile.  Each word is mixed in by a multiply and a shift, the
 * last (partial) word zero-padded; the length is folded in first, so the
 * padding cannot make texts of different lengths alike.  A final
 * avalanche spreads the high bits into the low ones the map's index takes.
 */
static uint64_t hash_text(const char *s, size_t n)
{
	uint64_t h = 0x9E3779B97F4A7C15ull ^ n, w;
	for (; n >= 8; s += 8, n -= 8) {
		memcpy(&w, s, 8);
		h = (h ^ w) * 0xff51afd7ed558ccdull;
		h ^= h >> 32;
	}
	if (n) {
		w = 0;
		memcpy(&w, s, n);
		h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
	}
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdull;
	h ^= h >> 33;
	return h;
}

static int grow(struct profdb__intern *t)
{
	size_t n = t->nslots ? t->nslots * 2 : 4096;
	struct intern_slot *s = calloc(n, sizeof *s);
	if (!s)
		return profdb__err_set(t->err, PROFDB_ERROR, "out of memory");
	for (size_t i = 0; i < t->nslots; i++) {
		if (!t->slots[i].key)
			continue;
		size_t j = t->slots[i].hash & (n - 1);
		while (s[j].key)
			j = (j + 1) & (n - 1);
		s[j] = t->slots[i];
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return PROFDB_OK;
}

struct profdb__intern *profdb__intern_new(sqlite3 *db, size_t maxcached, struct profdb_err *err)
{
	struct profdb__intern *t = calloc(1, sizeof *t);
	if (!t) {
		profdb__err_set(err, PROFDB_ERROR, "out of memory");
		return NULL;
	}
	t->db = db;
	t->err = err;
	t->maxcached = maxcached;
	if (sqlite3_prepare_v3(db, "SELECT id FROM str WHERE value = ?1", -1, SQLITE_PREPARE_PERSISTENT,
	                       &t->get, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v3(db, "INSERT INTO str(value) VALUES (?1)", -1, SQLITE_PREPARE_PERSISTENT,
	                       &t->put, NULL) != SQLITE_OK) {
		profdb__err_set(err, PROFDB_ERROR, "storing text: %s", sqlite3_errmsg(db));
		profdb__intern_free(t);
		return NULL;
	}
	if (grow(t) != PROFDB_OK) {
		profdb__intern_free(t);
		return NULL;
	}
	return t;
}

void profdb__intern_set_sync(struct profdb__intern *t, int (*fn)(void *arg), void *arg)
{
	t->sync = fn;
	t->sync_arg = arg;
}

void profdb__intern_free(struct profdb__intern *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nslots; i++)
		free(t->slots[i].key);
	free(t->slots);
	free(t->cut);
	sqlite3_finalize(t->get);
	sqlite3_finalize(t->put);
	free(t);
}

static void empty(struct profdb__intern *t)
{
	t->whole = 0; /* what goes may be in the table: ask it from now on */
	for (size_t i = 0; i < t->nslots; i++)
		free(t->slots[i].key);
	memset(t->slots, 0, t->nslots * sizeof *t->slots);
	t->nused = 0;
	t->keybytes = 0;
}

/* The slot of s (hash h): the one holding it, else the empty one where it
 * would go.  The map is never full (grow keeps it at most half used). */
static size_t probe(const struct profdb__intern *t, const char *s, size_t len, uint64_t h)
{
	size_t j;
	for (j = h & (t->nslots - 1); t->slots[j].key; j = (j + 1) & (t->nslots - 1))
		if (t->slots[j].hash == h && t->slots[j].len == len && memcmp(t->slots[j].key, s, len) == 0)
			break;
	return j;
}

/* Slot j (empty, where probe put s) now holds s and its id. */
static struct intern_slot *fill(struct profdb__intern *t, size_t j, const char *s, size_t len, uint64_t h,
                                int64_t id)
{
	t->slots[j].key = malloc(len + 1);
	if (!t->slots[j].key) {
		profdb__err_set(t->err, PROFDB_ERROR, "out of memory");
		return NULL;
	}
	memcpy(t->slots[j].key, s, len + 1);
	t->keybytes += len + 1;
	t->slots[j].len = len;
	t->slots[j].hash = h;
	t->slots[j].id = id;
	t->slots[j].base_id = 0;
	t->nused++;
	return &t->slots[j];
}

/* s's id in the table, added when it is not there; 0 with err set. */
static int64_t from_table(struct profdb__intern *t, const char *s)
{
	int64_t id = 0;
	if (t->sync && t->sync(t->sync_arg) != 0)
		return 0;
	sqlite3_bind_text(t->get, 1, s, -1, SQLITE_STATIC);
	if (sqlite3_step(t->get) == SQLITE_ROW)
		id = sqlite3_column_int64(t->get, 0);
	sqlite3_reset(t->get);
	if (id)
		return id;
	sqlite3_bind_text(t->put, 1, s, -1, SQLITE_STATIC);
	if (sqlite3_step(t->put) != SQLITE_DONE) {
		sqlite3_reset(t->put);
		profdb__err_set(t->err, PROFDB_ERROR, "storing text: %s", sqlite3_errmsg(t->db));
		return 0;
	}
	sqlite3_reset(t->put);
	return sqlite3_last_insert_rowid(t->db);
}

static struct intern_slot *slot_of(struct profdb__intern *t, const char *s, size_t len)
{
	uint64_t h;
	size_t j;
	int64_t id;

	if (t->nused >= t->maxcached || t->keybytes >= INTERN_CACHED_BYTES)
		empty(t);
	if ((t->nused + 1) * 2 > t->nslots && grow(t) != PROFDB_OK)
		return NULL;
	h = hash_text(s, len);
	if (t->slots[j = probe(t, s, len, h)].key)
		return &t->slots[j];
	if (t->whole) { /* new: the id the INSERT would get, its row to add's care */
		if (t->add(t->add_arg, t->next_id, s) != 0)
			return NULL;
		id = t->next_id++;
	} else if ((id = from_table(t, s)) == 0) {
		return NULL;
	}
	return fill(t, j, s, len, h, id);
}

/* The table's rows into the map, while they fit in half of it (texts and
 * bytes): 1 when all did, 0 when not (those in stay, as cached), -1 on an
 * error (err set). */
static int load_all(struct profdb__intern *t)
{
	sqlite3_stmt *q = NULL;
	int rc = SQLITE_OK, all = 1, failed = 0;
	if (sqlite3_prepare_v2(t->db, "SELECT id, value FROM str", -1, &q, NULL) == SQLITE_OK)
		while ((rc = sqlite3_step(q)) == SQLITE_ROW) {
			const char *s = (const char *)sqlite3_column_text(q, 1);
			size_t len = (size_t)sqlite3_column_bytes(q, 1), j;
			uint64_t h;
			if (!s) /* no text looks it up */
				continue;
			if (t->keybytes + len + 1 > INTERN_CACHED_BYTES / 2 || t->nused + 1 > t->maxcached / 2) {
				all = 0;
				break;
			}
			if ((t->nused + 1) * 2 > t->nslots && grow(t) != PROFDB_OK) {
				failed = 1;
				break;
			}
			h = hash_text(s, len);
			if (!t->slots[j = probe(t, s, len, h)].key &&
			    !fill(t, j, s, len, h, sqlite3_column_int64(q, 0))) {
				failed = 1;
				break;
			}
		}
	else
		rc = SQLITE_ERROR;
	sqlite3_finalize(q);
	if (failed) /* out of memory: err set */
		return -1;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		profdb__err_set(t->err, PROFDB_ERROR, "reading texts: %s", sqlite3_errmsg(t->db));
		return -1;
	}
	return all;
}

int profdb__intern_hold_all(struct profdb__intern *t, int (*add)(void *arg, int64_t id, const char *s),
                            void *arg)
{
	sqlite3_stmt *q = NULL;
	int64_t last = 0;
	int all;
	/* ids are distinct and positive: the largest bounds the count */
	if (sqlite3_prepare_v2(t->db, "SELECT coalesce(max(id), 0) FROM str", -1, &q, NULL) != SQLITE_OK ||
	    sqlite3_step(q) != SQLITE_ROW) {
		sqlite3_finalize(q);
		return profdb__err_set(t->err, PROFDB_ERROR, "reading texts: %s", sqlite3_errmsg(t->db));
	}
	last = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	if (last > (int64_t)(t->maxcached / 2))
		return PROFDB_OK;
	if ((all = load_all(t)) < 0)
		return t->err->code;
	/* INTEGER PRIMARY KEY: an INSERT without an id gets the largest plus one */
	t->whole = all;
	t->next_id = last + 1;
	t->add = add;
	t->add_arg = arg;
	return PROFDB_OK;
}

int64_t profdb__intern(struct profdb__intern *t, const char *s)
{
	struct intern_slot *slot;
	size_t len;
	s = capped(t, s, &len);
	slot = s ? slot_of(t, s, len) : NULL;
	return slot ? slot->id : 0;
}

int64_t profdb__intern_cached(const struct profdb__intern *t, const char *s)
{
	size_t len = strlen(s), j;
	if (len > PROFDB_TEXT_MAX || !t->nslots)
		return 0;
	j = probe(t, s, len, hash_text(s, len));
	return t->slots[j].key ? t->slots[j].id : 0;
}

int profdb__intern_name(struct profdb__intern *t, const char *name, int64_t *id, int64_t *base)
{
	struct intern_slot *slot;
	char buf[4096];
	size_t len;
	/* the stored (cut) name and its base; interning the base (under 4 KiB)
	 * leaves t->cut alone */
	name = capped(t, name, &len);
	slot = name ? slot_of(t, name, len) : NULL;
	if (!slot)
		return -1;
	*id = slot->id;
	if (!slot->base_id) {
		profdb__base_name(name, buf, sizeof buf);
		int64_t b = strcmp(buf, name) == 0 ? slot->id : profdb__intern(t, buf);
		if (!b)
			return -1;
		/* interning the base may have grown or emptied the map: find
		 * the slot again (from the table when emptied) */
		slot = slot_of(t, name, len);
		if (!slot)
			return -1;
		slot->base_id = b;
	}
	*base = slot->base_id;
	return 0;
}

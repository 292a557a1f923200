/*
 * check_intern.c - the str table seen through intern.c's map, against a
 * bare in-memory table.  While the map holds the whole table
 * (profdb__intern_hold_all), a text it lacks gets the id SQLite itself
 * gives an INSERT without one (the largest plus one, read back here from
 * a second table filled by plain INSERTs), its row goes to the hook and
 * the connection is never asked; a table too big for half the map, or a
 * map emptied past its cap, asks the table again (the sync hook runs
 * first) and finds the texts the hook added.
 */
#include <check.h>
#include <stdio.h>
#include <string.h>

#include "internal.h"
#include "store/intern.h"
#include "testutil.h"

struct hooks {
	sqlite3 *db;
	int adds, syncs, fail;
	int64_t last_id;
	char last_text[64];
};

/* The store's hook, as it would run the deferred INSERT (at once here). */
static int add(void *arg, int64_t id, const char *s)
{
	struct hooks *h = arg;
	sqlite3_stmt *q;
	h->adds++;
	h->last_id = id;
	snprintf(h->last_text, sizeof h->last_text, "%s", s);
	if (h->fail)
		return -1;
	ck_assert_int_eq(sqlite3_prepare_v2(h->db, "INSERT INTO str(id, value) VALUES (?1, ?2)", -1, &q, NULL),
	                 SQLITE_OK);
	sqlite3_bind_int64(q, 1, id);
	sqlite3_bind_text(q, 2, s, -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
	return 0;
}

static int sync_hook(void *arg)
{
	((struct hooks *)arg)->syncs++;
	return 0;
}

/* str with rows (1 a) (2 b) (5 e), and twin: the same rows, where plain
 * INSERTs show which id SQLite gives each new text. */
static sqlite3 *open_str(void)
{
	sqlite3 *db = NULL;
	ck_assert_int_eq(sqlite3_open(":memory:", &db), SQLITE_OK);
	ck_assert_int_eq(sqlite3_exec(db, "CREATE TABLE str(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);"
	                              " CREATE TABLE twin(id INTEGER PRIMARY KEY, value TEXT NOT NULL UNIQUE);"
	                              " INSERT INTO str VALUES (1, 'a'), (2, 'b'), (5, 'e');"
	                              " INSERT INTO twin SELECT * FROM str;",
	                              NULL, NULL, NULL), SQLITE_OK);
	return db;
}

/* The id of s in table (str, or twin where it is added first by a plain
 * INSERT); -1 when none. */
static int64_t id_in(sqlite3 *db, const char *table, const char *s)
{
	sqlite3_stmt *q;
	char sql[96];
	int64_t id = -1;
	if (strcmp(table, "twin") == 0) {
		ck_assert_int_eq(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO twin(value) VALUES (?1)", -1, &q, NULL),
		                 SQLITE_OK);
		sqlite3_bind_text(q, 1, s, -1, SQLITE_STATIC);
		ck_assert_int_eq(sqlite3_step(q), SQLITE_DONE);
		sqlite3_finalize(q);
	}
	snprintf(sql, sizeof sql, "SELECT id FROM %s WHERE value = ?1", table);
	ck_assert_int_eq(sqlite3_prepare_v2(db, sql, -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_text(q, 1, s, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return id;
}

/* A map of maxcached texts over db's str, hooks h, hold_all asked. */
static struct profdb__intern *start(sqlite3 *db, size_t maxcached, struct hooks *h, struct profdb_err *err)
{
	struct profdb__intern *t = profdb__intern_new(db, maxcached, err);
	ck_assert_ptr_nonnull(t);
	profdb__intern_set_sync(t, sync_hook, h);
	ck_assert_int_eq(profdb__intern_hold_all(t, add, h), PROFDB_OK);
	return t;
}

START_TEST(whole_table_gives_new_ids_without_asking)
{
	sqlite3 *db = open_str();
	struct profdb_err err = { 0 };
	struct hooks h = { .db = db };
	struct profdb__intern *t = start(db, 64, &h, &err);
	/* held: found without the table or the hooks */
	ck_assert_int_eq(profdb__intern(t, "e"), 5);
	ck_assert_int_eq(profdb__intern(t, "b"), 2);
	ck_assert_int_eq(h.adds + h.syncs, 0);
	/* new: SQLite's own next id, each added once */
	ck_assert_int_eq(profdb__intern(t, "new1"), id_in(db, "twin", "new1"));
	ck_assert_int_eq(h.last_id, 6);
	ck_assert_str_eq(h.last_text, "new1");
	ck_assert_int_eq(profdb__intern(t, "new2"), id_in(db, "twin", "new2"));
	ck_assert_int_eq(profdb__intern(t, "new1"), 6);
	ck_assert_int_eq(h.adds, 2);
	ck_assert_int_eq(h.syncs, 0);
	/* a failing hook fails the interning */
	h.fail = 1;
	ck_assert_int_eq(profdb__intern(t, "new3"), 0);
	profdb__intern_free(t);
	sqlite3_close(db);
}
END_TEST

START_TEST(table_too_big_is_asked)
{
	sqlite3 *db = open_str();
	struct profdb_err err = { 0 };
	struct hooks h = { .db = db };
	/* largest id 5 > half of 8: not loaded */
	struct profdb__intern *t = start(db, 8, &h, &err);
	ck_assert_int_eq(profdb__intern(t, "e"), 5);
	ck_assert_int_eq(h.syncs, 1);
	ck_assert_int_eq(profdb__intern(t, "new1"), id_in(db, "twin", "new1"));
	ck_assert_int_eq(id_in(db, "str", "new1"), 6);
	ck_assert_int_eq(h.syncs, 2);
	ck_assert_int_eq(h.adds, 0);
	profdb__intern_free(t);
	sqlite3_close(db);
}
END_TEST

START_TEST(emptied_map_asks_the_table)
{
	sqlite3 *db = open_str();
	struct profdb_err err = { 0 };
	struct hooks h = { .db = db };
	const char *news[] = { "n1", "n2", "n3", "n4", "n5", "n6", "n7" };
	int64_t ids[7];
	/* largest id 5 <= half of 12: loaded, 3 texts held */
	struct profdb__intern *t = start(db, 12, &h, &err);
	for (int i = 0; i < 7; i++) {
		ids[i] = profdb__intern(t, news[i]);
		ck_assert_int_eq(ids[i], id_in(db, "twin", news[i]));
	}
	ck_assert_int_eq(h.adds, 7);
	ck_assert_int_eq(h.syncs, 0);
	/* 10 held: two more fill the map to its cap, the next empties it;
	 * then the table is asked, and holds what the hook added under the
	 * ids the map gave */
	ck_assert_int_eq(profdb__intern(t, "n8"), id_in(db, "twin", "n8"));
	ck_assert_int_eq(profdb__intern(t, "n9"), id_in(db, "twin", "n9"));
	ck_assert_int_eq(profdb__intern(t, "n10"), id_in(db, "twin", "n10"));
	ck_assert_int_gt(h.syncs, 0);
	ck_assert_int_eq(profdb__intern(t, "n1"), ids[0]);
	ck_assert_int_eq(profdb__intern(t, "n11"), id_in(db, "twin", "n11"));
	ck_assert_int_eq(id_in(db, "str", "n11"), id_in(db, "twin", "n11"));
	profdb__intern_free(t);
	sqlite3_close(db);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("intern");
	TCase *tc = tcase_create("whole");
	tcase_add_test(tc, whole_table_gives_new_ids_without_asking);
	tcase_add_test(tc, table_too_big_is_asked);
	tcase_add_test(tc, emptied_map_asks_the_table);
	suite_add_tcase(s, tc);
	return tu_run(s);
}

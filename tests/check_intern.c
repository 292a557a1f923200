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

static int64_t twin_id(sqlite3 *db, const char *s)
{
	sqlite3_stmt *q;
	int64_t id = -1;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "INSERT OR IGNORE INTO twin(value) VALUES (?1)", -1, &q, NULL),
	                 SQLITE_OK);
	sqlite3_bind_text(q, 1, s, -1, SQLITE_STATIC);
	ck_assert_int_eq(sqlite3_step(q), SQLITE_DONE);
	sqlite3_finalize(q);
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT id FROM twin WHERE value = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_text(q, 1, s, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return id;
}

static int64_t str_id(sqlite3 *db, const char *s)
{
	sqlite3_stmt *q;
	int64_t id = -1;
	ck_assert_int_eq(sqlite3_prepare_v2(db, "SELECT id FROM str WHERE value = ?1", -1, &q, NULL), SQLITE_OK);
	sqlite3_bind_text(q, 1, s, -1, SQLITE_STATIC);
	if (sqlite3_step(q) == SQLITE_ROW)
		id = sqlite3_column_int64(q, 0);
	sqlite3_finalize(q);
	return id;
}

START_TEST(whole_table_gives_new_ids_without_asking)
{
	sqlite3 *db = open_str();
	struct profdb_err err = { 0 };
	struct hooks h = { .db = db };
	struct profdb__intern *t = profdb__intern_new(db, 64, &err);
	ck_assert_ptr_nonnull(t);
	profdb__intern_set_sync(t, sync_hook, &h);
	ck_assert_int_eq(profdb__intern_hold_all(t, add, &h), PROFDB_OK);
	/* held: found without the table or the hooks */
	ck_assert_int_eq(profdb__intern(t, "e"), 5);
	ck_assert_int_eq(profdb__intern(t, "b"), 2);
	ck_assert_int_eq(h.adds + h.syncs, 0);
	/* new: SQLite's own next id, each added once */
	ck_assert_int_eq(profdb__intern(t, "new1"), twin_id(db, "new1"));
	ck_assert_int_eq(h.last_id, 6);
	ck_assert_str_eq(h.last_text, "new1");
	ck_assert_int_eq(profdb__intern(t, "new2"), twin_id(db, "new2"));
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
	struct profdb__intern *t = profdb__intern_new(db, 8, &err);
	ck_assert_ptr_nonnull(t);
	profdb__intern_set_sync(t, sync_hook, &h);
	ck_assert_int_eq(profdb__intern_hold_all(t, add, &h), PROFDB_OK);
	ck_assert_int_eq(profdb__intern(t, "e"), 5);
	ck_assert_int_eq(h.syncs, 1);
	ck_assert_int_eq(profdb__intern(t, "new1"), twin_id(db, "new1"));
	ck_assert_int_eq(str_id(db, "new1"), 6);
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
	struct profdb__intern *t = profdb__intern_new(db, 12, &err);
	ck_assert_ptr_nonnull(t);
	profdb__intern_set_sync(t, sync_hook, &h);
	ck_assert_int_eq(profdb__intern_hold_all(t, add, &h), PROFDB_OK);
	for (int i = 0; i < 7; i++) {
		ids[i] = profdb__intern(t, news[i]);
		ck_assert_int_eq(ids[i], twin_id(db, news[i]));
	}
	ck_assert_int_eq(h.adds, 7);
	ck_assert_int_eq(h.syncs, 0);
	/* 10 held: two more fill the map to its cap, the next empties it;
	 * then the table is asked, and holds what the hook added under the
	 * ids the map gave */
	ck_assert_int_eq(profdb__intern(t, "n8"), twin_id(db, "n8"));
	ck_assert_int_eq(profdb__intern(t, "n9"), twin_id(db, "n9"));
	ck_assert_int_eq(profdb__intern(t, "n10"), twin_id(db, "n10"));
	ck_assert_int_gt(h.syncs, 0);
	ck_assert_int_eq(profdb__intern(t, "n1"), ids[0]);
	ck_assert_int_eq(profdb__intern(t, "n11"), twin_id(db, "n11"));
	ck_assert_int_eq(str_id(db, "n11"), twin_id(db, "n11"));
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

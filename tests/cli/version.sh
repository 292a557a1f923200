# profdb --version names the project's version (meson.build, passed by the
# test runner) and the schema version a new database gets: the highest
# "PRAGMA user_version = N" of schemas/*.sql, read here from the files.
want=$(sed -n 's/^PRAGMA user_version *= *\([0-9]*\);.*/\1/p' "$HERE"/../../schemas/*.sql | sort -n | tail -1)
got=$($PROFDB --version)
[ "$got" = "profdb ${PROFDB_PROJECT_VERSION:?} (schema $want)" ] || echo "got '$got', want version ${PROFDB_PROJECT_VERSION} schema $want"
# and a new database is at that version
$PROFDB ingest -q --db v.db --run r "$PROFDB_TESTDATA/kineto/nested.json" || echo "ingest failed"
[ "$(sqlite3 v.db 'PRAGMA user_version')" = "$want" ] || echo "new database at user_version $(sqlite3 v.db 'PRAGMA user_version'), want $want"
echo ok

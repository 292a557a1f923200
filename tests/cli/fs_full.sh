# A full filesystem (issue 33): a small tmpfs mounted in a private mount
# namespace (unshare -m: gone with the case), so root only; skipped (77)
# where mounting is not permitted.  Read-only runs and sql on a database
# whose folder is full say "disk full" and name the folder, exit 1, and
# leave no -wal or -shm beside it; a full SQLITE_TMPDIR is named as the
# temporary folder, not blamed on the database.
if [ -z "${FS_FULL_INSIDE:-}" ]; then
	[ "$(id -u)" = 0 ] || exit 77
	unshare -m true 2>/dev/null || exit 77
	FS_FULL_INSIDE=1 exec unshare -m sh -c '. "$0"' "$HERE/fs_full.sh"
fi
mkdir -p m t
mount -t tmpfs -o size=8m tmpfs m 2>/dev/null || exit 77
mount -t tmpfs -o size=64k tmpfs t || exit 1
$PROFDB ingest -q --db m/a.db --run a "$PROFDB_TESTDATA/analyses/trace.json" || exit 1
ls m
dd if=/dev/zero of=m/fill bs=4096 2>/dev/null
dd if=/dev/zero of=t/fill bs=4096 2>/dev/null
$PROFDB runs --db m/a.db 2>&1 >/dev/null
echo "runs exit $?"
$PROFDB sql --db m/a.db "SELECT count(*) FROM kernel" 2>&1 >/dev/null
echo "sql exit $?"
ls m
rm m/fill
# a sort of 300 000 rows of 200 bytes spills to the temporary folder
Q="WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 300000)
SELECT x, hex(randomblob(100)) FROM n ORDER BY random()"
SQLITE_TMPDIR=$PWD/t $PROFDB sql --db m/a.db --format csv "$Q" 2>err.txt >/dev/null
echo "sql exit $?"
sed "s|$PWD/||" err.txt
$PROFDB sql --db m/a.db "SELECT count(*) FROM kernel" --format csv
ls m

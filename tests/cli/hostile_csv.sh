# Hostile kernel_details.csv inputs (testdata/bad/*_kernel_details.csv and a
# generated 65 MiB field): each is refused with a one-line error naming the
# file and line, or handled; never a crash, a hang or a changed database.
. "$HERE/hostile_lib.sh"
B=$PROFDB_TESTDATA/bad
baseline
expect_reject csv_truncated_quote 1 "$B/truncated_quote_kernel_details.csv"
expect_reject csv_nul_byte 1 "$B/nul_byte_kernel_details.csv"
expect_reject csv_missing_duration 1 "$B/missing_duration_kernel_details.csv"
expect_either csv_dup_header 1 "$B/dup_header_kernel_details.csv"
expect_either csv_numbers_out_of_range 1 "$B/numbers_out_of_range_kernel_details.csv"
expect_either csv_nan_inf 1 "$B/nan_inf_kernel_details.csv"
expect_either csv_negative_zero_dur 1 "$B/negative_zero_dur_kernel_details.csv"
expect_either csv_invalid_utf8 1 "$B/invalid_utf8_kernel_details.csv"
expect_either csv_header_only 0 "$B/header_only_kernel_details.csv"
expect_either csv_ragged 1 "$B/ragged_long_kernel_details.csv"

# One Name field of 65 MiB: over the reader's 16 MiB field bound.
mkdir -p "$WORK/huge"
python3 - "$WORK/huge/kernel_details.csv" <<'PY'
import sys
with open(sys.argv[1], "w") as f:
    f.write("Step Id,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim\n")
    f.write("1,MatMul_1,MatMul,AI_CORE,1000.0,10.5,0,8\n1,")
    f.write("N" * (65 << 20))
    f.write(",Add,AI_CORE,1011.0,2.0,0,4\n")
PY
expect_reject csv_huge_field 1 "$WORK/huge/kernel_details.csv"
rm -rf "$WORK/huge"

# Names (and a run name) holding SQL are stored verbatim and do nothing:
# compare with the names python's csv module reads from the file, through
# python's own sqlite3, and check the tables are all still there.
run="r'); DROP TABLE run;--"
pd ingest --db "$DB" --run "$run" "$B/sql_names_kernel_details.csv"
st=$?
python3 - "$DB" "$run" "$B/sql_names_kernel_details.csv" $st <<'PY'
import csv, sqlite3, sys
db, run, path, st = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if st != 0:
    print(f"FAIL csv_sql_names: ingest exit {st}")
    sys.exit()
want = sorted(r["Name"] for r in csv.DictReader(open(path, newline="")))
con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
got = sorted(r[0] for r in con.execute(
    "SELECT n.value FROM kernel k JOIN run r ON r.id = k.run_id JOIN str n ON n.id = k.name_id"
    " WHERE r.name = ?", (run,)))
tables = {r[0] for r in con.execute("SELECT name FROM sqlite_schema WHERE type = 'table'")}
runs = con.execute("SELECT count(*) FROM run").fetchone()[0]
con.close()
if got != want:
    print(f"FAIL csv_sql_names: stored {got!r}, file has {want!r}")
elif not {"run", "kernel", "str"} <= tables or runs < 2:
    print(f"FAIL csv_sql_names: tables {sorted(tables)}, {runs} runs")
else:
    print("ok csv_sql_names")
PY

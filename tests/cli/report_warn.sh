# Comparability warnings reach every output format: 'meta_h100' differs from
# 'base' in device name and repeats (tests/cli/diff_gen.py).
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
for f in md html json junit csv; do
  # csv: the warnings on stderr, its rows are data only
  $PROFDB report --db runs.db base meta_h100 --format $f >out.$f 2>err.txt
  echo "report $f: $(cat out.$f err.txt | grep -c 'differ in device: NVIDIA A100-SXM4-80GB vs NVIDIA H100 80GB HBM3')" \
       "$(cat out.$f err.txt | grep -c 'differ in repeats: 20 vs 10')" \
       "$([ $f != csv ] || echo "(warning rows: $(grep -c '^warning' out.csv))")"
done
for f in table csv json md; do
  $PROFDB diff --db runs.db base meta_h100 --wide --format $f >out.txt 2>err.txt
  echo "diff $f: stdout+stderr mention device: $(cat out.txt err.txt | grep -c 'differ in device')"
done
# same device, same repeats: no warning
$PROFDB report --db runs.db base slow --format md | grep -c warning || true
# Every diff format shows every warning once, first: table and md before
# the tables (line numbers of stdout), csv on stderr, json in its "warnings"
# array (one line of the document, as report json).  By hand on
# meta_h100: 2 ranks and torch 2.3.0 against base's 1 rank and torch 2.1.0,
# so four warnings: device, rank count, versions, repeats (in that order).
$PROFDB sql --db runs.db --write "UPDATE run SET ranks = 2 WHERE name = 'meta_h100'" >/dev/null
$PROFDB sql --db runs.db --write "INSERT INTO run_meta(run_id, rank, key, value) SELECT id, NULL,
  'torch_version', CASE name WHEN 'base' THEN '2.1.0' ELSE '2.3.0' END FROM run
  WHERE name IN ('base', 'meta_h100')" >/dev/null
for f in table md csv json; do
  $PROFDB diff --db runs.db base meta_h100 --format $f >out.txt 2>err.txt
  echo "diff $f: stdout lines $(grep -n 'differ in' out.txt | cut -d: -f1 | tr '\n' ' ')| stderr $(grep -c 'differ in' err.txt)"
done
$PROFDB diff --db runs.db base meta_h100 | sed -n 1,4p

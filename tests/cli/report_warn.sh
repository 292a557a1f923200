# Comparability warnings reach every output format: 'meta_h100' differs from
# 'base' in device name and repeats (tests/cli/diff_gen.py).
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
for f in md html json junit csv; do
  $PROFDB report --db runs.db base meta_h100 --format $f >out.$f 2>err.txt
  echo "report $f: $(grep -c 'differ in device: NVIDIA A100-SXM4-80GB vs NVIDIA H100 80GB HBM3' out.$f)" \
       "$(grep -c 'differ in repeats: 20 vs 10' out.$f)"
done
for f in table csv json md; do
  $PROFDB diff --db runs.db base meta_h100 --wide --format $f >out.txt 2>err.txt
  echo "diff $f: stdout+stderr mention device: $(cat out.txt err.txt | grep -c 'differ in device')"
done
# same device, same repeats: no warning
$PROFDB report --db runs.db base slow --format md | grep -c warning || true

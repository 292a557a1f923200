# Exact Mann-Whitney under ties and sample sizes that cannot reach alpha
# (doc/commands.md "Comparing runs: diff and report").  Two wall-clock CSVs written here, by hand:
# torch.mm 5 repeats a side, fully separated (new side 20,21,22,22,24: a
# tie inside it): only one of the C(10,5) = 252 splits puts the base side
# lowest, so the exact two-sided p is 2/252 = 0.00794 < 0.01, a
# regression (the normal approximation said 0.0119, "could be noise").
# torch.add 3 repeats a side: the smallest two-sided p of 3 vs 3 is
# 2/C(6,3) = 0.1 > alpha, whatever the change: every diff and report
# format says so in a warning, not only in the why column.
printf 'api,backend,repeat,elapsed_us\n' >a.csv
printf 'api,backend,repeat,elapsed_us\n' >b.csv
for i in 1 2 3 4 5; do echo "torch.mm,cpu,$i,1$i" >>a.csv; done
printf 'torch.mm,cpu,1,20\ntorch.mm,cpu,2,21\ntorch.mm,cpu,3,22\ntorch.mm,cpu,4,22\ntorch.mm,cpu,5,24\n' >>b.csv
$PROFDB ingest -q --db d.db --run base a.csv || exit 1
$PROFDB ingest -q --db d.db --run new b.csv || exit 1
$PROFDB diff --db d.db base new --format csv 2>&1 | cut -d, -f1,2,9,12,13
printf 'api,backend,repeat,elapsed_us\n' >c.csv
printf 'api,backend,repeat,elapsed_us\n' >e.csv
for i in 1 2 3; do echo "torch.add,cpu,$i,1$i" >>c.csv; echo "torch.add,cpu,$i,2$i" >>e.csv; done
$PROFDB ingest -q --db s.db --run base c.csv || exit 1
$PROFDB ingest -q --db s.db --run new e.csv || exit 1
W='cannot be significant at alpha 0.01 whatever the change'
for f in table csv json md; do
  $PROFDB diff --db s.db base new --format $f >out.txt 2>err.txt
  echo "diff $f: exit $?, warned $(cat out.txt err.txt | grep -c "$W")"
done
for f in md html json junit csv; do
  $PROFDB report --db s.db base new --format $f >out.txt 2>err.txt
  echo "report $f: exit $?, warned $(cat out.txt err.txt | grep -c "$W")"
done
$PROFDB diff --db s.db base new 2>&1 | grep "$W"
# --alpha 0.2: 0.1 can reach it, no warning
$PROFDB diff --db s.db base new --alpha 0.2 2>&1 | grep -c "$W" || true

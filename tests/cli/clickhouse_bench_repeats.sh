# Wall-clock APIs with their own repeat counts read from a real
# clickhouse-server give the bytes the SQLite file gives (doc/benchmarks.md "Operator
# benchmarks"): torch.mul timed 3 times beside torch.add's 5 has per_repeat
# (201 + 202 + 203) / 3 = 202 us and no share, by hand.
. "$HERE/clickhouse_lib.sh"
ch_start 1
printf 'api,backend,repeat,elapsed_us\n' >m.csv
for i in 1 2 3 4 5; do echo "torch.add,cpu,$i,1$i" >>m.csv; done
for i in 1 2 3; do echo "torch.mul,cpu,$i,20$i" >>m.csv; done
$PROFDB ingest -q --db a.db --run a m.csv || exit 1
sed 's/,20\([123]\)$/,21\1/' m.csv >n.csv   # torch.mul 211..213 in run b
$PROFDB ingest -q --db a.db --run b n.csv || exit 1
URL=$(ch_url 1 "" prof)
$PROFDB push --quiet --db a.db --to "$URL" || exit 1
for args in "kernels --run a --format csv" "kernels --run a --by kind --format csv" \
            "kernels --run a --rank 0 --format csv" "diff a b --format csv"; do
  $PROFDB $args --db a.db >want 2>/dev/null
  $PROFDB $args --db "$URL" >got 2>/dev/null
  cmp -s want got && echo "same: $args" || { echo "DIFFERENT: $args"; diff want got | head -5; }
done
$PROFDB kernels --run a --format csv --db "$URL" | cut -d, -f1,2,3,11

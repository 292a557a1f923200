# Wall-clock APIs with their own repeat counts, and repeat numbers given
# twice (doc/benchmarks.md "Operator benchmarks").  Values by hand from the files
# written here: torch.add 5 repeats of 11..15 us (mean 13), torch.mul 3
# repeats of 201..203 us (mean 202, not 606/5 = 121.2).  kernels (stored
# per-name figures, and the row scan under --rank 0), apis, diff and
# report give the same per repeat; share (%) is empty for wall-clock rows.
printf 'api,backend,repeat,elapsed_us\n' >m.csv
for i in 1 2 3 4 5; do echo "torch.add,cpu,$i,1$i" >>m.csv; done
for i in 1 2 3; do echo "torch.mul,cpu,$i,20$i" >>m.csv; done
$PROFDB ingest -q --db d.db --run a m.csv || exit 1
$PROFDB ingest -q --db d.db --run b m.csv || exit 1
echo "== kernels"
$PROFDB kernels --db d.db --run a --format csv | cut -d, -f1,2,3,11
$PROFDB kernels --db d.db --run a --rank 0 --format csv | cut -d, -f1,2,3,11
echo "== apis"
$PROFDB apis --db d.db --run a --format csv | cut -d, -f1,5,6
echo "== diff, report"
$PROFDB diff --db d.db a b --format csv 2>/dev/null | cut -d, -f1,3,4,10,11,12,13
$PROFDB report --db d.db a b --format csv 2>/dev/null | grep '^kernel,' | cut -d, -f2,5,6,14,15
echo "== repeat numbers twice: refused with the line, the database as before"
printf 'api,backend,repeat,elapsed_us\ntorch.add,cpu,1,10\ntorch.add,cpu,2,11\ntorch.mul,cpu,1,5\ntorch.add,cpu,1,10\ntorch.add,cpu,2,11\n' >dup.csv
cp d.db before.db
$PROFDB ingest -q --db d.db --run dup dup.csv 2>&1; echo "exit $?"
cmp -s d.db before.db && echo "database unchanged"
printf '{"api": "x", "repeat": 1, "elapsed_us": 1}\n{"api": "x", "repeat": 2, "elapsed_us": 1}\n{"api": "x", "repeat": 2, "elapsed_us": 1}\n' >dup.jsonl
$PROFDB ingest -q --db d.db --run dup dup.jsonl 2>&1; echo "exit $?"
# without a repeat column the rows of an API count 1, 2, ...: no duplicate
printf 'api,elapsed_us\nx,1\nx,2\nx,3\n' >norep.csv
$PROFDB ingest -q --db d.db --run norep norep.csv; echo "exit $?"
$PROFDB kernels --db d.db --run norep --format csv | cut -d, -f2,3,11

# --by tag:KEY with a KEY that looks like SQL, holds quotes or spaces: the
# key is bound or quoted, never SQL text, so the groups are the tag's
# values; a KEY that cannot be a key (empty, '+', '=', ',', a control
# byte) is a usage error (exit 2) naming it.  Expected totals are the
# hand-summed repeats of testdata/bench/wallclock.csv (torch.matmul
# 812.5 + 800 + 790.25 = 2402.75 us, torch.add 12.5 + 13 = 25.5 us).
B=$PROFDB_TESTDATA/bench
$PROFDB ingest -q --db t.db --run cpu --tag "x FROM o WHERE 0 --=v1" --tag "q\"uo'te=v2" "$B/wallclock.csv" || exit 1
echo "== kernels --by name+tag:x FROM o WHERE 0 --"
$PROFDB kernels --db t.db --by 'name+tag:x FROM o WHERE 0 --' --format csv --unit us | cut -d, -f1,3,13,14
echo "== kernels --by name,tag:q\"uo'te"
$PROFDB kernels --db t.db --by "name,tag:q\"uo'te" --format csv --unit us | cut -d, -f1,3,13,14
echo "== summary --by tag:q\"uo'te"
$PROFDB summary --db t.db --by "tag:q\"uo'te" --format csv --unit us | cut -d, -f1,2,5
echo "== bad keys"
for by in 'name+tag:' 'tag:a=b' "tag:$(printf 'a\033b')"; do
  $PROFDB kernels --db t.db --by "$by" >/dev/null 2>err; echo "kernels: exit $?"; cat err
done
$PROFDB summary --db t.db --by 'tag:a+b' >/dev/null 2>err; echo "summary: exit $?"; cat err
$PROFDB diff --db t.db --by 'tag:a+b' cpu cpu >/dev/null 2>err; echo "diff: exit $?"; cat err

# One option parser for every query command (issue 13 item 4): diff and
# report read --steps, --rank, --name, --kind, --min-total, --format and
# --db with the parser kernels uses, so the same value gets the same answer.
# Each line: exit status, the command's arguments, its first stderr line.
# Expected by the rules (doc/commands.md "Asking questions"): a malformed or
# out-of-range number is a usage error (2), in every command; values that
# used to slip through: '..' (diff exited 0), 99999999999999999999
# (overflowed to an empty table), -9223372036854775808 (INT64_MIN, the
# "no filter" value: the filter vanished), 0x10 (hex read as 16).
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
try() { "$@" >out.txt 2>err.txt; s=$?; shift; echo "$s [$*] $(head -1 err.txt)"; }
for cmd in "kernels --run base" "diff base slow" "report base slow"; do
  try $PROFDB $cmd --db runs.db --steps ..
  try $PROFDB $cmd --db runs.db --steps 99999999999999999999..
  try $PROFDB $cmd --db runs.db --steps ..-99999999999999999999
  try $PROFDB $cmd --db runs.db --steps -9223372036854775808
  try $PROFDB $cmd --db runs.db --rank -9223372036854775808
  try $PROFDB $cmd --db runs.db --rank 1x
  try $PROFDB $cmd --db runs.db --min-total 0x10
  try $PROFDB $cmd --db runs.db --min-total inf
  try $PROFDB $cmd --db runs.db --steps 9..1
  try $PROFDB $cmd --db runs.db --kind nosuch
done
# the other number options of diff: decimal only; --min-delta takes units
try $PROFDB diff --db runs.db base slow --threshold 0x10
try $PROFDB diff --db runs.db base slow --min-delta 0x10
try $PROFDB diff --db runs.db base slow --resamples -1
try $PROFDB diff --db runs.db base slow --min-delta 5ms --format csv
# slow's B_softmax is 1.3 x base (diff_gen.py): +3.05 us per repeat, under
# 5 ms, so unchanged by --min-delta; the other three are within 5%
echo "   --min-delta 5ms: $(grep -c '^B_softmax,unchanged,.*below --min-delta' out.txt) B_softmax unchanged by it"
# operands may stand between options; after -- everything is an operand
try $PROFDB diff base --db runs.db slow --format csv
try $PROFDB diff --db runs.db --format csv -- base slow
try $PROFDB diff --db runs.db base slow noise
try $PROFDB diff --db runs.db base

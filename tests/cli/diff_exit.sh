# Exit codes of diff and report: 0 ok, 1 error, 2 usage, 3 regression found
# with --fail-on-regression (tests/cli/diff_gen.py: 'slow' has a regression
# against 'base', 'noise' has none).
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
try() { "$@" >/dev/null 2>err.txt; echo "$? $(head -1 err.txt)"; }
try $PROFDB diff --db runs.db base slow --wide
try $PROFDB diff --db runs.db base slow --fail-on-regression --wide
try $PROFDB diff --db runs.db base noise --fail-on-regression --format csv
try $PROFDB report --db runs.db --base base --new slow --format junit --fail-on-regression
try $PROFDB report --db runs.db base slow --format md -o report.md --fail-on-regression
test -s report.md && echo "report.md written"
try $PROFDB diff --db runs.db base nope
try $PROFDB diff --db missing.db base slow
try $PROFDB diff --db runs.db base
try $PROFDB diff --db runs.db base slow noise
try $PROFDB diff --db runs.db base slow --test ttest
try $PROFDB diff --db runs.db base slow --by colour
try $PROFDB report --db runs.db base slow --format pdf
try $PROFDB diff --db runs.db base slow --threshold lots
try $PROFDB diff --db runs.db base slow --bogus
try $PROFDB report --db runs.db base slow -o /nonexistent/dir/r.html --format html

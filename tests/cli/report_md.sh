# profdb report --format md: a pull-request comment.  'base' vs 'meta_h100'
# ran on another device with 10 steps instead of 20 (tests/cli/diff_gen.py),
# so the comment must carry both warnings; 'base' vs 'slow' lists only the
# regression (B_softmax) in its kernel table and counts the rest.
set -e
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
$PROFDB report --db runs.db base meta_h100 --format md | grep -F ':warning:'
$PROFDB report --db runs.db base slow --format md >slow.md
head -1 slow.md
grep -c '^| `' slow.md
grep '^| `' slow.md | cut -d'|' -f2,9
grep 'unchanged kernels not listed' slow.md

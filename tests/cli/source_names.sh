# ClickHouse is a source behind one interface (lib/source.h, issue 34 §1):
# nothing in lib/ or cmd/ outside lib/clickhouse/ names a ClickHouse
# function, macro, mode flag, temp table or header, nor the public names
# that interface replaced.  The scheme table (lib/source.c) and the
# declaration of the sources (lib/source.h) name the source itself, and
# only that.  Each pattern must also match inside lib/clickhouse/, so a
# pattern that no longer finds what it is for fails here too.
ROOT=$HERE/../..
cd "$ROOT" || exit 1
outside() {
  find lib cmd -name '*.[ch]' ! -path 'lib/clickhouse/*' | sort | xargs grep -nE -- "$1"
}
inside() {
  find lib/clickhouse -name '*.[ch]' | xargs grep -lE -- "$1" | wc -l
}
bad=0
while IFS='|' read -r what pat; do
  hits=$(outside "$pat")
  n=$(printf '%s' "$hits" | grep -c .)
  echo "$what: $n outside lib/clickhouse/, matched inside: $([ "$(inside "$pat")" -gt 0 ] && echo yes || echo no)"
  [ -n "$hits" ] && printf '%s\n' "$hits" && bad=1
done <<'EOF'
private functions and types|profdb__ch_
private macros|PROFDB__CH_|\bCH_[A-Z0-9_]+\b
temp tables|temp\.ch_|\bch_run\b
the header|#include "ch\.h"
EOF
# the handle's ClickHouse mode flags and the removed public names: in no
# file of the library (lib/clickhouse/ included), the CLI or the tests
old=$(find lib cmd tests -name '*.[ch]' | sort | xargs grep -nE \
  'db->ch_[a-z_]+|db->remote\b|profdb_open_clickhouse|profdb_is_clickhouse_url|profdb_clickhouse_set_timeout|PROFDB_CH_RUNS_ONLY|PROFDB_CH_TIMEOUT')
echo "mode flags and removed public names: $(printf '%s' "$old" | grep -c .)"
[ -n "$old" ] && printf '%s\n' "$old" && bad=1
# the source by name: the scheme table's rows and the one declaration
src=$(find lib cmd -name '*.[ch]' ! -path 'lib/clickhouse/*' | sort | xargs grep -nE 'profdb__source_clickhouse')
echo "the source named at:"
printf '%s\n' "$src" | sed 's/:[0-9]*:.*//' | sort | uniq -c
printf '%s\n' "$src" | grep -vE '^lib/source\.c:|^lib/source\.h:' && bad=1
exit $bad

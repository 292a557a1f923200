# diff --format json prints the document report --format json prints
# (issue 16 "JSON, CSV, SQL"): one writer, schemas/diff.schema.json, with
# the whole-run lines.  Compared byte for byte (stdout, and stderr: the
# warnings are in the document, not on stderr) for several option sets,
# validated by the test's own schema checker (json_schema_check.py), and
# --top N keeps the N largest |delta| kernel lines while counts count all:
# checked by python3 against the full document (its own sort by |delta|).
set -e
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
same() {
  $PROFDB diff --db runs.db "$@" --format json >d.json 2>d.err
  $PROFDB report --db runs.db "$@" --format json >r.json 2>r.err
  cmp d.json r.json && cmp d.err r.err
  python3 "$HERE/json_schema_check.py" "$HERE/../../schemas/diff.schema.json" d.json >/dev/null
  python3 - d.json "$*" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
print("same: %s: %d runs lines (%s), %d kernels, %d warnings" % (sys.argv[2], len(doc["runs"]),
      ", ".join(l["key"] for l in doc["runs"]), len(doc["kernels"]), len(doc["warnings"])))
PY
}
same base slow
same base meta_h100
same one_a one_b --test welch --resamples 0
same --base base,noise --new slow --by kind --threshold 2%
$PROFDB diff --db runs.db base slow --format json >all.json
$PROFDB diff --db runs.db base slow --format json --top 2 >top.json
python3 - all.json top.json <<'PY'
import json, sys
full, top = (json.load(open(f)) for f in sys.argv[1:])
want = sorted(full["kernels"], key=lambda l: -abs(l["delta"] or 0))[:2]
assert [l["key"] for l in top["kernels"]] == [l["key"] for l in want], top["kernels"]
assert top["counts"] == full["counts"] and top["runs"] == full["runs"]
print("top 2: %s; counts all %d" % (", ".join(l["key"] for l in top["kernels"]),
      sum(top["counts"].values())))
PY

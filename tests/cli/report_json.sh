# profdb report --format json validates against schemas/diff.schema.json
# (python3-jsonschema when installed, else the small validator below, which
# checks type, enum, required, additionalProperties, items, $ref, minimum).
set -e
$PROFDB sql --db runs.db --write "SELECT 1" >/dev/null
python3 "$HERE/diff_gen.py" runs.db >/dev/null
$PROFDB report --db runs.db base slow --format json -o slow.json
$PROFDB report --db runs.db base meta_h100 --format json -o h100.json
$PROFDB report --db runs.db one_a one_b --format json --test welch -o one.json
python3 - "$HERE/../../schemas/diff.schema.json" slow.json h100.json one.json <<'PY'
import json, sys
schema = json.load(open(sys.argv[1]))

def check(v, s, path):
    if "$ref" in s:
        node = schema
        for part in s["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return check(v, node, path)
    t = s.get("type")
    types = t if isinstance(t, list) else [t] if t else []
    py = {"object": dict, "array": list, "string": str, "null": type(None),
          "number": (int, float), "integer": int}
    if types and not any(isinstance(v, py[x]) and not (x in ("number", "integer") and isinstance(v, bool)) for x in types):
        raise SystemExit("%s: %r is not %s" % (path, v, types))
    if "enum" in s and v not in s["enum"]:
        raise SystemExit("%s: %r not in %s" % (path, v, s["enum"]))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]: raise SystemExit("%s: below minimum" % path)
        if "maximum" in s and v > s["maximum"]: raise SystemExit("%s: above maximum" % path)
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v: raise SystemExit("%s: missing %s" % (path, k))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props: check(x, props[k], path + "." + k)
            elif s.get("additionalProperties") is False: raise SystemExit("%s: extra key %s" % (path, k))
    if isinstance(v, list):
        if len(v) < s.get("minItems", 0): raise SystemExit("%s: too few items" % path)
        for i, x in enumerate(v):
            if "items" in s: check(x, s["items"], "%s[%d]" % (path, i))

try:
    import jsonschema
except ImportError:
    jsonschema = None
for f in sys.argv[2:]:
    doc = json.load(open(f))
    check(doc, schema, f)  # our own validator always runs
    if jsonschema:
        jsonschema.validate(doc, schema)
    ks = {k["key"]: k["verdict"] for k in doc["kernels"]}
    print("%s: valid; test %s; counts %s; B_softmax %s; %d warnings" % (
        f, doc["settings"]["test"], ",".join("%s=%d" % kv for kv in sorted(doc["counts"].items())),
        ks["B_softmax"], len(doc["warnings"])))
PY

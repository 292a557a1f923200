#!/usr/bin/env python3
"""json_schema_check.py SCHEMA FILE... - validate JSON files against a JSON Schema.

Uses python3-jsonschema when it is installed; otherwise a small validator of
the subset profdb's schemas use: type (one or a list), enum, required,
properties, additionalProperties: false, items, minimum, maximum, oneOf and
local $ref ("#/definitions/...").  Prints "valid: FILE" per file, exits 1
with the first problem otherwise."""
import json
import sys

PY = {"object": dict, "array": list, "string": str, "null": type(None),
      "number": (int, float), "integer": int, "boolean": bool}


def is_type(v, t):
    if t in ("number", "integer") and isinstance(v, bool):
        return False
    return isinstance(v, PY[t])


def errors(v, s, root, path):
    """The list of problems of v against schema s (empty: valid)."""
    if "$ref" in s:
        node = root
        for part in s["$ref"].lstrip("#/").split("/"):
            node = node[part]
        return errors(v, node, root, path)
    if "oneOf" in s:
        ok = [sub for sub in s["oneOf"] if not errors(v, sub, root, path)]
        if len(ok) != 1:
            return ["%s: matches %d of oneOf, not exactly 1" % (path, len(ok))]
    t = s.get("type")
    types = t if isinstance(t, list) else [t] if t else []
    if types and not any(is_type(v, x) for x in types):
        return ["%s: %r is not %s" % (path, v, "/".join(types))]
    if "enum" in s and v not in s["enum"]:
        return ["%s: %r not in %s" % (path, v, s["enum"])]
    out = []
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        if "minimum" in s and v < s["minimum"]:
            out.append("%s: %r below minimum %r" % (path, v, s["minimum"]))
        if "maximum" in s and v > s["maximum"]:
            out.append("%s: %r above maximum %r" % (path, v, s["maximum"]))
    if isinstance(v, dict):
        for k in s.get("required", []):
            if k not in v:
                out.append("%s: missing key %s" % (path, k))
        props = s.get("properties", {})
        for k, x in v.items():
            if k in props:
                out += errors(x, props[k], root, path + "." + k)
            elif s.get("additionalProperties") is False:
                out.append("%s: unexpected key %s" % (path, k))
    if isinstance(v, list) and "items" in s:
        for i, x in enumerate(v):
            out += errors(x, s["items"], root, "%s[%d]" % (path, i))
    return out


def main():
    schema = json.load(open(sys.argv[1]))
    try:
        import jsonschema
    except ImportError:
        jsonschema = None
    for f in sys.argv[2:]:
        doc = json.load(open(f))
        if jsonschema is not None:
            try:
                jsonschema.validate(doc, schema)
            except jsonschema.ValidationError as e:
                sys.exit("%s: %s" % (f, e.message))
        problems = errors(doc, schema, schema, "$")
        if problems:
            sys.exit("%s: %s" % (f, problems[0]))
        print("valid: %s" % f)


if __name__ == "__main__":
    main()

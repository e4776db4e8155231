#!/usr/bin/env python3
"""Checks JSON files against the schemas documented in docs/json.md (its ```json schema=NAME
blocks; notation on that page). Every key the schema lists without '?' must be present, no key it
does not list may be, and every value must have the stated type. The top-level object of a .json
file must also carry "provenance" (schema "provenance"), which json::write_file adds to every
document.
Usage: json_schema.py DOC NAME FILE [FILE...]   (a .jsonl file: every line is checked)
       json_schema.py DOC --list                 (the schema names)"""
import json
import re
import sys


def load_schemas(doc):
    text = open(doc, encoding="utf-8").read()
    blocks = re.findall(r"```json schema=([\w-]+)\n(.*?)```", text, re.S)
    return {name: json.loads(body) for name, body in blocks}


def is_type(v, t):
    if t == "string":
        return isinstance(v, str)
    if t == "bool":
        return isinstance(v, bool)
    if t == "integer":
        return isinstance(v, int) and not isinstance(v, bool)
    if t == "number":
        return isinstance(v, (int, float)) and not isinstance(v, bool)
    if t == "null":
        return v is None
    raise ValueError("unknown type '%s' in the schema" % t)


def check(v, s, schemas, path, errors):
    if isinstance(s, str) and s.startswith("@"):
        return check(v, schemas[s[1:]], schemas, path, errors)
    if isinstance(s, str):
        if not any(is_type(v, t) for t in s.split("|")):
            errors.append("%s: %r is not %s" % (path, v, s))
    elif isinstance(s, list):
        if not isinstance(v, list):
            errors.append("%s: expected an array" % path)
        else:
            for i, x in enumerate(v):
                check(x, s[0], schemas, "%s[%d]" % (path, i), errors)
    else:
        if not isinstance(v, dict):
            errors.append("%s: expected an object" % path)
            return
        keys = {k.rstrip("?"): k.endswith("?") for k in s}
        for k, optional in keys.items():
            if k not in v and not optional:
                errors.append("%s: key '%s' missing" % (path, k))
        for k, x in v.items():
            if k not in keys:
                errors.append("%s: key '%s' is not in the schema" % (path, k))
            else:
                check(x, s[k + "?" if keys[k] else k], schemas, "%s.%s" % (path, k), errors)


def main():
    if len(sys.argv) == 3 and sys.argv[2] == "--list":
        print("\n".join(sorted(load_schemas(sys.argv[1]))))
        return 0
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    schemas = load_schemas(sys.argv[1])
    name = sys.argv[2]
    if name not in schemas:
        sys.exit("no schema '%s' in %s" % (name, sys.argv[1]))
    status = 0
    for f in sys.argv[3:]:
        lines = f.endswith(".jsonl")
        docs = ([json.loads(l) for l in open(f) if l.strip()] if lines else [json.load(open(f))])
        schema = schemas[name]
        if not lines and "provenance" in schemas and isinstance(schema, dict):
            schema = dict(schema, provenance="@provenance")
        errors = []
        for i, d in enumerate(docs):
            check(d, schema, schemas, name if len(docs) == 1 else "%s#%d" % (name, i + 1), errors)
        if errors or not docs:
            status = 1
            print("%s: %s" % (f, "; ".join(errors[:10]) if errors else "empty"))
    return status


if __name__ == "__main__":
    sys.exit(main())

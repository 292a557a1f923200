#!/usr/bin/env python3
"""exports.py SO HEADER - libprofdb.so exports exactly the functions that
profdb.h declares (doc/DESIGN.md "Names"): a private helper named
profdb_* instead of profdb__* would be exported and listed here, and a
declared function missing from the .so too.  Reads `nm -D`; shares no code
with profdb."""
import re
import subprocess
import sys

so, header = sys.argv[1], sys.argv[2]
text = open(header).read()
text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
declared = set(re.findall(r"\b(profdb_[a-z0-9_]+)\s*\(", text))
out = subprocess.run(["nm", "-D", "--defined-only", so], check=True,
                     stdout=subprocess.PIPE, text=True).stdout
exported = set()
for line in out.splitlines():
    f = line.split()
    if len(f) == 3 and f[1] in "TDRBW" and not f[2].startswith("_"):
        exported.add(f[2].split("@")[0])
bad = 0
for name in sorted(exported - declared):
    print("exported, not in profdb.h:", name)
    bad = 1
for name in sorted(declared - exported):
    print("in profdb.h, not exported:", name)
    bad = 1
print(f"{len(exported)} exported, {len(declared)} declared")
sys.exit(bad)

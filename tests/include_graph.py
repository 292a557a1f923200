#!/usr/bin/env python3
"""Fail when a lib/ folder includes a header of a folder it may not use.

Every header of another folder is named "folder/x.h" (the include root is
lib/ only), so the folder graph can be read off the #include lines.  ALLOWED
is the intended layering, lowest first (doc/DESIGN.md "What each folder may
include"); EXCEPTIONS are the crossings that exist against it, each with why.
Usage: include_graph.py LIBDIR
"""
import os
import re
import sys

# folder -> the folders it may include (lib/'s own profdb.h, internal.h and
# banned.h are open to all)
ALLOWED = {
    'util': set(),                                          # no profdb knowledge
    'model': {'util'},                                      # kernel names, the op tree
    'store': {'model', 'util'},                             # the SQLite file, ingest's sink
    'read': {'store', 'model', 'util'},                     # one reader per input format
    'query': {'store', 'model', 'util'},                    # SQL over the store, results
    'compare': {'query', 'store', 'model', 'util'},         # the diff of two runs
    'verify': {'read', 'query', 'store', 'model', 'util'},  # the export's own tables vs. the store
    'report': {'compare', 'query', 'model', 'util'},        # writers: results, comparisons
    'clickhouse': {'read', 'store', 'query', 'compare', 'model', 'util'},  # a source
}

# (from, to, header): crossings against the layering that exist, each with why
EXCEPTIONS = {
}

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    lib = sys.argv[1]
    bad = []
    seen = set()
    for folder in sorted(os.listdir(lib)):
        path = os.path.join(lib, folder)
        if not os.path.isdir(path):
            continue
        if folder not in ALLOWED:
            bad.append('lib/%s/: a folder include_graph.py does not know (add it to ALLOWED)' % folder)
            continue
        for name in sorted(os.listdir(path)):
            if not name.endswith(('.c', '.h')):
                continue
            with open(os.path.join(path, name), encoding='utf-8') as f:
                text = f.read()
            for inc in INCLUDE.findall(text):
                if '/' not in inc:
                    if not os.path.exists(os.path.join(path, inc)) and \
                       not os.path.exists(os.path.join(lib, inc)):
                        bad.append('lib/%s/%s: "%s" is neither in its folder nor in lib/ '
                                   '(write "folder/%s")' % (folder, name, inc, inc))
                    continue
                to = inc.split('/')[0]
                if to == folder:
                    bad.append('lib/%s/%s: "%s" names its own folder (write it bare)'
                               % (folder, name, inc))
                elif (folder, to, inc) in EXCEPTIONS:
                    seen.add((folder, to, inc))
                elif to not in ALLOWED[folder]:
                    bad.append('lib/%s/%s: includes "%s": %s/ may not use %s/ (ALLOWED in tests/include_graph.py)'
                               % (folder, name, inc, folder, to))
    for e in sorted(set(EXCEPTIONS) - seen):
        bad.append('exception %s -> %s (%s) no longer happens: remove it' % e)
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())

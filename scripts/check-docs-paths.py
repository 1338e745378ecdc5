#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Keep the docs' pointers true: every repository path that README.md or
docs/**/*.md cites must exist in the work tree.

A repository path is a token that starts (after a space, a backquote, a
quote or a bracket) with one of the repository's top-level directories,
e.g. `src/core/guestmem.c`, `test/{vtpm,attest}/`, `include/abi/*.h` or
`src/core/request.c:44`. Braces and globs are expanded; a line suffix is
dropped. build/ is generated and not checked. A path that climbs out of
the repository (`../shared/...`) is dead for every reader of it. Another
project's file is written with the project in front (seL4/src/...,
hafnium/src/api.c) and is not checked. Relative Markdown links are
checked against the linking file's directory.
"""
import glob
import os
import re
import subprocess
import sys

os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

files = subprocess.run(["git", "ls-files"], check=True, capture_output=True,
                       text=True).stdout.split()
top = sorted({f.split("/")[0] for f in files if "/" in f} - {"build"})
docs = ["README.md"] + sorted(glob.glob("docs/**/*.md", recursive=True))
docs += sorted(set(sys.argv[1:]) - set(docs))  # extra files, for tests

START = r"(?:^|(?<=[\s`'\"(\[]))"
PATH = START + r"((?:\.\./)+[\w.{},*+/-]+|(?:%s)/[\w.{},*+/-]*)" % "|".join(
    re.escape(t) for t in top)
LINK = re.compile(r"\]\(([^)#\s]+)")


def expand(p):
    m = re.search(r"\{([^{}]*)\}", p)
    if not m:
        return [p]
    out = []
    for alt in m.group(1).split(","):
        out += expand(p[:m.start()] + alt + p[m.end():])
    return out


def exists(p):
    return bool(glob.glob(p)) if any(c in p for c in "*?[") else \
        os.path.exists(p)


dead = 0
for doc in docs:
    with open(doc, encoding="utf-8") as fh:
        lines = fh.read().split("\n")
    for n, line in enumerate(lines, 1):
        cites = [(m, m) for m in re.findall(PATH, line)]
        cites += [(m, os.path.normpath(os.path.join(os.path.dirname(doc), m)))
                  for m in LINK.findall(line) if "://" not in m]
        for shown, path in cites:
            path = re.sub(r":[\d,-]+$", "", path).rstrip(".,;:")
            for p in expand(path):
                if p.startswith("../"):
                    why = "outside the repository"
                elif p and not exists(p):
                    why = "does not exist"
                else:
                    continue
                print(f"{doc}:{n}: {shown}: {why}", file=sys.stderr)
                dead += 1
if dead:
    print(f"docs-check: {dead} dead repository path(s) cited (see above)",
          file=sys.stderr)
    sys.exit(1)
print(f"docs-check: every repository path in {len(docs)} docs exists")

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""No call circle between files (docs/architecture.md, "Floors").

The include check (check-layers.py) keeps headers pointing down; this one
keeps calls pointing one way too. File A calls file B when A names a
non-static function that B defines (or a macro or static inline function
of a header whose body does). Among the .c and .S files of the trees in
SCAN, those calls must form no circle: a leaf that calls back up into
its caller (a platform's internals into its own upward plat_* interface,
a helper into the file that drives it, a machine model into the harness
that drives it) fails, with the edges that close the circle. A function
defined in two files (plat_* by each platform, snp_hw_* by the hardware
and the simulator) is an edge to each, but for a file that defines it
itself; a call down through a seam (SEAMS) is none. ctags finds the
definitions; the rest is names in the text.
"""
import json
import os
import re
import subprocess
import sys

# The trees whose calls are one graph: the SVSM (src, include), the
# models of the other parties (model), the simulator (sim: the harness,
# sim/src/harness, over the SVSM and the simulated machine,
# sim/src/model, which calls neither) and the emulated machine (emu: its
# hypervisor drives the hardware role, which returns exits and never
# calls back; docs/emu.md).
SCAN = ["src", "model", "include", "sim", "emu"]
# A name, unless it follows "." or "->" (a member, not a function).
TOKEN_RE = re.compile(r"(?<![.>\w])[A-Za-z_]\w*")
# Comments, then string and character literals (what a name in them is
# not a call).
STRIP_RE = re.compile(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"|'
                      r"'(?:\\.|[^'\\\n])*'", re.S)
ASM_COMMENT_RE = re.compile(r"#(?!\s*(?:include|define|if|endif|else))[^\n]*")
# Seams: headers whose functions are implemented above their callers,
# each by one or more trees (one per machine the code runs on): each
# platform's operations, svsm/plat.h (the simulated CPU's clock and
# entropy too); the x86 trap entry's handler; the snp platform's
# instructions, snp_hw.h, by the hardware and by the simulated machine;
# the sim platform's, sim_hw.h, by the simulated machine.
# A caller outside every implementing tree calls down through the seam,
# not up by name: no edge. Inside one, a call is a call.
SEAMS = {
    "include/svsm/plat.h": ["src/plat/", "sim/src/model/"],
    "src/arch/x86/trap.h": ["src/plat/"],
    "src/plat/snp/snp_hw.h": ["src/plat/snp/hw/", "sim/src/model/"],
    "src/plat/sim/sim_hw.h": ["sim/src/model/"],
}
# A platform's operations are its upward interface: only the SVSM below
# the seam calls them, never the platform's own files (which call the
# seam beneath them, as snp's call snp_hw.h).
UPWARD_ONLY = re.compile(r"^src/plat/[^/]+/plat_[^/]*\.c$")
# Known circles, each with the change that removes it. Keep short.
EXCEPTIONS = []
GLOBL_RE = re.compile(r"^\s*\.glob(?:a)?l\s+([A-Za-z_][A-Za-z0-9_]*)", re.M)


def sources():
    out = []
    for top in SCAN:
        for d, _dirs, names in os.walk(top):
            out += [os.path.join(d, n) for n in names
                    if n.endswith((".c", ".h", ".S"))]
    return sorted(out)


def tokens(text, asm=False):
    text = STRIP_RE.sub(" ", text)
    if asm:
        text = ASM_COMMENT_RE.sub(" ", text)
    return TOKEN_RE.findall(text)


def main():
    os.chdir(os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    files = sources()
    lines = {}
    for f in files:
        with open(f, encoding="utf-8", errors="replace") as fh:
            lines[f] = fh.read().split("\n")
    tags = subprocess.run(
        ["ctags", "--output-format=json", "--fields=+nKeF", "--extras=+F",
         "--kinds-C=fdp", "-f", "-"] + [f for f in files if f[-2:] != ".S"],
        check=True, capture_output=True, text=True).stdout
    defs = {}    # function name -> the .c/.S files defining it (non-static)
    expand = {}  # header macro or inline function -> the names in its body
    seam = {}    # function of a seam header -> the trees implementing it
    for t in map(json.loads, tags.splitlines()):
        f, name = t["path"], t["name"]
        body = "\n".join(lines[f][t["line"] - 1:t.get("end", t["line"])])
        if t["kind"] == "prototype":
            if f in SEAMS:
                seam[name] = SEAMS[f]
        elif f.endswith(".h"):
            expand.setdefault(name, set()).update(tokens(body)[1:])
        elif t["kind"] == "function" and not t.get("file"):
            defs.setdefault(name, set()).add(f)
    for f in files:
        if f.endswith(".S"):
            for name in GLOBL_RE.findall("\n".join(lines[f])):
                defs.setdefault(name, set()).add(f)

    def callees(name, seen):
        if name in seen:
            return
        seen.add(name)
        for n in expand.get(name, ()):
            callees(n, seen)

    edges = {}  # caller file -> {callee file: a name that ties them}
    bad = []
    for f in files:
        if f.endswith(".h"):
            continue
        seen = set()
        for tok in set(tokens("\n".join(lines[f]), f.endswith(".S"))):
            callees(tok, seen)
        out = edges.setdefault(f, {})
        for name in sorted(seen):
            where = defs.get(name, set())
            trees = seam.get(name)
            if f in where or (trees is not None and
                              not f.startswith(tuple(trees))):
                continue  # its own, or down through a seam
            for g in where:
                out.setdefault(g, name)
                if UPWARD_ONLY.match(g):
                    bad.append(f"{f}: calls {name}(), the platform's own "
                               f"upward interface ({g}): call the seam "
                               "beneath it (docs/architecture.md)")
    comps = circles(edges)
    used = [e for e in EXCEPTIONS if set(e) in map(set, comps)]
    comps = [c for c in comps if set(c) not in EXCEPTIONS]
    for e in EXCEPTIONS:
        if e not in used:
            print(f"calls-check: note: exception {sorted(e)} is no longer "
                  "needed; remove it", file=sys.stderr)
    for b in bad:
        print(b, file=sys.stderr)
    for comp in comps:
        print(f"calls-check: {len(comp)} files call each other in a circle "
              "(docs/architecture.md, \"Floors\"):", file=sys.stderr)
        for a in comp:
            for b, name in sorted(edges[a].items()):
                if b in comp:
                    print(f"  {a} -> {b} ({name})", file=sys.stderr)
    if bad or comps:
        return 1
    n = sum(len(v) for v in edges.values())
    print(f"calls-check: {n} calls between {len(edges)} files, no circle")
    return 0


def circles(edges):
    """Tarjan's strongly connected components of more than one file."""
    index, low, stack, on, out = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in edges.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    return out


if __name__ == "__main__":
    sys.exit(main())

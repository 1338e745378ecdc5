#!/usr/bin/env python3
# Keep docs/error-handling.md's table of termination reasons true: every
# TERM_CSVSM_* reason in include/svsm/terminate.h has one row with its
# code, and the row names exactly the functions under src/ that raise it
# (a use that is not a comparison or a case label). Fails on a reason
# without a row, a row for no reason, a wrong code, a site that no longer
# raises the reason, a site missing from the row, or a reason nobody raises.
# --print prints the table the code implies.
import os
import re
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
HEADER = "include/svsm/terminate.h"
DOC = "docs/error-handling.md"
NAME = re.compile(r"\bTERM_CSVSM_[A-Z0-9_]+\b")


def reasons():
    out = {}
    with open(os.path.join(ROOT, HEADER)) as f:
        for m in re.finditer(r"^#define (TERM_CSVSM_\w+) (\d+)u\s*$",
                             f.read(), re.M):
            out[m.group(1)] = int(m.group(2))
    return out


def strip(text):
    """Blank comments and string literals, keeping lines and columns."""
    def blank(m):
        return re.sub(r"[^\n]", " ", m.group(0))
    return re.sub(r'/\*.*?\*/|//[^\n]*|"(?:\\.|[^"\\\n])*"', blank, text,
                  flags=re.S)


def sites():
    """{reason: {(path, function)}} for every raising use under src/."""
    out = {}
    for d, _, files in os.walk(os.path.join(ROOT, "src")):
        for fn in sorted(files):
            if not fn.endswith((".c", ".h")):
                continue
            path = os.path.relpath(os.path.join(d, fn), ROOT)
            with open(os.path.join(ROOT, path)) as f:
                lines = strip(f.read()).split("\n")
            func = candidate = None
            in_macro = False
            for no, line in enumerate(lines, 1):
                m = re.match(r"#\s*define\s+(\w+)\(", line)
                if m:
                    func, in_macro = m.group(1), True
                elif not in_macro:
                    m = re.match(r"[A-Za-z_][\w \t*]*?\b(\w+)\s*\(", line)
                    if m and not line.rstrip().endswith(";"):
                        candidate = m.group(1)
                    elif line.startswith("{"):
                        func = candidate
                    elif line.startswith("}"):
                        func = None
                for m in NAME.finditer(line):
                    before = line[:m.start()].rstrip()
                    if before.endswith(("==", "!=")) or \
                            re.search(r"\bcase$", before):
                        continue
                    if func is None:
                        sys.exit(f"{path}:{no}: {m.group(0)} outside a "
                                 "function: cannot name its site")
                    out.setdefault(m.group(0), set()).add((path, func))
                if in_macro and not line.rstrip().endswith("\\"):
                    in_macro, func = False, None
    return out


def doc_rows():
    """{reason: (code, {(path, function)})} from the doc's table."""
    out = {}
    with open(os.path.join(ROOT, DOC)) as f:
        for no, line in enumerate(f, 1):
            m = re.match(r"\|\s*(\d+)\s*\|\s*`(TERM_CSVSM_\w+)`\s*\|"
                         r".*\|(.*)\|\s*$", line)
            if not m:
                continue
            name = m.group(2)
            if name in out:
                sys.exit(f"{DOC}:{no}: a second row for {name}")
            where = set()
            for f_m in re.finditer(r"`(src/[^`]+)`\s*\(([^)]*)\)",
                                   m.group(3)):
                for fn in re.findall(r"`(\w+)`", f_m.group(2)):
                    where.add((f_m.group(1), fn))
            out[name] = (int(m.group(1)), where)
    return out


def render(sites_of):
    files = {}
    for path, fn in sorted(sites_of):
        files.setdefault(path, []).append(f"`{fn}`")
    return "; ".join(f"`{p}` ({', '.join(fns)})" for p, fns in files.items())


def main():
    want = reasons()
    have = sites()
    if "--print" in sys.argv:
        for name, code in sorted(want.items(), key=lambda kv: kv[1]):
            print(f"| {code} | `{name}` | | {render(have.get(name, set()))} |")
        return 0
    doc = doc_rows()
    errors = []
    for name, code in sorted(want.items(), key=lambda kv: kv[1]):
        raised = have.get(name, set())
        if not raised:
            errors.append(f"{name} is never raised under src/")
        if name not in doc:
            errors.append(f"{name} has no row in {DOC}")
            continue
        doc_code, listed = doc[name]
        if doc_code != code:
            errors.append(f"{name}: {DOC} says code {doc_code}, "
                          f"{HEADER} says {code}")
        for path, fn in sorted(listed - raised):
            errors.append(f"{name}: {DOC} names {path} ({fn}), "
                          "which does not raise it")
        for path, fn in sorted(raised - listed):
            errors.append(f"{name}: raised in {path} ({fn}), "
                          f"missing from {DOC}")
    for name in sorted(set(doc) - set(want)):
        errors.append(f"{DOC} has a row for {name}, not in {HEADER}")
    for name in sorted(set(have) - set(want)):
        errors.append(f"{name} is raised but not defined in {HEADER}")
    if errors:
        for e in errors:
            print(f"term-reasons-check: {e}", file=sys.stderr)
        print("term-reasons-check: fix the table (scripts/"
              "check-term-reasons.py --print shows what the code raises)",
              file=sys.stderr)
        return 1
    print(f"term-reasons-check: {len(want)} reasons, "
          f"{sum(len(s) for s in have.values())} raising functions match {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

# The check counter every Python test script in make check uses: expect()
# records a check and prints what failed; finish() prints the tally as
# "NAME: N passed, M failed" and exits non-zero on any failure. A check
# that names each result (test/linux/check.py) calls named(NAME) first,
# then ok(WHAT) and bad(CHECK, WHY), which print "NAME: PASS WHAT" and
# "NAME: FAIL CHECK: WHY" (the lines scripts and tests grep for).
import sys

_checks = 0
_fails = 0
_name = ""


def expect(cond, what):
    global _checks, _fails
    _checks += 1
    if not cond:
        _fails += 1
        print(f"FAIL: {what}")


def named(name):
    global _name
    _name = name


def ok(what):
    global _checks
    _checks += 1
    print(f"{_name}: PASS {what}", flush=True)


def bad(check, why):
    global _checks, _fails
    _checks += 1
    _fails += 1
    print(f"{_name}: FAIL {check}: {why}", flush=True)


def finish(name, detail=""):
    print(f"{name}: {_checks - _fails} passed, {_fails} failed{detail}")
    sys.exit(1 if _fails else 0)

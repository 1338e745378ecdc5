# The check counter every Python test script in make check uses: expect()
# records a check and prints what failed; finish() prints the tally as
# "NAME: N passed, M failed" and exits non-zero on any failure.
import sys

_checks = 0
_fails = 0


def expect(cond, what):
    global _checks, _fails
    _checks += 1
    if not cond:
        _fails += 1
        print(f"FAIL: {what}")


def finish(name):
    print(f"{name}: {_checks - _fails} passed, {_fails} failed")
    sys.exit(1 if _fails else 0)

#!/usr/bin/env bash
# Functions the SVSM and its tests must not use (docs/coding-style.md):
# unbounded string functions and ato*. The libc layer (src/libc) is exempt:
# it defines them because libcrypto.a and libtpms.a call them, and its test
# compares those definitions with glibc's; no other file may call them.
set -euo pipefail
cd "$(dirname "$0")/.."
pattern='\b(strcpy|strcat|sprintf|vsprintf|gets|strtok|atoi|atol|atoll|atof)[[:space:]]*\('
if git ls-files '*.c' '*.h' ':!src/libc/' ':!test/libc/' \
	':!test/unit/libc_test.c' | xargs grep -nE "$pattern"; then
	echo "banned-check: banned functions used (see above)" >&2
	exit 1
fi
echo "banned-check: ok"

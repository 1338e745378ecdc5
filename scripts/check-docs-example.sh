#!/usr/bin/env bash
# Keep docs/simulator.md true: compile its C example against the library
# and check the output it promises in its comment.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
awk '/^```c$/ { on = 1; next } /^```$/ { on = 0 } on' docs/simulator.md \
	>"$tmp/example.c"
gcc -std=c11 -Wall -Werror -Iinclude -Isim/include -Imodel/include \
	"$tmp/example.c" build/libcsvsm_sim.a -ltpms -lcrypto -o "$tmp/example"
out=$("$tmp/example")
expected="RAX 0 RCX 100000001"
if [ "$out" != "$expected" ]; then
	echo "docs-check: example printed '$out', docs say '$expected'" >&2
	exit 1
fi
echo "docs-check: docs/simulator.md example builds and prints '$out'"

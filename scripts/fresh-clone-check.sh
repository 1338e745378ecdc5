#!/usr/bin/env bash
# make fresh-clone-check: a newcomer's first run. `git clone` of what this
# repository has committed (its HEAD, not the work tree's edits) into a
# temporary directory, and there `make run </dev/null`: nothing built
# (no build/), no terminal, so Linux's self-test with its relying party
# (README.md, "Two commands"). Passes only if that passes. The slow
# inputs cached outside the tree, keyed by what they are made of (the
# kernel kits, tpm_svsm.ko, the guest's .debs in ${CSVSM_CACHE:-~/.cache/
# csvsm}: scripts/linux-fetch.sh, scripts/apt-private.sh), are reused, as
# a CI run on a clean clone reuses its cache; everything in build/ is made
# afresh. The clone is removed afterwards; its output is kept in
# build/fresh-clone/make-run.log (on failure its build/run/ logs too), and
# on failure its last lines are printed (make run's own last lines say
# which party stopped and why).
#   fresh-clone-check.sh [-jN]
# -jN: make's jobs for the clone's build (default: make run's own, one).
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
jobs=()
case ${1:-} in
-j[0-9]*) jobs=("$1") ;;
"") ;;
*)
	echo "usage: fresh-clone-check.sh [-jN]" >&2
	exit 2
	;;
esac
out=$here/build/fresh-clone
mkdir -p "$out"
log=$out/make-run.log
tmp=$(mktemp -d "${TMPDIR:-/tmp}/csvsm-fresh.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
t0=$(date +%s)
head=$(git -C "$here" rev-parse --short HEAD)
if ! git clone --quiet "$here" "$tmp/csvsm" >"$log" 2>&1; then
	echo "fresh-clone-check: FAIL: git clone of $here failed:" >&2
	tail -n 5 "$log" >&2
	exit 1
fi
[ ! -e "$tmp/csvsm/build" ] || {
	echo "fresh-clone-check: FAIL: the clone has a build/ already" >&2
	exit 1
}
# As a newcomer types it: no make of ours around it (no jobserver, no
# variables from make check's command line), stdin not a terminal.
(cd "$tmp/csvsm" &&
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
		make "${jobs[@]}" run </dev/null) >>"$log" 2>&1
st=$?
secs=$(($(date +%s) - t0))
if [ $st -ne 0 ]; then
	cp -r "$tmp/csvsm/build/run" "$out/" 2>/dev/null
	echo "fresh-clone-check: FAIL: make run in a fresh clone of $head" \
		"ended with status $st after ${secs}s; its last lines" \
		"(all of it: $log):" >&2
	tail -n 25 "$log" | cut -c1-300 >&2
	exit 1
fi
verdict=$(grep -a '^make run: ' "$log" | tail -n1)
echo "fresh-clone-check: a fresh clone of $head, nothing built:" \
	"${verdict:-make run passed} (${secs}s, build and boot)"

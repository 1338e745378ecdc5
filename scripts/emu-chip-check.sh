#!/usr/bin/env bash
# An emulated chip keeps its identity (issue 28; docs/vtpm.md,
# "Persistent state (in progress)"): the test image on the emulated
# machine, its SVSM logging at NOTICE a fingerprint of the vTPM state's
# sealing key (a digest of the key's ID, never the key), which the PSP
# derives over the launch's MEASUREMENT, policy and committed TCB from
# the chip's secret (build/chips/NAME, scripts/emu-run.sh --chip).
#   scripts/emu-chip-check.sh [IMAGE]
# Checks, on two throwaway chips made by the first run on each:
# - two runs on one chip, one image: the same key;
# - another chip, same image (same MEASUREMENT): another key;
# - the same chip, another MEASUREMENT (-smp 2: one VMSA more): another;
# - a chip file that is not one: the PSP refuses the launch (249).
set -uo pipefail

image=${1:-build/csvsm.igvm}
dir=build/machine/chip-check
mkdir -p "$dir"
a=check-a-$$
b=check-b-$$
trap 'rm -f build/chips/$a build/chips/$b build/chips/$a-bad' EXIT

fail() {
	echo "emu-chip-check: FAILED: $*" >&2
	exit 1
}

# Run on chip $1 with -smp $2, log $3; print "FINGERPRINT MEASUREMENT".
run() {
	scripts/emu-run.sh --image "$image" --chip "$1" --smp "$2" \
		--expect 33 --timeout 240 --log "$3" >/dev/null ||
		fail "the run on chip $1, -smp $2 did not pass ($3)"
	local key m
	key=$(sed -n 's/.*vTPM state: sealing key \([0-9a-f]\{16\}\) .*/\1/p' "$3")
	m=$(sed -n 's/^emu: launch measurement \([0-9a-f]*\).*/\1/p' "$3")
	[ -n "$key" ] || fail "no sealing key fingerprint in $3"
	[ -n "$m" ] || fail "no launch measurement in $3"
	grep -q '^emu: chip: its secret from opt/csvsm/chip' "$3" ||
		fail "the machine did not take the chip file ($3)"
	echo "$key $m"
}

[ ! -e "build/chips/$a" ] || fail "build/chips/$a exists"
read -r a1 m1 < <(run "$a" 1 "$dir/a1.log")
[ -f "build/chips/$a" ] || fail "the first run made no build/chips/$a"
read -r a2 m2 < <(run "$a" 1 "$dir/a2.log")
read -r b1 mb < <(run "$b" 1 "$dir/b1.log")
read -r a3 m3 < <(run "$a" 2 "$dir/a-smp2.log")
[ -n "${a1:-}" ] && [ -n "${a2:-}" ] && [ -n "${b1:-}" ] && [ -n "${a3:-}" ] ||
	exit 1

[ "$m1" = "$m2" ] && [ "$m1" = "$mb" ] || fail "one image, -smp 1, measured differently"
[ "$m3" != "$m1" ] || fail "-smp 2 measured as -smp 1"
[ "$a1" = "$a2" ] || fail "chip $a, same image: keys $a1 then $a2"
echo "emu-chip-check: one chip, one image, two runs: the same key $a1"
[ "$b1" != "$a1" ] || fail "chips $a and $b gave one key $a1"
echo "emu-chip-check: another chip, the same image: another key $b1"
[ "$a3" != "$a1" ] || fail "another MEASUREMENT on chip $a gave the same key"
echo "emu-chip-check: the same chip, another MEASUREMENT: another key $a3"

printf 'CSVSMCHP' >"build/chips/$a-bad"
scripts/emu-run.sh --image "$image" --chip "$a-bad" --expect 249 \
	--timeout 60 --log "$dir/bad.log" >/dev/null ||
	fail "a chip file of 8 bytes was not refused ($dir/bad.log)"
grep -q 'launch refused: opt/csvsm/chip is not a chip file' "$dir/bad.log" ||
	fail "no reason for the refused chip file in $dir/bad.log"
echo "emu-chip-check: a chip file that is not one: the launch refused"

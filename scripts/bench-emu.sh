#!/usr/bin/env bash
# make bench, emu part: in one QEMU run (TCG, -smp 1) the guest times an
# SVSM call (QUERY_PROTOCOL) against a bare world switch (run VMPL0 with no
# call pending) and prints both with their ratio. Then the firmware's size,
# and the instructions QEMU executes from the SVSM's first instruction to
# the guest's first (a single-stepped exec trace, streamed through awk).
set -euo pipefail
fw=build/emu/csvsm-emu.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "csvsm on emu (QEMU TCG): guest TSC cycles per round trip"
scripts/emu-run.sh --smp 1 --log "$tmp/run.log" >/dev/null
grep '^\[bench\]' "$tmp/run.log" | sed 's/^\[bench\] /  /'
echo "  goal: QUERY_PROTOCOL / bare world switch < 1.3"

text=$(size -A "$fw" | awk '$1 == ".text" || $1 == ".rodata" { s += $2 } END { print s }')
data=$(size -A "$fw" | awk '$1 == ".data" || $1 == ".bss" { s += $2 } END { print s }')
echo "firmware: $(stat -c %s "$fw") bytes ELF; loaded: code+rodata $text" \
	"bytes (incl. the test guest image), data+bss $data bytes"

# The trace names each executed translation block; with -singlestep one
# block is one instruction (a rep-prefixed one once per iteration, so
# repeats of the same RIP are also counted apart).
mkfifo "$tmp/trace"
awk -F'[][/]' '
/^Trace/ {
	pc = $3
	if (!s && pc ~ /0000000000200000$/) s = 1
	if (!s) next
	if (pc ~ /0000000002000000$/) {
		printf "reset to guest: %d SVSM instructions (%d counting " \
			"each rep iteration)\n", insns, steps
		found = 1
		exit
	}
	steps++
	if (pc != last) insns++
	last = pc
}
END { if (!found) printf "reset to guest: more than %d SVSM instructions " \
	"(single-step budget of 120 s used up)\n", insns }' \
	<"$tmp/trace" &
awk_pid=$!
scripts/emu-run.sh --smp 1 --timeout 120 --log "$tmp/trace.log" -- \
	-singlestep -d exec,nochain -D "$tmp/trace" >/dev/null 2>&1 &
qemu_pid=$!
wait $awk_pid
pkill -P $qemu_pid 2>/dev/null || true
kill $qemu_pid 2>/dev/null || true
wait $qemu_pid 2>/dev/null || true

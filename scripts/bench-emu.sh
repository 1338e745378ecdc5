#!/usr/bin/env bash
# make bench, emu part: build/csvsm.igvm on the emulated SEV-SNP machine
# (TCG, -smp 1). The guest times an SVSM call (QUERY_PROTOCOL) against a
# bare world switch (run VMPL0 with no call pending) in the same run and
# prints both with their ratio; each is two world switches, as on
# hardware. Then the snp firmware's size, and the instructions QEMU
# executes from the SVSM's first instruction (0x1000000) to the guest's
# first (0x2000000), the machine's own included (a single-stepped exec
# trace, streamed through awk). The TSC cycles from reset to the guest's
# first instruction come from the machine's bench instrument.
set -euo pipefail
fw=build/snp/csvsm-snp.elf
image=build/csvsm.igvm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "csvsm on the emulated SEV-SNP machine (QEMU TCG): guest TSC cycles per round trip"
scripts/emu-run.sh --image "$image" --smp 1 --log "$tmp/run.log" >/dev/null
grep '^\[bench\]' "$tmp/run.log" | sed 's/^\[bench\] /  /'
echo "  goal: QUERY_PROTOCOL / bare world switch < 1.3"
# The machine's bench instrument (emu/src/instrument.c): the TSC, which
# counts from reset, at the first VMRUN of VMPL0 (the SVSM) and of VMPL1.
first=$(sed -n 's/^emu: bench: first VMRUN at TSC: VMPL0 \([0-9]*\), VMPL1 \([0-9]*\) (from reset; TSC \([0-9]*\) kHz)$/\1 \2 \3/p' "$tmp/run.log" | head -n1)
read -r f0 f1 khz <<<"$first"
awk -v f0="$f0" -v f1="$f1" -v khz="$khz" 'BEGIN {
	printf "Reset to the guest'"'"'s first instruction: %.0f TSC cycles (%.0f ms" \
		" at %.0f kHz)\n  reset to the SVSM'"'"'s first VMRUN %.0f (%.0f ms)," \
		" the SVSM'"'"'s boot %.0f (%.0f ms)\n", f1, f1 / khz, khz, f0,
		f0 / khz, f1 - f0, (f1 - f0) / khz }'

text=$(size -A "$fw" | awk '$1 == ".text" || $1 == ".rodata" { s += $2 } END { print s }')
data=$(size -A "$fw" | awk '$1 == ".data" || $1 == ".bss" { s += $2 } END { print s }')
echo "snp firmware: $(stat -c %s "$fw") bytes ELF; code+rodata $text" \
	"bytes, data+bss $data bytes; image $(stat -c %s "$image") bytes"

# The trace names each executed translation block; with -singlestep one
# block is one instruction (a rep-prefixed one once per iteration, so
# repeats of the same RIP are also counted apart).
mkfifo "$tmp/trace"
awk -F'[][/]' '
/^Trace/ {
	pc = $3
	if (!s && pc ~ /0000000001000000$/) s = 1
	if (!s) next
	if (pc ~ /0000000002000000$/) {
		printf "SVSM entry to guest: %d instructions, SVSM and " \
			"machine (%d counting " \
			"each rep iteration)\n", insns, steps
		found = 1
		exit
	}
	steps++
	if (pc != last) insns++
	last = pc
}
END { if (!found) printf "SVSM entry to guest: more than %d instructions " \
	"(single-step budget of 120 s used up)\n", insns }' \
	<"$tmp/trace" &
awk_pid=$!
scripts/emu-run.sh --image "$image" --smp 1 --timeout 120 \
	--log "$tmp/trace.log" -- \
	-singlestep -d exec,nochain -D "$tmp/trace" >/dev/null 2>&1 &
qemu_pid=$!
wait $awk_pid
pkill -P $qemu_pid 2>/dev/null || true
kill $qemu_pid 2>/dev/null || true
wait $qemu_pid 2>/dev/null || true

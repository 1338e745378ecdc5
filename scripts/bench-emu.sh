#!/usr/bin/env bash
# make bench, emu part: build/csvsm.igvm on the emulated SEV-SNP machine
# (TCG, -smp 1). The guest times an SVSM call (QUERY_PROTOCOL) against a
# bare world switch (run VMPL0 with no call pending) in the same run and
# prints both with their ratio; each is two world switches, as on
# hardware. Then the TSC cycles from reset to the guest's first
# instruction (the machine's bench instrument) and the snp firmware's
# size. (A single-stepped QEMU trace used to count the instructions from
# the SVSM's entry to the guest's; since the SVSM manufactures its vTPM
# at boot it never got there within two minutes, so it is gone.)
set -euo pipefail
fw=build/snp/csvsm-snp.elf
image=build/csvsm.igvm
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "csvsm on the emulated SEV-SNP machine (QEMU TCG): guest TSC cycles per round trip"
scripts/emu-run.sh --image "$image" --smp 1 --log "$tmp/run.log" >/dev/null
grep '^\[bench\]' "$tmp/run.log" | sed 's/^\[bench\] /  /'
echo "  goal: QUERY_PROTOCOL / bare world switch < 1.3"
# The SVSM's own exits per call (the machine's instrument): the
# run-VMPL VMGEXIT that ends each call, and under QEMU the GHCB MSR
# accesses around it, which SNP hardware keeps in the VMSA.
sed -n 's/^emu: bench: SVSM call 0:6 (core QUERY_PROTOCOL): \([0-9]*\), [0-9]* TSC cycles, \([0-9]*\) VMPL0 exits$/\1 \2/p' \
	"$tmp/run.log" | awk '{ printf "  the SVSM'"'"'s exits per QUERY_PROTOCOL: %.2f (%d calls)\n", $2 / $1, $1 }'
grep '^emu: bench: VMPL0 exits 0x' "$tmp/run.log" | sed 's/^emu: bench: /  the whole run: /'
scripts/bench-reset-to-guest.sh "$tmp/run.log"

text=$(size -A "$fw" | awk '$1 == ".text" || $1 == ".rodata" { s += $2 } END { print s }')
data=$(size -A "$fw" | awk '$1 == ".data" || $1 == ".bss" { s += $2 } END { print s }')
echo "snp firmware: $(stat -c %s "$fw") bytes ELF; code+rodata $text" \
	"bytes, data+bss $data bytes; image $(stat -c %s "$image") bytes"

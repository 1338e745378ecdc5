#!/usr/bin/env bash
# Boot the emu firmware under QEMU (TCG, an SVM-capable CPU model) with the
# built-in test guest at VMPL1, and report how it ended.
#   scripts/emu-run.sh [--smp N] [--mem SIZE] [--timeout S] [--check]
#                      [--log FILE] [-- EXTRA-QEMU-ARGS...]
# The guest ends the VM through isa-debug-exit: QEMU's status is
# (value << 1) | 1, so 33 = guest passed, 35 = guest failed, 37 = guest
# asked to terminate, 253 = SVSM terminated, 255 = SVSM panic (layout.h).
# --check exits non-zero unless the guest passed with "0 failed".
set -uo pipefail

smp=1
mem=256M
timeout_s=120
check=0
log=""
fw=build/emu/csvsm-emu.elf
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--check) check=1; shift ;;
	--log) log=$2; shift 2 ;;
	--) shift; break ;;
	*) echo "emu-run: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ -n "$log" ] || log=build/emu/run-smp$smp.log
mkdir -p "$(dirname "$log")"

# EPYC has SVM, nested paging, XSAVE/AVX and RDRAND; the features TCG
# cannot provide are taken out so the guest-visible CPUID is honest.
cpu=EPYC,-rdseed,-sha-ni,-fxsr-opt,-misalignsse,-3dnowprefetch,-osvw
cpu=$cpu,-topoext,-nrip-save,-xsavec

start=$(date +%s.%N)
timeout --foreground -k 5 "$timeout_s" \
	qemu-system-x86_64 -machine q35 -accel tcg -cpu "$cpu" \
	-smp "$smp" -m "$mem" -display none -serial stdio -monitor none \
	-no-reboot -nodefaults -kernel "$fw" \
	-device isa-debug-exit,iobase=0xf4,iosize=0x04 "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
end=$(date +%s.%N)
secs=$(awk -v a="$start" -v b="$end" 'BEGIN { printf "%.1f", b - a }')

case $status in
33) what="guest passed" ;;
35) what="guest reported failures" ;;
37) what="guest terminated itself" ;;
124 | 137) what="timeout after ${timeout_s}s" ;;
253) what="SVSM terminated" ;;
255) what="SVSM panic" ;;
*) what="QEMU exited with status $status" ;;
esac
echo "emu-run: -smp $smp: $what (${secs}s)"
if [ $check -eq 1 ]; then
	if [ "$status" -ne 33 ] || ! grep -q '\] [0-9]* passed, 0 failed' "$log"; then
		echo "emu-run: FAILED (log: $log)" >&2
		exit 1
	fi
fi
exit 0

#!/usr/bin/env bash
# make bench, Linux part: Debian's kernel and the kit's initramfs
# (make linux) on csvsm in the emulated SEV-SNP machine
# (build/csvsm-linux.igvm, QEMU TCG) and, in the same run, the same kernel
# and initramfs on plain QEMU without SEV (scripts/linux-baseline.sh),
# both at -smp 2. Prints for each the wall clock from QEMU's start to the
# self-test's start marker ("csvsm-selftest: start ... at U s uptime")
# and the guest's own uptime there, and their ratios; then what the
# machine's bench instrument (emu/src/instrument.c) counted until the
# power-off: SVSM calls by protocol and call, TSC cycles at VMPL0 (the
# SVSM), VMPL1 (Linux), in the machine's own work outside VMRUN and idle,
# and the cycles from reset to the first VMRUN of VMPL0 and of VMPL1.
# Times vary with the host's load; the ratios of one run much less.
#   bench-linux.sh [--smp N] [--image IGVM]
set -euo pipefail

smp=2
image=build/csvsm-linux.igvm
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	*) echo "bench-linux: unknown argument $1" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b != 0 ? a / b : 0 }'; }
uptime_of() {
	sed -n 's/^.*csvsm-selftest: start (.*) at \([0-9.]*\) s uptime.*$/\1/p' "$1" |
		head -n1
}

echo "Linux to the self-test's start, -smp $smp, QEMU TCG (same run)"
scripts/linux-baseline.sh --smp "$smp" --log "$tmp/baseline.log" >"$tmp/baseline.out"
base_wall=$(sed -n 's/^.*self-test start \([0-9.]*\) s after.*$/\1/p' "$tmp/baseline.out")
base_off=$(sed -n 's/^.*power-off at \([0-9.]*\) s;.*$/\1/p' "$tmp/baseline.out")
base_up=$(uptime_of "$tmp/baseline.log")

# The wall clock of the marker as the output shows it; the relying party
# (scripts/linux-relying-party.sh) answers the self-test's credential
# request, as in make check.
t0=$EPOCHREALTIME
t_start=""
while IFS= read -r line; do
	if [ -z "$t_start" ] && [[ $line == *"csvsm-selftest: start"* ]]; then
		t_start=$EPOCHREALTIME
	fi
done < <(scripts/linux-relying-party.sh --image "$image" --smp "$smp" --timeout 300 \
	--expect 245 --log "$tmp/emu.log" 2>&1)
t_end=$EPOCHREALTIME
log=$tmp/emu.log
result=$(tr -d '\r' <"$log" | grep -oE '[0-9]+ passed, [0-9]+ failed$' | tail -n1 || true)
if [ -z "$t_start" ] || [[ $result != *" 0 failed" ]] ||
	! grep -q '^emu: bench: all vCPUs' "$log"; then
	echo "bench-linux: FAILED: the self-test did not start, pass and power off" >&2
	grep -E '^emu: |FAIL' "$log" | tail -n 20 >&2
	exit 1
fi
emu_wall=$(secs "$t0" "$t_start")
emu_off=$(secs "$t0" "$t_end")
emu_up=$(uptime_of "$log")
printf '  %-26s %8s %14s %12s\n' "" "wall (s)" "guest uptime" "power-off"
printf '  %-26s %8s %14s %12s\n' "without SEV (plain QEMU)" "$base_wall" "$base_up" "$base_off"
printf '  %-26s %8s %14s %12s\n' "csvsm, SEV-SNP VMPL1 (emu)" "$emu_wall" "$emu_up" "$emu_off"
echo "  csvsm / without SEV: wall $(ratio "$emu_wall" "$base_wall")," \
	"guest uptime $(ratio "$emu_up" "$base_up"); self-test: $result"

echo "SVSM calls until power-off (the machine's instrument: VMPL1's RAX" \
	"at each request to run VMPL0), with the TSC cycles from Linux's exit" \
	"to its next VMRUN on that vCPU and the SVSM's exits meanwhile"
printf '  %-26s %6s %14s %12s %10s\n' "" calls "TSC cycles" "per call" "exits/call"
sed -n 's/^emu: bench: SVSM call [0-9]*:[0-9]* (\(.*\)): \([0-9]*\), \([0-9]*\) TSC cycles, \([0-9]*\) VMPL0 exits$/\2 \3 \4 \1/p' "$log" |
	sort -k2,2nr | awk '{ n = $1; c = $2; e = $3; $1 = $2 = $3 = ""
		printf "  %-26s %6d %14.0f %12.0f %10.1f\n", substr($0, 4), n, c, c / n, e / n
		tn += n; tc += c; te += e }
	END { printf "  %-26s %6d %14.0f %12.0f %10.1f\n", "all", tn, tc, tn ? tc / tn : 0, tn ? te / tn : 0 }'
grep '^emu: bench: SVSM calls of other kinds' "$log" | sed 's/^emu: bench: /  /' || true

echo "TSC cycles until power-off, shares (VMPL0 = the SVSM, VMPL1 = Linux," \
	"machine = the emulated hardware, PSP and KVM outside VMRUN)"
sed -n 's/^emu: bench: \(.*\) TSC cycles: VMPL0 \([0-9]*\), VMPL1 \([0-9]*\), machine \([0-9]*\), idle \([0-9]*\), total \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' "$log" |
	sed 's/^all vCPUs/all/; s/^vCPU /vCPU/' |
	awk '{ busy = $2 + $3 + $4
		printf "  %-6s VMPL0 %5.1f%%  VMPL1 %5.1f%%  machine %5.1f%%  idle %5.1f%%" \
			"  (of %.2fe9); SVSM / busy %.1f%%\n", $1,
			100 * $2 / $6, 100 * $3 / $6, 100 * $4 / $6, 100 * $5 / $6,
			$6 / 1e9, busy ? 100 * $2 / busy : 0 }'

# The same with the SVSM's boot (until VMPL1's first VMRUN, on the CPU
# that ran it; the others wait idle) taken out: the SVSM serving Linux.
echo "  the same from VMPL1's first VMRUN on (the SVSM's boot taken out):"
boot=$(sed -n "s/^emu: bench: vCPU \([0-9]*\) before VMPL1's first VMRUN: VMPL0 \([0-9]*\), machine \([0-9]*\), idle \([0-9]*\)$/\1 \2 \3 \4/p" "$log" | head -n1)
sed -n 's/^emu: bench: \(.*\) TSC cycles: VMPL0 \([0-9]*\), VMPL1 \([0-9]*\), machine \([0-9]*\), idle \([0-9]*\), total \([0-9]*\)$/\1 \2 \3 \4 \5 \6/p' "$log" |
	sed 's/^all vCPUs/all/; s/^vCPU /vCPU/' |
	awk -v boot="$boot" 'BEGIN { split(boot, b, " ") }
	$1 == "vCPU" b[1] || $1 == "all" {
		v0 = $2 - b[2]; m = $4 - b[3]; idle = $5 - b[4]
		t = v0 + $3 + m + idle; busy = v0 + $3 + m
		printf "  %-6s VMPL0 %5.1f%%  VMPL1 %5.1f%%  machine %5.1f%%  idle %5.1f%%" \
			"  (of %.2fe9); SVSM / busy %.1f%%\n", $1,
			100 * v0 / t, 100 * $3 / t, 100 * m / t, 100 * idle / t,
			t / 1e9, busy ? 100 * v0 / busy : 0 }'

scripts/bench-reset-to-guest.sh "$log"

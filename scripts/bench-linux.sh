#!/usr/bin/env bash
# make bench, Linux part: Debian's kernel and the kit's initramfs
# (make linux) on csvsm in the emulated SEV-SNP machine
# (build/csvsm-linux.igvm, QEMU TCG) and, in the same run, the same kernel
# and initramfs on plain QEMU without SEV (scripts/linux-baseline.sh),
# both at -smp 2. Prints for each the wall clock from QEMU's start to the
# self-test's start marker ("csvsm-selftest: start ... at U s uptime")
# and the guest's own uptime there, and their ratios; then what the
# machine's bench instrument (emu/src/hw/instrument.c) counted until the
# power-off: SVSM calls by protocol and call, TSC cycles at VMPL0 (the
# SVSM), VMPL1 (Linux), in the machine's own work outside VMRUN and idle,
# and the cycles from reset to the first VMRUN of VMPL0 and of VMPL1;
# the known shares of the SVSM's boot (the vTPM's start and EK, the
# measured boot, fw_cfg) from its log, and each call's SVSM exits by
# whose they are (csvsm's, the machine's, the host's).
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
	--expect GUEST_POWEROFF --log "$tmp/emu.log" 2>&1)
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
	"guest uptime $(ratio "$emu_up" "$base_up") (goal: 1.5 or better);" \
	"self-test: $result"

# The known shares of the SVSM's boot before Linux's first instruction,
# from its own log (plat_clock_ns) and the machine's instrument: the
# vTPM's manufacture and its EK, the measured boot (each range hashed in
# every PCR bank) and QEMU's ACPI tables read through fw_cfg.
khz=$(sed -n 's/^emu: bench: first VMRUN at TSC: .* TSC \([0-9]*\) kHz)$/\1/p' "$log" | head -n1)
svsm_boot=$(sed -n "s/^emu: bench: vCPU [0-9]* before VMPL1's first VMRUN: VMPL0 \([0-9]*\), .*$/\1/p" "$log" | head -n1)
svsm_machine=$(sed -n "s/^emu: bench: vCPU [0-9]* before VMPL1's first VMRUN: VMPL0 [0-9]*, machine \([0-9]*\), .*$/\1/p" "$log" | head -n1)
us() { sed -n "s/^.*$1.*$/\1/p" "$log" | head -n1; }
tpm_start=$(us 'vtpm: .* started, EK at .*; \([0-9]*\) us to manufacture.*')
tpm_ek=$(us 'vtpm: .* started, EK at .*, \([0-9]*\) us for the EK')
m_kernel=$(us 'snp: Linux: measured csvsm:[a-z]*linux, [0-9]* bytes in every PCR bank, \([0-9]*\) us')
m_initrd=$(us 'snp: Linux: measured csvsm:initrd, [0-9]* bytes in every PCR bank, \([0-9]*\) us')
b_kernel=$(us 'snp: Linux: measured csvsm:[a-z]*linux, \([0-9]*\) bytes in.*')
b_initrd=$(us 'snp: Linux: measured csvsm:initrd, \([0-9]*\) bytes in.*')
fwcfg=$(us 'acpi: QEMU.s tables .* fw_cfg bytes in [0-9]* exits, \([0-9]*\) us')
fwcfg_exits=$(us 'acpi: QEMU.s tables .* fw_cfg bytes in \([0-9]*\) exits.*')
# The SVSM's clock (plat_clock_ns) is the TSC's ticks taken as ns, so
# its "us" are thousands of TSC cycles: milliseconds at the TSC's rate.
ms() { awk -v u="${1:-0}" -v k="${khz:-1}" 'BEGIN { printf "%.0f ms", u * 1000 / k }'; }
boot_ms=$(awk -v c="${svsm_boot:-0}" -v m="${svsm_machine:-0}" -v k="${khz:-1}" \
	'BEGIN { printf "%.0f", (c + m) / k }')
echo "  the SVSM's boot before Linux: $boot_ms ms (VMPL0 and the machine's" \
	"work for it); known shares:" \
	"vTPM manufacture and start $(ms "$tpm_start"), its EK $(ms "$tpm_ek")," \
	"measured boot (every PCR bank): kernel $(ms "$m_kernel")" \
	"($((${b_kernel:-0} / 1048576)) MiB), initrd $(ms "$m_initrd")" \
	"($((${b_initrd:-0} / 1048576)) MiB), ACPI tables through fw_cfg" \
	"$(ms "$fwcfg") (${fwcfg_exits:-?} exits)"
echo "  csvsm / without SEV, wall, the SVSM's boot taken out:" \
	"$(awk -v w="$emu_wall" -v b="$boot_ms" -v x="$base_wall" \
		'BEGIN { printf "%.2f", x ? (w - b / 1000) / x : 0 }')"

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

# Each call's SVSM exits by whose they are: csvsm's own VMGEXITs (the
# run-VMPL that ends every call, which hardware needs too, and any other
# request to the hypervisor), the machine's (the GHCB MSR's RDMSR and
# WRMSR around each VMGEXIT, which SNP hardware keeps in the VMSA without
# an exit, and instructions QEMU lacks, emulated through #UD) and the
# host's interrupts. Goal for a vTPM command: 1 exit, csvsm's VMGEXIT.
echo "SVSM exits per call, by whose (csvsm's VMGEXITs; the machine's:" \
	"GHCB MSR accesses hardware keeps in the VMSA, emulated instructions;" \
	"the host's interrupts)"
printf '  %-26s %8s %10s %9s %9s %8s\n' "" csvsm "GHCB MSR" emulated interrupt other
sed -n 's/^emu: bench: SVSM call [0-9]*:[0-9]* (\(.*\)): \([0-9]*\), [0-9]* TSC cycles, [0-9]* VMPL0 exits$/\2 \1/p' "$log" |
	sort -k1,1nr | while read -r n name; do
		own=0 msr=0 emu=0 intr=0 other=0
		while read -r code cnt; do
			case $((16#$code)) in
			129) own=$((own + cnt)) ;;   # VMMCALL: csvsm's VMGEXIT
			124) msr=$((msr + cnt)) ;;   # MSR: the GHCB MSR
			96) intr=$((intr + cnt)) ;;  # INTR: the host's
			6[4-9] | [78][0-9] | 9[0-5]) # an exception: emulation
				emu=$((emu + cnt)) ;;
			*) other=$((other + cnt)) ;;
			esac
		done < <(sed -n "s/^emu: bench: VMPL0 exits in SVSM call [0-9]*:[0-9]* ($name) 0x\([0-9a-f]*\) (.*): \([0-9]*\)$/\1 \2/p" "$log")
		goal=""
		[ "$name" != "vtpm CMD" ] || goal="   (goal: 1, csvsm's)"
		awk -v n="$n" -v name="$name" -v g="$goal" -v a="$own" -v b="$msr" \
			-v c="$emu" -v d="$intr" -v e="$other" 'BEGIN {
			printf "  %-26s %8.2f %10.2f %9.2f %9.2f %8.2f%s\n", name,
				a / n, b / n, c / n, d / n, e / n, g }'
	done

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

#!/usr/bin/env bash
# make bench, UEFI part (docs/uefi.md): Debian's kernel and the kit's
# initramfs booted three ways in one run, one machine at a time, all at
# the same -smp and memory:
#   plain OVMF  OVMF 2026.08 (build/ovmf/2026.08/OVMF.fd) on plain QEMU
#               TCG without SEV (-bios, -kernel, -initrd, -append), the
#               self-test in its no-SEV mode with scripts/linux-baseline.sh's
#               command line;
#   direct      csvsm boots the kernel itself (build/csvsm-linux.igvm);
#   UEFI        csvsm launches the same OVMF at VMPL1, which boots the kernel
#               from the host's fw_cfg (build/csvsm-uefi.igvm, the command
#               line of build/uefi/cmdline-firmware), as make uefi-check.
# On csvsm the relying party (scripts/linux-relying-party.sh) answers the
# self-test's credential request, as in make check and bench-linux.sh.
# Prints the wall clock from QEMU's start to the self-test's start marker
# and to its result line ("N passed, M failed"), the guest's uptime at
# both, the time before Linux's clock started (wall - uptime at the
# marker: firmware, kernel loading and decompression) split at the
# machine's TSC at the SVSM's and at VMPL1's first instruction, with the
# ratios UEFI / direct and UEFI / plain OVMF; then the SVSM calls the
# guest made until power-off by kind (the machine's instrument, docs/emu.md
# "Benchmarks"), UEFI beside direct, with the PVALIDATE pages they took
# (direct: the SVSM validated all RAM before Linux, so UEFI - direct is
# OVMF's pre-validation and Linux's lazy acceptance), and where the
# cycles went. Logs in build/bench-uefi/.
# --max-ram-below-4g SIZE: q35's limit for the two OVMF boots (plain QEMU's
# machine property, emu-run.sh's option), so RAM lies above 4 GiB, which
# OVMF 2026.08 leaves unaccepted for Linux's lazy acceptance; the UEFI
# line then says csvsm.accept=lazy (the self-test checks it, mk/uefi.mk).
# Without it all RAM lies below 4 GiB and OVMF accepts it all.
# Times vary with the host's load; the ratios of one run much less.
#   bench-uefi.sh [--smp N] [--mem SIZE] [--max-ram-below-4g SIZE] [--logs DIR]
set -euo pipefail
# TCG threads as scripts/emu-run.sh runs the machine (CSVSM_TCG_THREAD),
# so a ratio compares like with like.
tcg_thread=${CSVSM_TCG_THREAD:-single}

smp=1
mem=1G
max_low=""
logs=build/bench-uefi
kernel=build/linux/vmlinuz
initrd=build/linux/initrd.img
ovmf=build/ovmf/2026.08/OVMF.fd
uefi_image=build/csvsm-uefi.igvm
direct_image=build/csvsm-linux.igvm
uefi_cmdline_file=build/uefi/cmdline-firmware
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--max-ram-below-4g) max_low=$2; shift 2 ;;
	--logs) logs=$2; shift 2 ;;
	*) echo "bench-uefi: unknown argument $1" >&2; exit 2 ;;
	esac
done
for f in "$kernel" "$initrd" "$ovmf" "$uefi_image" "$direct_image" \
	"$uefi_cmdline_file" build/machine/emu.elf; do
	[ -f "$f" ] || { echo "bench-uefi: $f missing (make bench builds it)" >&2; exit 2; }
done
rm -rf "$logs"
mkdir -p "$logs"
# make uefi-check's line, lazy acceptance as --max-ram-below-4g says.
uefi_cmdline=$(sed 's/ *csvsm\.accept=[^ ]*//' "$uefi_cmdline_file")
plain_machine=q35
uefi_low=()
if [ -n "$max_low" ]; then
	uefi_cmdline="$uefi_cmdline csvsm.accept=lazy"
	plain_machine=q35,max-ram-below-4g=$max_low
	uefi_low=(--max-ram-below-4g "$max_low")
fi
# linux-baseline.sh's line: the SNP line in no-SEV mode, without the
# option only the SNP line has (no_timer_check) and the firmware
# measurement and acceptance the no-SEV mode does not check.
plain_cmdline=$(printf '%s\n' "$uefi_cmdline" | sed -e 's/csvsm\.test=[^ ]*/csvsm.test=nosev/' \
	-e 's/ *csvsm\.\(measured\|accept\)=[^ ]*//g; s/ *no_timer_check//')

secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b - a }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }'; }
fail() {
	echo "bench-uefi: FAILED: $*" >&2
	exit 1
}

# timed NAME CMD...: runs CMD (a boot whose output is the guest's console)
# and keeps its output as $logs/NAME.out; wall[NAME,start], [NAME,result]
# and [NAME,end] are the seconds from CMD's start to the self-test's start
# marker, its result line and CMD's end; status[NAME] CMD's status.
declare -A wall status
timed() {
	local name=$1 t0 ts="" tr="" line
	shift
	t0=$EPOCHREALTIME
	while IFS= read -r line || [ -n "$line" ]; do
		line=${line%$'\r'}
		printf '%s\n' "$line" >>"$logs/$name.out"
		if [ -z "$ts" ] && [[ $line == *"csvsm-selftest: start ("* ]]; then
			ts=$EPOCHREALTIME
		elif [ -z "$tr" ] && [[ $line =~ [0-9]+\ passed,\ [0-9]+\ failed$ ]]; then
			tr=$EPOCHREALTIME
		fi
	done < <("$@" </dev/null 2>&1; echo "bench-uefi-status $?")
	wall[$name,end]=$(secs "$t0" "$EPOCHREALTIME")
	wall[$name,start]=-
	wall[$name,result]=-
	[ -z "$ts" ] || wall[$name,start]=$(secs "$t0" "$ts")
	[ -z "$tr" ] || wall[$name,result]=$(secs "$t0" "$tr")
	status[$name]=$(sed -n 's/^bench-uefi-status //p' "$logs/$name.out" | tail -n1)
}

# shellcheck source=scripts/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"
cpu=$QEMU_CPU_PLAIN
plain_qemu() {
	timeout --foreground -k 5 300 qemu-system-x86_64 \
		-machine "$plain_machine" -accel "tcg,thread=$tcg_thread" -cpu "$cpu" -smp "$smp" -m "$mem" \
		-display none -serial stdio -monitor none -nodefaults -no-reboot \
		-bios "$ovmf" -kernel "$kernel" -initrd "$initrd" -append "$plain_cmdline"
}
on_csvsm() { # NAME IMAGE [EMU-RUN-ARGS...]
	local name=$1 image=$2
	shift 2
	scripts/linux-relying-party.sh --rp "$logs/$name-rp" --image "$image" \
		--smp "$smp" --mem "$mem" --timeout 600 \
		--expect GUEST_POWEROFF \
		--log "$logs/$name.log" "$@"
}

timed plain plain_qemu
timed direct on_csvsm direct "$direct_image"
timed uefi on_csvsm uefi "$uefi_image" "${uefi_low[@]}" --guest-kernel "$kernel" \
	--guest-initrd "$initrd" --guest-append "$uefi_cmdline"
cp "$logs/plain.out" "$logs/plain.log"

# Each boot must have reached the self-test, passed it and powered off
# (status 0: QEMU's for the plain boot, else emu-run.sh's --expect
# GUEST_POWEROFF);
# the UEFI boot through OVMF (the SVSM granted it the firmware).
result_of() { grep -aoE '[0-9]+ passed, [0-9]+ failed$' "$1" | tail -n1 || true; }
for n in plain direct uefi; do
	r=$(result_of "$logs/$n.log")
	if [ "${status[$n]}" != 0 ] || [ "${wall[$n,start]}" = - ] ||
		[[ $r != *" 0 failed" ]]; then
		grep -aE '^(FAIL|emu:|emu-run:|linux-relying-party:)' "$logs/$n.log" | tail -n 20 >&2
		fail "the $n boot: status ${status[$n]}, self-test '${r:-no result}' (log: $logs/$n.log)"
	fi
done
grep -aq 'csvsm-selftest: start (nosev)' "$logs/plain.log" || fail "the plain boot was not in no-SEV mode"
grep -aq 'snp: guest firmware at' "$logs/uefi.log" || fail "the UEFI boot had no guest firmware"
for n in direct uefi; do
	grep -aq '^emu: bench: all vCPUs' "$logs/$n.log" || fail "the $n boot has no bench lines"
done

uptime_at() { # LOG WHAT(start|end)
	tr -d '\r' <"$1" | sed -n "s/^.*csvsm-selftest: $2 .*at \([0-9.]*\) s uptime$/\1/p" | head -n1
}
# The TSC at the first VMRUN of VMPL0 and VMPL1, in ms from reset.
first_vmrun_ms() { # LOG VMPL
	sed -n 's/^emu: bench: first VMRUN at TSC: VMPL0 \([0-9]*\), VMPL1 \([0-9]*\) (from reset; TSC \([0-9]*\) kHz)$/\1 \2 \3/p' "$1" |
		head -n1 | awk -v v="$2" '{ printf "%.2f", (v == 0 ? $1 : $2) / $3 / 1000 }'
}
declare -A up_start up_end before v0 v1
for n in plain direct uefi; do
	up_start[$n]=$(uptime_at "$logs/$n.log" start)
	up_end[$n]=$(uptime_at "$logs/$n.log" end)
	before[$n]=$(secs "${up_start[$n]}" "${wall[$n,start]}")
	v0[$n]=-
	v1[$n]=-
done
for n in direct uefi; do
	v0[$n]=$(first_vmrun_ms "$logs/$n.log" 0)
	v1[$n]=$(first_vmrun_ms "$logs/$n.log" 1)
done
# From the guest's first instruction (VMPL1's; without SEV OVMF's at
# reset) to Linux's clock: the firmware, kernel loading, decompression.
declare -A after
after[plain]=${before[plain]}
for n in direct uefi; do
	after[$n]=$(secs "${v1[$n]}" "${before[$n]}")
done
khz=$(sed -n 's/^emu: bench: first VMRUN at TSC: .* TSC \([0-9]*\) kHz)$/\1/p' "$logs/uefi.log" | head -n1)

echo "UEFI on csvsm: Debian's kernel and initramfs, -smp $smp, $mem${max_low:+ (OVMF boots: max-ram-below-4g $max_low)}, QEMU TCG (same run)"
echo "  plain OVMF = OVMF 2026.08 without SEV; direct = csvsm boots the kernel;"
echo "  UEFI = csvsm launches OVMF 2026.08 at VMPL1, which boots the kernel (s)"
row() { # LABEL KEY-PREFIX...
	local label=$1 p=${2-} d=${3-} u=${4-}
	printf '  %-34s %7s %7s %7s %8s %8s\n' "$label" "$p" "$d" "$u" \
		"$(ratio "$u" "$d")" "$(ratio "$u" "$p")"
}
printf '  %-34s %7s %7s %7s %8s %8s\n' "" plain direct UEFI UEFI/dir UEFI/pl
row "wall: QEMU start to self-test start" "${wall[plain,start]}" "${wall[direct,start]}" "${wall[uefi,start]}"
row "wall: QEMU start to result line" "${wall[plain,result]}" "${wall[direct,result]}" "${wall[uefi,result]}"
row "wall: QEMU start to power-off" "${wall[plain,end]}" "${wall[direct,end]}" "${wall[uefi,end]}"
row "guest uptime at self-test start" "${up_start[plain]}" "${up_start[direct]}" "${up_start[uefi]}"
row "guest uptime at self-test end" "${up_end[plain]}" "${up_end[direct]}" "${up_end[uefi]}"
row "before Linux's clock (wall-uptime)" "${before[plain]}" "${before[direct]}" "${before[uefi]}"
row "  reset to the SVSM (TSC)" - "${v0[direct]}" "${v0[uefi]}"
row "  reset to VMPL1's first insn (TSC)" - "${v1[direct]}" "${v1[uefi]}"
row "  VMPL1's first insn to Linux's clock" "${after[plain]}" "${after[direct]}" "${after[uefi]}"
for n in plain direct uefi; do
	printf '  %-6s self-test: %s\n' "$n" "$(result_of "$logs/$n.log")"
done
echo "  (on csvsm the self-test runs the attestation and TPM checks and waits"
echo "  for the relying party; without SEV it skips them: compare the result"
echo "  line's ratio UEFI / direct, and UEFI / plain at the start marker)"

# The SVSM calls by kind, UEFI beside direct; PVALIDATE counts calls, and
# the VMPL0 exits beyond the 3 that end every call (the run-VMPL VMGEXIT,
# two GHCB MSR accesses) are its emulated PVALIDATEs, one per 4 KiB or
# 2 MiB page (docs/emu.md, "Benchmarks").
calls() {
	sed -n 's/^emu: bench: SVSM call \([0-9]*:[0-9]*\) (\(.*\)): \([0-9]*\), \([0-9]*\) TSC cycles, \([0-9]*\) VMPL0 exits$/\1|\2|\3|\4|\5/p' "$1"
}
echo "SVSM calls until power-off (the machine's instrument), UEFI beside direct:"
echo "  calls, TSC cycles from the guest's request to its next VMRUN, and the"
echo "  SVSM's exits per call"
{
	calls "$logs/uefi.log" | sed 's/^/uefi|/'
	calls "$logs/direct.log" | sed 's/^/direct|/'
} | awk -F'|' -v khz="$khz" '
	{ k = $2 "|" $3; if (!(k in seen)) { seen[k] = 1; order[++n] = k }
	  c[$1, k] = $4; cy[$1, k] = $5; ex[$1, k] = $6 }
	function cell(r, k) {
		if (!c[r, k]) return sprintf("%6s %14s %7s", "-", "-", "-")
		return sprintf("%6d %14.0f %7.1f", c[r, k], cy[r, k], ex[r, k] / c[r, k])
	}
	END {
		printf "  %-30s %6s %14s %7s | %6s %14s %7s\n", "", "UEFI", "cycles",
			"ex/call", "direct", "cycles", "ex/call"
		for (i = 1; i <= n; i++) {
			k = order[i]; split(k, p, "|")
			printf "  %-30s %s | %s\n", p[1] " " p[2], cell("uefi", k), cell("direct", k)
			tu += c["uefi", k]; tyu += cy["uefi", k]
			td += c["direct", k]; tyd += cy["direct", k]
			if (p[2] ~ /PVALIDATE$/) {
				pu = ex["uefi", k] - 3 * c["uefi", k]
				pd = ex["direct", k] - 3 * c["direct", k]
				dc = c["uefi", k] - c["direct", k]
				dy = cy["uefi", k] - cy["direct", k]
			}
		}
		printf "  %-30s %6d %14.0f %7s | %6d %14.0f %7s\n", "all", tu, tyu, "", td, tyd, ""
		printf "  PVALIDATE pages (VMPL0 exits beyond 3 a call): UEFI about %d, direct about %d\n", pu, pd
		printf "  PVALIDATE, UEFI - direct: %d calls, about %d pages, %.0f TSC cycles (%.0f ms)\n",
			dc, pu - pd, dy, khz ? dy / khz : 0
	}'
grep -h '^emu: bench: SVSM calls of other kinds' "$logs/uefi.log" "$logs/direct.log" |
	sed 's/^emu: bench: /  /' || true
for n in uefi direct; do
	printf '  %-6s VMPL0 #UD exits (emulated PVALIDATE/RMPADJUST, the SVSM'"'"'s boot too): %s\n' \
		"$n" "$(sed -n 's/^emu: bench: VMPL0 exits 0x46 (.*): \([0-9]*\)$/\1/p' "$logs/$n.log")"
done
# OVMF leaves RAM it did not accept to Linux's lazy acceptance through
# EFI's unaccepted-memory table, which Linux's "efi:" line of configuration
# tables names (the self-test prints it: it names the TPM's event logs).
efi=$(tr -d '\r' <"$logs/uefi.log" | grep -aoE 'efi: .*ACPI=.*' | head -n1 || true)
if [ -z "$efi" ]; then
	echo "  UEFI: no 'efi:' tables line in the log: who accepted RAM is not known"
elif [[ $efi == *Unaccepted=* ]]; then
	echo "  UEFI: OVMF left RAM unaccepted (Linux accepts it lazily): ${efi}"
else
	echo "  UEFI: no unaccepted-memory table: OVMF accepted all RAM before Linux"
fi
echo "TSC cycles until power-off (VMPL0 = the SVSM, VMPL1 = OVMF and Linux,"
echo "  or Linux; machine = the emulated hardware, PSP and KVM)"
for n in uefi direct; do
	sed -n 's/^emu: bench: all vCPUs TSC cycles: VMPL0 \([0-9]*\), VMPL1 \([0-9]*\), machine \([0-9]*\), idle \([0-9]*\), total \([0-9]*\)$/\1 \2 \3 \4 \5/p' "$logs/$n.log" |
		awk -v n="$n" '{ busy = $1 + $2 + $3
			printf "  %-6s VMPL0 %5.1f%%  VMPL1 %5.1f%%  machine %5.1f%%  idle %5.1f%%" \
				"  (of %.2fe9); SVSM / busy %.1f%%\n", n,
				100 * $1 / $5, 100 * $2 / $5, 100 * $3 / $5, 100 * $4 / $5,
				$5 / 1e9, busy ? 100 * $1 / busy : 0 }'
done
echo "  logs: $logs/{plain,direct,uefi}.log"

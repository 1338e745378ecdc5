#!/usr/bin/env bash
# make bench, Linux's TPM part: TPM commands from inside Debian's Linux
# (test/linux/csvsm-tpmbench in the kit's initramfs, csvsm.test=tpmbench)
# on csvsm's vTPM, Linux at VMPL1 in the emulated SEV-SNP machine
# (build/csvsm-linux-tpmbench.igvm, tpm_svsm), and, in the same run, the
# same kernel and initramfs on plain QEMU with swtpm on QEMU's tpm-crb
# device (scripts/linux-baseline.sh --swtpm, tpm_crb), both at -smp 2 on
# the same QEMU. Both TPMs are Debian's libtpms.
# Prints per command: the time of one tpm2-tools run (N runs timed
# together by the guest's uptime clock) and the tools' start-up alone
# (tpm2_print, no TPM command); the raw round trip of single commands
# (tpm-rtt, median), each with csvsm / swtpm; then the SVSM's side from
# the machine's instrument: vTPM CMD calls and the cycles from each
# request to Linux's next VMRUN. Start-up is most of a tools run and
# varies by more than the TPM's share, so no difference is printed: the
# raw round trip is the TPM's figure.
# Times vary with the host's load; the ratios of one run much less.
#   bench-linux-tpm.sh [--smp N] [--image IGVM]
set -euo pipefail

smp=2
image=build/csvsm-linux-tpmbench.igvm
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=$2; shift 2 ;;
	--image) image=$2; shift 2 ;;
	*) echo "bench-linux-tpm: unknown argument $1" >&2; exit 2 ;;
	esac
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "bench-linux-tpm: FAILED: $1" >&2
	grep -aE '^(FAIL|emu: |csvsm-init: )' "$2" | tail -n 20 >&2
	exit 1
}
passed() { tr -d '\r' <"$1" | grep -qE '^[1-9][0-9]* passed, 0 failed$'; }

# The baseline's line is the image's with the tpmbench mode (the same
# options but SEV's, as scripts/linux-baseline.sh's own).
cmdline=$(tr -d '\0' <build/linux/cmdline-tpmbench 2>/dev/null || true)
[ -n "$cmdline" ] || { echo "bench-linux-tpm: build/linux/cmdline-tpmbench missing" >&2; exit 2; }
cmdline=${cmdline/ no_timer_check/}

echo "TPM commands from inside Linux, -smp $smp, QEMU TCG (same run):" \
	"csvsm's vTPM (tpm_svsm) against swtpm on QEMU's tpm-crb (tpm_crb)"
scripts/linux-baseline.sh --smp "$smp" --swtpm --cmdline "$cmdline" \
	--log "$tmp/swtpm.log" >/dev/null || fail "the swtpm baseline" "$tmp/swtpm.log"
scripts/emu-run.sh --image "$image" --smp "$smp" --timeout 600 \
	--expect GUEST_POWEROFF \
	--log "$tmp/emu.log" >/dev/null 2>&1 || fail "the csvsm run" "$tmp/emu.log"
for f in swtpm emu; do
	passed "$tmp/$f.log" || fail "csvsm-tpmbench did not pass ($f)" "$tmp/$f.log"
done
grep -aq 'TPM device platform:tpm-svsm' "$tmp/emu.log" ||
	fail "the csvsm run's TPM is not tpm_svsm" "$tmp/emu.log"
grep -aq 'TPM device acpi:MSFT0101' "$tmp/swtpm.log" ||
	fail "the baseline's TPM is not tpm_crb's" "$tmp/swtpm.log"

# "NAME N S" per tools line, "NAME MEDIAN" per tpm-rtt line.
tools_of() {
	tr -d '\r' <"$1" |
		sed -n 's/^csvsm-tpmbench: \([a-z-]*\): \([0-9]*\) runs in \([0-9.]*\) s$/\1 \2 \3/p'
}
rtt_of() {
	tr -d '\r' <"$1" |
		sed -n 's/^tpm-rtt: \([a-z]*\): [0-9]* commands, .* median \([0-9]*\) us, .*$/\1 \2/p'
}
tools_of "$tmp/emu.log" >"$tmp/emu.tools"
tools_of "$tmp/swtpm.log" >"$tmp/swtpm.tools"
rtt_of "$tmp/emu.log" >"$tmp/emu.rtt"
rtt_of "$tmp/swtpm.log" >"$tmp/swtpm.rtt"

awk 'FNR == 1 { f++ }
	f == 1 { n[$1] = $2; e[$1] = 1000 * $3 / $2 }
	f == 2 { s[$1] = 1000 * $3 / $2 }
	END {
		printf "  one tpm2-tools run (ms, mean of %d)   %9s %9s %7s\n", n["quote"],
			"csvsm", "swtpm", "ratio"
		split("getrandom pcrextend pcrread quote", order, " ")
		for (i = 1; i <= 4; i++) {
			c = order[i]
			printf "  %-36s %9.1f %9.1f %7.2f\n", "tpm2_" c, e[c], s[c],
				s[c] ? e[c] / s[c] : 0
		}
		c = "tool-start"
		printf "  %-36s %9.1f %9.1f %7.2f\n", "start-up alone (tpm2_print)",
			e[c], s[c], s[c] ? e[c] / s[c] : 0
	}' "$tmp/emu.tools" "$tmp/swtpm.tools"

awk 'FNR == 1 { f++ }
	f == 1 { e[$1] = $2 } f == 2 { s[$1] = $2 }
	END {
		print "  one raw command from one process (tpm-rtt, median us)"
		split("getrandom pcrread pcrextend", order, " ")
		split("GetRandom(32) PCR_Read PCR_Extend", label, " ")
		for (i = 1; i <= 3; i++) {
			c = order[i]
			printf "  %-36s %9d %9d %7.2f\n", label[i], e[c], s[c],
				s[c] ? e[c] / s[c] : 0
		}
	}' "$tmp/emu.rtt" "$tmp/swtpm.rtt"

# The SVSM's side: every vTPM command of the csvsm run (the tools' and
# tpm-rtt's) is one call; the cycles run from VMPL1's exit to its next
# VMRUN, so they hold the machine's world switches too.
khz=$(sed -n 's/^emu: bench: first VMRUN at TSC: .* TSC \([0-9]*\) kHz)$/\1/p' "$tmp/emu.log" | head -n1)
sed -n 's/^emu: bench: SVSM call 2:1 (vtpm CMD): \([0-9]*\), \([0-9]*\) TSC cycles, \([0-9]*\) VMPL0 exits$/\1 \2 \3/p' \
	"$tmp/emu.log" | awk -v khz="$khz" '{
		printf "  the SVSM: %d vTPM CMD calls, %.0f TSC cycles each (%.0f us at %d kHz), %.1f VMPL0 exits each\n",
			$1, $2 / $1, khz ? 1000 * $2 / $1 / khz : 0, khz, $3 / $1 }'

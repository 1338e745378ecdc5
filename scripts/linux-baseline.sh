#!/usr/bin/env bash
# The Linux guest without SEV: the kit's kernel and initramfs booted by
# plain QEMU (q35, TCG, EPYC, no SVSM, no emulated SNP machine) with the
# self-test in its no-SEV mode (csvsm.test=nosev). Passes when the
# self-test started, ended with "0 failed" and the guest powered off
# (ACPI S5: QEMU exits 0). Prints the wall-clock times from QEMU's start
# to the self-test's start marker and to power-off: what `make bench`
# sets beside the same kernel on csvsm (docs/linux.md).
# --swtpm: a TPM for the guest, Debian's swtpm (libtpms, the engine
# csvsm's vTPM runs too) on QEMU's tpm-crb device, with fresh state; the
# kernel's built-in tpm_crb binds it. With --cmdline's csvsm.test=tpmbench
# the guest times TPM commands on it (scripts/bench-linux-tpm.sh).
#   linux-baseline.sh [--smp N] [--mem SIZE] [--timeout S] [--log FILE]
#                     [--cmdline STRING] [--kernel FILE] [--initrd FILE]
#                     [--swtpm]
set -uo pipefail
# TCG threads as scripts/emu-run.sh runs the machine (CSVSM_TCG_THREAD),
# so a ratio compares like with like.
tcg_thread=${CSVSM_TCG_THREAD:-single}

smp=2
mem=512M
timeout_s=180
log=build/linux/baseline.log
kernel=build/linux/vmlinuz
initrd=build/linux/initrd.img
swtpm=0
# The SNP command line's options (mk/linux.mk, LINUX_CMDLINE) with the
# no-SEV test, so both boots do the same work but SEV's.
cmdline="console=ttyS0,115200 quiet nokaslr no5lvl hpet=disable"
cmdline="$cmdline tsc=reliable swiotlb=128 i8042.noaux i8042.nokbd panic=-1"
cmdline="$cmdline csvsm.test=nosev"
while [ $# -gt 0 ]; do
	case "$1" in
	--smp) smp=$2; shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--timeout) timeout_s=$2; shift 2 ;;
	--log) log=$2; shift 2 ;;
	--cmdline) cmdline=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--swtpm) swtpm=1; shift ;;
	*) echo "linux-baseline: unknown argument $1" >&2; exit 2 ;;
	esac
done
for f in "$kernel" "$initrd"; do
	[ -f "$f" ] || { echo "linux-baseline: $f missing (make linux)" >&2; exit 2; }
done
mkdir -p "$(dirname "$log")"

# shellcheck source=scripts/qemu-lib.sh
. "$(dirname "$0")/qemu-lib.sh"
cpu=$QEMU_CPU_PLAIN

tpm=()
if [ $swtpm -eq 1 ]; then
	command -v swtpm >/dev/null ||
		{ echo "linux-baseline: swtpm missing (scripts/setup.sh)" >&2; exit 2; }
	state=$(mktemp -d)
	swtpm socket --tpm2 --tpmstate dir="$state" \
		--ctrl type=unixio,path="$state/swtpm.sock" \
		--log file="$state/swtpm.log" --daemon --pid file="$state/swtpm.pid" ||
		{ echo "linux-baseline: swtpm did not start" >&2; exit 2; }
	trap 'kill "$(cat "$state/swtpm.pid" 2>/dev/null)" 2>/dev/null; rm -rf "$state"' EXIT
	tpm=(-chardev "socket,id=chrtpm,path=$state/swtpm.sock"
		-tpmdev "emulator,id=tpm0,chardev=chrtpm" -device "tpm-crb,tpmdev=tpm0")
fi

t0=$EPOCHREALTIME
t_start=""
: >"$log"
while IFS= read -r line; do
	line=${line%$'\r'}
	printf '%s\n' "$line" >>"$log"
	if [ -z "$t_start" ] && { [[ $line == "csvsm-selftest: start"* ]] ||
		[[ $line == "csvsm-tpmbench: start"* ]]; }; then
		t_start=$EPOCHREALTIME
	fi
done < <(timeout --foreground -k 5 "$timeout_s" qemu-system-x86_64 \
	-machine q35 -accel "tcg,thread=$tcg_thread" -cpu "$cpu" -smp "$smp" -m "$mem" \
	-display none -serial stdio -monitor none -nodefaults -no-reboot \
	"${tpm[@]}" -kernel "$kernel" -initrd "$initrd" -append "$cmdline" \
	</dev/null 2>&1
	echo "linux-baseline-qemu-status $?")
t_end=$EPOCHREALTIME
status=$(sed -n 's/^linux-baseline-qemu-status //p' "$log")

secs() { awk -v a="$t0" -v b="$1" 'BEGIN { printf "%.2f", b - a }'; }
result=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n1)
uptime=$(sed -n 's/^csvsm-selftest: start (.*) at \([0-9.]*\) s uptime$/\1/p' "$log")
fail() {
	echo "linux-baseline: FAILED: $* (log: $log)" >&2
	grep -E '^(FAIL|csvsm-init:)' "$log" >&2
	exit 1
}
[ -n "$t_start" ] || fail "the self-test never started"
echo "linux-baseline: -smp $smp: self-test start $(secs "$t_start") s after" \
	"QEMU's start (guest uptime $uptime s), power-off at $(secs "$t_end") s;" \
	"${result:-no result line}"
[ "$status" = 0 ] || fail "QEMU ended with status $status, not a power-off"
[[ $result == *" 0 failed" ]] || fail "the self-test did not pass"

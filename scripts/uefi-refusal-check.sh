#!/usr/bin/env bash
# Wrong inputs on the UEFI path fail loudly and at once (issue 27,
# docs/uefi.md "Wrong inputs"): csvsm-igvm refuses an OVMF without SVSM
# support (Debian 12's 2022.11), a truncated image (its end or its start
# cut off) and a damaged volume header, each with its reason; damage
# inside a volume's compressed bytes, which nothing before the firmware
# itself can tell, boots and OVMF reports its own exception, which
# emu-run.sh turns into a stop (status 239) naming it; a file that is no
# kernel makes OVMF boot its shell, and one that cannot run at VMPL1
# (Debian 12's 6.1) ends the VM with Linux's reason, which the machine
# names. No run waits for a timeout.
#   uefi-refusal-check.sh OVMF DEBIAN12-OVMF OLD-VMLINUZ
set -euo pipefail
ovmf=$1
old_ovmf=$2
old_kernel=$3
bin=build/bin/csvsm-igvm
fw=build/snp/csvsm-snp.elf
initrd=build/linux/initrd.img
out=build/uefi-refusal
mkdir -p "$out"
npass=0
nfail=0
pass() { echo "uefi-refusal-check: PASS $1"; npass=$((npass + 1)); }
fail() { echo "uefi-refusal-check: FAIL $1"; nfail=$((nfail + 1)); }

# NAME WANT-IN-MESSAGE FIRMWARE
refused() {
	local msg
	rm -f "$out/$1.igvm"
	if msg=$("$bin" build --svsm "$fw" --ovmf "$3" -o "$out/$1.igvm" 2>&1); then
		fail "$1: csvsm-igvm built an image"
	elif [[ $msg != *"$2"* ]]; then
		fail "$1: no '$2' in: $msg"
	elif [ -e "$out/$1.igvm" ]; then
		fail "$1: refused, but wrote $out/$1.igvm"
	else
		pass "$1: $msg"
	fi
}

# NAME STATUS WANT-IN-LOG IMAGE KERNEL: a boot that must end with STATUS
# and the log line WANT, well before its timeout.
ends() {
	local st=0 t0 t1
	t0=$(date +%s)
	scripts/emu-run.sh --image "$4" --smp 1 --mem 1G --timeout 300 \
		--expect "$2" --guest-kernel "$5" --guest-initrd "$initrd" \
		--guest-append "console=ttyS0,115200 panic=-1" \
		--log "$out/$1.log" >"$out/$1.out" 2>&1 || st=$?
	t1=$(date +%s)
	if [ "$st" -ne 0 ]; then
		fail "$1: $(grep -a '^emu-run' "$out/$1.out" | tr '\n' ' ')"
	elif ! grep -aq -- "$3" "$out/$1.log" "$out/$1.out"; then
		fail "$1: no '$3' in $out/$1.log"
	elif [ $((t1 - t0)) -ge 300 ]; then
		fail "$1: ended only at the timeout"
	else
		pass "$1: $(grep -a -h -m1 -- "$3" "$out/$1.log" "$out/$1.out" |
			head -n1 | cut -c1-150) ($((t1 - t0)) s)"
	fi
}

refused no-svsm "no SVSM Calling Area" "$old_ovmf"
head -c 3M "$ovmf" >"$out/end-cut.fd"
refused end-cut "truncated" "$out/end-cut.fd"
tail -c 3M "$ovmf" >"$out/start-cut.fd"
refused start-cut "no firmware volume" "$out/start-cut.fd"
python3 - "$ovmf" "$out" <<'PY'
import sys
d = bytearray(open(sys.argv[1], "rb").read())
h = bytearray(d)
h[0x84000 + 0x20] ^= 1           # the main volume's length
open(sys.argv[2] + "/header.fd", "wb").write(h)
for i in range(0x200000, 0x200040): # compressed bytes of the main volume
    d[i] ^= 0x5A
open(sys.argv[2] + "/payload.fd", "wb").write(d)
PY
refused header "checksum mismatch" "$out/header.fd"

if "$bin" build --svsm "$fw" --ovmf "$out/payload.fd" -o "$out/payload.igvm" >/dev/null &&
	"$bin" build --svsm "$fw" --ovmf "$ovmf" -o "$out/good.igvm" >/dev/null; then
	ends payload 239 "stopped: the guest firmware took an exception" \
		"$out/payload.igvm" build/linux/vmlinuz
	ends not-a-kernel 239 "stopped: OVMF did not start the kernel" \
		"$out/good.igvm" "$initrd"
	ends old-kernel GUEST_TERM \
		"not running at VMPL0: a kernel without SVSM support" \
		"$out/good.igvm" "$old_kernel"
else
	fail "boots: csvsm-igvm could not build the images"
fi
echo "uefi-refusal-check: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]

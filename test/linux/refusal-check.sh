#!/usr/bin/env bash
# Wrong inputs for a Linux image fail loudly (issue 16, docs/linux.md):
# csvsm-igvm refuses a kernel older than 6.11 (Debian 12's real 6.1), a
# missing or truncated bzImage, a missing initrd and a command line longer
# than the kernel takes, each with its reason; a corrupt initrd, which no
# loader can tell from a good one, boots and Linux itself says so on the
# machine's console before it panics (panic=-1: a reset, status 243).
#   test/linux/refusal-check.sh OLD-VMLINUZ
set -euo pipefail
old=$1
bin=build/bin/csvsm-igvm
fw=build/snp/csvsm-snp.elf
kernel=build/linux/vmlinuz
initrd=build/linux/initrd.img
cmdline=$(cat build/linux/cmdline)
out=build/linux-refusal
mkdir -p "$out"
npass=0
nfail=0

# NAME WANT-IN-MESSAGE csvsm-igvm-build-args...
refused() {
	local name=$1 want=$2 msg
	shift 2
	if msg=$("$bin" build --svsm "$fw" "$@" -o "$out/$name.igvm" 2>&1); then
		echo "linux-refusal-check: FAIL $name: csvsm-igvm built an image"
		nfail=$((nfail + 1))
	elif [[ $msg != *"$want"* ]]; then
		echo "linux-refusal-check: FAIL $name: no '$want' in: $msg"
		nfail=$((nfail + 1))
	else
		echo "linux-refusal-check: PASS $name: $msg"
		npass=$((npass + 1))
	fi
}

refused old-kernel "older than 6.11" --linux "$old" --initrd "$initrd" \
	--cmdline "$cmdline"
refused no-kernel "cannot read the kernel" --linux "$out/absent" \
	--initrd "$initrd" --cmdline "$cmdline"
head -c 1048576 "$kernel" >"$out/truncated-vmlinuz"
refused truncated-kernel "truncated" --linux "$out/truncated-vmlinuz" \
	--initrd "$initrd" --cmdline "$cmdline"
head -c 512 /dev/zero >"$out/zero-vmlinuz"
refused not-a-bzimage "kernel $out/zero-vmlinuz" \
	--linux "$out/zero-vmlinuz" --initrd "$initrd" --cmdline "$cmdline"
refused no-initrd "cannot read the initrd" --linux "$kernel" \
	--initrd "$out/absent" --cmdline "$cmdline"
refused long-cmdline "longer than the kernel takes" --linux "$kernel" \
	--initrd "$initrd" --cmdline "$cmdline $(printf 'x%.0s' $(seq 2100))"

# A corrupt initrd: the archive's bytes flipped after its first 4 KiB.
python3 - "$initrd" "$out/corrupt-initrd.img" <<'PY'
import sys
data = bytearray(open(sys.argv[1], "rb").read())
for i in range(4096, len(data)):
    data[i] ^= 0x5A
open(sys.argv[2], "wb").write(data)
PY
"$bin" build --svsm "$fw" --linux "$kernel" --initrd "$out/corrupt-initrd.img" \
	--cmdline "$cmdline" -o "$out/corrupt-initrd.igvm" >/dev/null
if scripts/emu-run.sh --image "$out/corrupt-initrd.igvm" --smp 1 --mem 1G \
	--timeout 600 --expect 243 --log "$out/corrupt-initrd.log" >/dev/null &&
	grep -q -e 'Initramfs unpacking failed' -e 'VFS: Unable to mount root' \
		"$out/corrupt-initrd.log" &&
	grep -q 'Kernel panic' "$out/corrupt-initrd.log"; then
	echo "linux-refusal-check: PASS corrupt-initrd: $(grep -m1 -o \
		-e 'Initramfs unpacking failed.*' -e 'VFS: Unable to mount root.*' \
		"$out/corrupt-initrd.log")"
	npass=$((npass + 1))
else
	echo "linux-refusal-check: FAIL corrupt-initrd: no unpacking failure" \
		"and panic seen (log: $out/corrupt-initrd.log)"
	nfail=$((nfail + 1))
fi
echo "linux-refusal-check: $npass passed, $nfail failed"
[ "$nfail" -eq 0 ]

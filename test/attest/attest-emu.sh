#!/usr/bin/env bash
# End to end on emu: the test guest (test/emu/guest/tests_attest.c) asked
# the SVSM for ATTEST_SERVICES under QEMU and printed what it received;
# csvsm-verify checks it with the build's test chain, REPORT_DATA against
# the guest's nonce and manifest, and MEASUREMENT against the launch
# digest of the firmware's code and read-only data computed here with
# Python's hashlib from the ELF (not by the SVSM). A wrong nonce fails.
#   attest-emu.sh LOG
set -euo pipefail
log=$1
fw=build/emu/csvsm-emu.elf
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "attest-emu: FAIL: $*"; exit 1; }

for tag in NONCE REPORT MANIFEST; do
	sed -n "s/^.*ATTEST-$tag \([0-9a-f]*\)\r\?$/\1/p" "$log" | tr -d '\n' \
		>"$tmp/$tag.hex"
	[ -s "$tmp/$tag.hex" ] || fail "no ATTEST-$tag lines in $log"
done
xxd -r -p "$tmp/MANIFEST.hex" >"$tmp/manifest.bin"
nonce=$(cat "$tmp/NONCE.hex")

# The expected MEASUREMENT: SNP_LAUNCH_UPDATE's PAGE_INFO chain (56860
# Table 67) over [__image_start, __rodata_end) as NORMAL pages.
start=$(nm "$fw" | awk '$3 == "__image_start" { print $1 }')
end=$(nm "$fw" | awk '$3 == "__rodata_end" { print $1 }')
objcopy -O binary -j .text -j .note.pvh -j .rodata "$fw" "$tmp/ro.bin"
measurement=$(python3 - "$tmp/ro.bin" "$start" "$end" <<'PY'
import hashlib, sys
img = open(sys.argv[1], "rb").read()
start, end = int(sys.argv[2], 16), int(sys.argv[3], 16)
img = img.ljust(end - start, b"\0")[: end - start]
ld = bytes(48)
for off in range(0, end - start, 4096):
    info = (ld + hashlib.sha384(img[off:off + 4096]).digest() +
            (0x70).to_bytes(2, "little") + bytes([1, 0, 0, 0, 0, 0]) +
            (start + off).to_bytes(8, "little"))
    assert len(info) == 0x70
    ld = hashlib.sha384(info).digest()
print(ld.hex())
PY
)

build/bin/csvsm-verify --report "$tmp/REPORT.hex" --vcek build/pki/vcek.der \
	--chain build/pki/ask_ark.pem --nonce "$nonce" \
	--manifest "$tmp/manifest.bin" --measurement "$measurement" \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the emu report"; }
wrong=$(python3 -c "print('11' * 64)")
if build/bin/csvsm-verify --report "$tmp/REPORT.hex" \
	--vcek build/pki/vcek.der --chain build/pki/ask_ark.pem \
	--nonce "$wrong" --manifest "$tmp/manifest.bin" >/dev/null 2>&1; then
	fail "a wrong nonce was accepted"
fi
echo "attest-emu: the report verifies (chain, signature, chip, TCB," \
	"REPORT_DATA, MEASUREMENT $measurement); a wrong nonce does not"

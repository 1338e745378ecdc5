#!/usr/bin/env bash
# End to end on the emulated SEV-SNP machine: the test guest
# (test/emu/guest/tests_attest.c) asked the snp firmware for
# ATTEST_SERVICES and printed what it received; csvsm-verify checks it
# with the VCEK of the host's certificate table (the emulated chip's,
# scripts/emu-chip.sh) under the build's test chain, REPORT_DATA against
# the guest's nonce and manifest, and MEASUREMENT against the launch
# digest of IMAGE. A wrong nonce fails.
#   attest-emu.sh LOG IMAGE
set -euo pipefail
log=$1
image=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "attest-emu: FAIL: $*"; exit 1; }

for tag in NONCE REPORT MANIFEST CERTS; do
	sed -n "s/^.*ATTEST-$tag \([0-9a-f]*\)\r\?$/\1/p" "$log" | tr -d '\n' \
		>"$tmp/$tag.hex"
	[ -s "$tmp/$tag.hex" ] || fail "no ATTEST-$tag lines in $log"
done
xxd -r -p "$tmp/MANIFEST.hex" >"$tmp/manifest.bin"
xxd -r -p "$tmp/CERTS.hex" >"$tmp/certs.bin"
nonce=$(cat "$tmp/NONCE.hex")

# The expected MEASUREMENT: the launch digest of the image the machine
# launched, from csvsm-igvm (which make igvm-check holds equal to an
# independent Python reading of the file), not from the machine.
# For as many vCPUs as the machine ran (KVM measures a VMSA for each).
smp=$(sed -n 's/^emu: \([0-9]*\) CPUs, guest RAM.*/\1/p' "$log" | head -n1)
[ -n "$smp" ] || fail "no CPU count in $log"
measurement=$(scripts/emu-measure.sh "$image" "$smp")

build/bin/csvsm-verify --report "$tmp/REPORT.hex" --certs "$tmp/certs.bin" \
	--chain build/pki/ask_ark.pem --nonce "$nonce" \
	--manifest "$tmp/manifest.bin" --measurement "$measurement" \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the emu report"; }
wrong=$(python3 -c "print('11' * 64)")
if build/bin/csvsm-verify --report "$tmp/REPORT.hex" \
	--certs "$tmp/certs.bin" --chain build/pki/ask_ark.pem \
	--nonce "$wrong" --manifest "$tmp/manifest.bin" >/dev/null 2>&1; then
	fail "a wrong nonce was accepted"
fi
echo "attest-emu: the report verifies (chain, signature, chip, TCB," \
	"REPORT_DATA, MEASUREMENT $measurement); a wrong nonce does not"

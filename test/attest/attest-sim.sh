#!/usr/bin/env bash
# End to end on sim: the guest asks the SVSM for ATTEST_SERVICES (and for
# the vTPM alone); a relying party checks the report with csvsm-verify,
# using the VCEK the host handed out in the certificate table and the test
# chain. A wrong nonce, a changed manifest and AMD's real chain must fail.
set -euo pipefail
bin=build/bin
pki=build/pki
vec=test/attest/amd-milan
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail() { echo "attest-sim: FAIL: $*"; exit 1; }
ok() { pass=$((pass + 1)); }

nonce=$(python3 -c "import os; print(os.urandom(64).hex())")
$bin/csvsm-sim attest --nonce "$nonce" --out "$tmp" >/dev/null
verify() { $bin/csvsm-verify --report "$tmp/report.bin" "$@"; }

# The VCEK from the certificate table the SVSM copied to the guest
# (csvsm-verify --certs), which must be the build's.
verify --certs "$tmp/certs.bin" --vcek-out "$tmp/vcek-from-table.der" \
	--chain $pki/ask_ark.pem --nonce "$nonce" --manifest "$tmp/manifest.bin" \
	>"$tmp/out" 2>&1 || { cat "$tmp/out"; fail "the sim report does not verify"; }
cmp -s "$tmp/vcek-from-table.der" $pki/vcek.der ||
	fail "the certificate table's VCEK is not the build's"
ok
grep -q "c476f1eb-0123-45a5-9641-b4e7dde5bfe3 vTPM" "$tmp/out" ||
	fail "the manifest does not list the vTPM"
ok

wrong=$(python3 -c "print('00' * 64)")
if verify --vcek $pki/vcek.der --chain $pki/ask_ark.pem --nonce "$wrong" \
	--manifest "$tmp/manifest.bin" 2>"$tmp/err" >/dev/null; then
	fail "a wrong nonce was accepted"
fi
grep -q "FAILED report-data" "$tmp/err" || fail "wrong nonce: not named"
ok

cp "$tmp/manifest.bin" "$tmp/m2.bin"
printf '\x01' | dd of="$tmp/m2.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
if verify --vcek $pki/vcek.der --chain $pki/ask_ark.pem --nonce "$nonce" \
	--manifest "$tmp/m2.bin" >/dev/null 2>&1; then
	fail "a changed manifest was accepted"
fi
ok

if verify --vcek $pki/vcek.der --chain $vec/ask_ark.pem >/dev/null 2>&1; then
	fail "the test VCEK passed under AMD's real chain"
fi
ok

$bin/csvsm-sim attest --nonce "$nonce" --out "$tmp" --single-vtpm >/dev/null
python3 - "$tmp/manifest.bin" <<'PY'
import sys
m = open(sys.argv[1], "rb").read()
# A TPMT_PUBLIC: type RSA (0x0001), nameAlg SHA-256 (0x000B), attributes
# 0x000300B2 (the TCG EK template L-1).
assert m[0:4] == bytes([0, 1, 0, 0x0B]), m[:8].hex()
assert m[4:8] == bytes([0, 3, 0, 0xB2]), m[4:8].hex()
PY
verify --vcek $pki/vcek.der --chain $pki/ask_ark.pem --nonce "$nonce" \
	--manifest "$tmp/manifest.bin" --single-service >/dev/null 2>&1 ||
	fail "the single-service (vTPM) report does not verify"
ok
echo "attest-sim: $pass passed, 0 failed"

#!/usr/bin/env bash
# scripts/linux-check.sh against console logs made here, no kernel needed:
# the SVSM's report comes from `csvsm-sim attest` with the self-test's
# nonce, printed the way test/linux/csvsm-selftest prints it (gzip'd and
# raw hex, behind a machine's prefix, with carriage returns). The check
# must pass it, and must fail a wrong nonce, a changed blob, a guest that
# failed or skipped a check, and a report that is not a VMPL1 one. (No
# positive case for the plain VMPL1 report: only the PSP on the machine
# makes one.)
set -euo pipefail
bin=build/bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npass=0
fail() {
	echo "linux-check-test: FAIL: $*"
	exit 1
}
ok() { npass=$((npass + 1)); }

word=csvsm-linux-selftest
nonce=$(printf '%s' "$word" | sha512sum | cut -c1-128)
echo "$nonce" | xxd -r -p >"$tmp/nonce.bin"
$bin/csvsm-sim attest --nonce "$nonce" --out "$tmp" >/dev/null

dump() { # NAME FILE ENC
	echo "CSVSM-BLOB-BEGIN $1 $(wc -c <"$2") $(sha256sum "$2" | cut -d' ' -f1) $3"
	if [ "$3" = gzip ]; then
		gzip -9n <"$2" | xxd -p -c 64
	else
		xxd -p -c 32 "$2"
	fi | sed "s/^/CSVSM-HEX $1 /"
	echo "CSVSM-BLOB-END $1"
}
guest_log() { # ENC RESULT [SKIPPED-CHECK]
	echo "[    0.000000] Linux version 7.3.4+deb13-amd64"
	for c in snp-active snp-vmpl1 "cpus-online (2 of 2)" cpu-hotplug \
		sev-guest attest-svsm attest-vmpl1 mem-shared-private; do
		if [ "${3:-}" = "${c%% *}" ]; then
			echo "SKIP $c: no reason"
		else
			echo "PASS $c"
		fi
	done
	dump nonce.bin "$tmp/nonce.bin" "$1"
	dump svsm-report.bin "$tmp/report.bin" "$1" | sed 's/^/[vmpl1] /'
	dump svsm-manifest.bin "$tmp/manifest.bin" "$1"
	dump svsm-certs.bin "$tmp/certs.bin" "$1"
	# The SVSM's VMPL0 report where a VMPL1 one belongs.
	dump plain-report.bin "$tmp/report.bin" "$1"
	echo "$2"
}
check() { # LOG: linux-check's output in $tmp/out
	scripts/linux-check.sh --smp 2 "$1" "$tmp/files" - >"$tmp/out" 2>&1 || true
}
has() { grep -qF "linux-check: $1" "$tmp/out" || {
	cat "$tmp/out"
	fail "no '$1'"
}; }

for enc in gzip raw; do
	guest_log $enc "9 passed, 0 failed" | sed 's/$/\r/' >"$tmp/log"
	check "$tmp/log"
	has "PASS guest-result (9 passed, 0 failed)"
	has "PASS cpus (2 of 2 online)"
	has "PASS svsm-report (chain, signature, REPORT_DATA, VMPL 0; VCEK svsm-vcek.der)"
	has "FAIL plain-report: VMPL 0, not 1"
	has "3 passed, 1 failed"
	cmp -s "$tmp/files/svsm-certs.bin" "$tmp/certs.bin" || fail "$enc: certs differ"
	ok
done

scripts/linux-check.sh --nonce other --smp 2 "$tmp/log" "$tmp/files" - \
	>"$tmp/out" 2>&1 && fail "a wrong nonce passed"
has "FAIL nonce:"
has "FAIL svsm-report: csvsm-verify: csvsm-verify: FAILED report-data"
ok

sed 's/^CSVSM-HEX svsm-manifest.bin ../CSVSM-HEX svsm-manifest.bin 00/' \
	"$tmp/log" >"$tmp/log2"
check "$tmp/log2"
has "FAIL blob-svsm-manifest.bin"
ok

guest_log gzip "8 passed, 1 failed" >"$tmp/log3"
check "$tmp/log3"
has "FAIL guest-result: the guest says: 8 passed, 1 failed"
ok

guest_log gzip "8 passed, 0 failed" mem-shared-private >"$tmp/log4"
check "$tmp/log4"
has "FAIL guest-mem-shared-private: not passed"
ok

grep -v 'passed, 0 failed' "$tmp/log" >"$tmp/log5"
check "$tmp/log5"
has "FAIL guest-result: no 'N passed, M failed' line"
ok

echo "linux-check-test: $npass passed, 0 failed"

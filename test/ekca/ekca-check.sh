#!/usr/bin/env bash
# csvsm-ekca and the EK certificates' NV provisioning (docs/vtpm.md, "EK
# certificates"), run by `make ekca-check`:
#  1. the CA on csvsm-sim's reports (plain and ASan/UBSan builds): the
#     vTPM's RSA EK certified, `openssl verify -x509_strict` accepting it
#     against the CA, its key the manifest's, the profile's fields; the CA
#     made once and reused; refused with status 1 and the failed check
#     named: a tampered report, a wrong nonce, a changed manifest, another
#     MEASUREMENT, AMD's real chain, a VMPL1 report, a DEBUG policy;
#     with status 3: a claimed EK the report does not bind, a manifest
#     entry that is no EK template's;
#  2. the round trip on swtpm (the oracle for libtpms' NV rules and
#     tpm2-tools): swtpm's RSA and ECC EKs (tpm2_createek) bound by a
#     report the emulated chip's TEST VCEK signs (resign_report.py),
#     certified, stored by test/linux/csvsm-ekcert, read back by
#     tpm2_getekcertificate and tpm2_nvread byte for byte, verified by
#     openssl against the CA, each key equal to tpm2_createek's; again
#     with the platform hierarchy closed (the owner's indices);
#  3. the same round trip on csvsm's own vTPM (csvsm-sim vtpm, mssim).
set -euo pipefail
bin=build/bin
pki=build/pki
here=test/ekca
provision=test/linux/csvsm-ekcert
tmp=$(mktemp -d)
server_pid=""
cleanup() {
	if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; fi
	rm -rf "$tmp"
}
trap cleanup EXIT
pass=0
fail() {
	echo "ekca-check: FAIL: $*"
	exit 1
}
ok() { pass=$((pass + 1)); }
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

rand_hex() { python3 -c "import os; print(os.urandom($1).hex())"; }
measurement_of() { python3 -c "import sys; print(open(sys.argv[1],'rb').read()[0x90:0xC0].hex())" "$1"; }

nonce=$(rand_hex 64)
a=$tmp/attest
mkdir -p "$a"
$bin/csvsm-sim attest --nonce "$nonce" --out "$a" >/dev/null
# The simulated launch's MEASUREMENT (a relying party takes the image's
# from csvsm-igvm measure; the sim's launch has no image).
meas=$(measurement_of "$a/report.bin")

# ekca BIN OUT [ARGS...]: status in $st, stderr in $tmp/err.
ekca() {
	local b=$1 out=$2
	shift 2
	mkdir -p "$out"
	st=0
	"$b" --ca "$tmp/ca" --out "$out" --vcek $pki/vcek.der \
		--chain $pki/ask_ark.pem "$@" >"$tmp/stdout" 2>"$tmp/err" || st=$?
}
# refused BIN WANT-STATUS WHAT-IN-STDERR WHY ARGS...
refused() {
	local b=$1 want=$2 what=$3 why=$4
	shift 4
	rm -rf "$tmp/r"
	ekca "$b" "$tmp/r" "$@"
	[ "$st" -eq "$want" ] || { cat "$tmp/err"; fail "$why: status $st, not $want"; }
	grep -q "$what" "$tmp/err" || { cat "$tmp/err"; fail "$why: '$what' not named"; }
	[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "$why: not one line"
	[ -z "$(ls "$tmp/r")" ] || fail "$why: a certificate was written"
	ok
}
# The TPMT_PUBLIC's RSA modulus (after the L-1 template's 58 bytes).
modulus_of() { python3 -c "import sys; b=open(sys.argv[1],'rb').read(); b=b[2:] if int.from_bytes(b[:2],'big')==len(b)-2 else b; print(b[58:58+256].hex().upper())" "$1"; }

good=(--report "$a/report.bin" --nonce "$nonce" --manifest "$a/manifest.bin" --measurement "$meas")
python3 - "$a/manifest.bin" "$tmp/sim-ek.tpmt" <<'PY'
import sys, uuid
m = open(sys.argv[1], "rb").read()
vtpm = uuid.UUID("c476f1eb-0123-45a5-9641-b4e7dde5bfe3").bytes_le
for i in range(int.from_bytes(m[20:24], "little")):
    e = m[24 + 24 * i:48 + 24 * i]
    if e[:16] == vtpm:
        off, n = int.from_bytes(e[16:20], "little"), int.from_bytes(e[20:24], "little")
        open(sys.argv[2], "wb").write(m[off:off + n])
PY

for b in $bin/csvsm-ekca $bin/csvsm-ekca-asan; do
	rm -rf "$tmp/ca" "$tmp/out"
	ekca "$b" "$tmp/out" "${good[@]}" --ek-public "$tmp/sim-ek.tpmt"
	[ "$st" -eq 0 ] || { cat "$tmp/err"; fail "$b: the sim's evidence was refused"; }
	grep -q "made the CA" "$tmp/stdout" || fail "$b: no CA made on first use"
	[ "$(stat -c %a "$tmp/ca/ca.key")" = 600 ] || fail "ca.key is not mode 0600"
	[ -f "$tmp/out/ek-rsa2048.der" ] || fail "no RSA EK certificate"
	# The SVSM's manifest binds its ECC P-256 EK too (csvsm's entry).
	[ -f "$tmp/out/ek-ecc-p256.der" ] || fail "no ECC EK certificate"
	openssl x509 -inform der -in "$tmp/out/ek-ecc-p256.der" -out "$tmp/ek-ecc.pem"
	openssl verify -x509_strict -CAfile "$tmp/ca/ca.pem" "$tmp/ek-ecc.pem" >/dev/null ||
		fail "openssl verify refuses the ECC EK certificate"
	openssl x509 -inform der -in "$tmp/out/ek-rsa2048.der" -out "$tmp/ek.pem"
	openssl verify -x509_strict -CAfile "$tmp/ca/ca.pem" "$tmp/ek.pem" >/dev/null ||
		fail "openssl verify refuses the EK certificate"
	ok
	[ "$(openssl x509 -in "$tmp/ek.pem" -noout -modulus)" = "Modulus=$(modulus_of "$tmp/sim-ek.tpmt")" ] ||
		fail "the certified key is not the manifest's EK"
	ok
	openssl x509 -in "$tmp/ek.pem" -noout -text >"$tmp/text"
	for want in "Subject: *$" "Subject Alternative Name: critical" \
		"2.23.133.2.1=id:49424D00" "2.23.133.2.2=SW  TPM" "2.23.133.2.3=id:20191023" \
		"Basic Constraints: critical" "CA:FALSE" "Key Usage: critical" \
		"Key Encipherment" "2.23.133.8.1" "TCG Trusted Platform Endorsement" \
		"Subject Directory Attributes" "Not After : Dec 31 23:59:59 9999 GMT"; do
		grep -q "$want" "$tmp/text" || fail "the certificate lacks '$want'"
	done
	ok
	cp "$tmp/ca/ca.pem" "$tmp/ca1.pem"
	ekca "$b" "$tmp/out2" "${good[@]}"
	[ "$st" -eq 0 ] && ! grep -q "made the CA" "$tmp/stdout" &&
		cmp -s "$tmp/ca/ca.pem" "$tmp/ca1.pem" || fail "the CA was not reused"
	ok

	cp "$a/report.bin" "$tmp/tampered.bin"
	printf '\x01' | dd of="$tmp/tampered.bin" bs=1 seek=$((0x90)) conv=notrunc 2>/dev/null
	refused "$b" 1 report-signature "a tampered report" --report "$tmp/tampered.bin" \
		--nonce "$nonce" --manifest "$a/manifest.bin" --measurement "$meas"
	refused "$b" 1 report-data "a wrong nonce" --report "$a/report.bin" \
		--nonce "$(rand_hex 64)" --manifest "$a/manifest.bin" --measurement "$meas"
	cp "$a/manifest.bin" "$tmp/m2.bin"
	printf '\x01' | dd of="$tmp/m2.bin" bs=1 seek=100 conv=notrunc 2>/dev/null
	refused "$b" 1 report-data "a changed manifest" --report "$a/report.bin" \
		--nonce "$nonce" --manifest "$tmp/m2.bin" --measurement "$meas"
	refused "$b" 1 "evidence does not verify: measurement" "another MEASUREMENT" \
		--report "$a/report.bin" --nonce "$nonce" --manifest "$a/manifest.bin" \
		--measurement "$(rand_hex 48)"
	rm -rf "$tmp/r"
	st=0
	"$b" --ca "$tmp/ca" --out "$tmp/r" --vcek $pki/vcek.der \
		--chain test/attest/amd-milan/ask_ark.pem "${good[@]}" 2>"$tmp/err" >/dev/null || st=$?
	[ "$st" -eq 1 ] && grep -q vcek-signed-by-ask "$tmp/err" ||
		fail "AMD's real chain accepted the TEST VCEK (status $st)"
	ok
	python3 $here/resign_report.py "$a/report.bin" $pki/vcek.key "$nonce" \
		"$tmp/vmpl1.bin" "$tmp/vmpl1.man" --rsa "$tmp/sim-ek.tpmt" --vmpl 1
	refused "$b" 1 "vmpl" "a VMPL1 report" --report "$tmp/vmpl1.bin" \
		--nonce "$nonce" --manifest "$tmp/vmpl1.man" --measurement "$meas"
	python3 $here/resign_report.py "$a/report.bin" $pki/vcek.key "$nonce" \
		"$tmp/debug.bin" "$tmp/debug.man" --rsa "$tmp/sim-ek.tpmt" --debug
	refused "$b" 1 "policy-debug" "a DEBUG policy" --report "$tmp/debug.bin" \
		--nonce "$nonce" --manifest "$tmp/debug.man" --measurement "$meas"

	# Another boot's EK claimed: not the one this report binds.
	mkdir -p "$tmp/other"
	$bin/csvsm-sim attest --nonce "$nonce" --out "$tmp/other" >/dev/null
	python3 - "$tmp/other/manifest.bin" "$tmp/other-ek.tpmt" <<'PY'
import sys
m = open(sys.argv[1], "rb").read()
off, n = int.from_bytes(m[40:44], "little"), int.from_bytes(m[44:48], "little")
open(sys.argv[2], "wb").write(m[off:off + n])
PY
	refused "$b" 3 "not the EK the verified report binds" "a wrong EK" \
		"${good[@]}" --ek-public "$tmp/other-ek.tpmt"
	# A bound key that is not an EK: userWithAuth set, fixedTPM clear.
	python3 - "$tmp/sim-ek.tpmt" "$tmp/not-ek.tpmt" <<'PY'
import sys
b = bytearray(open(sys.argv[1], "rb").read())
b[4:8] = (0x00030072).to_bytes(4, "big")
open(sys.argv[2], "wb").write(bytes(b))
PY
	python3 $here/resign_report.py "$a/report.bin" $pki/vcek.key "$nonce" \
		"$tmp/notek.bin" "$tmp/notek.man" --rsa "$tmp/not-ek.tpmt"
	refused "$b" 3 "attributes other than the EK template" "a key that is no EK" \
		--report "$tmp/notek.bin" --nonce "$nonce" --manifest "$tmp/notek.man" \
		--measurement "$meas"
	ekca "$b" "$tmp/r" --report "$a/report.bin" --nonce "$nonce" \
		--manifest "$a/manifest.bin"
	[ "$st" -eq 2 ] && grep -q "^usage" "$tmp/err" || fail "no --measurement: status $st, not 2"
	ok
done

# ATTEST_SINGLE_SERVICE: the manifest is the vTPM's EK alone.
mkdir -p "$tmp/single"
$bin/csvsm-sim attest --nonce "$nonce" --out "$tmp/single" --single-vtpm >/dev/null
ekca $bin/csvsm-ekca "$tmp/single-out" --report "$tmp/single/report.bin" \
	--nonce "$nonce" --manifest "$tmp/single/manifest.bin" --single-service \
	--measurement "$(measurement_of "$tmp/single/report.bin")"
[ "$st" -eq 0 ] && [ -f "$tmp/single-out/ek-rsa2048.der" ] ||
	{ cat "$tmp/err"; fail "the single-service evidence was refused"; }
ok

# 2. The round trip on swtpm.
state=$tmp/swtpm
mkdir -p "$state"
# start_swtpm: swtpm on a free loopback port over $state (kept across
# restarts: the same EPS, so the same EKs); Startup(CLEAR) each time.
start_swtpm() {
	local _
	for _ in 1 2 3 4 5; do
		port=$((20000 + RANDOM % 40000))
		swtpm socket --tpm2 --tpmstate dir="$state" \
			--server type=tcp,port=$port,bindaddr=127.0.0.1 \
			--ctrl type=tcp,port=$((port + 1)),bindaddr=127.0.0.1 \
			--flags not-need-init,startup-clear >"$tmp/swtpm.log" 2>&1 &
		server_pid=$!
		export TPM2TOOLS_TCTI=swtpm:host=127.0.0.1,port=$port
		for _ in $(seq 50); do
			tpm2_getrandom 4 >/dev/null 2>&1 && return 0
			sleep 0.1
		done
		kill "$server_pid" 2>/dev/null || true
		server_pid=""
	done
	fail "swtpm did not start"
}
stop_swtpm() {
	kill "$server_pid" 2>/dev/null || true
	wait "$server_pid" 2>/dev/null || true
	server_pid=""
}
start_swtpm
# certify_tpm: the EKs of the TPM at $TPM2TOOLS_TCTI (tpm2_createek),
# bound by a re-signed report, certified into $tmp/sw-out.
certify_tpm() {
	local k
	rm -rf "$tmp/sw-out"
	for k in rsa ecc; do
		# The EK is the template's, the same each time: once as a
		# TPM2B_PUBLIC, once as PEM.
		tpm2_createek -G $k -c "$tmp/ek-$k.ctx" -u "$tmp/ek-$k.pub" >/dev/null
		tpm2_flushcontext -t >/dev/null
		tpm2_createek -G $k -c "$tmp/ek-$k.ctx" -f pem -u "$tmp/ek-$k.pem" >/dev/null
		tpm2_flushcontext -t >/dev/null
	done
	python3 $here/resign_report.py "$a/report.bin" $pki/vcek.key "$nonce" \
		"$tmp/sw.bin" "$tmp/sw.man" --rsa "$tmp/ek-rsa.pub" --ecc "$tmp/ek-ecc.pub"
	ekca $bin/csvsm-ekca "$tmp/sw-out" --report "$tmp/sw.bin" --nonce "$nonce" \
		--manifest "$tmp/sw.man" --measurement "$meas" \
		--ek-public "$tmp/ek-rsa.pub" --ek-public "$tmp/ek-ecc.pub"
	[ "$st" -eq 0 ] || { cat "$tmp/err"; fail "the TPM's EKs were refused"; }
	openssl x509 -inform der -in "$tmp/sw-out/ek-ecc-p256.der" -noout -text |
		grep -q "Key Agreement" || fail "the ECC certificate's keyUsage is not keyAgreement"
	ok
}
certify_tpm

# round_trip WANT-HIERARCHY: provision both, read back, verify, compare.
round_trip() {
	local kind want=$1
	for kind in rsa2048 ecc-p256; do
		sh $provision provision $kind "$(xxd -p "$tmp/sw-out/ek-$kind.der" | tr -d '\n')" \
			>"$tmp/prov.out" || fail "csvsm-ekcert refused $kind"
		grep -q "($want," "$tmp/prov.out" || fail "$kind: not in the $want hierarchy: $(cat "$tmp/prov.out")"
	done
	rm -f "$tmp/get-rsa.der" "$tmp/get-ecc.der"
	tpm2_getekcertificate -o "$tmp/get-rsa.der" -o "$tmp/get-ecc.der" 2>/dev/null ||
		fail "tpm2_getekcertificate failed"
	cmp -s "$tmp/get-rsa.der" "$tmp/sw-out/ek-rsa2048.der" &&
		cmp -s "$tmp/get-ecc.der" "$tmp/sw-out/ek-ecc-p256.der" ||
		fail "tpm2_getekcertificate returned other bytes"
	ok
	for kind in rsa2048:0x01c00002 ecc-p256:0x01c0000a; do
		local n=${kind%%:*} idx=${kind##*:}
		tpm2_nvread "$idx" -C o -s "$(stat -c %s "$tmp/sw-out/ek-$n.der")" \
			-o "$tmp/nv-$n.der" 2>/dev/null || fail "tpm2_nvread $idx failed"
		cmp -s "$tmp/nv-$n.der" "$tmp/sw-out/ek-$n.der" || fail "tpm2_nvread $idx: other bytes"
		openssl x509 -inform der -in "$tmp/nv-$n.der" -out "$tmp/nv-$n.pem"
		openssl verify -x509_strict -CAfile "$tmp/ca/ca.pem" "$tmp/nv-$n.pem" >/dev/null ||
			fail "openssl verify refuses $idx's certificate"
	done
	ok
	for k in rsa:rsa2048 ecc:ecc-p256; do
		openssl x509 -in "$tmp/nv-${k#*:}.pem" -noout -pubkey >"$tmp/cert-key.pem"
		cmp -s <(openssl pkey -pubin -in "$tmp/cert-key.pem" -outform der) \
			<(openssl pkey -pubin -in "$tmp/ek-${k%%:*}.pem" -outform der) ||
			fail "${k#*:}: the certified key is not tpm2_createek's EK"
	done
	ok
}
# Firmware that closed the platform hierarchy (as UEFI firmware may):
# the owner's indices.
tpm2_hierarchycontrol -C p phEnable clear >/dev/null 2>&1 ||
	fail "cannot close the platform hierarchy"
round_trip owner
# A restart opens it again (Startup(CLEAR)): the platform's indices
# replace the owner's.
stop_swtpm
start_swtpm
round_trip platform
stop_swtpm

# 3. The same on csvsm's own vTPM (csvsm-sim vtpm over mssim): its EKs,
# NV rules and platform hierarchy as Linux's tpm_svsm reaches them.
for _ in 1 2 3 4 5; do
	port=$((20000 + RANDOM % 40000))
	$bin/csvsm-sim vtpm --mssim $port --max-seconds 120 >"$tmp/sim.log" 2>&1 &
	server_pid=$!
	export TPM2TOOLS_TCTI=mssim:host=127.0.0.1,port=$port
	for _ in $(seq 50); do
		tpm2_getrandom 4 >/dev/null 2>&1 && break 2
		sleep 0.1
	done
	stop_swtpm
done
[ -n "$server_pid" ] || fail "csvsm-sim vtpm did not start"
certify_tpm
round_trip platform
stop_swtpm
sh $provision provision rsa2048 "zz" 2>/dev/null && fail "non-hex provisioned"
ok
echo "ekca-check: $pass passed, 0 failed"

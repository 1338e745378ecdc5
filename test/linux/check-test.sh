#!/usr/bin/env bash
# test/linux/check.py against console logs made here, no kernel needed:
# the SVSM's report comes from `csvsm-sim attest` with the self-test's
# nonce, printed the way test/linux/csvsm-selftest prints it (gzip'd and
# raw hex, behind a machine's prefix, with carriage returns). The check
# must pass it, and must fail a wrong nonce, a changed blob, a guest that
# failed or skipped a check, and a report that is not a VMPL1 one. (No
# positive case for the plain VMPL1 report: only the PSP on the machine
# makes one.) The vTPM's blobs come from tpm2-tools against `csvsm-sim
# vtpm` (PCRs 8 and 9 extended with synthetic kernel, initrd and command
# line files, PCR 16, an AK and a quote over SHA-256 of the nonce) and a
# TCG2 event log written here with Python; the EK the guest "made" is the
# manifest's. The check must pass them and fail a wrong EK, a quote over
# another nonce, PCR values that do not cover the kernel, a log that
# replays to other values, and a PCR 16 that is not SHA-256(old || digest).
# The credential: the guest's command sequence (tpm2_startauthsession,
# tpm2_policysecret -c e, tpm2_activatecredential) recovers a secret
# tpm2_makecredential -T none made for the AK's name with csvsm-sim's EK;
# scripts/linux-relying-party.sh --answer answers a log's request (with
# the manifest's EK) and refuses a wrong AK name or an unverified report;
# the check must pass the secret it made and fail a wrong secret, a
# missing answer, a credential made with another EK, and no record.
# The EK certificates: csvsm-ekca's for the manifest's RSA and ECC EKs
# pass; another CA's, the CA's for another key, and the RSA one's where
# the ECC one belongs fail.
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

# --- the vTPM's blobs, from tpm2-tools against csvsm-sim's vTPM ---------
port=$((20000 + RANDOM % 20000))
$bin/csvsm-sim vtpm --mssim "$port" --max-seconds 120 >"$tmp/vtpm.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$tmp"' EXIT
export TPM2TOOLS_TCTI="mssim:host=127.0.0.1,port=$port"
for _ in $(seq 50); do
	tpm2_getrandom 1 >/dev/null 2>&1 && break
	sleep 0.1
done
t=$tmp/tpm
mkdir -p "$t"
tpm() { # without a resource manager: flush what each tool left loaded
	"$@" >>"$tmp/tpm.log" 2>&1 || fail "$* (see $(tail -n2 "$tmp/tpm.log"))"
	tpm2_flushcontext -t >/dev/null 2>&1 || true
}
sha() { sha256sum "$@" | cut -c1-64; }
# A bzImage's shape: one setup sector (0x1F1), "HdrS" at 0x202, then the
# protected-mode part, which alone is measured.
bzimage() { # BODY OUT
	python3 -c 'import sys; h = bytearray(1024); h[0x1F1] = 1
h[0x202:0x206] = b"HdrS"; open(sys.argv[2], "wb").write(bytes(h) + sys.argv[1].encode())' "$1" "$2"
}
bzimage 'a kernel' "$t/vmlinuz"
printf 'an initrd' >"$t/initrd.img"
printf 'console=ttyS0 csvsm.test=1\n' >"$t/cmdline"
tpm tpm2_pcrextend "9:sha256=$(printf 'a kernel' | sha)"
tpm tpm2_pcrextend "9:sha256=$(sha "$t/initrd.img")"
tpm tpm2_pcrextend "8:sha256=$(printf 'console=ttyS0 csvsm.test=1' | sha)"
printf 'csvsm linux self-test' >"$t/pcr16-data.bin"
tpm tpm2_pcrread -o "$t/pcr16-before.bin" sha256:16
tpm tpm2_pcrextend "16:sha256=$(sha "$t/pcr16-data.bin")"
tpm tpm2_pcrread -o "$t/pcr16-after.bin" sha256:16
tpm tpm2_createek -c "$t/ek.ctx" -G rsa -u "$t/sim-ek.pub"
qnonce=$(sha "$tmp/nonce.bin")
quote() { # QUALIFYING-DATA PREFIX
	tpm2_createek -c "$t/ek.ctx" -G rsa >/dev/null 2>&1
	tpm tpm2_createak -C "$t/ek.ctx" -c "$t/ak.ctx" -G ecc -g sha256 \
		-s ecdsa -u "$t/$2ak-public.bin"
	tpm tpm2_quote -c "$t/ak.ctx" -l sha256:8,9,16 -q "$1" -m "$t/$2quote-msg.bin" \
		-s "$t/$2quote-sig.bin" -o "$t/$2quote-pcrs.bin" -g sha256
}
quote "$qnonce" ""
quote "$(printf 'another nonce' | sha)" other-
tpm tpm2_pcrread -o "$t/pcrs.bin" sha256:8,9,16
# The credential round trip as the guest and the relying party run it,
# on csvsm-sim's vTPM (its EK, the last AK): the name computed as
# test/lib/oracle.py does for the check and the relying party, so the
# TPM's acceptance proves it too.
name_of() { test/lib/oracle.py tpm-name "$1"; }
head -c 32 /dev/urandom >"$t/cred-secret.bin"
tpm2_makecredential -T none -u "$t/sim-ek.pub" -s "$t/cred-secret.bin" \
	-n "$(name_of "$t/other-ak-public.bin")" -o "$t/cred.bin" >/dev/null 2>&1 ||
	fail "tpm2_makecredential -T none"
tpm2_createek -c "$t/ek.ctx" -G rsa >/dev/null 2>&1
tpm tpm2_startauthsession --policy-session -S "$t/session.ctx"
tpm tpm2_policysecret -S "$t/session.ctx" -c e
tpm2_activatecredential -c "$t/ak.ctx" -C "$t/ek.ctx" -i "$t/cred.bin" \
	-o "$t/cred-got.bin" -P "session:$t/session.ctx" >>"$tmp/tpm.log" 2>&1 ||
	fail "tpm2_activatecredential ($(tail -n2 "$tmp/tpm.log"))"
tpm2_flushcontext -t >/dev/null 2>&1 || true
tpm2_flushcontext -s >/dev/null 2>&1 || true
cmp -s "$t/cred-secret.bin" "$t/cred-got.bin" || fail "activatecredential: another secret"
ok
# The EK as the guest's tpm2_createek writes it (TPM2B_PUBLIC) from the
# manifest's vTPM entry (found by its GUID: the manifest has others),
# through test/linux/relying_party.py as the relying party takes it: none
# before the SVSM's report verified, none from a manifest the report does
# not bind.
mkdir -p "$tmp/lib"
for f in report manifest certs; do cp "$tmp/$f.bin" "$tmp/lib/svsm-$f.bin"; done
python3 - "$tmp/lib" "$t/manifest-ek.bin" "$nonce" <<'PY' || fail "relying_party.py"
import os, shutil, sys
sys.path.insert(0, "test/linux")
from relying_party import Verifier

out, ek, nonce = sys.argv[1:4]


def bad(check, why):
    print(f"linux-check-test: FAIL: {check}: {why}")
    sys.exit(1)


def fail(what):
    print(f"linux-check-test: FAIL: {what}")
    sys.exit(1)


v = Verifier(out, [], lambda what: None, bad)
manifest = os.path.join(out, "svsm-manifest.bin")
if v.manifest_ek(manifest, ek):
    fail("manifest_ek gave an entry before a report verified")
v.verify_svsm_report(nonce)
if open(os.path.join(out, "svsm-vcek.der"), "rb").read() != \
        open("build/pki/vcek.der", "rb").read():
    fail("verify_svsm_report kept no VCEK from the certificate table")
other = os.path.join(out, "other-manifest.bin")
shutil.copy(manifest, other)
with open(other, "r+b") as f:
    f.seek(100)
    f.write(b"\x01")
if v.manifest_ek(other, ek):
    fail("manifest_ek gave an entry from a manifest the report does not bind")
if not v.manifest_ek(manifest, ek):
    fail("no vTPM entry in csvsm-sim's manifest")
PY
printf '%04x' "$(wc -c <"$t/manifest-ek.bin")" | xxd -r -p |
	cat - "$t/manifest-ek.bin" >"$t/ek-public.bin"
cmp -s "$t/ek-public.bin" "$t/sim-ek.pub" && fail "csvsm-sim's two vTPMs have one EK"
# A TCG2 log: the Spec ID event (SHA-1 format, SHA-256 bank), then EV_IPL
# events in GRUB's scheme (docs/vtpm.md).
eventlog() { # KERNEL INITRD CMDLINE-FILE OUT
	python3 - "$@" <<'PY'
import hashlib, struct, sys
kernel, initrd, cmd, out = sys.argv[1:5]
spec = (b"Spec ID Event03\0" + struct.pack("<IBBBBI", 0, 0, 2, 0, 2, 1)
        + struct.pack("<HH", 0x000B, 32) + b"\0")
log = struct.pack("<II", 0, 3) + bytes(20) + struct.pack("<I", len(spec)) + spec
def ev(pcr, data, desc):
    d = hashlib.sha256(data).digest()
    return (struct.pack("<IIIH", pcr, 13, 1, 0x000B) + d
            + struct.pack("<I", len(desc)) + desc)
line = open(cmd, "rb").read().split(b"\n")[0]
log += ev(9, open(kernel, "rb").read()[1024:], b"csvsm:linux\0")
log += ev(9, open(initrd, "rb").read(), b"csvsm:initrd\0")
log += ev(8, line, b"kernel_cmdline: " + line + b"\0")
open(out, "wb").write(log)
PY
}
eventlog "$t/vmlinuz" "$t/initrd.img" "$t/cmdline" "$t/eventlog.bin"
bzimage 'another kernel' "$t/other-vmlinuz"
eventlog "$t/other-vmlinuz" "$t/initrd.img" "$t/cmdline" "$t/other-eventlog.bin"
tpmargs=(--kernel "$t/vmlinuz" --initrd "$t/initrd.img" --cmdline "$t/cmdline")
# The EK certificate as the relying party issues it (csvsm-ekca over the
# report, its MEASUREMENT trusted), under a CA the check is told of, and
# one from another CA.
meas=$(python3 -c 'import sys; print(open(sys.argv[1], "rb").read()[0x90:0xC0].hex())' \
	"$tmp/report.bin")
ekca() { # CA-DIR OUT-DIR
	mkdir -p "$2"
	$bin/csvsm-ekca --ca "$1" --out "$2" --report "$tmp/report.bin" \
		--vcek build/pki/vcek.der --chain build/pki/ask_ark.pem \
		--nonce "$nonce" --manifest "$tmp/manifest.bin" --measurement "$meas" \
		>/dev/null 2>"$tmp/ekca.err" || fail "csvsm-ekca: $(tail -n1 "$tmp/ekca.err")"
}
ekca "$tmp/ekca" "$t/ekcert"
cp "$t/ekcert/ek-rsa2048.der" "$t/ekcert.der"
cp "$t/ekcert/ek-ecc-p256.der" "$t/ekcert-ecc.der"
ekca "$tmp/other-ca" "$t/ekcert-other-ca"
# The right CA's signature over another RSA key.
openssl req -new -newkey rsa:2048 -nodes -subj /CN=not-the-ek \
	-keyout "$t/not-the-ek.key" -out "$t/not-the-ek.csr" 2>/dev/null
openssl x509 -req -in "$t/not-the-ek.csr" -CA "$tmp/ekca/ca.pem" \
	-CAkey "$tmp/ekca/ca.key" -set_serial 7 -days 1 -outform der \
	-out "$t/ekcert-other-key.der" 2>/dev/null || fail "openssl x509 -req"
export CSVSM_EKCA=$tmp/ekca

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
		sev-guest attest-svsm attest-vmpl1 mem-shared-private tpm-devices \
		tpm-dmesg tpm-random tpm-pcr-extend tpm-ek tpm-quote tpm-credential \
		tpm-ekcert tpm-seal tpm-seal-refused tpm-persist pcr-measured \
		tpm-eventlog; do
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
	for f in pcr16-data.bin pcr16-before.bin pcr16-after.bin ek-public.bin \
		ak-public.bin quote-msg.bin quote-sig.bin quote-pcrs.bin pcrs.bin \
		eventlog.bin; do
		dump "$f" "$t/${TPM_PREFIX:-}$f" "$1"
	done
	dump ekcert.der "${EKCERT:-$t/ekcert.der}" "$1"
	dump ekcert-ecc.der "${EKCERT_ECC:-$t/ekcert-ecc.der}" "$1"
	echo "csvsm-selftest: credential-request AKNAME=$(name_of \
		"$t/${TPM_PREFIX:-}ak-public.bin")"
	[ -z "${CRED_SECRET:-}" ] || echo "csvsm-selftest: credential-secret $CRED_SECRET"
	echo "$2"
}
check() { # LOG [RP-DIR]: linux-check's output in $tmp/out
	test/linux/check.py --smp 2 "${tpmargs[@]}" --credential "${2:-$tmp/rp}" "$1" "$tmp/files" - \
		>"$tmp/out" 2>&1 || true
}
has() { grep -qF "linux-check: $1" "$tmp/out" || {
	cat "$tmp/out"
	fail "no '$1'"
}; }

# The relying party answers the request in a log (its report verified,
# no MEASUREMENT: "-"): CRED_SECRET is what a guest would recover.
answer() { # LOG RP-DIR [WORD]
	scripts/linux-relying-party.sh --answer "$1" "$2" - "${3:-$word}"
}
guest_log gzip "" >"$tmp/log0"
answer "$tmp/log0" "$tmp/rp" >"$tmp/answer" || fail "refused: $(cat "$tmp/answer")"
grep -qE '^CSVSM-CREDENTIAL [0-9a-f]{200,}$' "$tmp/answer" || fail "answer: $(cat "$tmp/answer")"
tail -c +3 "$tmp/rp/ek-public.bin" | cmp -s - "$t/manifest-ek.bin" ||
	fail "the relying party did not use the manifest's EK"
CRED_SECRET=$(xxd -p -c 64 "$tmp/rp/secret.bin")
export CRED_SECRET
ok
sed 's/AKNAME=000b../AKNAME=000b00/' "$tmp/log0" >"$tmp/log0b"
answer "$tmp/log0b" "$tmp/rp-b" >"$tmp/answer" && fail "another AK name answered"
grep -q '^CSVSM-CREDENTIAL-REFUSED AKNAME is not the name' "$tmp/answer" ||
	fail "answer: $(cat "$tmp/answer")"
answer "$tmp/log0" "$tmp/rp-c" other >"$tmp/answer" && fail "an unverified report answered"
grep -q '^CSVSM-CREDENTIAL-REFUSED svsm-report: csvsm-verify: .*report-data' "$tmp/answer" ||
	fail "answer: $(cat "$tmp/answer")"
ok

for enc in gzip raw; do
	guest_log $enc "9 passed, 0 failed" | sed 's/$/\r/' >"$tmp/log"
	check "$tmp/log"
	has "PASS guest-result (9 passed, 0 failed)"
	has "PASS cpus (2 of 2 online)"
	has "PASS svsm-report (chain, signature, REPORT_DATA, VMPL 0; VCEK svsm-vcek.der)"
	has "FAIL plain-report: VMPL 0, not 1"
	has "PASS pcr-extend"
	has "PASS ek-manifest"
	has "PASS quote"
	has "PASS pcr-measured"
	has "PASS eventlog"
	has "PASS credential"
	has "PASS ekcert ("
	has "PASS ekcert-ecc ("
	has "11 passed, 1 failed"
	cmp -s "$tmp/files/svsm-certs.bin" "$tmp/certs.bin" || fail "$enc: certs differ"
	ok
done

test/linux/check.py --nonce other --smp 2 "${tpmargs[@]}" "$tmp/log" "$tmp/files" - \
	>"$tmp/out" 2>&1 && fail "a wrong nonce passed"
has "FAIL nonce:"
has "FAIL svsm-report: csvsm-verify: csvsm-verify: FAILED report-data"
has "FAIL quote: tpm2_checkquote"
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

# A wrong EK: csvsm-sim's own vTPM's, not the manifest's.
cp "$t/sim-ek.pub" "$t/wrong-ek-public.bin"
for f in "$t"/*.bin; do
	[ -e "$t/wrong-${f##*/}" ] || ln -s "$f" "$t/wrong-${f##*/}"
done
TPM_PREFIX=wrong- guest_log gzip "9 passed, 0 failed" >"$tmp/log6"
check "$tmp/log6"
has "FAIL ek-manifest: the guest's EK is not the one in the services manifest"
has "PASS quote"
ok

# A quote over another nonce (its own AK public with it).
for f in "$t"/*.bin; do
	case ${f##*/} in other-* | wrong-*) ;; *)
		[ -e "$t/other-${f##*/}" ] || ln -s "$f" "$t/other-${f##*/}" ;;
	esac
done
mv "$t/other-eventlog.bin" "$t/kernel2-eventlog.bin"
ln -s "$t/eventlog.bin" "$t/other-eventlog.bin"
TPM_PREFIX=other- guest_log gzip "9 passed, 0 failed" >"$tmp/log7"
check "$tmp/log7"
has "FAIL quote: tpm2_checkquote"
has "PASS ek-manifest"
ok

# PCRs 8 and 9 and the log checked against another kernel than the one
# measured: both must fail; then a log that replays to another kernel.
test/linux/check.py --smp 2 --kernel "$t/other-vmlinuz" --initrd "$t/initrd.img" \
	--cmdline "$t/cmdline" "$tmp/log" "$tmp/files" - >"$tmp/out" 2>&1 || true
has "FAIL pcr-measured: PCR 9 is"
has "FAIL eventlog: the log replays to PCR 8"
has "PASS quote"
ok
cp "$t/kernel2-eventlog.bin" "$t/log-eventlog.bin"
for f in "$t"/*.bin; do
	case ${f##*/} in other-* | wrong-* | log-* | kernel2-*) ;; *)
		[ -e "$t/log-${f##*/}" ] || ln -s "$f" "$t/log-${f##*/}" ;;
	esac
done
TPM_PREFIX=log- guest_log gzip "9 passed, 0 failed" >"$tmp/log8"
check "$tmp/log8"
has "FAIL eventlog: the log replays to PCR 8"
has "PASS pcr-measured"
ok

# PCRs all zero (nothing measured): the message the guest's check gives too.
for f in "$t"/*.bin; do
	case ${f##*/} in other-* | wrong-* | log-* | kernel2-* | zero-*) ;; *)
		[ -e "$t/zero-${f##*/}" ] || ln -s "$f" "$t/zero-${f##*/}" ;;
	esac
done
rm "$t/zero-pcrs.bin" "$t/zero-quote-msg.bin" "$t/zero-quote-sig.bin" \
	"$t/zero-quote-pcrs.bin" "$t/zero-ak-public.bin"
printf '%0192d' 0 | xxd -r -p >"$t/zero-pcrs.bin"
# The real quote cannot cover zeros: pcrs.bin no longer matches its digest.
cp "$t/quote-msg.bin" "$t/zero-quote-msg.bin"
cp "$t/quote-sig.bin" "$t/zero-quote-sig.bin"
cp "$t/quote-pcrs.bin" "$t/zero-quote-pcrs.bin"
cp "$t/ak-public.bin" "$t/zero-ak-public.bin"
TPM_PREFIX=zero- guest_log gzip "9 passed, 0 failed" >"$tmp/log9"
check "$tmp/log9"
has "FAIL quote: pcrs.bin is not what the quote's pcrDigest"
has "FAIL pcr-measured: no quoted PCR values"
ok

# PCR 16 not SHA-256(old || SHA-256(data)): other data than was extended.
for f in "$t"/*.bin; do
	case ${f##*/} in other-* | wrong-* | log-* | kernel2-* | zero-* | p16-*) ;; *)
		[ -e "$t/p16-${f##*/}" ] || ln -s "$f" "$t/p16-${f##*/}" ;;
	esac
done
rm "$t/p16-pcr16-data.bin"
printf 'other data' >"$t/p16-pcr16-data.bin"
TPM_PREFIX=p16- guest_log gzip "9 passed, 0 failed" >"$tmp/log10"
check "$tmp/log10"
has "FAIL pcr-extend: PCR 16 is"
ok

# The EK certificate: another CA's, and the CA's for another key.
EKCERT=$t/ekcert-other-ca/ek-rsa2048.der guest_log gzip "9 passed, 0 failed" >"$tmp/log-ekca"
check "$tmp/log-ekca"
has "FAIL ekcert: openssl verify against $tmp/ekca/ca.pem"
has "PASS credential"
EKCERT=$t/ekcert-other-key.der guest_log gzip "9 passed, 0 failed" >"$tmp/log-ekkey"
check "$tmp/log-ekkey"
has "FAIL ekcert: the certificate's key is not the manifest's RSA EK"
# The RSA EK's certificate where the ECC one belongs.
EKCERT_ECC=$t/ekcert.der guest_log gzip "9 passed, 0 failed" >"$tmp/log-ekecc"
check "$tmp/log-ekecc"
has "FAIL ekcert-ecc: the certificate's key is not the manifest's ECC P-256 EK"
has "PASS ekcert ("
ok

# The credential: a wrong secret, no answer (the guest's failure), a
# credential made with another EK than the manifest's, no record.
CRED_SECRET=$(printf '%064d' 0) guest_log gzip "9 passed, 0 failed" >"$tmp/log11"
check "$tmp/log11"
has "FAIL credential: the guest recovered 0000"
ok
guest_log gzip "8 passed, 1 failed" tpm-credential |
	sed -e 's/^SKIP tpm-credential.*/FAIL tpm-credential: no answer from the relying party within 120s/' \
		-e '/credential-secret/d' >"$tmp/log12"
check "$tmp/log12"
has "FAIL guest-tpm-credential: not passed"
has "FAIL credential: the guest recovered no secret"
ok
cp -r "$tmp/rp" "$tmp/rp-ek"
cp "$t/sim-ek.pub" "$tmp/rp-ek/ek-public.bin"
check "$tmp/log" "$tmp/rp-ek"
has "FAIL credential: the credential was not made with the services manifest's EK"
ok
check "$tmp/log" "$tmp/rp-none"
has "FAIL credential: the relying party made no credential"
ok

echo "linux-check-test: $npass passed, 0 failed"

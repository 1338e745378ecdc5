#!/usr/bin/env bash
# The host's half of the Linux guest's self-test (test/linux/csvsm-selftest):
# take the attestation blobs the guest printed as hex out of its console
# log, keep them as files, verify them as a relying party would, and pass
# only if the guest's own checks passed too (docs/linux.md).
#   linux-check.sh [--nonce WORD] [--smp N] [--kernel F] [--initrd F]
#                  [--cmdline F] [--credential DIR] LOG OUTDIR IMAGE
# OUTDIR gets nonce.bin, svsm-report.bin, svsm-manifest.bin, svsm-certs.bin,
# plain-report.bin, plain-certs.bin, the vTPM's pcr16-*.bin, ek-public.bin,
# ak-public.bin, quote-*.bin, pcrs.bin, eventlog.bin (those the guest
# printed), and the VCEKs found in the certificate tables. IMAGE is the IGVM image that
# booted: the reports' MEASUREMENT must equal `csvsm-igvm measure IMAGE`
# for --smp vCPUs on the emulated machine's CPU (scripts/emu-measure.sh;
# "-" skips that check, for logs from elsewhere). WORD is the guest's
# csvsm.nonce (default csvsm-linux-selftest): the nonce is computed here,
# not read from the log. --smp N: every one of N CPUs must have come online.
# The vTPM's blobs (tpm2-tools in the guest) are checked with the host's
# tpm2-tools and sha256sum: PCR 16's extend, the EK against the services
# manifest, the quote (tpm2_checkquote, nonce SHA-256 of the nonce), and
# PCRs 8 and 9 and the event log against the kernel, initrd and command
# line that booted (--kernel, --initrd, --cmdline: default
# build/linux/vmlinuz, initrd.img, and cmdline, whose one line is it).
# --uefi firmware|none: Linux booted through OVMF (mk/uefi.mk), which
# measured the boot into the vTPM (firmware) or had no driver for it
# (none). The quote covers PCRs 0-9 and 16; with firmware, the event log
# is OVMF's from securityfs, replayed by tpm2_eventlog to every quoted PCR
# 0-9, PCR 4 holds the bzImage's Authenticode digest as Debian's pesign
# computes it and PCR 9 the initrd's (the EFI stub's); with none, PCRs 0-9
# are zero and there is no log.
# The AK's binding to the EK: DIR is what scripts/linux-relying-party.sh
# kept of the credential it made during the boot; it must have been made
# with the verified manifest's EK for the name of the quote's AK, and the
# secret the guest says it recovered must be DIR's secret.bin.
set -euo pipefail
# shellcheck source=scripts/linux-lib.sh
. "$(dirname "$0")/linux-lib.sh"

word=csvsm-linux-selftest
smp=""
kernel=build/linux/vmlinuz
initrd=build/linux/initrd.img
cmdfile=build/linux/cmdline
cred=""
entry=decompressor
uefi=""
while [ $# -gt 3 ]; do
	case $1 in
	--uefi) uefi=$2; shift 2 ;;
	--linux-entry) entry=$2; shift 2 ;;
	--nonce) word=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--kernel) kernel=$2; shift 2 ;;
	--initrd) initrd=$2; shift 2 ;;
	--cmdline) cmdfile=$2; shift 2 ;;
	--credential) cred=$2; shift 2 ;;
	*) echo "linux-check: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ $# -eq 3 ] || {
	echo "usage: linux-check.sh [--nonce WORD] [--smp N] [--kernel F]" \
		"[--initrd F] [--cmdline F] [--credential DIR]" \
		"[--linux-entry decompressor|startup_64] [--uefi firmware|none]" \
		"LOG OUTDIR IMAGE" >&2
	exit 2
}
case $uefi in
"" | firmware | none) ;;
*) echo "linux-check: --uefi $uefi: firmware or none" >&2; exit 2 ;;
esac
case $entry in
decompressor | startup_64) ;;
*) echo "linux-check: --linux-entry $entry: decompressor or startup_64" >&2; exit 2 ;;
esac
log=$1
out=$2
image=$3
bin=build/bin
pki=build/pki
npass=0
nfail=0
ok() {
	echo "linux-check: PASS $1"
	npass=$((npass + 1))
}
bad() { # NAME WHY...
	echo "linux-check: FAIL $1: ${*:2}"
	nfail=$((nfail + 1))
}
[ -r "$log" ] || { echo "linux-check: no log $log" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/*.bin "$out"/*.der "$out"/*.txt "$out"/*.err "$out"/*.pub

# --- the guest's verdict ----------------------------------------------
clean=$(mktemp)
trap 'rm -f "$clean"' EXIT
clean_log "$log" "$clean"
result=$(grep -oE '(^|[^0-9])[0-9]+ passed, [0-9]+ failed$' "$clean" |
	tail -n1 | sed 's/^[^0-9]*//' || true)
if [ -z "$result" ]; then
	bad guest-result "no 'N passed, M failed' line: the self-test did not end"
elif [[ $result == *" 0 failed" ]] && [[ $result != "0 passed"* ]]; then
	ok "guest-result ($result)"
else
	bad guest-result "the guest says: $result"
	grep -E '(^|[^A-Z])FAIL ' "$clean" | sed 's/^/linux-check:   guest: /' || true
fi
# The checks a run on csvsm must have passed, not skipped.
for c in snp-active snp-vmpl1 cpus-online sev-guest attest-svsm attest-vmpl1 \
	mem-shared-private tpm-devices tpm-dmesg tpm-random tpm-pcr-extend tpm-ek \
	tpm-quote tpm-credential tpm-ekcert tpm-seal tpm-seal-refused tpm-persist \
	pcr-measured tpm-eventlog \
	$(grep -qw 'csvsm.accept=lazy' "$cmdfile" 2>/dev/null && echo mem-lazy-accept) \
	$([ -z "$uefi" ] || echo efi-runtime); do
	grep -qE "(^|[^A-Z])PASS $c( |\$)" "$clean" || bad "guest-$c" "not passed"
done
if [ -n "$smp" ]; then
	if grep -qE "PASS cpus-online \($smp of $smp\)" "$clean"; then
		ok "cpus ($smp of $smp online)"
	else
		bad cpus "not all $smp CPUs came online"
	fi
	if [ "$smp" -gt 1 ] && ! grep -qE '(^|[^A-Z])PASS cpu-hotplug' "$clean"; then
		bad cpu-hotplug "no CPU went offline and back"
	fi
fi

# --- the blobs -----------------------------------------------------------
extract_blobs "$clean"

nonce=$(nonce_of "$word")
if [ -f "$out/nonce.bin" ] && [ "$(xxd -p -c 64 "$out/nonce.bin")" != "$nonce" ]; then
	bad nonce "the guest used another nonce than SHA-512(\"$word\")"
fi

measure=()
if [ "$image" != - ]; then
	m=$(CSVSM_BIN=$bin scripts/emu-measure.sh "$image" "${smp:-1}") || {
		echo "linux-check: csvsm-igvm measure $image failed" >&2
		exit 2
	}
	measure=(--measurement "$m")
fi

verify_svsm_report "$nonce" || true
# The PSP's report for VMPL1: REPORT_DATA is the nonce itself.
verify_report plain 1 "$nonce" || true

# --- the vTPM ----------------------------------------------------------
sha() { sha256sum "$@" | cut -c1-64; }
hexf() { od -An -tx1 -v "$1" | tr -d ' \n'; }
zero32=$(printf '%064d' 0)
have() { # CHECK FILE...: every blob there, else a failure of CHECK
	local c=$1 f
	shift
	for f in "$@"; do
		[ -s "$out/$f" ] || {
			bad "$c" "the guest printed no $f"
			return 1
		}
	done
}
# sha256(A || B) for two hex digests
extend() { echo "$1$2" | xxd -r -p | sha; }
# The bzImage's protected-mode part, what the image carries and the SVSM
# measures (docs/vtpm.md): after the boot sector and setup_sects sectors
# (0x1F1; 0 means 4), given the "HdrS" signature at 0x202.
kernel_part() {
	local sects
	[ "$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)" = HdrS ] || return 1
	sects=$(od -An -tu1 -j 497 -N1 "$1" | tr -d ' ')
	[ "$sects" -ne 0 ] || sects=4
	tail -c +$(((sects + 1) * 512 + 1)) "$1"
}

# PCR 16: the value after = SHA-256(before || SHA-256(data)).
if have pcr-extend pcr16-data.bin pcr16-before.bin pcr16-after.bin; then
	want=$(extend "$(hexf "$out/pcr16-before.bin")" "$(sha "$out/pcr16-data.bin")")
	if [ "$(hexf "$out/pcr16-after.bin")" = "$want" ]; then
		ok "pcr-extend (PCR 16 = SHA-256(old || SHA-256(data)))"
	else
		bad pcr-extend "PCR 16 is $(hexf "$out/pcr16-after.bin"), not $want"
	fi
fi

# The EK tpm2_createek made in the guest (TPM2B_PUBLIC) against the
# vTPM's entry in the services manifest the SVSM's report binds.
if have ek-manifest ek-public.bin svsm-manifest.bin; then
	found=""
	manifest_ek "$out/svsm-manifest.bin" "$out/manifest-ek.bin" && found=1
	tail -c +3 "$out/ek-public.bin" >"$out/ek-tpmt.bin"
	if [ -z "$found" ]; then
		bad ek-manifest "the services manifest has no vTPM entry"
	elif cmp -s "$out/ek-tpmt.bin" "$out/manifest-ek.bin"; then
		ok "ek-manifest (the guest's EK is the services manifest's)"
	else
		bad ek-manifest "the guest's EK is not the one in the services manifest"
	fi
fi

# The quote: tpm2_checkquote with the AK, qualifying data SHA-256 of the
# nonce computed here; then pcrs.bin (PCRs 8, 9, 16 as the guest read
# them) must hash to the quote's pcrDigest, so the values below are the
# quoted ones.
qnonce=$(echo "$nonce" | xxd -r -p | sha)
# The quoted PCRs, in order (test/linux/csvsm-selftest's quote_pcrs).
if [ -n "$uefi" ]; then
	quote_pcrs="0 1 2 3 4 5 6 7 8 9 16"
else
	quote_pcrs="8 9 16"
fi
npcrs=0
for p in $quote_pcrs; do npcrs=$((npcrs + 1)); done
# PCR N's value in a file of the quoted PCRs.
pcr() { # FILE N
	local i=0 p
	for p in $quote_pcrs; do
		if [ "$p" = "$2" ]; then
			od -An -tx1 -v -j $((i * 32)) -N 32 "$1" | tr -d ' \n'
			return
		fi
		i=$((i + 1))
	done
}
quoted=""
if have quote ak-public.bin quote-msg.bin quote-sig.bin quote-pcrs.bin pcrs.bin; then
	if ! tpm2_checkquote -u "$out/ak-public.bin" -m "$out/quote-msg.bin" \
		-s "$out/quote-sig.bin" -f "$out/quote-pcrs.bin" -g sha256 \
		-q "$qnonce" >"$out/checkquote.txt" 2>"$out/checkquote.err"; then
		bad quote "tpm2_checkquote: $(grep -m1 ERROR "$out/checkquote.err")"
	else
		digest=$(tpm2_print -t TPMS_ATTEST "$out/quote-msg.bin" 2>/dev/null |
			sed -n 's/^ *pcrDigest: *//p')
		if [ "$(wc -c <"$out/pcrs.bin")" = $((32 * npcrs)) ] &&
			[ "$(sha "$out/pcrs.bin")" = "$digest" ]; then
			ok "quote (tpm2_checkquote: AK signature, nonce, PCRs ${quote_pcrs// /, })"
			quoted=1
		else
			bad quote "pcrs.bin is not what the quote's pcrDigest ($digest) covers"
		fi
	fi
fi
if [ -n "$quoted" ] && [ -s "$out/pcr16-after.bin" ] &&
	[ "$(pcr "$out/pcrs.bin" 16)" != "$(hexf "$out/pcr16-after.bin")" ]; then
	bad quote "the quoted PCR 16 is not the extended value"
fi

# The AK bound to the EK: the relying party's credential, made with the
# EK of the manifest verified above for the name of the AK that signed
# the quote, was activated by the guest's TPM: the secret it printed is
# the one the relying party chose.
[ ! -s "$out/svsm-manifest.bin" ] ||
	manifest_ek "$out/svsm-manifest.bin" "$out/manifest-ek.bin" || true
if [ -z "$cred" ]; then
	bad credential "no relying party's record (--credential DIR)"
elif [ ! -s "$cred/secret.bin" ] || [ ! -s "$cred/ek-public.bin" ] ||
	[ ! -s "$cred/ak-name" ]; then
	bad credential "the relying party made no credential:" \
		"$(tail -n1 "$cred/rp.log" 2>/dev/null || echo "no $cred/rp.log")"
elif [ ! -s "$out/manifest-ek.bin" ] ||
	! tail -c +3 "$cred/ek-public.bin" | cmp -s - "$out/manifest-ek.bin"; then
	bad credential "the credential was not made with the services manifest's EK"
elif [ ! -s "$out/ak-public.bin" ] ||
	[ "$(name_of "$out/ak-public.bin")" != "$(cat "$cred/ak-name")" ]; then
	bad credential "the credential was not made for the name of the quote's AK"
else
	got=$(sed -n 's/^.*csvsm-selftest: credential-secret \([0-9a-f]*\)$/\1/p' \
		"$clean" | tail -n1)
	if [ -z "$got" ]; then
		bad credential "the guest recovered no secret"
	elif [ "$got" != "$(hexf "$cred/secret.bin")" ]; then
		bad credential "the guest recovered $got, not the relying party's secret"
	else
		ok "credential (the guest's TPM activated the secret made with the manifest's EK for the quote's AK)"
	fi
fi

# The EK certificates the guest read back with tpm2_getekcertificate
# (the self-test's tpm-ekcert): each issued under the relying party's CA
# ($CSVSM_EKCA, default build/ekca, where scripts/linux-relying-party.sh
# keeps it) for the EK the verified services manifest binds: the RSA
# one's modulus is its TPMT_PUBLIC's last 256 bytes; the ECC one's point
# its last 68 (x and y, each after a 2-byte size), the certificate's the
# last 64 bytes of its SubjectPublicKeyInfo (04 || x || y).
ekca=${CSVSM_EKCA:-build/ekca}
[ ! -s "$out/svsm-manifest.bin" ] ||
	manifest_ek_ecc "$out/svsm-manifest.bin" "$out/manifest-ek-ecc.bin" || true
cert_key() { # KIND PEM: the certified key as hex
	if [ "$1" = rsa ]; then
		openssl x509 -in "$2" -noout -modulus | sed 's/^Modulus=//'
	else
		openssl x509 -in "$2" -noout -pubkey | openssl pkey -pubin -outform der |
			tail -c 64 | xxd -p -u -c 64
	fi
}
manifest_key() { # KIND TPMT-FILE: the manifest's key as hex
	if [ "$1" = rsa ]; then
		tail -c 256 "$2" | xxd -p -u -c 256
	else
		{ tail -c 66 "$2" | head -c 32; tail -c 32 "$2"; } | xxd -p -u -c 64
	fi
}
check_ekcert() { # CHECK BLOB KIND MANIFEST-ENTRY WHAT
	local pem=$out/${2%.der}.pem
	if ! have "$1" "$2" svsm-manifest.bin; then
		return
	elif [ ! -s "$out/$4" ]; then
		bad "$1" "no verified manifest with the $5 entry"
	elif ! openssl x509 -inform der -in "$out/$2" -out "$pem" 2>"$out/$1.err"; then
		bad "$1" "not an X.509 certificate: $(head -n1 "$out/$1.err")"
	elif ! openssl verify -x509_strict -CAfile "$ekca/ca.pem" "$pem" \
		>"$out/$1.err" 2>&1; then
		bad "$1" "openssl verify against $ekca/ca.pem: $(tail -n1 "$out/$1.err")"
	elif [ "$(cert_key "$3" "$pem")" != "$(manifest_key "$3" "$out/$4")" ]; then
		bad "$1" "the certificate's key is not the manifest's $5"
	else
		ok "$1 (openssl verifies it under $ekca/ca.pem; its key is the manifest's $5)"
	fi
}
check_ekcert ekcert ekcert.der rsa manifest-ek.bin "RSA EK"
check_ekcert ekcert-ecc ekcert-ecc.der ecc manifest-ek-ecc.bin "ECC P-256 EK"

# PCRs 8 and 9 (GRUB's scheme, docs/vtpm.md): 9 = the kernel then the
# initrd, 8 = the command line's bytes (no newline, no NUL). The kernel is
# the bzImage's protected-mode part, or with --linux-entry startup_64 the
# loaded kernel proper, computed here apart from csvsm's C code
# (scripts/vmlinux-image.py: Debian's zstd and Python).
kernel_digest() {
	if [ "$entry" = startup_64 ]; then
		"$(dirname "$0")/vmlinux-image.py" "$kernel"
	else
		kernel_part "$kernel" | sha
	fi
}
# --- event logs; UEFI: the firmware's measurements ----------------------
# The events of tpm2_eventlog's output as "PCR TYPE SHA256" lines.
events() {
	awk '/^- EventNum:/ { pcr = ""; type = ""; alg = "" }
		/^  PCRIndex:/ { pcr = $2 }
		/^  EventType:/ { type = $2 }
		/AlgorithmId:/ { alg = $NF }
		/Digest:/ && alg == "sha256" { d = $NF; gsub(/"/, "", d); print pcr, type, tolower(d) }' \
		"$out/eventlog.txt"
}
# The replay's "pcrs:", "  sha256:", "    N  : 0x..." lines.
replayed() { # PCR
	awk -v n="$1" '/^pcrs:/ { p = 1; next } p && /^[^ ]/ { p = 0 }
		p && /^  [a-z0-9]+:$/ { bank = $1; next }
		p && bank == "sha256:" { sub(/:/, " "); if ($1 == n) print tolower($2) }' \
		"$out/eventlog.txt" | sed 's/^0x//'
}
uefi_checks() {
	local p got auth
	if [ -z "$quoted" ]; then
		bad pcr-measured "no quoted PCR values"
		return
	fi
	if [ "$uefi" = none ]; then
		for p in 0 1 2 3 4 5 6 7 8 9; do
			if [ "$(pcr "$out/pcrs.bin" "$p")" != "$zero32" ]; then
				bad pcr-measured "PCR $p is $(pcr "$out/pcrs.bin" "$p"), but the firmware has no vTPM driver"
				return
			fi
		done
		ok "pcr-measured (none: PCRs 0-9 zero, the firmware has no vTPM driver)"
		if [ -s "$out/eventlog.bin" ]; then
			bad eventlog "a firmware event log, but the firmware measures nothing"
		fi
		return
	fi
	have eventlog eventlog.bin || return
	if ! tpm2_eventlog "$out/eventlog.bin" >"$out/eventlog.txt" 2>"$out/eventlog.err"; then
		bad eventlog "tpm2_eventlog: $(head -n1 "$out/eventlog.err")"
		return
	fi
	for p in 0 1 2 3 4 5 6 7 8 9; do
		got=$(replayed "$p")
		if [ -z "$got" ] && [ "$p" -le 7 ]; then
			bad eventlog "the log has no event for PCR $p"
			return
		fi
		if [ "${got:-$zero32}" != "$(pcr "$out/pcrs.bin" "$p")" ]; then
			bad eventlog "the log replays PCR $p to ${got:-nothing}, the quote says $(pcr "$out/pcrs.bin" "$p")"
			return
		fi
	done
	ok "eventlog (tpm2_eventlog replays OVMF's log to the quoted PCRs 0-9)"
	events >"$out/events.txt"
	if ! auth=$(pesign --hash --in="$kernel" -d sha256 2>"$out/pesign.err" |
		sed -n 's/^hash: *//p') || [ -z "$auth" ]; then
		bad pcr-measured "pesign --hash $kernel: $(head -n1 "$out/pesign.err")"
	elif ! grep -q "^4 EV_EFI_BOOT_SERVICES_APPLICATION $auth\$" "$out/events.txt"; then
		bad pcr-measured "PCR 4 has no EV_EFI_BOOT_SERVICES_APPLICATION with the" \
			"kernel's Authenticode digest $auth (pesign)"
	elif ! grep -q "^9 [A-Z_]* $(sha "$initrd")\$" "$out/events.txt"; then
		bad pcr-measured "PCR 9 has no event with the initrd's SHA-256 $(sha "$initrd")"
	else
		ok "pcr-measured (PCR 4: the bzImage's Authenticode digest, as pesign computes it; PCR 9: the initrd's digest)"
	fi
}

if [ -n "$uefi" ]; then
	uefi_checks
else
want8="" want9=""
if [ -r "$kernel" ] && [ -r "$initrd" ] && [ -r "$cmdfile" ] &&
	kernel_part "$kernel" >/dev/null && kd=$(kernel_digest); then
	want8=$(extend "$zero32" "$(head -n1 "$cmdfile" | tr -d '\n' | sha)")
	want9=$(extend "$(extend "$zero32" "$kd")" "$(sha "$initrd")")
	if [ -z "$quoted" ]; then
		bad pcr-measured "no quoted PCR values"
	elif [ "$(pcr "$out/pcrs.bin" 9)" = "$zero32" ]; then
		bad pcr-measured "PCR 9 is zero: nothing measured the kernel"
	elif [ "$(pcr "$out/pcrs.bin" 9)" != "$want9" ]; then
		bad pcr-measured "PCR 9 is $(pcr "$out/pcrs.bin" 9), not $want9" \
			"(the kernel ${kernel##*/} then the initrd ${initrd##*/})"
	elif [ "$(pcr "$out/pcrs.bin" 8)" != "$want8" ]; then
		bad pcr-measured "PCR 8 is $(pcr "$out/pcrs.bin" 8), not $want8 (the command line)"
	else
		ok "pcr-measured (PCR 8 = the command line, PCR 9 = kernel, initrd)"
	fi
else
	bad pcr-measured "no bzImage $kernel, initrd $initrd or $cmdfile to compute PCRs 8 and 9 from"
fi

# The event log from setup_data, replayed by the host's tpm2_eventlog.
if have eventlog eventlog.bin; then
	if ! tpm2_eventlog "$out/eventlog.bin" >"$out/eventlog.txt" 2>"$out/eventlog.err"; then
		bad eventlog "tpm2_eventlog: $(head -n1 "$out/eventlog.err")"
	else
		got8=$(replayed 8)
		got9=$(replayed 9)
		if [ "$got9" != "$want9" ] || [ "$got8" != "$want8" ]; then
			bad eventlog "the log replays to PCR 8 ${got8:-none}, 9 ${got9:-none};" \
				"expected 8 $want8, 9 $want9"
		elif [ -n "$quoted" ] && { [ "$got8" != "$(pcr "$out/pcrs.bin" 8)" ] ||
			[ "$got9" != "$(pcr "$out/pcrs.bin" 9)" ]; }; then
			bad eventlog "the log's replay is not the quoted PCRs 8 and 9"
		else
			ok "eventlog (tpm2_eventlog replays PCRs 8 and 9 to the expected values)"
		fi
	fi
fi

fi

echo "linux-check: $npass passed, $nfail failed (files in $out)"
[ "$nfail" -eq 0 ]

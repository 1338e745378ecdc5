#!/usr/bin/env bash
# The host's half of the Linux guest's self-test (test/linux/csvsm-selftest):
# take the attestation blobs the guest printed as hex out of its console
# log, keep them as files, verify them as a relying party would, and pass
# only if the guest's own checks passed too (docs/linux.md).
#   linux-check.sh [--nonce WORD] [--smp N] LOG OUTDIR IMAGE
# OUTDIR gets nonce.bin, svsm-report.bin, svsm-manifest.bin, svsm-certs.bin,
# plain-report.bin, plain-certs.bin (those the guest printed), and the
# VCEKs found in the certificate tables. IMAGE is the IGVM image that
# booted: the reports' MEASUREMENT must equal `csvsm-igvm measure IMAGE`
# ("-" skips that check, for logs from elsewhere). WORD is the guest's
# csvsm.nonce (default csvsm-linux-selftest): the nonce is computed here,
# not read from the log. --smp N: every one of N CPUs must have come online.
set -euo pipefail

word=csvsm-linux-selftest
smp=""
while [ $# -gt 3 ]; do
	case $1 in
	--nonce) word=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	*) echo "linux-check: unknown argument $1" >&2; exit 2 ;;
	esac
done
[ $# -eq 3 ] || {
	echo "usage: linux-check.sh [--nonce WORD] [--smp N] LOG OUTDIR IMAGE" >&2
	exit 2
}
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
bad() {
	echo "linux-check: FAIL $1: $2"
	nfail=$((nfail + 1))
}
[ -r "$log" ] || { echo "linux-check: no log $log" >&2; exit 2; }
mkdir -p "$out"
rm -f "$out"/*.bin "$out"/*.der "$out"/*.txt "$out"/*.err

# --- the guest's verdict ----------------------------------------------
clean=$(mktemp)
trap 'rm -f "$clean"' EXIT
tr -d '\r' <"$log" >"$clean"
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
	mem-shared-private; do
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
# CSVSM-BLOB-BEGIN NAME SIZE SHA256 [gzip], CSVSM-HEX NAME HEX...,
# CSVSM-BLOB-END NAME; the hex is of the file's gzip when the BEGIN line
# says so. Text before the markers (a machine's prefix) is ignored. The
# last copy of a name wins.
names=$(sed -n 's/^.*CSVSM-BLOB-BEGIN \([a-z0-9.-]*\) .*$/\1/p' "$clean" | sort -u)
for n in $names; do
	begin=$(grep -n "CSVSM-BLOB-BEGIN $n " "$clean" | tail -n1)
	line=${begin%%:*}
	read -r _ size sum enc <<<"${begin#*CSVSM-BLOB-BEGIN }"
	tail -n +"$line" "$clean" | sed -n "/CSVSM-BLOB-END $n\$/q;
		s/^.*CSVSM-HEX $n \([0-9a-f]*\)\$/\1/p" | xxd -r -p |
		if [ "$enc" = gzip ]; then gzip -dc 2>/dev/null; else cat; fi \
		>"$out/$n" || true
	if [ "$(wc -c <"$out/$n")" != "$size" ] ||
		[ "$(sha256sum "$out/$n" | cut -d' ' -f1)" != "$sum" ]; then
		bad "blob-$n" "not the $size bytes (SHA-256 $sum) the guest sent"
	fi
done

nonce=$(printf '%s' "$word" | sha512sum | cut -c1-128)
if [ -f "$out/nonce.bin" ] && [ "$(xxd -p -c 64 "$out/nonce.bin")" != "$nonce" ]; then
	bad nonce "the guest used another nonce than SHA-512(\"$word\")"
fi

measure=()
if [ "$image" != - ]; then
	m=$($bin/csvsm-igvm measure "$image") || {
		echo "linux-check: csvsm-igvm measure $image failed" >&2
		exit 2
	}
	measure=(--measurement "$m")
fi

# The VCEK from a certificate table (the SVSM's or the host's, through
# the extended guest request), or the build's when there is none: the
# chain above it is always the build's, the relying party's own.
vcek_of() { # CERTS OUT
	local i=0 n guid off len
	n=$(wc -c <"$1")
	# Entries of GUID (little-endian fields), offset, length; zeros end it.
	while [ $((i + 24)) -le "$n" ]; do
		guid=$(od -An -tx1 -v -j $i -N 16 "$1" | tr -d ' \n')
		read -r off len <<<"$(od -An -tu4 -j $((i + 16)) -N 8 "$1")"
		[ "$guid" != "$(printf '0%.0s' {1..32})" ] || return 1
		if [ "$guid" = 8d75da6364e66445adc5f4b93be8accd ] &&
			[ $((off + len)) -le "$n" ]; then
			tail -c +$((off + 1)) "$1" | head -c "$len" >"$2"
			return 0
		fi
		i=$((i + 24))
	done
	return 1
}

# verify_report KIND VMPL REPORT_DATA-HEX [csvsm-verify options]
verify_report() {
	local kind=$1 vmpl=$2 data=$3 vcek=$pki/vcek.der
	shift 3
	if [ ! -f "$out/$kind-report.bin" ]; then
		bad "$kind-report" "the guest printed no $kind-report.bin"
		return
	fi
	if [ -f "$out/$kind-certs.bin" ] &&
		vcek_of "$out/$kind-certs.bin" "$out/$kind-vcek.der"; then
		vcek=$out/$kind-vcek.der
	fi
	if ! $bin/csvsm-verify --report "$out/$kind-report.bin" --vcek "$vcek" \
		--chain $pki/ask_ark.pem "${measure[@]}" "$@" \
		>"$out/$kind-verify.txt" 2>"$out/$kind-verify.err"; then
		bad "$kind-report" "csvsm-verify: $(grep FAILED "$out/$kind-verify.err" |
			tr '\n' ' ')$(grep -v FAILED "$out/$kind-verify.err" | head -n1)"
		return
	fi
	local why="" got_vmpl got_data
	got_vmpl=$(sed -n 's/^report: version [0-9]*, VMPL \([0-9]*\),.*/\1/p' \
		"$out/$kind-verify.txt")
	got_data=$(sed -n 's/^  report data \([0-9a-f]*\)$/\1/p' "$out/$kind-verify.txt")
	if [ "$got_vmpl" != "$vmpl" ]; then
		why="VMPL ${got_vmpl:-?}, not $vmpl"
	elif [ -n "$data" ] && [ "$got_data" != "$data" ]; then
		why="REPORT_DATA is not the nonce"
	fi
	if [ -n "$why" ]; then
		bad "$kind-report" "$why"
	else
		ok "$kind-report (chain, signature, REPORT_DATA, VMPL $vmpl${measure:+,}\
${measure:+ MEASUREMENT}; VCEK ${vcek##*/})"
	fi
}

# The SVSM's report: VMPL0, REPORT_DATA = SHA-512(nonce || manifest),
# which csvsm-verify checks with the services manifest.
if [ -f "$out/svsm-manifest.bin" ]; then
	verify_report svsm 0 "" --nonce "$nonce" --manifest "$out/svsm-manifest.bin"
else
	bad svsm-report "the guest printed no svsm-manifest.bin"
fi
# The PSP's report for VMPL1: REPORT_DATA is the nonce itself.
verify_report plain 1 "$nonce"

echo "linux-check: $npass passed, $nfail failed (files in $out)"
[ "$nfail" -eq 0 ]

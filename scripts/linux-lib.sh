# shellcheck shell=bash disable=SC2154
# What the host does with the Linux self-test's console output
# (test/linux/csvsm-selftest), shared by scripts/linux-check.sh (after the
# boot) and scripts/linux-relying-party.sh (during it): the blobs back
# into files, the SVSM's report verified as a relying party would, the
# vTPM's EK out of the services manifest it binds. The blobs are the
# guest's and the host's, hostile: nothing here parses them; csvsm-verify
# reads the certificate tables and the manifest (tools/verify/, fuzzed).
# Sourced; the caller defines ok NAME and bad NAME WHY, and sets out (the
# blobs' directory), bin (csvsm-verify's), pki (the test ARK, ASK, VCEK)
# and measure (an array: csvsm-verify's --measurement option, or empty).

# csvsm-verify's arguments that verified the SVSM's report last (less the
# manifest), for manifest_ek; empty while none has.
svsm_verified=()

# A console log without carriage returns.
clean_log() { tr -d '\r' <"$1" >"$2"; }

# CSVSM-BLOB-BEGIN NAME SIZE SHA256 [gzip], CSVSM-HEX NAME HEX...,
# CSVSM-BLOB-END NAME; the hex is of the file's gzip when the BEGIN line
# says so. Text before the markers (a machine's prefix) is ignored. The
# last copy of a name wins. Each blob goes to $out/NAME; one that is not
# the size and SHA-256 the guest sent is a failure blob-NAME.
extract_blobs() { # CLEAN-LOG
	local names n begin line size sum enc
	names=$(sed -n 's/^.*CSVSM-BLOB-BEGIN \([a-z0-9.-]*\) .*$/\1/p' "$1" | sort -u)
	for n in $names; do
		begin=$(grep -n "CSVSM-BLOB-BEGIN $n " "$1" | tail -n1)
		line=${begin%%:*}
		read -r _ size sum enc <<<"${begin#*CSVSM-BLOB-BEGIN }"
		tail -n +"$line" "$1" | sed -n "/CSVSM-BLOB-END $n\$/q;
			s/^.*CSVSM-HEX $n \([0-9a-f]*\)\$/\1/p" | xxd -r -p |
			if [ "$enc" = gzip ]; then gzip -dc 2>/dev/null; else cat; fi \
			>"$out/$n" || true
		if [ "$(wc -c <"$out/$n")" != "$size" ] ||
			[ "$(sha256sum "$out/$n" | cut -d' ' -f1)" != "$sum" ]; then
			bad "blob-$n" "not the $size bytes (SHA-256 $sum) the guest sent"
		fi
	done
}

# The nonce, as hex, for the guest's csvsm.nonce WORD.
nonce_of() { printf '%s' "$1" | sha512sum | cut -c1-128; }

# verify_report KIND VMPL REPORT_DATA-HEX [csvsm-verify options]: ok or
# bad KIND-report; status 0 only if it verified. The VCEK is the one in
# KIND-certs.bin (the SVSM's or the host's table, through the extended
# guest request; a malformed table fails), kept as KIND-vcek.der once the
# report verified, or the build's when there is no table or it has none:
# the chain above it is always the build's, the relying party's own.
# Once verified, verify_report_args holds the report, VCEK, chain and
# MEASUREMENT arguments that verified it (the caller's local, if any).
verify_report() {
	local kind=$1 vmpl=$2 data=$3 vcek=$pki/vcek.der certs=()
	shift 3
	if [ ! -f "$out/$kind-report.bin" ]; then
		bad "$kind-report" "the guest printed no $kind-report.bin"
		return 1
	fi
	rm -f "$out/$kind-vcek.der"
	[ ! -f "$out/$kind-certs.bin" ] ||
		certs=(--certs "$out/$kind-certs.bin" --vcek-out "$out/$kind-vcek.der")
	if ! "$bin/csvsm-verify" --report "$out/$kind-report.bin" --vcek "$vcek" \
		"${certs[@]}" --chain "$pki/ask_ark.pem" "${measure[@]}" "$@" \
		>"$out/$kind-verify.txt" 2>"$out/$kind-verify.err"; then
		bad "$kind-report" "csvsm-verify: $(grep FAILED "$out/$kind-verify.err" |
			tr '\n' ' ')$(grep -v FAILED "$out/$kind-verify.err" | head -n1)"
		return 1
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
		return 1
	fi
	[ ! -s "$out/$kind-vcek.der" ] || vcek=$out/$kind-vcek.der
	verify_report_args=(--report "$out/$kind-report.bin" --vcek "$vcek"
		--chain "$pki/ask_ark.pem" "${measure[@]}")
	ok "$kind-report (chain, signature, REPORT_DATA, VMPL $vmpl${measure:+,}\
${measure:+ MEASUREMENT}; VCEK ${vcek##*/})"
}

# The SVSM's report: VMPL0, REPORT_DATA = SHA-512(nonce || manifest),
# which csvsm-verify checks with the services manifest.
verify_svsm_report() { # NONCE-HEX
	local verify_report_args=()
	svsm_verified=()
	if [ ! -f "$out/svsm-manifest.bin" ]; then
		bad svsm-report "the guest printed no svsm-manifest.bin"
		return 1
	fi
	verify_report svsm 0 "" --nonce "$1" --manifest "$out/svsm-manifest.bin" ||
		return 1
	svsm_verified=("${verify_report_args[@]}" --nonce "$1")
}

# The vTPM's entry in a services manifest (its EK's TPMT_PUBLIC) to OUT,
# only out of a manifest the SVSM's report binds: csvsm-verify checks it
# again with what verify_svsm_report verified and then writes the entry
# (--service vtpm). Status 1, OUT absent, when no report has verified,
# the report does not bind MANIFEST, or it has no vTPM entry.
manifest_ek() { # MANIFEST OUT
	rm -f "$2"
	[ ${#svsm_verified[@]} -gt 0 ] || return 1
	"$bin/csvsm-verify" "${svsm_verified[@]}" --manifest "$1" \
		--service vtpm --out "$2" >/dev/null 2>&1
}

# csvsm's ECC P-256 EK entry (abi/csvsm_ek.h, its TPMT_PUBLIC) to OUT, as
# manifest_ek: only out of a manifest the verified report binds.
manifest_ek_ecc() { # MANIFEST OUT
	rm -f "$2"
	[ ${#svsm_verified[@]} -gt 0 ] || return 1
	"$bin/csvsm-verify" "${svsm_verified[@]}" --manifest "$1" \
		--service 9707a83f-e42a-4a85-9fa8-dfe65260832a --out "$2" \
		>/dev/null 2>&1
}

# The TPM2B_PUBLIC tpm2_makecredential takes, from a TPMT_PUBLIC.
tpm2b_of() { # TPMT OUT
	printf '%04x' "$(wc -c <"$1")" | xxd -r -p | cat - "$1" >"$2"
}

# A key's TPM name, as hex, from its TPM2B_PUBLIC (tpm2_createak -u):
# the nameAlg (SHA-256 only) then SHA-256 of the TPMT_PUBLIC.
name_of() { # TPM2B-PUBLIC
	local alg
	alg=$(od -An -tx1 -v -j 4 -N 2 "$1" | tr -d ' \n')
	[ "$alg" = 000b ] || return 1
	echo "000b$(tail -c +3 "$1" | sha256sum | cut -c1-64)"
}

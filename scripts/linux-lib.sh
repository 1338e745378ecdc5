# shellcheck shell=bash disable=SC2154
# What the host does with the Linux self-test's console output
# (test/linux/csvsm-selftest), shared by scripts/linux-check.sh (after the
# boot) and scripts/linux-relying-party.sh (during it): the blobs back
# into files, the SVSM's report verified as a relying party would, the
# vTPM's EK out of the services manifest. Sourced; the caller defines
# ok NAME and bad NAME WHY, and sets out (the blobs' directory), bin
# (csvsm-verify's), pki (the test ARK, ASK, VCEK) and measure (an array:
# csvsm-verify's --measurement option, or empty).

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

# verify_report KIND VMPL REPORT_DATA-HEX [csvsm-verify options]: ok or
# bad KIND-report; status 0 only if it verified.
verify_report() {
	local kind=$1 vmpl=$2 data=$3 vcek=$pki/vcek.der
	shift 3
	if [ ! -f "$out/$kind-report.bin" ]; then
		bad "$kind-report" "the guest printed no $kind-report.bin"
		return 1
	fi
	if [ -f "$out/$kind-certs.bin" ] &&
		vcek_of "$out/$kind-certs.bin" "$out/$kind-vcek.der"; then
		vcek=$out/$kind-vcek.der
	fi
	if ! "$bin/csvsm-verify" --report "$out/$kind-report.bin" --vcek "$vcek" \
		--chain "$pki/ask_ark.pem" "${measure[@]}" "$@" \
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
	ok "$kind-report (chain, signature, REPORT_DATA, VMPL $vmpl${measure:+,}\
${measure:+ MEASUREMENT}; VCEK ${vcek##*/})"
}

# The SVSM's report: VMPL0, REPORT_DATA = SHA-512(nonce || manifest),
# which csvsm-verify checks with the services manifest.
verify_svsm_report() { # NONCE-HEX
	if [ ! -f "$out/svsm-manifest.bin" ]; then
		bad svsm-report "the guest printed no svsm-manifest.bin"
		return 1
	fi
	verify_report svsm 0 "" --nonce "$1" --manifest "$out/svsm-manifest.bin"
}

# A little-endian u32 of FILE at OFFSET.
u32_at() { od -An -tu4 -j "$2" -N4 "$1" | tr -d ' '; }

# The vTPM's entry (GUID c476f1eb-0123-45a5-9641-b4e7dde5bfe3) in a
# services manifest: its bytes, the EK's TPMT_PUBLIC, to OUT.
manifest_ek() { # MANIFEST OUT
	local m=$1 i e found=1
	for ((i = 0; i < $(u32_at "$m" 20); i++)); do
		e=$((24 + 24 * i))
		if [ "$(od -An -tx1 -v -j $e -N 16 "$m" | tr -d ' \n')" = \
			ebf176c42301a5459641b4e7dde5bfe3 ]; then
			tail -c +$(($(u32_at "$m" $((e + 16))) + 1)) "$m" |
				head -c "$(u32_at "$m" $((e + 20)))" >"$2"
			found=0
		fi
	done
	return $found
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

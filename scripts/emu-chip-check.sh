#!/usr/bin/env bash
# An emulated chip keeps its identity (issue 28; docs/vtpm.md,
# "Persistent state (in progress)"): the test image on the emulated
# machine, its SVSM logging at NOTICE a fingerprint of the vTPM state's
# sealing key (a digest of the key's ID, never the key), which the PSP
# derives over the launch's MEASUREMENT, policy and committed TCB from
# the chip's secret (build/chips/NAME, scripts/emu-run.sh --chip).
#   scripts/emu-chip-check.sh [IMAGE]
# Its test guest prints its SVSM attestation report and the host's
# certificate table (test/emu/guest/tests_attest.c).
# Checks, on two throwaway chips made by the first run on each:
# - two runs on one chip, one image: the same key, CHIP_ID and VCEK;
# - each report verifies with the VCEK of its run's certificate table,
#   its own chip's (build/chips/NAME.vcek/vcek.der), not the other's;
# - two chips: two CHIP_IDs, two VCEKs, and csvsm-verify's ledger (keyed
#   by CHIP_ID and MEASUREMENT) keeps a record for each;
# - another chip, same image (same MEASUREMENT): another key;
# - the same chip, another MEASUREMENT (-smp 2: one VMSA more): another;
# - a chip file, or a chip identity file, that is not one: the PSP
#   refuses the launch (LAUNCH_REFUSED).
set -uo pipefail

image=${1:-build/csvsm.igvm}
dir=build/machine/chip-check
mkdir -p "$dir"
a=check-a-$$
b=check-b-$$
trap 'rm -rf build/chips/$a build/chips/$b build/chips/$a-bad \
	build/chips/$a.vcek build/chips/$b.vcek build/chips/$a-bad.vcek \
	build/chips/$a-badid build/chips/$a-badid.vcek' EXIT

fail() {
	echo "emu-chip-check: FAILED: $*" >&2
	exit 1
}

# Run on chip $1 with -smp $2, log $3; print "FINGERPRINT MEASUREMENT".
run() {
	scripts/emu-run.sh --image "$image" --chip "$1" --smp "$2" \
		--expect GUEST_PASSED --timeout 240 --log "$3" >/dev/null ||
		fail "the run on chip $1, -smp $2 did not pass ($3)"
	local key m
	key=$(sed -n 's/.*vTPM state: sealing key \([0-9a-f]\{16\}\) .*/\1/p' "$3")
	m=$(sed -n 's/^emu: launch measurement \([0-9a-f]*\).*/\1/p' "$3")
	[ -n "$key" ] || fail "no sealing key fingerprint in $3"
	[ -n "$m" ] || fail "no launch measurement in $3"
	grep -q '^emu: chip: its secret from opt/csvsm/chip' "$3" ||
		fail "the machine did not take the chip file ($3)"
	grep -q '^emu: chip: its VCEK and CHIP_ID .* from opt/csvsm/chip-id' "$3" ||
		fail "the machine did not take the chip's identity ($3)"
	evidence "$3" "${3%.log}"
	echo "$key $m"
}

# The report, nonce, manifest and certificate table LOG's guest printed,
# as PREFIX.{report,nonce,manifest,certs}; the report verified with the
# table's VCEK (kept as PREFIX.vcek.der) under the build's chain.
evidence() { # LOG PREFIX
	local tag
	for tag in REPORT NONCE MANIFEST CERTS; do
		sed -n "s/^.*ATTEST-$tag \([0-9a-f]*\)\r\?$/\1/p" "$1" |
			tr -d '\n' | xxd -r -p >"$2.${tag,,}"
		[ -s "$2.${tag,,}" ] || fail "no ATTEST-$tag lines in $1"
	done
	build/bin/csvsm-verify --report "$2.report" --certs "$2.certs" \
		--chain build/pki/ask_ark.pem --nonce "$(xxd -p -c 64 "$2.nonce")" \
		--manifest "$2.manifest" --vcek-out "$2.vcek.der" \
		>"$2.verify" 2>&1 ||
		fail "$1's report does not verify with its table's VCEK ($2.verify)"
}

# The report's CHIP_ID (SNP ABI 56860, table 23: offset 0x1A0), as hex.
chip_id() { # REPORT
	xxd -p -s $((0x1A0)) -l 64 -c 64 "$1"
}

# Verify REPORT (of evidence PREFIX) with VCEK; status as csvsm-verify's.
verify_with() { # PREFIX VCEK
	build/bin/csvsm-verify --report "$1.report" --vcek "$2" \
		--chain build/pki/ask_ark.pem >/dev/null 2>&1
}

# The ledger's verdict on the vTPM state of PREFIX's report.
ledger() { # PREFIX LEDGER
	build/bin/csvsm-verify --report "$1.report" --certs "$1.certs" \
		--chain build/pki/ask_ark.pem --nonce "$(xxd -p -c 64 "$1.nonce")" \
		--manifest "$1.manifest" --ledger "$2" 2>&1 |
		sed -n 's/^ledger: \([a-z-]*\).*/\1/p'
}

[ ! -e "build/chips/$a" ] || fail "build/chips/$a exists"
read -r a1 m1 < <(run "$a" 1 "$dir/a1.log")
[ -f "build/chips/$a" ] || fail "the first run made no build/chips/$a"
read -r a2 m2 < <(run "$a" 1 "$dir/a2.log")
read -r b1 mb < <(run "$b" 1 "$dir/b1.log")
read -r a3 m3 < <(run "$a" 2 "$dir/a-smp2.log")
[ -n "${a1:-}" ] && [ -n "${a2:-}" ] && [ -n "${b1:-}" ] && [ -n "${a3:-}" ] ||
	exit 1

[ "$m1" = "$m2" ] && [ "$m1" = "$mb" ] || fail "one image, -smp 1, measured differently"
[ "$m3" != "$m1" ] || fail "-smp 2 measured as -smp 1"
[ "$a1" = "$a2" ] || fail "chip $a, same image: keys $a1 then $a2"
echo "emu-chip-check: one chip, one image, two runs: the same key $a1"
[ "$b1" != "$a1" ] || fail "chips $a and $b gave one key $a1"
echo "emu-chip-check: another chip, the same image: another key $b1"
[ "$a3" != "$a1" ] || fail "another MEASUREMENT on chip $a gave the same key"
echo "emu-chip-check: the same chip, another MEASUREMENT: another key $a3"

ida1=$(chip_id "$dir/a1.report")
ida2=$(chip_id "$dir/a2.report")
idb1=$(chip_id "$dir/b1.report")
[ "$ida1" = "$ida2" ] || fail "chip $a reported CHIP_ID $ida1, then $ida2"
cmp -s "$dir/a1.vcek.der" "$dir/a2.vcek.der" ||
	fail "chip $a's table carried another VCEK in its second run"
cmp -s "$dir/a1.vcek.der" "build/chips/$a.vcek/vcek.der" ||
	fail "chip $a's table does not carry build/chips/$a.vcek/vcek.der"
cmp -s "$dir/b1.vcek.der" "build/chips/$b.vcek/vcek.der" ||
	fail "chip $b's table does not carry build/chips/$b.vcek/vcek.der"
echo "emu-chip-check: one chip, two runs: one CHIP_ID ${ida1:0:16}..., one VCEK"
[ "$idb1" != "$ida1" ] || fail "chips $a and $b reported one CHIP_ID $ida1"
! cmp -s "$dir/a1.vcek.der" "$dir/b1.vcek.der" ||
	fail "chips $a and $b carried one VCEK"
! cmp -s "$dir/a1.vcek.der" build/pki/vcek.der ||
	fail "chip $a carried the build's VCEK"
echo "emu-chip-check: another chip: CHIP_ID ${idb1:0:16}..., another VCEK"
verify_with "$dir/a1" "build/chips/$a.vcek/vcek.der" &&
	verify_with "$dir/b1" "build/chips/$b.vcek/vcek.der" ||
	fail "a report does not verify with its own chip's certificate"
! verify_with "$dir/a1" "build/chips/$b.vcek/vcek.der" &&
	! verify_with "$dir/b1" "build/chips/$a.vcek/vcek.der" &&
	! verify_with "$dir/a1" build/pki/vcek.der ||
	fail "a report verified with another chip's certificate"
echo "emu-chip-check: each report verifies with its chip's VCEK only"
rm -f "$dir/ledger"
la1=$(ledger "$dir/a1" "$dir/ledger")
lb1=$(ledger "$dir/b1" "$dir/ledger")
[ "$la1" = new ] && [ "$lb1" = new ] ||
	fail "the ledger: chip $a's report $la1, then chip $b's $lb1 (not new)"
echo "emu-chip-check: the ledger keys the two chips apart (a record each)"

printf 'CSVSMCHP' >"build/chips/$a-bad"
scripts/emu-run.sh --image "$image" --chip "$a-bad" \
	--expect LAUNCH_REFUSED \
	--timeout 60 --log "$dir/bad.log" >/dev/null ||
	fail "a chip file of 8 bytes was not refused ($dir/bad.log)"
grep -q 'launch refused: opt/csvsm/chip is not a chip file' "$dir/bad.log" ||
	fail "no reason for the refused chip file in $dir/bad.log"
echo "emu-chip-check: a chip file that is not one: the launch refused"

# Chip $b's secret with its identity file cut short.
mkdir -p "build/chips/$a-badid.vcek"
cp "build/chips/$b" "build/chips/$a-badid"
head -c 200 "build/chips/$b.vcek/identity.bin" >"build/chips/$a-badid.vcek/identity.bin"
scripts/emu-run.sh --image "$image" --chip "$a-badid" \
	--expect LAUNCH_REFUSED \
	--timeout 60 --log "$dir/badid.log" >/dev/null ||
	fail "a chip identity file cut short was not refused ($dir/badid.log)"
grep -q 'launch refused: opt/csvsm/chip-id is not a chip identity file' "$dir/badid.log" ||
	fail "no reason for the refused chip identity file in $dir/badid.log"
echo "emu-chip-check: a chip identity file that is not one: the launch refused"

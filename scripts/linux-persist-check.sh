#!/usr/bin/env bash
# The vTPM's state across boots of Linux on the emulated machine (issue
# 28; docs/vtpm.md, "Persistent state"), with the host as the adversary
# that keeps the file: every boot is `make linux-emu-check`'s (the
# self-test with a relying party, then test/linux/check.py), on the
# SVSM's block device (emu-run.sh --blk), and the SVSM report each boot
# printed goes through `csvsm-verify --ledger` as a relying party that
# remembers this platform and image would.
#   scripts/linux-persist-check.sh IMAGE OTHER-IMAGE OTHER-CMDLINE-FILE
# OTHER-IMAGE is IMAGE's SVSM, kernel and initrd with another command
# line (OTHER-CMDLINE-FILE's): another MEASUREMENT. The boots, on one
# file:
#  1 first:    no file; the state is `missing`, a TPM is manufactured
#              and stored; the guest seals a secret (its tpm-persist:
#              `persist: stored S`), the relying party certifies the EK,
#              the guest stores the certificate in NV; ledger `new`.
#  2 again:    state `ok`; the same EK, the secret unsealed (`persist:
#              found S`), the certificate read from NV (tpm-ekcert
#              `in NV from an earlier boot`), verified by the host;
#              ledger `ok`.
#  3 replayed: the host puts back the file as boot 1 left it: the guest
#              still finds S (a rollback is not preventable without a
#              trusted counter), the ledger says `rollback` (exit 3).
#  4 corrupt:  boot 2's file, a byte flipped in each slot: `corrupt`, a
#              fresh TPM (another EK, S not found); ledger `restart` (5).
#  5 truncated: boot 2's file cut to 2 KiB, inside slot 0's state (slot
#              1 gone): `truncated`, as 4.
#  6 another image: OTHER-IMAGE on boot 2's file: `another image`, a fresh
#              TPM, S not found; its ledger entry is its own (`new`).
# After 4 to 6 the file is as the host left it: the SVSM never writes
# over a state it could not open.
set -uo pipefail
usage="usage: linux-persist-check.sh IMAGE OTHER-IMAGE OTHER-CMDLINE-FILE"
image=${1:?$usage}
other=${2:?$usage}
other_cmdline=${3:?$usage}
bin=build/bin
dir=build/linux-persist
state=$dir/state.img
ledger=$dir/ledger
rm -rf "$dir"
mkdir -p "$dir"
t0=$SECONDS

fail() {
	echo "linux-persist-check: FAILED: $*" >&2
	exit 1
}

# boot NAME IMAGE [CMDLINE-FILE]: one boot on $state, checked against
# the command line in CMDLINE-FILE (default: check.py's); its files
# in $dir/NAME/.
boot() {
	local name=$1 img=$2 st cmdline=()
	[ -z "${3:-}" ] || cmdline=(--cmdline "$3")
	scripts/linux-relying-party.sh --retry-crash --rp "$dir/$name-rp" \
		--image "$img" --smp 1 --mem 1G --timeout 900 \
		--expect GUEST_POWEROFF \
		--blk "$state" --log "$dir/$name.log" >"$dir/$name.out" 2>&1
	st=$?
	if [ $st -ne 0 ]; then
		grep -aE '^(FAIL|emu)' "$dir/$name.log" | tail -n 20 >&2
		fail "$name: the boot ended with status $st ($dir/$name.log)"
	fi
	test/linux/check.py --smp 1 "${cmdline[@]}" --credential "$dir/$name-rp" \
		"$dir/$name.log" "$dir/$name" "$img" >"$dir/$name-check.log" 2>&1 ||
		{
			grep 'FAIL' "$dir/$name-check.log" >&2
			fail "$name: test/linux/check.py failed ($dir/$name-check.log)"
		}
}

# ledger NAME IMAGE WANT-EXIT: the boot's SVSM report through the ledger.
ledger() {
	local name=$1 img=$2 want=$3 vcek=build/pki/vcek.der got nonce
	[ ! -s "$dir/$name/svsm-vcek.der" ] || vcek=$dir/$name/svsm-vcek.der
	nonce=$(printf '%s' csvsm-linux-selftest | sha512sum | cut -c1-128)
	"$bin/csvsm-verify" --report "$dir/$name/svsm-report.bin" --vcek "$vcek" \
		--chain build/pki/ask_ark.pem --nonce "$nonce" \
		--manifest "$dir/$name/svsm-manifest.bin" \
		--measurement "$(CSVSM_BIN=$bin scripts/emu-measure.sh "$img" 1)" \
		--ledger "$ledger" >"$dir/$name-verify.txt" 2>&1
	got=$?
	[ "$got" = "$want" ] ||
		fail "$name: csvsm-verify --ledger exited $got, not $want: $(grep -E '^(ledger|vtpm state)' "$dir/$name-verify.txt" | tr '\n' ' ')"
}

# has NAME PATTERN [FILE]: the boot's log (or FILE) shows PATTERN.
has() {
	grep -aqE -- "$2" "${3:-$dir/$1.log}" ||
		fail "$1: no '$2' in ${3:-$dir/$1.log}"
}
hasnt() {
	! grep -aqE -- "$2" "$dir/$1.log" || fail "$1: '$2' in $dir/$1.log"
}
outcome() { # NAME OUTCOME: the state entry of the boot's report says it
	has "$1" "^vtpm state: $2, " "$dir/$1-verify.txt"
}
secret_of() { # NAME WORD: the secret the guest stored or found
	tr -d '\r' <"$dir/$1.log" | sed -n "s/^csvsm-selftest: persist: $2 \([0-9a-f]*\)\$/\1/p" | tail -n1
}
ek() { sha256sum <"$dir/$1/ek-public.bin" | cut -c1-64; }
say() { echo "linux-persist-check: $* ($((SECONDS - t0)) s)"; }

boot first "$image"
ledger first "$image" 0
outcome first missing
s=$(secret_of first stored)
[ -n "$s" ] || fail "first: the guest stored no secret"
has first 'PASS tpm-ekcert \(provisioned: .*rsa2048.*provisioned: .*ecc-p256'
has first '^ledger: new' "$dir/first-verify.txt"
cp "$state" "$dir/state-first.img"
say "first: missing, manufactured and stored; secret $s sealed, EK certified"

boot again "$image"
ledger again "$image" 0
outcome again ok
[ "$(secret_of again found)" = "$s" ] || fail "again: the guest did not find secret $s"
[ "$(ek again)" = "$(ek first)" ] || fail "again: another EK"
has again 'PASS tpm-ekcert \(rsa2048 in NV from an earlier boot, ecc-p256 in NV from an earlier boot'
has again '^ledger: ok' "$dir/again-verify.txt"
cp "$state" "$dir/state-again.img"
say "again: ok; the same EK, secret $s unsealed, the certificate read from NV"

cp "$dir/state-first.img" "$state"
boot replayed "$image"
ledger replayed "$image" 3
outcome replayed ok
[ "$(secret_of replayed found)" = "$s" ] || fail "replayed: the guest did not find secret $s"
has replayed '^ledger: rollback' "$dir/replayed-verify.txt"
say "replayed: the first boot's file runs, and the ledger says rollback"

# A byte in each slot's sealed state (slots of 512 KiB; the header is
# the first 0xB0 bytes, the ciphertext follows).
corrupt() { # FILE
	python3 - "$1" <<'PY'
import sys
with open(sys.argv[1], "r+b") as f:
    for off in (0x100, 0x80000 + 0x100):
        f.seek(off)
        b = f.read(1)
        f.seek(off)
        f.write(bytes([b[0] ^ 0x40]))
PY
}
# refused NAME IMAGE OUTCOME WANT-LEDGER-EXIT [CMDLINE-FILE]: a fresh
# TPM, S not found, the file left as the host made it.
refused() {
	local before
	before=$(sha256sum <"$state")
	boot "$1" "$2" "${5:-}"
	ledger "$1" "$2" "$4"
	outcome "$1" "$3"
	hasnt "$1" "persist: found"
	[ -n "$(secret_of "$1" stored)" ] || fail "$1: the guest stored no secret"
	[ "$(ek "$1")" != "$(ek first)" ] || fail "$1: the first boot's EK"
	[ "$(sha256sum <"$state")" = "$before" ] || fail "$1: the SVSM wrote over the state"
	say "$1: $3; a fresh TPM, not stored, no secret of the first boots"
}
cp "$dir/state-again.img" "$state"
corrupt "$state"
refused corrupt "$image" corrupt 5
cp "$dir/state-again.img" "$state"
truncate -s 2K "$state"
refused truncated "$image" truncated 5
cp "$dir/state-again.img" "$state"
refused other-image "$other" "another image" 0 "$other_cmdline"
echo "linux-persist-check: 6 boots, every outcome as it must be ($((SECONDS - t0)) s)"

#!/usr/bin/env bash
# The vTPM's stored state seen by a relying party (docs/vtpm.md,
# "Rollback evidence"), end to end on sim: each `csvsm-sim attest
# --vtpm-disk` is a boot of one machine on one host file; its report is
# checked by csvsm-verify with a ledger. The host (this script) replays,
# drops and corrupts the file; each action has its exit status: 0 new or
# ok, 3 rollback, 4 fork, 5 restart.
set -euo pipefail
bin=build/bin
pki=build/pki
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
pass=0
fail() { echo "state-ledger: FAIL: $*"; exit 1; }

disk=$tmp/disk.img
ledger=$tmp/ledger
# Boot once on the disk and judge its report; expect exit status $1.
boot() { # STATUS WHAT
	local nonce rc=0
	nonce=$(python3 -c "import os; print(os.urandom(64).hex())")
	$bin/csvsm-sim attest --nonce "$nonce" --out "$tmp" \
		--vtpm-disk "$disk" >/dev/null || fail "$2: the boot failed"
	$bin/csvsm-verify --report "$tmp/report.bin" --vcek $pki/vcek.der \
		--chain $pki/ask_ark.pem --nonce "$nonce" \
		--manifest "$tmp/manifest.bin" --ledger "$ledger" \
		>"$tmp/out" 2>&1 || rc=$?
	[ "$rc" = "$1" ] || { cat "$tmp/out"; fail "$2: exit $rc, not $1"; }
	pass=$((pass + 1))
}

boot 0 "a first boot (new)"
grep -q "^vtpm state: missing, generation 0 loaded, 1 current" "$tmp/out" ||
	fail "the first boot's state is not named"
cp "$disk" "$tmp/first.img"
boot 0 "the next boot loads it (ok)"
grep -q "^vtpm state: ok, generation 1 loaded, 2 current" "$tmp/out" ||
	fail "the second boot's state is not named"
boot 0 "and the next (ok)"
cp "$tmp/first.img" "$disk"
boot 3 "the host replays the first boot's file (rollback)"
grep -q "ROLLBACK" "$tmp/out" || fail "the rollback is not named"
boot 3 "a boot on from the replayed file (still behind)"
# This history reaches the generation seen; its bytes equal the first
# history's (no TPM command ran in either), so it is no fork: ok.
boot 0 "the replayed history reaches the generation seen, same bytes (ok)"
# A fork: the ledger saw this generation with other contents (another
# history's, here written into the ledger as another copy would have).
python3 - "$ledger" <<'PY'
import sys
p = sys.argv[1]
lines = open(p).read().split("\n")
f = lines[1].split(" ")
f[4] = ("0" if f[4][0] != "0" else "1") + f[4][1:]
lines[1] = " ".join(f)
open(p, "w").write("\n".join(lines))
PY
boot 4 "a boot from the generation seen with other bytes (fork)"
grep -q "FORK" "$tmp/out" || fail "the fork is not named"
rm -f "$disk"
boot 5 "the host drops the file (restart)"
boot 0 "the new TPM's next boot (ok)"
cp "$disk" "$tmp/good.img"
printf '\x55' | dd of="$disk" bs=1 seek=1000 conv=notrunc 2>/dev/null
printf '\x55' | dd of="$disk" bs=1 seek=$((512 * 1024 + 1000)) \
	conv=notrunc 2>/dev/null
cp "$disk" "$tmp/bad.img"
boot 5 "the host corrupts both slots (restart, the file left alone)"
grep -q "^vtpm state: corrupt, generation 0 loaded, 0 current, 0 write(s), not kept" \
	"$tmp/out" || fail "the corrupt state is not named"
cmp -s "$disk" "$tmp/bad.img" || fail "the SVSM wrote over a state it could not open"
cp "$tmp/good.img" "$disk"
boot 5 "the good file back after the restart: another TPM (restart)"
grep -q "another EK" "$tmp/out" || { cat "$tmp/out"; fail "the other TPM is not named"; }
boot 0 "and its next boot (ok)"
cp "$tmp/first.img" "$disk"
boot 5 "the first TPM's file swapped in: newer, another EK (restart)"
# A ledger that is not one is a bad input, and stays as it was.
echo "not a ledger" >"$ledger"
boot 2 "a malformed ledger"
[ "$(cat "$ledger")" = "not a ledger" ] || fail "a malformed ledger was rewritten"
echo "state-ledger: $pass boots judged as expected"

#!/usr/bin/env bash
# The emulated chip NAME (issue 28; docs/emu.md, "The PSP"), made on first
# use and kept, so that it is the same chip run after run:
# - build/chips/NAME, the chip file: "CSVSMCHP" and a 48-byte secret from
#   the host's /dev/urandom, the root of the keys its PSP derives;
# - build/chips/NAME.vcek/: its 64-byte CHIP_ID (random, chip_id.bin), its
#   TEST VCEK key and certificate (scripts/make-test-vcek.sh, signed by the
#   build's TEST ASK in build/pki, with the CHIP_ID as AMD's hwID) and
#   identity.bin, what the machine's PSP signs and reports with
#   (scripts/chip-identity.py). A new build/pki (a new ASK) re-issues the
#   certificate of the same key and CHIP_ID.
# Everything new is made aside and moved in without overwriting, so that
# runs starting together agree on one chip. Prints nothing unless made.
#   emu-chip.sh NAME
set -euo pipefail
chip=$1
pki=build/pki
case $chip in
'' | *[!A-Za-z0-9_-]*)
	echo "emu-chip: $chip: letters, digits, _ and - only" >&2
	exit 2
	;;
esac
mkdir -p build/chips
file=build/chips/$chip
if [ ! -f "$file" ]; then
	tmp=$(mktemp "build/chips/.$chip.XXXXXX")
	{ printf 'CSVSMCHP'; head -c 48 /dev/urandom; } >"$tmp"
	mv -n "$tmp" "$file"
	rm -f "$tmp"
	echo "emu-chip: a new chip, $file"
fi

[ -f "$pki/ask.key" ] && [ -f "$pki/ark.der" ] || {
	echo "emu-chip: no $pki (make $pki/vcek.der): no VCEK for $chip" >&2
	exit 1
}
dir=build/chips/$chip.vcek
# Current: made, and its certificate issued under this build's ASK.
if [ -f "$dir/identity.bin" ] && [ "$dir/identity.bin" -nt "$pki/ask.der" ]; then
	exit 0
fi
tmp=$(mktemp -d "build/chips/.$chip.vcek.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
if [ -f "$dir/chip_id.bin" ] && [ -f "$dir/vcek.key" ]; then
	cp "$dir/chip_id.bin" "$dir/vcek.key" "$tmp/"
elif [ -e "$dir" ]; then
	echo "emu-chip: $dir has no chip_id.bin or vcek.key: not a chip" >&2
	exit 1
else
	head -c 64 /dev/urandom >"$tmp/chip_id.bin"
fi
scripts/make-test-vcek.sh "$pki" "$tmp"
python3 scripts/chip-identity.py "$pki" "$tmp" "$tmp/identity.bin"
if [ -d "$dir" ]; then
	# The same key and CHIP_ID, a certificate under the new ASK.
	for f in vcek.der tcb.txt identity.bin; do mv "$tmp/$f" "$dir/$f"; done
	echo "emu-chip: chip $chip's VCEK certificate re-issued under $pki"
else
	mv -T -n "$tmp" "$dir"
	echo "emu-chip: chip $chip's CHIP_ID and VCEK, $dir"
fi

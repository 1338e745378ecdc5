#!/usr/bin/env bash
# make linux-repro-check: the measured Linux image is a function of the
# tree and its locks, not of where or by whom it is built (docs/linux.md,
# "Reproducing the measurement"). In two temporary directories, one under
# $TMPDIR and one under build/, each with its own copy of the inputs, and
# the second with another umask, time zone, locale and working directory:
#   1. the guest's userspace from the .debs test/linux/userspace.lock pins
#      alone (scripts/linux-userspace.sh --debs, each .deb's SHA-256
#      checked; no apt, no cache), which must equal the kit's;
#   2. the initramfs from that and a copy of the kit (its kernel modules
#      and busybox), with a copy of scripts/linux-initrd.sh and of the
#      guest's files;
#   3. the image (csvsm-igvm build --linux) and its MEASUREMENT.
# Both initramfs and both images must be the same bytes, and the same as
# the tree's own (INITRD, IMAGE). Prints the MEASUREMENT and the PCR 8
# and 9 values a relying party expects (the SVSM's measured boot,
# docs/vtpm.md).
#   linux-repro-check.sh KITDIR VMLINUZ SNP-ELF CSVSM-IGVM CMDLINE-FILE
#                        INITRD IMAGE
set -euo pipefail
die() {
	echo "linux-repro-check: FAIL: $*" >&2
	exit 1
}
[ $# -eq 7 ] || die "usage: linux-repro-check.sh KITDIR VMLINUZ SNP-ELF" \
	"CSVSM-IGVM CMDLINE-FILE INITRD IMAGE"
here=$(cd "$(dirname "$0")/.." && pwd)
abs() { echo "$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"; }
kit=$(abs "$1") vmlinuz=$(abs "$2") fw=$(abs "$3") igvm=$(abs "$4")
cmdfile=$(abs "$5") initrd=$(abs "$6") image=$(abs "$7")
for f in "$kit/userspace/MANIFEST" "$vmlinuz" "$fw" "$igvm" "$cmdfile" \
	"$initrd" "$image"; do
	[ -e "$f" ] || die "$f missing"
done
lock=$here/test/linux/userspace.lock
debs=${CSVSM_CACHE:-$HOME/.cache/csvsm}/userspace/debs
t0=$(date +%s)

a=$(mktemp -d "${TMPDIR:-/tmp}/csvsm-repro-a.XXXXXX")
mkdir -p "$here/build"
b=$(mktemp -d "$here/build/.repro-b.XXXXXX")
trap 'rm -rf "$a" "$b"' EXIT

# The inputs, copied: what the tree and the locks say, the fetched kit
# (less its userspace, rebuilt from the .debs) and the pinned .debs.
for d in "$a" "$b"; do
	mkdir -p "$d/src/scripts" "$d/src/test/linux" "$d/debs" "$d/kit"
	cp "$here/scripts/linux-initrd.sh" "$here/scripts/linux-userspace.sh" \
		"$here/scripts/apt-private.sh" "$d/src/scripts/"
	cp "$here/test/linux/init" "$here/test/linux/csvsm-selftest" \
		"$here/test/linux/csvsm-tpmbench" "$here/test/linux/csvsm-ekcert" \
		"$here/test/linux/tpm_rtt.c" \
		"$lock" "$d/src/test/linux/"
	while read -r role pkg version sum; do
		case $role in
		tools | tcti | lib) ;;
		*) continue ;;
		esac
		[ -f "$debs/$sum.deb" ] || die "$debs/$sum.deb ($pkg $version)" \
			"missing: run make linux-fetch"
		cp "$debs/$sum.deb" "$d/debs/"
	done <"$lock"
	(cd "$kit" && tar --exclude=./userspace -cf - .) | tar -xf - -C "$d/kit"
	cp "$vmlinuz" "$d/vmlinuz"
	cp "$fw" "$d/svsm.elf"
	cp "$cmdfile" "$d/cmdline"
done

# build DIR: userspace, initramfs, image and its MEASUREMENT in DIR.
build() {
	local d=$1
	cd "$d"
	src/scripts/linux-userspace.sh --debs debs \
		--lock src/test/linux/userspace.lock kit/userspace 2>/dev/null ||
		die "$d: the userspace from the pinned .debs did not build"
	src/scripts/linux-initrd.sh kit out/initrd.img >/dev/null ||
		die "$d: the initramfs did not build"
	"$igvm" build --svsm svsm.elf --linux vmlinuz --initrd out/initrd.img \
		--cmdline "$(head -n1 cmdline)" -o out/image.igvm >/dev/null ||
		die "$d: csvsm-igvm build failed"
	"$igvm" measure out/image.igvm >out/measurement
}
# The two at once (two cores); each says what failed.
(umask 022 && TZ=UTC LC_ALL=C build "$a") &
pa=$!
(umask 077 && TZ=Pacific/Kiritimati LC_ALL=C.UTF-8 HOME=$b build "$b") &
pb=$!
st=0
wait $pa || st=1
wait $pb || st=1
[ $st -eq 0 ] || exit 1

diff -r "$kit/userspace" "$a/kit/userspace" >/dev/null ||
	die "$kit/userspace is not what the pinned .debs give ($a/kit/userspace)"
cmp -s "$a/out/initrd.img" "$b/out/initrd.img" ||
	die "two builds of the initramfs differ"
cmp -s "$a/out/image.igvm" "$b/out/image.igvm" ||
	die "two builds of the image differ"
cmp -s "$a/out/measurement" "$b/out/measurement" ||
	die "two MEASUREMENTs: $(cat "$a/out/measurement" "$b/out/measurement")"
cmp -s "$initrd" "$a/out/initrd.img" ||
	die "$initrd is not what its inputs give: make it again"
m=$(cat "$a/out/measurement")
[ "$("$igvm" measure "$image")" = "$m" ] ||
	die "$image's MEASUREMENT is not what its inputs give: make it again"

# The PCRs the SVSM extends before Linux runs: 8 the command line, 9 the
# kernel's protected-mode part (after its setup sectors), then the initrd,
# as the relying party's check computes them (test/lib/oracle.py).
sha() { sha256sum "$@" | cut -c1-64; }
read -r pcr8 pcr9 < <("$here/test/lib/oracle.py" linux-pcrs "$vmlinuz" \
	"$initrd" "$cmdfile") || die "$vmlinuz: no PCRs 8 and 9"
echo "linux-repro-check: two builds in two directories, one image:" \
	"initrd.img $(sha "$initrd" | cut -c1-16)... ($(wc -c <"$initrd") bytes)," \
	"MEASUREMENT $m, PCR 8 $pcr8, PCR 9 $pcr9 ($(($(date +%s) - t0)) s)"

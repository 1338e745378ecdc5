#!/usr/bin/env bash
# The Linux guest's initramfs: busybox-static, the modules and their load
# order from scripts/linux-fetch.sh's kit (Debian's, and tpm_svsm.ko), and the committed scripts
# test/linux/init and test/linux/csvsm-selftest. A gzip'd newc cpio (the
# kernel has RD_GZIP), built with Debian's cpio; the same inputs give the
# same bytes (fixed owners and times, sorted names).
#   linux-initrd.sh KITDIR OUT
set -euo pipefail
kit=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
die() {
	echo "linux-initrd: $*" >&2
	exit 1
}
for f in "$kit/busybox" "$kit/VERSION" "$kit/modules/load-order"; do
	[ -f "$f" ] || die "$f missing: run scripts/linux-fetch.sh (make linux-fetch)"
done
command -v cpio >/dev/null || die "cpio missing (scripts/setup.sh installs it)"
krel=$(cat "$kit/VERSION")

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc,root} \
	"$root/lib/modules/$krel"
install -m 0755 "$kit/busybox" "$root/bin/busybox"
install -m 0755 "$here/test/linux/init" "$root/init"
install -m 0755 "$here/test/linux/csvsm-selftest" "$root/bin/csvsm-selftest"
# load-order: loaded at boot, in order; probe-order (tpm_svsm.ko): loaded
# after them, where failing to bind is an outcome /init records.
# A kit from before tpm_svsm has no probe-order: an empty one.
: >"$root/lib/modules/$krel/probe-order"
for list in load-order probe-order; do
	[ -f "$kit/modules/$list" ] || continue
	while read -r m; do
		install -m 0644 "$kit/modules/$m" "$root/lib/modules/$krel/$m"
	done <"$kit/modules/$list"
	install -m 0644 "$kit/modules/$list" "$root/lib/modules/$krel/$list"
done
install -m 0644 "$kit/PACKAGES" "$root/etc/csvsm-packages"
chmod 1777 "$root/tmp"

find "$root" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$out")"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -9 -n >"$out.tmp"
mv "$out.tmp" "$out"
echo "linux-initrd: $out ($(wc -c <"$out") bytes; Linux $krel," \
	"modules $(cat "$root/lib/modules/$krel/load-order" \
		"$root/lib/modules/$krel/probe-order" | tr '\n' ' '))"

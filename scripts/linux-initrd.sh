#!/usr/bin/env bash
# The Linux guest's initramfs: busybox-static, the modules and their load
# order from scripts/linux-fetch.sh's kit (Debian's, and tpm_svsm.ko),
# the kit's userspace (kit/userspace: tpm2-tools, its TCTI, its libraries,
# the loader and libc, from the Debian packages test/linux/userspace.lock
# pins, scripts/linux-userspace.sh), the committed scripts test/linux/init,
# test/linux/csvsm-selftest and test/linux/csvsm-tpmbench (with
# test/linux/tpm_rtt.c built freestanding: no libc), and the kit's word on
# tpm_svsm (/etc/csvsm-tpm_svsm) and, for a kit without modules, why it
# has none (/etc/csvsm-modules-absent). Nothing comes from the host's
# filesystem but the compiler that builds tpm-rtt. A gzip'd newc cpio
# (the kernel has RD_GZIP), built with Debian's cpio; the same inputs give
# the same bytes (fixed owners, modes, times, sorted names; make
# linux-repro-check).
#   linux-initrd.sh KITDIR OUT
set -euo pipefail
kit=$1
out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
die() {
	echo "linux-initrd: $*" >&2
	exit 1
}
for f in "$kit/busybox" "$kit/VERSION" "$kit/modules/load-order" \
	"$kit/userspace/MANIFEST"; do
	[ -f "$f" ] || die "$f missing: run scripts/linux-fetch.sh (make linux-fetch)"
done
command -v cpio >/dev/null || die "cpio missing (scripts/setup.sh installs it)"
krel=$(cat "$kit/VERSION")
# The modes of what mkdir makes below are in the archive: not the caller's.
umask 022

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT
mkdir -p "$root"/{bin,sbin,usr/bin,usr/sbin,dev,proc,sys,tmp,etc,root} \
	"$root/lib/modules/$krel"
install -m 0755 "$kit/busybox" "$root/bin/busybox"
install -m 0755 "$here/test/linux/init" "$root/init"
install -m 0755 "$here/test/linux/csvsm-selftest" "$root/bin/csvsm-selftest"
install -m 0755 "$here/test/linux/csvsm-tpmbench" "$root/bin/csvsm-tpmbench"
install -m 0755 "$here/test/linux/csvsm-ekcert" "$root/bin/csvsm-ekcert"
# tpm-rtt, csvsm-tpmbench's raw round trip: freestanding and static, no
# libc at all (test/linux/tpm_rtt.c makes its system calls itself), so
# nothing of the host's glibc is in it; only the compiler's code is.
gcc -std=c11 -O2 -Wall -Wextra -Werror -ffreestanding -fno-stack-protector \
	-fno-pie -no-pie -fno-asynchronous-unwind-tables -nostdlib -static -s \
	-Wl,--build-id=none -o "$root/usr/bin/tpm-rtt" \
	"$here/test/linux/tpm_rtt.c" || die "test/linux/tpm_rtt.c did not build"
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
# How the guest gets its SVSM vTPM driver, or why it has none ("none
# Linux 6.12 has no SVSM vTPM driver": the self-test then skips the TPM
# checks); scripts/linux-fetch.sh wrote it. A kit from before says nothing.
if [ -f "$kit/tpm_svsm" ]; then
	install -m 0644 "$kit/tpm_svsm" "$root/etc/csvsm-tpm_svsm"
fi
# Why the kit has no modules ("linux-modules-KREL is not in SUITES": the
# self-test then skips the checks that need them); only such a kit has it.
if [ -f "$kit/modules-absent" ]; then
	if [ -s "$root/lib/modules/$krel/load-order" ] ||
		[ -s "$root/lib/modules/$krel/probe-order" ]; then
		die "$kit/modules-absent, but the kit has modules to load"
	fi
	[ -s "$kit/modules-absent" ] || die "$kit/modules-absent says no reason"
	install -m 0644 "$kit/modules-absent" "$root/etc/csvsm-modules-absent"
fi

# tpm2-tools from the kit's userspace (scripts/linux-userspace.sh): the
# multi-call binary `tpm2` with the tpm2_* names the self-test and
# csvsm-tpmbench use, every library it loads (libcurl's chain too: tpm2
# needs it to load, though no command here reaches the network), the TCTI
# for /dev/tpmrm0, which libtss2-tctildr dlopens, the loader in /lib64 and
# the libraries in /lib/x86_64-linux-gnu under their sonames, where
# Debian's loader looks. Each file as MANIFEST lists it, checked against
# its SHA-256 there; /etc/csvsm-userspace is that list.
tools="createek createak createpolicy create createprimary checkquote
	flushcontext getrandom load pcrextend pcrread quote readpublic unseal
	startauthsession policypcr policysecret activatecredential print
	evictcontrol getcap nvdefine nvwrite nvwritelock nvread nvreadpublic
	nvundefine getekcertificate"
while read -r path sum pkg version; do
	case $path in
	usr/bin/tpm2 | lib64/ld-linux-x86-64.so.2 | lib/x86_64-linux-gnu/*.so*) ;;
	*) die "$kit/userspace/MANIFEST: unexpected path '$path'" ;;
	esac
	[ -n "$version" ] || die "$kit/userspace/MANIFEST: '$path' has no package version"
	echo "$sum  $kit/userspace/$path" | sha256sum --quiet -c - 2>/dev/null ||
		die "$kit/userspace/$path: not the SHA-256 its MANIFEST says ($pkg $version)"
	mkdir -p "$(dirname "$root/$path")"
	install -m 0755 "$kit/userspace/$path" "$root/$path"
done <"$kit/userspace/MANIFEST"
[ -f "$root/usr/bin/tpm2" ] || die "$kit/userspace has no usr/bin/tpm2"
for t in $tools; do
	ln -s tpm2 "$root/usr/bin/tpm2_$t"
done
install -m 0644 "$kit/userspace/MANIFEST" "$root/etc/csvsm-userspace"
chmod 1777 "$root/tmp"

find "$root" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$out")"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -9 -n >"$out.tmp"
mv "$out.tmp" "$out"
echo "linux-initrd: $out ($(wc -c <"$out") bytes; Linux $krel," \
	"tpm2-tools $(awk '$1 == "usr/bin/tpm2" { print $4 }' \
		"$kit/userspace/MANIFEST")," \
	"modules $(cat "$root/lib/modules/$krel/load-order" \
		"$root/lib/modules/$krel/probe-order" | tr '\n' ' ')$(sed \
		's/^\(.*\)$/none: \1;/' "$kit/modules-absent" 2>/dev/null)" \
	"tpm_svsm: $(cat "$kit/tpm_svsm" 2>/dev/null || echo module))"

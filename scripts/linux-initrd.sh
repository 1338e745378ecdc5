#!/usr/bin/env bash
# The Linux guest's initramfs: busybox-static, the modules and their load
# order from scripts/linux-fetch.sh's kit (Debian's, and tpm_svsm.ko), and
# the committed scripts test/linux/init, test/linux/csvsm-selftest and
# test/linux/csvsm-tpmbench (with test/linux/tpm_rtt.c built, no libc),
# and the kit's word on tpm_svsm (/etc/csvsm-tpm_svsm) and, for a kit
# without modules, why it has none (/etc/csvsm-modules-absent). A gzip'd
# newc cpio (the kernel has RD_GZIP), built with Debian's cpio; the same
# inputs give the same bytes (fixed owners and times, sorted names).
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
install -m 0755 "$here/test/linux/csvsm-tpmbench" "$root/bin/csvsm-tpmbench"
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

# tpm2-tools from the host's Debian packages (scripts/setup.sh installs
# them): the multi-call binary `tpm2` with the tpm2_* names the self-test
# uses, every shared library ldd names (libcurl's chain too: tpm2 needs it
# to load, though no command here reaches the network), and the TCTI for
# /dev/tpmrm0, which libtss2-tctildr dlopens (ldd cannot see it).
tools="createek createak createpolicy create createprimary checkquote
	flushcontext getrandom load pcrextend pcrread quote readpublic unseal
	startauthsession policypcr policysecret activatecredential print"
tcti=$(ls /usr/lib/x86_64-linux-gnu/libtss2-tcti-device.so.0 2>/dev/null) ||
	die "libtss2-tcti-device.so.0 missing (scripts/setup.sh installs tpm2-tools)"
command -v tpm2 >/dev/null || die "tpm2 missing (scripts/setup.sh installs tpm2-tools)"
install -m 0755 "$(command -v tpm2)" "$root/usr/bin/tpm2"
for t in $tools; do
	ln -s tpm2 "$root/usr/bin/tpm2_$t"
done
mkdir -p "$root/lib64" "$root/lib/x86_64-linux-gnu"
for lib in $(ldd "$(command -v tpm2)" "$tcti" |
	awk '/=> \// { print $3 } /^\t\/lib64\// { print $1 }' | LC_ALL=C sort -u); do
	# Under its soname, from the file it points to; /lib64 holds the loader.
	case $lib in
	/lib64/*) dest=$root$lib ;;
	*) dest=$root/lib/x86_64-linux-gnu/${lib##*/} ;;
	esac
	install -m 0755 "$(readlink -f "$lib")" "$dest"
done
install -m 0755 "$(readlink -f "$tcti")" "$root/lib/x86_64-linux-gnu/${tcti##*/}"
dpkg-query -W -f '${Package} ${Version}\n' tpm2-tools libtss2-esys-3.0.2-0 \
	libtss2-tcti-device0 libssl3 libc6 >"$root/etc/csvsm-host-packages" 2>/dev/null ||
	die "dpkg-query failed on the tpm2-tools packages"
chmod 1777 "$root/tmp"

find "$root" -exec touch -h -d @0 {} +
mkdir -p "$(dirname "$out")"
(cd "$root" && find . -mindepth 1 | LC_ALL=C sort |
	cpio --quiet -o -H newc -R 0:0 --reproducible) | gzip -9 -n >"$out.tmp"
mv "$out.tmp" "$out"
echo "linux-initrd: $out ($(wc -c <"$out") bytes; Linux $krel," \
	"tpm2-tools $(dpkg-query -W -f '${Version}' tpm2-tools)," \
	"modules $(cat "$root/lib/modules/$krel/load-order" \
		"$root/lib/modules/$krel/probe-order" | tr '\n' ' ')$(sed \
		's/^\(.*\)$/none: \1;/' "$kit/modules-absent" 2>/dev/null)" \
	"tpm_svsm: $(cat "$kit/tpm_svsm" 2>/dev/null || echo module))"

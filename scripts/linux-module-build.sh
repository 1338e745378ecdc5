#!/usr/bin/env bash
# The recipe for tpm_svsm.ko: Linux's SVSM vTPM driver
# (drivers/char/tpm/tpm_svsm.c) built as an external module for Debian's
# unmodified kernel, which is configured without TCG_SVSM (docs/linux.md,
# "The vTPM driver"). scripts/linux-fetch.sh runs it with the unpacked
# linux-source and linux-headers packages and caches the result keyed by
# the packages' versions and a hash of this file, the compiler and pahole.
#
#   linux-module-build.sh TARBALL HEADERS KREL REFMODULE WORK OUT
#     TARBALL    /usr/src/linux-source-X.Y.tar.xz from linux-source-X.Y
#     HEADERS    /usr/src/linux-headers-KREL from linux-headers-KREL: the
#                .config Debian built with and its Module.symvers
#     KREL       the kernel release (build/linux/VERSION)
#     REFMODULE  one of Debian's own modules for KREL: the vermagic to match
#     WORK       an empty scratch directory (about 400 MB)
#     OUT        OUT/tpm_svsm.ko
#
# Debian's prepared headers come with host tools built for trixie (modpost
# needs glibc 2.38; Debian 12 has 2.36), so the tools are built here from
# the source: a part of the source tree (the Kconfig files, scripts/,
# include/, arch/x86/, the tools objtool and resolve_btfids need, and
# drivers/char/tpm/), Debian's .config, `olddefconfig`, `modules_prepare`,
# then Debian's Module.symvers, so modpost fails on any symbol the running
# kernel does not export.
set -euo pipefail

die() {
	echo "linux-module-build: $*" >&2
	exit 1
}
[ $# -eq 6 ] || die "usage: linux-module-build.sh TARBALL HEADERS KREL REFMODULE WORK OUT"
tarball=$1 headers=$2 krel=$3 ref=$4 work=$5 out=$6

for c in gcc make flex bison bc pahole xz tar modinfo strip; do
	command -v "$c" >/dev/null ||
		die "$c missing: scripts/setup.sh installs what the module build needs"
done
[ -r /usr/include/gelf.h ] || die "libelf-dev missing (objtool needs it)"
# Older pahole makes modules the kernel refuses ("Invalid relocation
# target"): docs/linux.md.
pv=$(pahole --version | tr -dc '0-9')
[ "${pv:-0}" -ge 122 ] || die "pahole $(pahole --version) is older than 1.22"
for f in "$tarball" "$headers/.config" "$headers/Module.symvers" "$ref"; do
	[ -r "$f" ] || die "$f missing"
done

step() { echo "linux-module-build: $* (at ${SECONDS} s)"; }

# The part of the source tree the module build uses, in one pass of xz.
top=$(basename "$tarball" .tar.xz)
step "unpacking part of $top"
xz -dc "$tarball" | tar -x -C "$work" --wildcards \
	"$top/Makefile" "*/Kconfig*" "*/Kbuild" \
	"$top/scripts" "$top/include" "$top/arch/x86" "$top/certs" \
	"$top/kernel" "$top/lib" "$top/init" "$top/security" "$top/virt" \
	"$top/usr" "$top/tools/Makefile" "$top/tools/arch/x86" \
	"$top/tools/build" "$top/tools/include" "$top/tools/lib" \
	"$top/tools/objtool" "$top/tools/scripts" \
	"$top/tools/bpf/resolve_btfids" "$top/drivers/char/tpm"
src=$work/$top

# Debian passes KERNELRELEASE to make (its headers' Makefile does too).
kmake() { make -s -C "$src" -j2 KERNELRELEASE="$krel" "$@"; }
cp "$headers/.config" "$src/.config"
step "olddefconfig"
kmake olddefconfig
# Only options about the tools may move (gcc 12 here, 14 at Debian; Rust
# off without Debian's rustc and bindgen, and the Rust-only drivers with
# it): in the kernel's headers they choose code (uaccess's asm goto,
# __assume), not the layout of any structure the module shares with the
# kernel. Any other change fails here; the vermagic check below covers
# SMP, preemption and module unloading.
tools_re='^CONFIG_((CC|AS|LD|GCC|RUSTC?|BINDGEN|PAHOLE)_[A-Z0-9_]*|RUST'
tools_re+='|OPENSSL_SUPPORTS_[A-Z0-9_]*|AMCC_QT2025_PHY|AX88796B_RUST_PHY'
tools_re+='|DRM_PANIC_SCREEN_QR_[A-Z_]*)$'
moved=$(diff <(grep '^CONFIG_' "$headers/.config" | sort) \
	<(grep '^CONFIG_' "$src/.config" | sort) | sed -n 's/^[<>] //p' |
	cut -d= -f1 | sort -u | grep -Ev "$tools_re" || true)
[ -z "$moved" ] || die "olddefconfig changed more than tool options:" \
	"$(tr '\n' ' ' <<<"$moved")"
step "modules_prepare (the host tools)"
kmake modules_prepare
cp "$headers/Module.symvers" "$src/Module.symvers"

mod=$work/tpm_svsm
mkdir -p "$mod"
cp "$src/drivers/char/tpm/tpm_svsm.c" "$mod/"
# tpm_svsm.c includes the subsystem's private "tpm.h".
# shellcheck disable=SC2016 # make's $(srctree), not the shell's
printf '%s\n' 'obj-m := tpm_svsm.o' \
	'ccflags-y := -I$(srctree)/drivers/char/tpm' >"$mod/Kbuild"
step "tpm_svsm.ko"
# Without WORK's name in the debug info, the build ID and so the stripped
# module are the same bytes from any WORK (checked).
kmake M="$mod" KCFLAGS="-ffile-prefix-map=$work/=" modules
# As Debian's own modules (INSTALL_MOD_STRIP): no debug sections.
strip --strip-debug "$mod/tpm_svsm.ko"

want=$(modinfo -F vermagic "$ref")
got=$(modinfo -F vermagic "$mod/tpm_svsm.ko")
[ "$got" = "$want" ] || die "vermagic '$got' is not the kernel's '$want'"
# With TCG_TPM=y the module needs no other; a modular TPM core would have
# to go into the initramfs first.
deps=$(modinfo -F depends "$mod/tpm_svsm.ko")
[ -z "$deps" ] || die "tpm_svsm.ko depends on $deps: the kit does not load those"
mkdir -p "$out"
cp "$mod/tpm_svsm.ko" "$out/tpm_svsm.ko"
step "$out/tpm_svsm.ko: $(wc -c <"$out/tpm_svsm.ko") bytes, vermagic '$got'"

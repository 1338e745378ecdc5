#!/usr/bin/env bash
# Install the Debian packages csvsm's build and tests need. Idempotent: it
# asks apt only for what is missing, and names no mirror (the machine's own
# apt sources are used). Needs root (or sudo) only when something is missing.
set -euo pipefail

packages=(
	make gcc libc6-dev           # the build
	clang libclang-rt-dev        # libFuzzer and sanitizer runtimes
	clang-format clang-tidy      # make format-check, make tidy
	valgrind                     # make bench (instruction counts)
	qemu-system-x86              # the emu platform (make run, make check)
	universal-ctags              # make layers-check: the call graph
	binutils                     # objcopy, size for the firmware; readelf
	                             # for the guest's userspace closure
	libtpms-dev libssl-dev       # the vTPM engine (libtpms + libcrypto)
	openssl                      # the emulated PSP's test certificates
	zlib1g-dev ovmf              # IGVM checksums; Debian 12's OVMF, which
	                             # csvsm-igvm must refuse (no SVSM support)
	pesign                       # the kernel's Authenticode digest that
	                             # OVMF measures into PCR 4 (make uefi-check)
	libzstd-dev zstd             # csvsm-igvm --linux-entry startup_64;
	                             # the host's own PCR 9 for it
	tpm2-tools xxd               # vTPM tests with real TPM tools, the
	                             # host's checks of the guest's blobs (the
	                             # guest's are trixie's, not these:
	                             # test/linux/userspace.lock)
	python3-tpm2-pytss swtpm     # the kernel's sequence; a libtpms peer
	cpio kmod xz-utils           # the Linux guest kit: initramfs, modinfo,
	debian-archive-keyring       # .ko.xz; trixie's keys (mk/linux.mk)
	flex bison bc libelf-dev     # tpm_svsm.ko for Debian's kernel: the
	dwarves                      # kernel's host tools; pahole >= 1.22
	git
)

missing=()
for p in "${packages[@]}"; do
	if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null |
		grep -q 'install ok installed'; then
		missing+=("$p")
	fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

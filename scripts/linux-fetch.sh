#!/usr/bin/env bash
# The Linux guest kit's fetch step: Debian's kernel, its modules for
# configfs-tsm and sev-guest, busybox-static, and the SVSM vTPM driver
# tpm_svsm.ko built for that kernel from Debian's linux-source and
# linux-headers, at the exact versions pinned in a lock file
# (test/linux/debian.lock, test/linux/kernels/*.lock; docs/linux.md).
#
#   linux-fetch.sh [--lock FILE] [--userspace-lock FILE] OUTDIR
#       OUTDIR/vmlinuz (the bzImage), OUTDIR/VERSION (the kernel release),
#       OUTDIR/config, and OUTDIR/kit/ (busybox, modules/*.ko with
#       modules/load-order and modules/probe-order, tpm_svsm, PACKAGES,
#       and userspace/: tpm2-tools and the libraries it loads, from the
#       userspace lock, test/linux/userspace.lock by default, through
#       scripts/linux-userspace.sh) for scripts/linux-initrd.sh.
#   A lock with a kernel line alone gives OUTDIR/vmlinuz, VERSION and
#   config only (test/linux/debian-6.1.lock: a kernel too old for an SVSM).
#   linux-fetch.sh --latest SERIES [--flavour F] [--lock FILE] OUTDIR
#       prints a lock for the newest SERIES (e.g. 6.12, 7.3) kernel of
#       flavour F (amd64, the default, or cloud-amd64) the suites carry,
#       and the suites' busybox-static, to pin.
#
# Two layouts of Debian's kernel packages: up to 6.18 linux-image-KREL
# holds the bzImage (/boot), its config and the modules; from 6.19
# linux-binary-KREL holds the bzImage, linux-base-KREL the config and
# linux-modules-KREL the modules (a lock then pins all three). A package
# the suites lack is written `absent ROLE PACKAGE` in the lock (the kit
# is made without it: no modules, or no tpm_svsm.ko).
#
# kit/tpm_svsm says how the guest gets its SVSM vTPM driver, one line:
#   module              tpm_svsm.ko is in modules/probe-order
#   builtin             the kernel has it built in (TCG_SVSM=y)
#   none WHY            Linux has no such driver (before v6.16: no
#                       TCG_SVSM in its config); the self-test skips the
#                       TPM checks with WHY
#   missing WHY         Linux has it, but this kit could not build it
#                       (no linux-source in the suites); the TPM checks fail
#
# kit/modules-absent, only in a kit made without the kernel's modules
# (`absent modules PACKAGE`: the suites carry linux-binary-KREL but not
# linux-modules-KREL), says why in one line ("linux-modules-KREL is not in
# SUITES"): the self-test then skips the checks that need configfs-tsm,
# sev-guest or tpm_svsm with that reason. A kit with modules has no such
# file, and fails those checks if the modules do not load.
#
# Packages come through `apt-get download` with a private apt setup under
# OUTDIR/apt (its own sources.list, lists, cache and state; the host's apt
# configuration is not read and nothing is installed). The archive's
# Release files are checked against Debian 12's debian-archive-keyring,
# which holds trixie's keys; each .deb is then checked against the SHA-256
# pinned in the lock. The mirror is the one the host's apt uses for its own
# release (CSVSM_DEBIAN_MIRROR overrides it).
#
# What is unpacked is cached outside the work tree, keyed by package and
# version: ${CSVSM_CACHE:-$HOME/.cache/csvsm}/linux/PKG_VERSION/ and
# .../busybox/VERSION/; tpm_svsm.ko in .../tpm_svsm/KEY/, KEY naming the
# kernel's and the source's versions and a hash of the recipe
# (scripts/linux-module-build.sh, the compiler, pahole). A warm run copies
# from there and downloads and builds nothing.
set -euo pipefail

# shellcheck source=scripts/apt-private.sh
. "$(dirname "$0")/apt-private.sh"
die() {
	echo "linux-fetch: $*" >&2
	exit 1
}

lock=test/linux/debian.lock
userspace_lock=$(dirname "$0")/../test/linux/userspace.lock
latest=""
flavour=amd64
while [ $# -gt 1 ]; do
	case $1 in
	--lock)
		lock=$2
		shift 2
		;;
	--userspace-lock)
		userspace_lock=$2
		shift 2
		;;
	--latest)
		latest=$2
		shift 2
		;;
	--flavour)
		flavour=$2
		shift 2
		;;
	*) die "unknown option $1" ;;
	esac
done
[ $# -eq 1 ] || die "usage: linux-fetch.sh [--latest SERIES [--flavour F]] [--lock FILE] [--userspace-lock FILE] OUTDIR"
out=$1
# The modules the guest loads; `modinfo -F depends` brings their chains
# (configfs, then tsm in 6.12 or tsm_report from 6.16). One built into
# the kernel (modules.builtin) is not loaded. efivarfs: the self-test
# reads UEFI variables through it, at VMPL1, when OVMF booted Linux (its
# filesystem registers without EFI too; only mounting it needs EFI).
wanted_modules=(sev-guest efivarfs)
# Kernel options the kit relies on (docs/linux.md); a pin without them fails.
required_config=(CONFIG_AMD_MEM_ENCRYPT=y 'CONFIG_SEV_GUEST=[ym]'
	'CONFIG_TSM_REPORTS=[ym]' 'CONFIG_CONFIGFS_FS=[ym]' CONFIG_BLK_DEV_INITRD=y
	CONFIG_RD_GZIP=y CONFIG_DEVTMPFS=y CONFIG_SERIAL_8250_CONSOLE=y
	CONFIG_HOTPLUG_CPU=y CONFIG_X86_X2APIC=y CONFIG_ACPI=y)
# Linux's SVSM vTPM driver (drivers/char/tpm/tpm_svsm.c, TCG_SVSM) is in
# v6.16 and later (not in linux-source-6.12, checked).
tpm_svsm_since=6.16
# With a source and headers line: tpm_svsm.ko, whose TPM core is built in.
required_tpm_config=(CONFIG_TCG_TPM=y)
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cache=${CSVSM_CACHE:-$HOME/.cache/csvsm}

for c in apt-get dpkg modinfo xz sha256sum; do
	command -v "$c" >/dev/null ||
		die "$c missing: scripts/setup.sh installs what the kit needs"
done

# --- the lock file -------------------------------------------------------
[ -r "$lock" ] || die "no lock file $lock"
suites=()
declare -A pkg ver sha absent
entry=decompressor
while read -r role a b c rest; do
	case $role in
	'' | '#'*) continue ;;
	suites) read -r -a suites <<<"$a $b $c $rest" ;;
	kernel | base | modules | busybox | source | headers)
		[ -n "$c" ] || die "$lock: '$role' needs PACKAGE VERSION SHA256"
		pkg[$role]=$a ver[$role]=$b sha[$role]=$c
		;;
	entry)
		# How csvsm enters this kernel (csvsm-igvm --linux-entry):
		# startup_64 for a decompressor that cannot run at VMPL1.
		case $a in
		decompressor | startup_64) entry=$a ;;
		*) die "$lock: 'entry $a': decompressor or startup_64" ;;
		esac
		;;
	absent)
		case $a in
		base | modules | source | headers) ;;
		*) die "$lock: 'absent $a': only base, modules, source, headers" ;;
		esac
		[ -n "$b" ] || die "$lock: 'absent $a' needs the PACKAGE the suites lack"
		absent[$a]=$b
		;;
	*) die "$lock: unknown line '$role'" ;;
	esac
done <"$lock"
[ ${#suites[@]} -gt 0 ] || die "$lock: no suites line"
# A lock with only a kernel line fetches just the bzImage (and its config):
# a kernel for the loader's checks, with no kit around it.
[ -n "${pkg[kernel]:-}" ] || die "$lock: no 'kernel' line"
for role in "${!absent[@]}"; do
	[ -z "${pkg[$role]:-}" ] || die "$lock: '$role' is both pinned and absent"
done
have() { [ -n "${pkg[$1]:-}" ] || [ -n "${absent[$1]:-}" ]; }
# The layout: linux-image-* (to 6.18) holds the bzImage, config and
# modules; linux-binary-* (from 6.19) comes with base and modules.
case ${pkg[kernel]} in
linux-image-*) layout=image ;;
linux-binary-*) layout=binary ;;
*) die "$lock: the kernel is ${pkg[kernel]}, neither linux-image-* nor linux-binary-*" ;;
esac
full=0
[ -z "${pkg[busybox]:-}" ] || full=1
if [ $layout = image ]; then
	! have modules || die "$lock: ${pkg[kernel]} holds its modules: no 'modules' line"
	! have base || die "$lock: ${pkg[kernel]} holds its config: no 'base' line"
elif [ $full -eq 1 ]; then
	{ have base && have modules; } ||
		die "$lock: ${pkg[kernel]} needs base and modules lines (or 'absent' ones)"
else
	{ ! have base && ! have modules; } ||
		die "$lock: give base, modules and busybox lines, or none of them"
fi
# source and headers: tpm_svsm.ko, built (scripts/linux-module-build.sh).
tpm=0
for role in source headers; do
	[ -z "${pkg[$role]:-}" ] || tpm=$((tpm + 1))
done
[ $tpm -eq 0 ] || { [ $tpm -eq 2 ] && [ $full -eq 1 ]; } ||
	die "$lock: source and headers lines go together, in a full kit"
[ $tpm -eq 0 ] || [ "${ver[source]}" = "${ver[kernel]}" ] ||
	die "$lock: the source's version ${ver[source]} is not the kernel's"
[ $tpm -eq 0 ] || [ -n "${pkg[modules]:-}" ] || [ $layout = image ] ||
	die "$lock: tpm_svsm.ko needs the kernel's modules (to match one's vermagic)"
# The kernel's series (6.12, 7.3) from its version.
series=$(sed -E 's/^([0-9]+:)?([0-9]+\.[0-9]+).*/\2/' <<<"${ver[kernel]}")

# --- the private apt -----------------------------------------------------
apt_dir=$(mkdir -p "$out" && cd "$out" && pwd)/apt
apt_setup() {
	apt_private_setup "$apt_dir" linux-fetch "${suites[@]}" ||
		die "apt-get update failed (network, mirror or signatures; see above)"
}
papt() { APT_CONFIG=$apt_dir/apt.conf "$@"; }

lock_line() { # ROLE PACKAGE VERSION
	local sum
	sum=$(papt apt-cache show --no-all-versions "$2=$3" |
		sed -n 's/^SHA256: //p' | head -n1)
	[ -n "$sum" ] || die "no SHA256 for $2 $3 in ${suites[*]}"
	echo "$1 $2 $3 $sum"
}

# Whether the suites carry PACKAGE at VERSION.
avail() { # PACKAGE VERSION
	papt apt-cache madison "$1" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | grep -qxF "$2"
}
version_of() { # PACKAGE: its candidate version, or nothing
	papt apt-cache show --no-all-versions "$1" 2>/dev/null |
		sed -n 's/^Version: //p' | head -n1 || true
}
# SERIES older than $tpm_svsm_since: Linux has no SVSM vTPM driver.
before_tpm_svsm() {
	[ "$1" != "$tpm_svsm_since" ] &&
		[ "$(printf '%s\n' "$1" "$tpm_svsm_since" | sort -V | head -n1)" = "$1" ]
}

if [ -n "$latest" ]; then
	apt_setup
	sre=${latest//./\\.}
	# The newest release of the series under either name; from 6.19
	# linux-image-KREL is an empty package that depends on linux-binary-KREL.
	krel=$(papt apt-cache search --names-only \
		"^linux-(image|binary)-${sre}\.[0-9]+\+deb[0-9]+-${flavour}\$" |
		awk '{ print $1 }' | sed -E 's/^linux-(image|binary)-//' |
		sort -uV | tail -n1)
	[ -n "$krel" ] || die "no linux-image-$latest.*-$flavour or" \
		"linux-binary-$latest.*-$flavour in ${suites[*]}"
	kpkg=linux-binary-$krel
	kver=$(version_of "$kpkg")
	if [ -z "$kver" ]; then
		kpkg=linux-image-$krel
		kver=$(version_of "$kpkg")
	fi
	bver=$(version_of busybox-static)
	[ -n "$bver" ] || die "no busybox-static in ${suites[*]}"
	# pin ROLE PACKAGE: its lock line at the kernel's version, or `absent`.
	pin() {
		if avail "$2" "$kver"; then
			lock_line "$1" "$2" "$kver"
		else
			echo "absent $1 $2"
		fi
	}
	echo "# Debian's Linux $latest for $flavour, the newest the suites carried"
	echo "# (scripts/linux-fetch.sh --latest $latest --flavour $flavour OUTDIR;"
	echo "# the format is test/linux/debian.lock's, docs/linux.md)."
	echo "suites ${suites[*]}"
	lock_line kernel "$kpkg" "$kver"
	if [ "$kpkg" = "linux-binary-$krel" ]; then
		if ! avail "linux-base-$krel" "$kver" ||
			! avail "linux-modules-$krel" "$kver"; then
			echo "# The suites lack the kernel's base (its config) or modules:" \
				"the kit has only what they carry."
		fi
		pin base "linux-base-$krel"
		pin modules "linux-modules-$krel"
	fi
	lock_line busybox busybox-static "$bver"
	if before_tpm_svsm "$latest"; then
		echo "# No source and headers: Linux $latest has no SVSM vTPM driver" \
			"(tpm_svsm.c is from v$tpm_svsm_since)."
	elif avail "linux-source-$latest" "$kver" &&
		avail "linux-headers-$krel" "$kver"; then
		lock_line source "linux-source-$latest" "$kver"
		lock_line headers "linux-headers-$krel" "$kver"
	else
		echo "# The suites lack what tpm_svsm.ko is built from: no tpm_svsm" \
			"(the TPM checks fail)."
		pin source "linux-source-$latest"
		pin headers "linux-headers-$krel"
	fi
	exit 0
fi

# --- the cache -----------------------------------------------------------
key() { echo "${pkg[$1]}_${ver[$1]//:/_}"; }
kcache=$cache/linux/$(key kernel)
bcache=$cache/busybox/${ver[busybox]:-none}
bcache=${bcache//:/_}
# The kernel's roles pinned (kernel, and base and modules from 6.19).
kroles=(kernel)
if [ $full -eq 1 ]; then
	for role in base modules; do
		[ -z "${pkg[$role]:-}" ] || kroles+=("$role")
	done
	kstamp="$(grep -E '^(kernel|base|modules|absent (base|modules)) ' "$lock") wanted ${wanted_modules[*]}"
else
	kstamp="$(grep -E '^kernel ' "$lock") kernel only"
fi
bstamp=$(grep -E "^busybox " "$lock" || true)
kernel_cached() { [ -f "$kcache/stamp" ] && [ "$(cat "$kcache/stamp")" = "$kstamp" ]; }
busybox_cached() { [ -f "$bcache/stamp" ] && [ "$(cat "$bcache/stamp")" = "$bstamp" ]; }
recipe=$(dirname "$0")/linux-module-build.sh
if [ $tpm -eq 2 ]; then
	# What makes another tpm_svsm.ko: the packages, the recipe, the tools.
	mstamp="$(grep -E '^(kernel|source|headers) ' "$lock")
recipe $(sha256sum <"$recipe" | cut -c1-64)
gcc $(gcc -dumpfullversion 2>/dev/null || echo none)
pahole $(pahole --version 2>/dev/null || echo none)"
	mkey=$(sha256sum <<<"$mstamp" | cut -c1-12)
	mcache=$cache/tpm_svsm/$(key kernel)+src_${ver[source]//:/_}+$mkey
fi
module_cached() {
	[ $tpm -eq 0 ] ||
		{ [ -f "$mcache/stamp" ] && [ "$(cat "$mcache/stamp")" = "$mstamp" ]; }
}

download() { # DIR ROLE...: the pinned .debs into DIR, checked, unpacked
	local dir=$1 role f avail names=() want=()
	shift
	# One apt call for all (each call reads the 10 MB of lists again).
	for role in "$@"; do
		names+=("${pkg[$role]}")
	done
	avail=$(papt apt-cache madison "${names[@]}" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); print $1 "=" $2 }')
	for role in "$@"; do
		if ! grep -qxF "${pkg[$role]}=${ver[$role]}" <<<"$avail"; then
			die "${pkg[$role]} ${ver[$role]} (pinned in $lock) is not in" \
				"${suites[*]} any more (there:" \
				"$(grep "^${pkg[$role]}=" <<<"$avail" | cut -d= -f2 |
					tr '\n' ' ')). Pin another: scripts/linux-fetch.sh" \
				"--latest $series $out"
		fi
		want+=("${pkg[$role]}=${ver[$role]}")
	done
	echo "linux-fetch: downloading ${want[*]}"
	(cd "$dir" && papt apt-get download -qq "${want[@]}") ||
		die "apt-get download ${want[*]} failed"
	for role in "$@"; do
		f=$(ls "$dir/${pkg[$role]}"_*.deb)
		echo "${sha[$role]}  $f" | sha256sum --quiet -c - ||
			die "$f: SHA-256 differs from $lock"
		dpkg -x "$f" "$dir/root"
		rm -f "$f"
	done
}

modcat() { # MODULE-FILE: the module, uncompressed, on stdout
	case $1 in
	*.ko.xz) xz -dc "$1" ;;
	*.ko.zst) zstd -qdc "$1" ;;
	*.ko.gz) gzip -dc "$1" ;;
	*) cat "$1" ;;
	esac
}

unpack_kernel() { # ROOT DEST: vmlinuz, config, modules from ROOT into DEST
	local root=$1 dest=$2 krel moddir opt f n
	# linux-image-*: the bzImage and config in /boot, the modules in
	# /usr/lib/modules (/lib/modules before trixie); linux-binary-*: all
	# in /usr/lib/modules (the bzImage in /boot until 7.1). A linux-binary
	# without base and modules has the bzImage alone.
	moddir=$root/usr/lib/modules
	[ -d "$moddir" ] || moddir=$root/lib/modules
	if [ -d "$moddir" ]; then
		krel=$(ls "$moddir")
	else
		krel=$(find "$root/boot" -name 'vmlinuz-*' -printf '%f\n' 2>/dev/null |
			sed 's/^vmlinuz-//' || true)
	fi
	{ [ -n "$krel" ] && [ "$(echo "$krel" | wc -l)" -eq 1 ]; } ||
		die "not one kernel in the packages: ${krel:-none}"
	moddir=$moddir/$krel
	f=$moddir/vmlinuz
	[ -f "$f" ] || f=$root/boot/vmlinuz-$krel
	[ -f "$f" ] || die "no vmlinuz for $krel in ${pkg[kernel]}"
	mkdir -p "$dest/modules"
	cp "$f" "$dest/vmlinuz"
	for f in "$moddir/config" "$root/boot/config-$krel"; do
		[ ! -f "$f" ] || cp "$f" "$dest/config"
	done
	echo "$krel" >"$dest/VERSION"
	: >"$dest/modules/load-order"
	: >"$dest/modules/probe-order"
	[ $full -eq 1 ] || {
		[ -f "$dest/config" ] || die "no config for $krel in ${pkg[kernel]}"
		return 0
	}
	if [ -f "$dest/config" ]; then
		for opt in "${required_config[@]}"; do
			grep -qxE "$opt" "$dest/config" ||
				die "${pkg[kernel]}: the kit needs $opt"
		done
	else
		echo "linux-fetch: ${absent[base]} is not in ${suites[*]}:" \
			"no config to check for ${required_config[*]}" >&2
	fi
	if [ -n "${absent[modules]:-}" ]; then
		echo "linux-fetch: ${absent[modules]} is not in ${suites[*]}:" \
			"the kit has no modules (no ${wanted_modules[*]})" >&2
		return 0
	fi

	# Module file by name ('-' and '_' are one), then each wanted module
	# after its dependencies: modules/load-order is insmod's order. A
	# module built into the kernel (modules.builtin) is there already.
	declare -A path=() seen=()
	while IFS= read -r f; do
		n=${f##*/}
		n=${n%%.ko*}
		path[${n//-/_}]=$f
	done < <(find "$moddir/kernel" -name '*.ko*')
	add() { # MODULE LIST: MODULE's dependencies, then MODULE into LIST
		local m=${1//-/_} d f="" name
		[ -z "${seen[$m]:-}" ] || return 0
		seen[$m]=1
		f=${path[$m]:-}
		if [ -z "$f" ]; then
			sed 's/-/_/g' "$moddir/modules.builtin" 2>/dev/null |
				grep -q "/$m\.ko\$" || die "module $1 not in the kernel's packages"
			echo "linux-fetch: $1 is built into $krel"
			return 0
		fi
		for d in $(modinfo -F depends "$f" | tr ',' ' '); do
			add "$d" load-order
		done
		name=${f##*/}
		name=${name%%.ko*}.ko
		modcat "$f" >"$dest/modules/$name"
		echo "$name" >>"$dest/modules/$2"
	}
	# Algorithms a module asks the crypto API for by name: Linux would
	# load their modules through modprobe, which the initramfs has not, so
	# the kit loads them first. Linux 6.12's sev-guest asks for "gcm(aes)"
	# (its probe fails with -EIO without it; from 6.13 sev-guest uses the
	# AES-GCM library, built in): gcm, and ghash-generic for its GHASH.
	local alg m
	declare -A crypto_modules=(["gcm(aes)"]="ghash-generic gcm")
	for n in "${wanted_modules[@]}"; do
		f=${path[${n//-/_}]:-}
		[ -n "$f" ] || continue
		for alg in "${!crypto_modules[@]}"; do
			[ "$(modcat "$f" | grep -acF "$alg")" -gt 0 ] || continue
			for m in ${crypto_modules[$alg]}; do
				add "$m" load-order
			done
		done
	done
	for n in "${wanted_modules[@]}"; do
		add "$n" load-order
	done
	# A kernel with Debian's own tpm_svsm.ko (TCG_SVSM=m): probed after.
	if grep -qx 'CONFIG_TCG_SVSM=m' "$dest/config"; then
		add tpm_svsm probe-order
	fi
}

# How the guest gets its SVSM vTPM driver: kit/tpm_svsm's line (above).
tpm_svsm_line() {
	local cfg=$kcache/config
	if [ $tpm -eq 2 ]; then
		echo module
	elif [ -f "$cfg" ] && grep -qx 'CONFIG_TCG_SVSM=y' "$cfg"; then
		echo builtin
	elif [ -f "$cfg" ] && grep -qx 'CONFIG_TCG_SVSM=m' "$cfg"; then
		echo module
	elif { [ -f "$cfg" ] && ! grep -qE '^(# )?CONFIG_TCG_SVSM[= ]' "$cfg"; } ||
		{ [ ! -f "$cfg" ] && before_tpm_svsm "$series"; }; then
		echo "none Linux $series has no SVSM vTPM driver"
	elif [ -n "${absent[source]:-}" ]; then
		echo "missing ${absent[source]} is not in ${suites[*]} to build it from"
	elif [ -n "${absent[modules]:-}" ]; then
		echo "missing ${absent[modules]} is not in ${suites[*]}"
	else
		echo "missing the lock pins no linux-source-$series to build it from"
	fi
}
# Building tpm_svsm.ko needs a kernel that has the driver and lacks it.
check_tpm_build() {
	local cfg=$kcache/config
	[ $tpm -eq 2 ] && [ -f "$cfg" ] || return 0
	grep -qE '^(# )?CONFIG_TCG_SVSM[= ]' "$cfg" ||
		die "$lock: Linux $series has no SVSM vTPM driver: drop the source" \
			"and headers lines"
	! grep -qE '^CONFIG_TCG_SVSM=[ym]' "$cfg" ||
		die "$lock: ${pkg[kernel]} has $(grep '^CONFIG_TCG_SVSM=' "$cfg"):" \
			"drop the source and headers lines"
}

publish() { # TMP FINAL STAMP: the finished cache entry, atomically
	echo "$3" >"$1/stamp"
	rm -rf "$2"
	mkdir -p "$(dirname "$2")"
	mv "$1" "$2"
}

need=()
if [ $full -eq 1 ]; then
	kernel_cached || need+=("${kroles[@]}")
	busybox_cached || need+=(busybox)
	module_cached || need+=(source headers)
else
	kernel_cached || need+=(kernel)
	busybox_cached() { true; }
fi
if [ ${#need[@]} -gt 0 ]; then
	apt_setup
	mkdir -p "$cache"
	work=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	mkdir -p "$work/root"
	# The kernel first: a pin the kit cannot use fails before the source's
	# download.
	if ! kernel_cached; then
		download "$work" "${kroles[@]}"
		unpack_kernel "$work/root" "$work/kernel"
		publish "$work/kernel" "$kcache" "$kstamp"
	fi
	check_tpm_build
	rest=()
	busybox_cached || rest+=(busybox)
	module_cached || rest+=(source headers)
	[ ${#rest[@]} -eq 0 ] || download "$work" "${rest[@]}"
	if ! busybox_cached; then
		mkdir -p "$work/busybox"
		cp "$work/root/usr/bin/busybox" "$work/busybox/busybox"
		publish "$work/busybox" "$bcache" "$bstamp"
	fi
	if ! module_cached; then
		krel=$(cat "$kcache/VERSION")
		for opt in "${required_tpm_config[@]}"; do
			grep -qx "$opt" "$kcache/config" ||
				die "${pkg[kernel]}: tpm_svsm.ko needs $opt"
		done
		# Any of Debian's modules for the kernel: the vermagic to match.
		ref=$(head -n1 "$kcache/modules/load-order")
		[ -n "$ref" ] || die "${pkg[kernel]}: no module of the kernel's to match"
		mkdir -p "$work/build"
		"$recipe" "$work/root/usr/src/${pkg[source]}.tar.xz" \
			"$work/root/usr/src/${pkg[headers]}" "$krel" \
			"$kcache/modules/$ref" "$work/build" "$work/tpm" ||
			die "tpm_svsm.ko did not build (see above)"
		publish "$work/tpm" "$mcache" "$mstamp"
	fi
else
	check_tpm_build
	echo "linux-fetch: cached in $cache (${pkg[kernel]} ${ver[kernel]})"
fi

# --- OUTDIR --------------------------------------------------------------
rm -rf "$out/kit" "$out/config"
cp "$kcache/vmlinuz" "$kcache/VERSION" "$out/"
echo "$entry" >"$out/entry"
[ ! -f "$kcache/config" ] || cp "$kcache/config" "$out/"
if [ $full -eq 0 ]; then
	echo "linux-fetch: $out/vmlinuz is Linux $(cat "$out/VERSION")" \
		"(${pkg[kernel]} ${ver[kernel]}), the kernel alone"
	exit 0
fi
mkdir -p "$out/kit/modules"
cp "$kcache/modules/"* "$out/kit/modules/"
# Modules whose insmod is a probe: tpm_svsm binds only where Linux found an
# SVSM vTPM (test/linux/init records the outcome). A cache entry from
# before probe-order was kept there has none.
[ -f "$out/kit/modules/probe-order" ] || : >"$out/kit/modules/probe-order"
if [ $tpm -eq 2 ]; then
	cp "$mcache/tpm_svsm.ko" "$out/kit/modules/"
	echo tpm_svsm.ko >"$out/kit/modules/probe-order"
fi
tpm_svsm_line >"$out/kit/tpm_svsm"
# Why the kit has no modules, when the lock says the suites lack them.
if [ -n "${absent[modules]:-}" ]; then
	echo "${absent[modules]} is not in ${suites[*]}" >"$out/kit/modules-absent"
fi
cp "$bcache/busybox" "$out/kit/busybox"
# The userspace beside busybox (the same for every kernel): its own lock,
# private apt (OUTDIR/apt-userspace) and cache.
"$(dirname "$0")/linux-userspace.sh" --lock "$userspace_lock" \
	--apt "$out/apt-userspace" "$out/kit/userspace" ||
	die "no userspace for the kit (see above)"
cp "$kcache/VERSION" "$out/kit/VERSION"
grep -vE '^(#|$)' "$lock" >"$out/kit/PACKAGES"
mods=$(cat "$out/kit/modules/load-order" "$out/kit/modules/probe-order" |
	tr '\n' ' ')
[ ! -f "$out/kit/modules-absent" ] || mods="none, $(cat "$out/kit/modules-absent")"
echo "linux-fetch: $out/vmlinuz is Linux $(cat "$out/VERSION")" \
	"(${pkg[kernel]} ${ver[kernel]}); modules: $mods; tpm_svsm:" \
	"$(cat "$out/kit/tpm_svsm")"

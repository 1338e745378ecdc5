#!/usr/bin/env bash
# The Linux guest kit's fetch step: Debian's kernel, its modules for
# configfs-tsm and sev-guest, busybox-static, and the SVSM vTPM driver
# tpm_svsm.ko built for that kernel from Debian's linux-source and
# linux-headers, at the exact versions pinned in test/linux/debian.lock
# (docs/linux.md).
#
#   linux-fetch.sh [--lock FILE] OUTDIR
#       OUTDIR/vmlinuz (the bzImage), OUTDIR/VERSION (the kernel release),
#       OUTDIR/config, and OUTDIR/kit/ (busybox, modules/*.ko with
#       modules/load-order and modules/probe-order, PACKAGES) for
#       scripts/linux-initrd.sh.
#   A lock with a kernel line alone gives OUTDIR/vmlinuz, VERSION and
#   config only (test/linux/debian-6.1.lock: a kernel too old for an SVSM).
#   linux-fetch.sh --latest SERIES [--lock FILE] OUTDIR
#       prints the lock lines of the newest SERIES (e.g. 7.3) generic amd64
#       kernel the suites carry, and the suites' busybox-static, to pin.
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

die() {
	echo "linux-fetch: $*" >&2
	exit 1
}

lock=test/linux/debian.lock
latest=""
while [ $# -gt 1 ]; do
	case $1 in
	--lock)
		lock=$2
		shift 2
		;;
	--latest)
		latest=$2
		shift 2
		;;
	*) die "unknown option $1" ;;
	esac
done
[ $# -eq 1 ] || die "usage: linux-fetch.sh [--latest SERIES] [--lock FILE] OUTDIR"
out=$1
# The modules the guest loads; `modinfo -F depends` brings their chains.
wanted_modules=(sev-guest)
# Kernel options the kit relies on (docs/linux.md); a pin without them fails.
required_config=(CONFIG_AMD_MEM_ENCRYPT=y CONFIG_SEV_GUEST=m
	CONFIG_TSM_REPORTS=m CONFIG_CONFIGFS_FS=m CONFIG_BLK_DEV_INITRD=y
	CONFIG_RD_GZIP=y CONFIG_DEVTMPFS=y CONFIG_SERIAL_8250_CONSOLE=y
	CONFIG_HOTPLUG_CPU=y CONFIG_X86_X2APIC=y CONFIG_ACPI=y)
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
declare -A pkg ver sha
while read -r role a b c rest; do
	case $role in
	'' | '#'*) continue ;;
	suites) read -r -a suites <<<"$a $b $c $rest" ;;
	kernel | base | modules | busybox | source | headers)
		[ -n "$c" ] || die "$lock: '$role' needs PACKAGE VERSION SHA256"
		pkg[$role]=$a ver[$role]=$b sha[$role]=$c
		;;
	*) die "$lock: unknown line '$role'" ;;
	esac
done <"$lock"
[ ${#suites[@]} -gt 0 ] || die "$lock: no suites line"
# A lock with only a kernel line fetches just the bzImage (and its config):
# a kernel for the loader's checks, with no kit around it.
[ -n "${pkg[kernel]:-}" ] || die "$lock: no 'kernel' line"
full=0
for role in base modules busybox; do
	[ -z "${pkg[$role]:-}" ] || full=$((full + 1))
done
[ $full -eq 0 ] || [ $full -eq 3 ] ||
	die "$lock: give base, modules and busybox lines, or none of them"
# source and headers: tpm_svsm.ko, built (scripts/linux-module-build.sh).
tpm=0
for role in source headers; do
	[ -z "${pkg[$role]:-}" ] || tpm=$((tpm + 1))
done
[ $tpm -eq 0 ] || { [ $tpm -eq 2 ] && [ $full -eq 3 ]; } ||
	die "$lock: source and headers lines go together, in a full kit"
[ $tpm -eq 0 ] || [ "${ver[source]}" = "${ver[kernel]}" ] ||
	die "$lock: the source's version ${ver[source]} is not the kernel's"

# --- the private apt -----------------------------------------------------
mirror() {
	if [ -n "${CSVSM_DEBIAN_MIRROR:-}" ]; then
		echo "$CSVSM_DEBIAN_MIRROR"
		return
	fi
	local codename uri
	# shellcheck disable=SC1091 # the host's, read at run time
	codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
	# shellcheck disable=SC2016 # apt's $(FIELD) syntax, not the shell's
	uri=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE) $(TARGET_OF)' \
		2>/dev/null | awk -v c="$codename" '$2 == c && $3 == "deb" \
		{ print $1; exit }')
	[ -n "$uri" ] || die "cannot tell the host's Debian mirror (release" \
		"'$codename' in its apt sources); set CSVSM_DEBIAN_MIRROR"
	echo "$uri"
}

apt_dir=$(mkdir -p "$out" && cd "$out" && pwd)/apt
apt_setup() {
	[ -r "$keyring" ] || die "$keyring missing (package debian-archive-keyring)"
	local m s
	m=$(mirror)
	mkdir -p "$apt_dir"/{etc/parts,etc/prefs,lists/partial,cache/archives/partial}
	: >"$apt_dir/status"
	: >"$apt_dir/etc/sources.list"
	for s in "${suites[@]}"; do
		echo "deb [signed-by=$keyring] $m $s main" >>"$apt_dir/etc/sources.list"
	done
	cat >"$apt_dir/apt.conf" <<-EOF
		// Written by scripts/linux-fetch.sh: only this file configures apt.
		Dir::Etc::Parts "$apt_dir/etc/parts";
		Dir::Etc::Main "$apt_dir/apt.conf";
		Dir::Etc::SourceList "$apt_dir/etc/sources.list";
		Dir::Etc::SourceParts "$apt_dir/etc/parts";
		Dir::Etc::Preferences "$apt_dir/etc/preferences";
		Dir::Etc::PreferencesParts "$apt_dir/etc/prefs";
		Dir::Etc::Trusted "$apt_dir/etc/trusted.gpg";
		Dir::Etc::TrustedParts "$apt_dir/etc/parts";
		Dir::State "$apt_dir";
		Dir::State::Lists "$apt_dir/lists";
		Dir::State::status "$apt_dir/status";
		Dir::Cache "$apt_dir/cache";
		APT::Architecture "amd64";
		APT::Architectures { "amd64"; };
		Acquire::Languages "none";
		Acquire::Retries "3";
		// Keep the lists compressed and no binary caches: 10 MB, not 140.
		Acquire::GzipIndexes "true";
		Acquire::CompressionTypes::Order { "gz"; };
		Dir::Cache::pkgcache "";
		Dir::Cache::srcpkgcache "";
	EOF
	# As root apt downloads as user _apt, who may not write here.
	if [ "$(id -u)" -eq 0 ]; then
		echo 'APT::Sandbox::User "root";' >>"$apt_dir/apt.conf"
	fi
	echo "linux-fetch: apt-get update (${suites[*]} from $m)" >&2
	APT_CONFIG=$apt_dir/apt.conf apt-get update -qq ||
		die "apt-get update failed (network, mirror or signatures; see above)"
}
papt() { APT_CONFIG=$apt_dir/apt.conf "$@"; }

lock_line() { # ROLE PACKAGE VERSION
	local sum
	sum=$(papt apt-cache show --no-all-versions "$2=$3" |
		sed -n 's/^SHA256: //p' | head -n1)
	echo "$1 $2 $3 $sum"
}

if [ -n "$latest" ]; then
	apt_setup
	series=${latest//./\\.}
	kpkg=$(papt apt-cache search --names-only \
		"^linux-binary-${series}\.[0-9]+\+deb[0-9]+-amd64\$" |
		awk '{ print $1 }' | sort -V | tail -n1)
	[ -n "$kpkg" ] || die "no linux-binary-$latest.*-amd64 in ${suites[*]}"
	kver=$(papt apt-cache show --no-all-versions "$kpkg" |
		sed -n 's/^Version: //p' | head -n1)
	bver=$(papt apt-cache show --no-all-versions busybox-static |
		sed -n 's/^Version: //p' | head -n1)
	echo "suites ${suites[*]}"
	lock_line kernel "$kpkg" "$kver"
	lock_line base "${kpkg/linux-binary-/linux-base-}" "$kver"
	lock_line modules "${kpkg/linux-binary-/linux-modules-}" "$kver"
	lock_line busybox busybox-static "$bver"
	lock_line source "linux-source-$latest" "$kver"
	lock_line headers "${kpkg/linux-binary-/linux-headers-}" "$kver"
	exit 0
fi

# --- the cache -----------------------------------------------------------
key() { echo "${pkg[$1]}_${ver[$1]//:/_}"; }
kcache=$cache/linux/$(key kernel)
bcache=$cache/busybox/${ver[busybox]:-none}
bcache=${bcache//:/_}
if [ $full -eq 3 ]; then
	kstamp="$(grep -E '^(kernel|base|modules) ' "$lock") wanted ${wanted_modules[*]}"
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
				"--latest 7.3 $out"
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

unpack_kernel() { # ROOT DEST: vmlinuz, config, modules from ROOT into DEST
	local root=$1 dest=$2 krel moddir opt f n name
	# Until 6.18 in /lib/modules and /boot; from 6.19 all in /usr/lib/modules.
	moddir=$root/usr/lib/modules
	[ -d "$moddir" ] || moddir=$root/lib/modules
	krel=$(ls "$moddir")
	[ "$(echo "$krel" | wc -l)" -eq 1 ] || die "not one kernel in the packages: $krel"
	moddir=$moddir/$krel
	f=$moddir/vmlinuz
	[ -f "$f" ] || f=$root/boot/vmlinuz-$krel
	[ -f "$f" ] || die "no vmlinuz for $krel in ${pkg[kernel]}"
	mkdir -p "$dest/modules"
	cp "$f" "$dest/vmlinuz"
	cp "$moddir/config" "$dest/config" 2>/dev/null ||
		cp "$root/boot/config-$krel" "$dest/config"
	echo "$krel" >"$dest/VERSION"
	[ $full -eq 3 ] || return 0
	for opt in "${required_config[@]}"; do
		grep -qx "$opt" "$dest/config" ||
			die "${pkg[kernel]}: the kit needs $opt"
	done

	# Module file by name ('-' and '_' are one), then each wanted module
	# after its dependencies: modules/load-order is insmod's order.
	declare -A path=() seen=()
	while IFS= read -r f; do
		n=${f##*/}
		n=${n%%.ko*}
		path[${n//-/_}]=$f
	done < <(find "$moddir/kernel" -name '*.ko*')
	: >"$dest/modules/load-order"
	add() {
		local m=${1//-/_} d f=""
		[ -z "${seen[$m]:-}" ] || return 0
		f=${path[$m]:-}
		[ -n "$f" ] || die "module $1 not in ${pkg[modules]}"
		seen[$m]=1
		for d in $(modinfo -F depends "$f" | tr ',' ' '); do
			add "$d"
		done
		name=${f##*/}
		name=${name%%.ko*}.ko
		case $f in
		*.ko.xz) xz -dc "$f" >"$dest/modules/$name" ;;
		*.ko.zst) zstd -qdc "$f" >"$dest/modules/$name" ;;
		*.ko.gz) gzip -dc "$f" >"$dest/modules/$name" ;;
		*) cp "$f" "$dest/modules/$name" ;;
		esac
		echo "$name" >>"$dest/modules/load-order"
	}
	for n in "${wanted_modules[@]}"; do
		add "$n"
	done
}

publish() { # TMP FINAL STAMP: the finished cache entry, atomically
	echo "$3" >"$1/stamp"
	rm -rf "$2"
	mkdir -p "$(dirname "$2")"
	mv "$1" "$2"
}

need=()
if [ $full -eq 3 ]; then
	kernel_cached || need+=(kernel base modules)
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
	download "$work" "${need[@]}"
	if ! kernel_cached; then
		unpack_kernel "$work/root" "$work/kernel"
		publish "$work/kernel" "$kcache" "$kstamp"
	fi
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
		mkdir -p "$work/build"
		"$recipe" "$work/root/usr/src/${pkg[source]}.tar.xz" \
			"$work/root/usr/src/${pkg[headers]}" "$krel" \
			"$kcache/modules/sev-guest.ko" "$work/build" "$work/tpm" ||
			die "tpm_svsm.ko did not build (see above)"
		publish "$work/tpm" "$mcache" "$mstamp"
	fi
else
	echo "linux-fetch: cached in $cache (${pkg[kernel]} ${ver[kernel]})"
fi

# --- OUTDIR --------------------------------------------------------------
rm -rf "$out/kit"
cp "$kcache/vmlinuz" "$kcache/config" "$kcache/VERSION" "$out/"
if [ $full -eq 0 ]; then
	echo "linux-fetch: $out/vmlinuz is Linux $(cat "$out/VERSION")" \
		"(${pkg[kernel]} ${ver[kernel]}), the kernel alone"
	exit 0
fi
mkdir -p "$out/kit/modules"
cp "$kcache/modules/"* "$out/kit/modules/"
# Modules whose insmod is a probe: tpm_svsm binds only where Linux found an
# SVSM vTPM (test/linux/init records the outcome).
: >"$out/kit/modules/probe-order"
if [ $tpm -eq 2 ]; then
	cp "$mcache/tpm_svsm.ko" "$out/kit/modules/"
	echo tpm_svsm.ko >"$out/kit/modules/probe-order"
fi
cp "$bcache/busybox" "$out/kit/busybox"
cp "$kcache/VERSION" "$out/kit/VERSION"
grep -vE '^(#|$)' "$lock" >"$out/kit/PACKAGES"
echo "linux-fetch: $out/vmlinuz is Linux $(cat "$out/VERSION")" \
	"(${pkg[kernel]} ${ver[kernel]}); modules:" \
	"$(cat "$out/kit/modules/load-order" "$out/kit/modules/probe-order" |
		tr '\n' ' ')"

#!/usr/bin/env bash
# Debian's OVMF, the UEFI firmware csvsm runs at VMPL1 (docs/uefi.md):
# one build of the `ovmf` package (or, from 2025.11, `ovmf-generic`, which
# took its files over), at the exact version pinned in a lock file
# (test/ovmf/*.lock), never installed on the host.
#
#   ovmf-fetch.sh --lock FILE OUTDIR
#       OUTDIR/OVMF.fd: the unified 4 MiB image (code and variables) of
#       OvmfPkgX64, the one SNP hosts load; OUTDIR/PACKAGE names the
#       package, version and file it came from.
#   ovmf-fetch.sh --latest SUITE [--ignore-valid-until] OUTDIR
#       prints a lock for the newest OVMF SUITE carries, to pin. testing,
#       unstable, sid and experimental imply --ignore-valid-until.
#
# The lock:
#   suites SUITE...                 the apt suites searched (main only)
#   ignore-valid-until SUITE...     suites whose Release file is past its
#                                   Valid-Until date (apt's
#                                   check-valid-until=no for them alone;
#                                   their signatures are still checked)
#   package PACKAGE VERSION SHA256  the .deb and the SHA-256 apt downloads
#   file PATH SHA256                the firmware inside it (OVMF.fd)
#
# Packages come through `apt-get download` with a private apt setup under
# OUTDIR/apt (its own sources.list, lists, cache and state; the host's apt
# configuration is not read and nothing is installed), as in
# scripts/linux-fetch.sh: the archive's Release files are checked against
# Debian 12's debian-archive-keyring, the .deb against the lock, and the
# firmware file against the lock. The mirror is the one the host's apt
# uses for its own release (CSVSM_DEBIAN_MIRROR overrides it).
#
# The firmware is cached outside the work tree, keyed by package and
# version: ${CSVSM_CACHE:-$HOME/.cache/csvsm}/ovmf/PACKAGE_VERSION/. A
# warm run checks the cached file's SHA-256 and downloads nothing.
set -euo pipefail

# shellcheck source=scripts/apt-private.sh
. "$(dirname "$0")/apt-private.sh"
die() {
	echo "ovmf-fetch: $*" >&2
	exit 1
}

lock=""
latest=""
ignore_vu=0
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
	--ignore-valid-until)
		ignore_vu=1
		shift
		;;
	*) die "unknown option $1" ;;
	esac
done
usage="usage: ovmf-fetch.sh --lock FILE OUTDIR | --latest SUITE [--ignore-valid-until] OUTDIR"
[ $# -eq 1 ] || die "$usage"
{ [ -n "$lock" ] && [ -z "$latest" ]; } || { [ -z "$lock" ] && [ -n "$latest" ]; } ||
	die "$usage"
out=$1
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cache=${CSVSM_CACHE:-$HOME/.cache/csvsm}/ovmf
# Where the unified image is, in every package that ships it.
fw_path=usr/share/ovmf/OVMF.fd

for c in apt-get dpkg-deb sha256sum; do
	command -v "$c" >/dev/null ||
		die "$c missing: scripts/setup.sh installs what the build needs"
done

# --- the lock file -------------------------------------------------------
suites=()
novu=()
pkg="" ver="" debsum="" file="" filesum=""
if [ -n "$lock" ]; then
	[ -r "$lock" ] || die "no lock file $lock"
	while read -r role a b c rest; do
		case $role in
		'' | '#'*) continue ;;
		suites) read -r -a suites <<<"$a $b $c $rest" ;;
		ignore-valid-until) read -r -a novu <<<"$a $b $c $rest" ;;
		package)
			{ [ -n "$c" ] && [ -z "$rest" ]; } ||
				die "$lock: 'package' needs PACKAGE VERSION SHA256"
			pkg=$a ver=$b debsum=$c
			;;
		file)
			{ [ -n "$b" ] && [ -z "$c" ]; } || die "$lock: 'file' needs PATH SHA256"
			file=$a filesum=$b
			;;
		*) die "$lock: unknown line '$role'" ;;
		esac
	done <"$lock"
	[ ${#suites[@]} -gt 0 ] || die "$lock: no suites line"
	[ -n "$pkg" ] || die "$lock: no 'package' line"
	[ -n "$file" ] || die "$lock: no 'file' line"
	for s in "${novu[@]}"; do
		[[ " ${suites[*]} " == *" $s "* ]] ||
			die "$lock: ignore-valid-until $s: not in the suites line"
	done
	[[ $debsum =~ ^[0-9a-f]{64}$ ]] || die "$lock: the package's SHA-256 is not 64 hex digits"
	[[ $filesum =~ ^[0-9a-f]{64}$ ]] || die "$lock: the file's SHA-256 is not 64 hex digits"
	case $file in
	/* | *..*) die "$lock: the file '$file' must be a relative path in the package" ;;
	esac
else
	suites=("$latest")
	case $latest in
	testing | unstable | sid | experimental) ignore_vu=1 ;;
	esac
	[ $ignore_vu -eq 0 ] || novu=("$latest")
fi

# --- the private apt (scripts/apt-private.sh) ---------------------------
apt_dir=""
apt_setup() {
	apt_dir=$(mkdir -p "$out" && cd "$out" && pwd)/apt
	apt_private_setup "$apt_dir" ovmf-fetch "${suites[@]}" -- "${novu[@]}" ||
		die "apt-get update failed (network, mirror or signatures; a" \
			"suite whose Release file is expired needs an" \
			"ignore-valid-until line, or --ignore-valid-until)"
}
papt() { APT_CONFIG=$apt_dir/apt.conf "$@"; }

# PACKAGE VERSION DIR: the .deb into DIR; prints its path.
download() {
	local f
	(cd "$3" && papt apt-get download -qq "$1=$2") ||
		die "apt-get download $1=$2 failed"
	f=$(ls "$3/$1"_*.deb)
	[ "$(echo "$f" | wc -l)" -eq 1 ] || die "not one $1 .deb in $3"
	echo "$f"
}
# DEB PATH DEST: one file of the package, copied out of it.
extract() {
	local x
	x=$(mktemp -d "$(dirname "$3")/.x.XXXXXX")
	dpkg-deb -x "$1" "$x"
	{ [ -f "$x/$2" ] && [ ! -L "$x/$2" ]; } || {
		rm -rf "$x"
		die "$(basename "$1") has no file /$2"
	}
	mv "$x/$2" "$3"
	rm -rf "$x"
}
sum() { sha256sum <"$1" | cut -c1-64; }

if [ -n "$latest" ]; then
	apt_setup
	work=$(mktemp -d "$out/.latest.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	# From 2025.11 `ovmf` is an empty package depending on ovmf-generic
	# (OvmfPkgX64: OVMF.fd), ovmf-amdsev (OVMF.amdsev.fd) and
	# ovmf-inteltdx; before, `ovmf` held OVMF.fd itself.
	for p in ovmf-generic ovmf; do
		v=$(papt apt-cache show --no-all-versions "$p" 2>/dev/null |
			sed -n 's/^Version: //p' | head -n1 || true)
		[ -n "$v" ] || continue
		deb=$(download "$p" "$v" "$work")
		list=$(dpkg-deb -c "$deb")
		grep -q " \./$fw_path\$" <<<"$list" || continue
		debsum=$(papt apt-cache show --no-all-versions "$p=$v" |
			sed -n 's/^SHA256: //p' | head -n1)
		[ "$(sum "$deb")" = "$debsum" ] ||
			die "$deb: SHA-256 differs from the suite's Packages file"
		extract "$deb" "$fw_path" "$work/OVMF.fd"
		[ "$(stat -c %s "$work/OVMF.fd")" -eq $((4 << 20)) ] ||
			die "$p $v: $fw_path is not the 4 MiB image"
		codename=$(sed -n 's/^Codename: //p' "$apt_dir"/lists/*_"$latest"_InRelease |
			head -n1)
		[ -n "$codename" ] || codename=$latest
		upstream=$(sed -E 's/^([0-9]+:)?([0-9]+\.[0-9]+).*/\2/' <<<"$v")
		echo "# Debian's OVMF $upstream ($p from $latest, $codename), the newest"
		echo "# it carried (scripts/ovmf-fetch.sh --latest $latest OUTDIR);"
		echo "# the format is scripts/ovmf-fetch.sh's, docs/uefi.md. Save as"
		echo "# test/ovmf/$upstream.lock."
		echo "suites $codename"
		[ ${#novu[@]} -eq 0 ] || echo "ignore-valid-until $codename"
		echo "package $p $v $debsum"
		echo "file $fw_path $(sum "$work/OVMF.fd")"
		exit 0
	done
	die "neither ovmf-generic nor ovmf in $latest has /$fw_path"
fi

# --- the cache, then OUTDIR ----------------------------------------------
key=${pkg}_${ver//:/_}
entry=$cache/$key
stamp="package $pkg $ver $debsum
file $file $filesum"
cached() {
	[ -f "$entry/stamp" ] && [ "$(cat "$entry/stamp")" = "$stamp" ] &&
		[ -f "$entry/OVMF.fd" ] && [ "$(sum "$entry/OVMF.fd")" = "$filesum" ]
}
if cached; then
	echo "ovmf-fetch: cached in $entry"
else
	apt_setup
	there=$(papt apt-cache madison "$pkg" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $2); print $2 }')
	grep -qxF "$ver" <<<"$there" ||
		die "$pkg $ver (pinned in $lock) is not in ${suites[*]} any more" \
			"(there: ${there//$'\n'/ }). Pin another: scripts/ovmf-fetch.sh" \
			"--latest SUITE $out"
	mkdir -p "$cache"
	work=$(mktemp -d "$cache/.fetch.XXXXXX")
	trap 'rm -rf "$work"' EXIT
	echo "ovmf-fetch: downloading $pkg=$ver"
	deb=$(download "$pkg" "$ver" "$work")
	[ "$(sum "$deb")" = "$debsum" ] || die "$deb: SHA-256 differs from $lock"
	mkdir -p "$work/entry"
	extract "$deb" "$file" "$work/entry/OVMF.fd"
	got=$(sum "$work/entry/OVMF.fd")
	[ "$got" = "$filesum" ] ||
		die "/$file in $pkg $ver: SHA-256 $got, not $filesum as in $lock"
	echo "$stamp" >"$work/entry/stamp"
	rm -rf "$entry"
	mv "$work/entry" "$entry"
fi

# Atomically: a make target is never a partial file.
mkdir -p "$out"
cp "$entry/OVMF.fd" "$out/.OVMF.fd.tmp"
[ "$(sum "$out/.OVMF.fd.tmp")" = "$filesum" ] || die "$out/OVMF.fd: copy differs"
echo "$pkg $ver /$file" >"$out/PACKAGE"
mv "$out/.OVMF.fd.tmp" "$out/OVMF.fd"
echo "ovmf-fetch: $out/OVMF.fd is /$file of $pkg $ver"

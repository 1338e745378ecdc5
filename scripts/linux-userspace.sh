#!/usr/bin/env bash
# The Linux guest's userspace beside busybox, from Debian's packages, never
# from the host's filesystem: tpm2-tools' multi-call binary `tpm2`, the
# TCTI for /dev/tpmrm0 (libtss2-tcti-device.so.0, which libtss2-tctildr
# opens with dlopen), and every shared library they load, the dynamic
# loader and libc included, at the exact versions and SHA-256s
# test/linux/userspace.lock pins (docs/linux.md, "The guest's userspace").
# One lock for every kernel's kit: the userspace does not depend on the
# kernel.
#
#   linux-userspace.sh [--lock FILE] [--apt DIR] OUTDIR
#       OUTDIR/usr/bin/tpm2, OUTDIR/lib64/ld-linux-x86-64.so.2 (the
#       loader tpm2's PT_INTERP names), OUTDIR/lib/x86_64-linux-gnu/SONAME
#       for each other library, and OUTDIR/MANIFEST: "PATH SHA256 PACKAGE
#       VERSION" per file. Packages come through the private apt of
#       scripts/apt-private.sh under DIR (default OUTDIR.apt).
#   linux-userspace.sh --debs DIR [--lock FILE] OUTDIR
#       the same from DIR/SHA256.deb alone: no apt, no network, no cache
#       (make linux-repro-check).
#   linux-userspace.sh --latest [--apt DIR]
#       prints a lock for what the lock's suites carry now, to pin.
#
# Which files: `tpm2` and the TCTI, then, recursively, each library a
# DT_NEEDED entry of a file taken names (`readelf -d`), found by its soname
# in the loader's directories (lib/x86_64-linux-gnu, usr/lib/x86_64-linux-gnu)
# of the packages unpacked with `dpkg-deb -x`, symbolic links followed
# inside the package; and the loader (`readelf -l`'s PT_INTERP). Nothing
# else: no documentation, no other tool. A soname no pinned package holds,
# one two packages hold, and a pinned package none of whose files is
# taken all fail: the lock is exactly the closure.
#
# Each .deb is checked against the lock's SHA-256 and kept, named by it,
# in ${CSVSM_CACHE:-$HOME/.cache/csvsm}/userspace/debs/; the files taken in
# .../userspace/KEY/, KEY a hash of the lock's lines and this script. A
# warm run copies from there and reaches no network.
set -euo pipefail

# shellcheck source=scripts/apt-private.sh
. "$(dirname "$0")/apt-private.sh"
die() {
	echo "linux-userspace: $*" >&2
	exit 1
}

here=$(cd "$(dirname "$0")/.." && pwd)
lock=$here/test/linux/userspace.lock
apt_dir=""
debs=""
latest=0
while [ $# -gt 0 ]; do
	case $1 in
	--lock)
		lock=$2
		shift 2
		;;
	--apt)
		apt_dir=$2
		shift 2
		;;
	--debs)
		debs=$2
		shift 2
		;;
	--latest)
		latest=1
		shift
		;;
	-*) die "unknown option $1" ;;
	*) break ;;
	esac
done
usage="usage: linux-userspace.sh [--lock FILE] [--apt DIR | --debs DIR] OUTDIR | --latest [--apt DIR]"
if [ $latest -eq 1 ]; then
	[ $# -eq 0 ] || die "$usage"
	tmp_apt=""
	[ -n "$apt_dir" ] || { apt_dir=$(mktemp -d) && tmp_apt=$apt_dir; }
else
	[ $# -eq 1 ] || die "$usage"
	out=$1
	[ -n "$apt_dir" ] || apt_dir=$out.apt
fi
# shellcheck disable=SC2034 # apt-private.sh's
keyring=/usr/share/keyrings/debian-archive-keyring.gpg
cache=${CSVSM_CACHE:-$HOME/.cache/csvsm}/userspace
# What the guest runs: this binary and this TCTI, and what they load.
tool=usr/bin/tpm2
tcti_soname=libtss2-tcti-device.so.0
# The packages --latest starts from; their Depends are followed from there.
roots=(tpm2-tools libtss2-tcti-device0t64)
# Where Debian's loader looks for a soname (no ld.so.cache in the guest).
libdirs=(lib/x86_64-linux-gnu usr/lib/x86_64-linux-gnu)
triplet=x86_64-linux-gnu

for c in apt-get dpkg-deb readelf sha256sum; do
	command -v "$c" >/dev/null ||
		die "$c missing: scripts/setup.sh installs what the kit needs"
done

# --- the lock ------------------------------------------------------------
#   suites SUITE...                  the apt suites searched (main only)
#   ROLE PACKAGE VERSION SHA256      tools (tpm2-tools), tcti (the TCTI's
#                                    package) or lib (a library the two
#                                    load)
[ -r "$lock" ] || die "no lock file $lock"
suites=()
names=()
declare -A ver=() sha=() role=()
while read -r r a b c rest; do
	case $r in
	'' | '#'*) continue ;;
	suites) read -r -a suites <<<"$a $b $c $rest" ;;
	tools | tcti | lib)
		{ [ -n "$c" ] && [ -z "$rest" ]; } ||
			die "$lock: '$r $a' needs PACKAGE VERSION SHA256"
		[ -z "${ver[$a]:-}" ] || die "$lock: $a pinned twice"
		names+=("$a")
		ver[$a]=$b sha[$a]=$c role[$a]=$r
		;;
	*) die "$lock: unknown line '$r'" ;;
	esac
done <"$lock"
[ ${#suites[@]} -gt 0 ] || die "$lock: no suites line"

# --- the private apt -----------------------------------------------------
papt() { APT_CONFIG=$apt_dir/apt.conf "$@"; }
apt_setup() {
	apt_private_setup "$apt_dir" linux-userspace "${suites[@]}" ||
		die "apt-get update failed (network, mirror or signatures; see above)"
}

# --- the closure ---------------------------------------------------------
# resolve ROOT PATH: PATH (relative to ROOT) with its symbolic links
# followed inside ROOT, never into the host's filesystem.
resolve() {
	local root=$1 p=$2 t n=0
	while [ -L "$root/$p" ]; do
		t=$(readlink "$root/$p")
		case $t in
		/*) p=$t ;;
		*) p=$(dirname "/$p")/$t ;;
		esac
		p=$(realpath -ms "/$p")
		p=${p#/}
		n=$((n + 1))
		[ $n -lt 40 ] || die "$root/$2: a loop of symbolic links"
	done
	[ -f "$root/$p" ] || return 1
	echo "$p"
}

# closure WORK OUT: the files of the packages unpacked in WORK/PKG/ that
# the guest needs, into OUT, with OUT/MANIFEST; sets used[PKG] for each
# package a file came from.
declare -A used=()
closure() {
	local work=$1 dest=$2 p o d f file so interp="" owner lines=()
	local -A where=() done_so=()
	# soname -> "PKG PATH", from every package's loader directories.
	for p in "${names[@]}"; do
		for d in "${libdirs[@]}"; do
			[ -d "$work/$p/$d" ] || continue
			while IFS= read -r f; do
				so=${f##*/}
				[ -e "$work/$p/$f" ] || continue
				if [ -n "${where[$so]:-}" ] && [ "${where[$so]%% *}" != "$p" ]; then
					die "$so is in both ${where[$so]%% *} and $p: pin one"
				fi
				where[$so]="$p $f"
			done < <(cd "$work/$p" && find "$d" -maxdepth 1 -name '*.so*' \
				\( -type f -o -type l \) | LC_ALL=C sort)
		done
	done
	mkdir -p "$dest/usr/bin" "$dest/lib64" "$dest/lib/$triplet"
	# The queue: "PKG PATH-IN-PKG DEST-PATH" of the files taken.
	local queue=() item
	owner=""
	for p in "${names[@]}"; do
		[ -f "$work/$p/$tool" ] || [ -L "$work/$p/$tool" ] || continue
		[ -z "$owner" ] || die "$tool is in both $owner and $p"
		owner=$p
	done
	[ -n "$owner" ] || die "no pinned package holds /$tool"
	f=$(resolve "$work/$owner" "$tool") || die "$owner: /$tool is dangling"
	queue+=("$owner $f $tool")
	[ -n "${where[$tcti_soname]:-}" ] || die "no pinned package holds $tcti_soname"
	read -r p f <<<"${where[$tcti_soname]}"
	f=$(resolve "$work/$p" "$f") || die "$p: $tcti_soname is dangling"
	queue+=("$p $f lib/$triplet/$tcti_soname")
	done_so[$tcti_soname]=1
	while [ ${#queue[@]} -gt 0 ]; do
		item=${queue[0]}
		queue=("${queue[@]:1}")
		read -r p file d <<<"$item"
		install -m 0755 "$work/$p/$file" "$dest/$d"
		used[$p]=1
		lines+=("$d $(sha256sum <"$dest/$d" | cut -c1-64) $p ${ver[$p]}")
		# The loader: tpm2's PT_INTERP, in /lib64 as the ELF names it.
		if [ "$d" = "$tool" ]; then
			interp=$(readelf -lW "$work/$p/$file" |
				sed -n 's/.*Requesting program interpreter: \(.*\)]$/\1/p')
			case $interp in
			/lib64/*) ;;
			*) die "/$tool's interpreter is '$interp', not in /lib64" ;;
			esac
			so=${interp##*/}
			[ -n "${where[$so]:-}" ] || die "no pinned package holds the loader $so"
			read -r o f <<<"${where[$so]}"
			f=$(resolve "$work/$o" "$f") || die "$o: $so is dangling"
			queue+=("$o $f ${interp#/}")
			done_so[$so]=1
		fi
		for so in $(readelf -dW "$work/$p/$file" |
			sed -n 's/.*(NEEDED).*Shared library: \[\(.*\)\]$/\1/p'); do
			[ -z "${done_so[$so]:-}" ] || continue
			done_so[$so]=1
			[ -n "${where[$so]:-}" ] ||
				die "$so, which $p's /$file needs, is in no pinned package"
			read -r o f <<<"${where[$so]}"
			f=$(resolve "$work/$o" "$f") || die "$o: $so is dangling"
			queue+=("$o $f lib/$triplet/$so")
		done
	done
	printf '%s\n' "${lines[@]}" | LC_ALL=C sort >"$dest/MANIFEST"
}

unpack() { # DEB DIR
	mkdir -p "$2"
	dpkg-deb -x "$1" "$2" || die "dpkg-deb -x $1 failed"
}

# --- --latest: the lock for what the suites carry now --------------------
if [ $latest -eq 1 ]; then
	apt_setup
	work=$(mktemp -d)
	trap 'rm -rf "$work" "$tmp_apt"' EXIT
	# The roots' Depends and Pre-Depends, first alternatives, then theirs,
	# libraries only (Section: libs; tpm-udev and its udev are not loaded
	# by tpm2). One apt-cache call a level: each reads the lists again.
	names=() todo=("${roots[@]}")
	declare -A seen=() root=()
	for p in "${todo[@]}"; do
		seen[$p]=1 root[$p]=1
	done
	while [ ${#todo[@]} -gt 0 ]; do
		info=$(papt apt-cache show --no-all-versions "${todo[@]}" |
			awk '/^Package:/ { p = $2 } /^Version:/ { print p, "V", $2 }
				/^SHA256:/ { print p, "S", $2 } /^Section:/ { print p, "C", $2 }
				/^(Pre-)?Depends:/ { sub(/^[^:]*: /, "")
					n = split($0, a, /, /)
					for (i = 1; i <= n; i++) {
						split(a[i], b, / *\| */); x = b[1]
						sub(/ .*/, "", x); sub(/:any$/, "", x)
						print p, "D", x } }')
		todo=()
		mapfile -t shown < <(awk '$2 == "V" { print $1 }' <<<"$info" | LC_ALL=C sort -u)
		for p in "${shown[@]}"; do
			[ -n "${root[$p]:-}" ] || grep -qx "$p C libs" <<<"$info" || continue
			names+=("$p")
			ver[$p]=$(awk -v p="$p" '$1 == p && $2 == "V" { print $3; exit }' <<<"$info")
			sha[$p]=$(awk -v p="$p" '$1 == p && $2 == "S" { print $3; exit }' <<<"$info")
			role[$p]=lib
			mapfile -t deps < <(awk -v p="$p" '$1 == p && $2 == "D" { print $3 }' <<<"$info")
			for x in "${deps[@]}"; do
				[ -z "${seen[$x]:-}" ] || continue
				seen[$x]=1
				todo+=("$x")
			done
		done
	done
	for p in "${roots[@]}"; do
		[ -n "${ver[$p]:-}" ] || die "$p: not in ${suites[*]}"
	done
	role[tpm2-tools]=tools role[libtss2-tcti-device0t64]=tcti
	echo "linux-userspace: downloading ${#names[@]} packages to find the closure" >&2
	(cd "$work" && papt apt-get download -qq "${names[@]}") ||
		die "apt-get download failed"
	for p in "${names[@]}"; do
		unpack "$work/${p}_"*.deb "$work/$p"
	done
	closure "$work" "$work/out"
	echo "# The Linux guest's userspace (scripts/linux-userspace.sh; docs/linux.md,"
	echo "# \"The guest's userspace\"): tpm2-tools, its TCTI for /dev/tpmrm0 and"
	echo "# every library they load, the loader and libc included, for every"
	echo "# kernel's kit. Written by scripts/linux-userspace.sh --latest."
	echo "#   suites SUITE...              the apt suites searched (main only)"
	echo "#   ROLE PACKAGE VERSION SHA256  tools, tcti or lib: one .deb, its exact"
	echo "#                                version and the SHA-256 of the file"
	echo "suites ${suites[*]}"
	for r in tools tcti lib; do
		for p in $(printf '%s\n' "${names[@]}" | LC_ALL=C sort); do
			if [ "${role[$p]}" = "$r" ] && [ -n "${used[$p]:-}" ]; then
				echo "$r $p ${ver[$p]} ${sha[$p]}"
			fi
		done
	done
	exit 0
fi

# --- the packages --------------------------------------------------------
[ ${#names[@]} -gt 0 ] || die "$lock: no packages"
stamp="$(grep -vE '^(#|$)' "$lock")
recipe $(sha256sum <"$0" | cut -c1-64)"
key=$(sha256sum <<<"$stamp" | cut -c1-12)
tree=$cache/$key

# fetch DIR: the pinned .debs not yet in DIR, as DIR/SHA256.deb, checked.
fetch() {
	local dir=$1 p avail want=() f
	for p in "${names[@]}"; do
		[ -f "$dir/${sha[$p]}.deb" ] || want+=("$p")
	done
	[ ${#want[@]} -gt 0 ] || return 0
	apt_setup
	avail=$(papt apt-cache madison "${want[@]}" 2>/dev/null |
		awk -F'|' '{ gsub(/ /, "", $1); gsub(/ /, "", $2); print $1 "=" $2 }')
	for p in "${want[@]}"; do
		grep -qxF "$p=${ver[$p]}" <<<"$avail" ||
			die "$p ${ver[$p]} (pinned in $lock) is not in ${suites[*]} any" \
				"more (there: $(grep "^$p=" <<<"$avail" | cut -d= -f2 |
					tr '\n' ' ')). Pin what is: scripts/linux-userspace.sh" \
				"--latest > $lock"
	done
	local tmp pins=()
	for p in "${want[@]}"; do
		pins+=("$p=${ver[$p]}")
	done
	tmp=$(mktemp -d "$dir/.fetch.XXXXXX")
	echo "linux-userspace: downloading ${#want[@]} packages" >&2
	(cd "$tmp" && papt apt-get download -qq "${pins[@]}") ||
		{ rm -rf "$tmp"; die "apt-get download failed"; }
	for p in "${want[@]}"; do
		f=$(ls "$tmp/${p}"_*.deb)
		echo "${sha[$p]}  $f" | sha256sum --quiet -c - ||
			{ rm -rf "$tmp"; die "$f: SHA-256 differs from $lock"; }
		mv "$f" "$dir/${sha[$p]}.deb"
	done
	rm -rf "$tmp"
}

# build DEBDIR DEST: the closure from DEBDIR's .debs, each checked again.
build() {
	local debdir=$1 dest=$2 work p
	work=$(mktemp -d)
	for p in "${names[@]}"; do
		[ -f "$debdir/${sha[$p]}.deb" ] ||
			{ rm -rf "$work"; die "$debdir/${sha[$p]}.deb ($p) missing"; }
		echo "${sha[$p]}  $debdir/${sha[$p]}.deb" | sha256sum --quiet -c - ||
			{ rm -rf "$work"; die "$debdir/${sha[$p]}.deb: SHA-256 differs from $lock ($p)"; }
		unpack "$debdir/${sha[$p]}.deb" "$work/$p"
	done
	closure "$work" "$dest"
	rm -rf "$work"
	for p in "${names[@]}"; do
		[ -n "${used[$p]:-}" ] ||
			die "$p (pinned in $lock) holds no file the guest loads: drop it"
	done
}

if [ -n "$debs" ]; then
	rm -rf "$out"
	build "$debs" "$out"
else
	if ! { [ -f "$tree/stamp" ] && [ "$(cat "$tree/stamp")" = "$stamp" ]; }; then
		mkdir -p "$cache/debs"
		fetch "$cache/debs"
		tmp=$(mktemp -d "$cache/.tree.XXXXXX")
		trap 'rm -rf "$tmp"' EXIT
		build "$cache/debs" "$tmp/tree"
		echo "$stamp" >"$tmp/tree/stamp"
		rm -rf "$tree"
		mv "$tmp/tree" "$tree"
	fi
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$tree/." "$out/"
	rm -f "$out/stamp"
fi
echo "linux-userspace: $out: $(wc -l <"$out/MANIFEST") files," \
	"$(du -sk --exclude=MANIFEST "$out" | cut -f1) KiB," \
	"from $(cut -d' ' -f3 "$out/MANIFEST" | sort -u | wc -l) packages" >&2

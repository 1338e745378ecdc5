# shellcheck shell=bash
# The private apt that fetches Debian packages for the build without
# touching the host's apt (scripts/linux-fetch.sh, scripts/ovmf-fetch.sh):
# its own sources.list, lists, cache and state under DIR, the Release
# files checked against Debian 12's debian-archive-keyring (which holds
# trixie's and later keys), nothing installed. The mirror is the one the
# host's apt uses for its own release (CSVSM_DEBIAN_MIRROR overrides it).
# Sourced; the caller defines die() and sets $keyring.
# shellcheck disable=SC2154 # $keyring is the caller's

# The host's Debian mirror.
apt_private_mirror() {
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

# apt_private_setup DIR WHO SUITES... [-- SUITE...]: DIR/apt.conf for
# the suites' main components, then apt-get update; the suites after --
# have their Release files' Valid-Until ignored (testing's and
# unstable's outlive it in the archive we reach), their signatures still
# checked. WHO names the caller in what is printed and in the file.
apt_private_setup() {
	local dir=$1 who=$2 m s opt novu=" "
	shift 2
	local suites=()
	while [ $# -gt 0 ] && [ "$1" != -- ]; do
		suites+=("$1")
		shift
	done
	[ $# -eq 0 ] || { shift; novu=" $* "; }
	[ -r "$keyring" ] || die "$keyring missing (package debian-archive-keyring)"
	m=$(apt_private_mirror)
	mkdir -p "$dir"/{etc/parts,etc/prefs,lists/partial,cache/archives/partial}
	: >"$dir/status"
	: >"$dir/etc/sources.list"
	for s in "${suites[@]}"; do
		opt=""
		[[ $novu != *" $s "* ]] || opt=" check-valid-until=no"
		echo "deb [signed-by=$keyring$opt] $m $s main" >>"$dir/etc/sources.list"
	done
	cat >"$dir/apt.conf" <<-EOF
		// Written by scripts/$who.sh: only this file configures apt.
		Dir::Etc::Parts "$dir/etc/parts";
		Dir::Etc::Main "$dir/apt.conf";
		Dir::Etc::SourceList "$dir/etc/sources.list";
		Dir::Etc::SourceParts "$dir/etc/parts";
		Dir::Etc::Preferences "$dir/etc/preferences";
		Dir::Etc::PreferencesParts "$dir/etc/prefs";
		Dir::Etc::Trusted "$dir/etc/trusted.gpg";
		Dir::Etc::TrustedParts "$dir/etc/parts";
		Dir::State "$dir";
		Dir::State::Lists "$dir/lists";
		Dir::State::status "$dir/status";
		Dir::Cache "$dir/cache";
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
		echo 'APT::Sandbox::User "root";' >>"$dir/apt.conf"
	fi
	echo "$who: apt-get update (${suites[*]} from $m)" >&2
	APT_CONFIG=$dir/apt.conf apt-get update -qq
}

#!/bin/sh
# Records in the build log which Debian archives went into the firmware:
# package, version and sha256 of each. Debian security updates replace
# them (and superseded versions leave the archive), so a build is only
# reproducible from this record; `make check` re-runs every conformance
# test on whatever version is installed.
set -eu
for a in "$@"; do
	pkg=$(dpkg-query -S "$a" 2>/dev/null | head -n1 | cut -d: -f1)
	ver=$(dpkg-query -W -f='${Version}' "$pkg" 2>/dev/null || echo unknown)
	sum=$(sha256sum "$a" | cut -d' ' -f1)
	echo "  LINKED  $(basename "$a") from ${pkg:-?} $ver sha256 $sum"
done

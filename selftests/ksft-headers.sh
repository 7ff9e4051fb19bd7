#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kselftest harness (kselftest_harness.h, kselftest.h) from
# Debian's linux-source-6.12 package into build/ksft/include/.
#
# Usage: selftests/ksft-headers.sh [OUTDIR]      (default: <repo>/build/ksft)
# Result: OUTDIR/include/kselftest_harness.h, OUTDIR/include/kselftest.h
#
# Idempotent: does nothing when both headers are already there.  The
# package is downloaded (not installed) and removed after extraction.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$top/build/ksft}
inc=$out/include
pkg=linux-source-6.12

if [[ -s $inc/kselftest_harness.h && -s $inc/kselftest.h ]]; then
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
candidate() { apt-cache policy "$pkg" 2>/dev/null | awk '/Candidate:/ {print $2}'; }
ver=$(candidate)
if [[ -z $ver || $ver == "(none)" ]]; then
	apt-get update -qq
	ver=$(candidate)
fi
[[ -n $ver && $ver != "(none)" ]] || { echo "ksft-headers: no $pkg in apt" >&2; exit 1; }

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ksft.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "  KSFT    $pkg $ver -> $inc"
(cd "$tmp" && apt-get download -q -o APT::Sandbox::User=root "$pkg=$ver" >/dev/null)
deb=$(ls "$tmp"/*.deb)
# The package holds one tarball, /usr/src/linux-source-6.12.tar.xz; stream it
# out of the .deb and pick just the two headers.
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ -C "$tmp" --wildcards --strip-components=4 \
		'*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h'
mkdir -p "$inc"
install -m 0644 "$tmp/kselftest_harness.h" "$tmp/kselftest.h" "$inc/"
echo "$pkg $ver" > "$inc/VERSION"

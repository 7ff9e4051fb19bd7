#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kselftest harness (kselftest_harness.h, kselftest.h) from
# Debian's linux-source package into build/ksft/include/.
#
# Usage: selftests/ksft-headers.sh [OUTDIR]      (default: <repo>/build/ksft)
# Result: OUTDIR/include/kselftest_harness.h, OUTDIR/include/kselftest.h
#
# Idempotent: does nothing when both headers are already there.  The
# package (selftests/vm/kernels source-deb) is downloaded once, not
# installed, and kept in build/dl/.
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$top/build/ksft}
inc=$out/include

if [[ -s $inc/kselftest_harness.h && -s $inc/kselftest.h ]]; then
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
# selftests/vm/kernels resolves the package version and keeps the .deb in
# build/dl/ (the debug kernel is built from the same package).
deb=$("$top/selftests/vm/kernels" source-deb)
pkgver=$(dpkg-deb -f "$deb" Package Version | awk '{print $2}' | paste -sd' ')

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ksft.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "  KSFT    $pkgver -> $inc"
# The package holds one tarball, /usr/src/linux-source-6.12.tar.xz; stream it
# out of the .deb and pick just the two headers.
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ -C "$tmp" --wildcards --strip-components=4 \
		'*/tools/testing/selftests/kselftest_harness.h' \
		'*/tools/testing/selftests/kselftest.h'
mkdir -p "$inc"
install -m 0644 "$tmp/kselftest_harness.h" "$tmp/kselftest.h" "$inc/"
echo "$pkgver" > "$inc/VERSION"

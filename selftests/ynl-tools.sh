#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# Extract the kernel's own ynl (tools/net/ynl: cli.py, ynl-gen-c.py and
# their lib/) and the netlink spec schemas (Documentation/netlink/*.yaml)
# from Debian's linux-source package into build/ynl/, laid out as in the
# kernel tree: a spec copied into build/ynl/Documentation/netlink/specs/
# is checked by ynl against the kernel's schema, as an in-tree one is.
#
# Usage: selftests/ynl-tools.sh [OUTDIR]         (default: <repo>/build/ynl)
#
# Idempotent: does nothing when cli.py, ynl-gen-c.py and the schemas are
# there.  The package is the one selftests/ksft-headers.sh uses (downloaded
# once into build/dl/, never installed).
set -euo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=${1:-$top/build/ynl}

if [[ -s $out/tools/net/ynl/cli.py && -s $out/tools/net/ynl/ynl-gen-c.py &&
      -s $out/Documentation/netlink/genetlink-legacy.yaml ]]; then
	exit 0
fi

export DEBIAN_FRONTEND=noninteractive
deb=$("$top/selftests/vm/kernels" source-deb)
pkgver=$(dpkg-deb -f "$deb" Package Version | awk '{print $2}' | paste -sd' ')

tmp=$(mktemp -d "${TMPDIR:-/tmp}/ynl.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
echo "  YNL     $pkgver -> $out"
dpkg-deb --fsys-tarfile "$deb" |
	tar -xO --wildcards './usr/src/linux-source-*.tar.xz' |
	tar -xJ -C "$tmp" --strip-components=1 --wildcards \
		'*/tools/net/ynl/cli.py' '*/tools/net/ynl/ynl-gen-c.py' '*/tools/net/ynl/lib/*.py' \
		'*/Documentation/netlink/*.yaml'
rm -rf "$out"
mkdir -p "$out/Documentation/netlink/specs"
cp -a "$tmp/tools" "$out/"
cp -a "$tmp"/Documentation/netlink/*.yaml "$out/Documentation/netlink/"
echo "$pkgver" > "$out/VERSION"

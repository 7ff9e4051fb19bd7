#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The Debian packages, built and checked: the tracked tree copied to
# build/deb/txnet-<version>/, `dpkg-buildpackage -b -us -uc` there (the
# .debs land in build/deb/), lintian on the result (any error, warning or
# pedantic tag fails), and txctl's package installed with `dpkg --root`
# into a throwaway root, where its files must be and the tool must run.
#
# Usage: selftests/deb-check.sh                  KTAP; exit 0 iff all passed
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
out=$top/build/deb
ver=$(dpkg-parsechangelog -l "$top/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)

echo "TAP version 13"
echo "1..3"
n=0 pass=0 fail=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; }
finish() {
	echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
	[[ $fail == 0 ]]
	exit $?
}

rm -rf "$out"
src=$out/txnet-$ver
mkdir -p "$src"
# what git tracks, not build products
(cd "$top" && git ls-files -z | xargs -0 cp --parents -t "$src")
if (cd "$src" && dpkg-buildpackage -b -us -uc) > "$out/build.log" 2>&1 &&
   [[ -f $out/txctl_${ver}_$arch.deb && -f $out/txnet-dkms_${ver}_all.deb ]]; then
	ok "dpkg_buildpackage"
else
	sed 's/^/# /' "$out/build.log" | tail -30
	notok "dpkg_buildpackage"
	notok "lintian # nothing built"
	notok "txctl_installs # nothing built"
	finish
fi

lintian --pedantic --tag-display-limit 0 "$out/txnet_${ver}_$arch.changes" > "$out/lintian.log" 2>&1
if grep -Eq '^[EWP]: ' "$out/lintian.log"; then
	sed 's/^/# /' "$out/lintian.log"
	notok "lintian"
else
	ok "lintian"
fi

root=$out/root
mkdir -p "$root/var/lib/dpkg/info" "$root/var/lib/dpkg/updates"
: > "$root/var/lib/dpkg/status"
bad=
dpkg --root="$root" --force-not-root --force-depends --force-script-chrootless \
	-i "$out/txctl_${ver}_$arch.deb" > "$out/install.log" 2>&1 || bad="dpkg -i failed"
# each output read whole before it is searched: grep -q stops reading at its
# match, and under pipefail the writer's SIGPIPE would fail the pipeline
listed=$(dpkg --root="$root" -L txctl 2>/dev/null)
for f in /usr/sbin/txctl /usr/share/man/man8/txctl.8.gz \
	 /usr/share/bash-completion/completions/txctl /usr/share/doc/txctl/copyright; do
	grep -qx "$f" <<< "$listed" || bad="$bad [not listed: $f]"
	[[ -e $root$f ]] || bad="$bad [not installed: $f]"
done
help=$("$root/usr/sbin/txctl" help 2>&1)
grep -q '^Usage: txctl' <<< "$help" || bad="$bad [txctl help]"
if [[ -z $bad ]]; then
	ok "txctl_installs"
else
	echo "# $bad"
	notok "txctl_installs"
fi
finish

#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The DKMS recipe, exercised: the repo's dkms.conf with the module's
# sources (what a txnet-dkms package would put in /usr/src/txnet-0.1) is
# added and built by Debian's dkms against each kernel's headers, in a
# tree of its own under build/dkms/ (--dkmstree, --sourcetree, and the
# signing key there too: the host's /var/lib/dkms is not touched); then the module DKMS built for the first
# kernel is loaded in the VM and runs an exchange.
#
# Usage: selftests/dkms-check.sh KVER...     (6.1, 6.12; debug is skipped:
#                                             its kernel is built here)
# KTAP: one test per kernel, and one for the load.
set -uo pipefail

top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
kernels=$top/selftests/vm/kernels
out=$top/build/dkms
name=txnet
ver=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$top/dkms.conf")

kvers=()
for k; do [[ $k == debug ]] || kvers+=("$k"); done
echo "TAP version 13"
echo "1..$((${#kvers[@]} + 1))"
n=0 pass=0 fail=0
ok() { n=$((n + 1)); pass=$((pass + 1)); echo "ok $n $1"; }
notok() { n=$((n + 1)); fail=$((fail + 1)); echo "not ok $n $1"; }

command -v dkms > /dev/null || {
	apt-get install -y -q --no-install-recommends dkms > /dev/null 2>&1 ||
		{ apt-get update -qq && apt-get install -y -q --no-install-recommends dkms > /dev/null; }
}

rm -rf "$out"
src=$out/src/$name-$ver
mkdir -p "$src" "$out/tree"
cp -a "$top/dkms.conf" "$top/Kbuild" "$top/kmod" "$top/include" "$src/"
# the key dkms signs with, which it makes when there is none: ours, not /var/lib/dkms/'s
export mok_signing_key=$out/mok.key mok_certificate=$out/mok.pub
dkms=(dkms --dkmstree "$out/tree" --sourcetree "$out/src" -m "$name" -v "$ver")
"${dkms[@]}" add > "$out/add.log" 2>&1 || { cat "$out/add.log"; }

first=
for k in "${kvers[@]}"; do
	hdr=$("$kernels" headers "$k") || { notok "dkms_build_$k # no headers"; continue; }
	rel=$(cat "$top/build/kernels/$k/release" 2>/dev/null) ||
		{ notok "dkms_build_$k # no kernel (selftests/vm/kernels fetch $k)"; continue; }
	log=$out/build-$k.log
	if "${dkms[@]}" build -k "$rel" --kernelsourcedir "$hdr" > "$log" 2>&1 &&
	   ko=$(find "$out/tree/$name/$ver/$rel" -name "$name.ko*" | head -1) && [[ -n $ko ]]; then
		ok "dkms_build_$k"
		[[ -n $first ]] || first="$k:$ko"
	else
		sed 's/^/# /' "$log" | tail -40
		notok "dkms_build_$k"
	fi
done

# The module DKMS built, loaded and run once.
if [[ -n $first ]]; then
	k=${first%%:*}
	if "$top/selftests/vm/run" -q --kernel "$k" --module "${first#*:}" -- \
		'txctl create ring 8 name dk0 && txctl run dk0 total-exchange' > "$out/vm.log" 2>&1; then
		ok "dkms_module_runs_$k"
	else
		sed 's/^/# /' "$out/vm.log" | tail -40
		notok "dkms_module_runs_$k"
	fi
else
	notok "dkms_module_runs # nothing built"
fi
echo "# Totals: pass:$pass fail:$fail xfail:0 xpass:0 skip:0 error:0"
[[ $fail == 0 ]]

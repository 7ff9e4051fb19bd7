#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
#
# The ynl spec, Documentation/netlink/specs/txnet.yaml, and the uAPI header,
# include/uapi/linux/txnet.h, describe the same ABI twice: this keeps them
# from drifting apart.  The kernel's ynl-gen-c validates the spec against
# its schema and generates a uAPI header from it; then every enumerator and
# every #define with a value (numbers and strings) of each header, printed
# by a C program built against that header, must have the same value in
# the other, both ways.
#
# Usage: selftests/ynl/spec_check.sh YNL_ROOT REPO_ROOT
#   YNL_ROOT holds tools/net/ynl and Documentation/netlink, as the kernel
#   tree does (selftests/ynl-tools.sh); the spec is copied into it.
set -euo pipefail

usage="usage: $0 YNL_ROOT REPO_ROOT"
ynl=$(cd "${1:?$usage}" && pwd)
top=$(cd "${2:?$usage}" && pwd)
# Debian's python3, where python3-yaml and python3-jsonschema install (not one
# a version manager may have put first on PATH)
python=${PYTHON:-/usr/bin/python3}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/spec_check.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

mkdir -p "$ynl/Documentation/netlink/specs"
cp "$top/Documentation/netlink/specs/txnet.yaml" "$ynl/Documentation/netlink/specs/"
# ynl-gen-c walks up from the spec to the kernel tree's MAINTAINERS and
# never stops when there is none.
[[ -e $ynl/MAINTAINERS ]] || : > "$ynl/MAINTAINERS"
(cd "$ynl" && "$python" tools/net/ynl/ynl-gen-c.py --mode uapi --header \
	--spec Documentation/netlink/specs/txnet.yaml -o "$tmp/gen.h")

# The names a header defines: enumerators, and #defines with a value.
names() {
	"$python" - "$1" <<'EOF'
import re, sys
src = re.sub(r'/\*.*?\*/', ' ', open(sys.argv[1]).read(), flags=re.S)
for body in re.findall(r'\benum\b[^{;]*\{(.*?)\}', src, flags=re.S):
	for item in body.split(','):
		if item.strip():
			print(item.split('=')[0].strip())
for name in re.findall(r'^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+\S', src, flags=re.M):
	print(name)
EOF
}

# "NAME VALUE" for every name of header $1, sorted, as C sees them.
values() {
	{
		cat <<'EOF'
#include <stdio.h>
static void pn(const char *n, long long v) { printf("%s %lld\n", n, v); }
static void ps(const char *n, const char *v) { printf("%s \"%s\"\n", n, v); }
#define P(x) _Generic((x), char *: ps, const char *: ps, default: pn)(#x, x)
int main(void)
{
EOF
		names "$1" | sed 's/.*/\tP(&);/'
		printf '\treturn 0;\n}\n'
	} > "$2.c"
	gcc -std=gnu11 -Wall -Werror -include "$1" -o "$2" "$2.c"
	"$2" | LC_ALL=C sort
}

values "$top/include/uapi/linux/txnet.h" "$tmp/uapi" > "$tmp/uapi.txt"
values "$tmp/gen.h" "$tmp/gen" > "$tmp/gen.txt"

if ! diff -u --label include/uapi/linux/txnet.h --label "generated from txnet.yaml" \
	"$tmp/uapi.txt" "$tmp/gen.txt"; then
	echo "spec_check: the spec and include/uapi/linux/txnet.h disagree (- header, + spec)" >&2
	echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
	exit 1
fi
echo "spec_check: $(wc -l < "$tmp/uapi.txt") names agree"
# one check, counted by selftests/vm/summarize as make check's others are
echo "# Totals: pass:1 fail:0 xfail:0 xpass:0 skip:0 error:0"

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run every txnet selftest in this directory, in a fixed order, streaming
# their KTAP nested under one top-level KTAP document, as the in-tree
# kselftest runner does (each program's lines prefixed with "# ", one
# "ok N selftests: txnet: PROGRAM" line each).  POSIX/busybox sh.  A program that exits non-zero without
# having printed a failing "# Totals:" line of its own (a crash, a timeout,
# a harness abort) gets one such line here, so that a host summing the
# "# Totals:" lines counts it.  Exit status: 0 iff everything passed.
#
# txnet_stress unloads and reloads the module under load (and leaves it
# loaded); txnet_nlfuzz (its message count and seed from
# $TXNET_NLFUZZ_COUNT and $TXNET_NLFUZZ_SEED when set) reloads the module
# at its end; txnet_unload and txnet_module go last: they unload and
# reload it.

dir=$(cd "$(dirname "$0")" && pwd)
tests="txnet_topology txnet_errors txnet_lifecycle txnet_sysfs txnet_txctl.sh txnet_exchange
	txnet_ports txnet_collective txnet_scale.sh txnet_trace.sh txnet_fabric.sh txnet_ynl.py
	txnet_failslab txnet_race
	txnet_stress txnet_nlfuzz
	txnet_unload txnet_module"
# settings: timeout=<seconds> per program (kselftest convention)
timeout=$(sed -n 's/^timeout=//p' "$dir/settings" 2>/dev/null)
timeout=${timeout:-600}

failed=0
n=0
echo "TAP version 13"
echo "1..$(echo $tests | wc -w)"
for t in $tests; do
	n=$((n + 1))
	if [ ! -x "$dir/$t" ]; then
		echo "# $t: missing"
		echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		echo "not ok $n selftests: txnet: $t # missing"
		failed=1
		continue
	fi
	echo "# selftests: txnet: $t"
	log=/tmp/txnet-selftest.$$.log
	# A pipe would hide the status: the status goes to a file, a copy of
	# the output to $log, and the stream, indented, to stdout.
	( cd "$dir" && timeout "$timeout" "./$t"; echo "$?" > "$log.rc" ) 2>&1 |
		tee "$log" | while IFS= read -r line; do echo "# $line"; done
	rc=$(cat "$log.rc" 2>/dev/null || echo 255)
	if [ "$rc" -ne 0 ]; then
		failed=1
		# Did the program report its failure itself?
		if ! grep -Eq '^# Totals: pass:[0-9]+ fail:[1-9]' "$log" &&
		   ! grep -Eq '^# Totals: .* error:[1-9]' "$log"; then
			echo "# $t: exited with status $rc without a failing Totals line"
			echo "# Totals: pass:0 fail:1 xfail:0 xpass:0 skip:0 error:0"
		fi
		echo "not ok $n selftests: txnet: $t # exit=$rc"
	else
		echo "ok $n selftests: txnet: $t"
	fi
	rm -f "$log" "$log.rc"
done
exit $failed

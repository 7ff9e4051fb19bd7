#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# txnet_trace.sh: the tracepoints txnet:txnet_tick and txnet:txnet_run_done
# as a perf or trace-cmd user sees them through tracefs: one txnet_tick
# event per tick the engine counted, one txnet_run_done per finished run,
# agreeing with the result; then a run recorded with trace-cmd itself, as
# the README shows it.  POSIX/busybox sh, KTAP output by hand.

TXCTL=${TXCTL:-txctl}
T=/sys/kernel/tracing
N=0 PASS=0 FAIL=0 SKIP=0

echo "TAP version 13"
echo "1..4"
ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N $1"; }
fail() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "# $2"; echo "not ok $N $1"; }
skip() { N=$((N + 1)); SKIP=$((SKIP + 1)); echo "ok $N $1 # SKIP $2"; }

[ -d "$T/events" ] || mount -t tracefs none "$T" 2>/dev/null

if [ -d "$T/events/txnet/txnet_tick" ] && [ -d "$T/events/txnet/txnet_run_done" ]; then
	ok "tracepoints are registered"
else
	fail "tracepoints are registered" "no $T/events/txnet/{txnet_tick,txnet_run_done}"
fi

"$TXCTL" create ring 10 name trace0 > /dev/null
echo 0 > "$T/tracing_on"
echo > "$T/trace"
echo 1 > "$T/events/txnet/enable"
echo 1 > "$T/tracing_on"
"$TXCTL" run trace0 total-exchange > /dev/null
echo 0 > "$T/tracing_on"
echo 0 > "$T/events/txnet/enable"
steps=$(cat /sys/kernel/txnet/trace0/last/steps)

# The engine's own count, read back through sysfs, against the events.
ticks=$(grep -c 'txnet_tick: net=trace0 ' "$T/trace")
if [ -n "$steps" ] && [ "$ticks" = "$steps" ]; then
	ok "one txnet_tick event per tick"
else
	fail "one txnet_tick event per tick" "$ticks tick events, last/steps '$steps'"
fi

done_line=$(grep 'txnet_run_done: net=trace0 ' "$T/trace")
case "$done_line" in
*" run=1 status=1 "*"ticks=$steps "*"verified=1"*)
	ok "txnet_run_done carries the result" ;;
*)
	fail "txnet_run_done carries the result" "got '$done_line'" ;;
esac

"$TXCTL" destroy trace0

# trace-cmd record around txctl run, then trace-cmd report: as many
# txnet_tick events of this network as the result's steps, and its
# txnet_run_done.  A ring of 12 under message-shift takes
# ceil((12^2-1)/8) = 18 ticks ([Dimakopoulos94], Theorem 3).
if command -v trace-cmd > /dev/null 2>&1; then
	dat=/tmp/txnet_trace.$$.dat
	"$TXCTL" create ring 12 name trace1 > /dev/null
	trace-cmd record -q -o "$dat" -e txnet:txnet_tick -e txnet:txnet_run_done \
		"$TXCTL" run trace1 total-exchange algo message-shift > /dev/null 2>&1
	rc=$?
	steps=$(cat /sys/kernel/txnet/trace1/last/steps)
	ticks=$(trace-cmd report -i "$dat" 2>/dev/null | grep -c 'txnet_tick: *net=trace1 ')
	runs=$(trace-cmd report -i "$dat" 2>/dev/null | grep -c "txnet_run_done: *net=trace1 run=1 status=1 .*ticks=18 ")
	if [ "$rc" = 0 ] && [ "$steps" = 18 ] && [ "$ticks" = 18 ] && [ "$runs" = 1 ]; then
		ok "trace-cmd records a run"
	else
		fail "trace-cmd records a run" "record exit $rc, steps '$steps', $ticks tick events, $runs run_done"
	fi
	rm -f "$dat"
	"$TXCTL" destroy trace1
else
	skip "trace-cmd records a run" "no trace-cmd in this guest"
fi
echo "# Totals: pass:$PASS fail:$FAIL xfail:0 xpass:0 skip:$SKIP error:0"
[ "$FAIL" = 0 ]

#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# txnet_txctl.sh: txctl, the command-line client, against the module:
# output format (text and JSON, see txctl.8), exit statuses (0 ok, 1 usage,
# 2 kernel), Error: messages, the kernel's extack messages passed through.
# POSIX/busybox sh, KTAP output by hand.

dir=$(cd "$(dirname "$0")" && pwd)
JSON=$dir/json_check
TXCTL=${TXCTL:-txctl}
SYS=/sys/kernel/txnet
KEYS="id name topology nodes switches links diameter port_model tick_ns state ticks mem_bytes"

N=0 PASS=0 FAIL=0 SKIP=0
out=/tmp/txctl.$$.out err=/tmp/txctl.$$.err

echo "TAP version 13"
echo "1..42"

ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N $1"; }
fail() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N $1"; }
skip() { N=$((N + 1)); SKIP=$((SKIP + 1)); echo "ok $N $1 # SKIP $2"; }
diag() { echo "# $*"; }
# result NAME: ok if $bad is empty, else not ok with $bad as diagnostics
result() {
	if [ -z "$bad" ]; then ok "$1"; else diag "$1: $bad"; fail "$1"; fi
	bad=
}
# run ARGS...: txctl ARGS, stdout in $out, stderr in $err, status in $rc
run() { "$TXCTL" "$@" > "$out" 2> "$err"; rc=$?; }
expect_rc() { # WANT what
	[ "$rc" = "$1" ] || bad="$bad [$2: exit $rc, want $1; stderr: $(head -c 300 "$err")]"
}
expect_out() { # GREP-PATTERN what
	grep -q -- "$1" "$out" || bad="$bad [$2: stdout lacks '$1': $(head -c 300 "$out")]"
}
expect_err() { # GREP-PATTERN what
	grep -q -- "$1" "$err" || bad="$bad [$2: stderr lacks '$1': $(head -c 300 "$err")]"
}
clean() {
	for d in "$SYS"/*; do
		[ -d "$d" ] && "$TXCTL" destroy "$(basename "$d")" > /dev/null 2>&1
	done
}
count() { ls "$SYS" 2>/dev/null | wc -l; }
# wait_for CMD...: run CMD every 0.1 s until it succeeds, at most 600 times
# (a watchdog, not a timing assumption: nothing here waits on the host's
# speed, only on the event itself).  Status 1 if it never did.
wait_for() {
	i=0
	while ! "$@"; do
		i=$((i + 1))
		[ $i -ge 600 ] && return 1
		sleep 0.1
	done
	return 0
}
# runs_verified NET: four operations run on NET, verified, never under their lower bound
runs_verified() {
	for op in total-exchange broadcast data-sum multinode-broadcast; do
		run -j run "$1" "$op"
		expect_rc 0 "run $1 $op"
		[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [$1 $op not verified]"
		steps=$("$JSON" -g steps < "$out")
		lower=$("$JSON" -g lower_bound < "$out")
		[ "$steps" -ge "$lower" ] 2>/dev/null || bad="$bad [$1 $op steps $steps below $lower]"
	done
}
# mon_saw PATTERN: the monitor's output has a line matching PATTERN
mon_saw() { grep -q -- "$1" "$mon"; }
# the monitor is subscribed once it reports a probe network being created
mon_ready() {
	"$TXCTL" create ring 3 name probe > /dev/null 2>&1
	"$TXCTL" destroy probe > /dev/null 2>&1
	mon_saw probe
}
# state_is NET STATE: sysfs says the network's state is STATE
state_is() { [ "$(cat "$SYS/$1/state" 2>/dev/null)" = "$2" ]; }
# unread_is NET N: sysfs ports_unread of NET is N
unread_is() { [ "$(cat "$SYS/$1/ports_unread" 2>/dev/null)" = "$2" ]; }

finish() {
	clean
	rm -f "$out" "$err" /tmp/txctl.$$.mon
	echo "# Totals: pass:$PASS fail:$FAIL xfail:0 xpass:0 skip:$SKIP error:0"
	[ "$FAIL" = 0 ]
	exit $?
}

if ! command -v "$TXCTL" > /dev/null 2>&1; then
	i=0
	while [ $i -lt 25 ]; do skip "txctl" "txctl not on PATH"; i=$((i + 1)); done
	finish
fi
clean
bad=

# 1
run create torus 8 8
expect_rc 0 "create torus 8 8"
line=$(cat "$out")
# total distance 64 (8 16 + 8 16) = 16384 by [Dimakopoulos98] Theorem 1 (a ring of 8 has
# status 16): average 16384/(64 63) = 4.063, as-bound 16384/64 = 256; cut bound:
# a bisection along one dimension cuts each of its 8 rings twice, (32 32)/16 = 64
want="txnet0: torus 8 8 nodes 64 links 256 diameter 8 avg-distance 4.063 as-bound 256 cut-bound 64 port all tick-ns 0 state idle ticks 0 mem-bytes "
case $line in
"$want"[0-9]*) ;;
*) bad="$bad [got '$line', want '${want}M']" ;;
esac
[ -d "$SYS/txnet0" ] || bad="$bad [no $SYS/txnet0]"
result "create_prints_txnet0"

# 2
run show txnet0
expect_rc 0 "show txnet0"
[ "$(cat "$out")" = "$line" ] || bad="$bad [show: '$(cat "$out")' != create: '$line']"
result "show_matches_create"

# 3
run -j show
expect_rc 0 "-j show"
args=
for k in $KEYS; do args="$args -k $k"; done
# shellcheck disable=SC2086
"$JSON" $args < "$out" || bad="$bad [-j show: invalid JSON or keys missing: $(head -c 400 "$out")]"
head -c 1 "$out" | grep -q '\[' || bad="$bad [-j show is not an array]"
[ "$("$JSON" -g topology < "$out")" = "torus 8 8" ] || bad="$bad [topology]"
[ "$("$JSON" -g nodes < "$out")" = "64" ] || bad="$bad [nodes]"
[ "$("$JSON" -g links < "$out")" = "256" ] || bad="$bad [links]"
[ "$("$JSON" -g port_model < "$out")" = "all" ] || bad="$bad [port_model]"
[ "$("$JSON" -g mem_bytes < "$out")" = "$(cat $SYS/txnet0/mem_bytes)" ] || bad="$bad [mem_bytes vs sysfs]"
[ "$("$JSON" -g id < "$out")" = "$(cat $SYS/txnet0/id)" ] || bad="$bad [id vs sysfs]"
result "json_show_all"

# 4
run -j show txnet0
expect_rc 0 "-j show txnet0"
# shellcheck disable=SC2086
"$JSON" $args < "$out" || bad="$bad [invalid JSON: $(head -c 400 "$out")]"
head -c 1 "$out" | grep -q '{' || bad="$bad [-j show NET is not an object]"
run -p show
expect_rc 0 "-p show"
"$JSON" < "$out" || bad="$bad [-p show: invalid JSON]"
[ "$(wc -l < "$out")" -gt 3 ] || bad="$bad [-p is not indented]"
result "json_show_one_and_pretty"

# 4b: the per-link counters of a network no traffic has used: 256 links,
# none carried anything, none down; all lists every one
run show txnet0 links
expect_rc 0 "show txnet0 links"
[ "$(cat "$out")" = "txnet0: 256 links, 0 carried traffic, 0 down" ] || bad="$bad [links: '$(cat "$out")']"
run show txnet0 links all
[ "$(grep -c "^  [0-9]*-[0-9]* hops 0$" "$out")" = 256 ] || bad="$bad [links all: $(head -n 3 "$out")]"
run -j show txnet0 links
"$JSON" -k name -k links -k carrying -k links_down -k link < "$out" || bad="$bad [links JSON: $(head -c 300 "$out")]"
[ "$("$JSON" -g links < "$out")" = 256 ] || bad="$bad [links JSON count]"
run show txnet0 links some
expect_rc 1 "show NET links some"
expect_err 'unknown keyword "some"' "show NET links some"
run show nosuch links
expect_rc 2 "show nosuch links"
result "show_links"

# 5
run -j create product ring:5 linear:3 complete:4 name prod port single
expect_rc 0 "-j create product"
# shellcheck disable=SC2086
"$JSON" $args < "$out" || bad="$bad [invalid JSON: $(head -c 400 "$out")]"
[ "$("$JSON" -g topology < "$out")" = "product ring:5 linear:3 complete:4" ] || bad="$bad [topology]"
[ "$("$JSON" -g name < "$out")" = "prod" ] || bad="$bad [name]"
[ "$("$JSON" -g port_model < "$out")" = "single" ] || bad="$bad [port]"
[ "$("$JSON" -g links < "$out")" = "380" ] || bad="$bad [links]"
result "json_create_product"

# 6
run create butterfly 8 tick-ns 1000000
expect_rc 0 "create butterfly 8"
expect_out "^txnet1: butterfly 8 nodes 8 switches 8 links 32 diameter 3 port all tick-ns 1000000 " "butterfly line"
run create biswapped hypercube 3
expect_rc 0 "create biswapped hypercube 3"
expect_out "^txnet2: biswapped hypercube 3 nodes 128 " "biswapped line"
result "create_min_and_biswapped"

# 7
run set txnet0 port single
expect_rc 0 "set port single"
[ -s "$out" ] && bad="$bad [set printed: $(cat "$out")]"
[ "$(cat $SYS/txnet0/port_model)" = single ] || bad="$bad [sysfs port_model]"
run set txnet0 tick-ns 5000 port all
expect_rc 0 "set tick-ns port"
[ "$(cat $SYS/txnet0/tick_ns)" = 5000 ] || bad="$bad [sysfs tick_ns]"
[ "$(cat $SYS/txnet0/port_model)" = all ] || bad="$bad [sysfs port_model all]"
run show txnet0
expect_out "port all tick-ns 5000 " "show after set"
result "set_and_read_back"

# 8
run destroy txnet1
expect_rc 0 "destroy"
[ -s "$out" ] && bad="$bad [destroy printed: $(cat "$out")]"
[ -d "$SYS/txnet1" ] && bad="$bad [sysfs dir left]"
run show txnet1
expect_rc 2 "show destroyed"
expect_err "^Error: " "show destroyed"
result "destroy"

# 9
n0=$(count)
for a in "create" "create bogus 4" "create torus" "create torus 8x" "create ring -1" \
	 "create ring 4 name abcdefghijklmnop" "create ring 4 port some" \
	 "create ring 4 tick-ns x" "create ring 4 tick-ns" "create ring 99999999999" \
	 "frob" "set" "set txnet0" "destroy" "create ring 4 4" "create product ring5" \
	 "create product wheel:5" "create biswapped" "create biswapped torus 4 4" \
	 "create mesh name x"; do
	# shellcheck disable=SC2086
	run $a
	[ "$rc" = 1 ] || bad="$bad ['txctl $a': exit $rc, want 1]"
	grep -q "^Error: " "$err" || bad="$bad ['txctl $a': no Error: line: $(head -c 200 "$err")]"
done
[ "$(count)" = "$n0" ] || bad="$bad [a usage error created a network]"
result "usage_errors_exit_1"

# 10
run create ring 4 4 2>/dev/null
grep -q "^Error: argument \"4\" is wrong\|^Error: " "$err" || bad="$bad [no argument error]"
run create torus 8x 8
expect_err "8x" "names the bad argument"
result "usage_error_names_argument"

# 11
n0=$(count)
run create ring 1
expect_rc 2 "create ring 1"
expect_err "^Error: .*dimension size must be at least 2" "extack passed through"
run create butterfly 6
expect_rc 2 "create butterfly 6"
expect_err "^Error: .*power of two" "extack passed through"
run create hypercube 17
expect_rc 2 "create hypercube 17"
expect_err "^Error: .*hypercube" "extack passed through"
run create mesh 65536 65536
expect_rc 2 "create mesh 65536 65536"
expect_err "^Error: .*max_nodes" "extack passed through"
run create biswapped ring 1
expect_rc 2 "create biswapped ring 1"
expect_err "^Error: " "biswapped ring 1"
[ "$(count)" = "$n0" ] || bad="$bad [a refused create left a network]"
result "kernel_errors_exit_2_with_extack"

# 12
run create ring 4 name dup
expect_rc 0 "create dup"
run create ring 5 name dup
expect_rc 2 "create dup again"
expect_err "^Error: .*already exists" "duplicate"
run destroy nosuchnet
expect_rc 2 "destroy missing"
expect_err "^Error: .*no network" "destroy missing"
run set dup tick-ns 2000000000
expect_rc 2 "set tick-ns too big"
expect_err "^Error: " "tick-ns too big"
[ "$(cat $SYS/dup/tick_ns)" = 0 ] || bad="$bad [tick_ns changed]"
result "kernel_errors_name_and_range"

# 13
run create torus 3 3 name "a/b"
[ "$rc" = 1 ] || [ "$rc" = 2 ] || bad="$bad [name a/b: exit $rc]"
expect_err "^Error: " "name a/b"
[ -e "$SYS/a" ] && bad="$bad [a/b created something]"
result "bad_name_refused"

# 14
run -V
expect_rc 0 "-V"
[ -s "$out" ] || bad="$bad [-V printed nothing]"
run help
expect_rc 0 "help"
run --help
expect_rc 0 "--help"
grep -q "Usage" "$out" "$err" || bad="$bad [--help without Usage]"
result "version_and_help"

# 15
clean
run show
expect_rc 0 "show with none"
[ -s "$out" ] && bad="$bad [show with none printed: $(cat "$out")]"
run -j show
expect_rc 0 "-j show with none"
[ "$(tr -d ' \n' < "$out")" = "[]" ] || bad="$bad [-j show with none: '$(cat "$out")']"
result "show_empty"

# 16
mon=/tmp/txctl.$$.mon
"$TXCTL" monitor > "$mon" 2>&1 &
mpid=$!
wait_for mon_ready || bad="$bad [monitor never reported the probe network]"
"$TXCTL" create ring 3 name m1 > /dev/null 2>&1
"$TXCTL" destroy m1 > /dev/null 2>&1
wait_for mon_saw "destroyed.*m1" || bad="$bad [monitor never reported m1 destroyed]"
kill "$mpid" 2>/dev/null
wait "$mpid"
mrc=$?
grep -q "created" "$mon" || bad="$bad [no created line: $(head -c 300 "$mon")]"
grep -q "destroyed" "$mon" || bad="$bad [no destroyed line]"
grep -q "m1" "$mon" || bad="$bad [no name m1]"
[ "$mrc" = 0 ] || bad="$bad [monitor exit $mrc after SIGTERM, want 0]"
result "monitor"

# 17
"$TXCTL" -j monitor > "$mon" 2>&1 &
mpid=$!
wait_for mon_ready || bad="$bad [-j monitor never reported the probe network]"
"$TXCTL" create ring 3 name m2 > /dev/null 2>&1
"$TXCTL" destroy m2 > /dev/null 2>&1
wait_for mon_saw '"destroyed".*"m2"' || bad="$bad [-j monitor never reported m2 destroyed]"
kill "$mpid" 2>/dev/null
wait "$mpid"
"$JSON" -l -k event -k name < "$mon" || bad="$bad [-j monitor: not one JSON object a line: $(head -c 300 "$mon")]"
# two lines for m2, beside the probe's (whose creation may come before the subscription)
[ "$(grep -v '"name":"probe"' "$mon" | grep -c .)" = 2 ] ||
	bad="$bad [-j monitor: want 2 lines for m2: $(cat "$mon")]"
result "json_monitor"

# 18
run create ring 4 name nn
if [ -d /sys/module/txnet ] && command -v unshare > /dev/null 2>&1 && unshare -n true 2> /dev/null; then
	unshare -n "$TXCTL" show > "$out" 2> "$err"
	rc=$?
	expect_rc 0 "show in a new netns"
	[ -s "$out" ] && bad="$bad [new netns sees: $(cat "$out")]"
	unshare -n "$TXCTL" destroy nn > "$out" 2> "$err"
	rc=$?
	expect_rc 2 "destroy across netns"
	[ -d "$SYS/nn" ] || bad="$bad [destroyed from another netns]"
	result "netns_isolation"
else
	skip "netns_isolation" "no unshare"
fi

# 19
run create ring 4 name 'x y'
[ "$rc" != 0 ] || bad="$bad [name with a space accepted]"
run show nosuchnet
expect_rc 2 "show missing"
expect_err "^Error: " "show missing"
result "show_missing"

# 20
clean
i=0
while [ $i -lt 20 ]; do
	"$TXCTL" create ring 3 > /dev/null 2>&1 || bad="$bad [create $i failed]"
	i=$((i + 1))
done
[ "$(count)" = 20 ] || bad="$bad [$(count) networks, want 20]"
"$TXCTL" show > "$out" 2> "$err"
[ "$(grep -c '^txnet' "$out")" = 20 ] || bad="$bad [show lists $(grep -c '^txnet' "$out")]"
clean
[ "$(count)" = 0 ] || bad="$bad [left: $(count)]"
result "create_and_destroy_20"

# 21: run, JSON with every key of a result; 18 = ceil((12^2-1)/8), [Dimakopoulos94] Theorem 3
RUN_KEYS="op algo port_model nodes steps lower_bound expected_steps transmissions delivered
	expected_deliveries verified wall_ns busy_ns tick_ns ticks_per_s"
run create ring 12 name rr
run -j run rr total-exchange algo message-shift payload 64
expect_rc 0 "-j run"
args=
for k in $RUN_KEYS; do args="$args -k $k"; done
# shellcheck disable=SC2086
"$JSON" $args < "$out" || bad="$bad [-j run: invalid JSON or keys missing: $(head -c 400 "$out")]"
[ "$("$JSON" -g op < "$out")" = "total-exchange" ] || bad="$bad [op]"
[ "$("$JSON" -g algo < "$out")" = "message-shift" ] || bad="$bad [algo]"
[ "$("$JSON" -g steps < "$out")" = 18 ] || bad="$bad [steps, want 18]"
[ "$("$JSON" -g lower_bound < "$out")" = 18 ] || bad="$bad [lower_bound, want 18]"
[ "$("$JSON" -g expected_steps < "$out")" = 18 ] || bad="$bad [expected_steps, want 18]"
[ "$("$JSON" -g delivered < "$out")" = 132 ] || bad="$bad [delivered, want 12*11]"
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [verified]"
[ "$(cat "$SYS/rr/last/steps")" = 18 ] || bad="$bad [last/steps]"
# a test-only fault (debugfs, not txctl's business) makes the run fail
echo drop > /sys/kernel/debug/txnet/rr/fault || bad="$bad [debugfs fault knob]"
run run rr total-exchange
expect_rc 3 "a failed run"
expect_out "verified no" "a failed run"
[ ! -r "$SYS/rr/last/steps" ] || ! cat "$SYS/rr/last/steps" > /dev/null 2>&1 ||
	bad="$bad [last/steps readable after a failed run]"
result "run_json_and_failure"

# 22: stop a paced run, progress visible meanwhile.  The run cannot end on
# its own before the stop, however slow the host: linear 100 is 2500 ticks
# ([Dimakopoulos94] Theorem 1) of 1 s (the largest tick), 42 minutes.
run create linear 100 name slow tick-ns 1000000000
run run slow total-exchange --no-wait
expect_rc 0 "run --no-wait"
run show slow
expect_out "state running" "show while running"
expect_out "run-ticks" "show while running"
run stop slow
expect_rc 0 "stop"
# STOP only asks: the run ends when the network's thread sees it
wait_for state_is slow idle || bad="$bad [still running after stop]"
run -j show slow
[ "$("$JSON" -g state < "$out")" = idle ] || bad="$bad [state after stop]"
grep -q '"status": *"stopped"' "$out" || bad="$bad [last run not stopped: $(head -c 300 "$out")]"
run stop slow
expect_rc 2 "stop when idle"
expect_err "^Error: no exchange is running" "stop when idle"
result "run_no_wait_show_stop"

# 23: a port: send, then recv what arrived, once
run create ring 9 name pp
run send pp 0 4 hello
expect_rc 0 "send"
wait_for unread_is pp 1 || bad="$bad [the packet never arrived]"
run -j recv pp 4
expect_rc 0 "recv"
"$JSON" -k src -k data < "$out" || bad="$bad [recv JSON: $(head -c 300 "$out")]"
[ "$("$JSON" -g data < "$out")" = hello ] || bad="$bad [data]"
[ "$("$JSON" -g src < "$out")" = 0 ] || bad="$bad [src]"
run -j recv pp 4
[ "$(cat "$out")" = "[]" ] || bad="$bad [read twice: $(cat "$out")]"
run send pp 0 9 x
expect_rc 2 "send to a missing node"
expect_err "destination node" "send to a missing node"
result "send_recv"

# 24: a value the family's policy refuses is named, with its range
# (kmod/netlink.c policies; txctl reads NLMSGERR_ATTR_OFFS and _POLICY)
run create ring 4 name rg tick-ns 2000000000
expect_rc 2 "tick-ns out of range"
expect_err "^Error: .*tick-ns must be 0\.\.1000000000" "tick-ns out of range"
[ ! -d "$SYS/rg" ] || bad="$bad [refused create left $SYS/rg]"
run create ring 4 name rg
run run rg total-exchange payload 5000
expect_rc 2 "payload out of range"
expect_err "^Error: .*payload must be 0\.\.4096" "payload out of range"
run destroy rg
result "policy_ranges_named"

# 25: a broadcast on a 6x6 torus takes the root's eccentricity, 3 + 3, with
# n-1 = 35 transmissions ([Bertsekas91], section 3: no schedule does better)
run create torus 6 6 name tt
expect_rc 0 "create torus"
run -j run tt broadcast root 0
expect_rc 0 "-j run broadcast"
[ "$("$JSON" -g op < "$out")" = broadcast ] || bad="$bad [op]"
[ "$("$JSON" -g steps < "$out")" = 6 ] || bad="$bad [steps, want 6]"
[ "$("$JSON" -g lower_bound < "$out")" = 6 ] || bad="$bad [lower_bound, want 6]"
[ "$("$JSON" -g bound < "$out")" = eccentricity ] || bad="$bad [bound]"
[ "$("$JSON" -g transmissions < "$out")" = 35 ] || bad="$bad [transmissions, want 35]"
[ "$("$JSON" -g min_transmissions < "$out")" = 35 ] || bad="$bad [min_transmissions]"
[ "$("$JSON" -g root < "$out")" = 0 ] || bad="$bad [root]"
[ "$(cat "$SYS/tt/last/root")" = 0 ] || bad="$bad [last/root]"
[ "$(cat "$SYS/tt/last/bound")" = eccentricity ] || bad="$bad [last/bound]"
result "broadcast_eccentricity"

# 26: the sums come back as defined: values 1..36, so the root of an
# accumulation holds 36*37/2 = 666 and node p of a prefix sum (p+1)(p+2)/2
list=$(seq -s, 1 36)
run run tt accumulate root 3 values "$list"
expect_rc 0 "accumulate"
expect_out " values 0 0 0 666 0 " "accumulate values"
seq 1 36 > /tmp/txctl.$$.v
run run tt prefix-sum values "file:/tmp/txctl.$$.v"
expect_rc 0 "prefix-sum"
expect_out " values 1 3 6 10 15 21 " "prefix-sum values"
run -j run tt data-sum values random:42
expect_rc 0 "data-sum"
[ "$("$JSON" -g values_seed < "$out")" = 42 ] || bad="$bad [values_seed]"
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [data-sum verified]"
rm -f /tmp/txctl.$$.v
result "sums_as_defined"

# 27: refusals name the field: by txctl (nothing sent) and by the kernel
run run tt broadcast values 1,2
expect_rc 1 "values on a broadcast"
expect_err "values" "values on a broadcast"
run run tt accumulate values 1,x
expect_rc 1 "bad value"
expect_err "not a 64-bit integer" "bad value"
run run tt data-sum values 1,2,3
expect_rc 2 "3 values for 36 nodes"
expect_err "values:" "3 values for 36 nodes"
run run tt scatter root 36
expect_rc 2 "root 36 of 36 nodes"
expect_err "root:" "root 36 of 36 nodes"
run run tt nosuch-op
expect_rc 1 "unknown op"
result "collective_refusals"

# 28: bounds without a network: the same eccentricity, and the 2-D torus's
# bisection: ceil(18*18 / 12) = 27 for a total exchange ([Dimakopoulos98], cut bound)
nets=$(count)
run bounds torus 6 6 port all
expect_rc 0 "bounds"
grep -Eq "^broadcast +all +6 +eccentricity +35  slots 36$" "$out" ||
	bad="$bad [broadcast line: $(grep ^broadcast "$out")]"
# slots (Documentation/txnet-engine.rst): a data sum on n = 36 processors with
# 144 links out of them has n (ceil(log2 n) + 2) + 16 + 144 = 36 * 8 + 160 = 448
grep -Eq "^data-sum +all .*  slots 448$" "$out" ||
	bad="$bad [data-sum slots: $(grep ^data-sum "$out")]"
grep -Eq "^total-exchange +all +27 " "$out" ||
	bad="$bad [total-exchange line: $(grep ^total-exchange "$out")]"
# [Dimakopoulos98], section 3 on the 6x6 torus: Theorem 1, 36 (6 9 + 6 9) = 3888 (a ring
# of 6 has status 9); average-status ceil(3888/36) = 108; cut 27 as above
grep -Eq "^total exchange: total-distance 3888 avg-distance 3.086 as-bound 108 cut-bound 27$" "$out" ||
	bad="$bad [total exchange line: $(grep '^total exchange' "$out")]"
run -j bounds torus 6 6
expect_rc 0 "-j bounds torus"
[ "$("$JSON" -g total_distance < "$out")" = 3888 ] || bad="$bad [bounds total_distance]"
[ "$("$JSON" -g as_bound < "$out")" = 108 ] || bad="$bad [bounds as_bound]"
[ "$("$JSON" -g cut_bound < "$out")" = 27 ] || bad="$bad [bounds cut_bound]"
run -j bounds butterfly 16
expect_rc 0 "-j bounds"
[ "$("$JSON" -g spec < "$out")" = "butterfly 16" ] || bad="$bad [bounds spec]"
run bounds torus 6 6 root 99
expect_rc 2 "bounds root 99"
expect_err "root:" "bounds root 99"
[ "$(count)" = "$nets" ] || bad="$bad [bounds left networks: $(count), were $nets]"
run destroy tt
result "bounds"

# 29: [Dimakopoulos98] on products.  All-port 8x8 torus, a3: 8 ceil((8^2-1)/8) = 64
# ticks (Theorem 4), the cut bound (Theorem 5).  Single-port 5x7 torus, a2:
# (35/5) floor(5^2/4) + (35/7) floor(7^2/4) = 42 + 60 = 102 (Theorem 2), the
# average-status bound (Theorem 3).  a3 on a single-port network is refused.
run create torus 8 8 name p8
expect_rc 0 "create torus 8 8"
run -j run p8 total-exchange
expect_rc 0 "-j run a3"
[ "$("$JSON" -g algo < "$out")" = a3 ] || bad="$bad [algo, want a3]"
[ "$("$JSON" -g steps < "$out")" = 64 ] || bad="$bad [a3 steps, want 64]"
[ "$("$JSON" -g expected_steps < "$out")" = 64 ] || bad="$bad [a3 expected_steps]"
[ "$("$JSON" -g lower_bound < "$out")" = 64 ] || bad="$bad [a3 lower_bound]"
run -j show p8
expect_rc 0 "-j show p8"
[ "$("$JSON" -g total_distance < "$out")" = 16384 ] || bad="$bad [show total_distance]"
[ "$("$JSON" -g as_bound < "$out")" = 256 ] || bad="$bad [show as_bound]"
[ "$("$JSON" -g cut_bound < "$out")" = 64 ] || bad="$bad [show cut_bound]"
run create torus 5 7 port single name p57
expect_rc 0 "create torus 5 7 port single"
run -j run p57 total-exchange
expect_rc 0 "-j run a2"
[ "$("$JSON" -g algo < "$out")" = a2 ] || bad="$bad [algo, want a2]"
[ "$("$JSON" -g steps < "$out")" = 102 ] || bad="$bad [a2 steps, want 102]"
[ "$("$JSON" -g lower_bound < "$out")" = 102 ] || bad="$bad [a2 lower_bound]"
[ "$("$JSON" -g bound < "$out")" = average-status ] || bad="$bad [a2 bound]"
[ "$(cat "$SYS/p57/last/algo")" = a2 ] || bad="$bad [last/algo]"
run run p57 total-exchange algo a3
expect_rc 2 "a3 single-port"
expect_err "algo: a3 runs all-port" "a3 single-port"
run destroy p8
run destroy p57
result "products_a2_and_a3"

# 30: [Bertsekas91] on the 6-cube,
# Tables 1 and 2 with d = 6: broadcast d = 6 ticks, 2^6-1 = 63
# transmissions; multinode broadcast and scatter ceil(63/6) = 11 all-port,
# scatter 6 2^5 = 192 transmissions; total exchange 2^5 = 32 all-port with
# 6 2^11 = 12288 transmissions, 6 2^5 = 192 single-port; accumulation 6.
# bounds hypercube 10: total exchange 2^9 = 512 all-port, 10 2^9 = 5120
# single-port, 10 2^19 = 5242880 transmissions; scatter ceil(1023/10) = 103.
h6() { # OP ARGS... -> WANT-STEPS WANT-TRANSMISSIONS (or -)
	local want=$1 tx=$2
	shift 2
	run -j run h6 "$@"
	expect_rc 0 "run h6 $*"
	[ "$("$JSON" -g algo < "$out")" = hypercube ] || bad="$bad [$1: algo $("$JSON" -g algo < "$out")]"
	[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [$1: not verified]"
	[ "$("$JSON" -g steps < "$out")" = "$want" ] || bad="$bad [$1: steps $("$JSON" -g steps < "$out"), want $want]"
	[ "$("$JSON" -g expected_steps < "$out")" = "$want" ] || bad="$bad [$1: expected_steps]"
	[ "$tx" = - ] || [ "$("$JSON" -g transmissions < "$out")" = "$tx" ] ||
		bad="$bad [$1: transmissions $("$JSON" -g transmissions < "$out"), want $tx]"
}
run create hypercube 6 name h6
expect_rc 0 "create hypercube 6"
h6 6 63 broadcast root 0
h6 11 4032 multinode-broadcast
h6 11 192 scatter root 5
h6 11 192 gather root 5
h6 32 12288 total-exchange
run set h6 port single
expect_rc 0 "set h6 port single"
h6 192 12288 total-exchange
h6 6 63 accumulate root 3 values random:5
h6 63 192 scatter root 33
run bounds hypercube 10
expect_rc 0 "bounds hypercube 10"
grep -Eq "^total-exchange +all +[0-9]+ +[^ ]+ +5242880 +hypercube +512  slots [0-9]+$" "$out" ||
	bad="$bad [bounds te all: $(grep '^total-exchange +all' "$out")]"
grep -Eq "^total-exchange +single +[0-9]+ +[^ ]+ +5242880 +hypercube +5120  slots [0-9]+$" "$out" ||
	bad="$bad [bounds te single: $(grep -E '^total-exchange +single' "$out")]"
grep -Eq "^scatter +all +[0-9]+ +[^ ]+ +5120 +hypercube +103  slots [0-9]+$" "$out" ||
	bad="$bad [bounds scatter: $(grep -E '^scatter +all' "$out")]"
grep -Eq "^multinode-broadcast +single +[0-9]+ +[^ ]+ +1047552 +hypercube +1023  slots [0-9]+$" "$out" ||
	bad="$bad [bounds mnb single: $(grep -E '^multinode-broadcast +single' "$out")]"
# d = 12: 2^11 = 2048 all-port,
# 12 2^11 = 24576 single-port, 12 2^23 = 100663296 transmissions;
# a total exchange's n(n-1) = 4096 4095 = 16773120 packets alive at once
run bounds hypercube 12 port single
expect_rc 0 "bounds hypercube 12"
grep -Eq "^total-exchange +single +[0-9]+ +[^ ]+ +100663296 +hypercube +24576  slots [0-9]+$" "$out" ||
	bad="$bad [bounds 12 te single: $(grep -E '^total-exchange' "$out")]"
run -j bounds hypercube 12 port all
expect_rc 0 "-j bounds hypercube 12"
grep -q '"op":"total-exchange","port_model":"all",.*"algo":"hypercube","expected_steps":2048,"slots":16773120}' "$out" ||
	bad="$bad [bounds 12 te all json: $(head -c 600 "$out")]"
run destroy h6
result "hypercube_every_operation"

# 31: [Massini03] on MINs.  butterfly 16: the Latin-square waves take
# 16 + 4 - 1 = 19 ticks (section 4, one stage a tick); from config l = 235
# too; omega 8 from l = 0 leaves the identity's wave out, 8 + 3 - 2 = 9.
# A config elsewhere, or past the N^(N/2-1) = 8^3 = 512 sets of the
# butterfly of 8, is refused naming config.
run create butterfly 16 name b16
expect_rc 0 "create butterfly 16"
run -j run b16 total-exchange
expect_rc 0 "run b16"
[ "$("$JSON" -g algo < "$out")" = latin ] || bad="$bad [b16 algo $("$JSON" -g algo < "$out")]"
[ "$("$JSON" -g steps < "$out")" = 19 ] || bad="$bad [b16 steps $("$JSON" -g steps < "$out")]"
[ "$("$JSON" -g config < "$out")" = 0 ] || bad="$bad [b16 config]"
run -j run b16 total-exchange config 235
expect_rc 0 "run b16 config 235"
[ "$("$JSON" -g steps < "$out")" = 19 ] || bad="$bad [b16 l=235 steps]"
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [b16 l=235 verified]"
[ "$(cat "$SYS/b16/last/config")" = 235 ] || bad="$bad [last/config $(cat "$SYS/b16/last/config")]"
run create omega 8 name o8
run -j run o8 total-exchange
[ "$("$JSON" -g steps < "$out")" = 9 ] || bad="$bad [o8 steps $("$JSON" -g steps < "$out")]"
[ "$("$JSON" -g lower_bound < "$out")" = 9 ] || bad="$bad [o8 lower_bound]"
run create butterfly 8 name b8
run run b8 total-exchange config 512
expect_rc 2 "config 512 on butterfly 8"
expect_err "config:" "config 512 on butterfly 8"
run run b8 total-exchange config 511
expect_rc 0 "config 511 on butterfly 8"
run run b8 total-exchange algo shortest-path config 1
expect_rc 2 "config with shortest-path"
expect_err "config:" "config with shortest-path"
run run b8 total-exchange config x
expect_rc 1 "config x"
# txctl latin: Example 2's P^235 and S^235 on the butterfly of 8, and
# Example 1's second set of the canonical partition of the butterfly of 4,
# exactly as the paper prints them
run latin butterfly 8 235
expect_rc 0 "latin butterfly 8 235"
printf '%s\n' "butterfly 8 l 235" \
	"06257134 000 011 101 011" "60521743 001 010 100 010" \
	"52603471 010 001 111 001" "25064317 011 000 110 000" \
	"17346025 100 111 001 111" "71430652 101 110 000 110" \
	"43712560 110 101 011 101" "34175206 111 100 010 100" > "$out.want"
cmp -s "$out" "$out.want" || bad="$bad [latin 8 235: $(tr '\n' '|' < "$out")]"
run latin butterfly 4 config 1
printf '%s\n' "butterfly 4 l 1" "0231 00 01" "2013 01 00" "1320 10 11" "3102 11 10" > "$out.want"
cmp -s "$out" "$out.want" || bad="$bad [latin 4 1: $(tr '\n' '|' < "$out")]"
rm -f "$out.want"
run -j latin omega 4
expect_rc 0 "-j latin omega 4"
"$JSON" -k spec -k config < "$out" || bad="$bad [latin json]"
run latin ring 8
expect_rc 2 "latin ring 8"
expect_err "topology:" "latin ring 8"
run latin butterfly 8 512
expect_rc 2 "latin butterfly 8 512"
expect_err "config:" "latin butterfly 8 512"
run latin butterfly 128
expect_rc 2 "latin butterfly 128"
expect_err "at most 64" "latin butterfly 128"
run destroy b16
run destroy o8
# One permutation (section 3): Example 2's first permutation of P^235 is
# routed by the configuration M^{235,0} in log2 8 = 3 ticks; the identity
# blocks on this butterfly (no configuration realizes it), exit 3, naming
# where; on omega it is routed.  06257134 is input tags per output:
# input 0 -> 0, 6 -> 1, 2 -> 2, 5 -> 3, 7 -> 4, 1 -> 5, 3 -> 6, 4 -> 7.
run -j run b8 permutation 0,5,2,6,7,3,1,4
expect_rc 0 "permutation on b8"
[ "$("$JSON" -g algo < "$out")" = self-routing ] || bad="$bad [perm algo $("$JSON" -g algo < "$out")]"
[ "$("$JSON" -g steps < "$out")" = 3 ] || bad="$bad [perm steps $("$JSON" -g steps < "$out")]"
[ "$("$JSON" -g config < "$out")" = 235 ] || bad="$bad [perm config $("$JSON" -g config < "$out")]"
[ "$("$JSON" -g config_x < "$out")" = 0 ] || bad="$bad [perm config_x]"
run run b8 permutation 0,1,2,3,4,5,6,7
expect_rc 3 "identity on b8"
expect_out "blocked: stage" "identity on b8"
[ "$(cat "$SYS/b8/last/status")" = blocked ] || bad="$bad [last/status $(cat "$SYS/b8/last/status")]"
[ -n "$(cat "$SYS/b8/last/block_inputs")" ] || bad="$bad [last/block_inputs]"
# From a matrix: Example 2's M^{235,3}, "011 000 110 000": set 235, member 3,
# 8 + 3 - 1 = 10 ticks
run -j run b8 total-exchange matrix 011,000,110,000
expect_rc 0 "matrix on b8"
[ "$("$JSON" -g config < "$out")" = 235 ] || bad="$bad [matrix config $("$JSON" -g config < "$out")]"
[ "$("$JSON" -g config_x < "$out")" = 3 ] || bad="$bad [matrix config_x]"
[ "$("$JSON" -g steps < "$out")" = 10 ] || bad="$bad [matrix steps]"
run run b8 total-exchange matrix 011,00,110,000
expect_rc 1 "matrix rows of different lengths"
expect_err "different lengths" "matrix rows of different lengths"
run run b8 total-exchange matrix 011,000,110
expect_rc 2 "matrix of 3 rows on b8"
expect_err "config_rows:" "matrix of 3 rows on b8"
run create omega 8 name o8
run run o8 permutation 0,1,2,3,4,5,6,7
expect_rc 0 "identity on o8"
run run o8 permutation 0,1,2,3,4,5,6
expect_rc 2 "7 destinations on o8"
expect_err "dests:" "7 destinations on o8"
run run o8 permutation 0,1,2,3,4,5,6,6
expect_rc 1 "a repeated destination"
expect_err "6 is already the destination of processor 6" "a repeated destination"
run run o8 permutation 0,1,x
expect_rc 1 "permutation 0,1,x"
run run o8 permutation
expect_rc 1 "permutation without destinations"
run destroy o8
run destroy b8
result "min_latin_squares"

# 32: [Wei07]'s biswapped networks under its own name: "bsn mesh 3 3" is
# 2 * 9^2 = 162 nodes; broadcast from <0,0,0> takes 2 D + 2 = 10 ticks (Table 1, Theorem 1; D = 4); the data sum too
# (Table 3 in the timing model: its Step 5 is a local addition), the
# prefix sum 4 D + 3 = 19 (Table 2, Table 4's count); node 17
# is <1,8,0>, node 100 <2,1,1> in group 11 (section 3.2's labels)
run create bsn mesh 3 3 name bsn0
expect_rc 0 "create bsn mesh 3 3"
[ "$(cat "$SYS/bsn0/nodes")" = 162 ] || bad="$bad [bsn0 nodes $(cat "$SYS/bsn0/nodes")]"
run -j run bsn0 broadcast root 0
expect_rc 0 "bsn0 broadcast"
[ "$("$JSON" -g algo < "$out")" = biswapped ] || bad="$bad [bsn0 algo $("$JSON" -g algo < "$out")]"
[ "$("$JSON" -g steps < "$out")" = 10 ] || bad="$bad [bsn0 broadcast steps $("$JSON" -g steps < "$out")]"
i=0; sum=0; : > "$out.v"
while [ $i -lt 162 ]; do echo $((i * 7 - 300)) >> "$out.v"; sum=$((sum + i * 7 - 300)); i=$((i + 1)); done
run -j run bsn0 data-sum values "file:$out.v"
expect_rc 0 "bsn0 data-sum"
[ "$("$JSON" -g steps < "$out")" = 10 ] || bad="$bad [bsn0 data-sum steps $("$JSON" -g steps < "$out")]"
run run bsn0 data-sum values "file:$out.v"
expect_out "values $sum $sum $sum" "bsn0 data-sum values"
# the prefix sum (Table 2): 4 D + 3 = 19 ticks, node 2 ends with -300 + -293 + -286
run -j run bsn0 prefix-sum values "file:$out.v"
expect_rc 0 "bsn0 prefix-sum"
[ "$("$JSON" -g steps < "$out")" = 19 ] || bad="$bad [bsn0 prefix-sum steps $("$JSON" -g steps < "$out")]"
run run bsn0 prefix-sum values "file:$out.v"
expect_out "values -300 -593 -879 " "bsn0 prefix-sum values"
rm -f "$out.v"
run show bsn0 node 17
expect_out "node 17: <1,8,0> group 1 processor 8 part 0" "bsn0 node 17"
run show bsn0 node 100
expect_out "<2,1,1> group 11 processor 1 part 1" "bsn0 node 100"
run show bsn0 node 162
expect_rc 1 "bsn0 node 162"
expect_err "node:" "bsn0 node 162"
run create biswapped complete 4 name bsn1
run -j run bsn1 data-sum
[ "$("$JSON" -g steps < "$out")" = 4 ] || bad="$bad [bsn1 data-sum steps $("$JSON" -g steps < "$out"), want 4]"
# Table 4 beside the model's counts: on bsn complete 4 broadcast 4 (= 4),
# prefix sum 7, data sum 5 where the engine's schedule takes 4; on bsn
# mesh 4 4 (N = 512, (8N)^(1/4) = 8) broadcast 2*8-2 = 14 (= 14), prefix
# sum 4*8-5 = 27, data sum 3*8-4 = 20 where the schedule takes 14
run bounds bsn complete 4
expect_rc 0 "bounds bsn complete 4"
grep -Eq "^broadcast +all .* biswapped +4  paper 4  slots [0-9]+$" "$out" || bad="$bad [bounds K4 broadcast: $(grep '^broadcast' "$out")]"
grep -Eq "^data-sum +all .* biswapped +4  paper 5  slots [0-9]+$" "$out" || bad="$bad [bounds K4 data-sum: $(grep '^data-sum' "$out")]"
grep -Eq "^prefix-sum +all .* biswapped +7  paper 7  slots [0-9]+$" "$out" || bad="$bad [bounds K4 prefix-sum: $(grep '^prefix-sum' "$out")]"
run bounds bsn mesh 4 4
grep -Eq "^broadcast +all .* biswapped +14  paper 14  slots [0-9]+$" "$out" || bad="$bad [bounds mesh broadcast: $(grep '^broadcast' "$out")]"
grep -Eq "^data-sum +all .* biswapped +14  paper 20  slots [0-9]+$" "$out" || bad="$bad [bounds mesh data-sum: $(grep '^data-sum' "$out")]"
grep -Eq "^prefix-sum +all .* biswapped +27  paper 27  slots [0-9]+$" "$out" || bad="$bad [bounds mesh prefix-sum: $(grep '^prefix-sum' "$out")]"
run destroy bsn0
run destroy bsn1
result "biswapped_schedules"

# 33: on a terminal a run of more than a second shows a progress line on
# stderr, rewritten in place (tick, delivered/expected, ticks/s, ETA); on
# a pipe nothing.  Paced at 50 ms a tick, the 32 ticks of a total exchange
# on ring 16 (ceil((n^2-1)/8), [Dimakopoulos94] on rings) cannot end in under 1.6 s,
# whatever the host's speed: the line's appearance is a consequence of the
# pacing, not a guess at it.  It must make n(n-1) = 240 deliveries.
if command -v python3 > /dev/null 2>&1; then
	run create ring 16 name prog0 tick-ns 50000000
	expect_rc 0 "create prog0"
	# txctl on a pseudo-terminal (python's pty): what a user would see
	python3 - "$TXCTL" run prog0 total-exchange > "$out" 2> "$err" <<'EOP'
import os, pty, sys
pid, fd = pty.fork()
if pid == 0:
    os.execvp(sys.argv[1], sys.argv[1:])
seen = b''
while True:
    try:
        data = os.read(fd, 4096)
    except OSError:
        break
    if not data:
        break
    seen += data
sys.stdout.write(seen.decode(errors='replace'))
sys.exit(os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]))
EOP
	rc=$?
	expect_rc 0 "run prog0 on a terminal"
	expect_out "prog0: run 1: tick [0-9]*, delivered [0-9]*/240 (" "progress line"
	expect_out "ticks/s, ETA " "progress line"
	expect_out "$(printf '\r')" "progress rewritten in place"
	expect_out "verified yes" "the result after the progress line"
	run run prog0 total-exchange
	expect_rc 0 "run prog0 on a pipe"
	grep -q "ETA" "$err" "$out" && bad="$bad [a progress line on a pipe: $(head -c 200 "$err")]"
	run destroy prog0
	result "progress_on_a_terminal"
else
	skip "progress_on_a_terminal" "no python3 in this guest"
fi

# 34: a run's time series (record, plot FILE) and its picture.  A total
# exchange on a 4x4 torus: the link rows are its 2 dimensions x 2
# directions of 16 links each (one link a node a way, a ring of 4); their
# samples add up to the result's transmissions (the engine's every move,
# once); one sample a tick while a run fits TXNET_SERIES_SAMPLES = 256;
# one row a node.  The SVG: a line a row, the all-links line, cells of
# what nodes held; and well-formed XML where python3 can parse it.
run create torus 4 4 name plot0
expect_rc 0 "create plot0"
run series plot0
expect_rc 2 "series before any run"
expect_err "kept no time series" "series before any run"
run run plot0 total-exchange plot "$out.svg"
expect_rc 0 "run plot"
trans=$(cat "$SYS/plot0/last/transmissions")
ticks=$(cat "$SYS/plot0/last/ticks")
[ "$(cat "$SYS/plot0/last/samples")" = "$ticks" ] || bad="$bad [samples $(cat "$SYS/plot0/last/samples"), ticks $ticks]"
[ "$(cat "$SYS/plot0/last/sample_ticks")" = 1 ] || bad="$bad [sample_ticks $(cat "$SYS/plot0/last/sample_ticks")]"
run series plot0
expect_rc 0 "series plot0"
expect_out "^plot0: run 1, $ticks ticks, samples of 1$" "series header"
[ "$(grep -c '^  links dim [01] [updown]* (16 links), busy:' "$out")" = 4 ] || bad="$bad [link rows: $(grep -c '^  links' "$out")]"
sum=$(sed -n 's/^  links .*busy://p' "$out" | tr ' ' '\n' | awk '{ s += $1 } END { print s }')
[ "$sum" = "$trans" ] || bad="$bad [busy samples add up to $sum, transmissions $trans]"
[ "$(grep -c '^  held node [0-9]* (1), most:' "$out")" = 16 ] || bad="$bad [node rows: $(grep -c '^  held' "$out")]"
run -j series plot0
"$JSON" -k links -k held -k sample_ticks < "$out" || bad="$bad [series -j: invalid JSON]"
head -n 1 "$out.svg" | grep -q '^<?xml version="1.0"' || bad="$bad [svg: no XML declaration]"
[ "$(tail -n 1 "$out.svg")" = "</svg>" ] || bad="$bad [svg: does not end with </svg>]"
[ "$(grep -c '<polyline class="links" data-dim' "$out.svg")" = 4 ] || bad="$bad [svg: $(grep -c 'class="links"' "$out.svg") link lines]"
[ "$(grep -c 'class="links-all"' "$out.svg")" = 1 ] || bad="$bad [svg: no all-links line]"
[ "$(grep -o 'class="held" data-node="[0-9]*"' "$out.svg" | sort -u | wc -l)" = 16 ] || bad="$bad [svg: cells of $(grep -o 'class="held" data-node="[0-9]*"' "$out.svg" | sort -u | wc -l) nodes]"
if command -v python3 > /dev/null 2>&1; then
	python3 -c 'import sys, xml.etree.ElementTree as E; E.parse(sys.argv[1])' "$out.svg" ||
		bad="$bad [svg: not well-formed XML]"
fi
# a run without record leaves no series behind
run run plot0 total-exchange
run series plot0
expect_rc 2 "series after a run without record"
# refused before anything is sent
run run plot0 total-exchange plot
expect_rc 1 "plot without FILE"
run run plot0 total-exchange plot -
expect_rc 1 "plot -"
expect_err "plot" "plot -"
run run plot0 total-exchange plot "$out.svg" --no-wait
expect_rc 1 "plot with --no-wait"
run series plot0 plot a plot b
expect_rc 1 "series plot twice"
run series nosuch
expect_rc 2 "series of no network"
expect_err "no network with this name" "series of no network"
rm -f "$out.svg"
run destroy plot0
result "run_plot_and_series"

# 36: networks of routers (Documentation/txnet-topologies.rst).  dragonfly
# 2 4 2: a h + 1 = 9 groups of 4 routers, 2 processors a router: 72
# processors, 36 routers; vertex 77 is router 5, group 1, index 1.  fattree
# 4 3: 4^3 = 64 processors, 3 levels of 16 switches; vertex 64 + 16 + 5 is
# <1,1; 1> (5 = 1 4 + 1).  Every run verifies and takes at least its lower bound.
run create dragonfly 2 4 2 name df
expect_rc 0 "create dragonfly 2 4 2"
[ "$(cat "$SYS/df/topology")" = "dragonfly 2 4 2" ] || bad="$bad [df topology $(cat "$SYS/df/topology")]"
run -j show df
[ "$("$JSON" -g nodes < "$out")" = 72 ] || bad="$bad [df nodes $("$JSON" -g nodes < "$out")]"
[ "$("$JSON" -g switches < "$out")" = 36 ] || bad="$bad [df switches $("$JSON" -g switches < "$out")]"
run show df node 77
expect_out "router 5 group 1 index 1" "show df node 77"
run show df node 9
expect_out "processor on router 4 group 1" "show df node 9"
run show df node 108
expect_rc 1 "show df node 108"
expect_err "not a vertex of df (0 .. 107)" "show df node 108"
run create dragonfly 2 4 2 name df1 port single
expect_rc 0 "create dragonfly 2 4 2 port single"
for net in df df1; do
	runs_verified "$net"
done
run create fattree 4 3 name ft
expect_rc 0 "create fattree 4 3"
run show ft node 85
expect_out "<1,1; 1> level 1" "show ft node 85"
run -j run ft total-exchange
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [ft total-exchange not verified]"
# a processor has one cable: its n - 1 = 63 packets leave one a tick, the
# last needs 2 links more, less the tick it leaves in: 64
[ "$("$JSON" -g lower_bound < "$out")" -ge 64 ] 2>/dev/null || bad="$bad [ft lower bound $("$JSON" -g lower_bound < "$out")]"
run bounds fattree 4 3
expect_rc 0 "bounds fattree 4 3"
expect_out "^broadcast" "bounds fattree 4 3"
# slimfly 5 2: 2 5^2 = 50 routers, 100 processors; vertex 100 + 25 + 7 is
# router 32, (1,1,2); processor 9 is on router 4
run create slimfly 5 2 name sf
expect_rc 0 "create slimfly 5 2"
run show sf node 132
expect_out "router 32 (1,1,2)" "show sf node 132"
run show sf node 9
expect_out "processor on router 4" "show sf node 9"
run -j run sf data-sum
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [sf data-sum not verified]"
run destroy sf
n=$(count)
run create slimfly 9 1
expect_rc 2 "slimfly 9"
expect_err "odd prime" "slimfly 9"
run create dragonfly 2 4
expect_rc 1 "dragonfly without H"
expect_err "P A H" "dragonfly without H"
run create dragonfly 2 0 2
expect_rc 2 "dragonfly a 0"
expect_err "^Error: dragonfly sizes p, a and h must be at least 1" "dragonfly a 0"
run create fattree 1 3
expect_rc 2 "fattree k 1"
expect_err "arity k must be at least 2" "fattree k 1"
[ "$(count)" = "$n" ] || bad="$bad [a refused network was left behind]"
run destroy df
run destroy df1
run destroy ft
result "networks_of_routers"

# 37: networks from files.  BookSim2's anynet example shape: three routers
# in a triangle, three nodes on each, the node numbers neither dense nor
# in order; processor i is the i-th smallest node number.  9 processors,
# 3 switches, 9 + 3 = 12 cables (24 links); processors on different
# routers are 3 apart (node, router, router, node).
g1=/tmp/txctl-triangle.net
g2=/tmp/txctl-triangle-shuffled.net
g3=/tmp/txctl-ring5.edges
gb=/tmp/txctl-bad.net
cat > "$g1" <<'EOF'
# three routers, fully connected, three nodes each
router 0 node 40 node 41 node 42 router 1 router 2
router 1 node 7 node 8 node 9 router 2 1
router 2 node 100 node 101 node 102
EOF
# the same graph: lines, entries and cable ends in other orders, a cable twice
cat > "$g2" <<'EOF'
router 2 node 102 node 101 node 100 router 0
router 1 router 0 router 2 node 9 node 8 node 7
router 0 node 42 node 41 node 40
router 2 router 1
EOF
printf '0 1\n1 2\n2 3\n3 4\n4 0  # a ring of 5\n' > "$g3"
run create graph "file:$g1" name gr
expect_rc 0 "create graph file:triangle"
expect_out "gr: graph 9 3 cables 12 digest [0-9a-f]\{16\} nodes 9 switches 3 links 24 diameter 3" "create graph"
digest=$(sed 's/.* digest //' "$SYS/gr/topology")
run create graph "file:$g2" name gr2
expect_rc 0 "create graph file:shuffled"
[ "$(sed 's/.* digest //' "$SYS/gr2/topology")" = "$digest" ] ||
	bad="$bad [the same graph from another file: digest $(cat "$SYS/gr2/topology"), want $digest]"
# processor 0 is node 7 (the smallest number), vertex 9 router 0
run show gr node 0
expect_out "^gr node 0: node 7$" "show gr node 0"
run show gr node 9
expect_out "^gr node 9: router 0$" "show gr node 9"
run show gr node 12
expect_rc 1 "show gr node 12"
runs_verified gr
# a processor has one cable: its n - 1 = 8 packets arrive over it one a
# tick, the first no sooner than tick 2 (node, router, node): 9
run -j run gr total-exchange
[ "$("$JSON" -g lower_bound < "$out")" -ge 9 ] 2>/dev/null ||
	bad="$bad [gr total-exchange lower bound $("$JSON" -g lower_bound < "$out"), want >= 9]"
run create graph "file:$g3" name r5
expect_rc 0 "create graph file:ring5"
expect_out "nodes 5 links 10 diameter 2" "create graph ring5"
run -j run r5 total-exchange
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [r5 total-exchange not verified]"
# bounds from the file alone.  Broadcast: routers never copy and a processor
# has one cable, so a holder starts one more a tick, which holds it 2 ticks
# later (node, router, node): holders h(t) = h(t-1) + h(t-2), 1 1 2 3 5 8 13,
# first >= 9 at tick 6; 8 processors 2 links away, 16 transmissions at least.
# The run's total-exchange bound is the same computation's.
run -j run gr total-exchange
lower=$("$JSON" -g lower_bound < "$out")
run bounds graph "file:$g1" port all
expect_rc 0 "bounds graph"
grep -Eq "^broadcast +all +6 +doubling +16 " "$out" ||
	bad="$bad [bounds graph broadcast: $(grep ^broadcast "$out")]"
grep -Eq "^total-exchange +all +$lower " "$out" ||
	bad="$bad [bounds graph total-exchange, run's bound $lower: $(grep ^total-exchange "$out")]"
n=$(count)
printf 'router 0 node 0 node 1\nrouter 0 nod 2\n' > "$gb"
run create graph "file:$gb"
expect_rc 1 "bad word"
expect_err "^Error: $gb:2: " "bad word names the line"
printf 'router 0 node 0 node 1 router 1 2\nrouter 1 node 2\n' > "$gb"
run create graph "file:$gb"
expect_rc 1 "latency 2"
expect_err "^Error: $gb:1: .*latency" "latency 2"
printf '0 1\n2 3\n' > "$gb"
run create graph "file:$gb"
expect_rc 1 "two pieces"
expect_err "^Error: $gb:2: processor 2 cannot be reached from processor 0" "two pieces"
run create graph "file:/nonexistent.net"
expect_rc 1 "missing file"
expect_err "/nonexistent.net" "missing file"
run create graph "$g1"
expect_rc 1 "without file:"
expect_err "file:PATH" "without file:"
[ "$(count)" = "$n" ] || bad="$bad [a refused graph was left behind]"
run destroy gr
run destroy gr2
run destroy r5
rm -f "$g1" "$g2" "$g3" "$gb"
result "graphs_from_files"

# 38: a graph of 65,536 processors: the 256 x 256 torus as an edge list,
# 131,072 cables, 1 MiB of them in one request, past the 212,992 bytes
# net.core.wmem_max lets a socket send by default.  Searching from every
# processor would cost past 2^27 visits, so the kernel takes two sweeps,
# which on a torus (every vertex's eccentricity the same) find its
# diameter, 256/2 + 256/2 = 128 + 128.  Its mem_used comes back on destroy.
gt=/tmp/txctl-torus256.edges
awk 'BEGIN { n = 256; for (i = 0; i < n; i++) for (j = 0; j < n; j++) {
	v = i * n + j; print v, i * n + (j + 1) % n; print v, ((i + 1) % n) * n + j } }' > "$gt"
used=$(cat /sys/module/txnet/parameters/mem_used)
run create graph "file:$gt" name big
expect_rc 0 "create graph file:torus256"
expect_out "big: graph 65536 0 cables 131072 digest [0-9a-f]\{16\} nodes 65536 links 262144 diameter-at-least 256 " "create big"
run -j show big
[ "$("$JSON" -g diameter_exact < "$out")" = false ] || bad="$bad [big: diameter_exact $("$JSON" -g diameter_exact < "$out")]"
run create torus 256 256 name tor
expect_out "nodes 65536 links 262144 diameter 256 " "create torus 256 256"
run destroy tor
run destroy big
[ "$(cat /sys/module/txnet/parameters/mem_used)" = "$used" ] ||
	bad="$bad [mem_used $(cat /sys/module/txnet/parameters/mem_used) after destroy, was $used]"
rm -f "$gt"
result "a_large_graph_in_one_request"

# 39: schedule files.  A total exchange on linear 6 saved and replayed: 9
# ticks, the cut bound (3 x 3 messages cross the middle cable each way,
# [Dimakopoulos94] Theorem 1), the same transmissions, algo replay.  A
# broadcast on ring 4 written by hand: the root's eccentricity, 2 ticks, 3
# transmissions (one a processor).  Forgeries fail with the rule and the
# file's line; a file for another network or port model is refused before
# it is sent; nothing is left behind.
sf=/tmp/txctl-l6.sched hf=/tmp/txctl-hand.sched
used=$(cat /sys/module/txnet/parameters/mem_used)
run create linear 6 name l6
run -j run l6 total-exchange save "$sf"
expect_rc 0 "run save"
[ "$("$JSON" -g steps < "$out")" = 9 ] || bad="$bad [saved run: steps, want 9]"
t1=$("$JSON" -g transmissions < "$out")
s1=$("$JSON" -g saved_steps < "$out")
[ "$(grep -c '>' "$sf")" -gt 0 ] || bad="$bad [no moves in the saved file]"
# the file's steps are its tick lines and its moves
[ "$(grep -c -e '^tick ' -e '>' "$sf")" = "$s1" ] || bad="$bad [saved_steps $s1, file $(grep -c -e '^tick ' -e '>' "$sf")]"
grep -q '^network linear 6$' "$sf" || bad="$bad [header: $(head -c 200 "$sf")]"
run -j run l6 total-exchange schedule "file:$sf"
expect_rc 0 "replay"
[ "$("$JSON" -g algo < "$out")" = replay ] || bad="$bad [algo $("$JSON" -g algo < "$out")]"
[ "$("$JSON" -g steps < "$out")" = 9 ] || bad="$bad [replay: steps, want 9]"
[ "$("$JSON" -g transmissions < "$out")" = "$t1" ] || bad="$bad [replay: transmissions, want $t1]"
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [replay not verified]"
run run l6 broadcast schedule "file:$sf"
expect_rc 1 "a file for another operation"
expect_err "made for total-exchange, not broadcast" "operation"
# Documentation/txnet-schedule-format.rst's total exchange on linear 3:
# 2 ticks, the cut bound (2 messages cross each cable each way)
run create linear 3 name l3
printf 'txnet-schedule 1\nnetwork linear 3\noperation total-exchange\nport-model all-port\ntick 1\n0 1 0>2\n1 2 1>2\n2 1 2>0\n1 0 1>0\ntick 2\n0 1 0>1\n1 2 0>2\n2 1 2>1\n1 0 2>0\n' > "$hf"
run -j run l3 total-exchange schedule "file:$hf"
expect_rc 0 "hand-written total exchange"
[ "$("$JSON" -g steps < "$out")" = 2 ] || bad="$bad [linear 3: steps, want 2]"
[ "$("$JSON" -g lower_bound < "$out")" = 2 ] || bad="$bad [linear 3: bound, want 2]"
# a data sum on linear 3 by hand: the ends' partials meet at 1, whose sum
# goes back out in place of theirs: 2 ticks (1's eccentricity), 4 moves
printf 'txnet-schedule 1\nnetwork linear 3\noperation data-sum\nport-model all-port\ntick 1\n0 1 +0\n2 1 +2\ntick 2\n1 0 +0-2\n1 2 +0-2\n' > "$hf"
run -j run l3 data-sum schedule "file:$hf"
expect_rc 0 "hand-written data sum"
[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [data sum: not verified]"
[ "$("$JSON" -g steps < "$out")" = 2 ] || bad="$bad [data sum: steps, want 2]"
[ "$("$JSON" -g transmissions < "$out")" = 4 ] || bad="$bad [data sum: transmissions, want 4]"
run destroy l3
run create ring 4 name r4
run run r4 total-exchange schedule "file:$sf"
expect_rc 1 "a file for another network"
expect_err "made for network \"linear 6\", not \"ring 4\"" "network"
printf 'txnet-schedule 1\nnetwork ring 4\noperation broadcast\nport-model all-port\nroot 0\ntick 1\n0 1 0>*\n0 3 0>*\ntick 2\n1 2 0>*\n' > "$hf"
run -j run r4 broadcast schedule "file:$hf"
expect_rc 0 "hand-written broadcast"
[ "$("$JSON" -g steps < "$out")" = 2 ] || bad="$bad [hand-written: steps, want 2]"
[ "$("$JSON" -g transmissions < "$out")" = 3 ] || bad="$bad [hand-written: transmissions, want 3]"
run set r4 port single
run run r4 broadcast schedule "file:$hf"
expect_rc 1 "a file for the other port model"
expect_err "made for all-port, and the network is single-port" "port model"
run set r4 port all
# node 1 sends the copy it has to 2, and again: 2 receives it twice
printf '\n1 2 0>*\n' >> "$hf"
run run r4 broadcast schedule "file:$hf"
expect_rc 3 "forged: a cable taken twice"
expect_out "link carried two packets" "cable twice"
expect_err "$hf:12: the move of tick 2" "the line blamed"
printf 'txnet-schedule 1\nnetwork ring 4\noperation broadcast\nport-model all-port\nroot 0\ntick 1\n0 2 0>*\n' > "$hf"
run run r4 broadcast schedule "file:$hf"
expect_rc 3 "forged: no cable"
expect_out "no cable" "no cable"
expect_err "$hf:7:" "the line blamed"
printf 'txnet-schedule 1\nnetwork ring 4\noperation broadcast\ntick 1\n' > "$hf"
run run r4 broadcast schedule "file:$hf"
expect_rc 1 "a header short of its port model"
expect_err "$hf:4: the first tick before the header's port-model" "header"
run run l6 prefix-sum save "$sf"
expect_rc 2 "save of a prefix sum"
expect_err "cannot name the moves of a prefix or data sum" "prefix sum"
run destroy l6
run destroy r4
[ "$(cat /sys/module/txnet/parameters/mem_used)" = "$used" ] ||
	bad="$bad [mem_used $(cat /sys/module/txnet/parameters/mem_used) after destroy, was $used]"
rm -f "$sf" "$hf"
result "schedule_files"

# 40: MSCCL algorithms (selftests/msccl/, MSCCL-IR), imported and replayed,
# each verified in the ticks its own structure implies: a ring allgather on
# ring 8, n - 1 = 7 (every chunk n - 1 hops, the ranks in lockstep);
# recursive doubling on hypercube 3, 1 + 2 + 4 = 7 (round k moves 2^k
# chunks over one cable); all pairs on complete 8, 1 (all-port: every
# message over its own cable at once); a binomial reduce on hypercube 3,
# log2 8 = 3 rounds; allreduces as data sums.  n (n - 1) transmissions for
# the allgathers and the alltoall, n - 1 for the reduce.  An algorithm whose ranks lack a cable
# fails at its move, naming the XML line; a collective that is another
# operation, a rank count that is not the network's, and steps that wait
# for each other are refused before anything is sent.
M=$dir/msccl mf=/tmp/txctl-msccl.sched mx=/tmp/txctl-loop.xml
used=$(cat /sys/module/txnet/parameters/mem_used)
msccl_run() { # NET OP FILE STEPS TRANSMISSIONS
	run -j run "$1" "$2" msccl "file:$M/$3"
	expect_rc 0 "$3 on $1"
	[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [$3: not verified]"
	[ "$("$JSON" -g algo < "$out")" = replay ] || bad="$bad [$3: algo $("$JSON" -g algo < "$out")]"
	[ "$("$JSON" -g steps < "$out")" = "$4" ] || bad="$bad [$3: steps $("$JSON" -g steps < "$out"), want $4]"
	[ "$("$JSON" -g transmissions < "$out")" = "$5" ] ||
		bad="$bad [$3: transmissions $("$JSON" -g transmissions < "$out"), want $5]"
	[ "$("$JSON" -g steps < "$out")" -ge "$("$JSON" -g lower_bound < "$out")" ] ||
		bad="$bad [$3: below its bound]"
}
run create ring 8 name m8
run create hypercube 3 name c3
run create complete 8 name k8
msccl_run m8 multinode-broadcast allgather_ring.xml $((8 - 1)) $((8 * 7))
msccl_run c3 multinode-broadcast allgather_recursive_doubling.xml $((1 + 2 + 4)) $((8 * 7))
msccl_run k8 total-exchange alltoall_allpairs.xml 1 $((8 * 7))
msccl_run c3 accumulate reduce_binomial.xml 3 $((8 - 1))
# allreduce as a data sum: recursive doubling, log2 8 = 3 ticks of 8 moves;
# the ring's partial around from 0 to 7 and the sum on around to 6, 2 (n - 1)
msccl_run c3 data-sum allreduce_recursive_doubling.xml 3 $((8 * 3))
msccl_run m8 data-sum allreduce_ring.xml $((2 * (8 - 1))) $((2 * (8 - 1)))
# imported to a file, then replayed as one: the same run
run import msccl "$M/allgather_ring.xml" on ring 8
expect_rc 0 "import on ring 8"
cp "$out" "$mf"
grep -q '^operation multinode-broadcast$' "$mf" || bad="$bad [import header: $(head -c 200 "$mf")]"
[ "$(grep -c '>\*' "$mf")" = $((8 * 7)) ] || bad="$bad [import: $(grep -c '>\*' "$mf") moves, want 56]"
run -j run m8 multinode-broadcast schedule "file:$mf"
expect_rc 0 "the imported file replayed"
[ "$("$JSON" -g steps < "$out")" = 7 ] || bad="$bad [imported file: steps, want 7]"
run import msccl "$M/allgather_ring.xml" on m8
expect_rc 0 "import on a network"
cmp -s "$out" "$mf" || bad="$bad [import on m8 differs from on ring 8]"
# ring 8 has no cable between ranks two apart: the engine fails the move
run run m8 total-exchange msccl "file:$M/alltoall_allpairs.xml"
expect_rc 3 "all pairs on a ring"
expect_out "no cable" "no cable"
expect_err "alltoall_allpairs.xml:[0-9]*: the move of tick 1" "the XML line blamed"
run run m8 total-exchange msccl "file:$M/allgather_ring.xml"
expect_rc 1 "another operation"
expect_err "its collective is txnet's multinode-broadcast, not total-exchange" "operation"
run create ring 6 name m6
run run m6 multinode-broadcast msccl "file:$M/allgather_ring.xml"
expect_rc 1 "ranks not the network's"
expect_err 'ngpus="8", and ring 6 has 6 processors' "ranks"
printf '<algo name="loop" ngpus="2" coll="allgather" inplace="0">\n<gpu id="0" i_chunks="1" o_chunks="2" s_chunks="0">\n<tb id="0" send="1" recv="1" chan="0">\n<step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>\n<step s="1" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>\n</tb></gpu>\n<gpu id="1" i_chunks="1" o_chunks="2" s_chunks="0">\n<tb id="0" send="0" recv="0" chan="0">\n<step s="0" type="r" srcbuf="i" srcoff="0" dstbuf="o" dstoff="0" cnt="1" depid="-1" deps="-1" hasdep="0"/>\n<step s="1" type="s" srcbuf="i" srcoff="0" dstbuf="o" dstoff="1" cnt="1" depid="-1" deps="-1" hasdep="0"/>\n</tb></gpu>\n</algo>\n' > "$mx"
run create linear 2 name m2
run run m2 multinode-broadcast msccl "file:$mx"
expect_rc 1 "a loop of dependencies"
expect_err "$mx:4: steps wait for each other in a loop: rank 0 threadblock 0 step 0 (line 4) waits for rank 1 threadblock 0 step 0 (line 9)" "the loop named"
for n in m8 c3 k8 m6 m2; do run destroy $n; done
[ "$(cat /sys/module/txnet/parameters/mem_used)" = "$used" ] ||
	bad="$bad [mem_used $(cat /sys/module/txnet/parameters/mem_used) after destroy, was $used]"
rm -f "$mf" "$mx"
result "msccl_algorithms"

# 41: sums a dimension after another (dimension-waves).  A data sum takes
# the product's diameter, the sum of its factors': torus 6 6 3 + 3, mesh
# 3 4 2 + 3, ghc 3 4 1 + 1; single-port the same on even rings and
# arrays, torus 4 6 2 + 3, and log2 of a doubled complete factor, complete
# 8: 3.  A prefix sum on ring 9 takes the last processor's eccentricity,
# floor(9/2) = 4, the rest of it coming round the back; on mesh 3 4 the
# last processor's 2 + 3; on torus 6 6 3 + 3, the first ring's up wave
# running on to 5 beside the second's 3 from tick 3.  An odd ring
# single-port is refused by name.
waves() { # NET OP STEPS
	run -j run "$1" "$2" values random:3
	expect_rc 0 "$2 on $1"
	[ "$("$JSON" -g algo < "$out")" = dimension-waves ] || bad="$bad [$1 $2: algo $("$JSON" -g algo < "$out")]"
	[ "$("$JSON" -g verified < "$out")" = true ] || bad="$bad [$1 $2: not verified]"
	[ "$("$JSON" -g steps < "$out")" = "$3" ] || bad="$bad [$1 $2: steps $("$JSON" -g steps < "$out"), want $3]"
	[ "$("$JSON" -g lower_bound < "$out")" = "$3" ] || bad="$bad [$1 $2: bound $("$JSON" -g lower_bound < "$out"), want $3]"
	[ "$("$JSON" -g expected_steps < "$out")" = "$3" ] || bad="$bad [$1 $2: expected_steps]"
}
run create torus 6 6 name w66
run create mesh 3 4 name w34
run create ghc 3 4 name g34
run create torus 4 6 name w46 port single
run create complete 8 name k8 port single
run create ring 9 name r9
waves w66 data-sum $((3 + 3))
waves w34 data-sum $((2 + 3))
waves g34 data-sum $((1 + 1))
waves w46 data-sum $((2 + 3))
waves k8 data-sum 3
waves r9 prefix-sum $((9 / 2))
waves w34 prefix-sum $((2 + 3))
waves w66 prefix-sum $((3 + 3))
run set r9 port single
run run r9 data-sum algo dimension-waves
expect_rc 2 "an odd ring single-port"
expect_err "algo: dimension-waves runs prefix-sum and data-sum on" "refused by name"
for n in w66 w34 g34 w46 k8 r9; do run destroy $n; done
result "dimension_waves"

# 42: the module goes away under a monitor: it says so and exits 2
"$TXCTL" monitor > "$mon" 2>&1 &
mpid=$!
wait_for mon_ready || bad="$bad [monitor never reported the probe network]"
rmmod txnet || bad="$bad [rmmod txnet failed]"
# its exit is the event awaited; the killer is a hang guard, not a timing assumption
( sleep 120; kill "$mpid" 2>/dev/null ) &
guard=$!
wait "$mpid"
mrc=$?
kill "$guard" 2>/dev/null
[ "$mrc" = 2 ] || bad="$bad [monitor exit $mrc after rmmod, want 2]"
grep -q "^Error: txnet was unloaded" "$mon" || bad="$bad [no unload message: $(tail -c 300 "$mon")]"
modprobe txnet || bad="$bad [modprobe txnet failed]"
result "monitor_hears_unload"

finish

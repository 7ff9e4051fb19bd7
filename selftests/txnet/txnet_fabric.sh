#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# txnet_fabric.sh: the live fabric (TXNET_A_NETDEV, kmod/fabric.c).  A 4x4
# torus whose processors are interfaces txfab0..15; some of them moved
# into network namespaces of their own (busybox unshare/nsenter), where
# ping and a TCP transfer cross the fabric; the interfaces' counters; and
# their end with the netns that holds them, with the network, and with
# the module.  POSIX/busybox sh, KTAP output by hand.

TXCTL=${TXCTL:-txctl}
N=0 PASS=0 FAIL=0
bad=
echo "TAP version 13"
echo "1..13"
ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N $1"; }
fail() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N $1"; }
result() {
	if [ -z "$bad" ]; then ok "$1"; else echo "# $1: $bad"; fail "$1"; fi
	bad=
}
# dev_stat N FIELD: processor N's interface counter, from /proc/net/dev in
# its netns (sysfs shows the netns it was mounted in): FIELD 2 rx_packets,
# 4 rx_dropped, 10 tx_packets, 12 tx_dropped
dev_stat() {
	in_ns "$1" cat /proc/net/dev | awk -v d="txfab$1:" -v f="$2" '
		{ sub(/:/, ": ") } $1 == d { print $(f + 1) }'
}
# wait_for CMD...: run CMD every 0.1 s until it succeeds, at most 600 times
# (a hang guard: what is awaited is the event, not a time)
wait_for() {
	i=0
	while ! "$@"; do
		i=$((i + 1)); [ $i -ge 600 ] && return 1
		sleep 0.1
	done
}
own_ns() { [ "$(readlink "/proc/$1/ns/net")" != "$(readlink /proc/self/ns/net)" ]; }
# ns N: a network namespace for processor N, held by a sleeping process
pids=
ns() {
	unshare -n sleep 100000 &
	eval "ns_$1=$!"
	pids="$pids $!"
	wait_for own_ns $! || bad="$bad [no netns for $1]"
}
in_ns() { # N CMD...: CMD in processor N's namespace
	n=$1; shift
	eval "nsenter -t \$ns_$n -n \"\$@\""
}
# processor N: moved into its namespace as 10.0.0.(N+1)/24, up
join() {
	ns "$1"
	eval "ip link set txfab$1 netns \$ns_$1" || bad="$bad [txfab$1 not moved]"
	# no IPv6 chatter (router solicitations, MLD): the frames counted are the test's
	in_ns "$1" sysctl -qw "net.ipv6.conf.txfab$1.disable_ipv6=1" 2> /dev/null
	in_ns "$1" ip addr add "10.0.0.$(($1 + 1))/24" dev "txfab$1"
	in_ns "$1" ip link set "txfab$1" up
	in_ns "$1" ip link set lo up
}

# 1: one interface a processor, MACs naming it (02:74:<net id>:<processor>), MTU up to the payload limit
"$TXCTL" create torus 4 4 name fab netdev tick-ns 1000000 > /dev/null || bad="$bad [create failed]"
id=$(cat /sys/kernel/txnet/fab/id)
n=0
while [ $n -lt 16 ]; do
	mac=$(cat "/sys/class/net/txfab$n/address" 2>/dev/null)
	want=$(printf '02:74:%02x:00:00:%02x' $((id % 256)) $n)
	[ "$mac" = "$want" ] || bad="$bad [txfab$n: address '$mac', want $want]"
	n=$((n + 1))
done
[ "$(cat /sys/class/net/txfab0/mtu)" = 1500 ] || bad="$bad [mtu $(cat /sys/class/net/txfab0/mtu)]"
ip link set txfab1 mtu 4082 || bad="$bad [mtu 4082 (4096 - 14) refused]"
ip link set txfab1 mtu 4083 2>/dev/null && bad="$bad [mtu 4083 accepted]"
ip link set txfab1 mtu 1500
"$TXCTL" show fab | grep -q " netdev " || bad="$bad [show lacks netdev: $("$TXCTL" show fab)]"
result "an_interface_per_processor"

# 2: ping across the fabric.  Processor 0 is (0,0), 5 is (1,1), 10 is
# (2,2): 2 and 4 hops away.  A round trip is 2 x hops ticks of the
# network's own, each hop one: the network's tick counter advances at
# least that much, less the last tick (counted once the frames it moved
# are handed to the stack), while one ping waits for its reply: 2 x hops
# - 1.  Counted, not timed: a late host delays ticks, or runs late ones
# back to back, and neither changes the count.  -W 600 waits for replies as long as any other hang
# guard here: a slow host delays them, it must not lose them.
join 0; join 5; join 10; join 15
out=/tmp/txnet_fabric.$$
# ping_ticks N IP: the ticks the network advanced while N pinged IP once; empty without a reply
ping_ticks() {
	t0=$(cat /sys/kernel/txnet/fab/ticks)
	if in_ns "$1" ping -c 1 -W 600 "$2" > "$out" 2>&1; then
		echo $(($(cat /sys/kernel/txnet/fab/ticks) - t0))
	fi
}
for k in 1 2 3; do
	m=$(ping_ticks 0 10.0.0.6)
	[ -n "$m" ] && [ "$m" -ge 3 ] || bad="$bad [0 -> 5: '$m' ticks, under 2 x 2 - 1: $(tail -n 2 "$out")]"
	m=$(ping_ticks 0 10.0.0.11)
	[ -n "$m" ] && [ "$m" -ge 7 ] || bad="$bad [0 -> 10: '$m' ticks, under 2 x 4 - 1: $(tail -n 2 "$out")]"
done
result "ping_across_the_fabric"

# 3: the counters: what 0 sent, 10 received (ARP and pings, at least the 3 echoes)
tx=$(dev_stat 0 10)
rx=$(dev_stat 10 2)
[ "${tx:-0}" -ge 6 ] || bad="$bad [txfab0 tx_packets '$tx']"
[ "${rx:-0}" -ge 3 ] || bad="$bad [txfab10 rx_packets '$rx']"
# A broadcast runs down the tree out of its sender: on a 4x4 torus of its
# own, with one interface up (no IPv6, so nothing else is sent), one UDP
# datagram to 10.1.0.255 is 15 hops, one a processor but its sender,
# where a copy to each would travel their distances from it, 32 hops
# (4 x 1 + 6 x 2 + 4 x 3 + 1 x 4).  Counted on the fabric's hops.
if command -v python3 > /dev/null 2>&1; then
	"$TXCTL" create torus 4 4 name bc netdev tick-ns 1000000 > /dev/null || bad="$bad [create bc]"
	unshare -n sleep 100000 &
	bpid=$!
	wait_for own_ns $bpid || bad="$bad [no netns for bc]"
	ip link set txbc0 netns $bpid
	nsenter -t $bpid -n sysctl -qw net.ipv6.conf.txbc0.disable_ipv6=1 2> /dev/null
	nsenter -t $bpid -n ip addr add 10.1.0.1/24 brd 10.1.0.255 dev txbc0
	nsenter -t $bpid -n ip link set txbc0 up
	bhops() { "$TXCTL" show bc | sed -n 's/.* fabric-hops \([0-9]*\).*/\1/p'; }
	h0=$(bhops)
	nsenter -t $bpid -n python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.sendto(b"all", ("10.1.0.255", 9))
' || bad="$bad [the broadcast was not sent]"
	tree_done() { [ "$(bhops)" -ge $((h0 + 15)) ]; }
	wait_for tree_done || bad="$bad [the broadcast took $(($(bhops) - h0)) hops]"
	d=$(($(bhops) - h0))
	[ "$d" = 15 ] || bad="$bad [$d hops for one broadcast: not the tree's 15]"
	kill $bpid
	"$TXCTL" destroy bc
fi
result "interface_counters_and_broadcast_tree"

# 4: TCP across the torus, corner to corner (0 to 15, (3,3)), free-running:
# 2 MB arrive intact.  python3's sockets, where the guest has it (busybox
# nc ends a connection at its input's end, before the data is through).
if command -v python3 > /dev/null 2>&1; then
	"$TXCTL" set fab tick-ns 0 > /dev/null
	dd if=/dev/urandom of="$out.in" bs=1024 count=2048 2>/dev/null
	in_ns 15 python3 -c '
import hashlib, socket, sys
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("0.0.0.0", 9000))
s.listen(1)
open(sys.argv[1], "w").close()
c, _ = s.accept()
h, n = hashlib.md5(), 0
while True:
    d = c.recv(65536)
    if not d:
        break
    h.update(d)
    n += len(d)
c.sendall(b"k")
print(n, h.hexdigest())
' "$out.ready" > "$out.got" &
	lpid=$!
	ready() { [ -e "$out.ready" ]; }
	wait_for ready || bad="$bad [nothing listens on 15]"
	# a hang guard, not a timing assumption: the transfer's end is what is awaited
	( sleep 300; kill $lpid 2>/dev/null ) &
	guard=$!
	# the ticks read outside the counters' reads: dt covers every tick
	# in which the links counted a frame
	t0=$(cat /sys/kernel/txnet/fab/ticks)
	"$TXCTL" show fab links all > "$out.l0"
	in_ns 0 python3 -c '
import socket, sys
s = socket.create_connection(("10.0.0.16", 9000))
s.sendall(open(sys.argv[1], "rb").read())
s.shutdown(socket.SHUT_WR)
s.recv(1)
' "$out.in" || bad="$bad [the client failed]"
	wait $lpid
	kill $guard 2>/dev/null
	"$TXCTL" show fab links all > "$out.l1"
	t1=$(cat /sys/kernel/txnet/fab/ticks)
	want="2097152 $(md5sum < "$out.in" | cut -d' ' -f1)"
	[ "$(cat "$out.got")" = "$want" ] || bad="$bad [received '$(cat "$out.got")', sent '$want']"
	# The model's limit, from the per-link counters: no link carried more
	# than one frame a tick; so 15, with 4 links in, took at most 4 frames of
	# at most 4096 bytes a tick.
	over=$(awk -v dt=$((t1 - t0)) 'NR == FNR { if ($2 == "hops") h[$1] = $3; next }
		$2 == "hops" && $3 - h[$1] > dt { print $1 ": " $3 - h[$1] " frames in " dt " ticks" }' \
		"$out.l0" "$out.l1")
	[ -z "$over" ] || bad="$bad [a link carried more than a frame a tick: $over]"
	busiest=$(awk 'NR == FNR { if ($2 == "hops") h[$1] = $3; next }
		$2 == "hops" && $3 - h[$1] > m { m = $3 - h[$1] } END { print m + 0 }' "$out.l0" "$out.l1")
	[ "$busiest" -gt 0 ] || bad="$bad [no link carried the transfer: $(head -n 3 "$out.l1")]"
	[ $((2097152 / (t1 - t0 + 1))) -le $((4 * 4096)) ] || bad="$bad [2 MB in $((t1 - t0)) ticks: more than 4 frames a tick into 15]"
	echo "# tcp: 2 MB in $((t1 - t0)) ticks, $((2097152 / (t1 - t0 + 1))) bytes a tick; busiest link $busiest frames"
	rm -f "$out.in" "$out.got" "$out.ready" "$out.l0" "$out.l1"
	result "tcp_across_the_fabric"
else
	N=$((N + 1)); echo "ok $N tcp_across_the_fabric # SKIP no python3 in this guest"
fi

# 4b: IPv6 link-local across the fabric, where the kernel has IPv6: 3 and
# 12 in namespaces of their own with IPv6 left on find each other's
# address (neighbour discovery: multicast, the fabric's broadcast) and ping
# it by fe80::...%txfab3, as any program on a link would
if [ -d /proc/sys/net/ipv6 ]; then
	"$TXCTL" set fab tick-ns 1000000 > /dev/null
	for p in 3 12; do
		ns "$p"
		eval "ip link set txfab$p netns \$ns_$p" || bad="$bad [txfab$p not moved]"
		in_ns "$p" ip link set "txfab$p" up
	done
	# the address is usable once duplicate address detection is through
	ll12() { in_ns 12 ip -6 addr show dev txfab12 scope link | sed -n 's/.*inet6 \(fe80::[0-9a-f:]*\)\/64 .*/\1/p'; }
	dad_done() { [ -n "$(ll12)" ] && ! in_ns 12 ip -6 addr show dev txfab12 | grep -q tentative &&
		! in_ns 3 ip -6 addr show dev txfab3 | grep -q tentative; }
	wait_for dad_done || bad="$bad [no link-local address on txfab12: $(in_ns 12 ip -6 addr show dev txfab12)]"
	in_ns 3 ping -c 1 -W 600 "$(ll12)%txfab3" > "$out" 2>&1 ||
		in_ns 3 ping6 -c 1 -W 600 "$(ll12)%txfab3" > "$out" 2>&1 ||
		bad="$bad [ping $(ll12)%txfab3: $(tail -n 2 "$out")]"
	result "ipv6_link_local"
else
	N=$((N + 1)); echo "ok $N ipv6_link_local # SKIP no IPv6 in this kernel"
fi

# 5: faults under the interfaces.  Cables 0-1 and 0-4 cut: 0's ways out
# are round the torus only, and 5 is 4 hops away (0-3-7-4-5, 0-12-13-1-5)
# instead of 2: a round trip counts at least 2 x 4 - 1 = 7 ticks (2 hops:
# 3, as test 2 counts).  Node 10
# down: its interface loses its carrier, nothing reaches it; back up, it
# has its carrier and answers again.  The per-link counters say where the
# frames went.
"$TXCTL" set fab tick-ns 1000000 > /dev/null
"$TXCTL" link fab down 0 1 || bad="$bad [link down 0 1 refused]"
"$TXCTL" link fab down 4 0 || bad="$bad [link down 4 0 refused]"
"$TXCTL" show fab | grep -q "links-down 0-1 0-4" || bad="$bad [show: $("$TXCTL" show fab)]"
# the per-link counters (txctl show NET links): the links cut carry nothing
# more, their state down; 0's frames leave by 0-3 and 0-12 instead
lhops() { "$TXCTL" show fab links all | sed -n "s/^  $1-$2 hops \([0-9]*\).*/\1/p"; }
"$TXCTL" show fab links | grep -q "^  0-1 hops [0-9]* down$" || bad="$bad [links: $("$TXCTL" show fab links)]"
cut0=$(($(lhops 0 1) + $(lhops 1 0) + $(lhops 0 4) + $(lhops 4 0)))
out0=$(($(lhops 0 3) + $(lhops 0 12)))
for k in 1 2 3; do
	m=$(ping_ticks 0 10.0.0.6)
	[ -n "$m" ] && [ "$m" -ge 7 ] || bad="$bad [0 -> 5 around the cut: '$m' ticks, under 2 x 4 - 1: $(tail -n 2 "$out")]"
done
cut1=$(($(lhops 0 1) + $(lhops 1 0) + $(lhops 0 4) + $(lhops 4 0)))
out1=$(($(lhops 0 3) + $(lhops 0 12)))
[ "$cut1" = "$cut0" ] || bad="$bad [links cut carried $((cut1 - cut0)) frames]"
[ "$out1" -ge $((out0 + 3)) ] || bad="$bad [0-3 and 0-12 carried $((out1 - out0)) frames for 3 echo requests]"
"$TXCTL" node fab down 10 || bad="$bad [node down 10 refused]"
no_carrier() { in_ns 10 ip link show txfab10 | grep -q NO-CARRIER; }
wait_for no_carrier || bad="$bad [txfab10 kept its carrier: $(in_ns 10 ip link show txfab10)]"
"$TXCTL" show fab | grep -q "nodes-down 10" || bad="$bad [show lacks nodes-down 10]"
# no reply can come: the exit status is the test
in_ns 0 ping -c 2 -W 2 10.0.0.11 > /dev/null 2>&1 && bad="$bad [node 10 answered while down]"
"$TXCTL" node fab up 10 || bad="$bad [node up 10 refused]"
carrier() { ! no_carrier; }
wait_for carrier || bad="$bad [txfab10 has no carrier once up]"
in_ns 0 ping -c 1 -W 600 10.0.0.11 > /dev/null 2>&1 || bad="$bad [10 does not answer once up]"
"$TXCTL" link fab up 0 1 && "$TXCTL" link fab up 0 4 || bad="$bad [links up refused]"
"$TXCTL" show fab | head -n 1 | grep -q "links-down" && bad="$bad [links still down: $("$TXCTL" show fab)]"
in_ns 0 ping -c 1 -W 600 10.0.0.6 > /dev/null 2>&1 || bad="$bad [0 -> 5 once the links are up]"
# the counters agree: the links' hops add up to the fabric's (no port
# packet has crossed this network: all are frames).  Frames may still be
# moving (IPv6's own, a late reply), so the sum counts only when
# fabric-hops is the same before and after it: nothing moved meanwhile.
fhops() { "$TXCTL" show fab | sed -n 's/.* fabric-hops \([0-9]*\).*/\1/p'; }
still() {
	fh=$(fhops)
	lsum=$("$TXCTL" show fab links all | awk '$2 == "hops" { s += $3 } END { print s + 0 }')
	[ "$(fhops)" = "$fh" ]
}
wait_for still || bad="$bad [fabric-hops never still: $fh]"
[ "$lsum" -gt 0 ] && [ "$lsum" = "$fh" ] || bad="$bad [links' hops add up to $lsum, fabric-hops $fh]"
result "links_and_nodes_down_under_traffic"

# 6: runs and faults, from the start and mid-run, on networks of their
# own (no interface traffic to share them with).  The shortest-path schedule routes a total exchange
# around a cut cable and verifies it; [Dimakopoulos98]'s a2 is a fixed schedule:
# it fails at once, naming the link.  Refusals name what is wrong.
"$TXCTL" create torus 4 4 name flt > /dev/null || bad="$bad [create flt]"
"$TXCTL" link flt down 0 1
"$TXCTL" run flt total-exchange > "$out" 2>&1 || bad="$bad [run around the cut: $(cat "$out")]"
# auto, which is a3 ([Dimakopoulos98]) on the whole 4x4 torus, takes the schedule that reroutes
grep -q "total-exchange shortest-path" "$out" || bad="$bad [auto with a cable cut: $(cat "$out")]"
grep -q "verified yes" "$out" || bad="$bad [not verified: $(cat "$out")]"
# built around the cut from the start: links down, nothing rerouted mid-run
grep -q "links-down 2" "$out" || bad="$bad [the links down are not reported: $(cat "$out")]"
grep -q "links-down 2 reroutes 0" "$out" || bad="$bad [a run built around the cut reports a reroute: $(cat "$out")]"
# the trees of broadcasts and sums are searched around it too.  All-port,
# the shortest-path broadcast takes its root's eccentricity (sched_general.c,
# its header): on a ring of 8 cut at 0-1, from 0 the long way round to 1,
# 7 ticks, where the same run on the whole ring (fault-free-ticks) takes 4
"$TXCTL" create ring 8 name frg > /dev/null || bad="$bad [create frg]"
"$TXCTL" link frg down 0 1
for op in broadcast accumulate multinode-broadcast data-sum prefix-sum; do
	"$TXCTL" run frg $op > "$out" 2>&1 || bad="$bad [$op around the cut: $(cat "$out")]"
	grep -q "verified yes" "$out" || bad="$bad [$op not verified: $(cat "$out")]"
done
"$TXCTL" run frg broadcast > "$out" 2>&1
grep -q " steps 7 .* fault-free-ticks 4" "$out" || bad="$bad [broadcast around the cut on a ring of 8: $(cat "$out")]"
"$TXCTL" destroy frg
"$TXCTL" run flt total-exchange algo a2 > "$out" 2>&1 && bad="$bad [a2 ran over a cut cable]"
grep -q "cannot route around it" "$out" || bad="$bad [a2's failure: $(cat "$out")]"
grep -Eq "link (0-1|1-0)" "$out" || bad="$bad [the failure does not name the link: $(cat "$out")]"
"$TXCTL" link flt up 0 1
"$TXCTL" link flt down 0 10 > "$out" 2>&1; st=$?
[ $st = 2 ] && grep -q "no link joins" "$out" || bad="$bad [0-10 is no cable: status $st, $(cat "$out")]"
"$TXCTL" node flt down 16 > "$out" 2>&1 && bad="$bad [node 16 of 16 accepted]"
grep -q "not a processor" "$out" || bad="$bad [node 16: $(cat "$out")]"
"$TXCTL" link flt sideways 0 1 > "$out" 2>&1; st=$?
[ $st = 1 ] || bad="$bad [state sideways: status $st]"
"$TXCTL" show flt | head -n 1 | grep -q "links-down\|nodes-down" && bad="$bad [a refused request left a fault: $("$TXCTL" show flt)]"
"$TXCTL" destroy flt
# Mid-run, on an 8x8 torus paced at 1 s a tick: no total exchange there
# ends in under 64 ticks (the cut bound k^3/8, [Dimakopoulos98] section 3), so
# none ends during the test, however slow the host.  The cable is cut
# while it runs; two ticks later the run has heard (a tick reads the
# faults as it starts).  Shortest-path is stopped then, and its result
# counts the reroute; a2 fails at the tick after the cut, naming the link.
"$TXCTL" create torus 8 8 name flt tick-ns 1000000000 > /dev/null || bad="$bad [create flt 8x8]"
two_ticks_on() { [ "$(cat /sys/kernel/txnet/flt/ticks)" -ge $((t0 + 2)) ]; }
idle() { [ "$(cat /sys/kernel/txnet/flt/state)" = idle ]; }
"$TXCTL" run flt total-exchange algo shortest-path --no-wait > /dev/null || bad="$bad [paced run]"
"$TXCTL" link flt down 9 10
t0=$(cat /sys/kernel/txnet/flt/ticks)
wait_for two_ticks_on || bad="$bad [the paced run does not tick]"
"$TXCTL" stop flt
wait_for idle || bad="$bad [the stopped run does not end]"
"$TXCTL" show flt > "$out"
grep -q "stopped" "$out" && grep -q "links-down 2 reroutes 1" "$out" || bad="$bad [mid-run reroute: $(cat "$out")]"
"$TXCTL" link flt up 9 10
"$TXCTL" run flt total-exchange algo a2 --no-wait > /dev/null || bad="$bad [paced a2]"
"$TXCTL" link flt down 9 10
wait_for idle || bad="$bad [a2 does not fail]"
"$TXCTL" show flt > "$out"
grep -q "cannot route around it" "$out" && grep -Eq "link (9-10|10-9)" "$out" || bad="$bad [a2 mid-run: $(cat "$out")]"
# A multinode broadcast mends its trees mid-run: on the 8x8 torus paced at
# 0.5 s it takes at least 16 ticks (63 messages into 4 links each), 8 s,
# so the cable is normally cut while it runs; it ends verified, one
# reroute, and says what the same run took uncut.  Whenever the cut comes
# (a host stalled past the run's end), the run is verified, and a cut it
# heard is reported with its reroute: nothing here depends on the host's
# speed (the host test general_trees_mend_mid_run cuts at fixed ticks).
"$TXCTL" link flt up 9 10
"$TXCTL" set flt tick-ns 500000000 > /dev/null
"$TXCTL" run flt multinode-broadcast --no-wait > /dev/null || bad="$bad [paced multinode broadcast]"
"$TXCTL" link flt down 9 10
wait_for idle || bad="$bad [the multinode broadcast does not end]"
"$TXCTL" show flt > "$out"
grep -q "multinode-broadcast shortest-path .* verified yes" "$out" || bad="$bad [multinode broadcast with a cut: $(cat "$out")]"
if grep -q "links-down 2" "$out"; then
	grep -q "links-down 2 reroutes 1 fault-free-ticks" "$out" || bad="$bad [multinode broadcast mended mid-run: $(cat "$out")]"
else
	echo "# the cut came after the multinode broadcast ended: its mend not exercised here"
fi
"$TXCTL" destroy flt
result "runs_around_faults"

# 7: a netns that ends takes its interface with it (it is not sent back
# to the first netns), and the network keeps the rest: frames 0 sends to
# 15 (its MAC still in 0's neighbour cache) then count as 0's tx_dropped
kill $ns_15
dropped=$(dev_stat 0 12)
# the netns is cleaned up by a workqueue: its interface's end is awaited
# where it shows, in the frames the fabric can no longer deliver
lost_15() {
	# one probe a try (no reply can come): its exit status is not the test
	in_ns 0 ping -c 1 -W 1 10.0.0.16 > /dev/null 2>&1
	[ "$(dev_stat 0 12)" -gt "$dropped" ]
}
wait_for lost_15 || bad="$bad [frames to 15 still delivered after its netns ended]"
ip link show txfab15 > /dev/null 2>&1 && bad="$bad [txfab15 came back to the first netns]"
[ -e /sys/kernel/txnet/fab ] || bad="$bad [the network went with the netns]"
in_ns 0 ping -c 1 -W 600 10.0.0.6 > /dev/null 2>&1 || bad="$bad [0 -> 5 after 15's netns ended]"
result "netns_exit_deletes_its_interface"

# 8: destroying the network removes its interfaces, in every netns
"$TXCTL" destroy fab || bad="$bad [destroy failed]"
in_ns 5 ip link 2>/dev/null | grep -q txfab && bad="$bad [txfab5 left in its netns]"
ls /sys/class/net | grep -q txfab && bad="$bad [interfaces left: $(ls /sys/class/net | grep txfab)]"
for p in $pids; do kill "$p" 2>/dev/null; done
result "destroy_removes_the_interfaces"

# 9: bad requests leave nothing behind (tx + a 14-character name + a digit
# passes IFNAMSIZ - 1 = 15; two networks whose names clash); rmmod takes
# the interfaces along
"$TXCTL" create ring 4 name abcdefghijklmn netdev > "$out" 2>&1 && bad="$bad [a name too long for its interfaces was accepted]"
grep -q "netdev" "$out" || bad="$bad [the error does not name netdev: $(cat "$out")]"
[ -e /sys/kernel/txnet/abcdefghijklmn ] && bad="$bad [the refused network exists]"
# f's txf10 and txf11 are f1's processors 0 and 1 too
"$TXCTL" create ring 12 name f netdev > /dev/null
"$TXCTL" create ring 2 name f1 netdev > "$out" 2>&1 && bad="$bad [txf10 twice was accepted]"
grep -q "exists" "$out" || bad="$bad [clash: $(cat "$out")]"
[ -e /sys/kernel/txnet/f1 ] && bad="$bad [the clashing network exists]"
"$TXCTL" create ring 257 name big netdev > "$out" 2>&1 && bad="$bad [257 interfaces (TXNET_NETDEV_MAX_NODES 256) accepted]"
grep -q "netdev" "$out" || bad="$bad [257: $(cat "$out")]"
[ -e /sys/kernel/txnet/big ] && bad="$bad [the refused 257 exists]"
# rmmod with traffic in flight: a tick a second, port packets sent and a
# broadcast frame from txr0, the only way to 10.2.0.255 (nothing arrives
# before the next tick)
"$TXCTL" create ring 5 name r netdev tick-ns 1000000000 > /dev/null
ip addr add 10.2.0.1/24 brd 10.2.0.255 dev txr0
ip link set txr0 up
for k in 1 2 3; do "$TXCTL" send r 0 2 "in flight $k" > /dev/null || bad="$bad [send $k]"; done
if command -v python3 > /dev/null 2>&1; then
	python3 -c '
import socket
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
s.setsockopt(socket.SOL_SOCKET, socket.SO_BROADCAST, 1)
s.sendto(b"in flight", ("10.2.0.255", 9))
' || bad="$bad [the frame was not sent]"
fi
rmmod txnet || bad="$bad [rmmod failed]"
ls /sys/class/net | grep -q 'txf\|txr' && bad="$bad [interfaces left after rmmod: $(ls /sys/class/net)]"
modprobe txnet || bad="$bad [modprobe failed]"
rm -f "$out"
result "refusals_and_rmmod"

# 10: interfaces for a network that has none: set NET netdev on, once;
# they cannot be taken away but with the network; refusals leave none
"$TXCTL" create ring 4 name sn > /dev/null || bad="$bad [create sn]"
"$TXCTL" set sn netdev on || bad="$bad [netdev on refused]"
n=0
while [ $n -lt 4 ]; do
	[ -e "/sys/class/net/txsn$n" ] || bad="$bad [no txsn$n]"
	n=$((n + 1))
done
"$TXCTL" show sn | grep -q " netdev " || bad="$bad [show lacks netdev]"
"$TXCTL" set sn netdev on || bad="$bad [netdev on twice refused]"
"$TXCTL" set sn netdev off > "$out" 2>&1; st=$?
[ $st = 2 ] && grep -q "netdev" "$out" || bad="$bad [netdev off: status $st, $(cat "$out")]"
[ -e /sys/class/net/txsn0 ] || bad="$bad [netdev off took the interfaces]"
"$TXCTL" set sn netdev sideways > /dev/null 2>&1; st=$?
[ $st = 1 ] || bad="$bad [netdev sideways: status $st]"
"$TXCTL" create ring 300 name sb > /dev/null || bad="$bad [create sb]"
"$TXCTL" set sb netdev on > "$out" 2>&1 && bad="$bad [300 interfaces accepted]"
grep -q "256" "$out" || bad="$bad [300: $(cat "$out")]"
ls /sys/class/net | grep -q txsb && bad="$bad [a refused netdev left interfaces]"
"$TXCTL" destroy sb
"$TXCTL" destroy sn || bad="$bad [destroy sn]"
ls /sys/class/net | grep -q txsn && bad="$bad [txsn left after destroy]"
rm -f "$out"
result "set_netdev_on"

# 11: across a dragonfly (Documentation/txnet-topologies.rst).  dragonfly
# 2 2 1: 3 groups of 2 routers (vertices 12 .. 17), 2 processors a router.
# Processor 0 is on router 0 (group 0), 11 on router 5 (group 2); group
# 0's cable to group 2 is its global port 1, on router 1, and lands on
# group 2's router 4: 0 -> 12 -> 13 -> 16 -> 17 -> 11, 5 hops, so a ping's
# round trip takes at least 2 x 5 - 1 ticks (counted as in 2).  With that
# cable cut a total exchange goes round by group 1 and still verifies.
"$TXCTL" create dragonfly 2 2 1 name dfy netdev tick-ns 1000000 > /dev/null || bad="$bad [create dfy]"
for v in 0 11; do
	ns "d$v"
	eval "ip link set txdfy$v netns \$ns_d$v" || bad="$bad [txdfy$v not moved]"
	in_ns "d$v" sysctl -qw "net.ipv6.conf.txdfy$v.disable_ipv6=1" 2> /dev/null
	in_ns "d$v" ip addr add "10.3.0.$((v + 1))/24" dev "txdfy$v"
	in_ns "d$v" ip link set "txdfy$v" up
done
t0=$(cat /sys/kernel/txnet/dfy/ticks)
if in_ns d0 ping -c 1 -W 600 10.3.0.12 > "$out" 2>&1; then
	m=$(($(cat /sys/kernel/txnet/dfy/ticks) - t0))
	[ "$m" -ge 9 ] || bad="$bad [0 -> 11 across the dragonfly: $m ticks, under 2 x 5 - 1]"
else
	bad="$bad [no reply across the dragonfly: $(tail -n 2 "$out")]"
fi
"$TXCTL" destroy dfy || bad="$bad [destroy dfy]"
for p in $pids; do kill "$p" 2>/dev/null; done
"$TXCTL" create dragonfly 2 2 1 name dfc > /dev/null || bad="$bad [create dfc]"
"$TXCTL" link dfc down 13 16 || bad="$bad [the cable 13-16 is not a cable]"
"$TXCTL" run dfc total-exchange > "$out" 2>&1 || bad="$bad [total exchange around the cut: $(cat "$out")]"
grep -q "verified yes" "$out" || bad="$bad [not verified around the cut: $(cat "$out")]"
"$TXCTL" link dfc down 13 17 > "$out" 2>&1 && bad="$bad [13-17 (two groups' routers, no cable) accepted]"
"$TXCTL" destroy dfc
rm -f "$out"
result "across_a_dragonfly"

# 12: across a graph from a file (Documentation/txnet-topologies.rst,
# "Graphs from files"): four routers in a ring, a node on each; node k is
# processor k, router k vertex 4 + k.  Processor 0 to processor 2 is 4
# hops either way round (0 -> 4 -> 5 -> 6 -> 2), so a ping's round trip
# takes at least 2 x 4 - 1 ticks (counted as in 2).  With the cable 4-5
# cut a total exchange goes round by router 3 and still verifies.
gf=/tmp/txnet-fabric-ring.net
printf 'router 0 node 0 router 1\nrouter 1 node 1 router 2\nrouter 2 node 2 router 3\nrouter 3 node 3 router 0\n' > "$gf"
"$TXCTL" create graph "file:$gf" name gfy netdev tick-ns 1000000 > /dev/null || bad="$bad [create gfy]"
for v in 0 2; do
	ns "g$v"
	eval "ip link set txgfy$v netns \$ns_g$v" || bad="$bad [txgfy$v not moved]"
	in_ns "g$v" sysctl -qw "net.ipv6.conf.txgfy$v.disable_ipv6=1" 2> /dev/null
	in_ns "g$v" ip addr add "10.4.0.$((v + 1))/24" dev "txgfy$v"
	in_ns "g$v" ip link set "txgfy$v" up
done
t0=$(cat /sys/kernel/txnet/gfy/ticks)
if in_ns g0 ping -c 1 -W 600 10.4.0.3 > "$out" 2>&1; then
	m=$(($(cat /sys/kernel/txnet/gfy/ticks) - t0))
	[ "$m" -ge 7 ] || bad="$bad [0 -> 2 across the graph: $m ticks, under 2 x 4 - 1]"
else
	bad="$bad [no reply across the graph: $(tail -n 2 "$out")]"
fi
"$TXCTL" destroy gfy || bad="$bad [destroy gfy]"
for p in $pids; do kill "$p" 2>/dev/null; done
"$TXCTL" create graph "file:$gf" name gfc > /dev/null || bad="$bad [create gfc]"
"$TXCTL" link gfc down 4 5 || bad="$bad [the cable 4-5 is not a cable]"
"$TXCTL" run gfc total-exchange > "$out" 2>&1 || bad="$bad [total exchange around the cut: $(cat "$out")]"
grep -q "verified yes" "$out" || bad="$bad [not verified around the cut: $(cat "$out")]"
"$TXCTL" link gfc down 4 6 > "$out" 2>&1 && bad="$bad [4-6 (no cable) accepted]"
"$TXCTL" destroy gfc
rm -f "$out" "$gf"
result "across_a_file_graph"

echo "# Totals: pass:$PASS fail:$FAIL xfail:0 xpass:0 skip:0 error:0"
[ "$FAIL" = 0 ]

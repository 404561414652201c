#!/usr/bin/env bash
# deploy_frr.sh — moore's fabric on a real BGP stack (docs/deploy-ethernet.md):
# `moore deploy slimfly:q=3 --frr` configures 18 FRR routers (zebra + bgpd,
# one network namespace each, a veth pair per cable, by scripts/twin.sh);
# within a bounded time the kernel's ECMP next-hop set toward every server
# prefix, at every switch, equals moore's ECMP next hops. Then one cable is
# taken down: after re-convergence the tables equal moore's ECMP of the graph
# without that link (an edge list written independently of the twin), and
# brought back: the original tables return. The trap removes every
# namespace and daemon the test made (twin.sh down kills all processes in
# them).
#   bash deploy_frr.sh <path-to-moore> <source-dir>
# Exit 77 (skipped) when not root or FRR, jq or ip is missing.
. "$(dirname "$0")/cli.bash" "$@"
. "$(dirname "$0")/twin.bash"
twin_setup deploy_frr mf /usr/lib/frr/zebra
"$MOORE" deploy slimfly:q=3 --frr "$D" --ns-prefix "$P" >/dev/null
check "18 FRR routers up" timeout -k 5 150 bash "$TWIN" up "$D"
check "converged within 60 s: every switch's next hops = moore's ECMP" \
    timeout -k 5 90 bash "$TWIN" check "$D" --wait 60

# Switch 0's first cable: interface, and the switch at its far end.
if=$(jq -r '.switches[0].interfaces[0].name' "$D/twin.json")
peer=$(jq -r '.switches[0].interfaces[0].peer' "$D/twin.json")
"$MOORE" build slimfly:q=3 | grep -v '^# \(family\|params\|links\)' |
    awk -v v="$peer" '!($1 == 0 && $2 == v)' >"$TMP/cut.txt"
check "the cut graph lost exactly one link" \
    test "$(grep -vc '^#' "$TMP/cut.txt")" = 44
"$MOORE" deploy "$TMP/cut.txt" --static "$TMP/cut" >/dev/null
ip -n "${P}s0" link set "$if" down
check "link 0-$peer down: tables = moore's ECMP without that link" \
    timeout -k 5 90 bash "$TWIN" check "$D" --wait 60 --expect "$TMP/cut/ecmp.txt"
check "link 0-$peer down: switch 0 still pings switch $peer's servers' gateway" \
    ip netns exec "${P}s0" ping -c1 -W2 -I 10.0.0.1 "10.128.$peer.1"
ip -n "${P}s0" link set "$if" up
check "link back up: the original tables" timeout -k 5 90 bash "$TWIN" check "$D" --wait 60
check "down" timeout -k 5 60 bash "$TWIN" down "$D"
check "no namespace left" test -z "$(ip netns list | grep "^$P")"
summary deploy_frr

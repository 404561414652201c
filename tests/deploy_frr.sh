#!/usr/bin/env bash
# deploy_frr.sh — moore's fabrics on a real BGP stack (docs/deploy-ethernet.md):
# `moore deploy TOPO --frr` configures FRR routers (zebra + bgpd, one network
# namespace each, a veth pair per cable, by scripts/twin.sh) for three
# fabrics, run side by side (separate namespaces) to save wall time:
#   slimfly:q=3             18 routers, one ASN each
#   petersen                10 routers, one ASN each
#   clos:radix=6,endpoints=12  7 routers, RFC 7938 tiers (the 3 spines share an ASN)
# Within a bounded time the kernel's ECMP next-hop set toward every server
# prefix, at every switch, equals moore's ECMP next hops. Then switch 0's first
# cable is taken down: after re-convergence the tables equal moore's ECMP of
# the graph without that link (an edge list written independently of the
# twin), and switch 0 still pings the far switch's server gateway. On the Clos one row is left out of that expectation, from RFC 7938
# itself: the spine that lost the cable hears the leaf's prefix only through
# paths over another spine, whose AS path holds its own ASN, so BGP drops
# them and that spine has no route to the leaf (moore's BFS would go down and
# up again). The cable back up, the original tables return. The trap removes
# every namespace and daemon the test made (twin.sh down kills all processes
# in them).
#   bash deploy_frr.sh <path-to-moore> <source-dir>
# Exit 77 (skipped) when not root or FRR, jq or ip is missing.
. "$(dirname "$0")/cli.bash" "$@"
. "$(dirname "$0")/twin.bash"
twin_setup deploy_frr mf /usr/lib/frr/zebra

# fabric NAME TOPO CUT-LINES: the whole sequence on one fabric, in $TMP/NAME
# (namespaces $P<NAME>-s<id>); its counts go to $TMP/NAME.count.
fabric() {
    local name=$1 topo=$2 links=$3 d=$TMP/$1 p=$P$1-
    "$MOORE" deploy "$topo" --frr "$d" --ns-prefix "$p" --json >"$TMP/$name.json"
    check "$name: routers up" timeout -k 5 150 bash "$TWIN" up "$d" >/dev/null &&
        check "$name: converged within 60 s: every switch's next hops = moore's ECMP" \
            timeout -k 5 90 bash "$TWIN" check "$d" --wait 60 &&
        cut_link "$name" "$topo" "$links" "$d" "$p"
    echo "$passes $fails" >"$TMP/$name.count"
}

# cut_link NAME TOPO LINKS DIR PREFIX: switch 0's first cable down and up.
cut_link() {
    local name=$1 topo=$2 links=$3 d=$4 p=$5 if peer
    if=$(jq -r '.switches[0].interfaces[0].name' "$d/twin.json")
    peer=$(jq -r '.switches[0].interfaces[0].peer' "$d/twin.json")
    "$MOORE" build "$topo" | grep -v '^# \(family\|params\|links\)' |
        awk -v v="$peer" '!(($1 == 0 && $2 == v) || ($1 == v && $2 == 0))' >"$TMP/$name.cut.txt"
    check "$name: the cut graph lost exactly one link" \
        test "$(grep -vc '^#' "$TMP/$name.cut.txt")" = $((links - 1))
    "$MOORE" deploy "$TMP/$name.cut.txt" --static "$TMP/$name.cut" >/dev/null
    cp "$TMP/$name.cut/ecmp.txt" "$TMP/$name.expect"
    if [ "$(jq -r .asn_scheme "$TMP/$name.json")" = rfc7938-tiers ]; then
        grep -v "^$peer 0 " "$TMP/$name.cut/ecmp.txt" >"$TMP/$name.expect"
        check "$name: the spine's row toward leaf 0 is the one left out" \
            test "$(($(wc -l <"$TMP/$name.cut/ecmp.txt") - 1))" = "$(wc -l <"$TMP/$name.expect")"
    fi
    ip -n "${p}s0" link set "$if" down
    check "$name: link 0-$peer down: tables = moore's ECMP without that link" \
        timeout -k 5 90 bash "$TWIN" check "$d" --wait 60 --expect "$TMP/$name.expect"
    if [ "$(jq -r ".switches[$peer].servers" "$d/twin.json")" != null ]; then
        check "$name: link 0-$peer down: switch 0 still pings switch $peer's servers' gateway" \
            ip netns exec "${p}s0" ping -c1 -W2 -I 10.0.0.1 "10.128.$peer.1"
    fi
    ip -n "${p}s0" link set "$if" up
    check "$name: link back up: the original tables" timeout -k 5 90 bash "$TWIN" check "$d" --wait 60
    check "$name: down" timeout -k 5 60 bash "$TWIN" down "$d" >/dev/null
    check "$name: no namespace left" test -z "$(ip netns list | grep "^$p")"
}

fabric sf slimfly:q=3 45 &
fabric pet petersen 15 &
fabric clos clos:radix=6,endpoints=12 12 &
wait
for name in sf pet clos; do
    read -r p f <"$TMP/$name.count" 2>/dev/null || { p=0 f=1; echo "FAIL: $name: no result" >&2; }
    passes=$((passes + p)) fails=$((fails + f))
done
summary deploy_frr

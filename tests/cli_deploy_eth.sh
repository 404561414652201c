#!/usr/bin/env bash
# cli_deploy_eth.sh — the routed-Ethernet contracts of `moore deploy --frr /
# --static` and `moore route --budget` (docs/deploy-ethernet.md), checked
# against counts theory gives: cables at both ends of twin.json, the RFC 7938
# ASN count of a fat-tree, maximum-paths of a hypercube and of a trunked
# HyperX, the next-hop groups of the 3-cube, and bad input.
#   bash cli_deploy_eth.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"

# Slim Fly q=3: 18 switches of degree 5 (45 cables), 3 servers each.
D="$TMP/sf"
check "frr: exit 0" test "$(status "$MOORE" deploy slimfly:q=3 --frr "$D" --json)" = 0
check "frr: a config per switch" test "$(ls "$D"/s*/frr.conf | wc -l)" = 18
check "frr: 90 interfaces (45 cables, two ends)" test "$(jq .interfaces "$TMP/out")" = 90
check "frr: a BGP unnumbered neighbour per cable end" \
    test "$(cat "$D"/s*/frr.conf | grep -c '^ neighbor swp[0-9]* interface peer-group fabric$')" = 90
check "frr: 18 distinct ASNs" test "$(grep -h '^router bgp' "$D"/s*/frr.conf | sort -u | wc -l)" = 18
check "frr: multipath-relax everywhere" \
    test "$(grep -l 'bgp bestpath as-path multipath-relax' "$D"/s*/frr.conf | wc -l)" = 18
check "frr: kernel next-hop objects off (stale after a flap)" \
    test "$(grep -l '^no zebra nexthop kernel enable' "$D"/s*/frr.conf | wc -l)" = 18
# Every interface's far end names it back: (u, swpN) -> (v, swpM) -> (u, swpN).
check "twin.json: every cable seen from both ends" test "$(jq '[.switches as $S | $S[] | .id as $u |
    .interfaces[] | . as $i | $S[$i.peer].interfaces[] | select(.name == $i.peer_interface) |
    .peer == $u] | all and length == 90' "$D/twin.json")" = true
check "twin.json: loopback of switch 17" test "$(jq -r '.switches[17].loopback' "$D/twin.json")" = 10.0.0.18
check "twin.json: servers of switch 17" test "$(jq -r '.switches[17].servers' "$D/twin.json")" = 10.128.17.0/24
check "ecmp.txt: 18 x 17 ordered pairs" test "$(wc -l <"$D/ecmp.txt")" = 306

# Fat-tree k=4, RFC 7938: 8 edge switches with an ASN each, the 2 aggregation
# switches of each of the 4 pods sharing one, the 4 cores sharing one: 13 ASNs.
D="$TMP/ft"
"$MOORE" deploy fattree:k=4 --frr "$D" --json >"$TMP/out"
check "fat-tree: RFC 7938 scheme" test "$(jq -r .asn_scheme "$TMP/out")" = rfc7938-tiers
check "fat-tree: 13 ASNs" test "$(grep -h '^router bgp' "$D"/s*/frr.conf | sort -u | wc -l)" = 13
check "fat-tree: the cores share one ASN" \
    test "$(grep -h '^router bgp' "$D"/s*/frr.conf | sort | uniq -c | sort -rn | head -1 | awk '{print $1}')" = 4

# maximum-paths is a switch's cable count, the widest set any failure could
# need; max_paths the intact graph's widest set. The 3-cube: 3 cables, and
# antipodes have 3 shortest paths. HyperX 3x3 with 2 cables a link: 8 cables
# a switch; 2 shortest paths to a switch 2 hops away, 4 cables.
"$MOORE" deploy hypercube:n=3 --frr "$TMP/q3" >/dev/null
check "3-cube: maximum-paths 3" grep -q '^  maximum-paths 3$' "$TMP/q3/s0/frr.conf"
"$MOORE" deploy hyperx:L=2,S=3,K=2 --frr "$TMP/hx" --json >"$TMP/out"
check "HyperX K=2: max_paths counts cables (4)" test "$(jq .max_paths "$TMP/out")" = 4
check "HyperX K=2: maximum-paths = the switch's 8 cables" \
    test "$(grep -h '^  maximum-paths ' "$TMP/hx"/s*/frr.conf | sort -u)" = "  maximum-paths 8"
check "HyperX K=2: 72 interfaces" test "$(jq .interfaces "$TMP/out")" = 72

# Static: per switch a route to each other loopback and server prefix.
D="$TMP/st"
"$MOORE" deploy hypercube:n=3 --static "$D" --json >"$TMP/out"
check "static: 2 x 7 routes per switch" test "$(jq .routes "$TMP/out")" = 112
check "static: switch 0 reaches 7 (antipode) over 3 next hops" \
    test "$(grep '^route replace 10.0.0.8/32 ' "$D/s0/routes.batch" | grep -o nexthop | wc -l)" = 3
check "static: a permanent neighbour per interface" \
    test "$(grep -c '^neigh replace 169.254.0.1 lladdr .* nud permanent$' "$D/s0/routes.batch")" = 3
check "static: twin.json mode" test "$(jq -r .mode "$D/twin.json")" = static

# Table budget of the 3-cube under ECMP, per switch: 7 routes; groups: 3
# single neighbours, 3 pairs (distance 2), the full set (the antipode): 7;
# members 3 + 6 + 3 = 12; largest 3.
"$MOORE" route hypercube:n=3 --budget --limits routes=7,groups=7,members=12 --json >"$TMP/out"
check "budget: groups 7 per switch" test "$(jq -c '.budget_groups | unique' "$TMP/out")" = "[7]"
check "budget: members 12, largest 3, routes 7" \
    test "$(jq -c '[.members_max, .largest_group, .routes_max]' "$TMP/out")" = "[12,3,7]"
check "budget: fits at the exact limits" test "$(jq -c '[.fits, .switches_fitting]' "$TMP/out")" = "[true,8]"
"$MOORE" route hypercube:n=3 --budget --limits members=11 --json >"$TMP/out"
check "budget: one member less does not fit" test "$(jq -c '[.fits, .switches_fitting]' "$TMP/out")" = "[false,0]"
"$MOORE" route hypercube:n=3 --algo minimal --budget --json >"$TMP/out"
check "budget: minimal routing has single-hop groups" test "$(jq .largest_group "$TMP/out")" = 1
check "budget: no limits, no verdict" test "$(jq 'has("fits")' "$TMP/out")" = false

# Bad input: one line, exit 2, no output.
refused "limits not a number" "'routes=abc'" "$MOORE" route hypercube:n=3 --budget --limits routes=abc
refused "limits zero" "'groups=0'" "$MOORE" route hypercube:n=3 --budget --limits groups=0
refused "limits unknown key" "'ports=4'" "$MOORE" route hypercube:n=3 --budget --limits routes=3,ports=4
refused "limits twice" "'routes=2'" "$MOORE" route hypercube:n=3 --budget --limits routes=1,routes=2
refused "limits without budget" "--limits goes with --budget" "$MOORE" route hypercube:n=3 --limits routes=1
refused "frr with another algo" "--frr routes by BGP" "$MOORE" deploy hypercube:n=3 --frr "$TMP/x" --algo ksp
refused "bad namespace prefix" "namespace prefix" "$MOORE" deploy hypercube:n=3 --static "$TMP/y" --ns-prefix 'a/b'
refused "namespace prefix without a twin" "--ns-prefix goes with" "$MOORE" deploy hypercube:n=3 --ib "$TMP/z" --ns-prefix x-
check "refused deploys wrote nothing" test ! -e "$TMP/x" -a ! -e "$TMP/y" -a ! -e "$TMP/z"
summary cli_deploy_eth

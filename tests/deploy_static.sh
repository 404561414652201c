#!/usr/bin/env bash
# deploy_static.sh — the static twin of Slim Fly q=5 (50 switches, the
# Hoffman-Singleton graph; docs/deploy-ethernet.md): `moore deploy --static`
# route files loaded by scripts/twin.sh into 50 network namespaces; the
# kernel's next-hop sets equal moore's ECMP table, and for sampled pairs a
# ping crosses the fabric and traceroute counts as many hops as the BFS
# distance (computed here from the edge list), every hop a switch loopback.
#   bash deploy_static.sh <path-to-moore> <source-dir>
# Exit 77 (skipped) when not root or jq, ip, ping or traceroute is missing.
. "$(dirname "$0")/cli.bash" "$@"
. "$(dirname "$0")/twin.bash"
twin_setup deploy_static ms ping traceroute
"$MOORE" deploy slimfly:q=5 --static "$D" --ns-prefix "$P" >/dev/null
check "50 namespaces up" timeout -k 5 150 bash "$TWIN" up "$D"
check "kernel next-hop sets = moore's ECMP table" timeout -k 5 60 bash "$TWIN" check "$D"

# BFS distance from u to t over the edge list (independent of moore's routing).
"$MOORE" build slimfly:q=5 | grep -v '^#' >"$TMP/edges"
dist() {
    awk -v s="$1" -v t="$2" '{ adj[$1] = adj[$1] " " $2; adj[$2] = adj[$2] " " $1 }
        END { d[s] = 0; q[0] = s; h = 0; n = 1
              while (h < n) { u = q[h++]; k = split(adj[u], a, " ")
                  for (i = 1; i <= k; i++) if (!(a[i] in d)) { d[a[i]] = d[u] + 1; q[n++] = a[i] } }
              print d[t] }' "$TMP/edges"
}
for i in $(seq 0 9); do
    u=$((i * 5)) t=$(((i * 17 + 3) % 50))
    [ "$u" = "$t" ] && continue
    ns="${P}s$u"
    check "ping s$u -> servers of s$t" \
        ip netns exec "$ns" ping -c1 -W2 -I "10.0.0.$((u + 1))" "10.128.$t.1" >/dev/null
    ip netns exec "$ns" traceroute -n -q1 -w2 -m 6 "10.0.0.$((t + 1))" 2>/dev/null |
        awk 'NR > 1 { print $2 }' >"$TMP/hops"
    check "traceroute s$u -> s$t: $(dist "$u" "$t") hops, ending at s$t" \
        test "$(wc -l <"$TMP/hops")" = "$(dist "$u" "$t")" -a "$(tail -1 "$TMP/hops")" = "10.0.0.$((t + 1))"
    check "traceroute s$u -> s$t: every hop a switch loopback" \
        test -z "$(grep -v '^10\.0\.0\.[0-9]*$' "$TMP/hops")"
done
check "down" timeout -k 5 60 bash "$TWIN" down "$D"
check "no namespace left" test -z "$(ip netns list | grep "^$P")"
summary deploy_static

#!/usr/bin/env bash
# twin.sh — run the Ethernet twin of a moore fabric on this Linux host
# (docs/deploy-ethernet.md): one network namespace per switch, one veth pair
# per cable, named from DIR/twin.json as `moore deploy TOPO --frr DIR` or
# `--static DIR` wrote it; then FRR (zebra + bgpd per namespace) or the
# static route files; then the kernel's forwarding tables compared with
# moore's next-hop sets (DIR/ecmp.txt).
#
#   scripts/twin.sh up DIR              create namespaces, cables, start FRR or load routes
#   scripts/twin.sh check DIR [--wait S] [--expect FILE]
#                                       every server prefix's next-hop switches in every
#                                       namespace equal FILE's (default DIR/ecmp.txt);
#                                       --wait: retry for up to S seconds (BGP converging)
#   scripts/twin.sh down DIR            stop the daemons, remove what `up` created
#
# Root only. `up` refuses when any namespace twin.json names exists already,
# and records every namespace it creates in DIR/.twin/namespaces; `down`
# removes only those, after killing every process inside them, so nothing it
# did not create is touched and no daemon stays behind. Exit 0 on success,
# 1 when check finds differences, 2 on bad use.
set -u
FRR_BIN=${FRR_BIN:-/usr/lib/frr}
RUN=${FRR_RUN:-/var/run/frr}

die() { echo "twin.sh: $*" >&2; exit 2; }
usage() { die "usage: twin.sh up|check|down DIR [--wait S] [--expect FILE]"; }

[ $# -ge 2 ] || usage
CMD=$1
DIR=$2
shift 2
WAIT=0
EXPECT=$DIR/ecmp.txt
while [ $# -gt 0 ]; do
    case $1 in
        --wait) [ $# -ge 2 ] && [[ $2 =~ ^[0-9]+$ ]] || die "--wait needs whole seconds"
            WAIT=$2; shift 2 ;;
        --expect) [ $# -ge 2 ] || die "--expect needs a file"; EXPECT=$2; shift 2 ;;
        *) usage ;;
    esac
done
[ "$(id -u)" = 0 ] || die "needs root (network namespaces)"
command -v jq >/dev/null || die "needs jq"
command -v ip >/dev/null || die "needs ip (iproute2)"
TWIN=$DIR/twin.json
[ -r "$TWIN" ] || die "$TWIN: no twin.json (write it with moore deploy TOPO --frr|--static DIR)"
STATE=$DIR/.twin
MODE=$(jq -r .mode "$TWIN") || die "$TWIN: not JSON"
[ "$MODE" = frr ] || [ "$MODE" = static ] || die "$TWIN: mode '$MODE' is not frr or static"

# "id namespace loopback gateway" per switch (gateway "-" without servers).
switches() { jq -r '.switches[] | "\(.id) \(.namespace) \(.loopback) \(.gateway // "-")"' "$TWIN"; }

ns_exists() { [ -e "/var/run/netns/$1" ]; }

# The namespaces this DIR's `up` created (none when it never ran).
created() { [ -f "$STATE/namespaces" ] && cat "$STATE/namespaces"; }

do_down() {
    local ns pids left=()
    for ns in $(created); do
        ns_exists "$ns" || continue
        pids=$(ip netns pids "$ns" 2>/dev/null)
        [ -n "$pids" ] && kill $pids 2>/dev/null && left+=("$ns")
    done
    for ns in "${left[@]}"; do # SIGTERM first; whatever still runs after 5 s gets SIGKILL
        for _ in $(seq 20); do
            pids=$(ip netns pids "$ns" 2>/dev/null)
            [ -z "$pids" ] && break
            sleep 0.25
        done
        [ -n "$pids" ] && kill -9 $pids 2>/dev/null
    done
    for ns in $(created); do
        ns_exists "$ns" && ip netns del "$ns"
        rm -rf "${RUN:?}/$ns"
    done
    rm -rf "$STATE"
}

# One `ip -batch` in the root namespace making every cable once: the end with
# the smaller (switch, interface) creates the pair, each end in its namespace
# with the MAC twin.json gives it.
cables() {
    jq -r '.switches as $S | $S[] | .id as $u | .namespace as $ns | .interfaces[] |
        select([$u, (.name | ltrimstr("swp") | tonumber)] <
               [.peer, (.peer_interface | ltrimstr("swp") | tonumber)]) |
        . as $i | ($S[$i.peer].interfaces[] | select(.name == $i.peer_interface)) as $p |
        "link add name \($i.name) address \($i.mac) netns \($ns) type veth peer name " +
        "\($i.peer_interface) address \($p.mac) netns \($S[$i.peer].namespace)"' "$TWIN"
}

# Per switch, into $STATE/s<id>.batch (one jq for all): every link up,
# the loopback, the servers' subnet on interface `servers` (a veth pair inside
# the namespace: containers often lack the dummy module).
setup_batches() {
    jq -r '.switches[] | .id as $u |
        ((.interfaces[] | "link set dev \(.name) up"), "link set dev lo up",
         "address add \(.loopback)/32 dev lo",
         (select(.gateway != null) | "link add servers type veth peer name servers-p",
          "link set dev servers up", "link set dev servers-p up",
          "address add \(.gateway)/24 dev servers")) | "\($u)\t\(.)"' "$TWIN" |
        awk -F'\t' -v dir="$STATE" '{ print $2 > (dir "/s" $1 ".batch") }'
}

start_frr() { # id ns
    local conf=$RUN/$2/frr.conf
    mkdir -p "$RUN/$2"
    cp "$DIR/s$1/frr.conf" "$conf"
    chown -R frr:frr "$RUN/$2"
    for d in zebra bgpd; do
        ip netns exec "$2" "$FRR_BIN/$d" -d -N "$2" -P 0 -f "$conf" -i "$RUN/$2/$d.pid" \
            >>"$STATE/daemons.log" 2>&1 || return 1
    done
}

do_up() {
    [ -e "$STATE" ] && die "$DIR is up already (scripts/twin.sh down $DIR first)"
    [ "$MODE" = static ] || [ -x "$FRR_BIN/zebra" ] || die "needs FRR ($FRR_BIN/zebra; apt-get install frr)"
    local id ns lo gw
    while read -r id ns lo gw; do
        ns_exists "$ns" && die "namespace $ns exists and is not this twin's: refusing to touch it"
    done < <(switches)
    mkdir -p "$STATE"
    : >"$STATE/namespaces"
    trap 'echo "twin.sh: up failed; removing what it made" >&2; do_down; exit 1' ERR
    set -E
    while read -r id ns lo gw; do
        ip netns add "$ns"
        echo "$ns" >>"$STATE/namespaces"
        ip netns exec "$ns" sysctl -qw net.ipv4.ip_forward=1 net.ipv4.conf.all.rp_filter=0 \
            net.ipv4.conf.default.rp_filter=0 net.ipv6.conf.all.forwarding=1 >/dev/null
    done < <(switches)
    cables >"$STATE/cables.batch"
    ip -batch "$STATE/cables.batch"
    setup_batches
    local starts=() job
    while read -r id ns lo gw; do
        ip -n "$ns" -batch "$STATE/s$id.batch"
        if [ "$MODE" = static ]; then
            ip -n "$ns" -batch "$DIR/s$id/routes.batch"
        else # daemons start in parallel: each waits for its own start-up
            (trap - ERR; start_frr "$id" "$ns") &
            starts+=($!)
        fi
    done < <(switches)
    for job in "${starts[@]}"; do
        wait "$job"
    done
    trap - ERR
    echo "twin.sh: $(wc -l <"$STATE/namespaces") namespaces up ($MODE)"
}

# Every namespace's kernel routes toward the server prefixes, as lines
# "u t v1 v2 ..." (next-hop switches, by interface through twin.json), sorted
# as ecmp.txt is. Reads `ip -j route`, so both forms FRR installs parse alike:
# "via inet6 fe80::... dev swpN" and "via 169.254.0.1 dev swpN onlink".
kernel_sets() {
    local id ns lo gw
    while read -r id ns lo gw; do
        printf '{"u":%s,"r":' "$id"
        ip -j -n "$ns" -4 route show || echo '[]'
        printf '}\n'
    done < <(switches) >"$STATE/routes.jsonl"
    jq -rn --slurpfile twin "$TWIN" '
        $twin[0].switches as $S |
        ($S | map(select(.servers != null) | {key: .servers, value: .id}) | from_entries) as $dst |
        inputs | .u as $u |
        ($S[$u].interfaces | map({key: .name, value: .peer}) | from_entries) as $ifs |
        .r[] | select($dst[.dst] != null and $dst[.dst] != $u) |
        [$u, $dst[.dst]] + ([(.nexthops // [.])[] | $ifs[.dev] // -1] | unique) |
        map(tostring) | join(" ")' "$STATE/routes.jsonl" | sort -k1,1n -k2,2n
}

check_once() {
    kernel_sets >"$STATE/kernel.txt"
    sort -k1,1n -k2,2n "$EXPECT" >"$STATE/expect.txt"
    cmp -s "$STATE/kernel.txt" "$STATE/expect.txt"
}

do_check() {
    [ -f "$STATE/namespaces" ] || die "$DIR is not up (scripts/twin.sh up $DIR)"
    [ -r "$EXPECT" ] || die "$EXPECT: cannot read the expected next-hop sets"
    local start=$SECONDS
    until check_once; do
        if [ $((SECONDS - start)) -ge "$WAIT" ]; then
            echo "twin.sh: kernel tables differ from $EXPECT (< expected, > kernel; u t next-hops):" >&2
            diff "$STATE/expect.txt" "$STATE/kernel.txt" | grep '^[<>]' | head -10 >&2
            return 1
        fi
        sleep 0.5
    done
    echo "twin.sh: $(wc -l <"$STATE/expect.txt") next-hop sets equal (after $((SECONDS - start)) s)"
}

case $CMD in
    up) do_up ;;
    check) do_check ;;
    down) do_down; echo "twin.sh: down" ;;
    *) usage ;;
esac

# twin.bash — what the twin tests (deploy_frr.sh, deploy_static.sh) share,
# sourced after cli.bash:
#   twin_setup NAME PREFIX CMD...   exit 77 (skipped) unless root with jq, ip
#                                   netns and every CMD (a command or a path);
#                                   sets TWIN (scripts/twin.sh), D (the twin's
#                                   directory) and P (PREFIX plus this shell's
#                                   pid: namespace names no other run uses), and
#                                   traps EXIT to bring every twin under $TMP
#                                   down (every daemon and namespace it made)
#                                   and remove $TMP.
twin_setup() {
    local name=$1 c
    P="$2$$-"
    shift 2
    local ok=1
    [ "$(id -u)" = 0 ] && ip netns list >/dev/null 2>&1 || ok=0
    for c in jq ip "$@"; do
        command -v "$c" >/dev/null || [ -x "$c" ] || ok=0
    done
    if [ "$ok" = 0 ]; then
        echo "SKIP: $name needs root, ip netns, jq and: $*"
        exit 77
    fi
    TWIN="$SRC/scripts/twin.sh"
    D="$TMP/twin"
    # Every twin under $TMP that `up` touched (a test may run several; `up`
    # makes DIR/.twin first, `down` removes it), after the test's own
    # background jobs (twins brought up side by side) have stopped: a `down`
    # beside a running `up` would miss the namespaces `up` adds after it.
    trap 'twin_stop_jobs; for d in "$TMP"/*/; do [ -d "$d/.twin" ] &&
        timeout -k 5 60 bash "$TWIN" down "$d" >/dev/null 2>&1; done; rm -rf "$TMP"' EXIT
}

# Stops this shell's background jobs and what each runs in the foreground
# (a `timeout ... twin.sh up` sits in its own process group, so killing the
# job's shell alone would leave it running), then waits for them.
twin_stop_jobs() {
    local j
    for j in $(jobs -p); do
        kill $(ps -o pid= --ppid "$j") "$j" 2>/dev/null
    done
    wait
}

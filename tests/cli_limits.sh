#!/usr/bin/env bash
# cli_limits.sh — moore at the limits of the machine and of its closed forms:
# it ends under an address-space limit, a SIGTERM during a METIS bisection ends
# it as SIGTERM ends any program, and counts too large to build are refused
# with one line instead of overflowing; its OpenMP threads wait passively
# unless the user chose a wait policy.
. "$(dirname "$0")/cli.bash" "$@"

# OpenBLAS's worker threads retry a failed 128 MiB allocation for ever and
# exit() waits for them; `timeout` is only a safety net against that hang.
# Both variables are unset here: the launcher (cli/launcher/launcher.c) must
# set them.
ends_limited() { env -u OPENBLAS_NUM_THREADS -u OMP_WAIT_POLICY timeout 120 \
                     prlimit --as=200000000 "$MOORE" "$@" >"$TMP/out" 2>"$TMP/err"; }
# AddressSanitizer reserves terabytes of shadow address space at start-up, so
# an address-space limit says nothing about moore there: the release build
# checks it.
if ldd "$MOORE" 2>/dev/null | grep -q libasan; then
    echo "cli_limits: address-space checks skipped under AddressSanitizer"
else
    check "families ends under a 200 MB address-space limit" ends_limited families
    check "stats ends under a 200 MB address-space limit" ends_limited stats petersen --metrics basic
    # METIS's allocator prints its own lines when an allocation fails inside it
    # ("***Memory allocation failed for SetupCoarseGraph"); the layout's rack
    # placement counts METIS's memory before calling it, so 680 MB of address
    # space for a million switches of degree 8 (METIS alone failed with 494 MB
    # in use) gets moore's one line and exit 2.
    refused "layout: METIS's memory counted before METIS runs" "layout placement (METIS)" \
        timeout 300 prlimit --as=680000000 "$MOORE" layout jellyfish:n=1000000,d=8,seed=1
fi

# The wait policy libgomp runs with, as libgomp itself reports it at load
# (OMP_DISPLAY_ENV=verbose; the last report is the re-executed command's):
# passive waiting is a spin count of 0, the default and active ones spin.
# PROG=... picks the program (default: the launcher).
spincount() { env "$@" OMP_DISPLAY_ENV=verbose "${PROG:-$MOORE}" families 2>&1 >/dev/null |
              sed -n "s/.*GOMP_SPINCOUNT = '\([0-9]*\)'.*/\1/p" | tail -1; }
check "threads wait passively by default" [ "$(spincount -u OMP_WAIT_POLICY)" = 0 ]
active=$(spincount OMP_WAIT_POLICY=active)
check "a user's OMP_WAIT_POLICY=active is kept" [ "${active:-0}" != 0 ]
# moore-core started without the launcher sets the same and starts itself again.
core="$(dirname "$MOORE")/moore-core"
check "moore-core alone waits passively too" [ "$(PROG=$core spincount -u OMP_WAIT_POLICY)" = 0 ]
# The launcher without moore-core beside it or in ../libexec/moore: one line, 127.
lone_launcher() {
    mkdir -p "$TMP/lone" && cp "$MOORE" "$TMP/lone/moore"
    "$TMP/lone/moore" families >"$TMP/out" 2>"$TMP/err"
    [ $? = 127 ] && [ "$(wc -l <"$TMP/err")" = 1 ] && grep -q "moore: cannot run .*moore-core" "$TMP/err"
}
check "the launcher without moore-core says so (exit 127)" lone_launcher

# SIGTERM while METIS runs: METIS (GKlib) used to catch it, report
# "METIS failed with status -4" and leave the process unable to die.
term_during_metis() {
    "$MOORE" stats jellyfish:n=200000,d=8,seed=1 --metrics bisection --progress \
        >"$TMP/out" 2>"$TMP/err" &
    local pid=$! i
    for i in $(seq 600); do
        grep -q "bisection (METIS)" "$TMP/err" 2>/dev/null && break
        sleep 0.1
    done
    kill -TERM "$pid"
    # safety net only: a process that cannot die is killed after 120 s
    for i in $(seq 1200); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    kill -KILL "$pid" 2>/dev/null
    wait "$pid"
    local rc=$?
    [ "$rc" = 143 ] && ! grep -q "METIS failed" "$TMP/err"
}
check "SIGTERM during METIS ends moore as SIGTERM (143)" term_during_metis

# Counts past what moore can build: one line, exit 2, the count named (the
# fat-tree's k*k overflowed int from k = 46,342; the rank product saturated).
refused "fattree:k=65536 refused" "5368709120 switches" "$MOORE" build fattree:k=65536
refused "fattree:k=46342 refused" "2684476205 switches" "$MOORE" build fattree:k=46342
refused "llm rank product named" "= 6.4e+10 ranks" \
    "$MOORE" throughput petersen --tm llm:tp=8,pp=8,dp=1000000000

summary cli_limits

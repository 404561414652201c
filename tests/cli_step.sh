#!/usr/bin/env bash
# cli_step.sh — `moore step` (docs/step-time.md): the keys scripts rely on,
# closed forms through the command line, several jobs, the placement search
# never worse than the best of linear, random and group, and the bad-input
# contract (exit 2, one line naming the value and the rule).
#   bash cli_step.sh <path-to-moore> <source-dir>
. "$(dirname "$0")/cli.bash" "$@"
command -v jq >/dev/null || { echo "jq is needed (scripts/setup.sh installs it)"; exit 1; }

# A ring all-reduce of S = 1e9 bytes on the 16-switch ring (one server a
# switch): its matrix has θ = 16/15, more than the servers' links can use, so
# the step takes 2(n-1)/n·S/B = 1.875e9·8/400e9 = 0.0375 s, slowdown 1.
check "ring exit 0" test "$(status "$MOORE" step torus:dims=16 --job allreduce:algo=ring,bytes=1e9 --link-rate 400 --exact --json)" = 0
check "ring keys" jq -e 'has("phases") and has("step_seconds_lower") and has("step_seconds_upper")
    and has("ideal_seconds") and has("slowdown") and (.phases[0] | has("name") and has("bytes")
    and has("throughput_lower") and has("throughput_upper") and has("seconds_lower") and has("seconds_upper"))' "$TMP/out" >/dev/null
check "ring theta 16/15" jq -e '(.phases[0].throughput_lower - 16/15 | fabs) < 1e-6' "$TMP/out" >/dev/null
check "ring seconds" jq -e '(.step_seconds_upper - 0.0375 | fabs) < 1e-12 and .slowdown == 1' "$TMP/out" >/dev/null

# All-to-all of S bytes per rank over the 16 servers of a full-bisection
# fat-tree: (n-1)/n·S/B.
check "alltoall exit 0" test "$(status "$MOORE" step fattree:k=4 --job alltoall:bytes=4e9 --link-rate 100 --exact --json)" = 0
check "alltoall seconds" jq -e '(.step_seconds_upper - 15/16*4e9*8/100e9 | fabs) < 1e-6' "$TMP/out" >/dev/null

# TP groups of 2 on switches of 2 servers: tp uses no network link.
check "tp in switch exit 0" test "$(status "$MOORE" step fattree:k=4 --job llm:tp=2,pp=2,dp=4 --link-rate 400 --routing ecmp --json)" = 0
check "tp in switch free" jq -e '.phases[0].name == "tp" and .phases[0].network == false
    and .phases[0].seconds_upper == .phases[0].ideal_seconds' "$TMP/out" >/dev/null

# Overlap: the step counts max(dp, compute).
check "overlap exit 0" test "$(status "$MOORE" step fattree:k=4 --job llm:tp=2,pp=2,dp=4 --link-rate 400 --routing ecmp --overlap dp --compute 100 --json)" = 0
check "overlap hides dp" jq -e '([.phases[] | select(.name != "dp") | .seconds_upper] | add) + 100 - .step_seconds_upper | fabs < 1e-9' "$TMP/out" >/dev/null

# Two jobs on the two halves of a fat-tree do not slow each other.
"$MOORE" step fattree:k=4 --job alltoall:servers=8 --link-rate 400 --routing ecmp --json >"$TMP/alone.json" 2>/dev/null
check "two jobs exit 0" test "$(status "$MOORE" step fattree:k=4 --job alltoall:servers=8 --job alltoall:servers=8 --link-rate 400 --routing ecmp --json)" = 0
check "two jobs: each one" jq -e '.jobs | length == 2' "$TMP/out" >/dev/null
check "two jobs: no slowdown" jq -e --slurpfile a "$TMP/alone.json" '.jobs[0].step_seconds_upper == $a[0].step_seconds_upper and .jobs[1].slowdown == 1' "$TMP/out" >/dev/null

# The search: never worse than the best of the three; same seed, same output.
check "search exit 0" test "$(status "$MOORE" step slimfly:q=5 --job moe:tp=2,pp=2,dp=10,ep=5,skew=1 --link-rate 400 --routing ecmp --place search --evals 8 --json)" = 0
check "search never worse" jq -e '.step_seconds_upper <= ([.search.linear, .search.random, .search.group] | min) and .search.gain >= 0' "$TMP/out" >/dev/null
cp "$TMP/out" "$TMP/search1.json"
"$MOORE" step slimfly:q=5 --job moe:tp=2,pp=2,dp=10,ep=5,skew=1 --link-rate 400 --routing ecmp --place search --evals 8 --json >"$TMP/search2.json" 2>/dev/null
check "search deterministic" cmp -s "$TMP/search1.json" "$TMP/search2.json"
check "text output" test "$(status "$MOORE" step slimfly:q=5 --job llm:tp=2,pp=5,dp=5 --link-rate 400 --routing ecmp)" = 0
check "text names the step" grep -q "slowdown" "$TMP/out"

# Bad input: exit 2 and one line naming the value and the rule.
refused "job larger than the servers" "ranks do not fit" "$MOORE" step fattree:k=4 --job allreduce:servers=17 --link-rate 400
refused "two jobs larger than the servers" "leave free" "$MOORE" step fattree:k=4 --job alltoall:servers=10 --job alltoall:servers=10 --link-rate 400
for rate in 0 -5 inf nan abc; do
    refused "link rate $rate" "--link-rate $rate must be a positive finite" "$MOORE" step fattree:k=4 --job allreduce --link-rate "$rate"
done
for bytes in 0 -1 inf nan; do
    refused "bytes=$bytes" "bytes=$bytes must be a positive finite" "$MOORE" step fattree:k=4 --job "allreduce:bytes=$bytes" --link-rate 400
done
refused "overlap not a phase" "--overlap ep_dispatch is not a phase" "$MOORE" step fattree:k=4 --job llm:tp=2,pp=2,dp=4 --link-rate 400 --routing ecmp --overlap ep_dispatch --compute 1
refused "overlap without compute" "go together" "$MOORE" step fattree:k=4 --job allreduce --link-rate 400 --overlap allreduce
refused "missing rate" "--link-rate" "$MOORE" step fattree:k=4 --job allreduce
refused "search with two jobs" "one --job" "$MOORE" step fattree:k=4 --job alltoall:servers=4 --job alltoall:servers=4 --link-rate 400 --place search
refused "skewed moe without ep" "skew=1 needs ep=" "$MOORE" step fattree:k=4 --job llm:tp=2,pp=2,dp=4,skew=1 --link-rate 400
refused "experts not a multiple of ep" "multiple of ep" "$MOORE" step fattree:k=4 --job moe:tp=1,pp=2,dp=8,ep=4,experts=6 --link-rate 400

# compare --job: every row timed, and the ranking after the table fastest first.
check "compare --job exit 0" test "$(status "$MOORE" compare slimfly:q=5 fattree:k=8 --metrics basic,layout --job llm:tp=2,pp=2,dp=25 --link-rate 400 --step-routing ecmp --json)" = 0
check "compare --job keys" jq -e 'length == 2 and all(.[]; .step_seconds_upper > 0 and .slowdown >= 1 and .cost_per_step > 0)' "$TMP/out" >/dev/null
# each row as moore step times it
"$MOORE" step slimfly:q=5 --job llm:tp=2,pp=2,dp=25 --link-rate 400 --routing ecmp --json >"$TMP/sf.json" 2>/dev/null
check "compare --job = step" jq -e --slurpfile s "$TMP/sf.json" '.[0].step_seconds_upper == $s[0].step_seconds_upper' "$TMP/out" >/dev/null
check "compare --job text exit 0" test "$(status "$MOORE" compare slimfly:q=5 fattree:k=8 --metrics basic --job llm:tp=2,pp=2,dp=25 --link-rate 400 --step-routing ecmp)" = 0
check "compare --job ranked" bash -c "sed -n '/fastest first/,\$p' '$TMP/out' | awk '\$1 ~ /:/ {print \$3}' | sort -c -g"
refused "compare rate" "--link-rate 0 must be a positive finite" "$MOORE" compare slimfly:q=5 --job allreduce --link-rate 0
refused "compare job without rate" "go together" "$MOORE" compare slimfly:q=5 --job allreduce
refused "compare bad job" "bytes=-1 must be a positive" "$MOORE" compare slimfly:q=5 --job allreduce:bytes=-1 --link-rate 400

summary cli_step

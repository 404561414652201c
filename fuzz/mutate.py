#!/usr/bin/env python3
"""mutate.py — bounded mutation loops through the command line (docs/fuzzing.md).

    fuzz/mutate.py MOORE [--inputs N] [--seconds S] [--seed K] [--keep DIR]

Where the libFuzzer harnesses call the library, these loops run the `moore` binary
(meant: the ASan + UBSan build's) on mutated inputs of three kinds:

  spec    a SPEC as the topology argument      moore build SPEC -o /dev/null
  sweep   a sweep file                         moore sweep FILE --list --db DB
  model   a layout cost model                  moore layout petersen --model FILE --json

Each kind starts from valid inputs and applies one to three random edits (a byte flipped,
inserted, deleted or doubled; a number replaced by an edge value such as 1e400, -1, 5.5 or
2^63; a span repeated). The random stream is seeded (--seed), so a run is repeatable. A run
fails when the binary ends in any way other than exit status 0, 1 or 2 (a signal, ASan's or
UBSan's exit code) or prints a sanitizer report; the input is saved under --keep. The loop
stops after --inputs inputs of each kind or --seconds of wall time, whichever is first (the
bound keeps the CI stage short; it is not a property checked). A run slower than its own
limit (10 s: a mutated SPEC may ask for a large graph) is counted as slow, not failed.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile
import time

SPECS = ["petersen", "slimfly:q=5", "slimfly:q=7,radix=12", "jellyfish:n=20,d=4,seed=1",
         "xpander:d=4,k=4,seed=1", "torus:dims=4x3", "hyperx:S=3,L=2,K=2", "fattree:k=4",
         "dragonfly:a=4,h=2", "polarfly:q=3", "clos:radix=8,endpoints=40",
         "llm:tp=2,pp=2,dp=2", "complete:n=6", "megafly:a=4,h=2"]
SWEEPS = [
    '{"metrics": ["basic"], "configs": [{"family": "slimfly", "grid": {"q": ["3..7"]}}]}',
    '{"metrics": ["basic", "paths"], "seeds": [1, 2], "configs": [{"family": "jellyfish", '
    '"grid": {"n": [20, 24], "d": [4]}}, {"spec": "petersen"}]}',
    '{"throughput": {"tm": ["uniform", "worst"], "eps": 0.1}, "configs": [{"plan": '
    '{"radix": [8], "endpoints": [50]}}]}',
    '{"metrics": "all", "configs": [{"family": "torus", "grid": {"dims": ["4x4", "3x3x3"]}}]}',
]
MODELS = [
    '{"switch_port_cost": 500, "electrical_cable_fixed": 30, "electrical_cable_per_m": 10}',
    '{"optical_cable_fixed": 400, "optical_cable_per_m": 2, "electrical_max_m": 3, '
    '"rack_width_m": 0.6, "rack_depth_m": 1.2, "aisle_m": 1.2, "cable_overhead_m": 2}',
    '{"intra_rack_m": 1, "switches_per_rack": 24, "port_power_w": 3.5}',
]
EDGE_NUMBERS = ["0", "-1", "1", "5.5", "1e308", "1e400", "-1e400", "1e-320", "2147483648",
                "9223372036854775808", "18446744073709551616", "65536", "46342", "NaN",
                "0x10", "007", "1..0", "3..100000", ""]
EDGE_BYTES = list(b'0123456789,:=.-+x"{}[] \n\t\\') + [0xff, 0xef, 0xbb, 0xbf, 0x7f, 0x01]
SANITIZER = (b"ERROR: AddressSanitizer", b"runtime error:", b"ERROR: LeakSanitizer",
             b"ERROR: UndefinedBehaviorSanitizer")


def edit(rng, data):
    """One random edit of data (bytes)."""
    op = rng.randrange(6)
    at = rng.randrange(len(data) + 1)
    if op == 0 and data:                       # flip a byte
        at = min(at, len(data) - 1)
        return data[:at] + bytes([data[at] ^ (1 << rng.randrange(8))]) + data[at + 1:]
    if op == 1:                                # insert a meaningful byte
        return data[:at] + bytes([rng.choice(EDGE_BYTES)]) + data[at:]
    if op == 2 and data:                       # delete a span
        return data[:at] + data[at + rng.randrange(1, 8):]
    if op == 3 and data:                       # repeat a span
        span = data[at:at + rng.randrange(1, 16)]
        return data[:at] + span * rng.randrange(2, 4) + data[at:]
    digits = [i for i, c in enumerate(data) if chr(c).isdigit()]
    if digits:                                 # a number replaced by an edge value
        i = rng.choice(digits)
        j = i
        while j < len(data) and (chr(data[j]).isdigit() or data[j] in b".e"):
            j += 1
        while i > 0 and chr(data[i - 1]).isdigit():
            i -= 1
        return data[:i] + rng.choice(EDGE_NUMBERS).encode() + data[j:]
    return data + bytes([rng.choice(EDGE_BYTES)])


def mutate(rng, seed):
    data = seed.encode()
    for _ in range(rng.randrange(1, 4)):
        data = edit(rng, data)
    return data


def run(cmd, timeout):
    """(status, stderr) of cmd; status None when it ran out of time."""
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=timeout)
        return p.returncode, p.stderr
    except subprocess.TimeoutExpired:
        return None, b""


def case(kind, moore, data, work):
    """The command line that feeds data to moore."""
    if kind == "spec":   # argv cannot hold NUL; the rest goes as is
        return [moore, "build", os.fsdecode(data.replace(b"\0", b"")) or "x", "-o", os.devnull]
    path = os.path.join(work, kind + ".json")
    with open(path, "wb") as f:
        f.write(data)
    if kind == "sweep":
        return [moore, "sweep", path, "--list", "--db", os.path.join(work, "never.db")]
    return [moore, "layout", "petersen", "--model", path, "--json"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("moore")
    ap.add_argument("--inputs", type=int, default=400, help="inputs of each kind")
    ap.add_argument("--seconds", type=float, default=50, help="wall-time bound of the loop")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", default="mutate-failures")
    a = ap.parse_args()
    rng = random.Random(a.seed)
    seeds = {"spec": SPECS, "sweep": SWEEPS, "model": MODELS}
    stop = time.monotonic() + a.seconds
    counts = {k: 0 for k in seeds}
    slow = failed = 0
    env = dict(os.environ, ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "detect_leaks=1"),
               UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1")
    os.environ.update(env)
    with tempfile.TemporaryDirectory() as work:
        for n in range(a.inputs):
            if time.monotonic() > stop:
                break
            for kind, pool in seeds.items():
                data = mutate(rng, rng.choice(pool))
                status, err = run(case(kind, a.moore, data, work), 10)
                counts[kind] += 1
                if status is None:
                    slow += 1
                    continue
                if status in (0, 1, 2) and not any(s in err for s in SANITIZER):
                    continue
                failed += 1
                os.makedirs(a.keep, exist_ok=True)
                name = os.path.join(a.keep, f"{kind}-{n}")
                with open(name, "wb") as f:
                    f.write(data)
                print(f"mutate: {kind} input {name}: exit status {status}", file=sys.stderr)
                sys.stderr.write(err.decode(errors="replace")[-2000:])
        if os.path.exists(os.path.join(work, "never.db")):
            print("mutate: sweep --list created its database", file=sys.stderr)
            failed += 1
    print(f"mutate: {sum(counts.values())} inputs ({counts['spec']} SPECs, {counts['sweep']} "
          f"sweep files, {counts['model']} layout models), {failed} failed, {slow} slow")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

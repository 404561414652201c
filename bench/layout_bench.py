#!/usr/bin/env python3
"""layout_bench.py — the measurements behind docs/layout.md.

1. table: `moore layout --json` of each family's radix-48 / 10,000-endpoint
   configuration (the rows `moore plan --radix 48 --endpoints 10000` marks
   with *), plus Jellyfish with racks as large as the Xpander's super-nodes,
   as one Markdown table.
2. speed: wall time of `moore layout` on a 100,000-switch Jellyfish (METIS
   placement) and a 100,000-switch Xpander (family placement), each with and
   without writing the cable CSV.
3. versus networkx: the same rack assignment problem solved the way a Python
   user without METIS would — recursive Kernighan–Lin bisection
   (networkx.algorithms.community.kernighan_lin_bisection) into 32 racks —
   against moore's METIS placement, on a 1,000-switch Jellyfish: inter-rack
   cables and time, side by side, with ratios.

    bench/layout_bench.py [--moore build/moore] [--quick]

--quick skips the 100,000-switch runs. Needs python3-networkx (Debian) for
part 3 only (scripts/setup.sh installs it with MOORE_BENCH=1).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time


def run(moore, *args):
    t = time.perf_counter()
    out = subprocess.run([moore, *args], check=True, capture_output=True, text=True).stdout
    return out, time.perf_counter() - t


def layout(moore, topo, *extra):
    out, secs = run(moore, "layout", topo, "--json", *extra)
    return json.loads(out), secs


def table(moore):
    plan = json.loads(run(moore, "plan", "--radix", "48", "--endpoints", "10000", "--json")[0])
    rows = [(p["family"], p["topology"], []) for p in plan if p.get("chosen")]
    xp = next((s for f, s, _ in rows if f == "xpander"), None)
    jf = next((s for f, s, _ in rows if f == "jellyfish"), None)
    if xp and jf:
        k = [kv.split("=")[1] for kv in xp.split(":")[1].split(",") if kv.startswith("k=")][0]
        rows.append(("jellyfish", jf, ["--switches-per-rack", k]))
    print("| family | spec | placement | switches | racks | rack max | cables (el./opt.) |"
          " length km | rack pairs | bundle max / mean | cost $/endpoint | W/endpoint |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for fam, spec, extra in rows:
        r, _ = layout(moore, spec, *extra)
        sw = json.loads(run(moore, "stats", spec, "--metrics", "basic", "--json")[0])["switches"]
        label = spec + (" " + " ".join(extra) if extra else "")
        print(f"| {fam} | `{label}` | {r['placement']} | {sw:,} | {r['racks']} |"
              f" {r['switches_per_rack_max']} | {r['cables']:,} ({r['cables_electrical']:,} /"
              f" {r['cables_optical']:,}) | {r['cable_length_total_m'] / 1000:.1f} |"
              f" {r['rack_pairs_linked']:,} | {r['bundle_max']} / {r['bundle_mean']:.1f} |"
              f" {r['cost_per_endpoint']:,.0f} | {r['power_per_endpoint_w']:.2f} |")


def speed(moore, tmp):
    for spec in ("jellyfish:n=100000,d=24,seed=1", "xpander:d=24,k=4167,seed=1"):
        path = os.path.join(tmp, "big.txt")
        _, build = run(moore, "build", spec, "-o", path)
        r, plain = layout(moore, path if spec.startswith("jellyfish") else spec)
        csv = os.path.join(tmp, "big.csv")
        _, withcsv = layout(moore, path if spec.startswith("jellyfish") else spec,
                            "--cables", csv)
        print(f"- `{spec}`: build {build:.1f} s; `moore layout` {plain:.1f} s, with `--cables`"
              f" {withcsv:.1f} s ({os.path.getsize(csv) / 1e6:.0f} MB CSV); placement"
              f" {r['placement']}, {r['racks']:,} racks, {r['cables_inter_rack']:,} of"
              f" {r['cables']:,} cables between racks")


def versus_networkx(moore, tmp):
    try:
        import networkx as nx
        from networkx.algorithms.community import kernighan_lin_bisection
    except ImportError:
        print("networkx not installed (MOORE_BENCH=1 scripts/setup.sh); part 3 skipped")
        return
    spec, racks = "jellyfish:n=1000,d=12,seed=1", 32
    path = os.path.join(tmp, "jf.txt")
    run(moore, "build", spec, "-o", path)
    r, moore_secs = layout(moore, path, "--switches-per-rack", "32")
    g = nx.Graph()
    with open(path) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                u, v = map(int, line.split())
                g.add_edge(u, v)
    t = time.perf_counter()
    parts = [set(g.nodes)]
    while len(parts) < racks:
        parts = [h for p in parts for h in kernighan_lin_bisection(g.subgraph(p), seed=1)]
    nx_secs = time.perf_counter() - t
    rack = {v: i for i, p in enumerate(parts) for v in p}
    nx_inter = sum(1 for u, v in g.edges if rack[u] != rack[v])
    print(f"| {spec}, {racks} racks | inter-rack cables | time s |")
    print("|---|---:|---:|")
    print(f"| moore layout (METIS k-way, whole command) | {r['cables_inter_rack']:,} |"
          f" {moore_secs:.2f} |")
    print(f"| networkx recursive Kernighan–Lin (placement only) | {nx_inter:,} | {nx_secs:.2f} |")
    print(f"| ratio networkx / moore | {nx_inter / r['cables_inter_rack']:.2f} |"
          f" {nx_secs / moore_secs:.1f} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moore", default="build/moore")
    ap.add_argument("--quick", action="store_true")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        table(a.moore)
        print()
        if not a.quick:
            speed(a.moore, tmp)
            print()
        versus_networkx(a.moore, tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""routing_ksp_networkx.py — networkx's shortest_simple_paths (Yen) on the
pairs of a moore topology, side by side with moore's K shortest paths.

    routing_ksp_networkx.py EDGELIST PATHS_CSV MOORE_SECONDS PAIRS K [SAMPLE] [SEED]

EDGELIST is `moore build` output, PATHS_CSV the `moore route --algo ksp:k=K
--paths` file of the same graph, MOORE_SECONDS the time moore took for all
PAIRS ordered pairs. networkx runs on SAMPLE random pairs (default 300); the
script prints both per-pair times, their ratio, and checks that the multiset
of path lengths agrees on every sampled pair."""
import itertools
import random
import sys
import time

import networkx as nx


def main():
    edges, paths_csv, moore_s, pairs, k = sys.argv[1:6]
    sample = int(sys.argv[6]) if len(sys.argv) > 6 else 300
    seed = int(sys.argv[7]) if len(sys.argv) > 7 else 1
    k, pairs, moore_s = int(k), int(pairs), float(moore_s)
    g = nx.Graph()
    with open(edges) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            u, v = map(int, line.split()[:2])
            g.add_edge(u, v)
    nodes = sorted(g.nodes())
    rng = random.Random(seed)
    chosen = set()
    while len(chosen) < sample:
        s, t = rng.sample(nodes, 2)
        chosen.add((s, t))
    nx_lens = {}
    t0 = time.perf_counter()
    for s, t in sorted(chosen):
        ps = itertools.islice(nx.shortest_simple_paths(g, s, t), k)
        nx_lens[(s, t)] = sorted(len(p) - 1 for p in ps)
    nx_s = time.perf_counter() - t0
    moore_lens = {}
    with open(paths_csv) as f:
        next(f)
        for line in f:
            s, t, _, _, path = line.rstrip("\n").split(",")
            key = (int(s), int(t))
            if key in chosen:
                moore_lens.setdefault(key, []).append(path.count("-"))
    bad = sum(1 for p in chosen if sorted(moore_lens.get(p, [])) != nx_lens[p])
    per_nx = nx_s / sample
    per_moore = moore_s / pairs
    print(f"pairs sampled for networkx: {sample}, K = {k}")
    print(f"networkx shortest_simple_paths: {per_nx * 1e3:.3f} ms per pair "
          f"({nx_s:.1f} s for {sample} pairs)")
    print(f"moore ksp (all {pairs} pairs, {moore_s:.1f} s): {per_moore * 1e3:.4f} ms per pair")
    print(f"ratio networkx / moore per pair: {per_nx / per_moore:.0f}x")
    print(f"path-length multisets that differ: {bad} of {sample}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

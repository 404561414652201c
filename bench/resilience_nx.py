#!/usr/bin/env python3
"""resilience_nx.py — what a networkx user would write for `moore fail`, timed
per trial, for bench/run_resilience.sh (Debian python3-networkx).

  resilience_nx.py disconnect EDGES TRIALS   links removed in a random order
      until the graph disconnects: per trial, binary search on the removal
      count with nx.is_connected (O(m log m) per trial, not a BFS per removal)
  resilience_nx.py paths EDGES TRIALS F      remove round(F*m) random links,
      then diameter and average path length from one all-pairs BFS pass
Prints one line: mode, trials, seconds per trial, and the mean result."""
import random
import sys
import time

import networkx as nx


def read(path):
    g = nx.Graph()
    with open(path) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            u, v = line.split()[:2]
            g.add_edge(int(u), int(v))
    return g


def disconnect_trial(g, rng):
    edges = list(g.edges())
    rng.shuffle(edges)
    lo, hi = 0, len(edges)   # removing lo links keeps it connected, hi disconnects
    while hi - lo > 1:
        mid = (lo + hi) // 2
        h = g.copy()
        h.remove_edges_from(edges[:mid])
        if nx.is_connected(h):
            lo = mid
        else:
            hi = mid
    return hi / len(edges)


def paths_trial(g, rng, f):
    edges = list(g.edges())
    h = g.copy()
    h.remove_edges_from(rng.sample(edges, round(f * len(edges))))
    if not nx.is_connected(h):
        return None
    diam, total, pairs = 0, 0, 0
    for _, dist in nx.all_pairs_shortest_path_length(h):
        diam = max(diam, max(dist.values()))
        total += sum(dist.values())
        pairs += len(dist) - 1
    return diam, total / pairs


def main():
    mode, path, trials = sys.argv[1], sys.argv[2], int(sys.argv[3])
    g = read(path)
    rng = random.Random(1)
    start = time.perf_counter()
    if mode == "disconnect":
        res = [disconnect_trial(g, rng) for _ in range(trials)]
        summary = "mean fraction %.4f" % (sum(res) / len(res))
    else:
        f = float(sys.argv[4])
        res = [r for r in (paths_trial(g, rng, f) for _ in range(trials)) if r]
        summary = "mean diameter %.3f, mean APL %.4f" % (
            sum(r[0] for r in res) / len(res), sum(r[1] for r in res) / len(res))
    per = (time.perf_counter() - start) / trials
    print("%s %d %.6f %s" % (mode, trials, per, summary))


if __name__ == "__main__":
    main()

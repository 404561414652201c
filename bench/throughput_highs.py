#!/usr/bin/python3
"""throughput_highs.py — moore's exact throughput against SciPy's HiGHS, side by side.

For each topology (a SPEC that `moore build` writes to a file, or a topology
file) and each matrix (uniform, worst), in one run:
  1. writes the traffic matrix as a CSV file (uniform: p_s*p_t/(S-1); worst:
     the longest matching, a maximum-weight perfect matching with weight
     (p_u+p_v)*dist(u,v) found by networkx, matched pairs exchange p);
  2. times `moore throughput FILE --tm CSV --exact --json` on that file;
  3. builds the same maximum concurrent flow as an arc LP (one commodity per
     source, min-congestion form) and times scipy.optimize.linprog with
     HiGHS's interior-point method (HIGHS=highs-ipm, the default: about ten
     times faster than SciPy's default dual simplex on these LPs) or another
     of SciPy's HiGHS methods (HIGHS=highs-ds, HIGHS=highs);
  4. prints both values, their relative difference and the time ratio.
HiGHS never enters the library; it is only the independent solver here.

Usage: MOORE=build/moore [TMS=uniform,worst] [HIGHS=highs-ipm] /usr/bin/python3 bench/throughput_highs.py
           [--limit SECONDS] TOPO...
--limit stops each solver (moore's --time-limit, HiGHS's time_limit) after that
many seconds; a stopped run is printed as such (moore with its proven bounds).
Needs python3-scipy, python3-numpy and python3-networkx (scripts/setup.sh with MOORE_BENCH=1).
"""
import json
import os
import subprocess
import sys
import tempfile
import time

import networkx as nx
import numpy as np
from scipy.optimize import linprog
from scipy.sparse import coo_matrix

MOORE = os.environ.get("MOORE", "build/moore")
HIGHS = os.environ.get("HIGHS", "highs-ipm")


def read_topology(path):
    """Switch count, links and servers per switch of a moore topology file."""
    n, links, ep = None, [], None
    with open(path) as f:
        for line in f:
            if line.startswith("# switches:"):
                n = int(line.split(":")[1])
            elif line.startswith("# endpoints:"):
                ep = [int(x) for x in line.split(":")[1].split()]
            elif line.strip() and not line.startswith("#"):
                u, v = line.split()[:2]
                links.append((int(u), int(v)))
    if n is None:
        n = 1 + max(max(e) for e in links)
    if ep is None or sum(ep) == 0:
        ep = [1] * n
    elif len(ep) == 1:
        ep = ep * n
    return n, links, ep


def traffic(n, links, ep, kind):
    """The matrix as {(s, t): demand}, as include/moore/traffic.h defines it."""
    if kind == "uniform":
        S = sum(ep)
        return {(s, t): ep[s] * ep[t] / (S - 1) for s in range(n) for t in range(n)
                if s != t and ep[s] and ep[t]}
    G = nx.Graph(links)
    dist = dict(nx.all_pairs_shortest_path_length(G))
    H = nx.Graph()
    srv = [v for v in range(n) if ep[v]]
    for i, u in enumerate(srv):
        for v in srv[i + 1:]:
            H.add_edge(u, v, weight=(ep[u] + ep[v]) * dist[u][v])
    T = {}
    for u, v in nx.max_weight_matching(H, maxcardinality=True):
        T[(u, v)] = ep[u]
        T[(v, u)] = ep[v]
    return T


def highs(n, links, T, limit=None):
    """θ by HiGHS on the arc LP: min λ, route T exactly, load ≤ λ on every arc.
    With a limit (seconds), HiGHS stops there and θ is NaN."""
    arcs = [(u, v) for u, v in links] + [(v, u) for u, v in links]
    A = len(arcs)
    srcs = sorted({s for s, _ in T})
    rows, cols, vals = [], [], []
    b = []
    ncons = len(srcs) * n
    for ci, s in enumerate(srcs):
        for a, (u, v) in enumerate(arcs):
            col = 1 + ci * A + a
            rows += [ci * n + v, ci * n + u]
            cols += [col, col]
            vals += [1.0, -1.0]
        for v in range(n):
            b.append(T.get((s, v), 0.0) if v != s else -sum(d for (x, _), d in T.items() if x == s))
    nvar = 1 + len(srcs) * A
    Aeq = coo_matrix((vals, (rows, cols)), shape=(ncons, nvar)).tocsr()
    r2, c2, v2 = [], [], []
    for ci in range(len(srcs)):
        for a in range(A):
            r2.append(a)
            c2.append(1 + ci * A + a)
            v2.append(1.0)
    for a in range(A):
        r2.append(a)
        c2.append(0)
        v2.append(-1.0)
    Aub = coo_matrix((v2, (r2, c2)), shape=(A, nvar)).tocsr()
    c = np.zeros(nvar)
    c[0] = 1.0
    t0 = time.time()
    opts = {"time_limit": limit} if limit else {}
    res = linprog(c, A_ub=Aub, b_ub=np.zeros(A), A_eq=Aeq, b_eq=np.array(b),
                  bounds=(0, None), method=HIGHS, options=opts)
    secs = time.time() - t0
    return (1.0 / res.x[0] if res.status == 0 else float("nan")), secs


def main():
    args = sys.argv[1:]
    limit = None
    if args[:1] == ["--limit"]:
        limit, args = float(args[1]), args[2:]
    print(f"# HiGHS method: {HIGHS}")
    print("| topology | switches | TM | moore method | moore θ | moore s | HiGHS θ | HiGHS s "
          "| rel. diff | HiGHS s / moore s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        for topo in args:
            # moore's own text format, whatever the input (SPEC, netbench file, ...)
            path = os.path.join(tmp, "topo.txt")
            subprocess.run([MOORE, "build", topo, "-o", path], check=True)
            n, links, ep = read_topology(path)
            for kind in os.environ.get("TMS", "uniform,worst").split(","):
                T = traffic(n, links, ep, kind)
                csv = os.path.join(tmp, "tm.csv")
                with open(csv, "w") as f:
                    f.writelines(f"{s},{t},{d!r}\n" for (s, t), d in sorted(T.items()))
                cmd = [MOORE, "throughput", path, "--tm", csv, "--exact", "--json"]
                if limit:
                    cmd += ["--time-limit", str(limit)]
                t0 = time.time()
                out = json.loads(subprocess.run(cmd, check=True, capture_output=True,
                                                text=True).stdout)
                ms = time.time() - t0
                h, hs = highs(n, links, T, limit)
                mt = f"{out['throughput']:.9g}"
                if not out.get("converged", True):
                    mt = f"{out['lower']:.6g}–{out['upper']:.6g} (stopped)"
                if h == h:
                    ht, diff = f"{h:.9g}", f"{abs(out['throughput'] - h) / h:.1e}"
                else:
                    ht, diff = f"> {limit:g} s (stopped)", "–"
                ratio = f"{hs / ms:.2f}" + (" (at least)" if h != h else "")
                print(f"| {topo} | {n} | {kind} | {out['method']} | {mt} "
                      f"| {ms:.2f} | {ht} | {hs:.2f} | {diff} | {ratio} |", flush=True)


if __name__ == "__main__":
    main()

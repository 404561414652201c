#!/usr/bin/env python3
"""route_tables_check.py — an independent reader of `moore route --tables`.

    route_tables_check.py TOPOLOGY CABLES TABLES [--all]
    route_tables_check.py --list FILE    (lines "TOPOLOGY CABLES TABLES [--all]")

TOPOLOGY is `moore build` output (edge list, "# endpoints:" line), CABLES the
plan of `moore layout --cables`, TABLES the forwarding tables. It uses nothing
of moore's code: it reads the three files as a switch would be configured
from them and checks what a switch needs (docs/routing.md):

  * every port named in a row is a port of that switch in the cable plan,
    weights are positive integers, one per port, and the layer an integer;
  * every switch has exactly one row for every destination with servers
    (every switch with --all, or when the graph has no servers) but itself;
  * per destination, following every listed port from any switch reaches the
    destination without revisiting a switch (the next-hop graph is acyclic and
    its only sink is the destination).

Exits 0 when all hold, else 1 with the first violation on stderr.
"""
import csv
import sys


where = ""


def fail(msg):
    sys.stderr.write("route_tables_check: %s: %s\n" % (where, msg))
    sys.exit(1)


def read_topology(path):
    n, endpoints, links = 0, None, set()
    with open(path) as f:
        for line in f:
            if line.startswith("# switches:"):
                n = int(line.split(":")[1])
            elif line.startswith("# endpoints:"):
                endpoints = [int(x) for x in line.split(":")[1].split()]
            elif line.strip() and not line.startswith("#"):
                u, v = (int(x) for x in line.split()[:2])
                links.add((min(u, v), max(u, v)))
    if endpoints is not None and len(endpoints) == 1:  # one count for every switch
        endpoints = endpoints * n
    return n, endpoints or [0] * n, links


def read_ports(path, links):
    """(switch, port) -> the switch at the cable's other end."""
    port = {}
    with open(path) as f:
        for row in csv.DictReader(f):
            if row["kind"] != "switch":  # server cables: no switch-to-switch port
                continue
            a, b = int(row["from"]), int(row["to"])
            if (min(a, b), max(a, b)) not in links:
                fail("cable %s joins %d and %d, not a link" % (row["cable"], a, b))
            for s, p, o in ((a, row["from_port"], b), (b, row["to_port"], a)):
                if (s, int(p)) in port:
                    fail("port %s of switch %d used twice" % (p, s))
                port[(s, int(p))] = o
    return port


def check(argv):
    global where
    where = argv[2]
    args = [a for a in argv if a != "--all"]
    every = "--all" in argv
    n, endpoints, links = read_topology(args[0])
    port = read_ports(args[1], links)
    listed = [every or sum(endpoints) == 0 or e > 0 for e in endpoints]
    # nxt[t][u] = set of next switches of u toward t
    nxt = [dict() for _ in range(n)]
    with open(args[2]) as f:
        reader = csv.reader(f)
        header = next(reader)
        if header != ["switch", "dst_first", "dst_last", "layer", "ports", "weights"]:
            fail("header %s" % header)
        for row in reader:
            u, lo, hi = int(row[0]), int(row[1]), int(row[2])
            if row[3] != "" and int(row[3]) < 0:
                fail("negative layer in %s" % row)
            ports = [int(p) for p in row[4].split()]
            weights = [int(w) for w in row[5].split()]
            if not ports or len(ports) != len(weights) or min(weights) < 1:
                fail("row %s: ports and positive integer weights must pair up" % row)
            hops = set()
            for p in ports:
                if (u, p) not in port:
                    fail("switch %d has no port %d in the cable plan" % (u, p))
                hops.add(port[(u, p)])
            if not 0 <= lo <= hi < n:
                fail("row %s: bad destination range" % row)
            for t in range(lo, hi + 1):
                if not listed[t]:
                    continue
                if t == u:
                    fail("switch %d has a row for itself" % u)
                if u in nxt[t]:
                    fail("switch %d has two rows for destination %d" % (u, t))
                nxt[t][u] = hops
    for t in range(n):
        if not listed[t]:
            if nxt[t]:
                fail("destination %d has no servers but rows" % t)
            continue
        missing = [u for u in range(n) if u != t and u not in nxt[t]]
        if missing:
            fail("switch %d has no row toward %d" % (missing[0], t))
        # iterative DFS: gray = on the current walk; a gray neighbour is a loop
        state = [0] * n  # 0 new, 1 on the walk, 2 reaches t
        state[t] = 2
        for s in range(n):
            if state[s]:
                continue
            stack = [(s, iter(sorted(nxt[t][s])))]
            state[s] = 1
            while stack:
                u, it = stack[-1]
                v = next(it, None)
                if v is None:
                    state[u] = 2
                    stack.pop()
                elif state[v] == 1:
                    fail("loop toward %d through %d -> %d" % (t, u, v))
                elif state[v] == 0:
                    if v not in nxt[t]:
                        fail("switch %d forwards toward %d to %d, which has no row" % (u, t, v))
                    state[v] = 1
                    stack.append((v, iter(sorted(nxt[t][v]))))


def main():
    if sys.argv[1] == "--list":
        with open(sys.argv[2]) as f:
            for line in f:
                if line.strip():
                    check(line.split())
    else:
        check(sys.argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main())

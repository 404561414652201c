#!/usr/bin/env python3
"""ib_trace.py — ibtracert's hop sequences against moore's routes (run by
tests/deploy_opensm.sh, docs/deploy.md).

  ib_trace.py sample FABRIC N SEED LMC   > pairs   N HCA pairs on different
      switches (a fixed LCG seeded with SEED), each with every LID offset
      0..2^LMC-1: lines "SRC-PORTGUID DST-PORTGUID OFFSET".
  ib_trace.py check FABRIC PATHS.csv TRACE           every traced switch
      sequence must start at the source HCA's switch, end at the destination
      HCA's, reach the destination port, and be one of the paths `moore route
      --paths` lists for that switch pair. Prints "traces=T multipath=M" (M:
      pairs whose LID offsets took more than one path); exit 1 on a mismatch.

  ib_trace.py sl FABRIC PATHS.csv SLS              every "SRC DST OFFSET SL"
      line (the SL OpenSM's SA answered for that pair) must give the layer
      `moore route --paths` lists for the pair's switches (minimal and ECMP:
      the destination's layer). Prints "pairs=P sls=S" (S: distinct SLs).

Switches are named by moore's GUID scheme (docs/deploy.md): switch s has node
GUID 0x0201000000000000 + s*256. The HCA -> switch map comes from the fabric
file's cables, the paths from moore's routing module: neither from the LFTs.
"""
import re
import sys

SWITCH_BASE = 0x0201000000000000


def switch_id(guid):
    return (int(guid, 16) - SWITCH_BASE) >> 8


def hcas(fabric):
    """port GUID (0x-prefixed, lower case) -> moore switch id, in file order."""
    out, in_ca = {}, False
    for line in open(fabric):
        if line.startswith("Ca"):
            in_ca = True
            continue
        m = re.match(r'\[1\]\(([0-9a-fA-F]+)\)\s+"S-([0-9a-fA-F]+)"', line)
        if in_ca and m:
            out["0x" + m.group(1).lower()] = switch_id(m.group(2))
            in_ca = False
    return out


def sample(fabric, n, seed, lmc):
    h = hcas(fabric)
    guids = list(h)
    x, pairs = seed, 0
    while pairs < n:
        x = (x * 1103515245 + 12345) % 2**31
        a = guids[x % len(guids)]
        x = (x * 1103515245 + 12345) % 2**31
        b = guids[x % len(guids)]
        if h[a] == h[b]:
            continue
        for off in range(1 << lmc):
            print(a, b, off)
        pairs += 1


def check(fabric, paths_csv, trace):
    h = hcas(fabric)
    paths = {}
    for row in open(paths_csv).read().splitlines()[1:]:
        src, dst, _, _, path = row.split(",")
        paths.setdefault((int(src), int(dst)), set()).add(path)
    blocks, cur = [], None
    for line in open(trace):
        if line.startswith("== "):
            cur = [line.split()[1:], [], None]
            blocks.append(cur)
            continue
        m = re.search(r"-> switch port \{(0x[0-9a-fA-F]+)\}", line)
        if m:
            cur[1].append(switch_id(m.group(1)))
        m = re.search(r"-> ca port \{(0x[0-9a-fA-F]+)\}", line)
        if m:
            cur[2] = m.group(1).lower()
    bad, taken = 0, {}
    for (src, dst, off), seq, end in blocks:
        a, b = h[src.lower()], h[dst.lower()]
        path = "-".join(map(str, seq))
        if end != dst.lower() or path not in paths.get((a, b), ()):
            print(f"{src} -> {dst} offset {off}: ibtracert went {path or 'nowhere'} to "
                  f"{end}; moore routes switch {a} to {b} over "
                  f"{sorted(paths.get((a, b), ()))}")
            bad += 1
        taken.setdefault((src, dst), set()).add(path)
    multi = sum(len(p) > 1 for p in taken.values())
    print(f"traces={len(blocks)} multipath={multi}")
    return 1 if bad or not blocks else 0


def sls(fabric, paths_csv, sl_file):
    h = hcas(fabric)
    layer = {}
    for row in open(paths_csv).read().splitlines()[1:]:
        src, dst, _, lay, _ = row.split(",")
        layer.setdefault((int(src), int(dst)), set()).add(int(lay))
    bad, seen, pairs = 0, set(), 0
    for line in open(sl_file):
        src, dst, off, sl = line.split()
        a, b = h[src.lower()], h[dst.lower()]
        got = int(sl, 16) if sl.startswith("0x") else None
        pairs += 1
        seen.add(got)
        if layer.get((a, b)) != {got}:
            print(f"{src} -> {dst} offset {off}: the SA gave SL {sl}; moore's layer for switch "
                  f"{a} to {b} is {sorted(layer.get((a, b), ()))}")
            bad += 1
    print(f"pairs={pairs} sls={len(seen)}")
    return 1 if bad or not pairs else 0


if __name__ == "__main__":
    if sys.argv[1] == "sample":
        sample(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5]))
    elif sys.argv[1] == "sl":
        sys.exit(sls(sys.argv[2], sys.argv[3], sys.argv[4]))
    else:
        sys.exit(check(sys.argv[2], sys.argv[3], sys.argv[4]))

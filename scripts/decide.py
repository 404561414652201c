#!/usr/bin/env python3
"""decide.py — the main job's decision under two traffic rules, side by side.

Reads two `moore compare --json=lines` outputs (one row object per line, the
Clos baseline first), the first run with `--traffic uniform`, the second with
`--traffic hose`, and prints per family the chosen configuration's switches and
cost against the Clos under each rule, then one line saying which family is
cheapest under each rule and by how much.

    scripts/decide.py uniform.jsonl hose.jsonl
"""
import json
import sys


def rows(path):
    with open(path, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def pct(v):
    return "-" if v is None else f"{v:+.1f}%"


def cheapest(rs):
    """The lowest-cost row and how much cheaper it is than the next one."""
    by = sorted((r for r in rs if r.get("cost_total") is not None), key=lambda r: r["cost_total"])
    if not by:
        return None, None
    nxt = by[1] if len(by) > 1 else None
    gap = None if nxt is None else 100.0 * (nxt["cost_total"] / by[0]["cost_total"] - 1)
    return by[0], (nxt, gap)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: decide.py UNIFORM.jsonl HOSE.jsonl")
    rules = [("uniform", rows(sys.argv[1])), ("hose", rows(sys.argv[2]))]
    fams = []
    for _, rs in rules:
        for r in rs:
            if r["family"] not in fams:
                fams.append(r["family"])
    by = [{r["family"]: r for r in rs} for _, rs in rules]
    # each topology column as wide as its longest SPEC: a SPEC is never cut
    wide = [max([len("not proven")] + [len(r["topology"]) for r in b.values()]) for b in by]
    print("the decision under uniform traffic and under any traffic (hose), full bandwidth proven\n")
    head = [f"{name + ': topology':<{w}} {'switches':>8} {'cost vs Clos':>12}"
            for (name, _), w in zip(rules, wide)]
    print(f"{'family':<14} {head[0]}   {head[1]}")
    for fam in fams:
        cells = []
        for b, w in zip(by, wide):
            r = b.get(fam)
            if r is None:
                cells.append(f"{'not proven':<{w}} {'-':>8} {'-':>12}")
            else:
                cells.append(f"{r['topology']:<{w}} {r['switches']:>8,} "
                             f"{pct(r.get('vs_clos_cost_pct')):>12}")
        print(f"{fam:<14} {cells[0]}   {cells[1]}")
    said = []
    for (name, rs) in rules:
        best, (nxt, gap) = cheapest(rs)
        if best is None:
            said.append(f"under {name}: no row priced")
            continue
        vs = best.get("vs_clos_cost_pct")
        what = f"{best['family']} ({pct(vs)} cost vs the Clos" if best["family"] != "clos" \
            else "the Clos baseline ("
        what += f"; the next, {nxt['family']}, costs {gap:+.1f}% more)" if nxt else ")"
        said.append(f"under {name} traffic the cheapest is {what}")
    print("\n" + "; ".join(said).replace("(; ", "(") + ".")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""analysis_table.py — writes docs/analysis.md: bisection, symmetry and path
diversity of the radix-48 configurations in the commonly quoted Slim Fly table and the
topologies the seeds compare it with, beside what the seeds claim, and how
long METIS (bisection group) and Traces (symmetry group) took.

Every topology is a SPEC run through the `moore` CLI; families that
`moore families` does not list yet are reported as skipped, so the table
fills in by re-running this script once they are merged:

    python3 bench/analysis_table.py [--moore build/moore] [--out docs/analysis.md]

Standard library only. Times are wall-clock seconds of one `moore stats`
run per metric group (building the topology included; the `basic` column is
that build-and-load baseline) on the machine that ran the script.
"""
import argparse
import datetime
import json
import math
import os
import subprocess
import sys
import time

RADIX = 48

# The often-quoted claims on Xpander and Slim Fly, quoted per family.
CLAIMS = {
    "slimfly": ("~0.89 · N/2 (\"close to full bisection\")", "yes"),
    "fattree": ("= N/2 (full bisection)", "no"),
    "dragonfly": ("~0.5 · N/2", "no"),
    "hyperx": ("configurable", "yes"),
    "jellyfish": ("~d·N_s/4 (\"near optimal\": half the links)", "-"),
    "xpander": ("0.8–0.9 × Jellyfish (same size and degree)", "no"),
    "complete": ("-", "-"),
    "petersen": ("-", "-"),
    "hoffman-singleton": ("-", "-"),
}


def slimfly_degree(q):
    delta = 1 if q % 4 == 1 else (0 if q % 4 == 0 else -1)
    return (3 * q - delta) // 2


def configurations():
    """(section, spec, note) in table order."""
    rows = []
    for q in (5, 13, 17, 29):
        d = slimfly_degree(q)
        n = 2 * q * q
        k = -(-n // (d + 1))  # Xpander super-node size giving >= n switches
        sec = f"Slim Fly q={q} size: {n} switches, network degree {d}, radix {RADIX}"
        rows.append((sec, f"slimfly:q={q},radix={RADIX}", f"p = {RADIX - d} (often-quoted table)"))
        rows.append((sec, f"slimfly:q={q}", f"p = {(d + 1) // 2} (default ⌈k'/2⌉)"))
        rows.append((sec, f"jellyfish:n={n},d={d},radix={RADIX},seed=1", "same N, d, p"))
        rows.append((sec, f"xpander:d={d},k={k},radix={RADIX},seed=1", f"N = {k * (d + 1)}"))
    sec = (f"Slim Fly beyond q ≡ 1 (mod 4): δ = 0 and δ = −1 "
           f"(docs/slimfly.md), radix {RADIX}")
    for q in (8, 16, 19, 23):
        rows.append((sec, f"slimfly:q={q},radix={RADIX}",
                     f"δ = {0 if q % 4 == 0 else -1}, p = {RADIX - slimfly_degree(q)}"))
    sec = f"Deployed topologies from radix-{RADIX} switches"
    rows.append((sec, "fattree:k=48", "3-level, k³/4 endpoints"))
    rows.append((sec, "dragonfly:p=12", "balanced a=24, h=12, g=289"))
    rows.append((sec, f"hyperx:L=2,S=17,radix={RADIX}", ""))
    rows.append((sec, f"hyperx:L=3,S=12,radix={RADIX}", ""))
    sec = f"Direct networks, fat-trees and word graphs from radix-{RADIX} switches"
    rows.append((sec, "hypercube:n=10,p=10", "p = min(d, R − d)"))
    rows.append((sec, "mesh:dims=8x8x8,p=6", "p = min(d, R − d)"))
    rows.append((sec, "tofu:dims=4x4x4,p=10", "2×3×2 units, degree 10"))
    rows.append((sec, "flatbutterfly:n=3,k=16", "p = k, radix n(k−1)+1 = 46"))
    rows.append((sec, "karyntree:k=24,n=3", "k^n endpoints"))
    rows.append((sec, "xgft:h=2,m=24.32,w=24.16", "slimmed top level"))
    rows.append((sec, "kautz:b=8,n=3,p=16", "degree 15..16"))
    rows.append((sec, "arrangement:n=8,k=3,p=15", "degree k(n−k) = 15"))
    sec = "Reference graphs (closed forms: K_12 36, Petersen 5)"
    rows.append((sec, "complete:n=12", ""))
    rows.append((sec, "petersen", ""))
    rows.append((sec, "hoffman-singleton", ""))
    sec = (f"Low-diameter families of the field's papers, radix {RADIX} "
           f"where the family allows it")
    rows.append((sec, "mlfm:h=24", "LRs: 24 links + 24 endpoints; GRs: 48 links"))
    rows.append((sec, "oft:k=24", "leaves: 24 up + 24 endpoints; L1: 48 down"))
    rows.append((sec, "megafly:d=48,g=24", "25 groups of 24 leaves + 24 spines"))
    rows.append((sec, "cascade:g=12", "Aries: 48 ports, 4 nodes each"))
    rows.append((sec, f"spectralfly:s=29,q=13,radix={RADIX}", "PSL(2,13), degree 30"))
    rows.append((sec, f"bundlefly:q=7,r=13,radix={RADIX}", "MMS(7) * Paley(13), degree 17"))
    rows.append((sec, f"polarstar:q=7,jd=8,radix={RADIX}", "ER_7 * bdf(8), degree 16"))
    rows.append((sec, f"delorme:q=8,radix={RADIX}", "W(8) polarity graph, degree 9"))
    return rows


def run(moore, spec, groups, timeout):
    """JSON report and wall seconds, or (None, error line)."""
    t0 = time.monotonic()
    try:
        p = subprocess.run([moore, "stats", spec, "--json", "--metrics", groups],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timed out after {timeout} s"
    dt = time.monotonic() - t0
    if p.returncode != 0:
        return None, (p.stderr.strip().splitlines() or ["exit %d" % p.returncode])[-1]
    return json.loads(p.stdout), dt


def num(x):
    """JSON numbers that happen to be whole come back as int; make them float."""
    return float(x) if isinstance(x, int) and not isinstance(x, bool) else x


def fmt(x, digits=3):
    if x is None:
        return "null"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return f"{x:,}"
    if isinstance(x, float):
        if math.isinf(x) or abs(x) >= 1e7:
            return f"{x:.3e}"
        return f"{x:.{digits}f}"
    return str(x)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap.add_argument("--moore", default=os.path.join(root, "build", "moore"))
    ap.add_argument("--out", default=os.path.join(root, "docs", "analysis.md"))
    ap.add_argument("--timeout", type=int, default=900)
    ap.add_argument("--only", default="",
                    help="run only the sections whose title contains this text")
    args = ap.parse_args()

    fams = json.loads(subprocess.run([args.moore, "families", "--json"], check=True,
                                     capture_output=True, text=True).stdout)
    known = {f["name"] for f in fams}
    version = subprocess.run([args.moore, "--version"], capture_output=True,
                             text=True).stdout.strip()

    results = []
    for sec, spec, note in configurations():
        if args.only not in sec:
            continue
        fam = spec.split(":")[0]
        r = {"section": sec, "spec": spec, "note": note, "family": fam}
        if fam not in known:
            r["skip"] = f"family '{fam}' not in `moore families` yet"
            results.append(r)
            print(f"skip {spec}: {r['skip']}", file=sys.stderr)
            continue
        for group in ("basic", "bisection", "symmetry", "diversity"):
            rep, t = run(args.moore, spec, group, args.timeout)
            if rep is None:
                r["skip"] = f"{group}: {t}"
                break
            r.setdefault("report", {}).update(rep)
            r["t_" + group] = t
        print(f"done {spec}", file=sys.stderr)
        results.append(r)

    out = []
    w = out.append
    w("# Bisection, symmetry and path diversity at radix 48")
    w("")
    w(f"Written by `bench/analysis_table.py` on {datetime.date.today()} with {version}, "
      f"on a machine with {os.cpu_count()} cores. Re-run it after new families land: "
      "rows whose family `moore families` does not list yet say so.")
    w("")
    w("How the numbers are made (docs/throughput.md):")
    w("- **cut**: fewest links between two halves of the endpoints, by METIS "
      "(`METIS_PartGraphRecursive`, 8 seeds, best kept) with switch weight = endpoint count, "
      "then balanced to within one switch's endpoints. An upper bound on the true bisection.")
    w("- **lower**: spectral lower bound (a(G)·N/4 for uniform endpoints; for endpoints on "
      "some switches only, the Fiedler value of the endpoint-weighted Schur complement). "
      "`null` above 3,000 switches (dense eigen-solve).")
    w("- **cut/(E/2)**: normalised bisection bandwidth, E = endpoints; 1 = full bisection. "
      "**cut/(L/2)**: the cut as a fraction of half the links, which is what a random split "
      "cuts (the often quoted \"d·N/4\" for Jellyfish is exactly L/2).")
    w("- **VT**: vertex-transitive as Traces (nauty 2.8) finds it; |Aut| the group order.")
    w("- **disjoint**: edge-disjoint paths per switch pair by max-flow (min over pairs; exact "
      "for all pairs up to 4,000 switches via Gusfield's flow tree, else 2,000 seeded pairs); "
      "**SP mean**: mean number of shortest paths per ordered pair.")
    w("- **s**: wall seconds of `moore stats SPEC --metrics G` for G = basic (build + load "
      "only), bisection (METIS + the dense eigen-solve), symmetry (Traces).")
    w("")
    sections = []
    for r in results:
        if r["section"] not in sections:
            sections.append(r["section"])
    for sec in sections:
        rows = [r for r in results if r["section"] == sec]
        w(f"## {sec}")
        w("")
        w("| topology | switches | endpoints | links | cut | lower | cut/(E/2) | cut/(L/2) "
          "| often-quoted bisection claim | VT | quoted VT | \\|Aut\\| | disjoint min | SP mean "
          "| s basic | s bisection | s symmetry |")
        w("|" + "---|" * 17)
        for r in rows:
            claim, vt_claim = CLAIMS.get(r["family"], ("-", "-"))
            label = f"`{r['spec']}`" + (f" ({r['note']})" if r["note"] else "")
            if "skip" in r:
                w(f"| {label} | skipped: {r['skip']} |" + " |" * 15)
                continue
            j = r["report"]
            links = j.get("links")
            cut = j.get("bisection_cut")
            frac_links = (cut / (links / 2)) if cut is not None and links else None
            aut = j.get("automorphisms")
            if aut is None and j.get("automorphisms_log10") is not None:
                aut = f"10^{j['automorphisms_log10']:.1f}"
            w("| " + " | ".join([
                label, fmt(j.get("switches")), fmt(j.get("endpoints")), fmt(links), fmt(cut),
                fmt(j.get("bisection_lower"), 1), fmt(num(j.get("bisection_bandwidth"))),
                fmt(frac_links), claim, fmt(j.get("vertex_transitive")), vt_claim, fmt(aut),
                fmt(j.get("disjoint_paths_min")), fmt(num(j.get("shortest_paths_mean"))),
                fmt(r.get("t_basic"), 2), fmt(r.get("t_bisection"), 2),
                fmt(r.get("t_symmetry"), 2)]) + " |")
        w("")

    # The often-quoted relative claims, where both sides were measured.
    w("## The often-quoted relative claims")
    w("")
    byspec = {r["spec"]: r for r in results if "report" in r}
    lines = []
    for q in (5, 13, 17, 29):
        d = slimfly_degree(q)
        n = 2 * q * q
        k = -(-n // (d + 1))
        jf = byspec.get(f"jellyfish:n={n},d={d},radix={RADIX},seed=1")
        xp = byspec.get(f"xpander:d={d},k={k},radix={RADIX},seed=1")
        sf = byspec.get(f"slimfly:q={q},radix={RADIX}")
        if jf and xp:
            a = xp["report"]["bisection_bandwidth"]
            b = jf["report"]["bisection_bandwidth"]
            lines.append(f"- q={q} size: Xpander / Jellyfish normalised bisection = "
                         f"{a:.3f} / {b:.3f} = **{a / b:.2f}** (seed: 0.8–0.9).")
        if sf and jf:
            a = sf["report"]["bisection_bandwidth"]
            b = jf["report"]["bisection_bandwidth"]
            lines.append(f"- q={q} size: Slim Fly / Jellyfish (same N, d, p) = "
                         f"{a:.3f} / {b:.3f} = **{a / b:.2f}**.")
    w("\n".join(lines) if lines else "Not measurable yet: the families are not built.")
    w("")
    w("## Symmetry claims that nauty contradicts")
    w("")
    wrong = []
    for r in results:
        claim = CLAIMS.get(r["family"], ("-", "-"))[1]
        if "report" in r and claim in ("yes", "no"):
            vt = r["report"].get("vertex_transitive")
            if vt is not None and vt != (claim == "yes"):
                wrong.append(f"- `{r['spec']}`: seed says vertex-transitive = {claim}; Traces "
                             f"finds {r['report'].get('orbits')} orbits.")
    w("\n".join(wrong) if wrong else "None among the rows measured.")
    w("")
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    tmp = args.out + ".tmp"
    with open(tmp, "w") as f:
        f.write("\n".join(out) + "\n")
    os.replace(tmp, args.out)
    print(f"wrote {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

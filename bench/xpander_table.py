#!/usr/bin/env python3
"""xpander_table.py — the measurements behind docs/xpander.md.

At equal switch count and network degree (about 200, 1,000 and 10,000
switches) it builds the paper's Xpander, the clique variant common in the literature,
Jellyfish, and — when `moore families` lists slimfly — Slim Fly with a
Jellyfish and the nearest Xpander of the same size and degree, and measures
λ₂, λ₂ and λ_nontrivial against the Ramanujan bound 2√(d−1), the algebraic
connectivity, diameter and average path length, plus the wall time of the
build and of the spectrum. A second table follows an Xpander through three
2-lifts. Re-runnable: with --update FILE it replaces the text between the
`<!-- xpander-table:begin -->` and `<!-- xpander-table:end -->` markers.

    bench/xpander_table.py [--moore build/moore] [--update docs/xpander.md] [--quick]

--quick skips the 10,000-switch rows. Uses only the moore binary and the
Python standard library.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

BEGIN = "<!-- xpander-table:begin -->"
END = "<!-- xpander-table:end -->"


def run(moore, args):
    t0 = time.monotonic()
    out = subprocess.run([moore] + args, check=True, capture_output=True, text=True).stdout
    return out, time.monotonic() - t0


def families(moore):
    out, _ = run(moore, ["families", "--json"])
    return {f["name"] for f in json.loads(out)}


def measure(moore, tmp, label, spec):
    path = os.path.join(tmp, "g.txt")
    _, t_build = run(moore, ["build", spec, "-o", path])
    out, t_spec = run(moore, ["stats", path, "--metrics", "basic,spectral", "--json"])
    s = json.loads(out)
    out, _ = run(moore, ["stats", path, "--metrics", "paths", "--json"])
    s.update(json.loads(out))
    s["label"], s["spec"], s["t_build"], s["t_spec"] = label, spec, t_build, t_spec
    return s


def fmt(x, nd=3):
    if x is None:
        return "–"
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, int):
        return str(x)
    return f"{x:.{nd}f}"


def show_spec(spec):
    """A SPEC in backquotes; a file by its path in the repository."""
    if os.path.exists(spec) and "tests/data/" in spec:
        spec = "tests/data/" + spec.split("tests/data/", 1)[1]
    return f"`{spec}`"


def table(rows):
    head = ("| topology | SPEC | N | d | λ₂ | λ₂ / 2√(d−1) | λ_nt / 2√(d−1) | Ramanujan "
            "| a(G) | diameter | avg path | build s | spectrum s |")
    lines = [head, "|" + "---|" * 13]
    for r in rows:
        bound = r.get("ramanujan_bound")
        ratio2 = r["lambda2"] / bound if bound else None
        ratio_nt = r["lambda_nontrivial"] / bound if bound else None
        lines.append("| " + " | ".join([
            r["label"], show_spec(r["spec"]), str(r["switches"]), str(r["degree_max"]),
            fmt(r["lambda2"]), fmt(ratio2), fmt(ratio_nt), fmt(r["is_ramanujan"]),
            fmt(r["algebraic_connectivity"]), fmt(r.get("diameter")),
            fmt(r.get("avg_path_length")), fmt(r["t_build"], 2), fmt(r["t_spec"], 2)]) + " |")
    return "\n".join(lines)


def size_classes(quick, have_slimfly, netbench):
    """(title, [(label, spec)]) per size class; equal N and d inside a block."""
    a = [("Xpander, paper (random matchings)", "xpander:d=10,k=21,seed=1"),
         ("Xpander, paper, best of 8 tries", "xpander:d=10,k=21,seed=1,tries=8"),
         ("Jellyfish", "jellyfish:n=231,d=10,seed=1"),
         ("Xpander, clique variant k=7 (meta 33 nodes, d_M=4)",
          "xpander:meta=jellyfish:n=33;d=4;seed=1,k=7,intra=clique"),
         ("Xpander, clique variant k=3 (meta 77 nodes, d_M=8)",
          "xpander:meta=jellyfish:n=77;d=8;seed=1,k=3,intra=clique")]
    if netbench:
        a.insert(2, ("Xpander, authors' generator (netbench file)", netbench))
    b = [("Xpander, paper (random matchings)", "xpander:d=15,k=64,seed=1"),
         ("Xpander, paper, deterministic 2-lifts", "xpander:d=15,k=64,matching=lift,seed=1"),
         ("Jellyfish", "jellyfish:n=1024,d=15,seed=1"),
         ("Xpander, clique variant k=8 (meta 128 nodes, d_M=8)",
          "xpander:meta=jellyfish:n=128;d=8;seed=1,k=8,intra=clique"),
         ("Xpander, clique variant k=4 (meta 256 nodes, d_M=12)",
          "xpander:meta=jellyfish:n=256;d=12;seed=1,k=4,intra=clique")]
    c = [("Xpander, paper (random matchings)", "xpander:d=24,k=400,seed=1"),
         ("Jellyfish", "jellyfish:n=10000,d=24,seed=1"),
         ("Xpander, clique variant k=10 (meta 1,000 nodes, d_M=15)",
          "xpander:meta=jellyfish:n=1000;d=15;seed=1,k=10,intra=clique")]
    blocks = [("About 200 switches: N = 231, d = 10 (the paper's netbench configuration)", a),
              ("About 1,000 switches: N = 1,024, d = 15", b)]
    if not quick:
        blocks.append(("About 10,000 switches: N = 10,000, d = 24 (radix 48 split 1:1)", c))
    if have_slimfly:
        # Slim Fly fixes (N, d) = (2q², (3q−δ)/2); Jellyfish matches it exactly, the
        # paper's Xpander only to the nearest k (N = k(d+1)).
        sf = [(11, 242, 17), (23, 1058, 35)] + ([] if quick else [(71, 10082, 107)])
        for q, n, d in sf:
            k = round(n / (d + 1))
            blocks.append((f"Slim Fly q={q}: N = {n}, d = {d}", [
                ("Slim Fly", f"slimfly:q={q}"),
                ("Jellyfish", f"jellyfish:n={n},d={d},seed=1"),
                (f"Xpander, paper (nearest: N = {k * (d + 1)})", f"xpander:d={d},k={k},seed=1")]))
    return blocks


def lift_table(moore, tmp):
    """Three 2-lifts of the paper's Xpander, with the signing search and with a
    plain random signing (one try, no flips), as the seed describes it."""
    path = os.path.join(tmp, "lift.txt")
    base = "xpander:d=10,k=21,seed=1"
    lines = ["| signing | step | N | λ₂ before | λ₂ after | ρ(A_s) | 2√(d−1) "
             "| gap kept (ρ ≤ λ₂) | λ₂ kept | Ramanujan signing |", "|" + "---|" * 10]
    notes = []
    for label, extra in (("searched", []), ("random", ["--tries", "1", "--evals", "1"])):
        args = ["lift", base, "--times", "3", "--seed", "1", "--json", "-o", path] + extra
        out, t = run(moore, args)
        for line in out.splitlines():
            j = json.loads(line)
            lines.append("| " + " | ".join([
                label, str(j["step"]), f"{j['switches_before']} → {j['switches_after']}",
                fmt(j["lambda2_before"]), fmt(j["lambda2_after"]), fmt(j["rho"]),
                fmt(j["ramanujan_bound"]), fmt(j["gap_kept"]), fmt(j["lambda2_kept"]),
                fmt(j["ramanujan_signing"])]) + " |")
        notes.append(f"`moore {' '.join(args[:2] + args[2:6] + extra)}` took {t:.1f} s")
    lines.append("")
    lines.append("; ".join(notes) + " (the search: 4 tries × 32 eigen-solves per lift).")
    return "\n".join(lines)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--moore", default="build/moore")
    ap.add_argument("--update", metavar="FILE")
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    fams = families(args.moore)
    # the netbench file of the Xpander authors' generator, kept in tests/data
    here = os.path.dirname(os.path.abspath(__file__))
    netbench = os.path.normpath(os.path.join(here, "..", "tests", "data",
                                             "xpander_n231_d10.topology"))
    if not os.path.exists(netbench):
        netbench = None
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        for title, rows in size_classes(args.quick, "slimfly" in fams, netbench):
            print(f"measuring: {title}", file=sys.stderr)
            out.append(f"**{title}**\n")
            out.append(table([measure(args.moore, tmp, label, spec) for label, spec in rows]))
            out.append("")
        print("measuring: 2-lifts", file=sys.stderr)
        out.append("**Growing the paper's Xpander by 2-lifts** (231 → 1,848 switches)\n")
        out.append(lift_table(args.moore, tmp))
    host = os.uname()
    out.append("")
    out.append(f"Measured by `bench/xpander_table.py` on {host.sysname} {host.machine}, "
               f"{os.cpu_count()} cores, {time.strftime('%Y-%m-%d')}; times are wall-clock "
               "seconds of one `moore build` and one `moore stats --metrics basic,spectral` "
               "on the built file (the machine was shared, so they are indicative).")
    text = "\n".join(out) + "\n"
    if args.update:
        doc = open(args.update).read()
        if BEGIN not in doc or END not in doc:
            sys.exit(f"{args.update}: no {BEGIN} / {END} markers")
        head, rest = doc.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        with open(args.update, "w") as f:
            f.write(head + BEGIN + "\n" + text + END + tail)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()

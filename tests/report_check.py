#!/usr/bin/env python3
"""report_check.py — checks a page written by `moore report` as a reader and a tool see it.

    report_check.py PAGE.html DATA_DIR SCREENSHOT.png [ENDPOINTS]

- the page is well-formed HTML (every element closed in order) with no external reference
  (no src/href/url() to another host or file, no <link>, no <script src>);
- every figure of REQUIRED is drawn (switches ... routed throughput), and each carries its title and axis labels (data attributes) and the SVG PLplot drew
  shows each of them as text;
- each figure's CSV in DATA_DIR holds exactly the numbers of the table printed under it;
- with ENDPOINTS (the report's --endpoints, a point of its sweep): the comparison table and
  the figures against size say the same at that point: the same families, each with the
  table's switches, cables and cost per server in switches.csv, cables.csv and cost.csv,
  and no note calling a family of the table absent there;
- the one-line recommendation at the top names the table's cheapest row, and each claim
  "than a fat-tree" / "than the Clos" is measured on the fat-tree / Clos row;
- with a training step (`--job`): the step figure is drawn, the ideal bar first; its table
  lists every family of the comparison table that is not named in a note, fastest first;
  each row's step bounds are the sums of its phases' bounds in step.csv, its ideal the sum
  of the ideal bar's phases and its slowdown upper / ideal; no phase of a fabric is faster
  than on the ideal non-blocking fabric, and every lower bound is at most its upper bound;
- the screenshot Chromium made of the page is not blank.
Prints one line per failure and exits 1 if any."""
import csv
import html.parser
import os
import struct
import sys
import zlib

# Every figure the page draws (docs/report.md); each must be there as a figure, not a note.
REQUIRED = ["switches", "cables", "cost", "diameter", "apl", "throughput", "spectral",
            "distances", "resilience_connected", "resilience_throughput", "routing"]
VOID = {"meta", "br", "hr", "img", "input", "link", "source", "wbr", "col", "area", "base"}
SVG_VOID_OK = True


class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors = [], []
        self.figures = {}        # id -> {"attrs": ..., "texts": [...]}
        self.tables = {}         # id -> [[cells]]
        self.fig = None
        self.in_text = False
        self.notes = []          # texts of the "families absent" list
        self.in_absent = False
        self.li = None
        self.recommendation = None  # text of <p id="recommendation">
        self.rec = None
        self.table = None
        self.cell = None
        self.ids = set()         # every element id
        self.paragraphs = []     # texts of <p> elements
        self.para = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        for name in ("src", "href", "xlink:href"):
            v = a.get(name)
            if v and not v.startswith("#") and not v.startswith("data:"):
                self.errors.append(f"external reference {name}={v!r} in <{tag}>")
        if "url(" in (a.get("style") or ""):
            self.errors.append(f"url() in a style attribute of <{tag}>")
        if tag in ("link", "script", "iframe", "object", "embed"):
            self.errors.append(f"<{tag}> element")
        if tag not in VOID:
            self.stack.append(tag)
        if a.get("id") and "svg" not in self.stack:   # the page's ids, not PLplot's own
            if a["id"] in self.ids:
                self.errors.append(f"id {a['id']!r} is used twice")
            self.ids.add(a["id"])
        if tag == "p":
            self.para = []
        if tag == "figure":
            self.fig = {"attrs": a, "texts": []}
            self.figures[a.get("id")] = self.fig
        if tag == "text":
            self.in_text = True
        if tag == "table":
            self.table = self.tables.setdefault(a.get("id"), [])
        if tag == "tr" and self.table is not None:
            self.table.append([])
        if tag in ("td", "th"):
            self.cell = []
        if tag == "details" and a.get("id") == "absent":
            self.in_absent = True
        if tag == "li" and self.in_absent:
            self.li = []
        if tag == "p" and a.get("id") == "recommendation":
            self.rec = []

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.handle_endtag(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.errors.append(f"</{tag}> does not close <{self.stack[-1] if self.stack else ''}>")
            return
        self.stack.pop()
        if tag == "figure":
            self.fig = None
        if tag == "text":
            self.in_text = False
        if tag in ("td", "th") and self.table is not None:
            self.table[-1].append("".join(self.cell).strip())
            self.cell = None
        if tag == "table":
            self.table = None
        if tag == "details":
            self.in_absent = False
        if tag == "li" and self.li is not None:
            self.notes.append("".join(self.li).strip())
            self.li = None
        if tag == "p" and self.para is not None:
            self.paragraphs.append("".join(self.para).strip())
            self.para = None
        if tag == "p" and self.rec is not None:
            self.recommendation = "".join(self.rec).strip()
            self.rec = None

    def handle_data(self, data):
        if self.in_text and self.fig is not None:
            self.fig["texts"].append(data.strip())
        if self.cell is not None:
            self.cell.append(data)
        if self.li is not None:
            self.li.append(data)
        if self.rec is not None:
            self.rec.append(data)
        if self.para is not None:
            self.para.append(data)


def png_nonwhite_fraction(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width = struct.unpack(">I", body[:4])[0]
        if kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    # Rows start with a filter byte; a flat white image filters to runs of 0 and 255:
    # count bytes that are neither, i.e. actual drawing.
    ink = sum(1 for b in raw[::7] if b not in (0, 255))
    return ink / max(1, len(raw[::7])), width


def number(cell):
    return float(cell.split(" [")[0]) if cell else None


def check_csv(fid, table, data_dir, fails):
    path = os.path.join(data_dir, f"{fid}.csv")
    if not os.path.exists(path):
        fails.append(f"{fid}: no CSV {path}")
        return
    rows = list(csv.reader(open(path)))
    head, body = rows[0], rows[1:]
    from_csv = {(r[0], r[1]): float(r[2]) for r in body}
    series = table[0][1:]
    from_html = {}
    for row in table[1:]:
        for name, cell in zip(series, row[1:]):
            if cell:
                from_html[(name, row[0])] = number(cell)
    if from_csv.keys() != from_html.keys():
        fails.append(f"{fid}: CSV and page list different points")
    for k, v in from_html.items():
        if k in from_csv and abs(from_csv[k] - v) > 1e-9 * max(1, abs(v)):
            fails.append(f"{fid}: {k} is {from_csv[k]} in the CSV and {v} on the page")
    if not body:
        fails.append(f"{fid}: empty CSV")


def csv_at(data_dir, fid, x):
    """series -> value of figure fid's CSV at endpoint count x."""
    path = os.path.join(data_dir, f"{fid}.csv")
    if not os.path.exists(path):
        return {}
    return {r[0]: float(r[2]) for r in list(csv.reader(open(path)))[1:] if float(r[1]) == x}


def check_main_point(p, data_dir, endpoints, fails):
    """The comparison table against the figures against size at its own endpoint count."""
    table = p.tables.get("compare-table")
    if not table:
        fails.append("no comparison table")
        return
    head = table[0]
    rows = {r[head.index("family")]: r for r in table[1:]}
    for fid, column in (("switches", "switches"), ("cables", "cables"), ("cost", "cost/srv")):
        at = csv_at(data_dir, fid, endpoints)
        if set(at) != set(rows):
            fails.append(f"{fid}.csv at {endpoints} has families {sorted(at)}, the table "
                         f"{sorted(rows)}")
        if column not in head:
            continue
        for fam, row in rows.items():
            cell = row[head.index(column)].replace(",", "")
            # the table rounds to whole units (or 3 decimals), the CSV to 6 digits
            tol = (0.5 if "." not in cell else 5e-4) + 1e-5 * abs(at.get(fam, 0))
            if fam in at and cell not in ("", "-") and abs(at[fam] - float(cell)) > tol:
                fails.append(f"{fam}: {column} {cell} in the table, {at[fam]} in {fid}.csv "
                             f"at {endpoints}")
    for note in p.notes:
        for fam in rows:
            if note.startswith(f"{fam}: ") and f"at least {endpoints} endpoints" in note:
                fails.append(f"{fam} is in the table but a note says it is absent: {note}")


def check_reading(p, fails):
    """The one-line recommendation names the table's cheapest row (by its cost column);
    each claim row measures against the baseline its words name."""
    table = p.tables.get("compare-table") or [[]]
    head, rows = table[0], table[1:]
    if "cost" in head and rows:
        costs = [(float(r[head.index("cost")].replace(",", "")), r[head.index("family")])
                 for r in rows if r[head.index("cost")] not in ("", "-")]
        cheapest = min(costs)[1] if costs else None
        rec = p.recommendation or ""
        if not rec.startswith(f"Recommendation: {cheapest} ("):
            fails.append(f"the recommendation {rec!r} does not name the cheapest row, {cheapest}")
    for row in (p.tables.get("claims-table") or [[]])[1:]:
        claim, basis = row[0], row[2]
        for words, family in (("than a fat-tree", "fattree:"), ("than the Clos", "clos:")):
            if claim.endswith(words) and basis and f" vs {family}" not in basis:
                fails.append(f"claim {claim!r} is measured on {basis!r}")


def close(a, b, rel=2e-5):
    return abs(a - b) <= rel * max(abs(a), abs(b), 1e-12)


def check_step(p, data_dir, fails):
    """The training step: figure, CSV and table agree, and say what theory says."""
    if "step" not in p.figures:
        fails.append("figure step is missing (the page has a training step section)")
        return
    path = os.path.join(data_dir, "step.csv")
    if not os.path.exists(path):
        return  # check_csv reports it
    parts = {}                        # category -> [(phase, value, lower, upper)]
    for r in list(csv.reader(open(path)))[1:]:
        parts.setdefault(r[1], []).append((r[0], float(r[2]), float(r[3]), float(r[4])))
    cats = list(parts)
    if not cats or cats[0] != "ideal":
        fails.append(f"step.csv: the first bar is {cats[:1]}, not ideal")
        return
    ideal = {ph: v for ph, v, lo, hi in parts["ideal"]}
    for cat, ps in parts.items():
        for ph, v, lo, hi in ps:
            if lo > hi * (1 + 1e-9) or v != hi:
                fails.append(f"step.csv: {cat} {ph}: lower {lo}, value {v}, upper {hi}")
            if ph in ideal and hi < ideal[ph] * (1 - 1e-9):
                fails.append(f"step.csv: {cat} {ph} takes {hi} s, less than the ideal "
                             f"{ideal[ph]} s of a non-blocking fabric")
    table = p.tables.get("step-table") or [[]]
    head, rows = table[0], table[1:]
    col = {h: i for i, h in enumerate(head)}
    need = ["family", "step s lower", "step s upper", "ideal s", "slowdown"]
    if any(h not in col for h in need):
        fails.append(f"step-table: columns {head}, need {need}")
        return
    uppers = []
    for r in rows:
        fam = r[col["family"]]
        lo, hi, idl, slow = (float(r[col[h]]) for h in need[1:])
        uppers.append(hi)
        if fam not in parts:
            fails.append(f"step-table: {fam} has no bar in step.csv")
            continue
        for name, want, got in (("lower", sum(x[2] for x in parts[fam]), lo),
                                ("upper", sum(x[3] for x in parts[fam]), hi),
                                ("ideal", sum(ideal.values()), idl)):
            if not close(want, got):
                fails.append(f"step-table: {fam} step {name} {got}, its phases sum to {want}")
        if not close(slow, hi / idl, 5e-4):
            fails.append(f"step-table: {fam} slowdown {slow}, upper / ideal is {hi / idl}")
    if uppers != sorted(uppers):
        fails.append(f"step-table: not fastest first: {uppers}")
    compare = p.tables.get("compare-table") or [[]]
    fam_col = compare[0].index("family") if "family" in compare[0] else 0
    listed = {r[col["family"]] for r in rows}
    for r in compare[1:]:
        fam = r[fam_col]
        if fam not in listed and not any(t.startswith(f"{fam} (") and "no step time" in t
                                         for t in p.paragraphs):
            fails.append(f"{fam} is in the comparison but neither timed nor named in a note")


def main(page_path, data_dir, png, endpoints=None):
    fails = []
    p = Page()
    p.feed(open(page_path, encoding="utf-8").read())
    p.close()
    fails += p.errors
    if p.stack:
        fails.append(f"unclosed elements at the end: {p.stack}")
    if not p.figures:
        fails.append("no figures")
    for fid in REQUIRED:
        if fid not in p.figures:
            fails.append(f"figure {fid} is missing")
    for fid, f in p.figures.items():
        texts = set(f["texts"])
        for attr in ("data-title", "data-xlabel", "data-ylabel"):
            label = f["attrs"].get(attr)
            if not label or label not in texts:
                fails.append(f"figure {fid}: {attr} {label!r} is not drawn as text")
        table = p.tables.get(f"data-{fid}")
        if not table:
            fails.append(f"figure {fid}: no numbers under it")
        else:
            check_csv(fid, table, data_dir, fails)
    if endpoints is not None:
        check_main_point(p, data_dir, int(endpoints), fails)
    check_reading(p, fails)
    if "training-step" in p.ids:
        check_step(p, data_dir, fails)
    ink, width = png_nonwhite_fraction(png)
    if ink < 0.002:
        fails.append(f"screenshot {png} is blank ({ink:.4f} of it drawn)")
    for f in fails:
        print("FAIL:", f)
    print(f"report_check: {len(p.figures)} figures, {len(fails)} failures")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:5]))

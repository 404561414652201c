"""moore — datacenter and HPC network topologies (Slim Fly, Xpander, ...) from Python.

A thin binding over the moore C library: the library builds and measures, this package
converts. Every call returns plain Python values (dicts with the keys ``moore stats --json``
prints, lists of dicts ready for ``pandas.DataFrame``), NumPy arrays and networkx graphs.

    >>> import moore
    >>> sf = moore.build("slimfly:q=5")
    >>> sf.switches, sf.links
    (50, 175)
    >>> moore.stats(sf, metrics=["paths"])["diameter"]
    2

Errors raise :class:`moore.Error` (a ``ValueError``) whose message is the library's one line,
the same the command line prints after ``moore: ``. See docs/python.md.
"""
from ._moore import Error, Topology, __version__
from . import _moore

import os

__all__ = ["Error", "Topology", "build", "from_networkx", "stats", "throughput", "layout", "route",
           "route_paths", "fail", "sweep", "compare", "report", "__version__"]


def _names(value):
    """A comma list for the library from a list/tuple of names, a string or None."""
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


def _topology(topo):
    """A Topology as is; anything else through :func:`build`."""
    return topo if isinstance(topo, Topology) else build(topo)


def _path(path):
    """A file name for the library (str, or an os.PathLike such as pathlib.Path), or None."""
    return None if path is None else os.fspath(path)


def _error(line):
    """moore.Error for bad input (code 1), with the line the command line prints."""
    e = Error(line)
    e.code = 1
    return e


def build(spec_or_path):
    """Build a topology from a SPEC (``"xpander:d=10,k=21,seed=1"``) or read a topology file
    (moore's edge list, a plain ``u v`` list, a netbench ``.topology``, a BookSim anynet file).

    Returns a :class:`Topology` with ``switches``, ``links``, ``endpoints`` (list per switch),
    ``family``, ``params``, ``topology`` (the SPEC that rebuilds it), ``edges``,
    ``to_networkx()`` and ``write(path, format=...)``. Raises :class:`Error` on bad input.
    """
    if isinstance(spec_or_path, str) and "\0" in spec_or_path:
        raise _error(f"build: {spec_or_path!r} holds a NUL character")
    return _moore.build(spec_or_path)


def _check_seed_threads(command, seed, threads=0):
    """seed in 0..9e18 and threads in 0..4096 (0: OpenMP's default), as the command
    line checks them, rather than wrapped by the conversion to C."""
    _check_int("--seed", seed, 0, 9 * 10**18, command)
    _check_int("--threads", threads, 0, 4096, command)


def stats(topo, metrics=None, seed=1, threads=0):
    """Measure a topology: a dict with the keys of ``moore stats --json``.

    ``metrics`` is a list of metric groups (``["basic", "paths", "spectral"]``), ``"all"``,
    or None for the default groups (``moore stats --list`` names them). ``topo`` may be a
    Topology or anything :func:`build` takes. The GIL is released while the library works.
    """
    if not isinstance(topo, Topology):
        topo = build(topo)
    _check_seed_threads("stats", seed, threads)
    return _with_topology(_moore.stats(topo, _names(metrics), seed, threads))


def _with_topology(d):
    """Puts ``topology`` (family:params, the SPEC that rebuilds it) first, as the CLI's JSON
    does (docs/json.md)."""
    if d.get("family") is None or "topology" in d:
        return d
    params = d.get("params") or ""
    return {"topology": d["family"] + (":" + params if params else ""), **d}


def throughput(topo, tm="uniform", eps=0.05, exact=False, routing=None, seed=1):
    """The maximum concurrent flow of a traffic matrix: a dict with the keys of
    ``moore throughput --json`` (``throughput``, proven ``lower`` and ``upper`` bounds,
    ``method``, ``gap``, ``tub``, link utilisation, ...).

    ``tm``: ``uniform``, ``permutation``, ``worst``, an AI job (``llm:tp=8,pp=8,dp=4``,
    ``alltoall``, ``allreduce:algo=ring``; docs/ai-traffic.md) or a CSV file.
    ``exact=True`` solves exactly (arc LP or column generation, docs/throughput.md),
    otherwise the (1+eps) approximation with both bounds. ``routing``: None/``optimal``,
    ``minimal``, ``ecmp``, ``ksp:k=8``, ``valiant``, ``ugal`` (docs/routing.md).
    """
    if not isinstance(topo, Topology):
        topo = build(topo)
    _check_seed_threads("throughput", seed)
    return _with_topology(_moore.throughput(topo, tm, eps, exact, routing, seed))


def layout(topo, model=None, switches_per_rack=0, cables=None):
    """Groups, racks, floor, cable plan, cost and power: a dict with the keys of ``moore
    layout --json`` (``groups``, ``racks``, ``cables_electrical``, ``cables_optical``,
    ``cost_total``, ``power_w``, ...; docs/layout.md). ``model``: a built-in cost model
    (``"400g"``, the default, or ``"2014"``) or a JSON model file; ``cables``: a path to
    write the cable plan CSV to (whole or absent)."""
    if not isinstance(topo, Topology):
        topo = build(topo)
    return _with_topology(_moore.layout(topo, model, switches_per_rack, cables))


def route(topo, algo="ecmp", paths=None, tables=None, layers=True, threads=0, arrays=False):
    """Routes of every ordered switch pair: a dict with the keys of ``moore route --json``
    (``algo``, ``pairs``, ``paths_total``, ``paths_per_pair_min``/``_mean``/``_max``,
    ``hops_mean``, ``hops_max``, ``table_entries_max``/``_total``, ``cdg_acyclic``,
    ``cdg_dependencies``, ``layers``, ``vcs_hop_index``; docs/routing.md).

    ``algo``: ``minimal``, ``ecmp``, ``ksp:k=8``, ``valiant:samples=8,seed=1``,
    ``ugal:samples=8,seed=1``. ``paths`` / ``tables``: file names to write the path CSV
    (src,dst,rank,layer,path) and the forwarding-table CSV
    (switch,dst_first,dst_last,layer,ports,weights; docs/routing.md) to,
    as ``--paths`` / ``--tables`` do. ``layers=False`` skips the channel dependency graph
    (``cdg_acyclic`` and ``layers`` are then None), as ``--no-layers``. ``threads``: OpenMP
    threads (0: the default); the numbers do not depend on it.

    ``arrays=True`` adds the routing itself as NumPy arrays: ``dist`` (uint16, shape
    (switches, switches), hop distances) and, for ``ksp``, ``valiant`` and ``ugal``, the
    explicit paths in CSR form — the paths of pair (s, t) are ``path_offs[pair_offs[s*n+t]
    : pair_offs[s*n+t+1]]`` and path i is ``hops[path_offs[i]:path_offs[i+1]]``, s to t —
    with :func:`route_paths` (``route_paths(r, s, t)``) giving them as lists.
    """
    t = _topology(topo)
    _check_seed_threads("route", 0, threads)
    out = _moore.route(t, algo, _path(paths), _path(tables), bool(layers), int(threads),
                       bool(arrays))
    if not arrays:
        return out
    from ._convert import route_arrays
    d, raw = out
    d.update(route_arrays(raw, t.switches))
    return d


def route_paths(r, s, t):
    """The paths of switch pair (s, t) as lists of switches, from ``route(...,
    arrays=True)`` of an explicit path set (``ksp``, ``valiant``, ``ugal``)."""
    from ._convert import route_paths as paths_of
    if "hops" not in r:
        raise _error("route_paths: the routing has no explicit paths (ksp, valiant, ugal "
                     "with arrays=True)")
    n = r["switches"]
    for name, v in (("s", s), ("t", t)):  # not Python's negative or wrapping indices
        if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < n:
            raise _error(f"route_paths: {name} = {v!r} is not a switch (0..{n - 1})")
    return paths_of(r, s, t)


_FAIL_MAX_TRIALS = 1000000
_FAIL_MAX_LEVELS = 64


def _check_int(option, value, lo, hi, command="fail"):
    """The command line's check of an integer option (``fail: --trials 0 is outside ...``)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise _error(f"{command}: {option} '{value}' is not an integer (decimal digits, no "
                     "'+', blanks or leading zeros)")
    if not lo <= value <= hi:
        raise _error(f"{command}: {option} {value} is outside {lo}..{hi}")


def _check_number(option, value, lo, hi):
    """The command line's check of a number option (``fail: --eps 2 is outside ...``)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise _error(f"fail: {option} '{value}' is not a number (such as 0.25 or 1e-3)")
    if not lo <= value <= hi:
        raise _error(f"fail: {option} {value} is outside {lo:g}..{hi:g}")


def _comma_items(text):
    """The items of a command-line comma list, read as the command line reads it: "" has
    none, a trailing comma ends the list ("0.1," is one item)."""
    items = text.split(",") if text else []
    return items[:-1] if items and items[-1] == "" else items


def _fail_levels(value, integral):
    """Failure levels from a number, a list of numbers or the command line's "0.05,0.1",
    refused with the command line's lines."""
    items = _comma_items(value) if isinstance(value, str) else (
        list(value) if isinstance(value, (list, tuple)) else [value])
    hi = 1e9 if integral else 1.0
    levels = []
    for item in items:
        try:
            v = float(item)
        except (TypeError, ValueError):
            v = float("nan")
        if isinstance(item, bool) or not (0 <= v <= hi) or (integral and v != int(v)):
            rule = "a whole number >= 0" if integral else "a number in [0, 1]"
            raise _error(f"fail: level '{item}' must be {rule}")
        if len(levels) == _FAIL_MAX_LEVELS:
            raise _error(f"fail: at most {_FAIL_MAX_LEVELS} failure levels")
        levels.append(v)
    if not levels:
        raise _error("fail: give at least one failure level")
    return levels


def fail(topo, links=None, switches=None, racks=None, bundles=None, independent=False,
         trials=100, metrics=None, eps=0.05, seed=1, until_disconnected=False, threads=0):
    """Seeded random failures, as ``moore fail --json``: what a topology keeps when links,
    switches, racks or rack-to-rack cable bundles fail (docs/resilience.md).

    Give one of ``links`` (fail exactly round(F·links) links; ``independent=True``: each link
    with probability F), ``switches`` (round(F·switches) switches, their servers with them),
    ``racks`` or ``bundles`` (N whole racks / rack-pair bundles, racks placed as
    :func:`layout` places them). A level is a number, a list of numbers or a comma string
    (``"0.05,0.1"``): one number gives one dict, a list gives one dict per level (the array
    ``moore fail --json`` prints). Keys: ``level``, ``trials``, ``connected_fraction``,
    ``switches_lost_mean``, ``links_lost_mean``, ``servers_lost_mean``,
    ``links_failed_mean``, ``switches_failed_mean`` and, for each metric over the connected
    trials, ``<metric>_mean``, ``_min``, ``_p5``, ``_p50``, ``_p95``, ``_max``, ``_std``.
    ``metrics``: ``diameter``, ``avg_path_length``, ``avg_path_length_endpoints``,
    ``throughput_uniform``, ``bisection`` or ``"all"`` (default: the first three).

    ``until_disconnected=True`` (or ``"links"``; ``"switches"``): remove links (switches) in
    random order until the graph disconnects and return the fraction removed then:
    ``trials`` and ``links_at_disconnection_mean``, ``_min``, ... ``_std``.
    Same seed, same numbers as the command line, for any number of ``threads`` (OpenMP;
    0: the default).
    """
    _check_int("--trials", trials, 1, _FAIL_MAX_TRIALS)
    _check_number("--eps", eps, 1e-4, 1.0)
    _check_seed_threads("fail", seed, threads)
    given = [(k, v) for k, v in (("links", links), ("switches", switches), ("racks", racks),
                                 ("bundles", bundles)) if v is not None]
    if until_disconnected:
        if until_disconnected not in (True, "links", "switches"):
            raise TypeError("until_disconnected: True, 'links' or 'switches'")
        if given or metrics is not None:
            raise _error("fail: --until-disconnected takes no failure levels or metrics")
        return _moore._disconnect(_topology(topo), until_disconnected == "switches", trials,
                                  seed, int(threads))
    if len(given) != 1:
        raise _error("fail: give one of --links, --switches, --racks, or --until-disconnected")
    kind, value = given[0]
    if independent and kind != "links":
        raise _error("fail: --independent applies to --links only")
    topo = _topology(topo)
    levels = _fail_levels(value, kind in ("racks", "bundles"))
    rows = _moore._fail(topo, "independent" if independent else kind, levels, trials,
                        _names(metrics), float(eps), seed, int(threads))
    one = not isinstance(value, (str, list, tuple))
    return rows[0] if one else rows


def sweep(path, db=None, force=False, threads=0):
    """Measures every configuration of a sweep file (JSON, docs/sweep.md) into an SQLite
    database, as ``moore sweep SWEEPFILE`` with one job: a rerun measures only what is
    missing (``force=True``: everything again). ``db`` defaults to the sweep file with
    ``.db`` for ``.json``. Returns a dict: ``db``, ``topologies`` (the SPECs),
    ``tasks``, ``pending`` (tasks to measure), ``measured``, ``skipped`` (grid points the
    closed forms refuse) and ``first_skip`` (why the first was). Read the results with
    ``sqlite3`` (schema in docs/sweep.md) or ``moore compare --db``.
    """
    path = _path(path)
    if db is None:
        db = (path[:-5] if len(path) > 5 and path.endswith(".json") else path) + ".db"
    _check_seed_threads("sweep", 0, threads)
    return _moore._sweep(path, _path(db), bool(force), int(threads))


def compare(radix=48, endpoints=10000, families=None, metrics=None, seed=1, bandwidth=1.0):
    """The main job of ``moore compare``: per family, the configuration the planner picks for
    switches of ``radix`` and at least ``endpoints`` servers, built and measured. Returns one
    dict per row (``pandas.DataFrame(moore.compare())`` makes the table): every key of the
    row's report — the keys ``moore compare --json`` prints and more (docs/compare.md) —
    and ``vs_clos_switches_pct``, ``vs_clos_cables_pct``, ``vs_clos_cost_pct``.
    ``bandwidth``: the proven uniform throughput per server each row must reach (0 or
    ``"any"``: none)."""
    _check_seed_threads("compare", seed)
    return _moore.compare(radix, endpoints, _names(families), _names(metrics), seed,
                          0.0 if bandwidth in (None, "any") else float(bandwidth))


def _report_error(line):
    """moore.Error with the line ``moore report`` prints."""
    return _error("report: " + line)


def report(path="report.html", radix=48, endpoints=10000, bandwidth=1.0, families=None,
           sweep=None, data=None, seed=1):
    """Writes the comparison as one self-contained HTML page, as ``moore report -o PATH``:
    the main job's table (:func:`compare`), figures over a sweep of endpoint counts
    (``sweep``, default as the command line's: 1,000 … 100,000), throughput with its proven
    bounds, λ₂ against the Ramanujan bound, distance histograms, resilience and routing
    figures and the often-quoted claims checked (docs/report.md). ``families``: a comma list or a
    list, ``"all"`` for every family with a planner, None for the command line's default. ``data``: a directory for every figure's numbers as CSV files.
    ``bandwidth``: as in :func:`compare` (``"any"``: none). The page is written whole or
    not at all; returns its path. Same arguments, same bytes as the command line.
    """
    path = _path(path)
    if isinstance(radix, bool) or not isinstance(radix, int) or not 3 <= radix <= 100000:
        raise _report_error(f"--radix {radix} is outside 3..100000")
    if isinstance(endpoints, bool) or not isinstance(endpoints, int) or \
            not 1 <= endpoints <= 100000000:
        raise _report_error(f"--endpoints {endpoints} is outside 1..100000000")
    if bandwidth in (None, "any"):
        bandwidth = -1.0
    elif not 1e-9 <= bandwidth <= 1e9:
        raise _report_error(f"--bandwidth {bandwidth} is outside 1e-09..1e+09")
    if sweep is not None:
        sweep = _comma_items(sweep) if isinstance(sweep, str) else list(sweep)
        for v in sweep:
            if isinstance(v, bool) or not str(v).isdigit() or int(v) < 1:
                raise _report_error(f"--sweep value '{v}' is not a positive integer")
        if not sweep:
            raise _report_error("--sweep is empty")
        if len(sweep) > 32:
            raise _report_error("--sweep takes at most 32 values")
        sweep = [int(v) for v in sweep]
    if data is not None:
        data = _path(data)
        try:
            os.mkdir(data)
        except FileExistsError:
            pass
        except OSError as e:
            raise _report_error(f"cannot create --data directory '{data}': {e.strerror}")
    _check_int("--seed", seed, 0, 9 * 10**18, "report")
    _moore._report(path, radix, endpoints, float(bandwidth), _names(families), sweep, data, seed)
    return path


def from_networkx(graph, endpoints=None):
    """A Topology from a networkx graph. Nodes are numbered in ``graph.nodes`` order.

    ``endpoints``: one count for every switch, a list per node, a node attribute name, or None
    (the ``endpoints`` node attribute when every node has one, else 1 per switch).
    Self-loops and parallel links are refused (moore's graphs are simple).
    """
    nodes = list(graph.nodes)
    index = {v: i for i, v in enumerate(nodes)}
    if endpoints is None:
        attr = [graph.nodes[v].get("endpoints") for v in nodes]
        counts = attr if all(a is not None for a in attr) else [1] * len(nodes)
    elif isinstance(endpoints, str):
        counts = [graph.nodes[v][endpoints] for v in nodes]
    elif isinstance(endpoints, int):
        counts = [endpoints] * len(nodes)
    else:
        counts = list(endpoints)
    pairs = []
    for u, v in graph.edges():
        pairs.extend((index[u], index[v]))
    import array
    buf = array.array("i", pairs).tobytes()
    return _moore._from_edges(len(nodes), buf, counts)

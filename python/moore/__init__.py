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

__all__ = ["Error", "Topology", "build", "from_networkx", "stats", "throughput", "layout", "compare",
           "__version__"]


def _names(value):
    """A comma list for the library from a list/tuple of names, a string or None."""
    if value is None or isinstance(value, str):
        return value
    return ",".join(value)


def build(spec_or_path):
    """Build a topology from a SPEC (``"xpander:d=10,k=21,seed=1"``) or read a topology file
    (moore's edge list, a plain ``u v`` list, a netbench ``.topology``, a BookSim anynet file).

    Returns a :class:`Topology` with ``switches``, ``links``, ``endpoints`` (list per switch),
    ``family``, ``params``, ``topology`` (the SPEC that rebuilds it), ``edges``,
    ``to_networkx()`` and ``write(path, format=...)``. Raises :class:`Error` on bad input.
    """
    return _moore.build(spec_or_path)


def stats(topo, metrics=None, seed=1, threads=0):
    """Measure a topology: a dict with the keys of ``moore stats --json``.

    ``metrics`` is a list of metric groups (``["basic", "paths", "spectral"]``), ``"all"``,
    or None for the default groups (``moore stats --list`` names them). ``topo`` may be a
    Topology or anything :func:`build` takes. The GIL is released while the library works.
    """
    if not isinstance(topo, Topology):
        topo = build(topo)
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
    return _with_topology(_moore.throughput(topo, tm, eps, exact, routing, seed))


def layout(topo, model=None, switches_per_rack=0, cables=None):
    """Racks, floor, cable plan, cost and power: a dict with the keys of ``moore layout
    --json`` (``racks``, ``cables_electrical``, ``cables_optical``, ``cost_total``,
    ``power_w``, ...; docs/layout.md). ``model``: a JSON cost-model file; ``cables``: a path
    to write the cable plan CSV to (whole or absent)."""
    if not isinstance(topo, Topology):
        topo = build(topo)
    return _with_topology(_moore.layout(topo, model, switches_per_rack, cables))


def compare(radix=48, endpoints=10000, families=None, metrics=None, seed=1, bandwidth=1.0):
    """The main job of ``moore compare``: per family, the configuration the planner picks for
    switches of ``radix`` and at least ``endpoints`` servers, built and measured. Returns one
    dict per row (``pandas.DataFrame(moore.compare())`` makes the table)."""
    return _moore.compare(radix, endpoints, _names(families), _names(metrics), seed,
                          0.0 if bandwidth in (None, "any") else float(bandwidth))


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

"""Conversions the C extension calls for Topology.edges and Topology.to_networkx: NumPy
and networkx are imported only when these are used."""


def edges_array(edge_bytes):
    """int32 pairs as a NumPy array of shape (links, 2)."""
    import numpy as np
    return np.frombuffer(edge_bytes, dtype=np.int32).reshape(-1, 2)


def to_networkx(topo):
    """A networkx Graph with nodes 0..N-1, each with an ``endpoints`` attribute."""
    import networkx as nx
    g = nx.Graph()
    for v, p in enumerate(topo.endpoints):
        g.add_node(v, endpoints=p)
    g.add_edges_from(map(tuple, topo.edges.tolist()))
    return g


def route_arrays(raw, n):
    """The routing's arrays as NumPy arrays (moore.route(..., arrays=True)): ``dist`` of shape
    (n, n), and for explicit path sets the CSR ``pair_offs``, ``path_offs``, ``hops``."""
    import numpy as np
    types = {"dist": np.uint16, "pair_offs": np.int64, "path_offs": np.int64, "hops": np.int32}
    out = {k: np.frombuffer(b, dtype=types[k]) for k, b in raw.items()}
    out["dist"] = out["dist"].reshape(n, n)
    return out


def route_paths(r, s, t):
    """The paths of pair (s, t) from moore.route(..., arrays=True) as lists of switches."""
    n = r["switches"]
    po, ho = r["path_offs"], r["hops"]
    first, last = r["pair_offs"][s * n + t], r["pair_offs"][s * n + t + 1]
    return [ho[po[i]:po[i + 1]].tolist() for i in range(first, last)]

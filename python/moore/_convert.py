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

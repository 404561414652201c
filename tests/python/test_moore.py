"""The Python binding: the same numbers as the CLI, networkx round trips, errors, leaks.

Run by ctest (python_moore) with PYTHONPATH=build/python and MOORE_CLI = the moore binary.
Expected values come from theory or from independent computations (networkx), never from
moore's own output pasted back."""
import gc
import json
import os
import resource
import sys

import networkx as nx
import numpy as np
import pytest

import moore
from clijson import assert_same, cli


def test_build_slimfly_counts():
    t = moore.build("slimfly:q=5")
    assert t.switches == 50          # 2q^2
    assert t.links == 175            # 2q^2 * (3q - 1)/2 / 2
    assert t.endpoints == [4] * 50   # ceil(k'/2) with k' = 7
    assert t.family == "slimfly" and t.params == "q=5"
    assert t.edges.shape == (175, 2) and t.edges.dtype == np.int32
    assert (t.edges[:, 0] < t.edges[:, 1]).all()
    again = moore.build(t.topology)
    assert (again.edges == t.edges).all()


def test_hoffman_singleton_by_networkx():
    sf = moore.build("slimfly:q=5").to_networkx()
    hs = moore.build("hoffman-singleton").to_networkx()
    assert nx.is_isomorphic(sf, hs)
    assert nx.girth(sf) == 5 if hasattr(nx, "girth") else True


def test_networkx_round_trip():
    g = nx.random_regular_graph(4, 40, seed=7)
    for v in g.nodes:
        g.nodes[v]["endpoints"] = v % 3
    t = moore.from_networkx(g)
    assert t.switches == 40 and t.links == 80
    assert t.endpoints == [v % 3 for v in g.nodes]
    back = t.to_networkx()
    index = {v: i for i, v in enumerate(g.nodes)}      # from_networkx numbers in g.nodes order
    assert {frozenset((index[u], index[v])) for u, v in g.edges} == set(map(frozenset, back.edges))
    assert [back.nodes[v]["endpoints"] for v in back.nodes] == t.endpoints


def test_stats_agree_with_networkx():
    g = nx.random_regular_graph(5, 60, seed=3)
    s = moore.stats(moore.from_networkx(g, endpoints=2), metrics=["basic", "paths"])
    assert s["switches"] == 60 and s["links"] == 150 and s["endpoints"] == 120
    if nx.is_connected(g):
        assert s["diameter"] == nx.diameter(g)
        assert s["avg_path_length"] == pytest.approx(nx.average_shortest_path_length(g), rel=1e-12)


@pytest.mark.parametrize("spec", ["slimfly:q=7", "xpander:d=6,k=5,seed=2", "jellyfish:n=64,d=6,seed=3",
                                  "fattree:k=6", "dragonfly:p=2", "hyperx:L=2,S=5", "torus:dims=4x5",
                                  "polarfly:q=5", "petersen"])
def test_stats_equal_cli_json(spec):
    rc, out, err = cli("stats", spec, "--metrics", "basic,paths,spectral", "--json")
    assert rc == 0, err
    assert_same(moore.stats(spec, metrics=["basic", "paths", "spectral"]), json.loads(out))


@pytest.mark.parametrize("args", [("petersen", "uniform", True), ("jellyfish:n=40,d=4,seed=2", "worst", False),
                                  ("torus:dims=6", "allreduce:algo=ring", True)])
def test_throughput_equals_cli_json(args):
    topo, tm, exact = args
    flags = ["--exact"] if exact else ["--eps", "0.1"]
    rc, out, err = cli("throughput", topo, "--tm", tm, *flags, "--json")
    assert rc == 0, err
    want = json.loads(out)
    got = moore.throughput(topo, tm=tm, exact=exact, eps=0.1)
    assert_same(got, want, rel=1e-12)
    if topo == "petersen":
        assert got["throughput"] == pytest.approx(1.8, rel=1e-9)   # closed form: TUB is tight


def test_layout_equals_cli_json(tmp_path):
    rc, out, err = cli("layout", "slimfly:q=7", "--json")
    assert rc == 0, err
    want = json.loads(out)
    got = moore.layout("slimfly:q=7", cables=str(tmp_path / "c.csv"))
    for key in ("racks", "groups", "cables", "bundle_max", "cost_total", "power_w"):
        assert got[key] == pytest.approx(want[key], rel=1e-12)
    assert got["groups"] == 7 and got["bundle_max"] == 14         # q groups, 2q cables per pair
    rows = (tmp_path / "c.csv").read_text().splitlines()
    sf = moore.build("slimfly:q=7")
    assert len(rows) - 1 == sf.links + sum(sf.endpoints)            # one row per link and server


def test_compare_rows_equal_cli():
    # The binding passes each row's whole report through: every key the CLI's JSON row
    # shows is there with the same value (a key the row's report lacks is null in the
    # CLI's JSON), whatever the keys are named (docs/json.md).
    rc, out, err = cli("compare", "--radix", "24", "--endpoints", "500", "--json")
    assert rc == 0, err
    want = json.loads(out)
    rows = want["rows"] if isinstance(want, dict) else want
    got = moore.compare(radix=24, endpoints=500)
    assert len(got) == len(rows) > 1
    for g, w in zip(got, rows):
        for key, value in w.items():
            if value is None:
                assert g.get(key) is None, key
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                assert g[key] == pytest.approx(value, rel=1e-15), key
            else:
                assert g[key] == value, key
    clos = [g for g in got if g["family"] == "clos"][0]
    assert clos["vs_clos_switches_pct"] == 0           # the baseline against itself
    for g in got:                                       # flat rows: what DataFrame takes
        assert all(v is None or isinstance(v, (bool, int, float, str, list)) for v in g.values())


def test_write_and_read_back(tmp_path):
    t = moore.build("xpander:d=4,k=3,seed=1")
    path = tmp_path / "x.txt"
    t.write(str(path))
    back = moore.build(str(path))
    assert (back.edges == t.edges).all() and back.endpoints == t.endpoints
    t.write(str(tmp_path / "x.graphml"), format="graphml")
    assert (tmp_path / "x.graphml").read_text().startswith("<?xml")


@pytest.mark.parametrize("args", [["slimfly:q=6"], ["nosuchfamily:x=1"], ["slimfly:q=5,zz=1"],
                                  ["/nonexistent/file.txt"]])
def test_errors_equal_cli_line(args):
    rc, _, err = cli("build", *args, "-o", os.devnull)
    assert rc == 2
    with pytest.raises(moore.Error) as e:
        moore.build(*args)
    assert isinstance(e.value, ValueError)
    assert str(e.value) == err.strip().removeprefix("moore: ")
    assert e.value.code != 0


def test_other_error_paths(tmp_path):
    t = moore.build("petersen")
    with pytest.raises(moore.Error):
        moore.stats(t, metrics=["nosuchgroup"])
    with pytest.raises(moore.Error):
        t.write(str(tmp_path / "no" / "dir" / "x.txt"))
    with pytest.raises(moore.Error):
        t.write(str(tmp_path / "y.txt"), format="nosuchformat")
    g = nx.Graph([(0, 1), (1, 1)])
    with pytest.raises(moore.Error):
        moore.from_networkx(g)
    with pytest.raises(moore.Error):
        moore.from_networkx(nx.path_graph(3), endpoints=[1, 2])
    with pytest.raises(TypeError):
        moore._moore.stats("not a topology", None, 1, 0)
    with pytest.raises(moore.Error):
        moore.throughput(t, tm="nosuchmatrix")


def test_threads_get_the_serial_numbers():
    # The GIL is released during calls, but the eigen-solvers are not thread-safe:
    # calls from several Python threads at once must give the serial answers. The
    # graphs are large enough for ARPACK (without the binding's lock this aborted
    # with a double free).
    import threading
    specs = ["jellyfish:n=3000,d=8,seed=3", "jellyfish:n=3200,d=8,seed=4"]
    want = {s: moore.stats(s, metrics=["spectral"]) for s in specs}
    got, errors = [], []

    def work():
        try:
            for s in specs:
                got.append((s, moore.stats(s, metrics=["spectral"])))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert len(got) == 4 * len(specs)
    for s, d in got:
        assert d == want[s]


def assert_no_leak(calls, rounds, warm=100, blocks=1000):
    """calls() `warm` times (caches, one-time allocations), then `rounds` times: fewer than
    `blocks` Python blocks and 20 MB of resident memory (the C allocations) left behind."""
    for _ in range(warm):
        calls()
    gc.collect()
    blocks0 = sys.getallocatedblocks()
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for _ in range(rounds):
        calls()
    gc.collect()
    assert sys.getallocatedblocks() - blocks0 < blocks
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0 < 20_000     # KiB


def expect_error(call):
    try:
        call()
    except moore.Error:
        return
    raise AssertionError("no moore.Error")


def test_no_reference_or_memory_leak():
    spec = "complete:n=5"

    def calls():
        t = moore.build(spec)
        moore.stats(t, metrics="basic")
        t.endpoints, t.edges, t.topology
        expect_error(lambda: moore.build("slimfly:q=6"))

    before = sys.getrefcount(spec)
    # A leak of one object per call would leave 10,000 blocks; a few hundred are caches.
    assert_no_leak(calls, 10000, warm=1000)
    assert sys.getrefcount(spec) == before


def test_no_leak_in_route_fail_throughput_layout(tmp_path):
    # 1,000 rounds of eleven calls (11,000): a leak of one block per call of any of them
    # would leave 1,000 blocks behind.
    t = moore.build("complete:n=5")
    plan = str(tmp_path / "plan.csv")

    def calls():
        moore.route(t, "ksp:k=2", threads=1, arrays=True)
        moore.fail(t, links=[0.1, 0.2], trials=1, threads=1)
        moore.fail(t, racks=1, trials=1)
        moore.fail(t, until_disconnected=True, trials=1)
        moore.throughput(t, tm="uniform", exact=True)
        moore.layout(t, cables=plan)
        expect_error(lambda: moore.route(t, "nosuch"))
        expect_error(lambda: moore.fail(t, links=0.1, trials=1, metrics="nosuch"))
        expect_error(lambda: moore.fail(t, links=1.5))
        expect_error(lambda: moore.fail(t, racks=99, trials=1))
        expect_error(lambda: moore.throughput(t, tm="nosuch"))

    assert_no_leak(calls, 1000, blocks=500)


@pytest.mark.parametrize("call", [
    lambda: moore.stats("petersen", seed=-1),
    lambda: moore.stats("petersen", seed=2**64),
    lambda: moore.stats("petersen", threads=-1),
    lambda: moore.stats("petersen", threads=10**6),
    lambda: moore.throughput("petersen", seed=-1),
    lambda: moore.route("petersen", threads=-1),
    lambda: moore.fail("petersen", links=0.1, trials=1, threads=10**6),
    lambda: moore.compare(seed=2**64),
    lambda: moore.build("petersen\0junk"),
])
def test_wrapping_values_refused(call):
    # -1 and 2**64 would wrap in the conversion to C, a NUL would cut the SPEC short.
    with pytest.raises(ValueError):
        call()


def test_route_paths_index_checked():
    r = moore.route("slimfly:q=5", "ksp:k=2", arrays=True)
    n = r["switches"]
    assert moore.route_paths(r, 0, n - 1)          # a real pair answers
    for s, t in [(0, n), (-1, 5), (n, 0), (0, -1), (True, 1)]:
        with pytest.raises(ValueError):             # (0, n) would read pair (1, 0)
            moore.route_paths(r, s, t)


def test_ctrl_c_stops_a_long_call():
    # A million failure trials run for minutes; SIGINT half a second in must stop the
    # library (not only the Python code after it) and raise KeyboardInterrupt.
    import signal
    import threading
    threading.Timer(0.5, lambda: os.kill(os.getpid(), signal.SIGINT)).start()
    done = []
    with pytest.raises(KeyboardInterrupt):
        done.append(moore.fail("slimfly:q=13", links=0.1, trials=1000000, seed=1))
    assert not done
    assert moore.stats("petersen", "paths")["diameter"] == 2   # the next call runs normally

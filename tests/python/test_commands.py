"""moore.route, moore.fail, moore.sweep and moore.report: the same numbers as
`moore route --json`, `moore fail --json`, `moore sweep` and `moore report` for the same
arguments, checks from theory, and every error path raising moore.Error with the command
line's line.

Run by ctest (python_moore) with PYTHONPATH=build/python and MOORE_CLI = the moore binary."""
import sqlite3

import networkx as nx
import pytest

import moore
from clijson import assert_same, cli, cli_error_line, cli_json


@pytest.mark.parametrize("topo,algo", [("slimfly:q=5", "ecmp"), ("slimfly:q=5", "minimal"),
                                       ("petersen", "ksp:k=4"), ("torus:dims=4x4", "ecmp"),
                                       ("torus:dims=4x4", "valiant:samples=3,seed=2"),
                                       ("jellyfish:n=20,d=4,seed=1", "ugal:samples=2")])
def test_route_equals_cli_json(topo, algo):
    assert_same(moore.route(topo, algo=algo), cli_json("route", topo, "--algo", algo))


def test_route_files_and_no_layers_equal_cli(tmp_path):
    got = moore.route("petersen", "ksp:k=3", paths=tmp_path / "p.csv",
                      tables=str(tmp_path / "t.csv"), layers=False)
    want = cli_json("route", "petersen", "--algo", "ksp:k=3", "--no-layers", "--paths",
                    tmp_path / "cp.csv", "--tables", tmp_path / "ct.csv")
    assert_same(got, want)
    assert got["cdg_acyclic"] is None and got["layers"] is None
    for mine, theirs in (("p.csv", "cp.csv"), ("t.csv", "ct.csv")):
        assert (tmp_path / mine).read_bytes() == (tmp_path / theirs).read_bytes()


def test_route_moore_graph_by_theory():
    # slimfly:q=5 is the Hoffman-Singleton graph: degree 7, diameter 2, girth 5, so every
    # pair has exactly one shortest path; 7 pairs per switch at 1 hop, 42 at 2.
    r = moore.route("slimfly:q=5", "ecmp")
    assert r["pairs"] == 50 * 49
    assert r["paths_per_pair_min"] == r["paths_per_pair_max"] == 1
    assert r["hops_mean"] == pytest.approx((7 * 1 + 42 * 2) / 49, rel=1e-15)
    assert r["hops_max"] == 2 and r["table_entries_max"] == 49


def test_route_ksp_counts_by_networkx():
    # K shortest simple paths: networkx's shortest_simple_paths gives the hop counts.
    g = nx.petersen_graph()
    k = 3
    hops = [len(p) - 1 for s in g for t in g if s != t
            for _, p in zip(range(k), nx.shortest_simple_paths(g, s, t))]
    r = moore.route("petersen", f"ksp:k={k}")
    assert r["paths_total"] == len(hops)
    assert r["hops_mean"] == pytest.approx(sum(hops) / len(hops), rel=1e-12)


@pytest.mark.parametrize("algo", ["ksp:k=3", "valiant:samples=2,seed=3", "ugal:samples=1"])
def test_route_arrays_equal_cli_paths(tmp_path, algo):
    # The CSR arrays hold the paths `moore route --paths` writes (src,dst,rank,layer,path).
    r = moore.route("petersen", algo, arrays=True)
    rc, _, err = cli("route", "petersen", "--algo", algo, "--paths", tmp_path / "p.csv")
    assert rc == 0, err
    want = {}
    for line in (tmp_path / "p.csv").read_text().splitlines()[1:]:
        src, dst, _, _, path = line.split(",")
        want.setdefault((int(src), int(dst)), []).append([int(v) for v in path.split("-")])
    got = {(s, t): moore.route_paths(r, s, t) for s in range(10) for t in range(10) if s != t}
    assert got == want
    assert r["hops"].size == r["path_offs"][-1] and len(r["pair_offs"]) == 101


def test_route_dist_by_networkx():
    g = nx.random_regular_graph(3, 16, seed=5)
    r = moore.route(moore.from_networkx(g), "ecmp", arrays=True)
    d = dict(nx.all_pairs_shortest_path_length(g))
    index = {v: i for i, v in enumerate(g.nodes)}      # from_networkx numbers in g.nodes order
    assert r["dist"].shape == (16, 16)
    assert all(r["dist"][index[s], index[t]] == d[s][t] for s in g for t in g)
    with pytest.raises(moore.Error):
        moore.route_paths(r, 0, 1)          # ECMP keeps distances, not explicit paths


@pytest.mark.parametrize("algo", ["nosuch", "ksp:k=0", "ksp:q=1", "valiant:samples=-1"])
def test_route_errors_equal_cli_line(algo):
    want = cli_error_line("route", "petersen", "--algo", algo)
    with pytest.raises(moore.Error) as e:
        moore.route("petersen", algo)
    assert str(e.value) == want and e.value.code != 0


def test_route_disconnected_equals_cli_line(tmp_path):
    path = tmp_path / "two.txt"
    path.write_text("0 1\n2 3\n")
    want = cli_error_line("route", path)
    with pytest.raises(moore.Error) as e:
        moore.route(moore.from_networkx(nx.Graph([(0, 1), (2, 3)])))
    assert str(e.value) == want


FAIL_CASES = [
    (dict(links=0.1, trials=20), ["--links", "0.1", "--trials", "20"]),
    (dict(links=[0.05, 0.3], trials=10, seed=7), ["--links", "0.05,0.3", "--trials", "10",
                                                   "--seed", "7"]),
    (dict(links="0.2", independent=True, trials=10), ["--links", "0.2", "--independent",
                                                      "--trials", "10"]),
    # Not bisection: `moore fail ... --metrics bisection` itself gives bisection_mean 50.3 or
    # 50.4 from run to run with OMP_NUM_THREADS=4 (concurrent METIS calls in the trials).
    (dict(switches=0.1, trials=10, metrics="diameter,throughput_uniform", eps=0.2),
     ["--switches", "0.1", "--trials", "10", "--metrics", "diameter,throughput_uniform",
      "--eps", "0.2"]),
    (dict(racks=[1, 2], trials=5), ["--racks", "1,2", "--trials", "5"]),
    (dict(bundles=1, trials=5, metrics=["diameter"]), ["--bundles", "1", "--trials", "5",
                                                       "--metrics", "diameter"]),
    (dict(until_disconnected=True, trials=30), ["--until-disconnected", "--trials", "30"]),
    (dict(until_disconnected="switches", trials=30), ["--until-disconnected", "--switches",
                                                      "--trials", "30"]),
]


@pytest.mark.parametrize("kwargs,flags", FAIL_CASES)
def test_fail_equals_cli_json(kwargs, flags):
    got = moore.fail("slimfly:q=5", **kwargs)
    want = cli_json("fail", "slimfly:q=5", *flags)
    if isinstance(want, list) and not isinstance(got, list):
        assert len(want) == 1          # one level given as a number: one dict
        want = want[0]
    for g, w in zip(*(([got], [want]) if isinstance(got, dict) else (got, want))):
        assert_same(g, w)


def test_fail_by_theory():
    # Nothing failed: every trial is the graph itself (Hoffman-Singleton: diameter 2).
    r = moore.fail("slimfly:q=5", links=0, trials=3)
    assert r["connected_fraction"] == 1 and r["links_failed_mean"] == 0
    assert r["diameter_min"] == r["diameter_max"] == 2
    # Exactly round(f*n) switches: 0.1 * 50 = 5, each with its 4 servers.
    r = moore.fail("slimfly:q=5", switches=0.1, trials=4, metrics="avg_path_length_endpoints")
    assert r["switches_failed_mean"] == 5
    # A cycle disconnects at its second removed link: 2 of n links.
    c = moore.from_networkx(nx.cycle_graph(10))
    d = moore.fail(c, until_disconnected=True, trials=5)
    assert d["links_at_disconnection_min"] == d["links_at_disconnection_max"] == 0.2


FAIL_ERRORS = [
    (dict(links=1.5), ["--links", "1.5"]),
    (dict(links="0.1,x"), ["--links", "0.1,x"]),
    (dict(links="0.1,,0.2"), ["--links", "0.1,,0.2"]),
    (dict(links=""), ["--links", ""]),
    (dict(racks=1.5), ["--racks", "1.5"]),
    (dict(racks=99), ["--racks", "99"]),
    (dict(links=[]), None),
    (dict(links=[0.01] * 65), ["--links", ",".join(["0.01"] * 65)]),
    (dict(), []),
    (dict(links=0.1, switches=0.1), ["--links", "0.1", "--switches", "0.1"]),
    (dict(switches=0.1, independent=True), ["--switches", "0.1", "--independent"]),
    (dict(until_disconnected=True, racks=1), ["--until-disconnected", "--racks", "1"]),
    (dict(links=0.1, trials=0), ["--links", "0.1", "--trials", "0"]),
    (dict(links=0.1, trials=2.5), ["--links", "0.1", "--trials", "2.5"]),
    (dict(links=0.1, eps=2), ["--links", "0.1", "--eps", "2"]),
    (dict(links=0.1, seed=-1), ["--links", "0.1", "--seed", "-1"]),
    (dict(links=0.1, metrics="nosuch"), ["--links", "0.1", "--metrics", "nosuch"]),
]


@pytest.mark.parametrize("kwargs,flags", FAIL_ERRORS)
def test_fail_errors_equal_cli_line(kwargs, flags):
    kwargs = {"trials": 2, **kwargs}
    with pytest.raises(moore.Error) as e:
        moore.fail("petersen", **kwargs)
    assert isinstance(e.value, ValueError) and e.value.code == 1
    if flags is None:                  # no command line spells an empty list
        assert str(e.value) == "fail: give at least one failure level"
    else:
        if "--trials" not in flags:
            flags = [*flags, "--trials", "2"]
        assert str(e.value) == cli_error_line("fail", "petersen", *flags)


def test_fail_bad_topology_equals_cli_line():
    want = cli_error_line("fail", "slimfly:q=6", "--links", "0.1")
    with pytest.raises(moore.Error) as e:
        moore.fail("slimfly:q=6", links=0.1)
    assert str(e.value) == want


SWEEP = """{"metrics": ["basic", "paths"], "seeds": ["1..2"],
  "configs": [{"family": "jellyfish", "grid": {"n": [12, 16], "d": [3]}},
              {"family": "slimfly", "grid": {"q": [3, 4, 6]}}]}"""


def measurements(db):
    with sqlite3.connect(db) as c:
        return sorted(c.execute("SELECT c.topology, m.task, m.metric, m.type, m.value, m.text, "
                                "m.bound FROM measurements m JOIN configurations c "
                                "ON c.id = m.configuration"))


def test_sweep_equals_cli(tmp_path):
    (tmp_path / "s.json").write_text(SWEEP)
    got = moore.sweep(tmp_path / "s.json")
    assert got["db"] == str(tmp_path / "s.db")
    # jellyfish n in {12, 16} x seeds {1, 2}, slimfly q in {3, 4}; q = 6 is refused.
    assert len(got["topologies"]) == 6 and got["skipped"] == 1
    assert "q=6" in got["first_skip"]
    assert got["pending"] == got["measured"] == 6 * len(got["tasks"])
    rc, _, err = cli("sweep", tmp_path / "s.json", "--db", tmp_path / "cli.db")
    assert rc == 0, err
    assert measurements(tmp_path / "s.db") == measurements(tmp_path / "cli.db")
    again = moore.sweep(str(tmp_path / "s.json"), db=str(tmp_path / "cli.db"))
    assert again["pending"] == again["measured"] == 0      # a rerun measures what is missing


@pytest.mark.parametrize("text", ['{"configs": []', '{"nosuchkey": 1}'])
def test_sweep_errors_equal_cli_line(tmp_path, text):
    path = tmp_path / "bad.json"
    path.write_text(text)
    want = cli_error_line("sweep", path)
    with pytest.raises(moore.Error) as e:
        moore.sweep(path)
    assert str(e.value) == want
    with pytest.raises(moore.Error) as e:
        moore.sweep(tmp_path / "absent.json")
    assert str(e.value) == cli_error_line("sweep", tmp_path / "absent.json")


REPORT = dict(radix=12, endpoints=100, families="slimfly,clos", sweep=[50, 100])
REPORT_FLAGS = ["--radix", "12", "--endpoints", "100", "--families", "slimfly,clos",
                "--sweep", "50,100"]


def test_report_equals_cli(tmp_path):
    assert moore.report(tmp_path / "py.html", data=tmp_path / "py", **REPORT) == \
        str(tmp_path / "py.html")
    rc, _, err = cli("report", *REPORT_FLAGS, "-o", tmp_path / "cli.html", "--data",
                     tmp_path / "cli")
    assert rc == 0, err
    assert (tmp_path / "py.html").read_bytes() == (tmp_path / "cli.html").read_bytes()
    csvs = sorted(p.name for p in (tmp_path / "cli").iterdir())
    assert csvs and sorted(p.name for p in (tmp_path / "py").iterdir()) == csvs
    for name in csvs:
        assert (tmp_path / "py" / name).read_bytes() == (tmp_path / "cli" / name).read_bytes()


REPORT_ERRORS = [
    (dict(radix=2), ["--radix", "2"]),
    (dict(endpoints=0), ["--endpoints", "0"]),
    (dict(bandwidth=2e9), ["--bandwidth", str(2e9)]),
    (dict(sweep="1,+2"), ["--sweep", "1,+2"]),
    (dict(sweep=""), ["--sweep", ""]),
    (dict(sweep=[5] * 33), ["--sweep", ",".join(["5"] * 33)]),
    (dict(seed=-1), ["--seed", "-1"]),
    (dict(families="nosuch"), ["--families", "nosuch"]),
]


@pytest.mark.parametrize("kwargs,flags", REPORT_ERRORS)
def test_report_errors_equal_cli_line(tmp_path, kwargs, flags):
    want = cli_error_line("report", *flags, "-o", tmp_path / "cli.html")
    with pytest.raises(moore.Error) as e:
        moore.report(tmp_path / "py.html", **kwargs)
    assert str(e.value) == want
    assert not (tmp_path / "py.html").exists() and not (tmp_path / "cli.html").exists()

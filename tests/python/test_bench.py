"""Benchmarks as functions: the records of `gpu500 graph500 --json` and `gpu500 hpl --json` as
dicts."""
import gpu500
from support import raises


def test_graph500_record():
    r = gpu500.graph500(6, edgefactor=8, roots=4, backend="cpu")
    assert r["benchmark"] == "graph500" and r["SCALE"] == 6 and r["edgefactor"] == 8
    assert r["valid"] and r["validated"] and r["NBFS"] == 4 and len(r["roots"]) == 4
    assert "bfs" in r and "sssp" in r and r["provenance"]["version"]
    with raises(ValueError, match="SCALE"):
        gpu500.graph500(0)
    with raises(ValueError):
        gpu500.graph500(6, kernels="dfs")
    with raises(ValueError, match="roots"):
        gpu500.graph500(3, roots=9)


def test_hpl_record():
    r = gpu500.hpl(n=128, nb=32, backend="cpu")
    (t,) = r["tests"]
    assert r["benchmark"] == "hpl" and t["n"] == 128 and t["nb"] == 32 and t["passed"]
    with raises(ValueError):
        gpu500.hpl(n=-5, backend="cpu")

"""Benchmarks as functions: the records of `gpu500 graph500 --json`, `gpu500 hpl --json` and
`gpu500 hpl-mxp --json` as dicts, and their progress lines through a callable and through the
logger "gpu500"."""
import logging

import gpu500
from support import raises, run_in_threads


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


def test_hpl_mxp_record_and_hpl_after_it():
    r = gpu500.hpl_mxp(n=256, nb=64, backend="cpu")
    assert r["benchmark"] == "hpl-mxp" and r["n"] == 256 and r["nb"] == 64 and r["passed"]
    assert r["precision"] == "fp32" and r["iterations"] >= 1 and r["provenance"]["version"]
    with raises(ValueError, match="precision"):
        gpu500.hpl_mxp(n=64, nb=32, backend="cpu", precision="fp9")
    with raises(ValueError):
        gpu500.hpl_mxp(n=-1, backend="cpu")
    # the runs share one MPI start (a program that finalised MPI would end the next run)
    assert gpu500.hpl(n=64, nb=32, backend="cpu")["tests"][0]["passed"]
    assert gpu500.hpl_mxp(n=128, nb=32, backend="cpu")["passed"]


def test_progress_lines():
    lines = []
    gpu500.graph500(5, edgefactor=4, roots=2, backend="cpu", kernels="bfs", progress=lines.append)
    assert lines[0].startswith("graph500: SCALE 5") and sum(x.startswith("bfs ") for x in lines) == 2
    lines = []
    gpu500.hpl_mxp(n=128, nb=32, backend="cpu", progress=lines.append)
    assert any("GMRES" in x for x in lines)
    lines = []
    gpu500.hpl(n=64, nb=32, backend="cpu", progress=lines.append)
    assert lines and all(x.startswith("hpl") for x in lines)

    def fails(line):
        raise KeyError("stop")

    with raises(KeyError):
        gpu500.graph500(4, edgefactor=4, roots=1, backend="cpu", progress=fails)
    with raises(ValueError, match="progress"):
        gpu500.graph500(4, roots=1, backend="cpu", progress=3)

    class Keep(logging.Handler):
        def __init__(self):
            super().__init__()
            self.records = []

        def emit(self, record):
            self.records.append(record.getMessage())

    log = logging.getLogger("gpu500")
    keep, level = Keep(), log.level
    log.addHandler(keep)
    log.setLevel(logging.INFO)
    try:
        gpu500.graph500(4, edgefactor=4, roots=1, backend="cpu", kernels="bfs")
    finally:
        log.removeHandler(keep)
        log.setLevel(level)
    assert any(x.startswith("bfs 1/1") for x in keep.records)


def test_progress_of_runs_in_threads():
    """Runs in two threads, each with its own progress callable: each gets its own lines (the
    runs that hand lines over take turns), and stderr is restored afterwards."""
    lines = [[], []]

    def work(i):
        gpu500.graph500(5, edgefactor=4, roots=2, backend="cpu", kernels="bfs", seed=(i + 2, 3),
                        progress=lines[i].append)

    run_in_threads(work, 2)
    for got in lines:
        assert got[0].startswith("graph500: SCALE 5") and sum(x.startswith("bfs ") for x in got) == 2
    assert len(lines[0]) == len(lines[1])

"""Graphs into gpu500: from NumPy arrays (kept without a copy where the dtype fits), SciPy,
files through the library's reader, the Kronecker generator; bad input raising ValueError."""
import gzip
import os
import tempfile

import numpy as np

import gpu500
from support import need, raises


def test_from_edges_keeps_fitting_arrays():
    src = np.array([0, 1, 2], dtype=np.int64)
    dst = np.array([1, 2, 3], dtype=np.int64)
    w = np.array([1, 2, 3], dtype=np.float32)
    g = gpu500.Graph.from_edges(src, dst, w)
    assert g.src is src and g.dst is dst and g.weights is w  # zero copy
    assert g.num_vertices == 4 and g.num_edges == 3 and not g.directed
    g32 = gpu500.Graph.from_edges(src.astype(np.int32), dst.astype(np.uint16), [1, 2, 3], num_vertices=10)
    assert g32.src.dtype == np.int64 and g32.weights.dtype == np.float32 and g32.num_vertices == 10


def test_results_own_library_memory():
    g = gpu500.Graph.from_edges([0, 1], [1, 2])
    r = g.bfs(0)
    assert r.parent.dtype == np.int64 and not r.parent.flags.owndata  # the library's vector, not a copy
    assert r.parent.base is not None


def test_bad_arrays():
    with raises(ValueError, match="one-dimensional"):
        gpu500.Graph.from_edges(np.zeros((2, 2), dtype=np.int64), [0, 1])
    with raises(ValueError, match="integer"):
        gpu500.Graph.from_edges([0.5, 1.0], [1, 2])
    with raises(ValueError, match="same length"):
        gpu500.Graph.from_edges([0, 1], [1])
    with raises(ValueError, match="one entry per edge"):
        gpu500.Graph.from_edges([0, 1], [1, 2], weights=[1.0])
    with raises(ValueError, match="num_vertices"):
        gpu500.Graph.from_edges([], [])


def test_ids_outside_the_graph_are_refused_when_it_is_made():
    # The library's message (the CLI's kernel 1 gives the same), naming the first such edge.
    with raises(ValueError, match=r"^graph: edge 1 \(0, 5\) has an endpoint outside \[0, 4\)$"):
        gpu500.Graph.from_edges([0, 0, 7], [1, 5, 2], num_vertices=4)
    with raises(ValueError, match=r"^graph: edge 2 \(-1, 2\) has an endpoint outside \[0, 3\)$"):
        gpu500.Graph.from_edges([0, 1, -1], [1, 2, 2])
    with raises(ValueError, match=r"vertex id 1125899906842624 is out of range \[0, 2\^48\)"):
        gpu500.Graph.from_edges([0, 1], [1, 2 ** 50])
    with raises(ValueError, match="outside"):  # a Graph made directly is checked too
        gpu500.Graph(np.array([0, 3]), np.array([1, 2]), num_vertices=3)
    g = gpu500.Graph.from_edges([0, 3], [1, 2], num_vertices=4)  # the largest id n - 1 is in
    assert g.num_vertices == 4 and g.bfs(0).parent.tolist() == [0, 0, -1, -1]
    assert gpu500.Graph.from_edges([], [], num_vertices=5).num_vertices == 5


def test_bad_graphs_raise_value_error_from_the_library():
    with raises(ValueError):  # self-loops only: nothing to search
        gpu500.Graph.from_edges([0, 1], [0, 1]).bfs(0)
    with raises(ValueError, match=r"the weights can add up to 6e\+38 along a path, past the largest float"):
        gpu500.Graph.from_edges([0, 1], [1, 2], weights=[3e38, 3e38]).sssp(0)
    g = gpu500.Graph.from_edges([0, 1], [1, 2], weights=[1.0, -2.0])
    assert g.bfs(0).parent.tolist() == [0, 0, 1]  # BFS never reads the weights
    with raises(ValueError, match=r"^the graph: edge 1 \(1, 2\) has weight -2; SSSP takes finite weights >= 0$"):
        g.sssp(0)
    with raises(ValueError, match=r"edge 0 \(0, 1\) has weight nan"):
        gpu500.Graph.from_edges([0, 1], [1, 2], weights=[float("nan"), 1.0]).sssp(0)
    with raises(ValueError, match="not a vertex"):
        g.bfs(3)
    with raises(ValueError, match="integer"):
        g.bfs("a")
    with raises(ValueError, match="backend"):
        g.bfs(0, backend="tpu")
    with raises(ValueError, match="either root or roots"):
        g.bfs()


def test_directed_graphs_follow_arcs():
    g = gpu500.Graph.from_edges([0, 1], [1, 2], directed=True)
    assert g.directed
    assert g.bfs(0).level.tolist() == [0, 1, 2]
    assert g.bfs(2).level.tolist() == [-1, -1, 0]  # no arc leaves 2
    assert g.sssp(1).distance.tolist() == [-1, 0, 1]
    # the same edges undirected: 2 -> 1 -> 0 is searched against the arcs' direction
    assert gpu500.Graph.from_edges([0, 1], [1, 2]).bfs(2).level.tolist() == [2, 1, 0]


def test_from_scipy_matrix_and_array():
    sp = need("scipy.sparse")
    m = sp.csr_matrix(([2.0, 3.0, 4.0], ([0, 1, 3], [1, 2, 0])), shape=(5, 5))
    for a in (m, sp.csr_array(m), m.tocoo(), m.tolil()):
        g = gpu500.Graph.from_scipy(a)
        assert g.num_vertices == 5 and g.num_edges == 3
        assert g.sssp(2).distance.tolist() == [5.0, 3.0, 0.0, 9.0, -1.0]
    assert gpu500.Graph.from_scipy(m, weighted=False).weights is None
    with raises(ValueError, match="square"):
        gpu500.Graph.from_scipy(sp.csr_matrix((2, 3)))
    with raises(ValueError, match="sparse"):
        gpu500.Graph.from_scipy(np.eye(3))


def test_read_graph_every_format():
    with tempfile.TemporaryDirectory() as d:
        snap = os.path.join(d, "g.txt")
        with open(snap, "w") as f:
            f.write("# a path\n0 1 2.5\n1 2 1\n2 3 4\n")
        mtx = os.path.join(d, "g.mtx")
        with open(mtx, "w") as f:
            f.write("%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n2 1 2.5\n3 2 1\n4 3 4\n")
        gz = os.path.join(d, "g.txt.gz")
        with open(snap, "rb") as f, gzip.open(gz, "wb") as z:
            z.write(f.read())
        for path, fmt in ((snap, "snap"), (mtx, "mtx"), (gz, "snap")):
            g = gpu500.read_graph(path)
            assert g.file_format == fmt and g.num_vertices == 4 and g.num_edges == 3
            assert g.sssp(0).distance.tolist() == [0.0, 2.5, 3.5, 7.5]
        assert gpu500.read_graph(snap, weights=False).weights is None
        assert gpu500.read_graph(snap, num_vertices=6).num_vertices == 6
        bad = os.path.join(d, "bad.txt")
        with open(bad, "w") as f:
            f.write("0 1\n1 x\n")
        with raises(ValueError, match="bad.txt"):
            gpu500.read_graph(bad)
        with raises(ValueError, match="format"):
            gpu500.read_graph(snap, format="csv")
        with raises((ValueError, RuntimeError)):
            gpu500.read_graph(os.path.join(d, "missing.txt"))


def test_generate_is_the_kronecker_graph():
    g = gpu500.Graph.generate(6, edgefactor=4)
    assert g.num_vertices == 64 and g.num_edges == 256 and g.weights.dtype == np.float32
    h = gpu500.Graph.generate(6, edgefactor=4)
    assert np.array_equal(g.src, h.src) and np.array_equal(g.weights, h.weights)
    assert not np.array_equal(g.src, gpu500.Graph.generate(6, edgefactor=4, seed=(5, 7)).src)
    assert gpu500.Graph.generate(6, 4, weights=False).weights is None
    with raises(ValueError, match="SCALE"):
        gpu500.Graph.generate(0)

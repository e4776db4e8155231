"""Edge lists as other tools write them, read by the library's reader: labelled vertices (strings,
sparse integers), commas and a header line, NetworkX's write_edgelist files; labels from string
arrays; results named by the labels. DLPack arrays into Graph.from_edges: host arrays without a
copy (PyTorch when installed, else a DLPack producer of our own); CUDA arrays (PyTorch or CuPy on
a GPU) kept on the device, searched by both backends with the results of the same graph in host
arrays, and refused with the dtype to use when their dtype is not the library's."""
import os
import tempfile

import numpy as np

import gpu500
from support import need, raises


def _write(d, name, text):
    path = os.path.join(d, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def test_labelled_csv_with_a_header():
    with tempfile.TemporaryDirectory() as d:
        path = _write(d, "roads.csv", "from,to,km\nalice,bob,2.5\nbob,carol,1\n\"new york\",carol,4\n")
        g = gpu500.read_graph(path, labels=True, header=True)
        assert g.labels == ["alice", "bob", "carol", "new york"] and g.num_edges == 3
        s = g.sssp("alice")
        assert s.root == "alice"
        assert s.distance_dict() == {"alice": 0.0, "bob": 2.5, "carol": 3.5, "new york": 7.5}
        assert s.parent_dict() == {"alice": "alice", "bob": "alice", "carol": "bob", "new york": "carol"}
        assert g.bfs("new york").level_dict() == {"new york": 0, "carol": 1, "bob": 2, "alice": 3}
        with raises(ValueError, match="--header"):
            gpu500.read_graph(path, labels=True)  # the header taken for an edge: its weight "km"
        with raises(ValueError, match="--labels"):
            gpu500.read_graph(path, header=True)  # names that are not integers
        # commas and a header with integer ids: the fast reader
        ids = _write(d, "ids.csv", "u,v\n0,1\n1,2\n")
        assert gpu500.read_graph(ids, header=True).bfs(0).level.tolist() == [0, 1, 2]


def test_sparse_integer_labels_become_ints():
    with tempfile.TemporaryDirectory() as d:
        path = _write(d, "sparse.tsv", "10\t3000000000000\n3000000000000\t77\n")
        g = gpu500.read_graph(path, labels=True)
        assert g.labels == [10, 3000000000000, 77] and g.num_vertices == 3
        assert g.bfs(10).level_dict() == {10: 0, 3000000000000: 1, 77: 2}
        with raises(ValueError, match="not a node"):
            g.bfs(11)


def test_networkx_write_edgelist_files():
    nx = need("networkx")
    G = nx.Graph()
    G.add_edge("a", "b", weight=2.5)
    G.add_edge("b", "c")  # no weight: 1, as NetworkX's Dijkstra takes it
    G.add_edge("c", "d", weight=1, color="red")
    G.add_edge("x", "y", weight=3)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "g.edgelist")
        nx.write_edgelist(G, path)  # "a b {'weight': 2.5}", "b c {}", ...
        g = gpu500.read_graph(path, labels=True)
        assert g.sssp("a").distance_dict() == nx.single_source_dijkstra_path_length(G, "a")
        assert g.bfs("a").level_dict() == nx.single_source_shortest_path_length(G, "a")
        unit = gpu500.read_graph(path, labels=True, weights=False)  # `--unit-weights`
        assert unit.weights is None
        assert unit.sssp("a").distance_dict() == {k: float(v) for k, v in
                                                  nx.single_source_shortest_path_length(G, "a").items()}
        plain = os.path.join(d, "plain.edgelist")
        nx.write_edgelist(nx.path_graph(4), plain, data=False)
        assert gpu500.read_graph(plain).bfs(0).level.tolist() == [0, 1, 2, 3]


def test_from_edges_with_string_labels():
    g = gpu500.Graph.from_edges(np.array(["b", "a", "c"]), ["a", "c", "d"], [1.0, 2.0, 5.0])
    assert g.labels == ["a", "b", "c", "d"] and g.src.dtype == np.int64
    assert g.sssp("b").distance_dict() == {"b": 0.0, "a": 1.0, "c": 3.0, "d": 8.0}
    with raises(ValueError, match="num_vertices"):
        gpu500.Graph.from_edges(["a"], ["b"], num_vertices=3)


class _Producer:
    """A DLPack producer that is not a NumPy array (as a PyTorch or CuPy array is)."""

    def __init__(self, a, device=(1, 0)):
        self.a, self.device = a, device

    def __dlpack__(self, **kwargs):
        return self.a.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.device


def test_dlpack_host_arrays_are_not_copied():
    src = np.array([0, 1, 2], dtype=np.int64)
    dst = np.array([1, 2, 3], dtype=np.int64)
    w = np.array([1, 2, 3], dtype=np.float32)
    g = gpu500.Graph.from_edges(_Producer(src), _Producer(dst), _Producer(w))
    assert np.shares_memory(g.src, src) and np.shares_memory(g.dst, dst) and np.shares_memory(g.weights, w)
    assert g.sssp(0).distance.tolist() == [0, 1, 3, 6]
    g32 = gpu500.Graph.from_edges(_Producer(src.astype(np.int32)), _Producer(dst.astype(np.int32)))
    assert g32.src.dtype == np.int64 and g32.bfs(3).level.tolist() == [3, 2, 1, 0]  # converted once
    with raises(ValueError, match="DLPack device type 4"):
        gpu500.Graph.from_edges(_Producer(src, device=(4, 0)), dst)  # kDLOpenCL: not read


def _expect_device_graph_searches(to_device, int32):
    """A random weighted graph given as device arrays equals the same graph in host arrays on
    every backend: BFS levels, SSSP distances, unit-weight SSSP."""
    rng = np.random.default_rng(5)
    n, m = 3000, 12000
    src, dst = rng.integers(0, n, m), rng.integers(0, n, m)
    w = rng.random(m, dtype=np.float32)
    host = gpu500.Graph.from_edges(src, dst, w, num_vertices=n)
    dev = gpu500.Graph.from_edges(to_device(src), to_device(dst), to_device(w))
    assert dev.on_device and not host.on_device and dev.num_vertices == int(max(src.max(), dst.max())) + 1
    unit = gpu500.Graph.from_edges(to_device(src), to_device(dst), num_vertices=n)
    root = int(src[0])
    want_level = host.bfs(root, backend="cpu").level
    want_dist = host.sssp(root, backend="cpu").distance
    want_hops = gpu500.Graph.from_edges(src, dst, num_vertices=n).sssp(root, backend="cpu").distance
    for backend in ["cuda", "cpu"]:
        assert dev.bfs(root, backend=backend).level[:dev.num_vertices].tolist() == want_level[:dev.num_vertices].tolist()
        assert np.allclose(dev.sssp(root, backend=backend).distance, want_dist[:dev.num_vertices], rtol=1e-6)
        assert unit.sssp(root, backend=backend).distance.tolist() == want_hops.tolist()
    with raises(ValueError, match="int64"):
        gpu500.Graph.from_edges(int32(src), int32(dst))
    with raises(ValueError, match="on a GPU|not on a GPU"):
        gpu500.Graph.from_edges(to_device(src), dst)


def test_torch_tensors():
    torch = need("torch")
    src, dst = torch.tensor([0, 1, 2]), torch.tensor([1, 2, 3])
    g = gpu500.Graph.from_edges(src, dst)
    assert g.src.ctypes.data == src.data_ptr()  # zero copy
    assert g.bfs(0).level.tolist() == [0, 1, 2, 3]
    if torch.cuda.is_available() and gpu500.cuda_available():
        _expect_device_graph_searches(lambda a: torch.from_numpy(a).cuda(),
                                      lambda a: torch.from_numpy(a.astype(np.int32)).cuda())


def test_cupy_arrays():
    cp = need("cupy")
    try:
        a = cp.arange(3)
    except Exception as e:  # CuPy installed but no GPU
        from support import skip
        skip(f"cupy has no device: {e}")
    if not gpu500.cuda_available():
        from support import skip
        skip("this build of gpu500 has no CUDA backend")
    _expect_device_graph_searches(cp.asarray, lambda x: cp.asarray(x.astype(np.int32)))

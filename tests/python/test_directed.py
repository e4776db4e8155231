"""Directed graphs: searches follow arcs (src -> dst). BFS levels and SSSP distances on every
backend equal SciPy's csgraph (directed=True) and NetworkX's on DiGraphs, with integer ids and
string labels, from arrays, SciPy matrices, NetworkX and labelled edge-list files; the NetworkX
backend searches DiGraphs along their successors."""
import os
import tempfile

import numpy as np

import gpu500
from support import backends, csgraph_matrix, need, random_graph


def _levels_and_distances(n, src, dst, w, roots):
    """SciPy's directed BFS levels and Dijkstra distances from each root (-1 where unreached)."""
    csg = need("scipy.sparse.csgraph")
    a = csgraph_matrix(n, src, dst, w)
    lev = csg.shortest_path(a, directed=True, unweighted=True, indices=roots)
    dist = csg.shortest_path(a, directed=True, indices=roots)
    return np.where(np.isinf(lev), -1, lev).astype(np.int64), np.where(np.isinf(dist), -1, dist)


def test_directed_arrays_equal_csgraph():
    for n, m, seed in ((60, 150, 1), (200, 500, 2), (500, 700, 3)):  # sparse: many vertices unreached
        src, dst, w = random_graph(n, m, seed, weighted=True)
        g = gpu500.Graph.from_edges(src, dst, w, num_vertices=n, directed=True)
        roots = [int(src[0]), int(src[1]), int(src[2])]
        lev, dist = _levels_and_distances(n, src, dst, w, roots)
        for be in backends():
            for k, r in enumerate(roots):
                b = g.bfs(r, backend=be)
                assert b.level.tolist() == lev[k].tolist(), (be, n, r)
                s = g.sssp(r, backend=be)
                np.testing.assert_allclose(s.distance, dist[k], rtol=1e-6)
                # every reached vertex but the root has an arc from its parent
                arcs = set(zip(src.tolist(), dst.tolist()))
                assert all((int(s.parent[v]), v) in arcs for v in np.flatnonzero(s.parent >= 0) if v != r)


def test_directed_differs_from_undirected():
    src, dst, w = random_graph(80, 160, 7, weighted=True)
    d = gpu500.Graph.from_edges(src, dst, w, num_vertices=80, directed=True).bfs(int(src[0]))
    u = gpu500.Graph.from_edges(src, dst, w, num_vertices=80).bfs(int(src[0]))
    assert d.reached().sum() < u.reached().sum()  # some vertices reach back only against an arc
    assert d.nedge <= 2 * u.nedge


def test_from_scipy_directed():
    sp = need("scipy.sparse")
    csg = need("scipy.sparse.csgraph")
    m = sp.csr_matrix(([2.0, 3.0, 4.0, 1.0], ([0, 1, 3, 2], [1, 2, 0, 4])), shape=(5, 5))
    g = gpu500.Graph.from_scipy(m, directed=True)
    ref = csg.dijkstra(m, directed=True, indices=3)
    for be in backends():
        assert g.sssp(3, backend=be).distance.tolist() == np.where(np.isinf(ref), -1, ref).tolist()
        assert g.bfs(1, backend=be).level.tolist() == [-1, 0, 1, -1, 2]


def _word_digraph(nx):
    D = nx.DiGraph()
    D.add_weighted_edges_from([("a", "b", 3), ("b", "c", 1), ("c", "a", 5), ("c", "d", 2), ("d", "e", 1),
                               ("e", "d", 4), ("x", "a", 1), ("b", "y", 7)])
    return D


def test_string_labels_equal_networkx_digraph():
    nx = need("networkx")
    D = _word_digraph(nx)
    src, dst, w = zip(*D.edges(data="weight"))
    for g in (gpu500.Graph.from_networkx(D),
              gpu500.Graph.from_edges(np.array(src), np.array(dst), np.array(w, dtype=np.float32), directed=True)):
        assert g.directed
        for be in backends():
            for s in ("a", "d", "x"):
                assert g.bfs(s, backend=be).level_dict() == nx.single_source_shortest_path_length(D, s)
                assert g.sssp(s, backend=be).distance_dict() == nx.single_source_dijkstra_path_length(D, s)
                assert all(D.has_edge(p, v) for v, p in g.bfs(s, backend=be).parent_dict().items() if v != s)


def test_labelled_file_read_directed():
    nx = need("networkx")
    D = _word_digraph(nx)
    with tempfile.TemporaryDirectory() as d:
        path = os.path.join(d, "words.edgelist")
        nx.write_edgelist(D, path)  # "a b {'weight': 3}" lines
        g = gpu500.read_graph(path, labels=True, directed=True)
        assert g.directed and sorted(g.labels) == sorted(D)
        u = gpu500.read_graph(path, labels=True)
        assert not u.directed
        for s in ("a", "e"):
            assert g.sssp(s).distance_dict() == nx.single_source_dijkstra_path_length(D, s)
            assert g.bfs(s).level_dict() == nx.single_source_shortest_path_length(D, s)
        # undirected, x -> a is followed back from a
        assert "x" in u.bfs("a").level_dict() and "x" not in g.bfs("a").level_dict()


def test_networkx_backend_on_digraphs():
    nx = need("networkx")
    nx.config.warnings_to_ignore.add("cache")
    D = _word_digraph(nx)
    G = nx.gnp_random_graph(120, 0.03, seed=5, directed=True)
    for k, (u, v) in enumerate(G.edges()):
        G.edges[u, v]["weight"] = 1 + k % 5
    for H, s in ((D, "a"), (D, "x"), (G, 0), (G, 7)):
        assert nx.single_source_shortest_path_length(H, s, backend="gpu500") == nx.single_source_shortest_path_length(H, s)
        assert nx.single_source_dijkstra_path_length(H, s, backend="gpu500") == nx.single_source_dijkstra_path_length(H, s)
        layers = [sorted(map(str, x)) for x in nx.bfs_layers(H, [s], backend="gpu500")]
        assert layers == [sorted(map(str, x)) for x in nx.bfs_layers(H, [s])]

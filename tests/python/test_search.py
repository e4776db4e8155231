"""BFS and SSSP results against independent computations (scipy.sparse.csgraph), the batch
form, unit weights, unreached and isolated vertices, timings."""

import numpy as np

import gpu500
from support import backends, csgraph_matrix, need, raises, random_graph, run_in_threads


def _check_bfs_tree(r, src, dst, root):
    """Every reached vertex but the root has a parent one level up joined to it by an edge."""
    edges = set(zip(src.tolist(), dst.tolist())) | set(zip(dst.tolist(), src.tolist()))
    for v in np.flatnonzero(r.parent >= 0).tolist():
        p = int(r.parent[v])
        if v == root:
            assert p == root and r.level[v] == 0
        else:
            assert (p, v) in edges and r.level[p] == r.level[v] - 1


def test_bfs_levels_equal_csgraph():
    csg = need("scipy.sparse.csgraph")
    n = 300
    src, dst, _ = random_graph(n, 500, seed=1)  # sparse: several components
    g = gpu500.Graph.from_edges(src, dst, num_vertices=n)
    a = csgraph_matrix(n, src, dst)
    roots = [int(src[0]), int(dst[7]), 5]
    for r in [r for be in backends() for r in g.bfs(roots=roots, backend=be)]:
        ref = csg.shortest_path(a, directed=False, unweighted=True, indices=g.vertex_id(r.root))
        expect = np.where(np.isinf(ref), -1, ref).astype(np.int64)
        assert np.array_equal(r.level, expect)
        assert np.array_equal(r.parent >= 0, expect >= 0)
        _check_bfs_tree(r, src, dst, r.root)
        assert r.seconds > 0 and r.nedge > 0 and r.teps > 0 and r.backend in ("cpu", "cuda")


def test_levels_and_layers_from_parents():
    """The library's level walk and counting sort (what BfsResult.level and the NetworkX backend's
    bfs_layers read) on a hand-made tree, and a cycle refused."""
    from gpu500 import _core

    parent = np.array([2, 0, 2, 1, -1, 3, 0], dtype=np.int64)  # root 2; 4 unreached
    level = _core.tree_levels(parent, 2)
    assert level.tolist() == [1, 2, 0, 3, -1, 4, 2]
    order, bounds = _core.by_level(level)
    layers = [order[bounds[k]:bounds[k + 1]].tolist() for k in range(len(bounds) - 1)]
    assert layers == [[2], [0], [1, 6], [3], [5]]
    cyclic = np.array([1, 0, 2], dtype=np.int64)  # 0 and 1 point at each other, root 2
    try:
        _core.tree_levels(cyclic, 2)
    except ValueError as e:
        assert "tree" in str(e)
    else:
        raise AssertionError("a cycle was taken for a tree")


def test_levels_and_layers_of_large_trees():
    """Trees of 2^17 vertices and more take the parallel passes (pointer jumping, per-thread
    counts): the same levels as a walk from the root, the same layers as a stable sort, the node
    objects of tree_layers the caller's own, and a cycle or a chain into an unreached vertex
    refused."""
    from gpu500 import _core

    rng = np.random.default_rng(5)
    for n, fanout in ((1 << 17, 3), (200003, 1)):  # a bushy tree, and one of paths (deep levels)
        perm = rng.permutation(n)  # perm[0] is the root; vertex perm[i] hangs below an earlier one
        parent = np.empty(n, dtype=np.int64)
        depth = np.zeros(n, dtype=np.int64)
        for i in range(1, n):
            j = i - 1 if fanout == 1 or i < 4 else int(rng.integers(max(0, i - 1000 * fanout), i))
            parent[perm[i]] = perm[j]
            depth[perm[i]] = depth[perm[j]] + 1
        root = int(perm[0])
        parent[root] = root
        unreached = perm[n - 5:]  # the last five hang below nothing: leaves, so the rest stays a tree
        parent[unreached] = -1
        depth[unreached] = -1
        level = _core.tree_levels(parent, root)
        assert np.array_equal(level, depth)
        order, bounds = _core.by_level(level)
        want = np.flatnonzero(level >= 0)
        want = want[np.argsort(level[want], kind="stable")]
        assert np.array_equal(order, want)
        assert bounds[-1] == n - 5 and len(bounds) == level.max() + 2
        nodes = [f"v{i}" for i in range(n)]
        layers = _core.tree_layers(parent, root, nodes)
        assert [len(x) for x in layers] == np.diff(bounds).tolist()
        assert layers[0][0] is nodes[root] and layers[-1][-1] is nodes[order[-1]]
        picked = _core.take_nodes(nodes, order[:10])
        assert all(a is nodes[b] for a, b in zip(picked, order[:10].tolist()))
    cyclic = parent.copy()
    a, b = int(perm[n // 2]), int(perm[n // 2 + 1])
    cyclic[a], cyclic[b] = b, a  # two vertices of the path point at each other
    try:
        _core.tree_levels(cyclic, root)
    except ValueError as e:
        assert "tree" in str(e)
    else:
        raise AssertionError("a cycle was taken for a tree")
    dangling = parent.copy()
    dangling[int(perm[100])] = -1  # the path below it now hangs from an unreached vertex
    try:
        _core.tree_levels(dangling, root)
    except ValueError as e:
        assert f"(vertex {int(perm[100])})" in str(e)  # the unreached vertex the chains run into
    else:
        raise AssertionError("a chain into an unreached vertex was taken for a tree")


def test_sssp_distances_equal_csgraph():
    csg = need("scipy.sparse.csgraph")
    n = 300
    src, dst, w = random_graph(n, 1200, seed=2, weighted=True)
    g = gpu500.Graph.from_edges(src, dst, w, num_vertices=n)
    a = csgraph_matrix(n, src, dst, w)
    for root, be in [(r, be) for r in (int(src[3]), 0) for be in backends()]:
        r = g.sssp(root, backend=be)
        ref = csg.dijkstra(a, directed=False, indices=root)
        expect = np.where(np.isinf(ref), -1.0, ref)
        assert np.array_equal(r.distance.astype(np.float64), expect)  # integer weights: exact
        reached = np.flatnonzero((r.parent >= 0) & (np.arange(n) != root))
        assert np.all(r.distance[reached] > r.distance[r.parent[reached]])


def test_unweighted_sssp_is_bfs_with_unit_weights():
    src, dst, _ = random_graph(100, 300, seed=3)
    g = gpu500.Graph.from_edges(src, dst, num_vertices=100)
    b, s = g.bfs(int(src[0])), g.sssp(int(src[0]))
    assert s.distance.dtype == np.float32
    assert np.array_equal(np.where(b.level >= 0, b.level, -1), s.distance.astype(np.int64))


def test_unreached_and_isolated():
    g = gpu500.Graph.from_edges([0, 1, 3], [1, 2, 4], [1.0, 2.0, 5.0], num_vertices=7)  # 5, 6 isolated
    for be in backends()[1:]:  # CUDA where present: the same answers as the CPU's below
        assert g.bfs(0, backend=be).parent.tolist() == [0, 0, 1, -1, -1, -1, -1]
        assert g.sssp(4, backend=be).distance.tolist() == [-1, -1, -1, 5, 0, -1, -1]
    r = g.bfs(0)
    assert r.parent.tolist() == [0, 0, 1, -1, -1, -1, -1]
    assert r.level.tolist() == [0, 1, 2, -1, -1, -1, -1]
    assert r.level_dict() == {0: 0, 1: 1, 2: 2} and r.parent_dict() == {0: 0, 1: 0, 2: 1}
    s = g.sssp(4)
    assert s.distance.tolist() == [-1, -1, -1, 5, 0, -1, -1] and s.distance_dict() == {3: 5.0, 4: 0.0}
    lone = g.bfs(6)  # a root without edges reaches itself alone
    assert lone.parent.tolist() == [-1] * 6 + [6] and lone.nedge == 0


def test_unvalidated_and_repeated_searches_reuse_the_engine():
    src, dst, w = random_graph(200, 800, seed=4, weighted=True)
    g = gpu500.Graph.from_edges(src, dst, w, num_vertices=200)
    a, b = g.sssp(int(src[0])), g.sssp(int(src[0]), validate=False)
    assert np.array_equal(a.distance, b.distance)
    assert len(g._engines) == 1
    g.release()
    assert not g._engines


def test_searches_in_threads():
    """The GIL is released during a search: threads searching at once all finish correctly."""
    src, dst, _ = random_graph(2000, 8000, seed=5)
    graphs = [gpu500.Graph.from_edges(src, dst, num_vertices=2000) for _ in range(2)]
    expect = graphs[0].bfs(int(src[0])).level
    out = [None, None]

    def work(i):
        out[i] = graphs[i].bfs(roots=[int(src[0])] * 3)

    run_in_threads(work, 2)
    for rs in out:
        assert all(np.array_equal(r.level, expect) for r in rs)


def test_auto_takes_the_cpu_for_paths_and_cycles():
    # The rule itself (graph::chain_like) is tested in C++ with a GPU answer given; here what the
    # package asks: "auto" on a path is the CPU on any host, and names are checked.
    path = gpu500.Graph.from_edges(np.arange(9), np.arange(1, 10))
    assert gpu500._core.search_backend("auto", path.src, path.dst, path.num_vertices) == "cpu"
    assert gpu500._core.search_backend("cpu", path.src, path.dst, path.num_vertices) == "cpu"
    with raises(ValueError):
        gpu500._core.search_backend("tpu", path.src, path.dst, path.num_vertices)
    assert path.bfs(0, backend="auto").backend == "cpu"

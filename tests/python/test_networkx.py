"""NetworkX graphs into gpu500 (any hashable labels) and gpu500 as a NetworkX backend: results
equal NetworkX's own on a grid, a path, a disconnected graph and string labels (and a DiGraph for
bfs_edges and shortest_path_length), on every backend the configuration names."""
import re

import gpu500
from support import backends, need, raises


def _graphs(nx):
    grid = nx.grid_2d_graph(6, 7)  # tuple labels
    for k, (u, v) in enumerate(grid.edges()):
        grid.edges[u, v]["weight"] = 1 + k % 4
    path = nx.path_graph(12)
    nx.set_edge_attributes(path, {e: 2 for e in path.edges()}, "weight")
    parts = nx.disjoint_union(nx.cycle_graph(5), nx.complete_graph(4))
    parts.add_node(42)  # isolated
    words = nx.Graph()
    words.add_weighted_edges_from([("a", "b", 3), ("b", "c", 1), ("a", "c", 5), ("c", "d", 2), ("x", "y", 1)])
    return [(grid, (0, 0)), (path, 3), (parts, 0), (words, "a")]


def test_from_networkx_labels_map_back():
    nx = need("networkx")
    for G, s in _graphs(nx):
        g = gpu500.Graph.from_networkx(G)
        assert g.num_vertices == G.number_of_nodes()
        assert g.bfs(s).level_dict() == nx.single_source_shortest_path_length(G, s)
        assert g.sssp(s).distance_dict() == nx.single_source_dijkstra_path_length(G, s)
        pred = g.bfs(s).parent_dict()
        assert pred[s] == s and all(G.has_edge(v, p) for v, p in pred.items() if v != s)
    with raises(ValueError, match="not a node"):
        gpu500.Graph.from_networkx(nx.path_graph(["p", "q"])).bfs("z")


def test_backend_equals_networkx():
    nx = need("networkx")
    nx.config.warnings_to_ignore.add("cache")  # the converted graphs are reused on purpose
    for G, s in _graphs(nx):
        assert nx.single_source_shortest_path_length(G, s, backend="gpu500") == \
            nx.single_source_shortest_path_length(G, s)
        assert nx.single_source_shortest_path_length(G, s, cutoff=2, backend="gpu500") == \
            nx.single_source_shortest_path_length(G, s, cutoff=2)
        for algo in (nx.single_source_dijkstra_path_length, nx.single_source_bellman_ford_path_length):
            ours, theirs = algo(G, s, backend="gpu500"), algo(G, s)
            assert ours == theirs and all(type(ours[v]) is type(theirs[v]) for v in theirs)
        for cutoff in (0, 1.5, 3):  # a distance equal to the cutoff is kept, as NetworkX keeps it
            ours = nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff, backend="gpu500")
            assert ours == nx.single_source_dijkstra_path_length(G, s, cutoff=cutoff)
        assert nx.single_source_dijkstra_path_length(G, s, weight="missing", backend="gpu500") == \
            nx.single_source_dijkstra_path_length(G, s, weight="missing")
        layers = [set(layer) for layer in nx.bfs_layers(G, [s], backend="gpu500")]
        assert layers == [set(layer) for layer in nx.bfs_layers(G, [s])]
        # one source given as the node itself (a tuple node of the grid is not a list of sources)
        assert [set(x) for x in nx.bfs_layers(G, s, backend="gpu500")] == layers


def _check_bfs_edges(nx, G, s, edges, depth_limit):
    """edges as NetworkX's bfs_edges gives them, but for the choice of parents: every node NetworkX
    reaches within depth_limit but s once, level by level, from a neighbour one level up already
    given (along an arc of a DiGraph)."""
    depth = nx.single_source_shortest_path_length(G, s, cutoff=depth_limit)
    seen, last = {s}, 1
    for p, v in edges:
        assert p in seen and v not in seen and G.has_edge(p, v)
        assert depth[v] == depth[p] + 1 and depth[v] >= last
        last = depth[v]
        seen.add(v)
    assert seen == set(depth)


def test_backend_bfs_edges_and_shortest_path_length_equal_networkx():
    nx = need("networkx")
    nx.config.warnings_to_ignore.add("cache")
    directed = nx.DiGraph([(0, 1), (1, 2), (2, 0), (3, 1), (1, 4)])  # 3 is not reached from 1
    for G, s in _graphs(nx) + [(directed, 1)]:
        for limit in (None, 0, 1, 2):
            ours = list(nx.bfs_edges(G, s, depth_limit=limit, backend="gpu500"))
            _check_bfs_edges(nx, G, s, ours, limit)
            assert len(ours) == len(list(nx.bfs_edges(G, s, depth_limit=limit)))
        for weight in (None, "weight"):
            for method in ("dijkstra", "bellman-ford"):
                ours = nx.shortest_path_length(G, s, weight=weight, method=method, backend="gpu500")
                theirs = nx.shortest_path_length(G, s, weight=weight, method=method)
                assert ours == theirs and all(type(ours[v]) is type(theirs[v]) for v in theirs)
                for t in G:  # to each node: NetworkX's length, or its NetworkXNoPath with its words
                    if t in theirs:
                        length = nx.shortest_path_length(G, s, t, weight=weight, method=method, backend="gpu500")
                        assert length == theirs[t] and type(length) is type(theirs[t])
                        continue
                    try:
                        nx.shortest_path_length(G, s, t, weight=weight, method=method)
                        raise AssertionError(f"NetworkX found a path from {s} to {t}")
                    except nx.NetworkXNoPath as e:
                        words = str(e)
                    with raises(nx.NetworkXNoPath, match=f"^{re.escape(words)}$"):
                        nx.shortest_path_length(G, s, t, weight=weight, method=method, backend="gpu500")
    with raises(ValueError, match="method not supported: astar"):
        nx.shortest_path_length(directed, 1, weight="weight", method="astar", backend="gpu500")


def test_backend_validates_when_configured():
    nx = need("networkx")
    from gpu500.networkx_backend import _validate

    G = nx.path_graph(6)
    assert nx.config.backends.gpu500.validate is False and not _validate()
    nx.config.backends.gpu500.validate = True
    try:
        assert _validate()
        assert nx.single_source_shortest_path_length(G, 2, backend="gpu500") == nx.single_source_shortest_path_length(G, 2)
    finally:
        nx.config.backends.gpu500.validate = False


def test_backend_runs_on_the_configured_engines():
    nx = need("networkx")
    from gpu500.networkx_backend import _backend

    G = nx.grid_2d_graph(5, 9)
    assert nx.config.backends.gpu500.backend == "auto" and _backend() == "auto"
    want = nx.single_source_shortest_path_length(G, (0, 0))
    for be in backends():
        nx.config.backends.gpu500.backend = be
        try:
            assert nx.single_source_shortest_path_length(G, (0, 0), backend="gpu500") == want
        finally:
            nx.config.backends.gpu500.backend = "auto"
    nx.config.backends.gpu500.backend = "tpu"
    try:
        with raises(ValueError, match="backend"):
            nx.single_source_shortest_path_length(G, (0, 0), backend="gpu500")
    finally:
        nx.config.backends.gpu500.backend = "auto"


def test_backend_declines_what_it_cannot_run():
    nx = need("networkx")
    from gpu500.networkx_backend import backend_interface as b

    N = nx.Graph()
    N.add_weighted_edges_from([(0, 1, -1.0), (1, 2, 1.0)])
    assert isinstance(b.can_run("single_source_bellman_ford_path_length", (N, 0), {}), str)
    assert isinstance(b.can_run("single_source_dijkstra_path_length", (N, 0), {"weight": lambda u, v, d: 1}), str)
    assert b.can_run("single_source_shortest_path_length", (N, 0), {}) is True
    assert isinstance(b.can_run("shortest_path_length", (N,), {}), str)  # all pairs
    assert isinstance(b.can_run("shortest_path_length", (N, 0, 7), {}), str)  # a target not in N
    assert isinstance(b.can_run("shortest_path_length", (N, 0), {"weight": "weight"}), str)  # a negative weight
    assert b.can_run("shortest_path_length", (N, 0, 2), {}) is True  # no weight: BFS lengths
    assert isinstance(b.can_run("bfs_edges", (N, 0), {"sort_neighbors": sorted}), str)
    assert b.can_run("bfs_edges", (N, 0), {"reverse": True}) is True  # a Graph: the same search
    assert isinstance(b.can_run("bfs_edges", (nx.DiGraph([(0, 1)]), 1), {"reverse": True}), str)
    # The weights are read once per graph; a change through NetworkX's methods is seen.
    P = nx.Graph()
    P.add_weighted_edges_from([(0, 1, 2.0), (1, 2, 1.0)])
    assert b.can_run("single_source_dijkstra_path_length", (P, 0), {}) is True
    assert b.can_run("single_source_dijkstra_path_length", (P, 0), {}) is True
    P[0][1]["weight"] = -1.0  # changed in place: NetworkX's caches (and so this answer) keep the old graph
    assert b.can_run("single_source_dijkstra_path_length", (P, 0), {}) is True
    P.add_edge(2, 3, weight=float("nan"))  # through NetworkX: its caches are cleared
    assert isinstance(b.can_run("single_source_dijkstra_path_length", (P, 0), {}), str)

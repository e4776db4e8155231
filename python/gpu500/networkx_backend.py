"""gpu500 as a NetworkX backend (entry point ``networkx.backends`` named ``gpu500``).

    nx.single_source_dijkstra_path_length(G, 0, backend="gpu500")
    nx.config.backend_priority.algos = ["gpu500"]      # or NETWORKX_BACKEND_PRIORITY=gpu500

Implemented: bfs_edges, bfs_layers (one source), single_source_shortest_path_length,
single_source_dijkstra_path_length, single_source_bellman_ford_path_length and
shortest_path_length from a source (weights from the edge attribute the call names, 1 where an
edge has none). Results equal NetworkX's: the same nodes at the same lengths (within a BFS layer
the order may differ; bfs_edges gives a BFS tree's edges level by level, whose parent for a node
with several neighbours one level up may be another than NetworkX's). A DiGraph is searched along
its arcs (successors), a Graph along both directions of every edge. Callable weights, negative
weights and graphs without an edge between two distinct nodes are declined (can_run), and NetworkX runs its own implementation when fallback is allowed. Weights are float32 in the library: distances
are exact for integer weights (sums below 2^24) and float32-rounded otherwise.

Searches are not run through Graph500's validator by default (it costs several searches' time);
``nx.config.backends.gpu500.validate = True`` checks each one, as gpu500.Graph's searches do.
``nx.config.backends.gpu500.backend`` chooses the engines: "auto" (the default: the GPU when
present), "cpu" or "cuda".
"""
import numpy as np

from . import _core
from ._graph import Graph

_FUNCTIONS = {
    "bfs_edges": "The edges of a BFS tree, level by level; a node with several neighbours one level up may "
                 "get another of them as its parent than NetworkX's. reverse=True on a DiGraph and "
                 "sort_neighbors are declined.",
    "bfs_layers": "One source only; the order of the nodes within a layer may differ from NetworkX's.",
    "single_source_shortest_path_length": "",
    "single_source_dijkstra_path_length": "Weights are float32; a callable weight is declined.",
    "single_source_bellman_ford_path_length": "Non-negative weights only (a negative weight is declined).",
    "shortest_path_length": "From a source (to every node, or to a target); all pairs (no source) are declined; "
                            "weights as single_source_dijkstra_path_length's, for either method.",
}


def _config(name, default):
    """nx.config.backends.gpu500.<name> (default when NetworkX has no such config)."""
    try:
        import networkx as nx

        return getattr(nx.config.backends.gpu500, name)
    except (AttributeError, ImportError):
        return default


def _validate():
    return bool(_config("validate", False))


def _backend():
    return str(_config("backend", "auto"))


class BackendGraph:
    """A NetworkX graph converted for gpu500: the gpu500.Graph and the name of its weight."""

    __networkx_backend__ = "gpu500"

    def __init__(self, graph, weight):
        self.graph = graph
        self.weight = weight
        w = graph.weights
        self.integral = w is None or bool(np.all(w == np.round(w)))
        self._nodes = None

    @property
    def nodes(self):
        """The node of each vertex id, as a list made once (NetworkX caches this graph): answers
        are built of references to these objects, with no Python int made per vertex."""
        if self._nodes is None:
            labels = self.graph.labels
            self._nodes = list(range(self.graph.num_vertices)) if labels is None else list(labels)
        return self._nodes

    def is_directed(self):
        return self.graph.directed

    def is_multigraph(self):
        return False


def _arg(args, kwargs, pos, name, default=None):
    if len(args) > pos:
        return args[pos]
    return kwargs.get(name, default)


def _weight_attr(name, args, kwargs):
    if name in ("single_source_dijkstra_path_length",):
        return _arg(args, kwargs, 3, "weight", "weight")
    if name == "single_source_bellman_ford_path_length":
        return _arg(args, kwargs, 2, "weight", "weight")
    if name == "shortest_path_length":
        return _arg(args, kwargs, 3, "weight", None)
    return None


def _weights_usable(G, weight):
    """Whether every edge's `weight` (absent: 1) is finite and >= 0. The edges are read once per
    graph and weight name: the answer is kept in NetworkX's cache of G, which NetworkX clears when
    G changes through its methods, as it drops its converted graphs then."""
    cache = getattr(G, "__networkx_cache__", None)
    key = f"gpu500: weights '{weight}' usable"
    if cache is not None and key in cache:
        return cache[key]
    ok = all(x is None or (np.isfinite(x) and x >= 0) for _, _, x in G.edges(data=weight))
    if cache is not None:
        cache[key] = ok
    return ok


class _Interface:
    """The object the entry point names: conversion, can_run and the algorithms."""

    @staticmethod
    def convert_from_nx(G, edge_attrs=None, node_attrs=None, preserve_edge_attrs=False,
                        preserve_node_attrs=False, preserve_graph_attrs=False, name=None, graph_name=None):
        weight, default = None, 1.0
        if isinstance(edge_attrs, dict) and len(edge_attrs) == 1:
            weight, default = next(iter(edge_attrs.items()))
            default = 1.0 if default is None else default
        elif edge_attrs or preserve_edge_attrs:
            raise NotImplementedError("gpu500 converts one numeric edge attribute at most")
        return BackendGraph(Graph.from_networkx(G, weight=weight, default_weight=default), weight)

    @staticmethod
    def convert_to_nx(obj, *, name=None):
        if isinstance(obj, BackendGraph):
            raise NotImplementedError("gpu500 graphs are not converted back to NetworkX")
        return obj

    @staticmethod
    def can_run(name, args, kwargs):
        G = _arg(args, kwargs, 0, "G")
        if name not in _FUNCTIONS:
            return f"gpu500 does not implement {name}"
        source = _arg(args, kwargs, 1, "sources" if name == "bfs_layers" else "source")
        if name == "bfs_layers" and source not in G:
            sources = list(source) if isinstance(source, (list, tuple, set)) else []
            if len(sources) != 1:
                return "gpu500's bfs_layers takes one source"
            source = sources[0]
        if name == "shortest_path_length" and source is None:
            return "gpu500 takes shortest_path_length from one source (not all pairs)"
        if source not in G:
            return "the source is not a node of G"
        if name == "shortest_path_length":
            target = _arg(args, kwargs, 2, "target")
            if target is not None and target not in G:
                return "the target is not a node of G"
        if name == "bfs_edges":
            if _arg(args, kwargs, 2, "reverse", False) and G.is_directed():
                return "gpu500 searches a DiGraph along its arcs only (reverse=True)"
            if _arg(args, kwargs, 4, "sort_neighbors") is not None:
                return "gpu500 does not take sort_neighbors"
        if not any(u != v for u, v in G.edges()):
            return "no edge joins two distinct nodes"
        weight = _weight_attr(name, args, kwargs)
        if callable(weight):
            return "a callable weight"
        if weight is not None and not _weights_usable(G, weight):
            return "gpu500's SSSP needs finite weights >= 0"
        return True

    @staticmethod
    def should_run(name, args, kwargs):
        return True

    # ---- algorithms: G is a BackendGraph ----------------------------------------------------

    @staticmethod
    def _one_source(G, sources):
        """The one source of bfs_layers: a node (a tuple may be one, as in grid graphs), or a
        collection holding one node."""
        try:
            G.graph.vertex_id(sources)
            return sources
        except (ValueError, TypeError):
            (source,) = list(sources)
            return source

    @staticmethod
    def bfs_layers(G, sources):
        r = G.graph.bfs(_Interface._one_source(G, sources), backend=_backend(), validate=_validate())
        # The levels (the engine's, or from the parents), their counting sort and the lists of
        # nodes, in one call to the library.
        try:
            layers = _core.tree_layers(r.parent, r._root_id, G.nodes, r._level)
        except ValueError as e:  # the engine's parents, not the caller's input (as BfsResult.level says)
            raise RuntimeError(f"the parents of the search from {r.root} are not a tree: {e}") from None
        yield from layers

    @staticmethod
    def bfs_edges(G, source, reverse=False, depth_limit=None, sort_neighbors=None):
        """The tree edges (parent, node) of the nodes the search reached, level by level (within
        a level in vertex order), to depth_limit where given."""
        r = G.graph.bfs(source, backend=_backend(), validate=_validate())
        order, bounds = _core.by_level(r.level)
        last = len(bounds) - 2 if depth_limit is None else min(int(depth_limit), len(bounds) - 2)
        nodes = order[bounds[1]:bounds[last + 1]] if last >= 1 else order[:0]
        return zip(_core.take_nodes(G.nodes, r.parent[nodes]), _core.take_nodes(G.nodes, nodes))

    @staticmethod
    def single_source_shortest_path_length(G, source, cutoff=None):
        r = G.graph.bfs(source, backend=_backend(), validate=_validate())
        return _Interface._reached(G, r, r.level, cutoff)

    @staticmethod
    def _distances(G, source, cutoff=None):
        r = G.graph.sssp(source, backend=_backend(), validate=_validate())
        return _Interface._reached(G, r, r.distance.astype(np.int64) if G.integral else r.distance, cutoff)

    @staticmethod
    def _reached(G, r, values, cutoff):
        """{node: value} of the nodes the search reached (within cutoff), the values made in one
        pass from an array (ints, or floats from float32)."""
        keep = r.parent >= 0
        if cutoff is not None:
            keep &= values.astype(np.float64) <= cutoff
        ids = np.flatnonzero(keep)
        return dict(zip(_core.take_nodes(G.nodes, ids), values[ids].tolist()))

    @staticmethod
    def single_source_dijkstra_path_length(G, source, cutoff=None, weight="weight"):
        return _Interface._distances(G, source, cutoff)

    @staticmethod
    def single_source_bellman_ford_path_length(G, source, weight="weight"):
        return _Interface._distances(G, source)

    @staticmethod
    def shortest_path_length(G, source=None, target=None, weight=None, method="dijkstra"):
        """From source: {node: length} of the nodes it reaches, or the length to target (NetworkX's
        NetworkXNoPath, with its message, where target is not reached). BFS levels without a
        weight, else the SSSP's distances (either method: the weights are >= 0, can_run saw)."""
        if method not in ("dijkstra", "bellman-ford"):
            raise ValueError(f"method not supported: {method}")  # NetworkX's own check and words
        if target is None:
            if weight is None:
                return _Interface.single_source_shortest_path_length(G, source)
            return _Interface._distances(G, source)
        t = G.graph.vertex_id(target)
        if weight is None:
            r = G.graph.bfs(source, backend=_backend(), validate=_validate())
            length = int(r.level[t])
        else:
            r = G.graph.sssp(source, backend=_backend(), validate=_validate())
            length = r.distance[t].item()
            length = int(length) if G.integral else length
        if r.parent[t] < 0:
            import networkx as nx

            raise nx.NetworkXNoPath(f"No path between {source} and {target}." if weight is None else
                                    f"Node {target} not reachable from {source}" if method == "dijkstra" else
                                    f"node {target} not reachable from {source}")
        return length


backend_interface = _Interface


def get_info():
    """The ``networkx.backend_info`` entry point: what NetworkX's docs show for this backend."""
    return {
        "backend_name": "gpu500",
        "project": "gpu500",
        "package": "gpu500",
        "short_summary": "Graph500's BFS and delta-stepping SSSP engines (CPU and CUDA), validated.",
        "functions": {k: {"additional_docs": v} if v else {} for k, v in _FUNCTIONS.items()},
        "default_config": {"validate": False, "backend": "auto"},
    }

"""gpu500.Graph: an edge list held as NumPy arrays (int64 ends, float32 weights or none), with
the vertex count, whether its edges are arcs, and node labels where the graph came from NetworkX.

Arrays may be NumPy arrays, anything NumPy converts, or DLPack producers (PyTorch, CuPy, JAX):
a host DLPack array is taken without a copy where its dtype fits. Device arrays (a CUDA tensor or
CuPy array: int64 ids, float32 weights) are kept as they are: the "cuda" backend copies them on
their GPU into its own edge list (no host copy); the "cpu" backend copies them to the host.

Searches (bfs, sssp) run on an engine of the C++ library built once per graph, kernel and
backend: it copies the edge arrays into the library's edge list, runs kernel 1 (the CSR), and is
kept for later searches. An undirected graph's searches follow every edge both ways; a directed
graph's (directed=True, a NetworkX DiGraph) follow each edge from src to dst only, as the CLI's
`--directed` does (BFS top-down at every level, SSSP without pull passes).
"""
import numpy as np

from . import _core
from ._results import BfsResult, SsspResult

_DLPACK_HOST = (1, 3)  # kDLCPU, kDLCUDAHost (pinned host memory)
_DLPACK_CUDA = (2, 13)  # kDLCUDA, kDLCUDAManaged


def _on_device(a):
    """Whether a is a DLPack producer in GPU memory."""
    if isinstance(a, np.ndarray) or not hasattr(a, "__dlpack_device__"):
        return False
    return int(a.__dlpack_device__()[0]) in _DLPACK_CUDA


def _host_array(a, name):
    """a as a NumPy array; a DLPack producer on the host is viewed without a copy."""
    if isinstance(a, np.ndarray) or not hasattr(a, "__dlpack__"):
        return np.asarray(a)
    device = a.__dlpack_device__() if hasattr(a, "__dlpack_device__") else (1, 0)
    if int(device[0]) not in _DLPACK_HOST:
        raise ValueError(f"{name} is an array on DLPack device type {int(device[0])} (id {int(device[1])}), which "
                         "gpu500 does not read: pass a host array or a CUDA array")
    return np.from_dlpack(a)


def _device_array(a, name, dtype):
    """A device array kept as it is, after checking what the library's device entry takes: one
    dimension and the dtype (the caller converts on the device, where it is cheap)."""
    if not hasattr(a, "__dlpack__"):
        raise ValueError(f"{name}: the other edge arrays are on a GPU; {name} must be a CUDA array as well")
    if not _on_device(a):
        raise ValueError(f"{name} is not on a GPU while the other edge arrays are: put all of them on one device")
    shape = tuple(a.shape)
    if len(shape) != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {shape}")
    if not str(a.dtype).endswith(dtype):
        raise ValueError(f"{name} on a GPU must be {dtype}, got {a.dtype} (convert it on the device, "
                         f"e.g. t.to(torch.{dtype}) or a.astype(cupy.{dtype}))")
    return a


def _labelled(a):
    return a.dtype.kind in "OUS"


def _ids(a, name):
    a = _host_array(a, name)
    if a.ndim != 1:
        raise ValueError(f"{name} must be one-dimensional, got shape {a.shape}")
    if a.size and not np.issubdtype(a.dtype, np.integer):
        raise ValueError(f"{name} must hold integer vertex ids, got dtype {a.dtype}")
    if a.dtype == np.uint64 and a.size and a.max() > np.iinfo(np.int64).max:
        raise ValueError(f"{name} holds a vertex id above 2^63 - 1")
    return np.ascontiguousarray(a, dtype=np.int64)  # the caller's array itself when it is int64


def _weights(w, m):
    if w is None:
        return None
    w = _host_array(w, "weights")
    if w.ndim != 1 or w.size != m:
        raise ValueError(f"weights must be one-dimensional with one entry per edge ({m}), got shape {w.shape}")
    if w.size and not (np.issubdtype(w.dtype, np.floating) or np.issubdtype(w.dtype, np.integer)
                       or w.dtype == np.bool_):
        raise ValueError(f"weights must be numbers, got dtype {w.dtype}")
    return np.ascontiguousarray(w, dtype=np.float32)  # the caller's array itself when it is float32


class Graph:
    """An edge list: ``src``, ``dst`` (int64), ``weights`` (float32 or None), ``num_vertices``,
    ``directed``, ``labels`` (None: vertex ids are the caller's integers; else vertex i is
    labels[i]). Build one with from_edges, from_scipy, from_networkx, generate or read_graph."""

    def __init__(self, src, dst, weights=None, num_vertices=None, directed=False, labels=None, *,
                 _ids_in_range=False):
        # _ids_in_range: the arrays come from the library or from this class (a file read, the
        # generator, SciPy's coordinates, ids numbered here) with every id in [0, num_vertices):
        # the pass that checks a caller's arrays is not made again.
        self.on_device = _on_device(src) or _on_device(dst) or _on_device(weights)
        if self.on_device:  # kept on the GPU: the "cuda" engine reads them there
            if labels is not None:
                raise ValueError("device arrays hold integer vertex ids; labels need host arrays")
            self.src = _device_array(src, "src", "int64")
            self.dst = _device_array(dst, "dst", "int64")
            self.weights = None if weights is None else _device_array(weights, "weights", "float32")
        else:
            self.src = _ids(src, "src")
            self.dst = _ids(dst, "dst")
        m = len(self.src)
        if m != len(self.dst):
            raise ValueError(f"src and dst must have the same length, got {m} and {len(self.dst)}")
        if self.on_device:
            if self.weights is not None and len(self.weights) != m:
                raise ValueError(f"weights must have one entry per edge ({m}), got {len(self.weights)}")
        else:
            self.weights = _weights(weights, m)
        if num_vertices is None and m == 0:
            raise ValueError("a graph without edges needs num_vertices")
        if num_vertices is not None:
            num_vertices = int(num_vertices)
            if num_vertices < 1:
                raise ValueError(f"num_vertices must be >= 1, got {num_vertices}")
        if self.on_device:  # (the device's kernel 1 checks the ends when an engine is built)
            if num_vertices is None:
                num_vertices = _core.device_vertex_count(self.src, self.dst)
        elif not (_ids_in_range and num_vertices is not None):
            # every end in [0, num_vertices), or none negative: one parallel pass, here and not at a search
            num_vertices = _core.vertex_count(self.src, self.dst, -1 if num_vertices is None else num_vertices)
        self.num_vertices = num_vertices
        self.directed = bool(directed)
        self.labels = labels
        self._index = None if labels is None else {v: i for i, v in enumerate(labels)}
        self._auto_backend = None
        self._engines = {}

    # ---- construction ----------------------------------------------------------------------

    @classmethod
    def from_edges(cls, src, dst, weights=None, num_vertices=None, directed=False):
        """Edge i joins src[i] and dst[i] (integer ids in [0, num_vertices), checked here), with
        weight weights[i] when given. int64 ids and float32 weights in C order are kept, not copied
        (DLPack host arrays too); CUDA arrays stay on their GPU (``on_device``). String or object
        arrays are labels: the vertices are their distinct values in sorted order (``labels``),
        and results name them."""
        if _on_device(src) or _on_device(dst) or _on_device(weights):
            return cls(src, dst, weights, num_vertices, directed)
        s, d = _host_array(src, "src"), _host_array(dst, "dst")
        if _labelled(s) or _labelled(d):
            if num_vertices is not None:
                raise ValueError("num_vertices applies to integer ids, not to labels")
            if s.ndim != 1 or d.ndim != 1 or s.size != d.size:
                raise ValueError(f"src and dst must be one-dimensional of the same length, got {s.shape} and {d.shape}")
            labels, ids = np.unique(np.concatenate([s.astype(object), d.astype(object)]), return_inverse=True)
            ids = ids.reshape(-1).astype(np.int64)
            return cls(ids[:s.size], ids[s.size:], weights, labels.size, directed, labels.tolist(), _ids_in_range=True)
        return cls(s, d, weights, num_vertices, directed)

    @classmethod
    def from_scipy(cls, matrix, directed=False, weighted=True):
        """Every stored entry (i, j) of a square SciPy sparse matrix or array is an edge i - j of
        weight matrix[i, j] (explicit zeros included); with directed=True the arc i -> j, as
        scipy.sparse.csgraph reads a matrix with directed=True. A symmetric matrix stores each edge twice:
        the searches are the same, but the edge counts (nedge, TEPS) count both; pass
        scipy.sparse.triu(matrix) to count each once."""
        import scipy.sparse as sp

        if not sp.issparse(matrix):
            raise ValueError(f"from_scipy needs a SciPy sparse matrix or array, got {type(matrix).__name__}")
        if matrix.ndim != 2 or matrix.shape[0] != matrix.shape[1]:
            raise ValueError(f"from_scipy needs a square matrix, got shape {matrix.shape}")
        coo = matrix.tocoo()
        w = coo.data if weighted and coo.dtype != np.bool_ else None
        return cls(coo.row, coo.col, w, matrix.shape[0], directed, _ids_in_range=True)

    @classmethod
    def from_networkx(cls, G, weight="weight", default_weight=1.0):
        """A NetworkX graph with any hashable node labels: vertex i is the i-th node of G (the
        labels are kept and results map back to them; nodes 0..n-1 are taken as the ids
        themselves). Weights from the edge attribute `weight` (default_weight where an edge has
        none); no weights when no edge has the attribute or weight is None."""
        nodes = list(G)
        n = len(nodes)
        if n == 0:
            raise ValueError("the NetworkX graph has no nodes")
        identity = all(type(v) is int for v in nodes) and set(nodes) == set(range(n))
        index = None if identity else {v: i for i, v in enumerate(nodes)}
        m = G.number_of_edges()
        src = np.empty(m, dtype=np.int64)
        dst = np.empty(m, dtype=np.int64)
        w = np.empty(m, dtype=np.float32) if weight is not None else None
        has_weight = False
        for k, (u, v, d) in enumerate(G.edges(data=True)):
            src[k] = u if index is None else index[u]
            dst[k] = v if index is None else index[v]
            if w is not None:
                x = d.get(weight)
                has_weight = has_weight or x is not None
                w[k] = default_weight if x is None else x
        return cls(src, dst, w if has_weight else None, n, G.is_directed(), None if identity else nodes,
                   _ids_in_range=True)

    @classmethod
    def generate(cls, scale, edgefactor=16, seed=(2, 3), weights=True):
        """The Graph500 Kronecker graph of 2^scale vertices and edgefactor * 2^scale edges,
        bit-identical to the reference generator (seed: its two seeds)."""
        s1, s2 = seed
        d = _core.generate_kronecker(scale, edgefactor, s1, s2, weights)
        return cls(d["src"], d["dst"], d["weight"], d["num_vertices"], _ids_in_range=True)

    # ---- what it is ------------------------------------------------------------------------

    @property
    def num_edges(self):
        return len(self.src)

    def vertex_id(self, v):
        """The library's id of vertex (or label) v; ValueError when it is not one."""
        if self._index is not None:
            if v not in self._index:
                raise ValueError(f"root {v!r} is not a node of the graph")
            return self._index[v]
        if isinstance(v, (bool, np.bool_)) or not isinstance(v, (int, np.integer)):
            raise ValueError(f"root must be a vertex id (an integer), got {v!r}")
        if not 0 <= v < self.num_vertices:
            raise ValueError(f"root {v} is not a vertex (the graph has {self.num_vertices})")
        return int(v)

    def __repr__(self):
        kind = "directed" if self.directed else "undirected"
        w = "weighted" if self.weights is not None else "unweighted"
        where = ", on the GPU" if self.on_device else ""
        return f"Graph({self.num_vertices} vertices, {self.num_edges} edges, {kind}, {w}{where})"

    # ---- searches --------------------------------------------------------------------------

    def engine(self, kind, backend="auto"):
        """The library's engine for kind "bfs" or "sssp" on `backend` (built on first use: the
        edge arrays copied into the library's edge list, kernel 1, the engine's buffers)."""
        be = self._search_backend(backend)
        key = (kind, be)
        if key not in self._engines:
            self._engines[key] = _core.SearchEngine(self.src, self.dst, self.weights, self.num_vertices, be,
                                                    kind == "sssp", self.directed)
        return self._engines[key]

    def _search_backend(self, backend):
        """The backend a search runs on: "auto" on host arrays takes the CPU for paths and cycles,
        as the CLI does (docs/python.md); the edges are read for it once per graph."""
        if backend != "auto" or self.on_device:
            return _core.resolve_backend(backend)
        if self._auto_backend is None:
            self._auto_backend = _core.search_backend("auto", self.src, self.dst, self.num_vertices)
        return self._auto_backend

    def release(self):
        """Frees the engines (their graph copies and buffers); the next search builds them again."""
        self._engines.clear()

    def _vertex_name(self, v):
        """Vertex id v as a validation failure names it: repr of its label (a Graph with labels)."""
        return repr(self.labels[v]) if 0 <= v < len(self.labels) else str(v)

    def _roots(self, root, roots):
        if (root is None) == (roots is None):
            raise ValueError("give either root or roots=[...]")
        return [self.vertex_id(r) for r in ([root] if roots is None else roots)]

    def bfs(self, root=None, *, roots=None, backend="auto", validate=True):
        """Breadth-first search from root (a vertex id or label): a BfsResult. With roots=[...],
        one search per root: a list. Each search is validated by Graph500's validator unless
        validate=False (a failure raises RuntimeError, naming vertices by label where the graph has
        labels)."""
        ids = self._roots(root, roots)
        e = self.engine("bfs", backend)
        name = self._vertex_name if self.labels is not None else None
        out = []
        for r in ids:
            parent, _, seconds, nedge, level = e.run(r, validate, name)
            out.append(BfsResult(r, parent, seconds, nedge, self.labels, e.backend, level))
        return out if roots is not None else out[0]

    def sssp(self, root=None, *, roots=None, backend="auto", validate=True):
        """Single-source shortest paths from root: an SsspResult (a list with roots=[...]). An
        unweighted graph has weight 1 on every edge; weights must be finite and >= 0."""
        ids = self._roots(root, roots)
        e = self.engine("sssp", backend)
        name = self._vertex_name if self.labels is not None else None
        out = []
        for r in ids:
            parent, dist, seconds, nedge, _ = e.run(r, validate, name)
            out.append(SsspResult(r, parent, dist, seconds, nedge, self.labels, e.backend))
        return out if roots is not None else out[0]


def _int_labels(labels):
    """The labels as ints when every one is an integer written plainly ("42", "-7"), else as read."""
    try:
        ints = [int(x) for x in labels]
    except ValueError:
        return labels
    return ints if all(str(v) == x for v, x in zip(ints, labels)) else labels


def read_graph(path, format="auto", num_vertices=None, weights=True, labels=False, header=False, directed=False):
    """A graph file through the library's reader: every format `gpu500 bfs --graph` reads (a snap
    edge list "u v [w]", fields split by blanks, tabs or commas; Matrix Market; gpu500's binary
    CSR; gzip-compressed too), format "auto" (from the content), "snap", "mtx" or "bin". Every
    edge is undirected, as for the CLI, unless directed=True (`--directed`): then each edge "u v"
    is the arc u -> v, where the file lists arcs (an edge list, a Matrix Market general matrix, a
    directed binary CSR); a file of undirected edges stays undirected. weights=False drops a weight column. header=True skips
    an edge list's first line (column names). labels=True: the vertex names are labels (strings,
    sparse integers; NetworkX's write_edgelist files with their "{'weight': w}" data), numbered in
    order of first appearance: ``g.labels`` (ints where every name is an integer), and results
    name them, as `gpu500 bfs --labels` does."""
    d = _core.read_graph(str(path), format, -1 if num_vertices is None else int(num_vertices), weights, labels,
                         header)
    names = _int_labels(d["labels"]) if labels else None
    g = Graph(d["src"], d["dst"], d["weight"], d["num_vertices"], directed=directed and d["directed"], labels=names,
              _ids_in_range=True)
    g.file_format, g.gzip = d["format"], d["gzip"]
    return g

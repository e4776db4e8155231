"""gpu500 from Python: Graph500's BFS and SSSP engines, their validator, and the Graph500 and
HPL benchmarks, over the project's C++ library (the extension module ``gpu500._core``).

    import gpu500
    g = gpu500.Graph.from_edges(src, dst, weights)     # or from_scipy, from_networkx, read_graph, generate
    r = g.bfs(0)                                       # r.parent, r.level, r.seconds, r.teps
    s = g.sssp(0)                                      # s.parent, s.distance
    record = gpu500.graph500(12)                       # the record of `gpu500 graph500 --json`
    m = gpu500.HashMap(1 << 20); m.insert(keys, values) # the GLHT hash table (or the CPU's)

Reference: docs/python.md.
"""
import atexit as _atexit

from . import _core
from ._core import cuda_available, has_cuda_build, resolve_backend
from ._graph import Graph, read_graph
from ._results import BfsResult, SsspResult
from ._bench import graph500, hpl, hpl_mxp
from ._hash import HashMap

_atexit.register(_core.finalize_mpi)  # MPI, when an HPL run started it (python/src/benchmarks.cpp)

__all__ = [
    "Graph",
    "read_graph",
    "BfsResult",
    "SsspResult",
    "graph500",
    "hpl",
    "hpl_mxp",
    "HashMap",
    "cuda_available",
    "has_cuda_build",
    "resolve_backend",
]

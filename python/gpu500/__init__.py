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


def _load_cxx_runtime_globally():
    """Loads the C++ runtime (libstdc++) into the process's global symbol scope before the module.

    The module is a shared object that Python opens with RTLD_LOCAL. Where its static libraries hold
    their own instances of the runtime's template statics (the locale facets' ids behind every
    iostream, which GCC 13 instantiates in the compiled objects), the module's references would bind
    to those copies, which the runtime never registered, and the first `stream >> int` calls a wrong
    facet (a segmentation fault in the module's import, seen under pytest on Ubuntu 24.04). With the
    runtime in the global scope first, every reference binds to the runtime's own, as in the `gpu500`
    program."""
    import ctypes
    import os

    if os.name != "posix":
        return
    for name in ("libstdc++.so.6", "libc++.so.1"):
        try:
            ctypes.CDLL(name, mode=ctypes.RTLD_GLOBAL)
            return
        except OSError:
            continue


_load_cxx_runtime_globally()

from . import _core  # noqa: E402
from ._core import cuda_available, has_cuda_build, resolve_backend  # noqa: E402
from ._graph import Graph, read_graph  # noqa: E402
from ._results import BfsResult, SsspResult  # noqa: E402
from ._bench import graph500, hpl, hpl_mxp  # noqa: E402
from ._hash import HashMap  # noqa: E402

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

"""Search results: the arrays the library returned (NumPy arrays that own the library's memory,
not copies), the time of the search and its traversed-edge count, and, for graphs with node
labels, the same in labels."""
import numpy as np

from . import _core


def _levels(parent, root):
    """BFS levels from a parent tree (the validator checked it), in the library: one walk up each
    vertex's chain. -1 where unreached."""
    try:
        return _core.tree_levels(np.ascontiguousarray(parent, dtype=np.int64), int(root))
    except ValueError as e:
        raise RuntimeError(f"the parents of the search from {root} are not a tree: {e}") from None


class _Result:
    """What both kernels report."""

    def __init__(self, root, parent, seconds, nedge, labels, backend):
        self.root = root if labels is None else labels[root]
        self.parent = parent
        self.seconds = float(seconds)
        self.nedge = int(nedge)
        self.backend = backend
        self.labels = labels

    @property
    def teps(self):
        """Traversed edges per second, as Graph500 counts them (nedge / seconds)."""
        return self.nedge / self.seconds if self.seconds > 0 else 0.0

    def reached(self):
        """A boolean mask of the vertices the search reached."""
        return self.parent >= 0

    def _label(self, i):
        return int(i) if self.labels is None else self.labels[i]

    def _dict(self, values):
        ids = np.flatnonzero(self.parent >= 0)
        return {self._label(i): v for i, v in zip(ids.tolist(), values[ids].tolist())}

    def parent_dict(self):
        """{vertex: parent} of the reached vertices, in labels (the root is its own parent)."""
        ids = np.flatnonzero(self.parent >= 0)
        return {self._label(i): self._label(p) for i, p in zip(ids.tolist(), self.parent[ids].tolist())}


class BfsResult(_Result):
    """One BFS: ``parent`` (int64, -1 unreached, parent[root] == root) and ``level`` (int64, -1
    unreached; the engine's own where it keeps them (CUDA), else computed from the parents on
    first use)."""

    def __init__(self, root, parent, seconds, nedge, labels=None, backend="cpu", level=None):
        super().__init__(root, parent, seconds, nedge, labels, backend)
        self._root_id = root
        self._level = level

    @property
    def level(self):
        if self._level is None:
            self._level = _levels(self.parent, self._root_id)
        return self._level

    def level_dict(self):
        """{vertex: level} of the reached vertices, in labels."""
        return self._dict(self.level)

    def __repr__(self):
        return (f"BfsResult(root={self.root!r}, reached={int(np.count_nonzero(self.parent >= 0))}, "
                f"seconds={self.seconds:.3g}, teps={self.teps:.3g})")


class SsspResult(_Result):
    """One SSSP: ``parent`` (int64, -1 unreached) and ``distance`` (float32, -1 unreached); every
    distance is the float32 sum d(parent) + w(parent, v)."""

    def __init__(self, root, parent, distance, seconds, nedge, labels=None, backend="cpu"):
        super().__init__(root, parent, seconds, nedge, labels, backend)
        self.distance = distance

    def distance_dict(self):
        """{vertex: distance} of the reached vertices, in labels."""
        return self._dict(self.distance)

    def __repr__(self):
        return (f"SsspResult(root={self.root!r}, reached={int(np.count_nonzero(self.parent >= 0))}, "
                f"seconds={self.seconds:.3g}, teps={self.teps:.3g})")

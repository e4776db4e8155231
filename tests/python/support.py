"""What the Python tests share: skips and expected exceptions that work with pytest and with
run.py's own loop alike, the optional packages, and small test graphs."""
import contextlib
import importlib
import re

import numpy as np

try:
    import pytest

    Skipped = pytest.skip.Exception
except ImportError:
    pytest = None

    class Skipped(Exception):
        pass


def skip(reason):
    raise Skipped(reason)


def need(module):
    """The module, or a skip naming it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        skip(f"{module} is not installed (pip install {module.split('.')[0]})")


@contextlib.contextmanager
def raises(exc, match=None):
    """The block must raise `exc` (its message matching the regular expression `match`)."""
    try:
        yield
    except exc as e:
        if match is not None and not re.search(match, str(e)):
            raise AssertionError(f"{exc.__name__} raised, but {str(e)!r} does not match {match!r}") from e
        return
    raise AssertionError(f"{exc.__name__} not raised")


def random_graph(n, m, seed, weighted=False):
    """m random edges on n vertices (self-loops and duplicates possible), integer weights 1..9."""
    rng = np.random.default_rng(seed)
    src = rng.integers(0, n, m, dtype=np.int64)
    dst = rng.integers(0, n, m, dtype=np.int64)
    w = rng.integers(1, 10, m).astype(np.float32) if weighted else None
    return src, dst, w


def csgraph_matrix(n, src, dst, w=None):
    """The same edges as a SciPy CSR matrix (each once; duplicates keep the smallest weight)."""
    sp = need("scipy.sparse")
    w = np.ones(src.size) if w is None else w.astype(np.float64)
    keep = src != dst
    # (coo -> csr would sum duplicate entries: keep the lightest of each instead)
    order = np.lexsort((w[keep], dst[keep], src[keep]))
    s, d, x = src[keep][order], dst[keep][order], w[keep][order]
    first = np.ones(s.size, dtype=bool)
    first[1:] = (s[1:] != s[:-1]) | (d[1:] != d[:-1])
    return sp.csr_matrix((x[first], (s[first], d[first])), shape=(n, n))


def backends():
    """The backends to check against the oracles: the CPU, and CUDA where a GPU is visible."""
    import gpu500

    return ["cpu"] + (["cuda"] if gpu500.cuda_available() else [])


def run_in_threads(work, count):
    """work(i) for i in range(count), each on a thread of its own, all started before any is joined."""
    import threading
    threads = [threading.Thread(target=work, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()

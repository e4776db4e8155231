#!/usr/bin/env python3
"""Runs the Python package's tests (CTest's test "python"): pytest when it is installed, else a
small loop over the test_* functions of tests/python/test_*.py. Exits 77 (CTest: skipped) with
a message when NumPy is missing; the SciPy and NetworkX tests skip alone when those are."""
import importlib
import os
import sys
import time
import traceback

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)

try:
    import numpy  # noqa: F401
except ImportError:
    print("python tests skipped: NumPy is not installed (pip install numpy scipy networkx, or scripts/deps.sh)")
    sys.exit(77)
import gpu500  # noqa: E402,F401  (a module built but not importable is a failure, not a skip)

try:
    import pytest
except ImportError:
    pytest = None

if pytest is not None:
    # Each test's name as it starts (unbuffered: PYTHONUNBUFFERED in CMake), and every thread's
    # stack on stderr when one test runs past 120 s: a test killed at CTest's timeout says where
    # it was.
    sys.exit(pytest.main(["-v", "-p", "no:cacheprovider", "-o", "faulthandler_timeout=120", here]))

import support  # noqa: E402

start = time.perf_counter()
passed = skipped = 0
failed = []
for name in sorted(f[:-3] for f in os.listdir(here) if f.startswith("test_") and f.endswith(".py")):
    mod = importlib.import_module(name)
    for fn in [getattr(mod, a) for a in dir(mod) if a.startswith("test_")]:
        if not callable(fn):
            continue
        try:
            fn()
            passed += 1
        except support.Skipped as s:
            skipped += 1
            print(f"{name}.{fn.__name__}: skipped ({s})")
        except Exception:
            failed.append(f"{name}.{fn.__name__}")
            traceback.print_exc()
print(f"{passed} passed, {skipped} skipped, {len(failed)} failed in {time.perf_counter() - start:.2f} s (no pytest)")
for f in failed:
    print(f"FAILED {f}")
sys.exit(1 if failed else 0)

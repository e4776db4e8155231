"""examples/python/: each of the five examples (graphs, searches, benchmarks, hash map, NetworkX
backend) runs to the end with the package under test."""
import os
import subprocess
import sys

import gpu500

EXAMPLES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "python")
NAMES = ["graphs.py", "searches.py", "benchmarks.py", "hash_map.py", "networkx_backend.py"]


def test_examples_run():
    assert sorted(NAMES) == sorted(f for f in os.listdir(EXAMPLES) if f.endswith(".py"))
    package = os.path.dirname(os.path.dirname(os.path.abspath(gpu500.__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([package, os.environ.get("PYTHONPATH", "")]))
    for name in NAMES:
        p = subprocess.run([sys.executable, os.path.join(EXAMPLES, name)], capture_output=True, text=True, env=env,
                           timeout=240)
        assert p.returncode == 0, f"{name}: exit {p.returncode}\n{p.stdout[-2000:]}\n{p.stderr[-2000:]}"

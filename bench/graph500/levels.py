#!/usr/bin/env python3
"""The per-level trace of a Graph500 JSON (`gpu500 graph500 ... --json FILE`) as a table.

  levels.py FILE [bfs|sssp]

One row per BFS level (or SSSP phase): direction, frontier, the slowest rank's compute and
communication time and, where the engine timed its parts ("steps"), each part's slowest rank, all in microseconds; a last row sums each column (a sum of maxima: an
upper bound of the search's time). SSSP phases are summed per direction instead (they are many).
"""
import json
import sys


def slowest(entry, key):
    by_rank = entry.get(key + "_by_rank")
    return max(by_rank) if by_rank else entry.get(key, 0.0)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    kind = sys.argv[2] if len(sys.argv) > 2 else "bfs"
    with open(sys.argv[1]) as f:
        trace = (json.load(f).get("trace") or {}).get(kind) or []
    if not trace:
        sys.exit("no %s trace in %s" % (kind, sys.argv[1]))
    us = lambda s: "%.0f" % (s * 1e6)
    if kind == "sssp":
        sums = {}
        for e in trace:
            s = sums.setdefault(e["direction"], [0, 0.0, 0.0])
            s[0] += 1
            s[1] += slowest(e, "compute_seconds")
            s[2] += slowest(e, "comm_seconds")
        print("%-10s %7s %12s %12s" % ("phase", "count", "compute us", "comm us"))
        for d, (n, comp, comm) in sums.items():
            print("%-10s %7d %12s %12s" % (d, n, us(comp), us(comm)))
        return 0
    names = []
    for e in trace:
        for s in e.get("steps") or []:
            if s["step"] not in names:
                names.append(s["step"])
    print(("%5s %-11s %10s %9s %9s" + " %9s" * len(names)) % (("level", "direction", "frontier", "compute", "comm") +
                                                              tuple(names)))
    total = [0.0] * (2 + len(names))
    for e in trace:
        steps = {s["step"]: max(s["seconds_by_rank"]) for s in e.get("steps") or []}
        row = [slowest(e, "compute_seconds"), slowest(e, "comm_seconds")] + [steps.get(n, 0.0) for n in names]
        total = [t + x for t, x in zip(total, row)]
        print(("%5d %-11s %10d" + " %9s" * len(row)) % ((e["level"], e["direction"], e["frontier"]) +
                                                       tuple(us(x) for x in row)))
    print(("%5s %-11s %10s" + " %9s" * len(total)) % (("sum", "", "") + tuple(us(x) for x in total)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

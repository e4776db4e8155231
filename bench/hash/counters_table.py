"""Turns Nsight Compute's raw CSV page (bench/hash/counters.sh) into one line per kernel launch:
the table, the launch's order, the kernel, its block and grid, its milliseconds and every counter
divided by the number of keys (per operation).

    python3 counters_table.py TABLE KEYS METRICS FILE.csv

METRICS is the comma list given to ncu; the page's other columns (ncu adds device attributes)
are left out.
"""
import csv
import sys


def number(cell: str):
    try:
        return float(cell.replace(",", ""))
    except ValueError:
        return None


def main(table: str, keys: int, metrics: str, path: str) -> None:
    with open(path, newline="") as f:
        lines = [line for line in f if not line.startswith("==")]
    start = next((i for i, line in enumerate(lines) if line.startswith('"ID"')), None)
    if start is None:
        sys.exit(f"counters_table.py: no kernel rows in {path}")
    rows = list(csv.reader(lines[start:]))
    header, units, data = rows[0], rows[1], rows[2:]
    col = {name: i for i, name in enumerate(header)}
    counters = [name for name in metrics.split(",") if name in col and name != "gpu__time_duration.sum"]
    for r in data:
        if len(r) != len(header):
            continue
        time = (number(r[col["gpu__time_duration.sum"]]) or 0.0) if "gpu__time_duration.sum" in col else 0.0
        unit = units[col["gpu__time_duration.sum"]] if "gpu__time_duration.sum" in col else ""
        ms = time / 1e6 if unit == "ns" else time / 1e3 if unit in ("us", "usecond") else time
        parts = []
        for name in counters:
            v = number(r[col[name]])
            if v is None:
                parts.append(f"{name} {r[col[name]]}")
                continue
            short = name.replace(".sum", "").replace(".avg.pct_of_peak_sustained_active", " %")
            per_op = not (name.startswith("launch__") or "pct" in name)
            parts.append(f"{short} {v / keys:.3f}" if per_op else f"{short} {v:.0f}")
        print(f"counters|{table}|#{r[col['ID']]} {r[col['Kernel Name']][:60]} block {r[col['Block Size']]} grid "
              f"{r[col['Grid Size']]}|{ms:.3f} ms; per key: " + ", ".join(parts))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4])

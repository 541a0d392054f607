#!/usr/bin/python3
"""Python export throughput against the command line's, in the same run (docs/benchmarks.md,
Python). Usage:

    PYTHONPATH=build/python /usr/bin/python3 bench/python_export.py DB [--min-sim 0.5] [--runs 3]

Times `aligndb export --format jsonl` to /dev/null (the yardstick), then the same export
through the package as dicts (iterated, and collected into a list), and prints rows/s and the
ratio to the command line. The best of --runs runs of each is kept (the machine is shared)."""

import argparse
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import aligndb

HERE = Path(__file__).resolve().parents[1]


def best_of(runs, fn):
    best = None
    for _ in range(runs):
        start = time.perf_counter()
        n = fn()
        t = time.perf_counter() - start
        best = t if best is None or t < best else best
    return n, best


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db")
    ap.add_argument("--min-sim", type=float, default=0.5)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--binary", default=str(HERE / "build" / "aligndb"))
    a = ap.parse_args()

    def cli():
        with open(os.devnull, "wb") as null:
            subprocess.run([a.binary, "export", "--db", a.db, "--format", "jsonl", "--min-sim",
                            str(a.min_sim)], stdout=null, check=True)
        return None

    def iterate():
        n = 0
        with aligndb.open(a.db) as db:
            for _ in db.export(min_sim=a.min_sim):
                n += 1
        return n

    def collect():
        with aligndb.open(a.db) as db:
            return len(list(db.export(min_sim=a.min_sim)))

    cpu = next((l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo")
                if l.startswith("model name")), platform.processor())
    print(f"machine: {os.cpu_count()} cores, {cpu}; Python {platform.python_version()}")
    print(f"database: {a.db}; export --min-sim {a.min_sim}; best of {a.runs} runs")
    n, t_py = best_of(a.runs, iterate)
    _, t_cli = best_of(a.runs, cli)
    _, t_list = best_of(a.runs, collect)
    print(f"CLI export --format jsonl > /dev/null: {n} rows in {t_cli:.3f} s = {n / t_cli:,.0f} rows/s")
    print(f"Python db.export() iterated:           {n} rows in {t_py:.3f} s = {n / t_py:,.0f} rows/s"
          f" ({t_cli / t_py:.2f} × CLI)")
    print(f"Python list(db.export()):              {n} rows in {t_list:.3f} s = {n / t_list:,.0f} rows/s"
          f" ({t_cli / t_list:.2f} × CLI)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Agreement of two independent labellings of the same development set.

usage: agreement.py LABELS_A.jsonl LABELS_B.jsonl
Each line: {"key": ..., "label": "good|partial|wrong", ...}. Prints the rows both labelled, raw
agreement, Cohen's kappa, and the confusion counts (first file's label, second file's label).
"""
import collections
import json
import sys


def load(path):
    with open(path, encoding="utf-8") as f:
        return {r["key"]: r["label"] for r in map(json.loads, f) if r}


def main():
    a, b = load(sys.argv[1]), load(sys.argv[2])
    keys = [k for k in a if k in b]
    n = len(keys)
    agree = sum(a[k] == b[k] for k in keys)
    ca = collections.Counter(a[k] for k in keys)
    cb = collections.Counter(b[k] for k in keys)
    expected = sum(ca[l] * cb[l] for l in set(ca) | set(cb)) / (n * n)
    observed = agree / n
    print(f"rows labelled by both: {n}")
    print(f"agreement: {agree}/{n} = {observed:.3f}")
    print(f"Cohen's kappa: {(observed - expected) / (1 - expected):.3f}")
    for (la, lb), c in sorted(collections.Counter((a[k], b[k]) for k in keys).items()):
        print(f"  {la:8} {lb:8} {c}")


if __name__ == "__main__":
    main()

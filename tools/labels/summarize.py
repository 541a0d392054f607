#!/usr/bin/env python3
"""Counts and label shares of the labelled development set, as Markdown tables.

Usage: /usr/bin/python3 tools/labels/summarize.py [DIR]   (DIR default: data/labels)
Reads DIR/swipe-val-dev.jsonl (the sample), DIR/swipe-val-dev.labels.jsonl (labels, joined on
`key`) and DIR/swipe-val-dev.strata.json (each stratum's population, from sample.py).

Shares of `good` are given per stratum (unit x op x band) with a 95% Wilson interval, and per
unit over all similarities >= 0.5 weighted by stratum population (the sample over-represents
the rarer strata, so a raw share would not estimate the export's). The operation unit's 1-1 rows
are the sentence unit's 1-1 rows (an operation of one sentence pair is that pair), so its
weighted figure uses the sentence 1-1 labels for them.
"""
import collections
import json
import math
import os
import sys

BANDS = ["0.3-0.5", "0.5-0.75", ">=0.75"]
OPS = ["1-1", "1-2", "2-1", "2-2"]
LABELS = ["good", "partial", "wrong"]


def wilson(k, n, z=1.96):
    if n == 0:
        return (float("nan"), float("nan"))
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (c - h, c + h)


def load(d):
    with open(os.path.join(d, "swipe-val-dev.jsonl"), encoding="utf-8") as f:
        rows = [json.loads(l) for l in f if l.strip()]
    with open(os.path.join(d, "swipe-val-dev.labels.jsonl"), encoding="utf-8") as f:
        labels = {r["key"]: r["label"] for r in map(json.loads, f) if r}
    with open(os.path.join(d, "swipe-val-dev.strata.json"), encoding="utf-8") as f:
        strata = {(s["unit"], s["op"], s["band"]): s["population"] for s in json.load(f)}
    missing = [r["key"] for r in rows if r["key"] not in labels]
    if missing:
        sys.exit(f"{len(missing)} sampled rows have no label, e.g. {missing[0]}")
    for r in rows:
        r["label"] = labels[r["key"]]
    return rows, strata


def counts_table(rows):
    c = collections.Counter((r["unit"], r["op"], r["band"], r["label"]) for r in rows)
    out = ["| unit | op | band | good | partial | wrong | rows |", "|---|---|---|---:|---:|---:|---:|"]
    for unit in ("sentence", "operation"):
        for op in OPS:
            for band in BANDS:
                n = [c[(unit, op, band, l)] for l in LABELS]
                if sum(n):
                    out.append(f"| {unit} | {op} | {band} | {n[0]} | {n[1]} | {n[2]} | {sum(n)} |")
    tot = [sum(v for k, v in c.items() if k[3] == l) for l in LABELS]
    out.append(f"| **all** | | | {tot[0]} | {tot[1]} | {tot[2]} | {sum(tot)} |")
    return "\n".join(out)


def share_table(rows, strata):
    by = collections.defaultdict(list)
    for r in rows:
        by[(r["unit"], r["op"], r["band"])].append(r["label"])
    out = ["| unit | op | band | rows | good | partial | wrong | good share (95% CI) | export rows |",
           "|---|---|---|---:|---:|---:|---:|---|---:|"]
    for unit in ("sentence", "operation"):
        for op in OPS:
            for band in BANDS:
                ls = by.get((unit, op, band), [])
                if not ls:
                    continue
                k = ls.count("good")
                lo, hi = wilson(k, len(ls))
                out.append(f"| {unit} | {op} | {band} | {len(ls)} | {k} | {ls.count('partial')} | "
                           f"{ls.count('wrong')} | {k / len(ls):.0%} ({lo:.0%}–{hi:.0%}) | "
                           f"{strata.get((unit, op, band), 0)} |")
    return "\n".join(out), by


def weighted(by, strata, unit, ops, bands):
    """Population-weighted share of good over the strata; returns (share, population)."""
    num = den = 0.0
    for op in ops:
        for band in bands:
            src = unit if not (unit == "operation" and op == "1-1") else "sentence"
            ls = by.get((src, op, band), [])
            pop = strata.get((src, op, band), 0)
            if not ls or not pop:
                continue
            num += pop * ls.count("good") / len(ls)
            den += pop
    return (num / den if den else float("nan")), int(den)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "data/labels"
    rows, strata = load(d)
    print("## Sampled rows by unit, operation, similarity band and label\n")
    print(counts_table(rows))
    table, by = share_table(rows, strata)
    print("\n## Share of good (fully correct) rows per stratum\n")
    print(table)
    print("\n## Share of good at similarity >= 0.5, weighted by each stratum's export rows\n")
    print("| unit | ops | band | export rows | good share (weighted) |")
    print("|---|---|---|---:|---:|")
    hi = ["0.5-0.75", ">=0.75"]
    for unit in ("sentence", "operation"):
        for ops, name in ((OPS, "all"), (["1-1"], "1-1"), (["1-2", "2-1", "2-2"], "1-2, 2-1, 2-2")):
            for bands, bname in ((hi, ">=0.5"), (["0.5-0.75"], "0.5-0.75"), ([">=0.75"], ">=0.75")):
                s, n = weighted(by, strata, unit, ops, bands)
                print(f"| {unit} | {name} | {bname} | {n} | {s:.0%} |")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Independent AER: precision, recall and alignment error rate of predicted i-j lines against
Edinburgh++ JSON gold (SURE file, optionally the SURE+POSSIBLE file) or MultiMWA TSV gold.

Usage: tools/check_aer.py GOLD PRED [POSSIBLE_GOLD]
"""
import json
import sys


def links(text):
    return {tuple(int(x) for x in t.rstrip("p").split("-")) for t in text.split()}


def read_gold(path):
    with open(path, encoding="utf-8") as f:
        data = f.read()
    if data.lstrip().startswith("["):
        return [(links(e["sureAlign"]), links(e["sureAlign"]) | links(e.get("possibleAlign") or "")) for e in json.loads(data)]
    out = []
    for line in data.splitlines():
        f = line.split("\t")
        s = links(f[7])
        out.append((s, s | links(f[8] if len(f) > 8 else "")))
    return out


def main():
    gold = read_gold(sys.argv[1])
    if len(sys.argv) > 3:
        poss = read_gold(sys.argv[3])
        gold = [(s, p | pp) for (s, p), (_, pp) in zip(gold, poss)]
    pred = [links(l) for l in open(sys.argv[2], encoding="utf-8").read().splitlines()]
    a = s = as_ = ap = 0
    for (gs, gp), pa in zip(gold, pred):
        a += len(pa)
        s += len(gs)
        as_ += len(pa & gs)
        ap += len(pa & gp)
    print(json.dumps({"precision": ap / a, "recall": as_ / s, "aer": 1 - (as_ + ap) / (a + s)}))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Simulated held-out test of WMD (WordNet φ) and w·WMD + (1 − w)·TF-IDF on MSRP train.

Usage: tools/paraphrase_holdout.py MSRP_TRAIN [--splits 30] [--test-size 1725] [--weights 1,0.8]

Each split shuffles the pairs (Python's random, seed = split number), writes the first
--test-size pairs (MSRP test's size) and the rest as two MSRP files, scores both with
`build/aligndb similarity` — so TF-IDF takes its idf from each file's own sentences, as it does on
a real test file — chooses the accuracy-maximizing threshold on the training part and reports
accuracy and F1 on the test part. Prints each split, then the mean, minimum and maximum per weight.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.path.join(HERE, "..", "build", "aligndb")


def scores(path, args):
    out = subprocess.run([BINARY, "similarity"] + args + [path], capture_output=True, text=True,
                         check=True).stdout.split()
    return [float(x) for x in out]


def max_accuracy_threshold(s, y):
    order = sorted(range(len(s)), key=lambda i: -s[i])
    negatives = sum(1 for v in y if not v)
    best, best_t, tp, fp = negatives, s[order[0]] + 1, 0, 0
    for r, i in enumerate(order):
        tp += y[i]
        fp += not y[i]
        if r + 1 < len(order) and s[order[r + 1]] == s[i]:
            continue
        if tp + negatives - fp > best:
            best, best_t = tp + negatives - fp, s[i]
    return best_t


def figures(s, y, t):
    tp = sum(1 for a, b in zip(s, y) if a >= t and b)
    fp = sum(1 for a, b in zip(s, y) if a >= t and not b)
    fn = sum(1 for a, b in zip(s, y) if a < t and b)
    correct = sum(1 for a, b in zip(s, y) if (a >= t) == b)
    return correct / len(y), 2 * tp / (2 * tp + fp + fn)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("train")
    ap.add_argument("--splits", type=int, default=30)
    ap.add_argument("--test-size", type=int, default=1725)
    ap.add_argument("--weights", default="1,0.8")
    args = ap.parse_args()
    weights = [float(w) for w in args.weights.split(",")]
    with open(args.train, encoding="utf-8-sig") as f:
        lines = f.read().split("\n")
    header, rows = lines[0], [l for l in lines[1:] if l.strip()]
    results = {w: [] for w in weights}
    with tempfile.TemporaryDirectory() as tmp:
        for split in range(args.splits):
            r = rows[:]
            random.Random(split).shuffle(r)
            parts = {"test": r[:args.test_size], "train": r[args.test_size:]}
            wmd, tfidf, labels = {}, {}, {}
            for name, part in parts.items():
                path = os.path.join(tmp, name + ".txt")
                with open(path, "w", encoding="utf-8") as f:
                    f.write(header + "\n" + "\n".join(part) + "\n")
                labels[name] = [l.split("\t", 1)[0].strip() == "1" for l in part]
                wmd[name] = scores(path, ["--method", "wmd", "--lexicon", "wordnet"])
                tfidf[name] = scores(path, ["--method", "tfidf"])
            for w in weights:
                s = {n: [w * a + (1 - w) * b for a, b in zip(wmd[n], tfidf[n])] for n in parts}
                t = max_accuracy_threshold(s["train"], labels["train"])
                acc, f1 = figures(s["test"], labels["test"], t)
                results[w].append((acc, f1))
                print(f"split {split} weight {w}: threshold {t:.4f}  accuracy {acc:.4f}  F1 {f1:.4f}",
                      flush=True)
    for w, v in results.items():
        accs, f1s = [a for a, _ in v], [f for _, f in v]
        print(f"weight {w}: accuracy mean {sum(accs) / len(v):.4f} (min {min(accs):.4f}, max "
              f"{max(accs):.4f}); F1 mean {sum(f1s) / len(v):.4f} (min {min(f1s):.4f}, max "
              f"{max(f1s):.4f}); accuracy ≥ .741 and F1 ≥ .824 in "
              f"{sum(1 for a, f in v if a >= 0.741 and f >= 0.824)} of {len(v)}")


if __name__ == "__main__":
    sys.exit(main())

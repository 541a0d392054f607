#!/usr/bin/env python3
"""Nested cross-validation of a two-measure combination w·A + (1 − w)·B on labelled pairs.

Usage: tools/paraphrase_cv.py PAIRS SCORES_A SCORES_B [--folds 5] [--seeds 10]

PAIRS is the labelled file `aligndb eval` reads (MSRP format: the label is the first field of
each line after the header); SCORES_A and SCORES_B are the outputs of `aligndb similarity` on
it, one score a line. For each seed the pairs are dealt into folds by Python's random.shuffle;
within each fold's training part the weight w (0, 0.05, ..., 1) and the threshold are chosen
together to maximize accuracy (the highest threshold on a tie), then applied to the held-out
fold. Prints, per seed, the pooled accuracy and F1 and the weights chosen, then their means.
This is the honest estimate for a weight that was itself chosen on the data; `aligndb eval --cv`
cross-validates the threshold of a fixed weight.
"""
import argparse
import random


def read_labels(path):
    labels = []
    with open(path, encoding="utf-8-sig") as f:
        next(f)
        for line in f:
            if line.strip():
                labels.append(line.split("\t", 1)[0].strip() == "1")
    return labels


def read_scores(path):
    with open(path) as f:
        return [float(line) for line in f if line.strip()]


def max_accuracy(scores, labels):
    """(accuracy, threshold): the best threshold among the scores and one above all of them."""
    order = sorted(range(len(scores)), key=lambda i: -scores[i])
    negatives = sum(1 for y in labels if not y)
    best, best_t = negatives, (scores[order[0]] + 1 if order else 0.0)
    tp = fp = 0
    for r, i in enumerate(order):
        tp += labels[i]
        fp += not labels[i]
        if r + 1 < len(order) and scores[order[r + 1]] == scores[i]:
            continue
        correct = tp + negatives - fp
        if correct > best:
            best, best_t = correct, scores[i]
    return best / max(1, len(scores)), best_t


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("pairs")
    ap.add_argument("a")
    ap.add_argument("b")
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seeds", type=int, default=10)
    args = ap.parse_args()
    y = read_labels(args.pairs)
    a, b = read_scores(args.a), read_scores(args.b)
    if not (len(y) == len(a) == len(b)):
        raise SystemExit(f"{len(y)} labels, {len(a)} and {len(b)} scores")
    grid = [k / 20 for k in range(21)]
    mean_acc = mean_f1 = 0.0
    for seed in range(1, args.seeds + 1):
        order = list(range(len(y)))
        random.Random(seed).shuffle(order)
        fold = [0] * len(y)
        for r, i in enumerate(order):
            fold[i] = r % args.folds
        tp = fp = fn = correct = 0
        chosen = []
        for f in range(args.folds):
            train = [i for i in range(len(y)) if fold[i] != f]
            best = None
            for w in grid:
                s = [w * a[i] + (1 - w) * b[i] for i in train]
                acc, t = max_accuracy(s, [y[i] for i in train])
                if best is None or acc > best[0]:
                    best = (acc, w, t)
            _, w, t = best
            chosen.append(w)
            for i in range(len(y)):
                if fold[i] != f:
                    continue
                yes = w * a[i] + (1 - w) * b[i] >= t
                tp += yes and y[i]
                fp += yes and not y[i]
                fn += (not yes) and y[i]
                correct += yes == y[i]
        acc, f1 = correct / len(y), 2 * tp / (2 * tp + fp + fn)
        mean_acc += acc / args.seeds
        mean_f1 += f1 / args.seeds
        print(f"seed {seed}: accuracy {acc:.4f}  F1 {f1:.4f}  weights {chosen}")
    print(f"mean over {args.seeds} seeds: accuracy {mean_acc:.4f}  F1 {mean_f1:.4f}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Writes the fixture tests/align/label_test.cc checks the C++ label rule against: the labels and
features of tools/labels/label_rule.py on the 328 development rows (with the idf of their tokens)
and on random rows.

Usage: ALIGNDB=build/aligndb /usr/bin/python3 tools/labels/label_fixture.py [OUT_DIR]
(OUT_DIR default: tests/data/labels). Writes dev.tsv, dev-idf.tsv, random.tsv, random-idf.tsv.
A case is one line: label, min cov, max run, max clause run, the number of normal and of simple
sentences, then the sentences, tab-separated. An idf file: `#idf_max<TAB>value`, then
`token<TAB>idf` lines. Floats are written with repr (they read back exactly).

The development rows come from label_rule.build_dev, which exports anew with the ALIGNDB binary
on each run and needs an export whose sentences are the labelled ones: the committed fixture was
written from the export of aligndb at commit 02c4770 (the one the sample was drawn from); a later
sentence splitter changes a few rows, which build_dev then leaves out (as
tools/labels/measure_export.py, which joins by key and text).
"""
import os
import random
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import label_rule as L  # noqa: E402


def write_cases(path, cases, idf, idf_max):
    with open(path, "w", encoding="utf-8") as f:
        for ns, ss in cases:
            feat = L.features(ns, ss, idf, idf_max)
            lab = L.decide(feat)
            clean = [s.replace("\t", " ").replace("\n", " ") for s in ns + ss]
            f.write("\t".join([lab, *(repr(x) for x in feat), str(len(ns)), str(len(ss)), *clean]) + "\n")


def write_idf(path, idf, idf_max, tokens):
    with open(path, "w", encoding="utf-8") as f:
        f.write(f"#idf_max\t{idf_max!r}\n")
        for t in sorted(tokens):
            if t in idf:
                f.write(f"{t}\t{idf[t]!r}\n")


WORDS = ("river band album Ecuador Loja 1990 1990s 7000 third Émile Zürich Ωmega ÄRGER born "
         "illustrator drummer province border heritage workforce volunteer people nation Peru "
         "Tumbes Seuss pen name books children gospel music").split()
FUNC = sorted(L.STOP | L.OPENERS)
PUNCT = [" ", " ", " ", ", ", "; ", " (", ") ", " [", "] ", ". ", " - ", " – ", "'s "]


def random_sentence(rng):
    out = []
    for _ in range(rng.randint(0, 25)):
        w = rng.choice(WORDS) if rng.random() < 0.55 else rng.choice(FUNC)
        if rng.random() < 0.2:
            w = w.capitalize()
        out.append(w + rng.choice(PUNCT))
    return "".join(out).strip()


def variant(rng, sentence):
    """A sentence sharing most of `sentence`'s words, with a few dropped, added or moved."""
    words = sentence.split(" ")
    out = [w for w in words if rng.random() > 0.15]
    for _ in range(rng.randint(0, 3)):
        out.insert(rng.randint(0, len(out)), rng.choice(WORDS + FUNC) + rng.choice(["", ",", ";"]))
    return " ".join(out)


def random_case(rng, a, b):
    ns = [random_sentence(rng) for _ in range(a)]
    if rng.random() < 0.3:
        return ns, [random_sentence(rng) for _ in range(b)]
    joined = " ".join(ns).split(" ")
    cut = rng.randint(0, len(joined))
    parts = [" ".join(joined[:cut]), " ".join(joined[cut:])] if b == 2 else [" ".join(joined)]
    return ns, [variant(rng, p) for p in parts]


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(L.REPO, "tests", "data", "labels")
    os.makedirs(out, exist_ok=True)
    rows, idf, idf_max = L.build_dev()
    cases = [(r["ns"], r["ss"]) for r in rows]
    tokens = {t.casefold() for ns, ss in cases for s in ns + ss for t in L.TOKEN.findall(s)}
    write_cases(os.path.join(out, "dev.tsv"), cases, idf, idf_max)
    write_idf(os.path.join(out, "dev-idf.tsv"), idf, idf_max, tokens)
    rng = random.Random(15)
    vocab = {w.casefold() for w in WORDS} | set(FUNC)
    ridf = {t: rng.uniform(0.0, 9.0) for t in sorted(vocab) if rng.random() < 0.8}  # some missing
    shapes = [(1, 1), (1, 2), (2, 1), (2, 2)]
    rcases = []
    for _ in range(2000):
        a, b = rng.choice(shapes)
        rcases.append(random_case(rng, a, b))
    write_cases(os.path.join(out, "random.tsv"), rcases, ridf, 9.5)
    write_idf(os.path.join(out, "random-idf.tsv"), ridf, 9.5, vocab)


if __name__ == "__main__":
    main()

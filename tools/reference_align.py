#!/usr/bin/env python3
"""A plain, independent implementation of docs/method.md's alignment (Coster & Kauchak) for cross-checking aligndb.

Usage:
  tools/reference_align.py NORMAL.jsonl SIMPLE.jsonl [--paragraph-threshold 0.5]
                           [--skip-penalty 0.0001] [--min-sim 0.5] > pairs.jsonl

Inputs are pre-split document JSON lines ({"title", "flags"?, "paragraphs": [[sentence, ...], ...]}),
for example what `aligndb show --db DB --edition E --all --format jsonl` writes. Writes one JSON
line per sentence pair with similarity ≥ --min-sim: normal_title, normal_index, simple_index,
similarity, op — the same fields aligndb exports. Shares no code with aligndb: candidates are
every normal paragraph sharing a token (no Xapian), tokens come from Python's unicodedata.
Also the baseline of the alignment benchmark (docs/benchmarks.md).
"""
import argparse
import json
import math
import sys
import unicodedata
from collections import Counter


def tokenize(text):
    out, cur = [], []
    for ch in text:
        cat = unicodedata.category(ch)
        if cat[0] == "L" or cat == "Nd" or (cat[0] == "M" and cur):
            folded = ch.casefold()
            cur.append(folded if len(folded) == 1 else ch.lower())
        elif cur:
            out.append("".join(cur))
            cur = []
    if cur:
        out.append("".join(cur))
    return out


def normalize_title(t):
    t = " ".join(t.replace("_", " ").split())
    return t[:1].upper() + t[1:]


def read(path):
    docs = {}
    with open(path, encoding="utf-8") as f:
        for line in f:
            if line.strip():
                d = json.loads(line)
                docs[normalize_title(d["title"])] = d
    return docs


def cosine(a, b):
    if not a or not b:
        return 0.0
    dot = sum(w * b[t] for t, w in a.items() if t in b)
    na = math.sqrt(sum(w * w for w in a.values()))
    nb = math.sqrt(sum(w * w for w in b.values()))
    if na == 0 or nb == 0:
        return 0.0
    return dot / (na * nb)


def align_sentences(sim, n, m, p):
    a = [[0.0] * (m + 1) for _ in range(n + 1)]
    back = [[None] * (m + 1) for _ in range(n + 1)]
    S = lambda i, j: sim[i - 1][j - 1]
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            options = [(a[i][j - 1] - p, "skip-simple"), (a[i - 1][j] - p, "skip-normal"),
                       (a[i - 1][j - 1] + S(i, j), "1-1")]
            if j >= 2:
                options.append((a[i - 1][j - 2] + S(i, j - 1) + S(i, j), "1-2"))
            if i >= 2:
                options.append((a[i - 2][j - 1] + S(i - 1, j) + S(i, j), "2-1"))
            if i >= 2 and j >= 2:
                options.append((a[i - 2][j - 2] + S(i - 1, j) + S(i, j - 1), "2-2"))
            best = options[0]
            for o in options[1:]:
                if o[0] > best[0]:
                    best = o
            a[i][j], back[i][j] = best
    pairs, i, j = [], n, m
    while i > 0 and j > 0:
        op = back[i][j]
        if op == "skip-simple":
            j -= 1
        elif op == "skip-normal":
            i -= 1
        elif op == "1-1":
            pairs.append([(i, j, op)]); i -= 1; j -= 1
        elif op == "1-2":
            pairs.append([(i, j - 1, op), (i, j, op)]); i -= 1; j -= 2
        elif op == "2-1":
            pairs.append([(i - 1, j, op), (i, j, op)]); i -= 2; j -= 1
        else:
            pairs.append([(i - 1, j, op), (i, j - 1, op)]); i -= 2; j -= 2
    return [(ii - 1, jj - 1, op) for group in reversed(pairs) for ii, jj, op in group]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("normal")
    ap.add_argument("simple")
    ap.add_argument("--paragraph-threshold", type=float, default=0.5)
    ap.add_argument("--skip-penalty", type=float, default=0.0001)
    ap.add_argument("--min-sim", type=float, default=0.5)
    args = ap.parse_args()
    normal, simple = read(args.normal), read(args.simple)

    # idf over the paragraphs of both editions.
    df, n_paragraphs = Counter(), 0
    toks = {}
    for side, docs in (("n", normal), ("s", simple)):
        for title, d in docs.items():
            paras = []
            for p in d["paragraphs"]:
                sent_tokens = [Counter(tokenize(s)) for s in p]
                para = Counter()
                for c in sent_tokens:
                    para.update(c)
                paras.append((para, sent_tokens))
                df.update(para.keys())
                n_paragraphs += 1
            toks[(side, title)] = paras
    idf = {t: math.log(n_paragraphs / c) for t, c in df.items()}
    vec = lambda counts: {t: c * idf[t] for t, c in counts.items() if idf[t] != 0}

    out = sys.stdout
    for title in sorted(set(normal) & set(simple), key=lambda t: t.encode("utf-8")):
        if normal[title].get("flags") or simple[title].get("flags"):
            continue
        npars, spars = toks[("n", title)], toks[("s", title)]
        nvec = [vec(p) for p, _ in npars]
        svec = [vec(p) for p, _ in spars]
        owner = {}
        for s, (sp, _) in enumerate(spars):
            for n, (np_, _) in enumerate(npars):
                if not (set(sp) & set(np_)):
                    continue
                c = cosine(svec[s], nvec[n])
                if c >= args.paragraph_threshold and (n not in owner or c > owner[n][1]):
                    owner[n] = (s, c)
        for s in range(len(spars)):
            mine = sorted(n for n, (o, _) in owner.items() if o == s)
            if not mine:
                continue
            npos = [(n, k) for n in mine for k in range(len(npars[n][1]))]
            nsv = [vec(npars[n][1][k]) for n, k in npos]
            ssv = [vec(c) for c in spars[s][1]]
            sim = [[cosine(a, b) for b in ssv] for a in nsv]
            for i, j, op in align_sentences(sim, len(nsv), len(ssv), args.skip_penalty):
                if sim[i][j] >= args.min_sim:
                    out.write(json.dumps({"normal_title": normal[title]["title"],
                                          "normal_index": list(npos[i]), "simple_index": [s, j],
                                          "similarity": sim[i][j], "op": op}) + "\n")


if __name__ == "__main__":
    main()

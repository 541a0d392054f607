#!/usr/bin/env python3
"""Samples the development set of aligned pairs for labelling (good / partial / wrong).

Usage (from the repository root, with a built aligndb):
  /usr/bin/python3 tools/labels/sample.py --aligndb build/aligndb \
      --swipe ../shared/data/paired/swipe_val.json --out data/labels/swipe-val-dev.jsonl

Builds the alignment of SWiPE's validation split (tools/swipe_to_jsonl.py, aligndb ingest,
align, export --format jsonl --min-sim 0) in a temporary directory and samples rows in two units:
  sentence:  the export's rows as they are (one row per sentence pair);
  operation: one row per multi-sentence operation of the dynamic program, rebuilt from the
             sentence rows: 1-2 = normal <-> simple1 + " " + simple2 (two rows sharing the normal
             index), 2-1 = normal1 + " " + normal2 <-> simple (two rows sharing the simple index),
             2-2 = both sides joined (two crossed rows, adjacent in the export). Indices are lists
             of [paragraph, sentence]. 1-1 operations equal their sentence rows and are not repeated.
The operation row's similarity is the TF-IDF cosine of the joined sides (docs/method.md, Sentence
alignment: one document = one paragraph of either edition, idf = ln(N/df), tokens = maximal runs
of letters and digits, case-folded), recomputed here from the converted paragraphs; it is used
only for stratifying. Rows are keyed by unit + normal_title + normal indices + simple indices
(field `key`), so labels survive later changes to similarity values.

Sampling is stratified by unit x op x similarity band (0.3-0.5, 0.5-0.75, >=0.75) with the quotas
in QUOTAS, seeded (--seed, default 15) and deterministic for a given export.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import subprocess
import sys
import tempfile

BANDS = [("0.3-0.5", 0.3, 0.5), ("0.5-0.75", 0.5, 0.75), (">=0.75", 0.75, 1.0000001)]

# (unit, op, band) -> rows wanted; a stratum with fewer rows is taken whole.
QUOTAS = {
    ("sentence", "1-1", "0.5-0.75"): 30, ("sentence", "1-1", ">=0.75"): 30,
    ("sentence", "1-2", "0.5-0.75"): 28, ("sentence", "1-2", ">=0.75"): 24,
    ("sentence", "2-1", "0.5-0.75"): 28, ("sentence", "2-1", ">=0.75"): 24,
    ("sentence", "2-2", "0.5-0.75"): 8, ("sentence", "2-2", ">=0.75"): 8,
    ("sentence", "1-1", "0.3-0.5"): 8, ("sentence", "1-2", "0.3-0.5"): 8,
    ("sentence", "2-1", "0.3-0.5"): 8, ("sentence", "2-2", "0.3-0.5"): 3,
    ("operation", "1-2", "0.5-0.75"): 30, ("operation", "1-2", ">=0.75"): 24,
    ("operation", "2-1", "0.5-0.75"): 28, ("operation", "2-1", ">=0.75"): 20,
    ("operation", "2-2", "0.5-0.75"): 5, ("operation", "2-2", ">=0.75"): 4,
    ("operation", "1-2", "0.3-0.5"): 8, ("operation", "2-1", "0.3-0.5"): 8,
    ("operation", "2-2", "0.3-0.5"): 2,
}

TOKEN = re.compile(r"[^\W_]+")


def tokens(text):
    return [t.casefold() for t in TOKEN.findall(text)]


def band_of(sim):
    for name, lo, hi in BANDS:
        if lo <= sim < hi:
            return name
    return None


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)


def build_export(aligndb, swipe, work):
    prefix = os.path.join(work, "val")
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    run([sys.executable, os.path.join(root, "tools", "swipe_to_jsonl.py"), swipe, prefix])
    db = os.path.join(work, "db")
    run([aligndb, "ingest", "--db", db, f"enwiki={prefix}.enwiki.jsonl",
         f"simplewiki={prefix}.simplewiki.jsonl"])
    run([aligndb, "align", "--db", db])
    out = subprocess.run([aligndb, "export", "--db", db, "--format", "jsonl", "--min-sim", "0"],
                         check=True, capture_output=True, text=True).stdout
    rows = [json.loads(line) for line in out.splitlines() if line.strip()]
    paragraphs = []
    for edition in ("enwiki", "simplewiki"):
        with open(f"{prefix}.{edition}.jsonl", encoding="utf-8") as f:
            for line in f:
                for para in json.loads(line)["text"].split("\n"):
                    if para.strip():
                        paragraphs.append(set(tokens(para)))
    return rows, paragraphs


class Cosine:
    def __init__(self, paragraphs):
        df = collections.Counter(t for p in paragraphs for t in p)
        n = len(paragraphs)
        self.idf = {t: math.log(n / c) for t, c in df.items()}

    def __call__(self, a, b):
        va, vb = collections.Counter(tokens(a)), collections.Counter(tokens(b))
        wa = {t: c * self.idf.get(t, 0.0) for t, c in va.items()}
        wb = {t: c * self.idf.get(t, 0.0) for t, c in vb.items()}
        dot = sum(w * wb.get(t, 0.0) for t, w in wa.items())
        na = math.sqrt(sum(w * w for w in wa.values()))
        nb = math.sqrt(sum(w * w for w in wb.values()))
        return dot / (na * nb) if na and nb else 0.0


def key(unit, title, nidx, sidx):
    return f"{unit}|{title}|{json.dumps(nidx)}|{json.dumps(sidx)}"


def sentence_rows(rows):
    out = []
    for r in rows:
        out.append({"key": key("sentence", r["normal_title"], r["normal_index"], r["simple_index"]),
                    "unit": "sentence", "normal_title": r["normal_title"], "op": r["op"],
                    "normal_index": r["normal_index"], "simple_index": r["simple_index"],
                    "similarity": r["similarity"], "normal": r["normal"], "simple": r["simple"]})
    return out


def group_operations(rows):
    """Groups the sentence rows of multi-sentence operations; returns lists of 2 rows each."""
    groups = []
    i = 0
    while i < len(rows):
        r = rows[i]
        if r["op"] == "1-1":
            i += 1
            continue
        n = rows[i + 1] if i + 1 < len(rows) else None
        ok = n is not None and n["op"] == r["op"] and n["normal_title"] == r["normal_title"]
        if ok and r["op"] == "1-2":
            ok = n["normal_index"] == r["normal_index"]
        elif ok and r["op"] == "2-1":
            ok = n["simple_index"] == r["simple_index"]
        elif ok and r["op"] == "2-2":  # crossed: (i-1, j), (i, j-1)
            ok = n["normal_index"] != r["normal_index"] and n["simple_index"] != r["simple_index"]
        if not ok:
            raise SystemExit(f"export row {i}: a {r['op']} row without its partner")
        groups.append([r, n])
        i += 2
    return groups


def operation_rows(rows, cosine):
    out = []
    for a, b in group_operations(rows):
        op = a["op"]
        ns = sorted({tuple(a["normal_index"]): a["normal"], tuple(b["normal_index"]): b["normal"]}.items())
        ss = sorted({tuple(a["simple_index"]): a["simple"], tuple(b["simple_index"]): b["simple"]}.items())
        normal = " ".join(t for _, t in ns)
        simple = " ".join(t for _, t in ss)
        nidx = [list(i) for i, _ in ns]
        sidx = [list(i) for i, _ in ss]
        out.append({"key": key("operation", a["normal_title"], nidx, sidx), "unit": "operation",
                    "normal_title": a["normal_title"], "op": op, "normal_index": nidx,
                    "simple_index": sidx, "similarity": cosine(normal, simple),
                    "normal": normal, "simple": simple})
    return out


def main():
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("--aligndb", default="build/aligndb")
    ap.add_argument("--swipe", default="../shared/data/paired/swipe_val.json")
    ap.add_argument("--out", required=True)
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--strata-out", help="also write each stratum's population and sample size "
                    "(JSON), for population-weighted shares")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as work:
        rows, paragraphs = build_export(args.aligndb, args.swipe, work)
    cosine = Cosine(paragraphs)
    # The recomputed cosine must match the export on single sentences, or the bands are off.
    drift = max(abs(cosine(r["normal"], r["simple"]) - r["similarity"]) for r in rows)
    print(f"export rows: {len(rows)}; max |recomputed - exported similarity|: {drift:.4f}",
          file=sys.stderr)
    pool = sentence_rows(rows) + operation_rows(rows, cosine)
    strata = collections.defaultdict(list)
    for r in pool:
        b = band_of(r["similarity"])
        if b:
            strata[(r["unit"], r["op"], b)].append(r)
    rng = random.Random(args.seed)
    sample = []
    sizes = []
    for s in sorted(QUOTAS):
        rows_s = sorted(strata.get(s, []), key=lambda r: r["key"])
        take = rng.sample(rows_s, min(QUOTAS[s], len(rows_s)))
        print(f"{s}: {len(take)} of {len(rows_s)}", file=sys.stderr)
        sizes.append({"unit": s[0], "op": s[1], "band": s[2], "population": len(rows_s),
                      "sampled": len(take)})
        sample.extend(take)
    rng.shuffle(sample)  # labellers see strata mixed, not grouped by similarity
    with open(args.out, "w", encoding="utf-8") as f:
        for r in sample:
            r["band"] = band_of(r["similarity"])
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    if args.strata_out:
        # Strata outside QUOTAS (sentence rows below 0.3, ...) are counted too, sampled 0.
        for s in sorted(set(strata) - set(QUOTAS)):
            sizes.append({"unit": s[0], "op": s[1], "band": s[2], "population": len(strata[s]),
                          "sampled": 0})
        with open(args.strata_out, "w", encoding="utf-8") as f:
            json.dump(sizes, f, indent=1)
            f.write("\n")
    print(f"{len(sample)} rows written to {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()

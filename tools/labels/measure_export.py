#!/usr/bin/env python3
"""Precision and recall of aligndb's label on the development set, measured through the real
export: `export --unit operation --label good` (and --unit sentence) rows at similarity >= 0.5,
joined to data/labels/swipe-val-dev.labels.jsonl by key (unit|normal_title|normal indices|simple
indices), population-weighted like tools/labels/summarize.py. Also compares the exported labels
with tools/labels/label_rule.py's on the 328 rows.

Usage: ALIGNDB=build/aligndb /usr/bin/python3 tools/labels/measure_export.py
(LABEL_WORKDIR: scratch folder, default /tmp/aligndb-label-export; it is rebuilt each run.)
"""
import json
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import label_rule as L  # noqa: E402

WORK = os.environ.get("LABEL_WORKDIR", "/tmp/aligndb-label-export")


def key(unit, title, nidx, sidx):
    return f"{unit}|{title}|{json.dumps(nidx)}|{json.dumps(sidx)}"


def row_key(unit, r):
    ni, si = r["normal_index"], r["simple_index"]
    if unit == "operation" and r["op"] == "1-1":  # the sentence row's key and label
        return key("sentence", r["normal_title"], ni[0], si[0])
    return key(unit, r["normal_title"], ni, si)


def paragraph_idf(prefix):
    """label_rule.py's idf: ln(N / df) over the paragraphs of both editions."""
    import collections
    import math
    paras = []
    for ed in ("enwiki", "simplewiki"):
        for line in open(f"{prefix}.{ed}.jsonl", encoding="utf-8"):
            for para in json.loads(line)["text"].split("\n"):
                if para.strip():
                    paras.append({t.casefold() for t in L.TOKEN.findall(para)})
    df = collections.Counter(t for p in paras for t in p)
    return {t: math.log(len(paras) / c) for t, c in df.items()}, math.log(len(paras))


def export(db, *args):
    out = subprocess.run([L.ALIGNDB, "export", "--db", db, "--format", "jsonl", *args],
                         check=True, capture_output=True, text=True).stdout
    return [json.loads(l) for l in out.splitlines()]


def main():
    shutil.rmtree(WORK, ignore_errors=True)
    os.makedirs(WORK)
    prefix = os.path.join(WORK, "val")
    subprocess.run(["/usr/bin/python3", os.path.join(L.REPO, "tools", "swipe_to_jsonl.py"), L.SWIPE, prefix],
                   check=True, stdout=subprocess.DEVNULL)
    db = os.path.join(WORK, "db")
    subprocess.run([L.ALIGNDB, "ingest", "--db", db, f"enwiki={prefix}.enwiki.jsonl",
                    f"simplewiki={prefix}.simplewiki.jsonl"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([L.ALIGNDB, "align", "--db", db], check=True, stdout=subprocess.DEVNULL)
    idf, idf_max = paragraph_idf(prefix)
    exported = {}  # key -> exported row, both units
    for unit in ("sentence", "operation"):
        for r in export(db, "--unit", unit, "--min-sim", "0"):
            exported.setdefault(row_key(unit, r), r)
    rows = []
    lab1 = {json.loads(l)["key"]: json.loads(l) for l in open(f"{L.LABELS}/swipe-val-dev.labels.jsonl")}
    lab2 = {json.loads(l)["key"]: json.loads(l) for l in open(f"{L.LABELS}/swipe-val-dev.labels2.jsonl")}
    changed = 0
    for line in open(f"{L.LABELS}/swipe-val-dev.jsonl", encoding="utf-8"):
        r = json.loads(line)
        e = exported.get(r["key"])
        # A row counts when this aligndb exports it with the texts that were labelled (the
        # sentence splitter may have changed since the sample was drawn).
        if e is None or e["normal"] != r["normal"] or e["simple"] != r["simple"]:
            changed += e is not None
            continue
        r["label"], r["label2"] = lab1[r["key"]]["label"], lab2[r["key"]]["label"]
        r["exported_label"] = e["label"]
        rows.append(r)
    print(f"dev rows: 328; exported with the labelled texts: {len(rows)} "
          f"({changed} exported with other texts, {328 - len(rows) - changed} not exported)")
    # The export's labels against label_rule.py's on the same texts. The operation rows' sentences
    # come from the sentence rows of the export.
    sent = {}
    for r in exported.values():
        if isinstance(r["normal_index"][0], int):
            sent[("n", r["normal_title"], tuple(r["normal_index"]))] = r["normal"]
            sent[("s", r["normal_title"], tuple(r["simple_index"]))] = r["simple"]
    same = 0
    for r in rows:
        ni = [r["normal_index"]] if r["unit"] == "sentence" else r["normal_index"]
        si = [r["simple_index"]] if r["unit"] == "sentence" else r["simple_index"]
        ns = [sent[("n", r["normal_title"], tuple(i))] for i in ni]
        ss = [sent[("s", r["normal_title"], tuple(i))] for i in si]
        same += L.label(ns, ss, idf, idf_max) == r["exported_label"]
    print(f"export label == label_rule.py label (its own idf over the same paragraphs): {same} of {len(rows)}")
    # The --label good filter of the export at similarity >= 0.5, for each unit.
    good = set()
    for unit in ("sentence", "operation"):
        good |= {row_key(unit, r) for r in export(db, "--unit", unit, "--label", "good")}
    pred = {r["key"]: ("good" if r["key"] in good else "partial") for r in rows}
    everything = {r["key"]: "good" for r in rows}  # the unfiltered export: its share of good rows
    print("\nunfiltered export at similarity >= 0.5, weighted share of fully correct (good) rows:")
    for unit in ("sentence", "operation"):
        print(f"  --unit {unit}: {L.wstats(rows, everything, unit)[0]:.3f} (1st labelling), "
              f"{L.wstats(rows, everything, unit, 'label2')[0]:.3f} (2nd)")
    print("\n| unit | rows | reference | weighted precision of good | weighted recall of good | raw tp / predicted / true good |")
    print("|---|---|---|---:|---:|---|")
    for unit, ops, name in (("operation", None, "`--unit operation`"),
                            ("operation", ("1-2", "2-1", "2-2"), "`--unit operation`, 1-2/2-1/2-2"),
                            ("sentence", None, "`--unit sentence`")):
        for ref in ("label", "label2"):
            p, r = L.wstats(rows, pred, unit, ref, L.HI, ops)
            c = L.counts(rows, pred, unit, ref, L.HI, ops)
            print(f"| {name} | sim >= 0.5 | {'1st' if ref == 'label' else '2nd'} labelling | {p:.3f} | {r:.3f} | {c} |")


if __name__ == "__main__":
    main()

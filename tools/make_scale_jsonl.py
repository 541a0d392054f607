#!/usr/bin/env python3
"""Deterministic document JSON lines of paired articles, of any size, from real ones.

Usage: tools/make_scale_jsonl.py NORMAL.jsonl SIMPLE.jsonl OUT_PREFIX --copies N

Copy k (k = 0..N-1) of every document gets the title "TITLE (k)" (copy 0 keeps the title), so
that the two editions still pair title by title; ids are dropped (aligndb derives them from the
titles). Writes OUT_PREFIX.normal.jsonl and OUT_PREFIX.simple.jsonl. For example, from the
bundled SWiPE sample: tools/make_scale_jsonl.py data/swipe/swipe-sample.enwiki.jsonl
data/swipe/swipe-sample.simplewiki.jsonl /tmp/x --copies 100
"""
import argparse
import json


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("normal")
    ap.add_argument("simple")
    ap.add_argument("prefix")
    ap.add_argument("--copies", type=int, required=True)
    args = ap.parse_args()
    for src, side in ((args.normal, "normal"), (args.simple, "simple")):
        docs = [json.loads(l) for l in open(src, encoding="utf-8") if l.strip()]
        with open(f"{args.prefix}.{side}.jsonl", "w", encoding="utf-8") as out:
            for k in range(args.copies):
                for d in docs:
                    c = dict(d)
                    c.pop("id", None)
                    if k:
                        c["title"] = f"{d['title']} ({k})"
                    out.write(json.dumps(c, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes a deterministic "newer dump" of document JSON lines, for update tests and benchmarks.

Usage: tools/evolve_jsonl.py IN.jsonl OUT.jsonl [--change 0.05] [--delete 0.01] [--add MORE.jsonl]
                             [--seed 1]

A share --change of the documents gets a new revision (revision + 1) whose text loses one
paragraph (or, for a one-paragraph text, its last sentence); a share --delete is left out; the
documents of --add are appended. Everything else is copied byte for byte. Prints what it did.
"""
import argparse
import json
import random
import sys


def edit(doc, rng):
    doc = dict(doc)
    doc["revision"] = int(doc.get("revision") or 0) + 1
    if "paragraphs" in doc:
        paras = [list(p) for p in doc["paragraphs"]]
        if len(paras) > 1:
            del paras[rng.randrange(len(paras))]
        elif paras and len(paras[0]) > 1:
            paras[0].pop()
        else:
            paras = [["This article was changed."]]
        doc["paragraphs"] = paras
    else:
        lines = doc["text"].split("\n")
        if len(lines) > 1:
            del lines[rng.randrange(len(lines))]
        else:
            cut = lines[0].rfind(". ", 0, max(0, len(lines[0]) - 2))
            lines[0] = lines[0][: cut + 1] if cut > 0 else lines[0] + " This article was changed."
        doc["text"] = "\n".join(lines)
    return doc


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("--change", type=float, default=0.05)
    ap.add_argument("--delete", type=float, default=0.01)
    ap.add_argument("--add")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    counts = {"kept": 0, "changed": 0, "deleted": 0, "added": 0}
    with open(args.input, encoding="utf-8") as f, open(args.output, "w", encoding="utf-8") as out:
        for line in f:
            if not line.strip():
                continue
            r = rng.random()
            if r < args.delete:
                counts["deleted"] += 1
                continue
            if r < args.delete + args.change:
                out.write(json.dumps(edit(json.loads(line), rng), ensure_ascii=False) + "\n")
                counts["changed"] += 1
            else:
                out.write(line if line.endswith("\n") else line + "\n")
                counts["kept"] += 1
        if args.add:
            with open(args.add, encoding="utf-8") as more:
                for line in more:
                    if line.strip():
                        out.write(line if line.endswith("\n") else line + "\n")
                        counts["added"] += 1
    print(json.dumps(counts), file=sys.stderr)


if __name__ == "__main__":
    main()

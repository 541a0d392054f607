#!/usr/bin/env python3
"""Converts the OneStopEnglish corpus (Vajjala & Lučić 2018) to aligndb news-cluster JSON lines.

Usage: tools/onestop_to_clusters.py ONESTOP_DIR OUT.jsonl

Each text exists at three reading levels (Texts-SeparatedByReadingLevel/{Adv,Int,Ele}-Txt/
NAME-{adv,int,ele}.txt, one paragraph a line): the three versions of a text form one cluster,
{"cluster": NAME, "doc": "adv"|"int"|"ele", "text": ...}. A byte order mark is dropped; a file
that is not valid UTF-8 is read as Windows-1252 (and reported).
Ingest with: aligndb ingest --db DB --edition onestop OUT.jsonl
"""
import json
import os
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    root = os.path.join(sys.argv[1], "Texts-SeparatedByReadingLevel")
    levels = [("adv", "Adv-Txt"), ("int", "Int-Txt"), ("ele", "Ele-Txt")]
    names = sorted(f[: -len("-adv.txt")] for f in os.listdir(os.path.join(root, "Adv-Txt")) if f.endswith("-adv.txt"))
    docs = 0
    with open(sys.argv[2], "w", encoding="utf-8") as out:
        for name in names:
            for level, folder in levels:
                path = os.path.join(root, folder, f"{name}-{level}.txt")
                if not os.path.exists(path):
                    print(f"missing: {path}", file=sys.stderr)
                    continue
                raw = open(path, "rb").read()
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError:
                    text = raw.decode("cp1252", errors="replace")
                    print(f"not UTF-8, read as Windows-1252: {path}", file=sys.stderr)
                text = text.lstrip("\ufeff")
                lines = [l.strip() for l in text.splitlines() if l.strip()]
                out.write(json.dumps({"cluster": name, "doc": level, "text": "\n".join(lines)}, ensure_ascii=False) + "\n")
                docs += 1
    print(f"{len(names)} clusters, {docs} documents", file=sys.stderr)


if __name__ == "__main__":
    main()

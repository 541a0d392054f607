#!/usr/bin/env python3
"""Converts SWiPE (Laban et al. 2023) article pairs to aligndb document JSON lines.

Usage: tools/swipe_to_jsonl.py SWIPE.json OUT_PREFIX [--first N] [--exclude-titles FILE]
Writes OUT_PREFIX.enwiki.jsonl (fields r_page, r_revid, r_content) and
OUT_PREFIX.simplewiki.jsonl (s_page, s_revid, s_content), one document per line:
{"title": ..., "revision": ..., "text": ...} with paragraphs separated by newlines, as the
source has them. Titles are kept as they are: pairs whose two titles differ (renamed
articles) do not pair by title, exactly as they would not in the dumps.
Ingest with:  aligndb ingest --db DB --edition enwiki OUT_PREFIX.enwiki.jsonl
              aligndb ingest --db DB --edition simplewiki OUT_PREFIX.simplewiki.jsonl
"""
import json
import sys


def main():
    import argparse
    ap = argparse.ArgumentParser(usage=__doc__)
    ap.add_argument("swipe")
    ap.add_argument("prefix")
    ap.add_argument("--first", type=int, default=0, help="only the first N pairs")
    ap.add_argument("--exclude-titles", help="file of titles (one a line) whose pairs are left out")
    args = ap.parse_args()
    src, prefix = args.swipe, args.prefix
    with open(src, encoding="utf-8") as f:
        pairs = json.load(f)
    if args.exclude_titles:
        with open(args.exclude_titles, encoding="utf-8") as f:
            excluded = {line.strip() for line in f if line.strip()}
        pairs = [p for p in pairs if p["r_page"] not in excluded and p["s_page"] not in excluded]
    if args.first:
        pairs = pairs[: args.first]
    sides = {"enwiki": ("r_page", "r_revid", "r_content"),
             "simplewiki": ("s_page", "s_revid", "s_content")}
    for edition, (title, rev, text) in sides.items():
        seen = set()
        with open(f"{prefix}.{edition}.jsonl", "w", encoding="utf-8") as out:
            for p in pairs:
                if p[title] in seen:
                    continue
                seen.add(p[title])
                doc = {"title": p[title], "revision": int(p[rev]), "text": p[text]}
                out.write(json.dumps(doc, ensure_ascii=False) + "\n")
    differing = sum(p["r_page"] != p["s_page"] for p in pairs)
    print(f"{len(pairs)} pairs; {differing} have different titles in the two editions", file=sys.stderr)


if __name__ == "__main__":
    main()

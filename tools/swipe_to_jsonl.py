#!/usr/bin/env python3
"""Converts SWiPE (Laban et al. 2023) article pairs to aligndb document JSON lines.

Usage: tools/swipe_to_jsonl.py SWIPE.json OUT_PREFIX
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
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    src, prefix = sys.argv[1], sys.argv[2]
    with open(src, encoding="utf-8") as f:
        pairs = json.load(f)
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

#!/usr/bin/python3
"""Word-level agreement of aligndb's wikitext cleaning with mwparserfromhell's strip_code().

Usage: tools/compare_mwparser.py --aligndb build/aligndb DUMP.xml.bz2 [DUMP ...]

For every namespace-0 article of the dumps, the reference text is strip_code() of the
wikitext after removing the lines that docs/method.md (Wikitext → paragraphs) says are not prose paragraphs (headings and
list items), so that both sides describe the same thing: the article's prose. aligndb's text
is what `aligndb show --all --format jsonl` stores. Both are tokenized as aligndb tokenizes
(maximal runs of letters and digits, case-folded) and compared as bags of words:
F1 = 2 |A ∩ B| / (|A| + |B|), per article and over all articles (micro-average).
Needs Debian's python3-mwparserfromhell.
"""
import argparse
import bz2
import collections
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

import mwparserfromhell

TOKEN = re.compile(r"[^\W_]+")
NON_PROSE_LINE = re.compile(r"^(=.*=\s*|[*#:;].*)$", re.M)


def tokens(text):
    return [t.casefold() for t in TOKEN.findall(text)]


def read_pages(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rb") as f:
        for _, el in ET.iterparse(f):
            if not el.tag.endswith("}page"):
                continue
            ns = el.find("{*}ns").text
            title = el.find("{*}title").text
            redirect = el.find("{*}redirect") is not None
            text = el.find("{*}revision/{*}text").text or ""
            if ns == "0" and not redirect:
                yield title, text
            el.clear()


def f1(a, b):
    ca, cb = collections.Counter(a), collections.Counter(b)
    inter = sum((ca & cb).values())
    return inter, len(a), len(b)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aligndb", default="build/aligndb")
    ap.add_argument("--edition", default="enwiki")
    ap.add_argument("--show", type=int, default=5, help="differences to print for the worst articles")
    ap.add_argument("dumps", nargs="+")
    args = ap.parse_args()

    # One database per dump: the same title may appear in several dumps.
    ours = {}  # (dump, title) -> text
    out_lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for k, d in enumerate(args.dumps):
            db = os.path.join(tmp, f"db{k}")
            subprocess.run([args.aligndb, "ingest", "--db", db, "--edition", args.edition, d],
                           check=True, stdout=subprocess.DEVNULL)
            out = subprocess.run([args.aligndb, "show", "--db", db, "--edition", args.edition, "--all",
                                  "--format", "jsonl"], check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                doc = json.loads(line)
                ours[(d, doc["title"])] = " ".join(s for p in doc["paragraphs"] for s in p)
                out_lines.append(line)
    out = "\n".join(out_lines)

    residue_patterns = ["{{", "}}", "[[", "]]", "{|", "|}", "<ref", "</", "<!--", "&nbsp;", "'''",
                        "__TOC__", "thumb|", "Category:", "File:"]
    sentences = [s for line in out.splitlines() for p in json.loads(line)["paragraphs"] for s in p]
    residue = {pat: sum(pat in s for s in sentences) for pat in residue_patterns}
    dirty = sum(any(pat in s for pat in residue_patterns) for s in sentences)
    print(f"markup residue: {dirty} of {len(sentences)} stored sentences "
          f"({100 * dirty / max(1, len(sentences)):.3f}%)" +
          "".join(f"; {pat!r}: {n}" for pat, n in residue.items() if n))
    print()

    rows = []
    total = [0, 0, 0]
    for d in args.dumps:
        for title, wikitext in read_pages(d):
            ref_text = mwparserfromhell.parse(NON_PROSE_LINE.sub("", wikitext)).strip_code()
            a, b = tokens(ours.get((d, title), "")), tokens(ref_text)
            inter, na, nb = f1(a, b)
            score = 2 * inter / (na + nb) if na + nb else 1.0
            rows.append((score, f"{title} ({os.path.basename(d).split('-')[0]})", a, b))
            total[0] += inter
            total[1] += na
            total[2] += nb
    rows.sort()
    print("| article | aligndb tokens | reference tokens | token F1 |")
    print("|---|---:|---:|---:|")
    for score, title, a, b in sorted(rows, key=lambda r: r[1]):
        print(f"| {title} | {len(a)} | {len(b)} | {score:.3f} |")
    overall = 2 * total[0] / (total[1] + total[2])
    print(f"\noverall (micro) token F1: {overall:.4f} over {len(rows)} articles, "
          f"{total[1]} aligndb tokens, {total[2]} reference tokens")
    for score, title, a, b in rows[: args.show]:
        ca, cb = collections.Counter(a), collections.Counter(b)
        only_ours = (ca - cb).most_common(12)
        only_ref = (cb - ca).most_common(12)
        print(f"\n{title} (F1 {score:.3f})\n  only aligndb: {only_ours}\n  only reference: {only_ref}",
              file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Deterministic MediaWiki dumps of any size, made from the real bundled pages.

Usage: tools/make_scale_dump.py --pages N --out OUT.xml[.bz2] [--dbname enwiki]
         [--sources data/wikidumps/enwiki-gensim-sample.xml.bz2 ...]
         [--titles-from OTHER.xml[.bz2] --paired-share 0.3]
         [--change-share 0.01 --seed 1] [--change-mode random|block --block-start 0.5]
         [--renames N] [--ns-moves N] [--redirect-flips N] [--deletes N] [--adds N]

Page k (k = 0..N-1) is the text of source article k mod S (S = namespace-0 articles of the
sources) under a unique title: the source title for k < S, "TITLE (k // S)" after that; its page
id is k + 1 and its revision id is the source's plus k. With --titles-from, a share
--paired-share of the pages take, in order, the titles of that dump's pages (so that the two
editions pair on those titles). With --change-share, that share of pages (chosen by a hash of k
and --seed) gets revision + 1 and one more paragraph: a "newer dump" of the same pages. With
--change-mode block the changed pages are instead one run of consecutive pages starting at
--block-start (a share of N): in a multistream dump they fill as few streams as possible.
--renames, --ns-moves, --redirect-flips and --deletes take that many further pages (by a hash of k
and --seed): renamed ("TITLE (renamed)"), moved to the Wikipedia namespace (ns 4,
"Wikipedia:TITLE"), turned into a redirect to the page before them, or left out; the first three
get revision + 1. --adds appends that many new pages (ids N+1...).
The same arguments always give the same bytes.
"""
import argparse
import bz2
import hashlib
import html
import re
import sys
import xml.etree.ElementTree as ET

HEADER = """<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" xml:lang="en">
  <siteinfo>
    <sitename>Wikipedia</sitename>
    <dbname>{dbname}</dbname>
    <case>first-letter</case>
  </siteinfo>
"""
PAGE = """  <page>
    <title>{title}</title>
    <ns>{ns}</ns>
    <id>{id}</id>{redirect}
    <revision>
      <id>{rev}</id>
      <timestamp>2026-11-01T00:00:00Z</timestamp>
      <model>wikitext</model>
      <format>text/x-wiki</format>
      <text xml:space="preserve">{text}</text>
    </revision>
  </page>
"""


def source_articles(paths):
    out = []
    for path in paths:
        opener = bz2.open if path.endswith(".bz2") else open
        with opener(path, "rb") as f:
            for _, el in ET.iterparse(f):
                if not el.tag.endswith("}page") and el.tag != "page":
                    continue
                ns = el.find("{*}ns")  # {*} matches any namespace, or none
                redirect = el.find("{*}redirect") is not None
                if ns is not None and ns.text == "0" and not redirect:
                    title = el.find("{*}title").text
                    rev = el.find("{*}revision/{*}id")
                    text = el.find("{*}revision/{*}text")
                    out.append((title, int(rev.text) if rev is not None else 1, text.text or ""))
                el.clear()
    return out


def titles_of(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rb") as f:
        return [html.unescape(m.decode("utf-8")) for m in re.findall(rb"<title>(.*?)</title>", f.read())]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pages", type=int, required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--dbname", default="enwiki")
    ap.add_argument("--sources", nargs="+", default=["data/wikidumps/enwiki-gensim-sample.xml.bz2"])
    ap.add_argument("--titles-from")
    ap.add_argument("--paired-share", type=float, default=0.0)
    ap.add_argument("--change-share", type=float, default=0.0)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--change-mode", choices=["random", "block"], default="random")
    ap.add_argument("--block-start", type=float, default=0.5)
    for opt in ("--renames", "--ns-moves", "--redirect-flips", "--deletes", "--adds"):
        ap.add_argument(opt, type=int, default=0)
    args = ap.parse_args()

    src = source_articles(args.sources)
    if not src:
        sys.exit("no namespace-0 articles in the sources")
    other = titles_of(args.titles_from) if args.titles_from else []
    opener = bz2.open if args.out.endswith(".bz2") else open
    changed = 0
    with opener(args.out, "wt", encoding="utf-8") as out:
        out.write(HEADER.format(dbname=args.dbname))
        step = int(round(1 / args.paired_share)) if args.paired_share > 0 else 0
        next_other = 0
        hash_of = lambda k: int(hashlib.sha256(f"{args.seed}:{k}".encode()).hexdigest()[:8], 16)
        if args.change_mode == "block":
            first = int(args.block_start * args.pages)
            edits = set(range(first, min(args.pages, first + round(args.change_share * args.pages))))
        else:
            edits = {k for k in range(args.pages) if hash_of(k) / 0xFFFFFFFF < args.change_share}
        rest = sorted((k for k in range(args.pages) if k not in edits), key=lambda k: (hash_of(-k), k))
        special = {}
        for kind in ("renames", "ns_moves", "redirect_flips", "deletes"):
            for _ in range(getattr(args, kind)):
                special[rest.pop()] = kind
        prev_title = None
        for k in range(args.pages + args.adds):
            title, rev, text = src[k % len(src)]
            if k >= len(src):
                title = f"{title} ({k // len(src)})"
            if k >= args.pages:
                title = f"{title} (added)"
            if step and k % step == 0 and next_other < len(other):
                title = other[next_other]
                next_other += 1
            rev += k
            ns, redirect, kind = 0, "", special.get(k)
            if k in edits:
                rev += 1
                text = text + f"\n\nThis paragraph was added in revision {rev} of the page."
                changed += 1
            elif kind == "deletes":
                continue
            elif kind == "renames":
                rev, title = rev + 1, f"{title} (renamed)"
            elif kind == "ns_moves":
                rev, ns, title = rev + 1, 4, f"Wikipedia:{title}"
            elif kind == "redirect_flips" and prev_title:
                rev, text = rev + 1, f"#REDIRECT [[{prev_title}]]"
                redirect = f'\n    <redirect title="{html.escape(prev_title)}" />'
            prev_title = title
            out.write(PAGE.format(title=html.escape(title, quote=False), id=k + 1, rev=rev, ns=ns,
                                  redirect=redirect, text=html.escape(text, quote=False)))
        out.write("</mediawiki>\n")
    print(f"{args.pages} pages from {len(src)} source articles; {changed} changed", file=sys.stderr)


if __name__ == "__main__":
    main()

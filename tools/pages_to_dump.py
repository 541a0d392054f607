#!/usr/bin/env python3
"""Wikitext files → a MediaWiki XML export that `aligndb ingest` reads.

Usage: tools/pages_to_dump.py [--dbname enwiki] [--hyphens-are-spaces] [--exclude NAME ...]
         --out OUT.xml[.bz2] PATH [PATH ...]

Each PATH is a wikitext file or a folder (its `*.txt` and `*.wiki` files, sorted by name).
Every file becomes one namespace-0 `<page>`: its title is the file name without the extension,
`_` read as a space (and `-` too with --hyphens-are-spaces, for caches that name
"2008-British-motorcycle-Grand-Prix.txt"); page ids are 1..N in the order given, revision ids
1000001..1000000+N, one fixed timestamp, so the same files always give the same bytes. A text
starting with `#REDIRECT [[Target]]` gets the export's `<redirect title="Target"/>`. --exclude
leaves out the files whose name (with or without extension) is given. The `<siteinfo>` names
the edition (--dbname; Default: enwiki), so ingest needs no --edition. An output ending in .bz2
is compressed. Exit codes: 0 ok, 2 bad arguments (a path that does not exist, no files), 3 bad
input data (a file that is not UTF-8, two files with one title), 4 I/O error. Lets users judge the text layer on pages of their own choosing (docs/text.md,
Held-out judgement).
"""
import argparse
import bz2
import os
import re
import sys
from xml.sax.saxutils import escape, quoteattr

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from make_scale_dump import HEADER  # noqa: E402  (the same <siteinfo>, naming the edition)

REDIRECT = re.compile(r"\s*#redirect\s*:?\s*\[\[([^\]|#]+)", re.I)
# XML 1.0 forbids these code points even as character references.
INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def fail(code, message):
    print(f"pages_to_dump: {message}", file=sys.stderr)
    sys.exit(code)


def input_files(paths, exclude):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files += sorted(os.path.join(p, n) for n in os.listdir(p)
                            if n.endswith((".txt", ".wiki")))
        elif os.path.isfile(p):
            files.append(p)
        else:
            fail(2, f"{p}: no such file or folder")
    keep = []
    for f in files:
        name = os.path.basename(f)
        if name in exclude or os.path.splitext(name)[0] in exclude:
            continue
        keep.append(f)
    return keep


def title_of(path, hyphens):
    title = os.path.splitext(os.path.basename(path))[0].replace("_", " ")
    if hyphens:
        title = title.replace("-", " ")
    title = " ".join(title.split())
    return title[:1].upper() + title[1:]


def page_xml(title, page_id, text):
    m = REDIRECT.match(text)
    redirect = f"    <redirect title={quoteattr(m.group(1).strip())} />\n" if m else ""
    return (f"  <page>\n    <title>{escape(title)}</title>\n    <ns>0</ns>\n"
            f"    <id>{page_id}</id>\n{redirect}    <revision>\n"
            f"      <id>{1000000 + page_id}</id>\n"
            f"      <timestamp>2026-11-01T00:00:00Z</timestamp>\n"
            f"      <model>wikitext</model>\n      <format>text/x-wiki</format>\n"
            f"      <text xml:space=\"preserve\">{escape(INVALID_XML.sub('', text))}</text>\n"
            f"    </revision>\n  </page>\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--dbname", default="enwiki")
    ap.add_argument("--hyphens-are-spaces", action="store_true")
    ap.add_argument("--exclude", nargs="*", default=[])
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args()

    files = input_files(args.paths, set(args.exclude))
    if not files:
        fail(2, "no input files")
    titles = {}
    parts = [HEADER.format(dbname=escape(args.dbname))]
    for k, f in enumerate(files, start=1):
        title = title_of(f, args.hyphens_are_spaces)
        if title in titles:
            fail(3, f"{f}: title {title!r} already taken by {titles[title]}")
        titles[title] = f
        try:
            with open(f, encoding="utf-8") as fh:
                text = fh.read()
        except UnicodeDecodeError as e:
            fail(3, f"{f}: byte {e.start}: not UTF-8")
        except OSError as e:
            fail(4, f"{f}: {e.strerror}")
        parts.append(page_xml(title, k, text))
    parts.append("</mediawiki>\n")
    data = "".join(parts).encode("utf-8")
    opener = bz2.open if args.out.endswith(".bz2") else open
    try:
        with opener(args.out, "wb") as out:
            out.write(data)
    except OSError as e:
        fail(4, f"{args.out}: {e.strerror}")
    print(f"{args.out}: {len(files)} pages", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Builds a Wikimedia-style multistream dump and its index from any MediaWiki XML dump.

Usage: tools/make_multistream.py DUMP.xml[.bz2] OUT-multistream.xml.bz2 OUT-index.txt.bz2
                                 [--pages-per-stream 100]

As Wikimedia's *-pages-articles-multistream.xml.bz2: the first bz2 stream holds the header
(<mediawiki>, <siteinfo>), then each stream holds up to --pages-per-stream whole <page>
elements, and the last stream holds </mediawiki>. The index has one line per page,
"offset:page_id:title", offset = byte offset of the page's stream. Streams the input (one page
in memory at a time) so that it works on dumps of any size.
"""
import argparse
import bz2
import html
import re
import sys

TITLE = re.compile(rb"<title>(.*?)</title>")
ID = re.compile(rb"<id>(\d+)</id>")


def lines(path):
    opener = bz2.open if path.endswith(".bz2") else open
    with opener(path, "rb") as f:
        yield from f


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("out")
    ap.add_argument("index")
    ap.add_argument("--pages-per-stream", type=int, default=100)
    args = ap.parse_args()

    out = open(args.out, "wb")
    index = bz2.open(args.index, "wt", encoding="utf-8")
    header, pages, page, footer = [], [], None, []
    offset = 0
    state = "header"
    n_pages = n_streams = 0

    def flush():
        nonlocal offset, n_streams
        if not pages:
            return
        data = b"".join(b"".join(p) for p in pages)
        for p in pages:
            title = html.unescape(TITLE.search(b"".join(p)).group(1).decode("utf-8"))
            pid = ID.search(b"".join(p)).group(1).decode()
            index.write(f"{offset}:{pid}:{title}\n")
        block = bz2.compress(data, 9)
        out.write(block)
        offset += len(block)
        n_streams += 1
        pages.clear()

    for line in lines(args.dump):
        stripped = line.strip()
        if state == "header":
            if stripped.startswith(b"<page>"):
                block = bz2.compress(b"".join(header), 9)
                out.write(block)
                offset += len(block)
                state = "pages"
            else:
                header.append(line)
                continue
        if state == "pages":
            if stripped.startswith(b"<page>"):
                page = [line]
            elif page is not None:
                page.append(line)
                if stripped.startswith(b"</page>"):
                    pages.append(page)
                    n_pages += 1
                    page = None
                    if len(pages) >= args.pages_per_stream:
                        flush()
            elif stripped:
                footer.append(line)
    flush()
    out.write(bz2.compress(b"".join(footer) or b"</mediawiki>\n", 9))
    out.close()
    index.close()
    print(f"{n_pages} pages in {n_streams} streams", file=sys.stderr)


if __name__ == "__main__":
    main()

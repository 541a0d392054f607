#!/usr/bin/env python3
"""Makes a Wikimedia-style stub dump (pages-articles without text) from any MediaWiki XML dump.

Usage: tools/make_stubs.py DUMP.xml[.bz2|.gz] OUT-stub-articles.xml[.gz|.bz2]

Each <page> keeps its title, ns, id, <redirect> and its (first) revision's id and timestamp;
the text becomes <text bytes="N" sha1="BASE36" id="REV" /> as in Wikimedia's stub-articles dumps
(MediaWiki export schema 0.10). The output is compressed by its extension. Streams the input.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpxml  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dump")
    ap.add_argument("out")
    args = ap.parse_args()
    n = dumpxml.write_dump(args.out, args.dump,
                           lambda page: dumpxml.page_xml(page, page["revisions"][:1], stub=True))
    print(f"{n} stub pages", file=sys.stderr)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes a Wikimedia-style adds-changes dump (pages-meta-hist-incr) from two versions of a dump.

Usage: tools/make_changes.py OLD.xml[.bz2] NEW.xml[.bz2] OUT.xml[.bz2|.gz] [--extra-revisions]

Every page of NEW that OLD lacks or holds in another revision, title, namespace or redirect state
goes into OUT with NEW's revision, in all namespaces (as in Wikimedia's daily files; deletions
are not in them). With --extra-revisions, each such page also gets an older revision (id one
less, other text) placed after the newest one, and, for every other page, a second <page>
element with that older revision: several revisions of one page, out of order, as a day's edits
can be. Name OUT with the date, e.g. enwiki-20261121-pages-meta-hist-incr.xml.bz2: `aligndb
ingest --changes` orders files by it.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dumpxml  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("out")
    ap.add_argument("--extra-revisions", action="store_true")
    args = ap.parse_args()
    old = {}
    for _, p in dumpxml.pages(args.old):
        old[p["id"]] = (p["revisions"][0]["id"] if p["revisions"] else 0, p["title"], p["ns"],
                        p["redirect"])
    written = [0]

    def changed(p):
        rev = p["revisions"][0] if p["revisions"] else None
        if rev is None or old.get(p["id"]) == (rev["id"], p["title"], p["ns"], p["redirect"]):
            return ""
        written[0] += 1
        if not args.extra_revisions or rev["id"] <= 1:
            return dumpxml.page_xml(p, [rev])
        older = dict(rev, id=rev["id"] - 1, timestamp="2001-01-01T00:00:00Z",
                     text="An older revision of the same day.")
        if written[0] % 2:
            return dumpxml.page_xml(p, [rev, older])  # out of order within the page
        # A second <page> element, after the newest, with the older revision.
        return dumpxml.page_xml(p, [rev]) + dumpxml.page_xml(p, [older])

    n = dumpxml.write_dump(args.out, args.new, changed)
    print(f"{n} pages changed or added", file=sys.stderr)


if __name__ == "__main__":
    main()

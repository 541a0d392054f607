#!/usr/bin/python3
"""Which templates used in prose does aligndb not render? The long tail, ranked.

Usage: tools/template_tail.py [--top 40] [--examples 2] DUMP.xml.bz2 [DUMP ...]

Counts every template used in prose — a page-level template node on a prose line, as
tools/template_uses.py defines it (not inside another template, a <ref>, a table, a caption or a
heading; not a list, table or heading line, nor a list heading) — by canonical name: the first
letter case-folded, "_" and runs of spaces as one space, a "Template:" prefix dropped, and the
redirects below and those data/templates.tsv lists on one row merged into the row's first name.
Each name is marked
  listed     a row of data/templates.tsv renders it (text, a function, or an empty rule that
             drops it on purpose, e.g. pronunciation templates)
  no text    not listed, but shows no text in a sentence on Wikipedia either: footnotes and
             their markers, maintenance tags, navigation boxes and sidebars (NO_TEXT below)
  unhandled  neither: dropped by aligndb, and maybe text that Wikipedia shows
and the unhandled ones used inline — with words of a sentence on their line, not alone on it as
a hatnote, a box or a table row is — are ranked by uses (and pages, and dumps). Reads the
wikitext only (no ingest). Needs Debian's python3-mwparserfromhell.
"""
import argparse
import collections
import os
import re
import sys

import mwparserfromhell
from mwparserfromhell.nodes import Template

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_mwparser import read_pages  # noqa: E402
from template_uses import NON_PROSE_LINE, is_list_heading, walk  # noqa: E402
from mwparserfromhell.nodes import Text  # noqa: E402
import bisect  # noqa: E402

# Redirects of unlisted templates, merged into the name they redirect to.
REDIRECTS = {
    "cn": "citation needed", "fact": "citation needed", "citation-needed": "citation needed",
    "refn": "efn", "efn-ua": "efn", "efn-lr": "efn", "efn-la": "efn", "notetag": "efn",
    "r": "r", "rp": "rp", "sfnp": "sfn", "sfnm": "sfn",
    "clarify": "clarify", "dubious": "dubious", "when": "when", "who": "who", "which": "which",
}

# Templates that show no text in a sentence on Wikipedia (or only a bracketed superscript tag):
# footnote markers and their lists, maintenance and cleanup tags, navigation, hatnotes.
NO_TEXT_EXACT = {
    "sfn", "efn", "r", "rp", "ref", "refn", "note", "citation needed", "clarify", "dubious",
    "when", "who", "which", "by whom", "according to whom", "vague", "failed verification",
    "better source needed", "update needed", "page needed", "full citation needed", "specify",
    "citation needed span", "original research inline", "verify source", "dead link",
    "disputed inline", "not in citation given", "unreliable source?", "self-published inline",
    "what", "where", "why", "how", "examples", "weasel inline", "peacock inline", "year needed",
    "additional citation needed", "primary source inline", "quantify", "nonspecific",
    "reflist", "refbegin", "refend", "notelist", "references", "anchor", "main", "see also",
    "further", "about", "for", "redirect", "other uses", "distinguish", "toc", "tocright",
    "clear", "-", "commons", "commons category", "portal", "wiktionary", "defaultsort",
    "short description", "use dmy dates", "use mdy dates", "authority control", "citation",
    "clarify span", "dubious span", "attribution needed", "lang-rtl", "sup", "ref label",
    "note label", "cref", "pg", "sfnref", "harvid", "cite note", "inote", "fn", "ran", "rnote",
    # inline cleanup tags (a bracketed superscript, as {{citation needed}}), and layout
    "better source", "update after", "update inline", "citation not found", "buzzword inline",
    "citation need", "definition", "disambiguation needed", "incomplete short citation",
    "qualify evidence", "request quotation", "tone inline", "unreliable medical source",
    "weasel-inline", "year missing", "check", "or", "original research", "refimprove",
    "more citations needed", "full", "update", "clear left", "clear right", "main article",
    "engvarb", "multiple issues", "cref2", "inflation-fn", "flagicon",
}
NO_TEXT_PREFIXES = ("cite ", "infobox", "navbox", "use ", "sidebar", "portal", "wikiproject")


def canonical(raw):
    name = re.sub(r"[\s_]+", " ", str(raw)).strip()
    if name.lower().startswith("template:"):
        name = name[9:].strip()
    if not name or name.startswith("#") or "{" in name or ":" in name[1:]:
        return None  # parser functions, magic words with an argument, computed names
    name = name[0].lower() + name[1:]
    return REDIRECTS.get(name, name)


def load_table(path):
    """data/templates.tsv: canonical name → the row's first name; the row prefixes (lang-*)."""
    exact, prefixes = {}, []
    for line in open(path, encoding="utf-8"):
        if not line.strip() or line.startswith("#"):
            continue
        names = [n.strip() for n in line.split("\t")[0].split(",") if n.strip()]
        head = names[0]
        for n in names:
            if n.endswith("*") and len(n) > 1:
                prefixes.append((n[:-1][0].lower() + n[1:-1], head))
            else:
                exact[n[0].lower() + n[1:]] = head
    return exact, prefixes


def classify(name, exact, prefixes):
    if name in exact:
        return "listed", exact[name]
    for p, head in sorted(prefixes, key=lambda x: -len(x[0])):
        if name.startswith(p):
            return "listed", head
    lower = name.lower()
    if lower in NO_TEXT_EXACT or lower.startswith(NO_TEXT_PREFIXES) or lower.endswith(
            ("stub", "navbox", "sidebar", "footer", "topics")):
        return "no text", name
    return "unhandled", name


def alone(line):
    """True when the line holds nothing but templates (and references, comments, markup): a
    block of its own (a hatnote, a box, a table row), not words of a sentence."""
    code = mwparserfromhell.parse(line)
    for t in code.filter_templates(recursive=False):
        code.remove(t)
    return not re.search(r"\w", code.strip_code())


def prose_templates(wikitext):
    """(template node, alone on its line?) for each template used on a prose line
    (template_uses.py's definition)."""
    nodes = list(walk(mwparserfromhell.parse(wikitext), 0))
    breaks = [0] + [pos + m.end() for node, pos in nodes if isinstance(node, Text)
                    for m in re.finditer("\n", str(node))] + [len(wikitext) + 1]
    cache = {}
    for node, pos in nodes:
        if isinstance(node, Template):
            k = bisect.bisect_right(breaks, pos)
            start, end = breaks[k - 1], breaks[k] - 1
            line = wikitext[start:end]
            if NON_PROSE_LINE.match(line) or is_list_heading(wikitext, start, end, line):
                continue
            if (start, end) not in cache:
                cache[(start, end)] = alone(line)
            yield node, cache[(start, end)]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--table", default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "templates.tsv"))
    ap.add_argument("--top", type=int, default=40)
    ap.add_argument("--examples", type=int, default=1, help="uses shown per unhandled template")
    ap.add_argument("dumps", nargs="+")
    args = ap.parse_args()
    exact, prefixes = load_table(args.table)

    uses = collections.Counter()  # inline uses: words of the sentence on the same line
    block = collections.Counter()  # uses on a line of templates only
    pages = collections.defaultdict(set)
    dumps = collections.defaultdict(set)
    kind = {}
    examples = collections.defaultdict(list)
    spelled = collections.defaultdict(collections.Counter)  # how pages write each name
    for d in args.dumps:
        dname = os.path.basename(d).split(".")[0]
        for title, wikitext in read_pages(d):
            for t, on_its_own in prose_templates(wikitext):
                name = canonical(t.name)
                if name is None:
                    continue
                k, key = classify(name, exact, prefixes)
                kind[key] = k
                spelled[key][re.sub(r"[\s_]+", " ", str(t.name)).strip()] += 1
                if on_its_own:
                    block[key] += 1
                    continue
                uses[key] += 1
                pages[key].add((dname, title))
                dumps[key].add(dname)
                if k == "unhandled" and len(examples[key]) < args.examples:
                    examples[key].append(f"{dname}: {title}: {' '.join(str(t).split())[:160]}")

    for label, counter in (("inline (words beside them on the line)", uses),
                           ("alone on their line (blocks: not ranked)", block)):
        total = collections.Counter()
        for key, n in counter.items():
            total[kind[key]] += n
        print(f"templates in prose, {label}: {sum(total.values())} uses of {len(counter)} "
              "names; " + ", ".join(f"{k} {total[k]}" for k in ("listed", "no text", "unhandled")))
    print()
    print("| rank | template | uses | pages | dumps |")
    print("|---:|---|---:|---:|---:|")
    ranked = sorted((k for k in uses if kind[k] == "unhandled"),
                    key=lambda k: (-uses[k], -len(pages[k]), k))
    for i, key in enumerate(ranked[:args.top], 1):
        shown = spelled[key].most_common(1)[0][0]
        print(f"| {i} | `{{{{{shown}}}}}` | {uses[key]} | {len(pages[key])} | {len(dumps[key])} |")
    if args.examples:
        print()
        for key in ranked[:args.top]:
            for e in examples[key]:
                print(f"  {key}\t{e}")


if __name__ == "__main__":
    main()

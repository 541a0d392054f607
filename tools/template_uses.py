#!/usr/bin/python3
"""Do the uses of convert/cvt, lang/lang-xx, nowrap, ill and as-of in prose keep their text?

Usage: tools/template_uses.py [--aligndb build/aligndb] [--log FILE] DUMP.xml.bz2 [DUMP ...]

Each dump is ingested into its own database and read back with `aligndb show --all --format
jsonl`. For every namespace-0 page, the wikitext is parsed with mwparserfromhell; a use counts
when it is a page-level template node — descending only into prose formatting tags (''italic'',
<span>, <small>, …) and the labels of ordinary links, so not inside another template's argument
(infoboxes), a <ref>, a table, a file caption, a heading or any other tag — and the line it is
on (lines cut at the page text's own newlines) is a prose line: not a heading, list item `*#:;`,
table line `|`/`!`/`{|`, nor a list heading (≤ 15 words ending in ':' before a list, table,
heading or the end; docs/text.md). For each use the script derives the key text Wikipedia shows
in the simplest reliable way (<ref> removed, {{big|…}}, {{linktext|…}} and similar wrappers
inside rendered):

  convert, cvt            the first number (also accepted with thousands separators: 1,500);
                          disp=output… shows only the converted value: not judged
  lang                    the text argument (2nd; `langx` too); lang-xx: the 1st
  nowrap                  its argument's words
  ill                     lt= or the first argument
  as of                   the year (1st argument)

The use is kept when the key's words appear consecutively (or, for text keys, the key appears
verbatim) in the stored paragraph of its line: the stored paragraph that shares most of the
line's other words (tokenized as aligndb tokenizes: maximal runs of letters and digits,
case-folded), at least half of them; otherwise the line is reported as not stored (not kept).
One line per use goes to the log (page, template, key, kept yes/no, which paragraph, wikitext);
a summary table by template goes to stdout, and for {{langx}} and {{lang-xx}} how many uses
show the language name as Wikipedia does ("Cornish: Bosvena", names from data/languages.tsv).
Needs Debian's python3-mwparserfromhell.
"""
import argparse
import bisect
import collections
import json
import os
import re
import subprocess
import sys
import tempfile

import mwparserfromhell
from mwparserfromhell.nodes import Tag, Template, Text, Wikilink

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_mwparser import read_pages  # noqa: E402

TOKEN = re.compile(r"[^\W_]+")
NON_PROSE_LINE = re.compile(r"^\s*([=*#:;|!]|\{\|)")

FAMILIES = {
    "convert": "convert", "cvt": "convert", "convert/2": "convert",
    "lang": "lang", "langx": "lang",
    "nowrap": "nowrap", "nobr": "nowrap", "nobreak": "nowrap", "no wrap": "nowrap",
    "ill": "ill", "interlanguage link": "ill", "interlanguage link multi": "ill",
    "as of": "as of", "asof": "as of",
}


def tokens(text):
    return [t.casefold() for t in TOKEN.findall(text)]


def family(raw_name):
    name = re.sub(r"[\s_]+", " ", str(raw_name)).strip()
    if name.lower().startswith("template:"):
        name = name[9:].strip()
    if not name:
        return None, name
    name = name[0].lower() + name[1:]  # MediaWiki: first letter case-insensitive
    if name in FAMILIES:
        return FAMILIES[name], name
    if name.startswith("lang-") and len(name) > 5:
        return "lang-xx", name
    return None, name


# Wrappers that show (some of) their arguments, met inside the key argument:
# {{lang-ar|{{big|المعلم الأول}}}}, {{lang|grc|{{linktext|λόγος}}}}.
WRAPPERS = {"big": "1", "large": "1", "small": "1", "smaller": "1", "nowrap": "1",
            "nobold": "1", "noitalic": "1", "linktext": "*"}


def shown(code):
    """Text shown by a wikicode value: <ref> dropped, simple wrappers rendered, markup stripped."""
    code = mwparserfromhell.parse(str(code))
    for tag in code.filter_tags(recursive=False):
        if str(tag.tag).strip().lower() == "ref":
            code.remove(tag)
    for t in code.filter_templates(recursive=False):
        _, name = family(t.name)
        rule = WRAPPERS.get(name.lower())
        if rule == "*":
            code.replace(t, "".join(shown(p.value) for p in t.params if not p.showkey))
        elif rule and t.has(rule):
            code.replace(t, shown(t.get(rule).value))
    return code.strip_code().strip()


def arg(t, key):
    if t.has(key):
        return shown(t.get(key).value)
    return ""


def spell_number(n, us):
    """n in words, as Module:ConvertNumeric spells it ("one hundred and one"; us: without "and")."""
    ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
            "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
            "eighteen", "nineteen"]
    tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    scales = ["", " thousand", " million", " billion"]
    if n == 0:
        return ones[0]
    groups = []
    while n:
        groups.append(n % 1000)
        n //= 1000
    out = []
    for g in range(len(groups) - 1, -1, -1):
        v = groups[g]
        if not v:
            continue
        words = ones[v // 100] + " hundred" if v >= 100 else ""
        if v % 100:
            r = v % 100
            below = ones[r] if r < 20 else tens[r // 10] + ("-" + ones[r % 10] if r % 10 else "")
            use_and = not us and (v >= 100 or (g == 0 and len(groups) > 1))
            words += (" " if words else "") + ("and " if use_and else "") + below
        out.append(words + scales[g])
    return " ".join(out)


def key_texts(fam, name, t):
    """Candidate renderings of the key text (any one found counts as kept)."""
    if fam == "convert":
        if arg(t, "disp").startswith("output"):
            return []  # shows only the converted value: needs the unit table (not judged)
        v = arg(t, "1")
        m = re.match(r"[-−+]?\d[\d,]*(\.\d+)?", v)
        if not m:
            return []
        num = m.group(0).replace(",", "").lstrip("+-−")
        ip, _, frac = num.partition(".")
        grouped = f"{int(ip):,}" + (("." + frac) if frac else "")
        keys = [num, grouped]
        # spell=in|on shows a whole number in words ("four miles"), as aligndb renders it.
        if arg(t, "spell").lower() in ("in", "on") and not frac and len(ip) <= 12:
            keys += [spell_number(int(ip), us) for us in (False, True)]
        return keys
    if fam == "lang":
        return [arg(t, "2")]
    if fam == "lang-xx":
        return [arg(t, "1")]
    if fam == "nowrap":
        return [arg(t, "1")]
    if fam == "ill":
        return [arg(t, "lt") or arg(t, "1")]
    if fam == "as of":
        return [arg(t, "1")]
    return []


def contains(hay, needle):
    n = len(needle)
    if n == 0:
        return False
    first = needle[0]
    for i, tok in enumerate(hay):
        if tok == first and hay[i:i + n] == needle:
            return True
    return False


# Tags whose content is prose (aligndb removes the tag and keeps its content, src/text/wikitext.cc
# kKeepContent); ''italic'' and '''bold''' are such tags in mwparserfromhell's tree. Templates
# inside any other tag (<ref>, tables, <gallery>, <poem>, <li>, …) are not prose.
PROSE_TAGS = {"span", "div", "small", "big", "sup", "sub", "b", "i", "u", "s", "strike", "del",
              "ins", "em", "strong", "center", "font", "abbr", "blockquote", "cite", "code", "tt",
              "var", "p", "nowiki", "noinclude", "onlyinclude", "q", "kbd", "samp", "bdi", "bdo",
              "mark", "dfn", "time", "data", "section"}


# Links whose text is not prose: files and images (captions), categories, interlanguage links.
NOT_PROSE_LINK = re.compile(r"\s*:?\s*(file|image|media|category|[a-z]{2,3}(-[a-z]+)?)\s*:", re.I)


def walk(code, base):
    """(node, offset) for the page-level nodes, descending into prose formatting tags and the
    labels of ordinary links only."""
    pos = base
    for node in code.nodes:
        s = str(node)
        if isinstance(node, Tag) and node.contents is not None and \
                str(node.tag).strip().lower() in PROSE_TAGS:
            c = str(node.contents)
            yield from walk(node.contents, pos + max(0, s.find(c, 1)))
        elif isinstance(node, Wikilink) and node.text is not None and not NOT_PROSE_LINK.match(
                str(node.title)):  # [[29th parallel north|{{nowrap|29° N}}]]: the label is prose
            c = str(node.text)
            yield from walk(node.text, pos + max(0, s.rfind(c)))
        else:
            yield node, pos
        pos += len(s)


def is_list_heading(wikitext, start, end, line):
    """aligndb's list heading (docs/text.md): a line of at most 15 words ending in ':' followed by
    a list, a table, a heading or the end of the page. Not prose."""
    text = shown(line)
    if not text.endswith(":") or len(text.split()) > 15:
        return False
    rest = wikitext[end:].lstrip("\n")
    return not rest.strip() or bool(re.match(r"\s*([*#:;=]|\{\|)", rest))


def prose_uses(wikitext):
    """(family, name, template node, words of its line) for each use in a prose line.

    Lines are cut at the newlines of the page's own text nodes, so that a <ref> or template
    spanning several lines does not start a line."""
    nodes = list(walk(mwparserfromhell.parse(wikitext), 0))
    breaks = [0] + [pos + m.end() for node, pos in nodes if isinstance(node, Text)
                    for m in re.finditer("\n", str(node))] + [len(wikitext) + 1]
    for node, pos in nodes:
        if isinstance(node, Template):
            fam, name = family(node.name)
            if fam:
                k = bisect.bisect_right(breaks, pos)
                start, end = breaks[k - 1], breaks[k] - 1
                line = wikitext[start:end]
                if NON_PROSE_LINE.match(line) or is_list_heading(wikitext, start, end, line):
                    continue
                pieces = []
                for n, p in nodes:
                    if isinstance(n, Text):  # may span several lines: its part on this line
                        pieces.append(wikitext[max(p, start):min(p + len(str(n)), end)])
                    elif start <= p < end and isinstance(n, (Wikilink, Tag)) and \
                            str(getattr(n, "tag", "")).strip().lower() != "ref":
                        pieces.append(shown(str(n)))
                words = " ".join(pieces)
                yield fam, name, node, words


def language_names():
    """data/languages.tsv: the names {{langx}} and {{lang-xx}} show before their text."""
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "languages.tsv")
    names = {}
    for line in open(path, encoding="utf-8"):
        if line.strip() and not line.startswith("#"):
            code, name = line.rstrip("\n").split("\t")
            names[code.lower()] = name
    return names


def named_text(name, t, key, names):
    """What Wikipedia shows for a langx or lang-xx use: "Cornish: Bosvena" (None: not judged)."""
    lower = name.lower()
    if lower != "langx" and not lower.startswith("lang-"):
        return None
    code = (arg(t, "1") if lower == "langx" else lower[5:]).lower()
    lname = names.get(code) or names.get(code.split("-")[0])
    if not lname or t.has("label") or t.has("translit") or t.has("lit"):
        return None
    return f"{lname}: {key}"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--aligndb", default="build/aligndb")
    ap.add_argument("--edition", default="enwiki")
    ap.add_argument("--log", default="-", help="one line per use (default: stderr)")
    ap.add_argument("dumps", nargs="+")
    args = ap.parse_args()

    stored = {}  # (dump, title) -> tokens of the stored sentences
    with tempfile.TemporaryDirectory() as tmp:
        for k, d in enumerate(args.dumps):
            db = os.path.join(tmp, f"db{k}")
            subprocess.run([args.aligndb, "ingest", "--db", db, "--edition", args.edition, d],
                           check=True, stdout=subprocess.DEVNULL)
            out = subprocess.run([args.aligndb, "show", "--db", db, "--edition", args.edition,
                                  "--all", "--format", "jsonl"],
                                 check=True, capture_output=True, text=True).stdout
            for line in out.splitlines():
                doc = json.loads(line)
                stored[(d, doc["title"])] = [" ".join(p) for p in doc["paragraphs"]]

    log = sys.stderr if args.log == "-" else open(args.log, "w", encoding="utf-8")
    counts = collections.defaultdict(lambda: [0, 0])
    named = collections.defaultdict(lambda: [0, 0])  # langx/lang-xx uses naming the language
    names = language_names()
    unjudged = []
    for d in args.dumps:
        for title, wikitext in read_pages(d):
            paragraphs = stored.get((d, title), [])
            ptokens = [tokens(p) for p in paragraphs]
            for fam, name, t, words in prose_uses(wikitext):
                keys = [k for k in key_texts(fam, name, t) if tokens(k)]
                wt = " ".join(str(t).split())
                if not keys:
                    unjudged.append((title, name, wt))
                    print(f"{title}\t{name}\t-\tunjudged\t-\t{wt}", file=log)
                    continue
                # The stored paragraph of this line: the one sharing most of the line's words
                # (the template's own words left out).
                ctx = collections.Counter(tokens(words))
                best, overlap = None, 0
                for i, pt in enumerate(ptokens):
                    o = sum((collections.Counter(pt) & ctx).values())
                    if o > overlap:
                        best, overlap = i, o
                found = best is not None and overlap >= 0.5 * sum(ctx.values())
                if found:
                    para = paragraphs[best]
                    kept = any(contains(ptokens[best], tokens(k)) or
                               (fam != "convert" and " ".join(k.split()) in para) for k in keys)
                    where = f"paragraph {overlap}/{sum(ctx.values())}"
                else:
                    kept, para = False, ""
                    where = "line not stored"
                counts[fam][0] += 1
                counts[fam][1] += kept
                expect = named_text(name, t, keys[0], names) if fam in ("lang", "lang-xx") else None
                if expect is not None:
                    named[fam][0] += 1
                    named[fam][1] += found and " ".join(expect.split()) in para
                print(f"{title}\t{name}\t{keys[0]}\t{'yes' if kept else 'no'}\t{where}\t{wt}",
                      file=log)
    if log is not sys.stderr:
        log.close()

    print("| template | uses in prose | kept | share |")
    print("|---|---:|---:|---:|")
    tot = [0, 0]
    for fam in ["convert", "lang", "lang-xx", "nowrap", "ill", "as of"]:
        n, k = counts.get(fam, [0, 0])
        tot[0] += n
        tot[1] += k
        share = f"{100 * k / n:.1f}%" if n else "–"
        print(f"| {fam} | {n} | {k} | {share} |")
    print(f"| **all** | **{tot[0]}** | **{tot[1]}** | **{100 * tot[1] / max(1, tot[0]):.1f}%** |")
    for fam, label in (("lang", "langx"), ("lang-xx", "lang-xx")):
        n, k = named.get(fam, [0, 0])
        if n:
            print(f"\n{label} uses (without label=, translit=, lit=) shown as Wikipedia shows "
                  f"them, \"Language: text\": {k} of {n}")
    if unjudged:
        print(f"\nnot judged (no key text): {len(unjudged)}")
        for title, name, wt in unjudged:
            print(f"  {title}: {wt}")


if __name__ == "__main__":
    main()

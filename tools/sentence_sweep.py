#!/usr/bin/env python3
"""Which stored sentences look broken: a sweep of every stored sentence by general signs.

Usage:
  tools/sentence_sweep.py [--examples 3] [--seed 16] [--source NAME=DUMP.xml[.bz2] ...]
                          [--flagged OUT.jsonl] [--only CHECK ...] NAME=STORED.jsonl ...

Each STORED.jsonl is `aligndb show --db DB --edition ED --all --format jsonl` of one database
(NAME labels it in the output; a bare path is named by its file name). Every sentence is run
through the named checks below; the output is a table of counts (sentences flagged by each
check, per dump, and the share of all its sentences), then --examples sentences per check and
dump, drawn with random.Random(--seed) so that the same input gives the same examples (Default:
3 examples, seed 16). Sentences are printed escaped: control, format and bidi characters as
\\uXXXX, so that nothing from the data steers the terminal. --source gives a dump's wikitext so
that each example (and each --flagged line) shows the source line sharing most of its words.
--flagged writes every flagged sentence as one JSON line (dump, page, paragraph, index,
sentence, checks, and `source` when known), for reading them all. --only restricts the checks.

A check is a sign, not a verdict: many flagged sentences are fine (a sentence may start with
"iPhone", a title may end without a period). The sweep is for finding faults that repeat, by
reading what it flags against the wikitext (docs/text.md, Sweep of every stored sentence).
Exit codes: 0 ok, 2 bad arguments, 3 bad input data (a line that is not a stored document),
4 I/O error.
"""
import argparse
import bz2
import collections
import json
import os
import random
import re
import sys
import unicodedata
import xml.etree.ElementTree as ET

WORD = re.compile(r"[^\W_]+(?:['’.\-][^\W_]+)*")
OPENERS = "\"'“‘«([¿¡„"
CLOSERS = "\"'”’»)]"
# Abbreviations that rarely end a sentence: a sentence ending in one was likely cut after it.
ABBREVIATIONS = {
    "st", "dr", "mr", "mrs", "ms", "prof", "rev", "gen", "col", "lt", "capt", "sgt", "maj",
    "cmdr", "adm", "gov", "sen", "rep", "pres", "hon", "fr", "mt", "ft", "no", "nos", "vol",
    "vols", "approx", "c", "ca", "fl", "b", "d", "r", "e.g", "i.e", "vs", "v", "cf", "viz",
    "fig", "figs", "p", "pp", "ch", "ed", "eds", "op", "cit", "lit", "jan", "feb", "mar",
    "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "est", "esp", "incl",
}
LONE_NUMBER = re.compile(r"^\W*(?:c\.\s*)?\d[\d,.\s–—\-/]*(?:BC|AD|BCE|CE)?\W*$")
MARKUP = re.compile(
    r"\{\{|\}\}|\[\[|\]\]|\{\||\|\}|\||^=+|=+$|==|</?[A-Za-z][^>]*>?|<!--|&(?:#\d+|#x[0-9a-fA-F]+|"
    r"[A-Za-z]+);|''|__[A-Z]+__")
# Not flagged: the source's own spacing before a decimal point (" .22"), in a spaced ellipsis
# (" . . .", "principles, . . .") and before a colon after a word or symbol ("S : N → N",
# French "économie : 3,5%"); a space between other punctuation and a colon is ("helium, :").
SPACE_BEFORE = re.compile(r"\s[,;)\]]|[,;(]\s+:|(?<!\.)\s\.(?![\d.]|\s\.)|[(\[]\s")
DOUBLE_PUNCT = re.compile(
    r"[,;:]\s*[,;:)]|[,;:]\s*\.(?!\s?\.)|\(\s*[,;:)]|\(\s*\.(?!\d)|\[\s*\]|\.\s+[,;]")
REPEATED = re.compile(r"\b([^\W\d_]+)\s+\1\b", re.I)


def words(s):
    return WORD.findall(s)


def stripped_end(s):
    """The sentence without closing quotes, brackets, footnote stars and spaces at its end."""
    return s.rstrip(CLOSERS + " *†")


def balanced_brackets(s):
    stack = []
    for ch in s:
        if ch in "([{":
            stack.append(ch)
        elif ch in ")]}":
            if not stack or "([{"[")]}".index(ch)] != stack.pop():
                return False
    return not stack


def check_lower_start(s):
    return s[:1].islower()


def check_punct_start(s):
    c = s[:1]
    return bool(c) and c not in OPENERS and unicodedata.category(c)[0] == "P"


def check_no_final_punct(s):
    end = stripped_end(s)
    return bool(end) and end[-1] not in ".!?:…"


def check_ends_colon(s):
    return stripped_end(s).endswith(":")


def check_unbalanced_brackets(s):
    return not balanced_brackets(s)


def check_unbalanced_quotes(s):
    return s.count('"') % 2 == 1 or s.count("“") != s.count("”")


def check_space_before_punct(s):
    return bool(SPACE_BEFORE.search(s))


def check_double_punct(s):
    return bool(DOUBLE_PUNCT.search(s))


def check_very_short(s):
    return len(words(s)) <= 2 and not LONE_NUMBER.match(s)


def check_very_long(s):
    return len(words(s)) > 120


# The bars of a rendered formula are not markup (as in text_judgement.py): "|x|", "|f(x)|²",
# "|α⟩", "⟨φ|"; "|200px|" or "|left|" between bars still is.
FORMULA_BARS = re.compile(r'\|[^\s|="]+⟩|⟨[^\s|="]+\||\|(?![-+]\|)(?:[^\W\d_]|[^\s|="]*[^\w\s|="][^\s|="]*)\|')


def check_markup(s):
    return bool(MARKUP.search(FORMULA_BARS.sub("", s) if "|" in s else s))


def check_abbreviation_end(s):
    end = stripped_end(s)
    if not end.endswith(".") or end.endswith(".."):
        return False
    m = re.search(r"(?:^|[\s(\[/–—-])((?:[A-Za-z]\.)*[A-Za-z]+)\.$", end)
    if not m:
        return False
    w = m.group(1)
    # A single capital initial ("John F.") is a cut too; "I." ends "World War I.".
    return w.lower() in ABBREVIATIONS or (len(w) == 1 and w.isupper() and w != "I")


def check_lone_number(s):
    return bool(LONE_NUMBER.match(s))


def check_repeated_word(s):
    return bool(REPEATED.search(s))


CHECKS = collections.OrderedDict([
    ("lower_start", (check_lower_start, "starts with a lower-case letter")),
    ("punct_start", (check_punct_start,
                     "starts with punctuation (not an opening quote or bracket)")),
    ("no_final_punct", (check_no_final_punct,
                        "ends without . ! ? … (closing quotes and brackets aside)")),
    ("ends_colon", (check_ends_colon, "ends in a colon (a list heading stored as prose?)")),
    ("unbalanced_brackets", (check_unbalanced_brackets, "( [ { not matched by ) ] }")),
    ("unbalanced_quotes", (check_unbalanced_quotes, 'an odd number of " or unmatched “ ”')),
    ("space_before_punct", (check_space_before_punct,
                            "a space before , . ; ) ] (: after punctuation) or after ( [")),
    ("double_punct", (check_double_punct, 'two punctuation marks from removed markup: ", ,", '
                                          '",.", "( ;", "()", ". ,"')),
    ("very_short", (check_very_short, "1 or 2 words")),
    ("very_long", (check_very_long, "more than 120 words")),
    ("markup", (check_markup, "leftover markup: {{ [[ | == <tag &entity; ''")),
    ("abbreviation_end", (check_abbreviation_end, 'ends in an abbreviation ("St.", "No.", "c.", '
                                                  'an initial): a likely wrong cut')),
    ("lone_number", (check_lone_number, "a year or number alone")),
    ("repeated_word", (check_repeated_word, 'a word repeated ("the the")')),
])


def escape(s):
    """Control, format (bidi, zero-width) and separator characters other than space as \\uXXXX."""
    out = []
    for ch in s:
        cat = unicodedata.category(ch)
        if ch == "\\":
            out.append("\\\\")
        elif cat in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp") or (cat == "Zs" and ch != " "):
            out.append(f"\\u{ord(ch):04x}")
        else:
            out.append(ch)
    return "".join(out)


def read_stored(name, path):
    try:
        with open(path, encoding="utf-8") as f:
            for n, line in enumerate(f, 1):
                try:
                    doc = json.loads(line)
                    title, paragraphs = doc["title"], doc["paragraphs"]
                except (ValueError, KeyError, TypeError):
                    raise BadInput(f"{path}:{n}: expected a JSON object with title and paragraphs")
                for p, para in enumerate(paragraphs):
                    for i, sent in enumerate(para):
                        yield title, p, i, sent
    except UnicodeDecodeError as e:
        raise BadInput(f"{path}: not UTF-8 ({e})")


class BadInput(Exception):
    pass


def wikitext_pages(path):
    """(title, wikitext) of each page of a MediaWiki XML export, plain or bz2."""
    with (bz2.open if path.endswith(".bz2") else open)(path, "rb") as f:
        title = None
        for _, el in ET.iterparse(f):
            tag = el.tag.rsplit("}", 1)[-1]
            if tag == "title":
                title = el.text
            elif tag == "text":
                yield title, el.text or ""
            elif tag == "page":
                el.clear()


class Sources:
    """Per page, each wikitext line with its word counts, to find a sentence's source line."""

    def __init__(self, path):
        self.pages = dict(wikitext_pages(path))
        self.lines = {}

    def line(self, title, sentence):
        if title not in self.pages:
            return ""
        if title not in self.lines:
            self.lines[title] = [(ln, collections.Counter(w.casefold() for w in words(ln)))
                                 for ln in self.pages[title].split("\n")]
        want = collections.Counter(w.casefold() for w in words(sentence))
        best, score = "", -1
        for ln, have in self.lines[title]:
            o = sum((have & want).values())
            if o > score:
                best, score = ln, o
        if len(best) > 400:
            first = words(sentence)[:2]
            at = best.find(first[0]) if first else 0
            best = best[max(0, at - 100):max(0, at - 100) + 400]
        return best


def parse_named(arg):
    if "=" in arg and not os.path.exists(arg):
        name, path = arg.split("=", 1)
        return name, path
    return os.path.basename(arg), arg


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("stored", nargs="+", help="NAME=STORED.jsonl")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("--seed", type=int, default=16)
    ap.add_argument("--source", action="append", default=[], help="NAME=DUMP.xml.bz2")
    ap.add_argument("--flagged", help="write every flagged sentence here (JSON lines)")
    ap.add_argument("--only", nargs="+", choices=list(CHECKS), help="run only these checks")
    args = ap.parse_args()
    if args.examples < 0:
        ap.error("--examples must be >= 0")
    checks = [c for c in CHECKS if not args.only or c in args.only]
    stored = [parse_named(a) for a in args.stored]
    for _, path in stored:
        if not os.path.isfile(path):
            print(f"sentence_sweep: {path}: no such file", file=sys.stderr)
            return 2
    sources = {}
    try:
        for a in args.source:
            name, path = parse_named(a)
            sources[name] = Sources(path)
        flagged_out = open(args.flagged, "w", encoding="utf-8") if args.flagged else None
        totals, hits = {}, {}
        for name, path in stored:
            totals[name] = 0
            hits[name] = {c: [] for c in checks}
            for title, p, i, sent in read_stored(name, path):
                totals[name] += 1
                found = [c for c in checks if CHECKS[c][0](sent)]
                for c in found:
                    hits[name][c].append((title, p, i, sent))
                if found and flagged_out:
                    row = {"dump": name, "page": title, "paragraph": p, "index": i,
                           "sentence": sent, "checks": found}
                    if name in sources:
                        row["source"] = sources[name].line(title, sent)
                    flagged_out.write(json.dumps(row, ensure_ascii=False) + "\n")
        if flagged_out:
            flagged_out.close()
    except BadInput as e:
        print(f"sentence_sweep: {e}", file=sys.stderr)
        return 3
    except (OSError, ET.ParseError, EOFError) as e:
        print(f"sentence_sweep: {e}", file=sys.stderr)
        return 4
    print_table(stored, checks, totals, hits)
    print_examples(stored, checks, hits, sources, args)
    return 0


def print_table(stored, checks, totals, hits):
    names = [n for n, _ in stored]
    print("| check | " + " | ".join(escape(n) for n in names) + " |")
    print("|---|" + "---:|" * len(names))
    print("| sentences | " + " | ".join(f"{totals[n]:,}" for n in names) + " |")
    for c in checks:
        cells = []
        for n in names:
            k = len(hits[n][c])
            cells.append(f"{k:,} ({100.0 * k / totals[n]:.2f}%)" if totals[n] else "0")
        print(f"| {c} | " + " | ".join(cells) + " |")


def print_examples(stored, checks, hits, sources, args):
    if not args.examples:
        return
    for c in checks:
        if not any(hits[n][c] for n, _ in stored):
            continue
        print(f"\n## {c}: {CHECKS[c][1]}")
        for n, _ in stored:
            rows = hits[n][c]
            if not rows:
                continue
            k = min(args.examples, len(rows))
            pick = sorted(random.Random(args.seed).sample(range(len(rows)), k))
            for j in pick:
                title, p, i, sent = rows[j]
                print(f"  [{escape(n)}] {escape(title)} ¶{p}.{i}: {escape(sent)}")
                if n in sources:
                    print(f"      source: {escape(sources[n].line(title, sent))}")


if __name__ == "__main__":
    sys.exit(main())

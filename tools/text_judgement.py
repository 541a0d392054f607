#!/usr/bin/python3
"""Blind judgement of stored sentences against their wikitext (docs/text.md, Held-out judgement).

Usage:
  tools/text_judgement.py sample --stored STORED.jsonl --dump DUMP.xml.bz2 [--n 160] [--seed 16]
                                 --out TODO.jsonl
  tools/text_judgement.py summarize --stored STORED.jsonl [--set-aside PAGE ...] JUDGED.jsonl

STORED.jsonl is `aligndb show --all --format jsonl` of the ingested dump. `sample` draws --n
sentences uniformly at random without replacement from all stored sentences (Python's
random.Random(--seed).sample over the sentences in stored order; Default: 160, seed 16) and
writes one JSON line per sentence: page, paragraph and sentence index, the sentence, and — to
help the judge find it — the wikitext line of that page sharing most of its words (`source`).
The judge adds `verdict` and `note` and drops `source`. Verdicts:

  clean        reads exactly as Wikipedia renders it (references and footnote marks aside)
  text_lost    words shown on Wikipedia are missing (the note says which template or markup)
  residue      markup left in the text
  merged       two sentences (or a sentence and a heading, caption, …) stored as one
  cut          one sentence stored as two (the note says where it was cut)
  not_prose    a list item heading, caption, navigation or table text stored as prose
  stray_punct  punctuation or spacing left by removed markup: "( ;", "(,", " ,", "()"

`summarize` prints the share of each verdict (with a Wilson 95% interval for `clean`), and
counts over all stored sentences the stray-punctuation and residue patterns below. --set-aside
names pages whose source file is damaged (not wikitext as Wikipedia has it): their sentences
are left out of both, and their own counts printed apart. Leaving a page out of a uniform sample
leaves a uniform sample of the other pages' sentences.
"""
import argparse
import collections
import json
import math
import os
import random
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_mwparser import read_pages  # noqa: E402

TOKEN = re.compile(r"[^\W_]+")
VERDICTS = ["clean", "text_lost", "residue", "merged", "cut", "not_prose", "stray_punct"]

# Left by removed markup; each a regular expression over one sentence.
STRAY = {
    "( followed by ; , :": r"\(\s*[;,:]",
    "; or , before )": r"[;,]\s*\)",
    "empty ()": r"\(\s*\)",
    "; ; or , ,": r"[;,]\s*[;,]",
    # A colon spaced in the source ("S : N → N", French "amoureux : pour") is kept: only a
    # space between other punctuation and a colon ("helium, :") is a remnant.
    "space before , ; . ) (or : after , ; ( )": r"\s[,;)]|\w\s+\.(\s|$)|[,;(]\s+:",
    "two spaces": r"\S  +\S",
}
RESIDUE = ["{{", "}}", "[[", "]]", "{|", "|}", "|", "<ref", "</", "<!--", "&nbsp;", "&amp;",
           "''", "__TOC__", "thumb|", "Category:", "File:", "Image:", "<br", "<span", "/>"]
# The bars of a rendered formula are not markup: an absolute value or norm of one character or
# of a term holding a non-word character ("|x|", "|f(x)|²"), a ket or a bra ("|α⟩", "⟨φ|").
# "|200px|" or "|left|" between bars stays residue.
FORMULA_BARS = re.compile(r'\|[^\s|="]+⟩|⟨[^\s|="]+\||\|(?![-+]\|)(?:[^\W\d_]|[^\s|="]*[^\w\s|="][^\s|="]*)\|')


def has_residue(s, pattern):
    return pattern in (FORMULA_BARS.sub("", s) if "|" in pattern else s)


def tokens(text):
    return [t.casefold() for t in TOKEN.findall(text)]


def stored_sentences(path):
    for line in open(path, encoding="utf-8"):
        doc = json.loads(line)
        for p, para in enumerate(doc["paragraphs"]):
            for s, sent in enumerate(para):
                yield doc["title"], p, s, sent


def best_line(wikitext, sentence):
    """The wikitext line (cut to about 600 characters around the best window) sharing most
    of the sentence's words."""
    want = collections.Counter(tokens(sentence))
    best, score = "", -1
    for line in wikitext.split("\n"):
        o = sum((collections.Counter(tokens(line)) & want).values())
        if o > score:
            best, score = line, o
    if len(best) > 600:
        first = tokens(sentence)[:3]
        at = best.lower().find(first[0]) if first else 0
        best = best[max(0, at - 150):max(0, at - 150) + 600]
    return best


def cmd_sample(args):
    sents = list(stored_sentences(args.stored))
    pick = sorted(random.Random(args.seed).sample(range(len(sents)), args.n))
    pages = dict(read_pages(args.dump))
    with open(args.out, "w", encoding="utf-8") as out:
        for i in pick:
            title, p, s, sent = sents[i]
            row = {"page": title, "paragraph": p, "index": s, "sentence": sent,
                   "source": best_line(pages.get(title, ""), sent)}
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"{args.out}: {len(pick)} of {len(sents)} sentences", file=sys.stderr)


def wilson(k, n, z=1.96):
    if n == 0:
        return 0.0, 0.0
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def cmd_summarize(args):
    aside = set(args.set_aside)
    rows = [json.loads(line) for line in open(args.judged, encoding="utf-8") if line.strip()]
    if aside:
        out = [r for r in rows if r["page"] in aside]
        rows = [r for r in rows if r["page"] not in aside]
        print(f"set aside: {len(out)} judged sentences of {sorted(aside)}: " +
              ", ".join(f"{v} {n}" for v, n in
                        collections.Counter(r["verdict"] for r in out).most_common()))
    bad = [r for r in rows if r.get("verdict") not in VERDICTS]
    if bad:
        sys.exit(f"{args.judged}: {len(bad)} rows without a known verdict, first: {bad[0]}")
    n = len(rows)
    counts = collections.Counter(r["verdict"] for r in rows)
    lo, hi = wilson(counts["clean"], n)
    print(f"judged sentences: {n} from {len({r['page'] for r in rows})} pages")
    print("| verdict | sentences | share |")
    print("|---|---:|---:|")
    for v in VERDICTS:
        print(f"| {v} | {counts[v]} | {100 * counts[v] / n:.1f}% |")
    print(f"\nclean: {100 * counts['clean'] / n:.1f}% (Wilson 95% interval "
          f"{100 * lo:.1f}–{100 * hi:.1f}%)")

    every = list(stored_sentences(args.stored))
    sents = [s for t, _, _, s in every if t not in aside]
    if aside:
        held = [s for t, _, _, s in every if t in aside]
        print(f"\nset aside: {len(held)} stored sentences, stray punctuation in "
              f"{sum(any(re.search(rx, s) for rx in STRAY.values()) for s in held)}, residue in "
              f"{sum(any(has_residue(s, p) for p in RESIDUE) for s in held)}")
    print(f"\nover all {len(sents)} stored sentences:")
    any_stray = [s for s in sents if any(re.search(rx, s) for rx in STRAY.values())]
    for name, rx in STRAY.items():
        hits = [s for s in sents if re.search(rx, s)]
        print(f"  stray {name}: {len(hits)}")
        for s in hits[:args.examples]:
            m = re.search(rx, s)
            print(f"      …{s[max(0, m.start() - 40):m.end() + 30]!r}…")
    print(f"  stray punctuation, any pattern: {len(any_stray)} "
          f"({100 * len(any_stray) / max(1, len(sents)):.2f}%)")
    dirty = [s for s in sents if any(has_residue(s, p) for p in RESIDUE)]
    for p in RESIDUE:
        hits = [s for s in sents if has_residue(s, p)]
        if hits:
            print(f"  residue {p!r}: {len(hits)}")
            for s in hits[:args.examples]:
                k = s.find(p)
                print(f"      …{s[max(0, k - 40):k + 40]!r}…")
    print(f"  residue, any pattern: {len(dirty)} ({100 * len(dirty) / max(1, len(sents)):.2f}%)")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("sample")
    s.add_argument("--stored", required=True)
    s.add_argument("--dump", required=True)
    s.add_argument("--n", type=int, default=160)
    s.add_argument("--seed", type=int, default=16)
    s.add_argument("--out", required=True)
    m = sub.add_parser("summarize")
    m.add_argument("--stored", required=True)
    m.add_argument("--examples", type=int, default=3)
    m.add_argument("--set-aside", nargs="*", default=[])
    m.add_argument("judged")
    args = ap.parse_args()
    cmd_sample(args) if args.cmd == "sample" else cmd_summarize(args)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Makes the hostile inputs of the bad-input campaign (tools/campaign/run.sh) on the fly.

Usage: gen.py KIND OUT [key=value ...]
Every input is small and deterministic unless its KIND says "big". Nothing here is committed as
data: run.sh calls this script for each case. KINDs are listed in GEN below.
"""
import bz2
import ctypes
import json
import os
import random
import sys

HEADER = ('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10">\n'
          '  <siteinfo>\n    <sitename>Wikipedia</sitename>\n    <dbname>{db}</dbname>\n'
          '  </siteinfo>\n')
FOOTER = '</mediawiki>\n'
WORDS = ("the of river city people live north south small large water mountain school "
         "language music history king war year church village train road").split()


def sentence(rng, n=12):
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def paragraph(rng, k=4):
    return " ".join(sentence(rng) for _ in range(k))


def page(title, pid, text, rev=None, ns="0", extra=""):
    if isinstance(pid, int) and pid > 0:
        pid += 9000000  # far above the page ids of the bundled samples
    rev = rev if rev is not None else (int(pid) * 10 if str(pid).lstrip("-").isdigit() else 7)
    return (f"  <page>\n    <title>{title}</title>\n    <ns>{ns}</ns>\n    <id>{pid}</id>\n{extra}"
            f"    <revision>\n      <id>{rev}</id>\n      <timestamp>2024-01-01T00:00:00Z"
            f"</timestamp>\n      <text xml:space=\"preserve\">{text}</text>\n"
            f"    </revision>\n  </page>\n")


def good_pages(n, prefix, seed=1, start=1000):
    rng = random.Random(seed)
    return "".join(page(f"{prefix} {i}", start + i, paragraph(rng) + "\n\n" + paragraph(rng))
                   for i in range(n))


def dump(db="enwiki", body=None, n=3, prefix="Zq", footer=True):
    body = good_pages(n, prefix) if body is None else body
    return HEADER.format(db=db) + body + (FOOTER if footer else "")


def write(out, data, compress=False):
    if isinstance(data, str):
        data = data.encode("utf-8")
    if compress or out.endswith(".bz2"):
        data = bz2.compress(data)
    with open(out, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- XML dumps (KIND -> text)
def xml_kinds(a):
    db, p = a.get("db", "enwiki"), a.get("prefix", "Zq")
    rng = random.Random(7)
    good = dump(db, n=3, prefix=p)
    bomb_dtd = ('<?xml version="1.0"?>\n<!DOCTYPE lolz [<!ENTITY lol "lololololololololol">'
                + "".join(f'<!ENTITY lol{i} "{("&lol%s;" % (i - 1 if i > 1 else "")) * 10}">'
                          for i in range(1, 10)) + ']>\n')
    return {
        "good": good,
        "empty": "",
        "whitespace": "   \n\n  ",
        "truncated": good[: len(good) // 2],
        "truncated-in-tag": good[: good.index("<text") + 3],
        "header-only": HEADER.format(db=db),
        "no-close": dump(db, n=3, prefix=p, footer=False),
        "wrong-root": good.replace("<mediawiki", "<wikimedia").replace("</mediawiki>",
                                                                        "</wikimedia>"),
        "html": "<html><body><p>not a dump</p></body></html>\n",
        "not-xml": "this is just text, not XML at all\n" * 20,
        "binary": bytes(range(256)).decode("latin-1") * 4,
        "malformed-tag": good.replace("</title>", "</titl>", 1),
        "unclosed-page": HEADER.format(db=db) + good_pages(2, p).replace("</page>", "", 1) + FOOTER,
        "mismatched": good.replace("</revision>", "</page></revision>", 1),
        "nested-page": HEADER.format(db=db) + "  <page>\n" + good_pages(2, p) + "  </page>\n" + FOOTER,
        "page-outside-root": good_pages(2, p),
        "two-roots": good + good,
        "neg-id": dump(db, page(f"{p} neg", -5, paragraph(rng))),
        "id-23digits": dump(db, page(f"{p} big", "12345678901234567890123", paragraph(rng))),
        "id-2^64": dump(db, page(f"{p} wrap", "18446744073709551616", paragraph(rng))),
        "id-text": dump(db, page(f"{p} idtext", "abc", paragraph(rng))),
        "id-missing": dump(db, page(f"{p} noid", 1, paragraph(rng)).replace("<id>1</id>\n", "", 1)),
        "id-zero": dump(db, page(f"{p} zero", 0, paragraph(rng))),
        "rev-neg": dump(db, page(f"{p} revneg", 5, paragraph(rng), rev=-3)),
        "rev-huge": dump(db, page(f"{p} revhuge", 5, paragraph(rng), rev="99999999999999999999999")),
        "dup-titles": dump(db, page(f"{p} dup", 11, paragraph(rng)) + page(f"{p} dup", 12, paragraph(rng))),
        "dup-ids": dump(db, page(f"{p} a", 11, paragraph(rng)) + page(f"{p} b", 11, paragraph(rng))),
        "crlf": good.replace("\n", "\r\n"),
        "nul-in-text": dump(db, page(f"{p} nul", 21, "Text with a NUL \x00 byte. " + paragraph(rng))),
        "nul-in-title": dump(db, page(f"{p} n\x00ul", 22, paragraph(rng))),
        "ctrl-title": dump(db, page(f"{p} \x1b[31mred\x1b[0m \x07bell", 23, paragraph(rng))),
        "ctrl-title-entity": dump(db, page(f"{p} &#27;[31mred", 24, paragraph(rng))),
        "empty-title": dump(db, page("", 25, paragraph(rng))),
        "title-missing": dump(db, page("X", 26, paragraph(rng)).replace("<title>X</title>\n", "")),
        "title-slash": dump(db, page(f"{p}/sub/../x", 27, paragraph(rng))),
        "title-huge": dump(db, page(p + "T" * 300000, 28, paragraph(rng))),
        "ns-text": dump(db, page(f"{p} ns", 29, paragraph(rng), ns="abc")),
        "ns-huge": dump(db, page(f"{p} ns2", 30, paragraph(rng), ns="99999999999999999999")),
        "no-text": dump(db, page(f"{p} notext", 31, "").replace('<text xml:space="preserve"></text>',
                                                               '<text deleted="deleted" />')),
        "no-revision": dump(db, f"  <page>\n    <title>{p} norev</title>\n    <ns>0</ns>\n"
                                f"    <id>32</id>\n  </page>\n"),
        "many-revisions": dump(db, page(f"{p} hist", 33, paragraph(rng)).replace(
            "  </page>", "".join(f"    <revision><id>{900 + i}</id><text>{paragraph(rng)}</text>"
                                 f"</revision>\n" for i in range(50)) + "  </page>")),
        "redirect-self": dump(db, page(f"{p} self", 34, f"#REDIRECT [[{p} self]]",
                                       extra=f'    <redirect title="{p} self" />\n')),
        "redirect-loop": dump(db, page(f"{p} A", 35, f"#REDIRECT [[{p} B]]",
                                       extra=f'    <redirect title="{p} B" />\n')
                              + page(f"{p} B", 36, f"#REDIRECT [[{p} A]]",
                                     extra=f'    <redirect title="{p} A" />\n')),
        "entity-bomb": bomb_dtd + good.replace("</text>", "&lol9;</text>", 1),
        "entity-xxe": '<?xml version="1.0"?>\n<!DOCTYPE m [<!ENTITY x SYSTEM "file:///etc/passwd">]>\n'
                      + good.replace("</text>", "&x;</text>", 1),
        "entity-undefined": good.replace("</text>", "&nosuch;</text>", 1),
        "entity-bad-charref": good.replace("</text>", "&#0;&#xFFFFFFFF;&#55296;</text>", 1),
        "cdata": good.replace("</text>", "<![CDATA[ <b>raw</b> ]]></text>", 1),
        "bom": "\ufeff" + good,
        "utf16-decl": '<?xml version="1.0" encoding="UTF-16"?>\n' + good,
        "latin1-decl": '<?xml version="1.0" encoding="ISO-8859-1"?>\n' + good,
        "deep-elements": dump(db, page(f"{p} deep", 37, "x").replace(
            "<ns>0</ns>", "<ns>0</ns>" + "<a>" * 100000 + "</a>" * 100000)),
        "wikitext-template-bomb": dump(db, page(f"{p} tpl", 38, "{{" * 50000 + "x" + "}}" * 50000)),
        "wikitext-unclosed": dump(db, page(f"{p} unc", 39, "{{" * 20000 + "[[" * 20000 + "{|" * 5000
                                           + "&lt;ref&gt;" * 5000 + "'''" * 5000)),
        "wikitext-long-line": dump(db, page(f"{p} line", 40, "a" * 3000000)),
        "wikitext-many-paragraphs": dump(db, page(f"{p} paras", 41, "\n\n".join(
            "Short para number %d here." % i for i in range(100000)))),
        "huge-attr": good.replace("<page>", "<page a=\"" + "x" * 2000000 + "\">", 1),
        "dbname-script": dump("&lt;script&gt;alert(1)&lt;/script&gt;", n=2, prefix=p),
        "dbname-slash": dump("en/../wiki", n=2, prefix=p),
        "dbname-empty": dump("", n=2, prefix=p),
        "dbname-huge": dump("w" * 100000, n=2, prefix=p),
        "dbname-ctrl": dump("en\x1b[2Jwiki", n=2, prefix=p),
        "siteinfo-twice": good.replace("</siteinfo>", "</siteinfo>\n<siteinfo><dbname>other"
                                       "</dbname></siteinfo>", 1),
        "timestamp-garbage": good.replace("2024-01-01T00:00:00Z", "\x01never o'clock", 1),
    }


def xml(out, a):
    kinds = xml_kinds(a)
    data = kinds[a["variant"]]
    write(out, data)


# ---------------------------------------------------------------- bz2 damage
def bz2file(out, a):
    v = a["variant"]
    raw = dump(a.get("db", "enwiki"), n=40, prefix=a.get("prefix", "Zb")).encode()
    c = bz2.compress(raw)
    if v == "good":
        data = c
    elif v == "corrupt-middle":
        b = bytearray(c)
        for i in range(len(b) // 2, len(b) // 2 + 64):
            b[i] ^= 0x5A
        data = bytes(b)
    elif v == "corrupt-header":
        data = b"BZh0" + c[4:]
    elif v == "truncated":
        data = c[: len(c) * 2 // 3]
    elif v == "not-bz2":
        data = raw
    elif v == "empty":
        data = b""
    elif v == "empty-stream":
        data = bz2.compress(b"")
    elif v == "trailing-garbage":
        data = c + b"GARBAGE" * 100
    elif v == "gzip":
        import gzip
        data = gzip.compress(raw)
    elif v == "bomb":  # big: 300 MB of text in one page from a small file
        comp = bz2.BZ2Compressor(9)
        parts = [comp.compress(HEADER.format(db="enwiki").encode() + b"  <page>\n    <title>Zb bomb"
                               b"</title>\n    <ns>0</ns>\n    <id>5</id>\n    <revision>\n"
                               b"      <id>9</id>\n      <text>")]
        chunk = b"word " * 200000
        for _ in range(300):
            parts.append(comp.compress(chunk))
        parts.append(comp.compress(b"</text>\n    </revision>\n  </page>\n" + FOOTER.encode()))
        parts.append(comp.flush())
        data = b"".join(parts)
    else:
        raise SystemExit("unknown bz2 variant " + v)
    with open(out, "wb") as f:
        f.write(data)


# ---------------------------------------------------------------- multistream + index
def multistream(out, a):
    """out is a prefix: writes OUT.xml.bz2 and OUT-index.txt.bz2 with a variant applied."""
    v = a.get("variant", "good")
    n, per = int(a.get("pages", 30)), 10
    rng = random.Random(int(a.get("seed", 3)))
    prefix = a.get("prefix", "Zm")
    pages = [page(f"{prefix} {i}", 5000 + i, paragraph(rng)) for i in range(n)]
    streams = [HEADER.format(db=a.get("db", "enwiki")).encode()]
    groups = [pages[i:i + per] for i in range(0, n, per)]
    for g in groups:
        streams.append("".join(g).encode())
    streams.append(FOOTER.encode())
    blocks = [bz2.compress(s) for s in streams]
    offsets, off = [], 0
    for b in blocks:
        offsets.append(off)
        off += len(b)
    lines = []
    for gi, g in enumerate(groups):
        for k in range(len(g)):
            i = gi * per + k
            lines.append(f"{offsets[gi + 1]}:{5000 + i}:{prefix} {i}")
    if v == "wrong-offsets":
        lines = [f"{int(l.split(':')[0]) + 7}:" + l.split(":", 1)[1] for l in lines]
    elif v == "offset-beyond":
        lines[-1] = "999999999:1:Beyond"
    elif v == "offset-negative":
        lines[0] = "-5:" + lines[0].split(":", 1)[1]
    elif v == "offset-huge":
        lines[0] = "123456789012345678901234:" + lines[0].split(":", 1)[1]
    elif v == "garbage-lines":
        lines.insert(3, "this is not an index line")
    elif v == "missing-title":
        lines[2] = lines[2].rsplit(":", 1)[0]
    elif v == "truncated":
        lines = lines[: len(lines) // 2]
    elif v == "empty":
        lines = []
    elif v == "unsorted":
        lines = list(reversed(lines))
    elif v == "foreign":  # index of another dump (different stream sizes)
        other = [bz2.compress(("x" * (len(s) + 999)).encode()) for s in streams]
        o, offs = 0, []
        for b in other:
            offs.append(o)
            o += len(b)
        lines = [f"{offs[1 + j // per]}:{9000 + j}:Other {j}" for j in range(n)]
    elif v == "corrupt-stream":
        b = bytearray(blocks[2])
        for i in range(20, min(len(b), 84)):
            b[i] ^= 0x33
        blocks[2] = bytes(b)
    elif v == "truncated-dump":
        pass
    data = b"".join(blocks)
    if v == "truncated-dump":
        data = data[: offsets[2] + len(blocks[2]) // 2]
    open(out + ".xml.bz2", "wb").write(data)
    idx = ("\n".join(lines) + ("\n" if lines else "")).encode()
    if v == "index-not-bz2":
        open(out + "-index.txt.bz2", "wb").write(idx)
    elif v == "index-corrupt-bz2":
        c = bytearray(bz2.compress(idx))
        for i in range(len(c) // 2, len(c) // 2 + 32):
            c[i] ^= 0x77
        open(out + "-index.txt.bz2", "wb").write(bytes(c))
    else:
        open(out + "-index.txt.bz2", "wb").write(bz2.compress(idx))


# ---------------------------------------------------------------- JSON lines (wiki documents)
def jsonl(out, a):
    v = a["variant"]
    p = a.get("prefix", "Zj")
    rng = random.Random(11)

    def doc(title, **kw):
        d = {"title": title, "text": paragraph(rng) + "\n" + paragraph(rng)}
        d.update(kw)
        return json.dumps(d)

    good = [doc(f"{p} {i}", id=7000 + i, revision=70 + i) for i in range(3)]
    L = {
        "good": good,
        "empty": [],
        "blank-lines": ["", good[0], "   ", "", good[1]],
        "invalid-json": [good[0], '{"title": "broken", "text": ', good[1]],
        "truncated-last": good[:2] + [good[2][: len(good[2]) // 2]],
        "not-object": [good[0], "[1, 2, 3]", '"a string"'],
        "title-missing": [good[0], json.dumps({"text": "no title here."})],
        "title-number": [json.dumps({"title": 5, "text": "x."})],
        "title-empty": [doc("")],
        "title-ctrl": [doc(f"{p} \x1b[31mred\x1b[0m\x07\x08")],
        "title-slash": [doc(f"{p}/a/../b")],
        "title-huge": [doc(p + "T" * 500000)],
        "id-negative": [doc(f"{p} neg", id=-5)],
        "id-23digits": [doc(f"{p} big", id=12345678901234567890123)],
        "id-23digits-string": [doc(f"{p} bigs", id="12345678901234567890123")],
        "id-float": [doc(f"{p} float", id=1.5)],
        "id-nan-string": [doc(f"{p} nan", id="nan")],
        "revision-negative": [doc(f"{p} revneg", revision=-1)],
        "dup-titles": [doc(f"{p} dup", id=1), doc(f"{p} dup", id=2)],
        "dup-titles-noid": [doc(f"{p} dup2"), doc(f"{p} dup2")],
        "crlf": [g + "\r" for g in good],
        "bom": ["\ufeff" + good[0]] + good[1:],
        "nul": [doc(f"{p} nul\x00x"), doc(f"{p} nul2", text="a\x00b. c.")],
        "paragraphs-bad": [json.dumps({"title": f"{p} pb", "paragraphs": "not an array"})],
        "paragraphs-nested-bad": [json.dumps({"title": f"{p} pn", "paragraphs": [[1, 2]]})],
        "paragraphs-empty": [json.dumps({"title": f"{p} pe", "paragraphs": []})],
        "flags-bad": [json.dumps({"title": f"{p} fb", "text": "x.", "flags": [1]})],
        "no-text": [json.dumps({"title": f"{p} nt"})],
        "text-number": [json.dumps({"title": f"{p} tn", "text": 5})],
        "deep-nesting": ['{"title": "deep", "text": "x", "extra": ' + "[" * 200000 + "]" * 200000 + "}"],
        "huge-number": ['{"title": "hn", "text": "x.", "revision": 1e999}'],
        "many-small": [doc(f"{p} m{i}") for i in range(5000)],
        "wide-paragraphs": [json.dumps({"title": f"{p} wide", "paragraphs": [["Sentence %d here." % i
                                                                             for i in range(20000)]]})],
        "hostile-report": [json.dumps({"title": "<script>alert(1)</script> | `x` [a](javascript:b)",
                                       "text": "\n".join(
                                           "<script>alert(2)</script> " + paragraph(random.Random(i))
                                           + " | pipes | <img src=x onerror=alert(3)> "
                                           + paragraph(random.Random(i + 50)) for i in range(6))})],
    }
    if v in L:
        lines = L[v]
        data = "".join(l + "\n" for l in lines)
        if v == "crlf":
            data = "".join(l + "\n" for l in lines)
        write(out, data)
        return
    if v == "invalid-utf8":
        open(out, "wb").write(good[0].encode() + b"\n" + b'{"title": "bad \xff\xfe utf8", "text": "x."}\n')
    elif v == "invalid-utf8-text":
        open(out, "wb").write(b'{"title": "Zj badtext", "text": "caf\xe9 \xc3\x28 ok."}\n')
    elif v == "huge-line":  # big: one 60 MB line
        with open(out, "w") as f:
            f.write('{"title": "Zj huge", "text": "')
            for i in range(60):  # 60 paragraphs of 1 MB
                f.write(("the river city people live north. " * 30000) + f"Paragraph {i} ends.\\n")
            f.write('"}\n')
    else:
        raise SystemExit("unknown jsonl variant " + v)


# ---------------------------------------------------------------- news clusters
def clusters(out, a):
    v = a["variant"]
    rng = random.Random(5)
    lines = []
    if v in ("good", "many"):
        nc = 3 if v == "good" else 200
        for c in range(nc):
            base = sentence(rng, 14)
            for d in range(4):
                s = base.split()
                s[rng.randrange(len(s))] = rng.choice(WORDS)
                lines.append({"cluster": f"c{c}", "doc": f"d{d}",
                              "sentences": [" ".join(s), sentence(rng), sentence(rng)]})
    elif v == "big-cluster":  # one cluster of 3000 documents x 5 sentences (~1.2 MB)
        for d in range(3000):
            lines.append({"cluster": "big", "doc": d, "sentences": [sentence(rng, 14) for _ in range(5)]})
    elif v == "cluster-number":
        lines = [{"cluster": 5, "doc": "a", "sentences": ["x y z."]}]
    elif v == "doc-missing":
        lines = [{"cluster": "c", "sentences": ["x y z."]}]
    elif v == "sentences-not-array":
        lines = [{"cluster": "c", "doc": "a", "sentences": "x y z."}]
    elif v == "sentence-not-string":
        lines = [{"cluster": "c", "doc": "a", "sentences": [None, 3]}]
    elif v == "no-text":
        lines = [{"cluster": "c", "doc": "a"}]
    elif v == "cluster-slash":
        lines = [{"cluster": "a/b", "doc": "c/d", "sentences": ["one two three four."]},
                 {"cluster": "a", "doc": "b/c/d", "sentences": ["one two three five."]}]
    elif v == "empty-sentences":
        lines = [{"cluster": "c", "doc": str(d), "sentences": ["", " ", "\u200b"]} for d in range(5)]
    elif v == "long-sentence":
        lines = [{"cluster": "c", "doc": str(d), "sentences": [" ".join(rng.choice(WORDS) for _ in range(20000))]}
                 for d in range(4)]
    else:
        raise SystemExit("unknown clusters variant " + v)
    write(out, "".join(json.dumps(l) + "\n" for l in lines))


# ---------------------------------------------------------------- stand-alone command inputs
def text(out, a):
    v = a["variant"]
    nt = int(a.get("n", 3000))
    rng = random.Random(9)
    T = {
        "pairs": "the cat sat on the mat\ta cat sat on a mat\nhello world\tgoodbye world\n",
        "pairs-labelled": "".join(f"{sentence(rng, 8)}\t{sentence(rng, 8)}\t{i % 2}\n" for i in range(40)),
        "pairs-one-class": "".join(f"{sentence(rng, 8)}\t{sentence(rng, 8)}\t1\n" for i in range(20)),
        "pairs-bad-label": "a b c\td e f\tmaybe\nx y\tz w\tnan\n",
        "no-tab": "just one column here\nand another\n",
        "empty": "",
        "one-column-tab": "\t\n\t\n",
        "many-columns": "a\tb\tc\td\te\tf\tg\n",
        "crlf": "the cat\ta cat\r\nhello\tworld\r\n",
        "nul": "the cat\x00\ta cat\nx\ty\n",
        "long-line": "word " * 400000 + "\t" + "word " * 400000 + "\n",
        "many-tokens-pair": " ".join(f"w{i}" for i in range(nt)) + "\t" + " ".join(f"w{i}" for i in range(nt)) + "\n",
        "lines3": "a b c\nd e f\ng h i\n",
        "lines2": "a b c\nd e f\n",
        "msrp-header-only": "\ufeffQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n",
        "links-good": "0-0 1-1 2-2\n0-0\n",
        "links-bad": "0-0 a-b 1-\n0-0\n",
        "links-neg": "-1-0 0--3\n0-0\n",
        "links-huge": "99999999999999999999-1 0-4294967296\n0-0\n",
        "gold-lines": "0-0 1-1 2-2p\n0-0\n",
        "gold-json-bad": '[{"source": "a b", "target": "c d", "sureAlign": "0-0"',
        "gold-json-wrongtype": '{"not": "a list"}',
        "gold-json-fields": '[{"source": 5, "target": null, "sureAlign": 7}]',
        "gold-json-oob": '[{"source": "a b", "target": "c d", "sureAlign": "0-0 55-77", "possibleAlign": ""}]',
        "vec-good": "3 2\nthe 0.1 0.2\ncat 0.3 0.4\nmat 0.5 0.6\n",
        "vec-bad-dims": "3 2\nthe 0.1 0.2 0.3 0.4\ncat 0.3\nmat x y\n",
        "vec-header-huge": "999999999999 999999999\nthe 0.1 0.2\n",
        "vec-header-dim-huge": "1 2000000000\nthe 0.1 0.2\n",
        "vec-nan": "2 2\nthe nan inf\ncat -inf 1e999\n",
        "vec-zero-dim": "2 0\nthe\ncat\n",
        "vec-garbage": "\x00\x01\x02 garbage \xff\n" * 10,
        "vec-empty": "",
        "vec-count-short": "100 2\nthe 0.1 0.2\n",
        "vec-bin-truncated": "5 4\nthe \x00\x00\x80",
    }
    data = T[v]
    if v in ("vec-garbage", "vec-bin-truncated"):
        open(out, "wb").write(data.encode("latin-1"))
    else:
        write(out, data)


def invalid_utf8_pairs(out, a):
    open(out, "wb").write(b"caf\xe9 \xff\xfe\tcafe \xc3\x28\nok ok\tok ok\n")


def foreign_rocksdb(out, a):
    """A RocksDB directory that is not an aligndb database, made through the RocksDB C API."""
    lib = ctypes.CDLL("librocksdb.so")
    lib.rocksdb_options_create.restype = ctypes.c_void_p
    lib.rocksdb_open.restype = ctypes.c_void_p
    lib.rocksdb_open.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.POINTER(ctypes.c_char_p)]
    lib.rocksdb_writeoptions_create.restype = ctypes.c_void_p
    lib.rocksdb_put.argtypes = [ctypes.c_void_p, ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t,
                                ctypes.c_char_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_char_p)]
    lib.rocksdb_options_set_create_if_missing.argtypes = [ctypes.c_void_p, ctypes.c_ubyte]
    lib.rocksdb_close.argtypes = [ctypes.c_void_p]
    opts = lib.rocksdb_options_create()
    lib.rocksdb_options_set_create_if_missing(opts, 1)
    err = ctypes.c_char_p()
    db = lib.rocksdb_open(opts, out.encode(), ctypes.byref(err))
    if err.value:
        raise SystemExit(err.value.decode())
    wo = lib.rocksdb_writeoptions_create()
    for i in range(100):
        k, v = f"user-key-{i}".encode(), f"precious value {i}".encode()
        lib.rocksdb_put(db, wo, k, len(k), v, len(v), ctypes.byref(err))
    lib.rocksdb_close(db)


def corrupt_sst(out, a):
    """Flips bytes in the middle of every .sst file of the database directory OUT."""
    n = 0
    for name in sorted(os.listdir(out)):
        if name.endswith(".sst"):
            path = os.path.join(out, name)
            with open(path, "r+b") as f:
                size = os.path.getsize(path)
                f.seek(size // 3)
                blob = bytearray(f.read(256))
                for i in range(len(blob)):
                    blob[i] ^= 0xA5
                f.seek(size // 3)
                f.write(blob)
            n += 1
    print(n)


GEN = {"xml": xml, "bz2": bz2file, "multistream": multistream, "jsonl": jsonl,
       "clusters": clusters, "text": text, "invalid-utf8-pairs": invalid_utf8_pairs,
       "foreign-rocksdb": foreign_rocksdb, "corrupt-sst": corrupt_sst}


def main():
    kind, out = sys.argv[1], sys.argv[2]
    a = dict(kv.split("=", 1) for kv in sys.argv[3:])
    if kind == "list-xml":
        print("\n".join(xml_kinds({})))
        return
    GEN[kind](out, a)


if __name__ == "__main__":
    main()

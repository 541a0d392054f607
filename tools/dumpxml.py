"""Shared helpers of the dump tools: open any .xml/.xml.gz/.xml.bz2, iterate pages, write pages."""
import bz2
import gzip
import hashlib
import html
import xml.etree.ElementTree as ET


def open_any(path, mode="rb"):
    if path.endswith(".bz2"):
        return bz2.open(path, mode, **({"encoding": "utf-8"} if "t" in mode else {}))
    if path.endswith(".gz"):
        return gzip.open(path, mode, **({"encoding": "utf-8"} if "t" in mode else {}))
    return open(path, mode, **({"encoding": "utf-8"} if "t" in mode else {}))


def pages(path):
    """Yields (dbname, page) for every <page>; page is a dict with title, ns, id, redirect
    (target or None) and revisions, a list of dicts (id, timestamp, text)."""
    dbname = ""
    with open_any(path) as f:
        for _, el in ET.iterparse(f):
            tag = el.tag.rsplit("}", 1)[-1]
            if tag == "dbname":
                dbname = el.text or ""
            if tag != "page":
                continue
            red = el.find("{*}redirect")
            revs = []
            for r in el.findall("{*}revision"):
                t = r.find("{*}text")
                revs.append({"id": int(r.find("{*}id").text),
                             "timestamp": (r.findtext("{*}timestamp") or ""),
                             "text": (t.text or "") if t is not None else ""})
            yield dbname, {"title": el.findtext("{*}title"), "ns": int(el.findtext("{*}ns") or 0),
                           "id": int(el.findtext("{*}id")),
                           "redirect": red.get("title") if red is not None else None,
                           "revisions": revs}
            el.clear()


def header(dbname):
    return ('<mediawiki xmlns="http://www.mediawiki.org/xml/export-0.10/" version="0.10" '
            f'xml:lang="en">\n  <siteinfo>\n    <sitename>Wikipedia</sitename>\n'
            f'    <dbname>{html.escape(dbname)}</dbname>\n    <case>first-letter</case>\n'
            '  </siteinfo>\n')


def sha1_base36(text):
    n = int(hashlib.sha1(text.encode("utf-8")).hexdigest(), 16)
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while n:
        n, r = divmod(n, 36)
        out = digits[r] + out
    return out.rjust(31, "0")


def page_xml(page, revisions, stub=False):
    """One <page> element with the given revisions (dicts id, timestamp, text)."""
    e = lambda s: html.escape(s, quote=False)
    out = [f"  <page>\n    <title>{e(page['title'])}</title>\n    <ns>{page['ns']}</ns>\n"
           f"    <id>{page['id']}</id>\n"]
    if page["redirect"] is not None:
        out.append(f'    <redirect title="{html.escape(page["redirect"])}" />\n')
    for r in revisions:
        out.append(f"    <revision>\n      <id>{r['id']}</id>\n"
                   f"      <timestamp>{r['timestamp']}</timestamp>\n"
                   "      <model>wikitext</model>\n      <format>text/x-wiki</format>\n")
        data = r["text"].encode("utf-8")
        if stub:
            out.append(f'      <text bytes="{len(data)}" sha1="{sha1_base36(r["text"])}" '
                       f'id="{r["id"]}" />\n')
        else:
            out.append(f'      <text bytes="{len(data)}" xml:space="preserve">{e(r["text"])}</text>\n')
        out.append(f"      <sha1>{sha1_base36(r['text'])}</sha1>\n    </revision>\n")
    out.append("  </page>\n")
    return "".join(out)


def write_dump(out_path, in_path, page_to_xml):
    """Writes a dump to out_path (compressed by its extension): the header of in_path's dbname,
    then page_to_xml(page) for every page of in_path (a falsy result writes nothing). Returns how
    many pages were written."""
    n = 0
    with open_any(out_path, "wt") as out:
        started = False
        for dbname, page in pages(in_path):
            if not started:
                out.write(header(dbname))
                started = True
            xml = page_to_xml(page)
            if xml:
                out.write(xml)
                n += 1
        if not started:
            out.write(header(""))
        out.write("</mediawiki>\n")
    return n

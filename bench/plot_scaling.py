#!/usr/bin/env python3
"""Hand-drawn SVG of time and peak RSS against input size, from bench/whole_job.sh's scaling.txt.

Usage: bench/plot_scaling.py WORKDIR/scaling.txt OUT.svg
Left panel: CPU seconds per 1,000 documents (per edition) of ref_ck.py, aligndb ingest (both
editions), align and align --all: flat lines mean linear growth. Right panel: peak RSS (MB) of
ingest and align. The last line of scaling.txt for each N is used.
"""
import sys
from html import escape


def read(path):
    rows = {}
    for line in open(path, encoding="utf-8"):
        if not line.startswith("SCALE "):
            continue
        d = dict(kv.split("=", 1) for kv in line.split()[1:])
        rows[int(d["n"])] = d
    return [rows[n] for n in sorted(rows)]


def panel(x0, title, xs, series, ymax, unit):
    w, h, left, bottom = 300, 200, 50, 30
    out = [f'<g transform="translate({x0},20)">',
           f'<text x="{left}" y="-5" font-size="12">{escape(title)}</text>',
           f'<line x1="{left}" y1="{h}" x2="{left + w}" y2="{h}" stroke="black"/>',
           f'<line x1="{left}" y1="0" x2="{left}" y2="{h}" stroke="black"/>']
    xmax = max(xs)
    px = lambda x: left + w * x / xmax
    py = lambda y: h - h * y / ymax
    for k in range(5):
        y = ymax * k / 4
        out.append(f'<text x="{left - 5}" y="{py(y) + 4:.1f}" font-size="10" '
                   f'text-anchor="end">{y:.3g}</text>')
    for x in xs:
        out.append(f'<text x="{px(x):.1f}" y="{h + 14}" font-size="10" '
                   f'text-anchor="middle">×{x}</text>')
    out.append(f'<text x="{left + w / 2}" y="{h + 28}" font-size="10" '
               f'text-anchor="middle">copies of SWiPE val ({unit})</text>')
    for i, (name, color, ys) in enumerate(series):
        pts = " ".join(f"{px(x):.1f},{py(y):.1f}" for x, y in zip(xs, ys))
        out.append(f'<polyline points="{pts}" fill="none" stroke="{color}" stroke-width="2"/>')
        for x, y in zip(xs, ys):
            out.append(f'<circle cx="{px(x):.1f}" cy="{py(y):.1f}" r="3" fill="{color}"/>')
        out.append(f'<text x="{left + w + 5}" y="{12 + 14 * i}" font-size="10" '
                   f'fill="{color}">{escape(name)}</text>')
    out.append("</g>")
    return out


def main():
    rows = read(sys.argv[1])
    xs = [int(r["n"]) for r in rows]
    per_k = lambda key: [float(r[key]) * 1000 / int(r["docs"]) for r in rows]
    t_series = [("ref_ck.py (whole job)", "#888888", per_k("ref_cpu")),
                ("aligndb ingest (2 editions)", "#1f77b4", per_k("ingest_cpu")),
                ("aligndb align", "#d62728", per_k("align_cpu")),
                ("aligndb align --all", "#2ca02c", per_k("all_cpu"))]
    tmax = max(max(s[2]) for s in t_series) * 1.15
    m_series = [("ingest", "#1f77b4", [float(r["rss_ingest"]) for r in rows]),
                ("align", "#d62728", [float(r["rss_align"]) for r in rows])]
    mmax = max(max(s[2]) for s in m_series) * 1.15
    body = panel(0, "CPU seconds per 1,000 documents", xs, t_series, tmax, "time")
    body += panel(520, "peak RSS, MB", xs, m_series, mmax, "memory")
    svg = ['<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="270" '
           'font-family="sans-serif">', '<rect width="100%" height="100%" fill="white"/>']
    svg += body + ["</svg>"]
    with open(sys.argv[2], "w", encoding="utf-8") as f:
        f.write("\n".join(svg) + "\n")


if __name__ == "__main__":
    main()

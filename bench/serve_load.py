#!/usr/bin/env python3
"""Load test of `aligndb serve` (docs/benchmarks.md, Viewer).

Starts `aligndb serve --port 0` on DB, then runs REQUESTS lookups (/api/lookup) of the
database's aligned titles from CLIENTS concurrent clients, each on one keep-alive connection,
and prints how many succeeded and the latency percentiles. The same is then done for the article
page (/article), which also reads both stored pages and renders HTML. Yardsticks measured in the
same run: the smallest request the server answers (/api/titles of an absent prefix), and one
`aligndb lookup --format json` process per lookup, which is what a user runs without the server.

Usage: bench/serve_load.py DB [--binary build/aligndb] [--requests 500] [--clients 4]
Standard library only.
"""
import argparse
import http.client
import json
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
import urllib.parse


def percentile(values, p):
    s = sorted(values)
    return s[min(len(s) - 1, max(0, int(round(p / 100.0 * len(s) + 0.5)) - 1))]


def client(args):
    """One client: its paths in turn on one keep-alive connection; (latencies in ms, failures)."""
    port, mine = args
    latencies, failures = [], []
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    for path in mine:
        t = time.perf_counter()
        try:
            conn.request("GET", path)
            resp = conn.getresponse()
            body = resp.read()
            ok = resp.status == 200 and body
        except (OSError, http.client.HTTPException) as e:
            ok, conn = False, http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            body = str(e).encode()
        ms = (time.perf_counter() - t) * 1000
        (latencies.append(ms) if ok else failures.append((path, body[:200])))
    conn.close()
    return latencies, failures


def load(port, paths, clients):
    """Requests `paths`, split over `clients` processes (not threads: the client's own work would
    queue on Python's global lock and count as server latency)."""
    with multiprocessing.Pool(clients) as pool:
        parts = pool.map(client, [(port, paths[i::clients]) for i in range(clients)])
    return [x for p in parts for x in p[0]], [x for p in parts for x in p[1]]


def report(name, latencies, failures, total):
    print(f"{name}: {len(latencies)} of {total} succeeded; "
          f"p50 {percentile(latencies, 50):.2f} ms, p99 {percentile(latencies, 99):.2f} ms, "
          f"max {max(latencies):.2f} ms")
    for path, body in failures[:5]:
        print(f"  failed: {path}: {body!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("db")
    ap.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", "build", "aligndb"))
    ap.add_argument("--requests", type=int, default=500)
    ap.add_argument("--clients", type=int, default=4)
    a = ap.parse_args()
    server = subprocess.Popen([a.binary, "serve", "--db", a.db, "--port", "0"], stdout=subprocess.PIPE,
                              text=True)
    try:
        url = server.stdout.readline().strip()
        port = int(url.rsplit(":", 1)[1].strip("/"))
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        conn.request("GET", "/api/export?min_sim=0")
        titles = sorted({json.loads(line)["simple_title"] for line in conn.getresponse().read().splitlines()})
        conn.close()
        print(f"server {url}; {len(titles)} aligned titles; {a.requests} requests from {a.clients} clients")
        lookups = [f"/api/lookup?title={urllib.parse.quote(titles[i % len(titles)])}" for i in range(a.requests)]
        # One pass over every title first, so that both measured passes read warm caches.
        load(port, lookups[: len(titles)], a.clients)
        lat, fail = load(port, lookups, a.clients)
        report("/api/lookup", lat, fail, a.requests)
        lookup_p99 = percentile(lat, 99)
        articles = [p.replace("/api/lookup", "/article") for p in lookups]
        lat, fail = load(port, articles, a.clients)
        report("/article", lat, fail, a.requests)
        small = ["/api/titles?prefix=zzzz"] * a.requests
        lat, fail = load(port, small, a.clients)
        report("yardstick /api/titles (absent prefix)", lat, fail, a.requests)
        cli = []
        for t in titles[:20]:
            s = time.perf_counter()
            subprocess.run([a.binary, "lookup", "--db", a.db, t, "--format", "json"], check=True,
                           stdout=subprocess.DEVNULL)
            cli.append((time.perf_counter() - s) * 1000)
        print(f"yardstick `aligndb lookup --format json` process, 20 titles, one at a time: "
              f"median {statistics.median(cli):.2f} ms")
        print(f"ratio: server lookup p99 / CLI lookup median = {lookup_p99 / statistics.median(cli):.3f}")
    finally:
        server.terminate()
        code = server.wait()
        print(f"server exit status after SIGTERM: {code}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env bash
# Update benchmark (docs/benchmarks.md): a newer dump with 1% of pages changed, ingested into a
# database that holds the older one, against a full ingest of the same dump.
# Usage: bench/update.sh WORKDIR [PAGES]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="$here/build/aligndb"
w="$1"; pages="${2:-2000}"
mkdir -p "$w"; cd "$w"
t() { local s=$(date +%s.%N); "$@" > /dev/null; echo "$(date +%s.%N) - $s" | bc; }

if [ ! -f v1.xml.bz2 ]; then
  python3 "$here/tools/make_scale_dump.py" --pages "$pages" --out v1.xml.bz2 --sources "$here"/data/wikidumps/enwiki-gensim-sample.xml.bz2
  python3 "$here/tools/make_scale_dump.py" --pages "$pages" --out v2.xml.bz2 --change-share 0.01 --seed 7 --sources "$here"/data/wikidumps/enwiki-gensim-sample.xml.bz2
  python3 "$here/tools/make_scale_dump.py" --pages $((pages / 4)) --out simple.xml.bz2 --dbname simplewiki \
    --sources "$here"/data/wikidumps/simplewiki-sample.xml.bz2 --titles-from v1.xml.bz2 --paired-share 0.5
  for v in v1 v2; do python3 "$here/tools/make_multistream.py" $v.xml.bz2 $v-ms.xml.bz2 $v-ms-index.txt.bz2; done
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
echo "input: $pages pages, $(bzcat v1.xml.bz2 | wc -c) bytes uncompressed, $(stat -c %s v1-ms.xml.bz2) bytes multistream"
echo "bzip2 -dc (v2 multistream): $(t bash -c 'bzip2 -dc v2-ms.xml.bz2 > /dev/null') s"
echo "lbzip2 -dc -n 2 (v2 multistream): $(t bash -c 'lbzip2 -dc -n 2 v2-ms.xml.bz2 > /dev/null') s"

rm -rf full db
echo "full ingest of v2 with --index --threads 2: $(t "$A" ingest --db full --index v2-ms-index.txt.bz2 --threads 2 v2-ms.xml.bz2) s"
"$A" ingest --db db --index v1-ms-index.txt.bz2 --threads 2 v1-ms.xml.bz2 > /dev/null
"$A" ingest --db db simple.xml.bz2 > /dev/null
echo "align (v1): $("$A" align --db db --json)"
echo "update to v2 with --index --threads 2: $(t "$A" ingest --db db --full --index v2-ms-index.txt.bz2 --threads 2 v2-ms.xml.bz2) s"
"$A" ingest --db db2 --index v1-ms-index.txt.bz2 --threads 2 v1-ms.xml.bz2 > /dev/null 2>&1 || true
echo "update summary: $("$A" ingest --db db2 --json --full --index v2-ms-index.txt.bz2 --threads 2 v2-ms.xml.bz2)"
s=$(date +%s.%N); out=$("$A" align --db db --json); e=$(date +%s.%N)
echo "align after update: $out ($(echo "$e - $s" | bc) s)"
"$A" show --db db --edition enwiki --all --format jsonl > en.jsonl
"$A" show --db db --edition simplewiki --all --format jsonl > simple.jsonl
python3 - <<'PY'
import bz2, json, re
def revs(p):
    d = bz2.open(p).read().decode()
    return dict(zip(re.findall(r"<title>(.*?)</title>", d), re.findall(r"<revision>\s*<id>(\d+)</id>", d)))
v1, v2 = revs("v1.xml.bz2"), revs("v2.xml.bz2")
flags = {}
for f in ("en.jsonl", "simple.jsonl"):
    for line in open(f):
        d = json.loads(line)
        flags[(f, d["title"])] = bool(d["flags"])
simple = {json.loads(l)["title"] for l in open("simple.jsonl")}
changed = {t for t in v2 if v1.get(t) != v2[t]}
touched = changed & simple
kept_by_filter = {t for t in touched if flags[("en.jsonl", t)] or flags[("simple.jsonl", t)]}
print(f"changed pages: {len(changed)}; touched title pairs: {len(touched)}, of which removed by the "
      f"filter: {len(kept_by_filter)}; touched pairs to re-align: {len(touched - kept_by_filter)}")
PY

#!/usr/bin/env bash
# Update benchmark (docs/benchmarks.md, "Updates"): a PAGES-page multistream dump (100 pages a
# stream), then newer versions with 1% of the pages changed, applied three ways and timed against
# a fresh ingest of the newer dump measured in the same run:
#  (a) 1% changed in one block of streams, update with --stubs;
#  (b) 1% changed at random pages, update with --stubs;
#  (c) the random 1% as one adds-changes file, applied with --changes.
# Each updated database is compared with a fresh ingest of the newer dump (`show --all`, cmp).
# Usage: bench/update.sh WORKDIR [PAGES]
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="$here/build/aligndb"
T="$here/tools"
w="$1"; pages="${2:-10000}"
mkdir -p "$w"; cd "$w"
src="$here/data/wikidumps/enwiki-gensim-sample.xml.bz2"
t() { local s=$(date +%s.%N); "$@" > /dev/null; echo "$(date +%s.%N) - $s" | bc; }
json() { "$A" ingest "$@" --json --threads 2; }
field() { python3 -c "import json,sys; print(json.loads(sys.argv[1])[sys.argv[2]])" "$1" "$2"; }
ratio() { echo "scale=4; $1 / $2" | bc; }

if [ ! -f v2r-ms.xml.bz2 ]; then
  python3 "$T/make_scale_dump.py" --pages "$pages" --out v1.xml --sources "$src"
  python3 "$T/make_scale_dump.py" --pages "$pages" --out v2b.xml --sources "$src" \
    --change-share 0.01 --change-mode block --block-start 0.5
  python3 "$T/make_scale_dump.py" --pages "$pages" --out v2r.xml --sources "$src" \
    --change-share 0.01 --seed 7
  for v in v1 v2b v2r; do python3 "$T/make_multistream.py" $v.xml $v-ms.xml.bz2 $v-index.txt.bz2; done
  python3 "$T/make_stubs.py" v2b.xml v2b-stub-articles.xml.gz
  python3 "$T/make_stubs.py" v2r.xml v2r-stub-articles.xml.gz
  python3 "$T/make_changes.py" v1.xml v2r.xml enwiki-20261121-pages-meta-hist-incr.xml.bz2
  rm -f v1.xml v2b.xml v2r.xml
fi
echo "date: $(date -u +%Y-%m-%dT%H:%MZ)"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $pages pages, $(stat -c %s v1-ms.xml.bz2) bytes multistream, $(stat -c %s enwiki-20261121-pages-meta-hist-incr.xml.bz2) bytes adds-changes file"

rm -rf v1.db fresh-b.db fresh-r.db upd-b.db upd-r.db upd-c.db upd-n.db ./*.jsonl  # a stopped run's too
echo "ingest of v1 (the stored state): $(t "$A" ingest --db v1.db --index v1-index.txt.bz2 --threads 2 v1-ms.xml.bz2) s"
full_b=$(t "$A" ingest --db fresh-b.db --index v2b-index.txt.bz2 --threads 2 v2b-ms.xml.bz2)
full_r=$(t "$A" ingest --db fresh-r.db --index v2r-index.txt.bz2 --threads 2 v2r-ms.xml.bz2)
echo "fresh ingest of v2 block: $full_b s; of v2 random: $full_r s"
for d in b r c n; do cp -r v1.db upd-$d.db; done
upd_n=$(t "$A" ingest --db upd-n.db --full --index v2b-index.txt.bz2 --threads 2 v2b-ms.xml.bz2)
echo "(reference) block, --full --index without stubs (every stream read): $upd_n s = $(ratio "$upd_n" "$full_b") of the fresh ingest"

s=$(date +%s.%N)
out=$(json --db upd-b.db --full --stubs v2b-stub-articles.xml.gz --index v2b-index.txt.bz2 v2b-ms.xml.bz2)
upd_b=$(echo "$(date +%s.%N) - $s" | bc)
echo "(a) block, --stubs: $upd_b s = $(ratio "$upd_b" "$full_b") of the fresh ingest; $out"
s=$(date +%s.%N)
out=$(json --db upd-r.db --full --stubs v2r-stub-articles.xml.gz --index v2r-index.txt.bz2 v2r-ms.xml.bz2)
upd_r=$(echo "$(date +%s.%N) - $s" | bc)
echo "(b) random, --stubs: $upd_r s = $(ratio "$upd_r" "$full_r") of the fresh ingest; streams read $(field "$out" streams_read) of $(field "$out" streams_total); $out"
s=$(date +%s.%N)
out=$("$A" ingest --db upd-c.db --json --changes enwiki-20261121-pages-meta-hist-incr.xml.bz2)
upd_c=$(echo "$(date +%s.%N) - $s" | bc)
echo "(c) adds-changes file, --changes: $upd_c s = $(ratio "$upd_c" "$full_r") of the fresh ingest; $out"

for pair in "upd-b fresh-b" "upd-r fresh-r" "upd-c fresh-r"; do
  set -- $pair
  "$A" show --db $1.db --all --format jsonl > $1.jsonl
  [ -f $2.jsonl ] || "$A" show --db $2.db --all --format jsonl > $2.jsonl
  if cmp -s $1.jsonl $2.jsonl; then echo "show --all $1 = $2: byte-identical ($(wc -l < $1.jsonl) articles)";
  else echo "show --all $1 = $2: DIFFERENT"; fi
done
rm -f ./*.jsonl

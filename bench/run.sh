#!/usr/bin/env bash
# Whole-run benchmarks (docs/benchmarks.md). Usage: bench/run.sh WORKDIR
# Inputs are made with tools/make_scale_dump.py from the bundled pages (see the doc).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="$here/build/aligndb"
w="$1"; mkdir -p "$w"; cd "$w"
src="$here/data/wikidumps/enwiki-gensim-sample.xml.bz2"
secs() { local s=$(date +%s.%N); "$@" > /dev/null 2>&1; echo "$(date +%s.%N) - $s" | bc; }
[ -f en6000.xml.bz2 ] || python3 "$here/tools/make_scale_dump.py" --pages 6000 --out en6000.xml.bz2 --sources "$src"
[ -f en600.xml.bz2 ] || python3 "$here/tools/make_scale_dump.py" --pages 600 --out en600.xml.bz2 --sources "$src"
[ -f simple3000.xml.bz2 ] || python3 "$here/tools/make_scale_dump.py" --pages 3000 --out simple3000.xml.bz2 \
    --dbname simplewiki --sources "$src" --titles-from en6000.xml.bz2 --paired-share 1.0
[ -f en6000-ms.xml.bz2 ] || python3 "$here/tools/make_multistream.py" en6000.xml.bz2 en6000-ms.xml.bz2 en6000-ms-index.txt.bz2
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/{print $2}') GB"
bytes=$(bzcat en6000.xml.bz2 | wc -c)
echo "input: 6000 pages, $bytes bytes of XML; single stream $(stat -c %s en6000.xml.bz2) bytes, multistream $(stat -c %s en6000-ms.xml.bz2) bytes"

echo "== ingest, single stream"
b=$(secs bash -c 'bzip2 -dc en6000.xml.bz2 > /dev/null'); echo "bzip2 -dc: $b s"
l=$(secs bash -c 'lbzip2 -dc -n 2 en6000.xml.bz2 > /dev/null'); echo "lbzip2 -dc -n 2: $l s"
rm -rf db1 db1b; i=$( { /usr/bin/time -f "%M" "$A" ingest --db db1 en6000.xml.bz2 > /dev/null; } 2> rss1.txt; ); 
s=$(date +%s.%N); "$A" ingest --db db1b en6000.xml.bz2 > /dev/null; e=$(date +%s.%N); t=$(echo "$e - $s" | bc)
echo "aligndb ingest: $t s = $(echo "6000 / $t" | bc) pages/s, $(echo "$bytes / $t / 1000000" | bc) MB/s; ratio to bzip2 -dc: $(echo "scale=2; $b / $t" | bc)"
echo "peak RSS, 6000 pages: $(tail -1 rss1.txt) KB"
rm -rf db6; { /usr/bin/time -f "%M" "$A" ingest --db db6 en600.xml.bz2 > /dev/null; } 2> rss6.txt
echo "peak RSS, 600 pages: $(tail -1 rss6.txt) KB"

echo "== ingest, multistream, --threads 2"
bm=$(secs bash -c 'bzip2 -dc en6000-ms.xml.bz2 > /dev/null'); echo "bzip2 -dc (multistream file): $bm s"
rm -rf db2; s=$(date +%s.%N); "$A" ingest --db db2 --index en6000-ms-index.txt.bz2 --threads 2 en6000-ms.xml.bz2 > /dev/null; e=$(date +%s.%N); t=$(echo "$e - $s" | bc)
echo "aligndb ingest --index --threads 2: $t s; ratio to bzip2 -dc: $(echo "scale=2; $bm / $t" | bc)"

echo "== align (6000 English, 3000 paired Simple pages whose text is the English article's)"
"$A" ingest --db db1b simple3000.xml.bz2 > /dev/null
s=$(date +%s.%N); out=$("$A" align --db db1b --json); e=$(date +%s.%N); t=$(echo "$e - $s" | bc)
echo "align: $t s; $out"
echo "== lookup"
"$here/build/lookup_bench" db1b 2000
echo "== export (JSON lines to /dev/null)"
for ms in 0.5 0.9; do
  s=$(date +%s.%N); n=$("$A" export --db db1b --format jsonl --min-sim $ms | wc -l); e=$(date +%s.%N); t=$(echo "$e - $s" | bc)
  echo "export --min-sim $ms: $n pairs in $t s = $(echo "$n / $t" | bc) pairs/s"
done

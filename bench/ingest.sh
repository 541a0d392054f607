#!/usr/bin/env bash
# Ingest against decompression (docs/benchmarks.md, Ingest). Usage: bench/ingest.sh WORKDIR [RUNS]
# Makes the 6000-page inputs as bench/run.sh does (tools/make_scale_dump.py, make_multistream.py),
# then times, RUNS times in turn (default 3), `bzip2 -dc`, `lbzip2 -dc -n 2` and aligndb ingest
# of the same files; ratios use the best wall time of each (the machine is shared and noisy).
# ALIGNDB=path overrides build/aligndb. With ALIGNDB_BASE=path/to/an/older/aligndb, that binary's ingest is timed in the same runs.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="${ALIGNDB:-$here/build/aligndb}"
w="$1"; runs="${2:-3}"; mkdir -p "$w"; cd "$w"
src="$here/data/wikidumps/enwiki-gensim-sample.xml.bz2"
[ -f en6000.xml.bz2 ] || python3 "$here/tools/make_scale_dump.py" --pages 6000 --out en6000.xml.bz2 --sources "$src"
[ -f en6000-ms.xml.bz2 ] || python3 "$here/tools/make_multistream.py" en6000.xml.bz2 en6000-ms.xml.bz2 en6000-ms-index.txt.bz2
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "input: $(bzcat en6000.xml.bz2 | wc -c) bytes of XML; single stream $(stat -c %s en6000.xml.bz2) bytes, multistream $(stat -c %s en6000-ms.xml.bz2) bytes"
# Prints "wall user+sys" of a command (output discarded).
timed() { /usr/bin/time -f "%e %U %S" "$@" > /dev/null 2> .t || { cat .t; exit 1; }; tail -1 .t | awk '{printf "%s %.2f\n", $1, $2 + $3}'; }
best() { sort -n | head -1; }
declare -A t
for r in $(seq "$runs"); do
  t[bz]+="$(timed bzip2 -dc en6000.xml.bz2)"$'\n'
  t[lbz]+="$(timed lbzip2 -dc -n 2 en6000.xml.bz2)"$'\n'
  rm -rf db1; t[ing]+="$(timed "$A" ingest --db db1 en6000.xml.bz2)"$'\n'
  t[bzm]+="$(timed bzip2 -dc en6000-ms.xml.bz2)"$'\n'
  rm -rf db2; t[ms]+="$(timed "$A" ingest --db db2 --index en6000-ms-index.txt.bz2 --threads 2 en6000-ms.xml.bz2)"$'\n'
  if [ -n "${ALIGNDB_BASE:-}" ]; then
    rm -rf db3; t[base]+="$(timed "$ALIGNDB_BASE" ingest --db db3 en6000.xml.bz2)"$'\n'
    rm -rf db4; t[basems]+="$(timed "$ALIGNDB_BASE" ingest --db db4 --index en6000-ms-index.txt.bz2 --threads 2 en6000-ms.xml.bz2)"$'\n'
  fi
done
for k in bz lbz ing bzm ms ${ALIGNDB_BASE:+base basems}; do
  echo "$k runs (wall s, cpu s): $(echo "${t[$k]}" | grep . | tr '\n' ';')"
done
bz=$(echo "${t[bz]}" | grep . | best | cut -d' ' -f1); lbz=$(echo "${t[lbz]}" | grep . | best | cut -d' ' -f1)
ing=$(echo "${t[ing]}" | grep . | best | cut -d' ' -f1); bzm=$(echo "${t[bzm]}" | grep . | best | cut -d' ' -f1)
ms=$(echo "${t[ms]}" | grep . | best | cut -d' ' -f1)
echo "best wall: bzip2 -dc $bz s, lbzip2 -dc -n 2 $lbz s, ingest $ing s; multistream: bzip2 -dc $bzm s, ingest --index --threads 2 $ms s"
echo "single stream: ingest speed / bzip2 -dc = $(echo "scale=2; $bz / $ing" | bc); / lbzip2 -n 2 = $(echo "scale=2; $lbz / $ing" | bc)"
echo "multistream: ingest --threads 2 speed / bzip2 -dc = $(echo "scale=2; $bzm / $ms" | bc); / lbzip2 -n 2 (single-stream file) = $(echo "scale=2; $lbz / $ms" | bc)"
if [ -n "${ALIGNDB_BASE:-}" ]; then
  base=$(echo "${t[base]}" | grep . | best | cut -d' ' -f1); basems=$(echo "${t[basems]}" | grep . | best | cut -d' ' -f1)
  echo "base binary: single stream $base s (ratio to bzip2 -dc $(echo "scale=2; $bz / $base" | bc)), multistream $basems s (ratio $(echo "scale=2; $bzm / $basems" | bc))"
fi

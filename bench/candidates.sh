#!/usr/bin/env bash
# `align --all` with paragraph candidates from the in-memory article index (the default) and from
# the Xapian paragraph index, in one run on one database (docs/benchmarks.md, Paragraph
# candidates: article index against Xapian).
# Usage: bench/candidates.sh WORKDIR [COPIES] [ROUNDS]     (COPIES default 20, ROUNDS default 3)
# Env: ALIGNDB=binary (default build/aligndb), THREADS (align --threads, default: all cores).
#
# Input as bench/whole_job.sh: SWiPE validation pairs pre-split, repeated COPIES times. Then:
# one `align --candidates xapian --all` that builds the index (the whole normal edition indexed),
# and ROUNDS rounds of `align --all` with each source in turn (index up to date: nothing
# indexed). Exports of both sources are compared byte for byte.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="${ALIGNDB:-$here/build/aligndb}"
PY=/usr/bin/python3
THREADS="${THREADS:-0}"
w="$1"; n="${2:-20}"; rounds="${3:-3}"
mkdir -p "$w"; w="$(realpath "$w")"; cd "$w"

timed() {  # NAME CMD...: sets T (wall s) and C (CPU s, all threads)
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$name.time" "$@" > "$name.out" 2> "$name.err" ||
    { echo "FAILED: $*" >&2; cat "$name.err" >&2; exit 1; }
  local u s; read -r T u s M < "$name.time"; C=$(echo "$u + $s" | bc)
}

source "$here/bench/swipe_base.sh"
swipe_base "$A" "$here"
[ -f x$n.normal.jsonl ] || $PY "$here/tools/make_scale_jsonl.py" base.normal.jsonl base.simple.jsonl x$n --copies "$n"
rm -rf db
"$A" ingest --db db --edition enwiki x$n.normal.jsonl > /dev/null
"$A" ingest --db db --edition simplewiki x$n.simple.jsonl > /dev/null
"$A" align --db db --threads "$THREADS" > /dev/null  # first align: both sources then re-align
"$A" export --db db --format jsonl --min-sim 0 > article.jsonl

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs);" \
  "$(date -u +%Y-%m-%dT%H:%MZ); ×$n ($(wc -l < x$n.normal.jsonl) docs/edition); --threads $THREADS"
timed build "$A" align --db db --all --candidates xapian --threads "$THREADS" --json
echo "index built + align --all (xapian): ${T} s wall, ${C} s CPU: $(cat build.out)"
"$A" export --db db --format jsonl --min-sim 0 > xapian.jsonl
cmp article.jsonl xapian.jsonl && echo "exports identical ($(wc -l < article.jsonl) rows)"
echo "| round | article wall (CPU) | xapian wall (CPU) | xapian / article wall (CPU) |"
echo "|---:|---:|---:|---:|"
for r in $(seq 1 "$rounds"); do
  timed art$r "$A" align --db db --all --candidates article --threads "$THREADS" --json
  ta=$T; ca=$C
  timed xap$r "$A" align --db db --all --candidates xapian --threads "$THREADS" --json
  tx=$T; cx=$C
  echo "| $r | $ta ($ca) | $tx ($cx) | $(echo "scale=2; $tx / $ta" | bc) ($(echo "scale=2; $cx / $ca" | bc)) |"
done
"$A" export --db db --format jsonl --min-sim 0 > xapian2.jsonl
cmp article.jsonl xapian2.jsonl && echo "exports still identical"
du -sh db/xapian | sed 's/^/index size: /'

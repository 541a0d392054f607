#!/usr/bin/env bash
# The whole job against the plain Python implementation (docs/benchmarks.md, Whole job).
# Usage: bench/whole_job.sh WORKDIR [COPIES...]        (COPIES default: 20 100)
# Env: ALIGNDB=binary (default build/aligndb), REF=path of ref_ck.py (default
# ../shared/tools/ref_ck.py), THREADS (align --threads,
# default: the number of cores).
#
# Input: SWiPE validation pairs (../shared/data/paired/swipe_val.json) ingested once, written back
# pre-split with `aligndb show --all --format jsonl`, then repeated N times under distinct titles
# (tools/make_scale_jsonl.py). For each N, in one run: ref_ck.py (reads, tokenizes, aligns), and
# aligndb on a fresh database: ingest of the normal edition, ingest of the simple edition, align;
# then `align --all` alone on the indexed database, and export to /dev/null. Wall time, cost per
# article pair, peak RSS (/usr/bin/time -f %M) and the ratios to ref_ck.py are printed as a
# Markdown table, plus one line per N for bench/plot_scaling.py.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="${ALIGNDB:-$here/build/aligndb}"
REF="${REF:-$here/../shared/tools/ref_ck.py}"
PY=/usr/bin/python3
THREADS="${THREADS:-$(nproc)}"
w="$1"; shift
copies=("$@"); [ ${#copies[@]} -gt 0 ] || copies=(20 100)
mkdir -p "$w"; w="$(realpath "$w")"; cd "$w"
topt=(); "$A" align --help | grep -q -- --threads && topt=(--threads "$THREADS")

# timed NAME CMD...: runs CMD with stdout to NAME.out; sets T (seconds) and M (peak RSS, MB).
timed() {
  local name="$1"; shift
  /usr/bin/time -f "%e %M" -o "$name.time" "$@" > "$name.out" 2> "$name.err" ||
    { echo "FAILED: $*" >&2; cat "$name.err" >&2; exit 1; }
  read -r T M < "$name.time"; M=$((M / 1024))
}
ratio() { echo "scale=2; $1 / $2" | bc; }
per() { echo "scale=1; $1 * 1000000 / $2" | bc; }  # µs per article pair

if [ ! -f base.normal.jsonl ]; then
  $PY "$here/tools/swipe_to_jsonl.py" /work/shared/data/paired/swipe_val.json swipe > /dev/null
  rm -rf split.db
  "$A" ingest --db split.db --edition enwiki swipe.enwiki.jsonl > /dev/null
  "$A" ingest --db split.db --edition simplewiki swipe.simplewiki.jsonl > /dev/null
  "$A" show --db split.db --edition enwiki --all --format jsonl > base.normal.jsonl
  "$A" show --db split.db --edition simplewiki --all --format jsonl > base.simple.jsonl
fi

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$(free -g | awk '/Mem/{print $2}') GB; $(date -u +%Y-%m-%dT%H:%MZ); align ${topt[*]:-(one thread)}"
echo
echo "| ×N | docs/edition | ref_ck.py | ingest normal | ingest simple | align | aligndb total | whole-job ratio | align --all | ratio to ref | export pairs/s | RSS ref / ingest / align (MB) |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${copies[@]}"; do
  [ -f x$n.normal.jsonl ] || $PY "$here/tools/make_scale_jsonl.py" base.normal.jsonl base.simple.jsonl x$n --copies "$n"
  docs=$(wc -l < x$n.normal.jsonl)
  timed ref$n $PY "$REF" x$n.normal.jsonl x$n.simple.jsonl; tr=$T; mr=$M
  rm -rf db$n
  timed ingn$n "$A" ingest --db db$n --edition enwiki x$n.normal.jsonl; ti1=$T; mi1=$M
  timed ings$n "$A" ingest --db db$n --edition simplewiki x$n.simple.jsonl; ti2=$T; mi2=$M
  timed align$n "$A" align --db db$n "${topt[@]}" --json; ta=$T; ma=$M
  timed all$n "$A" align --db db$n --all "${topt[@]}" --json; tall=$T
  timed export$n "$A" export --db db$n --format jsonl; te=$T
  pairs=$(grep -c . export$n.out || true); refpairs=$(grep -c . ref$n.out || true)
  tot=$(echo "$ti1 + $ti2 + $ta" | bc)
  mi=$((mi1 > mi2 ? mi1 : mi2))
  eps=$(echo "$pairs / ($te + 0.001)" | bc)
  echo "| ×$n | $docs | $tr s | $ti1 s | $ti2 s | $ta s | $tot s | **$(ratio "$tr" "$tot")×** | $tall s | **$(ratio "$tr" "$tall")×** | $eps | $mr / $mi / $ma |"
  printf 'SCALE n=%s docs=%s ref=%s ingest=%s align=%s all=%s export=%s pairs=%s refpairs=%s rss_ingest=%s rss_align=%s us_per_doc_ingest=%s us_per_doc_align=%s us_per_doc_export=%s\n' \
    "$n" "$docs" "$tr" "$(echo "$ti1 + $ti2" | bc)" "$ta" "$tall" "$te" "$pairs" "$refpairs" "$mi" "$ma" \
    "$(per "$(echo "$ti1 + $ti2" | bc)" "$docs")" "$(per "$ta" "$docs")" "$(per "$te" "$docs")" >> scaling.txt
  tail -1 scaling.txt >&2
done

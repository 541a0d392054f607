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
# then `align --all` alone on the indexed database, and export to /dev/null; then the same job as
# one command, `aligndb build --show 0` (the README's way) on another fresh database, whose export
# must equal the three commands'. Wall time, cost per
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

# timed NAME CMD...: runs CMD with stdout to NAME.out; sets T (wall seconds), C (CPU seconds,
# user + system, all threads) and M (peak RSS, MB). On a shared machine CPU time is the steadier
# figure; wall time is what a user waits.
timed() {
  local name="$1"; shift
  /usr/bin/time -f "%e %U %S %M" -o "$name.time" "$@" > "$name.out" 2> "$name.err" ||
    { echo "FAILED: $*" >&2; cat "$name.err" >&2; exit 1; }
  local u s; read -r T u s M < "$name.time"; M=$((M / 1024)); C=$(echo "$u + $s" | bc)
}
ratio() { echo "scale=2; $1 / $2" | bc; }

source "$here/bench/swipe_base.sh"
swipe_base "$A" "$here"

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)," \
  "$(free -g | awk '/Mem/{print $2}') GB; $(date -u +%Y-%m-%dT%H:%MZ); align ${topt[*]:-(one thread)}"
echo
echo "Seconds as wall (CPU). Ratios: ref_ck.py's time over aligndb's (above 1: aligndb is faster)."
echo
echo "| ×N | docs/edition | ref_ck.py | ingest normal + simple | align | aligndb total | whole-job ratio wall / CPU | align --all | its ratio wall / CPU | export pairs/s | peak RSS ref / ingest / align (MB) | one command (build) | its ratio wall / CPU |"
echo "|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
for n in "${copies[@]}"; do
  [ -f x$n.normal.jsonl ] || $PY "$here/tools/make_scale_jsonl.py" base.normal.jsonl base.simple.jsonl x$n --copies "$n"
  docs=$(wc -l < x$n.normal.jsonl)
  timed ref$n $PY "$REF" x$n.normal.jsonl x$n.simple.jsonl; tr=$T; cr=$C; mr=$M
  rm -rf db$n
  timed ingn$n "$A" ingest --db db$n --edition enwiki x$n.normal.jsonl; ti1=$T; ci1=$C; mi1=$M
  timed ings$n "$A" ingest --db db$n --edition simplewiki x$n.simple.jsonl; ti2=$T; ci2=$C; mi2=$M
  timed align$n "$A" align --db db$n "${topt[@]}" --json; ta=$T; ca=$C; ma=$M
  timed all$n "$A" align --db db$n --all "${topt[@]}" --json; tall=$T; call=$C
  timed export$n "$A" export --db db$n --format jsonl; te=$T
  rm -rf dbb$n
  timed build$n "$A" build --db dbb$n "${topt[@]}" --show 0 enwiki=x$n.normal.jsonl simplewiki=x$n.simple.jsonl
  tb=$T; cb=$C
  "$A" export --db dbb$n --format jsonl | cmp -s - export$n.out ||
    { echo "FAILED: build's export differs from the three commands'" >&2; exit 1; }
  pairs=$(grep -c . export$n.out || true); refpairs=$(grep -c . ref$n.out || true)
  ti=$(echo "$ti1 + $ti2" | bc); ci=$(echo "$ci1 + $ci2" | bc)
  tot=$(echo "$ti + $ta" | bc); ctot=$(echo "$ci + $ca" | bc)
  mi=$((mi1 > mi2 ? mi1 : mi2))
  eps=$(echo "$pairs / ($te + 0.001)" | bc)
  echo "| ×$n | $docs | $tr ($cr) | $ti ($ci) | $ta ($ca) | $tot ($ctot) | **$(ratio "$tr" "$tot")** / $(ratio "$cr" "$ctot") | $tall ($call) | **$(ratio "$tr" "$tall")** / $(ratio "$cr" "$call") | $eps | $mr / $mi / $ma | $tb ($cb) | **$(ratio "$tr" "$tb")** / $(ratio "$cr" "$cb") |"
  printf 'SCALE n=%s docs=%s ref=%s ref_cpu=%s ingest=%s ingest_cpu=%s align=%s align_cpu=%s all=%s all_cpu=%s export=%s pairs=%s refpairs=%s rss_ingest=%s rss_align=%s build=%s build_cpu=%s\n' \
    "$n" "$docs" "$tr" "$cr" "$ti" "$ci" "$ta" "$ca" "$tall" "$call" "$te" "$pairs" "$refpairs" "$mi" "$ma" "$tb" "$cb" >> scaling.txt
  tail -1 scaling.txt >&2
done

#!/usr/bin/env bash
# Word alignment evaluation on the gold sets (docs/evaluation.md): every symmetrization, with the
# given vectors and without vectors (identical words only).
# Usage: tools/wordalign_eval.sh WORDALIGN_DIR VECTORS [THETA]
set -euo pipefail
A="$(cd "$(dirname "$0")/.." && pwd)/build/aligndb"
w="$1"; vec="$2"; theta="${3:-0.49}"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
run() {  # name gold [possible]
  local name=$1 gold=$2 poss=${3:-}
  for v in "$vec" ""; do
    for sym in intersection union grow-diag-final; do
      "$A" wordalign --symmetrize $sym --theta "$theta" ${v:+--vectors "$v"} "$gold" > "$tmp/pred"
      label=none; [ -n "$v" ] && label=$(basename "$v")
      echo "$name	$label	$sym	$("$A" aer --json --gold "$gold" ${poss:+--possible "$poss"} --pred "$tmp/pred")"
    done
  done
}
run edinburgh-train "$w/gold.train.sure.json" "$w/gold.train.sure+poss.json"
run multimwa-wiki-dev "$w/wiki-dev.tsv"
run multimwa-mtref-dev "$w/mtref-dev.tsv"

#!/usr/bin/env bash
# The lexical aligner (wordalign --aligner lexical --lexicon wordnet) on the gold sets
# (docs/evaluation.md, The lexical aligner): precision against SURE + POSSIBLE links, recall
# against SURE links, F1, on all of Edinburgh++ train, on its two halves (pairs 0–356 and
# 357–713, the check on overfitting knobs chosen on all of it; the halves hold different genres),
# on its even and odd pairs (halves of the same genre mix), and on the MultiMWA sets given.
# Usage: tools/wordalign_lexical_eval.sh WORDALIGN_DIR [SET ...]   (SET: wiki-train, mtref-dev, …;
#        default wiki-train mtref-train)
set -euo pipefail
A="$(cd "$(dirname "$0")/.." && pwd)/build/aligndb"
w="$1"; shift
sets=("$@"); [ ${#sets[@]} -eq 0 ] && sets=(wiki-train mtref-train)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
score() {  # name gold possible-or-empty pred
  "$A" aer --json --gold "$2" ${3:+--possible "$3"} --pred "$4" | python3 -c '
import json, sys
j = json.load(sys.stdin)
p, r = j["precision"], j["recall"]
print("%-22s P %6.2f  R %6.2f  F1 %6.2f  AER %6.2f" % (sys.argv[1], 100 * p, 100 * r,
      200 * p * r / (p + r) if p + r else 0, 100 * j["aer"]))' "$1"
}
sure="$w/gold.train.sure.json" poss="$w/gold.train.sure+poss.json"
"$A" wordalign --aligner lexical --lexicon wordnet "$sure" > "$tmp/pred"
score edinburgh-train "$sure" "$poss" "$tmp/pred"
# The halves: gold files and predictions cut at the middle pair.
python3 - "$sure" "$poss" "$tmp" <<'PY'
import json, sys
sure, poss = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
half = len(sure) // 2
pred = open(sys.argv[3] + "/pred").read().splitlines()
parts = (("1", slice(0, half)), ("2", slice(half, None)), ("even", slice(0, None, 2)),
         ("odd", slice(1, None, 2)))
for k, part in parts:
    json.dump(sure[part], open(f"{sys.argv[3]}/sure{k}.json", "w"))
    json.dump(poss[part], open(f"{sys.argv[3]}/poss{k}.json", "w"))
    open(f"{sys.argv[3]}/pred{k}", "w").write("".join(l + "\n" for l in pred[part]))
PY
score "edinburgh-train half 1" "$tmp/sure1.json" "$tmp/poss1.json" "$tmp/pred1"
score "edinburgh-train half 2" "$tmp/sure2.json" "$tmp/poss2.json" "$tmp/pred2"
score "edinburgh-train even" "$tmp/sureeven.json" "$tmp/posseven.json" "$tmp/predeven"
score "edinburgh-train odd" "$tmp/sureodd.json" "$tmp/possodd.json" "$tmp/predodd"
for s in "${sets[@]}"; do
  "$A" wordalign --aligner lexical --lexicon wordnet "$w/$s.tsv" > "$tmp/pred"
  score "multimwa-$s" "$w/$s.tsv" "" "$tmp/pred"
done

#!/usr/bin/env bash
# Measures how far an incrementally updated database is from a fresh build of the newer data
# (docs/incremental.md).
# Usage: tools/incremental_check.sh SWIPE.json WORKDIR CHANGE DELETE ADD_PAIRS [ALIGN_OPTIONS...]
#   CHANGE, DELETE: shares of documents changed and deleted in each edition; ADD_PAIRS: pairs added.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="$here/build/aligndb"
swipe="$1"; w="$2"; change="$3"; delete="$4"; add="$5"; shift 5
rm -rf "$w"; mkdir -p "$w"; cd "$w"

# Old data: the first 482 - ADD_PAIRS pairs. New data: those with CHANGE and DELETE applied in
# each edition (different seeds per edition), plus the remaining ADD_PAIRS pairs.
first=$((482 - add))
"$here/tools/swipe_to_jsonl.py" "$swipe" old --first $first 2>/dev/null
"$here/tools/swipe_to_jsonl.py" "$swipe" all 2>/dev/null
for e in enwiki simplewiki; do
  tail -n +$((first + 1)) all.$e.jsonl > added.$e.jsonl
  seed=1; [ $e = simplewiki ] && seed=2
  "$here/tools/evolve_jsonl.py" old.$e.jsonl new.$e.jsonl --change $change --delete $delete --add added.$e.jsonl --seed $seed
done

# Incremental: old, then new with --full.
"$A" ingest --db inc --json enwiki=old.enwiki.jsonl simplewiki=old.simplewiki.jsonl > /dev/null
"$A" align --db inc --json > /dev/null
for e in enwiki simplewiki; do
  echo "update $e: $("$A" ingest --db inc --full --json $e=new.$e.jsonl)"
done
echo "incremental align: $("$A" align --db inc --json "$@")"
"$A" export --db inc --format jsonl --min-sim 0 > inc.jsonl
cp -r inc inc_all
echo "align --all: $("$A" align --db inc_all --all --json)"
"$A" export --db inc_all --format jsonl --min-sim 0 > inc_all.jsonl

# Fresh build of the new data.
"$A" ingest --db fresh --json enwiki=new.enwiki.jsonl simplewiki=new.simplewiki.jsonl > /dev/null
echo "fresh align: $("$A" align --db fresh --json)"
"$A" export --db fresh --format jsonl --min-sim 0 > fresh.jsonl

cmp -s inc_all.jsonl fresh.jsonl && echo "after align --all: export byte-identical to the fresh build" \
  || echo "after align --all: export DIFFERS from the fresh build"
python3 - <<'PY'
import json
def load(p):
    rows = {}
    for line in open(p):
        d = json.loads(line)
        rows[(d["normal_title"], tuple(d["normal_index"]), tuple(d["simple_index"]), d["op"])] = d["similarity"]
    return rows
inc, fresh = load("inc.jsonl"), load("fresh.jsonl")
both = inc.keys() & fresh.keys()
diff = [abs(inc[k] - fresh[k]) for k in both]
print(f"incremental vs fresh, all similarities: {len(fresh)} pairs fresh, {len(inc)} incremental, "
      f"{len(both)} in both, {len(inc.keys() - fresh.keys())} only incremental, "
      f"{len(fresh.keys() - inc.keys())} only fresh; max |similarity difference| {max(diff):.2e}, "
      f"mean {sum(diff) / len(diff):.2e}")
for t in (0.5, 0.75):
    a = {k for k, v in inc.items() if v >= t}
    b = {k for k, v in fresh.items() if v >= t}
    print(f"at similarity >= {t}: {len(b)} pairs fresh, {len(a)} incremental, {len(a & b)} in both "
          f"({100 * len(a & b) / max(1, len(a | b)):.2f}% of the union)")
PY

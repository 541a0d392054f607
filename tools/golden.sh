#!/usr/bin/env bash
# Writes every user-visible output of one aligndb binary on the bundled samples and on SWiPE val
# into OUTDIR, so that two binaries can be compared byte for byte (diff -r OUT1 OUT2).
# A refactoring must leave this directory unchanged.
# Usage: tools/golden.sh [BINARY] OUTDIR      (BINARY defaults to build/aligndb)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ $# -ge 2 ]; then A="$(realpath "$1")"; out="$2"; else A="$here/build/aligndb"; out="$1"; fi
shared="$here/../shared/data"
rm -rf "$out"; mkdir -p "$out"; out="$(realpath "$out")"
w="$(mktemp -d)"; trap 'rm -rf "$w"' EXIT
d="$here/data"

run() {  # NAME CMD...: stdout to NAME, exit code appended
  local name="$1"; shift
  set +e; "$@" > "$out/$name" 2> "$w/stderr"; local rc=$?; set -e
  echo "exit $rc" >> "$out/$name"
}

# Bundled samples: the README's main job.
run build.txt "$A" build --db "$w/demo" "$d/wikidumps/enwiki-gensim-sample.xml.bz2" \
  "$d/wikidumps/simplewiki-sample.xml.bz2" enwiki="$d/swipe/swipe-sample.enwiki.jsonl" \
  simplewiki="$d/swipe/swipe-sample.simplewiki.jsonl"
run info.json bash -c "'$A' info --db '$w/demo' --json | /usr/bin/python3 -c 'import json,sys; print(json.dumps(json.load(sys.stdin)[\"editions\"], sort_keys=True))'"
for f in tsv jsonl; do run export-0.5.$f "$A" export --db "$w/demo" --format $f; done
run export-0.jsonl "$A" export --db "$w/demo" --format jsonl --min-sim 0
run export-1-1.tsv "$A" export --db "$w/demo" --format tsv --op 1-1 --min-sim 0.75 --no-identical
"$A" export --db "$w/demo" --format parallel --out "$out/parallel" > /dev/null
run stats.txt "$A" stats --db "$w/demo"
run stats.json "$A" stats --db "$w/demo" --json
for t in Art April A "Yeshe Tsogyal" Mail "Ludwig Büchner"; do
  run "lookup-$t.txt" "$A" lookup --db "$w/demo" "$t"
  run "lookup-$t.json" "$A" lookup --db "$w/demo" "$t" --format json
done
run show-April.json "$A" show --db "$w/demo" --edition simplewiki April --format json
run show-Art.txt "$A" show --db "$w/demo" --edition enwiki Art
"$A" report --db "$w/demo" --out "$w/report" > /dev/null
cp "$w/report/report.md" "$out/report.md"
run align-embed.json "$A" align --db "$w/demo" --all --json --similarity maximum \
  --vectors "$d/vectors/lee_fasttext.vec" --theta 0.49
run export-embed.jsonl "$A" export --db "$w/demo" --format jsonl --min-sim 0
run align-allpairs.json "$A" align --db "$w/demo" --all --json --mode all-pairs --similarity maximum \
  --vectors "$d/vectors/lee_fasttext.vec" --theta 0.49 --threshold 0.53
run export-allpairs.jsonl "$A" export --db "$w/demo" --format jsonl --min-sim 0
for f in "$out"/align-*.json; do  # key order and timings vary from run to run
  /usr/bin/python3 -c 'import json,sys
lines = open(sys.argv[1]).read().splitlines()
d = json.loads(lines[0]); [d.pop(k) for k in list(d) if "second" in k or k.endswith("_ms")]
print(json.dumps(d, sort_keys=True)); print(lines[1])' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
done

# SWiPE val (all 482 pairs), when ../shared is there.
if [ -f "$shared/paired/swipe_val.json" ]; then
  /usr/bin/python3 "$here/tools/swipe_to_jsonl.py" "$shared/paired/swipe_val.json" "$w/val" 2> /dev/null
  "$A" ingest --db "$w/val.db" enwiki="$w/val.enwiki.jsonl" simplewiki="$w/val.simplewiki.jsonl" > /dev/null
  "$A" align --db "$w/val.db" > /dev/null
  run val-export.jsonl "$A" export --db "$w/val.db" --format jsonl --min-sim 0
  run val-export.tsv "$A" export --db "$w/val.db" --format tsv
  run val-stats.json "$A" stats --db "$w/val.db" --json
  "$A" align --db "$w/val.db" --all --follow-redirects > /dev/null
  run val-export-redir.jsonl "$A" export --db "$w/val.db" --format jsonl --min-sim 0
fi

# News paraphrases on OneStopEnglish, when there.
if [ -d "$shared/paired/onestopenglish" ]; then
  /usr/bin/python3 "$here/tools/onestop_to_clusters.py" "$shared/paired/onestopenglish" "$w/news.jsonl" > /dev/null 2>&1 || true
  if [ -s "$w/news.jsonl" ]; then
    "$A" ingest --db "$w/news.db" --edition news "$w/news.jsonl" > /dev/null
    for m in l12 f2; do
      "$A" paraphrase --db "$w/news.db" --method $m > /dev/null
      run "para-$m.tsv" "$A" export --db "$w/news.db" --collection news --format tsv --op $m
    done
  fi
fi

# Stand-alone commands.
printf 'the cat sat on the mat\ta cat sat on a mat\nhello world\tgoodbye world\n' > "$w/pairs.tsv"
for m in tfidf average maximum hungarian wmd additive; do
  run "sim-$m.txt" "$A" similarity --method $m --vectors "$d/vectors/lee_fasttext.vec" "$w/pairs.tsv"
done
run wordalign.txt "$A" wordalign --vectors "$d/vectors/lee_fasttext.vec" --symmetrize grow-diag-final "$w/pairs.tsv"
run score.json "$A" score --hyp "$here/tests/data/score/hyp.txt" --ref "$here/tests/data/score/ref1.txt" \
  --ref "$here/tests/data/score/ref2.txt" --json
echo "golden: $(ls "$out" | wc -l) files in $out" >&2

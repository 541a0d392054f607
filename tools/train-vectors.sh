#!/usr/bin/env bash
# Trains word vectors on the text stored in an aligndb database, with Debian's fastText.
#
# Usage: tools/train-vectors.sh DB OUT [DIM]
#   DB   an aligndb database (every edition in it is used)
#   OUT  output prefix: writes OUT.vec (fastText text vectors, loadable with --vectors OUT.vec)
#        and OUT.corpus.txt (the training text: one sentence a line, tokens as aligndb
#        tokenizes them, so that vector words match the tokens the measures look up)
#   DIM  vector dimension (default 100)
#
# Needs `fasttext` (apt-get install fasttext). The training is
#   fasttext skipgram -input OUT.corpus.txt -output OUT -dim DIM -maxn 0 -minCount 2 -epoch 10
# (-maxn 0: no character n-grams, so .vec holds whole words only).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
A="$here/build/aligndb"
db="$1"; out="$2"; dim="${3:-100}"
command -v fasttext > /dev/null || { echo "train-vectors: fasttext is not installed (apt-get install fasttext)" >&2; exit 2; }
editions=$("$A" info --db "$db" --json | python3 -c 'import json,sys; print(" ".join(json.load(sys.stdin)["editions"]))')
: > "$out.corpus.txt"
for e in $editions; do
  "$A" show --db "$db" --edition "$e" --all --format jsonl
done | python3 -c '
import json, sys
sys.path.insert(0, sys.argv[1])
from reference_align import tokenize  # the same tokens as aligndb, in Python
for line in sys.stdin:
    for p in json.loads(line)["paragraphs"]:
        for s in p:
            t = tokenize(s)
            if t: print(" ".join(t))
' "$here/tools" >> "$out.corpus.txt"
echo "train-vectors: $(wc -l < "$out.corpus.txt") sentences, $(wc -w < "$out.corpus.txt") tokens" >&2
fasttext skipgram -input "$out.corpus.txt" -output "$out" -dim "$dim" -maxn 0 -minCount 2 -epoch 10 -thread "$(nproc)" -verbose 0
rm -f "$out.bin"
echo "$out.vec"

# Sourced by the bench scripts: swipe_base BINARY ROOT writes base.normal.jsonl and
# base.simple.jsonl in the current directory (once): SWiPE validation's article pairs ingested by
# BINARY and written back pre-split (`aligndb show --all --format jsonl`). ROOT: the repository.
swipe_base() {
  local A="$1" here="$2"
  [ -f base.normal.jsonl ] && return 0
  /usr/bin/python3 "$here/tools/swipe_to_jsonl.py" "$here/../shared/data/paired/swipe_val.json" swipe > /dev/null
  rm -rf split.db
  "$A" ingest --db split.db --edition enwiki swipe.enwiki.jsonl > /dev/null
  "$A" ingest --db split.db --edition simplewiki swipe.simplewiki.jsonl > /dev/null
  "$A" show --db split.db --edition enwiki --all --format jsonl > base.normal.jsonl
  "$A" show --db split.db --edition simplewiki --all --format jsonl > base.simple.jsonl
}

#!/usr/bin/env bash
# The bad-input campaign: hostile inputs, arguments and environments against every aligndb
# command, each checked for a documented exit code, one clear line on stderr, no signal, no hang,
# bounded memory, and no loss of what a database already stored.
#
# Usage: tools/campaign/run.sh [--quick] [BINARY] [WORKDIR]
#   BINARY   default build/aligndb;  WORKDIR  default a new directory under /tmp (kept).
#   --quick  skips the slow cases (kill -9 loops, big inputs, the long readers loop).
# Prints one line per case, "PASS|FAIL name: what happened", then the summary
# "campaign: N passed, M failed" and counts by category. Exits 0 unless the script itself
# breaks: it is a measurement, not a gate. Inputs are generated on the fly by gen.py.
# Every command runs under `timeout` and `prlimit --as` (some inputs need tens of GB
# otherwise); peak RSS comes from /usr/bin/time -f %M. The full-disk cases mount a small tmpfs
# and need root; without it they are reported as SKIP.
set -u
here="$(cd "$(dirname "$0")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
QUICK=0
pos=()
for a in "$@"; do
  case "$a" in --quick) QUICK=1 ;; -h | --help) sed -n 2,14p "$0"; exit 0 ;; *) pos+=("$a") ;; esac
done
BIN="$(realpath "${pos[0]:-$repo/build/aligndb}")"
W="${pos[1]:-$(mktemp -d /tmp/campaign.XXXXXX)}"
mkdir -p "$W"; W="$(realpath "$W")"
[ -x "$BIN" ] || { echo "campaign: no binary $BIN" >&2; exit 1; }
PY=/usr/bin/python3
GEN() { "$PY" "$here/gen.py" "$@"; }
DATA="$repo/data"
SHARED="$repo/../shared/data"
[ -d "$SHARED" ] || SHARED=/work/shared/data
AS=${CAMPAIGN_AS:-3000000000}       # address-space limit of every run (bytes)
RSS_KB=${CAMPAIGN_RSS_KB:-1048576}  # memory bound checked on peak RSS (1 GB)
TMO=${CAMPAIGN_TIMEOUT:-60}         # default seconds per case
ulimit -c 0
mkdir -p "$W/in" "$W/db" "$W/cases"
LOG="$W/campaign.log"; : > "$LOG"
declare -A NCAT=()
PASS=0 FAIL=0 SKIP=0 ERRCASES=0 ERRCLEAR=0 READER_RUNS=0 READER_FAILS=0 K9_RUNS=0 K9_SAME=0

say() { echo "$*" | tee -a "$LOG"; }
skip() { SKIP=$((SKIP + 1)); say "SKIP $1: $2"; }

# snapshot DB: every stored article of every edition and every exported pair, sorted.
snapshot() {
  local db="$1"
  {
    timeout 60 "$BIN" info --db "$db" --json 2> /dev/null |
      "$PY" -c 'import json,sys
try: print("\n".join(json.load(sys.stdin)["editions"]))
except Exception: pass' |
      while IFS= read -r e; do
        [ -n "$e" ] && timeout 60 "$BIN" show --db "$db" --all --edition "$e" --format jsonl
        timeout 60 "$BIN" export --db "$db" --collection "$e" --format jsonl 2> /dev/null
      done
    timeout 60 "$BIN" export --db "$db" --format jsonl --min-sim 0
  } 2> /dev/null | LC_ALL=C sort
}

# c NAME EXPECT [-t SECS] [-d DB] [-f INPUT] [-k CHECK] -- CMD...
# EXPECT: ok (0), err (2..6), any (0 or 2..6), or codes such as 3 or 3/4.
# -d DB: nothing DB stored before may be missing after. -f INPUT: an error must name the file
# (and, for exit 3, a byte offset or line). -k CHECK: bash code run after; it prints a reason
# when something is wrong (RC, OUT, ERR, CASE are set).
c() {
  local name="$1" expect="$2"; shift 2
  local t="$TMO" db="" input="" check="" based=0
  while [ "$1" != "--" ]; do
    case "$1" in
      -t) t="$2"; shift 2 ;; -d) db="$2"; shift 2 ;; -f) input="$2"; shift 2 ;;
      -k) check="$2"; shift 2 ;; -D) db="$2"; based=1; shift 2 ;; *) echo "campaign: bad case option $1" >&2; exit 1 ;;
    esac
  done
  shift
  local CASE="$W/cases/$name"; local OUT="$CASE.out" ERR="$CASE.err" TF="$CASE.time"
  if [ "$based" = 1 ]; then cp "$W/base.snapshot" "$CASE.before"; elif [ -n "$db" ]; then snapshot "$db" > "$CASE.before"; fi
  /usr/bin/time -f "%M" -o "$TF" timeout -k 5 "$t" prlimit --as="$AS" -- "$@" \
    > "$OUT" 2> "$ERR" < /dev/null
  local RC=$?
  local rss sig
  rss="$(tail -n 1 "$TF" 2> /dev/null)"; [[ "$rss" =~ ^[0-9]+$ ]] || rss=0
  sig="$(grep -o 'terminated by signal [0-9]*' "$TF" 2> /dev/null | grep -o '[0-9]*$')"
  local cat="" why="" code_ok=0
  local errexp=0
  [[ "$expect" == err || "$expect" =~ ^[2-6/]+$ ]] && errexp=1
  case "$expect" in
    ok) [ "$RC" = 0 ] && code_ok=1 ;;
    err) [[ "$RC" =~ ^[2-6]$ ]] && code_ok=1 ;;
    any) [[ "$RC" =~ ^[02-6]$ ]] && code_ok=1 ;;
    *) [[ "/$expect/" == *"/$RC/"* ]] && code_ok=1 ;;
  esac
  local nlines; nlines="$(grep -ac . "$ERR")"
  if [ "$RC" = 124 ] || [ "$RC" = 137 -a -z "$sig" ]; then
    cat=hang why="no answer after ${t}s (killed)"
  elif [ "$rss" -gt "$RSS_KB" ] || grep -aqiE 'bad_alloc|cannot allocate|out of memory' "$ERR"; then
    # std::bad_alloc here means the run needed more than the --as limit: unbounded memory.
    cat=memory why="peak RSS $((rss / 1024)) MB (bound $((RSS_KB / 1024)) MB, address space limited to $((AS / 1000000)) MB), exit $RC: $(grep -a . "$ERR" | tail -n 1 | cut -c1-120)"
  elif [ -n "$sig" ] || [ "$RC" -ge 128 ] || grep -aqE 'terminate called|Assertion .* failed|Segmentation|core dumped|stack smashing|double free' "$ERR"; then
    cat=crash why="signal ${sig:-$((RC - 128))} (exit $RC): $(grep -a . "$ERR" | tail -n 1 | cut -c1-160)"
  elif [ "$code_ok" = 0 ]; then
    if [ "$RC" = 0 ] && [ "$errexp" = 1 ]; then
      cat=accepted why="exit 0, expected an error (exit $expect): accepted silently"
    else
      cat=code why="exit $RC, expected $expect: $(grep . "$ERR" | head -n 1 | cut -c1-160)"
    fi
  elif [ "$RC" != 0 ] && [ "$nlines" != 1 ]; then
    cat=message why="exit $RC with $nlines lines on stderr, expected one: $(grep . "$ERR" | head -n 2 | tr '\n' '|' | cut -c1-160)"
  elif [ "$RC" != 0 ] && grep -aqP '[\x00-\x08\x0b-\x1f\x7f]' "$ERR"; then
    cat=message why="exit $RC, raw control characters in the message: $(head -c 160 "$ERR" | cat -v)"
  elif [ "$RC" != 0 ] && [ -n "$input" ] && ! grep -aqF -- "$(basename -- "$input")" "$ERR"; then
    cat=message why="exit $RC, message does not name $(basename -- "$input"): $(head -c 160 "$ERR")"
  elif [ "$RC" = 3 ] && [ -n "$input" ] && ! grep -aqiE '(bytes?|offset|line|position|column|entry)[ :]*[0-9]|empty|header|truncated' "$ERR"; then
    cat=message why="exit 3, message gives no byte offset or line: $(head -c 160 "$ERR")"
  fi
  if [ -z "$cat" ] && [ -n "$db" ]; then
    snapshot "$db" > "$CASE.after"
    local lost
    lost="$(LC_ALL=C comm -23 "$CASE.before" "$CASE.after" | wc -l)"
    if [ "$lost" -gt 0 ]; then
      cat=lost why="exit $RC; $lost of $(wc -l < "$CASE.before") stored lines (articles, pairs) missing or changed afterwards ($(wc -l < "$CASE.after") now)"
    fi
  fi
  if [ -z "$cat" ] && [ -n "$check" ]; then
    local msg
    msg="$(RC=$RC OUT=$OUT ERR=$ERR CASE=$CASE eval "$check" 2>&1 | tr '\n' ';' | head -c 300)"
    [ -n "$msg" ] && cat=check why="exit $RC; $msg"
  fi
  [ "$errexp" = 1 ] && ERRCASES=$((ERRCASES + 1))
  if [ -z "$cat" ]; then
    PASS=$((PASS + 1)); [ "$errexp" = 1 ] && ERRCLEAR=$((ERRCLEAR + 1))
    local m="exit $RC"; [ "$RC" != 0 ] && m="$m, $(head -n 1 "$ERR" | cut -c1-140)"
    say "PASS $name: $m (peak $((rss / 1024)) MB)"
  else
    FAIL=$((FAIL + 1)); NCAT[$cat]=$((${NCAT[$cat]:-0} + 1))
    say "FAIL $name: [$cat] $why"
    printf '%s\t%s\t%s\n' "$name" "$cat" "$(printf '%q ' "$@" | cut -c1-400)" >> "$W/failures.tsv"
  fi
}

# Checks used by -k.
no_esc_out() { if grep -qP '[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]' "$OUT" "$ERR"; then echo "control characters written raw to the terminal"; fi; }
# An ingest's summary must agree with what the edition holds: added == articles after - before.
added_matches() {  # DB EDITION BEFORE
  [ "$RC" = 0 ] || return 0
  local added now
  added="$(grep -o 'articles: [0-9]* added' "$OUT" | grep -o '[0-9]*')"
  now="$("$BIN" info --db "$1" --json 2> /dev/null | "$PY" -c "import json,sys; print(json.load(sys.stdin)['editions'].get(sys.argv[1],{}).get('articles',0))" "$2")"
  [ -n "$added" ] && [ "$added" != "$((now - $3))" ] && echo "summary says $added added but the edition holds $((now - $3)) more articles"
  grep -q '^pages read: 0$' "$OUT" && echo "pages read: 0 without a word"
}
articles_of() { "$BIN" info --db "$1" --json 2> /dev/null | "$PY" -c "import json,sys; print(json.load(sys.stdin)['editions'].get(sys.argv[1],{}).get('articles',0))" "$2"; }
no_script() {  # DIR: report files must not hold unescaped markup from the data
  local f
  for f in "$1/report.html" "$1/report.md"; do
    [ -f "$f" ] || { [ "$RC" = 0 ] && echo "$(basename "$f") missing"; continue; }
    grep -qiE '<script|<img src=x|onerror=' "$f" && echo "$(basename "$f") holds unescaped <script>/<img onerror> from the data"
  done
}
fresh() { rm -rf "$W/db/$1"; echo "$W/db/$1"; }
copybase() { rm -rf "$W/db/$1"; cp -a "$W/base" "$W/db/$1"; echo "$W/db/$1"; }

say "campaign: $BIN on $(hostname) ($(nproc) cores), $(date -u +%FT%TZ), workdir $W, quick=$QUICK"

# ------------------------------------------------------------------ base databases
"$BIN" build --db "$W/base" "$DATA/wikidumps/enwiki-gensim-sample.xml.bz2" \
  "$DATA/wikidumps/simplewiki-sample.xml.bz2" enwiki="$DATA/swipe/swipe-sample.enwiki.jsonl" \
  simplewiki="$DATA/swipe/swipe-sample.simplewiki.jsonl" > "$W/base.build" 2>&1 ||
  { echo "campaign: cannot build the base database (see $W/base.build)" >&2; exit 1; }
EN0="$(articles_of "$W/base" enwiki)"
snapshot "$W/base" > "$W/base.snapshot"
LT="$("$BIN" export --db "$W/base" --format jsonl --min-sim 0 | head -n 1 | "$PY" -c 'import json,sys; print(json.load(sys.stdin)["normal_title"])')"
GEN clusters "$W/in/news.jsonl" variant=good
"$BIN" ingest --db "$W/news" --edition news "$W/in/news.jsonl" > /dev/null 2>&1
"$BIN" paraphrase --db "$W/news" --method l12 > /dev/null 2>&1
VEC="$DATA/vectors/lee_fasttext.vec"
GEN text "$W/in/pairs.tsv" variant=pairs
GEN text "$W/in/labelled.tsv" variant=pairs-labelled

# ------------------------------------------------------------------ command line edge
B="$W/base"
c cli-no-args 2 -- "$BIN"
c cli-unknown-subcommand 2 -k 'grep -q frobnicate "$ERR" || echo "message does not name the unknown word frobnicate"' -- "$BIN" frobnicate --db "$B"
c cli-unknown-option 2 -k 'grep -q -- --frob "$ERR" || echo "message does not name --frob"' -- "$BIN" export --db "$B" --format tsv --frob 1
c cli-help ok -- "$BIN" --help
c cli-version ok -- "$BIN" --version
for cmd in ingest show info align build lookup export stats paraphrase report score similarity eval wordalign aer; do
  c "cli-help-$cmd" ok -- "$BIN" "$cmd" --help
done
c cli-missing-db 2 -- "$BIN" info
c cli-db-empty-string 2 -- "$BIN" info --db ""
c cli-db-empty-string-ingest 2 -- "$BIN" ingest --db "" "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-db-nonexistent-info 6 -- "$BIN" info --db "$W/db/does-not-exist"
c cli-db-nonexistent-export 6 -- "$BIN" export --db "$W/db/does-not-exist" --format tsv
: > "$W/in/regular-file"
c cli-db-is-file 4/2 -- "$BIN" info --db "$W/in/regular-file"
c cli-db-is-file-ingest 4/2 -- "$BIN" ingest --db "$W/in/regular-file" --edition x "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-db-under-file 4/2 -- "$BIN" ingest --db "$W/in/regular-file/sub" --edition x "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-db-proc 4/2 -- "$BIN" ingest --db /proc/aligndb-campaign --edition x "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-input-missing 4 -d "$B" -f "$W/in/nope.xml" -- "$BIN" ingest --db "$B" "$W/in/nope.xml"
c cli-input-directory 4/3 -d "$B" -f "$W/in" -- "$BIN" ingest --db "$B" --edition enwiki "$W/in"
c cli-input-unknown-ext 2/3 -d "$B" -- "$BIN" ingest --db "$B" "$W/in/pairs.tsv"
c cli-jsonl-no-edition 2 -d "$B" -- "$BIN" ingest --db "$B" "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-threads-40000 any -t 120 -d "$B" -- "$BIN" ingest --db "$B" --threads 40000 --edition enwiki "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-threads-negative 2 -- "$BIN" ingest --db "$B" --threads -1 --edition enwiki "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-threads-text 2 -- "$BIN" ingest --db "$B" --threads many --edition enwiki "$DATA/swipe/swipe-sample.enwiki.jsonl"
c cli-threads-overflow 2 -- "$BIN" ingest --db "$B" --threads 99999999999 --edition enwiki "$DATA/swipe/swipe-sample.enwiki.jsonl"
for v in nan 1e999 2 abc inf; do
  c "export-min-sim-$v" 2 -- "$BIN" export --db "$B" --format tsv --min-sim "$v"
done
# -1 is a real bound: embedding similarities are cosines in [-1, 1] (and a paraphrase
# collection's scores are not cosines at all), so it selects everything and is not an error.
c export-min-sim--1 ok -- "$BIN" export --db "$B" --format tsv --min-sim -1
c export-max-below-min 2 -- "$BIN" export --db "$B" --format tsv --min-sim 0.9 --max-sim 0.1
c export-max-sim-nan 2 -- "$BIN" export --db "$B" --format tsv --max-sim nan
c stats-min-sim--1 ok -- "$BIN" stats --db "$B" --min-sim -1
c report-min-sim--1 ok -- "$BIN" report --db "$B" --out "$W/cases/rep--1" --min-sim -1
for v in nan 1e999; do
  c "stats-min-sim-$v" 2 -k 'grep -q "nan\|inf" "$OUT" && echo "stats prints nan/inf"' -- "$BIN" stats --db "$B" --min-sim "$v"
  c "report-min-sim-$v" 2 -- "$BIN" report --db "$B" --out "$W/cases/rep-$v" --min-sim "$v"
done
for o in "--paragraph-threshold nan" "--paragraph-threshold 2" "--paragraph-threshold -0.1" "--skip-penalty nan" "--skip-penalty -1" "--skip-penalty 1e999" "--max-idf-drift nan" "--max-idf-drift -1" "--theta nan" "--threshold nan" "--similarity bogus" "--mode bogus" "--similarity maximum" "--mode all-pairs"; do
  set -- $o
  c "align-opt${1}-${2}" 2 -d "$B" -- "$BIN" align --db "$B" --all $o
done
c align-vectors-missing 4/2 -d "$B" -f "$W/in/nope.vec" -- "$BIN" align --db "$B" --similarity maximum --vectors "$W/in/nope.vec"
c build-show-negative 2 -- "$BIN" build --db "$(fresh bshow)" --show -1 "$DATA/wikidumps/simplewiki-sample.xml.bz2"
c build-show-huge any -- "$BIN" build --db "$(fresh bshow2)" --show 2000000000 "$DATA/wikidumps/simplewiki-sample.xml.bz2"
c build-no-files 2 -- "$BIN" build --db "$(fresh bnof)"
c build-one-edition any -- "$BIN" build --db "$(fresh bone)" "$DATA/wikidumps/simplewiki-sample.xml.bz2"
for f in tsv jsonl; do
  c "export-$f-ok" ok -- "$BIN" export --db "$B" --format "$f" --min-sim 0
  c "export-$f-dev-full" 4 -- bash -c "'$BIN' export --db '$B' --format $f --min-sim 0 > /dev/full"
  c "export-$f-out-unwritable" 4 -f "/proc/nope/x.$f" -- "$BIN" export --db "$B" --format "$f" --out "/proc/nope/x.$f"
  c "export-$f-title-missing" 6/0 -- "$BIN" export --db "$B" --format "$f" --title "No Such Title Zz"
  c "export-$f-op-bogus" 2 -- "$BIN" export --db "$B" --format "$f" --op "1-1,7-7"
  c "export-$f-op-empty" 2/0 -- "$BIN" export --db "$B" --format "$f" --op ","
  c "export-$f-normal-missing" 6 -- "$BIN" export --db "$B" --format "$f" --normal nosuch --simple simplewiki
  c "export-$f-collection-missing" 6 -- "$BIN" export --db "$B" --format "$f" --collection nosuch
  c "export-$f-no-identical-ops" ok -- "$BIN" export --db "$B" --format "$f" --no-identical --op 1-1,2-1 --min-sim 0.6 --max-sim 0.99
done
c export-parallel-ok ok -- "$BIN" export --db "$B" --format parallel --out "$W/cases/par"
c export-parallel-no-out 2/0 -- "$BIN" export --db "$B" --format parallel
c export-parallel-unwritable 4 -- "$BIN" export --db "$B" --format parallel --out /proc/nope/par
c export-format-bogus 2 -- "$BIN" export --db "$B" --format xml
c export-title-ctrl 6/0 -k no_esc_out -- "$BIN" export --db "$B" --format tsv --title $'\x1b[2J\x07'
c lookup-ok ok -- "$BIN" lookup --db "$B" "$LT"
c lookup-json-ok ok -- "$BIN" lookup --db "$B" "$LT" --format json
c lookup-simple-only 6 -- "$BIN" lookup --db "$B" April
c lookup-missing 6 -- "$BIN" lookup --db "$B" "No Such Title Zz"
c lookup-ctrl-title 6 -k no_esc_out -- "$BIN" lookup --db "$B" $'\x1b]0;pwned\x07\x1b[2J'
c lookup-empty-title 6/2 -- "$BIN" lookup --db "$B" ""
c lookup-huge-title 6/2 -- "$BIN" lookup --db "$B" "$(head -c 100000 /dev/zero | tr '\0' T)"
c lookup-normal-no-pair 6 -k 'grep -qi "run align" "$ERR" && echo "says run align first although alignments exist"' -- "$BIN" lookup --db "$B" --normal enwiki --simple enwiki "$LT"
c show-ok ok -- "$BIN" show --db "$B" --edition simplewiki April
c show-json ok -- "$BIN" show --db "$B" April --format json
c show-all-jsonl ok -- "$BIN" show --db "$B" --edition simplewiki --all --format jsonl
c show-all-no-edition 2 -- "$BIN" show --db "$B" --all
c show-no-title 2 -- "$BIN" show --db "$B"
c show-missing 6 -- "$BIN" show --db "$B" "No Such Title Zz"
c show-edition-missing 6 -- "$BIN" show --db "$B" --edition nosuch April
c show-ctrl-title 6 -k no_esc_out -- "$BIN" show --db "$B" $'\x1b[31mX\x1b[0m\x07'
c show-format-bogus 2 -- "$BIN" show --db "$B" --format yaml April
c info-ok ok -- "$BIN" info --db "$B"
c info-json ok -- "$BIN" info --db "$B" --json
c stats-ok ok -- "$BIN" stats --db "$B"
c stats-json ok -- "$BIN" stats --db "$B" --json
c stats-normal-missing 6 -- "$BIN" stats --db "$B" --normal nosuch --simple simplewiki
c stats-ranges-no-310-digits ok -k 'grep -qE "[0-9]{40}" "$OUT" && echo "prints a number of more than 40 digits"' -- "$BIN" stats --db "$B" --min-sim 0
c report-ok ok -k "no_script '$W/cases/rep-ok'" -- "$BIN" report --db "$B" --out "$W/cases/rep-ok"
c report-out-unwritable 4 -- "$BIN" report --db "$B" --out /proc/nope/rep
c report-out-is-file 4/2 -- "$BIN" report --db "$B" --out "$W/in/regular-file"
c report-normal-missing 6 -- "$BIN" report --db "$B" --out "$W/cases/rep-nm" --normal nosuch --simple simplewiki

# ------------------------------------------------------------------ ingest: XML dumps
for v in $(GEN list-xml x); do
  f="$W/in/x-$v.xml"; GEN xml "$f" variant="$v" prefix="Zq $v"
  case "$v" in
    good | crlf | bom | cdata | title-slash | no-text | many-revisions | redirect-self | redirect-loop | wikitext-*) e=ok ;;
    latin1-decl | utf16-decl | deep-elements | huge-attr | siteinfo-twice | title-huge | ns-* | id-zero | id-missing | no-revision | entity-xxe | timestamp-garbage | whitespace | dup-*) e=any ;;
    *) e=3 ;;
  esac
  case "$v" in dbname-*) e=err ;; esac
  k="added_matches '$W/db/xml-$v' enwiki $EN0"; kb="added_matches '$W/db/bz-$v' enwiki 0"
  [ "$v" = siteinfo-twice ] && k="" kb=""
  [ "$v" = entity-xxe ] && k="$k; grep -q 'root:x:0' <(\"$BIN\" show --db '$W/db/xml-$v' --all --edition enwiki --format jsonl 2>/dev/null) && echo 'external entity read /etc/passwd into the database'"
  db="$(copybase "xml-$v")"
  c "ingest-xml-$v" "$e" -D "$db" -f "$f" -k "$k" -- "$BIN" ingest --db "$db" "$f"
  if [ "$QUICK" = 0 ]; then  # the same input through the bz2 reader
    bz="$W/in/b-$v.xml.bz2"; bzip2 -c "$f" > "$bz"
    db="$(fresh "bz-$v")"
    c "ingest-bz2-$v" "$e" -f "$bz" -k "$kb" -- "$BIN" ingest --db "$db" "$bz"
  fi
  rm -rf "$W/db/xml-$v" "$W/db/bz-$v"
done
c ingest-xml-edition-override ok -d "$B" -- "$BIN" ingest --db "$(copybase ovr)" --edition enwiki "$W/in/x-good.xml"
GEN xml "$W/in/x-simple-good.xml" variant=good db=simplewiki prefix="Zq good"
c ingest-full-truncated-keeps-pages 3 -D "$(copybase full-trunc)" -f "$W/in/x-truncated.xml" -k "[ \"\$(articles_of '$W/db/full-trunc' enwiki)\" -ge $EN0 ] || echo 'pages deleted by --full of a truncated dump'" -- "$BIN" ingest --db "$W/db/full-trunc" --full "$W/in/x-truncated.xml"
c ingest-full-empty-keeps-pages 3 -D "$(copybase full-empty)" -f "$W/in/x-empty.xml" -- "$BIN" ingest --db "$W/db/full-empty" --full "$W/in/x-empty.xml"
c ingest-good-then-bad-keeps-first 3 -D "$(copybase gtb)" -f "$W/in/x-malformed-tag.xml" -k "[ \"\$(articles_of '$W/db/gtb' enwiki)\" -ge \$((EN0+3)) ] || echo 'pages of the good first file were not kept'" -- "$BIN" ingest --db "$W/db/gtb" "$W/in/x-good.xml" "$W/in/x-malformed-tag.xml"
EN0=$EN0; export EN0

# ------------------------------------------------------------------ ingest: bz2 damage
for v in good corrupt-middle corrupt-header truncated not-bz2 empty empty-stream trailing-garbage gzip; do
  f="$W/in/z-$v.xml.bz2"; GEN bz2 "$f" variant="$v"
  case "$v" in good | not-bz2) e=ok ;; trailing-garbage) e=any ;; *) e=3 ;; esac
  k=""
  case "$v" in corrupt-* | truncated) k='grep -qiE "bz|bzip|compress" "$ERR" || echo "the message does not say the bz2 stream is damaged"' ;; esac
  c "ingest-bz2file-$v" "$e" -D "$(copybase "z-$v")" -f "$f" -k "$k" -- "$BIN" ingest --db "$W/db/z-$v" "$f"
  rm -rf "$W/db/z-$v"
done

# ------------------------------------------------------------------ ingest: multistream + index
for v in good wrong-offsets offset-beyond offset-negative offset-huge garbage-lines missing-title truncated empty unsorted foreign corrupt-stream truncated-dump index-not-bz2 index-corrupt-bz2; do
  p="$W/in/m-$v"; GEN multistream "$p" variant="$v"
  case "$v" in good) e=ok ;; truncated | missing-title | unsorted | index-not-bz2) e=any ;; *) e=3 ;; esac
  k=""
  [ "$v" = foreign ] && k='grep -qiE "match|belong|not the index|differ" "$ERR" || echo "a foreign index is not reported as not matching the dump"'
  c "ingest-multistream-$v" "$e" -D "$(copybase "m-$v")" -f "$p" -k "$k" -- "$BIN" ingest --db "$W/db/m-$v" --index "$p-index.txt.bz2" "$p.xml.bz2"
  rm -rf "$W/db/m-$v"
done
p="$W/in/m-good"
c multistream-index-missing 4 -f "$p-nope.txt.bz2" -- "$BIN" ingest --db "$(fresh mi)" --index "$p-nope.txt.bz2" "$p.xml.bz2"
c multistream-threads-0 ok -- "$BIN" ingest --db "$(fresh mt0)" --threads 0 --index "$p-index.txt.bz2" "$p.xml.bz2"
c multistream-threads-40000 any -t 120 -- "$BIN" ingest --db "$(fresh mt4)" --threads 40000 --index "$p-index.txt.bz2" "$p.xml.bz2"
c multistream-only-titles-missing 6/2/0 -- "$BIN" ingest --db "$(fresh mot)" --only-titles-of nosuch --index "$p-index.txt.bz2" "$p.xml.bz2"
c multistream-only-titles-no-index 2 -- "$BIN" ingest --db "$(fresh moti)" --only-titles-of simplewiki "$p.xml.bz2"
c multistream-index-on-jsonl 2/3 -- "$BIN" ingest --db "$(fresh mij)" --edition x --index "$p-index.txt.bz2" "$DATA/swipe/swipe-sample.enwiki.jsonl"
c multistream-no-index-ok ok -- "$BIN" ingest --db "$(fresh mno)" "$p.xml.bz2"

# ------------------------------------------------------------------ ingest: JSON lines
for v in good empty blank-lines invalid-json truncated-last not-object title-missing title-number title-empty title-ctrl title-slash title-huge id-negative id-23digits id-23digits-string id-float id-nan-string revision-negative dup-titles dup-titles-noid crlf bom nul paragraphs-bad paragraphs-nested-bad paragraphs-empty flags-bad no-text text-number deep-nesting huge-number many-small wide-paragraphs invalid-utf8 invalid-utf8-text; do
  f="$W/in/j-$v.jsonl"; GEN jsonl "$f" variant="$v"
  case "$v" in good | blank-lines | title-slash | title-ctrl | crlf | bom | many-small | wide-paragraphs | paragraphs-empty) e=ok ;; empty | nul | title-huge | no-text | dup-titles-noid | dup-titles | invalid-utf8-text | deep-nesting) e=any ;; *) e=3 ;; esac
  c "ingest-jsonl-$v" "$e" -D "$(copybase "j-$v")" -f "$f" -k "added_matches '$W/db/j-$v' enwiki $EN0" -- "$BIN" ingest --db "$W/db/j-$v" --edition enwiki "$f"
  [ "$v" = title-ctrl ] && c show-stored-ctrl-title ok -k no_esc_out -- "$BIN" show --db "$W/db/j-$v" --edition enwiki --all
  rm -rf "$W/db/j-$v"
done
c ingest-jsonl-edition-script err -- "$BIN" ingest --db "$(fresh ejs)" --edition '<script>alert(1)</script>' "$W/in/j-good.jsonl"
c ingest-jsonl-edition-slash err -- "$BIN" ingest --db "$(fresh ejsl)" --edition 'en/wiki' "$W/in/j-good.jsonl"
c ingest-jsonl-edition-empty-eq 2/4 -- "$BIN" ingest --db "$(fresh eje)" "=$W/in/j-good.jsonl"
c ingest-jsonl-edition-ctrl err -- "$BIN" ingest --db "$(fresh ejc)" --edition $'en\x1b[2J' "$W/in/j-good.jsonl"

# ------------------------------------------------------------------ ingest: news clusters
for v in good many cluster-number doc-missing sentences-not-array sentence-not-string no-text cluster-slash empty-sentences; do
  f="$W/in/n-$v.jsonl"; GEN clusters "$f" variant="$v"
  case "$v" in good | many) e=ok ;; cluster-slash | empty-sentences) e=any ;; *) e=3 ;; esac
  rm -rf "$W/db/n-$v"; cp -a "$W/news" "$W/db/n-$v"
  c "ingest-clusters-$v" "$e" -d "$W/db/n-$v" -f "$f" -- "$BIN" ingest --db "$W/db/n-$v" --edition news "$f"
  [ "$v" = cluster-slash ] && c paraphrase-cluster-slash any -d "$W/db/n-$v" -- "$BIN" paraphrase --db "$W/db/n-$v" --method f2
  rm -rf "$W/db/n-$v"
done

# ------------------------------------------------------------------ paraphrase
N="$W/news"
c paraphrase-l12-ok ok -d "$N" -- "$BIN" paraphrase --db "$N" --method l12
c paraphrase-f2-ok ok -d "$N" -- "$BIN" paraphrase --db "$N" --method f2
c paraphrase-method-bogus 2 -- "$BIN" paraphrase --db "$N" --method l13
for v in -1 nan 1e999 abc; do c "paraphrase-max-distance-$v" 2 -- "$BIN" paraphrase --db "$N" --max-distance "$v"; done
c paraphrase-collection-missing 6 -d "$N" -- "$BIN" paraphrase --db "$N" --collection nosuch
c paraphrase-on-wiki-db any -D "$(copybase pw)" -- "$BIN" paraphrase --db "$W/db/pw" --collection enwiki
c paraphrase-wiki-two-editions 2/6 -D "$(copybase pw2)" -- "$BIN" paraphrase --db "$W/db/pw2"
c export-collection-l12 ok -- "$BIN" export --db "$N" --collection news --format tsv --op l12
c export-collection-f2-jsonl ok -- "$BIN" export --db "$N" --collection news --format jsonl --op f2
c stats-collection ok -- "$BIN" stats --db "$N" --collection news
if [ "$QUICK" = 0 ]; then
  GEN clusters "$W/in/n-big-cluster.jsonl" variant=big-cluster
  GEN clusters "$W/in/n-long-sentence.jsonl" variant=long-sentence
  for m in l12 f2; do
    db="$(fresh "bigc-$m")"; "$BIN" ingest --db "$db" --edition news "$W/in/n-big-cluster.jsonl" > /dev/null 2>&1
    c "paraphrase-$m-cluster-3000x5" ok -t 180 -- "$BIN" paraphrase --db "$db" --method "$m"
    db="$(fresh "longs-$m")"; "$BIN" ingest --db "$db" --edition news "$W/in/n-long-sentence.jsonl" > /dev/null 2>&1
    c "paraphrase-$m-20000-word-sentences" ok -t 180 -- "$BIN" paraphrase --db "$db" --method "$m"
    rm -rf "$W/db/bigc-$m" "$W/db/longs-$m"
  done
else
  skip paraphrase-cluster-3000x5 "big input (--quick)"
fi

# ------------------------------------------------------------------ align: derived structures
# The Xapian paragraph index (align --candidates xapian): missing, empty, foreign, stale, garbage
# or a file. The index is derived: every case but a file in its place (exit 4, the file is left
# alone) must end with the records of the default align (the two sources give the same records).
ref="$(copybase alref)"; "$BIN" align --db "$ref" --all > /dev/null 2>&1
"$BIN" export --db "$ref" --format jsonl --min-sim 0 > "$W/align-ref.jsonl" 2> /dev/null
same_as_ref() { "$BIN" export --db "$1" --format jsonl --min-sim 0 2> /dev/null | cmp -s - "$W/align-ref.jsonl" || echo "export differs from align --all with an intact index ($(grep -c . "$W/align-ref.jsonl") rows before, $("$BIN" export --db "$1" --format jsonl --min-sim 0 2> /dev/null | grep -c .) after)"; }
XA=(--all --candidates xapian)
ixbase="$(copybase ixbase)"; "$BIN" align --db "$ixbase" "${XA[@]}" > /dev/null 2>&1
copyix() { rm -rf "$W/db/$1"; cp -a "$ixbase" "$W/db/$1"; echo "$W/db/$1"; }
c align-index-built ok -D "$(copyix ix-ok)" -k "same_as_ref '$W/db/ix-ok'; [ -d '$W/db/ix-ok/xapian' ] || echo 'no index built'" -- "$BIN" align --db "$W/db/ix-ok" "${XA[@]}"
db="$(copyix ix-missing)"; rm -rf "$db/xapian"
c align-index-missing ok -D "$db" -k "same_as_ref '$db'" -- "$BIN" align --db "$db" "${XA[@]}"
db="$(copyix ix-empty)"; rm -rf "$db/xapian"; mkdir "$db/xapian"
c align-index-empty-dir ok -D "$db" -k "same_as_ref '$db'" -- "$BIN" align --db "$db" "${XA[@]}"
other="$(copybase ix-other)"; "$BIN" ingest --db "$other" "$W/in/x-simple-good.xml" > /dev/null 2>&1
"$BIN" align --db "$other" "${XA[@]}" > /dev/null 2>&1
db="$(copyix ix-foreign)"; rm -rf "$db/xapian"; cp -a "$other/xapian" "$db/xapian" 2> /dev/null || mkdir "$db/xapian"
c align-index-foreign ok -D "$db" -k "same_as_ref '$db'" -- "$BIN" align --db "$db" "${XA[@]}"
db="$(copyix ix-stale)"; cp -a "$db/xapian" "$W/db/xapian-old"
"$BIN" ingest --db "$db" "$W/in/x-simple-good.xml" > /dev/null 2>&1
"$BIN" align --db "$db" "${XA[@]}" > /dev/null 2>&1  # the index moves on; the old copy is stale
rm -rf "$db/xapian"; mv "$W/db/xapian-old" "$db/xapian"
sref="$(copybase ix-stale-ref)"; "$BIN" ingest --db "$sref" "$W/in/x-simple-good.xml" > /dev/null 2>&1
"$BIN" align --db "$sref" --all > /dev/null 2>&1
"$BIN" export --db "$sref" --format jsonl --min-sim 0 > "$W/align-ref-stale.jsonl" 2> /dev/null
c align-index-stale any -k "'$BIN' export --db '$db' --format jsonl --min-sim 0 2>/dev/null | cmp -s - '$W/align-ref-stale.jsonl' || echo \"export differs from align --all with a current index (\$(grep -c . '$W/align-ref-stale.jsonl') rows expected, \$('$BIN' export --db '$db' --format jsonl --min-sim 0 2>/dev/null | grep -c .) after)\"" -- "$BIN" align --db "$db" "${XA[@]}"
db="$(copyix ix-garbage)"; rm -rf "$db/xapian"; mkdir "$db/xapian"; head -c 100000 /dev/urandom > "$db/xapian/postlist.glass"; echo junk > "$db/xapian/iamglass"
c align-index-garbage ok -D "$db" -k "same_as_ref '$db'" -- "$BIN" align --db "$db" "${XA[@]}"
db="$(copyix ix-truncated)"; for f in "$db"/xapian/*.glass; do [ -f "$f" ] && truncate -s 8192 "$f"; done
c align-index-truncated ok -D "$db" -k "same_as_ref '$db'" -- "$BIN" align --db "$db" "${XA[@]}"
db="$(copyix ix-file)"; rm -rf "$db/xapian"; echo file > "$db/xapian"
c align-index-is-file 4 -D "$db" -- "$BIN" align --db "$db" "${XA[@]}"
c align-index-is-file-default ok -D "$(copyix ix-file2)" -k "same_as_ref '$W/db/ix-file2'" -- bash -c "rm -rf '$W/db/ix-file2/xapian'; echo file > '$W/db/ix-file2/xapian'; '$BIN' align --db '$W/db/ix-file2' --all"
db="$(copybase ix-readers)"; rm -rf "$db/xapian"
c export-index-missing ok -- "$BIN" export --db "$db" --format tsv
c align-normal-missing 6 -D "$(copybase al6)" -- "$BIN" align --db "$W/db/al6" --normal nosuch --simple simplewiki
c align-same-edition 2/6 -D "$(copybase al7)" -- "$BIN" align --db "$W/db/al7" --normal enwiki --simple enwiki
c align-incremental-ok ok -D "$(copybase al8)" -- "$BIN" align --db "$W/db/al8"
c align-follow-redirects-loop ok -D "$(copybase al9)" -- bash -c "'$BIN' ingest --db '$W/db/al9' '$W/in/x-redirect-loop.xml' >/dev/null && '$BIN' align --db '$W/db/al9' --all --follow-redirects"
for v in vec-bad-dims vec-header-huge vec-header-dim-huge vec-nan vec-zero-dim vec-garbage vec-empty vec-count-short vec-bin-truncated; do
  GEN text "$W/in/$v.vec" variant="$v"
  c "align-vectors-$v" 3 -D "$(copybase "av-$v")" -f "$W/in/$v.vec" -- "$BIN" align --db "$W/db/av-$v" --all --similarity maximum --vectors "$W/in/$v.vec" --vectors-cache -
  rm -rf "$W/db/av-$v"
done
copybase aeo > /dev/null
c align-embed-ok ok --  "$BIN" align --db "$W/db/aeo" --all --similarity maximum --vectors "$VEC" --vectors-cache - --theta 0.49
copybase avc > /dev/null
c align-vectors-cache-unwritable any -- "$BIN" align --db "$W/db/avc" --similarity maximum --vectors "$VEC" --vectors-cache /proc/nope/cache
# Report with hostile titles and text in aligned editions, and hostile edition names.
GEN jsonl "$W/in/hostile.jsonl" variant=hostile-report
db="$(fresh hostile)"
"$BIN" ingest --db "$db" enwiki="$W/in/hostile.jsonl" simplewiki="$W/in/hostile.jsonl" "$DATA/wikidumps/simplewiki-sample.xml.bz2" > /dev/null 2>&1
"$BIN" align --db "$db" > /dev/null 2>&1
c report-hostile-titles-text ok -k "no_script '$W/cases/rep-h'" -- "$BIN" report --db "$db" --out "$W/cases/rep-h"
c lookup-hostile-title ok -- "$BIN" lookup --db "$db" "<script>alert(1)</script> | \`x\` [a](javascript:b)"
db="$(fresh hostile-ed)"
"$BIN" ingest --db "$db" --edition '<script>alert(1)</script>' "$W/in/hostile.jsonl" > /dev/null 2>&1
"$BIN" ingest --db "$db" --edition '<img src=x onerror=alert(3)>' "$W/in/hostile.jsonl" > /dev/null 2>&1
"$BIN" align --db "$db" --normal '<script>alert(1)</script>' --simple '<img src=x onerror=alert(3)>' > /dev/null 2>&1
c report-hostile-edition-names any -k "no_script '$W/cases/rep-he'" -- "$BIN" report --db "$db" --out "$W/cases/rep-he" --normal '<script>alert(1)</script>' --simple '<img src=x onerror=alert(3)>'
db="$(fresh hostile-dbname)"
"$BIN" ingest --db "$db" "$W/in/x-dbname-script.xml" "$W/in/j-good.jsonl" > /dev/null 2>&1
"$BIN" ingest --db "$db" --edition enwiki "$W/in/j-good.jsonl" > /dev/null 2>&1
"$BIN" align --db "$db" --normal enwiki --simple '<script>alert(1)</script>' > /dev/null 2>&1
c report-hostile-dbname any -k "no_script '$W/cases/rep-hd'" -- "$BIN" report --db "$db" --out "$W/cases/rep-hd" --normal enwiki --simple '<script>alert(1)</script>'

# ------------------------------------------------------------------ database directory damage
db="$(copybase sst)"; nsst="$(GEN corrupt-sst "$db")"
for cmd in "info" "export --format jsonl --min-sim 0" "stats" "lookup April" "show --edition simplewiki --all" "align --all" "report --out $W/cases/rep-sst"; do
  nm="${cmd%% *}"
  c "corrupt-sst-$nm" 3/4 -k 'grep -qi corrupt "$ERR" || echo "message does not say corruption"' -- "$BIN" $cmd --db "$db"
done
c corrupt-sst-ingest 3/4 -k 'grep -qi corrupt "$ERR" || echo "message does not say corruption"' -- "$BIN" ingest --db "$db" "$W/in/x-good.xml"
db="$(copybase cur)"; echo "MANIFEST-999999" > "$db/CURRENT"
c db-current-garbage 3/4 -- "$BIN" info --db "$db"
db="$(copybase man)"; rm -f "$db"/MANIFEST-*
c db-manifest-missing 3/4 -- "$BIN" info --db "$db"
db="$(copybase wal)"; for l in "$db"/*.log; do [ -f "$l" ] && truncate -s 7 "$l"; done
c db-wal-truncated-readers any -- "$BIN" export --db "$db" --format tsv
c db-wal-truncated-writer any -- "$BIN" align --db "$db"
db="$(copybase opt)"; for o in "$db"/OPTIONS-*; do echo garbage > "$o"; done
c db-options-garbage any -- "$BIN" info --db "$db"
mkdir -p "$W/db/emptydir"
c db-empty-dir-reader 2/3/6 -- "$BIN" export --db "$W/db/emptydir" --format tsv
GEN foreign-rocksdb "$W/db/foreign"
cp -a "$W/db/foreign" "$W/db/foreign.orig"
c foreign-rocksdb-ingest err -k "diff -rq '$W/db/foreign' '$W/db/foreign.orig' >/dev/null 2>&1 || [ \"\$RC\" != 0 ] || echo 'turned a foreign RocksDB into an aligndb database'" -- "$BIN" ingest --db "$W/db/foreign" --edition x "$W/in/j-good.jsonl"
c foreign-rocksdb-info err -- "$BIN" info --db "$W/db/foreign.orig"
c foreign-rocksdb-export err -- "$BIN" export --db "$W/db/foreign.orig" --format tsv

# ------------------------------------------------------------------ score / similarity / eval / wordalign / aer
S="$repo/tests/data/score"
for v in lines2 lines3 empty crlf nul long-line; do GEN text "$W/in/t-$v.txt" variant="$v"; done
"$PY" "$here/gen.py" invalid-utf8-pairs "$W/in/t-utf8.tsv"
c score-ok ok -- "$BIN" score --hyp "$S/hyp.txt" --ref "$S/ref1.txt" --ref "$S/ref2.txt"
c score-line-mismatch 2/3 -f "$W/in/t-lines2.txt" -- "$BIN" score --hyp "$W/in/t-lines2.txt" --ref "$W/in/t-lines3.txt"
c score-empty any -- "$BIN" score --hyp "$W/in/t-empty.txt" --ref "$W/in/t-empty.txt"
c score-missing 4 -f "$W/in/nope.txt" -- "$BIN" score --hyp "$W/in/nope.txt" --ref "$S/ref1.txt"
c score-directory 4/3 -f "$W/in" -- "$BIN" score --hyp "$W/in" --ref "$W/in"
c score-nul any -- "$BIN" score --hyp "$W/in/t-nul.txt" --ref "$W/in/t-nul.txt"
c score-invalid-utf8 any -- "$BIN" score --hyp "$W/in/t-utf8.tsv" --ref "$W/in/t-utf8.tsv"
[ "$QUICK" = 0 ] && c score-long-line ok -- "$BIN" score --hyp "$W/in/t-long-line.txt" --ref "$W/in/t-long-line.txt"
c score-no-ref 2 -- "$BIN" score --hyp "$S/hyp.txt"
for v in pairs pairs-labelled pairs-one-class pairs-bad-label no-tab empty one-column-tab many-columns crlf nul long-line many-tokens-pair msrp-header-only; do
  GEN text "$W/in/s-$v.tsv" variant="$v"
done
cp "$W/in/t-utf8.tsv" "$W/in/s-invalid-utf8.tsv"
for v in pairs pairs-labelled no-tab empty one-column-tab many-columns crlf nul long-line many-tokens-pair invalid-utf8 msrp-header-only; do
  [ "$QUICK" = 1 ] && [ "$v" = long-line ] && continue
  case "$v" in pairs | pairs-labelled | crlf | many-tokens-pair | long-line) e=ok ;; no-tab) e=3 ;; *) e=any ;; esac
  for m in tfidf wmd; do
    c "similarity-$m-$v" "$e" -f "$W/in/s-$v.tsv" -- "$BIN" similarity --method "$m" --vectors "$VEC" --vectors-cache - "$W/in/s-$v.tsv"
  done
done
if [ "$QUICK" = 0 ]; then
  GEN text "$W/in/s-6000-tokens.tsv" variant=many-tokens-pair n=6000
  for m in wmd hungarian maximum; do
    c "similarity-$m-6000-token-pair" ok -t 180 -- "$BIN" similarity --method "$m" --vectors "$VEC" --vectors-cache - "$W/in/s-6000-tokens.tsv"
  done
fi
c similarity-hungarian-long ok -- "$BIN" similarity --method hungarian --vectors "$VEC" --vectors-cache - "$W/in/s-many-tokens-pair.tsv"
c similarity-two-methods 2 -- "$BIN" similarity --method tfidf,wmd --vectors "$VEC" "$W/in/s-pairs.tsv"
c similarity-method-bogus 2 -- "$BIN" similarity --method bogus "$W/in/s-pairs.tsv"
c similarity-no-vectors 2 -- "$BIN" similarity --method wmd "$W/in/s-pairs.tsv"
c similarity-theta-nan 2 -- "$BIN" similarity --method maximum --theta nan --vectors "$VEC" "$W/in/s-pairs.tsv"
c similarity-missing-file 4 -f "$W/in/nope.tsv" -- "$BIN" similarity --method tfidf "$W/in/nope.tsv"
for v in vec-bad-dims vec-header-huge vec-header-dim-huge vec-nan vec-zero-dim vec-garbage vec-empty vec-count-short vec-bin-truncated; do
  c "similarity-$v" 3 -f "$W/in/$v.vec" -- "$BIN" similarity --method average --vectors "$W/in/$v.vec" --vectors-cache - "$W/in/s-pairs.tsv"
done
c eval-ok ok -- "$BIN" eval --method tfidf,maximum --vectors "$VEC" --vectors-cache - "$W/in/s-pairs-labelled.tsv"
c eval-one-class any -- "$BIN" eval --method tfidf "$W/in/s-pairs-one-class.tsv"
c eval-bad-label 3 -f "$W/in/s-pairs-bad-label.tsv" -- "$BIN" eval --method tfidf "$W/in/s-pairs-bad-label.tsv"
c eval-unlabelled 2/3 -f "$W/in/s-pairs.tsv" -- "$BIN" eval --method tfidf "$W/in/s-pairs.tsv"
c eval-empty any -- "$BIN" eval --method tfidf "$W/in/s-empty.tsv"
c eval-plot-unwritable 4 -- "$BIN" eval --method tfidf --plot /proc/nope/pr.svg "$W/in/s-pairs-labelled.tsv"
c eval-positive-at-nan 2 -- "$BIN" eval --method tfidf --positive-at nan "$W/in/s-pairs-labelled.tsv"
c eval-method-list-bogus 2 -- "$BIN" eval --method tfidf,,bogus "$W/in/s-pairs-labelled.tsv"
[ -f "$SHARED/paraphrase/msr_paraphrase_train.txt" ] && c eval-msrp-real ok -t 120 -- "$BIN" eval --method tfidf "$SHARED/paraphrase/msr_paraphrase_train.txt"
c wordalign-ok ok -- "$BIN" wordalign --vectors "$VEC" --vectors-cache - "$W/in/s-pairs.tsv"
c wordalign-no-vectors ok -- "$BIN" wordalign "$W/in/s-pairs.tsv"
for v in no-tab empty nul long-line many-tokens-pair invalid-utf8 crlf; do
  [ "$QUICK" = 1 ] && [ "$v" = long-line ] && continue
  case "$v" in no-tab) e=3 ;; many-tokens-pair | crlf) e=ok ;; *) e=any ;; esac
  c "wordalign-$v" "$e" -f "$W/in/s-$v.tsv" -- "$BIN" wordalign --vectors "$VEC" --vectors-cache - "$W/in/s-$v.tsv"
done
c wordalign-symmetrize-bogus 2 -- "$BIN" wordalign --symmetrize both "$W/in/s-pairs.tsv"
c wordalign-theta-nan 2 -- "$BIN" wordalign --theta nan "$W/in/s-pairs.tsv"
c wordalign-vectors-garbage 3 -f "$W/in/vec-garbage.vec" -- "$BIN" wordalign --vectors "$W/in/vec-garbage.vec" --vectors-cache - "$W/in/s-pairs.tsv"
for v in links-good links-bad links-neg links-huge gold-lines gold-json-bad gold-json-wrongtype gold-json-fields gold-json-oob; do
  GEN text "$W/in/a-$v.txt" variant="$v"
done
c aer-ok ok -- "$BIN" aer --gold "$W/in/a-gold-lines.txt" --pred "$W/in/a-links-good.txt"
for v in links-bad links-neg links-huge; do
  c "aer-pred-$v" 3 -f "$W/in/a-$v.txt" -- "$BIN" aer --gold "$W/in/a-gold-lines.txt" --pred "$W/in/a-$v.txt"
  c "aer-gold-$v" 2/3 -f "$W/in/a-$v.txt" -- "$BIN" aer --gold "$W/in/a-$v.txt" --pred "$W/in/a-links-good.txt"
done
for v in gold-json-bad gold-json-wrongtype gold-json-fields; do
  cp "$W/in/a-$v.txt" "$W/in/a-$v.json"
  c "aer-$v" 3 -f "$W/in/a-$v.json" -- "$BIN" aer --gold "$W/in/a-$v.json" --pred "$W/in/a-links-good.txt"
done
cp "$W/in/a-gold-json-oob.txt" "$W/in/a-gold-json-oob.json"
c aer-gold-json-oob any -- "$BIN" aer --gold "$W/in/a-gold-json-oob.json" --pred "$W/in/a-links-good.txt"
c aer-count-mismatch 2/3 -- "$BIN" aer --gold "$W/in/a-gold-lines.txt" --pred "$W/in/t-lines3.txt"
c aer-empty any -- "$BIN" aer --gold "$W/in/t-empty.txt" --pred "$W/in/t-empty.txt"
c aer-missing 4 -f "$W/in/nope.txt" -- "$BIN" aer --gold "$W/in/nope.txt" --pred "$W/in/a-links-good.txt"
[ -f "$SHARED/wordalign/gold.train.sure.json" ] && c aer-real-gold-vs-empty 2/3 -- "$BIN" aer --gold "$SHARED/wordalign/gold.train.sure.json" --pred "$W/in/a-links-good.txt"

# ------------------------------------------------------------------ concurrency: a second writer, readers during a writer
if [ "$QUICK" = 1 ]; then WPAGES=1500; else WPAGES=3000; fi  # long enough to meet the writer
"$PY" "$repo/tools/make_scale_dump.py" --pages "$WPAGES" --out "$W/in/scale-en.xml.bz2" --dbname bigen \
  --sources "$DATA/wikidumps/enwiki-gensim-sample.xml.bz2" > /dev/null 2>&1
"$PY" "$repo/tools/make_scale_dump.py" --pages $((WPAGES / 3)) --out "$W/in/scale-simple.xml.bz2" --dbname bigsimple \
  --sources "$DATA/wikidumps/simplewiki-sample.xml.bz2" "$DATA/wikidumps/enwiki-wikipedia2vec-sample.xml.bz2" \
  --titles-from "$W/in/scale-en.xml.bz2" --paired-share 0.5 > /dev/null 2>&1
db="$(copybase conc)"
snapshot "$db" > "$W/conc.before"
# The writer ingests, then aligns: readers meet memtable flushes and WAL switches of both.
prlimit --as="$AS" -- bash -c "'$BIN' ingest --db '$db' '$W/in/scale-en.xml.bz2' '$W/in/scale-simple.xml.bz2' && '$BIN' align --db '$db' --normal bigen --simple bigsimple" > "$W/conc.writer.out" 2> "$W/conc.writer.err" &
wpid=$!
sleep 1.5
kill -0 "$wpid" 2> /dev/null || echo "campaign: warning: the writer ended within 1.5 s; the second-writer cases below meet no writer (use more pages)" >&2
c second-writer-ingest 5 -- "$BIN" ingest --db "$db" "$W/in/x-good.xml"
c second-writer-align 5 -- "$BIN" align --db "$db" --normal bigen --simple bigsimple
c second-writer-paraphrase 5 -- "$BIN" paraphrase --db "$db" --collection enwiki
declare -A RTRY=() RFAIL=()
i=0
while kill -0 "$wpid" 2> /dev/null; do
  for r in export info lookup stats show; do
    case $r in
      export) a=(export --db "$db" --format jsonl --min-sim 0) ;; info) a=(info --db "$db") ;;
      lookup) a=(lookup --db "$db" "$LT") ;; stats) a=(stats --db "$db") ;;
      show) a=(show --db "$db" --edition simplewiki April) ;;
    esac
    timeout 60 "$BIN" "${a[@]}" > /dev/null 2> "$W/cases/reader.err"; rc=$?
    RTRY[$r]=$((${RTRY[$r]:-0} + 1))
    if [ $rc != 0 ]; then
      RFAIL[$r]=$((${RFAIL[$r]:-0} + 1)); echo "$r: exit $rc: $(head -c 200 "$W/cases/reader.err")" >> "$W/reader-failures.txt"
    fi
  done
  i=$((i + 1))
done
wait "$wpid"; wrc=$?
for r in export info lookup stats show; do
  READER_RUNS=$((READER_RUNS + ${RTRY[$r]:-0})); READER_FAILS=$((READER_FAILS + ${RFAIL[$r]:-0}))
  if [ "${RFAIL[$r]:-0}" = 0 ]; then
    PASS=$((PASS + 1)); say "PASS readers-during-writer-$r: ${RTRY[$r]:-0} runs during a writer, 0 failed"
  else
    FAIL=$((FAIL + 1)); NCAT[reader]=$((${NCAT[reader]:-0} + 1))
    say "FAIL readers-during-writer-$r: [reader] ${RFAIL[$r]} of ${RTRY[$r]} runs failed during a writer: $(grep "^$r:" "$W/reader-failures.txt" | head -n 1 | cut -c1-160)"
    printf '%s\treader\t%s\n' "readers-during-writer-$r" "$BIN ${r} --db DB (loop during ingest)" >> "$W/failures.tsv"
  fi
done
c writer-finished-after-readers ok -d "$db" -k "[ $wrc = 0 ] || echo 'the writer failed: exit $wrc'" -- "$BIN" info --db "$db"

# ------------------------------------------------------------------ full disk (tmpfs)
FD="$W/fulldisk"; mkdir -p "$FD"
if [ "$(id -u)" = 0 ] && mount -t tmpfs -o size=3m tmpfs "$FD" 2> /dev/null; then
  c fulldisk-ingest 4 -k 'grep -q "'"$FD"'" "$ERR" || echo "message does not name the database"' -- "$BIN" ingest --db "$FD/db" "$W/in/scale-en.xml.bz2"
  c fulldisk-readers-after-failed-ingest any -- "$BIN" info --db "$FD/db"
  rm -rf "${FD:?}"/*
  "$BIN" ingest --db "$FD/small" "$W/in/x-good.xml" > /dev/null 2>&1
  head -c 10000000 /dev/zero > "$FD/filler" 2> /dev/null
  c fulldisk-ingest-existing 4 -d "$FD/small" -- "$BIN" ingest --db "$FD/small" "$W/in/j-many-small.jsonl" --edition enwiki
  c fulldisk-export-out 4 -- "$BIN" export --db "$B" --format jsonl --min-sim 0 --out "$FD/out.jsonl"
  c fulldisk-export-parallel 4 -- "$BIN" export --db "$B" --format parallel --out "$FD/par"
  c fulldisk-report 4 -- "$BIN" report --db "$B" --out "$FD/rep"
  umount "$FD"
  if mount -t tmpfs -o size=24m tmpfs "$FD" 2> /dev/null; then
    cp -a "$W/base" "$FD/al"; cp -a "$W/news" "$FD/news"
    head -c 100000000 /dev/zero > "$FD/filler" 2> /dev/null
    c fulldisk-align 4/0 -d "$FD/al" -- "$BIN" align --db "$FD/al" --all
    c fulldisk-paraphrase 4/0 -d "$FD/news" -- "$BIN" paraphrase --db "$FD/news" --method f2
    umount "$FD"
  fi
else
  for n in ingest ingest-existing export-out report align paraphrase; do skip "fulldisk-$n" "cannot mount a tmpfs (needs root)"; done
fi

# ------------------------------------------------------------------ big inputs, kill -9 resumes
if [ "$QUICK" = 0 ]; then
  GEN bz2 "$W/in/z-bomb.xml.bz2" variant=bomb
  c ingest-bz2-300MB-page any -t 180 -f "$W/in/z-bomb.xml.bz2" -- "$BIN" ingest --db "$(fresh bomb)" "$W/in/z-bomb.xml.bz2"
  rm -rf "$W/db/bomb"
  GEN jsonl "$W/in/j-huge-line.jsonl" variant=huge-line
  db="$(fresh bigpage)"
  "$BIN" ingest --db "$db" enwiki="$W/in/j-huge-line.jsonl" simplewiki="$W/in/j-good.jsonl" > /dev/null 2>&1
  printf '{"title": "Zj huge", "text": "The river city people live north. Small large water mountain.\\nThe city people live north of the river. The water is large.\\nPeople live in the river city. Paragraph 3 ends."}\n' > "$W/in/j-huge-simple.jsonl"
  "$BIN" ingest --db "$db" --edition simplewiki "$W/in/j-huge-simple.jsonl" > /dev/null 2>&1
  c ingest-jsonl-60MB-line any -t 180 -- "$BIN" ingest --db "$(fresh bigline)" --edition enwiki "$W/in/j-huge-line.jsonl"
  c align-60MB-page-pair any -t 180 -- "$BIN" align --db "$db" --all --paragraph-threshold 0.01
  rm -rf "$W/db/bigpage" "$W/db/bigline"
  # kill -9 at random moments during the creation of the database (its first 0.1 s), during
  # ingest and during align, then resume: the export must be identical to an uninterrupted run's.
  ref="$(fresh k9ref)"
  "$BIN" ingest --db "$ref" "$W/in/scale-en.xml.bz2" "$W/in/scale-simple.xml.bz2" > /dev/null 2>&1
  s0=$(date +%s.%N); "$BIN" align --db "$ref" --normal bigen --simple bigsimple > /dev/null 2>&1; s1=$(date +%s.%N)
  "$BIN" export --db "$ref" --format jsonl --min-sim 0 > "$W/k9.ref" 2> /dev/null
  [ -s "$W/k9.ref" ] || echo "campaign: the kill -9 reference exported nothing" >&2
  RANDOM=42
  for k in 1 2 3 4 5 6; do
    for phase in create ingest align; do
      db="$(fresh "k9-$phase-$k")"
      if [ "$phase" = align ]; then
        "$BIN" ingest --db "$db" "$W/in/scale-en.xml.bz2" "$W/in/scale-simple.xml.bz2" > /dev/null 2>&1
        delay="$(awk -v r=$RANDOM -v d="$(awk -v a="$s0" -v b="$s1" 'BEGIN{print b - a}')" 'BEGIN{printf "%.2f", 0.2 + (r/32767)*d*0.9}')"
        "$BIN" align --db "$db" --normal bigen --simple bigsimple > /dev/null 2>&1 & p=$!
      elif [ "$phase" = create ]; then
        # its own random numbers: the ingest and align phases draw the moments of earlier runs
        delay="$(awk -v k=$k 'BEGIN{srand(k); printf "%.3f", 0.005 + rand()*0.1}')"
        "$BIN" ingest --db "$db" "$W/in/scale-en.xml.bz2" "$W/in/scale-simple.xml.bz2" > /dev/null 2>&1 & p=$!
      else
        delay="$(awk -v r=$RANDOM 'BEGIN{printf "%.2f", 0.3 + (r/32767)*12}')"
        "$BIN" ingest --db "$db" "$W/in/scale-en.xml.bz2" "$W/in/scale-simple.xml.bz2" > /dev/null 2>&1 & p=$!
      fi
      sleep "$delay"; kill -9 "$p" 2> /dev/null; wait "$p" 2> /dev/null
      K9_RUNS=$((K9_RUNS + 1))
      c "kill9-$phase-$k-at-${delay}s-resume" ok -t 600 -k "
        '$BIN' export --db '$db' --format jsonl --min-sim 0 2>/dev/null | cmp -s - '$W/k9.ref' || echo 'export after resume differs from an uninterrupted run'" \
        -- bash -c "'$BIN' ingest --db '$db' '$W/in/scale-en.xml.bz2' '$W/in/scale-simple.xml.bz2' > /dev/null && '$BIN' align --db '$db' --normal bigen --simple bigsimple"
      if ! grep -q "^FAIL kill9-$phase-$k-" "$LOG"; then K9_SAME=$((K9_SAME + 1)); fi
      c "kill9-$phase-$k-info-not-running" ok -k "grep -q running \"\$OUT\" && echo 'the killed run still shows as running'" -- "$BIN" info --db "$db"
      rm -rf "$db"
    done
  done
else
  skip big-inputs "big inputs and kill -9 resumes (--quick)"
fi

# ------------------------------------------------------------------ summary
echo | tee -a "$LOG"
say "campaign: $PASS passed, $FAIL failed$( [ "$SKIP" -gt 0 ] && echo ", $SKIP skipped")"
say "  clear errors: $ERRCLEAR of $ERRCASES cases expecting an error (documented exit code, one line naming the input)"
say "  crashes: ${NCAT[crash]:-0}; hangs: ${NCAT[hang]:-0}; data lost: ${NCAT[lost]:-0}; memory over bound: ${NCAT[memory]:-0}"
say "  bad input accepted silently: ${NCAT[accepted]:-0}; wrong exit code: ${NCAT[code]:-0}; unclear message: ${NCAT[message]:-0}; other checks: ${NCAT[check]:-0}"
say "  reader failures: $READER_FAILS of $READER_RUNS reader runs during a writer"
if [ "$K9_RUNS" -gt 0 ]; then say "  kill-9 resumes identical: $K9_SAME of $K9_RUNS"; else say "  kill-9 resumes identical: not run (--quick)"; fi
say "  log: $LOG; failures: $W/failures.tsv"
exit 0

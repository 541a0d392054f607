#!/usr/bin/env python3
"""Reference of the good / partial label of aligned pairs (both units), and its evaluation.

label(normal_sentences, simple_sentences, idf) -> "good" | "partial"

  normal_sentences, simple_sentences: the sentences of each side of the row, as aligndb split
      them (sentence unit: one each; operation unit: 1-2 -> [n], [s1, s2]; 2-1 -> [n1, n2], [s];
      2-2 -> [n1, n2], [s1, s2]).
  idf: dict token -> ln(N / df) over all paragraphs of both editions (the aligner's table);
      a token missing from it gets ln(N) (pass N via idf_max, default: max of the table).

The rule (all constants in PARAMS):
  tokens = maximal runs of Unicode letters/digits, case-folded (the aligner's tokens)
  content token = token not in STOP
  weight(t) = idf(t) * (NUM_BOOST if t starts with a digit)
                     * (PAREN_WEIGHT if t is inside (...) or [...])
  For every sentence X of either side, against the whole other side O (token set of all its
  sentences): t in X is covered iff t occurs in O.
    cov(X)  = covered content weight / content weight of X              (1.0 if X has none)
    run(X)  = largest weight of a maximal run of consecutive uncovered content tokens
              (function words inside a run do not break it; a covered content token does)
    crun(X) = the same, but only over runs that open a clause: between the run's first token
              and the preceding content token (or sentence start) there is a ';' or a token of
              OPENERS ("and", "but", "who", "which", ...)
  good iff for every sentence X of both sides:
        cov(X) >= MIN_COV  and  run(X) <= MAX_RUN  and  crun(X) <= MAX_CLAUSE_RUN
  else partial.

Tried and left out (figures in the final message): prefix matching of tokens (PREFIX=4/5/6:
lower precision on multi-sentence operations), capitalised tokens weighing more, separate
thresholds for multi-sentence operations, coverage of the joined text only.

Run `/usr/bin/python3 tools/labels/label_rule.py` (ALIGNDB=binary, LABEL_WORKDIR=scratch folder,
default /tmp/aligndb-label-rule; its database and export are made anew each run) for the
evaluation on data/labels (weighted figures, 5-fold cross-validation, agreement with the second
labelling, ablations).
"""
import collections
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys

PARAMS = dict(MIN_COV=0.5, MAX_RUN=18.0, MAX_CLAUSE_RUN=8.0, NUM_BOOST=2.0, PAREN_WEIGHT=0.3)

STOP = frozenset("""a an the and or but nor so yet of in on at to for from by with without into onto
upon over under about above below between among through during before after since until till as
than then that this these those there here which who whom whose what when where why how it its he
him his she her hers they them their theirs we us our you your i me my is are was were be been
being am has have had having do does did done will would shall should can could may might must
not no also too very more most such other another some any all each both either neither one s t
only just even still well like up down out off again further once while because if though although
whether known called became become becomes""".split())
OPENERS = frozenset("and but who which while whereas where whose although though because".split())
TOKEN = re.compile(r"[^\W_]+")


def tokenize(sentence, idf, idf_max, p):
    """[(folded token, is_content, weight, opens_clause)]"""
    out, depth, pos = [], 0, 0
    for m in TOKEN.finditer(sentence):
        gap = sentence[pos:m.start()]
        for ch in gap:
            if ch in "([":
                depth += 1
            elif ch in ")]" and depth > 0:
                depth -= 1
        pos = m.end()
        word = m.group()
        f = word.casefold()
        w = idf.get(f, idf_max)
        if word[0].isdigit():
            w *= p["NUM_BOOST"]
        if depth > 0:
            w *= p["PAREN_WEIGHT"]
        out.append((f, f not in STOP, w, ";" in gap or f in OPENERS))
    return out


def covered_by(f, other, k):
    if f in other:
        return True
    return k > 0 and len(f) >= k and f[:k] in other


def sentence_features(toks, other, k=0):
    """cov, run, crun of one sentence against the other side's token set."""
    total = covered = run = best = best_clause = 0.0
    opened = clause = False
    for f, content, w, opens in toks:
        if opens:
            opened = True
        if not content:
            continue
        total += w
        if covered_by(f, other, k):
            covered += w
            run, clause = 0.0, False
        else:
            if run == 0.0:
                clause = opened
            run += w
            best = max(best, run)
            if clause:
                best_clause = max(best_clause, run)
        opened = False
    return (covered / total if total else 1.0), best, best_clause


def features(normal_sentences, simple_sentences, idf, idf_max=None, p=PARAMS):
    """(min cov, max run, max clause run) over the sentences of both sides."""
    if idf_max is None:
        idf_max = max(idf.values()) if idf else 1.0
    N = [tokenize(s, idf, idf_max, p) for s in normal_sentences]
    S = [tokenize(s, idf, idf_max, p) for s in simple_sentences]
    k = p.get("PREFIX", 0)
    nset = {t[0] for s in N for t in s}
    sset = {t[0] for s in S for t in s}
    if k:  # also the k-letter prefixes of the other side's tokens of >= k letters
        nset |= {t[:k] for t in nset if len(t) >= k}
        sset |= {t[:k] for t in sset if len(t) >= k}
    fs = [sentence_features(s, sset, k) for s in N] + [sentence_features(s, nset, k) for s in S]
    return min(f[0] for f in fs), max(f[1] for f in fs), max(f[2] for f in fs)


def decide(feat, p=PARAMS):
    cov, run, crun = feat
    ok = cov >= p["MIN_COV"] and run <= p["MAX_RUN"] and crun <= p["MAX_CLAUSE_RUN"]
    return "good" if ok else "partial"


def label(normal_sentences, simple_sentences, idf, idf_max=None, p=PARAMS):
    return decide(features(normal_sentences, simple_sentences, idf, idf_max, p), p)


# ----------------------------------------------------------------------------------------------
# Evaluation
# ----------------------------------------------------------------------------------------------
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LABELS = os.path.join(REPO, "data", "labels")
SWIPE = os.environ.get("SWIPE_VAL", os.path.join(REPO, "..", "shared", "data", "paired", "swipe_val.json"))
ALIGNDB = os.environ.get("ALIGNDB", os.path.join(REPO, "build", "aligndb"))
HERE = os.environ.get("LABEL_WORKDIR", "/tmp/aligndb-label-rule")
HI = ("0.5-0.75", ">=0.75")


def build_dev(work=HERE):
    """Dev rows with their sentences (from the export) and the aligner's idf table
    (recomputed exactly: paragraphs of both editions of converted SWiPE val). The conversion,
    database and export are made anew each run: a kept export of another build would silently
    measure that build's sentences."""
    os.makedirs(work, exist_ok=True)
    prefix = os.path.join(work, "val")
    subprocess.run(["/usr/bin/python3", os.path.join(REPO, "tools", "swipe_to_jsonl.py"), SWIPE, prefix],
                   check=True, stdout=subprocess.DEVNULL)
    export = os.path.join(work, "export.jsonl")
    db = os.path.join(work, "db")
    shutil.rmtree(db, ignore_errors=True)
    subprocess.run([ALIGNDB, "ingest", "--db", db, f"enwiki={prefix}.enwiki.jsonl",
                    f"simplewiki={prefix}.simplewiki.jsonl"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run([ALIGNDB, "align", "--db", db], check=True, stdout=subprocess.DEVNULL)
    with open(export, "w") as f:
        subprocess.run([ALIGNDB, "export", "--db", db, "--format", "jsonl", "--min-sim", "0"],
                       check=True, stdout=f)
    paras = []
    for ed in ("enwiki", "simplewiki"):
        for line in open(f"{prefix}.{ed}.jsonl", encoding="utf-8"):
            for para in json.loads(line)["text"].split("\n"):
                if para.strip():
                    paras.append({t.casefold() for t in TOKEN.findall(para)})
    df = collections.Counter(t for p in paras for t in p)
    idf = {t: math.log(len(paras) / c) for t, c in df.items()}
    idf_max = math.log(len(paras))
    nsent, ssent = {}, {}
    for line in open(export, encoding="utf-8"):
        r = json.loads(line)
        nsent[(r["normal_title"], tuple(r["normal_index"]))] = r["normal"]
        ssent[(r["normal_title"], tuple(r["simple_index"]))] = r["simple"]
    lab1 = {json.loads(l)["key"]: json.loads(l) for l in open(f"{LABELS}/swipe-val-dev.labels.jsonl")}
    lab2 = {json.loads(l)["key"]: json.loads(l) for l in open(f"{LABELS}/swipe-val-dev.labels2.jsonl")}
    rows, dropped = [], 0
    for line in open(f"{LABELS}/swipe-val-dev.jsonl", encoding="utf-8"):
        r = json.loads(line)
        t = r["normal_title"]
        ni = [r["normal_index"]] if r["unit"] == "sentence" else r["normal_index"]
        si = [r["simple_index"]] if r["unit"] == "sentence" else r["simple_index"]
        r["ns"] = [nsent.get((t, tuple(i))) for i in ni]
        r["ss"] = [ssent.get((t, tuple(i))) for i in si]
        # A row counts only when this aligndb exports it with the texts that were labelled (the
        # sentence splitter may have changed since the sample was drawn), as measure_export.py.
        if None in r["ns"] + r["ss"] or " ".join(r["ns"]) != r["normal"] or " ".join(r["ss"]) != r["simple"]:
            dropped += 1
            continue
        r["label"], r["label2"] = lab1[r["key"]]["label"], lab2[r["key"]]["label"]
        r["note"] = lab1[r["key"]].get("note", "")
        rows.append(r)
    print(f"dev rows: {len(rows) + dropped}; exported with the labelled texts: {len(rows)} (used)")
    return rows, idf, idf_max


STRATA = {(s["unit"], s["op"], s["band"]): s["population"]
          for s in json.load(open(f"{LABELS}/swipe-val-dev.strata.json"))}


def unit_rows(rows, unit, ops=None):
    """Operation unit = operation rows + the sentence 1-1 rows (a 1-1 operation is that row)."""
    if unit == "sentence":
        out = [r for r in rows if r["unit"] == "sentence"]
    else:
        out = [r for r in rows if r["unit"] == "operation" or (r["unit"] == "sentence" and r["op"] == "1-1")]
    return [r for r in out if ops is None or r["op"] in ops]


def wstats(rows, pred, unit, ref="label", bands=HI, ops=None):
    """Population-weighted precision and recall of `good` (sample strata weighted by export size)."""
    rs = [r for r in unit_rows(rows, unit, ops) if r["band"] in bands]
    n = collections.Counter((r["unit"], r["op"], r["band"]) for r in rs)
    tp = pg = tg = 0.0
    for r in rs:
        s = (r["unit"], r["op"], r["band"])
        w = STRATA[s] / n[s]
        g, p = r[ref] == "good", pred[r["key"]] == "good"
        tp += w * (g and p)
        pg += w * p
        tg += w * g
    return (tp / pg if pg else float("nan")), (tp / tg if tg else float("nan"))


def counts(rows, pred, unit, ref="label", bands=HI, ops=None):
    rs = [r for r in unit_rows(rows, unit, ops) if r["band"] in bands]
    tp = sum(r[ref] == "good" and pred[r["key"]] == "good" for r in rs)
    return tp, sum(pred[r["key"]] == "good" for r in rs), sum(r[ref] == "good" for r in rs)


GRID = dict(MIN_COV=[0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8],
            MAX_RUN=[12, 14, 16, 18, 20, 22, 24, 28, 1e9],
            MAX_CLAUSE_RUN=[6, 8, 10, 12, 14, 1e9])
PMIN = 0.95  # tuning: maximise recall(op) + recall(sentence) s.t. both weighted precisions >= PMIN (margin over the 0.90 target)


def tune(rows, feats, grid=GRID):
    best = None
    for c in grid["MIN_COV"]:
        for r in grid["MAX_RUN"]:
            for cr in grid["MAX_CLAUSE_RUN"]:
                p = dict(PARAMS, MIN_COV=c, MAX_RUN=r, MAX_CLAUSE_RUN=cr)
                pred = {x["key"]: decide(feats[x["key"]], p) for x in rows}
                po, ro = wstats(rows, pred, "operation")
                ps, rs = wstats(rows, pred, "sentence")
                po, ps = (0 if v != v else v for v in (po, ps))
                feas = po >= PMIN and ps >= PMIN
                # ties: prefer the stricter setting (higher precision), then the earlier grid point
                s = (feas, (ro + rs) if feas else (po + ps), po + ps)
                if best is None or s > best[0]:
                    best = (s, p)
    return best[1]


def cross_validate(rows, feats, seed, k=5, grid=GRID):
    rs = sorted(rows, key=lambda r: r["key"])
    random.Random(seed).shuffle(rs)
    folds = [rs[i::k] for i in range(k)]
    pred, chosen = {}, []
    for f in range(k):
        train = [r for g in range(k) if g != f for r in folds[g]]
        p = tune(train, feats, grid)
        chosen.append((p["MIN_COV"], p["MAX_RUN"], p["MAX_CLAUSE_RUN"]))
        pred.update({r["key"]: decide(feats[r["key"]], p) for r in folds[f]})
    return pred, chosen


def report(rows, pred, title):
    print(f"\n## {title}")
    print("| unit | rows | ref | weighted P(good) | weighted R(good) | raw tp/pred/true |")
    print("|---|---|---|---:|---:|---|")
    for unit, ops, name in (("operation", None, "operation (all ops)"),
                            ("operation", ("1-2", "2-1", "2-2"), "operation 1-2/2-1/2-2"),
                            ("sentence", None, "sentence (all ops)"),
                            ("sentence", ("1-2", "2-1", "2-2"), "sentence 1-2/2-1/2-2")):
        for ref in ("label", "label2"):
            p, r = wstats(rows, pred, unit, ref, HI, ops)
            c = counts(rows, pred, unit, ref, HI, ops)
            print(f"| {name} | sim>=0.5 | {'1st' if ref == 'label' else '2nd'} | {p:.3f} | {r:.3f} | {c} |")


def kappa(a, b):
    n = len(a)
    po = sum(x == y for x, y in zip(a, b)) / n
    ca, cb = collections.Counter(a), collections.Counter(b)
    pe = sum(ca[k] * cb[k] for k in set(ca) | set(cb)) / n / n
    return po, (po - pe) / (1 - pe)


def main():
    rows, idf, idf_max = build_dev()
    feats = {r["key"]: features(r["ns"], r["ss"], idf, idf_max) for r in rows}
    pred = {r["key"]: decide(feats[r["key"]]) for r in rows}
    print(f"# label rule on the development set ({len(rows)} rows)")
    print("constants:", PARAMS)
    report(rows, pred, "Final rule, whole dev set, similarity >= 0.5 (population-weighted)")
    for ref in ("label", "label2"):
        for unit in ("operation", "sentence"):
            p, r = wstats(rows, pred, unit, ref, HI + ("0.3-0.5",))
            print(f"  {unit}, all bands >= 0.3, ref {ref}: weighted P {p:.3f} R {r:.3f}")
    print("\nper band (weighted, 1st labelling):")
    for unit in ("operation", "sentence"):
        for b in ("0.3-0.5",) + HI:
            p, r = wstats(rows, pred, unit, "label", (b,))
            c = counts(rows, pred, unit, "label", (b,))
            print(f"  {unit:9s} {b:8s}: P {p:.3f} R {r:.3f}  raw tp/pred/true {c}")
    # stratified bootstrap of the weighted figures (resample rows within each stratum)
    rng = random.Random(15)
    by = collections.defaultdict(list)
    for r in rows:
        by[(r["unit"], r["op"], r["band"])].append(r)
    boot = collections.defaultdict(list)
    for _ in range(1000):
        rs, pr2 = [], {}
        for s, members in by.items():
            for j in range(len(members)):
                m = dict(members[rng.randrange(len(members))])
                m["key"] = f"{m['key']}#{j}"
                pr2[m["key"]] = pred[m["key"].rsplit("#", 1)[0]]
                rs.append(m)
        for unit in ("operation", "sentence"):
            p, r = wstats(rs, pr2, unit)
            boot[unit + " P"].append(p)
            boot[unit + " R"].append(r)
    print("stratified bootstrap, 1000 resamples, 90% intervals (sim >= 0.5, 1st labelling):")
    for k, v in boot.items():
        v = sorted(x for x in v if x == x)
        print(f"  {k}: {v[int(0.05 * len(v))]:.3f} - {v[int(0.95 * len(v)) - 1]:.3f}")
    # agreement of the rule with each labelling (binary good / not good) and of the labellings
    g1 = ["good" if r["label"] == "good" else "not" for r in rows]
    g2 = ["good" if r["label2"] == "good" else "not" for r in rows]
    gp = [pred[r["key"]] if pred[r["key"]] == "good" else "not" for r in rows]
    print("\nraw agreement / kappa on good vs not-good, all %d rows: rule-1st %.3f / %.3f; "
          "rule-2nd %.3f / %.3f; 1st-2nd %.3f / %.3f" % (len(rows), *kappa(gp, g1), *kappa(gp, g2), *kappa(g1, g2)))

    print("\n## 5-fold cross-validation (thresholds MIN_COV, MAX_RUN, MAX_CLAUSE_RUN tuned on 4 folds,")
    print("## measured on the 5th; out-of-fold predictions pooled, weighted as above)")
    res = []
    for seed in (15, 1, 2, 3, 4, 5, 6, 7, 8, 9):
        cvp, chosen = cross_validate(rows, feats, seed)
        vals = (*wstats(rows, cvp, "operation"), *wstats(rows, cvp, "sentence"),
                *wstats(rows, cvp, "operation", ops=("1-2", "2-1", "2-2")))
        res.append(vals)
        print(f"seed {seed:2d}: op P {vals[0]:.3f} R {vals[1]:.3f} | sent P {vals[2]:.3f} R {vals[3]:.3f}"
              f" | multi-op P {vals[4]:.3f} R {vals[5]:.3f} | chosen {chosen}")
    m = [statistics.mean(v[i] for v in res) for i in range(6)]
    lo = [min(v[i] for v in res) for i in range(6)]
    print("mean of 10 seeds: op P %.3f R %.3f | sent P %.3f R %.3f | multi-op P %.3f R %.3f" % tuple(m))
    print("min  of 10 seeds: op P %.3f R %.3f | sent P %.3f R %.3f | multi-op P %.3f R %.3f" % tuple(lo))

    print("\n## Ablations (whole dev set, weighted, sim >= 0.5; thresholds re-tuned on the whole set)")
    def ablate(name, fe, grid=GRID):
        p = tune(rows, fe, grid)
        pr = {r["key"]: decide(fe[r["key"]], p) for r in rows}
        o, s = wstats(rows, pr, "operation"), wstats(rows, pr, "sentence")
        mo = wstats(rows, pr, "operation", ops=("1-2", "2-1", "2-2"))
        cvs = [cross_validate(rows, fe, sd, grid=grid)[0] for sd in (15, 1, 2)]
        cv = [statistics.mean(wstats(rows, c, u)[i] for c in cvs) for u in ("operation", "sentence") for i in (0, 1)]
        print(f"- {name}: op P {o[0]:.3f} R {o[1]:.3f} | sent P {s[0]:.3f} R {s[1]:.3f} | multi-op P {mo[0]:.3f} "
              f"R {mo[1]:.3f} | CV(3 seeds) op P {cv[0]:.3f} R {cv[1]:.3f} sent P {cv[2]:.3f} R {cv[3]:.3f}"
              f" [{p['MIN_COV']}, {p['MAX_RUN']}, {p['MAX_CLAUSE_RUN']}]")
    joined = {r["key"]: features([" ".join(r["ns"])], [" ".join(r["ss"])], idf, idf_max) for r in rows}
    cov_only = dict(GRID, MAX_RUN=[1e9], MAX_CLAUSE_RUN=[1e9])
    ablate("joined-text coverage only (no per-sentence, no runs)", joined, cov_only)
    ablate("per-sentence coverage only", feats, cov_only)
    ablate("per-sentence coverage + run (no clause run)", feats, dict(GRID, MAX_CLAUSE_RUN=[1e9]))
    ablate("final rule (coverage + run + clause run)", feats)
    for name, ch in (("no number boost", dict(NUM_BOOST=1.0)), ("no parenthetical discount", dict(PAREN_WEIGHT=1.0)),
                     ("parentheticals ignored", dict(PAREN_WEIGHT=0.0))):
        pp = dict(PARAMS, **ch)
        ablate(name, {r["key"]: features(r["ns"], r["ss"], idf, idf_max, pp) for r in rows})

    if "-v" in sys.argv:
        print("\n## Errors of the final rule (sim >= 0.5)")
        for r in rows:
            if r["band"] in HI and (pred[r["key"]] == "good") != (r["label"] == "good"):
                kind = "FALSE GOOD" if pred[r["key"]] == "good" else "missed good"
                print(f"{kind} [{r['unit']} {r['op']} {r['band']} 1st={r['label']} 2nd={r['label2']}] "
                      f"feat={tuple(round(x, 2) for x in feats[r['key']])}\n  N: {r['normal']}\n  S: {r['simple']}\n"
                      f"  note: {r['note']}")


if __name__ == "__main__":
    main()

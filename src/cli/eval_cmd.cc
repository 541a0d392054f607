// score, similarity, eval, wordalign, aer: commands over files, without a database.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "align/scorer.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/terminal.h"
#include "embed/embeddings.h"
#include "embed/word_similarity.h"
#include "eval/eval.h"
#include "paraphrase/wordalign.h"
#include "report/report.h"
#include "text/text.h"
#include "util/files.h"
#include "util/line_reader.h"

namespace aligndb::cli {
namespace {

using nlohmann::ordered_json;

// ------------------------------------------------------------------ score

Status ReadLines(const std::string& path, std::vector<std::string>* lines) {
  std::ifstream in;
  RETURN_IF_ERROR(OpenInputFile(path, &in));
  LineReader reader(in);
  std::string line;
  while (reader.Next(&line)) lines->push_back(line);
  if (in.bad()) return Status::IOError(path + ": read failed");
  if (lines->empty()) return Status::Corruption(path + ": empty (expected one sentence a line)");
  return Status::OK();
}

struct ScoreArgs {
  std::string hyp, src;
  std::vector<std::string> refs;
  bool json = false;
  size_t max_words = kDefaultMaxScoreWords;
};

Status RunScore(const ScoreArgs& a) {
  std::vector<std::string> h;
  RETURN_IF_ERROR(ReadLines(a.hyp, &h));
  std::vector<std::vector<std::string>> r(a.refs.size());
  for (size_t k = 0; k < a.refs.size(); ++k) RETURN_IF_ERROR(ReadLines(a.refs[k], &r[k]));
  SimplificationScores s;
  RETURN_IF_ERROR(ScoreSimplification(h, r, &s, a.max_words).WithPrefix(a.hyp));
  if (s.skipped_long > 0)
    std::cerr << "aligndb: warning: " << TerminalSafe(a.hyp) << ": " << s.skipped_long
              << " lines with more than --max-words " << a.max_words
              << " words (hypothesis or reference) left out of the scores\n";
  if (a.json) {
    ordered_json j = {
        {"bleu", s.bleu}, {"word_f1", s.word_f1}, {"ssa", s.ssa}, {"sentences", s.sentences}};
    if (s.skipped_long > 0) j["skipped_long"] = s.skipped_long;
    std::cout << j.dump() << "\n";
  } else {
    std::cout << std::fixed << std::setprecision(4) << "BLEU " << s.bleu << "  word F1 "
              << s.word_f1 << "  SSA " << s.ssa << "  (" << s.sentences << " sentences, "
              << a.refs.size() << " reference" << (a.refs.size() > 1 ? "s" : "") << ")\n";
  }
  return Status::OK();
}

Runner WireScore(CLI::App* cmd) {
  auto a = std::make_shared<ScoreArgs>();
  cmd->add_option("--hyp", a->hyp, "System output, one tokenized sentence a line")->required();
  cmd->add_option("--ref", a->refs, "References, line-aligned with --hyp (repeat for several)")
      ->required();
  cmd->add_option("--src", a->src,
                  "Source sentences (accepted for symmetry with other tools; not used)");
  cmd->add_flag("--json", a->json, "Print {\"bleu\", \"word_f1\", \"ssa\"}");
  cmd->add_option("--max-words", a->max_words,
                  "Leave out (and count) lines whose hypothesis or a reference has more words; "
                  "bounds the edit distance's cost per line; 0: no limit")
      ->capture_default_str()
      ->check(IntegerIn(0, 1000000000));
  return [a](const Invocation&) { return RunScore(*a); };
}

// ------------------------------------------------------------------ similarity, eval

struct SimilarityArgs {
  std::vector<SimilarityMeasure> measures;
  std::string vectors;
  std::string vectors_cache;
  std::string lexicon;
  double at_threshold = std::nan("");
  std::vector<double> weights;  // with --weights: one score Σ w_k · s_k over the measures
  int cv_folds = 0;             // eval --cv K: also K-fold cross-validated accuracy and F1
  uint64_t cv_seed = 17;        // the shuffle that deals the pairs into folds
  double theta = 0.0;
  double positive_at = 4.0;
  std::string file;
  bool json = false;
  std::string plot;
};

Status ScoreFile(const SimilarityArgs& a, SimilarityMeasure measure,
                 const std::vector<SentencePairExample>& pairs, std::vector<double>* scores) {
  std::unique_ptr<WordSimilaritySet> vectors;
  if (measure != SimilarityMeasure::kTfidf) {
    if (a.vectors.empty() && a.lexicon.empty())
      return Status::InvalidArgument(std::string("--method ") + SimilarityMeasureName(measure) +
                                     " needs --vectors FILE or --lexicon wordnet");
    RETURN_IF_ERROR(WordSimilaritySet::Open(a.vectors, a.vectors_cache, a.lexicon, &vectors));
  }
  std::unique_ptr<PairScorer> scorer;
  RETURN_IF_ERROR(PairScorer::Create(measure, vectors.get(), a.theta, &scorer));
  std::vector<Tokens> toks;
  toks.reserve(2 * pairs.size());
  for (const auto& p : pairs) {
    toks.emplace_back();
    Tokenize(p.s1, &toks.back());
    toks.emplace_back();
    Tokenize(p.s2, &toks.back());
  }
  if (measure == SimilarityMeasure::kTfidf) {  // idf over the file's sentences, each a document
    std::vector<const Tokens*> docs;
    for (const auto& t : toks) docs.push_back(&t);
    scorer->FitIdf(docs);
  }
  uint64_t cut = 0;
  for (size_t i = 0; i < pairs.size(); ++i) {
    const Tokens &x = toks[2 * i], &y = toks[2 * i + 1];
    if (measure != SimilarityMeasure::kTfidf && std::max(x.size(), y.size()) > kMaxEmbeddingWords)
      ++cut;
    scores->push_back(scorer->Score(x, y));
  }
  if (cut)
    std::cerr << "aligndb: warning: " << cut << " pairs have a sentence of more than "
              << kMaxEmbeddingWords << " words; " << SimilarityMeasureName(measure)
              << " read its first " << kMaxEmbeddingWords << "\n";
  return Status::OK();
}

// The weighted sum of the measures' scores (--weights), pair by pair.
Status ScoreWeighted(const SimilarityArgs& a, const std::vector<SentencePairExample>& pairs,
                     std::vector<double>* scores) {
  if (a.weights.size() != a.measures.size())
    return Status::InvalidArgument("--weights needs one weight per --method (" +
                                   std::to_string(a.measures.size()) + " methods, " +
                                   std::to_string(a.weights.size()) + " weights)");
  scores->assign(pairs.size(), 0.0);
  for (size_t k = 0; k < a.measures.size(); ++k) {
    std::vector<double> part;
    RETURN_IF_ERROR(ScoreFile(a, a.measures[k], pairs, &part));
    for (size_t i = 0; i < pairs.size(); ++i) (*scores)[i] += a.weights[k] * part[i];
  }
  return Status::OK();
}

// "0.8 wmd + 0.2 tfidf".
std::string WeightedName(const SimilarityArgs& a) {
  std::ostringstream name;
  for (size_t k = 0; k < a.measures.size(); ++k)
    name << (k ? " + " : "") << a.weights[k] << " " << SimilarityMeasureName(a.measures[k]);
  return name.str();
}

Status RunSimilarity(const SimilarityArgs& a) {
  if (a.measures.size() != 1 && a.weights.empty())
    return Status::InvalidArgument("similarity takes one --method (several with --weights)");
  std::vector<SentencePairExample> pairs;
  RETURN_IF_ERROR(ReadSentencePairs(a.file, a.positive_at, &pairs));
  std::vector<double> scores;
  if (a.weights.empty())
    RETURN_IF_ERROR(ScoreFile(a, a.measures[0], pairs, &scores));
  else
    RETURN_IF_ERROR(ScoreWeighted(a, pairs, &scores));
  for (double s : scores) std::cout << std::setprecision(6) << s << "\n";
  return Status::OK();
}

// MaxF1, AUC, the accuracy-maximizing threshold and, with --at-threshold, the figures at a
// threshold chosen on other data; with --cv, the cross-validated figures of that choice.
void PrintEvaluation(const SimilarityArgs& a, const std::string& name, bool uses_theta,
                     size_t pairs, const ClassifierEvaluation& e,
                     const std::vector<LabelledScore>& ls) {
  const ThresholdFigures acc = MaxAccuracy(ls);
  const bool at_given = !std::isnan(a.at_threshold);
  const ThresholdFigures at = at_given ? AtThreshold(ls, a.at_threshold) : ThresholdFigures{};
  const CrossValidation cv =
      a.cv_folds > 0 ? CrossValidateThreshold(ls, a.cv_folds, a.cv_seed) : CrossValidation{};
  if (a.json) {
    ordered_json j = {{"method", name}, {"max_f1", e.max_f1}, {"threshold", e.threshold},
                      {"auc", e.auc},   {"pairs", pairs},     {"positives", e.positives}};
    if (uses_theta) j["theta"] = a.theta;
    j["max_accuracy"] = acc.accuracy;
    j["accuracy_threshold"] = acc.threshold;
    j["f1_at_accuracy_threshold"] = acc.f1;
    if (at_given)
      j["at_threshold"] = {{"threshold", at.threshold}, {"accuracy", at.accuracy}, {"f1", at.f1}};
    if (a.cv_folds > 0)
      j["cv"] = {
          {"folds", a.cv_folds}, {"seed", a.cv_seed}, {"accuracy", cv.accuracy}, {"f1", cv.f1}};
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << std::fixed << std::setprecision(3) << name << ": MaxF1 " << e.max_f1
            << " at threshold " << std::setprecision(4) << e.threshold << ", AUC "
            << std::setprecision(3) << e.auc << "; max accuracy " << acc.accuracy << " (F1 "
            << acc.f1 << ") at threshold " << std::setprecision(4) << acc.threshold;
  if (at_given)
    std::cout << std::setprecision(3) << "; at " << std::setprecision(4) << at.threshold
              << std::setprecision(3) << ": accuracy " << at.accuracy << ", F1 " << at.f1;
  if (a.cv_folds > 0)
    std::cout << std::setprecision(3) << "; " << a.cv_folds << "-fold CV accuracy " << cv.accuracy
              << " (F1 " << cv.f1 << ")";
  std::cout << "  (" << pairs << " pairs, " << e.positives << " positive)\n";
}

Status RunEval(const SimilarityArgs& a) {
  if (!a.plot.empty()) RETURN_IF_ERROR(CheckOutputPath(a.plot).WithPrefix("--plot"));
  std::vector<SentencePairExample> pairs;
  RETURN_IF_ERROR(ReadSentencePairs(a.file, a.positive_at, &pairs));
  if (pairs.empty())
    return Status::Corruption(a.file +
                              ": no sentence pairs (expected MSRP, SICK or s1<TAB>s2<TAB>label "
                              "lines)");
  for (size_t i = 0; i < pairs.size(); ++i)
    if (!pairs[i].has_label)
      return Status::InvalidArgument(a.file + ": pair " + std::to_string(i + 1) + " has no label");
  std::vector<Curve> curves;
  // With --weights the measures make one score, evaluated as one measure.
  const size_t evaluated = a.weights.empty() ? a.measures.size() : 1;
  for (size_t k = 0; k < evaluated; ++k) {
    std::vector<double> scores;
    std::string name;
    bool uses_theta = false;
    if (a.weights.empty()) {
      RETURN_IF_ERROR(ScoreFile(a, a.measures[k], pairs, &scores));
      name = SimilarityMeasureName(a.measures[k]);
      uses_theta = a.measures[k] != SimilarityMeasure::kTfidf;
    } else {
      RETURN_IF_ERROR(ScoreWeighted(a, pairs, &scores));
      name = WeightedName(a);
      for (SimilarityMeasure m : a.measures) uses_theta |= m != SimilarityMeasure::kTfidf;
    }
    std::vector<LabelledScore> ls;
    for (size_t i = 0; i < pairs.size(); ++i) ls.push_back({scores[i], pairs[i].positive});
    ClassifierEvaluation e = EvaluateScores(ls);
    PrintEvaluation(a, name, uses_theta, pairs.size(), e, ls);
    Curve c{name, PaletteColor(k), {}, {}};
    for (const auto& p : e.curve) c.xs.push_back(p.recall), c.ys.push_back(p.precision);
    curves.push_back(std::move(c));
  }
  if (!a.plot.empty()) {
    OutputFile f;
    RETURN_IF_ERROR(f.Open(a.plot).WithPrefix("--plot"));
    f.stream() << SvgCurves(
        "Precision–recall: " + std::filesystem::path(a.file).filename().string(), "recall",
        "precision", curves);
    RETURN_IF_ERROR(f.Commit());
  }
  return Status::OK();
}

void AddSimilarityOptions(CLI::App* cmd, SimilarityArgs* a, bool several) {
  AddNameListOption(cmd, "--method", &a->measures, kSimilarityMeasureNames,
                    several ? "Similarities, comma-separated" : "Similarity")
      ->required();
  cmd->add_option("--vectors", a->vectors,
                  "Word vectors (word2vec .bin/text, GloVe, fastText .vec)");
  cmd->add_option(
      "--vectors-cache", a->vectors_cache,
      "Where loaded vectors are cached for fast reloads (default ~/.cache/aligndb; '-': none)");
  cmd->add_option("--lexicon", a->lexicon,
                  "Word similarity from a lexicon (wordnet), alone or with --vectors (larger "
                  "wins); WordNet from $WNSEARCHDIR or /usr/share/wordnet")
      ->check(CLI::IsMember({"wordnet"}));
  cmd->add_option("--theta", a->theta, "Word pairs count only when their similarity exceeds this")
      ->capture_default_str()
      ->check(FiniteNumber(-1, 1));
  AddNumberListOption(cmd, "--weights", &a->weights,
                      "One weight per --method, comma-separated: score pairs by the weighted sum "
                      "of the methods' scores (e.g. --method wmd,tfidf --weights 0.8,0.2)");
  cmd->add_option("--positive-at", a->positive_at,
                  "Numeric labels (SICK relatedness) at or above this are positive")
      ->capture_default_str()
      ->check(FiniteNumber());
  cmd->add_option("FILE", a->file, "Sentence pairs: MSRP, SICK, or s1<TAB>s2[<TAB>label]")
      ->required();
}

Runner WireSimilarity(CLI::App* cmd) {
  auto a = std::make_shared<SimilarityArgs>();
  AddSimilarityOptions(cmd, a.get(), false);
  return [a](const Invocation&) { return RunSimilarity(*a); };
}

Runner WireEval(CLI::App* cmd) {
  auto a = std::make_shared<SimilarityArgs>();
  AddSimilarityOptions(cmd, a.get(), true);
  cmd->add_flag("--json", a->json, "One JSON line per method");
  cmd->add_option("--at-threshold", a->at_threshold,
                  "Also report accuracy and F1 at this threshold (one chosen on other data)")
      ->check(FiniteNumber());
  cmd->add_option("--cv", a->cv_folds,
                  "Also report K-fold cross-validated accuracy and F1 of the accuracy-maximizing "
                  "threshold (chosen on K-1 folds, applied to the K-th; folds by a fixed shuffle)")
      ->check(IntegerIn(2, 1000));
  cmd->add_option("--cv-seed", a->cv_seed, "Seed of the shuffle that deals pairs into --cv folds")
      ->capture_default_str();
  cmd->add_option("--plot", a->plot,
                  "Draw the precision-recall curves of the methods to this file, an SVG picture "
                  "(the name as given)");
  return [a](const Invocation&) { return RunEval(*a); };
}

// ------------------------------------------------------------------ wordalign, aer

struct WordAlignArgs {
  std::string file, vectors, cache, symmetrize = "grow-diag-final", lexicon;
  std::string aligner = "maximum";
  double theta = 0.49;
  bool theta_given = false;
  size_t max_words = kDefaultMaxScoreWords;
};

using TokenPair = std::pair<std::vector<std::string>, std::vector<std::string>>;

// s1<TAB>s2[<TAB>...] lines, or a gold file (Edinburgh++ JSON, MultiMWA TSV) read for its
// sentences.
Status ReadTokenPairs(const std::string& file, std::vector<TokenPair>* pairs) {
  std::ifstream in;
  RETURN_IF_ERROR(OpenInputFile(file, &in));
  std::string first_line;
  std::getline(in, first_line);
  in.seekg(0);
  size_t tabs = std::count(first_line.begin(), first_line.end(), '\t');
  if ((!first_line.empty() && first_line[0] == '[') || tabs >= 7) {
    std::vector<GoldAlignment> gold;
    RETURN_IF_ERROR(ReadGoldAlignments(file, &gold));
    for (auto& g : gold) pairs->emplace_back(g.s1, g.s2);
    return Status::OK();
  }
  LineReader reader(in);
  std::string line;
  while (reader.Next(&line)) {
    const uint64_t n = reader.line_number();
    size_t tab = line.find('\t');
    if (tab == std::string::npos)
      return Status::Corruption(file + ": line " + std::to_string(n) + ": expected s1<TAB>s2");
    size_t tab2 = line.find('\t', tab + 1);
    pairs->emplace_back(
        SplitWhitespace(line.substr(0, tab)),
        SplitWhitespace(
            line.substr(tab + 1, tab2 == std::string::npos ? std::string::npos : tab2 - tab - 1)));
  }
  if (in.bad()) return Status::IOError(file + ": read failed");
  return Status::OK();
}

Status RunWordAlign(const WordAlignArgs& a) {
  std::unique_ptr<WordVectors> vectors;
  std::unique_ptr<WordSimilaritySet> words;
  if (a.aligner == "lexical" || !a.lexicon.empty())
    RETURN_IF_ERROR(WordSimilaritySet::Open(a.vectors, a.cache, a.lexicon, &words));
  else if (!a.vectors.empty())
    RETURN_IF_ERROR(WordVectors::Load(a.vectors, a.cache, &vectors));
  LexicalAlignOptions lexical;
  if (a.theta_given) lexical.min_similarity = a.theta;
  std::vector<TokenPair> pairs;
  RETURN_IF_ERROR(ReadTokenPairs(a.file, &pairs));
  uint64_t skipped = 0;
  for (const auto& [s1, s2] : pairs) {
    Links links;
    // A pair costs O(|s1|·|s2|) words compared: a longer one gets an empty line (the output
    // stays line-aligned with the input) and is counted.
    if (a.max_words > 0 && (s1.size() > a.max_words || s2.size() > a.max_words))
      ++skipped;
    else if (a.aligner == "lexical")
      links = AlignWordsLexical(words.get(), s1, s2, lexical);
    else if (words)
      RETURN_IF_ERROR(AlignWords(words.get(), s1, s2, a.theta, a.symmetrize, &links));
    else
      RETURN_IF_ERROR(AlignWords(vectors.get(), s1, s2, a.theta, a.symmetrize, &links));
    std::cout << FormatLinks(links) << "\n";
  }
  if (skipped > 0)
    std::cerr << "aligndb: warning: " << TerminalSafe(a.file) << ": " << skipped
              << " pairs with a sentence of more than --max-words " << a.max_words
              << " words left unaligned (empty lines)\n";
  return Status::OK();
}

Runner WireWordAlign(CLI::App* cmd) {
  auto a = std::make_shared<WordAlignArgs>();
  cmd->add_option("--vectors", a->vectors, "Word vectors (without: identical words only)");
  cmd->add_option("--vectors-cache", a->cache, "Cache directory of loaded vectors ('-': none)");
  cmd->add_option("--lexicon", a->lexicon, "Word similarity from a lexicon (wordnet)")
      ->check(CLI::IsMember({"wordnet"}));
  cmd->add_option("--aligner", a->aligner,
                  "maximum (the paper's maximum alignment, symmetrized) or lexical (staged "
                  "alignment with context, one-to-one but for acronyms, names and hyphenated "
                  "words)")
      ->capture_default_str()
      ->check(CLI::IsMember({"maximum", "lexical"}));
  cmd->add_option("--symmetrize", a->symmetrize, "intersection, union or grow-diag-final")
      ->capture_default_str()
      ->check(CLI::IsMember({"intersection", "union", "grow-diag-final"}));
  cmd->add_option("--theta", a->theta,
                  "Word pairs link only when their similarity exceeds this (default " +
                      ShortNumber(a->theta) + "; the lexical aligner: " +
                      ShortNumber(LexicalAlignOptions{}.min_similarity) + ")")
      ->check(FiniteNumber(-1, 1));
  cmd->add_option("--max-words", a->max_words,
                  "Leave unaligned (an empty line, counted) pairs with a longer sentence; bounds "
                  "the cost per pair; 0: no limit")
      ->capture_default_str()
      ->check(IntegerIn(0, 1000000000));
  cmd->add_option("FILE", a->file,
                  "s1<TAB>s2 lines of whitespace-tokenized sentences (or a gold file)")
      ->required();
  return [a, cmd](const Invocation&) {
    a->theta_given = cmd->count("--theta") > 0;  // the lexical aligner has its own default
    return RunWordAlign(*a);
  };
}

struct AerArgs {
  std::string gold, pred, possible;
  bool json = false;
};

// The gold alignments; with a --possible file (Edinburgh++ ships SURE and SURE+POSSIBLE as two
// files), POSSIBLE comes from the second.
Status ReadGold(const AerArgs& a, std::vector<GoldAlignment>* gold) {
  RETURN_IF_ERROR(ReadGoldAlignments(a.gold, gold));
  if (gold->empty())
    return Status::Corruption(a.gold +
                              ": no gold alignments (expected Edinburgh++ JSON, MultiMWA TSV or "
                              "i-j lines)");
  if (a.possible.empty()) return Status::OK();
  std::vector<GoldAlignment> poss;
  RETURN_IF_ERROR(ReadGoldAlignments(a.possible, &poss));
  if (poss.size() != gold->size())
    return Status::InvalidArgument(a.possible + ": " + std::to_string(poss.size()) +
                                   " alignments, " + a.gold + ": " + std::to_string(gold->size()));
  for (size_t k = 0; k < gold->size(); ++k)
    (*gold)[k].possible.insert(poss[k].possible.begin(), poss[k].possible.end());
  return Status::OK();
}

Status ReadPredictedLinks(const std::string& path, std::vector<Links>* pred) {
  std::ifstream in;
  RETURN_IF_ERROR(OpenInputFile(path, &in));
  std::string line;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    Links l;
    RETURN_IF_ERROR(ParseLinks(line, &l, nullptr).WithPrefix(path + ": line " + std::to_string(n)));
    pred->push_back(std::move(l));
  }
  if (in.bad()) return Status::IOError(path + ": read failed");
  return Status::OK();
}

ordered_json AerJson(const AerFigures& f) {
  return ordered_json{{"precision", f.precision}, {"recall", f.recall}, {"aer", f.aer},
                      {"predicted", f.predicted}, {"sure", f.sure},     {"possible", f.possible}};
}

std::string AerLine(const char* name, const AerFigures& f) {
  char buf[200];
  std::snprintf(
      buf, sizeof(buf),
      "%-14s precision %.4f  recall %.4f  AER %.4f  (%zu predicted, %zu sure, %zu possible)\n",
      name, f.precision, f.recall, f.aer, f.predicted, f.sure, f.possible);
  return buf;
}

Status RunAer(const AerArgs& a) {
  std::vector<GoldAlignment> gold;
  RETURN_IF_ERROR(ReadGold(a, &gold));
  std::vector<Links> pred;
  RETURN_IF_ERROR(ReadPredictedLinks(a.pred, &pred));
  if (pred.empty())
    return Status::Corruption(a.pred + ": empty (expected one line of i-j links a sentence pair)");
  AerResult r;
  RETURN_IF_ERROR(ComputeAer(gold, pred, &r));
  if (a.json) {
    ordered_json j = AerJson(r.overall);
    j["sentences"] = r.sentences;
    if (r.has_split) {
      j["identical"] = AerJson(r.identical);
      j["non_identical"] = AerJson(r.non_identical);
    }
    std::cout << j.dump() << "\n";
    return Status::OK();
  }
  std::cout << AerLine("overall", r.overall);
  if (r.has_split)
    std::cout << AerLine("identical", r.identical) << AerLine("non-identical", r.non_identical);
  return Status::OK();
}

Runner WireAer(CLI::App* cmd) {
  auto a = std::make_shared<AerArgs>();
  cmd->add_option("--gold", a->gold,
                  "Edinburgh++ JSON, MultiMWA TSV, or i-j lines with p for possible")
      ->required();
  cmd->add_option("--pred", a->pred, "Predicted i-j lines, one per sentence pair")->required();
  cmd->add_option("--possible", a->possible,
                  "A second gold file whose links are the POSSIBLE ones (Edinburgh++ sure+poss)");
  cmd->add_flag("--json", a->json, "Print JSON");
  return [a](const Invocation&) { return RunAer(*a); };
}

}  // namespace

std::vector<Command> EvalCommands() {
  return {
      {"score",
       "BLEU, word-level F1 and simple string accuracy of system output against references",
       WireScore},
      {"similarity", "Score sentence pairs, one score a line", WireSimilarity},
      {"eval", "MaxF1, its threshold, and AUC of similarities on labelled pairs", WireEval},
      {"wordalign", "Word-align sentence pairs (maximum alignment, symmetrized); i-j lines",
       WireWordAlign},
      {"aer", "Precision, recall and alignment error rate against gold word alignments", WireAer},
  };
}

}  // namespace aligndb::cli

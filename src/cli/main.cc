// The aligndb command line. CLI11 is included here only (it is slow to compile).
// Results go to stdout; progress (when stderr is a terminal) and errors go to stderr.
// Exit codes: 0 ok, 1 internal, 2 bad arguments, 3 bad input data, 4 I/O, 5 database busy,
// 6 not found.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "aligndb.pb.h"
#include "align/align.h"
#include "embed/embeddings.h"
#include "embed/word_similarity.h"
#include "eval/eval.h"
#include "export/export.h"
#include "index/index.h"
#include "paraphrase/paraphrase.h"
#include "ingest/ingest.h"
#include "report/report.h"
#include "align/scorer.h"
#include "aligndb/status.h"
#include "storage/store.h"
#include "text/text.h"
#include "paraphrase/wordalign.h"

namespace aligndb {
namespace {

using nlohmann::ordered_json;

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

// Runs a command body; prints a failed Status as one line on stderr and returns its exit code.
int Finish(const Status& s) {
  if (s.ok()) return 0;
  std::cerr << "aligndb: " << s.ToString() << "\n";
  return s.ExitCode();
}

Status OpenStore(const std::string& dir, bool write, std::unique_ptr<Store>* store) {
  StoreOptions opts;
  opts.create_if_missing = write;
  opts.read_only = !write;
  return Store::Open(opts, dir, store);
}

ordered_json ArticleJson(const pb::Article& a, bool with_edition) {
  ordered_json j;
  if (with_edition) j["edition"] = a.edition();
  j["title"] = a.title();
  j["id"] = a.page_id();
  j["revision"] = a.revision_id();
  if (!a.timestamp().empty()) j["timestamp"] = a.timestamp();
  j["flags"] = FlagNames(a.flags());
  ordered_json paragraphs = ordered_json::array();
  for (const auto& p : a.paragraphs()) {
    ordered_json sentences = ordered_json::array();
    for (const auto& s : p.sentences()) sentences.push_back(s);
    paragraphs.push_back(std::move(sentences));
  }
  j["paragraphs"] = std::move(paragraphs);
  return j;
}

void PrintArticleText(const pb::Article& a) {
  std::cout << a.title() << "  [" << a.edition() << ", page " << a.page_id() << ", revision "
            << a.revision_id();
  if (!a.timestamp().empty()) std::cout << ", " << a.timestamp();
  auto flags = FlagNames(a.flags());
  if (!flags.empty()) {
    std::cout << ", flags:";
    for (const auto& f : flags) std::cout << " " << f;
  }
  std::cout << "]\n";
  for (int p = 0; p < a.paragraphs_size(); ++p) {
    std::cout << "\n";
    for (int s = 0; s < a.paragraphs(p).sentences_size(); ++s)
      std::cout << "  [" << p << "." << s << "] " << a.paragraphs(p).sentences(s) << "\n";
  }
}

std::vector<std::string> Argv(int argc, char** argv) {
  return std::vector<std::string>(argv + 1, argv + argc);
}

// ------------------------------------------------------------------ ingest

struct IngestArgs {
  std::string db;
  std::string edition;
  std::vector<std::string> files;
  bool keep_lists = false;
  bool full = false;
  bool json = false;
  std::string index;
  int threads = 0;
  std::string only_titles_of;
};

Status RunIngest(const IngestArgs& args, const std::vector<std::string>& argv,
                 IngestSummary* summary) {
  std::unique_ptr<Store> store;
  RETURN_IF_ERROR(OpenStore(args.db, true, &store));
  IngestOptions opts;
  opts.edition = args.edition;
  opts.text.keep_lists = args.keep_lists;
  opts.full = args.full;
  opts.index = args.index;
  opts.threads = args.threads;
  opts.only_titles_of = args.only_titles_of;
  if (StderrIsTerminal()) {
    opts.progress = [](const std::string& file, uint64_t pages, uint64_t bytes) {
      std::fprintf(stderr, "\r%s: %llu pages, %.1f MB", file.c_str(),
                   static_cast<unsigned long long>(pages), bytes / 1e6);
      std::fflush(stderr);
    };
  }
  uint64_t run_id = 0;
  RETURN_IF_ERROR(store->BeginRun("ingest", argv, &run_id));
  Status s = Ingest(store.get(), args.files, opts, summary);
  if (StderrIsTerminal()) std::fprintf(stderr, "\n");
  Status fs = store->FinishRun(run_id, s, summary->AsCounts());
  RETURN_IF_ERROR(s);
  return fs;
}

void PrintIngestSummary(const IngestSummary& s, bool json) {
  if (json) {
    ordered_json j;
    for (auto& [k, v] : s.AsCounts()) j[k] = v;
    j["articles_by_edition"] = s.articles_by_edition;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << "pages read: " << s.pages << "\n"
            << "articles: " << s.added << " added, " << s.changed << " changed, " << s.unchanged
            << " unchanged, " << s.deleted << " deleted\n"
            << "redirects stored: " << s.redirects << "\n"
            << (s.streams_total ? "streams read: " + std::to_string(s.streams_read) + " of " +
                                      std::to_string(s.streams_total) + "\n"
                                : std::string())
            << "pages outside namespace 0 (not stored): " << s.other_namespace << "\n";
}

// ------------------------------------------------------------------ show

struct ShowArgs {
  std::string db;
  std::string edition;
  std::string title;
  std::string format = "text";
  bool all = false;
};

Status RunShow(const ShowArgs& args) {
  std::unique_ptr<Store> store;
  RETURN_IF_ERROR(OpenStore(args.db, false, &store));
  std::map<std::string, uint32_t> editions;
  RETURN_IF_ERROR(store->Editions(&editions));
  if (!args.edition.empty()) {
    auto it = editions.find(args.edition);
    if (it == editions.end())
      return Status::NotFound("no edition \"" + args.edition + "\" in " + args.db);
    editions = {*it};
  }
  if (args.all) {
    if (args.edition.empty() && editions.size() > 1)
      return Status::InvalidArgument("--all needs --edition (the database has several editions)");
    for (auto& [name, id] : editions) {
      RETURN_IF_ERROR(store->ForEachArticle(id, [&](const pb::Article& a) {
        if (args.format == "text")
          PrintArticleText(a), std::cout << "\n";
        else
          std::cout << ArticleJson(a, false).dump() << "\n";
        return Status::OK();
      }));
    }
    return Status::OK();
  }
  if (args.title.empty()) return Status::InvalidArgument("show needs a TITLE or --all");
  std::vector<pb::Article> found;
  std::vector<std::string> redirects;
  for (auto& [name, id] : editions) {
    uint64_t page_id;
    Status s = store->FindArticle(id, args.title, &page_id);
    if (s.ok()) {
      pb::Article a;
      RETURN_IF_ERROR(store->GetArticle(id, page_id, &a));
      found.push_back(std::move(a));
    } else if (s.IsNotFound()) {
      pb::Redirect r;
      if (store->GetRedirect(id, NormalizeTitle(args.title), &r).ok())
        redirects.push_back(name + ": \"" + r.title() + "\" redirects to \"" + r.target() + "\"");
    } else {
      return s;
    }
  }
  if (found.empty()) {
    std::string msg = "no article titled \"" + args.title + "\"";
    for (const auto& r : redirects) msg += "; " + r;
    return Status::NotFound(msg);
  }
  if (args.format == "text") {
    for (size_t i = 0; i < found.size(); ++i) {
      if (i) std::cout << "\n";
      PrintArticleText(found[i]);
    }
  } else if (found.size() == 1) {
    std::cout << ArticleJson(found[0], true).dump(args.format == "json" ? 2 : -1) << "\n";
  } else {
    ordered_json arr = ordered_json::array();
    for (const auto& a : found) arr.push_back(ArticleJson(a, true));
    std::cout << arr.dump(args.format == "json" ? 2 : -1) << "\n";
  }
  return Status::OK();
}

// ------------------------------------------------------------------ info

Status RunInfo(const std::string& db, bool json) {
  std::unique_ptr<Store> store;
  RETURN_IF_ERROR(OpenStore(db, false, &store));
  std::map<std::string, uint32_t> editions;
  RETURN_IF_ERROR(store->Editions(&editions));
  std::vector<pb::RunManifest> runs;
  RETURN_IF_ERROR(store->Runs(&runs));
  ordered_json j;
  j["editions"] = ordered_json::object();
  for (auto& [name, id] : editions) {
    EditionCounts c;
    RETURN_IF_ERROR(store->GetEditionCounts(id, &c));
    j["editions"][name] = {{"articles", c.articles},
                           {"redirects", c.redirects},
                           {"paragraphs", c.paragraphs},
                           {"sentences", c.sentences}};
  }
  j["runs"] = ordered_json::array();
  for (const auto& r : runs) {
    ordered_json rj = {{"id", r.run_id()},
                       {"command", r.command()},
                       {"arguments", r.arguments()},
                       {"started_unix_ms", r.started_unix_ms()},
                       {"finished_unix_ms", r.finished_unix_ms()},
                       {"status", r.status()}};
    ordered_json counts = ordered_json::object();
    for (const auto& [k, v] : r.counts()) counts[k] = v;
    rj["counts"] = counts;
    j["runs"].push_back(rj);
  }
  if (json) {
    std::cout << j.dump(2) << "\n";
    return Status::OK();
  }
  std::cout << "database: " << db << "\n";
  if (editions.empty()) std::cout << "no editions stored\n";
  for (auto& [name, counts] : j["editions"].items()) {
    std::cout << name << ": " << counts["articles"] << " articles, " << counts["redirects"]
              << " redirects, " << counts["paragraphs"] << " paragraphs, " << counts["sentences"]
              << " sentences\n";
  }
  std::cout << "runs: " << runs.size() << "\n";
  for (const auto& r : runs) {
    std::cout << "  #" << r.run_id() << " " << r.command() << " — " << r.status();
    for (const auto& [k, v] : r.counts()) std::cout << " " << k << "=" << v;
    std::cout << "\n";
  }
  return Status::OK();
}

// ------------------------------------------------------------------ align

struct AlignArgs {
  std::string db;
  AlignOptions options;
  std::string vectors_cache;
  std::string lexicon;
};

void AddAlignOptions(CLI::App* cmd, AlignArgs* a) {
  cmd->add_option("--normal", a->options.normal, "Normal (complex) edition")->capture_default_str();
  cmd->add_option("--simple", a->options.simple, "Simple edition")->capture_default_str();
  cmd->add_option("--paragraph-threshold", a->options.paragraph_threshold,
                  "Minimum TF-IDF cosine of a paragraph candidate")
      ->capture_default_str()
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--skip-penalty", a->options.skip_penalty, "Penalty of a skipped sentence")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option(
         "--max-idf-drift", a->options.max_idf_drift,
         "Re-align a kept pair when the idf's paragraph count moved more than this share since")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  cmd->add_option("--similarity", a->options.similarity,
                  "Sentence similarity: tfidf, average, maximum, hungarian, wmd or additive")
      ->capture_default_str()
      ->check(CLI::IsMember({"tfidf", "average", "maximum", "hungarian", "wmd", "additive"}));
  cmd->add_option("--vectors", a->options.vectors, "Word vectors for the embedding similarities");
  cmd->add_option("--vectors-cache", a->vectors_cache,
                  "Cache directory of loaded vectors ('-': none)");
  cmd->add_option("--lexicon", a->lexicon,
                  "Word similarity from a lexicon (wordnet), alone or with --vectors (larger wins)")
      ->check(CLI::IsMember({"wordnet"}));
  cmd->add_option("--theta", a->options.theta,
                  "Embedding similarities: word pairs count when above this")
      ->capture_default_str();
  cmd->add_option("--mode", a->options.mode,
                  "coster-kauchak (SPEC 4) or all-pairs (SPEC 5 corpus mode)")
      ->capture_default_str()
      ->check(CLI::IsMember({"coster-kauchak", "all-pairs"}));
  cmd->add_option("--threshold", a->options.pair_threshold,
                  "all-pairs: keep sentence pairs at or above this")
      ->capture_default_str();
  cmd->add_flag(
      "--follow-redirects", a->options.follow_redirects,
      "Pair a simple title that is a redirect in the normal edition with the redirect's target");
  cmd->add_flag("--all", a->options.all,
                "Re-align every pair, also those whose pages and parameters did not change "
                "(current idf everywhere)");
}

Status RunAlignOn(Store* store, AlignArgs args, const std::vector<std::string>& argv,
                  AlignSummary* summary) {
  std::unique_ptr<WordSimilaritySet> vectors;
  std::unique_ptr<PairScorer> scorer;
  if (args.options.similarity != "tfidf") {
    if (args.options.vectors.empty() && args.lexicon.empty())
      return Status::InvalidArgument("--similarity " + args.options.similarity +
                                     " needs --vectors FILE");
    RETURN_IF_ERROR(WordSimilaritySet::Open(args.options.vectors, args.vectors_cache,
                                            args.lexicon, &vectors));
    RETURN_IF_ERROR(
        PairScorer::Create(args.options.similarity, vectors.get(), args.options.theta, &scorer));
    args.options.scorer = scorer.get();
  } else if (args.options.mode == "all-pairs") {
    return Status::InvalidArgument(
        "--mode all-pairs needs an embedding --similarity (and --vectors)");
  }
  std::unique_ptr<ParagraphIndex> index;
  RETURN_IF_ERROR(ParagraphIndex::Open(IndexDir(store->dir()), true, &index));
  if (StderrIsTerminal()) {
    args.options.progress = [](uint64_t done, uint64_t total) {
      std::fprintf(stderr, "\raligning: %llu / %llu article pairs",
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total));
      std::fflush(stderr);
    };
  }
  uint64_t run_id = 0;
  RETURN_IF_ERROR(store->BeginRun("align", argv, &run_id));
  Status s = Align(store, index.get(), args.options, run_id, summary);
  if (StderrIsTerminal()) std::fprintf(stderr, "\n");
  Status fs = store->FinishRun(run_id, s, summary->AsCounts());
  RETURN_IF_ERROR(s);
  return fs;
}

void PrintAlignSummary(const AlignSummary& s, bool json) {
  if (json) {
    ordered_json j;
    for (auto& [k, v] : s.AsCounts()) j[k] = v;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << "article pairs: " << s.title_matches << " title matches, " << s.removed
            << " removed";
  if (!s.removed_by_reason.empty()) {
    std::cout << " (";
    bool first = true;
    for (auto& [k, v] : s.removed_by_reason)
      std::cout << (first ? "" : ", ") << k << " " << v, first = false;
    std::cout << ")";
  }
  std::cout << ", " << s.aligned << " aligned (" << s.realigned << " computed, " << s.kept
            << " kept)\n"
            << "paragraph pairs: " << s.paragraph_pairs
            << "; sentence pairs (all similarities): " << s.sentence_pairs << "\n";
}

// ------------------------------------------------------------------ score

Status ReadLines(const std::string& path, std::vector<std::string>* lines) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return Status::IOError(path + ": cannot open");
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines->push_back(line);
  }
  if (in.bad()) return Status::IOError(path + ": read failed");
  return Status::OK();
}

Status RunScore(const std::string& hyp, const std::vector<std::string>& refs, bool json) {
  std::vector<std::string> h;
  RETURN_IF_ERROR(ReadLines(hyp, &h));
  std::vector<std::vector<std::string>> r(refs.size());
  for (size_t k = 0; k < refs.size(); ++k) RETURN_IF_ERROR(ReadLines(refs[k], &r[k]));
  SimplificationScores s;
  RETURN_IF_ERROR(ScoreSimplification(h, r, &s).WithPrefix(hyp));
  if (json) {
    ordered_json j = {
        {"bleu", s.bleu}, {"word_f1", s.word_f1}, {"ssa", s.ssa}, {"sentences", s.sentences}};
    std::cout << j.dump() << "\n";
  } else {
    std::cout << std::fixed << std::setprecision(4) << "BLEU " << s.bleu << "  word F1 "
              << s.word_f1 << "  SSA " << s.ssa << "  (" << s.sentences << " sentences, "
              << refs.size() << " reference" << (refs.size() > 1 ? "s" : "") << ")\n";
  }
  return Status::OK();
}

// ------------------------------------------------------------------ similarity, eval

struct SimilarityArgs {
  std::vector<std::string> methods;
  std::string vectors;
  std::string vectors_cache;
  std::string lexicon;
  double at_threshold = std::nan("");
  double theta = 0.0;
  double positive_at = 4.0;
  std::string file;
  bool json = false;
  std::string plot;
};

Status ScoreFile(const SimilarityArgs& a, const std::string& method,
                 const std::vector<SentencePairExample>& pairs, std::vector<double>* scores) {
  std::unique_ptr<WordSimilaritySet> vectors;
  if (method != "tfidf") {
    if (a.vectors.empty() && a.lexicon.empty())
      return Status::InvalidArgument("--method " + method +
                                     " needs --vectors FILE or --lexicon wordnet");
    RETURN_IF_ERROR(WordSimilaritySet::Open(a.vectors, a.vectors_cache, a.lexicon, &vectors));
  }
  std::unique_ptr<PairScorer> scorer;
  RETURN_IF_ERROR(PairScorer::Create(method, vectors.get(), a.theta, &scorer));
  std::vector<Tokens> toks;
  toks.reserve(2 * pairs.size());
  for (const auto& p : pairs) {
    toks.emplace_back();
    Tokenize(p.s1, &toks.back());
    toks.emplace_back();
    Tokenize(p.s2, &toks.back());
  }
  if (method == "tfidf") {  // idf over the sentences of the file, each one a document
    std::vector<const Tokens*> docs;
    for (const auto& t : toks) docs.push_back(&t);
    scorer->FitIdf(docs);
  }
  for (size_t i = 0; i < pairs.size(); ++i)
    scores->push_back(scorer->Score(toks[2 * i], toks[2 * i + 1]));
  return Status::OK();
}

Status RunSimilarity(const SimilarityArgs& a) {
  std::vector<SentencePairExample> pairs;
  RETURN_IF_ERROR(ReadSentencePairs(a.file, a.positive_at, &pairs));
  std::vector<double> scores;
  RETURN_IF_ERROR(ScoreFile(a, a.methods.at(0), pairs, &scores));
  for (double s : scores) std::cout << std::setprecision(6) << s << "\n";
  return Status::OK();
}

// Accuracy and F1 when pairs scoring at or above `threshold` are called positive.
struct ThresholdFigures {
  double threshold = 0, accuracy = 0, f1 = 0;
};
ThresholdFigures AtThreshold(const std::vector<LabelledScore>& ls, double threshold) {
  size_t tp = 0, fp = 0, fn = 0, tn = 0;
  for (const auto& l : ls) {
    bool yes = l.score >= threshold;
    (yes ? (l.positive ? tp : fp) : (l.positive ? fn : tn))++;
  }
  ThresholdFigures f{threshold, ls.empty() ? 0.0 : static_cast<double>(tp + tn) / ls.size(),
                     tp ? 2.0 * tp / (2.0 * tp + fp + fn) : 0.0};
  return f;
}
// The threshold (one of the scores, the highest on a tie) of the best accuracy. O(n log n).
ThresholdFigures MaxAccuracy(std::vector<LabelledScore> ls) {
  std::sort(ls.begin(), ls.end(), [](auto& x, auto& y) { return x.score > y.score; });
  size_t neg = 0;
  for (const auto& l : ls) neg += !l.positive;
  size_t tp = 0, fp = 0, best_correct = neg;  // threshold above every score: all negative
  double best_t = ls.empty() ? 0.0 : ls.front().score + 1;
  for (size_t i = 0; i < ls.size(); ++i) {
    (ls[i].positive ? tp : fp)++;
    if (i + 1 < ls.size() && ls[i + 1].score == ls[i].score) continue;
    size_t correct = tp + (neg - fp);
    if (correct > best_correct) best_correct = correct, best_t = ls[i].score;
  }
  return AtThreshold(ls, best_t);
}

Status RunEval(const SimilarityArgs& a) {
  std::vector<SentencePairExample> pairs;
  RETURN_IF_ERROR(ReadSentencePairs(a.file, a.positive_at, &pairs));
  for (size_t i = 0; i < pairs.size(); ++i)
    if (!pairs[i].has_label)
      return Status::InvalidArgument(a.file + ": pair " + std::to_string(i + 1) + " has no label");
  std::vector<Curve> curves;
  for (size_t k = 0; k < a.methods.size(); ++k) {
    const std::string& m = a.methods[k];
    std::vector<double> scores;
    RETURN_IF_ERROR(ScoreFile(a, m, pairs, &scores));
    std::vector<LabelledScore> ls;
    for (size_t i = 0; i < pairs.size(); ++i) ls.push_back({scores[i], pairs[i].positive});
    ClassifierEvaluation e = EvaluateScores(ls);
    ThresholdFigures acc = MaxAccuracy(ls), at;
    if (!std::isnan(a.at_threshold)) at = AtThreshold(ls, a.at_threshold);
    if (a.json) {
      ordered_json j = {{"method", m},  {"max_f1", e.max_f1},    {"threshold", e.threshold},
                        {"auc", e.auc}, {"pairs", pairs.size()}, {"positives", e.positives}};
      if (m != "tfidf") j["theta"] = a.theta;
      j["max_accuracy"] = acc.accuracy;
      j["accuracy_threshold"] = acc.threshold;
      j["f1_at_accuracy_threshold"] = acc.f1;
      if (!std::isnan(a.at_threshold))
        j["at_threshold"] = {{"threshold", at.threshold}, {"accuracy", at.accuracy}, {"f1", at.f1}};
      std::cout << j.dump() << "\n";
    } else {
      std::cout << std::fixed << std::setprecision(3) << m << ": MaxF1 " << e.max_f1
                << " at threshold " << std::setprecision(4) << e.threshold << ", AUC "
                << std::setprecision(3) << e.auc << "; max accuracy " << acc.accuracy
                << " (F1 " << acc.f1 << ") at threshold " << std::setprecision(4) << acc.threshold;
      if (!std::isnan(a.at_threshold))
        std::cout << std::setprecision(3) << "; at " << std::setprecision(4) << at.threshold
                  << std::setprecision(3) << ": accuracy " << at.accuracy << ", F1 " << at.f1;
      std::cout << "  (" << pairs.size() << " pairs, " << e.positives << " positive)\n";
    }
    Curve c{m, PaletteColor(k), {}, {}};
    for (const auto& p : e.curve) c.xs.push_back(p.recall), c.ys.push_back(p.precision);
    curves.push_back(std::move(c));
  }
  if (!a.plot.empty()) {
    std::ofstream f(a.plot, std::ios::binary);
    f << SvgCurves("Precision–recall: " + std::filesystem::path(a.file).filename().string(),
                   "recall", "precision", curves);
    if (!f) return Status::IOError(a.plot + ": write failed");
  }
  return Status::OK();
}

// ------------------------------------------------------------------ wordalign, aer

Status RunWordAlign(const std::string& file, const std::string& vectors_path,
                    const std::string& cache, const std::string& symmetrize, double theta,
                    const std::string& lexicon = "", const std::string& aligner = "maximum",
                    bool theta_given = false) {
  std::unique_ptr<WordVectors> vectors;
  std::unique_ptr<WordSimilaritySet> words;
  if (aligner == "lexical" || !lexicon.empty())
    RETURN_IF_ERROR(WordSimilaritySet::Open(vectors_path, cache, lexicon, &words));
  else if (!vectors_path.empty())
    RETURN_IF_ERROR(WordVectors::Load(vectors_path, cache, &vectors));
  LexicalAlignOptions lexical;
  if (theta_given) lexical.min_similarity = theta;
  // s1<TAB>s2 lines; a gold file (Edinburgh++ JSON, MultiMWA TSV) is read for its sentences.
  std::vector<std::pair<std::vector<std::string>, std::vector<std::string>>> pairs;
  std::ifstream in(file, std::ios::binary);
  if (!in) return Status::IOError(file + ": cannot open");
  std::string first_line;
  std::getline(in, first_line);
  in.seekg(0);
  size_t tabs = std::count(first_line.begin(), first_line.end(), '\t');
  if ((!first_line.empty() && first_line[0] == '[') || tabs >= 7) {
    std::vector<GoldAlignment> gold;
    RETURN_IF_ERROR(ReadGoldAlignments(file, &gold));
    for (auto& g : gold) pairs.emplace_back(g.s1, g.s2);
  } else {
    std::string line;
    uint64_t n = 0;
    while (std::getline(in, line)) {
      ++n;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      size_t tab = line.find('\t');
      if (tab == std::string::npos)
        return Status::Corruption(file + ": line " + std::to_string(n) + ": expected s1<TAB>s2");
      size_t tab2 = line.find('\t', tab + 1);
      pairs.emplace_back(
          SplitWhitespace(line.substr(0, tab)),
          SplitWhitespace(line.substr(
              tab + 1, tab2 == std::string::npos ? std::string::npos : tab2 - tab - 1)));
    }
  }
  for (const auto& [a, b] : pairs) {
    Links links;
    if (aligner == "lexical")
      links = AlignWordsLexical(words.get(), a, b, lexical);
    else if (words)
      RETURN_IF_ERROR(AlignWords(words.get(), a, b, theta, symmetrize, &links));
    else
      RETURN_IF_ERROR(AlignWords(vectors.get(), a, b, theta, symmetrize, &links));
    std::cout << FormatLinks(links) << "\n";
  }
  return Status::OK();
}

Status RunAer(const std::string& gold_path, const std::string& possible_path,
              const std::string& pred_path, bool json) {
  std::vector<GoldAlignment> gold;
  RETURN_IF_ERROR(ReadGoldAlignments(gold_path, &gold));
  if (!possible_path.empty()) {
    // Edinburgh++ ships SURE and SURE+POSSIBLE as two files: P comes from the second.
    std::vector<GoldAlignment> poss;
    RETURN_IF_ERROR(ReadGoldAlignments(possible_path, &poss));
    if (poss.size() != gold.size())
      return Status::InvalidArgument(possible_path + ": " + std::to_string(poss.size()) +
                                     " alignments, " + gold_path + ": " +
                                     std::to_string(gold.size()));
    for (size_t k = 0; k < gold.size(); ++k)
      gold[k].possible.insert(poss[k].possible.begin(), poss[k].possible.end());
  }
  std::vector<Links> pred;
  std::ifstream in(pred_path, std::ios::binary);
  if (!in) return Status::IOError(pred_path + ": cannot open");
  std::string line;
  uint64_t n = 0;
  while (std::getline(in, line)) {
    ++n;
    Links l;
    RETURN_IF_ERROR(
        ParseLinks(line, &l, nullptr).WithPrefix(pred_path + ": line " + std::to_string(n)));
    pred.push_back(std::move(l));
  }
  AerResult r;
  RETURN_IF_ERROR(ComputeAer(gold, pred, &r));
  auto fig = [](const AerFigures& f) {
    return ordered_json{{"precision", f.precision}, {"recall", f.recall}, {"aer", f.aer},
                        {"predicted", f.predicted}, {"sure", f.sure},     {"possible", f.possible}};
  };
  if (json) {
    ordered_json j = fig(r.overall);
    j["sentences"] = r.sentences;
    if (r.has_split) {
      j["identical"] = fig(r.identical);
      j["non_identical"] = fig(r.non_identical);
    }
    std::cout << j.dump() << "\n";
    return Status::OK();
  }
  auto line_of = [](const char* name, const AerFigures& f) {
    char buf[200];
    std::snprintf(
        buf, sizeof(buf),
        "%-14s precision %.4f  recall %.4f  AER %.4f  (%zu predicted, %zu sure, %zu possible)\n",
        name, f.precision, f.recall, f.aer, f.predicted, f.sure, f.possible);
    return std::string(buf);
  };
  std::cout << line_of("overall", r.overall);
  if (r.has_split)
    std::cout << line_of("identical", r.identical) << line_of("non-identical", r.non_identical);
  return Status::OK();
}

}  // namespace
}  // namespace aligndb

int main(int argc, char** argv) {
  using namespace aligndb;
  CLI::App app{
      "aligndb: a corpus database of parallel sentence pairs mined from comparable corpora"};
  app.require_subcommand(1);
  app.set_version_flag("--version", ALIGNDB_VERSION);
  std::vector<std::string> raw_args = Argv(argc, argv);

  IngestArgs ingest;
  auto* ingest_cmd = app.add_subcommand(
      "ingest", "Store the articles of MediaWiki XML dumps or document JSON lines");
  ingest_cmd->add_option("--db", ingest.db, "Database directory (created if missing)")->required();
  ingest_cmd->add_option(
      "--edition", ingest.edition,
      "Edition name (default: <siteinfo><dbname> of the dump; required for JSON lines)");
  ingest_cmd->add_flag("--keep-lists", ingest.keep_lists, "Keep list items as paragraphs");
  ingest_cmd->add_flag("--json", ingest.json, "Print the summary as JSON");
  ingest_cmd->add_option(
      "--index", ingest.index,
      "The multistream dump's -index.txt.bz2: read streams through it, in parallel");
  ingest_cmd
      ->add_option("--threads", ingest.threads,
                   "Threads decompressing streams with --index (0: all cores)")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  ingest_cmd->add_option("--only-titles-of", ingest.only_titles_of,
                         "With --index: read only the streams holding titles this edition has");
  ingest_cmd->add_flag(
      "--full", ingest.full,
      "The files are a complete dump of their editions: delete stored pages they do not hold");
  ingest_cmd->add_option("FILE", ingest.files, ".xml, .xml.bz2 (also multistream) or .jsonl files")
      ->required();

  ShowArgs show;
  auto* show_cmd =
      app.add_subcommand("show", "Print one stored article's paragraphs and sentences");
  show_cmd->add_option("--db", show.db, "Database directory")->required();
  show_cmd->add_option("--edition", show.edition,
                       "Edition (default: every edition that has the title)");
  show_cmd->add_option("--format", show.format, "text, json or jsonl")
      ->check(CLI::IsMember({"text", "json", "jsonl"}));
  show_cmd->add_flag(
      "--all", show.all,
      "Every article of the edition (with --format jsonl: the JSON lines ingest reads)");
  show_cmd->add_option("TITLE", show.title, "Article title");

  std::string info_db;
  bool info_json = false;
  auto* info_cmd = app.add_subcommand("info", "Counts per edition and the runs recorded");
  info_cmd->add_option("--db", info_db, "Database directory")->required();
  info_cmd->add_flag("--json", info_json, "Print JSON");

  AlignArgs align;
  bool align_json = false;
  auto* align_cmd = app.add_subcommand(
      "align", "Align the article pairs of two editions (Coster & Kauchak, SPEC §4)");
  align_cmd->add_option("--db", align.db, "Database directory")->required();
  AddAlignOptions(align_cmd, &align);
  align_cmd->add_flag("--json", align_json, "Print the summary as JSON");

  IngestArgs build_ingest;
  AlignArgs build_align;
  int build_show = 5;
  auto* build_cmd =
      app.add_subcommand("build", "Ingest FILEs, align, and show a few aligned pairs");
  build_cmd->add_option("--db", build_ingest.db, "Database directory (created if missing)")
      ->required();
  AddAlignOptions(build_cmd, &build_align);
  build_cmd->add_option("--show", build_show, "Aligned sentence pairs to print at the end")
      ->capture_default_str();
  build_cmd->add_option("FILE", build_ingest.files, "Dumps or JSON lines of both editions")
      ->required();

  std::string lookup_db, lookup_title, lookup_format = "text";
  EditionPair lookup_eds;
  auto* lookup_cmd = app.add_subcommand(
      "lookup", "Show how an article pair was aligned, by either edition's title");
  lookup_cmd->add_option("--db", lookup_db, "Database directory")->required();
  lookup_cmd->add_option("--normal", lookup_eds.normal,
                         "Normal edition (default: the aligned pair)");
  lookup_cmd->add_option("--simple", lookup_eds.simple,
                         "Simple edition (default: the aligned pair)");
  lookup_cmd->add_option("--format", lookup_format, "text or json")
      ->check(CLI::IsMember({"text", "json"}));
  lookup_cmd->add_option("TITLE", lookup_title, "Title in either edition")->required();

  std::string export_db, export_format, export_ops, export_collection;
  ExportOptions export_opts;
  export_opts.min_sim = std::nan("");  // the defaults depend on what is exported
  export_opts.max_sim = std::nan("");
  auto* export_cmd = app.add_subcommand(
      "export", "Stream sentence pairs, filtered, as TSV, JSON lines or parallel text");
  export_cmd->add_option("--db", export_db, "Database directory")->required();
  export_cmd->add_option("--normal", export_opts.editions.normal,
                         "Normal edition (default: the aligned pair)");
  export_cmd->add_option("--simple", export_opts.editions.simple,
                         "Simple edition (default: the aligned pair)");
  export_cmd->add_option("--collection", export_collection,
                         "A paraphrase collection (instead of --normal/--simple)");
  export_cmd->add_option("--min-sim", export_opts.min_sim,
                         "Lowest similarity kept (default 0.5; paraphrase collections: no limit)");
  export_cmd->add_option("--max-sim", export_opts.max_sim,
                         "Highest similarity kept (default 1; paraphrase collections: no limit)");
  export_cmd->add_option("--op", export_ops,
                         "Operations kept, comma-separated (default 1-1,1-2,2-1,2-2,pair)");
  export_cmd->add_flag("--no-identical", export_opts.no_identical,
                       "Drop pairs of identical sentences");
  export_cmd->add_option("--title", export_opts.title,
                         "Only this article pair (either edition's title)");
  export_cmd->add_option("--format", export_format, "tsv, jsonl or parallel")
      ->required()
      ->check(CLI::IsMember({"tsv", "jsonl", "parallel"}));
  export_cmd->add_option("--out", export_opts.out_prefix,
                         "Output: PREFIX for parallel (PREFIX.normal, PREFIX.simple); a file for "
                         "tsv/jsonl (default stdout)");

  std::string stats_db, stats_collection;
  EditionPair stats_eds;
  double stats_min_sim = 0.5;
  bool stats_json = false;
  auto* stats_cmd =
      app.add_subcommand("stats", "Article, paragraph and sentence pair counts, operation shares");
  stats_cmd->add_option("--db", stats_db, "Database directory")->required();
  stats_cmd->add_option("--normal", stats_eds.normal, "Normal edition (default: the aligned pair)");
  stats_cmd->add_option("--simple", stats_eds.simple, "Simple edition (default: the aligned pair)");
  stats_cmd
      ->add_option("--min-sim", stats_min_sim, "Similarity threshold of the sentence pair filter")
      ->capture_default_str();
  stats_cmd->add_flag("--json", stats_json, "Print JSON");
  stats_cmd->add_option("--collection", stats_collection,
                        "A paraphrase collection (instead of --normal/--simple)");

  std::string para_db;
  ParaphraseOptions para_opts;
  bool para_json = false;
  auto* para_cmd = app.add_subcommand(
      "paraphrase", "Mine paraphrase pairs from news clusters (Dolan et al.: L12, F2)");
  para_cmd->add_option("--db", para_db, "Database directory")->required();
  para_cmd->add_option("--method", para_opts.method, "l12 or f2")
      ->capture_default_str()
      ->check(CLI::IsMember({"l12", "f2"}));
  para_cmd
      ->add_option("--max-distance", para_opts.max_distance, "L12: largest word edit distance kept")
      ->capture_default_str()
      ->check(CLI::NonNegativeNumber);
  para_cmd->add_option("--collection", para_opts.collection,
                       "Edition holding the clusters (default: the only one)");
  para_cmd->add_flag("--json", para_json, "Print the summary as JSON");

  std::string score_hyp, score_src;
  std::vector<std::string> score_refs;
  bool score_json = false;
  auto* score_cmd = app.add_subcommand(
      "score",
      "BLEU, word-level F1 and simple string accuracy of system output against references");
  score_cmd->add_option("--hyp", score_hyp, "System output, one tokenized sentence a line")
      ->required();
  score_cmd
      ->add_option("--ref", score_refs, "References, line-aligned with --hyp (repeat for several)")
      ->required();
  score_cmd->add_option("--src", score_src,
                        "Source sentences (accepted for symmetry with other tools; not used)");
  score_cmd->add_flag("--json", score_json, "Print {\"bleu\", \"word_f1\", \"ssa\"}");

  std::string report_db;
  ReportOptions report_opts;
  auto* report_cmd = app.add_subcommand(
      "report", "Write an HTML report (with pictures) and Markdown tables of the corpus");
  report_cmd->add_option("--db", report_db, "Database directory")->required();
  report_cmd->add_option("--out", report_opts.out_dir, "Output directory")->required();
  report_cmd->add_option("--normal", report_opts.editions.normal,
                         "Normal edition (default: the aligned pair)");
  report_cmd->add_option("--simple", report_opts.editions.simple,
                         "Simple edition (default: the aligned pair)");
  report_cmd
      ->add_option("--min-sim", report_opts.min_sim,
                   "Similarity threshold of the sentence pair filter")
      ->capture_default_str();

  SimilarityArgs sim_args;
  auto add_sim_options = [&](CLI::App* cmd, bool several) {
    cmd->add_option(
           "--method", sim_args.methods,
           several
               ? "Similarities, comma-separated: tfidf, average, maximum, hungarian, wmd, additive"
               : "tfidf, average, maximum, hungarian, wmd or additive")
        ->required()
        ->delimiter(',');
    cmd->add_option("--vectors", sim_args.vectors,
                    "Word vectors (word2vec .bin/text, GloVe, fastText .vec)");
    cmd->add_option(
        "--vectors-cache", sim_args.vectors_cache,
        "Where loaded vectors are cached for fast reloads (default ~/.cache/aligndb; '-': none)");
    cmd->add_option("--lexicon", sim_args.lexicon,
                    "Word similarity from a lexicon (wordnet), alone or with --vectors (larger "
                    "wins); WordNet from $WNSEARCHDIR or /usr/share/wordnet")
        ->check(CLI::IsMember({"wordnet"}));
    cmd->add_option("--theta", sim_args.theta,
                    "Word pairs count only when their similarity exceeds this")
        ->capture_default_str();
    cmd->add_option("--positive-at", sim_args.positive_at,
                    "Numeric labels (SICK relatedness) at or above this are positive")
        ->capture_default_str();
    cmd->add_option("FILE", sim_args.file, "Sentence pairs: MSRP, SICK, or s1<TAB>s2[<TAB>label]")
        ->required();
  };
  auto* similarity_cmd = app.add_subcommand("similarity", "Score sentence pairs, one score a line");
  add_sim_options(similarity_cmd, false);
  auto* eval_cmd =
      app.add_subcommand("eval", "MaxF1, its threshold, and AUC of similarities on labelled pairs");
  add_sim_options(eval_cmd, true);
  eval_cmd->add_flag("--json", sim_args.json, "One JSON line per method");
  eval_cmd->add_option("--at-threshold", sim_args.at_threshold,
                       "Also report accuracy and F1 at this threshold (one chosen on other data)");
  eval_cmd->add_option("--plot", sim_args.plot,
                       "Draw the precision-recall curves of the methods to FILE.svg");

  std::string wa_file, wa_vectors, wa_cache, wa_sym = "grow-diag-final", wa_lexicon,
      wa_aligner = "maximum";
  double wa_theta = 0.49;
  auto* wa_cmd = app.add_subcommand(
      "wordalign", "Word-align sentence pairs (maximum alignment, symmetrized); i-j lines");
  wa_cmd->add_option("--vectors", wa_vectors, "Word vectors (without: identical words only)");
  wa_cmd->add_option("--vectors-cache", wa_cache, "Cache directory of loaded vectors ('-': none)");
  wa_cmd->add_option("--lexicon", wa_lexicon, "Word similarity from a lexicon (wordnet)")
      ->check(CLI::IsMember({"wordnet"}));
  wa_cmd->add_option("--aligner", wa_aligner,
                     "maximum (the paper's maximum alignment, symmetrized) or lexical (staged "
                     "one-to-one alignment with context; --theta: its minimum φ, default 0.9)")
      ->capture_default_str()
      ->check(CLI::IsMember({"maximum", "lexical"}));
  wa_cmd->add_option("--symmetrize", wa_sym, "intersection, union or grow-diag-final")
      ->capture_default_str()
      ->check(CLI::IsMember({"intersection", "union", "grow-diag-final"}));
  wa_cmd->add_option("--theta", wa_theta, "Word pairs link only when their similarity exceeds this")
      ->capture_default_str();
  wa_cmd
      ->add_option("FILE", wa_file,
                   "s1<TAB>s2 lines of whitespace-tokenized sentences (or a gold file)")
      ->required();

  std::string aer_gold, aer_pred, aer_possible;
  bool aer_json = false;
  auto* aer_cmd = app.add_subcommand(
      "aer", "Precision, recall and alignment error rate against gold word alignments");
  aer_cmd
      ->add_option("--gold", aer_gold,
                   "Edinburgh++ JSON, MultiMWA TSV, or i-j lines with p for possible")
      ->required();
  aer_cmd->add_option("--pred", aer_pred, "Predicted i-j lines, one per sentence pair")->required();
  aer_cmd->add_option(
      "--possible", aer_possible,
      "A second gold file whose links are the POSSIBLE ones (Edinburgh++ sure+poss)");
  aer_cmd->add_flag("--json", aer_json, "Print JSON");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }

  if (*ingest_cmd) {
    IngestSummary summary;
    Status s = RunIngest(ingest, raw_args, &summary);
    if (s.ok()) PrintIngestSummary(summary, ingest.json);
    return Finish(s);
  }
  if (*show_cmd) return Finish(RunShow(show));
  if (*align_cmd) {
    std::unique_ptr<Store> store;
    Status s = OpenStore(align.db, true, &store);
    AlignSummary summary;
    if (s.ok()) s = RunAlignOn(store.get(), align, raw_args, &summary);
    if (s.ok()) PrintAlignSummary(summary, align_json);
    return Finish(s);
  }
  if (*build_cmd) {
    IngestSummary ingest_summary;
    Status s = RunIngest(build_ingest, raw_args, &ingest_summary);
    if (s.ok()) PrintIngestSummary(ingest_summary, false);
    std::unique_ptr<Store> store;
    AlignSummary summary;
    if (s.ok()) s = OpenStore(build_ingest.db, true, &store);
    if (s.ok()) s = RunAlignOn(store.get(), build_align, raw_args, &summary);
    if (s.ok()) PrintAlignSummary(summary, false);
    if (s.ok() && build_show > 0) {
      std::ostringstream pairs;
      ExportOptions eo;
      eo.editions = {build_align.options.normal, build_align.options.simple};
      eo.format = ExportFormat::kJsonl;
      eo.no_identical = true;
      uint64_t n = 0;
      s = Export(store.get(), eo, pairs, &n);
      std::istringstream lines(pairs.str());
      std::string line;
      std::cout << "\n"
                << n << " sentence pairs with similarity >= 0.5 (not identical); the first "
                << std::min<uint64_t>(n, build_show) << ":\n";
      for (int k = 0; k < build_show && std::getline(lines, line); ++k) {
        auto j = nlohmann::json::parse(line);
        std::cout << "\n[" << j["normal_title"].get<std::string>() << ", "
                  << j["op"].get<std::string>() << ", similarity " << std::fixed
                  << std::setprecision(3) << j["similarity"].get<double>() << "]\n"
                  << "  normal: " << j["normal"].get<std::string>() << "\n"
                  << "  simple: " << j["simple"].get<std::string>() << "\n";
      }
    }
    return Finish(s);
  }
  if (*lookup_cmd) {
    std::unique_ptr<Store> store;
    Status s = OpenStore(lookup_db, false, &store);
    if (s.ok()) s = Lookup(store.get(), lookup_eds, lookup_title, lookup_format, std::cout);
    return Finish(s);
  }
  if (*wa_cmd)
    return Finish(RunWordAlign(wa_file, wa_vectors, wa_cache, wa_sym, wa_theta, wa_lexicon,
                               wa_aligner, wa_cmd->count("--theta") > 0));
  if (*aer_cmd) return Finish(RunAer(aer_gold, aer_possible, aer_pred, aer_json));
  if (*para_cmd) {
    std::unique_ptr<Store> store;
    Status s = OpenStore(para_db, true, &store);
    ParaphraseSummary sum;
    uint64_t run_id = 0;
    if (s.ok()) s = store->BeginRun("paraphrase", raw_args, &run_id);
    if (s.ok()) {
      s = ExtractParaphrases(store.get(), para_opts, run_id, &sum);
      Status fs = store->FinishRun(run_id, s, sum.AsCounts());
      if (s.ok()) s = fs;
    }
    if (s.ok()) {
      if (para_json) {
        ordered_json j;
        for (auto& [k, v] : sum.AsCounts()) j[k] = v;
        std::cout << j.dump() << "\n";
      } else {
        std::cout << para_opts.method << ": " << sum.counts.kept << " pairs from " << sum.clusters
                  << " clusters (" << sum.documents << " documents); of " << sum.counts.candidates
                  << " candidates dropped: " << sum.counts.identical << " identical, "
                  << sum.counts.length_ratio << " length ratio, " << sum.counts.duplicate
                  << " duplicate, " << sum.counts.too_distant << " too distant, "
                  << sum.counts.few_shared_words << " too few shared words\n";
      }
    }
    return Finish(s);
  }
  if (*export_cmd) {
    if (!export_collection.empty()) export_opts.editions = {export_collection, export_collection};
    if (export_format == "tsv")
      export_opts.format = ExportFormat::kTsv;
    else if (export_format == "parallel")
      export_opts.format = ExportFormat::kParallel;
    else
      export_opts.format = ExportFormat::kJsonl;
    if (!export_ops.empty()) {
      export_opts.ops.clear();
      std::stringstream ss(export_ops);
      std::string name;
      while (std::getline(ss, name, ',')) {
        Op op;
        if (!ParseOpName(name, &op) || op == Op::kSkipSimple || op == Op::kSkipNormal)
          return Finish(Status::InvalidArgument("--op: unknown operation \"" + name +
                                                "\" (use 1-1, 1-2, 2-1, 2-2, pair)"));
        export_opts.ops.insert(op);
      }
    }
    std::unique_ptr<Store> store;
    Status s = OpenStore(export_db, false, &store);
    uint64_t written = 0;
    if (s.ok()) {
      if (export_opts.format != ExportFormat::kParallel && !export_opts.out_prefix.empty()) {
        std::ofstream file(export_opts.out_prefix, std::ios::binary);
        if (!file)
          s = Status::IOError(export_opts.out_prefix + ": cannot open for writing");
        else
          s = Export(store.get(), export_opts, file, &written);
      } else {
        std::ios::sync_with_stdio(false);
        s = Export(store.get(), export_opts, std::cout, &written);
        std::cout.flush();
      }
    }
    if (s.ok() && StderrIsTerminal())
      std::fprintf(stderr, "exported %llu sentence pairs\n", (unsigned long long)written);
    return Finish(s);
  }
  if (*similarity_cmd) {
    if (sim_args.methods.size() != 1)
      return Finish(Status::InvalidArgument("similarity takes one --method"));
    return Finish(RunSimilarity(sim_args));
  }
  if (*eval_cmd) return Finish(RunEval(sim_args));
  if (*score_cmd) return Finish(RunScore(score_hyp, score_refs, score_json));
  if (*report_cmd) {
    std::unique_ptr<Store> store;
    Status s = OpenStore(report_db, false, &store);
    std::vector<std::string> files;
    if (s.ok()) s = WriteReport(store.get(), report_opts, &files);
    if (s.ok())
      for (const auto& f : files) std::cout << f << "\n";
    return Finish(s);
  }
  if (*stats_cmd) {
    std::unique_ptr<Store> store;
    if (!stats_collection.empty()) stats_eds = {stats_collection, stats_collection};
    Status s = OpenStore(stats_db, false, &store);
    if (s.ok()) s = Stats(store.get(), stats_eds, stats_min_sim, stats_json, std::cout);
    return Finish(s);
  }
  if (*info_cmd) return Finish(RunInfo(info_db, info_json));
  return 2;
}

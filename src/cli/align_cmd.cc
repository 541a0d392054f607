// align, build: aligning the article pairs of two editions (build: ingest first, then show a few
// of the aligned sentence pairs).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iomanip>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "align/align.h"
#include "cli/command.h"
#include "cli/ingest_cmd.h"
#include "cli/options.h"
#include "cli/terminal.h"
#include "embed/embeddings.h"
#include "embed/word_similarity.h"
#include "export/export.h"
#include "index/index.h"

namespace aligndb::cli {
namespace {

struct AlignArgs {
  std::string db;
  AlignOptions options;
  std::string vectors_cache;
  std::string lexicon;
  bool json = false;
  // Given on the command line (their defaults cannot tell): checked against the mode and measure.
  bool theta_given = false, threshold_given = false;
};

void AddAlignOptions(CLI::App* cmd, AlignArgs* a) {
  AlignOptions& o = a->options;
  cmd->add_option("--normal", o.normal, "Normal (complex) edition")->capture_default_str();
  cmd->add_option("--simple", o.simple, "Simple edition")->capture_default_str();
  cmd->add_option("--paragraph-threshold", o.paragraph_threshold,
                  "Minimum TF-IDF cosine of a paragraph candidate")
      ->capture_default_str()
      ->check(FiniteNumber(0, 1));
  cmd->add_option("--skip-penalty", o.skip_penalty, "Penalty of a skipped sentence")
      ->capture_default_str()
      ->check(FiniteNumber(0));
  cmd->add_option("--max-dp-cells", o.max_dp_cells,
                  "Skip (and count) paragraph pairs whose sentence alignment has more cells "
                  "(normal × simple sentences; ~17 bytes each); 0: no limit")
      ->capture_default_str()
      ->check(IntegerIn(0, std::numeric_limits<long long>::max()));
  cmd->add_option(
         "--max-idf-drift", o.max_idf_drift,
         "Re-align a kept pair when the idf's paragraph count (both editions) moved more than "
         "this share since the pair was aligned")
      ->capture_default_str()
      ->check(FiniteNumber(0));
  AddNameOption(cmd, "--similarity", &o.similarity, kSimilarityMeasureNames, "Sentence similarity");
  cmd->add_option("--vectors", o.vectors, "Word vectors for the embedding similarities");
  cmd->add_option("--vectors-cache", a->vectors_cache,
                  "Cache directory of loaded vectors ('-': none)");
  cmd->add_option("--lexicon", a->lexicon,
                  "Word similarity from a lexicon (wordnet), alone or with --vectors (larger wins)")
      ->check(CLI::IsMember({"wordnet"}));
  cmd->add_option("--theta", o.theta, "Embedding similarities: word pairs count when above this")
      ->each([a](const std::string&) { a->theta_given = true; })
      ->capture_default_str()
      ->check(FiniteNumber(-1, 1));
  AddNameOption(cmd, "--mode", &o.mode, kAlignModeNames,
                "Paragraphs then sentences by dynamic programming (Coster & Kauchak), or every "
                "sentence pair scored (Kajiwara & Komachi's corpus mode)");
  cmd->add_option("--threshold", o.pair_threshold,
                  "all-pairs: keep sentence pairs at or above this")
      ->each([a](const std::string&) { a->threshold_given = true; })
      ->capture_default_str()
      ->check(FiniteNumber(-1, 1));
  cmd->add_flag(
      "--follow-redirects", o.follow_redirects,
      "Pair a simple title that is a redirect in the normal edition with the redirect's target");
  AddNameOption(cmd, "--candidates", &o.candidates, kCandidateSourceNames,
                "Where paragraph candidates come from (the records are the same): an inverted "
                "index of each normal article built in memory (faster, nothing to maintain), or "
                "the Xapian paragraph index in DB/xapian, brought up to date first");
  cmd->add_option("--threads", o.threads,
                  "Threads aligning article pairs (0: all cores; at most " +
                      std::to_string(kMaxThreads) + ")")
      ->capture_default_str()
      ->check(ThreadCount());
  cmd->add_flag("--all", o.all,
                "Re-align every pair, also those whose pages and parameters did not change "
                "(current idf everywhere)");
}

// An option that would be ignored is a mistake to point out: results computed without it would
// look as if it had been used. Checked before anything is read or written.
Status CheckAlignArgs(const AlignArgs& args) {
  const AlignOptions& options = args.options;
  if (options.similarity == SimilarityMeasure::kTfidf &&
      (!options.vectors.empty() || !args.lexicon.empty() || args.theta_given))
    return Status::InvalidArgument(
        "--vectors, --lexicon and --theta are for an embedding --similarity (every measure but "
        "tfidf, the default)");
  if (options.similarity != SimilarityMeasure::kTfidf && options.vectors.empty() &&
      args.lexicon.empty())
    return Status::InvalidArgument(std::string("--similarity ") +
                                   SimilarityMeasureName(options.similarity) +
                                   " needs --vectors FILE or --lexicon wordnet");
  if (options.similarity == SimilarityMeasure::kTfidf && options.mode == AlignMode::kAllPairs)
    return Status::InvalidArgument(
        "--mode all-pairs needs an embedding --similarity (and --vectors)");
  if (options.mode != AlignMode::kAllPairs && args.threshold_given)
    return Status::InvalidArgument(
        "--threshold is for --mode all-pairs; coster-kauchak keeps sentence pairs by "
        "--paragraph-threshold and the dynamic program");
  return Status::OK();
}

// Aligns as a recorded run: loads the vectors an embedding similarity needs, opens the
// paragraph index with --candidates xapian, draws progress on a terminal.
Status RunAlign(Store* store, const AlignArgs& args, const Invocation& inv, AlignSummary* summary) {
  AlignOptions options = args.options;
  RETURN_IF_ERROR(CheckAlignArgs(args));
  std::unique_ptr<WordSimilaritySet> vectors;
  std::unique_ptr<PairScorer> scorer;
  if (options.similarity != SimilarityMeasure::kTfidf) {
    RETURN_IF_ERROR(
        WordSimilaritySet::Open(options.vectors, args.vectors_cache, args.lexicon, &vectors));
    RETURN_IF_ERROR(PairScorer::Create(options.similarity, vectors.get(), options.theta, &scorer));
    options.scorer = scorer.get();
    options.lexicon = args.lexicon;
  }
  std::unique_ptr<ParagraphIndex> index;  // its writer lock is held until align ends
  if (options.candidates == CandidateSource::kXapian)
    RETURN_IF_ERROR(ParagraphIndex::Open(IndexDir(store->dir()), true, &index));
  return RecordedRun(
      store, "align", inv,
      [&](uint64_t run_id) {
        ProgressLine line(inv.progress);
        if (line.enabled()) {
          options.progress = [&line](uint64_t done, uint64_t total) {
            line.Show("aligning: " + std::to_string(done) + " / " + std::to_string(total) +
                      " article pairs");
          };
        }
        return Align(store, index.get(), options, run_id, summary);
      },
      [&] { return summary->AsCounts(); }, /*without_log=*/true);
}

void PrintAlignSummary(const AlignSummary& s, bool json) {
  if (json) {
    nlohmann::ordered_json j;
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
  if (s.indexed_pages || s.index_rebuilt)
    std::cout << "paragraph index: " << s.indexed_pages << " pages indexed"
              << (s.index_rebuilt ? " (rebuilt from the database)" : "") << "\n";
  if (s.dp_skipped)
    std::cout << "paragraph pairs not sentence-aligned, over --max-dp-cells: " << s.dp_skipped
              << "\n";
}

Runner WireAlign(CLI::App* cmd) {
  auto a = std::make_shared<AlignArgs>();
  AddDbOption(cmd, &a->db);
  AddAlignOptions(cmd, a.get());
  cmd->add_flag("--json", a->json, "Print the summary as JSON");
  return [a](const Invocation& inv) {
    RETURN_IF_ERROR(CheckAlignArgs(*a));
    std::unique_ptr<Store> store;
    RETURN_IF_ERROR(OpenStore(a->db, OpenMode::kWrite, &store));
    AlignSummary summary;
    RETURN_IF_ERROR(RunAlign(store.get(), *a, inv, &summary));
    RETURN_IF_ERROR(store->Close());  // durable before it is reported
    PrintAlignSummary(summary, a->json);
    return Status::OK();
  };
}

// ------------------------------------------------------------------ build

struct BuildArgs {
  IngestArgs ingest;
  AlignArgs align;
  int show = 5;
};

struct ShownPair {
  std::string normal_title, op, normal, simple;
  double similarity;
};

// The first `show` of the pairs a default export gives (not identical), after their count.
Status ShowAlignedPairs(Store* store, const AlignOptions& aligned, int show) {
  ExportOptions eo;
  eo.editions = {aligned.normal, aligned.simple};
  eo.min_sim = kDefaultMinSimilarity;
  eo.no_identical = true;
  uint64_t n = 0;
  std::vector<ShownPair> shown;
  RETURN_IF_ERROR(ForEachExportedPair(store, eo, [&](const ExportedPair& p) {
    if (n++ < static_cast<uint64_t>(show))
      shown.push_back({std::string(p.normal_title), OpName(p.op), std::string(p.normal),
                       std::string(p.simple), p.similarity});
    return Status::OK();
  }));
  std::cout << "\n"
            << n << " sentence pairs with similarity >= " << eo.min_sim
            << " (not identical); the first " << shown.size() << ":\n";
  for (const auto& p : shown) {
    std::cout << "\n[" << TerminalSafe(p.normal_title) << ", " << p.op << ", similarity "
              << std::fixed << std::setprecision(3) << p.similarity << "]\n"
              << "  normal: " << TerminalSafe(p.normal) << "\n"
              << "  simple: " << TerminalSafe(p.simple) << "\n";
  }
  return Status::OK();
}

Runner WireBuild(CLI::App* cmd) {
  auto a = std::make_shared<BuildArgs>();
  AddDbOption(cmd, &a->ingest.db, "Database directory (created if missing)");
  AddAlignOptions(cmd, &a->align);
  cmd->add_option("--show", a->show, "Aligned sentence pairs to print at the end")
      ->capture_default_str()
      ->check(IntegerIn(0, std::numeric_limits<int>::max()));
  cmd->add_option("FILE", a->ingest.files, "Dumps or JSON lines of both editions")->required();
  return [a](const Invocation& inv) {
    // Arguments and input files are checked before the database is created or opened.
    RETURN_IF_ERROR(CheckIngestInputs(a->ingest.files, a->ingest.options));
    RETURN_IF_ERROR(CheckAlignArgs(a->align));
    std::unique_ptr<Store> store;
    RETURN_IF_ERROR(OpenStore(a->ingest.db, OpenMode::kCreate, &store));
    IngestSummary ingested;
    RETURN_IF_ERROR(RunIngest(store.get(), a->ingest, inv, &ingested));
    PrintIngestSummary(ingested, false);
    AlignSummary aligned;
    RETURN_IF_ERROR(RunAlign(store.get(), a->align, inv, &aligned));
    PrintAlignSummary(aligned, false);
    if (a->show > 0) RETURN_IF_ERROR(ShowAlignedPairs(store.get(), a->align.options, a->show));
    return store->Close();
  };
}

}  // namespace

std::vector<Command> AlignCommands() {
  return {
      {"align", "Align the article pairs of two editions (Coster & Kauchak)", WireAlign},
      {"build", "Ingest FILEs, align, and show a few aligned pairs", WireBuild},
  };
}

}  // namespace aligndb::cli

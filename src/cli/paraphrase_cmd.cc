// paraphrase: mining paraphrase pairs from clusters of news documents.
#include <CLI/CLI.hpp>
#include <iostream>
#include <limits>
#include <nlohmann/json.hpp>

#include "cli/command.h"
#include "cli/options.h"
#include "paraphrase/paraphrase.h"

namespace aligndb::cli {
namespace {

struct ParaphraseArgs {
  std::string db;
  ParaphraseOptions options;
  bool json = false;
};

void PrintParaphraseSummary(const ParaphraseSummary& sum, const std::string& method, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    for (auto& [k, v] : sum.AsCounts()) j[k] = v;
    std::cout << j.dump() << "\n";
    return;
  }
  std::cout << method << ": " << sum.counts.kept << " pairs from " << sum.clusters << " clusters ("
            << sum.documents << " documents); of " << sum.counts.candidates
            << " candidates dropped: " << sum.counts.identical << " identical, "
            << sum.counts.length_ratio << " length ratio, " << sum.counts.duplicate
            << " duplicate, " << sum.counts.too_distant << " too distant, "
            << sum.counts.few_shared_words << " too few shared words\n";
  if (sum.counts.capped_clusters > 0)
    std::cout << "note: " << sum.counts.capped_clusters
              << " clusters had more sentences than --max-cluster-sentences; "
              << sum.counts.skipped_sentences << " sentences past the cap were not compared\n";
}

Runner WireParaphrase(CLI::App* cmd) {
  auto a = std::make_shared<ParaphraseArgs>();
  AddDbOption(cmd, &a->db);
  cmd->add_option("--method", a->options.method, "l12 or f2")
      ->capture_default_str()
      ->check(CLI::IsMember({"l12", "f2"}));
  cmd->add_option("--max-distance", a->options.max_distance, "L12: largest word edit distance kept")
      ->capture_default_str()
      ->check(IntegerIn(0, std::numeric_limits<int>::max()));
  cmd->add_option("--max-cluster-sentences", a->options.max_cluster_sentences,
                  "Most sentences of one cluster compared (L12: all, F2: first two of each "
                  "document); the rest are skipped and counted. Bounds time and memory "
                  "(at most ~500,000 pairs per cluster by default); 0: no cap")
      ->capture_default_str()
      ->check(IntegerIn(0, 1000000000));
  cmd->add_option("--collection", a->options.collection,
                  "Edition holding the clusters (default: the only one)");
  cmd->add_flag("--json", a->json, "Print the summary as JSON");
  return [a](const Invocation& inv) {
    std::unique_ptr<Store> store;
    RETURN_IF_ERROR(OpenStore(a->db, OpenMode::kWrite, &store));
    ParaphraseSummary sum;
    RETURN_IF_ERROR(RecordedRun(
        store.get(), "paraphrase", inv,
        [&](uint64_t run_id) { return ExtractParaphrases(store.get(), a->options, run_id, &sum); },
        [&] { return sum.AsCounts(); }));
    RETURN_IF_ERROR(store->Close());  // durable before it is reported
    PrintParaphraseSummary(sum, a->options.method, a->json);
    return Status::OK();
  };
}

}  // namespace

std::vector<Command> ParaphraseCommands() {
  return {
      {"paraphrase", "Mine paraphrase pairs from news clusters (Dolan et al.: L12, F2)",
       WireParaphrase},
  };
}

}  // namespace aligndb::cli

// lookup, stats: reading alignments back, one article pair or the whole corpus.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>

#include "align/align.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/print.h"
#include "export/export.h"

namespace aligndb::cli {
namespace {

Runner WireLookup(CLI::App* cmd) {
  struct Args {
    std::string db, title;
    OutputFormat format = OutputFormat::kText;
    EditionPair editions;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  AddDbOption(cmd, &a->db);
  cmd->add_option("--normal", a->editions.normal, "Normal edition (default: the aligned pair)");
  cmd->add_option("--simple", a->editions.simple, "Simple edition (default: the aligned pair)");
  auto* format = AddNameOption(cmd, "--format", &a->format, kTextOrJsonNames, "Output");
  // --json as stats, info, ingest and align take it.
  cmd->add_flag("--json", a->json, "Print JSON (as --format json)")->excludes(format);
  cmd->add_option("TITLE", a->title, "Title in either edition")->required();
  return [a](const Invocation&) {
    std::unique_ptr<Store> store;
    RETURN_IF_ERROR(OpenStore(a->db, OpenMode::kRead, &store));
    return Lookup(store.get(), a->editions, a->title, a->json ? OutputFormat::kJson : a->format,
                  std::cout);
  };
}

Runner WireStats(CLI::App* cmd) {
  struct Args {
    std::string db, collection;
    EditionPair editions;
    double min_sim = kDefaultMinSimilarity;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  AddDbOption(cmd, &a->db);
  cmd->add_option("--normal", a->editions.normal, "Normal edition (default: the aligned pair)");
  cmd->add_option("--simple", a->editions.simple, "Simple edition (default: the aligned pair)");
  cmd->add_option("--min-sim", a->min_sim, "Similarity threshold of the sentence pair filter")
      ->capture_default_str()
      ->check(FiniteNumber());
  cmd->add_flag("--json", a->json, "Print JSON");
  cmd->add_option("--collection", a->collection,
                  "A paraphrase collection (instead of --normal/--simple)");
  return [a](const Invocation&) {
    EditionPair editions = a->editions;
    if (!a->collection.empty()) editions = {a->collection, a->collection};
    std::unique_ptr<Store> store;
    Status opened = OpenStore(a->db, OpenMode::kRead, &store);
    if (opened.IsNotFound()) {  // no database: a bad --min-sim is told first
      ExportOptions limits;
      limits.editions = editions;
      limits.min_sim = a->min_sim;
      limits.max_sim = std::nan("");
      RETURN_IF_ERROR(CheckArgumentsAsNamed(limits));
    }
    RETURN_IF_ERROR(opened);
    return Stats(store.get(), editions, a->min_sim,
                 a->json ? OutputFormat::kJson : OutputFormat::kText, std::cout);
  };
}

}  // namespace

std::vector<Command> QueryCommands() {
  return {
      {"lookup", "Show how an article pair was aligned, by either edition's title", WireLookup},
      {"stats", "Article, paragraph and sentence pair counts, operation shares", WireStats},
  };
}

}  // namespace aligndb::cli

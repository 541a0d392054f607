// report: the corpus described in HTML (with pictures) and Markdown.
#include <CLI/CLI.hpp>
#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "report/report.h"

namespace aligndb::cli {
namespace {

Runner WireReport(CLI::App* cmd) {
  struct Args {
    std::string db;
    ReportOptions options;
  };
  auto a = std::make_shared<Args>();
  AddDbOption(cmd, &a->db);
  cmd->add_option("--out", a->options.out_dir, "Output directory")->required()->check(NonEmpty());
  cmd->add_option("--normal", a->options.editions.normal,
                  "Normal edition (default: the aligned pair)");
  cmd->add_option("--simple", a->options.editions.simple,
                  "Simple edition (default: the aligned pair)");
  cmd->add_option("--min-sim", a->options.min_sim,
                  "Similarity threshold of the sentence pair filter")
      ->capture_default_str()
      ->check(FiniteNumber());
  return [a](const Invocation&) {
    std::unique_ptr<Store> store;
    RETURN_IF_ERROR(OpenStore(a->db, OpenMode::kRead, &store));
    std::vector<std::string> files;
    RETURN_IF_ERROR(WriteReport(store.get(), a->options, &files));
    for (const auto& f : files) std::cout << f << "\n";
    return Status::OK();
  };
}

}  // namespace

std::vector<Command> ReportCommands() {
  return {
      {"report", "Write an HTML report (with pictures) and Markdown tables of the corpus",
       WireReport},
  };
}

}  // namespace aligndb::cli

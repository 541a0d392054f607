// report: the corpus described in HTML (with pictures) and Markdown.
#include <CLI/CLI.hpp>
#include <cmath>
#include <iostream>

#include "cli/command.h"
#include "cli/options.h"
#include "export/export.h"
#include "report/report.h"
#include "util/files.h"

namespace aligndb::cli {
namespace {

Runner WireReport(CLI::App* cmd) {
  struct Args {
    std::string db;
    ReportOptions options;
  };
  auto a = std::make_shared<Args>();
  AddDbOption(cmd, &a->db);
  cmd->add_option("--out", a->options.out_dir,
                  "Output directory (created, with any missing directories above it)")
      ->required()
      ->check(NonEmpty());
  cmd->add_option("--normal", a->options.editions.normal,
                  "Normal edition (default: the aligned pair)");
  cmd->add_option("--simple", a->options.editions.simple,
                  "Simple edition (default: the aligned pair)");
  cmd->add_option("--min-sim", a->options.min_sim,
                  "Similarity threshold of the sentence pair filter")
      ->capture_default_str()
      ->check(FiniteNumber());
  return [a](const Invocation&) {
    RETURN_IF_ERROR(CheckOutputDirectory(a->options.out_dir).WithPrefix("--out"));
    std::unique_ptr<Store> store;
    Status opened = OpenStore(a->db, OpenMode::kRead, &store);
    if (opened.IsNotFound()) {  // no database: a bad --min-sim is told first
      ExportOptions limits;
      limits.editions = a->options.editions;
      limits.min_sim = a->options.min_sim;
      limits.max_sim = std::nan("");
      RETURN_IF_ERROR(CheckArgumentsAsNamed(limits));
    }
    RETURN_IF_ERROR(opened);
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

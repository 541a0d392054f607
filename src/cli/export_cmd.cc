// export: the selected sentence pairs as TSV, JSON lines or parallel text.
#include <CLI/CLI.hpp>
#include <cmath>
#include <cstdio>
#include <iostream>

#include "align/align.h"
#include "cli/command.h"
#include "cli/options.h"
#include "export/export.h"
#include "util/files.h"

namespace aligndb::cli {
namespace {

struct ExportArgs {
  std::string db, format = "jsonl", ops, collection, unit = "sentence", label;
  ExportOptions options;
};

Status RunExport(const ExportArgs& args, bool progress) {
  ExportOptions o = args.options;
  if (!args.collection.empty()) o.editions = {args.collection, args.collection};
  if (args.format == "tsv")
    o.format = ExportFormat::kTsv;
  else if (args.format == "parallel")
    o.format = ExportFormat::kParallel;
  else
    o.format = ExportFormat::kJsonl;
  if (!args.ops.empty()) RETURN_IF_ERROR(ParseExportOps(args.ops, &o.ops));
  o.unit = args.unit == "operation" ? ExportUnit::kOperation : ExportUnit::kSentence;
  if (!args.label.empty() && !ParseLabelName(args.label, &o.label))
    return Status::InvalidArgument("--label: use good or partial");
  if (o.format == ExportFormat::kParallel && o.out_prefix.empty())
    return Status::InvalidArgument("--format parallel needs --out PREFIX");
  // Before any work: a directory as --out (say "out/") would be written as hidden "out/.normal".
  // A parallel export writes PREFIX.normal and PREFIX.simple: those are the paths to check (a
  // directory named PREFIX may well exist beside them).
  if (o.format == ExportFormat::kParallel) {
    if (o.out_prefix.back() == '/')
      return Status::InvalidArgument("--out " + o.out_prefix +
                                     ": a prefix ends in a name (PREFIX.normal, PREFIX.simple)");
    for (const char* side : {".normal", ".simple"})
      RETURN_IF_ERROR(CheckOutputPath(o.out_prefix + side).WithPrefix("--out"));
  } else if (!o.out_prefix.empty()) {
    RETURN_IF_ERROR(CheckOutputPath(o.out_prefix).WithPrefix("--out"));
  }
  std::unique_ptr<Store> store;
  Status opened = OpenStore(args.db, OpenMode::kRead, &store);
  if (opened.IsNotFound()) RETURN_IF_ERROR(CheckArgumentsAsNamed(o));  // bad arguments first
  RETURN_IF_ERROR(opened);
  uint64_t written = 0;
  if (o.format != ExportFormat::kParallel && !o.out_prefix.empty()) {
    OutputFile file;  // replaces the file only when the export succeeds
    RETURN_IF_ERROR(file.Open(o.out_prefix));
    RETURN_IF_ERROR(Export(store.get(), o, file.stream(), &written));
    RETURN_IF_ERROR(file.Commit());
  } else {
    std::ios::sync_with_stdio(false);
    Status s = Export(store.get(), o, std::cout, &written);
    std::cout.flush();
    RETURN_IF_ERROR(s);
  }
  if (progress)
    std::fprintf(stderr, "exported %llu %s\n", static_cast<unsigned long long>(written),
                 o.unit == ExportUnit::kOperation ? "operations" : "sentence pairs");
  return Status::OK();
}

Runner WireExport(CLI::App* cmd) {
  auto a = std::make_shared<ExportArgs>();
  ExportOptions& o = a->options;
  o.min_sim = std::nan("");  // the defaults depend on what is exported
  o.max_sim = std::nan("");
  AddDbOption(cmd, &a->db);
  // An empty value given is a mistake, not "no filter" (an empty --title exported everything).
  cmd->add_option("--normal", o.editions.normal, "Normal edition (default: the aligned pair)")
      ->check(NonEmpty());
  cmd->add_option("--simple", o.editions.simple, "Simple edition (default: the aligned pair)")
      ->check(NonEmpty());
  cmd->add_option("--collection", a->collection,
                  "A paraphrase collection (instead of --normal/--simple)")
      ->check(NonEmpty());
  cmd->add_option("--min-sim", o.min_sim,
                  "Lowest similarity kept (default " + ShortNumber(kDefaultMinSimilarity) +
                      "; paraphrase collections: no limit)")
      ->check(FiniteNumber());
  cmd->add_option("--max-sim", o.max_sim,
                  "Highest similarity kept (default 1; matrix similarity and paraphrase "
                  "collections: no limit)")
      ->check(FiniteNumber());
  cmd->add_option("--op", a->ops,
                  std::string("Operations kept, comma-separated: ") + kExportOpNames +
                      " (default: all of them)")
      ->check(NonEmpty());
  cmd->add_option("--unit", a->unit,
                  "sentence: one row per sentence pair (default); operation: one row per "
                  "operation, each side's sentences joined")
      ->check(CLI::IsMember({"sentence", "operation"}));
  cmd->add_option("--label", a->label, "Only rows labelled good or partial (default: all)")
      ->check(CLI::IsMember({"good", "partial"}));
  cmd->add_flag("--no-identical", o.no_identical, "Drop pairs of identical sentences");
  cmd->add_option("--title", o.title, "Only this article pair (either edition's title)")
      ->check(NonEmpty());
  cmd->add_option("--format", a->format, "tsv, jsonl or parallel")
      ->capture_default_str()
      ->check(CLI::IsMember({"tsv", "jsonl", "parallel"}));
  cmd->add_option("--out", o.out_prefix,
                  "Output: PREFIX for parallel (PREFIX.normal, PREFIX.simple); a file for "
                  "tsv/jsonl (default stdout); in a directory that exists")
      ->check(NonEmpty());
  return [a](const Invocation& inv) { return RunExport(*a, inv.progress); };
}

}  // namespace

std::vector<Command> ExportCommands() {
  return {
      {"export", "Stream sentence pairs, filtered, as TSV, JSON lines or parallel text",
       WireExport},
  };
}

}  // namespace aligndb::cli

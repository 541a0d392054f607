// ingest, show, info: putting articles in and looking at what is stored.
#include "cli/ingest_cmd.h"

#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>

#include "aligndb.pb.h"
#include "cli/options.h"
#include "cli/print.h"
#include "cli/terminal.h"
#include "export/export.h"
#include "text/text.h"

namespace aligndb::cli {

using nlohmann::ordered_json;

Status RunIngest(Store* store, const IngestArgs& args, const Invocation& inv,
                 IngestSummary* summary) {
  IngestOptions opts = args.options;
  return RecordedRun(
      store, "ingest", inv,
      [&](uint64_t) {
        ProgressLine line(inv.progress);
        if (line.enabled()) {
          opts.progress = [&line](const std::string& file, uint64_t pages, uint64_t bytes) {
            char buf[64];
            std::snprintf(buf, sizeof(buf), ": %llu pages, %.1f MB",
                          static_cast<unsigned long long>(pages), bytes / 1e6);
            line.Show(file + buf);
          };
        }
        return Ingest(store, args.files, opts, summary);
      },
      [&] { return summary->AsCounts(); }, /*without_log=*/true);
}

void PrintIngestSummary(const IngestSummary& s, bool json) {
  // The warnings name pages by title: text from the data.
  for (const auto& w : s.skipped) std::cerr << "aligndb: warning: " << TerminalSafe(w) << "\n";
  for (const auto& w : s.warnings) std::cerr << "aligndb: warning: " << TerminalSafe(w) << "\n";
  if (s.too_large > s.skipped.size())
    std::cerr << "aligndb: warning: " << s.too_large - s.skipped.size()
              << " more pages skipped for --max-page-bytes\n";
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
            << "redirects: " << s.redirects << " stored, " << s.redirects_unchanged
            << " unchanged, " << s.redirects_deleted << " deleted\n";
  if (s.deleted_other_input)
    std::cout << "of the pages deleted, stored by an input of another kind: "
              << s.deleted_other_input << "\n";
  if (s.older_stored)
    std::cout << "pages stored in an older revision than the one they replaced: " << s.older_stored
              << "\n";
  if (s.streams_total)
    std::cout << "streams read: " << s.streams_read << " of " << s.streams_total << "\n";
  if (s.not_wanted)
    std::cout << "pages not stored, their titles not in --only-titles-of: " << s.not_wanted << "\n";
  if (s.with_stubs)
    std::cout << "pages the stubs list as stored already (not read): " << s.stub_unchanged << "\n"
              << "pages in another revision than the stub says: " << s.stub_mismatch << "\n";
  if (s.with_changes)
    std::cout << "revisions ignored: " << s.older_ignored << " older than stored, " << s.superseded
              << " superseded in their file\n";
  std::cout << "pages outside namespace 0 (not stored): " << s.other_namespace << "\n";
  if (s.too_large)
    std::cout << "pages skipped, text over --max-page-bytes: " << s.too_large << "\n";
}

namespace {

// ------------------------------------------------------------------ ingest

Runner WireIngest(CLI::App* cmd) {
  auto a = std::make_shared<IngestArgs>();
  AddDbOption(cmd, &a->db, "Database directory (created if missing)");
  cmd->add_option(
      "--edition", a->options.edition,
      "Edition name (default: <siteinfo><dbname> of the dump; required for JSON lines)");
  cmd->add_flag("--keep-lists", a->options.text.keep_lists, "Keep list items as paragraphs");
  cmd->add_flag("--drop-inline-math", a->options.text.drop_inline_math,
                "Drop inline <math> formulas with their content (default: short ones show as "
                "plain text, e.g. \"where p is the albedo\")");
  cmd->add_flag("--json", a->json, "Print the summary as JSON");
  cmd->add_option("--index", a->options.index,
                  "The multistream dump's -index.txt.bz2: read streams through it, in parallel");
  cmd->add_option("--threads", a->options.threads,
                  "Threads decompressing streams with --index (0: all cores; at most " +
                      std::to_string(kMaxThreads) + ", and at most 4 per core)")
      ->capture_default_str()
      ->check(ThreadCount());
  cmd->add_option("--max-page-bytes", a->options.max_page_bytes,
                  "Skip (and count) XML pages with more wikitext than this; bounds the memory "
                  "of one page (real pages have at most a few MB); 0: no limit")
      ->capture_default_str()
      ->check(IntegerIn(0, std::numeric_limits<long long>::max()));
  cmd->add_option("--only-titles-of", a->options.only_titles_of,
                  "With --index: read only the streams holding titles this edition has");
  cmd->add_flag(
      "--full", a->options.full,
      "The files are a complete dump of their editions: delete stored pages they do not hold");
  cmd->add_option("--stubs", a->options.stubs,
                  "With --index: the stub dump (.xml, .xml.gz, .xml.bz2) of the same edition; "
                  "only the streams holding new or changed pages are read");
  cmd->add_flag("--changes", a->options.changes,
                "The files are adds-changes dumps (pages-meta-hist-incr), applied in the order "
                "of the dates in their names; the newest revision of each page is kept");
  cmd->add_option("FILE", a->files, ".xml, .xml.bz2 (also multistream) or .jsonl files")
      ->required();
  return [a](const Invocation& inv) {
    // Arguments and input files are checked before the database is created or opened.
    RETURN_IF_ERROR(CheckIngestInputs(a->files, a->options));
    std::unique_ptr<Store> store;
    RETURN_IF_ERROR(OpenStore(a->db, OpenMode::kCreate, &store));
    IngestSummary summary;
    RETURN_IF_ERROR(RunIngest(store.get(), *a, inv, &summary));
    RETURN_IF_ERROR(store->Close());  // durable before it is reported
    PrintIngestSummary(summary, a->json);
    return Status::OK();
  };
}

// ------------------------------------------------------------------ show

struct ShowArgs {
  std::string db;
  std::string edition;
  std::string title;
  OutputFormat format = OutputFormat::kText;
  bool all = false;
  bool json = false;  // --json: as --format json
};

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

// Text for a person: everything from the data is escaped (TerminalSafe).
void PrintArticleText(const pb::Article& a) {
  std::cout << TerminalSafe(a.title()) << "  [" << TerminalSafe(a.edition()) << ", page "
            << a.page_id() << ", revision " << a.revision_id();
  if (!a.timestamp().empty()) std::cout << ", " << TerminalSafe(a.timestamp());
  auto flags = FlagNames(a.flags());
  if (!flags.empty()) {
    std::cout << ", flags:";
    for (const auto& f : flags) std::cout << " " << f;
  }
  std::cout << "]\n";
  for (int p = 0; p < a.paragraphs_size(); ++p) {
    std::cout << "\n";
    for (int s = 0; s < a.paragraphs(p).sentences_size(); ++s)
      std::cout << "  [" << p << "." << s << "] " << TerminalSafe(a.paragraphs(p).sentences(s))
                << "\n";
  }
}

// Every article of the selected editions, one after the other.
Status ShowAll(Store* store, const ShowArgs& args,
               const std::map<std::string, uint32_t>& editions) {
  if (args.edition.empty() && editions.size() > 1)
    return Status::InvalidArgument("--all needs --edition (the database has several editions)");
  for (auto& [name, id] : editions) {
    RETURN_IF_ERROR(store->ForEachArticle(id, [&](const pb::Article& a) {
      if (args.format == OutputFormat::kText)
        PrintArticleText(a), std::cout << "\n";
      else
        std::cout << ArticleJson(a, false).dump() << "\n";
      return Status::OK();
    }));
  }
  return Status::OK();
}

Status RunShow(const ShowArgs& args) {
  // A bad argument before what the database lacks (it came after the edition was looked up).
  if (!args.all && args.title.empty())
    return Status::InvalidArgument("show needs a TITLE or --all");
  std::unique_ptr<Store> store;
  RETURN_IF_ERROR(OpenStore(args.db, OpenMode::kRead, &store));
  std::map<std::string, uint32_t> editions;
  RETURN_IF_ERROR(store->Editions(&editions));
  if (!args.edition.empty()) {
    auto it = editions.find(args.edition);
    if (it == editions.end()) return NoSuchEdition(args.edition, args.db, editions);
    editions = {*it};
  }
  if (args.all) return ShowAll(store.get(), args, editions);
  std::vector<pb::Article> found;
  RETURN_IF_ERROR(FindArticles(store.get(), editions, args.title, &found));
  if (args.format == OutputFormat::kText) {
    for (size_t i = 0; i < found.size(); ++i) {
      if (i) std::cout << "\n";
      PrintArticleText(found[i]);
    }
  } else if (found.size() == 1) {
    std::cout << ArticleJson(found[0], true).dump(args.format == OutputFormat::kJson ? 2 : -1)
              << "\n";
  } else {
    ordered_json arr = ordered_json::array();
    for (const auto& a : found) arr.push_back(ArticleJson(a, true));
    std::cout << arr.dump(args.format == OutputFormat::kJson ? 2 : -1) << "\n";
  }
  return Status::OK();
}

Runner WireShow(CLI::App* cmd) {
  auto a = std::make_shared<ShowArgs>();
  AddDbOption(cmd, &a->db);
  cmd->add_option("--edition", a->edition, "Edition (default: every edition that has the title)");
  static constexpr NameEntry<OutputFormat> kShowFormats[] = {{OutputFormat::kText, "text"},
                                                             {OutputFormat::kJson, "json"},
                                                             {OutputFormat::kJsonl, "jsonl"}};
  auto* format = AddNameOption(cmd, "--format", &a->format, kShowFormats, "Output");
  // --json as stats, info, ingest and align take it.
  cmd->add_flag("--json", a->json, "Print JSON (as --format json)")->excludes(format);
  cmd->add_flag("--all", a->all,
                "Every article of the edition (with --format jsonl: the JSON lines ingest reads)");
  cmd->add_option("TITLE", a->title, "Article title");
  return [a](const Invocation&) {
    if (a->json) a->format = OutputFormat::kJson;
    return RunShow(*a);
  };
}

// ------------------------------------------------------------------ info

ordered_json RunJson(const pb::RunManifest& r) {
  ordered_json rj = {{"id", r.run_id()},
                     {"command", r.command()},
                     {"arguments", r.arguments()},
                     {"started_unix_ms", r.started_unix_ms()},
                     {"finished_unix_ms", r.finished_unix_ms()},
                     {"status", r.status()}};
  ordered_json counts = ordered_json::object();
  // By name: a protobuf map's order differs from process to process.
  for (const auto& [k, v] : std::map<std::string, uint64_t>(r.counts().begin(), r.counts().end()))
    counts[k] = v;
  rj["counts"] = counts;
  return rj;
}

void PrintInfoText(const std::string& db, const ordered_json& j,
                   const std::vector<pb::RunManifest>& runs) {
  std::cout << "database: " << TerminalSafe(db) << "\n";
  if (j["editions"].empty()) std::cout << "no editions stored\n";
  for (auto& [name, counts] : j["editions"].items()) {
    std::cout << TerminalSafe(name) << ": " << counts["articles"] << " articles, "
              << counts["redirects"] << " redirects, " << counts["paragraphs"] << " paragraphs, "
              << counts["sentences"] << " sentences\n";
  }
  std::cout << "runs: " << runs.size() << "\n";
  for (const auto& r : runs) {
    std::cout << "  #" << r.run_id() << " " << TerminalSafe(r.command()) << " — "
              << TerminalSafe(r.status());
    for (const auto& [k, v] : std::map<std::string, uint64_t>(r.counts().begin(), r.counts().end()))
      std::cout << " " << k << "=" << v;
    std::cout << "\n";
  }
}

Status RunInfo(const std::string& db, bool json) {
  std::unique_ptr<Store> store;
  RETURN_IF_ERROR(OpenStore(db, OpenMode::kRead, &store));
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
  for (const auto& r : runs) j["runs"].push_back(RunJson(r));
  if (json)
    std::cout << j.dump(2) << "\n";
  else
    PrintInfoText(db, j, runs);
  return Status::OK();
}

Runner WireInfo(CLI::App* cmd) {
  struct Args {
    std::string db;
    bool json = false;
  };
  auto a = std::make_shared<Args>();
  AddDbOption(cmd, &a->db);
  cmd->add_flag("--json", a->json, "Print JSON");
  return [a](const Invocation&) { return RunInfo(a->db, a->json); };
}

}  // namespace

std::vector<Command> IngestCommands() {
  return {
      {"ingest", "Store the articles of MediaWiki XML dumps or document JSON lines", WireIngest},
      {"show", "Print one stored article's paragraphs and sentences", WireShow},
      {"info", "Counts per edition and the runs recorded", WireInfo},
  };
}

}  // namespace aligndb::cli

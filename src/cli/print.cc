#include "cli/print.h"

#include <google/protobuf/arena.h>

#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "align/align.h"
#include "align/label.h"
#include "aligndb.pb.h"
#include "text/text.h"
#include "util/escape.h"
#include "util/numbers.h"

namespace aligndb {
namespace {

using nlohmann::ordered_json;

const char* const kRemovalReasons[] = {"stub", "disambiguation", "meta", "single_line"};
const char* const kStatsOperations[] = {"skip-simple", "skip-normal", "1-1", "1-2",
                                        "2-1",         "2-2",         "pair"};

// The parameters of an align run that change its results (DescribeAlignParams says which).
ordered_json ParamsJson(const pb::AlignParams& p) {
  // "method" is the align mode: the key users' scripts read.
  ordered_json j = {{"method", p.mode()},
                    {"similarity", p.similarity()},
                    {"paragraph_threshold", p.paragraph_threshold()},
                    {"skip_penalty", p.skip_penalty()}};
  if (IsParaphraseMode(p.mode())) return j;
  if (p.mode() == "all-pairs") j["pair_threshold"] = p.pair_threshold();
  if (!p.similarity().empty() && p.similarity() != "tfidf") {
    j["theta"] = p.theta();
    j["vectors"] = p.vectors();
    j["lexicon"] = p.lexicon();
  }
  j["follow_redirects"] = p.follow_redirects();
  return j;
}

std::string ParamsText(const pb::AlignParams& p) { return TerminalSafe(DescribeAlignParams(p)); }

ordered_json LookupJson(const pb::AlignmentRecord& found) {
  ordered_json j;
  j["normal_edition"] = found.normal_edition();
  j["simple_edition"] = found.simple_edition();
  j["normal_title"] = found.normal_title();
  j["simple_title"] = found.simple_title();
  j["normal_page_id"] = found.normal_page_id();
  j["simple_page_id"] = found.simple_page_id();
  j["normal_revision"] = found.normal_revision();
  j["simple_revision"] = found.simple_revision();
  j["params"] = ParamsJson(found.params());
  j["run_id"] = found.run_id();
  j["normal_paragraphs"] = found.normal_paragraphs();
  j["simple_paragraphs"] = found.simple_paragraphs();
  j["paragraph_pairs"] = ordered_json::array();
  for (const auto& pp : found.paragraph_pairs()) {
    ordered_json pj;
    pj["simple_paragraph"] = pp.simple_paragraph();
    pj["normal_paragraphs"] = pp.normal_paragraphs();
    pj["cosines"] = pp.cosines();
    pj["skipped_normal"] = pp.skipped_normal();
    pj["skipped_simple"] = pp.skipped_simple();
    pj["sentence_pairs"] = ordered_json::array();
    for (const auto& sp : pp.sentence_pairs()) {
      ordered_json sj = {{"normal", sp.normal_text()},
                         {"simple", sp.simple_text()},
                         {"similarity", sp.similarity()},
                         {"op", OpName(static_cast<Op>(sp.op()))},
                         {"identical", sp.identical()},
                         {"normal_index", {sp.normal_paragraph(), sp.normal_sentence()}},
                         {"simple_index", {sp.simple_paragraph(), sp.simple_sentence()}}};
      if (sp.label() != pb::LABEL_NONE) {
        sj["label"] = LabelName(static_cast<Label>(sp.label()));
        sj["operation_label"] = LabelName(static_cast<Label>(sp.operation_label()));
        sj["operation_similarity"] = sp.operation_similarity();
      }
      pj["sentence_pairs"].push_back(std::move(sj));
    }
    j["paragraph_pairs"].push_back(std::move(pj));
  }
  return j;
}

// The record's header lines: the two articles, the run and its parameters, the counts.
void AppendLookupHeader(const pb::AlignmentRecord& found, std::string* t) {
  *t += TerminalSafe(found.normal_edition()) + " \"" + TerminalSafe(found.normal_title()) +
        "\" (page " + std::to_string(found.normal_page_id()) + ", revision " +
        std::to_string(found.normal_revision()) + ")  <->  " +
        TerminalSafe(found.simple_edition()) + " \"" + TerminalSafe(found.simple_title()) +
        "\" (page " + std::to_string(found.simple_page_id()) + ", revision " +
        std::to_string(found.simple_revision()) + ")\n";
  *t += "aligned by run #" + std::to_string(found.run_id()) + " with " +
        ParamsText(found.params()) + "\n" + std::to_string(found.paragraph_pairs_size()) +
        " paragraph pairs; " + std::to_string(found.simple_paragraphs()) + " simple and " +
        std::to_string(found.normal_paragraphs()) + " normal paragraphs\n";
}

// Appends the record's text to *out.
void AppendLookupText(const pb::AlignmentRecord& found, std::string* out) {
  std::string& t = *out;
  AppendLookupHeader(found, &t);
  for (const auto& pp : found.paragraph_pairs()) {
    t += "\nsimple paragraph " + std::to_string(pp.simple_paragraph()) + " <- normal paragraph";
    if (pp.normal_paragraphs_size() > 1) t += "s";
    for (int k = 0; k < pp.normal_paragraphs_size(); ++k) {
      t += (k ? ", " : " ") + std::to_string(pp.normal_paragraphs(k));
      if (k < pp.cosines_size()) {  // none in all-pairs
        t += " (cos ";
        AppendFixed(pp.cosines(k), 3, &t);
        t += ")";
      }
    }
    t += "\n";
    for (const auto& sp : pp.sentence_pairs()) {
      t += "  ";
      t += OpName(static_cast<Op>(sp.op()));
      t += "  sim ";
      AppendFixed(sp.similarity(), 3, &t);
      if (sp.label() != pb::LABEL_NONE) {
        t += "  ";
        t += LabelName(static_cast<Label>(sp.label()));
        const pb::Operation op = sp.op();
        if (op == pb::OP_ONE_TWO || op == pb::OP_TWO_ONE || op == pb::OP_TWO_TWO) {
          t += "  (operation ";
          t += LabelName(static_cast<Label>(sp.operation_label()));
          t += ", sim ";
          AppendFixed(sp.operation_similarity(), 3, &t);
          t += ")";
        }
      }
      if (sp.identical()) t += "  identical";
      t += "\n    normal [" + std::to_string(sp.normal_paragraph()) + "." +
           std::to_string(sp.normal_sentence()) + "] ";
      AppendTerminalSafe(sp.normal_text(), &t);
      t += "\n    simple [" + std::to_string(sp.simple_paragraph()) + "." +
           std::to_string(sp.simple_sentence()) + "] ";
      AppendTerminalSafe(sp.simple_text(), &t);
      t += "\n";
    }
  }
}

double Share(uint64_t a, uint64_t b) {
  return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

ordered_json CorpusStatsJson(const CorpusStats& st, uint64_t total_ops) {
  auto removed = st.removed_by_reason;  // a copy: operator[] fills absent reasons with 0
  auto ops = st.operations;
  uint64_t unaligned = st.SimpleParagraphsUnaligned();
  ordered_json j;
  j["normal_edition"] = st.normal_edition;
  j["simple_edition"] = st.simple_edition;
  j["article_pairs"] = {{"title_matches", st.title_matches},
                        {"removed", st.removed},
                        {"removed_by_reason", ordered_json::object()},
                        {"aligned", st.aligned}};
  for (const char* reason : kRemovalReasons)
    j["article_pairs"]["removed_by_reason"][reason] = removed[reason];
  j["paragraph_pairs"] = st.paragraph_pairs;
  j["simple_paragraphs"] = st.simple_paragraphs;
  j["simple_paragraphs_unaligned"] = unaligned;
  j["simple_paragraphs_unaligned_share"] = Share(unaligned, st.simple_paragraphs);
  j["min_similarity"] = st.min_sim;
  j["sentence_pairs_all"] = st.sentence_pairs_all;
  j["sentence_pairs"] = st.sentence_pairs;
  j["sentence_pairs_per_article_pair"] = Share(st.sentence_pairs, st.aligned);
  j["identical_share"] = Share(st.identical, st.sentence_pairs);
  j["operations"] = ordered_json::object();
  j["operation_shares"] = ordered_json::object();
  for (const char* op : kStatsOperations) {
    if (std::string(op) == "pair" && ops[op] == 0) continue;  // all-pairs records only
    j["operations"][op] = ops[op];
    j["operation_shares"][op] = Share(ops[op], total_ops);
  }
  j["params"] = ParamsJson(st.params);
  if (!st.labels.empty()) {
    // labels[unit][op][band] = {good, partial, good_share}
    j["labels"] = ordered_json::object();
    for (const auto& [key, c] : st.labels) {
      const auto& [unit, op, band] = key;
      j["labels"][unit][op][band] = {{"good", c.good},
                                     {"partial", c.partial},
                                     {"good_share", Share(c.good, c.good + c.partial)}};
    }
  }
  return j;
}

}  // namespace

void PrintLookup(const pb::AlignmentRecord& record, OutputFormat format, std::ostream& out) {
  std::string t;  // built in one string, written once
  PrintLookup(record, format, &t);
  out.write(t.data(), static_cast<std::streamsize>(t.size()));
}

void PrintLookup(const pb::AlignmentRecord& record, OutputFormat format, std::string* out) {
  out->clear();
  if (format == OutputFormat::kJson) {
    *out = LookupJson(record).dump(2);
    *out += "\n";
    return;
  }
  AppendLookupText(record, out);
}

Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              OutputFormat format, std::string* out) {
  out->clear();
  // The record's hundreds of sentence strings come from one arena, freed at once. Its first block
  // is this thread's, kept from lookup to lookup: a record that fits takes no fresh memory.
  constexpr size_t kKeptArenaBlock = size_t{1} << 20;
  thread_local std::unique_ptr<char[]> kept_block(new char[kKeptArenaBlock]);
  google::protobuf::ArenaOptions arena_options;
  arena_options.initial_block = kept_block.get();
  arena_options.initial_block_size = kKeptArenaBlock;
  google::protobuf::Arena arena(arena_options);
  auto* found = google::protobuf::Arena::CreateMessage<pb::AlignmentRecord>(&arena);
  RETURN_IF_ERROR(LookupRecord(store, editions, title, found));
  PrintLookup(*found, format, out);
  return Status::OK();
}

Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              OutputFormat format, std::ostream& out) {
  std::string text;
  RETURN_IF_ERROR(Lookup(store, editions, title, format, &text));
  out.write(text.data(), static_cast<std::streamsize>(text.size()));
  return Status::OK();
}

void PrintCorpusStats(const CorpusStats& st, OutputFormat format, std::ostream& out) {
  const bool json = format == OutputFormat::kJson;
  uint64_t total_ops = 0;
  for (auto& [k, v] : st.operations) total_ops += v;
  if (json) {
    out << CorpusStatsJson(st, total_ops).dump(2) << "\n";
    return;
  }
  auto removed = st.removed_by_reason;
  auto ops = st.operations;
  uint64_t unaligned = st.SimpleParagraphsUnaligned();
  char buf[256];
  out << TerminalSafe(st.normal_edition) << " <-> " << TerminalSafe(st.simple_edition)
      << ", aligned with " << ParamsText(st.params) << "\n";
  out << "article pairs: " << st.title_matches << " title matches, " << st.removed << " removed (";
  bool first = true;
  for (const char* reason : kRemovalReasons) {
    out << (first ? "" : ", ") << reason << " " << removed[reason];
    first = false;
  }
  out << "), " << st.aligned << " aligned\n";
  std::snprintf(buf, sizeof(buf),
                "paragraph pairs: %llu; simple paragraphs unaligned: %llu of %llu (%.1f%%)\n",
                (unsigned long long)st.paragraph_pairs, (unsigned long long)unaligned,
                (unsigned long long)st.simple_paragraphs,
                100 * Share(unaligned, st.simple_paragraphs));
  out << buf;
  std::snprintf(buf, sizeof(buf),
                "sentence pairs with similarity >= %.2f: %llu of %llu (%.2f per article pair), "
                "identical %.1f%%\n",
                st.min_sim, (unsigned long long)st.sentence_pairs,
                (unsigned long long)st.sentence_pairs_all, Share(st.sentence_pairs, st.aligned),
                100 * Share(st.identical, st.sentence_pairs));
  out << buf << "operations:";
  for (const char* op : kStatsOperations) {
    if (std::string(op) == "pair" && ops[op] == 0) continue;
    std::snprintf(buf, sizeof(buf), " %s %.1f%%", op, 100 * Share(ops[op], total_ops));
    out << buf;
  }
  out << "\n";
  if (st.labels.empty()) return;
  out << "labelled good (share of rows at similarity >= 0.5, by unit, operation and band):\n";
  std::string last;
  for (const auto& [key, c] : st.labels) {
    const auto& [unit, op, band] = key;
    const bool same_row = unit + op == last;
    if (!same_row) out << (last.empty() ? "" : "\n") << "  " << unit << " " << op << ":";
    last = unit + op;
    std::snprintf(buf, sizeof(buf), "%s %s: %.1f%% of %llu", same_row ? ";" : "", band.c_str(),
                  100 * Share(c.good, c.good + c.partial),
                  static_cast<unsigned long long>(c.good + c.partial));
    out << buf;
  }
  out << "\n";
}

void PrintParaphraseStats(const ParaphraseStats& stats, OutputFormat format, std::ostream& out) {
  const bool json = format == OutputFormat::kJson;
  if (json) {
    ordered_json j;
    j["collection"] = stats.collection;
    for (auto& [method, a] : stats.methods) {
      ordered_json m = {{"pairs", a.pairs},
                        {"document_pairs", a.records},
                        {"clusters_with_pairs", a.clusters},
                        {"mean_length_words", a.mean_words}};
      m[method == "l12" ? "mean_edit_distance" : "mean_shared_long_words"] = a.mean_score;
      j[method] = m;
    }
    out << j.dump(2) << "\n";
    return;
  }
  out << "collection " << stats.collection << "\n";
  for (auto& [method, a] : stats.methods) {
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "%s: %llu pairs from %llu document pairs in %llu clusters; mean %s %.2f; mean "
                  "length %.1f words\n",
                  method.c_str(), (unsigned long long)a.pairs, (unsigned long long)a.records,
                  (unsigned long long)a.clusters,
                  method == "l12" ? "edit distance" : "shared words of 4+ characters", a.mean_score,
                  a.mean_words);
    out << buf;
  }
}

Status Stats(Store* store, const EditionPair& editions, double min_sim, OutputFormat format,
             std::ostream& out) {
  EditionPair pair;
  Status resolved = ResolveEditions(store, editions, &pair);
  // No such pair: the statistics' own checks tell a bad --min-sim before that.
  if (!resolved.ok() && !resolved.IsNotFound()) return resolved;
  if (resolved.ok() && pair.normal == pair.simple) {
    ParaphraseStats ps;
    RETURN_IF_ERROR(ComputeParaphraseStats(store, pair.normal, &ps));
    PrintParaphraseStats(ps, format, out);
    return Status::OK();
  }
  CorpusStats st;
  RETURN_IF_ERROR(ComputeCorpusStats(store, editions, min_sim, false, &st));
  PrintCorpusStats(st, format, out);
  return Status::OK();
}

Status NoSuchEdition(const std::string& edition, const std::string& dir,
                     const std::map<std::string, uint32_t>& editions) {
  std::string names;
  for (const auto& [name, id] : editions) names += (names.empty() ? "" : ", ") + name;
  return Status::NotFound("no edition \"" + edition + "\" in " + dir +
                          " (editions stored: " + (names.empty() ? "none" : names) + ")");
}

Status FindArticles(Store* store, const std::map<std::string, uint32_t>& editions,
                    const std::string& title, std::vector<pb::Article>* found) {
  std::vector<std::string> redirects;
  for (auto& [name, id] : editions) {
    uint64_t page_id;
    Status s = store->FindArticle(id, title, &page_id);
    if (s.ok()) {
      pb::Article a;
      RETURN_IF_ERROR(store->GetArticle(id, page_id, &a));
      found->push_back(std::move(a));
    } else if (s.IsNotFound()) {
      pb::Redirect r;
      if (store->GetRedirect(id, NormalizeTitle(title), &r).ok())
        redirects.push_back(name + ": \"" + r.title() + "\" redirects to \"" + r.target() + "\"");
    } else {
      return s;
    }
  }
  if (!found->empty()) return Status::OK();
  std::string msg = "no article titled \"" + title + "\"";
  for (const auto& r : redirects) msg += "; " + r;
  return Status::NotFound(msg);
}

}  // namespace aligndb

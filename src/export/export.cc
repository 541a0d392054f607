// Lookup, export and stats over stored alignment records.
#include "export/export.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_set>

#include "aligndb.pb.h"
#include "eval/eval.h"
#include "text/text.h"
#include "storage/store_internal.h"

namespace aligndb {
namespace {

using nlohmann::ordered_json;

// A snapshot held for the life of one read.
class Snapshot {
 public:
  explicit Snapshot(Store* store) : store_(store), snap_(store->GetSnapshot()) {}
  ~Snapshot() { store_->ReleaseSnapshot(snap_); }
  const rocksdb::Snapshot* get() const { return snap_; }

 private:
  Store* store_;
  const rocksdb::Snapshot* snap_;
};

struct ResolvedPair {
  std::string normal, simple;
  uint32_t normal_id = 0, simple_id = 0;
};

Status Resolve(Store* store, const EditionPair& want, ResolvedPair* out) {
  std::vector<std::pair<std::string, std::string>> aligned;
  {
    std::unique_ptr<rocksdb::Iterator> it(
        store->db()->NewIterator(rocksdb::ReadOptions(), store->cf(Cf::kMeta)));
    const std::string prefix = "pairing/";
    for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
      std::string rest = it->key().ToString().substr(prefix.size());
      size_t slash = rest.find('/');
      if (slash != std::string::npos)
        aligned.emplace_back(rest.substr(0, slash), rest.substr(slash + 1));
    }
    RETURN_IF_ERROR(FromRocks(it->status(), store->dir() + ": meta"));
  }
  out->normal = want.normal;
  out->simple = want.simple;
  if (out->normal.empty() || out->simple.empty()) {
    std::vector<std::pair<std::string, std::string>> match;
    for (auto& p : aligned)
      if ((want.normal.empty() || p.first == want.normal) &&
          (want.simple.empty() || p.second == want.simple))
        match.push_back(p);
    if (match.empty())
      return Status::NotFound(store->dir() + ": no alignments stored (run `aligndb align` first)");
    auto chosen = match[0];
    if (match.size() > 1) {
      bool found_default = false;
      for (auto& p : match)
        if (p.first == "enwiki" && p.second == "simplewiki") chosen = p, found_default = true;
      if (!found_default)
        return Status::InvalidArgument(
            "several edition pairs are aligned; choose one with --normal and --simple");
    }
    out->normal = chosen.first;
    out->simple = chosen.second;
  }
  RETURN_IF_ERROR(store->EditionId(out->normal, false, &out->normal_id));
  RETURN_IF_ERROR(store->EditionId(out->simple, false, &out->simple_id));
  return Status::OK();
}

Status ParseRecord(const rocksdb::Slice& v, pb::AlignmentRecord* r) {
  if (!r->ParseFromArray(v.data(), static_cast<int>(v.size())))
    return Status::Corruption("alignment record does not parse");
  return Status::OK();
}

// The record of the title pair `title` (normalized here): NotFound when there is none.
Status GetRecord(Store* store, const ResolvedPair& pair, const std::string& title,
                 const Snapshot& snap, pb::AlignmentRecord* record) {
  rocksdb::ReadOptions ro;
  ro.snapshot = snap.get();
  rocksdb::PinnableSlice v;
  std::string key = AlignmentKey(pair.normal_id, pair.simple_id, NormalizeTitle(title));
  rocksdb::Status s = store->db()->Get(ro, store->cf(Cf::kAlignments), key, &v);
  if (s.IsNotFound()) return Status::NotFound("no aligned article pair titled \"" + title + "\"");
  RETURN_IF_ERROR(FromRocks(s, store->dir() + ": alignments"));
  return ParseRecord(v, record);
}

// Calls fn for every record of the pair (or only the one of `title`), from the snapshot.
Status ForEachRecord(Store* store, const ResolvedPair& pair, const std::string& title,
                     const Snapshot& snap,
                     const std::function<Status(const pb::AlignmentRecord&)>& fn) {
  rocksdb::ReadOptions ro;
  ro.snapshot = snap.get();
  pb::AlignmentRecord record;
  if (!title.empty()) {
    RETURN_IF_ERROR(GetRecord(store, pair, title, snap, &record));
    return fn(record);
  }
  std::string prefix = AlignmentKey(pair.normal_id, pair.simple_id, "");
  std::unique_ptr<rocksdb::Iterator> it(store->db()->NewIterator(ro, store->cf(Cf::kAlignments)));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    RETURN_IF_ERROR(ParseRecord(it->value(), &record));
    RETURN_IF_ERROR(fn(record));
  }
  return FromRocks(it->status(), store->dir() + ": scan alignments");
}

std::string IndexJson(uint32_t p, uint32_t s) {
  std::string out(1, '[');
  out += std::to_string(p);
  out += ',';
  out += std::to_string(s);
  out += ']';
  return out;
}

// Appends `s` as a JSON string (UTF-8 passes through; quotes, backslashes and control
// characters are escaped).
void AppendJsonString(std::string* out, const std::string& s) {
  out->push_back('"');
  size_t clean = 0;  // start of the run of bytes that need no escape
  for (size_t i = 0; i < s.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out->append(s, clean, i - clean);
    clean = i + 1;
    switch (c) {
      case '"':
        out->append("\\\"");
        break;
      case '\\':
        out->append("\\\\");
        break;
      case '\n':
        out->append("\\n");
        break;
      case '\r':
        out->append("\\r");
        break;
      case '\t':
        out->append("\\t");
        break;
      default: {
        char buf[8];
        std::snprintf(buf, sizeof(buf), "\\u%04x", c);
        out->append(buf);
      }
    }
  }
  out->append(s, clean, std::string::npos);
  out->push_back('"');
}

// Shortest decimal that reads back as the same double.
void AppendDouble(std::string* out, double v) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof(buf), v);
  out->append(buf, ec == std::errc() ? static_cast<size_t>(end - buf) : 0);
}

std::string Tsv(const std::string& s) {
  std::string out = s;
  for (char& c : out)
    if (c == '\t' || c == '\n' || c == '\r') c = ' ';
  return out;
}

std::string FormatSim(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6f", v);
  return buf;
}

}  // namespace

// ------------------------------------------------------------------ export

namespace {

// `options` with NaN limits replaced by their defaults: [0.5, 1] for aligned editions, no limit
// for paraphrase collections (whose scores are not cosines).
ExportOptions WithDefaultLimits(const ExportOptions& options, const ResolvedPair& pair) {
  ExportOptions o = options;
  const bool collection = pair.normal == pair.simple;
  if (std::isnan(o.min_sim))
    o.min_sim = collection ? -std::numeric_limits<double>::infinity() : 0.5;
  if (std::isnan(o.max_sim)) o.max_sim = collection ? std::numeric_limits<double>::infinity() : 1.0;
  return o;
}

bool Selected(const ExportOptions& o, const pb::SentencePair& sp) {
  if (sp.similarity() < o.min_sim || sp.similarity() > o.max_sim) return false;
  return o.ops.count(static_cast<Op>(sp.op())) && !(o.no_identical && sp.identical());
}

}  // namespace

Status ForEachExportedPair(Store* store, const ExportOptions& options,
                           const std::function<Status(const ExportedPair&)>& visit) {
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, options.editions, &pair));
  const ExportOptions o = WithDefaultLimits(options, pair);
  Snapshot snap(store);
  return ForEachRecord(store, pair, o.title, snap, [&](const pb::AlignmentRecord& r) -> Status {
    for (const auto& pp : r.paragraph_pairs())
      for (const auto& sp : pp.sentence_pairs())
        if (Selected(o, sp))
          RETURN_IF_ERROR(visit({r.normal_title(), r.simple_title(), sp.normal_text(),
                                 sp.simple_text(), sp.similarity(), static_cast<Op>(sp.op())}));
    return Status::OK();
  });
}

Status Export(Store* store, const ExportOptions& options, std::ostream& out, uint64_t* written) {
  *written = 0;
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, options.editions, &pair));
  const ExportOptions o = WithDefaultLimits(options, pair);
  Snapshot snap(store);
  std::ofstream normal_file, simple_file;
  if (o.format == ExportFormat::kParallel) {
    if (o.out_prefix.empty())
      return Status::InvalidArgument("--format parallel needs --out PREFIX");
    normal_file.open(o.out_prefix + ".normal", std::ios::binary);
    simple_file.open(o.out_prefix + ".simple", std::ios::binary);
    if (!normal_file || !simple_file)
      return Status::IOError(o.out_prefix + ".normal/.simple: cannot open for writing");
  }
  if (o.format == ExportFormat::kTsv)
    out << "normal_title\tsimple_title\tnormal\tsimple\tsimilarity\top\tnormal_index\tsimple_"
           "index\t"
           "normal_revision\tsimple_revision\n";
  std::string line;
  Status s = ForEachRecord(store, pair, o.title, snap, [&](const pb::AlignmentRecord& r) -> Status {
    for (const auto& pp : r.paragraph_pairs()) {
      for (const auto& sp : pp.sentence_pairs()) {
        if (!Selected(o, sp)) continue;
        const std::string& n = sp.normal_text();
        const std::string& m = sp.simple_text();
        switch (o.format) {
          case ExportFormat::kJsonl: {
            line.clear();
            line.append("{\"normal_title\":");
            AppendJsonString(&line, r.normal_title());
            line.append(",\"simple_title\":");
            AppendJsonString(&line, r.simple_title());
            line.append(",\"normal\":");
            AppendJsonString(&line, n);
            line.append(",\"simple\":");
            AppendJsonString(&line, m);
            line.append(",\"similarity\":");
            AppendDouble(&line, sp.similarity());
            line.append(",\"op\":\"");
            line.append(OpName(static_cast<Op>(sp.op())));
            line.append("\",\"normal_index\":[");
            line.append(std::to_string(sp.normal_paragraph()))
                .append(",")
                .append(std::to_string(sp.normal_sentence()));
            line.append("],\"simple_index\":[");
            line.append(std::to_string(sp.simple_paragraph()))
                .append(",")
                .append(std::to_string(sp.simple_sentence()));
            line.append("],\"normal_revision\":").append(std::to_string(r.normal_revision()));
            line.append(",\"simple_revision\":").append(std::to_string(r.simple_revision()));
            line.append("}\n");
            out.write(line.data(), static_cast<std::streamsize>(line.size()));
            break;
          }
          case ExportFormat::kTsv:
            out << Tsv(r.normal_title()) << '\t' << Tsv(r.simple_title()) << '\t' << Tsv(n) << '\t'
                << Tsv(m) << '\t' << FormatSim(sp.similarity()) << '\t'
                << OpName(static_cast<Op>(sp.op())) << '\t'
                << IndexJson(sp.normal_paragraph(), sp.normal_sentence()) << '\t'
                << IndexJson(sp.simple_paragraph(), sp.simple_sentence()) << '\t'
                << r.normal_revision() << '\t' << r.simple_revision() << '\n';
            break;
          case ExportFormat::kParallel:
            normal_file << Tsv(n) << '\n';
            simple_file << Tsv(m) << '\n';
            break;
        }
        ++*written;
      }
    }
    if (!out) return Status::IOError("export: write failed");
    return Status::OK();
  });
  if (o.format == ExportFormat::kParallel) {
    normal_file.flush();
    simple_file.flush();
    if (!normal_file || !simple_file) return Status::IOError(o.out_prefix + ": write failed");
  }
  return s;
}

// ------------------------------------------------------------------ lookup

Status Lookup(Store* store, const EditionPair& editions, const std::string& title,
              const std::string& format, std::ostream& out) {
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, editions, &pair));
  Snapshot snap(store);
  std::string key_title = title;
  // A redirect in either edition leads to its target.
  auto follow = [&](uint32_t ed) {
    pb::Redirect r;
    if (store->GetRedirect(ed, NormalizeTitle(title), &r, snap.get()).ok()) key_title = r.target();
  };
  pb::AlignmentRecord found;
  Status s = GetRecord(store, pair, key_title, snap, &found);
  if (s.IsNotFound()) {
    follow(pair.simple_id);
    if (key_title == title) follow(pair.normal_id);
    if (key_title != title) s = GetRecord(store, pair, key_title, snap, &found);
  }
  if (s.IsNotFound()) {
    // Say why: missing in an edition, or removed by the pairing filter.
    std::string why;
    uint64_t id;
    bool in_normal = store->FindArticle(pair.normal_id, key_title, &id, snap.get()).ok();
    bool in_simple = store->FindArticle(pair.simple_id, key_title, &id, snap.get()).ok();
    if (!in_normal && !in_simple)
      why = "no article with this title in " + pair.normal + " or " + pair.simple;
    else if (!in_normal)
      why = "only " + pair.simple + " has this title";
    else if (!in_simple)
      why = "only " + pair.normal + " has this title";
    else
      why =
          "the pair was removed by the pairing filter (stub, disambiguation, meta or single_line) "
          "or is not aligned yet";
    return Status::NotFound("\"" + title + "\": " + why);
  }
  RETURN_IF_ERROR(s);

  if (format == "json") {
    ordered_json j;
    j["normal_edition"] = found.normal_edition();
    j["simple_edition"] = found.simple_edition();
    j["normal_title"] = found.normal_title();
    j["simple_title"] = found.simple_title();
    j["normal_page_id"] = found.normal_page_id();
    j["simple_page_id"] = found.simple_page_id();
    j["normal_revision"] = found.normal_revision();
    j["simple_revision"] = found.simple_revision();
    j["params"] = {{"method", found.params().method()},
                   {"similarity", found.params().similarity()},
                   {"paragraph_threshold", found.params().paragraph_threshold()},
                   {"skip_penalty", found.params().skip_penalty()}};
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
        pj["sentence_pairs"].push_back(
            {{"normal", sp.normal_text()},
             {"simple", sp.simple_text()},
             {"similarity", sp.similarity()},
             {"op", OpName(static_cast<Op>(sp.op()))},
             {"identical", sp.identical()},
             {"normal_index", {sp.normal_paragraph(), sp.normal_sentence()}},
             {"simple_index", {sp.simple_paragraph(), sp.simple_sentence()}}});
      }
      j["paragraph_pairs"].push_back(std::move(pj));
    }
    out << j.dump(2) << "\n";
    return Status::OK();
  }
  // Text: built in one string, written once.
  std::string t;
  t.reserve(4096);
  char num[64];
  auto fixed3 = [&](double v) {
    std::snprintf(num, sizeof(num), "%.3f", v);
    return num;
  };
  t += found.normal_edition() + " \"" + found.normal_title() + "\" (page " +
       std::to_string(found.normal_page_id()) + ", revision " +
       std::to_string(found.normal_revision()) + ")  <->  " + found.simple_edition() + " \"" +
       found.simple_title() + "\" (page " + std::to_string(found.simple_page_id()) + ", revision " +
       std::to_string(found.simple_revision()) + ")\n";
  t += "aligned by run #" + std::to_string(found.run_id()) + " with " + found.params().method() +
       "/" + found.params().similarity();
  if (found.params().method() == "coster-kauchak") {
    std::snprintf(num, sizeof(num), ", paragraph threshold %g, skip penalty %g",
                  found.params().paragraph_threshold(), found.params().skip_penalty());
    t += num;
  } else if (found.params().method() == "all-pairs") {
    std::snprintf(num, sizeof(num), ", threshold %g", found.params().pair_threshold());
    t += num;
  }
  t += "\n" + std::to_string(found.paragraph_pairs_size()) + " paragraph pairs; " +
       std::to_string(found.simple_paragraphs()) + " simple and " +
       std::to_string(found.normal_paragraphs()) + " normal paragraphs\n";
  for (const auto& pp : found.paragraph_pairs()) {
    t += "\nsimple paragraph " + std::to_string(pp.simple_paragraph()) + " <- normal paragraph";
    if (pp.normal_paragraphs_size() > 1) t += "s";
    for (int k = 0; k < pp.normal_paragraphs_size(); ++k) {
      t += (k ? ", " : " ") + std::to_string(pp.normal_paragraphs(k));
      if (k < pp.cosines_size())
        t += std::string(" (cos ") + fixed3(pp.cosines(k)) + ")";  // none in all-pairs
    }
    t += "\n";
    for (const auto& sp : pp.sentence_pairs()) {
      t += "  ";
      t += OpName(static_cast<Op>(sp.op()));
      t += "  sim ";
      t += fixed3(sp.similarity());
      if (sp.identical()) t += "  identical";
      t += "\n    normal [" + std::to_string(sp.normal_paragraph()) + "." +
           std::to_string(sp.normal_sentence()) + "] ";
      t += sp.normal_text();
      t += "\n    simple [" + std::to_string(sp.simple_paragraph()) + "." +
           std::to_string(sp.simple_sentence()) + "] ";
      t += sp.simple_text();
      t += "\n";
    }
  }
  out.write(t.data(), static_cast<std::streamsize>(t.size()));
  return Status::OK();
}

// ------------------------------------------------------------------ stats

Status ComputeCorpusStats(Store* store, const EditionPair& editions, double min_sim,
                          bool distributions, CorpusStats* st) {
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, editions, &pair));
  Snapshot snap(store);
  pb::PairingSummary ps;
  std::string value;
  RETURN_IF_ERROR(store->GetMeta("pairing/" + pair.normal + "/" + pair.simple, &value));
  if (!ps.ParseFromString(value))
    return Status::Corruption(store->dir() + ": pairing summary does not parse");
  st->normal_edition = pair.normal;
  st->simple_edition = pair.simple;
  st->title_matches = ps.title_matches();
  st->removed = ps.removed();
  for (const char* reason : {"stub", "disambiguation", "meta", "single_line"}) {
    auto it = ps.removed_by_reason().find(reason);
    st->removed_by_reason[reason] = it == ps.removed_by_reason().end() ? 0 : it->second;
  }
  st->paragraph_threshold = ps.params().paragraph_threshold();
  st->skip_penalty = ps.params().skip_penalty();
  st->min_sim = min_sim;
  st->operations = {{"skip-simple", 0}, {"skip-normal", 0}, {"1-1", 0},
                    {"1-2", 0},         {"2-1", 0},         {"2-2", 0}};
  std::unordered_set<std::string> vocab[2];
  ReadabilityCounts side_counts[2];
  CorpusStats::Side* sides[2] = {&st->normal, &st->simple};
  std::vector<std::string> tokens;
  RETURN_IF_ERROR(ForEachRecord(store, pair, "", snap, [&](const pb::AlignmentRecord& r) {
    ++st->aligned;
    st->simple_paragraphs += r.simple_paragraphs();
    st->paragraph_pairs += r.paragraph_pairs_size();
    std::set<std::pair<uint32_t, uint32_t>> seen[2];
    for (const auto& pp : r.paragraph_pairs()) {
      st->operations["skip-simple"] += pp.skipped_simple();
      st->operations["skip-normal"] += pp.skipped_normal();
      for (const auto& sp : pp.sentence_pairs()) {
        ++st->sentence_pairs_all;
        st->operations[OpName(static_cast<Op>(sp.op()))] += 1;
        if (distributions) st->similarities.push_back(sp.similarity());
        if (sp.similarity() < min_sim) continue;
        ++st->sentence_pairs;
        st->identical += sp.identical();
        if (!distributions) continue;
        std::pair<uint32_t, uint32_t> pos[2] = {{sp.normal_paragraph(), sp.normal_sentence()},
                                                {sp.simple_paragraph(), sp.simple_sentence()}};
        const std::string* text[2] = {&sp.normal_text(), &sp.simple_text()};
        for (int k = 0; k < 2; ++k) {
          if (!seen[k].insert(pos[k]).second) continue;
          ++sides[k]->sentences;
          tokens.clear();
          Tokenize(*text[k], &tokens);
          sides[k]->words += tokens.size();
          vocab[k].insert(tokens.begin(), tokens.end());
          ReadabilityCounts c = CountReadability(*text[k]);
          side_counts[k].Add(c);
          if (c.words > 0) sides[k]->sentence_flesch.push_back(c.FleschReadingEase());
        }
      }
    }
    return Status::OK();
  }));
  for (const char* two : {"1-2", "2-1", "2-2"}) st->operations[two] /= 2;
  for (int k = 0; k < 2; ++k) {
    sides[k]->vocabulary = vocab[k].size();
    sides[k]->flesch = side_counts[k].FleschReadingEase();
  }
  return Status::OK();
}

namespace {

// Dolan et al.'s figures for a paraphrase collection: pairs, mean edit distance (L12) or shared
// words (F2), mean sentence length in words.
Status ParaphraseStats(Store* store, const ResolvedPair& pair, bool json, std::ostream& out) {
  Snapshot snap(store);
  struct Agg {
    uint64_t pairs = 0, records = 0;
    double score = 0, words = 0;
    std::set<std::string> clusters;
  };
  std::map<std::string, Agg> by_op;
  std::vector<std::string> toks;
  RETURN_IF_ERROR(ForEachRecord(store, pair, "", snap, [&](const pb::AlignmentRecord& r) {
    Agg& a = by_op[r.params().method()];
    ++a.records;
    a.clusters.insert(r.normal_title().substr(0, r.normal_title().find('/')));
    for (const auto& pp : r.paragraph_pairs())
      for (const auto& sp : pp.sentence_pairs()) {
        ++a.pairs;
        a.score += sp.similarity();
        for (const std::string* t : {&sp.normal_text(), &sp.simple_text()}) {
          toks.clear();
          Tokenize(*t, &toks);
          a.words += static_cast<double>(toks.size());
        }
      }
    return Status::OK();
  }));
  ordered_json j;
  j["collection"] = pair.normal;
  for (auto& [method, a] : by_op) {
    ordered_json m = {{"pairs", a.pairs},
                      {"document_pairs", a.records},
                      {"clusters_with_pairs", a.clusters.size()},
                      {"mean_length_words", a.pairs ? a.words / (2.0 * a.pairs) : 0.0}};
    m[method == "l12" ? "mean_edit_distance" : "mean_shared_long_words"] =
        a.pairs ? a.score / a.pairs : 0.0;
    j[method] = m;
  }
  if (json) {
    out << j.dump(2) << "\n";
    return Status::OK();
  }
  out << "collection " << pair.normal << "\n";
  for (auto& [method, a] : by_op) {
    char buf[256];
    std::snprintf(buf, sizeof(buf),
                  "%s: %llu pairs from %llu document pairs in %zu clusters; mean %s %.2f; mean "
                  "length %.1f words\n",
                  method.c_str(), (unsigned long long)a.pairs, (unsigned long long)a.records,
                  a.clusters.size(),
                  method == "l12" ? "edit distance" : "shared words of 4+ characters",
                  a.pairs ? a.score / a.pairs : 0.0, a.pairs ? a.words / (2.0 * a.pairs) : 0.0);
    out << buf;
  }
  return Status::OK();
}

}  // namespace

Status Stats(Store* store, const EditionPair& editions, double min_sim, bool json,
             std::ostream& out) {
  {
    ResolvedPair pair;
    RETURN_IF_ERROR(Resolve(store, editions, &pair));
    if (pair.normal == pair.simple) return ParaphraseStats(store, pair, json, out);
  }
  CorpusStats st;
  RETURN_IF_ERROR(ComputeCorpusStats(store, editions, min_sim, false, &st));
  uint64_t total_ops = 0;
  for (auto& [k, v] : st.operations) total_ops += v;
  auto share = [](uint64_t a, uint64_t b) {
    return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
  };
  uint64_t unaligned = st.simple_paragraphs - st.paragraph_pairs;
  ordered_json j;
  j["normal_edition"] = st.normal_edition;
  j["simple_edition"] = st.simple_edition;
  j["article_pairs"] = {{"title_matches", st.title_matches},
                        {"removed", st.removed},
                        {"removed_by_reason", ordered_json::object()},
                        {"aligned", st.aligned}};
  for (const char* reason : {"stub", "disambiguation", "meta", "single_line"})
    j["article_pairs"]["removed_by_reason"][reason] = st.removed_by_reason[reason];
  j["paragraph_pairs"] = st.paragraph_pairs;
  j["simple_paragraphs"] = st.simple_paragraphs;
  j["simple_paragraphs_unaligned"] = unaligned;
  j["simple_paragraphs_unaligned_share"] = share(unaligned, st.simple_paragraphs);
  j["min_similarity"] = min_sim;
  j["sentence_pairs_all"] = st.sentence_pairs_all;
  j["sentence_pairs"] = st.sentence_pairs;
  j["sentence_pairs_per_article_pair"] = share(st.sentence_pairs, st.aligned);
  j["identical_share"] = share(st.identical, st.sentence_pairs);
  j["operations"] = ordered_json::object();
  j["operation_shares"] = ordered_json::object();
  for (const char* op : {"skip-simple", "skip-normal", "1-1", "1-2", "2-1", "2-2", "pair"}) {
    if (std::string(op) == "pair" && st.operations[op] == 0) continue;  // all-pairs records only
    j["operations"][op] = st.operations[op];
    j["operation_shares"][op] = share(st.operations[op], total_ops);
  }
  j["params"] = {{"paragraph_threshold", st.paragraph_threshold},
                 {"skip_penalty", st.skip_penalty}};
  if (json) {
    out << j.dump(2) << "\n";
    return Status::OK();
  }
  char buf[256];
  out << st.normal_edition << " <-> " << st.simple_edition << "\n";
  out << "article pairs: " << st.title_matches << " title matches, " << st.removed << " removed (";
  bool first = true;
  for (const char* reason : {"stub", "disambiguation", "meta", "single_line"}) {
    out << (first ? "" : ", ") << reason << " " << st.removed_by_reason[reason];
    first = false;
  }
  out << "), " << st.aligned << " aligned\n";
  std::snprintf(buf, sizeof(buf),
                "paragraph pairs: %llu; simple paragraphs unaligned: %llu of %llu (%.1f%%)\n",
                (unsigned long long)st.paragraph_pairs, (unsigned long long)unaligned,
                (unsigned long long)st.simple_paragraphs,
                100 * share(unaligned, st.simple_paragraphs));
  out << buf;
  std::snprintf(buf, sizeof(buf),
                "sentence pairs with similarity >= %.2f: %llu of %llu (%.2f per article pair), "
                "identical %.1f%%\n",
                min_sim, (unsigned long long)st.sentence_pairs,
                (unsigned long long)st.sentence_pairs_all, share(st.sentence_pairs, st.aligned),
                100 * share(st.identical, st.sentence_pairs));
  out << buf << "operations:";
  for (const char* op : {"skip-simple", "skip-normal", "1-1", "1-2", "2-1", "2-2", "pair"}) {
    if (std::string(op) == "pair" && st.operations[op] == 0) continue;
    std::snprintf(buf, sizeof(buf), " %s %.1f%%", op, 100 * share(st.operations[op], total_ops));
    out << buf;
  }
  out << "\n";
  return Status::OK();
}

}  // namespace aligndb

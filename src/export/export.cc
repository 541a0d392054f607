// Lookup, export and stats over stored alignment records.
#include "export/export.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <unordered_set>

#include "align/operations.h"
#include "aligndb.pb.h"
#include "eval/eval.h"
#include "storage/store.h"
#include "text/text.h"
#include "util/fault.h"
#include "util/files.h"

namespace aligndb {
namespace {

struct ResolvedPair {
  std::string normal, simple;
  uint32_t normal_id = 0, simple_id = 0;
  // The pair was aligned with a measure whose values are not bounded by 1 (matrix similarity,
  // docs/method.md, Embedding measures), or is a paraphrase collection: no default upper limit.
  bool unbounded = false;
  // What the pair's last align run recorded (empty when it has no summary).
  pb::PairingSummary summary;
};

Status Resolve(Store* store, const EditionPair& want, ResolvedPair* out) {
  EditionPair names;
  RETURN_IF_ERROR(ResolveEditions(store, want, &names));
  out->normal = names.normal;
  out->simple = names.simple;
  RETURN_IF_ERROR(store->EditionId(out->normal, false, &out->normal_id));
  RETURN_IF_ERROR(store->EditionId(out->simple, false, &out->simple_id));
  if (!store->GetPairingSummary(out->normal, out->simple, &out->summary).ok())
    out->summary.Clear();  // none (or unreadable): no parameters to go by
  out->unbounded = out->normal == out->simple || out->summary.params().similarity() == "matrix";
  return Status::OK();
}

// The record of the title pair `title` (normalized here): NotFound when there is none.
Status GetRecord(Store* store, const ResolvedPair& pair, const std::string& title,
                 const Snapshot* snap, pb::AlignmentRecord* record) {
  Status s =
      store->GetAlignment(pair.normal_id, pair.simple_id, NormalizeTitle(title), record, snap);
  if (s.IsNotFound()) return Status::NotFound("no aligned article pair titled \"" + title + "\"");
  return s;
}

// The record whose normal title is `title` among records paired through a redirect (align
// --follow-redirects names them after the simple title). No index leads there: a scan of the
// pair's records, done only when the pair was aligned following redirects and the normal edition
// has an article of this title.
Status FindByNormalTitle(Store* store, const ResolvedPair& pair, const std::string& title,
                         const Snapshot* snap, pb::AlignmentRecord* record) {
  const Status missing = Status::NotFound("no aligned article pair titled \"" + title + "\"");
  const pb::PairingSummary& ps = pair.summary;
  uint64_t id = 0;
  if (!ps.params().follow_redirects() || !store->FindArticle(pair.normal_id, title, &id, snap).ok())
    return missing;
  const std::string key = NormalizeTitle(title);
  const Status kFound = Status::Internal("found");  // stops the scan
  if (ps.every_record_has_keep()) {
    // The keep records name the normal page of each record: found without reading records.
    std::string name;
    Status s = store->ForEachAlignmentKeep(
        pair.normal_id, pair.simple_id,
        [&](const std::string& n, const pb::AlignmentKeep& keep) {
          if (keep.normal_page_id() != id) return Status::OK();
          name = n;
          return kFound;
        },
        snap);
    if (s.ok()) return missing;
    if (s.message() != kFound.message()) return s;
    return store->GetAlignment(pair.normal_id, pair.simple_id, name, record, snap);
  }
  Status s = store->ForEachAlignment(
      pair.normal_id, pair.simple_id, "",
      [&](const pb::AlignmentRecord& r) {
        if (r.normal_title() == r.simple_title() || NormalizeTitle(r.normal_title()) != key)
          return Status::OK();
        *record = r;
        return kFound;
      },
      snap);
  if (s.ok()) return missing;
  return s.message() == kFound.message() ? Status::OK() : s;
}

// The record of the article pair `title` names: either side's title as stored in the record, or
// a redirect (in either edition) to the record's name. NotFound when there is none.
Status FindRecord(Store* store, const ResolvedPair& pair, const std::string& title,
                  const Snapshot* snap, pb::AlignmentRecord* found) {
  Status s = GetRecord(store, pair, title, snap, found);
  if (!s.IsNotFound()) return s;
  for (uint32_t edition : {pair.simple_id, pair.normal_id}) {
    pb::Redirect r;
    if (!store->GetRedirect(edition, NormalizeTitle(title), &r, snap).ok()) continue;
    s = GetRecord(store, pair, r.target(), snap, found);
    if (!s.IsNotFound()) return s;
  }
  return FindByNormalTitle(store, pair, title, snap, found);
}

// Calls fn for every record of the pair (or only the one of `title`), from the snapshot.
Status ForEachRecord(Store* store, const ResolvedPair& pair, const std::string& title,
                     const Snapshot* snap,
                     const std::function<Status(const pb::AlignmentRecord&)>& fn) {
  if (!title.empty()) {
    pb::AlignmentRecord record;
    Status s = FindRecord(store, pair, title, snap, &record);
    // Why there is none, as lookup says it (an edition lacks the title, the pairing filter).
    if (s.IsNotFound()) s = LookupRecord(store, {pair.normal, pair.simple}, title, &record);
    RETURN_IF_ERROR(s);
    return fn(record);
  }
  return store->ForEachAlignment(pair.normal_id, pair.simple_id, "", fn, snap);
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
void AppendJsonString(std::string* out, std::string_view s) {
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

// A field of a TSV row or a line of a parallel file: every character a line or field reader
// may split on becomes a space — tab, the ASCII line breaks (LF, VT, FF, CR, and the separators
// 0x1C-0x1E that Python's splitlines honours) and the Unicode ones (U+0085, U+2028, U+2029),
// which text from JSON lines documents can hold.
std::string Tsv(const std::string& s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '\t' || (c >= 0x0a && c <= 0x0d) || (c >= 0x1c && c <= 0x1e)) {
      out += ' ';
    } else if (c == 0xc2 && i + 1 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x85) {
      out += ' ';
      ++i;
    } else if (c == 0xe2 && i + 2 < s.size() && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
               (static_cast<unsigned char>(s[i + 2]) == 0xa8 ||
                static_cast<unsigned char>(s[i + 2]) == 0xa9)) {
      out += ' ';
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

std::string FormatSim(double v) {
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%.6f", v);
  return buf;
}

}  // namespace

namespace {

// "enwiki → simplewiki, news → news".
std::string PairList(const std::vector<std::pair<std::string, std::string>>& pairs) {
  std::string out;
  for (const auto& [normal, simple] : pairs)
    out += (out.empty() ? "" : ", ") + normal + " → " + simple;
  return out;
}

}  // namespace

namespace {

// Why the pair `want` (both names given) has no records: a paraphrase collection that does not
// exist, or an edition pair that was never aligned; lists what the database holds instead.
Status NotAligned(Store* store, const EditionPair& want,
                  const std::vector<std::pair<std::string, std::string>>& aligned) {
  std::vector<std::pair<std::string, std::string>> pairs;
  std::string collections;
  for (const auto& p : aligned) {
    if (p.first != p.second)
      pairs.push_back(p);
    else
      collections += (collections.empty() ? "" : ", ") + p.first;
  }
  const std::string held =
      "aligned edition pairs: " + (pairs.empty() ? std::string("none") : PairList(pairs)) +
      "; paraphrase collections: " + (collections.empty() ? std::string("none") : collections);
  if (want.normal == want.simple)
    return Status::NotFound(store->dir() + ": no paraphrase collection \"" + want.normal +
                            "\" (run `aligndb paraphrase`); " + held);
  return Status::NotFound(store->dir() + ": " + want.normal + " → " + want.simple +
                          " is not aligned (run `aligndb align --normal " + want.normal +
                          " --simple " + want.simple + "`); " + held);
}

}  // namespace

Status ResolveEditions(Store* store, const EditionPair& want, EditionPair* out) {
  *out = want;
  std::vector<std::pair<std::string, std::string>> aligned, match;
  RETURN_IF_ERROR(store->Pairings(&aligned));
  if (!want.normal.empty() && !want.simple.empty()) {
    if (std::find(aligned.begin(), aligned.end(), std::make_pair(want.normal, want.simple)) ==
        aligned.end())
      return NotAligned(store, want, aligned);
    return Status::OK();
  }
  for (auto& p : aligned)
    if ((want.normal.empty() || p.first == want.normal) &&
        (want.simple.empty() || p.second == want.simple))
      match.push_back(p);
  if (aligned.empty())
    return Status::NotFound(store->dir() + ": no alignments stored (run `aligndb align` first)");
  if (match.empty())
    return Status::NotFound(
        store->dir() + ": no alignment of " +
        (want.normal.empty() ? "" : OptionName(want.names, "normal") + " " + want.normal) +
        (want.simple.empty() ? "" : OptionName(want.names, "simple") + " " + want.simple) +
        "; aligned edition pairs: " + PairList(aligned));
  auto chosen = match[0];
  if (match.size() > 1) {
    bool found_default = false;
    for (auto& p : match)
      if (p.first == "enwiki" && p.second == "simplewiki") chosen = p, found_default = true;
    if (!found_default)
      return Status::InvalidArgument("several edition pairs are aligned; choose one with " +
                                     OptionName(want.names, "normal") + " and " +
                                     OptionName(want.names, "simple"));
  }
  out->normal = chosen.first;
  out->simple = chosen.second;
  return Status::OK();
}

namespace {
constexpr std::pair<OutputFormat, const char*> kOutputFormatNames[] = {
    {OutputFormat::kText, "text"},
    {OutputFormat::kJson, "json"},
    {OutputFormat::kTsv, "tsv"},
    {OutputFormat::kJsonl, "jsonl"},
    {OutputFormat::kParallel, "parallel"}};
}  // namespace

const char* OutputFormatName(OutputFormat format) {
  for (auto& [f, name] : kOutputFormatNames)
    if (f == format) return name;
  return "?";
}

bool ParseOutputFormat(std::string_view name, OutputFormat* format) {
  for (auto& [f, n] : kOutputFormatNames)
    if (name == n) {
      *format = f;
      return true;
    }
  return false;
}

bool IsParaphraseMode(const std::string& mode) { return mode == "l12" || mode == "f2"; }

std::string DescribeAlignParams(const pb::AlignParams& p) {
  char num[128];
  std::string t = p.mode() + "/" + p.similarity();
  if (p.mode() == "coster-kauchak") {
    std::snprintf(num, sizeof(num), ", paragraph threshold %g, skip penalty %g",
                  p.paragraph_threshold(), p.skip_penalty());
    t += num;
  } else if (p.mode() == "all-pairs") {
    std::snprintf(num, sizeof(num), ", threshold %g", p.pair_threshold());
    t += num;
  }
  if (IsParaphraseMode(p.mode())) return t;
  if (!p.similarity().empty() && p.similarity() != "tfidf") {
    std::snprintf(num, sizeof(num), ", θ %g", p.theta());
    t += num;
    if (!p.vectors().empty()) t += ", vectors " + p.vectors();
    if (!p.lexicon().empty()) t += ", lexicon " + p.lexicon();
  }
  if (p.follow_redirects()) t += ", following redirects";
  return t;
}

// ------------------------------------------------------------------ export

const char* const kExportOpNames = "1-1, 1-2, 2-1, 2-2, pair, l12, f2";

std::string OptionName(OptionNames names, std::string_view flag) {
  if (names == OptionNames::kFlags) return "--" + std::string(flag);
  std::string param(flag);
  std::replace(param.begin(), param.end(), '-', '_');
  return param;
}

Status ParseExportOps(const std::string& list, std::set<Op>* ops, OptionNames names) {
  ops->clear();
  for (size_t b = 0; b <= list.size();) {  // every piece, the empty ones too ("", "1-1,")
    size_t e = list.find(',', b);
    if (e == std::string::npos) e = list.size();
    const std::string name = list.substr(b, e - b);
    b = e + 1;
    Op op;
    if (!ParseOpName(name, &op) || op == Op::kSkipSimple || op == Op::kSkipNormal)
      return Status::InvalidArgument(OptionName(names, "op") + ": unknown operation \"" + name +
                                     "\" (use " + kExportOpNames + ")");
    ops->insert(op);
  }
  return Status::OK();
}

namespace {

// `options` with NaN limits replaced by their defaults: [0.5, 1] for aligned editions (no upper
// limit for matrix similarity, which can exceed 1), no limit for paraphrase collections (whose
// scores are not cosines).
ExportOptions WithDefaultLimits(const ExportOptions& options, const ResolvedPair& pair) {
  ExportOptions o = options;
  const bool collection = pair.normal == pair.simple;
  if (std::isnan(o.min_sim))
    o.min_sim = collection ? -std::numeric_limits<double>::infinity() : kDefaultMinSimilarity;
  if (std::isnan(o.max_sim))
    o.max_sim = pair.unbounded ? std::numeric_limits<double>::infinity() : 1.0;
  return o;
}

bool Selected(const ExportOptions& o, const pb::SentencePair& sp) {
  if (sp.similarity() < o.min_sim || sp.similarity() > o.max_sim) return false;
  if (o.label != Label::kNone && static_cast<Label>(sp.label()) != o.label) return false;
  return o.ops.count(static_cast<Op>(sp.op())) && !(o.no_identical && sp.identical());
}

// One row of the operation unit: an operation with each side's sentences joined.
struct OperationRow {
  std::string normal, simple;
  std::vector<SentencePos> normal_index, simple_index;
  double similarity = 0;
  Op op = Op::kOneOne;
  Label label = Label::kNone;
};

// The operation `op` of `pp` as a row when `o` selects it. An operation is identical when all
// its pairs are.
bool SelectedOperation(const ExportOptions& o, const pb::ParagraphPair& pp,
                       const StoredOperation& op, OperationRow* row) {
  const pb::SentencePair& first = pp.sentence_pairs(op.first);
  row->similarity = op.count > 1 ? first.operation_similarity() : first.similarity();
  row->op = static_cast<Op>(first.op());
  row->label = static_cast<Label>(op.count > 1 ? first.operation_label() : first.label());
  if (row->similarity < o.min_sim || row->similarity > o.max_sim) return false;
  if (o.label != Label::kNone && row->label != o.label) return false;
  if (!o.ops.count(row->op)) return false;
  bool identical = true;
  for (int i = op.first; i < op.first + op.count; ++i)
    identical = identical && pp.sentence_pairs(i).identical();
  if (o.no_identical && identical) return false;
  row->normal = JoinTexts(op.normal_text);
  row->simple = JoinTexts(op.simple_text);
  row->normal_index = op.normal;
  row->simple_index = op.simple;
  return true;
}

std::string IndexListJson(const std::vector<SentencePos>& v) {
  std::string out(1, '[');
  for (size_t i = 0; i < v.size(); ++i) {
    if (i) out += ',';
    out += IndexJson(v[i].first, v[i].second);
  }
  out += ']';
  return out;
}

// The label as a JSON value: a string, or null for a record computed before labels existed.
std::string LabelJson(Label label) {
  return label == Label::kNone ? "null" : std::string("\"") + LabelName(label) + "\"";
}

constexpr const char* kTsvHeader =
    "normal_title\tsimple_title\tnormal\tsimple\tsimilarity\top\tnormal_index\tsimple_index\t"
    "normal_revision\tsimple_revision\tlabel\n";

// One JSON line of export: the row's fields after the record's titles, and the record's revisions.
// `normal_index`/`simple_index` are JSON already ("[p,s]" or a list of them).
void AppendJsonlLine(const pb::AlignmentRecord& r, std::string_view normal, std::string_view simple,
                     double similarity, Op op, std::string_view normal_index,
                     std::string_view simple_index, Label label, std::string* line) {
  line->clear();
  line->append("{\"normal_title\":");
  AppendJsonString(line, r.normal_title());
  line->append(",\"simple_title\":");
  AppendJsonString(line, r.simple_title());
  line->append(",\"normal\":");
  AppendJsonString(line, normal);
  line->append(",\"simple\":");
  AppendJsonString(line, simple);
  line->append(",\"similarity\":");
  AppendDouble(line, similarity);
  line->append(",\"op\":\"").append(OpName(op));
  line->append("\",\"normal_index\":").append(normal_index);
  line->append(",\"simple_index\":").append(simple_index);
  line->append(",\"normal_revision\":").append(std::to_string(r.normal_revision()));
  line->append(",\"simple_revision\":").append(std::to_string(r.simple_revision()));
  line->append(",\"label\":").append(LabelJson(label));
  line->append("}\n");
}

void AppendJsonlOperationRow(const pb::AlignmentRecord& r, const OperationRow& row,
                             std::string* line) {
  AppendJsonlLine(r, row.normal, row.simple, row.similarity, row.op,
                  IndexListJson(row.normal_index), IndexListJson(row.simple_index), row.label,
                  line);
}

void WriteTsvOperationRow(const pb::AlignmentRecord& r, const OperationRow& row,
                          std::ostream& out) {
  out << Tsv(r.normal_title()) << '\t' << Tsv(r.simple_title()) << '\t' << Tsv(row.normal) << '\t'
      << Tsv(row.simple) << '\t' << FormatSim(row.similarity) << '\t' << OpName(row.op) << '\t'
      << IndexListJson(row.normal_index) << '\t' << IndexListJson(row.simple_index) << '\t'
      << r.normal_revision() << '\t' << r.simple_revision() << '\t' << LabelName(row.label) << '\n';
}

void AppendJsonlRow(const pb::AlignmentRecord& r, const pb::SentencePair& sp, std::string* line) {
  AppendJsonlLine(r, sp.normal_text(), sp.simple_text(), sp.similarity(), static_cast<Op>(sp.op()),
                  IndexJson(sp.normal_paragraph(), sp.normal_sentence()),
                  IndexJson(sp.simple_paragraph(), sp.simple_sentence()),
                  static_cast<Label>(sp.label()), line);
}

void WriteTsvRow(const pb::AlignmentRecord& r, const pb::SentencePair& sp, std::ostream& out) {
  out << Tsv(r.normal_title()) << '\t' << Tsv(r.simple_title()) << '\t' << Tsv(sp.normal_text())
      << '\t' << Tsv(sp.simple_text()) << '\t' << FormatSim(sp.similarity()) << '\t'
      << OpName(static_cast<Op>(sp.op())) << '\t'
      << IndexJson(sp.normal_paragraph(), sp.normal_sentence()) << '\t'
      << IndexJson(sp.simple_paragraph(), sp.simple_sentence()) << '\t' << r.normal_revision()
      << '\t' << r.simple_revision() << '\t' << LabelName(static_cast<Label>(sp.label())) << '\n';
}

// Writes the selected pairs of the records it is given, in one of the export formats.
class RowWriter {
 public:
  RowWriter(const ExportOptions& o, std::ostream& out) : o_(o), out_(out) {}

  Status Open() {
    if (o_.format == OutputFormat::kParallel) {
      if (o_.out_prefix.empty())
        return Status::InvalidArgument("--format parallel needs --out PREFIX");
      // Both files replace earlier ones only when the whole export succeeds (Close).
      RETURN_IF_ERROR(normal_file_.Open(o_.out_prefix + ".normal"));
      RETURN_IF_ERROR(simple_file_.Open(o_.out_prefix + ".simple"));
    } else if (o_.format != OutputFormat::kTsv && o_.format != OutputFormat::kJsonl) {
      return Status::InvalidArgument(std::string("export writes tsv, jsonl or parallel, not ") +
                                     OutputFormatName(o_.format));
    }
    if (o_.format == OutputFormat::kTsv) out_ << kTsvHeader;
    return Status::OK();
  }

  Status Write(const pb::AlignmentRecord& r) {
    if (o_.unit == ExportUnit::kOperation) return WriteOperations(r);
    for (const auto& pp : r.paragraph_pairs()) {
      for (const auto& sp : pp.sentence_pairs()) {
        if (!Selected(o_, sp)) continue;
        if (o_.format == OutputFormat::kJsonl) {
          AppendJsonlRow(r, sp, &line_);
          out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
        } else if (o_.format == OutputFormat::kTsv) {
          WriteTsvRow(r, sp, out_);
        } else {
          normal_file_.stream() << Tsv(sp.normal_text()) << '\n';
          simple_file_.stream() << Tsv(sp.simple_text()) << '\n';
        }
        ++written_;
      }
    }
    if (!out_) return Status::IOError("export: write failed");
    return Status::OK();
  }

  Status WriteOperations(const pb::AlignmentRecord& r) {
    OperationRow row;
    for (const auto& pp : r.paragraph_pairs()) {
      for (const StoredOperation& op : OperationsOf(pp)) {
        if (!SelectedOperation(o_, pp, op, &row)) continue;
        if (o_.format == OutputFormat::kJsonl) {
          AppendJsonlOperationRow(r, row, &line_);
          out_.write(line_.data(), static_cast<std::streamsize>(line_.size()));
        } else if (o_.format == OutputFormat::kTsv) {
          WriteTsvOperationRow(r, row, out_);
        } else {
          normal_file_.stream() << Tsv(row.normal) << '\n';
          simple_file_.stream() << Tsv(row.simple) << '\n';
        }
        ++written_;
      }
    }
    if (!out_) return Status::IOError("export: write failed");
    return Status::OK();
  }

  Status Close() {
    if (o_.format != OutputFormat::kParallel) return Status::OK();
    return OutputFile::CommitPair(&normal_file_, &simple_file_);
  }

  uint64_t written() const { return written_; }

 private:
  const ExportOptions& o_;
  std::ostream& out_;
  OutputFile normal_file_, simple_file_;
  std::string line_;
  uint64_t written_ = 0;
};

// A bound outside the similarities' range, or an empty range, is a mistake in the arguments,
// not an empty export. Similarities of aligned editions lie in [-1, 1] (docs/method.md, Embedding
// measures) but for matrix similarity, which can exceed 1; a paraphrase collection's column is an
// edit distance or a word count.
Status CheckLimits(const ExportOptions& o, const ResolvedPair& pair) {
  const OptionNames names = o.editions.names;
  char msg[160];
  if (!pair.unbounded) {
    for (auto [flag, v] : {std::pair{"min-sim", o.min_sim}, std::pair{"max-sim", o.max_sim}}) {
      if (v >= -1 && v <= 1) continue;
      std::snprintf(msg, sizeof(msg), "%s %g: similarities lie in [-1, 1]",
                    OptionName(names, flag).c_str(), v);
      return Status::InvalidArgument(msg);
    }
  }
  if (!(o.max_sim < o.min_sim)) return Status::OK();
  std::snprintf(msg, sizeof(msg), "%s %g is below %s %g: no pair can be selected",
                OptionName(names, "max-sim").c_str(), o.max_sim,
                OptionName(names, "min-sim").c_str(), o.min_sim);
  return Status::InvalidArgument(msg);
}

// Operations none of which the pair's records can hold (l12 and f2 are paraphrase collections',
// the others aligned editions'): a mistake in the arguments, not an empty export.
Status CheckOps(const ExportOptions& o, const ResolvedPair& pair) {
  const bool collection = pair.normal == pair.simple;
  if (o.ops.empty()) return Status::OK();  // selects nothing (the command line refuses it)
  for (Op op : o.ops)
    if ((op == Op::kL12 || op == Op::kF2) == collection) return Status::OK();
  return Status::InvalidArgument(
      OptionName(o.editions.names, "op") + ": " +
      (collection ? "a paraphrase collection holds l12 and f2 pairs only"
                  : "l12 and f2 are pairs of paraphrase collections (--collection); aligned "
                    "editions hold 1-1, 1-2, 2-1, 2-2 and pair"));
}

// The pair to read and the options with its default limits, after the argument checks.
Status ResolveChecked(Store* store, const ExportOptions& options, ResolvedPair* pair,
                      ExportOptions* o) {
  Status s = Resolve(store, options.editions, pair);
  if (s.IsNotFound()) RETURN_IF_ERROR(CheckArgumentsAsNamed(options));
  RETURN_IF_ERROR(s);
  *o = WithDefaultLimits(options, *pair);
  RETURN_IF_ERROR(CheckLimits(*o, *pair));
  return CheckOps(*o, *pair);
}

// Calls fn with the options (default limits filled in) and every record they select, from one
// snapshot, after the argument checks.
Status ForEachSelectedRecord(
    Store* store, const ExportOptions& options,
    const std::function<Status(const ExportOptions&, const pb::AlignmentRecord&)>& fn) {
  ResolvedPair pair;
  ExportOptions o;
  RETURN_IF_ERROR(ResolveChecked(store, options, &pair, &o));
  auto snap = store->NewSnapshot();
  return ForEachRecord(store, pair, o.title, snap.get(),
                       [&](const pb::AlignmentRecord& r) { return fn(o, r); });
}

}  // namespace

Status ForEachExportedPair(Store* store, const ExportOptions& options,
                           const std::function<Status(const ExportedPair&)>& visit) {
  return ForEachSelectedRecord(
      store, options, [&](const ExportOptions& o, const pb::AlignmentRecord& r) -> Status {
        for (const auto& pp : r.paragraph_pairs())
          for (const auto& sp : pp.sentence_pairs())
            if (Selected(o, sp))
              RETURN_IF_ERROR(visit({r.normal_title(), r.simple_title(), sp.normal_text(),
                                     sp.simple_text(), sp.similarity(), static_cast<Op>(sp.op()),
                                     static_cast<Label>(sp.label())}));
        return Status::OK();
      });
}

namespace {

// The rows of record `r` that `o` selects, visited through one reused ExportRow.
Status VisitRows(const ExportOptions& o, const pb::AlignmentRecord& r, ExportRow* row,
                 const std::function<Status(const ExportRow&)>& visit) {
  row->normal_title = r.normal_title();
  row->simple_title = r.simple_title();
  row->normal_revision = r.normal_revision();
  row->simple_revision = r.simple_revision();
  if (o.unit == ExportUnit::kOperation) {
    OperationRow op_row;
    for (const auto& pp : r.paragraph_pairs())
      for (const StoredOperation& op : OperationsOf(pp)) {
        if (!SelectedOperation(o, pp, op, &op_row)) continue;
        row->normal = op_row.normal;
        row->simple = op_row.simple;
        row->similarity = op_row.similarity;
        row->op = op_row.op;
        row->normal_index = op_row.normal_index;
        row->simple_index = op_row.simple_index;
        row->label = op_row.label;
        RETURN_IF_ERROR(visit(*row));
      }
    return Status::OK();
  }
  row->normal_index.resize(1);
  row->simple_index.resize(1);
  for (const auto& pp : r.paragraph_pairs())
    for (const auto& sp : pp.sentence_pairs()) {
      if (!Selected(o, sp)) continue;
      row->normal = sp.normal_text();
      row->simple = sp.simple_text();
      row->similarity = sp.similarity();
      row->op = static_cast<Op>(sp.op());
      row->normal_index[0] = {sp.normal_paragraph(), sp.normal_sentence()};
      row->simple_index[0] = {sp.simple_paragraph(), sp.simple_sentence()};
      row->label = static_cast<Label>(sp.label());
      RETURN_IF_ERROR(visit(*row));
    }
  return Status::OK();
}

}  // namespace

Status ForEachExportRow(Store* store, const ExportOptions& options,
                        const std::function<Status(const ExportRow&)>& visit) {
  ExportRow row;
  return ForEachSelectedRecord(store, options,
                               [&](const ExportOptions& o, const pb::AlignmentRecord& r) {
                                 return VisitRows(o, r, &row, visit);
                               });
}

Status Export(Store* store, const ExportOptions& options, std::ostream& out, uint64_t* written) {
  *written = 0;
  ResolvedPair pair;
  ExportOptions o;
  RETURN_IF_ERROR(ResolveChecked(store, options, &pair, &o));
  auto snap = store->NewSnapshot();
  RowWriter rows(o, out);
  RETURN_IF_ERROR(rows.Open());
  RETURN_IF_ERROR(
      ForEachRecord(store, pair, o.title, snap.get(), [&](const pb::AlignmentRecord& r) {
        Status s = rows.Write(r);
        PausePoint("export");  // a test hook: mid-export, the output files open
        return s;
      }));
  *written = rows.written();
  return rows.Close();
}

// ------------------------------------------------------------------ lookup

namespace {

// Why no record of `title` exists for the aligned `pair`: missing in an edition, or removed by
// the pairing filter.
Status ExplainMissing(Store* store, const ResolvedPair& pair, const std::string& title,
                      const std::string& key_title, const Snapshot* snap) {
  std::string why;
  uint64_t normal_id = 0, simple_id = 0;
  bool in_normal = store->FindArticle(pair.normal_id, key_title, &normal_id, snap).ok();
  bool in_simple = store->FindArticle(pair.simple_id, key_title, &simple_id, snap).ok();
  if (!in_normal && !in_simple)
    return Status::NotFound("\"" + title + "\": no article with this title in " + pair.normal +
                            " or " + pair.simple);
  if (!in_normal || !in_simple)
    return Status::NotFound("\"" + title + "\": only " + (in_normal ? pair.normal : pair.simple) +
                            " has this title");
  // Both articles exist: the pairing filter removed the pair when either is flagged (as align
  // decides it), otherwise the pair is newer than the last align.
  pb::Article normal, simple;
  RETURN_IF_ERROR(store->GetArticle(pair.normal_id, normal_id, &normal, snap));
  RETURN_IF_ERROR(store->GetArticle(pair.simple_id, simple_id, &simple, snap));
  auto flagged = [](const std::string& edition, uint32_t flags) {
    std::string names;
    for (const auto& f : FlagNames(flags)) names += (names.empty() ? "" : ", ") + f;
    return flags ? edition + " article flagged " + names : std::string();
  };
  if (normal.flags() | simple.flags()) {
    std::string a = flagged(pair.normal, normal.flags()), b = flagged(pair.simple, simple.flags());
    why = "the pair was removed by the pairing filter: " + a +
          (a.empty() || b.empty() ? "" : "; ") + b;
  } else {
    why = "the pair is not aligned yet (both articles were ingested after the last align)";
  }
  return Status::NotFound("\"" + title + "\": " + why);
}

}  // namespace

Status LookupRecord(Store* store, const EditionPair& editions, const std::string& title,
                    pb::AlignmentRecord* found) {
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, editions, &pair));
  auto snap = store->NewSnapshot();
  Status s = FindRecord(store, pair, title, snap.get(), found);
  if (!s.IsNotFound()) return s;
  // Explained for the redirect's target when the title is a redirect.
  std::string key_title = title;
  for (uint32_t edition : {pair.simple_id, pair.normal_id}) {
    pb::Redirect r;
    if (key_title == title &&
        store->GetRedirect(edition, NormalizeTitle(title), &r, snap.get()).ok())
      key_title = r.target();
  }
  return ExplainMissing(store, pair, title, key_title, snap.get());
}

Status RedirectedPairs(Store* store, const EditionPair& editions,
                       std::vector<RedirectedPair>* out) {
  out->clear();
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, editions, &pair));
  if (!pair.summary.params().follow_redirects()) return Status::OK();
  auto snap = store->NewSnapshot();
  auto add = [&](const pb::AlignmentRecord& r) {
    out->push_back({NormalizeTitle(r.normal_title()), r.normal_title(), r.simple_title()});
  };
  Status s;
  if (pair.summary.every_record_has_keep()) {
    // A record whose name is not its normal article's title was paired through a redirect:
    // one title lookup a record, and only those records read.
    std::vector<std::string> names;
    s = store->ForEachAlignmentKeep(
        pair.normal_id, pair.simple_id,
        [&](const std::string& name, const pb::AlignmentKeep& keep) {
          uint64_t id = 0;
          Status f = store->FindArticle(pair.normal_id, name, &id, snap.get());
          if (f.ok() && id == keep.normal_page_id()) return Status::OK();
          if (!f.ok() && !f.IsNotFound()) return f;
          names.push_back(name);
          return Status::OK();
        },
        snap.get());
    for (size_t i = 0; s.ok() && i < names.size(); ++i) {
      pb::AlignmentRecord r;
      s = store->GetAlignment(pair.normal_id, pair.simple_id, names[i], &r, snap.get());
      if (s.ok() && NormalizeTitle(r.normal_title()) != names[i]) add(r);
    }
  } else {
    s = store->ForEachAlignment(
        pair.normal_id, pair.simple_id, "",
        [&](const pb::AlignmentRecord& r) {
          if (NormalizeTitle(r.normal_title()) != NormalizeTitle(r.simple_title())) add(r);
          return Status::OK();
        },
        snap.get());
  }
  std::sort(out->begin(), out->end());
  return s;
}

// ------------------------------------------------------------------ stats

namespace {

const char* const kRemovalReasons[] = {"stub", "disambiguation", "meta", "single_line"};

// Per side (normal, simple) of the pairs at or above min_sim: distinct sentences, words,
// vocabulary and readability.
class SideCounter {
 public:
  void Add(CorpusStats::Side* side, const std::string& text) {
    ++side->sentences;
    tokens_.clear();
    Tokenize(text, &tokens_);
    side->words += tokens_.size();
    vocab_.insert(tokens_.begin(), tokens_.end());
    ReadabilityCounts c = CountReadability(text);
    counts_.Add(c);
    if (c.words > 0) side->sentence_flesch.push_back(c.FleschReadingEase());
  }
  void Finish(CorpusStats::Side* side) const {
    side->vocabulary = vocab_.size();
    side->flesch = counts_.FleschReadingEase();
  }

 private:
  std::vector<std::string> tokens_;
  std::unordered_set<std::string> vocab_;
  ReadabilityCounts counts_;
};

// Band of a labelled row's similarity; nullptr below 0.5.
const char* LabelBand(double similarity) {
  if (similarity >= 0.75) return ">=0.75";
  if (similarity >= 0.5) return "0.5-0.75";
  return nullptr;
}

void CountLabel(const char* unit, pb::Operation op, double similarity, pb::Label label,
                CorpusStats* st) {
  const char* band = LabelBand(similarity);
  if (!band || label == pb::LABEL_NONE) return;
  auto& c = st->labels[{unit, OpName(static_cast<Op>(op)), band}];
  (label == pb::LABEL_GOOD ? c.good : c.partial) += 1;
}

void CountLabels(const pb::ParagraphPair& pp, CorpusStats* st) {
  for (const auto& sp : pp.sentence_pairs())
    CountLabel("sentence", sp.op(), sp.similarity(), sp.label(), st);
  for (const StoredOperation& op : OperationsOf(pp)) {
    const auto& first = pp.sentence_pairs(op.first);
    if (op.count > 1)
      CountLabel("operation", first.op(), first.operation_similarity(), first.operation_label(),
                 st);
    else
      CountLabel("operation", first.op(), first.similarity(), first.label(), st);
  }
}

void CountRecord(const pb::AlignmentRecord& r, bool distributions, CorpusStats* st,
                 SideCounter sides[2]) {
  ++st->aligned;
  st->simple_paragraphs += r.simple_paragraphs();
  st->paragraph_pairs += r.paragraph_pairs_size();
  std::set<std::pair<uint32_t, uint32_t>> seen[2];
  CorpusStats::Side* side_stats[2] = {&st->normal, &st->simple};
  for (const auto& pp : r.paragraph_pairs()) {
    st->operations["skip-simple"] += pp.skipped_simple();
    st->operations["skip-normal"] += pp.skipped_normal();
    CountLabels(pp, st);
    for (const auto& sp : pp.sentence_pairs()) {
      ++st->sentence_pairs_all;
      st->operations[OpName(static_cast<Op>(sp.op()))] += 1;
      if (distributions) st->similarities.push_back(sp.similarity());
      if (sp.similarity() < st->min_sim) continue;
      ++st->sentence_pairs;
      st->identical += sp.identical();
      if (!distributions) continue;
      std::pair<uint32_t, uint32_t> pos[2] = {{sp.normal_paragraph(), sp.normal_sentence()},
                                              {sp.simple_paragraph(), sp.simple_sentence()}};
      const std::string* text[2] = {&sp.normal_text(), &sp.simple_text()};
      for (int k = 0; k < 2; ++k)
        if (seen[k].insert(pos[k]).second) sides[k].Add(side_stats[k], *text[k]);
    }
  }
}

}  // namespace

Status CheckArgumentsAsNamed(const ExportOptions& options) {
  ResolvedPair named;
  named.normal = options.editions.normal.empty() ? "enwiki" : options.editions.normal;
  named.simple = options.editions.simple.empty() ? "simplewiki" : options.editions.simple;
  named.unbounded = named.normal == named.simple;
  const ExportOptions o = WithDefaultLimits(options, named);
  RETURN_IF_ERROR(CheckLimits(o, named));
  return CheckOps(o, named);
}

Status ComputeCorpusStats(Store* store, const EditionPair& editions, double min_sim,
                          bool distributions, CorpusStats* st) {
  ExportOptions limits;  // the threshold checked as export checks --min-sim
  limits.editions = editions;
  limits.min_sim = min_sim;
  limits.max_sim = std::nan("");  // the pair's upper bound
  ResolvedPair pair;
  ExportOptions checked;
  RETURN_IF_ERROR(ResolveChecked(store, limits, &pair, &checked));
  auto snap = store->NewSnapshot();
  pb::PairingSummary ps;
  RETURN_IF_ERROR(store->GetPairingSummary(pair.normal, pair.simple, &ps));
  st->normal_edition = pair.normal;
  st->simple_edition = pair.simple;
  st->title_matches = ps.title_matches();
  st->removed = ps.removed();
  for (const char* reason : kRemovalReasons) {
    auto it = ps.removed_by_reason().find(reason);
    st->removed_by_reason[reason] = it == ps.removed_by_reason().end() ? 0 : it->second;
  }
  st->params = ps.params();
  st->min_sim = min_sim;
  st->operations = {{"skip-simple", 0}, {"skip-normal", 0}, {"1-1", 0},
                    {"1-2", 0},         {"2-1", 0},         {"2-2", 0}};
  SideCounter sides[2];
  RETURN_IF_ERROR(ForEachRecord(store, pair, "", snap.get(), [&](const pb::AlignmentRecord& r) {
    CountRecord(r, distributions, st, sides);
    return Status::OK();
  }));
  for (const char* two : {"1-2", "2-1", "2-2"}) st->operations[two] /= 2;
  sides[0].Finish(&st->normal);
  sides[1].Finish(&st->simple);
  return Status::OK();
}

Status ComputeParaphraseStats(Store* store, const std::string& collection, ParaphraseStats* out) {
  ResolvedPair pair;
  RETURN_IF_ERROR(Resolve(store, {collection, collection}, &pair));
  auto snap = store->NewSnapshot();
  struct Sums {
    double score = 0, words = 0;
    std::set<std::string> clusters;
  };
  std::map<std::string, Sums> sums;
  std::vector<std::string> toks;
  out->collection = collection;
  RETURN_IF_ERROR(ForEachRecord(store, pair, "", snap.get(), [&](const pb::AlignmentRecord& r) {
    ParaphraseStats::Method& m = out->methods[r.params().mode()];
    Sums& a = sums[r.params().mode()];
    ++m.records;
    a.clusters.insert(r.normal_title().substr(0, r.normal_title().find('/')));
    for (const auto& pp : r.paragraph_pairs())
      for (const auto& sp : pp.sentence_pairs()) {
        ++m.pairs;
        a.score += sp.similarity();
        for (const std::string* t : {&sp.normal_text(), &sp.simple_text()}) {
          toks.clear();
          Tokenize(*t, &toks);
          a.words += static_cast<double>(toks.size());
        }
      }
    return Status::OK();
  }));
  for (auto& [method, m] : out->methods) {
    const Sums& a = sums[method];
    m.clusters = a.clusters.size();
    m.mean_score = m.pairs ? a.score / m.pairs : 0.0;
    m.mean_words = m.pairs ? a.words / (2.0 * m.pairs) : 0.0;
  }
  return Status::OK();
}

}  // namespace aligndb

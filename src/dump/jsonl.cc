// Document JSON lines reader (docs/method.md, Input): simdjson reads the lines, and nlohmann::json
// every line that simdjson's path does not take as it is, which gives the messages of bad input.
#include "dump/jsonl.h"

#include <simdjson.h>

#include <nlohmann/json.hpp>
#include <unordered_set>
#include <vector>

#include "dump/bz2_parallel.h"
#include "dump/bz2_reader.h"
#include "util/line_reader.h"
#include "util/numbers.h"
#include "util/utf8.h"

namespace aligndb {
namespace {

Status LineError(const std::string& path, uint64_t line, const std::string& what) {
  return Status::Corruption(path + ": line " + std::to_string(line) + ": " + what);
}

// A news cluster document: {"cluster", "doc", "sentences" | "text"}.
Status ClusterToPage(const nlohmann::json& j, const std::string& path, uint64_t line,
                     SourcePage* page) {
  auto cluster = j.find("cluster");
  auto doc = j.find("doc");
  if (!cluster->is_string() || doc == j.end() || !(doc->is_string() || doc->is_number()))
    return LineError(path, line, "a cluster document needs string fields \"cluster\" and \"doc\"");
  page->cluster = cluster->get<std::string>();
  page->title = page->cluster + "/" + (doc->is_string() ? doc->get<std::string>() : doc->dump());
  auto sentences = j.find("sentences");
  auto text = j.find("text");
  if (sentences != j.end()) {
    if (!sentences->is_array())
      return LineError(path, line, "\"sentences\" must be an array of strings");
    std::vector<std::string> p;
    for (const auto& s : *sentences) {
      if (!s.is_string())
        return LineError(path, line, "a sentence in \"sentences\" is not a string");
      p.push_back(s.get<std::string>());
    }
    page->format = SourcePage::Format::kSentences;
    page->paragraphs.push_back(std::move(p));
  } else if (text != j.end() && text->is_string()) {
    page->format = SourcePage::Format::kPlainText;
    page->text = text->get<std::string>();
  } else {
    return LineError(path, line, "a cluster document needs \"sentences\" or \"text\"");
  }
  return Status::OK();
}

// An optional id field: a JSON integer or a decimal string (WikiExtractor) in [0, 2^64).
Status GetId(const nlohmann::json& j, const char* key, const std::string& path, uint64_t line,
             uint64_t* out, bool* has) {
  auto it = j.find(key);
  if (it == j.end() || it->is_null()) return Status::OK();
  if (it->is_number_unsigned()) {
    *out = it->get<uint64_t>();
  } else if (it->is_string()) {
    const std::string& s = it->get_ref<const std::string&>();
    if (!ParseDecimalU64(s, out))
      return LineError(path, line,
                       std::string("field \"") + key +
                           "\" must be a decimal integer in [0, 2^64), not \"" + s.substr(0, 40) +
                           "\"");
  } else {
    return LineError(path, line,
                     std::string("field \"") + key + "\" must be a non-negative integer");
  }
  if (has) *has = true;
  return Status::OK();
}

// The text of a document: "paragraphs" (sentences as given) or "text" (paragraphs by line).
Status DocumentText(const nlohmann::json& j, const std::string& path, uint64_t line,
                    SourcePage* page) {
  auto paragraphs = j.find("paragraphs");
  auto text = j.find("text");
  if (paragraphs == j.end()) {
    if (text == j.end()) return LineError(path, line, "expected \"text\" or \"paragraphs\"");
    if (!text->is_string()) return LineError(path, line, "\"text\" must be a string");
    page->format = SourcePage::Format::kPlainText;
    page->text = text->get<std::string>();
    return Status::OK();
  }
  const char* kShape = "\"paragraphs\" must be an array of arrays of sentences";
  if (!paragraphs->is_array()) return LineError(path, line, kShape);
  page->format = SourcePage::Format::kSentences;
  for (const auto& p : *paragraphs) {
    if (!p.is_array()) return LineError(path, line, kShape);
    std::vector<std::string> sentences;
    for (const auto& s : p) {
      if (!s.is_string())
        return LineError(path, line, "a sentence in \"paragraphs\" is not a string");
      sentences.push_back(s.get<std::string>());
    }
    page->paragraphs.push_back(std::move(sentences));
  }
  return Status::OK();
}

Status ToPage(const nlohmann::json& j, const std::string& path, uint64_t line, SourcePage* page) {
  if (!j.is_object()) return LineError(path, line, "expected a JSON object");
  *page = SourcePage();
  page->location = path + ": line " + std::to_string(line);
  page->line = line;
  if (j.contains("cluster")) return ClusterToPage(j, path, line, page);
  auto title = j.find("title");
  if (title == j.end() || !title->is_string())
    return LineError(path, line, "expected a string field \"title\"");
  page->title = title->get<std::string>();
  RETURN_IF_ERROR(GetId(j, "id", path, line, &page->page_id, &page->has_page_id));
  RETURN_IF_ERROR(GetId(j, "revision", path, line, &page->revision_id, nullptr));
  if (auto ts = j.find("timestamp"); ts != j.end() && ts->is_string()) page->timestamp = *ts;
  if (auto f = j.find("flags"); f != j.end() && !f->is_null()) {
    if (!f->is_array()) return LineError(path, line, "\"flags\" must be an array of strings");
    for (const auto& x : *f) {
      if (!x.is_string()) return LineError(path, line, "\"flags\" must be an array of strings");
      page->flags.push_back(x.get<std::string>());
    }
    page->has_flags = true;
  }
  return DocumentText(j, path, line, page);
}

// The fast path of ParseLine: a wiki document (not a cluster document) of the usual shape, read
// with simdjson. Returns false, with `page` in any state, for anything else: a syntax error, a
// number out of range, a repeated field, a field of another type than expected, a cluster
// document. ToPage then reads the line and gives the message.
class FastLineParser {
 public:
  // Lines longer than this go to the reference: simdjson's memory is about 14 times the longest
  // line it read, and it keeps it.
  static constexpr size_t kMaxLineBytes = 1 << 20;

  bool Parse(const std::string& path, const std::string& l, uint64_t line, SourcePage* page) {
    if (l.size() > kMaxLineBytes) return false;
    padded_.assign(l);
    padded_.reserve(l.size() + simdjson::SIMDJSON_PADDING);
    simdjson::dom::element doc;
    if (parser_.parse(padded_.data(), l.size(), false).get(doc)) return false;
    simdjson::dom::object obj;
    if (doc.get_object().get(obj)) return false;
    ResetKeepingMemory(page);
    page->location = path;
    page->location += ": line ";
    page->location += std::to_string(line);
    page->line = line;
    bool title = false, text = false, paragraphs = false;
    seen_.clear();
    for (auto field : obj) {
      if (!seen_.insert(field.key).second) return false;  // nlohmann keeps the last one
      const std::string_view key = field.key;
      const simdjson::dom::element v = field.value;
      if (key == "title") {
        std::string_view t;
        if (v.get_string().get(t)) return false;
        page->title = t;
        title = true;
      } else if (key == "id") {
        if (!Id(v, &page->page_id, &page->has_page_id)) return false;
      } else if (key == "revision") {
        bool has = false;
        if (!Id(v, &page->revision_id, &has)) return false;
      } else if (key == "timestamp") {
        std::string_view t;
        if (!v.get_string().get(t)) page->timestamp = t;
      } else if (key == "flags") {
        if (v.is_null()) continue;
        if (!Strings(v, &page->flags)) return false;
        page->has_flags = true;
      } else if (key == "paragraphs") {
        simdjson::dom::array a;
        if (v.get_array().get(a)) return false;
        size_t n = 0;  // the previous line's paragraphs are reused, then cut to n
        for (auto p : a) {
          if (n == page->paragraphs.size()) page->paragraphs.emplace_back();
          if (!Strings(p, &page->paragraphs[n++])) return false;
        }
        page->paragraphs.resize(n);
        paragraphs = true;
      } else if (key == "text") {
        std::string_view t;
        if (v.get_string().get(t)) return false;  // an error only without "paragraphs"
        page->text = t;
        text = true;
      } else if (key == "cluster") {
        return false;
      }
    }
    if (!paragraphs) page->paragraphs.clear();
    if (!title || !(paragraphs || text)) return false;
    if (paragraphs) {
      page->text.clear();
      page->format = SourcePage::Format::kSentences;
    } else {
      page->format = SourcePage::Format::kPlainText;
    }
    return true;
  }

 private:
  // GetId's accepted values: null (absent), an integer in [0, 2^64), a decimal string.
  static bool Id(const simdjson::dom::element& v, uint64_t* out, bool* has) {
    if (v.is_null()) return true;
    // An integer: 0 is left to the reference, which tells "0" from "-0" (not an id).
    if (v.is_uint64() && uint64_t(v) != 0) {
      *out = uint64_t(v);
    } else if (v.is_number()) {
      return false;
    } else {
      std::string_view s;
      if (v.get_string().get(s) || !ParseDecimalU64(std::string(s), out)) return false;
    }
    *has = true;
    return true;
  }
  // The strings of array `v` into `out`, reusing the strings it holds.
  static bool Strings(const simdjson::dom::element& v, std::vector<std::string>* out) {
    simdjson::dom::array a;
    if (v.get_array().get(a)) return false;
    size_t n = 0;
    for (auto x : a) {
      std::string_view s;
      if (x.get_string().get(s)) return false;
      if (n < out->size())
        (*out)[n].assign(s);
      else
        out->emplace_back(s);
      ++n;
    }
    out->resize(n);
    return true;
  }

  // Clears `page` for the next line but keeps its largest buffers (the paragraphs, cut to size
  // by the caller, and the text), so that reading one line after another reuses their memory.
  static void ResetKeepingMemory(SourcePage* page) {
    auto paragraphs = std::move(page->paragraphs);
    std::string text = std::move(page->text), title = std::move(page->title),
                location = std::move(page->location);
    *page = SourcePage();
    page->paragraphs = std::move(paragraphs);
    text.clear();
    title.clear();
    location.clear();
    page->text = std::move(text);
    page->title = std::move(title);
    page->location = std::move(location);
  }

  simdjson::dom::parser parser_;
  std::string padded_;
  std::unordered_set<std::string_view> seen_;
};

// Parses one line into `page`; a blank line sets `*blank`.
Status ParseLine(const std::string& path, const std::string& l, uint64_t line_no, bool* blank,
                 FastLineParser* fast, SourcePage* page) {
  *blank = l.find_first_not_of(" \t") == std::string::npos;
  if (*blank) return Status::OK();
  size_t bad = 0;
  if (!ValidUtf8(l, &bad))
    return LineError(path, line_no, "invalid UTF-8 at column " + std::to_string(bad + 1));
  if (fast && fast->Parse(path, l, line_no, page)) return Status::OK();
  nlohmann::json j = nlohmann::json::parse(l, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) {
    // Parse again with exceptions for the position and reason.
    try {
      nlohmann::json ignored = nlohmann::json::parse(l);
      (void)ignored;
    } catch (const nlohmann::json::parse_error& e) {
      std::string what = e.what();
      auto pos = what.find("] ");
      return LineError(path, line_no,
                       "not valid JSON (column " + std::to_string(e.byte) +
                           "): " + (pos == std::string::npos ? what : what.substr(pos + 2)));
    } catch (const nlohmann::json::exception& e) {
      // Not a syntax error: a number out of range (1e999) and the like.
      std::string what = e.what();
      auto pos = what.find("] ");
      return LineError(
          path, line_no,
          "not usable JSON: " + (pos == std::string::npos ? what : what.substr(pos + 2)));
    }
    return LineError(path, line_no, "not valid JSON");
  }
  return ToPage(j, path, line_no, page);
}

}  // namespace

Status ParseDocumentLine(const std::string& path, const std::string& line, uint64_t line_no,
                         bool reference, SourcePage* page) {
  FastLineParser fast;
  bool blank = false;
  return ParseLine(path, line, line_no, &blank, reference ? nullptr : &fast, page);
}

Status ReadDocumentJsonl(const std::string& path, const PageCallback& on_page, DumpInfo* info) {
  DumpInfo local;
  if (!info) info = &local;
  std::unique_ptr<ByteSource> src;
  // A .jsonl.bz2 is decompressed block by block on all cores, as a dump is.
  RETURN_IF_ERROR(OpenParallelByteSource(path, 0, &src));
  std::vector<char> buf(1 << 18);
  SourcePage page;
  LineSplitter lines;
  FastLineParser fast;
  auto handle = [&](std::string& l, uint64_t line_no) -> Status {
    bool blank = false;
    RETURN_IF_ERROR(ParseLine(path, l, line_no, &blank, &fast, &page));
    if (blank) return Status::OK();  // blank lines are allowed
    ++info->pages;
    info->bytes = src->file_offset();
    return on_page(page, *info);
  };
  for (;;) {
    size_t got = 0;
    RETURN_IF_ERROR(src->Read(buf.data(), buf.size(), &got));
    if (got == 0) break;
    RETURN_IF_ERROR(lines.Feed(std::string_view(buf.data(), got), handle));
  }
  RETURN_IF_ERROR(lines.Finish(handle));
  info->bytes = src->file_offset();
  return Status::OK();
}

}  // namespace aligndb

// Streaming MediaWiki XML reader on expat. Only the fields aligndb keeps are collected; the
// text of every other element is ignored as it streams past.
#include "dump/dump.h"

#include <expat.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include "dump/bz2_parallel.h"
#include "dump/bz2_reader.h"
#include "util/numbers.h"
#include "util/utf8.h"

namespace aligndb {
namespace {

constexpr size_t kChunk = 1 << 18;

enum class Field { kNone, kDbName, kTitle, kNs, kPageId, kRevisionId, kTimestamp, kText };

class MediaWikiParser {
 public:
  MediaWikiParser(const std::string& path, const PageCallback& cb, DumpInfo* info,
                  uint64_t max_page_bytes)
      : path_(path), cb_(cb), info_(info), max_page_bytes_(max_page_bytes) {
    parser_ = XML_ParserCreate("UTF-8");
    XML_SetUserData(parser_, this);
    XML_SetElementHandler(parser_, &Start, &End);
    XML_SetCharacterDataHandler(parser_, &Chars);
  }
  ~MediaWikiParser() { XML_ParserFree(parser_); }

  Status Run(std::unique_ptr<ByteSource> src = nullptr) {
    // bz2 blocks are decompressed on all cores while this thread parses.
    if (!src) RETURN_IF_ERROR(OpenParallelByteSource(path_, 0, &src));
    source_ = src.get();
    std::vector<char> buf(kChunk);
    for (;;) {
      size_t got = 0;
      Status read = src->Read(buf.data(), buf.size(), &got);
      if (!read.ok()) return read;  // pages before the fault were already handed over
      Status fed = Feed(buf.data(), got, src->data_offset() - got, got == 0);
      if (!fed.ok()) {
        // Damaged bz2 data decompresses to garbage before its block's CRC fails: report the
        // damage, not the garbage.
        if (callback_status_.ok()) RETURN_IF_ERROR(FindBz2Damage(src.get()));  // not the caller's
        return fed;
      }
      if (got == 0) break;
    }
    info_->bytes = src->file_offset();
    if (!saw_root_)
      return Status::Corruption(path_ + ": empty input, expected a MediaWiki XML export");
    return Status::OK();
  }

  // Pushes `len` bytes that start at offset `start` of the XML; `final` on the last call.
  Status Feed(const char* data, size_t len, uint64_t start, bool final) {
    buffer_ = data;
    buffer_len_ = len;
    buffer_start_ = start;
    if (XML_Parse(parser_, data, static_cast<int>(len), final) == XML_STATUS_ERROR) {
      if (!callback_status_.ok()) return callback_status_;
      if (!structure_status_.ok()) return structure_status_;
      return XmlError();
    }
    return Status::OK();
  }

  // True when the root element is open and no page is: a point where a stream of a multistream
  // file may end and the document may be closed.
  bool BetweenPages() const { return depth_ == 1 && !in_page_; }
  // Hand over every revision of a page, not only the first.
  void set_every_revision() { every_revision_ = true; }
  void set_location_prefix(std::string p) { location_prefix_ = std::move(p); }

 private:
  Status XmlError() {
    uint64_t at = static_cast<uint64_t>(XML_GetCurrentByteIndex(parser_));
    uint64_t line = XML_GetCurrentLineNumber(parser_);
    std::string what = XML_ErrorString(XML_GetErrorCode(parser_));
    XML_Error code = XML_GetErrorCode(parser_);
    // The parser failing to allocate says nothing about the file: a resource error, not bad input.
    if (code == XML_ERROR_NO_MEMORY)
      return Status::IOError(path_ + ": out of memory parsing the XML at byte " +
                             std::to_string(at));
    if (code == XML_ERROR_INVALID_TOKEN && at >= buffer_start_ &&
        at < buffer_start_ + buffer_len_) {
      size_t bad = 0;
      const char* p = buffer_ + (at - buffer_start_);
      size_t n = buffer_start_ + buffer_len_ - at;
      if (!ValidUtf8(std::string_view(p, n > 64 ? 64 : n), &bad) && bad < 8) {
        what = "invalid UTF-8";
        at += bad;
      }
    }
    if (code == XML_ERROR_NO_ELEMENTS || code == XML_ERROR_UNCLOSED_TOKEN ||
        code == XML_ERROR_UNCLOSED_CDATA_SECTION) {
      what += " (the XML ends early: truncated file?)";
    }
    std::string msg = path_ + ": malformed XML at byte " + std::to_string(at) + " (line " +
                      std::to_string(line) + ")";
    if (source_ && source_->file_offset() != source_->data_offset())
      msg += " of the uncompressed data";
    return Status::Corruption(msg + ": " + what);
  }

  static void Start(void* self, const XML_Char* name, const XML_Char** attrs) {
    static_cast<MediaWikiParser*>(self)->OnStart(name, attrs);
  }
  static void End(void* self, const XML_Char* name) {
    static_cast<MediaWikiParser*>(self)->OnEnd(name);
  }
  static void Chars(void* self, const XML_Char* s, int len) {
    auto* p = static_cast<MediaWikiParser*>(self);
    if (p->field_ == Field::kNone) return;
    if (p->field_ == Field::kText && p->max_page_bytes_ > 0 &&
        (p->page_.oversize_text_bytes > 0 || p->chars_.size() + len > p->max_page_bytes_)) {
      // Too long: counted, not kept, so that memory stays bounded.
      if (p->page_.oversize_text_bytes == 0) {
        p->page_.oversize_text_bytes = p->chars_.size();
        std::string().swap(p->chars_);
      }
      p->page_.oversize_text_bytes += static_cast<uint64_t>(len);
      return;
    }
    p->chars_.append(s, static_cast<size_t>(len));
  }

  // Stops parsing with an error in the shape of the document (not in its XML).
  void Fail(const std::string& what) {
    if (structure_status_.ok()) structure_status_ = Status::Corruption(Here() + ": " + what);
    XML_StopParser(parser_, XML_FALSE);
  }

  // "file: byte N" at the current parse position.
  std::string Here() const {
    std::string at = path_ + ": byte " + std::to_string(XML_GetCurrentByteIndex(parser_));
    if (source_ && source_->file_offset() != source_->data_offset()) at += " (uncompressed)";
    return at;
  }

  void OnStart(const char* name, const char** attrs) {
    ++depth_;
    if (depth_ == 1) {
      if (std::strcmp(name, "mediawiki") != 0)
        return Fail("the root element is <" + std::string(name) +
                    ">, expected <mediawiki> (a MediaWiki XML export)");
      saw_root_ = true;
      for (const char** a = attrs; *a; a += 2)
        if (std::strcmp(a[0], "version") == 0) info_->schema_version = a[1];
      return;
    }
    field_ = Field::kNone;
    chars_.clear();
    if (std::strcmp(name, "page") == 0 && (in_page_ || depth_ != 2))
      return Fail(in_page_ ? "a <page> inside the <page> that starts at " + page_.location
                           : "a <page> that is not a child of <mediawiki>");
    if (!in_page_) {
      if (std::strcmp(name, "page") == 0) {
        in_page_ = true;
        page_depth_ = depth_;
        page_ = SourcePage();
        page_.location = location_prefix_.empty() ? Here() : location_prefix_;
      } else if (std::strcmp(name, "dbname") == 0) {
        field_ = Field::kDbName;
      }
      return;
    }
    int rel = depth_ - page_depth_;
    if (rel == 1) {
      if (std::strcmp(name, "title") == 0)
        field_ = Field::kTitle;
      else if (std::strcmp(name, "ns") == 0)
        field_ = Field::kNs;
      else if (std::strcmp(name, "id") == 0)
        field_ = Field::kPageId;
      else if (std::strcmp(name, "revision") == 0) {
        in_revision_ = true;
        ++revisions_;
      } else if (std::strcmp(name, "redirect") == 0) {
        page_.is_redirect = true;
        for (const char** a = attrs; *a; a += 2)
          if (std::strcmp(a[0], "title") == 0) page_.redirect_target = a[1];
      }
    } else if (rel == 2 && in_revision_ && (revisions_ == 1 || every_revision_)) {
      // Only the first revision of a page is read (pages-articles holds exactly one).
      if (std::strcmp(name, "id") == 0)
        field_ = Field::kRevisionId;
      else if (std::strcmp(name, "timestamp") == 0)
        field_ = Field::kTimestamp;
      else if (std::strcmp(name, "text") == 0)
        field_ = Field::kText;
    }
  }

  void OnEnd(const char* name) {
    if (field_ != Field::kNone) StoreField();
    field_ = Field::kNone;
    if (!structure_status_.ok()) return;  // a bad field: the page is not handed over
    if (in_page_) {
      int rel = depth_ - page_depth_;
      if (rel == 0) {
        in_page_ = false;
        in_revision_ = false;
        bool hand_over = !every_revision_ || revisions_ == 0;  // a page without revisions too
        revisions_ = 0;
        if (hand_over) HandOver();
      } else if (rel == 1 && std::strcmp(name, "revision") == 0) {
        in_revision_ = false;
        if (every_revision_) {
          HandOver();
          page_.revision_id = 0;
          page_.timestamp.clear();
          page_.text.clear();
          page_.oversize_text_bytes = 0;
        }
      }
    }
    --depth_;
  }

  void HandOver() {
    ++info_->pages;
    if (source_) info_->bytes = source_->file_offset();
    Status st = cb_(page_, *info_);
    if (!st.ok()) {
      callback_status_ = std::move(st);
      XML_StopParser(parser_, XML_FALSE);
    }
  }

  // Parses an id of the page; a value that is not a decimal integer in [0, 2^64) is an error.
  void StoreId(const char* what, uint64_t* out) {
    if (!ParseDecimalU64(chars_, out))
      Fail(std::string(what) + " \"" + chars_.substr(0, 40) +
           "\" is not a decimal integer in [0, 2^64) (page at " + page_.location + ")");
  }

  void StoreField() {
    switch (field_) {
      case Field::kDbName:
        info_->dbname = chars_;
        info_->dbname_offset = static_cast<uint64_t>(XML_GetCurrentByteIndex(parser_));
        break;
      case Field::kTitle:
        page_.title = chars_;
        break;
      case Field::kNs:
        if (!ParseDecimalI32(chars_, &page_.ns))
          Fail("namespace \"" + chars_.substr(0, 40) + "\" is not a 32-bit integer (page at " +
               page_.location + ")");
        break;
      case Field::kPageId:
        StoreId("page id", &page_.page_id);
        page_.has_page_id = true;
        break;
      case Field::kRevisionId:
        StoreId("revision id", &page_.revision_id);
        break;
      case Field::kTimestamp:
        page_.timestamp = chars_;
        break;
      case Field::kText:
        page_.text.swap(chars_);
        break;
      case Field::kNone:
        break;
    }
    chars_.clear();
  }

  std::string path_;
  std::string location_prefix_;
  const PageCallback& cb_;
  DumpInfo* info_;
  uint64_t max_page_bytes_;
  XML_Parser parser_;
  ByteSource* source_ = nullptr;
  const char* buffer_ = nullptr;
  size_t buffer_len_ = 0;
  uint64_t buffer_start_ = 0;
  Status callback_status_;   // the page callback's error
  Status structure_status_;  // the document is not a MediaWiki export (Fail)

  int depth_ = 0;
  bool saw_root_ = false;
  bool in_page_ = false;
  int page_depth_ = 0;
  bool in_revision_ = false;
  int revisions_ = 0;
  bool every_revision_ = false;
  Field field_ = Field::kNone;
  std::string chars_;
  SourcePage page_;
};

}  // namespace

Status ReadMediaWikiDump(const std::string& path, const PageCallback& on_page, DumpInfo* info,
                         uint64_t max_page_bytes) {
  DumpInfo local;
  if (!info) info = &local;
  MediaWikiParser parser(path, on_page, info, max_page_bytes);
  return parser.Run();
}

Status ReadMediaWikiRevisions(const std::string& path, const PageCallback& on_revision,
                              DumpInfo* info, uint64_t max_page_bytes) {
  DumpInfo local;
  if (!info) info = &local;
  MediaWikiParser parser(path, on_revision, info, max_page_bytes);
  parser.set_every_revision();
  return parser.Run();
}

Status ReadMediaWikiSource(const std::string& path, std::unique_ptr<ByteSource> source,
                           const PageCallback& on_page, DumpInfo* info, uint64_t max_page_bytes) {
  DumpInfo local;
  if (!info) info = &local;
  MediaWikiParser parser(path, on_page, info, max_page_bytes);
  return parser.Run(std::move(source));
}

namespace {

// Reads all of a byte source into `out`.
Status ReadAll(ByteSource* src, std::string* out) {
  char buf[1 << 16];
  for (;;) {
    size_t got = 0;
    RETURN_IF_ERROR(src->Read(buf, sizeof(buf), &got));
    if (got == 0) return Status::OK();
    out->append(buf, got);
  }
}

struct StreamIndex {
  std::vector<uint64_t> offsets;  // stream starts, ascending
  std::vector<bool> wanted;
};

Status ReadStreamIndex(const MultistreamOptions& options, StreamIndex* index) {
  std::unique_ptr<ByteSource> src;
  RETURN_IF_ERROR(OpenByteSource(options.index_path, &src));
  std::string text;
  RETURN_IF_ERROR(ReadAll(src.get(), &text));
  uint64_t line_no = 0;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    if (nl == std::string::npos) nl = text.size();
    std::string_view line(text.data() + pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (line.empty()) continue;
    size_t c1 = line.find(':');
    size_t c2 = c1 == std::string_view::npos ? c1 : line.find(':', c1 + 1);
    if (c2 == std::string_view::npos)
      return Status::Corruption(options.index_path + ": line " + std::to_string(line_no) +
                                ": expected offset:page_id:title");
    uint64_t offset = 0;
    for (char c : line.substr(0, c1)) {
      if (c < '0' || c > '9')
        return Status::Corruption(options.index_path + ": line " + std::to_string(line_no) +
                                  ": bad offset");
      offset = offset * 10 + static_cast<uint64_t>(c - '0');
    }
    if (index->offsets.empty() || offset != index->offsets.back()) {
      if (!index->offsets.empty() && offset < index->offsets.back())
        return Status::Corruption(options.index_path + ": line " + std::to_string(line_no) +
                                  ": offsets must not decrease");
      index->offsets.push_back(offset);
      index->wanted.push_back(false);
    }
    if (!options.want_title && !options.want_page) {
      index->wanted.back() = true;
      continue;
    }
    uint64_t page_id = 0;
    if (options.want_page && ParseDecimalU64(line.substr(c1 + 1, c2 - c1 - 1), &page_id) &&
        options.want_page(page_id))
      index->wanted.back() = true;
    if (options.want_title && options.want_title(std::string(line.substr(c2 + 1))))
      index->wanted.back() = true;
  }
  if (index->offsets.empty()) return Status::Corruption(options.index_path + ": empty index");
  return Status::OK();
}

struct DecompressedStream {
  Status status;
  std::string data;
  bool ready = false;
};

// Decompresses the streams in [begin, end) of `path`, a range that `index_path` says holds whole
// streams, into `out`.
Status DecompressRange(const std::string& path, const std::string& index_path, uint64_t begin,
                       uint64_t end, std::string* out) {
  bool not_whole = false;
  Status s = DecompressBz2Range(path, begin, end, out, &not_whole);
  if (not_whole)
    return Status::Corruption(index_path + ": the index does not match " + path + ": bytes " +
                              std::to_string(begin) + " to " + std::to_string(end) +
                              " are not whole bz2 streams (the index of another dump, or a "
                              "damaged dump)");
  return s;
}

// Decompresses the selected streams on worker threads into a window of 2 × threads slots (so
// memory stays bounded), and hands them out in file order.
class ParallelStreams {
 public:
  ParallelStreams(const std::string& path, const std::string& index_path, const StreamIndex& index,
                  uint64_t file_size, const std::vector<size_t>& selected, int threads)
      : path_(path),
        index_path_(index_path),
        index_(index),
        file_size_(file_size),
        selected_(selected),
        window_(static_cast<size_t>(2 * threads)),
        slots_(window_) {
    try {
      for (int t = 0; t < threads; ++t) pool_.emplace_back([this] { Work(); });
    } catch (const std::exception& e) {  // std::system_error, or bad_alloc growing the pool
      // Fewer threads than asked (address-space or process limits): go on with those started.
      if (pool_.empty())
        start_error_ = Status::IOError(path + ": cannot start a decompression thread (" + e.what() +
                                       "); try fewer --threads");
    }
  }
  ~ParallelStreams() {
    {
      std::lock_guard<std::mutex> lock(mu_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& t : pool_) t.join();
  }

  // Waits for the k-th selected stream; k = 0, 1, 2, ... in turn.
  DecompressedStream Take(size_t k) {
    DecompressedStream stream;
    if (pool_.empty()) {
      stream.status = start_error_;
      return stream;
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      cv_.wait(lock, [&] { return slots_[k % window_].ready; });
      stream = std::move(slots_[k % window_]);
      slots_[k % window_] = DecompressedStream();
      ++consumed_;
    }
    cv_.notify_all();
    return stream;
  }

 private:
  void Work() {
    for (;;) {
      size_t k;
      {
        std::unique_lock<std::mutex> lock(mu_);
        cv_.wait(lock, [&] {
          return stop_ || (next_task_ < selected_.size() && next_task_ < consumed_ + window_);
        });
        if (stop_ || next_task_ >= selected_.size()) return;
        k = next_task_++;
      }
      size_t i = selected_[k];
      uint64_t begin = index_.offsets[i];
      uint64_t end = i + 1 < index_.offsets.size() ? index_.offsets[i + 1] : file_size_;
      DecompressedStream result;
      result.status = DecompressNoThrow(begin, end, &result.data);
      result.ready = true;
      {
        std::lock_guard<std::mutex> lock(mu_);
        slots_[k % window_] = std::move(result);
      }
      cv_.notify_all();
    }
  }

  // Nothing thrown may leave a worker thread (it would abort the process).
  Status DecompressNoThrow(uint64_t begin, uint64_t end, std::string* data) {
    try {
      return DecompressRange(path_, index_path_, begin, end, data);
    } catch (const std::bad_alloc&) {
      data->clear();
      data->shrink_to_fit();
      return Status::IOError(path_ + ": out of memory decompressing the stream at byte " +
                             std::to_string(begin));
    } catch (const std::exception& e) {
      return Status::Internal(path_ + ": stream at byte " + std::to_string(begin) + ": " +
                              e.what());
    }
  }

  const std::string& path_;
  const std::string& index_path_;
  const StreamIndex& index_;
  const uint64_t file_size_;
  const std::vector<size_t>& selected_;
  const size_t window_;
  std::vector<DecompressedStream> slots_;
  std::mutex mu_;
  std::condition_variable cv_;
  size_t next_task_ = 0, consumed_ = 0;
  bool stop_ = false;
  Status start_error_;
  std::vector<std::thread> pool_;
};

// Parses the selected streams in order; the header was fed before.
Status ParseStreams(const std::string& path, const std::string& index_path,
                    const StreamIndex& index, uint64_t file_size, int threads,
                    MediaWikiParser* parser, DumpInfo* info, uint64_t* data_offset) {
  std::vector<size_t> selected;
  for (size_t i = 0; i < index.offsets.size(); ++i)
    if (index.wanted[i]) selected.push_back(i);
  // Decompression is CPU-bound: more than 4 threads a core only add stacks, malloc arenas and
  // window slots (each a whole decompressed stream), and no thread more than there are streams.
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<int>(std::min<size_t>(
      {static_cast<size_t>(threads), 4 * cores, std::max<size_t>(selected.size(), 1)}));
  ParallelStreams streams(path, index_path, index, file_size, selected, threads);
  for (size_t k = 0; k < selected.size(); ++k) {
    DecompressedStream stream = streams.Take(k);
    RETURN_IF_ERROR(stream.status);
    ++info->streams_read;
    uint64_t offset = index.offsets[selected[k]];
    info->bytes = offset;
    parser->set_location_prefix(path + ": stream at byte " + std::to_string(offset));
    RETURN_IF_ERROR(parser->Feed(stream.data.data(), stream.data.size(), *data_offset, false));
    *data_offset += stream.data.size();
  }
  return Status::OK();
}

}  // namespace

Status ReadMultistreamDump(const std::string& path, const MultistreamOptions& options,
                           const PageCallback& on_page, DumpInfo* info) {
  DumpInfo local;
  if (!info) info = &local;
  StreamIndex index;
  RETURN_IF_ERROR(ReadStreamIndex(options, &index));
  std::error_code ec;
  uint64_t file_size = std::filesystem::file_size(path, ec);
  if (ec) return Status::IOError(path + ": " + ec.message());
  if (index.offsets.back() >= file_size)
    return Status::Corruption(options.index_path + ": stream offset " +
                              std::to_string(index.offsets.back()) + " is past the end of " + path +
                              " (" + std::to_string(file_size) + " bytes)");
  info->streams_total = index.offsets.size();

  MediaWikiParser parser(path, on_page, info, options.max_page_bytes);
  // The header (<mediawiki>, <siteinfo>) is everything before the first indexed stream.
  std::string header;
  RETURN_IF_ERROR(DecompressRange(path, options.index_path, 0, index.offsets[0], &header));
  RETURN_IF_ERROR(parser.Feed(header.data(), header.size(), 0, false));
  int threads =
      options.threads > 0 ? options.threads : static_cast<int>(std::thread::hardware_concurrency());
  uint64_t data_offset = header.size();
  RETURN_IF_ERROR(ParseStreams(path, options.index_path, index, file_size, std::max(threads, 1),
                               &parser, info, &data_offset));
  // The last stream (with </mediawiki>) may have been skipped: close the document.
  if (parser.BetweenPages()) {
    static const char kClose[] = "</mediawiki>";
    RETURN_IF_ERROR(parser.Feed(kClose, sizeof(kClose) - 1, data_offset, false));
  }
  RETURN_IF_ERROR(parser.Feed(nullptr, 0, data_offset, true));
  info->bytes = file_size;
  return Status::OK();
}

namespace {

// What DetectInputKind found for a file, by path, size and modification time: a command checks
// its inputs before it opens the database and again when it reads them, and finding the kind of
// a .bz2 file decodes its whole first block (about 900 kB).
struct KnownKind {
  std::string path;
  uintmax_t size = 0;
  std::filesystem::file_time_type mtime;
  InputKind kind;
};
std::mutex known_kinds_mutex;
std::vector<KnownKind> known_kinds;  // the last few files detected
constexpr size_t kKnownKinds = 64;

Status DetectInputKindUncached(const std::string& path, InputKind* kind);

}  // namespace

Status DetectInputKind(const std::string& path, InputKind* kind) {
  // An input is opened more than once (here, then by its reader): a pipe would block the
  // second open forever.
  std::error_code ec;
  const auto type = std::filesystem::status(path, ec).type();
  if (!ec && type != std::filesystem::file_type::regular &&
      type != std::filesystem::file_type::directory)
    return Status::InvalidArgument(path +
                                   ": not a regular file (a pipe or a device): aligndb reads an "
                                   "input more than once; save it to a file first");
  std::error_code size_ec, time_ec;
  const uintmax_t size = std::filesystem::file_size(path, size_ec);
  const auto mtime = std::filesystem::last_write_time(path, time_ec);
  // Only compressed files are worth remembering (a plain file's kind costs one 4 kB read), and
  // only they: a file rewritten within the file system's timestamp granularity keeps its mtime.
  const bool compressed = path.size() > 4 && path.compare(path.size() - 4, 4, ".bz2") == 0;
  const bool cacheable =
      compressed && !ec && type == std::filesystem::file_type::regular && !size_ec && !time_ec;
  if (cacheable) {
    std::lock_guard<std::mutex> lock(known_kinds_mutex);
    for (const KnownKind& k : known_kinds)
      if (k.path == path && k.size == size && k.mtime == mtime) {
        *kind = k.kind;
        return Status::OK();
      }
  }
  RETURN_IF_ERROR(DetectInputKindUncached(path, kind));
  if (cacheable) {
    std::lock_guard<std::mutex> lock(known_kinds_mutex);
    if (known_kinds.size() >= kKnownKinds) known_kinds.erase(known_kinds.begin());
    known_kinds.push_back({path, size, mtime, *kind});
  }
  return Status::OK();
}

namespace {

Status DetectInputKindUncached(const std::string& path, InputKind* kind) {
  std::unique_ptr<ByteSource> src;
  RETURN_IF_ERROR(OpenByteSource(path, &src));
  char buf[4096];
  for (;;) {
    size_t got = 0;
    RETURN_IF_ERROR(src->Read(buf, sizeof(buf), &got));
    if (got == 0) return Status::Corruption(path + ": empty input");
    for (size_t i = 0; i < got; ++i) {
      unsigned char c = static_cast<unsigned char>(buf[i]);
      if (c == ' ' || c == '\n' || c == '\r' || c == '\t') continue;
      if (c == 0xEF && i + 2 < got && static_cast<unsigned char>(buf[i + 1]) == 0xBB) {
        i += 2;  // UTF-8 byte order mark
        continue;
      }
      if (c == '<') {
        *kind = InputKind::kMediaWikiXml;
        return Status::OK();
      }
      if (c == '{') {
        *kind = InputKind::kDocumentJsonl;
        return Status::OK();
      }
      RETURN_IF_ERROR(FindBz2Damage(src.get()));  // garbage from a damaged bz2 block
      if (!src->compressed() && path.size() > 4 && path.compare(path.size() - 4, 4, ".bz2") == 0)
        return Status::Corruption(
            path + ": byte 0: not a bzip2 file: it does not start with \"BZh\" " +
            (static_cast<unsigned char>(buf[0]) == 0x1f && got > 1 &&
                     static_cast<unsigned char>(buf[1]) == 0x8b
                 ? std::string("but with gzip's 1f 8b (a gzip file named .bz2?)")
                 : std::string("(a damaged or incomplete download?)")));
      return Status::Corruption(path + ": byte " + std::to_string(src->data_offset() - got + i) +
                                ": expected a MediaWiki XML export ('<') or JSON lines ('{')");
    }
  }
}

}  // namespace

}  // namespace aligndb

// Reading input corpora (docs/method.md, Input): the page type every reader hands over, and the
// MediaWiki XML readers (.xml, .xml.bz2, multistream .bz2 through its index). Document JSON lines
// are read by dump/jsonl.h. Readers stream: they hand one page at a time to a callback and keep
// memory flat whatever the size of the input.
#ifndef ALIGNDB_DUMP_DUMP_H_
#define ALIGNDB_DUMP_DUMP_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "aligndb/status.h"

namespace aligndb {

// One page (or document) as it comes from the input, before any text processing.
struct SourcePage {
  enum class Format {
    kWikitext,   // MediaWiki markup (XML dumps)
    kPlainText,  // clean text, paragraphs separated by newlines (JSONL "text")
    kSentences,  // already split (JSONL "paragraphs")
  };

  std::string title;
  int32_t ns = 0;
  uint64_t page_id = 0;
  bool has_page_id = false;
  uint64_t revision_id = 0;
  std::string timestamp;
  bool is_redirect = false;
  std::string redirect_target;
  Format format = Format::kWikitext;
  std::string text;                                  // kWikitext, kPlainText
  std::vector<std::vector<std::string>> paragraphs;  // kSentences
  std::vector<std::string> flags;                    // flags given by the input (JSONL)
  std::string cluster;                               // news cluster (cluster JSONL), else empty
  bool has_flags = false;
  // Where the page starts, for messages: "file.xml.bz2: byte 1234" or "docs.jsonl: line 7".
  std::string location;
  // JSON lines: the 1-based line of the document. XML: 0.
  uint64_t line = 0;
  // XML: the page's text was longer than the reader's max_page_bytes; this is its length and
  // `text` is empty (the text was dropped as it streamed past, so memory stayed bounded).
  uint64_t oversize_text_bytes = 0;
};

// The largest page text (wikitext bytes) readers keep by default: the longest real Wikipedia
// pages hold 2–4 MB of wikitext; a decompression bomb (hundreds of MB from a few kB of bz2)
// does not pass.
constexpr uint64_t kDefaultMaxPageBytes = 16 << 20;

// What the reader learned about the whole input.
struct DumpInfo {
  std::string dbname;          // <siteinfo><dbname>, empty when absent
  uint64_t dbname_offset = 0;  // byte of the XML (uncompressed) where </dbname> was read
  std::string schema_version;  // "0.10" from <mediawiki version=...>
  uint64_t pages = 0;          // pages handed to the callback
  uint64_t bytes = 0;          // input bytes read (compressed bytes for .bz2)
  uint64_t streams_total = 0;  // multistream with index: streams listed in the index
  uint64_t streams_read = 0;   // multistream with index: streams decompressed
};

// Called once per page. Returning a failed Status stops reading with that Status.
// `info` holds what the reader knows so far (dbname is known before the first page).
using PageCallback = std::function<Status(const SourcePage& page, const DumpInfo& info)>;

// Streams a MediaWiki XML export. Pages of every namespace are handed over (the caller
// decides what to keep). The root element must be <mediawiki> and each <page> its child; page,
// revision and namespace ids must be decimal integers that fit (uint64, int32 for <ns>). Errors
// name the file and the byte offset (in the uncompressed XML) and line, or, for bz2 damage, the
// stream and the compressed byte offset (also when the damage first shows as malformed XML).
// A page whose text is longer than `max_page_bytes` is handed over with oversize_text_bytes set
// and no text (0: no limit).
Status ReadMediaWikiDump(const std::string& path, const PageCallback& on_page, DumpInfo* info,
                         uint64_t max_page_bytes = kDefaultMaxPageBytes);

// As ReadMediaWikiDump, but hands over every <revision> of every page (history and adds-changes
// dumps hold several): one SourcePage per revision, with the page's title, namespace, id and
// redirect, in file order.
Status ReadMediaWikiRevisions(const std::string& path, const PageCallback& on_revision,
                              DumpInfo* info, uint64_t max_page_bytes = kDefaultMaxPageBytes);

class ByteSource;
// As ReadMediaWikiDump, reading the XML from `source` (e.g. a gzip decompressor); `path` names it
// in messages.
Status ReadMediaWikiSource(const std::string& path, std::unique_ptr<ByteSource> source,
                           const PageCallback& on_page, DumpInfo* info,
                           uint64_t max_page_bytes = kDefaultMaxPageBytes);

struct MultistreamOptions {
  // The dump's "-index.txt.bz2" (lines "offset:page_id:title"; plain text also accepted).
  std::string index_path;
  // Threads that decompress streams. Default: 0 = all cores.
  int threads = 0;
  // When set, only the streams holding at least one title for which this returns true are read.
  // Default: every stream.
  std::function<bool(const std::string& title)> want_title;
  // When set, only the streams holding at least one page id for which this returns true are
  // read (with want_title: a stream either selects is read). Default: every stream.
  std::function<bool(uint64_t page_id)> want_page;
  // As for ReadMediaWikiDump. Default: kDefaultMaxPageBytes.
  uint64_t max_page_bytes = kDefaultMaxPageBytes;
};

// Reads a multistream .bz2 dump through its index: the streams are decompressed in parallel,
// in a bounded window (memory stays flat), and parsed in file order. Errors name the file and
// the stream's byte offset, or the index file and line. An index whose offsets are not the
// dump's stream boundaries is reported as not matching the dump.
Status ReadMultistreamDump(const std::string& path, const MultistreamOptions& options,
                           const PageCallback& on_page, DumpInfo* info);

enum class InputKind { kMediaWikiXml, kDocumentJsonl };
// Looks at the first non-blank bytes of the (decompressed) file: '<' → XML, '{' → JSONL.
Status DetectInputKind(const std::string& path, InputKind* kind);

}  // namespace aligndb

#endif  // ALIGNDB_DUMP_DUMP_H_

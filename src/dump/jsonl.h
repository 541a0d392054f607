// Document JSON lines (docs/method.md, Input): one document per line, streamed page by page.
#ifndef ALIGNDB_DUMP_JSONL_H_
#define ALIGNDB_DUMP_JSONL_H_

#include <string>

#include "aligndb/status.h"
#include "dump/dump.h"

namespace aligndb {

// Streams document JSON lines: {"title", "id"?, "revision"?, "timestamp"?, "flags"?, "text"} or
// {"title", ..., "paragraphs": [[sentence, ...], ...]}; and news clusters {"cluster", "doc",
// "sentences": [...]} or {"cluster", "doc", "text"}, whose title becomes "cluster/doc". Ids are
// JSON integers or decimal strings in [0, 2^64). The file may be bz2-compressed; blank lines are
// skipped; "\r\n" line ends are accepted. Errors name the file and the line.
Status ReadDocumentJsonl(const std::string& path, const PageCallback& on_page, DumpInfo* info);

// One non-blank line of such a file (`line_no` for messages): the reader's way, which takes the
// usual documents on simdjson and falls back to nlohmann::json, or with `reference`, nlohmann::json
// alone: the plain reference that tests compare the reader's way with.
Status ParseDocumentLine(const std::string& path, const std::string& line, uint64_t line_no,
                         bool reference, SourcePage* page);

}  // namespace aligndb

#endif  // ALIGNDB_DUMP_JSONL_H_

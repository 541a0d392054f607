// Inputs of incremental updates (docs/incremental.md): Wikimedia's stub dumps (every page's
// metadata without its text) and adds-changes dumps (every revision made on one day).
#ifndef ALIGNDB_DUMP_STUBS_H_
#define ALIGNDB_DUMP_STUBS_H_

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

#include "aligndb/status.h"
#include "dump/dump.h"

namespace aligndb {

// One page of a stub dump: what a stub says about the page's current revision.
struct StubPage {
  uint64_t page_id = 0;
  int32_t ns = 0;
  std::string title;
  uint64_t revision_id = 0;
  bool is_redirect = false;
  std::string location;  // for messages
};

using StubCallback = std::function<Status(const StubPage& page, const DumpInfo& info)>;

// Streams a stub dump (MediaWiki export 0.10/0.11 whose <text bytes=".." sha1=".." /> elements
// are empty) from .xml, .xml.gz or .xml.bz2 (chosen by the file's magic bytes). A page without
// an <id> is Corruption; errors name the file and byte offset, as ReadMediaWikiDump, so a
// truncated file fails at its end (the caller must act only after this returned OK).
Status ReadStubDump(const std::string& path, const StubCallback& on_page, DumpInfo* info);

// The date of an adds-changes file, "YYYYMMDD" as Wikimedia puts it in the file name
// (enwiki-20261121-pages-meta-hist-incr.xml.bz2): the last run of exactly 8 digits in the file
// name (not the directory) that reads as a date from 2001. False when there is none.
bool ChangeFileDate(const std::string& path, std::string* date);

// Orders adds-changes files by ChangeFileDate, oldest first (files of one date keep their
// order). InvalidArgument naming a file without a date.
Status OrderChangeFiles(std::vector<std::string>* files);

// The newest revision id of each page (by page id) in an adds-changes file, which may hold
// several revisions of a page, in any order, in one or several <page> elements. Reads the file
// without keeping any text (memory: ~40 bytes per page).
Status NewestRevisions(const std::string& path, std::unordered_map<uint64_t, uint64_t>* newest);

}  // namespace aligndb

#endif  // ALIGNDB_DUMP_STUBS_H_

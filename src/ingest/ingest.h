// Orchestration: ingesting input files into the store (dump → text → store).
#ifndef ALIGNDB_INGEST_INGEST_H_
#define ALIGNDB_INGEST_INGEST_H_

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "aligndb/status.h"
#include "storage/store.h"
#include "text/text.h"

namespace aligndb {

struct IngestOptions {
  // Edition name for every input file. Default: empty (XML: <siteinfo><dbname>; JSONL: required).
  // Edition names, wherever they come from, must pass IsValidEditionName.
  std::string edition;
  TextOptions text;
  // Threads cleaning, splitting and tokenizing pages (the reading thread runs beside them).
  // Default: 0 = all cores.
  int text_threads = 0;
  // The input files are a complete dump of their editions: pages of those editions that the
  // files do not hold are deleted. Default: false.
  bool full = false;
  // Multistream dump index ("-index.txt.bz2"): read the one input file through it, decompressing
  // streams on `threads` threads. Default: empty (read the file from start to end).
  std::string index;
  // Threads decompressing streams with `index`. Default: 0 = all cores.
  int threads = 0;
  // Stub dump (.xml, .xml.gz or .xml.bz2; pages without text) of the one multistream input
  // file's edition, read first and whole; needs `index`. Only the streams holding pages that
  // the stubs list as new or changed (revision id, title, namespace 0 or redirect ↔ article
  // differ from the stored page) are decompressed. With `full`, the stored pages that neither
  // the stubs (in namespace 0) nor the streams read hold are deleted. A page the dump holds in
  // another revision than the stub says is stored as the dump has it and counted in
  // stub_mismatch. The edition is `edition`, else the stub's <dbname>. The summary's `pages`,
  // `unchanged` and `articles_by_edition` count the pages of the streams read. Default: empty.
  std::string stubs;
  // The input files are adds-changes dumps (several revisions of a page, in any order), applied
  // in the order of the YYYYMMDD dates in their names (a file without one is InvalidArgument).
  // Of each page the newest revision (highest revision id) is stored; a revision older than the
  // stored one is ignored; a stored page whose newest revision is outside namespace 0 is
  // deleted. No other deletions. Not with `full`, `index`. Default: false.
  bool changes = false;
  // With `index`: read only the streams holding a title that this edition has, and store only
  // the pages with such a title (the pages that can pair). Default: empty (every stream).
  std::string only_titles_of;
  // XML pages whose wikitext is longer than this many bytes are skipped (their stored version,
  // if any, is kept), counted in too_large and named in skipped; 0: no limit. Bounds the memory
  // of one page (a decompression bomb). Default: kDefaultMaxPageBytes (16 MiB).
  uint64_t max_page_bytes = kDefaultMaxPageBytes;
  // Progress callback, called now and then with (file, pages so far, bytes so far).
  std::function<void(const std::string&, uint64_t, uint64_t)> progress;
};

struct IngestSummary {
  uint64_t pages = 0;                // pages read from the input
  uint64_t added = 0;                // new articles
  uint64_t changed = 0;              // articles whose revision or content changed
  uint64_t unchanged = 0;            // articles skipped before any cleaning
  uint64_t redirects = 0;            // redirects stored (new or changed)
  uint64_t redirects_unchanged = 0;  // redirects read and found as stored
  uint64_t stub_unchanged = 0;       // --stubs: pages the stubs list as stored already (not read)
  uint64_t other_namespace = 0;      // pages outside namespace 0, not stored
  uint64_t deleted = 0;            // articles deleted (--full, or their title taken by a new page)
  uint64_t redirects_deleted = 0;  // redirects deleted, alike
  // --full: of the pages deleted, those an input of another kind had stored (JSON lines
  // documents without "id" beside a dump, or a dump's pages beside such JSON lines): their ids
  // were made another way than those of every page read of their edition. Also a warning.
  uint64_t deleted_other_input = 0;
  uint64_t older_stored = 0;   // pages stored in an older revision than the one they replaced
  uint64_t streams_total = 0;  // with an index: streams in the dump
  uint64_t streams_read = 0;   // with an index: streams decompressed
  uint64_t not_wanted = 0;  // --only-titles-of: pages of the streams read whose title cannot pair
  uint64_t too_large = 0;   // pages skipped for text longer than max_page_bytes
  bool with_stubs = false;  // options.stubs was given: stub_mismatch is reported
  uint64_t stub_mismatch = 0;  // pages the dump holds in another revision than the stub says
  bool with_changes = false;   // options.changes: older_ignored and superseded are reported
  uint64_t older_ignored = 0;  // revisions older than the stored one
  uint64_t superseded = 0;     // revisions with a newer one of the same page in the same file
  // One line per page skipped for its size (the first 20): location, title, size.
  std::vector<std::string> skipped;
  // Other warnings for the user, one line each.
  std::vector<std::string> warnings;
  std::map<std::string, uint64_t> articles_by_edition;  // articles read per edition
  std::map<std::string, uint64_t> AsCounts() const;
};

// Edition names are 1 to 64 characters of A-Z a-z 0-9 _ - (they name files, keys and table cells
// downstream). A name from the command line that does not fit is InvalidArgument (exit 2); a
// <siteinfo><dbname> that does not fit is Corruption (exit 3); both before anything is stored.
bool IsValidEditionName(std::string_view name);

// Splits "EDITION=PATH" (EDITION made of letters, digits, '_', '-', '.'); false when `spec` is
// a plain path (also when a file of that name exists).
bool SplitEditionSpec(const std::string& spec, std::string* edition, std::string* path);

// What Ingest checks before it reads or stores anything: the options that go together, every
// edition name on the command line, and each file: that it can be opened, what it is, and that
// a JSON lines file has an edition (--edition or EDITION=PATH). InvalidArgument (exit 2) or the
// file's I/O error; the command line calls it before it creates or opens a database.
Status CheckIngestInputs(const std::vector<std::string>& files, const IngestOptions& options);

// Ingests `files` into `store`. A file given as EDITION=PATH is read as edition EDITION whatever
// options.edition says. Pages are committed in batches, each page whole: on error, every page
// before the fault stays stored, and the Status names the file and position. In a JSON lines
// file a title (after NormalizeTitle) may occur once: a second occurrence is an error naming both
// lines (it would replace the first page). A JSON lines document, which has no page id, whose
// title an article or redirect of the edition already has, replaces that page (an edition holds
// one page per title); a file that mixes documents with and without "id" so that one would
// replace the other's page is an error naming both lines. Memory: about 50 bytes per JSON lines
// document, twice that for a document with an id.
Status Ingest(Store* store, const std::vector<std::string>& files, const IngestOptions& options,
              IngestSummary* summary);

}  // namespace aligndb

#endif  // ALIGNDB_INGEST_INGEST_H_

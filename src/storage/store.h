// The RocksDB store: aligndb's source of truth. docs/storage.md describes the column
// families, key layout and record versions; this class is the only code that writes them.
//
// Thread-safety: a Store may be used from several threads for reads; writes of one page are
// one WriteBatch (atomic). Only one process may open a database for writing at a time (RocksDB's
// LOCK file): a second writer gets Status::Busy.
#ifndef ALIGNDB_STORAGE_STORE_H_
#define ALIGNDB_STORAGE_STORE_H_

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "aligndb/status.h"

namespace rocksdb {
class DB;
class ColumnFamilyHandle;
class Snapshot;
}  // namespace rocksdb

namespace aligndb {
namespace pb {
class Article;
class ArticleTerms;
class Redirect;
class PageState;
class RunManifest;
class AlignmentRecord;
}  // namespace pb

struct StoreOptions {
  // Create the database when `dir` does not exist. Default: false.
  bool create_if_missing = false;
  // Open without the write lock, for lookups and exports while another process writes.
  // Default: false.
  bool read_only = false;
};

// Per-edition counts, kept up to date by every write.
struct EditionCounts {
  int64_t articles = 0;
  int64_t redirects = 0;
  int64_t paragraphs = 0;
  int64_t sentences = 0;
};

// Column families (names as stored).
enum class Cf {
  kDefault,       // "default": unused
  kMeta,          // "meta": schema version, editions, settings
  kArticles,      // "articles": pb::Article
  kTerms,         // "terms": pb::ArticleTerms
  kPages,         // "pages": pb::PageState
  kTitles,        // "titles": normalized title → page id
  kRedirects,     // "redirects": pb::Redirect
  kCounts,        // "counts": int64 counters (merge: add), document frequencies
  kPendingIndex,  // "pending_index": pages whose Xapian documents must be (re)written
  kAlignments,    // "alignments": pb::AlignmentRecord
  kRuns,          // "runs": pb::RunManifest
  kNumCfs
};

class PageWriter;

class Store {
 public:
  static constexpr uint32_t kSchemaVersion = 1;

  // Opens the database in `dir`. A directory that exists but is not an aligndb database is
  // refused with InvalidArgument; one that another process writes to, with Busy.
  static Status Open(const StoreOptions& options, const std::string& dir,
                     std::unique_ptr<Store>* out);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& dir() const { return dir_; }
  bool read_only() const { return read_only_; }

  // ---- Editions ----
  // The id of edition `name`; with `create`, allocates one for a new name.
  Status EditionId(const std::string& name, bool create, uint32_t* id);
  // All editions, by name.
  Status Editions(std::map<std::string, uint32_t>* out);
  Status GetEditionCounts(uint32_t edition, EditionCounts* out);

  // ---- Pages ----
  // NotFound when the page is not stored.
  Status GetPageState(uint32_t edition, uint64_t page_id, pb::PageState* out);
  // Stores an article with its postings in one WriteBatch, replacing whatever the page was
  // (article or redirect), and keeping titles, counts and document frequencies in step.
  Status PutArticle(uint32_t edition, const pb::Article& article, const pb::ArticleTerms& terms);
  Status PutRedirect(uint32_t edition, const pb::Redirect& redirect);
  // Removes a page (article or redirect) and everything derived from it. OK if absent.
  Status DeletePage(uint32_t edition, uint64_t page_id);

  Status GetArticle(uint32_t edition, uint64_t page_id, pb::Article* out,
                    const rocksdb::Snapshot* snapshot = nullptr);
  Status GetTerms(uint32_t edition, uint64_t page_id, pb::ArticleTerms* out,
                  const rocksdb::Snapshot* snapshot = nullptr);
  Status GetRedirect(uint32_t edition, const std::string& normalized_title, pb::Redirect* out,
                     const rocksdb::Snapshot* snapshot = nullptr);
  // Page id of the article titled `title` (normalized here). NotFound if none.
  Status FindArticle(uint32_t edition, const std::string& title, uint64_t* page_id,
                     const rocksdb::Snapshot* snapshot = nullptr);
  // Calls `fn` for every article of `edition` in page-id order; stops at the first error.
  Status ForEachArticle(uint32_t edition, const std::function<Status(const pb::Article&)>& fn,
                        const rocksdb::Snapshot* snapshot = nullptr);
  // Calls `fn(normalized_title, page_id)` for every article title of `edition`, in title order.
  Status ForEachTitle(uint32_t edition,
                      const std::function<Status(const std::string&, uint64_t)>& fn,
                      const rocksdb::Snapshot* snapshot = nullptr);
  // Page ids of all pages (articles and redirects) of `edition`.
  Status PageIds(uint32_t edition, std::vector<uint64_t>* out);

  // ---- Document frequencies (SPEC §4) ----
  // Number of paragraphs of `edition` containing each token; absent tokens get 0.
  Status DocumentFrequencies(uint32_t edition, const std::vector<std::string>& tokens,
                             std::vector<int64_t>* df, const rocksdb::Snapshot* snapshot = nullptr);

  // ---- Runs ----
  Status BeginRun(const std::string& command, const std::vector<std::string>& args,
                  uint64_t* run_id);
  Status FinishRun(uint64_t run_id, const Status& result,
                   const std::map<std::string, uint64_t>& counts);
  Status Runs(std::vector<pb::RunManifest>* out);

  // ---- Meta ----
  Status GetMeta(const std::string& key, std::string* value);
  Status PutMeta(const std::string& key, const std::string& value);

  // A writer that groups many pages into one WriteBatch (see PageWriter).
  std::unique_ptr<PageWriter> NewPageWriter();

  // Low-level access for the modules that own other column families (index, align, export).
  rocksdb::DB* db() { return db_; }
  rocksdb::ColumnFamilyHandle* cf(Cf which) { return handles_[static_cast<int>(which)]; }
  // Snapshot helpers: release with ReleaseSnapshot.
  const rocksdb::Snapshot* GetSnapshot();
  void ReleaseSnapshot(const rocksdb::Snapshot* s);

 private:
  Store() = default;
  friend class PageWriter;

  std::string dir_;
  bool read_only_ = false;
  rocksdb::DB* db_ = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
};

// Buffers page writes and commits them together: one WriteBatch per Flush, with document
// frequency and counter changes summed per key first. A page is always wholly inside one
// batch, so after a crash each page is stored whole or not at all; pages added since the last
// Flush are lost on a crash and are simply read again by the next run. Not thread-safe.
class PageWriter {
 public:
  explicit PageWriter(Store* store);
  ~PageWriter();
  Status PutArticle(uint32_t edition, const pb::Article& article, const pb::ArticleTerms& terms);
  Status PutRedirect(uint32_t edition, const pb::Redirect& redirect);
  Status DeletePage(uint32_t edition, uint64_t page_id);
  // Commits everything buffered. Call before reporting an error so that the pages read before
  // the fault stay stored.
  Status Flush();
  // Pages buffered since the last Flush.
  size_t pending_pages() const;
  // Approximate bytes buffered since the last Flush.
  size_t pending_bytes() const;

 private:
  struct Rep;
  Status RemovePage(uint32_t edition, uint64_t page_id);
  Store* store_;
  std::unique_ptr<Rep> rep_;
};

// Big-endian key encoding helpers (so that numeric order equals byte order).
std::string EncodeEditionKey(uint32_t edition);
std::string EncodePageKey(uint32_t edition, uint64_t page_id);
void AppendBigEndian32(std::string* out, uint32_t v);
void AppendBigEndian64(std::string* out, uint64_t v);
uint32_t DecodeBigEndian32(const char* p);
uint64_t DecodeBigEndian64(const char* p);

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_STORE_H_

// The RocksDB store: aligndb's source of truth. docs/storage.md describes the column
// families, key layout and record versions; this layer (Store, PageWriter, AlignmentWriter) is
// the only code that reads or writes them: no other layer names RocksDB.
//
// Thread-safety: a Store may be used from several threads for reads; writes of one page are
// one WriteBatch (atomic). Only one process may open a database for writing at a time (RocksDB's
// LOCK file): a second writer gets Status::Busy.
#ifndef ALIGNDB_STORAGE_STORE_H_
#define ALIGNDB_STORAGE_STORE_H_

#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_set>
#include <utility>
#include <vector>

#include "aligndb/status.h"
#include "text/tokens.h"
#include "util/worker.h"

namespace rocksdb {
class DB;
class Env;
class ColumnFamilyHandle;
class Snapshot;
class WriteBatch;
}  // namespace rocksdb

namespace aligndb {
class DeferredSyncFileSystem;
namespace pb {
class Article;
class Redirect;
class PageState;
class RunManifest;
class AlignmentRecord;
class AlignmentKeep;
class PairingSummary;
}  // namespace pb

struct StoreOptions {
  // Create the database when `dir` does not exist. Default: false.
  bool create_if_missing = false;
  // Open without the write lock, for lookups and exports while another process writes: the
  // view is the state at open time. An open that races with the writer deleting a log or table
  // file is retried. Default: false.
  bool read_only = false;
  // A database this writer creates is written without syncs (deferred_sync.h) for at most this
  // long: the first write after it makes everything durable and the rest is synced as usual, so
  // that a restart during a long first ingest loses no more than this. Default: 60 s.
  double max_deferred_seconds = 60;
  // A read-only open that keeps losing the race with an active writer (each try finds a file
  // it listed deleted by the writer's flush or compaction: a starved reader beside a busy
  // writer) tries again for at most this long, then reports Busy. Default: 30 s.
  double read_only_open_seconds = 30;
  // Table files are read through memory maps (no copy into a buffer, no fresh memory per block)
  // when those of the database total at most this many bytes at open; larger databases read
  // through the block cache, whose memory is bounded. A SIGBUS while mapped (a table file cut
  // short by another program, a disk read error) ends the process with exit code 3, as damage
  // found by a read does (InstallMappedReadFaultHandler). Default 0: never mapped.
  uint64_t map_tables_up_to_bytes = 0;
};

// Per-edition counts, kept up to date by every write.
struct EditionCounts {
  int64_t articles = 0;
  int64_t redirects = 0;
  int64_t paragraphs = 0;
  int64_t sentences = 0;
};

class PageWriter;
class AlignmentWriter;
class AlignmentIterator;
class Store;

// A consistent read view of the database at the moment it was taken: reads through it see each
// record whole and ignore later writes. Released when destroyed; must not outlive its Store.
class Snapshot {
 public:
  ~Snapshot();
  Snapshot(const Snapshot&) = delete;
  Snapshot& operator=(const Snapshot&) = delete;

 private:
  friend class Store;
  friend class AlignmentIterator;
  Snapshot(Store* store, const rocksdb::Snapshot* snap) : store_(store), snap_(snap) {}
  Store* store_;
  const rocksdb::Snapshot* snap_;
};

class Store {
 public:
  // 2 since alignment records have keep records, 3 since articles are stored without their
  // postings; a database of version 1 or 2 opens (and is marked 3 by its first writer).
  static constexpr uint32_t kSchemaVersion = 3;

  // Opens the database in `dir`. A directory that exists but is not an aligndb database (also a
  // RocksDB database of another program) is refused with InvalidArgument; one that another
  // process writes to, with Busy; damaged files, with Corruption. A writable open marks runs
  // left "running" by a killed process as "interrupted".
  // A database created by this open is written without syncs until Close, which makes it durable
  // at once (docs/storage.md, "A new database's syncs"); a database whose creating command was
  // stopped before that, by a restart of the machine, is refused with Corruption.
  static Status Open(const StoreOptions& options, const std::string& dir,
                     std::unique_ptr<Store>* out);
  // Ends the writes (memtables to table files), closes the database, and makes a new database
  // durable. Writing commands call it to report its errors; the destructor calls it otherwise.
  // Nothing else may be called after it.
  Status Close();
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  const std::string& dir() const { return dir_; }
  // From now on, writes skip RocksDB's write-ahead log: they are kept by the next flush of the
  // memtables (atomic across column families: all of them or none), and lost with the memtables
  // if the process is killed before it. For writes that a command makes again when run again
  // (align, ingest): they cost the log's copy of every record or page and its CRC32C.
  void set_writes_without_log(bool on) { writes_without_log_ = on; }
  bool read_only() const { return read_only_; }
  // Whether table files are read through memory maps (StoreOptions::map_tables_up_to_bytes).
  bool tables_mapped() const { return tables_mapped_; }
  // This writer skips RocksDB's syncs now (a database being created; see Open).
  bool syncs_deferred() const;
  // A writer's syncs (deferred_sync.h); null for a reader.
  const DeferredSyncFileSystem* sync_file_system() const { return deferred_fs_.get(); }

  // ---- Editions ----
  // The id of edition `name`; with `create`, allocates one for a new name.
  Status EditionId(const std::string& name, bool create, uint32_t* id);
  // All editions, by name.
  Status Editions(std::map<std::string, uint32_t>* out);
  Status GetEditionCounts(uint32_t edition, EditionCounts* out);

  // ---- Pages ----
  // NotFound when the page is not stored.
  Status GetPageState(uint32_t edition, uint64_t page_id, pb::PageState* out);
  // Stores an article in one WriteBatch, replacing whatever the page was (article or redirect),
  // and keeping titles, counts and document frequencies in step.
  Status PutArticle(uint32_t edition, const pb::Article& article);
  Status PutRedirect(uint32_t edition, const pb::Redirect& redirect);
  // Removes a page (article or redirect) and everything derived from it. OK if absent.
  Status DeletePage(uint32_t edition, uint64_t page_id);

  // `fill_cache` false: for a reader that reads each article once (align), whose blocks would
  // only crowd the block cache, each in a buffer faulted in afresh.
  Status GetArticle(uint32_t edition, uint64_t page_id, pb::Article* out,
                    const Snapshot* snapshot = nullptr, bool fill_cache = true);
  Status GetRedirect(uint32_t edition, const std::string& normalized_title, pb::Redirect* out,
                     const Snapshot* snapshot = nullptr);
  // Page id of the article titled `title` (normalized here). NotFound if none.
  Status FindArticle(uint32_t edition, const std::string& title, uint64_t* page_id,
                     const Snapshot* snapshot = nullptr);
  // Calls `fn` for every article of `edition` in page-id order; stops at the first error.
  Status ForEachArticle(uint32_t edition, const std::function<Status(const pb::Article&)>& fn,
                        const Snapshot* snapshot = nullptr);
  // Calls `fn(normalized_title, page_id)` for every article title of `edition`, in title order.
  Status ForEachTitle(uint32_t edition,
                      const std::function<Status(const std::string&, uint64_t)>& fn,
                      const Snapshot* snapshot = nullptr);
  // Calls `fn(normalized_title, page_id, other_id)` for every article title of `edition` in
  // title order, with the page id of the article of the same title in `other` (nullptr when
  // there is none): one pass over both editions' titles instead of a lookup per title.
  Status MatchTitles(
      uint32_t edition, uint32_t other,
      const std::function<Status(const std::string&, uint64_t, const uint64_t*)>& fn);
  // Whether `edition` has an article or a redirect (one seek in each of their title tables).
  Status HasTitles(uint32_t edition, bool* any);
  // Page ids of all pages (articles and redirects) of `edition`.
  Status PageIds(uint32_t edition, std::vector<uint64_t>* out);

  // ---- Document frequencies (docs/method.md, TF-IDF) ----
  // Number of paragraphs of `edition` containing each token; absent tokens get 0.
  Status DocumentFrequencies(uint32_t edition, const std::vector<std::string>& tokens,
                             std::vector<int64_t>* df, const Snapshot* snapshot = nullptr);

  // ---- Runs ----
  Status BeginRun(const std::string& command, const std::vector<std::string>& args,
                  uint64_t* run_id);
  Status FinishRun(uint64_t run_id, const Status& result,
                   const std::map<std::string, uint64_t>& counts);
  Status Runs(std::vector<pb::RunManifest>* out);

  // ---- Meta ----
  Status GetMeta(const std::string& key, std::string* value);
  Status PutMeta(const std::string& key, const std::string& value);
  // Calls fn(old page id, new page id) for every page of `edition` a page writer noted as
  // displaced (PageWriter::NoteDisplaced) and no writer has cleared since.
  Status ForEachDisplaced(uint32_t edition,
                          const std::function<Status(uint64_t old_page, uint64_t new_page)>& fn);

  // ---- Paragraph index queue ----
  // Up to `max` page ids of `edition` whose paragraph-index documents must be rewritten (the
  // "pending_index" column family), in page-id order.
  Status PendingIndexPages(uint32_t edition, size_t max, std::vector<uint64_t>* page_ids);
  // Removes those pages from the queue and records `index_generation` (the paragraph index's
  // commit counter), in one write: call once the index holding their new documents is durable.
  Status ClearPendingIndex(uint32_t edition, const std::vector<uint64_t>& page_ids,
                           uint64_t index_generation);
  // The generation recorded by the last ClearPendingIndex or QueueAllPagesForIndex; NotFound
  // when the paragraph index was never built for this database.
  Status IndexGeneration(uint64_t* generation);
  // Queues every article of every edition for (re)indexing and records generation 0: the
  // first step of rebuilding the paragraph index from the store. `*queued` counts the pages.
  Status QueueAllPagesForIndex(uint64_t* queued);

  // ---- Identity ----
  // A random identifier of this database, made when it is first opened for writing: what ties
  // derived structures (the paragraph index) to it. NotFound in a database no writer has opened
  // since identities were introduced.
  Status Identity(std::string* id);

  // ---- Alignment records ----
  // Records of an edition pair are named: the normalized title for aligned article pairs, a
  // paraphrase document pair's name for news collections (see docs/storage.md). NotFound when
  // there is no record of that name.
  Status GetAlignment(uint32_t normal_edition, uint32_t simple_edition, const std::string& name,
                      pb::AlignmentRecord* out, const Snapshot* snapshot = nullptr);
  // The keep record of the alignment record `name` (docs/storage.md, "Keep records"): what
  // decides whether align may keep that record, without reading it. NotFound when the record
  // was written without one (by an older aligndb, or not by align).
  Status GetAlignmentKeep(uint32_t normal_edition, uint32_t simple_edition, const std::string& name,
                          pb::AlignmentKeep* out);
  // Calls fn(name, keep record) for every keep record of an edition pair, in name order: a scan
  // of a few hundred bytes a record instead of the records themselves; stops at fn's error.
  Status ForEachAlignmentKeep(
      uint32_t normal_edition, uint32_t simple_edition,
      const std::function<Status(const std::string&, const pb::AlignmentKeep&)>& fn,
      const Snapshot* snapshot = nullptr);
  // Iterates the records of an edition pair whose names start with `name_prefix`, in name
  // order (see AlignmentIterator).
  std::unique_ptr<AlignmentIterator> NewAlignmentIterator(uint32_t normal_edition,
                                                          uint32_t simple_edition,
                                                          const std::string& name_prefix,
                                                          const Snapshot* snapshot = nullptr);
  // Calls `fn` for every record that NewAlignmentIterator visits; stops at the first error.
  Status ForEachAlignment(uint32_t normal_edition, uint32_t simple_edition,
                          const std::string& name_prefix,
                          const std::function<Status(const pb::AlignmentRecord&)>& fn,
                          const Snapshot* snapshot = nullptr);
  // A writer of the records of one edition pair (see AlignmentWriter).
  std::unique_ptr<AlignmentWriter> NewAlignmentWriter(uint32_t normal_edition,
                                                      uint32_t simple_edition);

  // ---- Pairing summaries: what the last align (or paraphrase) run of an edition pair did ----
  Status GetPairingSummary(const std::string& normal_edition, const std::string& simple_edition,
                           pb::PairingSummary* out);
  // Edition pairs (normal, simple) that have a pairing summary, in name order.
  Status Pairings(std::vector<std::pair<std::string, std::string>>* out);

  // A writer that groups many pages into one WriteBatch (see PageWriter).
  std::unique_ptr<PageWriter> NewPageWriter();

  // A read view of the database as it is now.
  std::unique_ptr<Snapshot> NewSnapshot();

  // Writes the memtables to table files, so that no write-ahead log is left to replay.
  Status FlushMemtables();
  // Starts writing the memtables to table files in the background, without waiting.
  void StartFlush();

  // Calls `fn(token, df)` for every stored document frequency of `edition`, in token order.
  Status ForEachDocumentFrequency(uint32_t edition,
                                  const std::function<Status(const std::string&, int64_t)>& fn);
  // RocksDB's estimate of the keys of the "counts" column family (document frequencies of every
  // edition, and a few counters): cheap, without reading them.
  Status EstimateCountKeys(uint64_t* keys);
  // True when every stored article's table blocks together take at most half the block cache:
  // a reader of every article (align) may then keep them cached, so that the articles sharing
  // a block are read from the file once. Larger, it reads each outside the cache.
  bool ArticlesFitInBlockCache();

 private:
  static constexpr uint64_t kBlockCacheBytes = 128 << 20;  // shared by every column family
  // Column families (names as stored; docs/storage.md).
  enum class Cf {
    kDefault,       // "default": unused
    kMeta,          // "meta": schema version, editions, settings
    kArticles,      // "articles": pb::Article
    kTerms,         // "terms": written before schema 3 (pb::ArticleTerms); emptied on upgrade
    kPages,         // "pages": pb::PageState
    kTitles,        // "titles": normalized title → page id
    kRedirects,     // "redirects": pb::Redirect
    kCounts,        // "counts": int64 counters (merge: add), document frequencies
    kPendingIndex,  // "pending_index": pages whose Xapian documents must be (re)written
    kAlignments,    // "alignments": pb::AlignmentRecord
    kRuns,          // "runs": pb::RunManifest
    kNumCfs
  };
  friend class PageWriter;
  friend class AlignmentWriter;
  friend class AlignmentIterator;
  friend class Snapshot;

  Store() = default;
  Status CheckSchema(bool read_only);
  // Every write goes through here; `what` follows the directory in error messages.
  // `logged`: through the write-ahead log even while writes skip it (set_writes_without_log):
  // for writes that must outlast a kill because something outside RocksDB (the Xapian index)
  // was committed with them in mind. They come before a run's unlogged writes, never after.
  Status Write(rocksdb::WriteBatch* batch, const std::string& what, bool logged = false);
  Status MarkInterruptedRuns();
  Status DropIndexQueueWithoutIndex();
  Status EnsureIdentity();
  Status DropPostings();
  static const rocksdb::Snapshot* Raw(const Snapshot* s) { return s ? s->snap_ : nullptr; }
  rocksdb::ColumnFamilyHandle* cf(Cf which) { return handles_[static_cast<int>(which)]; }

  std::string dir_;
  bool read_only_ = false;
  bool tables_mapped_ = false;
  bool registered_writer_ = false;  // counted among this process's writers (store.cc)
  // Makes what was written without syncs durable, removes the marker and syncs from now on.
  Status EndDeferredSyncs();

  // Set while this writer skips syncs (a database it is creating): synced by Close.
  std::shared_ptr<DeferredSyncFileSystem> deferred_fs_;
  std::chrono::steady_clock::time_point deferred_until_;  // see max_deferred_seconds
  std::mutex deferral_mutex_;                              // one EndDeferredSyncs at a time
  std::unique_ptr<rocksdb::Env> env_;  // over deferred_fs_; outlives db_
  rocksdb::DB* db_ = nullptr;
  std::vector<rocksdb::ColumnFamilyHandle*> handles_;
  Status write_error_;  // the first failed write: no write is tried after it
  bool writes_without_log_ = false;
};

// Buffers alignment records of one edition pair and commits them in batches of about 1 MB.
// Each record is one key, so a reader sees an article pair's alignment whole; records buffered
// since the last flush are lost on a crash and recomputed by the next run. Not thread-safe.
class AlignmentWriter {
 public:
  AlignmentWriter(Store* store, uint32_t normal_edition, uint32_t simple_edition);
  ~AlignmentWriter();
  // Buffers `record` under `name`, replacing any record of that name (and removing its keep
  // record); commits the buffer when it is full.
  Status Put(const std::string& name, const pb::AlignmentRecord& record);
  // Buffers an already serialized record under `name` with its serialized keep record
  // (pb::AlignmentKeep), in the same batch; commits the buffer when it is full.
  Status PutWithKeep(const std::string& name, const std::string& record_bytes,
                     const std::string& keep_bytes);
  // Buffers the serialized keep record of the record `name` alone (for a record kept as it is).
  Status PutKeep(const std::string& name, const std::string& keep_bytes);
  // Buffers the deletion of every committed record (with its keep record) whose name starts
  // with `name_prefix` and is not in `keep`; `*deleted` (optional) counts them. With
  // `scan_keep_records` the names come from the keep records, a few hundred bytes each, instead
  // of the records: only right when every record has its keep record
  // (pb::PairingSummary.every_record_has_keep).
  Status DeleteExcept(const std::string& name_prefix, const std::unordered_set<std::string>& keep,
                      uint64_t* deleted, bool scan_keep_records = false);
  // Commits everything buffered.
  Status Flush();
  // Flushes, then stores the edition pair's pairing summary.
  Status PutPairingSummary(const pb::PairingSummary& summary);

 private:
  struct Rep;
  Status MaybeFlush();  // commits the buffer when it is full
  Store* store_;
  std::string prefix_;
  std::unique_ptr<Rep> rep_;
};

// The records of one edition pair in name order, from a snapshot or the current state.
//   for (; it->Valid(); it->Next()) use(it->name(), it->record());
//   RETURN_IF_ERROR(it->status());
class AlignmentIterator {
 public:
  ~AlignmentIterator();
  bool Valid() const { return valid_; }
  void Next();
  // The record's name (the key after the edition pair) and the record, while Valid().
  const std::string& name() const { return name_; }
  const pb::AlignmentRecord& record() const;
  // Not OK when iteration stopped at an unreadable or unparseable record.
  Status status() const { return status_; }

 private:
  friend class Store;
  struct Rep;
  AlignmentIterator(Store* store, std::string prefix, const Snapshot* snapshot);
  void Load();
  std::unique_ptr<Rep> rep_;
  bool valid_ = false;
  std::string name_;
  Status status_;
};

// Buffers page writes and commits them together: one WriteBatch per Flush, with document
// frequency and counter changes summed per key first. A page is always wholly inside one
// batch, so after a crash each page is stored whole or not at all; pages added since the last
// Flush are lost on a crash and are simply read again by the next run. Not thread-safe.
// The document-frequency terms of a stored article: each paragraph's tokens (docs/method.md,
// TF-IDF), into `out` (cleared first).
void PageTermsOf(const pb::Article& article, PageTerms* out);

class PageWriter {
 public:
  explicit PageWriter(Store* store);
  ~PageWriter();
  // `terms` are the article's (PageTermsOf), and `serialized`, when given, its serialization
  // (taken): computed by the caller, which may do so on other threads.
  Status PutArticle(uint32_t edition, const pb::Article& article, const PageTerms& terms,
                    std::string* serialized = nullptr);
  Status PutArticle(uint32_t edition, const pb::Article& article);
  Status PutRedirect(uint32_t edition, const pb::Redirect& redirect);
  Status DeletePage(uint32_t edition, uint64_t page_id);
  // Notes, in the same batch as the pages buffered with it, that `new_page` took the title of
  // stored page `old_page` ("displaced/" keys of meta): the ingest decides once its input is
  // read whether the old page goes (an ingest that fails leaves the note for the next one).
  void NoteDisplaced(uint32_t edition, uint64_t old_page, uint64_t new_page);
  void ClearDisplaced(uint32_t edition, uint64_t old_page);
  // Commits everything buffered. Call before reporting an error so that the pages read before
  // the fault stay stored.
  Status Flush();
  // Starts committing everything buffered on another thread and returns; buffering goes on
  // meanwhile. The commit before it is waited for first, and its error returned. Reads of a page
  // being committed wait for the commit; the caller must not rely on other reads (titles) of the
  // pages since the last Flush until the next one, as before.
  Status FlushInBackground();
  // Pages buffered since the last Flush.
  size_t pending_pages() const;
  // Approximate bytes buffered since the last Flush.
  size_t pending_bytes() const;
  // The page that owns `title` of `edition` (an article's, or with `redirect` a redirect's) as
  // this writer leaves it: by the writes of this batch, then of the batch being committed, then
  // the committed state; kNoPage for none.
  static constexpr uint64_t kNoPage = ~0ull;
  uint64_t TitleOwner(uint32_t edition, const std::string& title, bool redirect);

 private:
  struct Rep;
  Status RemovePage(uint32_t edition, uint64_t page_id);
  Status Commit(Rep* rep);  // writes one batch
  // A committed batch of this many bytes starts a background flush of the memtables.
  static constexpr size_t kBackgroundFlushBytes = 4 << 20;
  Status CommitNoThrow(Rep* rep);
  // The background commit's outcome (OK when there is none); after a failure, that failure.
  Status WaitForCommit();
  bool Committing(const std::string& page_key) const;
  // Adds sign × what `article` counts (its terms' document frequencies, its paragraphs and
  // sentences, one article) to the batch's counts.
  void AddCounts(uint32_t edition, const pb::Article& article, const PageTerms& terms, int sign);
  void AddCounts(uint32_t edition, const pb::Article& article, int sign, PageTerms* scratch);
  Store* store_;
  std::unique_ptr<Rep> rep_;
  std::unique_ptr<Rep> committing_;  // being written by committer_
  Worker committer_;  // one thread for the writer's commits, kept from commit to commit
  Status commit_status_;
  Status failed_;  // the first failed commit
};

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_STORE_H_

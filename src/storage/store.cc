#include "storage/store.h"

#include <fcntl.h>
#include <rocksdb/db.h>
#include <rocksdb/env.h>
#include <rocksdb/filter_policy.h>
#include <rocksdb/merge_operator.h>
#include <rocksdb/options.h>
#include <rocksdb/table.h>
#include <rocksdb/utilities/options_util.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>
#include <unordered_set>

#include "aligndb.pb.h"
#include "storage/block_buffers.h"
#include "storage/deferred_sync.h"
#include "storage/records.h"
#include "storage/rocks.h"
#include "text/text.h"
#include "util/clock.h"
#include "util/files.h"
#include "util/fault.h"

namespace aligndb {

// ------------------------------------------------------------------ encoding

void AppendBigEndian32(std::string* out, uint32_t v) {
  char b[4] = {static_cast<char>(v >> 24), static_cast<char>(v >> 16), static_cast<char>(v >> 8),
               static_cast<char>(v)};
  out->append(b, 4);
}
void AppendBigEndian64(std::string* out, uint64_t v) {
  AppendBigEndian32(out, static_cast<uint32_t>(v >> 32));
  AppendBigEndian32(out, static_cast<uint32_t>(v));
}
uint32_t DecodeBigEndian32(const char* p) {
  const auto* u = reinterpret_cast<const unsigned char*>(p);
  return (uint32_t{u[0]} << 24) | (uint32_t{u[1]} << 16) | (uint32_t{u[2]} << 8) | u[3];
}
uint64_t DecodeBigEndian64(const char* p) {
  return (uint64_t{DecodeBigEndian32(p)} << 32) | DecodeBigEndian32(p + 4);
}
std::string EncodeEditionKey(uint32_t edition) {
  std::string k;
  AppendBigEndian32(&k, edition);
  return k;
}
std::string EncodePageKey(uint32_t edition, uint64_t page_id) {
  std::string k = EncodeEditionKey(edition);
  AppendBigEndian64(&k, page_id);
  return k;
}

std::string EncodeInt64(int64_t v) {
  std::string s(8, '\0');
  std::memcpy(s.data(), &v, 8);
  return s;
}
int64_t DecodeInt64(const rocksdb::Slice& s) {
  int64_t v = 0;
  if (s.size() == 8) std::memcpy(&v, s.data(), 8);
  return v;
}

bool IsLockHeld(const rocksdb::Status& s) {
  // RocksDB reports a held LOCK file as an I/O error "While lock file: DIR/LOCK: ..." (another
  // process) or "lock hold by current process" (this one). Match those words only: "lock" is
  // also inside "block", as in a damaged table's "block checksum mismatch".
  if (!s.IsIOError()) return false;
  const std::string m = s.ToString();
  return m.find("While lock file") != std::string::npos || m.find("/LOCK:") != std::string::npos ||
         m.find("lock hold by current process") != std::string::npos;
}

Status FromRocks(const rocksdb::Status& s, const std::string& context) {
  if (s.ok()) return Status::OK();
  std::string msg = context + ": " + s.ToString();
  if (s.IsNotFound()) return Status::NotFound(msg);
  if (s.IsCorruption())
    return Status::Corruption(context + ": a database file is damaged: " + s.ToString());
  if (s.IsIOError()) {
    if (IsLockHeld(s))
      return Status::Busy(context + ": the database is in use by another aligndb process (" +
                          s.ToString() + ")");
    if (s.IsNoSpace())
      return Status::IOError(context + ": no space left on device: " + s.ToString());
    return Status::IOError(msg);
  }
  if (s.IsInvalidArgument()) return Status::InvalidArgument(msg);
  if (s.IsBusy() || s.IsTryAgain()) return Status::Busy(msg);
  return Status::Internal(msg);
}

namespace {

// RocksDB's own log ("LOG" in the database directory) is not kept: on a full disk its writer
// aborts the process on the second failed append. aligndb reports errors through Status.
class DiscardLogger : public rocksdb::Logger {
 public:
  DiscardLogger() : rocksdb::Logger(rocksdb::InfoLogLevel::HEADER_LEVEL) {}
  using rocksdb::Logger::Logv;
  void Logv(const char*, va_list) override {}
};

// Counters and document frequencies: int64 values, merged by addition.
class Int64AddOperator : public rocksdb::AssociativeMergeOperator {
 public:
  bool Merge(const rocksdb::Slice&, const rocksdb::Slice* existing, const rocksdb::Slice& value,
             std::string* new_value, rocksdb::Logger*) const override {
    int64_t sum = (existing ? DecodeInt64(*existing) : 0) + DecodeInt64(value);
    *new_value = EncodeInt64(sum);
    return true;
  }
  const char* Name() const override { return "aligndb.Int64Add"; }
};

constexpr const char* kCfNames[] = {"default",       "meta",       "articles",  "terms",
                                    "pages",         "titles",     "redirects", "counts",
                                    "pending_index", "alignments", "runs"};

constexpr const char* kSchemaKey = "schema_version";
constexpr const char* kEditionPrefix = "edition/";
constexpr const char* kNextRunKey = "next_run_id";
constexpr const char* kIdentityKey = "identity";
constexpr const char* kRunRunning = "running";
constexpr const char* kRunInterrupted = "interrupted (the process ended before the run finished)";

// Databases this process has open, or is opening, for writing (with the number of writer
// Stores, open or trying): RocksDB's LOCK file is a POSIX record lock, which another process can
// see (F_GETLK) but this one cannot (its own locks never conflict). Writers register before they
// take the lock, and WriterActive holds the mutex while it has LOCK open: closing any descriptor
// of LOCK drops every lock this process holds on it, so it must never do so beside a writer.
std::mutex& WritersMutex() {
  static std::mutex m;
  return m;
}
std::map<std::string, int>& OpenWriters() {
  static std::map<std::string, int> dirs;
  return dirs;
}

std::string CanonicalDir(const std::string& dir) {
  std::error_code ec;
  std::filesystem::path p = std::filesystem::weakly_canonical(dir, ec);
  return ec ? dir : p.string();
}

// Whether a process (this one or another) has the database at `dir` open for writing. When the
// LOCK file cannot be read, a writer is assumed.
bool WriterActive(const std::string& dir) {
  std::lock_guard<std::mutex> lock(WritersMutex());
  if (OpenWriters().count(CanonicalDir(dir))) return true;
  int fd = ::open((dir + "/LOCK").c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno != ENOENT;
  struct flock fl = {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  const bool locked = ::fcntl(fd, F_GETLK, &fl) != 0 || fl.l_type != F_UNLCK;
  ::close(fd);
  return locked;
}

// Counter keys in the "counts" CF: edition(4) 0x00 name. Document frequencies: edition(4) 0x01
// token.
std::string CounterKey(uint32_t edition, std::string_view name) {
  std::string k = EncodeEditionKey(edition);
  k.push_back('\0');
  k.append(name);
  return k;
}

}  // namespace

std::string DfKey(uint32_t edition, std::string_view token) {
  std::string k = EncodeEditionKey(edition);
  k.push_back('\x01');
  k.append(token);
  return k;
}

// ------------------------------------------------------------------ open

namespace {

// Whether `dir` holds nothing: empty, or what a creation of a database that was stopped leaves
// (the process killed before Store::Open wrote its first key): RocksDB's bookkeeping files only,
// no table file and no write-ahead log with data. Every database that was opened whole has one
// or the other (the schema version is written at the first open). aligndb writes no RocksDB
// `LOG`: a directory with one is another program's database, refused (CheckIsAligndb).
bool HoldsNothing(const std::string& dir) {
  namespace fs = std::filesystem;
  std::error_code ec;
  for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (!it->is_regular_file(ec)) return false;
    if (name == "LOCK" || name == "IDENTITY" || name == "CURRENT" || name == kUnsyncedMarker ||
        name.starts_with("MANIFEST-") || name.starts_with("OPTIONS-") || name.ends_with(".dbtmp"))
      continue;
    if (name.ends_with(".log") && it->file_size(ec) == 0 && !ec) continue;
    return false;
  }
  return !ec;
}

// Empties `dir` (which HoldsNothing) for a new database, all but its LOCK file, which it holds
// locked meanwhile as RocksDB does: another process creating the database now is seen (busy)
// and never loses a file it made. The lock is released for RocksDB to take. `*removed` is false
// when, looked at again under the lock, the directory holds a database now (another process
// finished creating it): it is then opened as one.
Status RemoveInterruptedCreation(const std::string& dir, bool* removed) {
  namespace fs = std::filesystem;
  std::lock_guard<std::mutex> guard(WritersMutex());  // see WriterActive
  if (OpenWriters().count(CanonicalDir(dir)))
    return Status::Busy(dir + ": the database is being created by another writer of this process");
  const std::string lock_path = dir + "/LOCK";
  int fd = ::open(lock_path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IOError(lock_path + ": " + std::strerror(errno));
  struct flock fl = {};
  fl.l_type = F_WRLCK;
  fl.l_whence = SEEK_SET;
  if (::fcntl(fd, F_SETLK, &fl) != 0) {
    ::close(fd);
    return Status::Busy(dir + ": the database is being created by another aligndb process");
  }
  std::error_code ec;
  std::vector<fs::path> left;
  *removed = HoldsNothing(dir);  // again, under the lock
  if (*removed)
    for (auto it = fs::directory_iterator(dir, ec); !ec && it != fs::directory_iterator();
         it.increment(ec))
      if (it->path().filename() != "LOCK") left.push_back(it->path());
  for (const fs::path& p : left)
    if (!ec) fs::remove(p, ec);
  ::close(fd);
  if (ec)
    return Status::IOError(dir +
                           ": cannot remove what an interrupted creation left: " + ec.message());
  return Status::OK();
}

// A marker left by a creating command of another boot of the machine (deferred_sync.h): the files
// written without syncs may be torn, even CURRENT lost. Refused, by readers and writers alike.
Status CheckUnsyncedMarkerBoot(const std::string& dir) {
  bool marked = false;
  std::string marked_boot, boot;
  RETURN_IF_ERROR(ReadUnsyncedMarker(dir, &marked, &marked_boot));
  if (!marked || (CurrentBootId(&boot).ok() && marked_boot == boot)) return Status::OK();
  return Status::Corruption(
      dir +
      ": damaged database: the command that created it was stopped before its data were "
      "on disk, and the machine has restarted since (or the directory was copied from "
      "another machine), so its content may be incomplete. Remove the directory and run "
      "that command again");
}

// Checks what `dir` holds before RocksDB opens it: nothing (created when allowed), or a RocksDB
// database. Sets `*is_db` for the last. What an interrupted creation left is nothing: a writer
// that may create a database removes it and starts again.
Status CheckDirectory(const StoreOptions& options, const std::string& dir, bool* is_db) {
  namespace fs = std::filesystem;
  std::error_code ec;
  bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec))
    return Status::InvalidArgument(dir + ": not a directory");
  if (exists && HoldsNothing(dir)) {
    if (!options.create_if_missing) {
      const bool interrupted = !fs::is_empty(dir, ec);
      return Status::NotFound(dir + ": no database here (" +
                              (interrupted ? "its creation was interrupted; " : "") + "run " +
                              "`aligndb ingest --db " + dir + " FILE` to create it)");
    }
    bool removed = false;
    RETURN_IF_ERROR(RemoveInterruptedCreation(dir, &removed));
    if (removed) {
      *is_db = false;
      return Status::OK();
    }
  }
  if (exists) RETURN_IF_ERROR(CheckUnsyncedMarkerBoot(dir));
  *is_db = exists && fs::exists(fs::path(dir) / "CURRENT", ec);
  if (exists && !*is_db)
    return Status::InvalidArgument(dir + ": not an aligndb database (no RocksDB CURRENT file)");
  if (!exists && !options.create_if_missing)
    return Status::NotFound(dir + ": no database here (run `aligndb ingest --db " + dir +
                            " FILE` first)");
  if (!exists) {
    fs::create_directories(dir, ec);
    if (ec) return Status::IOError(dir + ": cannot create: " + ec.message());
  }
  return Status::OK();
}

// RocksDB opens every table file at DB::Open, starting max_file_opening_threads - 1 threads for
// each column family whatever its number of files (default 16: about 165 threads, a third of
// the open of a small database). Threads pay only when there are many files to open.
int FileOpeningThreads(const std::string& dir) {
  constexpr size_t kFilesPerThread = 256;
  size_t tables = 0;
  std::error_code ec;
  for (auto it = std::filesystem::directory_iterator(dir, ec);
       !ec && it != std::filesystem::directory_iterator(); it.increment(ec))
    if (it->path().extension() == ".sst") ++tables;
  const size_t cores = std::max(1u, std::thread::hardware_concurrency());
  return static_cast<int>(
      std::clamp<size_t>(tables / kFilesPerThread, 1, std::min<size_t>(cores, 16)));
}

// A RocksDB database of another program has no "meta" column family: refuse it rather than
// add aligndb's column families to it.
Status CheckIsAligndb(const rocksdb::DBOptions& db_options, const std::string& dir) {
  std::vector<std::string> names;
  rocksdb::Status s = rocksdb::DB::ListColumnFamilies(db_options, dir, &names);
  if (!s.ok()) return FromRocks(s, dir);
  if (std::find(names.begin(), names.end(), "meta") == names.end())
    return Status::InvalidArgument(dir +
                                   ": not an aligndb database (a RocksDB database of another "
                                   "program: it has no \"meta\" column family)");
  return Status::OK();
}

// A read-only open lists the live files, then reads them; a writer that flushes or compacts in
// between deletes some of them. That race, and only it, is retried.
// RocksDB reports such a file as an I/O error or, when it was listed in the MANIFEST, as
// corruption ("Can't access 000055.sst: IO error: No such file or directory").
bool IsVanishedFile(const rocksdb::Status& s) {
  if (!s.IsIOError() && !s.IsCorruption()) return false;
  return s.IsPathNotFound() || s.ToString().find("No such file or directory") != std::string::npos;
}

// Whether the table files in `dir` total at most `limit` bytes (what reads through memory maps
// would map at most). Stops at the first file past it: a large database's thousands of files are
// not all looked at on every open. A directory that cannot be listed is not mapped.
bool TablesFitIn(const std::string& dir, uint64_t limit) {
  namespace fs = std::filesystem;
  uint64_t bytes = 0;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().extension() != ".sst") continue;
    std::error_code size_ec;
    const uintmax_t size = it->file_size(size_ec);
    if (!size_ec && (bytes += size) > limit) return false;
  }
  return !ec;
}

// Tries of a read-only open when no writer is active (one that just closed deletes files as it
// goes); beside an active writer, StoreOptions::read_only_open_seconds bounds them instead.
constexpr int kReadOnlyOpenAttempts = 20;

}  // namespace

Status Store::Open(const StoreOptions& options, const std::string& dir,
                   std::unique_ptr<Store>* out) {
  static_assert(sizeof(kCfNames) / sizeof(kCfNames[0]) == static_cast<size_t>(Cf::kNumCfs));
  bool is_db = false;
  RETURN_IF_ERROR(CheckDirectory(options, dir, &is_db));

  // A database this writer creates is written without syncs until Close (deferred_sync.h). One
  // whose creating command never reached Close is still unsynced: in this boot of the machine
  // its files are whole in the page cache, and a writer goes on without syncs once it holds the
  // lock (below); after a restart they may be torn, and CheckDirectory refused it.
  bool creating = false, marked = false;
  if (is_db) {
    std::string marked_boot;
    RETURN_IF_ERROR(ReadUnsyncedMarker(dir, &marked, &marked_boot));
  } else if (!options.read_only) {
    std::string boot;
    if (CurrentBootId(&boot).ok()) {
      RETURN_IF_ERROR(WriteUnsyncedMarker(dir, boot));
      creating = true;
    }
  }

  rocksdb::DBOptions db_options;
  db_options.create_if_missing = options.create_if_missing;
  db_options.create_missing_column_families = !options.read_only;
  db_options.max_background_jobs = 2;
  db_options.keep_log_file_num = 3;
  // The flush that ends a writing command (and any flush) commits all column families' memtables
  // in one manifest record: one sync instead of one per family.
  db_options.atomic_flush = true;
  db_options.max_file_opening_threads = FileOpeningThreads(dir);
  if (is_db && options.map_tables_up_to_bytes > 0 &&
      TablesFitIn(dir, options.map_tables_up_to_bytes)) {
    db_options.allow_mmap_reads = true;
    // RocksDB advises random access on every table it opens: on a map that turns off the
    // kernel's readahead, and a database not in the page cache is then read a page a fault
    // (an export 3 to 7 times slower than through pread).
    db_options.advise_random_on_open = false;
    InstallMappedReadFaultHandler(dir);
  }
  db_options.info_log_level = rocksdb::InfoLogLevel::WARN_LEVEL;
  db_options.info_log = std::make_shared<DiscardLogger>();
  // A reader keeps every table file open from the start: a compaction of the writer that
  // deletes one after the open cannot fail a later read.
  if (options.read_only) db_options.max_open_files = -1;
  if (is_db) RETURN_IF_ERROR(CheckIsAligndb(db_options, dir));

  auto add_op = std::make_shared<Int64AddOperator>();
  rocksdb::BlockBasedTableOptions table;
  table.filter_policy.reset(rocksdb::NewBloomFilterPolicy(10));
  rocksdb::LRUCacheOptions cache_options;
  cache_options.capacity = kBlockCacheBytes;
  // Every block read (cached or not) takes its buffer from the cache's allocator.
  cache_options.memory_allocator = std::make_shared<BlockBufferPool>();
  table.block_cache = rocksdb::NewLRUCache(cache_options);
  std::vector<rocksdb::ColumnFamilyDescriptor> descriptors;
  for (int i = 0; i < static_cast<int>(Cf::kNumCfs); ++i) {
    rocksdb::ColumnFamilyOptions cf_options;
    cf_options.table_factory.reset(rocksdb::NewBlockBasedTableFactory(table));
    // Level 0 and 1 uncompressed: an ingest's flushes (and an align's reads of fresh tables) do not
    // wait for LZ4; compactions compress the larger levels below, where a big database's bytes are.
    cf_options.compression = rocksdb::kLZ4Compression;
    cf_options.compression_per_level.assign(cf_options.num_levels, rocksdb::kLZ4Compression);
    cf_options.compression_per_level[0] = cf_options.compression_per_level[1] =
        rocksdb::kNoCompression;
    if (static_cast<Cf>(i) == Cf::kCounts) cf_options.merge_operator = add_op;
    descriptors.emplace_back(kCfNames[i], cf_options);
  }

  std::unique_ptr<Store> store(new Store());
  store->dir_ = dir;
  store->read_only_ = options.read_only;
  store->tables_mapped_ = db_options.allow_mmap_reads;
  if (creating || (marked && !options.read_only)) {
    // Opened after the marker, so that its sync at Close reports any write error of the files
    // written without syncs.
    store->deferred_fs_ =
        std::make_shared<DeferredSyncFileSystem>(rocksdb::FileSystem::Default(), dir);
    if (!store->deferred_fs_->open_status().ok()) return store->deferred_fs_->open_status();
    store->deferred_fs_->set_deferring(creating);
    // Clamped (NaN and negatives to 0, infinity to 30 years): a duration past int64
    // nanoseconds would overflow.
    store->deferred_until_ =
        std::chrono::steady_clock::now() +
        std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(
            std::min(std::max(0.0, options.max_deferred_seconds), 1e9)));
    store->env_ = rocksdb::NewCompositeEnv(store->deferred_fs_);
    db_options.env = store->env_.get();
  }
  if (!options.read_only) {  // before RocksDB takes the lock (see WriterActive)
    std::lock_guard<std::mutex> lock(WritersMutex());
    ++OpenWriters()[CanonicalDir(dir)];
    store->registered_writer_ = true;
  }
  rocksdb::Status s;
  if (options.read_only) {
    const auto start = std::chrono::steady_clock::now();
    const double budget = std::min(std::max(0.0, options.read_only_open_seconds), 1e6);
    for (int attempt = 1;; ++attempt) {
      s = rocksdb::DB::OpenForReadOnly(db_options, dir, descriptors, &store->handles_, &store->db_);
      if (!IsVanishedFile(s)) break;
      if (WriterActive(dir)) {
        // Not damage: the writer's files changed under this open. Still racing after the budget,
        // the caller is told to try again (exit 5), not that a file is damaged.
        const std::chrono::duration<double> spent = std::chrono::steady_clock::now() - start;
        if (spent.count() >= budget)
          return Status::Busy(dir + ": a writer kept replacing the database's files while it "
                                    "was being opened to read (" +
                              std::to_string(attempt) + " tries); try again");
      } else if (attempt >= kReadOnlyOpenAttempts) {
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(std::min(10 * attempt, 200)));
    }
  } else if (!is_db) {
    // A new database gets its column families in one call, which writes the options file once:
    // DB::Open makes missing ones one at a time, each with its synced manifest record and a
    // synced options file (about 30 syncs, which cost more than the rest of a small ingest's
    // start). A run stopped before its first key leaves nothing the next writer does not remove
    // (CheckDirectory).
    s = rocksdb::DB::Open(db_options, dir, {descriptors[0]}, &store->handles_, &store->db_);
    if (s.ok()) {
      std::vector<rocksdb::ColumnFamilyHandle*> created;
      s = store->db_->CreateColumnFamilies({descriptors.begin() + 1, descriptors.end()}, &created);
      store->handles_.insert(store->handles_.end(), created.begin(), created.end());
    }
  } else {
    s = rocksdb::DB::Open(db_options, dir, descriptors, &store->handles_, &store->db_);
  }
  if (!s.ok()) {
    if (IsLockHeld(s))
      return Status::Busy(dir +
                          ": the database is in use by another aligndb process that writes to it");
    if (s.IsInvalidArgument() && s.ToString().find("Column famil") != std::string::npos)
      return Status::InvalidArgument(dir + ": not an aligndb database (" + s.ToString() + ")");
    return FromRocks(s, dir);
  }
  if (store->deferred_fs_ && !creating) {
    // Looked at again under the lock: a creator that was closing meanwhile has synced and
    // removed it, and this writer then syncs as RocksDB does.
    bool still = false;
    std::string marked_boot;
    RETURN_IF_ERROR(ReadUnsyncedMarker(dir, &still, &marked_boot));
    store->deferred_fs_->set_deferring(still);
  }
  RETURN_IF_ERROR(store->CheckSchema(options.read_only));
  if (!options.read_only) {
    RETURN_IF_ERROR(store->EnsureIdentity());
    RETURN_IF_ERROR(store->MarkInterruptedRuns());
    RETURN_IF_ERROR(store->DropIndexQueueWithoutIndex());
  }
  *out = std::move(store);
  return Status::OK();
}

Status Store::CheckSchema(bool read_only) {
  std::string version;
  Status vs = GetMeta(kSchemaKey, &version);
  if (vs.IsNotFound()) {
    if (read_only)
      return Status::InvalidArgument(dir_ + ": not an aligndb database (no schema version)");
    return PutMeta(kSchemaKey, std::to_string(kSchemaVersion));
  }
  RETURN_IF_ERROR(vs);
  // Version 1 lacks the keep records of alignments (docs/storage.md, "Keep records"), which align
  // falls back from; versions 1 and 2 hold each article's postings ("terms"), which are no
  // longer read. Both read as they are, and a writer marks them version 3, since from then on a
  // binary that reads postings or does not write keep records must not use them.
  if (version == "1" || version == "2") {
    if (read_only) return Status::OK();
    RETURN_IF_ERROR(DropPostings());
    return PutMeta(kSchemaKey, std::to_string(kSchemaVersion));
  }
  if (version != std::to_string(kSchemaVersion))
    return Status::InvalidArgument(dir_ + ": database schema version " + version +
                                   ", this aligndb reads version " +
                                   std::to_string(kSchemaVersion));
  return Status::OK();
}

// The postings of databases before version 3 ("terms"), which nothing reads: deleted and their
// space reclaimed, once, when a writer upgrades the database (again after a crash before the
// version is written: deleting is idempotent).
Status Store::DropPostings() {
  const std::string end(13, '\xff');  // past every key: edition (4) page id (8)
  rocksdb::WriteOptions wo = WriteOpts();
  RETURN_IF_ERROR(FromRocks(db_->DeleteRange(wo, cf(Cf::kTerms), "", end), dir_ + ": upgrade"));
  rocksdb::CompactRangeOptions co;
  return FromRocks(db_->CompactRange(co, cf(Cf::kTerms), nullptr, nullptr), dir_ + ": upgrade");
}

// Pages queued for a paragraph index that was never built (aligndb queued every page before
// the queue was kept only for databases with an index): dropped, as an index built later starts
// from every stored page. Cheap when there are none: one read and one seek.
Status Store::DropIndexQueueWithoutIndex() {
  uint64_t generation = 0;
  if (!IndexGeneration(&generation).IsNotFound()) return Status::OK();
  std::unique_ptr<rocksdb::Iterator> it(
      db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kPendingIndex)));
  it->SeekToFirst();
  if (!it->Valid()) return FromRocks(it->status(), dir_ + ": index queue");
  const std::string end(13, '\xff');  // past every key: edition (4) page id (8)
  return FromRocks(db_->DeleteRange(WriteOpts(), cf(Cf::kPendingIndex), "", end),
                   dir_ + ": index queue");
}

Status Store::EnsureIdentity() {
  std::string id;
  Status s = GetMeta(kIdentityKey, &id);
  if (!s.IsNotFound()) return s;
  std::random_device rd;
  char buf[33];
  std::snprintf(buf, sizeof(buf), "%08x%08x%08x%08x", rd(), rd(), rd(), rd());
  return PutMeta(kIdentityKey, buf);
}

Status Store::Identity(std::string* id) { return GetMeta(kIdentityKey, id); }

// Only one process writes at a time (the LOCK file): a run still "running" when a writer opens
// the database belongs to a process that died.
Status Store::MarkInterruptedRuns() {
  std::vector<pb::RunManifest> runs;
  RETURN_IF_ERROR(Runs(&runs));
  rocksdb::WriteBatch batch;
  for (auto& run : runs) {
    if (run.status() != kRunRunning) continue;
    run.set_status(kRunInterrupted);
    std::string key;
    AppendBigEndian64(&key, run.run_id());
    batch.Put(cf(Cf::kRuns), key, run.SerializeAsString());
  }
  if (batch.Count() == 0) return Status::OK();
  return Write(&batch, ": record interrupted runs");
}

Status Store::Write(rocksdb::WriteBatch* batch, const std::string& what, bool logged) {
  if (read_only_) return Status::InvalidArgument(dir_ + ": opened read-only");
  if (!write_error_.ok()) return write_error_;
  rocksdb::WriteOptions wo = WriteOpts();
  wo.disableWAL = writes_without_log_ && !logged;
  rocksdb::Status s = db_->Write(wo, batch);
  // After a failed write (a full disk) RocksDB must not be written to again: its log writer
  // asserts. The first error stays the answer to every later write of this Store.
  if (s.IsIOError()) write_error_ = FromRocks(s, dir_ + what);
  if (s.ok() && deferred_fs_ && deferred_fs_->deferring() &&
      std::chrono::steady_clock::now() >= deferred_until_)
    return EndDeferredSyncs();
  return FromRocks(s, dir_ + what);
}

Status Store::EndDeferredSyncs() {
  std::lock_guard<std::mutex> lock(deferral_mutex_);
  if (!deferred_fs_->deferring()) return Status::OK();
  // Syncs are back on first: a file whose sync RocksDB asks for from now on is synced by it, and
  // every file whose sync was skipped before has its writes in the page cache, which the one
  // sync of the file system below makes durable before the marker goes.
  deferred_fs_->set_deferring(false);
  Status s = deferred_fs_->SyncFileSystem();
  if (s.ok()) s = RemoveUnsyncedMarker(dir_);
  if (!s.ok()) write_error_ = s;  // the marker stays; no later write is tried
  return s;
}

void Store::StartFlush() {
  if (!write_error_.ok()) return;
  rocksdb::FlushOptions fo;
  fo.wait = false;
  fo.allow_write_stall = true;
  // An error shows in the next write, or in the flush that ends a command (FlushMemtables).
  (void)db_->Flush(fo, handles_);
}

Status Store::FlushMemtables() {
  rocksdb::FlushOptions fo;
  fo.wait = true;
  if (!write_error_.ok()) return write_error_;
  return FromRocks(db_->Flush(fo, handles_), dir_ + ": flush");
}

Status Store::Close() {
  Status s;
  if (db_ && !read_only_ && write_error_.ok()) {
    // Leave no write-ahead log to replay: readers (export, lookup) then open at once.
    rocksdb::FlushOptions fo;
    fo.wait = true;
    s = FromRocks(db_->Flush(fo, handles_), dir_ + ": flush");
  }
  // Everything the creating command wrote, made durable at once, while this writer still holds
  // the lock (no other writer may take the database over unsynced); RocksDB's syncs are back on
  // for what closing writes. On any failure the marker stays: this boot's next writer goes on
  // without syncs, and after a restart the database is refused rather than read torn.
  if (db_ && deferred_fs_ && deferred_fs_->deferring()) {
    if (s.ok() && write_error_.ok()) {
      s = EndDeferredSyncs();
    } else {
      deferred_fs_->set_deferring(false);
    }
  }
  if (db_) {
    for (auto* h : handles_) db_->DestroyColumnFamilyHandle(h);
    handles_.clear();
    rocksdb::Status cs = db_->Close();
    if (s.ok() && !cs.ok() && !read_only_) s = FromRocks(cs, dir_ + ": close");
    delete db_;
    db_ = nullptr;
  }
  if (registered_writer_) {
    std::lock_guard<std::mutex> lock(WritersMutex());
    auto it = OpenWriters().find(CanonicalDir(dir_));
    if (it != OpenWriters().end() && --it->second == 0) OpenWriters().erase(it);
    registered_writer_ = false;
  }
  return s.ok() ? write_error_ : s;
}

Store::~Store() { (void)Close(); }

bool Store::syncs_deferred() const { return deferred_fs_ && deferred_fs_->deferring(); }

Snapshot::~Snapshot() { store_->db_->ReleaseSnapshot(snap_); }

std::unique_ptr<Snapshot> Store::NewSnapshot() {
  return std::unique_ptr<Snapshot>(new Snapshot(this, db_->GetSnapshot()));
}

// ------------------------------------------------------------------ meta

Status Store::GetMeta(const std::string& key, std::string* value) {
  rocksdb::Status s = db_->Get(rocksdb::ReadOptions(), cf(Cf::kMeta), key, value);
  return FromRocks(s, dir_ + ": meta " + key);
}

Status Store::PutMeta(const std::string& key, const std::string& value) {
  rocksdb::WriteBatch batch;
  batch.Put(cf(Cf::kMeta), key, value);
  return Write(&batch, ": write meta " + key);
}

namespace {
constexpr char kDisplacedPrefix[] = "displaced/";
}  // namespace

Status Store::ForEachDisplaced(
    uint32_t edition, const std::function<Status(uint64_t old_page, uint64_t new_page)>& fn) {
  const std::string prefix = kDisplacedPrefix + EncodeEditionKey(edition);
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kMeta)));
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    if (it->key().size() != prefix.size() + 8 || it->value().size() != 8)
      return Status::Corruption(dir_ + ": meta " + kDisplacedPrefix +
                                ": a key or value of a wrong size");
    RETURN_IF_ERROR(fn(DecodeBigEndian64(it->key().data() + prefix.size()),
                       DecodeBigEndian64(it->value().data())));
  }
  return FromRocks(it->status(), dir_ + ": read meta " + kDisplacedPrefix);
}

Status Store::EditionId(const std::string& name, bool create, uint32_t* id) {
  if (name.empty()) return Status::InvalidArgument("empty edition name");
  std::string value;
  Status s = GetMeta(kEditionPrefix + name, &value);
  if (s.ok()) {
    *id = DecodeBigEndian32(value.data());
    return Status::OK();
  }
  if (!s.IsNotFound()) return s;
  if (!create) return Status::NotFound("no edition \"" + name + "\" in " + dir_);
  std::map<std::string, uint32_t> all;
  RETURN_IF_ERROR(Editions(&all));
  uint32_t next = 1;
  for (auto& [n, i] : all) next = std::max(next, i + 1);
  *id = next;
  return PutMeta(kEditionPrefix + name, EncodeEditionKey(next));
}

Status Store::Editions(std::map<std::string, uint32_t>* out) {
  out->clear();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kMeta)));
  std::string prefix = kEditionPrefix;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next())
    (*out)[it->key().ToString().substr(prefix.size())] = DecodeBigEndian32(it->value().data());
  return FromRocks(it->status(), dir_ + ": list editions");
}

Status Store::GetEditionCounts(uint32_t edition, EditionCounts* out) {
  std::vector<std::string> keys = {
      CounterKey(edition, "articles"), CounterKey(edition, "redirects"),
      CounterKey(edition, "paragraphs"), CounterKey(edition, "sentences")};
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<std::string> values;
  std::vector<rocksdb::ColumnFamilyHandle*> cfs(keys.size(), cf(Cf::kCounts));
  auto statuses = db_->MultiGet(rocksdb::ReadOptions(), cfs, slices, &values);
  int64_t* fields[] = {&out->articles, &out->redirects, &out->paragraphs, &out->sentences};
  for (size_t i = 0; i < keys.size(); ++i) {
    if (statuses[i].IsNotFound())
      *fields[i] = 0;
    else if (!statuses[i].ok())
      return FromRocks(statuses[i], dir_ + ": counts");
    else
      *fields[i] = DecodeInt64(values[i]);
  }
  return Status::OK();
}

// ------------------------------------------------------------------ pages

template <typename Msg>
static Status GetProto(rocksdb::DB* db, rocksdb::ColumnFamilyHandle* cf, const std::string& key,
                       Msg* out, const rocksdb::Snapshot* snapshot, const std::string& what,
                       bool fill_cache = true) {
  rocksdb::ReadOptions ro;
  ro.snapshot = snapshot;
  ro.fill_cache = fill_cache;
  rocksdb::PinnableSlice value;
  rocksdb::Status s = db->Get(ro, cf, key, &value);
  if (s.IsNotFound()) return Status::NotFound(what);
  if (!s.ok()) return FromRocks(s, what);
  if (!out->ParseFromArray(value.data(), static_cast<int>(value.size())))
    return Status::Corruption(what + ": stored record does not parse");
  return Status::OK();
}

Status Store::GetPageState(uint32_t edition, uint64_t page_id, pb::PageState* out) {
  return GetProto(db_, cf(Cf::kPages), EncodePageKey(edition, page_id), out, nullptr,
                  "page " + std::to_string(page_id));
}

Status Store::GetArticle(uint32_t edition, uint64_t page_id, pb::Article* out,
                         const Snapshot* snapshot, bool fill_cache) {
  return GetProto(db_, cf(Cf::kArticles), EncodePageKey(edition, page_id), out, Raw(snapshot),
                  "article " + std::to_string(page_id), fill_cache);
}

Status Store::GetRedirect(uint32_t edition, const std::string& normalized_title, pb::Redirect* out,
                          const Snapshot* snapshot) {
  return GetProto(db_, cf(Cf::kRedirects), EncodeEditionKey(edition) + normalized_title, out,
                  Raw(snapshot), "redirect " + normalized_title);
}

Status Store::FindArticle(uint32_t edition, const std::string& title, uint64_t* page_id,
                          const Snapshot* snapshot) {
  rocksdb::ReadOptions ro;
  ro.snapshot = Raw(snapshot);
  std::string value;
  std::string key = EncodeEditionKey(edition) + NormalizeTitle(title);
  rocksdb::Status s = db_->Get(ro, cf(Cf::kTitles), key, &value);
  if (s.IsNotFound()) return Status::NotFound("no article titled \"" + title + "\"");
  RETURN_IF_ERROR(FromRocks(s, dir_ + ": titles"));
  if (value.size() != 8) return Status::Corruption(dir_ + ": bad title record for " + title);
  *page_id = DecodeBigEndian64(value.data());
  return Status::OK();
}

// ------------------------------------------------------------------ PageWriter

struct PageWriter::Rep {
  // Page writes are kept until Flush and then written in (column family, key) order, so that
  // each memtable receives its keys in order, each inserted next to the previous one rather than
  // searched for from the skip list's head (pages come in dump order; their keys are random).
  struct Write {
    int cf;  // Store::Cf
    bool put;
    std::string key, value;
  };
  std::vector<Write> writes;
  size_t write_bytes = 0;
  void Put(Store::Cf cf, std::string key, std::string value) {
    write_bytes += key.size() + value.size();
    writes.push_back({static_cast<int>(cf), true, std::move(key), std::move(value)});
  }
  void Delete(Store::Cf cf, std::string key) {
    write_bytes += key.size();
    writes.push_back({static_cast<int>(cf), false, std::move(key), {}});
  }
  // Summed changes of the counters of the "counts" CF, by key.
  std::unordered_map<std::string, int64_t> deltas;
  // The pages' document-frequency changes as they come (tokens back to back, each with its
  // edition and change), summed per token by Commit on the committing thread.
  struct TermChange {
    uint32_t edition;
    int32_t delta;
    uint32_t end;  // of the token in term_chars
  };
  std::string term_chars;
  std::vector<TermChange> term_changes;
  PageTerms old_terms;          // of a page being replaced
  bool queue_for_index = true;  // the database has a paragraph index to keep up to date
  // Pages written in this batch: a second write of one of them flushes first, so that every
  // read of a page's old state sees the committed state.
  std::unordered_set<std::string> pages;
  // Title keys ("titles" and "redirects" CFs) put or deleted in this batch, with the page that
  // owns them now (kNoOwner: deleted): their owner is not read from the committed state.
  static constexpr uint64_t kNoOwner = PageWriter::kNoPage;
  std::unordered_map<std::string, uint64_t> titles, redirect_titles;
};

PageWriter::PageWriter(Store* store) : store_(store), rep_(std::make_unique<Rep>()) {
  // Pages are queued for the paragraph index only once the database has one: an index built
  // later starts from every stored page (docs/storage.md, "Paragraph index"). When the store
  // cannot tell, they are queued.
  uint64_t generation = 0;
  rep_->queue_for_index = !store->IndexGeneration(&generation).IsNotFound();
}
PageWriter::~PageWriter() { (void)WaitForCommit(); }

std::unique_ptr<PageWriter> Store::NewPageWriter() { return std::make_unique<PageWriter>(this); }

size_t PageWriter::pending_pages() const { return rep_->pages.size(); }
size_t PageWriter::pending_bytes() const {
  return rep_->write_bytes + rep_->deltas.size() * 32 + rep_->term_chars.size() +
         rep_->term_changes.size() * sizeof(Rep::TermChange);
}

Status PageWriter::Flush() {
  RETURN_IF_ERROR(FlushInBackground());
  return WaitForCommit();
}

Status PageWriter::FlushInBackground() {
  RETURN_IF_ERROR(WaitForCommit());
  if (rep_->pages.empty() && rep_->deltas.empty() && rep_->term_changes.empty() &&
      rep_->writes.empty())
    return Status::OK();
  committing_ = std::move(rep_);
  rep_ = std::make_unique<Rep>();
  // With no thread to be had, committed here.
  committer_.Run([this] { commit_status_ = CommitNoThrow(committing_.get()); });
  return Status::OK();
}

// Nothing thrown may leave the committing thread (it would abort the process).
Status PageWriter::CommitNoThrow(Rep* rep) {
  try {
    return Commit(rep);
  } catch (const std::bad_alloc&) {
    return Status::IOError(store_->dir_ + ": out of memory committing pages");
  } catch (const std::exception& e) {
    return Status::Internal(store_->dir_ + ": committing pages: " + e.what());
  }
}

Status PageWriter::WaitForCommit() {
  committer_.Wait();
  committing_.reset();
  // A failed commit fails every later one: the batches after it were built on its writes.
  if (!commit_status_.ok() && failed_.ok())
    failed_ = commit_status_.WithPrefix("committing the pages read before");
  commit_status_ = Status::OK();
  return failed_;
}

uint64_t PageWriter::TitleOwner(uint32_t edition, const std::string& title, bool redirect) {
  const std::string key = EncodeEditionKey(edition) + NormalizeTitle(title);
  for (const Rep* r : {rep_.get(), committing_.get()}) {
    if (!r) continue;
    const auto& owners = redirect ? r->redirect_titles : r->titles;
    if (auto it = owners.find(key); it != owners.end()) return it->second;
  }
  uint64_t owner = Rep::kNoOwner;
  if (redirect) {
    pb::Redirect r;
    if (store_->GetRedirect(edition, NormalizeTitle(title), &r).ok()) owner = r.page_id();
  } else if (!store_->FindArticle(edition, title, &owner).ok()) {
    owner = Rep::kNoOwner;
  }
  return owner;
}

bool PageWriter::Committing(const std::string& page_key) const {
  return committing_ && committing_->pages.count(page_key);
}

Status PageWriter::Commit(Rep* rep) {
  // Document-frequency changes summed by edition and token.
  std::map<uint32_t, std::unordered_map<std::string, int64_t, TokenHash, std::equal_to<>>>
      df_deltas;
  for (size_t k = 0, begin = 0; k < rep->term_changes.size(); ++k) {
    const Rep::TermChange& c = rep->term_changes[k];
    auto& df = df_deltas[c.edition];
    const std::string_view t(rep->term_chars.data() + begin, c.end - begin);
    auto it = df.find(t);
    if (it == df.end()) it = df.emplace(std::string(t), 0).first;
    it->second += c.delta;
    begin = c.end;
  }
  // Stable: a page's delete and put of one key stay in their order.
  std::stable_sort(rep->writes.begin(), rep->writes.end(), [](const auto& a, const auto& b) {
    return a.cf != b.cf ? a.cf < b.cf : a.key < b.key;
  });
  rocksdb::WriteBatch batch(rep->write_bytes + rep->writes.size() * 16);
  for (const auto& w : rep->writes) {
    auto* cf = store_->cf(static_cast<Store::Cf>(w.cf));
    if (w.put)
      batch.Put(cf, w.key, w.value);
    else
      batch.Delete(cf, w.key);
  }
  rep->writes.clear();
  rep->write_bytes = 0;
  auto* counts = store_->cf(Store::Cf::kCounts);
  // In key order: the memtable's skip list then inserts each key next to the previous one
  // instead of searching from its head. Counter keys (edition 0x00 name) sort before document
  // frequencies (edition 0x01 token) of the same edition.
  std::vector<const std::pair<const std::string, int64_t>*> sorted;
  auto merge_sorted = [&](const std::string& prefix) {
    std::sort(sorted.begin(), sorted.end(),
              [](const auto* a, const auto* b) { return a->first < b->first; });
    std::string key = prefix;
    for (const auto* kv : sorted) {
      key.resize(prefix.size());
      key.append(kv->first);
      batch.Merge(counts, key, EncodeInt64(kv->second));
    }
    sorted.clear();
  };
  for (const auto& kv : rep->deltas)
    if (kv.second != 0) sorted.push_back(&kv);
  merge_sorted("");
  for (const auto& [edition, d] : df_deltas) {
    for (const auto& kv : d)
      if (kv.second != 0) sorted.push_back(&kv);
    merge_sorted(DfKey(edition, ""));
  }
  CrashPoint();
  Status s = store_->Write(&batch, ": write");
  CrashPoint();
  // A large batch's memtables are written to table files in the background now, while the next
  // batches are read, rather than all at once when the database closes. The crash tests' small
  // batches are flushed at once, each: a kill after a commit then keeps it, as a kill after a
  // flush of a large ingest does (ingest writes without the log).
  if (s.ok() && SmallBatches()) {
    s = store_->FlushMemtables();
  } else if (s.ok() && batch.GetDataSize() >= kBackgroundFlushBytes) {
    store_->StartFlush();
  }
  return s;
}

// Removes what the page currently is (article or redirect), as committed.
Status PageWriter::RemovePage(uint32_t edition, uint64_t page_id) {
  std::string page_key = EncodePageKey(edition, page_id);
  if (rep_->pages.count(page_key)) RETURN_IF_ERROR(Flush());
  if (Committing(page_key)) RETURN_IF_ERROR(WaitForCommit());
  rep_->pages.insert(page_key);
  Rep& batch = *rep_;
  auto& deltas = rep_->deltas;
  pb::PageState old;
  Status s = store_->GetPageState(edition, page_id, &old);
  if (s.IsNotFound()) return Status::OK();
  RETURN_IF_ERROR(s);
  std::string title_key = EncodeEditionKey(edition) + NormalizeTitle(old.title());
  if (old.kind() == pb::PageState::ARTICLE) {
    // What the article added is taken back: its terms are computed again from its text.
    pb::Article article;
    Status as = store_->GetArticle(edition, page_id, &article);
    if (!as.ok() && !as.IsNotFound()) return as;
    if (as.ok())
      AddCounts(edition, article, -1, &rep_->old_terms);
    else
      deltas[CounterKey(edition, "articles")] -= 1;
    batch.Delete(Store::Cf::kArticles, page_key);
    if (rep_->queue_for_index) batch.Put(Store::Cf::kPendingIndex, page_key, "");
    // The title may since belong to another page.
    if (TitleOwner(edition, old.title(), /*redirect=*/false) == page_id) {
      batch.Delete(Store::Cf::kTitles, title_key);
      rep_->titles[title_key] = Rep::kNoOwner;
    }
  } else {
    if (TitleOwner(edition, old.title(), /*redirect=*/true) == page_id) {
      batch.Delete(Store::Cf::kRedirects, title_key);
      rep_->redirect_titles[title_key] = Rep::kNoOwner;
    }
    deltas[CounterKey(edition, "redirects")] -= 1;
  }
  batch.Delete(Store::Cf::kPages, page_key);
  return Status::OK();
}

void PageTermsOf(const pb::Article& article, PageTerms* out) {
  out->Clear();
  for (const auto& p : article.paragraphs()) {
    out->BeginParagraph();
    for (const auto& s : p.sentences()) out->AddSentence(s);
  }
}

void PageWriter::AddCounts(uint32_t edition, const pb::Article& article, const PageTerms& terms,
                           int sign) {
  for (size_t k = 0; k < terms.size(); ++k) {
    rep_->term_chars.append(terms.token(k));
    rep_->term_changes.push_back({edition, sign * static_cast<int32_t>(terms.paragraphs(k)),
                                  static_cast<uint32_t>(rep_->term_chars.size())});
  }
  int64_t sentences = 0;
  for (const auto& p : article.paragraphs()) sentences += p.sentences_size();
  auto& deltas = rep_->deltas;
  deltas[CounterKey(edition, "articles")] += sign;
  deltas[CounterKey(edition, "paragraphs")] += sign * article.paragraphs_size();
  deltas[CounterKey(edition, "sentences")] += sign * sentences;
}

void PageWriter::AddCounts(uint32_t edition, const pb::Article& article, int sign,
                           PageTerms* scratch) {
  PageTermsOf(article, scratch);
  AddCounts(edition, article, *scratch, sign);
}

Status PageWriter::PutArticle(uint32_t edition, const pb::Article& article) {
  PageTerms terms;
  PageTermsOf(article, &terms);
  return PutArticle(edition, article, terms);
}

Status PageWriter::PutArticle(uint32_t edition, const pb::Article& article, const PageTerms& terms,
                              std::string* serialized) {
  if (store_->read_only_) return Status::InvalidArgument(store_->dir_ + ": opened read-only");
  RETURN_IF_ERROR(RemovePage(edition, article.page_id()));
  Rep& batch = *rep_;
  std::string page_key = EncodePageKey(edition, article.page_id());
  pb::PageState state;
  state.set_kind(pb::PageState::ARTICLE);
  state.set_title(article.title());
  state.set_revision_id(article.revision_id());
  state.set_content_hash(article.content_hash());
  AddCounts(edition, article, terms, +1);
  batch.Put(Store::Cf::kArticles, page_key,
            serialized ? std::move(*serialized) : article.SerializeAsString());
  batch.Put(Store::Cf::kPages, page_key, state.SerializeAsString());
  std::string id;
  AppendBigEndian64(&id, article.page_id());
  std::string title_key = EncodeEditionKey(edition) + NormalizeTitle(article.title());
  rep_->titles[title_key] = article.page_id();
  batch.Put(Store::Cf::kTitles, std::move(title_key), id);
  if (rep_->queue_for_index) batch.Put(Store::Cf::kPendingIndex, page_key, "");
  return Status::OK();
}

Status PageWriter::PutRedirect(uint32_t edition, const pb::Redirect& redirect) {
  if (store_->read_only_) return Status::InvalidArgument(store_->dir_ + ": opened read-only");
  RETURN_IF_ERROR(RemovePage(edition, redirect.page_id()));
  pb::PageState state;
  state.set_kind(pb::PageState::REDIRECT);
  state.set_title(redirect.title());
  state.set_revision_id(redirect.revision_id());
  state.set_content_hash(redirect.content_hash());
  rep_->redirect_titles[EncodeEditionKey(edition) + NormalizeTitle(redirect.title())] =
      redirect.page_id();
  rep_->Put(Store::Cf::kRedirects, EncodeEditionKey(edition) + NormalizeTitle(redirect.title()),
            redirect.SerializeAsString());
  rep_->Put(Store::Cf::kPages, EncodePageKey(edition, redirect.page_id()),
            state.SerializeAsString());
  rep_->deltas[CounterKey(edition, "redirects")] += 1;
  return Status::OK();
}

Status PageWriter::DeletePage(uint32_t edition, uint64_t page_id) {
  if (store_->read_only_) return Status::InvalidArgument(store_->dir_ + ": opened read-only");
  return RemovePage(edition, page_id);
}

void PageWriter::NoteDisplaced(uint32_t edition, uint64_t old_page, uint64_t new_page) {
  std::string value;
  AppendBigEndian64(&value, new_page);
  rep_->Put(Store::Cf::kMeta, kDisplacedPrefix + EncodePageKey(edition, old_page),
            std::move(value));
}

void PageWriter::ClearDisplaced(uint32_t edition, uint64_t old_page) {
  rep_->Delete(Store::Cf::kMeta, kDisplacedPrefix + EncodePageKey(edition, old_page));
}

Status Store::PutArticle(uint32_t edition, const pb::Article& article) {
  PageWriter w(this);
  RETURN_IF_ERROR(w.PutArticle(edition, article));
  return w.Flush();
}

Status Store::PutRedirect(uint32_t edition, const pb::Redirect& redirect) {
  PageWriter w(this);
  RETURN_IF_ERROR(w.PutRedirect(edition, redirect));
  return w.Flush();
}

Status Store::DeletePage(uint32_t edition, uint64_t page_id) {
  PageWriter w(this);
  RETURN_IF_ERROR(w.DeletePage(edition, page_id));
  return w.Flush();
}

Status Store::ForEachArticle(uint32_t edition, const std::function<Status(const pb::Article&)>& fn,
                             const Snapshot* snapshot) {
  rocksdb::ReadOptions ro;
  ro.snapshot = Raw(snapshot);
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Cf::kArticles)));
  std::string prefix = EncodeEditionKey(edition);
  pb::Article article;
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    if (!article.ParseFromArray(it->value().data(), static_cast<int>(it->value().size())))
      return Status::Corruption(dir_ + ": article record does not parse");
    RETURN_IF_ERROR(fn(article));
  }
  return FromRocks(it->status(), dir_ + ": scan articles");
}

Status Store::ForEachTitle(uint32_t edition,
                           const std::function<Status(const std::string&, uint64_t)>& fn,
                           const Snapshot* snapshot) {
  rocksdb::ReadOptions ro;
  ro.snapshot = Raw(snapshot);
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(ro, cf(Cf::kTitles)));
  std::string prefix = EncodeEditionKey(edition);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    if (it->value().size() != 8) return Status::Corruption(dir_ + ": bad title record");
    RETURN_IF_ERROR(fn(it->key().ToString().substr(4), DecodeBigEndian64(it->value().data())));
  }
  return FromRocks(it->status(), dir_ + ": scan titles");
}

Status Store::HasTitles(uint32_t edition, bool* any) {
  *any = false;
  const std::string prefix = EncodeEditionKey(edition);
  for (Cf table : {Cf::kTitles, Cf::kRedirects}) {
    std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(table)));
    it->Seek(prefix);
    if (it->Valid() && it->key().starts_with(prefix)) {
      *any = true;
      return Status::OK();
    }
    RETURN_IF_ERROR(FromRocks(it->status(), dir_ + ": scan titles"));
  }
  return Status::OK();
}

Status Store::MatchTitles(
    uint32_t edition, uint32_t other,
    const std::function<Status(const std::string&, uint64_t, const uint64_t*)>& fn) {
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kTitles)));
  std::unique_ptr<rocksdb::Iterator> ot(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kTitles)));
  const std::string prefix = EncodeEditionKey(edition), other_prefix = EncodeEditionKey(other);
  std::string target = other_prefix;
  ot->Seek(other_prefix);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next()) {
    if (it->value().size() != 8) return Status::Corruption(dir_ + ": bad title record");
    const rocksdb::Slice title(it->key().data() + prefix.size(), it->key().size() - prefix.size());
    target.resize(other_prefix.size());
    target.append(title.data(), title.size());
    // The other edition's titles in step: a few steps forward, else a seek (when it holds many
    // titles between two of this edition's).
    for (int steps = 0; ot->Valid() && ot->key().compare(target) < 0; ot->Next())
      if (++steps > 16) {
        ot->Seek(target);
        break;
      }
    const bool found = ot->Valid() && ot->key() == target;
    uint64_t other_id = 0;
    if (found) {
      if (ot->value().size() != 8) return Status::Corruption(dir_ + ": bad title record");
      other_id = DecodeBigEndian64(ot->value().data());
    }
    RETURN_IF_ERROR(
        fn(title.ToString(), DecodeBigEndian64(it->value().data()), found ? &other_id : nullptr));
  }
  RETURN_IF_ERROR(FromRocks(ot->status(), dir_ + ": scan titles"));
  return FromRocks(it->status(), dir_ + ": scan titles");
}

Status Store::PageIds(uint32_t edition, std::vector<uint64_t>* out) {
  out->clear();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kPages)));
  std::string prefix = EncodeEditionKey(edition);
  for (it->Seek(prefix); it->Valid() && it->key().starts_with(prefix); it->Next())
    out->push_back(DecodeBigEndian64(it->key().data() + 4));
  return FromRocks(it->status(), dir_ + ": scan pages");
}

Status Store::DocumentFrequencies(uint32_t edition, const std::vector<std::string>& tokens,
                                  std::vector<int64_t>* df, const Snapshot* snapshot) {
  df->assign(tokens.size(), 0);
  if (tokens.empty()) return Status::OK();
  rocksdb::ReadOptions ro;
  ro.snapshot = Raw(snapshot);
  std::vector<std::string> keys;
  keys.reserve(tokens.size());
  for (const auto& t : tokens) keys.push_back(DfKey(edition, t));
  std::vector<rocksdb::Slice> slices(keys.begin(), keys.end());
  std::vector<rocksdb::PinnableSlice> values(keys.size());
  std::vector<rocksdb::Status> statuses(keys.size());
  db_->MultiGet(ro, cf(Cf::kCounts), slices.size(), slices.data(), values.data(), statuses.data());
  for (size_t i = 0; i < keys.size(); ++i) {
    if (statuses[i].ok())
      (*df)[i] = DecodeInt64(values[i]);
    else if (!statuses[i].IsNotFound())
      return FromRocks(statuses[i], dir_ + ": document frequencies");
  }
  return Status::OK();
}

// ------------------------------------------------------------------ runs

Status Store::BeginRun(const std::string& command, const std::vector<std::string>& args,
                       uint64_t* run_id) {
  std::string value;
  Status s = GetMeta(kNextRunKey, &value);
  uint64_t next = 1;
  if (s.ok() && value.size() == 8)
    next = DecodeBigEndian64(value.data());
  else if (!s.ok() && !s.IsNotFound())
    return s;
  std::string next_enc;
  AppendBigEndian64(&next_enc, next + 1);
  pb::RunManifest run;
  run.set_version(kRunManifestVersion);
  run.set_run_id(next);
  run.set_command(command);
  for (const auto& a : args) run.add_arguments(a);
  run.set_started_unix_ms(NowUnixMs());
  run.set_status(kRunRunning);
  run.set_tool_version(kToolVersion);
  rocksdb::WriteBatch batch;
  batch.Put(cf(Cf::kMeta), kNextRunKey, next_enc);
  std::string key;
  AppendBigEndian64(&key, next);
  batch.Put(cf(Cf::kRuns), key, run.SerializeAsString());
  RETURN_IF_ERROR(Write(&batch, ": record run"));
  *run_id = next;
  return Status::OK();
}

Status Store::FinishRun(uint64_t run_id, const Status& result,
                        const std::map<std::string, uint64_t>& counts) {
  std::string key;
  AppendBigEndian64(&key, run_id);
  pb::RunManifest run;
  RETURN_IF_ERROR(
      GetProto(db_, cf(Cf::kRuns), key, &run, nullptr, "run " + std::to_string(run_id)));
  run.set_finished_unix_ms(NowUnixMs());
  run.set_status(result.ok() ? "ok" : result.ToString());
  for (auto& [k, v] : counts) (*run.mutable_counts())[k] = v;
  rocksdb::WriteBatch batch;
  batch.Put(cf(Cf::kRuns), key, run.SerializeAsString());
  return Write(&batch, ": record run");
}

Status Store::Runs(std::vector<pb::RunManifest>* out) {
  out->clear();
  std::unique_ptr<rocksdb::Iterator> it(db_->NewIterator(rocksdb::ReadOptions(), cf(Cf::kRuns)));
  for (it->SeekToFirst(); it->Valid(); it->Next()) {
    pb::RunManifest run;
    if (!run.ParseFromArray(it->value().data(), static_cast<int>(it->value().size())))
      return Status::Corruption(dir_ + ": run record does not parse");
    out->push_back(std::move(run));
  }
  RETURN_IF_ERROR(FromRocks(it->status(), dir_ + ": scan runs"));
  // A reader shows a run whose process died as the writer that opens next will mark it.
  if (read_only_ &&
      std::any_of(out->begin(), out->end(),
                  [](const auto& r) { return r.status() == kRunRunning; }) &&
      !WriterActive(dir_))
    for (auto& run : *out)
      if (run.status() == kRunRunning) run.set_status(kRunInterrupted);
  return Status::OK();
}

}  // namespace aligndb

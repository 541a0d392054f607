// A new database written without a sync per file, made durable once when its creating command
// ends (docs/storage.md, "A new database's syncs"). Included only by the storage layer's own
// sources (and its tests).
#ifndef ALIGNDB_STORAGE_DEFERRED_SYNC_H_
#define ALIGNDB_STORAGE_DEFERRED_SYNC_H_

#include <rocksdb/file_system.h>

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "aligndb/status.h"

namespace aligndb {

// RocksDB syncs each table file, log, manifest record and directory entry as it goes: dozens of
// syncs for a small command, each a journal commit that costs milliseconds (more than the rest
// of a small ingest). While `deferring` is on, this file system skips them all; the caller then
// makes everything durable at once (SyncDatabaseDirectory). Safe only for a database that held
// nothing before: a power cut meanwhile can tear anything written, and the unsynced marker says
// so to the next open. Thread-safe.
class DeferredSyncFileSystem : public rocksdb::FileSystemWrapper {
 public:
  // `dir`: the database directory, held open from now on, so that SyncFileSystem reports every
  // write error of the file system since (syncfs reports those since its descriptor was opened).
  explicit DeferredSyncFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target,
                                  const std::string& dir = "");
  ~DeferredSyncFileSystem() override;
  const char* Name() const override { return "AligndbDeferredSync"; }

  // Not OK when `dir` could not be held open (too many open files, permissions): the store then
  // refuses to write without syncs, since a later sync could not report the errors it must.
  const Status& open_status() const { return open_status_; }

  // Makes everything written so far durable: one sync of the file system that holds `dir`
  // (syncfs: one journal commit instead of one per file).
  Status SyncFileSystem();

  void set_deferring(bool on) { deferring_.store(on); }
  bool deferring() const { return deferring_.load(); }
  // Syncs skipped so far (for tests and benchmarks).
  uint64_t skipped_syncs() const { return skipped_.load(); }

  rocksdb::IOStatus NewWritableFile(const std::string& f, const rocksdb::FileOptions& o,
                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                    rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReopenWritableFile(const std::string& f, const rocksdb::FileOptions& o,
                                       std::unique_ptr<rocksdb::FSWritableFile>* r,
                                       rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus ReuseWritableFile(const std::string& f, const std::string& old,
                                      const rocksdb::FileOptions& o,
                                      std::unique_ptr<rocksdb::FSWritableFile>* r,
                                      rocksdb::IODebugContext* dbg) override;
  rocksdb::IOStatus NewDirectory(const std::string& name, const rocksdb::IOOptions& o,
                                 std::unique_ptr<rocksdb::FSDirectory>* r,
                                 rocksdb::IODebugContext* dbg) override;

  // True (and counted) when a sync is to be skipped now. Acquire pairs with set_deferring's
  // store: a sync asked after syncs are back on is never skipped.
  bool Skip() {
    if (!deferring_.load(std::memory_order_acquire)) return false;
    skipped_.fetch_add(1, std::memory_order_relaxed);
    return true;
  }

 private:
  std::string dir_;
  int dir_fd_ = -1;
  Status open_status_;
  std::atomic<bool> deferring_{false};
  std::atomic<uint64_t> skipped_{0};
};

// The file that marks a database written without syncs by the command creating it; it holds the
// boot id of the machine at that time. Removed once everything is durable.
inline constexpr const char* kUnsyncedMarker = "ALIGNDB-UNSYNCED";

// This boot of the machine (Linux: /proc/sys/kernel/random/boot_id). NotFound when unknown.
Status CurrentBootId(std::string* id);

// Writes the marker into `dir` and makes it durable (file and directory) before anything else is
// written there.
Status WriteUnsyncedMarker(const std::string& dir, const std::string& boot_id);

// Reads the marker of `dir`: `*present` false when there is none.
Status ReadUnsyncedMarker(const std::string& dir, bool* present, std::string* boot_id);

// Removes the marker of `dir` durably, once everything it speaks for is durable.
Status RemoveUnsyncedMarker(const std::string& dir);

}  // namespace aligndb

#endif  // ALIGNDB_STORAGE_DEFERRED_SYNC_H_

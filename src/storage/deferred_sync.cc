#include "storage/deferred_sync.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

namespace aligndb {

namespace {

using rocksdb::IODebugContext;
using rocksdb::IOOptions;
using rocksdb::IOStatus;

class DeferredFile : public rocksdb::FSWritableFileOwnerWrapper {
 public:
  DeferredFile(std::unique_ptr<rocksdb::FSWritableFile>&& t, DeferredSyncFileSystem* fs)
      : rocksdb::FSWritableFileOwnerWrapper(std::move(t)), fs_(fs) {}
  IOStatus Sync(const IOOptions& o, IODebugContext* dbg) override {
    return fs_->Skip() ? IOStatus::OK() : target()->Sync(o, dbg);
  }
  IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
    return fs_->Skip() ? IOStatus::OK() : target()->Fsync(o, dbg);
  }
  IOStatus RangeSync(uint64_t offset, uint64_t nbytes, const IOOptions& o,
                     IODebugContext* dbg) override {
    return fs_->Skip() ? IOStatus::OK() : target()->RangeSync(offset, nbytes, o, dbg);
  }

 private:
  DeferredSyncFileSystem* fs_;
};

class DeferredDirectory : public rocksdb::FSDirectoryWrapper {
 public:
  DeferredDirectory(std::unique_ptr<rocksdb::FSDirectory>&& t, DeferredSyncFileSystem* fs)
      : rocksdb::FSDirectoryWrapper(std::move(t)), fs_(fs) {}
  IOStatus Fsync(const IOOptions& o, IODebugContext* dbg) override {
    return fs_->Skip() ? IOStatus::OK() : rocksdb::FSDirectoryWrapper::Fsync(o, dbg);
  }
  IOStatus FsyncWithDirOptions(const IOOptions& o, IODebugContext* dbg,
                               const rocksdb::DirFsyncOptions& d) override {
    return fs_->Skip() ? IOStatus::OK()
                       : rocksdb::FSDirectoryWrapper::FsyncWithDirOptions(o, dbg, d);
  }

 private:
  DeferredSyncFileSystem* fs_;
};

std::string MarkerPath(const std::string& dir) { return dir + "/" + kUnsyncedMarker; }

Status SyncPath(const std::string& path, bool whole_file_system) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return Status::IOError(path + ": cannot open to sync: " + std::strerror(errno));
  int rc = whole_file_system ? ::syncfs(fd) : ::fsync(fd);
  int err = errno;
  ::close(fd);
  if (rc != 0) return Status::IOError(path + ": sync failed: " + std::strerror(err));
  return Status::OK();
}

}  // namespace

// Every writable file RocksDB opens, wrapped so that its syncs can be skipped.
static IOStatus Wrapped(IOStatus s, std::unique_ptr<rocksdb::FSWritableFile>* r,
                        DeferredSyncFileSystem* fs) {
  if (s.ok()) *r = std::make_unique<DeferredFile>(std::move(*r), fs);
  return s;
}

DeferredSyncFileSystem::DeferredSyncFileSystem(const std::shared_ptr<rocksdb::FileSystem>& target,
                                               const std::string& dir)
    : rocksdb::FileSystemWrapper(target), dir_(dir) {
  if (dir.empty()) return;
  dir_fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir_fd_ < 0)
    open_status_ = Status::IOError(dir + ": cannot hold the database directory open: " +
                                   std::strerror(errno));
}

DeferredSyncFileSystem::~DeferredSyncFileSystem() {
  if (dir_fd_ >= 0) ::close(dir_fd_);
}

Status DeferredSyncFileSystem::SyncFileSystem() {
  if (dir_fd_ < 0) return SyncPath(dir_, true);
  if (::syncfs(dir_fd_) != 0)
    return Status::IOError(dir_ + ": sync of the file system failed: " + std::strerror(errno));
  return Status::OK();
}

IOStatus DeferredSyncFileSystem::NewWritableFile(const std::string& f,
                                                 const rocksdb::FileOptions& o,
                                                 std::unique_ptr<rocksdb::FSWritableFile>* r,
                                                 IODebugContext* dbg) {
  return Wrapped(target()->NewWritableFile(f, o, r, dbg), r, this);
}

IOStatus DeferredSyncFileSystem::ReopenWritableFile(const std::string& f,
                                                    const rocksdb::FileOptions& o,
                                                    std::unique_ptr<rocksdb::FSWritableFile>* r,
                                                    IODebugContext* dbg) {
  return Wrapped(target()->ReopenWritableFile(f, o, r, dbg), r, this);
}

IOStatus DeferredSyncFileSystem::ReuseWritableFile(const std::string& f, const std::string& old,
                                                   const rocksdb::FileOptions& o,
                                                   std::unique_ptr<rocksdb::FSWritableFile>* r,
                                                   IODebugContext* dbg) {
  return Wrapped(target()->ReuseWritableFile(f, old, o, r, dbg), r, this);
}

IOStatus DeferredSyncFileSystem::NewDirectory(const std::string& name, const IOOptions& o,
                                              std::unique_ptr<rocksdb::FSDirectory>* r,
                                              IODebugContext* dbg) {
  IOStatus s = target()->NewDirectory(name, o, r, dbg);
  if (s.ok()) *r = std::make_unique<DeferredDirectory>(std::move(*r), this);
  return s;
}

Status CurrentBootId(std::string* id) {
  std::ifstream in("/proc/sys/kernel/random/boot_id");
  std::string line;
  if (!in || !std::getline(in, line) || line.empty())
    return Status::NotFound("the machine's boot id is unknown");
  *id = line;
  return Status::OK();
}

Status WriteUnsyncedMarker(const std::string& dir, const std::string& boot_id) {
  const std::string path = MarkerPath(dir);
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return Status::IOError(path + ": cannot create: " + std::strerror(errno));
  const std::string text = boot_id + "\n";
  bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
            ::fsync(fd) == 0;
  int err = errno;
  ::close(fd);
  if (!ok) return Status::IOError(path + ": cannot write: " + std::strerror(err));
  // The marker's name must be durable before any file it speaks for.
  return SyncPath(dir, false);
}

Status ReadUnsyncedMarker(const std::string& dir, bool* present, std::string* boot_id) {
  const std::string path = MarkerPath(dir);
  *present = false;
  if (::access(path.c_str(), F_OK) != 0) {
    if (errno == ENOENT) return Status::OK();
    return Status::IOError(path + ": " + std::strerror(errno));
  }
  std::ifstream in(path);
  if (!in) return Status::IOError(path + ": cannot read");
  *present = true;
  std::string line;
  std::getline(in, line);  // empty when the marker was torn: matches no boot
  *boot_id = line;
  return Status::OK();
}

Status RemoveUnsyncedMarker(const std::string& dir) {
  const std::string path = MarkerPath(dir);
  if (::unlink(path.c_str()) != 0 && errno != ENOENT)
    return Status::IOError(path + ": cannot remove: " + std::strerror(errno));
  return SyncPath(dir, false);
}

}  // namespace aligndb

#include "util/files.h"

#include <fcntl.h>  // renameat2, RENAME_EXCHANGE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

namespace aligndb {

namespace fs = std::filesystem;

Status OpenInputFile(const std::string& path, std::ifstream* in) {
  std::error_code ec;
  if (fs::is_directory(path, ec)) return Status::IOError(path + ": cannot open: is a directory");
  in->open(path, std::ios::binary);
  if (!*in) return Status::IOError(path + ": cannot open: " + std::strerror(errno));
  return Status::OK();
}

Status CheckOutputPath(const std::string& path) {
  std::error_code ec;
  if (path.empty()) return Status::InvalidArgument("an empty output path: give a file name");
  if (path.back() == '/' || fs::is_directory(path, ec))
    return Status::InvalidArgument(path + ": is a directory; give a file name");
  const fs::path parent = fs::path(path).parent_path();
  if (!parent.empty() && !fs::is_directory(parent, ec))
    return Status::IOError(path + ": cannot write: the directory " + parent.string() +
                           (fs::exists(parent, ec) ? " is not a directory" : " does not exist"));
  return Status::OK();
}

OutputFile::~OutputFile() {
  if (!open_ || tmp_.empty()) return;
  out_.close();
  std::error_code ec;
  fs::remove(tmp_, ec);
}

namespace {

// This machine's name, as temporary files carry it (no '/' or '.').
std::string HostName() {
  char name[256] = {};
  if (gethostname(name, sizeof(name) - 1) != 0 || !name[0]) return "host";
  std::string h(name);
  for (char& c : h)
    if (c == '/' || c == '.') c = '_';
  return h;
}

// The temporary files of `path` are "PATH.tmp-HOST-PID": this prefix, then a process id.
std::string TemporaryPrefix(const std::string& path) { return path + ".tmp-" + HostName() + "-"; }

// Temporary files of earlier runs for the same target whose process is gone (a kill -9 leaves
// them): removed. A live process's file is left to it, and so is another host's: a process id
// says nothing about another machine sharing the directory.
void RemoveStaleTemporaries(const std::string& path) {
  const fs::path target(path);
  const std::string prefix = fs::path(TemporaryPrefix(path)).filename().string();
  std::error_code ec;
  fs::directory_iterator it(target.has_parent_path() ? target.parent_path() : fs::path("."), ec);
  for (; !ec && it != fs::directory_iterator(); it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.size() <= prefix.size() || name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.size() > 9 || digits.find_first_not_of("0123456789") != std::string::npos) continue;
    const pid_t pid = static_cast<pid_t>(std::stol(digits));
    if (pid <= 0 || (kill(pid, 0) != 0 && errno == ESRCH)) {
      std::error_code rm;
      fs::remove(it->path(), rm);
    }
  }
}

// The file a chain of symbolic links ends at (relative targets resolved against each link's
// directory; at most 40 links, as the kernel allows); `path` itself when it is not a link. A
// dangling link resolves to the missing file it names, which is then created.
std::string FollowLinks(const std::string& path) {
  fs::path p = path;
  std::error_code ec;
  for (int hop = 0; hop < 40 && fs::is_symlink(p, ec); ++hop) {
    const fs::path target = fs::read_symlink(p, ec);
    if (ec) break;
    p = target.is_absolute() ? target : p.parent_path() / target;
  }
  return p.string();
}

// A path through the process's own descriptors (/dev/stdout, /dev/fd/1, /proc/self/fd/1) names
// whatever the shell opened there, perhaps a file opened for appending: written in place and
// appended to, never replaced or truncated.
bool IsDescriptorPath(const std::string& path) {
  return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

}  // namespace

Status OutputFile::Open(const std::string& given) {
  RETURN_IF_ERROR(CheckOutputPath(given));
  std::error_code ec;
  if (IsDescriptorPath(given)) {
    path_ = given;
    out_.open(given, std::ios::binary | std::ios::app);
    if (!out_) return Status::IOError(given + ": cannot open for writing: " + std::strerror(errno));
    open_ = true;
    return Status::OK();
  }
  // A symbolic link stays a link: the file it points to is what gets replaced.
  const std::string path = FollowLinks(given);
  path_ = path;
  const auto status = fs::status(path, ec);
  const bool special = !ec && fs::exists(status) && !fs::is_regular_file(status);
  // An existing file this process may not write is not replaced behind its back.
  if (!special && fs::exists(status) && access(path.c_str(), W_OK) != 0)
    return Status::IOError(given + ": cannot open for writing: " + std::strerror(errno));
  if (!special) RemoveStaleTemporaries(path);
  tmp_ = special ? "" : TemporaryPrefix(path) + std::to_string(getpid());
  out_.open(special ? path : tmp_, std::ios::binary | std::ios::trunc);
  if (!out_) return Status::IOError(given + ": cannot open for writing: " + std::strerror(errno));
  open_ = true;
  // The replacement keeps the permissions of the file it replaces.
  if (!special && fs::exists(status)) fs::permissions(tmp_, status.permissions(), ec);
  return Status::OK();
}

Status OutputFile::Close() {
  if (!open_) return Status::Internal(path_ + ": committed without being open");
  out_.close();
  if (!out_) return Status::IOError(path_ + ": write failed");
  return Status::OK();
}

Status OutputFile::Replace() {
  open_ = false;
  if (tmp_.empty()) return Status::OK();
  std::error_code ec;
  fs::rename(tmp_, path_, ec);
  if (!ec) return Status::OK();
  const std::string why = ec.message();
  fs::remove(tmp_, ec);
  return Status::IOError(path_ + ": cannot replace: " + why);
}

Status OutputFile::Commit() {
  RETURN_IF_ERROR(Close());
  return Replace();
}

Status OutputFile::CommitPair(OutputFile* first, OutputFile* second) {
  RETURN_IF_ERROR(first->Close());
  RETURN_IF_ERROR(second->Close());
  std::error_code ec;
  if (first->tmp_.empty() || second->tmp_.empty()) {  // written in place: nothing to put back
    RETURN_IF_ERROR(first->Replace());
    return second->Replace();
  }
  const char* tmp = first->tmp_.c_str();
  const char* target = first->path_.c_str();
  if (renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) != 0) {
    // No first target yet (or no exchange on this file system): renamed in turn; a new first
    // target goes again when the second fails.
    const bool existed = errno != ENOENT;
    RETURN_IF_ERROR(first->Replace());
    Status s = second->Replace();
    if (!s.ok() && !existed) fs::remove(first->path_, ec);
    return s;
  }
  first->open_ = false;  // its temporary name holds the old target now
  Status s = second->Replace();
  if (!s.ok() && renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) != 0)
    s = Status::IOError(first->path_ + ": replaced, but " + second->path_ +
                        " could not be, and the old " + first->path_ + " is kept as " +
                        first->tmp_ + ": " + s.message());
  else
    fs::remove(first->tmp_, ec);
  return s;
}

}  // namespace aligndb

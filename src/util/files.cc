#include "util/files.h"

#include <fcntl.h>  // renameat2, RENAME_EXCHANGE
#include <signal.h>
#include <stdio.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <system_error>

#include "util/escape.h"

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
    return Status::IOError(
        path + ": cannot write: the directory " + parent.string() +
        (fs::exists(parent, ec) ? " is not a directory" : " does not exist (create it first)"));
  return Status::OK();
}

Status CheckOutputDirectory(const std::string& path) {
  std::error_code ec;
  if (path.empty()) return Status::InvalidArgument("an empty output path: give a directory");
  if (fs::exists(path, ec) && !fs::is_directory(path, ec))
    return Status::InvalidArgument(path + ": is a file; give a directory (created if missing)");
  // The nearest existing directory above: a file there cannot hold directories.
  for (fs::path up = fs::path(path).parent_path(); !up.empty() && up != up.parent_path();
       up = up.parent_path())
    if (fs::exists(up, ec)) {
      if (!fs::is_directory(up, ec))
        return Status::IOError(path + ": cannot create: " + up.string() + " is not a directory");
      break;
    }
  return Status::OK();
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

// ---- Temporary files removed on SIGINT, SIGTERM and SIGHUP ----
// An interrupted command (Ctrl-C, a kill, a closed terminal) would leave its temporary files for
// the next run to the same target to remove. The paths of the open ones sit in fixed slots that
// a signal handler reads without allocating or locking: it unlinks them, and the signal, raised
// again with its default action, ends the process as it would have (killed by that signal).

constexpr int kSlots = 16;  // temporary files open at once (a parallel export has two)
constexpr size_t kSlotPath = 4096;
constexpr int kFree = 0, kFilling = 1, kHeld = 2;
struct Slot {
  std::atomic<int> state{kFree};
  char path[kSlotPath];
};
Slot g_slots[kSlots];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};

extern "C" void RemoveTemporariesAndReraise(int sig) {
  const int saved = errno;
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kHeld) unlink(slot.path);
  errno = saved;
  raise(sig);  // pending until the handler returns; SA_RESETHAND restored the default action
}

// Installs the handler for each signal whose action is the default one: a process that ignores
// a signal (nohup) or handles it itself keeps doing so.
void InstallCleanupHandlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kCleanupSignals) {
      struct sigaction old {};
      if (sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL ||
          (old.sa_flags & SA_SIGINFO))
        continue;
      struct sigaction sa {};
      sa.sa_handler = RemoveTemporariesAndReraise;
      sigemptyset(&sa.sa_mask);
      for (int other : kCleanupSignals) sigaddset(&sa.sa_mask, other);
      sa.sa_flags = SA_RESETHAND | SA_RESTART;
      sigaction(sig, &sa, nullptr);
    }
  });
}

// A read through a memory-mapped table file faults with SIGBUS when the file shrank under the
// process (another program cut it short) or the disk failed to read it. That ends the command
// as the same damage found by a read does (corruption, exit 3), not with a core: its temporary
// files removed, one line naming the database. A writer stopped there is a killed one
// (docs/incremental.md). The path is kept in a fixed buffer, which the handler reads without
// allocating.
char g_mapped_db[kSlotPath];
std::atomic<size_t> g_mapped_db_size{0};

extern "C" void ReportMappedReadFault(int sig, siginfo_t* info, void*) {
  // Only a fault of a memory access is a mapped read's: one sent by kill(2) (si_code ≤ 0) ends
  // the process as SIGBUS does by default.
  if (info == nullptr || info->si_code <= 0) {
    signal(sig, SIG_DFL);
    raise(sig);
    return;
  }
  for (Slot& slot : g_slots)
    if (slot.state.load(std::memory_order_acquire) == kHeld) unlink(slot.path);
  static const char kPrefix[] = "aligndb: ";
  static const char kMessage[] =
      ": a file read through a memory map (a table file of the database, or a mapped vectors or "
      "lexicon file) was cut short by another program while this command read it, or the disk "
      "could not read it; the command stopped, and the database may be damaged\n";
  ssize_t ignored = write(STDERR_FILENO, kPrefix, sizeof(kPrefix) - 1);
  ignored = write(STDERR_FILENO, g_mapped_db, g_mapped_db_size.load(std::memory_order_acquire));
  ignored = write(STDERR_FILENO, kMessage, sizeof(kMessage) - 1);
  (void)ignored;
  _exit(3);
}

// The slot now holding `path` (-1 when all are taken or the path is too long: the file is then
// left to the next run, as before).
int HoldTemporary(const std::string& path) {
  if (path.size() >= kSlotPath) return -1;
  InstallCleanupHandlers();
  for (int i = 0; i < kSlots; ++i) {
    int expected = kFree;
    if (!g_slots[i].state.compare_exchange_strong(expected, kFilling)) continue;
    std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
    g_slots[i].state.store(kHeld, std::memory_order_release);
    return i;
  }
  return -1;
}

void ReleaseTemporary(int* slot) {
  if (*slot >= 0) g_slots[*slot].state.store(kFree, std::memory_order_release);
  *slot = -1;
}

// Blocks the cleanup signals in this thread while it lives.
class SignalsHeld {
 public:
  SignalsHeld() {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : kCleanupSignals) sigaddset(&set, sig);
    pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~SignalsHeld() { pthread_sigmask(SIG_SETMASK, &old_, nullptr); }

 private:
  sigset_t old_;
};

// A path through the process's own descriptors (/dev/stdout, /dev/fd/1, /proc/self/fd/1) names
// whatever the shell opened there, perhaps a file opened for appending: written in place and
// appended to, never replaced or truncated.
bool IsDescriptorPath(const std::string& path) {
  return path.rfind("/dev/", 0) == 0 || path.rfind("/proc/", 0) == 0;
}

}  // namespace

void InstallMappedReadFaultHandler(const std::string& db) {
  // The database named is the last one mapped (a command maps one), escaped for the terminal
  // here, where allocating is allowed.
  const std::string shown = TerminalSafe(db);
  const size_t n = std::min(shown.size(), kSlotPath);
  g_mapped_db_size.store(0, std::memory_order_release);
  std::memcpy(g_mapped_db, shown.data(), n);
  g_mapped_db_size.store(n, std::memory_order_release);
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction old {};
    if (sigaction(SIGBUS, nullptr, &old) != 0 || old.sa_handler != SIG_DFL ||
        (old.sa_flags & SA_SIGINFO))
      return;  // a host program (Python) that handles SIGBUS itself keeps its handler
    struct sigaction sa {};
    sa.sa_sigaction = ReportMappedReadFault;
    sa.sa_flags = SA_SIGINFO;
    sigemptyset(&sa.sa_mask);
    // Held while the handler runs: a closed stderr then fails its write with EPIPE instead of
    // ending the process before its exit code.
    sigaddset(&sa.sa_mask, SIGPIPE);
    for (int other : kCleanupSignals) sigaddset(&sa.sa_mask, other);
    sigaction(SIGBUS, &sa, nullptr);
  });
}

OutputFile::~OutputFile() {
  if (open_ && !tmp_.empty()) {
    out_.close();
    std::error_code ec;
    fs::remove(tmp_, ec);
  }
  ReleaseTemporary(&slot_);
}

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
  if (!special) slot_ = HoldTemporary(tmp_);  // before the file exists: no moment unheld
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
  if (!ec) {
    ReleaseTemporary(&slot_);  // renamed: no temporary file left for a signal to remove
    return Status::OK();
  }
  const std::string why = ec.message();
  fs::remove(tmp_, ec);
  ReleaseTemporary(&slot_);
  return Status::IOError(path_ + ": cannot replace: " + why);
}

Status OutputFile::Commit() {
  RETURN_IF_ERROR(Close());
  return Replace();
}

Status OutputFile::CommitPair(OutputFile* first, OutputFile* second) {
  RETURN_IF_ERROR(first->Close());
  RETURN_IF_ERROR(second->Close());
  // The renames are one step for the signals that remove temporary files: one arriving
  // meanwhile is taken after it, so that the handler never removes the old first target while
  // it waits under the temporary name to be put back.
  SignalsHeld held;
  const Status s = [&] {
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
      Status r = second->Replace();
      if (!r.ok() && !existed) fs::remove(first->path_, ec);
      return r;
    }
    first->open_ = false;  // its temporary name holds the old target now
    Status r = second->Replace();
    if (!r.ok() && renameat2(AT_FDCWD, tmp, AT_FDCWD, target, RENAME_EXCHANGE) != 0)
      r = Status::IOError(first->path_ + ": replaced, but " + second->path_ +
                          " could not be, and the old " + first->path_ + " is kept as " +
                          first->tmp_ + ": " + r.message());
    else
      fs::remove(first->tmp_, ec);
    return r;
  }();
  ReleaseTemporary(&first->slot_);  // an old target kept under its name is not the handler's
  ReleaseTemporary(&second->slot_);
  return s;
}

}  // namespace aligndb

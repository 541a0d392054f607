// Input files that are directories, output files that replace their target only when committed.
#include "util/files.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::ReadFile;
using testing::TempDir;
using testing::WriteFile;

// The host part of a temporary file's name, as OutputFile writes it.
std::string Host() {
  char name[256] = {};
  gethostname(name, sizeof(name) - 1);
  std::string h = name[0] ? name : "host";
  for (char& c : h)
    if (c == '/' || c == '.') c = '_';
  return h;
}

size_t Entries(const std::string& dir) {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++n;
  return n;
}

TEST(OpenInputFileTest, ADirectoryIsAnIoErrorNotAnEmptyFile) {
  TempDir tmp;
  std::ifstream in;
  Status s = OpenInputFile(tmp.path(), &in);
  EXPECT_TRUE(s.code() == Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find("is a directory"), std::string::npos) << s.ToString();
  s = OpenInputFile(tmp.Sub("missing"), &in);
  EXPECT_TRUE(s.code() == Status::Code::kIOError) << s.ToString();
  WriteFile(tmp.Sub("f"), "x\n");
  std::ifstream ok;
  ASSERT_TRUE(OpenInputFile(tmp.Sub("f"), &ok).ok());
  std::string line;
  EXPECT_TRUE(std::getline(ok, line));
  EXPECT_EQ(line, "x");
}

TEST(OutputFileTest, ReplacesTheTargetOnlyOnCommit) {
  TempDir tmp;
  const std::string target = tmp.Sub("out.tsv");
  WriteFile(target, "old\n");
  {
    OutputFile f;
    ASSERT_TRUE(f.Open(target).ok());
    f.stream() << "new\n";
    EXPECT_EQ(ReadFile(target), "old\n");  // not yet
  }  // dropped uncommitted: the target stays, the temporary file goes
  EXPECT_EQ(ReadFile(target), "old\n");
  EXPECT_EQ(Entries(tmp.path()), 1u);
  OutputFile f;
  ASSERT_TRUE(f.Open(target).ok());
  f.stream() << "new\n";
  ASSERT_TRUE(f.Commit().ok());
  EXPECT_EQ(ReadFile(target), "new\n");
  EXPECT_EQ(Entries(tmp.path()), 1u);
}

// A parallel export's two files replace their targets together: when the second cannot (its
// target became a directory after it was opened), the first target is as it was, new or old.
TEST(OutputFileTest, APairIsCommittedTogetherOrNotAtAll) {
  for (bool first_existed : {true, false}) {
    SCOPED_TRACE(first_existed ? "first target existed" : "no first target");
    TempDir tmp;
    const std::string normal = tmp.Sub("x.normal"), simple = tmp.Sub("x.simple");
    if (first_existed) WriteFile(normal, "old normal\n");
    WriteFile(simple, "old simple\n");
    {
      OutputFile a, b;
      ASSERT_TRUE(a.Open(normal).ok());
      ASSERT_TRUE(b.Open(simple).ok());
      a.stream() << "new normal\n";
      b.stream() << "new simple\n";
      ASSERT_TRUE(OutputFile::CommitPair(&a, &b).ok());
    }
    EXPECT_EQ(ReadFile(normal), "new normal\n");
    EXPECT_EQ(ReadFile(simple), "new simple\n");
    EXPECT_EQ(Entries(tmp.path()), 2u);

    if (!first_existed) std::filesystem::remove(normal);
    {
      OutputFile a, b;
      ASSERT_TRUE(a.Open(normal).ok());
      ASSERT_TRUE(b.Open(simple).ok());
      a.stream() << "newer normal\n";
      b.stream() << "newer simple\n";
      std::filesystem::remove(simple);
      std::filesystem::create_directory(simple);
      WriteFile(simple + "/keep", "x");  // a non-empty directory: no file renames over it
      Status s = OutputFile::CommitPair(&a, &b);
      EXPECT_TRUE(s.code() == Status::Code::kIOError) << s.ToString();
    }
    if (first_existed)
      EXPECT_EQ(ReadFile(normal), "new normal\n");
    else
      EXPECT_FALSE(std::filesystem::exists(normal));
    EXPECT_EQ(Entries(tmp.path()), first_existed ? 2u : 1u);  // no temporary file left
  }
}

// A killed export leaves its temporary file; the next export to the same target removes it when
// its process is gone, and leaves a live process's file and other names alone.
TEST(OutputFileTest, TemporariesOfDeadProcessesAreRemovedByTheNextOpen) {
  TempDir tmp;
  const std::string target = tmp.Sub("out.tsv");
  pid_t dead = fork();
  ASSERT_GE(dead, 0);
  if (dead == 0) _exit(0);
  ASSERT_EQ(waitpid(dead, nullptr, 0), dead);  // reaped: its pid names no process now
  const std::string stale = target + ".tmp-" + Host() + "-" + std::to_string(dead);
  const std::string live = target + ".tmp-" + Host() + "-" + std::to_string(getppid());
  WriteFile(stale, "partial\n");
  WriteFile(live, "being written\n");
  WriteFile(tmp.Sub("other.tsv.tmp-1"), "another target's\n");
  WriteFile(target + ".tmp-x1", "not a pid\n");
  OutputFile f;
  ASSERT_TRUE(f.Open(target).ok());
  f.stream() << "new\n";
  ASSERT_TRUE(f.Commit().ok());
  EXPECT_FALSE(std::filesystem::exists(stale));
  EXPECT_TRUE(std::filesystem::exists(live));
  EXPECT_TRUE(std::filesystem::exists(tmp.Sub("other.tsv.tmp-1")));
  EXPECT_TRUE(std::filesystem::exists(target + ".tmp-x1"));
  EXPECT_EQ(ReadFile(target), "new\n");
}

// A link stays a link (its target is replaced), the target keeps its permissions, and a file
// this process may not write is refused as opening it for writing would be.
TEST(OutputFileTest, LinksPermissionsAndReadOnlyTargets) {
  TempDir tmp;
  const std::string real = tmp.Sub("real.tsv"), link = tmp.Sub("link.tsv");
  WriteFile(real, "old\n");
  std::filesystem::permissions(
      real, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  std::filesystem::create_symlink("real.tsv", link);
  OutputFile f;
  ASSERT_TRUE(f.Open(link).ok());
  f.stream() << "new\n";
  ASSERT_TRUE(f.Commit().ok());
  EXPECT_TRUE(std::filesystem::is_symlink(link));
  EXPECT_EQ(ReadFile(real), "new\n");
  EXPECT_EQ(std::filesystem::status(real).permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  if (geteuid() != 0) {  // root may write anything
    const std::string ro = tmp.Sub("ro.tsv");
    WriteFile(ro, "keep\n");
    std::filesystem::permissions(ro, std::filesystem::perms::owner_read);
    OutputFile g;
    EXPECT_TRUE(g.Open(ro).code() == Status::Code::kIOError);
    EXPECT_EQ(ReadFile(ro), "keep\n");
  }
}

// A dangling link stays a link: the missing file it names is created. A temporary of another
// host's process (same directory, say over NFS) is never taken for a dead one.
TEST(OutputFileTest, DanglingLinksAndOtherHostsTemporaries) {
  TempDir tmp;
  std::filesystem::create_symlink("made.tsv", tmp.Sub("dangling.tsv"));
  WriteFile(tmp.Sub("dangling.tsv.tmp-otherhost-1"), "theirs\n");
  WriteFile(tmp.Sub("made.tsv.tmp-otherhost-1"), "theirs\n");
  OutputFile f;
  ASSERT_TRUE(f.Open(tmp.Sub("dangling.tsv")).ok());
  f.stream() << "new\n";
  ASSERT_TRUE(f.Commit().ok());
  EXPECT_TRUE(std::filesystem::is_symlink(tmp.Sub("dangling.tsv")));
  EXPECT_EQ(ReadFile(tmp.Sub("made.tsv")), "new\n");
  EXPECT_TRUE(std::filesystem::exists(tmp.Sub("made.tsv.tmp-otherhost-1")));
}

// /dev/stdout and /dev/fd/N name what the shell opened, perhaps a file opened for appending
// (`>> all.jsonl`): appended to, never replaced or truncated.
TEST(OutputFileTest, DescriptorPathsAppendInPlace) {
  TempDir tmp;
  const std::string file = tmp.Sub("all.jsonl");
  WriteFile(file, "precious line\n");
  const int fd = open(file.c_str(), O_WRONLY | O_APPEND);
  ASSERT_GE(fd, 0);
  OutputFile f;
  ASSERT_TRUE(f.Open("/dev/fd/" + std::to_string(fd)).ok());
  f.stream() << "exported\n";
  ASSERT_TRUE(f.Commit().ok());
  close(fd);
  EXPECT_EQ(ReadFile(file), "precious line\nexported\n");
  EXPECT_EQ(Entries(tmp.path()), 1u);
}

TEST(OutputFileTest, ASpecialFileIsWrittenInPlace) {
  OutputFile f;
  ASSERT_TRUE(f.Open("/dev/null").ok());
  f.stream() << "gone\n";
  EXPECT_TRUE(f.Commit().ok());
  EXPECT_TRUE(std::filesystem::is_character_file("/dev/null"));
}

// A process ended by SIGINT, SIGTERM or SIGHUP removes the temporary files it has open and
// still ends by that signal.
TEST(OutputFileTest, TemporariesAreRemovedWhenASignalEndsTheProcess) {
  for (int sig : {SIGINT, SIGTERM, SIGHUP}) {
    TempDir tmp;
    const std::string target = tmp.Sub("out.tsv");
    WriteFile(target, "old\n");
    pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      OutputFile a, b;
      if (!a.Open(target).ok() || !b.Open(tmp.Sub("second.tsv")).ok()) _exit(3);
      a.stream() << "new\n" << std::flush;
      raise(sig);
      _exit(a.Commit().ok() && b.Commit().ok() ? 0 : 4);
    }
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << sig << ": " << status;
    EXPECT_EQ(ReadFile(target), "old\n");
    EXPECT_EQ(Entries(tmp.path()), 1u) << "signal " << sig << ": no temporary file left";
  }
}

TEST(CheckOutputPathTest, DirectoriesAndMissingDirectoriesAreNamed) {
  TempDir tmp;
  EXPECT_TRUE(CheckOutputPath(tmp.path()).code() == Status::Code::kInvalidArgument);
  EXPECT_TRUE(CheckOutputPath(tmp.Sub("new") + "/").code() == Status::Code::kInvalidArgument);
  Status s = CheckOutputPath(tmp.Sub("a/b/c"));
  EXPECT_TRUE(s.code() == Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find(tmp.Sub("a/b") + " does not exist"), std::string::npos)
      << s.ToString();
  WriteFile(tmp.Sub("file"), "");
  s = CheckOutputPath(tmp.Sub("file/x"));
  EXPECT_NE(s.message().find("is not a directory"), std::string::npos) << s.ToString();
  EXPECT_TRUE(CheckOutputPath(tmp.Sub("x.tsv")).ok());
  EXPECT_TRUE(CheckOutputPath("relative.tsv").ok());
}

TEST(CheckOutputDirectoryTest, AMissingDirectoryIsFineAFileIsNot) {
  TempDir tmp;
  EXPECT_TRUE(CheckOutputDirectory(tmp.path()).ok());
  EXPECT_TRUE(CheckOutputDirectory(tmp.Sub("a/b/c")).ok());  // created by the command
  EXPECT_TRUE(CheckOutputDirectory("relative/dir").ok());
  WriteFile(tmp.Sub("file"), "");
  Status s = CheckOutputDirectory(tmp.Sub("file"));
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  s = CheckOutputDirectory(tmp.Sub("file/a/b"));
  EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
  EXPECT_NE(s.message().find(tmp.Sub("file") + " is not a directory"), std::string::npos)
      << s.ToString();
  EXPECT_EQ(CheckOutputDirectory("").code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace aligndb

// Faults a user meets with whole commands: a lost or foreign paragraph index, a full disk. Each
// test reproduces the fault it guards against.
#include <gtest/gtest.h>
#include <sys/mount.h>
#include <sys/statvfs.h>

#include <filesystem>
#include <fstream>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

void IngestAndAlign(const std::string& db) {
  auto r = RunAligndb({"ingest", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"align", "--db", db});
  ASSERT_EQ(r.exit_code, 0) << r.err;
}

std::string ExportAll(const std::string& db) {
  auto r = RunAligndb({"export", "--db", db, "--format", "jsonl", "--min-sim", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

// Removing the Xapian directory (a backup that skipped it) and aligning again must not rewrite
// the records with empty alignments: the index is rebuilt from RocksDB.
TEST(ReliabilityTest, AlignWithoutItsIndexRebuildsItAndLosesNoAlignment) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  IngestAndAlign(db);
  std::string before = ExportAll(db);
  ASSERT_FALSE(before.empty());
  std::filesystem::remove_all(db + "/xapian");
  auto r = RunAligndb({"align", "--db", db, "--all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ExportAll(db), before);
}

// The index of another database copied in (or a restore that mixed two backups).
// Align reads paragraph candidates from the stored postings, never from a paragraph index: a
// leftover index directory of another database, even a damaged one, changes nothing.
TEST(ReliabilityTest, AlignDoesNotReadAParagraphIndex) {
  TempDir tmp;
  IngestAndAlign(tmp.Sub("a"));
  std::string before = ExportAll(tmp.Sub("a"));
  EXPECT_FALSE(std::filesystem::exists(tmp.Sub("a") + "/xapian"));
  std::filesystem::create_directories(tmp.Sub("a") + "/xapian");
  testing::WriteFile(tmp.Sub("a") + "/xapian/iamglass", "not an index");
  auto r = RunAligndb({"align", "--db", tmp.Sub("a"), "--all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ExportAll(tmp.Sub("a")), before);
}

// A small file system of its own; skipped where tmpfs cannot be mounted (not root).
class FullDiskTest : public ::testing::Test {
 protected:
  void Mount(const std::string& size) {
    dir_ = tmp_.Sub("fs");
    std::filesystem::create_directories(dir_);
    mounted_ = mount("tmpfs", dir_.c_str(), "tmpfs", 0, ("size=" + size).c_str()) == 0;
  }
  void TearDown() override {
    if (mounted_) umount(dir_.c_str());
  }
  // Fills the file system but for `leave_kb`.
  void Fill(uint64_t leave_kb) {
    struct statvfs st;
    ASSERT_EQ(statvfs(dir_.c_str(), &st), 0);
    uint64_t avail_kb = st.f_bavail * st.f_frsize / 1024;
    ASSERT_GT(avail_kb, leave_kb);
    std::ofstream f(dir_ + "/fill", std::ios::binary);
    std::string kb(1024, '\0');
    for (uint64_t k = 0; k < avail_kb - leave_kb; ++k) f.write(kb.data(), kb.size());
  }
  TempDir tmp_;
  std::string dir_;
  bool mounted_ = false;
};

TEST_F(FullDiskTest, IngestOnAFullDiskExitsWithAnIoErrorNamingTheDatabase) {
  Mount("2m");
  if (!mounted_) GTEST_SKIP() << "cannot mount a tmpfs here";
  std::string db = dir_ + "/db";
  auto r = RunAligndb({"ingest", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  EXPECT_EQ(r.exit_code, 4) << r.err;  // not 134 (SIGABRT)
  EXPECT_NE(r.err.find(db), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("no space left on device"), std::string::npos) << r.err;
}

TEST_F(FullDiskTest, AlignOnAFullDiskExitsWithAnIoErrorAndResumesOnceThereIsSpace) {
  Mount("16m");
  if (!mounted_) GTEST_SKIP() << "cannot mount a tmpfs here";
  std::string db = dir_ + "/db";
  auto r = RunAligndb({"ingest", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Fill(4);
  r = RunAligndb({"align", "--db", db});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find(db), std::string::npos) << r.err;
  std::filesystem::remove(dir_ + "/fill");
  r = RunAligndb({"align", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(ExportAll(db).empty());
}

// A mistake on the command line or a missing input is reported before a database is created:
// no empty database, no failed run recorded.
TEST(ReliabilityTest, IngestAndBuildCheckTheirInputsBeforeCreatingADatabase) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("c.jsonl"), R"({"title": "Cat", "text": "Cats purr."})");
  const std::string xml = DataPath("wikidumps/simplewiki-sample.xml.bz2");
  struct Case {
    std::vector<std::string> args;
    int exit_code;
  } cases[] = {
      {{"ingest", "--db", tmp.Sub("a.db"), tmp.Sub("c.jsonl")}, 2},
      {{"ingest", "--db", tmp.Sub("a.db"), xml, tmp.Sub("c.jsonl")}, 2},
      {{"ingest", "--db", tmp.Sub("a.db"), "--edition", "bad name", xml}, 2},
      {{"build", "--db", tmp.Sub("a.db"), xml, tmp.Sub("missing.xml")}, 4},
  };
  for (const Case& c : cases) {
    auto r = RunAligndb(c.args);
    EXPECT_EQ(r.exit_code, c.exit_code) << r.err;
    EXPECT_EQ(testing::SplitLines(r.err).size(), 1u) << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp.Sub("a.db"))) << r.err;
  }
}

}  // namespace
}  // namespace aligndb

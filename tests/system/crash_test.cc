// Crash safety: `aligndb ingest` and `aligndb align` are killed with SIGKILL (as subprocesses)
// at many commit points; the same command is run again; the database must open and the final
// export must be byte-identical to an uninterrupted run. Also: a failed write (file size limit)
// ends the run with a clear error and a database that opens; a second writer is refused while
// readers keep working.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <thread>

#include "ingest/ingest.h"
#include "storage/store.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

struct Outcome {
  int exit_code;  // -1 when killed by a signal
  bool killed;
  std::string out, err;
};

// Runs aligndb with environment `env` ("A=1 B=2 "), capturing whether SIGKILL ended it.
Outcome Aligndb(const std::string& env, const std::vector<std::string>& args, const TempDir& tmp) {
  std::string cmd = env + "'" + std::string(ALIGNDB_BINARY) + "'";
  for (const auto& a : args) cmd += " '" + a + "'";
  cmd += " > '" + tmp.Sub("out") + "' 2> '" + tmp.Sub("err") + "' < /dev/null; echo $? > '" +
         tmp.Sub("rc") + "'";
  int status = std::system(cmd.c_str());
  (void)status;
  Outcome r;
  int rc = std::atoi(testing::ReadFile(tmp.Sub("rc")).c_str());
  r.killed = rc == 128 + SIGKILL;
  r.exit_code = r.killed ? -1 : rc;
  r.out = testing::ReadFile(tmp.Sub("out"));
  r.err = testing::ReadFile(tmp.Sub("err"));
  return r;
}

const std::vector<std::string>& Inputs() {
  static const std::vector<std::string> inputs = {
      DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
      DataPath("wikidumps/simplewiki-sample.xml.bz2")};
  return inputs;
}

std::vector<std::string> IngestArgs(const std::string& db) {
  std::vector<std::string> a = {"ingest", "--db", db};
  a.insert(a.end(), Inputs().begin(), Inputs().end());
  return a;
}

std::string ExportAll(const std::string& db, const TempDir& tmp) {
  Outcome r = Aligndb("", {"export", "--db", db, "--format", "jsonl", "--min-sim", "0"}, tmp);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

class CrashTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    TempDir tmp;
    std::string db = tmp.Sub("ref");
    ASSERT_EQ(Aligndb(kSmall, IngestArgs(db), tmp).exit_code, 0);
    ASSERT_EQ(Aligndb(kSmall, {"align", "--db", db}, tmp).exit_code, 0);
    reference_ = new std::string(ExportAll(db, tmp));
    ASSERT_GT(reference_->size(), 1000u);
  }
  static void TearDownTestSuite() { delete reference_; }

  static constexpr const char* kSmall = "ALIGNDB_TEST_SMALL_BATCHES=1 ";
  static std::string* reference_;
};
std::string* CrashTest::reference_ = nullptr;

TEST_F(CrashTest, KilledIngestResumesToTheSameExport) {
  int kills = 0;
  // Ingest of 213 pages in batches of 8 passes ~56 crash points; sample them across the run.
  for (int at : {1, 2, 3, 5, 8, 13, 19, 26, 34, 41, 48, 55}) {
    TempDir tmp;
    std::string db = tmp.Sub("db");
    Outcome first =
        Aligndb(std::string(kSmall) + "ALIGNDB_TEST_KILL_AT=" + std::to_string(at) + " ",
                IngestArgs(db), tmp);
    if (!first.killed) {
      ASSERT_EQ(first.exit_code, 0) << first.err;
      continue;
    }
    ++kills;
    // The database opens and shows a consistent, partial state.
    Outcome info = Aligndb("", {"info", "--db", db, "--json"}, tmp);
    ASSERT_EQ(info.exit_code, 0) << "kill at " << at << ": " << info.err;
    auto j = nlohmann::json::parse(info.out);
    EXPECT_EQ(j["runs"][0]["status"], "running");  // interrupted, and recorded as such
    // The same command again, then align: the export equals the uninterrupted run's.
    Outcome again = Aligndb(kSmall, IngestArgs(db), tmp);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    ASSERT_EQ(Aligndb(kSmall, {"align", "--db", db}, tmp).exit_code, 0);
    EXPECT_EQ(ExportAll(db, tmp), *reference_) << "kill at " << at;
  }
  EXPECT_GE(kills, 10);
}

TEST_F(CrashTest, KilledAlignResumesToTheSameExport) {
  int kills = 0;
  for (int at : {1, 2, 3, 4, 6, 9, 12, 15, 18, 21, 24, 27, 30}) {
    TempDir tmp;
    std::string db = tmp.Sub("db");
    ASSERT_EQ(Aligndb(kSmall, IngestArgs(db), tmp).exit_code, 0);
    Outcome first =
        Aligndb(std::string(kSmall) + "ALIGNDB_TEST_KILL_AT=" + std::to_string(at) + " ",
                {"align", "--db", db}, tmp);
    if (!first.killed) {
      ASSERT_EQ(first.exit_code, 0) << first.err;
      EXPECT_EQ(ExportAll(db, tmp), *reference_);
      continue;
    }
    ++kills;
    Outcome again = Aligndb(kSmall, {"align", "--db", db}, tmp);
    ASSERT_EQ(again.exit_code, 0) << "kill at " << at << ": " << again.err;
    EXPECT_EQ(ExportAll(db, tmp), *reference_) << "kill at " << at;
  }
  // Align commits each record (small batches; these pages make two title pairs): a kill before
  // and after each commit.
  EXPECT_GE(kills, 4);
}

TEST_F(CrashTest, FailedWriteEndsWithAClearErrorAndTheDatabaseOpens) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  // A file size limit of 1 MB makes RocksDB's writes fail part-way, as a full disk would.
  Outcome r = Aligndb("ulimit -f 1024; trap '' XFSZ; ", IngestArgs(db), tmp);
  ASSERT_NE(r.exit_code, 0);
  EXPECT_FALSE(r.killed);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("aligndb: "), std::string::npos) << r.err;
  // Without the limit, the database opens and the same command completes it.
  Outcome info = Aligndb("", {"info", "--db", db}, tmp);
  EXPECT_EQ(info.exit_code, 0) << info.err;
  ASSERT_EQ(Aligndb("", IngestArgs(db), tmp).exit_code, 0);
  ASSERT_EQ(Aligndb("", {"align", "--db", db}, tmp).exit_code, 0);
  EXPECT_EQ(ExportAll(db, tmp), *reference_);
}

TEST_F(CrashTest, SecondWriterIsRefusedReadersWork) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  ASSERT_EQ(Aligndb("", IngestArgs(db), tmp).exit_code, 0);
  ASSERT_EQ(Aligndb("", {"align", "--db", db}, tmp).exit_code, 0);
  // This process holds the database open for writing, as a running `build` would.
  std::unique_ptr<Store> writer;
  StoreOptions opts;
  ASSERT_TRUE(Store::Open(opts, db, &writer).ok());
  Outcome second = Aligndb("", IngestArgs(db), tmp);
  EXPECT_EQ(second.exit_code, 5);
  EXPECT_NE(second.err.find("in use by another aligndb process"), std::string::npos) << second.err;
  second = Aligndb("", {"align", "--db", db}, tmp);
  EXPECT_EQ(second.exit_code, 5);
  // Readers are not blocked.
  EXPECT_EQ(ExportAll(db, tmp), *reference_);
  Outcome lookup = Aligndb("", {"lookup", "--db", db, "Art"}, tmp);
  EXPECT_EQ(lookup.exit_code, 0) << lookup.err;
}

// Readers in other processes while `build` writes: every export either finds no alignments yet
// (exit 6) or succeeds with well-formed pairs; none blocks the writer; the final export is the
// uninterrupted run's.
TEST_F(CrashTest, ReadersDuringBuildSeeConsistentPairs) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  std::vector<std::string> build = {"build", "--db", db, "--show", "0"};
  build.insert(build.end(), Inputs().begin(), Inputs().end());
  std::string cmd = std::string(kSmall) + "'" + ALIGNDB_BINARY + "'";
  for (const auto& a : build) cmd += " '" + a + "'";
  cmd += " > '" + tmp.Sub("build.out") + "' 2>&1; echo $? > '" + tmp.Sub("build.rc") + "'";
  std::thread writer([&] { ASSERT_EQ(std::system(cmd.c_str()), 0); });
  int exports = 0, with_pairs = 0;
  TempDir reader_tmp;
  while (testing::ReadFile(tmp.Sub("build.rc")).empty()) {
    Outcome r =
        Aligndb("", {"export", "--db", db, "--format", "jsonl", "--min-sim", "0"}, reader_tmp);
    ++exports;
    if (r.exit_code == 0) {
      std::istringstream lines(r.out);
      std::string line;
      while (std::getline(lines, line)) {
        auto j = nlohmann::json::parse(line);  // throws on a torn line
        EXPECT_FALSE(j["normal"].get<std::string>().empty());
      }
      if (!r.out.empty()) ++with_pairs;
    } else {
      // Before the first records: no database yet, or no alignments yet.
      EXPECT_TRUE(r.exit_code == 6 || r.exit_code == 2) << r.err;
    }
  }
  writer.join();
  EXPECT_EQ(std::atoi(testing::ReadFile(tmp.Sub("build.rc")).c_str()), 0)
      << testing::ReadFile(tmp.Sub("build.out"));
  EXPECT_GT(exports, 1);
  EXPECT_EQ(ExportAll(db, tmp), *reference_);
}

}  // namespace
}  // namespace aligndb

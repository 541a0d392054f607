// `align --candidates xapian` on the bundled samples: the Xapian paragraph index gives the
// exports of the default (in-memory) candidates, and its faults have their exit codes.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "index/index.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

std::string Export(const std::string& db, const std::string& format) {
  auto r = RunAligndb({"export", "--db", db, "--format", format, "--min-sim", "0"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

TEST(CandidatesCommandTest, XapianCandidatesExportWhatTheDefaultExports) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  auto r = testing::BuildSampleDb(db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("paragraph index"), std::string::npos);  // the default reads none
  const std::string jsonl = Export(db, "jsonl"), tsv = Export(db, "tsv");
  ASSERT_GT(testing::SplitLines(jsonl).size(), 100u);

  r = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto summary = nlohmann::json::parse(r.out);
  EXPECT_GT(summary["indexed_pages"].get<uint64_t>(), 100u);
  EXPECT_EQ(summary["index_rebuilt"], 1);  // a new index is built from the database
  EXPECT_GT(summary["paragraph_pairs"].get<uint64_t>(), 0u);
  EXPECT_EQ(Export(db, "jsonl"), jsonl);
  EXPECT_EQ(Export(db, "tsv"), tsv);

  // Up to date: nothing indexed, nothing rebuilt, the same records again.
  r = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find("paragraph index"), std::string::npos) << r.out;
  EXPECT_EQ(Export(db, "jsonl"), jsonl);

  // `build` takes the option too: a first align through the index.
  const std::string db2 = tmp.Sub("db2");
  r = RunAligndb({"build", "--db", db2, "--candidates", "xapian",
                  DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                  DataPath("wikidumps/simplewiki-sample.xml.bz2"),
                  "enwiki=" + DataPath("swipe/swipe-sample.enwiki.jsonl"),
                  "simplewiki=" + DataPath("swipe/swipe-sample.simplewiki.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("pages indexed (rebuilt from the database)"), std::string::npos) << r.out;
  EXPECT_EQ(Export(db2, "jsonl"), jsonl);

  r = RunAligndb({"align", "--db", db, "--candidates", "lucene"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
}

TEST(CandidatesCommandTest, AnIndexInUseExitsFiveAndAFileInItsPlaceFour) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  auto r = testing::BuildSampleDb(db);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string jsonl = Export(db, "jsonl");
  {
    // Another process (this one) holds Xapian's writer lock on the index.
    std::unique_ptr<ParagraphIndex> held;
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(db), true, &held).ok());
    r = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
    EXPECT_EQ(r.exit_code, 5) << r.err;
    EXPECT_NE(r.err.find("in use"), std::string::npos) << r.err;
  }
  r = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
  EXPECT_EQ(r.exit_code, 0) << r.err;

  std::filesystem::remove_all(IndexDir(db));
  testing::WriteFile(IndexDir(db), "not an index\n");
  r = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find(IndexDir(db)), std::string::npos) << r.err;
  EXPECT_EQ(Export(db, "jsonl"), jsonl);           // nothing stored was lost
  r = RunAligndb({"align", "--db", db, "--all"});  // the default does not read it
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(Export(db, "jsonl"), jsonl);
}

// Killed (SIGKILL) at commit points of the index (before and after each Xapian commit, batches
// of 8 pages: points 1 to 28 on the English sample's 106 pages) or of the records (after them),
// `align --candidates xapian` run again gives the export of an uninterrupted run, and so does a
// later `--all` through the replayed index.
TEST(CandidatesCommandTest, KilledXapianAlignResumesToTheSameExport) {
  TempDir ref_tmp;
  const std::vector<std::string> inputs = {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                                           DataPath("wikidumps/simplewiki-sample.xml.bz2")};
  auto ingest = [&](const std::string& db) {
    std::vector<std::string> a = {"ingest", "--db", db};
    a.insert(a.end(), inputs.begin(), inputs.end());
    return RunAligndb(a);
  };
  ASSERT_EQ(ingest(ref_tmp.Sub("db")).exit_code, 0);
  ASSERT_EQ(RunAligndb({"align", "--db", ref_tmp.Sub("db")}).exit_code, 0);
  const std::string reference = Export(ref_tmp.Sub("db"), "jsonl");
  ASSERT_GT(reference.size(), 1000u);

  setenv("ALIGNDB_TEST_SMALL_BATCHES", "1", 1);
  int kills = 0;
  for (int at : {1, 2, 7, 16, 27, 28, 29, 31}) {
    TempDir tmp;
    const std::string db = tmp.Sub("db");
    ASSERT_EQ(ingest(db).exit_code, 0);
    setenv("ALIGNDB_TEST_KILL_AT", std::to_string(at).c_str(), 1);
    auto first = RunAligndb({"align", "--db", db, "--candidates", "xapian"});
    unsetenv("ALIGNDB_TEST_KILL_AT");
    if (first.exit_code == 0) {
      EXPECT_EQ(Export(db, "jsonl"), reference) << "at " << at;
      continue;
    }
    ASSERT_TRUE(first.exit_code == -1 || first.exit_code == 128 + 9) << first.exit_code;
    ++kills;
    auto again = RunAligndb({"align", "--db", db, "--candidates", "xapian"});
    ASSERT_EQ(again.exit_code, 0) << "kill at " << at << ": " << again.err;
    EXPECT_EQ(Export(db, "jsonl"), reference) << "kill at " << at;
    again = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
    ASSERT_EQ(again.exit_code, 0) << "kill at " << at << ": " << again.err;
    EXPECT_EQ(Export(db, "jsonl"), reference) << "kill at " << at;
  }
  unsetenv("ALIGNDB_TEST_SMALL_BATCHES");
  EXPECT_GE(kills, 6);
}

// An index rebuilt (its directory removed) by an align that is killed at each of its commit
// points: the store's queue and index generation are written through RocksDB's log although
// the rest of align's writes are not, so the next run finds the index as far as the store says
// (or one commit ahead) and completes it; never a partial index taken for a whole one.
TEST(CandidatesCommandTest, AKilledRebuildOfTheIndexIsCompletedByTheNextRun) {
  TempDir tmp;
  const std::string base = tmp.Sub("base");
  std::vector<std::string> a = {"ingest", "--db", base,
                                DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                                DataPath("wikidumps/simplewiki-sample.xml.bz2")};
  ASSERT_EQ(RunAligndb(a).exit_code, 0);
  // One commit of the whole index: the store's index generation is 1.
  ASSERT_EQ(RunAligndb({"align", "--db", base, "--candidates", "xapian"}).exit_code, 0);
  const std::string reference = Export(base, "jsonl");
  ASSERT_GT(reference.size(), 1000u);
  setenv("ALIGNDB_TEST_SMALL_BATCHES", "1", 1);
  int kills = 0;
  for (int at : {1, 2, 3, 4, 5, 8, 13}) {
    const std::string db = tmp.Sub("db" + std::to_string(at));
    std::filesystem::copy(base, db, std::filesystem::copy_options::recursive);
    std::filesystem::remove_all(IndexDir(db));
    setenv("ALIGNDB_TEST_KILL_AT", std::to_string(at).c_str(), 1);
    auto first = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
    unsetenv("ALIGNDB_TEST_KILL_AT");
    if (first.exit_code == 0) continue;
    ASSERT_TRUE(first.exit_code == -1 || first.exit_code == 128 + 9) << first.exit_code;
    ++kills;
    auto again = RunAligndb({"align", "--db", db, "--candidates", "xapian", "--all"});
    ASSERT_EQ(again.exit_code, 0) << "kill at " << at << ": " << again.err;
    EXPECT_EQ(Export(db, "jsonl"), reference) << "kill at " << at;
  }
  unsetenv("ALIGNDB_TEST_SMALL_BATCHES");
  EXPECT_GE(kills, 6);
}

}  // namespace
}  // namespace aligndb

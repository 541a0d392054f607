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

// The last run recorded in `db` is `command`'s, shown interrupted (as the next writer records it).
void ExpectLastRunInterrupted(const std::string& db, const std::string& command,
                              const TempDir& tmp) {
  Outcome info = Aligndb("", {"info", "--db", db, "--json"}, tmp);
  ASSERT_EQ(info.exit_code, 0) << info.err;
  auto runs = nlohmann::json::parse(info.out)["runs"];
  ASSERT_FALSE(runs.empty());
  EXPECT_EQ(runs.back()["command"], command) << info.out;
  EXPECT_EQ(runs.back()["status"].get<std::string>().rfind("interrupted", 0), 0u) << info.out;
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
    // No writer has it open: the reader shows the run interrupted, as the next writer records it.
    EXPECT_EQ(j["runs"][0]["status"].get<std::string>().rfind("interrupted", 0), 0u) << info.out;
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

// Align writes without RocksDB's log (its records are made again by running it again): a kill
// at any commit point, and between the run's end record and the flush that keeps it, leaves the
// records of the align before it, whole, and the run shown as interrupted, never as finished.
TEST_F(CrashTest, AKilledAlignLeavesTheRecordsBeforeItAndTheRunInterrupted) {
  TempDir tmp;
  const std::string base = tmp.Sub("base");
  ASSERT_EQ(Aligndb(kSmall, IngestArgs(base), tmp).exit_code, 0);
  // Other parameters first: every pair is aligned again by the run that is killed.
  ASSERT_EQ(Aligndb(kSmall, {"align", "--db", base, "--paragraph-threshold", "0.2"}, tmp).exit_code,
            0);
  const std::string before = ExportAll(base, tmp);
  ASSERT_NE(before, *reference_);
  int kills = 0;
  for (int at = 1;; ++at) {
    ASSERT_LT(at, 100);
    const std::string db = tmp.Sub("db" + std::to_string(at));
    std::filesystem::copy(base, db);
    Outcome first = Aligndb(std::string(kSmall) + "ALIGNDB_TEST_KILL_AT=" + std::to_string(at) + " ",
                            {"align", "--db", db}, tmp);
    if (!first.killed) {  // past the last crash point
      ASSERT_EQ(first.exit_code, 0) << first.err;
      EXPECT_EQ(ExportAll(db, tmp), *reference_);
      break;
    }
    ++kills;
    EXPECT_EQ(ExportAll(db, tmp), before) << "kill at " << at;
    {
      SCOPED_TRACE("kill at " + std::to_string(at));
      ExpectLastRunInterrupted(db, "align", tmp);
    }
    Outcome again = Aligndb(kSmall, {"align", "--db", db}, tmp);
    ASSERT_EQ(again.exit_code, 0) << again.err;
    EXPECT_EQ(ExportAll(db, tmp), *reference_) << "kill at " << at;
    std::filesystem::remove_all(db);
  }
  EXPECT_GE(kills, 5);
}

// Ingest writes without RocksDB's log after its run's start (running it again on the same files
// makes its writes again), kept by flushes (with small batches, one after each commit): a kill
// into a database that holds another edition leaves that edition as it was, the pages of the
// commits before it, each whole, with counts that agree with them, and the run interrupted —
// also a kill between the run's end record and the flush that keeps it, which the log would
// have kept "finished". The same command again (and align) gives the uninterrupted export.
TEST_F(CrashTest, AKilledIngestKeepsWhatItsFlushesKeptAndTheRunInterrupted) {
  TempDir tmp;
  const std::string base = tmp.Sub("base");
  ASSERT_EQ(Aligndb(kSmall, {"ingest", "--db", base, Inputs()[1]}, tmp).exit_code, 0);
  // An edition not stored yet (a kill before its first page) shows nothing (exit 6).
  auto show = [&](const std::string& db, const std::string& edition) {
    Outcome r = Aligndb(
        "", {"show", "--db", db, "--edition", edition, "--all", "--format", "jsonl"}, tmp);
    EXPECT_TRUE(r.exit_code == 0 || (r.exit_code == 6 && edition == "enwiki")) << r.err;
    return r.exit_code == 0 ? r.out : std::string();
  };
  const std::string before = show(base, "simplewiki");
  ASSERT_GT(before.size(), 1000u);
  // The reference of this order of ingests (simple, then normal) without a kill.
  const std::string whole = tmp.Sub("whole");
  std::filesystem::copy(base, whole);
  ASSERT_EQ(Aligndb(kSmall, {"ingest", "--db", whole, Inputs()[0]}, tmp).exit_code, 0);
  ASSERT_EQ(Aligndb(kSmall, {"align", "--db", whole}, tmp).exit_code, 0);
  const std::string reference = ExportAll(whole, tmp);
  ASSERT_GT(reference.size(), 1000u);
  std::vector<int> points = {1, 2, 4, 9, 17, 30};
  for (int at = 45; at < 200; ++at) points.push_back(at);  // on to the last commit point
  int kills = 0, kept_some = 0;
  for (int at : points) {
    SCOPED_TRACE("kill at " + std::to_string(at));
    const std::string db = tmp.Sub("db" + std::to_string(at));
    std::filesystem::copy(base, db);
    Outcome first = Aligndb(std::string(kSmall) + "ALIGNDB_TEST_KILL_AT=" + std::to_string(at) + " ",
                            {"ingest", "--db", db, Inputs()[0]}, tmp);
    if (!first.killed) {  // past the last crash point
      ASSERT_EQ(first.exit_code, 0) << first.err;
      break;
    }
    ++kills;
    EXPECT_EQ(show(db, "simplewiki"), before);
    ExpectLastRunInterrupted(db, "ingest", tmp);
    // The English pages kept are whole and the edition's counts are theirs.
    const std::string english = show(db, "enwiki");
    int articles = 0, sentences = 0;
    std::istringstream lines(english);
    for (std::string line; std::getline(lines, line);) {
      ++articles;
      const auto page = nlohmann::json::parse(line);
      for (const auto& p : page["paragraphs"]) sentences += static_cast<int>(p.size());
    }
    Outcome info = Aligndb("", {"info", "--db", db, "--json"}, tmp);
    ASSERT_EQ(info.exit_code, 0) << info.err;
    auto editions = nlohmann::json::parse(info.out)["editions"];
    int counted_articles = 0, counted_sentences = 0;
    if (editions.contains("enwiki")) {
      counted_articles = editions["enwiki"]["articles"].get<int>();
      counted_sentences = editions["enwiki"]["sentences"].get<int>();
    }
    EXPECT_EQ(counted_articles, articles) << info.out;
    EXPECT_EQ(counted_sentences, sentences) << info.out;
    kept_some += articles > 0;
    // The whole way back, for some of the points (each takes seconds).
    if (at == 2 || at == 17 || at % 8 == 0) {
      Outcome again = Aligndb(kSmall, {"ingest", "--db", db, Inputs()[0]}, tmp);
      ASSERT_EQ(again.exit_code, 0) << again.err;
      ASSERT_EQ(Aligndb(kSmall, {"align", "--db", db}, tmp).exit_code, 0);
      EXPECT_EQ(ExportAll(db, tmp), reference);
    }
    std::filesystem::remove_all(db);
  }
  EXPECT_GE(kills, 10);
  EXPECT_GE(kept_some, 5);  // the later kills keep the commits before them
}

// One page of a MediaWiki XML dump.
std::string XmlPage(uint64_t id, const std::string& title, uint64_t revision,
                    const std::string& text) {
  return "<page><title>" + title + "</title><ns>0</ns><id>" + std::to_string(id) +
         "</id><revision><id>" + std::to_string(revision) + "</id><text>" + text +
         "</text></revision></page>\n";
}

// Batches are committed on another thread while the next pages are written: pages met again
// (a newer revision, a rename, a title taken over) while their first batch is being committed
// end as in one batch. The same dump in batches of 8 pages and in one batch: the same articles,
// counts and export.
TEST(BackgroundCommitTest, PagesMetAgainWhileTheirBatchCommitsEndAsInOneBatch) {
  TempDir tmp;
  std::string xml = "<mediawiki><siteinfo><dbname>enwiki</dbname></siteinfo>\n";
  auto text = [](int k, int v) {
    return "Paragraph " + std::to_string(k) + " of version " + std::to_string(v) +
           " has words like river and stone" + std::string(k % 3 == 0 ? " and sea." : ".") +
           " A second sentence follows here.\n\nAnother paragraph " + std::to_string(k % 5) +
           " with more words.";
  };
  for (int k = 1; k <= 40; ++k) xml += XmlPage(k, "Page " + std::to_string(k), 100 + k, text(k, 1));
  // A page takes the title of page 39 (still its owner), then pages of the batches just
  // committed (8 pages a batch) are met again: changed; page 39 renamed after the batch with
  // the title's new owner went to be committed; an article turned into a redirect.
  xml += XmlPage(41, "Page 39", 301, text(41, 1));
  for (int k = 30; k <= 38; ++k)
    xml += XmlPage(k, "Page " + std::to_string(k), 200 + k, text(k, 2));
  xml += XmlPage(39, "Renamed 39", 300, text(39, 3));
  xml += XmlPage(40, "Page 40", 302, "#REDIRECT [[Page 1]]");
  xml += "</mediawiki>\n";
  testing::WriteFile(tmp.Sub("d.xml"), xml);
  std::string simple_xml = "<mediawiki><siteinfo><dbname>simplewiki</dbname></siteinfo>\n";
  for (int k = 1; k <= 41; ++k)
    simple_xml +=
        XmlPage(k, k == 39 ? "Renamed 39" : "Page " + std::to_string(k), 500 + k, text(k, 2));
  simple_xml += XmlPage(42, "Page 39", 542, text(41, 1));  // pairs with page 41
  simple_xml += "</mediawiki>\n";
  testing::WriteFile(tmp.Sub("s.xml"), simple_xml);
  std::string results[2];
  for (int small = 0; small < 2; ++small) {
    std::string env = small ? "ALIGNDB_TEST_SMALL_BATCHES=1 " : "";
    std::string db = tmp.Sub("db" + std::to_string(small));
    ASSERT_EQ(
        Aligndb(env, {"ingest", "--db", db, tmp.Sub("d.xml"), tmp.Sub("s.xml")}, tmp).exit_code, 0);
    ASSERT_EQ(Aligndb(env, {"align", "--db", db}, tmp).exit_code, 0);
    Outcome show =
        Aligndb("", {"show", "--db", db, "--edition", "enwiki", "--all", "--format", "jsonl"}, tmp);
    ASSERT_EQ(show.exit_code, 0) << show.err;
    Outcome info = Aligndb("", {"info", "--db", db, "--json"}, tmp);
    ASSERT_EQ(info.exit_code, 0) << info.err;
    auto j = nlohmann::json::parse(info.out);
    results[small] = show.out + j["editions"].dump() + ExportAll(db, tmp);
  }
  EXPECT_NE(results[0].find("Renamed 39"), std::string::npos);
  EXPECT_NE(results[0].find("\"simple_title\":\"Page 39\""), std::string::npos);
  EXPECT_EQ(results[1], results[0]);
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

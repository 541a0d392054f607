// Bounded resources with whole commands: thread pools under an address-space limit, and the
// size caps on pages, alignment DPs and scored lines. Each test reproduces the fault it guards
// against.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <nlohmann/json.hpp>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

// Runs aligndb under `ulimit -v kb`; returns the shell's exit status (128 + signal on a signal).
int RunLimited(long kb, const std::string& args, std::string* err) {
  TempDir tmp;
  std::string cmd = "ulimit -v " + std::to_string(kb) + "; '" + ALIGNDB_BINARY + "' " + args +
                    " > /dev/null 2> '" + tmp.Sub("err") + "' < /dev/null";
  int status = std::system(("sh -c \"" + cmd + "\"").c_str());
  *err = testing::ReadFile(tmp.Sub("err"));
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

// 256 decompression threads need 2 GB of stacks (and glibc a malloc arena each): under a 1 GB
// address-space limit thread creation failed, which escaped the pool's constructor and aborted
// the process, and later allocations failed inside RocksDB. Threads are now capped at 4 a core
// and at the number of streams (here 206 streams of one page each).
TEST(LimitsTest, ManyThreadsUnderAnAddressSpaceLimitFinishIngest) {
  TempDir tmp;
  ASSERT_EQ(
      std::system(("python3 '" + std::string(ALIGNDB_SOURCE_DIR) + "/tools/make_multistream.py' '" +
                   testing::DataPath("wikidumps/enwiki-gensim-sample.xml.bz2") + "' '" +
                   tmp.Sub("ms.xml.bz2") + "' '" + tmp.Sub("ms-index.txt.bz2") +
                   "' --pages-per-stream 1 2>/dev/null")
                      .c_str()),
      0);
  std::string err;
  int rc = RunLimited(1000000,
                      "ingest --db '" + tmp.Sub("db") + "' --threads 256 --index '" +
                          tmp.Sub("ms-index.txt.bz2") + "' '" + tmp.Sub("ms.xml.bz2") + "'",
                      &err);
  // Either the threads that did start finish the work, or memory runs out: then exit 4 with
  // one line saying so. Never a signal, an internal error or a bad-input verdict.
  ASSERT_TRUE(rc == 0 || rc == 4) << rc << " " << err;
  if (rc == 4) {
    EXPECT_NE(err.find("out of memory"), std::string::npos) << err;
    EXPECT_EQ(err.find('\n'), err.size() - 1) << err;
    return;
  }
  auto ref = RunAligndb({"ingest", "--db", tmp.Sub("ref"), "--threads", "2", "--index",
                         tmp.Sub("ms-index.txt.bz2"), tmp.Sub("ms.xml.bz2")});
  ASSERT_EQ(ref.exit_code, 0) << ref.err;
  // Compared as booleans: the exports are megabytes long.
  EXPECT_TRUE(RunAligndb({"show", "--db", tmp.Sub("db"), "--all", "--format", "jsonl"}).out ==
              RunAligndb({"show", "--db", tmp.Sub("ref"), "--all", "--format", "jsonl"}).out);
}

}  // namespace
}  // namespace aligndb

namespace aligndb {
namespace {

// A decompression bomb: 300 MB of page text from a small bz2 file took 2.3 GB and ended in
// bad_alloc. The page is skipped with a warning and counted; the earlier stored version of the
// page is kept (also by --full), and the other pages are stored.
TEST(LimitsTest, APageOverMaxPageBytesIsSkippedCountedAndKept) {
  TempDir tmp;
  auto page = [](const std::string& title, int id, int rev, const std::string& text) {
    return "<page><title>" + title + "</title><ns>0</ns><id>" + std::to_string(id) +
           "</id><revision><id>" + std::to_string(rev) + "</id><text>" + text +
           "</text></revision></page>\n";
  };
  auto dump = [](const std::string& pages) {
    return "<mediawiki><siteinfo><dbname>enwiki</dbname></siteinfo>" + pages + "</mediawiki>";
  };
  testing::WriteFile(tmp.Sub("v1.xml"), dump(page("Bomb", 1, 1, "It was small once.") +
                                             page("Other", 2, 1, "Another page.")));
  std::string db = tmp.Sub("db");
  ASSERT_EQ(RunAligndb({"ingest", "--db", db, tmp.Sub("v1.xml")}).exit_code, 0);
  std::string before = RunAligndb({"show", "--db", db, "Bomb"}).out;
  ASSERT_NE(before.find("It was small once."), std::string::npos) << before;
  // 40 MB of text in a bz2 file of a few kB.
  std::string text(40 << 20, 'a');
  testing::WriteFile(
      tmp.Sub("v2.xml.bz2"),
      testing::Bz2Compress(dump(page("Bomb", 1, 2, text) + page("Third", 3, 1, "A third page."))));
  text.clear();
  text.shrink_to_fit();
  std::string err;
  int rc = RunLimited(
      1000000, "ingest --db '" + db + "' --full --json '" + tmp.Sub("v2.xml.bz2") + "'", &err);
  ASSERT_EQ(rc, 0) << err;
  EXPECT_NE(err.find("page \"Bomb\" skipped: 41943040 bytes of text, more than --max-page-bytes"),
            std::string::npos)
      << err;
  EXPECT_EQ(RunAligndb({"show", "--db", db, "Bomb"}).out, before);
  EXPECT_EQ(RunAligndb({"show", "--db", db, "Third"}).exit_code, 0);
  EXPECT_NE(RunAligndb({"show", "--db", db, "Other"}).exit_code, 0);  // --full deleted it
  auto r = RunAligndb({"ingest", "--db", tmp.Sub("db2"), "--json", tmp.Sub("v2.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["too_large"], 1);
  EXPECT_EQ(j["added"], 1);
  // The limit is an option: raised, the page is stored.
  r = RunAligndb({"ingest", "--db", tmp.Sub("db3"), "--max-page-bytes", "0", tmp.Sub("v1.xml")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"ingest", "--db", tmp.Sub("db3"), "--max-page-bytes", "10", tmp.Sub("v1.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("pages skipped, text over --max-page-bytes: 2"), std::string::npos) << r.out;
  // The warning names the page by its title, which comes from the data: a terminal control
  // (U+009B, CSI) in it is shown escaped, never sent raw.
  testing::WriteFile(tmp.Sub("csi.xml"), dump(page("Red\xc2\x9b"
                                                   "31mTitle",
                                                   4, 1, "Some text.")));
  r = RunAligndb({"ingest", "--db", tmp.Sub("db4"), "--max-page-bytes", "5", tmp.Sub("csi.xml")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("Red\\u009b31mTitle"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("\xc2\x9b"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace aligndb

namespace aligndb {
namespace {

// One paragraph as a JSON lines document: n sentences of the words of `vocabulary`, so that
// the normal and simple paragraphs of one title share their words and differ from the other
// title's (their cosine passes the paragraph threshold).
std::string Document(const std::string& title, int n, const std::vector<std::string>& vocabulary) {
  nlohmann::json sentences = nlohmann::json::array();
  for (int i = 0; i < n; ++i) {
    std::string s;
    for (size_t w = 0; w < 5; ++w) s += vocabulary[(i + w) % vocabulary.size()] + " ";
    sentences.push_back(s + "end.");
  }
  nlohmann::json doc = {{"title", title}, {"paragraphs", nlohmann::json::array({sentences})}};
  return doc.dump() + "\n";
}

// The sentence alignment of one paragraph pair is O(n·m) in memory: a paragraph of 4,000
// sentences against one of 3,000 is 12 million cells (200 MB; a 53 MB page took 21 GB). Over
// --max-dp-cells the paragraph pair is left out and counted; the other pairs are aligned.
TEST(LimitsTest, AParagraphPairOverMaxDpCellsIsSkippedAndCounted) {
  TempDir tmp;
  const std::vector<std::string> kHuge = {"river", "city", "north", "bridge", "tower", "mill"},
                                 kSmall = {"school", "music", "king", "road", "song", "lake"};
  testing::WriteFile(tmp.Sub("normal.jsonl"),
                     Document("Huge", 4000, kHuge) + Document("Small", 6, kSmall));
  testing::WriteFile(tmp.Sub("simple.jsonl"),
                     Document("Huge", 3000, kHuge) + Document("Small", 4, kSmall));
  std::string db = tmp.Sub("db");
  ASSERT_EQ(
      RunAligndb({"ingest", "--db", db, "--edition", "enwiki", tmp.Sub("normal.jsonl")}).exit_code,
      0);
  ASSERT_EQ(RunAligndb({"ingest", "--db", db, "--edition", "simplewiki", tmp.Sub("simple.jsonl")})
                .exit_code,
            0);
  std::string err;
  int rc = RunLimited(1000000, "align --db '" + db + "' --json", &err);
  ASSERT_EQ(rc, 0) << err;
  auto a = RunAligndb({"align", "--db", db, "--all", "--json"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  auto j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["dp_skipped"], 1);
  EXPECT_EQ(j["paragraph_pairs"], 1);  // Small's
  EXPECT_EQ(j["aligned"], 2);
  // Raised (0: no limit), the huge pair is aligned too; the count is gone.
  a = RunAligndb({"align", "--db", db, "--all", "--json", "--max-dp-cells", "0"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  j = nlohmann::json::parse(a.out);
  EXPECT_FALSE(j.contains("dp_skipped"));
  EXPECT_EQ(j["paragraph_pairs"], 2);
  a = RunAligndb({"align", "--db", db, "--all", "--max-dp-cells", "10"});
  EXPECT_NE(a.out.find("over --max-dp-cells: 2"), std::string::npos) << a.out;
}

}  // namespace
}  // namespace aligndb

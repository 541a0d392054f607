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

// 256 decompression threads need 2 GB of stacks: under a 1 GB address-space limit thread
// creation fails, which used to escape the pool's constructor and abort the process.
TEST(LimitsTest, ThreadsThatCannotStartDoNotAbortIngest) {
  TempDir tmp;
  std::string cmd =
      "python3 '" + std::string(ALIGNDB_SOURCE_DIR) + "/tools/make_multistream.py' '" +
      DataPath("wikidumps/enwiki-gensim-sample.xml.bz2") + "' '" + tmp.Sub("ms.xml.bz2") + "' '" +
      tmp.Sub("ms-index.txt.bz2") + "' --pages-per-stream 10 2>/dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
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

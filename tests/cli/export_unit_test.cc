// export --unit and --label through the command line, on a real ingest and align of the bundled
// samples: the three formats write the same rows, and bad values are refused.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "sample_db.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

class ExportUnitTest : public testing::SampleDbTest {};

TEST_F(ExportUnitTest, FormatsAgreeOnOperationRows) {
  auto jsonl = RunAligndb({"export", "--db", db_, "--unit", "operation", "--format", "jsonl"});
  ASSERT_EQ(jsonl.exit_code, 0) << jsonl.err;
  auto rows = testing::SplitLines(jsonl.out);
  ASSERT_GT(rows.size(), 5u);
  auto tsv = RunAligndb({"export", "--db", db_, "--unit", "operation", "--format", "tsv"});
  ASSERT_EQ(tsv.exit_code, 0) << tsv.err;
  auto tsv_rows = testing::SplitLines(tsv.out);
  ASSERT_EQ(tsv_rows.size(), rows.size() + 1);
  EXPECT_EQ(tsv_rows[0],
            "normal_title\tsimple_title\tnormal\tsimple\tsimilarity\top\tnormal_index\t"
            "simple_index\tnormal_revision\tsimple_revision\tlabel");
  auto par = RunAligndb({"export", "--db", db_, "--unit", "operation", "--format", "parallel",
                         "--out", tmp_->Sub("par")});
  ASSERT_EQ(par.exit_code, 0) << par.err;
  auto normal = testing::SplitLines(testing::ReadFile(tmp_->Sub("par.normal")));
  auto simple = testing::SplitLines(testing::ReadFile(tmp_->Sub("par.simple")));
  ASSERT_EQ(normal.size(), rows.size());
  ASSERT_EQ(simple.size(), rows.size());
  int joined = 0;
  for (size_t k = 0; k < rows.size(); ++k) {
    auto j = nlohmann::json::parse(rows[k]);
    EXPECT_GE(j["similarity"].get<double>(), 0.5);
    EXPECT_TRUE(j["label"] == "good" || j["label"] == "partial") << rows[k];
    EXPECT_TRUE(j["normal_index"].is_array() && j["normal_index"][0].is_array());
    joined += j["normal_index"].size() + j["simple_index"].size() > 2;
    std::string tsv_label = tsv_rows[k + 1].substr(tsv_rows[k + 1].rfind('\t') + 1);
    EXPECT_EQ(tsv_label, j["label"].get<std::string>());
    EXPECT_EQ(normal[k], j["normal"].get<std::string>());
    EXPECT_EQ(simple[k], j["simple"].get<std::string>());
  }
  EXPECT_GT(joined, 0);  // some rows are multi-sentence operations

  auto good = RunAligndb(
      {"export", "--db", db_, "--unit", "operation", "--label", "good", "--format", "jsonl"});
  ASSERT_EQ(good.exit_code, 0);
  size_t want = 0;
  for (auto& r : rows) want += nlohmann::json::parse(r)["label"] == "good";
  EXPECT_EQ(testing::SplitLines(good.out).size(), want);
}

TEST_F(ExportUnitTest, BadUnitOrLabelIsRefused) {
  auto r = RunAligndb({"export", "--db", db_, "--unit", "paragraph", "--format", "jsonl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--unit"), std::string::npos) << r.err;
  r = RunAligndb({"export", "--db", db_, "--label", "wrong", "--format", "jsonl"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--label"), std::string::npos) << r.err;
}

// An empty value is a mistake, not "no filter" (an empty --title exported every pair), and a
// threshold outside the similarities' range is refused by stats as by export.
TEST_F(ExportUnitTest, EmptyValuesAndThresholdsOutOfRangeAreRefused) {
  for (const auto& [option, value] : std::vector<std::pair<std::string, std::string>>{
           {"--title", ""}, {"--op", ""}, {"--op", "1-1,"}, {"--out", ""}, {"--normal", ""}}) {
    auto r = RunAligndb({"export", "--db", db_, option, value});
    EXPECT_EQ(r.exit_code, 2) << option << " \"" << value << "\"";
    EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << option;
  }
  auto r = RunAligndb({"export", "--db", db_, "--op", "l12"});  // a paraphrase operation
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--collection"), std::string::npos) << r.err;
  EXPECT_EQ(RunAligndb({"export", "--db", db_, "--op", "1-1,l12"}).exit_code, 0);
  for (const char* sim : {"2", "-5"}) {
    auto r = RunAligndb({"stats", "--db", db_, "--min-sim", sim});
    EXPECT_EQ(r.exit_code, 2) << sim;
    EXPECT_NE(r.err.find("[-1, 1]"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace aligndb

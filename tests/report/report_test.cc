// The corpus report and the score command, on the bundled samples.
#include "report/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "ingest/ingest.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t p = s.find(what); p != std::string::npos; p = s.find(what, p + 1)) ++n;
  return n;
}

TEST(ReportTest, SelfContainedHtmlMarkdownAndPictures) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  auto r = RunAligndb({"build", "--db", db, "--show", "0",
                       DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"report", "--db", db, "--out", tmp.Sub("report")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string html = testing::ReadFile(tmp.Sub("report/report.html"));
  std::string md = testing::ReadFile(tmp.Sub("report/report.md"));
  EXPECT_EQ(Count(html, "<svg"), 5u);
  for (const char* f :
       {"counts.svg", "removed.svg", "operations.svg", "similarity.svg", "flesch.svg"}) {
    EXPECT_EQ(testing::ReadFile(tmp.Sub(std::string("report/") + f)).substr(0, 4), "<svg") << f;
    EXPECT_NE(md.find(std::string("](") + f + ")"), std::string::npos) << f;
  }
  // Nothing is fetched from anywhere: no external scripts, styles, images or fonts.
  EXPECT_FALSE(std::regex_search(html, std::regex(R"((src|href)\s*=\s*["']?(https?:)?//)")));
  EXPECT_EQ(html.find("@import"), std::string::npos);
  EXPECT_EQ(html.find("<script"), std::string::npos);

  // The tables say what `stats` says.
  r = RunAligndb({"stats", "--db", db, "--json"});
  ASSERT_EQ(r.exit_code, 0);
  auto st = nlohmann::json::parse(r.out);
  auto row = [&](const std::string& label, const std::string& value) {
    return "| " + label + " | " + value + " |";
  };
  EXPECT_NE(md.find(row("title pairs (title in both editions)",
                        std::to_string(st["article_pairs"]["title_matches"].get<int>()))),
            std::string::npos)
      << md;
  EXPECT_NE(md.find(row("sentence pairs with similarity ≥ 0.50",
                        std::to_string(st["sentence_pairs"].get<int>()))),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| 1-1 | " + std::to_string(st["operations"]["1-1"].get<int>()) + " |"),
            std::string::npos);
  EXPECT_NE(md.find("| 37% |"), std::string::npos);  // the paper's 1-1 share beside ours
  EXPECT_NE(html.find("Flesch Reading Ease"), std::string::npos);
}

TEST(ReportTest, HistogramSharesAddUp) {
  std::string svg =
      SvgHistogram("t", "x", {{"a", "#000", {0.1, 0.1, 0.5, 0.97, 2.0}}}, 0, 1, 10, 0.5);
  // Five samples: bins [0.1,0.2) 40%, [0.5,0.6) 20%, [0.9,1) 40% (2.0 is clamped to the last bin).
  EXPECT_NE(svg.find("a [0.1, 0.2): 40.0%"), std::string::npos) << svg;
  EXPECT_NE(svg.find("a [0.5, 0.6): 20.0%"), std::string::npos);
  EXPECT_NE(svg.find("a [0.9, 1): 40.0%"), std::string::npos);
  EXPECT_NE(svg.find("stroke-dasharray"), std::string::npos);  // the threshold marker
}

TEST(ScoreCliTest, JsonAndErrors) {
  std::string d = std::string(ALIGNDB_SOURCE_DIR) + "/tests/data/score/";
  auto r = RunAligndb({"score", "--hyp", d + "hyp.txt", "--ref", d + "ref1.txt", "--ref",
                       d + "ref2.txt", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_NEAR(j["bleu"].get<double>(), 0.728491, 1e-6);  // NLTK's corpus_bleu on these files
  for (const char* k : {"bleu", "word_f1", "ssa"}) {
    EXPECT_GE(j[k].get<double>(), 0.0);
    EXPECT_LE(j[k].get<double>(), 1.0);
  }
  TempDir tmp;
  testing::WriteFile(tmp.Sub("short.txt"), "one line\n");
  r = RunAligndb({"score", "--hyp", d + "hyp.txt", "--ref", tmp.Sub("short.txt")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("reference 1 has 1 lines, the hypotheses 10"), std::string::npos) << r.err;
  r = RunAligndb({"score", "--hyp", tmp.Sub("missing.txt"), "--ref", d + "ref1.txt"});
  EXPECT_EQ(r.exit_code, 4);
}

}  // namespace
}  // namespace aligndb

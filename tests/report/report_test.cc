// The corpus report and the score command, on the bundled samples.
#include "report/report.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
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

// Edition names, titles and text come from the data: whatever they hold, the report shows them
// as text and never as markup (no script, no extra table cell, no link).
TEST(ReportTest, HostileEditionNamesAreEscapedInHtmlAndMarkdown) {
  CorpusStats st;
  st.normal_edition = "<script>alert(1)</script>";
  st.simple_edition = "x | y\n| [a](javascript:alert(2)) <img src=x onerror=alert(3)>";
  st.title_matches = 3;
  std::string html = ReportHtml(st), md = ReportMarkdown(st);
  for (const std::string* page : {&html, &md}) {
    EXPECT_EQ(page->find("<script"), std::string::npos);
    EXPECT_EQ(page->find("<img"), std::string::npos);
  }
  EXPECT_EQ(md.find("[a]("), std::string::npos) << md;  // a link only when unescaped
  EXPECT_NE(md.find("\\[a\\](javascript"), std::string::npos) << md;
  EXPECT_NE(html.find("&lt;script&gt;alert(1)&lt;/script&gt; (normal)"), std::string::npos);
  EXPECT_NE(md.find("| &lt;script&gt;alert(1)&lt;/script&gt; (normal) |"), std::string::npos) << md;
  // Every table row keeps its five cells: no '|' from the data ends a cell.
  std::istringstream lines(md);
  std::string line;
  int side_rows = 0;
  while (std::getline(lines, line)) {
    if (line.find("(simple) |") == std::string::npos) continue;
    ++side_rows;
    size_t bars = 0;
    for (size_t i = 0; i < line.size(); ++i)
      if (line[i] == '|' && (i == 0 || line[i - 1] != '\\')) ++bars;
    EXPECT_EQ(bars, 6u) << line;
  }
  EXPECT_EQ(side_rows, 1);
}

// The report names the parameters the records were aligned with, as lookup and stats do: an
// all-pairs run its measure and threshold, not Coster & Kauchak's; a vector file's path is
// escaped like any user text.
TEST(ReportTest, ParametersOfTheAlignmentMode) {
  CorpusStats st;
  st.normal_edition = "enwiki";
  st.simple_edition = "simplewiki";
  st.min_sim = 0.5;
  st.params.set_mode("coster-kauchak");
  st.params.set_similarity("tfidf");
  st.params.set_paragraph_threshold(0.5);
  st.params.set_skip_penalty(0.0001);
  std::string md = ReportMarkdown(st);
  EXPECT_NE(md.find("Aligned with coster-kauchak/tfidf, paragraph threshold 0.5, skip penalty "
                    "0.0001; sentence filter: similarity \u2265 0.5."),
            std::string::npos)
      << md;
  st.params.set_mode("all-pairs");
  st.params.set_similarity("matrix");
  st.params.set_pair_threshold(0.3);
  st.params.set_theta(0.4);
  st.params.set_vectors("v<script>.vec");
  md = ReportMarkdown(st);
  const std::string html = ReportHtml(st);
  EXPECT_NE(md.find("Aligned with all-pairs/matrix, threshold 0.3, \u03b8 0.4, vectors "),
            std::string::npos)
      << md;
  EXPECT_EQ(md.find("paragraph threshold"), std::string::npos) << md;
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_NE(html.find("vectors v&lt;script&gt;.vec"), std::string::npos) << html;
}

TEST(ReportTest, HostileTitlesAndTextDoNotReachTheReportAsMarkup) {
  TempDir tmp;
  std::string hostile = "<script>alert(1)</script> | <img src=x onerror=alert(2)>";
  std::string text = "Cats are small animals that purr. " + hostile + " They sleep a lot.";
  testing::WriteFile(tmp.Sub("n.jsonl"),
                     nlohmann::json({{"title", hostile}, {"text", text}}).dump() + "\n" +
                         nlohmann::json({{"title", "Cat"}, {"text", text}}).dump());
  testing::WriteFile(tmp.Sub("s.jsonl"),
                     nlohmann::json({{"title", hostile}, {"text", text}}).dump() + "\n" +
                         nlohmann::json({{"title", "Cat"}, {"text", text}}).dump());
  std::string db = tmp.Sub("db");
  auto r = RunAligndb({"build", "--db", db, "--show", "0", "enwiki=" + tmp.Sub("n.jsonl"),
                       "simplewiki=" + tmp.Sub("s.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"report", "--db", db, "--out", tmp.Sub("report")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* f : {"report/report.html", "report/report.md", "report/flesch.svg"}) {
    std::string page = testing::ReadFile(tmp.Sub(f));
    EXPECT_EQ(page.find("<script"), std::string::npos) << f;
    EXPECT_EQ(page.find("<img"), std::string::npos) << f;
  }
  // A hostile edition name cannot get into the database in the first place.
  r = RunAligndb(
      {"ingest", "--db", db, "--edition", "<script>alert(1)</script>", tmp.Sub("s.jsonl")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("is not a valid edition name"), std::string::npos) << r.err;
}

// --out names a directory: created with the directories above it (as --db is), its files
// replaced whole; a file where the directory should be is a bad argument, told before the
// database is opened (a missing database would otherwise hide it).
TEST(ReportTest, OutIsADirectoryCreatedWithItsParents) {
  TempDir tmp;
  const std::string text = "Cats are small animals that purr. They sleep a lot.";
  for (const char* side : {"n.jsonl", "s.jsonl"})
    testing::WriteFile(tmp.Sub(side), nlohmann::json({{"title", "Cat"}, {"text", text}}).dump());
  std::string db = tmp.Sub("db");
  auto r = RunAligndb({"build", "--db", db, "--show", "0", "enwiki=" + tmp.Sub("n.jsonl"),
                       "simplewiki=" + tmp.Sub("s.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"report", "--db", db, "--out", tmp.Sub("a/b/report")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::is_regular_file(tmp.Sub("a/b/report/report.html")));
  testing::WriteFile(tmp.Sub("file"), "kept\n");
  for (const std::string& base : {db, tmp.Sub("no-such-db")}) {
    r = RunAligndb({"report", "--db", base, "--out", tmp.Sub("file")});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_NE(r.err.find("--out: " + tmp.Sub("file") + ": is a file; give a directory"),
              std::string::npos)
        << r.err;
    r = RunAligndb({"report", "--db", base, "--out", tmp.Sub("file/sub/report")});
    EXPECT_EQ(r.exit_code, 4) << r.err;
    EXPECT_NE(r.err.find(tmp.Sub("file") + " is not a directory"), std::string::npos) << r.err;
    EXPECT_EQ(testing::SplitLines(r.err).size(), 1u) << r.err;
  }
  EXPECT_EQ(testing::ReadFile(tmp.Sub("file")), "kept\n");
  // A report over an earlier one replaces each file, leaving no temporary beside them.
  r = RunAligndb({"report", "--db", db, "--out", tmp.Sub("a/b/report")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  size_t entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(tmp.Sub("a/b/report"))) {
    ++entries;
    EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos) << e.path();
  }
  EXPECT_EQ(entries, 7u);
}

}  // namespace
}  // namespace aligndb

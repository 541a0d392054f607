// What a new user meets on the README's database: failed exports that must leave files alone,
// edition pairs and collections that do not exist, reports of paraphrase-only databases, input
// files that are directories or empty, and messages that must name the right thing.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "export/export.h"
#include "report/report.h"
#include "sample_db.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::ReadFile;
using testing::RunAligndb;
using testing::TempDir;
using testing::WriteFile;

class TourTest : public testing::SampleDbTest {};

// Files in `dir` (names only), to see that nothing was left behind.
std::vector<std::string> Listing(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

TEST_F(TourTest, FailedExportLeavesExistingFilesAlone) {
  TempDir tmp;
  WriteFile(tmp.Sub("keep.tsv"), "keep\n");
  auto r = RunAligndb(
      {"export", "--db", db_, "--format", "tsv", "--out", tmp.Sub("keep.tsv"), "--normal", "xx"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_EQ(ReadFile(tmp.Sub("keep.tsv")), "keep\n");
  WriteFile(tmp.Sub("p.normal"), "n\n");
  WriteFile(tmp.Sub("p.simple"), "s\n");
  r = RunAligndb(
      {"export", "--db", db_, "--format", "parallel", "--out", tmp.Sub("p"), "--title", "Nope"});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_EQ(ReadFile(tmp.Sub("p.normal")), "n\n");
  EXPECT_EQ(ReadFile(tmp.Sub("p.simple")), "s\n");
  EXPECT_EQ(Listing(tmp.path()), (std::vector<std::string>{"keep.tsv", "p.normal", "p.simple"}));
  // A successful export replaces them.
  r = RunAligndb({"export", "--db", db_, "--format", "tsv", "--out", tmp.Sub("keep.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadFile(tmp.Sub("keep.tsv")).rfind("normal_title\t", 0), 0u);
  r = RunAligndb({"export", "--db", db_, "--format", "parallel", "--out", tmp.Sub("p")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(testing::SplitLines(ReadFile(tmp.Sub("p.normal"))).size(), 10u);
  EXPECT_EQ(testing::SplitLines(ReadFile(tmp.Sub("p.normal"))).size(),
            testing::SplitLines(ReadFile(tmp.Sub("p.simple"))).size());
  EXPECT_EQ(Listing(tmp.path()), (std::vector<std::string>{"keep.tsv", "p.normal", "p.simple"}));
}

TEST_F(TourTest, ExportToADirectoryOrAMissingDirectoryIsRefused) {
  TempDir tmp;
  std::filesystem::create_directory(tmp.Sub("outdir"));
  for (const std::string& out : {tmp.Sub("outdir"), tmp.Sub("outdir") + "/"}) {
    for (const char* format : {"parallel", "tsv"}) {
      auto r = RunAligndb({"export", "--db", db_, "--format", format, "--out", out});
      if (std::string(format) == "parallel" && out.back() != '/') {
        // PREFIX.normal and PREFIX.simple beside a directory named PREFIX are fine.
        EXPECT_EQ(r.exit_code, 0) << r.err;
        EXPECT_TRUE(std::filesystem::exists(out + ".normal"));
        continue;
      }
      EXPECT_EQ(r.exit_code, 2) << out << ": " << r.err;
      EXPECT_NE(r.err.find(std::string(format) == "parallel" ? "ends in a name" : "is a directory"),
                std::string::npos)
          << r.err;
      EXPECT_EQ(testing::SplitLines(r.err).size(), 1u) << r.err;
    }
  }
  EXPECT_TRUE(Listing(tmp.Sub("outdir")).empty());
  auto r = RunAligndb({"export", "--db", db_, "--format", "tsv", "--out", tmp.Sub("no/such/x")});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_NE(r.err.find("the directory " + tmp.Sub("no/such") + " does not exist"),
            std::string::npos)
      << r.err;
}

TEST_F(TourTest, MessagesNameTheRightThing) {
  // Each bound is checked on its own before the range; --op lists every operation.
  const std::vector<std::pair<std::vector<std::string>, std::string>> refused = {
      {{"--min-sim", "2"}, "--min-sim 2: similarities lie in [-1, 1]"},
      {{"--max-sim", "-1.5"}, "--max-sim -1.5: similarities lie in [-1, 1]"},
      {{"--op", "3-3"}, "(use 1-1, 1-2, 2-1, 2-2, pair, l12, f2)"}};
  for (const auto& [extra, message] : refused) {
    std::vector<std::string> args = {"export", "--db", db_, "--format", "tsv"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = RunAligndb(args);
    EXPECT_EQ(r.exit_code, 2) << extra[0];
    EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  }
  auto r = RunAligndb({"export", "--help"});
  EXPECT_NE(r.out.find("l12, f2"), std::string::npos) << r.out;
  r = RunAligndb({"align", "--help"});
  EXPECT_NE(r.out.find("since the pair was aligned"), std::string::npos) << r.out;
  r = RunAligndb({"wordalign", "--help"});
  EXPECT_NE(r.out.find("the lexical aligner: 0.9"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("--theta FLOAT=0.49"), std::string::npos) << r.out;
  r = RunAligndb({"serve", "--help"});
  EXPECT_NE(r.out.find("0: one per core"), std::string::npos) << r.out;
  TempDir tmp;
  r = RunAligndb({"report", "--db", db_, "--out", tmp.Sub("r") + "/"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::SplitLines(r.out)[0], tmp.Sub("r/report.html"));
}

TEST_F(TourTest, UnalignedEditionPairIsNotFoundEverywhere) {
  TempDir tmp;
  const std::vector<std::vector<std::string>> commands = {
      {"export", "--format", "tsv"}, {"stats"}, {"report", "--out", tmp.Sub("r")}, {"lookup", "A"}};
  for (auto args : commands) {
    args.insert(args.end(), {"--db", db_, "--normal", "simplewiki", "--simple", "enwiki"});
    auto r = RunAligndb(args);
    EXPECT_EQ(r.exit_code, 6) << args[0] << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args[0] << ": " << r.out;
    EXPECT_NE(r.err.find("simplewiki → enwiki is not aligned"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("aligned edition pairs: enwiki → simplewiki"), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("meta pairing"), std::string::npos) << r.err;
  }
  for (const std::string collection : {"enwiki", "nope"}) {
    for (auto args :
         std::vector<std::vector<std::string>>{{"stats"}, {"export", "--format", "jsonl"}}) {
      args.insert(args.end(), {"--db", db_, "--collection", collection});
      auto r = RunAligndb(args);
      EXPECT_EQ(r.exit_code, 6) << args[0] << ": " << r.err;
      EXPECT_NE(r.err.find("no paraphrase collection \"" + collection + "\""), std::string::npos)
          << r.err;
      EXPECT_NE(r.err.find("paraphrase collections: none"), std::string::npos) << r.err;
      EXPECT_EQ(r.err.find("no edition"), std::string::npos) << r.err;
    }
  }
}

TEST_F(TourTest, LookupAndStatsShowEveryParameter) {
  auto r = RunAligndb({"lookup", "--db", db_, "Abu Nuwas", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto params = nlohmann::json::parse(r.out)["params"];
  EXPECT_EQ(params["similarity"], "tfidf");
  EXPECT_EQ(params["follow_redirects"], false);
  EXPECT_FALSE(params.contains("theta"));  // not an embedding measure
  r = RunAligndb({"stats", "--db", db_, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  params = nlohmann::json::parse(r.out)["params"];
  EXPECT_EQ(params["method"], "coster-kauchak");
  EXPECT_EQ(params["similarity"], "tfidf");
  EXPECT_EQ(params["paragraph_threshold"], 0.5);
  r = RunAligndb({"stats", "--db", db_});
  EXPECT_NE(r.out.find("aligned with coster-kauchak/tfidf, paragraph threshold 0.5"),
            std::string::npos)
      << r.out;
}

// Records aligned with θ 0.3 and θ 0.49 (an embedding measure) no longer look the same.
TEST(TourParamsTest, EmbeddingParametersAreShown) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  ASSERT_EQ(testing::BuildSampleDb(db).exit_code, 0);
  const std::string vectors = testing::DataPath("vectors/lee_fasttext.vec");
  for (const char* theta : {"0.3", "0.49"}) {
    auto r = RunAligndb({"align", "--db", db, "--similarity", "maximum", "--vectors", vectors,
                         "--vectors-cache", "-", "--theta", theta, "--follow-redirects"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = RunAligndb({"lookup", "--db", db, "Abu Nuwas"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find(std::string("coster-kauchak/maximum, paragraph threshold 0.5, skip "
                                     "penalty 0.0001, θ ") +
                         theta + ", vectors " + vectors + ", following redirects\n"),
              std::string::npos)
        << r.out;
    r = RunAligndb({"lookup", "--db", db, "Abu Nuwas", "--format", "json"});
    auto params = nlohmann::json::parse(r.out)["params"];
    EXPECT_EQ(params["theta"], std::stod(theta));
    EXPECT_EQ(params["vectors"], vectors);
    EXPECT_EQ(params["follow_redirects"], true);
    r = RunAligndb({"stats", "--db", db, "--json"});
    params = nlohmann::json::parse(r.out)["params"];
    EXPECT_EQ(params["similarity"], "maximum");
    EXPECT_EQ(params["theta"], std::stod(theta));
  }
}

// A database of one news collection: the report says what it holds instead of pair figures.
TEST(TourNewsTest, ReportOfAParaphraseOnlyDatabase) {
  TempDir tmp;
  WriteFile(
      tmp.Sub("clusters.jsonl"),
      R"({"cluster": "storm", "doc": "ap", "sentences": ["Officials said ten people died.", "The storm hit the coast."]})"
      "\n"
      R"({"cluster": "storm", "doc": "reuters", "text": "Officials said that ten people had died. The storm hit the coast on Monday."})"
      "\n");
  const std::string db = tmp.Sub("db");
  auto r = RunAligndb({"ingest", "--db", db, "--edition", "news", tmp.Sub("clusters.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"paraphrase", "--db", db, "--method", "l12"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"report", "--db", db, "--out", tmp.Sub("report")});
  EXPECT_EQ(r.exit_code, 6) << r.err;
  EXPECT_NE(r.err.find("news is a paraphrase collection"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("stats --collection news"), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(tmp.Sub("report/report.md")));
  // Its statistics are the collection's.
  r = RunAligndb({"stats", "--db", db});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("collection news"), std::string::npos) << r.out;
}

// The unaligned count of corpus statistics never wraps around (records with more paragraph pairs
// than simple paragraphs: paraphrase collections).
TEST(TourStatsTest, UnalignedParagraphsNeverUnderflow) {
  CorpusStats st;
  st.simple_paragraphs = 0;
  st.paragraph_pairs = 1545;
  EXPECT_EQ(st.SimpleParagraphsUnaligned(), 0u);
  EXPECT_NE(ReportMarkdown(st).find("| simple paragraphs unaligned | 0 of 0 "), std::string::npos);
  st.simple_paragraphs = 10;
  st.paragraph_pairs = 4;
  EXPECT_EQ(st.SimpleParagraphsUnaligned(), 6u);
}

// Every command that reads an input file refuses a directory (exit 4), as score always did, and
// score, eval and aer refuse an empty file (exit 3) instead of printing zeros.
TEST(TourInputTest, DirectoriesAndEmptyFilesAreRefused) {
  TempDir tmp;
  const std::string dir = tmp.Sub("dir"), empty = tmp.Sub("empty.txt"), pairs = tmp.Sub("p.tsv");
  std::filesystem::create_directory(dir);
  WriteFile(empty, "");
  WriteFile(pairs, "a b\tc d\t1\n");
  WriteFile(tmp.Sub("links.txt"), "0-0\n");
  const std::vector<std::vector<std::string>> on_dir = {
      {"similarity", "--method", "tfidf", dir},
      {"wordalign", dir},
      {"eval", "--method", "tfidf", dir},
      {"aer", "--gold", dir, "--pred", tmp.Sub("links.txt")},
      {"aer", "--gold", tmp.Sub("links.txt"), "--pred", dir},
      {"score", "--hyp", dir, "--ref", pairs}};
  for (const auto& args : on_dir) {
    auto r = RunAligndb(args);
    EXPECT_EQ(r.exit_code, 4) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(dir + ": cannot open: is a directory"), std::string::npos) << r.err;
    EXPECT_TRUE(r.out.empty()) << args[0] << ": " << r.out;
  }
  const std::vector<std::vector<std::string>> on_empty = {
      {"eval", "--method", "tfidf", empty},
      {"score", "--hyp", empty, "--ref", pairs},
      {"aer", "--gold", empty, "--pred", tmp.Sub("links.txt")},
      {"aer", "--gold", tmp.Sub("links.txt"), "--pred", empty}};
  for (const auto& args : on_empty) {
    auto r = RunAligndb(args);
    EXPECT_EQ(r.exit_code, 3) << args[0] << ": " << r.err;
    EXPECT_NE(r.err.find(empty + ": "), std::string::npos) << r.err;
    EXPECT_EQ(testing::SplitLines(r.err).size(), 1u) << r.err;
    EXPECT_TRUE(r.out.empty()) << args[0] << ": " << r.out;
  }
}

// --method and --weights take one comma-separated argument: options and files may follow them.
TEST(TourOptionsTest, ListOptionsTakeOneArgument) {
  TempDir tmp;
  const std::string pairs = tmp.Sub("pairs.tsv");
  WriteFile(pairs, "a cat sat\ta cat sat\t1\na cat sat\tdogs run far\t0\n");
  auto r = RunAligndb({"eval", "--method", "tfidf", pairs, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["pairs"], 2);
  r = RunAligndb({"eval", "--method", "tfidf,tfidf", "--weights", "0.5,0.5", pairs, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["method"], "0.5 tfidf + 0.5 tfidf");
  r = RunAligndb({"similarity", "--method", "tfidf", pairs, "--positive-at", "0.5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(testing::SplitLines(r.out).size(), 2u);
  r = RunAligndb({"eval", "--method", "tfidf,bogus", pairs});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("\"bogus\" is not one of"), std::string::npos) << r.err;
  r = RunAligndb({"eval", "--method", "tfidf", "--weights", "1,x", pairs});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--weights: expected a finite number, not \"x\""), std::string::npos)
      << r.err;
}

// --json where --format json is also taken (lookup, show), as stats and info take it; export
// writes JSON lines when no --format is given.
TEST_F(TourTest, JsonFlagsAndExportsDefaultFormat) {
  auto by_flag = RunAligndb({"lookup", "--db", db_, "A", "--json"});
  auto by_format = RunAligndb({"lookup", "--db", db_, "A", "--format", "json"});
  ASSERT_EQ(by_flag.exit_code, 0) << by_flag.err;
  EXPECT_EQ(by_flag.out, by_format.out);
  EXPECT_EQ(nlohmann::json::parse(by_flag.out)["normal_title"], "A");
  auto show = RunAligndb({"show", "--db", db_, "--edition", "simplewiki", "April", "--json"});
  ASSERT_EQ(show.exit_code, 0) << show.err;
  EXPECT_EQ(nlohmann::json::parse(show.out)["title"], "April");
  auto both = RunAligndb({"lookup", "--db", db_, "A", "--json", "--format", "text"});
  EXPECT_EQ(both.exit_code, 2) << both.err;
  auto plain = RunAligndb({"export", "--db", db_, "--min-sim", "0.9"});
  auto jsonl = RunAligndb({"export", "--db", db_, "--min-sim", "0.9", "--format", "jsonl"});
  ASSERT_EQ(plain.exit_code, 0) << plain.err;
  EXPECT_FALSE(plain.out.empty());
  EXPECT_EQ(plain.out, jsonl.out);
}

// Matrix similarity can exceed 1 (docs/method.md): its pairs above 1 are exported by default and
// bounds above 1 are accepted; for other measures a bound outside [-1, 1] stays a mistake.
TEST_F(TourTest, MatrixSimilarityIsNotCutAtOne) {
  TempDir tmp;
  const std::string db = tmp.Sub("mx");
  auto b = RunAligndb({"build", "--db", db, "--similarity", "matrix", "--vectors",
                       DataPath("vectors/lee_fasttext.vec"), "--vectors-cache", "-", "--mode",
                       "all-pairs", "--threshold", "0.3",
                       DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(b.exit_code, 0) << b.err;
  auto all = RunAligndb({"export", "--db", db});
  auto to_one = RunAligndb({"export", "--db", db, "--max-sim", "1"});
  auto above_two = RunAligndb({"export", "--db", db, "--min-sim", "2"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  ASSERT_EQ(above_two.exit_code, 0) << above_two.err;
  EXPECT_GT(testing::SplitLines(all.out).size(), testing::SplitLines(to_one.out).size());
  EXPECT_FALSE(above_two.out.empty());
  auto tfidf = RunAligndb({"export", "--db", db_, "--min-sim", "2"});
  EXPECT_EQ(tfidf.exit_code, 2) << tfidf.err;
}

}  // namespace
}  // namespace aligndb

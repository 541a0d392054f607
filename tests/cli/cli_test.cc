// End-to-end tests of the aligndb command line: what a user sees, including every bad-input path.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "align/align.h"
#include "test_util.h"

namespace aligndb {
namespace {

using nlohmann::json;
using testing::DataPath;
using testing::RunAligndb;
using testing::TempDir;

json InfoJson(const std::string& db) {
  auto r = RunAligndb({"info", "--db", db, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

TEST(CliTest, HelpOnEveryCommand) {
  for (std::string cmd : {"ingest", "show", "info"}) {
    auto r = RunAligndb({cmd, "--help"});
    EXPECT_EQ(r.exit_code, 0) << cmd;
    EXPECT_NE(r.out.find("--db"), std::string::npos) << cmd;
  }
  auto r = RunAligndb({"no-such-command"});
  EXPECT_EQ(r.exit_code, 2);
}

// `aligndb serve` runs aligndb-serve from aligndb's own directory (src/cli/serve_exec.cc), with
// every argument; without it there, one line names the missing program and the exit code is 4.
TEST(CliTest, ServeRunsTheServerProgramBesideAligndb) {
  auto r = RunAligndb({"serve", "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("--port"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("aligndb serve [OPTIONS]"), std::string::npos) << r.out;
  r = RunAligndb({"serve", "--db", "/nonexistent/db", "--port", "0"});
  EXPECT_EQ(r.exit_code, 6) << r.err;  // aligndb-serve's own check of --db

  TempDir tmp;
  const std::string lone = tmp.Sub("aligndb");
  std::filesystem::copy_file(ALIGNDB_BINARY, lone);
  std::filesystem::permissions(lone, std::filesystem::perms::owner_all);
  const std::string cmd = "'" + lone + "' serve --db '" + tmp.Sub("db") + "' > '" +
                          tmp.Sub("out") + "' 2> '" + tmp.Sub("err") + "'";
  int status = std::system(cmd.c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 4);
  const std::string err = testing::ReadFile(tmp.Sub("err"));
  EXPECT_NE(err.find(tmp.Sub("aligndb-serve") + ": No such file or directory"), std::string::npos)
      << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  // The other commands do not need it.
  status = std::system(("'" + lone + "' --version > /dev/null").c_str());
  EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

TEST(CliTest, IngestShowInfo) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  auto r = RunAligndb({"ingest", "--db", db, "--json",
                       DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json sum = json::parse(r.out);
  EXPECT_EQ(sum["added"], 112);
  EXPECT_EQ(sum["unchanged"], 0);
  EXPECT_EQ(r.err, "");  // no progress noise when stderr is not a terminal

  json info = InfoJson(db);
  EXPECT_EQ(info["editions"]["enwiki"]["articles"], 106);
  EXPECT_EQ(info["editions"]["enwiki"]["redirects"], 99);
  EXPECT_EQ(info["editions"]["simplewiki"]["articles"], 6);
  EXPECT_GT(info["editions"]["simplewiki"]["sentences"].get<int>(), 50);
  ASSERT_EQ(info["runs"].size(), 1u);
  EXPECT_EQ(info["runs"][0]["status"], "ok");

  r = RunAligndb({"show", "--db", db, "--edition", "simplewiki", "April", "--format", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json a = json::parse(r.out);
  EXPECT_EQ(a["title"], "April");
  EXPECT_EQ(a["edition"], "simplewiki");
  EXPECT_EQ(a["paragraphs"][0][0],
            "April is the 4th month of the year, and comes between March and May.");

  r = RunAligndb({"show", "--db", db, "Art"});  // in both editions
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("[enwiki"), std::string::npos);
  EXPECT_NE(r.out.find("[simplewiki"), std::string::npos);

  r = RunAligndb({"show", "--db", db, "AccessibleComputing"});
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_NE(r.err.find("redirects to \"Computer accessibility\""), std::string::npos) << r.err;

  // An edition it does not have: the ones it has are named (a misspelt name shows at once).
  r = RunAligndb({"show", "--db", db, "--edition", "simpelwiki", "April"});
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_NE(
      r.err.find("no edition \"simpelwiki\" in " + db + " (editions stored: enwiki, simplewiki)"),
      std::string::npos)
      << r.err;
  // No title and no --all is a bad argument, told before the database is looked at.
  for (const std::string& where : {db, tmp.Sub("missing")}) {
    r = RunAligndb({"show", "--db", where, "--edition", "frwiki"});
    EXPECT_EQ(r.exit_code, 2) << where << ": " << r.err;
    EXPECT_NE(r.err.find("show needs a TITLE or --all"), std::string::npos) << r.err;
  }
}

// `show --all --format jsonl` writes what `ingest` reads: the round trip is exact, flags included.
TEST(CliTest, ShowAllJsonlRoundTripsExactly) {
  TempDir tmp;
  auto r = RunAligndb(
      {"ingest", "--db", tmp.Sub("a"), DataPath("wikidumps/enwiki-gensim-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto first = RunAligndb(
      {"show", "--db", tmp.Sub("a"), "--edition", "enwiki", "--all", "--format", "jsonl"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_EQ(std::count(first.out.begin(), first.out.end(), '\n'), 106);
  testing::WriteFile(tmp.Sub("enwiki.jsonl"), first.out);
  r = RunAligndb({"ingest", "--db", tmp.Sub("b"), "enwiki=" + tmp.Sub("enwiki.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto second = RunAligndb(
      {"show", "--db", tmp.Sub("b"), "--edition", "enwiki", "--all", "--format", "jsonl"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_EQ(first.out, second.out);
  // Flags survive: "Ada" is a disambiguation page with one sentence.
  EXPECT_NE(second.out.find(R"("title":"Ada","id":630,)"), std::string::npos);
  EXPECT_NE(second.out.find(R"("flags":["disambiguation","single_line"])"), std::string::npos);
  json a = InfoJson(tmp.Sub("a"))["editions"]["enwiki"],
       b = InfoJson(tmp.Sub("b"))["editions"]["enwiki"];
  for (const char* k : {"articles", "paragraphs", "sentences"}) EXPECT_EQ(a[k], b[k]) << k;
}

TEST(CliTest, BuildThenLookupEveryExportedTitle) {
  TempDir tmp;
  std::string db = tmp.Sub("db");
  auto r = RunAligndb({"build", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                       DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("2 title matches"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("normal: "), std::string::npos) << r.out;
  r = RunAligndb({"export", "--db", db, "--format", "jsonl", "--min-sim", "0"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> titles;
  std::istringstream lines(r.out);
  std::string line;
  while (std::getline(lines, line))
    titles.insert(json::parse(line)["simple_title"].get<std::string>());
  ASSERT_EQ(titles, (std::set<std::string>{"A", "Art"}));
  for (const auto& t : titles) {
    auto l = RunAligndb({"lookup", "--db", db, t, "--format", "json"});
    ASSERT_EQ(l.exit_code, 0) << l.err;
    EXPECT_EQ(json::parse(l.out)["simple_title"], t);
  }
  r = RunAligndb({"export", "--db", db, "--format", "jsonl", "--op", "3-3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("unknown operation"), std::string::npos);
  r = RunAligndb({"stats", "--db", db, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["article_pairs"]["title_matches"], 2);
}

TEST(CliTest, SimilarityEvalAndAllPairs) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("pairs.tsv"),
                     "the city is large\tthe city is big\t1\n"
                     "the man eats\tthe people of the city\t0\n"
                     "he said the city\the said the city\t1\n");
  std::string vec = DataPath("vectors/lee_fasttext.vec");
  auto r = RunAligndb({"similarity", "--method", "maximum", "--vectors", vec, "--vectors-cache",
                       "-", tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::vector<double> scores;
  for (double x; lines >> x;) scores.push_back(x);
  ASSERT_EQ(scores.size(), 3u);
  EXPECT_NEAR(scores[2], 1.0, 1e-9);  // identical sentences
  EXPECT_GT(scores[0], scores[1]);
  r = RunAligndb({"eval", "--method", "tfidf,wmd", "--vectors", vec, "--vectors-cache", "-",
                  "--json", "--plot", tmp.Sub("pr.svg"), tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream jl(r.out);
  std::string line;
  int n = 0;
  while (std::getline(jl, line)) {
    auto j = json::parse(line);
    EXPECT_TRUE(j.contains("max_f1") && j.contains("threshold") && j.contains("auc") &&
                j.contains("method"));
    ++n;
  }
  EXPECT_EQ(n, 2);
  EXPECT_EQ(testing::ReadFile(tmp.Sub("pr.svg")).substr(0, 4), "<svg");
  r = RunAligndb({"eval", "--method", "maximum", tmp.Sub("pairs.tsv")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("needs --vectors"), std::string::npos) << r.err;

  std::string db = tmp.Sub("db");
  r = RunAligndb({"ingest", "--db", db, DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                  DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"align", "--db", db, "--mode", "all-pairs", "--similarity", "maximum", "--theta",
                  "0.49", "--threshold", "0.53", "--vectors", vec, "--vectors-cache", "-",
                  "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_GT(json::parse(r.out)["scored_pairs"].get<int>(), 100);
  r = RunAligndb({"export", "--db", db, "--format", "jsonl", "--min-sim", "0"});
  ASSERT_EQ(r.exit_code, 0);
  std::istringstream ex(r.out);
  int pairs = 0;
  while (std::getline(ex, line)) {
    auto j = json::parse(line);
    EXPECT_EQ(j["op"], "pair");
    EXPECT_GE(j["similarity"].get<double>(), 0.53);
    ++pairs;
  }
  EXPECT_GT(pairs, 0);
  r = RunAligndb({"align", "--db", db, "--mode", "all-pairs"});
  EXPECT_EQ(r.exit_code, 2);
}

// --weights scores pairs by the weighted sum of the methods' scores (here with real WordNet), and
// eval --cv reports cross-validated figures of the accuracy-maximizing threshold.
TEST(CliTest, WeightedMeasuresAndCrossValidation) {
  TempDir tmp;
  std::string pairs;
  for (int k = 0; k < 5; ++k)
    pairs +=
        "the car is fast\tthe automobile is quick\t1\n"
        "the dog barked loudly\ta tree grew slowly\t0\n";
  testing::WriteFile(tmp.Sub("pairs.tsv"), pairs);
  auto scores_of = [&](std::vector<std::string> args) {
    args.push_back(tmp.Sub("pairs.tsv"));
    auto r = RunAligndb(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::istringstream lines(r.out);
    std::vector<double> s;
    for (double x; lines >> x;) s.push_back(x);
    return s;
  };
  const auto wmd = scores_of({"similarity", "--method", "wmd", "--lexicon", "wordnet"});
  const auto tfidf = scores_of({"similarity", "--method", "tfidf"});
  const auto both = scores_of(
      {"similarity", "--method", "wmd,tfidf", "--weights", "0.8,0.2", "--lexicon", "wordnet"});
  ASSERT_EQ(both.size(), 10u);
  ASSERT_EQ(wmd.size(), 10u);
  ASSERT_EQ(tfidf.size(), 10u);
  for (size_t i = 0; i < both.size(); ++i)
    EXPECT_NEAR(both[i], 0.8 * wmd[i] + 0.2 * tfidf[i], 1e-5) << i;
  EXPECT_GT(wmd[0], wmd[1]);  // car/automobile, fast/quick are WordNet synonyms

  auto r = RunAligndb({"eval", "--method", "wmd,tfidf", "--weights", "0.8,0.2", "--lexicon",
                       "wordnet", "--cv", "5", "--json", tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = json::parse(r.out);  // one line: the combination is one measure
  EXPECT_EQ(j["method"], "0.8 wmd + 0.2 tfidf");
  EXPECT_EQ(j["cv"]["folds"], 5);
  EXPECT_DOUBLE_EQ(j["cv"]["accuracy"].get<double>(), 1.0);  // the measure separates the labels
  EXPECT_DOUBLE_EQ(j["cv"]["f1"].get<double>(), 1.0);

  r = RunAligndb({"eval", "--method", "wmd,tfidf", "--weights", "0.8", "--lexicon", "wordnet",
                  tmp.Sub("pairs.tsv")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("one weight per --method"), std::string::npos) << r.err;
  r = RunAligndb({"eval", "--method", "tfidf", "--cv", "1", tmp.Sub("pairs.tsv")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--cv"), std::string::npos) << r.err;
  r = RunAligndb(
      {"similarity", "--method", "wmd,tfidf", "--lexicon", "wordnet", tmp.Sub("pairs.tsv")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("several with --weights"), std::string::npos) << r.err;
}

TEST(CliTest, JsonlNeedsAnEdition) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "A", "text": "One. Two."})"
                                         "\n");
  auto r = RunAligndb({"ingest", "--db", tmp.Sub("db"), tmp.Sub("d.jsonl")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("needs --edition"), std::string::npos) << r.err;
  r = RunAligndb({"ingest", "--db", tmp.Sub("db"), "--edition", "docs", tmp.Sub("d.jsonl")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(InfoJson(tmp.Sub("db"))["editions"]["docs"]["sentences"], 2);
}

// Each bad input: one line on stderr naming the file and position, a non-zero exit, the pages
// before the fault kept, and a database that opens.
TEST(CliTest, BadInputKeepsEarlierPagesAndTheDatabaseOpens) {
  TempDir tmp;
  std::string xml = testing::Bz2DecompressFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
  std::string bz = testing::ReadFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
  size_t mid = xml.find("<title>Algeria</title>");
  ASSERT_NE(mid, std::string::npos);
  std::string bad_utf8 = xml;
  bad_utf8[xml.find("Algeria", mid + 30)] = '\xfe';
  struct Case {
    std::string name;
    std::string bytes;
    std::string expect;
    int exit_code;
  } cases[] = {
      {"truncated.xml.bz2", bz.substr(0, bz.size() * 2 / 3), "truncated bz2 file", 3},
      {"cut.xml", xml.substr(0, mid + 500), "malformed XML at byte", 3},
      {"badutf8.xml", bad_utf8, "invalid UTF-8", 3},
  };
  for (const auto& c : cases) {
    std::string db = tmp.Sub("db-" + c.name);
    testing::WriteFile(tmp.Sub(c.name), c.bytes);
    auto r = RunAligndb({"ingest", "--db", db, tmp.Sub(c.name)});
    EXPECT_EQ(r.exit_code, c.exit_code) << c.name << ": " << r.err;
    EXPECT_NE(r.err.find(tmp.Sub(c.name)), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.expect), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    json info = InfoJson(db);
    int articles = info["editions"]["enwiki"]["articles"];
    EXPECT_GT(articles, 10) << c.name;
    EXPECT_LT(articles, 106) << c.name;
    EXPECT_NE(info["runs"][0]["status"].get<std::string>().find(c.expect), std::string::npos);
    // A re-run on the good file completes the database.
    r = RunAligndb(
        {"ingest", "--db", db, "--json", DataPath("wikidumps/enwiki-gensim-sample.xml.bz2")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(json::parse(r.out)["unchanged"], articles);
    EXPECT_EQ(InfoJson(db)["editions"]["enwiki"]["articles"], 106);
  }
}

TEST(CliTest, BadJsonLineKeepsEarlierDocuments) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "A", "text": "One. Two."})"
                                         "\n"
                                         R"({"title": "B", "text": "Three."})"
                                         "\n"
                                         R"({"title": "C", "text": "Fo)"
                                         "\n");
  auto r = RunAligndb({"ingest", "--db", tmp.Sub("db"), "--edition", "docs", tmp.Sub("d.jsonl")});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find(tmp.Sub("d.jsonl") + ": line 3: not valid JSON"), std::string::npos)
      << r.err;
  EXPECT_EQ(InfoJson(tmp.Sub("db"))["editions"]["docs"]["articles"], 2);
}

TEST(CliTest, MissingFileAndNotADatabase) {
  TempDir tmp;
  auto r = RunAligndb({"ingest", "--db", tmp.Sub("db"), tmp.Sub("nope.xml")});
  EXPECT_EQ(r.exit_code, 4);
  EXPECT_NE(r.err.find(tmp.Sub("nope.xml") + ": cannot open"), std::string::npos) << r.err;

  testing::WriteFile(tmp.Sub("plain/file.txt"), "x");
  std::filesystem::create_directories(tmp.Sub("plain"));
  testing::WriteFile(tmp.Sub("plain/file.txt"), "x");
  r = RunAligndb({"info", "--db", tmp.Sub("plain")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("not an aligndb database"), std::string::npos) << r.err;
  r = RunAligndb(
      {"ingest", "--db", tmp.Sub("plain"), DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(testing::ReadFile(tmp.Sub("plain/file.txt")), "x");

  r = RunAligndb({"info", "--db", tmp.Sub("never-created")});
  EXPECT_EQ(r.exit_code, 6);
}

// ------------------------------------------------------------------ the command-line edge

// Runs aligndb with its address space limited to `kb` KiB (ulimit -v).
testing::CommandResult RunAligndbLimited(long kb, const std::vector<std::string>& args) {
  TempDir tmp;
  std::string cmd = "ulimit -v " + std::to_string(kb) + "; '" + ALIGNDB_BINARY + "'";
  for (const auto& a : args) {
    std::string q;
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    cmd += " '" + q + "'";
  }
  cmd += " > '" + tmp.Sub("out") + "' 2> '" + tmp.Sub("err") + "' < /dev/null";
  int status = std::system(cmd.c_str());
  testing::CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = testing::ReadFile(tmp.Sub("out"));
  r.err = testing::ReadFile(tmp.Sub("err"));
  return r;
}

size_t Lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

// A bad argument: exit 2 and one line on stderr naming each of `words`.
void ExpectBadArgument(const std::vector<std::string>& args,
                       const std::vector<std::string>& words) {
  auto r = RunAligndb(args);
  std::string cmd;
  for (const auto& a : args) cmd += a + " ";
  EXPECT_EQ(r.exit_code, 2) << cmd << ": " << r.err;
  EXPECT_EQ(Lines(r.err), 1u) << cmd << ": " << r.err;
  for (const auto& w : words) EXPECT_NE(r.err.find(w), std::string::npos) << cmd << ": " << r.err;
}

// The vocabularies parsed at the command line: every value has one name, and names parse back.
TEST(CliEdgeTest, NameTablesRoundTrip) {
  std::set<std::string> names;
  for (const auto& [m, name] : kSimilarityMeasureNames) {
    SimilarityMeasure back = SimilarityMeasure::kTfidf;
    EXPECT_TRUE(ParseName(kSimilarityMeasureNames, name, &back)) << name;
    EXPECT_EQ(back, m) << name;
    EXPECT_STREQ(SimilarityMeasureName(m), name);
    EXPECT_TRUE(names.insert(name).second) << name;
  }
  EXPECT_EQ(names.size(), 7u);
  for (const auto& [m, name] : kAlignModeNames) {
    AlignMode back = AlignMode::kCosterKauchak;
    EXPECT_TRUE(ParseName(kAlignModeNames, name, &back)) << name;
    EXPECT_EQ(back, m) << name;
    EXPECT_STREQ(AlignModeName(m), name);
  }
  AlignMode untouched = AlignMode::kAllPairs;
  EXPECT_FALSE(ParseName(kAlignModeNames, "Coster-Kauchak", &untouched));
  EXPECT_EQ(untouched, AlignMode::kAllPairs);
  EXPECT_EQ(NameList(kAlignModeNames), "coster-kauchak or all-pairs");
  EXPECT_STREQ(AlignModeName(static_cast<AlignMode>(7)), "?");
}

// --threads 40000 used to abort on an uncaught std::system_error while starting the threads.
TEST(CliEdgeTest, ThreadCountIsCheckedBeforeAnyWork) {
  TempDir tmp;
  ASSERT_TRUE(testing::MakeSampleMultistream(tmp.path()));
  for (std::string n : {"40000", "257", "-1", "2147483648", "1e3"})
    ExpectBadArgument({"ingest", "--db", tmp.Sub("db"), "--index", tmp.Sub("ms-index.txt.bz2"),
                       "--threads", n, tmp.Sub("ms.xml.bz2")},
                      {"--threads", "\"" + n + "\""});
  EXPECT_FALSE(std::filesystem::exists(tmp.Sub("db")));  // refused before the database opened
  auto r = RunAligndb({"ingest", "--db", tmp.Sub("db"), "--json", "--index",
                       tmp.Sub("ms-index.txt.bz2"), "--threads", "256", tmp.Sub("ms.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["added"], 106);
}

// nan, inf and 1e999 (an overflow to inf) used to be accepted: `stats --min-sim nan` printed
// "≥ nan", and export took NaN for its default.
TEST(CliEdgeTest, NumbersMustBeFiniteAndInRange) {
  TempDir tmp;
  std::string db = tmp.Sub("db"), pairs = tmp.Sub("pairs.tsv");
  testing::WriteFile(pairs, "a b\ta c\n");
  struct Case {
    std::vector<std::string> args;
    std::string option;
  } cases[] = {
      {{"export", "--db", db, "--format", "tsv", "--min-sim", "nan"}, "--min-sim"},
      {{"export", "--db", db, "--format", "tsv", "--min-sim", "1e999"}, "--min-sim"},
      {{"export", "--db", db, "--format", "tsv", "--max-sim", "-inf"}, "--max-sim"},
      {{"export", "--db", db, "--format", "tsv", "--min-sim", "0.5x"}, "--min-sim"},
      {{"stats", "--db", db, "--min-sim", "nan"}, "--min-sim"},
      {{"report", "--db", db, "--out", tmp.Sub("r"), "--min-sim", "inf"}, "--min-sim"},
      {{"align", "--db", db, "--theta", "nan"}, "--theta"},
      {{"align", "--db", db, "--paragraph-threshold", "1.5"}, "--paragraph-threshold"},
      {{"align", "--db", db, "--skip-penalty", "-1"}, "--skip-penalty"},
      {{"align", "--db", db, "--max-idf-drift", "inf"}, "--max-idf-drift"},
      {{"align", "--db", db, "--threshold", "1e999"}, "--threshold"},
      {{"similarity", "--method", "tfidf", "--theta", "nan", pairs}, "--theta"},
      {{"eval", "--method", "tfidf", "--positive-at", "nan", pairs}, "--positive-at"},
      {{"wordalign", "--theta", "-1e999", pairs}, "--theta"},
      {{"build", "--db", db, "--show", "-1", pairs}, "--show"},
  };
  for (const auto& c : cases)
    ExpectBadArgument(c.args, {c.option, c.args.back() == pairs ? c.option : c.args.back()});
  EXPECT_FALSE(std::filesystem::exists(db));
  // In range they are taken: tfidf on one pair, any finite theta in [-1, 1].
  auto r = RunAligndb({"similarity", "--method", "tfidf", "--theta", "-1", pairs});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

// What the arguments alone say is wrong is told before what the database lacks: a similarity
// bound outside [-1, 1], an empty range or a collection's operation are exit 2 also where there
// is no database or no alignment to read (they were "not found", exit 6). The bounds of a
// named paraphrase collection are its own (none), so there the missing collection is told.
TEST(CliEdgeTest, SimilarityArgumentsAreCheckedBeforeTheMissingPair) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr. They nap."})");
  const std::string empty = tmp.Sub("unaligned");
  auto r = RunAligndb({"ingest", "--db", empty, "--edition", "simplewiki", tmp.Sub("d.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const std::string& db : {empty, tmp.Sub("missing")}) {
    ExpectBadArgument({"stats", "--db", db, "--min-sim", "2"},
                      {"--min-sim 2: similarities lie in [-1, 1]"});
    ExpectBadArgument({"export", "--db", db, "--min-sim", "-1.5"}, {"--min-sim -1.5"});
    ExpectBadArgument({"export", "--db", db, "--min-sim", "0.9", "--max-sim", "0.1"},
                      {"--max-sim 0.1 is below --min-sim 0.9"});
    ExpectBadArgument({"export", "--db", db, "--op", "l12"}, {"l12 and f2 are pairs of"});
    ExpectBadArgument({"report", "--db", db, "--out", tmp.Sub("r"), "--min-sim", "2"},
                      {"--min-sim 2"});
    // Counter-examples: arguments in range, or a collection's unbounded column.
    for (std::vector<std::string> ok :
         {std::vector<std::string>{"stats", "--db", db, "--min-sim", "0.5"},
          {"export", "--db", db, "--op", "1-1"},
          {"stats", "--db", db, "--collection", "news", "--min-sim", "2"},
          {"export", "--db", db, "--collection", "news", "--op", "l12", "--min-sim", "5"}}) {
      r = RunAligndb(ok);
      EXPECT_EQ(r.exit_code, 6) << ok[0] << " " << ok.back() << " " << db << ": " << r.err;
    }
  }
  EXPECT_FALSE(std::filesystem::exists(tmp.Sub("missing")));
  EXPECT_FALSE(std::filesystem::exists(tmp.Sub("r")));
}

// Options that the chosen mode or measure would ignore are refused, by align and by build
// before build ingests anything.
TEST(CliEdgeTest, AlignOptionsThatWouldBeIgnoredAreRefused) {
  TempDir tmp;
  const std::string db = tmp.Sub("db"), xml = DataPath("wikidumps/simplewiki-sample.xml.bz2");
  const std::string vec = DataPath("vectors/test_glove.txt");
  for (const std::string cmd : {"align", "build"}) {
    std::vector<std::string> base = {cmd, "--db", db};
    auto with = [&](std::vector<std::string> extra) {
      std::vector<std::string> a = base;
      a.insert(a.end(), extra.begin(), extra.end());
      if (cmd == "build") a.push_back(xml);
      return a;
    };
    ExpectBadArgument(with({"--vectors", vec}), {"--vectors", "tfidf"});
    ExpectBadArgument(with({"--lexicon", "wordnet"}), {"--lexicon", "tfidf"});
    ExpectBadArgument(with({"--theta", "0.4"}), {"--theta", "tfidf"});
    ExpectBadArgument(with({"--threshold", "0.5"}), {"--threshold", "all-pairs"});
    ExpectBadArgument(with({"--mode", "all-pairs"}), {"all-pairs", "--similarity"});
    ExpectBadArgument(with({"--similarity", "average"}), {"average", "--vectors"});
    EXPECT_FALSE(std::filesystem::exists(db)) << cmd;
  }
}

// Only ingest and build create a database: align and paraphrase on an empty path say there is
// none (exit 6) and leave nothing there.
TEST(CliEdgeTest, AlignAndParaphraseDoNotCreateADatabase) {
  TempDir tmp;
  for (std::vector<std::string> args : {std::vector<std::string>{"align", "--db", tmp.Sub("db")},
                                        {"paraphrase", "--db", tmp.Sub("db"), "--method", "l12"}}) {
    auto r = RunAligndb(args);
    EXPECT_EQ(r.exit_code, 6) << r.err;
    EXPECT_NE(r.err.find("no database here"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(tmp.Sub("db"))) << args[0];
  }
}

// `--db ""` used to be an I/O error (exit 4) or "no database here" (exit 6).
TEST(CliEdgeTest, EmptyDatabasePathIsABadArgument) {
  ExpectBadArgument({"info", "--db", ""}, {"--db", "empty"});
  ExpectBadArgument({"ingest", "--db", "", DataPath("wikidumps/simplewiki-sample.xml.bz2")},
                    {"--db", "empty"});
  ExpectBadArgument({"export", "--db", "", "--format", "tsv"}, {"--db", "empty"});
}

// An unknown command used to be reported as "A subcommand is required", without the word.
TEST(CliEdgeTest, UnknownCommandOrOptionIsNamed) {
  ExpectBadArgument({"algin", "--db", "x"}, {"unknown command \"algin\"", "align"});
  ExpectBadArgument({"info", "--db", "x", "--jsno"}, {"--jsno"});
  ExpectBadArgument({"align", "--db", "x", "--similarity", "cosine"},
                    {"--similarity", "\"cosine\"", "tfidf, average, maximum, hungarian, wmd"});
  ExpectBadArgument({"align", "--db", "x", "--mode", "pairs"},
                    {"--mode", "coster-kauchak or all-pairs"});
  ExpectBadArgument({"eval", "--method", "tfidf,wdm", "x"}, {"--method", "\"wdm\""});
  auto r = RunAligndb({"--help"});
  EXPECT_EQ(r.exit_code, 0);
  for (std::string cmd :
       {"ingest", "show", "info", "align", "build", "lookup", "stats", "export", "paraphrase",
        "score", "similarity", "eval", "wordalign", "aer", "report"})
    EXPECT_NE(r.out.find(cmd), std::string::npos) << cmd;
  r = RunAligndb({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_FALSE(r.out.empty());
}

// std::bad_alloc from the library used to end in std::terminate (SIGABRT): it is one line and
// exit code 1. A line of a million distinct tokens needs more than 200 MB to score.
TEST(CliEdgeTest, OutOfMemoryIsOneLineNotAnAbort) {
  TempDir tmp;
  std::string line;
  for (int i = 0; i < 1000000; ++i) line += "w" + std::to_string(i) + " ";
  testing::WriteFile(tmp.Sub("hyp.txt"), line + "\n");
  // --max-words 0: without the line limit, so that the million-word line is scored.
  auto r = RunAligndbLimited(200000, {"score", "--max-words", "0", "--hyp", tmp.Sub("hyp.txt"),
                                      "--ref", tmp.Sub("hyp.txt")});
  EXPECT_EQ(r.exit_code, 4) << r.err;  // a resource error, as a full disk is
  EXPECT_EQ(Lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find("aligndb: I/O error: out of memory"), std::string::npos) << r.err;
}

// Titles and text with control characters used to reach the terminal raw (ESC sequences can
// rewrite the screen or the window title). Text output escapes them; JSON stays exact.
TEST(CliEdgeTest, ControlCharactersAreEscapedInTextOutput) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"),
                     R"({"title": "Evil\u001b]0;owned\u0007 Title", )"
                     R"("text": "Red \u001b[31malert\u001b[0m here. A \u009b second one."})"
                     "\n");
  auto r = RunAligndb({"ingest", "--db", tmp.Sub("db"), "--edition", "docs", tmp.Sub("d.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = RunAligndb({"show", "--db", tmp.Sub("db"), "--edition", "docs", "--all"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find('\x07'), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("\xc2\x9b"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"(Evil\x1b]0;owned\x07 Title  [docs)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"(Red \x1b[31malert\x1b[0m here.)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"(A \u009b second one.)"), std::string::npos) << r.out;
  r = RunAligndb(
      {"show", "--db", tmp.Sub("db"), "--edition", "docs", "--all", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["title"], "Evil\x1b]0;owned\x07 Title");  // exact
  // An error message quoting such a title is escaped too, and stays one line.
  r = RunAligndb({"show", "--db", tmp.Sub("db"), "Clear\x1b[2J\nscreen"});
  EXPECT_EQ(r.exit_code, 6);
  EXPECT_EQ(Lines(r.err), 1u) << r.err;
  EXPECT_NE(r.err.find(R"(Clear\x1b[2J\x0ascreen)"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace aligndb

// Export, lookup and statistics over real RocksDB stores: records written through the storage
// layer (and by a real align run on the bundled dumps), read back and checked against a scan
// of the records.
#include "export/export.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "index/index.h"
#include "ingest/ingest.h"
#include "storage/records.h"
#include "storage/store_fixtures.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::MakeArticle;
using testing::OpenOrDie;
using testing::TempDir;
using testing::TermsOf;

std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> rows;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) rows.push_back(nlohmann::json::parse(line));
  return rows;
}

// A store with editions "en" and "simple", the article "Whale" in both, and records written
// through AlignmentWriter.
class SyntheticTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = OpenOrDie(tmp_.Sub("db"));
    ASSERT_TRUE(store_->EditionId("en", true, &en_).ok());
    ASSERT_TRUE(store_->EditionId("simple", true, &simple_).ok());
    for (uint32_t ed : {en_, simple_}) {
      pb::Article a = MakeArticle(7, "Whale", 1, {{"Whales are big."}});
      ASSERT_TRUE(store_->PutArticle(ed, a).ok());
    }
    pb::Article only = MakeArticle(8, "Krill", 1, {{"Krill are small."}});
    ASSERT_TRUE(store_->PutArticle(en_, only).ok());
  }

  pb::AlignmentRecord Record(const std::string& title, const std::string& normal_text,
                             const std::string& simple_text, double sim, uint32_t version) {
    pb::AlignParams params;
    params.set_mode("coster-kauchak");
    params.set_similarity("tfidf");
    pb::AlignmentRecord r;
    SetRecordHeader({"en", title, 7, 1}, {"simple", title, 7, 1}, params, 1, &r);
    r.set_version(version);
    pb::ParagraphPair* pp = r.add_paragraph_pairs();
    AddSentencePair(0, 0, 0, 0, sim, pb::OP_ONE_ONE, normal_text, simple_text, pp);
    return r;
  }

  void Write(const std::vector<std::pair<std::string, pb::AlignmentRecord>>& records) {
    auto w = store_->NewAlignmentWriter(en_, simple_);
    for (auto& [name, r] : records) ASSERT_TRUE(w->Put(name, r).ok());
    pb::AlignParams params;
    params.set_mode("coster-kauchak");
    ASSERT_TRUE(w->PutPairingSummary(NewPairingSummary("en", "simple", params, 1)).ok());
  }

  std::string ExportText(ExportOptions o, Status* status = nullptr) {
    std::ostringstream out;
    uint64_t n = 0;
    Status s = Export(store_.get(), o, out, &n);
    if (status) *status = s;
    EXPECT_TRUE(status || s.ok()) << s.ToString();
    return out.str();
  }

  TempDir tmp_;
  std::unique_ptr<Store> store_;
  uint32_t en_ = 0, simple_ = 0;
};

TEST_F(SyntheticTest, TsvAndParallelKeepOneRowPerLineWhateverTheText) {
  // Every line break a reader may split on: ASCII (VT, FF, 0x1C-0x1E too) and Unicode (NEL,
  // LS, PS), beside an é and an em dash that stay.
  const std::string normal =
      "tab\there\vv\ff\x1c"
      "1\x1e"
      "e\xc3\xa9";
  const std::string simple = "new\nline\r\xc2\x85n\xe2\x80\xa8l\xe2\x80\xa9p\xe2\x80\x94";
  Write({{"Whale", Record("Whale", normal, simple, 0.9, kAlignmentRecordVersion)}});
  ExportOptions o;
  o.format = OutputFormat::kTsv;
  auto tsv = testing::SplitLines(ExportText(o));
  ASSERT_EQ(tsv.size(), 2u);  // header and one row
  for (const auto& line : tsv) EXPECT_EQ(std::count(line.begin(), line.end(), '\t'), 10) << line;
  EXPECT_NE(tsv[1].find("tab here v f 1 e\xc3\xa9\tnew line  n l p\xe2\x80\x94"), std::string::npos)
      << tsv[1];

  o.format = OutputFormat::kParallel;
  o.out_prefix = tmp_.Sub("par");
  ExportText(o);
  EXPECT_EQ(testing::ReadFile(tmp_.Sub("par.normal")), "tab here v f 1 e\xc3\xa9\n");
  EXPECT_EQ(testing::ReadFile(tmp_.Sub("par.simple")), "new line  n l p\xe2\x80\x94\n");

  o.format = OutputFormat::kJsonl;
  auto rows = JsonLines(ExportText(o));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["normal"], normal);  // JSON keeps the text as it is
  EXPECT_EQ(rows[0]["simple"], simple);
}

TEST_F(SyntheticTest, ExportRefusesFormatsItDoesNotWrite) {
  Write({{"Whale", Record("Whale", "a", "b", 0.9, kAlignmentRecordVersion)}});
  ExportOptions o;
  Status s;
  o.format = OutputFormat::kText;
  ExportText(o, &s);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  o.format = OutputFormat::kParallel;  // without --out
  ExportText(o, &s);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
}

// With no alignment to read, a bad similarity bound or operation is still the error: the
// arguments are checked as for aligned editions (a collection named has no bounds).
TEST_F(SyntheticTest, ArgumentsAreCheckedWhenNoPairIsAligned) {
  ExportOptions o;
  Status s;
  ExportText(o, &s);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();  // nothing aligned, nothing wrong with o
  o.min_sim = 2;
  ExportText(o, &s);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  CorpusStats st;
  s = ComputeCorpusStats(store_.get(), {}, 2, false, &st);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_TRUE(ComputeCorpusStats(store_.get(), {}, 0.5, false, &st).IsNotFound());
  o.min_sim = 0.5;
  o.ops = {Op::kL12};
  ExportText(o, &s);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  o.editions = {"news", "news"};  // a collection: l12 is its operation, no bound applies
  o.min_sim = 5;
  o.max_sim = std::nan("");  // the pair's default, as the command line leaves it
  ExportText(o, &s);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
}

// An empty range (max below min) is refused rather than exported as nothing.
TEST_F(SyntheticTest, ExportRefusesAnEmptySimilarityRange) {
  Write({{"Whale", Record("Whale", "a", "b", 0.9, kAlignmentRecordVersion)}});
  ExportOptions o;
  o.min_sim = 0.8;
  o.max_sim = 0.7;
  Status s;
  EXPECT_EQ(ExportText(o, &s), "");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("--max-sim 0.7 is below --min-sim 0.8"), std::string::npos)
      << s.message();
  o.max_sim = 0.9;  // a one-point range is not empty
  EXPECT_NE(ExportText(o, &s), "");
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(SyntheticTest, AVersionOneRecordStillReads) {
  // A record as a writer before the rename of AlignParams.method wrote it: version 1, the mode
  // in field 1 (encoded here by hand: tag 0x0a, length 14).
  pb::AlignmentRecord old = Record("Whale", "Whales are big.", "Whales are big.", 1.0, 1);
  ASSERT_TRUE(old.mutable_params()->ParseFromString(std::string("\x0a\x0e", 2) + "coster-kauchak"));
  Write({{"Whale", old}});
  pb::AlignmentRecord back;
  ASSERT_TRUE(LookupRecord(store_.get(), {}, "whale", &back).ok());
  EXPECT_EQ(back.version(), 1u);
  EXPECT_EQ(back.params().mode(), "coster-kauchak");
  auto rows = JsonLines(ExportText({}));
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0]["normal_title"], "Whale");
}

TEST_F(SyntheticTest, LookupSaysWhyThereIsNoRecord) {
  Write({{"Whale", Record("Whale", "a", "b", 0.9, kAlignmentRecordVersion)}});
  pb::AlignmentRecord r;
  Status s = LookupRecord(store_.get(), {}, "Krill", &r);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_NE(s.message().find("only en has this title"), std::string::npos) << s.ToString();
  s = LookupRecord(store_.get(), {}, "Squid", &r);
  EXPECT_NE(s.message().find("no article with this title in en or simple"), std::string::npos);
  // In both editions without a record: removed by the filter (which flag, on which side), or
  // ingested after the last align.
  pb::Article seal = MakeArticle(9, "Seal", 1, {{"Seals swim."}});
  ASSERT_TRUE(store_->PutArticle(en_, seal).ok());
  seal.set_flags(kFlagStub | kFlagSingleLine);
  ASSERT_TRUE(store_->PutArticle(simple_, seal).ok());
  s = LookupRecord(store_.get(), {}, "Seal", &r);
  EXPECT_NE(s.message().find("removed by the pairing filter: simple article flagged stub, "
                             "single_line"),
            std::string::npos)
      << s.ToString();
  pb::Article orca = MakeArticle(10, "Orca", 1, {{"Orcas hunt."}});
  ASSERT_TRUE(store_->PutArticle(en_, orca).ok());
  ASSERT_TRUE(store_->PutArticle(simple_, orca).ok());
  s = LookupRecord(store_.get(), {}, "Orca", &r);
  EXPECT_NE(s.message().find("not aligned yet"), std::string::npos) << s.ToString();
  ASSERT_TRUE(LookupRecord(store_.get(), {}, "whale", &r).ok());  // normalized title
  EXPECT_EQ(r.normal_title(), "Whale");
  // export --title says the same as lookup (it said only "no aligned article pair titled").
  ExportOptions o;
  o.title = "Krill";
  ExportText(o, &s);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_NE(s.message().find("only en has this title"), std::string::npos) << s.ToString();
  o.title = "Whale";
  EXPECT_NE(ExportText(o, &s), "");
  EXPECT_TRUE(s.ok()) << s.ToString();
}

TEST_F(SyntheticTest, LookupInAnEditionPairThatIsNotAlignedNamesThoseThatAre) {
  Write({{"Whale", Record("Whale", "a", "b", 0.9, kAlignmentRecordVersion)}});
  uint32_t other = 0;
  ASSERT_TRUE(store_->EditionId("other", true, &other).ok());
  pb::AlignmentRecord r;
  // Only --normal given: no pair fits, but one is aligned.
  Status s = LookupRecord(store_.get(), {"other", ""}, "Whale", &r);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_EQ(s.message().find("run `aligndb align` first"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("aligned edition pairs: en → simple"), std::string::npos)
      << s.ToString();
  // Both given.
  s = LookupRecord(store_.get(), {"other", "simple"}, "Whale", &r);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_NE(s.message().find("other → simple is not aligned"), std::string::npos) << s.ToString();
  EXPECT_NE(s.message().find("aligned edition pairs: en → simple"), std::string::npos);
}

TEST_F(SyntheticTest, EditionPairsResolveToTheOnlyOneOrTheDefault) {
  EditionPair got;
  EXPECT_TRUE(ResolveEditions(store_.get(), {}, &got).IsNotFound());  // nothing aligned yet
  Write({{"Whale", Record("Whale", "a", "b", 0.9, kAlignmentRecordVersion)}});
  ASSERT_TRUE(ResolveEditions(store_.get(), {}, &got).ok());
  EXPECT_EQ(got.normal, "en");
  EXPECT_EQ(got.simple, "simple");
  // A second aligned pair, and neither is enwiki/simplewiki: the user must choose.
  pb::AlignParams params;
  auto w = store_->NewAlignmentWriter(simple_, en_);
  ASSERT_TRUE(w->PutPairingSummary(NewPairingSummary("simple", "en", params, 2)).ok());
  EXPECT_EQ(ResolveEditions(store_.get(), {}, &got).code(), Status::Code::kInvalidArgument);
  ASSERT_TRUE(ResolveEditions(store_.get(), {"simple", ""}, &got).ok());
  EXPECT_EQ(got.simple, "en");
}

TEST(OutputFormatTest, NamesRoundTrip) {
  for (OutputFormat f : {OutputFormat::kText, OutputFormat::kJson, OutputFormat::kTsv,
                         OutputFormat::kJsonl, OutputFormat::kParallel}) {
    OutputFormat back;
    ASSERT_TRUE(ParseOutputFormat(OutputFormatName(f), &back));
    EXPECT_EQ(back, f);
  }
  OutputFormat f;
  EXPECT_FALSE(ParseOutputFormat("csv", &f));
  EXPECT_FALSE(ParseOutputFormat("", &f));
}

// ------------------------------------------------------------------ a real align run

class RealExportTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    tmp_ = new TempDir();
    store_ = OpenOrDie(tmp_->Sub("db")).release();
    IngestSummary sum;
    ASSERT_TRUE(Ingest(store_,
                       {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                        DataPath("wikidumps/simplewiki-sample.xml.bz2")},
                       {}, &sum)
                    .ok());
    std::unique_ptr<ParagraphIndex> index;
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_->Sub("db")), true, &index).ok());
    AlignSummary as;
    ASSERT_TRUE(Align(store_, index.get(), {}, 1, &as).ok());
    ASSERT_GT(as.aligned, 0u);
  }
  static void TearDownTestSuite() {
    delete store_;
    delete tmp_;
  }
  static TempDir* tmp_;
  static Store* store_;
};
TempDir* RealExportTest::tmp_ = nullptr;
Store* RealExportTest::store_ = nullptr;

// The names in `dir` holding ".tmp-": temporary files of OutputFile.
std::vector<std::string> Temporaries(const std::string& dir) {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().filename().string().find(".tmp-") != std::string::npos)
      out.push_back(e.path().filename().string());
  return out;
}

// An export ended by Ctrl-C or a kill, mid-way (the test hook ALIGNDB_TEST_PAUSE holds it after
// its first record, its output open), removes its temporary files and leaves the files it
// would have replaced as they were; it ends killed by that signal, as before.
TEST_F(RealExportTest, AnExportEndedBySignalRemovesItsTemporaryFiles) {
  std::vector<std::string> env;
  for (char** e = environ; *e; ++e) env.push_back(*e);
  env.push_back("ALIGNDB_TEST_PAUSE=export");
  std::vector<char*> envp;
  for (auto& e : env) envp.push_back(e.data());
  envp.push_back(nullptr);
  int n = 0;
  for (int sig : {SIGINT, SIGTERM})
    for (std::string format : {"tsv", "parallel"}) {
      const std::string dir = tmp_->Sub("signal-" + std::to_string(++n));
      std::filesystem::create_directories(dir);
      const std::string out = dir + "/train";
      const std::string kept = format == "parallel" ? out + ".normal" : out;
      testing::WriteFile(kept, "precious\n");
      std::vector<std::string> args = {ALIGNDB_BINARY, "export", "--db",  tmp_->Sub("db"),
                                       "--format",     format,   "--out", out};
      std::vector<char*> argv;
      for (auto& a : args) argv.push_back(a.data());
      argv.push_back(nullptr);
      int err[2];
      ASSERT_EQ(pipe(err), 0);
      const pid_t pid = fork();
      ASSERT_GE(pid, 0);
      if (pid == 0) {
        dup2(err[1], 2);
        close(err[0]);
        execve(ALIGNDB_BINARY, argv.data(), envp.data());
        _exit(127);
      }
      close(err[1]);
      std::string said;
      char c;
      while (said.find('\n') == std::string::npos && read(err[0], &c, 1) == 1) said += c;
      close(err[0]);
      EXPECT_EQ(said, "paused at export\n");
      EXPECT_EQ(Temporaries(dir).size(), format == "parallel" ? 2u : 1u) << "mid-export";
      kill(pid, sig);
      int status = 0;
      ASSERT_EQ(waitpid(pid, &status, 0), pid);
      EXPECT_TRUE(WIFSIGNALED(status) && WTERMSIG(status) == sig) << format << " " << status;
      EXPECT_EQ(Temporaries(dir), std::vector<std::string>{}) << format << ", signal " << sig;
      EXPECT_EQ(testing::ReadFile(kept), "precious\n");
    }
}

TEST_F(RealExportTest, FilteredExportsEqualAScanOfTheRecords) {
  uint32_t en, simple;
  ASSERT_TRUE(store_->EditionId("enwiki", false, &en).ok());
  ASSERT_TRUE(store_->EditionId("simplewiki", false, &simple).ok());
  std::vector<pb::AlignmentRecord> records;
  ASSERT_TRUE(store_
                  ->ForEachAlignment(en, simple, "",
                                     [&](const pb::AlignmentRecord& r) {
                                       records.push_back(r);
                                       return Status::OK();
                                     })
                  .ok());
  ASSERT_FALSE(records.empty());
  std::mt19937 rng(3);
  const std::vector<Op> all_ops = {Op::kOneOne, Op::kOneTwo, Op::kTwoOne, Op::kTwoTwo};
  for (int trial = 0; trial < 30; ++trial) {
    ExportOptions o;
    o.min_sim = (rng() % 100) / 100.0;
    o.max_sim = std::min(1.0, o.min_sim + (rng() % 100) / 100.0);
    o.no_identical = rng() % 2;
    o.ops.clear();
    for (Op op : all_ops)
      if (rng() % 2) o.ops.insert(op);
    // The reference: every sentence pair of every record, filtered here.
    std::vector<std::pair<std::string, std::string>> expected;
    for (const auto& r : records)
      for (const auto& pp : r.paragraph_pairs())
        for (const auto& sp : pp.sentence_pairs())
          if (sp.similarity() >= o.min_sim && sp.similarity() <= o.max_sim &&
              o.ops.count(static_cast<Op>(sp.op())) && !(o.no_identical && sp.identical()))
            expected.emplace_back(sp.normal_text(), sp.simple_text());
    std::ostringstream out;
    uint64_t n = 0;
    ASSERT_TRUE(Export(store_, o, out, &n).ok());
    auto rows = JsonLines(out.str());
    ASSERT_EQ(rows.size(), expected.size()) << "trial " << trial;
    EXPECT_EQ(n, expected.size());
    for (size_t k = 0; k < rows.size(); ++k) {
      EXPECT_EQ(rows[k]["normal"], expected[k].first);
      EXPECT_EQ(rows[k]["simple"], expected[k].second);
    }
  }
}

// The JSON line Export writes for `r`, built from ForEachExportRow's fields.
nlohmann::json RowJson(const ExportRow& r, ExportUnit unit) {
  nlohmann::json normal_index = nlohmann::json::array(), simple_index = nlohmann::json::array();
  for (const auto& [p, s] : r.normal_index) normal_index.push_back({p, s});
  for (const auto& [p, s] : r.simple_index) simple_index.push_back({p, s});
  const bool sentence = unit == ExportUnit::kSentence;
  return {{"normal_title", r.normal_title},
          {"simple_title", r.simple_title},
          {"normal", r.normal},
          {"simple", r.simple},
          {"similarity", r.similarity},
          {"op", OpName(r.op)},
          {"normal_index", sentence ? normal_index.at(0) : normal_index},
          {"simple_index", sentence ? simple_index.at(0) : simple_index},
          {"normal_revision", r.normal_revision},
          {"simple_revision", r.simple_revision},
          {"label", r.label == Label::kNone ? nlohmann::json() : LabelName(r.label)}};
}

TEST_F(RealExportTest, ExportRowsAreTheJsonLinesFieldForField) {
  std::mt19937 rng(5);
  for (int trial = 0; trial < 20; ++trial) {
    ExportOptions o;
    o.unit = trial % 2 ? ExportUnit::kOperation : ExportUnit::kSentence;
    o.min_sim = (rng() % 100) / 100.0;
    o.label = static_cast<Label>(rng() % 3);
    o.no_identical = rng() % 2;
    if (rng() % 2) o.ops = {Op::kOneOne, Op::kTwoOne};
    std::ostringstream out;
    uint64_t n = 0;
    ASSERT_TRUE(Export(store_, o, out, &n).ok());
    std::vector<nlohmann::json> rows;
    ASSERT_TRUE(ForEachExportRow(store_, o, [&](const ExportRow& r) {
                  rows.push_back(RowJson(r, o.unit));
                  return Status::OK();
                }).ok());
    EXPECT_EQ(rows, JsonLines(out.str())) << "trial " << trial;
    EXPECT_EQ(rows.size(), n);
  }
  // A failed visit ends the walk with its status.
  int visits = 0;
  Status s = ForEachExportRow(store_, {}, [&](const ExportRow&) {
    return ++visits == 3 ? Status::Internal("stop") : Status::OK();
  });
  EXPECT_EQ(s.message(), "stop");
  EXPECT_EQ(visits, 3);
}

TEST_F(RealExportTest, CorpusStatsCountWhatTheRecordsHold) {
  CorpusStats st;
  ASSERT_TRUE(ComputeCorpusStats(store_, {}, 0.5, true, &st).ok());
  std::ostringstream out;
  uint64_t n = 0;
  ExportOptions o;  // the default filter is similarity ≥ 0.5
  ASSERT_TRUE(Export(store_, o, out, &n).ok());
  EXPECT_EQ(st.sentence_pairs, n);
  EXPECT_EQ(st.similarities.size(), st.sentence_pairs_all);
  EXPECT_GE(st.sentence_pairs_all, st.sentence_pairs);
  EXPECT_GT(st.normal.words, 0u);
  EXPECT_LE(st.normal.vocabulary, st.normal.words);
}

}  // namespace
}  // namespace aligndb

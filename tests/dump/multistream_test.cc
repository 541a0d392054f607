// Multistream dumps read through their index: parallel decompression, stream selection by
// title, and errors in a stream or in the index.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "dump/dump.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

// Splits a real dump into a header stream, streams of `per_stream` pages and a footer stream,
// as Wikimedia does, and writes the index. Returns the number of page streams.
size_t MakeMultistream(const std::string& xml, size_t per_stream, const std::string& out,
                       const std::string& index_path, std::vector<uint64_t>* offsets = nullptr) {
  size_t first = xml.find("  <page>");
  std::string file = testing::Bz2Compress(xml.substr(0, first));
  std::string index;
  size_t pos = first, streams = 0;
  while (true) {
    size_t start = pos;
    std::string group;
    size_t n = 0;
    std::vector<std::pair<std::string, std::string>> ids;
    while (n < per_stream) {
      size_t p = xml.find("  <page>", pos);
      if (p == std::string::npos) break;
      size_t e = xml.find("</page>", p) + 8;
      std::string page = xml.substr(p, e - p);
      size_t t = page.find("<title>") + 7;
      size_t i = page.find("<id>") + 4;
      ids.emplace_back(page.substr(i, page.find("</id>") - i),
                       page.substr(t, page.find("</title>") - t));
      group += page;
      pos = e;
      ++n;
    }
    if (n == 0) break;
    (void)start;
    if (offsets) offsets->push_back(file.size());
    for (auto& [id, title] : ids)
      index += std::to_string(file.size()) + ":" + id + ":" + title + "\n";
    file += testing::Bz2Compress(group);
    ++streams;
  }
  file += testing::Bz2Compress(xml.substr(xml.rfind("</mediawiki>")));
  testing::WriteFile(out, file);
  testing::WriteFile(index_path, testing::Bz2Compress(index));
  return streams;
}

std::vector<SourcePage> ReadAllPages(const std::string& path, const MultistreamOptions* ms,
                                     DumpInfo* info, Status* status) {
  std::vector<SourcePage> pages;
  auto cb = [&](const SourcePage& p, const DumpInfo&) {
    pages.push_back(p);
    return Status::OK();
  };
  *status = ms ? ReadMultistreamDump(path, *ms, cb, info) : ReadMediaWikiDump(path, cb, info);
  return pages;
}

class MultistreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    xml_ = testing::Bz2DecompressFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
    streams_ =
        MakeMultistream(xml_, 10, tmp_.Sub("ms.xml.bz2"), tmp_.Sub("index.txt.bz2"), &offsets_);
  }
  TempDir tmp_;
  std::string xml_;
  size_t streams_ = 0;
  std::vector<uint64_t> offsets_;
};

TEST_F(MultistreamTest, ParallelReadGivesThePagesOfASequentialRead) {
  ASSERT_EQ(streams_, 21u);
  Status s;
  DumpInfo seq_info;
  auto sequential =
      ReadAllPages(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"), nullptr, &seq_info, &s);
  ASSERT_TRUE(s.ok());
  for (int threads : {1, 2, 4}) {
    MultistreamOptions o;
    o.index_path = tmp_.Sub("index.txt.bz2");
    o.threads = threads;
    DumpInfo info;
    auto pages = ReadAllPages(tmp_.Sub("ms.xml.bz2"), &o, &info, &s);
    ASSERT_TRUE(s.ok()) << s.ToString();
    EXPECT_EQ(info.dbname, "enwiki");
    EXPECT_EQ(info.streams_total, 21u);
    EXPECT_EQ(info.streams_read, 21u);
    ASSERT_EQ(pages.size(), sequential.size());
    for (size_t i = 0; i < pages.size(); ++i) {
      EXPECT_EQ(pages[i].title, sequential[i].title);
      EXPECT_EQ(pages[i].revision_id, sequential[i].revision_id);
      EXPECT_EQ(pages[i].text, sequential[i].text);
    }
  }
}

TEST_F(MultistreamTest, OnlyStreamsWithWantedTitlesAreRead) {
  MultistreamOptions o;
  o.index_path = tmp_.Sub("index.txt.bz2");
  std::set<std::string> wanted = {"Art", "Algeria", "Animal Farm"};
  o.want_title = [&](const std::string& t) { return wanted.count(t) > 0; };
  DumpInfo info;
  Status s;
  auto pages = ReadAllPages(tmp_.Sub("ms.xml.bz2"), &o, &info, &s);
  ASSERT_TRUE(s.ok()) << s.ToString();
  std::set<std::string> titles;
  for (auto& p : pages) titles.insert(p.title);
  for (auto& w : wanted) EXPECT_TRUE(titles.count(w)) << w;
  EXPECT_LE(info.streams_read, 3u);
  EXPECT_GE(info.streams_read, 1u);
  EXPECT_EQ(pages.size(), info.streams_read * 10);  // whole streams of 10 pages
}

TEST_F(MultistreamTest, CorruptStreamNamesItsOffsetAndKeepsEarlierPages) {
  std::string bytes = testing::ReadFile(tmp_.Sub("ms.xml.bz2"));
  uint64_t bad = offsets_[5];
  for (uint64_t i = bad + 20; i < bad + 60; ++i) bytes[i] = static_cast<char>(~bytes[i]);
  testing::WriteFile(tmp_.Sub("bad.xml.bz2"), bytes);
  MultistreamOptions o;
  o.index_path = tmp_.Sub("index.txt.bz2");
  o.threads = 2;
  DumpInfo info;
  Status s;
  auto pages = ReadAllPages(tmp_.Sub("bad.xml.bz2"), &o, &info, &s);
  ASSERT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  EXPECT_NE(s.message().find("stream starting at byte " + std::to_string(bad)), std::string::npos)
      << s.message();
  EXPECT_EQ(pages.size(), 50u);  // the five streams before it
}

TEST_F(MultistreamTest, BadIndexNamesTheLine) {
  testing::WriteFile(tmp_.Sub("bad-index.txt"), "638:10:AccessibleComputing\nnot a line\n");
  MultistreamOptions o;
  o.index_path = tmp_.Sub("bad-index.txt");
  DumpInfo info;
  Status s;
  ReadAllPages(tmp_.Sub("ms.xml.bz2"), &o, &info, &s);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("bad-index.txt: line 2: expected offset:page_id:title"),
            std::string::npos)
      << s.message();
}

// The tool in tools/ and the CLI together, as a user runs them.
TEST(MultistreamCliTest, ToolAndIngestOnlyTitlesOf) {
  TempDir tmp;
  ASSERT_TRUE(testing::MakeSampleMultistream(tmp.path()));
  auto r = testing::RunAligndb(
      {"ingest", "--db", tmp.Sub("db"), DataPath("wikidumps/simplewiki-sample.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = testing::RunAligndb({"ingest", "--db", tmp.Sub("db"), "--json", "--index",
                           tmp.Sub("ms-index.txt.bz2"), "--threads", "2", "--only-titles-of",
                           "simplewiki", tmp.Sub("ms.xml.bz2")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["streams_total"], 21);
  EXPECT_EQ(j["streams_read"], 2);  // "Art" and "A" are in two streams
  EXPECT_EQ(j["added"], 2);         // and only those two pages of the 20 read are stored
  EXPECT_EQ(j["not_wanted"], 18);
  r = testing::RunAligndb({"align", "--db", tmp.Sub("db"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["aligned"], 2);
  r = testing::RunAligndb(
      {"ingest", "--db", tmp.Sub("db"), "--only-titles-of", "simplewiki", tmp.Sub("ms.xml.bz2")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--only-titles-of needs --index"), std::string::npos) << r.err;
}

TEST_F(MultistreamTest, AnIndexOfAnotherDumpIsReportedAsNotMatching) {
  // The same pages split into streams of 7: its offsets fall inside this dump's streams.
  MakeMultistream(xml_, 7, tmp_.Sub("other.xml.bz2"), tmp_.Sub("other-index.txt.bz2"));
  // A different dump altogether: its header stream ends elsewhere.
  std::string simple = testing::Bz2DecompressFile(DataPath("wikidumps/simplewiki-sample.xml.bz2"));
  MakeMultistream(simple, 2, tmp_.Sub("simple.xml.bz2"), tmp_.Sub("simple-index.txt.bz2"));
  for (const char* index : {"other-index.txt.bz2", "simple-index.txt.bz2"}) {
    MultistreamOptions o;
    o.index_path = tmp_.Sub(index);
    o.threads = 2;
    DumpInfo info;
    Status s;
    ReadAllPages(tmp_.Sub("ms.xml.bz2"), &o, &info, &s);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << index;
    EXPECT_NE(
        s.message().find(tmp_.Sub(index) + ": the index does not match " + tmp_.Sub("ms.xml.bz2")),
        std::string::npos)
        << s.message();
    EXPECT_EQ(s.message().find("truncated bz2 file:"), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace aligndb

// Tests of the dump readers on the real bundled dumps and on damaged copies of them.
#include "dump/dump.h"

#include <gtest/gtest.h>

#include <map>
#include <set>

#include "dump/bz2_reader.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::Bz2Compress;
using testing::DataPath;
using testing::TempDir;

struct Collected {
  std::vector<SourcePage> pages;
  DumpInfo info;
};

Status Collect(const std::string& path, Collected* c) {
  auto cb = [c](const SourcePage& p, const DumpInfo&) {
    c->pages.push_back(p);
    return Status::OK();
  };
  return ReadMediaWikiDump(path, cb, &c->info);
}

TEST(MediaWikiDumpTest, ReadsEveryPageOfTheEnglishSample) {
  Collected c;
  ASSERT_TRUE(Collect(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"), &c).ok());
  EXPECT_EQ(c.info.dbname, "enwiki");
  EXPECT_EQ(c.info.schema_version, "0.10");
  ASSERT_EQ(c.pages.size(), 206u);
  std::map<std::pair<int, bool>, int> kinds;
  for (const auto& p : c.pages) kinds[{p.ns, p.is_redirect}]++;
  EXPECT_EQ((kinds[{0, false}]), 106);
  EXPECT_EQ((kinds[{0, true}]), 99);
  EXPECT_EQ((kinds[{4, true}]), 1);

  EXPECT_EQ(c.pages[0].title, "AccessibleComputing");
  EXPECT_EQ(c.pages[0].page_id, 10u);
  EXPECT_EQ(c.pages[0].revision_id, 631144794u);
  EXPECT_TRUE(c.pages[0].is_redirect);
  EXPECT_EQ(c.pages[0].redirect_target, "Computer accessibility");

  EXPECT_EQ(c.pages[1].title, "Anarchism");
  EXPECT_EQ(c.pages[1].page_id, 12u);
  EXPECT_EQ(c.pages[1].revision_id, 716551092u);
  EXPECT_EQ(c.pages[1].timestamp, "2016-04-22T10:19:33Z");
  EXPECT_FALSE(c.pages[1].is_redirect);
  EXPECT_NE(c.pages[1].text.find("'''Anarchism''' is a [[political philosophy]]"),
            std::string::npos);

  EXPECT_EQ(c.pages.back().title, "Algorithm");
  EXPECT_EQ(c.pages.back().page_id, 775u);
  EXPECT_EQ(c.pages.back().revision_id, 717822654u);
}

TEST(MediaWikiDumpTest, ReadsSchema09AndSimpleWikipedia) {
  Collected old;
  ASSERT_TRUE(Collect(DataPath("wikidumps/enwiki-wikipedia2vec-sample.xml.bz2"), &old).ok());
  EXPECT_EQ(old.info.schema_version, "0.9");
  EXPECT_EQ(old.pages.size(), 3u);

  Collected simple;
  ASSERT_TRUE(Collect(DataPath("wikidumps/simplewiki-sample.xml.bz2"), &simple).ok());
  EXPECT_EQ(simple.info.dbname, "simplewiki");
  std::vector<std::string> titles;
  for (const auto& p : simple.pages) titles.push_back(p.title);
  EXPECT_EQ(titles, (std::vector<std::string>{"April", "August", "Art", "A", "Air",
                                              "Wikipedia:Administrators",
                                              "Autonomous communities of Spain"}));
  EXPECT_EQ(simple.pages[5].ns, 4);
}

TEST(MediaWikiDumpTest, DumpWithoutSiteinfoHasNoDbname) {
  Collected c;
  ASSERT_TRUE(Collect(DataPath("wikidumps/enwiki-table-markup.xml.bz2"), &c).ok());
  EXPECT_EQ(c.info.dbname, "");
  EXPECT_EQ(c.pages.size(), 5u);
}

TEST(MediaWikiDumpTest, PlainXmlAndMultistreamGiveTheSamePages) {
  TempDir tmp;
  std::string xml = testing::Bz2DecompressFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
  testing::WriteFile(tmp.Sub("plain.xml"), xml);
  // Multistream: split the XML into four parts, compress each as its own bz2 stream and
  // concatenate them, as Wikimedia's multistream dumps do.
  std::string multi;
  size_t quarter = xml.size() / 4;
  for (int i = 0; i < 4; ++i) {
    size_t b = i * quarter, e = i == 3 ? xml.size() : (i + 1) * quarter;
    multi += Bz2Compress(xml.substr(b, e - b));
  }
  testing::WriteFile(tmp.Sub("multi.xml.bz2"), multi);

  Collected plain, ms, single;
  ASSERT_TRUE(Collect(tmp.Sub("plain.xml"), &plain).ok());
  ASSERT_TRUE(Collect(tmp.Sub("multi.xml.bz2"), &ms).ok());
  ASSERT_TRUE(Collect(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"), &single).ok());
  ASSERT_EQ(plain.pages.size(), 206u);
  ASSERT_EQ(ms.pages.size(), 206u);
  for (size_t i = 0; i < plain.pages.size(); ++i) {
    EXPECT_EQ(plain.pages[i].title, ms.pages[i].title);
    EXPECT_EQ(plain.pages[i].text, ms.pages[i].text);
    EXPECT_EQ(single.pages[i].text, ms.pages[i].text);
  }
}

TEST(MediaWikiDumpTest, TruncatedBz2KeepsEarlierPagesAndNamesTheOffset) {
  TempDir tmp;
  std::string bytes = testing::ReadFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
  std::string cut = bytes.substr(0, bytes.size() / 2);
  testing::WriteFile(tmp.Sub("cut.xml.bz2"), cut);
  Collected c;
  Status s = Collect(tmp.Sub("cut.xml.bz2"), &c);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("cut.xml.bz2"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("truncated bz2"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("byte " + std::to_string(cut.size())), std::string::npos)
      << s.message();
  EXPECT_GT(c.pages.size(), 10u);  // the pages before the cut were handed over
  EXPECT_LT(c.pages.size(), 206u);
}

TEST(MediaWikiDumpTest, CorruptBz2BlockIsReported) {
  TempDir tmp;
  std::string bytes = testing::ReadFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
  for (size_t i = bytes.size() / 2; i < bytes.size() / 2 + 64; ++i)
    bytes[i] = static_cast<char>(~bytes[i]);
  testing::WriteFile(tmp.Sub("bad.xml.bz2"), bytes);
  Collected c;
  Status s = Collect(tmp.Sub("bad.xml.bz2"), &c);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("bad.xml.bz2"), std::string::npos);
  EXPECT_NE(s.message().find("byte"), std::string::npos);
}

TEST(MediaWikiDumpTest, XmlCutMidPageIsReportedWithOffset) {
  TempDir tmp;
  std::string xml = testing::Bz2DecompressFile(DataPath("wikidumps/simplewiki-sample.xml.bz2"));
  size_t third_page = xml.find("<title>Art</title>");
  std::string cut = xml.substr(0, third_page + 200);
  testing::WriteFile(tmp.Sub("cut.xml"), cut);
  Collected c;
  Status s = Collect(tmp.Sub("cut.xml"), &c);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("cut.xml: malformed XML at byte"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("truncated"), std::string::npos) << s.message();
  EXPECT_EQ(c.pages.size(), 2u);  // April and August were complete
}

TEST(MediaWikiDumpTest, InvalidUtf8IsReportedAtItsByte) {
  TempDir tmp;
  std::string xml = testing::Bz2DecompressFile(DataPath("wikidumps/simplewiki-sample.xml.bz2"));
  size_t at = xml.find("August is named for");
  ASSERT_NE(at, std::string::npos);
  xml[at + 3] = '\xff';
  testing::WriteFile(tmp.Sub("bad.xml"), xml);
  Collected c;
  Status s = Collect(tmp.Sub("bad.xml"), &c);
  ASSERT_FALSE(s.ok());
  EXPECT_NE(s.message().find("invalid UTF-8"), std::string::npos) << s.message();
  EXPECT_NE(s.message().find("byte " + std::to_string(at + 3)), std::string::npos) << s.message();
  EXPECT_EQ(c.pages.size(), 1u);  // April
}

TEST(MediaWikiDumpTest, MissingFileIsAnIOError) {
  Collected c;
  Status s = Collect("/nonexistent/dump.xml.bz2", &c);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.message().find("/nonexistent/dump.xml.bz2"), std::string::npos);
}

TEST(InputKindTest, DetectsXmlAndJsonl) {
  TempDir tmp;
  InputKind k;
  ASSERT_TRUE(DetectInputKind(DataPath("wikidumps/simplewiki-sample.xml.bz2"), &k).ok());
  EXPECT_EQ(k, InputKind::kMediaWikiXml);
  testing::WriteFile(tmp.Sub("a.jsonl"), "\n  {\"title\": \"x\"}");
  ASSERT_TRUE(DetectInputKind(tmp.Sub("a.jsonl"), &k).ok());
  EXPECT_EQ(k, InputKind::kDocumentJsonl);
  testing::WriteFile(tmp.Sub("a.txt"), "hello");
  Status s = DetectInputKind(tmp.Sub("a.txt"), &k);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("byte 0"), std::string::npos);
}

}  // namespace
}  // namespace aligndb

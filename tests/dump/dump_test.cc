// Tests of the dump readers on the real bundled dumps and on damaged copies of them.
#include "dump/dump.h"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <map>
#include <set>

#include "dump/bz2_reader.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::Bz2Compress;
using testing::DataPath;
using testing::TempDir;

using testing::Collected;

Status Collect(const std::string& path, Collected* c) {
  return testing::Collect([](const std::string& p, const PageCallback& cb,
                             DumpInfo* info) { return ReadMediaWikiDump(p, cb, info); },
                          path, c);
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

// A document that is not a MediaWiki export is an error, not "0 pages".
TEST(MediaWikiDumpTest, WrongRootAndMisplacedPagesAreErrors) {
  TempDir tmp;
  const std::string page =
      "<page><title>A</title><ns>0</ns><id>1</id><revision><id>2</id>"
      "<text>Some text.</text></revision></page>";
  struct Case {
    std::string xml, expect;
  } cases[] = {
      {"<feed>" + page + "</feed>", "byte 0: the root element is <feed>, expected <mediawiki>"},
      {"<mediawiki><pages>" + page + "</pages></mediawiki>",
       "a <page> that is not a child of <mediawiki>"},
      {"<mediawiki><page><title>B</title>" + page + "</page></mediawiki>",
       "a <page> inside the <page> that starts at"},
  };
  for (const auto& c : cases) {
    testing::WriteFile(tmp.Sub("x.xml"), c.xml);
    Collected got;
    Status s = Collect(tmp.Sub("x.xml"), &got);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << c.xml;
    EXPECT_NE(s.message().find(tmp.Sub("x.xml") + ": "), std::string::npos) << s.message();
    EXPECT_NE(s.message().find(c.expect), std::string::npos) << s.message();
    EXPECT_TRUE(got.pages.empty());
  }
}

TEST(MediaWikiDumpTest, IdsThatDoNotFitAreErrorsNotWrappedNumbers) {
  TempDir tmp;
  for (std::string id : {"-5", "123456789012345678901234", "12x", ""}) {
    testing::WriteFile(tmp.Sub("x.xml"),
                       "<mediawiki><page><title>A</title><ns>0</ns><id>1</id><revision><id>2</id>"
                       "<text>Kept.</text></revision></page><page><title>B</title><ns>0</ns><id>" +
                           id +
                           "</id><revision><id>3</id><text>T</text></revision></page>"
                           "</mediawiki>");
    Collected got;
    Status s = Collect(tmp.Sub("x.xml"), &got);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << id;
    EXPECT_NE(s.message().find("page id \"" + id + "\" is not a decimal integer"),
              std::string::npos)
        << s.message();
    EXPECT_NE(s.message().find("x.xml: byte "), std::string::npos) << s.message();
    ASSERT_EQ(got.pages.size(), 1u);  // A, not B
    EXPECT_EQ(got.pages[0].title, "A");
  }
  // The largest id that fits is read exactly.
  testing::WriteFile(tmp.Sub("max.xml"),
                     "<mediawiki><page><title>A</title><ns>-2</ns><id> 18446744073709551615 </id>"
                     "<revision><id>7</id><text>T</text></revision></page></mediawiki>");
  Collected got;
  ASSERT_TRUE(Collect(tmp.Sub("max.xml"), &got).ok());
  ASSERT_EQ(got.pages.size(), 1u);
  EXPECT_EQ(got.pages[0].page_id, 18446744073709551615ull);
  EXPECT_EQ(got.pages[0].ns, -2);
}

// bzip2 checks a block's CRC only at its end, so damage first decompresses to garbage: the error
// must be the bz2 damage, not "expected a MediaWiki XML export" or "malformed XML".
TEST(MediaWikiDumpTest, DamagedBz2IsReportedAsBz2DamageNotAsBadXml) {
  TempDir tmp;
  const std::string good = testing::ReadFile(DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"));
  for (size_t at : {size_t{5000}, good.size() / 2}) {
    std::string bytes = good;
    for (size_t i = at; i < at + 8; ++i) bytes[i] = static_cast<char>(~bytes[i]);
    testing::WriteFile(tmp.Sub("bad.xml.bz2"), bytes);
    InputKind kind;
    Status s = DetectInputKind(tmp.Sub("bad.xml.bz2"), &kind);
    if (s.ok()) {
      Collected got;
      s = Collect(tmp.Sub("bad.xml.bz2"), &got);
    }
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << at;
    EXPECT_NE(s.message().find("bad.xml.bz2: corrupt bz2 data in the stream starting at byte 0"),
              std::string::npos)
        << s.message();
    EXPECT_EQ(s.message().find("malformed XML"), std::string::npos) << s.message();
    EXPECT_EQ(s.message().find("expected a MediaWiki"), std::string::npos) << s.message();
  }
  std::string bytes = good;
  bytes[0] = 'X';  // the signature "BZh" is gone
  testing::WriteFile(tmp.Sub("magic.xml.bz2"), bytes);
  InputKind kind;
  Status s = DetectInputKind(tmp.Sub("magic.xml.bz2"), &kind);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("magic.xml.bz2: byte 0: not a bzip2 file"), std::string::npos)
      << s.message();
  // A gzip file under a .bz2 name is named as such.
  ASSERT_EQ(std::system(("gzip -c '" + DataPath("wikidumps/simplewiki-sample.xml.bz2") + "' > '" +
                         tmp.Sub("gz.xml.bz2") + "'")
                            .c_str()),
            0);
  s = DetectInputKind(tmp.Sub("gz.xml.bz2"), &kind);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("gz.xml.bz2: byte 0: not a bzip2 file: it does not start with "
                             "\"BZh\" but with gzip's 1f 8b"),
            std::string::npos)
      << s.message();
}

// A pipe given as input used to block forever (the input is opened twice); it is refused at once.
TEST(MediaWikiDumpTest, APipeIsRefusedNotWaitedFor) {
  TempDir tmp;
  ASSERT_EQ(mkfifo(tmp.Sub("pipe.xml").c_str(), 0600), 0);
  InputKind kind;
  Status s = DetectInputKind(tmp.Sub("pipe.xml"), &kind);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("pipe.xml: not a regular file"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace aligndb

namespace aligndb {
namespace {

// A page longer than max_page_bytes comes with its length and no text, whatever its size (the
// text is dropped as it streams, in pieces split across reads and entities); its neighbours
// are whole.
TEST(MediaWikiDumpTest, APageOverTheSizeLimitComesWithoutItsText) {
  TempDir tmp;
  auto page = [](const std::string& title, int id, const std::string& text) {
    return "<page><title>" + title + "</title><ns>0</ns><id>" + std::to_string(id) +
           "</id><revision><id>1</id><text>" + text + "</text></revision></page>\n";
  };
  std::string big;
  for (int i = 0; i < 200000; ++i) big += "word &amp; more ";  // 2.4 MB of text once decoded
  std::string xml = "<mediawiki>" + page("Small", 1, "Short text.") + page("Big", 2, big) +
                    page("After", 3, "Also short.") + "</mediawiki>";
  testing::WriteFile(tmp.Sub("d.xml.bz2"), Bz2Compress(xml));
  std::vector<SourcePage> pages;
  auto cb = [&pages](const SourcePage& p, const DumpInfo&) {
    pages.push_back(p);
    return Status::OK();
  };
  ASSERT_TRUE(ReadMediaWikiDump(tmp.Sub("d.xml.bz2"), cb, nullptr, 1 << 20).ok());
  ASSERT_EQ(pages.size(), 3u);
  EXPECT_EQ(pages[0].text, "Short text.");
  EXPECT_EQ(pages[0].oversize_text_bytes, 0u);
  EXPECT_EQ(pages[1].title, "Big");
  EXPECT_TRUE(pages[1].text.empty());
  EXPECT_EQ(pages[1].oversize_text_bytes, 200000u * 12);  // "word & more " after &amp;
  EXPECT_EQ(pages[2].text, "Also short.");
  // Without the limit (0) and under the default, the page is whole.
  for (uint64_t limit : {uint64_t{0}, kDefaultMaxPageBytes}) {
    pages.clear();
    ASSERT_TRUE(ReadMediaWikiDump(tmp.Sub("d.xml.bz2"), cb, nullptr, limit).ok());
    ASSERT_EQ(pages.size(), 3u);
    EXPECT_EQ(pages[1].text.size(), 200000u * 12);
    EXPECT_EQ(pages[1].oversize_text_bytes, 0u);
  }
}

}  // namespace
}  // namespace aligndb

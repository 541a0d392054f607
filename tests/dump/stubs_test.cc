// Stub dumps (plain, gzip, bzip2), every revision of a history dump, and stream selection by
// page id.
#include "dump/stubs.h"

#include <gtest/gtest.h>
#include <zlib.h>

#include <set>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::TempDir;

const char kStub[] =
    "<mediawiki version=\"0.11\"><siteinfo><dbname>simplewiki</dbname></siteinfo>\n"
    "<page><title>Cat</title><ns>0</ns><id>7</id><revision><id>70</id>"
    "<text bytes=\"120\" sha1=\"abc\" id=\"70\" /></revision></page>\n"
    "<page><title>Kitty</title><ns>0</ns><id>8</id><redirect title=\"Cat\" /><revision><id>80</id>"
    "<text bytes=\"14\" sha1=\"def\" id=\"80\" /></revision></page>\n"
    "<page><title>Talk:Cat</title><ns>1</ns><id>9</id><revision><id>90</id>"
    "<text bytes=\"5\" sha1=\"ghi\" id=\"90\" /></revision></page>\n"
    "</mediawiki>\n";

std::vector<StubPage> ReadStubs(const std::string& path, Status* status, DumpInfo* info) {
  std::vector<StubPage> out;
  *status = ReadStubDump(
      path,
      [&](const StubPage& p, const DumpInfo&) {
        out.push_back(p);
        return Status::OK();
      },
      info);
  return out;
}

TEST(StubsTest, PlainGzipAndBzip2StubsGiveTheSamePages) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("s.xml"), kStub);
  testing::WriteFile(tmp.Sub("s.xml.bz2"), testing::Bz2Compress(kStub));
  gzFile gz = gzopen(tmp.Sub("s.xml.gz").c_str(), "wb");
  ASSERT_NE(gz, nullptr);
  gzputs(gz, kStub);
  gzclose(gz);
  for (const char* name : {"s.xml", "s.xml.bz2", "s.xml.gz"}) {
    Status st;
    DumpInfo info;
    auto pages = ReadStubs(tmp.Sub(name), &st, &info);
    ASSERT_TRUE(st.ok()) << name << ": " << st.ToString();
    EXPECT_EQ(info.dbname, "simplewiki");
    ASSERT_EQ(pages.size(), 3u) << name;
    EXPECT_EQ(pages[0].page_id, 7u);
    EXPECT_EQ(pages[0].revision_id, 70u);
    EXPECT_EQ(pages[0].title, "Cat");
    EXPECT_FALSE(pages[0].is_redirect);
    EXPECT_TRUE(pages[1].is_redirect);
    EXPECT_EQ(pages[2].ns, 1);
  }
}

TEST(StubsTest, AStubPageWithoutAnIdIsBadInput) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("s.xml"),
                     "<mediawiki><page><title>Cat</title><ns>0</ns><revision><id>70</id>"
                     "</revision></page></mediawiki>");
  Status st;
  DumpInfo info;
  ReadStubs(tmp.Sub("s.xml"), &st, &info);
  EXPECT_EQ(st.code(), Status::Code::kCorruption);
  EXPECT_NE(st.ToString().find("without <id>"), std::string::npos) << st.ToString();
}

TEST(RevisionsTest, EveryRevisionIsHandedOverWithItsPage) {
  TempDir tmp;
  testing::WriteFile(
      tmp.Sub("h.xml"),
      "<mediawiki><page><title>Cat</title><ns>0</ns><id>7</id><redirect title=\"Dog\" />"
      "<revision><id>72</id><text>second</text></revision>"
      "<revision><id>71</id><text>first</text></revision>"
      "<revision><id>73</id><text>third</text></revision></page>"
      "<page><title>Dog</title><ns>0</ns><id>8</id><revision><id>80</id><text>d</text></revision>"
      "</page></mediawiki>");
  std::vector<SourcePage> got;
  Status st = ReadMediaWikiRevisions(
      tmp.Sub("h.xml"),
      [&](const SourcePage& p, const DumpInfo&) {
        got.push_back(p);
        return Status::OK();
      },
      nullptr);
  ASSERT_TRUE(st.ok()) << st.ToString();
  ASSERT_EQ(got.size(), 4u);
  EXPECT_EQ(got[0].revision_id, 72u);
  EXPECT_EQ(got[0].text, "second");
  EXPECT_EQ(got[1].revision_id, 71u);
  EXPECT_EQ(got[1].text, "first");
  EXPECT_EQ(got[2].text, "third");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(got[i].page_id, 7u);
    EXPECT_EQ(got[i].title, "Cat");
    EXPECT_TRUE(got[i].is_redirect);
  }
  EXPECT_EQ(got[3].title, "Dog");
  EXPECT_FALSE(got[3].is_redirect);
  std::unordered_map<uint64_t, uint64_t> newest;
  ASSERT_TRUE(NewestRevisions(tmp.Sub("h.xml"), &newest).ok());
  EXPECT_EQ(newest[7], 73u);
  EXPECT_EQ(newest[8], 80u);
  // The plain reader still hands over one page with its first revision.
  std::vector<SourcePage> plain;
  ASSERT_TRUE(ReadMediaWikiDump(
                  tmp.Sub("h.xml"),
                  [&](const SourcePage& p, const DumpInfo&) {
                    plain.push_back(p);
                    return Status::OK();
                  },
                  nullptr)
                  .ok());
  ASSERT_EQ(plain.size(), 2u);
  EXPECT_EQ(plain[0].revision_id, 72u);
}

TEST(MultistreamTest, StreamsAreSelectedByPageId) {
  TempDir tmp;
  ASSERT_TRUE(testing::MakeSampleMultistream(tmp.path()));
  // Every page id of the index, and the stream of each.
  std::string index = testing::Bz2DecompressFile(tmp.Sub("ms-index.txt.bz2"));
  std::vector<std::pair<uint64_t, uint64_t>> ids;  // (stream offset, page id)
  for (size_t pos = 0; pos < index.size();) {
    size_t nl = index.find('\n', pos);
    std::string line = index.substr(pos, nl - pos);
    pos = nl + 1;
    size_t c1 = line.find(':'), c2 = line.find(':', c1 + 1);
    ids.emplace_back(std::stoull(line.substr(0, c1)), std::stoull(line.substr(c1 + 1, c2 - c1)));
  }
  ASSERT_GT(ids.size(), 25u);
  const uint64_t a = ids[3].second, b = ids[25].second;
  MultistreamOptions o;
  o.index_path = tmp.Sub("ms-index.txt.bz2");
  o.threads = 2;
  o.want_page = [&](uint64_t id) { return id == a || id == b; };
  std::set<uint64_t> got;
  DumpInfo info;
  ASSERT_TRUE(ReadMultistreamDump(
                  tmp.Sub("ms.xml.bz2"), o,
                  [&](const SourcePage& p, const DumpInfo&) {
                    got.insert(p.page_id);
                    return Status::OK();
                  },
                  &info)
                  .ok());
  EXPECT_EQ(info.streams_read, ids[3].first == ids[25].first ? 1u : 2u);
  std::set<uint64_t> expected;
  for (auto& [off, id] : ids)
    if (off == ids[3].first || off == ids[25].first) expected.insert(id);
  EXPECT_EQ(got, expected);
  EXPECT_TRUE(got.count(a) && got.count(b));
}

}  // namespace
}  // namespace aligndb

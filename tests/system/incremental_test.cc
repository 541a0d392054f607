// Incremental updates on the bundled dumps: unchanged pages are skipped, changed ones re-stored,
// absent ones deleted with --full, and only the touched article pairs are re-aligned.
#include <gtest/gtest.h>

#include <sstream>

#include "align/align.h"
#include "cli/print.h"
#include "export/export.h"
#include "index/index.h"
#include "ingest/ingest.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

class IncrementalTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions opts;
    opts.create_if_missing = true;
    ASSERT_TRUE(Store::Open(opts, tmp_.Sub("db"), &store_).ok());
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_.Sub("db")), true, &index_).ok());
    simple_xml_ = testing::Bz2DecompressFile(DataPath("wikidumps/simplewiki-sample.xml.bz2"));
    IngestSummary s;
    ASSERT_TRUE(
        Ingest(store_.get(), {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2")}, {}, &s).ok());
  }

  IngestSummary IngestSimple(const std::string& xml, bool full) {
    testing::WriteFile(tmp_.Sub("simple.xml"), xml);
    IngestOptions o;
    o.full = full;
    IngestSummary s;
    Status st = Ingest(store_.get(), {tmp_.Sub("simple.xml")}, o, &s);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return s;
  }

  AlignSummary AlignNow(AlignOptions o = {}) {
    AlignSummary s;
    Status st = Align(store_.get(), index_.get(), o, ++run_, &s);
    EXPECT_TRUE(st.ok()) << st.ToString();
    return s;
  }

  std::string ExportAll() {
    ExportOptions o;
    o.min_sim = 0;
    std::ostringstream out;
    uint64_t n;
    EXPECT_TRUE(Export(store_.get(), o, out, &n).ok());
    return out.str();
  }

  TempDir tmp_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<ParagraphIndex> index_;
  std::string simple_xml_;
  uint64_t run_ = 0;
};

TEST_F(IncrementalTest, OnlyTouchedPairsAreRealigned) {
  IngestSimple(simple_xml_, false);
  AlignSummary first = AlignNow();
  EXPECT_EQ(first.aligned, 2u);
  EXPECT_EQ(first.realigned, 2u);
  std::string before = ExportAll();

  // Nothing changed: both records kept, same export.
  AlignSummary again = AlignNow();
  EXPECT_EQ(again.kept, 2u);
  EXPECT_EQ(again.realigned, 0u);
  EXPECT_EQ(again.indexed_pages, 0u);
  EXPECT_EQ(ExportAll(), before);

  // A new revision of "Art": one paragraph less.
  std::string xml = simple_xml_;
  size_t art = xml.find("<title>Art</title>");
  size_t rev = xml.find("<id>", xml.find("<revision>", art));
  xml.insert(rev + 4, "9");  // a different revision id
  size_t text = xml.find("<text", art);
  size_t para = xml.find("\n\n", xml.find(">", text));
  size_t next = xml.find("\n\n", para + 2);
  xml.erase(para, next - para);
  IngestSummary s = IngestSimple(xml, false);
  EXPECT_EQ(s.changed, 1u);
  EXPECT_EQ(s.unchanged, 5u);
  AlignSummary third = AlignNow();
  EXPECT_EQ(third.realigned, 1u);
  EXPECT_EQ(third.kept, 1u);

  // A complete dump without "A": the page is deleted, and so is its pair's record.
  size_t a_start = xml.rfind("<page>", xml.find("<title>A</title>"));
  size_t a_end = xml.find("</page>", a_start) + 7;
  std::string without_a = xml.substr(0, a_start) + xml.substr(a_end);
  s = IngestSimple(without_a, /*full=*/true);
  EXPECT_EQ(s.deleted, 1u);
  AlignSummary fourth = AlignNow();
  EXPECT_EQ(fourth.stale_removed, 1u);
  EXPECT_EQ(fourth.aligned, 1u);
  std::ostringstream out;
  EXPECT_TRUE(Lookup(store_.get(), {}, "A", OutputFormat::kText, out).IsNotFound());

  // A new parameter re-aligns everything it affects.
  AlignOptions changed;
  changed.paragraph_threshold = 0.4;
  AlignSummary fifth = AlignNow(changed);
  EXPECT_EQ(fifth.realigned, 1u);
  EXPECT_EQ(fifth.kept, 0u);
}

TEST_F(IncrementalTest, UpdatedDatabaseEqualsAFreshBuildAfterAlignAll) {
  IngestSimple(simple_xml_, false);
  AlignNow();
  std::string xml = simple_xml_;
  size_t art = xml.find("<title>Art</title>");
  xml.insert(xml.find("<id>", xml.find("<revision>", art)) + 4, "9");
  size_t text = xml.find("<text", art);
  size_t para = xml.find("\n\n", xml.find(">", text));
  xml.erase(para, xml.find("\n\n", para + 2) - para);
  IngestSimple(xml, true);
  AlignOptions all;
  all.all = true;
  AlignNow(all);
  std::string updated = ExportAll();

  TempDir fresh_dir;
  std::unique_ptr<Store> fresh;
  StoreOptions opts;
  opts.create_if_missing = true;
  ASSERT_TRUE(Store::Open(opts, fresh_dir.Sub("db"), &fresh).ok());
  IngestSummary s;
  ASSERT_TRUE(Ingest(fresh.get(),
                     {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"), tmp_.Sub("simple.xml")},
                     {}, &s)
                  .ok());
  std::unique_ptr<ParagraphIndex> index;
  ASSERT_TRUE(ParagraphIndex::Open(IndexDir(fresh_dir.Sub("db")), true, &index).ok());
  AlignSummary as;
  ASSERT_TRUE(Align(fresh.get(), index.get(), {}, 1, &as).ok());
  ExportOptions o;
  o.min_sim = 0;
  std::ostringstream out;
  uint64_t n;
  ASSERT_TRUE(Export(fresh.get(), o, out, &n).ok());
  EXPECT_EQ(updated, out.str());
  EXPECT_GT(n, 0u);
}

}  // namespace
}  // namespace aligndb

// Ingest: edition specs, summaries on real data, re-ingest of unchanged input, and errors that
// keep what was stored before them.
#include "ingest/ingest.h"

#include <gtest/gtest.h>

#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

std::unique_ptr<Store> OpenStore(const std::string& dir) {
  std::unique_ptr<Store> store;
  StoreOptions opts;
  opts.create_if_missing = true;
  Status s = Store::Open(opts, dir, &store);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return store;
}

TEST(IngestTest, SplitsEditionSpecs) {
  std::string edition, path;
  EXPECT_TRUE(SplitEditionSpec("simplewiki=/data/s.jsonl", &edition, &path));
  EXPECT_EQ(edition, "simplewiki");
  EXPECT_EQ(path, "/data/s.jsonl");
  EXPECT_FALSE(SplitEditionSpec("/data/s.jsonl", &edition, &path));
  EXPECT_FALSE(SplitEditionSpec("=x.jsonl", &edition, &path));
  EXPECT_FALSE(SplitEditionSpec("a/b=x.jsonl", &edition, &path));  // '/' is not a name character
}

TEST(IngestTest, JsonlSummaryCountsAndASecondRunSkipsEverything) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"),
                     R"({"title": "Cat", "text": "Cats purr. They sleep a lot."})"
                     "\n"
                     R"({"title": "Dog", "paragraphs": [["Dogs bark.", "They run."]]})"
                     "\n");
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  IngestSummary first;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &first).ok());
  EXPECT_EQ(first.pages, 2u);
  EXPECT_EQ(first.added, 2u);
  EXPECT_EQ(first.articles_by_edition["pets"], 2u);
  IngestSummary second;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &second).ok());
  EXPECT_EQ(second.added, 0u);
  EXPECT_EQ(second.unchanged, 2u);
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("pets", false, &ed).ok());
  uint64_t id;
  EXPECT_TRUE(store->FindArticle(ed, "Cat", &id).ok());
  EXPECT_TRUE(store->FindArticle(ed, "Dog", &id).ok());
}

TEST(IngestTest, JsonlWithoutAnEditionIsABadArgument) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr."})");
  auto store = OpenStore(tmp.Sub("db"));
  IngestSummary sum;
  Status s = Ingest(store.get(), {tmp.Sub("d.jsonl")}, {}, &sum);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("--edition"), std::string::npos) << s.message();
}

TEST(IngestTest, ABadLineKeepsThePagesBeforeIt) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr. They sleep."})"
                                         "\n"
                                         R"({"title": "Dog", "text": )"
                                         "\n");
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  IngestSummary sum;
  Status s = Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &sum);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("d.jsonl: line 2"), std::string::npos) << s.message();
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("pets", false, &ed).ok());
  uint64_t id;
  EXPECT_TRUE(store->FindArticle(ed, "Cat", &id).ok());
}

TEST(IngestTest, EditionSpecOverridesTheDumpsDbname) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  IngestSummary sum;
  ASSERT_TRUE(
      Ingest(store.get(), {"other=" + DataPath("wikidumps/simplewiki-sample.xml.bz2")}, {}, &sum)
          .ok());
  std::map<std::string, uint32_t> eds;
  ASSERT_TRUE(store->Editions(&eds).ok());
  EXPECT_EQ(eds.size(), 1u);
  EXPECT_EQ(eds.count("other"), 1u);
  EXPECT_EQ(sum.articles_by_edition["other"], 6u);
}

}  // namespace
}  // namespace aligndb

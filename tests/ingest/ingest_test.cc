// Ingest: edition specs, summaries on real data, re-ingest of unchanged input, and errors that
// keep what was stored before them.
#include "ingest/ingest.h"

#include <gtest/gtest.h>

#include <map>

#include "aligndb.pb.h"
#include "test_util.h"
#include "text/tokens.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

std::unique_ptr<Store> OpenStore(const std::string& dir) { return testing::OpenTestStore(dir); }

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

// The database remembers the Unicode data its tokens were counted with; an ingest with other
// data warns (replaced pages' document frequencies may drift), and the same data does not.
TEST(IngestTest, AnotherTokenizerVersionIsWarnedAbout) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr."})"
                                         "\n");
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  IngestSummary first, second, third;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &first).ok());
  std::string v;
  ASSERT_TRUE(store->GetMeta("tokenizer", &v).ok());
  EXPECT_EQ(v, TokenizerVersion());
  EXPECT_TRUE(first.warnings.empty());
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &second).ok());
  EXPECT_TRUE(second.warnings.empty());
  ASSERT_TRUE(store->PutMeta("tokenizer", "Unicode 1.1, ICU 1.0").ok());
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &third).ok());
  ASSERT_EQ(third.warnings.size(), 1u);
  EXPECT_NE(third.warnings[0].find("tokenized with Unicode 1.1, ICU 1.0"), std::string::npos);
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

TEST(IngestTest, TheSameTitleTwiceInAJsonlFileIsAnErrorNamingBothLines) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr. They sleep."})"
                                         "\n"
                                         R"({"title": "Dog", "text": "Dogs bark. They run."})"
                                         "\n"
                                         R"({"title": "cat", "text": "Another cat. It differs."})"
                                         "\n");
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  IngestSummary sum;
  Status s = Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &sum);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("d.jsonl: line 3: title \"cat\" was already given at line 1"),
            std::string::npos)
      << s.message();
  EXPECT_EQ(sum.added, 2u);  // the summary counts what was stored, nothing twice
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("pets", false, &ed).ok());
  EditionCounts counts;
  ASSERT_TRUE(store->GetEditionCounts(ed, &counts).ok());
  EXPECT_EQ(counts.articles, 2);
  pb::Article cat;
  uint64_t id;
  ASSERT_TRUE(store->FindArticle(ed, "Cat", &id).ok());
  ASSERT_TRUE(store->GetArticle(ed, id, &cat).ok());
  EXPECT_EQ(cat.title(), "Cat");  // the first page is not replaced
  // The same file in two runs is an update, not a duplicate.
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr. They sleep."})");
  EXPECT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &sum).ok());
}

// Two pages with the same id in one XML file: the later replaces the earlier (as a newer
// revision would), and the summary counts one article added and one change, as stored.
TEST(IngestTest, TheSamePageIdTwiceInAnXmlFileIsOneArticle) {
  TempDir tmp;
  auto page = [](const std::string& title, const std::string& text) {
    return "<page><title>" + title + "</title><ns>0</ns><id>7</id><revision><id>70</id><text>" +
           text + "</text></revision></page>\n";
  };
  testing::WriteFile(tmp.Sub("d.xml"), "<mediawiki><siteinfo><dbname>enwiki</dbname></siteinfo>\n" +
                                           page("First", "The first page. It is replaced.") +
                                           page("Second", "The second page. It stays.") +
                                           "</mediawiki>\n");
  auto store = OpenStore(tmp.Sub("db"));
  IngestSummary sum;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.xml")}, {}, &sum).ok());
  EXPECT_EQ(sum.added, 1u);
  EXPECT_EQ(sum.changed, 1u);
  EXPECT_EQ(sum.articles_by_edition["enwiki"], 1u);
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("enwiki", false, &ed).ok());
  EditionCounts counts;
  ASSERT_TRUE(store->GetEditionCounts(ed, &counts).ok());
  EXPECT_EQ(counts.articles, 1);
  pb::Article a;
  ASSERT_TRUE(store->GetArticle(ed, 7, &a).ok());
  EXPECT_EQ(a.title(), "Second");
}

TEST(IngestTest, EditionNamesOutsideTheAllowedCharactersAreRefusedBeforeAnythingIsStored) {
  EXPECT_TRUE(IsValidEditionName("enwiki"));
  EXPECT_TRUE(IsValidEditionName("simple_wiki-2"));
  EXPECT_TRUE(IsValidEditionName(std::string(64, 'a')));
  for (std::string bad :
       std::vector<std::string>{"", "a/b", "en.wiki", "<script>", "a b", std::string(65, 'a'),
                                std::string("a\0b", 3), "caf\xC3\xA9"})
    EXPECT_FALSE(IsValidEditionName(bad)) << bad;

  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr. They sleep."})");
  auto store = OpenStore(tmp.Sub("db"));
  IngestSummary sum;
  IngestOptions o;
  o.edition = "<script>alert(1)</script>";
  Status s = Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &sum);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("--edition \"<script>alert(1)</script>\" is not a valid edition name"),
            std::string::npos)
      << s.message();
  s = Ingest(store.get(), {"simple.wiki=" + tmp.Sub("d.jsonl")}, {}, &sum);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("\"simple.wiki\""), std::string::npos) << s.message();

  // From the dump: bad input data (exit 3), and the dump's pages are not stored.
  std::string xml = testing::Bz2DecompressFile(DataPath("wikidumps/simplewiki-sample.xml.bz2"));
  size_t at = xml.find("<dbname>simplewiki</dbname>");
  ASSERT_NE(at, std::string::npos);
  xml.replace(at, 27, "<dbname>&lt;img src=x onerror=alert(1)&gt;/x</dbname>");
  testing::WriteFile(tmp.Sub("hostile.xml"), xml);
  s = Ingest(store.get(), {tmp.Sub("hostile.xml")}, {}, &sum);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  // The message points at the element: the byte where </dbname> starts.
  EXPECT_NE(s.message().find("hostile.xml: byte " + std::to_string(xml.find("</dbname>")) +
                             " of the XML: <siteinfo><dbname> \"<img src=x onerror=alert(1)>/x\" "
                             "is not a valid edition name"),
            std::string::npos)
      << s.message();
  std::map<std::string, uint32_t> eds;
  ASSERT_TRUE(store->Editions(&eds).ok());
  EXPECT_TRUE(eds.empty());
}

// A JSON lines document has no page id: it is the page of its title. Ingested into an edition
// whose dump already holds the title (as an article or a redirect), it replaces that page
// rather than becoming a second article of the same title.
TEST(IngestTest, AJsonlDocumentReplacesThePageOfItsTitle) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  IngestSummary first;
  ASSERT_TRUE(
      Ingest(store.get(), {DataPath("wikidumps/simplewiki-sample.xml.bz2")}, {}, &first).ok());
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("simplewiki", false, &ed).ok());
  uint64_t art_id = 0;
  ASSERT_TRUE(store->FindArticle(ed, "Art", &art_id).ok());
  std::vector<uint64_t> before;
  ASSERT_TRUE(store->PageIds(ed, &before).ok());

  testing::WriteFile(tmp.Sub("d.jsonl"),
                     R"({"title": "Art", "text": "Art is made by people. It can be seen."})"
                     "\n"
                     R"({"title": "Brand new", "text": "This page is new. Nobody had it."})"
                     "\n");
  IngestOptions o;
  o.edition = "simplewiki";
  for (int run = 0; run < 2; ++run) {
    IngestSummary sum;
    ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("d.jsonl")}, o, &sum).ok());
    std::vector<uint64_t> ids;
    ASSERT_TRUE(store->PageIds(ed, &ids).ok());
    EXPECT_EQ(ids.size(), before.size() + 1);  // only "Brand new" is added
    uint64_t id = 0;
    ASSERT_TRUE(store->FindArticle(ed, "Art", &id).ok());
    EXPECT_EQ(id, art_id);
    pb::Article a;
    ASSERT_TRUE(store->GetArticle(ed, id, &a).ok());
    EXPECT_EQ(a.paragraphs(0).sentences(0), "Art is made by people.");
    if (run == 0) {
      EXPECT_EQ(sum.changed, 1u);
      EXPECT_EQ(sum.added, 1u);
    } else {
      EXPECT_EQ(sum.unchanged, 2u);  // the same file again changes nothing
    }
  }
}

// A file mixing documents with and without "id": a document with an id that renames its page
// keeps it, and a document without one titled as the page was becomes a new page; the other
// order is an error at the second line, not a silent loss of either text.
TEST(IngestTest, JsonlDocumentsWithAndWithoutIdsLoseNoText) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  testing::WriteFile(tmp.Sub("m1.jsonl"),
                     R"({"id": 5, "title": "Old name", "text": "Old name is a town. It is old."})");
  IngestSummary s1;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("m1.jsonl")}, o, &s1).ok());
  testing::WriteFile(tmp.Sub("m2.jsonl"),
                     R"({"id": 5, "title": "New name", "text": "New name is a town. It moved."})"
                     "\n"
                     R"({"title": "Old name", "text": "Old name is a village. It is small."})"
                     "\n");
  IngestSummary s2;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("m2.jsonl")}, o, &s2).ok());
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("pets", false, &ed).ok());
  uint64_t renamed = 0, fresh = 0;
  ASSERT_TRUE(store->FindArticle(ed, "New name", &renamed).ok());
  EXPECT_EQ(renamed, 5u);
  ASSERT_TRUE(store->FindArticle(ed, "Old name", &fresh).ok());
  EXPECT_NE(fresh, 5u);
  pb::Article a;
  ASSERT_TRUE(store->GetArticle(ed, fresh, &a).ok());
  EXPECT_EQ(a.paragraphs(0).sentences(0), "Old name is a village.");

  // The other order: the document without an id takes page 5 ("New name" now), then a document
  // with id 5 would overwrite it.
  testing::WriteFile(tmp.Sub("m3.jsonl"),
                     R"({"title": "New name", "text": "New name is a city. It grew."})"
                     "\n"
                     R"({"id": 5, "title": "Newer name", "text": "Newer name is a city."})"
                     "\n");
  IngestSummary s3;
  Status s = Ingest(store.get(), {tmp.Sub("m3.jsonl")}, o, &s3);
  EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  EXPECT_NE(s.ToString().find("m3.jsonl: line 2"), std::string::npos) << s.ToString();
  EXPECT_NE(s.ToString().find("line 1"), std::string::npos) << s.ToString();
  ASSERT_TRUE(store->GetArticle(ed, 5, &a).ok());  // line 1 is stored, as pages before an error
  EXPECT_EQ(a.paragraphs(0).sentences(0), "New name is a city.");
}

// The same when the page was first ingested without an id (its id a hash of its title) and a
// later file names that id: either order is an error, never a silent loss.
TEST(IngestTest, JsonlHashIdsNamedByALaterFileLoseNoText) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  testing::WriteFile(tmp.Sub("a1.jsonl"),
                     R"({"title": "Old name", "text": "Old name is a town."})");
  IngestSummary s1;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("a1.jsonl")}, o, &s1).ok());
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("pets", false, &ed).ok());
  uint64_t h = 0;
  ASSERT_TRUE(store->FindArticle(ed, "Old name", &h).ok());
  const std::string id = std::to_string(h);
  for (const std::string& lines :
       {R"({"id": )" + id + R"(, "title": "New name", "text": "New name is a town. It moved."})" +
            "\n" + R"({"title": "Old name", "text": "Old name is a village."})" + "\n",
        R"({"title": "Old name", "text": "Old name is a hamlet."})" + std::string("\n") +
            R"({"id": )" + id + R"(, "title": "Newer name", "text": "Newer name is a city."})" +
            "\n"}) {
    testing::WriteFile(tmp.Sub("a2.jsonl"), lines);
    IngestSummary s;
    Status st = Ingest(store.get(), {tmp.Sub("a2.jsonl")}, o, &s);
    EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
    EXPECT_NE(st.ToString().find("a2.jsonl: line "), std::string::npos) << st.ToString();
    // The first file's line 1 renamed page h to "New name"; nothing replaces it afterwards.
    pb::Article a;
    ASSERT_TRUE(store->GetArticle(ed, h, &a).ok());
    EXPECT_EQ(a.title(), "New name");
    EXPECT_EQ(a.paragraphs(0).sentences(0), "New name is a town.");
  }
}

// A second ingest of the same dump finds its redirects stored, and says so.
TEST(IngestTest, ASecondIngestCountsUnchangedRedirects) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  const std::string dump = DataPath("wikidumps/enwiki-gensim-sample.xml.bz2");
  IngestSummary first, second;
  ASSERT_TRUE(Ingest(store.get(), {dump}, {}, &first).ok());
  ASSERT_TRUE(Ingest(store.get(), {dump}, {}, &second).ok());
  EXPECT_EQ(first.redirects, 99u);  // the sample's 100th redirect is outside namespace 0
  EXPECT_EQ(first.redirects_unchanged, 0u);
  EXPECT_EQ(second.redirects, 0u);
  EXPECT_EQ(second.redirects_unchanged, 99u);
  EXPECT_EQ(second.unchanged, first.added);
}

// Into a new edition the first file needs no title lookups; a second file of the same run does.
TEST(IngestTest, TwoJsonlFilesOfOneRunShareTheirTitlesPages) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("a.jsonl"), R"({"title": "Art", "text": "Art is old. It is fun."})");
  testing::WriteFile(tmp.Sub("b.jsonl"),
                     R"({"title": "art", "text": "Art is made by people. It can be seen."})");
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.edition = "pets";
  IngestSummary sum;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("a.jsonl"), tmp.Sub("b.jsonl")}, o, &sum).ok());
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("pets", false, &ed).ok());
  std::vector<uint64_t> ids;
  ASSERT_TRUE(store->PageIds(ed, &ids).ok());
  ASSERT_EQ(ids.size(), 1u);
  pb::Article a;
  ASSERT_TRUE(store->GetArticle(ed, ids[0], &a).ok());
  EXPECT_EQ(a.paragraphs(0).sentences(0), "Art is made by people.");
  EXPECT_EQ(sum.added, 1u);
  EXPECT_EQ(sum.changed, 1u);
}

// --full takes the files of a run as the whole edition and deletes the rest, also pages that
// an input of another kind stored (JSON lines documents without "id" beside a dump, and the
// other way round): still done, but counted and told in one warning. Pages of the same kind of
// input that the new files lack are deleted without one.
TEST(IngestTest, FullTellsOfPagesAnotherKindOfInputStored) {
  TempDir tmp;
  auto page = [](int id, const std::string& title) {
    return "<page><title>" + title + "</title><ns>0</ns><id>" + std::to_string(id) +
           "</id><revision><id>" + std::to_string(100 + id) + "</id><text>" + title +
           " is a topic. It has a page.</text></revision></page>";
  };
  auto dump = [&](const std::string& pages) {
    return "<mediawiki><siteinfo><dbname>simplewiki</dbname></siteinfo>" + pages + "</mediawiki>";
  };
  testing::WriteFile(tmp.Sub("old.xml"), dump(page(1, "Art") + page(2, "Bird")));
  testing::WriteFile(tmp.Sub("new.xml"), dump(page(1, "Art")));
  testing::WriteFile(tmp.Sub("docs.jsonl"),
                     R"({"title": "Cat", "text": "Cats purr. They sleep a lot."})"
                     "\n"
                     R"({"title": "Dog", "text": "Dogs bark. They run."})"
                     "\n"
                     R"({"title": "Art", "text": "Art is old. It is fun."})"
                     "\n");
  auto store = OpenStore(tmp.Sub("db"));
  IngestSummary first;
  ASSERT_TRUE(
      Ingest(store.get(), {tmp.Sub("old.xml"), "simplewiki=" + tmp.Sub("docs.jsonl")}, {}, &first)
          .ok());
  EXPECT_EQ(first.added, 4u);  // Art, Bird, Cat, Dog: the document "Art" took the dump's page
  IngestOptions full;
  full.full = true;
  IngestSummary update;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("new.xml")}, full, &update).ok());
  EXPECT_EQ(update.deleted, 3u);              // Bird (gone from the dump), Cat, Dog
  EXPECT_EQ(update.deleted_other_input, 2u);  // Cat and Dog came from JSON lines
  EXPECT_EQ(update.AsCounts()["deleted_other_input"], 2u);
  ASSERT_EQ(update.warnings.size(), 1u);
  EXPECT_NE(update.warnings[0].find("--full deleted 2 pages that an input of another kind had "
                                    "stored (simplewiki: 2 stored from JSON lines without \"id\")"),
            std::string::npos)
      << update.warnings[0];

  // Both kinds in one --full run: nothing of either is another input's.
  IngestSummary restore;
  ASSERT_TRUE(
      Ingest(store.get(), {tmp.Sub("old.xml"), "simplewiki=" + tmp.Sub("docs.jsonl")}, {}, &restore)
          .ok());
  IngestSummary both;
  ASSERT_TRUE(
      Ingest(store.get(), {tmp.Sub("new.xml"), "simplewiki=" + tmp.Sub("docs.jsonl")}, full, &both)
          .ok());
  EXPECT_EQ(both.deleted, 1u);  // Bird
  EXPECT_EQ(both.deleted_other_input, 0u);
  EXPECT_TRUE(both.warnings.empty());
  EXPECT_EQ(both.AsCounts().count("deleted_other_input"), 0u);

  // The other way round: JSON lines alone under --full delete the dump's pages, told so.
  IngestSummary docs, again, docs_full;
  ASSERT_TRUE(Ingest(store.get(), {"simplewiki=" + tmp.Sub("docs.jsonl")}, full, &docs).ok());
  EXPECT_EQ(docs.deleted, 0u);  // Art is the documents' now; no other page of the dump is left
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("old.xml")}, {}, &again).ok());
  ASSERT_TRUE(Ingest(store.get(), {"simplewiki=" + tmp.Sub("docs.jsonl")}, full, &docs_full).ok());
  EXPECT_EQ(docs_full.deleted, 1u);  // Bird
  EXPECT_EQ(docs_full.deleted_other_input, 1u);
  ASSERT_EQ(docs_full.warnings.size(), 1u);
  EXPECT_NE(docs_full.warnings[0].find("1 stored from dumps"), std::string::npos)
      << docs_full.warnings[0];
}

// What can be known from the command line and the files' first bytes is checked before a
// database is touched: a bad edition name, a missing file, JSON lines without an edition.
TEST(IngestTest, BadArgumentsAndFilesAreFoundBeforeAnythingIsRead) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("d.jsonl"), R"({"title": "Cat", "text": "Cats purr."})");
  const std::string xml = DataPath("wikidumps/simplewiki-sample.xml.bz2");
  IngestOptions none, bad_name, with_index;
  bad_name.edition = "bad name";
  with_index.index = tmp.Sub("index.txt");
  with_index.edition = "pets";
  struct Case {
    std::vector<std::string> files;
    const IngestOptions* options;
    Status::Code code;
    std::string says;
  } cases[] = {
      {{xml, tmp.Sub("d.jsonl")}, &none, Status::Code::kInvalidArgument, "needs --edition"},
      {{xml, tmp.Sub("missing.xml")}, &none, Status::Code::kIOError, "missing.xml"},
      {{xml}, &bad_name, Status::Code::kInvalidArgument, "not a valid edition name"},
      {{xml, "bad name=" + tmp.Sub("d.jsonl")}, &none, Status::Code::kIOError, "bad name="},
      {{tmp.Sub("d.jsonl")}, &with_index, Status::Code::kInvalidArgument, "--index needs"},
  };
  for (const Case& c : cases) {
    Status s = CheckIngestInputs(c.files, *c.options);
    EXPECT_EQ(s.code(), c.code) << s.ToString();
    EXPECT_NE(s.ToString().find(c.says), std::string::npos) << s.ToString();
    // Ingest says the same before it writes anything.
    auto store = OpenStore(tmp.Sub("db"));
    IngestSummary sum;
    EXPECT_EQ(Ingest(store.get(), c.files, *c.options, &sum).code(), c.code);
    std::map<std::string, uint32_t> eds;
    ASSERT_TRUE(store->Editions(&eds).ok());
    EXPECT_TRUE(eds.empty());
  }
}

}  // namespace
}  // namespace aligndb

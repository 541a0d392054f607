// Updates from stub dumps (--stubs) and adds-changes dumps (--changes): after each update the
// database must hold exactly what a fresh ingest of the newer state holds (every page state,
// article, redirect, counter and document frequency), on real RocksDB databases.
#include <gtest/gtest.h>
#include <zlib.h>

#include <map>
#include <sstream>

#include "aligndb.pb.h"
#include "dump/stubs.h"
#include "ingest/ingest.h"
#include "test_util.h"
#include "text/text.h"

namespace aligndb {
namespace {

using testing::TempDir;

struct Page {
  uint64_t id = 0;
  int32_t ns = 0;
  std::string title;
  uint64_t rev = 0;
  std::string text;
  std::string redirect;  // target; empty: an article
};
using Pages = std::map<uint64_t, Page>;  // by page id, the order of a dump

const char kHeader[] =
    "<mediawiki xmlns=\"http://www.mediawiki.org/xml/export-0.10/\" version=\"0.10\">\n"
    "<siteinfo><dbname>enwiki</dbname></siteinfo>\n";

std::string Esc(const std::string& s) {
  std::string out;
  for (char c : s)
    out += c == '&' ? "&amp;" : c == '<' ? "&lt;" : c == '"' ? "&quot;" : std::string(1, c);
  return out;
}

// One <page>; `revisions` are (revision id, text) in the order written; `stub`: empty <text/>.
std::string PageXml(const Page& p, const std::vector<std::pair<uint64_t, std::string>>& revisions,
                    bool stub = false) {
  std::string x = "<page><title>" + Esc(p.title) + "</title><ns>" + std::to_string(p.ns) +
                  "</ns><id>" + std::to_string(p.id) + "</id>";
  if (!p.redirect.empty()) x += "<redirect title=\"" + Esc(p.redirect) + "\" />";
  for (const auto& [rev, text] : revisions) {
    x += "<revision><id>" + std::to_string(rev) + "</id><timestamp>2026-11-0" +
         std::to_string(rev % 9 + 1) + "T00:00:00Z</timestamp>";
    x += stub ? "<text bytes=\"" + std::to_string(text.size()) + "\" sha1=\"x\" id=\"" +
                    std::to_string(rev) + "\" />"
              : "<text xml:space=\"preserve\">" + Esc(text) + "</text>";
    x += "</revision>";
  }
  return x + "</page>\n";
}

Page Article(uint64_t id, const std::string& title, uint64_t rev, const std::string& extra = "") {
  Page p;
  p.id = id;
  p.title = title;
  p.rev = rev;
  p.text = "'''" + title + "''' is a topic number " + std::to_string(id) +
           ". It has a long history in the region.\n\nScholars wrote about " + title +
           " for many years. The work " + extra + " continues today.";
  return p;
}

Page Redirect(uint64_t id, const std::string& title, uint64_t rev, const std::string& target) {
  Page p;
  p.id = id;
  p.title = title;
  p.rev = rev;
  p.redirect = target;
  p.text = "#REDIRECT [[" + target + "]]";
  return p;
}

// Writes `pages` as a multistream dump of `per_stream` pages a stream and its (plain) index.
void WriteMultistream(const Pages& pages, const std::string& dump, const std::string& index,
                      size_t per_stream) {
  std::string out = testing::Bz2Compress(kHeader), idx, group;
  std::vector<const Page*> in_group;
  auto close_group = [&] {
    if (in_group.empty()) return;
    for (const Page* p : in_group)
      idx += std::to_string(out.size()) + ":" + std::to_string(p->id) + ":" + p->title + "\n";
    out += testing::Bz2Compress(group);
    group.clear();
    in_group.clear();
  };
  for (const auto& [id, p] : pages) {
    group += PageXml(p, {{p.rev, p.text}});
    in_group.push_back(&p);
    if (in_group.size() == per_stream) close_group();
  }
  close_group();
  out += testing::Bz2Compress("</mediawiki>\n");
  testing::WriteFile(dump, out);
  testing::WriteFile(index, idx);
}

std::string StubXml(const Pages& pages) {
  std::string x = kHeader;
  for (const auto& [id, p] : pages) x += PageXml(p, {{p.rev, p.text}}, /*stub=*/true);
  return x + "</mediawiki>\n";
}

void WriteGzip(const std::string& path, const std::string& data) {
  gzFile f = gzopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  ASSERT_EQ(gzwrite(f, data.data(), static_cast<unsigned>(data.size())),
            static_cast<int>(data.size()));
  gzclose(f);
}

std::unique_ptr<Store> OpenStore(const std::string& dir) { return testing::OpenTestStore(dir); }

// Everything stored for edition enwiki, as text: equal strings mean equal databases.
std::string Contents(Store* store) {
  std::ostringstream out;
  uint32_t ed = 0;
  if (!store->EditionId("enwiki", false, &ed).ok()) return "no edition";
  std::vector<uint64_t> ids;
  EXPECT_TRUE(store->PageIds(ed, &ids).ok());
  for (uint64_t id : ids) {
    pb::PageState st;
    EXPECT_TRUE(store->GetPageState(ed, id, &st).ok());
    out << "page " << id << " " << st.ShortDebugString() << "\n";
    if (st.kind() == pb::PageState::REDIRECT) {
      pb::Redirect r;
      EXPECT_TRUE(store->GetRedirect(ed, NormalizeTitle(st.title()), &r).ok()) << st.title();
      out << "  redirect " << r.ShortDebugString() << "\n";
    } else {
      uint64_t owner = 0;
      EXPECT_TRUE(store->FindArticle(ed, st.title(), &owner).ok()) << st.title();
      out << "  title owner " << owner << "\n";
    }
  }
  EXPECT_TRUE(store
                  ->ForEachArticle(ed,
                                   [&](const pb::Article& a) {
                                     out << a.ShortDebugString() << "\n";
                                     return Status::OK();
                                   })
                  .ok());
  EditionCounts c;
  EXPECT_TRUE(store->GetEditionCounts(ed, &c).ok());
  out << "counts " << c.articles << " " << c.redirects << " " << c.paragraphs << " " << c.sentences
      << "\n";
  EXPECT_TRUE(store
                  ->ForEachDocumentFrequency(ed,
                                             [&](const std::string& tok, int64_t df) {
                                               if (df != 0) out << tok << "=" << df << " ";
                                               return Status::OK();
                                             })
                  .ok());
  return out.str();
}

// What a fresh ingest of `pages` stores.
std::string FreshContents(const TempDir& tmp, const Pages& pages, const std::string& name) {
  WriteMultistream(pages, tmp.Sub(name + ".xml.bz2"), tmp.Sub(name + "-index.txt"), 5);
  auto store = OpenStore(tmp.Sub(name + "-db"));
  IngestOptions o;
  o.index = tmp.Sub(name + "-index.txt");
  o.threads = 2;
  IngestSummary s;
  Status st = Ingest(store.get(), {tmp.Sub(name + ".xml.bz2")}, o, &s);
  EXPECT_TRUE(st.ok()) << st.ToString();
  return Contents(store.get());
}

// 40 articles (ids 1..40, 5 a stream), a redirect (41) and a page outside namespace 0 (42).
Pages OldPages() {
  Pages v;
  for (uint64_t id = 1; id <= 40; ++id)
    v[id] = Article(id, "Topic " + std::to_string(id), 100 + id);
  v[41] = Redirect(41, "Old name", 141, "Topic 1");
  v[42] = Article(42, "Wikipedia:Project page", 142);
  v[42].ns = 4;
  return v;
}

// Every kind of change: a new revision, an addition, a deletion, a rename, a rename onto the
// title of a page renamed after it (a swap), moves out of and into namespace 0, and both
// redirect flips.
Pages NewPages() {
  Pages v = OldPages();
  v[3] = Article(3, "Topic 3", 204, "of the new revision");
  v[50] = Article(50, "Topic fifty", 250);
  v.erase(20);
  v[7] = Article(7, "Topic seven renamed", 207);
  v[8] = Article(8, "Topic 9", 208);     // takes page 9's title ...
  v[9] = Article(9, "Topic nine", 209);  // ... which page 9, later in the batch, gives up
  v[12] = Article(12, "Wikipedia:Topic 12", 212);
  v[12].ns = 4;
  v[42] = Article(42, "Project page", 242);
  v[41] = Article(41, "Old name", 241, "no longer a redirect");
  v[14] = Redirect(14, "Topic 14", 214, "Topic 13");
  return v;
}

struct StubUpdate {
  IngestSummary summary;
  Status status;
};

StubUpdate UpdateWithStubs(Store* store, const TempDir& tmp, const Pages& dump, const Pages& stub,
                           const std::string& stub_name) {
  WriteMultistream(dump, tmp.Sub("new.xml.bz2"), tmp.Sub("new-index.txt"), 5);
  std::string xml = StubXml(stub);
  if (stub_name.size() > 3 && stub_name.substr(stub_name.size() - 3) == ".gz")
    WriteGzip(tmp.Sub(stub_name), xml);
  else
    testing::WriteFile(tmp.Sub(stub_name), xml);
  IngestOptions o;
  o.full = true;
  o.index = tmp.Sub("new-index.txt");
  o.stubs = tmp.Sub(stub_name);
  o.threads = 2;
  StubUpdate u;
  u.status = Ingest(store, {tmp.Sub("new.xml.bz2")}, o, &u.summary);
  return u;
}

std::unique_ptr<Store> StoreOfOldPages(const TempDir& tmp) {
  WriteMultistream(OldPages(), tmp.Sub("old.xml.bz2"), tmp.Sub("old-index.txt"), 5);
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.index = tmp.Sub("old-index.txt");
  IngestSummary s;
  EXPECT_TRUE(Ingest(store.get(), {tmp.Sub("old.xml.bz2")}, o, &s).ok());
  return store;
}

TEST(StubUpdateTest, EveryKindOfChangeEndsAsAFreshIngestAndReadsOnlyTheirStreams) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  std::string before = Contents(store.get());
  StubUpdate u = UpdateWithStubs(store.get(), tmp, NewPages(), NewPages(), "stub.xml.gz");
  ASSERT_TRUE(u.status.ok()) << u.status.ToString();
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, NewPages(), "fresh"));
  EXPECT_NE(Contents(store.get()), before);
  // Pages to read: 3, 7, 8, 9 (stream 1-5, 6-10), 12, 14 (11-15), 41, 42, 50 (in the last two
  // streams of the new dump, 36-41 and 42-50): 5 of 9 streams; the others are not decompressed.
  EXPECT_EQ(u.summary.streams_total, 9u);
  EXPECT_EQ(u.summary.streams_read, 5u);
  EXPECT_EQ(u.summary.added, 3u);    // 50, 42 (into namespace 0), 41 (redirect → article)
  EXPECT_EQ(u.summary.changed, 4u);  // 3, 7, 8, 9
  EXPECT_EQ(u.summary.redirects, 1u);
  EXPECT_EQ(u.summary.deleted, 2u);  // 20, 12 (out of namespace 0); 14 became a redirect
  EXPECT_EQ(u.summary.stub_mismatch, 0u);
  EXPECT_EQ(u.summary.AsCounts().count("stub_mismatch"), 1u);

  // Nothing changed: no stream is read.
  StubUpdate again = UpdateWithStubs(store.get(), tmp, NewPages(), NewPages(), "stub2.xml");
  ASSERT_TRUE(again.status.ok()) << again.status.ToString();
  EXPECT_EQ(again.summary.streams_read, 0u);
  EXPECT_EQ(again.summary.deleted, 0u);
  uint64_t listed = 0;  // namespace-0 pages of the stub
  for (const auto& [id, p] : NewPages()) listed += p.ns == 0;
  EXPECT_EQ(again.summary.stub_unchanged, listed);
  EXPECT_EQ(again.summary.AsCounts().at("stub_unchanged"), listed);
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, NewPages(), "fresh2"));
}

TEST(StubUpdateTest, TheDumpsRevisionWinsOverTheStubsAndIsCounted) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  Pages dump = NewPages(), stub = NewPages();
  dump[3] = Article(3, "Topic 3", 305, "of a still newer revision");  // the dump is newer
  stub[5] = Article(5, "Topic 5", 305);  // the stub is newer than the dump
  StubUpdate u = UpdateWithStubs(store.get(), tmp, dump, stub, "stub.xml");
  ASSERT_TRUE(u.status.ok()) << u.status.ToString();
  EXPECT_EQ(u.summary.stub_mismatch, 2u);
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, dump, "fresh"));
}

TEST(StubUpdateTest, ATruncatedStubFileIsAnErrorNamingItsOffsetAndNothingChanges) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  std::string before = Contents(store.get());
  std::string xml = StubXml(NewPages());
  for (const std::string name : {"cut.xml", "cut.xml.gz"}) {
    // Cut in the middle: the pages after the cut would look deleted.
    std::string cut = xml.substr(0, xml.size() / 2);
    if (name == "cut.xml")
      testing::WriteFile(tmp.Sub(name), cut);
    else
      WriteGzip(tmp.Sub(name), cut);
    WriteMultistream(NewPages(), tmp.Sub("new.xml.bz2"), tmp.Sub("new-index.txt"), 5);
    IngestOptions o;
    o.full = true;
    o.index = tmp.Sub("new-index.txt");
    o.stubs = tmp.Sub(name);
    IngestSummary s;
    Status st = Ingest(store.get(), {tmp.Sub("new.xml.bz2")}, o, &s);
    EXPECT_TRUE(st.code() == Status::Code::kCorruption) << st.ToString();
    EXPECT_NE(st.ToString().find(tmp.Sub(name)), std::string::npos) << st.ToString();
    EXPECT_NE(st.ToString().find("byte " + std::to_string(cut.size())), std::string::npos)
        << st.ToString();
    EXPECT_EQ(s.deleted, 0u);
    EXPECT_EQ(Contents(store.get()), before);
  }
}

TEST(StubUpdateTest, ATruncatedGzipStubFileIsAnErrorAndNothingChanges) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  std::string before = Contents(store.get());
  WriteGzip(tmp.Sub("whole.xml.gz"), StubXml(NewPages()));
  std::string gz = testing::ReadFile(tmp.Sub("whole.xml.gz"));
  testing::WriteFile(tmp.Sub("cut.xml.gz"), gz.substr(0, gz.size() / 2));  // a cut download
  WriteMultistream(NewPages(), tmp.Sub("new.xml.bz2"), tmp.Sub("new-index.txt"), 5);
  IngestOptions o;
  o.full = true;
  o.index = tmp.Sub("new-index.txt");
  o.stubs = tmp.Sub("cut.xml.gz");
  IngestSummary s;
  Status st = Ingest(store.get(), {tmp.Sub("new.xml.bz2")}, o, &s);
  EXPECT_EQ(st.code(), Status::Code::kCorruption) << st.ToString();
  EXPECT_NE(st.ToString().find(tmp.Sub("cut.xml.gz") + ": gzip error at compressed byte "),
            std::string::npos)
      << st.ToString();
  EXPECT_NE(st.ToString().find("truncated file?"), std::string::npos) << st.ToString();
  EXPECT_EQ(Contents(store.get()), before);
}

TEST(StubUpdateTest, AnEditionSpecNamesTheEditionOfStubsAndDump) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  WriteMultistream(OldPages(), tmp.Sub("d.xml.bz2"), tmp.Sub("i.txt"), 5);
  testing::WriteFile(tmp.Sub("stub.xml"), StubXml(OldPages()));
  IngestOptions o;
  o.stubs = tmp.Sub("stub.xml");
  o.index = tmp.Sub("i.txt");
  IngestSummary s;
  Status st = Ingest(store.get(), {"other=" + tmp.Sub("d.xml.bz2")}, o, &s);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(s.added, 40u);
  EXPECT_EQ(s.redirects, 1u);
  std::map<std::string, uint32_t> editions;
  ASSERT_TRUE(store->Editions(&editions).ok());
  EXPECT_EQ(editions.size(), 1u);
  EXPECT_EQ(editions.count("other"), 1u);
}

TEST(StubUpdateTest, StubsWithoutAnIndexAreABadArgument) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  testing::WriteFile(tmp.Sub("stub.xml"), StubXml(OldPages()));
  IngestOptions o;
  o.stubs = tmp.Sub("stub.xml");
  IngestSummary s;
  Status st = Ingest(store.get(), {tmp.Sub("stub.xml")}, o, &s);
  EXPECT_TRUE(st.code() == Status::Code::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.ToString().find("--index"), std::string::npos);
}

TEST(StubUpdateTest, TheCommandExitsWithTheDocumentedCodes) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("stub.xml"), StubXml(OldPages()).substr(0, 700));
  WriteMultistream(OldPages(), tmp.Sub("d.xml.bz2"), tmp.Sub("i.txt"), 5);
  auto r = testing::RunAligndb({"ingest", "--db", tmp.Sub("db"), "--full", "--stubs",
                                tmp.Sub("stub.xml"), tmp.Sub("d.xml.bz2")});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  r = testing::RunAligndb({"ingest", "--db", tmp.Sub("db"), "--full", "--stubs",
                           tmp.Sub("stub.xml"), "--index", tmp.Sub("i.txt"), tmp.Sub("d.xml.bz2")});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("stub.xml: malformed XML at byte "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("truncated file?"), std::string::npos) << r.err;
}

// ------------------------------------------------------------------ adds-changes dumps

std::string ChangeFile(const std::vector<std::string>& page_xml) {
  std::string x = kHeader;
  for (const auto& p : page_xml) x += p;
  return x + "</mediawiki>\n";
}

Status ApplyChanges(Store* store, const std::vector<std::string>& files, IngestSummary* s) {
  IngestOptions o;
  o.changes = true;
  return Ingest(store, files, o, s);
}

TEST(ChangesTest, NewestRevisionsWinWhateverTheirOrderAndTheResultIsAFreshIngest) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  Pages v = NewPages();
  v[20] = OldPages()[20];  // adds-changes dumps carry no deletions
  // Day 1: page 3 in an intermediate revision, page 7 renamed.
  Page p3_mid = Article(3, "Topic 3", 203, "of the intermediate revision");
  std::string day1 = ChangeFile(
      {PageXml(p3_mid, {{p3_mid.rev, p3_mid.text}}), PageXml(v[7], {{v[7].rev, v[7].text}})});
  // Day 2: page 3's newest revision between two older ones, and again in a second <page>
  // element with an older revision; the rest of the changes.
  std::vector<std::string> day2 = {
      PageXml(v[3], {{202, "older"}, {v[3].rev, v[3].text}, {201, "oldest"}}),
      PageXml(v[50], {{v[50].rev, v[50].text}}),
      PageXml(v[9], {{v[9].rev, v[9].text}}),
      PageXml(v[8], {{v[8].rev, v[8].text}}),
      PageXml(v[12], {{v[12].rev, v[12].text}}),
      PageXml(v[41], {{v[41].rev, v[41].text}}),
      PageXml(v[42], {{v[42].rev, v[42].text}}),
      PageXml(v[14], {{v[14].rev, v[14].text}}),
      PageXml(p3_mid, {{p3_mid.rev, p3_mid.text}}),
  };
  testing::WriteFile(tmp.Sub("enwiki-20261121-pages-meta-hist-incr.xml"), day1);
  testing::WriteFile(tmp.Sub("enwiki-20261122-pages-meta-hist-incr.xml.bz2"),
                     testing::Bz2Compress(ChangeFile(day2)));
  IngestSummary s;
  // Given newest first: applied in date order.
  Status st = ApplyChanges(store.get(),
                           {tmp.Sub("enwiki-20261122-pages-meta-hist-incr.xml.bz2"),
                            tmp.Sub("enwiki-20261121-pages-meta-hist-incr.xml")},
                           &s);
  ASSERT_TRUE(st.ok()) << st.ToString();
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, v, "fresh"));
  EXPECT_EQ(s.superseded, 3u);  // 202, 201 and the second 203 of day 2
  EXPECT_EQ(s.deleted, 1u);     // 12 moved out of namespace 0
  EXPECT_EQ(s.older_ignored, 0u);

  // Day 1 again, after day 2: its revisions are older than the stored ones.
  IngestSummary late;
  ASSERT_TRUE(
      ApplyChanges(store.get(), {tmp.Sub("enwiki-20261121-pages-meta-hist-incr.xml")}, &late).ok());
  EXPECT_EQ(late.older_ignored, 1u);  // page 3, revision 203 < 204
  EXPECT_EQ(late.unchanged, 1u);      // page 7
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, v, "fresh2"));
}

TEST(ChangesTest, AnOlderRevisionThanStoredIsIgnoredAlsoForAMoveOutOfNamespaceZero) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  std::string before = Contents(store.get());
  Page p5 = Article(5, "Topic 5", 90, "of an old revision");
  Page p6 = Article(6, "Wikipedia:Topic 6", 90);
  p6.ns = 4;
  testing::WriteFile(tmp.Sub("x-20261101.xml"), ChangeFile({PageXml(p5, {{p5.rev, p5.text}}),
                                                            PageXml(p6, {{p6.rev, p6.text}})}));
  IngestSummary s;
  ASSERT_TRUE(ApplyChanges(store.get(), {tmp.Sub("x-20261101.xml")}, &s).ok());
  EXPECT_EQ(s.older_ignored, 2u);
  EXPECT_EQ(s.deleted, 0u);
  EXPECT_EQ(Contents(store.get()), before);
}

// A page deleted from the wiki and another made under its title (a new page id): adds-changes
// files list no deletions and a plain ingest deletes nothing, yet an edition holds one page a
// title: the old page goes, as a fresh ingest of the newer dump has it. Also when a redirect
// takes the title of an article, and for a plain ingest of the newer pages.
TEST(ChangesTest, APageMadeAgainUnderItsTitleReplacesTheOldOne) {
  for (bool changes : {true, false}) {
    SCOPED_TRACE(changes ? "--changes" : "plain ingest");
    TempDir tmp;
    auto store = StoreOfOldPages(tmp);
    Pages v = OldPages();
    v.erase(5);
    v[60] = Article(60, "Topic 5", 260, "made again");
    v.erase(6);
    v[61] = Redirect(61, "Topic 6", 261, "Topic 1");
    const std::string file = tmp.Sub("enwiki-20261201-pages-meta-hist-incr.xml");
    testing::WriteFile(file, ChangeFile({PageXml(v[60], {{v[60].rev, v[60].text}}),
                                         PageXml(v[61], {{v[61].rev, v[61].text}})}));
    IngestSummary s;
    Status st = changes ? ApplyChanges(store.get(), {file}, &s)
                        : Ingest(store.get(), {file}, IngestOptions(), &s);
    ASSERT_TRUE(st.ok()) << st.ToString();
    EXPECT_EQ(s.deleted, 2u);  // articles 5 and 6
    EXPECT_EQ(s.redirects_deleted, 0u);
    EXPECT_EQ(Contents(store.get()), FreshContents(tmp, v, "fresh"));
  }
}

// A page whose title another page of the input takes is kept when the input holds it: renamed
// further on (a swap), read unchanged (a wiki whose titles differ in case alone: "apple" and
// "Apple" are one title to aligndb), or skipped for its size. A failed ingest deletes nothing and
// leaves its note to the next one, which decides with its own input.
TEST(ChangesTest, APageTheInputHoldsIsNeverDeletedForItsTitle) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  // Page 60 takes "Topic 5"; page 5, later in the same file, moves to "Topic five".
  Page p60 = Article(60, "Topic 5", 260), p5 = Article(5, "Topic five", 205);
  testing::WriteFile(tmp.Sub("swap.xml"), ChangeFile({PageXml(p60, {{p60.rev, p60.text}}),
                                                      PageXml(p5, {{p5.rev, p5.text}})}));
  IngestSummary s;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("swap.xml")}, IngestOptions(), &s).ok());
  EXPECT_EQ(s.deleted, 0u);
  Pages v = OldPages();
  v[60] = p60;
  v[5] = p5;
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, v, "fresh"));

  // Page 61 "topic 6" (a title equal to page 6's but for the case of its first letter) beside
  // page 6 read unchanged; page 7 skipped for its size while page 62 takes its title.
  Page p61 = Article(61, "topic 6", 261), p62 = Article(62, "Topic 7", 262);
  Page p7 = OldPages()[7];
  p7.text += std::string(4000, 'x');
  p7.rev = 300;
  testing::WriteFile(
      tmp.Sub("kept.xml"),
      ChangeFile({PageXml(v[6], {{v[6].rev, v[6].text}}), PageXml(p61, {{p61.rev, p61.text}}),
                  PageXml(p7, {{p7.rev, p7.text}}), PageXml(p62, {{p62.rev, p62.text}})}));
  IngestOptions small;
  small.max_page_bytes = 2000;
  IngestSummary k;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("kept.xml")}, small, &k).ok());
  EXPECT_EQ(k.deleted, 0u);
  pb::PageState st;
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("enwiki", false, &ed).ok());
  EXPECT_TRUE(store->GetPageState(ed, 6, &st).ok());
  EXPECT_TRUE(store->GetPageState(ed, 7, &st).ok());

  // A file cut short after page 63 took "Topic 8": nothing deleted, the error reported; the next
  // ingest (of other pages) deletes page 8, which it did not read.
  Page p63 = Article(63, "Topic 8", 263), p64 = Article(64, "Topic sixty-four", 264);
  std::string cut =
      ChangeFile({PageXml(p63, {{p63.rev, p63.text}}), PageXml(p64, {{p64.rev, p64.text}})});
  cut.resize(cut.find("Topic sixty-four"));
  testing::WriteFile(tmp.Sub("cut.xml"), cut);
  IngestSummary c;
  EXPECT_FALSE(Ingest(store.get(), {tmp.Sub("cut.xml")}, IngestOptions(), &c).ok());
  EXPECT_EQ(c.deleted, 0u);
  EXPECT_TRUE(store->GetPageState(ed, 8, &st).ok());
  testing::WriteFile(tmp.Sub("next.xml"), ChangeFile({PageXml(p60, {{p60.rev, p60.text}})}));
  IngestSummary n;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("next.xml")}, IngestOptions(), &n).ok());
  EXPECT_EQ(n.deleted, 1u);
  EXPECT_TRUE(store->GetPageState(ed, 8, &st).IsNotFound());
  EXPECT_TRUE(store->GetPageState(ed, 63, &st).ok());
}

// The pages an input holds are kept however the input comes: a second file of the same run into
// a new edition that takes a title of the first; stubs listing a page the dump is not read for; a
// failed read, which also leaves no note to delete them later; --changes files of two wikis.
TEST(ChangesTest, PagesHeldByAnyPartOfTheInputAreKept) {
  TempDir tmp;
  uint32_t ed = 0;
  pb::PageState st;
  Page p6 = Article(6, "Topic 6", 106), p61 = Article(61, "topic 6", 161);
  {
    auto store = OpenStore(tmp.Sub("split-db"));
    testing::WriteFile(tmp.Sub("p1.xml"), ChangeFile({PageXml(p6, {{p6.rev, p6.text}})}));
    testing::WriteFile(tmp.Sub("p2.xml"), ChangeFile({PageXml(p61, {{p61.rev, p61.text}})}));
    IngestSummary s;
    ASSERT_TRUE(
        Ingest(store.get(), {tmp.Sub("p1.xml"), tmp.Sub("p2.xml")}, IngestOptions(), &s).ok());
    EXPECT_EQ(s.deleted, 0u);
    ASSERT_TRUE(store->EditionId("enwiki", false, &ed).ok());
    EXPECT_TRUE(store->GetPageState(ed, 6, &st).ok());
  }
  {
    auto store = StoreOfOldPages(tmp);
    ASSERT_TRUE(store->EditionId("enwiki", false, &ed).ok());
    // Page 61 takes page 6's title; the file breaks after page 6, read unchanged.
    std::string cut = ChangeFile({PageXml(p61, {{p61.rev, p61.text}}),
                                  PageXml(OldPages()[6], {{106, OldPages()[6].text}}),
                                  PageXml(Article(70, "Topic seventy", 170), {{170, "x"}})});
    cut.resize(cut.find("Topic seventy"));
    testing::WriteFile(tmp.Sub("cut.xml"), cut);
    IngestSummary c;
    EXPECT_FALSE(Ingest(store.get(), {tmp.Sub("cut.xml")}, IngestOptions(), &c).ok());
    Page p9 = Article(9, "Topic 9", 209, "changed");
    testing::WriteFile(tmp.Sub("other.xml"), ChangeFile({PageXml(p9, {{p9.rev, p9.text}})}));
    IngestSummary n;
    ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("other.xml")}, IngestOptions(), &n).ok());
    EXPECT_EQ(n.deleted, 0u);
    EXPECT_TRUE(store->GetPageState(ed, 6, &st).ok());

    // --changes files of two wikis: refused before the first is read.
    std::string simple = ChangeFile({PageXml(Article(80, "Topic eighty", 180), {{180, "y"}})});
    simple.replace(simple.find("<dbname>enwiki"), 14, "<dbname>simplewiki");
    testing::WriteFile(tmp.Sub("enwiki-20261201-pages-meta-hist-incr.xml"),
                       ChangeFile({PageXml(Article(81, "Topic 81", 181), {{181, "z"}})}));
    testing::WriteFile(tmp.Sub("simplewiki-20261202-pages-meta-hist-incr.xml"), simple);
    const std::string before = Contents(store.get());
    IngestOptions o;
    o.changes = true;
    o.edition = "enwiki";
    IngestSummary x;
    Status xs = Ingest(store.get(),
                       {tmp.Sub("enwiki-20261201-pages-meta-hist-incr.xml"),
                        tmp.Sub("simplewiki-20261202-pages-meta-hist-incr.xml")},
                       o, &x);
    EXPECT_TRUE(xs.code() == Status::Code::kInvalidArgument) << xs.ToString();
    EXPECT_EQ(Contents(store.get()), before);
  }
}

// A plain ingest of an older dump stores what it holds (a newer dump can show an older revision
// when the newest was suppressed) and says how many pages went back.
TEST(ChangesTest, AnOlderDumpIsStoredAndCounted) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  Pages v = OldPages();
  v[5] = Article(5, "Topic 5", 90, "of an old revision");
  const std::string file = tmp.Sub("old.xml");
  testing::WriteFile(file, ChangeFile({PageXml(v[5], {{v[5].rev, v[5].text}})}));
  IngestSummary s;
  ASSERT_TRUE(Ingest(store.get(), {file}, IngestOptions(), &s).ok());
  EXPECT_EQ(s.older_stored, 1u);
  ASSERT_EQ(s.warnings.size(), 1u);
  EXPECT_NE(s.warnings[0].find("older"), std::string::npos) << s.warnings[0];
  EXPECT_EQ(Contents(store.get()), FreshContents(tmp, v, "fresh"));
}

// An edition holds one wiki's pages: a dump of another wiki (its <siteinfo><dbname>) into it is
// refused before anything is stored or, with --full, deleted; under an edition of its own it is
// taken.
TEST(WikiOfEditionTest, ADumpOfAnotherWikiIsRefusedAndNothingChanges) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  const std::string before = Contents(store.get());
  std::string other = ChangeFile({PageXml(Article(5, "Topic five", 300), {{300, "Other text."}})});
  other.replace(other.find("<dbname>enwiki"), 14, "<dbname>simplewiki");
  testing::WriteFile(tmp.Sub("simple.xml"), other);
  for (bool full : {false, true}) {
    IngestOptions o;
    o.edition = "enwiki";
    o.full = full;
    IngestSummary s;
    Status st = Ingest(store.get(), {tmp.Sub("simple.xml")}, o, &s);
    EXPECT_TRUE(st.code() == Status::Code::kInvalidArgument) << st.ToString();
    EXPECT_NE(st.message().find("simplewiki"), std::string::npos) << st.ToString();
    EXPECT_EQ(Contents(store.get()), before);
  }
  // Among several dumps: refused before the first is read.
  Page p70 = Article(70, "Topic seventy", 270);
  testing::WriteFile(tmp.Sub("en.xml"), ChangeFile({PageXml(p70, {{p70.rev, p70.text}})}));
  IngestOptions both;
  both.edition = "enwiki";
  IngestSummary b;
  Status bs = Ingest(store.get(), {tmp.Sub("en.xml"), tmp.Sub("simple.xml")}, both, &b);
  EXPECT_TRUE(bs.code() == Status::Code::kInvalidArgument) << bs.ToString();
  EXPECT_EQ(Contents(store.get()), before);
  IngestOptions own;
  own.edition = "simple";
  IngestSummary s;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("simple.xml")}, own, &s).ok());
  EXPECT_EQ(s.added, 1u);
  EXPECT_EQ(Contents(store.get()), before);
}

TEST(ChangesTest, FilesAreOrderedByTheDateInTheirNames) {
  std::string d;
  EXPECT_TRUE(ChangeFileDate("/data/20991231/enwiki-20261121-pages-meta-hist-incr.xml.bz2", &d));
  EXPECT_EQ(d, "20261121");
  EXPECT_FALSE(ChangeFileDate("/data/20261121/changes.xml", &d));  // only the file name counts
  EXPECT_FALSE(ChangeFileDate("enwiki-123456789-incr.xml", &d));   // nine digits: not a date
  EXPECT_FALSE(ChangeFileDate("enwiki-20261341-incr.xml", &d));    // month 13
  std::vector<std::string> files = {"b-20261122.xml", "a-20261121.xml", "c-20261121.xml"};
  ASSERT_TRUE(OrderChangeFiles(&files).ok());
  EXPECT_EQ(files,
            (std::vector<std::string>{"a-20261121.xml", "c-20261121.xml", "b-20261122.xml"}));
  files.push_back("undated.xml");
  Status st = OrderChangeFiles(&files);
  EXPECT_TRUE(st.code() == Status::Code::kInvalidArgument);
  EXPECT_NE(st.ToString().find("undated.xml"), std::string::npos);
}

TEST(ChangesTest, ChangesDoNotGoWithFullOrIndex) {
  TempDir tmp;
  auto store = OpenStore(tmp.Sub("db"));
  IngestOptions o;
  o.changes = true;
  o.full = true;
  IngestSummary s;
  EXPECT_TRUE(Ingest(store.get(), {"x-20261101.xml"}, o, &s).code() ==
              Status::Code::kInvalidArgument);
}

// The new pages' multistream dump (written before) ingested through the stub file `stub` of
// tmp, --full or not, as edition `edition` (empty: the dumps' own).
Status UpdateThroughStub(Store* store, const TempDir& tmp, const std::string& stub, bool full,
                         const std::string& edition, IngestSummary* s) {
  IngestOptions o;
  o.full = full;
  o.edition = edition;
  o.index = tmp.Sub("new-index.txt");
  o.stubs = tmp.Sub(stub);
  return Ingest(store, {tmp.Sub("new.xml.bz2")}, o, s);
}

// A stub dump of another wiki names other pages by the same ids: the update is refused before
// anything is written.
TEST(StubUpdateTest, AStubDumpOfAnotherWikiIsRefusedAndNothingChanges) {
  TempDir tmp;
  auto store = StoreOfOldPages(tmp);
  std::string before = Contents(store.get());
  auto write_stub = [&](const Pages& pages, const std::string& from, const std::string& to,
                        const std::string& name) {
    std::string xml = StubXml(pages);
    xml.replace(xml.find(from), from.size(), to);
    testing::WriteFile(tmp.Sub(name), xml);
  };
  write_stub(NewPages(), "<dbname>enwiki</dbname>", "<dbname>simplewiki</dbname>",
             "simple-stub.xml");
  WriteMultistream(NewPages(), tmp.Sub("new.xml.bz2"), tmp.Sub("new-index.txt"), 5);
  for (bool full : {false, true}) {
    IngestSummary s;
    Status st = UpdateThroughStub(store.get(), tmp, "simple-stub.xml", full, "", &s);
    EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.ToString();
    EXPECT_NE(st.ToString().find("\"enwiki\" and the --stubs dump of \"simplewiki\""),
              std::string::npos)
        << st.ToString();
    EXPECT_EQ(Contents(store.get()), before);
    std::map<std::string, uint32_t> eds;
    ASSERT_TRUE(store->Editions(&eds).ok());
    EXPECT_EQ(eds.count("simplewiki"), 0u);
  }
  // Its pages not in this dump's index at all: no stream would be read, and --full would have
  // deleted every stored page. Refused before, whatever the edition is called.
  Pages other;
  other[100] = Article(100, "Other wiki page", 300);
  other[200] = Article(200, "Another one", 301);
  write_stub(other, "<dbname>enwiki</dbname>", "<dbname>simplewiki</dbname>", "other-stub.xml");
  IngestSummary s;
  Status st = UpdateThroughStub(store.get(), tmp, "other-stub.xml", true, "enwiki", &s);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.ToString();
  EXPECT_EQ(s.deleted, 0u);
  EXPECT_EQ(Contents(store.get()), before);
  // A stub without <dbname> cannot be checked: --full refuses it.
  write_stub(NewPages(), "<siteinfo><dbname>enwiki</dbname></siteinfo>\n", "", "bare-stub.xml");
  IngestSummary s2;
  st = UpdateThroughStub(store.get(), tmp, "bare-stub.xml", true, "enwiki", &s2);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument) << st.ToString();
  EXPECT_NE(st.ToString().find("no <siteinfo><dbname>"), std::string::npos) << st.ToString();
  EXPECT_EQ(Contents(store.get()), before);
}

}  // namespace
}  // namespace aligndb

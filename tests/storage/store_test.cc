// Tests of the RocksDB store and of ingest into it, on real databases in temporary directories.
#include "storage/store.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <rocksdb/db.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <random>
#include <set>
#include <sstream>
#include <thread>
#include <unordered_set>

#include "aligndb.pb.h"
#include "ingest/ingest.h"
#include "storage/rocks.h"
#include "storage/store_fixtures.h"
#include "test_util.h"
#include "text/text.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

using testing::MakeArticle;
using testing::OpenOrDie;
using testing::TermsOf;

// Recounts document frequencies from the stored terms: the slow, obviously correct reference.
std::map<std::string, int64_t> RecountDf(Store* store, uint32_t edition) {
  std::map<std::string, int64_t> df;
  std::vector<uint64_t> ids;
  EXPECT_TRUE(store->PageIds(edition, &ids).ok());
  for (uint64_t id : ids) {
    pb::Article a;
    if (!store->GetArticle(edition, id, &a).ok()) continue;
    pb::ArticleTerms t = TermsOf(a);
    for (const auto& p : t.paragraphs())
      for (const auto& tok : p.paragraph().tokens()) df[tok]++;
  }
  return df;
}

void ExpectDfMatchesRecount(Store* store, uint32_t edition) {
  auto expected = RecountDf(store, edition);
  // Every stored df key must equal the recount (zero when the token is gone).
  size_t seen = 0;
  ASSERT_TRUE(store
                  ->ForEachDocumentFrequency(edition,
                                             [&](const std::string& tok, int64_t v) {
                                               auto e = expected.find(tok);
                                               EXPECT_EQ(v, e == expected.end() ? 0 : e->second)
                                                   << tok;
                                               if (v) ++seen;
                                               return Status::OK();
                                             })
                  .ok());
  EXPECT_EQ(seen, expected.size());
}

TEST(StoreTest, ArticleRoundTrip) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("testwiki", true, &ed).ok());
  auto a = MakeArticle(42, "Blue whale", 7,
                       {{"The blue whale is big.", "It eats krill."}, {"Whales swim."}});
  a.set_flags(kFlagStub);
  a.set_timestamp("2020-01-01T00:00:00Z");
  ASSERT_TRUE(store->PutArticle(ed, a).ok());
  store.reset();

  store = OpenOrDie(tmp.Sub("db"), false);
  uint64_t id = 0;
  ASSERT_TRUE(store->FindArticle(ed, "blue_whale", &id).ok());  // normalized lookup
  EXPECT_EQ(id, 42u);
  pb::Article back;
  ASSERT_TRUE(store->GetArticle(ed, 42, &back).ok());
  EXPECT_EQ(back.SerializeAsString(), a.SerializeAsString());
  EditionCounts c;
  ASSERT_TRUE(store->GetEditionCounts(ed, &c).ok());
  EXPECT_EQ(c.articles, 1);
  EXPECT_EQ(c.paragraphs, 2);
  EXPECT_EQ(c.sentences, 3);
  std::vector<int64_t> df;
  ASSERT_TRUE(store->DocumentFrequencies(ed, {"whale", "whales", "krill", "absent"}, &df).ok());
  EXPECT_EQ(df, (std::vector<int64_t>{1, 1, 1, 0}));
}

// Align keeps the articles' blocks cached only while all of them take at most half the cache.
TEST(StoreTest, ArticlesFitInTheBlockCacheUpToHalfOfIt) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("testwiki", true, &ed).ok());
  ASSERT_TRUE(store->PutArticle(ed, MakeArticle(1, "Small", 1, {{"A short page."}})).ok());
  ASSERT_TRUE(store->FlushMemtables().ok());
  EXPECT_TRUE(store->ArticlesFitInBlockCache());
  const std::string megabyte(1 << 20, 'x');  // one long token: cheap to count
  for (uint64_t id = 2; id < 72; ++id)
    ASSERT_TRUE(
        store->PutArticle(ed, MakeArticle(id, "Page " + std::to_string(id), 1, {{megabyte}})).ok());
  ASSERT_TRUE(store->FlushMemtables().ok());
  EXPECT_FALSE(store->ArticlesFitInBlockCache());  // 70 MB of tables, over 64 MB
}

TEST(StoreTest, ReplacingAndDeletingKeepCountsAndFrequenciesInStep) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint32_t ed;
  ASSERT_TRUE(store->EditionId("testwiki", true, &ed).ok());
  auto a1 = MakeArticle(1, "Cat", 1, {{"Cats purr."}, {"Cats sleep a lot."}});
  auto a2 = MakeArticle(2, "Dog", 1, {{"Dogs bark."}});
  ASSERT_TRUE(store->PutArticle(ed, a1).ok());
  ASSERT_TRUE(store->PutArticle(ed, a2).ok());
  ExpectDfMatchesRecount(store.get(), ed);

  // New revision of Cat, renamed; Dog becomes a redirect; then a page is deleted.
  auto a1b = MakeArticle(1, "House cat", 2, {{"Cats purr and cats sleep."}});
  ASSERT_TRUE(store->PutArticle(ed, a1b).ok());
  ExpectDfMatchesRecount(store.get(), ed);
  uint64_t id;
  EXPECT_TRUE(store->FindArticle(ed, "Cat", &id).IsNotFound());
  ASSERT_TRUE(store->FindArticle(ed, "House cat", &id).ok());

  pb::Redirect r;
  r.set_page_id(2);
  r.set_title("Dog");
  r.set_target("Domestic dog");
  ASSERT_TRUE(store->PutRedirect(ed, r).ok());
  ExpectDfMatchesRecount(store.get(), ed);
  EditionCounts c;
  ASSERT_TRUE(store->GetEditionCounts(ed, &c).ok());
  EXPECT_EQ(c.articles, 1);
  EXPECT_EQ(c.redirects, 1);
  EXPECT_EQ(c.paragraphs, 1);
  EXPECT_EQ(c.sentences, 1);
  pb::Redirect back;
  ASSERT_TRUE(store->GetRedirect(ed, "Dog", &back).ok());
  EXPECT_EQ(back.target(), "Domestic dog");

  ASSERT_TRUE(store->DeletePage(ed, 1).ok());
  ASSERT_TRUE(store->DeletePage(ed, 2).ok());
  ASSERT_TRUE(store->DeletePage(ed, 99).ok());  // absent: fine
  ASSERT_TRUE(store->GetEditionCounts(ed, &c).ok());
  EXPECT_EQ(c.articles, 0);
  EXPECT_EQ(c.redirects, 0);
  EXPECT_EQ(c.paragraphs, 0);
  ExpectDfMatchesRecount(store.get(), ed);
}

TEST(StoreTest, PageWriterBatchesEqualSingleWrites) {
  // Random sequences of puts, redirects and deletes through one batching writer and through
  // single writes must leave the same state.
  std::mt19937 rng(7);
  const std::vector<std::string> words = {"a", "b", "c", "d", "e", "f", "g"};
  for (int round = 0; round < 20; ++round) {
    TempDir tmp;
    auto batched = OpenOrDie(tmp.Sub("b"));
    auto single = OpenOrDie(tmp.Sub("s"));
    uint32_t e1, e2;
    ASSERT_TRUE(batched->EditionId("w", true, &e1).ok());
    ASSERT_TRUE(single->EditionId("w", true, &e2).ok());
    auto writer = batched->NewPageWriter();
    for (int op = 0; op < 60; ++op) {
      uint64_t id = rng() % 6;
      int kind = static_cast<int>(rng() % 4);
      if (kind < 2) {
        std::vector<std::vector<std::string>> paras(1 + rng() % 3);
        for (auto& p : paras)
          for (int s = 0; s < 1 + static_cast<int>(rng() % 3); ++s)
            p.push_back(words[rng() % words.size()] + " " + words[rng() % words.size()]);
        auto a = MakeArticle(id, "T" + std::to_string(rng() % 8), op, paras);
        ASSERT_TRUE(writer->PutArticle(e1, a).ok());
        ASSERT_TRUE(single->PutArticle(e2, a).ok());
      } else if (kind == 2) {
        pb::Redirect r;
        r.set_page_id(id);
        r.set_title("R" + std::to_string(id));
        ASSERT_TRUE(writer->PutRedirect(e1, r).ok());
        ASSERT_TRUE(single->PutRedirect(e2, r).ok());
      } else {
        ASSERT_TRUE(writer->DeletePage(e1, id).ok());
        ASSERT_TRUE(single->DeletePage(e2, id).ok());
      }
      if (rng() % 10 == 0) ASSERT_TRUE(writer->Flush().ok());
    }
    ASSERT_TRUE(writer->Flush().ok());
    EditionCounts cb, cs;
    ASSERT_TRUE(batched->GetEditionCounts(e1, &cb).ok());
    ASSERT_TRUE(single->GetEditionCounts(e2, &cs).ok());
    EXPECT_EQ(cb.articles, cs.articles);
    EXPECT_EQ(cb.redirects, cs.redirects);
    EXPECT_EQ(cb.paragraphs, cs.paragraphs);
    EXPECT_EQ(cb.sentences, cs.sentences);
    EXPECT_EQ(RecountDf(batched.get(), e1), RecountDf(single.get(), e2));
    ExpectDfMatchesRecount(batched.get(), e1);
  }
}

// A database of schema version 2 holds each article's postings in "terms": the first writer
// drops them all (nothing reads them) and marks the database 3; its articles and document
// frequencies stay, and replacing a page keeps them exact.
TEST(StoreTest, UpgradeFromVersionTwoDropsThePostings) {
  TempDir tmp;
  std::string dir = tmp.Sub("db");
  uint32_t ed = 0;
  {
    auto store = OpenOrDie(dir);
    ASSERT_TRUE(store->EditionId("enwiki", true, &ed).ok());
    ASSERT_TRUE(store->PutArticle(ed, MakeArticle(1, "A", 1, {{"The river flows."}})).ok());
    ASSERT_TRUE(store->PutMeta("schema_version", "2").ok());
  }
  // Opens the database with RocksDB itself and calls fn(db, the "terms" column family).
  auto with_raw = [&](bool read_only,
                      const std::function<void(rocksdb::DB*, rocksdb::ColumnFamilyHandle*)>& fn) {
    std::vector<rocksdb::ColumnFamilyDescriptor> cfs;
    std::vector<std::string> names;
    ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), dir, &names).ok());
    for (const auto& n : names) cfs.emplace_back(n, rocksdb::ColumnFamilyOptions());
    std::vector<rocksdb::ColumnFamilyHandle*> handles;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE((read_only
                     ? rocksdb::DB::OpenForReadOnly(rocksdb::DBOptions(), dir, cfs, &handles, &raw)
                     : rocksdb::DB::Open(rocksdb::DBOptions(), dir, cfs, &handles, &raw))
                    .ok());
    size_t terms = std::find(names.begin(), names.end(), "terms") - names.begin();
    ASSERT_LT(terms, names.size());
    fn(raw, handles[terms]);
    for (auto* h : handles) raw->DestroyColumnFamilyHandle(h);
    delete raw;
  };
  // As a version-2 aligndb left it: the article's postings under its page key.
  with_raw(false, [&](rocksdb::DB* raw, rocksdb::ColumnFamilyHandle* terms) {
    ASSERT_TRUE(
        raw->Put(rocksdb::WriteOptions(), terms, EncodePageKey(ed, 1),
                 TermsOf(MakeArticle(1, "A", 1, {{"The river flows."}})).SerializeAsString())
            .ok());
  });
  auto count_terms = [&] {
    int n = 0;
    with_raw(true, [&](rocksdb::DB* raw, rocksdb::ColumnFamilyHandle* terms) {
      std::unique_ptr<rocksdb::Iterator> it(raw->NewIterator(rocksdb::ReadOptions(), terms));
      for (it->SeekToFirst(); it->Valid(); it->Next()) ++n;
    });
    return n;
  };
  EXPECT_EQ(count_terms(), 1);
  {
    auto store = OpenOrDie(dir);
    std::string v;
    ASSERT_TRUE(store->GetMeta("schema_version", &v).ok());
    EXPECT_EQ(v, "3");
    ASSERT_TRUE(store->PutArticle(ed, MakeArticle(1, "A", 2, {{"The sea rises."}})).ok());
    ExpectDfMatchesRecount(store.get(), ed);
    pb::Article back;
    ASSERT_TRUE(store->GetArticle(ed, 1, &back).ok());
    EXPECT_EQ(back.paragraphs(0).sentences(0), "The sea rises.");
  }
  EXPECT_EQ(count_terms(), 0);
}

// MatchTitles walks both editions' titles in step: the same matches as a lookup per title, where
// the other edition holds no, few or many titles between two of this edition's.
TEST(StoreTest, MatchTitlesEqualsALookupPerTitle) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint32_t a = 0, b = 0;
  ASSERT_TRUE(store->EditionId("simplewiki", true, &a).ok());
  ASSERT_TRUE(store->EditionId("enwiki", true, &b).ok());
  std::mt19937 rng(3);
  auto writer = store->NewPageWriter();
  // Page id 0 is an id like any other (JSON lines may give it).
  ASSERT_TRUE(writer->PutArticle(b, MakeArticle(0, "Zero", 1, {{"x y."}})).ok());
  ASSERT_TRUE(writer->PutArticle(a, MakeArticle(20000, "Zero", 1, {{"x y."}})).ok());
  for (uint64_t id = 1; id <= 3000; ++id) {
    const std::string title = "T" + std::to_string(rng() % 5000);
    // Dense in the other edition around some titles, sparse elsewhere.
    const bool in_b = rng() % 3 != 0 || (id % 100) < 40;
    const bool in_a = rng() % 10 == 0;
    if (in_b) ASSERT_TRUE(writer->PutArticle(b, MakeArticle(id, title, 1, {{"x y."}})).ok());
    if (in_a)
      ASSERT_TRUE(
          writer->PutArticle(a, MakeArticle(id + 10000, title + (id % 7 ? "" : "z"), 1, {{"x y."}}))
              .ok());
  }
  ASSERT_TRUE(writer->Flush().ok());
  int titles = 0, matched = 0;
  bool zero = false;
  ASSERT_TRUE(store
                  ->MatchTitles(a, b,
                                [&](const std::string& t, uint64_t, const uint64_t* other) {
                                  uint64_t want = 0;
                                  Status s = store->FindArticle(b, t, &want);
                                  EXPECT_EQ(other != nullptr, s.ok()) << t;
                                  if (other && s.ok()) EXPECT_EQ(*other, want) << t;
                                  ++titles;
                                  matched += other != nullptr;
                                  zero |= t == "Zero" && other && *other == 0;
                                  return Status::OK();
                                })
                  .ok());
  EXPECT_TRUE(zero);
  EXPECT_GT(titles, 100);
  EXPECT_GT(matched, 20);
  EXPECT_LT(matched, titles);
}

// The names of the stored records of an edition pair, in order.
std::vector<std::string> RecordNames(Store* store, uint32_t n, uint32_t s) {
  std::vector<std::string> names;
  auto it = store->NewAlignmentIterator(n, s, "");
  for (; it->Valid(); it->Next()) names.push_back(it->name());
  EXPECT_TRUE(it->status().ok());
  return names;
}

TEST(StoreTest, DeleteExceptByKeepRecordsEqualsTheScanOfRecords) {
  std::mt19937 rng(11);
  for (int round = 0; round < 2; ++round) {
    // The same random records, every one with its keep record, in two databases; one deletes
    // by scanning the records, the other by scanning the keep records.
    TempDir tmp;
    std::vector<std::string> deleted_names[2], left[2];
    uint64_t deleted[2] = {0, 0};
    std::unordered_set<std::string> keep;
    std::vector<std::string> names;
    for (int i = 0; i < 300; ++i) names.push_back("T" + std::to_string(rng() % 1000));
    const std::string prefix = round % 2 ? "T1" : "";
    for (const auto& name : names)
      if (rng() % 3) keep.insert(name);
    for (int scan_keeps = 0; scan_keeps < 2; ++scan_keeps) {
      auto store = OpenOrDie(tmp.Sub("db" + std::to_string(scan_keeps)));
      uint32_t n = 0, s = 0, other = 0;
      ASSERT_TRUE(store->EditionId("enwiki", true, &n).ok());
      ASSERT_TRUE(store->EditionId("simplewiki", true, &s).ok());
      ASSERT_TRUE(store->EditionId("frwiki", true, &other).ok());
      auto writer = store->NewAlignmentWriter(n, s);
      auto others = store->NewAlignmentWriter(n, other);  // another pair: never touched
      pb::AlignmentKeep k;
      k.set_version(1);
      const std::string kb = k.SerializeAsString();
      for (const auto& name : names) {
        pb::AlignmentRecord r;
        r.set_normal_title(name);
        ASSERT_TRUE(writer->PutWithKeep(name, r.SerializeAsString(), kb).ok());
        ASSERT_TRUE(others->PutWithKeep(name, r.SerializeAsString(), kb).ok());
      }
      ASSERT_TRUE(others->Flush().ok());
      ASSERT_TRUE(writer->DeleteExcept(prefix, keep, &deleted[scan_keeps], scan_keeps).ok());
      ASSERT_TRUE(writer->Flush().ok());
      left[scan_keeps] = RecordNames(store.get(), n, s);
      EXPECT_EQ(RecordNames(store.get(), n, other).size(),
                std::set<std::string>(names.begin(), names.end()).size());
      for (const auto& name : left[scan_keeps]) {
        EXPECT_TRUE(keep.count(name) || name.compare(0, prefix.size(), prefix) != 0) << name;
        pb::AlignmentKeep got;  // the keep record stays with its record
        EXPECT_TRUE(store->GetAlignmentKeep(n, s, name, &got).ok()) << name;
      }
    }
    EXPECT_EQ(left[0], left[1]);
    EXPECT_EQ(deleted[0], deleted[1]);
    EXPECT_GT(deleted[0], 0u);
  }
}

TEST(StoreTest, RefusesADirectoryThatIsNotADatabase) {
  TempDir tmp;
  testing::WriteFile(tmp.Sub("notes.txt"), "hello");
  std::unique_ptr<Store> store;
  StoreOptions opts;
  opts.create_if_missing = true;
  Status s = Store::Open(opts, tmp.path(), &store);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(s.message().find("not an aligndb database"), std::string::npos) << s.message();
  // The file is still there: nothing was written.
  EXPECT_EQ(testing::ReadFile(tmp.Sub("notes.txt")), "hello");

  opts.create_if_missing = false;
  s = Store::Open(opts, tmp.Sub("missing"), &store);
  EXPECT_TRUE(s.IsNotFound());
}

TEST(StoreTest, SecondWriterIsRefusedReaderIsNot) {
  TempDir tmp;
  auto writer = OpenOrDie(tmp.Sub("db"));
  std::unique_ptr<Store> second;
  StoreOptions opts;
  opts.create_if_missing = true;
  Status s = Store::Open(opts, tmp.Sub("db"), &second);
  EXPECT_EQ(s.code(), Status::Code::kBusy) << s.ToString();
  EXPECT_NE(s.message().find("in use by another aligndb process"), std::string::npos);
  opts.read_only = true;
  opts.create_if_missing = false;
  EXPECT_TRUE(Store::Open(opts, tmp.Sub("db"), &second).ok());
}

TEST(StoreTest, RunsAreRecorded) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint64_t r1, r2;
  ASSERT_TRUE(store->BeginRun("ingest", {"a.xml"}, &r1).ok());
  ASSERT_TRUE(store->FinishRun(r1, Status::OK(), {{"pages", 5}}).ok());
  ASSERT_TRUE(store->BeginRun("ingest", {"b.xml"}, &r2).ok());
  EXPECT_EQ(r2, r1 + 1);
  std::vector<pb::RunManifest> runs;
  ASSERT_TRUE(store->Runs(&runs).ok());
  ASSERT_EQ(runs.size(), 2u);
  EXPECT_EQ(runs[0].status(), "ok");
  EXPECT_EQ(runs[0].counts().at("pages"), 5u);
  EXPECT_EQ(runs[1].status(), "running");  // never finished: an interrupted run shows as such
}

// A RocksDB database of another program is refused, and left as it was.
TEST(StoreTest, RefusesAForeignRocksDbDatabase) {
  TempDir tmp;
  {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, tmp.Sub("foreign"), &raw).ok());
    ASSERT_TRUE(raw->Put(rocksdb::WriteOptions(), "their key", "their value").ok());
    delete raw;
  }
  std::unique_ptr<Store> store;
  StoreOptions opts;
  opts.create_if_missing = true;
  Status s = Store::Open(opts, tmp.Sub("foreign"), &store);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_NE(s.message().find("not an aligndb database"), std::string::npos) << s.ToString();
  std::vector<std::string> cfs;
  ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), tmp.Sub("foreign"), &cfs).ok());
  EXPECT_EQ(cfs, std::vector<std::string>{"default"});  // no column family was added
}

// What a creation stopped by a kill leaves (RocksDB's bookkeeping files, with or without CURRENT,
// and no "meta" family) holds nothing: a reader finds no database there, a writer creates it
// again. An empty directory is no database for a reader either.
TEST(StoreTest, WhatAnInterruptedCreationLeftIsCreatedAgain) {
  TempDir tmp;
  StoreOptions reader, writer;
  reader.read_only = true;
  writer.create_if_missing = true;
  auto check = [&](const std::string& dir) {
    std::unique_ptr<Store> store;
    Status s = Store::Open(reader, dir, &store);
    EXPECT_TRUE(s.IsNotFound()) << s.ToString();
    EXPECT_NE(s.message().find("its creation was interrupted"), std::string::npos) << s.message();
    s = Store::Open(writer, dir, &store);
    ASSERT_TRUE(s.ok()) << s.ToString();
    ASSERT_TRUE(store->PutMeta("k", "v").ok());
    store.reset();
    ASSERT_TRUE(Store::Open(reader, dir, &store).ok());
    std::string v;
    ASSERT_TRUE(store->GetMeta("k", &v).ok());
    EXPECT_EQ(v, "v");
  };
  // Killed before CURRENT was written (the files of a real stopped run).
  std::filesystem::create_directories(tmp.Sub("a"));
  testing::WriteFile(tmp.Sub("a/LOCK"), "");
  testing::WriteFile(tmp.Sub("a/IDENTITY"), "e2b5bd49-4b76-47a5-9b1c-0a3a1b2c3d4e");
  testing::WriteFile(tmp.Sub("a/MANIFEST-000001"), std::string("\x01\x02\x03", 3));
  testing::WriteFile(tmp.Sub("a/000000.dbtmp"), "x");
  check(tmp.Sub("a"));
  // Killed after CURRENT, before the column families: only "default", an empty log, and no
  // RocksDB LOG file (aligndb writes none).
  for (const std::string name : {"b", "foreign"}) {
    rocksdb::Options o;
    o.create_if_missing = true;
    rocksdb::DB* raw = nullptr;
    ASSERT_TRUE(rocksdb::DB::Open(o, tmp.Sub(name), &raw).ok());
    delete raw;
  }
  for (const auto& e : std::filesystem::directory_iterator(tmp.Sub("b")))
    if (e.path().filename().string().starts_with("LOG")) std::filesystem::remove(e.path());
  check(tmp.Sub("b"));
  // The same empty database with its LOG is another program's: refused, left as it was.
  std::unique_ptr<Store> foreign;
  Status fs = Store::Open(writer, tmp.Sub("foreign"), &foreign);
  EXPECT_EQ(fs.code(), Status::Code::kInvalidArgument) << fs.ToString();
  std::vector<std::string> cfs;
  ASSERT_TRUE(rocksdb::DB::ListColumnFamilies(rocksdb::DBOptions(), tmp.Sub("foreign"), &cfs).ok());
  EXPECT_EQ(cfs, std::vector<std::string>{"default"});
  // A LOCK held by another creator: busy, and nothing of its removed (here the lock is taken by
  // a child process, since a process never conflicts with its own record locks).
  std::filesystem::create_directories(tmp.Sub("e"));
  testing::WriteFile(tmp.Sub("e/IDENTITY"), "x");
  int ready[2];
  ASSERT_EQ(pipe(ready), 0);
  pid_t child = fork();
  if (child == 0) {
    int fd = ::open(tmp.Sub("e/LOCK").c_str(), O_RDWR | O_CREAT, 0644);
    struct flock fl = {};
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    if (fd < 0 || ::fcntl(fd, F_SETLK, &fl) != 0) _exit(1);
    char c = 1;
    if (::write(ready[1], &c, 1) != 1) _exit(1);
    ::sleep(30);
    _exit(0);
  }
  char c = 0;
  ASSERT_EQ(::read(ready[0], &c, 1), 1);
  std::unique_ptr<Store> busy;
  Status bs = Store::Open(writer, tmp.Sub("e"), &busy);
  EXPECT_EQ(bs.code(), Status::Code::kBusy) << bs.ToString();
  EXPECT_EQ(testing::ReadFile(tmp.Sub("e/IDENTITY")), "x");
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  ::close(ready[0]);
  ::close(ready[1]);
  check(tmp.Sub("e"));  // the creator gone, its leftovers are created again
  // An empty directory.
  std::filesystem::create_directories(tmp.Sub("c"));
  std::unique_ptr<Store> store;
  Status s = Store::Open(reader, tmp.Sub("c"), &store);
  EXPECT_TRUE(s.IsNotFound()) << s.ToString();
  // Anything else there (a file of the user's) and the directory is refused as before, untouched.
  std::filesystem::create_directories(tmp.Sub("d"));
  testing::WriteFile(tmp.Sub("d/LOCK"), "");
  testing::WriteFile(tmp.Sub("d/notes.txt"), "mine");
  s = Store::Open(writer, tmp.Sub("d"), &store);
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument) << s.ToString();
  EXPECT_EQ(testing::ReadFile(tmp.Sub("d/notes.txt")), "mine");
}

// A run whose process died is stored as "running" until the next writer opens the database and
// marks it; a reader shows it interrupted already when no writer has the database open, and
// "running" while one has (here, this process's writer).
TEST(StoreTest, RunsOfAKilledProcessAreMarkedInterruptedByTheNextWriter) {
  TempDir tmp;
  uint64_t done = 0, killed = 0;
  {
    auto store = OpenOrDie(tmp.Sub("db"));
    ASSERT_TRUE(store->BeginRun("ingest", {"a"}, &done).ok());
    ASSERT_TRUE(store->FinishRun(done, Status::OK(), {}).ok());
    ASSERT_TRUE(store->BeginRun("align", {}, &killed).ok());  // never finished
  }
  std::vector<pb::RunManifest> runs;
  {
    auto reader = OpenOrDie(tmp.Sub("db"), false, true);  // readers change nothing
    ASSERT_TRUE(reader->Runs(&runs).ok());
    EXPECT_EQ(runs[1].status().rfind("interrupted", 0), 0u) << runs[1].status();
  }
  {
    auto reader = OpenOrDie(tmp.Sub("db"), false, true);
    auto writer = OpenOrDie(tmp.Sub("db"));  // a writer that has not marked it (opened after)
    uint64_t running = 0;
    ASSERT_TRUE(writer->BeginRun("align", {}, &running).ok());
    ASSERT_TRUE(reader->Runs(&runs).ok());  // the reader's view: before the writer's marks
    EXPECT_EQ(runs[1].status(), "running");
  }
  auto store = OpenOrDie(tmp.Sub("db"));
  ASSERT_TRUE(store->Runs(&runs).ok());
  ASSERT_EQ(runs.size(), 3u);
  EXPECT_EQ(runs[0].status(), "ok");
  EXPECT_EQ(runs[1].status().rfind("interrupted", 0), 0u) << runs[1].status();
  EXPECT_EQ(runs[1].finished_unix_ms(), 0);
}

// A damaged table file is corruption, never "in use by another process".
TEST(StoreTest, ADamagedTableFileIsReportedAsCorruption) {
  TempDir tmp;
  uint32_t ed = 0;
  {
    auto store = OpenOrDie(tmp.Sub("db"));
    ASSERT_TRUE(store->EditionId("testwiki", true, &ed).ok());
    for (uint64_t id = 1; id <= 300; ++id) {
      pb::Article a = MakeArticle(id, "T" + std::to_string(id), 1,
                                  {{"Sentence number " + std::to_string(id) + " of many."}});
      ASSERT_TRUE(store->PutArticle(ed, a).ok());
    }
  }  // closing flushes: the articles are in table files
  int damaged = 0;
  for (const auto& f : std::filesystem::directory_iterator(tmp.Sub("db"))) {
    if (f.path().extension() != ".sst") continue;
    std::string bytes = testing::ReadFile(f.path().string());
    // Every block but the footer (the last 53 bytes): the index and filter blocks read at open
    // and the data blocks read later fail their checksums.
    for (size_t k = 0; k + 64 < bytes.size(); k += 7) bytes[k] = static_cast<char>(bytes[k] ^ 0x5a);
    testing::WriteFile(f.path().string(), bytes);
    ++damaged;
  }
  ASSERT_GT(damaged, 0);
  for (int variant = 0; variant < 4; ++variant) {
    const bool read_only = variant & 1;
    std::unique_ptr<Store> store;
    StoreOptions opts;
    opts.read_only = read_only;
    if (variant & 2) opts.map_tables_up_to_bytes = uint64_t{1} << 30;  // read through maps
    Status s = Store::Open(opts, tmp.Sub("db"), &store);
    if (store) EXPECT_EQ(store->tables_mapped(), (variant & 2) != 0);
    if (s.ok()) s = store->ForEachArticle(ed, [](const pb::Article&) { return Status::OK(); });
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
    EXPECT_NE(s.message().find("damaged"), std::string::npos) << s.ToString();
    if (!store) continue;  // refused at open
    pb::Article a;
    s = store->GetArticle(ed, 7, &a);  // a point read of a damaged block
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << s.ToString();
  }
}

// What readers saw: each opens the database read-only and reads every article, again and again.
struct ReadCounts {
  std::atomic<int> reads{0}, whole{0}, busy{0}, failures{0};
  std::mutex mu;
  std::string first_failure;
  std::string Describe() {
    std::lock_guard<std::mutex> l(mu);
    return "of " + std::to_string(reads.load()) + " reads (" + std::to_string(whole.load()) +
           " whole, " + std::to_string(busy.load()) + " busy); first failure: " + first_failure;
  }
};

// Writes `n` articles of `edition` and closes: they are in table files.
uint32_t WriteArticlesToTables(const std::string& db, uint64_t n) {
  uint32_t ed = 0;
  auto store = OpenOrDie(db);
  EXPECT_TRUE(store->EditionId("testwiki", true, &ed).ok());
  for (uint64_t id = 1; id <= n; ++id) {
    pb::Article a = MakeArticle(id, "T" + std::to_string(id), 1,
                                {{"Sentence number " + std::to_string(id) + " of many."}});
    EXPECT_TRUE(store->PutArticle(ed, a).ok());
  }
  return ed;
}

std::vector<std::string> AllArticles(const StoreOptions& opts, const std::string& db,
                                     uint32_t ed, bool* mapped) {
  std::unique_ptr<Store> store;
  Status s = Store::Open(opts, db, &store);
  EXPECT_TRUE(s.ok()) << s.ToString();
  std::vector<std::string> out;
  if (!s.ok()) return out;
  *mapped = store->tables_mapped();
  s = store->ForEachArticle(ed, [&](const pb::Article& a) {
    out.push_back(a.SerializeAsString());
    return Status::OK();
  });
  EXPECT_TRUE(s.ok()) << s.ToString();
  for (uint64_t id : {1, 150, 300}) {
    pb::Article a;
    EXPECT_TRUE(store->GetArticle(ed, id, &a).ok());
    out.push_back(a.SerializeAsString());
  }
  return out;
}

// Table files of `db` mapped into this process (/proc/self/maps).
int MappedTables(const std::string& db) {
  std::istringstream maps(testing::ReadFile("/proc/self/maps"));
  const std::string dir = std::filesystem::canonical(db).string() + "/";
  int n = 0;
  for (std::string line; std::getline(maps, line);)
    n += line.find(dir) != std::string::npos && line.ends_with(".sst");
  return n;
}

TEST(StoreTest, TablesAreReadThroughMapsOnlyUpToTheGivenSize) {
  testing::TempDir tmp;
  const std::string db = tmp.Sub("db");
  const uint32_t ed = WriteArticlesToTables(db, 300);
  uint64_t table_bytes = 0;
  for (const auto& f : std::filesystem::directory_iterator(db))
    if (f.path().extension() == ".sst") table_bytes += f.file_size();
  ASSERT_GT(table_bytes, 0u);
  for (bool read_only : {true, false}) {
    StoreOptions plain, mapped, too_small;
    plain.read_only = mapped.read_only = too_small.read_only = read_only;
    mapped.map_tables_up_to_bytes = table_bytes;        // exactly fits
    too_small.map_tables_up_to_bytes = table_bytes - 1;  // one byte short
    bool m_plain = true, m_mapped = false, m_small = true;
    const auto a = AllArticles(plain, db, ed, &m_plain);
    const auto b = AllArticles(mapped, db, ed, &m_mapped);
    const auto c = AllArticles(too_small, db, ed, &m_small);
    EXPECT_FALSE(m_plain);
    EXPECT_TRUE(m_mapped);
    EXPECT_FALSE(m_small);
    // What the flag says is what RocksDB did: the tables are mapped while the store is open.
    for (const StoreOptions* o : {&plain, &mapped}) {
      std::unique_ptr<Store> store;
      ASSERT_TRUE(Store::Open(*o, db, &store).ok());
      pb::Article article;
      ASSERT_TRUE(store->GetArticle(ed, 150, &article).ok());
      EXPECT_EQ(MappedTables(db) > 0, o == &mapped) << read_only;
    }
    ASSERT_EQ(a.size(), 303u);
    EXPECT_EQ(a, b);
    EXPECT_EQ(a, c);
  }
}

// A table file cut short under a command that reads it through a map (another program
// truncating it) faults with SIGBUS: the command ends with one line naming the database and exit
// code 3, as the same damage found by a read does, not with a core.
TEST(StoreDeathTest, ATableFileCutShortUnderAMappedReadEndsWithExitCode3) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  testing::TempDir tmp;
  const std::string db = tmp.Sub("db");
  const uint32_t ed = WriteArticlesToTables(db, 300);
  EXPECT_EXIT(
      {
        std::unique_ptr<Store> store;
        StoreOptions opts;
        opts.read_only = true;
        opts.map_tables_up_to_bytes = uint64_t{1} << 30;
        if (!Store::Open(opts, db, &store).ok() || !store->tables_mapped()) std::_Exit(90);
        for (const auto& f : std::filesystem::directory_iterator(db))
          if (f.path().extension() == ".sst") std::filesystem::resize_file(f.path(), 0);
        // The child's own directory goes now (a mapped file outlives its name): the fault ends
        // the process before any destructor runs.
        std::filesystem::remove_all(tmp.path());
        Status s = store->ForEachArticle(ed, [](const pb::Article&) { return Status::OK(); });
        std::_Exit(s.ok() ? 91 : 92);  // not reached: the first read of a block faults
      },
      ::testing::ExitedWithCode(3), "aligndb: .*/db: a file read through a memory map .* may be damaged");
}

void ReadWhile(const std::atomic<bool>& writing, const std::string& db, uint32_t ed,
               double patience, ReadCounts* c) {
  while (writing.load()) {
    std::unique_ptr<Store> r;
    StoreOptions opts;
    opts.read_only = true;
    opts.read_only_open_seconds = patience;
    Status s = Store::Open(opts, db, &r);
    EditionCounts counts;
    if (s.ok()) s = r->GetEditionCounts(ed, &counts);
    if (s.ok()) s = r->ForEachArticle(ed, [](const pb::Article&) { return Status::OK(); });
    if (s.ok()) {
      ++c->whole;
    } else if (s.code() == Status::Code::kBusy) {
      ++c->busy;
    } else {
      std::lock_guard<std::mutex> l(c->mu);
      if (c->failures++ == 0) c->first_failure = s.ToString();
    }
    ++c->reads;  // last: a writer waiting for a read sees its outcome counted
  }
}

// Readers open and read while a writer commits and flushes (which deletes write-ahead logs):
// no reader may fail.
TEST(StoreTest, ReadersNeverFailWhileAWriterFlushes) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("testwiki", true, &ed).ok());
  ASSERT_TRUE(store->FlushMemtables().ok());
  std::atomic<bool> writing{true};
  ReadCounts c;
  std::thread r1(ReadWhile, std::cref(writing), tmp.Sub("db"), ed, 30.0, &c);
  std::thread r2(ReadWhile, std::cref(writing), tmp.Sub("db"), ed, 30.0, &c);
  auto writer = store->NewPageWriter();
  for (uint64_t id = 1; id <= 400; ++id) {
    pb::Article a = MakeArticle(id, "T" + std::to_string(id), 1, {{"Words " + std::to_string(id)}});
    ASSERT_TRUE(writer->PutArticle(ed, a).ok());
    if (id % 4 == 0) {
      ASSERT_TRUE(writer->Flush().ok());
      ASSERT_TRUE(store->FlushMemtables().ok());  // a new log; the old one is deleted
      // The readers get turns between flushes even on a loaded machine: the writer waits (at
      // most 50 ms) for one more read to end.
      const int seen = c.reads.load();
      const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(50);
      while (c.reads.load() == seen && std::chrono::steady_clock::now() < until)
        std::this_thread::yield();
    }
  }
  writing = false;
  r1.join();
  r2.join();
  EXPECT_GT(c.reads.load(), 10);
  EXPECT_EQ(c.failures.load() + c.busy.load(), 0) << c.Describe();
}

// A writer that never pauses, with two readers, all on one core: a reader's open is starved
// while the writer flushes and compacts, so files it listed are deleted before it reads them.
void ReadBesideAWriterThatNeverPauses(double patience, ReadCounts* c) {
  cpu_set_t before;
  ASSERT_EQ(sched_getaffinity(0, sizeof(before), &before), 0);
  cpu_set_t one;
  CPU_ZERO(&one);
  for (int k = 0; k < CPU_SETSIZE; ++k)
    if (CPU_ISSET(k, &before)) {
      CPU_SET(k, &one);
      break;
    }
  ASSERT_EQ(sched_setaffinity(0, sizeof(one), &one), 0);  // threads made below inherit it
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  uint32_t ed = 0;
  ASSERT_TRUE(store->EditionId("testwiki", true, &ed).ok());
  ASSERT_TRUE(store->FlushMemtables().ok());
  std::atomic<bool> writing{true};
  std::thread r1(ReadWhile, std::cref(writing), tmp.Sub("db"), ed, patience, c);
  std::thread r2(ReadWhile, std::cref(writing), tmp.Sub("db"), ed, patience, c);
  auto writer = store->NewPageWriter();
  // Until the readers made 20 reads (and, when impatient, one was told busy), at most 1,200 pages.
  for (uint64_t id = 1;
       id <= 1200 && (c->reads.load() < 20 || (patience == 0 && c->busy.load() == 0)); ++id) {
    pb::Article a = MakeArticle(id, "T" + std::to_string(id), 1, {{"Words " + std::to_string(id)}});
    ASSERT_TRUE(writer->PutArticle(ed, a).ok());
    if (id % 4 == 0) {
      ASSERT_TRUE(writer->Flush().ok());
      ASSERT_TRUE(store->FlushMemtables().ok());
    }
  }
  writing = false;
  r1.join();
  r2.join();
  ASSERT_EQ(sched_setaffinity(0, sizeof(before), &before), 0);
}

// A starved reader waits and tries again while the writer is active; it never reports a file
// of the database as damaged. (A stress test: before readers waited, about one run in five on a
// loaded machine ran out of tries and said so.)
TEST(StoreTest, ReadersOnOneCoreNeverSeeDamageBesideAWriterThatNeverPauses) {
  ReadCounts c;
  ReadBesideAWriterThatNeverPauses(30, &c);
  EXPECT_EQ(c.failures.load(), 0) << c.Describe();
  EXPECT_GT(c.whole.load(), 0) << c.Describe();
}

// Without patience, a reader that loses the race says the database is busy (exit 5: try again).
TEST(StoreTest, AnImpatientReaderBesideAWriterIsToldBusyNotDamaged) {
  ReadCounts c;
  ReadBesideAWriterThatNeverPauses(0, &c);
  EXPECT_EQ(c.failures.load(), 0) << c.Describe();
  EXPECT_GT(c.busy.load(), 0) << c.Describe();
}

TEST(IngestTest, StoresExactlyTheNamespaceZeroArticles) {
  TempDir tmp;
  auto store = OpenOrDie(tmp.Sub("db"));
  IngestSummary sum;
  ASSERT_TRUE(Ingest(store.get(),
                     {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                      DataPath("wikidumps/simplewiki-sample.xml.bz2")},
                     {}, &sum)
                  .ok());
  EXPECT_EQ(sum.pages, 213u);
  EXPECT_EQ(sum.added, 112u);
  EXPECT_EQ(sum.redirects, 99u);
  EXPECT_EQ(sum.other_namespace, 2u);
  std::map<std::string, uint32_t> eds;
  ASSERT_TRUE(store->Editions(&eds).ok());
  ASSERT_EQ(eds.size(), 2u);
  EditionCounts en, simple;
  ASSERT_TRUE(store->GetEditionCounts(eds["enwiki"], &en).ok());
  ASSERT_TRUE(store->GetEditionCounts(eds["simplewiki"], &simple).ok());
  EXPECT_EQ(en.articles, 106);
  EXPECT_EQ(en.redirects, 99);
  EXPECT_EQ(simple.articles, 6);
  uint64_t id;
  EXPECT_TRUE(store->FindArticle(eds["simplewiki"], "Wikipedia:Administrators", &id).IsNotFound());
  ASSERT_TRUE(store->FindArticle(eds["enwiki"], "Anarchism", &id).ok());
  EXPECT_EQ(id, 12u);
  pb::Redirect r;
  ASSERT_TRUE(store->GetRedirect(eds["enwiki"], "AccessibleComputing", &r).ok());
  EXPECT_EQ(r.target(), "Computer accessibility");
  ExpectDfMatchesRecount(store.get(), eds["enwiki"]);

  // Ingesting again changes nothing and skips every article.
  IngestSummary again;
  ASSERT_TRUE(
      Ingest(store.get(), {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2")}, {}, &again).ok());
  EXPECT_EQ(again.unchanged, 106u);
  EXPECT_EQ(again.added + again.changed + again.redirects, 0u);
  EditionCounts en2;
  ASSERT_TRUE(store->GetEditionCounts(eds["enwiki"], &en2).ok());
  EXPECT_EQ(en2.paragraphs, en.paragraphs);
  EXPECT_EQ(en2.sentences, en.sentences);
}

}  // namespace
}  // namespace aligndb

// The Xapian paragraph index on real Xapian databases, fed from real RocksDB stores: the queue
// of pages to index, replays after a crash, deletions, and candidates checked against a scan of
// the stored postings.
#include "index/index.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <random>
#include <set>
#include <thread>

#include "storage/store_fixtures.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::MakeArticle;
using testing::OpenOrDie;
using testing::TempDir;
using testing::TermsOf;

class IndexTest : public ::testing::Test {
 protected:
  void SetUp() override {
    store_ = OpenOrDie(tmp_.Sub("db"));
    ASSERT_TRUE(store_->EditionId("testwiki", true, &ed_).ok());
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_.Sub("db")), true, &index_).ok());
  }

  void Put(const pb::Article& a) { ASSERT_TRUE(store_->PutArticle(ed_, a).ok()); }

  uint64_t Apply() {
    uint64_t applied = 0;
    Status s = index_->Apply(store_.get(), ed_, &applied);
    EXPECT_TRUE(s.ok()) << s.ToString();
    return applied;
  }

  // The reference: paragraphs of the stored article that contain one of `tokens`.
  std::vector<uint32_t> ScanCandidates(uint64_t page_id, const std::vector<std::string>& tokens) {
    pb::Article article;
    EXPECT_TRUE(store_->GetArticle(ed_, page_id, &article).ok());
    pb::ArticleTerms terms = TermsOf(article);
    std::vector<uint32_t> out;
    for (int p = 0; p < terms.paragraphs_size(); ++p) {
      const auto& have = terms.paragraphs(p).paragraph().tokens();
      for (const auto& t : tokens)
        if (std::find(have.begin(), have.end(), t) != have.end()) {
          out.push_back(static_cast<uint32_t>(p));
          break;
        }
    }
    return out;
  }

  TempDir tmp_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<ParagraphIndex> index_;
  uint32_t ed_ = 0;
};

TEST_F(IndexTest, ApplyDrainsTheQueueAndIndexesEveryParagraphOnce) {
  Put(MakeArticle(1, "Whale", 1, {{"Whales are large."}, {"They eat krill.", "Krill is small."}}));
  Put(MakeArticle(2, "Cat", 1, {{"Cats purr."}}));
  // No index was ever built for the database: nothing is queued, the first Apply builds the
  // index from every stored page.
  std::vector<uint64_t> pending;
  ASSERT_TRUE(store_->PendingIndexPages(ed_, 100, &pending).ok());
  EXPECT_TRUE(pending.empty());

  EXPECT_EQ(Apply(), 2u);
  EXPECT_TRUE(index_->rebuilt());
  EXPECT_EQ(index_->DocumentCount(), 3u);
  ASSERT_TRUE(store_->PendingIndexPages(ed_, 100, &pending).ok());
  EXPECT_TRUE(pending.empty());
  EXPECT_EQ(Apply(), 0u);

  // Now that the database has an index, written pages are queued for it.
  Put(MakeArticle(3, "Dog", 1, {{"Dogs bark."}}));
  ASSERT_TRUE(store_->PendingIndexPages(ed_, 100, &pending).ok());
  EXPECT_EQ(pending, (std::vector<uint64_t>{3}));
  EXPECT_EQ(Apply(), 1u);
  EXPECT_EQ(index_->DocumentCount(), 4u);

  std::vector<uint32_t> got;
  ASSERT_TRUE(index_->Candidates(ed_, 1, {"krill"}, &got).ok());
  EXPECT_EQ(got, (std::vector<uint32_t>{1}));
  ASSERT_TRUE(index_->Candidates(ed_, 2, {"krill"}, &got).ok());  // filtered to its article
  EXPECT_TRUE(got.empty());
}

TEST_F(IndexTest, ReplayAfterACrashBeforeTheQueueIsClearedAddsNothingTwice) {
  Put(MakeArticle(1, "Whale", 1, {{"Whales are large."}, {"They eat krill."}}));
  EXPECT_EQ(Apply(), 1u);
  // As if the process died after the Xapian commit but before the queue entries were deleted:
  // the page is queued again (an unchanged re-put queues it too).
  Put(MakeArticle(1, "Whale", 1, {{"Whales are large."}, {"They eat krill."}}));
  EXPECT_EQ(Apply(), 1u);
  EXPECT_EQ(index_->DocumentCount(), 2u);
}

TEST_F(IndexTest, NewRevisionReplacesAndDeletionRemovesDocuments) {
  Put(MakeArticle(1, "Whale", 1, {{"Whales are large."}, {"They eat krill."}, {"Blue whale."}}));
  Apply();
  EXPECT_EQ(index_->DocumentCount(), 3u);
  Put(MakeArticle(1, "Whale", 2, {{"Whales eat plankton."}}));
  Apply();
  EXPECT_EQ(index_->DocumentCount(), 1u);
  std::vector<uint32_t> got;
  ASSERT_TRUE(index_->Candidates(ed_, 1, {"krill", "blue"}, &got).ok());
  EXPECT_TRUE(got.empty());  // the old paragraphs are gone
  ASSERT_TRUE(index_->Candidates(ed_, 1, {"plankton"}, &got).ok());
  EXPECT_EQ(got, (std::vector<uint32_t>{0}));

  ASSERT_TRUE(store_->DeletePage(ed_, 1).ok());
  EXPECT_EQ(Apply(), 1u);
  EXPECT_EQ(index_->DocumentCount(), 0u);
}

TEST_F(IndexTest, OverlongTokensAreLeftOutButTheParagraphStaysIndexed) {
  std::string huge(300, 'x');
  Put(MakeArticle(1, "Long", 1, {{huge + " short"}}));
  Apply();
  std::vector<uint32_t> got;
  ASSERT_TRUE(index_->Candidates(ed_, 1, {huge}, &got).ok());
  EXPECT_TRUE(got.empty());
  ASSERT_TRUE(index_->Candidates(ed_, 1, {"short"}, &got).ok());
  EXPECT_EQ(got, (std::vector<uint32_t>{0}));
}

TEST_F(IndexTest, CandidatesAndArticleIndexAgreeWithAScanOnRandomArticles) {
  std::mt19937 rng(7);
  const std::vector<std::string> words = {"alpha",  "beta", "gamma", "delta", "epsilon",
                                          "zeta",   "eta",  "theta", "iota",  "kappa",
                                          "lambda", "mu",   "nu",    "xi",    "omicron"};
  for (uint64_t id = 1; id <= 20; ++id) {
    std::vector<std::vector<std::string>> paras(1 + rng() % 6);
    for (auto& p : paras) {
      std::string s;
      for (int k = 0; k < 1 + static_cast<int>(rng() % 5); ++k)
        s += words[rng() % words.size()] + " ";
      p.push_back(s + ".");
    }
    Put(MakeArticle(id, "T" + std::to_string(id), 1, paras));
  }
  Apply();
  for (int trial = 0; trial < 200; ++trial) {
    uint64_t id = 1 + rng() % 20;
    std::vector<std::string> query;
    for (int k = 0; k < 1 + static_cast<int>(rng() % 3); ++k)
      query.push_back(words[rng() % words.size()]);
    std::vector<uint32_t> got;
    ASSERT_TRUE(index_->Candidates(ed_, id, query, &got).ok());
    EXPECT_EQ(got, ScanCandidates(id, query)) << "page " << id;
    std::unordered_map<std::string, std::vector<uint32_t>> by_token;
    ASSERT_TRUE(index_->ArticleIndex(ed_, id, &by_token).ok());
    std::set<uint32_t> merged;
    for (const auto& t : query)
      if (by_token.count(t)) merged.insert(by_token[t].begin(), by_token[t].end());
    EXPECT_EQ(std::vector<uint32_t>(merged.begin(), merged.end()), got);
  }
}

// ForEachArticleToken gives every paragraph document (also one without tokens) with its distinct
// tokens, as the stored article has them; readers from NewReader, one per thread, see the
// committed index and answer alike while used at the same time.
TEST_F(IndexTest, ArticleTokensThroughReadersOnSeveralThreadsEqualTheStoredArticle) {
  std::mt19937 rng(11);
  const std::vector<std::string> words = {"alpha", "beta", "gamma", "delta", "epsilon",
                                          "zeta",  "eta",  "theta", "iota",  "kappa"};
  const uint64_t pages = 30;
  for (uint64_t id = 1; id <= pages; ++id) {
    std::vector<std::vector<std::string>> paras(1 + rng() % 6);
    for (auto& p : paras) {
      std::string s;
      for (int k = 0; k < static_cast<int>(rng() % 6); ++k) s += words[rng() % words.size()] + " ";
      p.push_back(s + ".");  // sometimes "." alone: a paragraph without tokens
    }
    Put(MakeArticle(id, "T" + std::to_string(id), 1, paras));
  }
  Apply();
  // The reference: (paragraph, token) pairs of the stored article, from its text.
  using Pairs = std::set<std::pair<uint32_t, std::string>>;
  std::vector<Pairs> want(pages + 1);
  std::vector<uint32_t> want_paragraphs(pages + 1);
  int empty = 0;
  for (uint64_t id = 1; id <= pages; ++id) {
    pb::Article a;
    ASSERT_TRUE(store_->GetArticle(ed_, id, &a).ok());
    pb::ArticleTerms terms = TermsOf(a);
    want_paragraphs[id] = static_cast<uint32_t>(terms.paragraphs_size());
    for (int p = 0; p < terms.paragraphs_size(); ++p) {
      empty += terms.paragraphs(p).paragraph().tokens().empty();
      for (const auto& t : terms.paragraphs(p).paragraph().tokens())
        want[id].emplace(static_cast<uint32_t>(p), t);
    }
  }
  EXPECT_GT(empty, 0);
  auto read = [&](ParagraphIndex* index, uint64_t id, Pairs* got, uint32_t* paragraphs) {
    got->clear();
    return index->ForEachArticleToken(
        ed_, id, [&](uint32_t p, std::string_view t) { got->emplace(p, std::string(t)); },
        paragraphs);
  };
  std::vector<std::unique_ptr<ParagraphIndex>> readers(4);
  for (auto& r : readers) ASSERT_TRUE(index_->NewReader(&r).ok());
  std::vector<int> mismatches(readers.size(), 0);
  std::vector<std::thread> threads;
  for (size_t k = 0; k < readers.size(); ++k)
    threads.emplace_back([&, k] {
      for (int round = 0; round < 20; ++round)
        for (uint64_t id = 1; id <= pages; ++id) {
          Pairs got;
          uint32_t paragraphs = 0;
          if (!read(readers[k].get(), id, &got, &paragraphs).ok() || got != want[id] ||
              paragraphs != want_paragraphs[id])
            ++mismatches[k];
        }
    });
  for (auto& t : threads) t.join();
  EXPECT_EQ(mismatches, std::vector<int>(readers.size(), 0));
  Pairs got;
  uint32_t paragraphs = 0;
  ASSERT_TRUE(read(index_.get(), pages + 1, &got, &paragraphs).ok());  // no such article
  EXPECT_TRUE(got.empty());
  EXPECT_EQ(paragraphs, 0u);
}

// ------------------------------------------------------------------ an index that does not
// belong to its store is rebuilt from the store, never trusted

class DerivedIndexTest : public IndexTest {
 protected:
  void SetUp() override {
    IndexTest::SetUp();
    Put(MakeArticle(1, "Whale", 1, {{"Whales are large."}, {"They eat krill."}}));
    Put(MakeArticle(2, "Cat", 1, {{"Cats purr."}, {"Cats sleep."}, {"Cats hunt mice."}}));
    EXPECT_EQ(Apply(), 2u);  // a new index is built from the store too
  }
  void Reopen() {
    index_.reset();
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_.Sub("db")), true, &index_).ok());
  }
  // Every paragraph of every stored article is found through the index.
  void ExpectComplete(uint64_t paragraphs) {
    EXPECT_EQ(index_->DocumentCount(), paragraphs);
    std::vector<uint32_t> got;
    ASSERT_TRUE(index_->Candidates(ed_, 2, {"mice"}, &got).ok());
    EXPECT_EQ(got, (std::vector<uint32_t>{2}));
  }
};

TEST_F(DerivedIndexTest, AMissingIndexIsRebuilt) {
  std::filesystem::remove_all(IndexDir(tmp_.Sub("db")));
  Reopen();  // creates an empty index
  EXPECT_EQ(Apply(), 2u);
  EXPECT_TRUE(index_->rebuilt());
  ExpectComplete(5);
  // Now it belongs: the next Apply has nothing to do.
  Reopen();
  EXPECT_EQ(Apply(), 0u);
  EXPECT_FALSE(index_->rebuilt());
}

TEST_F(DerivedIndexTest, AnIndexOfAnotherDatabaseIsRebuilt) {
  auto other = OpenOrDie(tmp_.Sub("other"));
  uint32_t other_ed = 0;
  ASSERT_TRUE(other->EditionId("testwiki", true, &other_ed).ok());
  pb::Article a = MakeArticle(2, "Dog", 1, {{"Dogs bark."}});
  ASSERT_TRUE(other->PutArticle(other_ed, a).ok());
  {
    std::unique_ptr<ParagraphIndex> other_index;
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_.Sub("other")), true, &other_index).ok());
    uint64_t applied = 0;
    ASSERT_TRUE(other_index->Apply(other.get(), other_ed, &applied).ok());
  }
  index_.reset();
  std::filesystem::remove_all(IndexDir(tmp_.Sub("db")));
  std::filesystem::copy(IndexDir(tmp_.Sub("other")), IndexDir(tmp_.Sub("db")));
  Reopen();
  Apply();
  EXPECT_TRUE(index_->rebuilt());
  ExpectComplete(5);
  std::vector<uint32_t> got;
  ASSERT_TRUE(index_->Candidates(ed_, 2, {"bark"}, &got).ok());
  EXPECT_TRUE(got.empty());  // nothing of the other database is left
}

TEST_F(DerivedIndexTest, AnOlderCopyOfTheIndexIsRebuilt) {
  index_.reset();
  std::filesystem::copy(IndexDir(tmp_.Sub("db")), tmp_.Sub("backup"));
  Reopen();
  Put(MakeArticle(2, "Cat", 2, {{"Cats purr."}, {"Cats hunt mice."}}));
  EXPECT_EQ(Apply(), 1u);
  // The index restored from the backup misses the new revision, and the queue is empty.
  index_.reset();
  std::filesystem::remove_all(IndexDir(tmp_.Sub("db")));
  std::filesystem::copy(tmp_.Sub("backup"), IndexDir(tmp_.Sub("db")));
  Reopen();
  Apply();
  EXPECT_TRUE(index_->rebuilt());
  EXPECT_EQ(index_->DocumentCount(), 4u);
  std::vector<uint32_t> got;
  ASSERT_TRUE(index_->Candidates(ed_, 2, {"mice"}, &got).ok());
  EXPECT_EQ(got, (std::vector<uint32_t>{1}));  // the new revision's paragraph
}

TEST_F(IndexTest, ReadOnlyOpenOfAMissingIndexIsNotFoundAndApplyNeedsAWriter) {
  std::unique_ptr<ParagraphIndex> ro;
  EXPECT_TRUE(ParagraphIndex::Open(tmp_.Sub("nothing"), false, &ro).IsNotFound());
  index_.reset();
  ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_.Sub("db")), false, &ro).ok());
  uint64_t applied = 0;
  EXPECT_EQ(ro->Apply(store_.get(), ed_, &applied).code(), Status::Code::kInvalidArgument);
}

}  // namespace
}  // namespace aligndb

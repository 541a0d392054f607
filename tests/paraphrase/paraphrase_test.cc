// L12 and F2 (docs/method.md, News paraphrases) on hand-made clusters, one rule at a time, and the
// whole command.
#include "paraphrase/paraphrase.h"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "eval/eval.h"
#include "test_util.h"

namespace aligndb {
namespace {

ClusterDocument Doc(const std::string& title, std::vector<std::string> sentences) {
  ClusterDocument d;
  d.title = title;
  d.sentences = std::move(sentences);
  for (size_t i = 0; i < d.sentences.size(); ++i) d.positions.emplace_back(0, i);
  return d;
}

// The slow, obviously correct L12 and F2 (sentence pairs keyed by their words as strings),
// to compare the fast ones with.
std::string RefJoined(const std::vector<std::string>& w) {
  std::string s;
  for (auto& x : w) s += x + ' ';
  return s;
}

std::vector<ParaphrasePair> RefL12(const std::vector<ClusterDocument>& docs, int max_distance) {
  struct S {
    size_t d, s;
    std::vector<std::string> w;
  };
  std::vector<S> all;
  for (size_t d = 0; d < docs.size(); ++d)
    for (size_t s = 0; s < docs[d].sentences.size(); ++s)
      all.push_back({d, s, ParaphraseWords(docs[d].sentences[s])});
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<ParaphrasePair> out;
  for (size_t i = 0; i < all.size(); ++i)
    for (size_t j = i + 1; j < all.size(); ++j) {
      std::string a = RefJoined(all[i].w), b = RefJoined(all[j].w);
      if (a == b) continue;
      size_t sh = std::min(all[i].w.size(), all[j].w.size()),
             lo = std::max(all[i].w.size(), all[j].w.size());
      if (3 * sh < 2 * lo) continue;
      if (!seen.insert(std::minmax(a, b)).second) continue;
      size_t dist = WordEditDistance(all[i].w, all[j].w);
      if (dist > static_cast<size_t>(max_distance)) continue;
      out.push_back({all[i].d, all[j].d, all[i].s, all[j].s, static_cast<double>(dist)});
    }
  return out;
}

std::vector<ParaphrasePair> RefF2(const std::vector<ClusterDocument>& docs) {
  std::set<std::pair<std::string, std::string>> seen;
  std::vector<ParaphrasePair> out;
  for (size_t da = 0; da < docs.size(); ++da)
    for (size_t db = da + 1; db < docs.size(); ++db)
      for (size_t sa = 0; sa < std::min<size_t>(2, docs[da].sentences.size()); ++sa)
        for (size_t sb = 0; sb < std::min<size_t>(2, docs[db].sentences.size()); ++sb) {
          auto wa = ParaphraseWords(docs[da].sentences[sa]);
          auto wb = ParaphraseWords(docs[db].sentences[sb]);
          std::set<std::string> la, lb;
          for (auto& w : wa)
            if (w.size() >= 4) la.insert(w);  // ASCII words below: bytes are code points
          for (auto& w : wb)
            if (w.size() >= 4) lb.insert(w);
          size_t shared = 0;
          for (auto& w : la) shared += lb.count(w);
          if (shared < 3 || 2 * std::min(wa.size(), wb.size()) < std::max(wa.size(), wb.size()))
            continue;
          if (!seen.insert(std::minmax(RefJoined(wa), RefJoined(wb))).second) continue;
          out.push_back({da, db, sa, sb, static_cast<double>(shared)});
        }
  return out;
}

bool SamePairs(const std::vector<ParaphrasePair>& a, const std::vector<ParaphrasePair>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i)
    if (a[i].doc_a != b[i].doc_a || a[i].doc_b != b[i].doc_b || a[i].sent_a != b[i].sent_a ||
        a[i].sent_b != b[i].sent_b || a[i].score != b[i].score)
      return false;
  return true;
}

// Random clusters from a small vocabulary, so that repeats, near-repeats and duplicates abound.
std::vector<ClusterDocument> RandomCluster(std::mt19937* rng, size_t docs, size_t sentences) {
  static const char* kWords[] = {"storm", "coast", "river", "town",  "said", "people",
                                 "the",   "of",    "rain",  "flood", "city", "Monday"};
  std::vector<ClusterDocument> out;
  for (size_t d = 0; d < docs; ++d) {
    std::vector<std::string> ss;
    size_t n = 1 + (*rng)() % sentences;
    for (size_t s = 0; s < n; ++s) {
      std::string t;
      size_t len = 3 + (*rng)() % 6;
      for (size_t w = 0; w < len; ++w) t += std::string(kWords[(*rng)() % 12]) + " ";
      ss.push_back(t + ".");
    }
    out.push_back(Doc("r/" + std::to_string(d), ss));
  }
  return out;
}

TEST(L12Test, SameAsReferenceOnRandomClusters) {
  std::mt19937 rng(7);
  for (int round = 0; round < 40; ++round) {
    auto docs = RandomCluster(&rng, 2 + rng() % 8, 5);
    int maxd = static_cast<int>(rng() % 6);
    ParaphraseCounts c, f;
    EXPECT_TRUE(SamePairs(L12Pairs(docs, maxd, &c), RefL12(docs, maxd))) << round;
    EXPECT_TRUE(SamePairs(F2Pairs(docs, &f), RefF2(docs))) << round;
    EXPECT_EQ(c.capped_clusters + f.capped_clusters, 0u);
  }
}

// One cluster of 3,000 documents × 5 sentences was 112 million candidate pairs (gigabytes of
// seen pairs, minutes of work): the per-cluster cap bounds it, and says what it skipped.
TEST(L12Test, SentenceCapBoundsOneCluster) {
  std::mt19937 rng(3);
  auto docs = RandomCluster(&rng, 3000, 5);
  size_t total = 0;
  for (auto& d : docs) total += d.sentences.size();
  ParaphraseCounts c;
  auto pairs = L12Pairs(docs, 12, &c, 300);
  EXPECT_EQ(c.candidates, 300u * 299 / 2);
  EXPECT_EQ(c.capped_clusters, 1u);
  EXPECT_EQ(c.skipped_sentences, total - 300);
  // The kept pairs are those of the first 300 sentences, as if the cluster ended there.
  std::vector<ClusterDocument> head;
  size_t left = 300;
  for (auto& d : docs) {
    if (left == 0) break;
    auto h = d;
    if (h.sentences.size() > left) h.sentences.resize(left);
    left -= h.sentences.size();
    head.push_back(h);
  }
  EXPECT_TRUE(SamePairs(pairs, RefL12(head, 12)));
  ParaphraseCounts f;
  F2Pairs(docs, &f, 300);
  EXPECT_LE(f.candidates, 300u * 299 / 2);
  EXPECT_EQ(f.capped_clusters, 1u);
  size_t first_two = 0;
  for (auto& d : docs) first_two += std::min<size_t>(2, d.sentences.size());
  EXPECT_EQ(f.skipped_sentences, first_two - 300);
}

TEST(L12Test, EveryRule) {
  std::vector<ClusterDocument> docs = {
      Doc("c/a", {"The storm hit the coast on Monday.",  // 0
                  "Officials said ten people died.",     // 1
                  "A short one."}),                      // 2
      Doc("c/b",
          {"the storm hit the coast on monday!",  // 3: only case and punctuation differ from 0
           "Officials said that ten people had died.",  // 4: distance 2 from 1
           "Officials said that ten people had died.",  // 5: same as 4 → duplicate of (1,4)
           "Rescue teams searched the flooded streets of the old town for survivors all night long "
           "while the rain kept falling on the region and roads were closed."}),  // 6: long
  };
  ParaphraseCounts c;
  auto pairs = L12Pairs(docs, 12, &c);
  EXPECT_EQ(c.candidates, 21u);  // 7 sentences: 7·6/2
  EXPECT_EQ(c.identical, 2u);    // (0,3) and (4,5)
  ASSERT_EQ(pairs.size(), c.kept);
  // Kept: (1,4) at distance 2; (1,5) is the same pair again → duplicate.
  bool found = false;
  for (auto& p : pairs)
    if (p.doc_a == 0 && p.sent_a == 1 && p.doc_b == 1 && p.sent_b == 1) {
      found = true;
      EXPECT_EQ(p.score, 2.0);
    }
  EXPECT_TRUE(found);
  EXPECT_GE(c.duplicate, 1u);
  EXPECT_GT(c.length_ratio, 0u);  // e.g. "A short one." (3 words) against 6-word sentences
  for (auto& p : pairs) EXPECT_LE(p.score, 12.0);
  EXPECT_EQ(c.candidates, c.identical + c.length_ratio + c.duplicate + c.too_distant + c.kept);

  // The 2/3 rule at its edge: 6 words against 9 is kept (6·3 = 18 = 2·9), 5 against 8 is not.
  ParaphraseCounts e;
  auto edge = L12Pairs({Doc("x/a", {"one two three four five six", "one two three four five"}),
                        Doc("x/b", {"one two three four five six seven eight nine",
                                    "one two three four five six seven eight"})},
                       12, &e);
  bool six_nine = false, five_eight = false;
  for (auto& p : edge) {
    if (p.sent_a == 0 && p.doc_b == 1 && p.sent_b == 0) six_nine = true;
    if (p.doc_a == 0 && p.sent_a == 1 && p.doc_b == 1 && p.sent_b == 1) five_eight = true;
  }
  EXPECT_TRUE(six_nine);
  EXPECT_FALSE(five_eight);

  // The distance limit: 13 substitutions are too many at 12, fine at 13.
  std::string a = "a b c d e f g h i j k l m n", b = "a B C D E F G H I J K L M N";
  for (char& ch : b)
    if (ch != ' ' && ch != 'a') ch = static_cast<char>(ch + 13);  // other letters
  ParaphraseCounts d12, d13;
  EXPECT_TRUE(L12Pairs({Doc("y/a", {a}), Doc("y/b", {b})}, 12, &d12).empty());
  EXPECT_EQ(d12.too_distant, 1u);
  EXPECT_EQ(L12Pairs({Doc("y/a", {a}), Doc("y/b", {b})}, 13, &d13).size(), 1u);
}

TEST(F2Test, EveryRule) {
  std::vector<ClusterDocument> docs = {
      Doc("c/a",
          {"Heavy storms flooded coastal towns across the region on Monday.",
           "Emergency services rescued hundreds of residents.", "Third sentence is never used."}),
      Doc("c/b",
          {"Coastal towns across the region were flooded by heavy storms.",  // ≥3 shared long words
           "It rained."}),  // length rule / few words
      Doc("c/c", {"Heavy storms flooded coastal towns across the region on Monday."}),  // same as
                                                                                        // a's first
  };
  ParaphraseCounts c;
  auto pairs = F2Pairs(docs, &c);
  // Candidates: a×b 2·2, a×c 2·1, b×c 2·1 = 8.
  EXPECT_EQ(c.candidates, 8u);
  bool ab = false, ac = false, third = false;
  for (auto& p : pairs) {
    if (p.doc_a == 0 && p.sent_a == 0 && p.doc_b == 1 && p.sent_b == 0) {
      ab = true;
      EXPECT_GE(p.score, 3.0);
    }
    if (p.doc_a == 0 && p.sent_a == 0 && p.doc_b == 2) ac = true;
    if (p.sent_a == 2 || p.sent_b == 2) third = true;
  }
  EXPECT_TRUE(ab);
  EXPECT_TRUE(ac);      // F2 has no identity rule
  EXPECT_FALSE(third);  // only the first two sentences
  // b/0 × c/0 is the same sentence pair as a/0 × b/0 (a/0 = c/0): a duplicate.
  EXPECT_EQ(c.duplicate, 1u);
  EXPECT_GT(c.few_shared_words, 0u);
  EXPECT_EQ(c.candidates, c.length_ratio + c.duplicate + c.few_shared_words + c.kept);
  // The 1/2 rule: 4 shared long words, 5 words against 11 → dropped.
  ParaphraseCounts h;
  auto half = F2Pairs(
      {Doc("z/a", {"storms flooded coastal towns today"}),
       Doc("z/b", {"storms flooded coastal towns across the whole region on a grey Monday"})},
      &h);
  EXPECT_TRUE(half.empty());
  EXPECT_EQ(h.length_ratio, 1u);
}

TEST(ParaphraseCliTest, ClustersIngestExtractExportStats) {
  testing::TempDir tmp;
  testing::WriteFile(
      tmp.Sub("clusters.jsonl"),
      R"({"cluster": "storm", "doc": "ap", "sentences": ["Officials said ten people died.", "The storm hit the coast."]})"
      "\n"
      R"({"cluster": "storm", "doc": "reuters", "text": "Officials said that ten people had died. The storm hit the coast on Monday."})"
      "\n"
      R"({"cluster": "vote", "doc": "ap", "sentences": ["The vote was held on Sunday."]})"
      "\n");
  std::string db = tmp.Sub("db");
  auto r =
      testing::RunAligndb({"ingest", "--db", db, "--edition", "news", tmp.Sub("clusters.jsonl")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = testing::RunAligndb({"paraphrase", "--db", db, "--method", "l12", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["clusters"], 2);
  EXPECT_EQ(j["documents"], 3);
  EXPECT_GE(j["pairs"].get<int>(), 2);
  EXPECT_FALSE(j.contains("skipped_sentences"));  // the cap did not apply
  // With a cap of 2 sentences per cluster, the storm cluster's other 2 sentences are counted.
  r = testing::RunAligndb(
      {"paraphrase", "--db", db, "--method", "l12", "--json", "--max-cluster-sentences", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto capped = nlohmann::json::parse(r.out);
  EXPECT_EQ(capped["capped_clusters"], 1);
  EXPECT_EQ(capped["skipped_sentences"], 2);
  EXPECT_EQ(capped["candidates"], 1);  // storm: 1 pair of its first 2; vote: 1 sentence
  r = testing::RunAligndb({"paraphrase", "--db", db, "--max-cluster-sentences", "2"});
  EXPECT_NE(r.out.find("2 sentences past the cap"), std::string::npos) << r.out;
  r = testing::RunAligndb({"paraphrase", "--db", db, "--method", "l12", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = testing::RunAligndb({"export", "--db", db, "--collection", "news", "--format", "jsonl"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream lines(r.out);
  std::string line;
  bool found = false;
  while (std::getline(lines, line)) {
    auto p = nlohmann::json::parse(line);
    EXPECT_EQ(p["op"], "l12");
    if (p["normal"] == "Officials said ten people died." &&
        p["simple"] == "Officials said that ten people had died.") {
      found = true;
      EXPECT_EQ(p["similarity"], 2.0);  // the edit distance
      EXPECT_EQ(p["normal_title"], "storm/ap");
    }
  }
  EXPECT_TRUE(found) << r.out;
  r = testing::RunAligndb({"stats", "--db", db, "--collection", "news", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto st = nlohmann::json::parse(r.out);
  EXPECT_GT(st["l12"]["mean_edit_distance"].get<double>(), 0);
  EXPECT_GT(st["l12"]["mean_length_words"].get<double>(), 3);
  // A bad cluster line names its line.
  testing::WriteFile(tmp.Sub("bad.jsonl"), R"({"cluster": "x", "sentences": ["a"]})"
                                           "\n");
  r = testing::RunAligndb({"ingest", "--db", db, "--edition", "news", tmp.Sub("bad.jsonl")});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("line 1: a cluster document needs"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace aligndb

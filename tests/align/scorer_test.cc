// PairScorer: one interface over every sentence similarity, checked against the measures it
// stands for (the TF-IDF formula written out, and the embedding measures called directly).
#include "align/scorer.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <random>
#include <set>

#include "embed/word_similarity.h"
#include "test_util.h"

namespace aligndb {
namespace {

// TF-IDF cosine straight from the definition: idf(t) = ln(N / df(t)) over the fitted documents,
// weight = count · idf, cosine of the two weight vectors (0 for a zero vector).
double SlowTfidf(const std::vector<Tokens>& docs, const Tokens& a, const Tokens& b) {
  std::map<std::string, double> df;
  for (const auto& d : docs)
    for (const auto& t : std::set<std::string>(d.begin(), d.end())) df[t] += 1;
  auto weights = [&](const Tokens& x) {
    std::map<std::string, double> w;
    for (const auto& t : x)
      w[t] += df.count(t) ? std::log(static_cast<double>(docs.size()) / df[t]) : 0.0;
    return w;
  };
  auto wa = weights(a), wb = weights(b);
  double dot = 0, na = 0, nb = 0;
  for (auto& [t, v] : wa) {
    na += v * v;
    if (wb.count(t)) dot += v * wb[t];
  }
  for (auto& [t, v] : wb) nb += v * v;
  return na == 0 || nb == 0 ? 0.0 : dot / std::sqrt(na * nb);
}

TEST(PairScorerTest, TfidfEqualsTheFormulaOnRandomDocuments) {
  std::mt19937 rng(11);
  const std::vector<std::string> vocab = {"a", "b", "c", "d", "e", "f", "g"};
  for (int round = 0; round < 100; ++round) {
    std::vector<Tokens> docs(2 + rng() % 6);
    for (auto& d : docs)
      for (size_t k = rng() % 6; k > 0; --k) d.push_back(vocab[rng() % vocab.size()]);
    std::vector<const Tokens*> ptrs;
    for (const auto& d : docs) ptrs.push_back(&d);
    std::unique_ptr<PairScorer> s;
    ASSERT_TRUE(PairScorer::Create(SimilarityMeasure::kTfidf, nullptr, 0, &s).ok());
    s->FitIdf(ptrs);
    const Tokens& x = docs[rng() % docs.size()];
    const Tokens& y = docs[rng() % docs.size()];
    EXPECT_NEAR(s->Score(x, y), SlowTfidf(docs, x, y), 1e-9);
  }
}

TEST(PairScorerTest, EmbeddingMeasuresAreTheEmbeddingFunctions) {
  std::unique_ptr<WordSimilaritySet> words;
  ASSERT_TRUE(
      WordSimilaritySet::Open(testing::DataPath("vectors/lee_fasttext.vec"), "-", "", &words)
          .ok());
  const Tokens x = {"the", "government", "said", "on", "monday"};
  const Tokens y = {"officials", "said", "the", "government", "would", "act"};
  const std::pair<SimilarityMeasure, EmbeddingMethod> measures[] = {
      {SimilarityMeasure::kAverage, EmbeddingMethod::kAverage},
      {SimilarityMeasure::kMaximum, EmbeddingMethod::kMaximum},
      {SimilarityMeasure::kHungarian, EmbeddingMethod::kHungarian},
      {SimilarityMeasure::kWmd, EmbeddingMethod::kWmd},
      {SimilarityMeasure::kAdditive, EmbeddingMethod::kAdditive}};
  for (auto [measure, method] : measures) {
    std::unique_ptr<PairScorer> s;
    ASSERT_TRUE(PairScorer::Create(measure, words.get(), 0.3, &s).ok());
    EXPECT_EQ(s->measure(), measure);
    EXPECT_DOUBLE_EQ(s->Score(x, y), EmbeddingSimilarity(*words, method, x, y, 0.3))
        << SimilarityMeasureName(measure);
  }
}

TEST(PairScorerTest, EmbeddingMeasuresNeedWordSimilarity) {
  std::unique_ptr<PairScorer> s;
  Status st = PairScorer::Create(SimilarityMeasure::kWmd, nullptr, 0, &s);
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_NE(st.message().find("wmd"), std::string::npos) << st.message();
}

}  // namespace
}  // namespace aligndb

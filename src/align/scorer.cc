#include "align/scorer.h"

#include <cmath>
#include <map>
#include <set>

#include "align/similarity.h"

namespace aligndb {

namespace {

EmbeddingMethod EmbeddingMethodOf(SimilarityMeasure m) {
  switch (m) {
    case SimilarityMeasure::kAverage:
      return EmbeddingMethod::kAverage;
    case SimilarityMeasure::kHungarian:
      return EmbeddingMethod::kHungarian;
    case SimilarityMeasure::kWmd:
      return EmbeddingMethod::kWmd;
    case SimilarityMeasure::kAdditive:
      return EmbeddingMethod::kAdditive;
    case SimilarityMeasure::kMatrix:
      return EmbeddingMethod::kMatrix;
    case SimilarityMeasure::kMaximum:
    case SimilarityMeasure::kTfidf:
      break;
  }
  return EmbeddingMethod::kMaximum;
}

}  // namespace

Status PairScorer::Create(SimilarityMeasure measure, const WordSimilarity* vectors, double theta,
                          std::unique_ptr<PairScorer>* out) {
  auto s = std::unique_ptr<PairScorer>(new PairScorer());
  s->measure_ = measure;
  s->theta_ = theta;
  if (measure != SimilarityMeasure::kTfidf) {
    s->embedding_ = EmbeddingMethodOf(measure);
    if (!vectors)
      return Status::InvalidArgument(std::string("similarity \"") + SimilarityMeasureName(measure) +
                                     "\" needs --vectors FILE");
    if (s->embedding_ == EmbeddingMethod::kAdditive && !vectors->vectors())
      return Status::InvalidArgument(
          "similarity \"additive\" sums word vectors: it needs --vectors FILE (a lexicon has "
          "none)");
    s->vectors_ = vectors;
  }
  *out = std::move(s);
  return Status::OK();
}

void PairScorer::FitIdf(const std::vector<const Tokens*>& documents) {
  std::map<std::string, int64_t> df;
  for (const Tokens* d : documents)
    for (const auto& t : std::set<std::string>(d->begin(), d->end())) ++df[t];
  idf_.clear();
  double n = static_cast<double>(documents.size());
  for (auto& [t, c] : df) idf_[t] = std::log(n / static_cast<double>(c));
}

double PairScorer::Score(const Tokens& a, const Tokens& b) const {
  if (measure_ != SimilarityMeasure::kTfidf)
    return EmbeddingSimilarity(*vectors_, embedding_, a, b, theta_);
  return BagCosine(a, b, idf_);
}

}  // namespace aligndb

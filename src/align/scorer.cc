#include "align/scorer.h"

#include <cmath>
#include <map>
#include <set>

#include "align/similarity.h"

namespace aligndb {

Status PairScorer::Create(const std::string& method, const WordVectors* vectors, double theta,
                          std::unique_ptr<PairScorer>* out) {
  auto s = std::unique_ptr<PairScorer>(new PairScorer());
  s->method_ = method;
  s->theta_ = theta;
  if (method != "tfidf") {
    if (!ParseEmbeddingMethod(method, &s->embedding_))
      return Status::InvalidArgument(
          "unknown similarity \"" + method +
          "\" (use tfidf, average, maximum, hungarian, wmd or additive)");
    if (!vectors)
      return Status::InvalidArgument("similarity \"" + method + "\" needs --vectors FILE");
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
  if (method_ != "tfidf") return EmbeddingSimilarity(*vectors_, embedding_, a, b, theta_);
  return BagCosine(a, b, idf_);
}

}  // namespace aligndb

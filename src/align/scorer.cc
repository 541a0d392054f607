#include "align/scorer.h"

#include <cmath>
#include <map>
#include <set>

namespace aligndb {

Status PairScorer::Create(const std::string& method, const WordSimilarity* vectors, double theta,
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
  if (method_ != "tfidf") return EmbeddingSimilarity(*vectors_, embedding_, a, b, theta_);
  std::map<std::string, double> va, vb;
  auto idf = [&](const std::string& t) {
    auto it = idf_.find(t);
    return it == idf_.end() ? 0.0 : it->second;
  };
  for (const auto& t : a) va[t] += idf(t);
  for (const auto& t : b) vb[t] += idf(t);
  double dot = 0, na = 0, nb = 0;
  for (auto& [t, w] : va) {
    na += w * w;
    auto it = vb.find(t);
    if (it != vb.end()) dot += w * it->second;
  }
  for (auto& [t, w] : vb) nb += w * w;
  if (na == 0 || nb == 0) return 0.0;
  return std::min(1.0, dot / std::sqrt(na * nb));
}

}  // namespace aligndb

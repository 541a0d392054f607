// One interface over every sentence similarity of aligndb: SPEC §4's TF-IDF cosine and SPEC §5's
// embedding measures. Used to score sentence pairs from files and, in the aligner, to fill the
// similarity matrix of the dynamic program.
#ifndef ALIGNDB_ALIGN_SCORER_H_
#define ALIGNDB_ALIGN_SCORER_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "embed/embeddings.h"
#include "aligndb/status.h"

namespace aligndb {

class PairScorer {
 public:
  // `method`: tfidf, average, maximum, hungarian, wmd, additive. Embedding methods need
  // `vectors` (not owned; it must outlive the scorer).
  static Status Create(const std::string& method, const WordVectors* vectors, double theta,
                       std::unique_ptr<PairScorer>* out);

  const std::string& method() const { return method_; }
  const WordVectors* vectors() const { return vectors_; }

  // TF-IDF only: idf(t) = ln(N / df(t)) over `documents` (each a bag of tokens).
  void FitIdf(const std::vector<const Tokens*>& documents);
  // TF-IDF only: use these idf values instead (tokens without one get idf 0).
  void SetIdf(std::unordered_map<std::string, double> idf) { idf_ = std::move(idf); }

  double Score(const Tokens& a, const Tokens& b) const;

 private:
  std::string method_;
  EmbeddingMethod embedding_ = EmbeddingMethod::kMaximum;
  const WordVectors* vectors_ = nullptr;
  double theta_ = 0;
  std::unordered_map<std::string, double> idf_;
};

}  // namespace aligndb

#endif  // ALIGNDB_ALIGN_SCORER_H_

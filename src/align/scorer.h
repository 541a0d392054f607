// One interface over every sentence similarity of aligndb: SPEC §4's TF-IDF cosine and SPEC §5's
// embedding measures. Used to score sentence pairs from files and, in the aligner, to fill the
// similarity matrix of the dynamic program.
#ifndef ALIGNDB_ALIGN_SCORER_H_
#define ALIGNDB_ALIGN_SCORER_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "aligndb/status.h"
#include "embed/embeddings.h"

namespace aligndb {

class PairScorer {
 public:
  // `method`: tfidf, average, maximum, hungarian, wmd, additive. Embedding methods need a word
  // similarity (word vectors, a lexicon or both; not owned: it must outlive the scorer); additive
  // needs vectors.
  static Status Create(const std::string& method, const WordSimilarity* words, double theta,
                       std::unique_ptr<PairScorer>* out);

  const std::string& method() const { return method_; }
  const WordSimilarity* vectors() const { return vectors_; }  // the word similarity

  // TF-IDF only: idf(t) = ln(N / df(t)) over `documents` (each a bag of tokens).
  void FitIdf(const std::vector<const Tokens*>& documents);
  // TF-IDF only: use these idf values instead (tokens without one get idf 0).
  void SetIdf(std::unordered_map<std::string, double> idf) { idf_ = std::move(idf); }

  double Score(const Tokens& a, const Tokens& b) const;

 private:
  std::string method_;
  EmbeddingMethod embedding_ = EmbeddingMethod::kMaximum;
  const WordSimilarity* vectors_ = nullptr;
  double theta_ = 0;
  std::unordered_map<std::string, double> idf_;
};

}  // namespace aligndb

#endif  // ALIGNDB_ALIGN_SCORER_H_

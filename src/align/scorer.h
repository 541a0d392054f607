// One interface over every sentence similarity of aligndb: the TF-IDF cosine and the embedding
// measures' embedding measures. Used to score sentence pairs from files and, in the aligner, to
// fill the similarity matrix of the dynamic program.
#ifndef ALIGNDB_ALIGN_SCORER_H_
#define ALIGNDB_ALIGN_SCORER_H_

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "aligndb/status.h"
#include "embed/embeddings.h"
#include "util/name_table.h"

namespace aligndb {

// The sentence similarity measures: the TF-IDF cosine, and Kajiwara & Komachi's measures over
// word embeddings (which need word vectors).
enum class SimilarityMeasure { kTfidf, kAverage, kMaximum, kHungarian, kWmd, kAdditive, kMatrix };

// The one name table of the measures: command-line parsing, help text, and the name stored in
// alignment parameters and printed in results.
inline constexpr NameEntry<SimilarityMeasure> kSimilarityMeasureNames[] = {
    {SimilarityMeasure::kTfidf, "tfidf"},     {SimilarityMeasure::kAverage, "average"},
    {SimilarityMeasure::kMaximum, "maximum"}, {SimilarityMeasure::kHungarian, "hungarian"},
    {SimilarityMeasure::kWmd, "wmd"},         {SimilarityMeasure::kAdditive, "additive"},
    {SimilarityMeasure::kMatrix, "matrix"},
};
inline const char* SimilarityMeasureName(SimilarityMeasure m) {
  return NameOf(kSimilarityMeasureNames, m);
}

class PairScorer {
 public:
  // Embedding measures (all but kTfidf) need a word similarity (word vectors, a lexicon or both;
  // not owned: it must outlive the scorer); kAdditive needs vectors.
  static Status Create(SimilarityMeasure measure, const WordSimilarity* words, double theta,
                       std::unique_ptr<PairScorer>* out);

  SimilarityMeasure measure() const { return measure_; }
  const WordSimilarity* vectors() const { return vectors_; }  // the word similarity

  // TF-IDF only: idf(t) = ln(N / df(t)) over `documents` (each a bag of tokens).
  void FitIdf(const std::vector<const Tokens*>& documents);
  // TF-IDF only: use these idf values instead (tokens without one get idf 0).
  void SetIdf(std::unordered_map<std::string, double> idf) { idf_ = std::move(idf); }

  double Score(const Tokens& a, const Tokens& b) const;

 private:
  SimilarityMeasure measure_ = SimilarityMeasure::kTfidf;
  EmbeddingMethod embedding_ = EmbeddingMethod::kMaximum;
  const WordSimilarity* vectors_ = nullptr;
  double theta_ = 0;
  std::unordered_map<std::string, double> idf_;
};

}  // namespace aligndb

#endif  // ALIGNDB_ALIGN_SCORER_H_

// The word similarity φ the commands build from --vectors FILE and --lexicon NAME.
#ifndef ALIGNDB_EMBED_WORD_SIMILARITY_H_
#define ALIGNDB_EMBED_WORD_SIMILARITY_H_

#include <memory>
#include <string>

#include "embed/embeddings.h"
#include "lexicon/wordnet.h"

namespace aligndb {

// Word vectors, a lexicon, or both (the larger φ wins), owned together.
class WordSimilaritySet : public WordSimilarity {
 public:
  // `vectors_path` empty: no vectors (`cache_dir` as WordVectors::Load takes it). `lexicon`
  // empty: none; "wordnet": WordNet from $WNSEARCHDIR or /usr/share/wordnet; any other name is
  // InvalidArgument. Both empty: *out is null. With vectors alone φ is exactly the vectors'.
  static Status Open(const std::string& vectors_path, const std::string& cache_dir,
                     const std::string& lexicon, std::unique_ptr<WordSimilaritySet>* out);

  Eigen::MatrixXd Matrix(const Tokens& x, const Tokens& y) const override {
    return active_->Matrix(x, y);
  }
  const WordVectors* vectors() const override { return word_vectors_.get(); }
  const WordNet* wordnet() const { return wordnet_.get(); }

 private:
  std::unique_ptr<WordVectors> word_vectors_;
  std::unique_ptr<WordNet> wordnet_;
  std::unique_ptr<LexiconSimilarity> lexicon_;
  std::unique_ptr<CombinedSimilarity> combined_;
  const WordSimilarity* active_ = nullptr;
};

}  // namespace aligndb

#endif  // ALIGNDB_EMBED_WORD_SIMILARITY_H_

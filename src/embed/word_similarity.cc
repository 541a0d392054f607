#include "embed/word_similarity.h"

namespace aligndb {

Status WordSimilaritySet::Open(const std::string& vectors_path, const std::string& cache_dir,
                               const std::string& lexicon,
                               std::unique_ptr<WordSimilaritySet>* out) {
  out->reset();
  if (!lexicon.empty() && lexicon != "wordnet")
    return Status::InvalidArgument("--lexicon must be wordnet (got \"" + lexicon + "\")");
  if (vectors_path.empty() && lexicon.empty()) return Status::OK();
  auto s = std::make_unique<WordSimilaritySet>();
  if (!vectors_path.empty())
    RETURN_IF_ERROR(WordVectors::Load(vectors_path, cache_dir, &s->word_vectors_));
  if (!lexicon.empty()) {
    RETURN_IF_ERROR(WordNet::Open("", &s->wordnet_));
    s->lexicon_ = std::make_unique<LexiconSimilarity>(s->wordnet_.get());
  }
  if (s->word_vectors_ && s->lexicon_) {
    s->combined_ = std::make_unique<CombinedSimilarity>(
        std::vector<const WordSimilarity*>{s->word_vectors_.get(), s->lexicon_.get()});
    s->active_ = s->combined_.get();
  } else if (s->word_vectors_) {
    s->active_ = s->word_vectors_.get();
  } else {
    s->active_ = s->lexicon_.get();
  }
  *out = std::move(s);
  return Status::OK();
}

}  // namespace aligndb

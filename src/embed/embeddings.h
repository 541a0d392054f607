// Word embeddings and the embedding-based sentence similarities of Kajiwara & Komachi
// (docs/method.md, Embedding measures).
#ifndef ALIGNDB_EMBED_EMBEDDINGS_H_
#define ALIGNDB_EMBED_EMBEDDINGS_H_

#include <Eigen/Dense>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "aligndb/status.h"

namespace aligndb {

class WordNet;
class WordVectors;

// A text as a bag of tokens: the tokens in any order, repeated as they occur.
using Tokens = std::vector<std::string>;

// A word similarity φ for the sentence measures (docs/method.md, Embedding measures): word vectors
// (cosine), a lexicon (WordNet), or several of them combined. Contract: φ ∈ [-1, 1], and φ = 1 for
// identical tokens.
class WordSimilarity {
 public:
  virtual ~WordSimilarity() = default;
  // m(i, j) = φ(x_i, y_j).
  virtual Eigen::MatrixXd Matrix(const Tokens& x, const Tokens& y) const = 0;
  // The vectors behind φ, for the additive measure (which sums vectors); null when there are none.
  virtual const WordVectors* vectors() const { return nullptr; }
};

// A read-only table of word vectors.
//
// Load() reads word2vec binary (".bin"), word2vec text and fastText ".vec" (a "count dim" header
// line), and GloVe text (no header). The first load of a file also writes a cache: a flat binary
// matrix that later loads memory-map instead of parsing text (seconds instead of minutes for a
// full-size vector file). The cache lives in `cache_dir` under a name derived from the file's path,
// size and modification time, so a changed file is never served stale.
class WordVectors : public WordSimilarity {
 public:
  // `cache_dir` empty: $XDG_CACHE_HOME/aligndb, else $HOME/.cache/aligndb; "-": no cache.
  static Status Load(const std::string& path, const std::string& cache_dir,
                     std::unique_ptr<WordVectors>* out);
  // Builds a table in memory (tests).
  static std::unique_ptr<WordVectors> FromRows(const std::vector<std::string>& words,
                                               const std::vector<std::vector<float>>& rows);
  ~WordVectors() override;

  // WordSimilarities(*this, x, y).
  Eigen::MatrixXd Matrix(const Tokens& x, const Tokens& y) const override;
  const WordVectors* vectors() const override { return this; }

  int dim() const { return dim_; }
  size_t size() const { return count_; }
  // Row of `word`, or -1 when it has no vector.
  int64_t Find(std::string_view word) const;
  const float* Row(int64_t i) const { return data_ + static_cast<size_t>(i) * dim_; }
  // 1 / Euclidean norm of row i (0 for a zero vector).
  float InverseNorm(int64_t i) const { return inv_norm_[static_cast<size_t>(i)]; }
  bool from_cache() const { return from_cache_; }

 private:
  WordVectors() = default;
  void Index();
  // Load's steps: memory-map a valid cache file (false: none or not valid); parse word2vec
  // binary rows or text rows (word2vec text, fastText .vec, GloVe) from the whole file `all`;
  // write the cache for next time (best effort).
  bool MapCache(const std::string& cache);
  Status ParseBinary(const std::string& path, const std::string& all, size_t first_nl,
                     long long count, long long dim);
  Status ParseText(const std::string& path, const std::string& all, size_t first_nl,
                   long long count, long long dim);
  void WriteCache(const std::string& cache) const;

  int dim_ = 0;
  size_t count_ = 0;
  const float* data_ = nullptr;
  std::vector<float> owned_;             // parsed rows (when not memory-mapped)
  std::vector<std::string> words_;       // parsed words
  std::vector<std::string_view> views_;  // word views (into words_ or the mapping)
  std::unordered_map<std::string_view, int64_t> index_;
  std::vector<float> inv_norm_;
  void* map_ = nullptr;
  size_t map_size_ = 0;
  bool from_cache_ = false;
};

// The embedding measures. Their names live in the command vocabulary (align/scorer.h's
// SimilarityMeasure), which maps onto this enum.
enum class EmbeddingMethod { kAverage, kMaximum, kHungarian, kWmd, kAdditive, kMatrix };

// φ from WordNet (WordNet::Similarity): 1 for identical tokens, shared base forms and synonyms, a
// graded Wu–Palmer or related-word value otherwise. `wordnet` is not owned.
class LexiconSimilarity : public WordSimilarity {
 public:
  explicit LexiconSimilarity(const WordNet* wordnet) : wordnet_(wordnet) {}
  Eigen::MatrixXd Matrix(const Tokens& x, const Tokens& y) const override;

 private:
  const WordNet* wordnet_;
};

// Several similarities at once: the larger φ wins, word pair by word pair. vectors() is the
// first part's that has vectors. The parts are not owned.
class CombinedSimilarity : public WordSimilarity {
 public:
  explicit CombinedSimilarity(std::vector<const WordSimilarity*> parts)
      : parts_(std::move(parts)) {}
  Eigen::MatrixXd Matrix(const Tokens& x, const Tokens& y) const override;
  const WordVectors* vectors() const override;

 private:
  std::vector<const WordSimilarity*> parts_;
};

// Word similarity matrix φ(x_i, y_j) (docs/method.md, Embedding measures): the cosine of the two
// vectors; a token without a vector has φ = 1 with an identical token and 0 otherwise.
Eigen::MatrixXd WordSimilarities(const WordVectors& v, const Tokens& x, const Tokens& y);

// The embedding measures read at most this many words of each text (its first ones): WMD and
// hungarian cost O(n³) time and WMD O(n²) memory in the distinct words, so one hostile
// sentence of 6,000 words would take gigabytes. Real sentences are far shorter.
inline constexpr size_t kMaxEmbeddingWords = 2000;

// The six measures over any φ, each text cut to its first kMaxEmbeddingWords words. θ: for
// average, maximum, hungarian and matrix a word pair counts only when φ > θ. Matrix is Fernando &
// Stevenson's (2008) a·W·bᵀ / (|a|·|b|), a and b the binary vectors of the distinct words of x
// and y over their union vocabulary, W the φ matrix of that vocabulary: the sum of φ over the
// pairs of distinct words divided by sqrt(distinct(x) · distinct(y)) (it may exceed 1). WMD uses
// the ground distance sqrt(2 − 2φ) for any φ (for a lexicon: 0 between synonyms, growing as φ
// falls). Additive sums word vectors and so uses only `s.vectors()`: a lexicon has no vectors and
// does not change it (0 when there are no vectors). Empty texts have similarity 0.
double EmbeddingSimilarity(const WordSimilarity& s, EmbeddingMethod m, const Tokens& x,
                           const Tokens& y, double theta);

// Maximum-weight one-to-one matching of the rows and columns of `w` (any shape): the assignment
// (row → column, or -1) and its total weight. O(n³) (Kuhn–Munkres with potentials).
double MaxWeightMatching(const Eigen::MatrixXd& w, std::vector<int>* row_to_col);

// Word Mover's Distance between the normalized bags of words of x and y, with ground distance the
// Euclidean distance of the unit-normalized vectors (sqrt(2 − 2φ); tokens without vectors: 0 to an
// identical token, sqrt(2) to any other). Solved exactly as a transportation problem with LEMON's
// network simplex. Each text is cut to its first kMaxEmbeddingWords words.
double WordMoversDistance(const WordSimilarity& s, const Tokens& x, const Tokens& y);
// The relaxed WMD (Kusner et al. 2015): a lower bound of WMD that costs O(|x|·|y|), on the same
// cut texts.
double RelaxedWordMoversDistance(const WordSimilarity& s, const Tokens& x, const Tokens& y);

}  // namespace aligndb

#endif  // ALIGNDB_EMBED_EMBEDDINGS_H_

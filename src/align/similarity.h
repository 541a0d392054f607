// Similarity of texts. The TF-IDF cosine (docs/method.md, TF-IDF) lives here; other measures plug
// in by filling the similarity matrix that the sentence aligner reads.
#ifndef ALIGNDB_ALIGN_SIMILARITY_H_
#define ALIGNDB_ALIGN_SIMILARITY_H_

#include <Eigen/Dense>
#include <cmath>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace aligndb {

// A sparse weighted vector over token ids: ids strictly ascending, weights parallel to ids.
struct SparseVector {
  std::vector<uint32_t> ids;
  std::vector<double> weights;
  double norm = 0;  // Euclidean norm of `weights`
};

// Cosine of two sparse vectors; 0 when either is the zero vector (docs/method.md, TF-IDF).
double Cosine(const SparseVector& a, const SparseVector& b);

// a + b (the vector of two texts joined, when both are TF-IDF vectors over one id space).
SparseVector SumVectors(const SparseVector& a, const SparseVector& b);

// TF-IDF cosine of two bags of tokens (a token repeated k times weighs k · idf), with idf values
// from `idf` (0 for a token without one): Cosine over one id space. The sentence similarity
// "tfidf" of texts scored outside the store (aligndb similarity, eval).
double BagCosine(const std::vector<std::string>& a, const std::vector<std::string>& b,
                 const std::unordered_map<std::string, double>& idf);

// The idf table of one article pair's tokens: idf(t) = ln(N / df(t)) with N the number of
// stored paragraphs of both editions and df(t) the number of those that contain t.
// Tokens get small local ids in order of first appearance.
class IdfTable {
 public:
  // Local id of `token`, adding it (with idf unknown until SetIdf) when new.
  uint32_t Id(const std::string& token);
  const std::vector<std::string>& tokens() const { return tokens_; }
  // Sets idf(token) from counts. df = 0 (a token no stored paragraph has) gives idf 0.
  void SetIdf(uint32_t id, int64_t n, int64_t df) {
    idf_[id] = (df > 0 && n > 0) ? std::log(static_cast<double>(n) / static_cast<double>(df)) : 0.0;
  }
  double idf(uint32_t id) const { return idf_[id]; }
  size_t size() const { return tokens_.size(); }

  // TF-IDF vector of a text given as sorted (token, count) lists: weight = count · idf.
  SparseVector Vector(const std::vector<std::string>& tokens, const std::vector<uint32_t>& counts);

 private:
  std::unordered_map<std::string, uint32_t> ids_;
  std::vector<std::string> tokens_;
  std::vector<double> idf_;
};

// sim(i, j) = Cosine(normal[i], simple[j]) for all i, j: the matrix the sentence aligner reads.
// Other measures plug into the aligner by filling such a matrix their own way.
Eigen::MatrixXd CosineMatrix(const std::vector<const SparseVector*>& normal,
                             const std::vector<const SparseVector*>& simple);

}  // namespace aligndb

#endif  // ALIGNDB_ALIGN_SIMILARITY_H_

#include "align/similarity.h"

#include <algorithm>
#include <map>
#include <numeric>

namespace aligndb {

double Cosine(const SparseVector& a, const SparseVector& b) {
  if (a.norm == 0 || b.norm == 0) return 0.0;
  double dot = 0;
  size_t i = 0, j = 0;
  while (i < a.ids.size() && j < b.ids.size()) {
    if (a.ids[i] < b.ids[j]) {
      ++i;
    } else if (a.ids[i] > b.ids[j]) {
      ++j;
    } else {
      dot += a.weights[i] * b.weights[j];
      ++i;
      ++j;
    }
  }
  // Rounding can put the cosine of parallel vectors a hair above 1; a cosine is at most 1.
  return std::min(1.0, dot / (a.norm * b.norm));
}

SparseVector SumVectors(const SparseVector& a, const SparseVector& b) {
  SparseVector out;
  size_t i = 0, j = 0;
  while (i < a.ids.size() || j < b.ids.size()) {
    if (j == b.ids.size() || (i < a.ids.size() && a.ids[i] < b.ids[j])) {
      out.ids.push_back(a.ids[i]);
      out.weights.push_back(a.weights[i++]);
    } else if (i == a.ids.size() || b.ids[j] < a.ids[i]) {
      out.ids.push_back(b.ids[j]);
      out.weights.push_back(b.weights[j++]);
    } else {
      out.ids.push_back(a.ids[i]);
      out.weights.push_back(a.weights[i++] + b.weights[j++]);
    }
  }
  double sq = 0;
  for (double w : out.weights) sq += w * w;
  out.norm = std::sqrt(sq);
  return out;
}

double BagCosine(const std::vector<std::string>& a, const std::vector<std::string>& b,
                 const std::unordered_map<std::string, double>& idf) {
  auto idf_of = [&](const std::string& t) {
    auto it = idf.find(t);
    return it == idf.end() ? 0.0 : it->second;
  };
  // Weights of both bags by token; ids follow token order, so both vectors are sorted by id.
  std::map<std::string, std::pair<double, double>> weights;
  for (const auto& t : a) weights[t].first += idf_of(t);
  for (const auto& t : b) weights[t].second += idf_of(t);
  SparseVector va, vb;
  double sq_a = 0, sq_b = 0;
  uint32_t id = 0;
  for (const auto& [t, w] : weights) {
    if (w.first != 0)
      va.ids.push_back(id), va.weights.push_back(w.first), sq_a += w.first * w.first;
    if (w.second != 0)
      vb.ids.push_back(id), vb.weights.push_back(w.second), sq_b += w.second * w.second;
    ++id;
  }
  va.norm = std::sqrt(sq_a);
  vb.norm = std::sqrt(sq_b);
  return Cosine(va, vb);
}

uint32_t IdfTable::Id(const std::string& token) {
  auto [it, inserted] = ids_.try_emplace(token, static_cast<uint32_t>(tokens_.size()));
  if (inserted) {
    tokens_.push_back(token);
    idf_.push_back(0.0);
  }
  return it->second;
}

SparseVector IdfTable::Vector(const std::vector<std::string>& tokens,
                              const std::vector<uint32_t>& counts) {
  std::vector<std::pair<uint32_t, double>> entries;
  entries.reserve(tokens.size());
  for (size_t k = 0; k < tokens.size(); ++k) {
    uint32_t id = Id(tokens[k]);
    entries.emplace_back(id, counts[k] * idf_[id]);
  }
  std::sort(entries.begin(), entries.end());
  SparseVector v;
  double sq = 0;
  for (auto& [id, w] : entries) {
    if (w == 0) continue;
    v.ids.push_back(id);
    v.weights.push_back(w);
    sq += w * w;
  }
  v.norm = std::sqrt(sq);
  return v;
}

Eigen::MatrixXd CosineMatrix(const std::vector<const SparseVector*>& normal,
                             const std::vector<const SparseVector*>& simple) {
  Eigen::MatrixXd m(normal.size(), simple.size());
  for (size_t i = 0; i < normal.size(); ++i)
    for (size_t j = 0; j < simple.size(); ++j) m(i, j) = Cosine(*normal[i], *simple[j]);
  return m;
}

}  // namespace aligndb

// Kajiwara & Komachi's sentence similarities from word embeddings (docs/method.md, Embedding
// measures).
#include <lemon/list_graph.h>
#include <lemon/network_simplex.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <unordered_set>

#include "embed/embeddings.h"
#include "lexicon/wordnet.h"

namespace aligndb {

namespace {

// φ of two tokens with rows a and b (-1: no vector).
double Phi(const WordVectors& v, const std::string& x, int64_t a, const std::string& y, int64_t b) {
  if (a < 0 || b < 0) return x == y ? 1.0 : 0.0;
  const float* ra = v.Row(a);
  const float* rb = v.Row(b);
  double dot = 0;
  for (int d = 0; d < v.dim(); ++d) dot += static_cast<double>(ra[d]) * rb[d];
  double c = dot * v.InverseNorm(a) * v.InverseNorm(b);
  return std::clamp(c, -1.0, 1.0);
}

std::vector<int64_t> Rows(const WordVectors& v, const Tokens& t) {
  std::vector<int64_t> r;
  r.reserve(t.size());
  for (const auto& w : t) r.push_back(v.Find(w));
  return r;
}

// Distinct tokens with their counts, in first-seen order.
void Bag(const Tokens& t, std::vector<std::string>* words, std::vector<long long>* counts) {
  std::map<std::string, size_t> at;
  for (const auto& w : t) {
    auto [it, added] = at.try_emplace(w, words->size());
    if (added) {
      words->push_back(w);
      counts->push_back(0);
    }
    ++(*counts)[it->second];
  }
}

// The transportation problem of WMD: distinct words with their counts on each side, and the
// ground distances sqrt(2 − 2φ) between them.
struct TransportProblem {
  std::vector<std::string> xw, yw;
  std::vector<long long> xc, yc;
  Eigen::MatrixXd cost;
};

// `t` cut to its first kMaxEmbeddingWords words, copied into `storage` only when it is longer.
const Tokens& Capped(const Tokens& t, Tokens* storage) {
  if (t.size() <= kMaxEmbeddingWords) return t;
  storage->assign(t.begin(), t.begin() + kMaxEmbeddingWords);
  return *storage;
}

TransportProblem MakeTransportProblem(const WordSimilarity& s, const Tokens& x, const Tokens& y) {
  TransportProblem t;
  Bag(x, &t.xw, &t.xc);
  Bag(y, &t.yw, &t.yc);
  Eigen::MatrixXd phi = s.Matrix(t.xw, t.yw);
  t.cost = (2.0 - 2.0 * phi.array()).max(0.0).sqrt().matrix();
  return t;
}

}  // namespace

Eigen::MatrixXd WordVectors::Matrix(const Tokens& x, const Tokens& y) const {
  return WordSimilarities(*this, x, y);
}

Eigen::MatrixXd LexiconSimilarity::Matrix(const Tokens& x, const Tokens& y) const {
  Eigen::MatrixXd m(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = 0; j < y.size(); ++j)
      m(i, j) = x[i] == y[j] ? 1.0 : wordnet_->Similarity(x[i], y[j]);
  return m;
}

Eigen::MatrixXd CombinedSimilarity::Matrix(const Tokens& x, const Tokens& y) const {
  Eigen::MatrixXd m = Eigen::MatrixXd::Constant(x.size(), y.size(), -1.0);
  for (const WordSimilarity* p : parts_) m = m.cwiseMax(p->Matrix(x, y));
  return m;
}

const WordVectors* CombinedSimilarity::vectors() const {
  for (const WordSimilarity* p : parts_)
    if (const WordVectors* v = p->vectors()) return v;
  return nullptr;
}

Eigen::MatrixXd WordSimilarities(const WordVectors& v, const Tokens& x, const Tokens& y) {
  std::vector<int64_t> rx = Rows(v, x), ry = Rows(v, y);
  Eigen::MatrixXd m(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i)
    for (size_t j = 0; j < y.size(); ++j) m(i, j) = Phi(v, x[i], rx[i], y[j], ry[j]);
  return m;
}

double MaxWeightMatching(const Eigen::MatrixXd& w_in, std::vector<int>* row_to_col) {
  const bool transpose = w_in.rows() > w_in.cols();
  const Eigen::MatrixXd w = transpose ? Eigen::MatrixXd(w_in.transpose()) : w_in;
  const int n = static_cast<int>(w.rows()), m = static_cast<int>(w.cols());  // n ≤ m
  row_to_col->assign(w_in.rows(), -1);
  if (n == 0) return 0;
  // Hungarian algorithm with potentials on cost = −weight (e-maxx formulation), 1-based.
  const double kInf = std::numeric_limits<double>::infinity();
  std::vector<double> u(n + 1, 0), vpot(m + 1, 0), minv(m + 1);
  std::vector<int> p(m + 1, 0), way(m + 1, 0);
  std::vector<char> used(m + 1);
  for (int i = 1; i <= n; ++i) {
    p[0] = i;
    int j0 = 0;
    std::fill(minv.begin(), minv.end(), kInf);
    std::fill(used.begin(), used.end(), 0);
    do {
      used[j0] = 1;
      int i0 = p[j0], j1 = 0;
      double delta = kInf;
      for (int j = 1; j <= m; ++j) {
        if (used[j]) continue;
        double cur = -w(i0 - 1, j - 1) - u[i0] - vpot[j];
        if (cur < minv[j]) minv[j] = cur, way[j] = j0;
        if (minv[j] < delta) delta = minv[j], j1 = j;
      }
      for (int j = 0; j <= m; ++j) {
        if (used[j])
          u[p[j]] += delta, vpot[j] -= delta;
        else
          minv[j] -= delta;
      }
      j0 = j1;
    } while (p[j0] != 0);
    do {
      int j1 = way[j0];
      p[j0] = p[j1];
      j0 = j1;
    } while (j0);
  }
  double total = 0;
  for (int j = 1; j <= m; ++j) {
    if (!p[j]) continue;
    int r = p[j] - 1, c = j - 1;
    total += w(r, c);
    if (transpose)
      (*row_to_col)[c] = r;
    else
      (*row_to_col)[r] = c;
  }
  return total;
}

double WordMoversDistance(const WordSimilarity& s, const Tokens& x_in, const Tokens& y_in) {
  Tokens x_cut, y_cut;
  const Tokens& x = Capped(x_in, &x_cut);
  const Tokens& y = Capped(y_in, &y_cut);
  if (x.empty() || y.empty()) return 1.0;
  const TransportProblem t = MakeTransportProblem(s, x, y);
  const auto &xw = t.xw, &yw = t.yw;
  const auto &xc = t.xc, &yc = t.yc;
  const Eigen::MatrixXd& c = t.cost;
  // Integer supplies: x word i sends count_i·|y|, y word j takes count_j·|x|; both total |x|·|y|.
  using Graph = lemon::ListDigraph;
  Graph g;
  std::vector<Graph::Node> xn, yn;
  Graph::NodeMap<long long> supply(g);
  for (size_t i = 0; i < xw.size(); ++i) {
    xn.push_back(g.addNode());
    supply[xn.back()] = xc[i] * static_cast<long long>(y.size());
  }
  for (size_t j = 0; j < yw.size(); ++j) {
    yn.push_back(g.addNode());
    supply[yn.back()] = -yc[j] * static_cast<long long>(x.size());
  }
  // Integer costs (the distance in units of 1e-9): LEMON's network simplex can cycle forever on
  // floating-point costs with many near-ties (WordNet's φ takes few distinct values). The total
  // is then summed with the exact distances over the optimal flows.
  Graph::ArcMap<long long> cost(g);
  std::vector<std::pair<Graph::Arc, double>> arcs;
  for (size_t i = 0; i < xw.size(); ++i)
    for (size_t j = 0; j < yw.size(); ++j) {
      Graph::Arc a = g.addArc(xn[i], yn[j]);
      cost[a] = std::llround(c(i, j) * 1e9);
      arcs.push_back({a, c(i, j)});
    }
  lemon::NetworkSimplex<Graph, long long, long long> ns(g);
  ns.supplyMap(supply).costMap(cost);
  if (ns.run() != lemon::NetworkSimplex<Graph, long long, long long>::OPTIMAL) return 1.0;
  double total = 0;
  for (const auto& [a, d] : arcs) total += static_cast<double>(ns.flow(a)) * d;
  return total / (static_cast<double>(x.size()) * static_cast<double>(y.size()));
}

double RelaxedWordMoversDistance(const WordSimilarity& s, const Tokens& x_in, const Tokens& y_in) {
  Tokens x_cut, y_cut;
  const Tokens& x = Capped(x_in, &x_cut);
  const Tokens& y = Capped(y_in, &y_cut);
  if (x.empty() || y.empty()) return 1.0;
  const TransportProblem t = MakeTransportProblem(s, x, y);
  const auto &xc = t.xc, &yc = t.yc;
  const Eigen::MatrixXd& c = t.cost;
  double a = 0, b = 0;
  for (size_t i = 0; i < xc.size(); ++i)
    a += static_cast<double>(xc[i]) / x.size() * c.row(i).minCoeff();
  for (size_t j = 0; j < yc.size(); ++j)
    b += static_cast<double>(yc[j]) / y.size() * c.col(j).minCoeff();
  return std::max(a, b);
}

namespace {

// The distinct tokens of x, in first-occurrence order.
Tokens Distinct(const Tokens& x) {
  Tokens out;
  std::unordered_set<std::string> seen;
  for (const auto& w : x)
    if (seen.insert(w).second) out.push_back(w);
  return out;
}

// a·W·bᵀ / (|a|·|b|) with binary a, b: only the rows of x's words and the columns of y's words of
// the union matrix W contribute, so φ is computed for those pairs alone.
double MatrixSimilarity(const WordSimilarity& s, const Tokens& x, const Tokens& y, double theta) {
  const Tokens dx = Distinct(x), dy = Distinct(y);
  Eigen::MatrixXd phi = s.Matrix(dx, dy);
  phi = (phi.array() > theta).select(phi, 0.0);
  return phi.sum() / std::sqrt(static_cast<double>(dx.size()) * static_cast<double>(dy.size()));
}

}  // namespace

double EmbeddingSimilarity(const WordSimilarity& s, EmbeddingMethod m, const Tokens& x_in,
                           const Tokens& y_in, double theta) {
  Tokens x_cut, y_cut;
  const Tokens& x = Capped(x_in, &x_cut);
  const Tokens& y = Capped(y_in, &y_cut);
  if (x.empty() || y.empty()) return 0.0;
  switch (m) {
    case EmbeddingMethod::kAdditive: {
      if (!s.vectors()) return 0.0;
      const WordVectors& v = *s.vectors();
      Eigen::VectorXd sx = Eigen::VectorXd::Zero(v.dim()), sy = Eigen::VectorXd::Zero(v.dim());
      for (const auto& w : x)
        if (int64_t r = v.Find(w); r >= 0)
          for (int d = 0; d < v.dim(); ++d) sx[d] += v.Row(r)[d];
      for (const auto& w : y)
        if (int64_t r = v.Find(w); r >= 0)
          for (int d = 0; d < v.dim(); ++d) sy[d] += v.Row(r)[d];
      double n = sx.norm() * sy.norm();
      return n > 0 ? std::clamp(sx.dot(sy) / n, -1.0, 1.0) : 0.0;
    }
    case EmbeddingMethod::kWmd:
      return 1.0 - WordMoversDistance(s, x, y);
    case EmbeddingMethod::kMatrix:
      return MatrixSimilarity(s, x, y, theta);
    default:
      break;
  }
  Eigen::MatrixXd phi = s.Matrix(x, y);
  phi = (phi.array() > theta).select(phi, 0.0);
  switch (m) {
    case EmbeddingMethod::kAverage:
      return phi.mean();
    case EmbeddingMethod::kMaximum:
      return 0.5 * (phi.rowwise().maxCoeff().mean() + phi.colwise().maxCoeff().mean());
    case EmbeddingMethod::kHungarian: {
      std::vector<int> match;
      return MaxWeightMatching(phi, &match) / static_cast<double>(std::min(x.size(), y.size()));
    }
    default:
      return 0.0;
  }
}

}  // namespace aligndb

// Word vectors and the embedding measures: loaders on real files, Hungarian against brute force,
// WMD against an independent exact transport solver, and the measures' definitions.
#include "embed/embeddings.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <numeric>
#include <random>

#include "embed/word_similarity.h"
#include "test_util.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;

// A damaged cache (sizes that overflow or overrun the file) is not mapped: the vectors are
// parsed from their file again, and the cache is rewritten.
TEST(WordVectorsTest, DamagedCacheIsReparsedNotRead) {
  TempDir tmp;
  std::unique_ptr<WordVectors> first;
  const std::string vec = DataPath("vectors/lee_fasttext.vec");
  ASSERT_TRUE(WordVectors::Load(vec, tmp.Sub("cache"), &first).ok());
  std::string cache;
  for (const auto& e : std::filesystem::recursive_directory_iterator(tmp.Sub("cache")))
    if (e.is_regular_file()) cache = e.path().string();
  ASSERT_FALSE(cache.empty());
  // Header: 8 magic bytes, then count, dim, words_bytes (uint64 each). The first damage is
  // made so that count · dim · 4 wraps around to exactly the file's size: a size check without
  // overflow care would map it and read 2^62 words past its end.
  const uint64_t room = std::filesystem::file_size(cache) - 32;
  const uint64_t damaged[][3] = {{(uint64_t{1} << 62) + (room - room % 4) / 4, 1, room % 4},
                                 {1762, 10, uint64_t{1} << 40},  // words beyond the file
                                 {1762, 0, 0}};                  // no dimension
  for (const auto& d : damaged) {
    {
      std::fstream f(cache, std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(8);
      f.write(reinterpret_cast<const char*>(d), sizeof(d));
    }
    std::unique_ptr<WordVectors> v;
    ASSERT_TRUE(WordVectors::Load(vec, tmp.Sub("cache"), &v).ok());
    EXPECT_FALSE(v->from_cache());
    EXPECT_EQ(v->size(), first->size());
    EXPECT_EQ(v->Find("to"), first->Find("to"));
  }
}

TEST(WordVectorsTest, LoadsFastTextAndGloveAndCachesThem) {
  TempDir tmp;
  std::unique_ptr<WordVectors> ft;
  ASSERT_TRUE(WordVectors::Load(DataPath("vectors/lee_fasttext.vec"), tmp.Sub("cache"), &ft).ok());
  EXPECT_EQ(ft->size(), 1762u);
  EXPECT_EQ(ft->dim(), 10);
  EXPECT_FALSE(ft->from_cache());
  int64_t the = ft->Find("the");
  ASSERT_EQ(the, 0);
  EXPECT_FLOAT_EQ(ft->Row(the)[0], -0.65992f);
  EXPECT_FLOAT_EQ(ft->Row(the)[9], 0.099763f);
  EXPECT_EQ(ft->Find("no-such-word-here"), -1);

  std::unique_ptr<WordVectors> again;
  ASSERT_TRUE(
      WordVectors::Load(DataPath("vectors/lee_fasttext.vec"), tmp.Sub("cache"), &again).ok());
  EXPECT_TRUE(again->from_cache());  // memory-mapped this time
  ASSERT_EQ(again->size(), ft->size());
  for (int64_t i = 0; i < static_cast<int64_t>(ft->size()); i += 97)
    for (int d = 0; d < 10; ++d) EXPECT_EQ(again->Row(i)[d], ft->Row(i)[d]);
  EXPECT_EQ(again->Find("to"), ft->Find("to"));

  std::unique_ptr<WordVectors> glove;
  ASSERT_TRUE(WordVectors::Load(DataPath("vectors/test_glove.txt"), "-", &glove).ok());
  EXPECT_EQ(glove->size(), 76u);
  EXPECT_EQ(glove->dim(), 50);
  EXPECT_FLOAT_EQ(glove->Row(glove->Find("the"))[0], 0.418f);
}

TEST(WordVectorsTest, Word2VecBinaryRoundTrip) {
  TempDir tmp;
  std::unique_ptr<WordVectors> ft;
  ASSERT_TRUE(WordVectors::Load(DataPath("vectors/lee_fasttext.vec"), "-", &ft).ok());
  // Write a binary file from the text one, as word2vec's writer does: a "count dim" line, then
  // per word the word, a space, dim float32 values, a newline.
  std::string bin = std::to_string(ft->size()) + " 10\n";
  std::ifstream in(DataPath("vectors/lee_fasttext.vec"));
  std::string line;
  std::getline(in, line);
  size_t n = 0;
  while (std::getline(in, line)) {
    std::string word = line.substr(0, line.find(' '));
    bin += word + " ";
    const float* r = ft->Row(ft->Find(word));
    bin.append(reinterpret_cast<const char*>(r), 40);
    bin += "\n";
    ++n;
  }
  testing::WriteFile(tmp.Sub("v.bin"), bin);
  std::unique_ptr<WordVectors> b;
  Status s = WordVectors::Load(tmp.Sub("v.bin"), "-", &b);
  ASSERT_TRUE(s.ok()) << s.ToString();
  EXPECT_EQ(b->size(), n);
  EXPECT_EQ(b->Row(b->Find("of"))[3], ft->Row(ft->Find("of"))[3]);

  // Truncated binary: a clear error with the byte and the word.
  testing::WriteFile(tmp.Sub("cut.bin"), bin.substr(0, bin.size() / 2));
  s = WordVectors::Load(tmp.Sub("cut.bin"), "-", &b);
  EXPECT_EQ(s.code(), Status::Code::kCorruption);
  EXPECT_NE(s.message().find("cut.bin: truncated at byte"), std::string::npos) << s.message();
}

TEST(WordVectorsTest, MalformedTextFiles) {
  TempDir tmp;
  std::unique_ptr<WordVectors> v;
  testing::WriteFile(tmp.Sub("dim.vec"), "2 3\nthe 0.1 0.2 0.3\ncat 0.1 0.2\n");
  Status s = WordVectors::Load(tmp.Sub("dim.vec"), "-", &v);
  EXPECT_NE(s.message().find("dim.vec: line 3: expected 3 values for \"cat\", found 2"),
            std::string::npos)
      << s.message();
  testing::WriteFile(tmp.Sub("glove.txt"), "the 0.1 0.2\ncat 0.1 x\n");
  s = WordVectors::Load(tmp.Sub("glove.txt"), "-", &v);
  EXPECT_NE(s.message().find("glove.txt: line 2: not a number after \"cat\""), std::string::npos)
      << s.message();
  testing::WriteFile(tmp.Sub("short.vec"), "3 2\nthe 0.1 0.2\ncat 0.1 0.3\n");
  s = WordVectors::Load(tmp.Sub("short.vec"), "-", &v);
  EXPECT_NE(s.message().find("announces 3 words, the file has 2"), std::string::npos)
      << s.message();
}

// ------------------------------------------------------------------ Hungarian

double BruteForceMatching(const Eigen::MatrixXd& w) {
  bool t = w.rows() > w.cols();
  Eigen::MatrixXd m = t ? Eigen::MatrixXd(w.transpose()) : w;
  std::vector<int> cols(m.cols());
  std::iota(cols.begin(), cols.end(), 0);
  double best = -1e300;
  do {
    double s = 0;
    for (int i = 0; i < m.rows(); ++i) s += m(i, cols[i]);
    best = std::max(best, s);
  } while (std::next_permutation(cols.begin(), cols.end()));
  return best;
}

TEST(HungarianTest, AgreesWithBruteForce) {
  std::mt19937 rng(3);
  for (int round = 0; round < 600; ++round) {
    int r = 1 + static_cast<int>(rng() % 6), c = 1 + static_cast<int>(rng() % 6);
    Eigen::MatrixXd w(r, c);
    for (int i = 0; i < r; ++i)
      for (int j = 0; j < c; ++j)
        w(i, j) = (rng() % 4 == 0) ? 0.0 : std::uniform_real_distribution<double>(-1, 1)(rng);
    std::vector<int> match;
    double got = MaxWeightMatching(w, &match);
    ASSERT_NEAR(got, BruteForceMatching(w), 1e-9) << "round " << round;
    // The assignment is one-to-one and sums to the reported weight.
    std::vector<int> used(c, 0);
    double sum = 0;
    int matched = 0;
    for (int i = 0; i < r; ++i) {
      if (match[i] < 0) continue;
      ++matched;
      EXPECT_EQ(used[match[i]]++, 0);
      sum += w(i, match[i]);
    }
    EXPECT_EQ(matched, std::min(r, c));
    EXPECT_NEAR(sum, got, 1e-9);
  }
}

// ------------------------------------------------------------------ WMD

// Independent exact transportation solver: successive shortest paths (Bellman–Ford on the
// residual graph) over integer supplies. Slow and simple.
double TransportBySuccessiveShortestPaths(const std::vector<long long>& supply,
                                          const std::vector<long long>& demand,
                                          const Eigen::MatrixXd& cost) {
  int n = static_cast<int>(supply.size()), m = static_cast<int>(demand.size());
  int nodes = n + m + 2, s = n + m, t = n + m + 1;
  struct Edge {
    int to;
    long long cap;
    double cost;
  };
  std::vector<Edge> edges;
  std::vector<std::vector<int>> adj(nodes);
  auto add = [&](int a, int b, long long cap, double c) {
    adj[a].push_back(static_cast<int>(edges.size()));
    edges.push_back({b, cap, c});
    adj[b].push_back(static_cast<int>(edges.size()));
    edges.push_back({a, 0, -c});
  };
  for (int i = 0; i < n; ++i) add(s, i, supply[i], 0);
  for (int j = 0; j < m; ++j) add(n + j, t, demand[j], 0);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < m; ++j) add(i, n + j, 1LL << 50, cost(i, j));
  double total = 0;
  while (true) {
    std::vector<double> dist(nodes, 1e300);
    std::vector<int> prev(nodes, -1);
    dist[s] = 0;
    for (int it = 0; it < nodes; ++it)
      for (int a = 0; a < nodes; ++a)
        if (dist[a] < 1e299)
          for (int e : adj[a])
            if (edges[e].cap > 0 && dist[a] + edges[e].cost < dist[edges[e].to] - 1e-12) {
              dist[edges[e].to] = dist[a] + edges[e].cost;
              prev[edges[e].to] = e;
            }
    if (prev[t] < 0) break;
    long long f = 1LL << 60;
    for (int v = t; v != s; v = edges[prev[v] ^ 1].to) f = std::min(f, edges[prev[v]].cap);
    for (int v = t; v != s; v = edges[prev[v] ^ 1].to) {
      edges[prev[v]].cap -= f;
      edges[prev[v] ^ 1].cap += f;
    }
    total += static_cast<double>(f) * dist[t];
  }
  return total;
}

std::unique_ptr<WordVectors> RandomVectors(std::mt19937* rng, int words, int dim) {
  std::vector<std::string> names;
  std::vector<std::vector<float>> rows;
  std::normal_distribution<float> g;
  for (int i = 0; i < words; ++i) {
    names.push_back("w" + std::to_string(i));
    std::vector<float> r(dim);
    for (auto& x : r) x = g(*rng);
    rows.push_back(r);
  }
  return WordVectors::FromRows(names, rows);
}

TEST(WmdTest, AgreesWithAnIndependentExactSolver) {
  std::mt19937 rng(17);
  auto v = RandomVectors(&rng, 12, 5);
  for (int round = 0; round < 300; ++round) {
    Tokens x, y;
    int nx = 1 + static_cast<int>(rng() % 6), ny = 1 + static_cast<int>(rng() % 6);
    // Some tokens have no vector ("oov*"): φ = 1 with an identical token, else 0.
    for (int i = 0; i < nx; ++i)
      x.push_back(rng() % 6 == 0 ? "oov" + std::to_string(rng() % 2)
                                 : "w" + std::to_string(rng() % 12));
    for (int i = 0; i < ny; ++i)
      y.push_back(rng() % 6 == 0 ? "oov" + std::to_string(rng() % 2)
                                 : "w" + std::to_string(rng() % 12));
    double wmd = WordMoversDistance(*v, x, y);
    // Reference: distinct words, integer supplies, ground distance sqrt(2 − 2φ).
    std::vector<std::string> xw, yw;
    std::vector<long long> xc, yc;
    for (auto& w : x) {
      auto it = std::find(xw.begin(), xw.end(), w);
      if (it == xw.end()) xw.push_back(w), xc.push_back(0), it = xw.end() - 1;
      xc[it - xw.begin()]++;
    }
    for (auto& w : y) {
      auto it = std::find(yw.begin(), yw.end(), w);
      if (it == yw.end()) yw.push_back(w), yc.push_back(0), it = yw.end() - 1;
      yc[it - yw.begin()]++;
    }
    Eigen::MatrixXd phi = WordSimilarities(*v, xw, yw);
    Eigen::MatrixXd cost = (2.0 - 2.0 * phi.array()).max(0.0).sqrt().matrix();
    for (auto& c : xc) c *= ny;
    for (auto& c : yc) c *= nx;
    double want = TransportBySuccessiveShortestPaths(xc, yc, cost) / (nx * ny);
    ASSERT_NEAR(wmd, want, 1e-6) << "round " << round;
    EXPECT_LE(RelaxedWordMoversDistance(*v, x, y), wmd + 1e-9);  // a lower bound
  }
}

// ------------------------------------------------------------------ measures

TEST(EmbeddingMeasuresTest, Definitions) {
  // Two orthogonal unit vectors and one at 60° to the first.
  auto v = WordVectors::FromRows({"a", "b", "c"}, {{1, 0}, {0, 1}, {0.5f, std::sqrt(3.0f) / 2}});
  Tokens x = {"a", "b"}, y = {"a", "c"};
  // φ: a–a 1, a–c 0.5, b–a 0, b–c √3/2.
  double bc = std::sqrt(3.0) / 2;
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kAverage, x, y, -1), (1 + 0.5 + 0 + bc) / 4,
              1e-6);
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kAverage, x, y, 0.6), (1 + bc) / 4,
              1e-6);  // θ drops 0.5
  // maximum: asym(x,y) = (1 + bc)/2, asym(y,x) = (1 + bc)/2.
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kMaximum, x, y, -1), (1 + bc) / 2, 1e-6);
  // hungarian: a–a + b–c = 1 + bc over min(2,2).
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kHungarian, x, y, -1), (1 + bc) / 2, 1e-6);
  // additive: cos((1,1), (1.5, bc)).
  double want = (1.5 + bc) / (std::sqrt(2.0) * std::sqrt(2.25 + bc * bc));
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kAdditive, x, y, -1), want, 1e-6);
  // Identical texts: 1 for maximum, hungarian, wmd, additive.
  for (auto m : {EmbeddingMethod::kMaximum, EmbeddingMethod::kHungarian, EmbeddingMethod::kWmd,
                 EmbeddingMethod::kAdditive})
    EXPECT_NEAR(EmbeddingSimilarity(*v, m, x, x, 0), 1.0, 1e-6) << static_cast<int>(m);
  // Out of vocabulary: φ = 1 for identical tokens, 0 otherwise.
  Tokens oov1 = {"zebra", "a"}, oov2 = {"zebra", "b"};
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kHungarian, oov1, oov2, 0), (1 + 0) / 2.0,
              1e-6);
  EXPECT_NEAR(EmbeddingSimilarity(*v, EmbeddingMethod::kMaximum, {"zebra"}, {"yak"}, -1), 0.0,
              1e-9);
  // WMD of one word each: the ground distance between them.
  EXPECT_NEAR(WordMoversDistance(*v, {"a"}, {"c"}), std::sqrt(2 - 2 * 0.5), 1e-6);
  EXPECT_EQ(EmbeddingSimilarity(*v, EmbeddingMethod::kAverage, {}, x, 0), 0.0);
}

// A hostile pair of 6,000 distinct words each (1.9 GB of transport arcs when read whole) is read
// to its first kMaxEmbeddingWords words: the same value as the cut texts, in bounded memory.
TEST(EmbeddingMeasuresTest, LongTextsAreCut) {
  auto v = WordVectors::FromRows({"a", "b"}, {{1, 0}, {0, 1}});
  Tokens x, y;
  for (int i = 0; i < 6000; ++i) {
    x.push_back("x" + std::to_string(i));
    y.push_back(i % 3 ? "y" + std::to_string(i) : "x" + std::to_string(i));
  }
  const Tokens x_cut(x.begin(), x.begin() + kMaxEmbeddingWords);
  const Tokens y_cut(y.begin(), y.begin() + kMaxEmbeddingWords);
  for (auto m : {EmbeddingMethod::kWmd, EmbeddingMethod::kMaximum, EmbeddingMethod::kAverage}) {
    const double whole = EmbeddingSimilarity(*v, m, x, y, 0);
    EXPECT_EQ(whole, EmbeddingSimilarity(*v, m, x_cut, y_cut, 0)) << static_cast<int>(m);
    // Only the first 2,000 words count: a third of them are shared.
    EXPECT_GT(whole, 0.0) << static_cast<int>(m);
  }
  EXPECT_EQ(RelaxedWordMoversDistance(*v, x, y), RelaxedWordMoversDistance(*v, x_cut, y_cut));
}

TEST(WordSimilarityTest, LexiconAndCombination) {
  std::unique_ptr<WordSimilaritySet> both, vec, lex;
  ASSERT_TRUE(
      WordSimilaritySet::Open(DataPath("vectors/lee_fasttext.vec"), "-", "wordnet", &both).ok());
  ASSERT_TRUE(WordSimilaritySet::Open(DataPath("vectors/lee_fasttext.vec"), "-", "", &vec).ok());
  ASSERT_TRUE(WordSimilaritySet::Open("", "-", "wordnet", &lex).ok());
  Tokens x = {"the", "car", "president", "xqzzy"}, y = {"automobile", "the", "government", "xqzzy"};
  Eigen::MatrixXd b = both->Matrix(x, y), v = vec->Matrix(x, y), l = lex->Matrix(x, y);
  EXPECT_EQ(l(1, 0), 1.0);  // car – automobile: synonyms
  EXPECT_EQ(l(0, 1), 1.0);  // identical
  EXPECT_EQ(l(3, 3), 1.0);  // identical, unknown to WordNet
  EXPECT_EQ(l(3, 0), 0.0);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) EXPECT_EQ(b(i, j), std::max(v(i, j), l(i, j)));
  // With vectors alone, φ is exactly the vectors' (what the measures have always used).
  EXPECT_EQ(v, WordSimilarities(*vec->vectors(), x, y));
  EXPECT_EQ(lex->vectors(), nullptr);
  // Every measure takes the lexicon; additive without vectors is 0, WMD of synonyms is 0.
  EXPECT_NEAR(EmbeddingSimilarity(*lex, EmbeddingMethod::kWmd, {"car"}, {"automobile"}, 0), 1.0,
              1e-12);
  EXPECT_EQ(EmbeddingSimilarity(*lex, EmbeddingMethod::kAdditive, {"car"}, {"automobile"}, 0), 0.0);
  EXPECT_EQ(EmbeddingSimilarity(*lex, EmbeddingMethod::kHungarian, {"the", "car"},
                                {"automobile", "the"}, 0),
            1.0);
  std::unique_ptr<WordSimilaritySet> bad;
  EXPECT_EQ(WordSimilaritySet::Open("", "-", "roget", &bad).code(), Status::Code::kInvalidArgument);
}

// Fernando & Stevenson's matrix similarity, literally: the φ matrix W of the union vocabulary and
// the binary vectors a, b over it, a·W·bᵀ / (|a|·|b|), with φ ≤ θ set to 0.
double MatrixReference(const WordVectors& v, const Tokens& x, const Tokens& y, double theta) {
  Tokens vocab;
  for (const Tokens* t : {&x, &y})
    for (const auto& w : *t)
      if (std::find(vocab.begin(), vocab.end(), w) == vocab.end()) vocab.push_back(w);
  Eigen::MatrixXd w = WordSimilarities(v, vocab, vocab);
  Eigen::VectorXd a = Eigen::VectorXd::Zero(vocab.size()), b = a;
  for (size_t k = 0; k < vocab.size(); ++k) {
    a[k] = std::find(x.begin(), x.end(), vocab[k]) != x.end();
    b[k] = std::find(y.begin(), y.end(), vocab[k]) != y.end();
    for (size_t l = 0; l < vocab.size(); ++l)
      if (w(k, l) <= theta) w(k, l) = 0;
  }
  return a.dot(w * b) / (a.norm() * b.norm());
}

TEST(EmbeddingMeasuresTest, MatrixAgreesWithTheUnionVocabularyDefinition) {
  std::mt19937 rng(17);
  auto v = RandomVectors(&rng, 12, 3);
  std::uniform_int_distribution<int> word(0, 13), len(1, 9);  // w12, w13: no vector
  for (int trial = 0; trial < 300; ++trial) {
    Tokens x, y;
    for (int k = len(rng); k > 0; --k) x.push_back("w" + std::to_string(word(rng)));
    for (int k = len(rng); k > 0; --k) y.push_back("w" + std::to_string(word(rng)));
    for (double theta : {-1.0, 0.0, 0.5}) {
      double fast = EmbeddingSimilarity(*v, EmbeddingMethod::kMatrix, x, y, theta);
      EXPECT_NEAR(fast, MatrixReference(*v, x, y, theta), 1e-9) << trial;
    }
  }
  // By hand: identical words only, {a, b} against {a, a, c}: a·W·bᵀ = 1, |a| = √2, |b| = √2.
  auto abc = WordVectors::FromRows({"a", "b", "c"}, {{1, 0}, {0, 1}, {-1, 0}});
  EXPECT_NEAR(EmbeddingSimilarity(*abc, EmbeddingMethod::kMatrix, {"a", "b"}, {"a", "a", "c"}, 0.5),
              0.5, 1e-12);
}

}  // namespace
}  // namespace aligndb

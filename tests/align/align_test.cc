// Tests of the aligner: the dynamic program against brute-force enumeration, paragraph
// assignment, Xapian candidates against direct token overlap, and the whole run on real pages.
#include "align/align.h"

#include <gtest/gtest.h>
#include <xapian.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <sstream>

#include "align/label.h"
#include "align/scorer.h"
#include "align/similarity.h"
#include "aligndb.pb.h"
#include "cli/print.h"
#include "embed/embeddings.h"
#include "export/export.h"
#include "index/index.h"
#include "ingest/ingest.h"
#include "storage/records.h"
#include "storage/store_fixtures.h"
#include "test_util.h"
#include "text/text.h"

namespace aligndb {
namespace {

using testing::DataPath;
using testing::TempDir;
using testing::TermsOf;

// ------------------------------------------------------------------ brute force

struct Path {
  double score = 0;
  std::vector<AlignedPair> pairs;  // document order
};

// Every alignment from (i, j) back to the border, built from the six operations of docs/method.md.
void Enumerate(const Eigen::MatrixXd& sim, double p, int i, int j, Path current,
               std::vector<Path>* out) {
  if (i == 0 || j == 0) {
    out->push_back(current);
    return;
  }
  auto S = [&](int a, int b) { return sim(a - 1, b - 1); };
  auto with = [&](double add, std::vector<AlignedPair> pairs) {
    Path next = current;
    next.score += add;
    next.pairs.insert(next.pairs.begin(), pairs.begin(), pairs.end());
    return next;
  };
  Enumerate(sim, p, i, j - 1, with(-p, {}), out);
  Enumerate(sim, p, i - 1, j, with(-p, {}), out);
  Enumerate(sim, p, i - 1, j - 1, with(S(i, j), {{i - 1, j - 1, S(i, j), Op::kOneOne}}), out);
  if (j >= 2)
    Enumerate(sim, p, i - 1, j - 2,
              with(S(i, j - 1) + S(i, j), {{i - 1, j - 2, S(i, j - 1), Op::kOneTwo},
                                           {i - 1, j - 1, S(i, j), Op::kOneTwo}}),
              out);
  if (i >= 2)
    Enumerate(sim, p, i - 2, j - 1,
              with(S(i - 1, j) + S(i, j), {{i - 2, j - 1, S(i - 1, j), Op::kTwoOne},
                                           {i - 1, j - 1, S(i, j), Op::kTwoOne}}),
              out);
  if (i >= 2 && j >= 2)
    Enumerate(sim, p, i - 2, j - 2,
              with(S(i - 1, j) + S(i, j - 1), {{i - 2, j - 1, S(i - 1, j), Op::kTwoTwo},
                                               {i - 1, j - 2, S(i, j - 1), Op::kTwoTwo}}),
              out);
}

TEST(SentenceAlignerTest, AgreesWithBruteForceOnRandomInputs) {
  std::mt19937 rng(2024);
  int unique_cases = 0;
  for (int round = 0; round < 1500; ++round) {
    int n = 1 + static_cast<int>(rng() % 5), m = 1 + static_cast<int>(rng() % 5);
    Eigen::MatrixXd sim(n, m);
    bool coarse = rng() % 2;  // coarse values make ties common
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < m; ++j)
        sim(i, j) = coarse ? (rng() % 3) * 0.5 : std::uniform_real_distribution<double>(0, 1)(rng);
    double p = (rng() % 3 == 0) ? 0.0001 : std::uniform_real_distribution<double>(0, 0.3)(rng);
    std::vector<Path> all;
    Enumerate(sim, p, n, m, Path(), &all);
    double best = -1e300;
    for (const auto& path : all) best = std::max(best, path.score);
    int at_best = 0;
    const Path* best_path = nullptr;
    for (const auto& path : all)
      if (std::fabs(path.score - best) < 1e-9) ++at_best, best_path = &path;

    SentenceAlignment a = AlignSentences(sim, p);
    ASSERT_NEAR(a.score, best, 1e-9) << "round " << round;
    // The path the DP returns is one of the best: some enumerated path has exactly these
    // pairs and the best score.
    bool found = false;
    for (const auto& path : all)
      if (path.pairs == a.pairs && std::fabs(path.score - best) < 1e-9) found = true;
    EXPECT_TRUE(found) << "round " << round;
    if (at_best == 1) {
      ++unique_cases;
      EXPECT_EQ(a.pairs, best_path->pairs) << "round " << round;
    }
  }
  EXPECT_GE(unique_cases, 1000);
}

TEST(SentenceAlignerTest, TiesGoToTheFirstAlternative) {
  // All similarities 0.5 on 2×2: at (2,2) the 1-1, 1-2, 2-1 and 2-2 alternatives all score 1.0;
  // 1-1 comes first.
  Eigen::MatrixXd sim = Eigen::MatrixXd::Constant(2, 2, 0.5);
  auto a = AlignSentences(sim, 0.0001);
  ASSERT_EQ(a.pairs.size(), 2u);
  EXPECT_EQ(a.pairs[0], (AlignedPair{0, 0, 0.5, Op::kOneOne}));
  EXPECT_EQ(a.pairs[1], (AlignedPair{1, 1, 0.5, Op::kOneOne}));
  EXPECT_DOUBLE_EQ(a.score, 1.0);

  // With zero skip penalty, skipping ties with 1-1 at similarity 0 and wins (it comes first).
  Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(1, 1);
  auto z = AlignSentences(zero, 0.0);
  EXPECT_TRUE(z.pairs.empty());
  EXPECT_EQ(z.skipped_simple, 1);
  EXPECT_EQ(z.skipped_normal, 1);  // left at the border
}

TEST(SentenceAlignerTest, EachOperationIsProducedWhereItIsBest) {
  Eigen::MatrixXd one_two(1, 2);
  one_two << 0.6, 0.6;
  auto a = AlignSentences(one_two, 0.0001);
  ASSERT_EQ(a.pairs.size(), 2u);
  EXPECT_EQ(a.pairs[0].op, Op::kOneTwo);
  EXPECT_EQ(a.pairs[1].simple, 1);

  Eigen::MatrixXd two_one(2, 1);
  two_one << 0.6, 0.6;
  a = AlignSentences(two_one, 0.0001);
  ASSERT_EQ(a.pairs.size(), 2u);
  EXPECT_EQ(a.pairs[0].op, Op::kTwoOne);

  Eigen::MatrixXd crossed(2, 2);
  crossed << 0.0, 0.9, 0.9, 0.0;
  a = AlignSentences(crossed, 0.0001);
  ASSERT_EQ(a.pairs.size(), 2u);
  EXPECT_EQ(a.pairs[0], (AlignedPair{0, 1, 0.9, Op::kTwoTwo}));
  EXPECT_EQ(a.pairs[1], (AlignedPair{1, 0, 0.9, Op::kTwoTwo}));
}

// ------------------------------------------------------------------ paragraphs

TEST(ParagraphAssignmentTest, HighestCosineOwnsTheNormalParagraph) {
  // simple 0: normal 0 (0.6), normal 1 (0.7); simple 1: normal 1 (0.9), normal 2 (0.4);
  // simple 2: normal 3 (0.55); simple 3: normal 3 (0.55) (tie: simple 2 keeps it).
  std::vector<std::vector<std::pair<uint32_t, double>>> c = {
      {{0, 0.6}, {1, 0.7}}, {{1, 0.9}, {2, 0.4}}, {{3, 0.55}}, {{3, 0.55}}, {}};
  auto a = AssignParagraphs(c, 0.5);
  ASSERT_EQ(a.size(), 5u);
  EXPECT_EQ(a[0], (std::vector<uint32_t>{0}));
  EXPECT_EQ(a[1], (std::vector<uint32_t>{1}));
  EXPECT_EQ(a[2], (std::vector<uint32_t>{3}));
  EXPECT_TRUE(a[3].empty());
  EXPECT_TRUE(a[4].empty());
  // At threshold exactly: kept.
  EXPECT_EQ(AssignParagraphs({{{5, 0.5}}}, 0.5)[0], (std::vector<uint32_t>{5}));
}

TEST(ParagraphAssignmentTest, AgreesWithReferenceOnRandomInputs) {
  std::mt19937 rng(5);
  for (int round = 0; round < 500; ++round) {
    size_t S = 1 + rng() % 6, N = 1 + rng() % 8;
    std::vector<std::vector<std::pair<uint32_t, double>>> c(S);
    std::vector<std::vector<double>> full(S, std::vector<double>(N, -1));
    for (size_t s = 0; s < S; ++s)
      for (uint32_t n = 0; n < N; ++n)
        if (rng() % 2) {
          double v = (rng() % 5) * 0.25;
          c[s].emplace_back(n, v);
          full[s][n] = v;
        }
    auto got = AssignParagraphs(c, 0.5);
    // Reference: for each normal paragraph, scan simple paragraphs in order.
    std::vector<std::vector<uint32_t>> want(S);
    for (uint32_t n = 0; n < N; ++n) {
      int best = -1;
      for (size_t s = 0; s < S; ++s)
        if (full[s][n] >= 0.5 && (best < 0 || full[s][n] > full[best][n]))
          best = static_cast<int>(s);
      if (best >= 0) want[best].push_back(n);
    }
    EXPECT_EQ(got, want) << round;
  }
}

// ------------------------------------------------------------------ TF-IDF

TEST(TfIdfTest, IdfAndCosine) {
  IdfTable t;
  uint32_t a = t.Id("a"), b = t.Id("b"), c = t.Id("c");
  t.SetIdf(a, 100, 10);
  t.SetIdf(b, 100, 100);  // in every paragraph: weight 0
  t.SetIdf(c, 100, 1);
  EXPECT_DOUBLE_EQ(t.idf(a), std::log(10.0));
  EXPECT_DOUBLE_EQ(t.idf(b), 0.0);
  auto v1 = t.Vector({"a", "b", "c"}, {2, 5, 1});
  auto v2 = t.Vector({"a", "c"}, {1, 3});
  double la = std::log(10.0), lc = std::log(100.0);
  double dot = 2 * la * la + lc * 3 * lc;
  double want = dot / (std::sqrt(4 * la * la + lc * lc) * std::sqrt(la * la + 9 * lc * lc));
  EXPECT_NEAR(Cosine(v1, v2), want, 1e-12);
  EXPECT_EQ(Cosine(v1, t.Vector({"b"}, {3})), 0.0);  // zero vector
  EXPECT_NEAR(Cosine(v1, v1), 1.0, 1e-12);
}

// Regression: rounding put the cosine of parallel vectors at 1.0000000000000002, so that
// identical sentence pairs failed the export's default --max-sim 1.
TEST(TfIdfTest, CosineNeverExceedsOne) {
  std::mt19937 rng(9);
  IdfTable t;
  std::vector<std::string> toks;
  for (int k = 0; k < 30; ++k) {
    toks.push_back("t" + std::to_string(k));
    t.SetIdf(t.Id(toks.back()), 1000, 1 + static_cast<int64_t>(rng() % 999));
  }
  for (int round = 0; round < 2000; ++round) {
    std::vector<std::string> v;
    std::vector<uint32_t> c;
    for (int k = 0; k < 30; ++k)
      if (rng() % 3 == 0) v.push_back(toks[k]), c.push_back(1 + rng() % 4);
    auto a = t.Vector(v, c);
    EXPECT_LE(Cosine(a, a), 1.0);
  }
}

// ------------------------------------------------------------------ fast path against reference

// Random pre-split articles over a small vocabulary (with a few tokens over the 240-byte
// candidate limit), both editions, as document JSON lines.
std::string RandomEdition(std::mt19937* rng, int articles, bool simple) {
  std::vector<std::string> words;
  for (int k = 0; k < 400; ++k) words.push_back("w" + std::to_string(k));
  // Tokens that share their first 8 bytes, or are another's first bytes: the aligner's tables
  // key tokens by those 8 bytes and the length, and compare the rest only past them.
  for (const char* w : {"abcdefg", "abcdefgh", "abcdefghi", "abcdefghij1", "abcdefghij2",
                        "abcdefghijklmnopqrstuvwxyz0", "abcdefghijklmnopqrstuvwxyz1"})
    words.insert(words.begin() + 3, w);
  const std::string long_words[] = {std::string(300, 'x'), std::string(241, 'y'),
                                    std::string(240, 'z')};
  nlohmann::json docs = nlohmann::json::array();
  std::string out;
  for (int a = 0; a < articles; ++a) {
    nlohmann::json paragraphs = nlohmann::json::array();
    int np = 1 + static_cast<int>((*rng)() % (simple ? 3 : 6));
    for (int p = 0; p < np; ++p) {
      nlohmann::json sentences = nlohmann::json::array();
      int ns = 1 + static_cast<int>((*rng)() % 4);
      for (int s = 0; s < ns; ++s) {
        std::string text;
        int nw = 1 + static_cast<int>((*rng)() % 9);
        for (int w = 0; w < nw; ++w) {
          // Skewed toward the first words, so that paragraphs share tokens.
          size_t k = std::min((*rng)() % words.size(), (*rng)() % words.size());
          text += (w ? " " : "") + ((*rng)() % 8 == 0 ? long_words[(*rng)() % 3] : words[k]);
        }
        sentences.push_back(text + ".");
      }
      paragraphs.push_back(sentences);
    }
    nlohmann::json d = {{"title", "Article " + std::to_string(a)}, {"paragraphs", paragraphs}};
    out += d.dump() + "\n";
  }
  return out;
}

// A new database in `tmp` with `articles` random articles of each edition (seeded by `seed`).
std::unique_ptr<Store> RandomDatabase(const TempDir& tmp, unsigned seed, int articles) {
  std::mt19937 rng(seed);
  testing::WriteFile(tmp.Sub("n.jsonl"), RandomEdition(&rng, articles, false));
  testing::WriteFile(tmp.Sub("s.jsonl"), RandomEdition(&rng, articles, true));
  StoreOptions so;
  so.create_if_missing = true;
  std::unique_ptr<Store> store;
  EXPECT_TRUE(Store::Open(so, tmp.Sub("db"), &store).ok());
  IngestSummary isum;
  EXPECT_TRUE(Ingest(store.get(),
                     {"enwiki=" + tmp.Sub("n.jsonl"), "simplewiki=" + tmp.Sub("s.jsonl")}, {},
                     &isum)
                  .ok());
  return store;
}

// The aligner's candidates, idf and cosines use term ids over the pair's stored postings, on
// several threads; this compares its records with the string-keyed path it replaced: Xapian
// candidates, IdfTable vectors, document frequencies read from the store, one thread.
TEST(FastPathTest, RecordsEqualTheXapianAndStringKeyedReferenceOnRandomArticles) {
  for (unsigned seed : {1u, 2u, 3u}) {
    TempDir tmp;
    std::unique_ptr<Store> store = RandomDatabase(tmp, seed, 60);
    ASSERT_TRUE(store);
    AlignOptions o;
    o.threads = 3;
    o.paragraph_threshold = seed == 1 ? 0.1 : 0.0;  // 0: every candidate is assigned
    AlignSummary sum;
    ASSERT_TRUE(Align(store.get(), nullptr, o, 7, &sum).ok());
    ASSERT_GT(sum.aligned, 20u);
    uint32_t en, simple;
    ASSERT_TRUE(store->EditionId("enwiki", false, &en).ok());
    ASSERT_TRUE(store->EditionId("simplewiki", false, &simple).ok());
    std::unique_ptr<ParagraphIndex> index;
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp.Sub("db")), true, &index).ok());
    uint64_t applied = 0;
    ASSERT_TRUE(index->Apply(store.get(), en, &applied).ok());
    EditionCounts nc, sc;
    ASSERT_TRUE(store->GetEditionCounts(en, &nc).ok());
    ASSERT_TRUE(store->GetEditionCounts(simple, &sc).ok());
    const int64_t n = nc.paragraphs + sc.paragraphs;
    int paragraph_pairs = 0;
    ASSERT_TRUE(
        store
            ->ForEachAlignment(
                en, simple, "",
                [&](const pb::AlignmentRecord& r) {
                  pb::Article na, sa;
                  EXPECT_TRUE(store->GetArticle(en, r.normal_page_id(), &na).ok());
                  EXPECT_TRUE(store->GetArticle(simple, r.simple_page_id(), &sa).ok());
                  pb::ArticleTerms nt = TermsOf(na), st = TermsOf(sa);
                  IdfTable idf;
                  for (const auto* t : {&nt, &st})
                    for (const auto& p : t->paragraphs())
                      for (const auto& tok : p.paragraph().tokens()) idf.Id(tok);
                  std::vector<int64_t> dn, ds;
                  EXPECT_TRUE(store->DocumentFrequencies(en, idf.tokens(), &dn).ok());
                  EXPECT_TRUE(store->DocumentFrequencies(simple, idf.tokens(), &ds).ok());
                  for (uint32_t id = 0; id < idf.size(); ++id) idf.SetIdf(id, n, dn[id] + ds[id]);
                  auto vec = [&](const pb::TermVector& tv) {
                    return idf.Vector({tv.tokens().begin(), tv.tokens().end()},
                                      {tv.counts().begin(), tv.counts().end()});
                  };
                  std::vector<std::vector<std::pair<uint32_t, double>>> cosines(
                      st.paragraphs_size());
                  for (int s = 0; s < st.paragraphs_size(); ++s) {
                    const auto& toks = st.paragraphs(s).paragraph().tokens();
                    std::vector<uint32_t> cand;
                    EXPECT_TRUE(
                        index->Candidates(en, r.normal_page_id(), {toks.begin(), toks.end()}, &cand)
                            .ok());
                    for (uint32_t c : cand)
                      cosines[s].emplace_back(c, Cosine(vec(st.paragraphs(s).paragraph()),
                                                        vec(nt.paragraphs(c).paragraph())));
                  }
                  auto assigned = AssignParagraphs(cosines, o.paragraph_threshold);
                  int k = 0;
                  for (size_t s = 0; s < assigned.size(); ++s) {
                    if (assigned[s].empty()) continue;
                    EXPECT_LT(k, r.paragraph_pairs_size()) << r.normal_title();
                    if (k >= r.paragraph_pairs_size()) break;
                    const pb::ParagraphPair& pp = r.paragraph_pairs(k++);
                    EXPECT_EQ(pp.simple_paragraph(), s);
                    EXPECT_EQ(std::vector<uint32_t>(pp.normal_paragraphs().begin(),
                                                    pp.normal_paragraphs().end()),
                              assigned[s]);
                    std::vector<double> want;
                    for (uint32_t a : assigned[s])
                      for (auto [c, cos] : cosines[s])
                        if (c == a) want.push_back(cos);
                    EXPECT_EQ(std::vector<double>(pp.cosines().begin(), pp.cosines().end()), want);
                    for (const auto& sp : pp.sentence_pairs())
                      EXPECT_EQ(sp.similarity(),
                                Cosine(vec(nt.paragraphs(sp.normal_paragraph())
                                               .sentences(sp.normal_sentence())),
                                       vec(st.paragraphs(s).sentences(sp.simple_sentence()))));
                    ++paragraph_pairs;
                  }
                  EXPECT_EQ(k, r.paragraph_pairs_size()) << r.normal_title();
                  return Status::OK();
                })
            .ok());
    EXPECT_GT(paragraph_pairs, 20);

    // One thread writes the same records, byte for byte.
    std::map<std::string, std::string> many;
    for (auto it = store->NewAlignmentIterator(en, simple, ""); it->Valid(); it->Next())
      many[it->name()] = it->record().SerializeAsString();
    o.threads = 1;
    o.all = true;
    AlignSummary one;
    ASSERT_TRUE(Align(store.get(), nullptr, o, 7, &one).ok());
    std::map<std::string, std::string> single;
    for (auto it = store->NewAlignmentIterator(en, simple, ""); it->Valid(); it->Next())
      single[it->name()] = it->record().SerializeAsString();
    EXPECT_EQ(single, many);
    EXPECT_EQ(one.AsCounts(), sum.AsCounts());
  }
}

// ------------------------------------------------------------------ candidate sources

// Every stored record of enwiki × simplewiki, serialized, by name.
std::map<std::string, std::string> StoredRecords(Store* store) {
  uint32_t en = 0, simple = 0;
  EXPECT_TRUE(store->EditionId("enwiki", false, &en).ok());
  EXPECT_TRUE(store->EditionId("simplewiki", false, &simple).ok());
  std::map<std::string, std::string> out;
  for (auto it = store->NewAlignmentIterator(en, simple, ""); it->Valid(); it->Next())
    out[it->name()] = it->record().SerializeAsString();
  return out;
}

// Re-aligns every pair of the database in `db` with paragraph candidates from `source` (the
// Xapian index in IndexDir(db), opened here), and returns the stored records.
std::map<std::string, std::string> AlignWith(Store* store, const std::string& db,
                                             CandidateSource source, AlignOptions o,
                                             AlignSummary* sum) {
  o.candidates = source;
  o.all = true;
  std::unique_ptr<ParagraphIndex> index;
  if (source == CandidateSource::kXapian)
    EXPECT_TRUE(ParagraphIndex::Open(IndexDir(db), true, &index).ok());
  Status s = Align(store, index.get(), o, 7, sum);
  EXPECT_TRUE(s.ok()) << s.ToString();
  return StoredRecords(store);
}

// Counts of a summary but those of the index.
std::map<std::string, uint64_t> AlignCounts(const AlignSummary& s) {
  auto c = s.AsCounts();
  c.erase("indexed_pages");
  c.erase("index_rebuilt");
  return c;
}

// A random database (`seed`, 30 articles) aligned once through a new Xapian index in
// tmp.Sub("db")/xapian; `records` gets its records.
std::unique_ptr<Store> AlignedThroughXapian(const TempDir& tmp, int seed,
                                            std::map<std::string, std::string>* records) {
  std::unique_ptr<Store> store = RandomDatabase(tmp, seed, 30);
  if (!store) return nullptr;
  AlignSummary sum;
  *records = AlignWith(store.get(), tmp.Sub("db"), CandidateSource::kXapian, AlignOptions(), &sum);
  EXPECT_GT(records->size(), 10u);
  return store;
}

// New revisions of every fourth article and a few new articles of one edition, as JSON lines.
std::string ChangedEdition(std::mt19937* rng, int articles, bool simple) {
  std::istringstream all(RandomEdition(rng, articles + 5, simple));
  std::string line, out;
  for (int a = 0; std::getline(all, line); ++a) {
    if (a < articles && a % 4 != 1) continue;
    nlohmann::json d = nlohmann::json::parse(line);
    d["revision"] = 2;
    out += d.dump() + "\n";
  }
  return out;
}

// The paragraph candidates of the Xapian index and of the article's in-memory index are the
// same, so the records are the same byte for byte: on random corpora (several seeds, thresholds
// and thread counts), after an update of both editions (the index applies the queued pages
// only), and after the index directory was deleted or replaced by another database's.
TEST(CandidateSourceTest, XapianAndArticleCandidatesGiveTheSameRecords) {
  for (unsigned seed : {11u, 12u, 13u, 14u}) {
    SCOPED_TRACE("seed " + std::to_string(seed));
    TempDir tmp;
    const std::string db = tmp.Sub("db");
    std::unique_ptr<Store> store = RandomDatabase(tmp, seed, 50);
    ASSERT_TRUE(store);
    AlignOptions o;
    o.paragraph_threshold = std::vector<double>{0.0, 0.05, 0.1, 0.15}[seed % 4];
    // 20 threads share 16 readers of the index in turn.
    o.threads = seed == 14 ? 20 : 1 + static_cast<int>(seed % 3);
    AlignSummary as, xs;
    auto article = AlignWith(store.get(), db, CandidateSource::kArticle, o, &as);
    ASSERT_GT(article.size(), 20u);
    EXPECT_EQ(as.indexed_pages, 0u);  // the default reads no index
    auto xapian = AlignWith(store.get(), db, CandidateSource::kXapian, o, &xs);
    EXPECT_EQ(xs.index_rebuilt, 1u);  // a new index is built from the store
    EXPECT_EQ(xs.indexed_pages, 50u);
    EXPECT_EQ(xapian, article);
    EXPECT_EQ(AlignCounts(xs), AlignCounts(as));
    EXPECT_GT(xs.paragraph_pairs, 10u);

    // An update of both editions: changed and new pages are queued, and only they are indexed.
    std::mt19937 rng(seed + 100);
    testing::WriteFile(tmp.Sub("n2.jsonl"), ChangedEdition(&rng, 50, false));
    testing::WriteFile(tmp.Sub("s2.jsonl"), ChangedEdition(&rng, 50, true));
    IngestSummary isum;
    ASSERT_TRUE(Ingest(store.get(),
                       {"enwiki=" + tmp.Sub("n2.jsonl"), "simplewiki=" + tmp.Sub("s2.jsonl")}, {},
                       &isum)
                    .ok());
    AlignSummary xs2, as2;
    auto xapian2 = AlignWith(store.get(), db, CandidateSource::kXapian, o, &xs2);
    EXPECT_EQ(xs2.index_rebuilt, 0u);
    EXPECT_EQ(xs2.indexed_pages, 13u + 5u);  // articles 1, 5, ..., 49 and 50..54
    auto article2 = AlignWith(store.get(), db, CandidateSource::kArticle, o, &as2);
    EXPECT_EQ(xapian2, article2);
    EXPECT_NE(article2, article);  // the update changed records
    auto counts2 = AlignCounts(as2);
    counts2.erase("stale_removed");  // records of pairs gone: deleted by the first run after
    auto xapian_counts2 = AlignCounts(xs2);
    xapian_counts2.erase("stale_removed");
    EXPECT_EQ(xapian_counts2, counts2);

    // A deleted index directory is rebuilt from the store: the same records, not empty ones.
    std::filesystem::remove_all(IndexDir(db));
    AlignSummary xs3;
    EXPECT_EQ(AlignWith(store.get(), db, CandidateSource::kXapian, o, &xs3), article2);
    EXPECT_EQ(xs3.index_rebuilt, 1u);
    EXPECT_EQ(xs3.indexed_pages, 55u);
    EXPECT_EQ(AlignCounts(xs3), AlignCounts(as2));
    EXPECT_GT(xs3.paragraph_pairs, 10u);

    // The index of another database (same titles, other texts) is rebuilt too.
    {
      TempDir other_tmp;
      std::unique_ptr<Store> other = RandomDatabase(other_tmp, seed + 1000, 50);
      ASSERT_TRUE(other);
      AlignSummary os;
      AlignWith(other.get(), other_tmp.Sub("db"), CandidateSource::kXapian, o, &os);
      std::filesystem::remove_all(IndexDir(db));
      std::filesystem::copy(IndexDir(other_tmp.Sub("db")), IndexDir(db));
    }
    AlignSummary xs4;
    EXPECT_EQ(AlignWith(store.get(), db, CandidateSource::kXapian, o, &xs4), article2);
    EXPECT_EQ(xs4.index_rebuilt, 1u);
    EXPECT_EQ(AlignCounts(xs4), AlignCounts(as2));
  }
}

// An index that disagrees with the store although it is marked as the store's (a paragraph
// document lost) stops align with an I/O error naming the index: never a silently smaller
// candidate set.
TEST(CandidateSourceTest, AnIndexThatDisagreesWithTheStoreIsAnError) {
  // Damage of three kinds to the documents of one article with two paragraphs or more, the
  // index's metadata still saying "this store's, this generation": a paragraph's document gone,
  // one token gone from a paragraph, one token moved to another paragraph.
  for (int damage = 0; damage < 3; ++damage) {
    SCOPED_TRACE("damage " + std::to_string(damage));
    TempDir tmp;
    const std::string db = tmp.Sub("db");
    std::map<std::string, std::string> records;
    std::unique_ptr<Store> store = AlignedThroughXapian(tmp, 21, &records);
    ASSERT_TRUE(store);
    AlignOptions o;
    AlignSummary sum;
    uint32_t en = 0, simple = 0;
    ASSERT_TRUE(store->EditionId("enwiki", false, &en).ok());
    ASSERT_TRUE(store->EditionId("simplewiki", false, &simple).ok());
    pb::AlignmentRecord r;
    for (const auto& [name, bytes] : records) {
      ASSERT_TRUE(store->GetAlignment(en, simple, name, &r).ok());
      if (r.normal_paragraphs() >= 2) break;
    }
    ASSERT_GE(r.normal_paragraphs(), 2u);
    {
      Xapian::WritableDatabase x(IndexDir(db), Xapian::DB_OPEN);
      const std::string q = "Q" + std::to_string(en) + ":" + std::to_string(r.normal_page_id());
      auto doc_of = [&](const std::string& unique) { return *x.postlist_begin(unique); };
      auto tokens_of = [&](Xapian::docid d) {
        std::vector<std::string> out;
        for (auto t = x.termlist_begin(d); t != x.termlist_end(d); ++t)
          if (!(*t).empty() && (*t)[0] != 'Q' && (*t)[0] != 'A') out.push_back(*t);
        return out;
      };
      if (damage == 0) {
        x.delete_document(q + ":0");
      } else {
        const Xapian::docid d0 = doc_of(q + ":0"), d1 = doc_of(q + ":1");
        std::vector<std::string> t0 = tokens_of(d0), t1 = tokens_of(d1);
        ASSERT_FALSE(t0.empty());
        std::string moved = t0[0];
        for (const auto& t : t0)
          if (std::find(t1.begin(), t1.end(), t) == t1.end()) moved = t;
        Xapian::Document doc = x.get_document(d0);
        doc.remove_term(moved);
        x.replace_document(d0, doc);
        if (damage == 2) {
          if (std::find(t1.begin(), t1.end(), moved) != t1.end()) continue;  // nothing to move
          Xapian::Document other = x.get_document(d1);
          other.add_term(moved);
          x.replace_document(d1, other);
        }
      }
      x.commit();  // the metadata still says: this store's, this generation
    }
    std::unique_ptr<ParagraphIndex> index;
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(db), true, &index).ok());
    o.all = true;
    o.candidates = CandidateSource::kXapian;
    Status s = Align(store.get(), index.get(), o, 8, &sum);
    EXPECT_EQ(s.code(), Status::Code::kIOError) << s.ToString();
    EXPECT_NE(s.ToString().find(IndexDir(db)), std::string::npos) << s.ToString();
    EXPECT_NE(s.ToString().find("disagrees"), std::string::npos) << s.ToString();
    EXPECT_EQ(StoredRecords(store.get()), records);  // nothing was written

    // Without the index, kXapian is refused.
    EXPECT_EQ(Align(store.get(), nullptr, o, 9, &sum).code(), Status::Code::kInvalidArgument);
  }
}

TEST(CandidateSourceTest, ADamagedIndexIsMadeAgain) {
  // Index files cut short or overwritten with garbage: the index is derived, so it is made again
  // from the store, and the records are those of the intact index.
  for (int damage = 0; damage < 2; ++damage) {
    TempDir tmp;
    const std::string db = tmp.Sub("db");
    std::map<std::string, std::string> records;
    std::unique_ptr<Store> store = AlignedThroughXapian(tmp, 23, &records);
    ASSERT_TRUE(store);
    AlignOptions o;
    int files = 0;
    for (const auto& f : std::filesystem::directory_iterator(IndexDir(db))) {
      if (f.path().extension() != ".glass") continue;
      ++files;
      if (damage == 0)
        std::filesystem::resize_file(f.path(), 8192);
      else
        testing::WriteFile(f.path().string(), std::string(20000, 'x'));
    }
    ASSERT_GT(files, 0);
    AlignSummary again;
    EXPECT_EQ(AlignWith(store.get(), db, CandidateSource::kXapian, o, &again), records);
    EXPECT_EQ(again.index_rebuilt, 1u);
  }
}

TEST(CandidateSourceTest, AnIndexMadeByAnotherTokenizerIsRebuilt) {
  TempDir tmp;
  const std::string db = tmp.Sub("db");
  std::map<std::string, std::string> records;
  std::unique_ptr<Store> store = AlignedThroughXapian(tmp, 22, &records);
  ASSERT_TRUE(store);
  AlignOptions o;
  {
    Xapian::WritableDatabase x(IndexDir(db), Xapian::DB_OPEN);
    x.set_metadata("aligndb.tokenizer", "unicode 1.0");
    x.commit();
  }
  o.all = true;
  AlignSummary again;
  EXPECT_EQ(AlignWith(store.get(), db, CandidateSource::kXapian, o, &again), records);
  EXPECT_EQ(again.index_rebuilt, 1u);
}

// The keep decision reads the keep record, not the record; a record written without one (by an
// older aligndb) is still kept, through the record itself; a changed page is re-aligned.
TEST(KeepRecordTest, KeptThroughTheKeepRecordOrTheRecordAndRealignedWhenAPageChanges) {
  TempDir tmp;
  std::unique_ptr<Store> store = RandomDatabase(tmp, 5, 30);
  ASSERT_TRUE(store);
  IngestSummary isum;
  AlignOptions o;
  o.paragraph_threshold = 0.2;
  AlignSummary first;
  ASSERT_TRUE(Align(store.get(), nullptr, o, 1, &first).ok());
  ASSERT_GT(first.aligned, 10u);
  uint32_t en, simple;
  ASSERT_TRUE(store->EditionId("enwiki", false, &en).ok());
  ASSERT_TRUE(store->EditionId("simplewiki", false, &simple).ok());
  std::map<std::string, std::string> records;
  for (auto it = store->NewAlignmentIterator(en, simple, ""); it->Valid(); it->Next()) {
    records[it->name()] = it->record().SerializeAsString();
    pb::AlignmentKeep k;
    ASSERT_TRUE(store->GetAlignmentKeep(en, simple, it->name(), &k).ok()) << it->name();
    EXPECT_EQ(k.normal_page_id(), it->record().normal_page_id());
    EXPECT_EQ(k.params(), it->record().params().SerializeAsString());
    EXPECT_EQ(k.paragraph_pairs(), static_cast<uint64_t>(it->record().paragraph_pairs_size()));
  }
  AlignSummary again;
  ASSERT_TRUE(Align(store.get(), nullptr, o, 2, &again).ok());
  EXPECT_EQ(again.kept, first.aligned);
  EXPECT_EQ(again.realigned, 0u);
  EXPECT_EQ(again.sentence_pairs, first.sentence_pairs);
  EXPECT_EQ(again.paragraph_pairs, first.paragraph_pairs);

  // As an older aligndb left them: records without keep records (Put removes the keep record).
  {
    auto w = store->NewAlignmentWriter(en, simple);
    for (auto& [name, bytes] : records) {
      pb::AlignmentRecord r;
      ASSERT_TRUE(r.ParseFromString(bytes));
      ASSERT_TRUE(w->Put(name, r).ok());
    }
    ASSERT_TRUE(w->Flush().ok());
    pb::AlignmentKeep k;
    EXPECT_TRUE(store->GetAlignmentKeep(en, simple, records.begin()->first, &k).IsNotFound());
  }
  AlignSummary old;
  ASSERT_TRUE(Align(store.get(), nullptr, o, 3, &old).ok());
  EXPECT_EQ(old.kept, first.aligned);
  EXPECT_EQ(old.sentence_pairs, first.sentence_pairs);
  for (auto& [name, bytes] : records) {  // kept records gained keep records, and are unchanged
    pb::AlignmentKeep k;
    EXPECT_TRUE(store->GetAlignmentKeep(en, simple, name, &k).ok()) << name;
    pb::AlignmentRecord r;
    ASSERT_TRUE(store->GetAlignment(en, simple, name, &r).ok());
    EXPECT_EQ(r.SerializeAsString(), bytes);
  }

  // A new revision of one simple page: that pair alone is re-aligned.
  testing::WriteFile(tmp.Sub("s1.jsonl"),
                     R"({"title": "Article 0", "revision": 99, "paragraphs": [["w1 w2 w3.", )"
                     R"("w4 w5."], ["w1 w6."]]})"
                     "\n");
  IngestOptions io;
  io.edition = "simplewiki";
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("s1.jsonl")}, io, &isum).ok());
  AlignSummary changed;
  ASSERT_TRUE(Align(store.get(), nullptr, o, 4, &changed).ok());
  EXPECT_EQ(changed.realigned, 1u);
  EXPECT_EQ(changed.kept, first.aligned - records.count("Article 0"));
}

// A database of schema version 1 (without keep records) or 2 (with stored postings) opens
// read-only as it is, and its first writer marks it version 3; a newer version is refused.
TEST(KeepRecordTest, OlderSchemaVersionsOpenAndAreMarkedThreeByAWriter) {
  for (const char* old : {"1", "2"}) {
    TempDir tmp;
    StoreOptions so;
    so.create_if_missing = true;
    {
      std::unique_ptr<Store> store;
      ASSERT_TRUE(Store::Open(so, tmp.Sub("db"), &store).ok());
      ASSERT_TRUE(store->PutMeta("schema_version", old).ok());
    }
    StoreOptions ro;
    ro.read_only = true;
    std::string v;
    {
      std::unique_ptr<Store> store;
      ASSERT_TRUE(Store::Open(ro, tmp.Sub("db"), &store).ok());
      ASSERT_TRUE(store->GetMeta("schema_version", &v).ok());
      EXPECT_EQ(v, old);
    }
    {
      std::unique_ptr<Store> store;
      ASSERT_TRUE(Store::Open(so, tmp.Sub("db"), &store).ok());
      ASSERT_TRUE(store->GetMeta("schema_version", &v).ok());
      EXPECT_EQ(v, "3");
      ASSERT_TRUE(store->PutMeta("schema_version", "4").ok());
    }
    std::unique_ptr<Store> store;
    EXPECT_EQ(Store::Open(so, tmp.Sub("db"), &store).code(), Status::Code::kInvalidArgument);
  }
}

// ------------------------------------------------------------------ on real data

class RealDataTest : public ::testing::Test {
 protected:
  void SetUp() override {
    StoreOptions opts;
    opts.create_if_missing = true;
    ASSERT_TRUE(Store::Open(opts, tmp_.Sub("db"), &store_).ok());
    IngestSummary sum;
    ASSERT_TRUE(Ingest(store_.get(),
                       {DataPath("wikidumps/enwiki-gensim-sample.xml.bz2"),
                        DataPath("wikidumps/simplewiki-sample.xml.bz2")},
                       {}, &sum)
                    .ok());
    ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp_.Sub("db")), true, &index_).ok());
  }
  TempDir tmp_;
  std::unique_ptr<Store> store_;
  std::unique_ptr<ParagraphIndex> index_;

  // The terms of the article titled `title` (the plain reference, TermsOf), made once.
  const pb::ArticleTerms& Terms(uint32_t edition, const std::string& title) {
    auto key = std::make_pair(edition, title);
    auto it = terms_.find(key);
    if (it == terms_.end()) {
      uint64_t id = 0;
      EXPECT_TRUE(store_->FindArticle(edition, title, &id).ok()) << title;
      pb::Article a;
      EXPECT_TRUE(store_->GetArticle(edition, id, &a).ok()) << title;
      it = terms_.emplace(key, TermsOf(a)).first;
    }
    return it->second;
  }
  // Every exported row, parsed, fields in export order.
  std::vector<nlohmann::ordered_json> ExportRows(const ExportOptions& o) {
    std::ostringstream out;
    uint64_t n = 0;
    EXPECT_TRUE(Export(store_.get(), o, out, &n).ok());
    std::vector<nlohmann::ordered_json> rows;
    std::istringstream in(out.str());
    std::string line;
    while (std::getline(in, line)) rows.push_back(nlohmann::ordered_json::parse(line));
    EXPECT_EQ(rows.size(), n);
    return rows;
  }

 private:
  std::map<std::pair<uint32_t, std::string>, pb::ArticleTerms> terms_;
};

TEST_F(RealDataTest, XapianCandidatesAreExactlyTheParagraphsSharingAToken) {
  uint32_t en, simple;
  ASSERT_TRUE(store_->EditionId("enwiki", false, &en).ok());
  ASSERT_TRUE(store_->EditionId("simplewiki", false, &simple).ok());
  uint64_t applied = 0;
  ASSERT_TRUE(index_->Apply(store_.get(), en, &applied).ok());
  EXPECT_EQ(applied, 106u);
  EditionCounts c;
  ASSERT_TRUE(store_->GetEditionCounts(en, &c).ok());
  EXPECT_EQ(index_->DocumentCount(), static_cast<uint64_t>(c.paragraphs));
  // Applying again does nothing: the queue is empty.
  ASSERT_TRUE(index_->Apply(store_.get(), en, &applied).ok());
  EXPECT_EQ(applied, 0u);

  int checked = 0;
  for (const char* title : {"A", "Art"}) {
    uint64_t nid;
    ASSERT_TRUE(store_->FindArticle(en, title, &nid).ok());
    const pb::ArticleTerms& nt = Terms(en, title);
    const pb::ArticleTerms& st = Terms(simple, title);
    for (const auto& sp : st.paragraphs()) {
      std::set<std::string> tokens(sp.paragraph().tokens().begin(), sp.paragraph().tokens().end());
      std::vector<uint32_t> want;
      for (int n = 0; n < nt.paragraphs_size(); ++n)
        for (const auto& t : nt.paragraphs(n).paragraph().tokens())
          if (tokens.count(t)) {
            want.push_back(static_cast<uint32_t>(n));
            break;
          }
      std::vector<uint32_t> got;
      ASSERT_TRUE(
          index_->Candidates(en, nid, std::vector<std::string>(tokens.begin(), tokens.end()), &got)
              .ok());
      EXPECT_EQ(got, want) << title;
      // The article's own index (what the aligner uses) gives the same set.
      std::unordered_map<std::string, std::vector<uint32_t>> by_token;
      ASSERT_TRUE(index_->ArticleIndex(en, nid, &by_token).ok());
      std::set<uint32_t> via_article;
      for (const auto& t : tokens)
        if (by_token.count(t)) via_article.insert(by_token[t].begin(), by_token[t].end());
      EXPECT_EQ(std::vector<uint32_t>(via_article.begin(), via_article.end()), want) << title;
      ++checked;
    }
  }
  EXPECT_GT(checked, 20);
}

TEST_F(RealDataTest, AlignLookupExportStats) {
  AlignSummary sum;
  ASSERT_TRUE(Align(store_.get(), index_.get(), AlignOptions(), 1, &sum).ok());
  EXPECT_EQ(sum.title_matches, 2u);  // "A" and "Art"
  EXPECT_EQ(sum.aligned, 2u);
  EXPECT_GT(sum.paragraph_pairs, 0u);

  std::ostringstream text;
  ASSERT_TRUE(Lookup(store_.get(), {}, "art", OutputFormat::kText, text).ok());
  EXPECT_NE(text.str().find("enwiki \"Art\""), std::string::npos);
  EXPECT_NE(text.str().find("Islamic art includes geometric patterns"), std::string::npos)
      << text.str();
  std::ostringstream missing;
  Status s = Lookup(store_.get(), {}, "Anarchism", OutputFormat::kText, missing);
  EXPECT_TRUE(s.IsNotFound());
  EXPECT_NE(s.message().find("only enwiki has this title"), std::string::npos) << s.message();

  // The string form prints what the stream form prints, replacing what the caller's string held.
  for (OutputFormat format : {OutputFormat::kText, OutputFormat::kJson}) {
    std::ostringstream stream;
    ASSERT_TRUE(Lookup(store_.get(), {}, "Art", format, stream).ok());
    std::string kept = "left from an earlier lookup";
    ASSERT_TRUE(Lookup(store_.get(), {}, "Art", format, &kept).ok());
    EXPECT_EQ(kept, stream.str());
    EXPECT_TRUE(Lookup(store_.get(), {}, "Anarchism", format, &kept).IsNotFound());
    EXPECT_EQ(kept, "");
  }

  // Export: every filter, checked against the records themselves.
  ExportOptions all;
  all.min_sim = 0;
  auto every = ExportRows(all);
  EXPECT_EQ(every.size(), sum.sentence_pairs);
  ExportOptions dflt;
  auto kept = ExportRows(dflt);
  size_t expect_kept = 0;
  for (auto& r : every) expect_kept += r["similarity"].get<double>() >= 0.5;
  EXPECT_EQ(kept.size(), expect_kept);
  EXPECT_GT(kept.size(), 0u);
  for (auto& r : kept) {
    EXPECT_GE(r["similarity"].get<double>(), 0.5);
    std::vector<std::string> keys;
    for (auto& [k, v] : r.items()) keys.push_back(k);
    EXPECT_EQ(keys, (std::vector<std::string>{"normal_title", "simple_title", "normal", "simple",
                                              "similarity", "op", "normal_index", "simple_index",
                                              "normal_revision", "simple_revision", "label"}));
  }
  ExportOptions only11 = all;
  only11.ops = {Op::kOneOne};
  for (auto& r : ExportRows(only11)) EXPECT_EQ(r["op"], "1-1");
  ExportOptions title = all;
  title.title = "A";
  for (auto& r : ExportRows(title)) EXPECT_EQ(r["normal_title"], "A");
  ExportOptions band = all;
  band.min_sim = 0.2;
  band.max_sim = 0.6;
  for (auto& r : ExportRows(band)) {
    EXPECT_GE(r["similarity"].get<double>(), 0.2);
    EXPECT_LE(r["similarity"].get<double>(), 0.6);
  }
  ExportOptions no_ident = all;
  no_ident.no_identical = true;
  for (auto& r : ExportRows(no_ident)) EXPECT_NE(r["normal"], r["simple"]);

  // The exported sentences are the stored ones at the stated indexes.
  uint32_t en;
  ASSERT_TRUE(store_->EditionId("enwiki", false, &en).ok());
  for (auto& r : every) {
    uint64_t id;
    ASSERT_TRUE(store_->FindArticle(en, r["normal_title"], &id).ok());
    pb::Article a;
    ASSERT_TRUE(store_->GetArticle(en, id, &a).ok());
    EXPECT_EQ(a.paragraphs(r["normal_index"][0]).sentences(r["normal_index"][1]), r["normal"]);
  }

  // Parallel files are line-aligned; TSV has the header and one line a pair.
  ExportOptions par = dflt;
  par.format = ExportFormat::kParallel;
  par.out_prefix = tmp_.Sub("out");
  std::ostringstream ignored;
  uint64_t n = 0;
  ASSERT_TRUE(Export(store_.get(), par, ignored, &n).ok());
  auto count_lines = [](const std::string& s) { return std::count(s.begin(), s.end(), '\n'); };
  EXPECT_EQ(count_lines(testing::ReadFile(tmp_.Sub("out.normal"))), static_cast<long>(n));
  EXPECT_EQ(count_lines(testing::ReadFile(tmp_.Sub("out.simple"))), static_cast<long>(n));
  ExportOptions tsv = dflt;
  tsv.format = ExportFormat::kTsv;
  std::ostringstream tout;
  ASSERT_TRUE(Export(store_.get(), tsv, tout, &n).ok());
  EXPECT_EQ(tout.str().substr(0, 25), "normal_title\tsimple_title");
  EXPECT_EQ(count_lines(tout.str()), static_cast<long>(n + 1));

  std::ostringstream stats;
  ASSERT_TRUE(Stats(store_.get(), {}, 0.5, OutputFormat::kJson, stats).ok());
  auto js = nlohmann::json::parse(stats.str());
  EXPECT_EQ(js["sentence_pairs"], kept.size());
  EXPECT_EQ(js["sentence_pairs_all"], every.size());
  EXPECT_EQ(js["article_pairs"]["aligned"], 2);
  double shares = 0;
  for (auto& [k, v] : js["operation_shares"].items()) shares += v.get<double>();
  EXPECT_NEAR(shares, 1.0, 1e-9);
}

TEST_F(RealDataTest, EmbeddingSimilarityInTheDynamicProgramAndAllPairs) {
  std::unique_ptr<WordVectors> vectors;
  ASSERT_TRUE(WordVectors::Load(DataPath("vectors/lee_fasttext.vec"), "-", &vectors).ok());
  std::unique_ptr<PairScorer> maximum, wmd;
  ASSERT_TRUE(PairScorer::Create(SimilarityMeasure::kMaximum, vectors.get(), 0.49, &maximum).ok());
  ASSERT_TRUE(PairScorer::Create(SimilarityMeasure::kWmd, vectors.get(), 0, &wmd).ok());
  uint32_t en, simple;
  ASSERT_TRUE(store_->EditionId("enwiki", false, &en).ok());
  ASSERT_TRUE(store_->EditionId("simplewiki", false, &simple).ok());
  auto bag = [&](uint32_t ed, const std::string& title, uint32_t p, uint32_t s) {
    Tokens out;
    const auto& tv = Terms(ed, title).paragraphs(p).sentences(s);
    for (int k = 0; k < tv.tokens_size(); ++k)
      for (uint32_t c = 0; c < tv.counts(k); ++c) out.push_back(tv.tokens(k));
    return out;
  };
  ExportOptions everything;
  everything.min_sim = -1;  // the lowest similarity of every measure
  auto export_all = [&] { return ExportRows(everything); };

  // 1. maximum in the dynamic program: every stored similarity is the scorer's.
  AlignOptions o;
  o.similarity = SimilarityMeasure::kMaximum;
  o.scorer = maximum.get();
  o.theta = 0.49;
  o.vectors = "lee_fasttext.vec";
  AlignSummary sum;
  ASSERT_TRUE(Align(store_.get(), index_.get(), o, 1, &sum).ok());
  auto rows = export_all();
  ASSERT_FALSE(rows.empty());
  for (auto& r : rows) {
    double want =
        maximum->Score(bag(en, r["normal_title"], r["normal_index"][0], r["normal_index"][1]),
                       bag(simple, r["simple_title"], r["simple_index"][0], r["simple_index"][1]));
    EXPECT_NEAR(r["similarity"].get<double>(), want, 1e-12);
  }
  std::ostringstream lookup;
  ASSERT_TRUE(Lookup(store_.get(), {}, "Art", OutputFormat::kJson, lookup).ok());
  auto lj = nlohmann::json::parse(lookup.str());
  EXPECT_EQ(lj["params"]["similarity"], "maximum");

  // 2. all-pairs with wmd: exactly the sentence pairs whose exact similarity reaches the
  //    threshold, although the relaxed-WMD bound skipped most pairs without solving them.
  AlignOptions all;
  all.mode = AlignMode::kAllPairs;
  all.similarity = SimilarityMeasure::kWmd;
  all.scorer = wmd.get();
  all.pair_threshold = 0.6;
  AlignSummary as;
  ASSERT_TRUE(Align(store_.get(), index_.get(), all, 2, &as).ok());
  EXPECT_GT(as.bound_skipped, 0u);
  std::set<std::string> got;
  for (auto& r : export_all()) {
    EXPECT_EQ(r["op"], "pair");
    EXPECT_GE(r["similarity"].get<double>(), 0.6);
    got.insert(r["normal_title"].get<std::string>() + r["normal_index"].dump() +
               r["simple_index"].dump());
  }
  std::set<std::string> want;
  for (const char* title : {"A", "Art"}) {
    const pb::ArticleTerms& nt = Terms(en, title);
    const pb::ArticleTerms& st = Terms(simple, title);
    for (int sp = 0; sp < st.paragraphs_size(); ++sp)
      for (int ss = 0; ss < st.paragraphs(sp).sentences_size(); ++ss)
        for (int np = 0; np < nt.paragraphs_size(); ++np)
          for (int ns = 0; ns < nt.paragraphs(np).sentences_size(); ++ns)
            if (wmd->Score(bag(en, title, np, ns), bag(simple, title, sp, ss)) >= 0.6)
              want.insert(std::string(title) + "[" + std::to_string(np) + "," + std::to_string(ns) +
                          "][" + std::to_string(sp) + "," + std::to_string(ss) + "]");
  }
  EXPECT_EQ(got, want);
  EXPECT_FALSE(want.empty());
}

TEST(FollowRedirectsTest, PairsThroughANormalEditionRedirect) {
  TempDir tmp;
  auto page = [](const std::string& title, int id, const std::string& body) {
    return "<page><title>" + title + "</title><ns>0</ns><id>" + std::to_string(id) + "</id>" +
           body + "</page>";
  };
  auto article = [&](const std::string& title, int id, const std::string& text) {
    return page(title, id, "<revision><id>1</id><text>" + text + "</text></revision>");
  };
  std::string text =
      "An airplane is a powered aircraft with fixed wings. It flies by the lift of its wings.";
  testing::WriteFile(
      tmp.Sub("en.xml"),
      "<mediawiki><siteinfo><dbname>enwiki</dbname></siteinfo>" +
          article("Fixed-wing aircraft", 1, text) +
          page("Airplane", 2,
               "<redirect title=\"Fixed-wing aircraft\"/><revision><id>1</id><text>#REDIRECT "
               "[[Fixed-wing aircraft]]</text></revision>") +
          "</mediawiki>");
  testing::WriteFile(tmp.Sub("simple.xml"),
                     "<mediawiki><siteinfo><dbname>simplewiki</dbname></siteinfo>" +
                         article("Airplane", 7, text) + "</mediawiki>");
  std::unique_ptr<Store> store;
  StoreOptions o;
  o.create_if_missing = true;
  ASSERT_TRUE(Store::Open(o, tmp.Sub("db"), &store).ok());
  IngestSummary is;
  ASSERT_TRUE(Ingest(store.get(), {tmp.Sub("en.xml"), tmp.Sub("simple.xml")}, {}, &is).ok());
  std::unique_ptr<ParagraphIndex> index;
  ASSERT_TRUE(ParagraphIndex::Open(IndexDir(tmp.Sub("db")), true, &index).ok());
  AlignSummary plain;
  ASSERT_TRUE(Align(store.get(), index.get(), {}, 1, &plain).ok());
  EXPECT_EQ(plain.title_matches, 0u);
  AlignOptions follow;
  follow.follow_redirects = true;
  AlignSummary with;
  ASSERT_TRUE(Align(store.get(), index.get(), follow, 2, &with).ok());
  EXPECT_EQ(with.title_matches, 1u);
  EXPECT_EQ(with.aligned, 1u);
  std::ostringstream out;
  ASSERT_TRUE(Lookup(store.get(), {}, "Airplane", OutputFormat::kJson, out).ok());
  auto j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["normal_title"], "Fixed-wing aircraft");
  EXPECT_EQ(j["simple_title"], "Airplane");
  // The record is named after the simple title; the normal title finds it too, as export prints
  // it (lookup, export --title).
  pb::AlignmentRecord by_normal;
  ASSERT_TRUE(LookupRecord(store.get(), {}, "Fixed-wing aircraft", &by_normal).ok());
  EXPECT_EQ(by_normal.simple_title(), "Airplane");
  ExportOptions eo;
  eo.title = "fixed-wing aircraft";  // the record has no paragraph pairs: found, no rows
  EXPECT_TRUE(
      ForEachExportedPair(store.get(), eo, [](const ExportedPair&) { return Status::OK(); }).ok());
  pb::AlignmentRecord none;
  EXPECT_TRUE(LookupRecord(store.get(), {}, "Fixed-wing", &none).IsNotFound());
}

}  // namespace
}  // namespace aligndb

namespace aligndb {
namespace {

// Records of versions 1 and 2 (before labels) still read, and the next align run re-aligns
// them (instead of keeping them unlabelled): afterwards every pair carries its labels.
TEST_F(RealDataTest, OlderRecordsAreReadAndRealignedWithLabels) {
  AlignSummary first;
  ASSERT_TRUE(Align(store_.get(), index_.get(), {}, 1, &first).ok());
  ASSERT_GT(first.aligned, 0u);
  uint32_t en, simple;
  ASSERT_TRUE(store_->EditionId("enwiki", false, &en).ok());
  ASSERT_TRUE(store_->EditionId("simplewiki", false, &simple).ok());
  std::vector<std::pair<std::string, pb::AlignmentRecord>> records;
  auto it = store_->NewAlignmentIterator(en, simple, "");
  for (; it->Valid(); it->Next()) records.emplace_back(it->name(), it->record());
  ASSERT_TRUE(it->status().ok());
  ASSERT_EQ(records.size(), first.aligned);
  auto writer = store_->NewAlignmentWriter(en, simple);
  int k = 0;
  for (auto& [name, r] : records) {
    r.set_version(1 + k++ % 2);  // as versions 1 and 2 wrote them: no labels
    for (auto& pp : *r.mutable_paragraph_pairs())
      for (auto& sp : *pp.mutable_sentence_pairs()) {
        sp.clear_label();
        sp.clear_operation_label();
        sp.clear_operation_similarity();
      }
    ASSERT_TRUE(writer->Put(name, r).ok());
  }
  ASSERT_TRUE(writer->Flush().ok());
  // An old record reads: lookup shows it without labels.
  std::ostringstream out;
  ASSERT_TRUE(
      Lookup(store_.get(), {}, records[0].second.normal_title(), OutputFormat::kText, out).ok());
  EXPECT_EQ(out.str().find("good"), std::string::npos);
  EXPECT_EQ(out.str().find("partial"), std::string::npos);

  AlignSummary second;
  ASSERT_TRUE(Align(store_.get(), index_.get(), {}, 2, &second).ok());
  EXPECT_EQ(second.kept, 0u);
  EXPECT_EQ(second.realigned, first.aligned);
  size_t pairs = 0;
  for (auto& [name, r] : records) {
    pb::AlignmentRecord back;
    ASSERT_TRUE(store_->GetAlignment(en, simple, name, &back).ok());
    EXPECT_EQ(back.version(), kAlignmentRecordVersion);
    for (const auto& pp : back.paragraph_pairs())
      for (const auto& sp : pp.sentence_pairs()) {
        ++pairs;
        EXPECT_NE(sp.label(), pb::LABEL_NONE);
        EXPECT_NE(sp.operation_label(), pb::LABEL_NONE);
      }
  }
  EXPECT_GT(pairs, 0u);
  // A third run keeps the current records.
  AlignSummary third;
  ASSERT_TRUE(Align(store_.get(), index_.get(), {}, 3, &third).ok());
  EXPECT_EQ(third.kept, first.aligned);
}

}  // namespace
}  // namespace aligndb

namespace aligndb {
namespace {

// The reference: the TF-IDF cosine of two bags written out directly.
double SlowBagCosine(const std::vector<std::string>& a, const std::vector<std::string>& b,
                     const std::unordered_map<std::string, double>& idf) {
  std::map<std::string, double> va, vb;
  auto w = [&](const std::string& t) { return idf.count(t) ? idf.at(t) : 0.0; };
  for (const auto& t : a) va[t] += w(t);
  for (const auto& t : b) vb[t] += w(t);
  double dot = 0, na = 0, nb = 0;
  for (auto& [t, x] : va) {
    na += x * x;
    if (vb.count(t)) dot += x * vb[t];
  }
  for (auto& [t, x] : vb) nb += x * x;
  return na == 0 || nb == 0 ? 0.0 : std::min(1.0, dot / std::sqrt(na * nb));
}

TEST(BagCosineTest, AgreesWithTheSlowReferenceOnRandomBags) {
  std::mt19937 rng(11);
  const std::vector<std::string> vocab = {"a", "b", "c", "d", "e", "f", "g", "h"};
  std::unordered_map<std::string, double> idf;
  for (const auto& t : vocab)
    if (rng() % 4) idf[t] = (rng() % 1000) / 250.0;  // some tokens have no idf (weight 0)
  for (int trial = 0; trial < 2000; ++trial) {
    std::vector<std::string> a, b;
    for (int k = static_cast<int>(rng() % 7); k > 0; --k) a.push_back(vocab[rng() % vocab.size()]);
    for (int k = static_cast<int>(rng() % 7); k > 0; --k) b.push_back(vocab[rng() % vocab.size()]);
    EXPECT_NEAR(BagCosine(a, b, idf), SlowBagCosine(a, b, idf), 1e-12);
  }
  EXPECT_EQ(BagCosine({"a", "a"}, {"a"}, {{"a", 2.0}}), 1.0);
  EXPECT_EQ(BagCosine({}, {"a"}, {{"a", 2.0}}), 0.0);
}

}  // namespace
}  // namespace aligndb

namespace aligndb {
namespace {

// The operation unit of export against a slow reference built from the sentence rows: pairs
// grouped two by two for 1-2, 2-1 and 2-2 (as the dynamic program emits them), sides joined in
// document order, similarity the TF-IDF cosine of the joined texts (idf read from the store),
// label from the rule on the operation's sentences.
TEST_F(RealDataTest, OperationRowsMatchAReferenceBuiltFromSentenceRows) {
  AlignSummary sum;
  ASSERT_TRUE(Align(store_.get(), index_.get(), {}, 1, &sum).ok());
  ExportOptions all;
  all.min_sim = -1;
  auto sentences = ExportRows(all);
  ASSERT_GT(sentences.size(), 5u);
  uint32_t en, simple;
  ASSERT_TRUE(store_->EditionId("enwiki", false, &en).ok());
  ASSERT_TRUE(store_->EditionId("simplewiki", false, &simple).ok());
  EditionCounts nc, sc;
  ASSERT_TRUE(store_->GetEditionCounts(en, &nc).ok());
  ASSERT_TRUE(store_->GetEditionCounts(simple, &sc).ok());
  const double n = static_cast<double>(nc.paragraphs + sc.paragraphs);
  std::unordered_map<std::string, double> idf;
  auto tokens = [&](const std::string& text) {
    std::vector<std::string> t;
    Tokenize(text, &t);
    for (const auto& tok : t) {
      if (idf.count(tok)) continue;
      std::vector<int64_t> a, b;
      EXPECT_TRUE(store_->DocumentFrequencies(en, {tok}, &a).ok());
      EXPECT_TRUE(store_->DocumentFrequencies(simple, {tok}, &b).ok());
      idf[tok] = a[0] + b[0] > 0 ? std::log(n / static_cast<double>(a[0] + b[0])) : -1;
    }
    return t;
  };
  auto idf_fn = [&](const std::string& t) {
    auto it = idf.find(t);
    return it == idf.end() || it->second < 0 ? std::log(n) : it->second;
  };
  std::vector<nlohmann::ordered_json> want;
  int multi = 0;
  for (size_t k = 0; k < sentences.size();) {
    const auto& a = sentences[k];
    const bool two = a["op"] != "1-1" && a["op"] != "pair";
    ASSERT_TRUE(!two || k + 1 < sentences.size());
    std::map<std::vector<int>, std::string> ns, ss;
    for (size_t i = k; i < k + (two ? 2 : 1); ++i) {
      ASSERT_EQ(sentences[i]["op"], a["op"]);
      ns[sentences[i]["normal_index"].get<std::vector<int>>()] = sentences[i]["normal"];
      ss[sentences[i]["simple_index"].get<std::vector<int>>()] = sentences[i]["simple"];
    }
    nlohmann::ordered_json r;
    std::string normal, simple_text;
    std::vector<std::string_view> nv, sv;
    r["normal_index"] = nlohmann::ordered_json::array();
    r["simple_index"] = nlohmann::ordered_json::array();
    for (auto& [i, t] : ns) {
      normal += (normal.empty() ? "" : " ") + t;
      r["normal_index"].push_back(i);
      nv.push_back(t);
    }
    for (auto& [i, t] : ss) {
      simple_text += (simple_text.empty() ? "" : " ") + t;
      r["simple_index"].push_back(i);
      sv.push_back(t);
    }
    r["normal"] = normal;
    r["simple"] = simple_text;
    r["op"] = a["op"];
    if (two) {
      ++multi;
      auto ta = tokens(normal), tb = tokens(simple_text);
      std::unordered_map<std::string, double> pos;
      for (auto& [t, v] : idf) pos[t] = v < 0 ? 0 : v;
      r["similarity"] = BagCosine(ta, tb, pos);
      for (auto& s : ns) tokens(s.second);
      for (auto& s : ss) tokens(s.second);
      r["label"] = LabelName(LabelOf(nv, sv, idf_fn));
    } else {
      r["similarity"] = a["similarity"];
      r["label"] = a["label"];
    }
    want.push_back(r);
    k += two ? 2 : 1;
  }
  ASSERT_GT(multi, 0);
  ExportOptions ops = all;
  ops.unit = ExportUnit::kOperation;
  auto got = ExportRows(ops);
  ASSERT_EQ(got.size(), want.size());
  size_t good = 0;
  for (size_t k = 0; k < got.size(); ++k) {
    SCOPED_TRACE(got[k].dump());
    EXPECT_EQ(got[k]["normal"], want[k]["normal"]);
    EXPECT_EQ(got[k]["simple"], want[k]["simple"]);
    EXPECT_EQ(got[k]["op"], want[k]["op"]);
    EXPECT_EQ(got[k]["normal_index"], want[k]["normal_index"]);
    EXPECT_EQ(got[k]["simple_index"], want[k]["simple_index"]);
    EXPECT_NEAR(got[k]["similarity"].get<double>(), want[k]["similarity"].get<double>(), 1e-9);
    EXPECT_EQ(got[k]["label"], want[k]["label"]);
    good += got[k]["label"] == "good";
  }
  EXPECT_GT(good, 0u);
  EXPECT_LT(good, got.size());

  // --label and --min-sim select on the operation row's own label and similarity.
  ExportOptions only_good = ops;
  only_good.label = Label::kGood;
  only_good.min_sim = 0.5;
  size_t expect = 0;
  for (auto& r : want) expect += r["label"] == "good" && r["similarity"].get<double>() >= 0.5;
  auto filtered = ExportRows(only_good);
  EXPECT_EQ(filtered.size(), expect);
  for (auto& r : filtered) EXPECT_EQ(r["label"], "good");
  ExportOptions partial_sentences = all;
  partial_sentences.label = Label::kPartial;
  size_t partial = 0;
  for (auto& r : sentences) partial += r["label"] == "partial";
  EXPECT_EQ(ExportRows(partial_sentences).size(), partial);

  // Lookup shows each pair's label, and the operation's for a 1-2, 2-1 or 2-2 pair.
  std::string title = sentences[0]["normal_title"];
  std::ostringstream text, json;
  ASSERT_TRUE(Lookup(store_.get(), {}, title, OutputFormat::kText, text).ok());
  EXPECT_NE(text.str().find(sentences[0]["label"].get<std::string>()), std::string::npos);
  ASSERT_TRUE(Lookup(store_.get(), {}, title, OutputFormat::kJson, json).ok());
  auto j = nlohmann::json::parse(json.str());
  EXPECT_EQ(j["paragraph_pairs"][0]["sentence_pairs"][0]["label"], sentences[0]["label"]);

  // stats counts each unit's labelled rows by operation and band, as the export gives them.
  CorpusStats st;
  ASSERT_TRUE(ComputeCorpusStats(store_.get(), {}, 0.5, false, &st).ok());
  std::map<std::tuple<std::string, std::string, std::string>, uint64_t> good_rows, rows;
  for (auto [unit, list] :
       {std::make_pair("sentence", &sentences), std::make_pair("operation", &got)})
    for (auto& r : *list) {
      double sim = r["similarity"].get<double>();
      if (sim < 0.5) continue;
      std::tuple<std::string, std::string, std::string> key{unit, r["op"],
                                                            sim >= 0.75 ? ">=0.75" : "0.5-0.75"};
      ++rows[key];
      good_rows[key] += r["label"] == "good";
    }
  ASSERT_EQ(st.labels.size(), rows.size());
  for (auto& [key, c] : st.labels) {
    EXPECT_EQ(c.good, good_rows[key]);
    EXPECT_EQ(c.good + c.partial, rows[key]);
  }
}

}  // namespace
}  // namespace aligndb

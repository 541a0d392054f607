// Readability and simplification scores.
#include "eval/eval.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include "test_util.h"

namespace aligndb {
namespace {

std::vector<std::pair<std::string, int>> ReadWordList(const std::string& name) {
  std::ifstream in(std::string(ALIGNDB_SOURCE_DIR) + "/tests/data/" + name);
  std::vector<std::pair<std::string, int>> out;
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ss(line);
    std::string w;
    int n;
    ss >> w >> n;
    out.emplace_back(w, n);
  }
  return out;
}

double SyllableAccuracy(const std::string& name, size_t* words) {
  auto list = ReadWordList(name);
  *words = list.size();
  size_t ok = 0;
  for (auto& [w, n] : list) ok += CountSyllables(w) == n;
  return static_cast<double>(ok) / static_cast<double>(list.size());
}

// docs/evaluation.md reports these accuracies: 127/129 on the list the rules were developed on,
// 63/71 on the held-out list. The assertions guard against regressions.
TEST(SyllableTest, WordLists) {
  size_t n = 0;
  EXPECT_GE(SyllableAccuracy("syllables.tsv", &n), 127.0 / 129 - 1e-9);
  EXPECT_EQ(n, 129u);
  EXPECT_GE(SyllableAccuracy("syllables-heldout.tsv", &n), 63.0 / 71 - 1e-9);
  EXPECT_EQ(n, 71u);
}

TEST(SyllableTest, Rules) {
  EXPECT_EQ(CountSyllables("make"), 1);    // silent e
  EXPECT_EQ(CountSyllables("table"), 2);   // consonant + le
  EXPECT_EQ(CountSyllables("jumped"), 1);  // silent -ed
  EXPECT_EQ(CountSyllables("wanted"), 2);  // sounded -ed
  EXPECT_EQ(CountSyllables("horses"), 2);  // sounded -es
  EXPECT_EQ(CountSyllables("Piano!"), 3);  // hiatus; case and punctuation ignored
  EXPECT_EQ(CountSyllables("1990"), 0);    // no letters
}

TEST(ReadabilityTest, FleschOfKnownCounts) {
  auto c = CountReadability("The cat sat on the mat.");
  EXPECT_EQ(c.words, 6);
  EXPECT_EQ(c.syllables, 6);
  EXPECT_NEAR(c.FleschReadingEase(), 206.835 - 1.015 * 6 - 84.6 * 1, 1e-9);
  auto d = CountReadability("Encyclopedias contain information.");
  EXPECT_EQ(d.words, 3);
  EXPECT_EQ(d.syllables, 6 + 2 + 4);
  c.Add(d);
  EXPECT_NEAR(c.FleschReadingEase(), 206.835 - 1.015 * 9 / 2 - 84.6 * 18 / 9, 1e-9);
  EXPECT_EQ(ReadabilityCounts().FleschReadingEase(), 0);
}

std::vector<std::string> Lines(const std::string& name) {
  std::ifstream in(std::string(ALIGNDB_SOURCE_DIR) + "/tests/data/score/" + name);
  std::vector<std::string> out;
  std::string line;
  while (std::getline(in, line)) out.push_back(line);
  return out;
}

// NLTK 3.8 corpus_bleu on the same files (tools/check_bleu_nltk.py): 0.728491 with both
// references, 0.606822 with the first only.
TEST(ScoreTest, BleuAgreesWithNltk) {
  SimplificationScores s;
  ASSERT_TRUE(
      ScoreSimplification(Lines("hyp.txt"), {Lines("ref1.txt"), Lines("ref2.txt")}, &s).ok());
  EXPECT_NEAR(s.bleu, 0.728491, 0.001);
  EXPECT_NEAR(s.bleu, 0.728491, 1e-6);
  ASSERT_TRUE(ScoreSimplification(Lines("hyp.txt"), {Lines("ref1.txt")}, &s).ok());
  EXPECT_NEAR(s.bleu, 0.606822, 1e-6);
  EXPECT_EQ(s.sentences, 10u);
}

TEST(ScoreTest, WordF1AndSsaByHand) {
  SimplificationScores s;
  // hyp "a b c d", ref "a b x": overlap 2, F1 = 4/7; edits 2 (x→c substitution... a b c d vs
  // a b x: substitute c→x, delete d) → SSA = 1 − 2/3.
  ASSERT_TRUE(ScoreSimplification({"a b c d"}, {{"a b x"}}, &s).ok());
  EXPECT_NEAR(s.word_f1, 4.0 / 7, 1e-12);
  EXPECT_NEAR(s.ssa, 1 - 2.0 / 3, 1e-12);
  EXPECT_EQ(s.bleu, 0);  // no 4-gram matches: 0 without smoothing, as NLTK
  // Identical: everything 1.
  ASSERT_TRUE(
      ScoreSimplification({"the cat sat on the mat"}, {{"the cat sat on the mat"}}, &s).ok());
  EXPECT_NEAR(s.bleu, 1.0, 1e-12);
  EXPECT_NEAR(s.word_f1, 1.0, 1e-12);
  EXPECT_NEAR(s.ssa, 1.0, 1e-12);
  // The best reference per sentence counts for F1 and SSA.
  ASSERT_TRUE(ScoreSimplification({"a b c"}, {{"x y z"}, {"a b c"}}, &s).ok());
  EXPECT_NEAR(s.word_f1, 1.0, 1e-12);
  EXPECT_NEAR(s.ssa, 1.0, 1e-12);
  // Mismatched line counts are an error.
  EXPECT_FALSE(ScoreSimplification({"a", "b"}, {{"a"}}, &s).ok());
}

// A pair of 4 MB lines (400,000 words each) ran for minutes in the word edit distance: lines
// over max_words are left out of every score, counted, and the rest scored as without them.
TEST(ScoreTest, LinesOverMaxWordsAreLeftOutAndCounted) {
  std::string huge;
  for (int i = 0; i < 400000; ++i) huge += "word ";
  std::vector<std::string> hyp = {"the cat sat on the mat", huge, "a b c d"};
  std::vector<std::string> ref = {"the cat sat on a mat", huge, "a b x"};
  SimplificationScores with, without;
  ASSERT_TRUE(ScoreSimplification(hyp, {ref}, &with).ok());
  EXPECT_EQ(with.skipped_long, 1u);
  EXPECT_EQ(with.sentences, 2u);
  ASSERT_TRUE(ScoreSimplification({hyp[0], hyp[2]}, {{ref[0], ref[2]}}, &without).ok());
  EXPECT_EQ(without.skipped_long, 0u);
  EXPECT_EQ(with.bleu, without.bleu);
  EXPECT_EQ(with.word_f1, without.word_f1);
  EXPECT_EQ(with.ssa, without.ssa);
  // A long reference alone is enough; the limit is a parameter (0: none).
  ASSERT_TRUE(ScoreSimplification({"a b c", "a b"}, {{"a b c d e", "a b"}}, &with, 4).ok());
  EXPECT_EQ(with.skipped_long, 1u);
  ASSERT_TRUE(ScoreSimplification({"a b c", "a b"}, {{"a b c d e", "a b"}}, &with, 0).ok());
  EXPECT_EQ(with.skipped_long, 0u);
  EXPECT_EQ(with.sentences, 2u);
}

TEST(ScoreTest, EditDistance) {
  auto d = [](std::string a, std::string b) {
    return WordEditDistance(SplitWhitespace(a), SplitWhitespace(b));
  };
  EXPECT_EQ(d("", ""), 0u);
  EXPECT_EQ(d("a b c", ""), 3u);
  EXPECT_EQ(d("a b c", "a c"), 1u);
  EXPECT_EQ(d("a b c", "c b a"), 2u);
  EXPECT_EQ(d("kitten sat", "sitting sat down"), 2u);
}

// ------------------------------------------------------------------ MaxF1 and AUC

TEST(ClassifierEvalTest, SmallCaseByHand) {
  // Scores 0.9+ 0.8- 0.7+ 0.6+ 0.5-: thresholds give (P, R) = (1, 1/3), (1/2, 1/3), (2/3, 2/3),
  // (3/4, 1), (3/5, 1). Max F1 = 6/7 at 0.6. AP = 1·1/3 + 2/3·1/3 + 3/4·1/3.
  auto e = EvaluateScores({{0.9, true}, {0.8, false}, {0.7, true}, {0.6, true}, {0.5, false}});
  EXPECT_NEAR(e.max_f1, 6.0 / 7, 1e-12);
  EXPECT_EQ(e.threshold, 0.6);
  EXPECT_NEAR(e.auc, (1.0 + 2.0 / 3 + 3.0 / 4) / 3, 1e-12);
  ASSERT_EQ(e.curve.size(), 5u);
  EXPECT_NEAR(e.curve[1].precision, 0.5, 1e-12);
  // Ties are one threshold.
  auto t = EvaluateScores({{0.5, true}, {0.5, false}});
  ASSERT_EQ(t.curve.size(), 1u);
  EXPECT_NEAR(t.auc, 0.5, 1e-12);
}

TEST(ClassifierEvalTest, AgreesWithDirectFormulasOnRandomScores) {
  std::mt19937 rng(8);
  for (int round = 0; round < 200; ++round) {
    size_t n = 5 + rng() % 60;
    std::vector<LabelledScore> s;
    for (size_t i = 0; i < n; ++i)
      s.push_back({std::uniform_real_distribution<double>(0, 1)(rng), rng() % 3 != 0});
    size_t positives = 0;
    for (auto& x : s) positives += x.positive;
    if (positives == 0) continue;
    // MaxF1: try every score as the threshold, counting directly.
    double best = 0;
    for (auto& t : s) {
      double tp = 0, fp = 0;
      for (auto& x : s)
        if (x.score >= t.score) (x.positive ? tp : fp) += 1;
      double p = tp / (tp + fp), r = tp / positives;
      if (p + r > 0) best = std::max(best, 2 * p * r / (p + r));
    }
    // AP: the mean, over positives, of the precision at the positive's rank (no ties here).
    auto sorted = s;
    std::sort(sorted.begin(), sorted.end(), [](auto& a, auto& b) { return a.score > b.score; });
    double ap = 0, tp = 0;
    for (size_t k = 0; k < sorted.size(); ++k)
      if (sorted[k].positive) ap += ++tp / static_cast<double>(k + 1);
    ap /= positives;
    auto e = EvaluateScores(s);
    EXPECT_NEAR(e.max_f1, best, 1e-12) << round;
    EXPECT_NEAR(e.auc, ap, 1e-12) << round;
  }
}

TEST(SentencePairFileTest, FormatsAndErrors) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.Sub("msrp.txt"),
                     "\xEF\xBB\xBFQuality\t#1 ID\t#2 ID\t#1 String\t#2 String\n1\t1\t2\tA "
                     "cat.\tThe cat.\n0\t3\t4\tX\tY\n");
  std::vector<SentencePairExample> p;
  ASSERT_TRUE(ReadSentencePairs(tmp.Sub("msrp.txt"), 4, &p).ok());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(p[0].positive);
  EXPECT_EQ(p[0].s2, "The cat.");
  EXPECT_FALSE(p[1].positive);
  testing::WriteFile(tmp.Sub("sick.txt"),
                     "pair_ID\tsentence_A\tsentence_B\trelatedness_score\tentailment_"
                     "judgment\n1\ta\tb\t4.5\tNEUTRAL\n2\tc\td\t3.9\tNEUTRAL\n");
  p.clear();
  ASSERT_TRUE(ReadSentencePairs(tmp.Sub("sick.txt"), 4, &p).ok());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_TRUE(p[0].positive);
  EXPECT_FALSE(p[1].positive);
  testing::WriteFile(tmp.Sub("sick-noheader.txt"),
                     "1\ta\tb\t4.5\tNEUTRAL\n2\tc\td\t3.9\tCONTRADICTION\n");
  p.clear();
  ASSERT_TRUE(ReadSentencePairs(tmp.Sub("sick-noheader.txt"), 4, &p).ok());
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].s1, "a");
  EXPECT_TRUE(p[0].positive);
  EXPECT_FALSE(p[1].positive);
  testing::WriteFile(tmp.Sub("pairs.tsv"), "a b\tc d\nx\ty\t1\nno tab here\n");
  p.clear();
  Status s = ReadSentencePairs(tmp.Sub("pairs.tsv"), 4, &p);
  EXPECT_NE(s.message().find("pairs.tsv: line 3: expected s1<TAB>s2"), std::string::npos)
      << s.message();
  EXPECT_FALSE(p[0].has_label);
  EXPECT_TRUE(p[1].positive);
}

}  // namespace
}  // namespace aligndb

// MaxAccuracy against trying every candidate threshold (each score, and one above all of them).
TEST(ThresholdTest, MaxAccuracyEqualsTryingEveryThreshold) {
  std::mt19937 rng(7);
  for (int round = 0; round < 300; ++round) {
    std::vector<aligndb::LabelledScore> ls;
    const int n = 1 + static_cast<int>(rng() % 30);
    for (int i = 0; i < n; ++i)  // few distinct scores, so that ties happen
      ls.push_back({static_cast<double>(rng() % 8) / 8.0, rng() % 2 == 0});
    double best = -1;
    std::vector<double> candidates = {2.0};
    for (const auto& l : ls) candidates.push_back(l.score);
    for (double t : candidates) best = std::max(best, aligndb::AtThreshold(ls, t).accuracy);
    const aligndb::ThresholdFigures got = aligndb::MaxAccuracy(ls);
    EXPECT_DOUBLE_EQ(got.accuracy, best);
    EXPECT_DOUBLE_EQ(aligndb::AtThreshold(ls, got.threshold).accuracy, got.accuracy);
  }
}

// The folds: every item in one fold, sizes within one of each other, the same for the same seed.
TEST(ThresholdTest, FoldAssignmentIsBalancedAndFixed) {
  for (int k : {2, 5, 10}) {
    const std::vector<int> f = aligndb::FoldAssignment(103, k, 17);
    std::vector<int> size(k, 0);
    for (int x : f) {
      ASSERT_GE(x, 0);
      ASSERT_LT(x, k);
      ++size[x];
    }
    EXPECT_LE(
        *std::max_element(size.begin(), size.end()) - *std::min_element(size.begin(), size.end()),
        1);
    EXPECT_EQ(f, aligndb::FoldAssignment(103, k, 17));
  }
  EXPECT_NE(aligndb::FoldAssignment(103, 5, 17), aligndb::FoldAssignment(103, 5, 18));
}

// CrossValidateThreshold against the obvious way: for each fold, try every candidate threshold
// on the other folds (the highest of the most accurate), then count the fold's outcomes there.
TEST(ThresholdTest, CrossValidationEqualsTryingEveryThresholdPerFold) {
  std::mt19937 rng(11);
  for (int round = 0; round < 300; ++round) {
    std::vector<aligndb::LabelledScore> ls;
    const int n = 2 + static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i)
      ls.push_back({static_cast<double>(rng() % 8) / 8.0, rng() % 3 != 0});
    const int k = 2 + static_cast<int>(rng() % 5);
    const std::vector<int> fold = aligndb::FoldAssignment(ls.size(), k, 17);
    double tp = 0, fp = 0, fn = 0, correct = 0;
    for (int f = 0; f < k; ++f) {
      std::vector<aligndb::LabelledScore> train;
      for (size_t i = 0; i < ls.size(); ++i)
        if (fold[i] != f) train.push_back(ls[i]);
      double best_t = 2.0, best_acc = train.empty() ? 0 : aligndb::AtThreshold(train, 2.0).accuracy;
      for (const auto& l : train) {
        const double acc = aligndb::AtThreshold(train, l.score).accuracy;
        if (acc > best_acc || (acc == best_acc && l.score > best_t))
          best_acc = acc, best_t = l.score;
      }
      if (train.empty()) best_t = 0;  // MaxAccuracy of nothing: threshold 0
      for (size_t i = 0; i < ls.size(); ++i) {
        if (fold[i] != f) continue;
        const bool yes = ls[i].score >= best_t;
        tp += yes && ls[i].positive;
        fp += yes && !ls[i].positive;
        fn += !yes && ls[i].positive;
        correct += yes == ls[i].positive;
      }
    }
    const aligndb::CrossValidation cv = aligndb::CrossValidateThreshold(ls, k);
    EXPECT_DOUBLE_EQ(cv.accuracy, correct / ls.size());
    EXPECT_DOUBLE_EQ(cv.f1, tp > 0 ? 2 * tp / (2 * tp + fp + fn) : 0.0);
    EXPECT_EQ(cv.thresholds.size(), static_cast<size_t>(k));
  }
}

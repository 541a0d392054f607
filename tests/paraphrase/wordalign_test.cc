// Word alignment, symmetrization, gold formats and AER.
#include "paraphrase/wordalign.h"

#include <gtest/gtest.h>

#include "embed/word_similarity.h"
#include "eval/eval.h"
#include "test_util.h"

namespace aligndb {
namespace {

using W = std::vector<std::string>;

TEST(WordAlignTest, IdenticalWordsAreAnchoredAtTheNearestPosition) {
  W s1 = SplitWhitespace("the cat saw the dog");
  W s2 = SplitWhitespace("The dog was seen by the cat");
  Links l = DirectionalLinks(nullptr, s1, s2, 0.49);
  // "the"(0) → "The"(0): relative 0 vs 0; "the"(3, relative .75) → "the"(5, relative .83).
  EXPECT_EQ(l, (Links{{0, 0}, {1, 6}, {3, 5}, {4, 1}}));
}

TEST(WordAlignTest, VectorsLinkSimilarWordsAboveTheta) {
  auto v = WordVectors::FromRows({"big", "large", "small"}, {{1, 0}, {0.9f, 0.1f}, {-1, 0.2f}});
  W s1 = {"a", "big", "house"}, s2 = {"a", "large", "small", "house"};
  EXPECT_EQ(DirectionalLinks(v.get(), s1, s2, 0.49), (Links{{0, 0}, {1, 1}, {2, 3}}));
  EXPECT_EQ(DirectionalLinks(v.get(), s1, s2, 0.999),
            (Links{{0, 0}, {2, 3}}));  // cos(big, large) < .999
  EXPECT_EQ(DirectionalLinks(nullptr, s1, s2, 0.0), (Links{{0, 0}, {2, 3}}));
}

TEST(WordAlignTest, Symmetrization) {
  Links s2t = {{0, 0}, {1, 1}, {2, 1}}, t2s = {{0, 0}, {1, 1}, {1, 2}};
  Links out;
  ASSERT_TRUE(Symmetrize(s2t, t2s, "intersection", &out).ok());
  EXPECT_EQ(out, (Links{{0, 0}, {1, 1}}));
  ASSERT_TRUE(Symmetrize(s2t, t2s, "union", &out).ok());
  EXPECT_EQ(out, (Links{{0, 0}, {1, 1}, {1, 2}, {2, 1}}));
  // grow-diag-final: from the intersection, (2,1) and (1,2) neighbor (1,1) and each links a word
  // not yet aligned (source 2, target 2): both are added.
  ASSERT_TRUE(Symmetrize(s2t, t2s, "grow-diag-final", &out).ok());
  EXPECT_EQ(out, (Links{{0, 0}, {1, 1}, {1, 2}, {2, 1}}));
  // A union point far from the intersection whose words are both aligned stays out.
  Links a = {{0, 0}, {1, 1}}, b = {{0, 0}, {1, 1}, {0, 1}};
  ASSERT_TRUE(Symmetrize(a, b, "grow-diag-final", &out).ok());
  EXPECT_EQ(out, (Links{{0, 0}, {1, 1}}));
  EXPECT_FALSE(Symmetrize(a, b, "grow", &out).ok());
}

// AER by hand: S = {0-0, 1-1}, P = S ∪ {2-2}; A = {0-0, 2-2, 3-3}.
// |A∩S| = 1, |A∩P| = 2: precision 2/3, recall 1/2, AER = 1 − (1 + 2)/(3 + 2) = 0.4.
TEST(AerTest, ByHandAndSplit) {
  GoldAlignment g;
  g.s1 = {"a", "b", "c", "d"};
  g.s2 = {"a", "x", "c", "y"};
  g.sure = {{0, 0}, {1, 1}};
  g.possible = {{0, 0}, {1, 1}, {2, 2}};
  AerResult r;
  ASSERT_TRUE(ComputeAer({g}, {Links{{0, 0}, {2, 2}, {3, 3}}}, &r).ok());
  EXPECT_NEAR(r.overall.precision, 2.0 / 3, 1e-12);
  EXPECT_NEAR(r.overall.recall, 0.5, 1e-12);
  EXPECT_NEAR(r.overall.aer, 0.4, 1e-12);
  ASSERT_TRUE(r.has_split);
  // Identical links: a–a (0-0) and c–c (2-2). A_id = {0-0, 2-2}, S_id = {0-0}, P_id = {0-0, 2-2}.
  EXPECT_NEAR(r.identical.precision, 1.0, 1e-12);
  EXPECT_NEAR(r.identical.recall, 1.0, 1e-12);
  EXPECT_NEAR(r.identical.aer, 1 - (1.0 + 2.0) / (2 + 1), 1e-12);
  // Non-identical: A = {3-3}, S = {1-1}, P = {1-1}: nothing right.
  EXPECT_NEAR(r.non_identical.precision, 0.0, 1e-12);
  EXPECT_NEAR(r.non_identical.aer, 1.0, 1e-12);
  EXPECT_FALSE(ComputeAer({g}, {}, &r).ok());  // counts must match
}

TEST(GoldFormatsTest, JsonTsvAndPharaoh) {
  testing::TempDir tmp;
  testing::WriteFile(
      tmp.Sub("g.json"),
      R"([{"source": "a b c", "target": "a c", "sureAlign": "0-0 2-1", "possibleAlign": "1-1"}])");
  testing::WriteFile(tmp.Sub("g.tsv"), "0:0\ta b c\tN/A\ta c\tN/A\t1\t1\t0-0 2-1\t1-1\n");
  testing::WriteFile(tmp.Sub("g.txt"), "0-0 2-1 1-1p\n");
  for (const char* f : {"g.json", "g.tsv", "g.txt"}) {
    std::vector<GoldAlignment> gold;
    ASSERT_TRUE(ReadGoldAlignments(tmp.Sub(f), &gold).ok()) << f;
    ASSERT_EQ(gold.size(), 1u);
    EXPECT_EQ(gold[0].sure, (Links{{0, 0}, {2, 1}})) << f;
    EXPECT_EQ(gold[0].possible, (Links{{0, 0}, {1, 1}, {2, 1}})) << f;
  }
  testing::WriteFile(tmp.Sub("bad.txt"), "0-0 x-1\n");
  std::vector<GoldAlignment> gold;
  Status s = ReadGoldAlignments(tmp.Sub("bad.txt"), &gold);
  EXPECT_NE(s.message().find("bad.txt: line 1: bad link \"x-1\""), std::string::npos)
      << s.message();
}

// Hostile gold files: numbers beyond int, fields of other types, truncated JSON. Each is bad
// input with a position, never a wrapped link or an exception.
TEST(GoldFormatsTest, HostileGoldIsBadInput) {
  testing::TempDir tmp;
  const std::pair<const char*, const char*> cases[] = {
      {"wrap.txt", "0-0 18446744073709551617-1\n"},
      {"big.txt", "0-99999999999\n"},
      {"types.json", R"([{"source": 1, "target": "a", "sureAlign": "0-0"}])"},
      {"links.json", R"([{"source": "a", "target": "a", "sureAlign": ["0-0"]}])"},
      {"cut.json", R"([{"source": "a b", "target": "a)"},
  };
  for (auto [name, text] : cases) {
    testing::WriteFile(tmp.Sub(name), text);
    std::vector<GoldAlignment> gold;
    Status s = ReadGoldAlignments(tmp.Sub(name), &gold);
    EXPECT_EQ(s.code(), Status::Code::kCorruption) << name << ": " << s.ToString();
    EXPECT_NE(s.message().find(name), std::string::npos) << s.message();
  }
  std::vector<GoldAlignment> gold;
  Status s = ReadGoldAlignments(tmp.Sub("cut.json"), &gold);
  EXPECT_NE(s.message().find("byte"), std::string::npos) << s.message();
}

// A pair with a sentence over --max-words gets an empty line and a warning; the others align.
TEST(WordAlignCliTest, LongPairsAreLeftUnalignedAndCounted) {
  testing::TempDir tmp;
  std::string long_side;
  for (int k = 0; k < 50; ++k) long_side += "w" + std::to_string(k) + " ";
  testing::WriteFile(tmp.Sub("pairs.tsv"), "the cat\tthe cat\n" + long_side + "\tw1 w2\n");
  auto r = testing::RunAligndb({"wordalign", "--max-words", "10", tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0-0 1-1\n\n");
  EXPECT_NE(r.err.find("1 pairs with a sentence of more than --max-words 10"), std::string::npos)
      << r.err;
  r = testing::RunAligndb({"wordalign", "--max-words", "0", tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out.substr(0, 8), "0-0 1-1\n");
  EXPECT_NE(r.out.substr(8), "\n");  // aligned when there is no limit
}

TEST(WordAlignCliTest, AlignThenScore) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.Sub("pairs.tsv"), "the cat sat\tthe cat sat down\nhe left\tshe left\n");
  auto r = testing::RunAligndb({"wordalign", "--symmetrize", "intersection", tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "0-0 1-1 2-2\n1-1\n");
  testing::WriteFile(tmp.Sub("pred.txt"), r.out);
  testing::WriteFile(tmp.Sub("gold.txt"), "0-0 1-1 2-2 2-3p\n0-0 1-1\n");
  r = testing::RunAligndb(
      {"aer", "--gold", tmp.Sub("gold.txt"), "--pred", tmp.Sub("pred.txt"), "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // A = 4 links, all sure; S = 5: precision 1, recall 4/5, AER = 1 − 8/9.
  EXPECT_NE(r.out.find("\"precision\":1.0"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("\"recall\":0.8"), std::string::npos) << r.out;
}

TEST(LexicalAlignTest, StagesByHand) {
  std::unique_ptr<WordSimilaritySet> wn;
  ASSERT_TRUE(WordSimilaritySet::Open("", "-", "wordnet", &wn).ok());
  // "automobile" ↔ "car" (synonyms), "purchased" ↔ "bought"? (no: buy/purchase share a synset,
  // but the base forms come from morphy), "the" only beside a link, "." once in each: stage 4.
  std::vector<std::string> s1 = {"He", "bought", "the", "automobile", "in", "1,000", "days", "."};
  std::vector<std::string> s2 = {"the", "car", "was",  "purchased", "by",
                                 "him", "in",  "1000", "days",      "."};
  Links l = AlignWordsLexical(wn.get(), s1, s2, LexicalAlignOptions{});
  EXPECT_TRUE(l.count({3, 1})) << FormatLinks(l);  // automobile – car
  EXPECT_TRUE(l.count({1, 3})) << FormatLinks(l);  // bought – purchased (buy, purchase: a synset)
  EXPECT_TRUE(l.count({5, 7})) << FormatLinks(l);  // 1,000 – 1000
  EXPECT_TRUE(l.count({4, 6})) << FormatLinks(l);  // "in days" is an identical run
  EXPECT_TRUE(l.count({6, 8})) << FormatLinks(l);
  EXPECT_TRUE(l.count({7, 9})) << FormatLinks(l);   // "." once in each
  EXPECT_TRUE(l.count({2, 0})) << FormatLinks(l);   // "the" beside automobile – car
  EXPECT_FALSE(l.count({0, 5})) << FormatLinks(l);  // he / him: no lexical link
  // One-to-one.
  std::set<int> left, right;
  for (auto [i, j] : l) EXPECT_TRUE(left.insert(i).second && right.insert(j).second);
  // Without a lexicon only identical words (and numbers) link; a lone stop word needs support,
  // or (stage 4) to occur once in each sentence.
  LexicalAlignOptions no_unique;
  no_unique.unique_words = false;
  Links plain =
      AlignWordsLexical(nullptr, {"the", "dog", "barked"}, {"a", "cat", "the", "mewed"}, no_unique);
  EXPECT_TRUE(plain.empty()) << FormatLinks(plain);
  // ... when near in relative position or beside a link (not here: 0 against .5).
  plain = AlignWordsLexical(nullptr, {"the", "dog", "barked"}, {"a", "cat", "the", "mewed"},
                            LexicalAlignOptions{});
  EXPECT_TRUE(plain.empty()) << FormatLinks(plain);
  LexicalAlignOptions anywhere;
  anywhere.equal_max_distance = 2;
  plain =
      AlignWordsLexical(nullptr, {"the", "dog", "barked"}, {"a", "cat", "the", "mewed"}, anywhere);
  EXPECT_EQ(plain, (Links{{0, 2}}));
}

TEST(LexicalAlignTest, MaximumAlignmentWithALexicon) {
  std::unique_ptr<WordSimilaritySet> wn;
  ASSERT_TRUE(WordSimilaritySet::Open("", "-", "wordnet", &wn).ok());
  Links l;
  ASSERT_TRUE(
      AlignWords(wn.get(), {"the", "automobile"}, {"a", "car"}, 0.49, "intersection", &l).ok());
  EXPECT_EQ(l, (Links{{1, 1}}));
}

Links Lexical(const std::string& s1, const std::string& s2,
              const LexicalAlignOptions& o = LexicalAlignOptions{},
              const WordSimilarity* words = nullptr) {
  return AlignWordsLexical(words, SplitWhitespace(s1), SplitWhitespace(s2), o);
}

TEST(LexicalAlignTest, AcronymsLinkToEveryWordOfTheName) {
  // "of" inside the name may spell its initial (VOA) or nothing (U.S.-style acronyms).
  EXPECT_EQ(Lexical("VOA reported it", "Voice of America reported it"),
            (Links{{0, 0}, {0, 1}, {0, 2}, {1, 3}, {2, 4}}));
  EXPECT_EQ(Lexical("United States troops", "U.S. troops"), (Links{{0, 0}, {1, 0}, {2, 1}}));
  // Lower-case words or a wrong initial: no acronym.
  EXPECT_EQ(Lexical("VOA reported it", "voice of america reported it"), (Links{{1, 3}, {2, 4}}));
  EXPECT_EQ(Lexical("UN troops", "United States troops"), (Links{{1, 2}}));
  LexicalAlignOptions off;
  off.multiword = false;
  EXPECT_EQ(Lexical("VOA reported it", "Voice of America reported it", off),
            (Links{{1, 3}, {2, 4}}));
}

TEST(LexicalAlignTest, HyphenatedWords) {
  EXPECT_EQ(Lexical("the biggest-ever sale", "the biggest ever sale"),
            (Links{{0, 0}, {1, 1}, {1, 2}, {2, 3}}));
  EXPECT_EQ(Lexical("health-care costs", "healthcare costs"), (Links{{0, 0}, {1, 1}}));
  // One part, once in the other sentence, near the hyphenated word's neighbour's partner.
  EXPECT_EQ(Lexical("the biggest-ever sale", "the largest ever sale"),
            (Links{{0, 0}, {1, 2}, {2, 3}}));
  EXPECT_EQ(Lexical("the biggest-ever sale", "the sale p1 p2 p3 p4 ever"), (Links{{0, 0}, {2, 1}}));
  LexicalAlignOptions off;
  off.multiword = false;
  // Without the hyphen rule the spelling stage still links them (similarity 10/11, beside a link).
  EXPECT_EQ(Lexical("health-care costs", "healthcare costs", off), (Links{{0, 0}, {1, 1}}));
  off.spelling_similarity = 1.5;
  EXPECT_EQ(Lexical("health-care costs", "healthcare costs", off), (Links{{1, 1}}));
}

TEST(LexicalAlignTest, SurnameLinksToTheFullName) {
  EXPECT_EQ(Lexical("Hannum said", "Kate Hannum said"), (Links{{0, 0}, {0, 1}, {1, 2}}));
  // The shared word must end the name: "Houston" is not "Houston Police".
  EXPECT_EQ(Lexical("Houston said", "Houston Police said"), (Links{{0, 0}, {1, 2}}));
  LexicalAlignOptions off;
  off.names = false;
  EXPECT_EQ(Lexical("Hannum said", "Kate Hannum said", off), (Links{{0, 1}, {1, 2}}));
}

TEST(LexicalAlignTest, PossessiveAgainstOf) {
  // "Cambodia 's prime ministers" / "the prime ministers of Cambodia": 's – of, 's – the.
  Links l = Lexical("Cambodia 's prime ministers", "the prime ministers of Cambodia");
  EXPECT_EQ(l, (Links{{0, 4}, {1, 0}, {1, 3}, {2, 1}, {3, 2}})) << FormatLinks(l);
  // Same order on both sides: no possessive link (and no stage 6, which would link 's – of).
  LexicalAlignOptions no_sandwich;
  no_sandwich.sandwich = false;
  l = Lexical("Cambodia 's prime ministers", "Cambodia of prime ministers", no_sandwich);
  EXPECT_FALSE(l.count({1, 1})) << FormatLinks(l);
}

TEST(LexicalAlignTest, EqualCountsNeedNearnessOrSupport) {
  // "the" once in each, at opposite ends and no link near it: left alone.
  const char* s1 = "the p1 p2 p3 p4 p5 p6 p7";
  const char* s2 = "q1 q2 q3 q4 q5 q6 q7 the";
  EXPECT_TRUE(Lexical(s1, s2).empty());
  LexicalAlignOptions any;
  any.equal_max_distance = 2;
  EXPECT_EQ(Lexical(s1, s2, any), (Links{{0, 7}}));
  // Near in relative position: linked.
  EXPECT_EQ(Lexical("p1 the p2", "q1 q2 the q3"), (Links{{1, 2}}));
}

TEST(LexicalAlignTest, SupportedContentWordsAndFunctionWordPairs) {
  // cos(big, large) = 0.85: below θ = 0.9, above supported_similarity 0.8, with "house" linked
  // within the window; not beside a link in order (stage 5 does not apply).
  auto v = WordVectors::FromRows({"big", "large"}, {{1, 0}, {0.85f, std::sqrt(1 - 0.85f * 0.85f)}});
  LexicalAlignOptions o;
  o.neighbor_similarity = 1;
  EXPECT_EQ(Lexical("the big house", "the house is large", o, v.get()),
            (Links{{0, 0}, {1, 3}, {2, 1}}));
  o.supported_similarity = 1;
  EXPECT_EQ(Lexical("the big house", "the house is large", o, v.get()), (Links{{0, 0}, {2, 1}}));
  // will/would and ","/";" link beside a link in order (stage 5; stage 6 off).
  LexicalAlignOptions on;
  on.sandwich = false;
  EXPECT_EQ(Lexical("he will come , now", "he would come ; now", on),
            (Links{{0, 0}, {1, 1}, {2, 2}, {3, 3}, {4, 4}}));
  LexicalAlignOptions off = on;
  off.function_pairs = false;
  EXPECT_EQ(Lexical("he will come , now", "he would come ; now", off),
            (Links{{0, 0}, {2, 2}, {4, 4}}));
  // Sentence-final punctuation links last to last (stage 4d), without function-word pairs.
  EXPECT_EQ(Lexical("he came .", "she came !", off), (Links{{1, 1}, {2, 2}}));
}

TEST(WordAlignCliTest, LexicalAlignerAndMissingWordNet) {
  testing::TempDir tmp;
  testing::WriteFile(tmp.Sub("pairs.tsv"), "the automobile stopped	a car stopped\n");
  auto r = testing::RunAligndb(
      {"wordalign", "--aligner", "lexical", "--lexicon", "wordnet", tmp.Sub("pairs.tsv")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "1-1 2-2\n");
}

TEST(LexicalAlignTest, StopWordsPreferALinkBesideThemInOrder) {
  // Both commas of the second sentence have one link within 2 positions; the first is nearer in
  // relative position, the second lies beside Dongyi – Dung-yi in order (not an identical run).
  EXPECT_EQ(Lexical("Paris , Dongyi", "Paris q , z , Dung-yi"), (Links{{0, 0}, {1, 4}, {2, 5}}));
}

TEST(LexicalAlignTest, NameSpellingsAndOrdinals) {
  // Transliterations: Dongyi / Dung-yi (similarity 1 − 1/6 without the hyphen), beside a link.
  EXPECT_EQ(Lexical("Mr. Dongyi", "Mr. Dung-yi"), (Links{{0, 0}, {1, 1}}));
  // Gennis / Guinness: 1 − 3/8 ≥ 0.5, near in relative position though nothing else links.
  EXPECT_EQ(Lexical("Guinness records", "Gennis world"), (Links{{0, 0}}));
  // Too different (Paris / Moscow), or far apart with no link beside them: no link.
  EXPECT_EQ(Lexical("Paris said", "Moscow said"), (Links{{1, 1}}));
  EXPECT_EQ(Lexical("Dongyi p1 p2 p3 p4 p5", "q1 q2 q3 q4 q5 Dung-yi"), Links{});
  // Lower-case words are not names: no spelling match.
  EXPECT_EQ(Lexical("the dongyi", "the dung-yi"), (Links{{0, 0}}));
  // Other content words of five or more letters: only beside a link in order.
  EXPECT_EQ(Lexical("agricultural output", "agricutural output"), (Links{{0, 0}, {1, 1}}));
  EXPECT_EQ(Lexical("agricultural p1 p2 output", "output q1 q2 agricutural"), (Links{{3, 0}}));
  // Numbers are not spelling variants of each other.
  EXPECT_EQ(Lexical("12345 tons", "12346 tons"), (Links{{1, 1}}));
  // An ordinal with its number.
  EXPECT_EQ(Lexical("the 11th day", "day 11"), (Links{{1, 1}, {2, 0}}));
  LexicalAlignOptions off;
  off.spelling_similarity = 1.5;
  EXPECT_EQ(Lexical("Mr. Dongyi", "Mr. Dung-yi", off), (Links{{0, 0}}));
}

}  // namespace
}  // namespace aligndb

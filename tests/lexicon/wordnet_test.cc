// WordNet read from Debian's wordnet-base files: morphy, synsets and synonymy against lines of the
// data files, Wu–Palmer against NLTK's documented values and against a slow reference that
// enumerates every hypernym path.
#include "lexicon/wordnet.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>
#include <set>

#include "test_util.h"

namespace aligndb {
namespace {

class WordNetTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    Status s = WordNet::Open("", &wn_);
    ASSERT_TRUE(s.ok()) << s.ToString();
  }
  static std::unique_ptr<WordNet> wn_;
};
std::unique_ptr<WordNet> WordNetTest::wn_;

using Strings = std::vector<std::string>;

TEST_F(WordNetTest, MorphyUsesExceptionsAndRules) {
  EXPECT_EQ(wn_->Morphy("geese", WnPos::kNoun), Strings{"goose"});      // noun.exc
  EXPECT_EQ(wn_->Morphy("abaci", WnPos::kNoun), Strings{"abacus"});     // noun.exc
  EXPECT_EQ(wn_->Morphy("Dogs", WnPos::kNoun), Strings{"dog"});         // -s
  EXPECT_EQ(wn_->Morphy("churches", WnPos::kNoun), Strings{"church"});  // -ches
  EXPECT_EQ(wn_->Morphy("flies", WnPos::kVerb), Strings{"fly"});        // -ies
  EXPECT_EQ(wn_->Morphy("biggest", WnPos::kAdj), Strings{"big"});       // adj.exc
  EXPECT_EQ(wn_->Morphy("dog", WnPos::kNoun), Strings{"dog"});
  auto running = wn_->Morphy("running", WnPos::kVerb);
  EXPECT_NE(std::find(running.begin(), running.end(), "run"), running.end());
  EXPECT_TRUE(wn_->Morphy("xqzzy", WnPos::kNoun).empty());
  EXPECT_TRUE(wn_->Morphy("", WnPos::kNoun).empty());
  EXPECT_EQ(wn_->Morphy("New York", WnPos::kNoun), Strings{"new_york"});
}

TEST_F(WordNetTest, SynsetsAreTheIndexLine) {
  // index.noun: "car n 5 6 @ ~ #m #p %p - 5 2 02958343 02959942 02960501 02960352 02934451"
  EXPECT_EQ(wn_->LemmaSynsets("car", WnPos::kNoun),
            (std::vector<uint32_t>{2958343, 2959942, 2960501, 2960352, 2934451}));
  EXPECT_EQ(wn_->LemmaSynsets("automobile", WnPos::kNoun), std::vector<uint32_t>{2958343});
  WnSynset s;
  ASSERT_TRUE(wn_->ReadSynset(WnPos::kNoun, 2084071, &s));  // dog.n.01
  EXPECT_EQ(s.words, (Strings{"dog", "domestic_dog", "canis_familiaris"}));
  ASSERT_GE(s.pointers.size(), 2u);
  EXPECT_EQ(s.pointers[0].symbol, "@");
  EXPECT_EQ(s.pointers[0].offset, 2083346u);                 // canine.n.02
  EXPECT_FALSE(wn_->ReadSynset(WnPos::kNoun, 2084072, &s));  // not a line start
  EXPECT_FALSE(wn_->ReadSynset(WnPos::kNoun, 4000000000u, &s));
}

TEST_F(WordNetTest, SynonymsShareASynset) {
  EXPECT_TRUE(wn_->Synonyms("car", "automobile"));
  EXPECT_TRUE(wn_->Synonyms("cars", "automobiles"));
  EXPECT_FALSE(wn_->Synonyms("car", "dog"));
  EXPECT_TRUE(wn_->SameLemma("geese", "goose"));
  EXPECT_FALSE(wn_->SameLemma("car", "automobile"));
}

TEST_F(WordNetTest, WupMatchesNltkDocumentedValues) {
  // NLTK's WordNet howto: dog.n.01 / cat.n.01 → 0.857… (2·12 / (14 + 14)); hit.v.01 / slap.v.01 →
  // 0.25.
  uint32_t dog = wn_->LemmaSynsets("dog", WnPos::kNoun).at(0);
  uint32_t cat = wn_->LemmaSynsets("cat", WnPos::kNoun).at(0);
  EXPECT_DOUBLE_EQ(wn_->Wup(WnPos::kNoun, dog, cat), 24.0 / 28.0);
  uint32_t hit = wn_->LemmaSynsets("hit", WnPos::kVerb).at(0);
  uint32_t slap = wn_->LemmaSynsets("slap", WnPos::kVerb).at(0);
  EXPECT_DOUBLE_EQ(wn_->Wup(WnPos::kVerb, hit, slap), 0.25);
  // NLTK's quirk, kept: the subsumer of greatest minimum depth of dog.n.01 with itself is
  // canine.n.02 (minimum depth 12 through its only path; dog's is 8 through domestic_animal), so
  // wup(dog, dog) = 2·13 / (14 + 14). Similarity() gives identical synsets 1.
  EXPECT_DOUBLE_EQ(wn_->Wup(WnPos::kNoun, dog, dog), 26.0 / 28.0);
  EXPECT_DOUBLE_EQ(wn_->Wup(WnPos::kNoun, cat, cat), 1.0);
}

TEST_F(WordNetTest, SimilarityIsGraded) {
  EXPECT_EQ(wn_->Similarity("Dog", "dog"), 1.0);
  EXPECT_EQ(wn_->Similarity("car", "automobile"), 1.0);
  EXPECT_EQ(wn_->Similarity("geese", "goose"), 1.0);
  double dog_cat = wn_->Similarity("dog", "cat");
  EXPECT_GE(dog_cat, 24.0 / 28.0);  // the maximum over senses
  EXPECT_LT(dog_cat, 1.0);
  EXPECT_GT(dog_cat, wn_->Similarity("dog", "idea"));
  // Pertainym (rapidly → rapid) and derivation (decide ↔ decision).
  EXPECT_EQ(wn_->Similarity("rapidly", "rapid"), 0.9);
  EXPECT_GE(wn_->Similarity("decide", "decision"), 0.9);
  EXPECT_EQ(wn_->Similarity("xqzzy", "dog"), 0.0);
  EXPECT_EQ(wn_->Similarity("dog", "cat"), wn_->Similarity("cat", "dog"));
}

// The slow reference: every hypernym path of a synset as a list from it up to a root.
void Paths(const WordNet& wn, WnPos pos, uint32_t s, std::vector<uint32_t> prefix,
           std::vector<std::vector<uint32_t>>* out) {
  prefix.push_back(s);
  WnSynset syn;
  ASSERT_TRUE(wn.ReadSynset(pos, s, &syn));
  bool any = false;
  for (const auto& p : syn.pointers)
    if ((p.symbol == "@" || p.symbol == "@i") && p.pos == pos) {
      any = true;
      Paths(wn, pos, p.offset, prefix, out);
    }
  if (!any) out->push_back(prefix);
}

double SlowWup(const WordNet& wn, WnPos pos, uint32_t a, uint32_t b) {
  auto paths = [&](uint32_t s) {
    std::vector<std::vector<uint32_t>> p;
    Paths(wn, pos, s, {}, &p);
    return p;
  };
  auto pa = paths(a), pb = paths(b);
  auto dist = [](const std::vector<std::vector<uint32_t>>& ps) {  // ancestor → shortest distance
    std::map<uint32_t, int> d;
    for (const auto& p : ps)
      for (size_t i = 0; i < p.size(); ++i)
        if (!d.count(p[i]) || d[p[i]] > static_cast<int>(i)) d[p[i]] = static_cast<int>(i);
    return d;
  };
  auto da = dist(pa), db = dist(pb);
  int best_min = -1;
  uint32_t sub = 0;
  for (auto [c, d] : da) {
    if (!db.count(c)) continue;
    auto pc = paths(c);
    int md = 1 << 20;
    for (const auto& p : pc) md = std::min(md, static_cast<int>(p.size()) - 1);
    if (md > best_min || (md == best_min && (c == a || c == b))) best_min = md, sub = c;
  }
  auto max_dist = [](const std::map<uint32_t, int>& d) {
    int m = 0;
    for (auto [c, x] : d) m = std::max(m, x);
    return m;
  };
  if (pos == WnPos::kVerb && (best_min < 0 || (best_min == 0 && sub != a)))
    return 2.0 / (max_dist(da) + 2 + max_dist(db) + 2);
  if (best_min < 0) return 0.0;
  auto ps = paths(sub);
  int depth = 0;
  for (const auto& p : ps) depth = std::max(depth, static_cast<int>(p.size()));
  auto ds = dist(ps);
  auto to_sub = [&](const std::map<uint32_t, int>& d) {
    int m = 1 << 20;
    for (auto [c, x] : ds)
      if (d.count(c)) m = std::min(m, d.at(c) + x);
    return m;
  };
  return 2.0 * depth / (to_sub(da) + depth + to_sub(db) + depth);
}

TEST_F(WordNetTest, WupAgreesWithSlowReferenceOnRandomSenses) {
  const Strings nouns = {"dog",       "cat",   "car",   "bank",     "tree",  "idea",
                         "president", "house", "water", "computer", "music", "river",
                         "money",     "city",  "game",  "law"};
  const Strings verbs = {"run", "take", "say", "hit", "eat", "think", "buy", "go", "make", "win"};
  std::mt19937 rng(17);
  int checked = 0;
  for (auto [pos, words] : {std::pair{WnPos::kNoun, &nouns}, std::pair{WnPos::kVerb, &verbs}}) {
    for (int k = 0; k < 150; ++k) {
      auto sa = wn_->LemmaSynsets((*words)[rng() % words->size()], pos);
      auto sb = wn_->LemmaSynsets((*words)[rng() % words->size()], pos);
      ASSERT_FALSE(sa.empty());
      ASSERT_FALSE(sb.empty());
      uint32_t a = sa[rng() % sa.size()], b = sb[rng() % sb.size()];
      EXPECT_NEAR(wn_->Wup(pos, a, b), SlowWup(*wn_, pos, a, b), 1e-12) << a << " " << b;
      ++checked;
    }
  }
  EXPECT_EQ(checked, 300);
}

TEST(WordNetOpenTest, MissingFilesAreAClearIoError) {
  testing::TempDir tmp;
  std::unique_ptr<WordNet> wn;
  Status s = WordNet::Open(tmp.path(), &wn);
  EXPECT_EQ(s.code(), Status::Code::kIOError);
  EXPECT_NE(s.ToString().find(tmp.path() + "/index.noun"), std::string::npos) << s.ToString();
}

}  // namespace
}  // namespace aligndb

#include "text/tokens.h"

#include <gtest/gtest.h>

#include <map>
#include <random>
#include <set>

#include "text/text.h"

namespace aligndb {
namespace {

std::vector<std::string> All(const TokenList& list) {
  std::vector<std::string> out;
  for (size_t k = 0; k < list.size(); ++k) out.emplace_back(list[k]);
  return out;
}

TEST(TokenizeIntoTest, Examples) {
  TokenList list;
  TokenizeInto("It's the U.S. in 1998, São Paulo & ΣΊΣΥΦΟΣ", &list);
  EXPECT_EQ(All(list), (std::vector<std::string>{"it", "s", "the", "u", "s", "in", "1998", "são",
                                                 "paulo", "σίσυφοσ"}));
  EXPECT_EQ(list.source_offset(0), 0u);
  EXPECT_EQ(list.source_offset(2), 5u);   // "the"
  EXPECT_EQ(list.source_offset(7), 23u);  // "São"
}

// Random text of letters, digits, marks, punctuation, invalid bytes: the same tokens as the
// reference Tokenize, appended after what the list held; each token's source offset is where
// Tokenize, started there, finds that token first.
TEST(TokenizeIntoTest, AgreesWithTokenizeOnRandomText) {
  std::mt19937 rng(5);
  const std::vector<std::string> alphabet = {
      "a", "Z",  "0", "9",      " ",      ".", "'", "(",      ";", "é",     "É",
      "ß", "Σ",  "ς", "ж",      "中",     "٣", "İ", "\u0301", "ﬁ", "\xff",  "\xc3",
      "😀", "\t", "Ǆ", "\u093f", "\u00a0", "-", "]", "D",      "Ⱥ", "\u212a"};
  TokenList list;
  for (int round = 0; round < 3000; ++round) {
    std::string s;
    int n = static_cast<int>(rng() % 40);
    for (int i = 0; i < n; ++i) s += alphabet[rng() % alphabet.size()];
    std::vector<std::string> want;
    Tokenize(s, &want);
    if (round % 7 == 0) list.Clear();
    size_t before = list.size();
    TokenizeInto(s, &list);
    ASSERT_EQ(list.size() - before, want.size()) << s;
    for (size_t k = 0; k < want.size(); ++k) {
      EXPECT_EQ(list[before + k], want[k]) << s;
      std::vector<std::string> from;
      Tokenize(std::string_view(s).substr(list.source_offset(before + k)), &from);
      ASSERT_FALSE(from.empty()) << s;
      EXPECT_EQ(from[0], want[k]) << s;
    }
  }
}

TEST(TokenizeIntoTest, StartsWithDecimalDigit) {
  EXPECT_TRUE(StartsWithDecimalDigit("1998"));
  EXPECT_TRUE(StartsWithDecimalDigit("٣x"));
  EXPECT_FALSE(StartsWithDecimalDigit("x1"));
  EXPECT_FALSE(StartsWithDecimalDigit(""));
  EXPECT_FALSE(StartsWithDecimalDigit("é"));
}

// PageTerms against the plain count (each paragraph's set of Tokenize tokens), on random pages
// of up to a few hundred distinct tokens (the table grows) and with Clear between pages.
TEST(PageTermsTest, CountsParagraphsPerTokenAsThePlainCount) {
  std::mt19937 rng(9);
  PageTerms terms;
  for (int page = 0; page < 300; ++page) {
    terms.Clear();
    std::map<std::string, uint32_t> want;
    const int paragraphs = static_cast<int>(rng() % 6);
    for (int p = 0; p < paragraphs; ++p) {
      terms.BeginParagraph();
      std::set<std::string> in_paragraph;
      for (int k = static_cast<int>(rng() % 4); k > 0; --k) {
        std::string sentence;
        for (int w = static_cast<int>(rng() % 60); w > 0; --w)
          sentence +=
              "w" + std::to_string(rng() % (page % 2 ? 400 : 20)) + (rng() % 5 ? " " : ", É ");
        terms.AddSentence(sentence);
        std::vector<std::string> toks;
        Tokenize(sentence, &toks);
        in_paragraph.insert(toks.begin(), toks.end());
      }
      for (const auto& t : in_paragraph) ++want[t];
    }
    std::map<std::string, uint32_t> got;
    for (size_t k = 0; k < terms.size(); ++k) {
      EXPECT_TRUE(got.emplace(std::string(terms.token(k)), terms.paragraphs(k)).second);
    }
    EXPECT_EQ(got, want) << "page " << page;
  }
}

}  // namespace
}  // namespace aligndb

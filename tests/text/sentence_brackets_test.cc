// Tests of the sentence splitter's rules for brackets, abbreviations and initials in other
// scripts (docs/text.md, "Sentences"), on the real sentences that motivated them and on
// counter-examples that must stay as they were.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/text.h"

namespace aligndb {
namespace {

using Sentences = std::vector<std::string>;

Sentences Split(const std::string& paragraph) {
  SentenceSplitter sp;
  Sentences fast = sp.Split(paragraph);
  EXPECT_EQ(fast, sp.SplitSlowly(paragraph)) << paragraph;
  return fast;
}

// A bracket that opened in the sentence and closes soon after the would-be break holds no
// sentence end.
TEST(SentenceBracketTest, NoBreakInsideABracketThatHoldsNoSentence) {
  EXPECT_EQ(Split("The International Convention Center \"Ukrainian House\" (Ukrainian: "
                  "\u0423\u043a\u0440\u0430\u0457\u043d\u0441\u044c\u043a\u0438\u0439 "
                  "\u0434\u0456\u043c. \u041c\u0456\u0436\u043d\u0430\u0440\u043e\u0434\u043d"
                  "\u0438\u0439 \u043a\u043e\u043d\u0433\u0440\u0435\u0441-\u0446\u0435\u043d"
                  "\u0442\u0440) is the largest international exhibition and convention center "
                  "in Kiev."),
            Sentences({"The International Convention Center \"Ukrainian House\" (Ukrainian: "
                       "\u0423\u043a\u0440\u0430\u0457\u043d\u0441\u044c\u043a\u0438\u0439 "
                       "\u0434\u0456\u043c. \u041c\u0456\u0436\u043d\u0430\u0440\u043e\u0434"
                       "\u043d\u0438\u0439 \u043a\u043e\u043d\u0433\u0440\u0435\u0441-\u0446"
                       "\u0435\u043d\u0442\u0440) is the largest international exhibition and "
                       "convention center in Kiev."}));
  EXPECT_EQ(Split("Trystavisim (ukr. \u0422\u0440\u0438\u0441\u0442\u0430\u0432\u0456\u0441"
                  "\u0456\u043c) - is a Ukrainian rock band from Uzhgorod."),
            Sentences({"Trystavisim (ukr. \u0422\u0440\u0438\u0441\u0442\u0430\u0432\u0456"
                       "\u0441\u0456\u043c) - is a Ukrainian rock band from Uzhgorod."}));
  EXPECT_EQ(Split("The oldest known mention of \"Atlantic\" is in The Histories of Herodotus "
                  "around 450 BC (Hdt. 1.202.4): Atlantis thalassa."),
            Sentences({"The oldest known mention of \"Atlantic\" is in The Histories of "
                       "Herodotus around 450 BC (Hdt. 1.202.4): Atlantis thalassa."}));
}

// Counter-examples: brackets that hold whole sentences, and brackets that open a sentence or
// never close, are split as before.
TEST(SentenceBracketTest, BracketsOfWholeSentencesAreSplit) {
  EXPECT_EQ(Split("Blues music was influenced by African music (because the black people in the "
                  "United States had come to the United States as slaves. They were taken from "
                  "Africa by force)."),
            Sentences({"Blues music was influenced by African music (because the black people "
                       "in the United States had come to the United States as slaves.",
                       "They were taken from Africa by force)."}));
  EXPECT_EQ(Split("He was the first to buy a Mac in Europe (the second being Stephen Fry, "
                  "saying Fry bought his Mac first. Fry claims he was second to Adams)."),
            Sentences({"He was the first to buy a Mac in Europe (the second being Stephen Fry, "
                       "saying Fry bought his Mac first.",
                       "Fry claims he was second to Adams)."}));
  EXPECT_EQ(Split("(He died in 1900. His son Kovpak ran it.) The firm grew."),
            Sentences({"(He died in 1900.", "His son Kovpak ran it.)", "The firm grew."}));
  EXPECT_EQ(Split("It rained (a lot. Then it stopped."),
            Sentences({"It rained (a lot.", "Then it stopped."}));
}

TEST(SentenceAbbreviationTest, CanonTranslitAndVersus) {
  EXPECT_EQ(Split("They harmed the other hierarchs through slander (violation of can. 1452 "
                  "CCEO). The synod met."),
            Sentences({"They harmed the other hierarchs through slander (violation of can. 1452 "
                       "CCEO).",
                       "The synod met."}));
  EXPECT_EQ(Split("Ukraine (Ukrainian: \u0423\u043a\u0440\u0430\u0457\u043d\u0430, tr. "
                  "Ukrayina), sometimes called the Ukraine, is a sovereign state."),
            Sentences({"Ukraine (Ukrainian: \u0423\u043a\u0440\u0430\u0457\u043d\u0430, tr. "
                       "Ukrayina), sometimes called the Ukraine, is a sovereign state."}));
  EXPECT_EQ(Split("Including SNK Vs. Capcom among top five crossover games."),
            Sentences({"Including SNK Vs. Capcom among top five crossover games."}));
  // "can" the verb at a sentence end is not the canon.
  EXPECT_EQ(Split("Do what you can. They left."), Sentences({"Do what you can.", "They left."}));
}

TEST(SentenceInitialTest, InitialsInOtherScriptsAndDigraphs) {
  EXPECT_EQ(Split("Four of them (V. Stus, Yu. Lytvyn, O. Tykhyi, V. Marchenko) died in Soviet "
                  "camps."),
            Sentences({"Four of them (V. Stus, Yu. Lytvyn, O. Tykhyi, V. Marchenko) died in "
                       "Soviet camps."}));
  EXPECT_EQ(Split("\u0423\u043a\u043b\u0430\u0434.: \u0412. \u041c. \u041b\u0435\u0431\u0435"
                  "\u0434\u0437\u0435\u0432\u0430, \u0406. \u0411. \u041c\u0430\u0442\u044f"
                  "\u0448."),
            Sentences({"\u0423\u043a\u043b\u0430\u0434.: \u0412. \u041c. \u041b\u0435\u0431"
                       "\u0435\u0434\u0437\u0435\u0432\u0430, \u0406. \u0411. \u041c\u0430"
                       "\u0442\u044f\u0448."}));
  // Counter-examples: a capital before a sentence starter, "Ye" as a name at a sentence end.
  EXPECT_EQ(Split("It is rich in vitamin \u0421. The fruit is red."),
            Sentences({"It is rich in vitamin \u0421.", "The fruit is red."}));
  EXPECT_EQ(Split("He changed his name to Ye. He left."),
            Sentences({"He changed his name to Ye.", "He left."}));
}

}  // namespace
}  // namespace aligndb

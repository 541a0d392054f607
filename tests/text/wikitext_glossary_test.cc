// Tests of the wikitext cleaner's glossary rule (docs/text.md, "Wikitext → paragraphs"): a
// paragraph written one short item a line, ending in ";", is a word list and stays out of prose.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "text/wikitext.h"

namespace aligndb {
namespace {

using Paragraphs = std::vector<std::string>;

Paragraphs Clean(const std::string& wikitext) { return CleanWikitext(wikitext).paragraphs; }

// "List of kanji by concept": one {{nowrap}} item a line, a lead-in line before some.
TEST(GlossaryTest, OneItemALineIsAList) {
  EXPECT_EQ(Clean("Kanji with multiple meanings may appear more than once.\n\n"
                  "===Handling amounts===\n\n"
                  "{{nowrap|[[wikt:\u7b97|\u7b97]] calculation;}} \n"
                  "{{nowrap|[[wikt:\u500d|\u500d]] times, double;}} \n"
                  "{{nowrap|[[wikt:\u5256|\u5256]] split in two}}\n\n"
                  "===Units===\n\n"
                  "Units of weight:\n"
                  "{{nowrap|[[wikt:\u5301|\u5301]] (around 3.75 grams);}} \n"
                  "{{nowrap|[[wikt:\u65a4|\u65a4]] (around 600 g)}}\n\n"
                  "==== Fish ====\n"
                  "{{nowrap|[[wikt:\u9b5a|\u9b5a]] fish;}} \n"
                  "{{nowrap|[[wikt:\u8c9d|\u8c9d]] shellfish;}}\n"
                  "{{nowrap|[[wikt:\u9bc9|\u9bc9]] [[carp]];}} \n"),
            Paragraphs({"Kanji with multiple meanings may appear more than once."}));
  // An item without its ";" among many with one (the page's own slip) does not make it prose.
  EXPECT_EQ(Clean("{{nowrap|a general counter;}}\n{{nowrap|b counter for ships;}}\n"
                  "{{nowrap|c miscellaneous counter}}\n{{nowrap|d counter for people}}"),
            Paragraphs());
}

// Counter-examples: prose broken over lines, a single line, lines with sentence ends, a lead-in
// followed by prose, and long lines stay.
TEST(GlossaryTest, ProseOverSeveralLinesStays) {
  EXPECT_EQ(Clean("The song has two parts; the verse\nand the chorus."),
            Paragraphs({"The song has two parts; the verse and the chorus."}));
  EXPECT_EQ(Clean("red; green; blue;"), Paragraphs({"red; green; blue;"}));
  EXPECT_EQ(Clean("He left;\nShe stayed. They met again;\nlater"),
            Paragraphs({"He left; She stayed. They met again; later"}));
  EXPECT_EQ(Clean("Units of weight:\nthe grams and the kilograms"),
            Paragraphs({"Units of weight: the grams and the kilograms"}));
  EXPECT_EQ(Clean("It was one of the first of the many places in the region to have a market;\n"
                  "it had two."),
            Paragraphs({"It was one of the first of the many places in the region to have a "
                        "market; it had two."}));
}

}  // namespace
}  // namespace aligndb

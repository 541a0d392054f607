// Tests of text/templates.h beyond the table's families in wikitext_test.cc: the {{nihongo}}
// family as Module:Nihongo arranges its arguments, and template names matched as MediaWiki
// matches them (first letter only ignoring case).
#include "text/templates.h"

#include <gtest/gtest.h>

#include "text/wikitext.h"

namespace aligndb {
namespace {

// The prose paragraphs of `wikitext`, one a line.
std::string CleanOne(const std::string& wikitext) {
  std::string out;
  for (const std::string& p : CleanWikitext(wikitext).paragraphs)
    out += (out.empty() ? "" : "\n") + p;
  return out;
}

// Without its English argument, {{nihongo}} shows the romaji first and keeps the gloss (4th
// argument) in the bracket: "Kanji" writes the readings of a kanji so.
TEST(NihongoTest, WithoutEnglishTheRomajiLeadsAndTheGlossStays) {
  EXPECT_EQ(CleanOne("such as {{Nihongo||\u83ca|kiku|\"chrysanthemum\", an on-reading}} or "
                     "{{Nihongo||\u9c2f|iwashi|\"sardine\", a kun-reading}};"),
            "such as kiku (\u83ca, \"chrysanthemum\", an on-reading) or iwashi (\u9c2f, "
            "\"sardine\", a kun-reading);");
  EXPECT_EQ(CleanOne("{{Nihongo||\u7fa9\u8a13|Gikun}} and {{Nihongo||\u719f\u5b57\u8a13|"
                     "jukujikun}} are readings of kanji combinations."),
            "Gikun (\u7fa9\u8a13) and jukujikun (\u719f\u5b57\u8a13) are readings of kanji "
            "combinations.");
  // Module:Nihongo's documented examples.
  EXPECT_EQ(CleanOne("{{Nihongo||\u6771\u4eac\u30bf\u30ef\u30fc|T\u014dky\u014d taw\u0101}}"),
            "T\u014dky\u014d taw\u0101 (\u6771\u4eac\u30bf\u30ef\u30fc)");
  EXPECT_EQ(CleanOne("{{Nihongo||\u6771\u4eac\u30bf\u30ef\u30fc|T\u014dky\u014d taw\u0101|"
                     "lead=yes}}"),
            "T\u014dky\u014d taw\u0101 (Japanese: \u6771\u4eac\u30bf\u30ef\u30fc)");
  EXPECT_EQ(CleanOne("{{Nihongo|Tokyo Tower|\u6771\u4eac\u30bf\u30ef\u30fc|T\u014dky\u014d "
                     "taw\u0101|lead=yes}}"),
            "Tokyo Tower (Japanese: \u6771\u4eac\u30bf\u30ef\u30fc, Hepburn: T\u014dky\u014d "
            "taw\u0101)");
  EXPECT_EQ(CleanOne("{{Nihongo|Sokoban|\u5009\u5eab\u756a|S\u014dko-ban|extra=a gloss}}"),
            "Sokoban (\u5009\u5eab\u756a, S\u014dko-ban, a gloss)");
  EXPECT_EQ(CleanOne("{{Nihongo||\u83ca||a flower}}"), "(\u83ca, a flower)");
  EXPECT_EQ(CleanOne("{{Nihongo|Tokyo||T\u014dky\u014d|extra2=capital}}"),
            "Tokyo (T\u014dky\u014d) capital");
  // {{nihongo3}}: the romaji first, the English in the bracket.
  EXPECT_EQ(CleanOne("{{Nihongo3|chrysanthemum|\u83ca|kiku}}"), "kiku (\u83ca, chrysanthemum)");
  EXPECT_EQ(CleanOne("{{Nihongo3|chrysanthemum|\u83ca}}"), "chrysanthemum (\u83ca)");
  // {{nihongo foot}}: the English; the rest is a footnote.
  EXPECT_EQ(CleanOne("the {{Nihongo foot|Tower|\u6771\u4eac\u30bf\u30ef\u30fc|T\u014dky\u014d "
                     "taw\u0101}} stands"),
            "the Tower stands");
}

// With the English given, as before: "English (japanese, romaji)".
TEST(NihongoTest, WithEnglishUnchanged) {
  EXPECT_EQ(CleanOne("{{nihongo|Tokyo|\u6771\u4eac|T\u014dky\u014d}} is"),
            "Tokyo (\u6771\u4eac, T\u014dky\u014d) is");
  EXPECT_EQ(CleanOne("{{nihongo|'''Mai Shiranui'''|\u4e0d\u77e5\u706b \u821e|Shiranui Mai}}"),
            "Mai Shiranui (\u4e0d\u77e5\u706b \u821e, Shiranui Mai)");
  EXPECT_EQ(CleanOne("{{Nihongo|Tokyo}}"), "Tokyo");
}

// Only a name's first letter ignores case, as in MediaWiki: "Ukrainian Braille" writes {{bc|#}},
// a braille cell, which is not {{BC}} (a year before Christ).
TEST(TemplateNameTest, OnlyTheFirstLetterIgnoresCase) {
  EXPECT_EQ(CleanOne("Numbers are the letters ''a\u2013j'' introduced with {{bc|#}}, as in other "
                     "braille alphabets."),
            "Numbers are the letters a\u2013j introduced with \u283c, as in other braille "
            "alphabets.");
  EXPECT_EQ(CleanOne("founded in {{BC|500}} by"), "founded in 500 BC by");
  EXPECT_EQ(CleanOne("founded in {{bC|500}} by"), "founded in 500 BC by");
  EXPECT_EQ(CleanOne("a {{NOWRAP|x y}} z"), "a z");
  // Counter-examples: first letter, underscores, spaces and the prefix as before.
  EXPECT_EQ(CleanOne("{{Convert|15|mi|km}} away"), "15 miles (24 km) away");
  EXPECT_EQ(CleanOne("{{IPAc-en|p|a}}{{Template:Nowrap|x  y}} and {{iPAc-en|x}}{{ nowrap |z}}"),
            "x y and z");
  EXPECT_EQ(CleanOne("{{Lang-uk|\u0423\u043a\u0440\u0430\u0457\u043d\u0430}}"),
            "Ukrainian: \u0423\u043a\u0440\u0430\u0457\u043d\u0430");
  EXPECT_EQ(CleanOne("{{Birth_date|1879|3|14}} {{HMS|Victory}} {{USS|Maine}}"),
            "March 14, 1879 HMS Victory USS Maine");
  EXPECT_EQ(NormalizeTemplateName(" Template:IPAc_en "), "iPAc en");
  EXPECT_EQ(NormalizeTemplateName("template:Birth__date"), "birth date");
}

// {{braille cell}} / {{bc}}: one Unicode cell an argument.
TEST(BrailleCellTest, DotNumbersLettersAndTheNumberSign) {
  EXPECT_EQ(CleanOne("The letter {{bc|y}} ''\u0456'' was once found in Russian Braille."),
            "The letter \u283d \u0456 was once found in Russian Braille.");
  EXPECT_EQ(CleanOne("{{bc|345}} ''\u0454'' is the mirror image"),
            "\u281c \u0454 is the mirror image");
  EXPECT_EQ(CleanOne("{{Braille cell|A|B|C}}"), "\u2801\u2803\u2809");
  EXPECT_EQ(CleanOne("{{bc|12345678}}"), "\u28ff");
  // Not dot numbers in order, or a contraction: dropped as an unknown template is.
  EXPECT_EQ(CleanOne("a {{bc|321}} b {{bc|ing}} c"), "a b c");
}

// {{coord}} without display=title shows the coordinates in the sentence, in the format they are
// given in (Module:Coordinates); "Islamabad is located at {{Coord|33.43|N|73.04|E|}} at the
// northern edge" lost them ("located at at the").
TEST(CoordTest, InlineCoordinatesShowAsWikipediaShowsThem) {
  EXPECT_EQ(CleanOne("Islamabad is located at {{Coord|33.43|N|73.04|E|}} at the northern edge of "
                     "the Pothohar Plateau."),
            "Islamabad is located at 33.43\u00b0N 73.04\u00b0E at the northern edge of the "
            "Pothohar Plateau.");
  EXPECT_EQ(CleanOne("It stands at {{coord|57|18|22|N|4|27|32|W|type:landmark}} on a hill."),
            "It stands at 57\u00b018\u203222\u2033N 4\u00b027\u203232\u2033W on a hill.");
  EXPECT_EQ(CleanOne("At {{coord|43|12|S|25|18|W|display=inline,title}} and "
                     "{{coord|44.112|-87.913}} and {{coord|-33.5|151.25|format=dms}}."),
            "At 43\u00b012\u2032S 25\u00b018\u2032W and 44.112\u00b0N 87.913\u00b0W and "
            "33\u00b030\u2032S 151\u00b015\u2032E.");
  EXPECT_EQ(CleanOne("At {{coord|44.1124|N|87.9130|W|format=dms}} and "
                     "{{coord|57|18|22|N|4|27|32|W|format=dec}}."),
            "At 44\u00b006\u203245\u2033N 87\u00b054\u203247\u2033W and 57.30611\u00b0N "
            "4.45889\u00b0W.");
  // Given longitude first, as the module allows.
  EXPECT_EQ(CleanOne("At {{coord|21|25|E|44|53|N}}."), "At 44\u00b053\u2032N 21\u00b025\u2032E.");
  // Shown beside the title only, or not understood: nothing in the text.
  EXPECT_EQ(CleanOne("The town.\n{{coord|41|16|51|N|21|20|43|E|display=title}}"), "The town.");
  // On a line of its own it is no sentence, though shown inline.
  EXPECT_EQ(CleanOne("The town.\n\n{{coord|44|53|51|N|21|25|01|E|display=inline,title}}\n"),
            "The town.");
  EXPECT_EQ(CleanOne("At {{coord|north|x}} or {{coord|12|N|x|E}} here."), "At or here.");
  // Values Module:Coordinates rejects are not shown (review).
  EXPECT_EQ(CleanOne("At {{coord|10|75|N|5|99|E}} or {{coord|95|N|5|E}} or {{coord|10.5|-190.25}} "
                     "or {{coord|1234567890123456789012345|N|5|E}} here."),
            "At or or or here.");
  // At the start of a line of prose it is part of the sentence (review).
  EXPECT_EQ(CleanOne("{{coord|51|30|N|0|7|W}} is where London stands."),
            "51\u00b030\u2032N 0\u00b07\u2032W is where London stands.");
}

}  // namespace
}  // namespace aligndb

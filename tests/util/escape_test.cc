// Escaping of data for HTML/SVG and Markdown: hostile strings come out as inert text.
#include "util/escape.h"

#include <gtest/gtest.h>

namespace aligndb {
namespace {

TEST(HtmlEscapeTest, MarkupCharactersBecomeEntities) {
  EXPECT_EQ(HtmlEscape("<script>alert('x')</script> & \"q\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; &quot;q&quot;");
  EXPECT_EQ(HtmlEscape("enwiki → simplewiki"), "enwiki → simplewiki");
}

TEST(HtmlEscapeTest, ControlCharactersThatXmlForbidsAreReplaced) {
  EXPECT_EQ(HtmlEscape(std::string("a\x01"
                                   "b\tc\nd",
                                   7)),
            "a\xEF\xBF\xBD"
            "b\tc\nd");
  EXPECT_EQ(HtmlEscape(std::string("\0", 1)), "\xEF\xBF\xBD");
}

TEST(MarkdownEscapeTest, PlainTextIsKept) {
  EXPECT_EQ(MarkdownEscape("enwiki (normal) 1-1 37.5% ≥ 0.50 Coster & Kauchak"),
            "enwiki (normal) 1-1 37.5% ≥ 0.50 Coster & Kauchak");
}

TEST(MarkdownEscapeTest, TableAndInlineSyntaxIsEscaped) {
  EXPECT_EQ(MarkdownEscape("a|b"), "a\\|b");
  EXPECT_EQ(MarkdownEscape("*x* _y_ `z` ~~s~~ \\"), "\\*x\\* \\_y\\_ \\`z\\` \\~\\~s\\~\\~ \\\\");
  EXPECT_EQ(MarkdownEscape("[click](javascript:alert(1))"), "\\[click\\](javascript:alert(1))");
  EXPECT_EQ(MarkdownEscape("![img](x)"), "\\!\\[img\\](x)");
  EXPECT_EQ(MarkdownEscape("wow!"), "wow!");
}

TEST(MarkdownEscapeTest, RawHtmlAndEntitiesCannotPass) {
  EXPECT_EQ(MarkdownEscape("<script>alert(1)</script>"), "&lt;script&gt;alert(1)&lt;/script&gt;");
  EXPECT_EQ(MarkdownEscape("&lt; &#60; & x"), "&amp;lt; &amp;#60; & x");
}

TEST(MarkdownEscapeTest, LineBreaksCannotEndARow) {
  EXPECT_EQ(MarkdownEscape("a\nb\r\n| c"), "a b  \\| c");
}

TEST(TerminalSafeTest, ControlsSeparatorsAndBidiControlsAreEscaped) {
  EXPECT_EQ(TerminalSafe("a\x1b[31mb\n"), "a\\x1b[31mb\\x0a");
  EXPECT_EQ(TerminalSafe("x\xc2\x9b"
                         "y"),
            "x\\u009by");  // C1 CSI
  EXPECT_EQ(TerminalSafe("a\xe2\x80\xae"
                         "b"),
            "a\\u202eb");  // right-to-left override
  EXPECT_EQ(TerminalSafe("a\xe2\x80\xa8"
                         "b\xe2\x81\xa9"
                         "c"),
            "a\\u2028b\\u2069c");
  // Other text is kept as it is: dashes, quotes and marks beside the escaped ranges.
  EXPECT_EQ(TerminalSafe("\xe2\x80\x94 \xe2\x80\x9c\xe2\x80\xa6 \xc3\xa9 \\"),
            "\xe2\x80\x94 \xe2\x80\x9c\xe2\x80\xa6 \xc3\xa9 \\");
  EXPECT_EQ(TerminalSafe("\xe2\x80"), "\xe2\x80");  // cut short: kept
}

}  // namespace
}  // namespace aligndb

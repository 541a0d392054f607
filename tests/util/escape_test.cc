// Escaping of data for HTML/SVG and Markdown: hostile strings come out as inert text.
#include "util/escape.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

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

// The byte-by-byte escape TerminalSafe replaced: the reference its runs of copied text must equal.
std::string TerminalSafeReference(std::string_view text) {
  std::string out;
  char buf[8];
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    const auto next = [&](size_t k) { return static_cast<unsigned char>(text[i + k]); };
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else if (c == 0xc2 && i + 1 < text.size() && next(1) >= 0x80 && next(1) <= 0x9f) {
      std::snprintf(buf, sizeof(buf), "\\u%04x", next(1));
      out += buf;
      ++i;
    } else if (c == 0xe2 && i + 2 < text.size() &&
               ((next(1) == 0x80 && next(2) >= 0xa8 && next(2) <= 0xae) ||
                (next(1) == 0x81 && next(2) >= 0xa6 && next(2) <= 0xa9))) {
      std::snprintf(buf, sizeof(buf), "\\u%04x",
                    0x2000u | ((next(1) & 0x3fu) << 6) | (next(2) & 0x3fu));
      out += buf;
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

// Random byte strings drawn from the bytes that matter (controls, 0xc2, 0xe2, 0x80-0x81,
// 0xa6-0xae, 0x9b) and printable ASCII, cut anywhere: the fast escape equals the reference.
TEST(TerminalSafeTest, EqualsTheByteByByteReferenceOnRandomInputs) {
  const unsigned char alphabet[] = {'a',  ' ',  '\\', 0x00, 0x0a, 0x1b, 0x1f, 0x7f,
                                    0xc2, 0xc3, 0xe2, 0x80, 0x81, 0x9b, 0x9f, 0xa0,
                                    0xa6, 0xa8, 0xa9, 0xae, 0xaf, 0x94, 0xe3, 0xff};
  std::mt19937 rng(7);
  for (int round = 0; round < 20000; ++round) {
    // Short strings dense in suspects, and longer ones of mostly plain text (copied 8 bytes at
    // a time between the suspects).
    const bool dense = round % 2 == 0;
    std::string text(rng() % (dense ? 24 : 80), 'x');
    for (char& c : text)
      if (dense || rng() % 16 == 0)
        c = static_cast<char>(alphabet[rng() % sizeof(alphabet)]);
      else
        c = static_cast<char>(0x20 + rng() % 0x5f);
    ASSERT_EQ(TerminalSafe(text), TerminalSafeReference(text)) << round;
    std::string appended = "prefix";
    AppendTerminalSafe(text, &appended);
    ASSERT_EQ(appended, "prefix" + TerminalSafeReference(text)) << round;
  }
}

}  // namespace
}  // namespace aligndb

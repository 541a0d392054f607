// The cleaner's fast path (runs of plain bytes copied at once) against reference::CleanWikitext
// (every pass byte by byte, as written): the same paragraphs and template names on every real
// page of the bundled dumps and on random wikitext made of real pages' pieces and markup.
#include <gtest/gtest.h>

#include <random>

#include "dump/dump.h"
#include "test_util.h"
#include "text/wikitext.h"

namespace aligndb {
namespace {

std::vector<std::string> RealPages() {
  std::vector<std::string> pages;
  for (const char* dump :
       {"wikidumps/enwiki-gensim-sample.xml.bz2", "wikidumps/simplewiki-sample.xml.bz2"}) {
    Status s = ReadMediaWikiDump(
        testing::DataPath(dump),
        [&](const SourcePage& p, const DumpInfo&) {
          if (!p.text.empty()) pages.push_back(p.text);
          return Status::OK();
        },
        nullptr);
    EXPECT_TRUE(s.ok()) << s.ToString();
  }
  return pages;
}

void ExpectSame(std::string_view text, const TextOptions& options, const std::string& what) {
  CleanedWikitext fast = CleanWikitext(text, options);
  CleanedWikitext slow = reference::CleanWikitext(text, options);
  ASSERT_EQ(fast.paragraphs, slow.paragraphs) << what;
  ASSERT_EQ(fast.template_names, slow.template_names) << what;
}

TEST(WikitextReferenceTest, RealPagesCleanAsTheReference) {
  std::vector<std::string> pages = RealPages();
  ASSERT_GT(pages.size(), 50u);
  TextOptions lists;
  lists.keep_lists = true;
  for (size_t k = 0; k < pages.size(); ++k) {
    ExpectSame(pages[k], {}, "page " + std::to_string(k));
    ExpectSame(pages[k], lists, "page " + std::to_string(k) + " (keep_lists)");
  }
}

TEST(WikitextReferenceTest, RandomFragmentsOfRealPagesCleanAsTheReference) {
  std::vector<std::string> pages = RealPages();
  ASSERT_FALSE(pages.empty());
  static const char* kMarkup[] = {"{{",
                                  "}}",
                                  "{|",
                                  "|}",
                                  "|",
                                  "\n{|",
                                  "\n|}",
                                  "[[",
                                  "]]",
                                  "[",
                                  "]",
                                  "[http://x.org a]",
                                  "'''",
                                  "''",
                                  "__TOC__",
                                  "__",
                                  "&amp;",
                                  "&#x41;",
                                  "&nbsp;",
                                  "&",
                                  ";",
                                  "(",
                                  ")",
                                  " ,",
                                  " .",
                                  "(; )",
                                  ", ,",
                                  "\xC2\xA0",
                                  "\xC2",
                                  "<ref>",
                                  "</ref>",
                                  "<!--",
                                  "-->",
                                  "<br>",
                                  "\n",
                                  "\n\n",
                                  "* ",
                                  "== H ==",
                                  ":",
                                  "{{convert|15|mi|km}}",
                                  "{{lang|fr|mot}}",
                                  "{{Inflation|US|787|2008}}",
                                  "(equivalent to {{Inflation|US|1|2000}})",
                                  "a .22",
                                  "Inc.,",
                                  "{{quote|",
                                  "{{quote|A said. }}",
                                  "<blockquote>",
                                  "</blockquote>",
                                  "\nKennedy:",
                                  "\n<!-- c -->\n",
                                  "\t"};
  std::mt19937 rng(2024);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text;
    for (int piece = 0, n = 1 + static_cast<int>(rng() % 12); piece < n; ++piece) {
      if (rng() % 2) {
        text += kMarkup[rng() % (sizeof(kMarkup) / sizeof(kMarkup[0]))];
      } else {
        const std::string& page = pages[rng() % pages.size()];
        size_t at = rng() % page.size(), len = rng() % 400;
        text += page.substr(at, len);
      }
    }
    ExpectSame(text, {}, "trial " + std::to_string(trial) + ": " + text);
  }
}

TEST(WikitextReferenceTest, ComputedValuesAndTheirBracketsGoAsInTheReference) {
  // Paragraphs dense in brackets and values aligndb cannot compute: the one-pass removal
  // against the one that searches and erases marker by marker.
  static const char* kPieces[] = {"(", ")", "a ", "b. ", "{{Inflation|US|5|2000}}", "((", "))"};
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3000; ++trial) {
    std::string text = "Start ";
    for (int piece = 0, n = 1 + static_cast<int>(rng() % 30); piece < n; ++piece)
      text += kPieces[rng() % (sizeof(kPieces) / sizeof(kPieces[0]))];
    ExpectSame(text, {}, "trial " + std::to_string(trial) + ": " + text);
  }
}

}  // namespace
}  // namespace aligndb

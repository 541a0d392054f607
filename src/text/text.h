// Text processing (docs/text.md): paragraphs → sentences, sentences → tokens, and the article flags
// used by the pairing filter; wikitext → paragraphs is in text/wikitext.h. Every paragraph and
// sentence stored by aligndb comes through these interfaces.
#ifndef ALIGNDB_TEXT_TEXT_H_
#define ALIGNDB_TEXT_TEXT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "aligndb/status.h"
#include "dump/dump.h"

namespace aligndb {

struct TextOptions {
  // Keep list items (lines starting with *, #, :, ;) as paragraphs of their own.
  // Default: false (docs/method.md: list items are not prose paragraphs).
  bool keep_lists = false;
  // Drop inline <math> with its content, as the other non-prose tags (docs/text.md, "Inline
  // math"). Default: false (short formulas a sentence holds show as the plain text a reader
  // sees; display formulas are always dropped).
  bool drop_inline_math = false;
};

// Flag bits; equal to pb::ArticleFlag.
enum ArticleFlagBits : uint32_t {
  kFlagStub = 1,
  kFlagDisambiguation = 2,
  kFlagMeta = 4,
  kFlagSingleLine = 8,
};
// "stub", "disambiguation", "meta", "single_line" for the set bits, in that order.
std::vector<std::string> FlagNames(uint32_t flags);
// Inverse of FlagNames; unknown names are an error.
Status ParseFlagNames(const std::vector<std::string>& names, uint32_t* flags);

// Put right after a "!" or "?" that ends no sentence although a word follows it after a space
// (a mark inside an italic title or a link's text: CleanWikitext knows the italics and links, the
// splitter does not), after a "." inside a link's text ("Samuel I.\u2060 Hayakawa") and after the
// "." that starts a word (".\u2060NET", which the splitter would end a sentence at). Put
// before the "." after an italic variable ("G\u2060. Using"), it keeps the splitter from reading
// the letter as an initial.
// U+2060 WORD JOINER, a format character that ICU's sentence rules ignore, so ICU's boundary
// falls after the space; SentenceSplitter removes that boundary and the mark, so the mark never
// reaches a stored sentence.
inline constexpr std::string_view kNoSentenceBreak = "\u2060";

// Put right after a "Jr." or "Sr." that a reference follows before a capitalised word
// ("[[Martin Luther King Jr.]]<ref>…</ref> Baker was"): the name ends there, and the sentence
// with it, which the splitter cannot tell from "King Jr. Day". U+2063 INVISIBLE SEPARATOR, a
// format character ICU ignores like kNoSentenceBreak; SentenceSplitter keeps the boundary after
// it and removes the mark.
inline constexpr std::string_view kSentenceBreak = "\u2063";

// Whether a source line of a paragraph that ends in `line` ends its sentence there before the
// next line `next_line`: a dotted abbreviation that can end a sentence ("U.S.", "D.C.", "p.m.")
// at the line's end, a capitalised word opening the next one, not a word of a name ("the western
// U.S." / "Denver International Airport is …" is two sentences; "the U.S." / "Army" is one).
// CleanWikitext then puts kSentenceBreak after the period, as the splitter sees no line breaks.
bool AbbreviationEndsLine(std::string_view line, std::string_view next_line);

// Whether `letters` and a period make one of the splitter's abbreviations, which end no sentence
// before a capitalised word ("Dr", "Gen", "approx", "vs"). CleanWikitext asks it of the word
// before a formula that would start a sentence.
bool IsSplitterAbbreviation(std::string_view letters);

// `s` without U+2063: a page's own invisible separators (they show nothing) are removed before
// cleaning or splitting, so that only CleanWikitext's kSentenceBreak ends a sentence.
std::string WithoutSentenceBreaks(std::string_view s);

// Splits a paragraph into sentences with ICU's sentence break rules plus an abbreviation list
// (titles such as "Dr.", initials, "U.S.", "e.g.", ...). A "!" or "?" followed by
// kNoSentenceBreak ends no sentence, and the mark is removed. Not thread-safe: one per thread.
class SentenceSplitter {
 public:
  SentenceSplitter();
  ~SentenceSplitter();
  SentenceSplitter(const SentenceSplitter&) = delete;
  SentenceSplitter& operator=(const SentenceSplitter&) = delete;

  // Sentences of `paragraph`, trimmed, empty ones dropped.
  std::vector<std::string> Split(std::string_view paragraph);
  // The same, the obvious way (each ICU segment converted back to UTF-8): the reference that
  // Split is tested against, and its path for ill-formed UTF-8.
  std::vector<std::string> SplitSlowly(std::string_view paragraph);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Appends the TF-IDF tokens of `text` (docs/method.md, Tokens): maximal runs of Unicode letters and
// digits (combining marks continue a run), case-folded with Unicode simple case folding.
void Tokenize(std::string_view text, std::vector<std::string>* tokens);

// Title normalization for pairing (docs/method.md, Pairing): underscores are spaces, runs of spaces
// fold to one, surrounding space is trimmed, and the first character is upper-cased.
std::string NormalizeTitle(std::string_view title);

// The article flags (docs/method.md) of a page from its title, namespace, the templates it used and
// its sentence count. `namespace_id` < 0 means unknown (JSONL input): then only the title decides
// `meta`.
uint32_t ComputeFlags(std::string_view title, int32_t namespace_id,
                      const std::vector<std::string>& template_names, size_t sentence_count);

// A page after text processing: what the store keeps.
struct ProcessedPage {
  std::vector<std::vector<std::string>> paragraphs;  // paragraphs → sentences
  uint32_t flags = 0;
};

// Runs the whole text pipeline on a page: cleaning (wikitext), sentence splitting (unless the
// input is already split), and flags (unless the input gives them). Not thread-safe.
class TextProcessor {
 public:
  explicit TextProcessor(TextOptions options = {});
  Status Process(const SourcePage& page, ProcessedPage* out);
  const TextOptions& options() const { return options_; }

 private:
  TextOptions options_;
  SentenceSplitter splitter_;
};

}  // namespace aligndb

#endif  // ALIGNDB_TEXT_TEXT_H_

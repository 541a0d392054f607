// Tokens without a string per token: the tokenizer that ingest and align run on every sentence.
// Its tokens are exactly Tokenize's (text/text.h, docs/method.md, Tokens), which stays as the
// plain reference it is tested against.
#ifndef ALIGNDB_TEXT_TOKENS_H_
#define ALIGNDB_TEXT_TOKENS_H_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace aligndb {

// Tokens stored back to back in one buffer. Views from operator[] stay valid until the next
// TokenizeInto or Clear.
class TokenList {
 public:
  void Clear() {
    chars_.clear();
    ends_.clear();
    starts_.clear();
  }
  size_t size() const { return ends_.size(); }
  std::string_view operator[](size_t k) const {
    uint32_t begin = k == 0 ? 0 : ends_[k - 1];
    return std::string_view(chars_.data() + begin, ends_[k] - begin);
  }
  // Byte offset of token k's first character in the text that TokenizeInto read it from.
  uint32_t source_offset(size_t k) const { return starts_[k]; }

 private:
  friend void TokenizeInto(std::string_view text, TokenList* out);
  std::string chars_;
  std::vector<uint32_t> ends_;    // token k is chars_[ends_[k - 1], ends_[k])
  std::vector<uint32_t> starts_;  // source offsets
};

// Appends the tokens of `text` to `out`: the same tokens as Tokenize(text), in order.
void TokenizeInto(std::string_view text, TokenList* out);

// The Unicode data the tokens come from ("Unicode 14.0, ICU 72.1"): letters, digits and case
// folding follow it, so another version may read the same text as other tokens.
std::string TokenizerVersion();

// Hashing of tokens (XXH3: short strings in few instructions), also for maps looked up by a
// string_view without a copy.
struct TokenHash {
  using is_transparent = void;
  size_t operator()(std::string_view s) const noexcept;
};

// Whether the first character of a folded token is a decimal digit (Unicode Nd).
bool StartsWithDecimalDigit(std::string_view token);

// What a page adds to its edition's document frequencies (docs/method.md, TF-IDF): each distinct
// token of the page with the number of the page's paragraphs that contain it. Built paragraph by
// paragraph; reusable (Clear keeps the memory).
class PageTerms {
 public:
  void Clear();
  // Starts the next paragraph; its sentences follow with AddSentence.
  void BeginParagraph() { ++paragraph_; }
  void AddSentence(std::string_view sentence);

  size_t size() const { return ends_.size(); }
  std::string_view token(size_t k) const {
    uint32_t begin = k == 0 ? 0 : ends_[k - 1];
    return std::string_view(chars_.data() + begin, ends_[k] - begin);
  }
  // The number of paragraphs holding token k.
  uint32_t paragraphs(size_t k) const { return paragraphs_[k]; }

 private:
  size_t Slot(std::string_view t, size_t hash) const;
  void Grow();
  TokenList sentence_;
  std::string chars_;
  std::vector<uint32_t> ends_, paragraphs_, last_paragraph_;
  std::vector<size_t> hashes_;
  std::vector<uint32_t> slots_;  // token index + 1, 0 = empty; a power of two, at most half full
  std::vector<uint32_t> used_;   // the slots holding a token
  uint32_t paragraph_ = 0;
};

}  // namespace aligndb

#endif  // ALIGNDB_TEXT_TOKENS_H_

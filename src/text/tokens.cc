#include "text/tokens.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <functional>

namespace aligndb {
namespace {
inline bool IsAsciiAlnum(uint8_t b) {
  return (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') || (b >= '0' && b <= '9');
}
}  // namespace

void TokenizeInto(std::string_view text, TokenList* out) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t n = static_cast<int32_t>(text.size());
  std::string& chars = out->chars_;
  size_t token_begin = chars.size();  // the current token's characters start here
  uint32_t start = 0;
  auto flush = [&]() {
    if (chars.size() == token_begin) return;
    out->ends_.push_back(static_cast<uint32_t>(chars.size()));
    out->starts_.push_back(start);
    token_begin = chars.size();
  };
  int32_t i = 0;
  while (i < n) {
    uint8_t b = p[i];
    if (IsAsciiAlnum(b)) {  // a run of ASCII letters and digits, lower-cased as it is copied
      if (chars.size() == token_begin) start = static_cast<uint32_t>(i);
      int32_t j = i + 1;
      while (j < n && IsAsciiAlnum(p[j])) ++j;
      const size_t at = chars.size();
      chars.append(reinterpret_cast<const char*>(p + i), static_cast<size_t>(j - i));
      for (size_t k = at; k < chars.size(); ++k)
        if (chars[k] >= 'A' && chars[k] <= 'Z') chars[k] = static_cast<char>(chars[k] + 32);
      i = j;
      continue;
    }
    if (b < 0x80) {  // ASCII space or punctuation
      ++i;
      flush();
      continue;
    }
    const int32_t at = i;
    UChar32 c;
    U8_NEXT(p, i, n, c);
    if (c < 0) {
      flush();
      continue;
    }
    int8_t type = u_charType(c);
    bool letter_or_digit = u_isalpha(c) || type == U_DECIMAL_DIGIT_NUMBER;
    bool mark =
        type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK || type == U_ENCLOSING_MARK;
    if (letter_or_digit || (mark && chars.size() > token_begin)) {
      UChar32 folded = u_foldCase(c, U_FOLD_CASE_DEFAULT);
      char buf[4];
      int32_t len = 0;
      UBool err = false;
      U8_APPEND(buf, len, 4, folded, err);
      if (!err) {
        if (chars.size() == token_begin) start = static_cast<uint32_t>(at);
        chars.append(buf, static_cast<size_t>(len));
      }
    } else {
      flush();
    }
  }
  flush();
}

bool StartsWithDecimalDigit(std::string_view token) {
  if (token.empty()) return false;
  auto b = static_cast<uint8_t>(token[0]);
  if (b < 0x80) return b >= '0' && b <= '9';
  const auto* p = reinterpret_cast<const uint8_t*>(token.data());
  int32_t i = 0, n = static_cast<int32_t>(token.size());
  UChar32 c;
  U8_NEXT(p, i, n, c);
  return c >= 0 && u_charType(c) == U_DECIMAL_DIGIT_NUMBER;
}

void PageTerms::Clear() {
  chars_.clear();
  ends_.clear();
  paragraphs_.clear();
  last_paragraph_.clear();
  hashes_.clear();
  std::fill(slots_.begin(), slots_.end(), 0);
  paragraph_ = 0;
}

size_t PageTerms::Slot(std::string_view t, size_t hash) const {
  const size_t mask = slots_.size() - 1;
  for (size_t i = hash & mask;; i = (i + 1) & mask) {
    const uint32_t at = slots_[i];
    if (at == 0 || (hashes_[at - 1] == hash && token(at - 1) == t)) return i;
  }
}

void PageTerms::Grow() {
  slots_.assign(std::max<size_t>(256, slots_.size() * 2), 0);
  for (uint32_t k = 0; k < ends_.size(); ++k) slots_[Slot(token(k), hashes_[k])] = k + 1;
}

void PageTerms::AddSentence(std::string_view sentence) {
  sentence_.Clear();
  TokenizeInto(sentence, &sentence_);
  for (size_t i = 0; i < sentence_.size(); ++i) {
    const std::string_view t = sentence_[i];
    if ((ends_.size() + 1) * 2 > slots_.size()) Grow();
    const size_t hash = std::hash<std::string_view>()(t);
    const size_t slot = Slot(t, hash);
    uint32_t k = slots_[slot];
    if (k == 0) {
      chars_.append(t);
      ends_.push_back(static_cast<uint32_t>(chars_.size()));
      paragraphs_.push_back(0);
      last_paragraph_.push_back(0);
      hashes_.push_back(hash);
      k = slots_[slot] = static_cast<uint32_t>(ends_.size());
    }
    if (last_paragraph_[k - 1] != paragraph_) {  // first time in this paragraph
      last_paragraph_[k - 1] = paragraph_;
      ++paragraphs_[k - 1];
    }
  }
}

}  // namespace aligndb

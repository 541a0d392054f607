#include "text/tokens.h"

#include <unicode/uchar.h>
#include <unicode/utf8.h>
#include <unicode/uversion.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <functional>

namespace aligndb {
namespace {

// Per byte: the lower-cased byte of an ASCII letter or digit, kSeparator for other ASCII, kWide
// for the bytes of longer UTF-8 sequences.
constexpr uint8_t kSeparator = 0, kWide = 0xFF;
constexpr std::array<uint8_t, 256> kAsciiClass = [] {
  std::array<uint8_t, 256> t{};
  for (int b = 0x80; b < 0x100; ++b) t[b] = kWide;
  for (int b = '0'; b <= '9'; ++b) t[b] = static_cast<uint8_t>(b);
  for (int b = 'a'; b <= 'z'; ++b) t[b] = static_cast<uint8_t>(b);
  for (int b = 'A'; b <= 'Z'; ++b) t[b] = static_cast<uint8_t>(b + 32);
  return t;
}();

}  // namespace

void TokenizeInto(std::string_view text, TokenList* out) {
  const auto* p = reinterpret_cast<const uint8_t*>(text.data());
  const int32_t n = static_cast<int32_t>(text.size());
  std::string& chars = out->chars_;
  // Written through a pointer into room made beforehand: simple case folding turns a code point
  // of k bytes into at most k + 1 bytes (e.g. U+023A, 2 bytes, into U+2C65, 3 bytes), so twice
  // the text's length always suffices.
  const size_t base = chars.size();
  chars.resize(base + 2 * text.size() + 4);
  char* const data = chars.data();
  char* w = data + base;
  char* token = w;  // the current token's first byte
  uint32_t start = 0;
  auto flush = [&]() {
    if (w == token) return;
    out->ends_.push_back(static_cast<uint32_t>(w - data));
    out->starts_.push_back(start);
    token = w;
  };
  int32_t i = 0;
  while (i < n) {
    uint8_t c = kAsciiClass[p[i]];
    if (c != kSeparator && c != kWide) {  // a run of ASCII letters and digits, lower-cased
      if (w == token) start = static_cast<uint32_t>(i);
      do {
        *w++ = static_cast<char>(c);
        if (++i == n) break;
        c = kAsciiClass[p[i]];
      } while (c != kSeparator && c != kWide);
      continue;
    }
    if (c == kSeparator) {  // ASCII space or punctuation
      ++i;
      flush();
      continue;
    }
    const int32_t at = i;
    UChar32 cp;
    U8_NEXT(p, i, n, cp);
    if (cp < 0) {
      flush();
      continue;
    }
    int8_t type = u_charType(cp);
    bool letter_or_digit = u_isalpha(cp) || type == U_DECIMAL_DIGIT_NUMBER;
    bool mark =
        type == U_NON_SPACING_MARK || type == U_COMBINING_SPACING_MARK || type == U_ENCLOSING_MARK;
    if (letter_or_digit || (mark && w != token)) {
      UChar32 folded = u_foldCase(cp, U_FOLD_CASE_DEFAULT);
      char buf[4];
      int32_t len = 0;
      UBool err = false;
      U8_APPEND(buf, len, 4, folded, err);
      if (!err) {
        if (w == token) start = static_cast<uint32_t>(at);
        for (int32_t k = 0; k < len; ++k) *w++ = buf[k];
      }
    } else {
      flush();
    }
  }
  flush();
  chars.resize(static_cast<size_t>(w - data));
}

size_t TokenHash::operator()(std::string_view s) const noexcept {
  return static_cast<size_t>(XXH3_64bits(s.data(), s.size()));
}

std::string TokenizerVersion() {
  return std::string("Unicode ") + U_UNICODE_VERSION + ", ICU " + U_ICU_VERSION;
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
  // Only the slots in use: the table keeps the size of the largest page, most pages are small.
  for (uint32_t i : used_) slots_[i] = 0;
  used_.clear();
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
  used_.clear();
  for (uint32_t k = 0; k < ends_.size(); ++k) {
    const size_t i = Slot(token(k), hashes_[k]);
    slots_[i] = k + 1;
    used_.push_back(static_cast<uint32_t>(i));
  }
}

void PageTerms::AddSentence(std::string_view sentence) {
  sentence_.Clear();
  TokenizeInto(sentence, &sentence_);
  for (size_t i = 0; i < sentence_.size(); ++i) {
    const std::string_view t = sentence_[i];
    if ((ends_.size() + 1) * 2 > slots_.size()) Grow();
    const size_t hash = TokenHash()(t);
    const size_t slot = Slot(t, hash);
    uint32_t k = slots_[slot];
    if (k == 0) {
      chars_.append(t);
      ends_.push_back(static_cast<uint32_t>(chars_.size()));
      paragraphs_.push_back(0);
      last_paragraph_.push_back(0);
      hashes_.push_back(hash);
      k = slots_[slot] = static_cast<uint32_t>(ends_.size());
      used_.push_back(static_cast<uint32_t>(slot));
    }
    if (last_paragraph_[k - 1] != paragraph_) {  // first time in this paragraph
      last_paragraph_[k - 1] = paragraph_;
      ++paragraphs_[k - 1];
    }
  }
}

}  // namespace aligndb

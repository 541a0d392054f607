#include "util/escape.h"

#include <array>
#include <cstdint>
#include <cstdio>
#include <cstring>

namespace aligndb {

std::string HtmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n' && c != '\r')
          out += "\xEF\xBF\xBD";
        else
          out += c;
    }
  }
  return out;
}

namespace {

bool Alnum(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

}  // namespace

std::string MarkdownEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    char c = s[i];
    switch (c) {
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '|':
      case '~':
        out += '\\';
        out += c;
        break;
      case '!':
        if (i + 1 < s.size() && s[i + 1] == '[') out += '\\';
        out += c;
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '&':
        // "&name;" and "&#123;" are entity references; a lone & is text.
        out += (i + 1 < s.size() && (Alnum(s[i + 1]) || s[i + 1] == '#')) ? "&amp;" : "&";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F)
          out += ' ';
        else
          out += c;
    }
  }
  return out;
}

namespace {

// The bytes that may start something TerminalSafe escapes: C0 controls, DEL, and the lead bytes
// of the C1 controls (0xc2) and of the separators and bidirectional controls (0xe2). Text between
// them is copied in one piece.
constexpr std::array<bool, 256> kTerminalSuspect = [] {
  std::array<bool, 256> t{};
  for (int c = 0; c < 0x20; ++c) t[c] = true;
  t[0x7f] = t[0xc2] = t[0xe2] = true;
  return t;
}();

// The escape of the sequence starting at text[i] and its length in bytes; 0 when it is kept.
size_t TerminalEscape(std::string_view text, size_t i, char (&buf)[8]) {
  const auto at = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char c = at(i);
  if (c < 0x20 || c == 0x7f) {
    std::snprintf(buf, sizeof(buf), "\\x%02x", c);
    return 1;
  }
  // UTF-8 of a C1 control: some terminals act on U+009B (CSI) as on ESC [.
  if (c == 0xc2 && i + 1 < text.size() && at(i + 1) >= 0x80 && at(i + 1) <= 0x9f) {
    std::snprintf(buf, sizeof(buf), "\\u%04x", at(i + 1));
    return 2;
  }
  // U+2028/2029 (line and paragraph separators) and the bidirectional embeddings, overrides and
  // isolates (U+202A-202E, U+2066-2069): they break a line or reorder what is shown.
  if (c == 0xe2 && i + 2 < text.size() &&
      ((at(i + 1) == 0x80 && at(i + 2) >= 0xa8 && at(i + 2) <= 0xae) ||
       (at(i + 1) == 0x81 && at(i + 2) >= 0xa6 && at(i + 2) <= 0xa9))) {
    const unsigned cp = 0x2000u | ((at(i + 1) & 0x3fu) << 6) | (at(i + 2) & 0x3fu);
    std::snprintf(buf, sizeof(buf), "\\u%04x", cp);
    return 3;
  }
  return 0;
}

// Whether any of the 8 bytes in `w` is a kTerminalSuspect byte (exact: no byte is missed, and
// none is reported that is not there).
bool AnySuspect(uint64_t w) {
  constexpr uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
  const auto below = [&](uint64_t x, uint64_t n) { return (x - kOnes * n) & ~x & kHighs; };
  const auto zero = [&](uint64_t x) { return below(x, 1); };
  return (below(w, 0x20) | zero(w ^ (kOnes * 0x7f)) | zero(w ^ (kOnes * 0xc2)) |
          zero(w ^ (kOnes * 0xe2))) != 0;
}

}  // namespace

void AppendTerminalSafe(std::string_view text, std::string* out) {
  char buf[8];
  size_t run = 0;  // start of the text not yet copied
  for (size_t i = 0; i < text.size(); ++i) {
    // Eight bytes at a time past plain text (most of a sentence).
    while (i + 8 <= text.size()) {
      uint64_t w;
      std::memcpy(&w, text.data() + i, 8);
      if (AnySuspect(w)) break;
      i += 8;
    }
    if (i >= text.size()) break;
    if (!kTerminalSuspect[static_cast<unsigned char>(text[i])]) continue;
    const size_t n = TerminalEscape(text, i, buf);
    if (n == 0) continue;
    out->append(text.data() + run, i - run);
    out->append(buf);
    i += n - 1;
    run = i + 1;
  }
  out->append(text.data() + run, text.size() - run);
}

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  AppendTerminalSafe(text, &out);
  return out;
}

}  // namespace aligndb

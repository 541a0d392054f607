#include "util/escape.h"

#include <cstdio>

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

std::string TerminalSafe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  char buf[8];
  for (size_t i = 0; i < text.size(); ++i) {
    const auto c = static_cast<unsigned char>(text[i]);
    if (c < 0x20 || c == 0x7f) {
      std::snprintf(buf, sizeof(buf), "\\x%02x", c);
      out += buf;
    } else if (c == 0xc2 && i + 1 < text.size() &&
               static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
               static_cast<unsigned char>(text[i + 1]) <= 0x9f) {
      // UTF-8 of a C1 control: some terminals act on U+009B (CSI) as on ESC [.
      std::snprintf(buf, sizeof(buf), "\\u%04x", static_cast<unsigned char>(text[++i]));
      out += buf;
    } else if (c == 0xe2 && i + 2 < text.size() &&
               ((static_cast<unsigned char>(text[i + 1]) == 0x80 &&
                 static_cast<unsigned char>(text[i + 2]) >= 0xa8 &&
                 static_cast<unsigned char>(text[i + 2]) <= 0xae) ||
                (static_cast<unsigned char>(text[i + 1]) == 0x81 &&
                 static_cast<unsigned char>(text[i + 2]) >= 0xa6 &&
                 static_cast<unsigned char>(text[i + 2]) <= 0xa9))) {
      // U+2028/2029 (line and paragraph separators) and the bidirectional embeddings, overrides
      // and isolates (U+202A-202E, U+2066-2069): they break a line or reorder what is shown.
      const unsigned cp = 0x2000u | ((static_cast<unsigned char>(text[i + 1]) & 0x3fu) << 6) |
                          (static_cast<unsigned char>(text[i + 2]) & 0x3fu);
      std::snprintf(buf, sizeof(buf), "\\u%04x", cp);
      out += buf;
      i += 2;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

}  // namespace aligndb

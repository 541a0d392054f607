#include "cli/terminal.h"

#include <unistd.h>

#include <cstdio>

namespace aligndb::cli {

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

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
    } else {
      out += static_cast<char>(c);
    }
  }
  return out;
}

ProgressLine::~ProgressLine() {
  if (shown_) std::fputc('\n', stderr);
}

void ProgressLine::Show(std::string_view text) {
  if (!enabled_) return;
  std::fprintf(stderr, "\r%s", TerminalSafe(text).c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace aligndb::cli

#include "cli/terminal.h"

#include <unistd.h>

#include <cstdio>

namespace aligndb::cli {

bool StderrIsTerminal() { return isatty(STDERR_FILENO) == 1; }

ProgressLine::~ProgressLine() {
  if (shown_) std::fputc('\n', stderr);
}

void ProgressLine::Show(std::string_view text) {
  if (!enabled_) return;
  // Erased to the line's end (ESC [K): a shorter line leaves nothing of the one before.
  std::fprintf(stderr, "\r%s\x1b[K", TerminalSafe(text).c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace aligndb::cli

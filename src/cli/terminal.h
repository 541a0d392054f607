// What the command line writes for a person at a terminal: progress on stderr, and text from
// the data made safe to print.
#ifndef ALIGNDB_CLI_TERMINAL_H_
#define ALIGNDB_CLI_TERMINAL_H_

#include <string>
#include <string_view>

#include "util/escape.h"

namespace aligndb::cli {

using ::aligndb::TerminalSafe;

bool StderrIsTerminal();

// One progress line on stderr, redrawn in place; drawn only when `enabled` (stderr is a
// terminal) and ended with a newline when the object dies.
class ProgressLine {
 public:
  explicit ProgressLine(bool enabled) : enabled_(enabled) {}
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool enabled() const { return enabled_; }
  // Replaces the line with `text` (escaped as TerminalSafe does).
  void Show(std::string_view text);

 private:
  bool enabled_;
  bool shown_ = false;
};

}  // namespace aligndb::cli

#endif  // ALIGNDB_CLI_TERMINAL_H_
